//! The source side of the replay benchmark: a clone of the history bundle, its
//! first-parent commits oldest first, what each commit changed, file contents at
//! any commit (one long-lived `git cat-file --batch`, so 800+ reads cost one
//! process), and `git log -L`, the ground truth a block's history is compared with.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;

/// One first-parent commit; `index` 0 is the oldest (replayed as INT-001).
pub struct Commit {
    pub sha: String,
    pub subject: String,
}

/// What a commit did to one file: `A`dded, `M`odified (type changes count) or `D`eleted.
pub struct Change {
    pub status: char,
    pub path: String,
}

/// The cloned history.
pub struct Source {
    pub root: PathBuf,
    /// Kept so the clone lives as long as the source (`None` once kept on disk).
    _dir: Option<tempfile::TempDir>,
    blobs: Blobs,
    /// Commit sha → 0-based position in the replay.
    pub position: HashMap<String, usize>,
}

/// Runs git in `dir`; returns stdout, or stderr as the error.
pub fn git(dir: &Path, args: &[&str]) -> Result<Vec<u8>, String> {
    intent_test_support::git::try_run(dir, args)
}

fn text(bytes: Vec<u8>) -> String {
    String::from_utf8_lossy(&bytes).into_owned()
}

impl Source {
    /// Clones `bundle` into a temp dir. The bundle's HEAD may name no branch (then a
    /// plain clone checks nothing out), so the branch is taken from its heads:
    /// `main` when present, else the first.
    pub fn clone_bundle(bundle: &Path, keep: bool) -> Result<Source, String> {
        let heads = text(git(
            Path::new("."),
            &["bundle", "list-heads", &bundle.to_string_lossy()],
        )?);
        let branches: Vec<&str> = heads
            .lines()
            .filter_map(|l| l.split_whitespace().nth(1))
            .filter_map(|r| r.strip_prefix("refs/heads/"))
            .collect();
        let branch = branches
            .iter()
            .find(|b| **b == "main")
            .or(branches.first())
            .ok_or_else(|| format!("{} has no branch", bundle.display()))?;
        let dir = tempfile::Builder::new()
            .prefix("replay-source-")
            .tempdir()
            .map_err(|e| e.to_string())?;
        let root = dir.path().join("source");
        let status = Command::new("git")
            .args(["clone", "-q", "--branch", branch])
            .arg(bundle)
            .arg(&root)
            .status()
            .map_err(|e| e.to_string())?;
        if !status.success() {
            return Err(format!("git clone {} failed: {status}", bundle.display()));
        }
        let blobs = Blobs::start(&root)?;
        Ok(Source {
            _dir: if keep {
                let _ = dir.keep();
                None
            } else {
                Some(dir)
            },
            root,
            blobs,
            position: HashMap::new(),
        })
    }

    /// First-parent commits of HEAD, oldest first, the first `limit` of them.
    pub fn commits(&mut self, limit: Option<usize>) -> Result<Vec<Commit>, String> {
        let log = text(git(
            &self.root,
            &[
                "log",
                "--reverse",
                "--first-parent",
                "--format=%H%x1f%s",
                "HEAD",
            ],
        )?);
        let mut commits: Vec<Commit> = log
            .lines()
            .filter_map(|l| l.split_once('\x1f'))
            .map(|(sha, subject)| Commit {
                sha: sha.to_string(),
                subject: subject.to_string(),
            })
            .collect();
        if let Some(n) = limit {
            commits.truncate(n);
        }
        self.position = commits
            .iter()
            .enumerate()
            .map(|(i, c)| (c.sha.clone(), i))
            .collect();
        Ok(commits)
    }

    /// The replayed files `commit` changed against `parent`; without a parent (the
    /// first commit, the replay's starting point) every such file of its tree is added.
    pub fn changes(&self, parent: Option<&str>, commit: &str) -> Result<Vec<Change>, String> {
        let Some(parent) = parent else {
            return Ok(self
                .replayed_files(commit)?
                .into_iter()
                .map(|path| Change { status: 'A', path })
                .collect());
        };
        let out = git(
            &self.root,
            &[
                "diff-tree",
                "-r",
                "--no-renames",
                "--name-status",
                "-z",
                parent,
                commit,
            ],
        )?;
        let fields: Vec<String> = out
            .split(|b| *b == 0)
            .filter(|f| !f.is_empty())
            .map(|f| String::from_utf8_lossy(f).into_owned())
            .collect();
        Ok(fields
            .chunks(2)
            .filter(|pair| pair.len() == 2 && is_replayed(&pair[1]))
            .map(|pair| Change {
                status: match pair[0].chars().next() {
                    Some('D') => 'D',
                    Some('A') => 'A',
                    _ => 'M',
                },
                path: pair[1].clone(),
            })
            .collect())
    }

