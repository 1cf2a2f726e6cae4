//! `why`, `blame`, `map`, `rebuild` and `log --path/--block` on a ledger written by
//! real hook processes: a function created under INT-001, moved to another file
//! under INT-002, changed under INT-003, renamed, then edited by a human.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{json, Value};

use crate::common::{hook, stderr, stdout, traced_write, TestWorkspace};

const SPECS: &str = "active_intents:
  - id: INT-001
    name: Token checks
    status: IN_PROGRESS
    owned_scope: [\"src/**\"]
    constraints: [Tokens expire after 15 minutes.]
    acceptance_criteria: [a]
  - id: INT-002
    name: Module layout
    status: IN_PROGRESS
    owned_scope: [\"src/**\"]
    constraints: [No behaviour change.]
    acceptance_criteria: [a]
  - id: INT-003
    name: Stricter tokens
    status: IN_PROGRESS
    owned_scope: [\"src/**\"]
    constraints: [Reject tokens shorter than 16 characters.]
    acceptance_criteria: [a]
";

const A_V1: &str = "export function login(user: string) {\n  return user.length > 0;\n}\n\nfunction check(token: string) {\n  return token.length > 8;\n}\n";
const A_V2: &str = "export function login(user: string) {\n  return user.length > 0;\n}\n";
const B_V1: &str =
    "// token helpers\n\nfunction check(token: string) {\n  return token.length > 8;\n}\n";
const B_V2: &str =
    "// token helpers\n\nfunction check(token: string) {\n  return token.length > 16;\n}\n";
const B_V3: &str =
    "// token helpers\n\nfunction checkToken(token: string) {\n  return token.length > 16;\n}\n";

pub(crate) fn ok(ws: &TestWorkspace, args: &[&str]) -> String {
    let out = ws.run(args, None);
    assert!(out.status.success(), "intent {args:?}: {}", stderr(&out));
    stdout(&out)
}

pub(crate) fn json_of(ws: &TestWorkspace, args: &[&str]) -> Value {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    serde_json::from_str(&ok(ws, &all)).unwrap()
}

/// Starts a turn: selects `intent` and submits a prompt.
pub(crate) fn turn(ws: &TestWorkspace, intent: &str, prompt_id: &str, text: &str) {
    ok(ws, &["select", intent, "--session", "s1"]);
    let payload = json!({"hook_event_name": "UserPromptSubmit", "session_id": "s1", "cwd": ws.root(),
        "prompt_id": prompt_id, "prompt": text});
    hook(ws, payload.to_string().as_bytes());
}

pub(crate) fn events(answer: &Value) -> Vec<(String, String)> {
    answer["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["event"].as_str().unwrap().to_string(),
                h["intent_id"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

/// Every projection file, by path relative to `.orchestration/`.
fn projections(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let orch = root.join(".orchestration");
    let mut out = BTreeMap::new();
    out.insert(
        "intent_map.md".to_string(),
        std::fs::read(orch.join("intent_map.md")).unwrap(),
    );
    out.insert(
        ".cache/intents.json".to_string(),
        std::fs::read(orch.join(".cache/intents.json")).unwrap(),
    );
    for entry in std::fs::read_dir(orch.join(".cache/lineage/files")).unwrap() {
        let path = entry.unwrap().path();
        let name = format!("lineage/{}", path.file_name().unwrap().to_string_lossy());
        out.insert(name, std::fs::read(&path).unwrap());
    }
    out.insert(
        "lineage/core.json".to_string(),
        std::fs::read(orch.join(".cache/lineage/core.json")).unwrap(),
    );
    out
}

/// Builds the whole history, asking `why` between turns so the projections catch up
/// incrementally along the way.
fn scenario() -> TestWorkspace {
    let ws = TestWorkspace::new();
    std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    std::fs::create_dir_all(ws.root().join("src")).unwrap();

    turn(&ws, "INT-001", "p1", "Add a token check");
    traced_write(&ws, "p1", "src/a.ts", A_V1, "w1");
    let first = json_of(&ws, &["why", "src/a.ts:6"]);
    assert_eq!(
        events(&first),
        pairs(&[("created", "INT-001")]),
        "{first:#}"
    );

    turn(&ws, "INT-002", "p2", "Move check into its own module");
    traced_write(&ws, "p2", "src/a.ts", A_V2, "w2");
    let moved = traced_write(&ws, "p2", "src/b.ts", B_V1, "w3");
    assert_eq!(
        moved.data["mutation_class"], "AST_REFACTOR",
        "{}",
        moved.data
    );
    ok(&ws, &["map"]);

    turn(&ws, "INT-003", "p3", "Require 16 characters");
    traced_write(&ws, "p3", "src/b.ts", B_V2, "w4");
    ws
}

#[test]
fn why_follows_a_block_through_a_move_a_change_a_rename_and_a_human_edit() {
    let ws = scenario();
    let answer = json_of(&ws, &["why", "src/b.ts:4"]);
    assert_eq!(
        events(&answer),
        pairs(&[
            ("created", "INT-001"),
            ("moved", "INT-002"),
            ("modified", "INT-003")
        ]),
        "{answer:#}"
    );
    let block = &answer["block"];
    assert_eq!(block["name"], "check");
    assert_eq!(block["kind"], "function");
    assert_eq!(
        (block["start_line"].as_u64(), block["end_line"].as_u64()),
        (Some(3), Some(5))
    );
    assert_eq!(answer["outside_ledger"], false);
    let history = answer["history"].as_array().unwrap();
    assert_eq!(history[0]["path"], "src/a.ts");
    assert_eq!(history[1]["path"], "src/b.ts");
    assert_eq!(history[1]["from_path"], "src/a.ts");
    assert_eq!(history[1]["mutation_class"], "AST_REFACTOR");
    assert_eq!(history[2]["mutation_class"], "INTENT_EVOLUTION");
    assert_eq!(history[0]["intent_name"], "Token checks");
    assert_eq!(history[1]["prompt"], "Move check into its own module");
    assert_eq!(history[2]["session"], "s1");
    assert!(history
        .iter()
        .all(|h| h["trace_id"].is_string() && h["seq"].is_u64()));
    let seqs: Vec<u64> = history.iter().map(|h| h["seq"].as_u64().unwrap()).collect();
    assert!(
        seqs.windows(2).all(|w| w[0] < w[1]),
        "oldest first: {seqs:?}"
    );
    let constraints: Vec<&Value> = answer["intents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| &i["constraints"][0])
        .collect();
    assert!(
        constraints.contains(&&json!("Reject tokens shorter than 16 characters.")),
        "{answer:#}"
    );

    // The same block by name, and in the text rendering.
    let by_name = json_of(&ws, &["why", "src/b.ts::check"]);
    assert_eq!(by_name["block"]["id"], answer["block"]["id"]);
    let text = ok(&ws, &["why", "src/b.ts:4"]);
    assert!(
        text.contains("moved from src/a.ts") && text.contains("INT-003"),
        "{text}"
    );

    // A rename keeps the identity and adds the event.
    turn(&ws, "INT-003", "p4", "Name it after what it checks");
    traced_write(&ws, "p4", "src/b.ts", B_V3, "w5");
    let renamed = json_of(&ws, &["why", "src/b.ts::checkToken"]);
    assert_eq!(renamed["block"]["id"], answer["block"]["id"], "{renamed:#}");
    let last = renamed["history"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(last["event"], "renamed", "{renamed:#}");
    assert_eq!(last["from_name"], "check");
    assert_eq!(renamed["history"].as_array().unwrap().len(), 4);

    // A human edit outside any hook: same history, flagged.
    std::fs::write(ws.root().join("src/b.ts"), B_V3.replace("> 16", ">= 16")).unwrap();
    let human = json_of(&ws, &["why", "src/b.ts:4"]);
    assert_eq!(human["outside_ledger"], true, "{human:#}");
    assert_eq!(human["block"]["id"], answer["block"]["id"]);
    assert_eq!(human["history"].as_array().unwrap().len(), 4);

    // A line outside every block is answered by its line: the write that gave it
    // its text (the move turn wrote the comment), never by stale line numbers.
    let comment = json_of(&ws, &["why", "src/b.ts:1"]);
    assert!(comment["block"].is_null(), "{comment:#}");
    assert_eq!(comment["level"], "line", "{comment:#}");
    let history = comment["history"].as_array().unwrap();
    assert_eq!(history.len(), 1, "{comment:#}");
    assert_eq!(history[0]["intent_id"], "INT-002", "{comment:#}");
    assert_eq!(comment["outside_ledger"], false, "{comment:#}");

    // Bad targets say what to write instead.
    let out = ws.run(&["why", "src/b.ts"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("PATH:LINE"), "{}", stderr(&out));
    let out = ws.run(&["why", "../outside.ts:1"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("outside the workspace"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn blame_log_and_map_name_the_intents() {
    let ws = scenario();
    let blame = json_of(&ws, &["blame", "src/b.ts"]);
    let lines = blame["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 5);
    assert_eq!(lines[3]["intent_id"], "INT-003");
    assert_eq!(lines[3]["block"]["name"], "check");
    assert!(lines[0]["block"].is_null(), "{}", lines[0]);
    assert_eq!(
        (&lines[0]["intent_id"], &lines[0]["level"]),
        (&json!("INT-002"), &json!("line")),
        "the comment line is answered by its line: {}",
        lines[0]
    );
    let text = ok(&ws, &["blame", "src/a.ts"]);
    assert!(
        text.lines().next().unwrap().starts_with("INT-001"),
        "{text}"
    );

    let id = json_of(&ws, &["why", "src/b.ts:4"])["block"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let by_block = ok(&ws, &["--json", "log", "--block", &id]);
    // created; deleted by the first write of the move turn, moved by its second; modified.
    assert_eq!(by_block.lines().count(), 4, "{by_block}");
    let by_path = ok(&ws, &["--json", "log", "--path", "src/a.ts"]);
    // Two writes of src/a.ts, and the write of src/b.ts that moved a block out of it.
    assert_eq!(
        by_path
            .lines()
            .filter(|l| l.contains("\"kind\":\"trace\""))
            .count(),
        3
    );
    assert!(by_path.lines().all(|l| l.contains("src/a.ts")));

    let map = ok(&ws, &["map", "--stdout"]);
    let int2 = map
        .split("## INT-002")
        .nth(1)
        .unwrap()
        .split("## ")
        .next()
        .unwrap();
    assert!(
        int2.contains("`src/b.ts` | `check` | function | 3–5"),
        "{map}"
    );
    assert!(
        map.contains("## INT-001 — Token checks (IN_PROGRESS)"),
        "{map}"
    );
    let on_disk = std::fs::read_to_string(ws.root().join(".orchestration/intent_map.md")).unwrap();
    assert_eq!(on_disk, map);
}

#[test]
fn incremental_projections_equal_a_full_rebuild_and_survive_a_lost_cache_or_replaced_ledger() {
    let ws = scenario();
    ok(&ws, &["map"]);
    let incremental = projections(ws.root());
    let rebuilt = json_of(&ws, &["rebuild"]);
    assert_eq!(rebuilt["rebuilt"].as_array().unwrap().len(), 4, "{rebuilt}");
    ok(&ws, &["map"]);
    assert_eq!(
        incremental,
        projections(ws.root()),
        "incremental vs full rebuild"
    );

    std::fs::remove_dir_all(ws.root().join(".orchestration/.cache")).unwrap();
    ok(&ws, &["map"]);
    assert_eq!(
        incremental,
        projections(ws.root()),
        "after deleting .cache/"
    );

    // Another ledger in place of this one: every stamp mismatches, so all rebuild.
    let other = TestWorkspace::new();
    std::fs::write(
        other.root().join(".orchestration/active_intents.yaml"),
        SPECS,
    )
    .unwrap();
    std::fs::create_dir_all(other.root().join("src")).unwrap();
    turn(&other, "INT-003", "q1", "Something else");
    traced_write(&other, "q1", "src/c.ts", "export const c = 1;\n", "x1");
    std::fs::copy(other.ledger(), ws.ledger()).unwrap();
    let answer = json_of(&ws, &["why", "src/b.ts:4"]);
    assert!(
        answer["history"].as_array().unwrap().is_empty(),
        "{answer:#}"
    );
    assert!(answer["note"].as_str().unwrap().contains("no traced write"));
    let map = ok(&ws, &["map", "--stdout"]);
    assert!(
        !map.contains("src/b.ts") && map.contains("src/c.ts"),
        "{map}"
    );
}
