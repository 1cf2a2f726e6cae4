//! Block identity across two versions of a turn's files.
//!
//! [`match_blocks`] pairs the blocks of the files before a turn with those after it,
//! greedily and in phases, over one index spanning all files (so a block that moved
//! to another file is found):
//!
//! 1. equal `exact` hash;
//! 2. equal `alpha` hash (reformatted, locals renamed);
//! 3. same kind and qualified name in the same file, then in another file when the
//!    name is unique on both sides (edited in place; moved and edited);
//! 4. token similarity: the Dice coefficient of the blocks' token multisets, at least
//!    [`SIMILAR_SAME_SHAPE`] when the shapes are equal (a rename) and
//!    [`SIMILAR_OTHER_SHAPE`] otherwise, best pairs first; a pair whose parents are
//!    matched to each other gets [`PARENT_BONUS`].
//!
//! Within a phase, candidates in the same file with the same qualified name win, then
//! the same qualified name, then the same file, then source order. Each pair (or
//! unpaired block) yields a [`LineageEvent`]; the caller carries its own stable block
//! ids along the pairs.

use std::collections::HashMap;

use serde::Serialize;

use crate::hash::Hash128;
use crate::lang::{language_named, BlockKind, CommentSyntax};
use crate::model::{Block, FileAnalysis, Lines};

/// Minimum token similarity to pair blocks of equal shape (renamed, literals changed).
pub const SIMILAR_SAME_SHAPE: f64 = 0.5;
/// Minimum token similarity to pair blocks of different shape (edited).
pub const SIMILAR_OTHER_SHAPE: f64 = 0.6;
/// Similarity bonus when the two blocks' parents are paired with each other.
pub const PARENT_BONUS: f64 = 0.1;
/// Above this many candidate pairs, similarity matching only compares same-path blocks.
const MAX_PAIRS: usize = 250_000;

/// Points at one block of one side of a turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BlockRef {
    /// Index of the file in the slice given to [`match_blocks`] (or `classify`).
    pub file: usize,
    /// Index of the block in that file's `blocks`.
    pub block: usize,
    /// The file's path.
    pub path: String,
    /// The block's qualified name.
    pub qualified_name: String,
    /// The block's kind.
    pub kind: BlockKind,
    /// The block's lines.
    pub lines: Lines,
}

impl BlockRef {
    pub(crate) fn new(files: &[FileAnalysis], (file, block): (usize, usize)) -> Self {
        let b = &files[file].blocks[block];
        BlockRef {
            file,
            block,
            path: files[file].path.clone(),
            qualified_name: b.qualified_name.clone(),
            kind: b.kind,
            lines: b.lines,
        }
    }
}

/// What happened to a block, from the point of view of its lineage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LineageEvent {
    /// Same tokens, same place.
    Unchanged,
    /// New in this turn.
    Created,
    /// Its behaviour may have changed (alpha hash differs), in place.
    Modified,
    /// Moved to another file, another parent, or another position among its siblings.
    Moved,
    /// Its own name changed.
    Renamed,
    /// Same alpha hash, different tokens: locals renamed or literals respelled, in place.
    Refactored,
    /// Same tokens, different text: whitespace, comments (pragmas included) or
    /// quote style changed, in place. Invisible to the hashes, visible to a reader
    /// (and to `git blame`), so it belongs to the block's story.
    Reformatted,
    /// Gone in this turn.
    Deleted,
}

/// Which phase paired two blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchedBy {
    /// Equal exact hash.
    Exact,
    /// Equal alpha hash.
    Alpha,
    /// Same kind and qualified name.
    Name,
    /// Token similarity above the threshold.
    Similarity,
}

/// A pairing of a block before the turn with a block after it (or a lone block).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BlockMatch {
    /// The block before the turn; `None` when created.
    pub before: Option<BlockRef>,
    /// The block after the turn; `None` when deleted.
    pub after: Option<BlockRef>,
    /// The primary event: renamed, else moved, else modified, else refactored, else
    /// reformatted, else unchanged (created and deleted for lone blocks).
    pub event: LineageEvent,
    /// The phase that paired the blocks.
    pub matched_by: Option<MatchedBy>,
    /// The token similarity, for pairs made by similarity.
    pub similarity: Option<f64>,
    /// The name changed.
    pub renamed: bool,
    /// The file, parent or position among siblings changed.
    pub moved: bool,
    /// The alpha hash changed (behaviour may differ).
    pub modified: bool,
    /// The exact hash changed (tokens differ).
    pub retokened: bool,
    /// The block's source text changed (tokens, whitespace, comments or quotes).
    pub retexted: bool,
}

type Id = (usize, usize);

