//! The demo's front-end tour: one small session replayed through Codex's, Gemini
//! CLI's, GitHub Copilot CLI's, Qwen Code's, OpenCode's, Kilo Code's, Factory Droid's
//! and Windsurf's native hook payloads (`intent hook codex`, `intent hook gemini`,
//! `intent hook copilot --event …`, `intent hook qwen-code`, what the plugin sends
//! `intent hook opencode` and `intent hook kilo-code`, `intent hook droid`, `intent
//! hook windsurf`), and through the example external adapter (`intent hook example`,
//! when this source tree's `docs/examples/` and `python3` are there), each into a
//! workspace of its own; the ledgers come out the same.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::Context;
use serde_json::{json, Value};

use super::say;

/// Replays the session through each front-end and compares the ledgers.
pub fn replay(bin: &Path, root: &Path) -> anyhow::Result<()> {
    let mut ledgers = Vec::new();
    let mut front_ends = vec![
        "codex",
        "gemini",
        "copilot",
        "qwen-code",
        "opencode",
        "droid",
        "windsurf",
        "kilo-code",
    ];
    let example = example_adapter();
    match &example {
        Some(_) => front_ends.push("example"),
        None => say(
            "example: skipped (the example external adapter needs this source tree's \
             docs/examples/ and python3)",
        ),
    }
    for fe in front_ends {
        let ws = super::side_dir(root, fe);
        let _ = std::fs::remove_dir_all(&ws);
        std::fs::create_dir_all(&ws)?;
        // An external adapter's agent is wired by its own installer: only the
        // workspace is created here.
        let init: &[&str] = if fe == "example" {
            &["init"]
        } else {
            &["init", "--agent", fe]
        };
        let out = Command::new(bin)
            .env("PATH", super::path_with(bin))
            .arg("--workspace")
            .arg(&ws)
            .args(init)
            .output()
            .context("cannot run `intent init`")?;
        anyhow::ensure!(out.status.success(), "intent {} failed", init.join(" "));
        std::fs::copy(
            root.join(".orchestration/active_intents.yaml"),
            ws.join(".orchestration/active_intents.yaml"),
        )?;
        say(&format!(
            "{fe}: `intent {}` wired {} ({})",
            init.join(" "),
            ws.display(),
            match fe {
                "codex" => ".codex/hooks.json, .codex/config.toml",
                "gemini" => ".gemini/settings.json",
                "qwen-code" => ".qwen/settings.json",
                "opencode" => ".opencode/plugin/intent-ledger.js",
                "droid" => ".factory/hooks.json, .factory/mcp.json",
                "windsurf" => ".windsurf/hooks.json",
                "kilo-code" => ".kilo/plugins/intent-ledger.js",
                "example" =>
                    "nothing: its agent runs `intent hook example`, which runs \
                              intent-adapter-example from PATH",
                _ => ".github/hooks/intent.json",
            }
        ));
        let session = Session {
            bin,
            ws: &ws,
            fe,
            adapter_dir: example.as_deref(),
        };
        session.write(
            "src/auth/jwt.ts",
            "export const ttl = 900;\n",
            "before an intent",
        )?;
        session.select("INT-001")?;
        session.write("src/auth/jwt.ts", "export const ttl = 900;\n", "in scope")?;
        session.write("docs/notes.md", "notes\n", "out of scope")?;
        ledgers.push(essence(&ws.join(".orchestration/agent_trace.jsonl"))?);
        if fe == "codex" {
            say("$ intent doctor   # specs, ledger, hook wiring, projections");
            let out = Command::new(bin)
                .env("PATH", super::path_with(bin))
                .arg("--workspace")
                .arg(&ws)
                .arg("doctor")
                .output()
                .context("cannot run `intent doctor`")?;
            for line in String::from_utf8_lossy(&out.stdout).lines().skip(1) {
                say(&format!("  {line}"));
            }
        }
    }
    say(&format!(
        "ledgers, reduced to decisions, reasons, traces and intents: identical = {}",
        ledgers.windows(2).all(|pair| pair[0] == pair[1])
    ));
    for line in &ledgers[0] {
        say(&format!("  {line}"));
    }
    Ok(())
}

struct Session<'a> {
    bin: &'a Path,
    ws: &'a Path,
    fe: &'a str,
    /// Where `intent-adapter-example` is, put on the hook's PATH.
    adapter_dir: Option<&'a Path>,
}

/// The example external adapter's directory in the source tree this `intent` was
/// built from, when it is still there and `python3` runs it.
fn example_adapter() -> Option<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()?
        .join("docs/examples/intent-adapter-example");
    let python = Command::new("python3")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    (dir.join("intent-adapter-example").is_file() && python.is_ok_and(|s| s.success()))
        .then_some(dir)
}

