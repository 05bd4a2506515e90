//! Argument shapes shared by several tools, defined once. A tool's parameter
//! list picks from these; per-tool variants only where the catalogue differs.
//!
//! Next to each shared label list is the typed value a tool's action enum
//! deserializes it into (`MediaKind` for [`MEDIA_MOVIE_TV_ALBUM`], ...); a
//! unit test holds each enum's serde names equal to its list.

use serde::Deserialize;
use serde_json::{Map, Value};

use super::shape::{ArgDefault, Field, Ty};
use crate::contract::ToolError;

pub const MEDIA_MOVIE_TV_ALBUM: &[&str] = &["movie", "tv", "album"];

/// A label of [`MEDIA_MOVIE_TV_ALBUM`] (`media`, `request_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MediaKind {
    Movie,
    Tv,
    Album,
}

impl MediaKind {
    /// The label, also the media segment of Ombi's request and vote routes.
    pub const fn label(self) -> &'static str {
        match self {
            MediaKind::Movie => "movie",
            MediaKind::Tv => "tv",
            MediaKind::Album => "album",
        }
    }

    /// The request kind a request id of this media names: in Ombi's vote,
    /// subscribe, moderation and issue routes a TV request is the child
    /// (season-level) request.
    pub const fn target_kind(self) -> TargetKind {
        match self {
            MediaKind::Movie => TargetKind::Movie,
            MediaKind::Tv => TargetKind::TvChild,
            MediaKind::Album => TargetKind::Album,
        }
    }

    /// "movie", "TV child", "album" (as in "movie request 12").
    pub const fn noun(self) -> &'static str {
        match self {
            MediaKind::Movie => "movie",
            MediaKind::Tv => "TV child",
            MediaKind::Album => "album",
        }
    }

    /// "movie request 2", "TV child request 12", "album request 3".
    pub fn request(self, id: i64) -> String {
        format!("{} request {id}", self.noun())
    }

    /// Ombi's `RequestType` code (TV is 0).
    pub const fn code(self) -> i64 {
        match self {
            MediaKind::Tv => 0,
            MediaKind::Movie => 1,
            MediaKind::Album => 2,
        }
    }

    /// The service Ombi sends an approved request of this media to.
    pub const fn downloader(self) -> &'static str {
        match self {
            MediaKind::Movie => "Radarr",
            MediaKind::Tv => "Sonarr",
            MediaKind::Album => "Lidarr",
        }
    }
}

pub const MEDIA_MOVIE_OR_TV: &[&str] = &["movie", "tv"];

/// A label of [`MEDIA_MOVIE_OR_TV`] (`media` where albums have no route, or
/// an action's `only` narrows it to these).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MovieOrTv {
    Movie,
    Tv,
}

impl MovieOrTv {
    pub const fn label(self) -> &'static str {
        match self {
            MovieOrTv::Movie => "movie",
            MovieOrTv::Tv => "tv",
        }
    }
}

pub const TARGET_KINDS: &[&str] = &["movie", "tv_parent", "tv_child", "album"];

/// The [`TARGET`] argument and its kinds (labels [`TARGET_KINDS`]): the
/// contract's one type for an Ombi request, which records carry too.
pub use crate::contract::{Target, TargetKind};

pub const ISSUE_STATUS: &[&str] = &["pending", "in_progress", "resolved", "closed"];

/// A label of [`ISSUE_STATUS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IssueStatus {
    Pending,
    InProgress,
    Resolved,
    Closed,
}

impl IssueStatus {
    pub const fn label(self) -> &'static str {
        match self {
            IssueStatus::Pending => "pending",
            IssueStatus::InProgress => "in_progress",
            IssueStatus::Resolved => "resolved",
            IssueStatus::Closed => "closed",
        }
    }
}

pub const REQUEST_STATUS: &[&str] = &[
    "all",
    "pending",
    "processing",
    "available",
    "denied",
    "unavailable",
];

