//! Analyses of file texts, kept between processes and shared by hooks and queries.
//!
//! A hook is a fresh process for every write, and the text a write replaces is
//! nearly always the text an earlier write produced; a query analyses the file as it
//! is now, which is nearly always the text the last traced write produced. Either
//! way the analysis was already made by an earlier process. Entries live in the
//! workspace's cache directory under `analyses/`, named by the BLAKE3 of path and
//! text; `intent_ast_hash::stored` refuses any entry that does not fit the text
//! exactly, so a damaged or stale file costs a parse, never a wrong answer.

use intent_ledger::atomic;
use std::path::PathBuf;

use intent_ast_hash::{analyze, stored, FileAnalysis, SourceFile};
use intent_ledger::Workspace;

/// The directory of the entries.
pub fn dir(workspace: &Workspace) -> PathBuf {
    workspace.projection_dir().join("analyses")
}

fn entry(workspace: &Workspace, file: &SourceFile) -> PathBuf {
    let mut hasher = blake3::Hasher::new();
    hasher.update(file.path.as_bytes());
    hasher.update(&[0]);
    hasher.update(file.text.as_bytes());
    let key = hasher.finalize().to_hex();
    dir(workspace).join(format!("{}.bin", &key[..32]))
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
    let _ = atomic::write(&path, &stored::encode(analysis), atomic::Sync::No);
}

/// The analysis of `file`: restored when an earlier process made it, else made
/// (tree-sitter, the same analysis as the hooks') and kept.
pub fn analyze_cached(workspace: &Workspace, file: &SourceFile) -> FileAnalysis {
    if let Some(found) = load(workspace, file) {
        return found;
    }
    let made = analyze(file);
    if made.language.is_some() {
        store(workspace, &made);
    }
    made
}
