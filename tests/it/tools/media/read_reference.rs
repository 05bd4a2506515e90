//! `read_reference` against the fake Ombi: routes and queries sent, native-typed `value`s, label
//! selection over mojibake, deterministic order, local windows, and watch providers filtered here.

use serde_json::{Value, json};

use crate::support::fake_ombi::Fault;
use crate::support::rig::{Rig, items, ok_data};
use crate::tools::media::data_items;

fn names(env: &Value) -> Vec<String> {
    data_items(env)
        .iter()
        .map(|i| i["name"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn genres_have_integer_values_sorted_by_name() {
    let rig = Rig::start().await;
    let env = rig
        .ok(
            "read_reference",
            json!({"action": "genres", "media": "movie"}),
        )
        .await;
    assert_eq!(rig.fake.hits("GET", "/api/v2/Search/Genres/movie"), 1);
    assert_eq!(env["data"]["kind"], "reference_page");
    assert_eq!(names(&env), vec!["Action", "Drama", "Science Fiction"]);
    assert_eq!(
        data_items(&env)[0],
        json!({"id": "28", "name": "Action", "value": 28, "category": "genre"})
    );
    let page = &env["data"]["page"];
    assert_eq!(
        (
            page["total"].as_u64(),
            page["unit"].as_str(),
            page["mode"].as_str()
        ),
        (Some(3), Some("references"), Some("local"))
    );

    let env = rig
        .ok(
            "read_reference",
            json!({"action": "genres", "media": "tv", "page": {"offset": 1, "limit": 1}}),
        )
        .await;
    assert_eq!(rig.fake.hits("GET", "/api/v2/Search/Genres/tv"), 1);
    assert_eq!(names(&env), vec!["Drama"]);
    assert_eq!(env["data"]["page"]["has_more"], false);
}

#[tokio::test]
async fn languages_skip_mojibake_for_clean_labels_and_warn_otherwise() {
    let rig = Rig::start().await;
    let env = rig
        .ok("read_reference", json!({"action": "languages"}))
        .await;
    let it = data_items(&env);
    let ja = it.iter().find(|i| i["id"] == "ja").unwrap();
    assert_eq!(
        (ja["name"].as_str(), ja["value"].as_str()),
        (Some("Japanese"), Some("ja"))
    );
    let ka = it.iter().find(|i| i["id"] == "ka").unwrap();
    assert_eq!(ka["name"], "\u{FFFD}\u{FFFD}\u{FFFD}");
    assert_eq!(env["warnings"].as_array().unwrap().len(), 1);
    // Same order on every call.
    let again = rig
        .ok("read_reference", json!({"action": "languages"}))
        .await;
    assert_eq!(names(&env), names(&again));
}

#[tokio::test]
async fn streaming_countries_are_codes() {
    let rig = Rig::start().await;
    let env = rig
        .ok("read_reference", json!({"action": "streaming_countries"}))
        .await;
    assert_eq!(rig.fake.hits("GET", "/api/v1/Identity/streamingcountry"), 1);
    assert_eq!(names(&env), vec!["DE", "GB", "NL", "US"]);
    assert_eq!(data_items(&env)[0]["value"], "DE");
}

#[tokio::test]
async fn keywords_search_and_one_keyword() {
    let rig = Rig::start().await;
    let env = rig
        .ok(
            "read_reference",
            json!({"action": "keywords", "query": "dystopia & more"}),
        )
        .await;
    let req = rig.last("GET", "/api/v1/TheMovieDb/Keywords");
    assert_eq!(req.query.as_deref(), Some("searchTerm=dystopia+%26+more"));
    assert!(data_items(&env).is_empty());
    let env = rig
        .ok(
            "read_reference",
            json!({"action": "keywords", "query": "dys"}),
        )
        .await;
    assert_eq!(
        data_items(&env)[0],
        json!({"id": "4565", "name": "dystopia", "value": 4565, "category": "keyword"})
    );

    let env = rig
        .ok(
            "read_reference",
            json!({"action": "keyword", "keyword_id": 310}),
        )
        .await;
    assert_eq!(rig.fake.hits("GET", "/api/v1/TheMovieDb/Keywords/310"), 1);
    assert_eq!(names(&env), vec!["artificial intelligence"]);
    assert_eq!(env["data"]["page"]["mode"], "none");
    let env = rig
        .err(
            "read_reference",
            json!({"action": "keyword", "keyword_id": 1}),
        )
        .await;
    assert_eq!(env["error"]["code"], "NOT_FOUND");
}

#[tokio::test]
async fn watch_providers_are_a_catalogue_filtered_by_name() {
    let rig = Rig::start().await;
    let env = rig
        .ok(
            "read_reference",
            json!({"action": "watch_providers", "media": "tv"}),
        )
        .await;
    let req = rig.last("GET", "/api/v1/TheMovieDb/WatchProviders/tv");
    assert_eq!(req.query.as_deref(), Some("searchTerm="));
    assert_eq!(names(&env), vec!["Disney Plus", "Max", "Netflix"]);
    assert!(
        env["warnings"]
            .to_string()
            .contains("not where a title streams")
    );
    let env = rig
        .ok(
            "read_reference",
            json!({"action": "watch_providers", "media": "movie", "query": "net"}),
        )
        .await;
    assert_eq!(
        data_items(&env)[0],
        json!({"id": "8", "name": "Netflix", "value": 8, "category": "watch_provider"})
    );
}

#[tokio::test]
async fn issue_categories_roles_features() {
    let rig = Rig::start().await;
    let env = rig
        .ok("read_reference", json!({"action": "issue_categories"}))
        .await;
    assert_eq!(rig.fake.hits("GET", "/api/v1/Issues/categories"), 1);
    assert_eq!(
        names(&env)[..2],
        ["Audio".to_string(), "Subtitles".to_string()]
    );
    assert_eq!(data_items(&env)[0]["value"], 1);
    assert_eq!(
        env["warnings"].as_array().unwrap().len(),
        1,
        "the all-? category is kept with a warning"
    );

    let env = rig.ok("read_reference", json!({"action": "roles"})).await;
    assert_eq!(rig.fake.hits("GET", "/api/v1/Identity/claims"), 1);
    assert_eq!(names(&env), vec!["Admin", "PowerUser", "RequestMovie"]);
    assert_eq!(
        data_items(&env)[0],
        json!({"name": "Admin", "value": "Admin", "category": "role"})
    );

    let env = rig
        .ok("read_reference", json!({"action": "features"}))
        .await;
    assert_eq!(rig.fake.hits("GET", "/api/v2/Features"), 1);
    assert_eq!(
        data_items(&env)[0],
        json!({"name": "Movie4KRequests", "value": "Movie4KRequests", "category": "disabled"})
    );
}

#[tokio::test]
async fn upstream_errors_map_to_contract_codes() {
    let rig = Rig::start().await;
    rig.fake
        .add_fault(Fault::on("GET", "/api/v2/Search/Languages").nasty_500());
    let env = rig
        .err("read_reference", json!({"action": "languages"}))
        .await;
    assert_eq!(env["error"]["code"], "UPSTREAM_REJECTED");
    assert!(!env.to_string().contains("Password="));
    rig.fake
        .add_fault(Fault::on("GET", "/api/v1/Issues/categories").html_200());
    let env = rig
        .err("read_reference", json!({"action": "issue_categories"}))
        .await;
    assert_eq!(env["error"]["code"], "UPSTREAM_SCHEMA_MISMATCH");
    rig.fake
        .add_fault(Fault::on("GET", "/api/v1/Identity/streamingcountry").no_content());
    let env = rig
        .ok("read_reference", json!({"action": "streaming_countries"}))
        .await;
    assert!(data_items(&env).is_empty());
}

#[tokio::test]
async fn watch_providers_are_filtered_by_name_here_since_tmdb_ignores_the_term() {
    let h = Rig::start().await;
    let env = h
        .call(
            "read_reference",
            json!({"action": "watch_providers", "media": "movie", "query": "NET"}),
        )
        .await;
    let names: Vec<&str> = items(&env)
        .iter()
        .map(|i| i["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Netflix"]);
    assert_eq!(ok_data(&env)["page"]["total"], 1);
}
