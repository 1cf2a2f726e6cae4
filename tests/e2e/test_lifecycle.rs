//! The intent lifecycle: `intent status` transitions, dependencies, completion with
//! evidence (proposed by the agent, confirmed by a human), `intent show`, and a
//! session whose intent is blocked while it works.

use serde_json::{json, Value};

use crate::common::{hook, stderr, TestWorkspace};

const SPECS: &str = "\
# Intents of the team (comments survive every status change)
active_intents:
  - id: INT-001   # the base
    name: Auth
    status: DRAFT
    owned_scope: [\"src/auth/**\"]
    constraints: [Keep the API]
    acceptance_criteria:
      - Tests pass
      - Docs updated
  - id: \"INT-002\"
    name: 'Limits'
    status: \"IN_PROGRESS\"
    owned_scope:
      - src/limits/**
    dependencies: [INT-001]
    acceptance_criteria: [Limits enforced]
  - id: INT-003
    name: Audit
    status: IN_PROGRESS
    owned_scope: [\"src/audit/**\"]
    acceptance_criteria: [Audit log written]
";

fn workspace() -> TestWorkspace {
    let ws = TestWorkspace::new();
    std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    ws
}

fn status(ws: &TestWorkspace, id: &str, to: &str, extra: &[&str]) -> (bool, String) {
    let mut args = vec!["status", id, to];
    args.extend_from_slice(extra);
    let out = ws.run(&args, None);
    (
        out.status.success(),
        format!("{}{}", crate::common::stdout(&out), stderr(&out)),
    )
}

fn show(ws: &TestWorkspace, id: &str) -> Value {
    let out = ws.run(&["--json", "show", id], None);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn specs_text(ws: &TestWorkspace) -> String {
    std::fs::read_to_string(ws.root().join(".orchestration/active_intents.yaml")).unwrap()
}

#[test]
fn every_transition_is_checked_against_the_lifecycle() {
    // (from, to, legal) over the four statuses a person sets.
    let all = ["DRAFT", "IN_PROGRESS", "BLOCKED", "DONE"];
    let legal = |from: &str, to: &str| {
        matches!(
            (from, to),
            ("DRAFT", "IN_PROGRESS")
                | ("IN_PROGRESS", "DONE")
                | ("IN_PROGRESS", "BLOCKED")
                | ("BLOCKED", "IN_PROGRESS")
        )
    };
    // How to reach each starting status from DRAFT.
    let path_to = |from: &str| -> Vec<&str> {
        match from {
            "DRAFT" => vec![],
            "IN_PROGRESS" => vec!["IN_PROGRESS"],
            "BLOCKED" => vec!["IN_PROGRESS", "BLOCKED"],
            "DONE" => vec!["IN_PROGRESS", "DONE"],
            _ => unreachable!(),
        }
    };
    for from in all {
        for to in all {
            let ws = workspace();
            for step in path_to(from) {
                assert!(status(&ws, "INT-001", step, &[]).0, "reaching {from}");
            }
            let before = specs_text(&ws);
            let (ok, said) = status(&ws, "INT-001", to, &["--reason", "r"]);
            assert_eq!(ok, legal(from, to), "{from} → {to}: {said}");
            if ok {
                assert_eq!(show(&ws, "INT-001")["status"], to);
            } else {
                // A refusal names the legal moves (or says the status is final) and
                // changes nothing.
                assert_eq!(specs_text(&ws), before, "{from} → {to} changed the file");
                let expected = match from {
                    "DONE" => "final".to_string(),
                    "DRAFT" => "IN_PROGRESS only".to_string(),
                    "IN_PROGRESS" => "DONE or BLOCKED only".to_string(),
                    _ => "IN_PROGRESS only".to_string(),
                };
                assert!(said.contains(&expected), "{from} → {to}: {said}");
            }
        }
    }
}

#[test]
fn a_status_change_edits_only_its_lines_and_is_in_the_ledger() {
    let ws = workspace();
    assert!(
        status(
            &ws,
            "INT-003",
            "BLOCKED",
            &["--reason", "waiting: for \"legal\""]
        )
        .0
    );
    let after = specs_text(&ws);
    // Two lines were added after INT-003's status line; without them, only that
    // status line differs from the original, byte for byte.
    let added: Vec<&str> = after
        .lines()
        .filter(|l| l.starts_with("    blocked_reason: ") || l.starts_with("    updated_at: "))
        .collect();
    assert_eq!(added.len(), 2, "{after}");
    assert!(
        added.contains(&"    blocked_reason: \"waiting: for \\\"legal\\\"\""),
        "{after}"
    );
    let kept: Vec<&str> = after.lines().filter(|l| !added.contains(l)).collect();
    let original: Vec<&str> = SPECS.lines().collect();
    assert_eq!(kept.len(), original.len());
    let changed: Vec<(&str, &str)> = original
        .iter()
        .zip(&kept)
        .filter(|(a, b)| a != b)
        .map(|(a, b)| (*a, *b))
        .collect();
    assert_eq!(
        changed,
        [("    status: IN_PROGRESS", "    status: BLOCKED")],
        "{after}"
    );
    // They sit right below the status line.
    let lines: Vec<&str> = after.lines().collect();
    let at = lines
        .iter()
        .position(|l| *l == "    status: BLOCKED")
        .unwrap();
    assert!(added.contains(&lines[at + 1]) && added.contains(&lines[at + 2]));
    assert!(after.starts_with("# Intents of the team"));
    let events = ws.events();
    let change = events.iter().find(|e| e.kind == "intent.status").unwrap();
    assert_eq!(change.data["from"], "IN_PROGRESS");
    assert_eq!(change.data["status"], "BLOCKED");
    assert_eq!(change.data["by"], "human");
    // The edited file was snapshotted in the same lock.
    assert_eq!(events.last().unwrap().kind, "intent.spec");
    // Back to work: blocked_reason goes away, nothing else moves.
    assert!(status(&ws, "INT-003", "IN_PROGRESS", &[]).0);
    let back = specs_text(&ws);
    assert!(!back.contains("blocked_reason"));
    assert_eq!(back.lines().count(), SPECS.lines().count() + 1);
}

#[test]
fn dependencies_must_be_done_before_work_starts() {
    let ws = workspace();
    // INT-002 is IN_PROGRESS in the file but depends on INT-001 (DRAFT).
    let out = ws.run(&["select", "INT-002", "--session", "s1"], None);
    assert!(!out.status.success());
    let said = stderr(&out) + &crate::common::stdout(&out);
    assert!(said.contains("depends on INT-001 (DRAFT)"), "{said}");
    // Through a hook, the refusal is structured.
    let pre = json!({"hook_event_name": "PreToolUse", "session_id": "s1", "cwd": ws.root(),
        "tool_name": "mcp__intent__select_active_intent", "tool_input": {"intent_id": "INT-002"}, "tool_use_id": "t1"});
    let (reply, _) = hook(&ws, pre.to_string().as_bytes());
    let reason = reply["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap();
    assert!(
        reason.contains("\"type\":\"dependency_not_done\""),
        "{reason}"
    );
    // Moving INT-002 to IN_PROGRESS from BLOCKED is refused the same way.
    assert!(status(&ws, "INT-002", "BLOCKED", &[]).0);
    let (ok, said) = status(&ws, "INT-002", "IN_PROGRESS", &[]);
    assert!(!ok && said.contains("depends on INT-001 (DRAFT)"), "{said}");
    // Once INT-001 is DONE, both work.
    assert!(status(&ws, "INT-001", "IN_PROGRESS", &[]).0);
    assert!(status(&ws, "INT-001", "DONE", &[]).0);
    assert!(status(&ws, "INT-002", "IN_PROGRESS", &[]).0);
    assert!(ws
        .run(&["select", "INT-002", "--session", "s1"], None)
        .status
        .success());
    let shown = show(&ws, "INT-002");
    assert_eq!(
        shown["dependencies"],
        json!([{"id": "INT-001", "status": "DONE"}])
    );
}

fn complete(ws: &TestWorkspace, session: &str, evidence: Value) -> Value {
    let input = json!({"intent_id": "INT-003", "verification_notes": "cargo test: 41 passed",
        "evidence": evidence});
    let mut payload = json!({"hook_event_name": "PreToolUse", "session_id": session, "cwd": ws.root(),
        "tool_name": "mcp__intent__complete_intent", "tool_input": input, "tool_use_id": "c1"});
    hook(ws, payload.to_string().as_bytes());
    payload["hook_event_name"] = json!("PostToolUse");
    payload["tool_response"] = json!([{"type": "text", "text": "noted"}]);
    hook(ws, payload.to_string().as_bytes()).0
}

#[test]
fn an_agents_completion_is_a_proposal_until_a_human_confirms_it() {
    let ws = workspace();
    assert!(ws
        .run(&["select", "INT-003", "--session", "a1"], None)
        .status
        .success());
    let reply = complete(
        &ws,
        "a1",
        json!([{"criterion": "Audit log written", "evidence": "test_audit_log passes"}]),
    );
    let told = reply["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(told.contains("Proposed INT-003 as DONE (1 of 1"), "{told}");
    // Still IN_PROGRESS; the proposal shows in `show` and in the log.
    let shown = show(&ws, "INT-003");
    assert_eq!(shown["status"], "IN_PROGRESS");
    let proposal = &shown["open_proposals"][0];
    assert_eq!(proposal["session"], "a1");
    assert_eq!(
        proposal["checklist"][0]["evidence"],
        "test_audit_log passes"
    );
    let log = ws.run(&["log", "--kind", "intent.completion_proposed"], None);
    assert!(crate::common::stdout(&log).contains("INT-003"));
    // The context now says evidence was recorded for the criterion.
    let ctx = ws.run(&["select", "INT-003", "--session", "a2"], None);
    assert!(crate::common::stdout(&ctx)
        .contains("<criterion evidence=\"recorded\">Audit log written</criterion>"));
    // A human confirms: the DONE event carries the agent's evidence.
    let (ok, said) = status(&ws, "INT-003", "DONE", &["--note", "reviewed"]);
    assert!(ok, "{said}");
    assert!(said.contains("confirms the completion proposed"), "{said}");
    let done = ws
        .events()
        .into_iter()
        .rev()
        .find(|e| e.kind == "intent.status")
        .unwrap();
    assert_eq!(
        done.data["checklist"][0]["evidence"],
        "test_audit_log passes"
    );
    assert_eq!(done.data["note"], "reviewed");
    let shown = show(&ws, "INT-003");
    assert_eq!(shown["open_proposals"], json!([]));
    assert_eq!(shown["completion"]["status"], "DONE");
}

#[test]
fn the_policy_can_let_agents_finish_intents() {
    let ws = workspace();
    std::fs::write(
        ws.root().join(".orchestration/policy.yaml"),
        "agent_completion: allow\n",
    )
    .unwrap();
    assert!(ws
        .run(&["select", "INT-003", "--session", "a1"], None)
        .status
        .success());
    complete(
        &ws,
        "a1",
        json!({"Audit log written": "see test_audit_log"}),
    );
    let done = ws
        .events()
        .into_iter()
        .rev()
        .find(|e| e.kind == "intent.status")
        .unwrap();
    assert_eq!(done.data["by"], "agent");
    assert_eq!(done.data["session"], "a1");
    assert!(specs_text(&ws).contains("status: DONE"));
    // The agent's selection ended with its intent.
    let pre = json!({"hook_event_name": "PreToolUse", "session_id": "a1", "cwd": ws.root(),
        "tool_name": "Write", "tool_input": {"file_path": ws.root().join("src/audit/x.ts"), "content": "x"}, "tool_use_id": "w"});
    let (reply, _) = hook(&ws, pre.to_string().as_bytes());
    assert_eq!(reply["hookSpecificOutput"]["permissionDecision"], "deny");
}

#[test]
fn a_human_blocking_the_intent_stops_the_agent_at_its_next_write() {
    let ws = workspace();
    assert!(ws
        .run(&["select", "INT-003", "--session", "a1"], None)
        .status
        .success());
    let write = |name: &str| {
        json!({"hook_event_name": "PreToolUse", "session_id": "a1", "cwd": ws.root(), "tool_name": "Write",
            "tool_input": {"file_path": ws.root().join(format!("src/audit/{name}.ts")), "content": "x"}, "tool_use_id": name})
    };
    assert_eq!(hook(&ws, write("one").to_string().as_bytes()).0, json!({}));
    assert!(status(&ws, "INT-003", "BLOCKED", &["--reason", "legal review"]).0);
    let (reply, _) = hook(&ws, write("two").to_string().as_bytes());
    let reason = reply["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap();
    assert!(
        reason.contains("\"type\":\"intent_not_active\""),
        "{reason}"
    );
    assert!(
        reason.contains("INT-003, this session's intent, is now BLOCKED"),
        "{reason}"
    );
}

#[test]
fn two_processes_changing_different_intents_at_once_lose_neither() {
    for _ in 0..3 {
        let ws = workspace();
        std::thread::scope(|scope| {
            let a = scope.spawn(|| status(&ws, "INT-001", "IN_PROGRESS", &[]));
            let b = scope.spawn(|| status(&ws, "INT-003", "BLOCKED", &["--reason", "x"]));
            assert!(a.join().unwrap().0);
            assert!(b.join().unwrap().0);
        });
        let text = specs_text(&ws);
        assert!(
            text.contains(
                "  - id: INT-001   # the base\n    name: Auth\n    status: IN_PROGRESS\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("    name: Audit\n    status: BLOCKED\n"),
            "{text}"
        );
        let changes = ws
            .events()
            .into_iter()
            .filter(|e| e.kind == "intent.status")
            .count();
        assert_eq!(changes, 2);
    }
}
