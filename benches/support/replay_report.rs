//! Scores of the replay benchmark: `intent why` against `git log -L` per sampled
//! line, and hook latencies by file size against the `/bin/true` floor. Each
//! disagreement keeps everything needed to analyse it (both histories, both blocks)
//! because the point of the benchmark is to find out *why* answers differ.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Value};

use crate::replay_hooks::PostRun;
use crate::replay_truth::TBlock;
use crate::replay_workspace::intent_id;

/// One history entry of ours, as `why --json` gives it.
pub struct Entry {
    pub intent: Option<String>,
    pub event: String,
    pub class: Option<String>,
    pub path: String,
    pub seq: u64,
    /// The block this entry was inherited from at a split or merge.
    pub inherited_from: Option<String>,
}

/// One sampled line, both answers.
pub struct Sample {
    pub file: String,
    pub line: u32,
    pub truth: TBlock,
    /// Replay positions of the commits git names, newest first.
    pub git: Vec<usize>,
    pub git_ms: f64,
    /// Our history, newest first.
    pub ours: Vec<Entry>,
    pub block: Option<TBlock>,
    /// Our `last_edit` (the newest change to the text, pure moves skipped).
    pub last_edit: Option<String>,
    pub outside_ledger: bool,
    pub note: Option<String>,
    pub why_ms: f64,
    /// `why` or `git log -L` failed.
    pub error: Option<String>,
}

impl Sample {
    fn git_ids(&self) -> Vec<String> {
        self.git.iter().map(|&i| intent_id(i)).collect()
    }

    fn our_ids(&self) -> Vec<String> {
        self.ours
            .iter()
            .map(|e| e.intent.clone().unwrap_or_else(|| "-".into()))
            .collect()
    }

    /// Our last edit is git's last commit (`git log -L` names the commit that
    /// last changed the lines; a move that carried them unchanged is not one).
    fn last_change_agrees(&self) -> bool {
        self.last_edit.is_some() && self.last_edit == self.git.first().map(|&i| intent_id(i))
    }

    /// Our newest entry of any kind (moves included) is git's last commit.
    fn last_touched_agrees(&self) -> bool {
        let ours = self.ours.first().and_then(|e| e.intent.clone());
        ours.is_some() && ours == self.git.first().map(|&i| intent_id(i))
    }

    fn no_answer(&self) -> bool {
        !self.git.is_empty() && (self.ours.is_empty() || self.block.is_none())
    }

    fn block_agrees(&self) -> bool {
        self.block
            .as_ref()
            .is_some_and(|b| b.start == self.truth.start && b.end == self.truth.end)
    }

    /// What is wrong with this sample, as short tags.
    fn tags(&self) -> Vec<&'static str> {
        let mut tags = Vec::new();
        if self.error.is_some() {
            tags.push("error");
        }
        if self.no_answer() {
            tags.push("no_answer");
        }
        if !self.last_change_agrees() {
            tags.push("last_change");
        }
        let (git, ours): (BTreeSet<String>, BTreeSet<String>) = (
            self.git_ids().into_iter().collect(),
            self.our_ids().into_iter().collect(),
        );
        if git.difference(&ours).next().is_some() {
            tags.push("missing");
        }
        if ours.difference(&git).next().is_some() {
            tags.push("extra");
        }
        if !self.block_agrees() {
            tags.push("block");
        }
        tags
    }

    fn to_json(&self) -> Value {
        let (git, ours): (BTreeSet<String>, BTreeSet<String>) = (
            self.git_ids().into_iter().collect(),
            self.our_ids().into_iter().collect(),
        );
        json!({
            "file": self.file,
            "line": self.line,
            "tags": self.tags(),
            "truth_block": self.truth.to_json(),
            "our_block": self.block.as_ref().map(TBlock::to_json),
            "git": self.git_ids(),
            "ours": self.our_ids(),
            "missing": git.difference(&ours).collect::<Vec<_>>(),
            "extra": ours.difference(&git).collect::<Vec<_>>(),
            "ours_detail": self.ours.iter().map(|e| json!({
                "intent_id": e.intent, "event": e.event, "mutation_class": e.class,
                "path": e.path, "seq": e.seq, "inherited_from": e.inherited_from,
            })).collect::<Vec<_>>(),
            "outside_ledger": self.outside_ledger,
            "note": self.note,
            "error": self.error,
        })
    }
}

