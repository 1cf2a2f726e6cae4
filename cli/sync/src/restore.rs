//! Comparing the live ledger with its last checkpoint, and rebuilding a wiped,
//! truncated or rewritten ledger from it without losing the events written since.

use std::fs::OpenOptions;
use std::os::unix::fs::FileExt as _;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _};
use intent_ledger::head::{self, Head};
use intent_ledger::{line, recovery, Workspace};
use serde::Serialize;

use crate::git;
use crate::publish::{
    decode_part, ledger_id_of, ledger_ref, ordered_parts, read_meta, still_holds, Meta,
};

/// How the live ledger stands against its last checkpoint.
#[derive(Debug, Clone, Serialize)]
pub struct CheckpointCheck {
    /// The checkpoint's ref.
    pub reference: String,
    /// What it recorded.
    pub checkpoint: Meta,
    /// Whether the ledger still holds every checkpointed event, unchanged.
    pub holds: bool,
    /// What is wrong when it does not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
}

/// The ledger id this clone's ledger has, or had: its genesis line, else the head
/// record, else the only local ledger ref.
pub fn own_ledger_id(workspace: &Workspace) -> Option<String> {
    let ledger = workspace.ledger_path();
    if let Some(id) = ledger_id_of(&ledger) {
        return Some(id);
    }
    if let Some(head) = head::read(&ledger) {
        return Some(head.ledger_id);
    }
    let refs = git::run(
        workspace.root(),
        &[
            "for-each-ref",
            "--format=%(refname:lstrip=3)",
            "refs/intent/ledgers/",
        ],
    )
    .ok()?;
    let ids: Vec<&str> = refs.lines().collect();
    (ids.len() == 1).then(|| ids[0].to_string())
}

/// Compares the live ledger with its last checkpoint (`None`: no checkpoint).
pub fn check(workspace: &Workspace) -> anyhow::Result<Option<CheckpointCheck>> {
    if workspace.git_store_dir().is_none() {
        return Ok(None);
    }
    let Some(id) = own_ledger_id(workspace) else {
        return Ok(None);
    };
    let reference = ledger_ref(&id);
    let Some(commit) = git::resolve(workspace.root(), &reference) else {
        return Ok(None);
    };
    let checkpoint = read_meta(workspace.root(), &commit)?;
    let ledger = workspace.ledger_path();
    let problem = match std::fs::File::open(&ledger) {
        Err(e) => Some(format!("the ledger cannot be opened: {e}")),
        Ok(file) => {
            let same = ledger_id_of(&ledger).as_deref() == Some(id.as_str());
            match still_holds(&file, &checkpoint) {
                Ok(()) if same => None,
                Ok(()) => Some("the ledger was replaced by another one".to_string()),
                Err(e) => Some(format!("{e:#}")),
            }
        }
    };
    Ok(Some(CheckpointCheck {
        reference,
        checkpoint,
        holds: problem.is_none(),
        problem,
    }))
}

/// What a restore did.
#[derive(Debug, Clone, Serialize)]
pub struct Restored {
    /// The checkpoint rebuilt from.
    pub reference: String,
    /// Its last seq.
    pub checkpoint_seq: u64,
    /// Events after the checkpoint that were still in the ledger and chain on.
    pub kept_after: u64,
    /// Lines after the checkpoint that did not chain on (foreign, or damaged), left
    /// out; they stay in the copy at `set_aside`.
    pub left_out: u64,
    /// Where the ledger as it was before is kept, byte for byte.
    pub set_aside: Option<PathBuf>,
    /// Whether this run finished a restore that had been interrupted.
    pub resumed: bool,
    /// The ledger's last seq now.
    pub seq: u64,
}

