//! Analyses kept between hook processes (`.orchestration/.cache/analyses/`): a hook
//! restores the analysis of a text an earlier hook parsed; a damaged, stale or
//! foreign entry costs a parse, never a different trace.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::common::{hook, traced_write, TestWorkspace};

const SPECS: &str = "active_intents:\n  - id: INT-001\n    name: Auth\n    status: IN_PROGRESS\n    owned_scope: [\"src/**\"]\n    constraints: [c]\n    acceptance_criteria: [a]\n";

fn workspace() -> TestWorkspace {
    let ws = TestWorkspace::new();
    std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    let out = ws.run(&["select", "INT-001", "--session", "s1"], None);
    assert!(out.status.success());
    ws
}

fn cache_dir(root: &Path) -> PathBuf {
    root.join(".orchestration/.cache/analyses")
}

fn entries(root: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(cache_dir(root))
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    found.sort();
    found
}

/// What a trace says about the code, without ids and clocks.
fn essence(trace: &intent_ledger::Event) -> Value {
    let blocks: Vec<Value> = trace.data["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| json!([b["event"], b["matched_by"], b["before"], b["after"]]))
        .collect();
    json!({
        "class": trace.data["mutation_class"],
        "classification": trace.data["classification"],
        "blocks": blocks,
    })
}

const V1: &str = "export function verify(t: string) {\n  return t.length > 0;\n}\n\nfunction ttl(n: number) {\n  return n + 900;\n}\n";
const V3: &str = "export function verify(t: string) {\n  return t.length > 10;\n}\n";
const MOVED: &str = "function ttl(n: number) {\n  return n + 900;\n}\n";

/// Create, change, then a cross-file move in one turn (two writes); `meddle` runs
/// before every write.
fn scenario(meddle: impl Fn(&Path)) -> (TestWorkspace, Vec<Value>) {
    let ws = workspace();
    let mut seen = Vec::new();
    let v2 = V1.replace("> 0", "> 10");
    for (prompt, rel, text, id) in [
        ("p1", "src/jwt.ts", V1, "w1"),
        ("p2", "src/jwt.ts", v2.as_str(), "w2"),
        ("p3", "src/jwt.ts", V3, "w3"),
        ("p3", "src/ttl.ts", MOVED, "w4"),
    ] {
        meddle(ws.root());
        seen.push(essence(&traced_write(&ws, prompt, rel, text, id)));
    }
    (ws, seen)
}

#[test]
fn restored_analyses_give_the_same_traces_as_fresh_ones() {
    let (ws, kept) = scenario(|_| {});
    assert_eq!(kept[3]["class"], "AST_REFACTOR", "{}", kept[3]);
    // Each distinct text of the session was analyzed once and kept.
    assert!(entries(ws.root()).len() >= 4, "{:?}", entries(ws.root()));

    // No cache at all: every hook parses everything.
    let (_, fresh) = scenario(|root| {
        let _ = std::fs::remove_dir_all(cache_dir(root));
    });
    assert_eq!(kept, fresh);

    // Damaged entries: cut in half.
    let (_, damaged) = scenario(|root| {
        for entry in entries(root) {
            let bytes = std::fs::read(&entry).unwrap();
            std::fs::write(&entry, &bytes[..bytes.len() / 2]).unwrap();
        }
    });
    assert_eq!(kept, damaged);

    // Foreign entries: every entry holds a valid analysis of some other text.
    let (_, foreign) = scenario(|root| {
        let all = entries(root);
        if let Some(first) = all.first() {
            let other = std::fs::read(first).unwrap();
            for entry in &all {
                std::fs::write(entry, &other).unwrap();
            }
        }
    });
    assert_eq!(kept, foreign);
}

#[test]
fn a_new_prompt_trims_the_cache_to_its_newest_entries() {
    let ws = workspace();
    traced_write(&ws, "p1", "src/a.ts", "export const a = 1;\n", "w1");
    let dir = cache_dir(ws.root());
    let real = entries(ws.root());
    assert!(!real.is_empty());
    // Old entries first (older modification times), then the real ones are touched.
    // An hour old: older than anything written now, whatever the clock's tick.
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    for i in 0..600 {
        let path = dir.join(format!("{i:032x}.bin"));
        std::fs::write(&path, b"{}").unwrap();
        let file = std::fs::File::options().write(true).open(&path).unwrap();
        file.set_modified(old).unwrap();
    }
    for entry in &real {
        let bytes = std::fs::read(entry).unwrap();
        std::fs::write(entry, bytes).unwrap();
    }
    let prompt = json!({"hook_event_name": "UserPromptSubmit", "session_id": "s1", "cwd": ws.root(),
        "prompt": "next", "prompt_id": "p2"});
    hook(&ws, prompt.to_string().as_bytes());
    let left = entries(ws.root());
    assert_eq!(left.len(), 256);
    for entry in &real {
        assert!(
            left.contains(entry),
            "the newest entry {entry:?} was trimmed"
        );
    }
    // Below the threshold nothing is removed.
    let again = json!({"hook_event_name": "UserPromptSubmit", "session_id": "s1", "cwd": ws.root(),
        "prompt": "again", "prompt_id": "p3"});
    hook(&ws, again.to_string().as_bytes());
    assert_eq!(entries(ws.root()).len(), 256);
}
