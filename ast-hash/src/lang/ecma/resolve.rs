//! Module resolution the way TypeScript's bundler-style resolution finds a relative
//! import among the turn's files, and which files share the global scope.

use crate::paths::normalize_source;

const EXTENSIONS: &[&str] = &[
    ".ts", ".tsx", ".d.ts", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs",
];

/// Finds the file of the turn a relative import points at, TypeScript-style.
pub(crate) fn resolve_module(
    importer: &str,
    source: &str,
    find_path: &mut dyn FnMut(&str) -> Option<usize>,
) -> Option<usize> {
    if !source.starts_with('.') {
        return None;
    }
    let base = normalize_source(importer, source);
    // Candidates in TypeScript's order, built in one buffer (this runs for every
    // import of every file of a turn, on every write).
    let mut candidate = String::with_capacity(base.len() + 12);
    let mut find = |parts: &[&str]| {
        candidate.clear();
        parts.iter().for_each(|part| candidate.push_str(part));
        find_path(candidate.as_str())
    };
    if let Some(found) = find(&[&base]) {
        return Some(found);
    }
    for ext in EXTENSIONS {
        if let Some(found) = find(&[&base, ext]) {
            return Some(found);
        }
    }
    for ext in EXTENSIONS {
        if let Some(found) = find(&[&base, "/index", ext]) {
            return Some(found);
        }
    }
    for (js, ts) in [
        (".js", ".ts"),
        (".js", ".tsx"),
        (".jsx", ".tsx"),
        (".mjs", ".mts"),
        (".cjs", ".cts"),
    ] {
        if let Some(stem) = base.strip_suffix(js) {
            if let Some(found) = find(&[stem, ts]) {
                return Some(found);
            }
        }
    }
    None
}

/// A classic script (no import or export statement, not CommonJS, not an explicit
/// module by extension) shares the global scope with every other script.
pub(crate) fn shared_scope(
    path: &str,
    module_syntax: bool,
    uses: &dyn Fn(&str) -> bool,
) -> Option<String> {
    let explicit_module = [".mjs", ".cjs", ".mts", ".cts"]
        .iter()
        .any(|ext| path.ends_with(ext));
    let common_js = ["require", "module", "exports"].into_iter().any(uses);
    (!explicit_module && !module_syntax && !common_js).then(String::new)
}
