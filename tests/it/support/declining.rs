//! A confirmer whose client can be asked and always declines: the person
//! says no to every question.

use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use ombi_mcp::confirm::{Answer, Asker, Confirmation, Confirmer, Mode, Settings};

struct Declines;

impl Asker for Declines {
    fn can_ask(&self) -> bool {
        true
    }
    fn ask<'a>(&'a self, _: &'a Confirmation, _: Duration) -> BoxFuture<'a, Answer> {
        Box::pin(async { Answer::Decline })
    }
}

/// Asks (mode `ask`) a client that declines.
pub fn declining() -> Confirmer {
    Confirmer::new(
        Settings {
            mode: Mode::Ask,
            ..Settings::default()
        },
        Some(Arc::new(Declines)),
    )
}
