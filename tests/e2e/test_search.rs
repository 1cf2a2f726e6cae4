//! `intent search` on the demo's workspace: real hits, filters, the documented JSON
//! shape, the text layout, catching up with new events, and errors that say what to do.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

use crate::common::{demo, intent_bin, stderr, stdout, TestWorkspace};

fn search(root: &Path, args: &[&str]) -> Output {
    Command::new(intent_bin())
        .arg("--workspace")
        .arg(root)
        .arg("search")
        .args(args)
        .output()
        .unwrap()
}

/// Runs `intent --json search args…`, expects success, returns the hits.
fn hits(root: &Path, args: &[&str]) -> Vec<Value> {
    let out = Command::new(intent_bin())
        .arg("--workspace")
        .arg(root)
        .args(["--json", "search"])
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value.as_object().unwrap().len(), 1, "only hits: {value}");
    value["hits"].as_array().unwrap().clone()
}

#[test]
fn finds_the_demo_lesson_and_intent_with_the_documented_shape() {
    let (_guard, root) = demo();
    let found = hits(&root, &["crash"]);
    assert_eq!(found.len(), 1, "{found:?}");
    let hit = &found[0];
    let keys: Vec<&str> = hit
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "seq",
            "kind",
            "intent_id",
            "path",
            "score",
            "snippet",
            "ts",
            "session"
        ]
    );
    assert_eq!(hit["kind"], "lesson");
    assert_eq!(hit["snippet"], "the ledger survives a [crash]");
    assert!(hit["score"].as_f64().unwrap() > 0.0);

    let specs = hits(&root, &["\"rate limiting\"", "--kind", "intent.spec"]);
    assert_eq!(specs.len(), 1, "{specs:?}");
    assert_eq!(specs[0]["intent_id"], "INT-002");
    assert!(specs[0]["snippet"]
        .as_str()
        .unwrap()
        .contains("[Rate] [limiting]"));
}

#[test]
fn filters_narrow_the_demo_hits() {
    let (_guard, root) = demo();
    let traces = hits(&root, &["", "--kind", "trace", "--path", "src/auth"]);
    // jwt.ts ×3, expiry.ts, rotate.py ×2, NOTES.md.
    assert_eq!(traces.len(), 7, "{traces:?}");
    assert!(traces.iter().all(|h| h["kind"] == "trace"));
    let seqs: Vec<u64> = traces.iter().map(|h| h["seq"].as_u64().unwrap()).collect();
    assert!(
        seqs.windows(2).all(|w| w[0] > w[1]),
        "newest first: {seqs:?}"
    );

    let refactors = hits(&root, &["", "--class", "AST_REFACTOR"]);
    assert_eq!(refactors.len(), 1);
    assert_eq!(refactors[0]["path"], "src/auth/expiry.ts");

    let denied = hits(
        &root,
        &["denied", "--intent", "INT-001", "--kind", "lesson"],
    );
    assert_eq!(denied.len(), 8, "{denied:?}");
    assert!(denied.iter().all(|h| h["intent_id"] == "INT-001"));

    let billing = hits(&root, &["", "--path", "src/billing"]);
    // The refused Write, `sed -i` and foreign MCP write of the demo.
    assert_eq!(billing.len(), 3, "the refused writes: {billing:?}");
    assert!(
        billing.iter().all(|h| h["kind"] == "tool.pre"),
        "{billing:?}"
    );

    assert!(hits(&root, &["verify", "--session", "no-such-session"]).is_empty());
    assert!(hits(&root, &["verify", "--since", "2999-01-01"]).is_empty());
    assert!(!hits(&root, &["verify", "--since", "2000-01-01"]).is_empty());
    assert_eq!(hits(&root, &["", "--limit", "2"]).len(), 2);
}

#[test]
fn text_output_is_one_block_per_hit_and_draws_no_bar_when_piped() {
    let (_guard, root) = demo();
    let out = search(&root, &["denied", "--kind", "lesson", "--limit", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stderr(&out), "", "no progress bar or warning on a pipe");
    let text = stdout(&out);
    let blocks: Vec<&str> = text.split("\n\n").collect();
    assert_eq!(blocks.len(), 2, "{text}");
    for block in blocks {
        let mut lines = block.lines();
        let head = lines.next().unwrap();
        assert!(head.starts_with('#') && head.contains(" lesson "), "{head}");
        assert!(head.ends_with(')'), "score in parentheses: {head}");
        let snippet = lines.next().unwrap();
        assert!(
            snippet.starts_with("    ") && snippet.contains("[denied]"),
            "{snippet}"
        );
    }
}

#[test]
fn new_events_are_found_by_the_next_search() {
    let ws = TestWorkspace::new();
    assert!(hits(ws.root(), &["kangaroo"]).is_empty());
    let event =
        br#"{"kind":"lesson","data":{"intent_id":"INT-001","text":"kangaroo tokens expire"}}"#;
    let out = ws.run(&["append"], Some(event));
    assert!(out.status.success(), "{}", stderr(&out));
    let found = hits(ws.root(), &["kangaroo"]);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0]["intent_id"], "INT-001");
}

#[test]
fn errors_say_what_to_do_and_bad_syntax_only_warns() {
    let empty = TestWorkspace::empty();
    let out = search(empty.root(), &["anything"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("intent init"), "{}", stderr(&out));

    let (_guard, root) = demo();
    let out = search(&root, &["verify", "--path", "src/**"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("not a glob"), "{}", stderr(&out));

    let out = search(&root, &["verify", "--since", "yesterday-ish"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("--since"), "{}", stderr(&out));

    let out = search(&root, &["verify("]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("warning"), "{}", stderr(&out));
    assert!(stdout(&out).contains("[verify]"));
}

#[test]
fn concurrent_first_searches_all_answer() {
    let (_guard, root) = demo();
    let children: Vec<_> = (0..4)
        .map(|_| {
            Command::new(intent_bin())
                .arg("--workspace")
                .arg(&root)
                .args(["--json", "search", "crash"])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        // One builds the index; the others may answer from what it has committed.
        assert!(out.status.success(), "{}", stderr(&out));
        let value: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(value["hits"].is_array(), "{value}");
    }
    assert_eq!(hits(&root, &["crash"]).len(), 1);
}

#[test]
fn a_corrupt_ledger_line_exits_with_the_corruption_code() {
    let ws = TestWorkspace::new();
    let event = br#"{"kind":"lesson","data":{"text":"first"}}
{"kind":"lesson","data":{"text":"second"}}"#;
    assert!(ws.run(&["append"], Some(event)).status.success());
    let text = std::fs::read_to_string(ws.ledger()).unwrap();
    std::fs::write(
        ws.ledger(),
        text.replacen("\"text\":\"first\"", "\"text\":first!", 1),
    )
    .unwrap();
    let out = search(ws.root(), &["second"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(stderr(&out).contains("corrupt at seq"), "{}", stderr(&out));
}
