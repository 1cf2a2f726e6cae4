//! The in-memory shape of `.orchestration/active_intents.yaml`, and what its
//! `owned_scope` globs match.
//!
//! Deserialisation is written by hand rather than derived with
//! `#[serde(flatten)]`: flattening buffers each intent before reading its
//! fields, which throws away the field path and line number that a human needs
//! to fix a mistyped field. The hand-written visitors keep both and still keep
//! unknown keys.

use std::collections::BTreeMap;
use std::fmt;

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use serde::de::{Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_norway::Value;

/// Holds the whole intents file: the intents, the optional metadata and any other top-level keys.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct IntentsFile {
    /// Lists the intents in file order; empty when the key is absent.
    pub active_intents: Vec<IntentSpec>,
    /// Carries the free-form `metadata:` mapping verbatim, when present.
    pub metadata: Option<Value>,
    /// Keeps top-level keys this version does not know, so nothing a human wrote is lost.
    #[serde(flatten)]
    pub extra: BTreeMap<String, Value>,
}

impl IntentsFile {
    /// Returns the first intent whose id is exactly `id`.
    pub fn intent(&self, id: &str) -> Option<&IntentSpec> {
        self.active_intents.iter().find(|intent| intent.id == id)
    }

    /// The dependencies of `intent` that are not DONE, with their statuses as
    /// written (`missing` for one the file does not define): work on `intent` waits
    /// for them.
    pub fn unfinished_dependencies(&self, intent: &IntentSpec) -> Vec<(String, String)> {
        intent
            .dependencies
            .iter()
            .filter_map(|dep| match self.intent(dep) {
                None => Some((dep.clone(), "missing".to_string())),
                Some(found) if found.status() == Some(IntentStatus::Done) => None,
                Some(found) => Some((
                    dep.clone(),
                    found
                        .status()
                        .map_or(found.status.clone(), |s| s.as_str().to_string()),
                )),
            })
            .collect()
    }
}

/// Describes one intent as a human wrote it; missing fields are empty rather than errors.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct IntentSpec {
    /// Holds the identifier, expected to look like `INT-001`; empty when missing.
    pub id: String,
    /// Holds the short human title; empty when missing.
    pub name: String,
    /// Holds the longer explanation; empty when missing.
    pub description: String,
    /// Keeps the status exactly as written; see [`IntentSpec::status`] for its meaning.
    pub status: String,
    /// Names the person or team accountable for the intent.
    pub owner: Option<String>,
    /// Keeps the creation timestamp as written (RFC 3339 or `YYYY-MM-DD`).
    pub created_at: Option<String>,
    /// Keeps the last-update timestamp as written (RFC 3339 or `YYYY-MM-DD`).
    pub updated_at: Option<String>,
    /// Lists the workspace-relative globs an agent working on this intent may touch.
    pub owned_scope: Vec<String>,
    /// Lists the rules an agent must respect while working on the intent.
    pub constraints: Vec<String>,
    /// Lists the conditions that make the intent done.
    pub acceptance_criteria: Vec<String>,
    /// Lists the ids of intents that must be finished first.
    pub dependencies: Vec<String>,
    /// Keeps references (links, tickets, mappings) as YAML values, because their shape varies.
    pub references: Vec<Value>,
    /// Explains why a blocked intent cannot proceed.
    pub blocked_reason: Option<String>,
    /// Keeps the priority as written, since files use both labels and numbers.
    pub priority: Option<Value>,
    /// Names the intent this one refines, if any.
    pub parent_intent: Option<String>,
    /// Keeps per-intent keys this version does not know.
    #[serde(flatten)]
    pub extra: BTreeMap<String, Value>,
}

impl IntentSpec {
    /// Interprets the raw status in either vocabulary; `None` when it is missing or unknown.
    pub fn status(&self) -> Option<IntentStatus> {
        IntentStatus::parse(&self.status)
    }
}

/// Spellings that [`IntentStatus::parse`] accepts, case-insensitively, for error messages.
pub const ACCEPTED_STATUSES: &[&str] = &[
    "DRAFT",
    "PENDING",
    "IN_PROGRESS",
    "DONE",
    "COMPLETED",
    "BLOCKED",
    "ABORTED",
    "CANCELLED",
];

