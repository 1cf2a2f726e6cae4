//! Several real processes appending to one ledger at once.

use std::collections::HashMap;

use intent_ledger::verify_path;

use crate::common::{stderr, TestWorkspace};

#[test]
fn eight_writers_times_500_appends_are_gap_free_and_ordered() {
    let ws = TestWorkspace::new();
    let base = ws.events().len() as u64;
    let writers: Vec<_> = (0..8)
        .map(|w| {
            let input: String = (0..500)
                .map(|n| format!("{{\"kind\":\"lesson\",\"data\":{{\"writer\":{w},\"n\":{n}}}}}\n"))
                .collect();
            let mut child = ws
                .command(&["append", "--each", "--durability", "never"])
                .spawn()
                .unwrap();
            let mut stdin = child.stdin.take().unwrap();
            std::thread::spawn(move || {
                std::io::Write::write_all(&mut stdin, input.as_bytes()).unwrap()
            });
            child
        })
        .collect();
    for child in writers {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 500);
    }
    let events = ws.events();
    assert_eq!(events.len() as u64, base + 4000);
    for (i, event) in events.iter().enumerate() {
        assert_eq!(event.seq, i as u64 + 1);
    }
    let report = verify_path(ws.ledger()).unwrap();
    assert!(report.is_intact(), "{report:?}");
    assert_eq!(report.last_seq, base + 4000);
    let mut next: HashMap<u64, u64> = HashMap::new();
    for event in events.iter().filter(|e| e.kind == "lesson") {
        let writer = event.data["writer"].as_u64().unwrap();
        let n = event.data["n"].as_u64().unwrap();
        let expected = next.entry(writer).or_insert(0);
        assert_eq!(n, *expected, "writer {writer} out of order");
        *expected += 1;
    }
    assert!(next.values().all(|&n| n == 500));
}

#[test]
fn expected_seq_races_have_exactly_one_winner() {
    let ws = TestWorkspace::new();
    for round in 0..5 {
        let last = ws.events().last().unwrap().seq.to_string();
        let racers: Vec<_> = (0..6)
            .map(|r| {
                let mut child = ws
                    .command(&["append", "--expect-seq", &last, "--durability", "never"])
                    .spawn()
                    .unwrap();
                let body =
                    format!("{{\"kind\":\"lesson\",\"data\":{{\"round\":{round},\"racer\":{r}}}}}");
                std::io::Write::write_all(child.stdin.as_mut().unwrap(), body.as_bytes()).unwrap();
                drop(child.stdin.take());
                child
            })
            .collect();
        let outcomes: Vec<_> = racers
            .into_iter()
            .map(|c| c.wait_with_output().unwrap())
            .collect();
        let winners = outcomes.iter().filter(|o| o.status.success()).count();
        assert_eq!(winners, 1, "round {round}");
        for loser in outcomes.iter().filter(|o| !o.status.success()) {
            assert_eq!(loser.status.code(), Some(4), "{}", stderr(loser));
            assert!(
                stderr(loser).contains("another writer appended first"),
                "{}",
                stderr(loser)
            );
        }
        let last_now = ws.events().last().unwrap().seq;
        assert_eq!(last_now, last.parse::<u64>().unwrap() + 1);
    }
    assert!(verify_path(ws.ledger()).unwrap().is_intact());
}
