//! Bad input to `intent append` gets a clear error and changes nothing.

use intent_ledger::verify_path;

use crate::common::{stderr, stdout, TestWorkspace};

fn assert_refused(ws: &TestWorkspace, input: &[u8], expected: &str) {
    let before = std::fs::read(ws.ledger()).unwrap();
    let out = ws.run(&["append"], Some(input));
    assert_eq!(
        out.status.code(),
        Some(1),
        "stdout: {}\nstderr: {}",
        stdout(&out),
        stderr(&out)
    );
    let err = stderr(&out);
    assert!(err.contains(expected), "stderr lacks {expected:?}: {err}");
    let lower = err.to_lowercase();
    assert!(
        ["nothing was appended", "nothing was written", "no events"]
            .iter()
            .any(|m| lower.contains(m)),
        "{err}"
    );
    assert_eq!(
        std::fs::read(ws.ledger()).unwrap(),
        before,
        "the ledger changed"
    );
    assert!(verify_path(ws.ledger()).unwrap().is_intact());
}

#[test]
fn not_json_is_refused_with_the_line_number() {
    let ws = TestWorkspace::new();
    let input = b"{\"kind\":\"lesson\",\"data\":{}}\nthis is not json\n";
    assert_refused(&ws, input, "line 2");
}

#[test]
fn invalid_utf8_is_refused_with_its_offset() {
    let ws = TestWorkspace::new();
    let mut input = b"{\"kind\":\"lesson\",\"data\":{\"text\":\"caf".to_vec();
    input.extend_from_slice(&[0xff, 0xfe]);
    input.extend_from_slice(b"\"}}\n");
    assert_refused(&ws, &input, "not valid UTF-8 (bad byte at offset 36");
}

#[test]
fn a_50_mb_line_is_refused_as_too_large() {
    let ws = TestWorkspace::new();
    let mut input = b"{\"kind\":\"lesson\",\"data\":{\"blob\":\"".to_vec();
    input.resize(input.len() + 50 * 1024 * 1024, b'a');
    input.extend_from_slice(b"\"}}\n{\"kind\":\"lesson\"}\n");
    assert_refused(&ws, &input, "limit");
}

#[test]
fn unknown_fields_and_bad_kinds_are_refused() {
    let ws = TestWorkspace::new();
    assert_refused(&ws, br#"{"kind":"lesson","dat":{}}"#, "unknown field `dat`");
    assert_refused(&ws, br#"{"kind":"Not A Kind","data":{}}"#, "kind");
    assert_refused(
        &ws,
        br#"{"kind":"lesson","data":[1]}"#,
        "data must be a JSON object",
    );
    assert_refused(&ws, br#"{"kind":"lesson","ts":"yesterday"}"#, "RFC 3339");
    assert_refused(&ws, b"\n\n", "no events");
    // A kind this version knows must carry data its readers can read: a trace
    // whose path is a number would be kept but ignored by every query.
    assert_refused(
        &ws,
        br#"{"kind":"trace","data":{"path":7}}"#,
        "data does not fit a `trace` event",
    );
    assert_refused(
        &ws,
        br#"{"kind":"intent.selected","data":{"via":"cli"}}"#,
        "missing field `intent_id`",
    );
}

#[test]
fn a_pretty_printed_object_and_json_lines_are_both_accepted() {
    let ws = TestWorkspace::new();
    let out = ws.run(
        &["append"],
        Some(b"{\n  \"kind\": \"lesson\",\n  \"data\": {\"text\": \"one\"}\n}\n"),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let out = ws.run(
        &["--json", "append"],
        Some(b"{\"kind\":\"lesson\",\"session\":\"s1\"}\n\n{\"kind\":\"prompt\",\"data\":{\"text\":\"two\"}}\n"),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let acks: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(acks.len(), 2);
    assert_eq!(
        acks[1]["seq"].as_u64().unwrap(),
        acks[0]["seq"].as_u64().unwrap() + 1
    );
    let events = ws.events();
    let last = &events[events.len() - 2..];
    assert_eq!(last[0].session.as_deref(), Some("s1"));
    assert_eq!(last[0].source, "cli");
    assert_eq!(last[1].data["text"], "two");
}

#[test]
fn a_retried_id_is_acknowledged_with_its_original_seq() {
    let ws = TestWorkspace::new();
    let body =
        br#"{"kind":"trace","id":"01937a4e-0000-7000-8000-000000000001","data":{"path":"a.ts"}}"#;
    let first = ws.run(&["--json", "append"], Some(body));
    let second = ws.run(&["--json", "append"], Some(body));
    let a: serde_json::Value = serde_json::from_slice(&first.stdout).unwrap();
    let b: serde_json::Value = serde_json::from_slice(&second.stdout).unwrap();
    assert_eq!(a["seq"], b["seq"]);
    assert_eq!(a["duplicate"], false);
    assert_eq!(b["duplicate"], true);
    assert_eq!(ws.events().iter().filter(|e| e.kind == "trace").count(), 1);
}
