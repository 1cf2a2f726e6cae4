//! The search projection: a full rebuild of a synthetic ledger (timed once, printed
//! in events/s and MB/s), then the per-process cost of `search` on it.
//!
//! Run with `cargo bench -p intent-query --bench search`. Set `INTENT_BENCH_EVENTS`
//! to change the size of the generated ledger (default 100k; the budget is stated
//! for 1M: `search` ≤ 20 ms per process, rebuild of all projections ≤ 30 s).
//!
//! Every `search` call opens the index from disk, checks its stamp against the
//! ledger and answers, as one `intent search` process does; nothing is cached
//! between iterations except what the OS page cache holds.

use std::sync::OnceLock;
use std::time::Instant;

use divan::counter::ItemsCount;
use divan::Bencher;
use intent_ledger::{Durability, LedgerOptions, NewEvent, Workspace};
use intent_query::search::{self, SearchQuery};
use intent_query::NoProgress;
use serde_json::{json, Value};

fn main() {
    let ws = workspace();
    let ledger = ws.ledger_path();
    let bytes = std::fs::metadata(&ledger).unwrap().len();
    let started = Instant::now();
    let done = search::rebuild(ws, &NoProgress).unwrap();
    let secs = started.elapsed().as_secs_f64();
    let index_bytes: u64 = std::fs::read_dir(search::index_dir(ws))
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .sum();
    println!(
        "search rebuild: {} events, {:.1} MB ledger in {secs:.2} s = {:.0} events/s, \
         {:.1} MB/s; index {:.1} MB",
        done.applied,
        bytes as f64 / 1e6,
        done.applied as f64 / secs,
        bytes as f64 / 1e6 / secs,
        index_bytes as f64 / 1e6,
    );
    divan::main();
}

/// Events in the generated ledger.
fn events() -> usize {
    std::env::var("INTENT_BENCH_EVENTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(100_000)
}

/// The workspace with the generated ledger, built once per process.
fn workspace() -> &'static Workspace {
    static WS: OnceLock<(tempfile::TempDir, Workspace)> = OnceLock::new();
    &WS.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let ws = Workspace::at(dir.path());
        ws.init().unwrap();
        let mut ledger = ws
            .open_ledger(LedgerOptions {
                durability: Durability::Never,
                ..LedgerOptions::default()
            })
            .unwrap();
        let total = events();
        let mut i = 0;
        while i < total {
            let chunk: Vec<NewEvent> = (i..(i + 10_000).min(total)).map(sample).collect();
            i += chunk.len();
            ledger.append_batch(chunk).unwrap();
        }
        (dir, ws)
    })
    .1
}

const WORDS: [&str; 12] = [
    "token", "expiry", "session", "cookie", "invoice", "throttle", "window", "cache", "parser",
    "retry", "audit", "export",
];

/// Event `i` of a realistic mix: per 20 events, 8 gate decisions, 5 tool
/// completions, 3 traces, one prompt, one lesson, one session start and one
/// selection; a spec snapshot of 200 intents every 50k events.
fn sample(i: usize) -> NewEvent {
    let session = format!("session-{}", i / 500);
    let intent = format!("INT-{:03}", (i / 500) % 200);
    let path = format!("src/mod_{}/sub_{}/file_{}.ts", i % 40, i % 7, i % 997);
    let word = |k: usize| WORDS[(i / 3 + k * 5) % WORDS.len()];
    let (kind, data): (&str, Value) = if i.is_multiple_of(50_000) {
        ("intent.spec", spec(i))
    } else {
        match i % 20 {
            0..=7 => ("tool.pre", decision(i, &intent, &path)),
            8..=12 => (
                "tool.post",
                json!({"tool": "Write", "tool_use_id": format!("toolu_{i}"), "ok": true}),
            ),
            13..=15 => ("trace", trace(i, &intent, &path, word(0), word(1))),
            16 => (
                "prompt",
                json!({"intent_id": intent, "text": format!("Make the {} {} handle {} correctly", word(0), word(1), word(2))}),
            ),
            17 => (
                "lesson",
                json!({"intent_id": intent, "text": format!("{} failed: the {} must be checked before {}", word(2), word(0), word(1)), "origin": "gate"}),
            ),
            18 => (
                "session.start",
                json!({"front_end": "claude-code", "model": "anthropic/claude-sonnet-4-5"}),
            ),
            _ => (
                "intent.selected",
                json!({"intent_id": intent, "via": "mcp", "reasoning": format!("working on the {}", word(3))}),
            ),
        }
    };
    NewEvent::new(kind, "hook:claude-code", data).with_session(session)
}

