//! `intent why PATH:LINE | PATH::Symbol` and `intent blame PATH`: from a line of the
//! file as it is now to the block that holds it, and back through the block's
//! lineage (moves and renames included) to every intent that shaped it.

use std::collections::HashMap;

use intent_ledger::payload::{Prompt, Trace};
use intent_ledger::Workspace;
use serde::Serialize;

use crate::intents::IntentState;
use crate::lineage::{self, Change, FileLineage, Lineage};
use crate::locate::{locate, Located};
use crate::projection::{LinesAt, NoProgress, QueryError, Result};

mod blame;
mod line_level;
mod versions;

pub use blame::{blame, BlameAnswer, BlameLine};

pub use versions::Newer;

/// What `why` is asked about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A 1-based line of a file.
    Line(String, u32),
    /// A block by (qualified or plain) name.
    Symbol(String, String),
}

impl Target {
    /// Parses `PATH:LINE` or `PATH::Symbol`.
    pub fn parse(text: &str) -> Result<Target> {
        if let Some((path, symbol)) = text.rsplit_once("::") {
            if !path.is_empty() && !symbol.is_empty() {
                return Ok(Target::Symbol(path.to_string(), symbol.to_string()));
            }
        }
        if let Some((path, line)) = text.rsplit_once(':') {
            if let Ok(line) = line.parse::<u32>() {
                if line > 0 && !path.is_empty() {
                    return Ok(Target::Line(path.to_string(), line));
                }
            }
        }
        Err(QueryError::Invalid(format!(
            "cannot read {text:?}: use PATH:LINE (src/auth/jwt.ts:12) or PATH::Symbol \
             (src/auth/jwt.ts::verify)"
        )))
    }

    /// The path part.
    pub fn path(&self) -> &str {
        match self {
            Target::Line(p, _) | Target::Symbol(p, _) => p,
        }
    }
}

/// A block as `why` reports it (lines as the file is now).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BlockInfo {
    /// Stable block id; `None` for a block no traced write touched.
    pub id: Option<String>,
    /// Kind.
    pub kind: String,
    /// Qualified name.
    pub name: String,
    /// First line now.
    pub start_line: u32,
    /// Last line now.
    pub end_line: u32,
    /// Seq of the newest traced change of the block, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_seq: Option<u64>,
}

impl BlockInfo {
    fn of(block: &Located<'_>) -> BlockInfo {
        BlockInfo {
            id: block.state.map(|s| s.id.clone()),
            kind: block.kind.clone(),
            name: block.name.clone(),
            start_line: block.start,
            end_line: block.end,
            last_seq: block.state.and_then(|s| s.history.last()).map(|c| c.seq),
        }
    }
}

/// One change in a block's (or a line's) history.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HistoryItem {
    /// Seq of the trace.
    pub seq: u64,
    /// Time of the trace.
    pub ts: String,
    /// Lineage event (`created`, `modified`, `moved`, …; `traced` for file-level).
    pub event: String,
    /// Intent id.
    pub intent_id: Option<String>,
    /// Intent name (from the newest spec snapshot).
    pub intent_name: Option<String>,
    /// `AST_REFACTOR` or `INTENT_EVOLUTION`.
    pub mutation_class: Option<String>,
    /// Path at the time.
    pub path: String,
    /// Path before a move.
    pub from_path: Option<String>,
    /// Name before a rename.
    pub from_name: Option<String>,
    /// Agent session.
    pub session: Option<String>,
    /// Model (`provider/model`).
    pub model: Option<String>,
    /// Front-end.
    pub front_end: Option<String>,
    /// The trace event's id.
    pub trace_id: String,
    /// Classification reason.
    pub reason: Option<String>,
    /// The user prompt that started the turn, when recorded.
    pub prompt: Option<String>,
    /// What the turn did to the block: `behaviour`, or the refactor labels
    /// (`rename`, `move`, `reorder`, `rename-local`, `reformat`, `trivia`).
    pub labels: Vec<String>,
    /// Whether the change may alter the block's behaviour.
    pub behaviour: bool,
    /// Blocks the change took code from (`split from PATH::NAME`, `merged PATH::NAME`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub origins: Vec<String>,
    /// For a change of another block's story that this block inherited at a split
    /// or merge: that block (`PATH::NAME`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inherited_from: Option<String>,
    /// The ledger the change is recorded in, when it is another clone's (fetched by
    /// `intent sync`): `user on machine (ledger id)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ledger: Option<String>,
    /// Hash of the block's text before the change (block level; empty otherwise).
    #[serde(skip)]
    pub before_text: String,
    /// Hash of the block's text after the change (block level; empty otherwise).
    #[serde(skip)]
    pub after_text: String,
}

