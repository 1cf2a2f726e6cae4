//! The workspace layout: where `.orchestration/` is, where the ledger lives, and
//! what lives beside them.
//!
//! In a git workspace the clone's ledger lives in the git common directory
//! (`<common>/intent/agent_trace.jsonl`, caches in `<common>/intent/cache/`): one
//! ledger for the main checkout and every linked worktree, never tracked, so no
//! checkout, stash, reset, clean, rebase or merge can touch it. A workspace without
//! git keeps `.orchestration/agent_trace.jsonl`. A git workspace whose ledger is
//! still in `.orchestration/` (initialized before the move) keeps using it until
//! `intent init` moves it: nothing is lost or forked by an upgrade.

mod git;

use std::path::{Path, PathBuf};

use serde_json::json;

pub use git::GitCheckout;
pub mod paths;

use crate::error::{LedgerError, Result};
use crate::event::kinds;
use crate::payload::IntentSpec;
use crate::reader::ReverseLineReader;
use crate::writer::{Ledger, LedgerOptions};

/// Name of the directory that holds everything Intent Ledger keeps in a workspace.
pub const ORCHESTRATION_DIR: &str = ".orchestration";
/// The ledger's file name.
pub const LEDGER_FILE: &str = "agent_trace.jsonl";
/// The directory under the git common directory that holds the clone's ledger.
pub const GIT_STORE_DIR: &str = "intent";

/// Where a workspace's ledger is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LedgerLocation {
    /// No git: `.orchestration/agent_trace.jsonl`.
    Orchestration,
    /// Git: `<git common dir>/intent/agent_trace.jsonl`, shared by every worktree.
    GitCommonDir,
    /// Git, but the ledger is still in `.orchestration/` (run `intent init` to move it).
    LegacyInGit,
    /// Another clone's ledger, fetched by `intent sync` (read-only).
    Fetched,
}

/// A workspace root and the paths derived from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Workspace {
    root: PathBuf,
    ledger: PathBuf,
    cache: PathBuf,
    location: LedgerLocation,
    git: Option<GitCheckout>,
    /// [`Workspace::projection_dir`], resolved once: finding it probes the disk, and
    /// a query over fifty fetched ledgers asks each several times.
    projections: ProjectionDir,
}

/// The projection directory once resolved; not part of a workspace's identity.
#[derive(Debug, Clone, Default)]
struct ProjectionDir(std::sync::OnceLock<PathBuf>);

impl PartialEq for ProjectionDir {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for ProjectionDir {}

impl Workspace {
    /// Uses `root` as the workspace root as given, finding the git checkout around it.
    pub fn at(root: impl Into<PathBuf>) -> Workspace {
        let root = root.into();
        let git = GitCheckout::find(&root);
        let orchestration = root.join(ORCHESTRATION_DIR);
        let legacy = orchestration.join(LEDGER_FILE);
        let (ledger, cache, location) = match &git {
            None => (
                legacy,
                orchestration.join(".cache"),
                LedgerLocation::Orchestration,
            ),
            Some(checkout) => {
                let store = checkout.common_dir.join(GIT_STORE_DIR);
                let ledger = store.join(LEDGER_FILE);
                if !ledger.exists() && legacy.is_file() {
                    (
                        legacy,
                        orchestration.join(".cache"),
                        LedgerLocation::LegacyInGit,
                    )
                } else {
                    (ledger, store.join("cache"), LedgerLocation::GitCommonDir)
                }
            }
        };
        Workspace {
            root,
            ledger,
            cache,
            location,
            git,
            projections: ProjectionDir::default(),
        }
    }

    /// Finds the workspace for `start`: the nearest ancestor holding `.orchestration/`,
    /// else the nearest git root, else `start` itself.
    pub fn discover(start: &Path) -> Workspace {
        let start = start.canonicalize().unwrap_or_else(|_| start.to_path_buf());
        if let Some(found) = start
            .ancestors()
            .find(|dir| dir.join(ORCHESTRATION_DIR).is_dir())
        {
            return Workspace::at(found);
        }
        if let Some(found) = start.ancestors().find(|dir| dir.join(".git").exists()) {
            return Workspace::at(found);
        }
        Workspace::at(start)
    }

    /// The same workspace (its files, its specs) seen through another clone's
    /// ledger: `ledger` is the fetched file, `cache` where its projections go.
    pub fn with_fetched_ledger(&self, ledger: PathBuf, cache: PathBuf) -> Workspace {
        Workspace {
            root: self.root.clone(),
            ledger,
            cache,
            location: LedgerLocation::Fetched,
            git: self.git.clone(),
            projections: ProjectionDir::default(),
        }
    }

