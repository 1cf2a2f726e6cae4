//! Classification of one agent turn: `AST_REFACTOR` or `INTENT_EVOLUTION`.

use std::collections::{BTreeSet, HashMap};

use serde::Serialize;

use crate::hash::Hash128;
use crate::lang::language_for_path;
use crate::matching::{match_blocks, BlockMatch, BlockRef};
use crate::model::{FileAnalysis, ParseError, SourceFile};
use crate::prepared::Prepared;
use crate::report::{api_changes, evolution_reason, ApiChange};
use crate::text::{self, TextRule};
use crate::units::{surfaces, units, Unit};
use crate::{analyze, walk, MutationClass};

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

/// Paired files (before, after, renamed), then files only before, only after.
type FilePairing<'a> = (
    Vec<(&'a FileAnalysis, &'a FileAnalysis, bool)>,
    Vec<&'a FileAnalysis>,
    Vec<&'a FileAnalysis>,
);

/// Pairs the files of each side: by path, then unpaired ones by `same`.
fn pair_files<'a>(
    before: &[&'a FileAnalysis],
    after: &[&'a FileAnalysis],
    same: impl Fn(&FileAnalysis, &FileAnalysis) -> bool,
) -> FilePairing<'a> {
    let mut pairs = Vec::new();
    let by_path: HashMap<&str, &FileAnalysis> =
        after.iter().map(|f| (f.path.as_str(), *f)).collect();
    let mut lone_before = Vec::new();
    for b in before {
        match by_path.get(b.path.as_str()) {
            Some(a) => pairs.push((*b, *a, false)),
            None => lone_before.push(*b),
        }
    }
    let before_paths: BTreeSet<&str> = before.iter().map(|f| f.path.as_str()).collect();
    let mut lone_after: Vec<&FileAnalysis> = after
        .iter()
        .copied()
        .filter(|a| !before_paths.contains(a.path.as_str()))
        .collect();
    let mut still_before = Vec::new();
    for b in lone_before {
        match lone_after.iter().position(|a| same(b, a)) {
            Some(i) => pairs.push((b, lone_after.remove(i), true)),
            None => still_before.push(b),
        }
    }
    (pairs, still_before, lone_after)
}

fn multiset<'a>(items: impl IntoIterator<Item = &'a String>) -> Vec<&'a String> {
    let mut v: Vec<&String> = items.into_iter().collect();
    v.sort();
    v
}

