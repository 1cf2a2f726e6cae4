//! Hooks answered through a [`Resident`], in process: the answers and the ledger
//! are the ones one-shot hooks give, the value keeps what they parsed and saved, and
//! two values in one process share nothing.

use std::sync::Arc;

use intent_ledger::{read_events, Workspace};
use serde_json::{json, Value};

use super::Resident;
use crate::respond::{self, Call};
use crate::{Engine, FrontEnd, Hook};

const SPECS: &str = "active_intents:\n  - id: INT-001\n    name: Greeting\n    status: IN_PROGRESS\n    owned_scope: [\"src/**\"]\n    constraints: [c]\n    acceptance_criteria: [a]\n";
const FIRST: &str = "export function greet(name: string): string {\n  return `hi ${name}`;\n}\n\nexport function part(name: string): string {\n  return `bye ${name}`;\n}\n";
const OLD: &str = "  return `bye ${name}`;\n";
const NEW: &str = "  const polite = `goodbye ${name}`;\n  return polite;\n";
const BUDGET: usize = 48 << 20;

/// A fresh workspace with the specs, INT-001 selected for session `s1`.
fn workspace() -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().unwrap();
    let ws = Workspace::at(dir.path());
    ws.init().unwrap();
    std::fs::write(ws.specs_path(), SPECS).unwrap();
    let engine = Engine::new(ws.clone()).unwrap();
    engine.select("s1", "INT-001", "cli").unwrap().unwrap();
    (dir, ws)
}

/// One agent's session in `ws`, each hook answered through `resident` when given
/// (as the helper does: a fresh [`Hook`] each, its deferred work run after the
/// answer), else one-shot.
struct Session<'a> {
    ws: &'a Workspace,
    resident: Option<&'a Arc<Resident>>,
    hooks: usize,
}

impl Session<'_> {
    /// Answers `payload`, its `$WS` standing for the workspace's root; returns the
    /// reply in the same terms. Events are named from a seed per hook, as the
    /// client draws one, so that two runs of the same session record the same ids.
    fn hook(&mut self, payload: Value) -> Value {
        let mut hook = self.start(payload["hook_event_name"].as_str().unwrap());
        let reply = self.answer(&mut hook, payload);
        hook.after_answer();
        reply
    }

    /// A hook for the next event, not answered yet.
    fn start(&mut self, event: &str) -> Hook {
        self.hooks += 1;
        let mut hook = match self.resident {
            Some(resident) => Hook::in_helper(Arc::clone(resident)),
            None => Hook::one_shot(),
        };
        let look_from = std::fs::metadata(self.ws.ledger_path()).unwrap().len();
        hook.name_events(&format!("{event}-{}", self.hooks), look_from);
        hook
    }

    fn answer(&self, hook: &mut Hook, payload: Value) -> Value {
        let root = self.ws.root().display().to_string();
        let input = payload.to_string().replace("$WS", &root);
        let call = Call {
            front_end: Some(FrontEnd::ClaudeCode),
            event: None,
        };
        let answer = respond::answer(call, hook, input.as_bytes(), |_| self.ws.clone());
        assert!(answer.diagnostics.is_empty(), "{:?}", answer.diagnostics);
        in_terms_of_ws(self.ws, &answer.reply)
    }
}

/// `value` with the workspace's root (as given and resolved) written `$WS`.
fn in_terms_of_ws(ws: &Workspace, value: &Value) -> Value {
    let mut text = value.to_string();
    for root in [ws.root().to_path_buf(), ws.root().canonicalize().unwrap()] {
        text = text.replace(&root.display().to_string(), "$WS");
    }
    serde_json::from_str(&text).unwrap()
}

fn tool(event: &str, use_id: &str, name: &str, input: Value) -> Value {
    json!({"hook_event_name": event, "session_id": "s1", "cwd": "$WS", "prompt_id": "p1",
        "tool_name": name, "tool_input": input, "tool_use_id": use_id})
}

/// A session: start, prompt, write a file, edit it, a write out of scope (refused),
/// stop. Returns every reply.
fn session(ws: &Workspace, resident: Option<&Arc<Resident>>) -> Vec<Value> {
    let mut session = Session {
        ws,
        resident,
        hooks: 0,
    };
    let file = ws.root().join("src/talk.ts");
    let mut replies = vec![
        session.hook(
            json!({"hook_event_name": "SessionStart", "session_id": "s1",
            "cwd": "$WS", "source": "startup"}),
        ),
        session.hook(
            json!({"hook_event_name": "UserPromptSubmit", "session_id": "s1",
            "cwd": "$WS", "prompt_id": "p1", "prompt": "Be more polite"}),
        ),
    ];
    let write = json!({"file_path": "$WS/src/talk.ts", "content": FIRST});
    replies.push(session.hook(tool("PreToolUse", "t1", "Write", write.clone())));
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, FIRST).unwrap();
    let mut post = tool("PostToolUse", "t1", "Write", write);
    post["tool_response"] = json!({"type": "create", "filePath": "$WS/src/talk.ts"});
    replies.push(session.hook(post));
    let edit = json!({"file_path": "$WS/src/talk.ts", "old_string": OLD, "new_string": NEW});
    replies.push(session.hook(tool("PreToolUse", "t2", "Edit", edit.clone())));
    std::fs::write(&file, FIRST.replace(OLD, NEW)).unwrap();
    let mut post = tool("PostToolUse", "t2", "Edit", edit);
    post["tool_response"] = json!({"filePath": "$WS/src/talk.ts", "oldString": OLD,
        "newString": NEW, "originalFile": FIRST});
    replies.push(session.hook(post));
    let outside = json!({"file_path": "$WS/docs/notes.md", "content": "notes\n"});
    replies.push(session.hook(tool("PreToolUse", "t3", "Write", outside)));
    replies.push(
        session.hook(json!({"hook_event_name": "Stop", "session_id": "s1",
        "cwd": "$WS", "prompt_id": "p1", "stop_hook_active": false})),
    );
    replies
}