/// An intent named in a history, with its constraints.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IntentBrief {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Status.
    pub status: String,
    /// Constraints.
    pub constraints: Vec<String>,
}

/// The answer of `why`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WhyAnswer {
    /// Workspace-relative path.
    pub path: String,
    /// What the history follows: `block` (the AST block holding the line, across
    /// moves and renames), `line` (the line's text, across moves), `file` (every
    /// traced write of a file with no lines to follow: binary, too large, or
    /// recorded before line tracking), or `none` (the ledger has no write of it).
    pub level: &'static str,
    /// The line asked about (the block's first line for a symbol).
    pub line: u32,
    /// The innermost block holding the line, as the file is now.
    pub block: Option<BlockInfo>,
    /// The blocks enclosing it, outermost first.
    pub enclosing: Vec<BlockInfo>,
    /// The block (or, outside blocks, the file) changed since its last trace.
    pub outside_ledger: bool,
    /// Changes, oldest first.
    pub history: Vec<HistoryItem>,
    /// The newest change of any kind (the last entry of `history`).
    pub last_touched: Option<HistoryItem>,
    /// The newest change to the text (moves that carried the text unchanged to
    /// another file or place skipped): what `git log -L` names as the last commit.
    pub last_edit: Option<HistoryItem>,
    /// The newest change that may have altered behaviour (refactors, reformats
    /// and comment edits skipped).
    pub last_behaviour_change: Option<HistoryItem>,
    /// The intents of the history, with their constraints.
    pub intents: Vec<IntentBrief>,
    /// What the answer rests on, when it is not the obvious case.
    pub note: Option<String>,
    /// Work a ledger recorded after the version this checkout has (a teammate is
    /// ahead, or an older commit is checked out): not part of `history`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub newer: Vec<Newer>,
}

/// Both projections, caught up, and the workspace-relative path.
struct Context {
    intents: IntentState,
    shard: Option<FileLineage>,
    text: Option<String>,
    /// The file holds a NUL byte near its start (git's rule for binary).
    binary: bool,
    rel: String,
}

fn context(workspace: &Workspace, raw_path: &str) -> Result<Context> {
    let rel = relative_path(workspace, raw_path)?;
    Ok(context_if(workspace, rel, false)?.expect("every path answered"))
}

/// `raw_path` relative to the workspace root, `/`-separated: taken from the current
/// directory when it is inside the workspace, else from the workspace root
/// (`--workspace DIR` from elsewhere).
pub fn relative_path(workspace: &Workspace, raw_path: &str) -> Result<String> {
    use intent_ledger::workspace::paths::PathProblem;
    let root = workspace
        .root()
        .canonicalize()
        .map_err(|e| QueryError::io(workspace.root(), e))?;
    let cwd = std::env::current_dir()
        .ok()
        .and_then(|d| d.canonicalize().ok())
        .filter(|d| d.starts_with(&root))
        .unwrap_or_else(|| root.clone());
    intent_ledger::workspace::paths::workspace_relative(&root, &cwd, raw_path).map_err(|e| {
        QueryError::Invalid(match e {
            PathProblem::OutsideWorkspace(p) => format!(
                "{raw_path} resolves to {}, outside the workspace {}",
                p.display(),
                root.display()
            ),
            PathProblem::Unusable(why) => format!("{raw_path:?} is not a usable path: {why}"),
        })
    })
}

/// The context of workspace-relative `rel`, or `None` when `only_recorded` and the
/// ledger has no traced write of it (checked before the intents are caught up or
/// the file is read).
fn context_if(workspace: &Workspace, rel: String, only_recorded: bool) -> Result<Option<Context>> {
    Lineage::catch_up(workspace, &NoProgress)?;
    let shard = lineage::shard(workspace, &rel);
    if only_recorded && shard.is_none() && lineage::traces(workspace, &rel)?.is_empty() {
        return Ok(None);
    }
    let (intents, _) = IntentState::catch_up(workspace, &NoProgress)?;
    let bytes = std::fs::read(workspace.root().join(&rel)).ok();
    let binary = bytes
        .as_deref()
        .is_some_and(intent_ledger::lines::is_binary);
    let text = bytes.map(|b| intent_ledger::lines::text_of(&b).into_owned());
    Ok(Some(Context {
        shard,
        intents,
        text,
        binary,
        rel,
    }))
}

