//! The after-the-fact shell check (issue #13, items 3 and 10): what PreToolUse (the
//! baseline walk) and PostToolUse (the second walk, hashing, tracing, judging) of a
//! shell command cost, spawned as Claude Code spawns them, in three workspaces:
//!
//! - `hono`: the fixture history's tree (`shared/fixtures/hono-history.bundle`,
//!   about 190 files, git), when the bundle is there;
//! - `20k`: 20,000 generated TypeScript files in 200 directories, 18,000 committed
//!   and 2,000 ignored (`dist/`), git;
//! - `20k-nogit`: the same files without git.
//!
//! Each case alternates the floor (spawning `/bin/true`) with the hooks and reports
//! p50/p95 in ms and as a ratio to the floor's p50. Then, in the `20k` workspace, one
//! command creates 2,000 files, twice in the same turn: PostToolUse seconds, traces
//! per second and ledger bytes per command (the second must cost what the first did).
//!
//! Run with `cargo bench -p intent-cli --bench shell_after`. `INTENT_BENCH_RUNS` sets
//! the runs per case (default 30), `INTENT_BENCH_BIN` another `intent` binary,
//! `INTENT_BENCH_FIXTURES` the fixtures directory.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

fn main() {
    let runs = env("INTENT_BENCH_RUNS", 30) as usize;
    let intent = std::env::var("INTENT_BENCH_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_intent").to_string());
    let fixtures = std::env::var("INTENT_BENCH_FIXTURES").map_or_else(
        |_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/fixtures"),
        PathBuf::from,
    );
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().canonicalize().unwrap();

    println!("shell command hooks, {runs} runs each (ms; ×: ratio to spawning /bin/true)");
    println!(
        "{:<12} {:>7} {:>9} {:>9} {:>7} {:>9} {:>9} {:>7}",
        "workspace", "files", "pre p50", "pre p95", "pre ×", "post p50", "post p95", "post ×"
    );
    let bundle = fixtures.join("hono-history.bundle");
    if bundle.exists() {
        let root = base.join("hono");
        git(
            &base,
            &[
                "clone",
                "-q",
                "--branch",
                "main",
                bundle.to_str().unwrap(),
                root.to_str().unwrap(),
            ],
        );
        prepare(&intent, &root);
        measure(&intent, &root, "hono", runs);
    } else {
        println!("hono: {} not found, skipped", bundle.display());
    }
    let big = base.join("20k");
    generate_tree(&big, 20_000);
    git(&big, &["init", "-q"]);
    std::fs::write(big.join(".gitignore"), "dist/\n").unwrap();
    git(&big, &["add", "-A"]);
    git(
        &big,
        &[
            "-c",
            "user.name=b",
            "-c",
            "user.email=b@b",
            "commit",
            "-qm",
            "tree",
        ],
    );
    prepare(&intent, &big);
    measure(&intent, &big, "20k", runs);
    let nogit = base.join("20k-nogit");
    generate_tree(&nogit, 20_000);
    prepare(&intent, &nogit);
    measure(&intent, &nogit, "20k-nogit", runs);

    println!();
    println!("one command creating 2,000 TypeScript files, twice in one turn (20k workspace)");
    let ledger = big.join(".orchestration/agent_trace.jsonl");
    let size = || std::fs::metadata(&ledger).unwrap().len();
    for n in 1..=2 {
        let before = size();
        let script = format!(
            "mkdir -p src/gen{n} && i=0; while [ $i -lt 2000 ]; do \
             printf 'export function f%d(a: number): number {{\\n  return a + %d;\\n}}\\n' $i $i > src/gen{n}/f$i.ts; \
             i=$((i+1)); done\n"
        );
        let (pre, post, reply) = command(&intent, &big, &format!("gen{n}"), &script);
        let grew = size() - before;
        let event = last_tool_post(&ledger);
        println!(
            "command {n}: PreToolUse {:.0} ms, PostToolUse {:.2} s ({:.0} traces/s, {} with AST), ledger +{} bytes ({:.0} bytes/file){}",
            ms(pre),
            post.as_secs_f64(),
            2000.0 / post.as_secs_f64(),
            event["changes"]["ast_files"],
            grew,
            grew as f64 / 2000.0,
            if reply == json!({}) { "" } else { " (a violation was reported!)" },
        );
    }
}

/// Initializes Intent Ledger with INT-001 owning `src/**` and opens a turn.
fn prepare(intent: &str, root: &Path) {
    run(intent, root, &["init"]);
    std::fs::write(
        root.join(".orchestration/active_intents.yaml"),
        "active_intents:\n  - id: INT-001\n    name: Bench\n    status: IN_PROGRESS\n    owned_scope: [\"src/**\"]\n    acceptance_criteria: [a]\n",
    )
    .unwrap();
    std::fs::create_dir_all(root.join("scripts")).unwrap();
    run(intent, root, &["select", "INT-001", "--session", "bench"]);
    hook(
        intent,
        &json!({"hook_event_name": "UserPromptSubmit", "session_id": "bench", "cwd": root,
            "prompt_id": "p1", "prompt": "bench"}),
    );
}

