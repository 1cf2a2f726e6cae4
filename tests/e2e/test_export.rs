//! `intent export agent-trace` on the demo's workspace: every line a record that
//! the published Agent Trace schema accepts, one per traced write.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

use crate::common::{demo, intent_bin, stderr, stdout, TestWorkspace};

const SCHEMA: &str = include_str!("../../query/tests/data/agent-trace-0.1.0.schema.json");

fn export(root: &Path, args: &[&str]) -> Output {
    Command::new(intent_bin())
        .arg("--workspace")
        .arg(root)
        .args(["export", "agent-trace"])
        .args(args)
        .output()
        .unwrap()
}

/// Parses JSON Lines and checks each line against the vendored schema.
fn valid_records(text: &str) -> Vec<Value> {
    let schema: Value = serde_json::from_str(SCHEMA).unwrap();
    let validator = jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap();
    text.lines()
        .map(|line| {
            let record: Value = serde_json::from_str(line).unwrap();
            let errors: Vec<String> = validator
                .iter_errors(&record)
                .map(|e| e.to_string())
                .collect();
            assert!(errors.is_empty(), "{line}\n{errors:#?}");
            record
        })
        .collect()
}

fn trace_ids(root: &Path) -> Vec<String> {
    intent_ledger::read_events(root.join(".orchestration/agent_trace.jsonl"))
        .unwrap()
        .map(Result::unwrap)
        .filter(|e| e.kind == "trace")
        .map(|e| e.id)
        .collect()
}

#[test]
fn the_demo_exports_one_valid_record_per_traced_write() {
    let (_guard, root) = demo();
    let out = export(&root, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let records = valid_records(&stdout(&out));
    let ids: Vec<&str> = records.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        trace_ids(&root),
        "one record per trace event, in ledger order"
    );
    assert!(!ids.is_empty());
    assert_eq!(
        stderr(&out).trim(),
        format!("exported {} records", ids.len())
    );

    for record in &records {
        let conversation = &record["files"][0]["conversations"][0];
        assert_eq!(conversation["contributor"]["type"], "ai");
        assert_eq!(conversation["related"][0]["type"], "intent");
        let vendor = &record["metadata"]["dev.intent-ledger"];
        let intent = vendor["intent_id"].as_str().unwrap();
        assert_eq!(
            conversation["related"][0]["url"],
            format!("urn:intent:{intent}")
        );
        assert!(vendor["mutation_class"].is_string());
        assert!(vendor["ledger"]["seq"].as_u64().unwrap() > 1);
    }

    // The same ledger exports the same bytes: ids are derived, not random.
    let again = export(&root, &[]);
    assert_eq!(again.stdout, out.stdout);
}

#[test]
fn output_since_and_json_keep_stdout_for_records() {
    let (guard, root) = demo();
    let file = guard.path().join("trace.jsonl");
    let to_file = export(&root, &["--output", file.to_str().unwrap()]);
    assert!(to_file.status.success(), "{}", stderr(&to_file));
    assert!(to_file.stdout.is_empty(), "records went to the file");
    let written = std::fs::read_to_string(&file).unwrap();
    let count = valid_records(&written).len();
    assert_eq!(
        stderr(&to_file).trim(),
        format!("exported {count} records to {}", file.display())
    );
    let leftovers: Vec<_> = std::fs::read_dir(guard.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");

    let json = Command::new(intent_bin())
        .arg("--json")
        .arg("--workspace")
        .arg(&root)
        .args(["export", "agent-trace"])
        .output()
        .unwrap();
    assert!(json.status.success(), "{}", stderr(&json));
    assert_eq!(
        stdout(&json),
        written,
        "--json leaves stdout to the records"
    );
    assert_eq!(stderr(&json).trim(), format!("exported {count} records"));

    let future = export(&root, &["--since", "2999-01-01"]);
    assert!(future.status.success(), "{}", stderr(&future));
    assert!(future.stdout.is_empty());
    assert_eq!(stderr(&future).trim(), "exported 0 records");
    let recent = export(&root, &["--since", "1h"]);
    assert_eq!(valid_records(&stdout(&recent)).len(), count);
}

#[test]
fn mistakes_are_explained() {
    let ws = TestWorkspace::empty();
    let out = ws.run(&["export", "agent-trace"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("run `intent init` first"),
        "{}",
        stderr(&out)
    );

    let ws = TestWorkspace::new();
    let out = ws.run(&["export", "agent-trace", "--since", "last week"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("RFC 3339"), "{}", stderr(&out));
    let out = ws.run(
        &[
            "export",
            "agent-trace",
            "--output",
            "/nonexistent-dir/x.jsonl",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("does not exist"), "{}", stderr(&out));
    let ledger = ws.ledger();
    let out = ws.run(
        &["export", "agent-trace", "-o", ledger.to_str().unwrap()],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("is the ledger itself"),
        "{}",
        stderr(&out)
    );
    let out = ws.run(&["export", "agent-trace"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(out.stdout.is_empty(), "a new ledger has no traced writes");

    // A corrupt ledger exits 3, as `intent verify` does.
    let mut bytes = std::fs::read(ws.ledger()).unwrap();
    bytes.extend_from_slice(b"{\"v\":1,\"seq\":2,broken\n");
    std::fs::write(ws.ledger(), bytes).unwrap();
    let out = ws.run(&["export", "agent-trace"], None);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
}
