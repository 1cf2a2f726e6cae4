//! What the block-lineage projection stores, and how one `trace` event changes it.
//!
//! One shard per traced path holds the blocks that live in that file now (with their
//! whole history, which travels with a block when it moves), the blocks deleted from
//! it, and every trace of the path. A history entry keeps the byte offset of its
//! trace line, so a query reads the trace's details (intent, class, session, model)
//! straight from the ledger instead of copying them here.

use std::collections::BTreeMap;

use std::collections::HashSet;

use intent_ledger::payload::{BlockOrigin, BlockSide, Trace, TraceBlock};

use super::lines::taken;
use super::lines::LineWrite;
use super::Removed;
use serde::{Deserialize, Serialize};

/// One traced file's lineage.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FileLineage {
    /// Workspace-relative path.
    pub path: String,
    /// Content hash after the last traced write (`sha256:…`), `None` once deleted.
    pub after_sha256: Option<String>,
    /// Blocks located in this file now, by block id.
    pub blocks: BTreeMap<String, BlockState>,
    /// Blocks last seen in this file and deleted since, by block id.
    pub deleted: BTreeMap<String, BlockState>,
    /// Every line's story as of the last traced write; `None` when the last write
    /// left no line record (a binary or very large file, a deletion, a ledger
    /// written before line tracking).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<super::lines::LineMap>,
    /// Lines the latest turn's writes removed, with their stories, for a block of
    /// another file that took them in the same turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub removed: Option<Removed>,
    /// Traces of this path: every one when read with [`super::traces`]; during an
    /// update, only those not yet stored (kept in their own append-only file, so
    /// a `why` inside a block never reads them).
    #[serde(skip)]
    pub traces: Vec<TraceRef>,
}

/// A block as last traced, with its history.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BlockState {
    /// Stable block id (given at first trace).
    pub id: String,
    /// Block kind (`function`, `class`, `method`, …).
    pub kind: String,
    /// Qualified name (`AuthService.verify`).
    pub name: String,
    /// First line at the last trace (1-based).
    pub start_line: u32,
    /// Last line at the last trace (inclusive).
    pub end_line: u32,
    /// Key at the last trace: the qualified name, `#n` for the n-th of that name.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub key: String,
    /// Exact hash at the last trace.
    pub exact: String,
    /// Alpha hash at the last trace.
    pub alpha: String,
    /// Hash of the block's source text at the last trace (empty in traces made
    /// before text hashes were recorded).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
    /// Changes, oldest first; one per agent turn.
    pub history: Vec<Change>,
}

/// One lineage event of a block.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Change {
    /// Seq of the trace.
    pub seq: u64,
    /// Byte offset of the trace line.
    pub offset: u64,
    /// `created`, `modified`, `moved`, `renamed`, `refactored` or `deleted`.
    pub event: String,
    /// Path of the block after the change (before it, for `deleted`).
    pub path: String,
    /// Path before the change, when it was somewhere else.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_path: Option<String>,
    /// Name before the change, when it was renamed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_name: Option<String>,
    /// Intent of the trace.
    pub intent_id: Option<String>,
    /// Offset of the user prompt that started the turn, when recorded.
    pub prompt: Option<u64>,
    /// Session and turn (prompt id or tool-use id): later writes of one turn restate
    /// the turn's change relative to its start, so they replace the entry.
    pub turn: String,
    /// What the turn did to this block: `behaviour`, or refactor labels (`rename`,
    /// `move`, `reorder`, `rename-local`, `reformat`, `trivia`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<String>,
    /// Whether the change may alter behaviour (the block's alpha hash changed, or
    /// it was created or deleted).
    #[serde(default)]
    pub behaviour: bool,
    /// The turn's class as last known: its latest trace's, then its verdict's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    /// Blocks this change took code from: `split from PATH::NAME` (a created block
    /// made of code taken out of another) or `merged PATH::NAME` (a deleted block's
    /// code taken in).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub origins: Vec<String>,
    /// For an entry of an origin's story, copied into this block's at a split or
    /// merge: that origin (`PATH::NAME` as it was then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inherited_from: Option<String>,
    /// Hash of the block's text before the turn (empty: created, or a trace made
    /// before text hashes were recorded). With `after_text`, it orders changes
    /// recorded in different clones' ledgers by the text each one started from.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub before_text: String,
    /// Hash of the block's text after the turn (empty: deleted, or an old trace):
    /// a file whose block has this text is as this change left it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub after_text: String,
}

