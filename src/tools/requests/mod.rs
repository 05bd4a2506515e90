//! Media requests: reading, creating, voting on, subscribing to, moderating,
//! re-processing and deleting them, and the retry queue. The reads and the
//! words the tools share are `reads.rs`, `words.rs` and `votes.rs`.

pub mod reads;
pub mod votes;
pub mod words;

pub mod read_request_stats;
pub mod read_requests;
pub mod read_votes;
pub mod write_request_create;
pub mod write_request_delete;
pub mod write_request_moderate;
pub mod write_request_options;
pub mod write_request_reprocess;
pub mod write_request_subscribe;
pub mod write_retry_remove;
pub mod write_vote;
