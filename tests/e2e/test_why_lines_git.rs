//! Line-level answers where git moves files under the ledger: a branch switch and a
//! `reset --hard` change a Ruby file behind the hooks' back, and a teammate's
//! clone answers for lines the other clone's agent wrote (`intent sync`).

use crate::gitrepo::git;
use crate::test_git_sync::{sync, two_clones};

const V1: &str = "def greet(name)\n  \"Hello, #{name}!\"\nend\n";
const V2: &str =
    "def greet(name)\n  \"Hello, #{name}!\"\nend\n\ndef bye(name)\n  \"Bye, #{name}.\"\nend\n";
const OTHER: &str = "def greet(name)\n  \"Hi there, #{name}!\"\nend\n";

#[test]
fn branches_resets_and_a_teammates_clone_keep_line_answers_honest() {
    let (_dir, _remote, alice, bob) = two_clones();
    alice.select("a1");
    alice.agent_write("a1", "src/greet.rb", V1, "w1");
    git(&alice.root, &["add", "-A"]);
    git(&alice.root, &["commit", "-qm", "greet"]);
    alice.agent_write("a1", "src/greet.rb", V2, "w2");
    git(&alice.root, &["commit", "-qam", "bye"]);

    let answer = alice.why("src/greet.rb:6");
    assert_eq!(answer["level"], "line", "{answer:#}");
    assert_eq!(answer["outside_ledger"], false, "{answer:#}");
    let seq_w2 = answer["last_touched"]["seq"].clone();

    // A branch where a person changed the greeting: checked out, the line is not
    // the ledger's; the unchanged `def` line still is.
    git(&alice.root, &["checkout", "-q", "-b", "other", "HEAD~1"]);
    std::fs::write(alice.root.join("src/greet.rb"), OTHER).unwrap();
    git(&alice.root, &["commit", "-qam", "a person's greeting"]);
    let changed = alice.why("src/greet.rb:2");
    assert_eq!(changed["outside_ledger"], true, "{changed:#}");
    let kept = alice.why("src/greet.rb:1");
    assert_eq!(kept["outside_ledger"], false, "{kept:#}");
    // Back on main, and after a reset --hard, the agent's lines answer again.
    git(&alice.root, &["checkout", "-q", "main"]);
    git(&alice.root, &["reset", "-q", "--hard", "HEAD"]);
    let back = alice.why("src/greet.rb:6");
    assert_eq!(back["outside_ledger"], false, "{back:#}");
    assert_eq!(back["last_touched"]["seq"], seq_w2, "{back:#}");

    // Bob pulls Alice's code and ledger: his `why` names her write, from her ledger.
    git(&alice.root, &["push", "-q", "origin", "main"]);
    sync(&alice);
    git(&bob.root, &["pull", "-q", "origin", "main"]);
    sync(&bob);
    let theirs = bob.why("src/greet.rb:6");
    assert_eq!(theirs["level"], "line", "{theirs:#}");
    assert_eq!(theirs["outside_ledger"], false, "{theirs:#}");
    let last = &theirs["last_touched"];
    assert_eq!(last["intent_id"], "INT-001", "{theirs:#}");
    assert!(
        last["ledger"].as_str().is_some(),
        "from Alice's ledger: {theirs:#}"
    );
}
