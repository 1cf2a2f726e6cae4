//! The demo's Claude-Code-shaped session: real `intent hook claude-code` processes
//! fed the payloads Claude Code sends, with their replies shown.

use intent_ledger::payload::Trace;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::Context;
use serde_json::{json, Value};

use super::say;
use crate::engine::context::clip;

/// Plays one session against the workspace at `root` with the `intent` binary `bin`.
pub fn play(bin: &Path, root: &Path) -> anyhow::Result<()> {
    let session = "demo-7f3a";
    let base = |event: &str| json!({"session_id": session, "cwd": root, "hook_event_name": event, "transcript_path": root.join(".demo-transcript.jsonl")});
    std::fs::write(
        root.join(".demo-transcript.jsonl"),
        "{\"message\":{\"model\":\"claude-sonnet-4-5\"}}\n",
    )?;
    let jwt = root.join("src/auth/jwt.ts");
    let tool = |event: &str, name: &str, input: Value, id: &str| {
        let mut payload = base(event);
        payload["tool_name"] = json!(name);
        payload["tool_input"] = input;
        payload["tool_use_id"] = json!(id);
        payload
    };

    say("SessionStart");
    show(&run(bin, root, &{
        let mut p = base("SessionStart");
        p["source"] = json!("startup");
        p
    })?);

    say("PreToolUse Write src/auth/jwt.ts, before selecting an intent");
    show(&run(
        bin,
        root,
        &tool(
            "PreToolUse",
            "Write",
            json!({"file_path": jwt, "content": "…"}),
            "toolu_01",
        ),
    )?);

    say("mcp__intent__select_active_intent INT-001 (PreToolUse, then PostToolUse)");
    let select = tool(
        "PreToolUse",
        "mcp__intent__select_active_intent",
        json!({"intent_id": "INT-001"}),
        "toolu_02",
    );
    show(&run(bin, root, &select)?);
    let mut post = select.clone();
    post["hook_event_name"] = json!("PostToolUse");
    post["tool_response"] = json!([{"type": "text", "text": "<intent_context …>"}]);
    show(&run(bin, root, &post)?);

    say("UserPromptSubmit: the active intent's context rides along with every prompt");
    show(&run(bin, root, &{
        let mut p = base("UserPromptSubmit");
        p["prompt"] = json!("Add token expiry to verify()");
        p["prompt_id"] = json!("prompt-1");
        p
    })?);

    say("PreToolUse Write src/auth/jwt.ts, in scope");
    let content =
        "export function verify(token: string): boolean {\n  return token.length > 0;\n}\n";
    let write = tool(
        "PreToolUse",
        "Write",
        json!({"file_path": jwt, "content": content}),
        "toolu_03",
    );
    show(&run(bin, root, &write)?);
    std::fs::create_dir_all(jwt.parent().expect("has parent"))?;
    std::fs::write(&jwt, content)?;
    let mut post = write.clone();
    post["hook_event_name"] = json!("PostToolUse");
    post["tool_response"] = json!({"type": "create", "filePath": jwt, "originalFile": null});
    say("PostToolUse Write (the file was written): traced with hashes");
    show(&run(bin, root, &post)?);

    say("PreToolUse Write src/billing/invoice.ts, outside INT-001's scope");
    show(&run(
        bin,
        root,
        &tool(
            "PreToolUse",
            "Write",
            json!({"file_path": root.join("src/billing/invoice.ts"), "content": "…"}),
            "toolu_04",
        ),
    )?);

    say("Read src/auth/jwt.ts, then someone else edits it, then PreToolUse Edit");
    let read = tool("PreToolUse", "Read", json!({"file_path": jwt}), "toolu_05");
    run(bin, root, &read)?;
    let mut post = read.clone();
    post["hook_event_name"] = json!("PostToolUse");
    post["tool_response"] = json!({"type": "text", "file": {"filePath": jwt}});
    run(bin, root, &post)?;
    std::fs::write(&jwt, format!("{content}// edited by a teammate\n"))?;
    show(&run(
        bin,
        root,
        &tool(
            "PreToolUse",
            "Edit",
            json!({"file_path": jwt, "old_string": "> 0", "new_string": "> 10"}),
            "toolu_06",
        ),
    )?);

    say("The agent reads the file again, as the reason told it to (Read: PreToolUse, PostToolUse)");
    run(bin, root, &read)?;
    run(bin, root, &post)?;

    say("Turn 2 (an evolution): verify() changes behaviour and a helper expiresAt() is added");
    let turn2 = "export function verify(token: string): boolean {\n  const value = token.trim();\n  return value.length > 10;\n}\n\nfunction expiresAt(issuedAt: number): number {\n  return issuedAt + 900;\n}\n";
    write_in_turn(
        bin,
        root,
        session,
        "prompt-2",
        "src/auth/jwt.ts",
        turn2,
        "toolu_20",
    )?;
    say("  … and a Python script (blocks, like TypeScript) and its Markdown notes (no grammar: `why` follows the lines)");
    let rotate_v1 =
        "import secrets\n\n\ndef rotate(keys):\n    return keys + [secrets.token_hex(16)]\n";
    let rotate_v2 = "import secrets\n\n\ndef rotate(keys, keep=3):\n    return (keys + [secrets.token_hex(16)])[-keep:]\n";
    let notes = "# Auth notes\n\nTokens shorter than 11 characters are refused.\nKeys rotate daily; the newest 3 are kept.\n";
    for (rel, text, id) in [
        ("src/auth/rotate.py", rotate_v1, "toolu_21"),
        ("src/auth/NOTES.md", notes, "toolu_22"),
        ("src/auth/rotate.py", rotate_v2, "toolu_23"),
    ] {
        write_in_turn(bin, root, session, "prompt-2", rel, text, id)?;
    }

    say("Turn 3 (a refactor): rename a local in verify() and move the helper to its own file");
    let turn3 = "export function verify(token: string): boolean {\n  const trimmed = token.trim();\n  return trimmed.length > 10;\n}\n";
    write_in_turn(
        bin,
        root,
        session,
        "prompt-3",
        "src/auth/jwt.ts",
        turn3,
        "toolu_30",
    )?;
    let expiry = "function expiresAt(issuedAt: number): number {\n  return issuedAt + 900;\n}\n";
    write_in_turn(
        bin,
        root,
        session,
        "prompt-3",
        "src/auth/expiry.ts",
        expiry,
        "toolu_31",
    )?;
    say("  (the first write alone looked like a deletion; with the second, the turn is a move)");

    say("PreToolUse Bash `rm -rf .`");
    show(&run(
        bin,
        root,
        &tool(
            "PreToolUse",
            "Bash",
            json!({"command": "rm -rf ."}),
            "toolu_07",
        ),
    )?);
    say("PreToolUse Bash `git status` (read-only)");
    show(&run(
        bin,
        root,
        &tool(
            "PreToolUse",
            "Bash",
            json!({"command": "git status"}),
            "toolu_08",
        ),
    )?);

    say("An agent trying to get around the gate (shell parsed with tree-sitter-bash):");
    for (command, id) in [
        (
            "cd src/auth && echo '{}' >> ../../.orchestration/agent_trace.jsonl",
            "toolu_40",
        ),
        ("timeout 5 sed -i s/a/b/ src/billing/invoice.ts", "toolu_41"),
        ("bash -c 'intent status INT-001 DONE'", "toolu_42"),
        ("echo / | xargs rm -rf", "toolu_43"),
    ] {
        say(&format!("  Bash `{command}`"));
        show(&run(
            bin,
            root,
            &tool("PreToolUse", "Bash", json!({"command": command}), id),
        )?);
    }
    say("  mcp__fs__write_file {path: src/billing/invoice.ts} (another MCP server's tool)");
    show(&run(
        bin,
        root,
        &tool(
            "PreToolUse",
            "mcp__fs__write_file",
            json!({"path": "src/billing/invoice.ts", "content": "…"}),
            "toolu_44",
        ),
    )?);

    say("A script whose effects cannot be known: allowed under INT-001, checked after it ran");
    std::fs::create_dir_all(root.join("tools"))?;
    std::fs::write(
        root.join("tools/gen.sh"),
        "mkdir -p docs && echo '# notes' > docs/notes.md\n",
    )?;
    let script = tool(
        "PreToolUse",
        "Bash",
        json!({"command": "sh tools/gen.sh"}),
        "toolu_45",
    );
    show(&run(bin, root, &script)?);
    let status = Command::new("sh")
        .arg("tools/gen.sh")
        .current_dir(root)
        .status()?;
    let mut post = script.clone();
    post["hook_event_name"] = json!("PostToolUse");
    post["tool_response"] =
        json!({"stdout": "", "stderr": "", "interrupted": false, "isImage": false});
    say(&format!(
        "  PostToolUse (the script ran, exit {}): docs/notes.md is outside INT-001",
        status.code().unwrap_or(-1)
    ));
    show(&run(bin, root, &post)?);

    say("A prompt holding a secret: the ledger keeps it redacted");
    run(bin, root, &{
        let mut p = base("UserPromptSubmit");
        p["prompt"] = json!("Deploy with STRIPE_KEY=sk_live_4eC39HqLyjWDarjtT1zdp7dc now");
        p["prompt_id"] = json!("prompt-4");
        p
    })?;
    let ledger = std::fs::read_to_string(root.join(".orchestration/agent_trace.jsonl"))?;
    let stored = ledger
        .lines()
        .rev()
        .find(|l| l.contains("\"prompt-4\""))
        .and_then(|l| serde_json::from_str::<Value>(l).ok())
        .and_then(|e| {
            e["data"]["text"]
                .as_str()
                .or(e["data"]["prompt"].as_str())
                .map(str::to_string)
        })
        .unwrap_or_default();
    say(&format!("  stored: {}", clip(&stored, 140)));

    say("Stop");
    show(&run(bin, root, &base("Stop"))?);

    let lessons =
        std::fs::read_to_string(root.join(".orchestration/lessons.md")).unwrap_or_default();
    say("the lessons, in the next session's context and in the generated .orchestration/lessons.md (untracked):");
    for line in lessons.lines().filter(|l| l.starts_with("- ")) {
        say(&format!("  {}", clip(line, 150)));
    }
    Ok(())
}

