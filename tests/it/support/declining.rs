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

/// Declines like [`declining`] and keeps every question's message, as the
/// client would have shown it.
struct Records(Arc<std::sync::Mutex<Vec<String>>>);

impl Asker for Records {
    fn can_ask(&self) -> bool {
        true
    }
    fn ask<'a>(&'a self, question: &'a Confirmation, _: Duration) -> BoxFuture<'a, Answer> {
        self.0
            .lock()
            .expect("questions")
            .push(question.message.clone());
        Box::pin(async { Answer::Decline })
    }
}

/// A declining confirmer, and the questions it was asked.
pub fn recording() -> (Confirmer, Arc<std::sync::Mutex<Vec<String>>>) {
    let asked = Arc::new(std::sync::Mutex::new(Vec::new()));
    let confirmer = Confirmer::new(
        Settings {
            mode: Mode::Ask,
            ..Settings::default()
        },
        Some(Arc::new(Records(asked.clone()))),
    );
    (confirmer, asked)
}
