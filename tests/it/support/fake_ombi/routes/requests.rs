//! Requests: the v2 paged lists, gets, children, searches, recent, retry
//! queue, counts/totals/quotas, stats (reads). The writes are in
//! writes_core.rs and writes_moderation.rs.

use axum::response::Response;

use super::super::{error_500, json, problem_400};
use super::{Access, Ctx, RouteDef};

#[path = "requests_reads.rs"]
mod reads;

pub fn routes() -> Vec<RouteDef> {
    vec![
        // reads (requests_reads.rs)
        RouteDef {
            method: "GET",
            template: "api/v2/Requests/recentlyRequested",
            access: Access::Authenticated,
            handler: reads::recent,
        },
        RouteDef {
            method: "GET",
            template: "api/v2/Requests/{media}/{count:int}/{position:int}/{sort}/{sortOrder}",
            access: Access::Authenticated,
            handler: reads::v2_list,
        },
        RouteDef {
            method: "GET",
            template: "api/v2/Requests/{media}/{status}/{count:int}/{position:int}/{sort}/{sortOrder}",
            access: Access::Authenticated,
            handler: reads::v2_list,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Request/movie",
            access: Access::Authenticated,
            handler: reads::movie_all,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/request/music",
            access: Access::Authenticated,
            handler: reads::album_all,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Request/tv",
            access: Access::Authenticated,
            handler: reads::tv_all,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Request/tv/{requestId:int}",
            access: Access::Authenticated,
            handler: reads::tv_parent,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Request/tv/{requestId:int}/child",
            access: Access::Authenticated,
            handler: reads::tv_children,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Request/tvlite/{count:int}/{position:int}/{orderType:int}/{statusFilterType:int}/{availabilityFilterType:int}",
            access: Access::Authenticated,
            handler: reads::tvlite_page,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Request/movie/search/{searchTerm}",
            access: Access::Authenticated,
            handler: reads::movie_search,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Request/tv/search/{searchTerm}",
            access: Access::Authenticated,
            handler: reads::tv_search,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/request/music/search/{searchTerm}",
            access: Access::Authenticated,
            handler: reads::album_search,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/RequestRetry",
            access: Access::Admin,
            handler: reads::retry_queue,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Request/{media}/total",
            access: Access::Authenticated,
            handler: reads::total,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/request/music/total",
            access: Access::Authenticated,
            handler: reads::total,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Request/{media}/remaining",
            access: Access::Authenticated,
            handler: reads::remaining,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/request/music/remaining",
            access: Access::Authenticated,
            handler: reads::remaining,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Stats",
            access: Access::Admin,
            handler: reads::stats,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Lidarr/enabled",
            access: Access::Anonymous,
            handler: reads::lidarr_enabled,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Request/movie/info/{requestId}",
            access: Access::Authenticated,
            handler: movie_info,
        },
    ]
}

pub(crate) const NRE: &str = "Object reference not set to an instance of an object.";

/// Unknown id: `FillAdditionalFields` dereferences null → 500.
fn movie_info(ctx: &Ctx) -> Response {
    let Ok(id) = ctx.param("requestId").parse::<i64>() else {
        return problem_400(
            "requestId",
            &format!("The value '{}' is not valid.", ctx.param("requestId")),
        );
    };
    match ctx.shared.data.lock().unwrap().movie_request(id) {
        Some(r) => json(r.clone()),
        None => error_500(NRE),
    }
}