/// Classifies a turn from analyses and their block pairing.
pub fn classify_analyses(
    before: &[FileAnalysis],
    after: &[FileAnalysis],
    matches: &[BlockMatch],
) -> Classification {
    let mut kinds: BTreeSet<RefactorKind> = BTreeSet::new();
    let mut causes: Vec<String> = Vec::new();
    let mut text_causes: Vec<String> = Vec::new();

    // Files without a grammar: text rules.
    let text_b: Vec<&FileAnalysis> = before.iter().filter(|f| f.language.is_none()).collect();
    let text_a: Vec<&FileAnalysis> = after.iter().filter(|f| f.language.is_none()).collect();
    let (pairs, gone, new) = pair_files(&text_b, &text_a, |b, a| {
        text::normalize_lines(&b.text) == text::normalize_lines(&a.text)
    });
    let mut text_files = Vec::new();
    for (b, a, renamed) in pairs {
        let rule = if renamed {
            TextRule::FileRename
        } else {
            text::compare(&a.path, &b.text, &a.text)
        };
        text_files.push(TextRuling {
            path: a.path.clone(),
            from: renamed.then(|| b.path.clone()),
            rule,
        });
    }
    text_files.extend(gone.iter().map(|f| TextRuling {
        path: f.path.clone(),
        from: None,
        rule: TextRule::Removed,
    }));
    text_files.extend(new.iter().map(|f| TextRuling {
        path: f.path.clone(),
        from: None,
        rule: TextRule::Added,
    }));
    for ruling in &text_files {
        match ruling.rule {
            TextRule::FileRename => {
                kinds.insert(RefactorKind::FileRename);
            }
            TextRule::LineEndings | TextRule::JsonEquivalent => {
                kinds.insert(RefactorKind::Reformat);
            }
            rule if !rule.is_refactor() => text_causes.push(format!(
                "{} has no grammar and text rule `{}` applies ({})",
                ruling.path,
                rule.as_str(),
                match rule {
                    TextRule::Added => "a new file",
                    TextRule::Removed => "a deleted file",
                    _ => "more than whitespace or line endings changed",
                }
            )),
            _ => {}
        }
    }

    // Parse errors must agree.
    let ast_b: Vec<&FileAnalysis> = before.iter().filter(|f| f.language.is_some()).collect();
    let ast_a: Vec<&FileAnalysis> = after.iter().filter(|f| f.language.is_some()).collect();
    let mut parse_errors = Vec::new();
    for (files, side) in [(&ast_b, Side::Before), (&ast_a, Side::After)] {
        for f in files.iter().filter(|f| !f.errors.is_empty()) {
            parse_errors.push(FileParseErrors {
                path: f.path.clone(),
                side,
                errors: f.errors.clone(),
            });
        }
    }
    let (file_pairs, gone, new) = pair_files(&ast_b, &ast_a, |b, a| {
        b.hashes.map(|h| h.alpha) == a.hashes.map(|h| h.alpha)
    });
    for (b, a, _) in &file_pairs {
        if multiset(&b.detail.error_signatures) != multiset(&a.detail.error_signatures) {
            let first = |f: &FileAnalysis| {
                f.errors.first().map_or("none".to_string(), |e| {
                    format!("{} at {}:{} `{}`", f.errors.len(), e.line, e.column, e.text)
                })
            };
            causes.push(format!(
                "parse errors differ in {}: before {}, after {} (cannot be a refactor)",
                a.path,
                first(b),
                first(a)
            ));
        }
    }
    fn lone_sigs<'f>(files: &[&'f FileAnalysis]) -> Vec<&'f String> {
        multiset(files.iter().flat_map(|f| f.detail.error_signatures.iter()))
    }
    if lone_sigs(&gone) != lone_sigs(&new) {
        let with_errors = gone.iter().chain(new.iter()).find(|f| !f.errors.is_empty());
        if let Some(f) = with_errors {
            causes.push(format!(
                "parse errors in {} (added or deleted file; cannot be a refactor)",
                f.path
            ));
        }
    }

    // Comments that tools act on are code.
    fn pragmas<'f>(files: &[&'f FileAnalysis]) -> Vec<&'f String> {
        multiset(files.iter().flat_map(|f| f.detail.pragmas.iter()))
    }
    let (pb, pa) = (pragmas(&ast_b), pragmas(&ast_a));
    if pb != pa {
        let changed = pa
            .iter()
            .find(|p| !pb.contains(p))
            .or_else(|| pb.iter().find(|p| !pa.contains(p)));
        causes.push(format!(
            "a comment that tools act on changed: `{}`",
            changed.map_or(String::new(), |c| c.chars().take(60).collect())
        ));
    }

    // Units: the decision.
    let units_b = units(before);
    let units_a = units(after);
    let (lost, gained) = unit_difference(&units_b, &units_a);

    // What happened to blocks (reporting, and refactor kinds).
    let mut changed_blocks = Vec::new();
    let mut added_blocks = Vec::new();
    let mut removed_blocks = Vec::new();
    let mut moved_blocks = Vec::new();
    let mut renamed_blocks = Vec::new();
    let renamed_files: BTreeSet<(&str, &str)> = file_pairs
        .iter()
        .filter(|p| p.2)
        .map(|(b, a, _)| (b.path.as_str(), a.path.as_str()))
        .collect();
    for m in matches {
        match (&m.before, &m.after) {
            (Some(b), Some(a)) => {
                if m.modified {
                    changed_blocks.push(a.clone());
                }
                if m.moved {
                    moved_blocks.push(BlockMove {
                        from: b.clone(),
                        to: a.clone(),
                    });
                    if b.path == a.path {
                        kinds.insert(RefactorKind::Reorder);
                    } else if !renamed_files.contains(&(b.path.as_str(), a.path.as_str())) {
                        kinds.insert(RefactorKind::Move);
                    }
                }
                if m.renamed {
                    renamed_blocks.push(BlockMove {
                        from: b.clone(),
                        to: a.clone(),
                    });
                }
                if m.retokened && !m.modified && !m.renamed {
                    kinds.insert(RefactorKind::RenameLocal);
                }
            }
            (None, Some(a)) => added_blocks.push(a.clone()),
            (Some(b), None) => removed_blocks.push(b.clone()),
            (None, None) => {}
        }
    }
    for (b, a, renamed) in &file_pairs {
        if *renamed {
            kinds.insert(RefactorKind::FileRename);
        }
        if b.detail.comments != a.detail.comments {
            kinds.insert(RefactorKind::Comment);
        }
        if reformatted(b, a) {
            kinds.insert(RefactorKind::Reformat);
        }
        if reordered_members(b, a) {
            kinds.insert(RefactorKind::Reorder);
        }
        let (hb, ha) = (b.hashes, a.hashes);
        if let (Some(hb), Some(ha)) = (hb, ha) {
            if hb.alpha != ha.alpha {
                let sorted = |f: &FileAnalysis| {
                    let mut v: Vec<_> = f.detail.items.iter().map(|i| i.hashes.alpha).collect();
                    v.sort();
                    v
                };
                if sorted(b) == sorted(a) {
                    kinds.insert(RefactorKind::Reorder);
                }
            } else if hb.exact != ha.exact {
                kinds.insert(RefactorKind::RenameLocal);
            }
        }
    }
    let api_changes = api_changes(
        before,
        after,
        matches,
        (&surfaces(before), &surfaces(after)),
    );

    let method = if before.iter().chain(after).any(|f| f.language.is_some()) {
        Method::Ast
    } else {
        Method::Text
    };
    let evolution =
        !causes.is_empty() || !text_causes.is_empty() || !lost.is_empty() || !gained.is_empty();
    let (mutation_class, reason, refactor_kinds) = if evolution {
        let reason = match causes.first() {
            Some(cause) => cause.clone(),
            None => evolution_reason(before, after, matches, &api_changes, &lost, &gained)
                .or_else(|| text_causes.first().cloned())
                .unwrap_or_else(|| "declarations changed".to_string()),
        };
        (MutationClass::IntentEvolution, reason, Vec::new())
    } else {
        let kinds: Vec<RefactorKind> = kinds.into_iter().collect();
        let compared = ast_b.len().max(ast_a.len());
        let mut reason = if kinds.is_empty() {
            "no declaration changed".to_string()
        } else {
            let names: Vec<&str> = kinds.iter().map(|k| k.as_str()).collect();
            format!(
                "alpha-normalized declarations unchanged ({})",
                names.join(", ")
            )
        };
        if compared > 0 {
            reason.push_str(&format!(" across {compared} parsed file(s)"));
        }
        let texts: Vec<String> = text_files
            .iter()
            .map(|t| format!("{} {}", t.path, t.rule.as_str()))
            .collect();
        if !texts.is_empty() {
            reason.push_str(&format!("; text rules: {}", texts.join(", ")));
        }
        (MutationClass::AstRefactor, reason, kinds)
    };
    Classification {
        mutation_class,
        reason,
        method,
        refactor_kinds,
        changed_blocks,
        added_blocks,
        removed_blocks,
        moved_blocks,
        renamed_blocks,
        api_changes,
        parse_errors,
        text_files,
    }
}

