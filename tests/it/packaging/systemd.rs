//! The systemd units shipped for other distributions: they verify without a warning, keep their
//! exposure low, their sysusers/tmpfiles entries apply, and they load the credential the example selects.

use super::*;

/// The unit files in a temp dir, with ExecStart= pointing at the built daemon (verify checks
/// that the binary exists).
fn staged_units() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for unit in ["ombi-mcp.socket", "ombi-mcp.service"] {
        let src = std::fs::read_to_string(root().join("packaging/systemd").join(unit)).unwrap();
        let staged: String = src
            .lines()
            .map(|l| {
                if l.starts_with("ExecStart=") {
                    format!("ExecStart={DAEMON}\n")
                } else {
                    format!("{l}\n")
                }
            })
            .collect();
        std::fs::write(dir.path().join(unit), staged).unwrap();
    }
    dir
}

/// systemd-analyze `args` in a directory of the staged units; None (skipped)
/// without systemd-analyze.
fn analyze_staged_units(args: &[&str]) -> Option<Output> {
    let analyze = require_tool("systemd-analyze", "systemd")?;
    let dir = staged_units();
    Some(run(Command::new(&analyze)
        .current_dir(dir.path())
        .args(args)))
}

#[test]
fn systemd_units_verify_without_any_warning() {
    let verify = ["verify", "./ombi-mcp.socket", "./ombi-mcp.service"];
    let Some(out) = analyze_staged_units(&verify) else {
        return;
    };
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    // verify only warns (exit 0) about unknown keys or bad values: any output is a finding.
    assert!(
        out.status.success() && all.trim().is_empty(),
        "systemd-analyze verify:\n{all}"
    );
}

#[test]
fn service_exposure_is_at_most_1_5() {
    let threshold = format!("--threshold={MAX_EXPOSURE_TENTHS}");
    let security = [
        "security",
        "--offline=true",
        &threshold,
        "./ombi-mcp.service",
    ];
    let Some(out) = analyze_staged_units(&security) else {
        return;
    };
    let report = text(&out.stdout);
    let line = report
        .lines()
        .find(|l| l.contains("Overall exposure level"))
        .unwrap_or_else(|| panic!("no exposure in:\n{report}{}", text(&out.stderr)));
    println!("{line}");
    let level = line
        .split(':')
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .expect("exposure value");
    let tenths: u32 = level.replace('.', "").parse().expect("exposure like 1.2");
    assert!(tenths <= MAX_EXPOSURE_TENTHS, "{line}");
    assert!(out.status.success(), "over threshold:\n{report}");
}

#[test]
fn sysusers_and_tmpfiles_apply_to_a_scratch_root() {
    let Some(sysusers) = require_tool("systemd-sysusers", "systemd") else {
        return;
    };
    let Some(tmpfiles) = require_tool("systemd-tmpfiles", "systemd") else {
        return;
    };
    let scratch = tempfile::tempdir().unwrap();
    let sysroot = scratch.path();
    for (dir, file) in [
        ("sysusers.d", "ombi-mcp.conf"),
        ("tmpfiles.d", "ombi-mcp.conf"),
    ] {
        std::fs::create_dir_all(sysroot.join("etc").join(dir)).unwrap();
        std::fs::copy(
            root().join("packaging").join(dir).join(file),
            sysroot.join("etc").join(dir).join(file),
        )
        .unwrap();
    }
    // systemd's own tmpfiles.d/credstore.conf (systemd >= 254; the host's copy where it has
    // one): a line of ours for the same path would be a "Duplicate line" warning.
    let credstore =
        std::fs::read_to_string("/usr/lib/tmpfiles.d/credstore.conf").unwrap_or_else(|_| {
            "d /etc/credstore 0000 root root\nd /etc/credstore.encrypted 0000 root root\n\
             z /run/credstore 0000 root root\nz /run/credstore.encrypted 0000 root root\n"
                .to_string()
        });
    std::fs::create_dir_all(sysroot.join("usr/lib/tmpfiles.d")).unwrap();
    std::fs::write(sysroot.join("usr/lib/tmpfiles.d/credstore.conf"), credstore).unwrap();
    let root_arg = format!("--root={}", sysroot.display());
    let out = run(Command::new(&sysusers).arg(&root_arg));
    assert!(
        out.status.success(),
        "systemd-sysusers:\n{}",
        text(&out.stderr)
    );
    let group = std::fs::read_to_string(sysroot.join("etc/group")).unwrap();
    assert!(
        group.lines().any(|l| l.starts_with("ombi-mcp:")),
        "group ombi-mcp not created:\n{group}"
    );
    let out = run(Command::new(&tmpfiles).arg(&root_arg).arg("--create"));
    let stderr = text(&out.stderr);
    assert!(
        out.status.success() && stderr.trim().is_empty(),
        "systemd-tmpfiles:\n{stderr}"
    );
    // The DynamicUser service reads the policy in it (packaging::install starts it so).
    let meta = std::fs::metadata(sysroot.join("etc/ombi-mcp")).unwrap();
    assert_eq!(meta.permissions().mode() & 0o7777, 0o755, "etc/ombi-mcp");
    assert!(
        sysroot.join("etc/credstore").is_dir(),
        "systemd's credstore.conf creates /etc/credstore"
    );
}

/// Names loaded by the active `LoadCredential=NAME:PATH` lines of the shipped unit.
fn unit_credentials() -> Vec<String> {
    std::fs::read_to_string(root().join("packaging/systemd/ombi-mcp.service"))
        .unwrap()
        .lines()
        .filter_map(|l| l.trim().strip_prefix("LoadCredential="))
        .map(|v| v.split(':').next().unwrap().to_string())
        .collect()
}

/// As shipped, the unit hands the daemon the credential the example environment's auth mode
/// needs, and the daemon accepts the configuration with exactly that.
#[test]
fn shipped_unit_loads_the_credential_the_example_env_selects() {
    let env = env_file(&root().join("packaging/examples/ombi-mcp.env"));
    let mode = env
        .iter()
        .find(|(k, _)| k == "OMBI_AUTH_MODE")
        .map(|(_, v)| v.as_str())
        .expect("the example sets OMBI_AUTH_MODE");
    let needed = match mode {
        "api_key" => "ombi-api-key",
        "jwt" => "ombi-password",
        other => panic!("unknown OMBI_AUTH_MODE {other}"),
    };
    let loaded = unit_credentials();
    assert_eq!(
        loaded,
        [needed],
        "packaging/systemd/ombi-mcp.service loads {loaded:?}; OMBI_AUTH_MODE={mode} needs {needed}"
    );
    let loaded: Vec<&str> = loaded.iter().map(String::as_str).collect();
    let (out, secret) = check_config_with(&loaded, &[]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(
        out.status.success(),
        "the examples fail as shipped ({:?}):\n{stdout}{stderr}",
        out.status.code()
    );
    assert!(!stdout.contains(&secret) && !stderr.contains(&secret));
}
