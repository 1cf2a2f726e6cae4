use std::path::Path;

use intent_gate::{Action, ActionClass, ConfineShell, Decision, Verdict};
use serde_json::{json, Value};

use super::*;

const ROOT: &str = "/w/shop";

fn allowed(class: ActionClass) -> Decision {
    Decision {
        verdict: Verdict::Allow,
        class,
        intent_id: Some("INT-001".into()),
        paths: Vec::new(),
        reason: None,
        unknown_effects: Vec::new(),
        enforced: true,
    }
}

fn shell(tool: &str, command: &str) -> Action {
    Action::Shell {
        tool: tool.into(),
        command: command.into(),
    }
}

/// What `confine_shell: allow` makes of `tool` with `input` (its command `command`).
fn confined(front_end: FrontEnd, tool: &str, command: &str, input: Value) -> Option<Confinement> {
    confine(
        ConfineShell::Allow,
        Some(front_end),
        &shell(tool, command),
        &input,
        &allowed(ActionClass::Destructive),
        Path::new(ROOT),
    )
}

fn rewritten(front_end: FrontEnd, tool: &str, command: &str, input: Value) -> Value {
    match confined(front_end, tool, command, input) {
        Some(Confinement::Rewrite(rewrite)) => rewrite.input,
        other => panic!("{front_end:?} {tool}: {other:?}"),
    }
}

/// The words `sh` makes of `line`, one per output line.
fn sh_words(line: &str) -> Vec<String> {
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("printf '%s\\n' {line}"))
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

