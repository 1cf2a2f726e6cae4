//! The git baseline of `query.rs`: a git repository holding the history a ledger
//! records, so `git log -L` and `git blame` can be timed on the same data as
//! `intent why`.
//!
//! One commit per `trace` event of the ledger, in ledger order: author = the
//! session, date = the event's time, message = the prompt's text plus the intent id
//! and the ledger seq. The commit changes the traced file inside the traced line
//! range. A few files (the ones queried) are kept in full: each commit rewrites the
//! first numeric literal of the traced range (else a trailing `// rev N` comment on
//! its last line), so lines never move and each version is a new blob. Every other
//! file is a one-line stub whose revision number changes per commit.
//!
//! The stream goes through `git fast-import`, with the versions of each full file
//! adjacent so they deltify against each other (fast-import deltifies against the
//! previous blob only). Then `git commit-graph write --reachable --changed-paths`:
//! the Bloom filters `git log -L` and `git blame` use to skip commits, i.e. git's
//! best case.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use serde_json::Value;
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

/// One `trace` event, with what its commit needs.
pub struct Trace {
    pub seq: u64,
    pub unix_time: i64,
    pub session: String,
    pub path: String,
    pub start: u32,
    pub end: u32,
    pub intent: String,
    pub prompt: String,
}

/// What `build` made.
pub struct Repo {
    pub commits: usize,
    pub files: usize,
    pub full_files: usize,
    pub full_lines: usize,
    pub full_versions: usize,
    pub objects_mb: f64,
    pub import_s: f64,
    pub graph_s: f64,
}

impl Repo {
    /// What the repository holds, for the report; `ledger_traces` were offered.
    pub fn describe(&self, ledger_traces: usize) -> String {
        let traces = self.commits - 1;
        let which = if traces < ledger_traces {
            "capped: the most recent "
        } else {
            "all "
        };
        format!(
            "git repo   {} commits: 1 with the generated workspace + 1 per trace ({which}{traces} of the \
             ledger's {ledger_traces} traces), author = session, message = prompt + intent id + seq;\n           \
             {} files: {} in full ({} lines each; {} versions, one literal changed in the traced range \
             per commit), {} one-line stubs (one revision per commit);\n           .git/objects {:.1} MB; \
             built in {:.1} s (fast-import + checkout {:.1} s, commit-graph --changed-paths {:.1} s)",
            self.commits,
            self.files,
            self.full_files,
            self.full_lines,
            self.full_versions,
            self.files - self.full_files,
            self.objects_mb,
            self.import_s + self.graph_s,
            self.import_s,
            self.graph_s
        )
    }
}

/// `git` in `dir`, deaf to the user's and the system's configuration.
pub fn git(dir: &Path) -> Command {
    intent_test_support::git::command(dir)
}