/// The events the hooks recorded, without their times (nor the hashes chained over
/// them): id, kind, session, source and data.
fn recorded(ws: &Workspace) -> Vec<Value> {
    let events: Vec<intent_ledger::Event> = read_events(ws.ledger_path())
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    events
        .iter()
        .filter(|e| e.source.starts_with("hook:"))
        .map(|e| {
            let event = json!([e.id, e.kind, e.session, e.source, e.data]);
            in_terms_of_ws(ws, &event)
        })
        .collect()
}

fn specs_bytes(ws: &Workspace) -> Vec<u8> {
    std::fs::read(ws.specs_path()).unwrap()
}

fn kept_state(resident: &Resident, ws: &Workspace) -> bool {
    resident.last_save.take(&ws.cache_dir()).is_some()
}

#[test]
fn hooks_through_a_resident_answer_and_record_as_one_shot_hooks() {
    let (_one_shot_dir, one_shot) = workspace();
    let (_resident_dir, in_helper) = workspace();
    let resident = Arc::new(Resident::new(BUDGET));
    let expected = session(&one_shot, None);
    assert_eq!(session(&in_helper, Some(&resident)), expected);
    assert_eq!(recorded(&in_helper), recorded(&one_shot));
    assert!(
        expected[6].to_string().contains("deny"),
        "the write out of scope is refused: {}",
        expected[6]
    );
    // What the resident kept: the specs as parsed, the written file's analyses and
    // its newest tree, the state saved after the last answer (measured on the
    // first save).
    let memory = resident.memory();
    assert!(memory.analyses >= 2 && memory.trees >= 1, "{memory:?}");
    assert!(memory.state_bytes > 0, "{memory:?}");
    assert!(resident
        .specs
        .remembered(&specs_bytes(&in_helper))
        .is_some());
    assert!(kept_state(&resident, &in_helper));
}

/// Each hook starts from the state the hook before it saved after its answer, and
/// takes it: a hook answered meanwhile loads its own.
#[test]
fn a_hook_takes_the_state_the_hook_before_it_kept() {
    let (_dir, ws) = workspace();
    let resident = Arc::new(Resident::new(BUDGET));
    let mut session = Session {
        ws: &ws,
        resident: Some(&resident),
        hooks: 0,
    };
    let prompt = |text: &str| {
        json!({"hook_event_name": "UserPromptSubmit", "session_id": "s1", "cwd": "$WS",
            "prompt_id": text, "prompt": text})
    };
    let mut first = session.start("UserPromptSubmit");
    session.answer(&mut first, prompt("one"));
    assert!(!kept_state(&resident, &ws), "saved only after the answer");
    first.after_answer();
    let mut second = session.start("UserPromptSubmit");
    session.answer(&mut second, prompt("two"));
    assert!(!kept_state(&resident, &ws), "taken by the second hook");
    second.after_answer();
    assert!(
        kept_state(&resident, &ws),
        "the second hook's, kept in turn"
    );
}

/// What statics could not do: two helpers' memories in one process, each its own.
#[test]
fn two_residents_in_one_process_share_nothing() {
    let (_first_dir, first_ws) = workspace();
    let (_second_dir, second_ws) = workspace();
    let first = Arc::new(Resident::new(BUDGET));
    let second = Arc::new(Resident::new(BUDGET / 2));
    let replies = session(&first_ws, Some(&first));
    let kept = first.memory();
    let empty = second.memory();
    assert_eq!(
        (empty.kept_bytes, empty.analyses, empty.trees),
        (0, 0, 0),
        "{empty:?}"
    );
    assert_eq!(empty.budget_bytes, (BUDGET / 2) as u64);
    assert!(second.specs.remembered(&specs_bytes(&first_ws)).is_none());
    assert!(!kept_state(&second, &first_ws));

    assert_eq!(session(&second_ws, Some(&second)), replies);
    assert_eq!(recorded(&second_ws), recorded(&first_ws));
    let after = first.memory();
    assert_eq!(
        (after.kept_bytes, after.analyses, after.trees),
        (kept.kept_bytes, kept.analyses, kept.trees),
        "the second helper's hooks left the first's memory alone"
    );
    assert!(!kept_state(&first, &second_ws) && !kept_state(&second, &first_ws));
    assert!(kept_state(&first, &first_ws) && kept_state(&second, &second_ws));
}
