//! Running the real `codex exec` against the mock, with a time limit.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::mock::{MockResponses, Step};
use crate::cliproc::{
    clean_command, find_bin, joined_path, require_bin, run_with_limit, Finished, Scripted,
};
use crate::mockhttp::RecordedRequest;

/// The Codex CLI version the harness was written against.
pub const CODEX_VERSION: &str = "0.169.0";

/// The model the session asks for: it must be in Codex's bundled catalog, or Codex
/// offers no `apply_patch` tool.
pub const MODEL: &str = "gpt-5.5";

/// The hook events Codex fires in `exec` mode, all of which `intent` registers.
pub const HOOK_EVENTS: &[&str] = &[
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "Stop",
];

/// Returns the native `codex` binary: `INTENT_CODEX_BIN`, else where `.ci/run`
/// installs it (`~/.cache/intent-ledger/codex`).
pub fn codex_bin() -> Option<PathBuf> {
    let (platform, triple) = match std::env::consts::ARCH {
        "aarch64" => ("linux-arm64", "aarch64-unknown-linux-musl"),
        _ => ("linux-x64", "x86_64-unknown-linux-musl"),
    };
    let defaults: Vec<PathBuf> = std::env::var_os("HOME")
        .map(|home| {
            PathBuf::from(home).join(format!(
                ".cache/intent-ledger/codex/node_modules/@openai/codex-{platform}/vendor/{triple}/bin/codex"
            ))
        })
        .into_iter()
        .collect();
    find_bin("INTENT_CODEX_BIN", &defaults)
}

/// Returns the `codex` binary, or `None` after a loud skip message.
///
/// # Panics
///
/// When the binary is missing and `CI` is set.
pub fn require_codex() -> Option<PathBuf> {
    require_bin(
        codex_bin(),
        "INTENT_CODEX_BIN",
        &format!("install @openai/codex@{CODEX_VERSION} into ~/.cache/intent-ledger/codex as .ci/run does"),
    )
}

/// Writes `<ws>/.codex/hooks.json`: `command` for every event of [`HOOK_EVENTS`]
/// (Claude Code's format; tool events match every tool; timeouts in seconds).
pub fn write_hook_config(ws: &Path, command: &str) {
    let mut hooks = serde_json::Map::new();
    for event in HOOK_EVENTS {
        let mut entry = json!({"hooks": [{"type": "command", "command": command, "timeout": 30}]});
        if event.ends_with("ToolUse") {
            entry["matcher"] = json!(".*");
        }
        hooks.insert((*event).to_owned(), json!([entry]));
    }
    let dir = ws.join(".codex");
    std::fs::create_dir_all(&dir).expect("create .codex/");
    std::fs::write(dir.join("hooks.json"), json!({"hooks": hooks}).to_string())
        .expect("write .codex/hooks.json");
}

/// Wires `ws` to `intent` as `intent init --agent codex` will: `"<intent>" hook codex`.
pub fn write_hooks(ws: &Path, intent_bin: &Path) {
    write_hook_config(ws, &format!("\"{}\" hook codex", intent_bin.display()));
}

/// A scripted `codex exec` session, built up then [`run`](CodexRun::run).
pub type CodexRun = Scripted<Step>;

impl Scripted<Step> {
    /// Runs the session to completion (or the time limit) and returns what happened.
    ///
    /// # Panics
    ///
    /// When the mock cannot start or `codex` cannot be spawned.
    pub fn run(self) -> CodexOutcome {
        let home = tempfile::tempdir().expect("temp HOME");
        let codex_home = home.path().join(".codex");
        std::fs::create_dir_all(&codex_home).expect("create CODEX_HOME");
        let mock = MockResponses::start(self.script).expect("start the mock Responses API");
        // TOML basic strings take JSON's escapes for the characters paths contain.
        let config = format!(
            "model = \"{MODEL}\"\nmodel_provider = \"mock\"\n\n\
             [model_providers.mock]\nname = \"mock\"\nbase_url = {}\n\
             env_key = \"MOCK_API_KEY\"\nwire_api = \"responses\"\n\n\
             [projects.{}]\ntrust_level = \"trusted\"\n",
            json!(mock.base_url()),
            json!(self.workspace),
        );
        std::fs::write(codex_home.join("config.toml"), config).expect("write config.toml");
        let mut cmd = clean_command(&self.program);
        cmd.current_dir(&self.workspace)
            .env("PATH", joined_path(&self.path_prepend))
            .env("HOME", home.path())
            .env("CODEX_HOME", &codex_home)
            .env("MOCK_API_KEY", "sk-test")
            .envs(self.env)
            .arg("exec")
            .args([
                "--dangerously-bypass-approvals-and-sandbox",
                // Project hooks are skipped silently unless trusted.
                "--dangerously-bypass-hook-trust",
                "--skip-git-repo-check",
            ])
            .args(["-c", "analytics.enabled=false", "--disable", "plugins"])
            .arg(&self.prompt);
        let run = run_with_limit(cmd, self.timeout);
        CodexOutcome {
            run,
            requests: mock.requests(),
            home,
        }
    }
}

/// What a session did.
pub struct CodexOutcome {
    /// Exit status, time and output of `codex` (stdout: the final answer).
    pub run: Finished,
    /// Every request the mock received, in arrival order.
    pub requests: Vec<RecordedRequest>,
    home: tempfile::TempDir,
}

/// One tool output as the model received it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolOutput {
    /// The call it answers.
    pub call_id: String,
    /// Its text (a hook's block reads `Command blocked by PreToolUse hook: <reason>`).
    pub output: String,
}

impl CodexOutcome {
    /// Returns the temporary HOME (`.codex/` with sessions and config lives under it).
    pub fn home(&self) -> &Path {
        self.home.path()
    }

    /// Returns the bodies of the Responses API calls, in order.
    pub fn response_bodies(&self) -> Vec<&Value> {
        self.requests
            .iter()
            .filter(|r| r.is_responses())
            .filter_map(|r| r.body.as_ref())
            .collect()
    }

    /// Returns every distinct tool output the model received, in order.
    pub fn tool_outputs(&self) -> Vec<ToolOutput> {
        let mut seen: Vec<ToolOutput> = Vec::new();
        for body in self.response_bodies() {
            let items = body["input"].as_array().into_iter().flatten();
            for item in items.filter(|i| {
                i["type"]
                    .as_str()
                    .is_some_and(|t| t.ends_with("call_output"))
            }) {
                let call_id = item["call_id"].as_str().unwrap_or("").to_owned();
                if !seen.iter().any(|o| o.call_id == call_id) {
                    let output = text_of(&item["output"]);
                    seen.push(ToolOutput { call_id, output });
                }
            }
        }
        seen
    }

    /// Describes the session for assertion messages.
    pub fn describe(&self) -> String {
        self.run.describe(
            "codex",
            &self.requests,
            "tool outputs",
            &self.tool_outputs(),
        )
    }

    /// Panics with [`describe`](Self::describe) unless `codex` exited 0 in time.
    pub fn assert_success(&self) {
        assert!(self.run.succeeded(), "{}", self.describe());
    }
}

/// An output is a string, or content items whose text is joined.
fn text_of(output: &Value) -> String {
    match output {
        Value::String(s) => s.clone(),
        Value::Array(items) => items
            .iter()
            .filter_map(|i| i["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        Value::Object(o) => o.get("content").map(text_of).unwrap_or_default(),
        _ => String::new(),
    }
}
