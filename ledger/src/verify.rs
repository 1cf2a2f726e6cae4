//! Whole-ledger verification: seq continuity, `prev` links and every `h`, in parallel.

use std::path::Path;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::error::{LedgerError, Result};
use crate::line;

/// The first bad line of a ledger.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CorruptionInfo {
    /// The seq the bad line holds or, if unreadable, should hold.
    pub seq: u64,
    /// Byte offset of the bad line.
    pub offset: u64,
    /// What is wrong.
    pub reason: String,
}

/// What [`verify_path`] found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VerifyReport {
    /// Complete lines that passed every check (all lines when intact).
    pub events: u64,
    /// Bytes of complete lines checked.
    pub bytes: u64,
    /// Seq of the last good line.
    pub last_seq: u64,
    /// `h` of the last good line.
    pub last_h: Option<String>,
    /// The ledger id (the genesis line's `prev`).
    pub ledger_id: Option<String>,
    /// Bytes after the last newline: debris of an interrupted writer, which the next
    /// append sets aside. Not corruption.
    pub torn_tail_bytes: u64,
    /// The first bad line, if any.
    pub corruption: Option<CorruptionInfo>,
}

impl VerifyReport {
    /// Returns whether every complete line is intact.
    pub fn is_intact(&self) -> bool {
        self.corruption.is_none()
    }
}

/// Verifies the ledger at `path`. I/O errors are errors; corruption is a finding in
/// the report.
pub fn verify_path(path: impl AsRef<Path>) -> Result<VerifyReport> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|e| LedgerError::io(path, e))?;
    Ok(verify_bytes(&bytes))
}

/// Summary of one chunk of whole lines, verified on its own.
struct Chunk {
    offset: u64,
    /// Lines that passed, before `error`.
    good_lines: u64,
    good_bytes: u64,
    first: Option<(u64, Vec<u8>)>,
    last: Option<(u64, Vec<u8>)>,
    /// Offset of the bad line and what is wrong with it.
    error: Option<(u64, String)>,
}

/// Where verified bytes end: the last line's seq and `h`, and the ledger's id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifiedEnd {
    /// Seq of the last verified line.
    pub seq: u64,
    /// Its `h`.
    pub h: String,
    /// The ledger id (its genesis line's `prev`).
    pub ledger_id: String,
}

/// Verifies ledger bytes held in memory; see [`verify_path`].
pub fn verify_bytes(bytes: &[u8]) -> VerifyReport {
    verify_bytes_after(bytes, None)
}

/// Verifies `bytes`, the lines that follow `after` (bytes already verified, not
/// read again): the first line must hold the next seq and link to `after`'s `h`.
/// The report counts only these lines; its `last_seq` and `last_h` are the
/// ledger's end. With `after` `None`, `bytes` is a whole ledger from its genesis.
pub fn verify_bytes_after(bytes: &[u8], after: Option<&VerifiedEnd>) -> VerifyReport {
    let complete = memchr::memrchr(b'\n', bytes).map_or(0, |i| i + 1);
    let torn_tail_bytes = (bytes.len() - complete) as u64;
    let body = &bytes[..complete];

    let chunks: Vec<Chunk> = split_at_lines(body, rayon::current_num_threads() * 8)
        .into_par_iter()
        .map(|(offset, slice)| verify_chunk(offset, slice))
        .collect();

    let mut report = VerifyReport {
        events: 0,
        bytes: 0,
        last_seq: after.map_or(0, |a| a.seq),
        last_h: after.map(|a| a.h.clone()),
        ledger_id: after.map(|a| a.ledger_id.clone()),
        torn_tail_bytes,
        corruption: None,
    };
    let mut prev_h: Option<Vec<u8>> = after.map(|a| a.h.as_bytes().to_vec());
    for chunk in chunks {
        // The chunk's first line must continue the previous chunk's last one.
        if let Some((first_seq, first_prev)) = &chunk.first {
            let expected = report.last_seq + 1;
            let reason = if *first_seq != expected {
                Some(format!("seq {first_seq} where {expected} was expected"))
            } else if let Some(prev) = &prev_h {
                (first_prev != prev)
                    .then(|| "prev does not match the previous line's h".to_string())
            } else {
                report.ledger_id = Some(String::from_utf8_lossy(first_prev).into_owned());
                None
            };
            if let Some(reason) = reason {
                report.corruption = Some(CorruptionInfo {
                    seq: expected,
                    offset: chunk.offset,
                    reason,
                });
                return report;
            }
        }
        report.events += chunk.good_lines;
        report.bytes += chunk.good_bytes;
        if let Some((seq, h)) = &chunk.last {
            report.last_seq = *seq;
            report.last_h = Some(String::from_utf8_lossy(h).into_owned());
            prev_h = Some(h.clone());
        }
        if let Some((offset, reason)) = chunk.error {
            // Good lines hold consecutive seqs, so the bad one holds the next.
            report.corruption = Some(CorruptionInfo {
                seq: report.last_seq + 1,
                offset,
                reason,
            });
            return report;
        }
    }
    report
}

/// Splits `body` (whole lines) into about `parts` slices that end at newlines.
fn split_at_lines(body: &[u8], parts: usize) -> Vec<(u64, &[u8])> {
    let target = (body.len() / parts.max(1)).max(1 << 20);
    let mut out = Vec::new();
    let mut start = 0;
    while start < body.len() {
        let probe = (start + target).min(body.len());
        let end = if probe == body.len() {
            probe
        } else {
            memchr::memchr(b'\n', &body[probe - 1..]).map_or(body.len(), |i| probe + i)
        };
        out.push((start as u64, &body[start..end]));
        start = end;
    }
    out
}

fn verify_chunk(offset: u64, slice: &[u8]) -> Chunk {
    let mut chunk = Chunk {
        offset,
        good_lines: 0,
        good_bytes: 0,
        first: None,
        last: None,
        error: None,
    };
    let mut pos = 0usize;
    while pos < slice.len() {
        let end = memchr::memchr(b'\n', &slice[pos..]).map_or(slice.len(), |i| pos + i);
        let line_bytes = &slice[pos..end];
        let line_offset = offset + pos as u64;
        let outcome = line::inspect(line_bytes).and_then(|view| {
            if !line::hash_matches(&view) {
                return Err("h does not match the line's bytes");
            }
            Ok(view)
        });
        let view = match outcome {
            Ok(view) => view,
            Err(reason) => {
                chunk.error = Some((line_offset, reason.to_string()));
                return chunk;
            }
        };
        if let Some((last_seq, last_h)) = &chunk.last {
            let reason = if view.seq != last_seq + 1 {
                Some(format!(
                    "seq {} where {} was expected",
                    view.seq,
                    last_seq + 1
                ))
            } else if view.prev != last_h.as_slice() {
                Some("prev does not match the previous line's h".to_string())
            } else {
                None
            };
            if let Some(reason) = reason {
                chunk.error = Some((line_offset, reason));
                return chunk;
            }
        } else {
            chunk.first = Some((view.seq, view.prev.to_vec()));
        }
        chunk.last = Some((view.seq, view.h.to_vec()));
        chunk.good_lines += 1;
        chunk.good_bytes += (end - pos + 1) as u64;
        pos = end + 1;
    }
    chunk
}
