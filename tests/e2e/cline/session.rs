//! Running the real `cline --json` against the mock, with a time limit.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::Step;
use crate::chatmock::MockChat;
use crate::cliproc::{
    clean_command, find_bin, joined_path, require_bin, run_with_limit, Finished, Scripted,
};
use crate::mockhttp::RecordedRequest;

/// The Cline CLI version the harness was written against.
pub const CLINE_VERSION: &str = "3.0.65";

/// Returns the `cline` binary: `INTENT_CLINE_BIN`, else where `.ci/run` installs it
/// (`~/.cache/intent-ledger/cline`).
pub fn cline_bin() -> Option<PathBuf> {
    let defaults: Vec<PathBuf> = std::env::var_os("HOME")
        .map(|home| PathBuf::from(home).join(".cache/intent-ledger/cline/node_modules/.bin/cline"))
        .into_iter()
        .collect();
    find_bin("INTENT_CLINE_BIN", &defaults)
}

/// Returns the `cline` binary, or `None` after a loud skip message.
///
/// # Panics
///
/// When the binary is missing and `CI` is set.
pub fn require_cline() -> Option<PathBuf> {
    require_bin(
        cline_bin(),
        "INTENT_CLINE_BIN",
        &format!("install cline@{CLINE_VERSION} into ~/.cache/intent-ledger/cline as .ci/run does"),
    )
}

/// A scripted `cline --json` session, built up then [`run`](ClineRun::run). Set
/// `INTENT_MCP=1` with [`Scripted::env`] to register `intent mcp` first.
pub type ClineRun = Scripted<Step>;

impl Scripted<Step> {
    /// Configures the provider (and, when asked, our MCP server), then runs the
    /// session to completion (or the time limit).
    ///
    /// # Panics
    ///
    /// When the mock cannot start, `cline` cannot be spawned or set up.
    pub fn run(self) -> ClineOutcome {
        let home = tempfile::tempdir().expect("temp HOME");
        let script = self.script.into_iter().map(|step| step.0).collect();
        let mock = MockChat::start(script).expect("start the mock chat-completions API");
        let path = joined_path(&self.path_prepend);
        let cline = |args: &[&str]| {
            let mut cmd = clean_command(&self.program);
            cmd.current_dir(&self.workspace)
                .env("PATH", &path)
                .env("HOME", home.path())
                .env("CLINE_DIR", home.path().join(".cline"))
                .env("CLINE_NO_AUTO_UPDATE", "1")
                .env("CLINE_SESSION_BACKEND_MODE", "local")
                .args(args);
            cmd
        };
        let base_url = mock.base_url();
        let mut setup = vec![vec![
            "auth",
            "-p",
            "openai-compatible",
            "-k",
            "sk-mock",
            "-m",
            "mock-model",
            "-b",
            &base_url,
        ]];
        let with_mcp = self.env.iter().any(|(k, v)| k == "INTENT_MCP" && v == "1");
        if with_mcp {
            setup.push(vec!["mcp", "add", "intent", "--yes", "--", "intent", "mcp"]);
        }
        for args in setup {
            let done = run_with_limit(cline(&args), self.timeout);
            assert!(
                done.succeeded(),
                "cline {args:?}: {}{}",
                done.stdout,
                done.stderr
            );
        }
        let mut cmd = cline(&["--json", &self.prompt]);
        cmd.envs(self.env);
        let run = run_with_limit(cmd, self.timeout);
        ClineOutcome {
            run,
            requests: mock.requests(),
            home,
        }
    }
}

/// What a session did.
pub struct ClineOutcome {
    /// Exit status, time and output of `cline` (stdout: one JSON event per line).
    pub run: Finished,
    /// Every request the mock received, in arrival order.
    pub requests: Vec<RecordedRequest>,
    home: tempfile::TempDir,
}

impl ClineOutcome {
    /// The temporary HOME (`.cline/` with its settings and sessions lives under it).
    pub fn home(&self) -> &Path {
        self.home.path()
    }

    /// How the task ended: `completed`, `aborted` (a hook cancelled it) or `error`,
    /// from the last `run_result` line.
    pub fn finish_reason(&self) -> Option<String> {
        self.run
            .stdout
            .lines()
            .rev()
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .find(|event| event["type"] == "run_result")
            .and_then(|event| event["finishReason"].as_str().map(str::to_string))
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
            .map(|m| m["content"].as_str().unwrap_or_default().to_string())
            .collect()
    }

    /// Describes the session for assertion messages.
    pub fn describe(&self) -> String {
        self.run.describe(
            "cline",
            &self.requests,
            "tool results",
            &self.tool_results(),
        )
    }

    /// Panics with [`describe`](Self::describe) unless `cline` exited 0 in time.
    pub fn assert_success(&self) {
        assert!(self.run.succeeded(), "{}", self.describe());
    }
}