/// PreToolUse, the command, PostToolUse of a command that appends a line to one
/// file in scope, `runs` times, each after a floor spawn.
fn measure(intent: &str, root: &Path, name: &str, runs: usize) {
    let files = count_files(root);
    let target = first_ts(&root.join("src")).expect("a .ts file under src/");
    let rel = target
        .strip_prefix(root)
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    let (mut floor, mut pres, mut posts) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..runs {
        let started = Instant::now();
        Command::new("true").status().unwrap();
        floor.push(started.elapsed());
        let script = format!("echo '// run {i}' >> '{rel}'\n");
        let (pre, post, reply) = command(intent, root, &format!("touch{i}"), &script);
        assert_eq!(reply, json!({}), "an in-scope command is no violation");
        pres.push(pre);
        posts.push(post);
    }
    let floor = pct(&mut floor, 0.5);
    let (pre50, pre95) = (pct(&mut pres, 0.5), pct(&mut pres, 0.95));
    let (post50, post95) = (pct(&mut posts, 0.5), pct(&mut posts, 0.95));
    println!(
        "{name:<12} {files:>7} {:>9.1} {:>9.1} {:>7.1} {:>9.1} {:>9.1} {:>7.1}",
        ms(pre50),
        ms(pre95),
        pre50.as_secs_f64() / floor.as_secs_f64(),
        ms(post50),
        ms(post95),
        post50.as_secs_f64() / floor.as_secs_f64(),
    );
}

/// Runs `sh scripts/<name>.sh` (holding `script`) between its PreToolUse and
/// PostToolUse; returns both hooks' durations and the PostToolUse reply.
fn command(intent: &str, root: &Path, name: &str, script: &str) -> (Duration, Duration, Value) {
    std::fs::write(root.join(format!("scripts/{name}.sh")), script).unwrap();
    let command = format!("sh scripts/{name}.sh");
    let mut payload = json!({"hook_event_name": "PreToolUse", "session_id": "bench", "cwd": root,
        "prompt_id": "p1", "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": name});
    let started = Instant::now();
    let allowed = hook(intent, &payload);
    let pre = started.elapsed();
    assert_eq!(allowed, json!({}), "the command must be allowed");
    let status = Command::new("sh")
        .args(["-c", &command])
        .current_dir(root)
        .status()
        .unwrap();
    assert!(status.success());
    payload["hook_event_name"] = json!("PostToolUse");
    payload["tool_response"] = json!({"stdout": "", "stderr": "", "interrupted": false});
    let started = Instant::now();
    let reply = hook(intent, &payload);
    (pre, started.elapsed(), reply)
}

fn hook(intent: &str, payload: &Value) -> Value {
    let root = payload["cwd"].as_str().unwrap();
    let mut child = Command::new(intent)
        .args(["hook", "claude-code"])
        // Each hook in its own process, as the figures in the README were measured.
        .env("INTENT_HELPER", "off")
        .current_dir(root)
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

fn run(intent: &str, root: &Path, args: &[&str]) {
    let out = Command::new(intent)
        .arg("--workspace")
        .arg(root)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "intent {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn git(root: &Path, args: &[&str]) {
    std::fs::create_dir_all(root).unwrap();
    intent_test_support::git::run(root, args);
}

/// `n` small TypeScript modules in 200 directories; the last tenth under `dist/`.
fn generate_tree(root: &Path, n: usize) {
    for i in 0..n {
        let dir = if i >= n - n / 10 {
            root.join(format!("dist/m{}", i % 200))
        } else {
            root.join(format!("src/m{}", i % 200))
        };
        if i < 200 || (i >= n - n / 10 && i < n - n / 10 + 200) {
            std::fs::create_dir_all(&dir).unwrap();
        }
        std::fs::write(
            dir.join(format!("f{i}.ts")),
            format!(
                "export function f{i}(a: number): number {{\n  return a * {i};\n}}\n\nexport const k{i} = {i};\n"
            ),
        )
        .unwrap();
    }
}

fn count_files(root: &Path) -> usize {
    fn walk(dir: &Path, n: &mut usize) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if entry.file_name() == ".git" {
                continue;
            }
            if path.is_dir() {
                walk(&path, n);
            } else {
                *n += 1;
            }
        }
    }
    let mut n = 0;
    walk(root, &mut n);
    n
}

fn first_ts(dir: &Path) -> Option<PathBuf> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for path in &entries {
        if path.extension().is_some_and(|e| e == "ts") {
            return Some(path.clone());
        }
    }
    entries
        .iter()
        .filter(|p| p.is_dir())
        .find_map(|p| first_ts(p))
}

fn last_tool_post(ledger: &Path) -> Value {
    let text = std::fs::read_to_string(ledger).unwrap();
    text.lines()
        .rev()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|e| e["kind"] == "tool.post")
        .map(|e| e["data"].clone())
        .unwrap_or(Value::Null)
}

fn pct(times: &mut [Duration], p: f64) -> Duration {
    times.sort();
    times[((times.len() as f64 - 1.0) * p).round() as usize]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
