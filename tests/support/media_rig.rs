//! In-process harness of the media tools' tests: the fake Ombi, a real
//! `Upstream` (api_key mode) and a `CallCtx`; calls go through the catalogue's
//! validation, the handler table and the envelope renderer, and every result
//! is checked against the tool's advertised outputSchema.
#![allow(dead_code)]

use std::sync::Arc;

use ombi_mcp::catalogue::{self, BundleSet};
use ombi_mcp::config::{Config, Env};
use ombi_mcp::contract::envelope;
use ombi_mcp::contract::schema::output_schema;
use ombi_mcp::tools::{self, CallCtx};
use ombi_mcp::transport::Identity;
use ombi_mcp::upstream::Upstream;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::support::fake_ombi::{API_KEY, FakeOmbi, LoggedRequest, Options};

pub struct Rig {
    pub fake: FakeOmbi,
    pub ctx: CallCtx,
}

impl Rig {
    pub async fn start() -> Rig {
        let fake = FakeOmbi::start(Options::default()).await;
        let env = Env::from_pairs([
            ("OMBI_URL", fake.url.as_str()),
            ("OMBI_AUTH_MODE", "api_key"),
            ("OMBI_API_KEY", API_KEY),
        ]);
        let config = Config::from_env(&env, None).expect("config");
        let upstream = Arc::new(Upstream::new(&config).expect("client"));
        let ctx = CallCtx {
            identity: Arc::new(Identity::local(BundleSet::all(), true)),
            correlation_id: "test-call".into(),
            cancel: CancellationToken::new(),
            upstream,
        };
        Rig { fake, ctx }
    }

    /// Validates `args`, runs the handler, renders the envelope, checks it
    /// against the outputSchema and `isError == !ok`; returns structuredContent.
    pub async fn call(&self, tool: &str, args: Value) -> Value {
        let def = catalogue::find(tool).expect("tool in catalogue");
        let outcome = match def.validate(args.as_object()) {
            Ok(a) => {
                let handler = tools::handler(tool).expect("tool has a handler");
                handler(&self.ctx, &a).await
            }
            Err(e) => Err(e.into()),
        };
        let result = envelope::render(tool, outcome, "corr-1");
        let sc = result
            .structured_content
            .clone()
            .expect("structuredContent");
        let schema = Value::Object(output_schema(tool, def.families));
        let validator = jsonschema::validator_for(&schema).expect("outputSchema compiles");
        let errors: Vec<String> = validator
            .iter_errors(&sc)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "{tool} result does not match its outputSchema: {errors:#?}\n{sc:#}"
        );
        let ok = sc["ok"].as_bool().expect("ok");
        assert_eq!(result.is_error, Some(!ok), "isError must be !ok");
        let text = result
            .content
            .first()
            .and_then(|c| c.as_text())
            .map(|t| t.text.clone());
        assert_eq!(
            text.as_deref()
                .map(|t| serde_json::from_str::<Value>(t).unwrap()),
            Some(sc.clone()),
            "text block = structuredContent"
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
}
