//! Checkpoints of the hook state beside the ledger (`agent_trace.checkpoints/`).
//!
//! The state cache lives with the other derived files and goes when they go
//! (`rm -rf` of the cache, a new worktree's first hook, a cache of another
//! version). Without a checkpoint the next hook rebuilds the state from the whole
//! ledger: 2.2 s at 1 M events, past what a front-end waits before it runs the
//! tool ungated. A checkpoint is the whole state (shards included) as of one
//! ledger line, stamped with that line's seq, chain hash and end offset; a hook
//! that finds no cache restores the newest checkpoint whose stamp still matches
//! the ledger (one read: the line ending at the offset has the hash) and catches
//! up over the events since, as it does from its cache.
//!
//! Checkpoints are derived like the cache: never synced, never trusted without the
//! stamp check, and a damaged one only costs the rebuild it was meant to save. One
//! is written whenever a state holding everything in memory (a rebuild, a restore)
//! is [`EVERY_BYTES`] of ledger past the newest, and by the resident helper after
//! its answer; the newest [`KEEP`] are kept.

use std::collections::{BTreeMap, VecDeque};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{BlockIdentity, DigestItem, HookState, STATE_VERSION};

/// Ledger bytes between checkpoints: about 80,000 events, whose catch-up takes
/// ~0.2 s (a rebuild reads ~400,000 events a second).
pub const EVERY_BYTES: u64 = 64 << 20;

/// [`EVERY_BYTES`], or `INTENT_CHECKPOINT_BYTES` when set (tests and tuning).
fn every_bytes() -> u64 {
    std::env::var("INTENT_CHECKPOINT_BYTES")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .filter(|bytes| *bytes > 0)
        .unwrap_or(EVERY_BYTES)
}
/// Checkpoints kept (older ones are removed when a new one is written).
pub const KEEP: usize = 2;

/// The whole state: the core and every shard.
#[derive(Serialize, Deserialize)]
struct Checkpoint {
    core: HookState,
    session_files: BTreeMap<String, BTreeMap<String, String>>,
    digests: BTreeMap<String, VecDeque<DigestItem>>,
    blocks: BTreeMap<String, BTreeMap<String, BlockIdentity>>,
}

/// [`Checkpoint`] as written, borrowing the state.
#[derive(Serialize)]
struct CheckpointRef<'a> {
    core: &'a HookState,
    session_files: BTreeMap<&'a str, &'a BTreeMap<String, String>>,
    digests: &'a BTreeMap<String, VecDeque<DigestItem>>,
    blocks: &'a BTreeMap<String, BTreeMap<String, BlockIdentity>>,
}

/// The checkpoint directory of `ledger` (`agent_trace.checkpoints/` beside it).
pub fn dir(ledger: &Path) -> PathBuf {
    ledger.with_extension("checkpoints")
}

/// Checkpoints on disk, by the ledger offset they were made at, newest first.
fn listed(ledger: &Path) -> Vec<(u64, PathBuf)> {
    let mut found: Vec<(u64, PathBuf)> = std::fs::read_dir(dir(ledger))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let end = name.strip_prefix("state-")?.strip_suffix(".json")?;
            Some((end.parse().ok()?, entry.path()))
        })
        .collect();
    found.sort_unstable_by_key(|(end, _)| std::cmp::Reverse(*end));
    found
}

/// The ledger offset of the newest checkpoint (0 when there is none).
pub fn newest_end(ledger: &Path) -> u64 {
    listed(ledger).first().map_or(0, |(end, _)| *end)
}

/// Whether a state at ledger offset `end` is due for a checkpoint.
pub fn due(ledger: &Path, end: u64) -> bool {
    end >= newest_end(ledger).saturating_add(every_bytes())
}

/// The newest checkpoint made from this very ledger at or before `end`, holding
/// everything in memory; `None` when there is none or none fits.
pub fn restore(ledger: &Path, end: u64) -> Option<HookState> {
    for (at, path) in listed(ledger) {
        if at > end {
            continue;
        }
        let Some(checkpoint) = std::fs::read(&path)
            .ok()
            .and_then(|bytes| serde_json::from_slice::<Checkpoint>(&bytes).ok())
        else {
            continue;
        };
        let core = &checkpoint.core;
        if core.version != STATE_VERSION || core.stamp.end != at || !core.stamp.matches(ledger) {
            continue;
        }
        let mut state = checkpoint.core;
        for (session, files) in checkpoint.session_files {
            if let Some(session) = state.sessions.get_mut(&session) {
                session.files = files;
            }
        }
        state.digests = checkpoint.digests;
        state.blocks = checkpoint.blocks;
        return Some(state);
    }
    None
}

/// Writes a checkpoint of `state`, which must hold everything in memory (no shard
/// left on disk unloaded), then removes all but the newest [`KEEP`]. Best effort:
/// a checkpoint that cannot be written costs a rebuild later, nothing else.
pub fn write(ledger: &Path, state: &HookState) {
    let dir = dir(ledger);
    if std::fs::create_dir_all(&dir).is_err() {
        return;
    }
    ignore_beside(ledger);
    let checkpoint = CheckpointRef {
        core: state,
        session_files: state
            .sessions
            .iter()
            .map(|(id, session)| (id.as_str(), &session.files))
            .collect(),
        digests: &state.digests,
        blocks: &state.blocks,
    };
    let Ok(bytes) = serde_json::to_vec(&checkpoint) else {
        return;
    };
    let path = dir.join(format!("state-{:020}.json", state.stamp.end));
    if intent_ledger::atomic::write(&path, &bytes, intent_ledger::atomic::Sync::No).is_err() {
        return;
    }
    for (_, old) in listed(ledger).into_iter().skip(KEEP) {
        let _ = std::fs::remove_file(old);
    }
}

/// A ledger in `.orchestration/` (no git) has a `.gitignore` beside it: the
/// checkpoints must never show up as a change to commit.
fn ignore_beside(ledger: &Path) {
    if let Some(parent) = ledger.parent() {
        let gitignore = parent.join(".gitignore");
        if gitignore.is_file() {
            let _ = intent_ledger::workspace::ensure_ignored(&gitignore);
        }
    }
}
