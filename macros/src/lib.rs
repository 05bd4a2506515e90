//! `#[derive(ToolActions)]`: a tool's actions declared once, as the typed
//! variants its validated arguments deserialize into (with serde's
//! `#[serde(tag = "action", rename_all = "snake_case")]`). From each variant
//! the derive writes the action's [`ActionDef`] (ombi-mcp's
//! `definition::ActionDef`): its name (the variant in snake_case, as serde
//! names it), its doc (the variant's doc comment: the words `tools/list`
//! shows), its arguments in field order — each with its shape, whether it
//! is optional, and how the action narrows it — whether it asks the person
//! first, and which resource its result links to.
//!
//! ```ignore
//! #[derive(Deserialize, ToolActions)]
//! #[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
//! enum Action {
//!     /// votes on one request
//!     ForRequest { media: MediaKind, request_id: i64, page: Page },
//!     /// deny a request
//!     #[action(confirm)]
//!     Deny { #[arg(MEDIA_MOVIE_TV)] media: MovieOrTv, reason: Option<String> },
//! }
//! ```
//!
//! - A field's shape (type, bounds, description, default) is the `Field`
//!   constant named like the field in upper case (`request_id` →
//!   `REQUEST_ID`), in scope where the enum is: a tool's own shapes are
//!   constants in its file, the shared ones in `definition::params`.
//!   `#[arg(OTHER)]` names another constant. A compile-time assertion holds
//!   the constant's `name` equal to the field's.
//! - `Option<T>` fields are optional; the others are required unless their
//!   shape has a default (validation fills it in, e.g. `page`).
//! - `#[arg(one_of)]`: exactly one of the action's `one_of` arguments is
//!   given (alternative ids). `#[arg(only = LABELS)]`: the action accepts
//!   these labels of an enum argument only (one label: it is the default).
//! - `#[action(confirm)]`: the action asks the person before it acts;
//!   `#[action(confirm = "when …")]`: it asks in the case the words say.
//!   `#[action(links = request)]` / `links = issue`: its result links to the
//!   resource it created. `#[action(role = "PowerUser")]`: the Ombi role
//!   its routes need (`User` when left out; `ManageOwnRequests`,
//!   `PowerUser`, `Admin`), read from Ombi's controllers and engines.

use proc_macro::TokenStream;
use proc_macro2::{Span, TokenStream as Tokens};
use quote::{format_ident, quote};
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{
    Attribute, Data, DeriveInput, Expr, ExprLit, Fields, Ident, Lit, LitStr, Meta, Path, Token,
    Type, parse_macro_input,
};

