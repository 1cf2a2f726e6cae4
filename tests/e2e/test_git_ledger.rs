//! The ledger lives with git (in the git common directory): real git operations with
//! agent work in flight lose no event and never fail because of Intent Ledger; an
//! old tracked ledger is moved there whole; worktrees share one ledger; history
//! rewrites (squash, rebase, cherry-pick, amend) keep `why`'s answers.

use crate::gitrepo::{git, git_output, history_intents, Checkout};

const V2: &str = "export function start(): number {\n  return 2;\n}\n";
const V3: &str = "export function start(): number {\n  const base = 2;\n  return base + 1;\n}\n";

fn seqs(c: &Checkout) -> Vec<u64> {
    c.events().iter().map(|e| e.seq).collect()
}

#[test]
fn the_ledger_is_in_the_git_common_dir_and_nothing_tracked_changes() {
    let dir = tempfile::tempdir().unwrap();
    let repo = Checkout::create(&dir.path().join("repo"));
    assert!(repo.root.join(".git/intent/agent_trace.jsonl").is_file());
    assert!(!repo.root.join(".orchestration/agent_trace.jsonl").exists());
    repo.select("s1");
    repo.agent_write("s1", "src/app.ts", V2, "w1");
    repo.stop("s1");
    // The agent's own change is the only modified tracked file: nothing intent wrote.
    assert_eq!(repo.tracked_changes(), "M src/app.ts");
    let untracked = git(&repo.root, &["status", "--porcelain"]);
    assert!(
        !untracked.contains(".orchestration/"),
        "intent left files to commit: {untracked}"
    );
    let doctor = repo.intent_ok(&["doctor"]);
    assert!(doctor.contains(".git/intent/agent_trace.jsonl"), "{doctor}");
    let verify = repo.intent_ok(&["verify"]);
    assert!(verify.contains("Ledger intact"), "{verify}");
    assert!(verify.contains("checkpoint"), "{verify}");
    let trace = repo
        .events()
        .into_iter()
        .find(|e| e.kind == "trace")
        .unwrap();
    assert_eq!(trace.data["worktree"]["name"], "main");
    assert_eq!(trace.data["worktree"]["branch"], "main");
}

