//! Queries over every ledger a clone knows: its own and the ones `intent sync`
//! fetched. Each ledger answers with its own projections; the answers are merged by
//! [`intent_query::union`]. Used by the CLI commands and the MCP tools alike. The
//! fetched ledgers themselves are [`intent_sync::fetched`]'s.

use intent_ledger::Workspace;
use intent_query::search::{SearchQuery, SearchResults, TeamLedger};
use intent_query::why::{BlameAnswer, Target, WhyAnswer};
use intent_query::{Progress, QueryError};

/// This clone's ledger first (label `None`), then each fetched one, labelled by
/// owner, machine and id.
pub fn ledgers(workspace: &Workspace) -> Vec<(Option<String>, Workspace)> {
    let mut all = vec![(None, workspace.clone())];
    for fetched in intent_sync::fetched::list(workspace) {
        all.push((Some(fetched.label()), fetched.view(workspace)));
    }
    all
}

/// Runs `query` on every ledger. This clone's error is the answer's error (it
/// decides whether the question is valid at all); another ledger's failure is a
/// warning on stderr and that ledger is left out.
fn each<T>(
    workspace: &Workspace,
    what: &str,
    query: impl Fn(&Workspace) -> Result<T, QueryError>,
) -> Result<Vec<(Option<String>, T)>, QueryError> {
    let mut parts = vec![(None, query(workspace)?)];
    let fetched = each_fetched(workspace, what, query);
    parts.extend(
        fetched
            .into_iter()
            .map(|(label, answer)| (Some(label), answer)),
    );
    Ok(parts)
}

/// `why` over every ledger: this clone's answers in full; another clone's only when
/// it traced the path at all.
pub fn why(workspace: &Workspace, target: &Target) -> Result<WhyAnswer, QueryError> {
    let local = intent_query::why::why(workspace, target)?;
    // Resolved once: every fetched ledger is asked about the same file.
    let rel = intent_query::why::relative_path(workspace, target.path())?;
    let mut parts = vec![(None, local)];
    for dir in intent_sync::fetched::dirs(workspace) {
        let answer = intent_query::why::why_if_recorded(&dir.view(workspace), target, &rel);
        // Only a ledger with something to say is named (its state read).
        let answered = match answer {
            Ok(None) => continue,
            Ok(Some(answer)) => Ok(answer),
            Err(err) => Err(err),
        };
        let Some(fetched) = dir.load() else {
            continue; // its first fetch is unfinished
        };
        match answered {
            Ok(answer) => parts.push((Some(fetched.label()), answer)),
            Err(err) => crate::say::warning(&format!("why: skipping {}: {err}", fetched.label())),
        }
    }
    Ok(intent_query::union::merge_why(parts).expect("this clone's answer"))
}

/// Runs `query` on every fetched ledger; one that fails is a warning on stderr and
/// is left out.
fn each_fetched<T>(
    workspace: &Workspace,
    what: &str,
    query: impl Fn(&Workspace) -> Result<T, QueryError>,
) -> Vec<(String, T)> {
    let mut parts = Vec::new();
    for fetched in intent_sync::fetched::list(workspace) {
        let label = fetched.label();
        match query(&fetched.view(workspace)) {
            Ok(answer) => parts.push((label, answer)),
            Err(err) => crate::say::warning(&format!("{what}: skipping {label}: {err}")),
        }
    }
    parts
}

/// `blame` over every ledger.
pub fn blame(workspace: &Workspace, path: &str) -> Result<BlameAnswer, QueryError> {
    let parts = each(workspace, "blame", |ws| intent_query::why::blame(ws, path))?;
    Ok(intent_query::union::merge_blame(parts).expect("this clone's answer"))
}

/// `search` over every ledger: this clone's index and one team index for every
/// fetched ledger (two indexes, however many teammates); one ranking (by score,
/// equal scores newest first), each hit from another clone naming its ledger.
pub fn search(
    workspace: &Workspace,
    query: &SearchQuery,
    progress: &dyn Progress,
) -> Result<SearchResults, QueryError> {
    let mut results = intent_query::search::search_with(workspace, query, progress)?;
    let fetched = intent_sync::fetched::dirs(workspace);
    let Some(dir) = intent_sync::fetched::team_index_dir(workspace).filter(|_| !fetched.is_empty())
    else {
        return Ok(results);
    };
    let ledgers: Vec<_> = fetched
        .iter()
        .map(|f| TeamLedger {
            id: f.id().to_string(),
            ledger: f.ledger(),
        })
        .collect();
    match intent_query::search::search_team(&dir, &ledgers, query, progress) {
        Ok(mut found) => {
            // Only the ledgers that have hits are named (their states read); one
            // whose first fetch is unfinished is not offered.
            let mut labels = std::collections::HashMap::new();
            found.hits.retain_mut(|hit| {
                let id = hit.ledger.take().unwrap_or_default();
                let label = labels.entry(id.clone()).or_insert_with(|| {
                    let dir = fetched.iter().find(|f| f.id() == id)?;
                    dir.load().map(|f| f.label())
                });
                hit.ledger = label.clone();
                hit.ledger.is_some()
            });
            results.hits.append(&mut found.hits);
            results.warnings.append(&mut found.warnings);
        }
        Err(err) => results
            .warnings
            .push(format!("other clones' ledgers were not searched: {err}")),
    }
    results
        .hits
        .sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| b.ts.cmp(&a.ts)));
    results.hits.truncate(query.limit);
    Ok(results)
}
