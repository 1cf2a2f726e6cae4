//! Times the steps of one turn's analysis on two versions of a file:
//! `cargo run --release -p intent-ast-hash --example turn_timing -- BEFORE AFTER`.

use std::time::Instant;

use intent_ast_hash::{analyze, analyze_turn_with, match_blocks, Prepared, SourceFile};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let before = SourceFile::new("src/f.ts", std::fs::read_to_string(&args[1]).unwrap());
    let after = SourceFile::new("src/f.ts", std::fs::read_to_string(&args[2]).unwrap());
    let time = |label: &str, started: Instant| {
        println!(
            "{label:<28} {:>8.3} ms",
            started.elapsed().as_secs_f64() * 1e3
        )
    };
    let t = Instant::now();
    let a = analyze(&before);
    time("analyze before", t);
    let t = Instant::now();
    let b = analyze(&after);
    time("analyze after", t);
    println!("blocks: {} / {}", a.blocks.len(), b.blocks.len());
    let mut prepared = Prepared::default();
    prepared.insert(&before, a.clone());
    prepared.insert(&after, b.clone());
    let t = Instant::now();
    let _ = a.clone();
    time("clone one analysis", t);
    let t = Instant::now();
    let bytes = intent_ast_hash::stored::encode(&a);
    time("stored::encode", t);
    let t = Instant::now();
    let back = intent_ast_hash::stored::decode(&bytes, &before);
    time("stored::decode", t);
    println!(
        "stored bytes: {} (restored: {})",
        bytes.len(),
        back.is_some()
    );
    let t = Instant::now();
    let m = match_blocks(std::slice::from_ref(&a), std::slice::from_ref(&b));
    time("match_blocks", t);
    println!("matches: {}", m.len());
    let rounds: usize = std::env::var("ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    for _ in 0..rounds {
        let t = Instant::now();
        let _ = analyze_turn_with(
            std::slice::from_ref(&before),
            std::slice::from_ref(&after),
            &prepared,
        );
        time("analyze_turn_with (prepared)", t);
    }
}
