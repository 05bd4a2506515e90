# services.ombi-mcp: the Ombi MCP daemon behind a socket-activated Unix socket.
#
# systemd owns the socket (ombi-mcp.socket) and starts ombi-mcp.service on the first connection.
# The daemon runs as a DynamicUser, reads its secret through LoadCredential (never the store, never
# the environment) and decides per connection, from the peer's uid, who may use which tools
# (the JSON policy rendered from `peers`). See docs/install-nixos.md and docs/security.md.
{
  config,
  lib,
  pkgs,
  ...
}:

let
  cfg = config.services.ombi-mcp;
  inherit (lib)
    mkOption
    mkEnableOption
    mkIf
    types
    ;

  bundleType = types.enum [
    "core"
    "moderation"
    "administration"
  ];

  defaultSocket = "/run/ombi-mcp/mcp.sock";

  peerModule = {
    options = {
      uid = mkOption {
        type = types.nullOr types.ints.unsigned;
        default = null;
        description = "Match the connecting process's uid. Set exactly one of uid, user, group.";
      };
      user = mkOption {
        type = types.nullOr types.str;
        default = null;
        description = "Match the connecting process's user by name.";
      };
      group = mkOption {
        type = types.nullOr types.str;
        default = null;
        description = "Match a group: the peer's primary gid or a supplementary group of the peer's user.";
      };
      bundles = mkOption {
        type = types.nullOr (types.listOf bundleType);
        default = null;
        description = "Bundles this peer sees; null means all of services.ombi-mcp.bundles. Always intersected with them.";
      };
      readOnly = mkOption {
        type = types.bool;
        default = false;
        description = "Hide and refuse every write_* tool for this peer (services.ombi-mcp.readOnly overrides).";
      };
      ombiUser = mkOption {
        type = types.nullOr types.str;
        default = null;
        description = "api_key mode only: the Ombi user this peer acts as (UserName header).";
      };
    };
  };

  # Policy file entries in the daemon's spelling; unset fields are left out so the daemon's
  # defaults apply.
  renderPeer =
    peer:
    lib.filterAttrs (_: v: v != null) {
      inherit (peer)
        uid
        user
        group
        bundles
        ;
      read_only = peer.readOnly;
      ombi_user = peer.ombiUser;
    };

  policyFile = pkgs.writeText "ombi-mcp-policy.json" (
    builtins.toJSON { peers = map renderPeer cfg.peers; }
  );

  # A secret's path: absolute and outside the world-readable store. A string, never a path
  # literal (`./pw` would be copied into the store).
  secretPath = types.nullOr (
    types.pathWith {
      absolute = true;
      inStore = false;
    }
  );

  # What the URL must not carry: it lands in the store and in the unit's environment.
  urlProblems =
    lib.optional (builtins.match "https?://[^/?#]*@.*" cfg.url != null) "user-info (user:password@)"
    ++ lib.optional (lib.hasInfix "?" cfg.url) "a query (?…)"
    ++ lib.optional (lib.hasInfix "#" cfg.url) "a fragment (#…)";

  # Options of the auth mode not chosen: set, they are ignored.
  otherModeOptions = lib.filter (name: cfg.${name} != null) (
    if cfg.authMode == "jwt" then
      [
        "apiKeyFile"
        "apiUserName"
      ]
    else
      [
        "username"
        "passwordFile"
      ]
  );

  credentials =
    lib.optional (cfg.authMode == "jwt" && cfg.passwordFile != null) "ombi-password:${cfg.passwordFile}"
    ++ lib.optional (cfg.authMode == "api_key" && cfg.apiKeyFile != null) "ombi-api-key:${cfg.apiKeyFile}";

  environment = {
    OMBI_URL = cfg.url;
    OMBI_AUTH_MODE = cfg.authMode;
    OMBI_BUNDLES = lib.concatStringsSep "," cfg.bundles;
    OMBI_READ_ONLY = lib.boolToString cfg.readOnly;
    OMBI_HTTP_TIMEOUT = toString cfg.httpTimeout;
    # Unused under socket activation; set so `ombi-mcpd --check-config` and logs name the same path.
    OMBI_MCP_SOCKET = cfg.socket.path;
    RUST_LOG = cfg.logLevel;
  }
  // lib.optionalAttrs (cfg.authMode == "jwt" && cfg.username != null) { OMBI_USERNAME = cfg.username; }
  // lib.optionalAttrs (cfg.authMode == "api_key" && cfg.apiUserName != null) {
    OMBI_USER_NAME = cfg.apiUserName;
  }
  # A derivation, not a string, so the evaluation test can read the rendered file's text.
  // lib.optionalAttrs (cfg.peers != [ ]) { OMBI_MCP_POLICY = policyFile; }
  // cfg.extraEnvironment;

  # An entry by its index and its settings, so it can be found even without uid/user/group.
  peerName =
    i: peer:
    "services.ombi-mcp.peers.${toString i} ${
      lib.generators.toPretty { multiline = false; } (
        lib.filterAttrs (n: v: v != null && n != "_module" && !(n == "readOnly" && v == false)) peer
      )
    }";
