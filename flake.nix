{
  description = "ombi-mcp: MCP server for a self-hosted Ombi (socket-activated daemon + stdio shim)";

  # nixos-26.05, the supported stable release (25.11 reached its end of life on 2026-06-30):
  # rustc >= 1.88 (Cargo.toml's rust-version), pkgs.testers.runNixOSTest and lib.types.pathWith
  # (the module's secret paths; nixpkgs >= 25.05).
  inputs.nixpkgs.url = "github:NixOS/nixpkgs/nixos-26.05";

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

      # `nix run`: the shim (its help when started from a terminal); `nix run .#ombi-mcpd -- …`:
      # the daemon, e.g. with --check-config.
      apps = forAllSystems (
        pkgs:
        let
          app = description: program: {
            type = "app";
            inherit program;
            meta = { inherit description; };
          };
        in
        {
          default = app "stdio bridge from an MCP client to the ombi-mcpd daemon" "${pkgs.writeShellScript
            "ombi-mcp-app"
            (
              builtins.replaceStrings [ "@shim@" ] [ "${pkgs.ombi-mcp}/bin/ombi-mcp" ] (
                builtins.readFile ./nixos/ombi-mcp-app.sh
              )
            )
          }";
          ombi-mcpd = app "the Ombi MCP daemon" "${pkgs.ombi-mcp}/bin/ombi-mcpd";
        }
      );

      checks = forAllSystems (pkgs: {
        # Builds both binaries and runs the unit and hermetic integration tests (see
        # nixos/package.nix for which).
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
            # tests/ use systemd-socket-activate and systemd-analyze, python3 and node for real
            # clients, openssl and python3 for the VM test's parts, OpenSSH for the SSH bridge.
            pkgs.systemd
            pkgs.python3
            pkgs.nodejs_22
            pkgs.openssl
            pkgs.openssh
          ];
        };
      });

      formatter = forAllSystems (pkgs: pkgs.nixfmt);
    };
}
