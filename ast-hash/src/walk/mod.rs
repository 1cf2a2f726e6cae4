//! The single pass over a syntax tree: block extraction and the three hashes.
//!
//! The walk emits three normalized token streams (exact, alpha, shape) in pre-order.
//! When a block ends, each stream's segment for it is hashed and replaced by the
//! digest (Merkle at block granularity), so an enclosing block hashes its members'
//! digests, never their tokens twice. Order-insensitive containers hash each member
//! segment and emit the digests in canonical order. See the crate docs for the format.

mod collect;
mod edits;
mod emit;
mod frames;
mod parse;
mod reuse;

use std::borrow::Cow;
use std::sync::Arc;

use tree_sitter::Node;

use edits::edits_between;
use parse::{fixed, give_buffer, parse, table, take_buffer, Fixed, Table, ERROR_INFO};

use crate::hash::{Domain, Kind, Stream};
use crate::lang::{Ctx, KindInfo, LanguageSpec, MemberKey, Naming};
use crate::model::{Block, Detail, FileAnalysis, ParseError, ParseErrorKind, TopItem};
use crate::scope::{Scopes, Sink};
use crate::Parsed;
pub(crate) use reuse::Memo;
use reuse::{ItemMark, Reuse};

const EXACT: usize = 0;
const ALPHA: usize = 1;
const SHAPE: usize = 2;
const DOMAINS: [Domain; 3] = [Domain::Exact, Domain::Alpha, Domain::Shape];

/// Analyzes one file with a grammar; returns its tree too (with what the walk of
/// each top-level statement added), for an incremental analysis of the file's next
/// version.
pub(crate) fn analyze_with(
    spec: &'static dyn LanguageSpec,
    path: &str,
    text: &str,
    previous: Option<(&Parsed, &str)>,
) -> (FileAnalysis, Option<Parsed>) {
    let mut analysis = FileAnalysis {
        path: path.to_string(),
        language: Some(spec.name()),
        blocks: Vec::new(),
        errors: Vec::new(),
        hashes: None,
        text: text.to_string(),
        detail: Detail::default(),
    };
    // An agent's edit is usually local: re-parsing from the previous version's tree
    // costs a fraction of a fresh parse and yields the same tree.
    let edited = previous.map(|(parsed, old_text)| {
        let edits = edits_between(old_text, text);
        let mut tree = parsed.tree.clone();
        for edit in &edits {
            tree.edit(edit);
        }
        (tree, edits)
    });
    // Error recovery may differ between an incremental and a fresh parse: a tree
    // with errors is parsed again from scratch, so hashes never depend on history.
    let tree = match parse(spec, text, edited.as_ref().map(|(tree, _)| tree)) {
        Some(tree) if edited.is_some() && tree.root_node().has_error() => parse(spec, text, None),
        tree => tree,
    };
    let Some(tree) = tree else {
        analysis.errors.push(ParseError {
            line: 1,
            column: 1,
            kind: ParseErrorKind::Unexpected,
            text: "the parser gave up".to_string(),
        });
        analysis.detail.error_signatures.push("gave-up".to_string());
        return (analysis, None);
    };
    let clean = !tree.root_node().has_error();
    let mut walker = Walker::new(spec, text);
    if clean {
        walker.memo = Some(Memo::default());
        if let (Some((parsed, old_text)), Some((edited, edits))) = (previous, &edited) {
            if let Some(memo) = parsed.memo.as_deref() {
                walker.reuse = Some(Reuse::new(memo, old_text, edits, edited, &tree));
            }
        }
    }
    walker.run(tree.root_node());
    let memo = walker.finish(&mut analysis);
    let parsed = Parsed {
        tree,
        memo: memo.map(Arc::new),
    };
    (analysis, Some(parsed))
}

#[derive(Debug)]
struct Members {
    /// Each member's key and start offsets: the three streams, then the layout.
    entries: Vec<(MemberKey, [usize; 4])>,
    attach: Option<[usize; 4]>,
}

#[derive(Debug)]
struct Frame<'t> {
    node: Node<'t>,
    /// Its kind's facts, in the static table (a frame is copied on every push and pop).
    info: &'static KindInfo,
    ctx: Ctx,
    field: Option<&'static str>,
    opened: bool,
    block: Option<usize>,
    scopes: u8,
    /// Forward scopes it holds ([`crate::lang::ScopeKind::Forward`]), above its own.
    forward: u8,
    patch_root: bool,
    /// Its children are members of an order-insensitive container: the top of
    /// `Walker::members` (kept apart so that frames stay small to push and pop).
    members: bool,
    decl_children: bool,
    item: bool,
    check_purity: bool,
    /// It started a declaration of names visible only after it
    /// ([`KindInfo::declares_after`]).
    declaration: bool,
    /// Where the node ends (asking tree-sitter again is a call into C).
    end: usize,
    last_end: usize,
    impure: bool,
}

