//! Running the real `copilot -p` against the mock, with a time limit.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::chatmock::{MockChat, Step};
use crate::cliproc::{
    clean_command, find_bin, joined_path, require_bin, run_with_limit, Finished, Scripted,
};
use crate::mockhttp::RecordedRequest;

/// The Copilot CLI version the harness was written against.
pub const COPILOT_VERSION: &str = "1.0.102";

fn cache_root() -> Option<PathBuf> {
    std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache/intent-ledger"))
}

/// Returns the native `copilot` binary: `INTENT_COPILOT_BIN`, else where `.ci/run`
/// installs it (`~/.cache/intent-ledger/copilot`).
pub fn copilot_bin() -> Option<PathBuf> {
    let platform = match std::env::consts::ARCH {
        "aarch64" => "linux-arm64",
        _ => "linux-x64",
    };
    let defaults: Vec<PathBuf> = cache_root()
        .map(|root| {
            root.join(format!(
                "copilot/node_modules/@github/copilot-{platform}/copilot"
            ))
        })
        .into_iter()
        .collect();
    find_bin("INTENT_COPILOT_BIN", &defaults)
}

/// Returns the `copilot` binary, or `None` after a loud skip message.
///
/// # Panics
///
/// When the binary is missing and `CI` is set.
pub fn require_copilot() -> Option<PathBuf> {
    require_bin(
        copilot_bin(),
        "INTENT_COPILOT_BIN",
        &format!("install @github/copilot@{COPILOT_VERSION} into ~/.cache/intent-ledger/copilot as .ci/run does"),
    )
}

/// A scripted `copilot -p` session, built up then [`run`](CopilotRun::run).
pub type CopilotRun = Scripted<Step>;

impl Scripted<Step> {
    /// Runs the session to completion (or the time limit) and returns what happened.
    ///
    /// # Panics
    ///
    /// When the mock cannot start or `copilot` cannot be spawned.
    pub fn run(self) -> CopilotOutcome {
        let home = tempfile::tempdir().expect("temp HOME");
        let mock = MockChat::start(self.script).expect("start the mock chat-completions API");
        let mut cmd = clean_command(&self.program);
        cmd.current_dir(&self.workspace)
            .env("PATH", joined_path(&self.path_prepend))
            .env("HOME", home.path())
            .env("COPILOT_HOME", home.path().join(".copilot"))
            .env("COPILOT_AUTO_UPDATE", "false")
            .env("COPILOT_PROVIDER_BASE_URL", mock.base_url())
            .env("COPILOT_PROVIDER_TYPE", "openai")
            .env("COPILOT_PROVIDER_WIRE_API", "completions")
            .env("COPILOT_MODEL", "x")
            .env("COPILOT_OFFLINE", "true");
        // The binary unpacks a ~145 MB bundle on its first run: keep it between runs.
        if let Some(root) = cache_root() {
            cmd.env("COPILOT_CACHE_HOME", root.join("copilot-cache"));
        }
        cmd.envs(self.env)
            .arg("-C")
            .arg(&self.workspace)
            .args(["--allow-all-tools", "--trust-folder", "--no-color"])
            .arg("-p")
            .arg(&self.prompt);
        let run = run_with_limit(cmd, self.timeout);
        CopilotOutcome {
            run,
            requests: mock.requests(),
            home,
        }
    }
}

/// What a session did.
pub struct CopilotOutcome {
    /// Exit status, time and output of `copilot`.
    pub run: Finished,
    /// Every request the mock received, in arrival order.
    pub requests: Vec<RecordedRequest>,
    home: tempfile::TempDir,
}

impl CopilotOutcome {
    /// The temporary HOME (`.copilot/` with sessions and logs lives under it).
    pub fn home(&self) -> &Path {
        self.home.path()
    }

    /// The text of every tool result the model received, in call order.
    pub fn tool_results(&self) -> Vec<String> {
        let last = self
            .requests
            .iter()
            .rev()
            .filter(|r| r.is_agent_turn())
            .find_map(|r| r.body.as_ref());
        last.and_then(|body| body["messages"].as_array())
            .into_iter()
            .flatten()
            .filter(|m| m["role"] == "tool")
            .map(|m| text_of(&m["content"]))
            .collect()
    }

    /// Describes the session for assertion messages.
    pub fn describe(&self) -> String {
        self.run.describe(
            "copilot",
            &self.requests,
            "tool results",
            &self.tool_results(),
        )
    }

    /// Panics with [`describe`](Self::describe) unless `copilot` exited 0 in time.
    pub fn assert_success(&self) {
        assert!(self.run.succeeded(), "{}", self.describe());
    }
}

/// A message's content: a string, or parts whose text is joined.
fn text_of(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}
