//! Answers for a checkout that is behind a ledger. A ledger (this clone's, or a
//! teammate's that `intent sync` fetched) speaks for any version of a block or line
//! it recorded, not only its newest: the answer is the history up to that version,
//! and the work recorded after it is reported as [`Newer`], not mixed in.

use serde::Serialize;

use super::{Context, HistoryReader};
use crate::lineage::{self, LineStory};
use crate::projection::Result;

/// Versions of a file's line record searched for a line's text, newest first: a
/// line an older write left is looked for among this many of the file's writes.
const LINE_VERSIONS: usize = 256;

/// Work one ledger recorded after the version this checkout has.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Newer {
    /// The ledger, when it is another clone's (`user on machine (ledger id)`);
    /// `None`: this clone's own.
    pub ledger: Option<String>,
    /// Changes recorded after the version (agent turns for a block, traced writes
    /// of the file for a line).
    pub writes: usize,
    /// Their intents, in order of first appearance.
    pub intents: Vec<String>,
    /// Seq of the newest, in that ledger.
    pub last_seq: u64,
}

impl Newer {
    /// Sums up `changes` (seq, intent), oldest first; `None` when there are none.
    pub(crate) fn of<'a>(changes: impl Iterator<Item = (u64, Option<&'a str>)>) -> Option<Newer> {
        let mut newer = Newer {
            ledger: None,
            writes: 0,
            intents: Vec::new(),
            last_seq: 0,
        };
        for (seq, intent) in changes {
            newer.writes += 1;
            newer.last_seq = newer.last_seq.max(seq);
            if let Some(id) = intent.filter(|id| !newer.intents.iter().any(|i| i == id)) {
                newer.intents.push(id.to_string());
            }
        }
        (newer.writes > 0).then_some(newer)
    }

    /// One line for people: "newer in the ledger of alice@… on laptop (…): 2
    /// writes under INT-004, not in your checkout".
    pub fn describe(&self) -> String {
        let whose = match &self.ledger {
            Some(label) => format!("the ledger of {label}"),
            None => "this clone's ledger".to_string(),
        };
        let under = match self.intents.as_slice() {
            [] => "with no intent".to_string(),
            ids => format!("under {}", ids.join(", ")),
        };
        let plural = if self.writes == 1 { "" } else { "s" };
        format!(
            "newer in {whose}: {} write{plural} {under}, not in your checkout",
            self.writes
        )
    }
}

/// For line `line` of the file (1-based), whose text is not the one the file's
/// line record last holds: the story of that text in the newest earlier version
/// of the record that has it, and the writes recorded after that version.
pub(super) fn earlier_line(
    cx: &Context,
    reader: &HistoryReader<'_>,
    traces: &[lineage::TraceRef],
    line: u32,
) -> Result<Option<(LineStory, Option<Newer>)>> {
    let Some(text) = &cx.text else {
        return Ok(None);
    };
    let index = line as usize - 1;
    let first_checked = traces.len().saturating_sub(LINE_VERSIONS);
    let mut found: Option<(usize, LineStory)> = None;
    lineage::replay_lines(&reader.ledger, traces, |k, map| {
        let Some(map) = map.filter(|_| k >= first_checked) else {
            return;
        };
        if let Some((story, changed)) = map.stories_of(text).into_iter().nth(index) {
            if !changed && !story.untraced && !story.writes.is_empty() {
                found = Some((k, story));
            }
        }
    })?;
    Ok(found.map(|(k, story)| {
        let later = traces[k + 1..]
            .iter()
            .map(|t| (t.seq, t.intent_id.as_deref()));
        (story, Newer::of(later))
    }))
}
