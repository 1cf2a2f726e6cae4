//! Running a real front-end CLI (Claude Code, Codex, Gemini CLI) as a child process:
//! finding its binary, a clean environment, a time limit that also kills the hooks it
//! started, and its output.

// Each harness uses a different part of this module.
#![allow(dead_code)]

use std::ffi::{OsStr, OsString};
use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;

/// Environment variables passed through to a CLI; everything else is dropped so a
/// developer's own API keys or settings cannot leak into a test.
pub const PASSED_ENV: &[&str] = &["PATH", "LANG", "LC_ALL", "TZ", "TMPDIR", "SHELL", "USER"];

/// Returns a `Command` for `program` with a cleared environment but [`PASSED_ENV`].
pub fn clean_command(program: impl Into<OsString>) -> Command {
    let mut cmd = Command::new(program.into());
    cmd.env_clear().envs(
        PASSED_ENV
            .iter()
            .filter_map(|k| Some((k, std::env::var_os(k)?))),
    );
    cmd
}

/// Returns the binary named by `env_var` (when it is a file), else the first of
/// `defaults` that is a file.
pub fn find_bin(env_var: &str, defaults: &[PathBuf]) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(env_var) {
        return Some(PathBuf::from(path)).filter(|p| p.is_file());
    }
    defaults.iter().find(|p| p.is_file()).cloned()
}

/// Whether the tests run in CI, where a missing agent CLI or sandbox is a failure,
/// not a skip: `CI` set to anything but empty, `0` or `false` (`.ci/run` sets
/// `CI=true`, as CI services do). The one place that decides it.
pub fn in_ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "0" && v != "false")
}

/// A test cannot run here because of `why`: a failure in CI ([`in_ci`]), a loud
/// skip message elsewhere (the caller then returns).
///
/// # Panics
///
/// In CI.
pub fn skip_unless_ci(why: &str) {
    if in_ci() {
        panic!("{why}; CI is set, so the test must run");
    }
    eprintln!("\n*** SKIPPED: {why} ***\n");
}

/// Returns `found`, or `None` after a loud skip message naming `env_var`.
///
/// # Panics
///
/// When `found` is `None` and `CI` is set: CI must run these tests.
pub fn require_bin(found: Option<PathBuf>, env_var: &str, install: &str) -> Option<PathBuf> {
    if found.is_none() {
        let why = match std::env::var_os(env_var) {
            Some(path) => format!("{env_var}={path:?} is not a file"),
            None => format!("{env_var} is not set and the default cache has no binary ({install})"),
        };
        skip_unless_ci(&why);
    }
    found
}

/// `PATH` with `prepend` in front of the inherited entries.
pub fn joined_path(prepend: &[PathBuf]) -> OsString {
    let inherited = std::env::var_os("PATH").unwrap_or_default();
    let dirs = prepend
        .iter()
        .cloned()
        .chain(std::env::split_paths(&inherited));
    std::env::join_paths(dirs).expect("PATH entries without ':'")
}

/// How a child process ended.
pub struct Finished {
    /// Its exit status (a signal when it was killed).
    pub status: ExitStatus,
    /// Whether the time limit killed it.
    pub timed_out: bool,
    /// Wall time.
    pub elapsed: Duration,
    /// Everything it printed on stdout.
    pub stdout: String,
    /// Everything it printed on stderr.
    pub stderr: String,
}

impl Finished {
    /// Whether the CLI exited 0 within its time limit.
    pub fn succeeded(&self) -> bool {
        self.status.success() && !self.timed_out
    }

    /// A session's account for assertion messages: how `cli` ended, the requests its
    /// mock model received, what the model got back from the tools (`results`, named
    /// `what`), and everything the CLI printed.
    pub fn describe(
        &self,
        cli: &str,
        requests: &[crate::mockhttp::RecordedRequest],
        what: &str,
        results: &dyn std::fmt::Debug,
    ) -> String {
        let paths: Vec<_> = requests
            .iter()
            .map(|r| format!("{} {}", r.method, r.path))
            .collect();
        format!(
            "{cli} {} (timed out: {}, {:?})\nrequests: {paths:?}\n{what}: {results:#?}\n\
             --- stdout ---\n{}\n--- stderr ---\n{}",
            self.status, self.timed_out, self.elapsed, self.stdout, self.stderr
        )
    }
}

