//! `why` and `blame` tell the truth about today's text: blocks are found by
//! analysing the file as it is now (never by stored line numbers), every edit a
//! reader can see enters a block's story, and a move inside one turn keeps one
//! identity whichever file the agent writes first.

use serde_json::{json, Value};

use crate::common::{hook, traced_write, TestWorkspace};
use crate::test_why::{events, json_of, ok, turn};

const SPECS: &str = "active_intents:
  - id: INT-001
    name: Signing
    status: IN_PROGRESS
    owned_scope: [\"src/**\"]
    acceptance_criteria: [a]
  - id: INT-002
    name: Module layout
    status: IN_PROGRESS
    owned_scope: [\"src/**\"]
    acceptance_criteria: [a]
  - id: INT-003
    name: Docs
    status: IN_PROGRESS
    owned_scope: [\"src/**\"]
    acceptance_criteria: [a]
";

// `sign` is module-private: moving an exported function would change its importers
// (an API change, rightly INTENT_EVOLUTION).
const OLD_V1: &str = "export function keep(a: number) {\n  return a + 1;\n}\n\nfunction sign(payload: string) {\n  return payload + '.sig';\n}\n";
const OLD_V2: &str = "export function keep(a: number) {\n  return a + 1;\n}\n";
const NEW_V1: &str = "function sign(payload: string) {\n  return payload + '.sig';\n}\n";

fn workspace() -> TestWorkspace {
    let ws = TestWorkspace::new();
    std::fs::write(ws.root().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    std::fs::create_dir_all(ws.root().join("src")).unwrap();
    ws
}

fn stop(ws: &TestWorkspace) {
    let payload = json!({"hook_event_name": "Stop", "session_id": "s1", "cwd": ws.root(), "stop_hook_active": false});
    hook(ws, payload.to_string().as_bytes());
}

/// The ids of every live block of every lineage shard named `name`.
fn identities(ws: &TestWorkspace, path: &str, line: u32) -> Value {
    json_of(ws, &["why", &format!("{path}:{line}")])
}

/// Extracts `sign` into its own module, writing the files in `order`.
fn extract_sign(new_file_first: bool) -> (TestWorkspace, Value) {
    let ws = workspace();
    turn(&ws, "INT-001", "p1", "Add signing");
    traced_write(&ws, "p1", "src/old.ts", OLD_V1, "w1");
    stop(&ws);
    turn(&ws, "INT-002", "p2", "Extract sign into its own module");
    if new_file_first {
        traced_write(&ws, "p2", "src/sign.ts", NEW_V1, "w2");
        // A query in the middle of the turn: the projections catch up half-way.
        identities(&ws, "src/sign.ts", 2);
        traced_write(&ws, "p2", "src/old.ts", OLD_V2, "w3");
    } else {
        traced_write(&ws, "p2", "src/old.ts", OLD_V2, "w2");
        identities(&ws, "src/old.ts", 2);
        traced_write(&ws, "p2", "src/sign.ts", NEW_V1, "w3");
    }
    stop(&ws);
    let answer = identities(&ws, "src/sign.ts", 2);
    // Caught up along the way or rebuilt from the ledger alone: the same answer.
    ok(&ws, &["rebuild", "--only", "blocks"]);
    assert_eq!(
        identities(&ws, "src/sign.ts", 2),
        answer,
        "incremental vs rebuild"
    );
    (ws, answer)
}

#[test]
fn a_move_keeps_one_identity_and_its_history_whichever_file_is_written_first() {
    let (ws_a, new_first) = extract_sign(true);
    let (_ws_b, old_first) = extract_sign(false);
    for (answer, order) in [
        (&new_first, "new file first"),
        (&old_first, "old file first"),
    ] {
        assert_eq!(
            events(answer),
            vec![
                ("created".to_string(), "INT-001".to_string()),
                ("moved".to_string(), "INT-002".to_string())
            ],
            "{order}: {answer:#}"
        );
        let moved = &answer["history"][1];
        assert_eq!(moved["from_path"], "src/old.ts", "{order}");
        // The turn as a whole moved code: its final class, not the first write's.
        assert_eq!(
            moved["mutation_class"], "AST_REFACTOR",
            "{order}: {answer:#}"
        );
        assert_eq!(moved["behaviour"], false, "{order}");
        assert_eq!(
            answer["last_behaviour_change"]["intent_id"], "INT-001",
            "{order}"
        );
    }
    // One identity: blame of the new file names one block for every line of it.
    let blame = json_of(&ws_a, &["blame", "src/sign.ts"]);
    let ids: std::collections::BTreeSet<String> = blame["lines"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|l| l["block"]["id"].as_str().map(str::to_string))
        .collect();
    assert_eq!(ids.len(), 1, "{blame:#}");
    assert_eq!(
        ids.iter().next().map(String::as_str),
        new_first["block"]["id"].as_str()
    );
    // The verdict of the move turn is in the ledger, and says AST_REFACTOR, though
    // the turn's first write (the new file alone) looked like new code.
    let verdicts: Vec<_> = ws_a
        .events()
        .into_iter()
        .filter(|e| e.kind == "turn.verdict")
        .collect();
    assert_eq!(verdicts.len(), 2, "one per turn");
    assert_eq!(verdicts[1].data["mutation_class"], "AST_REFACTOR");
    assert_eq!(verdicts[1].data["traces"], 2);
    assert_eq!(
        verdicts[1].data["paths"],
        json!(["src/old.ts", "src/sign.ts"])
    );
    let first_write = ws_a
        .events()
        .into_iter()
        .find(|e| e.kind == "trace" && e.data["tool_use_id"] == "w2")
        .unwrap();
    assert_eq!(first_write.data["mutation_class"], "INTENT_EVOLUTION");
}

#[test]
fn edits_above_a_block_by_a_human_or_an_agent_never_shift_the_answer() {
    let ws = workspace();
    turn(&ws, "INT-001", "p1", "Add signing");
    traced_write(&ws, "p1", "src/old.ts", OLD_V1, "w1");
    let before = identities(&ws, "src/old.ts", 6);
    assert_eq!(before["block"]["name"], "sign");

    // An agent adds a function above: `sign` moves down 4 lines, untouched.
    turn(&ws, "INT-002", "p2", "Add a helper on top");
    let grown = format!("export function helper() {{\n  return 0;\n}}\n\n{OLD_V1}");
    traced_write(&ws, "p2", "src/old.ts", &grown, "w2");
    let after = identities(&ws, "src/old.ts", 10);
    assert_eq!(after["block"]["name"], "sign", "{after:#}");
    assert_eq!(after["block"]["id"], before["block"]["id"]);
    assert_eq!(
        (
            after["block"]["start_line"].as_u64(),
            after["block"]["end_line"].as_u64()
        ),
        (Some(9), Some(11))
    );
    assert_eq!(
        events(&after),
        events(&before),
        "an untouched block's story does not change"
    );
    let helper = identities(&ws, "src/old.ts", 2);
    assert_eq!(helper["block"]["name"], "helper");
    assert_eq!(
        events(&helper),
        vec![("created".to_string(), "INT-002".to_string())]
    );

    // A person inserts a comment block above everything: same answers, not flagged.
    let human = format!("// Copyright\n// Someone\n\n{grown}");
    std::fs::write(ws.root().join("src/old.ts"), &human).unwrap();
    let shifted = identities(&ws, "src/old.ts", 13);
    assert_eq!(shifted["block"]["id"], before["block"]["id"], "{shifted:#}");
    assert_eq!(shifted["outside_ledger"], false);
    assert_eq!(events(&shifted), events(&before));

    // blame's positions equal a fresh analysis of the file, line by line.
    let blame = json_of(&ws, &["blame", "src/old.ts"]);
    let analysis = intent_ast_hash::analyze(&intent_ast_hash::SourceFile::new(
        "src/old.ts",
        human.as_str(),
    ));
    for row in blame["lines"].as_array().unwrap() {
        let line = row["line"].as_u64().unwrap() as u32;
        let fresh = analysis
            .blocks
            .iter()
            .filter(|b| b.lines.start <= line && line <= b.lines.end)
            .min_by_key(|b| b.lines.end - b.lines.start);
        match fresh {
            Some(b) => {
                assert_eq!(row["block"]["name"], b.qualified_name, "line {line}");
                assert_eq!(row["block"]["start_line"], b.lines.start, "line {line}");
                assert_eq!(row["block"]["end_line"], b.lines.end, "line {line}");
            }
            None => assert!(row["block"].is_null(), "line {line}: {row}"),
        }
    }
    // The person's lines outside every block are answered by their text: no
    // traced write made them, and the answer says so (never a credit by stale
    // line numbers).
    let header = identities(&ws, "src/old.ts", 1);
    assert!(header["block"].is_null());
    assert_eq!(header["level"], "line", "{header:#}");
    assert_eq!(header["outside_ledger"], true, "{header:#}");
    assert!(
        header["history"].as_array().unwrap().is_empty(),
        "{header:#}"
    );
    assert!(header["note"]
        .as_str()
        .unwrap()
        .contains("not written by a traced write"));
}

#[test]
fn comment_and_whitespace_edits_enter_the_story_apart_from_behaviour_changes() {
    let ws = workspace();
    turn(&ws, "INT-001", "p1", "Add signing");
    let v1 =
        "export class Signer {\n  sign(payload: string) {\n    return payload + '.sig';\n  }\n}\n";
    traced_write(&ws, "p1", "src/signer.ts", v1, "w1");
    turn(&ws, "INT-003", "p2", "Document it");
    let v2 = "export class Signer {\n  sign(payload: string) {\n    // @ts-ignore the suffix is fixed\n    return payload + \".sig\";\n  }\n}\n";
    traced_write(&ws, "p2", "src/signer.ts", v2, "w2");
    let answer = identities(&ws, "src/signer.ts", 4);
    assert_eq!(answer["block"]["name"], "Signer.sign", "{answer:#}");
    assert_eq!(
        answer["enclosing"][0]["name"], "Signer",
        "innermost first, then its chain"
    );
    let history = answer["history"].as_array().unwrap();
    assert_eq!(history.len(), 2, "{answer:#}");
    assert_eq!(history[1]["intent_id"], "INT-003");
    assert_eq!(history[1]["event"], "reformatted");
    assert_eq!(history[1]["labels"], json!(["trivia"]));
    assert_eq!(history[1]["behaviour"], false);
    assert_eq!(answer["last_touched"]["intent_id"], "INT-003");
    assert_eq!(answer["last_behaviour_change"]["intent_id"], "INT-001");
    // Whitespace alone is labelled a reformat.
    turn(&ws, "INT-003", "p3", "Indent");
    traced_write(
        &ws,
        "p3",
        "src/signer.ts",
        &v2.replace("    return", "      return"),
        "w3",
    );
    let answer = identities(&ws, "src/signer.ts", 4);
    assert_eq!(
        answer["history"][2]["labels"],
        json!(["reformat"]),
        "{answer:#}"
    );
    let text = ok(&ws, &["why", "src/signer.ts:4"]);
    assert!(text.contains("last behaviour change: #"), "{text}");
    assert!(text.contains("inside class `Signer`"), "{text}");
}

#[test]
fn a_split_starts_from_its_origins_story_and_a_merge_lists_both_origins() {
    let ws = workspace();
    turn(&ws, "INT-001", "p1", "Handle requests");
    let v1 = "export function handle(req: { name: string; age: number }) {\n  if (req.name.length === 0 || req.age < 0 || req.age > 150) {\n    throw new Error('invalid request: ' + req.name);\n  }\n  return req.name.toUpperCase();\n}\n";
    traced_write(&ws, "p1", "src/h.ts", v1, "w1");
    turn(&ws, "INT-002", "p2", "Extract validation");
    let v2 = "export function handle(req: { name: string; age: number }) {\n  validate(req);\n  return req.name.toUpperCase();\n}\n\nfunction validate(req: { name: string; age: number }) {\n  if (req.name.length === 0 || req.age < 0 || req.age > 150) {\n    throw new Error('invalid request: ' + req.name);\n  }\n}\n";
    traced_write(&ws, "p2", "src/h.ts", v2, "w2");
    let split = identities(&ws, "src/h.ts", 7);
    assert_eq!(split["block"]["name"], "validate", "{split:#}");
    let history = split["history"].as_array().unwrap();
    assert_eq!(history.len(), 2, "{split:#}");
    assert_eq!(history[0]["intent_id"], "INT-001");
    assert_eq!(history[0]["inherited_from"], "src/h.ts::handle");
    assert_eq!(history[1]["intent_id"], "INT-002");
    assert_eq!(history[1]["event"], "created");
    assert_eq!(
        history[1]["origins"],
        json!(["split from src/h.ts::handle"])
    );

    // Folding it back in: `handle` lists the merged block as an origin, and the
    // merged block's story joins its own.
    turn(&ws, "INT-003", "p3", "Inline validation again");
    traced_write(&ws, "p3", "src/h.ts", v1, "w3");
    let merged = identities(&ws, "src/h.ts", 2);
    assert_eq!(merged["block"]["name"], "handle", "{merged:#}");
    let history = merged["history"].as_array().unwrap();
    let last = history.last().unwrap();
    assert_eq!(last["intent_id"], "INT-003");
    assert_eq!(
        last["origins"],
        json!(["merged src/h.ts::validate"]),
        "{merged:#}"
    );
    let intents: Vec<&str> = history
        .iter()
        .map(|h| h["intent_id"].as_str().unwrap())
        .collect();
    assert_eq!(intents, ["INT-001", "INT-002", "INT-003"], "{merged:#}");
}

#[test]
fn every_turn_gets_one_verdict_even_without_a_prompt_between_turns() {
    let ws = workspace();
    turn(&ws, "INT-001", "p1", "Add signing");
    traced_write(&ws, "p1", "src/old.ts", OLD_V1, "w1");
    traced_write(&ws, "p1", "src/sign.ts", NEW_V1, "w2");
    // The next write names another turn, with no prompt in between.
    traced_write(&ws, "p2", "src/old.ts", OLD_V2, "w3");
    stop(&ws);
    stop(&ws);
    let verdicts: Vec<_> = ws
        .events()
        .into_iter()
        .filter(|e| e.kind == "turn.verdict")
        .map(|e| {
            (
                e.data["turn"].as_str().unwrap().to_string(),
                e.data["ended_by"].as_str().unwrap().to_string(),
                e.data["traces"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        verdicts,
        [
            ("p1".to_string(), "next turn".to_string(), 2),
            ("p2".to_string(), "stop".to_string(), 1)
        ],
        "one verdict per turn, none for a stop without writes"
    );
}

/// Extracts the validation of `handle` into a module of its own, after a turn
/// that changed only `handle`'s other lines; writes the old file first or last.
fn extract_validation(old_file_first: bool) -> Value {
    let ws = workspace();
    let head = "export function handle(req: { name: string; age: number }) {\n";
    let checks = "  if (req.name.length === 0 || req.age < 0 || req.age > 150) {\n    throw new Error('invalid request: ' + req.name);\n  }\n";
    turn(&ws, "INT-001", "p1", "Handle requests");
    let v1 = format!("{head}{checks}  const greeting = 'Hello, ' + req.name;\n  return greeting.toUpperCase();\n}}\n");
    traced_write(&ws, "p1", "src/h.ts", &v1, "w1");
    stop(&ws);
    turn(&ws, "INT-002", "p2", "Friendlier greeting");
    let rest =
        "  const greeting = 'Welcome, ' + req.name + '!';\n  return greeting.toLowerCase();\n}\n";
    traced_write(
        &ws,
        "p2",
        "src/h.ts",
        &format!("{head}{checks}{rest}"),
        "w2",
    );
    stop(&ws);
    turn(&ws, "INT-003", "p3", "Validation in its own module");
    let old = format!("import {{ validate }} from './validate';\n\n{head}  validate(req);\n{rest}");
    let new =
        format!("export function validate(req: {{ name: string; age: number }}) {{\n{checks}}}\n");
    let writes = [("src/h.ts", old), ("src/validate.ts", new)];
    let order: Vec<_> = match old_file_first {
        true => writes.iter().collect(),
        false => writes.iter().rev().collect(),
    };
    for (i, (path, text)) in order.into_iter().enumerate() {
        traced_write(&ws, "p3", path, text, &format!("w3{i}"));
    }
    stop(&ws);
    let answer = identities(&ws, "src/validate.ts", 3);
    ok(&ws, &["rebuild", "--only", "blocks"]);
    assert_eq!(
        identities(&ws, "src/validate.ts", 3),
        answer,
        "incremental vs rebuild"
    );
    answer
}

#[test]
fn a_block_split_into_another_file_inherits_the_story_of_the_lines_it_took_only() {
    for old_file_first in [true, false] {
        let answer = extract_validation(old_file_first);
        assert_eq!(answer["block"]["name"], "validate", "{answer:#}");
        let history: Vec<(&str, &str)> = answer["history"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| {
                (
                    h["intent_id"].as_str().unwrap(),
                    h["inherited_from"].as_str().unwrap_or("-"),
                )
            })
            .collect();
        // INT-002 changed only the greeting, which stayed in `handle`: not part
        // of the validation's story (the whole donor's story would list it).
        assert_eq!(
            history,
            [("INT-001", "src/h.ts::handle"), ("INT-003", "-")],
            "old file first: {old_file_first}: {answer:#}"
        );
        let last = answer["history"]
            .as_array()
            .unwrap()
            .last()
            .unwrap()
            .clone();
        assert_eq!(
            last["origins"],
            json!(["split from src/h.ts::handle"]),
            "{answer:#}"
        );
    }
}
