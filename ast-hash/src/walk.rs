//! The single pass over a syntax tree: block extraction and the three hashes.
//!
//! The walk emits three normalized token streams (exact, alpha, shape) in pre-order.
//! When a block ends, each stream's segment for it is hashed and replaced by the
//! digest (Merkle at block granularity), so an enclosing block hashes its members'
//! digests, never their tokens twice. Order-insensitive containers hash each member
//! segment and emit the digests in canonical order. See the crate docs for the format.

use std::cell::RefCell;
use std::sync::OnceLock;

use tree_sitter::{Node, Parser, TreeCursor};

use crate::hash::{digest, kind as kind_of, Domain, Hash128, Kind, Stream};
use crate::lang::{
    languages, BlockKind, Ctx, IdentKind, KindInfo, LanguageSpec, MemberKey, Role, ScopeKind, Site,
    TopLevelRole,
};
use crate::model::{
    Block, BlockHashes, Detail, FileAnalysis, Lines, ParseError, ParseErrorKind, TopItem,
};
use crate::scope::{Scopes, Sink};

const EXACT: usize = 0;
const ALPHA: usize = 1;
const SHAPE: usize = 2;
const DOMAINS: [Domain; 3] = [Domain::Exact, Domain::Alpha, Domain::Shape];

/// Markers of comments that tools act on (JSX pragmas, bundler annotations, type
/// checker directives, source maps): changing one is not a comment edit.
const PRAGMAS: &[&str] = &[
    "@jsx",
    "__PURE__",
    "__NO_SIDE_EFFECTS__",
    "__INLINE__",
    "webpack",
    "@vite-ignore",
    "@ts-",
    "@flow",
    "sourceMappingURL",
    "@license",
    "@preserve",
    "@refresh",
    "prettier-ignore",
];

/// Facts of the `ERROR` pseudo-kind (its id is outside the grammar's table).
const ERROR_INFO: KindInfo = KindInfo {
    name: "ERROR",
    role: Role::Node,
    scope: None,
    block: None,
    decl_container: false,
    unordered: false,
    pattern: false,
    binds_children: false,
    pure: false,
    function_like: false,
    own_name: false,
};

fn kind_table(spec: &'static dyn LanguageSpec) -> &'static [(KindInfo, Kind)] {
    static TABLES: OnceLock<Vec<(&'static str, Vec<(KindInfo, Kind)>)>> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        languages()
            .iter()
            .map(|lang| {
                let grammar = lang.spec.grammar();
                let infos = (0..grammar.node_kind_count() as u16)
                    .map(|id| {
                        let name = grammar.node_kind_for_id(id).unwrap_or("");
                        (
                            lang.spec.kind_info(name, grammar.node_kind_is_named(id)),
                            kind_of(name),
                        )
                    })
                    .collect();
                (lang.spec.name(), infos)
            })
            .collect()
    });
    tables
        .iter()
        .find(|(name, _)| *name == spec.name())
        .map(|(_, infos)| infos.as_slice())
        .unwrap_or(&[])
}

thread_local! {
    static PARSERS: RefCell<Vec<(&'static str, Parser)>> = const { RefCell::new(Vec::new()) };
}

/// Parses `text`; `None` only if tree-sitter gives up (it does not without a timeout).
pub(crate) fn parse(spec: &'static dyn LanguageSpec, text: &str) -> Option<tree_sitter::Tree> {
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
        parsers[index].1.parse(text, None)
    })
}

