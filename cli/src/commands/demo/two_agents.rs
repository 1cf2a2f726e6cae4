//! The seeds' verification workflow: two agents at once on one workspace, each a
//! stream of real `intent hook claude-code` processes running in parallel — an
//! Architect and a Builder under different intents. The Builder is refused a
//! destructive command before it selects an intent and a write outside its scope;
//! its refactor is traced with class and content hash; the Architect's change to a
//! shared file makes the Builder's stale copy a refused overwrite; and the lessons
//! both left reach every later session (the injected context, and the generated,
//! untracked `.orchestration/lessons.md`).

use intent_ledger::payload::Trace;
use std::path::Path;

use serde_json::{json, Value};

use super::say;
use super::session::run;

const SPECS: &str = "active_intents:
  - id: INT-101
    name: API contract (Architect)
    status: IN_PROGRESS
    owned_scope: [\"src/api/**\", \"src/shared/**\"]
    acceptance_criteria: [Types documented]
  - id: INT-102
    name: Billing service (Builder)
    status: IN_PROGRESS
    owned_scope: [\"src/billing/**\", \"src/shared/**\"]
    acceptance_criteria: [Invoices total correctly]
";

/// One agent: its session id and the workspace.
struct Agent<'a> {
    bin: &'a Path,
    root: &'a Path,
    session: &'static str,
}

impl Agent<'_> {
    fn payload(&self, event: &str, tool: &str, input: Value, id: &str) -> Value {
        json!({"session_id": self.session, "cwd": self.root, "hook_event_name": event,
            "tool_name": tool, "tool_input": input, "tool_use_id": id})
    }

    /// PreToolUse only: what the gate says.
    fn pre(&self, tool: &str, input: Value, id: &str) -> anyhow::Result<Value> {
        run(
            self.bin,
            self.root,
            &self.payload("PreToolUse", tool, input, id),
        )
    }

    /// Pre, the tool's effect when allowed, Post. Returns the Pre reply.
    fn call(
        &self,
        tool: &str,
        input: Value,
        id: &str,
        effect: impl FnOnce(),
    ) -> anyhow::Result<Value> {
        let pre = self.pre(tool, input.clone(), id)?;
        if refused(&pre) {
            return Ok(pre);
        }
        let before = input["file_path"]
            .as_str()
            .and_then(|p| std::fs::read_to_string(p).ok());
        effect();
        let mut post = self.payload("PostToolUse", tool, input.clone(), id);
        post["tool_response"] = match tool {
            "Read" => json!({"type": "text", "file": {"filePath": input["file_path"]}}),
            "mcp__intent__select_active_intent" => json!([{"type": "text", "text": "ok"}]),
            _ => json!({"type": "update", "filePath": input["file_path"], "originalFile": before}),
        };
        run(self.bin, self.root, &post)?;
        Ok(pre)
    }

    fn select(&self, intent: &str) -> anyhow::Result<Value> {
        self.call(
            "mcp__intent__select_active_intent",
            json!({"intent_id": intent}),
            &format!("{}-select", self.session),
            || {},
        )
    }

    fn read(&self, rel: &str, id: &str) -> anyhow::Result<Value> {
        self.call("Read", json!({"file_path": self.root.join(rel)}), id, || {})
    }

    fn write(&self, rel: &str, text: &str, id: &str) -> anyhow::Result<Value> {
        let path = self.root.join(rel);
        self.call(
            "Write",
            json!({"file_path": path, "content": text}),
            id,
            || {
                let _ = std::fs::create_dir_all(path.parent().expect("a parent"));
                let _ = std::fs::write(&path, text);
            },
        )
    }
}

/// `allow`, or `deny [reason type]`.
fn brief(reply: &Value) -> String {
    let out = &reply["hookSpecificOutput"];
    match out["permissionDecision"].as_str() {
        Some("deny") => {
            let text = out["permissionDecisionReason"].as_str().unwrap_or_default();
            format!("deny [{}]", super::session::reason_kind(text))
        }
        Some(other) => other.to_string(),
        None => "allow".to_string(),
    }
}

fn refused(reply: &Value) -> bool {
    reply["hookSpecificOutput"]["permissionDecision"].as_str() == Some("deny")
}

/// Runs both agents' steps of one phase at the same time; prints their replies in a
/// fixed order afterwards.
fn parallel(
    architect: impl FnOnce() -> anyhow::Result<Vec<(String, Value)>> + Send,
    builder: impl FnOnce() -> anyhow::Result<Vec<(String, Value)>> + Send,
) -> anyhow::Result<()> {
    let (a, b) = std::thread::scope(|scope| {
        let a = scope.spawn(architect);
        let b = scope.spawn(builder);
        (a.join(), b.join())
    });
    for (who, result) in [("Architect", a), ("Builder", b)] {
        let steps = result.map_err(|_| anyhow::anyhow!("{who}'s thread panicked"))??;
        for (what, reply) in steps {
            say(&format!("{who}: {what} → {}", brief(&reply)));
        }
    }
    Ok(())
}

