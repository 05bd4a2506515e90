//! Argument validation against a tool's catalogue entry: every violation is
//! `INVALID_ARGUMENT` with a JSON-Pointer `field` and an actionable message;
//! documented defaults are filled into the resulting [`Args`].

use serde_json::{Map, Value};

use super::args::Args;
use super::def::{ActionDef, ToolDef};
use super::shape::{ArgDefault, Field, Ty, list};
use crate::contract::ToolError;

impl ToolDef {
    /// Validates `arguments` of a `tools/call` and fills defaults.
    pub fn validate(&self, args: Option<&Map<String, Value>>) -> Result<Args, ToolError> {
        let empty = Map::new();
        let args = args.unwrap_or(&empty);

        for key in args.keys() {
            if (key != "action" || !self.has_action_arg()) && self.param(key).is_none() {
                return Err(ToolError::invalid(
                    format!("/{}", escape(key)),
                    format!(
                        "unknown argument `{key}`; {} accepts {}",
                        self.name,
                        self.arg_names()
                    ),
                ));
            }
        }
        let action = self.resolve_action(args)?;

        let mut out = Map::new();
        out.insert("action".into(), Value::String(action.name.into()));
        // Type checks first, in schema order, so the first reported field is stable.
        for field in self.params() {
            if let Some(v) = args.get(field.name) {
                let path = format!("/{}", field.name);
                out.insert(field.name.into(), check_field(field, v, &path)?);
            }
        }
        for field in self.params() {
            if args.contains_key(field.name) && !action.accepts(field.name) {
                return Err(ToolError::invalid(
                    format!("/{}", field.name),
                    format!(
                        "`{}` is not used by action `{}`; it takes {}",
                        field.name,
                        action.name,
                        self.action_args(action)
                    ),
                ));
            }
        }
        for name in action.required() {
            if args.contains_key(name) {
                continue;
            }
            match action.sole_label(name) {
                Some(label) => {
                    out.insert(name.into(), Value::String(label.into()));
                }
                None => return Err(self.missing(action, name)),
            }
        }
        let one_of = action.one_of();
        if !one_of.is_empty() {
            let given: Vec<&str> = one_of
                .iter()
                .copied()
                .filter(|n| args.contains_key(*n))
                .collect();
            match given.as_slice() {
                [_] => {}
                [] => {
                    return Err(ToolError::invalid(
                        format!("/{}", one_of[0]),
                        format!("action `{}` needs one of {}", action.name, list(&one_of)),
                    ));
                }
                [_, second, ..] => {
                    return Err(ToolError::invalid(
                        format!("/{second}"),
                        format!("give only one of {} (got {})", list(&one_of), list(&given)),
                    ));
                }
            }
        }
        for (name, allowed) in action.only() {
            if let Some(label) = args.get(name).and_then(Value::as_str)
                && !allowed.contains(&label)
            {
                return Err(ToolError::invalid(
                    format!("/{name}"),
                    format!(
                        "action `{}` takes `{name}` {}, not `{label}`",
                        action.name,
                        list(allowed)
                    ),
                ));
            }
        }
        if let Some(rule) = self.check {
            rule(action.name, &out)?;
        }
        // Defaults only for arguments the action takes, so a default never
        // makes an argument look given to another action.
        for field in self.params() {
            if action.accepts(field.name)
                && !out.contains_key(field.name)
                && let Some(v) = default_value(field)
            {
                out.insert(field.name.into(), v);
            }
        }
        Ok(Args::new(out))
    }

