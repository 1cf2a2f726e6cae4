//! Smoke test of the Codex harness: the real `codex exec` against the mock, with a
//! logging shell hook. It pins what the `intent hook codex` tests rely on: the session
//! runs offline to the end, `apply_patch` and the shell really run, every hook fires
//! with Claude Code's payload shape, and a `permissionDecision: "deny"` blocks the
//! patch and reaches the model.

use serde_json::json;

use crate::cliproc::{logged_payloads, logging_hook};
use crate::codex::{add_file_patch, require_codex, write_hook_config, CodexRun, Step, FINAL_TEXT};

const DENY: &str = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"nope: test reason"}}"#;

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn codex_runs_offline_with_real_tools_and_hooks() {
    let Some(codex) = require_codex() else { return };
    let ws = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let log = scratch.path().join("hooks.jsonl");
    let hook = logging_hook(scratch.path(), &log, DENY);
    write_hook_config(ws.path(), &format!("'{}'", hook.display()));
    let prompt = "/intent INT-001\nAdd the files.";
    let outcome = CodexRun::new(codex, ws.path())
        .prompt(prompt)
        .step(Step::add_file("src/a.ts", "export const a = 1;\n"))
        .step(Step::add_file("denied.txt", "x\n"))
        .step(Step::shell("echo hi > shell.txt"))
        .run();
    outcome.assert_success();
    eprintln!("codex session took {:?}", outcome.run.elapsed);
    let ws = ws.path();

    // The tools really ran, except the denied one; the conversation reached its end.
    assert_eq!(
        std::fs::read_to_string(ws.join("src/a.ts")).unwrap(),
        "export const a = 1;\n"
    );
    assert!(!ws.join("denied.txt").exists(), "the denied patch ran");
    assert_eq!(
        std::fs::read_to_string(ws.join("shell.txt")).unwrap(),
        "hi\n"
    );
    assert!(
        outcome.run.stdout.contains(FINAL_TEXT),
        "{}",
        outcome.describe()
    );
    let outputs = outcome.tool_outputs();
    assert_eq!(outputs.len(), 3, "{}", outcome.describe());
    assert!(
        outputs[1].output.contains("nope: test reason"),
        "{}",
        outcome.describe()
    );
    assert!(outcome.requests.iter().all(|r| r.path.starts_with("/v1/")));

    // The hooks fired in order, with Claude Code's shape plus turn_id and model.
    let payloads = logged_payloads(&log);
    let events: Vec<&str> = payloads
        .iter()
        .map(|p| p["hook_event_name"].as_str().unwrap_or("?"))
        .collect();
    assert_eq!(
        events,
        [
            "SessionStart",
            "UserPromptSubmit",
            "PreToolUse",
            "PostToolUse",
            "PreToolUse",
            "PreToolUse",
            "PostToolUse",
            "Stop"
        ],
        "{payloads:#?}"
    );
    let session = payloads[0]["session_id"].as_str().expect("session_id");
    for p in &payloads {
        assert_eq!(p["session_id"], session, "{p}");
        assert_eq!(p["cwd"], json!(ws), "{p}");
        assert_eq!(p["model"], "gpt-5.5", "{p}");
        let turn = p["turn_id"].as_str();
        assert_eq!(
            turn.is_some(),
            p["hook_event_name"] != "SessionStart",
            "{p}"
        );
    }
    assert_eq!(payloads[0]["source"], "startup");
    assert_eq!(payloads[1]["prompt"], prompt);
    let (pre, post) = (&payloads[2], &payloads[3]);
    assert_eq!(pre["tool_name"], "apply_patch");
    assert_eq!(
        pre["tool_input"],
        json!({"command": add_file_patch("src/a.ts", "export const a = 1;\n")})
    );
    assert_eq!(pre["tool_use_id"], json!(outputs[0].call_id));
    assert_eq!(post["tool_use_id"], pre["tool_use_id"]);
    let response = post["tool_response"]
        .as_str()
        .expect("a string tool_response");
    assert!(response.contains("A src/a.ts"), "{response}");
    assert_eq!(
        payloads[4]["tool_input"]["command"],
        add_file_patch("denied.txt", "x\n")
    );
    assert_eq!(payloads[5]["tool_name"], "Bash");
    assert_eq!(
        payloads[5]["tool_input"],
        json!({"command": "echo hi > shell.txt"})
    );
    assert_eq!(payloads[7]["last_assistant_message"], FINAL_TEXT);
}