/// Siblings: (before file, before parent, after file, after parent).
type SiblingGroup = (usize, Option<usize>, usize, Option<usize>);

struct Sides<'a> {
    before: &'a [FileAnalysis],
    after: &'a [FileAnalysis],
    b_ids: Vec<Id>,
    a_ids: Vec<Id>,
    b_to_a: HashMap<Id, Id>,
    a_to_b: HashMap<Id, Id>,
    via: HashMap<Id, (MatchedBy, Option<f64>)>,
}

fn ids(files: &[FileAnalysis]) -> Vec<Id> {
    files
        .iter()
        .enumerate()
        .flat_map(|(f, file)| (0..file.blocks.len()).map(move |b| (f, b)))
        .collect()
}

impl<'a> Sides<'a> {
    fn block_b(&self, id: Id) -> &'a Block {
        &self.before[id.0].blocks[id.1]
    }

    fn block_a(&self, id: Id) -> &'a Block {
        &self.after[id.0].blocks[id.1]
    }

    fn pair(&mut self, b: Id, a: Id, by: MatchedBy, similarity: Option<f64>) {
        self.b_to_a.insert(b, a);
        self.a_to_b.insert(a, b);
        self.via.insert(b, (by, similarity));
    }

    /// Preference among candidates: same path and name, same name, same path, order.
    fn rank(&self, b: Id, a: Id) -> u8 {
        let same_path = self.before[b.0].path == self.after[a.0].path;
        let same_name = self.block_b(b).qualified_name == self.block_a(a).qualified_name;
        match (same_path, same_name) {
            (true, true) => 0,
            (false, true) => 1,
            (true, false) => 2,
            (false, false) => 3,
        }
    }

    fn by_key(&mut self, by: MatchedBy, key: impl Fn(&Block) -> Hash128) {
        let mut index: HashMap<Hash128, Vec<Id>> = HashMap::new();
        for &a in &self.a_ids {
            if !self.a_to_b.contains_key(&a) {
                index.entry(key(self.block_a(a))).or_default().push(a);
            }
        }
        for b in self.b_ids.clone() {
            if self.b_to_a.contains_key(&b) {
                continue;
            }
            let Some(candidates) = index.get_mut(&key(self.block_b(b))) else {
                continue;
            };
            let best = candidates
                .iter()
                .enumerate()
                .min_by_key(|(_, &a)| (self.rank(b, a), a))
                .map(|(i, _)| i);
            if let Some(i) = best {
                let a = candidates.remove(i);
                self.pair(b, a, by, None);
            }
        }
    }

    fn by_name(&mut self) {
        let unmatched_a: Vec<Id> = self
            .a_ids
            .iter()
            .copied()
            .filter(|a| !self.a_to_b.contains_key(a))
            .collect();
        let mut by_name: HashMap<(BlockKind, &str), Vec<Id>> = HashMap::new();
        for &a in &unmatched_a {
            let block = self.block_a(a);
            by_name
                .entry((block.kind, block.qualified_name.as_str()))
                .or_default()
                .push(a);
        }
        let mut b_count: HashMap<(BlockKind, &str), usize> = HashMap::new();
        for &b in &self.b_ids {
            if !self.b_to_a.contains_key(&b) {
                let block = self.block_b(b);
                *b_count
                    .entry((block.kind, block.qualified_name.as_str()))
                    .or_default() += 1;
            }
        }
        for b in self.b_ids.clone() {
            if self.b_to_a.contains_key(&b) {
                continue;
            }
            let block = self.block_b(b);
            let key = (block.kind, block.qualified_name.as_str());
            let Some(candidates) = by_name.get_mut(&key) else {
                continue;
            };
            let same_file = candidates
                .iter()
                .position(|a| self.after[a.0].path == self.before[b.0].path);
            let pick = same_file.or((candidates.len() == 1 && b_count[&key] == 1).then_some(0));
            if let Some(i) = pick {
                let a = candidates.remove(i);
                self.pair(b, a, MatchedBy::Name, None);
            }
        }
    }

    fn by_similarity(&mut self) {
        let b_left: Vec<Id> = self
            .b_ids
            .iter()
            .copied()
            .filter(|b| !self.b_to_a.contains_key(b))
            .collect();
        let a_left: Vec<Id> = self
            .a_ids
            .iter()
            .copied()
            .filter(|a| !self.a_to_b.contains_key(a))
            .collect();
        if b_left.is_empty() || a_left.is_empty() {
            return;
        }
        let same_path_only = b_left.len() * a_left.len() > MAX_PAIRS;
        let b_tokens: HashMap<Id, Tokens> = b_left
            .iter()
            .map(|&b| (b, block_tokens(&self.before[b.0], self.block_b(b))))
            .collect();
        let a_tokens: HashMap<Id, Tokens> = a_left
            .iter()
            .map(|&a| (a, block_tokens(&self.after[a.0], self.block_a(a))))
            .collect();
        let mut scored = Vec::new();
        for &b in &b_left {
            for &a in &a_left {
                let (bb, ab) = (self.block_b(b), self.block_a(a));
                if !compatible(bb.kind, ab.kind)
                    || (same_path_only && self.before[b.0].path != self.after[a.0].path)
                {
                    continue;
                }
                let mut score = dice(&b_tokens[&b], &a_tokens[&a]);
                let threshold = if bb.hashes.shape == ab.hashes.shape {
                    SIMILAR_SAME_SHAPE
                } else {
                    SIMILAR_OTHER_SHAPE
                };
                let parents_paired = match (bb.parent, ab.parent) {
                    (Some(pb), Some(pa)) => self.b_to_a.get(&(b.0, pb)) == Some(&(a.0, pa)),
                    (None, None) => true,
                    _ => false,
                };
                if parents_paired
                    && (bb.parent.is_some() || self.before[b.0].path == self.after[a.0].path)
                {
                    score += PARENT_BONUS;
                }
                if score >= threshold {
                    scored.push((score, b, a));
                }
            }
        }
        scored.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)).then(x.2.cmp(&y.2)));
        for (score, b, a) in scored {
            if !self.b_to_a.contains_key(&b) && !self.a_to_b.contains_key(&a) {
                self.pair(b, a, MatchedBy::Similarity, Some(score.min(1.0)));
            }
        }
    }
}

