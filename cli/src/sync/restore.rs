//! Comparing the live ledger with its last checkpoint, and rebuilding a wiped,
//! truncated or rewritten ledger from it without losing the events written since.

use std::fs::OpenOptions;
use std::os::unix::fs::FileExt as _;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _};
use intent_ledger::head::{self, Head};
use intent_ledger::{line, Workspace};
use serde::Serialize;

use super::git;
use super::publish::{ledger_id_of, ledger_ref, ordered_parts, read_meta, still_holds, Meta};

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
    /// Where the ledger as it was before is kept, byte for byte.
    pub set_aside: Option<PathBuf>,
    /// The ledger's last seq now.
    pub seq: u64,
}

/// Rebuilds the ledger from its checkpoint, keeping the events after it that still
/// chain on, and sets the old file aside. Does nothing when the ledger holds the
/// checkpoint.
pub fn restore(workspace: &Workspace) -> anyhow::Result<Option<Restored>> {
    let check = check(workspace)?.context(
        "no checkpoint of this ledger in git (one is written by `intent sync` and when an \
         agent session ends); nothing to restore from",
    )?;
    let dir = workspace.root();
    let meta = &check.checkpoint;
    let commit = git::resolve(dir, &check.reference).context("checkpoint ref vanished")?;
    let files = git::tree_files(dir, &commit)?;
    let oids: Vec<String> = ordered_parts(&files)
        .into_iter()
        .map(|(_, oid)| oid)
        .collect();
    let mut rebuilt: Vec<u8> = git::blobs(dir, &oids)?.concat();
    let verdict = intent_ledger::verify_bytes(&rebuilt);
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
    // The cheap check (`check`) looks at the checkpoint's last line only; a restore
    // compares every byte, so a line rewritten before it is found too.
    if std::fs::read(&ledger).is_ok_and(|live| live.starts_with(&rebuilt)) {
        return Ok(None);
    }
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
    file.lock()?;
    let result = (|| {
        let old = std::fs::read(&ledger)?;
        let set_aside = if old.is_empty() {
            None
        } else {
            let aside = aside_path(&ledger);
            std::fs::write(&aside, &old)
                .with_context(|| format!("keep the old ledger at {}", aside.display()))?;
            Some(aside)
        };
        let (after, kept_after) = lines_after(&old, meta.seq, &meta.h);
        rebuilt.extend_from_slice(after);
        let last = last_line(&rebuilt).context("restored ledger is empty")?;
        file.set_len(0)?;
        file.write_all_at(&rebuilt, 0)?;
        file.sync_all()?;
        head::write(&ledger, &last)?;
        anyhow::Ok(Restored {
            reference: check.reference.clone(),
            checkpoint_seq: meta.seq,
            kept_after,
            set_aside,
            seq: last.seq,
        })
    })();
    let _ = file.unlock();
    result.map(Some)
}

/// Where the ledger as it was before a restore is kept.
fn aside_path(ledger: &Path) -> PathBuf {
    let stamp = time::OffsetDateTime::now_utc().unix_timestamp();
    ledger.with_extension(format!("before-restore-{stamp}.jsonl"))
}

/// The lines of `old` after seq `seq` that chain on from `h` (seq + 1, `prev` = the
/// previous `h`, their own hash right), and how many there are.
fn lines_after<'a>(old: &'a [u8], seq: u64, h: &str) -> (&'a [u8], u64) {
    let mut start = 0;
    let mut from = None;
    let mut end = 0;
    let mut expect_seq = seq + 1;
    let mut expect_prev = h.as_bytes().to_vec();
    let mut count = 0;
    for nl in memchr::memchr_iter(b'\n', old) {
        let text = &old[start..nl];
        let ok = line::inspect(text).ok().filter(|v| {
            v.seq == expect_seq && v.prev == expect_prev.as_slice() && line::hash_matches(v)
        });
        match (ok, from) {
            (Some(view), _) => {
                from.get_or_insert(start);
                expect_seq += 1;
                expect_prev = view.h.to_vec();
                end = nl + 1;
                count += 1;
            }
            (None, Some(_)) => break,
            (None, None) => {}
        }
        start = nl + 1;
    }
    match from {
        Some(from) => (&old[from..end], count),
        None => (&[], 0),
    }
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
