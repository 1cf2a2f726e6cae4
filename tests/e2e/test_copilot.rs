//! `intent hook copilot` proven with the real GitHub Copilot CLI (offline, against
//! the scripted chat-completions mock of `copilot::mock`), wired by `intent init
//! --agent copilot`: the gate denies writes without an intent, outside its scope
//! and dangerous commands; the prompt line `/intent INT-001` selects the intent for
//! Copilot's session; allowed `create`/`edit` calls are traced with their hashes; a
//! tool that fails leaves a lesson.

use std::path::Path;

use serde_json::Value;

use crate::common::{intent_bin, TestWorkspace};
use crate::copilot::{require_copilot, CopilotOutcome, CopilotRun, Step};
use crate::scenario::{
    assert_context_reached, assert_intact, assert_out_of_scope_refused,
    assert_workspace_delete_refused, events_of, reason_json, selected_session, tool_failure_lesson,
    wired_workspace, WriteThenEdit,
};

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
    let ws = wired_workspace("copilot");
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
    let ws = wired_workspace("copilot");
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

    let events = ws.events();
    let session = selected_session(&events);
    assert_eq!(events_of(&ws, "intent.selected")[0].data["via"], "prompt");
    // The intent's context reached the model (userPromptSubmitted's additionalContext).
    let turns: Vec<&Value> = out
        .requests
        .iter()
        .filter(|r| r.is_agent_turn())
        .filter_map(|r| r.body.as_ref())
        .collect();
    assert_context_reached(turns[0]);

    // Both writes in scope ran and are traced, the edit from the create's hash.
    let written = std::fs::read(&a).expect("src/a.ts");
    assert_eq!(written, first.replace("`hi ", "`hello ").as_bytes());
    WriteThenEdit {
        front_end: "copilot",
        session: &session,
        path: "src/a.ts",
        written: first.as_bytes(),
        edited: &written,
    }
    .assert_traced(&events);

    // Out of scope: denied, with the scope the intent allows.
    assert_out_of_scope_refused(&ws, &denied(&out, 2));

    // Deleting the workspace is refused even under an intent.
    let reason = denied(&out, 3);
    assert_workspace_delete_refused(&ws, &reason);
    assert_intact(&ws);
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn copilot_failed_tool_leaves_a_lesson() {
    let Some(bin) = require_copilot() else { return };
    let ws = wired_workspace("copilot");
    let out = copilot(&ws, &bin)
        .prompt("/intent INT-001\nLook around.")
        .step(Step::bash("ls src/no-such-dir"))
        .run();
    out.assert_success();
    tool_failure_lesson(&ws.events(), "bash failed", "no-such-dir");
    assert_intact(&ws);
}
