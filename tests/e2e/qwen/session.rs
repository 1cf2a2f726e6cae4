//! Running the real `qwen` against the mock, with a time limit.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::Step;
use crate::chatmock::MockChat;
use crate::cliproc::{
    clean_command, find_bin, joined_path, require_bin, run_with_limit, Finished, Scripted,
};
use crate::mockhttp::RecordedRequest;

/// The Qwen Code version the harness was written against.
pub const QWEN_VERSION: &str = "0.24.4";

/// Where `.ci/run` installs Qwen Code and the Node.js 22 it needs.
fn prefix() -> Option<PathBuf> {
    std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache/intent-ledger/qwen-code"))
}

/// Returns Qwen Code's `cli.js`: `INTENT_QWEN_BIN`, else where `.ci/run` installs it.
pub fn qwen_bin() -> Option<PathBuf> {
    let defaults: Vec<PathBuf> = prefix()
        .map(|p| p.join("node_modules/@qwen-code/qwen-code/cli.js"))
        .into_iter()
        .collect();
    find_bin("INTENT_QWEN_BIN", &defaults)
}

/// Returns `cli.js`, or `None` after a loud skip message.
///
/// # Panics
///
/// When it is missing and `CI` is set.
pub fn require_qwen() -> Option<PathBuf> {
    require_bin(
        qwen_bin(),
        "INTENT_QWEN_BIN",
        &format!("install node@22 and @qwen-code/qwen-code@{QWEN_VERSION} into ~/.cache/intent-ledger/qwen-code as .ci/run does"),
    )
}

/// The `node` that runs `cli.js`: the one installed beside it (`.ci/run` puts
/// `node@22` in the same prefix: Qwen needs 22, the machine may have less), else
/// the one on `PATH`.
fn node_for(cli: &Path) -> PathBuf {
    cli.ancestors()
        .find(|dir| dir.ends_with("node_modules"))
        .map(|modules| modules.join(".bin/node"))
        .filter(|node| node.is_file())
        .unwrap_or_else(|| PathBuf::from("node"))
}

/// A scripted `qwen` session, built up then [`run`](QwenRun::run).
pub type QwenRun = Scripted<Step>;

impl Scripted<Step> {
    /// Runs the session to completion (or the time limit) and returns what happened.
    ///
    /// # Panics
    ///
    /// When the mock cannot start or `node` cannot be spawned.
    pub fn run(self) -> QwenOutcome {
        let home = tempfile::tempdir().expect("temp HOME");
        // No update check, no usage statistics: the run talks to the mock only.
        let settings = json!({
            "general": {"enableAutoUpdate": false, "disableUpdateNag": true},
            "privacy": {"usageStatisticsEnabled": false},
            "telemetry": {"enabled": false},
        });
        std::fs::create_dir_all(home.path().join(".qwen")).unwrap();
        std::fs::write(
            home.path().join(".qwen/settings.json"),
            settings.to_string(),
        )
        .unwrap();
        let script = self.script.into_iter().map(|step| step.0).collect();
        let mock = MockChat::start(script).expect("start the mock chat-completions API");
        let mut cmd = clean_command(node_for(&self.program));
        cmd.current_dir(&self.workspace)
            .env("PATH", joined_path(&self.path_prepend))
            .env("HOME", home.path())
            .env("OPENAI_API_KEY", "sk-mock")
            .env("OPENAI_BASE_URL", mock.base_url())
            .env("OPENAI_MODEL", "mock-model")
            .env("QWEN_CODE_SUPPRESS_YOLO_WARNING", "1")
            .envs(self.env)
            .arg(&self.program)
            .args(["--yolo", "-o", "json", "-p"])
            .arg(&self.prompt);
        let run = run_with_limit(cmd, self.timeout);
        QwenOutcome {
            run,
            requests: mock.requests(),
            home,
        }
    }
}

/// What a session did.
pub struct QwenOutcome {
    /// Exit status, time and output of `qwen` (stdout: the session as JSON).
    pub run: Finished,
    /// Every request the mock received, in arrival order.
    pub requests: Vec<RecordedRequest>,
    home: tempfile::TempDir,
}

impl QwenOutcome {
    /// The temporary HOME (`.qwen/` with its settings and transcripts lives under it).
    pub fn home(&self) -> &Path {
        self.home.path()
    }

    /// The messages of `-o json`'s array (empty when stdout is not that).
    fn messages(&self) -> Vec<Value> {
        serde_json::from_str::<Vec<Value>>(self.run.stdout.trim()).unwrap_or_default()
    }

    /// Every tool result the model received, in call order: whether it is an
    /// error, and its text.
    pub fn tool_results(&self) -> Vec<(bool, String)> {
        self.messages()
            .iter()
            .filter(|m| m["type"] == "user")
            .flat_map(|m| {
                m["message"]["content"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default()
            })
            .filter(|part| part["type"] == "tool_result")
            .map(|part| {
                let text = match &part["content"] {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                (part["is_error"] == true, text)
            })
            .collect()
    }

    /// The run's `result` message (`subtype`, `permission_denials`, …).
    pub fn result(&self) -> Value {
        self.messages()
            .into_iter()
            .find(|m| m["type"] == "result")
            .unwrap_or_default()
    }

    /// Describes the session for assertion messages.
    pub fn describe(&self) -> String {
        self.run
            .describe("qwen", &self.requests, "tool results", &self.tool_results())
    }

    /// Panics with [`describe`](Self::describe) unless `qwen` exited 0 in time.
    pub fn assert_success(&self) {
        assert!(self.run.succeeded(), "{}", self.describe());
    }
}
