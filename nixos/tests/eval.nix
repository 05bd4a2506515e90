# Evaluates nixos/module.nix with nixpkgs' `lib` alone (no nixpkgs, no NixOS), for
# tests/it/packaging/nixos.rs: the NixOS options the module writes to are declared as free values
# (nixos-stub.nix), so the result is exactly what the module rendered. A case whose option value
# has the wrong type fails the evaluation itself (the test reads the error).
#
#   nix-instantiate --eval --strict --json nixos/tests/eval.nix \
#     --arg lib 'import /path/to/nixpkgs.lib/lib' --argstr case api_key
{
  lib,
  case ? "api_key",
}:

let
  # writeText and writeShellScriptBin keep their text readable, so the test can check the
  # rendered policy file and run the shim's wrapper.
  pkgs = {
    writeText = name: text: {
      type = "derivation";
      inherit name text;
      outPath = "/nix/store/00000000000000000000000000000000-${name}";
    };
    writeShellScriptBin = name: text: pkgs.writeText name text;
  };

  package = {
    type = "derivation";
    name = "ombi-mcp-0.1.0";
    outPath = "/nix/store/00000000000000000000000000000000-ombi-mcp-0.1.0";
  };

  cases = {
    # Every option away from its default.
    api_key = {
      enable = true;
      inherit package;
      url = "https://media.example.org/ombi";
      authMode = "api_key";
      apiKeyFile = "/run/secrets/ombi-api-key";
      apiUserName = "household";
      bundles = [
        "core"
        "moderation"
      ];
      httpTimeout = 45;
      logLevel = "debug,rmcp=warn";
      socket = {
        path = "/run/ombi/mcp.sock";
        group = "media";
        mode = "0660";
      };
      extraEnvironment.EXTRA_FLAG = "1";
      environmentFile = "/run/secrets/rendered/ombi-mcp.env";
      confirm = "require";
      confirmTimeout = 30;
      pollInterval = 15;
      lockdown = true;
      restrictNetwork = {
        enable = true;
        ombiAddresses = [
          "192.168.1.20"
          "fd00::20/128"
        ];
      };
      peers = [
        {
          uid = 1000;
          bundles = [
            "core"
            "moderation"
          ];
          ombiUser = "alice";
        }
        {
          user = "bob";
          bundles = [ "core" ];
          readOnly = true;
          ombiUser = "bob";
        }
        {
          group = "ombi-mcp";
          bundles = [ "core" ];
          readOnly = true;
        }
      ];
    };
    jwt = {
      enable = true;
      inherit package;
      url = "http://ombi.lan:5000";
      authMode = "jwt";
      username = "mcp";
      passwordFile = "/run/secrets/ombi-password";
    };
    jwt_without_password = {
      enable = true;
      inherit package;
      url = "http://ombi.lan:5000";
      authMode = "jwt";
      username = "mcp";
    };
    jwt_with_ombi_user = cases.jwt // {
      peers = [
        {
          user = "alice";
          ombiUser = "alice";
        }
      ];
    };
    store_secret = cases.jwt // {
      passwordFile = "/nix/store/00000000000000000000000000000000-pw";
    };
    api_key_without_key = {
      enable = true;
      inherit package;
      url = "http://ombi.lan:5000";
      authMode = "api_key";
    };
    two_matchers = cases.jwt // {
      peers = [
        {
          uid = 1000;
          user = "alice";
        }
      ];
    };
    no_matcher = cases.api_key // {
      peers = [
        { user = "alice"; }
        {
          bundles = [ "core" ];
          ombiUser = "household";
        }
      ];
    };
    relative_secret = cases.jwt // {
      passwordFile = "secrets/ombi-password";
    };
    store_api_key = cases.api_key // {
      apiKeyFile = "/nix/store/00000000000000000000000000000000-key";
    };
    # The secret is not for the store; the assertion must not repeat it.
    url_with_user_info = cases.jwt // {
      url = "https://mcp:hunter2-url-secret@media.example.org/ombi";
    };
    url_with_query = cases.api_key // {
      url = "https://media.example.org/ombi?apikey=hunter2-url-secret";
    };
    url_with_fragment = cases.jwt // {
      url = "http://ombi.lan:5000/#hunter2-url-secret";
    };
    # Per-peer settings of this wave, rendered in the daemon's policy spelling.
    peer_settings = cases.jwt // {
      peers = [
        {
          user = "alice";
          confirm = "require";
          lockdown = false;
        }
        {
          group = "ombi-mcp";
          confirm = "off";
          lockdown = true;
        }
        { uid = 1000; }
      ];
    };
    # Wrong types: the evaluation itself fails, naming the option.
    bad_confirm = cases.jwt // {
      confirm = "sometimes";
    };
    bad_confirm_timeout = cases.jwt // {
      confirmTimeout = 0;
    };
    bad_poll_interval = cases.jwt // {
      pollInterval = 5;
    };
    bad_lockdown = cases.jwt // {
      lockdown = "yes";
    };
    bad_peer_confirm = cases.jwt // {
      peers = [
        {
          user = "alice";
          confirm = "never";
        }
      ];
    };
    bad_peer_lockdown = cases.jwt // {
      peers = [
        {
          user = "alice";
          lockdown = "yes";
        }
      ];
    };
    store_environment_file = cases.jwt // {
      environmentFile = "/nix/store/00000000000000000000000000000000-ombi-mcp.env";
    };
    restrict_by_host_name = cases.api_key // {
      restrictNetwork = {
        enable = true;
        ombiAddresses = [ "media.example.org" ];
      };
    };
    # Variables the module owns, set through extraEnvironment: one assertion each, naming the
    # option; the values (a secret among them) are not repeated. OMBI_MCP_INIT_TIMEOUT is not
    # the module's and passes.
    extra_environment_owned = cases.api_key // {
      extraEnvironment = {
        OMBI_URL = "https://mcp:hunter2-env-secret@media.example.org/";
        OMBI_API_KEY = "hunter2-env-secret";
        RUST_LOG = "trace";
        OMBI_CONFIRM = "off";
        OMBI_MCP_INIT_TIMEOUT = "10";
      };
    };
    # restrictNetwork without Ombi's addresses: fine for a loopback URL, asserted otherwise.
    restrict_without_addresses = cases.api_key // {
      restrictNetwork.enable = true;
    };
    restrict_loopback = cases.jwt // {
      url = "http://127.0.0.1:5000/ombi";
      restrictNetwork.enable = true;
    };
    # Options of the other auth mode: evaluated, ignored, warned about.
    jwt_with_api_key_options = cases.jwt // {
      apiKeyFile = "/run/secrets/ombi-api-key";
      apiUserName = "household";
    };
    api_key_with_jwt_options = cases.api_key // {
      username = "mcp";
    };
    # What --check-config also finds: bundles all outside `bundles` (asserted); a declared user
    # outside the socket's group (warned), beside one inside it.
    peer_outside_bundles = cases.api_key // {
      peers = [
        {
          uid = 1000;
          bundles = [ "administration" ];
        }
      ];
    };
    peer_outside_socket_group = cases.jwt // {
      peers = [
        { user = "carol"; }
        { user = "dave"; }
      ];
      _users = {
        carol.extraGroups = [ "wheel" ];
        dave.extraGroups = [ "ombi-mcp" ];
      };
    };
  };

  evaluated = lib.evalModules {
    modules = [
      ../module.nix
      (import ./nixos-stub.nix { inherit lib; })
      {
        services.ombi-mcp = removeAttrs cases.${case} [ "_users" ];
        users.users = cases.${case}._users or { };
      }
    ];
    specialArgs = { inherit pkgs; };
  };

  inherit (evaluated) config;
  service = config.systemd.services.ombi-mcp;
  policy = config.environment.etc."ombi-mcp/policy.json".source or null;
in
{
  failedAssertions = map (a: a.message) (lib.filter (a: !a.assertion) config.assertions);
  inherit (config) warnings;
  socket = config.systemd.sockets.ombi-mcp;
  service = service // {
    reloadTriggers = map toString (service.reloadTriggers or [ ]);
  };
  policyStorePath = if policy == null then null else toString policy;
  policyText = if policy == null then null else policy.text;
  groups = builtins.attrNames (config.users.groups or { });
  systemPackages = map (p: {
    inherit (p) name;
    text = p.text or null;
    priority = p.meta.priority or null;
  }) config.environment.systemPackages;
}
