//! The long-run part of `intent bench` (and all of `benches/soak.rs`): many hooks
//! through the resident helper, as an agent on a long task produces them, with
//! queries running beside them. It reports what grows with time: ledger bytes per
//! write, hook latency early and late in the run, and the helper's memory against
//! its budget.
//!
//! Every hook is a real `intent hook claude-code` process reaching the workspace's
//! helper; every write changes one ~1 KB function of one of `files` TypeScript
//! files of `file_kb` KB, so each write's text is new to the helper (nothing is
//! answered from a cache that a real agent would miss).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// What to run.
#[derive(Debug, Clone)]
pub struct SoakSpec {
    /// Hook processes in all (two per write, plus a prompt and a stop per turn).
    pub hooks: usize,
    /// Files the writes rotate over.
    pub files: usize,
    /// Size of each file, in KB (one ~1 KB function per KB).
    pub file_kb: usize,
    /// Writes per agent turn (prompt to stop).
    pub turn_writes: usize,
    /// Run `why` and `log` queries in parallel with the hooks.
    pub queries: bool,
}

const SPECS: &str = "active_intents:\n  - id: INT-001\n    name: Soak\n    status: IN_PROGRESS\n    owned_scope: [\"src/**\"]\n    constraints: [keep it fast]\n    acceptance_criteria: [it stays fast]\n";

/// One ~1 KB TypeScript function; `version` changes one line of its body.
pub fn function(index: usize, version: usize) -> String {
    let mut text = format!("export function step{index}(input: number): number {{\n");
    text.push_str(&format!("  let total = input + {version};\n"));
    for line in 0..17 {
        text.push_str(&format!(
            "  total = (total * {}) % 1000003; // mixing round {line}\n",
            31 + line + index
        ));
    }
    text.push_str("  return total;\n}\n\n");
    text
}

/// A file of one [`function`] per entry of `versions`, at that version.
pub fn source(versions: &[usize]) -> String {
    versions
        .iter()
        .enumerate()
        .map(|(i, v)| function(i, *v))
        .collect()
}

