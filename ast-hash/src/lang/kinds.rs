//! Kind names of a grammar by id, resolved once.
//!
//! tree-sitter hands out a kind name as a C string (a `strlen` and a UTF-8 check per
//! call): specs that compare kinds often read them from this table instead.

use tree_sitter::{Language, Node};

/// The kind names of one grammar, by kind id.
#[derive(Debug)]
pub(crate) struct Kinds {
    names: Vec<&'static str>,
}

impl Kinds {
    pub(crate) fn new(language: &Language) -> Self {
        Kinds {
            names: (0..language.node_kind_count() as u16)
                .map(|id| language.node_kind_for_id(id).unwrap_or(""))
                .collect(),
        }
    }

    /// Returns `node.kind()`.
    pub(crate) fn of(&self, node: Node<'_>) -> &'static str {
        match self.names.get(usize::from(node.kind_id())) {
            Some(kind) => kind,
            // `ERROR` has an id outside the table.
            None => node.kind(),
        }
    }
}

/// The source text of a node.
pub(crate) fn text<'s>(node: Node<'_>, src: &'s str) -> &'s str {
    &src[node.byte_range()]
}

/// The children of a node that has few (a member, a parameter, a statement).
///
/// A cursor costs an allocation and a walk of its own; `Node::child` scans from the
/// first child, which for a handful of children is cheaper (quadratic beyond).
pub(crate) fn few_children<'t>(node: Node<'t>) -> impl Iterator<Item = Node<'t>> {
    (0..node.child_count() as u32).map_while(move |i| node.child(i))
}
