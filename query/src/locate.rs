//! Finding traced blocks in a file as it is now.
//!
//! Stored line numbers go stale below every edit, so queries never trust them: the
//! file's current text is analysed (tree-sitter, the hooks' own analysis, cached by
//! the text's hash in [`crate::analyses`]) and each block found is mapped to its
//! lineage identity by its hashes. Phases, each greedy in source order, strongest
//! evidence first:
//!
//! 1. same source text and same key (qualified name, `#n` for repeated names);
//! 2. same source text and same qualified name;
//! 3. same exact hash (tokens), then same alpha hash, with the same qualified name;
//! 4. same source text, exact or alpha hash under another name;
//! 5. same source text as an earlier recorded version (of a live block, or of one
//!    deleted since): the file is behind the ledger (a teammate's ledger is ahead
//!    of this checkout, or an older commit is checked out), and the block's story
//!    is told up to that version;
//! 6. same kind and qualified name: the block was edited after its last trace (by a
//!    human, a shell, a tool the hooks did not see), which the answer says.
//!
//! A block no phase maps has no traced change: it predates the ledger, or was
//! written outside it.

use std::collections::{HashMap, VecDeque};

use intent_ast_hash::{FileAnalysis, SourceFile};
use intent_ledger::Workspace;

use crate::analyses;
use crate::lineage::{BlockState, FileLineage};

/// A block of the file as it is now, with its lineage identity when it has one.
#[derive(Debug, Clone)]
pub struct Located<'a> {
    /// The lineage block it maps to; `None`: no traced change.
    pub state: Option<&'a BlockState>,
    /// Kind (`function`, `method`, …).
    pub kind: String,
    /// Qualified name as the file is now.
    pub name: String,
    /// First line now (1-based).
    pub start: u32,
    /// Last line now (inclusive).
    pub end: u32,
    /// Index of the enclosing block in the same list.
    pub parent: Option<usize>,
    /// The block's text is none the ledger recorded for it.
    pub changed: bool,
    /// The file has the text an earlier change left (index into the state's
    /// history), not the last one: later changes are not in this checkout.
    pub upto: Option<usize>,
}

impl Located<'_> {
    /// The block's history up to the version the file has.
    pub fn history(&self) -> &[crate::lineage::Change] {
        let all = self.state.map_or(&[][..], |s| &s.history[..]);
        match self.upto {
            Some(k) => &all[..=k],
            None => all,
        }
    }

    /// Changes the ledger recorded after the version the file has.
    pub fn newer(&self) -> impl Iterator<Item = &crate::lineage::Change> {
        let all = self.state.map_or(&[][..], |s| &s.history[..]);
        let from = self.upto.map_or(all.len(), |k| k + 1);
        all[from..].iter().filter(|c| c.inherited_from.is_none())
    }
}

/// The blocks of one file as it is now.
#[derive(Debug, Default)]
pub struct FileBlocks<'a> {
    /// Blocks in source order, parents before children.
    pub blocks: Vec<Located<'a>>,
    /// The file exists and was analysed with a grammar.
    pub analysed: bool,
}

impl<'a> FileBlocks<'a> {
    /// Index of the innermost block holding `line`.
    pub fn innermost(&self, line: u32) -> Option<usize> {
        self.blocks
            .iter()
            .enumerate()
            .filter(|(_, b)| b.start <= line && line <= b.end)
            .min_by_key(|(i, b)| (b.end - b.start, std::cmp::Reverse(*i)))
            .map(|(i, _)| i)
    }

    /// The blocks enclosing block `index`, outermost first.
    pub fn enclosing(&self, index: usize) -> Vec<usize> {
        let mut chain = Vec::new();
        let mut cursor = self.blocks.get(index).and_then(|b| b.parent);
        while let Some(parent) = cursor {
            chain.push(parent);
            cursor = self.blocks[parent].parent;
        }
        chain.reverse();
        chain
    }

