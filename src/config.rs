//! Daemon configuration: the environment matrix of `docs/configuration.md`.
//!
//! Every validation error is one line naming the variable; no error ever
//! contains a secret. Secrets come from systemd credentials
//! (`$CREDENTIALS_DIRECTORY/ombi-password`, `…/ombi-api-key`), then from a
//! `*_FILE` variable, then from the plain variable (accepted with a warning).
//! Plain secret variables are removed from the process environment once read.

pub mod file_modes;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use reqwest::Url;

use crate::confirm;
use crate::definition::{Bundle, BundleSet};
use crate::secrets::{self, SecretSource, SecretString};

pub const DEFAULT_SOCKET: &str = "/run/ombi-mcp/mcp.sock";
pub const DEFAULT_HTTP_TIMEOUT_SECS: u64 = 30;
const MAX_TIMEOUT_SECS: u64 = 600;
/// How long a connection may take to complete `initialize` (`OMBI_MCP_INIT_TIMEOUT`).
pub const DEFAULT_INIT_TIMEOUT_SECS: u64 = 10;
/// How often a watched resource is read (`OMBI_POLL_INTERVAL`), and its bounds.
pub const DEFAULT_POLL_INTERVAL_SECS: u64 = 60;
pub const MIN_POLL_INTERVAL_SECS: u64 = 10;
pub const MAX_POLL_INTERVAL_SECS: u64 = 86_400;

/// Credential names under `$CREDENTIALS_DIRECTORY` (systemd `LoadCredential=`).
pub const CREDENTIAL_PASSWORD: &str = "ombi-password";
pub const CREDENTIAL_API_KEY: &str = "ombi-api-key";

/// How the daemon authenticates to Ombi.
pub enum AuthConfig {
    /// `POST /api/v1/Token` with these credentials; the JWT is renewed by logging in again.
    Jwt {
        username: String,
        password: SecretString,
    },
    /// `ApiKey` header; `UserName` header only when `user_name` is set (globally
    /// here, or per peer by the policy file).
    ApiKey {
        key: SecretString,
        user_name: Option<String>,
    },
}

impl AuthConfig {
    pub fn mode_name(&self) -> &'static str {
        match self {
            AuthConfig::Jwt { .. } => "jwt",
            AuthConfig::ApiKey { .. } => "api_key",
        }
    }
}

impl std::fmt::Debug for AuthConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AuthConfig::Jwt { username, .. } => f
                .debug_struct("Jwt")
                .field("username", username)
                .field("password", &"[REDACTED]")
                .finish(),
            AuthConfig::ApiKey { user_name, .. } => f
                .debug_struct("ApiKey")
                .field("key", &"[REDACTED]")
                .field("user_name", user_name)
                .finish(),
        }
    }
}

/// The validated configuration of one daemon.
#[derive(Debug)]
pub struct Config {
    /// Ombi's base URL, path prefix kept, always ending in `/`.
    pub ombi_url: Url,
    pub auth: AuthConfig,
    /// Where the password or API key came from (errors name it; a file is
    /// read again when Ombi refuses the secret, and on SIGHUP).
    pub secret_source: SecretSource,
    /// The most any peer may see (`OMBI_BUNDLES`).
    pub bundles: BundleSet,
    /// `OMBI_READ_ONLY`: hides every `write_*` tool from every peer.
    pub read_only: bool,
    /// `OMBI_LOCKDOWN`: every peer under lockdown (docs/security.md): text
    /// other users wrote is withheld.
    pub lockdown: bool,
    pub http_timeout: Duration,
    /// A connection that has not completed `initialize` by then is closed.
    pub init_timeout: Duration,
    /// How often each watched resource is read again (`OMBI_POLL_INTERVAL`).
    pub poll_interval: Duration,
    pub socket: PathBuf,
    pub policy_file: Option<PathBuf>,
    /// `OMBI_CONFIRM`, `OMBI_CONFIRM_TIMEOUT`: asking before confirmed actions.
    pub confirm: confirm::Settings,
    /// Non-fatal findings to log once logging is up (e.g. a plain secret variable).
    pub warnings: Vec<String>,
}

