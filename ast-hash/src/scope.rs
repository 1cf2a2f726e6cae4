//! Local scopes and the deferred naming of the alpha stream.
//!
//! JavaScript hoists: `var` and function declarations are visible in their whole
//! scope, `let`/`const` in their whole block. A reference can therefore precede its
//! binding, and the walk cannot name an identifier when it meets it. Instead, inside
//! local scopes, the alpha stream gets a *placeholder* at the identifier's position;
//! when the outermost local scope closes, every binding is known and the placeholders
//! are filled in one splice ([`Scopes::patch`]). Hashing stays a single pass over the
//! tree. Order-insensitive containers are honoured only outside local scopes, so no
//! hash is ever taken over a placeholder.
//!
//! Deferring also lets a binding's uses decide how it is written: a local function
//! that only its binding reaches ([`Naming::IfObserved`]) is written by name only
//! when some use could read its `.name`, which is known once every use is.

use rustc_hash::FxHashMap;

use crate::hash::{Kind, Stream};
use crate::lang::{BindTarget, Naming, ScopeKind};

/// Index of a scope in the arena of the current outermost local scope.
pub(crate) type ScopeId = u32;

#[derive(Debug)]
struct Scope {
    parent: Option<ScopeId>,
    kind: ScopeKind,
    count: u32,
}

/// Who records a free name: the current top-level item.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Sink {
    pub(crate) item: Option<usize>,
}

/// How a reference uses its binding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Use {
    /// A function or class takes its name from it (`x = () => {}`): the binding's
    /// name is pinned.
    Names,
    /// The callee of a direct call (`f(..)`): the callee's `.name` stays unseen.
    Call,
    /// Anything else: the value may go anywhere, its `.name` may be read.
    Value,
}

/// What a binding's name depends on, for [`Scopes::patch`].
#[derive(Debug, Clone, Copy)]
struct Entry {
    /// The order in which its scope first bound the name.
    index: u32,
    /// Written by name whatever its uses.
    pinned: bool,
    /// Names a function only the binding reaches: written by name iff `observed`.
    names: bool,
    /// Some use other than a direct call was met.
    observed: bool,
    /// The index in `pending` from which references see it: 0 for a binding visible
    /// in its whole scope (hoisted), the end of its declaration for one declared
    /// before use ([`Scopes::end_declaration`]); `u32::MAX` while that declaration
    /// is still being walked.
    visible_from: u32,
}

impl Entry {
    fn keep(&self) -> bool {
        self.pinned || (self.names && self.observed)
    }
}

#[derive(Debug)]
enum What<'s> {
    /// A reference, and how it uses its binding.
    Ref { name: &'s str, how: Use },
    Bind {
        depth: u32,
        index: u32,
        scope: ScopeId,
        name: &'s str,
    },
}

#[derive(Debug)]
struct Pending<'s> {
    offset: usize,
    scope: ScopeId,
    kind: Kind,
    what: What<'s>,
    sink: Sink,
}

/// A binding site: the identifier's kind and name, where it binds, and whether it
/// names a function or class (which may pin its name).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Binding<'s> {
    pub(crate) kind: Kind,
    pub(crate) name: &'s str,
    pub(crate) target: BindTarget,
    pub(crate) naming: Naming,
}

/// Free names found while patching: (sink, name).
pub(crate) type FreeNames<'s> = Vec<(Sink, &'s str)>;

