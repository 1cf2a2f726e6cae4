//! Persistence of the hook state: `state.json` plus its shards, loaded and caught
//! up under the ledger lock.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{checkpoint, BlockIdentity, HookState, Shards, STATE_VERSION};
use intent_ledger::Transaction;
use intent_ledger::{LedgerError, Result};

/// Where the state cache of a workspace lives.
#[derive(Debug, Clone)]
pub struct StateCache {
    path: PathBuf,
}

impl StateCache {
    /// Uses `<cache_dir>/state.json`.
    pub fn new(cache_dir: &Path) -> StateCache {
        StateCache {
            path: cache_dir.join("state.json"),
        }
    }

    fn dir(&self) -> &Path {
        self.path.parent().expect("state.json has a parent")
    }

    /// Loads the state and brings it up to the transaction's tail: O(1) plus the
    /// lines written since the stamp; a rebuild when the cache is missing or stale.
    pub fn load(&self, tx: &Transaction<'_>) -> Result<HookState> {
        let cached: Option<HookState> = std::fs::read(&self.path)
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok());
        let usable = cached.filter(|state| fits(state, tx));
        match usable {
            Some(mut state) => {
                state.shards = Some(Shards {
                    dir: self.dir().to_path_buf(),
                    saved_end: state.stamp.end,
                    ..Shards::default()
                });
                state.catch_up(tx.path(), tx.end())?;
                Ok(state)
            }
            None => {
                // Shards of an earlier cache may not match this ledger.
                for sub in ["sessions", "digests", "blocks"] {
                    let _ = std::fs::remove_dir_all(self.dir().join(sub));
                }
                // The newest checkpoint that fits, caught up; else the whole ledger.
                let state = match checkpoint::restore(tx.path(), tx.end()) {
                    Some(mut state) => {
                        state.catch_up(tx.path(), tx.end())?;
                        state
                    }
                    None => HookState::rebuild(tx.path(), tx.end())?,
                };
                if checkpoint::due(tx.path(), state.stamp.end) {
                    checkpoint::write(tx.path(), &state);
                }
                Ok(state)
            }
        }
    }

    /// Saves a state made by an earlier transaction of this process (the resident
    /// helper saves after it has answered, off the hook's critical path): brought
    /// up to this transaction's tail first, as a load would. A state made from
    /// another ledger file (replaced in between) is dropped instead; the next load
    /// then rebuilds or catches up from what is on disk, as after a crash.
    pub fn save_current(&self, tx: &Transaction<'_>, state: HookState) -> Result<()> {
        self.save_and_keep(tx, state).map(|_| ())
    }

    /// Loads the state with every shard in memory (for comparisons and exports).
    pub fn load_full(&self, tx: &Transaction<'_>) -> Result<HookState> {
        let mut state = self.load(tx)?;
        self.load_shards(&mut state);
        Ok(state)
    }

    /// Reads every shard of `state` into memory.
    fn load_shards(&self, state: &mut HookState) {
        let sessions: Vec<String> = state.sessions.keys().cloned().collect();
        for session in sessions {
            state.ensure_session(&session);
        }
        if let Ok(entries) = std::fs::read_dir(self.dir().join("blocks")) {
            for entry in entries.flatten() {
                if let Some(shard) = read_json::<BlocksShard>(&entry.path()) {
                    state.ensure_blocks(&shard.path);
                }
            }
        }
        if let Ok(entries) = std::fs::read_dir(self.dir().join("digests")) {
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if let Some(intent) = name.strip_suffix(".json") {
                    state.ensure_digest(intent);
                }
            }
        }
    }

    /// Writes the state atomically (temp file + rename). The cache is derived, so it
    /// is not synced: after a crash it is rebuilt or caught up.
    ///
    /// Shards are written first (only the changed ones, or all after a rebuild) and
    /// the core last, so a crash in between leaves an older core whose stamp makes
    /// the next load catch up over the same events again, which is idempotent.
    ///
    /// A state that no event changed since it was loaded is not written at all
    /// while its stamp lags by less than 256 KiB (see `Shards::nothing_to_save`).
    pub fn save(&self, state: &HookState) -> Result<()> {
        self.write(state).map(|_| ())
    }

    /// [`StateCache::save`], telling whether anything was written.
    fn write(&self, state: &HookState) -> Result<bool> {
        if let Some(shards) = &state.shards {
            if shards.nothing_to_save(state.stamp.end) {
                return Ok(false);
            }
            // Loaded from a cache deleted since: writing only what changed would
            // leave a core whose shards are missing. The next load rebuilds.
            if !self.path.exists() {
                return Ok(false);
            }
        }
        let dir = self.dir();
        let (sessions, digests, evicted): (Vec<String>, Vec<String>, Vec<String>) =
            match &state.shards {
                Some(shards) => (
                    shards.dirty_sessions.iter().cloned().collect(),
                    shards.dirty_digests.iter().cloned().collect(),
                    shards.evicted_sessions.iter().cloned().collect(),
                ),
                None => (
                    state.sessions.keys().cloned().collect(),
                    state.digests.keys().cloned().collect(),
                    Vec::new(),
                ),
            };
        for session in sessions {
            if let Some(s) = state.sessions.get(&session) {
                write_json(&session_shard(dir, &session), &s.files)?;
            }
        }
        for intent in digests {
            if let Some(items) = state.digests.get(&intent) {
                write_json(&digest_shard(dir, &intent), items)?;
            }
        }
        let block_files: Vec<String> = match &state.shards {
            Some(shards) => shards.dirty_blocks.iter().cloned().collect(),
            None => state.blocks.keys().cloned().collect(),
        };
        for path in block_files {
            if let Some(ids) = state.blocks.get(&path) {
                let shard = BlocksShard {
                    path: path.clone(),
                    ids: ids.clone(),
                };
                write_json(&blocks_shard(dir, &path), &shard)?;
            }
        }
        for session in evicted {
            // Evicted, then back (a new event of it): its shard was just written.
            if !state.sessions.contains_key(&session) {
                let _ = std::fs::remove_file(session_shard(dir, &session));
            }
        }
        write_json(&self.path, state)?;
        Ok(true)
    }

    /// Saves like [`StateCache::save_current`] and returns the state as saved, for a
    /// long-lived process (the resident helper) to pass to its next
    /// [`StateCache::load_kept`] instead of reading it back: `None` when the state
    /// was dropped (made from a replaced ledger).
    pub fn save_and_keep(
        &self,
        tx: &Transaction<'_>,
        mut state: HookState,
    ) -> Result<Option<KeptState>> {
        if !fits(&state, tx) {
            return Ok(None);
        }
        state.catch_up(tx.path(), tx.end())?;
        if self.write(&state)? {
            state.mark_saved(self.dir());
        }
        // After the helper's answer: the state's shards are read in once per
        // checkpoint (every `EVERY_BYTES` of ledger), so that a cache lost later
        // costs a catch-up from here, not a rebuild.
        if checkpoint::due(tx.path(), state.stamp.end) {
            self.load_shards(&mut state);
            checkpoint::write(tx.path(), &state);
        }
        let held = std::fs::File::open(&self.path).ok();
        Ok(Some(KeptState {
            core: held.as_ref().and(FileIdentity::of(&self.path)),
            _held: held,
            state,
        }))
    }

    /// Loads the state as [`StateCache::load`] does, but starts from `kept` when
    /// `state.json` is still the file its save left (no other process saved since,
    /// nobody deleted the cache) and it was made from this ledger: it is then the
    /// same state, without reading and decoding it again.
    pub fn load_kept(&self, tx: &Transaction<'_>, kept: Option<KeptState>) -> Result<HookState> {
        if let Some(KeptState {
            core, mut state, ..
        }) = kept
        {
            if core.is_some() && core == FileIdentity::of(&self.path) && fits(&state, tx) {
                state.catch_up(tx.path(), tx.end())?;
                return Ok(state);
            }
        }
        self.load(tx)
    }
}

