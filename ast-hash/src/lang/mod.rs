//! Languages: one [`LanguageSpec`] per grammar, each behind a cargo feature.
//!
//! The hashing walk ([`crate::analyze`]) is language-neutral: it asks the spec what
//! each node kind *is* (a block, a scope, an order-insensitive container, an
//! identifier, a literal, punctuation...) and in which binding context an identifier
//! sits. Adding a language (Rust, Python) means writing one module that answers these
//! questions for its grammar; nothing else in the crate changes.

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

/// What a named declaration is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BlockKind {
    /// A function declaration or signature, or an `export default function`.
    Function,
    /// A class (or abstract class) declaration.
    Class,
    /// A method (or method signature) of a class.
    Method,
    /// A `get` accessor.
    Getter,
    /// A `set` accessor.
    Setter,
    /// A class field.
    Field,
    /// An interface.
    Interface,
    /// A `type` alias.
    TypeAlias,
    /// An enum.
    Enum,
    /// A namespace or ambient module.
    Namespace,
    /// A `const` binding at declaration level.
    Const,
    /// A `let` binding at declaration level.
    Let,
    /// A `var` binding at declaration level.
    Var,
    /// An `export default <expression>` that is not a function or class.
    Default,
    /// A module-level variable (Python's `X = 1`).
    Variable,
    /// A struct (or union) type.
    Struct,
    /// A trait.
    Trait,
    /// An `impl` block (inherent or of a trait).
    Impl,
    /// A macro definition.
    Macro,
    /// A `static` item.
    Static,
}

impl BlockKind {
    /// Returns the family of kinds a block can turn into and still be the same block
    /// (a function that becomes a `const` arrow function, a method a getter).
    pub fn family(self) -> BlockFamily {
        use BlockKind::*;
        match self {
            Function | Const | Let | Var | Default | Variable | Static | Macro => {
                BlockFamily::Value
            }
            Method | Getter | Setter | Field => BlockFamily::Member,
            Class | Struct => BlockFamily::Class,
            Interface | TypeAlias | Trait => BlockFamily::Type,
            Impl => BlockFamily::Impl,
            Enum => BlockFamily::Enum,
            Namespace => BlockFamily::Namespace,
        }
    }

    /// Returns the wire spelling (`function`, `type_alias`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            BlockKind::Function => "function",
            BlockKind::Class => "class",
            BlockKind::Method => "method",
            BlockKind::Getter => "getter",
            BlockKind::Setter => "setter",
            BlockKind::Field => "field",
            BlockKind::Interface => "interface",
            BlockKind::TypeAlias => "type_alias",
            BlockKind::Enum => "enum",
            BlockKind::Namespace => "namespace",
            BlockKind::Const => "const",
            BlockKind::Let => "let",
            BlockKind::Var => "var",
            BlockKind::Default => "default",
            BlockKind::Variable => "variable",
            BlockKind::Struct => "struct",
            BlockKind::Trait => "trait",
            BlockKind::Impl => "impl",
            BlockKind::Macro => "macro",
            BlockKind::Static => "static",
        }
    }
}

/// Families of [`BlockKind`]s that block matching may pair with each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockFamily {
    /// Functions and module-level bindings.
    Value,
    /// Members of a class (methods, accessors, fields).
    Member,
    /// Classes.
    Class,
    /// Interfaces and type aliases.
    Type,
    /// Enums.
    Enum,
    /// Namespaces and modules.
    Namespace,
    /// `impl` blocks.
    Impl,
}

/// How the walk treats a node kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A comment: dropped from every hash, recorded in the comment digest.
    Comment,
    /// Dropped entirely (e.g. an empty statement).
    Skip,
    /// An anonymous token dropped as punctuation (`(`, `,`, `;`, quotes...).
    Punct,
    /// An anonymous token kept by kind: operators and keywords.
    Token,
    /// A named node hashed structurally (its kind, then its children).
    Node,
    /// A name.
    Ident(IdentKind),
    /// A literal leaf: kept in `exact` and `alpha`, abstracted in `shape`.
    Literal,
    /// A string literal: hashed as one leaf of its cooked content (quotes dropped).
    Str,
    /// A wrapper (parentheses, a JSX `{ }`, a union with a leading `|`): transparent —
    /// its anonymous tokens dropped — when it wraps at most one named node, unless
    /// [`LanguageSpec::keep_parens`] says the parentheses matter where it stands.
    Wrapper,
    /// JSX text: hashed as the text React renders (lines trimmed and joined).
    JsxText,
    /// A string's opening or closing delimiter (`f"`, `'''`): its prefix letters are
    /// kept (lowercased: `F"` is `f"`), its quotes dropped (`'a'` is `"a"`).
    StrDelimiter,
}

