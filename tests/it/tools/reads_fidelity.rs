//! The read tools against Ombi v4.59.3's C# as read a third time (issue 24)
//! and the read side of issue 23: the fake answers as Ombi's source does
//! (album lookups, caps, TV ranks, inverted flags), and each test pins what
//! the tool makes of it. docs/ombi-notes.md has one section per behaviour.

use serde_json::{Value, json};

use super::{create_err, create_ok};
use crate::support::fake_ombi::routes::media::data;
use crate::support::fake_ombi::state::{search_movie, search_tv, user_id};
use crate::support::fake_ombi::state_requests::{album, issue};
use crate::support::rig::{Rig, err_code, err_message, fields, items};

fn warnings(env: &Value) -> String {
    env["warnings"].to_string()
}

fn page(env: &Value) -> &Value {
    &env["data"]["page"]
}

fn musicbrainz(item: &Value) -> Option<&str> {
    item["identifiers"]
        .as_array()?
        .iter()
        .find(|i| i["namespace"] == "musicbrainz")?["value"]
        .as_str()
}

// ------------------------------------------------------------ album lookups

/// Album request 7 for Hybrid Theory (its release-group id).
fn plant_album_request(h: &Rig) {
    h.fake.with_data(|d| {
        d.requests.albums.push(album(
            7,
            data::HYBRID_THEORY,
            "Hybrid Theory",
            "Linkin Park",
            "bob",
            false,
        ))
    });
}

/// Ombi's v2 album route looks a MusicBrainz *release* up: every
/// release-group id the tools hand out fails there. Details go through
/// Lidarr's exact lookup instead, with the request state.
#[tokio::test]
async fn album_details_answer_for_release_group_ids() {
    let h = Rig::start().await;
    plant_album_request(&h);
    let env = h
        .ok(
            "read_media",
            json!({"action": "details", "media": "album", "musicbrainz_id": data::HYBRID_THEORY}),
        )
        .await;
    let album = &items(&env)[0];
    assert_eq!(album["title"], "Hybrid Theory");
    assert_eq!(musicbrainz(album), Some(data::HYBRID_THEORY));
    assert_eq!(album["requested"], true);
    assert_eq!(
        album["request_targets"],
        json!([{"kind": "album", "id": 7}])
    );
    assert_eq!(
        h.gets("/api/v1/Search/music/album/lidarr:")[0].path,
        format!("/api/v1/Search/music/album/lidarr:{}", data::HYBRID_THEORY)
    );
    assert!(h.gets("/api/v2/Search/artist/album").is_empty());
}

