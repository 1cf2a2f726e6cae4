//! `intent hook claude-code` as a process: bad input, failure modes, the prompt
//! handshake, setup, shell-change detection, concurrency. (The real Claude Code CLI
//! drives the same binary in `test_claude_code`.)

use std::path::Path;
use std::process::Command;

use intent_ledger::verify_path;
use serde_json::{json, Value};

use crate::common::{
    assert_state_equals_rebuild, hook, last_trace, stderr, traced_write, TestWorkspace,
};

const SPECS: &str = "active_intents:\n  - id: INT-001\n    name: Auth\n    status: IN_PROGRESS\n    owned_scope: [\"src/**\"]\n    constraints: [c]\n    acceptance_criteria: [a]\n  - id: INT-002\n    name: Later\n    status: BLOCKED\n    blocked_reason: needs design\n    owned_scope: [\"lib/**\"]\n    constraints: [c]\n    acceptance_criteria: [a]\n";

fn workspace() -> TestWorkspace {
    let ws = TestWorkspace::new();
    std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    std::fs::create_dir_all(ws.root().join("src")).unwrap();
    ws
}

fn pre(ws: &TestWorkspace, session: &str, tool: &str, input: Value) -> Value {
    let payload = json!({"hook_event_name": "PreToolUse", "session_id": session, "cwd": ws.root(), "tool_name": tool, "tool_input": input, "tool_use_id": format!("t-{tool}")});
    hook(ws, payload.to_string().as_bytes()).0
}

fn decision(reply: &Value) -> Option<&str> {
    reply["hookSpecificOutput"]["permissionDecision"].as_str()
}