/// What kind of name an identifier leaf is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdentKind {
    /// A variable name: a binding or a reference, per its [`Ctx`].
    Variable,
    /// A property name (`o.p`, `{ p: 1 }`, method names): always kept.
    Property,
    /// A type name: kept, but recorded as a free name of its declaration.
    Type,
    /// A label: kept.
    Label,
    /// `{ a }` in an object literal: the property name `a` (kept) and a reference to `a`.
    ShorthandRef,
    /// `{ a }` in a destructuring pattern: the property name `a` and a binding of `a`.
    ShorthandPattern,
}

/// Which kind of scope a node opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScopeKind {
    /// Parameters, `var` and the body's declarations.
    Function,
    /// Block-scoped declarations (`let`, `const`, `class`, block functions).
    Block,
    /// Holds only the own name of a named function or class expression.
    Name,
    /// Holds only the names one declaration binds for what follows it (Rust's `let`,
    /// `if let`, `for`): it opens after the declaration, so the declaration's own
    /// value still sees the names it shadows ([`BindTarget::Forward`]).
    Forward,
}

/// Where a binding lands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BindTarget {
    /// `var`: the innermost function scope.
    Var,
    /// `let`, `const`: the innermost block or function scope.
    Lexical,
    /// The name of a declaration (function, class, enum): the scope around it.
    DeclName,
    /// A parameter of the current function.
    Param,
    /// A parameter that is also a property (`constructor(private x)`): bound, but
    /// hashed by name because renaming it renames a property.
    ParamKeepName,
    /// The own name of a function or class expression.
    OwnName,
    /// An assignment target (`[a, b] = pair`): references, not bindings.
    Assign,
    /// A binding visible only after its declaration (Rust's `let`): it lands in a
    /// [`ScopeKind::Forward`] scope that opens where [`LanguageSpec::opens_forward`]
    /// says.
    Forward,
}

/// Whether an identifier gives a function or class its `.name`, and so whether
/// renaming it is observable at run time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Naming {
    /// It names no function or class.
    #[default]
    No,
    /// It names a function or class that can be reached without it (a named function
    /// expression's value, an instance's `constructor`, an assignment's value, a
    /// parameter's caller): hashed by name.
    Always,
    /// It names a function that only this binding reaches (a local function
    /// declaration, `const f = () => {}`): hashed by name only if some use of the
    /// binding can read `.name`, that is a use other than a direct call `f(..)`.
    IfObserved,
}

/// The binding context in which a node (and, for patterns, its children) is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ctx {
    /// Identifiers are references.
    Normal,
    /// Identifiers (and nested patterns) bind per the target.
    Bind(BindTarget),
    /// A declarator: its `name` binds per the target, everything else is normal.
    Declarator(BindTarget),
    /// Identifiers are kept verbatim and are not references (JSX intrinsic tags,
    /// export aliases).
    Literal,
    /// Identifiers are kept verbatim *and* are references: the tokens of a Rust macro
    /// invocation, Rust's shorthand `S { x }`, a Go composite-literal key (a struct
    /// field, or a map key naming a variable: the syntax cannot tell). Renaming a
    /// local they name is a change, and which binding they name still counts.
    Verbatim,
}

/// The sort key of a member of an order-insensitive container.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MemberKey {
    /// Sorted by this name; members sharing a name keep their relative order.
    Named(String),
    /// A getter or setter: sorted by name; a lone getter/setter pair of one name is
    /// sorted too (their order is not observable), other same-name members keep order.
    Accessor {
        /// The property name.
        name: String,
        /// Whether it is the setter.
        setter: bool,
    },
    /// No name (index or call signatures): kept in relative order among themselves.
    Unnamed,
    /// Order matters (field initializers, static blocks, computed keys): kept in
    /// relative source order.
    Ordered,
    /// Belongs to the next member (a decorator written before it).
    AttachToNext,
}

