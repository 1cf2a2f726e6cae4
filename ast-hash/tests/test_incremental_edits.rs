//! "Incremental equals fresh" for every language: random line edits of real files
//! (the labelled corpora's, made by each language's own tools) re-parsed from the
//! previous version's tree must analyse exactly like a fresh parse, whether the edit
//! keeps the syntax valid or breaks it.

use std::path::Path;

use intent_ast_hash::{language_for_path, SourceFile};
use proptest::prelude::*;
use proptest::test_runner::Config;

use crate::test_corpus::read_tree;
use crate::test_incremental::assert_incremental_equals_fresh;

/// Every file of a corpus's before and after trees, by language name.
fn corpus_files(corpus: &str) -> Vec<SourceFile> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(corpus);
    let mut out = Vec::new();
    let mut cases: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    for case in cases {
        for side in ["before", "after"] {
            out.extend(
                read_tree(&case.join(side))
                    .into_iter()
                    .filter(|f| language_for_path(&f.path).is_some()),
            );
        }
    }
    out
}

/// Replaces lines `at..at + remove` of `text` with `take` lines of `donor` from `from`.
fn splice(text: &str, donor: &str, at: usize, remove: usize, from: usize, take: usize) -> String {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let donor: Vec<&str> = donor.split_inclusive('\n').collect();
    let at = at.min(lines.len());
    let end = (at + remove).min(lines.len());
    let from = from.min(donor.len());
    let until = (from + take).min(donor.len());
    let mut out = String::new();
    lines[..at].iter().for_each(|l| out.push_str(l));
    donor[from..until].iter().for_each(|l| out.push_str(l));
    lines[end..].iter().for_each(|l| out.push_str(l));
    out
}

fn check(files: &[SourceFile], edits: &[(usize, usize, usize, usize, usize)], pick: usize) {
    let mut current = files[pick % files.len()].clone();
    for &(donor, at, remove, from, take) in edits {
        let donor = &files[donor % files.len()].text;
        let lines = current.text.lines().count().max(1);
        let text = splice(&current.text, donor, at % lines, remove, from, take);
        let next = SourceFile::new(current.path.clone(), text);
        assert_incremental_equals_fresh(&current, &next);
        current = next;
    }
}

/// Every single-line deletion of every file of the corpora: deterministic, and the
/// edit that most often changes what other statements mean (`mod a;` gone under a
/// `pub use a::*`, a decorator's line, a `global`).
#[test]
fn every_line_deletion_of_every_corpus_file_reparses_like_fresh() {
    let mut checked = 0;
    for corpus in ["corpus-python", "corpus-rust", "corpus-go"] {
        for file in corpus_files(corpus) {
            let lines: Vec<&str> = file.text.split_inclusive('\n').collect();
            for gone in 0..lines.len() {
                let text: String = lines
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| *i != gone)
                    .map(|(_, l)| *l)
                    .collect();
                assert_incremental_equals_fresh(&file, &SourceFile::new(file.path.clone(), text));
                checked += 1;
            }
        }
    }
    assert!(checked > 5000, "only {checked} deletions");
}

/// A Rust file ending in an attribute whose item never came: the attribute's
/// statement takes in the file's trailing blank. Replayed after an edit above it,
/// it once added that blank twice (found by the random edits below).
#[test]
fn dangling_attribute_at_the_end_reparses_like_fresh() {
    for tail in ["\n", "\n\n", "", "\n// a note\n"] {
        let before = format!("mod a;\nmod b;\n\n#[derive(Debug, Default)]{tail}");
        let previous = SourceFile::new("src/lib.rs".to_string(), before.clone());
        let next = SourceFile::new("src/lib.rs".to_string(), before.replacen("mod b;\n", "", 1));
        assert_incremental_equals_fresh(&previous, &next);
    }
}

/// How many random edit sequences each language gets (`PROPTEST_CASES` to search
/// harder locally).
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(64)
}

fn edits() -> impl Strategy<Value = Vec<(usize, usize, usize, usize, usize)>> {
    prop::collection::vec(
        (
            any::<usize>(),
            any::<usize>(),
            0usize..4,
            0usize..200,
            0usize..4,
        ),
        1..5,
    )
}

proptest! {
    #![proptest_config(Config { cases: cases(), failure_persistence: None, ..Config::default() })]

    #[test]
    fn python_line_edits_reparse_like_fresh(pick in any::<usize>(), edits in edits()) {
        check(&corpus_files("corpus-python"), &edits, pick);
    }

    #[test]
    fn rust_line_edits_reparse_like_fresh(pick in any::<usize>(), edits in edits()) {
        check(&corpus_files("corpus-rust"), &edits, pick);
    }

    #[test]
    fn go_line_edits_reparse_like_fresh(pick in any::<usize>(), edits in edits()) {
        check(&corpus_files("corpus-go"), &edits, pick);
    }

    #[test]
    fn typescript_line_edits_reparse_like_fresh(pick in any::<usize>(), edits in edits()) {
        check(&corpus_files("corpus"), &edits, pick);
    }
}
