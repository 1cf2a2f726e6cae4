//! Every node kind and field a language spec names exists in its grammar.
//!
//! A spec compares kind names as strings: a typo, or a kind a grammar update renamed,
//! would silently never match. This reads each spec's source and checks every
//! snake_case string literal against the kinds (named and anonymous) and field names
//! of the grammars the file serves.

use std::collections::BTreeSet;
use std::path::Path;

use intent_ast_hash::lang::languages;

/// Which grammars each spec source serves (by language name), and the words it may
/// name that are not kinds or fields (names of the language's runtime, comment
/// markers, synthetic labels).
const SPECS: &[(&str, &[&str], &[&str])] = &[
    (
        "ecma",
        &["typescript", "tsx", "javascript"],
        &[
            "eval",
            "arguments",
            "require",
            "module",
            "exports",
            "webpack",
        ],
    ),
    ("typescript.rs", &["typescript", "tsx"], &[]),
    ("javascript.rs", &["javascript"], &[]),
    ("python", &["python"], &[]),
    ("rust", &["rust"], &["macro_use"]),
    ("go", &["go"], &["init", "nolint", "go_"]),
];

/// The snake_case string literals of a Rust source, comments skipped.
fn words(source: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in source.lines() {
        let code = line.trim_start();
        if code.starts_with("//") {
            continue;
        }
        let mut parts = code.split('"');
        parts.next();
        // Odd pieces are inside quotes (kind names hold no escaped quotes).
        while let (Some(inside), _) = (parts.next(), parts.next()) {
            if !inside.is_empty()
                && inside
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b == b'_' || b.is_ascii_digit())
                && inside.as_bytes()[0].is_ascii_lowercase()
            {
                out.insert(inside.to_string());
            }
        }
    }
    out
}

fn sources(root: &Path, entry: &str) -> String {
    let path = root.join(entry);
    if path.is_dir() {
        let mut files: Vec<_> = std::fs::read_dir(&path)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        // `names.rs` holds names of the language's runtime and tools, not kinds.
        files
            .iter()
            .filter(|f| !f.ends_with("names.rs"))
            .map(|f| std::fs::read_to_string(f).unwrap())
            .collect()
    } else {
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }
}

#[test]
fn every_kind_a_spec_names_exists_in_its_grammar() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lang");
    let mut checked = 0;
    for (entry, grammars, allowed) in SPECS {
        let langs: Vec<_> = languages()
            .iter()
            .filter(|l| grammars.contains(&l.spec.name()))
            .collect();
        if langs.is_empty() {
            continue; // its cargo feature is off
        }
        let mut known: BTreeSet<String> = allowed.iter().map(|w| w.to_string()).collect();
        for lang in &langs {
            known.insert(lang.spec.name().to_string());
            let grammar = lang.spec.grammar();
            for id in 0..grammar.node_kind_count() as u16 {
                if let Some(kind) = grammar.node_kind_for_id(id) {
                    known.insert(kind.to_string());
                }
            }
            for id in 1..=grammar.field_count() as u16 {
                if let Some(field) = grammar.field_name_for_id(id) {
                    known.insert(field.to_string());
                }
            }
        }
        let named = words(&sources(&root, entry));
        let unknown: Vec<&String> = named.iter().filter(|w| !known.contains(*w)).collect();
        assert!(
            unknown.is_empty(),
            "src/lang/{entry} names kinds or fields its grammars ({}) do not have: {unknown:?}",
            grammars.join(", ")
        );
        checked += named.len();
    }
    assert!(
        checked > 100,
        "only {checked} names checked: the scan found too few"
    );
}

#[test]
fn the_scan_finds_a_misspelt_kind() {
    let found = words("match kind { \"fuction_declaration\" => 1, _ => 0 } // \"comment_word\"");
    assert!(found.contains("fuction_declaration"));
    assert!(!found.contains("comment_word") || found.len() == 2);
}
