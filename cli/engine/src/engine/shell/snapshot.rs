//! A stat snapshot of the workspace: every file's size, times, inode and mode,
//! found by a parallel walk that honours no ignore rule, so ignored and hidden files
//! are seen too.
//!
//! What the walk leaves out, and why: every directory named `.git` (object stores
//! and indexes churn on every git command; the repository's configuration and hooks
//! are watched separately, see [`git_internals`]), and Intent Ledger's own derived
//! files, which hooks rewrite while commands run (`.orchestration/.cache/`, the
//! markers of hooks at work and of unrecorded calls, checkpoints of the state, and
//! the ledger's head, debris, corruption marker and quarantined lines, and the lessons
//! file generated from the ledger). The ledger itself is walked: the caller checks that
//! it only grew.
//!
//! The walk stops after [`MAX_ENTRIES`] entries and says so. A comparison against a
//! truncated snapshot stays sound: a path missing from one side is looked up
//! directly, and a file the baseline never saw counts as new only when its status
//! change time is later than the baseline walk.

use std::io::Read as _;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime};

use ignore::{DirEntry, ParallelVisitor, ParallelVisitorBuilder, WalkBuilder, WalkState};

/// Most entries (files and directories) one walk visits.
pub const MAX_ENTRIES: usize = 200_000;

/// Entries under `.orchestration/` that hooks write themselves and no check needs.
const OWN_FILES: &[&str] = &[
    ".orchestration/agent_trace.head",
    ".orchestration/agent_trace.unrecorded.jsonl",
    ".orchestration/agent_trace.jsonl.debris",
    ".orchestration/agent_trace.jsonl.corrupt",
    // Generated from the ledgers whenever a lesson is recorded (`lessons::FILE`).
    ".orchestration/lessons.md",
];

/// Directories beside a ledger in `.orchestration/` that hooks write while a
/// command runs: the cache, markers of hooks at work, checkpoints of the state.
const OWN_DIRS: &[&str] = &[
    ".orchestration/.cache",
    ".orchestration/agent_trace.inflight",
    ".orchestration/agent_trace.checkpoints",
];

/// What a file looked like, as far as `lstat` tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stat {
    /// Size in bytes.
    pub size: u64,
    /// Modification time, ns since the epoch.
    pub mtime_ns: i64,
    /// Status change time, ns since the epoch (no tool can set it back).
    pub ctime_ns: i64,
    /// Inode number.
    pub ino: u64,
    /// Type and permission bits.
    pub mode: u32,
}

impl Stat {
    fn of(meta: &std::fs::Metadata) -> Stat {
        Stat {
            size: meta.size(),
            mtime_ns: meta.mtime() * 1_000_000_000 + meta.mtime_nsec(),
            ctime_ns: meta.ctime() * 1_000_000_000 + meta.ctime_nsec(),
            ino: meta.ino(),
            mode: meta.mode(),
        }
    }

    /// `lstat` of `path`; `None` when it is gone.
    pub fn read(path: &Path) -> Option<Stat> {
        std::fs::symlink_metadata(path).ok().map(|m| Stat::of(&m))
    }

    /// Whether this is a directory.
    pub fn is_dir(&self) -> bool {
        self.mode & 0o170000 == 0o040000
    }

    /// Whether this is a symbolic link.
    pub fn is_symlink(&self) -> bool {
        self.mode & 0o170000 == 0o120000
    }
}

/// The workspace's files at one moment, sorted by path.
#[derive(Debug, Clone, Default)]
pub struct Snapshot {
    /// Workspace-relative paths (`/`-separated) and their stats, sorted by path.
    pub entries: Vec<(String, Stat)>,
    /// Whether the walk stopped at [`MAX_ENTRIES`].
    pub truncated: bool,
    /// Wall clock when the walk started, ns since the epoch.
    pub started_ns: i64,
    /// Entries visited (directories included).
    pub walked: usize,
    /// How long the walk took.
    pub elapsed: Duration,
}

/// Coarse kernel clocks may stamp a change up to a tick before the wall clock
/// reading that preceded it.
const SLACK_NS: i64 = 50_000_000;

