{
  description = "ombi-mcp: MCP server for a self-hosted Ombi (socket-activated daemon + stdio shim)";

  # nixos-25.11: rustc >= 1.88 (Cargo.toml's rust-version) and pkgs.testers.runNixOSTest.
  inputs.nixpkgs.url = "github:NixOS/nixpkgs/nixos-25.11";

  outputs =
    { self, nixpkgs }:
    let
      systems = [
        "x86_64-linux"
        "aarch64-linux"
      ];
      forAllSystems =
        f:
        nixpkgs.lib.genAttrs systems (
          system:
          f (
            import nixpkgs {
              inherit system;
              overlays = [ self.overlays.default ];
            }
          )
        );
    in
    {
      overlays.default = final: _prev: {
        ombi-mcp = final.callPackage ./nixos/package.nix { };
      };

      # The module takes its default package from pkgs.ombi-mcp when the overlay is applied,
      # else builds it with nixos/package.nix; either way the flake's own source.
      nixosModules.default = import ./nixos/module.nix;

      packages = forAllSystems (pkgs: {
        default = pkgs.ombi-mcp;
        ombi-mcp = pkgs.ombi-mcp;
      });

      checks = forAllSystems (pkgs: {
        # Builds both binaries and runs the unit tests (see nixos/package.nix for the choice).
        package = pkgs.ombi-mcp;

        clippy = pkgs.ombi-mcp.overrideAttrs (old: {
          pname = "ombi-mcp-clippy";
          nativeBuildInputs = old.nativeBuildInputs ++ [ pkgs.clippy ];
          buildPhase = ''
            runHook preBuild
            cargo clippy --offline --all-targets -- -D warnings
            runHook postBuild
          '';
          doCheck = false;
          installPhase = "touch $out";
        });

        fmt =
          pkgs.runCommand "ombi-mcp-fmt"
            {
              nativeBuildInputs = [
                pkgs.cargo
                pkgs.rustfmt
              ];
            }
            ''
              export HOME=$TMPDIR
              cd ${self}
              cargo fmt --check
              touch $out
            '';

        vm = import ./nixos/tests/vm.nix { inherit pkgs; };
      });

      devShells = forAllSystems (pkgs: {
        default = pkgs.mkShell {
          inputsFrom = [ pkgs.ombi-mcp ];
          packages = [
            pkgs.clippy
            pkgs.rustfmt
            pkgs.rust-analyzer
            pkgs.nixfmt
            # tests/ use systemd-socket-activate and systemd-analyze, python3 and node for real clients.
            pkgs.systemd
            pkgs.python3
            pkgs.nodejs_22
          ];
        };
      });

      formatter = forAllSystems (pkgs: pkgs.nixfmt);
    };
}
