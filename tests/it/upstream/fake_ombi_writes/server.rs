//! The settings, tester and job routes: whole-object saves, the 4K twin and templates, probes that save
//! nothing on failure, features, jobs, and testers that answer true whatever happened.

use serde_json::json;

use crate::upstream::fake_ombi_writes::{ALICE, As, Ombi};

#[tokio::test]
async fn settings_post_overwrites_the_whole_object() {
    let o = Ombi::start().await;
    assert_eq!(
        o.post_ok(As::Api, "api/v1/Settings/vote", json!({"enabled": true}))
            .await,
        json!(true)
    );
    assert_eq!(
        o.get_ok(As::Api, "api/v1/Settings/vote").await,
        json!({"id": 6, "enabled": true, "movieVoteMax": 0, "musicVoteMax": 0, "tvShowVoteMax": 0})
    );
    // ombi: `wizard` forced on; a changed apiKey is the key from now on.
    let mut ombi = o.get_ok(As::Api, "api/v1/Settings/ombi").await;
    ombi["wizard"] = json!(false);
    assert_eq!(
        o.post_ok(As::Api, "api/v1/Settings/ombi", ombi.clone())
            .await,
        json!(true)
    );
    assert_eq!(
        o.get_ok(As::Api, "api/v1/Settings/ombi").await["wizard"],
        true
    );
    ombi["apiKey"] = json!("");
    assert_eq!(
        o.post_ok(As::Api, "api/v1/Settings/ombi", ombi).await,
        json!(true)
    );
    let r = o.get(As::Api, "api/v1/Settings/ombi").await;
    assert_eq!((r.status, r.body.as_str()), (401, "Invalid API Key"));
}

