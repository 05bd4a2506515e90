//! `read_request_stats` → metrics: instance counts, the principal's totals
//! and quotas, and admin statistics for a date range.

use super::reads::{QUOTAS, quota_of};
use super::{approval, period};
use serde::Deserialize;
use serde_json::Value;

use crate::contract::Family;
use crate::contract::Outcome;
use crate::contract::{ErrorCode, ToolError};
use crate::definition::params::*;
use crate::definition::shape::{Field, Ty};
use crate::definition::{Bundle, ToolActions, ToolDef};
use crate::projection::metrics::{self, RequestCounts};
use crate::tools::{Actions, CallCtx, Tool};
use crate::tools::{partial, reply};
use crate::upstream::Route;

const FROM: Field = Field::opt("from", Ty::Date, "First day, `YYYY-MM-DD`.");
const TO: Field = Field::opt("to", Ty::Date, "Last day, `YYYY-MM-DD`.");

pub static TOOL: Tool = Tool::new::<Action>(ToolDef {
    name: "read_request_stats",
    title: "Request statistics",
    bundle: Bundle::Core,
    destructive: false,
    description: "Request counts and your quota. With Ombi's hide-requests setting a non-admin's totals count their own requests only.",
    families: &[Family::Metrics],
    check: Some(|action, args| {
        if action == "period"
            && let (Some(f), Some(t)) = (
                args.get("from").and_then(Value::as_str),
                args.get("to").and_then(Value::as_str),
            )
            && f > t
        {
            return Err(ToolError::invalid("/to", "`to` must not be before `from`"));
        }
        Ok(())
    }),
    ..ToolDef::BASE
})
.examples(&[
    (r#"{"action": "counts"}"#, true),
    (r#"{"action": "totals"}"#, true),
    (r#"{"action": "quota", "media": "movie"}"#, true),
    (r#"{"action": "period", "from": "2026-04-01", "to": "2026-04-30"}"#, true),
])
.invalid(&[
    (r#"{"action": "period", "from": "2024-13-01", "to": "2024-12-31"}"#, "/from"),
    (r#"{"action": "period", "from": "2024-02-01"}"#, "/to"),
    (r#"{"action": "period", "from": "2024-05-01", "to": "2024-04-01"}"#, "/to"),
    (r#"{"action": "quota", "media": "book"}"#, "/media"),
]);

/// The actions, as validated arguments deserialize into them.
#[derive(Deserialize, ToolActions)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    /// movie and TV requests per state, instance-wide (no albums; `approved`: not yet available)
    Counts,
    /// request totals you can see
    Totals,
    // All media unless `media` is given.
    /// your remaining request quota
    Quota { media: Option<MediaKind> },
    // `YYYY-MM-DD` days, `from` ≤ `to` (validated).
    /// movie (4K-only by their 4K date), TV season and album requests made in a date range per media and per requester (the 20 largest, the rest as one record), and those made available in it (Admin or PowerUser)
    #[action(role = "PowerUser")]
    Period { from: String, to: String },
}

impl Actions for Action {
    async fn run(self, ctx: &CallCtx) -> Outcome {
        match self {
            Action::Counts => counts(ctx).await,
            Action::Totals => totals(ctx).await,
            Action::Quota { media } => quota(ctx, media).await,
            Action::Period { from, to } => period(ctx, &from, &to).await,
        }
    }
}

/// Per media type: its route. Album totals and quotas come from Ombi's
/// database and need no Lidarr (docs/ombi-notes.md, "Album request reads
/// need no Lidarr").
const TOTALS: [(MediaKind, &str); 3] = [
    (MediaKind::Movie, "api/v1/Request/movie/total"),
    (MediaKind::Tv, "api/v1/Request/tv/total"),
    (MediaKind::Album, "api/v1/request/music/total"),
];
async fn counts(ctx: &CallCtx) -> Outcome {
    let c = ctx
        .upstream
        .get_json::<RequestCounts>(ctx.acting(), Route::get("api/v1/Request/count"))
        .await?
        .ok_or_else(|| {
            ToolError::new(
                ErrorCode::UpstreamSchemaMismatch,
                "Ombi returned no request counts",
            )
        })?;
    Ok(reply(
        metrics::metrics(metrics::request_counts(&c)),
        Vec::new(),
        false,
    ))
}

async fn totals(ctx: &CallCtx) -> Outcome {
    let mut warnings = Vec::new();
    let mut values = Vec::new();
    let mut first_error = None;
    for (m, path) in &TOTALS {
        match ctx
            .upstream
            .get_json::<i64>(ctx.acting(), Route::get(path))
            .await
        {
            Ok(Some(n)) if n >= 0 => values.push(metrics::total(m.label(), n)),
            Ok(_) => warnings.push(format!("Ombi returned no {} total", m.label())),
            Err(e) => {
                warnings.push(format!("{} total: {}", m.label(), e.message));
                first_error.get_or_insert(e);
            }
        }
    }
    finish(values, first_error, warnings)
}

async fn quota(ctx: &CallCtx, given: Option<MediaKind>) -> Outcome {
    let mut warnings = Vec::new();
    let mut values = Vec::new();
    let mut first_error = None;
    let mut unresolved = 0;
    for (m, _) in QUOTAS.iter().filter(|(m, _)| given.is_none_or(|g| g == *m)) {
        match quota_of(ctx, *m).await {
            Ok(Some(q)) => values.extend(metrics::quota(
                m.label(),
                &q,
                given.is_none(),
                metrics::Scope::Principal,
            )),
            // 204: Ombi could not resolve the calling user.
            Ok(None) => unresolved += 1,
            Err(e) => {
                warnings.push(format!("{} quota: {}", m.label(), e.message));
                first_error.get_or_insert(e);
            }
        }
    }
    if unresolved > 0 && values.is_empty() && first_error.is_none() {
        return Err(ToolError::new(
            ErrorCode::NotFound,
            "Ombi could not resolve the acting user, so it has no quota for it (in api_key mode set OMBI_USER_NAME or the policy's ombi_user)",
        )
        .into());
    }
    if unresolved > 0 {
        warnings
            .push("Ombi returned no quota for some media types (acting user not resolved)".into());
    }
    finish(values, first_error, warnings)
}

fn finish(
    values: Vec<metrics::Metric>,
    first_error: Option<ToolError>,
    warnings: Vec<String>,
) -> Outcome {
    match first_error {
        None => Ok(reply(metrics::metrics(values), warnings, false)),
        Some(e) if values.is_empty() => Err(crate::contract::Failure {
            error: e,
            data: None,
            warnings,
        }),
        Some(e) => Err(partial(metrics::metrics(values), e, warnings)),
    }
}

async fn period(ctx: &CallCtx, from: &str, to: &str) -> Outcome {
    approval::require_moderator(ctx, "statistics for a date range").await?;
    let mut warnings = Vec::new();
    let (values, cut) = period::counted(ctx, from, to, &mut warnings).await?;
    if cut {
        warnings.push(
            "the counts are of the requests read within the limit: the real figures may be higher"
                .into(),
        );
    }
    Ok(reply(metrics::metrics(values), warnings, cut))
}
