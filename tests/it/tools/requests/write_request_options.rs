//! `write_request_options`: the advanced options of a movie or TV request (read, then resent with the
//! values not given), root folder and quality profile, refusals, and a season request's id where the
//! show's is needed.

use serde_json::{Value, json};

use crate::support::fake_ombi::ADMIN_USER;
use crate::support::rig::{Rig, err_code, err_message, fields, ok_data};
use crate::tools::requests::{movie, parent};
use crate::tools::{as_alice, as_user, assert_sent, no_write, the_write, wire};

fn plant_movie_overrides(h: &Rig, id: i64, root: i64, quality: i64) {
    h.fake.with_data(|d| {
        let m = d.movie_request_mut(id).unwrap();
        m["rootPathOverride"] = json!(root);
        m["qualityOverride"] = json!(quality);
    });
}

fn plant_parent_overrides(h: &Rig, id: i64, root: i64, quality: i64, language: i64) {
    h.fake.with_data(|d| {
        let p = d
            .requests
            .tv_parents
            .iter_mut()
            .find(|p| p["id"] == json!(id))
            .unwrap();
        p["rootFolder"] = json!(root);
        p["qualityOverride"] = json!(quality);
        p["languageProfile"] = json!(language);
    });
}

#[tokio::test]
async fn advanced_movie_reads_the_request_and_resends_the_value_not_given() {
    let h = as_alice().await;
    plant_movie_overrides(&h, 2, 4, 7);
    let env = h
        .call(
            "write_request_options",
            json!({"action": "advanced", "media": "movie", "request_id": 2, "options": {"quality_profile_id": 9}}),
        )
        .await;
    assert_eq!(
        h.action_paths(),
        vec![
            "GET /api/v1/Request/movie/info/2".to_string(),
            "POST /api/v2/Requests/movie/advancedoptions".to_string()
        ]
    );
    assert_sent(
        &h,
        "POST",
        "/api/v2/Requests/movie/advancedoptions",
        json!({"requestId": 2, "rootPathOverride": 4, "qualityOverride": 9}),
    );
    let d = ok_data(&env);
    assert_eq!(d["outcome"], "completed");
    assert_eq!(d["target"], json!({"kind": "movie", "id": 2}));
    assert_eq!(
        d["message"],
        "the movie request for *Interstellar* (request 2): overrides now root folder 4, quality profile 9"
    );
    let m = movie(&h, 2).unwrap();
    assert_eq!(
        fields(&m, &["rootPathOverride", "qualityOverride"]),
        json!([4, 9])
    );
}

#[tokio::test]
async fn advanced_tv_targets_the_parent_and_keeps_the_language_unless_given() {
    let h = as_alice().await;
    plant_parent_overrides(&h, 10, 3, 5, 1);
    let env = h
        .call(
            "write_request_options",
            json!({"action": "advanced", "media": "tv", "request_id": 10, "options": {"root_folder_id": 8}}),
        )
        .await;
    assert_sent(
        &h,
        "POST",
        "/api/v2/Requests/tv/advancedoptions",
        json!({"requestId": 10, "rootPathOverride": 8, "qualityOverride": 5, "languageProfile": 0}),
    );
    assert_eq!(
        ok_data(&env)["target"],
        json!({"kind": "tv_parent", "id": 10})
    );
    let p = parent(&h, 10).unwrap();
    assert_eq!(
        fields(&p, &["rootFolder", "qualityOverride", "languageProfile"]),
        json!([8, 5, 1])
    );

    let h = as_alice().await;
    plant_parent_overrides(&h, 10, 3, 5, 1);
    h.ok(
        "write_request_options",
        json!({"action": "advanced", "media": "tv", "request_id": 10, "options": {"language_profile_id": 2, "quality_profile_id": 0}}),
    )
    .await;
    assert_eq!(
        wire(&the_write(&h)).3,
        json!({"requestId": 10, "rootPathOverride": 3, "qualityOverride": 0, "languageProfile": 2})
    );
    let p = parent(&h, 10).unwrap();
    assert_eq!(
        fields(&p, &["rootFolder", "qualityOverride", "languageProfile"]),
        json!([3, 0, 2])
    );
}

#[tokio::test]
async fn advanced_refuses_a_language_for_movies_clearing_it_for_tv_and_empty_options() {
    for (args, field) in [
        (
            json!({"action": "advanced", "media": "movie", "request_id": 2, "options": {"language_profile_id": 2}}),
            "/options/language_profile_id",
        ),
        (
            json!({"action": "advanced", "media": "tv", "request_id": 10, "options": {"language_profile_id": 0}}),
            "/options/language_profile_id",
        ),
        (
            json!({"action": "advanced", "media": "tv", "request_id": 10, "options": {}}),
            "/options",
        ),
    ] {
        let h = as_alice().await;
        let env = h.call("write_request_options", args.clone()).await;
        assert_eq!(err_code(&env), "INVALID_ARGUMENT", "{args}");
        assert_eq!(env["error"]["field"], field, "{args}");
        assert!(h.fake.requests().is_empty(), "{args}: nothing read or sent");
    }
}

#[tokio::test]
async fn advanced_on_an_unknown_request_is_not_found_and_sends_nothing() {
    let h = as_alice().await;
    let env = h
        .call(
            "write_request_options",
            json!({"action": "advanced", "media": "movie", "request_id": 999, "options": {"root_folder_id": 1}}),
        )
        .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    no_write(&h);
}

#[tokio::test]
async fn tv_root_and_quality_put_the_parent_and_value_in_the_route() {
    for (action, arg, value, path, key) in [
        (
            "tv_root",
            "root_folder_id",
            4,
            "/api/v1/Request/tv/root/10/4",
            "rootFolder",
        ),
        (
            "tv_quality",
            "quality_profile_id",
            6,
            "/api/v1/Request/tv/quality/10/6",
            "qualityOverride",
        ),
    ] {
        let h = as_alice().await;
        let env = h
            .call(
                "write_request_options",
                json!({"action": action, "parent_request_id": 10, arg: value}),
            )
            .await;
        assert_sent(&h, "PUT", path, Value::Null);
        let d = ok_data(&env);
        assert_eq!(d["target"], json!({"kind": "tv_parent", "id": 10}));
        assert_eq!(parent(&h, 10).unwrap()[key], value);
    }
    let h = as_alice().await;
    let env = h
        .call(
            "write_request_options",
            json!({"action": "tv_root", "parent_request_id": 999, "root_folder_id": 4}),
        )
        .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
}

/// The reverse: a season request id where the show's id is needed names
/// the show's request.
#[tokio::test]
async fn a_season_request_id_where_the_show_is_needed_names_the_show() {
    let rig = as_user(Some(ADMIN_USER)).await;
    let env = rig
        .err(
            "write_request_options",
            json!({"action": "tv_root", "parent_request_id": 12, "root_folder_id": 1}),
        )
        .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    assert_eq!(env["error"]["field"], "/parent_request_id");
    assert!(
        err_message(&env).contains(
            "season (child) request of the show *Breaking Bad*, whose request is TV request 10"
        ),
        "{env}"
    );
    let env = rig
        .err(
            "write_request_delete",
            json!({"target": {"kind": "tv_parent", "id": 1396}}),
        )
        .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    assert_eq!(env["error"]["field"], "/target/id");
    assert!(err_message(&env).contains("pass 10"), "{env}");
}
