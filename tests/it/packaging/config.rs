//! The example configuration and the configuration doc: both pass `--check-config`, and the doc names
//! every variable the daemon reads.

use super::*;

#[test]
fn example_env_and_policy_pass_check_config() {
    // The example policy names the socket's group, which the package (or sysusers.d) creates.
    if !crate::harness::require(
        crate::daemon::check_config::ensure_group("ombi-mcp"),
        "group ombi-mcp (root, to create it)",
    ) {
        return;
    }
    let (out, secret) = check_config(&[]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(
        out.status.success(),
        "ombi-mcpd --check-config --offline rejected the examples ({:?}):\n{stdout}{stderr}",
        out.status.code()
    );
    assert_eq!(
        stdout.trim().lines().count(),
        1,
        "want a one-line report, got:\n{stdout}"
    );
    assert!(
        !stdout.contains(&secret) && !stderr.contains(&secret),
        "secret printed"
    );
}

#[test]
fn a_policy_with_ombi_user_is_a_config_error_in_jwt_mode() {
    let dir = tempfile::tempdir().unwrap();
    let policy = dir.path().join("policy.json");
    std::fs::write(&policy, r#"{"peers":[{"uid":0,"ombi_user":"alice"}]}"#).unwrap();
    let (out, secret) = check_config(&[
        ("OMBI_AUTH_MODE", Some("jwt")),
        ("OMBI_USERNAME", Some("mcp")),
        ("OMBI_USER_NAME", None),
        ("OMBI_MCP_POLICY", policy.to_str()),
    ]);
    let stderr = text(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(78),
        "want EX_CONFIG, stderr:\n{stderr}"
    );
    assert!(
        stderr
            .lines()
            .any(|l| l.starts_with("ombi-mcpd: configuration error: OMBI_MCP_POLICY")),
        "want `ombi-mcpd: configuration error: OMBI_MCP_POLICY: ...`, got:\n{stderr}"
    );
    assert!(!stderr.contains(&secret));
}

/// Words like `OMBI_URL` in a text.
fn env_names(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !(c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'))
        .filter(|w| w.starts_with("OMBI_") && w.len() > "OMBI_".len() && !w.ends_with('_'))
        .map(str::to_string)
        .collect()
}

#[test]
fn configuration_doc_covers_every_variable_the_daemon_reads() {
    let doc = std::fs::read_to_string(root().join("docs/configuration.md")).unwrap();
    let documented = env_names(&doc);
    let read = env_names(&std::fs::read_to_string(root().join("src/config.rs")).unwrap());
    assert!(
        read.len() >= 12,
        "src/config.rs names too few variables: {read:?}"
    );
    let example: BTreeSet<String> = env_file(&root().join("packaging/examples/ombi-mcp.env"))
        .into_iter()
        .map(|(k, _)| k)
        .filter(|k| k.starts_with("OMBI_"))
        .collect();
    let missing: Vec<_> = read
        .union(&example)
        .filter(|v| !documented.contains(*v))
        .collect();
    assert!(
        missing.is_empty(),
        "not in docs/configuration.md: {missing:?}"
    );
    for credential in [
        "ombi-password",
        "ombi-api-key",
        "RUST_LOG",
        "CREDENTIALS_DIRECTORY",
    ] {
        assert!(
            doc.contains(credential),
            "docs/configuration.md does not mention {credential}"
        );
    }
}