/// A label of [`REQUEST_STATUS`] (also Ombi's route segment for the filter).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RequestStatus {
    All,
    Pending,
    Processing,
    Available,
    Denied,
    Unavailable,
}

impl RequestStatus {
    pub const fn label(self) -> &'static str {
        match self {
            RequestStatus::All => "all",
            RequestStatus::Pending => "pending",
            RequestStatus::Processing => "processing",
            RequestStatus::Available => "available",
            RequestStatus::Denied => "denied",
            RequestStatus::Unavailable => "unavailable",
        }
    }
}

const PAGE_FIELDS: &[Field] = &[
    Field::opt(
        "offset",
        Ty::Int {
            min: 0,
            max: 1_000_000,
        },
        "",
    )
    .default(ArgDefault::Int(0)),
    Field::opt("limit", Ty::Int { min: 1, max: 100 }, "").default(ArgDefault::Int(20)),
];

pub const PAGE: Field = Field::opt(
    "page",
    Ty::Obj(PAGE_FIELDS),
    "Window; continue with `offset` = the returned `page.next_offset`.",
)
.default(ArgDefault::Obj);

const TARGET_FIELDS: &[Field] = &[
    Field::req(
        "kind",
        Ty::Enum(TARGET_KINDS),
        "`tv_parent`: a show-level request; `tv_child`: a season-level one.",
    ),
    Field::req("id", Ty::ID, "The request id within that kind."),
];

pub const TARGET: Field = Field::opt(
    "target",
    Ty::Obj(TARGET_FIELDS),
    "A request `{kind, id}`, as read_requests returns it in `target`.",
);

pub const QUERY: Field = Field::opt("query", Ty::Str { min: 1, max: 200 }, "");
pub const LANGUAGE: Field = Field::opt(
    "language",
    Ty::Str { min: 2, max: 10 },
    "Language code, e.g. `pt-BR` (default: yours in Ombi).",
);
pub const YEAR: Field = Field::opt(
    "year",
    Ty::Int {
        min: 1800,
        max: 2200,
    },
    "",
);
pub const MEDIA: Field = Field::opt("media", Ty::Enum(MEDIA_MOVIE_TV_ALBUM), "");
pub const MEDIA_MOVIE_TV: Field = Field::opt("media", Ty::Enum(MEDIA_MOVIE_OR_TV), "");
pub const TMDB_ID: Field = Field::opt("tmdb_id", Ty::ID, "");
pub const TVDB_ID: Field = Field::opt("tvdb_id", Ty::ID, "");
pub const IMDB_ID: Field = Field::opt("imdb_id", Ty::Str { min: 3, max: 20 }, "E.g. `tt0133093`.");
pub const MUSICBRAINZ_ID: Field = Field::opt(
    "musicbrainz_id",
    Ty::TEXT_ID,
    "Release group id (album) or artist id.",
);
pub const COLLECTION_ID: Field = Field::opt("collection_id", Ty::ID, "");
pub const REQUEST_ID: Field = Field::opt("request_id", Ty::ID, "TV: the season-level request id.");
pub const PARENT_REQUEST_ID: Field =
    Field::opt("parent_request_id", Ty::ID, "A TV show-level request id.");
