//! The line-level record of one file: for every line of the file as last traced,
//! its hash and its story (the traced writes that shaped it, and whether its text
//! came from outside the ledger). Every text file has one, whatever its language;
//! `why` answers from it for lines outside every traced block.
//!
//! A trace's [`LineDiff`] moves the record forward: unchanged lines keep their
//! story, a moved or copied run keeps the story of the lines it came from (as
//! `git blame -M` keeps their origin), and a new line's story is the stories of
//! the lines its hunk replaced plus this write (as `git log -L` follows a line
//! through the edits that rewrote it). Queries map the file as it is now onto the
//! record by hash, never by stored line numbers.

use std::fmt::Write as _;

use imara_diff::{Algorithm, Diff, InternedInput};
use intent_ledger::lines::{line_hashes, split_tokens, Added};
use intent_ledger::payload::{LineDiff, LineHunk, Trace};
use serde::{Deserialize, Serialize};

/// Writes a story keeps at most (the newest).
const MAX_WRITES: usize = 64;

/// One file's line record, as stored in its lineage shard.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LineMap {
    /// Every line's hash, 12 hex digits each; `------------` for a line whose text
    /// the ledger never saw.
    pub hashes: String,
    /// Every line's story, as an index into `stories`.
    pub story: Vec<u32>,
    /// The stories the lines share (one per hunk of each write, not one per line).
    pub stories: Vec<LineStory>,
}

/// What shaped a line.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LineStory {
    /// The traced writes that changed the line, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub writes: Vec<LineWrite>,
    /// The line's text did not come from a traced write: it predates the ledger,
    /// or something the hooks did not see wrote it (after the writes listed).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub untraced: bool,
}

/// One traced write of a line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LineWrite {
    /// Seq of the trace.
    pub seq: u64,
    /// Byte offset of the trace line in the ledger.
    pub offset: u64,
    /// Offset of the prompt that started the turn, when recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<u64>,
}

/// A line as the record knows it while a write is applied.
#[derive(Debug, Clone)]
struct Line {
    /// `None`: text the ledger never saw.
    hash: Option<u64>,
    story: u32,
}

/// The record decoded for work: lines and the stories they point at.
#[derive(Debug, Default)]
struct Working {
    lines: Vec<Line>,
    stories: Vec<LineStory>,
}

const UNKNOWN: &str = "------------";

impl LineMap {
    fn decode(&self) -> Option<Working> {
        let mut lines = Vec::with_capacity(self.story.len());
        if self.hashes.len() != self.story.len() * UNKNOWN.len() {
            return None;
        }
        for (i, story) in self.story.iter().enumerate() {
            let token = &self.hashes[i * UNKNOWN.len()..(i + 1) * UNKNOWN.len()];
            let hash = match token {
                UNKNOWN => None,
                token => Some(u64::from_str_radix(token, 16).ok()?),
            };
            if *story as usize >= self.stories.len() {
                return None;
            }
            lines.push(Line {
                hash,
                story: *story,
            });
        }
        Some(Working {
            lines,
            stories: self.stories.clone(),
        })
    }

    /// The number of lines recorded.
    pub fn len(&self) -> usize {
        self.story.len()
    }

    /// Whether the record holds no line.
    pub fn is_empty(&self) -> bool {
        self.story.is_empty()
    }

    /// Maps every line of `text` (the file as it is now) to its story: lines the
    /// record holds keep theirs; a line that is not as last traced gets the story
    /// of the recorded lines it replaced, marked untraced and changed.
    pub fn stories_of(&self, text: &str) -> Vec<(LineStory, bool)> {
        let Some(work) = self.decode() else {
            return Vec::new();
        };
        let now = line_hashes(text);
        let then = keys(&work.lines);
        let mut out = Vec::with_capacity(now.len());
        let mut cursor = 0usize;
        for hunk in hash_hunks(&then, &now) {
            for line in &work.lines[cursor..hunk.at as usize] {
                out.push((work.stories[line.story as usize].clone(), false));
            }
            let replaced = &work.lines[hunk.at as usize..(hunk.at + hunk.removed) as usize];
            let story = LineStory {
                writes: union_writes(&work.stories, replaced),
                untraced: true,
            };
            for _ in &hunk.added {
                out.push((story.clone(), true));
            }
            cursor = (hunk.at + hunk.removed) as usize;
        }
        for line in &work.lines[cursor..] {
            out.push((work.stories[line.story as usize].clone(), false));
        }
        out
    }
}

