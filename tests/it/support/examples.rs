//! The tools' example calls (`Tool::examples`) as the tests make them: the
//! placeholders filled against the rig's sample Ombi.

use serde_json::{Value, json};

use super::fake_ombi::state::user_id;
use super::rig::Rig;

/// An example's arguments with `"$user(NAME)"` (anywhere in a string value)
/// replaced by the sample user's id and `"$revision(SECTION)"` by the
/// revision `read_settings` gives now.
pub async fn filled(rig: &Rig, args: &str) -> Value {
    let mut text = args.to_string();
    while let Some(at) = text.find("$user(") {
        let end = at + text[at..].find(')').expect("$user(NAME)");
        let id = user_id(&text[at + 6..end]);
        text.replace_range(at..=end, &id);
    }
    while let Some(at) = text.find("$revision(") {
        let end = at + text[at..].find(')').expect("$revision(SECTION)");
        let section = text[at + 10..end].to_string();
        let read = rig.ok("read_settings", json!({"section": section})).await;
        let revision = read["data"]["revision"]
            .as_str()
            .expect("a revision")
            .to_string();
        text.replace_range(at..=end, &revision);
    }
    serde_json::from_str(&text).expect("an example is JSON")
}
