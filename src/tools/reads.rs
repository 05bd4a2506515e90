//! The bounded reads every handler shares, each worded once: one JSON value,
//! a write's raw answer, top-level lists and Ombi's paged collections under
//! the 8 MiB cap (with the one read-limit warning), Ombi's `*/enabled`
//! switches and the Lidarr gate. All act as the call's acting user.

use serde::de::DeserializeOwned;

use super::CallCtx;
use crate::contract::{ErrorCode, ToolError};
use crate::upstream::{Answer, Bounded, Collection, Route};

/// Ombi's switch for music (anonymous, a bool).
const LIDARR_ENABLED: &str = "api/v1/Lidarr/enabled";

/// Why a Lidarr-backed route cannot be used.
pub const NO_LIDARR: &str =
    "this needs Lidarr, which is not enabled in this Ombi (Settings → Lidarr)";

/// Notes a read cut by the upstream read limit, in the one wording.
pub fn note_read_limit(cut: bool, warnings: &mut Vec<String>) {
    if cut {
        warnings.push(
            "Ombi's answer exceeded the 8 MiB read limit; only the records read within it are used"
                .into(),
        );
    }
}

impl CallCtx {
    /// One JSON value (`None` for Ombi's 204/null).
    pub async fn get_json<T: DeserializeOwned>(
        &self,
        route: Route,
    ) -> Result<Option<T>, ToolError> {
        self.upstream.get_json(self.acting(), route).await
    }

    /// A write's answer as Ombi gave it, not yet checked, for the writes
    /// that interpret it themselves ([`crate::upstream::Upstream::write_answer`]).
    pub async fn write_answer<R: DeserializeOwned>(
        &self,
        route: Route,
    ) -> Result<Answer<R>, ToolError> {
        self.upstream.write_answer(self.acting(), route).await
    }

    /// A top-level array read under the read cap; a cut read adds the
    /// read-limit warning (and leaves `cut` set for the caller's paging).
    pub async fn read_list<T: DeserializeOwned>(
        &self,
        route: Route,
        warnings: &mut Vec<String>,
    ) -> Result<Bounded<Vec<T>>, ToolError> {
        let got = self.upstream.get_array::<T>(self.acting(), route).await?;
        note_read_limit(got.cut, warnings);
        Ok(got)
    }

    /// `RequestsViewModel<T>` (`{collection, total}`), read under the cap;
    /// the caller notes a cut (`note_read_limit`) where it reports a page.
    pub async fn read_collection<T: DeserializeOwned>(
        &self,
        route: Route,
    ) -> Result<Collection<T>, ToolError> {
        self.upstream.get_collection(self.acting(), route).await
    }

    /// One of Ombi's `*/enabled` switches; a missing answer counts as off.
    pub async fn switch_on(&self, path: &'static str) -> Result<bool, ToolError> {
        Ok(self
            .get_json::<bool>(Route::get(path))
            .await?
            .unwrap_or(false))
    }

    /// Whether Lidarr (music) is enabled.
    pub async fn lidarr_enabled(&self) -> Result<bool, ToolError> {
        self.switch_on(LIDARR_ENABLED).await
    }

    /// The v1 music search routes call Lidarr and answer a 500 without it:
    /// say why up front. (The v2 MusicBrainz lookups and the album request
    /// reads work without it: docs/ombi-notes.md.)
    pub async fn require_lidarr(&self) -> Result<(), ToolError> {
        if self.lidarr_enabled().await? {
            Ok(())
        } else {
            Err(ToolError::new(ErrorCode::UnsupportedCapability, NO_LIDARR))
        }
    }
}
