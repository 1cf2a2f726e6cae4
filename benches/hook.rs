//! Hook process latency: spawn → exit of `intent hook claude-code`, as Claude Code
//! runs it for every tool call, against a workspace with 200 intents and a
//! 1M-event ledger. Compared with spawning a trivial binary in the same run.
//!
//! Run with `cargo bench -p intent-cli --bench hook`. `INTENT_BENCH_EVENTS` sets the
//! ledger size (default 1M), `INTENT_BENCH_RUNS` the runs per case (default 300),
//! `INTENT_BENCH_ONLY` a substring of the case names to run, `INTENT_BENCH_BIN` another
//! `intent` binary to measure.

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
    std::fs::write(&real, &real_before).unwrap();

    // `INTENT_BENCH_BIN` measures another build (an older commit's, for a before/after
    // comparison on the same machine and hour).
    let intent_bin = std::env::var("INTENT_BENCH_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_intent").to_string());
    let intent = intent_bin.as_str();
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
        hook_with(intent, &root, &pre, "never", false);
    });
    // Writes chain as an agent's do: each run writes the file and reports the text
    // it replaced, which the previous run wrote (its analysis is kept by then).
    let dense = [ts_file(500), ts_file(500).replacen("x + 7;", "x - 7;", 1)];
    let mut run = 0usize;
    report("PostToolUse Write 500 dense lines", runs, || {
        run += 1;
        let (old, new) = (&dense[run % 2], &dense[(run + 1) % 2]);
        std::fs::write(&file, new).unwrap();
        hook(
            intent,
            &root,
            &post_payload(&root, &file, ("Write", "toolu_dense"), old, new),
        );
    });
    let edited = [
        real_before.clone(),
        real_before.replacen("batchSize = 50", "batchSize = 64", 1),
    ];
    report("PostToolUse Edit 500-line realistic TS", runs, || {
        run += 1;
        let (old, new) = (&edited[run % 2], &edited[(run + 1) % 2]);
        std::fs::write(&real, new).unwrap();
        hook(
            intent,
            &root,
            &post_payload(&root, &real, ("Edit", "toolu_chained"), old, new),
        );
    });
    // The worst case: old and new text never seen by an earlier hook (a file the
    // agent's first edit touches after a human changed it), so both are parsed.
    report("PostToolUse Edit realistic, unseen", runs, || {
        run += 1;
        let old = format!("{}// revision {run}\n", edited[0]);
        let new = format!("{}// revision {run}\n", edited[1]);
        std::fs::write(&real, &new).unwrap();
        hook(
            intent,
            &root,
            &post_payload(&root, &real, ("Edit", "toolu_unseen"), &old, &new),
        );
    });
    // The same hooks answered by the resident helper (`intent helper`), started
    // up front as the first hook of a session would start it.
    let mut helper = Command::new(intent)
        .arg("--workspace")
        .arg(&root)
        .args(["helper", "serve", "--idle", "600"])
        .env("INTENT_DURABILITY", "always")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let via_helper = |payload: &Value| hook_with(intent, &root, payload, "always", true);
    let started = Instant::now();
    while via_helper(&pre) == Value::Null || !helper_serves(intent, &root) {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the helper did not start"
        );
    }
    report("PreToolUse Write (allow), helper", runs, || {
        via_helper(&pre);
    });
    report("PostToolUse Write 500 dense, helper", runs, || {
        run += 1;
        let (old, new) = (&dense[run % 2], &dense[(run + 1) % 2]);
        std::fs::write(&file, new).unwrap();
        via_helper(&post_payload(
            &root,
            &file,
            ("Write", "toolu_dense"),
            old,
            new,
        ));
    });
    report("PostToolUse Edit 500 realistic, helper", runs, || {
        run += 1;
        let (old, new) = (&edited[run % 2], &edited[(run + 1) % 2]);
        std::fs::write(&real, new).unwrap();
        via_helper(&post_payload(
            &root,
            &real,
            ("Edit", "toolu_chained"),
            old,
            new,
        ));
    });
    report("UserPromptSubmit, helper", runs, || {
        via_helper(&prompt);
    });
    let _ = helper.kill();
    let _ = helper.wait();
    if keep {
        let payload = post_payload(&root, &real, ("Edit", "toolu_kept"), &edited[1], &edited[0]);
        std::fs::write(&real, &edited[0]).unwrap();
        std::fs::write(root.join("post-realistic.json"), payload.to_string()).unwrap();
        eprintln!("workspace kept at {}", dir.keep().display());
        return;
    }
    report("UserPromptSubmit", runs, || {
        hook(intent, &root, &prompt);
    });
}

/// Whether a helper has answered at least one hook (`intent helper status`).
fn helper_serves(intent: &str, root: &Path) -> bool {
    let out = Command::new(intent)
        .arg("--workspace")
        .arg(root)
        .args(["helper", "status", "--json"])
        .output()
        .unwrap();
    let status: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    status["helper"]["served"].as_u64().unwrap_or(0) > 0
}

/// A Claude Code PostToolUse payload for a write that replaced `old` by `new`.
/// Each case passes its own tool use id, so each is an agent turn of its own.
fn post_payload(
    root: &Path,
    file: &Path,
    (tool, turn): (&str, &str),
    old: &str,
    new: &str,
) -> Value {
    json!({"hook_event_name": "PostToolUse", "session_id": "bench", "cwd": root,
        "tool_name": tool, "tool_input": {"file_path": file, "content": new}, "tool_use_id": turn,
        "tool_response": {"type": "update", "filePath": file, "originalFile": old}})
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn report(name: &str, runs: usize, mut work: impl FnMut()) {
    // `INTENT_BENCH_ONLY=Edit` runs only the cases whose name contains it (for
    // profiling one case with `perf record`); the floor and the binary's start always
    // run, since every ratio is taken against them in the same run.
    if let Ok(only) = std::env::var("INTENT_BENCH_ONLY") {
        let baseline = name.contains("floor") || name.contains("binary start");
        if !baseline && !name.contains(&only) {
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
    hook_with(intent, root, payload, "always", false)
}

/// Runs one hook process with the ledger durability set by `INTENT_DURABILITY`,
/// answered in its own process or (`helper`) by the workspace's resident helper.
fn hook_with(intent: &str, root: &Path, payload: &Value, durability: &str, helper: bool) -> Value {
    let mut child = Command::new(intent)
        .args(["hook", "claude-code"])
        .env("INTENT_DURABILITY", durability)
        .env("INTENT_HELPER", if helper { "on" } else { "off" })
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
