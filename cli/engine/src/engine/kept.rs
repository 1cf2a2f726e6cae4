//! What the resident helper keeps in memory between hooks, under one budget.
//!
//! The helper keeps analyses (the text a write replaces is nearly always one an
//! earlier hook analyzed), the newest tree of each path with its per-statement
//! records (a new version re-parses incrementally from it), and the hook state it
//! saved last. Each entry is charged what it takes in memory (estimated by
//! `intent_ast_hash`: capacities, names, tree nodes), not its text's length: an
//! analysis of a 40 KB file takes several times that, and a budget of text bytes
//! let 800 writes of thirty 40 KB files grow the helper to 449 MB. Above the budget
//! the least recently used analysis or tree goes first, whichever it is.
//!
//! `INTENT_HELPER_MEMORY_MB` sets the budget (default [`DEFAULT_BUDGET_MB`]);
//! `intent helper status` shows what is kept against it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use intent_ast_hash::{FileAnalysis, Parsed};
use serde::Serialize;

/// Default budget of what the helper keeps, in MiB. The helper's own code, grammars
/// and buffers come on top (about 50 MB resident): 20,000 hooks over thirty 40 KB
/// files peaked at 104 MB (`benches/soak.rs`). Every file of such a working set
/// keeps its tree, and the text each write replaces its analysis.
pub const DEFAULT_BUDGET_MB: usize = 48;

/// The budget, from `INTENT_HELPER_MEMORY_MB` (whole MiB, at least 1): read once,
/// when the helper makes its [`super::resident::Resident`].
pub fn budget_bytes() -> usize {
    std::env::var("INTENT_HELPER_MEMORY_MB")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|mb| *mb >= 1)
        .unwrap_or(DEFAULT_BUDGET_MB)
        << 20
}

/// What an entry is kept for.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Key {
    /// The analysis of one text of a path (path, BLAKE3 of the text).
    Analysis(String, blake3::Hash),
    /// The newest error-free tree of a path.
    Tree(String),
}

enum Entry {
    Analysis(Box<FileAnalysis>),
    Tree(Parsed, Arc<str>),
}

/// Entries kept up to a budget of bytes, the least recently used going first.
struct ByteLru<K, V> {
    clock: u64,
    bytes: usize,
    entries: HashMap<K, (V, usize, u64)>,
}

impl<K: std::hash::Hash + Eq + Clone, V> ByteLru<K, V> {
    fn new() -> Self {
        ByteLru {
            clock: 0,
            bytes: 0,
            entries: HashMap::new(),
        }
    }

    /// The entry of `key`, marked as just used.
    fn get(&mut self, key: &K) -> Option<&V> {
        self.clock += 1;
        let (value, _, used) = self.entries.get_mut(key)?;
        *used = self.clock;
        Some(value)
    }

    /// Keeps `value` (costing `bytes`) under `key`, then drops the least recently
    /// used entries while more than `limit` bytes are kept (never the last one).
    fn insert(&mut self, key: K, value: V, bytes: usize, limit: usize) {
        self.clock += 1;
        if let Some((_, gone, _)) = self.entries.insert(key, (value, bytes, self.clock)) {
            self.bytes -= gone;
        }
        self.bytes += bytes;
        while self.bytes > limit && self.entries.len() > 1 {
            let Some(oldest) = self
                .entries
                .iter()
                .min_by_key(|(_, (_, _, used))| *used)
                .map(|(key, _)| key.clone())
            else {
                break;
            };
            if let Some((_, gone, _)) = self.entries.remove(&oldest) {
                self.bytes -= gone;
            }
        }
    }
}

/// The analyses and trees a [`super::resident::Resident`] keeps, and the bytes of
/// the hook state it keeps beside them, under one budget.
pub(super) struct Kept {
    entries: Mutex<ByteLru<Key, Entry>>,
    /// Estimated bytes of the hook state the helper keeps (charged against the
    /// same budget: the analyses and trees get what it leaves).
    state_bytes: AtomicUsize,
    budget: usize,
}

impl Kept {
    /// Nothing kept yet, under a budget of `budget` bytes.
    pub(super) fn new(budget: usize) -> Kept {
        Kept {
            entries: Mutex::new(ByteLru::new()),
            state_bytes: AtomicUsize::new(0),
            budget,
        }
    }

