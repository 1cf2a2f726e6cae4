//! Per-grammar tables, and the thread-local parsers and buffers.

use std::cell::RefCell;
use std::sync::OnceLock;

use tree_sitter::{Parser, Tree, TreeCursor};

use crate::hash::{kind as kind_of, Kind};
use crate::lang::{languages, BlockKind, KindInfo, LanguageSpec};

/// Per grammar, computed once: each kind's facts and hashed form, and field names by
/// id (tree-sitter hands out names as C strings, converted on every call).
pub(super) struct Table {
    pub(super) kinds: Vec<(KindInfo, Kind)>,
    /// The same facts with the role of a node: a string holding code is walked as one.
    pub(super) as_nodes: Vec<KindInfo>,
    pub(super) fields: Vec<Option<&'static str>>,
    /// The id of the `name` field (0: none): looking a field up by name compares it
    /// with every field name of the grammar.
    pub(super) name_field: u16,
    /// The hashed kinds of [`LanguageSpec::bare_param_wrappers`].
    pub(super) wrappers: Vec<Kind>,
}

/// Hashed kinds the walk emits by itself, computed once (a kind is a BLAKE3 hash).
pub(super) struct Fixed {
    pub(super) error: Kind,
    pub(super) string: Kind,
    pub(super) identifier: Kind,
    pub(super) missing: Kind,
    pub(super) declare: Kind,
    pub(super) export: Kind,
    pub(super) default: Kind,
    /// `const`, `let` and `var`, by [`BlockKind`] of a declarator.
    pub(super) keywords: [Kind; 3],
}

impl Fixed {
    pub(super) fn keyword(&self, kind: BlockKind) -> Kind {
        match kind {
            BlockKind::Let => self.keywords[1],
            BlockKind::Var => self.keywords[2],
            _ => self.keywords[0],
        }
    }
}

pub(super) fn fixed() -> &'static Fixed {
    static FIXED: OnceLock<Fixed> = OnceLock::new();
    FIXED.get_or_init(|| Fixed {
        error: kind_of("ERROR"),
        string: kind_of("string"),
        identifier: kind_of("identifier"),
        missing: kind_of("MISSING"),
        declare: kind_of("declare"),
        export: kind_of("export"),
        default: kind_of("default"),
        keywords: [BlockKind::Const, BlockKind::Let, BlockKind::Var].map(|k| kind_of(k.as_str())),
    })
}

pub(super) fn table(spec: &'static dyn LanguageSpec) -> &'static Table {
    static TABLES: OnceLock<Vec<(&'static str, Table)>> = OnceLock::new();
    static EMPTY: Table = Table {
        kinds: Vec::new(),
        as_nodes: Vec::new(),
        fields: Vec::new(),
        name_field: 0,
        wrappers: Vec::new(),
    };
    let tables = TABLES.get_or_init(|| {
        languages()
            .iter()
            .map(|lang| {
                let grammar = lang.spec.grammar();
                let kinds: Vec<(KindInfo, Kind)> = (0..grammar.node_kind_count() as u16)
                    .map(|id| {
                        let name = grammar.node_kind_for_id(id).unwrap_or("");
                        let named = grammar.node_kind_is_named(id);
                        // Hashed by the spec's name: a spec may fold two spellings
                        // of one construct into one (`a, b` and `(a, b)`).
                        let info = lang.spec.kind_info(name, named);
                        (info, kind_of(info.name))
                    })
                    .collect();
                let as_nodes = kinds
                    .iter()
                    .map(|(info, _)| KindInfo {
                        role: crate::lang::Role::Node,
                        ..*info
                    })
                    .collect();
                let fields = (0..=grammar.field_count() as u16)
                    .map(|id| grammar.field_name_for_id(id))
                    .collect();
                let name_field = grammar.field_id_for_name("name").map_or(0, |id| id.get());
                let wrappers = lang.spec.bare_param_wrappers().iter().map(|w| kind_of(w));
                (
                    lang.spec.name(),
                    Table {
                        kinds,
                        as_nodes,
                        fields,
                        name_field,
                        wrappers: wrappers.collect(),
                    },
                )
            })
            .collect()
    });
    tables
        .iter()
        .find(|(name, _)| *name == spec.name())
        .map_or(&EMPTY, |(_, table)| table)
}

thread_local! {
    /// Stream buffers kept between analyses: big allocations freed and taken again
    /// per file cost more than the hashing they hold.
    static BUFFERS: RefCell<Vec<Vec<u8>>> = const { RefCell::new(Vec::new()) };
    static PARSERS: RefCell<Vec<(&'static str, Parser)>> = const { RefCell::new(Vec::new()) };
}

pub(super) fn take_buffer(capacity: usize) -> Vec<u8> {
    let mut buf = BUFFERS.with(|b| b.borrow_mut().pop()).unwrap_or_default();
    buf.clear();
    buf.reserve(capacity);
    buf
}

pub(super) fn give_buffer(buf: Vec<u8>) {
    // Keep a few, and none that a huge file inflated.
    if buf.capacity() <= 16 << 20 {
        BUFFERS.with(|b| {
            let mut b = b.borrow_mut();
            if b.len() < 8 {
                b.push(buf);
            }
        });
    }
}

/// Parses `text`, reusing `old` (already edited to match `text`) when given; `None`
/// only if tree-sitter gives up (it does not without a timeout).
pub(super) fn parse(
    spec: &'static dyn LanguageSpec,
    text: &str,
    old: Option<&Tree>,
) -> Option<Tree> {
    PARSERS.with(|parsers| {
        let mut parsers = parsers.borrow_mut();
        let index = match parsers.iter().position(|(name, _)| *name == spec.name()) {
            Some(index) => index,
            None => {
                let mut parser = Parser::new();
                parser.set_language(&spec.grammar()).ok()?;
                parsers.push((spec.name(), parser));
                parsers.len() - 1
            }
        };
        parsers[index].1.parse(text, old)
    })
}

/// Facts of the `ERROR` pseudo-kind (its id is outside the grammar's table).
pub(super) const ERROR_INFO: KindInfo = KindInfo::node("ERROR");

/// Counts the named children (comments aside) of the cursor's node, with the walk's
/// own cursor: a new one costs an allocation.
pub(super) fn named_children(cursor: &mut TreeCursor<'_>) -> usize {
    let mut count = 0;
    if cursor.goto_first_child() {
        loop {
            let child = cursor.node();
            count += usize::from(child.is_named() && !child.is_extra());
            if !cursor.goto_next_sibling() {
                break;
            }
        }
        cursor.goto_parent();
    }
    count
}
