//! Moving a ledger that an older `intent init` left in `.orchestration/` (often
//! tracked by git, where every checkout, stash and reset rewound it) into the git
//! common directory, keeping every byte, the chain and the head record.

use std::fs::{File, OpenOptions};
use std::io::Write as _;
use std::path::Path;
use std::process::Command;

use super::{LedgerLocation, Workspace, LEDGER_FILE, ORCHESTRATION_DIR};
use crate::error::{LedgerError, Result};
use crate::head;

/// Where the moved file is kept, in case a writer that opened it before the move
/// appended after it (its lines are then there, not lost).
pub const MOVED_SUFFIX: &str = "moved";

/// Moves `.orchestration/agent_trace.jsonl` into `<common>/intent/` when the
/// workspace is in git and the ledger is still in the old place, then stops git
/// tracking it. Returns a line saying what moved, or `None` when there was nothing
/// to do.
///
/// The move holds the old ledger's append lock, copies it (and its head) to a
/// temporary file beside the destination, syncs, renames it into place, and renames
/// the old file to `agent_trace.jsonl.moved`.
pub fn move_legacy_ledger(workspace: &Workspace) -> Result<Option<String>> {
    let Some(store) = workspace.git_store_dir() else {
        return Ok(None);
    };
    let legacy = workspace.orchestration_dir().join(LEDGER_FILE);
    let legacy_rel = format!("{ORCHESTRATION_DIR}/{LEDGER_FILE}");
    if workspace.ledger_location() == LedgerLocation::GitCommonDir {
        // Already moved; an old copy may come back with a checkout of an old commit
        // that tracked it. It is ignored now: only stop tracking it.
        if legacy.exists() {
            untrack(workspace.root(), &legacy_rel)?;
        }
        return Ok(None);
    }
    if workspace.ledger_location() != LedgerLocation::LegacyInGit {
        return Ok(None);
    }
    std::fs::create_dir_all(&store).map_err(|e| LedgerError::io(&store, e))?;
    let target = store.join(LEDGER_FILE);
    let source = OpenOptions::new()
        .read(true)
        .write(true)
        .open(&legacy)
        .map_err(|e| LedgerError::io(&legacy, e))?;
    source.lock().map_err(|e| LedgerError::io(&legacy, e))?;
    let moved = copy_synced(&legacy, &target).and_then(|bytes| {
        let old_head = head::head_path(&legacy);
        if old_head.exists() {
            copy_synced(&old_head, &head::head_path(&target))?;
        }
        let aside = legacy.with_extension(format!("jsonl.{MOVED_SUFFIX}"));
        std::fs::rename(&legacy, &aside)?;
        let _ = std::fs::remove_file(&old_head);
        Ok(bytes)
    });
    let _ = source.unlock();
    let bytes = moved.map_err(|e| LedgerError::io(&target, e))?;
    untrack(workspace.root(), &legacy_rel)?;
    Ok(Some(format!(
        "{legacy_rel} -> {} ({bytes} bytes, chain kept; the old file is kept as {legacy_rel}.{MOVED_SUFFIX})",
        target.display()
    )))
}

/// Copies `from` to `to` through a synced temporary file and a rename. Refuses to
/// replace an existing `to`.
fn copy_synced(from: &Path, to: &Path) -> std::io::Result<u64> {
    if to.exists() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            format!("{} exists already; not overwriting it", to.display()),
        ));
    }
    let tmp = to.with_extension("moving");
    let bytes = std::fs::read(from)?;
    let mut out = File::create(&tmp)?;
    out.write_all(&bytes)?;
    out.sync_all()?;
    std::fs::rename(&tmp, to)?;
    if let Some(dir) = to.parent() {
        File::open(dir)?.sync_all()?;
    }
    Ok(bytes.len() as u64)
}

/// Removes `rel` from git's index (the file itself stays), if it is tracked.
fn untrack(root: &Path, rel: &str) -> Result<()> {
    let out = Command::new("git")
        .args(["rm", "--cached", "--quiet", "--ignore-unmatch", "--"])
        .arg(rel)
        .current_dir(root)
        .output()
        .map_err(|e| LedgerError::io(root, e))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(LedgerError::io(
            root,
            std::io::Error::other(format!(
                "git rm --cached {rel}: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            )),
        ))
    }
}
