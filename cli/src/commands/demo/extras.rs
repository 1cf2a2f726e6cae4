//! The demo's tour of the standalone commands: `intent mcp` spoken to over stdio, and
//! `intent classify` on a change outside any agent.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::Context;
use serde_json::{json, Value};

use super::say;
use crate::engine::context::clip;

/// Starts `intent mcp`, performs the handshake Claude Code performs, lists the tools
/// and shows a selection being refused with a structured reason.
pub fn mcp(bin: &Path, root: &Path) -> anyhow::Result<()> {
    let mut child = Command::new(bin)
        .arg("mcp")
        .current_dir(root)
        .env_remove("CLAUDE_PROJECT_DIR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .context("cannot start `intent mcp`")?;
    let mut stdin = child.stdin.take().context("stdin")?;
    let mut lines = BufReader::new(child.stdout.take().context("stdout")?).lines();
    let mut ask = |request: Value, wait: bool| -> anyhow::Result<Value> {
        writeln!(stdin, "{request}")?;
        stdin.flush()?;
        if !wait {
            return Ok(Value::Null);
        }
        let line = lines.next().context("`intent mcp` closed its output")??;
        Ok(serde_json::from_str(&line)?)
    };
    let probe = ask(
        json!({"jsonrpc": "2.0", "id": "server-discover-probe-1", "method": "server/discover", "params": {}}),
        true,
    )?;
    say(&format!(
        "Claude Code first probes `server/discover`, a method this server does not offer; \
         it answers with a standard JSON-RPC error (code {}), as expected, and the \
         handshake goes on",
        probe["error"]["code"]
    ));
    let init = ask(
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "demo", "version": "1"}}}),
        true,
    )?;
    say(&format!(
        "initialize → server {} (protocol {})",
        init["result"]["serverInfo"]["name"], init["result"]["protocolVersion"]
    ));
    ask(
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        false,
    )?;
    let tools = ask(
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
        true,
    )?;
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["name"].as_str())
        .collect();
    say(&format!("tools/list → {}", names.join(", ")));
    let list = ask(
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "list_active_intents", "arguments": {"status": "IN_PROGRESS"}}}),
        true,
    )?;
    say(&format!(
        "list_active_intents(IN_PROGRESS) → {}",
        clip(
            list["result"]["content"][0]["text"].as_str().unwrap_or(""),
            110
        )
    ));
    let refused = ask(
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "select_active_intent", "arguments": {"intent_id": "INT-404"}}}),
        true,
    )?;
    say(&format!(
        "select_active_intent(INT-404) → isError {}: {}",
        refused["result"]["isError"],
        clip(
            refused["result"]["content"][0]["text"]
                .as_str()
                .unwrap_or("")
                .lines()
                .next()
                .unwrap_or(""),
            90
        )
    ));
    let _ = child.kill();
    let _ = child.wait();
    Ok(())
}

/// Runs `intent classify` on two versions of a module, as a CI check would.
pub fn classify(bin: &Path, root: &Path) -> anyhow::Result<()> {
    let base = root.join(".demo-classify");
    for (side, files) in [
        ("before", vec![("rate.ts", "export function limit(n: number) {\n  const max = 5;\n  return n < max;\n}\n")]),
        ("after", vec![("rate.ts", "export function limit(n: number) {\n  const ceiling = 5; // per minute\n  return n < ceiling;\n}\n")]),
        ("changed", vec![("rate.ts", "export function limit(n: number) {\n  const max = 5;\n  return n <= max;\n}\n")]),
    ] {
        std::fs::create_dir_all(base.join(side))?;
        for (name, text) in files {
            std::fs::write(base.join(side).join(name), text)?;
        }
    }
    for (after, what) in [
        ("after", "a renamed local and a comment"),
        ("changed", "`<` became `<=`"),
    ] {
        let out = Command::new(bin)
            .args(["classify", "--check"])
            .arg(base.join("before"))
            .arg(base.join(after))
            .output()
            .context("cannot run `intent classify`")?;
        let text = String::from_utf8_lossy(&out.stdout);
        say(&format!(
            "{what}: {} (exit {})",
            clip(text.lines().next().unwrap_or(""), 110),
            out.status.code().unwrap_or(-1)
        ));
    }
    Ok(())
}

/// Shows the resident helper the session's first hook started (`intent helper
/// status`), then stops it, so the demo leaves no process behind.
pub fn helper(bin: &Path, root: &Path) -> anyhow::Result<()> {
    let helper = |action: &str| -> anyhow::Result<Value> {
        let out = Command::new(bin)
            .arg("--workspace")
            .arg(root)
            .args(["helper", action, "--json"])
            .stderr(Stdio::null())
            .output()
            .with_context(|| format!("cannot run `intent helper {action}`"))?;
        Ok(serde_json::from_slice(&out.stdout)?)
    };
    let status = helper("status")?;
    match status.get("helper").filter(|h| !h.is_null()) {
        Some(h) => say(&format!(
            "a helper (pid {}) started with the session's first hook; it answered {} hooks \
             since, each a short-lived `intent hook` process that handed it the payload",
            h["pid"], h["served"]
        )),
        None => {
            say("no helper runs (INTENT_HELPER is off): every hook answered in its own process")
        }
    }
    say(match crate::commands::doctor::linked_statically() {
        Some(true) => "this `intent` is statically linked: each hook process starts as fast as `/bin/true`",
        _ => "this `intent` is dynamically linked: each hook process spends ~0.6 ms loading shared libraries (`cli/build-static --install` on Linux avoids it; `intent doctor` says which you run)",
    });
    say("a hook the helper is slow to answer is answered by its own process instead, and recorded once: both name its events from one seed the hook drew");
    if let Some(line) = replayed_statements(root) {
        say(&line);
    }
    if helper("stop")?["stopping"] == json!(true) {
        say("`intent helper stop`: it exits once the hooks in flight are answered; the next hook would start a new one");
    }
    Ok(())
}

/// Analyzes a session file, then a version with one function added, from it (as the
/// helper does with the trees it keeps): how many top-level statements were replayed
/// rather than walked, and whether the result is the fresh analysis.
fn replayed_statements(root: &Path) -> Option<String> {
    use intent_ast_hash::{analyze, analyze_from, stored, SourceFile};
    let rel = "src/auth/jwt.ts";
    let text = std::fs::read_to_string(root.join(rel)).ok()?;
    let next = SourceFile::new(
        rel,
        format!("{text}\nexport function audience(): string {{\n  return 'api'\n}}\n"),
    );
    let (_, parsed) = analyze_from(&SourceFile::new(rel, text.clone()), None);
    let parsed = parsed?;
    let (incremental, next_parsed) = analyze_from(&next, Some((&parsed, &text)));
    let statements = next_parsed.as_ref()?.tree().root_node().named_child_count();
    let same = stored::encode(&incremental) == stored::encode(&analyze(&next));
    Some(format!(
        "the helper keeps each file's tree: {rel} with a function added re-parses from it and \
         replays {} of its {statements} top-level nodes instead of walking them (equal to a \
         fresh analysis: {same})",
        next_parsed?.reused_statements()
    ))
}
