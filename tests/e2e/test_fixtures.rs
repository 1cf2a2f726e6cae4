//! The fixture suite: a native payload for every event of every front-end, malformed
//! ones included, each with the outcome it must have. The fixtures live in
//! `tests/e2e/fixtures/frontends/<front-end>/*.json`; their schema is documented in
//! the README there.
//!
//! Each fixture runs in a fresh workspace through `intent hook <front-end>`, and
//! every well-formed one again through `intent hook` without the argument, which
//! must recognize the same front-end and answer the same.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Output;

use intent_ledger::Event;
use serde_json::{json, Value};

use crate::common::{stderr, TestWorkspace};

/// The spec file of the conformance suite (`test_frontends.rs`).
const SPECS: &str = "active_intents:\n  - id: INT-001\n    name: Auth\n    status: IN_PROGRESS\n    owned_scope: [\"src/**\"]\n    constraints: [c]\n    acceptance_criteria: [a]\n  - id: INT-002\n    name: Later\n    status: BLOCKED\n    blocked_reason: needs design\n    owned_scope: [\"lib/**\"]\n    constraints: [c]\n    acceptance_criteria: [a]\n";

const FRONT_ENDS: &[&str] = &[
    "claude-code",
    "codex",
    "gemini",
    "cline",
    "cursor",
    "copilot",
    "generic",
];

/// The placeholder for the workspace root in fixtures.
const WS: &str = "$WS";

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/e2e/fixtures/frontends")
}

/// One fixture file: its name and raw text (placeholders not yet replaced).
struct Fixture {
    name: String,
    raw: String,
}

impl Fixture {
    /// The fixture with `$WS` replaced by `root`, JSON-escaped.
    fn parse(&self, root: &Path) -> Value {
        let quoted = serde_json::to_string(&root.display().to_string()).unwrap();
        let text = self.raw.replace(WS, &quoted[1..quoted.len() - 1]);
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: not JSON ({e})", self.name))
    }
}

fn load(fe: &str) -> Vec<Fixture> {
    let dir = fixtures_dir().join(fe);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no fixtures in {}", dir.display());
    files
        .into_iter()
        .map(|path| Fixture {
            name: format!(
                "{fe}/{}",
                path.file_name().unwrap().to_string_lossy().into_owned()
            ),
            raw: std::fs::read_to_string(&path).unwrap(),
        })
        .collect()
}

/// Checks a fixture against the schema in the README: known keys only, right types.
fn validate(name: &str, fixture: &Value) {
    let keys = |value: &Value, allowed: &[&str], what: &str| {
        let object = value
            .as_object()
            .unwrap_or_else(|| panic!("{name}: {what} must be an object"));
        for key in object.keys() {
            assert!(
                allowed.contains(&key.as_str()),
                "{name}: unknown key `{key}` in {what} (allowed: {allowed:?})"
            );
        }
    };
    keys(
        fixture,
        &[
            "description",
            "event",
            "setup",
            "malformed",
            "payload",
            "expect",
        ],
        "the fixture",
    );
    assert!(
        fixture["description"].is_string(),
        "{name}: needs a description"
    );
    assert!(fixture["payload"].is_object(), "{name}: needs a payload");
    assert!(fixture.get("event").is_none_or(Value::is_string), "{name}");
    if let Some(setup) = fixture.get("setup") {
        keys(setup, &["select", "files"], "setup");
        assert!(setup.get("select").is_none_or(Value::is_string), "{name}");
        if let Some(files) = setup.get("files") {
            let files = files
                .as_object()
                .unwrap_or_else(|| panic!("{name}: setup.files must be an object"));
            assert!(
                files.values().all(Value::is_string),
                "{name}: setup.files maps paths to text"
            );
        }
    }
    assert!(fixture.get("malformed").is_none_or(Value::is_boolean));
    let expect = &fixture["expect"];
    keys(
        expect,
        &[
            "refused",
            "reply_has",
            "reply_equals",
            "stderr_contains",
            "ledger_kind",
            "ledger",
        ],
        "expect",
    );
    assert!(
        expect["refused"].is_boolean(),
        "{name}: expect.refused is required"
    );
    assert!(expect.get("reply_has").is_none_or(Value::is_array));
    assert!(expect.get("reply_equals").is_none_or(Value::is_object));
    assert!(expect.get("stderr_contains").is_none_or(Value::is_string));
    assert!(expect.get("ledger").is_none_or(Value::is_object));
    if expect.get("ledger").is_some() {
        assert!(
            expect["ledger_kind"].is_string(),
            "{name}: expect.ledger needs expect.ledger_kind"
        );
    }
    if fixture["malformed"] == true {
        assert!(
            expect["stderr_contains"].is_string(),
            "{name}: a malformed fixture says what stderr reports"
        );
    }
}

/// The value at a dotted path (`""` is the value itself); `None` when absent.
fn at<'a>(value: &'a Value, path: &str) -> Option<&'a Value> {
    if path.is_empty() {
        return Some(value);
    }
    path.split('.').try_fold(value, |v, key| v.get(key))
}