    fn with_entries<T>(&self, f: impl FnOnce(&mut ByteLru<Key, Entry>) -> T) -> T {
        f(&mut self.entries.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// What analyses and trees may take: the budget less the hook state.
    fn limit(&self) -> usize {
        self.budget
            .saturating_sub(self.state_bytes.load(Ordering::Relaxed))
    }

    /// The kept analysis of `path`'s text of BLAKE3 `hash`.
    pub(super) fn analysis(&self, path: &str, hash: blake3::Hash) -> Option<FileAnalysis> {
        self.with_entries(
            |kept| match kept.get(&Key::Analysis(path.to_string(), hash)) {
                Some(Entry::Analysis(analysis)) => Some((**analysis).clone()),
                _ => None,
            },
        )
    }

    /// Keeps `analysis` of the text of BLAKE3 `hash`.
    pub(super) fn keep_analysis(&self, hash: blake3::Hash, analysis: &FileAnalysis) {
        let bytes = analysis.memory_bytes();
        let key = Key::Analysis(analysis.path.clone(), hash);
        let limit = self.limit();
        self.with_entries(|kept| {
            kept.insert(
                key,
                Entry::Analysis(Box::new(analysis.clone())),
                bytes,
                limit,
            )
        });
    }

    /// The newest kept tree of `path` and its text (cloning either is a reference
    /// count).
    pub(super) fn tree(&self, path: &str) -> Option<(Parsed, Arc<str>)> {
        self.with_entries(|kept| match kept.get(&Key::Tree(path.to_string())) {
            Some(Entry::Tree(tree, text)) => Some((tree.clone(), text.clone())),
            _ => None,
        })
    }

    /// Makes `tree` (of `text`) the newest of `path`.
    pub(super) fn keep_tree(&self, path: &str, tree: Parsed, text: &str) {
        let bytes = tree.memory_bytes() + text.len();
        let entry = Entry::Tree(tree, Arc::from(text));
        let limit = self.limit();
        self.with_entries(|kept| kept.insert(Key::Tree(path.to_string()), entry, bytes, limit));
    }

    /// Charges the hook state the helper keeps at `bytes`.
    pub(super) fn charge_state(&self, bytes: usize) {
        self.state_bytes.store(bytes, Ordering::Relaxed);
    }

    /// What is kept now.
    pub(super) fn memory(&self) -> Memory {
        let state = self.state_bytes.load(Ordering::Relaxed);
        self.with_entries(|kept| {
            let trees = kept
                .entries
                .keys()
                .filter(|key| matches!(key, Key::Tree(_)))
                .count();
            Memory {
                budget_bytes: self.budget as u64,
                kept_bytes: (kept.bytes + state) as u64,
                analyses: (kept.entries.len() - trees) as u64,
                trees: trees as u64,
                state_bytes: state as u64,
            }
        })
    }
}

/// What the helper keeps against its budget (`intent helper status`).
#[derive(Debug, Clone, Default, Serialize, serde::Deserialize)]
pub struct Memory {
    /// The budget, in bytes.
    pub budget_bytes: u64,
    /// Estimated bytes kept: analyses, trees and the hook state.
    pub kept_bytes: u64,
    /// Analyses kept.
    pub analyses: u64,
    /// Trees kept (one per path at most).
    pub trees: u64,
    /// Estimated bytes of the hook state among them.
    pub state_bytes: u64,
}

#[cfg(test)]
mod tests {
    use super::ByteLru;

    /// Above the limit the least recently used entry goes first; replacing an
    /// entry counts its bytes once; the last entry stays whatever its size.
    #[test]
    fn the_least_recently_used_go_first_above_the_limit() {
        let mut lru = ByteLru::new();
        lru.insert("a", 1, 4, 10);
        lru.insert("b", 2, 4, 10);
        assert_eq!(lru.get(&"a"), Some(&1)); // "b" is now the oldest
        lru.insert("c", 3, 4, 10);
        assert_eq!(lru.get(&"b"), None);
        assert_eq!(lru.get(&"a"), Some(&1));
        assert_eq!(lru.get(&"c"), Some(&3));
        lru.insert("c", 4, 4, 10);
        assert_eq!(lru.bytes, 8);
        lru.insert("huge", 5, 100, 10);
        assert_eq!(lru.entries.len(), 1);
        assert_eq!(lru.get(&"huge"), Some(&5));
    }
}
