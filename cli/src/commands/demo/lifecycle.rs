//! The demo's lifecycle tour: an intent walked from DRAFT to DONE while another
//! waits on it, with an agent's completion proposal a human confirms, and the specs
//! file edited in place (only status lines change).

use std::path::Path;
use std::process::Command;

use anyhow::Context;
use serde_json::json;

use super::say;

const SPECS: &str = "\
# Lifecycle demo: INT-011 waits for INT-010.
active_intents:
  - id: INT-010
    name: Session tokens
    status: DRAFT          # this comment survives every status change
    owned_scope: [\"src/tokens/**\"]
    acceptance_criteria:
      - Tokens expire after 15 minutes
      - Expired tokens are rejected
  - id: INT-011
    name: 'Token refresh'
    status: \"IN_PROGRESS\"
    owned_scope:
      - src/refresh/**
    dependencies: [INT-010]
    acceptance_criteria: [Refresh issues a new token]
";

/// Walks INT-010 through its lifecycle in a workspace of its own.
pub fn tour(bin: &Path, root: &Path) -> anyhow::Result<()> {
    let ws = super::side_dir(root, "lifecycle");
    let _ = std::fs::remove_dir_all(&ws);
    std::fs::create_dir_all(&ws)?;
    let intent = |args: &[&str]| -> anyhow::Result<(bool, String)> {
        let out = Command::new(bin)
            .arg("--workspace")
            .arg(&ws)
            .args(args)
            .output()
            .context("cannot run intent")?;
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        Ok((out.status.success(), text))
    };
    let show = |(ok, text): (bool, String), limit: usize| {
        let lines: Vec<&str> = text.lines().collect();
        for line in lines.iter().take(limit) {
            say(&format!("  {line}"));
        }
        if lines.len() > limit {
            say(&format!("  … ({} more lines)", lines.len() - limit));
        }
        if !ok {
            say("  (refused; exit 1)");
        }
    };
    intent(&["init"])?;
    let specs_path = ws.join(".orchestration/active_intents.yaml");
    std::fs::write(&specs_path, SPECS)?;
    say(&format!(
        "workspace {} with INT-010 (DRAFT) and INT-011, which depends on it",
        ws.display()
    ));

    say("$ intent select INT-011 --session agent-1   # its dependency is not DONE");
    show(intent(&["select", "INT-011", "--session", "agent-1"])?, 2);
    say("$ intent status INT-010 DONE   # DRAFT cannot jump to DONE");
    show(intent(&["status", "INT-010", "DONE"])?, 2);
    say("$ intent status INT-010 IN_PROGRESS");
    show(intent(&["status", "INT-010", "IN_PROGRESS"])?, 1);
    say("$ intent select INT-010 --session agent-1");
    show(intent(&["select", "INT-010", "--session", "agent-1"])?, 1);

    say("the agent calls complete_intent (MCP) with evidence; the default policy makes it a proposal");
    let input = json!({"intent_id": "INT-010", "verification_notes": "npm test: 12 passed",
        "evidence": [{"criterion": "Tokens expire after 15 minutes", "evidence": "test/expiry.spec.ts"},
                     {"criterion": "Expired tokens are rejected", "evidence": "test/reject.spec.ts"}]});
    for event in ["PreToolUse", "PostToolUse"] {
        let mut payload = json!({"hook_event_name": event, "session_id": "agent-1", "cwd": ws,
            "tool_name": "mcp__intent__complete_intent", "tool_input": input, "tool_use_id": "toolu_c1"});
        if event == "PostToolUse" {
            payload["tool_response"] = json!([{"type": "text", "text": "noted"}]);
        }
        let reply = super::session::run(bin, &ws, &payload)?;
        if let Some(text) = reply["hookSpecificOutput"]["additionalContext"].as_str() {
            say(&format!(
                "  → {}",
                text.trim_start_matches("<intent_ledger>")
                    .trim_end_matches("</intent_ledger>")
            ));
        }
    }
    say("$ intent show INT-010");
    show(intent(&["show", "INT-010"])?, 16);
    say("$ intent status INT-010 DONE --note \"reviewed\"   # a human confirms");
    show(
        intent(&["status", "INT-010", "DONE", "--note", "reviewed"])?,
        6,
    );
    say("$ intent select INT-011 --session agent-1   # now its dependency is DONE");
    show(intent(&["select", "INT-011", "--session", "agent-1"])?, 1);
    say("$ intent status INT-010 IN_PROGRESS   # DONE is final");
    show(intent(&["status", "INT-010", "IN_PROGRESS"])?, 1);

    let now = std::fs::read_to_string(&specs_path)?;
    say("active_intents.yaml, lines that differ from what the human wrote:");
    let before: Vec<&str> = SPECS.lines().collect();
    for line in now.lines().filter(|l| !before.contains(l)) {
        say(&format!("  + {line}"));
    }
    for line in before.iter().filter(|l| !now.lines().any(|n| n == **l)) {
        say(&format!("  - {line}"));
    }
    Ok(())
}
