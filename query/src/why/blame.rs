//! `intent blame PATH`: every line of the file as it is now, with the newest
//! change of the traced block (or, outside blocks, of the line) that holds it.

use std::collections::BTreeMap;

use intent_ledger::payload::Trace;
use intent_ledger::Workspace;
use serde::Serialize;

use super::{context, line_level, BlockInfo};
use crate::lineage;
use crate::locate::locate;
use crate::projection::{LinesAt, QueryError, Result};

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
    /// Its time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ts: Option<String>,
    /// The ledger it is recorded in, when it is another clone's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ledger: Option<String>,
    /// The block (or, at line level, the line) changed since its last trace.
    pub outside_ledger: bool,
    /// What answered: `block`, `line`, or `none` (no record of the line).
    pub level: &'static str,
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
    if cx.binary {
        let writes = lineage::traces(workspace, &cx.rel)?.len();
        return Err(QueryError::Invalid(format!(
            "{} is a binary file: it has no lines to blame ({writes} traced writes; \
             `intent why {}:1` lists them)",
            cx.rel, cx.rel
        )));
    }
    let file = locate(workspace, &cx.rel, cx.shard.as_ref(), Some(text));
    let stories = line_level::stories(&cx);
    let times = Times::open(&workspace.ledger_path());
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
            ts: None,
            ledger: None,
            outside_ledger: false,
            level: "none",
        };
        let block = file.innermost(line).map(|index| &file.blocks[index]);
        if let Some(block) = block {
            row.block = Some(BlockInfo::of(block));
        }
        if let Some((block, last)) = block.and_then(|b| Some(b).zip(b.history().last())) {
            row.intent_id = last.intent_id.clone();
            row.seq = Some(last.seq);
            row.event = Some(last.event.clone());
            row.ts = times.ts_at(last.offset);
            row.outside_ledger = block.changed;
            row.level = "block";
        } else if let Some((story, changed)) = stories.get(i) {
            row.level = "line";
            row.outside_ledger = story.untraced || *changed;
            if let Some(last) = story.writes.last().filter(|_| !row.outside_ledger) {
                row.seq = Some(last.seq);
                row.event = Some("changed".to_string());
                row.ts = times.ts_at(last.offset);
                row.intent_id = times.intent_at(last.offset);
            }
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

/// The time (and intent) of ledger lines by offset, each read once (blame asks
/// per block and per line).
struct Times {
    lines: Option<LinesAt>,
    seen: std::cell::RefCell<std::collections::HashMap<u64, Option<TimeAndIntent>>>,
}

/// A trace's time and intent.
type TimeAndIntent = (String, Option<String>);

impl Times {
    fn open(ledger: &std::path::Path) -> Times {
        Times {
            lines: LinesAt::open(ledger).ok(),
            seen: Default::default(),
        }
    }

    fn ts_at(&self, offset: u64) -> Option<String> {
        self.at(offset).map(|(ts, _)| ts)
    }

    fn intent_at(&self, offset: u64) -> Option<String> {
        self.at(offset).and_then(|(_, intent)| intent)
    }

    fn at(&self, offset: u64) -> Option<TimeAndIntent> {
        let lines = self.lines.as_ref()?;
        self.seen
            .borrow_mut()
            .entry(offset)
            .or_insert_with(|| {
                let event = lines.event_at(offset).ok()?;
                let intent = event.payload::<Trace>().and_then(|t| t.intent_id);
                Some((event.ts, intent))
            })
            .clone()
    }
}
