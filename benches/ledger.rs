//! Ledger throughput: appends (by durability), verify and read of a 1M-event ledger.
//!
//! Run with `cargo bench -p intent-ledger --bench ledger`. Set
//! `INTENT_BENCH_EVENTS` to change the size of the generated ledger (default 1M).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use divan::counter::{BytesCount, ItemsCount};
use divan::Bencher;
use intent_ledger::{
    read_events, verify_path, Durability, Ledger, LedgerOptions, LineReader, NewEvent,
};
use serde_json::json;

fn main() {
    divan::main();
}

/// A trace-like event of realistic size (~400 bytes on disk).
fn sample_event(i: u64) -> NewEvent {
    NewEvent::new(
        "trace",
        "hook:claude-code",
        json!({
            "intent_id": format!("INT-{:03}", i % 200),
            "path": format!("src/module_{}/file_{}.ts", i % 50, i % 997),
            "before_sha256": "sha256:3a7bd3e2360a3d29eea436fcfb7e44c735d117c42d1c1835420b6b9942dd4f1b",
            "after_sha256": "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
            "mutation_class": "INTENT_EVOLUTION",
            "tool_use_id": format!("toolu_{i}"),
            "ranges": [{"start_line": 10, "end_line": 24}],
        }),
    )
    .with_session("bench-session")
}

fn open(path: &Path, durability: Durability) -> Ledger {
    Ledger::open_with(
        path,
        LedgerOptions {
            durability,
            ..LedgerOptions::default()
        },
    )
    .unwrap()
}

#[divan::bench_group(sample_count = 20, sample_size = 1)]
mod append {
    use super::*;

    /// One event per call, fsync after each: what a hook pays per event.
    #[divan::bench]
    fn single_fsync_always(bencher: Bencher) {
        let dir = tempfile::tempdir().unwrap();
        let mut ledger = open(&dir.path().join("l.jsonl"), Durability::Always);
        let mut i = 0;
        bencher.counter(ItemsCount::new(1usize)).bench_local(|| {
            i += 1;
            ledger.append(sample_event(i)).unwrap()
        });
    }

    /// One event per call, no fsync.
    #[divan::bench]
    fn single_no_fsync(bencher: Bencher) {
        let dir = tempfile::tempdir().unwrap();
        let mut ledger = open(&dir.path().join("l.jsonl"), Durability::Never);
        let mut i = 0;
        bencher.counter(ItemsCount::new(1usize)).bench_local(|| {
            i += 1;
            ledger.append(sample_event(i)).unwrap()
        });
    }

    /// Group commit of 1000 events: one write, one fsync.
    #[divan::bench]
    fn batch_1000_fsync_always(bencher: Bencher) {
        batch(bencher, Durability::Always);
    }

    /// Group commit of 1000 events without fsync (budget: >= 200k events/s).
    #[divan::bench]
    fn batch_1000_no_fsync(bencher: Bencher) {
        batch(bencher, Durability::Never);
    }

    fn batch(bencher: Bencher, durability: Durability) {
        let dir = tempfile::tempdir().unwrap();
        let mut ledger = open(&dir.path().join("l.jsonl"), durability);
        bencher
            .counter(ItemsCount::new(1000usize))
            .with_inputs(|| (0..1000).map(sample_event).collect::<Vec<_>>())
            .bench_local_values(|events| ledger.append_batch(events).unwrap());
    }
}

/// A generated ledger shared by the read-side benchmarks.
fn big_ledger() -> &'static (tempfile::TempDir, PathBuf, u64, u64) {
    static LEDGER: OnceLock<(tempfile::TempDir, PathBuf, u64, u64)> = OnceLock::new();
    LEDGER.get_or_init(|| {
        let events: u64 = std::env::var("INTENT_BENCH_EVENTS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(1_000_000);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("agent_trace.jsonl");
        let mut ledger = open(&path, Durability::Never);
        let mut i = 0;
        while i < events {
            let n = 10_000.min(events - i);
            ledger
                .append_batch((i..i + n).map(sample_event).collect())
                .unwrap();
            i += n;
        }
        drop(ledger);
        let bytes = std::fs::metadata(&path).unwrap().len();
        eprintln!(
            "generated ledger: {} events, {:.1} MB",
            events + 1,
            bytes as f64 / 1e6
        );
        (dir, path, events + 1, bytes)
    })
}

#[divan::bench_group(sample_count = 10, sample_size = 1)]
mod read_side {
    use super::*;

    /// Full verification: seq, prev links and every BLAKE3 (budget: >= 500 MB/s).
    #[divan::bench]
    fn verify(bencher: Bencher) {
        let (_, path, _, bytes) = big_ledger();
        bencher
            .counter(BytesCount::new(*bytes))
            .bench(|| assert!(verify_path(path).unwrap().is_intact()));
    }

    /// Streaming raw lines (no JSON parsing).
    #[divan::bench]
    fn read_lines(bencher: Bencher) {
        let (_, path, events, _) = big_ledger();
        bencher
            .counter(ItemsCount::new(*events))
            .bench(|| LineReader::open(path).unwrap().count());
    }

    /// Streaming fully parsed events.
    #[divan::bench]
    fn read_events_parsed(bencher: Bencher) {
        let (_, path, events, _) = big_ledger();
        bencher.counter(ItemsCount::new(*events)).bench(|| {
            read_events(path)
                .unwrap()
                .map(|e| e.unwrap().seq)
                .sum::<u64>()
        });
    }
}
