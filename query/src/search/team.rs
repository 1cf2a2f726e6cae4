//! One search index for every ledger fetched from other clones (the team index),
//! beside each clone's own. A search then opens two indexes, however many
//! teammates there are: opening one index per fetched ledger made `search` with
//! ten of them 6.8× the cost of the clone's own.
//!
//! Each document carries its ledger's id (`ledger`). The commit payload holds one
//! stamp per ledger, so each is caught up from the last line indexed: a sync that
//! brought 1,000 new events to ten ledgers costs 10,000 documents, not a rebuild. A
//! ledger whose stamp no longer matches (its copy was fetched again from scratch)
//! has its documents deleted and is indexed again; a ledger no longer fetched has
//! its documents deleted.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use tantivy::directory::error::LockError;
use tantivy::query::{BooleanQuery, Occur, Query, TermQuery};
use tantivy::schema::IndexRecordOption;
use tantivy::{Index, IndexWriter, TantivyError, Term};

use super::docs::{ops, Op};
use super::index::{create, Opened};
use super::query::{run, SearchQuery, SearchResults};
use super::schema::{Fields, FORMAT};
use crate::projection::{resume_point, scan, CatchUp, Progress, QueryError, Result, Stamp};

/// Writer memory (tantivy's minimum is 15 MB per thread).
const BUDGET: usize = 64 << 20;
/// Ledger lines applied between two commits.
const BATCH: u64 = 100_000;