fn compatible(a: BlockKind, b: BlockKind) -> bool {
    a.family() == b.family()
}

pub(crate) type Tokens<'t> = HashMap<&'t str, u32>;

/// The tokens of a block's source text, comments skipped as its language writes them.
pub(crate) fn block_tokens<'t>(file: &'t FileAnalysis, block: &Block) -> Tokens<'t> {
    const NONE: CommentSyntax = CommentSyntax {
        line: &[],
        block: None,
    };
    let comments = file
        .language
        .and_then(language_named)
        .map_or(NONE, |spec| spec.comment_syntax());
    tokens(file.block_text(block), comments)
}

/// Splits source text into a multiset of tokens: words and numbers, and the words
/// inside strings; punctuation, operators, whitespace and comments are skipped (they
/// are in every block, and made unrelated blocks look alike).
pub(crate) fn tokens(text: &str, comments: CommentSyntax) -> Tokens<'_> {
    let bytes = text.as_bytes();
    let mut out: Tokens<'_> = HashMap::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let rest = &bytes[i..];
        if comments.line.iter().any(|l| rest.starts_with(l.as_bytes())) {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if let Some((open, close)) = comments.block {
            if rest.starts_with(open.as_bytes()) {
                i += open.len();
                while i < bytes.len() && !bytes[i..].starts_with(close.as_bytes()) {
                    i += 1;
                }
                i = (i + close.len()).min(bytes.len());
                continue;
            }
        }
        if c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80 {
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric()
                    || bytes[i] == b'_'
                    || bytes[i] == b'$'
                    || bytes[i] >= 0x80)
            {
                i += 1;
            }
        } else if c == b'"' || c == b'\'' || c == b'`' {
            i += 1;
            while i < bytes.len() && bytes[i] != c {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(bytes.len());
            // The words of a string, not the string: editing a long template keeps
            // most of them.
            let inner = &text[start..i.min(text.len())];
            for word in inner
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .filter(|w| !w.is_empty())
            {
                *out.entry(word).or_default() += 1;
            }
            continue;
        } else {
            // Punctuation and operators are in every block: they tell none apart.
            i += 1;
            while i < bytes.len() && !text.is_char_boundary(i) {
                i += 1;
            }
            continue;
        }
        *out.entry(&text[start..i]).or_default() += 1;
    }
    out
}

fn dice(a: &Tokens<'_>, b: &Tokens<'_>) -> f64 {
    let total: u32 = a.values().sum::<u32>() + b.values().sum::<u32>();
    if total == 0 {
        return 1.0;
    }
    let common: u32 = a
        .iter()
        .map(|(t, n)| (*n).min(b.get(t).copied().unwrap_or(0)))
        .sum();
    f64::from(2 * common) / f64::from(total)
}