#[tokio::test]
async fn radarr_needs_its_4k_twin_and_agents_their_templates() {
    let o = Ombi::start().await;
    let saved = o.get_ok(As::Api, "api/v1/Settings/radarr").await;
    let mut hd = saved["radarr"].clone();
    hd["enabled"] = json!(false);
    let r = o
        .post(As::Api, "api/v1/Settings/radarr", json!({"radarr": hd}))
        .await;
    assert_eq!(r.status, 500);
    let now = o.get_ok(As::Api, "api/v1/Settings/radarr").await;
    assert_eq!(now["radarr"]["enabled"], false, "the first save landed");
    assert_eq!(now["radarr4K"], saved["radarr4K"]);
    assert_eq!(
        o.post_ok(As::Api, "api/v1/Settings/radarr", now).await,
        json!(true)
    );
    o.data(|d| assert!(d.writes.triggered_jobs.contains(&"IRadarrSync".to_string())));

    let mut discord = o
        .get_ok(As::Api, "api/v1/Settings/notifications/discord")
        .await;
    let templates = discord["notificationTemplates"].clone();
    discord["username"] = json!("Butler");
    discord
        .as_object_mut()
        .unwrap()
        .remove("notificationTemplates");
    let r = o
        .post(
            As::Api,
            "api/v1/Settings/notifications/discord",
            discord.clone(),
        )
        .await;
    assert_eq!(r.status, 500);
    let now = o
        .get_ok(As::Api, "api/v1/Settings/notifications/discord")
        .await;
    assert_eq!(
        now["username"], "Butler",
        "saved before the templates failed"
    );
    assert_eq!(now["notificationTemplates"], templates);
    discord["notificationTemplates"] = json!([templates[0].clone()]);
    assert_eq!(
        o.post_ok(As::Api, "api/v1/Settings/notifications/discord", discord)
            .await,
        json!(true)
    );
    let now = o
        .get_ok(As::Api, "api/v1/Settings/notifications/discord")
        .await;
    assert_eq!(now["notificationTemplates"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn emby_with_enable_true_is_probed_and_a_failure_saves_nothing() {
    let o = Ombi::start().await;
    let mut emby = o.get_ok(As::Api, "api/v1/Settings/emby").await;
    emby["servers"][0]["name"] = json!("Attic");
    o.data(|d| d.writes.down.insert("emby".into()));
    let before = o.get_ok(As::Api, "api/v1/Settings/emby").await;
    assert_eq!(
        o.post(As::Api, "api/v1/Settings/emby", emby.clone())
            .await
            .status,
        500
    );
    assert_eq!(o.get_ok(As::Api, "api/v1/Settings/emby").await, before);
    o.data(|d| d.writes.down.clear());
    assert_eq!(
        o.post_ok(As::Api, "api/v1/Settings/emby", emby).await,
        json!(true)
    );
    let now = o.get_ok(As::Api, "api/v1/Settings/emby").await;
    assert_eq!(
        (
            now["servers"][0]["name"].clone(),
            now["servers"][0]["administratorId"].clone()
        ),
        (json!("Attic"), json!("e-1"))
    );
}

#[tokio::test]
async fn features_switch_one_named_feature_case_sensitively() {
    let o = Ombi::start().await;
    let r = o
        .post_ok(
            As::Api,
            "api/v2/Features/enable",
            json!({"name": "Movie4KRequests"}),
        )
        .await;
    assert_eq!(
        r,
        json!([{"name": "Movie4KRequests", "enabled": true}, {"name": "PlayedSync", "enabled": false}])
    );
    assert_eq!(
        o.post(
            As::Api,
            "api/v2/Features/disable",
            json!({"name": "movie4krequests"})
        )
        .await
        .status,
        500
    );
    let r = o
        .post_ok(
            As::Api,
            "api/v2/Features/disable",
            json!({"name": "Movie4KRequests"}),
        )
        .await;
    assert_eq!(r[0]["enabled"], false);
}

#[tokio::test]
async fn jobs_answer_true_even_when_skipped_because_running() {
    let o = Ombi::start().await;
    o.data(|d| d.writes.running_jobs.insert("IPlexUserImporter".into()));
    assert_eq!(
        o.post_ok(As::Api, "api/v1/Job/plexuserimporter", json!(null))
            .await,
        json!(true)
    );
    assert_eq!(
        o.post_ok(As::Api, "api/v1/Job/newsletter", json!(null))
            .await,
        json!(true)
    );
    o.data(|d| assert_eq!(d.writes.triggered_jobs, vec!["INewsletterJob".to_string()]));
    // Jobs settings validate every CRON.
    let mut jobs = o.get_ok(As::Api, "api/v1/Settings/jobs").await;
    jobs["radarrSync"] = json!("every day");
    let r = o.post_ok(As::Api, "api/v1/Settings/jobs", jobs).await;
    assert_eq!(
        r,
        json!({"result": false, "message": "RadarrSync does not have a valid CRON Expression"})
    );
}

#[tokio::test]
async fn the_nine_swallowing_testers_answer_true_whatever_happened() {
    let o = Ombi::start().await;
    let discord = o
        .get_ok(As::Api, "api/v1/Settings/notifications/discord")
        .await;
    o.data(|d| d.writes.down.insert("discord".into()));
    assert_eq!(
        o.post_ok(As::Api, "api/v1/Tester/discord", discord.clone())
            .await,
        json!(true)
    );
    assert_eq!(
        o.post_ok(As::Api, "api/v1/Tester/slack", json!({"webhookUrl": ""}))
            .await,
        json!(true)
    );
    o.data(|d| assert!(d.writes.outbox.is_empty(), "nothing was delivered"));
    o.data(|d| d.writes.down.clear());
    assert_eq!(
        o.post_ok(As::Api, "api/v1/Tester/discord", discord).await,
        json!(true)
    );
    o.data(|d| assert_eq!(d.writes.outbox.len(), 1));
    // Email goes to the caller; the bare key's `Api` user has no address.
    let email = o
        .get_ok(As::Api, "api/v1/Settings/notifications/email")
        .await;
    assert_eq!(
        o.post_ok(As::Api, "api/v1/Tester/email", email.clone())
            .await,
        json!(false)
    );
    assert_eq!(
        o.post_ok(ALICE, "api/v1/Tester/email", email.clone()).await,
        json!(true)
    );
    o.data(|d| assert_eq!(d.writes.outbox[1]["to"], d.admin.users[0]["emailAddress"]));
    o.data(|d| d.writes.down.insert("smtp".into()));
    assert_eq!(
        o.post_ok(ALICE, "api/v1/Tester/email", email).await,
        json!(false)
    );
    let radarr = o.get_ok(As::Api, "api/v1/Settings/radarr").await["radarr"].clone();
    let r = o.post_ok(As::Api, "api/v1/Tester/radarr", radarr).await;
    assert_eq!(
        r,
        json!({"isValid": true, "version": null, "expectedSubDir": "zz-leak-subdir", "additionalInformation": null})
    );
    let r = o
        .post_ok(
            As::Api,
            "api/v1/Tester/sonarr",
            json!({"ip": "sonarr.lan", "port": 8989}),
        )
        .await;
    assert_eq!(r["additionalInformation"], "NullApiKey");
}
