//! The one in-process rig every tool test uses: the fake Ombi, a real
//! `Upstream` pointed at it, a `CallCtx`, and one call through
//! `ombi_mcp::tools::call` — the same function the daemon runs — followed by
//! the same checks for every tool: the envelope validates against the tool's
//! advertised `outputSchema`, `isError == !ok`, the text block equals
//! `structuredContent`, the result fits the 64 KiB budget, and no planted
//! secret of the fake's data set appears in it.

use std::sync::Arc;

use ombi_mcp::config::{Config, Env};
use ombi_mcp::confirm::Confirmer;
use ombi_mcp::definition::BundleSet;
use ombi_mcp::policy::Identity;
use ombi_mcp::tools::{self, CallCtx};
use ombi_mcp::upstream::Upstream;
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use crate::harness::{Daemon, DaemonOpts};
use crate::support::fake_ombi::state_admin::LEAK;
use crate::support::fake_ombi::{self, FakeOmbi, LoggedRequest, Options};

/// Secrets planted in the fake's data set; none may reach a tool result.
pub const PLANTED: &[&str] = &[
    "a94a8fe5ccb19ba61c4c0873d391e987", // userAccessToken
    "plexTok3nSecretValue123",          // mediaServerToken
    "@example.org",                     // e-mail addresses
    "@EXAMPLE.ORG",
    fake_ombi::API_KEY,
    "0123456789abcdef0123456789abcdef", // an *arr API key inside a retry error
    LEAK,                               // settings secrets, tokens, webhooks
];

/// A fake Ombi with ombi-mcp in front of it: in process (`start*`: every
/// call through `tools::call`, checked) or as the real binaries
/// (`binaries`: `ombi-mcpd` on its socket, reached directly or through the
/// `ombi-mcp` shim by real clients), the in-process path staying usable
/// beside them.
pub struct Rig {
    pub fake: FakeOmbi,
    pub ctx: CallCtx,
    daemon: Option<Daemon>,
}

impl Rig {
    /// api_key mode as the bare API principal (Ombi's `Api` user, Admin).
    pub async fn start() -> Rig {
        Rig::start_with(Options::default(), None).await
    }

    /// `user`: the acting Ombi user (`UserName` header), or the API principal.
    pub async fn start_with(options: Options, user: Option<&str>) -> Rig {
        let mut rig = Rig::start_env(
            options,
            &[
                ("OMBI_AUTH_MODE", "api_key"),
                ("OMBI_API_KEY", fake_ombi::API_KEY),
            ],
        )
        .await;
        let mut identity = Identity::local(BundleSet::all(), false);
        identity.ombi_user = user.map(str::to_string);
        rig.ctx.identity = Arc::new(identity);
        rig
    }

    /// Any authentication: `auth` are the environment pairs after `OMBI_URL`.
    pub async fn start_env(options: Options, auth: &[(&str, &str)]) -> Rig {
        let fake = FakeOmbi::start(options).await;
        let mut pairs = vec![
            ("OMBI_URL", fake.url.as_str()),
            ("OMBI_BUNDLES", "core,moderation,administration"),
        ];
        pairs.extend_from_slice(auth);
        let config = Config::from_env(&Env::from_pairs(pairs), None).expect("test config");
        let ctx = CallCtx {
            identity: Arc::new(Identity::local(BundleSet::all(), false)),
            correlation_id: "test-correlation".into(),
            cancel: CancellationToken::new(),
            upstream: Arc::new(Upstream::new(&config).expect("client")),
            // Nobody to ask in process; tests of confirmations set their own.
            confirmer: Confirmer::off(),
        };
        Rig {
            fake,
            ctx,
            daemon: None,
        }
    }

    /// The real binaries in front of the fake: `ombi-mcpd` in api_key mode
    /// against it, with `extra` variables after those (a later value wins),
    /// self-bound or socket-activated as `opts` says (its `env` is replaced).
    pub async fn binaries(options: Options, extra: &[(&str, &str)], opts: DaemonOpts) -> Rig {
        let mut rig = Rig::start_with(options, None).await;
        let mut env: Vec<(String, String)> = vec![
            ("OMBI_URL".into(), rig.fake.url.clone()),
            ("OMBI_AUTH_MODE".into(), "api_key".into()),
            ("OMBI_API_KEY".into(), fake_ombi::API_KEY.into()),
        ];
        env.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        rig.daemon = Some(Daemon::start(DaemonOpts { env, ..opts }));
        rig
    }

    /// The daemon of [`Rig::binaries`].
    pub fn daemon(&self) -> &Daemon {
        self.daemon.as_ref().expect("a Rig::binaries rig")
    }

    pub fn daemon_mut(&mut self) -> &mut Daemon {
        self.daemon.as_mut().expect("a Rig::binaries rig")
    }