/// How a top-level statement takes part in the comparison of two versions of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TopLevelRole {
    /// An import with bindings: only its bindings count (through the environment of
    /// the declarations that use them) and its module (the set of imported modules).
    Import,
    /// Order-free: function declarations (hoisted) and type-only declarations.
    Hoisted,
    /// A declaration whose initialization runs no code (literals, functions): free
    /// to move among other declarations, but not across effectful statements.
    Pure,
    /// Runs code at load time: kept in order in the file's top-level sequence.
    Barrier,
    /// `export { .. }` and re-exports: order-free.
    Exports,
    /// A directive prologue (`"use strict"`): ordered like a barrier, but runs no code.
    Directive,
}

/// Static facts about one node kind of one grammar, computed once per kind id.
#[derive(Debug, Clone, Copy)]
pub struct KindInfo {
    /// The kind name as the grammar spells it (hashed: stable across grammar
    /// versions), or the name of a kind it is one spelling of (Python's `a, b` target
    /// is a `pattern_list`, `(a, b)` a `tuple_pattern`: both are `tuple_pattern`).
    pub name: &'static str,
    /// How the walk treats it.
    pub role: Role,
    /// The scope it opens, if any.
    pub scope: Option<ScopeKind>,
    /// Its children's binding context may differ from its own (declarators,
    /// parameter lists, patterns...): when false, [`LanguageSpec::context`] is not
    /// asked and its named children are read in [`Ctx::Normal`].
    pub binds_children: bool,
    /// The block it is when it sits at declaration level.
    pub block: Option<BlockKind>,
    /// Its children are at declaration level when it is (module bodies, exports).
    pub decl_container: bool,
    /// Its children are members of an order-insensitive container (at declaration level).
    pub unordered: bool,
    /// A destructuring pattern: binding context passes through to its children.
    pub pattern: bool,
    /// Its value can be computed without running code (used to decide `Pure`).
    pub pure: bool,
    /// A function-like node: its body does not run where it is written.
    pub function_like: bool,
    /// A function or class *expression*: when named, its name is bound in a scope of
    /// its own around it.
    pub own_name: bool,
    /// A call: an identifier in its `function` field is called directly, which
    /// cannot read the callee's `.name` (`new f()` can: the instance's
    /// `constructor` is `f`).
    pub calls: bool,
    /// Wraps a declaration to export it (`export …`): the declaration is API.
    pub export_wrapper: bool,
    /// Wraps a declaration to declare it ambient (`declare …`): the declaration is API.
    pub ambient_wrapper: bool,
    /// The token that marks an export as the module's default one.
    pub default_marker: bool,
    /// A body whose start ends its owner's signature (a statement block, a class body).
    pub member_body: bool,
    /// A statement block: at declaration level only as a namespace's body.
    pub statement_block: bool,
    /// Makes names resolve at run time (`with`): local names are then kept verbatim.
    pub dynamic_scope: bool,
    /// Binds a name to a value (`x = …` in `const x = …`): its purity decides whether
    /// its top-level statement may move.
    pub declarator: bool,
    /// A function whose single bare parameter (`x => x`) hashes like a parenthesized
    /// one ([`LanguageSpec::bare_param_wrappers`]).
    pub bare_param: bool,
    /// Its string children are raw: backslashes are literal (JSX attributes).
    pub raw_strings: bool,
    /// A literal whose letter case is not meaning (`0XFF` is `0xff`, `1E3` is `1e3`):
    /// hashed lowercased.
    pub fold_case: bool,
    /// A comment kind that may be documentation ([`LanguageSpec::is_documentation`]
    /// decides per node): documentation is hashed like code, not dropped.
    pub doc_comment: bool,
    /// A node that may read local names by their text (Rust's `format!("{x}")`):
    /// [`LanguageSpec::reads_local_names`] decides per node.
    pub reads_names: bool,
    /// Its punctuation children are kept as tokens: they tell its parts apart (Go's
    /// `for init; cond; post` clause, where `for x++; ;` and `for ; ; x++` differ only
    /// by where the semicolons are).
    pub keep_punct: bool,
    /// A declaration whose names are visible only after it ends, not in their whole
    /// scope (Go: in `x := x + 1` the right `x` is the outer one, and a reference
    /// before `x := ..` in the same block is too).
    pub declares_after: bool,
}

