//! Bundles group the tools; a session sees the tools of its bundles.

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Bundle {
    Core,
    Moderation,
    Administration,
}

impl Bundle {
    pub const ALL: [Bundle; 3] = [Bundle::Core, Bundle::Moderation, Bundle::Administration];

    pub fn name(self) -> &'static str {
        match self {
            Bundle::Core => "core",
            Bundle::Moderation => "moderation",
            Bundle::Administration => "administration",
        }
    }

    pub fn parse(s: &str) -> Option<Bundle> {
        Bundle::ALL.into_iter().find(|b| b.name() == s)
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

impl fmt::Display for Bundle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of bundles (a bit set: three members).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct BundleSet(u8);

impl BundleSet {
    pub const EMPTY: BundleSet = BundleSet(0);

    pub fn only(b: Bundle) -> Self {
        BundleSet(b.bit())
    }

    pub fn all() -> Self {
        Bundle::ALL.into_iter().collect()
    }

    pub fn contains(self, b: Bundle) -> bool {
        self.0 & b.bit() != 0
    }

    pub fn insert(&mut self, b: Bundle) {
        self.0 |= b.bit();
    }

    pub fn intersect(self, other: BundleSet) -> BundleSet {
        BundleSet(self.0 & other.0)
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The set as a number below 8 (one bit per bundle), e.g. to index a table.
    pub const fn bits(self) -> u8 {
        self.0
    }

    pub fn iter(self) -> impl Iterator<Item = Bundle> {
        Bundle::ALL.into_iter().filter(move |b| self.contains(*b))
    }

    /// Parses a comma list such as `core,moderation` (spaces allowed).
    /// The error names the first unknown name.
    pub fn parse_list(s: &str) -> Result<BundleSet, UnknownBundle> {
        let mut set = BundleSet::EMPTY;
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            set.insert(Bundle::parse(part).ok_or_else(|| UnknownBundle(part.to_string()))?);
        }
        Ok(set)
    }
}

/// A bundle name that is not one of [`Bundle::ALL`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownBundle(pub String);

impl fmt::Display for UnknownBundle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown bundle {:?}", self.0)
    }
}

impl std::error::Error for UnknownBundle {}

impl FromIterator<Bundle> for BundleSet {
    fn from_iter<I: IntoIterator<Item = Bundle>>(iter: I) -> Self {
        let mut set = BundleSet::EMPTY;
        for b in iter {
            set.insert(b);
        }
        set
    }
}

impl fmt::Display for BundleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.iter().map(Bundle::name).collect();
        f.write_str(&names.join(","))
    }
}