/// Rebuilds the ledger from its checkpoint, keeping every event after it that
/// chains on (foreign lines among them are left out), and keeps the old file
/// aside. Does nothing when the ledger already is exactly that. Crash-safe and
/// idempotent: see [`intent_ledger::recovery`]; a run after a crash finishes the
/// interrupted one from the bytes it kept.
pub fn restore(workspace: &Workspace) -> anyhow::Result<Option<Restored>> {
    let check = check(workspace)?.context(
        "no checkpoint of this ledger in git (one is written by `intent sync` and when an \
         agent session ends); nothing to restore from",
    )?;
    let dir = workspace.root();
    let meta = &check.checkpoint;
    let commit = git::resolve(dir, &check.reference).context("checkpoint ref vanished")?;
    let files = git::tree_files(dir, &commit)?;
    let parts = ordered_parts(&files);
    let oids: Vec<String> = parts.iter().map(|(_, oid)| oid.clone()).collect();
    let mut target: Vec<u8> = Vec::new();
    for ((name, _), blob) in parts.iter().zip(git::blobs(dir, &oids)?) {
        target.extend_from_slice(&decode_part(name, blob)?);
    }
    let verdict = intent_ledger::verify_bytes(&target);
    if !verdict.is_intact()
        || verdict.last_seq != meta.seq
        || verdict.last_h.as_deref() != Some(meta.h.as_str())
    {
        bail!(
            "the checkpoint {} does not verify (ends at seq {}); not restoring from it",
            check.reference,
            verdict.last_seq
        );
    }

    let ledger = workspace.ledger_path();
    if let Some(parent) = ledger.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&ledger)
        .with_context(|| format!("open {}", ledger.display()))?;
    // Under the writers' lock, in place (same inode): a writer waiting for the lock
    // appends to the restored file, never to a replaced one.
    lock_for_rewrite(&file, &ledger)?;
    let result = (|| {
        let journal = recovery::read(&ledger)?;
        let old = match &journal {
            Some(journal) => recovery::old_bytes(journal)?,
            None => std::fs::read(&ledger)?,
        };
        let after = lines_after(&old, meta.seq, &meta.h);
        target.extend_from_slice(&after.bytes);
        if journal.is_none() && old == target {
            return Ok(None);
        }
        let resumed = journal.is_some();
        let (set_aside, last) = rewrite_in_place(&ledger, &file, &old, &target, journal)?;
        anyhow::Ok(Some(Restored {
            reference: check.reference.clone(),
            checkpoint_seq: meta.seq,
            kept_after: after.kept,
            left_out: after.left_out,
            set_aside,
            resumed,
            seq: last.seq,
        }))
    })();
    let _ = file.unlock();
    result
}

/// Takes the writers' lock on the ledger for a rewrite, waiting up to
/// [`intent_ledger::lock::command_wait`].
fn lock_for_rewrite(file: &std::fs::File, ledger: &Path) -> anyhow::Result<()> {
    let wait = intent_ledger::lock::command_wait();
    if !intent_ledger::lock::exclusive_within(file, Some(wait))? {
        bail!(
            "the ledger {} has been locked by another process for {} s; try again when it is \
             done (`fuser` names it)",
            ledger.display(),
            wait.as_secs()
        );
    }
    Ok(())
}

/// Finishes a restore or repair that was interrupted, from the target its journal
/// names (whatever made it: a checkpoint, or a repair that left out foreign
/// lines). Returns the new head and where the old ledger is kept; `None` when no
/// rewrite was interrupted, or its journal (of an older version) names no target.
pub fn finish_interrupted(ledger: &Path) -> anyhow::Result<Option<(Head, Option<PathBuf>)>> {
    if recovery::read(ledger)?.is_none() {
        return Ok(None);
    }
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(ledger)
        .with_context(|| format!("open {}", ledger.display()))?;
    lock_for_rewrite(&file, ledger)?;
    let result = (|| {
        // Under the lock: another command may have finished it meanwhile.
        let Some(journal) = recovery::read(ledger)? else {
            return anyhow::Ok(None);
        };
        let Some(target) = recovery::target_bytes(&journal)? else {
            return Ok(None);
        };
        let old = recovery::old_bytes(&journal)?;
        let (aside, head) = rewrite_in_place(ledger, &file, &old, &target, Some(journal))?;
        Ok(Some((head, aside)))
    })();
    let _ = file.unlock();
    result
}

/// Replaces the ledger's bytes (`old`) with `target`, in place, with `file` open on
/// it and locked by the caller: keeps `old` aside and writes the journal first
/// (unless `journal` says an interrupted run already did), then the ledger, its
/// head, and removes the journal ([`recovery`]). Returns where `old` is kept and
/// the new head.
pub fn rewrite_in_place(
    ledger: &Path,
    file: &std::fs::File,
    old: &[u8],
    target: &[u8],
    journal: Option<recovery::Journal>,
) -> anyhow::Result<(Option<PathBuf>, Head)> {
    let set_aside = match journal {
        Some(journal) => journal.aside,
        None => {
            let aside = (!old.is_empty()).then(|| aside_path(ledger));
            if let Some(aside) = &aside {
                keep(aside, old)?;
            }
            recovery::fault_point("restore:aside-kept");
            let kept_target = recovery::target_path(ledger);
            let _ = std::fs::remove_file(&kept_target);
            keep(&kept_target, target)?;
            recovery::write(
                ledger,
                &recovery::Journal {
                    aside: aside.clone(),
                    sha256: intent_ledger::digest::bytes_sha256(old),
                    bytes: old.len() as u64,
                    target: Some(kept_target),
                    target_sha256: Some(intent_ledger::digest::bytes_sha256(target)),
                },
            )?;
            aside
        }
    };
    recovery::fault_point("restore:journal-written");
    let last = last_line(target).context("the rebuilt ledger is empty")?;
    let half = target.len() / 2;
    file.write_all_at(&target[..half], 0)?;
    recovery::fault_point("restore:half-written");
    file.write_all_at(&target[half..], half as u64)?;
    file.set_len(target.len() as u64)?;
    file.sync_all()?;
    recovery::fault_point("restore:ledger-written");
    head::write(ledger, &last)?;
    recovery::finish(ledger)?;
    Ok((set_aside, last))
}

