//! Line-level `why` on a replayed real history, in any language: every line of
//! every final file, `intent blame --json` against `git blame -M` on the source
//! clone (the ground truth: git's own line attribution, moves included, not our
//! code), plus the PostToolUse latency of the replay against the spawn floor.
//!
//! Each first-parent commit becomes one Claude Code turn under its own intent
//! (`INT-001` … in commit order), exactly as in the `replay` bench. A line agrees
//! when the intent our blame names is the one of the commit git blames. Lines that
//! a traced block answers (TypeScript blocks) follow the block's last change, not
//! the line's, so they are counted apart (`block` level) and not in the line
//! figures.
//!
//! Run with `cargo bench -p intent-cli --bench replay_lines`. Environment:
//! `INTENT_REPLAY_LANG` (`python` (default), `go`, `rust`, `typescript`: picks the
//! bundle of `shared/fixtures/` and the file endings), `INTENT_REPLAY_BUNDLE`,
//! `INTENT_REPLAY_COMMITS` (the first N commits), `INTENT_REPLAY_KEEP=1`,
//! `INTENT_REPLAY_OUT` (default `target/replay-lines-<lang>.json`),
//! `INTENT_REPLAY_BIN` (another `intent` binary).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::{json, Value};

#[path = "support/replay_git.rs"]
#[allow(dead_code)] // `log_l` is the block replay's
mod replay_git;
#[path = "support/replay_hooks.rs"]
mod replay_hooks;
#[path = "support/replay_turns.rs"]
mod replay_turns;
#[path = "support/replay_workspace.rs"]
#[allow(dead_code)] // `ledger_stats` is the block replay's
mod replay_workspace;

use replay_git::{git, Source};
use replay_turns::{ask, fail};
use replay_workspace::{check_tree, intent_id};

struct Config {
    lang: &'static str,
    bundle: PathBuf,
    commits: Option<usize>,
    keep: bool,
    out: PathBuf,
    bin: PathBuf,
}

impl Config {
    fn from_env() -> Config {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
        let wanted = var("INTENT_REPLAY_LANG").unwrap_or_else(|| "python".into());
        let (lang, bundle) =
            replay_git::choose_language(&wanted).unwrap_or_else(|e| fail("INTENT_REPLAY_LANG", e));
        Config {
            lang,
            bundle: var("INTENT_REPLAY_BUNDLE").map_or_else(
                || manifest.join("../../shared/fixtures").join(bundle),
                PathBuf::from,
            ),
            commits: var("INTENT_REPLAY_COMMITS").and_then(|v| v.parse().ok()),
            keep: var("INTENT_REPLAY_KEEP").is_some_and(|v| v != "0"),
            out: var("INTENT_REPLAY_OUT").map_or_else(
                || manifest.join(format!("../target/replay-lines-{lang}.json")),
                PathBuf::from,
            ),
            bin: var("INTENT_REPLAY_BIN").map_or_else(
                || PathBuf::from(env!("CARGO_BIN_EXE_intent")),
                PathBuf::from,
            ),
        }
    }
}

/// Tallies of one answer level.
#[derive(Default)]
struct Tally {
    lines: usize,
    agree: usize,
    /// We named no write (or said the line was written outside the ledger).
    no_answer: usize,
}

impl Tally {
    fn json(&self) -> Value {
        let share = |n: usize| n as f64 / self.lines.max(1) as f64;
        json!({"lines": self.lines, "agree": self.agree, "agreement": share(self.agree),
            "no_answer": self.no_answer, "no_answer_share": share(self.no_answer)})
    }
}

/// `git blame -M` of `path` at `at`: the replay position of every line's commit.
fn git_blame(source: &Source, path: &str, at: &str) -> Result<Vec<usize>, String> {
    let out = git(
        &source.root,
        &["blame", "-M", "--porcelain", at, "--", path],
    )?;
    let text = String::from_utf8_lossy(&out);
    Ok(text
        .lines()
        .filter(|l| {
            l.len() > 41
                && l.as_bytes()[40] == b' '
                && l[..40].bytes().all(|b| b.is_ascii_hexdigit())
        })
        .map(|l| source.position.get(&l[..40]).copied().unwrap_or(usize::MAX))
        .collect())
}

