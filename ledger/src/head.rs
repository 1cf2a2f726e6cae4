//! The ledger's head, kept outside the ledger file: tamper evidence that holds.
//!
//! A hash chain proves that the lines it has were not changed; it cannot prove that
//! none are missing at the end, or that the file is the one that was there before.
//! Emptied, cut short, rewritten or replaced by another ledger, the file still
//! verifies on its own. So every append also records where the ledger ended
//! (`agent_trace.head` beside the ledger: ledger id, seq, `h` and byte range of the
//! last line), and every append, `intent verify` and `intent doctor` compare:
//!
//! * the line at the recorded range must still be there, with the recorded seq and
//!   `h` (its `h` covers its `prev`, so this vouches for the whole chain before it);
//! * every line after it must chain on (seq + 1, `prev` = the previous `h`, its own
//!   hash right): a line appended by anything but a writer is foreign;
//! * an empty ledger where a head exists is a wiped ledger, never a fresh start.
//!
//! A mismatch is [`Tampering`]: appends fail closed until a person runs
//! `intent verify --repair`, which records what was lost or set aside.
//!
//! The head is written after the ledger's own sync (with the default durability),
//! so a crash can leave it behind the ledger, never ahead of it.

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::line;

/// Where the ledger ended at its last append.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Head {
    /// The ledger id (the genesis line's `prev`).
    pub ledger_id: String,
    /// Seq of the last line.
    pub seq: u64,
    /// `h` of the last line.
    pub h: String,
    /// Byte offset of the last line.
    pub start: u64,
    /// Byte offset just past its newline (the ledger's length then).
    pub end: u64,
}

/// What a ledger that no longer matches its head went through.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Tampering {
    /// `emptied`, `shortened`, `rewritten`, `replaced` or `foreign_lines`.
    pub kind: &'static str,
    /// The first seq affected (lost, rewritten or foreign).
    pub since_seq: u64,
    /// What happened, in words.
    pub detail: String,
    /// The head the ledger was compared with.
    pub head: Head,
    /// For `foreign_lines`: byte offset where the foreign lines start (the end of
    /// the last line that chains on).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub good_end: Option<u64>,
}

/// The head file of the ledger at `ledger`.
pub fn head_path(ledger: &Path) -> PathBuf {
    ledger.with_extension("head")
}

/// Reads the head (`None`: none recorded, or unreadable).
pub fn read(ledger: &Path) -> Option<Head> {
    let bytes = std::fs::read(head_path(ledger)).ok()?;
    serde_json::from_slice(bytes.trim_ascii_end()).ok()
}

/// Size of the head record: the JSON, padded with spaces.
const RECORD: usize = 384;

/// Records the head: one positioned write of a fixed-size record over the previous
/// one (no new file, no rename: this runs on every append). The record is smaller
/// than a disk sector, so it lands whole; a head that does not parse is read as no
/// head, which can only miss tampering, never invent it.
pub fn write(ledger: &Path, head: &Head) -> std::io::Result<()> {
    let mut record = serde_json::to_vec(head).expect("a head serializes");
    if record.len() > RECORD {
        return Err(std::io::Error::other("head record too long"));
    }
    record.resize(RECORD, b' ');
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(head_path(ledger))?;
    file.write_all_at(&record, 0)
}

/// Reads `len` bytes at `offset` (fewer at the end of the file).
fn read_at(file: &File, offset: u64, len: usize) -> std::io::Result<Vec<u8>> {
    let mut buf = vec![0; len];
    let mut got = 0;
    while got < len {
        let n = file.read_at(&mut buf[got..], offset + got as u64)?;
        if n == 0 {
            break;
        }
        got += n;
    }
    buf.truncate(got);
    Ok(buf)
}

/// The ledger id of the ledger in `file` (its first line's `prev`).
pub fn ledger_id(file: &File) -> Option<String> {
    let bytes = read_at(file, 0, 8192).ok()?;
    let end = memchr::memchr(b'\n', &bytes)?;
    let view = line::inspect(&bytes[..end]).ok()?;
    String::from_utf8(view.prev.to_vec()).ok()
}