/// One Write of a turn, as Claude Code does it: PreToolUse, the write, PostToolUse;
/// then the classification the trace recorded.
fn write_in_turn(
    bin: &Path,
    root: &Path,
    session: &str,
    prompt_id: &str,
    rel: &str,
    content: &str,
    id: &str,
) -> anyhow::Result<()> {
    let path = root.join(rel);
    let mut payload = json!({"session_id": session, "cwd": root, "hook_event_name": "PreToolUse", "prompt_id": prompt_id,
        "tool_name": "Write", "tool_input": {"file_path": path, "content": content}, "tool_use_id": id});
    let reply = run(bin, root, &payload)?;
    anyhow::ensure!(
        reply["hookSpecificOutput"]["permissionDecision"].is_null(),
        "the demo write was refused: {reply}"
    );
    let original = std::fs::read_to_string(&path).ok();
    std::fs::write(&path, content)?;
    payload["hook_event_name"] = json!("PostToolUse");
    payload["tool_response"] = json!({"type": if original.is_some() { "update" } else { "create" }, "filePath": path, "originalFile": original});
    run(bin, root, &payload)?;
    let ledger = root.join(".orchestration/agent_trace.jsonl");
    let trace = intent_ledger::ReverseLineReader::open(&ledger)?
        .filter_map(Result::ok)
        .filter_map(|line| line.parse(&ledger).ok())
        .find_map(|e| e.payload::<Trace>())
        .context("no trace recorded")?;
    let blocks: Vec<String> = trace
        .blocks()
        .iter()
        .map(|b| {
            let name = b.current().map_or("?", |side| side.name.as_str());
            format!("{} {name}", b.event)
        })
        .collect();
    say(&format!(
        "  trace {rel}: {} — {} [{}]",
        trace.mutation_class,
        clip(trace.classification.reason.as_deref().unwrap_or(""), 90),
        blocks.join(", ")
    ));
    Ok(())
}

