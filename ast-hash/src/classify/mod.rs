//! Classification of one agent turn: `AST_REFACTOR` or `INTENT_EVOLUTION`.

use std::collections::HashMap;

use serde::Serialize;

use crate::lang::language_for_path;
use crate::matching::{match_blocks, BlockMatch, BlockRef};
use crate::model::{FileAnalysis, ParseError, SourceFile};
use crate::prepared::Prepared;
use crate::report::ApiChange;
use crate::text::TextRule;
use crate::{analyze, walk, MutationClass};

mod steps;

pub use steps::classify_analyses;

/// Whether the classification came from syntax trees or from text rules only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// At least one file of the turn was parsed with a grammar.
    Ast,
    /// No file had a grammar: text rules decided.
    Text,
}

/// What kind of refactor a turn is (several may apply).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RefactorKind {
    /// Whitespace, line breaks, punctuation (semicolons, trailing commas, quotes,
    /// redundant parentheses) changed.
    Reformat,
    /// Comments changed.
    Comment,
    /// Declarations or members were reordered where order does not matter.
    Reorder,
    /// Local names were renamed consistently.
    RenameLocal,
    /// Declarations moved to another file or parent.
    Move,
    /// A file was renamed with its content unchanged.
    FileRename,
}

impl RefactorKind {
    /// Returns the wire spelling (`rename-local`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            RefactorKind::Reformat => "reformat",
            RefactorKind::Comment => "comment",
            RefactorKind::Reorder => "reorder",
            RefactorKind::RenameLocal => "rename-local",
            RefactorKind::Move => "move",
            RefactorKind::FileRename => "file-rename",
        }
    }
}

/// A block that moved or was renamed: where it was and where it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BlockMove {
    /// Before the turn.
    pub from: BlockRef,
    /// After the turn.
    pub to: BlockRef,
}

/// The text rule that decided a file without a grammar.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TextRuling {
    /// The file (after the turn, or before it when deleted).
    pub path: String,
    /// The previous path, for renames.
    pub from: Option<String>,
    /// The rule.
    pub rule: TextRule,
}

/// Which side of a turn something belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// Before the turn.
    Before,
    /// After the turn.
    After,
}

/// The parse errors of one file version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileParseErrors {
    /// The file.
    pub path: String,
    /// Which version.
    pub side: Side,
    /// Its errors.
    pub errors: Vec<ParseError>,
}

/// The verdict on one agent turn, ready to be stored as JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Classification {
    /// The computed class.
    pub mutation_class: MutationClass,
    /// One sentence saying why (the rule, or the first change found).
    pub reason: String,
    /// `ast` when a grammar was used for at least one file, else `text`.
    pub method: Method,
    /// For refactors: what kind (empty when nothing changed at all).
    pub refactor_kinds: Vec<RefactorKind>,
    /// Blocks whose alpha hash changed (after-side references).
    pub changed_blocks: Vec<BlockRef>,
    /// Blocks created in the turn.
    pub added_blocks: Vec<BlockRef>,
    /// Blocks deleted in the turn.
    pub removed_blocks: Vec<BlockRef>,
    /// Blocks that moved (file, parent or position).
    pub moved_blocks: Vec<BlockMove>,
    /// Blocks whose own name changed.
    pub renamed_blocks: Vec<BlockMove>,
    /// Changes to exported names and signatures.
    pub api_changes: Vec<ApiChange>,
    /// Files with parse errors, per side.
    pub parse_errors: Vec<FileParseErrors>,
    /// Files decided by text rules.
    pub text_files: Vec<TextRuling>,
}

impl Classification {
    /// Compares a class the agent declared with this one; see [`declared_mismatch`].
    pub fn declared_mismatch(&self, declared: &str) -> Option<String> {
        declared_mismatch(declared, self)
    }
}

/// Everything computed for one turn: both sides' analyses, the block pairing and the
/// classification (so a caller that also records lineage parses once).
#[derive(Debug, Clone, Serialize)]
pub struct TurnAnalysis {
    /// The files before the turn, analyzed, in the order given.
    pub before: Vec<FileAnalysis>,
    /// The files after the turn, analyzed, in the order given.
    pub after: Vec<FileAnalysis>,
    /// Block pairing with lineage events (indices refer to `before` and `after`).
    pub matches: Vec<BlockMatch>,
    /// The verdict.
    pub classification: Classification,
}

