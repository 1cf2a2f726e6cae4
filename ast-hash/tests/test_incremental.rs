//! `analyze_from`: re-parsing a version from the previous version's tree (what the
//! resident helper does) must give exactly the analysis a fresh parse gives, with
//! or without parse errors on either side.

use std::path::Path;

use intent_ast_hash::{analyze, analyze_from, stored, SourceFile};

use crate::test_corpus::read_tree;

/// Analyzes `next` from `previous`'s tree and checks it against a fresh analysis.
fn assert_incremental_equals_fresh(previous: &SourceFile, next: &SourceFile) {
    let (_, tree) = analyze_from(previous, None);
    let Some(tree) = tree else {
        return; // no grammar for this extension
    };
    let (incremental, next_tree) = analyze_from(next, Some((&tree, &previous.text)));
    // The stored form holds everything a hook keeps of an analysis.
    assert_eq!(
        stored::encode(&incremental),
        stored::encode(&analyze(next)),
        "{} after {}",
        next.path,
        previous.path
    );
    assert!(next_tree.is_some(), "{}: the tree is returned", next.path);
}

#[test]
fn every_corpus_change_analyzed_incrementally_equals_a_fresh_analysis() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut pairs = 0;
    for case in std::fs::read_dir(&root).unwrap() {
        let case = case.unwrap().path();
        if !case.is_dir() {
            continue;
        }
        let before = read_tree(&case.join("before"));
        for after in read_tree(&case.join("after")) {
            if let Some(old) = before.iter().find(|f| f.path == after.path) {
                // Both directions: an edit and its undo.
                assert_incremental_equals_fresh(old, &after);
                assert_incremental_equals_fresh(&after, old);
                pairs += 1;
            }
        }
    }
    assert!(pairs >= 40, "only {pairs} before/after pairs in the corpus");
}

#[test]
fn a_version_with_a_syntax_error_and_the_repair_after_it_match_fresh_parses() {
    let versions = [
        "export function a(x: number) { return x + 1; }\nexport const b = 2;\n",
        "export function a(x: number) { return x + ; }\nexport const b = 2;\n",
        "export function a(x: number) { return x * 2; }\nexport const b = 3;\nclass C {}\n",
    ];
    let files: Vec<SourceFile> = versions
        .iter()
        .map(|t| SourceFile::new("src/a.ts", *t))
        .collect();
    for pair in files.windows(2) {
        assert_incremental_equals_fresh(&pair[0], &pair[1]);
    }
    assert_incremental_equals_fresh(&files[0], &files[2]);
}

/// Whole declarations, each valid on its own, for versions built from them: any
/// sequence parses without errors, so the incremental path (not the fresh re-parse
/// that follows an error) is what the property below exercises.
const DECLARATIONS: &[&str] = &[
    "import { a } from './a'\n",
    "export function add(x: number, y: number): number {\n  return x + y\n}\n",
    "export function add(x: number, y: number): number {\n  return x - y\n}\n",
    "interface Get<E> {\n  <K extends keyof E>(key: K): E[K]\n  <K extends string>(key: K): unknown\n}\n",
    "export class Service {\n  run(x: number) {\n    return a(x) + 1\n  }\n\n  stop() {}\n}\n",
    "export class Service {\n  run(x: number) {\n    return a(x) + 2\n  }\n}\n",
    "const table = {\n  one: 1,\n  two: 2,\n}\n",
    "// a comment line\n",
    "\n",
    "export type Pair<T> = [T, T]\n",
    "export const helper = (y: string) => y.trim()\n",
    "enum Color {\n  Red,\n  Green,\n}\n",
];

/// A version: the declarations at `picks`, without its final newline when `open`.
fn version(picks: &[usize], open: bool) -> SourceFile {
    let mut text: String = picks.iter().map(|&i| DECLARATIONS[i]).collect();
    if open {
        text.pop();
    }
    SourceFile::new("src/v.ts", text)
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config {
        cases: 64,
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    })]

    /// Edits anywhere, many at once (reordered, inserted, removed and replaced
    /// declarations, a final newline added or dropped): the re-parse from the
    /// previous tree, one tree edit per changed run of lines, equals a fresh parse.
    #[test]
    fn many_edits_at_once_reparse_to_the_fresh_analysis(
        old in proptest::collection::vec(0..DECLARATIONS.len(), 0..14),
        new in proptest::collection::vec(0..DECLARATIONS.len(), 0..14),
        old_open: bool,
        new_open: bool,
    ) {
        let (old, new) = (version(&old, old_open), version(&new, new_open));
        assert!(analyze(&new).errors.is_empty() || new.text.is_empty(), "{:?}", new.text);
        assert_incremental_equals_fresh(&old, &new);
    }
}