/// Whether a front-end's reply refuses (as in `test_frontends.rs`).
fn refused(fe: &str, reply: &Value) -> bool {
    match fe {
        "claude-code" | "codex" => reply["hookSpecificOutput"]["permissionDecision"] == "deny",
        "gemini" => reply["decision"] == "deny",
        "cline" => reply["cancel"] == true,
        "cursor" => reply["permission"] == "deny",
        "copilot" => reply["permissionDecision"] == "deny",
        "generic" => reply["allowed"] == false,
        other => panic!("{other}"),
    }
}

/// The session a payload belongs to, in its front-end's field.
fn session_of(fe: &str, payload: &Value) -> Option<String> {
    // A Copilot subagent works under its parent session.
    if fe == "copilot" && payload["parentAgentId"].is_string() {
        return payload["parentAgentId"].as_str().map(str::to_string);
    }
    let key = match fe {
        "copilot" => "sessionId",
        "cline" => "taskId",
        "cursor" => "conversation_id",
        _ => "session_id",
    };
    payload[key].as_str().map(str::to_string)
}

/// One hook run: the reply, stderr and the events it appended.
struct Run {
    reply: Value,
    stderr: String,
    events: Vec<Event>,
}

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
    assert_eq!(
        out.status.code(),
        Some(0),
        "{name} ({how}): hooks always exit 0: {}",
        stderr(&out)
    );
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{name} ({how}): the reply is not JSON ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    });
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

/// Checks a run against the fixture's `expect`.
fn check(name: &str, fe: &str, expect: &Value, run: &Run) {
    let Run {
        reply,
        stderr,
        events,
    } = run;
    let kinds: Vec<&str> = events.iter().map(|e| e.kind.as_str()).collect();
    let context = format!("{name}\nreply: {reply}\nstderr: {stderr}\nevents: {kinds:?}");
    assert_eq!(
        refused(fe, reply),
        expect["refused"] == true,
        "{context}\nexpected refused = {}",
        expect["refused"]
    );
    for path in expect["reply_has"].as_array().into_iter().flatten() {
        let path = path.as_str().unwrap();
        assert!(
            at(reply, path).is_some_and(|v| !v.is_null()),
            "{context}\nthe reply has no `{path}`"
        );
    }
    for (path, want) in expect["reply_equals"].as_object().into_iter().flatten() {
        assert_eq!(
            at(reply, path),
            Some(want),
            "{context}\nreply `{path}` should be {want}"
        );
    }
    match expect["stderr_contains"].as_str() {
        Some(text) => assert!(
            stderr.contains(text),
            "{context}\nstderr should contain {text:?}"
        ),
        None => assert!(
            !stderr.contains("intent hook:"),
            "{context}\nthe hook reported an error"
        ),
    }
    // Every event the hook appended says which front-end it came from.
    for event in events {
        assert_eq!(event.source, format!("hook:{fe}"), "{context}");
        if let Some(front_end) = event.data.get("front_end") {
            assert_eq!(front_end, fe, "{context}\n{}", event.data);
        }
    }
    match expect.get("ledger_kind") {
        None => {}
        Some(Value::Null) => assert!(events.is_empty(), "{context}\nexpected no ledger events"),
        Some(kind) => {
            let kind = kind.as_str().unwrap();
            let event = events
                .iter()
                .find(|e| e.kind == kind)
                .unwrap_or_else(|| panic!("{context}\nno `{kind}` event"));
            for (path, want) in expect["ledger"].as_object().into_iter().flatten() {
                assert_eq!(
                    at(&event.data, path),
                    Some(want),
                    "{context}\n`{kind}` data `{path}` should be {want}: {}",
                    event.data
                );
            }
        }
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
    if case["malformed"] == true {
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
fn generic_fixtures() {
    run_front_end("generic");
}

/// The event of a fixture and the tool it calls (`-` for none), as a front-end names
/// them.
fn event_and_tool(fe: &str, case: &Value) -> (String, String) {
    let text = |v: &Value| v.as_str().unwrap_or("-").to_string();
    let payload = &case["payload"];
    match fe {
        "copilot" => (text(&case["event"]), text(&payload["toolName"])),
        "cline" => {
            // The Cline CLI 3 names the call in `tool_call` / `tool_result`.
            let tool = [
                ("tool_call", "name"),
                ("tool_result", "name"),
                ("preToolUse", "toolName"),
                ("postToolUse", "toolName"),
            ]
            .iter()
            .find_map(|(section, key)| payload[*section][*key].as_str())
            .map_or_else(|| "-".to_string(), str::to_string);
            (text(&payload["hookName"]), tool)
        }
        "generic" => (text(&payload["event"]), text(&payload["tool_name"])),
        _ => (
            text(&payload["hook_event_name"]),
            text(&payload["tool_name"]),
        ),
    }
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