/// One configuration error: the variable and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub var: String,
    pub message: String,
}

impl ConfigError {
    pub fn new(var: impl Into<String>, message: impl Into<String>) -> Self {
        ConfigError {
            var: var.into(),
            message: message.into(),
        }
    }
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.var, self.message)
    }
}

impl std::error::Error for ConfigError {}

/// A snapshot of the variables the daemon reads, so parsing is a pure function
/// (tests build one by hand) and the process environment is touched in one place.
#[derive(Debug, Default, Clone)]
pub struct Env {
    vars: HashMap<String, String>,
}

/// Every variable `Config::from_env` may read (`ombi-mcpd --help` names each).
pub const VARS: &[&str] = &[
    "OMBI_URL",
    "OMBI_AUTH_MODE",
    "OMBI_USERNAME",
    "OMBI_PASSWORD",
    "OMBI_PASSWORD_FILE",
    "OMBI_API_KEY",
    "OMBI_API_KEY_FILE",
    "OMBI_USER_NAME",
    "OMBI_BUNDLES",
    "OMBI_READ_ONLY",
    "OMBI_LOCKDOWN",
    "OMBI_HTTP_TIMEOUT",
    "OMBI_MCP_INIT_TIMEOUT",
    "OMBI_POLL_INTERVAL",
    "OMBI_MCP_SOCKET",
    "OMBI_MCP_POLICY",
    "OMBI_CONFIRM",
    "OMBI_CONFIRM_TIMEOUT",
    "CREDENTIALS_DIRECTORY",
];

/// Plain secret variables, removed from the environment after reading.
pub const SECRET_VARS: &[&str] = &["OMBI_PASSWORD", "OMBI_API_KEY"];

impl Env {
    /// Reads the process environment (non-UTF-8 values are kept as errors later).
    pub fn from_process() -> Env {
        let mut vars = HashMap::new();
        for name in VARS {
            match std::env::var(name) {
                Ok(v) => {
                    vars.insert((*name).to_string(), v);
                }
                Err(std::env::VarError::NotUnicode(_)) => {
                    vars.insert((*name).to_string(), "\u{fffd}".to_string());
                }
                Err(std::env::VarError::NotPresent) => {}
            }
        }
        Env { vars }
    }

    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Env {
        Env {
            vars: pairs
                .into_iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }

    /// A variable's value; an empty value counts as unset.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.vars
            .get(name)
            .map(String::as_str)
            .filter(|v| !v.is_empty())
    }
}

/// Removes the plain secret variables from the process environment.
///
/// # Safety
/// Must run while the process has a single thread (before the tokio runtime
/// starts): `std::env::remove_var` races with concurrent environment reads.
pub unsafe fn scrub_secret_env() {
    for name in SECRET_VARS {
        // SAFETY: the caller guarantees no other thread exists yet.
        unsafe { std::env::remove_var(name) };
    }
}

