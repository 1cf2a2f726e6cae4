//! `confine_shell` in the policy: a shell command the gate allows is rewritten to
//! run under `intent confine`, so the kernel (Landlock) holds the intent's scope
//! while it and everything it starts run. Only where the front-end lets a hook
//! replace a tool's input (Claude Code's `updatedInput`; the others: docs/confine.md)
//! and only on Linux.

use std::path::Path;

use intent_ledger::gate::{Action, ActionClass, ConfineShell, Decision, Verdict};
use serde_json::Value;

use super::event::{FrontEnd, Rewrite};

/// The input to run `input` (a shell tool's) with instead, when the policy asks
/// for confinement and this hook can ask for it.
pub fn rewrite(
    mode: ConfineShell,
    front_end: Option<FrontEnd>,
    action: &Action,
    input: &Value,
    decision: &Decision,
    root: &Path,
) -> Option<Rewrite> {
    if mode == ConfineShell::Off
        || !cfg!(target_os = "linux")
        || front_end != Some(FrontEnd::ClaudeCode)
        || decision.verdict != Verdict::Allow
        || decision.class == ActionClass::ReadOnly
        || !matches!(action, Action::Shell { .. })
    {
        return None;
    }
    let intent = decision.intent_id.as_deref()?;
    let command = input.get("command")?.as_str()?;
    let exe = std::env::current_exe().ok()?;
    let wrapped = format!(
        "{} --workspace {} confine --intent {} -- bash -c {}",
        quote(&exe.to_string_lossy()),
        quote(&root.to_string_lossy()),
        quote(intent),
        quote(command)
    );
    let mut new = input.clone();
    new["command"] = Value::String(wrapped);
    Some(Rewrite {
        input: new,
        ask: mode == ConfineShell::Ask,
    })
}

/// `text` as one POSIX shell word: single-quoted, each `'` spelled `'\''`.
fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_survives_every_quote() {
        let word = quote("echo 'a' \"b\" $HOME `x`");
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("printf %s {word}"))
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            "echo 'a' \"b\" $HOME `x`"
        );
    }
}