pub const REQUEST_TYPE: Field = Field::opt(
    "request_type",
    Ty::Enum(MEDIA_MOVIE_TV_ALBUM),
    "Media type of the request.",
);
pub const IS_4K: Field = Field::opt(
    "is_4k",
    Ty::Bool,
    "Act on the 4K request instead of the standard one.",
)
.default(ArgDefault::Bool(false));
pub const ISSUE_ID: Field = Field::opt("issue_id", Ty::ID, "");
pub const PROVIDER_ID: Field = Field::opt(
    "provider_id",
    Ty::Str { min: 1, max: 100 },
    "TMDB/TVDB id or MBID, as text.",
);
pub const ISSUE_STATUS_OPT: Field = Field::opt("status", Ty::Enum(ISSUE_STATUS), "");
pub const USER_ID: Field = Field::opt(
    "user_id",
    Ty::Str { min: 1, max: 64 },
    "Ombi user id (a GUID string).",
);
pub const NAME: Field = Field::opt("name", Ty::Str { min: 1, max: 200 }, "Name or title.");
pub const CATEGORY_ID: Field = Field::opt(
    "category_id",
    Ty::ID,
    "From read_reference `issue_categories`.",
);
pub const ROOT_FOLDER_ID: Field = Field::opt(
    "root_folder_id",
    Ty::ID,
    "Root folder id (read_integration).",
);
pub const QUALITY_PROFILE_ID: Field = Field::opt(
    "quality_profile_id",
    Ty::ID,
    "Quality profile id (read_integration).",
);
pub const LANGUAGE_PROFILE_ID: Field = Field::opt(
    "language_profile_id",
    Ty::ID,
    "Sonarr language profile id (read_integration); PowerUser or Admin only.",
);

const OVERRIDE_FIELDS: &[Field] = &[ROOT_FOLDER_ID, QUALITY_PROFILE_ID];
pub const OVERRIDES: Field = Field::opt(
    "overrides",
    Ty::Obj(OVERRIDE_FIELDS),
    "Radarr/Sonarr destination overrides; PowerUser or Admin only.",
);

const IDS: Ty = Ty::Arr {
    item: &Ty::ID,
    min: 1,
    max: 100,
};
// Ombi applies no keyword or company filter, and the release year only to
// movies (docs/ombi-notes.md): only filters it applies are offered.
const FILTER_FIELDS: &[Field] = &[
    Field::opt(
        "release_year",
        Ty::Int {
            min: 1901,
            max: 2200,
        },
        "Movies only; not with `decade`.",
    ),
    Field::opt(
        "decade",
        Ty::Int {
            min: 1800,
            max: 2200,
        },
        "First year of a decade, e.g. 1990.",
    ),
    Field::opt("genre_ids", IDS, "From read_reference `genres`."),
    Field::opt(
        "watch_provider_ids",
        IDS,
        "From read_reference `watch_providers`.",
    ),
];
pub const FILTERS: Field = Field::opt("filters", Ty::Obj(FILTER_FIELDS), "");

pub const SELECTION_MODES: &[&str] =
    &["all", "first_season", "latest_season", "season", "episodes"];
const EPISODE_NUMBERS: Ty = Ty::Arr {
    item: &Ty::Int {
        min: 1,
        max: 10_000,
    },
    min: 1,
    max: 100,
};
const SEASON_NUMBER: Ty = Ty::Int { min: 0, max: 1000 };
const SEASON_FIELDS: &[Field] = &[
    Field::req("season_number", SEASON_NUMBER, "0 = specials."),
    Field::req("episodes", EPISODE_NUMBERS, ""),
];
const SEASON_OBJ: Ty = Ty::Obj(SEASON_FIELDS);
const SELECTION_FIELDS: &[Field] = &[
    Field::req(
        "mode",
        Ty::Enum(SELECTION_MODES),
        "`season`: those in `season_numbers`; `episodes`: those in `seasons`.",
    ),
    Field::opt(
        "season_numbers",
        Ty::Arr {
            item: &SEASON_NUMBER,
            min: 1,
            max: 100,
        },
        "For mode `season` only, and required there.",
    ),
    Field::opt(
        "seasons",
        Ty::Arr {
            item: &SEASON_OBJ,
            min: 1,
            max: 100,
        },
        "For mode `episodes` only, and required there.",
    ),
];
pub const SELECTION: Field = Field::opt(
    "selection",
    Ty::Obj(SELECTION_FIELDS),
    "Which seasons or episodes of the show to request.",
);