impl Session<'_> {
    fn payload(&self, post: bool, tool: &str, input: &Value) -> Value {
        let ws = self.ws.display().to_string();
        if self.fe == "codex" {
            let mut p = json!({"hook_event_name": if post {"PostToolUse"} else {"PreToolUse"},
                "session_id": "019a-demo", "turn_id": "turn-1", "model": "gpt-5.5", "cwd": ws,
                "tool_name": tool, "tool_input": input, "tool_use_id": format!("call_{tool}")});
            if post {
                p["tool_response"] = json!("Exit code: 0\nOutput:\nSuccess.");
            }
            p
        } else if matches!(self.fe, "opencode" | "kilo-code") {
            // What the plugin hands over: OpenCode's hook arguments (Kilo Code's are
            // the same), naming the CLI that loaded it.
            let call =
                json!({"tool": tool, "sessionID": "ses_demo", "callID": format!("call_{tool}")});
            let mut p = json!({"hook": if post {"tool.execute.after"} else {"tool.execute.before"},
                "frontEnd": self.fe, "directory": ws, "worktree": ws,
                "model": "anthropic/claude-sonnet-4-5", "input": call});
            if post {
                p["input"]["args"] = input.clone();
                p["output"] =
                    json!({"title": "", "metadata": {}, "output": "Wrote file successfully."});
            } else {
                p["output"] = json!({"args": input});
            }
            p
        } else if self.fe == "copilot" {
            let mut p = json!({"sessionId": "copilot-demo", "timestamp": 1795617496091u64,
                "cwd": ws, "toolName": tool, "toolArgs": input});
            if post {
                p["toolResult"] = json!({"resultType": "success", "textResultForLlm": "ok"});
            }
            p
        } else if self.fe == "qwen-code" {
            // Claude Code's events around Gemini CLI's tools (Qwen Code 0.24.4).
            let mut p = json!({"hook_event_name": if post {"PostToolUse"} else {"PreToolUse"},
                "session_id": "qwen-demo", "cwd": ws, "timestamp": "2026-11-22T10:00:00Z",
                "permission_mode": "yolo", "prompt_id": "qwen-demo########0",
                "tool_name": tool, "tool_input": input, "tool_use_id": format!("toolu_{tool}")});
            if post {
                p["tool_response"] =
                    json!({"llmContent": "ok", "returnDisplay": {"originalContent": ""}});
            }
            p
        } else if self.fe == "droid" {
            // Claude Code's events around Droid's tools (Factory Droid 0.225.2).
            let mut p = json!({"hook_event_name": if post {"PostToolUse"} else {"PreToolUse"},
                "session_id": "droid-demo", "cwd": ws, "permission_mode": "auto-high",
                "transcript_path": format!("{ws}/.factory/sessions/-demo/droid-demo.jsonl"),
                "tool_name": tool, "tool_input": input});
            if post {
                p["tool_response"] = json!("{\"success\":true}");
            }
            p
        } else if self.fe == "example" {
            // The made-up agent of docs/examples/intent-adapter-example.
            let mut p = json!({"hook": if post {"after_tool"} else {"before_tool"},
                "session": "example-demo", "workdir": ws, "model": "example/model-1",
                "call": {"id": format!("c-{tool}"), "tool": tool, "args": input}});
            if post {
                p["result"] = json!({"ok": true, "output": "done"});
            }
            p
        } else if self.fe == "windsurf" {
            // Cascade's action events (documented: no Windsurf runs here).
            let phase = if post { "post" } else { "pre" };
            let (action, info) = match tool {
                "select_active_intent" => (
                    "mcp_tool_use",
                    json!({"mcp_server_name": "intent", "mcp_tool_name": tool,
                        "mcp_tool_arguments": input}),
                ),
                _ => (tool, input.clone()),
            };
            json!({"agent_action_name": format!("{phase}_{action}"), "trajectory_id": "windsurf-demo",
                "execution_id": "turn-1", "timestamp": "2026-11-22T10:00:00Z", "tool_info": info})
        } else {
            let mut p = json!({"hook_event_name": if post {"AfterTool"} else {"BeforeTool"},
                "session_id": "gemini-demo", "cwd": ws, "timestamp": "2026-11-22T10:00:00Z",
                "tool_name": tool, "tool_input": input});
            if post {
                p["tool_response"] =
                    json!({"llmContent": "ok", "returnDisplay": {"isNewFile": true}});
            }
            p
        }
    }

    fn hook(&self, payload: &Value) -> anyhow::Result<Value> {
        let mut args = vec!["hook", self.fe];
        // Copilot's payloads do not say which event they are: `intent init` names it
        // in each hook's command, as here.
        if self.fe == "copilot" {
            let post = payload.get("toolResult").is_some();
            args.extend(["--event", if post { "postToolUse" } else { "preToolUse" }]);
        }
        let mut path = std::env::var_os("PATH").unwrap_or_default();
        if let Some(dir) = self.adapter_dir {
            let rest = std::env::split_paths(&path).collect::<Vec<_>>();
            path = std::env::join_paths(std::iter::once(dir.to_path_buf()).chain(rest))?;
        }
        let mut child = Command::new(self.bin)
            .args(&args)
            .env("PATH", path)
            .current_dir(self.ws)
            .env_remove("CLAUDE_PROJECT_DIR")
            .env_remove("GEMINI_PROJECT_DIR")
            .env_remove("COPILOT_PROJECT_DIR")
            .env_remove("QWEN_PROJECT_DIR")
            .env_remove("FACTORY_PROJECT_DIR")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start `intent hook {}`", self.fe))?;
        child
            .stdin
            .take()
            .expect("piped")
            .write_all(payload.to_string().as_bytes())?;
        let out = child.wait_with_output()?;
        serde_json::from_slice(&out.stdout).context("the hook printed no JSON")
    }

    fn refused(&self, reply: &Value) -> bool {
        reply["hookSpecificOutput"]["permissionDecision"] == "deny"
            || reply["decision"] == "deny"
            || reply["permissionDecision"] == "deny"
            || reply["action"] == "deny"
            || reply["verdict"] == "deny"
    }

    fn write(&self, rel: &str, content: &str, what: &str) -> anyhow::Result<()> {
        let path = self.ws.join(rel).display().to_string();
        let (tool, input) = match self.fe {
            "codex" => {
                let body: String = content.lines().map(|l| format!("+{l}\n")).collect();
                let patch = format!("*** Begin Patch\n*** Add File: {rel}\n{body}*** End Patch\n");
                ("apply_patch", json!({"command": patch}))
            }
            "copilot" => ("create", json!({"path": path, "file_text": content})),
            "opencode" | "kilo-code" => ("write", json!({"filePath": path, "content": content})),
            "droid" => ("Create", json!({"file_path": path, "content": content})),
            "windsurf" => (
                "write_code",
                json!({"file_path": path, "edits": [{"old_string": "", "new_string": content}]}),
            ),
            "example" => ("write", json!({"file": path, "text": content})),
            _ => ("write_file", json!({"file_path": path, "content": content})),
        };
        let reply = self.hook(&self.payload(false, tool, &input))?;
        if self.refused(&reply) {
            // The reason's last line is the structured reason, as JSON.
            let reason = reply["hookSpecificOutput"]["permissionDecisionReason"]
                .as_str()
                .or(reply["permissionDecisionReason"].as_str())
                .or(reply["reason"].as_str())
                .or(reply["message"].as_str())
                .unwrap_or_default();
            let structured: Value = reason
                .lines()
                .last()
                .and_then(|line| serde_json::from_str(line).ok())
                .unwrap_or_default();
            let kind = structured["type"].as_str().unwrap_or("?");
            say(&format!(
                "{}: {tool} {rel} ({what}) → refused [{kind}] in {}'s words: {}",
                self.fe,
                self.fe,
                refusal_shape(&reply)
            ));
            return Ok(());
        }
        let path = self.ws.join(rel);
        std::fs::create_dir_all(path.parent().expect("has a parent"))?;
        std::fs::write(&path, content)?;
        self.hook(&self.payload(true, tool, &input))?;
        say(&format!(
            "{}: {tool} {rel} ({what}) → allowed and traced",
            self.fe
        ));
        Ok(())
    }

    fn select(&self, id: &str) -> anyhow::Result<()> {
        let tool = match self.fe {
            "codex" => "mcp__intent__select_active_intent",
            "copilot" => "intent-select_active_intent",
            "qwen-code" => "mcp__intent__select_active_intent",
            "opencode" | "kilo-code" => "intent_select_active_intent",
            "droid" => "intent___select_active_intent",
            _ => "select_active_intent",
        };
        let mut input = json!({"intent_id": id});
        if self.fe == "example" {
            input = json!({"server": "intent", "tool": tool, "arguments": input});
        }
        let tool = if self.fe == "example" { "mcp" } else { tool };
        self.hook(&self.payload(false, tool, &input))?;
        self.hook(&self.payload(true, tool, &input))?;
        say(&format!("{}: {tool} {id} → selected", self.fe));
        Ok(())
    }
}

