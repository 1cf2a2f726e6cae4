//! `trace`: one file mutation, its hashes, its classification and its blocks.

use serde::{Deserialize, Serialize};

use super::{Extra, Payload};
use crate::kinds;

/// `trace`: a file one tool call (or one shell command) changed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    /// Workspace-relative path.
    pub path: String,
    /// `sha256:` of the content before; `null` for a new file.
    pub before_sha256: Option<String>,
    /// `sha256:` of the content after; `null` when the file is gone.
    pub after_sha256: Option<String>,
    /// Changed line ranges of the new content.
    #[serde(default)]
    pub ranges: Vec<TraceRange>,
    /// `AST_REFACTOR` or `INTENT_EVOLUTION` (of the turn so far); empty in a
    /// hand-made trace that does not say.
    #[serde(default)]
    pub mutation_class: String,
    /// How the class was decided.
    #[serde(default)]
    pub classification: Classification,
    /// The session's intent.
    #[serde(default)]
    pub intent_id: Option<String>,
    /// The tool, in the engine's vocabulary (`write`, `edit`, `bash`…).
    #[serde(default)]
    pub tool: Option<String>,
    /// The front-end's id of the tool call.
    #[serde(default)]
    pub tool_use_id: Option<String>,
    /// The prompt the call answered.
    #[serde(default)]
    pub prompt_id: Option<String>,
    /// The turn the classifier grouped this write into.
    #[serde(default)]
    pub turn: Option<String>,
    /// The front-end that reported the write.
    #[serde(default)]
    pub front_end: Option<String>,
    /// The model behind the agent, when known.
    #[serde(default)]
    pub model: Option<String>,
    /// The revision the workspace was at.
    #[serde(default)]
    pub vcs: Option<Vcs>,
    /// Blocks the write (or its turn) touched, with lineage events.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocks: Option<Vec<TraceBlock>>,
    /// Blocks another worktree's session changed differently.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collisions: Option<Vec<Collision>>,
    /// The class the agent declared, if it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declared_mutation_class: Option<String>,
    /// Whether the declared class is the computed one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declared_matches: Option<bool>,
    /// Why the declared class is wrong.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declared_mismatch: Option<String>,
    /// A shell command's write the gate would have refused: the reason type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub violation: Option<String>,
    /// The worktree the write happened in (added by the ledger writer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worktree: Option<Worktree>,
    /// The write as a line diff with line hashes (no text), so every line's
    /// history can be carried forward; missing for binary files, files too large
    /// to diff and traces written before line tracking.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<LineDiff>,
    /// Fields this version does not name.
    #[serde(flatten)]
    pub extra: Extra,
}

impl Payload for Trace {
    const KIND: &'static str = kinds::TRACE;
}

impl Trace {
    /// The turn key of lineage: the turn, else (older traces) the prompt id, else the
    /// tool-use id.
    pub fn turn_id(&self) -> &str {
        self.turn
            .as_deref()
            .or(self.prompt_id.as_deref())
            .or(self.tool_use_id.as_deref())
            .unwrap_or("")
    }

    /// The blocks, empty when the write had no AST analysis.
    pub fn blocks(&self) -> &[TraceBlock] {
        self.blocks.as_deref().unwrap_or_default()
    }

    /// The files the blocks mention, on either side, each once, in order.
    pub fn block_paths(&self) -> Vec<&str> {
        let mut paths: Vec<&str> = Vec::new();
        for block in self.blocks() {
            for side in [&block.before, &block.after].into_iter().flatten() {
                if !paths.contains(&side.path.as_str()) {
                    paths.push(&side.path);
                }
            }
        }
        paths
    }
}

/// Lines of the new content a write changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceRange {
    /// First line (1-based).
    pub start_line: u32,
    /// Last line.
    pub end_line: u32,
    /// `sha256:` of the range's lines, LF-terminated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_hash: Option<String>,
    /// Fields this version does not name.
    #[serde(flatten)]
    pub extra: Extra,
}

/// How a trace's class was decided.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Classification {
    /// `text` or `ast`.
    #[serde(default)]
    pub method: String,
    /// The text rule that decided (`text:whitespace-only`…), text method only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// Why, in one sentence (AST method).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Why a code file got no AST analysis (`turn-cap`, `too-large`…).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ast_skipped: Option<String>,
    /// The refactor kinds of the turn (AST method).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refactor_kinds: Option<Vec<String>>,
    /// The rest of the analysis (API changes, parse errors, text rulings, turn
    /// totals, scheme version), as the classifier reports it.
    #[serde(flatten)]
    pub extra: Extra,
}

/// One block a write touched.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TraceBlock {
    /// Lineage event: `created`, `modified`, `moved`, `renamed`, `deleted`…
    #[serde(default)]
    pub event: String,
    /// How the before and after sides were matched; `null` for a block on one side.
    #[serde(default)]
    pub matched_by: Option<String>,
    /// What changed, as labels (`behaviour`, `rename`, `move`, `reformat`…);
    /// missing in traces written before labels were recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub change: Option<Vec<String>>,
    /// Whether the block's behaviour (alpha hash) changed; missing in older traces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub behaviour: Option<bool>,
    /// The block before the write; `null` when created.
    #[serde(default)]
    pub before: Option<BlockSide>,
    /// The block after the write; `null` when deleted.
    #[serde(default)]
    pub after: Option<BlockSide>,
    /// Blocks of the old content this one's text came from (extract, inline).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origins: Option<Vec<BlockOrigin>>,
    /// The block's stable identity across moves and renames.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Fields this version does not name.
    #[serde(flatten)]
    pub extra: Extra,
}

