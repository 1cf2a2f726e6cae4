//! The command-line conventions of issue #33: a reader that goes away
//! (`intent log | head -1`) ends every command quietly with exit 0; completions
//! and man pages come from the parser's own definition; `docs/cli.md` is the
//! generated reference, kept current.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::common::{demo, intent_bin, stderr};

/// One demo workspace for this file's tests (a tour takes a while): they only
/// read it, but for files of their own.
fn shared_demo() -> &'static Path {
    static DEMO: std::sync::OnceLock<(tempfile::TempDir, PathBuf)> = std::sync::OnceLock::new();
    DEMO.get_or_init(demo).1.as_path()
}

/// Runs `intent --workspace ROOT ARGS` with stdout the write end of a pipe whose
/// read end is already closed: every write to it fails with `EPIPE`.
fn with_closed_stdout(root: &Path, args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    Command::new(intent_bin())
        .arg("--workspace")
        .arg(root)
        .args(args)
        .current_dir(root)
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

fn normally(root: &Path, args: &[&str]) -> Output {
    Command::new(intent_bin())
        .arg("--workspace")
        .arg(root)
        .args(args)
        .current_dir(root)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn a_closed_pipe_ends_every_printing_command_quietly() {
    let root = shared_demo();
    let git_clone: PathBuf = root.join(".demo/git/bob");
    let cases: Vec<(&Path, Vec<&str>)> = [
        vec!["log"],
        vec!["--json", "log"],
        vec!["log", "--limit", "3"],
        vec!["show", "INT-001"],
        vec!["--json", "show", "INT-001"],
        vec!["why", "src/auth/jwt.ts:2"],
        vec!["--json", "why", "src/auth/jwt.ts:2"],
        vec!["blame", "src/auth/jwt.ts"],
        vec!["blame", "src/auth/NOTES.md"],
        vec!["search", "token"],
        vec!["lessons"],
        vec!["map", "--stdout"],
        vec!["export", "agent-trace"],
        vec!["validate", "--no-record"],
        vec!["doctor"],
        vec!["helper", "status"],
        vec!["--help"],
        vec!["log", "--help"],
        vec!["--version"],
        vec!["completions", "bash"],
        vec!["man"],
        vec!["man", "--markdown"],
    ]
    .into_iter()
    .map(|args| (root, args))
    .chain(
        [
            vec!["review", "HEAD~1..HEAD"],
            vec!["review", "--markdown", "HEAD~1..HEAD"],
            vec!["--json", "review", "HEAD~1..HEAD"],
            vec!["stats", "HEAD~1..HEAD"],
            vec!["verify"],
            vec!["log"],
        ]
        .into_iter()
        .map(|args| (git_clone.as_path(), args)),
    )
    .collect();
    for (dir, args) in &cases {
        let expected = normally(dir, args);
        assert!(
            !expected.stdout.is_empty(),
            "{args:?} prints something: {}",
            stderr(&expected)
        );
        let out = with_closed_stdout(dir, args);
        let err = stderr(&out);
        assert!(
            !err.contains("panicked") && !err.contains("internal error"),
            "{args:?}: {err}"
        );
        if expected.status.success() {
            assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
            assert!(err.is_empty(), "{args:?} said something: {err}");
        }
    }
}

#[test]
fn completions_load_in_bash_and_man_pages_cover_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("intent.bash");
    let out = Command::new(intent_bin())
        .args(["completions", "bash"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::write(&script, &out.stdout).unwrap();
    // Sourced by a real bash, the script registers its function for `intent`.
    let loaded = Command::new("bash")
        .arg("--norc")
        .arg("-c")
        .arg("source \"$1\" && complete -p intent")
        .arg("bash")
        .arg(&script)
        .env("HOME", dir.path())
        .output()
        .unwrap();
    assert!(loaded.status.success(), "{}", stderr(&loaded));
    assert!(
        String::from_utf8_lossy(&loaded.stdout).contains("_intent"),
        "{}",
        String::from_utf8_lossy(&loaded.stdout)
    );
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let out = Command::new(intent_bin())
            .args(["completions", shell])
            .output()
            .unwrap();
        assert!(
            out.status.success() && String::from_utf8_lossy(&out.stdout).contains("review"),
            "{shell}: {}",
            stderr(&out)
        );
    }

    // One page per command, each a roff page naming itself.
    let help = Command::new(intent_bin()).arg("--help").output().unwrap();
    let commands: Vec<String> = String::from_utf8_lossy(&help.stdout)
        .split("Commands:")
        .nth(1)
        .unwrap()
        .split("Options:")
        .next()
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("  "))
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect();
    assert!(commands.len() > 25, "{commands:?}");
    let pages = dir.path().join("man");
    let out = Command::new(intent_bin())
        .args(["man", "--dir"])
        .arg(&pages)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    for command in commands.iter().filter(|c| *c != "help") {
        let page = std::fs::read_to_string(pages.join(format!("intent-{command}.1")))
            .unwrap_or_else(|e| panic!("no page for {command}: {e}"));
        assert!(
            page.contains(&format!(".TH intent-{command} 1")),
            "{command}: {page}"
        );
    }
}

/// `docs/cli.md` is what `intent man --markdown` prints (`INTENT_BLESS=1`
/// rewrites it).
#[test]
fn the_cli_reference_in_docs_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/cli.md");
    let out = Command::new(intent_bin())
        .args(["man", "--markdown"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let generated = String::from_utf8(out.stdout).unwrap();
    if std::env::var_os("INTENT_BLESS").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let kept = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        kept == generated,
        "docs/cli.md is not what `intent man --markdown` prints: run \
         `INTENT_BLESS=1 cargo test -p intent-cli --test e2e the_cli_reference` and commit it"
    );
}

/// `--json` is JSON Lines everywhere: each line of stdout one JSON value; a usage
/// error under `--json` is a JSON object on stderr too.
#[test]
fn json_output_is_one_value_per_line_in_every_command() {
    let root = shared_demo();
    let bob = root.join(".demo/git/bob");
    let cases: Vec<(&Path, Vec<&str>)> = [
        vec!["log", "--limit", "5"],
        vec!["show", "INT-001"],
        vec!["why", "src/auth/jwt.ts:2"],
        vec!["blame", "src/auth/jwt.ts"],
        vec!["search", "token"],
        vec!["lessons"],
        vec!["verify"],
        vec!["export", "agent-trace"],
        vec!["helper", "status"],
    ]
    .into_iter()
    .map(|a| (root, a))
    .chain(
        [
            vec!["review", "HEAD~1..HEAD"],
            vec!["review", "--check", "HEAD~1..HEAD"],
            vec!["stats", "HEAD~1..HEAD"],
            vec!["sync"],
        ]
        .into_iter()
        .map(|a| (bob.as_path(), a)),
    )
    .collect();
    for (dir, args) in cases {
        let mut all = vec!["--json"];
        all.extend(&args);
        let out = normally(dir, &all);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(!text.trim().is_empty(), "{args:?}: {}", stderr(&out));
        for line in text.lines() {
            assert!(
                serde_json::from_str::<serde_json::Value>(line).is_ok(),
                "{args:?}: not one JSON value per line: {line}"
            );
        }
    }
    let out = normally(root, &["--json", "log", "--no-such-flag"]);
    assert_eq!(out.status.code(), Some(2));
    let error: serde_json::Value = serde_json::from_str(stderr(&out).trim()).unwrap();
    assert_eq!(error["error"]["kind"], "usage");
    assert!(error["error"]["message"]
        .as_str()
        .unwrap()
        .contains("--no-such-flag"));
}

/// Errors carry one prefix, coloured only when colour is wanted (`NO_COLOR`
/// wins); `log` fits the terminal; `blame` names a binary file instead of
/// printing it (exit 1: it has no lines).
#[test]
fn messages_colour_width_and_binary_files() {
    let root = shared_demo();
    let run = |vars: &[(&str, &str)], args: &[&str]| {
        let mut cmd = Command::new(intent_bin());
        cmd.arg("--workspace").arg(root).args(args);
        cmd.env_remove("NO_COLOR").env_remove("CLICOLOR_FORCE");
        for (k, v) in vars {
            cmd.env(k, v);
        }
        cmd.output().unwrap()
    };
    let missing = ["show", "INT-999"];
    let plain = stderr(&run(&[], &missing));
    assert!(plain.starts_with("intent: error: "), "{plain}");
    assert!(!plain.contains('\x1b'), "{plain}");
    let forced = stderr(&run(&[("CLICOLOR_FORCE", "1")], &missing));
    assert!(forced.contains("\x1b["), "{forced:?}");
    let no_color = stderr(&run(
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")],
        &missing,
    ));
    assert!(!no_color.contains('\x1b'), "{no_color:?}");

    // On a terminal 80 columns wide (`script` gives `log` one), every line fits.
    let intent = intent_bin();
    let shown = Command::new("script")
        .args(["-qec"])
        .arg(format!(
            "'{intent}' --workspace '{}' log --limit 20",
            root.display()
        ))
        .arg("/dev/null")
        .env("COLUMNS", "80")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&shown.stdout);
    assert!(text.lines().count() >= 20, "{text}");
    for line in text.lines() {
        assert!(line.trim_end().chars().count() <= 80, "{line}");
    }
    // Through a pipe, lines keep the fields a script greps for.
    let piped = run(&[], &["log", "--limit", "20"]);
    assert!(String::from_utf8_lossy(&piped.stdout)
        .lines()
        .any(|l| l.chars().count() > 80));

    let logo = [0x89, b'P', b'N', b'G', 0, 1, 2, 0x1b, b'[', b'2', b'J'];
    std::fs::write(root.join("src/logo.bin"), logo).unwrap();
    let out = run(&[], &["blame", "src/logo.bin"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let said = stderr(&out);
    assert!(said.contains("is a binary file"), "{said}");
    assert!(!said.contains('\x1b'), "{said:?}");
}

/// `init --agent claude-code` says, where it cannot be missed, that it turns the
/// team's Claude Code sandbox on, and `--no-sandbox` leaves it off.
#[test]
fn init_announces_the_team_sandbox_and_can_leave_it_off() {
    let init = |root: &Path, args: &[&str]| {
        std::fs::create_dir_all(root).unwrap();
        let out = normally(root, args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let settings: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(root.join(".claude/settings.json")).unwrap(),
        )
        .unwrap();
        (String::from_utf8_lossy(&out.stdout).into_owned(), settings)
    };
    let dir = tempfile::tempdir().unwrap();
    let (said, settings) = init(&dir.path().join("on"), &["init", "--agent", "claude-code"]);
    assert_eq!(settings["sandbox"]["enabled"], true);
    assert!(
        said.contains("Claude Code's sandbox is ON") && said.contains("--no-sandbox"),
        "{said}"
    );
    let (said, settings) = init(
        &dir.path().join("off"),
        &["init", "--agent", "claude-code", "--no-sandbox"],
    );
    assert_eq!(settings["sandbox"]["enabled"], false);
    // The files stay protected by the rest of the wiring.
    assert!(settings["permissions"]["deny"]
        .as_array()
        .unwrap()
        .contains(&serde_json::json!("Edit(/.orchestration/**)")));
    assert!(said.contains("sandbox is OFF"), "{said}");
    let out = normally(dir.path(), &["init", "--agent", "codex", "--no-sandbox"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("--agent claude-code"),
        "{}",
        stderr(&out)
    );
}
