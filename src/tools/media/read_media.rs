//! `read_media`: one title's details (by TMDB/IMDb/TVDB/MusicBrainz id or by
//! Ombi request), its Rotten Tomatoes ratings, or its streaming providers.

use super::albums::album_lookup;
use serde::Deserialize;

use crate::contract::Family;
use crate::contract::{ErrorCode, ToolError};
use crate::contract::{Outcome, Reply};
use crate::definition::params::*;
use crate::definition::shape::{Field, Ty};
use crate::definition::{Bundle, ToolActions, ToolDef};
use crate::projection::identifiers::Origin;
use crate::projection::media::{
    self, ArtistInfo, Media, MovieFull, Notes, StreamingData, TvDetail, WireRatings,
};
use crate::projection::paging;
use crate::projection::requests::WireChildWithSeasons;
use crate::tools::requests::privacy;
use crate::tools::requests::reads as request_reads;
use crate::tools::{Actions, CallCtx, Tool};
use crate::tools::{
    language_ignored, not_found, not_found_on_500, not_found_on_null_dereference, note_read_limit,
    reply,
};
use crate::upstream::Route;

const MEDIA: Field = Field::opt("media", Ty::Enum(MEDIA_DETAILS), "");
const NAME: Field = Field::opt(
    "name",
    Ty::Str { min: 1, max: 200 },
    "Title to look up ratings for.",
);

