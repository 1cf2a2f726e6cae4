//! The agent side of the replay benchmark: Claude Code's hook payloads, sent to real
//! `intent hook claude-code` processes the way Claude Code runs them (payload on
//! stdin, reply on stdout, `CLAUDE_PROJECT_DIR` set), each timed spawn → exit.
//!
//! The payload shapes follow `tests/e2e/fixtures/frontends/claude-code/` (copied
//! from the real CLI): every event carries `session_id`, `transcript_path`, `cwd`,
//! `permission_mode` and the turn's `prompt_id`; a Write's `tool_response` is
//! `{type: create|update, filePath, content, structuredPatch, originalFile,
//! userModified}`, where `originalFile` (the text replaced, `null` for a new file) is
//! what the hook reads. A Bash call answers `{stdout, stderr, interrupted, isImage}`.
//!
//! Nothing here panics on a refusal, a block or a failed hook: each is recorded as
//! a [`Problem`] and the replay goes on, as the agent would.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use serde_json::{json, Value};
use similar::{ChangeTag, TextDiff};

/// Something that went wrong with one hook run.
pub struct Problem {
    /// 1-based commit (= intent) number.
    pub commit: usize,
    pub event: String,
    pub path: Option<String>,
    /// `deny`, `ask`, `block`, `exit`, `stderr` or `reply`.
    pub kind: String,
    pub detail: String,
}

/// One timed PostToolUse of a write.
pub struct PostRun {
    /// 1-based commit (= intent) number.
    pub commit: usize,
    pub path: String,
    /// Lines of the text written.
    pub lines: usize,
    pub ms: f64,
}

/// One hook run.
pub struct Outcome {
    pub ms: f64,
    /// A refusal (`deny`/`ask`) with its reason, for a PreToolUse.
    pub refused: Option<String>,
}

/// Runs hooks for one session and keeps every timing and problem.
pub struct Hooks {
    bin: PathBuf,
    root: PathBuf,
    session: String,
    transcript: PathBuf,
    prompt_id: String,
    next_use: usize,
    /// The commit being replayed (1-based), for problem reports.
    pub commit: usize,
    pub problems: Vec<Problem>,
    /// PostToolUse of writes, in run order.
    pub posts: Vec<PostRun>,
    /// `/bin/true` spawned the same way, once after every PostToolUse.
    pub floor_ms: Vec<f64>,
    pub pre_ms: Vec<f64>,
    pub prompt_ms: Vec<f64>,
    /// Every hook process run.
    pub runs: usize,
    /// Summed latency of every hook process run.
    pub total_ms: f64,
}

impl Hooks {
    pub fn new(bin: &Path, root: &Path, session: &str) -> Hooks {
        Hooks {
            bin: bin.to_path_buf(),
            root: root.to_path_buf(),
            session: session.to_string(),
            // Claude Code names a transcript; the model comes from SessionStart, so
            // the hook never needs to read it (it does not exist).
            transcript: root.join(format!("../transcripts/{session}.jsonl")),
            prompt_id: String::new(),
            next_use: 0,
            commit: 0,
            problems: Vec::new(),
            posts: Vec::new(),
            floor_ms: Vec::new(),
            pre_ms: Vec::new(),
            prompt_ms: Vec::new(),
            runs: 0,
            total_ms: 0.0,
        }
    }

    fn base(&self, event: &str) -> Value {
        json!({
            "session_id": self.session,
            "transcript_path": self.transcript,
            "cwd": self.root,
            "prompt_id": self.prompt_id,
            "permission_mode": "acceptEdits",
            "hook_event_name": event,
        })
    }

    /// A fresh `toolu_…` id, unique over the replay.
    pub fn use_id(&mut self) -> String {
        self.next_use += 1;
        format!("toolu_replay_{:06}", self.next_use)
    }

