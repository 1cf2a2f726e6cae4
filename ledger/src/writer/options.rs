//! The settings of a ledger handle and of one append, and what an append did.

use super::DerivedIds;

/// How hard an append works to reach stable storage before it returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Durability {
    /// `fdatasync` after every append call (one per batch). The default: an
    /// acknowledged event survives a power cut.
    #[default]
    Always,
    /// No sync per append; [`Ledger::sync`](super::Ledger::sync) (or dropping the ledger) syncs once.
    /// For bulk imports that can redo their work after a crash.
    Batch,
    /// Never sync; the OS writes back when it likes. For benchmarks and scratch use.
    Never,
}

impl Durability {
    /// Parses `always`, `batch` or `never`.
    pub fn parse(text: &str) -> Option<Durability> {
        match text {
            "always" => Some(Durability::Always),
            "batch" => Some(Durability::Batch),
            "never" => Some(Durability::Never),
            _ => None,
        }
    }
}

/// Settings of a [`Ledger`](super::Ledger) handle.
#[derive(Debug, Clone)]
pub struct LedgerOptions {
    /// When to sync.
    pub durability: Durability,
    /// Largest accepted line, newline included. Events carry hashes and paths, not
    /// file contents, so a few MiB is generous.
    pub max_line_bytes: usize,
    /// Where the events come from (worktree and branch), recorded as
    /// `data.worktree` on every event that does not say it itself.
    pub origin: Option<serde_json::Value>,
    /// Ids for events that come without one, drawn from a seed instead of at
    /// random, and whether to look for them first (a hook that may have been
    /// recorded already; see [`DerivedIds`]).
    pub derived_ids: Option<DerivedIds>,
    /// How long to wait for the ledger's lock before failing with
    /// [`LedgerError::Locked`](crate::LedgerError::Locked); `None` waits as long as
    /// it takes. Hooks set one well inside their front-end's timeout, so a lock
    /// held by a stopped process makes them fail closed in time.
    pub lock_timeout: Option<std::time::Duration>,
}

impl Default for LedgerOptions {
    fn default() -> Self {
        LedgerOptions {
            durability: Durability::Always,
            max_line_bytes: 4 * 1024 * 1024,
            origin: None,
            derived_ids: None,
            lock_timeout: None,
        }
    }
}

/// Per-call options of [`Ledger::append_batch_with`](super::Ledger::append_batch_with).
#[derive(Debug, Clone, Copy, Default)]
pub struct AppendOptions {
    /// Optimistic concurrency: append only if the ledger still ends at this seq,
    /// else fail with [`LedgerError::Conflict`](crate::LedgerError::Conflict).
    pub expected_last_seq: Option<u64>,
}

/// What an append did with one event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Appended {
    /// The event's seq (the original one for a duplicate).
    pub seq: u64,
    /// The event's id.
    pub id: String,
    /// True when the id was already in the ledger and nothing was written for it.
    pub duplicate: bool,
}
