//! `intent review [BASE..HEAD]`: the reviewer's view of a range. For the code that
//! differs between BASE and HEAD, each run of new lines with what the ledgers
//! (this clone's and fetched teammates') say about it, grouped by intent, and what
//! needs a human's eyes first: behaviour changes, lines no traced write made, and
//! changes outside their intent's `owned_scope`.
//!
//! The lines are attributed as they are in the working tree, so HEAD must be
//! what is checked out there (the default: the merge base with the default
//! branch up to the working tree).

mod check;
mod diff;
mod html;
mod render;
pub mod stats;
pub mod violations;

use std::collections::BTreeMap;
use std::path::Path;

use clap::Args;
use intent_query::why::{BlameLine, Target};
use intent_spec::{ScopeMatcher, SpecDocument};
use intent_sync::git;
use serde::Serialize;

use crate::config::Config;
use crate::exit;

/// Arguments of `intent review`.
#[derive(Debug, Args)]
pub struct ReviewArgs {
    /// `BASE..HEAD` (HEAD must be checked out), or `BASE` (up to the working tree).
    /// Default: the merge base with the default branch, up to the working tree.
    pub range: Option<String>,
    /// Print Markdown for a pull request comment instead of text.
    #[arg(long)]
    pub markdown: bool,
    /// Also write the review as one self-contained HTML page (no script, no
    /// network) to FILE, with each file's new lines coloured by class and intent.
    #[arg(long, value_name = "FILE")]
    pub html: Option<std::path::PathBuf>,
    /// Apply the `review:` rules of `.orchestration/policy.yaml`: one line per
    /// finding, exit 5 when one of them fails the check.
    #[arg(long)]
    pub check: bool,
}

/// The review of a range (`--json` prints it as is).
#[derive(Debug, Clone, Serialize)]
pub struct Review {
    /// The base commit.
    pub base: String,
    /// The head commit, or `working tree`.
    pub head: String,
    /// Every changed file, as `git diff --numstat` counts it.
    pub files: Vec<FileSummary>,
    /// Changes under each intent, by intent id.
    pub intents: Vec<IntentReview>,
    /// Runs of new lines no traced write made as they are: a human's edit, or an
    /// agent's the ledger did not see.
    pub untraced: Vec<Change>,
    /// Violations the ledgers recorded for the range's files since BASE was made.
    pub violations: Vec<violations::RecordedViolation>,
    /// What needs a human's eyes first, in file order.
    pub attention: Vec<Attention>,
}