/// One trace of a path, for lines outside any block and for `blame`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TraceRef {
    /// Seq of the trace.
    pub seq: u64,
    /// Byte offset of the trace line.
    pub offset: u64,
    /// Intent of the trace.
    pub intent_id: Option<String>,
    /// Changed line ranges (1-based, inclusive, as of that write).
    pub ranges: Vec<(u32, u32)>,
    /// Offset of the user prompt that started the turn, when recorded.
    pub prompt: Option<u64>,
}

/// The trace fields lineage needs, read from one `trace` event.
pub(crate) struct TraceFacts<'a> {
    pub seq: u64,
    pub offset: u64,
    pub trace: &'a Trace,
    pub session: &'a str,
    pub prompt: Option<u64>,
}

impl TraceFacts<'_> {
    pub fn path(&self) -> &str {
        &self.trace.path
    }

    fn intent(&self) -> Option<String> {
        self.trace.intent_id.clone()
    }

    /// The turn key: session and the trace's turn (traces made before `turn` was
    /// recorded: its prompt id, else its tool-use id).
    pub fn turn(&self) -> String {
        format!("{}\n{}", self.session, self.trace.turn_id())
    }

    pub fn class(&self) -> &str {
        &self.trace.mutation_class
    }

    pub fn trace_ref(&self) -> TraceRef {
        TraceRef {
            seq: self.seq,
            offset: self.offset,
            intent_id: self.intent(),
            ranges: self
                .trace
                .ranges
                .iter()
                .map(|r| (r.start_line, r.end_line))
                .collect(),
            prompt: self.prompt,
        }
    }
}

/// Access to shards by path, loading them on demand.
pub(crate) trait Shards {
    fn shard(&mut self, path: &str) -> &mut FileLineage;
}

/// Applies one trace event to the shards it touches.
pub(crate) fn apply_trace(shards: &mut dyn Shards, facts: &TraceFacts<'_>) {
    let file = shards.shard(facts.path());
    let write = super::lines::LineWrite {
        seq: facts.seq,
        offset: facts.offset,
        prompt: facts.prompt,
    };
    let gone = super::lines::apply(
        &mut file.lines,
        file.after_sha256.as_deref(),
        facts.trace,
        write,
    );
    taken::remember(&mut file.removed, &facts.turn(), gone);
    file.after_sha256 = facts.trace.after_sha256.clone();
    file.traces.push(facts.trace_ref());
    for block in facts.trace.blocks() {
        apply_block(shards, facts, block);
    }
}

