//! Violations the ledgers recorded for a range's files: a command that wrote
//! outside its intent's scope (`scope_violation` on the `tool.post` and on the
//! file's trace) or touched a protected file (`policy_block`). Only those recorded
//! since the base commit was made count: older ones are another range's story.
//! A violation a person accepted (`intent accept`, a `violation.accepted` event in
//! any ledger this clone has) carries the acceptance and fails no check.

use std::collections::BTreeSet;

use serde::Serialize;
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

use intent_ledger::payload::ViolationAccepted;
use intent_sync::git;

use crate::config::Config;

/// One recorded violation of a file of the range.
#[derive(Debug, Clone, Serialize)]
pub struct RecordedViolation {
    /// The file.
    pub path: String,
    /// `scope_violation`, `policy_block`, …
    pub kind: String,
    /// The intent the session worked under, when it had one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub intent_id: Option<String>,
    /// The session.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// Seq of the first event that recorded it.
    pub seq: u64,
    /// That event's id (what `intent accept` takes).
    pub event_id: String,
    /// The tool call that did it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_use_id: Option<String>,
    /// The ledger it is recorded in, when it is another clone's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ledger: Option<String>,
    /// The person's acceptance, when one was recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accepted: Option<Acceptance>,
}

/// A recorded `violation.accepted`.
#[derive(Debug, Clone, Serialize)]
pub struct Acceptance {
    /// Why, in the person's words.
    pub reason: String,
    /// Who.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    /// When (RFC 3339).
    pub ts: String,
    /// Seq of the acceptance in its ledger.
    pub seq: u64,
    /// The ledger it is recorded in, when it is another clone's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ledger: Option<String>,
}

/// The violations recorded for `paths` since commit `base` was made, in every
/// ledger this clone has; one per (ledger, event, path).
pub fn recorded(
    config: &Config,
    base: &str,
    paths: &BTreeSet<&str>,
) -> anyhow::Result<Vec<RecordedViolation>> {
    let since = git::run(
        config.workspace.root(),
        &["show", "-s", "--format=%ct", base],
    )?
    .trim()
    .parse::<i64>()
    .unwrap_or(0);
    scan(config, since, Some(paths))
}

/// Every violation recorded at or after `since` (Unix seconds) for `paths` (all
/// paths: `None`), with its acceptance if a person recorded one.
pub fn scan(
    config: &Config,
    since: i64,
    paths: Option<&BTreeSet<&str>>,
) -> anyhow::Result<Vec<RecordedViolation>> {
    let workspace = &config.workspace;
    let mut ledgers = vec![(None, workspace.ledger_path())];
    for dir in intent_sync::fetched::dirs(workspace) {
        if let Some(fetched) = dir.load() {
            ledgers.push((Some(fetched.label()), fetched.ledger.clone()));
        }
    }
    let mut out = Vec::new();
    let mut acceptances: Vec<(String, Acceptance)> = Vec::new();
    for (label, path) in ledgers {
        let Ok(lines) = intent_ledger::LineReader::open(&path) else {
            continue;
        };
        for line in lines {
            let line = line?;
            // Most lines hold no violation: checked before parsing.
            if memchr::memmem::find(&line.bytes, b"\"violation\":").is_none() {
                continue;
            }
            let event = line.parse(&path)?;
            if event.kind == intent_ledger::kinds::VIOLATION_ACCEPTED {
                if let Some(data) = event.payload::<ViolationAccepted>() {
                    acceptances.push((
                        data.event_id,
                        Acceptance {
                            reason: data.reason,
                            by: data.by,
                            ts: event.ts.clone(),
                            seq: event.seq,
                            ledger: label.clone(),
                        },
                    ));
                }
                continue;
            }
            let at = OffsetDateTime::parse(&event.ts, &Rfc3339)
                .map(OffsetDateTime::unix_timestamp)
                .unwrap_or(i64::MAX);
            if at < since {
                continue;
            }
            let (kind, named): (Option<&str>, Vec<&str>) = match event.kind.as_str() {
                "trace" => (
                    event.data["violation"].as_str(),
                    event.data["path"].as_str().into_iter().collect(),
                ),
                "tool.post" => (
                    event.data["violation"]["type"].as_str(),
                    event.data["violation"]["paths"]
                        .as_array()
                        .map(|a| a.iter().filter_map(|p| p.as_str()).collect())
                        .unwrap_or_default(),
                ),
                _ => (None, Vec::new()),
            };
            let Some(kind) = kind else {
                continue;
            };
            for p in named
                .into_iter()
                .filter(|p| paths.is_none_or(|paths| paths.contains(p)))
            {
                let tool_use_id = event.data["tool_use_id"].as_str().map(str::to_string);
                // The trace and the tool.post of one command name the same file.
                if out.iter().any(|v: &RecordedViolation| {
                    v.path == p
                        && v.kind == kind
                        && v.ledger == label
                        && v.tool_use_id == tool_use_id
                }) {
                    continue;
                }
                out.push(RecordedViolation {
                    path: p.to_string(),
                    kind: kind.to_string(),
                    intent_id: event.intent_id().map(str::to_string).or_else(|| {
                        event.data["violation"]["intent_id"]
                            .as_str()
                            .map(str::to_string)
                    }),
                    session: event.session.clone(),
                    seq: event.seq,
                    event_id: event.id.clone(),
                    tool_use_id,
                    ledger: label.clone(),
                    accepted: None,
                });
            }
        }
    }
    for (event_id, acceptance) in acceptances {
        for v in out.iter_mut().filter(|v| v.event_id == event_id) {
            v.accepted = Some(acceptance.clone());
        }
    }
    Ok(out)
}