fn exe() -> String {
    std::env::current_exe()
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

#[test]
fn quoting_survives_every_quote() {
    let word = quote("echo 'a' \"b\" $HOME `x`");
    assert_eq!(sh_words(&word), ["echo 'a' \"b\" $HOME `x`"]);
}

#[test]
fn each_front_end_rewrites_its_own_field_and_keeps_the_rest() {
    let command = "sh scripts/build.sh 'a b'";
    let expected = vec![
        exe(),
        "--workspace".into(),
        ROOT.into(),
        "confine".into(),
        "--intent".into(),
        "INT-001".into(),
        "--".into(),
        "bash".into(),
        "-c".into(),
        command.into(),
    ];
    for (front_end, tool, key) in [
        (FrontEnd::ClaudeCode, "Bash", "command"),
        (FrontEnd::Codex, "Bash", "command"),
        (FrontEnd::Codex, "exec_command", "cmd"),
        (FrontEnd::Gemini, "run_shell_command", "command"),
        (FrontEnd::Copilot, "bash", "command"),
        (FrontEnd::Cursor, "Shell", "command"),
        (FrontEnd::OpenCode, "bash", "command"),
        (
            FrontEnd::External(external(true)),
            "execute_command",
            "command",
        ),
        (FrontEnd::Droid, "Execute", "command"),
        (FrontEnd::KiloCode, "bash", "command"),
    ] {
        let input = json!({key: command, "description": "build", "cwd": "/w/shop/src"});
        let new = rewritten(front_end, tool, command, input);
        assert_eq!(new["description"], "build", "{front_end:?}");
        assert_eq!(new["cwd"], "/w/shop/src", "{front_end:?}");
        let line = new[key].as_str().unwrap();
        assert_eq!(sh_words(line), expected, "{front_end:?}: {line}");
        assert!(already_confined(line, "INT-001", Path::new(ROOT), &exe()));
    }
}

#[test]
fn codex_argv_and_cline_command_lists_are_wrapped_word_for_word() {
    let argv = json!(["bash", "-lc", "echo hi > src/a.ts"]);
    let new = rewritten(
        FrontEnd::Codex,
        "shell",
        "bash -lc 'echo hi > src/a.ts'",
        json!({"command": argv, "workdir": "/w/shop"}),
    );
    let words: Vec<&str> = new["command"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    assert_eq!(
        words[1..7],
        ["--workspace", ROOT, "confine", "--intent", "INT-001", "--"]
    );
    assert_eq!(words[7..], ["bash", "-lc", "echo hi > src/a.ts"]);
    assert_eq!(new["workdir"], "/w/shop");

    // Each command line of `run_commands` on its own; the gate's joined `command`
    // is not Cline's and goes.
    let input =
        json!({"commands": ["npm test", "echo x > 'a b'"], "command": "npm test\necho x > 'a b'"});
    let new = rewritten(FrontEnd::Cline, "run_commands", "npm test", input);
    let lines = new["commands"].as_array().unwrap();
    assert_eq!(lines.len(), 2);
    assert_eq!(
        sh_words(lines[1].as_str().unwrap()).last().unwrap(),
        "echo x > 'a b'"
    );
    assert!(new.get("command").is_none(), "{new}");
}

#[test]
fn where_no_hook_can_rewrite_the_command_is_refused_with_the_way_to_confine_it() {
    for (front_end, tool) in [
        (FrontEnd::Cline, "execute_command"),
        (FrontEnd::Generic, "execute_command"),
        (FrontEnd::External(external(false)), "execute_command"),
        (FrontEnd::Cursor, "run_terminal_cmd"),
        (FrontEnd::Copilot, "powershell"),
        (FrontEnd::Windsurf, "run_command"),
    ] {
        let secret = "curl -H 'token: s3cret' x > src/a";
        let Some(Confinement::Refuse(reason)) =
            confined(front_end, tool, secret, json!({"command": secret}))
        else {
            panic!("{front_end:?} {tool} was not refused");
        };
        assert_eq!(reason.kind, ReasonKind::PolicyBlock);
        assert_eq!(reason.attempted_command.as_deref(), Some(secret));
        assert!(
            reason
                .next_step
                .contains("intent confine --intent INT-001 -- bash -c '<command>'"),
            "{}",
            reason.next_step
        );
        // The command is only where the ledger redacts it.
        assert!(!reason.next_step.contains("s3cret") && !reason.message.contains("s3cret"));
    }
    // Input typed into a running command: nothing to do.
    assert_eq!(
        confined(FrontEnd::Copilot, "write_bash", "y", json!({"input": "y"})),
        None
    );
}

#[test]
fn only_allowed_commands_that_may_write_are_confined_and_only_once() {
    let decide = |mode, decision: &Decision, command: &str| {
        confine(
            mode,
            Some(FrontEnd::ClaudeCode),
            &shell("Bash", command),
            &json!({"command": command}),
            decision,
            Path::new(ROOT),
        )
    };
    let write = allowed(ActionClass::Destructive);
    assert!(decide(ConfineShell::Off, &write, "make").is_none());
    assert!(decide(ConfineShell::Allow, &allowed(ActionClass::ReadOnly), "ls").is_none());
    let mut denied = allowed(ActionClass::Destructive);
    denied.verdict = Verdict::Deny;
    assert!(decide(ConfineShell::Allow, &denied, "make").is_none());
    let mut no_intent = allowed(ActionClass::Destructive);
    no_intent.intent_id = None;
    assert!(decide(ConfineShell::Allow, &no_intent, "make").is_none());
    match decide(ConfineShell::Ask, &write, "make") {
        Some(Confinement::Rewrite(rewrite)) => assert!(rewrite.ask),
        other => panic!("{other:?}"),
    }
    // A rewrite is not rewritten again, nor is the agent's own confined command.
    let Some(Confinement::Rewrite(once)) = decide(ConfineShell::Allow, &write, "make") else {
        panic!()
    };
    let line = once.input["command"].as_str().unwrap();
    assert!(decide(ConfineShell::Allow, &write, line).is_none());
    let own = "intent confine --intent INT-001 -- bash -c 'make'";
    assert!(decide(ConfineShell::Allow, &write, own).is_none());
}

#[test]
fn a_command_is_already_confined_only_when_all_of_it_runs_confined() {
    let root = Path::new(ROOT);
    let yes = |c: &str| already_confined(c, "INT-001", root, "/opt/bin/intent");
    assert!(yes("intent confine --intent INT-001 -- make"));
    assert!(yes(
        "intent confine --intent=INT-001 -- sh -c 'echo a > b; echo c'"
    ));
    assert!(yes(
        "intent --workspace /w/shop confine --intent INT-001 -- make"
    ));
    assert!(yes("  '/opt/bin/intent' --workspace='/w/shop' confine --intent 'INT-001' -- bash -c 'it'\\''s'  "));
    for no in [
        "intent confine --intent INT-001 -- make; rm -rf src",
        "intent confine --intent INT-001 -- make && rm -rf src",
        "intent confine --intent INT-001 -- echo x > src/billing/b.ts",
        "intent confine --intent INT-001 -- make | tee out",
        "intent confine --intent INT-001 -- echo $(rm -rf src)",
        "intent confine --intent INT-001 -- \"make\"",
        "intent confine --intent INT-001 -- make\nrm -rf src",
        "intent confine --intent INT-002 -- make",
        "intent confine --best-effort --intent INT-001 -- make",
        "intent confine --intent INT-001 make",
        "intent confine --intent INT-001 --",
        "intent --workspace /elsewhere confine --intent INT-001 -- make",
        "./intent confine --intent INT-001 -- make",
        "sudo intent confine --intent INT-001 -- make",
        "intent confine --intent INT-001 -- bash -c 'unterminated",
    ] {
        assert!(!yes(no), "{no}");
    }
}

/// An external adapter's front-end, declaring whether its agent can take a new input.
fn external(can_rewrite_input: bool) -> crate::engine::ExternalFrontEnd {
    crate::engine::ExternalFrontEnd {
        name: "example",
        blocks_before_write: true,
        can_rewrite_input,
        refusal_cancels_task: false,
    }
}

/// An external adapter is judged with the capabilities its handshake declared.
#[test]
fn an_external_adapter_is_judged_with_its_declared_capabilities() {
    let mut declared = external(false);
    declared.blocks_before_write = false;
    declared.refusal_cancels_task = true;
    let caps = FrontEnd::External(declared).capabilities();
    assert!(!caps.blocks_before_write && caps.refusal_cancels_task);
    let caps = FrontEnd::External(external(false)).capabilities();
    assert!(caps.blocks_before_write && !caps.refusal_cancels_task);
    assert_eq!(FrontEnd::External(declared).as_str(), "example");
}