pub const NOTIFICATION_AGENTS: &[&str] = &[
    "email",
    "discord",
    "pushbullet",
    "pushover",
    "telegram",
    "slack",
    "mattermost",
    "mobile",
    "gotify",
    "webhook",
    "whatsapp",
    "ntfy",
];
const AGENT_FIELDS: &[Field] = &[
    Field::req(
        "agent",
        Ty::Enum(NOTIFICATION_AGENTS),
        "Notification agent.",
    ),
    Field::req(
        "value",
        Ty::Str { min: 0, max: 500 },
        "Your delivery address for that agent (chat id, user key, phone number); empty to clear.",
    ),
];
const AGENT_OBJ: Ty = Ty::Obj(AGENT_FIELDS);
pub const AGENTS: Field = Field::opt(
    "agents",
    Ty::Arr {
        item: &AGENT_OBJ,
        min: 1,
        max: 20,
    },
    "Delivery values per agent.",
);

pub const SETTINGS_SECTIONS: &[&str] = &[
    "ombi",
    "customization",
    "authentication",
    "user_management",
    "issues",
    "vote",
    "landing_page",
    "the_movie_db",
    "jobs",
    "update",
    "plex",
    "emby",
    "jellyfin",
    "sonarr",
    "radarr",
    "lidarr",
    "notifications/email",
    "notifications/discord",
    "notifications/telegram",
    "notifications/pushbullet",
    "notifications/pushover",
    "notifications/slack",
    "notifications/mattermost",
    "notifications/twilio",
    "notifications/mobile",
    "notifications/gotify",
    "notifications/ntfy",
    "notifications/webhook",
    "notifications/newsletter",
    "features",
];
pub const SECTION: Field = Field::opt("section", Ty::Enum(SETTINGS_SECTIONS), "Settings section.");

const CHANGE_FIELDS: &[Field] = &[
    Field::req(
        "name",
        Ty::Str { min: 1, max: 300 },
        "The setting's name exactly as read_settings lists it (an escaped JSON Pointer).",
    ),
    Field::req(
        "value",
        Ty::Scalar,
        "The new value (a boolean for section `features`).",
    ),
];
const CHANGE_OBJ: Ty = Ty::Obj(CHANGE_FIELDS);
pub const CHANGES: Field = Field::opt(
    "changes",
    Ty::Arr {
        item: &CHANGE_OBJ,
        min: 1,
        max: 100,
    },
    "The settings to change.",
);

pub const TEST_TARGETS: &[&str] = &[
    "discord",
    "pushbullet",
    "pushover",
    "gotify",
    "ntfy",
    "webhook",
    "mattermost",
    "slack",
    "email",
    "telegram",
    "whatsapp",
    "mobile",
    "newsletter",
    "plex",
    "emby",
    "jellyfin",
    "radarr",
    "sonarr",
    "lidarr",
];

pub const ROLES: &[&str] = &[
    "Admin",
    "AutoApproveMovie",
    "AutoApproveTv",
    "AutoApproveMusic",
    "PowerUser",
    "RequestMovie",
    "RequestTv",
    "RequestMusic",
    "Disabled",
    "ReceivesNewsletter",
    "ManageOwnRequests",
    "EditCustomPage",
    "Request4KMovie",
    "AutoApprove4KMovie",
];
const LIMIT: Ty = Ty::Int {
    min: 0,
    max: 10_000,
};
const LIMIT_TYPE: Ty = Ty::Enum(&["day", "week", "month"]);
const USER_FIELDS: &[Field] = &[
    Field::opt(
        "user_name",
        Ty::Str { min: 1, max: 100 },
        "Login name (required on create).",
    ),
    Field::opt("alias", Ty::Str { min: 0, max: 100 }, "Display name."),
    Field::opt(
        "email_address",
        Ty::Str { min: 3, max: 254 },
        "E-mail address.",
    ),
    Field::opt(
        "password",
        Ty::Str { min: 1, max: 200 },
        "Initial password; create only.",
    )
    .secret(),
    Field::opt(
        "roles",
        Ty::Arr {
            item: &Ty::Enum(ROLES),
            min: 0,
            max: 20,
        },
        "Role names the user has; on update it replaces the roles only when given.",
    ),
    Field::opt("language", Ty::Str { min: 2, max: 10 }, "Language code."),
    Field::opt(
        "streaming_country",
        Ty::Str { min: 2, max: 2 },
        "Two-letter streaming country code.",
    ),
    Field::opt(
        "movie_request_limit",
        LIMIT,
        "Movie requests per period (0 = unlimited).",
    ),
    Field::opt(
        "movie_request_limit_type",
        LIMIT_TYPE,
        "Period of the movie limit.",
    ),
    Field::opt(
        "episode_request_limit",
        LIMIT,
        "Episode requests per period (0 = unlimited).",
    ),
    Field::opt(
        "episode_request_limit_type",
        LIMIT_TYPE,
        "Period of the episode limit.",
    ),
    Field::opt(
        "music_request_limit",
        LIMIT,
        "Album requests per period (0 = unlimited).",
    ),
    Field::opt(
        "music_request_limit_type",
        LIMIT_TYPE,
        "Period of the album limit.",
    ),
];
pub const USER: Field = Field::opt("user", Ty::Obj(USER_FIELDS), "The user's fields to set.");

