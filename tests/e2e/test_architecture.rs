//! The house keeps its shape (ARCHITECTURE.md): no crate's top-level modules import
//! each other in a cycle, and the ledger crate stays storage only.
//!
//! Cargo already refuses cycles between crates; inside a crate nothing does, and a
//! cycle between two modules makes neither understandable (or movable) alone.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Every crate of the workspace with a `src/` directory (vendored code aside).
fn crates(root: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        if dir.join("Cargo.toml").is_file() && dir.join("src").is_dir() {
            found.push(dir.clone());
        }
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let name = entry.file_name();
            let skip = matches!(
                name.to_str(),
                Some("target" | "vendor" | "fixtures" | "node_modules")
            ) || name.to_string_lossy().starts_with('.');
            if entry.file_type().unwrap().is_dir() && !skip {
                stack.push(entry.path());
            }
        }
    }
    found.sort();
    found
}

fn rust_files(dir: &Path, into: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, into);
        } else if path.extension().is_some_and(|e| e == "rs") {
            into.push(path);
        }
    }
}

/// The top-level module a file of `src/` belongs to (`None` for `lib.rs`/`main.rs`).
fn top_module(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel.components().next()?.as_os_str().to_str()?.to_string();
    if rel.components().count() > 1 {
        return Some(first);
    }
    let stem = first.trim_end_matches(".rs");
    (!matches!(stem, "lib" | "main")).then(|| stem.to_string())
}

/// `crate::<module>` paths in code (comments and doc links are not imports).
fn crate_paths(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for line in text.lines() {
        let code = line.trim_start();
        if code.starts_with("//") {
            continue;
        }
        for (at, _) in code.match_indices("crate::") {
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue; // `intent_crate::…`, not ours
            }
            let name: String = code[at + 7..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                found.insert(name);
            }
        }
    }
    found
}

/// The module graph of one crate: which top-level modules each one's files name.
fn module_graph(krate: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let src = krate.join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let Some(module) = top_module(&src, &file) else {
            continue;
        };
        // Unit-test modules (`tests.rs`, `*_tests.rs`) drive a module through the
        // crate's upper layers; they are not part of its design.
        let name = file.file_name().unwrap().to_string_lossy();
        if name.ends_with("tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let entry = graph.entry(module.clone()).or_default();
        for target in crate_paths(&text) {
            if target != module {
                entry.insert(target);
            }
        }
    }
    graph
}

/// The modules reachable from `from`.
fn reachable(graph: &BTreeMap<String, BTreeSet<String>>, from: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut stack: Vec<&str> = vec![from];
    while let Some(m) = stack.pop() {
        for next in graph.get(m).into_iter().flatten() {
            if seen.insert(next.clone()) {
                stack.push(next);
            }
        }
    }
    seen
}

/// Pairs `(a, b)` of modules that reach each other.
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for a in graph.keys() {
        for b in graph[a].iter().filter(|b| a < *b) {
            if reachable(graph, b).contains(a) {
                found.push((a.clone(), b.clone()));
            }
        }
    }
    found
}

#[test]
fn no_crate_has_modules_that_import_each_other_in_a_cycle() {
    let root = workspace_root();
    let crates = crates(&root);
    assert!(crates.len() >= 10, "{crates:?}");
    let mut found = Vec::new();
    for krate in &crates {
        for (a, b) in cycles(&module_graph(krate)) {
            found.push(format!(
                "{}: {a} <-> {b}",
                krate.strip_prefix(&root).unwrap().display()
            ));
        }
    }
    assert!(found.is_empty(), "module cycles:\n{}", found.join("\n"));
}

#[test]
fn the_cycle_check_sees_a_cycle() {
    // The check itself must be able to fail: a -> b -> c -> a, each edge on a cycle.
    let mut graph = BTreeMap::new();
    graph.insert("a".to_string(), crate_paths("use crate::b::X;"));
    graph.insert("b".to_string(), crate_paths("fn f() { crate::c::g(); }"));
    graph.insert(
        "c".to_string(),
        crate_paths("// crate::zzz is a comment\nuse crate::a;"),
    );
    assert_eq!(
        cycles(&graph),
        [("a".into(), "b".into()), ("b".into(), "c".into())]
    );
    assert!(crate_paths("intent_crate::x").is_empty());
}

#[test]
fn the_ledger_crate_is_storage_only() {
    // No gate, grammar, spec, state or search code: those are their own crates.
    let manifest = std::fs::read_to_string(workspace_root().join("ledger/Cargo.toml")).unwrap();
    let table: toml::Table = manifest.parse().unwrap();
    let deps: Vec<&String> = table["dependencies"].as_table().unwrap().keys().collect();
    for forbidden in [
        "tree-sitter",
        "tree-sitter-bash",
        "intent-gate",
        "intent-spec",
        "intent-state",
        "intent-ast-hash",
        "tantivy",
        "serde_yaml",
        "serde_norway",
    ] {
        assert!(
            !deps.iter().any(|d| d.as_str() == forbidden),
            "intent-ledger depends on {forbidden}: {deps:?}"
        );
    }
}
