//! The MCP face of the catalogue: each tool's input schema rendered from its
//! data, and its `rmcp::model::Tool` (built once).

use std::sync::Arc;

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use serde_json::{Map, Value, json};

use super::def::{ActionDef, Confirm, ToolDef};
use super::shape::{ArgDefault, Field, MAX_ID, Ty};

/// Renders one type as a flat JSON Schema fragment.
fn ty_schema(ty: &Ty) -> Map<String, Value> {
    let v = match ty {
        Ty::Str { min, max } => json!({"type": "string", "minLength": min, "maxLength": max}),
        Ty::Date => {
            json!({"type": "string", "format": "date", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"})
        }
        Ty::Enum(labels) => json!({"type": "string", "enum": labels}),
        // An id's upper bound (Ombi's int32) is checked, not advertised: it
        // would be sent in every listing, and no real id comes near it.
        Ty::Int { min, max } if *max == MAX_ID => json!({"type": "integer", "minimum": min}),
        Ty::Int { min, max } => json!({"type": "integer", "minimum": min, "maximum": max}),
        Ty::Bool => json!({"type": "boolean"}),
        // One type per branch, not a type array: tool-schema dialects with a
        // single `type` (Gemini's OpenAPI subset) reject or drop an array.
        Ty::Scalar => json!({"anyOf": [
            {"type": "string"}, {"type": "number"}, {"type": "boolean"}, {"type": "null"}
        ]}),
        Ty::Obj(fields) => {
            let props: Map<String, Value> = fields
                .iter()
                .map(|f| (f.name.to_string(), Value::Object(field_schema(f, None))))
                .collect();
            let required: Vec<&str> = fields
                .iter()
                .filter(|f| f.required)
                .map(|f| f.name)
                .collect();
            let mut o = json!({"type": "object", "properties": props});
            if !required.is_empty() {
                o["required"] = json!(required);
            }
            o["additionalProperties"] = json!(false);
            o
        }
        Ty::Arr { item, min, max } => {
            json!({"type": "array", "items": ty_schema(item), "minItems": min, "maxItems": max})
        }
    };
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

fn field_schema(f: &Field, desc: Option<String>) -> Map<String, Value> {
    let mut m = ty_schema(&f.ty);
    // A field whose name and type say it all (`tmdb_id`, `page.offset`)
    // has no description: every session is sent each word.
    let desc = desc.unwrap_or_else(|| f.desc.to_string());
    if !desc.is_empty() {
        m.insert("description".into(), Value::String(desc));
    }
    match f.default {
        ArgDefault::Str(s) => {
            m.insert("default".into(), json!(s));
        }
        ArgDefault::Int(i) => {
            m.insert("default".into(), json!(i));
        }
        ArgDefault::Bool(b) => {
            m.insert("default".into(), json!(b));
        }
        ArgDefault::None | ArgDefault::Obj => {}
    }
    m
}

/// One line per action, its arguments as a signature in the variant's
/// order: "`similar`(tmdb_id, language?, page?): movies similar to a movie".
/// `?` marks an argument that may be left out, `a|b` alternatives of which
/// exactly one is given, `media=movie/tv` the labels the action accepts
/// (one label: the default, so it may be left out).
fn action_doc(tool: &ToolDef, actions: &[ActionDef]) -> String {
    let mut lines = Vec::new();
    for a in actions {
        let mut line = format!("`{}`", a.name);
        let signature = signature(a);
        if !signature.is_empty() {
            line.push_str(&format!("({signature})"));
        }
        if tool.default_action == Some(a.name) {
            line.push_str(" (default)");
        }
        line.push_str(": ");
        line.push_str(a.doc);
        match a.confirm {
            Confirm::Never => {}
            Confirm::Always => line.push_str(" (asks the person to confirm)"),
            Confirm::When(case) => line.push_str(&format!(" (asks the person to confirm {case})")),
        }
        lines.push(line);
    }
    lines.join("\n")
}

/// "media=movie/tv, tmdb_id|imdb_id, language?" (see [`action_doc`]).
fn signature(a: &ActionDef) -> String {
    let one_of = a.one_of().join("|");
    let mut parts: Vec<String> = Vec::new();
    for arg in a.args {
        if arg.one_of {
            if !one_of.is_empty() && !parts.contains(&one_of) {
                parts.push(one_of.clone());
            }
            continue;
        }
        let optional = arg.optional || arg.field.default != ArgDefault::None;
        let mut part = arg.name().to_string();
        match a.sole_label(arg.name()) {
            Some(label) => part.push_str(&format!("={label}")),
            None => {
                if optional {
                    part.push('?');
                }
                if !arg.only.is_empty() {
                    part.push_str(&format!("={}", arg.only.join("/")));
                }
            }
        }
        parts.push(part);
    }
    parts.join(", ")
}

/// The tool's `inputSchema`: a flat object schema, no top-level combinators.
pub fn input_schema(tool: &ToolDef) -> JsonObject {
    input_schema_of(tool, tool.actions)
}

/// The `inputSchema` of `tool` showing only `actions` (a session's view,
/// `tools::view`): the `action` enum, its description and the arguments are
/// those of these actions; a tool with an `action` argument keeps it even
/// when one action is left, so the same call validates against the whole
/// definition.
pub fn input_schema_of(tool: &ToolDef, actions: &[ActionDef]) -> JsonObject {
    let mut props = Map::new();
    let mut required: Vec<&str> = Vec::new();
    if tool.has_action_arg() {
        let names: Vec<&str> = actions.iter().map(|a| a.name).collect();
        let mut a =
            json!({"type": "string", "enum": names, "description": action_doc(tool, actions)});
        match tool.default_action.filter(|d| names.contains(d)) {
            Some(d) => a["default"] = json!(d),
            None => required.push("action"),
        }
        props.insert("action".into(), a);
    } else {
        required.extend(actions.iter().flat_map(ActionDef::required));
    }
    for f in params_of(actions) {
        props.insert(f.name.into(), Value::Object(field_schema(f, None)));
    }
    let mut schema = Map::new();
    schema.insert("type".into(), json!("object"));
    schema.insert("properties".into(), Value::Object(props));
    if !required.is_empty() {
        schema.insert("required".into(), json!(required));
    }
    schema.insert("additionalProperties".into(), json!(false));
    schema
}

pub fn annotations(tool: &ToolDef) -> ToolAnnotations {
    let write = tool.is_write();
    // No `title` here: the tool's own `title` is what hosts show (MCP
    // 2025-06-18 on); a copy would be sent in every listing.
    ToolAnnotations::new()
        .read_only(!write)
        .destructive(write && tool.destructive)
        .idempotent(!write)
        .open_world(true)
}

/// Every argument of `actions` but `action`, each once, in the order they
/// are first named, the `page` window last (as [`ToolDef::params`]).
fn params_of(actions: &[ActionDef]) -> Vec<&'static Field> {
    let mut fields: Vec<&'static Field> = Vec::new();
    for arg in actions.iter().flat_map(|a| a.args) {
        if !fields.iter().any(|f| f.name == arg.name()) {
            fields.push(arg.field);
        }
    }
    let (page, mut others): (Vec<_>, Vec<_>) = fields.into_iter().partition(|f| f.name == "page");
    others.extend(page);
    others
}

/// The `tools/list` object of a definition.
pub fn build(tool: &ToolDef) -> Tool {
    build_of(tool, tool.actions)
}

/// The `tools/list` object of a definition showing only `actions`.
pub fn build_of(tool: &ToolDef, actions: &[ActionDef]) -> Tool {
    let output = crate::contract::schema::output_schema(tool.name, tool.families);
    Tool::new(
        tool.name,
        tool.description,
        Arc::new(input_schema_of(tool, actions)),
    )
    .with_title(tool.title)
    .with_raw_output_schema(Arc::new(output))
    .with_annotations(annotations(tool))
}
