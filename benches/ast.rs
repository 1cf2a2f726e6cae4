//! AST hashing throughput on generated, realistic TypeScript, against bare parsing.
//!
//! Run with `cargo bench -p intent-ast-hash --bench ast`. Each size is measured four
//! ways in the same run, all in MB/s of source:
//!
//! - `parse`: tree-sitter parsing alone (the floor);
//! - `parse_walk`: parsing plus a bare cursor walk over every node (the floor of any
//!   one-pass hashing);
//! - `analyze`: parsing, block extraction and the three hashes (what a hook pays per
//!   file version);
//! - `classify_turn_*`: a whole one-file turn (two analyses, matching,
//!   classification), for a local edit (incremental re-parse) and a whole-file
//!   reformat.
//!
//! Budget: `analyze` within ~25% of `parse`.

use std::sync::OnceLock;

use divan::counter::BytesCount;
use divan::Bencher;
use intent_ast_hash::{analyze, classify, language_for_path, SourceFile};

fn main() {
    divan::main();
}

#[path = "support/typescript.rs"]
mod typescript;
use typescript::generate;

const SIZES: &[usize] = &[500, 2000, 5000];

fn inputs() -> &'static Vec<(usize, String)> {
    static INPUTS: OnceLock<Vec<(usize, String)>> = OnceLock::new();
    INPUTS.get_or_init(|| SIZES.iter().map(|&n| (n, generate(n))).collect())
}

fn input(lines: usize) -> &'static str {
    &inputs().iter().find(|(n, _)| *n == lines).unwrap().1
}

#[divan::bench(args = SIZES)]
fn parse(bencher: Bencher, lines: usize) {
    let text = input(lines);
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&language_for_path("a.ts").unwrap().grammar())
        .unwrap();
    // The tree is dropped inside the timed closure, as `analyze` drops its own.
    bencher
        .counter(BytesCount::new(text.len()))
        .bench_local(|| {
            let tree = parser.parse(text, None).unwrap();
            tree.root_node().child_count()
        });
}

#[divan::bench(args = SIZES)]
fn parse_walk(bencher: Bencher, lines: usize) {
    let text = input(lines);
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&language_for_path("a.ts").unwrap().grammar())
        .unwrap();
    bencher
        .counter(BytesCount::new(text.len()))
        .bench_local(|| {
            let tree = parser.parse(text, None).unwrap();
            let mut cursor = tree.walk();
            let mut nodes = 0usize;
            'walk: loop {
                nodes += cursor.node().kind_id() as usize & 1;
                if cursor.goto_first_child() {
                    continue;
                }
                while !cursor.goto_next_sibling() {
                    if !cursor.goto_parent() {
                        break 'walk;
                    }
                }
            }
            nodes
        });
}

#[divan::bench(args = SIZES)]
fn analyze_file(bencher: Bencher, lines: usize) {
    let file = SourceFile::new("src/records.ts", input(lines));
    bencher
        .counter(BytesCount::new(file.text.len()))
        .bench_local(|| analyze(&file));
}

/// A typical agent edit: one literal changed in one function (the after side
/// re-parses incrementally from the before tree).
#[divan::bench(args = SIZES)]
fn classify_turn_local_edit(bencher: Bencher, lines: usize) {
    let before = [SourceFile::new("src/records.ts", input(lines))];
    let edited = input(lines).replacen("LIMIT_0 = 100", "LIMIT_0 = 101", 1);
    let after = [SourceFile::new("src/records.ts", edited)];
    bencher
        .counter(BytesCount::new(before[0].text.len() + after[0].text.len()))
        .bench_local(|| classify(&before, &after));
}

/// A whole-file reformat (indentation doubled): nothing to reuse between versions.
#[divan::bench(args = SIZES)]
fn classify_turn_reformat(bencher: Bencher, lines: usize) {
    let before = [SourceFile::new("src/records.ts", input(lines))];
    let after = [SourceFile::new(
        "src/records.ts",
        input(lines).replace("  ", "    "),
    )];
    bencher
        .counter(BytesCount::new(before[0].text.len() + after[0].text.len()))
        .bench_local(|| classify(&before, &after));
}