/// A share with its counts: `12.3 % (37/300)`.
fn share(n: usize, d: usize) -> Value {
    json!({"count": n, "of": d, "share": if d == 0 { 0.0 } else { n as f64 / d as f64 }})
}

fn fmt_share(v: &Value) -> String {
    format!(
        "{:6.2} % ({}/{})",
        v["share"].as_f64().unwrap_or(0.0) * 100.0,
        v["count"],
        v["of"]
    )
}

/// The comparison metrics and every disagreement.
pub fn compare(samples: &[Sample]) -> (Value, Vec<Value>) {
    let with_git: Vec<&Sample> = samples.iter().filter(|s| !s.git.is_empty()).collect();
    let (mut inter, mut git_n, mut ours_n) = (0, 0, 0);
    for s in samples {
        let git: BTreeSet<String> = s.git_ids().into_iter().collect();
        let ours: BTreeSet<String> = s.our_ids().into_iter().collect();
        inter += git.intersection(&ours).count();
        git_n += git.len();
        ours_n += ours.len();
    }
    // Our entries git does not list, by why we list them.
    let mut extra_kinds: BTreeMap<&str, usize> = BTreeMap::new();
    for s in samples {
        let git: BTreeSet<String> = s.git_ids().into_iter().collect();
        let mut seen = BTreeSet::new();
        for e in &s.ours {
            let id = e.intent.clone().unwrap_or_else(|| "-".into());
            if git.contains(&id) || !seen.insert(id) {
                continue;
            }
            let kind = match (&e.inherited_from, e.path == s.file) {
                (Some(_), _) => "inherited at a split or merge",
                (None, false) => "before a move from another file",
                (None, true) => "this block, this file",
            };
            *extra_kinds.entry(kind).or_default() += 1;
        }
    }
    let mut tag_counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut disagreements = Vec::new();
    for s in samples {
        let tags = s.tags();
        for t in &tags {
            *tag_counts.entry(t).or_default() += 1;
        }
        if !tags.is_empty() {
            disagreements.push(s.to_json());
        }
    }
    let metrics = json!({
        "samples": samples.len(),
        "last_change_agreement": share(with_git.iter().filter(|s| s.last_change_agrees()).count(), with_git.len()),
        "last_touched_agreement": share(with_git.iter().filter(|s| s.last_touched_agrees()).count(), with_git.len()),
        "history_recall": share(inter, git_n),
        "history_precision": share(inter, ours_n),
        "no_answer": share(with_git.iter().filter(|s| s.no_answer()).count(), with_git.len()),
        "block_agreement": share(samples.iter().filter(|s| s.block_agrees()).count(), samples.len()),
        "block_name_agreement": share(
            samples.iter().filter(|s| s.block.as_ref().is_some_and(|b| b.name == s.truth.name)).count(),
            samples.len()),
        "outside_ledger": share(samples.iter().filter(|s| s.outside_ledger).count(), samples.len()),
        "errors": samples.iter().filter(|s| s.error.is_some()).count(),
        "disagreement_tags": tag_counts,
        "extra_entries_by_kind": extra_kinds,
        "git_commits_per_sample_mean": git_n as f64 / samples.len().max(1) as f64,
        "our_entries_per_sample_mean": samples.iter().map(|s| s.ours.len()).sum::<usize>() as f64 / samples.len().max(1) as f64,
    });
    (metrics, disagreements)
}

/// p-quantile of sorted values (nearest rank).
pub fn pct(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() as f64 - 1.0) * q).round() as usize]
}

fn stats(mut v: Vec<f64>, floor: f64) -> Value {
    v.sort_by(f64::total_cmp);
    let p50 = pct(&v, 0.5);
    json!({"n": v.len(), "p50": p50, "p95": pct(&v, 0.95), "max": v.last().copied().unwrap_or(f64::NAN),
        "p50_over_floor": p50 / floor})
}

