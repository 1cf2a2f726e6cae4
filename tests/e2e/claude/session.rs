//! Running the real `claude` binary against the mock, with a time limit.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::ExitStatus;
use std::time::Duration;

use serde_json::Value;

use super::mock::{MockApi, RecordedRequest, Step};
use crate::cliproc::{clean_command, joined_path, run_with_limit};

/// The Claude Code version the harness was written against.
pub const CLAUDE_VERSION: &str = "2.1.328";

/// Where `.ci/run` installs Claude Code when `INTENT_CLAUDE_BIN` is not set.
const CACHE_DIR: &str = ".cache/intent-ledger/claude-code/node_modules/@anthropic-ai";

/// Returns the `claude` binary: `INTENT_CLAUDE_BIN`, else the default cache path.
pub fn claude_bin() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("INTENT_CLAUDE_BIN") {
        return Some(PathBuf::from(path)).filter(|p| p.is_file());
    }
    let cache = PathBuf::from(std::env::var_os("HOME")?).join(CACHE_DIR);
    let platform = match std::env::consts::ARCH {
        "aarch64" => "linux-arm64",
        _ => "linux-x64",
    };
    // The wrapper's bin/claude.exe is the native binary only if npm ran postinstall.
    [
        cache.join(format!("claude-code-{platform}/claude")),
        cache.join("claude-code/bin/claude.exe"),
    ]
    .into_iter()
    .find(|p| p.is_file())
}

/// Returns the `claude` binary, or `None` after a loud skip message.
///
/// # Panics
///
/// Under `CI=true`, when the binary is missing: CI must run these tests.
pub fn require_claude() -> Option<PathBuf> {
    let found = claude_bin();
    if found.is_none() {
        let why = match std::env::var_os("INTENT_CLAUDE_BIN") {
            Some(path) => {
                format!("Claude Code not installed (INTENT_CLAUDE_BIN={path:?} is not a file)")
            }
            None => format!(
                "Claude Code not installed (set INTENT_CLAUDE_BIN, or install \
                 @anthropic-ai/claude-code@{CLAUDE_VERSION} into ~/.cache/intent-ledger/claude-code \
                 as .ci/run does)"
            ),
        };
        crate::cliproc::skip_unless_ci(&why);
    }
    found
}

/// A scripted Claude Code session, built up then [`run`](ClaudeRun::run).
pub struct ClaudeRun {
    bin: PathBuf,
    workspace: PathBuf,
    prompt: String,
    script: Vec<Step>,
    mcp_config: Option<Value>,
    settings: Option<Value>,
    allowed_tools: Vec<String>,
    path_prepend: Vec<PathBuf>,
    env: Vec<(OsString, OsString)>,
    args: Vec<OsString>,
    timeout: Duration,
}

impl ClaudeRun {
    /// Starts a session description: `bin` run in `workspace`, no script yet.
    pub fn new(bin: impl Into<PathBuf>, workspace: impl Into<PathBuf>) -> ClaudeRun {
        ClaudeRun {
            bin: bin.into(),
            workspace: workspace.into(),
            prompt: "Do the task.".to_owned(),
            script: Vec::new(),
            mcp_config: None,
            settings: None,
            allowed_tools: Vec::new(),
            path_prepend: Vec::new(),
            env: Vec::new(),
            args: Vec::new(),
            timeout: Duration::from_secs(120),
        }
    }

    /// Sets the user prompt (what `UserPromptSubmit` hooks see).
    pub fn prompt(mut self, prompt: &str) -> ClaudeRun {
        self.prompt = prompt.to_owned();
        self
    }

    /// Replaces the script.
    pub fn script(mut self, steps: Vec<Step>) -> ClaudeRun {
        self.script = steps;
        self
    }

    /// Appends one step to the script.
    pub fn step(mut self, step: Step) -> ClaudeRun {
        self.script.push(step);
        self
    }

    /// Passes this JSON (`{"mcpServers": {…}}`) with `--mcp-config`.
    pub fn mcp_config(mut self, config: Value) -> ClaudeRun {
        self.mcp_config = Some(config);
        self
    }

    /// Adds a tool to `--allowedTools` (MCP tools need it in `-p` mode).
    pub fn allow_tool(mut self, tool: &str) -> ClaudeRun {
        self.allowed_tools.push(tool.to_owned());
        self
    }

    /// Puts `dir` in front of `PATH` (e.g. where the `intent` binary is).
    pub fn path_prepend(mut self, dir: impl Into<PathBuf>) -> ClaudeRun {
        self.path_prepend.push(dir.into());
        self
    }

