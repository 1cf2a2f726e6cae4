//! Collecting what the walk finds: top-level items, blocks, order-insensitive
//! members, and the final analysis.

use std::borrow::Cow;

use tree_sitter::Node;

use super::emit::squeeze;
use super::{give_buffer, Frame, Members, Memo, Walker, ALPHA, DOMAINS, EXACT, SHAPE};
use crate::hash::{digest, Domain, Hash128};
use crate::lang::{BlockKind, MemberKey, TopLevelRole};
use crate::model::{Block, BlockHashes, Detail, FileAnalysis, Lines, TopItem};

impl<'s> Walker<'s> {
    pub(super) fn start_item(&mut self, node: Node<'s>) {
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
        let item = TopItem {
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
        };
        self.open_item(node, item, Vec::new(), Vec::new());
    }

    /// Adds top-level statement `item` (of `node`) and the walk's per-statement
    /// state, before anything inside it; walked or replayed alike.
    pub(super) fn open_item(
        &mut self,
        node: Node<'s>,
        item: TopItem,
        free: Vec<Cow<'s, str>>,
        declared: Vec<Cow<'s, str>>,
    ) {
        self.mark_item(node);
        self.items.push(item);
        self.item_starts.push(self.offsets());
        self.item_layout.push(self.layout.len());
        self.item_order.push(self.order.len());
        self.item_impure.push(false);
        self.item_free.push(free);
        self.item_declared.push(declared);
    }

    /// Adds `node` to the open top-level statement, which attached to it
    /// ([`crate::lang::LanguageSpec::attaches_to_next`]): the statement is then what
    /// `node` is (its role, its import).
    pub(super) fn join_item(&mut self, node: Node<'s>) {
        let Some(index) = self.item else {
            return;
        };
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
        let item = &mut self.items[index];
        item.role = role;
        item.import = import;
        item.reexport_all = reexport_all;
        item.module_syntax |= module_syntax;
        item.lines.end = lines_of(node).end;
        self.extend_mark(index, node.end_byte());
    }

    /// Ends top-level statement `node`: finishes its item unless it attaches to the
    /// next statement.
    pub(super) fn end_item(&mut self, node: Node<'s>) {
        if !self.spec.attaches_to_next(node, self.src) {
            self.finish_item();
        }
    }

    pub(super) fn finish_item(&mut self) {
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
        self.remember_item(index);
    }

    /// Hashes each stream from `start`, truncates, and emits the digests in place.
    pub(super) fn collapse(&mut self, start: [usize; 3]) -> BlockHashes {
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

    pub(super) fn start_block(
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
            keyword = Some(self.k.keyword(kind));
            up.next();
        }
        let mut export = false;
        let mut default = false;
        let mut declare = false;
        for frame in up.take(2) {
            if frame.info.export_wrapper {
                export = true;
                // An export statement has a handful of children: indexing them is
                // cheaper than a cursor (an allocation).
                let node = frame.node;
                default = (0..node.child_count() as u32)
                    .map_while(|i| node.child(i))
                    .any(|c| self.info_of(c).0.default_marker);
            } else if frame.info.ambient_wrapper {
                declare = true;
            } else {
                break;
            }
        }
        // Languages without export statements say what is API by the declaration.
        if let Some(by_itself) = self.spec.exported_by_itself(node, &name, self.src) {
            export = by_itself;
        }
        let (qualified_name, exported) = match parent {
            Some(p) => {
                let parent_block = &self.blocks[p];
                let member = matches!(
                    parent_block.kind,
                    BlockKind::Class | BlockKind::Interface | BlockKind::Impl | BlockKind::Trait
                );
                let exported = parent_block.exported
                    && if member {
                        !self.spec.is_private_member(node, self.src)
                    } else {
                        export || declare
                    };
                let parent_name = &parent_block.qualified_name;
                let mut qualified = String::with_capacity(parent_name.len() + 1 + name.len());
                qualified.push_str(parent_name);
                qualified.push('.');
                qualified.push_str(&name);
                (qualified, exported)
            }
            None => (name.clone(), export || declare),
        };
        let start = self.offsets();
        let k = self.k;
        for token in [
            declare.then_some(k.declare),
            export.then_some(k.export),
            default.then_some(k.default),
            keyword,
        ]
        .into_iter()
        .flatten()
        {
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

    pub(super) fn mark_signature(&mut self, frames: &[Frame<'s>]) {
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

    pub(super) fn finish_block(&mut self, index: usize) {
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
    pub(super) fn finish_members(&mut self, members: Members) {
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

    /// Completes `analysis`; returns what each top-level statement added, when
    /// recorded.
    pub(super) fn finish(self, analysis: &mut FileAnalysis) -> Option<Memo> {
        let streams = self.streams;
        analysis.hashes = Some(BlockHashes {
            exact: streams[EXACT].hash_from(Domain::Exact, 0),
            alpha: streams[ALPHA].hash_from(Domain::Alpha, 0),
            shape: streams[SHAPE].hash_from(Domain::Shape, 0),
        });
        for stream in streams {
            give_buffer(stream.buf);
        }
        let owned = |names: Vec<Cow<'_, str>>| {
            let mut names: Vec<String> = names.into_iter().map(Cow::into_owned).collect();
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
                let markers = self.spec.pragmas();
                let mut pragmas: Vec<String> = self
                    .comments
                    .iter()
                    .filter(|c| markers.iter().any(|p| c.contains(p)))
                    .chain(&self.code_comments)
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
        give_buffer(self.layout);
        analysis.blocks = self.blocks;
        analysis.errors = self.errors;
        self.memo
    }
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
