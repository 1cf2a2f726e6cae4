//! Reading payload fields with errors that name the field and what was found.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::PayloadError;

/// A string field; `null` and absence are `None`, anything else is an error.
pub fn string(payload: &Value, key: &str) -> Result<Option<String>, PayloadError> {
    match payload.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(PayloadError::WrongType {
            field: key.to_string(),
            expected: "be a string",
            found: type_name(other),
        }),
    }
}

/// A string field that must be there.
pub fn required(payload: &Value, key: &str, what: &str) -> Result<String, PayloadError> {
    string(payload, key)?.ok_or_else(|| PayloadError::Missing {
        what: what.to_string(),
        field: format!("string `{key}`"),
    })
}

/// An object field (absent or `null` is an empty object).
pub fn object(payload: &Value, key: &str) -> Result<Value, PayloadError> {
    match payload.get(key) {
        None | Some(Value::Null) => Ok(Value::Object(Default::default())),
        Some(value @ Value::Object(_)) => Ok(value.clone()),
        Some(other) => Err(PayloadError::WrongType {
            field: key.to_string(),
            expected: "be an object",
            found: type_name(other),
        }),
    }
}

/// How a JSON value's type reads in an error message.
pub fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A stable id for a tool call whose front-end gives none, so that its pre and post
/// events pair up (the same session, tool and input give the same id).
pub fn synthetic_use_id(prefix: &str, session: &str, tool: &str, input: &Value) -> String {
    let mut hasher = blake3::Hasher::new();
    for part in [session, tool, &input.to_string()] {
        hasher.update(part.as_bytes());
        hasher.update(&[0]);
    }
    format!("{prefix}-{}", &hasher.finalize().to_hex()[..20])
}

/// The directory a shell command runs in: `dir` when the tool call names one
/// (absolute, or relative to `base`), else `base`. The gate resolves the command's
/// targets against it, so a command run elsewhere is judged where it runs.
pub fn command_dir(base: Option<PathBuf>, dir: Option<&str>) -> Option<PathBuf> {
    match dir.filter(|d| !d.is_empty()) {
        Some(dir) if Path::new(dir).is_absolute() => Some(PathBuf::from(dir)),
        Some(dir) => base.map(|base| base.join(dir)),
        None => base,
    }
}
