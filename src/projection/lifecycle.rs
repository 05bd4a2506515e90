//! What a request record says beyond its flags (docs/ombi-notes.md,
//! "Request dates and the 4K side"): when it was approved, made available
//! or denied (Ombi's `MarkedAs*` columns), a movie's 4K side as a lifecycle
//! of its own, a season request that is partly on the media server, and
//! whether a side can still be approved.

use serde::{Deserialize, Serialize};

use super::wire::{date, text};

/// The dates and the 4K side of one `$defs/request` record (flattened into
/// it; every field absent where Ombi holds nothing).
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Lifecycle {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub approved_date: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub available_date: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub denied_date: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requested_date_4k: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub approved_date_4k: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub available_date_4k: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub denied_reason_4k: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status_text_4k: Option<String>,
}

/// Ombi's `MarkedAs*` columns of one side, as read.
pub struct Marks {
    pub approved: Option<String>,
    pub available: Option<String>,
    pub denied: Option<String>,
}

impl Marks {
    /// Each date only where its flag holds: Ombi stores `MarkedAsApproved`
    /// and `MarkedAsDenied` as non-null columns (0001-01-01 when never set,
    /// and v4.59.3 never writes `MarkedAsDenied`), and keeps an old
    /// `MarkedAsAvailable` after a request is marked unavailable again.
    pub fn dates(
        self,
        approved: Option<bool>,
        available: Option<bool>,
        denied: Option<bool>,
    ) -> [Option<String>; 3] {
        let when = |flag: Option<bool>, d: Option<String>| date(d).filter(|_| flag == Some(true));
        [
            when(approved, self.approved),
            when(available, self.available),
            when(denied, self.denied),
        ]
    }
}

/// A side's state in words, by the rule of Ombi's `RequestStatus` getter
/// (`MovieRequests.cs`), which Ombi applies to the HD side only.
pub fn status_words(approved: bool, available: bool, denied: bool) -> &'static str {
    if available {
        "Available"
    } else if denied {
        "Denied"
    } else if approved {
        "Processing request"
    } else {
        "Pending approval"
    }
}

/// The 4K side of a movie request that has one.
pub struct FourK {
    pub approved: Option<bool>,
    pub available: Option<bool>,
    pub denied: Option<bool>,
    pub requested_date: Option<String>,
    pub denied_reason: Option<String>,
    pub marks: Marks,
}

impl Lifecycle {
    /// Fills the 4K fields from a movie's 4K side.
    pub fn set_4k(&mut self, k: FourK) {
        let [approved, available, _denied] = k.marks.dates(k.approved, k.available, k.denied);
        self.requested_date_4k = date(k.requested_date);
        self.approved_date_4k = approved;
        self.available_date_4k = available;
        self.denied_reason_4k = text(k.denied_reason).filter(|_| k.denied == Some(true));
        self.status_text_4k = Some(
            status_words(
                k.approved == Some(true),
                k.available == Some(true),
                k.denied == Some(true),
            )
            .into(),
        );
    }
}

/// "Partly available: 2 of 12 episodes" for a season request some (not
/// all) of whose episodes are on the media server, while Ombi's own status
/// still says pending or processing; `None` otherwise.
pub fn partly_available(
    r: &super::requests::RequestRecord,
    on_server: usize,
    requested: usize,
) -> Option<String> {
    let settled = r.available == Some(true) || r.denied == Some(true);
    (!settled && on_server > 0 && on_server < requested)
        .then(|| format!("Partly available: {on_server} of {requested} episodes"))
}

/// Whether a side that was asked for can still be approved (Ombi's
/// `BaseRequest.CanApprove` rule, `!Approved && !Available`, per side).
pub fn approvable(approved: Option<bool>, available: Option<bool>) -> Option<bool> {
    Some(!approved? && !available?)
}
