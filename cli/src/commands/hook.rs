//! `intent hook <front-end>`: one hook payload on stdin, one native reply on stdout.
//!
//! A hook must never let a destructive action through by accident: a payload that
//! cannot be read, a workspace that cannot be opened, an error or a panic inside the
//! engine all answer "deny" for anything that is not clearly read-only (fail closed),
//! and let read-only actions pass with a warning event (fail open).

use std::io::{Read, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};

use clap::{Args, ValueEnum};

use intent_ledger::Workspace;
use serde_json::{json, Value};

use crate::adapters::{self, Adapter};
use crate::config::Config;
use crate::engine::{Engine, FrontEnd, HookEvent, Phase};
use crate::exit;

/// Largest payload read; Write payloads carry whole files.
const MAX_PAYLOAD_BYTES: u64 = 64 * 1024 * 1024;

/// Front-ends with a hook adapter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FrontEndArg {
    /// Claude Code (`.claude/settings.json` hooks).
    ClaudeCode,
    /// OpenAI Codex CLI (`.codex/hooks.json`, Claude Code's format).
    Codex,
    /// Google Gemini CLI (`.gemini/settings.json` hooks).
    Gemini,
    /// Cline (`.clinerules/hooks/` executables).
    Cline,
    /// Cursor (`.cursor/hooks.json`).
    Cursor,
    /// GitHub Copilot CLI (`.github/hooks/*.json`; give `--event`).
    Copilot,
    /// The seeds' Roo Code fork, or anything sending the plain JSON event.
    Generic,
}

impl FrontEndArg {
    fn front_end(self) -> FrontEnd {
        match self {
            FrontEndArg::ClaudeCode => FrontEnd::ClaudeCode,
            FrontEndArg::Codex => FrontEnd::Codex,
            FrontEndArg::Gemini => FrontEnd::Gemini,
            FrontEndArg::Cline => FrontEnd::Cline,
            FrontEndArg::Cursor => FrontEnd::Cursor,
            FrontEndArg::Copilot => FrontEnd::Copilot,
            FrontEndArg::Generic => FrontEnd::Generic,
        }
    }
}

/// Arguments of `intent hook`.
#[derive(Debug, Args)]
pub struct HookArgs {
    /// Which front-end's payload format to read and answer in; without it, the
    /// front-end is recognized from the payload's shape.
    #[arg(value_enum)]
    pub front_end: Option<FrontEndArg>,
    /// The event this hook is registered for, for front-ends whose payloads do not
    /// name it (GitHub Copilot CLI: `--event preToolUse`). A payload that names its
    /// event itself keeps its own name.
    #[arg(long, value_name = "EVENT")]
    pub event: Option<String>,
}

/// Reads the payload, runs the engine, prints the reply. Always exits 0 with a reply
/// the front-end understands, except when even that is impossible (exit 2 blocks).
pub fn run(config: &Config, args: HookArgs) -> anyhow::Result<u8> {
    let reply = answer(
        config,
        args.front_end.map(FrontEndArg::front_end),
        args.event.as_deref(),
    );
    let mut out = std::io::stdout().lock();
    writeln!(out, "{reply}")?;
    out.flush()?;
    Ok(exit::OK)
}

fn answer(config: &Config, front_end: Option<FrontEnd>, event: Option<&str>) -> Value {
    // Until the payload is read, a refusal goes out in the named front-end's words
    // (Claude Code's when none is named: Codex reads it too).
    let named = adapters::adapter(front_end.unwrap_or(FrontEnd::ClaudeCode));
    // The event the hook was registered for, when given: its fail-closed reply.
    let early_event = event.unwrap_or("");
    let mut input = Vec::new();
    let read = std::io::stdin()
        .lock()
        .take(MAX_PAYLOAD_BYTES + 1)
        .read_to_end(&mut input);
    if let Err(e) = read {
        return named.fail_closed(
            early_event,
            &format!("intent gate: cannot read the hook payload ({e}); refusing to be safe."),
        );
    }
    if input.len() as u64 > MAX_PAYLOAD_BYTES {
        return named.fail_closed(
            early_event,
            "intent gate: the hook payload is over 64 MiB; refusing to be safe.",
        );
    }
    let mut payload: Value = match std::str::from_utf8(&input)
        .map_err(|e| format!("is not valid UTF-8 ({e})"))
        .and_then(|text| serde_json::from_str(text).map_err(|e| format!("is not JSON ({e})")))
    {
        Ok(payload) => payload,
        Err(why) => {
            eprintln!("intent hook: the payload {why}");
            return named.fail_closed(
                early_event,
                &format!("intent gate: the hook payload {why}; refusing to be safe."),
            );
        }
    };
    if let (Some(event), Value::Object(fields)) = (event, &mut payload) {
        fields
            .entry(adapters::copilot::EVENT_FIELD)
            .or_insert_with(|| Value::String(event.to_string()));
    }
    let adapter = adapters::adapter(front_end.unwrap_or_else(|| adapters::detect(&payload)));
    let name = adapter.event_name(&payload);
    let event = match adapter.parse(&payload) {
        Ok(event) => event,
        Err(err) => {
            eprintln!("intent hook: {err}");
            return adapter.fail_closed(
                &name,
                &format!(
                    "intent gate: cannot read this {} hook payload ({err}); refusing to be safe.",
                    adapter.front_end().as_str()
                ),
            );
        }
    };
    let workspace = hook_workspace(config, &event);
    let checkpoint_after =
        (event.phase == crate::engine::event::Phase::Stop).then(|| workspace.clone());
    let engine = match Engine::new(workspace) {
        Ok(engine) => engine,
        Err(err) => return fail(adapter, &event, &name, None, &format!("{err:#}")),
    };
    match catch_unwind(AssertUnwindSafe(|| engine.handle(&event))) {
        Ok(Ok(reply)) => {
            // At the end of an agent's turn, a local checkpoint of the ledger in git
            // (O(new events)): what `intent restore` rebuilds from if the ledger is
            // wiped. Best effort: without git there is nothing to write to.
            if let Some(workspace) = checkpoint_after {
                if workspace.git_store_dir().is_some() {
                    if let Err(err) = crate::sync::checkpoint(&workspace) {
                        eprintln!("intent hook: no checkpoint written: {err:#}");
                    }
                }
            }
            adapter.render(&name, &reply)
        }
        Ok(Err(err)) => {
            let tampered = err.chain().any(|cause| {
                matches!(
                    cause.downcast_ref::<intent_ledger::LedgerError>(),
                    Some(intent_ledger::LedgerError::Tampered { .. })
                )
            });
            let why = format!("{err:#}");
            if tampered {
                return fail_tampered(adapter, &event, &name, &why);
            }
            fail(adapter, &event, &name, Some(&engine), &why)
        }
        Err(panic) => {
            let what = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown panic".into());
            fail(
                adapter,
                &event,
                &name,
                Some(&engine),
                &format!("internal error: {what}"),
            )
        }
    }
}