/// The scope stack and the pending placeholders of the current outermost local scope.
#[derive(Debug, Default)]
pub(crate) struct Scopes<'s> {
    arena: Vec<Scope>,
    stack: Vec<ScopeId>,
    /// FxHash: SipHash's DoS resistance buys nothing for these short keys and cost
    /// a third of the lookups.
    bindings: FxHashMap<(ScopeId, &'s str), Entry>,
    pending: Vec<Pending<'s>>,
    /// Set by `with` or a direct `eval`: names are then kept verbatim.
    pub(crate) poisoned: bool,
    /// Some binding is [`Naming::IfObserved`]: its uses must be looked at.
    if_observed: bool,
    /// `arguments` is used: a sloppy-mode function reaches itself through
    /// `arguments.callee`, so no function name is left to its uses.
    pub(crate) callee_visible: bool,
    /// Names of functions declared in nested blocks: in sloppy mode, running the
    /// block assigns its function to a same-named binding of the enclosing function
    /// (Annex B), which its calls then reach, so such a binding keeps its name.
    block_functions: Vec<&'s str>,
    /// [`ScopeKind::Forward`] scopes holding bindings but not open yet: (the depth of
    /// the stack when the first binding was made, the scope).
    forward: Vec<(usize, ScopeId)>,
    /// Where each declaration being walked whose names are visible only after it
    /// ([`crate::lang::KindInfo::declares_after`]) started, as an index in `pending`,
    /// and how many scopes were open then (bindings in scopes it opens, such as a
    /// function literal's parameters, are not its own).
    declarations: Vec<(u32, u32)>,
    base: usize,
    /// The alpha stream after `base` while it is patched, kept for the next scope.
    tail: Vec<u8>,
}

impl<'s> Scopes<'s> {
    /// Returns whether no local scope is open (declaration level).
    pub(crate) fn is_empty(&self) -> bool {
        self.stack.is_empty()
    }

    /// Opens a scope; `alpha_len` marks where patching will start if it is outermost.
    pub(crate) fn push(&mut self, kind: ScopeKind, alpha_len: usize) {
        if self.stack.is_empty() {
            self.base = alpha_len;
            self.poisoned = false;
            self.if_observed = false;
            self.callee_visible = false;
            self.block_functions.clear();
            self.forward.clear();
        }
        let id = self.arena.len() as ScopeId;
        self.arena.push(Scope {
            parent: self.stack.last().copied(),
            kind,
            count: 0,
        });
        self.stack.push(id);
    }

    /// Closes the innermost scope; returns true when it was the outermost one.
    pub(crate) fn pop(&mut self) -> bool {
        self.stack.pop();
        // A forward scope made under the closed scope can no longer open.
        while self
            .forward
            .last()
            .is_some_and(|(depth, _)| *depth > self.stack.len())
        {
            self.forward.pop();
        }
        self.stack.is_empty()
    }

    /// Returns whether some forward binding waits for its scope to open.
    pub(crate) fn forward_waits(&self) -> bool {
        self.forward
            .last()
            .is_some_and(|(depth, _)| *depth == self.stack.len())
    }

    /// Opens the waiting forward scope (see [`BindTarget::Forward`]); returns whether
    /// there was one.
    pub(crate) fn open_forward(&mut self) -> bool {
        if !self.forward_waits() {
            return false;
        }
        let (_, id) = self.forward.pop().expect("a waiting forward scope");
        self.stack.push(id);
        true
    }

    /// The forward scope a binding made now lands in, created on first use.
    fn forward_scope(&mut self) -> ScopeId {
        if let Some(&(depth, id)) = self.forward.last() {
            if depth == self.stack.len() {
                return id;
            }
        }
        let id = self.arena.len() as ScopeId;
        self.arena.push(Scope {
            parent: self.stack.last().copied(),
            kind: ScopeKind::Forward,
            count: 0,
        });
        self.forward.push((self.stack.len(), id));
        id
    }

    /// Records a reference at the current end of the alpha stream.
    pub(crate) fn reference(
        &mut self,
        alpha: &Stream,
        kind: Kind,
        name: &'s str,
        how: Use,
        sink: Sink,
    ) {
        let scope = *self.stack.last().expect("reference inside a scope");
        self.pending.push(Pending {
            offset: alpha.len(),
            scope,
            kind,
            what: What::Ref { name, how },
            sink,
        });
    }

