# Evaluates the VM test (vm.nix) with nixpkgs' `lib` alone, for tests/it/packaging/nixos.rs: each node's
# configuration through nixos/module.nix (failed assertions, warnings, the rendered service) and
# the test script's text. Packages are stand-ins with fake store paths; building and running
# the VM needs full Nix (docs/install-nixos.md).
#
#   nix-instantiate --eval --strict --json --readonly-mode nixos/tests/eval-vm.nix \
#     --arg lib 'import /path/to/nixpkgs.lib/lib'
{ lib }:

let
  fake = name: {
    type = "derivation";
    inherit name;
    outPath = "/nix/store/00000000000000000000000000000000-${name}";
  };

  # What vm.nix takes from pkgs.
  pkgs = {
    inherit lib;
    python3 = fake "python3";
    openssl = fake "openssl";
    runCommand = name: _env: _script: fake name;
    writeText = name: text: fake name // { inherit text; };
    writeShellScript = name: text: fake name // { inherit text; };
    testers.runNixOSTest = test: test;
  };

  test = import ./vm.nix { inherit pkgs; };

  evalNode =
    node:
    let
      inherit
        (lib.evalModules {
          modules = [
            node
            (import ./nixos-stub.nix { inherit lib; })
            { services.ombi-mcp.package = fake "ombi-mcp"; }
          ];
          specialArgs = { inherit pkgs; };
        })
        config
        ;
    in
    {
      failedAssertions = map (a: a.message) (lib.filter (a: !a.assertion) config.assertions);
      inherit (config) warnings;
      service = config.systemd.services.ombi-mcp;
      stubOmbi = config.systemd.services.stub-ombi.serviceConfig.ExecStart;
    };
in
{
  inherit (test) name testScript;
  nodes = lib.mapAttrs (_: evalNode) test.nodes;
}
