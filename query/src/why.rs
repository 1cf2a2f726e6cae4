//! `intent why PATH:LINE | PATH::Symbol` and `intent blame PATH`: from a line of the
//! file as it is now to the block that holds it, and back through the block's
//! lineage (moves and renames included) to every intent that shaped it.

use std::collections::{BTreeMap, HashMap};

use intent_ast_hash::{analyze, SourceFile};
use intent_ledger::gate::bytes_sha256;
use intent_ledger::Workspace;
use serde::Serialize;
use serde_json::Value;

use crate::intents::IntentState;
use crate::lineage::{self, BlockState, Change, FileLineage, Lineage, TraceRef};
use crate::projection::{LinesAt, NoProgress, QueryError, Result};

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
    /// Stable block id.
    pub id: String,
    /// Kind.
    pub kind: String,
    /// Qualified name.
    pub name: String,
    /// First line now.
    pub start_line: u32,
    /// Last line now.
    pub end_line: u32,
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
    /// The line asked about (the block's first line for a symbol).
    pub line: u32,
    /// The innermost traced block holding the line, as the file is now.
    pub block: Option<BlockInfo>,
    /// The block (or, outside blocks, the file) changed since its last trace.
    pub outside_ledger: bool,
    /// Changes, oldest first.
    pub history: Vec<HistoryItem>,
    /// The intents of the history, with their constraints.
    pub intents: Vec<IntentBrief>,
    /// What the answer rests on, when it is not the obvious case.
    pub note: Option<String>,
}

/// Where each traced block of a file is now.
struct Located<'a> {
    state: &'a BlockState,
    start: u32,
    end: u32,
    changed: bool,
}

/// Maps the shard's blocks onto the file as it is now. When the file still has its
/// last traced content the recorded lines hold; otherwise the file is parsed and
/// blocks are matched by exact hash, alpha hash, then kind and name.
fn locate<'a>(shard: &'a FileLineage, text: Option<&str>) -> (Vec<Located<'a>>, bool) {
    let recorded = |changed| {
        shard
            .blocks
            .values()
            .map(|b| Located {
                state: b,
                start: b.start_line,
                end: b.end_line,
                changed,
            })
            .collect()
    };
    let Some(text) = text else {
        return (recorded(true), true);
    };
    if shard.after_sha256.as_deref() == Some(bytes_sha256(text.as_bytes()).as_str()) {
        return (recorded(false), false);
    }
    let analysis = analyze(&SourceFile::new(shard.path.clone(), text));
    if analysis.language.is_none() {
        return (recorded(true), true);
    }
    let mut taken = std::collections::BTreeSet::new();
    let mut located = Vec::new();
    for block in &analysis.blocks {
        let exact = block.hashes.exact.to_string();
        let alpha = block.hashes.alpha.to_string();
        let kind = block.kind.as_str();
        let found = shard
            .blocks
            .values()
            .filter(|b| !taken.contains(&b.id))
            .find(|b| b.exact == exact)
            .or_else(|| {
                shard
                    .blocks
                    .values()
                    .filter(|b| !taken.contains(&b.id))
                    .find(|b| b.alpha == alpha)
            })
            .or_else(|| {
                shard
                    .blocks
                    .values()
                    .filter(|b| !taken.contains(&b.id))
                    .find(|b| b.kind == kind && b.name == block.qualified_name)
            });
        if let Some(state) = found {
            taken.insert(state.id.clone());
            located.push(Located {
                state,
                start: block.lines.start,
                end: block.lines.end,
                changed: state.exact != exact,
            });
        }
    }
    (located, true)
}

fn innermost<'a, 'b>(located: &'b [Located<'a>], line: u32) -> Option<&'b Located<'a>> {
    located
        .iter()
        .filter(|l| l.start <= line && line <= l.end)
        .min_by_key(|l| (l.end - l.start, l.start))
}

/// Both projections, caught up, and the workspace-relative path.
struct Context {
    intents: IntentState,
    shard: Option<FileLineage>,
    text: Option<String>,
    rel: String,
}

