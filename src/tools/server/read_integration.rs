//! `read_integration`: options of the saved Radarr / Sonarr / Lidarr / Plex
//! connections (→ `reference_page`) and media-server accounts (→
//! `user_page`). Only the GET routes that use the SAVED settings: never the
//! POST variants that take caller-supplied URLs and keys (SSRF, secrets).
//!
//! A disabled integration is `UNSUPPORTED_CAPABILITY` whenever Ombi can say
//! so (`{Radarr,Sonarr,Lidarr}/enabled`, a null 4K root-folder list, no saved
//! Plex server). Emby/Jellyfin have no such probe among these routes: an
//! empty account list there comes with a warning instead.

use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::contract::Family;
use crate::contract::{ErrorCode, ToolError};
use crate::contract::{Failure, Outcome};
use crate::definition::params::*;
use crate::definition::shape::{Field, Ty};
use crate::definition::{Bundle, ToolActions, ToolDef};
use crate::projection::integration::{
    self, WirePlexLibraries, WirePlexServer, WirePlexServers, WireProfile, WireRootFolder, WireTag,
};
use crate::projection::paging::{self, Window, page_object};
use crate::projection::reference::Reference;
use crate::projection::server_info::{self, WireFeature};
use crate::projection::users::{self, WireServerUser};
use crate::tools::reply;
use crate::tools::{Actions, CallCtx, Tool};
use crate::upstream::Route;

const MACHINE_ID: Field = Field::opt(
    "machine_id",
    Ty::Str { min: 1, max: 100 },
    "Plex server machine id (from `plex_servers`).",
);
const SERVER: Field = Field::opt("server", Ty::Enum(MEDIA_SERVERS), "Media server.");