/// The workspace of a hook: `--workspace`, else the front-end's project directory
/// variable (`$CLAUDE_PROJECT_DIR`, `$GEMINI_PROJECT_DIR`, `$COPILOT_PROJECT_DIR`), else the payload's `cwd`,
/// else the current directory.
fn hook_workspace(config: &Config, event: &HookEvent) -> Workspace {
    if config.explicit_workspace {
        return config.workspace.clone();
    }
    let variable = match event.front_end {
        FrontEnd::Gemini => "GEMINI_PROJECT_DIR",
        // Copilot also sets CLAUDE_PROJECT_DIR; its own name is the one to trust.
        FrontEnd::Copilot => "COPILOT_PROJECT_DIR",
        _ => "CLAUDE_PROJECT_DIR",
    };
    if let Some(dir) = std::env::var_os(variable) {
        return Workspace::discover(std::path::Path::new(&dir));
    }
    match &event.cwd {
        Some(cwd) => Workspace::discover(cwd),
        None => config.workspace.clone(),
    }
}

/// A ledger that no longer matches its head: nothing can be recorded (so no
/// warning event either); destructive actions are refused with `ledger_tampered`,
/// reads pass.
fn fail_tampered(adapter: &dyn Adapter, event: &HookEvent, name: &str, why: &str) -> Value {
    eprintln!("intent hook: {why}");
    if event.phase == Phase::PreTool && !is_read_only(event) {
        let reason = json!({
            "type": "ledger_tampered",
            "message": why,
            "next_step": "Stop and tell the human: the ledger was tampered with. A person runs `intent verify` to see what happened, `intent restore` to rebuild lost events from the last checkpoint in git, or `intent verify --repair` to record the loss and continue. Do not touch .orchestration/ yourself.",
        });
        return adapter.fail_closed(
            name,
            &format!("intent gate: the ledger was tampered with; refusing every change until a person repairs it.\n{reason}"),
        );
    }
    adapter.render(name, &Default::default())
}

fn is_read_only(event: &HookEvent) -> bool {
    match event.tool.as_ref() {
        None => true,
        Some(tool) => {
            let cwd = event.cwd.clone().unwrap_or_default();
            intent_ledger::gate::fails_open(&tool.action, &cwd)
        }
    }
}

/// Fails closed for anything that may change the workspace, open for reads.
fn fail(
    adapter: &dyn Adapter,
    event: &HookEvent,
    name: &str,
    engine: Option<&Engine>,
    why: &str,
) -> Value {
    eprintln!("intent hook: {why}");
    let read_only = is_read_only(event);
    if let Some(engine) = engine {
        let verdict = if read_only {
            "allowed (read-only, fail open)"
        } else {
            "denied (fail closed)"
        };
        engine.record_warning(Some(&event.session), &format!("{name}: {why}; {verdict}"));
    }
    if event.phase == Phase::PreTool && !read_only {
        let reason = json!({
            "type": "invalid_config",
            "message": format!("the intent hook failed: {why}"),
            "next_step": "Tell the human; destructive actions are refused until `intent validate` and `intent verify` pass.",
        });
        return adapter.fail_closed(
            name,
            &format!("intent gate: the hook failed ({why}); refusing to be safe.\n{reason}"),
        );
    }
    adapter.render(name, &Default::default())
}
