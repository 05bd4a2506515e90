//! `$defs/target`: an Ombi request as `{kind, id}`, the one type for it:
//! records and mutation results carry it, and tools take it as the `target`
//! argument (`definition::params::TARGET`).

use serde::{Deserialize, Serialize};

/// Which id space a request id lives in (Ombi keeps one per kind).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Hash)]
#[serde(rename_all = "snake_case")]
pub enum TargetKind {
    Movie,
    /// The show-level request.
    TvParent,
    /// A season-level child request.
    TvChild,
    Album,
}

impl TargetKind {
    pub const fn label(self) -> &'static str {
        match self {
            TargetKind::Movie => "movie",
            TargetKind::TvParent => "tv_parent",
            TargetKind::TvChild => "tv_child",
            TargetKind::Album => "album",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Target {
    pub kind: TargetKind,
    pub id: i64,
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::contract::schema::DEFS;

    #[test]
    fn kinds_are_the_schema_enum() {
        let labels = &DEFS["target"]["properties"]["kind"]["enum"];
        let labels: Vec<&str> = labels
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        for l in &labels {
            let kind: TargetKind = serde_json::from_value(json!(l)).unwrap();
            assert_eq!(kind.label(), *l);
            assert_eq!(serde_json::to_value(kind).unwrap(), json!(l));
        }
        assert_eq!(labels.len(), 4);
    }
}