in
{
  options.services.ombi-mcp = {
    enable = mkEnableOption "the Ombi MCP server (ombi-mcpd behind a socket-activated Unix socket)";

    package = mkOption {
      type = types.package;
      default = pkgs.ombi-mcp or (pkgs.callPackage ./package.nix { });
      defaultText = lib.literalExpression "pkgs.ombi-mcp or (pkgs.callPackage ./package.nix { })";
      description = "The package providing ombi-mcpd and the ombi-mcp shim.";
    };

    url = mkOption {
      type = types.strMatching "https?://.+";
      example = "https://media.example.org/ombi";
      description = "Base URL of Ombi; a path prefix is kept. No user-info, query or fragment (asserted): it is world-readable in the store.";
    };

    authMode = mkOption {
      type = types.enum [
        "jwt"
        "api_key"
      ];
      description = "jwt: log in as `username` with the password in `passwordFile`. api_key: send the key in `apiKeyFile`.";
    };

    username = mkOption {
      type = types.nullOr types.str;
      default = null;
      description = "jwt mode: the Ombi user the daemon logs in as.";
    };

    passwordFile = mkOption {
      type = secretPath;
      default = null;
      example = "/run/secrets/ombi-password";
      description = ''
        jwt mode: absolute path of a file holding the Ombi password, read by systemd
        (LoadCredential=ombi-password:…) and handed to the daemon in its credentials directory.
        Must not be in the Nix store (world-readable).
      '';
    };

    apiKeyFile = mkOption {
      type = secretPath;
      default = null;
      example = "/run/secrets/ombi-api-key";
      description = "api_key mode: absolute path of a file holding Ombi's API key (LoadCredential=ombi-api-key:…). Not in the Nix store.";
    };

    apiUserName = mkOption {
      type = types.nullOr types.str;
      default = null;
      description = "api_key mode: the Ombi user API calls act as (OMBI_USER_NAME), unless a peer's ombiUser says otherwise.";
    };

    bundles = mkOption {
      type = types.nonEmptyListOf bundleType;
      default = [ "core" ];
      description = "The most any peer may see (OMBI_BUNDLES).";
    };

    readOnly = mkOption {
      type = types.bool;
      default = false;
      description = "Hide every write_* tool from every peer (OMBI_READ_ONLY).";
    };

    peers = mkOption {
      type = types.listOf (types.submodule peerModule);
      default = [ ];
      example = lib.literalExpression ''
        [
          { user = "alice"; bundles = [ "core" "moderation" ]; ombiUser = "alice"; }
          { group = "ombi-mcp"; readOnly = true; }
        ]
      '';
      description = ''
        Who may connect, first match wins (rendered to the JSON file named by OMBI_MCP_POLICY).
        With no entries only root may connect (the daemon's own uid is a dynamic one).
        A peer must also pass the socket's permissions (socket.group, socket.mode).
      '';
    };

    socket = {
      path = mkOption {
        type = types.strMatching "/.+";
        default = defaultSocket;
        description = "Path of the Unix socket. Clients run `ombi-mcp --socket PATH` when it is not the default.";
      };
      group = mkOption {
        type = types.str;
        default = "ombi-mcp";
        description = "Group owning the socket; users must be in it to connect (with the default mode). The group ombi-mcp is created when used.";
      };
      mode = mkOption {
        type = types.strMatching "0?[0-7]{3}";
        default = "0660";
        description = "Permissions of the socket file.";
      };
    };

    httpTimeout = mkOption {
      type = types.ints.between 1 600;
      default = 30;
      description = "Seconds before a request to Ombi times out (OMBI_HTTP_TIMEOUT).";
    };

    logLevel = mkOption {
      type = types.str;
      default = "info,rmcp=warn";
      description = "RUST_LOG filter. rmcp (which logs whole requests and results at debug) stays at warn whatever it says.";
    };

    extraEnvironment = mkOption {
      type = types.attrsOf types.str;
      default = { };
      description = "More environment variables for the daemon. Never put secrets here: use passwordFile/apiKeyFile.";
    };
  };

  config = mkIf cfg.enable {
    assertions = [
      {
        assertion = cfg.authMode != "jwt" || (cfg.username != null && cfg.passwordFile != null);
        message = "services.ombi-mcp: authMode = \"jwt\" needs both username and passwordFile.";
      }
      {
        assertion = cfg.authMode != "api_key" || cfg.apiKeyFile != null;
        message = "services.ombi-mcp: authMode = \"api_key\" needs apiKeyFile.";
      }
      {
        # The message does not repeat the URL: it may hold a password.
        assertion = urlProblems == [ ];
        message = "services.ombi-mcp.url must not carry ${lib.concatStringsSep ", " urlProblems}: it is world-readable in the Nix store and the unit's environment. Give the base URL only; the secret goes in passwordFile or apiKeyFile.";
      }
      {
        assertion = !(cfg.extraEnvironment ? OMBI_PASSWORD) && !(cfg.extraEnvironment ? OMBI_API_KEY);
        message = "services.ombi-mcp: do not put OMBI_PASSWORD or OMBI_API_KEY in extraEnvironment (it lands in the Nix store); use passwordFile or apiKeyFile.";
      }
    ]
    ++ lib.imap0 (i: peer: {
      assertion = lib.length (lib.filter (x: x != null) [ peer.uid peer.user peer.group ]) == 1;
      message = "${peerName i peer}: set exactly one of uid, user, group.";
    }) cfg.peers
    ++ lib.imap0 (i: peer: {
      assertion = peer.ombiUser == null || cfg.authMode == "api_key";
      message = "${peerName i peer}: ombiUser needs authMode = \"api_key\" (a JWT acts as one Ombi user only).";
    }) cfg.peers;

    warnings = lib.optional (otherModeOptions != [ ]) (
      "services.ombi-mcp: authMode = \"${cfg.authMode}\" ignores ${lib.concatStringsSep " and " otherModeOptions} "
      + "(used only with authMode = \"${if cfg.authMode == "jwt" then "api_key" else "jwt"}\")."
    );

    users.groups = mkIf (cfg.socket.group == "ombi-mcp") { ombi-mcp = { }; };

    # The shim, so users can point their MCP clients at `ombi-mcp`.
    environment.systemPackages = [ cfg.package ];

    systemd.sockets.ombi-mcp = {
      description = "Ombi MCP server socket";
      wantedBy = [ "sockets.target" ];
      listenStreams = [ cfg.socket.path ];
      socketConfig = {
        FileDescriptorName = "mcp";
        SocketMode = cfg.socket.mode;
        SocketUser = "root";
        SocketGroup = cfg.socket.group;
        # systemd creates the socket's directory root-owned. It is not the service's
        # RuntimeDirectory: that would be removed, socket and all, when the service stops.
        DirectoryMode = "0755";
      };
    };

    systemd.services.ombi-mcp = {
      description = "Ombi MCP server";
      documentation = [ "https://github.com/ombi-mcp/ombi-mcp/blob/main/docs/install-nixos.md" ];
      requires = [ "ombi-mcp.socket" ];
      after = [
        "ombi-mcp.socket"
        "network-online.target"
      ];
      wants = [ "network-online.target" ];
      inherit environment;

      serviceConfig = {
        Type = "notify";
        NotifyAccess = "main";
        ExecStart = "${cfg.package}/bin/ombi-mcpd";
        WatchdogSec = 30;
        Restart = "on-failure";
        RestartSec = 2;
        # 78 (EX_CONFIG): a configuration error; restarting cannot fix it.
        RestartPreventExitStatus = 78;
        TimeoutStopSec = 15;

        DynamicUser = true;
        LoadCredential = credentials;
        LimitCORE = 0;
        UMask = "0077";

        # Hardening: keep complete; `systemd-analyze security ombi-mcp.service` is checked by the
        # VM test, and tests/it/packaging.rs checks packaging/systemd/ombi-mcp.service the same way.
        # PrivateUsers stays off: it maps every other uid to nobody inside the service, so the
        # peer policy would see uid 65534 for every connecting user.
        CapabilityBoundingSet = "";
        AmbientCapabilities = "";
        NoNewPrivileges = true;
        ProtectSystem = "strict";
        ProtectHome = true;
        PrivateTmp = true;
        PrivateDevices = true;
        PrivateIPC = true;
        PrivateMounts = true;
        DevicePolicy = "closed";
        ProtectKernelTunables = true;
        ProtectKernelModules = true;
        ProtectKernelLogs = true;
        ProtectControlGroups = true;
        ProtectClock = true;
        ProtectHostname = true;
        ProtectProc = "invisible";
        ProcSubset = "pid";
        RestrictAddressFamilies = [
          "AF_UNIX"
          "AF_INET"
          "AF_INET6"
        ];
        RestrictNamespaces = true;
        RestrictRealtime = true;
        RestrictSUIDSGID = true;
        LockPersonality = true;
        MemoryDenyWriteExecute = true;
        RemoveIPC = true;
        KeyringMode = "private";
        SystemCallArchitectures = "native";
        SystemCallFilter = [
          "@system-service"
          "~@privileged"
          "~@resources"
        ];
        SystemCallErrorNumber = "EPERM";
      };
    };
  };
}