impl Config {
    /// Validates the whole matrix. `socket_override` is `--socket` from argv.
    pub fn from_env(env: &Env, socket_override: Option<PathBuf>) -> Result<Config, ConfigError> {
        let mut warnings = Vec::new();
        let ombi_url = parse_url(env.get("OMBI_URL"))?;
        let bundles = match env.get("OMBI_BUNDLES") {
            None => BundleSet::only(Bundle::Core),
            Some(list) => {
                let set = BundleSet::parse_list(list).map_err(|unknown| {
                    ConfigError::new(
                        "OMBI_BUNDLES",
                        format!("{unknown}; use a comma list of core, moderation, administration"),
                    )
                })?;
                if set.is_empty() {
                    return Err(ConfigError::new(
                        "OMBI_BUNDLES",
                        "names no bundle; use a comma list of core, moderation, administration",
                    ));
                }
                set
            }
        };
        let read_only = match env.get("OMBI_READ_ONLY") {
            None => false,
            Some(v) => parse_bool(v).ok_or_else(|| {
                ConfigError::new("OMBI_READ_ONLY", format!("{v:?} is not true or false"))
            })?,
        };
        let lockdown = match env.get("OMBI_LOCKDOWN") {
            None => false,
            Some(v) => parse_bool(v).ok_or_else(|| {
                ConfigError::new("OMBI_LOCKDOWN", format!("{v:?} is not true or false"))
            })?,
        };
        let http_timeout = parse_seconds(env, "OMBI_HTTP_TIMEOUT", DEFAULT_HTTP_TIMEOUT_SECS)?;
        let init_timeout = parse_seconds(env, "OMBI_MCP_INIT_TIMEOUT", DEFAULT_INIT_TIMEOUT_SECS)?;
        let poll_interval = parse_poll_interval(env)?;
        let (auth, secret_source) = parse_auth(env, &mut warnings)?;
        let socket = socket_override
            .or_else(|| env.get("OMBI_MCP_SOCKET").map(PathBuf::from))
            .unwrap_or_else(|| PathBuf::from(DEFAULT_SOCKET));
        if !socket.is_absolute() && socket.as_os_str().is_empty() {
            return Err(ConfigError::new("OMBI_MCP_SOCKET", "is empty"));
        }
        let policy_file = env.get("OMBI_MCP_POLICY").map(PathBuf::from);
        let confirm = confirm::Settings {
            mode: match env.get("OMBI_CONFIRM") {
                None => confirm::Mode::Ask,
                Some(v) => confirm::Mode::parse(v).ok_or_else(|| {
                    ConfigError::new(
                        "OMBI_CONFIRM",
                        format!("{v:?} is not one of {}", confirm::Mode::NAMES),
                    )
                })?,
            },
            timeout: parse_seconds(env, "OMBI_CONFIRM_TIMEOUT", confirm::DEFAULT_TIMEOUT_SECS)?,
        };
        Ok(Config {
            ombi_url,
            auth,
            secret_source,
            bundles,
            read_only,
            lockdown,
            http_timeout,
            init_timeout,
            poll_interval,
            socket,
            policy_file,
            confirm,
            warnings,
        })
    }
}

/// A whole number of seconds from 1 to 600, or `default` when unset.
fn parse_seconds(env: &Env, var: &str, default: u64) -> Result<Duration, ConfigError> {
    match env.get(var) {
        None => Ok(Duration::from_secs(default)),
        Some(v) => match v.trim().parse::<u64>() {
            Ok(n) if (1..=MAX_TIMEOUT_SECS).contains(&n) => Ok(Duration::from_secs(n)),
            _ => Err(ConfigError::new(
                var,
                format!("{v:?} is not a whole number of seconds from 1 to {MAX_TIMEOUT_SECS}"),
            )),
        },
    }
}

/// `OMBI_POLL_INTERVAL`: whole seconds from 10 to 86,400 (default 60).
fn parse_poll_interval(env: &Env) -> Result<Duration, ConfigError> {
    const VAR: &str = "OMBI_POLL_INTERVAL";
    match env.get(VAR) {
        None => Ok(Duration::from_secs(DEFAULT_POLL_INTERVAL_SECS)),
        Some(v) => match v.trim().parse::<u64>() {
            Ok(n) if (MIN_POLL_INTERVAL_SECS..=MAX_POLL_INTERVAL_SECS).contains(&n) => {
                Ok(Duration::from_secs(n))
            }
            _ => Err(ConfigError::new(
                VAR,
                format!(
                    "{v:?} is not a whole number of seconds from {MIN_POLL_INTERVAL_SECS} to {MAX_POLL_INTERVAL_SECS}"
                ),
            )),
        },
    }
}

fn parse_bool(v: &str) -> Option<bool> {
    match v.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Some(true),
        "false" | "0" | "no" | "off" => Some(false),
        _ => None,
    }
}

