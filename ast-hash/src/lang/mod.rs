//! Languages: one [`LanguageSpec`] per grammar, each behind a cargo feature.
//!
//! The hashing walk ([`crate::analyze`]) is language-neutral: it asks the spec what
//! each node kind *is* (a block, a scope, an order-insensitive container, an
//! identifier, a literal, punctuation...) and in which binding context an identifier
//! sits. A language is one module that answers these questions for its grammar
//! (`ecma` for TypeScript and JavaScript, `python`, `go`, `rust`); the walk names no
//! kind of any grammar.

use serde::{Deserialize, Serialize};
use tree_sitter::Node;

#[cfg(any(feature = "typescript", feature = "javascript"))]
mod ecma;
#[cfg(feature = "go")]
pub mod go;
#[cfg(feature = "javascript")]
pub mod javascript;
mod kinds;
#[cfg(feature = "python")]
pub mod python;
#[cfg(feature = "rust")]
pub mod rust;
#[cfg(feature = "typescript")]
pub mod typescript;

mod facts;

pub use facts::{
    BindTarget, BlockFamily, BlockKind, CommentSyntax, Ctx, DynamicName, IdentKind, KindInfo,
    MemberKey, Naming, Role, ScopeKind, TopLevelRole,
};

/// Everything the language-neutral walk needs to know about one grammar. Methods
/// with a default answer for a language that has no such thing (no parentheses that
/// matter, no re-exports, no builtins...); the defaults are the conservative answer.
pub trait LanguageSpec: Send + Sync + 'static {
    /// Returns the stable language name (`typescript`, `tsx`, `javascript`).
    fn name(&self) -> &'static str;

    /// Returns the tree-sitter grammar.
    fn grammar(&self) -> tree_sitter::Language;

    /// Describes one node kind; called once per kind id when the spec is first used.
    fn kind_info(&self, kind: &'static str, named: bool) -> KindInfo;

    /// Returns the binding context of a named node (only asked when its parent's
    /// [`KindInfo::binds_children`] is set).
    fn context(&self, site: &Site<'_>, src: &str) -> Ctx;

    /// Returns whether the identifier at `site` gives a function or class its `.name`
    /// (a function declaration's name, `const f = () => {}`, `f = function () {}`),
    /// and when renaming it is therefore observable (then it is hashed by name).
    fn names_function(&self, site: &Site<'_>) -> Naming;

    /// Returns the name and precise kind of a block candidate (None: not a block here,
    /// e.g. a destructuring declarator).
    fn block_name(
        &self,
        node: Node<'_>,
        parent: Node<'_>,
        kind: BlockKind,
        src: &str,
    ) -> Option<(String, BlockKind)>;

    /// Returns whether a block member is private (not part of the API).
    fn is_private_member(&self, node: Node<'_>, src: &str) -> bool;

    /// Returns the sort key of a child of an order-insensitive container.
    fn member_key(&self, container: Node<'_>, member: Node<'_>, src: &str) -> MemberKey;

    /// Returns the role of a top-level statement.
    fn top_level_role(&self, node: Node<'_>, src: &str) -> TopLevelRole;

    /// Returns whether a parenthesized expression must be kept under this parent
    /// (where parentheses change meaning, e.g. `(a?.b).c`).
    fn keep_parens(&self, _parent_kind: &str, _field: Option<&str>) -> bool {
        false
    }

    /// Returns whether a [`Role::Wrapper`] of kind `kind` is kept under this parent;
    /// by default, where [`LanguageSpec::keep_parens`] keeps parentheses. A wrapper
    /// dropped here opens no scope (Rust's `|| { x }` is `|| x`).
    fn keep_wrapper(&self, _kind: &str, parent_kind: &str, field: Option<&str>) -> bool {
        self.keep_parens(parent_kind, field)
    }

    /// Returns the synthetic wrapper kinds of a bare single arrow parameter (`x => x`
    /// hashes like `(x) => x`), outermost first; empty when the grammar has none.
    fn bare_param_wrappers(&self) -> &'static [&'static str] {
        &[]
    }

    /// Returns whether a top-level statement makes its file a module (an import or
    /// export statement), as opposed to a script sharing the global scope.
    fn is_module_syntax(&self, _node: Node<'_>) -> bool {
        false
    }

    /// Returns the module source of an `export * from "source"` statement.
    fn reexport_all(&self, _node: Node<'_>, _src: &str) -> Option<String> {
        None
    }

    /// Returns the import bindings of an import statement: (local name, imported name)
    /// and the module source, or `None` when the node is not such an import.
    fn import_bindings(&self, node: Node<'_>, src: &str) -> Option<ImportInfo>;

    /// Cooks a [`Role::Str`] node itself: `Some(true)` when `out` now holds its value
    /// (one literal), `Some(false)` when it holds code (interpolations) and is walked
    /// as a node, `None` to let the walk cook it (quotes dropped, `\'` and `\"`
    /// unescaped).
    fn cook_string(&self, _node: Node<'_>, _src: &str, _out: &mut String) -> Option<bool> {
        None
    }

    /// Returns the global names of the language's runtime that never run the file's
    /// own code unless handed it (`len`, `frozenset`): code at load time that calls
    /// only these cannot reach a declaration it does not name.
    fn builtins(&self) -> &'static [&'static str] {
        &[]
    }

    /// Returns whether an imported module's code, run while this file loads, may
    /// call back into this file (ES module cycles do); `false` where a module is
    /// loaded whole before its importer goes on (Python, barring circular imports).
    fn imports_reenter(&self) -> bool {
        true
    }

    /// Returns whether a barrier matters to the declarations around it only through
    /// the code it runs at load time (so a declaration it cannot reach may cross it),
    /// rather than also scoping what follows it in the text (Rust's `macro_rules!`).
    fn barriers_are_code(&self) -> bool {
        false
    }

    /// Returns what a referenced name does to local scopes, if anything.
    fn dynamic_name(&self, _name: &str) -> Option<DynamicName> {
        None
    }

    /// Returns the markers of comments that tools act on (type checker directives,
    /// bundler annotations, formatter switches): changing one is not a comment edit.
    fn pragmas(&self) -> &'static [&'static str];

    /// Returns whether a top-level comment is code that a tool compiles (a Go cgo
    /// preamble): changing it is then not a comment edit, like a pragma. Asked for
    /// top-level comments only; `false` (the default) for most languages.
    fn comment_is_code(&self, _comment: Node<'_>, _src: &str) -> bool {
        false
    }

    /// Returns how the language writes comments.
    fn comment_syntax(&self) -> CommentSyntax;

    /// Finds the file an import source names among the turn's files, the way the
    /// language's tooling does: `find` looks a workspace path up.
    fn resolve_module(
        &self,
        importer: &str,
        source: &str,
        find: &mut dyn FnMut(&str) -> Option<usize>,
    ) -> Option<usize>;

    /// Returns the scope a file's top-level names are declared in when other files
    /// share it (classic scripts: the global scope, `""`; Go: the package's
    /// directory), `None` for a module of its own. `module_syntax`: some top-level
    /// statement is module syntax ([`LanguageSpec::is_module_syntax`]); `uses`: whether
    /// a name is used free somewhere in the file.
    fn shared_scope(
        &self,
        path: &str,
        module_syntax: bool,
        uses: &dyn Fn(&str) -> bool,
    ) -> Option<String>;

    /// Returns whether the names a file declares in its shared scope
    /// ([`LanguageSpec::shared_scope`]) are visible to every file sharing it before any
    /// file runs code at load time (Go's package scope), so that they resolve across
    /// files even when some file has such code; `false` (the default) for classic
    /// scripts, whose code may run before a later script declares a name.
    fn shared_scope_predeclared(&self) -> bool {
        false
    }

    /// Returns whether a declaration is API by its own syntax or name (Python's public
    /// names, Go's capitals, Rust's `pub`); `None` where export wrappers decide
    /// ([`KindInfo::export_wrapper`]).
    fn exported_by_itself(&self, _node: Node<'_>, _name: &str, _src: &str) -> Option<bool> {
        None
    }

    /// Returns whether a comment of a [`KindInfo::doc_comment`] kind is documentation
    /// (Rust's `///`, which rustdoc renders and doctests run): it is then hashed like
    /// code instead of being dropped as a comment.
    fn is_documentation(&self, _node: Node<'_>, _src: &str) -> bool {
        false
    }

    /// Returns whether a top-level statement belongs to the one after it (Rust's outer
    /// attributes and doc comments, which the grammar makes siblings of their item):
    /// the two then form one top-level statement, so they move together.
    fn attaches_to_next(&self, _node: Node<'_>, _src: &str) -> bool {
        false
    }

    /// Returns whether the [`BindTarget::Forward`] bindings made so far come into scope
    /// when the node of kind `kind` (under field `field` of a `parent_kind` node) ends,
    /// for the rest of its parent (a Rust `let` in a block, a `for` loop's iterator).
    /// When the node itself holds such scopes, they pass on to the parent instead of
    /// closing (a `let` chain hands its bindings to its `if`). Only asked while some
    /// forward binding waits.
    fn opens_forward(&self, _parent_kind: &str, _kind: &str, _field: Option<&'static str>) -> bool {
        false
    }

    /// Returns whether a node of kind `kind` no longer sees the forward scopes its
    /// `parent_kind` parent holds (the `else` of an `if let`). Only asked when the
    /// parent holds some.
    fn closes_forward(&self, _parent_kind: &str, _kind: &str) -> bool {
        false
    }

    /// Returns whether a node of a [`KindInfo::reads_names`] kind reads local names by
    /// their text (Rust's format strings capture `{x}`): the local names around it are
    /// then kept verbatim.
    fn reads_local_names(&self, _node: Node<'_>, _src: &str) -> bool {
        false
    }
}

/// Where a node sits, for [`LanguageSpec::context`]: kind names come from the kind
/// table (asking tree-sitter for them costs a string conversion each time).
#[derive(Debug, Clone, Copy)]
pub struct Site<'t> {
    /// The node.
    pub node: Node<'t>,
    /// Its kind name.
    pub kind: &'static str,
    /// Its parent.
    pub parent: Node<'t>,
    /// The parent's kind name.
    pub parent_kind: &'static str,
    /// The parent's binding context.
    pub parent_ctx: Ctx,
    /// The field under which the node sits in its parent.
    pub field: Option<&'static str>,
}

/// The bindings one import statement introduces.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportInfo {
    /// The module specifier as written (`./a`, `react`).
    pub source: String,
    /// (local name, imported name); `default` and `*` for default and namespace imports.
    pub bindings: Vec<(String, String)>,
}

