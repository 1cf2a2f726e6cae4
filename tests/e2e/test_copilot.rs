//! `intent hook copilot` proven with the real GitHub Copilot CLI (offline, against
//! the scripted chat-completions mock of `copilot::mock`), wired by `intent init
//! --agent copilot`: the gate denies writes without an intent, outside its scope
//! and dangerous commands; the prompt line `/intent INT-001` selects the intent for
//! Copilot's session; allowed `create`/`edit` calls are traced with their hashes; a
//! tool that fails leaves a lesson.

use std::path::Path;

use intent_gate::bytes_sha256;
use intent_ledger::Event;
use serde_json::{json, Value};

use crate::common::{intent_bin, TestWorkspace};
use crate::copilot::{require_copilot, CopilotOutcome, CopilotRun, Step};
use crate::test_codex::{assert_intact, events_of, reason_json, spec_workspace};

/// Wired the way a user does it: `intent init --agent copilot`.
fn wired_workspace() -> TestWorkspace {
    let ws = spec_workspace();
    let out = ws.run(&["init", "--agent", "copilot"], None);
    assert!(out.status.success(), "{}", crate::common::stderr(&out));
    ws
}

fn copilot(ws: &TestWorkspace, bin: &Path) -> CopilotRun {
    CopilotRun::new(bin, ws.root()).path_prepend(Path::new(intent_bin()).parent().unwrap())
}

/// The structured reason of call `i`'s result, which must be the hook's deny.
fn denied(out: &CopilotOutcome, i: usize) -> Value {
    let results = out.tool_results();
    let result = results
        .get(i)
        .unwrap_or_else(|| panic!("no result {i}\n{}", out.describe()));
    assert!(
        result.starts_with("Denied by preToolUse hook"),
        "call {i} was not denied\n{}",
        out.describe()
    );
    reason_json(result)
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn copilot_write_without_an_intent_is_denied() {
    let Some(bin) = require_copilot() else { return };
    let ws = wired_workspace();
    let target = ws.root().join("src/a.ts");
    let out = copilot(&ws, &bin)
        .prompt("Add src/a.ts.")
        .step(Step::create(&target, "export const a = 1;\n"))
        .run();
    out.assert_success();
    eprintln!("copilot session took {:?}", out.run.elapsed);
    assert!(!target.exists(), "the denied create ran");
    let reason = denied(&out, 0);
    assert_eq!(reason["type"], "no_active_intent", "{reason}");
    assert_eq!(reason["available_intents"][0]["id"], "INT-001", "{reason}");

    let pre = events_of(&ws, "tool.pre");
    let last = pre
        .last()
        .unwrap_or_else(|| panic!("no tool.pre\n{}", out.describe()));
    assert_eq!(last.data["decision"], "deny", "{:#?}", last.data);
    assert_eq!(last.data["front_end"], "copilot", "{:#?}", last.data);
    // Every event of the session is under Copilot's own session id.
    let start = events_of(&ws, "session.start");
    assert_eq!(start.len(), 1, "{:#?}", ws.events());
    assert_eq!(last.session, start[0].session);
    assert!(events_of(&ws, "trace").is_empty());
    assert_intact(&ws);
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn copilot_after_the_intent_prompt_writes_in_scope_only_and_is_traced() {
    let Some(bin) = require_copilot() else { return };
    let ws = wired_workspace();
    let a = ws.root().join("src/a.ts");
    let first = "export function greet(name: string) {\n  return `hi ${name}`;\n}\n";
    let out = copilot(&ws, &bin)
        .prompt("/intent INT-001\nAdd the greeting module.")
        .step(Step::create(&a, first))
        .step(Step::edit(&a, "`hi ${name}`", "`hello ${name}`"))
        .step(Step::create(&ws.root().join("docs/x.md"), "# not mine\n"))
        .step(Step::bash("rm -rf ."))
        .run();
    out.assert_success();
    eprintln!("copilot session took {:?}", out.run.elapsed);
    let results = out.tool_results();
    assert_eq!(results.len(), 4, "{}", out.describe());

    let selected = events_of(&ws, "intent.selected");
    assert_eq!(selected.len(), 1, "{}", out.describe());
    assert_eq!(selected[0].data["intent_id"], "INT-001");
    assert_eq!(selected[0].data["via"], "prompt");
    let session = selected[0].session.clone().expect("a session");
    // The intent's context reached the model (userPromptSubmitted's additionalContext).
    let turns: Vec<&Value> = out
        .requests
        .iter()
        .filter(|r| r.is_agent_turn())
        .filter_map(|r| r.body.as_ref())
        .collect();
    assert!(
        turns[0].to_string().contains("intent_context intent_id"),
        "the intent's context did not reach the model: {}",
        turns[0]
    );

    // Both writes in scope ran and are traced, the edit from the create's hash.
    let written = std::fs::read(&a).expect("src/a.ts");
    assert_eq!(written, first.replace("`hi ", "`hello ").as_bytes());
    let traces: Vec<Event> = events_of(&ws, "trace");
    assert_eq!(traces.len(), 2, "{:#?}\n{}", ws.events(), out.describe());
    for trace in &traces {
        assert_eq!(trace.data["path"], "src/a.ts");
        assert_eq!(trace.data["front_end"], "copilot");
        assert_eq!(trace.data["intent_id"], "INT-001");
        assert_eq!(trace.session.as_deref(), Some(session.as_str()));
    }
    assert_eq!(traces[0].data["before_sha256"], Value::Null);
    assert_eq!(
        traces[0].data["after_sha256"],
        bytes_sha256(first.as_bytes())
    );
    assert_eq!(
        traces[1].data["before_sha256"],
        traces[0].data["after_sha256"]
    );
    assert_eq!(traces[1].data["after_sha256"], bytes_sha256(&written));

    // Out of scope: denied, with the scope the intent allows.
    let reason = denied(&out, 2);
    assert_eq!(reason["type"], "scope_violation", "{reason}");
    assert_eq!(reason["attempted_path"], "docs/x.md");
    assert_eq!(reason["allowed_scope"], json!(["src/**"]));
    assert!(
        !ws.root().join("docs/x.md").exists(),
        "the denied create ran"
    );

    // Deleting the workspace is refused even under an intent.
    let reason = denied(&out, 3);
    assert_eq!(reason["type"], "policy_block", "{reason}");
    assert!(ws.root().join("src/a.ts").exists());
    assert!(ws.ledger().exists());
    assert_intact(&ws);
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn copilot_failed_tool_leaves_a_lesson() {
    let Some(bin) = require_copilot() else { return };
    let ws = wired_workspace();
    let out = copilot(&ws, &bin)
        .prompt("/intent INT-001\nLook around.")
        .step(Step::bash("ls src/no-such-dir"))
        .run();
    out.assert_success();
    let lessons: Vec<Event> = events_of(&ws, "lesson")
        .into_iter()
        .filter(|e| e.data["origin"] == "tool_failure")
        .collect();
    assert_eq!(lessons.len(), 1, "{:#?}\n{}", ws.events(), out.describe());
    assert!(
        lessons[0].data["text"]
            .as_str()
            .unwrap()
            .starts_with("bash failed"),
        "{}",
        lessons[0].data
    );
    assert_eq!(lessons[0].data["intent_id"], "INT-001");
    assert_intact(&ws);
}
