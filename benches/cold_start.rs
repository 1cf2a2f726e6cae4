//! Cold start (issue #30): the first hook after the derived caches are lost, on a
//! ledger of `INTENT_BENCH_EVENTS` events (default 1,000,000, the `intent bench`
//! workload: sessions, prompts, traces with real blocks). Cases, each a whole
//! `intent hook claude-code` process answering a PreToolUse:
//!
//! - no cache, no checkpoint: the state is rebuilt from the whole ledger (and a
//!   checkpoint is written beside it);
//! - no cache, a checkpoint at the tail;
//! - no cache, a checkpoint `INTENT_BENCH_SINCE` events (default 50,000) behind;
//! - warm (cache in place), and spawning `/bin/true`, the floor.
//!
//! Run with `cargo bench -p intent-cli --bench cold_start`; `INTENT_BENCH_RUNS`
//! sets the runs per case (default 5).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use intent_cli::commands::bench::workload::{generate, WorkloadSpec};
use intent_ledger::{Durability, Ledger, LedgerOptions, NewEvent, Workspace};
use serde_json::{json, Value};

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn hook(root: &Path, payload: &Value) -> Duration {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_intent"))
        .arg("--workspace")
        .arg(root)
        .args(["hook", "claude-code"])
        .env("INTENT_HELPER", "off")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let took = started.elapsed();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    took
}

fn median_ms(mut samples: Vec<Duration>) -> f64 {
    samples.sort_unstable();
    (samples[samples.len() / 2].as_secs_f64() * 1e4).round() / 10.0
}

fn main() {
    let events = env("INTENT_BENCH_EVENTS", 1_000_000);
    let since = env("INTENT_BENCH_SINCE", 50_000);
    let runs = env("INTENT_BENCH_RUNS", 5).max(1) as usize;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let started = Instant::now();
    let spec = WorkloadSpec {
        events,
        ..WorkloadSpec::default()
    };
    let work = generate(&root, &spec, |_| {}).unwrap();
    let ws = Workspace::at(&root);
    let ledger = ws.ledger_path();
    let bytes = std::fs::metadata(&ledger).unwrap().len();
    eprintln!(
        "generated {} events ({:.0} MB) in {:.0} s",
        work.events,
        bytes as f64 / 1e6,
        started.elapsed().as_secs_f64()
    );
    let file = root.join(&work.files[0]);
    let pre = json!({"hook_event_name": "PreToolUse", "session_id": "cold", "cwd": root,
        "tool_name": "Write", "tool_input": {"file_path": file, "content": "export const a = 1;\n"},
        "tool_use_id": "t1"});
    let lose_cache = || {
        let _ = std::fs::remove_dir_all(ws.cache_dir());
    };
    let checkpoints = intent_state::checkpoint::dir(&ledger);
    let floor = median_ms(
        (0..runs * 4)
            .map(|_| {
                let started = Instant::now();
                Command::new("true").status().unwrap();
                started.elapsed()
            })
            .collect(),
    );
    let rebuild = median_ms(
        (0..runs)
            .map(|_| {
                lose_cache();
                let _ = std::fs::remove_dir_all(&checkpoints);
                hook(&root, &pre)
            })
            .collect(),
    );
    let wrote_checkpoint = intent_state::checkpoint::newest_end(&ledger) > 0;
    let at_tail = median_ms(
        (0..runs)
            .map(|_| {
                lose_cache();
                hook(&root, &pre)
            })
            .collect(),
    );
    let warm = median_ms((0..runs).map(|_| hook(&root, &pre)).collect());
    // Events after the checkpoint, as a long-running workspace has them.
    let mut writer = Ledger::open_with(
        &ledger,
        LedgerOptions {
            durability: Durability::Never,
            ..LedgerOptions::default()
        },
    )
    .unwrap();
    for chunk in 0..since.div_ceil(1000) {
        let batch = (0..1000)
            .map(|i| {
                NewEvent::new(
                    "trace",
                    "cold",
                    json!({"path": format!("src/later_{}.ts", (chunk * 1000 + i) % 97),
                        "intent_id": "INT-001", "after_sha256": "sha256:00"}),
                )
            })
            .collect();
        writer.append_batch(batch).unwrap();
    }
    drop(writer);
    let behind = median_ms(
        (0..runs)
            .map(|_| {
                lose_cache();
                hook(&root, &pre)
            })
            .collect(),
    );
    println!(
        "cold start, {} events ({:.0} MB ledger), median of {runs} runs (ms)",
        work.events,
        bytes as f64 / 1e6
    );
    println!("{:<52} {:>9}", "case", "ms");
    println!("{:<52} {:>9.1}", "spawn /bin/true (floor)", floor);
    println!("{:<52} {:>9.1}", "warm hook (cache in place)", warm);
    println!(
        "{:<52} {:>9.1}",
        "no cache, no checkpoint (whole-ledger rebuild)", rebuild
    );
    println!(
        "{:<52} {:>9.1}",
        format!(
            "no cache, checkpoint at the tail{}",
            if wrote_checkpoint {
                ""
            } else {
                " (NONE WRITTEN)"
            }
        ),
        at_tail
    );
    println!(
        "{:<52} {:>9.1}",
        format!("no cache, checkpoint {since} events behind"),
        behind
    );
}
