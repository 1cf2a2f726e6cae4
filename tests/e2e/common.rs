//! The test environment: a temp workspace and a way to run `intent` in it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use intent_ledger::{read_events, Event};
use serde_json::{json, Value};

/// Path of the `intent` binary Cargo built for these tests.
pub fn intent_bin() -> &'static str {
    env!("CARGO_BIN_EXE_intent")
}

/// `PATH` with the directory of the `intent` under test first: what a user who
/// installed it has, so `intent init --agent` writes plain `intent` into the
/// configuration it generates and the hooks find this build.
pub fn path_with_intent() -> std::ffi::OsString {
    let dir = Path::new(intent_bin()).parent().unwrap().to_path_buf();
    let rest = std::env::var_os("PATH").unwrap_or_default();
    // The example external adapter, so `intent hook example` finds it as an
    // installed one would be found (docs/frontends/external.md).
    let example = example_adapter_dir();
    std::env::join_paths(
        [dir, example]
            .into_iter()
            .chain(std::env::split_paths(&rest)),
    )
    .unwrap()
}

/// The directory of the example external adapter, `intent-adapter-example`
/// (Python 3).
pub fn example_adapter_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|dir| dir.join("docs/examples/intent-adapter-example"))
        .find(|dir| dir.is_dir())
        .expect("docs/examples/intent-adapter-example above the crate")
}

/// Whether this run of the suite answers hooks through the resident helper, as
/// `intent` does when installed: yes, unless `INTENT_TEST_HELPER=off` (the suite's
/// second pass, `test_helper_modes.rs`, runs hook tests that way).
pub fn suite_uses_helper() -> bool {
    !matches!(
        std::env::var("INTENT_TEST_HELPER").as_deref(),
        Ok("off" | "0" | "false" | "no")
    )
}

/// A fresh, initialized workspace in a temp dir.
pub struct TestWorkspace {
    dir: tempfile::TempDir,
    helper: bool,
}

impl TestWorkspace {
    /// Creates a temp dir and runs `intent init` in it.
    pub fn new() -> TestWorkspace {
        let ws = TestWorkspace::empty();
        let out = ws.run(&["init"], None);
        assert!(out.status.success(), "init failed: {}", stderr(&out));
        ws
    }

    /// Creates a temp dir without initializing it.
    pub fn empty() -> TestWorkspace {
        TestWorkspace {
            dir: tempfile::tempdir().unwrap(),
            helper: suite_uses_helper(),
        }
    }

    /// Answers every hook of this workspace in its own process: for tests of what
    /// a one-shot hook leaves on disk between hooks (the helper saves after it
    /// answers, so files a test inspects right after a hook may not be written yet)
    /// or of what only the in-process path prints.
    pub fn in_process(mut self) -> TestWorkspace {
        self.helper = false;
        self
    }

    /// Returns the workspace root.
    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    /// Returns the ledger path (`.orchestration/` without git, the git common
    /// directory with it).
    pub fn ledger(&self) -> PathBuf {
        intent_ledger::Workspace::at(self.root()).ledger_path()
    }

    /// Builds a command for `intent --workspace <root> args…`.
    pub fn command(&self, args: &[&str]) -> Command {
        self.command_of(Path::new(intent_bin()), args)
    }

    /// Builds a command for `program --workspace <root> args…`: another build of
    /// `intent` (the statically linked one, tests/e2e/test_static_build.rs).
    pub fn command_of(&self, program: &Path, args: &[&str]) -> Command {
        let mut cmd = Command::new(program);
        cmd.arg("--workspace").arg(self.root()).args(args);
        cmd.env("PATH", path_with_intent());
        // Hooks go through the resident helper, as installed, unless this
        // workspace or this run of the suite says otherwise.
        if !self.helper {
            cmd.env("INTENT_HELPER", "off");
        }
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        cmd
    }

    /// Runs `intent` with `stdin` and waits for it.
    pub fn run(&self, args: &[&str], stdin: Option<&[u8]>) -> Output {
        let mut child = self.command(args).spawn().expect("spawn intent");
        let mut pipe = child.stdin.take().unwrap();
        if let Some(bytes) = stdin {
            // The child may exit early on bad input; a broken pipe is fine then.
            let _ = pipe.write_all(bytes);
        }
        drop(pipe);
        child.wait_with_output().unwrap()
    }

