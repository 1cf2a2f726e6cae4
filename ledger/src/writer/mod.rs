//! The writer: [`Ledger`], its append protocol and torn-tail repair.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

use crate::head::Head;

mod append;
mod options;
mod prepare_tail;
mod retry;
mod tail;
mod transaction;
use append::Lookup;
pub use options::{AppendOptions, Appended, Durability, LedgerOptions};
pub use retry::{DerivedIds, MAX_LOOK_BACK};
pub use tail::{debris_path, mark_corrupt, marker_path};
pub use transaction::Transaction;

use crate::error::{LedgerError, Result};
use crate::event::NewEvent;
use crate::line::PreEncoded;

/// Where a ledger ends, as seen under the lock.
#[derive(Debug, Clone)]
pub(crate) struct Tail {
    /// Offset just past the last newline: where the next line goes.
    end: u64,
    /// Seq and `h` of the last complete line; `None` for an empty ledger.
    last: Option<(u64, String)>,
}

/// An append-only, hash-chained ledger file: `.orchestration/agent_trace.jsonl`.
///
/// # Line format (version 1)
///
/// One JSON object per line, UTF-8, terminated by `\n`, fields in this fixed order:
///
/// ```text
/// {"v":1,"seq":<n>,"ts":"<RFC 3339 UTC, µs>","id":"<uuid>","kind":"<kind>",
///  "session":<string|null>,"source":"<producer>","data":{…},"prev":"<64 hex>","h":"<64 hex>"}
/// ```
///
/// * `seq` starts at 1 and grows by exactly 1. Line 1 is always `ledger.genesis`.
/// * `h` is the BLAKE3 hash (lowercase hex) of the exact bytes of the line before
///   `,"h":"`. Because `,"h":"…"}` has a fixed length (72 bytes) verification finds
///   it from the end of the line and never re-serializes JSON.
/// * `prev` is the `h` of the previous line; the genesis line's `prev` is a random
///   256-bit ledger id (also in its `data.ledger_id`).
/// * `data` is a JSON object; strings are escaped by serde_json, so a line never
///   contains a raw newline.
///
/// # Append protocol
///
/// Every append takes an exclusive advisory lock (`flock`) on the file, then:
/// 1. repairs a *torn tail*: bytes after the last `\n` are the debris of a writer
///    that died mid-write; they are appended to `<ledger>.debris` (synced), then the
///    file is truncated to the last `\n`;
/// 2. checks the last complete line (structure and hash) and refuses to write past a
///    bad one ([`LedgerError::Corruption`]); if `intent verify` left a
///    `<ledger>.corrupt` marker the whole ledger is verified first;
/// 3. checks the optional expected last seq ([`LedgerError::Conflict`]);
/// 4. skips events whose caller-supplied id is already present (idempotent retry,
///    answered with the original seq);
/// 5. writes all new lines with one positional `write`, syncs per [`Durability`],
///    and unlocks.
///
/// Readers take no lock: they stop at an unterminated last line, which is exactly
/// what a concurrent append looks like mid-write.
///
/// ```
/// use intent_ledger::{Ledger, NewEvent, read_events};
/// use serde_json::json;
///
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("agent_trace.jsonl");
/// let mut ledger = Ledger::open(&path).unwrap();
/// let done = ledger.append(NewEvent::new("lesson", "doc", json!({"text": "hi"}))).unwrap();
/// assert_eq!(done.seq, 2); // seq 1 is the genesis line
///
/// let bytes = std::fs::read(&path).unwrap();
/// let last = bytes[..bytes.len() - 1].rsplit(|&b| b == b'\n').next().unwrap();
/// assert!(last.starts_with(br#"{"v":1,"seq":2,"ts":""#));
/// let (hashed, suffix) = last.split_at(last.len() - 72);
/// assert_eq!(&suffix[..6], br#","h":""#);
/// assert_eq!(&suffix[6..70], blake3::hash(hashed).to_hex().as_bytes());
///
/// let events: Vec<_> = read_events(&path).unwrap().collect::<Result<_, _>>().unwrap();
/// assert_eq!(events[1].data["text"], "hi");
/// assert_eq!(events[1].prev, events[0].h);
/// ```
#[derive(Debug)]
pub struct Ledger {
    path: PathBuf,
    file: File,
    options: LedgerOptions,
    unsynced: bool,
    /// Inside [`Ledger::transaction`]: `Always` syncs once when it ends, not per append.
    deferring_sync: bool,
    /// The head of what was appended, recorded once it is synced (see [`crate::head`]).
    pending_head: Option<Head>,
    /// The ledger id, once known.
    ledger_id: Option<String>,
    /// How many events of each kind got a derived id (`options.derived_ids`).
    derived_counts: std::collections::HashMap<String, u32>,
}

impl Ledger {
    /// Opens (creating if needed) the ledger at `path` with default options. A new
    /// or empty ledger gets its genesis line at once.
    pub fn open(path: impl AsRef<Path>) -> Result<Ledger> {
        Ledger::open_with(path, LedgerOptions::default())
    }

