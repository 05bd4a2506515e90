//! `completion/complete` in process against the fake: request ids from the
//! acting user's own requests through the 60 s cache (one `mine` read, not
//! one per keystroke), and titles for a movie or a show without artists,
//! two titles of one name kept apart.

use std::collections::HashMap;

use ombi_mcp::completions::complete;
use rmcp::model::Reference;

use crate::support::fake_ombi::Options;
use crate::support::rig::Rig;

async fn values(
    h: &Rig,
    reference: &Reference,
    arg: &str,
    typed: &str,
    ctx: &[(&str, &str)],
) -> Vec<String> {
    let given: HashMap<String, String> = ctx
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    complete(&h.ctx, reference, arg, typed, Some(&given))
        .await
        .unwrap()
        .completion
        .values
}

#[tokio::test]
async fn request_ids_are_read_once_per_minute_not_per_keystroke() {
    let h = Rig::start_with(Options::default(), Some("bob")).await;
    let template = Reference::for_resource("ombi://request/{kind}/{id}");
    let first = values(&h, &template, "id", "", &[("kind", "movie")]).await;
    assert_eq!(first, ["2", "1"]);
    let reads = h.fake.requests().len();
    assert!(reads > 1, "the first keystroke reads bob's requests");
    assert_eq!(
        values(&h, &template, "id", "1", &[("kind", "movie")]).await,
        ["1"]
    );
    assert_eq!(
        values(&h, &template, "id", "", &[("kind", "album")]).await,
        ["5"]
    );
    assert_eq!(
        h.fake.requests().len(),
        reads,
        "the later ones read nothing"
    );
    // Another acting user has their own entry.
    let alice = Rig::start_with(Options::default(), Some("alice")).await;
    assert_eq!(
        values(&alice, &template, "id", "", &[("kind", "movie")]).await,
        ["3"]
    );
}

#[tokio::test]
async fn titles_for_a_movie_or_a_show_leave_artists_out_and_stay_apart() {
    let h = Rig::start_with(Options::default(), Some("bob")).await;
    let prompt = Reference::for_prompt("request_media");
    let any = values(&h, &prompt, "title", "in", &[]).await;
    assert!(any.iter().any(|t| t == "Linkin Park"), "{any:?}");
    // A show Ombi gives no year for says it is one.
    assert!(
        any.iter().any(|t| t == "Breaking Bad (TV series)"),
        "{any:?}"
    );
    let movies = values(&h, &prompt, "title", "in", &[("media", "movie")]).await;
    assert_eq!(movies, ["Inception (2010)", "Interstellar (2014)"]);
    let shows = values(&h, &prompt, "title", "in", &[("media", "tv")]).await;
    assert_eq!(
        shows,
        ["Breaking Bad (TV series)", "Stranger Things (TV series)"]
    );
}