impl Snapshot {
    /// Whether a file with this stat may have changed again since without its stat
    /// showing it: its last change falls within a clock tick of the walk (git's
    /// "racily clean" entries). Such files are hashed for the baseline.
    pub fn racy(&self, stat: &Stat) -> bool {
        stat.ctime_ns.max(stat.mtime_ns) >= self.started_ns - SLACK_NS
    }
}

/// Whether the walk skips this workspace-relative path (and everything below it).
fn skipped(rel: &str, name: &[u8]) -> bool {
    name == b".git" || OWN_DIRS.contains(&rel) || own_file(rel)
}

/// Whether `rel` is one of the files hooks write for themselves.
pub fn own_file(rel: &str) -> bool {
    OWN_FILES.contains(&rel)
        || rel
            .strip_prefix(".orchestration/agent_trace.quarantine-")
            .is_some_and(|rest| !rest.contains('/'))
}

/// Walks `root` (see the module docs for what is left out) and, when `git_dir` is
/// given, the repository's configuration and hooks (labelled `.git/…`).
pub fn take(root: &Path, git_dir: Option<&Path>, cap: usize) -> Snapshot {
    let started = Instant::now();
    let started_ns = now_ns();
    let shared = Mutex::new(Vec::new());
    let count = AtomicUsize::new(0);
    let truncated = AtomicBool::new(false);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(8));
    let filter_root = root.to_path_buf();
    let mut builder = WalkBuilder::new(root);
    builder
        .standard_filters(false)
        .follow_links(false)
        .threads(threads)
        .filter_entry(move |entry| {
            let rel = relative(&filter_root, entry.path()).unwrap_or_default();
            !skipped(&rel, entry.file_name().as_encoded_bytes())
        });
    let mut collect = Collect {
        root,
        shared: &shared,
        count: &count,
        truncated: &truncated,
        cap,
    };
    builder.build_parallel().visit(&mut collect);
    let mut entries = shared.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(git_dir) = git_dir {
        git_internals(git_dir, &mut entries);
    }
    entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    entries.dedup_by(|a, b| a.0 == b.0);
    Snapshot {
        entries,
        truncated: truncated.load(Ordering::Relaxed),
        started_ns,
        walked: count.load(Ordering::Relaxed),
        elapsed: started.elapsed(),
    }
}

/// The parts of a git directory whose change is a protected change: `config`,
/// `hooks/`, `info/attributes`, `info/exclude`, `info/sparse-checkout` and the
/// ledger in `intent/`,
/// labelled `.git/…`. Objects, refs, logs, the index and `info/refs` change on every
/// commit or background `git gc` and are not looked at.
pub fn git_internals(git_dir: &Path, out: &mut Vec<(String, Stat)>) {
    fn walk(dir: &Path, label: &str, depth: usize, out: &mut Vec<(String, Stat)>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten().take(1000) {
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            let Some(stat) = Stat::read(&entry.path()) else {
                continue;
            };
            let rel = format!("{label}/{name}");
            if stat.is_dir() {
                if depth < 4 {
                    walk(&entry.path(), &rel, depth + 1, out);
                }
            } else {
                out.push((rel, stat));
            }
        }
    }
    for file in [
        "config",
        "info/attributes",
        "info/exclude",
        "info/sparse-checkout",
        // The clone's ledger (see `Workspace`): the caller checks that it only grew.
        "intent/agent_trace.jsonl",
    ] {
        if let Some(stat) = Stat::read(&git_dir.join(file)) {
            out.push((format!(".git/{file}"), stat));
        }
    }
    walk(&git_dir.join("hooks"), ".git/hooks", 0, out);
}

/// The absolute path a snapshot path stands for (`.git/…` maps into `git_dir`).
pub fn absolute(root: &Path, git_dir: Option<&Path>, rel: &str) -> PathBuf {
    match (rel.strip_prefix(".git/"), git_dir) {
        (Some(inside), Some(git_dir)) => git_dir.join(inside),
        _ => root.join(rel),
    }
}

