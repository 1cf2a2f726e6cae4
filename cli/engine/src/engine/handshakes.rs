//! Which session made an MCP tool call: the PreToolUse hook of a handshake tool
//! (`select_active_intent`…) notes `tool_use_id → session` in the cache, and the MCP
//! server, which sees only the tool-use id, reads it back in O(1). The cache is
//! derived data: when the note is missing (a deleted `.cache/`), the server falls
//! back to finding the call's `tool.pre` event in the ledger.

use std::path::{Path, PathBuf};

use intent_ledger::atomic;
use intent_ledger::Workspace;

/// Notes kept; the oldest half goes when there are more.
const KEPT: usize = 512;

fn dir(workspace: &Workspace) -> PathBuf {
    workspace.cache_dir().join("handshakes")
}

fn note_path(dir: &Path, tool_use_id: &str) -> PathBuf {
    let name = blake3::hash(tool_use_id.as_bytes()).to_hex();
    dir.join(&name[..32])
}

/// Notes that `session` made the call `tool_use_id`. Best effort: a lost note costs
/// the MCP server a ledger scan, nothing else.
pub(super) fn record(workspace: &Workspace, tool_use_id: &str, session: &str) {
    let dir = dir(workspace);
    let _ = atomic::write(
        &note_path(&dir, tool_use_id),
        session.as_bytes(),
        atomic::Sync::No,
    );
    prune(&dir);
}

/// The session that made the call, if the hook noted it.
pub(super) fn lookup(workspace: &Workspace, tool_use_id: &str) -> Option<String> {
    let bytes = std::fs::read(note_path(&dir(workspace), tool_use_id)).ok()?;
    String::from_utf8(bytes).ok().filter(|s| !s.is_empty())
}

fn prune(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut notes: Vec<(std::time::SystemTime, PathBuf)> = entries
        .flatten()
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    if notes.len() <= KEPT {
        return;
    }
    notes.sort();
    for (_, path) in &notes[..notes.len() - KEPT / 2] {
        let _ = std::fs::remove_file(path);
    }
}
