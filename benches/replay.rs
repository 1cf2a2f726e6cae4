//! Replay of a real TypeScript history through real hook processes, then `intent
//! why` compared with `git log -L` — the end-to-end accuracy figure of DESIGN.md
//! ("`why` on a replayed real history vs `git log -L`: ≥ 99 % last-change
//! agreement") and the real-history hook budget (PostToolUse p50 ≤ 10 ms, p95 ≤ 25 ms).
//!
//! Each first-parent commit of `shared/fixtures/hono-history.bundle` becomes one
//! Claude Code turn under its own intent (`INT-001` … in commit order; the first
//! commit's whole tree is turn 1): a `UserPromptSubmit` with `/intent INT-nnn
//! <subject>`, then for every `.ts` file the commit adds or modifies a PreToolUse
//! Write, the write itself and a PostToolUse Write carrying `originalFile`; a deleted
//! file is a Bash `rm` (PreToolUse, delete, PostToolUse). Then sampled lines of the
//! final files are asked to `intent why FILE:LINE --json` and to `git log -L` on
//! the source clone, and every file to `intent blame --json`; the ground-truth block
//! of a line comes from a fresh analysis of the final text (see `INTENT_REPLAY_LANG`).
//!
//! Run with `cargo bench -p intent-cli --bench replay`. Environment:
//! `INTENT_REPLAY_LANG` (`typescript` (default), `python`, `go`, `rust`: picks the
//! bundle of `shared/fixtures/` and the file endings; the ground-truth blocks come
//! from a parser that is not the one under test — CPython's `ast` through `python3`
//! for Python, the standard library's `go/ast` through `go run` for Go, `syn` through
//! `benches/tools/rust-truth` for Rust — and from `intent_ast_hash` for TypeScript),
//! `INTENT_REPLAY_BUNDLE` (the history), `INTENT_REPLAY_COMMITS` (replay the first N
//! commits; default all), `INTENT_REPLAY_SAMPLES` (default 300), `INTENT_REPLAY_SEED`
//! (default 1), `INTENT_REPLAY_KEEP=1` (keep both temp dirs and print them),
//! `INTENT_REPLAY_OUT` (the JSON report; default `target/replay-report.json`),
//! `INTENT_REPLAY_BIN` (measure another `intent` binary than the one Cargo built,
//! e.g. to compare two builds on the same replay), `INTENT_REPLAY_HELPER=1` (hooks
//! answered by the workspace's resident helper instead of each in its own process).
//! A refused or failed hook never stops the run: it is counted and reported.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use std::time::Instant;

use serde_json::{json, Value};

#[path = "support/go_truth.rs"]
mod go_truth;
#[path = "support/python_truth.rs"]
mod python_truth;
#[path = "support/replay_git.rs"]
mod replay_git;
#[path = "support/replay_hooks.rs"]
mod replay_hooks;
#[path = "support/replay_report.rs"]
mod replay_report;
#[path = "support/replay_truth.rs"]
mod replay_truth;
#[path = "support/replay_turns.rs"]
mod replay_turns;
#[path = "support/replay_workspace.rs"]
mod replay_workspace;
#[path = "support/rust_truth.rs"]
mod rust_truth;
#[path = "support/truth_tool.rs"]
mod truth_tool;

use replay_git::Source;
use replay_report::{Entry, Sample};
use replay_truth::{block_of, FileTruth, Staleness};
use replay_turns::{ask, fail};
use replay_workspace::{check_tree, intent_id, ledger_stats};

/// The run's settings, from the environment.
struct Config {
    lang: &'static str,
    bundle: PathBuf,
    commits: Option<usize>,
    samples: usize,
    seed: u64,
    keep: bool,
    out: PathBuf,
    bin: PathBuf,
}

