//! A team's ledgers at scale (issue #31): what fetching and querying other clones'
//! ledgers costs when there are many of them and they are large.
//!
//! 1. `INTENT_BENCH_CLONES` clones (default 10) of one bare remote each publish a
//!    ledger of `INTENT_BENCH_CLONE_EVENTS` events (default 100,000). One more clone
//!    (home) fetches them all: the cold fetch (goal ≤ 10 s), then its first `why`
//!    (each fetched ledger's projections built once).
//! 2. Each of those clones adds `INTENT_BENCH_NEW` events (default 1,000) and syncs;
//!    home's `sync` and first `why` after it (goal: ≤ 1 s together).
//! 3. More clones, up to `INTENT_BENCH_TEAM` (default 50), with
//!    `INTENT_BENCH_SMALL_EVENTS` events each (default 10,000), are fetched too; then
//!    `why` and `search` p50 over `INTENT_BENCH_RUNS` runs (default 40) with every
//!    fetched ledger and with none (the floor: same clone, same run, the fetched
//!    ledgers moved aside) (goal ≤ 2×). Every fifth of those clones traced the file
//!    `why` asks about, so their ledgers answer for it.
//!
//! Run with `cargo bench -p intent-cli --bench team`; `INTENT_BENCH_KEEP=1` keeps
//! the clones (their directory is printed) to profile a query by hand.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[path = "support/clones.rs"]
mod clones;
use clones::{append, env, git, home_with_remote, intent, new_repo, p50, sync};

/// A clone at `root` whose ledger holds `events` events, published to `remote`.
/// Its own repository has no remote, so `intent sync` only publishes locally (it
/// would otherwise fetch every ledger published before it: setup, not measured);
/// the push is the one `intent sync` makes.
fn publishing_clone(bin: &str, base: &Path, remote: &Path, name: &str, events: u64) -> PathBuf {
    publishing_clone_with(bin, base, remote, name, events, false)
}

/// [`publishing_clone`]; with `writes_app`, its ledger also traces a write of
/// `src/app.ts` (the file `why` asks about), so it answers for it.
fn publishing_clone_with(
    bin: &str,
    base: &Path,
    remote: &Path,
    name: &str,
    events: u64,
    writes_app: bool,
) -> PathBuf {
    let root = base.join(name);
    new_repo(&root, bin);
    append(bin, &root, 0, events, name);
    if writes_app {
        let trace = format!(
            r#"{{"kind":"trace","session":"{name}","source":"bench","data":{{"path":"src/app.ts","intent_id":"INT-001","after_sha256":"{:064x}"}}}}"#,
            events
        );
        intent(
            bin,
            &root,
            &["append"],
            Some(format!("{trace}\n").as_bytes()),
        );
    }
    publish(bin, &root, remote);
    root
}

/// Publishes `root`'s ledger locally and pushes its ref to `remote`.
fn publish(bin: &str, root: &Path, remote: &Path) {
    sync(bin, root);
    git(
        root,
        &[
            "push",
            "-q",
            remote.to_str().unwrap(),
            "refs/intent/ledgers/*:refs/intent/ledgers/*",
        ],
    );
}

fn timed(f: impl FnOnce()) -> Duration {
    let started = Instant::now();
    f();
    started.elapsed()
}