/// The keys of a refusal, to show each front-end's own shape.
fn refusal_shape(reply: &Value) -> String {
    match reply.get("hookSpecificOutput") {
        Some(out) => format!(
            "hookSpecificOutput.permissionDecision = {}",
            out["permissionDecision"]
        ),
        None if reply.get("action").is_some() => format!("action = {}", reply["action"]),
        None if reply.get("verdict").is_some() => format!("verdict = {}", reply["verdict"]),
        None if reply.get("permissionDecision").is_some() => {
            format!("permissionDecision = {}", reply["permissionDecision"])
        }
        None => format!("decision = {}", reply["decision"]),
    }
}

/// The ledger reduced to what a session decided and changed.
fn essence(ledger: &Path) -> anyhow::Result<Vec<String>> {
    let mut out = Vec::new();
    for event in intent_ledger::read_events(ledger)? {
        let event = event?;
        let d = &event.data;
        let line = match event.kind.as_str() {
            "tool.pre" => format!(
                "tool.pre {} {}",
                d["decision"].as_str().unwrap_or("?"),
                d["reason"]["type"].as_str().unwrap_or("")
            ),
            "trace" => format!(
                "trace {} under {}",
                d["path"].as_str().unwrap_or("?"),
                d["intent_id"].as_str().unwrap_or("-")
            ),
            "intent.selected" => {
                format!("intent.selected {}", d["intent_id"].as_str().unwrap_or("?"))
            }
            _ => continue,
        };
        out.push(line);
    }
    Ok(out)
}
