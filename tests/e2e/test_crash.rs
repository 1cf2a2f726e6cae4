//! Writers SIGKILLed mid-append: acknowledged events survive, only the tail may hold
//! debris, and the next append repairs it.

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::time::Duration;

use intent_ledger::verify_path;

use crate::common::{stderr, Rng, TestWorkspace};

#[test]
fn killed_writers_lose_no_acknowledged_event() {
    let ws = TestWorkspace::new();
    let mut rng = Rng::from_env();
    let mut acknowledged: HashSet<String> = HashSet::new();
    let mut torn_tails = 0;
    let mut later_ms = 0;
    for round in 0..12 {
        // Alternate one-by-one commits with big group commits, whose single large
        // write is the one a kill can tear.
        let each = round % 2 == 0;
        let count = if each { 3000 } else { 40_000 };
        let mut args = vec!["--json", "append", "--durability", "never"];
        if each {
            args.push("--each");
        }
        let mut child = ws.command(&args).spawn().unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let input: String = (0..count)
            .map(|n| format!("{{\"kind\":\"lesson\",\"data\":{{\"round\":{round},\"n\":{n},\"pad\":\"{}\"}}}}\n", "x".repeat(64)))
            .collect();
        let feeder = std::thread::spawn(move || {
            let _ = stdin.write_all(input.as_bytes());
        });
        let stdout = child.stdout.take().unwrap();
        let reader = std::thread::spawn(move || {
            let mut acks = Vec::new();
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let ack: serde_json::Value = serde_json::from_str(&line).unwrap();
                acks.push(ack["id"].as_str().unwrap().to_string());
            }
            acks
        });
        std::thread::sleep(Duration::from_millis(rng.range(5, 120) + later_ms));
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        let _ = feeder.join();
        let acks = reader.join().unwrap();
        // On a loaded machine a kill can land before the writer has started: kill
        // later in the next rounds until writers get to acknowledge something.
        if acks.is_empty() {
            later_ms += 150;
        }
        acknowledged.extend(acks);

        let report = verify_path(ws.ledger()).unwrap();
        assert!(report.is_intact(), "round {round}: {report:?}");
        torn_tails += u64::from(report.torn_tail_bytes > 0);
        let present: HashSet<String> = ws.events().into_iter().map(|e| e.id).collect();
        let missing = acknowledged.difference(&present).count();
        assert_eq!(
            missing, 0,
            "round {round}: {missing} acknowledged events lost"
        );
    }
    eprintln!(
        "{} acknowledged events survived; {torn_tails} kills left a torn tail",
        acknowledged.len()
    );
    // The next append repairs whatever tail the last kill left.
    let out = ws.run(
        &["append"],
        Some(br#"{"kind":"lesson","data":{"after":"kills"}}"#),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let report = verify_path(ws.ledger()).unwrap();
    assert!(
        report.is_intact() && report.torn_tail_bytes == 0,
        "{report:?}"
    );
    assert!(
        !acknowledged.is_empty(),
        "no writer got to acknowledge anything"
    );
}
