//! Running the real Gemini CLI (`node bundle/gemini.js -p`) against the mock, with a
//! time limit.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::mock::{MockGemini, Step};
use crate::cliproc::{
    clean_command, find_bin, joined_path, require_bin, run_with_limit, Finished, Scripted,
};
use crate::mockhttp::RecordedRequest;

/// The Gemini CLI version the harness was written against.
pub const GEMINI_VERSION: &str = "0.61.0";

/// The model the session asks for; naming one skips the model-router request.
pub const MODEL: &str = "gemini-2.5-pro";

/// The hook events `intent` registers for Gemini CLI (it also has `AfterAgent`).
pub const HOOK_EVENTS: &[&str] = &[
    "SessionStart",
    "BeforeAgent",
    "BeforeTool",
    "AfterTool",
    "SessionEnd",
];

/// Returns Gemini CLI's `bundle/gemini.js` (run with `node`): `INTENT_GEMINI_BIN`,
/// else where `.ci/run` installs it (`~/.cache/intent-ledger/gemini-cli`).
pub fn gemini_bin() -> Option<PathBuf> {
    let defaults: Vec<PathBuf> = std::env::var_os("HOME")
        .map(|home| {
            PathBuf::from(home).join(
                ".cache/intent-ledger/gemini-cli/node_modules/@google/gemini-cli/bundle/gemini.js",
            )
        })
        .into_iter()
        .collect();
    find_bin("INTENT_GEMINI_BIN", &defaults)
}

/// Returns `gemini.js`, or `None` after a loud skip message.
///
/// # Panics
///
/// When it is missing and `CI` is set.
pub fn require_gemini() -> Option<PathBuf> {
    require_bin(
        gemini_bin(),
        "INTENT_GEMINI_BIN",
        &format!("install @google/gemini-cli@{GEMINI_VERSION} into ~/.cache/intent-ledger/gemini-cli as .ci/run does"),
    )
}

/// Writes `<ws>/.gemini/settings.json`: `command` for every event of [`HOOK_EVENTS`]
/// (tool events match every tool; timeouts in milliseconds).
pub fn write_hook_config(ws: &Path, command: &str) {
    let mut hooks = serde_json::Map::new();
    for event in HOOK_EVENTS {
        let mut entry =
            json!({"hooks": [{"type": "command", "command": command, "timeout": 30000}]});
        if event.ends_with("Tool") {
            entry["matcher"] = json!(".*");
        }
        hooks.insert((*event).to_owned(), json!([entry]));
    }
    let dir = ws.join(".gemini");
    std::fs::create_dir_all(&dir).expect("create .gemini/");
    std::fs::write(
        dir.join("settings.json"),
        json!({"hooks": hooks}).to_string(),
    )
    .expect("write .gemini/settings.json");
}

/// Wires `ws` to `intent` as `intent init --agent gemini` will: `"<intent>" hook gemini`.
pub fn write_hooks(ws: &Path, intent_bin: &Path) {
    write_hook_config(ws, &format!("\"{}\" hook gemini", intent_bin.display()));
}

/// A scripted `gemini -p` session, built up then [`run`](GeminiRun::run).
pub type GeminiRun = Scripted<Step>;

impl Scripted<Step> {
    /// Runs the session to completion (or the time limit) and returns what happened.
    ///
    /// # Panics
    ///
    /// When the mock cannot start or `node` cannot be spawned.
    pub fn run(self) -> GeminiOutcome {
        let home = tempfile::tempdir().expect("temp HOME");
        let dot = home.path().join(".gemini");
        std::fs::create_dir_all(&dot).expect("create ~/.gemini");
        // Without an auth type Gemini CLI exits with "Invalid auth method selected".
        let user_settings = json!({"security": {"auth": {"selectedType": "gemini-api-key"}},
            "privacy": {"usageStatisticsEnabled": false}, "telemetry": {"enabled": false}});
        std::fs::write(dot.join("settings.json"), user_settings.to_string())
            .expect("write ~/.gemini/settings.json");
        let mock = MockGemini::start(self.script).expect("start the mock Gemini API");
        let mut cmd = clean_command("node");
        cmd.current_dir(&self.workspace)
            .env("PATH", joined_path(&self.path_prepend))
            .env("HOME", home.path())
            .env("GOOGLE_GEMINI_BASE_URL", mock.base_url())
            .env("GEMINI_API_KEY", "test-key")
            // An untrusted workspace loads no project hooks.
            .env("GEMINI_CLI_TRUST_WORKSPACE", "true")
            .envs(self.env)
            .arg(&self.program)
            .args(["--yolo", "-m", MODEL, "-p"])
            .arg(&self.prompt);
        let run = run_with_limit(cmd, self.timeout);
        GeminiOutcome {
            run,
            requests: mock.requests(),
            home,
        }
    }
}

/// What a session did.
pub struct GeminiOutcome {
    /// Exit status, time and output of Gemini CLI (stdout: the final answer).
    pub run: Finished,
    /// Every request the mock received, in arrival order.
    pub requests: Vec<RecordedRequest>,
    home: tempfile::TempDir,
}

/// One `functionResponse` as the model received it.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionResponse {
    /// The tool's name.
    pub name: String,
    /// The call id Gemini CLI gave the call.
    pub id: String,
    /// The response object (`{"error": "Tool execution blocked: <reason>"}` when a
    /// hook denied the call).
    pub response: Value,
}

impl GeminiOutcome {
    /// Returns the temporary HOME (`.gemini/` with chats lives under it).
    pub fn home(&self) -> &Path {
        self.home.path()
    }

    /// Returns the bodies of the streamed model turns, in order.
    pub fn turn_bodies(&self) -> Vec<&Value> {
        self.requests
            .iter()
            .filter(|r| r.is_stream_generate())
            .filter_map(|r| r.body.as_ref())
            .collect()
    }

    /// Returns every distinct `functionResponse` the model received, in order.
    pub fn function_responses(&self) -> Vec<FunctionResponse> {
        let mut seen: Vec<FunctionResponse> = Vec::new();
        for body in self.turn_bodies() {
            let parts = body["contents"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|c| c["parts"].as_array())
                .flatten()
                .filter_map(|p| p.get("functionResponse"));
            for part in parts {
                let response = FunctionResponse {
                    name: part["name"].as_str().unwrap_or("").to_owned(),
                    id: part["id"].as_str().unwrap_or("").to_owned(),
                    response: part["response"].clone(),
                };
                if !seen
                    .iter()
                    .any(|r| r.id == response.id && r.name == response.name)
                {
                    seen.push(response);
                }
            }
        }
        seen
    }

    /// Describes the session for assertion messages.
    pub fn describe(&self) -> String {
        self.run.describe(
            "gemini",
            &self.requests,
            "function responses",
            &self.function_responses(),
        )
    }

    /// Panics with [`describe`](Self::describe) unless Gemini CLI exited 0 in time.
    pub fn assert_success(&self) {
        assert!(self.run.succeeded(), "{}", self.describe());
    }
}
