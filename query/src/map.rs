//! `.orchestration/intent_map.md`: per intent, the files and the AST blocks it
//! created or changed. Deterministic (sorted everywhere, no clock), so a full
//! rebuild and an incremental catch-up write the same bytes.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use intent_ledger::Workspace;

use crate::intents::IntentState;
use crate::lineage::{self, BlockState, FileLineage};
use crate::projection::{write_atomic, Result};

/// Where the map lives.
pub fn path(workspace: &Workspace) -> PathBuf {
    workspace.orchestration_dir().join("intent_map.md")
}

/// Where each traced block is now, per path (block id → first and last line), as
/// [`crate::locate::current_lines`] finds it in today's text.
pub type Positions = BTreeMap<String, BTreeMap<String, (u32, u32)>>;

/// One block row of an intent's section.
struct Row<'a> {
    block: &'a BlockState,
    /// Lines now; `None` when the block is no longer in the file.
    lines: Option<(u32, u32)>,
    deleted: bool,
    last_seq: u64,
    last_event: &'a str,
}

/// Renders the map from caught-up projections and today's block positions.
pub fn render(intents: &IntentState, shards: &[FileLineage], positions: &Positions) -> String {
    // intent -> path -> rows; intent -> paths traced without any block.
    let mut blocks: BTreeMap<&str, BTreeMap<&str, Vec<Row<'_>>>> = BTreeMap::new();
    for shard in shards {
        let all = shard
            .blocks
            .values()
            .map(|b| (b, false))
            .chain(shard.deleted.values().map(|b| (b, true)));
        for (block, deleted) in all {
            let mut last_by_intent: BTreeMap<&str, (u64, &str)> = BTreeMap::new();
            for change in &block.history {
                if let Some(id) = change.intent_id.as_deref() {
                    last_by_intent.insert(id, (change.seq, change.event.as_str()));
                }
            }
            for (id, (last_seq, last_event)) in last_by_intent {
                blocks
                    .entry(id)
                    .or_default()
                    .entry(shard.path.as_str())
                    .or_default()
                    .push(Row {
                        block,
                        lines: positions
                            .get(&shard.path)
                            .and_then(|p| p.get(&block.id))
                            .copied()
                            .filter(|_| !deleted),
                        deleted,
                        last_seq,
                        last_event,
                    });
            }
        }
    }
    let mut out = String::new();
    let stamp = &intents.stamp;
    let _ = writeln!(out, "# Intent map\n");
    let _ = writeln!(
        out,
        "Generated from `agent_trace.jsonl` up to seq {} (h `{}`). Do not edit: \
         `intent map` rewrites this file from the ledger.\n",
        stamp.seq,
        stamp.h.get(..12).unwrap_or(&stamp.h)
    );
    if intents.intents.is_empty() {
        out.push_str("No intents recorded yet.\n");
    }
    for (id, record) in &intents.intents {
        let status = if record.in_spec {
            record.status.as_str()
        } else {
            "no longer in active_intents.yaml"
        };
        let _ = writeln!(out, "## {id} — {} ({status})\n", record.name);
        let by_path = blocks.get(id.as_str());
        if record.files.is_empty() && by_path.is_none() {
            out.push_str("No traced changes.\n\n");
            continue;
        }
        out.push_str("| file | block | kind | lines | hash | last trace |\n");
        out.push_str("|---|---|---|---|---|---|\n");
        let mut paths: Vec<&str> = record.files.iter().map(String::as_str).collect();
        if let Some(by_path) = by_path {
            paths.extend(by_path.keys().copied());
        }
        paths.sort_unstable();
        paths.dedup();
        for path in paths {
            let rows = by_path.and_then(|m| m.get(path));
            let Some(rows) = rows.filter(|r| !r.is_empty()) else {
                let _ = writeln!(out, "| `{path}` | (file) | | | | |");
                continue;
            };
            let mut rows: Vec<&Row<'_>> = rows.iter().collect();
            rows.sort_by(|a, b| {
                (a.lines.is_none(), a.lines, &a.block.name, &a.block.id).cmp(&(
                    b.lines.is_none(),
                    b.lines,
                    &b.block.name,
                    &b.block.id,
                ))
            });
            for row in rows {
                let b = row.block;
                let lines = match (row.deleted, row.lines) {
                    (true, _) => "deleted".to_string(),
                    (false, Some((start, end))) => format!("{start}–{end}"),
                    (false, None) => "not in the file now".to_string(),
                };
                let _ = writeln!(
                    out,
                    "| `{path}` | `{}` | {} | {lines} | `{}` | #{} {} |",
                    b.name,
                    b.kind,
                    b.exact.get(..8).unwrap_or(&b.exact),
                    row.last_seq,
                    row.last_event
                );
            }
        }
        out.push('\n');
    }
    out
}

/// Catches both projections up and rewrites `intent_map.md` atomically. Returns
/// the text written.
pub fn regenerate(workspace: &Workspace) -> Result<String> {
    let progress = crate::projection::NoProgress;
    lineage::Lineage::catch_up(workspace, &progress)?;
    let (intents, _) = IntentState::catch_up(workspace, &progress)?;
    let shards = lineage::all_shards(workspace)?;
    let positions: Positions = shards
        .iter()
        .map(|s| (s.path.clone(), crate::locate::current_lines(workspace, s)))
        .collect();
    let text = render(&intents, &shards, &positions);
    write_atomic(&path(workspace), text.as_bytes())?;
    Ok(text)
}
