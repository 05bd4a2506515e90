//! `read_reference`: the lookup lists other tools take ids from. Each list is
//! a complete upstream array; pages are local windows over it after label
//! selection and a deterministic sort.

use futures::future::BoxFuture;
use serde::de::DeserializeOwned;

use super::ctx::{reply, required_int, required_str};
use super::{CallCtx, Tool};
use crate::catalogue::params::*;
use crate::catalogue::shape::{Field, Ty};
use crate::catalogue::{Args, Bundle, ToolDef, action};
use crate::contract::Family;
use crate::contract::Outcome;
use crate::contract::ToolError;
use crate::projection::paging;
use crate::projection::reference::{
    self as r, Candidate, Claim, Feature, IdName, IssueCategory, Language, WatchProvider,
};
use crate::upstream::Route;

pub static TOOL: Tool = Tool {
    def: ToolDef {
        name: "read_reference",
        title: "Reference lists",
        bundle: Bundle::Core,
        destructive: false,
        description: "Lookup lists that other tools take ids from: genres, languages, streaming countries, TMDB keywords, watch providers, issue categories, user roles and Ombi features.",
        families: &[Family::ReferencePage],
        params: &[
            MEDIA_MOVIE_TV,
            QUERY,
            Field::opt("keyword_id", Ty::ID, "TMDB keyword id."),
            PAGE,
        ],
        actions: &[
            action("genres", "genres with their ids", &["media"], PAGE_ONLY),
            action("languages", "languages", &[], PAGE_ONLY),
            action(
                "streaming_countries",
                "streaming country codes",
                &[],
                PAGE_ONLY,
            ),
            action(
                "keywords",
                "TMDB keywords matching a text",
                &["query"],
                PAGE_ONLY,
            ),
            action("keyword", "one TMDB keyword", &["keyword_id"], &[]),
            action(
                "watch_providers",
                "watch providers, optionally filtered by name",
                &["media"],
                &["query", "page"],
            ),
            action("issue_categories", "issue categories", &[], PAGE_ONLY),
            action("roles", "user roles", &[], PAGE_ONLY),
            action("features", "Ombi feature flags", &[], PAGE_ONLY),
        ],
        default_action: None,
        check: None,
    },
    run: handle,
};

fn handle<'a>(ctx: &'a CallCtx, args: &'a Args) -> BoxFuture<'a, Outcome> {
    Box::pin(run(ctx, args))
}

async fn list<T: DeserializeOwned>(
    ctx: &CallCtx,
    route: Route,
    f: fn(T) -> Candidate,
) -> Result<(Vec<Candidate>, bool), ToolError> {
    let b = ctx.upstream.get_array::<T>(ctx.acting(), route).await?;
    Ok((b.value.into_iter().map(f).collect(), b.cut))
}

fn genre(g: IdName) -> Candidate {
    r::id_name(g, "genre")
}

fn keyword(k: IdName) -> Candidate {
    r::id_name(k, "keyword")
}

async fn run(ctx: &CallCtx, args: &Args) -> Outcome {
    let mut warnings = Vec::new();
    let (candidates, cut) = match args.action() {
        "genres" => {
            let media = super::ctx::movie_or_tv(args)?;
            list::<IdName>(ctx, Route::get("api/v2/Search/Genres").seg(media), genre).await?
        }
        "languages" => {
            list::<Language>(ctx, Route::get("api/v2/Search/Languages"), r::language).await?
        }
        "streaming_countries" => {
            list::<String>(
                ctx,
                Route::get("api/v1/Identity/streamingcountry"),
                r::streaming_country,
            )
            .await?
        }
        "keywords" => {
            let q = required_str(args, "query")?;
            list::<IdName>(
                ctx,
                Route::get("api/v1/TheMovieDb/Keywords").query("searchTerm", q),
                keyword,
            )
            .await?
        }
        "keyword" => {
            let id = required_int(args, "keyword_id")?;
            let k = ctx
                .upstream
                .get_json::<IdName>(
                    ctx.acting(),
                    Route::get("api/v1/TheMovieDb/Keywords").seg(id),
                )
                .await?
                .ok_or_else(|| super::ctx::not_found(&format!("keyword {id}")))?;
            let refs = r::references(vec![keyword(k)], &mut warnings);
            return Ok(reply(
                r::reference_page(paging::single(refs, "references")),
                warnings,
                false,
            ));
        }
        "watch_providers" => {
            let media = super::ctx::movie_or_tv(args)?;
            let path = if media == "movie" {
                "api/v1/TheMovieDb/WatchProviders/movie"
            } else {
                "api/v1/TheMovieDb/WatchProviders/tv"
            };
            // An empty term matches every provider.
            let q = args.str("query").unwrap_or("");
            warnings.push("this is TMDB's provider catalogue, not where a title streams (use read_media `providers`)".into());
            list::<WatchProvider>(
                ctx,
                Route::get(path).query("searchTerm", q),
                r::watch_provider,
            )
            .await?
        }
        "issue_categories" => {
            list::<IssueCategory>(
                ctx,
                Route::get("api/v1/Issues/categories"),
                r::issue_category,
            )
            .await?
        }
        "roles" => list::<Claim>(ctx, Route::get("api/v1/Identity/claims"), r::role).await?,
        "features" => list::<Feature>(ctx, Route::get("api/v2/Features"), r::feature).await?,
        other => {
            return Err(ToolError::invalid("/action", format!("unknown action `{other}`")).into());
        }
    };
    super::ctx::note_read_limit(cut, &mut warnings);
    let mut refs = r::references(candidates, &mut warnings);
    // TMDB ignores the term Ombi forwards (docs/ombi-notes.md): match names here.
    if args.action() == "watch_providers"
        && let Some(q) = args.str("query").map(str::to_lowercase)
    {
        refs.retain(|p| p.name.to_lowercase().contains(&q));
    }
    let w = paging::local(refs, args.page(), !cut, "references");
    Ok(reply(r::reference_page(w), warnings, cut))
}
