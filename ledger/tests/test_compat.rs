//! Committed version-1 ledgers keep reading and verifying as they did when written.

use std::path::PathBuf;

use intent_ledger::{read_events, verify_path, Ledger, LedgerError, NewEvent};
use serde_json::json;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/ledger")
        .join(name)
}

/// Copies a fixture into a temp dir so appends cannot touch the committed file.
fn scratch(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("agent_trace.jsonl");
    std::fs::copy(fixture(name), &path).unwrap();
    (dir, path)
}

#[test]
fn v1_intact_reads_and_verifies() {
    let events: Vec<_> = read_events(fixture("v1_intact.jsonl"))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let kinds: Vec<_> = events.iter().map(|e| e.kind.as_str()).collect();
    assert_eq!(
        kinds,
        [
            "ledger.genesis",
            "intent.spec",
            "session.start",
            "intent.selected",
            "trace",
            "future.kind",
            "lesson"
        ]
    );
    assert_eq!(events[4].intent_id(), Some("INT-001"));
    assert_eq!(events[4].ts, "2026-11-22T10:00:02.000000Z");
    assert_eq!(events[5].data, json!({"anything": [1, 2]}));
    let report = verify_path(fixture("v1_intact.jsonl")).unwrap();
    assert!(report.is_intact());
    assert_eq!(report.last_seq, 7);
}

#[test]
fn v1_torn_tail_reads_the_prefix_and_the_next_append_repairs_it() {
    let (_dir, path) = scratch("v1_torn_tail.jsonl");
    assert_eq!(read_events(&path).unwrap().count(), 7);
    let report = verify_path(&path).unwrap();
    assert!(report.is_intact());
    assert!(report.torn_tail_bytes > 0);
    let mut ledger = Ledger::open(&path).unwrap();
    assert_eq!(
        ledger
            .append(NewEvent::new("lesson", "t", json!({})))
            .unwrap()
            .seq,
        8
    );
    assert_eq!(verify_path(&path).unwrap().torn_tail_bytes, 0);
}

#[test]
fn v1_corrupt_line_is_found_at_seq_5() {
    let report = verify_path(fixture("v1_corrupt_line.jsonl")).unwrap();
    let bad = report.corruption.expect("corruption");
    assert_eq!(bad.seq, 5);
    assert_eq!(report.events, 4);
    // The corrupt line is not the last one, so append itself does not notice it:
    // only verification does (documented; see `intent verify`).
    let (_dir, path) = scratch("v1_corrupt_line.jsonl");
    intent_ledger::mark_corrupt(&path, &bad).unwrap();
    assert!(matches!(
        Ledger::open(&path),
        Err(LedgerError::Corruption { seq: 5, .. })
    ));
}
