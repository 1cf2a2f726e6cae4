//! A harness that drives the real Factory Droid CLI (`droid exec`) offline: the
//! chat-completions mock of [`crate::chatmock`] plays a scripted conversation as a
//! BYOK custom model, while the tools Droid runs (`Create`, `Edit`, `Execute`, MCP
//! tools) and the hooks it fires are the real ones.
//!
//! What Droid expects (0.225.2, found by running it): no account and no network
//! for a custom model (`customModels` in `~/.factory/settings.json` with
//! `provider: generic-chat-completion-api`, chosen as `-m custom:<displayName>-0`);
//! only `POST /v1/chat/completions` (streamed, native tool calls) is called; a turn
//! without a tool call ends the run. Project hooks in `.factory/hooks.json` and MCP
//! servers in `.factory/mcp.json` load without a trust step; MCP tools are offered
//! only through its `ToolSearch`, but a call by name (`intent___select_active_intent`)
//! runs. `droid exec` fires `SessionStart`, `PreToolUse`, `PostToolUse` (not for a
//! tool that failed), `Stop` and `SessionEnd`, never `UserPromptSubmit`. Edits and
//! commands need `--auto medium` or `high`. `-o json` prints only the final result,
//! so what the tools answered is read from the model's last request.

// The harness serves several test modules; not every one uses every helper.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::chatmock::MockChat;
use crate::cliproc::{
    clean_command, find_bin, joined_path, require_bin, run_with_limit, Finished, Scripted,
};
use crate::mockhttp::RecordedRequest;

/// The Droid version the harness was written against.
pub const DROID_VERSION: &str = "0.225.2";

/// Returns the `droid` binary: `INTENT_DROID_BIN`, else where `.ci/run` installs it.
pub fn droid_bin() -> Option<PathBuf> {
    let defaults: Vec<PathBuf> = std::env::var_os("HOME")
        .map(|home| {
            PathBuf::from(home)
                .join(".cache/intent-ledger/droid/node_modules/@factory/cli-linux-x64/bin/droid")
        })
        .into_iter()
        .collect();
    find_bin("INTENT_DROID_BIN", &defaults)
}

/// Returns `droid`, or `None` after a loud skip message.
///
/// # Panics
///
/// When it is missing and `CI` is set.
pub fn require_droid() -> Option<PathBuf> {
    require_bin(
        droid_bin(),
        "INTENT_DROID_BIN",
        &format!("install @factory/cli-linux-x64@{DROID_VERSION} into ~/.cache/intent-ledger/droid as .ci/run does"),
    )
}

/// One scripted model turn of a Droid session: a tool call as Droid offers it.
#[derive(Clone, Debug)]
pub struct Step(pub crate::chatmock::Step);

impl Step {
    /// `Create` of `path` (Droid wants it absolute) with `content`.
    pub fn create(path: &Path, content: &str) -> Step {
        Step::call("Create", json!({"file_path": path, "content": content}))
    }

    /// `Edit` of `path`: `old` replaced by `new`.
    pub fn edit(path: &Path, old: &str, new: &str) -> Step {
        Step::call(
            "Edit",
            json!({"file_path": path, "old_str": old, "new_str": new}),
        )
    }

    /// `Execute` in the workspace, with the risk fields Droid requires.
    pub fn execute(command: &str) -> Step {
        Step::call(
            "Execute",
            json!({"summary": "Run the scripted command here", "command": command,
                "riskLevelReason": "Scripted by the test.", "riskLevel": "low"}),
        )
    }

    /// The MCP handshake selecting `id`, as Droid names our server's tool.
    pub fn select(id: &str) -> Step {
        Step::call("intent___select_active_intent", json!({"intent_id": id}))
    }

    /// Any tool call.
    pub fn call(tool: &str, arguments: Value) -> Step {
        Step(crate::chatmock::Step::call(tool, arguments))
    }
}

/// A scripted `droid exec` session, built up then [`run`](DroidRun::run).
pub type DroidRun = Scripted<Step>;

impl Scripted<Step> {
    /// Runs the session to completion (or the time limit) and returns what happened.
    ///
    /// # Panics
    ///
    /// When the mock cannot start or `droid` cannot be spawned.
    pub fn run(self) -> DroidOutcome {
        let home = tempfile::tempdir().expect("temp HOME");
        let script = self.script.into_iter().map(|step| step.0).collect();
        let mock = MockChat::start(script).expect("start the mock chat-completions API");
        let settings = json!({"customModels": [{
            "model": "mock-model", "displayName": "Mock", "baseUrl": mock.base_url(),
            "apiKey": "sk-mock", "provider": "generic-chat-completion-api",
            "maxOutputTokens": 4096,
        }]});
        std::fs::create_dir_all(home.path().join(".factory")).unwrap();
        std::fs::write(
            home.path().join(".factory/settings.json"),
            settings.to_string(),
        )
        .unwrap();
        let mut cmd = clean_command(&self.program);
        cmd.current_dir(&self.workspace)
            .env("PATH", joined_path(&self.path_prepend))
            .env("HOME", home.path())
            .envs(self.env)
            .args([
                "exec",
                "--auto",
                "high",
                "-m",
                "custom:Mock-0",
                "-o",
                "json",
            ])
            .arg(&self.prompt);
        let run = run_with_limit(cmd, self.timeout);
        DroidOutcome {
            run,
            requests: mock.requests(),
            home,
        }
    }
}

/// What a session did.
pub struct DroidOutcome {
    /// Exit status, time and output of `droid` (stdout: the result as JSON).
    pub run: Finished,
    /// Every request the mock received, in arrival order.
    pub requests: Vec<RecordedRequest>,
    home: tempfile::TempDir,
}

impl DroidOutcome {
    /// The temporary HOME (`.factory/` with its settings and sessions).
    pub fn home(&self) -> &Path {
        self.home.path()
    }

    /// What each tool call answered the model, in call order (the `tool` messages of
    /// the model's last request).
    pub fn tool_results(&self) -> Vec<String> {
        let last = self
            .requests
            .iter()
            .filter(|r| r.is_agent_turn())
            .filter_map(|r| r.body.as_ref())
            .next_back();
        last.and_then(|body| body["messages"].as_array())
            .into_iter()
            .flatten()
            .filter(|m| m["role"] == "tool")
            .map(|m| match &m["content"] {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            })
            .collect()
    }

    /// The run's `-o json` result (`subtype`, `is_error`, …).
    pub fn result(&self) -> Value {
        serde_json::from_str(self.run.stdout.trim()).unwrap_or_default()
    }

    /// Describes the session for assertion messages.
    pub fn describe(&self) -> String {
        self.run.describe(
            "droid",
            &self.requests,
            "tool results",
            &self.tool_results(),
        )
    }

    /// Panics with [`describe`](Self::describe) unless `droid` exited 0 in time.
    pub fn assert_success(&self) {
        assert!(self.run.succeeded(), "{}", self.describe());
    }
}