/// Runs `intent args…` in `root` with the helper on; returns wall time and stdout.
fn run(
    exe: &Path,
    root: &Path,
    args: &[&str],
    stdin: &[u8],
) -> anyhow::Result<(Duration, Vec<u8>)> {
    let started = Instant::now();
    let mut child = Command::new(exe)
        .arg("--workspace")
        .arg(root)
        .args(args)
        .env("INTENT_HELPER", "on")
        .env("INTENT_HELPER_IDLE_SECS", "120")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    child.stdin.take().expect("piped").write_all(stdin)?;
    let out = child.wait_with_output()?;
    let took = started.elapsed();
    if !out.status.success() {
        anyhow::bail!(
            "intent {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok((took, out.stdout))
}

fn hook(exe: &Path, root: &Path, payload: &Value) -> anyhow::Result<(Duration, Value)> {
    let (took, out) = run(
        exe,
        root,
        &["hook", "claude-code"],
        payload.to_string().as_bytes(),
    )?;
    let reply = serde_json::from_slice(&out).unwrap_or(Value::Null);
    Ok((took, reply))
}

/// The helper's pid, once one serves `root`.
fn helper_pid(exe: &Path, root: &Path) -> Option<u32> {
    let (_, out) = run(exe, root, &["--json", "helper", "status"], b"").ok()?;
    let status: Value = serde_json::from_slice(&out).ok()?;
    status["helper"]["pid"].as_u64().map(|pid| pid as u32)
}

/// p50 and p99 of `samples`, in milliseconds.
fn p50_p99(samples: &[Duration]) -> Value {
    let mut sorted = samples.to_vec();
    sorted.sort_unstable();
    let at = |p: f64| {
        let i = ((sorted.len().max(1) as f64 - 1.0) * p).round() as usize;
        sorted
            .get(i)
            .map_or(0.0, |d| (d.as_secs_f64() * 1e5).round() / 100.0)
    };
    json!({"p50_ms": at(0.50), "p99_ms": at(0.99), "runs": sorted.len()})
}

fn megabytes(bytes: u64) -> f64 {
    (bytes as f64 / (1 << 20) as f64 * 10.0).round() / 10.0
}

/// Spawn → exit of `/bin/true`: the floor every hook latency is read against.
fn spawn_floor(runs: usize) -> Value {
    let samples: Vec<Duration> = (0..runs)
        .filter_map(|_| {
            let started = Instant::now();
            Command::new("true").status().ok()?;
            Some(started.elapsed())
        })
        .collect();
    p50_p99(&samples)
}

/// Queries run beside the hooks until `done`: `why` on a written line and `log`.
fn query_loop(exe: PathBuf, root: PathBuf, done: Arc<AtomicBool>) -> (Vec<Duration>, usize) {
    let (mut took, mut failed) = (Vec::new(), 0);
    let target = "src/file0.ts:2".to_string();
    while !done.load(Ordering::Relaxed) {
        for args in [
            vec!["--json", "why", target.as_str()],
            vec!["--json", "log", "--limit", "20"],
        ] {
            match run(&exe, &root, &args, b"") {
                Ok((t, _)) => took.push(t),
                Err(_) => failed += 1,
            }
        }
    }
    (took, failed)
}

/// Runs the soak in `root` (a new, empty directory) with the `intent` at `exe`.
pub fn soak(
    exe: &Path,
    root: &Path,
    spec: &SoakSpec,
    progress: &dyn Fn(&str),
) -> anyhow::Result<Value> {
    let ws = intent_ledger::Workspace::at(root);
    ws.init()?;
    std::fs::write(ws.specs_path(), SPECS)?;
    std::fs::create_dir_all(root.join("src"))?;
    let functions = spec.file_kb.max(1);
    let mut versions = vec![vec![0usize; functions]; spec.files.max(1)];
    for (i, v) in versions.iter().enumerate() {
        std::fs::write(root.join(format!("src/file{i}.ts")), source(v))?;
    }
    let floor = spawn_floor(50);
    let session = "soak";
    hook(
        exe,
        root,
        &json!({"hook_event_name": "SessionStart", "session_id": session, "cwd": root, "source": "startup"}),
    )?;
    run(exe, root, &["select", "INT-001", "--session", session], b"")?;
    let ledger = ws.ledger_path();
    let bytes_at_start = std::fs::metadata(&ledger)?.len();

    let done = Arc::new(AtomicBool::new(false));
    let queries = spec.queries.then(|| {
        let (exe, root, done) = (exe.to_path_buf(), root.to_path_buf(), done.clone());
        std::thread::spawn(move || query_loop(exe, root, done))
    });

    let (mut posts, mut pres) = (Vec::new(), Vec::new());
    let (mut hooks, mut writes, mut turn) = (0usize, 0usize, 0usize);
    let mut pid = None;
    let mut peak_first_turn = None;
    let mut trace_bytes_one_write = None;
    let mut trace_bytes_long_turn = Vec::new();
    let started = Instant::now();
    while hooks < spec.hooks {
        let prompt = format!("p{turn}");
        hook(
            exe,
            root,
            &json!({"hook_event_name": "UserPromptSubmit", "session_id": session, "cwd": root,
                "prompt_id": prompt, "prompt": format!("Tune the pipeline, round {turn}")}),
        )?;
        hooks += 1;
        // The first turn writes every file once (a file's first trace lists all its
        // blocks), the second writes once (the one-write figure), the others are long.
        let in_turn = match turn {
            0 => versions.len(),
            1 => 1,
            _ => spec.turn_writes.max(1),
        };
        for _ in 0..in_turn {
            if hooks + 2 > spec.hooks {
                break;
            }
            let file = writes % versions.len();
            let function = (writes / versions.len()) % functions;
            versions[file][function] = writes + 1;
            let rel = format!("src/file{file}.ts");
            let path = root.join(&rel);
            let original = std::fs::read_to_string(&path)?;
            let content = source(&versions[file]);
            let id = format!("w{writes}");
            let mut payload = json!({"hook_event_name": "PreToolUse", "session_id": session, "cwd": root,
                "prompt_id": prompt, "tool_name": "Write",
                "tool_input": {"file_path": path, "content": content}, "tool_use_id": id});
            let (took, reply) = hook(exe, root, &payload)?;
            if reply.to_string().contains("\"deny\"") {
                anyhow::bail!("the soak's write was refused: {reply}");
            }
            pres.push(took);
            std::fs::write(&path, &content)?;
            payload["hook_event_name"] = json!("PostToolUse");
            payload["tool_response"] =
                json!({"type": "update", "filePath": path, "originalFile": original});
            let before = std::fs::metadata(&ledger)?.len();
            posts.push(hook(exe, root, &payload)?.0);
            let grew = std::fs::metadata(&ledger)?.len() - before;
            match turn {
                0 => {}
                1 => trace_bytes_one_write = Some(grew),
                _ => trace_bytes_long_turn.push(grew),
            }
            hooks += 2;
            writes += 1;
            if pid.is_none() {
                pid = helper_pid(exe, root);
            }
            if writes % 200 == 0 {
                progress(&format!(
                    "{hooks} hooks, {writes} writes, {:.0} s",
                    started.elapsed().as_secs_f64()
                ));
            }
        }
        hook(
            exe,
            root,
            &json!({"hook_event_name": "Stop", "session_id": session, "cwd": root, "stop_hook_active": false}),
        )?;
        hooks += 1;
        if turn == 2 {
            peak_first_turn = pid
                .and_then(crate::helper::resident_memory)
                .map(|(_, peak)| peak);
        }
        turn += 1;
    }
    let elapsed = started.elapsed();
    done.store(true, Ordering::Relaxed);
    let (query_times, query_failures) = match queries {
        Some(handle) => handle.join().unwrap_or_default(),
        None => (Vec::new(), 0),
    };
    let memory = pid.and_then(crate::helper::resident_memory);
    let kept = helper_memory(exe, root);
    let budget = kept["budget_bytes"].as_u64();
    let _ = run(exe, root, &["helper", "stop"], b"");
    let ledger_bytes = std::fs::metadata(&ledger)?.len();
    let events = std::fs::read(&ledger)?
        .iter()
        .filter(|b| **b == b'\n')
        .count();
    let window = (posts.len() / 10).max(1);
    let early = p50_p99(&posts[..window.min(posts.len())]);
    let late = p50_p99(&posts[posts.len().saturating_sub(window)..]);
    let drift = |key: &str| {
        let (a, b) = (
            early[key].as_f64().unwrap_or(0.0),
            late[key].as_f64().unwrap_or(0.0),
        );
        if a > 0.0 {
            (b / a * 100.0).round() / 100.0
        } else {
            0.0
        }
    };
    let longest = trace_bytes_long_turn.iter().copied().max().unwrap_or(0);
    let mean_long = if trace_bytes_long_turn.is_empty() {
        0
    } else {
        trace_bytes_long_turn.iter().sum::<u64>() / trace_bytes_long_turn.len() as u64
    };
    Ok(json!({
        "hooks": hooks, "writes": writes, "turns": turn, "files": versions.len(),
        "file_bytes": source(&versions[0]).len(), "seconds": (elapsed.as_secs_f64() * 10.0).round() / 10.0,
        "events": events, "ledger_bytes": ledger_bytes,
        "ledger_bytes_per_write": (ledger_bytes - bytes_at_start) / writes.max(1) as u64,
        "post_bytes_one_write_turn": trace_bytes_one_write,
        "post_bytes_long_turn_mean": mean_long,
        "post_bytes_long_turn_max": longest,
        "spawn_floor": floor,
        "pre_tool_use": p50_p99(&pres),
        "post_tool_use": p50_p99(&posts),
        "post_tool_use_first_tenth": early, "post_tool_use_last_tenth": late,
        "drift_p50": drift("p50_ms"), "drift_p99": drift("p99_ms"),
        "helper": {
            "pid": pid,
            "rss_mb": memory.map(|(rss, _)| megabytes(rss)),
            "peak_rss_mb": memory.map(|(_, peak)| megabytes(peak)),
            "peak_rss_mb_after_first_long_turn": peak_first_turn.map(megabytes),
            "budget_mb": budget.map(megabytes),
            "kept_mb": kept["kept_bytes"].as_u64().map(megabytes),
            "analyses": kept["analyses"], "trees": kept["trees"],
        },
        "queries": {"run": query_times.len(), "failed": query_failures, "latency": p50_p99(&query_times)},
    }))
}

/// What the helper keeps against its budget, as it reports it.
fn helper_memory(exe: &Path, root: &Path) -> Value {
    run(exe, root, &["--json", "helper", "status"], b"")
        .ok()
        .and_then(|(_, out)| serde_json::from_slice::<Value>(&out).ok())
        .map_or(Value::Null, |status| status["helper"]["memory"].clone())
}
