use std::fmt;
use std::str::FromStr;

/// A `major.minor.patch` release number. The derived ordering compares the
/// fields in declaration order, which is exactly semantic-version precedence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    pub patch: u32,
    pub minor: u32,
    pub major: u32,
}

impl FromStr for Version {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut parts = s.trim_start_matches('v').splitn(3, '.');
        let mut next = |name: &str| -> Result<u32, String> {
            parts
                .next()
                .ok_or_else(|| format!("{s}: missing {name}"))?
                .parse()
                .map_err(|_| format!("{s}: bad {name}"))
        };
        Ok(Version {
            major: next("major")?,
            minor: next("minor")?,
            patch: next("patch")?,
        })
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

/// The newest release in `tags` that parses, ignoring the rest.
pub fn latest<'a>(tags: impl IntoIterator<Item = &'a str>) -> Option<Version> {
    tags.into_iter().filter_map(|t| t.parse().ok()).max()
}