    /// Opens (creating if needed) the ledger at `path` with `options`.
    pub fn open_with(path: impl AsRef<Path>, options: LedgerOptions) -> Result<Ledger> {
        let path = path.as_ref().to_path_buf();
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::PermissionDenied if writable_by_mode(&path) => {
                    LedgerError::Unwritable { path: path.clone() }
                }
                _ => LedgerError::io(&path, e),
            })?;
        let mut ledger = Ledger {
            path,
            file,
            options,
            unsynced: false,
            deferring_sync: false,
            pending_head: None,
            ledger_id: None,
            derived_counts: Default::default(),
        };
        ledger.locked(|ledger| ledger.prepare_tail().map(|_| ()))?;
        Ok(ledger)
    }

    /// Returns the ledger file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Returns the seq of the last complete line (repairing a torn tail first).
    pub fn last_seq(&mut self) -> Result<u64> {
        self.locked(|ledger| Ok(ledger.prepare_tail()?.last.map_or(0, |(seq, _)| seq)))
    }

    /// Appends one event; see [`Ledger::append_batch_with`].
    pub fn append(&mut self, event: NewEvent) -> Result<Appended> {
        let mut done = self.append_batch_with(vec![event], AppendOptions::default())?;
        Ok(done.pop().expect("one result per event"))
    }

    /// Appends events as one group commit: one write, at most one sync.
    pub fn append_batch(&mut self, events: Vec<NewEvent>) -> Result<Vec<Appended>> {
        self.append_batch_with(events, AppendOptions::default())
    }

    /// Appends events as one group commit, with per-call options. Either every new
    /// event is written or none is.
    pub fn append_batch_with(
        &mut self,
        events: Vec<NewEvent>,
        options: AppendOptions,
    ) -> Result<Vec<Appended>> {
        // Everything that can fail on bad input fails here, before the lock.
        let pre = self.pre_encode(&events)?;
        self.locked(|ledger| ledger.append_locked(pre, options))
    }

    /// Syncs pending writes of [`Durability::Batch`].
    pub fn sync(&mut self) -> Result<()> {
        if self.unsynced {
            self.file
                .sync_data()
                .map_err(|e| LedgerError::io(&self.path, e))?;
            self.unsynced = false;
        }
        Ok(())
    }

    /// Takes the ledger's exclusive lock, within the options' `lock_timeout`.
    fn acquire(&self) -> Result<()> {
        match crate::lock::exclusive_within(&self.file, self.options.lock_timeout) {
            Ok(true) => Ok(()),
            Ok(false) => Err(LedgerError::Locked {
                path: self.path.clone(),
            }),
            Err(e) => Err(LedgerError::io(&self.path, e)),
        }
    }

    fn locked<T>(&mut self, work: impl FnOnce(&mut Ledger) -> Result<T>) -> Result<T> {
        self.acquire()?;
        let result = work(self);
        // Unlocking can only fail if the descriptor is gone; closing it unlocks too.
        let _ = self.file.unlock();
        result
    }

    fn append_locked(
        &mut self,
        pre: Vec<(PreEncoded, Lookup)>,
        options: AppendOptions,
    ) -> Result<Vec<Appended>> {
        let mut tail = self.prepare_tail()?;
        let start = tail.end;
        let done = match self.append_at_tail(&mut tail, pre, options) {
            Ok(done) => done,
            Err(err) => {
                // A short write (a full disk) leaves no torn line behind.
                self.roll_back(start);
                return Err(err);
            }
        };
        crate::recovery::fault_point("append:committed");
        self.flush_head();
        Ok(done)
    }

    /// Records the head of what was appended, once it is as durable as the ledger's
    /// own lines (best effort: a head left behind the ledger is never a false alarm).
    fn flush_head(&mut self) {
        if let Some(head) = self.pending_head.take() {
            let _ = crate::head::write(&self.path, &head);
        }
    }

    /// Runs `work` while holding the ledger's exclusive lock, with the tail already
    /// repaired. With [`Durability::Always`], its appends are synced once, when `work`
    /// returns and before the lock is released (a sync failure fails the transaction). Everything `work` appends through the [`Transaction`] and everything
    /// it reads from the ledger is consistent: no other writer can interleave. Hooks
    /// use this to read their state, decide, append and save the state as one step.
    pub fn transaction<T, E: From<LedgerError>>(
        &mut self,
        work: impl FnOnce(&mut Transaction<'_>) -> std::result::Result<T, E>,
    ) -> std::result::Result<T, E> {
        self.acquire()?;
        self.deferring_sync = self.options.durability == Durability::Always;
        let mut start = None;
        let mut result = match self.prepare_tail() {
            Ok(tail) => {
                start = Some(tail.end);
                work(&mut Transaction { ledger: self, tail })
            }
            Err(err) => Err(err.into()),
        };
        // One fdatasync for everything the transaction wrote, before the lock is
        // released and before the caller can acknowledge any of it.
        self.deferring_sync = false;
        if self.options.durability == Durability::Always {
            if let Err(err) = self.sync() {
                if result.is_ok() {
                    result = Err(err.into());
                }
            }
        }
        // All or nothing: a transaction that failed (a short write, a failed sync,
        // an error after some appends) leaves the ledger as it found it.
        if let (Err(_), Some(start)) = (&result, start) {
            self.roll_back(start);
        }
        if result.is_ok() {
            crate::recovery::fault_point("append:committed");
        }
        self.flush_head();
        let _ = self.file.unlock();
        result
    }

    /// Cuts what a failed transaction wrote (under the lock). Should the cut itself
    /// fail, the next writer finds a torn or foreign tail and handles it as such.
    fn roll_back(&mut self, start: u64) {
        let grew = self.file.metadata().is_ok_and(|m| m.len() > start);
        if grew && self.file.set_len(start).is_ok() {
            let _ = self.file.sync_data();
        }
        self.pending_head = None;
        self.unsynced = false;
    }
}

impl Drop for Ledger {
    fn drop(&mut self) {
        let _ = self.sync();
    }
}

/// Whether the file's mode lets its owner write it and we are that owner: a denial
/// then comes from a sandbox (Landlock under `intent confine`, an agent's OS
/// sandbox), not from permissions.
fn writable_by_mode(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        let Ok(meta) = std::fs::metadata(path) else {
            return false;
        };
        let me = std::fs::metadata("/proc/self").map(|m| m.uid()).ok();
        meta.mode() & 0o200 != 0 && me == Some(meta.uid())
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}