fn spec(i: usize) -> Value {
    let intents: Vec<Value> = (0..200)
        .map(|n| {
            json!({"id": format!("INT-{n:03}"), "name": format!("{} {} work {n}", WORDS[n % 12], WORDS[(n / 12) % 12]),
                   "description": format!("Snapshot {i}: keep the {} stable.", WORDS[(n + 3) % 12]),
                   "status": "IN_PROGRESS", "owned_scope": [format!("src/mod_{}/**", n % 40)],
                   "constraints": ["No new runtime dependencies."],
                   "acceptance_criteria": ["All tests pass."]})
        })
        .collect();
    json!({"content_hash": format!("sha256:{i}"), "spec": {"active_intents": intents}})
}

fn decision(i: usize, intent: &str, path: &str) -> Value {
    let mut data = json!({"front_end": "claude-code", "tool": "Write", "tool_use_id": format!("toolu_{i}"),
                          "model": "anthropic/claude-sonnet-4-5", "intent_id": intent,
                          "decision": "allow", "class": "destructive", "paths": [path]});
    if i % 40 == 1 {
        data["decision"] = json!("deny");
        data["reason"] = json!({"type": "scope_violation",
            "message": format!("`{path}` is outside the owned_scope of {intent}."),
            "attempted_path": path, "next_step": "Only change files matching allowed_scope."});
    }
    data
}

fn trace(i: usize, intent: &str, path: &str, a: &str, b: &str) -> Value {
    let block = |name: String| {
        json!({"path": path, "kind": "function", "name": name, "start_line": 10, "end_line": 24,
                                      "exact": "ee7fa7bdb8a21e4c929e1ec3a9eeb798", "alpha": "eb124f9eee5be07d72f1cd93204d0841"})
    };
    let class = if i.is_multiple_of(5) {
        "AST_REFACTOR"
    } else {
        "INTENT_EVOLUTION"
    };
    json!({"path": path, "before_sha256": "sha256:2290ade41ba3b49867852d889a152366a9909044f59009b3369bf03f79b4ad04",
           "after_sha256": "sha256:a60b59475c813e5aead43ddfe641e2f3ad6e734b92edcb32ca62afd7391f3982",
           "ranges": [{"start_line": 10, "end_line": 24, "content_hash": "sha256:18317b5c9f463eee8c05dfb2e0db86afd95b159acd515895b6e0e46c62a99a70"}],
           "mutation_class": class, "classification": {"method": "ast", "reason": format!("behaviour changed in `{a}_{b}` ({path}:10-24)")},
           "intent_id": intent, "tool": "Write", "front_end": "claude-code", "model": "anthropic/claude-sonnet-4-5",
           "blocks": [{"event": "modified", "matched_by": "name", "before": block(format!("{a}{b}")), "after": block(format!("{a}{b}"))}]})
}

fn run(bencher: Bencher, query: SearchQuery) {
    let ws = workspace();
    bencher.counter(ItemsCount::new(1usize)).bench(|| {
        let results = search::search(ws, &query).unwrap();
        divan::black_box(results.hits.len())
    });
}

/// Text only, ranked by BM25: one word, two words, a phrase.
#[divan::bench(args = ["token", "token expiry", "\"scope_violation\"", "cookie -session"])]
fn text(bencher: Bencher, text: &str) {
    run(bencher, SearchQuery::new(text));
}

/// Text plus exact filters (intent and kind; path prefix; mutation class).
#[divan::bench(args = ["intent+kind", "path", "class"])]
fn text_and_filter(bencher: Bencher, filter: &str) {
    let mut query = SearchQuery::new("token expiry");
    match filter {
        "intent+kind" => {
            query.intent = Some("INT-007".into());
            query.kind = Some("trace".into());
        }
        "path" => query.path_prefix = Some("src/mod_3/sub_3".into()),
        _ => query.class = Some("AST_REFACTOR".into()),
    }
    run(bencher, query);
}

/// Filters alone, newest first (no scoring).
#[divan::bench]
fn filters_only(bencher: Bencher) {
    let mut query = SearchQuery::new("");
    query.kind = Some("lesson".into());
    query.intent = Some("INT-042".into());
    run(bencher, query);
}

/// The catch-up check when nothing is new: what every search pays first.
#[divan::bench]
fn catch_up_nothing_new(bencher: Bencher) {
    let ws = workspace();
    bencher.bench(|| search::catch_up(ws, &NoProgress).unwrap());
}
