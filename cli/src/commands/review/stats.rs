//! `intent stats [BASE[..HEAD]]`: how much of a range agents wrote, and how much
//! people did. Lines are counted as `git diff --numstat` counts them, so every
//! breakdown adds up to git's figures: each added line is an agent's (a traced
//! write made it as it is), a person's (none did), or unattributed (a binary or
//! unreadable file).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use clap::Args;
use intent_sync::{git, sanitize};
use rayon::prelude::*;
use serde::Serialize;

use super::{build, Change, Review};
use crate::config::Config;
use crate::exit;

/// Arguments of `intent stats`.
#[derive(Debug, Args)]
pub struct StatsArgs {
    /// `BASE..HEAD` (HEAD must be checked out), or `BASE` (up to the working tree).
    /// Default: the merge base with the default branch, up to the working tree.
    pub range: Option<String>,
}

/// Added lines by who made them.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct Counts {
    /// Lines added (`--numstat`'s first column).
    pub added: u32,
    /// Lines removed (its second column; not attributed).
    pub removed: u32,
    /// Added lines a traced write made as they are.
    pub agent: u32,
    /// Added lines no traced write made: a person's.
    pub human: u32,
    /// Added lines of files whose lines cannot be attributed (binary, unreadable).
    pub unattributed: u32,
    /// Of the agent's lines, those whose newest change was a refactor only.
    pub refactor_only: u32,
}

/// One file's counts.
#[derive(Debug, Clone, Serialize)]
pub struct FileStats {
    /// Path in HEAD.
    pub path: String,
    /// Its counts.
    #[serde(flatten)]
    pub counts: Counts,
    /// Both agents' and people's lines.
    pub mixed: bool,
}

/// The statistics of a range (`--json` prints it as is).
#[derive(Debug, Clone, Serialize)]
pub struct Stats {
    /// The base commit.
    pub base: String,
    /// The head commit, or `working tree`.
    pub head: String,
    /// The whole range.
    pub totals: Counts,
    /// Agents' added lines per front-end (`unknown` when not recorded).
    pub by_front_end: BTreeMap<String, u32>,
    /// Agents' added lines per model.
    pub by_model: BTreeMap<String, u32>,
    /// Agents' added lines per intent.
    pub by_intent: BTreeMap<String, u32>,
    /// Files with both agents' and people's lines.
    pub mixed_files: u32,
    /// Per file, in path order.
    pub files: Vec<FileStats>,
    /// Added lines per commit author (`git blame` of HEAD; `Not Committed Yet`
    /// for the working tree's lines): `added`, `agent`, `human`.
    pub authors: BTreeMap<String, Counts>,
}

/// Runs `intent stats`.
pub fn run(config: &Config, args: StatsArgs) -> anyhow::Result<u8> {
    config.require_ledger()?;
    let review = build(config, args.range.as_deref())?;
    let stats = stats(config, &review)?;
    if config.json() {
        println!("{}", serde_json::to_string(&stats)?);
    } else {
        print!("{}", text(&stats));
    }
    Ok(exit::OK)
}

fn span(c: &Change) -> u32 {
    c.end + 1 - c.start
}

/// Counts `review`'s lines.
pub fn stats(config: &Config, review: &Review) -> anyhow::Result<Stats> {
    let mut out = Stats {
        base: review.base.clone(),
        head: review.head.clone(),
        totals: Counts::default(),
        by_front_end: BTreeMap::new(),
        by_model: BTreeMap::new(),
        by_intent: BTreeMap::new(),
        mixed_files: 0,
        files: Vec::new(),
        authors: BTreeMap::new(),
    };
    let agent_changes: Vec<&Change> = review.intents.iter().flat_map(|i| &i.changes).collect();
    let head = (review.head != "working tree").then_some(review.head.as_str());
    let mut new_lines: Vec<(String, BTreeMap<u32, bool>)> = Vec::new();
    for file in &review.files {
        let mut counts = Counts {
            added: file.added,
            removed: file.removed,
            ..Counts::default()
        };
        let agents: Vec<&&Change> = agent_changes
            .iter()
            .filter(|c| c.path == file.path)
            .collect();
        for c in &agents {
            counts.agent += span(c);
            if c.class == "refactor" {
                counts.refactor_only += span(c);
            }
            let unknown = || "unknown".to_string();
            *out.by_front_end
                .entry(c.front_end.clone().unwrap_or_else(unknown))
                .or_default() += span(c);
            *out.by_model
                .entry(c.model.clone().unwrap_or_else(unknown))
                .or_default() += span(c);
            *out.by_intent
                .entry(c.intent_id.clone().unwrap_or_else(unknown))
                .or_default() += span(c);
        }
        let people: Vec<&Change> = review
            .untraced
            .iter()
            .filter(|c| c.path == file.path)
            .collect();
        counts.human = people.iter().map(|c| span(c)).sum();
        counts.unattributed = counts.added - counts.agent - counts.human;
        let mixed = counts.agent > 0 && counts.human > 0;
        out.mixed_files += u32::from(mixed);
        // The range's new lines, each with whether an agent made it.
        let mut lines: BTreeMap<u32, bool> = BTreeMap::new();
        for (changes, agent) in [
            (agents.iter().map(|c| **c).collect::<Vec<_>>(), true),
            (people, false),
        ] {
            for c in changes {
                lines.extend((c.start..=c.end).map(|l| (l, agent)));
            }
        }
        if !lines.is_empty() {
            new_lines.push((file.path.clone(), lines));
        }
        add(&mut out.totals, &counts);
        out.files.push(FileStats {
            path: file.path.clone(),
            counts,
            mixed,
        });
    }
    // One `git blame` per file, run side by side: each walks history on its own.
    let blamed: Vec<(String, bool)> = new_lines
        .par_iter()
        .flat_map_iter(|(path, lines)| authors(config, &review.base, head, path, lines))
        .collect();
    for (author, agent) in blamed {
        let counts = out.authors.entry(author).or_default();
        counts.added += 1;
        if agent {
            counts.agent += 1;
        } else {
            counts.human += 1;
        }
    }
    Ok(out)
}

