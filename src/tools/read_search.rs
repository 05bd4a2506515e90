//! `read_search`: text search. Ombi answers each search with a complete
//! array, so pages are local windows over it (total known unless the 8 MiB
//! cap cut the list).

use futures::future::BoxFuture;
use serde::de::DeserializeOwned;
use serde_json::json;

use super::ctx::{body_language, language_ignored};
use super::ctx::{reply, required_str};
use super::{CallCtx, Tool};
use crate::catalogue::params::*;
use crate::catalogue::{Args, Bundle, ToolDef, action};
use crate::contract::Family;
use crate::contract::Outcome;
use crate::contract::ToolError;
use crate::projection::media::{self, AlbumSearch, ArtistSearch, Media, MultiResult, SearchMovie};
use crate::projection::paging;
use crate::upstream::Route;

pub static TOOL: Tool = Tool {
    def: ToolDef {
        name: "read_search",
        title: "Search media",
        bundle: Bundle::Core,
        destructive: false,
        description: "Search Ombi's metadata sources by text for movies, TV shows, people, artists and albums. Use it to find the TMDB/MusicBrainz ids that read_media and write_request_create need; results show whether a title is already available or requested.",
        families: &[Family::MediaPage],
        params: &[QUERY, YEAR, LANGUAGE, PAGE],
        actions: &[
            action(
                "multi",
                "movies, TV, people and artists at once",
                &["query"],
                &["language", "page"],
            ),
            action(
                "movie",
                "movies only",
                &["query"],
                &["year", "language", "page"],
            ),
            action(
                "tv",
                "TV shows only (TMDB ids)",
                &["query"],
                &["language", "page"],
            ),
            action(
                "person_movies",
                "movies featuring an actor of that name",
                &["query"],
                &["language", "page"],
            ),
            action(
                "artist",
                "music artists (needs Lidarr)",
                &["query"],
                &["page"],
            ),
            action("album", "albums (needs Lidarr)", &["query"], &["page"]),
        ],
        default_action: Some("multi"),
        check: None,
    },
    run: handle,
};

fn handle<'a>(ctx: &'a CallCtx, args: &'a Args) -> BoxFuture<'a, Outcome> {
    Box::pin(run(ctx, args))
}

/// Ombi unescapes the multi-search term a second time after routing, so a
/// literal `%` must reach it as `%25`.
fn multi_term(q: &str) -> String {
    q.replace('%', "%25")
}

async fn list<T: DeserializeOwned>(
    ctx: &CallCtx,
    route: Route,
) -> Result<(Vec<T>, bool), ToolError> {
    let b = ctx.upstream.get_array::<T>(ctx.acting(), route).await?;
    Ok((b.value, b.cut))
}

async fn run(ctx: &CallCtx, args: &Args) -> Outcome {
    let query = required_str(args, "query")?;
    let mut warnings = Vec::new();
    let (items, cut): (Vec<Media>, bool) = match args.action() {
        action @ ("multi" | "tv") => {
            language_ignored(args.str("language"), &mut warnings);
            let tv_only = action == "tv";
            // `tv` is the v2 multi-search restricted to TV: TMDB ids, the ids
            // TV requests take (the v1 TVMaze search would yield TVDB ids).
            let filter =
                json!({"movies": !tv_only, "tvShows": true, "music": !tv_only, "people": !tv_only});
            let route = Route::post_read("api/v2/Search/multi")
                .seg(multi_term(query))
                .json(&filter);
            let (rows, cut) = list::<MultiResult>(ctx, route).await?;
            let items = rows
                .into_iter()
                .filter(|r| {
                    !tv_only
                        || r.media_type
                            .as_deref()
                            .is_some_and(|t| t.eq_ignore_ascii_case("tv"))
                })
                .map(|r| media::multi_item(r, &mut warnings))
                .collect();
            (items, cut)
        }
        action @ ("movie" | "person_movies") => {
            let mut body = json!({"searchTerm": query});
            if let Some(lang) = body_language(ctx, args.str("language")).await {
                body["languageCode"] = json!(lang);
            }
            let path = if action == "movie" {
                if let Some(year) = args.int("year") {
                    body["year"] = json!(year);
                }
                "api/v1/Search/movie"
            } else {
                "api/v1/Search/movie/actor"
            };
            let (rows, cut) = list::<SearchMovie>(ctx, Route::post_read(path).json(&body)).await?;
            (rows.into_iter().map(media::movie_item).collect(), cut)
        }
        "artist" => {
            ctx.require_lidarr().await?;
            let route = Route::get("api/v1/Search/music/artist").seg(query);
            let (rows, cut) = list::<ArtistSearch>(ctx, route).await?;
            (rows.into_iter().map(media::artist_item).collect(), cut)
        }
        "album" => {
            ctx.require_lidarr().await?;
            let route = Route::get("api/v1/Search/music/album").seg(query);
            let (rows, cut) = list::<AlbumSearch>(ctx, route).await?;
            (rows.into_iter().map(media::album_item).collect(), cut)
        }
        other => {
            return Err(ToolError::invalid("/action", format!("unknown action `{other}`")).into());
        }
    };
    super::ctx::note_read_limit(cut, &mut warnings);
    let w = paging::local(items, args.page(), !cut, "media");
    Ok(reply(media::media_page(w), warnings, cut))
}
