//! `confine_shell` in the policy: a shell command the gate allows and cannot prove
//! read-only runs under `intent confine`, so the kernel (Landlock) holds the
//! intent's scope while it and everything it starts run. Linux only.
//!
//! Where the front-end lets a pre-tool hook replace the tool's input
//! ([`FrontEnd::shell_command_slot`]), the hook rewrites the command; where it does
//! not, the command is refused with the line to run instead, so the agent confines
//! it itself. docs/confine.md has the table, per pinned version.

use std::path::Path;

use intent_gate::{Action, ActionClass, ConfineShell, Decision, GateReason, ReasonKind, Verdict};
use serde_json::Value;

use super::event::{FrontEnd, Rewrite};

/// Where a shell tool's input holds the command that runs, for the rewrite.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommandSlot {
    /// A command line in this string field.
    Line(&'static str),
    /// A command line, or an argv array (Codex's `shell`), in this field.
    LineOrArgv(&'static str),
    /// Command lines run one after another, in this list field (the Cline CLI's
    /// `run_commands{commands}`): each is wrapped. The adapter joins them into
    /// `command` for the gate; that key is not the front-end's, and is dropped.
    Lines(&'static str),
    /// Input typed into a command already running (Copilot's `write_bash`): it runs
    /// confined or not as that command was started, so nothing is rewritten or
    /// refused.
    Typed,
}

impl FrontEnd {
    /// Where `tool`'s command lives when this front-end's pre-tool hook can replace
    /// the tool's whole input; `None` when it cannot (such a command is refused
    /// under `confine_shell`, telling the agent how to confine it itself). Each
    /// `Some` was tried with the pinned binary (Cursor: its documentation only).
    pub fn shell_command_slot(self, tool: &str) -> Option<CommandSlot> {
        use CommandSlot::*;
        match (self, tool) {
            // `hookSpecificOutput.updatedInput`.
            (FrontEnd::ClaudeCode, "Bash") => Some(Line("command")),
            // `updatedInput` with `permissionDecision: allow`; every shell tool
            // reaches hooks as `Bash{command}` and the rewrite is mapped back.
            (FrontEnd::Codex, "Bash" | "shell") => Some(LineOrArgv("command")),
            (FrontEnd::Codex, "exec_command") => Some(Line("cmd")),
            // `hookSpecificOutput.tool_input`.
            (FrontEnd::Gemini, "run_shell_command") => Some(Line("command")),
            // `modifiedArgs` (Copilot CLI 1.0.24 and later).
            (FrontEnd::Copilot, "bash") => Some(Line("command")),
            (FrontEnd::Copilot, "write_bash" | "write_powershell") => Some(Typed),
            // `overrideInput`: the Cline CLI 3 only; the extension's
            // `execute_command` hooks cannot change a tool's input.
            (FrontEnd::Cline, "run_commands") => Some(Lines("commands")),
            // `preToolUse` `updated_input` (documented; no Cursor binary here).
            (FrontEnd::Cursor, "Shell") => Some(Line("command")),
            // Qwen Code 0.24.4's `PreToolUse` takes no `updatedInput` (only its
            // `PermissionRequest` hook does, when Qwen itself would ask): none.
            // The plugin puts the new arguments in place of `output.args` (OpenCode
            // 1.18.33, Kilo Code 7.7.7).
            (FrontEnd::OpenCode | FrontEnd::KiloCode, "bash") => Some(Line("command")),
            // An external adapter that declared it can hand its agent a new input:
            // the generic event's shell tool (docs/frontends/external.md).
            (FrontEnd::External(external), "execute_command") if external.can_rewrite_input => {
                Some(Line("command"))
            }
            // `updatedInput` with `permissionDecision: allow`, merged over the input
            // (Factory Droid 0.225.2, tried).
            (FrontEnd::Droid, "Execute") => Some(Line("command")),
            // Windsurf's hooks answer with an exit code only: none.
            _ => None,
        }
    }
}

/// What `confine_shell` makes of a shell command the gate allowed.
#[derive(Debug, Clone, PartialEq)]
pub enum Confinement {
    /// Run this input instead.
    Rewrite(Rewrite),
    /// The front-end cannot rewrite it: refused, saying how to run it confined.
    Refuse(GateReason),
}

/// Whether `confine_shell` applies here at all.
pub fn active(mode: ConfineShell) -> bool {
    mode != ConfineShell::Off && cfg!(target_os = "linux")
}

/// What to do with `input` (a shell tool's) when the policy asks for confinement:
/// `None` when it runs as written (off, refused or read-only anyway, not a shell,
/// no intent, already confined).
pub fn confine(
    mode: ConfineShell,
    front_end: Option<FrontEnd>,
    action: &Action,
    input: &Value,
    decision: &Decision,
    root: &Path,
) -> Option<Confinement> {
    let Action::Shell { tool, command } = action else {
        return None;
    };
    if !active(mode)
        || decision.verdict != Verdict::Allow
        || decision.class == ActionClass::ReadOnly
    {
        return None;
    }
    let front_end = front_end?;
    let intent = decision.intent_id.as_deref()?;
    let exe = std::env::current_exe().ok()?;
    let exe = exe.to_string_lossy().into_owned();
    if already_confined(command, intent, root, &exe) {
        return None;
    }
    let root = root.to_string_lossy().into_owned();
    let prefix: [&str; 7] = [
        &exe,
        "--workspace",
        &root,
        "confine",
        "--intent",
        intent,
        "--",
    ];
    let wrap = |line: &str| {
        format!(
            "{} --workspace {} confine --intent {} -- bash -c {}",
            quote(&exe),
            quote(&root),
            quote(intent),
            quote(line)
        )
    };
    let mut new = input.clone();
    match front_end.shell_command_slot(tool) {
        None => {
            return Some(Confinement::Refuse(refusal(
                front_end, tool, intent, command,
            )))
        }
        Some(CommandSlot::Typed) => return None,
        Some(CommandSlot::Line(key)) => {
            new[key] = Value::String(wrap(input.get(key)?.as_str()?));
        }
        Some(CommandSlot::LineOrArgv(key)) => match input.get(key)? {
            Value::String(line) => new[key] = Value::String(wrap(line)),
            Value::Array(argv) => {
                let mut words: Vec<Value> = prefix.into_iter().map(Value::from).collect();
                words.extend(argv.iter().cloned());
                new[key] = Value::Array(words);
            }
            _ => return None,
        },
        Some(CommandSlot::Lines(key)) => match input.get(key) {
            Some(Value::Array(lines)) => {
                let wrapped: Option<Vec<Value>> = lines
                    .iter()
                    .map(|line| Some(Value::String(wrap(line.as_str()?))))
                    .collect();
                new[key] = Value::Array(wrapped?);
                if let Some(map) = new.as_object_mut() {
                    map.remove("command");
                }
            }
            // A lenient `{command}` in place of the list.
            _ => new["command"] = Value::String(wrap(input.get("command")?.as_str()?)),
        },
    }
    Some(Confinement::Rewrite(Rewrite {
        input: new,
        ask: mode == ConfineShell::Ask,
    }))
}

/// The refusal of a command the front-end cannot rewrite. The command itself is
/// only in `attempted_command` (which the ledger redacts), not in the advice.
fn refusal(front_end: FrontEnd, tool: &str, intent: &str, command: &str) -> GateReason {
    GateReason {
        kind: ReasonKind::PolicyBlock,
        message: format!(
            "The policy runs shell commands that may write under `intent confine` \
             (confine_shell), and a {} hook cannot rewrite a `{tool}` call to do it.",
            front_end.as_str()
        ),
        intent_id: Some(intent.to_string()),
        attempted_path: None,
        attempted_command: Some(command.to_string()),
        allowed_scope: Vec::new(),
        available_intents: Vec::new(),
        next_step: format!(
            "Run it confined yourself, the whole command inside the quotes: \
             intent confine --intent {intent} -- bash -c '<command>' (each ' in it \
             written '\\''). The kernel then refuses its writes outside the intent's scope."
        ),
    }
}

/// Whether `command` is already one confined command: `intent` (or this very
/// binary), optionally `--workspace ROOT`, `confine --intent INTENT --` and the
/// command, as plain words and single-quoted strings only, so that nothing in it
/// runs outside the confined process (no `;`, `&&`, `|`, redirection, expansion).
pub fn already_confined(command: &str, intent: &str, root: &Path, exe: &str) -> bool {
    let Some(words) = plain_words(command) else {
        return false;
    };
    let mut words = words.iter().map(String::as_str);
    if !matches!(words.next(), Some(first) if first == "intent" || first == exe) {
        return false;
    }
    let mut next = words.next();
    let same_root = |dir: &str| Path::new(dir) == root;
    match next {
        Some("--workspace") => {
            if !words.next().is_some_and(same_root) {
                return false;
            }
            next = words.next();
        }
        Some(flag) if flag.starts_with("--workspace=") => {
            if !same_root(&flag["--workspace=".len()..]) {
                return false;
            }
            next = words.next();
        }
        _ => {}
    }
    if next != Some("confine") {
        return false;
    }
    let named = match words.next() {
        Some("--intent") => words.next(),
        Some(flag) => flag.strip_prefix("--intent="),
        None => None,
    };
    named == Some(intent) && words.next() == Some("--") && words.next().is_some()
}

/// The words of a command line made of plain words, single-quoted strings and `\'`
/// only; `None` for anything the shell would treat as more than one simple command
/// or expand.
fn plain_words(command: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = command.trim().chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => {
                if let Some(done) = word.take() {
                    words.push(done);
                }
            }
            '\'' => {
                let text = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => text.push(c),
                    }
                }
            }
            '\\' if chars.clone().next() == Some('\'') => {
                chars.next();
                word.get_or_insert_with(String::new).push('\'');
            }
            c if c.is_ascii_alphanumeric() || "-_./=:@%+,".contains(c) => {
                word.get_or_insert_with(String::new).push(c);
            }
            _ => return None,
        }
    }
    words.extend(word);
    Some(words)
}

/// `text` as one POSIX shell word: single-quoted, each `'` spelled `'\''`.
pub fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
#[path = "confine_rewrite_tests.rs"]
mod tests;