pub static TOOL: Tool = Tool::new::<Action>(ToolDef {
        name: "read_media",
        title: "Media details",
        bundle: Bundle::Core,
        destructive: false,
        description: "Full details of one movie, show, album or artist (overview, seasons, cast, availability, request state), the media of a request, ratings, or where it streams. A show is `available` only when fully on the media server (seasons say which episodes are). Without a request, availability can be 12 hours old (Ombi's cache).",
        families: &[Family::MediaPage],
        check: Some(media_details_rules),
        ..ToolDef::BASE
})
.examples(&[
    (r#"{"action": "details", "media": "movie", "tmdb_id": 603}"#, true),
    (r#"{"action": "details", "media": "movie", "imdb_id": "tt1375666"}"#, true),
    (r#"{"action": "details", "media": "tv", "tmdb_id": 1396}"#, true),
    (r#"{"action": "details", "media": "tv", "tvdb_id": 81189}"#, true),
    (r#"{"action": "details", "media": "album", "musicbrainz_id": "2a0981fb-9593-3019-864b-ce934d97a16e"}"#, true),
    (r#"{"action": "details", "media": "artist", "musicbrainz_id": "f59c5520-5f46-4d2c-b2c4-822eabf53419"}"#, true),
    (r#"{"action": "by_request", "target": {"kind": "movie", "id": 1}}"#, true),
    (r#"{"action": "by_request", "target": {"kind": "tv_parent", "id": 10}}"#, true),
    (r#"{"action": "ratings", "media": "movie", "name": "The Matrix", "year": 1999}"#, true),
    (r#"{"action": "providers", "media": "tv", "tmdb_id": 1396}"#, true),
    (r#"{"action": "details", "media": "movie", "tmdb_id": 999999}"#, false),
])
.invalid(&[
    (r#"{"action": "details", "media": "movie"}"#, "/tmdb_id"),
    (r#"{"action": "details", "media": "movie", "tmdb_id": 1, "imdb_id": "tt1"}"#, "/imdb_id"),
    (r#"{"action": "details", "media": "album", "tmdb_id": 5}"#, "/tmdb_id"),
    (r#"{"action": "by_request", "target": {"kind": "show", "id": 1}}"#, "/target/kind"),
    (r#"{"action": "by_request", "target": {"kind": "movie"}}"#, "/target/id"),
    (r#"{"action": "by_request", "target": {"kind": "movie", "id": 1, "extra": true}}"#, "/target/extra"),
    (r#"{"action": "ratings", "media": "album", "name": "x", "year": 2000}"#, "/media"),
]);

const MEDIA_DETAILS: &[&str] = &["movie", "tv", "album", "artist"];

/// A label of [`MEDIA_DETAILS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum DetailsMedia {
    Movie,
    Tv,
    Album,
    Artist,
}

impl DetailsMedia {
    const fn label(self) -> &'static str {
        match self {
            DetailsMedia::Movie => "movie",
            DetailsMedia::Tv => "tv",
            DetailsMedia::Album => "album",
            DetailsMedia::Artist => "artist",
        }
    }
}

/// The actions, as validated arguments deserialize into them.
#[derive(Deserialize, ToolActions)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    // Exactly one id, the one `media_details_rules` allows for `media`.
    /// one title (movie: tmdb_id/imdb_id, tv: tmdb_id/tvdb_id, album/artist: musicbrainz_id, with Lidarr)
    Details {
        media: DetailsMedia,
        #[arg(one_of)]
        tmdb_id: Option<i64>,
        #[arg(one_of)]
        imdb_id: Option<String>,
        #[arg(one_of)]
        tvdb_id: Option<i64>,
        #[arg(one_of)]
        musicbrainz_id: Option<String>,
        language: Option<String>,
    },
    /// the media of a request
    ByRequest {
        target: Target,
        language: Option<String>,
    },
    /// Rotten Tomatoes ratings by title and year
    Ratings {
        #[arg(only = MEDIA_MOVIE_OR_TV)]
        media: MovieOrTv,
        name: String,
        year: i64,
    },
    /// streaming providers in your country
    Providers {
        #[arg(only = MEDIA_MOVIE_OR_TV)]
        media: MovieOrTv,
        tmdb_id: i64,
    },
}

/// The one id a `details` call gives (`one_of`).
enum DetailsId {
    Tmdb(i64),
    Imdb(String),
    Tvdb(i64),
    MusicBrainz(String),
}

impl DetailsId {
    fn given(
        tmdb: Option<i64>,
        imdb: Option<String>,
        tvdb: Option<i64>,
        musicbrainz: Option<String>,
    ) -> Option<DetailsId> {
        tmdb.map(DetailsId::Tmdb)
            .or(imdb.map(DetailsId::Imdb))
            .or(tvdb.map(DetailsId::Tvdb))
            .or(musicbrainz.map(DetailsId::MusicBrainz))
    }
}

/// How a lookup route answers an unknown id: with a 500 (a null dereference
/// in Ombi: `movie/imdb`, `movie/request`, `tv/request`, `artist/request`) or
/// with a 204. On the 204 routes a 500 is a failing provider (TMDB, TVMaze,
/// MusicBrainz), reported as such.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Unknown {
    Is500,
    /// The null dereference is a 500 too, beside a provider's own 500s.
    IsNullDereference,
    Is204,
}

fn unknown_on_500(e: ToolError, what: &str, unknown: Unknown) -> ToolError {
    match unknown {
        Unknown::Is500 => not_found_on_500(e, what),
        Unknown::IsNullDereference => not_found_on_null_dereference(e, what),
        Unknown::Is204 => e,
    }
}

impl Actions for Action {
    async fn run(self, ctx: &CallCtx) -> Outcome {
        match self {
            Action::Details {
                media,
                tmdb_id,
                imdb_id,
                tvdb_id,
                musicbrainz_id,
                language,
            } => {
                let id = DetailsId::given(tmdb_id, imdb_id, tvdb_id, musicbrainz_id);
                details(ctx, media, id, language).await
            }
            Action::ByRequest { target, language } => by_request(ctx, target, language).await,
            Action::Ratings { media, name, year } => ratings(ctx, media, &name, year).await,
            Action::Providers { media, tmdb_id } => providers(ctx, media, tmdb_id).await,
        }
    }
}

fn single_page(items: Vec<Media>, notes: Notes) -> Reply {
    reply(
        media::media_page(paging::single(items, "media")),
        notes.warnings,
        notes.truncated,
    )
}

// ---------------------------------------------------------------- actions

async fn movie_full(
    ctx: &CallCtx,
    route: Route,
    unknown: Unknown,
    what: &str,
    notes: &mut Notes,
) -> Result<Vec<Media>, ToolError> {
    let full = ctx
        .upstream
        .get_json::<MovieFull>(ctx.acting(), route)
        .await
        .map_err(|e| unknown_on_500(e, what, unknown))?
        .ok_or_else(|| not_found(what))?;
    Ok(media::movie_details(full, notes))
}

async fn tv_detail(
    ctx: &CallCtx,
    route: Route,
    unknown: Unknown,
    origin: Origin,
    what: &str,
    notes: &mut Notes,
) -> Result<Media, ToolError> {
    let tv = ctx
        .upstream
        .get_json::<TvDetail>(ctx.acting(), route)
        .await
        .map_err(|e| unknown_on_500(e, what, unknown))?
        .ok_or_else(|| not_found(what))?;
    Ok(media::tv_details(tv, origin, notes))
}

async fn details(
    ctx: &CallCtx,
    media: DetailsMedia,
    id: Option<DetailsId>,
    language: Option<String>,
) -> Outcome {
    let mut notes = Notes::default();
    language_ignored(language.as_deref(), &mut notes.warnings);
    let mut items = match (media, id) {
        (DetailsMedia::Movie, Some(DetailsId::Tmdb(id))) => {
            let route = Route::get("api/v2/Search/movie").seg(id);
            movie_full(
                ctx,
                route,
                Unknown::IsNullDereference,
                &format!("movie with TMDB id {id}"),
                &mut notes,
            )
            .await?
        }
        (DetailsMedia::Movie, Some(DetailsId::Imdb(imdb))) => {
            let route = Route::get("api/v2/Search/movie/imdb").seg(&imdb);
            movie_full(
                ctx,
                route,
                Unknown::Is500,
                &format!("movie with IMDb id {imdb}"),
                &mut notes,
            )
            .await?
        }
        (DetailsMedia::Tv, Some(DetailsId::Tmdb(id))) => {
            let route = Route::get("api/v2/Search/tv/moviedb").seg(id);
            vec![
                tv_detail(
                    ctx,
                    route,
                    Unknown::Is204,
                    Origin::Tmdb,
                    &format!("show with TMDB id {id}"),
                    &mut notes,
                )
                .await?,
            ]
        }
        (DetailsMedia::Tv, Some(DetailsId::Tvdb(tvdb))) => {
            // The only TVDB-keyed lookup is the TVMaze-backed v1 route.
            let route = Route::get("api/v1/Search/tv/info").seg(tvdb);
            vec![
                tv_detail(
                    ctx,
                    route,
                    Unknown::Is204,
                    Origin::TvMaze,
                    &format!("show with TVDB id {tvdb}"),
                    &mut notes,
                )
                .await?,
            ]
        }
        (DetailsMedia::Album, Some(DetailsId::MusicBrainz(mbid))) => {
            vec![media::album_item(album_lookup(ctx, &mbid).await?)]
        }
        (DetailsMedia::Artist, Some(DetailsId::MusicBrainz(mbid))) => {
            vec![
                artist(
                    ctx,
                    Route::get("api/v2/Search/artist").seg(&mbid),
                    Unknown::Is204,
                    &format!("artist {mbid}"),
                )
                .await?,
            ]
        }
        // Validation (`one_of`, `media_details_rules`) lets no other pair through.
        (m, _) => {
            return Err(ToolError::invalid(
                "/media",
                format!("`{}` details need one id: movie tmdb_id/imdb_id, tv tmdb_id/tvdb_id, album/artist musicbrainz_id", m.label()),
            )
            .into());
        }
    };
    current_request_state(ctx, &mut items, &mut notes).await;
    Ok(single_page(items, notes))
}

async fn artist(
    ctx: &CallCtx,
    route: Route,
    unknown: Unknown,
    what: &str,
) -> Result<Media, ToolError> {
    let info = ctx
        .upstream
        .get_json::<ArtistInfo>(ctx.acting(), route)
        .await
        .map_err(|e| unknown_on_500(e, what, unknown))?
        .ok_or_else(|| not_found(what))?;
    Ok(media::artist_details(&info))
}

async fn by_request(ctx: &CallCtx, target: Target, language: Option<String>) -> Outcome {
    let Target { kind, id } = target;
    let mut notes = Notes::default();
    language_ignored(language.as_deref(), &mut notes.warnings);
    let mut items = match kind {
        TargetKind::Movie => {
            // Ombi answers any user's request here, whatever its hiding.
            privacy::check_movie_id(ctx, id).await?;
            let route = Route::get("api/v2/Search/movie/request").seg(id);
            movie_full(
                ctx,
                route,
                Unknown::Is500,
                &format!("movie request {id}"),
                &mut notes,
            )
            .await?
        }
        TargetKind::TvParent => {
            let route = Route::get("api/v2/Search/tv/request").seg(id);
            vec![
                tv_detail(
                    ctx,
                    route,
                    Unknown::Is500,
                    Origin::Tmdb,
                    &format!("TV request {id}"),
                    &mut notes,
                )
                .await?,
            ]
        }
        TargetKind::Album => {
            notes.note("Ombi resolves an album request to its ARTIST; the record is the artist");
            vec![
                artist(
                    ctx,
                    Route::get("api/v2/Search/artist/request").seg(id),
                    Unknown::Is500,
                    &format!("album request {id}"),
                )
                .await?,
            ]
        }
        TargetKind::TvChild => {
            return Err(ToolError::invalid(
                "/target/kind",
                "Ombi looks up TV media by the show-level request: pass the `tv_parent` id (read_requests `get` on the child shows its parent_request_id)",
            )
            .into());
        }
    };
    current_request_state(ctx, &mut items, &mut notes).await;
    Ok(single_page(items, notes))
}

/// Ombi answers details from its media cache, request state included, for
/// up to 12 hours (docs/ombi-notes.md, "Details routes show a title's
/// request state"): a movie or show with a request takes its state from the
/// request read, which is current.
async fn current_request_state(ctx: &CallCtx, items: &mut [Media], notes: &mut Notes) {
    let Some(m) = items.first_mut() else {
        return;
    };
    let Some(target) = m.request_targets.first().cloned() else {
        return;
    };
    let read = match target.kind {
        TargetKind::Movie => match request_reads::movie_as_ombi_answers(ctx, target.id).await {
            // Another user's request, hidden from this user: Ombi's details
            // keep what they say, the request itself is not named.
            Ok(r)
                if !privacy::shows_movie(ctx, target.id, &r)
                    .await
                    .unwrap_or(false) =>
            {
                m.request_targets.clear();
                Ok(())
            }
            Ok(r) => {
                media::movie_from_request(m, r.available);
                Ok(())
            }
            Err(e) => Err(e),
        },
        TargetKind::TvParent => request_reads::tv_parent::<WireChildWithSeasons>(ctx, target.id)
            .await
            .map(|p| {
                let children = p.child_requests.unwrap_or_default();
                media::tv_from_requests(
                    m,
                    children
                        .iter()
                        .flat_map(|c| c.season_requests.iter().flatten()),
                )
            }),
        TargetKind::TvChild | TargetKind::Album => Ok(()),
    };
    match read {
        Ok(()) => {}
        // Ombi answers an unknown request id with a 500; request deletes
        // purge the cache, so this is rare and the claim is dropped.
        Err(e) if e.code == ErrorCode::NotFound => {
            m.requested = None;
            m.request_targets.clear();
            notes.note(format!(
                "Ombi's cached details name {} request {}, which Ombi's request read does not find: whether the title is requested is unknown",
                target.kind.label(),
                target.id
            ));
        }
        Err(e) => notes.note(format!(
            "the current state of {} request {} could not be read ({}): availability and request state are from Ombi's details, which it caches for up to 12 hours",
            target.kind.label(),
            target.id,
            e.message
        )),
    }
}

async fn ratings(ctx: &CallCtx, media: MovieOrTv, name: &str, year: i64) -> Outcome {
    let route = Route::get(match media {
        MovieOrTv::Movie => "api/v2/Search/ratings/movie",
        MovieOrTv::Tv => "api/v2/Search/ratings/tv",
    })
    .seg(name)
    .seg(year);
    let what = format!("Rotten Tomatoes rating for {name:?} ({year})");
    let wire = ctx
        .upstream
        .get_json::<WireRatings>(ctx.acting(), route)
        .await?
        .ok_or_else(|| not_found(&what))?;
    let item = media::ratings_item(media.label(), name, year, wire);
    let mut notes = Notes::default();
    if item.ratings.is_empty() {
        notes.note(format!(
            "Rotten Tomatoes has no scores for {name:?} ({year})"
        ));
    }
    Ok(single_page(vec![item], notes))
}

async fn providers(ctx: &CallCtx, media: MovieOrTv, tmdb: i64) -> Outcome {
    let route = Route::get(match media {
        MovieOrTv::Movie => "api/v2/Search/stream/movie",
        MovieOrTv::Tv => "api/v2/Search/stream/tv",
    })
    .seg(tmdb);
    let list = ctx
        .upstream
        .get_array::<StreamingData>(ctx.acting(), route)
        .await?;
    let mut warnings = vec![
        "providers are those of this title in the acting Ombi user's streaming country (Ombi caches them for 12 h across users)".to_string(),
    ];
    note_read_limit(list.cut, &mut warnings);
    let item = media::providers_item(media.label(), tmdb, list.value);
    Ok(reply(
        media::media_page(paging::single(vec![item], "media")),
        warnings,
        list.cut,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn details_media_mirrors_its_labels() {
        crate::definition::params::assert_mirrors(MEDIA_DETAILS, DetailsMedia::label);
    }
}
