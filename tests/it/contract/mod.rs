//! The output contract and the tool definitions, derived from `tools::TOOLS`.

mod actions;
mod args;
mod budget;
mod catalogue;
mod confirmations;
mod examples;
mod roles;
mod schema;
