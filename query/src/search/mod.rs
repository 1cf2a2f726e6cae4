//! The search projection: a tantivy full-text index over the ledger, and
//! `intent search`.
//!
//! The index lives in `.orchestration/.cache/search/` and is derived data: deleting
//! it costs one rebuild, never information.
//!
//! # What is indexed
//!
//! One document per event that carries something a person would search for; kinds
//! with nothing to read (`ledger.genesis`, `session.start`, `session.stop`,
//! `tool.post`) are skipped. Each document has a tokenized, stemmed `body` (stored,
//! for snippets) and raw filter fields (`kind`, `intent_id`, `session`, `model`,
//! `front_end`, `class`, `path_prefix`, `ts_us`):
//!
//! | kind | body |
//! |---|---|
//! | `intent.spec` | per intent: id, name, status, description, constraints, acceptance criteria, scope, dependencies |
//! | `trace` | path, mutation class, the classifier's reason, API changes, blocks touched (event, kind, name, old path), intent |
//! | `tool.pre` | decision, tool, action class, paths or command, the refusal's type, message and next step — for refusals (`deny`, `ask`) and shell commands; an allowed read or write has nothing more to say than its path, and a write's `trace` says more |
//! | `prompt`, `lesson` | their text |
//! | `intent.selected` / `.cleared` / `.status` | the intent, how, and the reasoning or reason given |
//! | unknown kinds | their `text`, `message`, `reason` and `description` strings, if any |
//!
//! `class` holds the lowercased `mutation_class` of traces (`ast_refactor`,
//! `intent_evolution`) and the action class of gate decisions (`destructive`,
//! `read_only`, `dangerous`). `path_prefix` holds every ancestor of every path an
//! event names (`src`, `src/auth`, `src/auth/jwt.ts`), so a path filter is one term
//! lookup; for intent specs these are the literal directories of `owned_scope`.
//!
//! **Intent specs are indexed latest-per-intent.** A spec snapshot holds the whole
//! `active_intents.yaml`, and most snapshots repeat most intents unchanged; one
//! document per intent per snapshot would answer `rate limiting` with as many
//! copies of INT-002 as the file had edits. Each snapshot therefore deletes the
//! previous document of every intent it lists and adds the new one (its `seq` is the
//! snapshot's). An intent removed from the file keeps its last document: traces and
//! lessons still name it, and search should still explain it. Deletes are ordered
//! operations in tantivy, so incremental catch-up and a rebuild end with the same
//! documents.
//!
//! # Stamp and catching up
//!
//! The [`Stamp`](crate::Stamp) of the last applied ledger line is the payload of
//! the tantivy commit (`prepare_commit` + `set_payload`), so the documents and the
//! stamp that describes them are published by the same atomic `meta.json` rename:
//! no crash can leave one without the other, as a sidecar file could. Catching up
//! reads the payload, checks it with [`Stamp::matches`](crate::Stamp::matches) (one
//! 64-byte read) and, when the ledger has grown, [`scan`](crate::projection::scan)s
//! from the stamp's offset, committing every [`BATCH`] lines and at the end — never
//! per event — so an interrupted rebuild resumes from its last batch. A stamp that
//! no longer matches (the ledger was replaced) empties the index and starts over.
//!
//! Only one process may write the index (tantivy's writer lock). A [`search`] that
//! finds another process catching up searches the last committed state instead of
//! waiting; [`catch_up`] and [`rebuild`] report the lock as an error.

mod docs;
mod index;
mod query;
mod schema;
mod team;

use intent_ledger::Workspace;

use crate::projection::{CatchUp, NoProgress, Progress, Result};

pub use index::BATCH;
pub use query::{SearchHit, SearchQuery, SearchResults, DEFAULT_LIMIT};
pub use team::{catch_up_team, search_team, TeamLedger};

/// Returns the directory of the search index, `.orchestration/.cache/search/`.
pub fn index_dir(workspace: &Workspace) -> std::path::PathBuf {
    workspace.projection_dir().join("search")
}

/// Brings the search index up to date with the ledger: applies the lines after its
/// stamp, or rebuilds it when there is no index or its stamp no longer matches.
///
/// Costs one small read when nothing is new. Fails when another process holds the
/// index's writer lock.
pub fn catch_up(workspace: &Workspace, progress: &dyn Progress) -> Result<CatchUp> {
    match index::catch_up(workspace, progress, false)? {
        (_, index::Outcome::Done(done)) => Ok(done),
        (_, index::Outcome::Busy) => Err(index::busy_error(workspace)),
    }
}

/// Empties the search index and indexes the whole ledger again.
pub fn rebuild(workspace: &Workspace, progress: &dyn Progress) -> Result<CatchUp> {
    match index::catch_up(workspace, progress, true)? {
        (_, index::Outcome::Done(done)) => Ok(done),
        (_, index::Outcome::Busy) => Err(index::busy_error(workspace)),
    }
}

/// Catches the index up with the ledger, then answers `query`. An empty ledger
/// gives no hits.
pub fn search(workspace: &Workspace, query: &SearchQuery) -> Result<SearchResults> {
    search_with(workspace, query, &NoProgress)
}

/// [`search`], reporting the progress of a long catch-up (the first search of a big
/// ledger builds the index).
pub fn search_with(
    workspace: &Workspace,
    query: &SearchQuery,
    progress: &dyn Progress,
) -> Result<SearchResults> {
    let (opened, outcome) = index::catch_up(workspace, progress, false)?;
    let mut results = query::run(&opened, query)?;
    if matches!(outcome, index::Outcome::Busy) {
        results.warnings.push(
            "another process is updating the search index; these results may miss the \
             newest events"
                .to_string(),
        );
    }
    Ok(results)
}