impl Config {
    fn from_env() -> Config {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        let num = |name: &str| var(name).and_then(|v| v.parse::<u64>().ok());
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
        let wanted = var("INTENT_REPLAY_LANG").unwrap_or_else(|| "typescript".into());
        let (lang, bundle) =
            replay_git::choose_language(&wanted).unwrap_or_else(|e| fail("INTENT_REPLAY_LANG", e));
        Config {
            lang,
            bundle: var("INTENT_REPLAY_BUNDLE").map_or_else(
                || manifest.join("../../shared/fixtures").join(bundle),
                PathBuf::from,
            ),
            commits: num("INTENT_REPLAY_COMMITS").map(|n| n.max(1) as usize),
            samples: num("INTENT_REPLAY_SAMPLES").unwrap_or(300) as usize,
            seed: num("INTENT_REPLAY_SEED").unwrap_or(1),
            keep: var("INTENT_REPLAY_KEEP").is_some_and(|v| v != "0"),
            out: var("INTENT_REPLAY_OUT").map_or_else(
                || manifest.join("../target/replay-report.json"),
                PathBuf::from,
            ),
            bin: var("INTENT_REPLAY_BIN").map_or_else(
                || PathBuf::from(env!("CARGO_BIN_EXE_intent")),
                PathBuf::from,
            ),
        }
    }
}

