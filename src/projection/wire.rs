//! Small helpers for reading Ombi's wire values honestly: default dates,
//! empty strings, non-positive ids and ids that arrive as numbers or strings
//! all become "absent" rather than a fabricated value.

use serde::{Deserialize, Deserializer};

/// Ombi writes a never-set `DateTime` as `0001-01-01T00:00:00Z`, and some
/// dates are computed from it (`0001-01-02`: docs/ombi-notes.md): any date
/// before 1900 is a placeholder, not a date.
pub fn date(s: Option<String>) -> Option<String> {
    s.filter(|d| {
        d.get(..4)
            .and_then(|y| y.parse::<u32>().ok())
            .is_some_and(|y| y >= 1900)
    })
}

/// A non-blank string.
pub fn text(s: Option<String>) -> Option<String> {
    s.filter(|t| !t.trim().is_empty())
}

/// A positive id (the contract's ids are ≥ 1).
pub fn positive_id(id: Option<i64>) -> Option<i64> {
    id.filter(|i| *i > 0)
}

/// The fields of an embedded `OmbiUser` we ever read: every other one
/// (tokens, e-mail, phone) is skipped by serde and never held in memory.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UserRef {
    pub id: Option<String>,
    /// Ombi's computed `UserAlias`: the alias, else the user name
    /// (`OmbiUser.UserAlias`, docs/ombi-notes.md).
    pub user_alias: Option<String>,
    pub user_name: Option<String>,
}

impl UserRef {
    /// The name Ombi shows for this user: its alias, else its user name.
    pub fn shown_name(&self) -> Option<String> {
        text(self.user_alias.clone()).or_else(|| text(self.user_name.clone()))
    }
}

/// Provider ids are strings on some models and numbers on others.
pub fn lenient_string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Either {
        S(String),
        N(i64),
        F(f64),
    }
    Ok(match Option::<Either>::deserialize(d)? {
        Some(Either::S(s)) => text(Some(s)),
        Some(Either::N(n)) => Some(n.to_string()),
        Some(Either::F(f)) => Some(f.to_string()),
        None => None,
    })
}

/// `RequestType`: TV is 0, movie 1, album 2.
pub fn request_type_label(code: i64) -> Option<&'static str> {
    match code {
        0 => Some("tv"),
        1 => Some("movie"),
        2 => Some("album"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_dates_blank_text_and_zero_ids_are_absent() {
        assert_eq!(date(Some("0001-01-01T00:00:00Z".into())), None);
        assert_eq!(date(Some("0001-01-08T00:00:00Z".into())), None);
        assert_eq!(date(Some("".into())), None);
        assert_eq!(
            date(Some("2026-05-01T10:00:00Z".into())).as_deref(),
            Some("2026-05-01T10:00:00Z")
        );
        assert_eq!(text(Some("  ".into())), None);
        assert_eq!(positive_id(Some(0)), None);
        assert_eq!(positive_id(Some(-3)), None);
        assert_eq!(positive_id(Some(4)), Some(4));
    }

    #[test]
    fn provider_ids_come_as_strings_or_numbers() {
        #[derive(Deserialize)]
        struct W {
            #[serde(default, deserialize_with = "lenient_string")]
            v: Option<String>,
        }
        let w: W = serde_json::from_str(r#"{"v": 603}"#).unwrap();
        assert_eq!(w.v.as_deref(), Some("603"));
        let w: W = serde_json::from_str(r#"{"v": "tt01"}"#).unwrap();
        assert_eq!(w.v.as_deref(), Some("tt01"));
        let w: W = serde_json::from_str(r#"{"v": null}"#).unwrap();
        assert_eq!(w.v, None);
        let w: W = serde_json::from_str(r#"{}"#).unwrap();
        assert_eq!(w.v, None);
    }
}