    /// Returns the workspace root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Returns the git checkout the workspace is in, if any.
    pub fn git(&self) -> Option<&GitCheckout> {
        self.git.as_ref()
    }

    /// Returns where the ledger is kept.
    pub fn ledger_location(&self) -> LedgerLocation {
        self.location
    }

    /// Returns the directory of this clone's shared data in git
    /// (`<common>/intent/`), whether or not the ledger is there yet.
    pub fn git_store_dir(&self) -> Option<PathBuf> {
        self.git.as_ref().map(|g| g.common_dir.join(GIT_STORE_DIR))
    }

    /// Returns `.orchestration/`.
    pub fn orchestration_dir(&self) -> PathBuf {
        self.root.join(ORCHESTRATION_DIR)
    }

    /// Returns the ledger file.
    pub fn ledger_path(&self) -> PathBuf {
        self.ledger.clone()
    }

    /// Returns the intent specs, `.orchestration/active_intents.yaml`.
    pub fn specs_path(&self) -> PathBuf {
        self.orchestration_dir().join("active_intents.yaml")
    }

    /// Returns the cache of derived data, which can always be rebuilt
    /// (`<common>/intent/cache/` in git, else `.orchestration/.cache/`).
    pub fn cache_dir(&self) -> PathBuf {
        self.cache.clone()
    }

    /// Returns where the query projections live (lineage, search index, intent
    /// state, analyses): the cache directory, or — when a sandbox keeps it
    /// read-only for this process, as Claude Code's does for the agent's shell — a
    /// directory of this ledger under the system's temp dir, so `intent why` and
    /// `search` still answer (rebuilt from the ledger there). Hooks never use the
    /// fallback: they run outside the sandbox.
    pub fn projection_dir(&self) -> PathBuf {
        if let Some(dir) = self.projections.0.get() {
            return dir.clone();
        }
        if !self.is_initialized() {
            // Not memoized: `intent init` may come next in this process.
            return self.cache_dir();
        }
        self.projections
            .0
            .get_or_init(|| {
                let cache = self.cache_dir();
                if writable(&cache) {
                    return cache;
                }
                let key = blake3::hash(self.cache.to_string_lossy().as_bytes()).to_hex();
                std::env::temp_dir()
                    .join("intent-projections")
                    .join(&key.as_str()[..16])
            })
            .clone()
    }

    /// Returns whether `.orchestration/` exists.
    pub fn is_initialized(&self) -> bool {
        self.orchestration_dir().is_dir()
    }

    /// What every event appended here records about where it came from: the
    /// worktree and branch (git only).
    pub fn origin(&self) -> Option<serde_json::Value> {
        let git = self.git.as_ref()?;
        Some(json!({"name": git.worktree, "branch": git.branch()}))
    }

    /// Opens the ledger, failing with advice when the workspace was never initialized.
    pub fn open_ledger(&self, mut options: LedgerOptions) -> Result<Ledger> {
        if !self.is_initialized() {
            return Err(LedgerError::io(
                self.orchestration_dir(),
                std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "no .orchestration/ here; run `intent init` first or pass --workspace DIR",
                ),
            ));
        }
        if self.location == LedgerLocation::Fetched {
            return Err(LedgerError::InvalidEvent(
                "a fetched ledger is read-only: only the clone that owns it appends".into(),
            ));
        }
        if let Some(dir) = self.ledger.parent() {
            std::fs::create_dir_all(dir).map_err(|e| LedgerError::io(dir, e))?;
        }
        if options.origin.is_none() {
            options.origin = self.origin();
        }
        Ledger::open_with(self.ledger_path(), options)
    }

    /// Creates `.orchestration/` with an example spec file (never overwriting one), a
    /// `.gitignore` for derived files and the ledger's genesis line. In git, a ledger
    /// still in `.orchestration/` is moved to the common directory first (see
    /// [`migrate`]). Returns what it created or moved, as paths relative to the root.
    pub fn init(&self) -> Result<Vec<String>> {
        let mut created = Vec::new();
        let dir = self.orchestration_dir();
        if !dir.is_dir() {
            std::fs::create_dir_all(&dir).map_err(|e| LedgerError::io(&dir, e))?;
            created.push(format!("{ORCHESTRATION_DIR}/"));
        }
        let files = [
            (self.specs_path(), EXAMPLE_SPECS),
            (dir.join(".gitignore"), GITIGNORE),
        ];
        for (path, content) in files {
            if !path.exists() {
                std::fs::write(&path, content).map_err(|e| LedgerError::io(&path, e))?;
                created.push(self.relative(&path));
            }
        }
        ensure_ignored(&dir.join(".gitignore"))?;
        let workspace = match migrate::move_legacy_ledger(self)? {
            Some(moved) => {
                created.push(moved);
                Workspace::at(&self.root)
            }
            None => self.clone(),
        };
        let ledger = workspace.ledger_path();
        let ledger_existed = ledger.exists();
        workspace.open_ledger(LedgerOptions::default())?;
        if !ledger_existed {
            created.push(workspace.relative(&ledger));
        }
        Ok(created)
    }