fn main() {
    let started = Instant::now();
    let cfg = Config::from_env();
    let intent = cfg.bin.as_path();
    eprintln!("replay-lines ({})", cfg.lang);
    let replay_turns::Run {
        mut source,
        commits,
        last,
        ws,
        hooks,
        replayed,
    } = replay_turns::replay_bundle(&cfg.bundle, cfg.commits, cfg.keep, intent);
    let tree = check_tree(&mut source, &ws, &last);
    let files = source
        .replayed_files(&last)
        .unwrap_or_else(|e| fail("ls-tree", e));
    eprintln!(
        "replay-lines: blame of {} files, ours and git's",
        files.len()
    );

    let mut by_level: BTreeMap<String, Tally> = BTreeMap::new();
    let mut examples = Vec::new();
    let mut errors = Vec::new();
    let (mut ours_ms, mut git_ms) = (Vec::new(), Vec::new());
    for path in &files {
        let t = Instant::now();
        let truth = match git_blame(&source, path, &last) {
            Ok(truth) => truth,
            Err(e) => {
                errors.push(json!({"file": path, "git": e}));
                continue;
            }
        };
        git_ms.push(t.elapsed().as_secs_f64() * 1e3);
        let (answer, ms) = ask(intent, &ws.root, &["blame", path]);
        ours_ms.push(ms);
        let answer = match answer {
            Ok(answer) => answer,
            Err(e) => {
                errors.push(json!({"file": path, "ours": e}));
                continue;
            }
        };
        let rows = answer["lines"].as_array().map(Vec::as_slice).unwrap_or(&[]);
        if rows.len() != truth.len() {
            errors.push(json!({"file": path, "lines": [rows.len(), truth.len()]}));
            continue;
        }
        for (row, &commit) in rows.iter().zip(&truth) {
            let level = row["level"].as_str().unwrap_or("none").to_string();
            let ours = row["intent_id"]
                .as_str()
                .filter(|_| row["outside_ledger"] != true);
            let want = intent_id(commit);
            // Lines with no letter or digit (blank lines, `}`, `)`): which of many
            // equal lines a diff pairs is a tie git's xdiff and imara-diff break
            // differently, so they are also counted apart.
            let text = row["text"].as_str().unwrap_or("");
            let letters = if text.chars().any(char::is_alphanumeric) {
                "with letters"
            } else {
                "no letters"
            };
            for kind in [level.clone(), format!("{level}, {letters}")] {
                let tally = by_level.entry(kind).or_default();
                tally.lines += 1;
                match ours {
                    None => tally.no_answer += 1,
                    Some(o) if o == want => tally.agree += 1,
                    Some(_) => {}
                }
            }
            if ours != Some(want.as_str()) && examples.len() < 40 {
                examples.push(json!({"file": path, "line": row["line"], "level": level,
                    "ours": ours, "git": want, "text": row["text"]}));
            }
        }
    }
    let posts: Vec<f64> = hooks.posts.iter().map(|p| p.ms).collect();
    let big: Vec<f64> = hooks
        .posts
        .iter()
        .filter(|p| p.lines >= 1000)
        .map(|p| p.ms)
        .collect();
    let big_files: std::collections::BTreeSet<&str> = hooks
        .posts
        .iter()
        .filter(|p| p.lines >= 1000 && p.commit > 0)
        .map(|p| p.path.as_str())
        .collect();
    let (ledger_bytes, line_record_bytes) = line_record_share(&ws.root);
    let report = json!({
        "language": cfg.lang,
        "bundle": cfg.bundle.display().to_string(),
        "commits_replayed": commits.len(),
        "writes": replayed.creates + replayed.updates,
        "deletions": replayed.deletions,
        "refused": replayed.refused,
        "problems": hooks.problems.iter().map(|p| json!({"commit": p.commit, "event": p.event,
            "path": p.path, "kind": p.kind, "detail": p.detail})).collect::<Vec<_>>(),
        "tree_check": tree,
        "files": files.len(),
        "ledger_bytes": ledger_bytes,
        "line_record_bytes": line_record_bytes,
        "line_record_share": line_record_bytes as f64 / ledger_bytes.max(1) as f64,
        "levels": by_level.iter().map(|(k, v)| (k.clone(), v.json())).collect::<BTreeMap<_, _>>(),
        "errors": errors,
        "disagreement_examples": examples,
        "latency_ms": {
            "post_tool_use": {"p50": pct(&posts, 0.5), "p95": pct(&posts, 0.95), "n": posts.len()},
            "post_tool_use_1000_lines_or_more": {"p50": pct(&big, 0.5), "p95": pct(&big, 0.95),
                "n": big.len(), "files": big_files.len()},
            "spawn_floor": {"p50": pct(&hooks.floor_ms, 0.5), "p95": pct(&hooks.floor_ms, 0.95)},
            "post_over_floor_p50": pct(&posts, 0.5) / pct(&hooks.floor_ms, 0.5).max(1e-9),
            "blame_per_file": {"p50": pct(&ours_ms, 0.5), "p95": pct(&ours_ms, 0.95)},
            "git_blame_m_per_file": {"p50": pct(&git_ms, 0.5), "p95": pct(&git_ms, 0.95)},
        },
        "wall_s": started.elapsed().as_secs_f64(),
        "load_average": std::fs::read_to_string("/proc/loadavg").unwrap_or_default().trim(),
    });
    if let Some(dir) = cfg.out.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let text = serde_json::to_string_pretty(&report).expect("a JSON report");
    if let Err(e) = std::fs::write(&cfg.out, &text) {
        eprintln!("replay-lines: cannot write {}: {e}", cfg.out.display());
    }
    let summary = json!({"language": report["language"], "levels": report["levels"],
        "latency_ms": report["latency_ms"], "errors": report["errors"].as_array().map(Vec::len),
        "problems": report["problems"].as_array().map(Vec::len),
        "line_record_share": report["line_record_share"],
        "tree_check": report["tree_check"]["mismatches"].as_array().map(Vec::len),
        "report": cfg.out.display().to_string()});
    println!("{}", serde_json::to_string_pretty(&summary).expect("JSON"));
}

/// The ledger's size and how much of it the traces' line records take.
fn line_record_share(root: &Path) -> (u64, u64) {
    let ledger = root.join(".git/intent/agent_trace.jsonl");
    let Ok(text) = std::fs::read_to_string(&ledger) else {
        return (0, 0);
    };
    let records: usize = text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|e| e["data"].get("lines").map(|v| v.to_string().len() + 9))
        .sum();
    (text.len() as u64, records as u64)
}

/// The `q` quantile of `values` (nearest rank); 0 for none.
fn pct(values: &[f64], q: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}