/// Runs `cmd` (stdin closed) in its own process group until it exits or `timeout`
/// passes; then kills the whole group, so hooks left running die with it.
///
/// # Panics
///
/// When the program cannot be spawned: a harness bug or a broken install.
pub fn run_with_limit(mut cmd: Command, timeout: Duration) -> Finished {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let started = Instant::now();
    let mut child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("spawn {:?}: {e}", cmd.get_program()));
    let stdout = drain(child.stdout.take().unwrap());
    let stderr = drain(child.stderr.take().unwrap());
    let (status, timed_out) = wait_or_kill(&mut child, timeout);
    // Stragglers (a hook left running) would hold the pipes open forever.
    kill_group(&child);
    Finished {
        status,
        timed_out,
        elapsed: started.elapsed(),
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    }
}

fn drain(mut pipe: impl Read + Send + 'static) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

fn wait_or_kill(child: &mut Child, timeout: Duration) -> (ExitStatus, bool) {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(status) = child.try_wait().expect("wait for the CLI") {
            return (status, false);
        }
        if Instant::now() >= deadline {
            kill_group(child);
            return (child.wait().expect("wait for the killed CLI"), true);
        }
        thread::sleep(Duration::from_millis(20));
    }
}

/// Sends SIGKILL to the child's process group; std has no API for groups.
fn kill_group(child: &Child) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{}", child.id())])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// A hook script for harness self-tests: appends its stdin to `log`, and answers
/// `deny_reply` to any payload naming `denied.txt`.
pub fn logging_hook(dir: &Path, log: &Path, deny_reply: &str) -> PathBuf {
    let path = dir.join("hook.sh");
    let body = format!(
        "#!/bin/sh\ninput=$(cat)\nprintf '%s\\n' \"$input\" >> '{}'\n\
         case \"$input\" in *denied.txt*) printf '%s\\n' '{deny_reply}' ;; esac\n",
        log.display()
    );
    std::fs::write(&path, body).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// Every JSON payload the logging hook saw, in order.
pub fn logged_payloads(log: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    serde_json::Deserializer::from_str(&text)
        .into_iter::<Value>()
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("hook log is not JSON ({e}):\n{text}"))
}

/// A scripted session of a front-end CLI, built up then run by the harness of that
/// CLI (`impl Scripted<codex::Step>` and so on): the program, where it runs, the
/// user's prompt, the mock model's script, and the environment.
pub struct Scripted<S> {
    /// The CLI (a binary, or a script the harness runs with an interpreter).
    pub program: PathBuf,
    /// The directory it works in.
    pub workspace: PathBuf,
    /// The user prompt.
    pub prompt: String,
    /// What the mock model answers, step by step.
    pub script: Vec<S>,
    /// Directories put in front of `PATH`.
    pub path_prepend: Vec<PathBuf>,
    /// Extra environment variables (the CLI passes them on to its hooks).
    pub env: Vec<(OsString, OsString)>,
    /// How long the session may take before it is killed.
    pub timeout: Duration,
}

impl<S> Scripted<S> {
    /// Starts a session description: `program` run in `workspace`, no script yet,
    /// a time limit of 120 s.
    pub fn new(program: impl Into<PathBuf>, workspace: impl Into<PathBuf>) -> Self {
        Scripted {
            program: program.into(),
            workspace: workspace.into(),
            prompt: "Do the scripted task.".to_owned(),
            script: Vec::new(),
            path_prepend: Vec::new(),
            env: Vec::new(),
            timeout: Duration::from_secs(120),
        }
    }

    /// Sets the user prompt.
    pub fn prompt(mut self, prompt: &str) -> Self {
        self.prompt = prompt.to_owned();
        self
    }

    /// Appends one step to the script.
    pub fn step(mut self, step: S) -> Self {
        self.script.push(step);
        self
    }

    /// Puts `dir` in front of `PATH`.
    pub fn path_prepend(mut self, dir: impl Into<PathBuf>) -> Self {
        self.path_prepend.push(dir.into());
        self
    }

    /// Sets an environment variable for the CLI (and so for its hooks).
    pub fn env(mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> Self {
        self.env
            .push((key.as_ref().to_owned(), value.as_ref().to_owned()));
        self
    }

    /// Sets how long the session may take before it is killed.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }
}
