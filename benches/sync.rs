//! Sharing ledgers through git (issue #14): what `intent sync` costs on a large
//! ledger after a few new events, in time and in new git object bytes, and what a
//! query costs when it also reads other clones' fetched ledgers.
//!
//! 1. A ledger of `INTENT_BENCH_EVENTS` events (default 1,000,000) is published once;
//!    then, `INTENT_BENCH_ROUNDS` times (default 8), 1,000 events are appended and
//!    `intent sync` runs (no remote: the local checkpoint, which is all a push sends).
//!    Reported: seconds per sync, and object bytes per sync as a ratio to the ledger
//!    bytes those 1,000 events added (the floor: nothing can store them in less
//!    without compressing).
//! 2. `INTENT_BENCH_CLONES` clones (default 10) of one bare remote each publish a
//!    ledger of `INTENT_BENCH_CLONE_EVENTS` events (default 100,000) with traced
//!    writes among them; one clone syncs them all. Then `intent why` and
//!    `intent search` in that clone, p50 over `INTENT_BENCH_RUNS` runs (default 20),
//!    with every fetched ledger and with none (the floor, same clone, same query).
//!
//! Run with `cargo bench -p intent-cli --bench sync`.

use std::time::Instant;

#[path = "support/clones.rs"]
mod clones;
use clones::{append, env, git, home_with_remote, intent, new_repo, p50, sync};

fn main() {
    let bin = std::env::var("INTENT_BENCH_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_intent").to_string());
    let total = env("INTENT_BENCH_EVENTS", 1_000_000);
    let rounds = env("INTENT_BENCH_ROUNDS", 8);
    let clones = env("INTENT_BENCH_CLONES", 10);
    let clone_events = env("INTENT_BENCH_CLONE_EVENTS", 100_000);
    let runs = env("INTENT_BENCH_RUNS", 20) as usize;
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().canonicalize().unwrap();

    // 1. A large ledger, then small syncs.
    let big = base.join("big");
    new_repo(&big, &bin);
    append(&bin, &big, 0, total, "big");
    let ledger = big.join(".git/intent/agent_trace.jsonl");
    let (first, report) = sync(&bin, &big);
    println!(
        "ledger of {} events ({:.1} MB): first sync {:.2} s, {} bytes of objects",
        total,
        std::fs::metadata(&ledger).unwrap().len() as f64 / 1e6,
        first.as_secs_f64(),
        report["published"]["object_bytes"]
    );
    let mut times = Vec::new();
    let (mut objects, mut added) = (0u64, 0u64);
    for round in 0..rounds {
        let before = std::fs::metadata(&ledger).unwrap().len();
        append(&bin, &big, total + round * 1000, 1000, "big");
        let grew = std::fs::metadata(&ledger).unwrap().len() - before;
        let (took, report) = sync(&bin, &big);
        let bytes = report["published"]["object_bytes"].as_u64().unwrap();
        println!(
            "  +1000 events ({grew} ledger bytes): sync {:.0} ms, {bytes} object bytes ({:.2}× the new ledger bytes){}",
            took.as_secs_f64() * 1000.0,
            bytes as f64 / grew as f64,
            if report["published"]["new_segments"].as_u64() > Some(0) {
                ", sealed a segment"
            } else {
                ""
            }
        );
        times.push(took);
        objects += bytes;
        added += grew;
    }
    println!(
        "sync after 1000 new events on a {total}-event ledger: p50 {:.0} ms; {} object bytes per 1000 events over {rounds} syncs ({:.2}× the ledger bytes added)",
        p50(times),
        objects / rounds,
        objects as f64 / added as f64
    );

    // 2. Queries over fetched ledgers.
    let (home, remote) = home_with_remote(&base, &bin);
    for c in 0..clones {
        let root = base.join(format!("clone{c}"));
        git(
            &base,
            &[
                "clone",
                "-q",
                remote.to_str().unwrap(),
                root.to_str().unwrap(),
            ],
        );
        intent(&bin, &root, &["init"], None);
        append(&bin, &root, 0, clone_events, &format!("clone{c}"));
        sync(&bin, &root);
    }
    let started = Instant::now();
    sync(&bin, &home);
    println!(
        "{clones} clones × {clone_events} events fetched and verified in {:.2} s",
        started.elapsed().as_secs_f64()
    );
    let queries: [&[&str]; 2] = [&["why", "src/app.ts:2"], &["search", "token"]];
    let cold = Instant::now();
    for q in queries {
        intent(&bin, &home, q, None);
    }
    println!(
        "first queries (building the fetched ledgers' projections): {:.2} s",
        cold.elapsed().as_secs_f64()
    );
    let fetched = home.join(".git/intent/fetched");
    let parked = home.join(".git/intent/fetched-parked");
    for q in queries {
        let measure = || {
            (0..runs)
                .map(|_| {
                    let t = Instant::now();
                    intent(&bin, &home, q, None);
                    t.elapsed()
                })
                .collect::<Vec<_>>()
        };
        let with = p50(measure());
        std::fs::rename(&fetched, &parked).unwrap();
        let floor = p50(measure());
        std::fs::rename(&parked, &fetched).unwrap();
        println!(
            "intent {}: p50 {with:.1} ms with {clones} fetched ledgers, {floor:.1} ms with none ({:.1}×)",
            q.join(" "),
            with / floor
        );
    }
}
