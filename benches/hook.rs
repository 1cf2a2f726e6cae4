//! Hook process latency: spawn → exit of `intent hook claude-code`, as Claude Code
//! runs it for every tool call, against a workspace with 200 intents and a
//! 1M-event ledger. Compared with spawning a trivial binary in the same run.
//!
//! Run with `cargo bench -p intent-cli --bench hook`. `INTENT_BENCH_EVENTS` sets the
//! ledger size (default 1M), `INTENT_BENCH_RUNS` the runs per case (default 300),
//! `INTENT_BENCH_ONLY` a substring of the case names to run.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use intent_ledger::{Durability, Ledger, LedgerOptions, NewEvent, Workspace};
use serde_json::{json, Value};

#[path = "support/typescript.rs"]
mod typescript;

fn main() {
    let events: u64 = env("INTENT_BENCH_EVENTS", 1_000_000);
    let runs: usize = env("INTENT_BENCH_RUNS", 300) as usize;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    // `INTENT_BENCH_KEEP=1` leaves the workspace behind (and writes the PostToolUse
    // payloads next to it) for profiling a single hook run by hand.
    let keep = std::env::var_os("INTENT_BENCH_KEEP").is_some();
    let ws = Workspace::at(&root);
    ws.init().unwrap();
    std::fs::write(ws.specs_path(), specs(200)).unwrap();
    let started = Instant::now();
    fill_ledger(&ws, events);
    eprintln!(
        "generated {events} events in {:.1}s",
        started.elapsed().as_secs_f64()
    );
    std::fs::create_dir_all(root.join("src/mod_7")).unwrap();
    let file = root.join("src/mod_7/big.ts");
    std::fs::write(&file, ts_file(500)).unwrap();
    // A realistic module (classes, interfaces, arrow functions: ~30 bytes a line),
    // besides the dense one above (one exported function on every line).
    let real = root.join("src/mod_7/real.ts");
    let real_before = typescript::generate(500);
    let real_after = real_before.replacen("batchSize = 50", "batchSize = 64", 1);
    std::fs::write(&real, &real_after).unwrap();

    let intent = env!("CARGO_BIN_EXE_intent");
    // First hook run rebuilds the state cache from the whole ledger (once per
    // workspace); every later run catches up from the cache's stamp.
    let started = Instant::now();
    hook(
        intent,
        &root,
        &json!({"hook_event_name": "SessionStart", "session_id": "bench", "cwd": root, "source": "startup"}),
    );
    eprintln!(
        "first hook (cold state cache rebuild): {:.0} ms",
        started.elapsed().as_secs_f64() * 1e3
    );
    let out = Command::new(intent)
        .args(["--workspace"])
        .arg(&root)
        .args(["select", "INT-007", "--session", "bench"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let pre = json!({"hook_event_name": "PreToolUse", "session_id": "bench", "cwd": root,
        "tool_name": "Write", "tool_input": {"file_path": file, "content": ts_file(500)}, "tool_use_id": "toolu_b"});
    let post = json!({"hook_event_name": "PostToolUse", "session_id": "bench", "cwd": root,
        "tool_name": "Write", "tool_input": {"file_path": file, "content": ts_file(500)}, "tool_use_id": "toolu_b",
        "tool_response": {"type": "update", "filePath": file, "originalFile": ts_file(499)}});
    let prompt = json!({"hook_event_name": "UserPromptSubmit", "session_id": "bench", "cwd": root,
        "prompt": "Refactor verify() to reject expired tokens", "prompt_id": "p1"});
    let allowed = hook(intent, &root, &pre);
    assert!(
        !allowed.to_string().contains("deny"),
        "the benchmark's write must be allowed: {allowed}"
    );

    println!("hook process latency, {runs} runs each, 200 intents, {events}-event ledger (ms)");
    println!("{:<36} {:>8} {:>8} {:>8}", "case", "p50", "p95", "p99");
    report("spawn /bin/true (floor)", runs, || {
        Command::new("true").status().unwrap();
    });
    report("intent --version (binary start)", runs, || {
        Command::new(intent)
            .arg("--version")
            .stdout(Stdio::null())
            .status()
            .unwrap();
    });
    report("PreToolUse Write (allow)", runs, || {
        hook(intent, &root, &pre);
    });
    report("PreToolUse Write, durability never", runs, || {
        hook_with(intent, &root, &pre, "never");
    });
    report("PostToolUse Write 500 dense lines", runs, || {
        hook(intent, &root, &post);
    });
    let post_real = json!({"hook_event_name": "PostToolUse", "session_id": "bench", "cwd": root,
        "tool_name": "Edit", "tool_input": {"file_path": real, "old_string": "batchSize = 50", "new_string": "batchSize = 64"}, "tool_use_id": "toolu_r",
        "tool_response": {"filePath": real, "originalFile": real_before}});
    if keep {
        std::fs::write(root.join("post-dense.json"), post.to_string()).unwrap();
        std::fs::write(root.join("post-realistic.json"), post_real.to_string()).unwrap();
        eprintln!("workspace kept at {}", dir.keep().display());
        return;
    }
    report("PostToolUse Edit 500-line realistic TS", runs, || {
        hook(intent, &root, &post_real);
    });
    report("UserPromptSubmit", runs, || {
        hook(intent, &root, &prompt);
    });
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn report(name: &str, runs: usize, mut work: impl FnMut()) {
    // `INTENT_BENCH_ONLY=Edit` runs only the cases whose name contains it (for
    // profiling one case with `perf record`).
    if let Ok(only) = std::env::var("INTENT_BENCH_ONLY") {
        if !name.contains(&only) {
            return;
        }
    }
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let started = Instant::now();
            work();
            started.elapsed()
        })
        .collect();
    times.sort();
    let pct = |p: f64| times[((times.len() as f64 - 1.0) * p).round() as usize].as_secs_f64() * 1e3;
    println!(
        "{name:<36} {:>8.2} {:>8.2} {:>8.2}",
        pct(0.50),
        pct(0.95),
        pct(0.99)
    );
}

fn hook(intent: &str, root: &Path, payload: &Value) -> Value {
    hook_with(intent, root, payload, "always")
}

/// Runs one hook process with the ledger durability set by `INTENT_DURABILITY`.
fn hook_with(intent: &str, root: &Path, payload: &Value, durability: &str) -> Value {
    let mut child = Command::new(intent)
        .args(["hook", "claude-code"])
        .env("INTENT_DURABILITY", durability)
        .env("CLAUDE_PROJECT_DIR", root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or(Value::Null)
}

fn specs(n: usize) -> String {
    let mut out = String::from("active_intents:\n");
    for i in 0..n {
        out += &format!(
            "  - id: INT-{i:03}\n    name: Intent number {i}\n    description: Generated for the hook benchmark.\n    status: IN_PROGRESS\n    owned_scope: [\"src/mod_{i}/**\", \"tests/mod_{i}/**\"]\n    constraints: [Keep the API stable, No new dependencies]\n    acceptance_criteria: [Tests pass, Docs updated]\n",
        );
    }
    out
}

fn fill_ledger(ws: &Workspace, events: u64) {
    let mut ledger = Ledger::open_with(
        ws.ledger_path(),
        LedgerOptions {
            durability: Durability::Never,
            ..LedgerOptions::default()
        },
    )
    .unwrap();
    let mut i = 0;
    while i < events {
        let n = 10_000.min(events - i);
        let batch = (i..i + n)
            .map(|k| {
                NewEvent::new("trace", "bench", json!({"intent_id": format!("INT-{:03}", k % 200), "path": format!("src/mod_{}/f{}.ts", k % 200, k % 97), "after_sha256": "sha256:00", "mutation_class": "INTENT_EVOLUTION"}))
                    .with_session(format!("old-{}", k % 1000))
            })
            .collect();
        ledger.append_batch(batch).unwrap();
        i += n;
    }
}

fn ts_file(lines: usize) -> String {
    (0..lines)
        .map(|i| format!("export function f{i}(x: number): number {{ return x + {i}; }}\n"))
        .collect()
}
