//! Tree-sitter parsing, block extraction, normalized AST hashes and mutation
//! classification for Intent Ledger.
//!
//! This crate is a pure library: it never touches the filesystem or the ledger.
//! It is a placeholder until the AST-hashing issue lands; today it only fixes the
//! vocabulary the rest of the workspace already records.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

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