#[tokio::test]
async fn album_details_say_why_without_lidarr_or_for_an_unknown_id() {
    let h = Rig::start().await;
    let env = h
        .err(
            "read_media",
            json!({"action": "details", "media": "album", "musicbrainz_id": "11111111-2222-3333-4444-555555555555"}),
        )
        .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    assert!(err_message(&env).contains("release-group"));
    h.fake.with_data(|d| d.requests.lidarr_enabled = false);
    let env = h
        .err(
            "read_media",
            json!({"action": "details", "media": "album", "musicbrainz_id": data::HYBRID_THEORY}),
        )
        .await;
    assert_eq!(err_code(&env), "UNSUPPORTED_CAPABILITY");
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

// ------------------------------------------------------------ capped lists

fn plant_movies(h: &Rig, n: i64) {
    h.fake.with_data(|d| {
        for i in 0..n {
            d.movies.push(search_movie(
                800_000 + i,
                &format!("Alien Saga {i}"),
                "1990-01-01",
                &format!("tt{:07}", 800_000 + i),
            ));
        }
    });
}

#[tokio::test]
async fn movie_search_at_ombis_ten_result_cap_does_not_claim_the_end() {
    let h = Rig::start().await;
    plant_movies(&h, 12);
    let env = h
        .ok(
            "read_search",
            json!({"action": "movie", "query": "alien saga"}),
        )
        .await;
    assert_eq!(items(&env).len(), 10);
    assert_eq!(page(&env)["has_more"], Value::Null);
    assert_eq!(page(&env)["total"], Value::Null);
    assert!(warnings(&env).contains("at most 10 movies"), "{env:#}");
    // Below the cap the list is Ombi's whole answer.
    let env = h
        .ok("read_search", json!({"action": "movie", "query": "matrix"}))
        .await;
    assert_eq!(page(&env)["has_more"], false);
    assert!(!warnings(&env).contains("at most"));
}

#[tokio::test]
async fn multi_search_at_tmdbs_first_page_does_not_claim_the_end() {
    let h = Rig::start().await;
    plant_movies(&h, 25);
    let env = h
        .ok(
            "read_search",
            json!({"action": "multi", "query": "alien saga"}),
        )
        .await;
    assert_eq!(items(&env).len(), 20);
    assert_eq!(page(&env)["has_more"], Value::Null);
    assert!(warnings(&env).contains("TMDB's first page"), "{env:#}");
    // `tv` filters TMDB's page here: its fullness is still seen.
    let env = h
        .ok(
            "read_search",
            json!({"action": "tv", "query": "alien saga"}),
        )
        .await;
    assert!(items(&env).is_empty());
    assert_eq!(page(&env)["has_more"], Value::Null);
}

#[tokio::test]
async fn recent_requests_at_seven_per_type_do_not_claim_the_end() {
    let h = Rig::start().await;
    h.fake.with_data(|d| {
        let row = d.requests.recent[0].clone();
        d.requests.recent = (0..9)
            .map(|i| {
                let mut r = row.clone();
                r["requestId"] = json!(2);
                r["title"] = json!(format!("Movie {i}"));
                r
            })
            .collect();
    });
    let env = h.ok("read_requests", json!({"action": "recent"})).await;
    assert_eq!(items(&env).len(), 7);
    assert_eq!(page(&env)["has_more"], Value::Null);
    assert!(warnings(&env).contains("7 newest"), "{env:#}");
}

#[tokio::test]
async fn artist_albums_at_musicbrainzs_embed_cap_do_not_claim_the_end() {
    let h = Rig::start().await;
    let env = h
        .ok(
            "read_discover",
            json!({"action": "artist_albums", "artist_id": data::PROLIFIC_ARTIST, "page": {"limit": 100}}),
        )
        .await;
    assert_eq!(items(&env).len(), 25);
    assert_eq!(page(&env)["has_more"], Value::Null);
    assert!(warnings(&env).contains("25 albums"), "{env:#}");
    let env = h
        .ok(
            "read_discover",
            json!({"action": "artist_albums", "artist_id": data::LINKIN_PARK}),
        )
        .await;
    assert_eq!(page(&env)["has_more"], false);
}

// ------------------------------------------------------------ TV ranks

/// Ombi serves TMDB ranks 1–10, 21–30, ... of its TV lists: a page stops at
/// each gap and says so, and the next offset continues past it.
#[tokio::test]
async fn tv_discover_pages_stop_where_ombi_skips_ranks() {
    let h = Rig::start().await;
    h.fake.with_data(|d| {
        d.tv = (1..=40)
            .map(|i| search_tv(700_000 + i, &format!("Rank {i}"), 1, 1))
            .collect();
    });
    let env = h
        .ok(
            "read_discover",
            json!({"action": "trending", "media": "tv", "page": {"offset": 5, "limit": 20}}),
        )
        .await;
    let titles: Vec<&str> = items(&env)
        .iter()
        .map(|i| i["title"].as_str().unwrap())
        .collect();
    assert_eq!(titles, ["Rank 6", "Rank 7", "Rank 8", "Rank 9", "Rank 10"]);
    assert_eq!(page(&env)["has_more"], true);
    assert_eq!(page(&env)["next_offset"], 10);
    assert!(warnings(&env).contains("ranks 1–10 of every 20"), "{env:#}");
    assert_eq!(
        h.gets("/api/v2/Search/tv/trending")[0].path,
        "/api/v2/Search/tv/trending/5/5"
    );
    let env = h
        .ok(
            "read_discover",
            json!({"action": "trending", "media": "tv", "page": {"offset": 10, "limit": 3}}),
        )
        .await;
    assert_eq!(items(&env)[0]["title"], "Rank 21");
    assert!(!warnings(&env).contains("ranks 1–10"));
}

// ------------------------------------------------------------ flags Ombi gets wrong

#[tokio::test]
async fn landing_page_expired_is_the_truth_not_ombis_inverted_flag() {
    let h = Rig::start().await;
    let expired = |env: &Value| {
        env["data"]["values"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["name"] == "/expired")
            .unwrap()["value"]
            .clone()
    };
    // Ended long ago: Ombi says `expired: false`.
    let env = h
        .ok("read_settings", json!({"section": "landing_page"}))
        .await;
    assert_eq!(expired(&env), true);
    // Still running: Ombi says `expired: true`.
    h.fake.with_data(|d| {
        d.admin.settings.get_mut("landingpage").unwrap()["endDateTime"] =
            json!("2999-01-01T00:00:00Z");
    });
    let env = h
        .ok("read_settings", json!({"section": "landing_page"}))
        .await;
    assert_eq!(expired(&env), false);
}

#[tokio::test]
async fn open_votes_need_voting_enabled() {
    let h = Rig::start().await;
    h.ok("read_votes", json!({"action": "open"})).await;
    h.fake.with_data(|d| {
        d.admin.settings.get_mut("vote").unwrap()["enabled"] = json!(false);
    });
    let env = h.err("read_votes", json!({"action": "open"})).await;
    assert_eq!(err_code(&env), "UNSUPPORTED_CAPABILITY");
}

/// Ombi never computes `subscribed` on the caller's own movie requests.
#[tokio::test]
async fn movie_subscribed_is_absent_on_ones_own_requests() {
    let h = Rig::start_with(Default::default(), Some("bob")).await;
    let env = h
        .ok("read_requests", json!({"action": "list", "media": "movie"}))
        .await;
    let bob = user_id("bob");
    let mut own = 0;
    for r in items(&env) {
        if r["requested_user_id"] == json!(bob) {
            own += 1;
            assert!(r.get("subscribed").is_none(), "{r:#}");
        }
    }
    assert!(own > 0, "the sample has bob's requests: {env:#}");
}

// ------------------------------------------------------------ users for moderators

/// "Which users have hit their quota?" in one call: roles, user type and
/// the quotas Ombi's user list already computes, never contact details.
#[tokio::test]
async fn user_list_gives_moderators_roles_types_and_quotas() {
    let h = Rig::start().await;
    h.fake.with_data(|d| {
        let bob = d
            .admin
            .users
            .iter_mut()
            .find(|u| u["userName"] == "bob")
            .unwrap();
        bob["movieRequestLimit"] = json!(2);
        bob["movieRequestQuota"] =
            json!({"hasLimit": true, "limit": 2, "remaining": 0, "nextRequest": "2026-05-09T08:00:00Z"});
        // Without a limit of their own Ombi computes no quota.
        let carol = d
            .admin
            .users
            .iter_mut()
            .find(|u| u["userName"] == "carol")
            .unwrap();
        carol["movieRequestQuota"] = json!({"hasLimit": true, "limit": 9, "remaining": 9});
    });
    let env = h.ok("read_users", json!({"action": "list"})).await;
    let user = |name: &str| {
        items(&env)
            .iter()
            .find(|u| u["user_name"] == name)
            .unwrap()
            .clone()
    };
    let bob = user("bob");
    assert_eq!(bob["roles"], json!(["RequestTv", "RequestMovie"]));
    assert_eq!(bob["user_type"], "local");
    let remaining = bob["quotas"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "movie.remaining")
        .unwrap()
        .clone();
    assert_eq!(remaining["value"], 0);
    assert_eq!(remaining["scope"], "selected_user");
    assert!(user("carol").get("quotas").is_none());
    assert_eq!(user("alice")["roles"], json!(["Admin"]));
    let text = env.to_string();
    assert!(!text.contains("example.org"), "no e-mail: {text}");
    // `get` is the same projection.
    let id = bob["id"].as_str().unwrap();
    let one = h
        .ok("read_users", json!({"action": "get", "user_id": id}))
        .await;
    assert_eq!(items(&one)[0], bob);
}

// ------------------------------------------------------------ logs for triage

fn plant_log(h: &Rig, lines: usize) {
    let text: String = (0..lines)
        .map(|i| {
            if i % 10 == 3 {
                format!("2026-05-03 10:00:{:02} [ERR] Radarr refused movie {i}: apikey=s3cr3tRadarrKey\n", i % 60)
            } else {
                format!("2026-05-03 10:00:{:02} [INF] line {i}\n", i % 60)
            }
        })
        .collect();
    h.fake.with_data(|d| {
        d.logs.push(("log20260503.txt".into(), text));
        d.logs.push(("notes.json".into(), "{}".into()));
    });
}

#[tokio::test]
async fn log_list_is_newest_first_with_the_day_of_each_file() {
    let h = Rig::start().await;
    plant_log(&h, 5);
    let env = h.ok("read_logs", json!({"action": "list"})).await;
    let files = env["data"]["files"].as_array().unwrap();
    // SystemController lists `*.txt` only, by name descending.
    assert_eq!(files[0]["file_id"], "log20260503.txt");
    assert_eq!(files[0]["modified"], "2026-05-03");
    assert!(files.iter().all(|f| f["file_id"] != "notes.json"));
}

#[tokio::test]
async fn log_read_tails_and_matches_after_redaction() {
    let h = Rig::start().await;
    plant_log(&h, 200);
    let env = h
        .ok(
            "read_logs",
            json!({"action": "read", "file_id": "log20260503.txt", "tail": 3}),
        )
        .await;
    let lines = env["data"]["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3);
    assert!(lines[2].as_str().unwrap().ends_with("line 199"), "{env:#}");
    assert_eq!(env["data"]["offset"], 197);
    let env = h
        .ok(
            "read_logs",
            json!({"action": "read", "file_id": "log20260503.txt", "match": "RADARR REFUSED", "tail": 2}),
        )
        .await;
    let lines: Vec<&str> = env["data"]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[1].contains("movie 193"), "{lines:?}");
    assert!(lines.iter().all(|l| !l.contains("s3cr3t")));
    // A match never probes a redacted value.
    let env = h
        .ok(
            "read_logs",
            json!({"action": "read", "file_id": "log20260503.txt", "match": "s3cr3tRadarr"}),
        )
        .await;
    assert!(env["data"]["lines"].as_array().unwrap().is_empty());
}

// ------------------------------------------------------------ where Ombi files issues

/// Ombi's UI files a movie's issues under its IMDb id: by_provider for a
/// movie finds those beside the TMDB-filed ones.
#[tokio::test]
async fn issues_by_provider_for_a_movie_find_its_imdb_filed_issues() {
    let h = Rig::start().await;
    h.fake.with_data(|d| {
        d.issues.push(issue(
            9,
            "The Matrix",
            1,
            Some("tt0133093"),
            Some(1),
            0,
            "bob",
        ))
    });
    for args in [
        json!({"action": "by_provider", "provider_id": "603", "request_type": "movie"}),
        json!({"action": "by_provider", "provider_id": "tt0133093"}),
    ] {
        let env = h.ok("read_issues", args.clone()).await;
        let mut ids: Vec<i64> = items(&env)
            .iter()
            .map(|i| i["id"].as_i64().unwrap())
            .collect();
        ids.sort();
        assert_eq!(ids, vec![1, 3, 9], "{args}: {env:#}");
    }
}

/// write_issue_create files a movie issue under the IMDb id and a TV issue
/// under the show's parent request, as Ombi's UI does.
#[tokio::test]
async fn issue_create_files_where_ombis_ui_files() {
    let h = Rig::start().await;
    h.ok(
        "write_issue_create",
        json!({"title": "The Matrix", "description": "No subtitles", "category_id": 1,
               "request_type": "movie", "provider_id": "603"}),
    )
    .await;
    let body: Value = serde_json::from_str(&h.last("POST", "/api/v1/Issues").body).unwrap();
    assert_eq!(body["providerId"], "tt0133093");
    // Child 1396 of show request 10 → filed under parent 10.
    h.ok(
        "write_issue_create",
        json!({"title": "Breaking Bad", "description": "Wrong audio", "category_id": 1,
               "request_type": "tv", "request_id": 1396}),
    )
    .await;
    let body: Value = serde_json::from_str(&h.last("POST", "/api/v1/Issues").body).unwrap();
    assert_eq!(
        fields(&body, &["requestId", "providerId"]),
        json!([10, "1396"])
    );
}

// ------------------------------------------------------------ TV availability

/// Ombi's `available` on a show means "on the media server, possibly in
/// part"; details say `available` only when the whole show is there.
#[tokio::test]
async fn tv_details_are_available_only_when_fully_available() {
    let h = Rig::start().await;
    let env = h
        .ok(
            "read_media",
            json!({"action": "details", "media": "tv", "tmdb_id": 1396}),
        )
        .await;
    assert_eq!(items(&env)[0]["available"], false, "{env:#}");
}

// ------------------------------------------------------------ warnings that matter

/// A first discovery page carries no warning about paging mechanics: only
/// a later page, where titles can have shifted, says so.
#[tokio::test]
async fn a_first_discover_page_has_no_paging_warning() {
    let h = Rig::start().await;
    let env = h
        .ok(
            "read_discover",
            json!({"action": "popular", "media": "movie"}),
        )
        .await;
    assert_eq!(env["warnings"], json!([]), "{env:#}");
    let env = h
        .ok(
            "read_discover",
            json!({"action": "popular", "media": "movie", "page": {"offset": 2, "limit": 2}}),
        )
        .await;
    assert!(warnings(&env).contains("shifted"), "{env:#}");
}

// ------------------------------------------------------------ Ombi's 12-hour details cache

fn movie_state(env: &Value) -> (Value, Value) {
    let m = &items(env)[0];
    (m["requested"].clone(), m["available"].clone())
}

/// Ombi keeps a details answer, request state included, for 12 hours by id;
/// the availability checkers and the Emby/Jellyfin syncs do not clear it.
/// A movie with a request takes its state from the request read, which is
/// current; when that read fails, the cached state comes with a warning.
#[tokio::test]
async fn movie_details_take_a_requests_state_from_the_request_not_ombis_cache() {
    let h = Rig::start().await;
    let args = json!({"action": "details", "media": "movie", "tmdb_id": 157336});
    let before = h.ok("read_media", args.clone()).await;
    assert_eq!(
        movie_state(&before),
        (json!(true), json!(false)),
        "{before:#}"
    );
    // Radarr's availability checker marks request 2 available: no purge.
    h.fake.with_data(|d| {
        d.movie_request_mut(2).unwrap()["available"] = json!(true);
    });
    let after = h.ok("read_media", args.clone()).await;
    assert_eq!(movie_state(&after), (json!(true), json!(true)), "{after:#}");
    assert_eq!(
        h.last("GET", "/api/v1/Request/movie/info").path,
        "/api/v1/Request/movie/info/2"
    );
    // The fake answers from its cache (as Ombi does): without the request
    // read the answer is the stale one, and says so.
    h.fake.add_fault(
        crate::support::fake_ombi::faults::Fault::on("GET", "/api/v1/Request/movie/info/*")
            .status(502),
    );
    let stale = h.ok("read_media", args).await;
    assert_eq!(
        movie_state(&stale),
        (json!(true), json!(false)),
        "{stale:#}"
    );
    assert!(warnings(&stale).contains("12 hours"), "{stale:#}");
}

/// A request write through Ombi purges its media cache: after an approve
/// and a mark-available through the daemon, details are fresh again.
#[tokio::test]
async fn request_writes_purge_ombis_details_cache() {
    let h = Rig::start().await;
    let args = json!({"action": "details", "media": "movie", "tmdb_id": 27205});
    let before = h.ok("read_media", args.clone()).await;
    assert_eq!(items(&before)[0]["requested"], false, "{before:#}");
    create_ok(&h, json!({"action": "movie", "tmdb_id": 27205})).await;
    let after = h.ok("read_media", args).await;
    assert_eq!(items(&after)[0]["requested"], true, "{after:#}");
    assert!(
        !items(&after)[0]["request_targets"]
            .as_array()
            .unwrap()
            .is_empty()
    );
}

/// A show's episodes take their availability from the child requests: the
/// cached details of Breaking Bad still say season 1 is not on the server
/// after Sonarr's checker marked it available.
#[tokio::test]
async fn tv_details_take_episode_state_from_the_requests() {
    let h = Rig::start().await;
    let args = json!({"action": "details", "media": "tv", "tmdb_id": 1396});
    let before = h.ok("read_media", args.clone()).await;
    let season_one = |env: &Value| {
        items(env)[0]["seasons"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["season_number"] == 1)
            .cloned()
            .unwrap()
    };
    let requested_available = |env: &Value| -> Vec<Value> {
        season_one(env)["episodes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["requested"] == true)
            .map(|e| e["available"].clone())
            .collect()
    };
    assert_eq!(
        requested_available(&before),
        vec![json!(false); 3],
        "{before:#}"
    );
    h.fake.with_data(|d| {
        let child = crate::support::fake_ombi::state_writes::child_mut(d, 1396).unwrap();
        for e in child["seasonRequests"][0]["episodes"]
            .as_array_mut()
            .unwrap()
        {
            e["available"] = json!(true);
        }
    });
    let after = h.ok("read_media", args.clone()).await;
    assert_eq!(
        requested_available(&after),
        vec![json!(true); 3],
        "{after:#}"
    );
    assert_eq!(
        h.last("GET", "/api/v1/Request/tv/").path,
        "/api/v1/Request/tv/10"
    );
    // Ombi's own answer is still the cached one.
    h.fake.add_fault(
        crate::support::fake_ombi::faults::Fault::on("GET", "/api/v1/Request/tv/10").status(502),
    );
    let stale = h.ok("read_media", args).await;
    assert_eq!(
        requested_available(&stale),
        vec![json!(false); 3],
        "{stale:#}"
    );
}
