//! The hook engine and the MCP handshake, proven with the real Claude Code CLI
//! (offline, against the scripted mock model of `claude::mock`).

use std::path::{Path, PathBuf};

use intent_gate::bytes_sha256;
use intent_ledger::Event;
use serde_json::{json, Value};

use crate::claude::{require_claude, ClaudeOutcome, ClaudeRun, Step};
use crate::common::{intent_bin, stderr, TestWorkspace};
use crate::scenario::{assert_intact, events_of, reason_json};

const SPECS: &str = r#"active_intents:
  - id: INT-001
    name: JWT authentication
    status: IN_PROGRESS
    owned_scope: ["src/auth/**"]
    constraints: [Tokens expire after 15 minutes.]
    acceptance_criteria: [verify() rejects expired tokens.]
  - id: INT-002
    name: Billing export
    status: BLOCKED
    blocked_reason: waiting for legal review
    owned_scope: ["src/billing/**"]
    constraints: [No PII in exports.]
    acceptance_criteria: [CSV matches the schema.]
  - id: INT-003
    name: Public API
    status: IN_PROGRESS
    owned_scope: ["src/api/**"]
    constraints: [Keep v1 routes.]
    acceptance_criteria: [All routes documented.]
"#;

/// A workspace wired for Claude Code with `intent init --agent claude-code`.
fn wired_workspace() -> TestWorkspace {
    let ws = TestWorkspace::new();
    std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    let out = ws.run(&["init", "--agent", "claude-code"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::create_dir_all(ws.root().join("src/auth")).unwrap();
    ws
}

fn claude(ws: &TestWorkspace, bin: &Path) -> ClaudeRun {
    ClaudeRun::new(bin, ws.root())
        .path_prepend(Path::new(intent_bin()).parent().unwrap())
        .mcp_config(json!({"mcpServers": {"intent": {"type": "stdio", "command": intent_bin(), "args": ["mcp"]}}}))
        .arg("--strict-mcp-config")
        .allow_tool("mcp__intent__select_active_intent")
}

fn select(id: &str) -> Step {
    Step::tool(
        "mcp__intent__select_active_intent",
        json!({"intent_id": id}),
    )
}

fn write(path: PathBuf, content: &str) -> Step {
    Step::tool("Write", json!({"file_path": path, "content": content}))
}

fn hook_session(out: &ClaudeOutcome, ws: &TestWorkspace) -> String {
    let starts = events_of(ws, "session.start");
    assert!(
        !starts.is_empty(),
        "no session.start recorded\n{}",
        out.describe()
    );
    starts.last().unwrap().session.clone().unwrap()
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn a_write_before_any_intent_is_denied_with_no_active_intent() {
    let Some(bin) = require_claude() else { return };
    let ws = wired_workspace();
    let target = ws.root().join("src/auth/jwt.ts");
    let out = claude(&ws, &bin)
        .step(write(target.clone(), "export {};\n"))
        .run();
    out.assert_success();
    assert!(!target.exists(), "the denied write happened");
    let results = out.tool_results();
    assert_eq!(results.len(), 1, "{}", out.describe());
    assert!(results[0].is_error);
    assert!(
        results[0].content.contains("PreToolUse:Write hook error"),
        "{}",
        results[0].content
    );
    let reason = reason_json(&results[0].content);
    assert_eq!(reason["type"], "no_active_intent");
    assert_eq!(reason["available_intents"][0]["id"], "INT-001");
    let pre = events_of(&ws, "tool.pre");
    assert_eq!(pre.last().unwrap().data["decision"], "deny");
    assert_eq!(events_of(&ws, "lesson").len(), 1);
    assert!(
        std::fs::read_to_string(ws.root().join(".orchestration/lessons.md"))
            .unwrap()
            .contains("no_active_intent")
    );
    assert_intact(&ws);
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn select_then_write_in_scope_is_traced_with_hashes_intent_session_and_tool_use() {
    let Some(bin) = require_claude() else { return };
    let ws = wired_workspace();
    let target = ws.root().join("src/auth/jwt.ts");
    let content = "export function verify(token: string) {\n  return token.length > 0;\n}\n";
    let out = claude(&ws, &bin)
        .step(select("INT-001"))
        .step(write(target.clone(), content))
        .run();
    out.assert_success();
    let results = out.tool_results();
    assert_eq!(results.len(), 2, "{}", out.describe());
    assert!(!results[0].is_error, "{}", results[0].content);
    assert!(
        results[0]
            .content
            .contains("<intent_context intent_id=\"INT-001\">"),
        "{}",
        results[0].content
    );
    assert!(!results[1].is_error, "{}", results[1].content);
    assert_eq!(std::fs::read_to_string(&target).unwrap(), content);

    let session = hook_session(&out, &ws);
    let selected = events_of(&ws, "intent.selected");
    assert_eq!(selected.len(), 1);
    assert_eq!(selected[0].session.as_deref(), Some(session.as_str()));
    assert_eq!(selected[0].data["intent_id"], "INT-001");
    let traces = events_of(&ws, "trace");
    assert_eq!(traces.len(), 1, "{:#?}", ws.events());
    let trace = &traces[0];
    assert_eq!(trace.data["path"], "src/auth/jwt.ts");
    assert_eq!(trace.data["intent_id"], "INT-001");
    assert_eq!(trace.session.as_deref(), Some(session.as_str()));
    assert_eq!(trace.data["after_sha256"], bytes_sha256(content.as_bytes()));
    assert_eq!(trace.data["before_sha256"], Value::Null);
    assert_eq!(trace.data["tool_use_id"], results[1].tool_use_id.as_str());
    assert_eq!(trace.data["mutation_class"], "INTENT_EVOLUTION");
    assert_eq!(trace.data["ranges"][0]["start_line"], 1);
    assert_eq!(trace.data["ranges"][0]["end_line"], 3);
    assert_eq!(
        trace.data["ranges"][0]["content_hash"],
        bytes_sha256(content.as_bytes())
    );
    assert_eq!(trace.data["model"], "anthropic/claude-sonnet-4-5");
    assert_intact(&ws);
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn a_write_outside_scope_is_denied_with_the_allowed_globs() {
    let Some(bin) = require_claude() else { return };
    let ws = wired_workspace();
    let target = ws.root().join("src/billing/invoice.ts");
    let out = claude(&ws, &bin)
        .step(select("INT-001"))
        .step(write(target.clone(), "x\n"))
        .run();
    out.assert_success();
    let results = out.tool_results();
    assert!(results[1].is_error, "{}", out.describe());
    let reason = reason_json(&results[1].content);
    assert_eq!(reason["type"], "scope_violation");
    assert_eq!(reason["intent_id"], "INT-001");
    assert_eq!(reason["attempted_path"], "src/billing/invoice.ts");
    assert_eq!(reason["allowed_scope"], json!(["src/auth/**"]));
    assert!(!target.exists());
    assert!(events_of(&ws, "trace").is_empty());
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn a_file_changed_by_another_process_between_read_and_edit_is_stale() {
    let Some(bin) = require_claude() else { return };
    let ws = wired_workspace();
    let target = ws.root().join("src/auth/session.ts");
    std::fs::write(&target, "export const ttl = 900;\n").unwrap();
    let changed_by_someone_else = target.clone();
    let out = claude(&ws, &bin)
        .step(select("INT-001"))
        .step(Step::tool("Read", json!({"file_path": target})))
        .step(
            Step::tool(
                "Edit",
                json!({"file_path": target, "old_string": "900", "new_string": "600"}),
            )
            .before_serving(move || {
                std::fs::write(
                    &changed_by_someone_else,
                    "export const ttl = 900; // tuned by ops\n",
                )
                .unwrap()
            }),
        )
        .run();
    out.assert_success();
    let results = out.tool_results();
    assert_eq!(results.len(), 3, "{}", out.describe());
    assert!(!results[1].is_error, "{}", results[1].content);
    assert!(results[2].is_error, "{}", out.describe());
    let reason = reason_json(&results[2].content);
    assert_eq!(reason["type"], "stale_file");
    assert!(reason["message"]
        .as_str()
        .unwrap()
        .contains("read it again"));
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        "export const ttl = 900; // tuned by ops\n"
    );
    let reads: Vec<_> = events_of(&ws, "tool.post")
        .into_iter()
        .filter(|e| e.data["tool"] == "Read")
        .collect();
    assert_eq!(
        reads[0].data["file_hashes"]["src/auth/session.ts"],
        bytes_sha256(b"export const ttl = 900;\n")
    );
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn rm_rf_is_denied_and_a_read_only_command_passes_without_an_intent() {
    let Some(bin) = require_claude() else { return };
    let ws = wired_workspace();
    std::fs::write(ws.root().join("src/auth/keep.ts"), "keep\n").unwrap();
    let out = claude(&ws, &bin)
        .step(Step::tool("Bash", json!({"command": "ls src"})))
        .step(Step::tool(
            "Bash",
            json!({"command": format!("rm -rf {}", ws.root().display())}),
        ))
        .step(Step::tool(
            "Bash",
            json!({"command": "touch src/auth/new.ts"}),
        ))
        .run();
    out.assert_success();
    let results = out.tool_results();
    assert_eq!(results.len(), 3, "{}", out.describe());
    assert!(!results[0].is_error, "{}", results[0].content);
    assert!(
        results[0].content.contains("auth"),
        "{}",
        results[0].content
    );
    assert!(results[1].is_error);
    let reason = reason_json(&results[1].content);
    assert_eq!(reason["type"], "policy_block");
    assert!(
        reason["message"].as_str().unwrap().contains("rm -r"),
        "{reason}"
    );
    assert!(ws.root().join("src/auth/keep.ts").exists());
    // Any other destructive command still needs an intent.
    assert_eq!(reason_json(&results[2].content)["type"], "no_active_intent");
    assert!(!ws.root().join("src/auth/new.ts").exists());
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn selecting_a_blocked_intent_is_refused_with_its_reason() {
    let Some(bin) = require_claude() else { return };
    let ws = wired_workspace();
    let out = claude(&ws, &bin).step(select("INT-002")).run();
    out.assert_success();
    let results = out.tool_results();
    assert!(results[0].is_error, "{}", out.describe());
    assert!(
        results[0].content.contains("waiting for legal review"),
        "{}",
        results[0].content
    );
    assert_eq!(
        reason_json(&results[0].content)["type"],
        "intent_not_active"
    );
    assert!(events_of(&ws, "intent.selected").is_empty());
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn two_sessions_at_once_keep_their_own_intents() {
    let Some(bin) = require_claude() else { return };
    let ws = wired_workspace();
    std::fs::create_dir_all(ws.root().join("src/api")).unwrap();
    let auth = ws.root().join("src/auth/a.ts");
    let api = ws.root().join("src/api/b.ts");
    let (out_a, out_b) = std::thread::scope(|scope| {
        let a = scope.spawn(|| {
            claude(&ws, &bin)
                .step(select("INT-001"))
                .step(write(auth.clone(), "a\n"))
                .step(write(api.with_file_name("from_a.ts"), "not mine\n"))
                .run()
        });
        let b = scope.spawn(|| {
            claude(&ws, &bin)
                .step(select("INT-003"))
                .step(write(api.clone(), "b\n"))
                .step(write(auth.with_file_name("from_b.ts"), "not mine\n"))
                .run()
        });
        (a.join().unwrap(), b.join().unwrap())
    });
    out_a.assert_success();
    out_b.assert_success();
    for out in [&out_a, &out_b] {
        let results = out.tool_results();
        assert_eq!(results.len(), 3, "{}", out.describe());
        assert!(!results[1].is_error, "{}", results[1].content);
        assert_eq!(
            reason_json(&results[2].content)["type"],
            "scope_violation",
            "{}",
            out.describe()
        );
    }
    let traces = events_of(&ws, "trace");
    assert_eq!(traces.len(), 2, "{:#?}", traces);
    let by_path = |p: &str| traces.iter().find(|t| t.data["path"] == p).unwrap().clone();
    let (ta, tb) = (by_path("src/auth/a.ts"), by_path("src/api/b.ts"));
    assert_eq!(ta.data["intent_id"], "INT-001");
    assert_eq!(tb.data["intent_id"], "INT-003");
    assert_ne!(ta.session, tb.session);
    let selected = events_of(&ws, "intent.selected");
    assert_eq!(selected.len(), 2);
    assert!(!ws.root().join("src/api/from_a.ts").exists());
    assert!(!ws.root().join("src/auth/from_b.ts").exists());
    assert_intact(&ws);
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn a_prompt_line_selects_the_intent_without_mcp() {
    let Some(bin) = require_claude() else { return };
    let ws = wired_workspace();
    let target = ws.root().join("src/auth/jwt.ts");
    let out = ClaudeRun::new(&bin, ws.root())
        .path_prepend(Path::new(intent_bin()).parent().unwrap())
        .prompt("/intent INT-001\nWrite the token check.")
        .step(write(target.clone(), "export {};\n"))
        .run();
    out.assert_success();
    let results = out.tool_results();
    assert!(!results[0].is_error, "{}", out.describe());
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "export {};\n");
    let selected = events_of(&ws, "intent.selected");
    assert_eq!(selected.len(), 1);
    assert_eq!(selected[0].data["via"], "prompt");
    assert_eq!(selected[0].session, events_of(&ws, "trace")[0].session);
    assert!(
        out.message_bodies()[0]
            .to_string()
            .contains("intent_context intent_id"),
        "the intent's context did not reach the model"
    );
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn a_failed_tool_reaches_post_tool_use_failure_and_leaves_a_lesson() {
    let Some(bin) = require_claude() else { return };
    let ws = wired_workspace();
    let target = ws.root().join("src/auth/jwt.ts");
    std::fs::write(&target, "export const a = 1;\n").unwrap();
    // A command that runs and fails: only PostToolUseFailure (not PostToolUse) fires
    // for it. (An Edit whose old_string is missing fails in Claude Code's input
    // validation, before any hook.)
    let out = claude(&ws, &bin)
        .step(select("INT-001"))
        .step(Step::tool(
            "Bash",
            json!({"command": "ls src/no-such-dir", "description": "list"}),
        ))
        .run();
    out.assert_success();
    let results = out.tool_results();
    assert!(results.last().unwrap().is_error, "{}", out.describe());
    let lessons: Vec<Event> = events_of(&ws, "lesson")
        .into_iter()
        .filter(|e| e.data["origin"] == "tool_failure")
        .collect();
    assert_eq!(lessons.len(), 1, "{:#?}\n{}", ws.events(), out.describe());
    assert!(
        lessons[0].data["text"]
            .as_str()
            .unwrap()
            .starts_with("Bash failed"),
        "{}",
        lessons[0].data
    );
    assert_eq!(lessons[0].data["intent_id"], "INT-001");
    assert_intact(&ws);
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn with_confine_shell_an_opaque_script_cannot_write_outside_the_scope_even_detached() {
    let Some(bin) = require_claude() else { return };
    if crate::test_confine::landlock_abi().is_none() {
        crate::cliproc::skip_unless_ci("this kernel has no Landlock");
        return;
    }
    let ws = wired_workspace();
    std::fs::write(
        ws.root().join(".orchestration/policy.yaml"),
        "confine_shell: allow\n",
    )
    .unwrap();
    std::fs::create_dir_all(ws.root().join("src/billing")).unwrap();
    std::fs::create_dir_all(ws.root().join("scripts")).unwrap();
    // A script the gate cannot read through: allowed under an intent, and only
    // the kernel stops what it does outside the scope.
    std::fs::write(
        ws.root().join("scripts/build.sh"),
        "echo ok > src/auth/built.ts\necho x > src/billing/leak.ts\n\
         setsid -f sh -c 'sleep 0.3; echo y > src/billing/late.ts'\n",
    )
    .unwrap();
    let out = claude(&ws, &bin)
        .step(select("INT-001"))
        .step(Step::tool(
            "Bash",
            json!({"command": "sh scripts/build.sh"}),
        ))
        .run();
    out.assert_success();
    std::thread::sleep(std::time::Duration::from_millis(700));
    let results = out.tool_results();
    assert_eq!(results.len(), 2, "{}", out.describe());
    assert!(
        ws.root().join("src/auth/built.ts").exists(),
        "{}",
        out.describe()
    );
    assert!(!ws.root().join("src/billing/leak.ts").exists());
    assert!(!ws.root().join("src/billing/late.ts").exists());
    // The agent sees the kernel's refusal; the ledger says the command ran confined.
    assert!(
        results[1].content.contains("Permission denied"),
        "{}",
        results[1].content
    );
    let pre = events_of(&ws, "tool.pre");
    assert!(
        pre.iter().any(|e| e.data["confined"] == true),
        "{:?}",
        pre.iter().map(|e| &e.data).collect::<Vec<_>>()
    );
    assert_intact(&ws);
}