/// Analyzes one file with a grammar.
pub(crate) fn analyze_with(
    spec: &'static dyn LanguageSpec,
    path: &str,
    text: &str,
) -> FileAnalysis {
    let mut analysis = FileAnalysis {
        path: path.to_string(),
        language: Some(spec.name()),
        blocks: Vec::new(),
        errors: Vec::new(),
        hashes: None,
        text: text.to_string(),
        detail: Detail::default(),
    };
    let Some(tree) = parse(spec, text) else {
        analysis.errors.push(ParseError {
            line: 1,
            column: 1,
            kind: ParseErrorKind::Unexpected,
            text: "the parser gave up".to_string(),
        });
        analysis.detail.error_signatures.push("gave-up".to_string());
        return analysis;
    };
    let mut walker = Walker::new(spec, text);
    walker.run(tree.root_node());
    walker.finish(&mut analysis);
    analysis
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
    info: KindInfo,
    ctx: Ctx,
    field: Option<&'static str>,
    opened: bool,
    block: Option<usize>,
    scopes: u8,
    patch_root: bool,
    members: Option<Members>,
    decl_children: bool,
    item: bool,
    check_purity: bool,
    last_end: usize,
    impure: bool,
}

struct Walker<'s> {
    spec: &'static dyn LanguageSpec,
    infos: &'static [(KindInfo, Kind)],
    /// Hashed kinds the walk emits by itself.
    k_error: Kind,
    k_string: Kind,
    k_identifier: Kind,
    src: &'s str,
    streams: [Stream; 3],
    scopes: Scopes<'s>,
    blocks: Vec<Block>,
    block_starts: Vec<[usize; 3]>,
    block_marks: Vec<Option<usize>>,
    block_default: Vec<bool>,
    pending_marks: Vec<(usize, usize)>,
    items: Vec<TopItem>,
    item_starts: Vec<[usize; 3]>,
    item_impure: Vec<bool>,
    item_free: Vec<Vec<&'s str>>,
    item_declared: Vec<Vec<&'s str>>,
    item: Option<usize>,
    errors: Vec<ParseError>,
    error_signatures: Vec<String>,
    comments: Vec<&'s str>,
    /// Whether the tree has any error (else no node needs an `is_missing` check).
    has_error: bool,
    scratch: String,
    item_layout: Vec<usize>,
    item_order: Vec<usize>,
    order: Vec<u8>,
    layout: Vec<u8>,
}

