//! Properties of sharing and restoring ledgers, on real git repositories: random
//! sequences of appends, checkpoints and syncs between clones of one bare remote
//! rebuild every clone's ledger, event for event, in every other clone; and a
//! restore after random damage gives back the checkpoint and what chains on from it.

mod support;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use intent_sync::{fetched, publish, restore};
use proptest::prelude::*;
use proptest::sample::Index;
use support::{appended_in, events, published_bytes, refs, run_git, tampered, Repo};

/// One step of the clones' work.
#[derive(Debug, Clone)]
enum Op {
    /// Appends a few events in one clone.
    Append { clone: usize, events: usize },
    /// Appends more than a sealed segment's worth: the next publish compacts the
    /// tail pieces into a segment, which clones that fetched the pieces must follow.
    Fill(usize),
    /// A local checkpoint (the end of an agent's turn).
    Checkpoint(usize),
    /// `intent sync`.
    Sync(usize),
    /// `intent sync --fetch-only`.
    FetchOnly(usize),
}

fn ops(clones: usize) -> impl Strategy<Value = Vec<Op>> {
    let op = prop_oneof![
        4 => (0..clones, 1..=6usize).prop_map(|(clone, events)| Op::Append { clone, events }),
        1 => (0..clones).prop_map(Op::Fill),
        2 => (0..clones).prop_map(Op::Checkpoint),
        3 => (0..clones).prop_map(Op::Sync),
        2 => (0..clones).prop_map(Op::FetchOnly),
    ];
    prop::collection::vec(op, 1..=12)
}

/// Clones of one bare remote, and what each has seen of the others.
struct Team {
    _dir: tempfile::TempDir,
    remote: PathBuf,
    repos: Vec<Repo>,
    ids: Vec<String>,
    /// The last seq each clone fetched of each other clone's ledger.
    seen: HashMap<(usize, usize), u64>,
}

impl Team {
    fn new(clones: usize) -> Team {
        let dir = tempfile::tempdir().unwrap();
        let remote = dir.path().join("remote.git");
        run_git(dir.path(), &["init", "-q", "--bare", "remote.git"]);
        let repos: Vec<Repo> = (0..clones)
            .map(|i| {
                let root = dir.path().join(format!("clone{i}"));
                Repo::new(&root, Some(&remote), &format!("clone{i}@example.com"))
            })
            .collect();
        let ids = repos.iter().map(Repo::id).collect();
        Team {
            _dir: dir,
            remote,
            repos,
            ids,
            seen: HashMap::new(),
        }
    }

    fn owner(&self, ledger_id: &str) -> usize {
        self.ids
            .iter()
            .position(|id| id == ledger_id)
            .unwrap_or_else(|| panic!("{ledger_id} is no clone's ledger"))
    }

    fn run(&mut self, op: &Op) -> Result<(), TestCaseError> {
        match *op {
            Op::Append { clone, events } => self.repos[clone].append(events),
            Op::Fill(clone) => {
                self.repos[clone].append(publish::SEGMENT_LINES as usize + 10);
            }
            Op::Checkpoint(clone) => {
                let repo = &self.repos[clone];
                let done = intent_sync::checkpoint(&repo.workspace).unwrap();
                prop_assert_eq!(done.seq, last_seq(&repo.ledger_path()));
            }
            Op::Sync(clone) => self.sync(clone, true)?,
            Op::FetchOnly(clone) => self.sync(clone, false)?,
        }
        Ok(())
    }

