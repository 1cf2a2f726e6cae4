//! The one error type of this crate.

use std::io;
use std::path::PathBuf;

/// Result alias used throughout `intent-ledger`.
pub type Result<T, E = LedgerError> = std::result::Result<T, E>;

/// Everything that can go wrong while appending to, reading or verifying a ledger.
///
/// Each variant's message says what happened and what the user can do next; the CLI
/// maps the variants to stable exit codes.
#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    /// An operating-system error on a named file.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file the operation was about.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: io::Error,
    },
    /// A complete line of the ledger fails its structure, sequence or hash check.
    ///
    /// Corruption is never repaired automatically: only a torn tail (bytes after the
    /// last newline) is, because only a dead writer leaves those.
    #[error(
        "ledger {} is corrupt at seq {seq}, byte offset {offset}: {reason}; \
         nothing will be appended past it. Inspect it with `intent verify`, restore the \
         ledger from a copy (e.g. git), and run `intent verify` again",
        path.display()
    )]
    Corruption {
        /// The ledger file.
        path: PathBuf,
        /// The sequence number the bad line holds or should hold.
        seq: u64,
        /// Byte offset of the start of the bad line.
        offset: u64,
        /// What is wrong with it.
        reason: String,
    },
    /// The ledger no longer matches its head (kept outside the file): it was
    /// emptied, cut short, rewritten, replaced, or had foreign lines appended.
    /// Appends fail closed until a person runs `intent verify --repair`.
    #[error(
        "ledger {} was tampered with ({kind}, from seq {since_seq}): {detail}. Nothing will be \
         appended until a person looks: `intent verify` shows it, `intent restore` rebuilds \
         lost events from the last checkpoint in git (when there is one), `intent verify \
         --repair` records what was lost (or sets foreign lines aside) and lets work continue",
        path.display()
    )]
    Tampered {
        /// The ledger file.
        path: PathBuf,
        /// `emptied`, `shortened`, `rewritten`, `replaced`, `foreign_lines` or
        /// `restore_interrupted`.
        kind: &'static str,
        /// The first seq affected.
        since_seq: u64,
        /// What happened, in words.
        detail: String,
    },
    /// An optimistic-concurrency check failed: another writer appended first.
    #[error(
        "expected the ledger to end at seq {expected}, but it ends at seq {actual}: \
         another writer appended first; re-read and retry"
    )]
    Conflict {
        /// The last seq the caller expected.
        expected: u64,
        /// The last seq actually in the ledger.
        actual: u64,
    },
    /// The ledger is writable by its permissions, yet writing it was denied: this
    /// process runs in a sandbox that keeps it out of the ledger (`intent confine`,
    /// an agent's OS sandbox), as it should for an agent's commands.
    #[error(
        "ledger {} is not writable from here although its permissions allow it: this \
         process runs confined (`intent confine` or the agent's sandbox keeps agents' \
         commands out of the ledger); a person's acts (`intent status`, `select`, \
         `append`, `restore`…) run in a terminal outside the agent",
        path.display()
    )]
    Unwritable {
        /// The ledger file.
        path: PathBuf,
    },
    /// The ledger lock is held by another process and the caller asked not to wait.
    #[error("ledger {} is locked by another process; retry shortly", path.display())]
    Locked {
        /// The ledger file.
        path: PathBuf,
    },
    /// An event handed to `append` is not acceptable; nothing was written.
    #[error("invalid event: {0}; nothing was written")]
    InvalidEvent(String),
    /// An event line would exceed the configured size limit; nothing was written.
    #[error(
        "event of {len} bytes exceeds the limit of {max} bytes; record hashes and \
         paths, not content; nothing was written"
    )]
    TooLarge {
        /// Size of the encoded line.
        len: usize,
        /// The configured limit.
        max: usize,
    },
}

impl LedgerError {
    /// An I/O error on `path` (the projections built beside the ledger report
    /// theirs the same way).
    pub fn io(path: impl Into<PathBuf>, source: io::Error) -> Self {
        LedgerError::Io {
            path: path.into(),
            source,
        }
    }
}
