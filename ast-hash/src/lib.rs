//! Tree-sitter parsing, block extraction, normalized AST hashes and mutation
//! classification for Intent Ledger.
//!
//! This crate is a pure library: it never touches the filesystem or the ledger. The
//! caller hands it the files of one agent turn, before and after; it answers with
//! blocks, hashes, a block pairing with lineage events, and a [`Classification`].
//!
//! ```
//! use intent_ast_hash::{classify, MutationClass, SourceFile};
//!
//! let before = [SourceFile::new("src/a.ts", "export function add(a: number, b: number) { return a + b; }")];
//! let after = [SourceFile::new("src/a.ts", "export function add(x: number, y: number) {\n  return x + y; // sum\n}\n")];
//! let verdict = classify(&before, &after);
//! assert_eq!(verdict.mutation_class, MutationClass::AstRefactor);
//! assert_eq!(verdict.mutation_class.as_str(), "AST_REFACTOR");
//! ```
//!
//! # Languages
//!
//! TypeScript (`.ts .mts .cts`, tree-sitter-typescript's `LANGUAGE_TYPESCRIPT`), TSX
//! (`.tsx`, `LANGUAGE_TSX`) behind the `typescript` feature, and JavaScript/JSX
//! (`.js .mjs .cjs .jsx`, tree-sitter-javascript) behind the `javascript` feature,
//! Python (`.py .pyi`) behind `python`, Go (`.go`) behind `go` and Rust (`.rs`) behind
//! `rust`; all are on by default. Each is a [`lang::LanguageSpec`] with its language's
//! rules of what is behaviour (`docs/languages.md`); other files get text rules.
//!
//! # Blocks
//!
//! Named declarations at *declaration level* (the module, namespace bodies, export
//! statements, class bodies): functions (and overload signatures), classes, methods,
//! getters, setters, fields, interfaces, type aliases, enums, namespaces/ambient
//! modules, `const`/`let`/`var` declarators with a plain name, and `export default`
//! functions, classes, arrows, objects and arrays (named `default`). Declarations
//! inside function bodies are part of their function, not blocks. Each [`Block`] has a
//! kind, a qualified name (`Class.method`), byte and 1-based line ranges, its parent's
//! index and three hashes.
//!
//! # The hashing scheme (a format: changing it requires bumping [`SCHEME_VERSION`])
//!
//! One pass over the tree writes three token streams; a hash is the first 16 bytes of
//! `BLAKE3-keyed(key, stream)` where `key = BLAKE3("intent-ast-hash scheme {SCHEME_VERSION} {domain}")`
//! and `domain` is `exact`, `alpha` or `shape`. Hex display, 32 digits.
//!
//! **Stream encoding.** One tag byte per item: `01 K` opens a named node, `02` closes
//! it, `03 K` is a kept anonymous token (operator or keyword), `04 K text` a leaf,
//! `09 K` an abstracted leaf (shape), `05 depth index` a bound local (alpha), `06` +
//! 16 bytes a digest, `07 n` an order-insensitive group of `n` digests, `08 text` text
//! no node covers. `text` is LEB128-length-prefixed; numbers are LEB128. `K` is a
//! kind: the first 4 bytes of `BLAKE3(kind name)` — the grammar's kind *name*, never
//! its numeric id, so stored hashes survive grammar upgrades that keep names (a test
//! checks that the names of every compiled grammar map to distinct values).
//!
//! **Normalization, all streams.**
//! - Comments, whitespace and punctuation (`( ) [ ] { } , ; : . ... ' " `` ` `` `${`)
//!   are dropped; operators and keywords are kept. So semicolons (ASI), trailing
//!   commas and quote style do not count.
//! - Strings hash their content; `\'` and `\"` are unescaped (not in JSX attributes,
//!   where backslashes are literal).
//! - Wrappers are transparent when they wrap at most one node: parentheses (except
//!   where they change meaning: as the object of a member or subscript access, the
//!   callee of a call or `new`, under a non-null assertion — `(a?.b).c` is not
//!   `a?.b.c`), JSX expression containers (`{/* comment */}` disappears, `{x}`
//!   hashes as `x`), and unions or intersections with a leading `|` or `&`.
//! - JSX text hashes as the text React renders: tabs to spaces, lines trimmed except
//!   the outer ends, blank lines dropped, lines joined by one space.
//! - A bare arrow parameter `x => x` hashes as `(x) => x`.
//! - A block contributes to its parent's stream as its digest (Merkle at block level).
//!   A block's own stream starts with `declare`, `export`, `default` and, for
//!   declarators, `const`/`let`/`var`, so the export status is part of its hash.
//! - Empty statements are dropped.
//!
//! **Order-insensitive containers** (only outside function bodies): class bodies,
//! interface bodies, object types, named imports and export clauses. Each member is
//! hashed alone and the digests are emitted sorted by member name (`static` members
//! apart from instance ones); members sharing a name (overloads, a method and an
//! accessor) keep their relative source order, except a lone getter/setter pair, whose
//! order is not observable. Unnamed members (index and call signatures) and *ordered*
//! members keep their relative source order; ordered members are class fields
//! (initializers run in order, and fields define own properties in order), static
//! blocks and computed keys. A decorator belongs to the member after it. In `shape`,
//! digests are sorted by value. Statements, arguments, object literal properties,
//! enum members and everything else are order-sensitive.
//!
//! **Alpha.** Inside functions and blocks, an identifier that a local scope binds is
//! replaced by `(depth, index)`: how many scopes up its binding scope is, and the order
//! in which that scope first bound the name (de Bruijn-style; hoisting honoured: `var`
//! and parameters bind in the function scope, `let`/`const`/`class`/function
//! declarations in their block, catch parameters in the catch clause, the name of a
//! function or class expression in a scope of its own). Kept by name:
//! - module-level and namespace-level names (exported or not), imports, globals,
//!   property names, labels, type names and JSX intrinsic tags;
//! - constructor parameter properties (`private x`: renaming renames a property);
//! - the property half of shorthands (`{ a }` hashes the property `a` and the
//!   reference `a`);
//! - bindings whose name becomes a function's or class's `.name` where that name can
//!   be read: local class declarations, the own name of a function or class
//!   expression, names assigned an anonymous function or class (`f = function () {}`,
//!   `(cb = () => {})`, `const C = class {}`), and local functions that only their
//!   binding reaches (a function declaration in a function body, `const f = () => {}`,
//!   `var f = function () {}`) when some use is not a direct call `f(..)` (`return f`,
//!   `[f]`, `xs.map(f)`, `f.name`, `new f()`: an instance's `constructor` is `f`). A
//!   local function only ever called directly is an ordinary local: nothing but a
//!   stack trace shows its name, and stack traces are not behaviour here. Neither is
//!   `Function.prototype.caller` (sloppy mode only, stack introspection), but
//!   `arguments.callee` is: where `arguments` appears, its whole top-level function
//!   keeps all such names. A function declared in a nested block keeps its name, and
//!   so does any such function of the same name around it: in sloppy mode the block's
//!   function is also assigned to a binding of the enclosing function (Annex B), by a
//!   resolution this walk does not model;
//! - every name in a function that uses `with` or calls `eval`.
//!
//! **Shape.** Like exact, with every identifier and literal reduced to its kind.
//! Used only to find candidate pairs, never to decide a class.
//!
//! # Classification
//!
//! [`classify`] compares the turn's files before and after. It is `AST_REFACTOR` iff
//! (a) every file without a grammar passes a text rule ([`TextRule`]), (b) parse errors
//! agree per file, (c) comments that tools act on (`@ts-ignore`, `/*#__PURE__*/`,
//! `@jsx`, `webpackChunkName`, `sourceMappingURL`, ...) agree, and (d) the multiset of
//! comparison units is unchanged: top-level declarations by alpha hash, environment
//! (what each free name resolves to: a declaration, an import, a global) and export
//! surface (the module, or the `export *` barrels, importers reach them through);
//! per file the ordered top-level statements that run code at load time; and the
//! imported modules. File paths take no part otherwise, so a declaration moved to
//! another file is a move — unless it is exported and its importers would have to
//! change their import (then the API changed). See `units.rs` for the exact rules;
//! [`RefactorKind`] names what happened. Anything else is `INTENT_EVOLUTION`, with the
//! first change found as the reason. A false `AST_REFACTOR` hides a behaviour change,
//! so every rule errs toward evolution.
//!
//! # Matching
//!
//! [`match_blocks`] pairs blocks across versions (exact, alpha, name, then token
//! similarity; see [`matching`]) and yields one [`LineageEvent`] per block; the caller
//! carries its stable ids along the pairs.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod classify;
mod hash;
pub mod lang;
pub mod matching;
mod memory;
mod model;
mod origins;
mod paths;
mod prepared;
mod report;
mod scope;
pub mod stored;
mod text;
mod units;
mod walk;