    /// Syncs clone `i`; checks what it reports and every fetched copy it holds.
    fn sync(&mut self, i: usize, push: bool) -> Result<(), TestCaseError> {
        let repo = &self.repos[i];
        let report = intent_sync::sync(&repo.workspace, None, push).unwrap();
        prop_assert_eq!(report.remote.as_deref(), Some("origin"));
        prop_assert_eq!(report.pushed, push);
        prop_assert_eq!(&report.push_refused, &None);
        prop_assert_eq!(report.published.seq, last_seq(&repo.ledger_path()));
        for update in &report.fetched {
            prop_assert_eq!(&update.refused, &None, "{}", update.ledger_id);
            let owner = self.owner(&update.ledger_id);
            prop_assert_ne!(owner, i);
            let before = self.seen.insert((i, owner), update.seq).unwrap_or(0);
            prop_assert!(update.seq >= before, "{} went back", update.ledger_id);
            prop_assert_eq!(update.new_events, update.seq - before);
        }
        // Every copy is its owner's ledger as it was at some point: a prefix of it
        // now (owners only append), ending where its ledger.json says.
        for copy in fetched::list(&repo.workspace) {
            let owner = self.owner(&copy.meta.ledger_id);
            let bytes = std::fs::read(&copy.ledger).unwrap();
            prop_assert!(self.repos[owner].bytes().starts_with(&bytes));
            prop_assert_eq!(last_seq(&copy.ledger), copy.meta.seq);
            let label = copy.label();
            prop_assert!(
                label.starts_with(&format!("clone{owner}@example.com on ")),
                "{}",
                label
            );
        }
        Ok(())
    }

    /// After everyone synced twice: every clone holds every other clone's ledger
    /// exactly, every published ref verifies, and no event is missing.
    fn check_converged(&self) -> Result<(), TestCaseError> {
        for (i, repo) in self.repos.iter().enumerate() {
            let own = repo.ledger_path();
            prop_assert_eq!(appended_in(&own), repo.appended);
            let check = restore::check(&repo.workspace)
                .unwrap()
                .expect("a checkpoint");
            prop_assert!(check.holds, "{:?}", check.problem);
            prop_assert_eq!(check.checkpoint.seq, last_seq(&own));

            let copies = fetched::list(&repo.workspace);
            prop_assert_eq!(copies.len(), self.repos.len() - 1);
            for copy in copies {
                let owner = &self.repos[self.owner(&copy.meta.ledger_id)];
                prop_assert_ne!(&copy.meta.ledger_id, &self.ids[i]);
                prop_assert_eq!(events(&copy.ledger), events(&owner.ledger_path()));
                prop_assert_eq!(std::fs::read(&copy.ledger).unwrap(), owner.bytes());
            }
        }
        let published = refs(&self.remote, "refs/intent/ledgers/");
        prop_assert_eq!(published.len(), self.repos.len());
        for (name, commit) in published {
            let meta = publish::read_meta(&self.remote, &commit).unwrap();
            prop_assert_eq!(&name, &publish::ledger_ref(&meta.ledger_id));
            let bytes = published_bytes(&self.remote, &commit);
            let verdict = intent_ledger::verify_bytes(&bytes);
            prop_assert!(verdict.is_intact(), "{:?}", verdict.corruption);
            prop_assert_eq!(verdict.ledger_id.as_deref(), Some(meta.ledger_id.as_str()));
            prop_assert_eq!(verdict.last_seq, meta.seq);
            prop_assert_eq!(verdict.last_h.as_deref(), Some(meta.h.as_str()));
            prop_assert_eq!(bytes, self.repos[self.owner(&meta.ledger_id)].bytes());
        }
        Ok(())
    }
}

/// The seq of the ledger's last line.
fn last_seq(path: &Path) -> u64 {
    events(path).last().map_or(0, |(seq, _, _)| *seq)
}

/// Few cases (`PROPTEST_CASES` asks for more), and a bounded search for a smaller
/// failing one: each case runs a hundred or more git processes.
fn config(cases: u32) -> ProptestConfig {
    let asked = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok());
    ProptestConfig {
        cases: asked.unwrap_or(cases),
        max_shrink_iters: 64,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(12))]

    #[test]
    fn random_publishes_and_fetches_rebuild_every_ledger_in_every_clone(
        (clones, ops) in (2..=3usize).prop_flat_map(|n| (Just(n), ops(n)))
    ) {
        let mut team = Team::new(clones);
        for op in &ops {
            team.run(op)?;
        }
        // Twice: the first round publishes everything, the second fetches it all.
        for _ in 0..2 {
            for i in 0..clones {
                team.sync(i, true)?;
            }
        }
        team.check_converged()?;
    }
}

