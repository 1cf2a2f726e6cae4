//! Replies: each front-end's hook output read back as a verdict. A reply that cannot
//! be read is an error, never an allow.

use serde_json::{json, Value};

use super::cases::Expect;
use super::front_ends::Fe;

/// What a reply says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Verdict {
    Allow,
    Deny,
    Ask,
}

/// A parsed reply: the verdict, the reason type found in it, the reason text.
#[derive(Debug, Clone)]
pub(super) struct Reply {
    pub(super) verdict: Verdict,
    pub(super) kind: Option<String>,
    pub(super) text: String,
}

impl Reply {
    pub(super) fn short(&self) -> String {
        match self.verdict {
            Verdict::Allow => "allow".into(),
            Verdict::Deny | Verdict::Ask => format!(
                "{}({})",
                if self.verdict == Verdict::Deny {
                    "deny"
                } else {
                    "ask"
                },
                self.kind.as_deref().unwrap_or("no reason type found")
            ),
        }
    }

    pub(super) fn matches(&self, expect: Expect) -> bool {
        match expect {
            Expect::Allow => self.verdict == Verdict::Allow,
            Expect::Deny(kinds) => {
                self.verdict == Verdict::Deny
                    && self.kind.as_deref().is_some_and(|k| kinds.contains(&k))
            }
        }
    }
}

/// The reason type of a gate refusal text: its last line is the reason as JSON.
fn reason_kind(text: &str) -> Option<String> {
    for line in text.lines().rev() {
        if let Ok(value) = serde_json::from_str::<Value>(line.trim()) {
            if let Some(kind) = value.get("type").and_then(Value::as_str) {
                return Some(kind.to_string());
            }
        }
    }
    let at = text.find("{\"type\":\"")? + "{\"type\":\"".len();
    text[at..].split('"').next().map(str::to_string)
}

/// A refusal that wanted a human, in front-ends that cannot ask.
fn asks(text: &str) -> bool {
    text.starts_with("A human must approve")
}

fn refusal(text: &str, ask: bool) -> Reply {
    Reply {
        verdict: if ask { Verdict::Ask } else { Verdict::Deny },
        kind: reason_kind(text),
        text: text.to_string(),
    }
}

fn allow() -> Reply {
    Reply {
        verdict: Verdict::Allow,
        kind: None,
        text: String::new(),
    }
}

impl Fe {
    /// Reads a reply; an error when it is not in the front-end's reply format.
    pub(super) fn parse(self, reply: &Value) -> Result<Reply, String> {
        let obj = reply
            .as_object()
            .ok_or_else(|| format!("not a JSON object: {reply}"))?;
        let text_of = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or_default().to_string();
        match self {
            Fe::ClaudeCode | Fe::Codex | Fe::QwenCode | Fe::Droid => {
                if let Some(out) = obj.get("hookSpecificOutput") {
                    if let Some(decision) = out.get("permissionDecision") {
                        let text = text_of(out.get("permissionDecisionReason"));
                        return match decision.as_str() {
                            Some("allow") => Ok(allow()),
                            Some("deny") => Ok(refusal(&text, asks(&text))),
                            Some("ask") => Ok(refusal(&text, true)),
                            _ => Err(format!("unknown permissionDecision: {reply}")),
                        };
                    }
                }
                match obj.get("decision").and_then(Value::as_str) {
                    Some("block" | "deny") => {
                        let text = text_of(obj.get("reason"));
                        Ok(refusal(&text, asks(&text)))
                    }
                    Some("approve" | "allow") | None => Ok(allow()),
                    Some(_) => Err(format!("unknown decision: {reply}")),
                }
            }
            Fe::Gemini => {
                if obj.get("continue") == Some(&json!(false)) {
                    let text = text_of(obj.get("stopReason").or(obj.get("reason")));
                    return Ok(refusal(&text, false));
                }
                match obj.get("decision").and_then(Value::as_str) {
                    Some("deny" | "block") => {
                        let text = text_of(obj.get("reason"));
                        Ok(refusal(&text, asks(&text)))
                    }
                    Some("allow" | "approve") | None => Ok(allow()),
                    Some(_) => Err(format!("unknown decision: {reply}")),
                }
            }
            Fe::Cursor => {
                let text = text_of(obj.get("agent_message").or(obj.get("user_message")));
                match obj.get("permission").and_then(Value::as_str) {
                    Some("allow") => Ok(allow()),
                    Some("deny") => Ok(refusal(&text, false)),
                    Some("ask") => Ok(refusal(&text, true)),
                    _ => Err(format!("no `permission`: {reply}")),
                }
            }
            Fe::Copilot => match obj.get("permissionDecision").and_then(Value::as_str) {
                Some("deny") => {
                    let text = text_of(obj.get("permissionDecisionReason"));
                    Ok(refusal(&text, asks(&text)))
                }
                Some("allow") | None => Ok(allow()),
                Some(_) => Err(format!("unknown permissionDecision: {reply}")),
            },
            Fe::Cline | Fe::ClineCli => match obj.get("cancel").and_then(Value::as_bool) {
                Some(false) => Ok(allow()),
                Some(true) => {
                    let text = text_of(obj.get("errorMessage").or(obj.get("contextModification")));
                    Ok(refusal(&text, asks(&text)))
                }
                None => Err(format!("no boolean `cancel`: {reply}")),
            },
            // The plugin throws unless the action is `allow`.
            Fe::OpenCode | Fe::KiloCode => match obj.get("action").and_then(Value::as_str) {
                Some("allow") => Ok(allow()),
                Some("deny") => {
                    let text = text_of(obj.get("message"));
                    Ok(refusal(&text, asks(&text)))
                }
                _ => Err(format!("no `action`: {reply}")),
            },
            // The example external adapter's made-up agent.
            Fe::Example => {
                let text = text_of(obj.get("reason"));
                let kind = obj
                    .get("reason_type")
                    .and_then(Value::as_str)
                    .map(str::to_string)
                    .or_else(|| reason_kind(&text));
                let verdict = match obj.get("verdict").and_then(Value::as_str) {
                    Some("allow") => return Ok(allow()),
                    Some("deny") => Verdict::Deny,
                    Some("ask") => Verdict::Ask,
                    _ => return Err(format!("no `verdict`: {reply}")),
                };
                Ok(Reply {
                    verdict,
                    kind,
                    text,
                })
            }
            // Built from the exit code by `ask_gate`: exit 0 is `{}`.
            Fe::Windsurf => match obj.get("decision").and_then(Value::as_str) {
                Some("deny") => {
                    let text = text_of(obj.get("reason"));
                    Ok(refusal(&text, asks(&text)))
                }
                None if obj.is_empty() => Ok(allow()),
                _ => Err(format!("not a Windsurf reply: {reply}")),
            },
            Fe::Generic => match obj.get("allowed").and_then(Value::as_bool) {
                Some(true) => Ok(allow()),
                Some(false) => {
                    let error = obj.get("error").cloned().unwrap_or(Value::Null);
                    let text = text_of(error.get("text").or(error.get("message")));
                    Ok(Reply {
                        verdict: if error["ask"] == true {
                            Verdict::Ask
                        } else {
                            Verdict::Deny
                        },
                        kind: error["type"]
                            .as_str()
                            .map(str::to_string)
                            .or_else(|| reason_kind(&text)),
                        text,
                    })
                }
                None => Err(format!("no boolean `allowed`: {reply}")),
            },
        }
    }
}
