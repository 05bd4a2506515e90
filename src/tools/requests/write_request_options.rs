//! `write_request_options`: where and in which quality a request is
//! downloaded. `advanced` reads the request first and sends root folder and
//! quality together, because Ombi overwrites both on every call
//! (`docs/ombi-notes.md`, "Advanced options, root and quality");
//! `tv_root` / `tv_quality` change one value of a TV parent.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::contract::TargetKind;
use crate::contract::{ErrorCode, Family, Outcome, ToolError};
use crate::definition::params::*;
use crate::definition::shape::{Field, MAX_ID, Ty};
use crate::definition::{Bundle, ToolActions, ToolDef};
use crate::projection::mutation::{Mutation, Outcome as Done};
use crate::tools::requests::reads::movie;
use crate::tools::requests::words::{TvLevel, named, show_request, tv_id_hint, with_answer};
use crate::tools::{Actions, CallCtx, Tool};
use crate::tools::{not_found_on_500, reply};
use crate::upstream::{RequestEngineResult, Route};

/// An override id; 0 clears it (Ombi's "none").
const OVERRIDE: Ty = Ty::Int {
    min: 0,
    max: MAX_ID,
};
const OPTION_FIELDS: &[Field] = &[
    Field::opt(
        "root_folder_id",
        OVERRIDE,
        "Root folder id (from read_integration); 0 clears the override.",
    ),
    Field::opt(
        "quality_profile_id",
        OVERRIDE,
        "Quality profile id (from read_integration); 0 clears the override.",
    ),
    Field::opt(
        "language_profile_id",
        Ty::ID,
        "Sonarr language profile id (from read_integration); TV only. Ombi can replace it but not clear it.",
    ),
];

const REQUEST_ID: Field = Field::opt(
    "request_id",
    Ty::ID,
    "The movie request id, or for TV the parent (show-level) request id.",
);
const OPTIONS: Field = Field::opt(
    "options",
    Ty::Obj(OPTION_FIELDS),
    "Overrides to set; give at least one.",
);