/// The ledger's traces in order, each joined with its prompt's text.
pub fn read_traces(ledger: &Path) -> Vec<Trace> {
    let mut prompts: HashMap<String, String> = HashMap::new();
    let mut traces = Vec::new();
    let reader = BufReader::with_capacity(1 << 20, File::open(ledger).expect("the ledger"));
    for line in reader.lines() {
        let line = line.expect("a readable ledger");
        // The kind is in the envelope, before `data`: no need to parse other lines.
        let head = line.get(..200).unwrap_or(&line);
        let (trace, prompt) = (
            head.contains(r#""kind":"trace""#),
            head.contains(r#""kind":"prompt""#),
        );
        if !trace && !prompt {
            continue;
        }
        let event: Value = serde_json::from_str(&line).expect("a JSON ledger line");
        let data = &event["data"];
        let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
        if prompt {
            prompts.insert(text(&data["prompt_id"]), text(&data["text"]));
            continue;
        }
        let range = &data["ranges"][0];
        let ts = event["ts"].as_str().expect("a ts");
        traces.push(Trace {
            seq: event["seq"].as_u64().expect("a seq"),
            unix_time: OffsetDateTime::parse(ts, &Rfc3339)
                .expect("an RFC 3339 ts")
                .unix_timestamp(),
            session: text(&event["session"]),
            path: text(&data["path"]),
            start: range["start_line"].as_u64().unwrap_or(1) as u32,
            end: range["end_line"].as_u64().unwrap_or(1) as u32,
            intent: text(&data["intent_id"]),
            prompt: prompts
                .get(data["prompt_id"].as_str().unwrap_or_default())
                .cloned()
                .unwrap_or_default(),
        });
    }
    traces
}

/// Byte range of the first free-standing integer literal of `line`.
fn literal(line: &str) -> Option<(usize, usize)> {
    let b = line.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'.';
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() || (i > 0 && word(b[i - 1])) {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        if j == b.len() || !word(b[j]) {
            return Some((i, j));
        }
        i = j;
    }
    None
}

/// Changes one line of `lines[start..=end]` (1-based) to carry `n`.
fn touch(lines: &mut [String], start: u32, end: u32, n: u64) {
    let end = (end as usize).clamp(1, lines.len());
    let start = (start as usize).clamp(1, end);
    for line in &mut lines[start - 1..end] {
        if let Some((a, b)) = literal(line) {
            line.replace_range(a..b, &n.to_string());
            return;
        }
    }
    let last = &mut lines[end - 1];
    if let Some(at) = last.find(" // rev ") {
        last.truncate(at);
    }
    last.push_str(&format!(" // rev {n}"));
}

fn data(out: &mut impl Write, bytes: &[u8]) {
    writeln!(out, "data {}", bytes.len()).unwrap();
    out.write_all(bytes).unwrap();
    out.write_all(b"\n").unwrap();
}

fn stub(path: &str, revision: u64) -> String {
    format!("// {path}: stub, revision {revision}\n")
}

/// Builds the repository in `repo` (absent): `files` as the generator wrote them
/// into `workspace`, in full for `full` and as stubs otherwise, then `traces`.
pub fn build(
    repo: &Path,
    workspace: &Path,
    files: &[String],
    full: &[String],
    traces: &[Trace],
) -> Repo {
    std::fs::create_dir_all(repo).unwrap();
    assert!(git(repo)
        .args(["init", "-q", "-b", "main"])
        .status()
        .unwrap()
        .success());
    let started = Instant::now();
    let mut child = git(repo)
        .args(["fast-import", "--quiet"])
        .stdin(Stdio::piped())
        .spawn()
        .expect("git fast-import");
    let mut out = BufWriter::with_capacity(1 << 20, child.stdin.take().unwrap());
    let (mut mark, mut marks, mut initial) = (0u64, vec![0u64; traces.len()], HashMap::new());
    let mut full_lines = 0;
    for path in full {
        let text = std::fs::read_to_string(workspace.join(path)).expect("a generated file");
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        full_lines = lines.len();
        let mut blob = |lines: &[String], out: &mut BufWriter<_>| {
            mark += 1;
            write!(out, "blob\nmark :{mark}\n").unwrap();
            data(out, (lines.join("\n") + "\n").as_bytes());
            mark
        };
        initial.insert(path.as_str(), blob(&lines, &mut out));
        for (i, t) in traces.iter().enumerate().filter(|(_, t)| &t.path == path) {
            touch(&mut lines, t.start, t.end, t.seq);
            marks[i] = blob(&lines, &mut out);
        }
    }
    let time0 = traces.first().map_or(0, |t| t.unix_time - 1);
    write!(
        out,
        "commit refs/heads/main\ncommitter workspace <workspace@bench.invalid> {time0} +0000\n"
    )
    .unwrap();
    data(&mut out, b"The workspace as generated\n");
    for path in files {
        match initial.get(path.as_str()) {
            Some(m) => writeln!(out, "M 100644 :{m} {path}").unwrap(),
            None => {
                writeln!(out, "M 100644 inline {path}").unwrap();
                data(&mut out, stub(path, 0).as_bytes());
            }
        }
    }
    for (t, m) in traces.iter().zip(&marks) {
        let who = format!("{0} <{0}@agents.invalid> {1} +0000", t.session, t.unix_time);
        write!(
            out,
            "commit refs/heads/main\nauthor {who}\ncommitter {who}\n"
        )
        .unwrap();
        let message = format!(
            "{}\n\nIntent: {}\nLedger-Seq: {}\n",
            t.prompt, t.intent, t.seq
        );
        data(&mut out, message.as_bytes());
        if *m > 0 {
            writeln!(out, "M 100644 :{m} {}", t.path).unwrap();
        } else {
            writeln!(out, "M 100644 inline {}", t.path).unwrap();
            data(&mut out, stub(&t.path, t.seq).as_bytes());
        }
    }
    out.flush().unwrap();
    drop(out);
    assert!(child.wait().unwrap().success(), "git fast-import failed");
    assert!(git(repo)
        .args(["reset", "-q", "--hard"])
        .status()
        .unwrap()
        .success());
    let import_s = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let graph = git(repo)
        .args(["commit-graph", "write", "--reachable", "--changed-paths"])
        .output()
        .unwrap();
    assert!(
        graph.status.success(),
        "{}",
        String::from_utf8_lossy(&graph.stderr)
    );
    Repo {
        commits: traces.len() + 1,
        files: files.len(),
        full_files: full.len(),
        full_lines,
        full_versions: marks.iter().filter(|m| **m > 0).count(),
        objects_mb: dir_bytes(&repo.join(".git/objects")) as f64 / 1e6,
        import_s,
        graph_s: started.elapsed().as_secs_f64(),
    }
}

fn dir_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir).map_or(0, |entries| {
        entries
            .flatten()
            .map(|e| match e.file_type() {
                Ok(t) if t.is_dir() => dir_bytes(&e.path()),
                _ => e.metadata().map_or(0, |m| m.len()),
            })
            .sum()
    })
}