#[proc_macro_derive(ToolActions, attributes(action, arg))]
pub fn derive_tool_actions(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    match expand(&input) {
        Ok(tokens) => tokens.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

fn expand(input: &DeriveInput) -> syn::Result<Tokens> {
    let Data::Enum(data) = &input.data else {
        return Err(syn::Error::new_spanned(
            input,
            "ToolActions is derived for an enum of actions",
        ));
    };
    let mut actions = Vec::new();
    let mut checks = Vec::new();
    for variant in &data.variants {
        let name =
            serde_rename(&variant.attrs)?.unwrap_or_else(|| snake_case(&variant.ident.to_string()));
        let doc = doc_text(&variant.attrs).ok_or_else(|| {
            syn::Error::new_spanned(
                &variant.ident,
                "an action's doc comment is its description in tools/list: write one",
            )
        })?;
        let (confirm, links, role) = action_attrs(&variant.attrs)?;
        let mut args = Vec::new();
        let fields = match &variant.fields {
            Fields::Named(named) => named.named.iter().collect::<Vec<_>>(),
            Fields::Unit => Vec::new(),
            Fields::Unnamed(f) => {
                return Err(syn::Error::new_spanned(
                    f,
                    "an action's arguments are named fields",
                ));
            }
        };
        for field in fields {
            let ident = field.ident.as_ref().expect("named field");
            let arg = arg_attrs(&field.attrs)?;
            // The argument's name: serde's, as the arguments deserialize.
            let field_name = serde_rename(&field.attrs)?.unwrap_or_else(|| ident.to_string());
            let shape = arg.shape.unwrap_or_else(|| {
                let upper = field_name.to_uppercase();
                Path::from(Ident::new(&upper, ident.span()))
            });
            let optional = is_option(&field.ty);
            let one_of = arg.one_of;
            let only = match &arg.only {
                Some(e) => quote!(#e),
                None => quote!(&[]),
            };
            args.push(quote! {
                crate::definition::ArgDef {
                    field: &#shape,
                    optional: #optional,
                    one_of: #one_of,
                    only: #only,
                }
            });
            let message = format!(
                "action `{name}`: the shape of `{field_name}` names another argument (name the right one with #[arg(CONST)])"
            );
            checks.push(quote! {
                assert!(crate::definition::same_name(#shape.name, #field_name), #message);
            });
        }
        let links = match links {
            Some(l) => quote!(Some(crate::definition::Link::#l)),
            None => quote!(None),
        };
        actions.push(quote! {
            crate::definition::ActionDef {
                name: #name,
                doc: #doc,
                args: &[#(#args),*],
                confirm: #confirm,
                links: #links,
                role: crate::definition::Role::#role,
            }
        });
    }
    let ty = &input.ident;
    Ok(quote! {
        impl crate::definition::Declared for #ty {
            const ACTIONS: &'static [crate::definition::ActionDef] = &[#(#actions),*];
        }
        const _: () = { #(#checks)* };
    })
}

/// `#[serde(rename = "…")]` on a variant or field, if any.
fn serde_rename(attrs: &[Attribute]) -> syn::Result<Option<String>> {
    let mut renamed = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                let s: LitStr = meta.value()?.parse()?;
                renamed = Some(s.value());
            } else if meta.input.peek(Token![=]) {
                let _: Expr = meta.value()?.parse()?;
            }
            Ok(())
        })?;
    }
    Ok(renamed)
}

/// serde's `snake_case` of a variant name: `ForRequest` → `for_request`.
fn snake_case(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The doc comment's lines, trimmed and joined by spaces.
fn doc_text(attrs: &[Attribute]) -> Option<String> {
    let lines: Vec<String> = attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            Meta::NameValue(nv) => match &nv.value {
                Expr::Lit(ExprLit {
                    lit: Lit::Str(s), ..
                }) => Some(s.value().trim().to_string()),
                _ => None,
            },
            _ => None,
        })
        .filter(|l| !l.is_empty())
        .collect();
    (!lines.is_empty()).then(|| lines.join(" "))
}

/// `#[action(confirm)]`, `#[action(confirm = "when …")]`, `#[action(links = request)]`,
/// `#[action(role = "PowerUser")]`.
fn action_attrs(attrs: &[Attribute]) -> syn::Result<(Tokens, Option<Ident>, Ident)> {
    let mut confirm = quote!(crate::definition::Confirm::Never);
    let mut links = None;
    let mut role = Ident::new("User", Span::call_site());
    for attr in attrs.iter().filter(|a| a.path().is_ident("action")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("confirm") {
                confirm = if meta.input.peek(Token![=]) {
                    let when: LitStr = meta.value()?.parse()?;
                    quote!(crate::definition::Confirm::When(#when))
                } else {
                    quote!(crate::definition::Confirm::Always)
                };
                Ok(())
            } else if meta.path.is_ident("links") {
                let kind: Ident = meta.value()?.parse()?;
                let variant = match kind.to_string().as_str() {
                    "request" => "Request",
                    "issue" => "Issue",
                    _ => return Err(meta.error("links = request or links = issue")),
                };
                links = Some(Ident::new(variant, kind.span()));
                Ok(())
            } else if meta.path.is_ident("role") {
                let name: LitStr = meta.value()?.parse()?;
                if !ROLES.contains(&name.value().as_str()) {
                    return Err(meta.error(format!("role = one of {ROLES:?}")));
                }
                role = Ident::new(&name.value(), name.span());
                Ok(())
            } else {
                Err(meta.error(
                    "expected `confirm`, `confirm = \"when …\"`, `links = …` or `role = \"…\"`",
                ))
            }
        })?;
    }
    Ok((confirm, links, role))
}

/// The roles `#[action(role = …)]` names (ombi-mcp's `definition::Role`);
/// without it an action needs no role beyond a signed-in user.
const ROLES: [&str; 4] = ["User", "ManageOwnRequests", "PowerUser", "Admin"];

#[derive(Default)]
struct ArgAttrs {
    shape: Option<Path>,
    one_of: bool,
    only: Option<Expr>,
}

/// One item of `#[arg(…)]`: `one_of`, `only = LABELS`, or the shape's path.
enum ArgItem {
    OneOf,
    Only(Expr),
    Shape(Path),
}

impl Parse for ArgItem {
    fn parse(input: ParseStream) -> syn::Result<ArgItem> {
        let path: Path = input.parse()?;
        if path.is_ident("one_of") {
            Ok(ArgItem::OneOf)
        } else if path.is_ident("only") {
            input.parse::<Token![=]>()?;
            Ok(ArgItem::Only(input.parse()?))
        } else {
            Ok(ArgItem::Shape(path))
        }
    }
}

fn arg_attrs(attrs: &[Attribute]) -> syn::Result<ArgAttrs> {
    let mut out = ArgAttrs::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("arg")) {
        let items = attr.parse_args_with(Punctuated::<ArgItem, Token![,]>::parse_terminated)?;
        for item in items {
            match item {
                ArgItem::OneOf => out.one_of = true,
                ArgItem::Only(e) => out.only = Some(e),
                ArgItem::Shape(p) => out.shape = Some(p),
            }
        }
    }
    Ok(out)
}

fn is_option(ty: &Type) -> bool {
    match ty {
        Type::Path(p) => p
            .path
            .segments
            .last()
            .is_some_and(|s| s.ident == format_ident!("Option", span = Span::call_site())),
        _ => false,
    }
}
