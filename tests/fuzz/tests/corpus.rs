//! Every fuzz target over its committed corpus (`corpus/<target>/`: the seeds and
//! each crash AFL++ found, once fixed) and over random inputs: the short run in
//! every `cargo test`. `INTENT_FUZZ_WRITE_SEEDS=1` (with `--ignored`) rewrites
//! the generated seeds.

use std::path::{Path, PathBuf};

use proptest::prelude::*;

fn corpus(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus")
        .join(target)
}

#[test]
fn every_target_survives_its_corpus() {
    for (name, target) in intent_fuzz::TARGETS {
        let dir = corpus(name);
        let mut inputs: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file())
            .collect();
        inputs.sort();
        assert!(inputs.len() >= 3, "{name}: a corpus of {}", inputs.len());
        for input in inputs {
            let data = std::fs::read(&input).unwrap();
            let run = std::panic::catch_unwind(|| target(&data));
            assert!(run.is_ok(), "{name} panicked on {}", input.display());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(256),
        ..ProptestConfig::default()
    })]

    #[test]
    fn every_target_survives_random_bytes(data in proptest::collection::vec(any::<u8>(), 0..512)) {
        for (_, target) in intent_fuzz::TARGETS {
            target(&data);
        }
    }

    /// Random edits of each corpus input: closer to what the parsers expect than
    /// random bytes.
    #[test]
    fn every_target_survives_edited_corpus_inputs(
        pick in any::<prop::sample::Index>(),
        at in any::<prop::sample::Index>(),
        byte in any::<u8>(),
        cut in any::<bool>(),
    ) {
        for (name, target) in intent_fuzz::TARGETS {
            let mut files: Vec<PathBuf> = std::fs::read_dir(corpus(name)).unwrap()
                .map(|e| e.unwrap().path()).collect();
            files.sort();
            let mut data = std::fs::read(pick.get(&files)).unwrap();
            if !data.is_empty() {
                let i = at.index(data.len());
                if cut { data.truncate(i) } else { data[i] = byte }
            }
            target(&data);
        }
    }
}

/// Writes the generated seeds: a real ledger's lines, real helper frames.
#[test]
#[ignore = "rewrites corpus/*/seed-*: run with INTENT_FUZZ_WRITE_SEEDS=1 -- --ignored"]
fn write_seeds() {
    if std::env::var_os("INTENT_FUZZ_WRITE_SEEDS").is_none() {
        return;
    }
    let dir = tempfile_dir();
    let path = dir.join("ledger.jsonl");
    let mut ledger = intent_ledger::Ledger::open(&path).unwrap();
    for i in 0..3 {
        ledger
            .append(intent_ledger::NewEvent::new(
                "lesson",
                "fuzz",
                serde_json::json!({"text": format!("lesson {i}"), "intent_id": "INT-001"}),
            ))
            .unwrap();
    }
    drop(ledger);
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(corpus("ledger_line").join("seed-ledger"), &bytes).unwrap();
    let first = bytes.split(|&b| b == b'\n').next().unwrap();
    std::fs::write(corpus("ledger_line").join("seed-line"), first).unwrap();

    use intent_cli::helper::wire::{write_answer, write_ask, Answer, Ask};
    let mut status = Vec::new();
    write_ask(&mut status, &Ask::Status, b"").unwrap();
    std::fs::write(corpus("helper_wire").join("seed-status"), status).unwrap();
    let mut stop = Vec::new();
    write_ask(&mut stop, &Ask::Stop, b"{}").unwrap();
    std::fs::write(corpus("helper_wire").join("seed-stop"), stop).unwrap();
    let mut served = Vec::new();
    write_answer(
        &mut served,
        &Answer::Served {
            stdout: "{}\n".into(),
            stderr: String::new(),
        },
    )
    .unwrap();
    std::fs::write(corpus("helper_wire").join("seed-served"), served).unwrap();
    std::fs::remove_dir_all(dir).unwrap();
}

fn tempfile_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("intent-fuzz-seeds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
