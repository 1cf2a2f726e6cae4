//! The after-the-fact check of shell commands (issue #13, items 3 and 10): real hook
//! processes around a command really run between PreToolUse and PostToolUse. The
//! commands run scripts, whose effects no gate can see beforehand.

use std::path::Path;
use std::process::Command;

use serde_json::{json, Value};

use crate::common::{assert_state_equals_rebuild, hook, traced_write, TestWorkspace, SRC_INTENT};

/// A workspace with INT-001 (`src/**`) selected by session `s1`, its prompt `p1`
/// submitted, and `git` initialized and committed when asked.
fn workspace(git: bool) -> TestWorkspace {
    let ws = TestWorkspace::new();
    let root = ws.root();
    std::fs::write(root.join(".orchestration/active_intents.yaml"), SRC_INTENT).unwrap();
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::create_dir_all(root.join("scripts")).unwrap();
    std::fs::write(root.join("src/a.ts"), "export const a = 1;\n").unwrap();
    if git {
        std::fs::write(root.join(".gitignore"), "build/\nsrc/gen/\n").unwrap();
        run_git(root, &["init", "-q"]);
        run_git(root, &["add", "-A"]);
        run_git(
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
    }
    let out = ws.run(&["select", "INT-001", "--session", "s1"], None);
    assert!(out.status.success());
    let prompt = json!({"hook_event_name": "UserPromptSubmit", "session_id": "s1", "cwd": root,
        "prompt_id": "p1", "prompt": "do it"});
    hook(&ws, prompt.to_string().as_bytes());
    ws
}

fn run_git(root: &Path, args: &[&str]) {
    intent_test_support::git::run(root, args);
}

/// Writes `scripts/<name>.sh` with `body`, then runs `sh scripts/<name>.sh` as Claude
/// Code would: PreToolUse (must allow), the command, PostToolUse. Returns the
/// PostToolUse reply.
fn shell(ws: &TestWorkspace, use_id: &str, name: &str, body: &str) -> Value {
    let root = ws.root();
    std::fs::write(root.join(format!("scripts/{name}.sh")), body).unwrap();
    let command = format!("sh scripts/{name}.sh");
    let mut payload = json!({"hook_event_name": "PreToolUse", "session_id": "s1", "cwd": root,
        "prompt_id": "p1", "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": use_id});
    let (reply, _) = hook(ws, payload.to_string().as_bytes());
    assert_eq!(reply, json!({}), "the gate lets `{command}` run");
    let status = Command::new("sh")
        .args(["-c", &command])
        .current_dir(root)
        .status()
        .unwrap();
    assert!(status.success());
    payload["hook_event_name"] = json!("PostToolUse");
    payload["tool_response"] = json!({"stdout": "", "stderr": "", "interrupted": false});
    hook(ws, payload.to_string().as_bytes()).0
}

/// The `tool.post` event of a tool use.
fn tool_post(ws: &TestWorkspace, use_id: &str) -> Value {
    ws.events()
        .into_iter()
        .find(|e| e.kind == "tool.post" && e.data["tool_use_id"] == use_id)
        .expect("a tool.post event")
        .data
}

/// The traces of a tool use, by path.
fn traces(ws: &TestWorkspace, use_id: &str) -> Vec<Value> {
    ws.events()
        .into_iter()
        .filter(|e| e.kind == "trace" && e.data["tool_use_id"] == use_id)
        .map(|e| e.data)
        .collect()
}

fn paths(traces: &[Value]) -> Vec<&str> {
    traces.iter().map(|t| t["path"].as_str().unwrap()).collect()
}

fn context(reply: &Value) -> &str {
    reply["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or_default()
}

#[test]
fn an_out_of_scope_write_is_a_violation_told_to_the_agent_and_a_lesson() {
    let ws = workspace(true);
    let reply = shell(
        &ws,
        "t-out",
        "notes",
        "mkdir -p docs && echo hi > docs/notes.md && echo 'export const b = 2;' > src/b.ts\n",
    );
    let post = tool_post(&ws, "t-out");
    assert_eq!(post["violation"]["type"], "scope_violation");
    assert_eq!(post["violation"]["intent_id"], "INT-001");
    assert_eq!(post["violation"]["paths"], json!(["docs/notes.md"]));
    assert_eq!(post["violation"]["count"], 1);
    assert_eq!(post["changes"]["created"], 2);
    // Both files are traced; the one outside the scope says so.
    let traces = traces(&ws, "t-out");
    assert_eq!(paths(&traces), ["docs/notes.md", "src/b.ts"]);
    assert_eq!(traces[0]["violation"], "scope_violation");
    assert_eq!(traces[1].get("violation"), None);
    assert_eq!(traces[1]["classification"]["method"], "ast");
    // The agent hears it in the reply to this very PostToolUse …
    let told = context(&reply);
    // (XML-escaped, like every `<intent_ledger>` block)
    assert!(
        told.contains("outside INT-001&apos;s owned_scope"),
        "{told}"
    );
    assert!(told.contains("docs/notes.md"), "{told}");
    // … and the lesson stays, in the ledger and in the generated lessons file.
    let lesson = ws
        .events()
        .into_iter()
        .rev()
        .find(|e| e.kind == "lesson")
        .expect("a lesson");
    assert_eq!(lesson.data["origin"], "shell");
    assert!(lesson.data["text"]
        .as_str()
        .unwrap()
        .contains("docs/notes.md"));
    let lessons = std::fs::read_to_string(ws.root().join(".orchestration/lessons.md")).unwrap();
    assert!(lessons.contains("docs/notes.md"), "{lessons}");
    assert!(!ws.root().join(".orchestration/CLAUDE.md").exists());
    assert_state_equals_rebuild(&ws);
}

#[test]
fn protected_files_changed_by_a_command_are_a_policy_block_and_not_traced() {
    let ws = workspace(true);
    let reply = shell(
        &ws,
        "t-prot",
        "tamper",
        "echo '# widened' >> .orchestration/active_intents.yaml\n\
         printf '#!/bin/sh\\nexit 0\\n' > .git/hooks/pre-commit\n\
         mkdir -p .claude && echo '{}' > .claude/settings.local.json\n",
    );
    let post = tool_post(&ws, "t-prot");
    assert_eq!(post["violation"]["type"], "policy_block");
    assert_eq!(
        post["violation"]["paths"],
        json!([
            ".claude/settings.local.json",
            ".git/hooks/pre-commit",
            ".orchestration/active_intents.yaml"
        ])
    );
    let files = post["violation"]["files"].as_array().unwrap();
    let spec = &files[2];
    assert!(spec["before_sha256"]
        .as_str()
        .unwrap()
        .starts_with("sha256:"));
    assert_ne!(spec["before_sha256"], spec["after_sha256"]);
    assert!(
        traces(&ws, "t-prot").is_empty(),
        "protected files are not traced as writes"
    );
    let told = context(&reply);
    assert!(told.contains("protected"), "{told}");
    assert!(told.contains(".git/hooks/pre-commit"), "{told}");
}

#[test]
fn the_generated_lessons_file_is_intents_own_and_claude_md_is_protected_like_any_spec() {
    let ws = workspace(false);
    // A first violation writes the generated lessons file.
    shell(&ws, "t-1", "one", "echo x > outside.txt\n");
    let lessons = ws.root().join(".orchestration/lessons.md");
    assert!(lessons.exists());
    // Hooks rewrite it while commands run: a change to it is no violation …
    shell(
        &ws,
        "t-2",
        "two",
        "echo '- another lesson' >> .orchestration/lessons.md && echo 'export const c = 3;' > src/c.ts\n",
    );
    assert_eq!(tool_post(&ws, "t-2").get("violation"), None);
    // … while `.orchestration/CLAUDE.md`, which a person publishes lessons into and
    // no hook writes any more, is Intent Ledger's data like the specs.
    std::fs::write(ws.root().join(".orchestration/CLAUDE.md"), "- published\n").unwrap();
    shell(&ws, "t-3", "three", ": > .orchestration/CLAUDE.md\n");
    let post = tool_post(&ws, "t-3");
    assert_eq!(post["violation"]["type"], "policy_block");
    assert_eq!(
        post["violation"]["paths"],
        json!([".orchestration/CLAUDE.md"])
    );
    // A CLAUDE.md at the root is an ordinary file of the workspace (here outside
    // INT-001's scope).
    shell(&ws, "t-4", "four", "echo '# notes' > CLAUDE.md\n");
    let post = tool_post(&ws, "t-4");
    assert_eq!(post["violation"]["type"], "scope_violation", "{post}");
}

#[test]
fn ignored_files_are_seen() {
    let ws = workspace(true);
    shell(
        &ws,
        "t-ign",
        "build",
        "mkdir -p src/gen build && echo 'export const g = 1;' > src/gen/g.ts && echo x > build/out.js\n",
    );
    let traces = traces(&ws, "t-ign");
    assert_eq!(paths(&traces), ["build/out.js", "src/gen/g.ts"]);
    let post = tool_post(&ws, "t-ign");
    assert_eq!(post["violation"]["type"], "scope_violation");
    assert_eq!(post["violation"]["paths"], json!(["build/out.js"]));
    assert_eq!(post["changes"]["git"], true);
}

#[test]
fn changes_are_seen_without_git() {
    let ws = workspace(false);
    assert!(!ws.root().join(".git").exists());
    // A traced write leaves the hash (and text) the session knows of src/a.ts.
    let written = traced_write(&ws, "p1", "src/a.ts", "export const a = 10;\n", "t-w");
    std::fs::write(ws.root().join("src/old.ts"), "export const o = 1;\n").unwrap();
    // src/old.ts existed before the baseline, unknown to any session.
    let reply = shell(
        &ws,
        "t-nogit",
        "edit",
        "echo 'export const a = 11;' > src/a.ts && echo 'export const n = 1;' > src/n.ts && rm src/old.ts\n",
    );
    assert_eq!(reply, json!({}), "all in scope");
    let post = tool_post(&ws, "t-nogit");
    assert_eq!(
        (
            &post["changes"]["created"],
            &post["changes"]["modified"],
            &post["changes"]["deleted"]
        ),
        (&json!(1), &json!(1), &json!(1))
    );
    assert_eq!(post["changes"]["git"], false);
    let traces = traces(&ws, "t-nogit");
    assert_eq!(paths(&traces), ["src/a.ts", "src/n.ts", "src/old.ts"]);
    // Without git, the old hash of src/a.ts is the one the session last wrote.
    assert_eq!(traces[0]["before_sha256"], written.data["after_sha256"]);
    assert_eq!(traces[2]["after_sha256"], Value::Null);
    assert_eq!(traces[2]["classification"]["rule"], "text:file-deleted");
    assert_state_equals_rebuild(&ws);
}

#[test]
fn an_in_scope_command_is_traced_without_a_violation() {
    let ws = workspace(true);
    let reply = shell(
        &ws,
        "t-in",
        "edit",
        "printf 'export const a = 2;\\nexport function f() { return a; }\\n' > src/a.ts\n",
    );
    assert_eq!(reply, json!({}));
    let post = tool_post(&ws, "t-in");
    assert_eq!(post.get("violation"), None);
    assert_eq!(post["changes"]["modified"], 1);
    let traces = traces(&ws, "t-in");
    assert_eq!(paths(&traces), ["src/a.ts"]);
    let trace = &traces[0];
    assert_eq!(trace["intent_id"], "INT-001");
    assert_eq!(trace.get("violation"), None);
    // The committed content is the old text: a real diff and AST classification.
    assert_eq!(
        trace["before_sha256"],
        json!(intent_gate::bytes_sha256(b"export const a = 1;\n"))
    );
    assert_eq!(trace["classification"]["method"], "ast");
    assert_eq!(trace["mutation_class"], "INTENT_EVOLUTION");
    let events: Vec<&str> = trace["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["event"].as_str().unwrap())
        .collect();
    assert!(events.contains(&"created"), "f() is new: {events:?}");
}

#[test]
fn a_second_big_command_in_a_turn_grows_the_ledger_by_the_same_amount() {
    let ws = workspace(true);
    let size = || std::fs::metadata(ws.ledger()).unwrap().len();
    let start = size();
    let generate = |dir: &str| {
        format!(
            "mkdir -p src/{dir} && i=0; while [ $i -lt 2000 ]; do \
             printf 'export function f%d(a: number) {{\\n  return a + %d;\\n}}\\n' $i $i > src/{dir}/f$i.ts; \
             i=$((i+1)); done\n"
        )
    };
    shell(&ws, "t-big1", "gen1", &generate("one"));
    let first = size();
    shell(&ws, "t-big2", "gen2", &generate("two"));
    let second = size();
    for id in ["t-big1", "t-big2"] {
        let post = tool_post(&ws, id);
        assert_eq!(post["changes"]["created"], 2000, "{post}");
        assert_eq!(post["changes"]["traced"], 2000, "{post}");
        assert_eq!(traces(&ws, id).len(), 2000);
    }
    let (grew_first, grew_second) = (first - start, second - first);
    assert!(
        (second as f64) < 2.5 * first as f64,
        "ledger {start} → {first} → {second} bytes"
    );
    assert!(
        (grew_second as f64) < 1.25 * grew_first as f64,
        "the second command added {grew_second} bytes, the first {grew_first}"
    );
    assert_state_equals_rebuild(&ws);
}

#[test]
fn git_settings_are_protected_but_branch_tracking_is_not() {
    let ws = workspace(true);
    shell(
        &ws,
        "t-branch",
        "track",
        "git config branch.master.description 'agent work' && git config branch.main.description 'agent work'\n",
    );
    assert_eq!(tool_post(&ws, "t-branch").get("violation"), None);
    shell(
        &ws,
        "t-hooks",
        "hooks",
        "git config core.hooksPath /tmp/elsewhere\n",
    );
    let post = tool_post(&ws, "t-hooks");
    assert_eq!(post["violation"]["type"], "policy_block");
    assert_eq!(post["violation"]["paths"], json!([".git/config"]));
}

#[test]
fn a_read_only_command_takes_no_baseline() {
    let ws = workspace(true);
    let root = ws.root();
    let mut payload = json!({"hook_event_name": "PreToolUse", "session_id": "s1", "cwd": root,
        "prompt_id": "p1", "tool_name": "Bash", "tool_input": {"command": "ls src"}, "tool_use_id": "t-ls"});
    assert_eq!(hook(&ws, payload.to_string().as_bytes()).0, json!({}));
    assert!(!root.join(".orchestration/.cache/shell/t-ls.bin").exists());
    payload["hook_event_name"] = json!("PostToolUse");
    payload["tool_response"] = json!({"stdout": "a.ts\n", "stderr": "", "interrupted": false});
    assert_eq!(hook(&ws, payload.to_string().as_bytes()).0, json!({}));
    assert_eq!(tool_post(&ws, "t-ls")["changes_detected"], false);
}