use serde::{Serialize, Serializer};

pub use classify::declared_mismatch;
pub use classify::{
    analyze_turn, analyze_turn_with, classify, classify_analyses, BlockMove, Classification,
    FileParseErrors, Method, RefactorKind, Side, TextRuling, TurnAnalysis,
};
pub use hash::Hash128;
pub use lang::{language_for_path, BlockKind};
pub use matching::{match_blocks, BlockMatch, BlockRef, LineageEvent, MatchedBy};
pub use model::{Block, BlockHashes, FileAnalysis, Lines, ParseError, ParseErrorKind, SourceFile};
pub use origins::{find_origins, Origin, OriginKind, MIN_SHARE, MIN_TOKENS};
pub use prepared::Prepared;
pub use report::{ApiChange, ApiChangeKind};
pub use text::TextRule;

/// The version of the hashing scheme, mixed into every hash.
///
/// Bump it whenever a hash of the same source would change (normalization rules,
/// stream encoding, kinds hashed); `tests/fixtures/stability` fails until you do.
///
/// History (stored hashes of an older version are recomputed, never compared):
/// - 3: a local function that only its binding reaches (a declaration in a function
///   body, `const f = () => {}`) and that is only ever called directly is an
///   ordinary local in alpha, no longer written by name; the alpha hash of a block
///   holding one changes.
/// - 2: the finished classifier.
pub const SCHEME_VERSION: u32 = 3;