fn relative(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?.to_str()?;
    Some(rel.replace(std::path::MAIN_SEPARATOR, "/"))
}

/// Wall clock, ns since the epoch.
pub fn now_ns() -> i64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as i64)
}

struct Collect<'s> {
    root: &'s Path,
    shared: &'s Mutex<Vec<(String, Stat)>>,
    count: &'s AtomicUsize,
    truncated: &'s AtomicBool,
    cap: usize,
}

impl<'s> ParallelVisitorBuilder<'s> for Collect<'s> {
    fn build(&mut self) -> Box<dyn ParallelVisitor + 's> {
        Box::new(Visitor {
            root: self.root,
            shared: self.shared,
            count: self.count,
            truncated: self.truncated,
            cap: self.cap,
            local: Vec::new(),
        })
    }
}

/// One walker thread's findings, handed over when the thread is done.
struct Visitor<'s> {
    root: &'s Path,
    shared: &'s Mutex<Vec<(String, Stat)>>,
    count: &'s AtomicUsize,
    truncated: &'s AtomicBool,
    cap: usize,
    local: Vec<(String, Stat)>,
}

impl ParallelVisitor for Visitor<'_> {
    fn visit(&mut self, entry: Result<DirEntry, ignore::Error>) -> WalkState {
        let Ok(entry) = entry else {
            return WalkState::Continue; // unreadable or vanished: nothing to compare
        };
        if entry.depth() == 0 {
            return WalkState::Continue;
        }
        if self.count.fetch_add(1, Ordering::Relaxed) >= self.cap {
            self.truncated.store(true, Ordering::Relaxed);
            return WalkState::Quit;
        }
        if entry.file_type().is_some_and(|t| t.is_dir()) {
            return WalkState::Continue;
        }
        let (Some(rel), Ok(meta)) = (relative(self.root, entry.path()), entry.metadata()) else {
            return WalkState::Continue;
        };
        self.local.push((rel, Stat::of(&meta)));
        WalkState::Continue
    }
}

impl Drop for Visitor<'_> {
    fn drop(&mut self) {
        let mut shared = self.shared.lock().unwrap_or_else(|e| e.into_inner());
        shared.append(&mut self.local);
    }
}

/// How a path differs between two snapshots.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Difference {
    /// Not there before.
    Created,
    /// There before, with other stats.
    Modified,
    /// Gone.
    Deleted,
}

/// Paths whose stats differ between `before` and `after` (or that were racy in
/// `before`, see [`Snapshot::racy`]), sorted, with the stats of each side. See the
/// module docs for how a truncated snapshot is compared.
pub fn compare(
    root: &Path,
    git_dir: Option<&Path>,
    before: &Snapshot,
    after: &Snapshot,
) -> Vec<(String, Difference, Option<Stat>, Option<Stat>)> {
    let mut out = Vec::new();
    let (mut b, mut a) = (
        before.entries.iter().peekable(),
        after.entries.iter().peekable(),
    );
    loop {
        let order = match (b.peek(), a.peek()) {
            (None, None) => break,
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (Some((bp, _)), Some((ap, _))) => bp.cmp(ap),
        };
        match order {
            std::cmp::Ordering::Equal => {
                let ((path, old), (_, new)) = (b.next().unwrap(), a.next().unwrap());
                if old != new || before.racy(old) {
                    out.push((path.clone(), Difference::Modified, Some(*old), Some(*new)));
                }
            }
            std::cmp::Ordering::Less => {
                let (path, old) = b.next().unwrap();
                // Not seen after: gone, unless the second walk stopped before it.
                let now = if after.truncated {
                    Stat::read(&absolute(root, git_dir, path))
                } else {
                    None
                };
                match now {
                    None => out.push((path.clone(), Difference::Deleted, Some(*old), None)),
                    Some(now) if now != *old => {
                        out.push((path.clone(), Difference::Modified, Some(*old), Some(now)))
                    }
                    Some(_) => {}
                }
            }
            std::cmp::Ordering::Greater => {
                let (path, new) = a.next().unwrap();
                if !before.truncated || new.ctime_ns >= before.started_ns - SLACK_NS {
                    out.push((path.clone(), Difference::Created, None, Some(*new)));
                }
            }
        }
    }
    out
}