    /// The action a call's arguments name (its default when they name
    /// none), if it is one of this tool's.
    pub fn action_of(&self, args: Option<&Map<String, Value>>) -> Option<&'static ActionDef> {
        self.resolve_action(args.unwrap_or(&Map::new())).ok()
    }

    fn resolve_action(&self, args: &Map<String, Value>) -> Result<&'static ActionDef, ToolError> {
        let names: Vec<&str> = self.actions.iter().map(|a| a.name).collect();
        if !self.has_action_arg() {
            return Ok(&self.actions[0]);
        }
        let name = match args.get("action") {
            None => self.default_action.ok_or_else(|| {
                ToolError::invalid(
                    "/action",
                    format!("`action` is required; one of {}", list(&names)),
                )
            })?,
            Some(Value::String(s)) => s.as_str(),
            Some(other) => {
                return Err(ToolError::invalid(
                    "/action",
                    format!(
                        "`action` must be a string, one of {}; got {}",
                        list(&names),
                        kind_of(other)
                    ),
                ));
            }
        };
        self.action(name).ok_or_else(|| {
            ToolError::invalid(
                "/action",
                format!(
                    "unknown action `{}`; {} has {}",
                    clip(name),
                    self.name,
                    list(&names)
                ),
            )
        })
    }

    fn missing(&self, action: &ActionDef, name: &str) -> ToolError {
        let hint = self.param(name).map(|f| f.ty.hint()).unwrap_or_default();
        let msg = if self.has_action_arg() {
            format!("action `{}` needs `{name}` ({hint})", action.name)
        } else {
            format!("`{name}` is required ({hint})")
        };
        ToolError::invalid(format!("/{name}"), msg)
    }

    fn arg_names(&self) -> String {
        let mut names: Vec<&str> = Vec::new();
        if self.has_action_arg() {
            names.push("action");
        }
        names.extend(self.params().map(|f| f.name));
        list(&names)
    }

    fn action_args(&self, action: &ActionDef) -> String {
        let names: Vec<&str> = self
            .params()
            .map(|f| f.name)
            .filter(|n| action.accepts(n))
            .collect();
        if names.is_empty() {
            "no other arguments".into()
        } else {
            list(&names)
        }
    }
}

fn default_value(field: &Field) -> Option<Value> {
    match field.default {
        ArgDefault::None => None,
        ArgDefault::Str(s) => Some(Value::String(s.into())),
        ArgDefault::Int(i) => Some(Value::from(i)),
        ArgDefault::Bool(b) => Some(Value::Bool(b)),
        ArgDefault::Obj => {
            let Ty::Obj(fields) = field.ty else {
                return None;
            };
            Some(Value::Object(
                fields
                    .iter()
                    .filter_map(|f| default_value(f).map(|v| (f.name.to_string(), v)))
                    .collect(),
            ))
        }
    }
}

/// [`check`] for a named field; a secret field's value is never echoed:
/// its error says only what was expected.
fn check_field(field: &Field, v: &Value, path: &str) -> Result<Value, ToolError> {
    check(&field.ty, v, path).map_err(|e| {
        if field.secret {
            ToolError::invalid(
                path,
                format!("`{}` must be {}", name_of(path), field.ty.hint()),
            )
        } else {
            e
        }
    })
}