fn parse_url(raw: Option<&str>) -> Result<Url, ConfigError> {
    let var = "OMBI_URL";
    let raw = raw.ok_or_else(|| {
        ConfigError::new(
            var,
            "is required: the base URL of Ombi, e.g. http://ombi.lan:5000 or https://host/ombi",
        )
    })?;
    // Never echo the raw value: it might carry credentials.
    let mut url = Url::parse(raw.trim()).map_err(|e| {
        ConfigError::new(
            var,
            format!("is not a valid URL ({e}); expected e.g. http://ombi.lan:5000"),
        )
    })?;
    if url.scheme() != "http" && url.scheme() != "https" {
        return Err(ConfigError::new(var, "must start with http:// or https://"));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(ConfigError::new(var, "has no host"));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(ConfigError::new(
            var,
            "must not contain credentials; use OMBI_AUTH_MODE with a password or API key file",
        ));
    }
    if url.query().is_some() {
        return Err(ConfigError::new(var, "must not contain a query string"));
    }
    if url.fragment().is_some() {
        return Err(ConfigError::new(var, "must not contain a fragment"));
    }
    // A trailing slash makes joining keep the prefix: https://host/ombi/ + api/v1/...
    if !url.path().ends_with('/') {
        let path = format!("{}/", url.path());
        url.set_path(&path);
    }
    Ok(url)
}

fn parse_auth(
    env: &Env,
    warnings: &mut Vec<String>,
) -> Result<(AuthConfig, SecretSource), ConfigError> {
    match env.get("OMBI_AUTH_MODE").map(str::trim) {
        Some("jwt") => {
            let username = env
                .get("OMBI_USERNAME")
                .map(str::to_string)
                .ok_or_else(|| {
                    ConfigError::new(
                        "OMBI_USERNAME",
                        "is required when OMBI_AUTH_MODE=jwt (the Ombi user to log in as)",
                    )
                })?;
            let (password, source) = read_secret(
                env,
                CREDENTIAL_PASSWORD,
                "OMBI_PASSWORD_FILE",
                "OMBI_PASSWORD",
                warnings,
            )?
            .ok_or_else(|| {
                ConfigError::new(
                    "OMBI_PASSWORD",
                    "is required when OMBI_AUTH_MODE=jwt: give the credential ombi-password (LoadCredential=), OMBI_PASSWORD_FILE, or OMBI_PASSWORD",
                )
            })?;
            Ok((AuthConfig::Jwt { username, password }, source))
        }
        Some("api_key") => {
            let (key, source) = read_secret(
                env,
                CREDENTIAL_API_KEY,
                "OMBI_API_KEY_FILE",
                "OMBI_API_KEY",
                warnings,
            )?
            .ok_or_else(|| {
                ConfigError::new(
                    "OMBI_API_KEY",
                    "is required when OMBI_AUTH_MODE=api_key: give the credential ombi-api-key (LoadCredential=), OMBI_API_KEY_FILE, or OMBI_API_KEY",
                )
            })?;
            let user_name = match env.vars.get("OMBI_USER_NAME") {
                None => None,
                Some(v) if v.trim().is_empty() => {
                    return Err(ConfigError::new(
                        "OMBI_USER_NAME",
                        "is set but empty; unset it, or name the Ombi user that API-key calls act as",
                    ));
                }
                Some(v) => Some(v.trim().to_string()),
            };
            Ok((AuthConfig::ApiKey { key, user_name }, source))
        }
        Some(other) => Err(ConfigError::new(
            "OMBI_AUTH_MODE",
            format!("{other:?} is not a mode; use jwt or api_key"),
        )),
        None => Err(ConfigError::new(
            "OMBI_AUTH_MODE",
            "is required: jwt (log in with OMBI_USERNAME and a password) or api_key",
        )),
    }
}