    /// Records a binding; returns false when no local scope can hold it (the name is
    /// then a module-level declaration).
    pub(crate) fn bind(
        &mut self,
        alpha: &Stream,
        binding: Binding<'s>,
        skip_innermost: usize,
        sink: Sink,
    ) -> bool {
        let Binding {
            kind,
            name,
            target,
            naming,
        } = binding;
        if self.stack.is_empty() {
            return false;
        }
        let wanted = |scope: &Scope| match target {
            BindTarget::Var | BindTarget::Param | BindTarget::ParamKeepName => {
                scope.kind == ScopeKind::Function
            }
            BindTarget::OwnName => scope.kind == ScopeKind::Name,
            BindTarget::Lexical | BindTarget::DeclName | BindTarget::Assign => {
                !matches!(scope.kind, ScopeKind::Name | ScopeKind::Forward)
            }
            BindTarget::Forward => false,
        };
        let skip = if target == BindTarget::DeclName {
            skip_innermost
        } else {
            0
        };
        let found = if target == BindTarget::Forward {
            // Its own scope, not open yet: depth 0 from where it will be seen.
            Some((0, self.forward_scope()))
        } else {
            self.stack
                .iter()
                .rev()
                .enumerate()
                .skip(skip)
                .find(|(_, id)| wanted(&self.arena[**id as usize]))
                .map(|(depth, &id)| (depth, id))
        };
        let Some((depth, id)) = found else {
            return false;
        };
        let scope = &mut self.arena[id as usize];
        let naming = match naming {
            // A function declared in a block is, in sloppy mode, also a `var` of the
            // enclosing function (Annex B): uses outside the block reach it by a
            // resolution this walk does not model, so its uses here cannot tell.
            Naming::IfObserved
                if target == BindTarget::DeclName && scope.kind != ScopeKind::Function =>
            {
                self.block_functions.push(name);
                Naming::Always
            }
            naming => naming,
        };
        let declaring = self
            .declarations
            .last()
            .is_some_and(|&(_, depth)| depth as usize == self.stack.len());
        let entry = self.bindings.entry((id, name)).or_insert_with(|| {
            scope.count += 1;
            Entry {
                index: scope.count - 1,
                pinned: false,
                names: false,
                observed: false,
                visible_from: if declaring { u32::MAX } else { 0 },
            }
        });
        entry.pinned |= naming == Naming::Always || target == BindTarget::ParamKeepName;
        entry.names |= naming == Naming::IfObserved;
        self.if_observed |= naming == Naming::IfObserved;
        let index = entry.index;
        let innermost = *self.stack.last().expect("bind inside a scope");
        self.pending.push(Pending {
            offset: alpha.len(),
            scope: innermost,
            kind,
            what: What::Bind {
                depth: depth as u32,
                index,
                scope: id,
                name,
            },
            sink,
        });
        true
    }

    /// Starts a declaration whose names are visible only after it ends (Go's `x := x`
    /// reads the outer `x`): bindings it makes are not seen by references before
    /// [`Scopes::end_declaration`].
    pub(crate) fn begin_declaration(&mut self) {
        self.declarations
            .push((self.pending.len() as u32, self.stack.len() as u32));
    }

    /// Ends the innermost declaration started by [`Scopes::begin_declaration`]: the
    /// names it bound first are visible from here on.
    pub(crate) fn end_declaration(&mut self) {
        let Some((start, _)) = self.declarations.pop() else {
            return;
        };
        let here = self.pending.len() as u32;
        for p in &self.pending[start as usize..] {
            if let What::Bind { scope, name, .. } = p.what {
                if let Some(entry) = self.bindings.get_mut(&(scope, name)) {
                    if entry.visible_from == u32::MAX {
                        entry.visible_from = here;
                    }
                }
            }
        }
    }