fn apply_block(shards: &mut dyn Shards, facts: &TraceFacts<'_>, block: &TraceBlock) {
    let Some(id) = block.id.as_deref() else {
        return;
    };
    let event = match block.event.as_str() {
        "" => "modified".to_string(),
        event => event.to_string(),
    };
    let (before, after) = (block.before.as_ref(), block.after.as_ref());
    let before_path = before.map(|b| b.path.as_str());
    let after_path = after.map(|a| a.path.as_str());
    // The block's state so far: where the trace says it was, else wherever an
    // earlier write of the same turn already put it.
    let mut state = None;
    for candidate in [before_path, after_path].into_iter().flatten() {
        let shard = shards.shard(candidate);
        state = shard.blocks.remove(id).or_else(|| shard.deleted.remove(id));
        if state.is_some() {
            break;
        }
    }
    let mut state = state.unwrap_or_else(|| BlockState {
        id: id.to_string(),
        ..BlockState::default()
    });
    let nowhere = BlockSide::default();
    let side = block.current().unwrap_or(&nowhere);
    let change = Change {
        seq: facts.seq,
        offset: facts.offset,
        event,
        path: side.path.clone(),
        from_path: before_path
            .filter(|b| after_path.is_some_and(|a| a != *b))
            .map(str::to_string),
        from_name: before
            .map(|b| b.name.as_str())
            .filter(|b| after.is_some_and(|a| a.name != *b))
            .map(str::to_string),
        intent_id: facts.intent(),
        prompt: facts.prompt,
        turn: facts.turn(),
        labels: match &block.change {
            Some(labels) => labels.clone(),
            None => legacy_labels(block),
        },
        behaviour: block
            .behaviour
            .unwrap_or(!matches!(block.event.as_str(), "refactored" | "moved")),
        class: Some(facts.class().to_string()).filter(|c| !c.is_empty()),
        origins: block
            .origins
            .iter()
            .flatten()
            .map(|o| {
                let verb = match o.kind.as_str() {
                    "merge" => "merged",
                    _ => "split from",
                };
                format!("{verb} {}::{}", o.path, o.name)
            })
            .collect(),
        inherited_from: None,
        before_text: before.and_then(|b| b.text.clone()).unwrap_or_default(),
        after_text: after.and_then(|a| a.text.clone()).unwrap_or_default(),
    };
    match state.history.last_mut() {
        // A later write of the same turn restates the turn's change from its start.
        Some(last) if last.turn == change.turn => {
            let first_event = std::mem::take(&mut last.event);
            let first_text = std::mem::take(&mut last.before_text);
            *last = change;
            // The entry is the turn's change: from the text the turn started from.
            last.before_text = first_text;
            if first_event == "created" && last.event != "deleted" {
                last.event = first_event;
                last.from_path = None;
                last.from_name = None;
            }
        }
        _ => state.history.push(change),
    }
    inherit_origins(shards, &mut state, block, facts);
    state.kind = side.kind.clone();
    state.name = side.name.clone();
    state.start_line = side.start_line;
    state.end_line = side.end_line;
    state.key = side.key.clone().unwrap_or_default();
    state.exact = side.exact.clone();
    state.alpha = side.alpha.clone();
    state.text = side.text.clone().unwrap_or_default();
    match after_path {
        Some(path) => {
            let shard = shards.shard(path);
            // A turn is judged whole: when an earlier write of this turn saw this
            // block appear here (a new file written before the old one lost it),
            // that provisional "created" identity is this block; keep one.
            let turn = &state
                .history
                .last()
                .map(|c| c.turn.clone())
                .unwrap_or_default();
            let provisional: Vec<String> = shard
                .blocks
                .values()
                .filter(|other| {
                    other.id != id
                        && other.name == state.name
                        && (other.key.is_empty() || state.key.is_empty() || other.key == state.key)
                        && other.history.len() == 1
                        && other.history[0].event == "created"
                        && other.history[0].turn == *turn
                })
                .map(|other| other.id.clone())
                .collect();
            for other in provisional {
                shard.blocks.remove(&other);
            }
            shard.blocks.insert(id.to_string(), state);
        }
        None => {
            let path = before_path.unwrap_or(facts.path());
            shards.shard(path).deleted.insert(id.to_string(), state);
        }
    }
}

/// Labels of a block entry in a trace written before labels were recorded.
fn legacy_labels(block: &TraceBlock) -> Vec<String> {
    let label = match block.event.as_str() {
        "renamed" => "rename",
        "moved" => "move",
        "refactored" => "rename-local",
        _ => "behaviour",
    };
    vec![label.to_string()]
}