/// Latencies: PostToolUse by written file size, the floor, and the other hooks.
/// Turn 1 (the first tree, ~170 files in one turn,
/// each write classified with all the turn's earlier ones) is also shown apart.
pub fn latency(
    post: &[PostRun],
    floor: &[f64],
    pre: &[f64],
    prompt: &[f64],
    why: &[f64],
    git: &[f64],
) -> Value {
    let mut f = floor.to_vec();
    f.sort_by(f64::total_cmp);
    let floor_p50 = pct(&f, 0.5);
    let buckets = [
        ("<200", 0, 200),
        ("200-499", 200, 500),
        ("500-999", 500, 1000),
        (">=1000", 1000, usize::MAX),
    ];
    let mut rows = serde_json::Map::new();
    for (name, lo, hi) in buckets {
        let v = post
            .iter()
            .filter(|r| r.lines >= lo && r.lines < hi)
            .map(|r| r.ms)
            .collect();
        rows.insert(name.to_string(), stats(v, floor_p50));
    }
    rows.insert(
        "all".into(),
        stats(post.iter().map(|r| r.ms).collect(), floor_p50),
    );
    let of_turn = |first: bool| {
        post.iter()
            .filter(|r| (r.commit == 1) == first)
            .map(|r| r.ms)
            .collect()
    };
    rows.insert("turn 1 only".into(), stats(of_turn(true), floor_p50));
    rows.insert("turns 2+".into(), stats(of_turn(false), floor_p50));
    let mut slowest: Vec<&PostRun> = post.iter().collect();
    slowest.sort_by(|a, b| b.ms.total_cmp(&a.ms));
    let slowest: Vec<Value> = slowest
        .iter()
        .take(15)
        .map(|r| json!({"commit": r.commit, "path": r.path, "lines": r.lines, "ms": r.ms}))
        .collect();
    let mut why_s = why.to_vec();
    why_s.sort_by(f64::total_cmp);
    let mut git_s = git.to_vec();
    git_s.sort_by(f64::total_cmp);
    json!({
        "floor": stats(floor.to_vec(), floor_p50),
        "post_tool_use_by_lines": rows,
        "pre_tool_use": stats(pre.to_vec(), floor_p50),
        "user_prompt_submit": stats(prompt.to_vec(), floor_p50),
        "why": stats(why.to_vec(), floor_p50),
        "git_log_l": stats(git.to_vec(), floor_p50),
        "slowest_post_tool_use": slowest,
        // Every PostToolUse in run order, `[commit, path, lines, ms]`, for plots.
        "post_tool_use_runs": post
            .iter()
            .map(|r| json!([r.commit, r.path, r.lines, r.ms]))
            .collect::<Vec<_>>(),
        "git_log_l_over_why_p50": pct(&git_s, 0.5) / pct(&why_s, 0.5),
    })
}

