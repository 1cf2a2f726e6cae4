//! git as the tests run it: `Tester <tester@example.com>`, branch `main`, no
//! prompt, and neither the user's nor the system's configuration (a developer's
//! `commit.gpgsign` or hooks path must not change what a test sees).

use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The identity every test commit is made with.
pub const NAME: &str = "Tester";
/// The identity's address.
pub const EMAIL: &str = "tester@example.com";

/// `git` in `dir`, configured as this module says; add arguments and run it.
pub fn command(dir: &Path) -> Command {
    let mut cmd = Command::new("git");
    cmd.args(["-c", &format!("user.name={NAME}")])
        .args(["-c", &format!("user.email={EMAIL}")])
        .args(["-c", "init.defaultBranch=main"])
        .args(["-c", "advice.detachedHead=false"])
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_TERMINAL_PROMPT", "0")
        .stdin(Stdio::null());
    cmd
}

/// Runs git in `dir`; returns its output whatever the status.
pub fn output(dir: &Path, args: &[&str]) -> Output {
    command(dir)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("git {args:?} could not start: {e}"))
}

/// Runs git in `dir`; returns stdout, or git's words as the error.
pub fn try_run(dir: &Path, args: &[&str]) -> Result<Vec<u8>, String> {
    let out = output(dir, args);
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(format!(
            "git {args:?} in {}: {}: {}",
            dir.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// Runs git in `dir`; returns stdout, trimmed; panics with git's words on failure.
pub fn run(dir: &Path, args: &[&str]) -> String {
    match try_run(dir, args) {
        Ok(stdout) => String::from_utf8_lossy(&stdout).trim().to_string(),
        Err(err) => panic!("{err}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commits_carry_the_fixed_identity_on_main_and_failures_say_why() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        run(dir, &["init", "-q"]);
        std::fs::write(dir.join("a.txt"), "a\n").unwrap();
        run(dir, &["add", "a.txt"]);
        run(dir, &["commit", "-q", "-m", "first"]);
        assert_eq!(
            run(dir, &["log", "-1", "--format=%an <%ae>"]),
            "Tester <tester@example.com>"
        );
        assert_eq!(run(dir, &["branch", "--show-current"]), "main");
        let err = try_run(dir, &["rev-parse", "--verify", "no-such-ref"]).unwrap_err();
        assert!(
            err.contains("no-such-ref") || err.contains("Needed a single revision"),
            "{err}"
        );
    }
}
