//! The budget engine through the envelope: never more than 64 KiB, records and
//! log lines capped, text shortened before records are dropped, and every cut
//! reported with `truncated: true` and a warning; paging stays honest.

use ombi_mcp::contract::budget::{self, MAX_BYTES};
use ombi_mcp::contract::schema::output_schema;
use ombi_mcp::contract::{ErrorCode, ToolError, envelope, render};
use ombi_mcp::contract::{Failure, Reply};
use ombi_mcp::tools::definitions;
use serde_json::{Value, json};

fn reply(data: Value) -> Reply {
    Reply {
        data,
        warnings: vec![],
        truncated: false,
    }
}

fn size(v: &Value) -> usize {
    serde_json::to_vec(v).unwrap().len()
}

fn validate(tool: &str, env: &Value) {
    let def = definitions().find(|d| d.name == tool).unwrap();
    let schema = Value::Object(output_schema(def.name, def.families));
    let v = jsonschema::draft202012::new(&schema).unwrap();
    let errs: Vec<String> = v
        .iter_errors(env)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errs.is_empty(), "{tool}: {}", errs.join("; "));
}

fn media(i: usize, overview_len: usize) -> Value {
    json!({
        "media": "movie",
        "identifiers": [{"namespace": "tmdb", "value": i.to_string()}],
        "title": format!("Title {i}"),
        "overview": "ö".repeat(overview_len),
    })
}

fn media_page(items: Vec<Value>, offset: u64, limit: u64) -> Value {
    let n = items.len();
    json!({
        "kind": "media_page",
        "items": items,
        "page": {"offset": offset, "limit": limit, "returned": n, "total": null, "has_more": null,
                 "next_offset": null, "mode": "upstream", "unit": "media"}
    })
}

