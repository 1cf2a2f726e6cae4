//! The resident helper keeps analyses, trees and the hook state under one memory
//! budget (issue #30): driven well past a small budget by writes of 40 KB files,
//! it reports what it keeps within the budget, has let older entries go, records
//! every write all the same, and its resident memory (read by the kernel, not by
//! the helper's own estimate) stays near its baseline: 33 MB here with a 4 MB
//! budget, where keeping every analysis of these writes (320, 29 MB by the
//! estimate) took it to 51 MB.

use serde_json::{json, Value};

use crate::common::stderr;
use crate::parity::{prompt, write_pre};
use crate::test_helper::{hook, run, wait_for, workspace};
use crate::test_trace_growth::source;

/// Writes of 40 KB files, each a new text; with a 4 MB budget the helper must
/// drop most of their analyses (each takes ~90 KB, a tree with its records more).
const WRITES: usize = 320;
const FILES: usize = 4;
const BUDGET_MB: &str = "4";

#[test]
fn the_helper_keeps_what_it_keeps_within_its_memory_budget() {
    let ws = workspace();
    let env = [("INTENT_HELPER_MEMORY_MB", BUDGET_MB)];
    std::fs::create_dir_all(ws.root().join("src")).unwrap();
    let start = json!({"hook_event_name": "SessionStart", "session_id": "s1", "cwd": ws.root(), "source": "startup"});
    hook(&ws, &start, true, &env);
    hook(
        &ws,
        &prompt(&ws, "/intent INT-001\ntune every step"),
        true,
        &env,
    );
    let mut versions = vec![vec![0usize; 40]; FILES];
    for write in 0..WRITES {
        let file = write % FILES;
        versions[file][(write / FILES) % 40] = write + 1;
        let rel = format!("src/step{file}.ts");
        let path = ws.root().join(&rel);
        let original = std::fs::read_to_string(&path).ok();
        let content = source(&versions[file]);
        let mut payload = write_pre(&ws, &rel, &content, &format!("w{write}"));
        payload["prompt_id"] = json!("p1");
        let (reply, err) = hook(&ws, &payload, true, &env);
        assert_eq!(reply, json!({}), "write {write} allowed: {err}");
        std::fs::write(&path, &content).unwrap();
        payload["hook_event_name"] = json!("PostToolUse");
        payload["tool_response"] =
            json!({"type": "update", "filePath": path, "originalFile": original});
        hook(&ws, &payload, true, &env);
    }
    let mut status = Value::Null;
    wait_for("the helper's status", || {
        let out = run(&ws, &["--json", "helper", "status"], b"", true, &env);
        assert!(out.status.success(), "{}", stderr(&out));
        status = serde_json::from_slice::<Value>(&out.stdout).unwrap()["helper"].clone();
        status["served"].as_u64().unwrap_or(0) > 0
    });
    eprintln!("helper after {WRITES} writes: {status:#}");
    let memory = &status["memory"];
    let budget = memory["budget_bytes"].as_u64().unwrap();
    let kept = memory["kept_bytes"].as_u64().unwrap();
    let analyses = memory["analyses"].as_u64().unwrap();
    assert_eq!(budget, 4 << 20, "{status:#}");
    assert!(
        kept <= budget,
        "keeps {kept} bytes over its {budget}: {status:#}"
    );
    assert!(
        kept >= budget / 2,
        "the writes filled the budget: {status:#}"
    );
    assert!(memory["trees"].as_u64().unwrap() >= 1, "{status:#}");
    assert!(
        analyses < WRITES as u64,
        "older analyses were let go ({analyses} kept of {WRITES} texts): {status:#}"
    );
    let peak = status["peak_rss_bytes"].as_u64().unwrap();
    assert!(
        peak > 0 && peak <= 42 << 20,
        "peak resident memory {} MB: {status:#}",
        peak >> 20
    );
    // Nothing was lost to the budget: every write has its trace.
    let ledger = std::fs::read_to_string(ws.ledger()).unwrap();
    let traces = ledger
        .lines()
        .filter(|line| line.contains("\"kind\":\"trace\""))
        .count();
    assert_eq!(traces, WRITES, "one trace per write");
    run(&ws, &["helper", "stop"], b"", true, &env);
}