/// Unifies the two status vocabularies seen in intents files into one lifecycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum IntentStatus {
    /// Marks an intent that is written down but not started (`DRAFT`, `PENDING`).
    Draft,
    /// Marks the only state in which agents may work (`IN_PROGRESS`).
    InProgress,
    /// Marks a finished intent (`DONE`, `COMPLETED`).
    Done,
    /// Marks an intent waiting on something outside the agent's reach (`BLOCKED`).
    Blocked,
    /// Marks an abandoned intent (`ABORTED`, `CANCELLED`).
    Aborted,
}

impl IntentStatus {
    /// Parses a status in either vocabulary, ignoring case and treating `-` or spaces as `_`.
    pub fn parse(raw: &str) -> Option<IntentStatus> {
        let normalized: String = raw
            .trim()
            .chars()
            .map(|c| match c {
                '-' | ' ' => '_',
                c => c.to_ascii_uppercase(),
            })
            .collect();
        match normalized.as_str() {
            "DRAFT" | "PENDING" => Some(IntentStatus::Draft),
            "IN_PROGRESS" => Some(IntentStatus::InProgress),
            "DONE" | "COMPLETED" => Some(IntentStatus::Done),
            "BLOCKED" => Some(IntentStatus::Blocked),
            "ABORTED" | "CANCELLED" | "CANCELED" => Some(IntentStatus::Aborted),
            _ => None,
        }
    }

    /// Returns the canonical upper-case spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            IntentStatus::Draft => "DRAFT",
            IntentStatus::InProgress => "IN_PROGRESS",
            IntentStatus::Done => "DONE",
            IntentStatus::Blocked => "BLOCKED",
            IntentStatus::Aborted => "ABORTED",
        }
    }

    /// Tells whether agents may change files under this intent.
    pub fn allows_work(self) -> bool {
        self == IntentStatus::InProgress
    }

    /// Tells whether the intent has reached an end state.
    pub fn is_terminal(self) -> bool {
        matches!(self, IntentStatus::Done | IntentStatus::Aborted)
    }

    /// The statuses the lifecycle allows next: DRAFT → IN_PROGRESS → DONE or
    /// BLOCKED; BLOCKED → IN_PROGRESS; DONE and ABORTED are final (create a new intent
    /// instead).
    pub fn next(self) -> &'static [IntentStatus] {
        match self {
            IntentStatus::Draft => &[IntentStatus::InProgress],
            IntentStatus::InProgress => &[IntentStatus::Done, IntentStatus::Blocked],
            IntentStatus::Blocked => &[IntentStatus::InProgress],
            IntentStatus::Done | IntentStatus::Aborted => &[],
        }
    }

    /// Tells whether the lifecycle allows moving from this status to `to`.
    pub fn can_become(self, to: IntentStatus) -> bool {
        self.next().contains(&to)
    }
}

impl fmt::Display for IntentStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Holds the compiled `owned_scope` globs of one intent.
///
/// A pattern ending in `/` covers everything below that directory, and a
/// pattern without glob characters covers that path and everything below it,
/// because humans write `src/auth` meaning the directory.
#[derive(Debug, Clone)]
pub struct ScopeMatcher {
    set: GlobSet,
}

impl ScopeMatcher {
    /// Compiles the globs; `*` never crosses `/`, while `**` does.
    pub fn new(patterns: &[String]) -> Result<ScopeMatcher, globset::Error> {
        let mut builder = GlobSetBuilder::new();
        for pattern in patterns {
            for expanded in expand_pattern(pattern) {
                builder.add(
                    GlobBuilder::new(&expanded)
                        .literal_separator(true)
                        .build()?,
                );
            }
        }
        Ok(ScopeMatcher {
            set: builder.build()?,
        })
    }

    /// Checks that every pattern is a valid glob without compiling a matcher,
    /// which costs a pattern automaton per call (validation of 200 intents
    /// would otherwise dominate a hook's run time).
    pub fn check(patterns: &[String]) -> Result<(), globset::Error> {
        for pattern in patterns {
            for expanded in expand_pattern(pattern) {
                GlobBuilder::new(&expanded)
                    .literal_separator(true)
                    .build()?;
            }
        }
        Ok(())
    }