/// The ledger `old` without the lines inside it that do not chain on (foreign
/// lines, inserted anywhere after the genesis line), when every genuine event is
/// still there: the chain of what is kept reaches `head` (seq and `h`). `None` when
/// it does not (a genuine line was changed, so what follows it cannot be vouched
/// for), or nothing would be left out.
pub fn without_foreign_lines(old: &[u8], head: &Head) -> Option<(Vec<u8>, u64)> {
    let genesis_end = memchr::memchr(b'\n', old)? + 1;
    let genesis = line::inspect(&old[..genesis_end - 1]).ok()?;
    let h = std::str::from_utf8(genesis.h).ok()?;
    let after = lines_after(old, genesis.seq, h);
    if after.left_out == 0 {
        return None;
    }
    let mut target = old[..genesis_end].to_vec();
    target.extend_from_slice(&after.bytes);
    let reaches_head = target.split(|b| *b == b'\n').any(|text| {
        line::inspect(text).is_ok_and(|v| v.seq == head.seq && v.h == head.h.as_bytes())
    });
    reaches_head.then_some((target, after.left_out))
}

/// Writes `bytes` to the new file `path`, synced with its directory entry.
fn keep(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .with_context(|| format!("keep the old ledger at {}", path.display()))?;
    std::io::Write::write_all(&mut file, bytes)?;
    file.sync_all()?;
    if let Some(dir) = path.parent() {
        std::fs::File::open(dir)?.sync_all()?;
    }
    Ok(())
}

/// Where the ledger as it was before a restore is kept: a name no other restore
/// (of this or another process) takes.
fn aside_path(ledger: &Path) -> PathBuf {
    let stamp = time::OffsetDateTime::now_utc().unix_timestamp_nanos();
    ledger.with_extension(format!(
        "before-restore-{stamp}-{}.jsonl",
        std::process::id()
    ))
}

/// The lines of a ledger after a checkpoint that still belong to it.
struct After {
    bytes: Vec<u8>,
    kept: u64,
    left_out: u64,
}

/// The lines of `old` after seq `seq` that chain on from `h` (seq + 1, `prev` = the
/// previous `h`, their own hash right). A line that does not chain on (a foreign
/// line, a damaged one) is left out and the search goes on: genuine events written
/// after it still chain on from the last genuine one.
fn lines_after(old: &[u8], seq: u64, h: &str) -> After {
    let mut start = 0;
    let mut found = false;
    let mut expect_seq = seq + 1;
    let mut expect_prev = h.as_bytes().to_vec();
    let mut out = After {
        bytes: Vec::new(),
        kept: 0,
        left_out: 0,
    };
    for nl in memchr::memchr_iter(b'\n', old) {
        let text = &old[start..nl];
        let chains = line::inspect(text).ok().filter(|v| {
            v.seq == expect_seq && v.prev == expect_prev.as_slice() && line::hash_matches(v)
        });
        match chains {
            Some(view) => {
                found = true;
                expect_seq += 1;
                expect_prev = view.h.to_vec();
                out.bytes.extend_from_slice(&old[start..=nl]);
                out.kept += 1;
            }
            // Past the checkpoint (found a line after it, or a line that claims a
            // later seq or is no ledger line at all): not genuine.
            None if found || line::inspect(text).map_or(true, |v| v.seq > seq) => out.left_out += 1,
            None => {}
        }
        start = nl + 1;
    }
    out
}

