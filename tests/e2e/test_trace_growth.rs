//! Traces stay bounded in a long turn (issue #30): a write's trace lists the blocks
//! that write changed, not every block the turn changed so far, so an agent that
//! rewrites one file hundreds of times before its turn ends does not grow the
//! ledger by the whole file's block list per write. Driven through real hook
//! processes; `INTENT_GROWTH_WRITES` runs a longer turn.

use serde_json::Value;

use crate::common::{hook, traced_write, TestWorkspace, SRC_INTENT};
use crate::test_why::{json_of, ok, turn};

/// Functions in the file (about 40 KB of source with 40, `soak::function`).
const FUNCTIONS: usize = 40;

pub(crate) use intent_cli::commands::bench::soak::{function, source};

/// Bytes of each `trace` line of the ledger, by seq.
fn trace_bytes(ws: &TestWorkspace) -> Vec<(u64, usize)> {
    let ledger = std::fs::read_to_string(ws.ledger()).unwrap();
    ledger
        .lines()
        .filter_map(|line| {
            let event: Value = serde_json::from_str(line).ok()?;
            (event["kind"] == "trace").then(|| (event["seq"].as_u64().unwrap(), line.len()))
        })
        .collect()
}

fn stop(ws: &TestWorkspace) {
    let payload = serde_json::json!({"hook_event_name": "Stop", "session_id": "s1",
        "cwd": ws.root(), "stop_hook_active": false});
    hook(ws, payload.to_string().as_bytes());
}

/// The first line of function `index` in the file.
fn line_of(index: usize) -> usize {
    let per_function = function(0, 0).lines().count();
    index * per_function + 1
}

