//! `write_retry_remove`: removing an entry of the retry queue by its queue id.

use serde_json::json;

use crate::support::rig::{Rig, err_code};
use crate::tools::write_paths;

/// By queue id; an unknown one (Ombi: 500) is NOT_FOUND.
#[tokio::test]
async fn retry_remove_takes_the_queue_id() {
    let rig = Rig::start().await;
    let env = rig.ok("write_retry_remove", json!({"queue_id": 7})).await;
    assert_eq!(write_paths(&rig), vec!["DELETE /api/v1/RequestRetry/7"]);
    assert_eq!(
        env["data"],
        json!({"kind": "mutation", "outcome": "completed", "queue_id": 7,
               "message": "removed entry 7 from the retry queue; its request stays as it is"})
    );
    assert!(rig.fake.with_data(|d| d.requests.retry.is_empty()));
    let env = rig.err("write_retry_remove", json!({"queue_id": 7})).await;
    assert_eq!(err_code(&env), "NOT_FOUND");
}