/// Asks git and us about one line.
fn sample_line(
    source: &Source,
    intent: &Path,
    root: &Path,
    truth: &FileTruth,
    line: u32,
    last: &str,
) -> Sample {
    let block = truth
        .innermost(line)
        .expect("sampled lines lie in a block")
        .clone();
    let (git, git_ms, git_err) = match source.log_l(&truth.path, block.start, block.end, last) {
        Ok((commits, ms)) => (commits, ms, None),
        Err(e) => (Vec::new(), 0.0, Some(format!("git: {e}"))),
    };
    let (answer, why_ms) = ask(intent, root, &["why", &format!("{}:{line}", truth.path)]);
    let (answer, why_err) = match answer {
        Ok(a) => (a, None),
        Err(e) => (Value::Null, Some(format!("why: {e}"))),
    };
    let history = answer["history"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    let ours = history
        .iter()
        .rev()
        .map(|h| Entry {
            intent: h["intent_id"].as_str().map(str::to_string),
            event: h["event"].as_str().unwrap_or("").to_string(),
            class: h["mutation_class"].as_str().map(str::to_string),
            path: h["path"].as_str().unwrap_or("").to_string(),
            seq: h["seq"].as_u64().unwrap_or(0),
            inherited_from: h["inherited_from"].as_str().map(str::to_string),
        })
        .collect();
    Sample {
        file: truth.path.clone(),
        line,
        truth: block,
        git,
        git_ms,
        ours,
        block: block_of(&answer["block"]),
        last_edit: answer["last_edit"]["intent_id"]
            .as_str()
            .map(str::to_string),
        outside_ledger: answer["outside_ledger"].as_bool().unwrap_or(false),
        note: answer["note"].as_str().map(str::to_string),
        why_ms,
        error: git_err.or(why_err),
    }
}

fn main() {
    let run_started = Instant::now();
    let cfg = Config::from_env();
    let intent = cfg.bin.as_path();
    let replay_turns::Run {
        mut source,
        commits,
        last,
        ws,
        hooks,
        replayed,
    } = replay_turns::replay_bundle(&cfg.bundle, cfg.commits, cfg.keep, intent);
    for p in &hooks.problems {
        eprintln!(
            "  problem: commit {} {} {:?} {}: {}",
            p.commit, p.event, p.path, p.kind, p.detail
        );
    }
    let tree = check_tree(&mut source, &ws, &last);

    // Ground truth: the final files, analysed afresh by a parser that is not the one
    // under test (TypeScript: by `intent_ast_hash`, for want of one).
    let texts: Vec<(String, String)> = source
        .replayed_files(&last)
        .unwrap_or_else(|e| fail("ls-tree", e))
        .iter()
        .map(|p| {
            let bytes = source.blob(&last, p).unwrap_or_default();
            (p.clone(), String::from_utf8_lossy(&bytes).into_owned())
        })
        .collect();
    let (files, truth_parser, truth_errors) = match cfg.lang {
        "python" => {
            let (files, errors) =
                python_truth::analyze(&texts).unwrap_or_else(|e| fail("python3 ast", e));
            (files, "python3 ast".to_string(), errors)
        }
        "go" => {
            let version = go_truth::version().unwrap_or_else(|e| fail("go", e));
            let (files, errors) = go_truth::analyze(&texts).unwrap_or_else(|e| fail("go/ast", e));
            (files, format!("go/ast ({version})"), errors)
        }
        "rust" => {
            let (files, errors) = rust_truth::analyze(&texts).unwrap_or_else(|e| fail("syn", e));
            (files, "syn 2".to_string(), errors)
        }
        _ => {
            let files: Vec<FileTruth> = texts
                .iter()
                .map(|(p, t)| FileTruth::analyze(p, t))
                .collect();
            (
                files,
                "intent_ast_hash (the parser under test)".to_string(),
                Vec::new(),
            )
        }
    };
    for e in &truth_errors {
        eprintln!("  truth ({truth_parser}) cannot parse {e}");
    }
    let pop = replay_truth::population(&files);
    let picks = replay_truth::sample(&pop, cfg.samples, cfg.seed);
    eprintln!(
        "replay: asking why and git log -L about {} lines",
        picks.len()
    );
    let samples: Vec<Sample> = picks
        .iter()
        .map(|&(f, line)| sample_line(&source, intent, &ws.root, &files[f], line, &last))
        .collect();
    eprintln!("replay: blame of {} files", files.len());
    let mut stale = Staleness::default();
    let mut blame_errors = Vec::new();
    for f in &files {
        match ask(intent, &ws.root, &["blame", &f.path]).0 {
            Ok(answer) => stale.add(f, &answer),
            Err(e) => blame_errors.push(json!({"file": f.path, "error": e})),
        }
    }

    let (metrics, disagreements) = replay_report::compare(&samples);
    let why_ms: Vec<f64> = samples.iter().map(|s| s.why_ms).collect();
    let git_ms: Vec<f64> = samples
        .iter()
        .filter(|s| s.error.is_none())
        .map(|s| s.git_ms)
        .collect();
    let latency = replay_report::latency(
        &hooks.posts,
        &hooks.floor_ms,
        &hooks.pre_ms,
        &hooks.prompt_ms,
        &why_ms,
        &git_ms,
    );
    let mut problem_kinds = BTreeMap::<String, usize>::new();
    for p in &hooks.problems {
        *problem_kinds.entry(p.kind.clone()).or_default() += 1;
    }
    let report = json!({
        "language": cfg.lang,
        "truth_parser": truth_parser,
        "truth_errors": truth_errors,
        "bundle": cfg.bundle.display().to_string(),
        "intent_bin": cfg.bin.display().to_string(),
        "seed": cfg.seed,
        "commits_replayed": commits.len(),
        "writes": replayed.creates + replayed.updates,
        "creates": replayed.creates,
        "updates": replayed.updates,
        "deletions": replayed.deletions,
        "refused": replayed.refused,
        "hook_runs": hooks.runs,
        "replay_wall_s": replayed.wall_s,
        "hook_wall_s": hooks.total_ms / 1e3,
        "git_commit_s": replayed.git_commit_s,
        "total_wall_s": run_started.elapsed().as_secs_f64(),
        "load_average": std::fs::read_to_string("/proc/loadavg").unwrap_or_default().trim(),
        "problem_kinds": problem_kinds,
        "problems": hooks.problems.iter().map(|p| json!({"commit": p.commit, "intent_id": intent_id(p.commit.saturating_sub(1)),
            "event": p.event, "path": p.path, "kind": p.kind, "detail": p.detail})).collect::<Vec<_>>(),
        "tree_check": tree,
        "ledger": ledger_stats(&ws.root, &hooks.posts),
        "population": {"files": files.len(), "lines": pop.total, "inside": pop.inside.len(), "outside": pop.outside,
            "outside_share": pop.outside as f64 / pop.total.max(1) as f64},
        "metrics": metrics,
        "stale": {"blocks": stale.blocks, "stale_blocks": stale.stale_blocks, "unknown_name": stale.unknown_name,
            "lines": stale.lines, "stale_lines": stale.stale_lines, "lines_missing_block": stale.lines_missing_block,
            "lines_phantom_block": stale.lines_phantom_block, "blame_errors": blame_errors, "examples": stale.examples},
        "latency": latency,
        "report_path": cfg.out.display().to_string(),
        "workspace": cfg.keep.then(|| ws.root.display().to_string()),
        "source": cfg.keep.then(|| source.root.display().to_string()),
        "disagreements": disagreements,
    });
    if let Some(dir) = cfg.out.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    match serde_json::to_string_pretty(&report) {
        Ok(text) => {
            if let Err(e) = std::fs::write(&cfg.out, text) {
                eprintln!("replay: cannot write {}: {e}", cfg.out.display());
            }
        }
        Err(e) => eprintln!("replay: report not serializable: {e}"),
    }
    replay_report::print_summary(&report);
}
