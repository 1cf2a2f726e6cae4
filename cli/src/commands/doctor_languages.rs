//! `intent doctor`'s languages line: the traced files of the workspace by
//! language, and how deep `why` answers each (block, line or file).

use std::collections::BTreeMap;

use intent_ledger::Workspace;

/// Names of common file endings with no grammar here (answered by line).
const TEXT_LANGUAGES: &[(&str, &[&str])] = &[
    ("Java", &["java"]),
    ("Ruby", &["rb"]),
    ("C/C++", &["c", "h", "cc", "cpp", "hpp"]),
    ("shell", &["sh", "bash", "zsh"]),
    ("JSON", &["json"]),
    ("YAML", &["yaml", "yml"]),
    ("TOML", &["toml"]),
    ("Markdown", &["md", "markdown"]),
    ("SQL", &["sql"]),
    ("HTML/CSS", &["html", "css", "scss"]),
];

/// How deep `why` answers one traced file now.
fn depth(path: &str, has_lines: bool) -> (String, &'static str) {
    if let Some(spec) = intent_ast_hash::language_for_path(path) {
        let name = match spec.name() {
            "typescript" => "TypeScript",
            "tsx" => "TSX",
            "javascript" => "JavaScript",
            "python" => "Python",
            "go" => "Go",
            "rust" => "Rust",
            other => other,
        };
        return (name.to_string(), "block");
    }
    let ext = path
        .rsplit('/')
        .next()
        .and_then(|f| f.rsplit_once('.'))
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    let name = TEXT_LANGUAGES
        .iter()
        .find(|(_, exts)| exts.contains(&ext.as_str()))
        .map_or_else(
            || match ext.as_str() {
                "" => "no extension".to_string(),
                ext => format!(".{ext}"),
            },
            |(name, _)| name.to_string(),
        );
    (name, if has_lines { "line" } else { "file" })
}

/// `(status, detail)` of the check: every language with its files and depth.
pub fn languages(workspace: &Workspace) -> (&'static str, String) {
    let shards = match intent_query::lineage::all_shards(workspace) {
        Ok(shards) => shards,
        Err(e) => return ("warn", format!("cannot read the block lineage: {e}")),
    };
    // (language, depth) -> files
    let mut counts: BTreeMap<(String, &'static str), usize> = BTreeMap::new();
    for shard in shards.iter().filter(|s| s.after_sha256.is_some()) {
        *counts
            .entry(depth(&shard.path, shard.lines.is_some()))
            .or_default() += 1;
    }
    if counts.is_empty() {
        return (
            "ok",
            "no traced file yet (as of the block lineage; any query catches it up)".into(),
        );
    }
    let mut parts: Vec<((String, &'static str), usize)> = counts.into_iter().collect();
    parts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let list: Vec<String> = parts
        .iter()
        .map(|((name, depth), n)| format!("{name} {n} by {depth}"))
        .collect();
    (
        "ok",
        format!(
            "traced files: {} (block: TypeScript, JavaScript, Python, Go and Rust \
             declarations; line: every other text file; file: binary or too large)",
            list.join(", ")
        ),
    )
}
