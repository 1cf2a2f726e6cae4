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

use intent_ledger::{Event, LedgerError, LineReader};
pub use intent_state::Stamp;

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
    /// The search index is not as this version writes it.
    #[error("search index: {0}")]
    Index(String),
    /// tantivy failed; the cause is kept for `{:#}` and `source()`.
    #[error("search index: {0}")]
    Tantivy(#[from] tantivy::TantivyError),
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
    let mut applied = 0;
    scan_lines(
        ledger,
        from,
        what,
        progress,
        |_| true,
        |event, _, stamp| {
            applied += 1;
            apply(event, stamp)
        },
    )?;
    Ok(applied)
}

/// Writes `bytes` to `path` through a temporary file and a rename, so readers see
/// the old file or the new one, never half of one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    intent_ledger::atomic::write(path, bytes, intent_ledger::atomic::Sync::No)
        .map_err(|e| QueryError::io(path, e))
}

/// Like [`scan`], but parses only lines whose kind is one of `kinds` (found in the
/// line's fixed envelope without parsing it); every line still advances the stamp.
/// `apply` gets the event and its line's byte offset.
pub fn scan_kinds(
    ledger: &Path,
    from: u64,
    kinds: &[&str],
    what: &str,
    progress: &dyn Progress,
    mut apply: impl FnMut(&Event, u64) -> Result<()>,
) -> Result<Option<Stamp>> {
    scan_lines(
        ledger,
        from,
        what,
        progress,
        |kind| kinds.contains(&kind),
        |event, offset, _| apply(event, offset),
    )
}

/// The loop behind [`scan`] and [`scan_kinds`]: reads complete lines from `from`,
/// parses those whose kind `keep` accepts, hands each to `apply` with its offset and
/// the stamp it establishes, and returns the stamp of the last line read.
fn scan_lines(
    ledger: &Path,
    from: u64,
    what: &str,
    progress: &dyn Progress,
    keep: impl Fn(&str) -> bool,
    mut apply: impl FnMut(&Event, u64, &Stamp) -> Result<()>,
) -> Result<Option<Stamp>> {
    let total = std::fs::metadata(ledger)
        .map_err(|e| QueryError::io(ledger, e))?
        .len()
        .saturating_sub(from);
    progress.start(what, total);
    let mut last = None;
    let mut pending = 0u64;
    for line in LineReader::open_at(ledger, from)? {
        let line = line?;
        let len = line.bytes.len() as u64 + 1;
        let view = intent_ledger::line::inspect(&line.bytes).map_err(|reason| {
            LedgerError::Corruption {
                path: ledger.to_path_buf(),
                seq: 0,
                offset: line.offset,
                reason: reason.to_string(),
            }
        })?;
        let stamp = Stamp {
            seq: view.seq,
            h: String::from_utf8_lossy(view.h).into_owned(),
            end: line.offset + len,
        };
        if keep(kind_of(&line.bytes)) {
            apply(&line.parse(ledger)?, line.offset, &stamp)?;
        }
        last = Some(stamp);
        pending += len;
        if pending >= 1 << 20 {
            progress.advance(pending);
            pending = 0;
        }
    }
    progress.advance(pending);
    progress.finish();
    Ok(last)
}

/// The `kind` of a ledger line, read from its envelope (`""` when not found).
pub fn kind_of(line: &[u8]) -> &str {
    const KEY: &[u8] = br#","kind":""#;
    let head = &line[..line.len().min(256)];
    let Some(at) = memchr::memmem::find(head, KEY) else {
        return "";
    };
    let rest = &head[at + KEY.len()..];
    let end = memchr::memchr(b'"', rest).unwrap_or(0);
    std::str::from_utf8(&rest[..end]).unwrap_or("")
}

/// Random access to ledger lines by the offsets projections record: one `pread` of a
/// few KiB per line (a line is read whole however long it is), on one open file.
#[derive(Debug)]
pub struct LinesAt {
    path: std::path::PathBuf,
    file: std::fs::File,
}

impl LinesAt {
    /// Opens the ledger at `path` for random reads.
    pub fn open(path: &Path) -> Result<LinesAt> {
        let file = std::fs::File::open(path).map_err(|e| QueryError::io(path, e))?;
        Ok(LinesAt {
            path: path.to_path_buf(),
            file,
        })
    }

    /// Reads and parses the line starting at `offset`.
    pub fn event_at(&self, offset: u64) -> Result<Event> {
        use std::os::unix::fs::FileExt;
        let mut line = Vec::new();
        let mut chunk = vec![0u8; 4096];
        loop {
            let at = offset + line.len() as u64;
            let n = self
                .file
                .read_at(&mut chunk, at)
                .map_err(|e| QueryError::io(&self.path, e))?;
            if n == 0 {
                return Err(QueryError::Invalid(format!(
                    "{} has no complete line at byte {offset}: run `intent rebuild`",
                    self.path.display()
                )));
            }
            match memchr::memchr(b'\n', &chunk[..n]) {
                Some(end) => {
                    line.extend_from_slice(&chunk[..end]);
                    break;
                }
                None => line.extend_from_slice(&chunk[..n]),
            }
        }
        let raw = intent_ledger::RawLine {
            offset,
            bytes: line,
        };
        Ok(raw.parse(&self.path)?)
    }
}

/// Reads and parses the ledger line starting at `offset` (see [`LinesAt`]).
pub fn read_event_at(ledger: &Path, offset: u64) -> Result<Event> {
    LinesAt::open(ledger)?.event_at(offset)
}