/// What happens to the ledger file after its last checkpoint.
#[derive(Debug, Clone)]
enum Damage {
    /// Nothing.
    None,
    /// Cut short to its first lines (to none: wiped).
    Truncate(Index),
    /// One line after the genesis changed (its `h` no longer matches).
    Tamper(Index),
    /// A line that is no ledger line inserted after the genesis.
    Garbage(Index),
    /// A copy of one of its lines inserted after the genesis (a replay).
    Replay { line: Index, at: Index },
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        Just(Damage::None),
        any::<Index>().prop_map(Damage::Truncate),
        any::<Index>().prop_map(Damage::Tamper),
        any::<Index>().prop_map(Damage::Garbage),
        (any::<Index>(), any::<Index>()).prop_map(|(line, at)| Damage::Replay { line, at }),
    ]
}

/// What restore's contract says the ledger becomes: the checkpoint's `cp` lines,
/// then every later line of the damaged file that chains on from them; a line that
/// does not is left out, and counted when it is past the checkpoint. Returns
/// the damaged bytes, the restored bytes, and the later lines kept and left out.
fn damaged_and_restored(
    lines: &[&[u8]],
    cp: usize,
    damage: &Damage,
) -> (Vec<u8>, Vec<u8>, u64, u64) {
    let total = lines.len();
    let all = lines.concat();
    let after = (total - cp) as u64;
    match damage {
        Damage::None => (all.clone(), all, after, 0),
        Damage::Truncate(at) => {
            let m = at.index(total);
            let kept = lines[..m.max(cp)].concat();
            (lines[..m].concat(), kept, m.saturating_sub(cp) as u64, 0)
        }
        // Only the genesis line: nothing to change.
        Damage::Tamper(_) if total == 1 => (all.clone(), all, 0, 0),
        Damage::Tamper(at) => {
            let m = 1 + at.index(total - 1);
            let mut damaged = lines[..m].concat();
            damaged.extend_from_slice(&tampered(lines[m]));
            damaged.extend_from_slice(&lines[m + 1..].concat());
            if m < cp {
                // A checkpointed line: the checkpoint brings it back, and the lines
                // after the checkpoint still chain on from it.
                (damaged, all, after, 0)
            } else {
                // It and every line after it stop chaining on.
                let kept = lines[..m].concat();
                (damaged, kept, (m - cp) as u64, (total - m) as u64)
            }
        }
        Damage::Garbage(at) => {
            let m = 1 + at.index(total);
            let mut damaged = lines[..m].concat();
            damaged.extend_from_slice(b"garbage\n");
            damaged.extend_from_slice(&lines[m..].concat());
            (damaged, all, after, 1)
        }
        Damage::Replay { line, at } => {
            let (r, m) = (line.index(total), 1 + at.index(total));
            let mut damaged = lines[..m].concat();
            damaged.extend_from_slice(lines[r]);
            damaged.extend_from_slice(&lines[m..].concat());
            // Whichever of the two copies does not chain on is left out; it counts
            // when it is past the checkpoint: after a line kept there, or claiming
            // a later seq. One quirk: the first event after the checkpoint, replayed
            // among the checkpointed lines, chains on from the checkpoint right
            // there, so the checkpointed lines after it count as left out too (the
            // checkpoint restores them all the same).
            let left_out = if r == cp && m < cp {
                1 + (cp - m) as u64
            } else {
                u64::from(m > cp || r >= cp)
            };
            (damaged, all, after, left_out)
        }
    }
}

