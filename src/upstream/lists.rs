//! Lists read from Ombi under the 8 MiB cap, element by element: top-level
//! arrays ([`Upstream::get_array`]) and Ombi's paged `RequestsViewModel`
//! (`{collection, total}`, [`Upstream::get_collection`]). A body over the cap
//! yields the elements that fit and says it was cut.

use serde::Deserialize;
use serde::de::DeserializeOwned;

use super::body::{self, ArrayScan, Bounded, MAX_BODY_BYTES};
use super::interpret::{Payload, UpstreamResponse};
use super::{Route, Upstream};
use crate::contract::{ErrorCode, ToolError};
use crate::text::message;

impl Upstream {
    /// A top-level JSON array read under the 8 MiB cap, each element parsed
    /// into `T` on its own (unknown fields are skipped, never allocated). A
    /// body over the cap yields the elements that fit and `cut: true`.
    pub async fn get_array<T: DeserializeOwned>(
        &self,
        acting_user: Option<&str>,
        route: Route,
    ) -> Result<Bounded<Vec<T>>, ToolError> {
        self.get_array_within(acting_user, route, MAX_BODY_BYTES)
            .await
    }

    /// [`Upstream::get_array`] with a smaller byte cap.
    pub async fn get_array_within<T: DeserializeOwned>(
        &self,
        acting_user: Option<&str>,
        route: Route,
        max_bytes: usize,
    ) -> Result<Bounded<Vec<T>>, ToolError> {
        let resp = self.send_capped(acting_user, route, max_bytes).await?;
        parse_array(&resp).map_err(|e| self.scrub(e))
    }

    /// Ombi's `RequestsViewModel<T>` (`{collection, total}`), read under the
    /// cap. When the body was cut, the records that fit are walked out of
    /// `collection` (Ombi writes it before `total`) and the total is unknown.
    pub async fn get_collection<T: DeserializeOwned>(
        &self,
        acting_user: Option<&str>,
        route: Route,
    ) -> Result<Collection<T>, ToolError> {
        let resp = self.send(acting_user, route).await?;
        parse_collection(&resp).map_err(|e| self.scrub(e))
    }
}

/// Parses a top-level array answer element by element (see [`Upstream::get_array`]).
pub fn parse_array<T: DeserializeOwned>(
    resp: &UpstreamResponse,
) -> Result<Bounded<Vec<T>>, ToolError> {
    let bytes = match resp.payload()? {
        Payload::Null | Payload::Empty => {
            return Ok(Bounded {
                value: Vec::new(),
                cut: false,
            });
        }
        // A JSON `null` list (provider summaries, *arr lists when disabled)
        // is an empty list, like a 204.
        Payload::Json(b) if b.trim_ascii() == b"null" => {
            return Ok(Bounded {
                value: Vec::new(),
                cut: false,
            });
        }
        Payload::Json(b) | Payload::Text(b) => b,
    };
    let mismatch = |what: String| {
        ToolError::new(
            ErrorCode::UpstreamSchemaMismatch,
            format!("Ombi's answer to {} {what}", resp.route),
        )
        .with_status(resp.status)
    };
    let mut scan = ArrayScan::new(bytes);
    let mut items = Vec::new();
    for (i, element) in scan.by_ref().enumerate() {
        let element = element.map_err(|e| match e {
            body::ScanError::NotAnArray if resp.cut => {
                mismatch("exceeded the 8 MiB read limit and is not a list that can be cut".into())
            }
            body::ScanError::NotAnArray => mismatch("is not a JSON array".into()),
            body::ScanError::Malformed(at) => mismatch(format!("is malformed JSON at byte {at}")),
        })?;
        let item = serde_json::from_slice::<T>(element).map_err(|e| {
            mismatch(format!(
                "has an element #{i} without the expected shape ({})",
                message::sanitize(&e.to_string())
            ))
        })?;
        items.push(item);
    }
    if scan.incomplete() && !resp.cut {
        return Err(mismatch("ended in the middle of the list".into()));
    }
    Ok(Bounded {
        value: items,
        cut: scan.incomplete(),
    })
}

/// A `RequestsViewModel` page as read.
#[derive(Debug)]
pub struct Collection<T> {
    pub items: Vec<T>,
    /// Ombi's `total`; `None` when the read was cut.
    pub total: Option<i64>,
    pub cut: bool,
}

impl<T> Default for Collection<T> {
    fn default() -> Self {
        Collection {
            items: Vec::new(),
            total: None,
            cut: false,
        }
    }
}

/// `RequestsViewModel<T>`: `{collection, total}`; `collection` may be null.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireViewModel<T> {
    #[serde(default = "Option::default")]
    collection: Option<Vec<T>>,
    total: Option<i64>,
}

fn parse_collection<T: DeserializeOwned>(
    resp: &UpstreamResponse,
) -> Result<Collection<T>, ToolError> {
    let bytes = match resp.payload()? {
        Payload::Null | Payload::Empty => return Ok(Collection::default()),
        Payload::Json(b) | Payload::Text(b) => b,
    };
    if !resp.cut {
        let vm: WireViewModel<T> =
            serde_json::from_slice(bytes).map_err(|e| resp.shape_error(&e))?;
        return Ok(Collection {
            items: vm.collection.unwrap_or_default(),
            total: vm.total,
            cut: false,
        });
    }
    let mismatch = || {
        ToolError::new(
            ErrorCode::UpstreamSchemaMismatch,
            format!(
                "Ombi's answer to {} exceeded the 8 MiB read limit and has no readable collection",
                resp.route
            ),
        )
    };
    let start = collection_start(bytes).ok_or_else(mismatch)?;
    let mut items = Vec::new();
    for element in ArrayScan::new(&bytes[start..]) {
        let element = element.map_err(|_| mismatch())?;
        items.push(serde_json::from_slice::<T>(element).map_err(|e| resp.shape_error(&e))?);
    }
    Ok(Collection {
        items,
        total: None,
        cut: true,
    })
}

/// Byte offset of the `[` that opens the top-level `"collection"` value.
fn collection_start(b: &[u8]) -> Option<usize> {
    let key = b"\"collection\"";
    let at = b.windows(key.len()).position(|w| w == key)? + key.len();
    let rest = &b[at..];
    let colon = rest.iter().position(|c| !c.is_ascii_whitespace())?;
    if rest[colon] != b':' {
        return None;
    }
    let after = &rest[colon + 1..];
    let open = after.iter().position(|c| !c.is_ascii_whitespace())?;
    (after[open] == b'[').then_some(at + colon + 1 + open)
}

#[cfg(test)]
mod tests {
    use super::collection_start;

    #[test]
    fn finds_the_collection_array_in_a_cut_body() {
        let b = br#"{"collection" : [ {"id": 1}, {"id": 2"#;
        let at = collection_start(b).unwrap();
        assert_eq!(b[at], b'[');
        assert_eq!(collection_start(br#"{"total": 3}"#), None);
        assert_eq!(collection_start(br#"{"collection": null}"#), None);
    }
}
