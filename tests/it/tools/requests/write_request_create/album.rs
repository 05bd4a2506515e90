//! `write_request_create` for an album: repeats, the alias header, a save Lidarr refused, and an
//! existing request found by its release group.

use serde_json::json;

use crate::support;
use crate::support::fake_ombi::Options;
use crate::support::fake_ombi::routes::media::data;
use crate::support::fake_ombi::routes::media::data::{HYBRID_THEORY, METEORA};
use crate::support::fake_ombi::state_writes::SendFailure;
use crate::support::rig::{Rig, err_code, writes};
use crate::tools::{as_user, create_err, create_ok, data, only_write, plant_album_request};

#[tokio::test]
async fn album_request_then_a_repeat_is_a_conflict_not_a_second_row() {
    let rig = as_user(Some("alice")).await;
    let env = create_ok(&rig, json!({"action": "album", "musicbrainz_id": METEORA})).await;
    let (route, body, req) = only_write(&rig);
    assert_eq!(route, "POST /api/v1/request/music");
    assert_eq!(body, json!({"foreignAlbumId": METEORA}));
    assert_eq!(req.header("UserName"), Some("alice"));
    assert!(req.header("ApiAlias").is_none());
    let d = data(&env);
    assert_eq!(d["target"]["kind"], "album");
    assert_eq!(d["outcome"], "completed");
    let env = create_err(&rig, json!({"action": "album", "musicbrainz_id": METEORA})).await;
    assert_eq!(err_code(&env), "CONFLICT");
    assert_eq!(writes(&rig).len(), 1, "the repeat was never sent");
    let rows = rig.fake.with_data(|d| {
        d.requests
            .albums
            .iter()
            .filter(|a| a["foreignAlbumId"] == json!(METEORA))
            .count()
    });
    assert_eq!(rows, 1);
}

/// The alias goes in the `ApiAlias` header (Ombi ignores the body's) in
/// api_key mode, and is refused in jwt mode.
#[tokio::test]
async fn album_alias_is_a_header_in_api_key_mode_only() {
    let rig = as_user(Some("alice")).await;
    create_ok(&rig, json!({"action": "album", "musicbrainz_id": HYBRID_THEORY, "requested_by_alias": "Grandma"}))
    .await;
    let (_, body, req) = only_write(&rig);
    assert_eq!(req.header("ApiAlias"), Some("Grandma"));
    assert!(body.get("requestedByAlias").is_none());
    let row = rig.fake.with_data(|d| {
        d.requests
            .albums
            .iter()
            .find(|a| a["foreignAlbumId"] == json!(HYBRID_THEORY))
            .cloned()
    });
    assert_eq!(row.unwrap()["requestedByAlias"], "Grandma");
    let env = create_err(
        &rig,
        json!({"action": "album", "musicbrainz_id": METEORA, "requested_by_alias": "Zoë"}),
    )
    .await;
    assert_eq!(env["error"]["field"], "/requested_by_alias");

    let jwt = Rig::start_env(
        Options::default(),
        &[
            ("OMBI_AUTH_MODE", "jwt"),
            ("OMBI_USERNAME", support::fake_ombi::ADMIN_USER),
            ("OMBI_PASSWORD", support::fake_ombi::ADMIN_PASSWORD),
        ],
    )
    .await;
    let env = jwt
        .err(
            "write_request_create",
            json!({"action": "album", "musicbrainz_id": METEORA, "requested_by_alias": "Grandma"}),
        )
        .await;
    assert_eq!(env["error"]["field"], "/requested_by_alias");
    assert!(writes(&jwt).iter().all(|r| r.path == "/api/v1/Token"));
}

#[tokio::test]
async fn album_saved_then_refused_by_lidarr_is_partial() {
    let rig = as_user(Some("alice")).await;
    rig.fake.with_data(|d| {
        d.writes.send_failures.insert(
            "lidarr".into(),
            SendFailure::Rejects("Album is already monitored".into()),
        )
    });
    let env = create_err(&rig, json!({"action": "album", "musicbrainz_id": METEORA})).await;
    assert_eq!(err_code(&env), "PARTIAL_FAILURE");
    let id = rig.fake.with_data(|d| {
        d.requests
            .albums
            .iter()
            .find(|a| a["foreignAlbumId"] == json!(METEORA))
            .and_then(|a| a["id"].as_i64())
    });
    assert_eq!(data(&env)["request_id"], json!(id.unwrap()));
}

/// The create reads the album's state before writing: through the lookup
/// that compares release-group ids, so an existing request is seen.
#[tokio::test]
async fn album_create_sees_the_existing_request_by_release_group() {
    let h = Rig::start().await;
    plant_album_request(&h);
    let env = create_err(
        &h,
        json!({"action": "album", "musicbrainz_id": data::HYBRID_THEORY}),
    )
    .await;
    assert_eq!(err_code(&env), "CONFLICT", "{env:#}");
    assert!(h.gets("/api/v2/Search/artist/album").is_empty());
}
