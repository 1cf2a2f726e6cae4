//! The adapters' conformance suite, in-process: every front-end fixture payload
//! (`tests/e2e/fixtures/frontends/`, schema in its README) answered by
//! [`intent_engine::respond::answer`] in a fresh workspace, its reply and ledger
//! effect checked against the fixture, as `tests/e2e/test_fixtures.rs` does through
//! the `intent hook` process. Every well-formed payload is answered again without
//! the front-end named, which must be recognized from the payload alone.

use std::path::Path;

use crate::fixture_cases::{
    check, load, session_of, validate, Fixture, Run, EXTERNAL, FRONT_ENDS, SPECS,
};
use intent_engine::respond::{self, Call};
use intent_engine::{Engine, FrontEnd, Hook};
use intent_ledger::{read_events, Workspace};

fn front_end(name: &str) -> FrontEnd {
    FrontEnd::ALL
        .into_iter()
        .find(|fe| fe.as_str() == name)
        .unwrap_or_else(|| panic!("no front-end `{name}`"))
}

/// A fresh initialized workspace with the suite's specs.
fn workspace() -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().unwrap();
    let ws = Workspace::at(dir.path());
    ws.init().expect("init");
    std::fs::write(dir.path().join(".orchestration/active_intents.yaml"), SPECS).unwrap();
    (dir, ws)
}

fn events(ws: &Workspace) -> Vec<intent_ledger::Event> {
    read_events(ws.ledger_path())
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// Answers `fixture` in a fresh workspace, the front-end named or not.
fn run(fixture: &Fixture, fe: &str, named: bool) -> Run {
    let (dir, ws) = workspace();
    let case = fixture.parse(dir.path());
    if let Some(files) = case["setup"]["files"].as_object() {
        for (rel, content) in files {
            let path = dir.path().join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, content.as_str().unwrap()).unwrap();
        }
    }
    if let Some(id) = case["setup"]["select"].as_str() {
        let session = session_of(fe, &case["payload"]).expect("setup.select needs a session");
        let engine = Engine::new(ws.clone()).unwrap();
        engine.select(&session, id, "cli").unwrap().unwrap();
    }
    let before = events(&ws).len();
    let call = Call {
        front_end: named.then(|| front_end(fe)),
        event: case["event"].as_str(),
    };
    let input = case["payload"].to_string();
    let answer = respond::answer(call, &mut Hook::one_shot(), input.as_bytes(), |_| {
        ws.clone()
    });
    let stderr: String = answer
        .diagnostics
        .iter()
        .map(|line| format!("intent hook: {line}\n"))
        .collect();
    Run {
        reply: answer.reply,
        stderr,
        events: events(&ws).split_off(before),
    }
}

fn run_front_end(fe: &str) {
    let mut failed = Vec::new();
    for fixture in load(fe) {
        let outcome = std::panic::catch_unwind(|| {
            let case = fixture.parse(Path::new("/ws"));
            validate(&fixture.name, &case);
            check(&fixture.name, fe, &case["expect"], &run(&fixture, fe, true));
            if case["malformed"] != true {
                let name = format!("{} (detected)", fixture.name);
                check(&name, fe, &case["expect"], &run(&fixture, fe, false));
            }
        });
        if outcome.is_err() {
            failed.push(fixture.name.clone());
        }
    }
    assert!(
        failed.is_empty(),
        "failing fixtures (see above): {failed:#?}"
    );
}

#[test]
fn every_fixture_of_every_front_end_in_process() {
    // An external adapter is a process of its own: its fixtures run through
    // `intent hook <name>` in tests/e2e/test_fixtures.rs.
    for fe in FRONT_ENDS.iter().filter(|fe| !EXTERNAL.contains(fe)) {
        run_front_end(fe);
    }
}
