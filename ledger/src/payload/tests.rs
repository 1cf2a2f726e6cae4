use serde_json::Value;

use super::*;
use crate::kinds;

/// Events as the writers recorded them (one per distinct shape, from `intent demo`
/// and from the shell, collision and repair paths).
const RECORDED: &str = include_str!("../../tests/data/recorded_payloads.jsonl");

fn round_trip<P: Payload>(data: &Value) -> Value {
    let typed = P::from_data(data).unwrap_or_else(|| {
        let err = P::deserialize(data).err();
        panic!("{} does not parse: {err:?}\n{data}", P::KIND)
    });
    typed.to_data()
}

/// Readers take a `null` field and a missing one alike; older writers wrote some
/// absent fields as `null` in one path and left them out in another.
fn without_nulls(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k, without_nulls(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(without_nulls).collect()),
        other => other,
    }
}

#[test]
fn every_recorded_event_reads_back_into_its_type_and_writes_the_same_data() {
    let mut seen = std::collections::BTreeSet::new();
    for line in RECORDED.lines() {
        let event: Value = serde_json::from_str(line).unwrap();
        let kind = event["kind"].as_str().unwrap();
        let data = &event["data"];
        let again = match kind {
            kinds::GENESIS => round_trip::<Genesis>(data),
            kinds::INTENT_SPEC => round_trip::<IntentSpec>(data),
            kinds::INTENT_SELECTED => round_trip::<IntentSelected>(data),
            kinds::INTENT_CLEARED => round_trip::<IntentCleared>(data),
            kinds::INTENT_STATUS => round_trip::<IntentStatus>(data),
            kinds::INTENT_COMPLETION_PROPOSED => round_trip::<CompletionProposed>(data),
            kinds::SESSION_START => round_trip::<SessionStart>(data),
            kinds::PROMPT => round_trip::<Prompt>(data),
            kinds::TOOL_PRE => round_trip::<ToolPre>(data),
            kinds::TOOL_POST => round_trip::<ToolPost>(data),
            kinds::TRACE => round_trip::<Trace>(data),
            kinds::LESSON => round_trip::<Lesson>(data),
            kinds::TURN_VERDICT => round_trip::<TurnVerdict>(data),
            kinds::SESSION_STOP => round_trip::<SessionStop>(data),
            kinds::HOOK_WARNING => round_trip::<HookWarning>(data),
            kinds::HOOK_UNRECORDED => round_trip::<HookUnrecorded>(data),
            kinds::LEDGER_REPAIRED => round_trip::<LedgerRepaired>(data),
            kinds::VIOLATION_ACCEPTED => round_trip::<ViolationAccepted>(data),
            other => panic!("a recorded kind without a type: {other}"),
        };
        assert_eq!(
            without_nulls(again),
            without_nulls(data.clone()),
            "{kind} changed on a round trip"
        );
        seen.insert(kind.to_string());
    }
    // Every kind this version writes is covered.
    for kind in [
        kinds::GENESIS,
        kinds::INTENT_SPEC,
        kinds::INTENT_SELECTED,
        kinds::INTENT_CLEARED,
        kinds::INTENT_STATUS,
        kinds::INTENT_COMPLETION_PROPOSED,
        kinds::SESSION_START,
        kinds::PROMPT,
        kinds::TOOL_PRE,
        kinds::TOOL_POST,
        kinds::TRACE,
        kinds::LESSON,
        kinds::TURN_VERDICT,
        kinds::SESSION_STOP,
        kinds::HOOK_WARNING,
        kinds::HOOK_UNRECORDED,
        kinds::LEDGER_REPAIRED,
        kinds::VIOLATION_ACCEPTED,
    ] {
        assert!(seen.contains(kind), "no recorded `{kind}` event");
    }
}

#[test]
fn unknown_fields_survive_and_known_ones_are_typed() {
    let line = RECORDED
        .lines()
        .find(|l| l.contains("future_field"))
        .unwrap();
    let data = &serde_json::from_str::<Value>(line).unwrap()["data"];
    let post = ToolPost::from_data(data).unwrap();
    assert_eq!(post.extra["future_field"]["kept"][1], 2);
    let violation = post.violation.unwrap();
    assert_eq!(violation.kind, "protected_path");
    assert_eq!(violation.paths, [".orchestration/active_intents.yaml"]);
    assert!(violation.extra.contains_key("files"));
}

#[test]
fn data_that_does_not_fit_is_refused_for_known_kinds_only() {
    let bad = serde_json::json!({ "path": 7, "mutation_class": "X" });
    let err = check(kinds::TRACE, &bad).unwrap_err();
    assert!(err.contains("`trace`"), "{err}");
    assert!(check("custom.kind", &bad).is_ok());
    assert!(check(kinds::LESSON, &serde_json::json!({ "text": "hi" })).is_ok());
}

#[test]
fn an_event_reads_as_its_own_kind_only() {
    let event = crate::Event {
        v: 1,
        seq: 2,
        ts: String::new(),
        id: String::new(),
        kind: kinds::LESSON.to_string(),
        session: None,
        source: "cli".to_string(),
        data: serde_json::json!({ "text": "hi", "intent_id": "INT-001" }),
        prev: String::new(),
        h: String::new(),
    };
    assert_eq!(event.payload::<Lesson>().unwrap().text, "hi");
    assert!(event.payload::<Prompt>().is_none());
}

#[test]
fn block_paths_lists_both_sides_once() {
    let line = RECORDED.lines().find(|l| l.contains("collisions")).unwrap();
    let data = &serde_json::from_str::<Value>(line).unwrap()["data"];
    let trace = Trace::from_data(data).unwrap();
    assert_eq!(trace.block_paths(), ["src/b.ts"]);
    assert_eq!(trace.collisions.as_ref().unwrap()[0].seq, 12);
    assert_eq!(trace.turn_id(), "t2");
}