#[test]
fn stash_switch_reset_clean_and_rebase_lose_no_event() {
    let dir = tempfile::tempdir().unwrap();
    let repo = Checkout::create(&dir.path().join("repo"));
    let root = &repo.root;
    git(root, &["switch", "-qc", "feature"]);
    repo.select("s1");
    repo.agent_write("s1", "src/app.ts", V2, "w1");
    let mut before = seqs(&repo);

    let mut check = |what: &str, repo: &Checkout| {
        let now = seqs(repo);
        assert!(
            now.len() >= before.len() && now[..before.len()] == before[..],
            "{what} lost events: {} before, {} after",
            before.len(),
            now.len()
        );
        assert!(
            repo.intent_ok(&["verify"]).contains("Ledger intact"),
            "after {what}"
        );
        before = now;
    };

    git(root, &["stash", "-q"]);
    check("git stash", &repo);
    git(root, &["switch", "-q", "main"]);
    check("git switch", &repo);
    // The switch changed the file under the session: the gate wants it re-read.
    repo.agent_read("s1", "src/app.ts", "r1");
    repo.agent_write("s1", "src/app.ts", V3, "w2");
    git(root, &["reset", "-q", "--hard"]);
    check("git reset --hard", &repo);
    std::fs::write(root.join("src/scratch.ts"), "export const x = 1;\n").unwrap();
    git(root, &["clean", "-qfdx"]);
    assert!(repo.ledger().is_file(), "git clean -fdx removed the ledger");
    check("git clean -fdx", &repo);
    git(root, &["switch", "-q", "feature"]);
    git(root, &["stash", "pop", "-q"]);
    git(root, &["commit", "-qam", "feature work"]);
    repo.agent_read("s1", "src/app.ts", "r2");
    repo.agent_write("s1", "src/app.ts", V3, "w3");
    git(root, &["commit", "-qam", "more feature work"]);
    git(root, &["switch", "-q", "main"]);
    std::fs::write(root.join("README.md"), "main moves on\n").unwrap();
    git(root, &["add", "README.md"]);
    git(root, &["commit", "-qm", "main work"]);
    git(root, &["switch", "-q", "feature"]);
    git(root, &["rebase", "-q", "main"]);
    check("git rebase", &repo);
    git(root, &["switch", "-q", "main"]);
    git(root, &["merge", "-q", "--no-edit", "feature"]);
    check("git merge", &repo);
    // Every write is still there, in order, and the hooks kept working throughout.
    let traces = repo.events().iter().filter(|e| e.kind == "trace").count();
    assert_eq!(traces, 3);
    let branches: Vec<String> = repo
        .events()
        .iter()
        .filter(|e| e.kind == "trace")
        .map(|e| e.data["worktree"]["branch"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(branches, ["feature", "main", "feature"]);
}

#[test]
fn init_moves_a_tracked_ledger_into_git_keeping_every_event() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("repo");
    std::fs::create_dir_all(root.join("src")).unwrap();
    // A workspace from before: initialized without git, ledger in .orchestration/.
    let old = Checkout::at(&root);
    old.init();
    std::fs::write(root.join(".orchestration/.gitignore"), ".cache/\n").unwrap();
    std::fs::write(root.join("src/app.ts"), V2).unwrap();
    old.select("s1");
    old.agent_write("s1", "src/app.ts", V3, "w1");
    let legacy = root.join(".orchestration/agent_trace.jsonl");
    let bytes = std::fs::read(&legacy).unwrap();
    // Then the team put it in git, ledger and all.
    git(&root, &["init", "-q"]);
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-qm", "with a tracked ledger"]);
    assert_eq!(
        old.ledger(),
        legacy,
        "until init moves it, the old place is used"
    );
    old.agent_write("s1", "src/app.ts", V2, "w2");
    let bytes_before_move = std::fs::read(&legacy).unwrap();
    assert!(bytes_before_move.starts_with(&bytes));

    let out = old.intent_ok(&["init"]);
    assert!(out.contains("agent_trace.jsonl ->"), "{out}");
    let moved = root.join(".git/intent/agent_trace.jsonl");
    assert_eq!(old.ledger(), moved);
    assert_eq!(
        std::fs::read(&moved).unwrap(),
        bytes_before_move,
        "every byte kept"
    );
    assert!(old.intent_ok(&["verify"]).contains("Ledger intact"));
    let tracked = git(&root, &["ls-files", ".orchestration"]);
    assert!(
        !tracked.contains("agent_trace.jsonl"),
        "still tracked: {tracked}"
    );
    // Appends continue the same chain, and the head record came along.
    old.agent_write("s1", "src/app.ts", V3, "w3");
    assert!(old.intent_ok(&["verify"]).contains("Ledger intact"));
    let gitignore = std::fs::read_to_string(root.join(".orchestration/.gitignore")).unwrap();
    assert!(gitignore.lines().any(|l| l == "agent_trace.jsonl"));
    // Running init again changes nothing.
    let again = old.intent_ok(&["init"]);
    assert!(!again.contains("->"), "{again}");
}

#[test]
fn three_worktrees_at_once_write_one_verifying_ledger() {
    let dir = tempfile::tempdir().unwrap();
    let main = Checkout::create(&dir.path().join("main"));
    let mut trees = vec![main.clone()];
    for name in ["wt-a", "wt-b"] {
        let path = dir.path().join(name);
        git(
            &main.root,
            &["worktree", "add", "-q", "-b", name, path.to_str().unwrap()],
        );
        // The spec file is committed; the worktree sees its branch's copy.
        trees.push(Checkout::at(&path));
    }
    for tree in &trees {
        assert_eq!(
            tree.ledger(),
            main.ledger(),
            "one ledger for every worktree"
        );
    }
    let handles: Vec<_> = trees
        .iter()
        .enumerate()
        .map(|(i, tree)| {
            let tree = tree.clone();
            std::thread::spawn(move || {
                let session = format!("agent-{i}");
                tree.select(&session);
                for n in 0..6 {
                    let body = format!(
                        "export function start(): number {{\n  return {};\n}}\n",
                        i * 100 + n
                    );
                    tree.agent_write(&session, "src/app.ts", &body, &format!("w{i}-{n}"));
                }
                tree.stop(&session);
            })
        })
        .collect();
    for handle in handles {
        handle.join().unwrap();
    }
    assert!(main.intent_ok(&["verify"]).contains("Ledger intact"));
    let events = main.events();
    let mut per_tree = std::collections::BTreeMap::new();
    for e in events.iter().filter(|e| e.kind == "trace") {
        *per_tree
            .entry(e.data["worktree"]["name"].as_str().unwrap().to_string())
            .or_insert(0) += 1;
    }
    assert_eq!(
        per_tree.into_iter().collect::<Vec<_>>(),
        [("main".into(), 6), ("wt-a".into(), 6), ("wt-b".into(), 6)]
    );
    // Each worktree's hooks were answered by that worktree's own resident helper
    // (keyed by its root), all three writing the one shared ledger.
    let status = |tree: &Checkout| -> serde_json::Value {
        serde_json::from_str(&tree.intent_ok(&["--json", "helper", "status"])).unwrap()
    };
    let mut pids = std::collections::BTreeSet::new();
    for (i, tree) in trees.iter().enumerate() {
        // The first hook started it in the background: wait until it listens, then
        // one more hook is certain to be answered by it.
        let started = std::time::Instant::now();
        while status(tree)["running"] != true {
            assert!(
                started.elapsed().as_secs() < 20,
                "no helper in worktree {i}"
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        tree.agent_read(&format!("agent-{i}"), "src/app.ts", &format!("r{i}"));
        let status = status(tree);
        assert!(status["helper"]["served"].as_u64().unwrap() > 0, "{status}");
        pids.insert(status["helper"]["pid"].as_u64().unwrap());
    }
    assert_eq!(pids.len(), 3, "one helper per worktree");
    // `why` answers from every worktree, each for its own file.
    for tree in &trees {
        let answer = tree.why("src/app.ts:2");
        assert_eq!(
            history_intents(&answer).last().map(String::as_str),
            Some("INT-001")
        );
        assert!(tree.tracked_changes() == "M src/app.ts");
        tree.intent_ok(&["helper", "stop"]);
    }
}

/// Writes V2 under INT-001 on branch `side` and commits it there.
fn side_branch_with_agent_change(repo: &Checkout) {
    git(&repo.root, &["switch", "-qc", "side"]);
    repo.select("s1");
    repo.agent_write("s1", "src/app.ts", V3, "w1");
    git(&repo.root, &["commit", "-qam", "agent change"]);
    git(&repo.root, &["switch", "-q", "main"]);
}

fn assert_why_names_int001(repo: &Checkout, how: &str) {
    let answer = repo.why("src/app.ts:3");
    assert_eq!(
        history_intents(&answer),
        ["INT-001"],
        "after {how}: {answer:#}"
    );
    assert_eq!(answer["outside_ledger"], false, "after {how}: {answer:#}");
}

#[test]
fn squash_rebase_cherry_pick_and_amend_keep_why() {
    let dir = tempfile::tempdir().unwrap();
    for how in ["squash", "rebase", "cherry-pick", "amend"] {
        let repo = Checkout::create(&dir.path().join(how));
        side_branch_with_agent_change(&repo);
        let root = &repo.root;
        // main moves on meanwhile, so rebases and picks make new commits.
        std::fs::write(root.join("README.md"), "docs\n").unwrap();
        git(root, &["add", "README.md"]);
        git(root, &["commit", "-qm", "docs"]);
        match how {
            "squash" => {
                git(root, &["merge", "-q", "--squash", "side"]);
                git(root, &["commit", "-qm", "squashed"]);
            }
            "rebase" => {
                git(root, &["switch", "-q", "side"]);
                git(root, &["rebase", "-q", "main"]);
            }
            "cherry-pick" => {
                git(root, &["cherry-pick", "side"]);
            }
            "amend" => {
                git(root, &["switch", "-q", "side"]);
                git(root, &["commit", "-q", "--amend", "-m", "reworded"]);
            }
            _ => unreachable!(),
        }
        let out = git_output(root, &["status", "--porcelain", "--untracked-files=no"]);
        assert!(out.stdout.is_empty(), "{how} left changes");
        assert_why_names_int001(&repo, how);
    }
}

#[test]
fn parallel_worktrees_are_warned_both_ways_when_they_change_one_block_differently() {
    let dir = tempfile::tempdir().unwrap();
    let main = Checkout::create(&dir.path().join("main"));
    let wt_path = dir.path().join("wt-a");
    git(
        &main.root,
        &[
            "worktree",
            "add",
            "-q",
            "-b",
            "feature-a",
            wt_path.to_str().unwrap(),
        ],
    );
    let wt = Checkout::at(&wt_path);
    wt.select("agent-a");
    main.select("agent-m");
    // Agent A changes start() in its worktree; nobody else touched it: no warning.
    let first = wt.agent_write("agent-a", "src/app.ts", V2, "a1");
    assert!(!first.to_string().contains("Collision"), "{first}");
    // Agent M changes the same function differently on main: warned at once.
    let second = main.agent_write("agent-m", "src/app.ts", V3, "m1");
    let told = second.to_string();
    assert!(told.contains("Collision in src/app.ts"), "{second}");
    assert!(
        told.contains("agent-a") && told.contains("wt-a"),
        "{second}"
    );
    assert!(told.contains("feature-a"), "{second}");
    let trace = main
        .events()
        .into_iter()
        .rev()
        .find(|e| e.kind == "trace")
        .unwrap();
    assert_eq!(trace.data["collisions"][0]["session"], "agent-a");
    // And agent A hears of it at its next tool call, once.
    let next = wt.agent_read("agent-a", "src/app.ts", "a2");
    assert!(
        next.to_string()
            .contains("session agent-m in worktree main"),
        "{next}"
    );
    let after = wt.agent_read("agent-a", "src/app.ts", "a3");
    assert!(
        !after.to_string().contains("agent-m"),
        "told twice: {after}"
    );

    // Once A's change is merged into main, building on it collides with nothing.
    git(&wt.root, &["commit", "-qam", "a's change"]);
    git(&main.root, &["checkout", "-q", "--", "src/app.ts"]);
    git(&main.root, &["merge", "-q", "feature-a"]);
    wt.agent_write("agent-a", "src/app.ts", V3, "a4");
    git(&wt.root, &["commit", "-qam", "a's second change"]);
    git(&main.root, &["merge", "-q", "feature-a"]);
    main.agent_read("agent-m", "src/app.ts", "m2");
    let merged = main.agent_write("agent-m", "src/app.ts", V2, "m3");
    assert!(!merged.to_string().contains("Collision"), "{merged}");
}
