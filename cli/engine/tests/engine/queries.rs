//! `why`, `blame`, block lineage and the intent map as libraries, over a ledger
//! written by real hook events answered in-process: two sessions under two intents
//! change one file, and every query names the right intent for every line.

use intent_engine::respond::{self, Call};
use intent_engine::{Engine, FrontEnd, Hook};
use intent_ledger::Workspace;
use intent_query::lineage;
use intent_query::why::{blame, why, Target};
use serde_json::{json, Value};

const SPECS: &str = "active_intents:\n  - id: INT-001\n    name: Greeting\n    status: IN_PROGRESS\n    owned_scope: [\"src/**\"]\n    constraints: [c]\n    acceptance_criteria: [a]\n  - id: INT-002\n    name: Farewell polish\n    status: IN_PROGRESS\n    owned_scope: [\"src/**\"]\n    constraints: [c]\n    acceptance_criteria: [a]\n";

const FIRST: &str = "export function greet(name: string): string {\n  return `hi ${name}`;\n}\n\nexport function part(name: string): string {\n  return `bye ${name}`;\n}\n";
const SECOND: &str = "export function greet(name: string): string {\n  return `hi ${name}`;\n}\n\nexport function part(name: string): string {\n  const polite = `goodbye ${name}`;\n  return polite;\n}\n";

struct Session<'a> {
    ws: &'a Workspace,
    id: &'a str,
    calls: usize,
}

impl Session<'_> {
    fn hook(&self, payload: Value) -> Value {
        let call = Call {
            front_end: Some(FrontEnd::ClaudeCode),
            event: None,
        };
        let answer = respond::answer(
            call,
            &mut Hook::one_shot(),
            payload.to_string().as_bytes(),
            |_| self.ws.clone(),
        );
        assert!(answer.diagnostics.is_empty(), "{:?}", answer.diagnostics);
        answer.reply
    }

    /// A Write as Claude Code does it: PreToolUse, the write, PostToolUse.
    fn write(&mut self, rel: &str, text: &str) {
        self.calls += 1;
        let root = self.ws.root().display().to_string();
        let path = format!("{root}/{rel}");
        let tool = json!({"session_id": self.id, "cwd": root, "tool_name": "Write",
            "tool_input": {"file_path": path, "content": text},
            "tool_use_id": format!("{}-{}", self.id, self.calls), "prompt_id": format!("{}-p", self.id)});
        let mut pre = tool.clone();
        pre["hook_event_name"] = json!("PreToolUse");
        let reply = self.hook(pre);
        assert!(
            reply["hookSpecificOutput"]["permissionDecision"] != "deny",
            "{reply}"
        );
        std::fs::create_dir_all(self.ws.root().join(rel).parent().unwrap()).unwrap();
        std::fs::write(self.ws.root().join(rel), text).unwrap();
        let mut post = tool;
        post["hook_event_name"] = json!("PostToolUse");
        post["tool_response"] = json!({"type": "create", "filePath": path});
        self.hook(post);
    }
}

fn workspace() -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().unwrap();
    let ws = Workspace::at(dir.path());
    ws.init().unwrap();
    std::fs::write(dir.path().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    (dir, ws)
}

#[test]
fn why_blame_lineage_and_map_name_the_intent_of_every_line() {
    let (_dir, ws) = workspace();
    let engine = Engine::new(ws.clone()).unwrap();
    engine.select("s1", "INT-001", "cli").unwrap().unwrap();
    engine.select("s2", "INT-002", "cli").unwrap().unwrap();
    let mut s1 = Session {
        ws: &ws,
        id: "s1",
        calls: 0,
    };
    s1.write("src/talk.ts", FIRST);
    // The second session reads the file first (the gate wants it seen), then edits
    // only `part`.
    let mut s2 = Session {
        ws: &ws,
        id: "s2",
        calls: 0,
    };
    let root = ws.root().display().to_string();
    let read = json!({"session_id": "s2", "cwd": root, "tool_name": "Read",
        "tool_input": {"file_path": format!("{root}/src/talk.ts")}, "tool_use_id": "s2-r"});
    for event in ["PreToolUse", "PostToolUse"] {
        let mut payload = read.clone();
        payload["hook_event_name"] = json!(event);
        s2.hook(payload);
    }
    s2.write("src/talk.ts", SECOND);

    // why: `greet` (line 2) was last shaped by INT-001, `part` (line 7) by INT-002,
    // with INT-001's creation before it.
    let greet = why(&ws, &Target::Line("src/talk.ts".into(), 2)).unwrap();
    assert_eq!(greet.block.as_ref().map(|b| b.name.as_str()), Some("greet"));
    let last = greet.last_touched.as_ref().expect("a change");
    assert_eq!(last.intent_id.as_deref(), Some("INT-001"));
    let part = why(&ws, &Target::Line("src/talk.ts".into(), 7)).unwrap();
    assert_eq!(part.block.as_ref().map(|b| b.name.as_str()), Some("part"));
    let intents: Vec<_> = part
        .history
        .iter()
        .filter_map(|h| h.intent_id.as_deref())
        .collect();
    assert_eq!(intents, ["INT-001", "INT-002"], "{:#?}", part.history);
    assert_eq!(
        part.last_behaviour_change
            .as_ref()
            .and_then(|h| h.intent_id.as_deref()),
        Some("INT-002")
    );
    let by_name = why(&ws, &Target::parse("src/talk.ts::part").unwrap()).unwrap();
    assert_eq!(by_name.history.len(), part.history.len());

    // blame: every line of each function names its block's latest intent.
    let answer = blame(&ws, "src/talk.ts").unwrap();
    assert_eq!(answer.lines.len(), SECOND.lines().count());
    for line in &answer.lines {
        let want = match line.line {
            1..=3 => Some("INT-001"),
            5..=8 => Some("INT-002"),
            _ => None,
        };
        if want.is_some() {
            assert_eq!(
                line.intent_id.as_deref(),
                want,
                "line {}: {line:?}",
                line.line
            );
        }
    }
    assert_eq!(answer.intents["INT-002"], "Farewell polish");

    // Lineage: the file's shard holds both blocks, under stable ids.
    let shard = lineage::shard(&ws, "src/talk.ts").expect("a shard");
    let text = serde_json::to_string(&shard).unwrap();
    assert!(text.contains("greet") && text.contains("part"), "{text}");
    let traces = lineage::traces(&ws, "src/talk.ts").unwrap();
    assert_eq!(traces.len(), 2);

    // The map: each intent lists the file and the blocks it changed.
    let map = intent_query::map::regenerate(&ws).unwrap();
    let one = map.split("## INT-002").next().unwrap();
    assert!(
        one.contains("## INT-001") && one.contains("src/talk.ts"),
        "{map}"
    );
    let two = map.split("## INT-002").nth(1).expect("an INT-002 section");
    assert!(two.contains("src/talk.ts") && two.contains("part"), "{map}");
    assert!(
        !two.contains("greet"),
        "INT-002 did not change greet:\n{map}"
    );
}
