//! A harness that drives the real OpenCode (`opencode run --format json`) offline:
//! the chat-completions mock of [`crate::chatmock`] plays a scripted conversation,
//! while the tools OpenCode runs (`write`, `edit`, `bash`) and the plugin that
//! `intent init --agent opencode` wrote are the real ones.
//!
//! What OpenCode expects (1.18.33, found by running it): a provider in the global
//! configuration (`$XDG_CONFIG_HOME/opencode/opencode.json`, here under a temporary
//! HOME) with `"npm": "@ai-sdk/openai-compatible"` and `options.baseURL`; only
//! `POST /v1/chat/completions` (streamed, native tool calls) is called, first for a
//! title (no tools offered, which the mock answers with text), then for each agent
//! turn; a turn without a tool call ends the run. At startup OpenCode installs its
//! plugin package (`@opencode-ai/plugin`, from the npm registry) into
//! `.opencode/node_modules` and the configuration directory, and loads every plugin
//! in `.opencode/plugin/`. A plugin that throws in `tool.execute.before` refuses
//! the call: the model gets the error as the tool's result and the session goes on.
//!
//! Kilo Code's CLI (`kilo`, 7.7.7), an OpenCode fork, is driven the same way
//! ([`KILO`]): its global configuration is `$XDG_CONFIG_HOME/kilo/kilo.json`, its
//! variables are `KILO_*`, and it loads the plugin from `.kilo/plugins/`. It
//! installs no plugin package at startup (it runs fully offline), asks the mock for
//! no title, and offers Kilo's tools besides OpenCode's (`background_process`,
//! `kilo_local_recall`, …); `kilo run` does not ask before a write or a command.

// The harness serves several test modules; not every one uses every helper.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{json, Value};

use crate::chatmock::MockChat;
use crate::cliproc::{
    clean_command, find_bin, joined_path, require_bin, run_with_limit, Finished, Scripted,
};
use crate::mockhttp::RecordedRequest;

/// The OpenCode version the harness was written against.
pub const OPENCODE_VERSION: &str = "1.18.33";

/// The model id the mock provider offers (not `gpt-*`: OpenCode would offer
/// `apply_patch` instead of `write` and `edit`).
pub const MODEL: &str = "mock/mock-coder";

/// One scripted model turn: a tool call as OpenCode offers it.
#[derive(Clone, Debug)]
pub struct Step(pub crate::chatmock::Step);

impl Step {
    /// `write`: creates or replaces `path` (OpenCode wants it absolute) with `content`.
    pub fn write(path: &Path, content: &str) -> Step {
        Step::call("write", json!({"filePath": path, "content": content}))
    }

    /// `edit`: replaces `old` by `new` in `path`.
    pub fn edit(path: &Path, old: &str, new: &str) -> Step {
        Step::call(
            "edit",
            json!({"filePath": path, "oldString": old, "newString": new}),
        )
    }

    /// `bash` with this command line.
    pub fn bash(command: &str) -> Step {
        Step::call(
            "bash",
            json!({"command": command, "description": "scripted command"}),
        )
    }

    /// Any tool call.
    pub fn call(tool: &str, arguments: Value) -> Step {
        Step(crate::chatmock::Step::call(tool, arguments))
    }
}

/// The Kilo Code CLI version the harness was written against.
pub const KILO_VERSION: &str = "7.7.7";

/// A CLI of the OpenCode family, as the harness drives it.
pub struct Cli {
    /// Its name in messages.
    pub name: &'static str,
    /// Its directory under `$XDG_CONFIG_HOME`, and its global configuration's file.
    pub config: (&'static str, &'static str),
    /// The prefix of its environment variables.
    pub env: &'static str,
    /// The variable naming its binary, and where `.ci/run` installs it below HOME.
    pub bin: (&'static str, &'static str),
    /// How to install it, for the skip message.
    pub install: &'static str,
}

/// OpenCode.
pub const OPENCODE: Cli = Cli {
    name: "opencode",
    config: ("opencode", "opencode.json"),
    env: "OPENCODE",
    bin: (
        "INTENT_OPENCODE_BIN",
        ".cache/intent-ledger/opencode/node_modules/opencode-linux-x64/bin/opencode",
    ),
    install: "install opencode-ai@1.18.33 into ~/.cache/intent-ledger/opencode as .ci/run does",
};

/// Kilo Code's CLI.
pub const KILO: Cli = Cli {
    name: "kilo",
    config: ("kilo", "kilo.json"),
    env: "KILO",
    bin: (
        "INTENT_KILO_BIN",
        ".cache/intent-ledger/kilo/node_modules/@kilocode/cli-linux-x64/bin/kilo",
    ),
    install: "install @kilocode/cli@7.7.7 into ~/.cache/intent-ledger/kilo as .ci/run does",
};

impl Cli {
    /// The binary: its variable, else where `.ci/run` installs it.
    pub fn bin(&self) -> Option<PathBuf> {
        let defaults: Vec<PathBuf> = std::env::var_os("HOME")
            .map(|home| PathBuf::from(home).join(self.bin.1))
            .into_iter()
            .collect();
        find_bin(self.bin.0, &defaults)
    }

    /// The binary, or `None` after a loud skip message.
    ///
    /// # Panics
    ///
    /// When the binary is missing and `CI` is set.
    pub fn require(&self) -> Option<PathBuf> {
        require_bin(self.bin(), self.bin.0, self.install)
    }
}

