//! Wizard state, media-server status, release feed, the updater check and
//! the cron validator. (Status, Status/info, Settings/about and Features
//! are in core.rs.)

use axum::response::Response;
use serde::Deserialize;
use serde_json::json;

use super::super::{json, problem_400};
use super::{Access, Ctx, RouteDef};

pub fn routes() -> Vec<RouteDef> {
    vec![
        RouteDef {
            method: "GET",
            template: "api/v1/Status/Wizard",
            access: Access::Anonymous,
            handler: wizard,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/LandingPage",
            access: Access::Anonymous,
            handler: landing,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Update",
            access: Access::Anonymous,
            handler: update,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Job/update",
            access: Access::Admin,
            handler: updater_check,
        },
        RouteDef {
            method: "POST",
            template: "api/v1/Settings/testcron",
            access: Access::Admin,
            handler: testcron,
        },
    ]
}

fn wizard(ctx: &Ctx) -> Response {
    json(json!({"result": ctx.shared.data.lock().unwrap().admin.wizard_completed}))
}

fn landing(ctx: &Ctx) -> Response {
    json(ctx.shared.data.lock().unwrap().admin.landing.clone())
}

fn update(ctx: &Ctx) -> Response {
    json(ctx.shared.data.lock().unwrap().admin.update.clone())
}

fn updater_check(ctx: &Ctx) -> Response {
    json(json!(ctx.shared.data.lock().unwrap().admin.updater_check))
}

#[derive(Deserialize)]
struct CronBody {
    expression: Option<String>,
}

/// What the fake accepts as a Quartz CRON expression: 6 or 7 fields.
pub fn quartz_valid(expr: &str) -> bool {
    (6..=7).contains(&expr.split_whitespace().count())
}

/// `{success, message}` either way.
fn testcron(ctx: &Ctx) -> Response {
    let Some(body) = ctx.body::<CronBody>() else {
        return problem_400("expression", "The expression field is required.");
    };
    let expr = body.expression.unwrap_or_default();
    let fields = expr.split_whitespace().count();
    if quartz_valid(&expr) {
        json(json!({"success": true, "message": "Next fire: 2026-05-03T00:00:00Z"}))
    } else {
        json(
            json!({"success": false, "message": format!("Unexpected end of expression ({fields} fields)")}),
        )
    }
}
