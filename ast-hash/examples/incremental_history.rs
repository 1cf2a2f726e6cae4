//! Replays a git repository's history of TypeScript/JavaScript files and compares,
//! for every change of every file, the analysis re-parsed incrementally from the
//! previous version's tree with a fresh one, and times both:
//! `cargo run --release -p intent-ast-hash --example incremental_history -- REPO`.

use std::collections::HashMap;
use std::process::Command;
use std::time::Instant;

use intent_ast_hash::{analyze, analyze_from, language_for_path, stored, Parsed, SourceFile};

fn git(repo: &str, args: &[&str]) -> Vec<u8> {
    let out = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(args)
        .output()
        .expect("git runs");
    if out.status.success() {
        out.stdout
    } else {
        Vec::new()
    }
}

fn main() {
    let repo = std::env::args()
        .nth(1)
        .expect("usage: incremental_history REPO");
    let revs = String::from_utf8(git(&repo, &["rev-list", "--reverse", "HEAD"])).unwrap();
    let mut trees: HashMap<String, (Parsed, String)> = HashMap::new();
    let (mut pairs, mut differing, mut fresh_ms, mut incremental_ms) = (0, 0, 0.0, 0.0);
    let mut big = (0, 0.0, 0.0);
    // Top-level statements replayed from the previous version, of all analyzed
    // incrementally.
    let (mut replayed, mut statements) = (0, 0);
    for rev in revs.lines() {
        let changed = git(
            &repo,
            &[
                "diff-tree",
                "--no-commit-id",
                "--name-only",
                "-r",
                "--root",
                rev,
            ],
        );
        for path in String::from_utf8_lossy(&changed).lines() {
            if language_for_path(path).is_none() {
                continue;
            }
            let Ok(text) = String::from_utf8(git(&repo, &["show", &format!("{rev}:{path}")]))
            else {
                continue;
            };
            let file = SourceFile::new(path, text.clone());
            let started = Instant::now();
            let fresh = analyze(&file);
            let f = started.elapsed().as_secs_f64() * 1e3;
            let started = Instant::now();
            let previous = trees.get(path).map(|(tree, text)| (tree, text.as_str()));
            let (incremental, tree) = analyze_from(&file, previous);
            let i = started.elapsed().as_secs_f64() * 1e3;
            if trees.contains_key(path) {
                pairs += 1;
                replayed += tree.as_ref().map_or(0, Parsed::reused_statements);
                statements += tree
                    .as_ref()
                    .map_or(0, |t| t.tree().root_node().named_child_count());
                fresh_ms += f;
                incremental_ms += i;
                if text.lines().count() >= 1000 {
                    big = (big.0 + 1, big.1 + f, big.2 + i);
                }
                if stored::encode(&fresh) != stored::encode(&incremental) {
                    differing += 1;
                    println!("differs: {rev} {path}");
                }
            }
            match tree {
                Some(tree) => trees.insert(path.to_string(), (tree, text)),
                None => trees.remove(path),
            };
        }
    }
    println!(
        "{pairs} changes, {differing} differing; fresh {fresh_ms:.0} ms, incremental \
         {incremental_ms:.0} ms in all; files of 1000+ lines: {} changes, mean fresh {:.1} ms, \
         incremental {:.1} ms; top-level statements replayed, not walked: {replayed} of \
         {statements} top-level nodes (comments included)",
        big.0,
        big.1 / f64::from(big.0.max(1)),
        big.2 / f64::from(big.0.max(1))
    );
}
