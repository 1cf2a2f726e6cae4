//! Reusing the walk's output for the top-level statements a new version of a file
//! did not change.
//!
//! The walk of a top-level statement depends on its subtree and text only: its
//! parent is always the module, no local scope is open around it, and a tree with
//! errors is never reused. So a statement whose text is unchanged and whose subtree
//! tree-sitter reports unchanged (outside [`Tree::changed_ranges`] of the edited old
//! tree and the new one) contributes exactly what it contributed before, moved to
//! its new offset and line. hono's `src/types.ts` (2,500 lines, edited in a few
//! statements per commit) re-walked whole took ~4 ms of each incremental analysis.
//!
//! A [`Memo`] keeps, per top-level statement of a version, everything the walk
//! added for it (relative to its start); the next version's walk replays those it
//! may instead of walking them. `tests/test_incremental.rs` checks, on every change
//! of a corpus and on random sequences of edits, that the result is byte for byte a
//! fresh analysis.

use std::borrow::Cow;
use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use tree_sitter::{InputEdit, Node, Tree};

use super::Walker;
use crate::model::{Block, TopItem};

/// What the walk of one version added for each of its top-level statements.
#[derive(Debug, Default)]
pub(crate) struct Memo {
    items: Vec<MemoItem>,
    /// How many of them were replayed from the previous version's memo.
    pub(crate) reused: usize,
}

#[derive(Debug, Clone)]
struct MemoItem {
    /// Its bytes in the version's text.
    bytes: Range<usize>,
    kind_id: u16,
    walked: Arc<Walked>,
}

/// One statement's part of the analysis, with offsets from its first byte and
/// lines from its first line.
#[derive(Debug)]
struct Walked {
    item: TopItem,
    /// Its blocks (parents relative to its first block), and whether each is a
    /// default export.
    blocks: Vec<(Block, bool)>,
    comments: Vec<Range<usize>>,
    layout: Vec<u8>,
    order: Vec<u8>,
    free: Vec<String>,
    declared: Vec<String>,
}

impl Memo {
    /// Estimated bytes it takes in memory ([`crate::memory`]): itself and its
    /// per-statement records.
    pub(crate) fn memory_bytes(&self) -> usize {
        std::mem::size_of::<Memo>() + self.items_memory_bytes()
    }

    /// Heap bytes of its per-statement records.
    fn items_memory_bytes(&self) -> usize {
        use crate::memory::HeapBytes;
        self.items.capacity() * std::mem::size_of::<MemoItem>()
            + self
                .items
                .iter()
                .map(|item| {
                    let w = &item.walked;
                    std::mem::size_of::<Walked>()
                        + w.item.heap_bytes()
                        + w.blocks.heap_bytes()
                        + w.comments.heap_bytes()
                        + w.layout.heap_bytes()
                        + w.order.heap_bytes()
                        + w.free.heap_bytes()
                        + w.declared.heap_bytes()
                })
                .sum::<usize>()
    }
}

/// Where a top-level statement started, to record it when it ends.
#[derive(Debug)]
pub(super) struct ItemMark {
    bytes: Range<usize>,
    row: usize,
    kind_id: u16,
    blocks: usize,
    comments: usize,
}

/// The previous version's memo, placed in the new version: statements that may be
/// replayed, by their start in the new text.
pub(super) struct Reuse<'s> {
    memo: &'s Memo,
    old_text: &'s str,
    by_start: HashMap<usize, usize>,
    /// Byte ranges of the new tree whose structure changed, sorted.
    changed: Vec<Range<usize>>,
}

impl<'s> Reuse<'s> {
    /// Places `memo` (of `old_text`) in the new text that `edits` (as applied to
    /// the old tree, last first) make of it; `edited` is the old tree after them,
    /// `tree` the new one.
    pub(super) fn new(
        memo: &'s Memo,
        old_text: &'s str,
        edits: &[InputEdit],
        edited: &Tree,
        tree: &Tree,
    ) -> Reuse<'s> {
        let changed: Vec<Range<usize>> = edited
            .changed_ranges(tree)
            .map(|r| r.start_byte..r.end_byte)
            .collect();
        // Edits in old coordinates, first first; each moves what follows it.
        let mut edits: Vec<&InputEdit> = edits.iter().collect();
        edits.sort_by_key(|e| e.start_byte);
        let mut by_start = HashMap::with_capacity(memo.items.len());
        let (mut next, mut shift) = (0usize, 0isize);
        for (index, item) in memo.items.iter().enumerate() {
            let (start, end) = (item.bytes.start, item.bytes.end);
            while let Some(edit) = edits.get(next) {
                if edit.old_end_byte > start || edit.start_byte > start {
                    break;
                }
                shift += edit.new_end_byte as isize - edit.old_end_byte as isize;
                next += 1;
            }
            // An edit touching the statement (an insertion at its very start moves
            // it, and is passed above only once it ends before it).
            let touched = edits[next..]
                .iter()
                .take_while(|e| e.start_byte < end)
                .any(|e| e.old_end_byte > start || e.start_byte > start);
            if !touched {
                by_start.insert((start as isize + shift) as usize, index);
            }
        }
        Reuse {
            memo,
            old_text,
            by_start,
            changed,
        }
    }

    /// The statement the walk may replay for `node` instead of walking it: same
    /// kind, same text, and a subtree tree-sitter did not change.
    fn walked_for(&self, node: Node<'_>, src: &str) -> Option<&'s MemoItem> {
        let (start, end) = (node.start_byte(), node.end_byte());
        let item = &self.memo.items[*self.by_start.get(&start)?];
        // The first changed range not wholly before the node (they are sorted).
        let touches_change = self
            .changed
            .get(self.changed.partition_point(|r| r.end < start))
            .is_some_and(|r| r.start <= end);
        (item.kind_id == node.kind_id()
            && item.bytes.len() == end - start
            && !touches_change
            && self.old_text.get(item.bytes.clone()) == src.get(start..end))
        .then_some(item)
    }
}

