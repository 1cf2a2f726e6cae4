//! Reads `KEY=VALUE` files as used by docker and systemd.
use std::collections::HashMap;

#[derive(Debug, PartialEq, Eq)]
pub enum Line<'a> {
    Blank,
    Pair(&'a str, &'a str),
}

#[derive(Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line_no: usize,
    pub text: String,
}

pub fn parse_line(raw: &str) -> Result<Line<'_>, ()> {
    let trimmed = raw.trim();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return Ok(Line::Blank);
    }
    match trimmed.split_once('=') {
        Some((key, value)) if !key.trim().is_empty() => {
            Ok(Line::Pair(key.trim(), value.trim().trim_matches('"')))
        }
        Some(_) | None => Err(()),
    }
}

/// Parses every line; later keys override earlier ones.
pub fn parse(text: &str) -> Result<HashMap<String, String>, ParseError> {
    let mut env = HashMap::new();
    for (index, line) in text.lines().enumerate() {
        match parse_line(line) {
            Ok(Line::Pair(key, value)) => {
                env.insert(key.to_string(), value.to_string());
            }
            Ok(Line::Blank) => {}
            Err(()) => {
                return Err(ParseError {
                    line_no: index + 1,
                    text: line.to_string(),
                });
            }
        }
    }
    Ok(env)
}

/// Keys whose values differ between two parsed files.
pub fn changed_keys(old: &HashMap<String, String>, new: &HashMap<String, String>) -> Vec<String> {
    let mut keys: Vec<String> = new
        .iter()
        .filter(|(key, value)| old.get(*key) != Some(*value))
        .map(|(key, _)| key.clone())
        .collect();
    keys.sort();
    keys
}