/// Prints the human summary of a finished report.
pub fn print_summary(r: &Value) {
    let m = &r["metrics"];
    println!(
        "\n== intent replay: {} ==",
        r["bundle"].as_str().unwrap_or("")
    );
    println!(
        "intent binary {}, load average {}",
        r["intent_bin"].as_str().unwrap_or(""),
        r["load_average"].as_str().unwrap_or("")
    );
    println!(
        "commits replayed {}, files written {} (created {}, updated {}), deletions {}, hook runs {}",
        r["commits_replayed"], r["writes"], r["creates"], r["updates"], r["deletions"], r["hook_runs"]
    );
    println!(
        "replay wall time {:.1} s (hooks {:.1} s, git commits {:.1} s); whole run {:.1} s",
        r["replay_wall_s"].as_f64().unwrap_or(0.0),
        r["hook_wall_s"].as_f64().unwrap_or(0.0),
        r["git_commit_s"].as_f64().unwrap_or(0.0),
        r["total_wall_s"].as_f64().unwrap_or(0.0),
    );
    println!(
        "ledger: {} events, {} traces, {} bytes, classes {}",
        r["ledger"]["events"],
        r["ledger"]["traces"],
        r["ledger"]["bytes"],
        r["ledger"]["mutation_classes"]
    );
    if let Some(buckets) = r["ledger"]["trace_bytes"].as_object() {
        println!("bytes per Write trace, by written file size: bucket n mean p50 max");
        for (bucket, b) in buckets {
            println!(
                "  {bucket:<16} {:>5} {:>8} {:>8} {:>8}",
                b["n"], b["mean"], b["p50"], b["max"]
            );
        }
    }
    let problems = r["problems"].as_array().map_or(0, Vec::len);
    println!(
        "hook problems (denials, blocks, errors): {problems} {}",
        r["problem_kinds"]
    );
    println!(
        "final tree: {} files compared, {} mismatches",
        r["tree_check"]["files"],
        r["tree_check"]["mismatches"].as_array().map_or(0, Vec::len)
    );
    let p = &r["population"];
    println!(
        "lines: {} in {} files; outside every block: {} ({:.2} %)",
        p["lines"],
        p["files"],
        p["outside"],
        p["outside_share"].as_f64().unwrap_or(0.0) * 100.0
    );
    println!(
        "\n`intent why` vs `git log -L` on {} sampled lines (seed {}):",
        m["samples"], r["seed"]
    );
    for (label, key) in [
        ("last-change agreement", "last_change_agreement"),
        ("last-touched agreement", "last_touched_agreement"),
        ("history recall (micro)", "history_recall"),
        ("history precision (micro)", "history_precision"),
        ("no answer", "no_answer"),
        ("block agreement (lines)", "block_agreement"),
        ("block name agreement", "block_name_agreement"),
        ("outside_ledger flagged", "outside_ledger"),
    ] {
        println!("  {label:<28} {}", fmt_share(&m[key]));
    }
    println!("  disagreement tags: {}", m["disagreement_tags"]);
    println!(
        "  our entries git does not list: {}",
        m["extra_entries_by_kind"]
    );
    let s = &r["stale"];
    println!(
        "stale positions (intent blame vs fresh analysis): {} of {} blocks ({} with a name the file no longer has); {} of {} lines ({} without a block, {} with a phantom block)",
        s["stale_blocks"], s["blocks"], s["unknown_name"], s["stale_lines"], s["lines"],
        s["lines_missing_block"], s["lines_phantom_block"]
    );
    let l = &r["latency"];
    let floor = l["floor"]["p50"].as_f64().unwrap_or(f64::NAN);
    println!("\nhook latency, spawn -> exit (ms); floor = /bin/true after each PostToolUse, p50 {floor:.2}");
    println!(
        "  {:<26} {:>5} {:>8} {:>8} {:>8} {:>9}",
        "case", "n", "p50", "p95", "max", "p50/floor"
    );
    let row = |name: &str, v: &Value| {
        if v["n"].as_u64().unwrap_or(0) == 0 {
            println!(
                "  {name:<26} {:>5} {:>8} {:>8} {:>8} {:>9}",
                0, "-", "-", "-", "-"
            );
            return;
        }
        println!(
            "  {name:<26} {:>5} {:>8.2} {:>8.2} {:>8.2} {:>8.1}x",
            v["n"].as_u64().unwrap_or(0),
            v["p50"].as_f64().unwrap_or(f64::NAN),
            v["p95"].as_f64().unwrap_or(f64::NAN),
            v["max"].as_f64().unwrap_or(f64::NAN),
            v["p50_over_floor"].as_f64().unwrap_or(f64::NAN)
        )
    };
    for b in ["<200", "200-499", "500-999", ">=1000", "all"] {
        row(
            &format!("PostToolUse {b} lines"),
            &l["post_tool_use_by_lines"][b],
        );
    }
    row(
        "PostToolUse turn 1 only",
        &l["post_tool_use_by_lines"]["turn 1 only"],
    );
    row(
        "PostToolUse turns 2+",
        &l["post_tool_use_by_lines"]["turns 2+"],
    );
    row("floor /bin/true", &l["floor"]);
    row("PreToolUse Write", &l["pre_tool_use"]);
    row("UserPromptSubmit", &l["user_prompt_submit"]);
    row("intent why --json", &l["why"]);
    row("git log -L", &l["git_log_l"]);
    println!(
        "  budget (DESIGN.md): PostToolUse on real full-file writes p50 <= 10 ms, p95 <= 25 ms; git log -L / why p50 = {:.1}x",
        l["git_log_l_over_why_p50"].as_f64().unwrap_or(f64::NAN)
    );
    println!("report: {}", r["report_path"].as_str().unwrap_or(""));
}
