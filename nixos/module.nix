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

  confirmType = types.enum [
    "ask"
    "require"
    "off"
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
      confirm = mkOption {
        type = types.nullOr confirmType;
        default = null;
        description = "This peer's confirmation setting (policy key `confirm`); null follows services.ombi-mcp.confirm.";
      };
      lockdown = mkOption {
        type = types.nullOr types.bool;
        default = null;
        description = "Lockdown for this peer (policy key `lockdown`); null follows services.ombi-mcp.lockdown.";
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
      inherit (peer) confirm lockdown;
    };

  policyEtc = "ombi-mcp/policy.json";
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

  # Variables the module sets from an option or keeps out of the environment, with that option.
  # extraEnvironment may not set them: its values would bypass the options' types and the
  # assertions here, and (for the secrets) land in the world-readable store.
  ownedVariables = {
    OMBI_URL = "url";
    OMBI_AUTH_MODE = "authMode";
    OMBI_USERNAME = "username";
    OMBI_PASSWORD = "passwordFile";
    OMBI_PASSWORD_FILE = "passwordFile";
    OMBI_API_KEY = "apiKeyFile";
    OMBI_API_KEY_FILE = "apiKeyFile";
    OMBI_USER_NAME = "apiUserName";
    OMBI_BUNDLES = "bundles";
    OMBI_READ_ONLY = "readOnly";
    OMBI_HTTP_TIMEOUT = "httpTimeout";
    OMBI_MCP_SOCKET = "socket.path";
    OMBI_MCP_POLICY = "peers";
    OMBI_CONFIRM = "confirm";
    OMBI_CONFIRM_TIMEOUT = "confirmTimeout";
    OMBI_POLL_INTERVAL = "pollInterval";
    OMBI_LOCKDOWN = "lockdown";
    RUST_LOG = "logLevel";
  };
  # Secrets reach the daemon as credentials only: systemd drops these from whatever source
  # (environmentFile included) before the daemon starts.
  secretVariables = [
    "OMBI_PASSWORD"
    "OMBI_API_KEY"
  ];

  # The URL's host, to tell whether restrictNetwork needs Ombi's addresses.
  urlParts = builtins.match "https?://([^@/?#]*@)?(\\[[^]]*]|[^:/?#]*).*" cfg.url;
  urlHost = if urlParts == null then null else lib.elemAt urlParts 1;
  urlIsLoopback =
    urlHost != null
    && (
      lib.elem (lib.toLower urlHost) [
        "localhost"
        "[::1]"
      ]
      || lib.hasPrefix "127." urlHost
    );

  # The shim as users find it on PATH: with a socket.path other than the shim's built-in
  # default, a wrapper that makes it the default (OMBI_MCP_SOCKET when the caller sets none;
  # --socket still wins), so `ombi-mcp`, an SSH forced command and client configurations
  # without --socket reach this daemon.
  shimWrapper = lib.hiPrio (
    pkgs.writeShellScriptBin "ombi-mcp" ''
      if [ -z "''${OMBI_MCP_SOCKET:-}" ]; then
        OMBI_MCP_SOCKET=${lib.escapeShellArg cfg.socket.path}
        export OMBI_MCP_SOCKET
      fi
      exec ${cfg.package}/bin/ombi-mcp "$@"
    ''
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
    OMBI_CONFIRM = cfg.confirm;
    OMBI_CONFIRM_TIMEOUT = toString cfg.confirmTimeout;
    OMBI_POLL_INTERVAL = toString cfg.pollInterval;
    OMBI_LOCKDOWN = lib.boolToString cfg.lockdown;
    # Unused under socket activation; set so `ombi-mcpd --check-config` and logs name the same path.
    OMBI_MCP_SOCKET = cfg.socket.path;
    RUST_LOG = cfg.logLevel;
  }
  // lib.optionalAttrs (cfg.authMode == "jwt" && cfg.username != null) { OMBI_USERNAME = cfg.username; }
  // lib.optionalAttrs (cfg.authMode == "api_key" && cfg.apiUserName != null) {
    OMBI_USER_NAME = cfg.apiUserName;
  }
  # A fixed path (environment.etc below), not the store path: a changed policy then changes only
  # the service's reloadTriggers, so switching configurations reloads the daemon (SIGHUP) instead
  # of restarting it and dropping every session.
  // lib.optionalAttrs (cfg.peers != [ ]) { OMBI_MCP_POLICY = "/etc/${policyEtc}"; }
  // cfg.extraEnvironment;

  # What `ombi-mcpd --check-config` finds on the machine, where the module can see it: a peer
  # whose bundles all lie outside `bundles` (every connection it matches is refused), and a
  # declared user the socket's permissions keep out (not in socket.group, no write for others).
  # Users and groups from elsewhere (LDAP, sssd) are not visible here: --check-config checks those.
  outsideBundles =
    peer: peer.bundles != null && lib.all (b: !(lib.elem b cfg.bundles)) peer.bundles;
  othersMayConnect =
    let
      mode = lib.toInt (lib.substring (lib.stringLength cfg.socket.mode - 1) 1 cfg.socket.mode);
    in
    lib.elem mode [ 2 3 6 7 ];
  declaredUsers = config.users.users or { };
  keptOutOfSocket =
    peer:
    peer.user != null
    && declaredUsers ? ${peer.user}
    && !othersMayConnect
    && (declaredUsers.${peer.user}.group or null) != cfg.socket.group
    && !(lib.elem cfg.socket.group (declaredUsers.${peer.user}.extraGroups or [ ]));

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
        With no entries only root may connect (the daemon's own uid is a dynamic one): the module
        warns.
        A peer must also pass the socket's permissions (socket.group, socket.mode).
      '';
    };

    socket = {
      path = mkOption {
        type = types.strMatching "/.+";
        default = defaultSocket;
        description = "Path of the Unix socket. When it is not the default, the `ombi-mcp` on PATH is a wrapper that defaults to it (OMBI_MCP_SOCKET), so clients need no --socket.";
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

    confirm = mkOption {
      type = confirmType;
      default = "ask";
      description = "Confirmations before confirmed actions (OMBI_CONFIRM): ask the client when it can answer, require an answer (refuse otherwise), or off. A peer's `confirm` overrides it.";
    };

    confirmTimeout = mkOption {
      type = types.ints.between 1 600;
      default = 120;
      description = "Seconds a confirmation waits for the client's answer (OMBI_CONFIRM_TIMEOUT).";
    };

    pollInterval = mkOption {
      type = types.ints.between 10 86400;
      default = 60;
      description = "Seconds between the daemon's reads of each subscribed resource (OMBI_POLL_INTERVAL), 10 to 86400.";
    };

    lockdown = mkOption {
      type = types.bool;
      default = false;
      description = "Lockdown for every peer (OMBI_LOCKDOWN): people-written text from Ombi is withheld from results. A peer's `lockdown` overrides it.";
    };

    extraEnvironment = mkOption {
      type = types.attrsOf types.str;
      default = { };
      example = {
        OMBI_MCP_INIT_TIMEOUT = "10";
      };
      description = ''
        More environment variables for the daemon, world-readable in the Nix store. Not the ones
        the module sets from its options (asserted, naming the option to use instead), never a
        secret: those go in passwordFile/apiKeyFile.
      '';
    };

    environmentFile = mkOption {
      type = types.nullOr (
        types.pathWith {
          absolute = true;
          inStore = false;
        }
      );
      default = null;
      example = "/run/secrets/rendered/ombi-mcp.env";
      description = ''
        A file of KEY=VALUE settings read by systemd at start (EnvironmentFile=), for settings kept
        in sops-nix or agenix templates; an absolute path outside the Nix store. Its variables
        override the module's, unchecked: prefer the options. Secrets still go only through
        passwordFile/apiKeyFile: OMBI_PASSWORD and OMBI_API_KEY are removed from the daemon's
        environment (UnsetEnvironment=) wherever they come from.
      '';
    };

    restrictNetwork = {
      enable = mkEnableOption ''
        a network allow-list for the daemon: IPAddressDeny=any with IPAddressAllow= for loopback
        and restrictNetwork.ombiAddresses. Host names are resolved through nscd or
        systemd-resolved (NixOS's defaults), which stay reachable; a DNS server the daemon would
        query directly must be listed too'';
      ombiAddresses = mkOption {
        type = types.listOf (
          types.strMatching "([0-9]{1,3}(\\.[0-9]{1,3}){3}(/[0-9]{1,2})?|[0-9a-fA-F:]*:[0-9a-fA-F:.]*(/[0-9]{1,3})?)"
        );
        default = [ ];
        example = [
          "192.168.1.20"
          "fd00::20"
        ];
        description = "IP addresses or prefixes (CIDR) of the Ombi host the daemon may reach when restrictNetwork.enable is set; loopback is always allowed.";
      };
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
        assertion = !cfg.restrictNetwork.enable || cfg.restrictNetwork.ombiAddresses != [ ] || urlIsLoopback;
        message = "services.ombi-mcp.restrictNetwork.ombiAddresses is empty, but url names a host other than loopback: with restrictNetwork.enable the daemon could not reach Ombi. List the Ombi host's IP addresses.";
      }
    ]
    # The message names the variable and the option, never the value (it may be a secret).
    ++ lib.mapAttrsToList (variable: option: {
      assertion = !(cfg.extraEnvironment ? ${variable});
      message = "services.ombi-mcp.extraEnvironment.${variable}: the module sets it from services.ombi-mcp.${option} (${
        if lib.elem variable secretVariables || lib.hasSuffix "_FILE" variable then
          "a credential, never the world-readable store"
        else
          "typed and checked there"
      }); set that option instead.";
    }) ownedVariables
    ++ lib.imap0 (i: peer: {
      assertion = lib.length (lib.filter (x: x != null) [ peer.uid peer.user peer.group ]) == 1;
      message = "${peerName i peer}: set exactly one of uid, user, group.";
    }) cfg.peers
    ++ lib.imap0 (i: peer: {
      assertion = !outsideBundles peer;
      message = "${peerName i peer}: none of its bundles is in services.ombi-mcp.bundles (${lib.concatStringsSep "," cfg.bundles}): every connection it matches would be refused.";
    }) cfg.peers
    ++ lib.imap0 (i: peer: {
      assertion = peer.ombiUser == null || cfg.authMode == "api_key";
      message = "${peerName i peer}: ombiUser needs authMode = \"api_key\" (a JWT acts as one Ombi user only).";
    }) cfg.peers;

    warnings =
      lib.optional (otherModeOptions != [ ]) (
        "services.ombi-mcp: authMode = \"${cfg.authMode}\" ignores ${lib.concatStringsSep " and " otherModeOptions} "
        + "(used only with authMode = \"${if cfg.authMode == "jwt" then "api_key" else "jwt"}\")."
      )
      ++ lib.concatLists (
        lib.imap0 (
          i: peer:
          lib.optional (keptOutOfSocket peer) "${peerName i peer}: users.users.${peer.user} is not in group ${cfg.socket.group} (services.ombi-mcp.socket.group), so the socket's mode ${cfg.socket.mode} keeps it out (its ombi-mcp exits 77). Add \"${cfg.socket.group}\" to users.users.${peer.user}.extraGroups."
        ) cfg.peers
      )
      ++ lib.optional (cfg.peers == [ ]) (
        "services.ombi-mcp.peers is empty: only root can connect, and every other user's ombi-mcp exits 77. "
        + "Set services.ombi-mcp.peers, e.g. [ { group = \"${cfg.socket.group}\"; } ] for the socket's group."
      );

    users.groups = mkIf (cfg.socket.group == "ombi-mcp") { ombi-mcp = { }; };

    # The shim, so users can point their MCP clients at `ombi-mcp`.
    environment.systemPackages = [
      cfg.package
    ]
    ++ lib.optional (cfg.socket.path != defaultSocket) shimWrapper;

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

    # A derivation, so the evaluation test can read the rendered file's text.
    environment.etc = mkIf (cfg.peers != [ ]) { ${policyEtc}.source = policyFile; };

    systemd.services.ombi-mcp = {
      description = "Ombi MCP server";
      # A new policy is applied by `systemctl reload` (ExecReload: SIGHUP) on a switch: new
      # connections use it, open sessions keep theirs.
      reloadTriggers = lib.optional (cfg.peers != [ ]) policyFile;
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
        # SIGHUP: the policy file read again (an invalid one is refused, the old one kept).
        ExecReload = "kill -HUP $MAINPID";
        WatchdogSec = 30;
        Restart = "on-failure";
        RestartSec = 2;
        # 78 (EX_CONFIG): a configuration error; restarting cannot fix it.
        RestartPreventExitStatus = 78;
        TimeoutStopSec = 15;

        DynamicUser = true;
        LoadCredential = credentials;
        UnsetEnvironment = secretVariables;
        LimitCORE = 0;
        # Room for 64 sessions and 16 Ombi calls at once; the syscall filter forbids raising it.
        LimitNOFILE = 8192;
        UMask = "0077";

        # Hardening: keep complete; `systemd-analyze security ombi-mcp.service` is checked by the
        # VM test, and tests/it/packaging/systemd.rs checks packaging/systemd/ombi-mcp.service the same way.
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
      }
      // lib.optionalAttrs (cfg.environmentFile != null) { EnvironmentFile = cfg.environmentFile; }
      // lib.optionalAttrs cfg.restrictNetwork.enable {
        IPAddressDeny = "any";
        IPAddressAllow = [ "localhost" ] ++ cfg.restrictNetwork.ombiAddresses;
      };
    };
  };
}
