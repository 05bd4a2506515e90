//! Placeholder until the fake Ombi lands.
fn main() {}
