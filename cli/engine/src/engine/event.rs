//! The normalized hook event every adapter produces, and the normalized reply every
//! adapter renders back into its front-end's format.

use std::path::PathBuf;

use intent_gate::{Action, GateReason};
use serde_json::Value;

/// Which front-end a hook event came from: the one list of front-ends, also the
/// argument of `intent hook <front-end>` and `intent init --agent <front-end>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FrontEnd {
    /// Claude Code (`.claude/settings.json` hooks, `.mcp.json`).
    ClaudeCode,
    /// OpenAI Codex CLI (`.codex/hooks.json`, Claude Code's format).
    Codex,
    /// Google Gemini CLI (`.gemini/settings.json` hooks).
    Gemini,
    /// Cline, the VS Code extension and the `cline` CLI (`.clinerules/hooks/`).
    Cline,
    /// Cursor (`.cursor/hooks.json`, `.cursor/mcp.json`).
    Cursor,
    /// GitHub Copilot CLI and coding agent (`.github/hooks/*.json`; hooks give `--event`).
    Copilot,
    /// Qwen Code (`.qwen/settings.json` hooks, Claude Code's format).
    QwenCode,
    /// OpenCode (`.opencode/plugin/intent-ledger.js`, a plugin running our hook).
    #[value(name = "opencode")]
    OpenCode,
    /// Factory Droid (`.factory/hooks.json`, Claude Code's format; `.factory/mcp.json`).
    Droid,
    /// Windsurf's Cascade (`.windsurf/hooks.json`, its own format).
    Windsurf,
    /// Kilo Code's CLI, an OpenCode fork (`.kilo/plugins/intent-ledger.js`, the same
    /// plugin as OpenCode's).
    KiloCode,
    /// The seeds' Roo Code fork, or anything sending the plain JSON event.
    Generic,
    /// An external adapter, `intent-adapter-<name>` on `PATH`, that turns its agent's
    /// payloads into the generic event (docs/frontends/external.md). Not a value of
    /// the CLI's list: any name that is not built in is looked up on `PATH`.
    #[value(skip)]
    External(ExternalFrontEnd),
}

/// An external adapter as its handshake declared it: its name, recorded as the
/// front-end (`hook:<name>`), and what its agent can do with a hook's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExternalFrontEnd {
    /// The `<name>` of `intent-adapter-<name>`; `'static` because events record the
    /// front-end by name and a hook process speaks to one adapter.
    pub name: &'static str,
    /// Its agent asks before a file is written (else writes are judged afterwards).
    pub blocks_before_write: bool,
    /// Its agent can run a tool with an input the hook gives instead (a shell
    /// command rewritten to run under `intent confine`).
    pub can_rewrite_input: bool,
    /// A refusal cancels the agent's whole task rather than one tool call.
    pub refusal_cancels_task: bool,
}

impl FrontEnd {
    /// Every front-end, in the order the CLI lists them.
    pub const ALL: [FrontEnd; 12] = [
        FrontEnd::ClaudeCode,
        FrontEnd::Codex,
        FrontEnd::Gemini,
        FrontEnd::Cline,
        FrontEnd::Cursor,
        FrontEnd::Copilot,
        FrontEnd::QwenCode,
        FrontEnd::OpenCode,
        FrontEnd::Droid,
        FrontEnd::Windsurf,
        FrontEnd::KiloCode,
        FrontEnd::Generic,
    ];

    /// Returns the name recorded in the ledger (and taken by `intent hook`).
    pub fn as_str(self) -> &'static str {
        match self {
            FrontEnd::ClaudeCode => "claude-code",
            FrontEnd::Codex => "codex",
            FrontEnd::Gemini => "gemini",
            FrontEnd::Cline => "cline",
            FrontEnd::Cursor => "cursor",
            FrontEnd::Copilot => "copilot",
            FrontEnd::QwenCode => "qwen-code",
            FrontEnd::OpenCode => "opencode",
            FrontEnd::Droid => "droid",
            FrontEnd::Windsurf => "windsurf",
            FrontEnd::KiloCode => "kilo-code",
            FrontEnd::Generic => "generic",
            FrontEnd::External(external) => external.name,
        }
    }

    /// What the front-end can do with a refusal, for the gate to decide whether it
    /// is enforced (`gate::decide`): Cline's hooks can only refuse by cancelling the
    /// whole task.
    pub fn capabilities(self) -> intent_gate::Capabilities {
        if let FrontEnd::External(external) = self {
            // As the adapter's handshake declared them (docs/frontends/external.md).
            return intent_gate::Capabilities {
                blocks_before_write: external.blocks_before_write,
                refusal_cancels_task: external.refusal_cancels_task,
            };
        }
        intent_gate::Capabilities {
            // Every front-end's write reaches the gate before it happens now that
            // Cursor has `preToolUse`; Cursor's older after-the-fact edits are judged
            // in Post.
            blocks_before_write: true,
            refusal_cancels_task: self == FrontEnd::Cline,
        }
    }
}

/// Who acted, as the ledger records it (`source`): an agent through a front-end's
/// hook, a person at the command line, or the MCP server on an agent's behalf.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// A hook event of this front-end.
    Hook(FrontEnd),
    /// An `intent` command run by a person.
    Cli,
    /// The `intent mcp` server.
    Mcp,
}

impl Origin {
    /// The ledger's `source`: `hook:<front-end>`, `cli` or `mcp`.
    pub fn source(self) -> String {
        match self {
            Origin::Hook(front_end) => format!("hook:{}", front_end.as_str()),
            Origin::Cli => "cli".to_string(),
            Origin::Mcp => "mcp".to_string(),
        }
    }