pub(super) fn run(bin: &Path, root: &Path, payload: &Value) -> anyhow::Result<Value> {
    let mut child = Command::new(bin)
        .args(["hook", "claude-code"])
        .env("CLAUDE_PROJECT_DIR", root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .context("cannot start `intent hook claude-code`")?;
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(payload.to_string().as_bytes())?;
    let out = child.wait_with_output()?;
    serde_json::from_slice(&out.stdout).context("the hook printed no JSON")
}

/// Prints a hook reply in one or two lines.
/// The `type` of the structured reason inside a refusal's text.
pub(super) fn reason_kind(text: &str) -> &str {
    text.find("{\"type\":\"")
        .map(|i| &text[i + 9..])
        .and_then(|rest| rest.split('"').next())
        .unwrap_or("?")
}

pub(super) fn show(reply: &Value) {
    let out = &reply["hookSpecificOutput"];
    if let Some(decision) = out["permissionDecision"].as_str() {
        let text = out["permissionDecisionReason"].as_str().unwrap_or_default();
        let kind = reason_kind(text);
        let sentence = text.lines().next().unwrap_or_default();
        say(&format!("  → {decision} [{kind}] {}", clip(sentence, 140)));
    } else if let Some(context) = out["additionalContext"].as_str() {
        say(&format!(
            "  → allow, with context: {}",
            clip(&context.replace('\n', " "), 140)
        ));
    } else {
        say("  → allow (no objection; Claude Code's own permissions apply)");
    }
}