/// Whether the layout changed beyond what moving whole statements explains: a
/// statement with the same tokens but another layout, or the same statements in the
/// same order with other whitespace between them.
fn reformatted(before: &FileAnalysis, after: &FileAnalysis) -> bool {
    let same_order = before.hashes.map(|h| h.exact) == after.hashes.map(|h| h.exact);
    if same_order && before.detail.layout != after.detail.layout {
        return true;
    }
    let layouts: BTreeSet<(Hash128, Hash128)> = before
        .detail
        .items
        .iter()
        .map(|i| (i.hashes.exact, i.layout))
        .collect();
    let exacts: BTreeSet<Hash128> = before.detail.items.iter().map(|i| i.hashes.exact).collect();
    after
        .detail
        .items
        .iter()
        .any(|i| exacts.contains(&i.hashes.exact) && !layouts.contains(&(i.hashes.exact, i.layout)))
}

/// Whether a statement with the same tokens lists its order-free members (class,
/// interface and import members) in another order.
fn reordered_members(before: &FileAnalysis, after: &FileAnalysis) -> bool {
    let orders: BTreeSet<(Hash128, Hash128)> = before
        .detail
        .items
        .iter()
        .map(|i| (i.hashes.exact, i.order))
        .collect();
    let exacts: BTreeSet<Hash128> = before.detail.items.iter().map(|i| i.hashes.exact).collect();
    after
        .detail
        .items
        .iter()
        .any(|i| exacts.contains(&i.hashes.exact) && !orders.contains(&(i.hashes.exact, i.order)))
}

/// The units only before (`lost`) and only after (`gained`), as multisets.
fn unit_difference<'u>(before: &'u [Unit], after: &'u [Unit]) -> (Vec<&'u Unit>, Vec<&'u Unit>) {
    let mut counts: HashMap<_, i64> = HashMap::new();
    for u in before {
        *counts.entry(u.id).or_default() += 1;
    }
    for u in after {
        *counts.entry(u.id).or_default() -= 1;
    }
    let mut lost = Vec::new();
    let mut remaining = counts.clone();
    for u in before {
        let c = remaining.get_mut(&u.id).expect("counted");
        if *c > 0 {
            lost.push(u);
            *c -= 1;
        }
    }
    let mut gained = Vec::new();
    for u in after {
        let c = remaining.get_mut(&u.id).expect("counted");
        if *c < 0 {
            gained.push(u);
            *c += 1;
        }
    }
    (lost, gained)
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