    /// The name events record as `front_end`: the front-end's, or `cli` / `mcp`.
    pub fn name(self) -> &'static str {
        match self {
            Origin::Hook(front_end) => front_end.as_str(),
            Origin::Cli => "cli",
            Origin::Mcp => "mcp",
        }
    }

    /// The front-end, for a hook.
    pub fn front_end(self) -> Option<FrontEnd> {
        match self {
            Origin::Hook(front_end) => Some(front_end),
            Origin::Cli | Origin::Mcp => None,
        }
    }
}

/// Where in an agent's turn the hook fires.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// A session started (or resumed).
    SessionStart,
    /// The user submitted a prompt.
    PromptSubmit,
    /// A tool is about to run: the gate decides.
    PreTool,
    /// A tool ran.
    PostTool,
    /// A tool ran and failed.
    PostToolFailure,
    /// The agent asks its model again within the same turn (Qwen Code's
    /// `UserPromptSubmit` carrying only tool results): nothing to record.
    Continue,
    /// The agent stopped.
    Stop,
}

/// A tool call in a hook event.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    /// What the gate sees.
    pub action: Action,
    /// Front-end's id of this call, pairing pre and post.
    pub use_id: Option<String>,
    /// The tool's input as sent (never stored: only paths and hashes are).
    pub input: Value,
    /// What the tool did (post phases).
    pub response: Option<ToolResponse>,
    /// The agent's own classification of the change, when its input declares one.
    pub declared_mutation_class: Option<String>,
    /// For handshake tools: which one (`select_active_intent`, …).
    pub handshake: Option<String>,
    /// The front-end gates this call again in a later event (Cursor's `preToolUse`
    /// of `Shell`, then `beforeShellExecution`): judged here only when it may be
    /// rewritten to run confined, passed otherwise.
    pub gated_later: bool,
}

/// What a tool did, as the engine needs it: read once, by the adapter, from the
/// front-end's response.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ToolResponse {
    /// The tool failed (or was refused).
    pub failed: bool,
    /// Why it failed, in the front-end's words (`None` when it did not).
    pub error: Option<String>,
    /// The file's text before a single-file write, when the front-end reports it
    /// (Claude Code's `originalFile`; Gemini's `originalContent` of an existing file).
    pub original_text: Option<String>,
}

impl ToolResponse {
    /// Reads the response shape the adapters normalize to: failure from `is_error:
    /// true`, `success: false` or a non-empty `error`; its text from the first of
    /// `error`, `stderr`, `message`, `content` (else the whole response); the old
    /// text from `originalFile`.
    pub fn from_json(raw: &Value) -> ToolResponse {
        let failed = raw.get("is_error").and_then(Value::as_bool) == Some(true)
            || raw.get("success").and_then(Value::as_bool) == Some(false)
            || raw.get("error").is_some_and(|e| !e.is_null() && e != "");
        let error = failed.then(|| {
            ["error", "stderr", "message", "content"]
                .iter()
                .find_map(|key| raw.get(*key).and_then(Value::as_str))
                .map_or_else(|| raw.to_string(), str::to_string)
        });
        ToolResponse {
            failed,
            error,
            original_text: raw
                .get("originalFile")
                .and_then(Value::as_str)
                .map(str::to_string),
        }
    }
}

/// One hook event, front-end independent.
#[derive(Debug, Clone, PartialEq)]
pub struct HookEvent {
    /// The front-end.
    pub front_end: FrontEnd,
    /// The phase.
    pub phase: Phase,
    /// Agent session id.
    pub session: String,
    /// Id of the user prompt this event belongs to, when known.
    pub prompt_id: Option<String>,
    /// Working directory of the agent.
    pub cwd: Option<PathBuf>,
    /// Transcript file, for looking up the model.
    pub transcript_path: Option<PathBuf>,
    /// Model id as the front-end names it, when the payload carries one.
    pub model: Option<String>,
    /// The tool call (tool phases).
    pub tool: Option<ToolCall>,
    /// The user's prompt (prompt phase).
    pub prompt: Option<String>,
    /// Why a session started (`startup`, `resume`, …).
    pub source: Option<String>,
}

/// What the hook answers, front-end independent.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Reply {
    /// Deny or ask, with the structured reason; `None` lets the front-end proceed
    /// with its own permission rules (we never grant more than it would).
    pub refusal: Option<Refusal>,
    /// Context to add to the model's next turn.
    pub context: Option<String>,
    /// After a tool ran: feed this reason back to the model as a block (the policy
    /// blocks a declared class that does not match the computed one).
    pub post_block: Option<String>,
    /// Before a tool runs: the whole input to run it with instead (a shell command
    /// wrapped in `intent confine`), and whether the front-end should still ask;
    /// each adapter renders it in its front-end's words (docs/confine.md).
    pub rewrite: Option<Rewrite>,
}

/// A tool input to run instead of the agent's.
#[derive(Debug, Clone, PartialEq)]
pub struct Rewrite {
    /// The whole new input (every field of the old one kept).
    pub input: Value,
    /// Let the front-end ask the human, showing the rewrite; else the hook allows
    /// it as far as the front-end lets a hook (some still apply their own rules).
    pub ask: bool,
}

impl Reply {
    /// Adds `text` to the context the model gets, after what is there already.
    pub fn add_context(&mut self, text: String) {
        self.context = Some(match self.context.take() {
            Some(existing) => format!("{existing}\n{text}"),
            None => text,
        });
    }
}

/// A deny or an ask.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    /// True for ask (a human decides), false for deny.
    pub ask: bool,
    /// The structured reason.
    pub reason: GateReason,
}

impl Refusal {
    /// Returns the text the agent sees.
    pub fn text(&self) -> String {
        self.reason.to_agent_text()
    }
}
