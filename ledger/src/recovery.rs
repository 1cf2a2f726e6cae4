//! An `intent restore` in progress, written down so a crash cannot lose anything.
//!
//! A restore rewrites the ledger in place (same inode, under the writers' lock, so a
//! writer that opened the file before can only ever append to the restored one).
//! Before it touches the ledger it keeps the bytes it is about to replace in a file
//! of their own (synced) and writes this journal beside the ledger naming it (synced).
//! A crash at any point then leaves either the untouched ledger, or a journal that
//! says where the old bytes are: the next `intent restore` rebuilds from those, not
//! from the half-written ledger, and finishes. While a journal exists, appends are
//! refused (`restore_interrupted`) and `intent verify` says to run `intent restore`.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// What an interrupted restore left to finish it with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Journal {
    /// The ledger as it was before the restore, byte for byte (`None`: it was empty).
    pub aside: Option<PathBuf>,
    /// `sha256:` of those bytes.
    pub sha256: String,
    /// Their length.
    pub bytes: u64,
    /// The ledger the rewrite makes, written out in full (synced) before the ledger
    /// is touched: any command finishes the rewrite from it, without the checkpoint
    /// or the analysis that produced it (`None` in journals of older versions).
    #[serde(default)]
    pub target: Option<PathBuf>,
    /// `sha256:` of the target's bytes.
    #[serde(default)]
    pub target_sha256: Option<String>,
}

/// Where a rewrite keeps the ledger it is about to write ([`Journal::target`]).
pub fn target_path(ledger: &Path) -> PathBuf {
    ledger.with_extension("restoring-target")
}

/// The bytes the journal says the rewrite makes, checked against their hash;
/// `None` for a journal without a target.
pub fn target_bytes(journal: &Journal) -> std::io::Result<Option<Vec<u8>>> {
    let (Some(path), Some(sha)) = (&journal.target, &journal.target_sha256) else {
        return Ok(None);
    };
    let bytes = std::fs::read(path)?;
    if crate::digest::bytes_sha256(&bytes) != *sha {
        return Err(std::io::Error::other(format!(
            "the ledger an interrupted restore was writing ({}) does not match its journal",
            path.display()
        )));
    }
    Ok(Some(bytes))
}

/// The journal of the ledger at `ledger`.
pub fn journal_path(ledger: &Path) -> PathBuf {
    ledger.with_extension("restoring")
}

/// Reads the journal (`None`: no restore was interrupted).
pub fn read(ledger: &Path) -> std::io::Result<Option<Journal>> {
    match crate::atomic::read_regular(&journal_path(ledger)) {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(std::io::Error::other),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Writes the journal, synced with its directory entry.
pub fn write(ledger: &Path, journal: &Journal) -> std::io::Result<()> {
    let bytes = serde_json::to_vec(journal).map_err(std::io::Error::other)?;
    crate::atomic::write(&journal_path(ledger), &bytes, crate::atomic::Sync::Yes)
}

/// Removes the journal once the restored ledger and its head are synced.
pub fn finish(ledger: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(journal_path(ledger)) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    let _ = std::fs::remove_file(target_path(ledger));
    if let Some(dir) = ledger.parent() {
        std::fs::File::open(dir)?.sync_all()?;
    }
    Ok(())
}

/// The bytes the journal kept, checked against its hash.
pub fn old_bytes(journal: &Journal) -> std::io::Result<Vec<u8>> {
    let bytes = match &journal.aside {
        None => Vec::new(),
        Some(path) => std::fs::read(path)?,
    };
    if crate::digest::bytes_sha256(&bytes) != journal.sha256 {
        return Err(std::io::Error::other(format!(
            "the copy of the ledger an interrupted restore kept ({}) does not match its \
             journal; it was changed since",
            journal
                .aside
                .as_ref()
                .map_or("an empty ledger".into(), |p| p.display().to_string())
        )));
    }
    Ok(bytes)
}

/// Aborts the process at the fault point `name` when `INTENT_FAULT_AT` names it:
/// the tests' way to crash a recovery (as `kill -9` would: no cleanup, no unwinding)
/// between two of its steps.
pub fn fault_point(name: &str) {
    if std::env::var_os("INTENT_FAULT_AT").is_some_and(|at| at == name) {
        eprintln!("intent: crashing at fault point {name} (INTENT_FAULT_AT)");
        std::process::abort();
    }
}

/// Whether `INTENT_FAULT_AT=append:torn` is set: the process then dies halfway
/// through its first write of the ledger (see [`fault_point`]).
pub fn torn_write_fault() -> bool {
    std::env::var_os("INTENT_FAULT_AT").is_some_and(|at| at == "append:torn")
}

/// Whether `INTENT_FAULT_AT=append:short-write` makes this write of the ledger fail:
/// every write of this process from the `INTENT_FAULT_NTH`-th on (default the
/// first), as on a disk that filled up in the middle of a hook's events.
pub fn short_write_fault() -> bool {
    use std::sync::atomic::{AtomicU64, Ordering};
    static WRITES: AtomicU64 = AtomicU64::new(0);
    if std::env::var_os("INTENT_FAULT_AT").is_none_or(|at| at != "append:short-write") {
        return false;
    }
    let nth = std::env::var("INTENT_FAULT_NTH")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1u64);
    WRITES.fetch_add(1, Ordering::Relaxed) + 1 >= nth
}
