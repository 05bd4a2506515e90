//! `GET /api/v2/System/logs` (names, newest first) and
//! `GET /api/v2/System/logs/{logFileName}`: the whole file as `text/plain`
//! (a JSON string with `Accept: application/json`), 404 when missing.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::super::json;
use super::{Access, Ctx, RouteDef};

pub fn routes() -> Vec<RouteDef> {
    vec![
        RouteDef {
            method: "GET",
            template: "api/v2/System/logs",
            access: Access::Admin,
            handler: list,
        },
        RouteDef {
            method: "GET",
            template: "api/v2/System/logs/{logFileName}",
            access: Access::Admin,
            handler: read,
        },
    ]
}

fn list(ctx: &Ctx) -> Response {
    let data = ctx.shared.data.lock().unwrap();
    json(Value::Array(
        data.admin.logs.iter().map(|(n, _)| json!(n)).collect(),
    ))
}

fn read(ctx: &Ctx) -> Response {
    let data = ctx.shared.data.lock().unwrap();
    let Some((_, text)) = data
        .admin
        .logs
        .iter()
        .find(|(n, _)| n == ctx.param("logFileName"))
    else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let wants_json = ctx
        .call
        .headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|a| a.contains("json"));
    if wants_json {
        return json(json!(text));
    }
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        text.clone(),
    )
        .into_response()
}