fn reason_type(reply: &Value) -> String {
    let text = reply["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap_or_default();
    let start = text
        .find("{\"type\"")
        .unwrap_or_else(|| panic!("no structured reason: {text}"));
    let value: Value = serde_json::Deserializer::from_str(&text[start..])
        .into_iter()
        .next()
        .unwrap()
        .unwrap();
    value["type"].as_str().unwrap().to_string()
}

#[test]
fn malformed_payloads_fail_closed_with_a_clear_message() {
    let ws = workspace();
    for (payload, expected) in [
        (b"not json".to_vec(), "not JSON"),
        (vec![0xff, 0xfe, b'{', b'}'], "not valid UTF-8"),
        (br#"{"hook_event_name":"PreToolUse","tool_name":"Write"}"#.to_vec(), "session_id"),
        (br#"{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Write","tool_input":{"file_path":5}}"#.to_vec(), "must be a string"),
        (br#"{"session_id":"s"}"#.to_vec(), "hook_event_name"),
    ] {
        let (reply, err) = hook(&ws, &payload);
        assert_eq!(decision(&reply), Some("deny"), "{reply}");
        let reason = reply["hookSpecificOutput"]["permissionDecisionReason"].as_str().unwrap();
        assert!(reason.contains(expected), "{reason}");
        assert!(err.contains(expected), "stderr: {err}");
    }
    // A malformed non-tool event is not a reason to block anything.
    let (reply, err) = hook(&ws, br#"{"hook_event_name":"UserPromptSubmit"}"#);
    assert_eq!(reply, json!({}));
    assert!(err.contains("session_id"));
    assert!(verify_path(ws.ledger()).unwrap().is_intact());
}

#[test]
fn a_huge_write_payload_is_handled_like_any_other() {
    let ws = workspace();
    let content = "x".repeat(10 * 1024 * 1024);
    let reply = pre(
        &ws,
        "s1",
        "Write",
        json!({"file_path": "src/big.ts", "content": content}),
    );
    assert_eq!(reason_type(&reply), "no_active_intent");
    // Payload content is never stored: the ledger stays small.
    assert!(std::fs::metadata(ws.ledger()).unwrap().len() < 64 * 1024);
}

#[test]
fn broken_specs_fail_closed_for_writes_and_open_for_reads() {
    let ws = workspace();
    std::fs::write(
        ws.root().join(".orchestration/active_intents.yaml"),
        "active_intents:\n  - id: [\n",
    )
    .unwrap();
    let reply = pre(
        &ws,
        "s1",
        "Write",
        json!({"file_path": "src/a.ts", "content": ""}),
    );
    assert_eq!(reason_type(&reply), "invalid_config");
    assert!(reply.to_string().contains("line"), "{reply}");
    let reply = pre(&ws, "s1", "Read", json!({"file_path": "src/a.ts"}));
    assert_eq!(reply, json!({}));
}

#[test]
fn an_unreadable_ledger_fails_closed_for_writes_and_open_for_reads() {
    let ws = workspace();
    let mut bytes = std::fs::read(ws.ledger()).unwrap();
    let last = bytes.len() - 10;
    bytes[last] ^= 0x01; // corrupt the last line: appends must refuse
    std::fs::write(ws.ledger(), &bytes).unwrap();
    let reply = pre(
        &ws,
        "s1",
        "Write",
        json!({"file_path": "src/a.ts", "content": ""}),
    );
    assert_eq!(decision(&reply), Some("deny"), "{reply}");
    // The head kept outside the ledger knew that line: a rewritten line is tampering.
    assert!(reply.to_string().contains("ledger_tampered"), "{reply}");
    assert_eq!(
        pre(&ws, "s1", "Read", json!({"file_path": "src/a.ts"})),
        json!({})
    );
    assert_eq!(
        pre(&ws, "s1", "Bash", json!({"command": "git log -1"})),
        json!({})
    );
    assert_eq!(
        std::fs::read(ws.ledger()).unwrap(),
        bytes,
        "nothing written past corruption"
    );
}

#[test]
fn paths_that_escape_the_workspace_are_scope_violations() {
    let ws = workspace();
    let out = ws.run(&["select", "INT-001", "--session", "s1"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    for path in ["../outside.ts", "src/../../outside.ts", "/etc/hosts"] {
        let reply = pre(
            &ws,
            "s1",
            "Write",
            json!({"file_path": path, "content": ""}),
        );
        assert_eq!(reason_type(&reply), "scope_violation", "{path}");
    }
    let reply = pre(
        &ws,
        "s1",
        "Edit",
        json!({"file_path": ".orchestration/agent_trace.jsonl", "old_string": "a", "new_string": "b"}),
    );
    assert_eq!(reason_type(&reply), "policy_block");
}

#[test]
fn the_prompt_handshake_selects_and_injects_context() {
    let ws = workspace();
    let start = json!({"hook_event_name": "SessionStart", "session_id": "s1", "cwd": ws.root(), "source": "startup"});
    let (reply, _) = hook(&ws, start.to_string().as_bytes());
    let notice = reply["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(
        notice.contains("INT-001: Auth") && !notice.contains("INT-002"),
        "{notice}"
    );

    let prompt = |text: &str| {
        let p = json!({"hook_event_name": "UserPromptSubmit", "session_id": "s1", "cwd": ws.root(), "prompt": text, "prompt_id": "p1"});
        hook(&ws, p.to_string().as_bytes()).0
    };
    let refused = prompt("/intent INT-002");
    assert!(refused.to_string().contains("needs design"), "{refused}");
    let reply = prompt("Let's go.\n/intent INT-001\nmy api_key=sk-abcdefghijklmnopqrstu");
    let context = reply["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(
        context.starts_with("<intent_context intent_id=\"INT-001\">"),
        "{context}"
    );
    let events = ws.events();
    let stored = events.iter().rev().find(|e| e.kind == "prompt").unwrap();
    assert!(
        !stored.data["text"].as_str().unwrap().contains("sk-abc"),
        "secrets are redacted"
    );
    let selected: Vec<_> = events
        .iter()
        .filter(|e| e.kind == "intent.selected")
        .collect();
    assert_eq!(selected.len(), 1);
    assert_eq!(selected[0].data["via"], "prompt");
    // Later prompts carry the active intent's context.
    let again = prompt("next step");
    assert!(again.to_string().contains("intent_context"), "{again}");
}

#[test]
fn init_agent_claude_code_merges_and_is_idempotent() {
    let ws = workspace();
    let settings = ws.root().join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(&settings, r#"{"model":"opus","hooks":{"PreToolUse":[{"matcher":"Write","hooks":[{"type":"command","command":"other-tool"}]}]}}"#).unwrap();
    let out = ws.run(&["--json", "init", "--agent", "claude-code"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    let first = std::fs::read_to_string(&settings).unwrap();
    let value: Value = serde_json::from_str(&first).unwrap();
    assert_eq!(value["model"], "opus");
    let pre = value["hooks"]["PreToolUse"].as_array().unwrap();
    assert_eq!(pre.len(), 2);
    assert_eq!(pre[0]["hooks"][0]["command"], "other-tool");
    assert!(pre[1]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .ends_with("hook claude-code"));
    for event in ["PostToolUse", "UserPromptSubmit", "SessionStart", "Stop"] {
        assert_eq!(
            value["hooks"][event].as_array().unwrap().len(),
            1,
            "{event}"
        );
    }
    let mcp: Value =
        serde_json::from_str(&std::fs::read_to_string(ws.root().join(".mcp.json")).unwrap())
            .unwrap();
    assert_eq!(mcp["mcpServers"]["intent"]["args"], json!(["mcp"]));
    let out = ws.run(&["--json", "init", "--agent", "claude-code"], None);
    let body: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(body["agent_config"], json!([]));
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), first);
}

#[test]
fn select_from_a_shell_refuses_blocked_and_unknown_intents() {
    let ws = workspace();
    let out = ws.run(&["select", "INT-002", "--session", "s1"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("needs design"));
    let out = ws.run(&["--json", "select", "INT-9", "--session", "s1"], None);
    assert_eq!(out.status.code(), Some(1));
    let body: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(body["refusal"]["type"], "intent_not_active");
}

fn git(root: &Path, args: &[&str]) {
    intent_test_support::git::run(root, args);
}

#[test]
fn files_changed_by_a_shell_command_are_traced_in_a_git_repo() {
    let ws = workspace();
    let root = ws.root();
    git(root, &["init", "-q"]);
    std::fs::write(root.join("src/a.ts"), "let a = 1;\nlet b = 2;\n").unwrap();
    git(root, &["add", "src/a.ts"]);
    git(
        root,
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-qm",
            "init",
        ],
    );
    let out = ws.run(&["select", "INT-001", "--session", "s1"], None);
    assert!(out.status.success());
    let command = "sed -i 's/b = 2/b = 3/' src/a.ts && echo new > src/new.ts";
    let reply = pre(&ws, "s1", "Bash", json!({"command": command}));
    assert_eq!(reply, json!({}), "allowed under INT-001");
    let status = Command::new("sh")
        .args(["-c", command])
        .current_dir(root)
        .status()
        .unwrap();
    assert!(status.success());
    let post = json!({"hook_event_name": "PostToolUse", "session_id": "s1", "cwd": root, "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "t-Bash", "tool_response": {"stdout": "", "stderr": "", "interrupted": false}});
    hook(&ws, post.to_string().as_bytes());
    let traces: Vec<_> = ws
        .events()
        .into_iter()
        .filter(|e| e.kind == "trace")
        .collect();
    let paths: Vec<_> = traces
        .iter()
        .map(|t| t.data["path"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(paths, ["src/a.ts", "src/new.ts"]);
    let a = &traces[0];
    assert_eq!(a.data["intent_id"], "INT-001");
    assert_eq!(
        a.data["ranges"],
        json!([{"start_line": 2, "end_line": 2, "content_hash": intent_gate::bytes_sha256(b"let b = 3;\n")}])
    );
    assert_eq!(a.data["vcs"]["type"], "git");
    assert_eq!(a.data["vcs"]["revision"].as_str().unwrap().len(), 40);
    assert_eq!(traces[1].data["before_sha256"], Value::Null);
    // The sed changed a literal of the top-level binding `b`: a behaviour change.
    assert_eq!(a.data["mutation_class"], "INTENT_EVOLUTION");
    let b = a.data["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|blk| blk["after"]["name"] == "b")
        .expect("block b");
    assert_eq!(b["event"], "modified");
}

#[test]
fn concurrent_hook_processes_keep_the_ledger_and_state_consistent() {
    let ws = workspace();
    std::thread::scope(|scope| {
        for w in 0..6 {
            let ws = &ws;
            scope.spawn(move || {
                let session = format!("s{w}");
                let out = ws.run(&["select", "INT-001", "--session", &session], None);
                assert!(out.status.success(), "{}", stderr(&out));
                for i in 0..15 {
                    let reply = pre(
                        ws,
                        &session,
                        "Write",
                        json!({"file_path": format!("src/w{w}_{i}.ts"), "content": ""}),
                    );
                    assert_eq!(reply, json!({}), "session {session} lost its intent");
                }
            });
        }
    });
    let report = verify_path(ws.ledger()).unwrap();
    assert!(report.is_intact());
    assert_state_equals_rebuild(&ws);
    assert_eq!(
        ws.events().iter().filter(|e| e.kind == "tool.pre").count(),
        90
    );
}

#[test]
fn declared_mutation_class_is_recorded_and_failures_become_lessons() {
    let ws = workspace();
    assert!(ws
        .run(&["select", "INT-001", "--session", "s1"], None)
        .status
        .success());
    let path = ws.root().join("src/a.ts");
    std::fs::write(&path, "let  a = 1;\n").unwrap();
    let post = json!({"hook_event_name": "PostToolUse", "session_id": "s1", "cwd": ws.root(), "tool_name": "Edit",
        "tool_input": {"file_path": path, "old_string": "let a", "new_string": "let  a", "mutation_class": "AST_REFACTOR"},
        "tool_use_id": "t-edit", "tool_response": {"filePath": path, "originalFile": "let a = 1;\n"}});
    hook(&ws, post.to_string().as_bytes());
    let trace = ws.events().into_iter().find(|e| e.kind == "trace").unwrap();
    assert_eq!(trace.data["mutation_class"], "AST_REFACTOR");
    assert_eq!(trace.data["classification"]["method"], "ast");
    assert_eq!(
        trace.data["classification"]["refactor_kinds"],
        json!(["reformat"])
    );
    assert_eq!(trace.data["declared_mutation_class"], "AST_REFACTOR");
    assert_eq!(trace.data["declared_matches"], true);

    let failed = json!({"hook_event_name": "PostToolUseFailure", "session_id": "s1", "cwd": ws.root(), "tool_name": "Bash",
        "tool_input": {"command": "npm test"}, "tool_use_id": "t-fail", "tool_response": {"error": "3 tests failed: token expiry"}});
    hook(&ws, failed.to_string().as_bytes());
    let lesson = ws
        .events()
        .into_iter()
        .rev()
        .find(|e| e.kind == "lesson")
        .unwrap();
    assert_eq!(lesson.data["origin"], "tool_failure");
    assert_eq!(lesson.data["intent_id"], "INT-001");
    assert!(lesson.data["text"]
        .as_str()
        .unwrap()
        .contains("3 tests failed"));
    // In the generated lessons file, never in a tracked one.
    let notes = std::fs::read_to_string(ws.root().join(".orchestration/lessons.md")).unwrap();
    assert!(
        notes.contains("INT-001, tool_failure: Bash failed: 3 tests failed"),
        "{notes}"
    );
    assert!(!ws.root().join(".orchestration/CLAUDE.md").exists());
}

fn block<'a>(trace: &'a intent_ledger::Event, name: &str) -> &'a Value {
    trace.data["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["after"]["name"] == name || b["before"]["name"] == name)
        .unwrap_or_else(|| panic!("no block {name} in {}", trace.data["blocks"]))
}

#[test]
fn block_identities_survive_edits_and_cross_file_moves_within_a_turn() {
    let ws = workspace();
    assert!(ws
        .run(&["select", "INT-001", "--session", "s1"], None)
        .status
        .success());
    let v1 = "export function verify(t: string) {\n  return t.length > 0;\n}\n\nfunction ttl(n: number) {\n  return n + 900;\n}\n";
    let first = traced_write(&ws, "p1", "src/jwt.ts", v1, "w1");
    assert_eq!(first.data["mutation_class"], "INTENT_EVOLUTION");
    let ttl_id = block(&first, "ttl")["id"].as_str().unwrap().to_string();
    let verify_id = block(&first, "verify")["id"].as_str().unwrap().to_string();
    assert_eq!(block(&first, "ttl")["event"], "created");

    // Next turn: verify changes; its identity stays.
    let v2 = v1.replace("> 0", "> 10");
    let second = traced_write(&ws, "p2", "src/jwt.ts", &v2, "w2");
    assert_eq!(block(&second, "verify")["event"], "modified");
    assert_eq!(block(&second, "verify")["id"], verify_id.as_str());

    // A turn moves ttl to another file in two writes: a refactor, same identity.
    let v3 = "export function verify(t: string) {\n  return t.length > 10;\n}\n";
    let third = traced_write(&ws, "p3", "src/jwt.ts", v3, "w3");
    assert_eq!(
        block(&third, "ttl")["event"],
        "deleted",
        "alone, the first write deletes ttl"
    );
    let moved_to = "function ttl(n: number) {\n  return n + 900;\n}\n";
    let fourth = traced_write(&ws, "p3", "src/ttl.ts", moved_to, "w4");
    assert_eq!(
        fourth.data["mutation_class"], "AST_REFACTOR",
        "{}",
        fourth.data["classification"]
    );
    let moved = block(&fourth, "ttl");
    assert_eq!(moved["event"], "moved");
    assert_eq!(moved["before"]["path"], "src/jwt.ts");
    assert_eq!(moved["after"]["path"], "src/ttl.ts");
    assert_eq!(moved["id"], ttl_id.as_str());
}

#[test]
fn a_wrong_declared_class_is_recorded_and_blocked_when_the_policy_says_so() {
    let ws = workspace();
    assert!(ws
        .run(&["select", "INT-001", "--session", "s1"], None)
        .status
        .success());
    let path = ws.root().join("src/limits.ts");
    let before = "export function allowed(n: number) {\n  return n < 5;\n}\n";
    let after = before.replace("n < 5", "n <= 5");
    std::fs::write(&path, &after).unwrap();
    let post = json!({"hook_event_name": "PostToolUse", "session_id": "s1", "cwd": ws.root(), "prompt_id": "p1", "tool_name": "Edit",
        "tool_input": {"file_path": path, "old_string": "<", "new_string": "<=", "mutation_class": "AST_REFACTOR"},
        "tool_use_id": "t-e1", "tool_response": {"filePath": path, "originalFile": before}});
    let (reply, _) = hook(&ws, post.to_string().as_bytes());
    assert_eq!(reply, json!({}), "recorded only, by default");
    let trace = last_trace(&ws);
    assert_eq!(trace.data["declared_matches"], false);
    assert!(
        trace.data["declared_mismatch"]
            .as_str()
            .unwrap()
            .contains("allowed"),
        "{}",
        trace.data["declared_mismatch"]
    );

    std::fs::write(
        ws.root().join(".orchestration/policy.yaml"),
        "declared_class_mismatch: block\n",
    )
    .unwrap();
    let mut again = post.clone();
    again["tool_use_id"] = json!("t-e2");
    again["prompt_id"] = json!("p2");
    let (reply, _) = hook(&ws, again.to_string().as_bytes());
    assert_eq!(reply["decision"], "block", "{reply}");
    assert!(
        reply["reason"]
            .as_str()
            .unwrap()
            .contains("declared AST_REFACTOR"),
        "{reply}"
    );
}

#[test]
fn a_write_without_the_old_content_is_classified_from_the_text_of_the_last_trace() {
    let ws = workspace();
    assert!(ws
        .run(&["select", "INT-001", "--session", "s1"], None)
        .status
        .success());
    let v1 = "export function area(w: number, h: number) {\n  const a = w * h;\n  return a;\n}\n";
    traced_write(&ws, "p1", "src/geo.ts", v1, "g1");
    // The front-end reports no originalFile (as apply_patch-style tools may not).
    let path = ws.root().join("src/geo.ts");
    let v2 = "export function area(w: number, h: number) {\n  const product = w * h; // renamed\n  return product;\n}\n";
    std::fs::write(&path, v2).unwrap();
    let post = json!({"hook_event_name": "PostToolUse", "session_id": "s1", "cwd": ws.root(), "prompt_id": "p2",
        "tool_name": "Write", "tool_input": {"file_path": path, "content": v2}, "tool_use_id": "g2", "tool_response": {"type": "update"}});
    hook(&ws, post.to_string().as_bytes());
    let trace = last_trace(&ws);
    assert_eq!(
        trace.data["classification"]["method"], "ast",
        "{}",
        trace.data
    );
    assert_eq!(trace.data["mutation_class"], "AST_REFACTOR");
    assert_eq!(
        trace.data["before_sha256"],
        intent_gate::bytes_sha256(v1.as_bytes())
    );
    assert_eq!(
        trace.data["ranges"][0]["start_line"], 2,
        "a real diff, not the whole file"
    );

    // Without the cached text (e.g. .cache deleted) the text rules decide, and say so.
    std::fs::remove_dir_all(ws.root().join(".orchestration/.cache/texts")).unwrap();
    let v3 = v2.replace("w * h", "w * h * 2");
    std::fs::write(&path, &v3).unwrap();
    let mut post3 = post.clone();
    post3["tool_use_id"] = json!("g3");
    post3["prompt_id"] = json!("p3");
    hook(&ws, post3.to_string().as_bytes());
    let trace = last_trace(&ws);
    assert_eq!(
        trace.data["classification"]["method"], "text",
        "{}",
        trace.data
    );
    assert_eq!(
        trace.data["classification"]["rule"],
        "text:content-changed-no-diff"
    );
    assert_eq!(trace.data["mutation_class"], "INTENT_EVOLUTION");
}

/// `intent init --agent` never writes a build path into shared configuration: with
/// no `intent` on PATH it writes plain `intent` and says how to install it.
#[test]
fn init_agent_never_writes_a_build_path() {
    let ws = TestWorkspace::empty();
    let out = ws
        .command(&["--json", "init", "--agent", "claude-code"])
        .env("PATH", "/usr/bin:/bin")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let body: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(body["hook_command"], "intent");
    assert!(
        body["hook_command_note"]
            .as_str()
            .is_some_and(|n| n.contains("cargo install --path cli")),
        "{body}"
    );
    let settings = std::fs::read_to_string(ws.root().join(".claude/settings.json")).unwrap();
    assert!(!settings.contains("/target/"), "{settings}");
    assert!(
        settings.contains("\"intent hook claude-code\""),
        "{settings}"
    );
}

/// `INTENT_HOOK_TIMINGS=1` says where a hook's time went, on stderr, without
/// changing its reply; without it, stderr stays empty.
#[test]
fn hook_timings_are_printed_on_request_only() {
    // The in-process phases (lock, load state, …); through a helper the client
    // and the helper each print their spans (test_helper.rs).
    let ws = workspace().in_process();
    let root = ws.root().display().to_string();
    let payload = json!({"hook_event_name": "PreToolUse", "session_id": "s1", "cwd": root,
        "tool_name": "Read", "tool_input": {"file_path": format!("{root}/README.md")}});
    let bytes = payload.to_string();
    let quiet = ws.run(&["hook", "claude-code"], Some(bytes.as_bytes()));
    assert!(quiet.stderr.is_empty(), "{}", stderr(&quiet));
    let mut timed = ws.command(&["hook", "claude-code"]);
    timed.env("INTENT_HOOK_TIMINGS", "1");
    let mut child = timed.spawn().unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), bytes.as_bytes()).unwrap();
    let timed = child.wait_with_output().unwrap();
    assert_eq!(timed.stdout, quiet.stdout, "the reply is the same");
    let line = stderr(&timed);
    let report: Value =
        serde_json::from_str(line.trim().trim_start_matches("intent hook: ")).unwrap();
    let labels: Vec<&str> = report["timings_ms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|span| span[0].as_str().unwrap())
        .collect();
    for phase in [
        "read payload",
        "lock",
        "load state",
        "specs",
        "work",
        "commit",
    ] {
        assert!(labels.contains(&phase), "{phase} missing from {labels:?}");
    }
}