/// Analyzes, pairs and classifies one agent turn.
///
/// `before` holds the turn's files as they were (a file created in the turn is absent),
/// `after` as they are (a deleted file is absent). Both sides must cover the same
/// files so that cross-file moves and renames are seen.
pub fn analyze_turn(before: &[SourceFile], after: &[SourceFile]) -> TurnAnalysis {
    analyze_turn_with(before, after, &Prepared::default())
}

/// [`analyze_turn`], taking the analyses already in `prepared` (same path and text)
/// instead of parsing those files again. The result is the same either way.
pub fn analyze_turn_with(
    before: &[SourceFile],
    after: &[SourceFile],
    prepared: &Prepared,
) -> TurnAnalysis {
    let mut trees = HashMap::new();
    let before: Vec<FileAnalysis> = before
        .iter()
        .map(|file| {
            if let Some(done) = prepared.get(file) {
                return done.clone();
            }
            match language_for_path(&file.path) {
                Some(spec) => {
                    let (analysis, tree) = walk::analyze_with(spec, &file.path, &file.text, None);
                    if let Some(tree) = tree {
                        trees.insert(file.path.as_str(), (tree, file.text.as_str()));
                    }
                    analysis
                }
                None => analyze(file),
            }
        })
        .collect();
    // A file edited in place re-parses incrementally from its previous tree.
    let after: Vec<FileAnalysis> = after
        .iter()
        .map(|file| {
            if let Some(done) = prepared.get(file) {
                return done.clone();
            }
            match language_for_path(&file.path) {
                Some(spec) => {
                    let previous = trees
                        .get(file.path.as_str())
                        .map(|(tree, text)| (tree, *text));
                    walk::analyze_with(spec, &file.path, &file.text, previous).0
                }
                None => analyze(file),
            }
        })
        .collect();
    let matches = match_blocks(&before, &after);
    let classification = classify_analyses(&before, &after, &matches);
    TurnAnalysis {
        before,
        after,
        matches,
        classification,
    }
}

/// Classifies one agent turn (see [`analyze_turn`] for the arguments).
pub fn classify(before: &[SourceFile], after: &[SourceFile]) -> Classification {
    analyze_turn(before, after).classification
}

/// Compares the class an agent declared with the computed one.
///
/// Returns `None` when they agree, else a message naming the first changed block, e.g.
/// "declared AST_REFACTOR but behaviour changed in `verify` (src/auth.ts:10-24)".
/// `declared` is matched case-insensitively, with `-` or `_` (`ast-refactor` works).
pub fn declared_mismatch(declared: &str, computed: &Classification) -> Option<String> {
    let spelled = declared.trim().to_ascii_uppercase().replace('-', "_");
    let Some(class) = MutationClass::parse(&spelled) else {
        return Some(format!(
            "declared mutation class `{}` is neither AST_REFACTOR nor INTENT_EVOLUTION; computed {}",
            declared.trim(),
            computed.mutation_class.as_str()
        ));
    };
    if class == computed.mutation_class {
        return None;
    }
    Some(match class {
        MutationClass::AstRefactor => {
            let what = crate::report::leaf_changes(&computed.changed_blocks)
                .first()
                .map(|b| {
                    format!(
                        "behaviour changed in `{}` ({}:{}-{})",
                        b.qualified_name, b.path, b.lines.start, b.lines.end
                    )
                })
                .or_else(|| {
                    computed
                        .added_blocks
                        .first()
                        .map(|b| format!("`{}` was added in {}", b.qualified_name, b.path))
                })
                .or_else(|| {
                    computed
                        .removed_blocks
                        .first()
                        .map(|b| format!("`{}` was removed from {}", b.qualified_name, b.path))
                })
                .unwrap_or_else(|| computed.reason.clone());
            format!("declared AST_REFACTOR but {what}")
        }
        MutationClass::IntentEvolution => {
            format!(
                "declared INTENT_EVOLUTION but the change is a refactor: {}",
                computed.reason
            )
        }
    })
}
