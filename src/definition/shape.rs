//! The argument type language of the catalogue: enough JSON Schema to describe
//! every tool argument, small enough to validate by hand and to render as a
//! flat draft-07-compatible input schema (no combinators, no `prefixItems`).

/// The type of one argument (or of a nested field, or array item).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Ty {
    /// A string of `min..=max` characters.
    Str {
        min: usize,
        max: usize,
    },
    /// A calendar date `YYYY-MM-DD`.
    Date,
    /// One of a fixed set of labels.
    Enum(&'static [&'static str]),
    /// A JSON integer in `min..=max` (never a float, a numeric string or a bool).
    Int {
        min: i64,
        max: i64,
    },
    Bool,
    /// A string, number, boolean or null (settings values).
    Scalar,
    /// An object with exactly these fields (`additionalProperties: false`).
    Obj(&'static [Field]),
    /// An array of `min..=max` items.
    Arr {
        item: &'static Ty,
        min: usize,
        max: usize,
    },
}

/// A documented default, filled into `Args` when the argument is omitted.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ArgDefault {
    None,
    Str(&'static str),
    Int(i64),
    Bool(bool),
    /// An object whose own fields carry defaults (`page`): filled as `{}` and
    /// then completed field by field.
    Obj,
}

/// A named argument or nested object field.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Field {
    pub name: &'static str,
    pub ty: Ty,
    pub desc: &'static str,
    /// Only meaningful for nested object fields; top-level requirements are
    /// per action ([`super::ActionDef`]).
    pub required: bool,
    pub default: ArgDefault,
    /// A secret (a new user's password): validation messages never echo it.
    pub secret: bool,
}

/// Ombi ids are 32-bit signed integers.
pub const MAX_ID: i64 = i32::MAX as i64;

impl Ty {
    /// A positive Ombi/TMDB/TVDB integer id.
    pub const ID: Ty = Ty::Int {
        min: 1,
        max: MAX_ID,
    };
    /// A short opaque string id (user GUID, file id, provider id, MBID).
    pub const TEXT_ID: Ty = Ty::Str { min: 1, max: 100 };

    /// A short human hint of the type, for error messages ("a positive integer").
    pub fn hint(&self) -> String {
        match self {
            Ty::Str { min, max } => format!("a string of {min}–{max} characters"),
            Ty::Date => "an ISO date `YYYY-MM-DD`".into(),
            Ty::Enum(labels) => format!("one of {}", list(labels)),
            Ty::Int { min: 1, max } if *max == MAX_ID => "a positive integer".into(),
            Ty::Int { min, max } if *max == i64::MAX => format!("an integer ≥ {min}"),
            Ty::Int { min, max } => format!("an integer {min}–{max}"),
            Ty::Bool => "a boolean".into(),
            Ty::Scalar => "a string, number, boolean or null".into(),
            Ty::Obj(fields) => {
                let names: Vec<&str> = fields.iter().map(|f| f.name).collect();
                format!("an object with {}", list(&names))
            }
            Ty::Arr { item, min, max } => {
                format!("an array of {min}–{max} items, each {}", item.hint())
            }
        }
    }
}

/// "`a`, `b`, `c`".
pub fn list(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Field {
    pub const fn opt(name: &'static str, ty: Ty, desc: &'static str) -> Field {
        Field {
            name,
            ty,
            desc,
            required: false,
            default: ArgDefault::None,
            secret: false,
        }
    }

    pub const fn req(name: &'static str, ty: Ty, desc: &'static str) -> Field {
        Field {
            required: true,
            ..Field::opt(name, ty, desc)
        }
    }

    pub const fn default(self, default: ArgDefault) -> Field {
        Field { default, ..self }
    }

    pub const fn secret(self) -> Field {
        Field {
            secret: true,
            ..self
        }
    }

    pub fn find<'a>(fields: &'a [Field], name: &str) -> Option<&'a Field> {
        fields.iter().find(|f| f.name == name)
    }
}
