//! Workspace paths as import sources name them.

/// Normalizes `a/./b/../c` to `a/c`.
pub(crate) fn normalize_path(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|p| *p != "..") {
                    parts.pop();
                } else {
                    parts.push("..");
                }
            }
            _ => parts.push(part),
        }
    }
    parts.join("/")
}

/// The module a source names, as a workspace path for relative sources.
pub(crate) fn normalize_source(importer: &str, source: &str) -> String {
    if source.starts_with("./") || source.starts_with("../") || source == "." || source == ".." {
        let dir = importer.rsplit_once('/').map_or("", |(dir, _)| dir);
        normalize_path(&format!("{dir}/{source}"))
    } else {
        source.to_string()
    }
}
