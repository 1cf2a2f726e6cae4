//! Entering and leaving a node: its field, binding context, block, scopes and
//! order-insensitive members on the way in; hashes, scopes and blocks closed on the
//! way out.

use tree_sitter::TreeCursor;

use super::parse::named_children;
use super::{Frame, Members, Walker, ALPHA};
use crate::hash::Kind;
use crate::lang::{BlockKind, Ctx, IdentKind, MemberKey, Naming, Role, ScopeKind, Site};
use crate::model::ParseErrorKind;

impl<'s> Walker<'s> {
    pub(super) fn enter(
        &mut self,
        frames: &mut Vec<Frame<'s>>,
        cursor: &mut TreeCursor<'s>,
    ) -> bool {
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

    pub(super) fn exit(&mut self, frames: &mut Vec<Frame<'s>>) {
        let frame = frames.pop().expect("a frame to exit");
        if frames.is_empty() {
            // A last statement that attached to a next one that never came takes in
            // what follows it (the file's trailing blank, comments): its record then
            // spans more than its node, so no later walk replays it for the node alone.
            if let Some(index) = self.item {
                self.extend_mark(index, frame.end);
            }
        }
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