struct Walker<'s> {
    spec: &'static dyn LanguageSpec,
    infos: &'static [(KindInfo, Kind)],
    table: &'static Table,
    /// Hashed kinds the walk emits by itself.
    k: &'static Fixed,
    src: &'s str,
    streams: [Stream; 3],
    scopes: Scopes<'s>,
    members: Vec<Members>,
    blocks: Vec<Block>,
    block_starts: Vec<[usize; 3]>,
    block_marks: Vec<Option<usize>>,
    block_default: Vec<bool>,
    pending_marks: Vec<(usize, usize)>,
    items: Vec<TopItem>,
    item_starts: Vec<[usize; 3]>,
    item_impure: Vec<bool>,
    item_free: Vec<Vec<Cow<'s, str>>>,
    item_declared: Vec<Vec<Cow<'s, str>>>,
    /// Where each top-level statement started.
    item_marks: Vec<ItemMark>,
    item: Option<usize>,
    errors: Vec<ParseError>,
    error_signatures: Vec<String>,
    comments: Vec<&'s str>,
    /// Top-level comments that are code ([`LanguageSpec::comment_is_code`]).
    code_comments: Vec<&'s str>,
    /// Whether the identifier being emitted gives a function or class its `.name`.
    naming: Naming,
    /// The identifier being emitted is the callee of a direct call.
    callee: bool,
    /// Whether the tree has any error (else no node needs an `is_missing` check).
    has_error: bool,
    scratch: String,
    /// `scratch` holds the value of the string being entered, cooked by the spec.
    cooked: bool,
    item_layout: Vec<usize>,
    item_order: Vec<usize>,
    order: Vec<u8>,
    layout: Vec<u8>,
    /// What each top-level statement added, recorded for the next version (when
    /// the tree has no errors).
    memo: Option<Memo>,
    /// The previous version's record, for the statements this one did not change.
    reuse: Option<Reuse<'s>>,
}

impl<'s> Walker<'s> {
    fn new(spec: &'static dyn LanguageSpec, src: &'s str) -> Self {
        let capacity = src.len() * 2;
        Walker {
            spec,
            infos: &table(spec).kinds,
            table: table(spec),
            k: fixed(),
            src,
            streams: std::array::from_fn(|_| Stream {
                buf: take_buffer(capacity),
            }),
            scopes: Scopes::default(),
            members: Vec::new(),
            blocks: Vec::new(),
            block_starts: Vec::new(),
            block_marks: Vec::new(),
            block_default: Vec::new(),
            pending_marks: Vec::new(),
            items: Vec::new(),
            item_starts: Vec::new(),
            item_impure: Vec::new(),
            item_free: Vec::new(),
            item_declared: Vec::new(),
            item_marks: Vec::new(),
            item: None,
            errors: Vec::new(),
            error_signatures: Vec::new(),
            comments: Vec::new(),
            code_comments: Vec::new(),
            has_error: true,
            naming: Naming::No,
            callee: false,
            scratch: String::new(),
            cooked: false,
            item_layout: Vec::new(),
            item_order: Vec::new(),
            order: Vec::new(),
            layout: take_buffer(src.len() / 2),
            memo: None,
            reuse: None,
        }
    }

    fn text(&self, node: Node<'_>) -> &'s str {
        &self.src[node.byte_range()]
    }

    fn info_of(&self, node: Node<'_>) -> (&'static KindInfo, Kind) {
        // ERROR's id (u16::MAX) is outside the table.
        match self.infos.get(node.kind_id() as usize) {
            Some((info, k)) => (info, *k),
            None => (&ERROR_INFO, self.k.error),
        }
    }

    fn offsets(&self) -> [usize; 3] {
        [
            self.streams[0].len(),
            self.streams[1].len(),
            self.streams[2].len(),
        ]
    }

    fn sink(&self) -> Sink {
        Sink { item: self.item }
    }

    #[inline]
    fn all(&mut self, f: impl Fn(&mut Stream)) {
        for stream in &mut self.streams {
            f(stream);
        }
    }

    /// Walks the tree with one cursor: `enter` on the way down, `exit` on the way up.
    fn run(&mut self, root: Node<'s>) {
        self.has_error = root.has_error();
        let mut cursor = root.walk();
        self.frames_push_root(root);
        let mut frames: Vec<Frame<'s>> = vec![self.root_frame(root)];
        let mut descend = root.child_count() > 0;
        if !descend {
            self.exit(&mut frames);
            return;
        }
        loop {
            if descend && cursor.goto_first_child() {
                descend = self.enter(&mut frames, &mut cursor);
                continue;
            }
            loop {
                if cursor.goto_next_sibling() {
                    descend = self.enter(&mut frames, &mut cursor);
                    break;
                }
                if !cursor.goto_parent() {
                    return;
                }
                self.exit(&mut frames);
                if frames.is_empty() {
                    return;
                }
            }
        }
    }

    fn frames_push_root(&mut self, root: Node<'s>) {
        let (_, k) = self.info_of(root);
        self.all(|s| s.open(k));
    }

    fn root_frame(&self, root: Node<'s>) -> Frame<'s> {
        Frame {
            node: root,
            info: self.info_of(root).0,
            ctx: Ctx::Normal,
            field: None,
            opened: true,
            block: None,
            scopes: 0,
            forward: 0,
            patch_root: false,
            members: false,
            decl_children: true,
            item: false,
            check_purity: false,
            declaration: false,
            end: root.end_byte(),
            last_end: root.start_byte(),
            impure: false,
        }
    }

    /// Records the source between two nodes: layout when blank, else stream text.
    #[inline]
    fn gap(&mut self, from: usize, to: usize) {
        // Most nodes follow the previous one directly.
        if to > from {
            self.gap_text(from, to);
        }
    }

    fn gap_text(&mut self, from: usize, to: usize) {
        let text = &self.src[from..to];
        let ascii_blank = text
            .bytes()
            .all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'));
        if ascii_blank || text.trim().is_empty() {
            self.layout.extend_from_slice(text.as_bytes());
        } else {
            // Text no node covers: keep it rather than lose it.
            let trimmed = text.trim().as_bytes();
            self.all(|s| s.text(trimmed));
        }
    }
}
