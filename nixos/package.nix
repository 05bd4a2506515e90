# Both binaries (ombi-mcpd, the daemon; ombi-mcp, the stdio shim) from the crate at the repo root.
# Called with `pkgs.callPackage ./nixos/package.nix { }` by the flake's overlay and as the module's
# fallback default, so the module also works without the flake.
{
  lib,
  rustPlatform,
}:

let
  manifest = (lib.importTOML ../Cargo.toml).package;
  root = ../.;
in
rustPlatform.buildRustPackage {
  pname = manifest.name;
  inherit (manifest) version;

  # Only what cargo reads: edits to docs/, nixos/ or packaging/ do not rebuild the binaries.
  # tests/ is kept because Cargo.toml names tests/support/sample_main.rs (the `sample` bin).
  src = lib.fileset.toSource {
    inherit root;
    fileset = lib.fileset.unions [
      (root + "/Cargo.toml")
      (root + "/Cargo.lock")
      (root + "/src")
      (lib.fileset.maybeMissing (root + "/tests"))
    ];
  };

  cargoLock.lockFile = ../Cargo.lock;

  # Unit tests of the library and the binaries only. The integration tests in tests/ need what the
  # sandbox lacks or should not be asked for: systemd-socket-activate, python3 with the MCP SDK,
  # node for the Inspector, nix-instantiate, systemd-analyze, loopback sockets between processes.
  # They run in CI (`cargo test`) and the NixOS VM test covers the installed result.
  cargoTestFlags = [
    "--lib"
    "--bins"
  ];

  meta = {
    description = manifest.description;
    homepage = manifest.repository;
    license = lib.licenses.mit;
    mainProgram = "ombi-mcpd";
    platforms = lib.platforms.linux;
  };
}
