//! tree-sitter-typescript 0.23.2 (TypeScript and TSX grammars, MIT, by Max Brunsfeld and
//! Amaan Qureshi), vendored by Intent Ledger with one fix to its external scanner; see
//! `PATCHED.md`. Only the two language constants are kept.

use tree_sitter_language::LanguageFn;

extern "C" {
    fn tree_sitter_typescript() -> *const ();
    fn tree_sitter_tsx() -> *const ();
}

/// The tree-sitter [`LanguageFn`] for TypeScript.
pub const LANGUAGE_TYPESCRIPT: LanguageFn = unsafe { LanguageFn::from_raw(tree_sitter_typescript) };

/// The tree-sitter [`LanguageFn`] for TSX.
pub const LANGUAGE_TSX: LanguageFn = unsafe { LanguageFn::from_raw(tree_sitter_tsx) };
