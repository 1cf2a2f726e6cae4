//! `intent review` and `intent stats` on a replayed real history: the budget of
//! issue #32 ("`review` on the hono replay takes ≤ 1 s for a 20-commit range") and
//! how right the review is, line by line, against `git blame` on the workspace's
//! own commits (the ground truth: git's attribution, not our code).
//!
//! Each first-parent commit of the bundle becomes one Claude Code turn under its
//! own intent (`INT-001` … in commit order) and one commit of the agent's
//! workspace, exactly as in the `replay` bench. Then `intent --json review
//! HEAD~N..HEAD` and `intent --json stats HEAD~N..HEAD` run `INTENT_REVIEW_RUNS`
//! times each, interleaved with two floors measured in the same run: the process
//! spawn (`intent --version`) and `git diff --numstat -M` of the same range, which
//! any review must at least do.
//!
//! A reviewed line agrees when the intent review names for it is the intent of
//! the commit `git blame` names (every replayed commit's message starts with its
//! intent). Lines of a TypeScript block follow the block's last change, which may
//! be younger than the line's, so `in_range` (the intent is one of the range's
//! commits) is reported beside the strict figure.
//!
//! Run with `cargo bench -p intent-cli --bench review`. Environment:
//! `INTENT_REPLAY_LANG` (`typescript` (default), `python`, `go`, `rust`),
//! `INTENT_REPLAY_BUNDLE`, `INTENT_REPLAY_COMMITS` (the first N commits),
//! `INTENT_REVIEW_RANGE` (commits in the range, default 20), `INTENT_REVIEW_RUNS`
//! (default 10), `INTENT_REPLAY_KEEP=1`, `INTENT_REPLAY_BIN` (another binary),
//! `INTENT_REVIEW_OUT` (the JSON report; default `target/review-<lang>.json`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use serde_json::{json, Value};

#[path = "support/replay_git.rs"]
#[allow(dead_code)] // `log_l` and the blob reads are the block replay's
mod replay_git;
#[path = "support/replay_hooks.rs"]
#[allow(dead_code)] // the problems' details are the block replay's report
mod replay_hooks;
#[path = "support/replay_turns.rs"]
#[allow(dead_code)] // the source clone and the replay's figures are the block replay's
mod replay_turns;
#[path = "support/replay_workspace.rs"]
#[allow(dead_code)] // `ledger_stats` is the block replay's
mod replay_workspace;

use replay_git::git;
use replay_turns::{ask, fail};

fn main() {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let num = |name: &str| var(name).and_then(|v| v.parse::<usize>().ok());
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let wanted = var("INTENT_REPLAY_LANG").unwrap_or_else(|| "typescript".into());
    let (lang, bundle) =
        replay_git::choose_language(&wanted).unwrap_or_else(|e| fail("INTENT_REPLAY_LANG", e));
    let bundle = var("INTENT_REPLAY_BUNDLE").map_or_else(
        || manifest.join("../../shared/fixtures").join(bundle),
        PathBuf::from,
    );
    let span = num("INTENT_REVIEW_RANGE").unwrap_or(20).max(1);
    let runs = num("INTENT_REVIEW_RUNS").unwrap_or(10).max(1);
    let keep = var("INTENT_REPLAY_KEEP").is_some_and(|v| v != "0");
    let out = var("INTENT_REVIEW_OUT").map_or_else(
        || manifest.join(format!("../target/review-{lang}.json")),
        PathBuf::from,
    );
    let bin = var("INTENT_REPLAY_BIN").map_or_else(
        || PathBuf::from(env!("CARGO_BIN_EXE_intent")),
        PathBuf::from,
    );

    let run = replay_turns::replay_bundle(&bundle, num("INTENT_REPLAY_COMMITS"), keep, &bin);
    let root = run.ws.root.clone();
    let range = format!("HEAD~{span}..HEAD");
    eprintln!("review: timing review and stats of {range}, {runs} runs each");

    // Warm the page cache and the projections once, as a reviewer's second look.
    let (first, first_ms) = ask(&bin, &root, &["review", &range]);
    let review = first.unwrap_or_else(|e| fail("review", e));
    let mut timings: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    for _ in 0..runs {
        timings
            .entry("spawn floor (intent --version)")
            .or_default()
            .push(timed(Command::new(&bin).arg("--version")));
        timings
            .entry("git diff --numstat -M")
            .or_default()
            .push(timed(Command::new("git").arg("-C").arg(&root).args([
                "diff",
                "--numstat",
                "-M",
                &range,
            ])));
        let (answer, ms) = ask(&bin, &root, &["review", &range]);
        answer.unwrap_or_else(|e| fail("review", e));
        timings.entry("review").or_default().push(ms);
        let (answer, ms) = ask(&bin, &root, &["stats", &range]);
        answer.unwrap_or_else(|e| fail("stats", e));
        timings.entry("stats").or_default().push(ms);
    }
    let floor = median(&timings["git diff --numstat -M"]);
    let latency: BTreeMap<&str, Value> = timings
        .iter()
        .map(|(k, v)| {
            let p50 = median(v);
            (
                *k,
                json!({"p50_ms": p50, "max_ms": v.iter().cloned().fold(0.0, f64::max),
                       "ratio_to_git_diff": p50 / floor}),
            )
        })
        .collect();

    let accuracy = compare_with_git_blame(&root, &review, span);
    let report = json!({
        "language": lang,
        "bundle": bundle.display().to_string(),
        "intent_bin": bin.display().to_string(),
        "commits_replayed": run.commits.len(),
        "range": range,
        "runs": runs,
        "first_review_ms": first_ms,
        "files": review["files"].as_array().map_or(0, Vec::len),
        "intents": review["intents"].as_array().map_or(0, Vec::len),
        "latency": latency,
        "accuracy": accuracy,
        "load_average": std::fs::read_to_string("/proc/loadavg").unwrap_or_default().trim(),
        "workspace": keep.then(|| root.display().to_string()),
    });
    if let Some(dir) = out.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let text = serde_json::to_string_pretty(&report).expect("a JSON report");
    if let Err(e) = std::fs::write(&out, &text) {
        eprintln!("review: cannot write {}: {e}", out.display());
    }
    println!("{text}");
    eprintln!("review: report in {}", out.display());
}

