//! Clones made with real git for the tests: a bare remote, repositories that each
//! hold a ledger, and what their published refs hold.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use intent_ledger::{Durability, Ledger, LedgerOptions, NewEvent, Workspace};
use intent_sync::{git, publish};

/// The kind of every event the tests append.
pub const KIND: &str = "test.op";

/// Keeps git away from the machine's configuration: no system config, and a home
/// of its own (so no global config). Set for the whole process, because the
/// library under test starts git itself and passes its environment on.
fn hermetic() {
    static HOME: OnceLock<PathBuf> = OnceLock::new();
    HOME.get_or_init(|| {
        let home = Path::new(env!("CARGO_TARGET_TMPDIR")).join("intent-sync-home");
        std::fs::create_dir_all(&home).unwrap();
        std::env::set_var("HOME", &home);
        std::env::set_var("GIT_CONFIG_NOSYSTEM", "1");
        std::env::remove_var("XDG_CONFIG_HOME");
        std::env::remove_var("GIT_CONFIG_GLOBAL");
        home
    });
}

/// Runs `git args…` in `dir`, failing the test when git fails.
pub fn run_git(dir: &Path, args: &[&str]) {
    hermetic();
    intent_test_support::git::run(dir, args);
}

/// A repository with a ledger (the genesis line only, at first).
pub struct Repo {
    /// The workspace (the repository's top level).
    pub workspace: Workspace,
    ledger: Ledger,
    /// Events appended by the test.
    pub appended: u64,
}

impl Repo {
    /// `git init`s `root` (or clones `remote` there) and opens its ledger.
    pub fn new(root: &Path, remote: Option<&Path>, email: &str) -> Repo {
        let parent = root.parent().unwrap();
        match remote {
            None => run_git(parent, &["init", "-q", root.to_str().unwrap()]),
            Some(remote) => run_git(
                parent,
                &[
                    "clone",
                    "-q",
                    remote.to_str().unwrap(),
                    root.to_str().unwrap(),
                ],
            ),
        }
        run_git(root, &["config", "user.email", email]);
        run_git(root, &["config", "user.name", email]);
        let workspace = Workspace::at(root.canonicalize().unwrap());
        workspace.init().unwrap();
        let ledger = workspace
            .open_ledger(LedgerOptions {
                durability: Durability::Never,
                ..LedgerOptions::default()
            })
            .unwrap();
        Repo {
            workspace,
            ledger,
            appended: 0,
        }
    }

    /// Appends `count` events as one group commit.
    pub fn append(&mut self, count: usize) {
        let events = (0..count)
            .map(|_| {
                self.appended += 1;
                let data = serde_json::json!({"n": self.appended, "pad": "xxxxxxxx"});
                NewEvent::new(KIND, "test", data)
            })
            .collect();
        self.ledger.append_batch(events).unwrap();
    }

    /// The ledger file.
    pub fn ledger_path(&self) -> PathBuf {
        self.workspace.ledger_path()
    }

    /// The ledger's bytes.
    pub fn bytes(&self) -> Vec<u8> {
        std::fs::read(self.ledger_path()).unwrap()
    }

    /// The ledger id.
    pub fn id(&self) -> String {
        publish::ledger_id_of(&self.ledger_path()).unwrap()
    }

    /// Closes the ledger's handle (before the test changes the file behind it).
    pub fn close(self) -> Workspace {
        self.workspace
    }
}

/// `(seq, id, h)` of every event of the ledger at `path`, in order.
pub fn events(path: &Path) -> Vec<(u64, String, String)> {
    intent_ledger::read_events(path)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (e.seq, e.id, e.h)
        })
        .collect()
}

/// How many events of [`KIND`] the ledger at `path` holds.
pub fn appended_in(path: &Path) -> u64 {
    intent_ledger::read_events(path)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().kind == KIND)
        .count() as u64
}

/// The ledger bytes a published commit holds, its parts read and joined in order.
pub fn published_bytes(dir: &Path, commit: &str) -> Vec<u8> {
    let parts = publish::ordered_parts(&git::tree_files(dir, commit).unwrap());
    let oids: Vec<String> = parts.iter().map(|(_, oid)| oid.clone()).collect();
    let blobs = git::blobs(dir, &oids).unwrap();
    parts
        .iter()
        .zip(blobs)
        .flat_map(|((name, _), blob)| publish::decode_part(name, blob).unwrap())
        .collect()
}

/// Every ref under `prefix` in the repository at `dir`: `(name, commit)`.
pub fn refs(dir: &Path, prefix: &str) -> Vec<(String, String)> {
    let text = git::run(
        dir,
        &["for-each-ref", "--format=%(refname) %(objectname)", prefix],
    )
    .unwrap();
    text.lines()
        .map(|l| {
            let (name, commit) = l.split_once(' ').unwrap();
            (name.to_string(), commit.to_string())
        })
        .collect()
}

/// `line` with other bytes in its data; same seq, `prev` and `h` fields.
pub fn tampered(line: &[u8]) -> Vec<u8> {
    let text = std::str::from_utf8(line).unwrap();
    assert!(text.contains("\"pad\":\"xxxxxxxx\""), "{text}");
    text.replacen("\"pad\":\"xxxxxxxx\"", "\"pad\":\"xxxxxxxy\"", 1)
        .into_bytes()
}
