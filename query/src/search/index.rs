//! Opening, creating and catching up the index on disk.

use std::path::Path;

use intent_ledger::Workspace;
use serde::{Deserialize, Serialize};
use tantivy::directory::error::LockError;
use tantivy::{Index, IndexWriter, TantivyError, Term};

use super::docs::{ops, Op};
use super::schema::{self, Fields, FORMAT};
use crate::projection::{resume_point, scan, CatchUp, Progress, QueryError, Result, Stamp};

/// Ledger lines applied between two commits of a long catch-up.
pub const BATCH: u64 = 100_000;

/// Catch-ups of fewer ledger bytes than this index on one thread with a small
/// arena: the usual case, a few events since the last search.
const SMALL_CATCH_UP: u64 = 16 << 20;
/// Writer memory for a small catch-up (tantivy's minimum is 15 MB per thread).
const SMALL_BUDGET: usize = 32 << 20;
/// Writer memory for a long catch-up: 2 indexing threads × 200 MB, sized for the
/// 2-core, 24 GiB machines this runs on; bigger arenas only make fewer segments.
const LARGE_BUDGET: usize = 400 << 20;

/// The commit payload: the stamp of the last applied line, and the format that
/// wrote the documents.
#[derive(Debug, Serialize, Deserialize)]
struct Payload {
    format: u32,
    stamp: Stamp,
}

/// An open index and its fields.
pub(crate) struct Opened {
    pub index: Index,
    pub fields: Fields,
}

/// How a catch-up ended.
pub(crate) enum Outcome {
    /// The index reflects the ledger.
    Done(CatchUp),
    /// Another process holds the writer lock; the index is as it last committed.
    Busy,
}

/// The error for a writer lock held by another process.
pub(crate) fn busy_error(workspace: &Workspace) -> QueryError {
    QueryError::Index(format!(
        "{} is being updated by another intent process; wait for it to finish and try \
         again",
        super::index_dir(workspace).display()
    ))
}

/// Opens the index (creating or replacing it when it is missing, unreadable or of
/// another format) and catches it up, from scratch when `rebuild`.
pub(crate) fn catch_up(
    workspace: &Workspace,
    progress: &dyn Progress,
    rebuild: bool,
) -> Result<(Opened, Outcome)> {
    let ledger = workspace.ledger_path();
    if !ledger.is_file() {
        return Err(QueryError::Invalid(format!(
            "no ledger at {}; run `intent init` first or pass --workspace DIR",
            ledger.display()
        )));
    }
    let dir = super::index_dir(workspace);
    let (opened, stamp) = match open(&dir)? {
        Found::Usable(opened, stamp) => (*opened, stamp),
        Found::Missing => (create(&dir, false)?, None),
        Found::Unusable => (create(&dir, true)?, None),
    };
    let outcome = catch_up_opened(&opened, stamp, &ledger, progress, rebuild)?;
    Ok((opened, outcome))
}

/// Catches up `opened`, whose last commit was seen stamped with `stamp`.
fn catch_up_opened(
    opened: &Opened,
    stamp: Option<Stamp>,
    ledger: &Path,
    progress: &dyn Progress,
    rebuild: bool,
) -> Result<Outcome> {
    let from = if rebuild {
        None
    } else {
        resume_point(ledger, stamp.as_ref())
    };
    let len = std::fs::metadata(ledger)
        .map_err(|e| QueryError::io(ledger, e))?
        .len();
    if from == Some(len) {
        return Ok(Outcome::Done(CatchUp::default()));
    }
    let remaining = len - from.unwrap_or(0).min(len);
    let (threads, budget) = if remaining < SMALL_CATCH_UP {
        (1, SMALL_BUDGET)
    } else {
        (2, LARGE_BUDGET)
    };
    let mut writer: IndexWriter = match opened.index.writer_with_num_threads(threads, budget) {
        Ok(writer) => writer,
        Err(TantivyError::LockFailure(LockError::LockBusy, _)) => {
            return Ok(Outcome::Busy);
        }
        Err(err) => return Err(err.into()),
    };
    // Another process may have caught up between our reading the stamp and taking
    // the lock: read it again now that it cannot change, or we would index its
    // events twice.
    let from = match (rebuild, payload(&opened.index)?) {
        (false, Some(payload)) if payload.format == FORMAT => {
            resume_point(ledger, Some(&payload.stamp))
        }
        _ => None,
    };
    if from == Some(len) {
        return Ok(Outcome::Done(CatchUp::default()));
    }
    let outcome = apply(&mut writer, &opened.fields, ledger, from, progress)?;
    writer.wait_merging_threads()?;
    Ok(Outcome::Done(outcome))
}