/// BLAKE3 of the last (up to) 4 KiB before `len` in `path`: enough to tell that a
/// file only grew since.
pub fn tail_hash(path: &Path, len: u64) -> Option<[u8; 32]> {
    use std::io::Seek as _;
    let start = len.saturating_sub(4096);
    let mut file = std::fs::File::open(path).ok()?;
    file.seek(std::io::SeekFrom::Start(start)).ok()?;
    let mut bytes = vec![0; (len - start) as usize];
    file.read_exact(&mut bytes).ok()?;
    Some(*blake3::hash(&bytes).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walk_sees_hidden_and_ignored_files_but_not_git_or_caches() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for rel in [
            "src/a.ts",
            ".env",
            "build/out.js",
            ".git/objects/ab/cd",
            ".git/config",
            ".orchestration/.cache/state.json",
            ".orchestration/agent_trace.head",
            ".orchestration/active_intents.yaml",
        ] {
            std::fs::create_dir_all(root.join(rel).parent().unwrap()).unwrap();
            std::fs::write(root.join(rel), rel).unwrap();
        }
        std::fs::write(root.join(".gitignore"), "build/\n.env\n").unwrap();
        let snap = take(root, Some(&root.join(".git")), MAX_ENTRIES);
        let paths: Vec<&str> = snap.entries.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            paths,
            [
                ".env",
                ".git/config",
                ".gitignore",
                ".orchestration/active_intents.yaml",
                "build/out.js",
                "src/a.ts"
            ]
        );
        assert!(!snap.truncated);
    }

    #[test]
    fn compare_finds_created_modified_and_deleted_files() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join("keep"), "k").unwrap();
        std::fs::write(root.join("edit"), "e").unwrap();
        std::fs::write(root.join("gone"), "g").unwrap();
        std::thread::sleep(Duration::from_millis(60));
        let before = take(root, None, MAX_ENTRIES);
        // Written within a clock tick of the walk: compared by content later.
        std::fs::write(root.join("racy"), "r").unwrap();
        let racy = Stat::read(&root.join("racy")).unwrap();
        assert!(before.racy(&racy));
        assert!(!before.racy(&Stat::read(&root.join("keep")).unwrap()));
        std::fs::write(root.join("edit"), "edited").unwrap();
        std::fs::remove_file(root.join("gone")).unwrap();
        std::fs::write(root.join("new"), "n").unwrap();
        let after = take(root, None, MAX_ENTRIES);
        let found: Vec<(String, Difference)> = compare(root, None, &before, &after)
            .into_iter()
            .map(|(p, d, _, _)| (p, d))
            .collect();
        assert_eq!(
            found,
            [
                ("edit".to_string(), Difference::Modified),
                ("gone".to_string(), Difference::Deleted),
                ("new".to_string(), Difference::Created),
                ("racy".to_string(), Difference::Created),
            ]
        );
    }

    #[test]
    fn a_truncated_walk_neither_invents_nor_loses_changes() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for i in 0..50 {
            std::fs::write(root.join(format!("f{i:02}")), "x").unwrap();
        }
        // Older than the baseline by more than the clock slack.
        std::thread::sleep(Duration::from_millis(60));
        let before = take(root, None, 10);
        assert!(before.truncated);
        std::thread::sleep(Duration::from_millis(60));
        std::fs::write(root.join("f07"), "changed").unwrap();
        std::fs::write(root.join("zz-new"), "n").unwrap();
        let after = take(root, None, MAX_ENTRIES);
        let found: Vec<String> = compare(root, None, &before, &after)
            .into_iter()
            .map(|(p, _, _, _)| p)
            .collect();
        // f07 counts as new when the first walk did not see it: it changed after.
        assert!(found.contains(&"zz-new".to_string()));
        assert!(found.contains(&"f07".to_string()));
        assert_eq!(found.len(), 2, "{found:?}");
    }
}
