//! The one integration-test binary of `intent-ledger`; topics are modules.

mod test_append;
mod test_compat;
mod test_head;
mod test_reader;
mod test_redact;
mod test_redact_tables;
mod test_torn_tail;
mod test_verify;

use std::path::{Path, PathBuf};

use intent_ledger::{Durability, Ledger, LedgerOptions, NewEvent};
use serde_json::json;

/// Opens a ledger without fsync: these tests are about format and logic, not power cuts.
pub fn fast_ledger(path: &Path) -> Ledger {
    Ledger::open_with(
        path,
        LedgerOptions {
            durability: Durability::Never,
            ..LedgerOptions::default()
        },
    )
    .expect("open ledger")
}

/// Creates a ledger in a fresh temp dir with `n` lesson events after the genesis line.
pub fn ledger_with(n: usize) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("agent_trace.jsonl");
    let mut ledger = fast_ledger(&path);
    let events = (0..n)
        .map(|i| {
            NewEvent::new(
                "lesson",
                "test",
                json!({"text": format!("event {i}"), "i": i}),
            )
        })
        .collect();
    ledger.append_batch(events).unwrap();
    (dir, path)
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
