//! The one integration-test binary of `intent-ast-hash`; topics are modules.

mod test_blocks;
mod test_classify;
mod test_corpus;
mod test_go;
mod test_grammar_fix;
mod test_hashes;
mod test_incremental;
mod test_incremental_edits;
mod test_local_functions;
mod test_matching;
mod test_origins;
mod test_properties;
mod test_python;
mod test_rust;
mod test_spec_kinds;
mod test_stability;
mod test_stored;

use std::path::Path;

use intent_ast_hash::{
    analyze, classify, Block, BlockHashes, Classification, FileAnalysis, MutationClass, SourceFile,
};

/// Analyzes `text` as the file `path`.
pub fn analyze_as(path: &str, text: &str) -> FileAnalysis {
    analyze(&SourceFile::new(path, text))
}

/// The whole-file hashes of a TypeScript snippet.
pub fn ts(text: &str) -> BlockHashes {
    analyze_as("a.ts", text).hashes.expect("a grammar for .ts")
}

/// The block named `name` (qualified), or a panic listing the blocks there are.
pub fn block<'a>(analysis: &'a FileAnalysis, name: &str) -> &'a Block {
    analysis
        .blocks
        .iter()
        .find(|b| b.qualified_name == name)
        .unwrap_or_else(|| {
            let names: Vec<&str> = analysis
                .blocks
                .iter()
                .map(|b| b.qualified_name.as_str())
                .collect();
            panic!("no block `{name}` in {}; blocks: {names:?}", analysis.path)
        })
}

/// Builds source files from (path, text) pairs.
pub fn files(pairs: &[(&str, &str)]) -> Vec<SourceFile> {
    pairs.iter().map(|(p, t)| SourceFile::new(*p, *t)).collect()
}

/// Classifies a turn given as (path, text) pairs.
pub fn turn(before: &[(&str, &str)], after: &[(&str, &str)]) -> Classification {
    classify(&files(before), &files(after))
}

/// Asserts the class of a single-file TypeScript change, showing the reason on failure.
#[track_caller]
pub fn assert_class(before: &str, after: &str, expected: MutationClass) -> Classification {
    let verdict = turn(&[("src/a.ts", before)], &[("src/a.ts", after)]);
    assert_eq!(
        verdict.mutation_class, expected,
        "reason: {}\n--- before\n{before}\n--- after\n{after}",
        verdict.reason
    );
    verdict
}

#[test]
fn every_test_file_is_registered() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let main = std::fs::read_to_string(here.join("tests.rs")).unwrap();
    for entry in std::fs::read_dir(&here).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if let Some(module) = name.strip_suffix(".rs") {
            if module != "tests" {
                assert!(
                    main.contains(&format!("mod {module};")),
                    "tests/{name} is not registered in tests/tests.rs"
                );
            }
        }
    }
}
