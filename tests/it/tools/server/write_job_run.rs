//! `write_job_run`: a job Ombi skipped because it was running is still accepted, and said so.

use serde_json::json;

use crate::support::declining::declining;
use crate::support::rig::Rig;
use crate::tools::write_paths;

/// Ombi answers `true` whether it started the job or skipped it because it
/// was running: `accepted` both times, never `completed`.
#[tokio::test]
async fn job_run_is_accepted_even_when_ombi_skipped_it() {
    let rig = Rig::start().await;
    let env = rig
        .ok("write_job_run", json!({"job": "plexuserimporter"}))
        .await;
    assert_eq!(env["data"]["outcome"], "accepted");
    assert_eq!(write_paths(&rig), vec!["POST /api/v1/Job/plexuserimporter"]);
    assert_eq!(
        rig.fake.with_data(|d| d.writes.triggered_jobs.clone()),
        vec!["IPlexUserImporter"]
    );

    rig.fake.with_data(|d| {
        d.writes.running_jobs.insert("IPlexUserImporter".into());
    });
    let env = rig
        .ok("write_job_run", json!({"job": "plexuserimporter"}))
        .await;
    assert_eq!(env["data"]["outcome"], "accepted");
    assert!(
        env["data"]["message"]
            .as_str()
            .unwrap()
            .contains("already running"),
        "{env}"
    );
    assert_eq!(
        rig.fake.with_data(|d| d.writes.triggered_jobs.len()),
        1,
        "skipped"
    );
    // The Plex content job goes to the scheduler directly: no skip to claim.
    let env = rig
        .ok("write_job_run", json!({"job": "plexcontentcacher"}))
        .await;
    assert!(
        !env["data"]["message"].as_str().unwrap().contains("skipped"),
        "{env}"
    );

    for job in ["clearmediaserverdata", "autodeleterequests", "update"] {
        let env = rig.err("write_job_run", json!({"job": job})).await;
        assert_eq!(env["error"]["field"], "/job");
    }
    assert_eq!(write_paths(&rig).len(), 3);
}

/// Results say what the job does in words (not only Ombi's route name) and
/// roughly how long it takes; a library sync runs without a question, the
/// newsletter (it e-mails every subscriber) asks first and a refusal sends
/// nothing.
#[tokio::test]
async fn jobs_are_named_in_words_and_only_those_reaching_people_ask() {
    let mut rig = Rig::start().await;
    rig.ctx.confirmer = declining();
    let env = rig
        .ok("write_job_run", json!({"job": "plexcontentcacher"}))
        .await;
    let message = env["data"]["message"].as_str().unwrap();
    assert!(
        message.contains("a full Plex library sync (plexcontentcacher)"),
        "{message}"
    );
    assert!(message.contains("minutes to an hour"), "{message}");
    let env = rig.err("write_job_run", json!({"job": "newsletter"})).await;
    let refusal = env["error"]["message"].as_str().unwrap();
    assert!(refusal.starts_with("Not confirmed:"), "{refusal}");
    assert_eq!(
        write_paths(&rig),
        vec!["POST /api/v1/Job/plexcontentcacher"]
    );
}
