//! The files beside a ledger (debris of a torn tail, the corruption marker) and the
//! scans an append makes without reading the whole ledger: where the last complete
//! line is, and whether a caller-chosen event id is already there.

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use crate::error::{LedgerError, Result};
use crate::line;
use crate::verify;

/// Path of the side file that keeps torn-tail debris.
pub fn debris_path(ledger: &Path) -> PathBuf {
    sibling(ledger, ".debris")
}

/// Path of the marker `intent verify` leaves when it finds corruption; while it
/// exists, every append re-verifies the whole ledger first.
pub fn marker_path(ledger: &Path) -> PathBuf {
    sibling(ledger, ".corrupt")
}

pub(super) fn sibling(ledger: &Path, suffix: &str) -> PathBuf {
    let mut name = ledger.file_name().unwrap_or_default().to_os_string();
    name.push(suffix);
    ledger.with_file_name(name)
}

/// Records a corruption found by a full verification so that appends refuse to write
/// past it even though they only check the tail themselves.
pub fn mark_corrupt(ledger: &Path, bad: &verify::CorruptionInfo) -> Result<()> {
    let marker = marker_path(ledger);
    let body = serde_json::to_vec_pretty(bad).expect("serialize marker");
    std::fs::write(&marker, body).map_err(|e| LedgerError::io(&marker, e))
}

/// Where the whole lines of a ledger end, and its last complete line.
pub(super) struct TailScan {
    /// Byte offset just past the last newline.
    pub(super) end: u64,
    /// The last complete line, without its newline.
    pub(super) last_line: Option<Vec<u8>>,
    /// Its byte offset.
    pub(super) last_line_offset: u64,
}

/// Reads backwards from `len` to find the last newline and the complete line before it.
pub(super) fn scan_tail(path: &Path, file: &File, len: u64, max_line: usize) -> Result<TailScan> {
    const CHUNK: u64 = 64 * 1024;
    // Bytes read so far, from `start` to `len`.
    let mut start = len;
    let mut buf: Vec<u8> = Vec::new();
    let mut end: Option<u64> = None;
    loop {
        if let Some(end) = end {
            // Look for the newline before the last complete line.
            let upto = (end - start) as usize - 1;
            if let Some(i) = memchr::memrchr(b'\n', &buf[..upto]) {
                let offset = start + i as u64 + 1;
                return Ok(TailScan {
                    end,
                    last_line: Some(buf[i + 1..upto].to_vec()),
                    last_line_offset: offset,
                });
            }
            if start == 0 {
                return Ok(TailScan {
                    end,
                    last_line: Some(buf[..upto].to_vec()),
                    last_line_offset: 0,
                });
            }
            if end - start > max_line as u64 + CHUNK {
                return Err(LedgerError::Corruption {
                    path: path.to_path_buf(),
                    seq: 0,
                    offset: start,
                    reason: format!("last line is longer than {max_line} bytes"),
                });
            }
        } else if start == 0 {
            return Ok(TailScan {
                end: 0,
                last_line: None,
                last_line_offset: 0,
            });
        }
        let read_from = start.saturating_sub(CHUNK);
        let mut chunk = vec![0u8; (start - read_from) as usize];
        file.read_exact_at(&mut chunk, read_from)
            .map_err(|e| LedgerError::io(path, e))?;
        if end.is_none() {
            if let Some(i) = memchr::memrchr(b'\n', &chunk) {
                end = Some(read_from + i as u64 + 1);
            }
        }
        chunk.extend_from_slice(&buf);
        buf = chunk;
        start = read_from;
    }
}

/// Looks for an event with envelope id `id` among the lines that start in
/// `[floor, end)`, newest first, because retries follow their original closely.
/// `end` is a line boundary; `floor` need not be (a line starting before it is
/// left out).
pub(super) fn find_id(
    path: &Path,
    file: &File,
    (floor, end): (u64, u64),
    id: &str,
) -> Result<Option<u64>> {
    let needle = format!(r#","id":"{id}","#);
    let finder = memchr::memmem::Finder::new(needle.as_bytes());
    let mut chunk_len: u64 = 4 * 1024 * 1024;
    let mut hi = end;
    let mut buf = Vec::new();
    // The byte before the floor tells whether a line starts at the floor.
    let bottom = floor.saturating_sub(1);
    while hi > floor {
        let lo = hi.saturating_sub(chunk_len).max(bottom);
        buf.resize((hi - lo) as usize, 0);
        file.read_exact_at(&mut buf, lo)
            .map_err(|e| LedgerError::io(path, e))?;
        // Only whole lines: the partial first line belongs to the next (earlier)
        // chunk, or starts below the floor.
        let skip = if lo == 0 {
            0
        } else {
            match memchr::memchr(b'\n', &buf) {
                Some(i) if i + 1 < buf.len() || lo == bottom => i + 1,
                // No line starts in what is left above the floor.
                None if lo == bottom => break,
                // A line longer than the chunk: read more of it.
                _ => {
                    chunk_len *= 2;
                    continue;
                }
            }
        };
        let region = &buf[skip..];
        for pos in finder.find_iter(region) {
            let line_start = memchr::memrchr(b'\n', &region[..pos]).map_or(0, |i| i + 1);
            let line_end = memchr::memchr(b'\n', &region[pos..]).map_or(region.len(), |i| pos + i);
            let candidate = &region[line_start..line_end];
            // A match inside `data` is not the envelope id.
            if line::envelope_id(candidate) == Some(id.as_bytes()) {
                if let Ok(view) = line::inspect(candidate) {
                    return Ok(Some(view.seq));
                }
            }
        }
        if lo == bottom {
            break;
        }
        hi = lo + skip as u64;
    }
    Ok(None)
}
