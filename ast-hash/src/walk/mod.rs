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
mod parse;
mod reuse;

use std::borrow::Cow;
use std::sync::Arc;

use tree_sitter::{Node, TreeCursor};

use edits::edits_between;
use parse::{
    fixed, give_buffer, named_children, parse, table, take_buffer, Fixed, Table, ERROR_INFO,
};

use crate::hash::{Domain, Kind, Stream};
use crate::lang::{
    BlockKind, Ctx, IdentKind, KindInfo, LanguageSpec, MemberKey, Naming, Role, ScopeKind, Site,
};
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

    fn enter(&mut self, frames: &mut Vec<Frame<'s>>, cursor: &mut TreeCursor<'s>) -> bool {
        let node = cursor.node();
        let (mut info, k) = self.info_of(node);
        // A string the language cooks itself: one literal, or a node when it holds
        // code (an f-string's interpolations).
        self.cooked = false;
        if info.role == Role::Str {
            let mut out = std::mem::take(&mut self.scratch);
            out.clear();
            match self.spec.cook_string(node, self.src, &mut out) {
                Some(true) => self.cooked = true,
                Some(false) => info = &self.table.as_nodes[usize::from(node.kind_id())],
                None => {}
            }
            self.scratch = out;
        }
        let (start, end) = (node.start_byte(), node.end_byte());
        let parent = frames.last_mut().expect("a parent frame");
        let gap_from = parent.last_end;
        parent.last_end = parent.last_end.max(end);
        self.gap(gap_from, start);
        let kept_punct = info.role == Role::Punct && parent.info.keep_punct;
        match info.role {
            Role::Comment if !(info.doc_comment && self.spec.is_documentation(node, self.src)) => {
                self.comments.push(&self.src[start..end]);
                if frames.len() == 1 && self.spec.comment_is_code(node, self.src) {
                    self.code_comments.push(&self.src[start..end]);
                }
                return false;
            }
            Role::Skip => return false,
            Role::Punct if !(kept_punct || self.has_error && node.is_missing()) => {
                self.layout.extend_from_slice(info.name.as_bytes());
                return false;
            }
            _ => {}
        }
        let missing = self.has_error && node.is_missing();
        // Operators and keywords inside a statement: a token in every stream, and
        // nothing below applies to them (no field, context, block or scope).
        if (info.role == Role::Token || kept_punct) && !missing && frames.len() > 1 {
            let parent = frames.last().expect("a parent frame");
            if parent.opened && !parent.members {
                self.all(|s| s.token(k));
                return false;
            }
        }
        let named = !matches!(info.role, Role::Punct | Role::Token) || info.name == "ERROR";
        let parent = frames.last().expect("a parent frame");
        if !parent.opened && !named && !missing {
            // The operator of a transparent wrapper (a leading `|`).
            self.layout.extend_from_slice(info.name.as_bytes());
            return false;
        }
        let (parent_node, parent_info, parent_ctx, decl_level, parent_block, parent_scopes) = (
            parent.node,
            parent.info,
            parent.ctx,
            parent.decl_children,
            parent.block,
            parent.scopes,
        );
        let top = frames.len() == 1;
        if parent.forward > 0 && self.spec.closes_forward(parent_info.name, info.name) {
            for _ in 0..parent.forward {
                self.scopes.pop();
            }
            frames.last_mut().expect("a parent frame").forward = 0;
        }
        let parent = frames.last().expect("a parent frame");
        if parent.members {
            let key = self.spec.member_key(parent_node, node, self.src);
            let here = [
                self.streams[0].len(),
                self.streams[1].len(),
                self.streams[2].len(),
                self.layout.len(),
            ];
            let members = self.members.last_mut().expect("the parent's members");
            if key == MemberKey::AttachToNext {
                members.attach.get_or_insert(here);
            } else {
                let start = members.attach.take().unwrap_or(here);
                members.entries.push((key, start));
            }
        }
        if top {
            if self.item.is_some() {
                // The statement before attaches to this one.
                self.join_item(node);
            } else {
                if self.replay(node) {
                    return false;
                }
                self.start_item(node);
            }
        }
        if missing {
            self.error(node, ParseErrorKind::Missing);
            let missing = self.k.missing;
            let kind = node.kind().as_bytes();
            self.all(|s| s.leaf(missing, kind));
            if top {
                self.end_item(node);
            }
            return false;
        }
        if info.name == "ERROR" {
            self.error(node, ParseErrorKind::Unexpected);
        }
        if info.reads_names
            && !self.scopes.is_empty()
            && self.spec.reads_local_names(node, self.src)
        {
            self.scopes.poisoned = true;
        }
        // Reading the field walks up the cursor's stack: only where it is used (binding
        // contexts, function bodies and parameters, wrappers, exported values).
        let wants_field = named
            && (parent_info.binds_children
                || parent_info.function_like
                || info.function_like
                || info.role == Role::Wrapper
                || parent_info.export_wrapper
                || (parent_info.calls && matches!(info.role, Role::Ident(_)))
                || info.member_body);
        let field = if wants_field {
            cursor.field_id().and_then(|id| {
                self.table
                    .fields
                    .get(usize::from(id.get()))
                    .copied()
                    .flatten()
            })
        } else {
            None
        };
        let ctx = if named && parent_info.binds_children {
            let site = Site {
                node,
                kind: info.name,
                parent: parent_node,
                parent_kind: parent_info.name,
                parent_ctx,
                field,
            };
            self.naming = if matches!(
                info.role,
                Role::Ident(IdentKind::Variable | IdentKind::Type)
            ) {
                self.spec.names_function(&site)
            } else {
                Naming::No
            };
            self.spec.context(&site, self.src)
        } else if parent_ctx == Ctx::Literal && named {
            // Below a verbatim name (an import path, a self-documenting f-string's
            // expression), everything is verbatim.
            self.naming = Naming::No;
            Ctx::Literal
        } else {
            self.naming = Naming::No;
            Ctx::Normal
        };
        self.callee = parent_info.calls && field == Some("function");
        // The signature of a function ends where its body starts; of a class or
        // namespace, where its members start.
        if field == Some("body") && (parent_info.function_like || info.member_body) {
            self.mark_signature(frames);
        }
        let leaf = match info.role {
            Role::Token | Role::Ident(_) | Role::Literal | Role::Str | Role::JsxText => true,
            _ => node.child_count() == 0,
        };
        if leaf {
            let wrappers: &[Kind] = if field == Some("parameter") && parent_info.bare_param {
                &self.table.wrappers
            } else {
                &[]
            };
            for &wrapper in wrappers {
                self.all(|s| s.open(wrapper));
            }
            let text = &self.src[start..end];
            let pure = self.leaf(
                cursor,
                text,
                info,
                k,
                ctx,
                parent_scopes,
                parent_info.raw_strings,
            );
            for _ in wrappers {
                self.all(|s| s.close());
            }
            // A leaf may end what forward bindings wait for (`for x in xs`).
            if self.scopes.forward_waits()
                && self.spec.opens_forward(parent_info.name, info.name, field)
                && self.scopes.open_forward()
            {
                frames.last_mut().expect("a parent frame").forward += 1;
            }
            frames.last_mut().expect("a parent frame").impure |= !pure;
            if top {
                self.end_item(node);
            }
            return false;
        }
        let transparent = info.role == Role::Wrapper
            && !self.spec.keep_wrapper(info.name, parent_info.name, field)
            && named_children(cursor) <= 1;
        let mut block = None;
        if decl_level && self.scopes.is_empty() {
            if let Some(kind) = info.block {
                if let Some((name, kind)) = self.spec.block_name(node, parent_node, kind, self.src)
                {
                    block = Some(self.start_block(frames, node, kind, name));
                }
            }
        }
        let namespace_body = info.statement_block
            && parent_block.is_some_and(|b| self.blocks[b].kind == BlockKind::Namespace);
        let decl_children = decl_level
            && info.decl_container
            && self.scopes.is_empty()
            && (!info.statement_block || namespace_body);
        if !transparent {
            self.all(|s| s.open(k));
        }
        let mut scopes = 0u8;
        let mut patch_root = false;
        let mut push = |walker: &mut Self, kind: ScopeKind| {
            patch_root |= walker.scopes.is_empty();
            walker.scopes.push(kind, walker.streams[ALPHA].len());
            scopes += 1;
        };
        if info.own_name && node.child_by_field_id(self.table.name_field).is_some() {
            push(self, ScopeKind::Name);
        }
        match info.scope {
            Some(ScopeKind::Function) => push(self, ScopeKind::Function),
            Some(ScopeKind::Block)
                if !(transparent
                    || namespace_body
                    || (parent_info.function_like && field == Some("body"))) =>
            {
                push(self, ScopeKind::Block)
            }
            _ => {}
        }
        if info.dynamic_scope {
            self.scopes.poisoned = true;
        }
        let declaration = info.declares_after && !self.scopes.is_empty();
        if declaration {
            self.scopes.begin_declaration();
        }
        let members = info.unordered && self.scopes.is_empty();
        if members {
            self.members.push(Members {
                entries: Vec::new(),
                attach: None,
            });
        }
        let check_purity = decl_level
            && (info.declarator || (parent_info.export_wrapper && field == Some("value")));
        frames.push(Frame {
            node,
            info,
            ctx,
            field,
            opened: !transparent,
            block,
            scopes,
            forward: 0,
            patch_root,
            members,
            decl_children,
            item: top,
            check_purity,
            declaration,
            end,
            last_end: start,
            impure: false,
        });
        true
    }

    fn exit(&mut self, frames: &mut Vec<Frame<'s>>) {
        let frame = frames.pop().expect("a frame to exit");
        self.gap(frame.last_end, frame.end);
        if frame.members {
            let members = self.members.pop().expect("the frame's members");
            self.finish_members(members);
        }
        if frames.is_empty() {
            // A last statement that attached to a next one that never came.
            self.finish_item();
        }
        if frame.opened {
            self.all(|s| s.close());
        }
        if frame.declaration {
            self.scopes.end_declaration();
        }
        // Forward scopes: the ones it holds pass on to its parent, or close; a waiting
        // one opens for the rest of its parent.
        let opens = |walker: &Self, parent: &Frame<'s>| {
            walker
                .spec
                .opens_forward(parent.info.name, frame.info.name, frame.field)
        };
        let pass = frame.forward > 0
            && frame.scopes == 0
            && frames.last().is_some_and(|parent| opens(self, parent));
        if pass {
            frames.last_mut().expect("a parent frame").forward += frame.forward;
        } else {
            for _ in 0..frame.forward {
                self.scopes.pop();
            }
        }
        for _ in 0..frame.scopes {
            self.scopes.pop();
        }
        if self.scopes.forward_waits() {
            if let Some(parent) = frames.last_mut() {
                if opens(self, parent) && self.scopes.open_forward() {
                    parent.forward += 1;
                }
            }
        }
        if frame.patch_root {
            self.patch();
        }
        let impure = !frame.info.function_like && (frame.impure || !frame.info.pure);
        // A declarator is as pure as its parts; a default-exported value as itself.
        let value_impure = if frame.info.block == Some(BlockKind::Const) {
            frame.impure
        } else {
            impure
        };
        if frame.check_purity && value_impure {
            if let Some(item) = self.item {
                self.item_impure[item] = true;
            }
        }
        if let Some(parent) = frames.last_mut() {
            parent.impure |= impure;
        }
        if let Some(block) = frame.block {
            self.finish_block(block);
        }
        if frame.item {
            self.end_item(frame.node);
        }
    }
}
