//! `read_reference`: the lookup lists other tools take ids from. Each list is
//! a complete upstream array; pages are local windows over it after label
//! selection and a deterministic sort.

use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::contract::Family;
use crate::contract::Outcome;
use crate::contract::ToolError;
use crate::definition::params::*;
use crate::definition::shape::{Field, Ty};
use crate::definition::{Bundle, Page, ToolActions, ToolDef};
use crate::projection::paging;
use crate::projection::reference::{
    self as r, Candidate, Claim, Feature, IdName, IssueCategory, Language, WatchProvider,
};
use crate::tools::{Actions, CallCtx, Tool};
use crate::tools::{not_found, note_read_limit, reply};
use crate::upstream::Route;

const KEYWORD_ID: Field = Field::opt("keyword_id", Ty::ID, "");

pub static TOOL: Tool = Tool::new::<Action>(ToolDef {
    name: "read_reference",
    title: "Reference lists",
    bundle: Bundle::Core,
    destructive: false,
    description: "Lookup lists other tools take ids from (genres, keywords, watch providers, issue categories, ...).",
    families: &[Family::ReferencePage],
    ..ToolDef::BASE
})
.examples(&[
    (r#"{"action": "genres", "media": "movie"}"#, true),
    (r#"{"action": "languages"}"#, true),
    (r#"{"action": "streaming_countries"}"#, true),
    (r#"{"action": "keywords", "query": "dys"}"#, true),
    (r#"{"action": "keyword", "keyword_id": 310}"#, true),
    (r#"{"action": "watch_providers", "media": "movie"}"#, true),
    (r#"{"action": "issue_categories"}"#, true),
    (r#"{"action": "roles"}"#, true),
    (r#"{"action": "features"}"#, true),
])
.invalid(&[
    (r#"{"action": "genres"}"#, "/media"),
    (r#"{"action": "keyword", "keyword_id": true}"#, "/keyword_id"),
    (r#"{"action": "languages", "query": "en"}"#, "/query"),
    (r#"{"action": "keyword", "keyword_id": -3}"#, "/keyword_id"),
]);

/// The actions, as validated arguments deserialize into them.
#[derive(Deserialize, ToolActions)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    /// genres with their ids
    Genres {
        #[arg(MEDIA_MOVIE_TV)]
        media: MovieOrTv,
        page: Page,
    },
    /// languages
    Languages { page: Page },
    /// streaming country codes
    StreamingCountries { page: Page },
    /// TMDB keywords matching a text
    Keywords { query: String, page: Page },
    /// one TMDB keyword
    Keyword { keyword_id: i64 },
    /// watch providers, optionally filtered by name
    WatchProviders {
        #[arg(MEDIA_MOVIE_TV)]
        media: MovieOrTv,
        query: Option<String>,
        page: Page,
    },
    /// issue categories
    IssueCategories { page: Page },
    /// user roles
    #[action(role = "PowerUser")]
    Roles { page: Page },
    /// Ombi feature flags
    Features { page: Page },
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

impl Actions for Action {
    async fn run(self, ctx: &CallCtx) -> Outcome {
        let mut warnings = Vec::new();
        // Names to keep (lowercased), for lists Ombi does not filter itself.
        let mut name_filter = None;
        let ((candidates, cut), page) = match self {
            Action::Genres { media, page } => (
                list::<IdName>(
                    ctx,
                    Route::get("api/v2/Search/Genres").seg(media.label()),
                    genre,
                )
                .await?,
                page,
            ),
            Action::Languages { page } => (
                list::<Language>(ctx, Route::get("api/v2/Search/Languages"), r::language).await?,
                page,
            ),
            Action::StreamingCountries { page } => (
                list::<String>(
                    ctx,
                    Route::get("api/v1/Identity/streamingcountry"),
                    r::streaming_country,
                )
                .await?,
                page,
            ),
            Action::Keywords { query, page } => (
                list::<IdName>(
                    ctx,
                    Route::get("api/v1/TheMovieDb/Keywords").query("searchTerm", query),
                    keyword,
                )
                .await?,
                page,
            ),
            Action::Keyword { keyword_id: id } => {
                let k = ctx
                    .get_json::<IdName>(Route::get("api/v1/TheMovieDb/Keywords").seg(id))
                    .await?
                    .ok_or_else(|| not_found(&format!("keyword {id}")))?;
                let refs = r::references(vec![keyword(k)], &mut warnings);
                return Ok(reply(
                    r::reference_page(paging::single(refs, "references")),
                    warnings,
                    false,
                ));
            }
            Action::WatchProviders { media, query, page } => {
                let path = match media {
                    MovieOrTv::Movie => "api/v1/TheMovieDb/WatchProviders/movie",
                    MovieOrTv::Tv => "api/v1/TheMovieDb/WatchProviders/tv",
                };
                warnings.push("this is TMDB's provider catalogue, not where a title streams (use read_media `providers`)".into());
                // An empty term matches every provider; TMDB ignores the term
                // Ombi forwards (docs/ombi-notes.md): names are matched here.
                let route = Route::get(path).query("searchTerm", query.as_deref().unwrap_or(""));
                name_filter = query.map(|q| q.to_lowercase());
                (
                    list::<WatchProvider>(ctx, route, r::watch_provider).await?,
                    page,
                )
            }
            Action::IssueCategories { page } => (
                list::<IssueCategory>(
                    ctx,
                    Route::get("api/v1/Issues/categories"),
                    r::issue_category,
                )
                .await?,
                page,
            ),
            Action::Roles { page } => (
                list::<Claim>(ctx, Route::get("api/v1/Identity/claims"), r::role).await?,
                page,
            ),
            Action::Features { page } => (
                list::<Feature>(ctx, Route::get("api/v2/Features"), r::feature).await?,
                page,
            ),
        };
        note_read_limit(cut, &mut warnings);
        let mut refs = r::references(candidates, &mut warnings);
        if let Some(q) = name_filter {
            refs.retain(|p| p.name.to_lowercase().contains(&q));
        }
        let w = paging::local(refs, page, !cut, "references");
        Ok(reply(r::reference_page(w), warnings, cut))
    }
}
