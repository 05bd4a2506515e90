//! `write_request_create tv`: seasons or episodes of a show, by TMDB id.

use super::created::{read_back_state, unread_state, upstream_text};
use super::*;
use crate::tools::requests::words::seasons_in_words;

use serde::Serialize;

use crate::contract::{ErrorCode, Outcome, TargetKind, ToolError};
use crate::definition::params::*;
use crate::tools::{CallCtx, reply};
use crate::upstream::{RequestEngineResult, Route};

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct TvBody {
    pub(super) the_movie_db_id: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) language_code: Option<String>,
    pub(super) request_all: bool,
    pub(super) latest_season: bool,
    pub(super) first_season: bool,
    /// Never `null` (Ombi answers 500): omitted in the server-side modes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) seasons: Option<Vec<SeasonBody>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) language_profile: Option<i64>,
    #[serde(flatten)]
    pub(super) placement: Placement,
    /// `RequestSource.Ombi`.
    pub(super) source: i64,
}

#[derive(Serialize, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(super) struct SeasonBody {
    pub(super) season_number: i64,
    pub(super) episodes: Vec<EpisodeBody>,
}

#[derive(Serialize, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(super) struct EpisodeBody {
    pub(super) episode_number: i64,
}

pub(super) async fn tv(
    ctx: &CallCtx,
    mut body: TvBody,
    selection: Selection,
    alias: Option<String>,
) -> Outcome {
    let tmdb_id = body.the_movie_db_id;
    let show = match show_of(ctx, tmdb_id).await {
        Ok(show) => show,
        Err(e) => return Err(wrong_media(ctx, e, tmdb_id, MediaKind::Tv).await.into()),
    };
    let known = show_episodes(&show);
    match selection {
        Selection::All => body.request_all = true,
        Selection::FirstSeason => body.first_season = true,
        Selection::LatestSeason => body.latest_season = true,
        Selection::Season { season_numbers } => {
            body.seasons = Some(whole_seasons(&known, &season_numbers)?)
        }
        Selection::Episodes { seasons } => body.seasons = Some(picked_episodes(&known, &seasons)?),
    }
    let name = show
        .row
        .title
        .as_deref()
        .map(|t| ctx.upstream.clean(t))
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| format!("the show with TMDB id {tmdb_id}"));
    let mut warnings = Vec::new();
    note_api_user(ctx, CREATED_AS, &mut warnings);
    if show.row.requested == Some(true) {
        if body.language_profile.is_some() {
            warnings.push(
                "Ombi ignores `language_profile_id` for a show that already has a request".into(),
            );
        }
        if body.placement.root_folder_override.is_some()
            || body.placement.quality_path_override.is_some()
        {
            warnings.push(
                "the show already has a request: Ombi applies `overrides` to the whole show, \
                 for all of its requests"
                    .into(),
            );
        }
    }
    let route = with_alias(Route::post("api/v2/Requests/tv").json(&body), alias);
    let answer = ctx.write_answer::<RequestEngineResult>(route).await?;
    let r = answer.value.clone();
    let id = r.request_id;
    match ctx.upstream.check(&answer) {
        Ok(_) => {
            let mut m = Mutation::new(Done::Completed).on_request(TargetKind::TvChild, id);
            m.upstream_result = Some(r.result);
            m.upstream_is_error = Some(r.is_error);
            let (state, asked) = match existing_request(ctx, MediaKind::Tv, id, &mut warnings).await
            {
                Ok(rec) => (
                    read_back_state(MediaKind::Tv, state_phrase(&rec, false)),
                    rec.seasons.as_deref().and_then(seasons_in_words),
                ),
                Err(e) => (unread_state(&e), None),
            };
            let asked = asked.map(|a| format!("{a} of ")).unwrap_or_default();
            let m = m.message(format!(
                "requested {asked}{name} as TV child request {id} (an Ombi request id, not a TMDB or TVDB id){state}"
            ));
            Ok(reply(m.into_data(), warnings, false))
        }
        Err(e) if e.code == ErrorCode::Conflict => {
            let parent = show.row.request_id.filter(|i| *i > 0);
            let existing = match parent {
                Some(p) => show_in_words(ctx, p).await,
                None => None,
            };
            Err(conflict_with(e, existing).into())
        }
        // Every TV failure before the save carries no id; after the save
        // (a failed or throwing send) it carries the child id.
        Err(e) if id <= 0 => Err(refused_by_rules(ctx, MediaKind::Tv, &e)
            .await
            .unwrap_or(e)
            .into()),
        Err(_) => {
            let mut m = Mutation::new(Done::Partial).on_request(TargetKind::TvChild, id);
            m.upstream_result = Some(r.result);
            m.upstream_is_error = Some(r.is_error);
            let why = upstream_text(ctx, &r).unwrap_or_else(|| {
                "Ombi put it in its retry queue: see read_requests retry_queue".into()
            });
            let m = m.message(format!(
                "Ombi saved {name} as TV child request {id} but did not send it to Sonarr ({why})"
            ));
            Err(partly_done(m, warnings))
        }
    }
}

