//! Building an `Upstream` pointed at a fake, the way the daemon does (from
//! the environment matrix).

use ombi_mcp::config::{Config, Env};
use ombi_mcp::upstream::Upstream;

pub fn config(pairs: &[(&str, &str)]) -> Config {
    Config::from_env(&Env::from_pairs(pairs.iter().copied()), None).expect("valid test config")
}

pub fn jwt_timeout(url: &str, user: &str, password: &str, timeout_secs: u64) -> Upstream {
    let t = timeout_secs.to_string();
    let c = config(&[
        ("OMBI_URL", url),
        ("OMBI_AUTH_MODE", "jwt"),
        ("OMBI_USERNAME", user),
        ("OMBI_PASSWORD", password),
        ("OMBI_HTTP_TIMEOUT", &t),
    ]);
    Upstream::new(&c).expect("client")
}

pub fn jwt(url: &str, user: &str, password: &str) -> Upstream {
    jwt_timeout(url, user, password, 10)
}

pub fn api_key(url: &str, key: &str, user_name: Option<&str>) -> Upstream {
    let mut pairs = vec![
        ("OMBI_URL", url),
        ("OMBI_AUTH_MODE", "api_key"),
        ("OMBI_API_KEY", key),
    ];
    if let Some(u) = user_name {
        pairs.push(("OMBI_USER_NAME", u));
    }
    Upstream::new(&config(&pairs)).expect("client")
}
