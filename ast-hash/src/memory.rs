//! Estimated heap bytes of what a long-lived caller (the resident helper) keeps of
//! an analysis: its [`FileAnalysis`] values and [`Parsed`] versions. The helper
//! spends one memory budget on them, so each must say what it costs; the figures
//! count every vector's capacity and string's bytes, and estimate a tree-sitter
//! tree by its nodes (its allocations are not visible from Rust).

use std::mem::size_of;
use std::ops::Range;

use crate::lang::ImportInfo;
use crate::model::{Detail, TopItem};
use crate::{Block, FileAnalysis, ParseError, Parsed};

/// Bytes a tree-sitter tree takes per node: a heap subtree's header and its
/// place in its parent's child array (small leaves are inline and cost less, so
/// this errs high).
const TREE_NODE_BYTES: usize = 80;

/// Heap bytes owned by a value (not counting the value itself).
pub(crate) trait HeapBytes {
    fn heap_bytes(&self) -> usize;
}

macro_rules! no_heap {
    ($($t:ty),*) => { $(impl HeapBytes for $t { fn heap_bytes(&self) -> usize { 0 } })* };
}
no_heap!(u8, usize, bool, Range<usize>);

impl HeapBytes for String {
    fn heap_bytes(&self) -> usize {
        self.capacity()
    }
}

impl<T: HeapBytes> HeapBytes for Vec<T> {
    fn heap_bytes(&self) -> usize {
        self.capacity() * size_of::<T>() + self.iter().map(T::heap_bytes).sum::<usize>()
    }
}

impl<T: HeapBytes> HeapBytes for Option<T> {
    fn heap_bytes(&self) -> usize {
        self.as_ref().map_or(0, T::heap_bytes)
    }
}

impl<A: HeapBytes, B: HeapBytes> HeapBytes for (A, B) {
    fn heap_bytes(&self) -> usize {
        self.0.heap_bytes() + self.1.heap_bytes()
    }
}

impl HeapBytes for Block {
    fn heap_bytes(&self) -> usize {
        self.name.heap_bytes() + self.qualified_name.heap_bytes()
    }
}

impl HeapBytes for ParseError {
    fn heap_bytes(&self) -> usize {
        self.text.heap_bytes()
    }
}

impl HeapBytes for ImportInfo {
    fn heap_bytes(&self) -> usize {
        self.source.heap_bytes() + self.bindings.heap_bytes()
    }
}

impl HeapBytes for TopItem {
    fn heap_bytes(&self) -> usize {
        self.blocks.heap_bytes()
            + self.declared.heap_bytes()
            + self.exports.heap_bytes()
            + self.free.heap_bytes()
            + self.import.heap_bytes()
            + self.reexport_all.heap_bytes()
    }
}

impl HeapBytes for Detail {
    fn heap_bytes(&self) -> usize {
        self.items.heap_bytes() + self.pragmas.heap_bytes() + self.error_signatures.heap_bytes()
    }
}

impl FileAnalysis {
    /// Estimated bytes this analysis takes in memory (itself, its text and every
    /// block, statement and name it holds).
    pub fn memory_bytes(&self) -> usize {
        size_of::<FileAnalysis>()
            + self.path.heap_bytes()
            + self.blocks.heap_bytes()
            + self.errors.heap_bytes()
            + self.text.heap_bytes()
            + self.detail.heap_bytes()
    }
}

impl Parsed {
    /// Estimated bytes this version takes in memory: its tree (by its nodes) and
    /// the per-statement records kept to replay unchanged statements. Statements
    /// shared with an older version's records are counted in full (errs high).
    pub fn memory_bytes(&self) -> usize {
        let nodes = self.tree.root_node().descendant_count();
        size_of::<Parsed>()
            + nodes * TREE_NODE_BYTES
            + self.memo.as_ref().map_or(0, |memo| memo.memory_bytes())
    }
}