/// Season number → its episode numbers, as TMDB lists them through Ombi
/// (Ombi's show page and its request builder both leave out season 0).
pub(super) fn show_episodes(show: &TvDetail) -> Vec<(i64, Vec<i64>)> {
    let mut out: Vec<(i64, Vec<i64>)> = Vec::new();
    for s in show.season_requests.iter().flatten() {
        let Some(n) = s.season_number.filter(|n| *n >= 0) else {
            continue;
        };
        let mut eps: Vec<i64> = s
            .episodes
            .iter()
            .flatten()
            .filter_map(|e| e.episode_number.filter(|n| *n > 0))
            .collect();
        match out.iter_mut().find(|(m, _)| *m == n) {
            Some((_, all)) => all.append(&mut eps),
            None => out.push((n, eps)),
        }
    }
    for (_, eps) in &mut out {
        eps.sort_unstable();
        eps.dedup();
    }
    out.sort_by_key(|(n, _)| *n);
    out
}

pub(super) fn season_list(known: &[(i64, Vec<i64>)]) -> String {
    let names: Vec<String> = known.iter().map(|(n, _)| n.to_string()).collect();
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}

/// Mode `season`: every episode of each named season. Ombi requests nothing
/// for `episodes: []` and silently drops what TMDB does not list, so both
/// are refused here.
pub(super) fn whole_seasons(
    known: &[(i64, Vec<i64>)],
    numbers: &[i64],
) -> Result<Vec<SeasonBody>, ToolError> {
    let mut out: Vec<SeasonBody> = Vec::new();
    for n in numbers {
        if out.iter().any(|s| s.season_number == *n) {
            continue;
        }
        let Some((_, eps)) = known.iter().find(|(m, _)| m == n) else {
            return Err(ToolError::invalid(
                "/selection/season_numbers",
                format!(
                    "the show has no season {n} that Ombi can request (seasons: {}; Ombi never requests specials, season 0)",
                    season_list(known)
                ),
            ));
        };
        if eps.is_empty() {
            return Err(ToolError::invalid(
                "/selection/season_numbers",
                format!("season {n} lists no episodes yet, so Ombi would request nothing"),
            ));
        }
        out.push(SeasonBody {
            season_number: *n,
            episodes: eps
                .iter()
                .map(|&e| EpisodeBody { episode_number: e })
                .collect(),
        });
    }
    Ok(out)
}

/// Mode `episodes`: the given episodes, each checked against the show.
pub(super) fn picked_episodes(
    known: &[(i64, Vec<i64>)],
    picks: &[SeasonPick],
) -> Result<Vec<SeasonBody>, ToolError> {
    let mut out: Vec<SeasonBody> = Vec::new();
    for (i, pick) in picks.iter().enumerate() {
        let n = pick.season_number;
        let Some((_, eps)) = known.iter().find(|(m, _)| *m == n) else {
            return Err(ToolError::invalid(
                format!("/selection/seasons/{i}/season_number"),
                format!(
                    "the show has no season {n} that Ombi can request (seasons: {}; Ombi never requests specials, season 0)",
                    season_list(known)
                ),
            ));
        };
        if let Some(e) = pick.episodes.iter().find(|e| !eps.contains(e)) {
            return Err(ToolError::invalid(
                format!("/selection/seasons/{i}/episodes"),
                format!(
                    "season {n} has no episode {e} (it lists {}); Ombi would silently leave it out",
                    eps.len()
                ),
            ));
        }
        let at = match out.iter().position(|s| s.season_number == n) {
            Some(at) => at,
            None => {
                out.push(SeasonBody {
                    season_number: n,
                    episodes: Vec::new(),
                });
                out.len() - 1
            }
        };
        let season = &mut out[at];
        for &e in &pick.episodes {
            if !season.episodes.iter().any(|x| x.episode_number == e) {
                season.episodes.push(EpisodeBody { episode_number: e });
            }
        }
    }
    Ok(out)
}
