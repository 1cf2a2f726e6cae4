//! The workspace layout: where `.orchestration/` is and what lives in it.

use std::path::{Path, PathBuf};

use serde_json::json;

use crate::error::{LedgerError, Result};
use crate::event::{kinds, NewEvent};
use crate::reader::ReverseLineReader;
use crate::spec::SpecDocument;
use crate::writer::{Appended, Ledger, LedgerOptions};

/// Name of the directory that holds everything Intent Ledger keeps in a workspace.
pub const ORCHESTRATION_DIR: &str = ".orchestration";

/// A workspace root and the paths derived from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Workspace {
    root: PathBuf,
}

impl Workspace {
    /// Uses `root` as the workspace root as given.
    pub fn at(root: impl Into<PathBuf>) -> Workspace {
        Workspace { root: root.into() }
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

    /// Returns the workspace root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Returns `.orchestration/`.
    pub fn orchestration_dir(&self) -> PathBuf {
        self.root.join(ORCHESTRATION_DIR)
    }

    /// Returns the ledger, `.orchestration/agent_trace.jsonl`.
    pub fn ledger_path(&self) -> PathBuf {
        self.orchestration_dir().join("agent_trace.jsonl")
    }

    /// Returns the intent specs, `.orchestration/active_intents.yaml`.
    pub fn specs_path(&self) -> PathBuf {
        self.orchestration_dir().join("active_intents.yaml")
    }

    /// Returns `.orchestration/.cache/`, derived data that can always be rebuilt.
    pub fn cache_dir(&self) -> PathBuf {
        self.orchestration_dir().join(".cache")
    }

    /// Returns where the query projections live (lineage, search index, intent
    /// state, analyses): `.orchestration/.cache/`, or — when a sandbox keeps
    /// `.orchestration/` read-only for this process, as Claude Code's does for the
    /// agent's shell — a directory of this workspace under the system's temp dir,
    /// so `intent why` and `search` still answer (rebuilt from the ledger there).
    /// Hooks never use the fallback: they run outside the sandbox.
    pub fn projection_dir(&self) -> PathBuf {
        let cache = self.cache_dir();
        if !self.is_initialized() || writable(&cache) {
            return cache;
        }
        let key = blake3::hash(self.root.to_string_lossy().as_bytes()).to_hex();
        std::env::temp_dir()
            .join("intent-projections")
            .join(&key.as_str()[..16])
    }

    /// Returns whether `.orchestration/` exists.
    pub fn is_initialized(&self) -> bool {
        self.orchestration_dir().is_dir()
    }

    /// Opens the ledger, failing with advice when the workspace was never initialized.
    pub fn open_ledger(&self, options: LedgerOptions) -> Result<Ledger> {
        if !self.is_initialized() {
            return Err(LedgerError::io(
                self.orchestration_dir(),
                std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "no .orchestration/ here; run `intent init` first or pass --workspace DIR",
                ),
            ));
        }
        Ledger::open_with(self.ledger_path(), options)
    }

    /// Creates `.orchestration/` with an example spec file (never overwriting one), a
    /// `.gitignore` for derived files and the ledger's genesis line. Returns what it
    /// created, as paths relative to the root.
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
        let ledger_existed = self.ledger_path().exists();
        Ledger::open(self.ledger_path())?;
        if !ledger_existed {
            created.push(self.relative(&self.ledger_path()));
        }
        Ok(created)
    }

    fn relative(&self, path: &Path) -> String {
        path.strip_prefix(&self.root)
            .unwrap_or(path)
            .to_string_lossy()
            .into_owned()
    }
}

/// Outcome of [`record_spec_snapshot`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpecSnapshot {
    /// The ledger already holds a snapshot with this content hash.
    Unchanged {
        /// Seq of that snapshot.
        seq: u64,
    },
    /// A new `intent.spec` event was appended.
    Recorded(Appended),
}

/// Appends an `intent.spec` snapshot of `doc` unless the latest snapshot in the
/// ledger has the same content hash, so that intent state is a function of the
/// ledger alone.
///
/// The latest snapshot is found by reading the ledger newest first; it is usually
/// near the end.
pub fn record_spec_snapshot(
    ledger: &mut Ledger,
    doc: &SpecDocument,
    source: &str,
) -> Result<SpecSnapshot> {
    if let Some((seq, hash)) = latest_spec_hash(ledger.path())? {
        if hash == doc.content_hash {
            return Ok(SpecSnapshot::Unchanged { seq });
        }
    }
    let event = NewEvent::new(
        kinds::INTENT_SPEC,
        source,
        json!({
            "path": format!("{ORCHESTRATION_DIR}/active_intents.yaml"),
            "content_hash": doc.content_hash,
            "intents": doc.file.active_intents.len(),
            "spec": doc.to_json(),
        }),
    );
    Ok(SpecSnapshot::Recorded(ledger.append(event)?))
}

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
            let hash = event.data["content_hash"].as_str().unwrap_or_default();
            return Ok(Some((event.seq, hash.to_string())));
        }
    }
    Ok(None)
}

const GITIGNORE: &str = "# Derived data: rebuilt from agent_trace.jsonl at any time.\n.cache/\n# This clone's record of where its ledger ended (tamper evidence), and foreign\n# lines `intent verify --repair` set aside.\nagent_trace.head\nagent_trace.quarantine-*.jsonl\n";

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
    if std::fs::create_dir_all(dir).is_err() {
        return false;
    }
    let probe = dir.join(".writable");
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(probe)
        .is_ok()
}