pub static TOOL: Tool = Tool::new::<Action>(ToolDef {
    name: "write_request_options",
    title: "Set request options",
    bundle: Bundle::Moderation,
    destructive: true,
    description: "Change where and in which quality a request will be downloaded: root folder, quality profile and language profile overrides. Values not given are kept. They apply the next time the request is sent (write_request_reprocess).",
    families: &[Family::Mutation],
    check: Some(check_options),
    ..ToolDef::BASE
})
.examples(&[
    (r#"{"action": "tv_quality", "parent_request_id": 10, "quality_profile_id": 6}"#, true),
])
.invalid(&[
    (r#"{"action": "advanced", "media": "movie", "request_id": 1, "options": {}}"#, "/options"),
    (r#"{"action": "advanced", "media": "movie", "request_id": 1, "options": {"language_profile_id": 2}}"#, "/options/language_profile_id"),
    (r#"{"action": "advanced", "media": "tv", "request_id": 1, "options": {"language_profile_id": 0}}"#, "/options/language_profile_id"),
    (r#"{"action": "advanced", "media": "tv", "request_id": 1, "options": {"root_folder_id": -1}}"#, "/options/root_folder_id"),
]);

/// Refused up front: an empty `options`, and a language profile for a movie
/// (Ombi ignores it). A TV profile cannot be cleared (Ombi sets it only when
/// > 0), so its schema has no 0.
fn check_options(_action: &str, args: &Map<String, Value>) -> Result<(), ToolError> {
    let Some(o) = args.get("options").and_then(Value::as_object) else {
        return Ok(());
    };
    if o.is_empty() {
        return Err(ToolError::invalid(
            "/options",
            "`options` needs at least one of `root_folder_id`, `quality_profile_id`, `language_profile_id`",
        ));
    }
    if o.contains_key("language_profile_id")
        && args.get("media").and_then(Value::as_str) == Some("movie")
    {
        return Err(ToolError::invalid(
            "/options/language_profile_id",
            "movie requests have no language profile (Ombi ignores it); omit `language_profile_id`",
        ));
    }
    Ok(())
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum Kind {
    Movie,
    Tv,
}

#[derive(Deserialize, Default)]
struct Options {
    root_folder_id: Option<i64>,
    quality_profile_id: Option<i64>,
    language_profile_id: Option<i64>,
}

#[derive(Deserialize, ToolActions)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    /// set advanced options (tv: parent request id)
    #[action(role = "PowerUser")]
    Advanced {
        #[arg(MEDIA_MOVIE_TV)]
        media: Kind,
        request_id: i64,
        options: Options,
    },
    /// set a TV request's root folder
    #[action(role = "PowerUser")]
    TvRoot {
        parent_request_id: i64,
        root_folder_id: i64,
    },
    /// set a TV request's quality profile
    #[action(role = "PowerUser")]
    TvQuality {
        parent_request_id: i64,
        quality_profile_id: i64,
    },
}

impl Actions for Action {
    async fn run(self, ctx: &CallCtx) -> Outcome {
        match self {
            Action::Advanced {
                media,
                request_id,
                options,
            } => advanced(ctx, media, request_id, &options).await,
            Action::TvRoot {
                parent_request_id: id,
                root_folder_id: value,
            } => {
                let route = Route::put("api/v1/Request/tv/root").seg(id).seg(value);
                one_value(ctx, route, id, format!("root folder {value}")).await
            }
            Action::TvQuality {
                parent_request_id: id,
                quality_profile_id: value,
            } => {
                let route = Route::put("api/v1/Request/tv/quality").seg(id).seg(value);
                one_value(ctx, route, id, format!("quality profile {value}")).await
            }
        }
    }
}

/// `MediaAdvancedOptions`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AdvancedBody {
    request_id: i64,
    root_path_override: i64,
    quality_override: i64,
    /// TV only; Ombi keeps the current profile for 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    language_profile: Option<i64>,
}

async fn advanced(ctx: &CallCtx, media: Kind, id: i64, o: &Options) -> Outcome {
    // The current overrides, so the value not given is re-sent unchanged.
    let (kind, name, root, quality, path) = match media {
        Kind::Movie => {
            let m = movie(ctx, id).await.map_err(|e| match e.code {
                ErrorCode::NotFound => e.with_field("/request_id"),
                _ => e,
            })?;
            (
                TargetKind::Movie,
                named(ctx, "movie", m.title.as_deref(), id, None),
                m.root_path_override,
                m.quality_override,
                "api/v2/Requests/movie/advancedoptions",
            )
        }
        Kind::Tv => {
            let p = show_request(ctx, id, "/request_id").await?;
            (
                TargetKind::TvParent,
                named(ctx, "TV", p.title.as_deref(), id, None),
                p.root_folder,
                p.quality_override,
                "api/v2/Requests/tv/advancedoptions",
            )
        }
    };
    let body = AdvancedBody {
        request_id: id,
        root_path_override: o.root_folder_id.or(root).unwrap_or(0),
        quality_override: o.quality_profile_id.or(quality).unwrap_or(0),
        language_profile: match media {
            Kind::Movie => None,
            Kind::Tv => Some(o.language_profile_id.unwrap_or(0)),
        },
    };
    let r: RequestEngineResult = ctx
        .upstream
        .write(ctx.acting(), Route::post(path).json(&body))
        .await?;
    let mut set = vec![
        describe("root folder", body.root_path_override),
        describe("quality profile", body.quality_override),
    ];
    if let Some(l) = o.language_profile_id {
        set.push(format!("language profile {l}"));
    }
    let m = Mutation::new(Done::Completed)
        .on_request(kind, id)
        .message(format!("{name}: overrides now {}", set.join(", ")));
    Ok(reply(with_answer(m, &r).into_data(), Vec::new(), false))
}

fn describe(what: &str, value: i64) -> String {
    if value > 0 {
        format!("{what} {value}")
    } else {
        format!("no {what} override")
    }
}

/// `tv/root` and `tv/quality`: Ombi answers `true` (an unknown parent id
/// fails with a 500 before anything is written).
async fn one_value(ctx: &CallCtx, route: Route, id: i64, what: String) -> Outcome {
    let target = format!("TV parent request {id}");
    if let Err(e) = ctx.upstream.write::<bool>(ctx.acting(), route).await {
        let e = not_found_on_500(e, &target);
        return Err(
            tv_id_hint(ctx, e, id, TvLevel::Parent, "/parent_request_id")
                .await
                .into(),
        );
    }
    let mut m = Mutation::new(Done::Completed)
        .on_request(TargetKind::TvParent, id)
        .message(format!("{target}: {what} set"));
    m.upstream_result = Some(true);
    Ok(reply(m.into_data(), Vec::new(), false))
}