impl<'s> Walker<'s> {
    /// Notes where a top-level statement starts (before anything of it is added).
    pub(super) fn mark_item(&mut self, node: Node<'s>) {
        self.item_marks.push(ItemMark {
            bytes: node.byte_range(),
            row: node.start_position().row,
            kind_id: node.kind_id(),
            blocks: self.blocks.len(),
            comments: self.comments.len(),
        });
    }

    /// Makes top-level statement `index` end at byte `end` (where the node it
    /// attached to ends). Its record then spans more than its first node, so no
    /// later walk replays it for that node alone.
    pub(super) fn extend_mark(&mut self, index: usize, end: usize) {
        if let Some(mark) = self.item_marks.get_mut(index) {
            mark.bytes.end = mark.bytes.end.max(end);
        }
    }

    /// Records what the walk added for top-level statement `index`, just finished.
    pub(super) fn remember_item(&mut self, index: usize) {
        let Some(memo) = self.memo.as_mut() else {
            return;
        };
        let mark = &self.item_marks[index];
        let (start, row, first) = (mark.bytes.start, mark.row, mark.blocks);
        let src_at = self.src.as_ptr() as usize;
        let blocks = self.blocks[first..]
            .iter()
            .zip(&self.block_default[first..])
            .map(|(block, &default)| {
                let mut block = block.clone();
                block.byte_range = block.byte_range.start - start..block.byte_range.end - start;
                block.lines.start -= row as u32;
                block.lines.end -= row as u32;
                block.parent = block.parent.map(|p| p - first);
                (block, default)
            })
            .collect();
        let comments = self.comments[mark.comments..]
            .iter()
            .map(|c| {
                let at = c.as_ptr() as usize - src_at - start;
                at..at + c.len()
            })
            .collect();
        let mut item = self.items[index].clone();
        item.lines.start -= row as u32;
        item.lines.end -= row as u32;
        for block in &mut item.blocks {
            *block -= first;
        }
        let walked = Walked {
            item,
            blocks,
            comments,
            layout: self.layout[self.item_layout[index]..].to_vec(),
            order: self.order[self.item_order[index]..].to_vec(),
            free: self.item_free[index]
                .iter()
                .map(|n| n.to_string())
                .collect(),
            declared: self.item_declared[index]
                .iter()
                .map(|n| n.to_string())
                .collect(),
        };
        memo.items.push(MemoItem {
            bytes: mark.bytes.clone(),
            kind_id: mark.kind_id,
            walked: Arc::new(walked),
        });
    }

    /// Replays the previous version's walk of top-level `node` if it may; returns
    /// whether it did (the node is then not walked).
    pub(super) fn replay(&mut self, node: Node<'s>) -> bool {
        let Some(item) = self
            .reuse
            .as_ref()
            .and_then(|r| r.walked_for(node, self.src))
        else {
            return false;
        };
        let walked = &item.walked;
        let (start, row) = (node.start_byte(), node.start_position().row);
        let first = self.blocks.len();
        let mut top = walked.item.clone();
        top.lines.start += row as u32;
        top.lines.end += row as u32;
        for block in &mut top.blocks {
            *block += first;
        }
        let hashes = [top.hashes.exact, top.hashes.alpha, top.hashes.shape];
        let owned = |names: &[String]| names.iter().map(|n| Cow::Owned(n.clone())).collect();
        self.open_item(node, top, owned(&walked.free), owned(&walked.declared));
        for (block, default) in &walked.blocks {
            let mut block = block.clone();
            block.byte_range = block.byte_range.start + start..block.byte_range.end + start;
            block.lines.start += row as u32;
            block.lines.end += row as u32;
            block.parent = block.parent.map(|p| p + first);
            self.blocks.push(block);
            self.block_starts.push([0; 3]);
            self.block_marks.push(None);
            self.block_default.push(*default);
        }
        for (stream, hash) in self.streams.iter_mut().zip(hashes) {
            stream.digest(hash);
        }
        for range in &walked.comments {
            self.comments
                .push(&self.src[range.start + start..range.end + start]);
        }
        self.layout.extend_from_slice(&walked.layout);
        self.order.extend_from_slice(&walked.order);
        if let Some(memo) = self.memo.as_mut() {
            memo.reused += 1;
            memo.items.push(MemoItem {
                bytes: node.byte_range(),
                kind_id: item.kind_id,
                walked: Arc::clone(walked),
            });
        }
        true
    }
}
