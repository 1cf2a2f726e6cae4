use std::env;
use std::path::{Path, PathBuf};

/// Where the configuration file is looked for, most specific first: an
/// explicit `$APP_CONFIG`, the working directory, the user's config
/// directory, then the system-wide file.
pub fn candidates(home: &Path) -> Vec<PathBuf> {
    let mut paths = Vec::new();
    if let Some(explicit) = env::var_os("APP_CONFIG") {
        paths.push(PathBuf::from(explicit));
    }
    paths.extend(vec![
        PathBuf::from("app.toml"),
        home.join(".config").join("app").join("app.toml"),
        PathBuf::from("/etc/app/app.toml"),
    ]);
    paths
}

/// The first candidate that exists, if any.
pub fn locate(home: &Path) -> Option<PathBuf> {
    candidates(home).into_iter().find(|p| p.is_file())
}

/// A message listing every place that was searched, for the error path.
pub fn not_found_message(home: &Path) -> String {
    let list: Vec<String> = candidates(home)
        .iter()
        .map(|p| format!("  {}", p.display()))
        .collect();
    format!(
        "no configuration file found; looked in:\n{}",
        list.join("\n")
    )
}
