//! What defines a tool: its name, description, annotations, bundle, result
//! families, arguments and actions ([`ToolDef`]). Each tool's definition lives
//! in its own file under `src/tools/`.

use serde_json::{Map, Value};

use super::bundle::Bundle;
use super::role::Role;
use super::shape::{ArgDefault, Field, Ty};
use crate::contract::Family;
use crate::contract::ToolError;

/// One action of a tool, as its typed variant declares it
/// (`#[derive(ToolActions)]`, `ombi-mcp-macros`): the arguments it takes,
/// whether it asks the person first, and what its result links to.
#[derive(Debug, Clone, Copy)]
pub struct ActionDef {
    pub name: &'static str,
    pub doc: &'static str,
    /// In the variant's field order.
    pub args: &'static [ArgDef],
    pub confirm: Confirm,
    /// The resource a successful result links to (`resource_link`).
    pub links: Option<Link>,
    /// The Ombi role its routes need (`#[action(role = "…")]`; docs/roles.md).
    pub role: Role,
}

/// One argument of an action: its shape (name, type, bounds, description,
/// default), and how this action takes it.
#[derive(Debug, Clone, Copy)]
pub struct ArgDef {
    pub field: &'static Field,
    /// `Option<T>` in the variant: the action works without it.
    pub optional: bool,
    /// One of the action's alternative arguments, of which exactly one is given.
    pub one_of: bool,
    /// The labels of an enum argument this action accepts (empty: all).
    pub only: &'static [&'static str],
}

impl ArgDef {
    pub fn name(&self) -> &'static str {
        self.field.name
    }
}

/// Whether an action asks the person at the client before it acts
/// (`src/confirm.rs`; the table in docs/security.md is made from these).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confirm {
    Never,
    Always,
    /// In the case these words name ("when it changes roles").
    When(&'static str),
}

/// The resource a write's result links to, when the write names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Link {
    /// `ombi://request/{kind}/{id}` of the request the result's `target` names.
    Request,
    /// `ombi://issue/{id}` of the issue the result's `issue_id` names.
    Issue,
}

/// A tool's actions enum, declared with `#[derive(ToolActions)]`.
pub trait Declared {
    const ACTIONS: &'static [ActionDef];
}

/// Whether a shape's name is its field's (the derive's compile-time check).
pub const fn same_name(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

impl ActionDef {
    pub fn arg(&self, name: &str) -> Option<&'static ArgDef> {
        self.args.iter().find(|a| a.name() == name)
    }

    pub fn accepts(&self, arg: &str) -> bool {
        self.arg(arg).is_some()
    }

    /// The arguments the action cannot do without (those with a default
    /// are filled in by validation, so they are optional to the caller).
    pub fn required(&self) -> impl Iterator<Item = &'static str> + use<> {
        self.args
            .iter()
            .filter(|a| !a.optional && !a.one_of && a.field.default == ArgDefault::None)
            .map(ArgDef::name)
    }

    /// The arguments a caller may leave out.
    pub fn optional(&self) -> impl Iterator<Item = &'static str> + use<> {
        self.args
            .iter()
            .filter(|a| !a.one_of && (a.optional || a.field.default != ArgDefault::None))
            .map(ArgDef::name)
    }

    /// The alternative arguments, of which exactly one must be given.
    pub fn one_of(&self) -> Vec<&'static str> {
        self.args
            .iter()
            .filter(|a| a.one_of)
            .map(ArgDef::name)
            .collect()
    }

    /// The enum arguments this action narrows, with the labels it accepts.
    pub fn only(&self) -> impl Iterator<Item = (&'static str, &'static [&'static str])> + use<> {
        self.args
            .iter()
            .filter(|a| !a.only.is_empty())
            .map(|a| (a.name(), a.only))
    }

    /// The one label this action admits for `arg`, when `only` narrows it to
    /// a single value: such an argument may be omitted and defaults to it
    /// (`media` of a movie-only discover list), so a caller never has to
    /// spell out the only possible answer.
    pub fn sole_label(&self, arg: &str) -> Option<&'static str> {
        match self.arg(arg).map(|a| a.only) {
            Some([label]) => Some(label),
            _ => None,
        }
    }
}

/// The paging window's name: it comes last in every schema.
const PAGE_ARG: &str = "page";

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
    /// From the tool's actions enum (`Tool::new`).
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

    /// Every argument except `action`, each once, in schema order: the
    /// order the actions first name them, the `page` window last.
    pub fn params(&self) -> impl Iterator<Item = &'static Field> + use<> {
        let firsts = self.first_uses();
        let others = firsts.clone().filter(|f| f.name != PAGE_ARG);
        others.chain(firsts.filter(|f| f.name == PAGE_ARG))
    }

    /// Each argument's shape where an action first names it.
    fn first_uses(&self) -> impl Iterator<Item = &'static Field> + Clone + use<> {
        let actions = self.actions;
        actions.iter().enumerate().flat_map(move |(i, a)| {
            a.args.iter().enumerate().filter_map(move |(j, arg)| {
                let earlier = actions[..i].iter().any(|b| b.accepts(arg.name()))
                    || a.args[..j].iter().any(|b| b.name() == arg.name());
                (!earlier).then_some(arg.field)
            })
        })
    }

    pub fn param(&self, name: &str) -> Option<&'static Field> {
        self.actions
            .iter()
            .find_map(|a| a.arg(name))
            .map(|a| a.field)
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
            for arg in a.args {
                // One argument, one shape: the schema shows each name once.
                if self.param(arg.name()) != Some(arg.field) {
                    found.push(format!(
                        "{name}.{}: `{}` has another shape than in an earlier action",
                        a.name,
                        arg.name()
                    ));
                }
                if arg.optional && arg.field.default != ArgDefault::None {
                    found.push(format!(
                        "{name}.{}: `{}` is an Option but its shape has a default (make it plain)",
                        a.name,
                        arg.name()
                    ));
                }
                match (arg.only, arg.field.ty) {
                    ([], _) => {}
                    (labels, Ty::Enum(all)) if labels.iter().all(|l| all.contains(l)) => {}
                    _ => found.push(format!("{name}.{}: bad `only` on `{}`", a.name, arg.name())),
                }
            }
            if a.one_of().len() == 1 {
                found.push(format!(
                    "{name}.{}: `one_of` needs two or more arguments",
                    a.name
                ));
            }
            if a.links.is_some() && !self.is_write() {
                found.push(format!(
                    "{name}.{}: only write results link to what they made",
                    a.name
                ));
            }
            if a.confirm != Confirm::Never && !self.is_write() {
                found.push(format!("{name}.{}: only write actions ask first", a.name));
            }
        }
        if self.is_write() != (self.families == [Family::Mutation]) {
            found.push(format!("{name}: write tools (only) return `mutation`"));
        }
        found
    }
}
