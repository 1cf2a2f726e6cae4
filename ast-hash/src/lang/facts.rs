//! What a language spec tells the walk: block kinds, the roles of node kinds, binding
//! contexts and targets, member keys and the roles of top-level statements.

use serde::{Deserialize, Serialize};

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
    /// [`LanguageSpec::keep_parens`](super::LanguageSpec::keep_parens) says the parentheses matter where it stands.
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
    /// [`ScopeKind::Forward`] scope that opens where [`LanguageSpec::opens_forward`](super::LanguageSpec::opens_forward)
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
    /// parameter lists, patterns...): when false, [`LanguageSpec::context`](super::LanguageSpec::context) is not
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
    /// one ([`LanguageSpec::bare_param_wrappers`](super::LanguageSpec::bare_param_wrappers)).
    pub bare_param: bool,
    /// Its string children are raw: backslashes are literal (JSX attributes).
    pub raw_strings: bool,
    /// A literal whose letter case is not meaning (`0XFF` is `0xff`, `1E3` is `1e3`):
    /// hashed lowercased.
    pub fold_case: bool,
    /// A comment kind that may be documentation ([`LanguageSpec::is_documentation`](super::LanguageSpec::is_documentation)
    /// decides per node): documentation is hashed like code, not dropped.
    pub doc_comment: bool,
    /// A node that may read local names by their text (Rust's `format!("{x}")`):
    /// [`LanguageSpec::reads_local_names`](super::LanguageSpec::reads_local_names) decides per node.
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
    /// An anonymous token: dropped as punctuation when it is one of `punct`, else kept
    /// by kind (an operator, a keyword). Evaluating a token runs no code.
    pub fn token(kind: &'static str, punct: &[&str]) -> KindInfo {
        KindInfo {
            role: if punct.contains(&kind) {
                Role::Punct
            } else {
                Role::Token
            },
            pure: true,
            ..KindInfo::node(kind)
        }
    }

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