/// Applies the ledger from `from` (everything, into an emptied index, when `None`),
/// committing every [`BATCH`] lines and at the end.
fn apply(
    writer: &mut IndexWriter,
    fields: &Fields,
    ledger: &Path,
    from: Option<u64>,
    progress: &dyn Progress,
) -> Result<CatchUp> {
    if from.is_none() {
        writer.delete_all_documents()?;
    }
    let mut last: Option<Stamp> = None;
    let mut pending = 0u64;
    let applied = scan(
        ledger,
        from.unwrap_or(0),
        "search index",
        progress,
        |event, stamp| {
            for op in ops(event, fields) {
                match op {
                    Op::DeleteSpec(id) => {
                        writer.delete_term(Term::from_field_text(fields.spec_of, &id));
                    }
                    Op::Add(doc) => {
                        writer.add_document(doc)?;
                    }
                }
            }
            pending += 1;
            if pending >= BATCH {
                commit(writer, stamp)?;
                pending = 0;
            }
            last = Some(stamp.clone());
            Ok(())
        },
    )?;
    match (last, from) {
        (Some(stamp), _) => commit(writer, &stamp)?,
        // An empty ledger file: an empty index, stamped as such.
        (None, None) => commit(writer, &Stamp::default())?,
        // Only a torn tail was new: nothing to commit.
        (None, Some(_)) => {}
    }
    Ok(CatchUp {
        from_scratch: from.is_none(),
        applied,
    })
}

/// Commits what the writer holds, with `stamp` as the payload.
fn commit(writer: &mut IndexWriter, stamp: &Stamp) -> Result<()> {
    let payload = serde_json::to_string(&Payload {
        format: FORMAT,
        stamp: stamp.clone(),
    })
    .map_err(|e| QueryError::Index(format!("cannot encode the commit payload: {e}")))?;
    let mut prepared = writer.prepare_commit()?;
    prepared.set_payload(&payload);
    prepared.commit()?;
    Ok(())
}

/// What [`open`] found in the index directory.
enum Found {
    /// A usable index and its stamp (none if it was never committed to).
    Usable(Box<Opened>, Option<Stamp>),
    /// No index yet.
    Missing,
    /// An index that cannot be read or was written by another format.
    Unusable,
}

/// Opens the index in `dir` with its stamp.
fn open(dir: &Path) -> Result<Found> {
    if !dir.join("meta.json").is_file() {
        return Ok(Found::Missing);
    }
    let Ok(index) = Index::open_in_dir(dir) else {
        return Ok(Found::Unusable);
    };
    let Ok(fields) = Fields::of(&index.schema()) else {
        return Ok(Found::Unusable);
    };
    let stamp = match payload(&index)? {
        Some(payload) if payload.format != FORMAT => return Ok(Found::Unusable),
        Some(payload) => Some(payload.stamp),
        // Created but never committed to (a first build was interrupted).
        None => None,
    };
    Ok(Found::Usable(Box::new(Opened { index, fields }), stamp))
}

/// Reads the payload of the last commit, if it has one we can read.
fn payload(index: &Index) -> Result<Option<Payload>> {
    let text = index.load_metas()?.payload;
    Ok(text.and_then(|text| serde_json::from_str(&text).ok()))
}

/// Creates an empty index in `dir`, first removing an unusable one (never a
/// directory without `meta.json`: another process may be creating its index there).
pub(super) fn create(dir: &Path, replace: bool) -> Result<Opened> {
    if replace {
        std::fs::remove_dir_all(dir).map_err(|e| QueryError::io(dir, e))?;
    }
    std::fs::create_dir_all(dir).map_err(|e| QueryError::io(dir, e))?;
    let index = match Index::create_in_dir(dir, schema::build()) {
        Ok(index) => index,
        // Another process created it first: use theirs.
        Err(TantivyError::IndexAlreadyExists) => Index::open_in_dir(dir)?,
        Err(err) => return Err(err.into()),
    };
    let fields = Fields::of(&index.schema())?;
    Ok(Opened { index, fields })
}

#[cfg(test)]
mod tests {
    use intent_ledger::{NewEvent, Workspace};
    use serde_json::json;

    use super::*;
    use crate::projection::NoProgress;

    fn append(ws: &Workspace, text: &str) {
        let mut ledger = ws.open_ledger(Default::default()).unwrap();
        let event = NewEvent::new("lesson", "test", json!({ "text": text }));
        ledger.append(event).unwrap();
    }

    fn outcome(found: Outcome) -> CatchUp {
        match found {
            Outcome::Done(done) => done,
            Outcome::Busy => panic!("the writer lock is free in this test"),
        }
    }

    /// Two catch-ups that read the same stamp before either took the writer lock:
    /// the second must see the first one's commit, not index its events again.
    #[test]
    fn a_stale_stamp_is_read_again_under_the_writer_lock() {
        let dir = tempfile::tempdir().unwrap();
        let ws = Workspace::at(dir.path());
        ws.init().unwrap();
        append(&ws, "first");
        catch_up(&ws, &NoProgress, false).unwrap();
        let Found::Usable(stale, stamp) = open(&super::super::index_dir(&ws)).unwrap() else {
            panic!("the index was just built");
        };
        append(&ws, "second");
        let winner = outcome(catch_up(&ws, &NoProgress, false).unwrap().1);
        assert_eq!(winner.applied, 1);
        let ledger = ws.ledger_path();
        let late = catch_up_opened(&stale, stamp, &ledger, &NoProgress, false).unwrap();
        assert_eq!(outcome(late), CatchUp::default(), "nothing left to apply");
        let reader = stale.index.reader().unwrap();
        assert_eq!(
            reader.searcher().num_docs(),
            2,
            "first and second, once each"
        );
    }
}
