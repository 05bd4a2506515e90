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

  # Every path Cargo.toml names (the `macros` workspace member included), and only those: edits to docs/, nixos/ or packaging/ do not
  # rebuild the binaries. tests/ holds the integration tests and the `sample` bin's
  # tests/it/support/sample_main.rs; benches/ the two [[bench]] targets (cargo refuses a manifest
  # whose targets are missing). tests/it/packaging/nix.rs copies exactly this set and runs
  # `cargo check --all-targets` on it: keep the list in this one-path-per-line form.
  src = lib.fileset.toSource {
    inherit root;
    fileset = lib.fileset.unions [
      (root + "/Cargo.toml")
      (root + "/Cargo.lock")
      # Cargo.toml's lints deny unwrap/expect; clippy.toml allows them in tests (the clippy check).
      (root + "/clippy.toml")
      (root + "/src")
      # The derive behind the tool declarations (a workspace member).
      (root + "/macros")
      (root + "/tests")
      (root + "/benches")
    ];
  };

  cargoLock.lockFile = ../Cargo.lock;

  # Unit tests and the integration tests (one binary, tests/it/: contract, tools, upstream, socket,
  # daemon, ...): they need only loopback sockets, the real binaries and the fake Ombi, all of which
  # the sandbox has. With OMBI_MCP_HERMETIC_TESTS=1 the tests that need more
  # (systemd-socket-activate, root, python3 with the MCP SDK, node, nix) skip with a message; CI
  # runs them. Its `packaging` module checks docs/, packaging/ and the Nix files, which are not part
  # of `src`: skipped here.
  cargoTestFlags = [
    "--lib"
    "--bins"
    "--test"
    "it"
  ];
  checkFlags = [
    "--skip"
    "packaging::"
  ];
  env.OMBI_MCP_HERMETIC_TESTS = "1";
  # The tests build in the dev profile: the release profile's fat LTO in one codegen unit
  # (Cargo.toml) pays off in the installed binaries, not in a test binary run once. The
  # installed binaries stay release.
  checkType = "debug";

  meta = {
    description = manifest.description;
    homepage = manifest.repository;
    license = lib.licenses.mit;
    # `nix run` and lib.getExe: the shim is what users run; systemd starts the daemon.
    mainProgram = "ombi-mcp";
    platforms = lib.platforms.linux;
  };
}
