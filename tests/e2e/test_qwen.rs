//! `intent hook qwen-code` proven with the real Qwen Code CLI (offline, against the
//! scripted chat-completions mock), wired by `intent init --agent qwen-code`: a write
//! without an intent is denied before the file exists; the prompt line `/intent
//! INT-001` selects the intent for Qwen's session; `write_file` and `edit` in scope
//! are traced with chained hashes; a write outside the scope is denied (the model
//! reads the reason and the run goes on); a failing command leaves a lesson.

use std::path::Path;

use intent_ledger::Event;
use serde_json::Value;

use crate::common::{intent_bin, TestWorkspace};
use crate::qwen::{require_qwen, QwenOutcome, QwenRun, Step};
use crate::scenario::{
    assert_context_reached, assert_intact, assert_out_of_scope_refused,
    assert_workspace_delete_refused, events_of, reason_json, selected_session, tool_failure_lesson,
    wired_workspace, WriteThenEdit,
};

fn qwen(ws: &TestWorkspace, cli: &Path) -> QwenRun {
    QwenRun::new(cli, ws.root()).path_prepend(Path::new(intent_bin()).parent().unwrap())
}

/// The structured reason of call `i`'s result, which must be the hook's deny.
fn denied(out: &QwenOutcome, i: usize) -> Value {
    let results = out.tool_results();
    let (is_error, text) = results
        .get(i)
        .unwrap_or_else(|| panic!("no result {i}\n{}", out.describe()));
    assert!(
        *is_error && text.contains("intent"),
        "call {i} was not denied\n{}",
        out.describe()
    );
    reason_json(text)
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn qwen_write_without_an_intent_is_denied() {
    let Some(cli) = require_qwen() else { return };
    let ws = wired_workspace("qwen-code");
    let target = ws.root().join("src/a.ts");
    let out = qwen(&ws, &cli)
        .prompt("Add src/a.ts.")
        .step(Step::write(&target, "export const a = 1;\n"))
        .run();
    out.assert_success();
    eprintln!("qwen session took {:?}", out.run.elapsed);
    assert!(!target.exists(), "the denied write ran");
    let reason = denied(&out, 0);
    assert_eq!(reason["type"], "no_active_intent", "{reason}");
    assert_eq!(reason["available_intents"][0]["id"], "INT-001", "{reason}");
    // The refusal does not cancel the run: the model answered after reading it.
    assert_eq!(out.result()["subtype"], "success", "{}", out.describe());
    assert_eq!(
        out.result()["permission_denials"][0]["tool_name"],
        "write_file"
    );

    let pre = events_of(&ws, "tool.pre");
    assert_eq!(pre.len(), 1, "{:#?}\n{}", ws.events(), out.describe());
    assert_eq!(pre[0].data["decision"], "deny", "{:#?}", pre[0].data);
    assert_eq!(pre[0].data["front_end"], "qwen-code", "{:#?}", pre[0].data);
    // Every event of the session is under Qwen's own session id, and the model's
    // re-entries after tool results are no new prompts.
    let start = events_of(&ws, "session.start");
    assert_eq!(start.len(), 1, "{:#?}", ws.events());
    assert_eq!(pre[0].session, start[0].session);
    assert_eq!(events_of(&ws, "prompt").len(), 1, "{:#?}", ws.events());
    assert!(events_of(&ws, "trace").is_empty());
    assert_intact(&ws);
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn qwen_after_the_intent_prompt_writes_in_scope_only_and_is_traced() {
    let Some(cli) = require_qwen() else { return };
    let ws = wired_workspace("qwen-code");
    let a = ws.root().join("src/a.ts");
    let first = "export function greet(name: string) {\n  return `hi ${name}`;\n}\n";
    let out = qwen(&ws, &cli)
        .prompt("Add the greeting module.\n/intent INT-001")
        .step(Step::write(&a, first))
        .step(Step::edit(&a, "`hi ${name}`", "`hello ${name}`"))
        .step(Step::write(&ws.root().join("docs/x.md"), "# not mine\n"))
        .step(Step::shell("rm -rf ."))
        .run();
    out.assert_success();
    eprintln!("qwen session took {:?}", out.run.elapsed);
    let results = out.tool_results();
    assert_eq!(results.len(), 4, "{}", out.describe());

    let events = ws.events();
    let session = selected_session(&events);
    assert_eq!(events_of(&ws, "intent.selected")[0].data["via"], "prompt");
    // The intent's context reached the model (UserPromptSubmit's additionalContext).
    let turns: Vec<&Value> = out
        .requests
        .iter()
        .filter(|r| r.is_agent_turn())
        .filter_map(|r| r.body.as_ref())
        .collect();
    assert_context_reached(turns[0]);

    // Both writes in scope ran and are traced, the edit from the write's hash, in
    // one turn (one prompt id).
    let written = std::fs::read(&a).expect("src/a.ts");
    assert_eq!(written, first.replace("`hi ", "`hello ").as_bytes());
    WriteThenEdit {
        front_end: "qwen-code",
        session: &session,
        path: "src/a.ts",
        written: first.as_bytes(),
        edited: &written,
    }
    .assert_traced(&events);
    assert_eq!(events_of(&ws, "prompt").len(), 1, "{:#?}", ws.events());

    // Out of scope: denied, with the scope the intent allows; the run went on.
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
fn qwen_failed_command_leaves_a_lesson() {
    let Some(cli) = require_qwen() else { return };
    let ws = wired_workspace("qwen-code");
    let out = qwen(&ws, &cli)
        .prompt("Look around.\n/intent INT-001")
        .step(Step::shell("ls src/no-such-dir"))
        .run();
    out.assert_success();
    tool_failure_lesson(&ws.events(), "run_shell_command failed", "no-such-dir");
    assert_intact(&ws);
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn qwen_command_writing_outside_the_scope_is_reported_to_the_model() {
    let Some(cli) = require_qwen() else { return };
    let ws = wired_workspace("qwen-code");
    std::fs::create_dir_all(ws.root().join("docs")).unwrap();
    // The gate cannot tell what this writes: allowed under the intent, checked after.
    let out = qwen(&ws, &cli)
        .prompt("Write the notes.\n/intent INT-001")
        .step(Step::shell(
            "python3 -c \"open('docs/y.md', 'w').write('x')\"",
        ))
        .step(Step::shell("env | grep '^QWEN_CODE='"))
        .run();
    out.assert_success();
    let results = out.tool_results();
    assert_eq!(results.len(), 2, "{}", out.describe());
    // PostToolUse's verdict reaches the model appended to the command's output
    // (Qwen escapes `<` and `>` in hook context).
    let (is_error, text) = &results[0];
    assert!(
        !is_error && text.contains("outside INT-001") && text.contains("docs/y.md"),
        "{}",
        out.describe()
    );
    // Commands Qwen runs carry `QWEN_CODE=1`: `intent` knows an agent runs it.
    assert!(results[1].1.contains("QWEN_CODE=1"), "{}", out.describe());
    let violations: Vec<Event> = events_of(&ws, "tool.post")
        .into_iter()
        .filter(|e| !e.data["violation"].is_null())
        .collect();
    assert_eq!(violations.len(), 1, "{:#?}", ws.events());
    assert_intact(&ws);
}