fn warnings(env: &Value) -> Vec<String> {
    env["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn small_results_are_untouched() {
    let data = media_page((0..3).map(|i| media(i, 50)).collect(), 0, 20);
    let env = Value::Object(envelope("read_search", Ok(reply(data.clone())), "c").value);
    assert_eq!(env["data"], data);
    assert_eq!(env["truncated"], false);
    assert!(warnings(&env).is_empty());
}

#[test]
fn long_text_is_shortened_before_records_are_dropped() {
    // 100 records × 3000 chars of 2-byte text ≈ 600 KB; shortened text fits.
    let data = media_page((0..100).map(|i| media(i, 3000)).collect(), 0, 100);
    let env = Value::Object(envelope("read_search", Ok(reply(data)), "c").value);
    assert!(size(&env) <= MAX_BYTES, "{}", size(&env));
    assert_eq!(env["truncated"], true);
    let items = env["data"]["items"].as_array().unwrap();
    let w = warnings(&env);
    assert!(
        w.iter()
            .any(|w| w.starts_with("shortened 100 long text fields")),
        "{w:?}"
    );
    let overview = items[0]["overview"].as_str().unwrap();
    assert!(overview.ends_with(budget::ELLIPSIS) && overview.chars().count() < 3000);
    validate("read_search", &env);
    // Either every record survived, or paging says where to continue.
    if items.len() < 100 {
        assert_eq!(env["data"]["page"]["has_more"], true);
    }
}

#[test]
fn records_beyond_100_are_dropped_and_paging_fixed() {
    let data = media_page((0..1000).map(|i| media(i, 10)).collect(), 40, 100);
    let env = Value::Object(envelope("read_search", Ok(reply(data)), "c").value);
    let items = env["data"]["items"].as_array().unwrap();
    assert_eq!(items.len(), 100);
    assert_eq!(items[99]["title"], "Title 99");
    let page = &env["data"]["page"];
    assert_eq!(page["returned"], 100);
    assert_eq!(page["has_more"], true);
    assert_eq!(page["next_offset"], 140);
    assert_eq!(env["truncated"], true);
    assert!(
        warnings(&env)
            .iter()
            .any(|w| w.contains("dropped 900 of 1000 items"))
    );
    validate("read_search", &env);
}

#[test]
fn records_are_dropped_from_the_end_to_fit_64_kib() {
    // Many fields that are not long-text fields: only dropping helps.
    let item = |i: usize| {
        json!({"media": "movie", "identifiers": [{"namespace": "tmdb", "value": i.to_string()}],
               "genres": (0..100).map(|g| format!("genre-{g}-{i}")).collect::<Vec<_>>()})
    };
    let data = media_page((0..100).map(item).collect(), 0, 100);
    let env = Value::Object(envelope("read_search", Ok(reply(data)), "c").value);
    assert!(size(&env) <= MAX_BYTES);
    let n = env["data"]["items"].as_array().unwrap().len();
    assert!(n < 100 && n > 0, "{n}");
    let page = &env["data"]["page"];
    assert_eq!(page["returned"], n);
    assert_eq!(page["has_more"], true);
    assert_eq!(page["next_offset"], n);
    let w = warnings(&env);
    assert!(
        w.iter()
            .any(|w| w == &format!("dropped {} of 100 items to fit 64 KiB", 100 - n)),
        "{w:?}"
    );
    validate("read_search", &env);
}

#[test]
fn nested_arrays_are_capped_and_flagged() {
    let season = json!({"season_number": 1, "truncated": false,
        "episodes": (0..300).map(|e| json!({"episode_number": e})).collect::<Vec<_>>()});
    let item = json!({"media": "tv", "identifiers": [], "seasons": [season]});
    let env =
        Value::Object(envelope("read_media", Ok(reply(media_page(vec![item], 0, 20))), "c").value);
    let s = &env["data"]["items"][0]["seasons"][0];
    assert_eq!(s["episodes"].as_array().unwrap().len(), 100);
    assert_eq!(s["truncated"], true);
    assert_eq!(env["truncated"], true);
    assert!(warnings(&env).iter().any(|w| w.contains("nested")));
    validate("read_media", &env);
}

#[test]
fn log_lines_are_capped_at_500_and_fit() {
    let lines: Vec<String> = (0..5000)
        .map(|i| format!("{i:05} {}", "x".repeat(300)))
        .collect();
    let data = json!({"kind": "logs", "lines": lines, "offset": 1000, "next_offset": 6000, "truncated": false});
    let env = Value::Object(envelope("read_logs", Ok(reply(data)), "c").value);
    assert!(size(&env) <= MAX_BYTES);
    let kept = env["data"]["lines"].as_array().unwrap();
    assert!(kept.len() <= 500 && !kept.is_empty());
    assert!(kept[0].as_str().unwrap().starts_with("00000"));
    assert_eq!(env["data"]["truncated"], true);
    assert_eq!(env["data"]["next_offset"], 1000 + kept.len() as u64);
    assert_eq!(env["truncated"], true);
    validate("read_logs", &env);
}

#[test]
fn everything_huge_still_fits() {
    // Thousands of records with huge text everywhere, huge warnings, huge error.
    for tool in [
        "read_search",
        "read_settings",
        "read_issues",
        "write_request_create",
    ] {
        let data = match tool {
            "read_settings" => json!({"kind": "settings", "section": "ombi", "revision": "r",
                "values": (0..3000).map(|i| json!({"name": format!("/n{i}"), "value": "v".repeat(5000)})).collect::<Vec<_>>(),
                "omitted_fields": (0..3000).map(|i| format!("/secret{i}")).collect::<Vec<_>>()}),
            "read_issues" => json!({"kind": "comment_page",
                "items": (0..3000).map(|i| json!({"id": i + 1, "comment": "c".repeat(20_000)})).collect::<Vec<_>>(),
                "page": {"offset": 0, "limit": 100, "returned": 3000, "total": 3000, "has_more": false,
                         "next_offset": null, "mode": "local", "unit": "comments"}}),
            "write_request_create" => {
                json!({"kind": "mutation", "outcome": "partial", "message": "m".repeat(200_000),
                "item_results": (0..3000).map(|i| json!({"identifier": i.to_string(), "outcome": "completed", "message": "x".repeat(3000)})).collect::<Vec<_>>()})
            }
            _ => media_page((0..3000).map(|i| media(i, 50_000)).collect(), 0, 100),
        };
        let warns: Vec<String> = (0..1000)
            .map(|i| format!("warning {i} {}", "w".repeat(5000)))
            .collect();
        let ok = Reply {
            data: data.clone(),
            warnings: warns.clone(),
            truncated: false,
        };
        let err = Failure {
            error: ToolError::new(ErrorCode::PartialFailure, "e".repeat(100_000)),
            data: Some(data),
            warnings: warns,
        };
        for outcome in [Ok(ok), Err(err)] {
            let r = render(tool, outcome, "c");
            let sc = r.structured_content.clone().unwrap();
            assert!(size(&sc) <= MAX_BYTES, "{tool}: {}", size(&sc));
            assert_eq!(sc["truncated"], true, "{tool}");
            assert!(sc["warnings"].as_array().unwrap().len() <= 100);
            let text = r.content[0].as_text().unwrap().text.clone();
            assert_eq!(text.len(), size(&sc));
            validate(tool, &sc);
        }
    }
}

#[test]
fn helpers() {
    let (v, dropped) = budget::cap_items((0..150).collect::<Vec<_>>(), 100);
    assert_eq!((v.len(), dropped), (100, 50));
    let (v, dropped) = budget::cap_items(vec![1, 2], 100);
    assert_eq!((v, dropped), (vec![1, 2], 0));
    assert_eq!(budget::shorten("héllo", 10), None);
    assert_eq!(budget::shorten("héllo", 2).as_deref(), Some("hé…"));
}