/// Wall time of one run of `cmd`, in milliseconds; a failure stops the bench.
fn timed(cmd: &mut Command) -> f64 {
    let started = Instant::now();
    let out = cmd
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| fail("spawn", e.to_string()));
    if !out.status.success() {
        fail("floor", String::from_utf8_lossy(&out.stderr).into_owned());
    }
    started.elapsed().as_secs_f64() * 1e3
}

fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Every line review attributes, against the intent of the commit `git blame`
/// names for it; every line `git diff` adds, against whether review lists it.
fn compare_with_git_blame(root: &Path, review: &Value, span: usize) -> Value {
    let mut ours: BTreeMap<(String, u64), Option<String>> = BTreeMap::new();
    let changes = review["intents"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|i| i["changes"].as_array().into_iter().flatten())
        .chain(review["untraced"].as_array().into_iter().flatten());
    for c in changes {
        let path = c["path"].as_str().unwrap_or_default().to_string();
        for line in c["start"].as_u64().unwrap_or(0)..=c["end"].as_u64().unwrap_or(0) {
            ours.insert(
                (path.clone(), line),
                c["intent_id"].as_str().map(str::to_string),
            );
        }
    }
    // The range's intents: the subjects of its commits start with them.
    let log = git(root, &["log", "--format=%s", &format!("HEAD~{span}..HEAD")])
        .unwrap_or_else(|e| fail("git log", e));
    let in_range: BTreeSet<String> = String::from_utf8_lossy(&log)
        .lines()
        .filter_map(|s| s.split_whitespace().next().map(str::to_string))
        .collect();
    let (mut added, mut listed, mut agree, mut inside, mut untraced) = (0, 0, 0, 0, 0);
    let mut examples = Vec::new();
    let files = review["files"].as_array().cloned().unwrap_or_default();
    for f in &files {
        let Some(path) = f["path"].as_str() else {
            continue;
        };
        let Ok(blame) = git(
            root,
            &[
                "blame",
                "--line-porcelain",
                &format!("HEAD~{span}..HEAD"),
                "--",
                path,
            ],
        ) else {
            continue;
        };
        for (line, intent) in blamed_intents(root, &String::from_utf8_lossy(&blame)) {
            // Lines blamed on the boundary commit are older than the range.
            let Some(truth) = intent else {
                continue;
            };
            added += 1;
            let Some(answer) = ours.get(&(path.to_string(), line)) else {
                continue;
            };
            listed += 1;
            match answer {
                None => untraced += 1,
                Some(id) => {
                    inside += usize::from(in_range.contains(id));
                    if *id == truth {
                        agree += 1;
                    } else if examples.len() < 10 {
                        examples
                            .push(json!({"path": path, "line": line, "git": truth, "review": id}));
                    }
                }
            }
        }
    }
    let share = |n: usize| n as f64 / listed.max(1) as f64;
    json!({
        "lines_added_in_range": added,
        "lines_listed": listed,
        "agree_with_git_blame": agree,
        "agreement": share(agree),
        "intent_in_range": inside,
        "in_range_share": share(inside),
        "untraced": untraced,
        "disagreements": examples,
    })
}

/// `(line, intent of its commit)` from `git blame --line-porcelain` output; `None`
/// for a boundary commit (outside the range).
fn blamed_intents(root: &Path, porcelain: &str) -> Vec<(u64, Option<String>)> {
    let mut subjects: BTreeMap<String, Option<String>> = BTreeMap::new();
    let mut out = Vec::new();
    let mut current: Option<(String, u64)> = None;
    let mut boundary = false;
    for line in porcelain.lines() {
        if line.starts_with('\t') {
            if let Some((sha, n)) = current.take() {
                let intent = if boundary {
                    None
                } else {
                    subjects
                        .entry(sha.clone())
                        .or_insert_with(|| {
                            git(root, &["log", "-1", "--format=%s", &sha])
                                .ok()
                                .and_then(|s| {
                                    String::from_utf8_lossy(&s)
                                        .split_whitespace()
                                        .next()
                                        .map(str::to_string)
                                })
                        })
                        .clone()
                };
                out.push((n, intent));
            }
            boundary = false;
        } else if line == "boundary" {
            boundary = true;
        } else if current.is_none() {
            let mut parts = line.split(' ');
            if let (Some(sha), Some(_), Some(n)) = (parts.next(), parts.next(), parts.next()) {
                if sha.len() == 40 && sha.bytes().all(|b| b.is_ascii_hexdigit()) {
                    current = n.parse().ok().map(|n| (sha.to_string(), n));
                }
            }
        }
    }
    out
}
