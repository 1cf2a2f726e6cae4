//! Queries over every ledger a clone knows: its own and the ones `intent sync`
//! fetched. Each ledger answers with its own projections; the answers are merged by
//! [`intent_query::union`]. Used by the CLI commands and the MCP tools alike.

use intent_ledger::Workspace;
use intent_query::search::{SearchQuery, SearchResults};
use intent_query::why::{BlameAnswer, Target, WhyAnswer};
use intent_query::{Progress, QueryError};

/// This clone's ledger first (label `None`), then each fetched one, labelled by
/// owner, machine and id.
pub fn ledgers(workspace: &Workspace) -> Vec<(Option<String>, Workspace)> {
    let mut all = vec![(None, workspace.clone())];
    for fetched in super::fetched::list(workspace) {
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
    let mut parts = Vec::new();
    for (label, view) in ledgers(workspace) {
        match (label, query(&view)) {
            (label, Ok(answer)) => parts.push((label, answer)),
            (None, Err(err)) => return Err(err),
            (Some(label), Err(err)) => eprintln!("intent {what}: skipping {label}: {err}"),
        }
    }
    Ok(parts)
}

/// `why` over every ledger.
pub fn why(workspace: &Workspace, target: &Target) -> Result<WhyAnswer, QueryError> {
    let parts = each(workspace, "why", |ws| intent_query::why::why(ws, target))?;
    Ok(intent_query::union::merge_why(parts).expect("this clone's answer"))
}

/// `blame` over every ledger.
pub fn blame(workspace: &Workspace, path: &str) -> Result<BlameAnswer, QueryError> {
    let parts = each(workspace, "blame", |ws| intent_query::why::blame(ws, path))?;
    Ok(intent_query::union::merge_blame(parts).expect("this clone's answer"))
}

/// `search` over every ledger: one ranking (by score, equal scores newest first),
/// each hit from another clone naming its ledger.
pub fn search(
    workspace: &Workspace,
    query: &SearchQuery,
    progress: &dyn Progress,
) -> Result<SearchResults, QueryError> {
    let parts = each(workspace, "search", |ws| {
        intent_query::search::search_with(ws, query, progress)
    })?;
    let mut parts = parts.into_iter();
    let (_, mut results) = parts.next().expect("this clone's results");
    for (label, mut found) in parts {
        for hit in &mut found.hits {
            hit.ledger = label.clone();
        }
        results.hits.append(&mut found.hits);
        results.warnings.append(&mut found.warnings);
    }
    results
        .hits
        .sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| b.ts.cmp(&a.ts)));
    results.hits.truncate(query.limit);
    Ok(results)
}