/// A fetched ledger, as the team index sees it.
#[derive(Debug, Clone)]
pub struct TeamLedger {
    /// Its ledger id (what documents carry).
    pub id: String,
    /// Its ledger file.
    pub ledger: PathBuf,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct Payload {
    format: u32,
    /// Per ledger id, the stamp of its last line indexed.
    stamps: BTreeMap<String, Stamp>,
}

/// Catches the team index in `dir` up with `ledgers`, then answers `query`. Each
/// hit's `ledger` is the id of the ledger it came from.
pub fn search_team(
    dir: &Path,
    ledgers: &[TeamLedger],
    query: &SearchQuery,
    progress: &dyn Progress,
) -> Result<SearchResults> {
    let (opened, busy) = caught_up(dir, ledgers, progress)?;
    let mut results = run(&opened, query)?;
    if busy {
        results.warnings.push(
            "another process is updating the team search index; these results may miss \
             the newest events of other clones"
                .to_string(),
        );
    }
    Ok(results)
}

/// Brings the team index in `dir` up to date with `ledgers` (what `intent sync`
/// runs after fetching). Returns whether another process held the writer lock
/// (the index is then as that process last committed it).
pub fn catch_up_team(dir: &Path, ledgers: &[TeamLedger], progress: &dyn Progress) -> Result<bool> {
    Ok(caught_up(dir, ledgers, progress)?.1)
}

/// [`catch_up_team`], keeping the opened index.
fn caught_up(
    dir: &Path,
    ledgers: &[TeamLedger],
    progress: &dyn Progress,
) -> Result<(Opened, bool)> {
    let (opened, payload) = open_or_create(dir)?;
    if up_to_date(ledgers, &payload) {
        return Ok((opened, false));
    }
    let mut writer: IndexWriter = match opened.index.writer_with_num_threads(1, BUDGET) {
        Ok(writer) => writer,
        Err(TantivyError::LockFailure(LockError::LockBusy, _)) => return Ok((opened, true)),
        Err(err) => return Err(err.into()),
    };
    // Read again under the lock: another process may have caught up meanwhile.
    let mut payload = read_payload(&opened.index)?.unwrap_or_default();
    payload.format = FORMAT;
    let fields = opened.fields;
    let gone: Vec<String> = payload
        .stamps
        .keys()
        .filter(|id| !ledgers.iter().any(|l| l.id == **id))
        .cloned()
        .collect();
    for id in gone {
        writer.delete_term(Term::from_field_text(fields.ledger, &id));
        payload.stamps.remove(&id);
    }
    for ledger in ledgers {
        let stamp = payload.stamps.get(&ledger.id);
        let from = resume_point(&ledger.ledger, stamp);
        if from.is_none() && stamp.is_some() {
            writer.delete_term(Term::from_field_text(fields.ledger, &ledger.id));
        }
        index_ledger(&mut writer, &fields, ledger, from, &mut payload, progress)?;
    }
    commit(&mut writer, &payload)?;
    writer.wait_merging_threads()?;
    Ok((opened, false))
}

/// Whether every ledger's stamp matches its end and no other ledger is indexed.
fn up_to_date(ledgers: &[TeamLedger], payload: &Option<Payload>) -> bool {
    let Some(payload) = payload else {
        return false;
    };
    payload.stamps.len() == ledgers.len()
        && ledgers.iter().all(|l| {
            let len = std::fs::metadata(&l.ledger).map_or(0, |m| m.len());
            resume_point(&l.ledger, payload.stamps.get(&l.id)) == Some(len)
        })
}

/// Indexes `ledger` from `from` (all of it when `None`), committing every
/// [`BATCH`] lines.
fn index_ledger(
    writer: &mut IndexWriter,
    fields: &Fields,
    ledger: &TeamLedger,
    from: Option<u64>,
    payload: &mut Payload,
    progress: &dyn Progress,
) -> Result<CatchUp> {
    let mut pending = 0u64;
    let applied = scan(
        &ledger.ledger,
        from.unwrap_or(0),
        "team search index",
        progress,
        |event, stamp| {
            for op in ops(event, fields) {
                match op {
                    Op::DeleteSpec(intent) => {
                        let of_ledger: Vec<(Occur, Box<dyn Query>)> = vec![
                            (Occur::Must, term(fields.spec_of, &intent)),
                            (Occur::Must, term(fields.ledger, &ledger.id)),
                        ];
                        writer.delete_query(Box::new(BooleanQuery::new(of_ledger)))?;
                    }
                    Op::Add(mut doc) => {
                        doc.add_text(fields.ledger, &ledger.id);
                        writer.add_document(doc)?;
                    }
                }
            }
            payload.stamps.insert(ledger.id.clone(), stamp.clone());
            pending += 1;
            if pending >= BATCH {
                commit(writer, payload)?;
                pending = 0;
            }
            Ok(())
        },
    )?;
    payload.stamps.entry(ledger.id.clone()).or_default();
    Ok(CatchUp {
        from_scratch: from.is_none(),
        applied,
    })
}

fn term(field: tantivy::schema::Field, value: &str) -> Box<dyn Query> {
    Box::new(TermQuery::new(
        Term::from_field_text(field, value),
        IndexRecordOption::Basic,
    ))
}

fn commit(writer: &mut IndexWriter, payload: &Payload) -> Result<()> {
    let text = serde_json::to_string(payload)
        .map_err(|e| QueryError::Index(format!("cannot encode the commit payload: {e}")))?;
    let mut prepared = writer.prepare_commit()?;
    prepared.set_payload(&text);
    prepared.commit()?;
    Ok(())
}

fn read_payload(index: &Index) -> Result<Option<Payload>> {
    let text = index.load_metas()?.payload;
    Ok(text
        .and_then(|text| serde_json::from_str::<Payload>(&text).ok())
        .filter(|p| p.format == FORMAT))
}

/// Opens the team index in `dir`, creating it (or replacing one of another format
/// or unreadable) as needed; with its payload, if committed.
fn open_or_create(dir: &Path) -> Result<(Opened, Option<Payload>)> {
    if dir.join("meta.json").is_file() {
        if let Ok(index) = Index::open_in_dir(dir) {
            if let Ok(fields) = Fields::of(&index.schema()) {
                let text = index.load_metas()?.payload;
                let payload = text.and_then(|t| serde_json::from_str::<Payload>(&t).ok());
                match payload {
                    Some(p) if p.format != FORMAT => {}
                    payload => return Ok((Opened { index, fields }, payload)),
                }
            }
        }
        return Ok((create(dir, true)?, None));
    }
    Ok((create(dir, false)?, None))
}

#[cfg(test)]
mod tests {
    use intent_ledger::{NewEvent, Workspace};
    use serde_json::json;

