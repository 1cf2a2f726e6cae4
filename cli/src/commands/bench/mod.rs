//! `intent bench`: sizes a setup. Generates a synthetic multi-session workload in a
//! temporary workspace, then measures what users wait for, as they would run it:
//! hook and query latencies are whole `intent` processes, spawned one at a time.

pub mod soak;
pub mod workload;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use clap::Args;
use intent_ledger::{Durability, Ledger, LedgerOptions, NewEvent, Workspace};
use intent_query::intents::IntentState;
use intent_query::lineage::Lineage;
use intent_query::{map, search, NoProgress};
use serde_json::{json, Value};

use crate::config::Config;
use crate::exit;
use workload::{generate, Workload, WorkloadSpec, WORDS};

/// Arguments of `intent bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Ledger events to generate.
    #[arg(long, default_value_t = 100_000)]
    pub events: u64,
    /// Agent sessions in the workload.
    #[arg(long, default_value_t = 20)]
    pub sessions: u32,
    /// Intents in active_intents.yaml.
    #[arg(long, default_value_t = 20)]
    pub intents: u32,
    /// TypeScript files in the workspace.
    #[arg(long, default_value_t = 50)]
    pub files: u32,
    /// Lines per file (also the size of the hook's PostToolUse edit).
    #[arg(long, default_value_t = 500)]
    pub file_lines: usize,
    /// Process runs per latency measurement.
    #[arg(long, default_value_t = 40)]
    pub runs: usize,
    /// Build the workspace here (must not exist) and keep it, instead of a temp dir.
    #[arg(long)]
    pub keep: Option<PathBuf>,
    /// Hooks of the long-run part, through the resident helper (0: skip it): ledger
    /// bytes per write, latency drift and the helper's memory against its budget.
    #[arg(long, default_value_t = 600)]
    pub soak_hooks: usize,
    /// Files (of 40 KB) the long run's writes rotate over.
    #[arg(long, default_value_t = 30)]
    pub soak_files: usize,
}

/// p50/p95/p99 of process latencies, in milliseconds.
fn percentiles(mut samples: Vec<Duration>) -> Value {
    samples.sort_unstable();
    let at = |p: f64| {
        let i = ((samples.len() as f64 - 1.0) * p).round() as usize;
        (samples[i].as_secs_f64() * 1e5).round() / 100.0
    };
    json!({"p50_ms": at(0.50), "p95_ms": at(0.95), "p99_ms": at(0.99), "runs": samples.len()})
}