/// A grammar and the file extensions it handles.
pub struct Registered {
    /// File extensions without the dot.
    pub extensions: &'static [&'static str],
    /// The spec.
    pub spec: &'static dyn LanguageSpec,
}

/// Returns every language compiled in (per cargo features).
pub fn languages() -> &'static [Registered] {
    const ALL: &[Registered] = &[
        #[cfg(feature = "typescript")]
        Registered {
            extensions: &["ts", "mts", "cts"],
            spec: &typescript::TypeScript { tsx: false },
        },
        #[cfg(feature = "typescript")]
        Registered {
            extensions: &["tsx"],
            spec: &typescript::TypeScript { tsx: true },
        },
        #[cfg(feature = "javascript")]
        Registered {
            extensions: &["js", "mjs", "cjs", "jsx"],
            spec: &javascript::JavaScript,
        },
        #[cfg(feature = "python")]
        Registered {
            extensions: &["py", "pyi"],
            spec: &python::Python,
        },
        #[cfg(feature = "rust")]
        Registered {
            extensions: &["rs"],
            spec: &rust::RustLang,
        },
        #[cfg(feature = "go")]
        Registered {
            extensions: &["go"],
            spec: &go::Go,
        },
    ];
    ALL
}

/// Returns the compiled-in language of this name (`typescript`, `python`...).
pub fn language_named(name: &str) -> Option<&'static dyn LanguageSpec> {
    languages()
        .iter()
        .find(|lang| lang.spec.name() == name)
        .map(|lang| lang.spec)
}

/// Returns the language for a path by its extension, or `None` (text rules apply).
pub fn language_for_path(path: &str) -> Option<&'static dyn LanguageSpec> {
    let file = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let (_, ext) = file.rsplit_once('.')?;
    let ext = ext.to_ascii_lowercase();
    languages()
        .iter()
        .find(|lang| lang.extensions.contains(&ext.as_str()))
        .map(|lang| lang.spec)
}
