//! Texts of traced files, kept by content hash, so a later write whose front-end
//! does not report the old content can still be diffed and AST-classified.
//!
//! `.orchestration/.cache/texts/<sha256 hex>` holds the content a trace recorded
//! as `after_sha256`. It is derived, local data (the ledger stores hashes, never
//! content): without it, such writes fall back to text rules.

use intent_ledger::atomic;
use std::path::{Path, PathBuf};

use intent_ledger::Workspace;

/// Texts larger than this are not kept.
const MAX_TEXT_BYTES: u64 = 2 * 1024 * 1024;
/// Kept texts; the least recently written beyond this are removed.
const MAX_TEXTS: usize = 2000;

fn path_for(workspace: &Workspace, hash: &str) -> Option<PathBuf> {
    let hex = hash.strip_prefix("sha256:")?;
    (hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| workspace.cache_dir().join("texts").join(hex))
}

/// Returns the text recorded for `hash` (`sha256:<hex>`), if kept.
pub fn load(workspace: &Workspace, hash: &str) -> Option<Vec<u8>> {
    let bytes = std::fs::read(path_for(workspace, hash)?).ok()?;
    // A damaged cache entry must not pass for the old content.
    (intent_gate::bytes_sha256(&bytes) == hash).then_some(bytes)
}

/// Whether the text of `hash` is kept: the ledger traced that content (a damaged or
/// evicted entry only makes a write's line record carry its old lines' hashes).
pub fn has(workspace: &Workspace, hash: &str) -> bool {
    path_for(workspace, hash).is_some_and(|p| p.exists())
}

/// Keeps the current content of `rel` under `hash`. Best effort.
pub fn store(workspace: &Workspace, root: &Path, rel: &str, hash: &str) {
    let Some(target) = path_for(workspace, hash) else {
        return;
    };
    if target.exists() {
        return;
    }
    let source = root.join(rel);
    if std::fs::metadata(&source).map_or(true, |m| m.len() > MAX_TEXT_BYTES) {
        return;
    }
    let Ok(bytes) = std::fs::read(&source) else {
        return;
    };
    if intent_gate::bytes_sha256(&bytes) != hash {
        return; // changed again since it was hashed
    }
    let dir = target.parent().expect("has a parent");
    let _ = atomic::write(&target, &bytes, atomic::Sync::No);
    // Listing the directory costs more than the whole hook should: prune on about
    // one write in 256 (those whose hash starts with "00").
    if hash.starts_with("sha256:00") {
        prune_oldest(dir, MAX_TEXTS, MAX_TEXTS);
    }
}

/// Deletes the oldest files of `dir` (by modification time) down to `keep` once it
/// holds more than `above`: cache directories stay bounded without an index.
pub(super) fn prune_oldest(dir: &Path, above: usize, keep: usize) {
    // Counting names is one directory read; the times cost a stat per file, so
    // they are read only when there is something to prune.
    let count = std::fs::read_dir(dir).map_or(0, |entries| entries.count());
    if count <= above {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = entries
        .flatten()
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    if files.len() <= above {
        return;
    }
    files.sort_by_key(|(modified, _)| std::cmp::Reverse(*modified));
    for (_, path) in files.iter().skip(keep) {
        let _ = std::fs::remove_file(path);
    }
}