fn squeeze(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

impl<'s> Walker<'s> {
    fn new(spec: &'static dyn LanguageSpec, src: &'s str) -> Self {
        let capacity = src.len() * 2;
        Walker {
            spec,
            infos: kind_table(spec),
            k_error: kind_of("ERROR"),
            k_string: kind_of("string"),
            k_identifier: kind_of("identifier"),
            src,
            streams: std::array::from_fn(|_| Stream {
                buf: Vec::with_capacity(capacity),
            }),
            scopes: Scopes::default(),
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
            item: None,
            errors: Vec::new(),
            error_signatures: Vec::new(),
            comments: Vec::new(),
            has_error: true,
            scratch: String::new(),
            item_layout: Vec::new(),
            item_order: Vec::new(),
            order: Vec::new(),
            layout: Vec::with_capacity(src.len() / 2),
        }
    }

    fn text(&self, node: Node<'_>) -> &'s str {
        &self.src[node.byte_range()]
    }

    fn info_of(&self, node: Node<'_>) -> (KindInfo, Kind) {
        // ERROR's id (u16::MAX) is outside the table.
        match self.infos.get(node.kind_id() as usize) {
            Some(entry) => *entry,
            None => (ERROR_INFO, self.k_error),
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
                descend = self.enter(&mut frames, &cursor);
                continue;
            }
            loop {
                if cursor.goto_next_sibling() {
                    descend = self.enter(&mut frames, &cursor);
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
            patch_root: false,
            members: None,
            decl_children: true,
            item: false,
            check_purity: false,
            last_end: root.start_byte(),
            impure: false,
        }
    }

    fn gap(&mut self, from: usize, to: usize) {
        if to <= from {
            return;
        }
        let text = &self.src[from..to];
        if text.trim().is_empty() {
            self.layout.extend_from_slice(text.as_bytes());
        } else {
            // Text no node covers: keep it rather than lose it.
            let trimmed = text.trim().as_bytes();
            self.all(|s| s.text(trimmed));
        }
    }

    fn enter(&mut self, frames: &mut Vec<Frame<'s>>, cursor: &TreeCursor<'s>) -> bool {
        let node = cursor.node();
        let (info, k) = self.info_of(node);
        let parent = frames.last_mut().expect("a parent frame");
        let gap_from = parent.last_end;
        parent.last_end = parent.last_end.max(node.end_byte());
        self.gap(gap_from, node.start_byte());
        match info.role {
            Role::Comment => {
                self.comments.push(self.text(node));
                return false;
            }
            Role::Skip => return false,
            Role::Punct if !(self.has_error && node.is_missing()) => {
                self.layout.extend_from_slice(info.name.as_bytes());
                return false;
            }
            _ => {}
        }
        let missing = self.has_error && node.is_missing();
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
        if let Some(members) = &mut frames.last_mut().expect("a parent frame").members {
            let key = self.spec.member_key(parent_node, node, self.src);
            let here = [
                self.streams[0].len(),
                self.streams[1].len(),
                self.streams[2].len(),
                self.layout.len(),
            ];
            if key == MemberKey::AttachToNext {
                members.attach.get_or_insert(here);
            } else {
                let start = members.attach.take().unwrap_or(here);
                members.entries.push((key, start));
            }
        }
        if top {
            self.start_item(node);
        }
        if missing {
            self.error(node, ParseErrorKind::Missing);
            let missing = kind_of("MISSING");
            let kind = node.kind().as_bytes();
            self.all(|s| s.leaf(missing, kind));
            if top {
                self.finish_item();
            }
            return false;
        }
        if info.name == "ERROR" {
            self.error(node, ParseErrorKind::Unexpected);
        }
        let field = if named { cursor.field_name() } else { None };
        let ctx = if named && parent_info.binds_children {
            let site = Site {
                node,
                kind: info.name,
                parent: parent_node,
                parent_kind: parent_info.name,
                parent_ctx,
                field,
            };
            self.spec.context(&site, self.src)
        } else {
            Ctx::Normal
        };
        let leaf = match info.role {
            Role::Token | Role::Ident(_) | Role::Literal | Role::Str | Role::JsxText => true,
            _ => node.child_count() == 0,
        };
        if leaf {
            let wrappers: &[&str] =
                if field == Some("parameter") && parent_info.name == "arrow_function" {
                    self.spec.bare_param_wrappers()
                } else {
                    &[]
                };
            for wrapper in wrappers {
                let wrapper = kind_of(wrapper);
                self.all(|s| s.open(wrapper));
            }
            let pure = self.leaf(node, info, k, ctx, parent_scopes, parent_info.name);
            for _ in wrappers {
                self.all(|s| s.close());
            }
            frames.last_mut().expect("a parent frame").impure |= !pure;
            if top {
                self.finish_item();
            }
            return false;
        }
        let transparent = info.role == Role::Wrapper
            && !self.spec.keep_parens(parent_info.name, field)
            && node
                .named_children(&mut node.walk())
                .filter(|c| !c.is_extra())
                .count()
                <= 1;
        let mut block = None;
        if decl_level && self.scopes.is_empty() {
            if let Some(kind) = info.block {
                if let Some((name, kind)) = self.spec.block_name(node, parent_node, kind, self.src)
                {
                    block = Some(self.start_block(frames, node, kind, name));
                }
            }
        }
        if field == Some("body") && matches!(info.name, "statement_block" | "class_body") {
            self.mark_signature(frames);
        }
        let namespace_body = info.name == "statement_block"
            && parent_block.is_some_and(|b| self.blocks[b].kind == BlockKind::Namespace);
        let decl_children = decl_level
            && info.decl_container
            && self.scopes.is_empty()
            && (info.name != "statement_block" || namespace_body);
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
        if info.own_name && node.child_by_field_name("name").is_some() {
            push(self, ScopeKind::Name);
        }
        match info.scope {
            Some(ScopeKind::Function) => push(self, ScopeKind::Function),
            Some(ScopeKind::Block)
                if !(parent_info.function_like && field == Some("body")) && !namespace_body =>
            {
                push(self, ScopeKind::Block)
            }
            _ => {}
        }
        if info.name == "with_statement" {
            self.scopes.poisoned = true;
        }
        let members = (info.unordered && self.scopes.is_empty()).then(|| Members {
            entries: Vec::new(),
            attach: None,
        });
        let check_purity = decl_level
            && (info.name == "variable_declarator"
                || (parent_info.name == "export_statement" && field == Some("value")));
        frames.push(Frame {
            node,
            info,
            ctx,
            field,
            opened: !transparent,
            block,
            scopes,
            patch_root,
            members,
            decl_children,
            item: top,
            check_purity,
            last_end: node.start_byte(),
            impure: false,
        });
        true
    }

    fn exit(&mut self, frames: &mut Vec<Frame<'s>>) {
        let frame = frames.pop().expect("a frame to exit");
        self.gap(frame.last_end, frame.node.end_byte());
        if let Some(members) = frame.members {
            self.finish_members(members);
        }
        if frame.opened {
            self.all(|s| s.close());
        }
        for _ in 0..frame.scopes {
            self.scopes.pop();
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
            self.finish_item();
        }
    }

    /// Emits a leaf; returns whether evaluating it runs no code.
    fn leaf(
        &mut self,
        node: Node<'s>,
        info: KindInfo,
        k: Kind,
        ctx: Ctx,
        parent_scopes: u8,
        parent_kind: &str,
    ) -> bool {
        let text = self.text(node);
        match info.role {
            Role::Token => {
                self.all(|s| s.token(k));
                true
            }
            Role::Literal => {
                self.literal(k, text.as_bytes());
                true
            }
            Role::Str => {
                let mut cooked = std::mem::take(&mut self.scratch);
                self.cook(node, parent_kind == "jsx_attribute", &mut cooked);
                self.literal(self.k_string, cooked.as_bytes());
                cooked.clear();
                self.scratch = cooked;
                true
            }
            Role::JsxText => {
                let rendered = jsx_text(text);
                if !rendered.is_empty() {
                    self.literal(k, rendered.as_bytes());
                }
                self.layout.extend_from_slice(text.as_bytes());
                true
            }
            Role::Ident(kind) => self.ident(kind, ctx, k, text, parent_scopes),
            _ => {
                self.all(|s| s.leaf(k, text.as_bytes()));
                info.pure
            }
        }
    }

    fn literal(&mut self, kind: Kind, text: &[u8]) {
        self.streams[EXACT].leaf(kind, text);
        self.streams[ALPHA].leaf(kind, text);
        self.streams[SHAPE].abstract_leaf(kind);
    }

    /// The content of a string literal: quotes dropped, `\'` and `\"` unescaped (not in
    /// JSX attributes, where backslashes are literal).
    fn cook(&mut self, node: Node<'s>, raw: bool, out: &mut String) {
        let mut covered = 0;
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            let text = self.text(child);
            covered += text.len();
            match self.info_of(child).0.role {
                Role::Punct | Role::Token => self.layout.extend_from_slice(text.as_bytes()),
                _ if !raw && text == "\\'" => out.push('\''),
                _ if !raw && text == "\\\"" => out.push('"'),
                _ => out.push_str(text),
            }
        }
        if covered != node.byte_range().len() {
            // Some text is not in any child: hash the literal verbatim.
            out.clear();
            out.push_str(self.text(node));
        }
    }

    fn ident(
        &mut self,
        kind: IdentKind,
        ctx: Ctx,
        kind_name: Kind,
        name: &'s str,
        parent_scopes: u8,
    ) -> bool {
        self.streams[EXACT].leaf(kind_name, name.as_bytes());
        self.streams[SHAPE].abstract_leaf(kind_name);
        let binds = |ctx: Ctx| match ctx {
            Ctx::Bind(target) if target != crate::lang::BindTarget::Assign => Some(target),
            _ => None,
        };
        match kind {
            IdentKind::Property | IdentKind::Label => {
                self.streams[ALPHA].leaf(kind_name, name.as_bytes());
                true
            }
            IdentKind::Type | IdentKind::Variable if ctx == Ctx::Literal => {
                self.streams[ALPHA].leaf(kind_name, name.as_bytes());
                true
            }
            IdentKind::Type | IdentKind::Variable => match binds(ctx) {
                Some(target) => {
                    self.bind(kind_name, name, target, parent_scopes);
                    true
                }
                None if kind == IdentKind::Type => {
                    self.streams[ALPHA].leaf(kind_name, name.as_bytes());
                    self.record_free(self.sink(), name);
                    true
                }
                None => {
                    self.reference(kind_name, name);
                    false
                }
            },
            IdentKind::ShorthandRef => {
                self.streams[ALPHA].leaf(kind_name, name.as_bytes());
                self.reference(self.k_identifier, name);
                false
            }
            IdentKind::ShorthandPattern => {
                self.streams[ALPHA].leaf(kind_name, name.as_bytes());
                match binds(ctx) {
                    Some(target) => {
                        self.bind(self.k_identifier, name, target, parent_scopes);
                        true
                    }
                    None => {
                        self.reference(self.k_identifier, name);
                        false
                    }
                }
            }
        }
    }

    fn reference(&mut self, kind_name: Kind, name: &'s str) {
        if name == "eval" {
            self.scopes.poisoned = true;
        }
        if self.scopes.is_empty() {
            self.streams[ALPHA].leaf(kind_name, name.as_bytes());
            self.record_free(self.sink(), name);
        } else {
            let sink = self.sink();
            self.scopes
                .reference(&self.streams[ALPHA], kind_name, name, sink);
        }
    }

    fn bind(
        &mut self,
        kind_name: Kind,
        name: &'s str,
        target: crate::lang::BindTarget,
        parent_scopes: u8,
    ) {
        let sink = self.sink();
        let bound = !self.scopes.is_empty()
            && self.scopes.bind(
                &self.streams[ALPHA],
                kind_name,
                name,
                target,
                parent_scopes as usize,
                sink,
            );
        if !bound {
            // A module-level declaration: kept by name.
            self.streams[ALPHA].leaf(kind_name, name.as_bytes());
            if let Some(item) = self.item {
                self.item_declared[item].push(name);
            }
        }
    }

    fn record_free(&mut self, sink: Sink, name: &'s str) {
        if let Some(item) = sink.item {
            self.item_free[item].push(name);
        }
    }

    fn patch(&mut self) {
        let mut marks: Vec<usize> = self
            .pending_marks
            .iter()
            .map(|(_, offset)| *offset)
            .collect();
        let free = self.scopes.patch(&mut self.streams[ALPHA], &mut marks);
        for ((block, _), mark) in self.pending_marks.drain(..).zip(marks) {
            self.block_marks[block] = Some(mark);
        }
        for (sink, name) in free {
            self.record_free(sink, name);
        }
    }

    fn error(&mut self, node: Node<'s>, kind: ParseErrorKind) {
        let position = node.start_position();
        let (text, signature) = match kind {
            ParseErrorKind::Missing => {
                (node.kind().to_string(), format!("missing {}", node.kind()))
            }
            ParseErrorKind::Unexpected => {
                let squeezed = squeeze(self.text(node));
                (clip(&squeezed, 60), format!("unexpected {squeezed}"))
            }
        };
        self.errors.push(ParseError {
            line: position.row as u32 + 1,
            column: position.column as u32 + 1,
            kind,
            text,
        });
        self.error_signatures.push(signature);
    }

    fn start_item(&mut self, node: Node<'s>) {
        let role = if node.is_named() && !node.is_error() {
            self.spec.top_level_role(node, self.src)
        } else {
            TopLevelRole::Barrier
        };
        let import = if role == TopLevelRole::Import {
            self.spec.import_bindings(node, self.src)
        } else {
            None
        };
        let reexport_all = self.spec.reexport_all(node, self.src);
        let module_syntax = self.spec.is_module_syntax(node);
        self.item = Some(self.items.len());
        self.items.push(TopItem {
            role,
            hashes: zero_hashes(),
            blocks: Vec::new(),
            declared: Vec::new(),
            exports: Vec::new(),
            free: Vec::new(),
            import,
            reexport_all,
            module_syntax,
            layout: Hash128::default(),
            order: Hash128::default(),
            lines: lines_of(node),
        });
        self.item_starts.push(self.offsets());
        self.item_layout.push(self.layout.len());
        self.item_order.push(self.order.len());
        self.item_impure.push(false);
        self.item_free.push(Vec::new());
        self.item_declared.push(Vec::new());
    }

    fn finish_item(&mut self) {
        let Some(index) = self.item.take() else {
            return;
        };
        let hashes = self.collapse(self.item_starts[index]);
        let layout = digest(Domain::Aux, &self.layout[self.item_layout[index]..]);
        let order = digest(Domain::Aux, &self.order[self.item_order[index]..]);
        let item = &mut self.items[index];
        item.hashes = hashes;
        item.layout = layout;
        item.order = order;
        if item.role == TopLevelRole::Pure && self.item_impure[index] {
            item.role = TopLevelRole::Barrier;
        }
    }

    /// Hashes each stream from `start`, truncates, and emits the digests in place.
    fn collapse(&mut self, start: [usize; 3]) -> BlockHashes {
        let mut out = [Hash128::default(); 3];
        for (i, stream) in self.streams.iter_mut().enumerate() {
            out[i] = stream.hash_from(DOMAINS[i], start[i]);
            stream.truncate(start[i]);
            stream.digest(out[i]);
        }
        BlockHashes {
            exact: out[EXACT],
            alpha: out[ALPHA],
            shape: out[SHAPE],
        }
    }

    fn start_block(
        &mut self,
        frames: &[Frame<'s>],
        node: Node<'s>,
        kind: BlockKind,
        name: String,
    ) -> usize {
        let parent = frames.iter().rev().find_map(|f| f.block);
        // Wrappers are the enclosing frames: for a declarator, above its declaration.
        let mut up = frames.iter().rev();
        let mut keyword = None;
        if kind_is_declarator(kind) {
            keyword = Some(kind.as_str());
            up.next();
        }
        let mut export = false;
        let mut default = false;
        let mut declare = false;
        for frame in up.take(2) {
            match frame.info.name {
                "export_statement" => {
                    export = true;
                    let mut cursor = frame.node.walk();
                    default = frame
                        .node
                        .children(&mut cursor)
                        .any(|c| c.kind() == "default");
                }
                "ambient_declaration" => declare = true,
                _ => break,
            }
        }
        let (qualified_name, exported) = match parent {
            Some(p) => {
                let parent_block = &self.blocks[p];
                let member = matches!(parent_block.kind, BlockKind::Class | BlockKind::Interface);
                let exported = parent_block.exported
                    && if member {
                        !self.spec.is_private_member(node, self.src)
                    } else {
                        export || declare
                    };
                (
                    format!("{}.{}", parent_block.qualified_name, name),
                    exported,
                )
            }
            None => (name.clone(), export || declare),
        };
        let start = self.offsets();
        for token in [
            declare.then_some("declare"),
            export.then_some("export"),
            default.then_some("default"),
            keyword,
        ]
        .into_iter()
        .flatten()
        {
            let token = kind_of(token);
            self.all(|s| s.token(token));
        }
        let index = self.blocks.len();
        self.blocks.push(Block {
            kind,
            name,
            qualified_name,
            byte_range: node.byte_range(),
            lines: lines_of(node),
            parent,
            exported,
            hashes: zero_hashes(),
            signature: Hash128::default(),
        });
        self.block_starts.push(start);
        self.block_marks.push(None);
        self.block_default.push(default);
        index
    }

    fn mark_signature(&mut self, frames: &[Frame<'s>]) {
        let owner = match frames {
            [.., grand, parent]
                if parent.block.is_none()
                    && parent.info.function_like
                    && parent.field == Some("value") =>
            {
                grand.block
            }
            [.., parent] => parent.block,
            [] => None,
        };
        let Some(block) = owner else { return };
        if self.block_marks[block].is_some() || self.pending_marks.iter().any(|(b, _)| *b == block)
        {
            return;
        }
        let offset = self.streams[ALPHA].len();
        if self.scopes.is_empty() {
            self.block_marks[block] = Some(offset);
        } else {
            self.pending_marks.push((block, offset));
        }
    }

    fn finish_block(&mut self, index: usize) {
        let start = self.block_starts[index];
        let signature = self.block_marks[index]
            .map(|mark| digest(Domain::Alpha, &self.streams[ALPHA].buf[start[ALPHA]..mark]));
        let hashes = self.collapse(start);
        let block = &mut self.blocks[index];
        block.hashes = hashes;
        block.signature = signature.unwrap_or(hashes.alpha);
        if block.parent.is_none() {
            if let Some(item) = self.item {
                self.items[item].blocks.push(index);
            }
        }
    }

    /// Replaces the members of an order-insensitive container by their digests in
    /// canonical order: by name (stable) in `exact` and `alpha`, by digest in `shape`.
    fn finish_members(&mut self, members: Members) {
        let Members { entries, .. } = members;
        if entries.is_empty() {
            return;
        }
        fn group(key: &MemberKey) -> (u8, &str) {
            match key {
                MemberKey::Ordered | MemberKey::AttachToNext => (0, ""),
                MemberKey::Unnamed => (1, ""),
                MemberKey::Named(name) | MemberKey::Accessor { name, .. } => (2, name.as_str()),
            }
        }
        // A name held by exactly one getter and one setter: their order is free.
        let mut per_name: std::collections::HashMap<&str, (u32, u32, u32)> =
            std::collections::HashMap::new();
        for (key, _) in &entries {
            match key {
                MemberKey::Named(name) => per_name.entry(name).or_default().0 += 1,
                MemberKey::Accessor { name, setter } => {
                    let entry = per_name.entry(name).or_default();
                    entry.0 += 1;
                    if *setter {
                        entry.2 += 1;
                    } else {
                        entry.1 += 1;
                    }
                }
                _ => {}
            }
        }
        let tiebreak = |i: usize| match &entries[i].0 {
            MemberKey::Accessor { name, setter }
                if per_name.get(name.as_str()) == Some(&(2, 1, 1)) =>
            {
                usize::from(*setter)
            }
            _ => i + 2,
        };
        let mut exact_in_source_order = Vec::new();
        for (s, stream) in self.streams.iter_mut().enumerate() {
            let digests: Vec<Hash128> = (0..entries.len())
                .map(|i| {
                    let end = entries
                        .get(i + 1)
                        .map_or(stream.len(), |(_, start)| start[s]);
                    digest(DOMAINS[s], &stream.buf[entries[i].1[s]..end])
                })
                .collect();
            let mut order: Vec<usize> = (0..entries.len()).collect();
            if s == SHAPE {
                order.sort_by_key(|&i| digests[i]);
            } else {
                order.sort_by(|&a, &b| {
                    group(&entries[a].0)
                        .cmp(&group(&entries[b].0))
                        .then(tiebreak(a).cmp(&tiebreak(b)))
                });
            }
            stream.truncate(entries[0].1[s]);
            stream.unordered(entries.len());
            for i in order {
                stream.digest(digests[i]);
            }
            if s == EXACT {
                exact_in_source_order = digests;
            }
        }
        // The source order goes to the order digest (to report a reorder); the layout
        // becomes order-free like the streams (a reorder is not a reformat).
        for hash in exact_in_source_order {
            self.order.extend_from_slice(&hash.0);
        }
        let mut layouts: Vec<Hash128> = (0..entries.len())
            .map(|i| {
                let end = entries
                    .get(i + 1)
                    .map_or(self.layout.len(), |(_, start)| start[3]);
                digest(Domain::Aux, &self.layout[entries[i].1[3]..end])
            })
            .collect();
        layouts.sort();
        self.layout.truncate(entries[0].1[3]);
        for hash in layouts {
            self.layout.extend_from_slice(&hash.0);
        }
    }

    fn finish(self, analysis: &mut FileAnalysis) {
        let streams = self.streams;
        analysis.hashes = Some(BlockHashes {
            exact: streams[EXACT].hash_from(Domain::Exact, 0),
            alpha: streams[ALPHA].hash_from(Domain::Alpha, 0),
            shape: streams[SHAPE].hash_from(Domain::Shape, 0),
        });
        let owned = |names: Vec<&str>| {
            let mut names: Vec<String> = names.into_iter().map(str::to_string).collect();
            names.sort();
            names.dedup();
            names
        };
        let mut items = self.items;
        for ((item, free), declared) in items.iter_mut().zip(self.item_free).zip(self.item_declared)
        {
            item.free = owned(free);
            item.declared = owned(declared);
            for &block in &item.blocks {
                let block_info = &self.blocks[block];
                item.declared.push(block_info.name.clone());
                if block_info.exported {
                    item.exports.push(block_info.name.clone());
                }
                if self.block_default[block] {
                    item.exports.push("default".to_string());
                }
            }
            item.declared.sort();
            item.declared.dedup();
        }
        analysis.detail = Detail {
            items,
            pragmas: {
                let mut pragmas: Vec<String> = self
                    .comments
                    .iter()
                    .filter(|c| PRAGMAS.iter().any(|p| c.contains(p)))
                    .map(|c| squeeze(c))
                    .collect();
                pragmas.sort();
                pragmas
            },
            comments: {
                // A multiset: moving a commented declaration does not change comments.
                let mut comments = self.comments;
                comments.sort_unstable();
                let mut bytes = Vec::new();
                for comment in comments {
                    bytes.extend_from_slice(&(comment.len() as u64).to_le_bytes());
                    bytes.extend_from_slice(comment.as_bytes());
                }
                digest(Domain::Aux, &bytes)
            },
            layout: digest(Domain::Aux, &self.layout),
            error_signatures: self.error_signatures,
        };
        analysis.blocks = self.blocks;
        analysis.errors = self.errors;
    }
}

/// The text React renders for a JSX text child (Babel's `cleanJSXElementLiteralChild`):
/// tabs become spaces, lines are trimmed (except the outer ends of the first and last
/// line), blank lines dropped, and the rest joined with single spaces.
pub(crate) fn jsx_text(text: &str) -> String {
    let lines: Vec<&str> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let last_non_empty = lines
        .iter()
        .rposition(|l| l.chars().any(|c| c != ' ' && c != '\t'));
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        let mut line = line.replace('\t', " ");
        if i != 0 {
            line = line.trim_start_matches(' ').to_string();
        }
        if i != lines.len() - 1 {
            line = line.trim_end_matches(' ').to_string();
        }
        if !line.is_empty() {
            out.push_str(&line);
            if Some(i) != last_non_empty {
                out.push(' ');
            }
        }
    }
    out
}

fn kind_is_declarator(kind: BlockKind) -> bool {
    matches!(kind, BlockKind::Const | BlockKind::Let | BlockKind::Var)
}

fn zero_hashes() -> BlockHashes {
    BlockHashes {
        exact: Hash128::default(),
        alpha: Hash128::default(),
        shape: Hash128::default(),
    }
}

fn lines_of(node: Node<'_>) -> Lines {
    Lines {
        start: node.start_position().row as u32 + 1,
        end: node.end_position().row as u32 + 1,
    }
}
