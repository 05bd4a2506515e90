//! In-process harness for the read-tool tests: a fake Ombi, an `Upstream`
//! pointed at it, a `CallCtx`, and one call = validate → handler → envelope,
//! checked against the tool's advertised `outputSchema` every time.
#![allow(dead_code)]

use std::sync::Arc;
use std::time::Duration;

use ombi_mcp::catalogue::{self, BundleSet};
use ombi_mcp::config::{AuthConfig, Config};
use ombi_mcp::contract;
use ombi_mcp::secrets::SecretString;
use ombi_mcp::tools::{self, CallCtx};
use ombi_mcp::transport::Identity;
use ombi_mcp::upstream::Upstream;
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use super::support::fake_ombi::{self, FakeOmbi, LoggedRequest, Options};

/// Secrets planted in every embedded user of the fake's data set.
pub const PLANTED: &[&str] = &[
    "a94a8fe5ccb19ba61c4c0873d391e987", // userAccessToken
    "plexTok3nSecretValue123",          // mediaServerToken
    "@example.org",                     // e-mail addresses
    "@EXAMPLE.ORG",
    fake_ombi::API_KEY,
    "0123456789abcdef0123456789abcdef", // an *arr API key inside a retry error
];

pub struct Harness {
    pub fake: FakeOmbi,
    pub ctx: CallCtx,
}

impl Harness {
    /// api_key mode as the bare API principal (Admin).
    pub async fn start() -> Harness {
        Harness::start_with(Options::default(), None).await
    }

    /// `user`: the acting Ombi user (`UserName` header), or the Admin API principal.
    pub async fn start_with(options: Options, user: Option<&str>) -> Harness {
        let fake = FakeOmbi::start(options).await;
        let config = Config {
            ombi_url: fake.url.parse().expect("fake url"),
            auth: AuthConfig::ApiKey {
                key: SecretString::from(fake_ombi::API_KEY.to_string()),
                user_name: None,
            },
            bundles: BundleSet::all(),
            read_only: false,
            http_timeout: Duration::from_secs(10),
            init_timeout: Duration::from_secs(30),
            socket: "/nonexistent/mcp.sock".into(),
            policy_file: None,
            warnings: Vec::new(),
        };
        let upstream = Upstream::new(&config).expect("upstream");
        let mut identity = Identity::local(BundleSet::all(), false);
        identity.ombi_user = user.map(str::to_string);
        let ctx = CallCtx {
            identity: Arc::new(identity),
            correlation_id: "test-correlation".into(),
            cancel: CancellationToken::new(),
            upstream: Arc::new(upstream),
        };
        Harness { fake, ctx }
    }

    /// Calls `tool` with `args`; returns the envelope after checking it
    /// against the tool's `outputSchema` and for planted secrets.
    pub async fn call(&self, tool: &str, args: Value) -> Value {
        let def = catalogue::find(tool).expect("tool in catalogue");
        let map: Map<String, Value> = args.as_object().cloned().expect("object args");
        let outcome = match def.validate(Some(&map)) {
            Ok(args) => {
                let handler = tools::handler(tool).expect("handler registered");
                handler(&self.ctx, &args).await
            }
            Err(e) => Err(e.into()),
        };
        let env = Value::Object(contract::envelope(tool, outcome, "test-correlation"));
        assert_valid(tool, &env);
        let text = env.to_string();
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
        env
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

    pub fn paths(&self) -> Vec<String> {
        self.fake
            .requests()
            .into_iter()
            .map(|r| format!("{} {}", r.method, r.path))
            .collect()
    }
}

pub fn assert_valid(tool: &str, env: &Value) {
    let def = catalogue::find(tool).expect("tool");
    let schema =
        Value::Object((*def.mcp_tool().output_schema.clone().expect("outputSchema")).clone());
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

pub fn items(env: &Value) -> &Vec<Value> {
    ok_data(env)["items"].as_array().expect("items")
}

pub fn targets(env: &Value) -> Vec<Value> {
    items(env).iter().map(|i| i["target"].clone()).collect()
}
