//! `read_logs`: the log file list, and a redacted window of lines of one
//! file. Ombi returns a whole file in one answer: it is read under a byte
//! cap and the window is cut here. Never the `/download/` route.

use serde::Deserialize;

use crate::contract::Family;
use crate::contract::Outcome;
use crate::contract::ToolError;
use crate::definition::shape::{ArgDefault, Field, Ty};
use crate::definition::{Bundle, ToolActions, ToolDef};
use crate::projection::logs;
use crate::tools::reply;
use crate::tools::{Actions, CallCtx, Tool};
use crate::upstream::{MAX_BODY_BYTES, Route};

/// Files listed per result (`$defs/logs.files.maxItems`).
const MAX_FILES: usize = 100;

const FILE_ID: Field = Field::opt(
    "file_id",
    Ty::Str { min: 1, max: 200 },
    "Log file id (from `list`).",
);
const OFFSET: Field = Field::opt(
    "offset",
    Ty::Int {
        min: 0,
        max: 10_000_000,
    },
    "First line to return (default 0).",
)
.default(ArgDefault::Int(0));
const LIMIT: Field = Field::opt(
    "limit",
    Ty::Int {
        min: 1,
        max: logs::MAX_LINES as i64,
    },
    "Lines to return, 1–500 (default 100).",
)
.default(ArgDefault::Int(logs::DEFAULT_LINES as i64));
const TAIL: Field = Field::opt(
    "tail",
    Ty::Int {
        min: 1,
        max: logs::MAX_LINES as i64,
    },
    "Return the last N lines (1–500) instead of `offset`/`limit`.",
);
const MATCH: Field = Field::opt(
    "match",
    Ty::Str { min: 1, max: 200 },
    "Keep only lines containing this text (case-insensitive); offsets, limits and `tail` count matching lines.",
);

pub static TOOL: Tool = Tool::new::<Action>(ToolDef {
    name: "read_logs",
    title: "Server logs",
    bundle: Bundle::Administration,
    destructive: false,
    description: "List Ombi's log files (newest first; `modified` is the day of Serilog's daily file, Ombi gives no sizes) and read lines from one, with credentials redacted: `tail` for the last lines, `match` to keep only lines containing a text. Use when diagnosing failures; for a request that failed to reach Radarr/Sonarr/Lidarr, read_requests `retry_queue` names the request and its error first. Log lines can quote untrusted user-provided text.",
    families: &[Family::Logs],
    ..ToolDef::BASE
})
.examples(&[
    (r#"{"action": "list"}"#, true),
    (r#"{"action": "read", "file_id": "log20260502.txt", "limit": 20}"#, true),
])
.invalid(&[
    (r#"{"action": "read", "file_id": "a", "limit": 501}"#, "/limit"),
    (r#"{"action": "read", "file_id": "a.txt", "limit": 501}"#, "/limit"),
]);

/// The actions, as validated arguments deserialize into them.
#[derive(Deserialize, ToolActions)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    /// the log files
    #[action(role = "Admin")]
    List,
    // `offset` and `limit` are lines; validation fills their defaults.
    /// lines of one log file
    #[action(role = "Admin")]
    Read {
        file_id: String,
        offset: usize,
        limit: usize,
        tail: Option<usize>,
        #[serde(rename = "match")]
        needle: Option<String>,
    },
}

impl Actions for Action {
    async fn run(self, ctx: &CallCtx) -> Outcome {
        match self {
            Action::List => list(ctx).await,
            Action::Read {
                file_id,
                offset,
                limit,
                tail,
                needle,
            } => {
                let sel = logs::Selection {
                    offset,
                    limit,
                    tail,
                    needle,
                };
                read(ctx, &file_id, &sel).await
            }
        }
    }
}

/// `GET /api/v2/System/logs` (admin): file names, newest first.
async fn list(ctx: &CallCtx) -> Outcome {
    let names = ctx
        .upstream
        .get_array::<String>(ctx.acting(), Route::get("api/v2/System/logs"))
        .await?;
    let (mut files, skipped) = logs::files(&names.value);
    let mut warnings = Vec::new();
    if skipped > 0 {
        warnings.push(format!(
            "{skipped} log names that are not plain file names were left out"
        ));
    }
    let mut truncated = names.cut;
    if files.len() > MAX_FILES {
        warnings.push(format!(
            "only the newest {MAX_FILES} of {} log files are listed",
            files.len()
        ));
        files.truncate(MAX_FILES);
        truncated = true;
    }
    Ok(reply(
        logs::files_data(&files, truncated),
        warnings,
        truncated,
    ))
}

/// `GET /api/v2/System/logs/{logFileName}` as `text/plain`, at most 8 MiB.
async fn read(ctx: &CallCtx, file: &str, sel: &logs::Selection) -> Outcome {
    if !logs::valid_file_id(file) {
        return Err(ToolError::invalid(
            "/file_id",
            "file_id must be a log file name from the `list` action (no path separators or `..`)",
        )
        .into());
    }
    let text = ctx
        .upstream
        .get_text(
            ctx.acting(),
            Route::get("api/v2/System/logs").seg(file),
            MAX_BODY_BYTES,
        )
        .await?;
    let w = logs::select(&text.value, sel, text.cut);
    Ok(reply(logs::lines_data(&w), w.warnings.clone(), w.truncated))
}