/// Credentials directory, then `*_FILE`, then the plain variable (warned);
/// with where it came from.
fn read_secret(
    env: &Env,
    credential: &str,
    file_var: &str,
    plain_var: &str,
    warnings: &mut Vec<String>,
) -> Result<Option<(SecretString, SecretSource)>, ConfigError> {
    if let Some(dir) = env.get("CREDENTIALS_DIRECTORY") {
        let path = Path::new(dir).join(credential);
        if path.exists() {
            let source = SecretSource::Credential {
                name: credential.to_string(),
            };
            return secrets::read_secret_file(&path)
                .map(|s| Some((s, source)))
                .map_err(|e| {
                    ConfigError::new(
                        "CREDENTIALS_DIRECTORY",
                        format!("credential {credential} ({}): {e}", path.display()),
                    )
                });
        }
    }
    if let Some(file) = env.get(file_var) {
        let source = SecretSource::File {
            var: file_var.to_string(),
            path: PathBuf::from(file),
        };
        return secrets::read_secret_file(Path::new(file))
            .map(|s| Some((s, source)))
            .map_err(|e| ConfigError::new(file_var, format!("{file}: {e}")));
    }
    if let Some(value) = env.get(plain_var) {
        warnings.push(format!(
            "{plain_var} is set in the environment; prefer the credential {credential} or {file_var} (the kernel keeps the initial environment readable in /proc)"
        ));
        let source = SecretSource::Variable {
            var: plain_var.to_string(),
        };
        return secrets::secret_from_bytes(value.as_bytes())
            .map(|s| Some((s, source)))
            .map_err(|e| ConfigError::new(plain_var, e.to_string()));
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::secrets::ExposeSecret;

    fn base() -> Vec<(&'static str, &'static str)> {
        vec![
            ("OMBI_URL", "https://host.example/ombi"),
            ("OMBI_AUTH_MODE", "api_key"),
            ("OMBI_API_KEY", "k123"),
        ]
    }

    #[test]
    fn keeps_path_prefix_with_trailing_slash() {
        let c = Config::from_env(&Env::from_pairs(base()), None).unwrap();
        assert_eq!(c.ombi_url.as_str(), "https://host.example/ombi/");
        assert_eq!(
            c.ombi_url.join("api/v1/Status").unwrap().as_str(),
            "https://host.example/ombi/api/v1/Status"
        );
        assert_eq!(c.bundles, BundleSet::only(Bundle::Core));
        assert_eq!(c.http_timeout, Duration::from_secs(30));
        assert_eq!(c.init_timeout, Duration::from_secs(10));
        assert!(
            !c.warnings.is_empty(),
            "plain OMBI_API_KEY must be warned about"
        );
    }

    #[test]
    fn confirm_settings_parse_and_bad_values_name_the_variable() {
        let c = Config::from_env(&Env::from_pairs(base()), None).unwrap();
        assert_eq!(c.confirm, confirm::Settings::default());
        assert_eq!(c.confirm.timeout, Duration::from_secs(120));
        let mut e = base();
        e.push(("OMBI_CONFIRM", "require"));
        e.push(("OMBI_CONFIRM_TIMEOUT", "30"));
        let c = Config::from_env(&Env::from_pairs(e), None).unwrap();
        assert_eq!(c.confirm.mode, confirm::Mode::Require);
        assert_eq!(c.confirm.timeout, Duration::from_secs(30));
        for (var, bad) in [
            ("OMBI_CONFIRM", "sometimes"),
            ("OMBI_CONFIRM_TIMEOUT", "0"),
            ("OMBI_CONFIRM_TIMEOUT", "2m"),
        ] {
            let mut e = base();
            e.push((var, bad));
            let err = Config::from_env(&Env::from_pairs(e), None).unwrap_err();
            assert_eq!(err.var, var, "{bad}");
        }
    }

    #[test]
    fn rejects_credentials_in_url_without_echoing_them() {
        let mut e = base();
        e[0] = ("OMBI_URL", "https://bob:hunter2@host/");
        let err = Config::from_env(&Env::from_pairs(e), None).unwrap_err();
        assert_eq!(err.var, "OMBI_URL");
        assert!(!err.to_string().contains("hunter2"));
    }

    #[test]
    fn credentials_directory_wins() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("ombi-api-key"), "fromcred\n").unwrap();
        let mut e = base();
        let d = dir.path().to_str().unwrap().to_string();
        e.push(("CREDENTIALS_DIRECTORY", Box::leak(d.into_boxed_str())));
        let c = Config::from_env(&Env::from_pairs(e), None).unwrap();
        match c.auth {
            AuthConfig::ApiKey { key, .. } => assert_eq!(key.expose_secret(), "fromcred"),
            _ => panic!("wrong mode"),
        }
        assert!(c.warnings.is_empty());
    }
}