/// Analyzes one file: blocks, hashes and parse errors with its grammar, or an empty
/// analysis (`language: None`) when the extension has none.
pub fn analyze(file: &SourceFile) -> FileAnalysis {
    match language_for_path(&file.path) {
        Some(spec) => walk::analyze_with(spec, &file.path, &file.text, None).0,
        None => FileAnalysis {
            path: file.path.clone(),
            language: None,
            blocks: Vec::new(),
            errors: Vec::new(),
            hashes: None,
            text: file.text.clone(),
            detail: Default::default(),
        },
    }
}

/// A parsed version of a file, kept by a long-lived caller to analyze the next
/// version of the same file incrementally ([`analyze_from`]): its tree-sitter tree
/// (re-parsed from, not from scratch) and what the walk found in each top-level
/// statement (replayed for the statements the next version leaves unchanged).
/// Cloning it is a reference count.
#[derive(Debug, Clone)]
pub struct Parsed {
    tree: Tree,
    memo: Option<std::sync::Arc<walk::Memo>>,
}

impl Parsed {
    /// Whether the tree has parse errors (such a version is no start for an
    /// incremental analysis: the next one is then parsed from scratch anyway).
    pub fn has_error(&self) -> bool {
        self.tree.root_node().has_error()
    }

    /// How many top-level statements of this version were not walked but replayed
    /// from the previous version's analysis (0 for a fresh parse).
    pub fn reused_statements(&self) -> usize {
        self.memo.as_ref().map_or(0, |memo| memo.reused)
    }

    /// The tree-sitter tree.
    pub fn tree(&self) -> &Tree {
        &self.tree
    }
}

/// A tree-sitter syntax tree ([`Parsed::tree`]).
pub use tree_sitter::Tree;

/// [`analyze`], from `previous` (an earlier version of the same path, with its
/// text) when given: tree-sitter re-parses only what changed, and the top-level
/// statements whose text and subtree did not change are not walked again. Returns
/// the [`Parsed`] version for the next one. The analysis is the one [`analyze`]
/// gives: a tree with parse errors is parsed again from scratch and nothing of it
/// is reused, so hashes never depend on history.
pub fn analyze_from(
    file: &SourceFile,
    previous: Option<(&Parsed, &str)>,
) -> (FileAnalysis, Option<Parsed>) {
    match language_for_path(&file.path) {
        Some(spec) => walk::analyze_with(spec, &file.path, &file.text, previous),
        None => (analyze(file), None),
    }
}

/// How a write changed the code, as recorded on every `trace` event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MutationClass {
    /// The declarations are unchanged modulo formatting, comments, order and local names.
    AstRefactor,
    /// Anything else: behaviour or API may have changed.
    IntentEvolution,
}

impl MutationClass {
    /// Returns the wire spelling used in the ledger and in Agent Trace exports.
    pub fn as_str(self) -> &'static str {
        match self {
            MutationClass::AstRefactor => "AST_REFACTOR",
            MutationClass::IntentEvolution => "INTENT_EVOLUTION",
        }
    }

    /// Parses the wire spelling; returns `None` for anything else.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "AST_REFACTOR" => Some(MutationClass::AstRefactor),
            "INTENT_EVOLUTION" => Some(MutationClass::IntentEvolution),
            _ => None,
        }
    }
}

impl Serialize for MutationClass {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_spelling_round_trips() {
        for class in [MutationClass::AstRefactor, MutationClass::IntentEvolution] {
            assert_eq!(MutationClass::parse(class.as_str()), Some(class));
        }
        assert_eq!(MutationClass::parse("ast_refactor"), None);
    }
}