/// Pairs the blocks of `before` with those of `after` and names what happened to each.
///
/// Every block of both sides appears in exactly one [`BlockMatch`]: pairs in the order
/// of the before blocks, then created blocks in the order of the after blocks.
pub fn match_blocks(before: &[FileAnalysis], after: &[FileAnalysis]) -> Vec<BlockMatch> {
    let mut sides = Sides {
        before,
        after,
        b_ids: ids(before),
        a_ids: ids(after),
        b_to_a: HashMap::new(),
        a_to_b: HashMap::new(),
        via: HashMap::new(),
    };
    sides.by_key(MatchedBy::Exact, |b| b.hashes.exact);
    sides.by_key(MatchedBy::Alpha, |b| b.hashes.alpha);
    sides.by_name();
    sides.by_similarity();
    let reordered = reordered(&sides);
    let mut out = Vec::with_capacity(sides.b_ids.len() + sides.a_ids.len());
    for &b in &sides.b_ids {
        let Some(&a) = sides.b_to_a.get(&b) else {
            out.push(lone(BlockRef::new(before, b), false));
            continue;
        };
        let (bb, ab) = (sides.block_b(b), sides.block_a(a));
        let parent_moved = match (bb.parent, ab.parent) {
            (Some(pb), Some(pa)) => sides.b_to_a.get(&(b.0, pb)) != Some(&(a.0, pa)),
            (None, None) => false,
            _ => true,
        };
        let moved = before[b.0].path != after[a.0].path || parent_moved || reordered.contains(&b);
        let renamed = bb.name != ab.name;
        let modified = bb.hashes.alpha != ab.hashes.alpha;
        let retokened = bb.hashes.exact != ab.hashes.exact;
        let retexted =
            retokened || before[b.0].block_lines_text(bb) != after[a.0].block_lines_text(ab);
        let event = if renamed {
            LineageEvent::Renamed
        } else if moved {
            LineageEvent::Moved
        } else if modified {
            LineageEvent::Modified
        } else if retokened {
            LineageEvent::Refactored
        } else if retexted {
            LineageEvent::Reformatted
        } else {
            LineageEvent::Unchanged
        };
        let (by, similarity) = sides.via[&b];
        out.push(BlockMatch {
            before: Some(BlockRef::new(before, b)),
            after: Some(BlockRef::new(after, a)),
            event,
            matched_by: Some(by),
            similarity,
            renamed,
            moved,
            modified,
            retokened,
            retexted,
        });
    }
    for &a in &sides.a_ids {
        if !sides.a_to_b.contains_key(&a) {
            out.push(lone(BlockRef::new(after, a), true));
        }
    }
    out
}

fn lone(block: BlockRef, created: bool) -> BlockMatch {
    BlockMatch {
        before: (!created).then(|| block.clone()),
        after: created.then_some(block),
        event: if created {
            LineageEvent::Created
        } else {
            LineageEvent::Deleted
        },
        matched_by: None,
        similarity: None,
        renamed: false,
        moved: false,
        modified: true,
        retokened: true,
        retexted: true,
    }
}

/// Pairs whose order among their siblings changed: for each group of siblings paired
/// with siblings in a file of the same path, those outside the longest increasing run.
fn reordered(sides: &Sides<'_>) -> std::collections::HashSet<Id> {
    let mut groups: HashMap<SiblingGroup, Vec<(usize, Id)>> = HashMap::new();
    for (&b, &a) in &sides.b_to_a {
        if sides.before[b.0].path != sides.after[a.0].path {
            continue;
        }
        let key = (b.0, sides.block_b(b).parent, a.0, sides.block_a(a).parent);
        groups.entry(key).or_default().push((a.1, b));
    }
    let mut out = std::collections::HashSet::new();
    for (_, mut members) in groups {
        members.sort_by_key(|(_, b)| b.1);
        let keep = longest_increasing(&members.iter().map(|(a, _)| *a).collect::<Vec<_>>());
        for (i, (_, b)) in members.iter().enumerate() {
            if !keep.contains(&i) {
                out.insert(*b);
            }
        }
    }
    out
}

/// Indices of one longest strictly increasing subsequence (patience sorting).
fn longest_increasing(values: &[usize]) -> std::collections::HashSet<usize> {
    let mut tails: Vec<usize> = Vec::new();
    let mut prev = vec![usize::MAX; values.len()];
    for (i, &v) in values.iter().enumerate() {
        let pos = tails.partition_point(|&t| values[t] < v);
        if pos > 0 {
            prev[i] = tails[pos - 1];
        }
        if pos == tails.len() {
            tails.push(i);
        } else {
            tails[pos] = i;
        }
    }
    let mut out = std::collections::HashSet::new();
    let mut cursor = tails.last().copied();
    while let Some(i) = cursor {
        out.insert(i);
        cursor = (prev[i] != usize::MAX).then(|| prev[i]);
    }
    out
}