pub static TOOL: Tool = Tool::new::<Action>(ToolDef {
    name: "read_integration",
    title: "Integration options",
    bundle: Bundle::Moderation,
    destructive: false,
    description: "Options of the connected services for moderating requests: Radarr/Sonarr/Lidarr quality profiles and root folders, Plex servers and libraries, and media-server users.",
    families: &[Family::ReferencePage, Family::UserPage],
    ..ToolDef::BASE
})
.examples(&[
    (r#"{"action": "radarr_options"}"#, true),
    (r#"{"action": "sonarr_options"}"#, true),
    (r#"{"action": "lidarr_options"}"#, true),
    (r#"{"action": "plex_servers"}"#, true),
    (r#"{"action": "plex_libraries", "machine_id": "abc123"}"#, true),
    (r#"{"action": "media_server_users", "server": "plex"}"#, true),
])
.invalid(&[
    (r#"{"action": "media_server_users", "server": "kodi"}"#, "/server"),
    (r#"{"action": "sonarr_options", "is_4k": true}"#, "/is_4k"),
    (r#"{"action": "plex_libraries"}"#, "/machine_id"),
]);

const MEDIA_SERVERS: &[&str] = &["plex", "emby", "jellyfin"];

/// A label of [`MEDIA_SERVERS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum MediaServer {
    Plex,
    Emby,
    Jellyfin,
}

impl MediaServer {
    const fn label(self) -> &'static str {
        match self {
            MediaServer::Plex => "plex",
            MediaServer::Emby => "emby",
            MediaServer::Jellyfin => "jellyfin",
        }
    }
}

/// The actions, as validated arguments deserialize into them.
#[derive(Deserialize, ToolActions)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    /// Radarr profiles, root folders and tags
    #[action(role = "PowerUser")]
    RadarrOptions { is_4k: bool },
    /// Sonarr profiles, root folders, language profiles and tags
    #[action(role = "PowerUser")]
    SonarrOptions,
    /// Lidarr profiles and root folders
    #[action(role = "PowerUser")]
    LidarrOptions,
    /// saved Plex servers
    #[action(role = "Admin")]
    PlexServers,
    /// libraries of a Plex server
    #[action(role = "Admin")]
    PlexLibraries { machine_id: String },
    /// users of a media server
    #[action(role = "Admin")]
    MediaServerUsers { server: MediaServer },
}

impl Actions for Action {
    async fn run(self, ctx: &CallCtx) -> Outcome {
        match self {
            Action::RadarrOptions { is_4k: true } => radarr_4k(ctx).await,
            Action::RadarrOptions { is_4k: false } => radarr(ctx).await,
            Action::SonarrOptions => sonarr(ctx).await,
            Action::LidarrOptions => lidarr(ctx).await,
            Action::PlexServers => plex_servers(ctx).await,
            Action::PlexLibraries { machine_id } => plex_libraries(ctx, &machine_id).await,
            Action::MediaServerUsers { server } => media_server_users(ctx, server).await,
        }
    }
}

fn unsupported(what: &str) -> Failure {
    ToolError::new(
        ErrorCode::UnsupportedCapability,
        format!("{what} is not enabled in Ombi's settings, so it has no options to list"),
    )
    .into()
}

/// References collected from several lists; a list that failed is a
/// warning, and the call a PARTIAL_FAILURE carrying what was read.
struct Collected {
    items: Vec<Reference>,
    failed: Vec<String>,
    first_error: Option<ToolError>,
    cut: bool,
}

impl Collected {
    fn new() -> Self {
        Collected {
            items: Vec::new(),
            failed: Vec::new(),
            first_error: None,
            cut: false,
        }
    }

    fn add<T>(
        &mut self,
        what: &str,
        r: Result<crate::upstream::Bounded<Vec<T>>, ToolError>,
        f: impl Fn(&[T]) -> Vec<Reference>,
    ) {
        match r {
            Ok(b) => {
                self.cut |= b.cut;
                self.items.extend(f(&b.value));
            }
            Err(e) => {
                self.failed.push(format!("{what}: {}", e.message));
                self.first_error.get_or_insert(e);
            }
        }
    }

    fn finish(self, lists: usize) -> Outcome {
        let Window { items, page } = paging::first(self.items, !self.cut, "references");
        let mut warnings = Vec::new();
        if let Some(w) = paging::more_warning(&page, "options") {
            warnings.push(w);
        }
        let truncated = self.cut || page.has_more == Some(true);
        let data = page_object(Family::ReferencePage, items, &page);
        if self.failed.is_empty() {
            return Ok(reply(data, warnings, truncated));
        }
        if self.failed.len() == lists {
            return Err(self
                .first_error
                .map(Failure::from)
                .unwrap_or_else(|| ToolError::internal("no list read").into()));
        }
        warnings.extend(self.failed.iter().cloned());
        Err(Failure {
            error: ToolError::new(
                ErrorCode::PartialFailure,
                format!(
                    "some option lists could not be read: {}",
                    self.failed.join("; ")
                ),
            ),
            data: Some(data),
            warnings,
        })
    }
}

async fn list<T: DeserializeOwned>(
    ctx: &CallCtx,
    path: &'static str,
) -> Result<crate::upstream::Bounded<Vec<T>>, ToolError> {
    ctx.upstream
        .get_array::<T>(ctx.acting(), Route::get(path))
        .await
}

/// `GET /api/v1/Radarr/{enabled,Profiles,RootFolders,tags}` (power user).
async fn radarr(ctx: &CallCtx) -> Outcome {
    if !ctx.switch_on("api/v1/Radarr/enabled").await? {
        return Err(unsupported("Radarr"));
    }
    let (p, r, t) = tokio::join!(
        list::<WireProfile>(ctx, "api/v1/Radarr/Profiles"),
        list::<WireRootFolder>(ctx, "api/v1/Radarr/RootFolders"),
        list::<WireTag>(ctx, "api/v1/Radarr/tags"),
    );
    let mut c = Collected::new();
    c.add("quality profiles", p, |x| {
        integration::profiles(x, "quality_profile")
    });
    c.add("root folders", r, |x| {
        integration::root_folders(x, "root_folder")
    });
    c.add("tags", t, |x| integration::tags(x, "tag"));
    c.finish(3)
}

/// The 4K instance: `Profiles/4k` and `RootFolders/4k` (null when the 4K
/// instance is disabled), after checking the `Movie4KRequests` feature.
async fn radarr_4k(ctx: &CallCtx) -> Outcome {
    let features = list::<WireFeature>(ctx, "api/v2/Features").await?;
    if !server_info::feature_enabled(&features.value, "Movie4KRequests") {
        return Err(ToolError::new(
            ErrorCode::UnsupportedCapability,
            "4K requests are off in Ombi (feature Movie4KRequests), so there are no Radarr 4K options",
        )
        .into());
    }
    let up = &ctx.upstream;
    let (p, r) = tokio::join!(
        list::<WireProfile>(ctx, "api/v1/Radarr/Profiles/4k"),
        up.get_json::<Vec<WireRootFolder>>(
            ctx.acting(),
            Route::get("api/v1/Radarr/RootFolders/4k")
        ),
    );
    let folders = match r {
        Ok(None) => return Err(unsupported("The Radarr 4K instance")),
        Ok(Some(f)) => Ok(crate::upstream::Bounded {
            value: f,
            cut: false,
        }),
        Err(e) => Err(e),
    };
    let mut c = Collected::new();
    c.add("4K quality profiles", p, |x| {
        integration::profiles(x, "quality_profile")
    });
    c.add("4K root folders", folders, |x| {
        integration::root_folders(x, "root_folder")
    });
    c.finish(2)
}

/// `GET /api/v1/Sonarr/{enabled,Profiles,RootFolders,v3/LanguageProfiles,tags,version}`.
async fn sonarr(ctx: &CallCtx) -> Outcome {
    if !ctx.switch_on("api/v1/Sonarr/enabled").await? {
        return Err(unsupported("Sonarr"));
    }
    let (p, r, l, t, v) = tokio::join!(
        list::<WireProfile>(ctx, "api/v1/Sonarr/Profiles"),
        list::<WireRootFolder>(ctx, "api/v1/Sonarr/RootFolders"),
        list::<WireProfile>(ctx, "api/v1/Sonarr/v3/LanguageProfiles"),
        list::<WireTag>(ctx, "api/v1/Sonarr/tags"),
        ctx.upstream
            .get_json::<String>(ctx.acting(), Route::get("api/v1/Sonarr/version")),
    );
    let mut c = Collected::new();
    c.add("quality profiles", p, |x| {
        integration::profiles(x, "quality_profile")
    });
    c.add("root folders", r, |x| {
        integration::root_folders(x, "root_folder")
    });
    c.add("language profiles", l, |x| {
        integration::profiles(x, "language_profile")
    });
    c.add("tags", t, |x| integration::tags(x, "tag"));
    let version = v.map(|v| crate::upstream::Bounded {
        value: v.into_iter().collect::<Vec<String>>(),
        cut: false,
    });
    c.add("version", version, |x| {
        x.iter()
            .filter_map(|v| integration::version(v, "sonarr_version"))
            .collect()
    });
    c.finish(5)
}

/// `GET /api/v1/Lidarr/{enabled,Profiles,RootFolders}` (`enabled` is anonymous).
async fn lidarr(ctx: &CallCtx) -> Outcome {
    if !ctx.switch_on("api/v1/Lidarr/enabled").await? {
        return Err(unsupported("Lidarr"));
    }
    let (p, r) = tokio::join!(
        list::<WireProfile>(ctx, "api/v1/Lidarr/Profiles"),
        list::<WireRootFolder>(ctx, "api/v1/Lidarr/RootFolders"),
    );
    let mut c = Collected::new();
    c.add("quality profiles", p, |x| {
        integration::profiles(x, "quality_profile")
    });
    c.add("root folders", r, |x| {
        integration::root_folders(x, "root_folder")
    });
    c.finish(2)
}

/// `GET /api/v1/Plex/servers` (admin): the saved servers. `success: false`
/// (Ombi could not read its Plex settings) or none saved → Plex is not set up.
async fn saved_plex_servers(ctx: &CallCtx) -> Result<Vec<WirePlexServer>, Failure> {
    let s: Option<WirePlexServers> = ctx
        .upstream
        .get_json(ctx.acting(), Route::get("api/v1/Plex/servers"))
        .await?;
    match s {
        Some(WirePlexServers {
            success: Some(true),
            servers: Some(servers),
        }) if !servers.is_empty() => Ok(servers),
        _ => Err(unsupported("Plex (no saved Plex server)")),
    }
}

async fn plex_servers(ctx: &CallCtx) -> Outcome {
    let servers = saved_plex_servers(ctx).await?;
    let Window { items, page } =
        paging::first(integration::plex_servers(&servers), true, "references");
    Ok(reply(
        page_object(Family::ReferencePage, items, &page),
        Vec::new(),
        false,
    ))
}

/// `GET /api/v1/Plex/Libraries/{machineId}` with the machine id of a SAVED
/// server: the caller's text is only used to pick one, never passed through.
async fn plex_libraries(ctx: &CallCtx, wanted: &str) -> Outcome {
    let servers = saved_plex_servers(ctx).await?;
    let Some(machine_id) = servers
        .iter()
        .filter_map(|s| s.machine_id.as_deref())
        .find(|m| *m == wanted)
        .map(str::to_string)
    else {
        let known: Vec<&str> = servers
            .iter()
            .filter_map(|s| s.machine_id.as_deref())
            .take(10)
            .collect();
        return Err(ToolError::invalid(
            "/machine_id",
            format!(
                "no saved Plex server has that machine id; saved servers: {} (see plex_servers)",
                known.join(", ")
            ),
        )
        .into());
    };
    let libs: Option<WirePlexLibraries> = ctx
        .upstream
        .get_json(
            ctx.acting(),
            Route::get("api/v1/Plex/Libraries").seg(&machine_id),
        )
        .await?;
    let libs = libs.ok_or_else(|| {
        ToolError::new(
            ErrorCode::UpstreamSchemaMismatch,
            "Ombi returned no Plex library answer",
        )
    })?;
    if libs.successful != Some(true) {
        let why = libs
            .message
            .as_deref()
            .map(crate::text::message::sanitize)
            .filter(|m| !m.is_empty())
            .unwrap_or_else(|| "no reason given".into());
        return Err(ToolError::new(
            ErrorCode::UpstreamRejected,
            format!("Ombi could not list the libraries of that Plex server: {why}"),
        )
        .into());
    }
    let items = integration::plex_libraries(libs.data.as_deref().unwrap_or_default());
    let Window { items, page } = paging::first(items, true, "references");
    let mut warnings = Vec::new();
    if let Some(w) = paging::more_warning(&page, "libraries") {
        warnings.push(w);
    }
    let truncated = !warnings.is_empty();
    Ok(reply(
        page_object(Family::ReferencePage, items, &page),
        warnings,
        truncated,
    ))
}

/// `GET /api/v1/{Plex/friends,Emby/users,Jellyfin/users}` (admin) → `user_page`
/// of media-server accounts (their own ids, not Ombi user ids).
async fn media_server_users(ctx: &CallCtx, server: MediaServer) -> Outcome {
    let path = match server {
        MediaServer::Plex => {
            saved_plex_servers(ctx).await?;
            "api/v1/Plex/friends"
        }
        MediaServer::Emby => "api/v1/Emby/users",
        MediaServer::Jellyfin => "api/v1/Jellyfin/users",
    };
    let rows = list::<WireServerUser>(ctx, path).await?;
    let items = users::server_users(&rows.value);
    let mut warnings = Vec::new();
    if items.is_empty() && server != MediaServer::Plex {
        let server = server.label();
        warnings.push(format!(
            "Ombi returned no {server} users: is {server} configured in Ombi?"
        ));
    }
    let Window { items, page } = paging::first(items, !rows.cut, "users");
    if let Some(w) = paging::more_warning(&page, "users") {
        warnings.push(w);
    }
    let truncated = rows.cut || page.has_more == Some(true);
    Ok(reply(
        page_object(Family::UserPage, items, &page),
        warnings,
        truncated,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn media_server_mirrors_its_labels() {
        crate::definition::params::assert_mirrors(MEDIA_SERVERS, MediaServer::label);
    }
}