/// Runs `intent` once with `stdin`; returns the wall time and stdout.
fn timed_process(
    root: &Path,
    args: &[&str],
    stdin: Option<&[u8]>,
) -> anyhow::Result<(Duration, Vec<u8>)> {
    use std::io::Write;
    let exe = std::env::current_exe()?;
    let started = Instant::now();
    let mut child = Command::new(exe)
        .arg("--workspace")
        .arg(root)
        .args(args)
        // Hooks answered in their own process: the cold path every hook can fall
        // back to (and no helper left behind in the bench's temp workspace).
        .env("INTENT_HELPER", "off")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    if let Some(bytes) = stdin {
        child.stdin.take().expect("piped").write_all(bytes)?;
    }
    drop(child.stdin.take());
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

fn hook_latencies(work: &Workload, runs: usize) -> anyhow::Result<Value> {
    let root = &work.root;
    let started = Instant::now();
    let start = json!({"hook_event_name": "SessionStart", "session_id": "bench", "cwd": root, "source": "startup"});
    timed_process(
        root,
        &["hook", "claude-code"],
        Some(start.to_string().as_bytes()),
    )?;
    let cold = started.elapsed();
    // The derived caches lost: the next hook starts from the newest checkpoint
    // beside the ledger (written by the rebuild above when the ledger is past
    // `checkpoint::EVERY_BYTES`), else rebuilds again.
    let checkpointed = intent_state::checkpoint::newest_end(&Workspace::at(root).ledger_path()) > 0;
    let _ = std::fs::remove_dir_all(Workspace::at(root).cache_dir());
    let started = Instant::now();
    timed_process(
        root,
        &["hook", "claude-code"],
        Some(start.to_string().as_bytes()),
    )?;
    let after_cache_loss = started.elapsed();
    timed_process(root, &["select", "INT-001", "--session", "bench"], None)?;
    let rel = &work.files[0];
    let path = root.join(rel);
    let before = std::fs::read_to_string(&path)?;
    // A one-literal edit of the file, undone and redone: every post sees a real change.
    let after = match before.find("= 50") {
        Some(_) => before.replacen("= 50", "= 64", 1),
        None => format!("{before}\nexport const benchMarker = 1;\n"),
    };
    let (mut pre, mut post) = (Vec::new(), Vec::new());
    for run in 0..runs {
        let (old, new) = if run % 2 == 0 {
            (&before, &after)
        } else {
            (&after, &before)
        };
        let payload = json!({"hook_event_name": "PreToolUse", "session_id": "bench", "cwd": root, "prompt_id": format!("p{run}"),
            "tool_name": "Edit", "tool_input": {"file_path": path, "old_string": "= 50", "new_string": "= 64"}, "tool_use_id": format!("b{run}")});
        let (took, reply) = timed_process(
            root,
            &["hook", "claude-code"],
            Some(payload.to_string().as_bytes()),
        )?;
        if String::from_utf8_lossy(&reply).contains("deny") {
            anyhow::bail!(
                "the benchmark's edit was refused: {}",
                String::from_utf8_lossy(&reply)
            );
        }
        pre.push(took);
        std::fs::write(&path, new)?;
        let mut payload = payload;
        payload["hook_event_name"] = json!("PostToolUse");
        payload["tool_response"] =
            json!({"filePath": path, "originalFile": old, "structuredPatch": []});
        post.push(
            timed_process(
                root,
                &["hook", "claude-code"],
                Some(payload.to_string().as_bytes()),
            )?
            .0,
        );
    }
    std::fs::write(&path, &before)?;
    Ok(json!({
        "cold_state_build_ms": (cold.as_secs_f64() * 1e4).round() / 10.0,
        "after_cache_loss_ms": (after_cache_loss.as_secs_f64() * 1e4).round() / 10.0,
        "from_checkpoint": checkpointed,
        "pre_tool_use": percentiles(pre),
        "post_tool_use_with_ast": percentiles(post),
        "post_file_lines": before.lines().count(),
    }))
}

fn ingest(dir: &Path) -> anyhow::Result<Value> {
    let rate = |durability: Durability, batch: usize, total: usize| -> anyhow::Result<u64> {
        let path = dir.join(format!("ingest-{durability:?}-{batch}.jsonl"));
        let mut ledger = Ledger::open_with(
            &path,
            LedgerOptions {
                durability,
                ..LedgerOptions::default()
            },
        )?;
        let event = || {
            NewEvent::new(
                "trace",
                "bench",
                json!({"path": "src/a.ts", "intent_id": "INT-001", "after_sha256": "sha256:00"}),
            )
        };
        let started = Instant::now();
        for _ in 0..total / batch {
            ledger.append_batch((0..batch).map(|_| event()).collect())?;
        }
        ledger.sync()?;
        let per_s = total as f64 / started.elapsed().as_secs_f64();
        std::fs::remove_file(&path)?;
        Ok(per_s.round() as u64)
    };
    Ok(json!({
        "fsync_every_event_per_s": rate(Durability::Always, 1, 300)?,
        "fsync_per_batch_of_1000_per_s": rate(Durability::Always, 1000, 100_000)?,
        "no_fsync_batch_of_1000_per_s": rate(Durability::Never, 1000, 100_000)?,
    }))
}

fn rebuilds(ws: &Workspace) -> anyhow::Result<Value> {
    let ms = |started: Instant| (started.elapsed().as_secs_f64() * 1e4).round() / 10.0;
    let started = Instant::now();
    IntentState::rebuild(ws, &NoProgress)?;
    let state = ms(started);
    let started = Instant::now();
    Lineage::rebuild(ws, &NoProgress)?;
    let blocks = ms(started);
    let started = Instant::now();
    search::rebuild(ws, &NoProgress)?;
    let index = ms(started);
    let started = Instant::now();
    map::regenerate(ws)?;
    let intent_map = ms(started);
    Ok(
        json!({"state_ms": state, "blocks_ms": blocks, "search_ms": index, "map_ms": intent_map,
        "total_ms": ((state + blocks + index + intent_map) * 10.0).round() / 10.0}),
    )
}

fn queries(work: &Workload, runs: usize) -> anyhow::Result<Value> {
    let root = &work.root;
    let (mut why, mut search) = (Vec::new(), Vec::new());
    for run in 0..runs {
        let file = &work.files[(run * 13) % work.files.len()];
        let (start, end) = work.block_lines[(run * 7) % work.block_lines.len()];
        let target = format!("{file}:{}", (start + end) / 2);
        why.push(timed_process(root, &["--json", "why", &target], None)?.0);
        let word = WORDS[run % WORDS.len()];
        let args: Vec<String> = match run % 3 {
            0 => vec!["search".into(), word.into()],
            1 => vec![
                "search".into(),
                word.into(),
                "--kind".into(),
                "trace".into(),
            ],
            _ => vec![
                "search".into(),
                format!("{word} tests"),
                "--intent".into(),
                "INT-002".into(),
            ],
        };
        let mut full = vec!["--json"];
        full.extend(args.iter().map(String::as_str));
        search.push(timed_process(root, &full, None)?.0);
    }
    Ok(json!({"why": percentiles(why), "search": percentiles(search)}))
}

/// Generates the workload, measures, prints the report.
pub fn run(config: &Config, args: BenchArgs) -> anyhow::Result<u8> {
    let temp;
    let root = match &args.keep {
        Some(dir) => {
            if dir.exists() {
                anyhow::bail!(
                    "{} already exists; --keep needs a new directory",
                    dir.display()
                );
            }
            std::fs::create_dir_all(dir)?;
            dir.canonicalize()?
        }
        None => {
            temp = tempfile::tempdir()?;
            temp.path().canonicalize()?
        }
    };
    let say = |text: &str| {
        if !config.json() {
            eprintln!("{text}");
        }
    };
    let spec = WorkloadSpec {
        events: args.events,
        sessions: args.sessions,
        intents: args.intents,
        files: args.files,
        file_lines: args.file_lines,
    };
    say(&format!(
        "generating {} events in {} ...",
        spec.events,
        root.display()
    ));
    let started = Instant::now();
    let work = generate(&root, &spec, |_| {})?;
    let generated_s = started.elapsed().as_secs_f64();
    let ws = Workspace::at(&root);
    let bytes = std::fs::metadata(ws.ledger_path())?.len();
    say("measuring ingest ...");
    std::fs::create_dir_all(ws.cache_dir())?;
    let scratch = tempfile::tempdir_in(ws.cache_dir())?;
    let ingest = ingest(scratch.path())?;
    say("rebuilding projections ...");
    let rebuild = rebuilds(&ws)?;
    say(&format!(
        "timing hook processes ({} runs each) ...",
        args.runs
    ));
    let hooks = hook_latencies(&work, args.runs.max(1))?;
    say(&format!(
        "timing why and search processes ({} runs each) ...",
        args.runs
    ));
    let queries = queries(&work, args.runs.max(1))?;
    let long_run = if args.soak_hooks > 0 {
        say(&format!(
            "running {} hooks through the resident helper ...",
            args.soak_hooks
        ));
        let dir = tempfile::tempdir()?;
        let spec = soak::SoakSpec {
            hooks: args.soak_hooks,
            files: args.soak_files.max(1),
            file_kb: 40,
            turn_writes: 800,
            queries: false,
        };
        soak::soak(
            &std::env::current_exe()?,
            &dir.path().canonicalize()?,
            &spec,
            &|line| say(&format!("  {line}")),
        )?
    } else {
        Value::Null
    };
    let report = json!({
        "workload": {"events": work.events, "traces": work.traces, "sessions": spec.sessions,
            "intents": spec.intents, "files": spec.files, "file_lines": spec.file_lines,
            "ledger_bytes": bytes, "bytes_per_event": (bytes as f64 / work.events as f64).round() as u64,
            "generate_s": (generated_s * 100.0).round() / 100.0},
        "ingest": ingest, "rebuild": rebuild, "hook": hooks, "query": queries, "long_run": long_run,
        "workspace": if args.keep.is_some() { json!(root) } else { Value::Null },
    });
    if config.json() {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        print!("{}", render(&report));
    }
    Ok(exit::OK)
}

/// The text report.
pub fn render(r: &Value) -> String {
    let p = |v: &Value| {
        format!(
            "p50 {:>6.2} ms  p95 {:>6.2} ms  p99 {:>6.2} ms",
            v["p50_ms"].as_f64().unwrap_or(0.0),
            v["p95_ms"].as_f64().unwrap_or(0.0),
            v["p99_ms"].as_f64().unwrap_or(0.0)
        )
    };
    let w = &r["workload"];
    let mut out = format!(
        "workload   {} events ({} traces), {} sessions, {} intents, {} files of {} lines; {:.1} MB ledger, {} bytes/event\n",
        w["events"], w["traces"], w["sessions"], w["intents"], w["files"], w["file_lines"],
        w["ledger_bytes"].as_f64().unwrap_or(0.0) / 1e6, w["bytes_per_event"]
    );
    let i = &r["ingest"];
    out += &format!(
        "ingest     {} events/s fsync each; {} events/s fsync per 1000; {} events/s no fsync\n",
        i["fsync_every_event_per_s"],
        i["fsync_per_batch_of_1000_per_s"],
        i["no_fsync_batch_of_1000_per_s"]
    );
    let b = &r["rebuild"];
    out += &format!(
        "rebuild    state {} ms, blocks {} ms, search {} ms, map {} ms (total {} ms)\n",
        b["state_ms"], b["blocks_ms"], b["search_ms"], b["map_ms"], b["total_ms"]
    );
    let h = &r["hook"];
    out += &format!("hook pre   {}\n", p(&h["pre_tool_use"]));
    out += &format!(
        "hook post  {}  ({}-line edit, AST)\n",
        p(&h["post_tool_use_with_ast"]),
        h["post_file_lines"]
    );
    out += &format!(
        "cold hook  {} ms rebuilding the state; {} ms after the caches are lost ({})\n",
        h["cold_state_build_ms"],
        h["after_cache_loss_ms"],
        if h["from_checkpoint"] == true {
            "from the checkpoint beside the ledger"
        } else {
            "no checkpoint yet: a rebuild"
        }
    );
    out += &format!("why        {}\n", p(&r["query"]["why"]));
    out += &format!("search     {}\n", p(&r["query"]["search"]));
    let l = &r["long_run"];
    if !l.is_null() {
        let m = &l["helper"];
        out +=
            &format!(
            "long run   {} hooks, {} writes of {} files of {} bytes through the helper: {} ledger \
             bytes/write ({} in a one-write turn, {} in a long turn)\n",
            l["hooks"], l["writes"], l["files"], l["file_bytes"], l["ledger_bytes_per_write"],
            l["post_bytes_one_write_turn"], l["post_bytes_long_turn_mean"]
        );
        out += &format!(
            "           PostToolUse p50 {} ms first tenth, {} ms last tenth; helper peak {} MB \
             resident, keeping {} MB of its {} MB budget\n",
            l["post_tool_use_first_tenth"]["p50_ms"],
            l["post_tool_use_last_tenth"]["p50_ms"],
            m["peak_rss_mb"],
            m["kept_mb"],
            m["budget_mb"]
        );
    }
    out
}
