//! Real git checkouts for the tests of a ledger that lives with git: repositories,
//! linked worktrees, clones of a bare remote, and agent writes through the hooks.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use intent_ledger::{read_events, Event, Workspace};
use serde_json::{json, Value};

use crate::common::{intent_bin, stderr, SRC_INTENT};

pub use intent_test_support::git::{output as git_output, run as git};

/// A checkout (main or linked worktree, or a clone) with Intent Ledger in it.
#[derive(Debug, Clone)]
pub struct Checkout {
    /// Its top-level directory.
    pub root: PathBuf,
}

impl Checkout {
    /// A new repository at `root`: `src/app.ts`, the one-intent spec, `intent init`,
    /// everything but Intent Ledger's ignored files committed on `main`.
    pub fn create(root: &Path) -> Checkout {
        std::fs::create_dir_all(root.join("src")).unwrap();
        git(root, &["init", "-q"]);
        git(root, &["config", "user.email", "owner@example.com"]);
        let checkout = Checkout {
            root: root.to_path_buf(),
        };
        checkout.init();
        std::fs::write(
            root.join("src/app.ts"),
            "export function start(): number {\n  return 1;\n}\n",
        )
        .unwrap();
        git(root, &["add", "-A"]);
        git(root, &["commit", "-qm", "initial"]);
        checkout
    }

    /// Uses an existing checkout.
    pub fn at(root: &Path) -> Checkout {
        Checkout {
            root: root.to_path_buf(),
        }
    }

    /// Runs `intent init` and writes the one-intent spec.
    pub fn init(&self) {
        let out = self.intent(&["init"], None);
        assert!(out.status.success(), "init: {}", stderr(&out));
        std::fs::write(
            self.root.join(".orchestration/active_intents.yaml"),
            SRC_INTENT,
        )
        .unwrap();
    }

    /// Runs `intent --workspace <root> args…`.
    pub fn intent(&self, args: &[&str], stdin: Option<&[u8]>) -> Output {
        use std::io::Write as _;
        let mut child = Command::new(intent_bin())
            .arg("--workspace")
            .arg(&self.root)
            .args(args)
            .current_dir(&self.root)
            .env("PATH", crate::common::path_with_intent())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn intent");
        let mut pipe = child.stdin.take().unwrap();
        if let Some(bytes) = stdin {
            let _ = pipe.write_all(bytes);
        }
        drop(pipe);
        child.wait_with_output().unwrap()
    }

    /// Runs `intent args…` and returns stdout, asserting success.
    pub fn intent_ok(&self, args: &[&str]) -> String {
        let out = self.intent(args, None);
        assert!(
            out.status.success(),
            "intent {args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            stderr(&out)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// The ledger this checkout writes to.
    pub fn ledger(&self) -> PathBuf {
        Workspace::at(&self.root).ledger_path()
    }

    /// Every event of the ledger.
    pub fn events(&self) -> Vec<Event> {
        read_events(self.ledger())
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    }

    fn hook(&self, payload: &Value) -> Value {
        let out = self.intent(
            &["hook", "claude-code"],
            Some(payload.to_string().as_bytes()),
        );
        assert_eq!(out.status.code(), Some(0), "hook: {}", stderr(&out));
        serde_json::from_slice(&out.stdout).expect("hook reply is JSON")
    }

    /// Session `session` works under INT-001 (`intent select`, as a person would).
    pub fn select(&self, session: &str) {
        self.intent_ok(&["select", "INT-001", "--session", session]);
    }

    /// An agent in `session` writes `content` to `rel` through the hooks (Pre, the
    /// write, Post); returns the Post reply.
    pub fn agent_write(&self, session: &str, rel: &str, content: &str, id: &str) -> Value {
        let path = self.root.join(rel);
        let mut payload = json!({"hook_event_name": "PreToolUse", "session_id": session,
            "cwd": self.root, "prompt_id": format!("p-{id}"), "tool_name": "Write",
            "tool_input": {"file_path": path, "content": content}, "tool_use_id": id});
        let pre = self.hook(&payload);
        assert!(
            pre.get("hookSpecificOutput")
                .and_then(|h| h.get("permissionDecision"))
                .is_none_or(|d| d == "allow"),
            "the gate refused {rel}: {pre}"
        );
        let original = std::fs::read_to_string(&path).ok();
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, content).unwrap();
        payload["hook_event_name"] = json!("PostToolUse");
        payload["tool_response"] =
            json!({"type": "update", "filePath": path, "originalFile": original});
        self.hook(&payload)
    }

    /// An agent in `session` runs `sh SCRIPT` through the hooks (Pre must allow it,
    /// the command, Post); returns the Post reply.
    pub fn agent_shell(&self, session: &str, script: &Path, id: &str) -> Value {
        let command = format!("sh {}", script.display());
        let mut payload = json!({"hook_event_name": "PreToolUse", "session_id": session,
            "cwd": self.root, "prompt_id": format!("p-{id}"), "tool_name": "Bash",
            "tool_input": {"command": command}, "tool_use_id": id});
        let pre = self.hook(&payload);
        assert!(
            pre.get("hookSpecificOutput")
                .and_then(|h| h.get("permissionDecision"))
                .is_none_or(|d| d == "allow"),
            "the gate refused `{command}`: {pre}"
        );
        let status = Command::new("sh")
            .arg(script)
            .current_dir(&self.root)
            .status()
            .unwrap();
        assert!(status.success());
        payload["hook_event_name"] = json!("PostToolUse");
        payload["tool_response"] = json!({"stdout": "", "stderr": "", "interrupted": false});
        self.hook(&payload)
    }

    /// An agent in `session` reads `rel` (Pre and Post of the Read tool): what the
    /// gate then expects on disk when the session writes it.
    /// Returns the PreToolUse reply.
    pub fn agent_read(&self, session: &str, rel: &str, id: &str) -> Value {
        let path = self.root.join(rel);
        let mut payload = json!({"hook_event_name": "PreToolUse", "session_id": session,
            "cwd": self.root, "tool_name": "Read", "tool_input": {"file_path": path},
            "tool_use_id": id});
        let pre = self.hook(&payload);
        payload["hook_event_name"] = json!("PostToolUse");
        payload["tool_response"] = json!({"type": "text"});
        self.hook(&payload);
        pre
    }

    /// The agent's turn ends (the Stop hook: a local checkpoint is written).
    pub fn stop(&self, session: &str) {
        self.hook(&json!({"hook_event_name": "Stop", "session_id": session, "cwd": self.root}));
    }

    /// `intent why TARGET --json`.
    pub fn why(&self, target: &str) -> Value {
        serde_json::from_str(&self.intent_ok(&["--json", "why", target])).unwrap()
    }

    /// `git status --porcelain` of tracked files (untracked ones left out).
    pub fn tracked_changes(&self) -> String {
        git(
            &self.root,
            &["status", "--porcelain", "--untracked-files=no"],
        )
    }
}

/// The intents a `why` answer's history names, oldest first.
pub fn history_intents(answer: &Value) -> Vec<String> {
    answer["history"]
        .as_array()
        .map(|h| {
            h.iter()
                .filter_map(|i| i["intent_id"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}