fn add(total: &mut Counts, c: &Counts) {
    total.added += c.added;
    total.removed += c.removed;
    total.agent += c.agent;
    total.human += c.human;
    total.unattributed += c.unattributed;
    total.refactor_only += c.refactor_only;
}

/// The authors (by `git blame`, limited to the range and to `lines`) of `path`'s
/// new lines (line → whether an agent made it): one `(author, agent)` per line.
fn authors(
    config: &Config,
    base: &str,
    head: Option<&str>,
    path: &str,
    lines: &BTreeMap<u32, bool>,
) -> Vec<(String, bool)> {
    let mut args: Vec<String> = ["blame", "--line-porcelain"].map(String::from).to_vec();
    // Only the new lines, as runs (`-L first,last` each).
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for &line in lines.keys() {
        match runs.last_mut() {
            Some((_, last)) if *last + 1 == line => *last = line,
            _ => runs.push((line, line)),
        }
    }
    for (first, last) in runs {
        args.push(format!("-L{first},{last}"));
    }
    // New lines were made inside the range: history older than BASE is not walked.
    match head {
        Some(head) => args.push(format!("{base}..{head}")),
        None => args.extend([
            "--contents".to_string(),
            path.to_string(),
            format!("{base}..HEAD"),
        ]),
    }
    args.extend(["--".to_string(), path.to_string()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    // An untracked file (or one HEAD lacks) has no blame: every line is the working tree's.
    let Ok(porcelain) = git::run(config.workspace.root(), &args) else {
        return lines
            .values()
            .map(|&agent| (NOT_COMMITTED.to_string(), agent))
            .collect();
    };
    let mut out = Vec::new();
    let (mut author, mut line, mut uncommitted) = (String::new(), 0u32, false);
    for l in porcelain.lines() {
        if l.starts_with('\t') {
            if let Some(&agent) = lines.get(&line) {
                out.push((author.clone(), agent));
            }
        } else if let Some(name) = l.strip_prefix("author ") {
            author = if uncommitted {
                NOT_COMMITTED.to_string()
            } else {
                name.to_string()
            };
        } else if let Some(mail) = l.strip_prefix("author-mail ") {
            if !uncommitted {
                author = format!("{author} {mail}");
            }
        } else if let Some((sha, final_line)) = header(l) {
            // The working tree's lines carry the all-zero id.
            uncommitted = sha.bytes().all(|b| b == b'0');
            line = final_line;
        }
    }
    out
}

/// `(commit, final line)` of a porcelain header line (`SHA ORIG FINAL [COUNT]`).
fn header(line: &str) -> Option<(&str, u32)> {
    let mut parts = line.split(' ');
    let sha = parts.next()?;
    if sha.len() != 40 || !sha.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    parts.next()?;
    Some((sha, parts.next()?.parse().ok()?))
}

/// How `git blame` names the working tree's lines.
const NOT_COMMITTED: &str = "Not Committed Yet";

/// The text form: totals, breakdowns, then per file.
pub fn text(s: &Stats) -> String {
    let mut out = String::new();
    let t = &s.totals;
    let pct = |n: u32| {
        if t.added == 0 {
            0.0
        } else {
            f64::from(n) * 100.0 / f64::from(t.added)
        }
    };
    let _ = writeln!(
        out,
        "{}..{}: +{} −{} lines (as git diff --numstat counts them)",
        super::short(&s.base),
        super::short(&s.head),
        t.added,
        t.removed
    );
    let _ = writeln!(
        out,
        "  agents {} ({:.0}%, of which refactor only {}), people {} ({:.0}%), unattributed {}; {} files mixed",
        t.agent,
        pct(t.agent),
        t.refactor_only,
        t.human,
        pct(t.human),
        t.unattributed,
        s.mixed_files
    );
    for (title, map) in [
        ("front-end", &s.by_front_end),
        ("model", &s.by_model),
        ("intent", &s.by_intent),
    ] {
        let parts: Vec<String> = map
            .iter()
            .map(|(k, v)| format!("{} {v}", sanitize(k)))
            .collect();
        if !parts.is_empty() {
            let _ = writeln!(out, "  by {title}: {}", parts.join(", "));
        }
    }
    let _ = writeln!(
        out,
        "\n{:<40} {:>6} {:>6} {:>6} {:>6} {:>8}",
        "file", "added", "removed", "agent", "human", "refactor"
    );
    for f in &s.files {
        let c = &f.counts;
        let _ = writeln!(
            out,
            "{:<40} {:>6} {:>6} {:>6} {:>6} {:>8}{}",
            sanitize(&f.path),
            c.added,
            c.removed,
            c.agent,
            c.human,
            c.refactor_only,
            if f.mixed { "  mixed" } else { "" }
        );
    }
    if !s.authors.is_empty() {
        out.push_str("\nby author (git blame of the new lines):\n");
        for (who, c) in &s.authors {
            let _ = writeln!(
                out,
                "  {}: {} (agents {}, people {})",
                sanitize(who),
                c.added,
                c.agent,
                c.human
            );
        }
    }
    out
}
