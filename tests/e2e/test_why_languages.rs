//! Python, Go and Rust through the hooks, answered by block: a Python function moved
//! between two modules of one package (a refactor), then changed (an evolution),
//! followed by `why`; a reformat with a local rename recorded as a refactor; a Go
//! method and a Rust `impl` method named and followed by `why`.

use serde_json::Value;

use crate::common::{traced_write, TestWorkspace};
use crate::test_why::{json_of, turn};

const SPECS: &str = "active_intents:
  - id: INT-001
    name: Key helpers
    status: IN_PROGRESS
    owned_scope: [\"app/**\"]
    acceptance_criteria: [a]
  - id: INT-002
    name: Split key code
    status: IN_PROGRESS
    owned_scope: [\"app/**\"]
    acceptance_criteria: [a]
  - id: INT-003
    name: Smaller fingerprints
    status: IN_PROGRESS
    owned_scope: [\"app/**\"]
    acceptance_criteria: [a]
";

const INIT: &str = "from .util import *\nfrom .keys import *\n";
const UTIL_V1: &str = "def rotate(keys, keep=3):\n    return keys[-keep:]\n\n\ndef _fingerprint(key):\n    total = 0\n    for ch in key:\n        total = (total * 31 + ord(ch)) % 65521\n    return total\n";
const UTIL_V2: &str = "def rotate(keys, keep=3):\n    return keys[-keep:]\n";
const KEYS_V1: &str = "def default_keep():\n    return 3\n";
const KEYS_V2: &str = "def default_keep():\n    return 3\n\n\ndef _fingerprint(key):\n    total = 0\n    for ch in key:\n        total = (total * 31 + ord(ch)) % 65521\n    return total\n";
const KEYS_V3: &str = "def default_keep():\n    return 3\n\n\ndef _fingerprint(key):\n    total = 0\n    for ch in key:\n        total = (total * 31 + ord(ch)) % 4093\n    return total\n";

fn workspace() -> TestWorkspace {
    let ws = TestWorkspace::new();
    std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    ws
}

#[test]
fn why_follows_a_python_function_across_modules_by_block() {
    let ws = workspace();
    turn(&ws, "INT-001", "p1", "Key helpers");
    traced_write(&ws, "p1", "app/__init__.py", INIT, "w1");
    traced_write(&ws, "p1", "app/util.py", UTIL_V1, "w2");
    traced_write(&ws, "p1", "app/keys.py", KEYS_V1, "w3");

    turn(&ws, "INT-002", "p2", "Move _fingerprint next to the keys");
    traced_write(&ws, "p2", "app/util.py", UTIL_V2, "w4");
    let moved = traced_write(&ws, "p2", "app/keys.py", KEYS_V2, "w5");
    assert_eq!(
        moved.data["mutation_class"], "AST_REFACTOR",
        "{}",
        moved.data
    );

    turn(&ws, "INT-003", "p3", "Fingerprints fit in 12 bits");
    let changed = traced_write(&ws, "p3", "app/keys.py", KEYS_V3, "w6");
    assert_eq!(changed.data["mutation_class"], "INTENT_EVOLUTION");

    let answer = json_of(&ws, &["why", "app/keys.py:8"]);
    assert_eq!(answer["level"], "block", "{answer:#}");
    assert_eq!(answer["block"]["name"], "_fingerprint", "{answer:#}");
    assert_eq!(answer["block"]["kind"], "function", "{answer:#}");
    let history: Vec<(&str, &str, &str)> = answer["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["intent_id"].as_str().unwrap(),
                h["path"].as_str().unwrap(),
                h["mutation_class"].as_str().unwrap_or("-"),
            )
        })
        .collect();
    assert_eq!(
        history,
        [
            ("INT-001", "app/util.py", "INTENT_EVOLUTION"),
            ("INT-002", "app/keys.py", "AST_REFACTOR"),
            ("INT-003", "app/keys.py", "INTENT_EVOLUTION"),
        ],
        "{answer:#}"
    );
    assert_eq!(answer["last_touched"]["intent_id"], "INT-003");
    // The function it did not touch still answers with its first writer.
    let kept = json_of(&ws, &["why", "app/keys.py:2"]);
    assert_eq!(kept["block"]["name"], "default_keep", "{kept:#}");
    assert_eq!(kept["last_touched"]["intent_id"], "INT-001", "{kept:#}");
    // By name too.
    let by_name = json_of(&ws, &["why", "app/util.py::rotate"]);
    assert_eq!(by_name["level"], "block", "{by_name:#}");
    assert_eq!(
        by_name["last_touched"]["intent_id"], "INT-001",
        "{by_name:#}"
    );
}

#[test]
fn a_black_reformat_with_a_local_rename_is_recorded_as_a_refactor() {
    let ws = workspace();
    turn(&ws, "INT-001", "p1", "Key helpers");
    let before = "def rotate(keys,keep = 3):\n    kept=keys[ - keep : ]\n    return kept\n";
    traced_write(&ws, "p1", "app/util.py", before, "w1");
    turn(&ws, "INT-002", "p2", "Tidy");
    let after = "def rotate(keys, keep=3):\n    newest = keys[-keep:]\n    return newest\n";
    let event = traced_write(&ws, "p2", "app/util.py", after, "w2");
    assert_eq!(
        event.data["mutation_class"], "AST_REFACTOR",
        "{}",
        event.data
    );
    // Renaming a keyword-callable parameter is an API change.
    let api = "def rotate(keys, count=3):\n    newest = keys[-count:]\n    return newest\n";
    let event = traced_write(&ws, "p2", "app/util.py", api, "w3");
    assert_eq!(
        event.data["mutation_class"], "INTENT_EVOLUTION",
        "{}",
        event.data
    );
    let answer: Value = json_of(&ws, &["why", "app/util.py:2"]);
    assert_eq!(answer["level"], "block", "{answer:#}");
}

#[test]
fn go_methods_and_rust_impl_methods_answer_by_block() {
    let ws = workspace();
    turn(&ws, "INT-001", "p1", "Key helpers");
    let go_v1 = "package app\n\ntype Ring struct {\n\tkeys []string\n}\n\nfunc (r *Ring) Newest(n int) []string {\n\treturn r.keys[len(r.keys)-n:]\n}\n";
    let rs_v1 = "pub struct Ring {\n    keys: Vec<String>,\n}\n\nimpl Ring {\n    pub fn newest(&self, n: usize) -> &[String] {\n        &self.keys[self.keys.len() - n..]\n    }\n}\n";
    traced_write(&ws, "p1", "app/ring.go", go_v1, "w1");
    traced_write(&ws, "p1", "app/ring.rs", rs_v1, "w2");

    turn(&ws, "INT-002", "p2", "Tidy");
    // gofmt-style reflow and a parameter rename: a refactor in Go.
    let go_v2 = "package app\n\ntype Ring struct {\n\tkeys []string\n}\n\nfunc (r *Ring) Newest(count int) []string {\n\treturn r.keys[len(r.keys)-count:]\n}\n";
    let go = traced_write(&ws, "p2", "app/ring.go", go_v2, "w3");
    assert_eq!(go.data["mutation_class"], "AST_REFACTOR", "{}", go.data);
    turn(&ws, "INT-003", "p3", "Smaller fingerprints");
    let rs_v2 = "pub struct Ring {\n    keys: Vec<String>,\n}\n\nimpl Ring {\n    pub fn newest(&self, n: usize) -> &[String] {\n        let n = n.min(self.keys.len());\n        &self.keys[self.keys.len() - n..]\n    }\n}\n";
    let rs = traced_write(&ws, "p3", "app/ring.rs", rs_v2, "w4");
    assert_eq!(rs.data["mutation_class"], "INTENT_EVOLUTION", "{}", rs.data);

    let go = json_of(&ws, &["why", "app/ring.go:8"]);
    assert_eq!(go["level"], "block", "{go:#}");
    assert_eq!(go["block"]["name"], "Ring.Newest", "{go:#}");
    assert_eq!(go["block"]["kind"], "method", "{go:#}");
    assert_eq!(go["last_touched"]["intent_id"], "INT-002", "{go:#}");
    assert_eq!(
        go["last_behaviour_change"]["intent_id"], "INT-001",
        "{go:#}"
    );

    let rs = json_of(&ws, &["why", "app/ring.rs:7"]);
    assert_eq!(rs["level"], "block", "{rs:#}");
    assert_eq!(rs["block"]["name"], "Ring.newest", "{rs:#}");
    assert_eq!(rs["last_touched"]["intent_id"], "INT-003", "{rs:#}");
    let enclosing: Vec<&str> = rs["enclosing"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    assert_eq!(enclosing, ["Ring"], "{rs:#}");
    // `intent doctor` names how deep each language of the traced files is answered.
    let doctor = json_of(&ws, &["doctor"]);
    let languages = doctor["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == "languages")
        .unwrap_or_else(|| panic!("{doctor:#}"));
    let detail = languages["detail"].as_str().unwrap();
    assert!(
        detail.contains("Go 1 by block") && detail.contains("Rust 1 by block"),
        "{detail}"
    );
}
