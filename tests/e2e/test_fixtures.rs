//! The fixture suite: a native payload for every event of every front-end, malformed
//! ones included, each with the outcome it must have. The fixtures live in
//! `tests/e2e/fixtures/frontends/<front-end>/*.json`; their schema is documented in
//! the README there.
//!
//! Each fixture runs in a fresh workspace through `intent hook <front-end>`, and
//! every well-formed one again through `intent hook` without the argument, which
//! must recognize the same front-end and answer the same.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Output;

use serde_json::{json, Value};

use crate::common::{stderr, TestWorkspace};
use crate::fixture_cases::{
    check, event_and_tool, fixtures_dir, load, session_of, validate, Fixture, Run, EXTERNAL,
    FRONT_ENDS, SPECS, WS,
};

/// Runs `fixture` in a fresh workspace through `intent hook [fe]`.
fn run(fixture: &Fixture, fe: &str, named: bool) -> (TestWorkspace, Run) {
    let ws = TestWorkspace::new();
    std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    let case = fixture.parse(ws.root());
    let name = &fixture.name;
    if let Some(files) = case["setup"]["files"].as_object() {
        for (rel, content) in files {
            let path = ws.root().join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, content.as_str().expect("file content is text")).unwrap();
        }
    }
    if let Some(id) = case["setup"]["select"].as_str() {
        let session = session_of(fe, &case["payload"])
            .unwrap_or_else(|| panic!("{name}: setup.select needs the payload's session"));
        let out = ws.run(&["select", id, "--session", &session], None);
        assert!(out.status.success(), "{name}: select: {}", stderr(&out));
    }
    let before = ws.events().len();
    let mut args: Vec<&str> = if named {
        vec!["hook", fe]
    } else {
        vec!["hook"]
    };
    // The event the hook is registered for, where the payload does not say it.
    if let Some(event) = case["event"].as_str() {
        args.extend(["--event", event]);
    }
    let out: Output = ws.run(&args, Some(case["payload"].to_string().as_bytes()));
    let how = if named { "named" } else { "detected" };
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{name} ({how}): the reply is not JSON ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    });
    assert_eq!(
        out.status.code(),
        Some(exit_code(fe, &reply)),
        "{name} ({how}): hooks exit 0, except a Windsurf refusal: {}",
        stderr(&out)
    );
    let events = ws.events().split_off(before);
    let stderr = stderr(&out);
    (
        ws,
        Run {
            reply,
            stderr,
            events,
        },
    )
}

/// The exit code of a hook that replied `reply`: 0, except for a Windsurf reply
/// that refuses or objects, which Cascade hears only as exit 2 (the reason on
/// stderr).
fn exit_code(fe: &str, reply: &Value) -> i32 {
    let objects = matches!(reply["decision"].as_str(), Some("deny" | "block"));
    if fe == "windsurf" && objects {
        2
    } else {
        0
    }
}

/// A reply with the workspace root put back to `$WS`, for comparing across workspaces.
fn portable(reply: &Value, root: &Path) -> String {
    let quoted = serde_json::to_string(&root.display().to_string()).unwrap();
    reply.to_string().replace(&quoted[1..quoted.len() - 1], WS)
}

/// Runs one fixture: named, then (when well-formed) detected.
fn run_fixture(fe: &str, fixture: &Fixture) {
    let case = fixture.parse(Path::new("/ws"));
    validate(&fixture.name, &case);
    let (named_ws, named) = run(fixture, fe, true);
    check(&fixture.name, fe, &case["expect"], &named);
    if case["malformed"] == true || EXTERNAL.contains(&fe) {
        return;
    }
    // Without the argument: the same front-end, the same outcome and reply.
    let (detected_ws, detected) = run(fixture, fe, false);
    let name = format!("{} (detected)", fixture.name);
    check(&name, fe, &case["expect"], &detected);
    assert!(
        !detected.events.is_empty(),
        "{name}: nothing recorded, so the front-end cannot be told"
    );
    assert_eq!(
        portable(&detected.reply, detected_ws.root()),
        portable(&named.reply, named_ws.root()),
        "{name}: the reply differs from the named front-end's"
    );
}

/// Runs every fixture of `fe`; reports every failing one, not just the first.
fn run_front_end(fe: &str) {
    let failed: Vec<String> = load(fe)
        .iter()
        .filter(|fixture| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_fixture(fe, fixture)))
                .is_err()
        })
        .map(|fixture| fixture.name.clone())
        .collect();
    assert!(
        failed.is_empty(),
        "failing fixtures (see above): {failed:#?}"
    );
}

