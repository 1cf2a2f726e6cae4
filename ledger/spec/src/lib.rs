//! Intent specs: parsing and validating the human-written
//! `.orchestration/active_intents.yaml`.
//!
//! The file is the input contract between humans and the gate, so parsing is
//! lenient about what it does not know (unknown keys are kept, missing fields
//! are empty) and strict about shapes it does know (a string where a list
//! belongs is an error with its path and line). Semantic problems are left to
//! [`validate`], which reports every one of them instead of stopping at the
//! first.

mod edit;
mod model;
mod snapshot;
mod validate;
pub use snapshot::{record_spec_snapshot, SpecSnapshot};

use std::io;
use std::path::{Path, PathBuf};

pub use edit::{edit_intent, FieldEdit, SpecEditError};
pub use model::{IntentSpec, IntentStatus, IntentsFile, ScopeMatcher, ACCEPTED_STATUSES};
pub use validate::{validate, Diagnostic, Severity};

/// Describes why an intents file could not be read or parsed.
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    /// Reports that the intents file does not exist.
    #[error("intents file {} not found; create it with an `active_intents:` list", path.display())]
    Missing {
        /// Names the file that was looked for.
        path: PathBuf,
    },
    /// Reports that the intents file exists but could not be read.
    #[error("cannot read intents file {}: {source}; check its permissions", path.display())]
    Io {
        /// Names the file that failed.
        path: PathBuf,
        /// Carries the underlying I/O error.
        #[source]
        source: io::Error,
    },
    /// Reports bytes that are not UTF-8.
    #[error(
        "intents file is not valid UTF-8: bad byte at offset {offset} (line {line}); re-save it as UTF-8"
    )]
    Encoding {
        /// Gives the byte offset of the first invalid byte.
        offset: usize,
        /// Gives the 1-based line holding that byte.
        line: usize,
    },
    /// Reports text that is not well-formed YAML.
    #[error("YAML syntax error at line {line}, column {column}: {message}; fix the YAML there")]
    Syntax {
        /// Gives the 1-based line of the error.
        line: usize,
        /// Gives the 1-based column of the error.
        column: usize,
        /// Carries the YAML parser's explanation.
        message: String,
    },
    /// Reports well-formed YAML whose shape does not fit the intents schema.
    #[error("{}", schema_message(path, *line, *column, message))]
    Schema {
        /// Locates the offending value, e.g. `active_intents[0].owned_scope`; empty for the whole document.
        path: String,
        /// Gives the 1-based line, when the parser knows it.
        line: Option<usize>,
        /// Gives the 1-based column, when the parser knows it.
        column: Option<usize>,
        /// Explains what was found and what was expected.
        message: String,
    },
}

fn schema_message(path: &str, line: Option<usize>, column: Option<usize>, message: &str) -> String {
    let place = if path.is_empty() { "document" } else { path };
    let at = match (line, column) {
        (Some(line), Some(column)) => format!(" (line {line}, column {column})"),
        _ => String::new(),
    };
    format!("intents file does not match the schema at {place}{at}: {message}; see the documented active_intents.yaml layout")
}

/// Pairs a parsed intents file with the hash of the exact bytes it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct SpecDocument {
    /// Holds the parsed content.
    pub file: IntentsFile,
    /// Identifies the raw bytes as `sha256:<hex>`, so ledger entries can pin the spec they were checked against.
    pub content_hash: String,
}

impl SpecDocument {
    /// Parses intents-file bytes, distinguishing encoding, syntax and schema failures.
    pub fn parse(bytes: &[u8]) -> Result<SpecDocument, SpecError> {
        let text = std::str::from_utf8(bytes).map_err(|err| {
            let offset = err.valid_up_to();
            let line = 1 + bytes[..offset].iter().filter(|&&b| b == b'\n').count();
            SpecError::Encoding { offset, line }
        })?;
        // Parsing into an untyped value first separates "this is not YAML"
        // from "this YAML has the wrong shape", which need different fixes.
        let value: serde_norway::Value =
            serde_norway::from_str(text).map_err(|err| match err.location() {
                Some(loc) => SpecError::Syntax {
                    line: loc.line(),
                    column: loc.column(),
                    message: strip_location(&err.to_string(), Some(&loc)),
                },
                None => schema_error(&err),
            })?;
        let file = match value {
            serde_norway::Value::Null => IntentsFile::default(),
            serde_norway::Value::Mapping(_) => {
                serde_norway::from_str(text).map_err(|err| schema_error(&err))?
            }
            other => {
                return Err(SpecError::Schema {
                    path: String::new(),
                    line: Some(1),
                    column: Some(1),
                    message: format!(
                        "the top level is {}, expected a mapping with an `active_intents:` list",
                        kind_of(&other)
                    ),
                })
            }
        };
        Ok(SpecDocument {
            file,
            content_hash: content_hash(bytes),
        })
    }