/// Answers `why` for `target`.
pub fn why(workspace: &Workspace, target: &Target) -> Result<WhyAnswer> {
    let cx = context(workspace, target.path())?;
    answer(workspace, target, cx)
}

/// Answers `why` for `target`, whose path is `rel` (see [`relative_path`]), from a
/// ledger that has a traced write of it; `None` when it has none (another clone's
/// ledger that never touched the file has nothing to add, and is skipped before
/// any file is read or analysed).
pub fn why_if_recorded(
    workspace: &Workspace,
    target: &Target,
    rel: &str,
) -> Result<Option<WhyAnswer>> {
    match context_if(workspace, rel.to_string(), true)? {
        Some(cx) => answer(workspace, target, cx).map(Some),
        None => Ok(None),
    }
}

fn answer(workspace: &Workspace, target: &Target, cx: Context) -> Result<WhyAnswer> {
    let mut answer = WhyAnswer {
        path: cx.rel.clone(),
        level: "none",
        line: match target {
            Target::Line(_, line) => *line,
            Target::Symbol(..) => 0,
        },
        block: None,
        enclosing: Vec::new(),
        outside_ledger: false,
        history: Vec::new(),
        last_touched: None,
        last_edit: None,
        last_behaviour_change: None,
        intents: Vec::new(),
        note: None,
        newer: Vec::new(),
    };
    if cx.shard.is_none() && cx.text.is_none() {
        answer.note = Some(format!("{} has no traced write in the ledger", cx.rel));
        return Ok(answer);
    }
    if cx.text.is_none() {
        answer.note = Some(format!(
            "{} no longer exists; lines are as last traced",
            cx.rel
        ));
    }
    let file = locate(workspace, &cx.rel, cx.shard.as_ref(), cx.text.as_deref());
    let hit = match target {
        Target::Line(_, line) => file.innermost(*line),
        Target::Symbol(_, symbol) => {
            let hit = file
                .blocks
                .iter()
                .enumerate()
                .filter(|(_, l)| l.name == *symbol || l.name.rsplit('.').next() == Some(symbol))
                .min_by_key(|(_, l)| (l.state.is_none(), l.start))
                .map(|(i, _)| i);
            match hit {
                Some(i) => answer.line = file.blocks[i].start,
                None => {
                    return Err(QueryError::Invalid(format!(
                        "no block named `{symbol}` in {}; `intent blame {}` lists its blocks",
                        cx.rel, cx.rel
                    )))
                }
            }
            hit
        }
    };
    let mut reader = HistoryReader {
        ledger: LinesAt::open(&workspace.ledger_path())?,
        intents: &cx.intents,
        prompts: HashMap::new(),
    };
    if cx.binary {
        line_level::file_history(workspace, &cx, &mut reader, &mut answer)?;
        return Ok(finish(answer, &cx));
    }
    let traced = hit.filter(|i| file.blocks[*i].state.is_some());
    if let Some(index) = hit {
        let block = &file.blocks[index];
        answer.block = Some(BlockInfo::of(block));
        answer.enclosing = file
            .enclosing(index)
            .into_iter()
            .map(|i| BlockInfo::of(&file.blocks[i]))
            .collect();
    }
    let Some(index) = traced else {
        // No traced block holds the line (outside every block, no grammar, or a
        // block the block record never saw): the line record answers.
        line_level::line_history(workspace, &cx, &mut reader, &mut answer)?;
        return Ok(finish(answer, &cx));
    };
    let block = &file.blocks[index];
    answer.level = "block";
    answer.outside_ledger = block.changed;
    for change in block.history() {
        answer
            .history
            .push(reader.item(Some(change), change.offset, change.prompt)?);
    }
    answer.newer.extend(Newer::of(
        block.newer().map(|c| (c.seq, c.intent_id.as_deref())),
    ));
    if block.changed {
        answer.note.get_or_insert_with(|| {
            "the block's text differs from its last traced write: it was changed since \
             by something the hooks did not see (a person, a shell, another tool)"
                .to_string()
        });
    }
    Ok(finish(answer, &cx))
}

/// Fills in what every answer derives from its history.
fn finish(mut answer: WhyAnswer, cx: &Context) -> WhyAnswer {
    set_lasts(&mut answer);
    answer.intents = briefs(
        &cx.intents,
        answer.history.iter().filter_map(|h| h.intent_id.as_deref()),
    );
    answer
}