/// The head record of the last line of `bytes`.
fn last_line(bytes: &[u8]) -> Option<Head> {
    let end = bytes.len();
    let body = bytes.strip_suffix(b"\n")?;
    let start = body.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let view = line::inspect(&body[start..]).ok()?;
    let genesis_end = memchr::memchr(b'\n', bytes)?;
    let genesis = line::inspect(&bytes[..genesis_end]).ok()?;
    Some(Head {
        ledger_id: String::from_utf8_lossy(genesis.prev).into_owned(),
        seq: view.seq,
        h: String::from_utf8_lossy(view.h).into_owned(),
        start: start as u64,
        end: end as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing;

    /// A ledger of `events` events, its bytes and the head its writer recorded.
    fn ledger(dir: &Path, events: usize) -> (Vec<u8>, Head) {
        let (path, bytes) = testing::ledger(dir, "ledger.jsonl", events);
        (bytes, head::read(&path).expect("a head record"))
    }

    #[test]
    fn foreign_lines_anywhere_after_the_genesis_are_left_out() {
        let dir = tempfile::tempdir().unwrap();
        let (bytes, head) = ledger(dir.path(), 5);
        let (_, other) = testing::ledger(dir.path(), "other.jsonl", 3);
        let lines = testing::lines(&bytes);
        let foreign = testing::lines(&other);
        // Another ledger's line with the seq of the one it precedes, a replayed
        // genuine line, and text that is no ledger line at all.
        let mut old = lines[..3].concat();
        old.extend_from_slice(foreign[3]);
        old.extend_from_slice(&lines[3..5].concat());
        old.extend_from_slice(lines[1]);
        old.extend_from_slice(lines[5]);
        old.extend_from_slice(b"echo hi\n");

        let (target, left_out) = without_foreign_lines(&old, &head).expect("repairable");
        assert_eq!(target, bytes);
        assert_eq!(left_out, 3);
    }

    #[test]
    fn nothing_to_leave_out_is_no_repair() {
        let dir = tempfile::tempdir().unwrap();
        let (bytes, head) = ledger(dir.path(), 4);
        assert_eq!(without_foreign_lines(&bytes, &head), None);
        assert_eq!(without_foreign_lines(b"", &head), None);
    }

    #[test]
    fn a_changed_genuine_line_is_not_repaired_by_leaving_lines_out() {
        let dir = tempfile::tempdir().unwrap();
        let (bytes, head) = ledger(dir.path(), 5);
        let lines = testing::lines(&bytes);
        // Line 3 changed: it and every line after it stop chaining, so the head is
        // never reached and what follows cannot be vouched for.
        let mut old = lines[..2].concat();
        old.extend_from_slice(&testing::tampered(lines[2]));
        old.extend_from_slice(&lines[3..].concat());
        assert_eq!(without_foreign_lines(&old, &head), None);
    }

    #[test]
    fn lost_genuine_lines_are_not_repaired_by_leaving_lines_out() {
        let dir = tempfile::tempdir().unwrap();
        let (bytes, head) = ledger(dir.path(), 5);
        let lines = testing::lines(&bytes);
        // The last genuine line is gone and a foreign line took its place.
        let mut old = lines[..5].concat();
        old.extend_from_slice(b"{}\n");
        assert_eq!(without_foreign_lines(&old, &head), None);
    }

    #[test]
    fn lines_after_a_checkpoint_keep_what_chains_on_from_it() {
        let dir = tempfile::tempdir().unwrap();
        let (bytes, _) = ledger(dir.path(), 6);
        let lines = testing::lines(&bytes);
        let checkpoint =
            intent_ledger::line::inspect(lines[2].strip_suffix(b"\n").unwrap()).unwrap();
        let h = std::str::from_utf8(checkpoint.h).unwrap();
        let after = lines_after(&bytes, checkpoint.seq, h);
        assert_eq!((after.kept, after.left_out), (4, 0));
        assert_eq!(after.bytes, lines[3..].concat());

        // A garbage line before the checkpoint counts as left out (it claims no
        // seq at or before it); the checkpointed lines themselves are neither.
        let mut old = lines[..2].concat();
        old.extend_from_slice(b"garbage\n");
        old.extend_from_slice(&lines[2..].concat());
        let after = lines_after(&old, checkpoint.seq, h);
        assert_eq!((after.kept, after.left_out), (4, 1));
        assert_eq!(after.bytes, lines[3..].concat());

        // A checkpointed line replayed: left out and counted once a line after the
        // checkpoint was kept; before that it is one of the checkpointed lines.
        let mut old = lines[..4].concat();
        old.extend_from_slice(lines[1]);
        old.extend_from_slice(&lines[4..].concat());
        let after = lines_after(&old, checkpoint.seq, h);
        assert_eq!((after.kept, after.left_out), (4, 1));
        assert_eq!(after.bytes, lines[3..].concat());
        let mut old = lines[..3].concat();
        old.extend_from_slice(lines[1]);
        old.extend_from_slice(&lines[3..].concat());
        assert_eq!(lines_after(&old, checkpoint.seq, h).left_out, 0);
    }

    #[test]
    fn the_head_of_rebuilt_bytes_is_their_last_line() {
        let dir = tempfile::tempdir().unwrap();
        let (bytes, head) = ledger(dir.path(), 3);
        assert_eq!(last_line(&bytes), Some(head));
        assert_eq!(last_line(b""), None);
        assert_eq!(last_line(&bytes[..bytes.len() - 1]), None, "torn last line");
    }
}
