//! A trace stays small when the file does not parse: a file with many syntax errors
//! is edited in one function, and the trace lists only the first few errors of
//! each side, with their count.

use intent_engine::respond::{self, Call};
use intent_engine::{Engine, FrontEnd, Hook};
use intent_ledger::payload::Trace;
use intent_ledger::{read_events, Workspace};
use serde_json::json;

const SPECS: &str = "active_intents:\n  - id: INT-001\n    name: A\n    status: IN_PROGRESS\n    owned_scope: [\"src/**\"]\n    constraints: [c]\n    acceptance_criteria: [a]\n";

#[test]
fn a_file_with_hundreds_of_parse_errors_keeps_its_traces_small() {
    let dir = tempfile::tempdir().unwrap();
    let ws = Workspace::at(dir.path());
    ws.init().unwrap();
    std::fs::write(dir.path().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    Engine::new(ws.clone())
        .unwrap()
        .select("s1", "INT-001", "cli")
        .unwrap()
        .unwrap();
    // Valid code with a syntax error every 20 functions (a grammar gap looks like
    // this: most of the file parses, some constructs do not).
    let broken: String = (0..400)
        .map(|i| {
            let gap = if i % 20 == 0 {
                format!("const gap{i} = (;\n")
            } else {
                String::new()
            };
            format!("{gap}export function f{i}(a: number): number {{\n  return a + {i};\n}}\n")
        })
        .collect();
    let edited = broken.replacen("f7(", "g7(", 1);
    let root = dir.path().display().to_string();
    let file = format!("{root}/src/broken.ts");
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    for (n, (old, new)) in [(None, &broken), (Some(&broken), &edited)]
        .into_iter()
        .enumerate()
    {
        std::fs::write(&file, new).unwrap();
        let payload = json!({"hook_event_name": "PostToolUse", "session_id": "s1", "cwd": root,
            "tool_name": "Write", "tool_input": {"file_path": file, "content": new},
            "tool_use_id": format!("t{n}"), "prompt_id": format!("p{n}"),
            "tool_response": {"type": if old.is_some() { "update" } else { "create" },
                "filePath": file, "originalFile": old}});
        let call = Call {
            front_end: Some(FrontEnd::ClaudeCode),
            event: None,
        };
        let answer = respond::answer(
            call,
            &mut Hook::one_shot(),
            payload.to_string().as_bytes(),
            |_| ws.clone(),
        );
        assert!(answer.diagnostics.is_empty(), "{:?}", answer.diagnostics);
    }
    let traces: Vec<(usize, Trace)> = std::fs::read_to_string(ws.ledger_path())
        .unwrap()
        .lines()
        .zip(read_events(ws.ledger_path()).unwrap())
        .filter_map(|(line, event)| Some((line.len(), event.unwrap().payload::<Trace>()?)))
        .collect();
    assert_eq!(traces.len(), 2);
    let (bytes, trace) = &traces[1];
    let errors = trace.classification.extra["parse_errors"]
        .as_array()
        .unwrap();
    assert!(!errors.is_empty(), "the file does not parse: {trace:?}");
    for side in errors {
        assert!(side["errors"].as_array().unwrap().len() <= 3, "{side}");
        assert!(side["error_count"].as_u64().unwrap() > 3, "{side}");
    }
    let sizes: Vec<(String, usize)> = serde_json::to_value(trace)
        .unwrap()
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.to_string().len()))
        .collect();
    assert!(
        *bytes < 6_000,
        "a one-line edit's trace takes {bytes} bytes: {sizes:?} {:?}",
        trace
            .classification
            .extra
            .iter()
            .map(|(k, v)| (k, v.to_string().len()))
            .collect::<Vec<_>>()
    );
}