/// Compares the ledger in `file` (`len` bytes of whole lines; `last`: its last
/// line's seq and `h`) with `head`.
pub fn check(
    file: &File,
    len: u64,
    last: Option<(u64, &str)>,
    head: &Head,
) -> std::io::Result<Option<Tampering>> {
    let found = |kind, since_seq, detail: String| {
        Ok(Some(Tampering {
            kind,
            since_seq,
            detail,
            head: head.clone(),
            good_end: None,
        }))
    };
    let Some((last_seq, _)) = last else {
        return found(
            "emptied",
            1,
            format!(
                "the ledger is empty, but it held {} events (head seq {})",
                head.seq, head.seq
            ),
        );
    };
    // The line at the head, intact, vouches for the whole chain before it (its `h`
    // covers its `prev`): the common case costs one small read. Only a ledger that
    // fails it has its id read, to tell a replaced ledger from a damaged one.
    let intact = last_seq >= head.seq && {
        let at_head = read_at(file, head.start, (head.end - head.start) as usize)?;
        at_head.last() == Some(&b'\n')
            && line::inspect(&at_head[..at_head.len() - 1]).is_ok_and(|v| {
                v.seq == head.seq && v.h == head.h.as_bytes() && line::hash_matches(&v)
            })
    };
    if !intact {
        let id = ledger_id(file).unwrap_or_default();
        if id != head.ledger_id {
            return found(
                "replaced",
                1,
                format!(
                    "the ledger file is another ledger (id {}…), not the one this workspace \
                     kept (id {}…, {} events)",
                    id.get(..12).unwrap_or("?"),
                    head.ledger_id.get(..12).unwrap_or("?"),
                    head.seq
                ),
            );
        }
        if last_seq < head.seq {
            return found(
                "shortened",
                last_seq + 1,
                format!(
                    "the ledger ends at seq {last_seq}, but it had reached seq {}: events {}–{} \
                     are gone",
                    head.seq,
                    last_seq + 1,
                    head.seq
                ),
            );
        }
        return found(
            "rewritten",
            head.seq,
            format!(
                "the line that was seq {} (h {}…) is no longer where it was: events up to seq {} \
                 were rewritten",
                head.seq,
                head.h.get(..12).unwrap_or("?"),
                head.seq
            ),
        );
    }
    // Whatever follows the head must chain on from it.
    let rest = read_at(file, head.end, (len.saturating_sub(head.end)) as usize)?;
    let (mut seq, mut prev) = (head.seq, head.h.clone());
    let mut offset = 0usize;
    while offset < rest.len() {
        let Some(n) = memchr::memchr(b'\n', &rest[offset..]) else {
            break;
        };
        let bytes = &rest[offset..offset + n];
        let chains = line::inspect(bytes)
            .is_ok_and(|v| v.seq == seq + 1 && v.prev == prev.as_bytes() && line::hash_matches(&v));
        if !chains {
            return Ok(Some(Tampering {
                kind: "foreign_lines",
                since_seq: seq + 1,
                detail: format!(
                    "{} bytes after seq {seq} do not chain on from it: lines appended by \
                     something other than intent",
                    rest.len() - offset
                ),
                head: head.clone(),
                good_end: Some(head.end + offset as u64),
            }));
        }
        let view = line::inspect(bytes).expect("checked");
        seq = view.seq;
        prev = String::from_utf8(view.h.to_vec()).expect("checked hex");
        offset += n + 1;
    }
    Ok(None)
}

/// Compares the ledger file at `ledger` with its head, if it has one (`None`: no
/// head, or the ledger matches it). A corrupt last line is left to
/// [`crate::verify_path`], which reports it.
pub fn check_path(ledger: &Path) -> std::io::Result<Option<Tampering>> {
    let Some(head) = read(ledger) else {
        return Ok(None);
    };
    let file = File::open(ledger)?;
    let bytes = std::fs::read(ledger)?;
    let whole = bytes.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
    let last = if whole == 0 {
        None
    } else {
        let start = bytes[..whole - 1]
            .iter()
            .rposition(|b| *b == b'\n')
            .map_or(0, |i| i + 1);
        match line::inspect(&bytes[start..whole - 1]) {
            Ok(view) => Some((view.seq, String::from_utf8_lossy(view.h).into_owned())),
            // Not a ledger line: foreign bytes at the end, found by the chain check.
            Err(_) => Some((u64::MAX, String::new())),
        }
    };
    check(
        &file,
        whole as u64,
        last.as_ref().map(|(s, h)| (*s, h.as_str())),
        &head,
    )
}

/// Forgets the head, so the next append anchors a new one (`intent verify
/// --repair`, a person's decision, after recording what happened).
pub fn forget(ledger: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(head_path(ledger)) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// Foreign bytes moved out of a ledger by [`set_aside`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SetAside {
    /// Where the bytes were copied to (beside the ledger).
    pub file: PathBuf,
    /// How many bytes.
    pub bytes: u64,
    /// How many lines (newline-terminated, plus any unterminated rest).
    pub lines: u64,
    /// `sha256:` of the bytes.
    pub sha256: String,
}

/// Moves everything after `good_end` (the end of the last line that chains on from
/// the head) into a file beside the ledger, synced, then cuts the ledger there. Takes
/// the ledger's lock, so no writer interleaves.
pub fn set_aside(ledger: &Path, good_end: u64) -> std::io::Result<SetAside> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(ledger)?;
    file.lock()?;
    let len = file.metadata()?.len();
    let rest = read_at(&file, good_end, len.saturating_sub(good_end) as usize)?;
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let aside = ledger.with_extension(format!("quarantine-{stamp}.jsonl"));
    std::fs::write(&aside, &rest)?;
    File::open(&aside)?.sync_all()?;
    file.set_len(good_end)?;
    file.sync_all()?;
    let _ = file.unlock();
    let lines = rest.iter().filter(|b| **b == b'\n').count() as u64
        + u64::from(!rest.is_empty() && rest.last() != Some(&b'\n'));
    Ok(SetAside {
        file: aside,
        bytes: rest.len() as u64,
        lines,
        sha256: crate::digest::bytes_sha256(&rest),
    })
}
