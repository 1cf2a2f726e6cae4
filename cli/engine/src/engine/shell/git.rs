//! What git knows that a stat snapshot does not: which tracked files were already
//! modified before a command ran, and what a file's committed content was.
//!
//! Two processes at most per command: `git status` (tracked files only, no
//! untracked walk, no index lock) for the baseline, and one `git cat-file --batch`
//! for the committed content of every changed file, however many there are.

use std::collections::HashMap;
use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// Where the repository around a workspace keeps its data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repo {
    /// The common git directory (`.git`, or the main one of a linked worktree).
    pub git_dir: PathBuf,
    /// The workspace root relative to the repository's top level, `/`-terminated
    /// (empty when they are the same).
    pub prefix: String,
}

/// Finds the repository `root` belongs to, by looking for `.git` upwards (no
/// process is started).
pub fn discover(root: &Path) -> Option<Repo> {
    let checkout = intent_ledger::workspace::GitCheckout::find(root)?;
    let inside = root.strip_prefix(&checkout.top).ok()?.to_str()?;
    let prefix = if inside.is_empty() {
        String::new()
    } else {
        format!("{}/", inside.replace(std::path::MAIN_SEPARATOR, "/"))
    };
    Some(Repo {
        git_dir: checkout.common_dir,
        prefix,
    })
}

/// A `git status` started in the background.
pub struct Status {
    child: Option<Child>,
}

/// Tracked files that differ from HEAD, and HEAD's revision.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Dirty {
    /// HEAD's revision; `None` before the first commit.
    pub revision: Option<String>,
    /// Workspace-relative paths of tracked files that differ from HEAD.
    pub paths: Vec<String>,
}

impl Status {
    /// Starts `git status` for the tracked files under `root`.
    pub fn start(root: &Path) -> Status {
        let child = Command::new("git")
            .args([
                "--no-optional-locks",
                "status",
                "--porcelain=v2",
                "-z",
                "--branch",
                "--untracked-files=no",
                "--no-renames",
                "--ignore-submodules=all",
                "--",
                ".",
            ])
            .current_dir(root)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .ok();
        Status { child }
    }

    /// Waits for it; `None` when git failed.
    pub fn finish(self, prefix: &str) -> Option<Dirty> {
        let out = self.child?.wait_with_output().ok()?;
        out.status
            .success()
            .then(|| parse_status(&out.stdout, prefix))
    }
}

fn parse_status(stdout: &[u8], prefix: &str) -> Dirty {
    let mut dirty = Dirty::default();
    for record in stdout.split(|&b| b == 0) {
        let record = String::from_utf8_lossy(record);
        if let Some(oid) = record.strip_prefix("# branch.oid ") {
            dirty.revision = (oid != "(initial)").then(|| oid.to_string());
            continue;
        }
        // `1 XY sub mH mI mW hH hI path` and `u XY sub m1 m2 m3 mW h1 h2 h3 path`.
        let path = match record.as_bytes().first() {
            Some(b'1') => record.splitn(9, ' ').nth(8),
            Some(b'u') => record.splitn(11, ' ').nth(10),
            _ => None,
        };
        if let Some(rel) = path.and_then(|p| p.strip_prefix(prefix)) {
            dirty.paths.push(rel.to_string());
        }
    }
    dirty
}

/// Committed content of `paths` (workspace-relative) at `revision`, read by one
/// `git cat-file --batch`; paths git does not know are left out, and so are
/// contents larger than `max_hashed` (skipped unread). Contents larger than
/// `max_kept` are hashed and not kept.
pub fn committed(
    root: &Path,
    repo: &Repo,
    revision: &str,
    paths: &[&str],
    max_kept: usize,
    max_hashed: usize,
) -> HashMap<String, Committed> {
    let mut found = HashMap::new();
    let wanted: Vec<&str> = paths
        .iter()
        .copied()
        .filter(|p| !p.contains('\n'))
        .collect();
    if wanted.is_empty() {
        return found;
    }
    let Ok(mut child) = Command::new("git")
        .args(["cat-file", "--batch"])
        .current_dir(root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    else {
        return found;
    };
    let requests: String = wanted
        .iter()
        .map(|p| format!("{revision}:{}{p}\n", repo.prefix))
        .collect();
    let mut stdin = child.stdin.take().expect("piped");
    // Written from another thread: git answers while it reads, and a full pipe on
    // either side would stall both.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(requests.as_bytes());
    });
    let mut out = BufReader::new(child.stdout.take().expect("piped"));
    for path in &wanted {
        let mut header = String::new();
        if out.read_line(&mut header).unwrap_or(0) == 0 {
            break;
        }
        // `<oid> <type> <size>` or `<name> missing` (or `ambiguous`).
        let mut fields = header.trim_end().rsplitn(3, ' ');
        let (Some(size), Some(kind)) = (fields.next(), fields.next()) else {
            continue;
        };
        let Ok(size) = size.parse::<usize>() else {
            continue; // missing: not tracked at that revision
        };
        if size > max_hashed {
            let skipped =
                std::io::copy(&mut (&mut out).take(size as u64 + 1), &mut std::io::sink());
            if skipped.map_or(true, |n| n != size as u64 + 1) {
                break;
            }
            continue;
        }
        let mut content = vec![0; size];
        if out.read_exact(&mut content).is_err() {
            break;
        }
        let mut newline = [0u8; 1];
        let _ = out.read_exact(&mut newline);
        if kind != "blob" {
            continue;
        }
        let hash = intent_gate::bytes_sha256(&content);
        let text = (content.len() <= max_kept).then_some(content);
        found.insert(path.to_string(), Committed { hash, text });
    }
    let _ = writer.join();
    let _ = child.wait();
    found
}

/// A file as committed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Committed {
    /// `sha256:` of the content.
    pub hash: String,
    /// The content, when small enough to keep.
    pub text: Option<Vec<u8>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_records_give_revision_and_workspace_relative_paths() {
        let out = b"# branch.oid 0123abcd\0# branch.head main\0\
            1 .M N... 100644 100644 100644 aaaa bbbb sub/src/a b.ts\0\
            1 .M N... 100644 100644 100644 aaaa bbbb other/x.ts\0";
        let dirty = parse_status(out, "sub/");
        assert_eq!(dirty.revision.as_deref(), Some("0123abcd"));
        assert_eq!(dirty.paths, ["src/a b.ts"]);
        let initial = parse_status(b"# branch.oid (initial)\0", "");
        assert_eq!(initial.revision, None);
    }
}