    /// Returns every event in the ledger.
    pub fn events(&self) -> Vec<Event> {
        read_events(self.ledger())
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    }
}

/// Returns stdout as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Returns stderr as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

pub use intent_test_support::Rng;

/// Runs `intent hook claude-code` with `payload`; returns its JSON reply and stderr.
pub fn hook(ws: &TestWorkspace, payload: &[u8]) -> (Value, String) {
    let out = ws.run(&["hook", "claude-code"], Some(payload));
    assert_eq!(
        out.status.code(),
        Some(0),
        "hooks always exit 0: {}",
        stderr(&out)
    );
    let reply = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", out.stdout));
    (reply, stderr(&out))
}

/// The newest `trace` event.
pub fn last_trace(ws: &TestWorkspace) -> intent_ledger::Event {
    ws.events()
        .into_iter()
        .rev()
        .find(|e| e.kind == "trace")
        .expect("a trace")
}

/// In session `s1`: runs Pre, writes the file as the tool would, runs Post; returns the trace.
pub fn traced_write(
    ws: &TestWorkspace,
    prompt: &str,
    rel: &str,
    content: &str,
    id: &str,
) -> intent_ledger::Event {
    let path = ws.root().join(rel);
    let mut payload = json!({"hook_event_name": "PreToolUse", "session_id": "s1", "cwd": ws.root(), "prompt_id": prompt,
        "tool_name": "Write", "tool_input": {"file_path": path, "content": content}, "tool_use_id": id});
    assert_eq!(hook(ws, payload.to_string().as_bytes()).0, json!({}));
    let original = std::fs::read_to_string(&path).ok();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, content).unwrap();
    payload["hook_event_name"] = json!("PostToolUse");
    payload["tool_response"] =
        json!({"type": "update", "filePath": path, "originalFile": original});
    hook(ws, payload.to_string().as_bytes());
    last_trace(ws)
}

/// Runs `intent demo` into a fresh directory; returns the guard and the workspace.
pub fn demo() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("demo");
    let out = Command::new(intent_bin())
        .args(["demo", "--dir"])
        .arg(&root)
        .output()
        .unwrap();
    assert!(out.status.success(), "demo failed: {}", stderr(&out));
    (dir, root)
}

/// Asserts that the hook state cached (caught up event by event by the hooks)
/// equals the state rebuilt from the whole ledger.
pub fn assert_state_equals_rebuild(ws: &TestWorkspace) {
    use intent_state::{HookState, StateCache};
    let end = std::fs::metadata(ws.ledger()).unwrap().len();
    let rebuilt = HookState::rebuild(&ws.ledger(), end).unwrap();
    let cache = StateCache::new(&ws.root().join(".orchestration/.cache"));
    let cached = intent_ledger::Ledger::open(ws.ledger())
        .unwrap()
        .transaction(|tx| -> intent_ledger::Result<HookState> { cache.load_full(tx) })
        .unwrap();
    assert_eq!(cached, rebuilt);
}

/// One IN_PROGRESS intent, INT-001, owning `src/**`: the spec file of tests that need
/// a single usable intent.
pub const SRC_INTENT: &str = "active_intents:
  - id: INT-001
    name: Signing
    status: IN_PROGRESS
    owned_scope: [\"src/**\"]
    acceptance_criteria: [a]
";

/// `intent` in `root` with every file it writes limited to `limit` bytes
/// (`RLIMIT_FSIZE` through `prlimit`, `SIGXFSZ` ignored): a write past the limit
/// fails with `EFBIG`, the way a full disk fails with `ENOSPC`.
pub fn intent_with_file_limit(root: &Path, limit: u64) -> Command {
    let size = format!("--fsize={limit}:{limit}");
    let mut command = Command::new("prlimit");
    command
        .args([
            size.as_str(),
            "--",
            "bash",
            "-c",
            "trap '' XFSZ; exec \"$@\"",
            "limited",
        ])
        .arg(intent_bin())
        .arg("--workspace")
        .arg(root)
        .env("PATH", path_with_intent());
    command
}
