//! What defines a tool: its name, description, annotations, bundle, result
//! families, arguments and actions ([`ToolDef`]). Each tool's definition lives
//! in its own file under `src/tools/`.

use serde_json::{Map, Value};

use super::bundle::Bundle;
use super::shape::{Field, Ty};
use crate::contract::Family;
use crate::contract::ToolError;

/// One action of a tool and the arguments it takes.
#[derive(Debug, Clone, Copy)]
pub struct ActionDef {
    pub name: &'static str,
    pub doc: &'static str,
    pub required: &'static [&'static str],
    pub optional: &'static [&'static str],
    /// Exactly one of these arguments must be given (alternative ids).
    pub one_of: &'static [&'static str],
    /// Narrower enum labels this action accepts for an argument.
    pub only: &'static [(&'static str, &'static [&'static str])],
}

impl ActionDef {
    pub fn accepts(&self, arg: &str) -> bool {
        self.required.contains(&arg) || self.optional.contains(&arg) || self.one_of.contains(&arg)
    }

    /// The one label this action admits for `arg`, when `only` narrows it to
    /// a single value: such an argument may be omitted and defaults to it
    /// (`media` of a movie-only discover list), so a caller never has to
    /// spell out the only possible answer.
    pub fn sole_label(&self, arg: &str) -> Option<&'static str> {
        match self.only.iter().find(|(name, _)| *name == arg) {
            Some((_, [label])) => Some(label),
            _ => None,
        }
    }
}

pub const fn action(
    name: &'static str,
    doc: &'static str,
    required: &'static [&'static str],
    optional: &'static [&'static str],
) -> ActionDef {
    ActionDef {
        name,
        doc,
        required,
        optional,
        one_of: &[],
        only: &[],
    }
}

impl ActionDef {
    pub const fn one_of(self, one_of: &'static [&'static str]) -> ActionDef {
        ActionDef { one_of, ..self }
    }
    pub const fn only(self, only: &'static [(&'static str, &'static [&'static str])]) -> ActionDef {
        ActionDef { only, ..self }
    }
}

/// A cross-argument rule the table cannot express (e.g. `is_4k` only for movies).
pub type Check = fn(action: &str, args: &Map<String, Value>) -> Result<(), ToolError>;

/// One tool of the catalogue.
#[derive(Debug)]
pub struct ToolDef {
    pub name: &'static str,
    pub title: &'static str,
    pub bundle: Bundle,
    /// The catalogue's D column.
    pub destructive: bool,
    /// For a model choosing tools: what it does and when to use it.
    pub description: &'static str,
    /// Allowed `data` families, in the order of the matrix.
    pub families: &'static [Family],
    /// Every argument except `action`, in schema order.
    pub params: &'static [Field],
    pub actions: &'static [ActionDef],
    /// The action used when `action` is omitted (multi-action tools only).
    pub default_action: Option<&'static str>,
    pub check: Option<Check>,
}

impl ToolDef {
    /// What a tool's definition leaves out when it has no default action and
    /// no cross-argument check: `..ToolDef::BASE` ends every tool's static.
    /// Not a tool itself (no name, no actions: [`ToolDef::inconsistencies`]).
    pub const BASE: ToolDef = ToolDef {
        name: "",
        title: "",
        bundle: Bundle::Core,
        destructive: false,
        description: "",
        families: &[],
        params: &[],
        actions: &[],
        default_action: None,
        check: None,
    };

    pub fn is_write(&self) -> bool {
        self.name.starts_with("write_")
    }

    /// Whether the tool has an `action` argument (more than one action).
    pub fn has_action_arg(&self) -> bool {
        self.actions.len() > 1
    }

    pub fn action(&self, name: &str) -> Option<&'static ActionDef> {
        self.actions.iter().find(|a| a.name == name)
    }

    pub fn param(&self, name: &str) -> Option<&'static Field> {
        self.params.iter().find(|f| f.name == name)
    }
}

impl ToolDef {
    /// Inconsistencies in the definition (a test runs this over every tool):
    /// actions naming unknown arguments, unused arguments, `only` on a
    /// non-enum, families missing from the `$defs` library.
    pub fn inconsistencies(&self) -> Vec<String> {
        let mut found = Vec::new();
        let name = self.name;
        if self.actions.is_empty() {
            found.push(format!("{name}: no actions"));
        }
        for f in self.families {
            if !crate::contract::schema::DEFS.contains_key(f.def_name()) {
                found.push(format!("{name}: family {f:?} has no $defs entry"));
            }
        }
        if let Some(d) = self.default_action
            && self.action(d).is_none()
        {
            found.push(format!("{name}: default action `{d}` is not an action"));
        }
        for a in self.actions {
            for arg in a.required.iter().chain(a.optional).chain(a.one_of) {
                if self.param(arg).is_none() {
                    found.push(format!("{name}.{}: unknown argument `{arg}`", a.name));
                }
            }
            for (arg, labels) in a.only {
                match self.param(arg) {
                    Some(Field {
                        ty: Ty::Enum(all), ..
                    }) if labels.iter().all(|l| all.contains(l)) => {}
                    _ => found.push(format!("{name}.{}: bad `only` on `{arg}`", a.name)),
                }
            }
        }
        for f in self.params {
            if !self.actions.iter().any(|a| a.accepts(f.name)) {
                found.push(format!("{name}: unused argument `{}`", f.name));
            }
        }
        if self.is_write() != (self.families == [Family::Mutation]) {
            found.push(format!("{name}: write tools (only) return `mutation`"));
        }
        found
    }
}