    /// Reads and parses the intents file at `path`.
    pub fn load(path: &Path) -> Result<SpecDocument, SpecError> {
        let bytes = intent_ledger::atomic::read_regular(path).map_err(|source| {
            if source.kind() == io::ErrorKind::NotFound {
                SpecError::Missing {
                    path: path.to_path_buf(),
                }
            } else {
                SpecError::Io {
                    path: path.to_path_buf(),
                    source,
                }
            }
        })?;
        SpecDocument::parse(&bytes)
    }

    /// Renders the whole parsed document as JSON, readable back into [`IntentsFile`] with serde_json.
    pub fn to_json(&self) -> serde_json::Value {
        // Going through a YAML value lets mapping keys JSON cannot hold
        // (numbers, lists) become text instead of failing the snapshot.
        match serde_norway::to_value(&self.file) {
            Ok(value) => yaml_to_json(&value),
            Err(_) => serde_json::Value::Null,
        }
    }

    /// Returns the first intent whose id is exactly `id`.
    pub fn intent(&self, id: &str) -> Option<&IntentSpec> {
        self.file.intent(id)
    }
}

/// Hashes raw bytes as `sha256:<hex>`, as the ledger names every content.
fn content_hash(bytes: &[u8]) -> String {
    intent_ledger::digest::bytes_sha256(bytes)
}

fn schema_error(err: &serde_norway::Error) -> SpecError {
    let location = err.location();
    let text = strip_location(&err.to_string(), location.as_ref());
    // serde_norway prefixes messages with the value's path ("a.b[0]: ...");
    // a path never contains whitespace, which tells it apart from messages
    // like "invalid type: ..." that carry their own colon.
    let (path, message) = match text.split_once(": ") {
        Some((path, rest)) if !path.is_empty() && !path.contains(char::is_whitespace) => {
            (path.to_string(), rest.to_string())
        }
        _ => (String::new(), text),
    };
    SpecError::Schema {
        path,
        line: location.as_ref().map(|loc| loc.line()),
        column: location.as_ref().map(|loc| loc.column()),
        message,
    }
}

// The location is reported in its own fields, so repeating it inside the
// message would only add noise; a second mark (where the enclosing construct
// began) is kept because it helps find an unclosed bracket or quote.
fn strip_location(message: &str, location: Option<&serde_norway::Location>) -> String {
    match location {
        Some(loc) => message.replacen(
            &format!(" at line {} column {}", loc.line(), loc.column()),
            "",
            1,
        ),
        None => message.to_string(),
    }
}

fn kind_of(value: &serde_norway::Value) -> &'static str {
    match value {
        serde_norway::Value::Null => "null",
        serde_norway::Value::Bool(_) => "a boolean",
        serde_norway::Value::Number(_) => "a number",
        serde_norway::Value::String(_) => "a string",
        serde_norway::Value::Sequence(_) => "a list",
        serde_norway::Value::Mapping(_) => "a mapping",
        serde_norway::Value::Tagged(_) => "a tagged value",
    }
}

fn yaml_to_json(value: &serde_norway::Value) -> serde_json::Value {
    use serde_json::Value as J;
    use serde_norway::Value as Y;
    match value {
        Y::Null => J::Null,
        Y::Bool(b) => J::Bool(*b),
        Y::Number(n) => {
            if let Some(i) = n.as_i64() {
                J::from(i)
            } else if let Some(u) = n.as_u64() {
                J::from(u)
            } else {
                // NaN and infinities have no JSON number, so keep their YAML spelling.
                let f = n.as_f64().unwrap_or(f64::NAN);
                serde_json::Number::from_f64(f).map_or_else(|| J::String(n.to_string()), J::Number)
            }
        }
        Y::String(s) => J::String(s.clone()),
        Y::Sequence(items) => J::Array(items.iter().map(yaml_to_json).collect()),
        Y::Mapping(map) => J::Object(
            map.iter()
                .map(|(key, value)| (json_key(key), yaml_to_json(value)))
                .collect(),
        ),
        // Mirrors how serde_norway itself serialises a tagged value.
        Y::Tagged(tagged) => {
            let mut object = serde_json::Map::new();
            object.insert(tagged.tag.to_string(), yaml_to_json(&tagged.value));
            J::Object(object)
        }
    }
}

fn json_key(key: &serde_norway::Value) -> String {
    match yaml_to_json(key) {
        serde_json::Value::String(s) => s,
        other => other.to_string(),
    }
}