impl KindInfo {
    /// A named node hashed structurally, with no other property.
    pub const fn node(name: &'static str) -> KindInfo {
        KindInfo {
            name,
            role: Role::Node,
            scope: None,
            binds_children: false,
            block: None,
            decl_container: false,
            unordered: false,
            pattern: false,
            pure: false,
            function_like: false,
            own_name: false,
            calls: false,
            export_wrapper: false,
            ambient_wrapper: false,
            default_marker: false,
            member_body: false,
            statement_block: false,
            dynamic_scope: false,
            declarator: false,
            bare_param: false,
            raw_strings: false,
            fold_case: false,
            doc_comment: false,
            reads_names: false,
            keep_punct: false,
            declares_after: false,
        }
    }
}

/// What a name means to the language when a local scope references it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DynamicName {
    /// Reads or writes local names at run time (`eval`, Python's `locals`): local
    /// names are then kept verbatim.
    ReadsLocals,
    /// Reaches the running function itself (`arguments.callee`): no function name is
    /// left to its uses.
    ReachesCallee,
}

/// How comments are written, for the token similarity of blocks.
#[derive(Debug, Clone, Copy)]
pub struct CommentSyntax {
    /// Line comment starters (`//`, `#`).
    pub line: &'static [&'static str],
    /// Block comment delimiters (`/*`, `*/`).
    pub block: Option<(&'static str, &'static str)>,
}

/// Everything the language-neutral walk needs to know about one grammar.
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
    fn keep_parens(&self, parent_kind: &str, field: Option<&str>) -> bool;

    /// Returns whether a [`Role::Wrapper`] of kind `kind` is kept under this parent;
    /// by default, where [`LanguageSpec::keep_parens`] keeps parentheses. A wrapper
    /// dropped here opens no scope (Rust's `|| { x }` is `|| x`).
    fn keep_wrapper(&self, _kind: &str, parent_kind: &str, field: Option<&str>) -> bool {
        self.keep_parens(parent_kind, field)
    }

    /// Returns the synthetic wrapper kinds of a bare single arrow parameter (`x => x`
    /// hashes like `(x) => x`), outermost first; empty when the grammar has none.
    fn bare_param_wrappers(&self) -> &'static [&'static str];

    /// Returns whether a top-level statement makes its file a module (an import or
    /// export statement), as opposed to a script sharing the global scope.
    fn is_module_syntax(&self, node: Node<'_>) -> bool;

    /// Returns the module source of an `export * from "source"` statement.
    fn reexport_all(&self, node: Node<'_>, src: &str) -> Option<String>;

    /// Returns the import bindings of an import statement: (local name, imported name)
    /// and the module source, or `None` when the node is not such an import.
    fn import_bindings(&self, node: Node<'_>, src: &str) -> Option<ImportInfo>;

    /// Cooks a [`Role::Str`] node itself: `Some(true)` when `out` now holds its value
    /// (one literal), `Some(false)` when it holds code (interpolations) and is walked
    /// as a node, `None` to let the walk cook it (quotes dropped, `\'` and `\"`
    /// unescaped).
    fn cook_string(&self, node: Node<'_>, src: &str, out: &mut String) -> Option<bool>;

    /// Returns the global names of the language's runtime that never run the file's
    /// own code unless handed it (`len`, `frozenset`): code at load time that calls
    /// only these cannot reach a declaration it does not name.
    fn builtins(&self) -> &'static [&'static str];

    /// Returns whether an imported module's code, run while this file loads, may
    /// call back into this file (ES module cycles do); `false` where a module is
    /// loaded whole before its importer goes on (Python, barring circular imports).
    fn imports_reenter(&self) -> bool;

    /// Returns whether a barrier matters to the declarations around it only through
    /// the code it runs at load time (so a declaration it cannot reach may cross it),
    /// rather than also scoping what follows it in the text (Rust's `macro_rules!`).
    fn barriers_are_code(&self) -> bool;

    /// Returns what a referenced name does to local scopes, if anything.
    fn dynamic_name(&self, name: &str) -> Option<DynamicName>;

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
    fn exported_by_itself(&self, node: Node<'_>, name: &str, src: &str) -> Option<bool>;

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
