//! `read_server`: status, about, media_servers, update, features,
//! cron_validate. Never `GET /api/v1/Status/demo` (it toggles demo mode) and
//! never `POST /api/v1/Job/update` (it runs the updater).

use serde::Deserialize;
use serde_json::json;

use crate::contract::Family;
use crate::contract::{ErrorCode, ToolError};
use crate::contract::{Failure, Outcome};
use crate::definition::shape::{Field, Ty};
use crate::definition::{Bundle, Role, ToolActions, ToolDef};
use crate::projection::metrics::{Metric, metrics};
use crate::projection::paging;
use crate::projection::reference;
use crate::projection::server_info::{
    self, WireAbout, WireCronTest, WireMediaServers, WireUpdate, WireWizard,
};
use crate::projection::settings;
use crate::text::message::sanitize;
use crate::tools::reply;
use crate::tools::server::sections::read_section;
use crate::tools::view::{self, Roles};
use crate::tools::{Actions, CallCtx, Tool};
use crate::upstream::Route;

const EXPRESSION: Field = Field::opt(
    "expression",
    Ty::Str { min: 1, max: 200 },
    "Quartz cron expression to check.",
);

pub static TOOL: Tool = Tool::new::<Action>(ToolDef {
    name: "read_server",
    title: "Server status",
    bundle: Bundle::Core,
    destructive: false,
    description: "About the Ombi server: status, version, media servers, updates, features.",
    families: &[Family::Metrics, Family::ReferencePage],
    ..ToolDef::BASE
})
.examples(&[
    (r#"{"action": "status"}"#, true),
    (r#"{"action": "about"}"#, true),
    (r#"{"action": "media_servers"}"#, true),
    (r#"{"action": "update"}"#, true),
    (r#"{"action": "features"}"#, true),
    (
        r#"{"action": "cron_validate", "expression": "0 0 * * *"}"#,
        true,
    ),
])
.invalid(&[
    (r#"{"action": "cron_validate"}"#, "/expression"),
    (r#"{"action": "status", "verbose": true}"#, "/verbose"),
]);

/// The actions, as validated arguments deserialize into them.
#[derive(Deserialize, ToolActions)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    /// health and version
    Status,
    /// version and platform
    About,
    /// media server status
    MediaServers,
    /// update availability
    Update,
    /// feature flags
    Features,
    /// check a cron expression (admin)
    #[action(role = "Admin")]
    CronValidate { expression: String },
}

impl Actions for Action {
    async fn run(self, ctx: &CallCtx) -> Outcome {
        match self {
            Action::Status => status(ctx).await,
            Action::About => about(ctx).await,
            Action::MediaServers => media_servers(ctx).await,
            Action::Update => update(ctx).await,
            Action::Features => features(ctx).await,
            Action::CronValidate { expression } => cron_validate(ctx, &expression).await,
        }
    }
}

/// `GET /api/v1/Status` (the number 200), `Status/info` (version) and
/// `Status/Wizard`. The first is the health check and must succeed; the
/// other two are reported as a partial failure when they fail.
async fn status(ctx: &CallCtx) -> Outcome {
    let up = &ctx.upstream;
    let (code, info, wizard) = tokio::join!(
        up.get_json::<i64>(ctx.acting(), Route::get("api/v1/Status")),
        up.get_json::<String>(ctx.acting(), Route::get("api/v1/Status/info")),
        up.get_json::<WireWizard>(ctx.acting(), Route::get("api/v1/Status/Wizard")),
    );
    let code = code?;
    let mut failed = Vec::new();
    let info = info.unwrap_or_else(|e| {
        failed.push(format!("version (Status/info): {}", e.message));
        None
    });
    let wizard = wizard.unwrap_or_else(|e| {
        failed.push(format!("wizard state (Status/Wizard): {}", e.message));
        None
    });
    let data = server_info::status(code, info.as_deref(), wizard.as_ref());
    if failed.is_empty() {
        return Ok(reply(data, Vec::new(), false));
    }
    Err(Failure {
        error: ToolError::new(
            ErrorCode::PartialFailure,
            format!(
                "Ombi is up, but part of the status could not be read: {}",
                failed.join("; ")
            ),
        ),
        data: Some(data),
        warnings: failed,
    })
}

/// `GET /api/v1/Settings/about` (anonymous), without its storage paths.
async fn about(ctx: &CallCtx) -> Outcome {
    let a: Option<WireAbout> = ctx
        .upstream
        .get_json(ctx.acting(), Route::get("api/v1/Settings/about"))
        .await?;
    let a =
        a.ok_or_else(|| ToolError::new(ErrorCode::NotFound, "Ombi returned no about information"))?;
    Ok(reply(server_info::about(&a), Vec::new(), false))
}

/// `GET /api/v1/LandingPage` (anonymous; Ombi probes every media server).
async fn media_servers(ctx: &CallCtx) -> Outcome {
    let m: Option<WireMediaServers> = ctx
        .upstream
        .get_json(ctx.acting(), Route::get("api/v1/LandingPage"))
        .await?;
    let m = m.ok_or_else(|| {
        ToolError::new(ErrorCode::NotFound, "Ombi returned no media server status")
    })?;
    let mut values = server_info::media_servers(&m);
    let mut warnings = Vec::new();
    values.extend(server_names(ctx, &mut warnings).await);
    Ok(reply(metrics(values), warnings, false))
}

/// The names of the servers Ombi's status counts: one `<kind>.servers`
/// record per enabled Plex, Emby or Jellyfin setting (the ones
/// `LandingPageController` probes), from the saved settings (Admin); the
/// counts alone without them, with a warning saying why.
async fn server_names(ctx: &CallCtx, warnings: &mut Vec<String>) -> Vec<Metric> {
    let mut out = Vec::new();
    if let Roles::Known { held, .. } = view::roles(ctx).await
        && !held.allows(Role::Admin)
    {
        warnings.push(
            "the media servers are counted but not named: their names are in Ombi's settings, \
             which need Ombi's Admin role"
                .into(),
        );
        return out;
    }
    for kind in ["plex", "emby", "jellyfin"] {
        let Some(section) = settings::section(kind) else {
            continue;
        };
        let raw = match read_section(ctx, section).await {
            Ok(raw) => raw,
            Err(e) => {
                warnings.push(format!(
                    "the media servers are counted but not named: their settings could not be read ({})",
                    e.message
                ));
                break;
            }
        };
        if raw.get("enable") != Some(&serde_json::Value::Bool(true)) {
            continue;
        }
        let names: Vec<String> = raw
            .get("servers")
            .and_then(|s| s.as_array())
            .into_iter()
            .flatten()
            .map(
                |s| match s.get("name").and_then(|n| n.as_str()).map(sanitize) {
                    Some(n) if !n.trim().is_empty() => n,
                    _ => "unnamed".into(),
                },
            )
            .collect();
        if !names.is_empty() {
            out.push(Metric::instance(
                &format!("{kind}.servers"),
                names.join(", "),
            ));
        }
    }
    out
}

/// `GET /api/v1/Update` (anonymous release feed) and the updater's check
/// `GET /api/v1/Job/update` (admin; a read: it only compares versions). The
/// second is optional: without admin rights it is left out with a warning.
async fn update(ctx: &CallCtx) -> Outcome {
    let up = &ctx.upstream;
    let (feed, check) = tokio::join!(
        up.get_json::<WireUpdate>(ctx.acting(), Route::get("api/v1/Update")),
        up.get_json::<bool>(ctx.acting(), Route::get("api/v1/Job/update")),
    );
    let feed = feed?;
    let mut warnings = Vec::new();
    let check = match check {
        Ok(b) => b,
        Err(e)
            if matches!(
                e.code,
                ErrorCode::Forbidden | ErrorCode::AuthenticationFailed
            ) =>
        {
            warnings.push(
                "the updater's own check needs an Ombi admin; updater_reports_update is left out"
                    .into(),
            );
            None
        }
        Err(e) => {
            warnings.push(format!("the updater's own check failed: {}", e.message));
            None
        }
    };
    if feed.is_none() {
        warnings.push("Ombi returned no release information".into());
    }
    if check == Some(false) {
        warnings
            .push("updater_reports_update is also false when the updater could not check".into());
    }
    Ok(reply(
        server_info::update(feed.as_ref(), check),
        warnings,
        false,
    ))
}

/// `GET /api/v2/Features` (anonymous) → references projected exactly as
/// `read_reference features` does: `value` is the identifier (the name),
/// the state is the `category` (`enabled`/`disabled`).
async fn features(ctx: &CallCtx) -> Outcome {
    let mut warnings = Vec::new();
    let rows = ctx
        .read_list::<reference::Feature>(Route::get("api/v2/Features"), &mut warnings)
        .await?;
    let candidates = rows.value.into_iter().map(reference::feature).collect();
    let refs = reference::references(candidates, &mut warnings);
    let w = paging::first(refs, !rows.cut, "references");
    Ok(reply(reference::reference_page(w), warnings, rows.cut))
}

/// `POST /api/v1/Settings/testcron` `{expression}` (admin): a pure
/// validation that happens to use POST; read-kind, so it may be retried.
async fn cron_validate(ctx: &CallCtx, expression: &str) -> Outcome {
    let route =
        Route::post_read("api/v1/Settings/testcron").json(&json!({"expression": expression}));
    let c: Option<WireCronTest> = ctx.upstream.get_json(ctx.acting(), route).await?;
    let c = c.ok_or_else(|| {
        ToolError::new(
            ErrorCode::UpstreamSchemaMismatch,
            "Ombi returned no result for the cron check",
        )
    })?;
    Ok(reply(server_info::cron(&c, expression), Vec::new(), false))
}