impl TraceBlock {
    /// The side that describes the block now: after, else (deleted) before.
    pub fn current(&self) -> Option<&BlockSide> {
        self.after.as_ref().or(self.before.as_ref())
    }
}

/// A block on one side of a write.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BlockSide {
    /// Workspace-relative path.
    pub path: String,
    /// Block kind (`function`, `class`, `method`…).
    #[serde(default)]
    pub kind: String,
    /// Qualified name.
    #[serde(default)]
    pub name: String,
    /// Name unique within the file (overloads get a suffix).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// First line.
    #[serde(default)]
    pub start_line: u32,
    /// Last line.
    #[serde(default)]
    pub end_line: u32,
    /// Exact hash (the node's text).
    #[serde(default)]
    pub exact: String,
    /// Alpha hash (locals renamed away).
    #[serde(default)]
    pub alpha: String,
    /// Shape hash (identifiers and literals away).
    #[serde(default)]
    pub shape: String,
    /// Hash of the block's lines as text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Fields this version does not name.
    #[serde(flatten)]
    pub extra: Extra,
}

impl BlockSide {
    /// The name unique within the file, else the qualified name.
    pub fn key_or_name(&self) -> &str {
        self.key.as_deref().unwrap_or(&self.name)
    }
}

/// A block of the old content a block's text came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BlockOrigin {
    /// `split` or `merge`.
    #[serde(default)]
    pub kind: String,
    /// Where it was.
    #[serde(default)]
    pub path: String,
    /// Its qualified name.
    #[serde(default)]
    pub name: String,
    /// Its key within the file.
    #[serde(default)]
    pub key: Option<String>,
    /// Share of the block's text that came from it, 0 to 1.
    #[serde(default)]
    pub share: f64,
    /// Its identity, when the ledger knew the block.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Which lines of the receiving block came from it: one 12-hex-digit token per
    /// line of the block as written, the hash of the donor line it was taken from
    /// (as the donor's line record names it), `------------` for a line that was
    /// not. Absent in traces made before it was recorded: the receiver then
    /// inherits the donor's whole story.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<String>,
    /// Fields this version does not name.
    #[serde(flatten)]
    pub extra: Extra,
}

/// A block another worktree's session changed differently.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Collision {
    /// Its path.
    pub path: String,
    /// The block's key.
    pub block: String,
    /// The other session.
    pub session: String,
    /// The other session's worktree.
    pub worktree: String,
    /// Its branch, if any.
    #[serde(default)]
    pub branch: Option<String>,
    /// The other write's seq.
    pub seq: u64,
    /// The other write's intent.
    #[serde(default)]
    pub intent_id: Option<String>,
    /// Fields this version does not name.
    #[serde(flatten)]
    pub extra: Extra,
}

/// The revision a write happened at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Vcs {
    /// `git`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The commit id.
    pub revision: String,
    /// Fields this version does not name.
    #[serde(flatten)]
    pub extra: Extra,
}

impl Vcs {
    /// A git revision.
    pub fn git(revision: impl Into<String>) -> Self {
        Vcs {
            kind: "git".to_string(),
            revision: revision.into(),
            extra: Extra::new(),
        }
    }
}

/// The worktree a write happened in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Worktree {
    /// `main` or the linked worktree's name.
    pub name: String,
    /// The branch checked out, if any.
    #[serde(default)]
    pub branch: Option<String>,
    /// Fields this version does not name.
    #[serde(flatten)]
    pub extra: Extra,
}

/// A write as a line diff: which lines of the old content were replaced by which
/// new lines, each new line named by its hash ([`crate::lines::line_hash`]) or by
/// the old line it was moved or copied from. Enough to carry every line's history
/// through the write, the way `git blame -M` does, without storing any text.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineDiff {
    /// Lines of the old content; `None` when the writer did not have it (then
    /// the one hunk lists every new line, and readers diff by hash).
    #[serde(default)]
    pub before: Option<u32>,
    /// Lines of the new content.
    #[serde(default)]
    pub after: u32,
    /// The replaced stretches, in order of their old position.
    #[serde(default)]
    pub hunks: Vec<LineHunk>,
    /// Hashes of every old line, concatenated (12 hex digits each), when the old
    /// content is not one the ledger recorded (it changed outside the hooks since
    /// the last trace, or predates the ledger): readers align their record to it
    /// first, so the gap is seen and nothing is misattributed across it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<String>,
    /// Fields this version does not name.
    #[serde(flatten)]
    pub extra: Extra,
}

/// Old lines `[at, at + removed)` (0-based) replaced by `added`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineHunk {
    /// First old line replaced (0-based; the insertion point when none is).
    pub at: u32,
    /// How many old lines it replaces.
    pub removed: u32,
    /// The new lines: a line's hash (12 hex digits) for new text, `@N` or `@N+K`
    /// for one or `K` lines moved or copied from old line `N` (0-based).
    pub added: Vec<String>,
}
