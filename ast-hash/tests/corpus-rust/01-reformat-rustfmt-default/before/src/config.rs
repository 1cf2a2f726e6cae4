use std::collections::HashMap;
use std::fs;
use std::path::Path;

#[derive(Debug, Clone, PartialEq)]
pub struct Config { pub listen: String, pub workers: usize, pub log_level: String, pub upstreams: Vec<String> }

#[derive(Debug)]
pub enum ConfigError { Io(std::io::Error), Missing(&'static str), Invalid { key: String, value: String } }

impl From<std::io::Error> for ConfigError {
    fn from(e: std::io::Error) -> Self { ConfigError::Io(e) }
}

/// Parses `key = value` lines; `#` starts a comment.
pub fn parse(text: &str) -> Result<Config, ConfigError> {
    let mut map: HashMap<&str, &str> = HashMap::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        if let Some((k, v)) = line.split_once('=') { map.insert(k.trim(), v.trim()); }
    }
    let listen = map.get("listen").ok_or(ConfigError::Missing("listen"))?.to_string();
    let workers = match map.get("workers") {
        Some(v) => v.parse().map_err(|_| ConfigError::Invalid{key: "workers".into(), value: v.to_string()})?,
        None => 4,
    };
    let log_level = map.get("log_level").copied().unwrap_or("info").to_string();
    let upstreams = map.get("upstreams").map(|v| v.split(',').map(|s| s.trim().to_string()).collect()).unwrap_or_default();
    Ok(Config { listen, workers, log_level, upstreams })
}

pub fn load(path: &Path) -> Result<Config, ConfigError> { parse(&fs::read_to_string(path)?) }
