//! `write_request_delete`: the routes per media (never Ombi's delete-all), a TV parent and its
//! children, unknown requests, and users who may delete only their own.

use serde_json::{Value, json};

use crate::support::fake_ombi::{ADMIN_USER, PLAIN_USER};
use crate::support::rig::{Rig, err_code, err_message, ok_data};
use crate::tools::requests::{album, child, movie, parent};
use crate::tools::{as_alice, assert_sent, the_write};

#[tokio::test]
async fn delete_movie_and_album_use_their_routes_never_delete_all() {
    for (kind, id, path) in [
        ("movie", 2_i64, "/api/v1/Request/movie/2"),
        ("album", 5, "/api/v1/request/music/5"),
    ] {
        let h = as_alice().await;
        let env = h
            .call(
                "write_request_delete",
                json!({"target": {"kind": kind, "id": id}}),
            )
            .await;
        assert_sent(&h, "DELETE", path, Value::Null);
        let d = ok_data(&env);
        assert_eq!(d["outcome"], "completed");
        assert_eq!(d["target"], json!({"kind": kind, "id": id}));
        assert_eq!(d["affected_count"], 1);
        let gone = if kind == "movie" {
            movie(&h, id)
        } else {
            album(&h, id)
        };
        assert!(gone.is_none());
        assert_eq!(h.fake.hits("DELETE", "/api/v1/Request/movie/all"), 0);
    }
}

#[tokio::test]
async fn delete_unknown_movie_is_not_found() {
    let h = as_alice().await;
    let env = h
        .call(
            "write_request_delete",
            json!({"target": {"kind": "movie", "id": 999}}),
        )
        .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
}

#[tokio::test]
async fn delete_tv_child_keeps_a_parent_with_other_children() {
    let h = as_alice().await;
    let env = h
        .call(
            "write_request_delete",
            json!({"target": {"kind": "tv_child", "id": 12}}),
        )
        .await;
    assert_sent(&h, "DELETE", "/api/v1/Request/tv/child/12", Value::Null);
    let d = ok_data(&env);
    assert_eq!(d["target"], json!({"kind": "tv_child", "id": 12}));
    assert_eq!(d["affected_count"], 1);
    assert!(d.get("item_results").is_none());
    assert_eq!(env["warnings"], json!([]));
    assert!(child(&h, 12).is_none() && parent(&h, 10).is_some());
}

#[tokio::test]
async fn delete_last_tv_child_reports_the_parent_deleted_with_it() {
    let h = as_alice().await;
    let env = h
        .call(
            "write_request_delete",
            json!({"target": {"kind": "tv_child", "id": 21}}),
        )
        .await;
    let d = ok_data(&env);
    assert_eq!(d["outcome"], "completed");
    assert_eq!(d["affected_count"], 2);
    assert_eq!(
        d["item_results"],
        json!([
            {"identifier": "tv_child:21", "outcome": "completed"},
            {"identifier": "tv_parent:20", "outcome": "completed", "message": "deleted by Ombi with its last child request"}
        ])
    );
    assert!(
        env["warnings"][0]
            .as_str()
            .unwrap()
            .contains("TV parent request 20")
    );
    assert!(parent(&h, 20).is_none());
    // the parent was read back after the delete
    assert_eq!(h.paths().last().unwrap(), "GET /api/v1/Request/tv/20");
}

#[tokio::test]
async fn delete_tv_parent_reads_its_children_and_confirms_the_empty_answer() {
    let h = as_alice().await;
    let env = h
        .call(
            "write_request_delete",
            json!({"target": {"kind": "tv_parent", "id": 10}}),
        )
        .await;
    assert_eq!(
        h.action_paths(),
        vec![
            "GET /api/v1/Request/tv/10".to_string(),
            "DELETE /api/v1/Request/tv/10".to_string(),
            "GET /api/v1/Request/tv/10".to_string()
        ]
    );
    assert_eq!(the_write(&h).header("UserName"), Some(ADMIN_USER));
    let d = ok_data(&env);
    assert_eq!(d["target"], json!({"kind": "tv_parent", "id": 10}));
    assert_eq!(d["affected_count"], 3);
    let ids: Vec<&str> = d["item_results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["identifier"].as_str().unwrap())
        .collect();
    assert_eq!(ids, vec!["tv_child:1396", "tv_child:12"]);
    assert!(parent(&h, 10).is_none());
}

#[tokio::test]
async fn manage_own_requests_may_delete_only_their_own() {
    let options = crate::tools::bob_with(&["RequestMovie", "RequestTv", "ManageOwnRequests"]);
    let h = Rig::start_with(options, Some(PLAIN_USER)).await;
    // movie 3 is alice's
    let env = h
        .call(
            "write_request_delete",
            json!({"target": {"kind": "movie", "id": 3}}),
        )
        .await;
    // `errorCode: NoPermissions` (BaseMediaEngine.cs CheckCanManageRequest).
    assert_eq!(err_code(&env), "FORBIDDEN");
    assert!(err_message(&env).contains("NoPermissions"));
    assert!(
        err_message(&env).ends_with(
            "needs Ombi's PowerUser role to manage another user's request (bob has \
             ManageOwnRequests); ask an Ombi admin"
        ),
        "{env}"
    );
    assert!(movie(&h, 3).is_some());
    // movie 2 is bob's
    h.ok(
        "write_request_delete",
        json!({"target": {"kind": "movie", "id": 2}}),
    )
    .await;
    assert!(movie(&h, 2).is_none());
}
