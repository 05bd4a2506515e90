//! A rotated secret: when Ombi refuses the API key or the password and it came from a file
//! (`*_FILE`), the file is read once more and a new secret is used at once, without a restart;
//! a secret still refused is AUTHENTICATION_FAILED naming where it comes from (the file and its
//! variable, the systemd credential with the advice to restart, or the variable).

use ombi_mcp::contract::ErrorCode;
use ombi_mcp::upstream::Upstream;

use crate::support::client::config;
use crate::support::fake_ombi::{ADMIN_PASSWORD, ADMIN_USER, API_KEY, FakeOmbi, Options};

fn upstream(pairs: &[(&str, &str)]) -> Upstream {
    Upstream::new(&config(pairs)).expect("client")
}

#[tokio::test]
async fn a_rotated_key_file_is_read_again_after_a_401() {
    let fake = FakeOmbi::start(Options::default()).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("api-key");
    std::fs::write(&file, "an-old-key-0123456789\n").unwrap();
    let path = file.to_str().unwrap();
    let up = upstream(&[
        ("OMBI_URL", &fake.url),
        ("OMBI_AUTH_MODE", "api_key"),
        ("OMBI_API_KEY_FILE", path),
    ]);
    // Still the old key in the file: refused, naming the file and its variable.
    let e = up.probe().await.unwrap_err();
    assert_eq!(e.code, ErrorCode::AuthenticationFailed, "{e:?}");
    assert_eq!(e.http_status, Some(401));
    assert!(
        e.message.contains(&format!(
            "the key comes from the file {path} (OMBI_API_KEY_FILE)"
        )),
        "{}",
        e.message
    );
    assert!(!e.message.contains("an-old-key"), "{}", e.message);

    // The admin rotates the key in Ombi and in the file: the next call works, no restart.
    std::fs::write(&file, format!("{API_KEY}\n")).unwrap();
    let report = up.probe().await.expect("the new key is used");
    assert!(!report.is_empty());
    let sent: Vec<Option<String>> = fake
        .requests()
        .iter()
        .map(|r| r.header("ApiKey").map(str::to_string))
        .collect();
    assert!(sent.contains(&Some(API_KEY.to_string())), "{sent:?}");
    // And it stays in use: no second read needed, no 401.
    let before = fake.requests().len();
    up.probe().await.unwrap();
    assert!(
        fake.requests()[before..]
            .iter()
            .all(|r| r.header("ApiKey") == Some(API_KEY))
    );
}

#[tokio::test]
async fn a_rotated_password_file_is_read_again_after_a_refused_login() {
    let fake = FakeOmbi::start(Options::default()).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("password");
    std::fs::write(&file, "not-the-password").unwrap();
    let path = file.to_str().unwrap();
    let up = upstream(&[
        ("OMBI_URL", &fake.url),
        ("OMBI_AUTH_MODE", "jwt"),
        ("OMBI_USERNAME", ADMIN_USER),
        ("OMBI_PASSWORD_FILE", path),
    ]);
    let e = up.probe().await.unwrap_err();
    assert_eq!(e.code, ErrorCode::AuthenticationFailed, "{e:?}");
    assert!(
        e.message.contains(&format!(
            "the password comes from the file {path} (OMBI_PASSWORD_FILE)"
        )),
        "{}",
        e.message
    );
    // At once, inside the failed login's back-off: the new password is tried, not the old error.
    std::fs::write(&file, ADMIN_PASSWORD).unwrap();
    up.probe().await.expect("the new password logs in");
    assert_eq!(
        fake.logins(),
        2,
        "one refused login, one with the new password"
    );
}

#[tokio::test]
async fn a_refused_credential_or_variable_is_named_and_a_credential_says_restart() {
    let fake = FakeOmbi::start(Options::default()).await;
    let creds = tempfile::tempdir().unwrap();
    std::fs::write(creds.path().join("ombi-api-key"), "a-wrong-key-0123456789").unwrap();
    let dir = creds.path().to_str().unwrap();
    let up = upstream(&[
        ("OMBI_URL", &fake.url),
        ("OMBI_AUTH_MODE", "api_key"),
        ("CREDENTIALS_DIRECTORY", dir),
    ]);
    let e = up.probe().await.unwrap_err();
    assert!(
        e.message
            .contains("the credential ombi-api-key (LoadCredential=)")
            && e.message.contains("restart the service"),
        "{}",
        e.message
    );

    let up = upstream(&[
        ("OMBI_URL", &fake.url),
        ("OMBI_AUTH_MODE", "api_key"),
        ("OMBI_API_KEY", "a-wrong-key-0123456789"),
    ]);
    let e = up.probe().await.unwrap_err();
    assert!(
        e.message
            .ends_with("the key comes from the variable OMBI_API_KEY"),
        "{}",
        e.message
    );
}