/// Sets what every answer derives from its (sorted) history: the newest change,
/// the newest edit of the text, the newest behaviour change.
pub(crate) fn set_lasts(answer: &mut WhyAnswer) {
    answer.last_touched = answer.history.last().cloned();
    answer.last_edit = answer
        .history
        .iter()
        .rev()
        .find(|h| h.edits_text())
        .cloned();
    answer.last_behaviour_change = answer.history.iter().rev().find(|h| h.behaviour).cloned();
}

impl HistoryItem {
    /// Whether the change touched the text itself, not only where it lives (a move
    /// to another file or place, a reorder).
    pub fn edits_text(&self) -> bool {
        self.labels.is_empty()
            || self
                .labels
                .iter()
                .any(|l| !matches!(l.as_str(), "move" | "reorder"))
    }
}

fn briefs<'a>(intents: &IntentState, ids: impl Iterator<Item = &'a str>) -> Vec<IntentBrief> {
    let mut seen = Vec::<IntentBrief>::new();
    for id in ids {
        if seen.iter().any(|b| b.id == id) {
            continue;
        }
        let record = intents.intents.get(id);
        seen.push(IntentBrief {
            id: id.to_string(),
            name: record.map(|r| r.name.clone()).unwrap_or_default(),
            status: record.map(|r| r.status.clone()).unwrap_or_default(),
            constraints: record.map(|r| r.constraints.clone()).unwrap_or_default(),
        });
    }
    seen
}

/// Reads history items from the ledger, each prompt once.
pub(crate) struct HistoryReader<'a> {
    ledger: LinesAt,
    intents: &'a IntentState,
    prompts: HashMap<u64, Option<String>>,
}

impl HistoryReader<'_> {
    pub(crate) fn item(
        &mut self,
        change: Option<&Change>,
        offset: u64,
        prompt: Option<u64>,
    ) -> Result<HistoryItem> {
        let prompt = match prompt {
            Some(at) => match self.prompts.get(&at) {
                Some(text) => text.clone(),
                None => {
                    let text = self
                        .ledger
                        .event_at(at)?
                        .payload::<Prompt>()
                        .map(|p| p.text);
                    self.prompts.insert(at, text.clone());
                    text
                }
            },
            None => None,
        };
        history_item(&self.ledger, self.intents, change, offset, prompt)
    }
}

pub(crate) fn history_item(
    ledger: &LinesAt,
    intents: &IntentState,
    change: Option<&Change>,
    offset: u64,
    prompt: Option<String>,
) -> Result<HistoryItem> {
    let event = ledger.event_at(offset)?;
    let trace = event.payload::<Trace>().unwrap_or_default();
    let intent_id = trace.intent_id.clone();
    Ok(HistoryItem {
        seq: event.seq,
        ts: event.ts.clone(),
        event: change.map_or_else(|| "traced".to_string(), |c| c.event.clone()),
        intent_name: intent_id
            .as_deref()
            .and_then(|id| intents.intents.get(id))
            .map(|r| r.name.clone()),
        intent_id,
        // A turn is judged whole: the class its verdict (or latest write) gave it.
        mutation_class: change
            .and_then(|c| c.class.clone())
            .or_else(|| Some(trace.mutation_class.clone()).filter(|c| !c.is_empty())),
        path: change.map_or_else(|| trace.path.clone(), |c| c.path.clone()),
        from_path: change.and_then(|c| c.from_path.clone()),
        from_name: change.and_then(|c| c.from_name.clone()),
        session: event.session.clone(),
        model: trace.model.clone(),
        front_end: trace.front_end.clone(),
        trace_id: event.id.clone(),
        reason: trace.classification.reason.clone(),
        prompt,
        labels: change.map(|c| c.labels.clone()).unwrap_or_default(),
        // A write seen by its lines only: a refactor turn changed no behaviour.
        behaviour: change.map_or(trace.mutation_class != "AST_REFACTOR", |c| c.behaviour),
        origins: change.map(|c| c.origins.clone()).unwrap_or_default(),
        inherited_from: change.and_then(|c| c.inherited_from.clone()),
        ledger: None,
        before_text: change.map(|c| c.before_text.clone()).unwrap_or_default(),
        after_text: change.map(|c| c.after_text.clone()).unwrap_or_default(),
    })
}