#[test]
fn claude_code_fixtures() {
    run_front_end("claude-code");
}

#[test]
fn codex_fixtures() {
    run_front_end("codex");
}

#[test]
fn gemini_fixtures() {
    run_front_end("gemini");
}

#[test]
fn cline_fixtures() {
    run_front_end("cline");
}

#[test]
fn cursor_fixtures() {
    run_front_end("cursor");
}

#[test]
fn copilot_fixtures() {
    run_front_end("copilot");
}

#[test]
fn qwen_code_fixtures() {
    run_front_end("qwen-code");
}

#[test]
fn opencode_fixtures() {
    run_front_end("opencode");
}

#[test]
fn kilo_code_fixtures() {
    run_front_end("kilo-code");
}

#[test]
fn droid_fixtures() {
    run_front_end("droid");
}

#[test]
fn windsurf_fixtures() {
    run_front_end("windsurf");
}

#[test]
fn generic_fixtures() {
    run_front_end("generic");
}

/// The example external adapter (Python, `docs/examples/intent-adapter-example`),
/// through the external adapter protocol.
#[test]
fn example_external_adapter_fixtures() {
    run_front_end("example");
}

/// Every event each adapter handles has a well-formed fixture, and every front-end
/// has malformed ones; a new directory or file cannot go unnoticed.
#[test]
fn every_event_and_tool_of_every_front_end_has_a_fixture() {
    let required: &[(&str, &[&str])] = &[
        (
            "claude-code",
            &[
                "SessionStart",
                "UserPromptSubmit",
                "PreToolUse Write",
                "PreToolUse Edit",
                "PreToolUse MultiEdit",
                "PreToolUse NotebookEdit",
                "PreToolUse Bash",
                "PreToolUse Read",
                "PreToolUse mcp__intent__select_active_intent",
                "PostToolUse",
                "PostToolUseFailure",
                "Stop",
                "SubagentStop",
                "SessionEnd",
            ],
        ),
        (
            "codex",
            &[
                "SessionStart",
                "UserPromptSubmit",
                "PreToolUse apply_patch",
                "PreToolUse Bash",
                "PreToolUse mcp__intent__select_active_intent",
                "PostToolUse apply_patch",
                "PostToolUse Bash",
                "PostToolUseFailure",
                "Stop",
                "SubagentStop",
                "SessionEnd",
            ],
        ),
        (
            "gemini",
            &[
                "SessionStart",
                "BeforeAgent",
                "BeforeTool write_file",
                "BeforeTool replace",
                "BeforeTool run_shell_command",
                "BeforeTool read_file",
                "BeforeTool select_active_intent",
                "AfterTool",
                "AfterAgent",
                "SessionEnd",
            ],
        ),
        (
            "cline",
            &[
                "TaskStart",
                "TaskResume",
                "UserPromptSubmit",
                "PreToolUse write_to_file",
                "PreToolUse replace_in_file",
                "PreToolUse execute_command",
                "PreToolUse read_file",
                "PreToolUse use_mcp_tool",
                "PostToolUse write_to_file",
                "PostToolUse replace_in_file",
                "PostToolUse execute_command",
                "PostToolUse read_file",
                "PostToolUse use_mcp_tool",
                "TaskCancel",
                "TaskComplete",
                // The Cline CLI 3 (3.0.65), as captured from the real binary.
                "agent_start",
                "agent_resume",
                "tool_call editor",
                "tool_call run_commands",
                "tool_call intent__select_active_intent",
                "tool_result editor",
                "tool_result run_commands",
                "agent_end",
                "agent_error",
                "agent_abort",
                "session_shutdown",
            ],
        ),
        (
            "cursor",
            &[
                "sessionStart",
                "preToolUse Write",
                "preToolUse StrReplace",
                "preToolUse Shell",
                "postToolUse Shell",
                "postToolUseFailure",
                "afterFileEdit",
                "afterTabFileEdit",
                "beforeShellExecution",
                "beforeMCPExecution",
                "beforeReadFile",
                "beforeSubmitPrompt",
                "stop",
                "sessionEnd",
            ],
        ),
        (
            "copilot",
            &[
                "sessionStart",
                "userPromptSubmitted",
                "preToolUse create",
                "preToolUse edit",
                "preToolUse bash",
                "preToolUse view",
                "preToolUse intent-select_active_intent",
                "postToolUse create",
                "postToolUse edit",
                "postToolUse bash",
                "postToolUseFailure",
                "agentStop",
                "sessionEnd",
            ],
        ),
        (
            "qwen-code",
            &[
                "SessionStart",
                "UserPromptSubmit",
                "PreToolUse write_file",
                "PreToolUse edit",
                "PreToolUse run_shell_command",
                "PreToolUse read_file",
                "PreToolUse mcp__intent__select_active_intent",
                "PostToolUse write_file",
                "PostToolUse edit",
                "PostToolUse run_shell_command",
                "PostToolUse read_file",
                "PostToolUse mcp__intent__select_active_intent",
                "PostToolUseFailure",
                "Stop",
            ],
        ),
        (
            "opencode",
            &[
                "session.created",
                "chat.message",
                "tool.execute.before write",
                "tool.execute.before edit",
                "tool.execute.before multiedit",
                "tool.execute.before apply_patch",
                "tool.execute.before bash",
                "tool.execute.before read",
                "tool.execute.before intent_select_active_intent",
                "tool.execute.after write",
                "tool.execute.after edit",
                "tool.execute.after apply_patch",
                "tool.execute.after bash",
                "tool.execute.after intent_select_active_intent",
                "session.idle",
            ],
        ),
        (
            "kilo-code",
            &[
                "session.created",
                "chat.message",
                "tool.execute.before write",
                "tool.execute.before edit",
                "tool.execute.before bash",
                "tool.execute.before read",
                "tool.execute.before background_process",
                "tool.execute.before kilo_local_recall",
                "tool.execute.before intent_select_active_intent",
                "tool.execute.after write",
                "tool.execute.after edit",
                "tool.execute.after bash",
                "tool.execute.after background_process",
                "tool.execute.after intent_select_active_intent",
                "session.idle",
            ],
        ),
        (
            "droid",
            &[
                "SessionStart",
                "UserPromptSubmit",
                "PreToolUse Create",
                "PreToolUse Edit",
                "PreToolUse ApplyPatch",
                "PreToolUse Execute",
                "PreToolUse Read",
                "PreToolUse intent___select_active_intent",
                "PostToolUse Create",
                "PostToolUse Edit",
                "PostToolUse Execute",
                "PostToolUse Read",
                "PostToolUse intent___select_active_intent",
                "Stop",
                "SessionEnd",
            ],
        ),
        (
            "windsurf",
            &[
                "pre_user_prompt",
                "pre_read_code",
                "post_read_code",
                "pre_write_code",
                "post_write_code",
                "pre_run_command",
                "post_run_command",
                "pre_mcp_tool_use select_active_intent",
                "post_mcp_tool_use select_active_intent",
                "pre_mcp_tool_use create_issue",
                "post_cascade_response",
            ],
        ),
        (
            "generic",
            &[
                "session_start",
                "prompt",
                "stop",
                "pre write_to_file",
                "pre apply_diff",
                "pre edit",
                "pre edit_file",
                "pre search_replace",
                "pre apply_patch",
                "pre execute_command",
                "pre read_file",
                "pre select_active_intent",
                "post write_to_file",
                "post apply_diff",
                "post edit",
                "post edit_file",
                "post search_replace",
                "post apply_patch",
                "post execute_command",
                "post read_file",
                "post select_active_intent",
            ],
        ),
        (
            "example",
            &[
                "session_start",
                "user_prompt",
                "before_tool write",
                "before_tool edit",
                "before_tool shell",
                "before_tool read",
                "before_tool mcp",
                "after_tool write",
                "after_tool shell",
                "session_end",
            ],
        ),
    ];
    let on_disk: BTreeSet<String> = std::fs::read_dir(fixtures_dir())
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().into_string().unwrap())
        .collect();
    let known: BTreeSet<String> = FRONT_ENDS.iter().map(|s| s.to_string()).collect();
    assert_eq!(on_disk, known, "one fixture directory per front-end");
    for (fe, events) in required {
        let mut covered = BTreeSet::new();
        let mut malformed = 0;
        for fixture in load(fe) {
            let case = fixture.parse(Path::new("/ws"));
            validate(&fixture.name, &case);
            if case["malformed"] == true {
                malformed += 1;
                continue;
            }
            let (event, tool) = event_and_tool(fe, &case);
            covered.insert(format!("{event} {tool}"));
            covered.insert(event);
        }
        for event in *events {
            assert!(covered.contains(*event), "{fe}: no fixture for `{event}`");
        }
        assert!(malformed >= 6, "{fe}: only {malformed} malformed fixtures");
    }
    // The placeholder is replaced JSON-escaped.
    let fixture = Fixture {
        name: "escape".into(),
        raw: json!({"p": "$WS/src"}).to_string(),
    };
    assert_eq!(fixture.parse(Path::new("/a \"b\\c"))["p"], "/a \"b\\c/src");
}
