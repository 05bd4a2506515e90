//! Hide-requests and movie requests by id: Ombi filters its lists, TV
//! children and albums for a user without Admin/PowerUser when
//! `HideRequestsUsers` is on, but returns any movie request by id; the
//! daemon answers those as unknown ids on every path, and with hiding off
//! every path is as before.

use ombi_mcp::contract::TargetKind;
use ombi_mcp::resources::{self, ReadError, ResourceUri};
use ombi_mcp::upstream::Route;
use serde_json::{Value, json};

use crate::support::fake_ombi::{self as fake, Options, PLAIN_USER};
use crate::support::rig::{Rig, err_code, ok_data};

/// Movie request 3 is alice's (Spirited Away, TMDB 129); 1 and 2 are bob's.
const ALICES: i64 = 3;

async fn bob(hide: bool) -> Rig {
    let rig = Rig::start_with(Options::default(), Some(PLAIN_USER)).await;
    set_hiding(&rig, hide);
    rig
}

fn set_hiding(rig: &Rig, hide: bool) {
    rig.fake.with_data(|d| {
        d.admin.settings.get_mut("ombi").unwrap()["hideRequestsUsers"] = json!(hide);
    });
}

async fn get_movie(rig: &Rig, id: i64) -> Value {
    rig.call(
        "read_requests",
        json!({"action": "get", "target": {"kind": "movie", "id": id}}),
    )
    .await
}

/// The fake leaks as Ombi does: its lists hide alice's request from bob,
/// its movie-by-id route does not.
#[tokio::test]
async fn the_fake_leaks_a_movie_request_by_id_as_ombi_does() {
    let rig = bob(true).await;
    let up = &rig.ctx.upstream;
    let leaked: Value = up
        .get_json(
            Some(PLAIN_USER),
            Route::get("api/v1/Request/movie/info").seg(ALICES),
        )
        .await
        .unwrap()
        .unwrap();
    assert_eq!(leaked["title"], "Spirited Away");
    let list: Value = up
        .get_json(
            Some(PLAIN_USER),
            Route::get("api/v2/Requests/movie/100/0/requestedDate/desc"),
        )
        .await
        .unwrap()
        .unwrap();
    let ids: Vec<&Value> = list["collection"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["id"])
        .collect();
    assert!(!ids.contains(&&json!(ALICES)), "{ids:?}");
    assert!(ids.contains(&&json!(1)), "{ids:?}");
    // A TV parent with only alice's child left to bob: not found (500).
    let children: Value = up
        .get_json(Some(PLAIN_USER), Route::get("api/v1/Request/tv/10/child"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(children.as_array().unwrap().len(), 1, "{children}");
}

#[tokio::test]
async fn with_hiding_on_a_plain_user_never_gets_another_users_movie_request() {
    let rig = bob(true).await;
    // Tools: as an id Ombi does not have, word for word.
    let hidden = get_movie(&rig, ALICES).await;
    let unknown = get_movie(&rig, 999).await;
    assert_eq!(err_code(&hidden), "NOT_FOUND");
    let message = |env: &Value, id: i64| {
        env["error"]["message"]
            .as_str()
            .unwrap()
            .replace(&id.to_string(), "N")
    };
    assert_eq!(message(&hidden, ALICES), message(&unknown, 999), "{hidden}");
    assert_eq!(
        hidden["error"]["http_status"],
        unknown["error"]["http_status"]
    );
    ok_data(&get_movie(&rig, 1).await);
    let by_request = rig
        .call(
            "read_media",
            json!({"action": "by_request", "target": {"kind": "movie", "id": ALICES}}),
        )
        .await;
    assert_eq!(err_code(&by_request), "NOT_FOUND");
    assert!(
        rig.gets("/api/v2/Search/movie/request").is_empty(),
        "the details route that would tell is not asked"
    );
    // read_media's request state does not name alice's request.
    let details = rig
        .ok(
            "read_media",
            json!({"action": "details", "media": "movie", "tmdb_id": 129}),
        )
        .await;
    let record = &details["data"]["items"][0];
    assert!(
        record["request_targets"]
            .as_array()
            .is_none_or(|t| t.is_empty()),
        "{record}"
    );
    // The resource (and so its subscription, which reads it first).
    let read = resources::read(&rig.ctx, &ResourceUri::Request(TargetKind::Movie, ALICES)).await;
    assert!(matches!(read, Err(ReadError::NotFound(_))), "{read:?}");
    // The setting was learned with the daemon's own credentials.
    let own = rig.last("GET", "/api/v1/Settings/ombi");
    assert_eq!(own.header("UserName"), None);
}

#[tokio::test]
async fn with_hiding_off_every_path_is_as_before() {
    let rig = bob(false).await;
    let data = ok_data(&get_movie(&rig, ALICES).await).clone();
    assert_eq!(data["items"][0]["title"], "Spirited Away");
    rig.ok(
        "read_media",
        json!({"action": "by_request", "target": {"kind": "movie", "id": ALICES}}),
    )
    .await;
    let read = resources::read(&rig.ctx, &ResourceUri::Request(TargetKind::Movie, ALICES)).await;
    assert!(read.is_ok(), "{read:?}");
    let details = rig
        .ok(
            "read_media",
            json!({"action": "details", "media": "movie", "tmdb_id": 129}),
        )
        .await;
    assert_eq!(
        details["data"]["items"][0]["request_targets"][0],
        json!({"kind": "movie", "id": ALICES}),
        "{details}"
    );
    // An admin with hiding on sees everyone's, as Ombi shows them.
    let rig = Rig::start_with(Options::default(), Some(fake::ADMIN_USER)).await;
    set_hiding(&rig, true);
    ok_data(&get_movie(&rig, 1).await);
    assert!(
        rig.gets("/api/v1/Settings/ombi").is_empty(),
        "an admin needs no setting read"
    );
}

/// A jwt login as a plain user cannot read Ombi's settings: Ombi's own
/// filtered search of movie requests decides.
#[tokio::test]
async fn with_the_setting_unreadable_ombis_filtered_list_decides() {
    let rig = Rig::start_env(
        Options::default(),
        &[
            ("OMBI_AUTH_MODE", "jwt"),
            ("OMBI_USERNAME", fake::PLAIN_USER),
            ("OMBI_PASSWORD", fake::PLAIN_PASSWORD),
        ],
    )
    .await;
    set_hiding(&rig, true);
    assert_eq!(err_code(&get_movie(&rig, ALICES).await), "NOT_FOUND");
    assert!(!rig.gets("/api/v1/Request/movie/search/").is_empty());
    ok_data(&get_movie(&rig, 2).await);
    set_hiding(&rig, false);
    ok_data(&get_movie(&rig, ALICES).await);
}