/// One changed file.
#[derive(Debug, Clone, Serialize)]
pub struct FileSummary {
    /// Path in HEAD.
    pub path: String,
    /// Path in BASE, when renamed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// Lines added.
    pub added: u32,
    /// Lines removed.
    pub removed: u32,
    /// Why its lines are not attributed, when they are not (binary, unreadable).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// An intent's part of the range.
#[derive(Debug, Clone, Serialize)]
pub struct IntentReview {
    /// `INT-001`.
    pub id: String,
    /// Its name, from the specs (empty when the specs no longer list it).
    pub name: String,
    /// Its status in the specs.
    pub status: String,
    /// Its acceptance criteria.
    pub acceptance_criteria: Vec<String>,
    /// Its changes, in file order.
    pub changes: Vec<Change>,
}

/// A run of new lines with one story: same block, same newest change.
#[derive(Debug, Clone, Serialize)]
pub struct Change {
    /// File.
    pub path: String,
    /// First line (1-based, in HEAD).
    pub start: u32,
    /// Last line.
    pub end: u32,
    /// The innermost block holding them, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block: Option<String>,
    /// `behaviour`, `refactor` or `untraced`.
    pub class: &'static str,
    /// What the change did (`behaviour`, `rename`, `move`, `reformat`, …).
    pub labels: Vec<String>,
    /// The intent it was made under.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub intent_id: Option<String>,
    /// Whether the path is inside that intent's `owned_scope` (`None`: no intent,
    /// or the specs no longer list it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub in_scope: Option<bool>,
    /// Agent session.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// Front-end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub front_end: Option<String>,
    /// Model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The prompt that started the turn, when recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    /// The trace event.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace_id: Option<String>,
    /// The ledger it is recorded in, when it is another clone's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ledger: Option<String>,
}

/// Something a reviewer should look at first.
#[derive(Debug, Clone, Serialize)]
pub struct Attention {
    /// `behaviour`, `untraced`, `outside-scope`, `violation` or `named-by-criteria`.
    pub kind: &'static str,
    /// File.
    pub path: String,
    /// First line.
    pub start: u32,
    /// Last line.
    pub end: u32,
    /// One sentence.
    pub reason: String,
}

/// A commit as its first 12 hex digits (`working tree` as is).
pub(crate) fn short(commit: &str) -> &str {
    if commit.len() >= 40 && commit.bytes().all(|b| b.is_ascii_hexdigit()) {
        &commit[..12]
    } else {
        commit
    }
}

/// Runs `intent review`.
pub fn run(config: &Config, args: ReviewArgs) -> anyhow::Result<u8> {
    config.require_ledger()?;
    let review = build(config, args.range.as_deref())?;
    if let Some(path) = &args.html {
        let page = html::page(&review, config.workspace.root());
        intent_ledger::atomic::write(path, page.as_bytes(), intent_ledger::atomic::Sync::No)
            .map_err(|e| anyhow::anyhow!("write {}: {e}", path.display()))?;
        crate::say::note(&format!("review: wrote {}", path.display()));
    }
    if args.check {
        return check::run(config, &review);
    }
    if config.json() {
        println!("{}", serde_json::to_string(&review)?);
    } else if args.markdown {
        print!("{}", render::markdown(&review));
    } else {
        print!("{}", render::text(&review));
    }
    Ok(exit::OK)
}

/// Reviews `range` (see [`ReviewArgs::range`]).
pub fn build(config: &Config, range: Option<&str>) -> anyhow::Result<Review> {
    let workspace = &config.workspace;
    let root = workspace.root();
    let (base, head) = resolve_range(root, range)?;
    let files = diff::diff(root, &base, head.as_deref())?;
    if let Some(head) = &head {
        // Lines are attributed as the working tree has them.
        let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
        let mut args = vec!["diff", "--quiet", head.as_str(), "--"];
        args.extend(paths.iter().copied());
        if !paths.is_empty() && git::run(root, &args).is_err() {
            anyhow::bail!(
                "the working tree differs from {head} in the files of the range: check out \
                 {head} (review reads the lines as the working tree has them), or review up \
                 to the working tree with `intent review {base}`"
            );
        }
    }
    let specs = SpecDocument::load(&workspace.specs_path()).ok();
    let mut review = Review {
        base: base.clone(),
        head: head.unwrap_or_else(|| "working tree".to_string()),
        files: Vec::new(),
        intents: Vec::new(),
        untraced: Vec::new(),
        violations: Vec::new(),
        attention: Vec::new(),
    };
    let mut by_intent: BTreeMap<String, Vec<Change>> = BTreeMap::new();
    for file in &files {
        let mut summary = FileSummary {
            path: file.path.clone(),
            from: file.from.clone(),
            added: file.added,
            removed: file.removed,
            note: None,
        };
        if file.binary {
            summary.note = Some("binary: no lines to attribute".to_string());
        } else if !file.runs.is_empty() {
            match changes_of(config, file, specs.as_ref()) {
                Ok(changes) => {
                    for change in changes {
                        match &change.intent_id {
                            Some(id) if change.class != "untraced" => {
                                by_intent.entry(id.clone()).or_default().push(change)
                            }
                            _ => review.untraced.push(change),
                        }
                    }
                }
                Err(err) => summary.note = Some(format!("not attributed: {err:#}")),
            }
        }
        review.files.push(summary);
    }
    for (id, changes) in by_intent {
        let spec = specs.as_ref().and_then(|s| s.intent(&id));
        review.intents.push(IntentReview {
            name: spec.map(|s| s.name.clone()).unwrap_or_default(),
            status: spec.map(|s| s.status.clone()).unwrap_or_default(),
            acceptance_criteria: spec
                .map(|s| s.acceptance_criteria.clone())
                .unwrap_or_default(),
            id,
            changes,
        });
    }
    let paths = review.files.iter().map(|f| f.path.as_str()).collect();
    review.violations = violations::recorded(config, &base, &paths)?;
    review.attention = attention(&review);
    Ok(review)
}

/// `(base commit, head commit or None for the working tree)`.
fn resolve_range(root: &Path, range: Option<&str>) -> anyhow::Result<(String, Option<String>)> {
    let commit = |name: &str| {
        git::resolve(root, &format!("{name}^{{commit}}")).ok_or_else(|| {
            anyhow::anyhow!("{name:?} is not a commit here (`git log --oneline` lists them)")
        })
    };
    match range {
        Some(range) => match range.split_once("..") {
            Some((base, head)) => {
                let head = if head.is_empty() { "HEAD" } else { head };
                let head = commit(head)?;
                let current = commit("HEAD")?;
                if head != current {
                    anyhow::bail!(
                        "{range}: HEAD must be the commit checked out ({}); review reads \
                         lines as the working tree has them",
                        &current[..12.min(current.len())]
                    );
                }
                Ok((commit(base)?, Some(head)))
            }
            None => Ok((commit(range)?, None)),
        },
        None => {
            let default = default_branch(root).ok_or_else(|| {
                anyhow::anyhow!(
                    "no default branch found (origin/HEAD, main or master): name the base, \
                     e.g. `intent review main..HEAD`"
                )
            })?;
            let base = git::run(root, &["merge-base", &default, "HEAD"])
                .map_err(|e| anyhow::anyhow!("no merge base with {default}: {e:#}"))?;
            Ok((base, None))
        }
    }
}

/// The default branch: `origin/HEAD`'s target, else `main`, else `master`.
fn default_branch(root: &Path) -> Option<String> {
    if let Ok(target) = git::run(
        root,
        &["symbolic-ref", "--quiet", "refs/remotes/origin/HEAD"],
    ) {
        if let Some(name) = target.strip_prefix("refs/remotes/") {
            return Some(name.to_string());
        }
    }
    ["main", "master"]
        .into_iter()
        .find(|b| git::resolve(root, &format!("refs/heads/{b}")).is_some())
        .map(str::to_string)
}

/// The runs of `file`'s new lines, each with its story.
fn changes_of(
    config: &Config,
    file: &diff::FileDiff,
    specs: Option<&SpecDocument>,
) -> anyhow::Result<Vec<Change>> {
    let workspace = &config.workspace;
    let absolute = workspace.root().join(&file.path);
    let absolute = absolute.to_string_lossy();
    let blame = crate::union::blame(workspace, &absolute)?;
    let mut out = Vec::new();
    for &(first, last) in &file.runs {
        let lines: Vec<&BlameLine> = blame
            .lines
            .iter()
            .filter(|l| (first..=last).contains(&l.line))
            .collect();
        for group in lines.chunk_by(|a, b| same_story(a, b)) {
            let (head, tail) = (group[0], group[group.len() - 1]);
            let mut change = Change {
                path: file.path.clone(),
                start: head.line,
                end: tail.line,
                block: head.block.as_ref().map(|b| b.name.clone()),
                class: "untraced",
                labels: Vec::new(),
                intent_id: None,
                in_scope: None,
                session: None,
                front_end: None,
                model: None,
                prompt: None,
                trace_id: None,
                ledger: head.ledger.clone(),
            };
            if head.level != "none" && !head.outside_ledger {
                let target = Target::Line(absolute.to_string(), head.line);
                let why = crate::union::why(workspace, &target)?;
                if let Some(last) = why.last_touched {
                    change.class = if last.behaviour {
                        "behaviour"
                    } else {
                        "refactor"
                    };
                    change.labels = last.labels;
                    change.in_scope = last.intent_id.as_deref().and_then(|id| {
                        let spec = specs?.intent(id)?;
                        let scope = ScopeMatcher::new(&spec.owned_scope).ok()?;
                        Some(scope.is_match(&file.path))
                    });
                    change.intent_id = last.intent_id;
                    change.session = last.session;
                    change.front_end = last.front_end;
                    change.model = last.model;
                    change.prompt = last.prompt;
                    change.trace_id = Some(last.trace_id);
                }
            }
            out.push(change);
        }
    }
    Ok(out)
}

/// Whether two lines of `blame` tell the same story (same block, same change).
fn same_story(a: &BlameLine, b: &BlameLine) -> bool {
    a.block.as_ref().map(|b| (&b.name, b.start_line))
        == b.block.as_ref().map(|b| (&b.name, b.start_line))
        && a.seq == b.seq
        && a.ledger == b.ledger
        && a.level == b.level
        && a.outside_ledger == b.outside_ledger
        && a.line + 1 == b.line
}

/// What needs a human's eyes first: behaviour changes, untraced lines, changes
/// outside their intent's scope, files an intent's acceptance criteria name.
fn attention(review: &Review) -> Vec<Attention> {
    let mut out = Vec::new();
    for intent in &review.intents {
        for c in &intent.changes {
            let at = |kind, reason: String| Attention {
                kind,
                path: c.path.clone(),
                start: c.start,
                end: c.end,
                reason,
            };
            // A person who accepted the recorded scope violation of these lines
            // accepted their being outside the scope.
            let accepted = review.violations.iter().any(|v| {
                v.path == c.path
                    && v.kind == "scope_violation"
                    && v.accepted.is_some()
                    && (v.intent_id.is_none() || v.intent_id == c.intent_id)
            });
            if c.in_scope == Some(false) && !accepted {
                out.push(at(
                    "outside-scope",
                    format!("outside {}'s owned_scope", intent.id),
                ));
            }
            if c.class == "behaviour" {
                let block = c
                    .block
                    .as_deref()
                    .map_or(String::new(), |b| format!(" ({b})"));
                out.push(at(
                    "behaviour",
                    format!("behaviour change under {}{block}", intent.id),
                ));
            }
        }
        let named: Vec<&Change> = intent
            .changes
            .iter()
            .filter(|c| {
                let name = c.path.rsplit('/').next().unwrap_or(&c.path);
                intent
                    .acceptance_criteria
                    .iter()
                    .any(|a| a.contains(&c.path) || a.contains(name))
            })
            .collect();
        if let Some(first) = named.first() {
            out.push(Attention {
                kind: "named-by-criteria",
                path: first.path.clone(),
                start: first.start,
                end: first.end,
                reason: format!("{}'s acceptance criteria name this file", intent.id),
            });
        }
    }
    for c in &review.untraced {
        out.push(Attention {
            kind: "untraced",
            path: c.path.clone(),
            start: c.start,
            end: c.end,
            reason: "no traced write made these lines as they are (a human's edit, or an \
                     agent's the ledger did not see)"
                .to_string(),
        });
    }
    for v in review.violations.iter().filter(|v| v.accepted.is_none()) {
        let (start, end) = review
            .intents
            .iter()
            .flat_map(|i| &i.changes)
            .chain(&review.untraced)
            .filter(|c| c.path == v.path)
            .fold((0, 0), |(s, e), c| {
                (if s == 0 { c.start } else { s.min(c.start) }, e.max(c.end))
            });
        let by = v
            .session
            .as_deref()
            .map_or(String::new(), |s| format!(" by session {s}"));
        let under = v
            .intent_id
            .as_deref()
            .map_or(String::new(), |i| format!(" under {i}"));
        out.push(Attention {
            kind: "violation",
            path: v.path.clone(),
            start,
            end,
            reason: format!(
                "a {} was recorded{by}{under} (seq {}, event {})",
                v.kind, v.seq, v.event_id
            ),
        });
    }
    out.sort_by(|a, b| (&a.path, a.start, a.kind).cmp(&(&b.path, b.start, b.kind)));
    out
}