proptest! {
    #![proptest_config(config(24))]

    #[test]
    fn restore_gives_back_the_checkpoint_and_what_chains_on_from_it(
        before in prop::collection::vec(0..=5usize, 1..=3),
        after in 0..=6usize,
        damage in damage(),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let mut repo = Repo::new(&dir.path().join("repo"), None, "ann@example.com");
        // Several checkpoints: the last one is several tail pieces.
        for batch in &before {
            repo.append(*batch);
            intent_sync::checkpoint(&repo.workspace).unwrap();
        }
        let cp = repo.bytes().split_inclusive(|&b| b == b'\n').count();
        repo.append(after);
        let original = repo.bytes();
        let workspace = repo.close();
        let ledger = workspace.ledger_path();

        let lines: Vec<&[u8]> = original.split_inclusive(|&b| b == b'\n').collect();
        let (damaged, expected, kept, left_out) = damaged_and_restored(&lines, cp, &damage);
        std::fs::write(&ledger, &damaged).unwrap();

        let restored = restore::restore(&workspace).unwrap();
        prop_assert_eq!(&std::fs::read(&ledger).unwrap(), &expected);
        match &restored {
            // Nothing to do only when the ledger already is what a restore makes.
            None => prop_assert_eq!(&damaged, &expected),
            Some(r) => {
                prop_assert_ne!(&damaged, &expected);
                prop_assert_eq!(r.checkpoint_seq, cp as u64);
                prop_assert_eq!((r.kept_after, r.left_out), (kept, left_out));
                prop_assert_eq!(r.seq, last_seq(&ledger));
                prop_assert!(!r.resumed);
                // The ledger as it was is kept, byte for byte (an empty one is not).
                match &r.set_aside {
                    None => prop_assert!(damaged.is_empty()),
                    Some(aside) => prop_assert_eq!(&std::fs::read(aside).unwrap(), &damaged),
                }
            }
        }
        prop_assert!(intent_ledger::verify_path(&ledger).unwrap().is_intact());
        prop_assert!(restore::restore(&workspace).unwrap().is_none(), "a second restore did something");
        let check = restore::check(&workspace).unwrap().expect("a checkpoint");
        prop_assert!(check.holds, "{:?}", check.problem);

        // A restored ledger takes appends and checkpoints again (its head was
        // rewritten with it). One merely cut short after the checkpoint is left as
        // it is, and stays refused until a person repairs it.
        if restored.is_some() || damaged == original {
            let mut ledger = workspace.open_ledger(Default::default()).unwrap();
            ledger.append(intent_ledger::NewEvent::new("test.op", "test", serde_json::json!({}))).unwrap();
            let done = intent_sync::checkpoint(&workspace).unwrap();
            prop_assert_eq!(done.seq, last_seq(&workspace.ledger_path()));
        }
    }
}

/// A clone that fetched a ledger's tail pieces follows it when
/// [`publish::MAX_PIECES`] of them are compacted into one.
#[test]
fn many_small_publishes_compact_and_fetched_copies_follow() {
    let mut team = Team::new(2);
    let pieces = |repo: &Repo| {
        let root = repo.workspace.root();
        let commit = intent_sync::git::resolve(root, &publish::ledger_ref(&repo.id())).unwrap();
        publish::read_meta(root, &commit).unwrap().pieces.len()
    };
    // One piece per publish that adds events; the other clone fetches midway.
    for n in 0..publish::MAX_PIECES {
        team.repos[0].append(1);
        if n == publish::MAX_PIECES / 2 {
            team.sync(0, true).unwrap();
            team.sync(1, true).unwrap();
        } else {
            intent_sync::checkpoint(&team.repos[0].workspace).unwrap();
        }
    }
    assert_eq!(pieces(&team.repos[0]), publish::MAX_PIECES);
    team.repos[0].append(1);
    team.sync(0, true).unwrap();
    assert_eq!(pieces(&team.repos[0]), 1);
    team.sync(1, true).unwrap();
    team.check_converged().unwrap();
}
