//! Files with no grammar (JSON, Markdown, shell, Ruby today) answered line by
//! line: writes through real hook processes, lines moved, deleted and rewritten,
//! a person's edit in between, and every line's answer compared with `git blame
//! -M` on a twin repository that commits each turn (its message is the intent).

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{json, Value};

use crate::common::{hook, stderr, traced_write, TestWorkspace};
use crate::gitrepo::git;
use crate::test_why::{json_of, ok, turn};

const SPECS: &str = "active_intents:
  - id: INT-001
    name: First cut
    status: IN_PROGRESS
    owned_scope: [\"**\"]
    acceptance_criteria: [a]
  - id: INT-002
    name: Settings and docs
    status: IN_PROGRESS
    owned_scope: [\"**\"]
    acceptance_criteria: [a]
  - id: INT-003
    name: Deploy order
    status: IN_PROGRESS
    owned_scope: [\"**\"]
    acceptance_criteria: [a]
  - id: INT-004
    name: Greeting
    status: IN_PROGRESS
    owned_scope: [\"**\"]
    acceptance_criteria: [a]
";

const JSON_V1: &str = "{\n  \"name\": \"demo\",\n  \"retries\": 3,\n  \"timeout_ms\": 500\n}\n";
const JSON_V2: &str =
    "{\n  \"name\": \"demo\",\n  \"retries\": 5,\n  \"timeout_ms\": 500,\n  \"region\": \"eu-west-1\"\n}\n";

const MD_V1: &str = "# Guide\n\n## Install\n\nRun the installer from the release page.\nIt needs no administrator rights.\n\n## Usage\n\nStart the service with `demo start`.\nStop it with `demo stop`.\n";
// The Usage section moves above Install; a paragraph is added at the top.
const MD_V2: &str = "# Guide\n\nA short guide for new users.\n\n## Usage\n\nStart the service with `demo start`.\nStop it with `demo stop`.\n\n## Install\n\nRun the installer from the release page.\nIt needs no administrator rights.\n";
// A line deleted, one rewritten.
const MD_V3: &str = "# Guide\n\nA short guide for new users.\n\n## Usage\n\nStart the service with `demo start --detach`.\n\n## Install\n\nRun the installer from the release page.\nIt needs no administrator rights.\n";

const SH_V1: &str = "#!/bin/sh\nset -eu\nbuild_frontend_assets --minify\nbuild_backend_service --release\nupload_artifacts_to_bucket\nrestart_service_gracefully\n";
// Upload moves after restart (a run longer than 20 letters: git -M keeps its origin).
const SH_V2: &str = "#!/bin/sh\nset -eu\nbuild_frontend_assets --minify\nbuild_backend_service --release\nrestart_service_gracefully\nupload_artifacts_to_bucket\n";

const RB_V1: &str = "def greet(name)\n  message = \"Hello, #{name}!\"\n  message\nend\n\ndef farewell(name)\n  \"Goodbye, #{name}.\"\nend\n";
const RB_V2: &str = "require \"logger\"\n\n\ndef greet(name)\n  message = \"Hello, #{name}!\"\n  LOG.info(message)\n  message\nend\n\ndef farewell(name)\n  \"Goodbye, #{name}.\"\nend\n";
// A person's edit the hooks do not see.
const RB_HUMAN: &str = "require \"logger\"\n\n\ndef greet(name)\n  message = \"Hi, #{name}!\"\n  LOG.info(message)\n  message\nend\n\ndef farewell(name)\n  \"Goodbye, #{name}.\"\nend\n";
// The agent's next write, starting from the person's text.
const RB_V3: &str = "require \"logger\"\n\n\ndef greet(name)\n  message = \"Hi, #{name}!\"\n  LOG.info(message)\n  message\nend\n\ndef farewell(name)\n  LOG.info(\"bye\")\n  \"Goodbye, #{name}.\"\nend\n";

/// The agent's workspace and its git twin, written in step.
struct Twin {
    ws: TestWorkspace,
    git: tempfile::TempDir,
    writes: u32,
}

impl Twin {
    fn new() -> Twin {
        let ws = TestWorkspace::new();
        std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
        let dir = tempfile::tempdir().unwrap();
        git(dir.path(), &["init", "-q"]);
        Twin {
            ws,
            git: dir,
            writes: 0,
        }
    }

    fn agent(&mut self, prompt: &str, rel: &str, text: &str) {
        self.writes += 1;
        traced_write(&self.ws, prompt, rel, text, &format!("w{}", self.writes));
        self.mirror(rel, text);
    }

    /// The agent reads a file (a person changed it: the gate wants a fresh read).
    fn read(&self, prompt: &str, rel: &str) {
        let path = self.ws.root().join(rel);
        let mut payload = json!({"hook_event_name": "PreToolUse", "session_id": "s1",
            "cwd": self.ws.root(), "prompt_id": prompt, "tool_name": "Read",
            "tool_input": {"file_path": path}, "tool_use_id": format!("r-{rel}")});
        hook(&self.ws, payload.to_string().as_bytes());
        payload["hook_event_name"] = json!("PostToolUse");
        payload["tool_response"] = json!({"type": "text"});
        hook(&self.ws, payload.to_string().as_bytes());
    }

    fn person(&self, rel: &str, text: &str) {
        std::fs::write(self.ws.root().join(rel), text).unwrap();
        self.mirror(rel, text);
    }

    fn mirror(&self, rel: &str, text: &str) {
        let path = self.git.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn commit(&self, message: &str) {
        git(self.git.path(), &["add", "-A"]);
        git(self.git.path(), &["commit", "-q", "-m", message]);
    }
}

/// `git blame -M`'s commit message (our intent, or `PERSON`) for every line.
fn git_blame(dir: &Path, rel: &str) -> Vec<String> {
    let out = git(dir, &["blame", "-M", "--line-porcelain", rel]);
    out.lines()
        .filter_map(|l| l.strip_prefix("summary "))
        .map(str::to_string)
        .collect()
}

/// Ours for every line: the intent of the write that gave the line its text, or
/// `PERSON` for a line the answer says was changed outside the ledger.
fn our_blame(ws: &TestWorkspace, rel: &str) -> Vec<String> {
    let answer = json_of(ws, &["blame", rel]);
    answer["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(
            |l| match (l["outside_ledger"].as_bool(), l["intent_id"].as_str()) {
                (Some(true), _) => "PERSON".to_string(),
                (_, Some(intent)) => intent.to_string(),
                _ => format!("none ({})", l["level"]),
            },
        )
        .collect()
}

fn scenario() -> Twin {
    let mut t = Twin::new();
    turn(&t.ws, "INT-001", "p1", "First cut of everything");
    t.agent("p1", "config/settings.json", JSON_V1);
    t.agent("p1", "docs/guide.md", MD_V1);
    t.agent("p1", "scripts/deploy.sh", SH_V1);
    t.agent("p1", "app/greet.rb", RB_V1);
    t.commit("INT-001");
    turn(
        &t.ws,
        "INT-002",
        "p2",
        "More settings; usage first in the guide",
    );
    t.agent("p2", "config/settings.json", JSON_V2);
    t.agent("p2", "docs/guide.md", MD_V2);
    t.agent("p2", "app/greet.rb", RB_V2);
    t.commit("INT-002");
    turn(
        &t.ws,
        "INT-003",
        "p3",
        "Upload after the restart; shorter usage",
    );
    t.agent("p3", "scripts/deploy.sh", SH_V2);
    t.agent("p3", "docs/guide.md", MD_V3);
    t.commit("INT-003");
    t.person("app/greet.rb", RB_HUMAN);
    t.commit("PERSON");
    turn(&t.ws, "INT-004", "p4", "Log the farewell");
    t.read("p4", "app/greet.rb");
    t.agent("p4", "app/greet.rb", RB_V3);
    t.commit("INT-004");
    t
}

const FILES: [&str; 4] = [
    "config/settings.json",
    "docs/guide.md",
    "scripts/deploy.sh",
    "app/greet.rb",
];

#[test]
fn every_line_of_every_text_file_agrees_with_git_blame_m() {
    let t = scenario();
    let mut disagreements = BTreeMap::new();
    let mut lines = 0;
    for rel in FILES {
        let (git, ours) = (git_blame(t.git.path(), rel), our_blame(&t.ws, rel));
        assert_eq!(git.len(), ours.len(), "{rel}: line counts");
        lines += git.len();
        for (i, (g, o)) in git.iter().zip(&ours).enumerate() {
            if g != o {
                disagreements.insert(format!("{rel}:{}", i + 1), (g.clone(), o.clone()));
            }
        }
    }
    assert_eq!(lines, 6 + 12 + 6 + 13);
    assert!(
        disagreements.is_empty(),
        "git blame -M vs ours: {disagreements:#?}"
    );
    // The moved section and the moved command kept their first writer: a check
    // that the comparison above is not vacuous about moves.
    let usage = json_of(&t.ws, &["why", "docs/guide.md:7"]);
    assert_eq!(usage["level"], "line", "{usage:#}");
    assert_eq!(usage["last_touched"]["intent_id"], "INT-003", "{usage:#}");
    let moved = json_of(&t.ws, &["why", "docs/guide.md:5"]);
    assert_eq!(moved["last_touched"]["intent_id"], "INT-001", "{moved:#}");
    let upload = json_of(&t.ws, &["why", "scripts/deploy.sh:6"]);
    assert_eq!(upload["last_touched"]["intent_id"], "INT-001", "{upload:#}");
}

#[test]
fn why_names_the_writes_prompts_and_intents_of_a_line_and_never_a_false_untraced() {
    let t = scenario();
    // `"retries": 5` was rewritten under INT-002: its story holds both writes.
    let retries = json_of(&t.ws, &["why", "config/settings.json:3"]);
    assert_eq!(retries["level"], "line");
    assert_eq!(retries["outside_ledger"], false);
    let history = retries["history"].as_array().unwrap();
    let intents: Vec<&str> = history
        .iter()
        .map(|h| h["intent_id"].as_str().unwrap())
        .collect();
    assert_eq!(intents, ["INT-001", "INT-002"], "{retries:#}");
    assert_eq!(
        history[1]["prompt"],
        "More settings; usage first in the guide"
    );
    assert_eq!(retries["intents"][1]["name"], "Settings and docs");

    // The person's line: flagged, with the writes before it, never credited.
    let human = json_of(&t.ws, &["why", "app/greet.rb:5"]);
    assert_eq!(human["outside_ledger"], true, "{human:#}");
    assert!(
        human["note"]
            .as_str()
            .unwrap()
            .contains("hooks did not see"),
        "{human:#}"
    );
    // The agent's line after the person's edit is the agent's.
    let bye = json_of(&t.ws, &["why", "app/greet.rb:11"]);
    assert_eq!(bye["outside_ledger"], false, "{bye:#}");
    assert_eq!(bye["last_touched"]["intent_id"], "INT-004", "{bye:#}");

    // The text form says how it answered.
    let text = ok(&t.ws, &["why", "docs/guide.md:3"]);
    assert!(text.contains("answered by: line"), "{text}");
    assert!(text.contains("INT-002"), "{text}");
    assert!(!text.contains("no recorded change"), "{text}");

    // Rebuilt from the ledger alone: the same answers.
    let before: Vec<Value> = FILES
        .iter()
        .map(|f| json_of(&t.ws, &["blame", f]))
        .collect();
    ok(&t.ws, &["rebuild", "--only", "blocks"]);
    let after: Vec<Value> = FILES
        .iter()
        .map(|f| json_of(&t.ws, &["blame", f]))
        .collect();
    assert_eq!(before, after, "incremental vs rebuilt");
}

#[test]
fn a_binary_file_is_named_binary_with_its_writes_never_dumped() {
    let mut t = Twin::new();
    turn(&t.ws, "INT-001", "p1", "Add the logo");
    t.agent(
        "p1",
        "assets/logo.bin",
        "\u{0}PNG\u{1}\u{2}\nbinary\u{0}data\n",
    );
    t.agent(
        "p1",
        "assets/logo.bin",
        "\u{0}PNG\u{1}\u{3}\nother\u{0}data\n",
    );
    let why = json_of(&t.ws, &["why", "assets/logo.bin:1"]);
    assert_eq!(why["level"], "file", "{why:#}");
    assert_eq!(why["history"].as_array().unwrap().len(), 2, "{why:#}");
    assert!(why["note"].as_str().unwrap().contains("binary"), "{why:#}");
    let out = t.ws.run(&["blame", "assets/logo.bin"], None);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("binary") && err.contains("2 traced writes"),
        "{err}"
    );
    assert!(!err.contains("PNG") && out.stdout.is_empty(), "{err}");
}