/// Runs the act in a workspace of its own inside the demo directory.
pub fn tour(bin: &Path, base: &Path) -> anyhow::Result<()> {
    let root = super::side_dir(base, "two-agents");
    std::fs::create_dir_all(root.join("src/shared"))?;
    std::fs::create_dir_all(root.join("src/billing"))?;
    intent_ledger::Workspace::at(&root).init()?;
    std::fs::write(root.join(".orchestration/active_intents.yaml"), SPECS)?;
    std::fs::write(
        root.join("src/shared/config.ts"),
        "export const currency = \"EUR\";\n",
    )?;
    let architect = Agent {
        bin,
        root: &root,
        session: "architect-1",
    };
    let builder = Agent {
        bin,
        root: &root,
        session: "builder-1",
    };
    say(&format!(
        "two sessions, each a stream of hook processes, run at the same time in {}",
        root.display()
    ));

    parallel(
        || {
            Ok(vec![
                ("select INT-101".into(), architect.select("INT-101")?),
                (
                    "Read src/shared/config.ts".into(),
                    architect.read("src/shared/config.ts", "a-r1")?,
                ),
            ])
        },
        || {
            Ok(vec![
                (
                    "Bash `rm -rf build` before selecting any intent".into(),
                    builder.pre("Bash", json!({"command": "rm -rf build"}), "b-bash")?,
                ),
                ("select INT-102".into(), builder.select("INT-102")?),
                (
                    "Read src/shared/config.ts".into(),
                    builder.read("src/shared/config.ts", "b-r1")?,
                ),
            ])
        },
    )?;
    let invoice = "export function total(lines: number[]): number {\n  let sum = 0;\n  for (const line of lines) sum += line;\n  return sum;\n}\n";
    parallel(
        || {
            Ok(vec![(
                "Write src/shared/config.ts (adds a field)".into(),
                architect.write(
                    "src/shared/config.ts",
                    "export const currency = \"EUR\";\nexport const vatRate = 0.2;\n",
                    "a-w1",
                )?,
            )])
        },
        || {
            Ok(vec![
                (
                    "Write src/api/types.ts (the Architect's scope, not INT-102's)".into(),
                    builder.write("src/api/types.ts", "export type Id = string;\n", "b-w1")?,
                ),
                (
                    "Write src/billing/invoice.ts".into(),
                    builder.write("src/billing/invoice.ts", invoice, "b-w2")?,
                ),
            ])
        },
    )?;
    parallel(
        || Ok(Vec::new()),
        || {
            Ok(vec![
                (
                    "Write src/shared/config.ts from its stale copy (the Architect changed it)"
                        .into(),
                    builder.write(
                        "src/shared/config.ts",
                        "export const currency = \"USD\";\n",
                        "b-w3",
                    )?,
                ),
                (
                    "Write src/billing/invoice.ts: rename a local (a refactor)".into(),
                    builder.write(
                        "src/billing/invoice.ts",
                        &invoice.replace("sum", "acc"),
                        "b-w4",
                    )?,
                ),
            ])
        },
    )?;
    let ledger = intent_ledger::Workspace::at(&root).ledger_path();
    let traces: Vec<(intent_ledger::Event, Trace)> = intent_ledger::read_events(&ledger)?
        .filter_map(Result::ok)
        .filter_map(|e| Some((e.payload::<Trace>()?, e)))
        .map(|(trace, e)| (e, trace))
        .collect();
    for (event, trace) in &traces {
        let after = trace.after_sha256.as_deref();
        say(&format!(
            "trace #{} {} {} {} {} after {}",
            event.seq,
            event.session.as_deref().unwrap_or("?"),
            trace.intent_id.as_deref().unwrap_or("-"),
            trace.path,
            trace.mutation_class,
            after.map_or("?", |h| &h[..h.len().min(19)]),
        ));
    }
    let lessons =
        std::fs::read_to_string(root.join(".orchestration/lessons.md")).unwrap_or_default();
    say("the lessons both sessions left, in every later session's context and in the generated .orchestration/lessons.md (never tracked; `intent lessons publish` copies chosen ones into CLAUDE.md):");
    for line in lessons.lines().filter(|l| l.starts_with("- ")).take(6) {
        say(&format!("  {}", crate::engine::context::clip(line, 150)));
    }
    Ok(())
}
