//! `analyze_from`: re-parsing a version from the previous version's tree (what the
//! resident helper does) must give exactly the analysis a fresh parse gives, with
//! or without parse errors on either side.

use std::path::Path;

use intent_ast_hash::{analyze, analyze_from, stored, SourceFile};

use crate::test_corpus::read_tree;

/// Analyzes `next` from `previous`'s tree and checks it against a fresh analysis.
pub(crate) fn assert_incremental_equals_fresh(previous: &SourceFile, next: &SourceFile) {
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
    for (corpus, min_pairs) in [
        ("corpus", 40),
        ("corpus-python", 30),
        ("corpus-rust", 25),
        ("corpus-go", 25),
    ] {
        let pairs = corpus_pairs(corpus);
        assert!(
            pairs >= min_pairs,
            "only {pairs} before/after pairs in {corpus}"
        );
    }
}

/// Checks every before/after pair of a corpus both ways; returns how many there are.
pub(crate) fn corpus_pairs(corpus: &str) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(corpus);
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
    pairs
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

/// Analyzes each version from the one before (the incremental result, as the
/// resident helper keeps it) and checks each against a fresh analysis; returns
/// how many top-level statements were replayed rather than walked.
fn assert_chain_equals_fresh(versions: &[SourceFile]) -> usize {
    let Some(first) = versions.first() else {
        return 0;
    };
    let (_, mut parsed) = analyze_from(first, None);
    let mut reused = 0;
    for pair in versions.windows(2) {
        let Some(previous) = parsed.as_ref() else {
            return reused;
        };
        let (incremental, next) = analyze_from(&pair[1], Some((previous, &pair[0].text)));
        assert_eq!(
            stored::encode(&incremental),
            stored::encode(&analyze(&pair[1])),
            "{:?} after {:?}",
            pair[1].text,
            pair[0].text
        );
        reused += next.as_ref().map_or(0, |p| p.reused_statements());
        parsed = next;
    }
    reused
}

/// Statements with everything a statement's walk records: blocks nested in blocks,
/// comments (pragmas too), order-insensitive members, imports, exports, default
/// exports, free names and local scopes.
const STATEMENTS: &[&str] = &[
    "import { a, type B } from './a'\n",
    "/* @__PURE__ */ export const made = a()\n",
    "export default class Store<T> {\n  // keeps T\n  #items: T[] = []\n  get size() { return this.#items.length }\n  set size(n) {}\n  static of<T>(x: T) { const s = new Store<T>(); return s }\n}\n",
    "export interface Api {\n  b(): void\n  a: string\n  [key: string]: unknown\n}\n",
    "namespace Inner {\n  export function deep(x: number) { return x }\n  export const k = 1\n}\n",
    "function local(a: number, b = () => a) {\n  let c = a\n  return function named() { return c + b() }\n}\n",
    "export { local as renamed }\n",
    "export * from './barrel'\n",
    "declare module 'x' {\n  export type X = number\n}\n",
    "// @ts-ignore: a directive\nconsole.log(made)\n",
    "export const table = {\n  one: 1,\n  two: [1, 2],\n}\n",
    "export function add(x: number, y: number): number {\n  return x + y\n}\n",
    "export function add(x: number, y: number): number {\n  return x - y\n}\n",
    "\n",
];

fn statements(picks: &[usize]) -> SourceFile {
    SourceFile::new(
        "src/s.ts",
        picks.iter().map(|&i| STATEMENTS[i]).collect::<String>(),
    )
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config {
        cases: 96,
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    })]

    /// Chains of versions, each analyzed from the one before as the helper does
    /// (so statements replayed once are replayed again): every analysis equals a
    /// fresh one, byte for byte.
    #[test]
    fn replayed_statements_give_the_fresh_analysis_along_a_chain(
        versions in proptest::collection::vec(
            proptest::collection::vec(0..STATEMENTS.len(), 0..12),
            2..5,
        ),
    ) {
        let files: Vec<SourceFile> = versions.iter().map(|picks| statements(picks)).collect();
        assert_chain_equals_fresh(&files);
    }
}

/// The property above would hold if nothing were ever replayed: a change of one
/// statement among many replays the others, moved down by lines inserted above.
#[test]
fn the_statements_an_edit_leaves_alone_are_replayed_not_walked() {
    let base: Vec<usize> = (0..STATEMENTS.len() - 2).collect();
    let mut edited = base.clone();
    edited.insert(0, 13); // a blank line above all: every statement moves
    let position = edited.iter().position(|&i| i == 11).unwrap();
    edited[position] = 12; // `add` changes its body
    let reused = assert_chain_equals_fresh(&[statements(&base), statements(&edited)]);
    assert_eq!(reused, base.len() - 1, "all but the edited statement");
}

/// Edits after which a statement's text is unchanged but its meaning is not:
/// merged by a missing semicolon, swallowed by a comment or a template that opens
/// above it, pulled into an `export` or a class. None may be replayed wrongly.
#[test]
fn unchanged_text_in_a_changed_context_is_walked_again() {
    let pairs = [
        (
            "const a = f;\n(x)\nconst b = 2\n",
            "const a = f\n(x)\nconst b = 2\n",
        ),
        ("let s = 1;\n[1, 2].map(g)\n", "let s = 1\n[1, 2].map(g)\n"),
        (
            "const r = 1\n/re/g.test(x)\n",
            "const r = a\n/re/g.test(x)\n",
        ),
        (
            "function f() {}\nconst b = 2\n",
            "/* function f() {}\nconst b = 2\n*/\n",
        ),
        (
            "const t = 1\nconst b = 2\n",
            "const t = `\nconst b = 2\n`\n",
        ),
        ("function f() {}\n", "export\nfunction f() {}\n"),
        (
            "function f() {}\nconst b = 2\n",
            "class C {\nf() {}\nb = 2\n}\n",
        ),
        (
            "label: for (;;) {}\nconst b = 2\n",
            "const b = 2\nlabel: for (;;) {}\n",
        ),
        (
            "const x = 1\n<T>(y: T) => y\n",
            "const x = 1;\n<T>(y: T) => y\n",
        ),
    ];
    for (old, new) in pairs {
        let (old, new) = (
            SourceFile::new("src/c.ts", old),
            SourceFile::new("src/c.ts", new),
        );
        assert_chain_equals_fresh(&[old.clone(), new.clone()]);
        assert_chain_equals_fresh(&[new, old]);
    }
}