/// Checks `v` against `ty` and returns it with nested defaults filled.
fn check(ty: &Ty, v: &Value, path: &str) -> Result<Value, ToolError> {
    let bad = || {
        ToolError::invalid(
            path,
            format!(
                "`{}` must be {}; got {}",
                name_of(path),
                ty.hint(),
                kind_of(v)
            ),
        )
    };
    match ty {
        Ty::Str { min, max } => {
            let s = v.as_str().ok_or_else(bad)?;
            let n = s.chars().count();
            if n < *min || n > *max {
                return Err(ToolError::invalid(
                    path,
                    format!(
                        "`{}` must be {}; got {n} characters",
                        name_of(path),
                        ty.hint()
                    ),
                ));
            }
        }
        Ty::Date => {
            let s = v.as_str().ok_or_else(bad)?;
            if !is_iso_date(s) {
                return Err(ToolError::invalid(
                    path,
                    format!(
                        "`{}` must be {}; got `{}`",
                        name_of(path),
                        ty.hint(),
                        clip(s)
                    ),
                ));
            }
        }
        Ty::Enum(labels) => {
            let s = v.as_str().ok_or_else(bad)?;
            if !labels.contains(&s) {
                return Err(ToolError::invalid(
                    path,
                    format!(
                        "`{}` must be one of {}; got `{}`",
                        name_of(path),
                        list(labels),
                        clip(s)
                    ),
                ));
            }
        }
        Ty::Int { min, max } => {
            // JSON integers only: `as_i64` is None for 1.5, "3", true and for
            // integers beyond i64 (u64 values are out of every range anyway).
            let n = match v {
                Value::Number(n) if n.is_i64() || n.is_u64() => n.as_i64().unwrap_or(i64::MAX),
                _ => return Err(bad()),
            };
            if n < *min || n > *max {
                return Err(ToolError::invalid(
                    path,
                    format!("`{}` must be {}; got {n}", name_of(path), ty.hint()),
                ));
            }
        }
        Ty::Bool => {
            v.as_bool().ok_or_else(bad)?;
        }
        Ty::Scalar => {
            if v.is_object() || v.is_array() {
                return Err(bad());
            }
        }
        Ty::Obj(fields) => {
            let obj = v.as_object().ok_or_else(bad)?;
            let mut out = Map::new();
            for key in obj.keys() {
                if Field::find(fields, key).is_none() {
                    let names: Vec<&str> = fields.iter().map(|f| f.name).collect();
                    return Err(ToolError::invalid(
                        format!("{path}/{}", escape(key)),
                        format!(
                            "unknown field `{}` in `{}`; allowed: {}",
                            clip(key),
                            name_of(path),
                            list(&names)
                        ),
                    ));
                }
            }
            for f in fields.iter() {
                let sub = format!("{path}/{}", f.name);
                match obj.get(f.name) {
                    Some(x) => {
                        out.insert(f.name.into(), check_field(f, x, &sub)?);
                    }
                    None if f.required => {
                        return Err(ToolError::invalid(
                            sub,
                            format!("`{}` needs `{}` ({})", name_of(path), f.name, f.ty.hint()),
                        ));
                    }
                    None => {
                        if let Some(d) = default_value(f) {
                            out.insert(f.name.into(), d);
                        }
                    }
                }
            }
            return Ok(Value::Object(out));
        }
        Ty::Arr { item, min, max } => {
            let arr = v.as_array().ok_or_else(bad)?;
            if arr.len() < *min || arr.len() > *max {
                return Err(ToolError::invalid(
                    path,
                    format!(
                        "`{}` must have {min}–{max} items; got {}",
                        name_of(path),
                        arr.len()
                    ),
                ));
            }
            let items = arr
                .iter()
                .enumerate()
                .map(|(i, x)| check(item, x, &format!("{path}/{i}")))
                .collect::<Result<Vec<_>, _>>()?;
            return Ok(Value::Array(items));
        }
    }
    Ok(v.clone())
}

/// The last named segment of a path, for messages (`/page/limit` → `page.limit`).
fn name_of(path: &str) -> String {
    path.trim_start_matches('/').replace('/', ".")
}

fn kind_of(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("boolean {b}"),
        Value::Number(n) => format!("number {n}"),
        Value::String(s) => format!("string `{}`", clip(s)),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// Caller text echoed in a message stays short.
fn clip(s: &str) -> String {
    if s.chars().count() > 40 {
        format!("{}…", s.chars().take(40).collect::<String>())
    } else {
        s.to_string()
    }
}

/// JSON Pointer escaping of one segment.
fn escape(key: &str) -> String {
    clip(&key.replace('~', "~0").replace('/', "~1"))
}

fn is_iso_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    if !(digits(0..4) && digits(5..7) && digits(8..10)) {
        return false;
    }
    let month: u32 = s[5..7].parse().unwrap_or(0);
    let day: u32 = s[8..10].parse().unwrap_or(0);
    (1..=12).contains(&month) && (1..=31).contains(&day)
}