    use super::*;
    use crate::projection::NoProgress;

    fn ledger(dir: &Path, name: &str) -> (Workspace, TeamLedger) {
        let ws = Workspace::at(dir.join(name));
        std::fs::create_dir_all(ws.root()).unwrap();
        ws.init().unwrap();
        let ledger = TeamLedger {
            id: name.to_string(),
            ledger: ws.ledger_path(),
        };
        (ws, ledger)
    }

    fn lesson(ws: &Workspace, text: &str) {
        let mut ledger = ws.open_ledger(Default::default()).unwrap();
        ledger
            .append(NewEvent::new("lesson", "test", json!({ "text": text })))
            .unwrap();
    }

    fn spec(ws: &Workspace, name: &str) {
        let mut ledger = ws.open_ledger(Default::default()).unwrap();
        let data = json!({"spec": {"active_intents": [{"id": "INT-001", "name": name}]}});
        ledger
            .append(NewEvent::new("intent.spec", "test", data))
            .unwrap();
    }

    fn hits(dir: &Path, ledgers: &[TeamLedger], text: &str) -> Vec<(String, String)> {
        let query = SearchQuery::new(text);
        let found = search_team(dir, ledgers, &query, &NoProgress).unwrap();
        let mut hits: Vec<(String, String)> = found
            .hits
            .into_iter()
            .map(|h| (h.ledger.unwrap_or_default(), h.snippet))
            .collect();
        hits.sort();
        hits
    }

    #[test]
    fn each_ledger_is_caught_up_from_its_own_last_line() {
        let dir = tempfile::tempdir().unwrap();
        let index = dir.path().join("team-search");
        let (alice, a) = ledger(dir.path(), "alice");
        let (bob, b) = ledger(dir.path(), "bob");
        lesson(&alice, "rotate the signing key");
        lesson(&bob, "never log the signing key");
        let both = [a.clone(), b.clone()];
        assert_eq!(
            hits(&index, &both, "signing").len(),
            2,
            "one document per ledger"
        );
        // New work in one ledger: only its new line is indexed, nothing twice.
        lesson(&bob, "the signing key lives in the vault");
        let found = hits(&index, &both, "signing");
        assert_eq!(found.iter().filter(|(l, _)| l == "bob").count(), 2);
        assert_eq!(found.iter().filter(|(l, _)| l == "alice").count(), 1);
        assert!(!catch_up_team(&index, &both, &NoProgress).unwrap());
        // A ledger no longer fetched leaves the index.
        assert!(hits(&index, std::slice::from_ref(&b), "signing")
            .iter()
            .all(|(l, _)| l == "bob"));
        // Back again: indexed from its start, once.
        assert_eq!(hits(&index, &both, "signing").len(), 3);
    }

    #[test]
    fn a_newer_spec_replaces_only_its_own_ledgers_spec() {
        let dir = tempfile::tempdir().unwrap();
        let index = dir.path().join("team-search");
        let (alice, a) = ledger(dir.path(), "alice");
        let (bob, b) = ledger(dir.path(), "bob");
        spec(&alice, "Signing tokens");
        spec(&bob, "Signing cookies");
        let both = [a, b];
        assert_eq!(hits(&index, &both, "signing").len(), 2);
        spec(&alice, "Signing tokens with rotation");
        let found = hits(&index, &both, "signing");
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found
            .iter()
            .any(|(l, s)| l == "alice" && s.contains("rotation")));
        assert!(found
            .iter()
            .any(|(l, s)| l == "bob" && s.contains("cookies")));
    }
}