/// A hook state a long-lived process keeps between transactions, with the identity
/// of the `state.json` that held it when it was saved.
#[derive(Debug)]
pub struct KeptState {
    core: Option<FileIdentity>,
    /// `state.json` as saved, held open: its inode cannot be reused by a later
    /// file while it is, so an identity match means the very same file.
    _held: Option<std::fs::File>,
    state: HookState,
}

/// Which file a path names and its version: every save replaces `state.json` by a
/// rename (a new inode), so another process's save changes it.
#[derive(Debug, PartialEq)]
struct FileIdentity {
    dev: u64,
    ino: u64,
    len: u64,
    mtime_ns: i128,
    ctime_ns: i128,
}

impl KeptState {
    /// Estimated bytes the kept state takes in memory ([`HookState::memory_bytes`]).
    pub fn memory_bytes(&self) -> usize {
        self.state.memory_bytes()
    }
}

impl FileIdentity {
    fn of(path: &Path) -> Option<FileIdentity> {
        use std::os::unix::fs::MetadataExt;
        let meta = std::fs::metadata(path).ok()?;
        let ns = |secs: i64, nanos: i64| i128::from(secs) * 1_000_000_000 + i128::from(nanos);
        Some(FileIdentity {
            dev: meta.dev(),
            ino: meta.ino(),
            len: meta.len(),
            mtime_ns: ns(meta.mtime(), meta.mtime_nsec()),
            ctime_ns: ns(meta.ctime(), meta.ctime_nsec()),
        })
    }
}

/// Whether `state` was made from this transaction's ledger file, up to at most its
/// tail, by this version of the state format.
fn fits(state: &HookState, tx: &Transaction<'_>) -> bool {
    state.version == STATE_VERSION && state.stamp.end <= tx.end() && state.stamp.matches(tx.path())
}

pub(super) fn session_shard(dir: &Path, session: &str) -> PathBuf {
    // Session ids come from front-ends: hash them into safe, fixed-length names.
    let name = blake3::hash(session.as_bytes()).to_hex();
    dir.join("sessions").join(format!("{}.json", &name[..32]))
}

/// A file's block identities, with the path its name is hashed from.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct BlocksShard {
    pub(super) path: String,
    pub(super) ids: BTreeMap<String, BlockIdentity>,
}

pub(super) fn blocks_shard(dir: &Path, path: &str) -> PathBuf {
    let name = blake3::hash(path.as_bytes()).to_hex();
    dir.join("blocks").join(format!("{}.json", &name[..32]))
}

pub(super) fn digest_shard(dir: &Path, intent: &str) -> PathBuf {
    let safe: String = intent
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    dir.join("digests").join(format!("{safe}.json"))
}

pub(super) fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Option<T> {
    serde_json::from_slice(&std::fs::read(path).ok()?).ok()
}

/// Writes a JSON file atomically (temp file + rename); not synced, as all derived data.
fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<()> {
    let bytes = serde_json::to_vec(value).expect("serialize cache");
    intent_ledger::atomic::write(path, &bytes, intent_ledger::atomic::Sync::No)
        .map_err(|e| LedgerError::io(path, e))
}