fn context(workspace: &Workspace, raw_path: &str) -> Result<Context> {
    Lineage::catch_up(workspace, &NoProgress)?;
    let (intents, _) = IntentState::catch_up(workspace, &NoProgress)?;
    use intent_ledger::gate::PathProblem;
    let root = workspace
        .root()
        .canonicalize()
        .map_err(|e| QueryError::io(workspace.root(), e))?;
    // Relative paths are taken from the current directory when it is inside the
    // workspace, else from the workspace root (`--workspace DIR` from elsewhere).
    let cwd = std::env::current_dir()
        .ok()
        .and_then(|d| d.canonicalize().ok())
        .filter(|d| d.starts_with(&root))
        .unwrap_or_else(|| root.clone());
    let rel = intent_ledger::gate::workspace_relative(&root, &cwd, raw_path).map_err(|e| {
        QueryError::Invalid(match e {
            PathProblem::OutsideWorkspace(p) => format!(
                "{raw_path} resolves to {}, outside the workspace {}",
                p.display(),
                root.display()
            ),
            PathProblem::Unusable(why) => format!("{raw_path:?} is not a usable path: {why}"),
        })
    })?;
    let text = std::fs::read(root.join(&rel))
        .ok()
        .map(|b| String::from_utf8_lossy(&b).into_owned());
    Ok(Context {
        shard: lineage::shard(workspace, &rel),
        intents,
        text,
        rel,
    })
}