/// The `page` argument alone, for actions that take nothing else.
pub const PAGE_ONLY: &[&str] = &["page"];

/// read_media and read_library: which id identifies which media.
pub fn media_details_rules(action: &str, args: &Map<String, Value>) -> Result<(), ToolError> {
    let media = args.get("media").and_then(Value::as_str).unwrap_or("");
    let allowed: &[&str] = match (action, media) {
        ("details", "movie") => &["tmdb_id", "imdb_id"],
        ("details", "tv") => &["tmdb_id", "tvdb_id"],
        ("details", _) => &["musicbrainz_id"],
        ("artwork", "movie") => &["tmdb_id"],
        ("artwork", "tv") => &["tmdb_id", "tvdb_id"],
        ("artwork", _) => &["musicbrainz_id"],
        _ => return Ok(()),
    };
    for id in ["tmdb_id", "imdb_id", "tvdb_id", "musicbrainz_id"] {
        if args.contains_key(id) && !allowed.contains(&id) {
            return Err(ToolError::invalid(
                format!("/{id}"),
                format!(
                    "`{id}` does not identify a `{media}`; use one of {}",
                    super::shape::list(allowed)
                ),
            ));
        }
    }
    Ok(())
}

/// Test helper for every typed label enum (shared here and per tool): the
/// enum's serde names are exactly `list`, in order (read from serde's
/// "unknown variant" message, which names every variant), and each
/// label's variant gives it back from `label()`.
#[cfg(test)]
pub fn assert_mirrors<T: serde::de::DeserializeOwned + Copy + std::fmt::Debug>(
    list: &[&str],
    label: fn(T) -> &'static str,
) {
    let quoted: Vec<String> = list.iter().map(|l| format!("`{l}`")).collect();
    let expected = match quoted.as_slice() {
        [one] => format!("expected {one}"),
        [a, b] => format!("expected {a} or {b}"),
        all => format!("expected one of {}", all.join(", ")),
    };
    let err = serde_json::from_value::<T>(Value::from("?"))
        .map(|v| format!("accepted as {v:?}"))
        .unwrap_or_else(|e| e.to_string());
    assert!(err.ends_with(&expected), "{err} (want: {expected})");
    for l in list {
        let v = serde_json::from_value::<T>(Value::from(*l))
            .unwrap_or_else(|e| panic!("label `{l}`: {e}"));
        assert_eq!(label(v), *l);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_labels_mirror_their_lists() {
        assert_mirrors(MEDIA_MOVIE_TV_ALBUM, MediaKind::label);
        assert_mirrors(MEDIA_MOVIE_OR_TV, MovieOrTv::label);
        assert_mirrors(TARGET_KINDS, TargetKind::label);
        assert_mirrors(ISSUE_STATUS, IssueStatus::label);
        assert_mirrors(REQUEST_STATUS, RequestStatus::label);
    }
}
