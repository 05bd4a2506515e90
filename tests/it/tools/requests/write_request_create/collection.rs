//! `write_request_create` for a movie collection: each member reported from a read back, new members
//! and bad ids.

use serde_json::{Value, json};

use crate::support::fake_ombi::routes::media::data::EMPTY_COLLECTION;
use crate::support::rig::{err_code, writes};
use crate::tools::{as_user, create_err, create_ok, data, only_write};

/// Ombi answers with the first part's id only: each member's outcome comes
/// from reading it before and after.
#[tokio::test]
async fn collection_reports_each_member_from_a_read_back() {
    let rig = as_user(Some("alice")).await;
    let env = create_err(&rig, json!({"action": "collection", "collection_id": 2344})).await;
    let (route, body, _) = only_write(&rig);
    assert_eq!(route, "POST /api/v2/Requests/movie/collection/2344");
    assert_eq!(body, Value::Null);
    assert_eq!(err_code(&env), "PARTIAL_FAILURE");
    let d = data(&env);
    assert_eq!(d["outcome"], "partial");
    assert_eq!(d["affected_count"], 2);
    assert!(
        d.get("request_id").is_none(),
        "Ombi's id is one part's only"
    );
    let items = d["item_results"].as_array().unwrap();
    let by = |id: &str| {
        items
            .iter()
            .find(|i| i["identifier"] == id)
            .unwrap_or_else(|| panic!("{id}: {items:?}"))
            .clone()
    };
    assert_eq!(by("tmdb:603")["outcome"], "rejected");
    assert!(
        by("tmdb:603")["message"]
            .as_str()
            .unwrap()
            .contains("already requested")
    );
    assert_eq!(by("tmdb:604")["outcome"], "completed");
    assert_eq!(by("tmdb:605")["outcome"], "completed");
}

#[tokio::test]
async fn collection_of_new_movies_completes_and_bad_ids_are_refused() {
    let rig = as_user(Some("alice")).await;
    rig.fake
        .with_data(|d| d.movie_requests.retain(|r| r["theMovieDbId"] != json!(603)));
    let env = create_ok(&rig, json!({"action": "collection", "collection_id": 2344})).await;
    assert_eq!(data(&env)["outcome"], "completed");
    assert_eq!(data(&env)["affected_count"], 3);
    let again = create_err(&rig, json!({"action": "collection", "collection_id": 2344})).await;
    assert_eq!(err_code(&again), "CONFLICT");
    assert_eq!(data(&again)["outcome"], "rejected");

    let rig = as_user(Some("alice")).await;
    let env = create_err(
        &rig,
        json!({"action": "collection", "collection_id": EMPTY_COLLECTION}),
    )
    .await;
    assert_eq!(env["error"]["field"], "/collection_id");
    let env = create_err(&rig, json!({"action": "collection", "collection_id": 777})).await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    assert!(writes(&rig).is_empty());
}
