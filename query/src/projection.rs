//! What every projection shares: the stamp it reflects, catching up from it, progress
//! reporting and atomic writes.
//!
//! A projection stores the [`Stamp`] (seq, h, byte end) of the last ledger line it
//! applied. Catching up reads only the lines after `end`; when the line ending at
//! `end` no longer carries `h` (the ledger was replaced or rewritten), the projection
//! starts again from the first line. Either way the result must be the same as a
//! rebuild from nothing: projections apply events in ledger order and keep nothing
//! that the ledger cannot give back.

use std::path::Path;

pub use intent_ledger::state::Stamp;
use intent_ledger::{Event, LedgerError, LineReader};

/// Why a projection or a query failed.
#[derive(Debug, thiserror::Error)]
pub enum QueryError {
    /// Reading the ledger failed (I/O or a corrupt line).
    #[error(transparent)]
    Ledger(#[from] LedgerError),
    /// A projection file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The search index failed.
    #[error("search index: {0}")]
    Index(String),
    /// The request itself cannot be answered as given (bad argument, unknown path).
    #[error("{0}")]
    Invalid(String),
}

impl QueryError {
    /// Wraps an I/O error with the path it concerns.
    pub fn io(path: &Path, source: std::io::Error) -> QueryError {
        QueryError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// Result of this crate.
pub type Result<T, E = QueryError> = std::result::Result<T, E>;

/// Progress of a long scan, reported in ledger bytes. The CLI draws a bar on a
/// terminal; libraries and tests pass [`NoProgress`].
pub trait Progress: Sync {
    /// A scan of `total` bytes named `what` starts.
    fn start(&self, what: &str, total: u64);
    /// `bytes` more bytes were read.
    fn advance(&self, bytes: u64);
    /// The scan ended.
    fn finish(&self);
}

/// Reports nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoProgress;

impl Progress for NoProgress {
    fn start(&self, _what: &str, _total: u64) {}
    fn advance(&self, _bytes: u64) {}
    fn finish(&self) {}
}

/// How a catch-up went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CatchUp {
    /// The stored stamp did not match the ledger (or there was none): the projection
    /// was rebuilt from the first line.
    pub from_scratch: bool,
    /// Lines applied.
    pub applied: u64,
}

/// Where a projection must start reading: after `stamp` when it still matches the
/// ledger, else from the first line (`None` means: start from scratch).
pub fn resume_point(ledger: &Path, stamp: Option<&Stamp>) -> Option<u64> {
    stamp.filter(|s| s.matches(ledger)).map(|s| s.end)
}

/// Reads every complete line from `from`, parses it and hands it to `apply` with the
/// stamp it establishes. Reports progress in bytes. Returns the number of lines.
pub fn scan(
    ledger: &Path,
    from: u64,
    what: &str,
    progress: &dyn Progress,
    mut apply: impl FnMut(&Event, &Stamp) -> Result<()>,
) -> Result<u64> {
    let total = std::fs::metadata(ledger)
        .map_err(|e| QueryError::io(ledger, e))?
        .len()
        .saturating_sub(from);
    progress.start(what, total);
    let mut applied = 0;
    let mut pending = 0u64;
    for line in LineReader::open_at(ledger, from)? {
        let line = line?;
        let event = line.parse(ledger)?;
        let len = line.bytes.len() as u64 + 1;
        let stamp = Stamp {
            seq: event.seq,
            h: event.h.clone(),
            end: line.offset + len,
        };
        apply(&event, &stamp)?;
        applied += 1;
        pending += len;
        if pending >= 1 << 20 {
            progress.advance(pending);
            pending = 0;
        }
    }
    progress.advance(pending);
    progress.finish();
    Ok(applied)
}

/// Writes `bytes` to `path` through a temporary file and a rename, so readers see
/// the old file or the new one, never half of one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| QueryError::io(dir, e))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    std::fs::write(&tmp, bytes).map_err(|e| QueryError::io(&tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| QueryError::io(path, e))
}