    /// Fills the placeholders into the alpha stream (after the outermost scope closed)
    /// and returns the free names met; `marks` are alpha offsets to move along.
    pub(crate) fn patch(&mut self, alpha: &mut Stream, marks: &mut [usize]) -> FreeNames<'s> {
        let mut free = Vec::new();
        // The buffers are reused from scope to scope: one is patched per function.
        let mut tail = std::mem::take(&mut self.tail);
        tail.clear();
        tail.extend_from_slice(&alpha.buf[self.base..]);
        alpha.buf.truncate(self.base);
        let mut copied = 0;
        let mut inserted = 0;
        let mut next_mark = 0;
        let pending = std::mem::take(&mut self.pending);
        // First pin the names that functions or classes take from assignments, and
        // note which bindings some use other than a direct call reads.
        let uses_matter = self.if_observed && !self.callee_visible;
        for (at, p) in pending.iter().enumerate() {
            let What::Ref { name, how } = p.what else {
                continue;
            };
            if how == Use::Names || (how == Use::Value && uses_matter) {
                if let Some((scope, _, _)) = self.binding_of(p.scope, name, at) {
                    if let Some(entry) = self.bindings.get_mut(&(scope, name)) {
                        entry.pinned |= how == Use::Names;
                        entry.observed = true;
                    }
                }
            }
        }
        if self.callee_visible || !self.block_functions.is_empty() {
            for ((_, name), entry) in &mut self.bindings {
                entry.observed |= self.callee_visible || self.block_functions.contains(name);
            }
        }
        for (at, p) in pending.iter().enumerate() {
            let rel = p.offset - self.base;
            alpha.buf.extend_from_slice(&tail[copied..rel]);
            copied = rel;
            // A mark at this very offset was set after the placeholder: it moves too.
            while next_mark < marks.len() && marks[next_mark] < p.offset {
                if marks[next_mark] >= self.base {
                    marks[next_mark] += inserted;
                }
                next_mark += 1;
            }
            let before = alpha.len();
            match p.what {
                What::Bind {
                    depth,
                    index,
                    scope,
                    name,
                } => {
                    let keep = self.bindings.get(&(scope, name)).is_some_and(Entry::keep);
                    if keep || self.poisoned {
                        alpha.leaf(p.kind, name.as_bytes());
                    } else {
                        alpha.local(depth as usize, index as usize);
                    }
                }
                What::Ref { name, .. } => match self.resolve(p.scope, name, at) {
                    Some((depth, index, keep)) if !keep && !self.poisoned => {
                        alpha.local(depth, index)
                    }
                    Some(_) => alpha.leaf(p.kind, name.as_bytes()),
                    None => {
                        alpha.leaf(p.kind, name.as_bytes());
                        free.push((p.sink, name));
                    }
                },
            }
            inserted += alpha.len() - before;
        }
        alpha.buf.extend_from_slice(&tail[copied..]);
        for mark in &mut marks[next_mark..] {
            if *mark >= self.base {
                *mark += inserted;
            }
        }
        self.tail = tail;
        self.pending = pending;
        self.pending.clear();
        self.arena.clear();
        self.forward.clear();
        self.bindings.clear();
        self.poisoned = false;
        self.if_observed = false;
        self.callee_visible = false;
        self.block_functions.clear();
        self.declarations.clear();
        free
    }

    fn resolve(&self, scope: ScopeId, name: &str, at: usize) -> Option<(usize, usize, bool)> {
        self.binding_of(scope, name, at)
            .map(|(_, depth, entry)| (depth, entry.index as usize, entry.keep()))
    }

    /// The scope binding `name` as seen from `scope` by the pending entry `at`, how far
    /// up it is, and its entry.
    fn binding_of(
        &self,
        mut scope: ScopeId,
        name: &str,
        at: usize,
    ) -> Option<(ScopeId, usize, Entry)> {
        let mut depth = 0;
        loop {
            if let Some(&entry) = self.bindings.get(&(scope, name)) {
                if entry.visible_from as usize <= at {
                    return Some((scope, depth, entry));
                }
            }
            scope = self.arena[scope as usize].parent?;
            depth += 1;
        }
    }
}
