# Evaluates nixos/module.nix with nixpkgs' `lib` alone (no nixpkgs, no NixOS), for
# tests/it/packaging.rs: the NixOS options the module writes to are declared as free values
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
  # writeText keeps its text readable, so the test can check the rendered policy file.
  pkgs = {
    writeText = name: text: {
      type = "derivation";
      inherit name text;
      outPath = "/nix/store/00000000000000000000000000000000-${name}";
    };
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
    # Options of the other auth mode: evaluated, ignored, warned about.
    jwt_with_api_key_options = cases.jwt // {
      apiKeyFile = "/run/secrets/ombi-api-key";
      apiUserName = "household";
    };
    api_key_with_jwt_options = cases.api_key // {
      username = "mcp";
    };
  };

  evaluated = lib.evalModules {
    modules = [
      ../module.nix
      (import ./nixos-stub.nix { inherit lib; })
      { services.ombi-mcp = cases.${case}; }
    ];
    specialArgs = { inherit pkgs; };
  };

  inherit (evaluated) config;
  service = config.systemd.services.ombi-mcp;
  policy = service.environment.OMBI_MCP_POLICY or null;
in
{
  failedAssertions = map (a: a.message) (lib.filter (a: !a.assertion) config.assertions);
  inherit (config) warnings;
  socket = config.systemd.sockets.ombi-mcp;
  service = service // {
    environment = service.environment // {
      OMBI_MCP_POLICY = if policy == null then null else toString policy;
    };
  };
  policyText = if policy == null then null else policy.text;
  groups = builtins.attrNames (config.users.groups or { });
}
