//! Smoke test of the Gemini CLI harness: the real `gemini -p` against the mock, with
//! a logging shell hook. It pins what the `intent hook gemini` tests rely on: the
//! session runs offline to the end, `write_file` and the shell really run, every
//! registered hook fires with the payload shape expected, and `{"decision": "deny"}`
//! blocks a write and reaches the model.

use serde_json::json;

use crate::cliproc::{logged_payloads, logging_hook};
use crate::gemini::{require_gemini, write_hook_config, GeminiRun, Step, FINAL_TEXT};

const DENY: &str = r#"{"decision":"deny","reason":"nope: test reason"}"#;

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn gemini_runs_offline_with_real_tools_and_hooks() {
    let Some(gemini) = require_gemini() else {
        return;
    };
    let ws = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let log = scratch.path().join("hooks.jsonl");
    let hook = logging_hook(scratch.path(), &log, DENY);
    write_hook_config(ws.path(), &format!("'{}'", hook.display()));
    let prompt = "/intent INT-001\nWrite the files.";
    let outcome = GeminiRun::new(gemini, ws.path())
        .prompt(prompt)
        .step(Step::write_file("src/a.ts", "export const a = 1;\n"))
        .step(Step::write_file("denied.txt", "x\n"))
        .step(Step::shell("echo hi > shell.txt"))
        .run();
    outcome.assert_success();
    eprintln!("gemini session took {:?}", outcome.run.elapsed);
    let ws = ws.path();

    // The tools really ran, except the denied one; the conversation reached its end.
    assert_eq!(
        std::fs::read_to_string(ws.join("src/a.ts")).unwrap(),
        "export const a = 1;\n"
    );
    assert!(!ws.join("denied.txt").exists(), "the denied write ran");
    assert_eq!(
        std::fs::read_to_string(ws.join("shell.txt")).unwrap(),
        "hi\n"
    );
    assert!(
        outcome.run.stdout.contains(FINAL_TEXT),
        "{}",
        outcome.describe()
    );
    let responses = outcome.function_responses();
    let names: Vec<&str> = responses.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(
        names,
        ["write_file", "write_file", "run_shell_command"],
        "{}",
        outcome.describe()
    );
    assert!(
        responses[0].response.get("error").is_none(),
        "{responses:?}"
    );
    assert_eq!(
        responses[1].response["error"],
        "Tool execution blocked: nope: test reason",
        "{}",
        outcome.describe()
    );
    assert!(outcome.requests.iter().any(|r| r
        .path
        .starts_with("/v1beta/models/gemini-2.5-pro:streamGenerateContent")));

    // The registered hooks fired in order, with Gemini CLI's payload shapes.
    let payloads = logged_payloads(&log);
    let events: Vec<&str> = payloads
        .iter()
        .map(|p| p["hook_event_name"].as_str().unwrap_or("?"))
        .collect();
    assert_eq!(
        events,
        [
            "SessionStart",
            "BeforeAgent",
            "BeforeTool",
            "AfterTool",
            "BeforeTool",
            "BeforeTool",
            "AfterTool",
            "SessionEnd"
        ],
        "{payloads:#?}"
    );
    let session = payloads[0]["session_id"].as_str().expect("session_id");
    for p in &payloads {
        assert_eq!(p["session_id"], session, "{p}");
        assert_eq!(p["cwd"], json!(ws), "{p}");
        assert!(p["timestamp"].is_string(), "{p}");
        // No tool-call id and no model in Gemini CLI's payloads.
        assert!(
            p.get("tool_use_id").is_none() && p.get("model").is_none(),
            "{p}"
        );
    }
    assert_eq!(payloads[0]["source"], "startup");
    assert_eq!(payloads[1]["prompt"], prompt);
    let (before, after) = (&payloads[2], &payloads[3]);
    assert_eq!(before["tool_name"], "write_file");
    assert_eq!(
        before["tool_input"],
        json!({"file_path": "src/a.ts", "content": "export const a = 1;\n"})
    );
    assert_eq!(after["tool_input"], before["tool_input"]);
    let display = &after["tool_response"]["returnDisplay"];
    assert_eq!(display["filePath"], json!(ws.join("src/a.ts")), "{after}");
    assert_eq!(display["isNewFile"], true, "{after}");
    assert_eq!(display["newContent"], "export const a = 1;\n", "{after}");
    assert_eq!(payloads[4]["tool_input"]["file_path"], "denied.txt");
    assert_eq!(payloads[5]["tool_name"], "run_shell_command");
    assert_eq!(payloads[5]["tool_input"]["command"], "echo hi > shell.txt");
    assert_eq!(payloads[7]["reason"], "exit");
}