/// Answers `why` for `target`.
pub fn why(workspace: &Workspace, target: &Target) -> Result<WhyAnswer> {
    let cx = context(workspace, target.path())?;
    let mut answer = WhyAnswer {
        path: cx.rel.clone(),
        line: 0,
        block: None,
        outside_ledger: false,
        history: Vec::new(),
        intents: Vec::new(),
        note: None,
    };
    let Some(shard) = &cx.shard else {
        answer.line = match target {
            Target::Line(_, line) => *line,
            Target::Symbol(..) => 0,
        };
        answer.note = Some(format!("{} has no traced write in the ledger", cx.rel));
        answer.outside_ledger = cx.text.is_some();
        return Ok(answer);
    };
    if cx.text.is_none() {
        answer.note = Some(format!(
            "{} no longer exists; lines are as last traced",
            cx.rel
        ));
    }
    let (located, file_changed) = locate(shard, cx.text.as_deref());
    let hit = match target {
        Target::Line(_, line) => {
            answer.line = *line;
            innermost(&located, *line)
        }
        Target::Symbol(_, symbol) => {
            let hit = located
                .iter()
                .filter(|l| {
                    l.state.name == *symbol || l.state.name.rsplit('.').next() == Some(symbol)
                })
                .min_by_key(|l| l.start);
            match hit {
                Some(l) => answer.line = l.start,
                None => {
                    return Err(QueryError::Invalid(format!(
                    "no traced block named `{symbol}` in {}; `intent blame {}` lists its blocks",
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
    match hit {
        Some(l) => {
            answer.block = Some(BlockInfo {
                id: l.state.id.clone(),
                kind: l.state.kind.clone(),
                name: l.state.name.clone(),
                start_line: l.start,
                end_line: l.end,
            });
            answer.outside_ledger = l.changed;
            for change in &l.state.history {
                answer
                    .history
                    .push(reader.item(Some(change), change.offset, change.prompt)?);
            }
        }
        None => {
            // Outside every traced block: the writes whose changed ranges held the line.
            answer.outside_ledger = file_changed;
            answer.note.get_or_insert_with(|| {
                "the line is in no traced block: listing the writes whose changed lines covered it (line numbers as of each write)".to_string()
            });
            let traces = lineage::traces(workspace, &cx.rel)?;
            for t in traces_covering(&traces, answer.line) {
                answer.history.push(reader.item(None, t.offset, t.prompt)?);
            }
        }
    }
    answer.intents = briefs(
        &cx.intents,
        answer.history.iter().filter_map(|h| h.intent_id.as_deref()),
    );
    Ok(answer)
}

fn traces_covering(traces: &[TraceRef], line: u32) -> impl Iterator<Item = &TraceRef> {
    traces
        .iter()
        .filter(move |t| t.ranges.iter().any(|(s, e)| *s <= line && line <= *e))
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

fn text_of(value: &Value) -> Option<String> {
    value.as_str().map(str::to_string)
}

/// Reads history items from the ledger, each prompt once.
struct HistoryReader<'a> {
    ledger: LinesAt,
    intents: &'a IntentState,
    prompts: HashMap<u64, Option<String>>,
}

impl HistoryReader<'_> {
    fn item(
        &mut self,
        change: Option<&Change>,
        offset: u64,
        prompt: Option<u64>,
    ) -> Result<HistoryItem> {
        let prompt = match prompt {
            Some(at) => match self.prompts.get(&at) {
                Some(text) => text.clone(),
                None => {
                    let text = text_of(&self.ledger.event_at(at)?.data["text"]);
                    self.prompts.insert(at, text.clone());
                    text
                }
            },
            None => None,
        };
        history_item(&self.ledger, self.intents, change, offset, prompt)
    }
}

fn history_item(
    ledger: &LinesAt,
    intents: &IntentState,
    change: Option<&Change>,
    offset: u64,
    prompt: Option<String>,
) -> Result<HistoryItem> {
    let event = ledger.event_at(offset)?;
    let data = &event.data;
    let intent_id = text_of(&data["intent_id"]);
    Ok(HistoryItem {
        seq: event.seq,
        ts: event.ts.clone(),
        event: change.map_or_else(|| "traced".to_string(), |c| c.event.clone()),
        intent_name: intent_id
            .as_deref()
            .and_then(|id| intents.intents.get(id))
            .map(|r| r.name.clone()),
        intent_id,
        mutation_class: text_of(&data["mutation_class"]),
        path: change.map_or_else(
            || text_of(&data["path"]).unwrap_or_default(),
            |c| c.path.clone(),
        ),
        from_path: change.and_then(|c| c.from_path.clone()),
        from_name: change.and_then(|c| c.from_name.clone()),
        session: event.session.clone(),
        model: text_of(&data["model"]),
        front_end: text_of(&data["front_end"]),
        trace_id: event.id.clone(),
        reason: text_of(&data["classification"]["reason"]),
        prompt,
    })
}

/// One line of `blame`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BlameLine {
    /// 1-based line.
    pub line: u32,
    /// The line's text.
    pub text: String,
    /// Innermost traced block holding it.
    pub block: Option<BlockInfo>,
    /// Intent of the latest change of that block (or of the latest write covering
    /// the line, outside blocks).
    pub intent_id: Option<String>,
    /// Seq of that change.
    pub seq: Option<u64>,
    /// Its lineage event.
    pub event: Option<String>,
    /// The block changed since its last trace.
    pub outside_ledger: bool,
}

/// The answer of `blame`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BlameAnswer {
    /// Workspace-relative path.
    pub path: String,
    /// Intent names by id, for display.
    pub intents: BTreeMap<String, String>,
    /// Every line of the file as it is now.
    pub lines: Vec<BlameLine>,
}

/// Answers `blame` for `path`.
pub fn blame(workspace: &Workspace, path: &str) -> Result<BlameAnswer> {
    let cx = context(workspace, path)?;
    let Some(text) = &cx.text else {
        return Err(QueryError::Invalid(format!(
            "{} does not exist; `intent why {}::Symbol` still answers for its traced blocks",
            cx.rel, cx.rel
        )));
    };
    let empty = FileLineage::default();
    let shard = cx.shard.as_ref().unwrap_or(&empty);
    let (located, file_changed) = locate(shard, Some(text));
    let traces = lineage::traces(workspace, &cx.rel)?;
    let mut answer = BlameAnswer {
        path: cx.rel.clone(),
        intents: BTreeMap::new(),
        lines: Vec::new(),
    };
    for (i, line_text) in text.lines().enumerate() {
        let line = i as u32 + 1;
        let mut row = BlameLine {
            line,
            text: line_text.to_string(),
            block: None,
            intent_id: None,
            seq: None,
            event: None,
            outside_ledger: false,
        };
        if let Some(l) = innermost(&located, line) {
            row.block = Some(BlockInfo {
                id: l.state.id.clone(),
                kind: l.state.kind.clone(),
                name: l.state.name.clone(),
                start_line: l.start,
                end_line: l.end,
            });
            if let Some(last) = l.state.history.last() {
                row.intent_id = last.intent_id.clone();
                row.seq = Some(last.seq);
                row.event = Some(last.event.clone());
            }
            row.outside_ledger = l.changed;
        } else if let Some(t) = traces_covering(&traces, line).last() {
            row.intent_id = t.intent_id.clone();
            row.seq = Some(t.seq);
            row.event = Some("traced".to_string());
            row.outside_ledger = file_changed;
        }
        if let Some(id) = &row.intent_id {
            let name = cx
                .intents
                .intents
                .get(id)
                .map(|r| r.name.clone())
                .unwrap_or_default();
            answer.intents.insert(id.clone(), name);
        }
        answer.lines.push(row);
    }
    Ok(answer)
}