    /// Where the lineage block `id` is now, if it is in the file.
    pub fn find(&self, id: &str) -> Option<&Located<'a>> {
        self.blocks
            .iter()
            .find(|b| b.state.is_some_and(|s| s.id == id))
    }
}

/// Maps the traced blocks of `shard` onto `text`, the file as it is now (`None`:
/// the file is gone, and only the recorded places are left, marked changed).
pub fn locate<'a>(
    workspace: &Workspace,
    path: &str,
    shard: Option<&'a FileLineage>,
    text: Option<&str>,
) -> FileBlocks<'a> {
    let Some(text) = text else {
        let blocks = shard
            .map(|s| {
                s.blocks
                    .values()
                    .map(|b| Located {
                        state: Some(b),
                        kind: b.kind.clone(),
                        name: b.name.clone(),
                        start: b.start_line,
                        end: b.end_line,
                        parent: None,
                        changed: true,
                        upto: None,
                    })
                    .collect()
            })
            .unwrap_or_default();
        return FileBlocks {
            blocks,
            analysed: false,
        };
    };
    let analysis = analyses::analyze_cached(workspace, &SourceFile::new(path, text));
    if analysis.language.is_none() {
        return FileBlocks::default();
    }
    // Live blocks first; the deleted ones only match an earlier version's text.
    let traced: Vec<&BlockState> = shard
        .map(|s| s.blocks.values().chain(s.deleted.values()).collect())
        .unwrap_or_default();
    let live = shard.map_or(0, |s| s.blocks.len());
    let mapping = map_blocks(&analysis, &traced, live);
    let blocks = analysis
        .blocks
        .iter()
        .enumerate()
        .map(|(i, block)| {
            let state = mapping[i].map(|j| traced[j]);
            let text = analysis.block_text_hash(block).to_string();
            let last = state.filter(|_| mapping[i].is_some_and(|j| j < live));
            let as_last = last.is_some_and(|s| {
                if s.text.is_empty() {
                    s.exact == block.hashes.exact.to_string()
                } else {
                    s.text == text
                }
            });
            let upto = state
                .filter(|_| !as_last)
                .and_then(|s| version_with(s, &text));
            let changed = state.is_some() && !as_last && upto.is_none();
            Located {
                state,
                kind: block.kind.as_str().to_string(),
                name: block.qualified_name.clone(),
                start: block.lines.start,
                end: block.lines.end,
                parent: block.parent,
                changed,
                upto,
            }
        })
        .collect();
    FileBlocks {
        blocks,
        analysed: true,
    }
}

/// The newest change of `state` (its own, not inherited) that left the block with
/// text hash `text`.
fn version_with(state: &BlockState, text: &str) -> Option<usize> {
    state.history.iter().rposition(|c| {
        c.inherited_from.is_none() && !c.after_text.is_empty() && c.after_text == text
    })
}