fn main() {
    let bin = std::env::var("INTENT_BENCH_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_intent").to_string());
    let clones = env("INTENT_BENCH_CLONES", 10);
    let clone_events = env("INTENT_BENCH_CLONE_EVENTS", 100_000);
    let new_events = env("INTENT_BENCH_NEW", 1_000);
    let team = env("INTENT_BENCH_TEAM", 50).max(clones);
    let small_events = env("INTENT_BENCH_SMALL_EVENTS", 10_000);
    let runs = env("INTENT_BENCH_RUNS", 40) as usize;
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().canonicalize().unwrap();

    let (home, remote) = home_with_remote(&base, &bin);
    let why: &[&str] = &["why", "src/app.ts:2"];
    // `token` is in every lesson (the worst case: every document matches and is
    // scored); `4242` is in one lesson of each ledger that has one.
    let search: &[&str] = &["search", "token"];
    let selective: &[&str] = &["search", "4242"];

    // 1. Cold fetch.
    let large: Vec<PathBuf> = (0..clones)
        .map(|c| publishing_clone(&bin, &base, &remote, &format!("clone{c}"), clone_events))
        .collect();
    // git's transfer first (what `intent sync` runs, into the same refs), then
    // `intent sync` with the objects already here: the rebuild and verification.
    let transfer = timed(|| {
        git(
            &home,
            &[
                "fetch",
                "--quiet",
                "--no-tags",
                "origin",
                "+refs/intent/ledgers/*:refs/intent/remotes/origin/*",
            ],
        );
    });
    let cold = timed(|| {
        sync(&bin, &home);
    });
    let first_why = timed(|| {
        intent(&bin, &home, why, None);
    });
    println!(
        "cold fetch of {clones} ledgers × {clone_events} events: {:.2} s (goal ≤ 10 s) = git fetch {:.2} s + intent sync {:.2} s (rebuild, verify); first why after it {:.2} s",
        (transfer + cold).as_secs_f64(),
        transfer.as_secs_f64(),
        cold.as_secs_f64(),
        first_why.as_secs_f64()
    );

    // 2. A sync after new work in every clone.
    for (c, root) in large.iter().enumerate() {
        append(&bin, root, clone_events, new_events, &format!("clone{c}"));
        publish(&bin, root, &remote);
    }
    let fetch = timed(|| {
        sync(&bin, &home);
    });
    let first = timed(|| {
        intent(&bin, &home, why, None);
    });
    let second = timed(|| {
        intent(&bin, &home, why, None);
    });
    println!(
        "sync after {new_events} new events in each of {clones} fetched ledgers: {:.0} ms, first why {:.0} ms, together {:.0} ms (goal ≤ 1000 ms); why again {:.1} ms",
        fetch.as_secs_f64() * 1000.0,
        first.as_secs_f64() * 1000.0,
        (fetch + first).as_secs_f64() * 1000.0,
        second.as_secs_f64() * 1000.0
    );

    // 3. Queries with a team's worth of fetched ledgers.
    // Every fifth of them traced the file `why` asks about: those ledgers answer
    // (read the file, locate its blocks); the others are skipped unread.
    for c in clones..team {
        let name = format!("clone{c}");
        publishing_clone_with(&bin, &base, &remote, &name, small_events, c % 5 == 0);
    }
    let more = timed(|| {
        sync(&bin, &home);
    });
    for q in [why, search] {
        intent(&bin, &home, q, None);
    }
    println!(
        "{} more clones × {small_events} events fetched in {:.2} s",
        team - clones,
        more.as_secs_f64()
    );
    let fetched = home.join(".git/intent/fetched");
    let parked = home.join(".git/intent/fetched-parked");
    for q in [why, search, selective] {
        // With and without alternate, so a busy moment of the machine weighs on
        // both alike.
        let (mut with, mut floor) = (Vec::new(), Vec::new());
        for _ in 0..runs {
            with.push(timed(|| drop(intent(&bin, &home, q, None))));
            std::fs::rename(&fetched, &parked).unwrap();
            floor.push(timed(|| drop(intent(&bin, &home, q, None))));
            std::fs::rename(&parked, &fetched).unwrap();
        }
        let (with, floor) = (p50(with), p50(floor));
        println!(
            "intent {}: p50 {with:.1} ms with {team} fetched ledgers, {floor:.1} ms with none ({:.2}×; goal ≤ 2×)",
            q.join(" "),
            with / floor
        );
    }
    if std::env::var_os("INTENT_BENCH_KEEP").is_some() {
        println!("clones kept in {}", dir.keep().display());
    }
}