    /// Sets an environment variable for `claude` (and so for its hooks).
    pub fn env(mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> ClaudeRun {
        self.env
            .push((key.as_ref().to_owned(), value.as_ref().to_owned()));
        self
    }

    /// Writes `<workspace>/.claude/settings.json` (where hooks are registered) at run.
    pub fn project_settings(mut self, settings: Value) -> ClaudeRun {
        self.settings = Some(settings);
        self
    }

    /// Adds an extra command-line argument, before the prompt.
    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> ClaudeRun {
        self.args.push(arg.as_ref().to_owned());
        self
    }

    /// Sets how long the session may take before it is killed (default 120 s).
    pub fn timeout(mut self, timeout: Duration) -> ClaudeRun {
        self.timeout = timeout;
        self
    }

    /// Runs the session to completion (or the time limit) and returns what happened.
    ///
    /// # Panics
    ///
    /// When the mock cannot start or `claude` cannot be spawned: both are harness bugs.
    pub fn run(self) -> ClaudeOutcome {
        let home = tempfile::tempdir().expect("temp HOME");
        if let Some(settings) = &self.settings {
            let dir = self.workspace.join(".claude");
            std::fs::create_dir_all(&dir).expect("create .claude/");
            std::fs::write(dir.join("settings.json"), settings.to_string())
                .expect("write .claude/settings.json");
        }
        let mock = MockApi::start(self.script).expect("start the mock Messages API");
        // Only a few variables pass, so a developer's own `ANTHROPIC_*` or `CLAUDE_*`
        // settings cannot leak into a test.
        let mut cmd = clean_command(&self.bin);
        cmd.current_dir(&self.workspace)
            .env("PATH", joined_path(&self.path_prepend))
            .env("HOME", home.path())
            .env("ANTHROPIC_BASE_URL", mock.base_url())
            .env("ANTHROPIC_API_KEY", "test")
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
            .env("DISABLE_TELEMETRY", "1")
            .envs(self.env)
            .args(["--model", "claude-sonnet-4-5"])
            .args(["--permission-mode", "acceptEdits"]);
        if let Some(config) = &self.mcp_config {
            let file = home.path().join("mcp-config.json");
            std::fs::write(&file, config.to_string()).expect("write the MCP config");
            cmd.arg("--mcp-config").arg(file);
        }
        if !self.allowed_tools.is_empty() {
            cmd.arg("--allowedTools").arg(self.allowed_tools.join(","));
        }
        // `-p` last: the variadic options above stop at it, so none swallows the prompt.
        cmd.args(&self.args).arg("-p").arg(&self.prompt);
        let finished = run_with_limit(cmd, self.timeout);
        let outcome = ClaudeOutcome {
            status: finished.status,
            timed_out: finished.timed_out,
            elapsed: finished.elapsed,
            stdout: finished.stdout,
            stderr: finished.stderr,
            requests: mock.requests(),
            home,
        };
        drop(mock);
        outcome
    }
}

/// What a session did.
pub struct ClaudeOutcome {
    /// `claude`'s exit status (a signal when it was killed).
    pub status: ExitStatus,
    /// Whether the time limit killed it.
    pub timed_out: bool,
    /// Wall time of the session.
    pub elapsed: Duration,
    /// Everything it printed on stdout (in `-p` mode: the final answer).
    pub stdout: String,
    /// Everything it printed on stderr.
    pub stderr: String,
    /// Every request the mock received, in arrival order.
    pub requests: Vec<RecordedRequest>,
    home: tempfile::TempDir,
}

/// One `tool_result` block as the model received it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolResult {
    /// The `tool_use` id it answers.
    pub tool_use_id: String,
    /// Whether Claude Code marked it as an error (hook denials are errors).
    pub is_error: bool,
    /// Its content, text blocks joined by newlines.
    pub content: String,
}

impl ClaudeOutcome {
    /// Returns the temporary HOME the session ran with (transcripts live under it).
    pub fn home(&self) -> &Path {
        self.home.path()
    }

    /// Returns the bodies of the Messages API calls, in order.
    pub fn message_bodies(&self) -> Vec<&Value> {
        self.requests
            .iter()
            .filter(|r| r.is_messages())
            .filter_map(|r| r.body.as_ref())
            .collect()
    }

    /// Returns every distinct `tool_result` the model received, in order.
    ///
    /// Each request repeats the whole history, so results are deduplicated by id.
    pub fn tool_results(&self) -> Vec<ToolResult> {
        let mut seen = Vec::new();
        for body in self.message_bodies() {
            let blocks = body["messages"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|m| m["content"].as_array())
                .flatten()
                .filter(|b| b["type"] == "tool_result");
            for block in blocks {
                let result = ToolResult {
                    tool_use_id: block["tool_use_id"].as_str().unwrap_or("").to_owned(),
                    is_error: block["is_error"].as_bool().unwrap_or(false),
                    content: flatten_content(&block["content"]),
                };
                if !seen
                    .iter()
                    .any(|r: &ToolResult| r.tool_use_id == result.tool_use_id)
                {
                    seen.push(result);
                }
            }
        }
        seen
    }

    /// Describes the session for assertion messages.
    pub fn describe(&self) -> String {
        let paths: Vec<_> = self
            .requests
            .iter()
            .map(|r| format!("{} {}", r.method, r.path))
            .collect();
        format!(
            "claude {} (timed out: {}, {:?})\nrequests: {paths:?}\ntool results: {:#?}\n\
             --- stdout ---\n{}\n--- stderr ---\n{}",
            self.status,
            self.timed_out,
            self.elapsed,
            self.tool_results(),
            self.stdout,
            self.stderr
        )
    }

    /// Panics with [`describe`](Self::describe) unless `claude` exited 0 in time.
    pub fn assert_success(&self) {
        assert!(
            self.status.success() && !self.timed_out,
            "{}",
            self.describe()
        );
    }
}

/// Flattens `tool_result` content: a string, or a list of blocks whose text is joined.
fn flatten_content(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| b["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}