/// Moves `map` (the record after the trace before, which left the file at
/// `previous_after`) through `trace`, a write recorded at `write`. A trace
/// without a line record (a binary or very large file, a deletion, a ledger
/// written before line tracking) leaves no record: answers fall back to the file.
/// Returns the lines the write removed, with their stories (for a block of
/// another file that took them: see [`taken`]).
pub(crate) fn apply(
    map: &mut Option<LineMap>,
    previous_after: Option<&str>,
    trace: &Trace,
    write: LineWrite,
) -> Option<LineMap> {
    let Some(diff) = &trace.lines else {
        *map = None;
        return None;
    };
    // A new file starts from nothing, whatever was recorded at its path before.
    let old = match trace.before_sha256 {
        None => Working::default(),
        Some(_) => map.as_ref().and_then(LineMap::decode).unwrap_or_default(),
    };
    let mut removed = Vec::new();
    let new = step(old, previous_after, trace, diff, write, &mut removed);
    let gone = new.as_ref().filter(|_| !removed.is_empty()).map(|new| {
        encode(Working {
            lines: removed,
            stories: new.stories.clone(),
        })
    });
    *map = new.map(encode);
    gone
}

fn step(
    mut old: Working,
    previous_after: Option<&str>,
    trace: &Trace,
    diff: &LineDiff,
    write: LineWrite,
    removed: &mut Vec<Line>,
) -> Option<Working> {
    let gap = trace.before_sha256.is_some() && trace.before_sha256.as_deref() != previous_after;
    let hunks = match diff.before {
        // The writer had no old text: the new lines are all named, so the
        // record's own lines are matched to them by hash.
        None => {
            let new: Vec<u64> = diff
                .hunks
                .iter()
                .flat_map(|h| &h.added)
                .map(|e| match Added::parse(e) {
                    Some(Added::Line(hash)) => Some(hash),
                    _ => None,
                })
                .collect::<Option<_>>()?;
            hash_hunks(&keys(&old.lines), &new)
        }
        Some(before) => {
            if let Some(base) = &diff.base {
                // The old text is not the one recorded: align the record to it,
                // and what differs was written outside the ledger.
                let base = split_tokens(base)?;
                old = rebase(old, &base);
            } else if gap || old.lines.len() != before as usize {
                old = unknown(before as usize, old.stories);
            }
            if old.lines.len() != before as usize {
                return None;
            }
            diff.hunks.clone()
        }
    };
    let new = replay(&old, &hunks, write, false, removed)?;
    (new.lines.len() == diff.after as usize).then_some(new)
}

/// Applies hunks to `old`; new lines get the replaced lines' writes plus `write`.
fn replay(
    old: &Working,
    hunks: &[LineHunk],
    write: LineWrite,
    untraced: bool,
    removed: &mut Vec<Line>,
) -> Option<Working> {
    let mut out = Working {
        lines: Vec::with_capacity(old.lines.len()),
        stories: old.stories.clone(),
    };
    let mut cursor = 0usize;
    for hunk in hunks {
        let (at, end) = (hunk.at as usize, (hunk.at + hunk.removed) as usize);
        if at < cursor || end > old.lines.len() {
            return None;
        }
        out.lines.extend_from_slice(&old.lines[cursor..at]);
        removed.extend_from_slice(&old.lines[at..end]);
        let mut story = None;
        for entry in &hunk.added {
            match Added::parse(entry)? {
                Added::Line(hash) => {
                    let story = *story.get_or_insert_with(|| {
                        let mut writes = union_writes(&old.stories, &old.lines[at..end]);
                        if !untraced {
                            writes.push(write);
                        }
                        trim(&mut writes);
                        out.stories.push(LineStory { writes, untraced });
                        (out.stories.len() - 1) as u32
                    });
                    out.lines.push(Line {
                        hash: Some(hash),
                        story,
                    });
                }
                Added::Copied { from, count } => {
                    let (from, to) = (from as usize, from as usize + count as usize);
                    out.lines.extend_from_slice(old.lines.get(from..to)?);
                }
            }
        }
        cursor = end;
    }
    out.lines.extend_from_slice(&old.lines[cursor..]);
    Some(out)
}