#[test]
fn a_long_turns_traces_stay_as_small_as_a_one_write_turns() {
    let writes: usize = std::env::var("INTENT_GROWTH_WRITES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(50);
    let ws = TestWorkspace::new();
    std::fs::write(
        ws.root().join(".orchestration/active_intents.yaml"),
        SRC_INTENT,
    )
    .unwrap();
    std::fs::create_dir_all(ws.root().join("src")).unwrap();
    let mut versions = vec![0; FUNCTIONS];
    // The file exists before the long turn.
    turn(&ws, "INT-001", "p0", "Write the pipeline");
    let created = traced_write(&ws, "p0", "src/pipeline.ts", &source(&versions), "w0");
    stop(&ws);
    // One turn, `writes` writes, each changing one function.
    turn(&ws, "INT-001", "p1", "Tune every step");
    let mut seq_of_write = Vec::new();
    for k in 0..writes {
        versions[k % FUNCTIONS] += 1;
        let trace = traced_write(
            &ws,
            "p1",
            "src/pipeline.ts",
            &source(&versions),
            &format!("w{}", k + 1),
        );
        seq_of_write.push(trace.seq);
    }
    stop(&ws);
    let bytes = trace_bytes(&ws);
    let size = |seq: u64| bytes.iter().find(|(s, _)| *s == seq).unwrap().1;
    let (first, last) = (size(seq_of_write[0]), size(*seq_of_write.last().unwrap()));
    let largest = seq_of_write.iter().map(|s| size(*s)).max().unwrap();
    let total: usize = seq_of_write.iter().map(|s| size(*s)).sum();
    eprintln!(
        "trace bytes: file created {} B; {writes}-write turn: first write {first} B, last \
         write {last} B, largest {largest} B, {} B per write on average ({} B in all)",
        size(created.seq),
        total / writes,
        total
    );
    assert!(
        largest <= 2 * first,
        "a trace of a {writes}-write turn takes {largest} B, its first one {first} B"
    );
    // The turn's verdict still judges the whole turn.
    let verdicts: Vec<_> = ws
        .events()
        .into_iter()
        .filter(|e| e.kind == "turn.verdict" && e.data["turn"] == "p1")
        .collect();
    assert_eq!(verdicts.len(), 1);
    assert_eq!(verdicts[0].data["mutation_class"], "INTENT_EVOLUTION");
    assert_eq!(verdicts[0].data["traces"].as_u64(), Some(writes as u64));
    // `why` on a function names the write that changed it last, not the turn's
    // last write; one untouched since the turn began names its creation.
    for k in [0, writes / 2, writes - 1] {
        let index = k % FUNCTIONS;
        let last_write = (0..writes).rev().find(|w| w % FUNCTIONS == index).unwrap();
        let answer = json_of(
            &ws,
            &["why", &format!("src/pipeline.ts:{}", line_of(index) + 1)],
        );
        assert_eq!(answer["block"]["name"], format!("step{index}"), "{answer}");
        let history = answer["history"].as_array().unwrap();
        let seqs: Vec<u64> = history.iter().map(|h| h["seq"].as_u64().unwrap()).collect();
        assert_eq!(
            seqs,
            vec![created.seq, seq_of_write[last_write]],
            "step{index}, last changed by write {}: {answer}",
            last_write + 1
        );
    }
    if writes < FUNCTIONS {
        let answer = json_of(&ws, &["why", "src/pipeline.ts::step39"]);
        let history = answer["history"].as_array().unwrap();
        assert_eq!(history.len(), 1, "{answer}");
        assert_eq!(history[0]["seq"].as_u64(), Some(created.seq));
    }
    rebuilt_answers_the_same(&ws);
}

fn rebuilt_answers_the_same(ws: &TestWorkspace) {
    // Rebuilt from the ledger alone, the projection answers the same.
    for target in ["src/pipeline.ts::step3", "src/pipeline.ts::step39"] {
        let before = json_of(ws, &["why", target]);
        ok(ws, &["rebuild", "--only", "blocks"]);
        assert_eq!(json_of(ws, &["why", target]), before);
    }
}

/// The case: the file is created in the long turn, and every later write
/// re-listed all its blocks as created.
#[test]
fn a_file_created_in_a_long_turn_is_listed_whole_once() {
    let ws = TestWorkspace::new();
    std::fs::write(
        ws.root().join(".orchestration/active_intents.yaml"),
        SRC_INTENT,
    )
    .unwrap();
    std::fs::create_dir_all(ws.root().join("src")).unwrap();
    let mut versions = vec![0; FUNCTIONS];
    turn(&ws, "INT-001", "p1", "Write and tune the pipeline");
    let mut seqs = vec![traced_write(&ws, "p1", "src/pipeline.ts", &source(&versions), "w0").seq];
    for k in 0..12 {
        versions[k * 3] += 1;
        let rel = "src/pipeline.ts";
        seqs.push(traced_write(&ws, "p1", rel, &source(&versions), &format!("w{}", k + 1)).seq);
    }
    stop(&ws);
    let bytes = trace_bytes(&ws);
    let size = |seq: u64| bytes.iter().find(|(s, _)| *s == seq).unwrap().1;
    let later: Vec<usize> = seqs[1..].iter().map(|s| size(*s)).collect();
    eprintln!(
        "trace bytes, file created in the turn: {} B, then {later:?}",
        size(seqs[0])
    );
    assert!(later.iter().all(|b| *b <= 2 * later[0]), "{later:?}");
    // Each function names the write that last changed it (a created block's
    // story in its creating turn is one entry: its newest write).
    for (index, seq) in [(0, seqs[1]), (33, seqs[12]), (1, seqs[0])] {
        let answer = json_of(
            &ws,
            &["why", &format!("src/pipeline.ts:{}", line_of(index) + 1)],
        );
        let history = answer["history"].as_array().unwrap();
        assert_eq!(history.len(), 1, "{answer}");
        assert_eq!(
            history[0]["seq"].as_u64(),
            Some(seq),
            "step{index}: {answer}"
        );
        assert_eq!(history[0]["event"], "created", "{answer}");
    }
    rebuilt_answers_the_same(&ws);
}