/// Sets the class of every entry of `turn` in `shard` (a later write or the turn's
/// verdict judged the turn again).
pub(crate) fn set_turn_class(shard: &mut FileLineage, turn: &str, class: &str) {
    for block in shard.blocks.values_mut().chain(shard.deleted.values_mut()) {
        for change in block.history.iter_mut().rev() {
            if change.turn == turn {
                change.class = Some(class.to_string());
            }
        }
    }
}

/// Splits and merges keep their origins: the story of each block the code came
/// from (as recorded so far) joins this block's, each entry marked with where it
/// was inherited from. When the trace names the lines taken, the receiver's lines
/// first take the stories of the donor lines they came from, and only the donor's
/// entries that wrote some line of the receiver are inherited (in one file, the
/// line record also follows lines through the hunks that rewrote them, as `git
/// log -L` does); older traces pass the whole story on. Entries of the current
/// turn are this block's own.
fn inherit_origins(
    shards: &mut dyn Shards,
    state: &mut BlockState,
    block: &TraceBlock,
    facts: &TraceFacts<'_>,
) {
    let turn = facts.turn();
    let origins: Vec<&BlockOrigin> = block
        .origins
        .iter()
        .flatten()
        .filter(|o| o.id.as_deref().is_some_and(|id| id != state.id))
        .collect();
    if origins.is_empty() {
        return;
    }
    let taken: Vec<Option<Vec<Vec<LineWrite>>>> = origins
        .iter()
        .map(|o| {
            let tokens = o.lines.as_deref()?;
            taken_writes(shards, o, &turn, tokens)
        })
        .collect();
    // The receiver's lines take the stories of the lines they came from; what
    // its lines' stories then name is what it may inherit. A receiver written in
    // another file than this trace's is left alone (its lines are not this
    // trace's): the taken lines alone say what it inherits.
    let side = block.current().filter(|s| s.path == facts.path());
    let mut allowed: HashSet<u64> = taken
        .iter()
        .flatten()
        .flatten()
        .flatten()
        .map(|w| w.offset)
        .collect();
    if let Some(side) = side {
        if let Some(map) = shards.shard(&side.path).lines.as_mut() {
            let first = side.start_line.saturating_sub(1) as usize;
            for per_line in taken.iter().flatten() {
                taken::adopt(map, first, per_line);
            }
            let count = (side.end_line + 1).saturating_sub(side.start_line) as usize;
            allowed.extend(taken::offsets_of_lines(map, first, count));
        }
    }
    for (origin, taken) in origins.iter().zip(&taken) {
        let (Some(id), path) = (origin.id.as_deref(), origin.path.as_str()) else {
            continue;
        };
        let shard = shards.shard(path);
        let Some(donor) = shard.blocks.get(id).or_else(|| shard.deleted.get(id)) else {
            continue;
        };
        let label = format!("{path}::{}", origin.name);
        let inherited: Vec<Change> = donor
            .history
            .iter()
            .filter(|c| c.turn != turn)
            .filter(|c| taken.is_none() || allowed.contains(&c.offset))
            .filter(|c| !state.history.iter().any(|h| h.seq == c.seq))
            .map(|c| Change {
                inherited_from: Some(c.inherited_from.clone().unwrap_or_else(|| label.clone())),
                ..c.clone()
            })
            .collect();
        state.history.extend(inherited);
    }
    state.history.sort_by_key(|c| c.seq);
}

/// Per line of the receiver, the writes of the donor line it was taken from
/// (found in the donor file's record, or among the lines this turn removed from
/// it); `None` when the origin's line list is unreadable.
fn taken_writes(
    shards: &mut dyn Shards,
    origin: &BlockOrigin,
    turn: &str,
    tokens: &str,
) -> Option<Vec<Vec<LineWrite>>> {
    let hashes = taken::parse(tokens)?;
    let donor = shards.shard(&origin.path);
    let removed = donor.removed.as_ref().filter(|r| r.turn == turn);
    let maps: Vec<_> = donor
        .lines
        .iter()
        .chain(removed.map(|r| &r.lines))
        .collect();
    Some(taken::writes_per_line(&maps, &hashes))
}