    /// `path` relative to the root when inside it, else as is.
    pub fn relative(&self, path: &Path) -> String {
        path.strip_prefix(&self.root)
            .unwrap_or(path)
            .to_string_lossy()
            .into_owned()
    }
}

pub mod migrate;

/// Adds the ledger's own files to `.orchestration/.gitignore` when an older `init`
/// wrote it without them: nothing intent writes may show up as a change to commit.
pub fn ensure_ignored(gitignore: &Path) -> Result<()> {
    let text = std::fs::read_to_string(gitignore).unwrap_or_default();
    let missing: Vec<&str> = IGNORED
        .iter()
        .copied()
        .filter(|entry| !text.lines().any(|line| line.trim() == *entry))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    let mut text = text;
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    for entry in missing {
        text.push_str(entry);
        text.push('\n');
    }
    std::fs::write(gitignore, text).map_err(|e| LedgerError::io(gitignore, e))
}

/// What `.orchestration/.gitignore` must list.
const IGNORED: &[&str] = &[
    ".cache/",
    "agent_trace.jsonl",
    "agent_trace.head",
    "agent_trace.quarantine-*.jsonl",
    "agent_trace.jsonl.moved",
    "agent_trace.checkpoints/",
    "agent_trace.*",
    "lessons.md",
];

/// Returns seq and content hash of the newest `intent.spec` event.
pub fn latest_spec_hash(ledger: &Path) -> Result<Option<(u64, String)>> {
    let marker = format!(r#","kind":"{}","#, kinds::INTENT_SPEC);
    for line in ReverseLineReader::open(ledger)? {
        let line = line?;
        if memchr::memmem::find(&line.bytes, marker.as_bytes()).is_none() {
            continue;
        }
        let event = line.parse(ledger)?;
        if event.kind == kinds::INTENT_SPEC {
            let hash = event.payload::<IntentSpec>().map(|s| s.content_hash);
            return Ok(Some((event.seq, hash.unwrap_or_default())));
        }
    }
    Ok(None)
}

const GITIGNORE: &str = "# Derived data: rebuilt from the ledger at any time.\n.cache/\n# The ledger of a workspace without git (with git it lives in .git/intent/, shared by\n# every worktree), the record of where it ended (tamper evidence), and foreign lines\n# `intent verify --repair` set aside. Never tracked: no checkout may rewind them.\nagent_trace.jsonl\nagent_trace.head\nagent_trace.quarantine-*.jsonl\nagent_trace.jsonl.moved\n# Checkpoints of the derived state, verified against the ledger before use.\nagent_trace.checkpoints/\n# Everything else the ledger keeps beside it (markers, debris, kept copies).\nagent_trace.*\n# The newest lessons, generated from the ledgers (publish chosen ones into a tracked\n# file with `intent lessons publish`).\nlessons.md\n";

/// The example spec file `intent init` writes.
pub const EXAMPLE_SPECS: &str = r#"# Intent specs: the requirements agents may work under.
#
# An agent must select one of these (e.g. `INT-001`) before it may change files,
# and may only change files matching that intent's `owned_scope`.
# Statuses: DRAFT -> IN_PROGRESS -> DONE | BLOCKED (PENDING/COMPLETED/ABORTED also accepted).
# Check this file with `intent validate`.
active_intents:
  - id: INT-001
    name: Example feature
    description: Replace this with what the agent should build, and why.
    status: IN_PROGRESS
    owner: you@example.com
    owned_scope:
      - "src/**"
      - "tests/**"
    constraints:
      - Keep the public API backwards compatible.
    acceptance_criteria:
      - All tests pass.
    dependencies: []
"#;

/// Whether files can be created in `dir` (creating it if needed): a read-only
/// mount or permissions say no.
fn writable(dir: &Path) -> bool {
    let probe = || {
        std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(dir.join(".writable"))
            .is_ok()
    };
    // The directory usually exists: one open answers.
    probe() || (std::fs::create_dir_all(dir).is_ok() && probe())
}
