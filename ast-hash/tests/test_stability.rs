//! Committed hashes of committed sources: any change to the hashing scheme fails here.
//!
//! When the change is intended, bump `SCHEME_VERSION` in `src/lib.rs` and regenerate
//! the expectations with `INTENT_BLESS=1 cargo test -p intent-ast-hash`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use intent_ast_hash::{analyze, SourceFile, SCHEME_VERSION};
use serde_json::{json, Value};

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/stability");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ts"))
        .collect();
    out.sort();
    out
}

/// The hashes of every fixture, in a deterministic JSON shape.
fn current() -> Value {
    let mut files = BTreeMap::new();
    for path in fixtures() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        let analysis = analyze(&SourceFile::new(name.clone(), text));
        assert!(
            analysis.errors.is_empty(),
            "{name} must parse: {:?}",
            analysis.errors
        );
        let file = analysis.hashes.unwrap();
        let blocks: Vec<Value> = analysis
            .blocks
            .iter()
            .map(|b| {
                json!({
                    "name": b.qualified_name,
                    "kind": b.kind,
                    "exact": b.hashes.exact,
                    "alpha": b.hashes.alpha,
                    "shape": b.hashes.shape,
                    "signature": b.signature,
                })
            })
            .collect();
        files.insert(name, json!({ "exact": file.exact, "alpha": file.alpha, "shape": file.shape, "blocks": blocks }));
    }
    json!({ "scheme_version": SCHEME_VERSION, "files": files })
}

#[test]
fn hashes_are_stable() {
    let expected_path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/stability/expected.json");
    let actual = current();
    if std::env::var_os("INTENT_BLESS").is_some() {
        let text = serde_json::to_string_pretty(&actual).unwrap() + "\n";
        std::fs::write(&expected_path, text).unwrap();
        return;
    }
    let expected: Value = serde_json::from_str(
        &std::fs::read_to_string(&expected_path).unwrap_or_else(|e| {
            panic!(
                "{}: {e}; create it with `INTENT_BLESS=1 cargo test -p intent-ast-hash`",
                expected_path.display()
            )
        }),
    )
    .unwrap();
    let advice = "The AST hashing scheme changed: stored block hashes would no longer match. If this is \
                  intended, bump SCHEME_VERSION in ast-hash/src/lib.rs and regenerate the expectations with \
                  `INTENT_BLESS=1 cargo test -p intent-ast-hash`.";
    assert_eq!(
        expected["scheme_version"], actual["scheme_version"],
        "SCHEME_VERSION changed: regenerate with `INTENT_BLESS=1 cargo test -p intent-ast-hash`"
    );
    if expected != actual {
        let mut diffs = Vec::new();
        for (name, file) in actual["files"].as_object().unwrap() {
            let old = &expected["files"][name];
            for key in ["exact", "alpha", "shape"] {
                if old[key] != file[key] {
                    diffs.push(format!("{name}: file {key} {} -> {}", old[key], file[key]));
                }
            }
            for (i, block) in file["blocks"].as_array().unwrap().iter().enumerate() {
                if old["blocks"][i] != *block {
                    diffs.push(format!("{name}: block {} changed", block["name"]));
                }
            }
        }
        panic!("{advice}\n{}", diffs.join("\n"));
    }
}