    /// `SessionStart` (source `startup`) with the model, as Claude Code sends it.
    pub fn session_start(&mut self) {
        let mut p = self.base("SessionStart");
        p["source"] = json!("startup");
        p["model"] = json!("claude-sonnet-4-5");
        self.run("SessionStart", None, &p);
    }

    /// `UserPromptSubmit` opening turn `commit` (1-based) under `INT-<commit>`.
    pub fn prompt(&mut self, commit: usize, text: &str) {
        self.commit = commit;
        self.prompt_id = format!("{:08x}-0000-4000-8000-{commit:012}", 0x5e9_1a7u32);
        let mut p = self.base("UserPromptSubmit");
        p["prompt"] = json!(text);
        let out = self.run("UserPromptSubmit", None, &p);
        self.prompt_ms.push(out.ms);
    }

    /// PreToolUse of a Write; `None` when allowed, else the refusal's reason.
    pub fn pre_write(&mut self, rel: &str, use_id: &str, content: &str) -> Option<String> {
        let mut p = self.base("PreToolUse");
        p["tool_name"] = json!("Write");
        p["tool_input"] = json!({"file_path": self.root.join(rel), "content": content});
        p["tool_use_id"] = json!(use_id);
        let out = self.run("PreToolUse", Some(rel), &p);
        self.pre_ms.push(out.ms);
        out.refused
    }

    /// PostToolUse of a Write that replaced `original` (`None`: created) by `content`;
    /// followed by one `/bin/true` spawn, the floor.
    pub fn post_write(&mut self, rel: &str, use_id: &str, original: Option<&str>, content: &str) {
        let path = self.root.join(rel);
        let mut p = self.base("PostToolUse");
        p["tool_name"] = json!("Write");
        p["tool_input"] = json!({"file_path": path, "content": content});
        p["tool_response"] = json!({
            "type": if original.is_some() { "update" } else { "create" },
            "filePath": path,
            "content": content,
            "structuredPatch": structured_patch(original.unwrap_or(""), content),
            "originalFile": original,
            "userModified": false,
        });
        p["tool_use_id"] = json!(use_id);
        let out = self.run("PostToolUse", Some(rel), &p);
        self.posts.push(PostRun {
            commit: self.commit,
            path: rel.to_string(),
            lines: content.lines().count(),
            ms: out.ms,
        });
        self.floor_ms.push(spawn_floor());
    }

    /// PreToolUse of `Bash rm <rel>`; `None` when allowed.
    pub fn pre_rm(&mut self, rel: &str, use_id: &str) -> Option<String> {
        let p = self.bash("PreToolUse", rel, use_id);
        let out = self.run("PreToolUse", Some(rel), &p);
        self.pre_ms.push(out.ms);
        out.refused
    }

    /// PostToolUse of `Bash rm <rel>` (it succeeded, printing nothing).
    pub fn post_rm(&mut self, rel: &str, use_id: &str) {
        let mut p = self.bash("PostToolUse", rel, use_id);
        p["tool_response"] =
            json!({"stdout": "", "stderr": "", "interrupted": false, "isImage": false});
        self.run("PostToolUse", Some(rel), &p);
    }

    fn bash(&self, event: &str, rel: &str, use_id: &str) -> Value {
        let mut p = self.base(event);
        p["tool_name"] = json!("Bash");
        p["tool_input"] =
            json!({"command": format!("rm {rel}"), "description": format!("Delete {rel}")});
        p["tool_use_id"] = json!(use_id);
        p
    }