    /// Calls `tool` with `args` through `tools::call`; returns the envelope
    /// (`structuredContent`) after the checks every tool is held to.
    pub async fn call(&self, tool: &str, args: Value) -> Value {
        let t = tools::find(tool).unwrap_or_else(|| panic!("{tool} is not a served tool"));
        let arguments: Option<&Map<String, Value>> = args.as_object();
        let envelope = tools::call(t, &self.ctx, arguments).await;
        let result = envelope.into_result();
        let sc = result
            .structured_content
            .clone()
            .expect("structuredContent");
        assert_valid(tool, &sc);
        let ok = sc["ok"].as_bool().expect("ok is a boolean");
        assert_eq!(result.is_error, Some(!ok), "{tool}: isError must be !ok");
        let text = result
            .content
            .first()
            .and_then(|c| c.as_text())
            .map(|t| t.text.clone())
            .expect("one text block");
        assert_eq!(
            serde_json::from_str::<Value>(&text).expect("text block is JSON"),
            sc,
            "{tool}: the text block must equal structuredContent"
        );
        for secret in PLANTED {
            assert!(
                !text.contains(secret),
                "{secret} leaked into {tool}: {text}"
            );
        }
        assert!(
            text.len() <= 64 * 1024,
            "{tool} result is {} bytes",
            text.len()
        );
        sc
    }

    pub async fn ok(&self, tool: &str, args: Value) -> Value {
        let env = self.call(tool, args.clone()).await;
        assert_eq!(env["ok"], true, "{tool} {args} failed: {env:#}");
        env
    }

    pub async fn err(&self, tool: &str, args: Value) -> Value {
        let env = self.call(tool, args.clone()).await;
        assert_eq!(env["ok"], false, "{tool} {args} should fail: {env:#}");
        env
    }

    /// The last request with `method` whose path starts with `prefix`
    /// (case-insensitive).
    pub fn last(&self, method: &str, prefix: &str) -> LoggedRequest {
        self.fake
            .requests()
            .into_iter()
            .rev()
            .find(|r| {
                r.method == method && r.path.to_lowercase().starts_with(&prefix.to_lowercase())
            })
            .unwrap_or_else(|| panic!("no {method} {prefix}* request"))
    }

    /// Requests the fake received for GETs whose path starts with `prefix`
    /// (case-insensitive).
    pub fn gets(&self, prefix: &str) -> Vec<LoggedRequest> {
        self.fake
            .requests()
            .into_iter()
            .filter(|r| {
                r.method == "GET"
                    && r.path
                        .to_ascii_lowercase()
                        .starts_with(&prefix.to_ascii_lowercase())
            })
            .collect()
    }

    /// [`Rig::paths`] without `GET /api/v1/Identity`: who the acting user
    /// is and their roles, read (and cached) before an action that needs a
    /// role (`tools::view`).
    pub fn action_paths(&self) -> Vec<String> {
        let mut paths = self.paths();
        paths.retain(|p| p != "GET /api/v1/Identity");
        paths
    }

    /// `METHOD /path` of every request the fake received, in order.
    pub fn paths(&self) -> Vec<String> {
        self.fake
            .requests()
            .into_iter()
            .map(|r| format!("{} {}", r.method, r.path))
            .collect()
    }
}

/// The envelope validates against the tool's advertised `outputSchema`.
pub fn assert_valid(tool: &str, env: &Value) {
    let t = tools::find(tool).expect("served tool");
    let schema = Value::Object((*t.mcp().output_schema.clone().expect("outputSchema")).clone());
    let v = jsonschema::draft202012::new(&schema).expect("schema compiles");
    let errors: Vec<String> = v
        .iter_errors(env)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{tool}: {errors:?}\n{env:#}");
}

pub fn ok_data(env: &Value) -> &Value {
    assert_eq!(env["ok"], true, "expected success: {env:#}");
    &env["data"]
}

pub fn err_code(env: &Value) -> &str {
    assert_eq!(env["ok"], false, "expected failure: {env:#}");
    env["error"]["code"].as_str().unwrap_or("")
}

/// Every request that was not a GET (what changed, or could have, in Ombi).
pub fn writes(rig: &Rig) -> Vec<LoggedRequest> {
    rig.fake
        .requests()
        .into_iter()
        .filter(|r| r.method != "GET")
        .collect()
}

/// The error message of a failed call.
pub fn err_message(env: &Value) -> &str {
    env["error"]["message"].as_str().expect("an error message")
}

/// Whether a warning of the envelope contains `needle`.
pub fn warned(env: &Value, needle: &str) -> bool {
    let warnings = env["warnings"].as_array().expect("warnings");
    warnings
        .iter()
        .any(|w| w.as_str().expect("a warning is text").contains(needle))
}

/// These fields of a JSON object, in order, as one array (for one assertion).
pub fn fields(v: &Value, keys: &[&str]) -> Value {
    Value::Array(keys.iter().map(|k| v[*k].clone()).collect())
}

pub fn items(env: &Value) -> &Vec<Value> {
    ok_data(env)["items"].as_array().expect("items")
}

pub fn targets(env: &Value) -> Vec<Value> {
    items(env).iter().map(|i| i["target"].clone()).collect()
}