/// For each block of `analysis`, the index of the traced block it is. `traced`
/// holds the live blocks first (`live` of them), then the deleted ones.
fn map_blocks(analysis: &FileAnalysis, traced: &[&BlockState], live: usize) -> Vec<Option<usize>> {
    let keys = analysis.block_keys();
    let now: Vec<Keys> = analysis
        .blocks
        .iter()
        .zip(keys)
        .map(|(b, key)| Keys {
            key,
            name: b.qualified_name.clone(),
            kind: b.kind.as_str().to_string(),
            text: analysis.block_text_hash(b).to_string(),
            exact: b.hashes.exact.to_string(),
            alpha: b.hashes.alpha.to_string(),
        })
        .collect();
    let was: Vec<Keys> = traced
        .iter()
        .map(|s| Keys {
            key: s.key.clone(),
            name: s.name.clone(),
            kind: s.kind.clone(),
            text: s.text.clone(),
            exact: s.exact.clone(),
            alpha: s.alpha.clone(),
        })
        .collect();
    // Each phase pairs blocks whose two key parts are equal; a traced block recorded
    // before text hashes existed has no text to match on.
    type Phase = fn(&Keys) -> Option<(&str, &str)>;
    let phases: [Phase; 8] = [
        |k| (!k.text.is_empty()).then_some((k.text.as_str(), k.key.as_str())),
        |k| (!k.text.is_empty()).then_some((k.text.as_str(), k.name.as_str())),
        |k| Some((k.exact.as_str(), k.name.as_str())),
        |k| Some((k.alpha.as_str(), k.name.as_str())),
        |k| (!k.text.is_empty()).then_some((k.text.as_str(), "")),
        |k| Some((k.exact.as_str(), "")),
        |k| Some((k.alpha.as_str(), "")),
        |k| Some((k.kind.as_str(), k.name.as_str())),
    ];
    let mut mapping = vec![None; now.len()];
    let mut taken = vec![false; was.len()];
    for (n, phase) in phases.into_iter().enumerate() {
        if n == phases.len() - 1 {
            // Before the weakest evidence (a name alone): an earlier version's text.
            map_earlier_versions(&now, traced, &mut mapping, &mut taken);
        }
        // Untaken live blocks by key, in their order: each lookup takes the first.
        let mut index: HashMap<(&str, &str), VecDeque<usize>> = HashMap::new();
        for (j, keys) in was.iter().enumerate().take(live) {
            if let (false, Some(key)) = (taken[j], phase(keys)) {
                index.entry(key).or_default().push_back(j);
            }
        }
        for (i, keys) in now.iter().enumerate() {
            if mapping[i].is_some() {
                continue;
            }
            let found = phase(keys)
                .and_then(|key| index.get_mut(&key))
                .and_then(VecDeque::pop_front);
            if let Some(j) = found {
                taken[j] = true;
                mapping[i] = Some(j);
            }
        }
    }
    mapping
}

/// Maps blocks not mapped yet whose text is the one an earlier change of a traced
/// block (live or deleted) left; the first such block in source order wins.
fn map_earlier_versions(
    now: &[Keys],
    traced: &[&BlockState],
    mapping: &mut [Option<usize>],
    taken: &mut [bool],
) {
    let mut by_text: HashMap<&str, Vec<usize>> = HashMap::new();
    for (j, state) in traced.iter().enumerate() {
        if taken[j] {
            continue;
        }
        for change in &state.history {
            if change.inherited_from.is_none() && !change.after_text.is_empty() {
                let holders = by_text.entry(change.after_text.as_str()).or_default();
                if holders.last() != Some(&j) {
                    holders.push(j);
                }
            }
        }
    }
    for (i, keys) in now.iter().enumerate() {
        if mapping[i].is_some() || keys.text.is_empty() {
            continue;
        }
        let found = by_text
            .get(keys.text.as_str())
            .and_then(|holders| holders.iter().copied().find(|j| !taken[*j]));
        if let Some(j) = found {
            taken[j] = true;
            mapping[i] = Some(j);
        }
    }
}

/// The keys a block is matched by, as strings on both sides.
struct Keys {
    key: String,
    name: String,
    kind: String,
    text: String,
    exact: String,
    alpha: String,
}

/// Where each traced block of `shard` is in the file now (block id → first and
/// last line); blocks not found in today's text are left out.
pub fn current_lines(
    workspace: &Workspace,
    shard: &FileLineage,
) -> std::collections::BTreeMap<String, (u32, u32)> {
    let text = std::fs::read(workspace.root().join(&shard.path))
        .ok()
        .map(|b| String::from_utf8_lossy(&b).into_owned());
    let Some(text) = text else {
        return Default::default();
    };
    locate(workspace, &shard.path, Some(shard), Some(&text))
        .blocks
        .iter()
        .filter_map(|b| Some((b.state?.id.clone(), (b.start, b.end))))
        .collect()
}