/// Returns the `opencode` binary: `INTENT_OPENCODE_BIN`, else where `.ci/run`
/// installs it (`~/.cache/intent-ledger/opencode`).
pub fn opencode_bin() -> Option<PathBuf> {
    OPENCODE.bin()
}

/// Returns the `opencode` binary, or `None` after a loud skip message.
///
/// # Panics
///
/// When the binary is missing and `CI` is set.
pub fn require_opencode() -> Option<PathBuf> {
    OPENCODE.require()
}

/// A scripted `opencode run` session, built up then [`run`](OpenCodeRun::run).
pub type OpenCodeRun = Scripted<Step>;

impl Scripted<Step> {
    /// Writes the mock provider into a temporary HOME's configuration, then runs the
    /// session to completion (or the time limit).
    ///
    /// # Panics
    ///
    /// When the mock cannot start or the configuration cannot be written.
    pub fn run(self) -> OpenCodeOutcome {
        self.run_as(&OPENCODE)
    }

    /// [`run`](Self::run) with `cli` (OpenCode or Kilo Code).
    pub fn run_as(self, cli: &Cli) -> OpenCodeOutcome {
        let home = tempfile::tempdir().expect("temp HOME");
        let script = self.script.into_iter().map(|step| step.0).collect();
        let mock = MockChat::start(script).expect("start the mock chat-completions API");
        let config_dir = home.path().join(".config").join(cli.config.0);
        std::fs::create_dir_all(&config_dir).expect("config dir");
        let (provider, model) = MODEL.split_once('/').expect("provider/model");
        let config = json!({
            "provider": {provider: {
                "npm": "@ai-sdk/openai-compatible",
                "name": "Mock",
                "options": {"baseURL": mock.base_url(), "apiKey": "sk-mock"},
                "models": {model: {"name": "Mock Coder"}},
            }},
            "model": MODEL,
            "autoupdate": false,
            "share": "disabled",
        });
        std::fs::write(config_dir.join(cli.config.1), config.to_string()).expect("config");
        let mut cmd = cli_command(
            cli,
            &self.program,
            &self.workspace,
            home.path(),
            &self.path_prepend,
        );
        cmd.args(["run", &self.prompt, "--format", "json"])
            .envs(self.env);
        let run = run_with_limit(cmd, self.timeout.max(Duration::from_secs(240)));
        OpenCodeOutcome {
            run,
            requests: mock.requests(),
            home,
        }
    }
}

/// `opencode` in `workspace`, offline but for its plugin package, with `home` as
/// HOME and `prepend` in front of PATH.
pub fn opencode_command(
    program: &Path,
    workspace: &Path,
    home: &Path,
    prepend: &[PathBuf],
) -> std::process::Command {
    cli_command(&OPENCODE, program, workspace, home, prepend)
}

/// `program` (`cli`'s binary, or `intent` run beside it) in `workspace`, offline,
/// with `home` as HOME and `prepend` in front of PATH.
pub fn cli_command(
    cli: &Cli,
    program: &Path,
    workspace: &Path,
    home: &Path,
    prepend: &[PathBuf],
) -> std::process::Command {
    let env = |name: &str| format!("{}_{name}", cli.env);
    let mut cmd = clean_command(program);
    cmd.current_dir(workspace)
        .env("PATH", joined_path(prepend))
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_DATA_HOME", home.join(".local/share"))
        .env("XDG_CACHE_HOME", home.join(".cache"))
        .env("XDG_STATE_HOME", home.join(".local/state"))
        .env(env("DISABLE_MODELS_FETCH"), "1")
        .env(env("DISABLE_AUTOUPDATE"), "1")
        .env(env("DISABLE_SHARE"), "1")
        .env(env("DISABLE_LSP_DOWNLOAD"), "1");
    cmd
}

/// What a session did.
pub struct OpenCodeOutcome {
    /// Exit status, time and output of `opencode run` (stdout: JSON events).
    pub run: Finished,
    /// Every request the mock received, in arrival order.
    pub requests: Vec<RecordedRequest>,
    home: tempfile::TempDir,
}

impl OpenCodeOutcome {
    /// The temporary HOME.
    pub fn home(&self) -> &Path {
        self.home.path()
    }

    /// The text of every tool result the model received, in call order.
    pub fn tool_results(&self) -> Vec<String> {
        self.requests
            .iter()
            .rev()
            .filter(|r| r.is_agent_turn())
            .find_map(|r| r.body.as_ref())
            .and_then(|body| body["messages"].as_array())
            .into_iter()
            .flatten()
            .filter(|m| m["role"] == "tool")
            .map(|m| match &m["content"] {
                Value::String(text) => text.clone(),
                other => other.to_string(),
            })
            .collect()
    }

    /// The system prompt of the last agent turn.
    pub fn last_system_prompt(&self) -> String {
        self.requests
            .iter()
            .rev()
            .filter(|r| r.is_agent_turn())
            .find_map(|r| r.body.as_ref())
            .and_then(|body| body["messages"].as_array())
            .into_iter()
            .flatten()
            .filter(|m| m["role"] == "system")
            .map(|m| m["content"].to_string())
            .collect()
    }

    /// Describes the session for assertion messages.
    pub fn describe(&self) -> String {
        self.run.describe(
            "opencode",
            &self.requests,
            "tool results",
            &self.tool_results(),
        )
    }

    /// Panics with [`describe`](Self::describe) unless `opencode` exited 0 in time.
    pub fn assert_success(&self) {
        assert!(self.run.succeeded(), "{}", self.describe());
    }
}
