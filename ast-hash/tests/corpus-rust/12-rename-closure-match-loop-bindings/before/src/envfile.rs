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
    let t = raw.trim();
    if t.is_empty() || t.starts_with('#') {
        return Ok(Line::Blank);
    }
    match t.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => {
            Ok(Line::Pair(k.trim(), v.trim().trim_matches('"')))
        }
        Some(_) | None => Err(()),
    }
}

/// Parses every line; later keys override earlier ones.
pub fn parse(text: &str) -> Result<HashMap<String, String>, ParseError> {
    let mut env = HashMap::new();
    for (i, l) in text.lines().enumerate() {
        match parse_line(l) {
            Ok(Line::Pair(k, v)) => {
                env.insert(k.to_string(), v.to_string());
            }
            Ok(Line::Blank) => {}
            Err(()) => {
                return Err(ParseError {
                    line_no: i + 1,
                    text: l.to_string(),
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
        .filter(|(k, v)| old.get(*k) != Some(*v))
        .map(|(k, _)| k.clone())
        .collect();
    keys.sort();
    keys
}