    /// Every replayed file of `commit`'s tree.
    pub fn replayed_files(&self, commit: &str) -> Result<Vec<String>, String> {
        let out = text(git(&self.root, &["ls-tree", "-r", "--name-only", commit])?);
        Ok(out
            .lines()
            .filter(|p| is_replayed(p))
            .map(str::to_string)
            .collect())
    }

    /// The content of `path` at `commit`.
    pub fn blob(&mut self, commit: &str, path: &str) -> Result<Vec<u8>, String> {
        self.blobs.get(&format!("{commit}:{path}"))
    }

    /// `git log -L start,end:path at`: the commits that changed those lines, newest
    /// first, as replay positions (an unknown sha, impossible on a linear history,
    /// maps to `usize::MAX`), and the time git took in ms.
    pub fn log_l(
        &self,
        path: &str,
        start: u32,
        end: u32,
        at: &str,
    ) -> Result<(Vec<usize>, f64), String> {
        let started = Instant::now();
        let range = format!("{start},{end}:{path}");
        let out = text(git(
            &self.root,
            &["log", "-L", &range, "--format=%H", "--no-patch", at],
        )?);
        let ms = started.elapsed().as_secs_f64() * 1e3;
        let commits = out
            .lines()
            .map(str::trim)
            .filter(|l| l.len() == 40)
            .map(|sha| self.position.get(sha).copied().unwrap_or(usize::MAX))
            .collect();
        Ok((commits, ms))
    }
}

/// The file name endings the replay handles (`.ts` unless a bench says otherwise).
static EXTENSIONS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();

/// Sets the endings the replay handles (`["py"]`, `["go"]`…), once, before use.
#[allow(dead_code)]
/// (language, bundle of `shared/fixtures/`, file endings) of the replays.
pub const LANGUAGES: [(&str, &str, &[&str]); 4] = [
    ("python", "rich-history.bundle", &["py"]),
    ("go", "urfave-cli-history.bundle", &["go"]),
    ("rust", "fd-history.bundle", &["rs"]),
    ("typescript", "hono-history.bundle", &["ts"]),
];

/// The replayed language named `wanted`, its file endings set for the replay.
pub fn choose_language(wanted: &str) -> Result<(&'static str, &'static str), String> {
    let (lang, bundle, endings) = LANGUAGES
        .iter()
        .find(|(l, ..)| *l == wanted)
        .ok_or_else(|| format!("{wanted}: use python, go, rust or typescript"))?;
    set_extensions(endings);
    Ok((lang, bundle))
}

pub fn set_extensions(extensions: &[&str]) {
    let _ = EXTENSIONS.set(extensions.iter().map(|e| format!(".{e}")).collect());
}

/// Whether the replay handles `path`.
pub fn is_replayed(path: &str) -> bool {
    EXTENSIONS
        .get_or_init(|| vec![".ts".to_string()])
        .iter()
        .any(|e| path.ends_with(e.as_str()))
}

/// A `git cat-file --batch` process: one request line in, header + content out.
struct Blobs {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Blobs {
    fn start(root: &Path) -> Result<Blobs, String> {
        let mut child = Command::new("git")
            .arg("-C")
            .arg(root)
            .args(["cat-file", "--batch"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("git cat-file: {e}"))?;
        let input = child.stdin.take().ok_or("no stdin")?;
        let output = BufReader::new(child.stdout.take().ok_or("no stdout")?);
        Ok(Blobs {
            child,
            input,
            output,
        })
    }

    fn get(&mut self, spec: &str) -> Result<Vec<u8>, String> {
        writeln!(self.input, "{spec}").map_err(|e| e.to_string())?;
        self.input.flush().map_err(|e| e.to_string())?;
        let mut header = String::new();
        self.output
            .read_line(&mut header)
            .map_err(|e| e.to_string())?;
        // `<sha> blob <size>`, or `<spec> missing`.
        let size: usize = header
            .trim_end()
            .rsplit(' ')
            .next()
            .and_then(|s| s.parse().ok())
            .filter(|_| header.contains(" blob "))
            .ok_or_else(|| format!("git cat-file {spec}: {}", header.trim_end()))?;
        let mut content = vec![0; size + 1];
        self.output
            .read_exact(&mut content)
            .map_err(|e| e.to_string())?;
        content.pop(); // the newline after the content
        Ok(content)
    }
}

impl Drop for Blobs {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