/// The record aligned to `base` (the old text of a write whose old text the
/// ledger did not record): lines it holds keep their story, the others are
/// untraced, with the writes of the lines they replaced.
fn rebase(old: Working, base: &[u64]) -> Working {
    let hunks: Vec<LineHunk> = hash_hunks(&keys(&old.lines), base);
    let nobody = LineWrite::default();
    replay(&old, &hunks, nobody, true, &mut Vec::new())
        .unwrap_or_else(|| unknown(base.len(), Vec::new()))
}

/// `count` lines the ledger never saw (no hash, no write).
fn unknown(count: usize, mut stories: Vec<LineStory>) -> Working {
    stories.push(LineStory {
        writes: Vec::new(),
        untraced: true,
    });
    let story = (stories.len() - 1) as u32;
    Working {
        lines: vec![Line { hash: None, story }; count],
        stories,
    }
}

/// Hunks turning `then` into `now`, each new line named by its hash.
fn hash_hunks(then: &[u64], now: &[u64]) -> Vec<LineHunk> {
    let mut input = InternedInput::default();
    input.update_before(then.iter().copied());
    input.update_after(now.iter().copied());
    let diff = Diff::compute(Algorithm::Myers, &input);
    diff.hunks()
        .map(|h| LineHunk {
            at: h.before.start,
            removed: h.before.end - h.before.start,
            added: now[h.after.start as usize..h.after.end as usize]
                .iter()
                .map(|hash| Added::Line(*hash).spell())
                .collect(),
        })
        .collect()
}

/// Diff keys of recorded lines: their hash, or a value no real hash takes (48-bit
/// hashes) for a line never seen, so it matches nothing.
fn keys(lines: &[Line]) -> Vec<u64> {
    lines
        .iter()
        .enumerate()
        .map(|(i, l)| l.hash.unwrap_or(u64::MAX - i as u64))
        .collect()
}

/// The writes of `lines`' stories, each once, oldest first.
fn union_writes(stories: &[LineStory], lines: &[Line]) -> Vec<LineWrite> {
    let mut seen: Vec<u32> = lines.iter().map(|l| l.story).collect();
    seen.sort_unstable();
    seen.dedup();
    let mut writes: Vec<LineWrite> = seen
        .iter()
        .flat_map(|s| stories[*s as usize].writes.iter().copied())
        .collect();
    writes.sort_by_key(|w| w.offset);
    writes.dedup_by_key(|w| w.offset);
    writes
}

fn trim(writes: &mut Vec<LineWrite>) {
    if writes.len() > MAX_WRITES {
        writes.drain(..writes.len() - MAX_WRITES);
    }
}

/// Stores the record, keeping only the stories some line points at.
fn encode(work: Working) -> LineMap {
    let mut renumber = vec![u32::MAX; work.stories.len()];
    let mut stories = Vec::new();
    let mut story = Vec::with_capacity(work.lines.len());
    let mut hashes = String::with_capacity(work.lines.len() * UNKNOWN.len());
    for line in &work.lines {
        let slot = &mut renumber[line.story as usize];
        if *slot == u32::MAX {
            *slot = stories.len() as u32;
            stories.push(work.stories[line.story as usize].clone());
        }
        story.push(*slot);
        match line.hash {
            Some(hash) => {
                let _ = write!(hashes, "{hash:012x}");
            }
            None => hashes.push_str(UNKNOWN),
        }
    }
    LineMap {
        hashes,
        story,
        stories,
    }
}

pub(crate) mod taken;
#[cfg(test)]
mod tests;
