//! `write_request_create`: its definition. Not served yet: it is in no tool list until its
//! handler exists.

use serde_json::{Map, Value};

use crate::catalogue::params::*;
use crate::catalogue::shape::{ArgDefault, Field, Ty};
use crate::catalogue::{Bundle, ToolDef, action};
use crate::contract::{Family, ToolError};

pub static DEF: ToolDef = ToolDef {
    name: "write_request_create",
    title: "Request media",
    bundle: Bundle::Core,
    destructive: false,
    description: "Request a movie, TV seasons or episodes, an album, or a whole movie collection so Ombi sends it to Radarr/Sonarr/Lidarr (possibly after approval). Check read_media or read_search first to avoid requesting something already available.",
    families: &[Family::Mutation],
    params: &[
        TMDB_ID,
        IS_4K,
        LANGUAGE,
        Field::opt(
            "on_behalf_user_id",
            Ty::Str { min: 1, max: 64 },
            "Request for another user (GUID; needs power user).",
        ),
        OVERRIDES,
        Field::opt(
            "provider",
            Ty::Enum(&["tmdb", "tvdb"]),
            "Which id namespace `id` is in (default `tmdb`).",
        )
        .default(ArgDefault::Str("tmdb")),
        Field::opt("id", Ty::ID, "The show's id in `provider`'s namespace."),
        SELECTION,
        LANGUAGE_PROFILE_ID,
        MUSICBRAINZ_ID,
        Field::opt(
            "requested_by_alias",
            Ty::Str { min: 1, max: 100 },
            "Name shown as requester of an album.",
        ),
        COLLECTION_ID,
    ],
    actions: &[
        action(
            "movie",
            "request a movie",
            &["tmdb_id"],
            &["is_4k", "language", "on_behalf_user_id", "overrides"],
        ),
        action(
            "tv",
            "request seasons or episodes of a show",
            &["id", "selection"],
            &[
                "provider",
                "language_profile_id",
                "on_behalf_user_id",
                "overrides",
            ],
        ),
        action(
            "album",
            "request an album by MusicBrainz release group id",
            &["musicbrainz_id"],
            &["requested_by_alias"],
        ),
        action(
            "collection",
            "request every movie of a TMDB collection",
            &["collection_id"],
            &[],
        ),
    ],
    default_action: None,
    check: Some(request_create_rules),
};

fn request_create_rules(action: &str, args: &Map<String, Value>) -> Result<(), ToolError> {
    if action != "tv" {
        return Ok(());
    }
    let Some(sel) = args.get("selection").and_then(Value::as_object) else {
        return Ok(());
    };
    let mode = sel.get("mode").and_then(Value::as_str).unwrap_or("");
    for (key, needed_by) in [("season_numbers", "season"), ("seasons", "episodes")] {
        match (sel.contains_key(key), mode == needed_by) {
            (false, true) => {
                return Err(ToolError::invalid(
                    format!("/selection/{key}"),
                    format!("selection mode `{needed_by}` needs `{key}`"),
                ));
            }
            (true, false) => {
                return Err(ToolError::invalid(
                    format!("/selection/{key}"),
                    format!("`{key}` is only used with selection mode `{needed_by}`, not `{mode}`"),
                ));
            }
            _ => {}
        }
    }
    Ok(())
}