    /// Runs one hook process and records what is wrong with its outcome.
    fn run(&mut self, event: &str, path: Option<&str>, payload: &Value) -> Outcome {
        self.runs += 1;
        let bytes = payload.to_string();
        let started = Instant::now();
        let spawned = Command::new(&self.bin)
            .args(["hook", "claude-code"])
            .env("CLAUDE_PROJECT_DIR", &self.root)
            // `INTENT_REPLAY_HELPER=1` lets the hooks use (and start) the
            // workspace's resident helper; by default each answers itself.
            .env("INTENT_HELPER", helper_setting())
            .current_dir(&self.root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn();
        let output = spawned.and_then(|mut child| {
            if let Some(mut stdin) = child.stdin.take() {
                // A hook that exits early closes its stdin: that shows in its exit.
                let _ = stdin.write_all(bytes.as_bytes());
            }
            child.wait_with_output()
        });
        let ms = started.elapsed().as_secs_f64() * 1e3;
        self.total_ms += ms;
        let mut problem = |kind: &str, detail: String| {
            self.problems.push(Problem {
                commit: self.commit,
                event: event.to_string(),
                path: path.map(str::to_string),
                kind: kind.to_string(),
                detail,
            })
        };
        let out = match output {
            Ok(out) => out,
            Err(e) => {
                problem("exit", format!("spawn failed: {e}"));
                return Outcome {
                    ms,
                    refused: Some(format!("spawn failed: {e}")),
                };
            }
        };
        let stderr = String::from_utf8_lossy(&out.stderr).trim().to_string();
        if out.status.code() != Some(0) {
            problem("exit", format!("{}: {stderr}", out.status));
        } else if stderr.contains("intent hook") {
            problem("stderr", stderr.clone());
        }
        let reply: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
            problem(
                "reply",
                format!("not JSON: {}", String::from_utf8_lossy(&out.stdout)),
            );
            Value::Null
        });
        let decision = reply["hookSpecificOutput"]["permissionDecision"].as_str();
        let refused = match decision {
            Some(kind @ ("deny" | "ask")) => {
                let reason = reply["hookSpecificOutput"]["permissionDecisionReason"]
                    .as_str()
                    .unwrap_or("")
                    .to_string();
                problem(kind, reason.clone());
                Some(format!("{kind}: {reason}"))
            }
            _ => None,
        };
        if reply["decision"] == "block" {
            problem("block", reply["reason"].as_str().unwrap_or("").to_string());
        }
        Outcome { ms, refused }
    }
}

/// Spawns `/bin/true` with the same stdio set-up as a hook and waits: the floor a
/// hook's latency is stated against (DESIGN.md: a ratio to a floor of the same run).
fn helper_setting() -> &'static str {
    match std::env::var("INTENT_REPLAY_HELPER") {
        Ok(v) if v != "0" => "on",
        _ => "off",
    }
}

pub fn spawn_floor() -> f64 {
    let started = Instant::now();
    let _ = Command::new("/bin/true")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|c| c.wait_with_output());
    started.elapsed().as_secs_f64() * 1e3
}

/// Claude Code's `structuredPatch`: unified-diff hunks with 3 lines of context,
/// `{oldStart, oldLines, newStart, newLines, lines: ["-old", "+new", " same"]}`.
/// The hook does not read it; it is there so payloads have their real size.
fn structured_patch(old: &str, new: &str) -> Value {
    if old.is_empty() {
        return json!([]);
    }
    let diff = TextDiff::from_lines(old, new);
    let hunks: Vec<Value> = diff
        .grouped_ops(3)
        .iter()
        .filter_map(|group| {
            let (first, last) = (group.first()?, group.last()?);
            let (old_start, new_start) = (first.old_range().start, first.new_range().start);
            let mut lines = Vec::new();
            for op in group {
                for change in diff.iter_changes(op) {
                    let sign = match change.tag() {
                        ChangeTag::Delete => '-',
                        ChangeTag::Insert => '+',
                        ChangeTag::Equal => ' ',
                    };
                    let value = change.value();
                    lines.push(format!(
                        "{sign}{}",
                        value.strip_suffix('\n').unwrap_or(value)
                    ));
                }
            }
            Some(json!({
                "oldStart": old_start + 1,
                "oldLines": last.old_range().end - old_start,
                "newStart": new_start + 1,
                "newLines": last.new_range().end - new_start,
                "lines": lines,
            }))
        })
        .collect();
    json!(hunks)
}
