//! The curated `<intent_context>` block injected into the agent's prompt.
//!
//! Curated, never a dump: the intent's scope, constraints and acceptance criteria,
//! plus at most a few recent traces and lessons, each truncated, the whole block
//! capped in size and XML-escaped.

use intent_spec::{IntentSpec, IntentsFile, SpecDocument};
use intent_state::{HookState, DIGEST_LEN};

/// Upper bound on the rendered block, in bytes.
pub const MAX_CONTEXT_BYTES: usize = 6 * 1024;

/// Renders the context block of `intent`.
pub fn intent_context(intent: &IntentSpec, specs: &IntentsFile, state: &HookState) -> String {
    let status = intent
        .status()
        .map_or(intent.status.clone(), |s| s.as_str().to_string());
    let mut out = format!("<intent_context intent_id=\"{}\">\n", escape(&intent.id));
    out += &format!("  <name>{}</name>\n", escape(&intent.name));
    out += &format!("  <status>{}</status>\n", escape(&status));
    if !intent.description.is_empty() {
        out += &format!(
            "  <description>{}</description>\n",
            escape(&clip(&intent.description, 600))
        );
    }
    list(&mut out, "owned_scope", "glob", &intent.owned_scope);
    list(&mut out, "constraints", "constraint", &intent.constraints);
    if intent.acceptance_criteria.is_empty() {
        out += "  <acceptance_criteria/>\n";
    } else {
        // Whether evidence was recorded (a completion proposal) for each criterion.
        let evidenced = state.evidence.get(&intent.id);
        out += "  <acceptance_criteria>\n";
        for criterion in intent.acceptance_criteria.iter().take(20) {
            let has = evidenced.is_some_and(|e| e.contains(criterion));
            out += &format!(
                "    <criterion evidence=\"{}\">{}</criterion>\n",
                if has { "recorded" } else { "none" },
                escape(&clip(criterion, 300))
            );
        }
        out += "  </acceptance_criteria>\n";
    }
    if !intent.dependencies.is_empty() {
        out += "  <dependencies>\n";
        for dep in &intent.dependencies {
            let status = specs.intent(dep).map_or("missing".to_string(), |d| {
                d.status()
                    .map_or(d.status.clone(), |s| s.as_str().to_string())
            });
            out += &format!(
                "    <intent id=\"{}\" status=\"{}\"/>\n",
                escape(dep),
                escape(&status)
            );
        }
        out += "  </dependencies>\n";
    }
    if let Some(items) = state.digests.get(&intent.id) {
        let recent: Vec<_> = items.iter().rev().take(DIGEST_LEN).collect();
        if !recent.is_empty() {
            out += "  <recent_history>\n";
            for item in recent.into_iter().rev() {
                out += &format!(
                    "    <{kind} seq=\"{}\" ts=\"{}\">{}</{kind}>\n",
                    item.seq,
                    escape(&item.ts),
                    escape(&clip(&item.summary, 240)),
                    kind = if item.kind == "lesson" {
                        "lesson"
                    } else {
                        "trace"
                    },
                );
            }
            out += "  </recent_history>\n";
        }
    }
    out += "  <rules>Change only files matching owned_scope. Respect every constraint. Read a file again before editing it if it may have changed.</rules>\n";
    out += "</intent_context>";
    if out.len() > MAX_CONTEXT_BYTES {
        // Drop history first: the spec parts are what the agent must not lose.
        if let (Some(start), Some(end)) = (
            out.find("  <recent_history>"),
            out.find("  </recent_history>\n"),
        ) {
            out.replace_range(start..end + "  </recent_history>\n".len(), "");
        }
    }
    out
}

/// Renders the notice shown when a session has no intent yet.
pub fn selection_notice(specs: &SpecDocument) -> String {
    let mut out = String::from(
        "<intent_ledger>This workspace is governed by Intent Ledger. Before changing any file or running a \
         command that changes the workspace, select the intent you work under with the MCP tool \
         select_active_intent (or a prompt line `/intent INT-001`). Selectable intents:\n",
    );
    let mut any = false;
    for intent in &specs.file.active_intents {
        if intent.status().is_some_and(|s| s.allows_work()) {
            any = true;
            out += &format!(
                "  - {}: {}\n",
                escape(&intent.id),
                escape(&clip(&intent.name, 120))
            );
        }
    }
    if !any {
        out += "  (none is IN_PROGRESS; ask the human)\n";
    }
    out += "</intent_ledger>";
    out
}

fn list(out: &mut String, outer: &str, inner: &str, items: &[String]) {
    if items.is_empty() {
        *out += &format!("  <{outer}/>\n");
        return;
    }
    *out += &format!("  <{outer}>\n");
    for item in items.iter().take(20) {
        *out += &format!("    <{inner}>{}</{inner}>\n", escape(&clip(item, 400)));
    }
    *out += &format!("  </{outer}>\n");
}

/// Shortens text to `max` characters, marking the cut with an ellipsis.
pub fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        text.chars().take(max - 1).collect::<String>() + "…"
    }
}

/// Escapes text for XML content and attributes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() && c != '\n' && c != '\t' => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn context_is_escaped_and_bounded() {
        let doc = SpecDocument::parse(
            br#"active_intents:
  - id: INT-001
    name: "Auth <JWT> & friends"
    status: IN_PROGRESS
    owned_scope: ["src/auth/**"]
    constraints: ["Use \"HS256\""]
    acceptance_criteria: []
"#,
        )
        .unwrap();
        let text = intent_context(
            &doc.file.active_intents[0],
            &doc.file,
            &HookState::default(),
        );
        assert!(text.starts_with("<intent_context intent_id=\"INT-001\">"));
        assert!(text.contains("<name>Auth &lt;JWT&gt; &amp; friends</name>"));
        assert!(text.contains("<constraint>Use &quot;HS256&quot;</constraint>"));
        assert!(text.contains("<acceptance_criteria/>"));
        assert!(text.len() <= MAX_CONTEXT_BYTES);
        let notice = selection_notice(&doc);
        assert!(notice.contains("INT-001: Auth &lt;JWT&gt;"));
    }
}