    /// Tells whether a workspace-relative path with forward slashes falls within the scope.
    pub fn is_match(&self, rel_path: &str) -> bool {
        self.set
            .is_match(rel_path.strip_prefix("./").unwrap_or(rel_path))
    }
}

const GLOB_META: &[char] = &['*', '?', '[', '{', '\\'];

fn expand_pattern(pattern: &str) -> Vec<String> {
    let pattern = pattern.trim();
    let pattern = pattern.strip_prefix("./").unwrap_or(pattern);
    if pattern.is_empty() {
        Vec::new()
    } else if pattern.ends_with('/') {
        vec![format!("{pattern}**")]
    } else if !pattern.contains(GLOB_META) {
        vec![pattern.to_string(), format!("{pattern}/**")]
    } else {
        vec![pattern.to_string()]
    }
}

pub(super) fn literal_prefix(pattern: &str) -> &str {
    let pattern = pattern.trim();
    let pattern = pattern.strip_prefix("./").unwrap_or(pattern);
    pattern.find(GLOB_META).map_or(pattern, |at| &pattern[..at])
}

// `null` and an empty value (`name:`) both read as "not given" so that a
// half-filled template parses and validation, not parsing, reports the gaps.
fn text<'de, A: MapAccess<'de>>(map: &mut A) -> Result<String, A::Error> {
    Ok(map.next_value::<Option<String>>()?.unwrap_or_default())
}

fn list<'de, T: Deserialize<'de>, A: MapAccess<'de>>(map: &mut A) -> Result<Vec<T>, A::Error> {
    Ok(map.next_value::<Option<Vec<T>>>()?.unwrap_or_default())
}

impl<'de> Deserialize<'de> for IntentsFile {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct FileVisitor;
        impl<'de> Visitor<'de> for FileVisitor {
            type Value = IntentsFile;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a mapping with an `active_intents:` list")
            }

            fn visit_unit<E: serde::de::Error>(self) -> Result<IntentsFile, E> {
                Ok(IntentsFile::default())
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<IntentsFile, A::Error> {
                let mut file = IntentsFile::default();
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "active_intents" => file.active_intents = list(&mut map)?,
                        "metadata" => file.metadata = map.next_value()?,
                        _ => {
                            let value = map.next_value()?;
                            file.extra.insert(key, value);
                        }
                    }
                }
                Ok(file)
            }
        }
        deserializer.deserialize_map(FileVisitor)
    }
}

impl<'de> Deserialize<'de> for IntentSpec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct SpecVisitor;
        impl<'de> Visitor<'de> for SpecVisitor {
            type Value = IntentSpec;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an intent mapping (`id:`, `name:`, `status:`, `owned_scope:`, ...)")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<IntentSpec, A::Error> {
                let mut spec = IntentSpec::default();
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "id" => spec.id = text(&mut map)?,
                        "name" => spec.name = text(&mut map)?,
                        "description" => spec.description = text(&mut map)?,
                        "status" => spec.status = text(&mut map)?,
                        "owner" => spec.owner = map.next_value()?,
                        "created_at" => spec.created_at = map.next_value()?,
                        "updated_at" => spec.updated_at = map.next_value()?,
                        "owned_scope" => spec.owned_scope = list(&mut map)?,
                        "constraints" => spec.constraints = list(&mut map)?,
                        "acceptance_criteria" => spec.acceptance_criteria = list(&mut map)?,
                        "dependencies" => spec.dependencies = list(&mut map)?,
                        "references" => spec.references = list(&mut map)?,
                        "blocked_reason" => spec.blocked_reason = map.next_value()?,
                        "priority" => spec.priority = map.next_value()?,
                        "parent_intent" => spec.parent_intent = map.next_value()?,
                        _ => {
                            let value = map.next_value()?;
                            spec.extra.insert(key, value);
                        }
                    }
                }
                Ok(spec)
            }
        }
        deserializer.deserialize_map(SpecVisitor)
    }
}
