//! Analyses of traced texts, kept between hook processes.
//!
//! The text a write replaces is nearly always the text an earlier write produced,
//! so its analysis was already made by an earlier hook process. Keeping it saves
//! a parse on PostToolUse's critical path (the measured bottleneck). Entries live
//! in `.orchestration/.cache/analyses/`, named by the BLAKE3 of path and text;
//! `intent_ast_hash::stored` refuses any entry that does not fit the text exactly,
//! so a damaged or stale file costs a parse, never a wrong answer. The directory is
//! trimmed to the newest entries when a new prompt starts.

use std::path::PathBuf;

use intent_ast_hash::{stored, FileAnalysis, SourceFile};
use intent_ledger::Workspace;

/// Entries kept after a trim: enough for the files of many turns.
const KEEP: usize = 256;
/// A trim starts only above this many entries, so most prompts only list the directory.
const TRIM_ABOVE: usize = 2 * KEEP;

fn dir(workspace: &Workspace) -> PathBuf {
    workspace.cache_dir().join("analyses")
}

fn entry(workspace: &Workspace, file: &SourceFile) -> PathBuf {
    let mut hasher = blake3::Hasher::new();
    hasher.update(file.path.as_bytes());
    hasher.update(&[0]);
    hasher.update(file.text.as_bytes());
    let key = hasher.finalize().to_hex();
    dir(workspace).join(format!("{}.json", &key[..32]))
}

/// The stored analysis of exactly this file's path and text, if any.
pub fn load(workspace: &Workspace, file: &SourceFile) -> Option<FileAnalysis> {
    let bytes = std::fs::read(entry(workspace, file)).ok()?;
    stored::decode(&bytes, file)
}

/// Stores an analysis (best effort: the cache is an optimization only). Written to
/// a temporary file and renamed, so a reader never sees half an entry.
pub fn store(workspace: &Workspace, analysis: &FileAnalysis) {
    let file = SourceFile::new(analysis.path.clone(), analysis.text());
    let path = entry(workspace, &file);
    if path.exists() {
        return;
    }
    let _ = std::fs::create_dir_all(dir(workspace));
    let tmp = path.with_extension(format!("json.{}.tmp", std::process::id()));
    if std::fs::write(&tmp, stored::encode(analysis)).is_ok()
        && std::fs::rename(&tmp, &path).is_err()
    {
        let _ = std::fs::remove_file(&tmp);
    }
}

/// Keeps the newest entries only (called when a prompt starts a new turn).
pub fn trim(workspace: &Workspace) {
    super::texts::prune_oldest(&dir(workspace), TRIM_ABOVE, KEEP);
}
