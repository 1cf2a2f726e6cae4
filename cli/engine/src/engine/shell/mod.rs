//! What a shell command changed, found after the fact at bounded cost, in git and
//! non-git workspaces alike.
//!
//! PreToolUse of a command the gate let through (and did not find read-only) saves
//! a *baseline*: a stat snapshot of the whole workspace (see [`snapshot`]: ignored
//! and hidden files included, `.git/` internals and Intent Ledger's own caches
//! left out), plus what a stat cannot say: in a git workspace, HEAD's revision and
//! the hashes of tracked files that already differed from it; the hashes of the
//! protected files; where the ledger ended; the repository's `config`.
//! It lives in `.orchestration/.cache/shell/<tool_use_id>.bin` (binary, paths
//! prefix-compressed: about 50 bytes a file) and is taken after the ledger lock is
//! released, just before the front-end runs the command.
//!
//! PostToolUse walks again, compares stats, and only for the paths whose stats moved
//! reads contents: the old content of a tracked file comes from the baseline's
//! revision through one `git cat-file --batch` for all of them; a file already dirty
//! keeps the hash the baseline recorded; an untracked or ignored file that existed
//! has no known old content (the hook then uses the last hash a session saw). All of
//! it runs before the hook takes the ledger lock ([`analyse`]); under the lock the
//! engine only judges the paths against the session's intent and appends.
//!
//! Bounds, per command: [`snapshot::MAX_ENTRIES`] entries walked per snapshot (the
//! event says when the cap was hit); [`MAX_TRACED`] files traced, holding at most
//! [`MAX_HASHED_BYTES`] (the others are counted as untraced, and still judged;
//! files over 4 MiB are hashed as a stream, not diffed); [`MAX_AST_FILES`] files
//! and [`MAX_AST_TOTAL_BYTES`] of text analysed with tree-sitter, while the turn
//! holds fewer than [`MAX_TURN_AST_FILES`] (the others get text-rule traces: hashes
//! and changed line ranges, and `classification.ast_skipped` says why).

mod baseline;
mod git;
pub mod snapshot;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use intent_ast_hash::{Prepared, SourceFile};
use intent_gate::{bytes_sha256, file_sha256};
use intent_ledger::workspace::LedgerLocation;
use intent_ledger::Workspace;
use serde_json::{json, Value};

use super::trace::{self, FileTrace};
use super::{analysis_cache, texts};
use baseline::Baseline;
pub use snapshot::Difference;
use snapshot::Stat;

/// Most files one command gets `trace` events for; beyond, they are counted in the
/// `tool.post` event (and still judged).
pub const MAX_TRACED: usize = 5000;
/// Most files of one command analysed with tree-sitter (with the turn's other
/// files); the rest are traced by text rules. See the README for the measurements.
pub const MAX_AST_FILES: usize = 128;
/// A command's files join the turn's AST classification only while the turn holds
/// fewer files than this: the turn is analysed whole on every write, so this bounds
/// the work of a turn's later commands.
pub const MAX_TURN_AST_FILES: usize = 512;
/// Most bytes of old and new text one command gets analysed with tree-sitter.
pub const MAX_AST_TOTAL_BYTES: usize = 4 * 1024 * 1024;
/// Most dirty tracked files hashed for a baseline.
const MAX_DIRTY_HASHED: usize = 2000;
/// Most racily clean files hashed for a baseline (beyond, such a file counts as
/// changed).
const MAX_RACY_HASHED: usize = 512;
/// Most protected files hashed for a baseline.
const MAX_PROTECTED_HASHED: usize = 512;
/// Contents larger than this are hashed, not kept or diffed.
const MAX_TEXT_BYTES: usize = 4 * 1024 * 1024;
/// Committed contents larger than this are not read (their old hash is unknown).
const MAX_COMMITTED_BYTES: usize = 64 * 1024 * 1024;
/// Most bytes of changed files one command gets hashed; the files beyond are
/// counted as untraced (and still judged).
pub const MAX_HASHED_BYTES: u64 = 512 * 1024 * 1024;
/// Files larger than this are not parsed.
const MAX_AST_BYTES: usize = 2 * 1024 * 1024;
/// A repository `config` larger than this is not kept in a baseline (its check is
/// skipped).
const MAX_GIT_CONFIG_BYTES: usize = 1024 * 1024;
/// Snapshot path of the ledger, which hooks append to while commands run: in the
/// git common directory (labelled `.git/…`), or in `.orchestration/` without git.
fn ledger_label(workspace: &Workspace) -> &'static str {
    match workspace.ledger_location() {
        LedgerLocation::GitCommonDir => ".git/intent/agent_trace.jsonl",
        _ => ".orchestration/agent_trace.jsonl",
    }
}

/// Why a change of `rel` is a protected change, if it is one: the gate's list of
/// what no agent may write (Intent Ledger's data, git's internals, the front-ends'
/// hook and MCP configuration).
pub fn protected(rel: &str) -> Option<&'static str> {
    intent_gate::protected::protected(rel, false)
}

fn baseline_dir(workspace: &Workspace) -> PathBuf {
    workspace.cache_dir().join("shell")
}

fn baseline_path(workspace: &Workspace, use_id: &str) -> PathBuf {
    let safe: String = use_id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    baseline_dir(workspace).join(format!("{safe}.bin"))
}

/// Saves the baseline for the command `use_id` is about to run. Best effort: without
/// it, PostToolUse records that nothing could be detected.
pub fn save_baseline(workspace: &Workspace, root: &Path, use_id: &str) {
    let ledger_rel = ledger_label(workspace);
    let repo = git::discover(root);
    // git reads the index while this process walks.
    let status = repo.as_ref().map(|_| git::Status::start(root));
    let snapshot = snapshot::take(
        root,
        repo.as_ref().map(|r| r.git_dir.as_path()),
        snapshot::MAX_ENTRIES,
    );
    let mut baseline = Baseline::default();
    if let (Some(repo), Some(status)) = (&repo, status) {
        if let Some(dirty) = status.finish(&repo.prefix) {
            baseline.revision = dirty.revision;
            for (n, rel) in dirty.paths.into_iter().enumerate() {
                let hash = (n < MAX_DIRTY_HASHED)
                    .then(|| file_sha256(&root.join(&rel)).ok().flatten())
                    .flatten();
                baseline.dirty.insert(rel, hash);
            }
        }
    }
    let git_dir = repo.as_ref().map(|r| r.git_dir.as_path());
    for (rel, _) in &snapshot.entries {
        if baseline.protected.len() >= MAX_PROTECTED_HASHED {
            break;
        }
        if rel != ledger_rel && protected(rel).is_some() {
            let path = snapshot::absolute(root, git_dir, rel);
            if let Ok(Some(hash)) = file_sha256(&path) {
                baseline.protected.insert(rel.clone(), hash);
            }
        }
    }
    for (rel, stat) in &snapshot.entries {
        if baseline.racy.len() >= MAX_RACY_HASHED {
            break;
        }
        if snapshot.racy(stat) && rel != ledger_rel {
            let path = snapshot::absolute(root, git_dir, rel);
            if let Ok(Some(hash)) = file_sha256(&path) {
                baseline.racy.insert(rel.clone(), hash);
            }
        }
    }
    let ledger = workspace.ledger_path();
    if let Some(len) = Stat::read(&ledger).map(|s| s.size) {
        baseline.ledger = snapshot::tail_hash(&ledger, len).map(|h| (len, h));
    }
    baseline.git_config = git_dir
        .and_then(|dir| std::fs::read(dir.join("config")).ok())
        .filter(|b| b.len() <= MAX_GIT_CONFIG_BYTES);
    baseline.snapshot = snapshot;

    let path = baseline_path(workspace, use_id);
    let dir = baseline_dir(workspace);
    if intent_ledger::atomic::write(&path, &baseline.encode(), intent_ledger::atomic::Sync::No)
        .is_err()
    {
        return;
    }
    // Baselines of commands whose PostToolUse never came (interrupted, denied by
    // another hook) would pile up: keep the newest.
    texts::prune_oldest(&dir, 256, 128);
}

/// A changed file that is not protected.
#[derive(Debug, Clone)]
pub struct ChangedFile {
    /// Workspace-relative path.
    pub path: String,
    /// Created, modified or deleted.
    pub difference: Difference,
    /// Whether it existed before the command.
    pub existed: bool,
    /// Its trace (hashes from disk, changed ranges, text rule); `None` beyond
    /// [`MAX_TRACED`].
    pub trace: Option<FileTrace>,
    /// Whether the old content is unknown although the file existed (untracked or
    /// ignored, or beyond a cap): the engine may know its last hash.
    pub before_unknown: bool,
    /// Old content, for the files analysed with tree-sitter.
    pub before_text: Option<Vec<u8>>,
    /// Whether it is one of the files analysed with tree-sitter.
    pub ast: bool,
    /// Why a code file is not: `cap` (one command's share is used up),
    /// `before-unknown`, `not-text`.
    pub ast_skipped: Option<&'static str>,
}

/// A changed protected file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProtectedChange {
    /// Workspace-relative path (`.git/…` for the repository's own files).
    pub path: String,
    /// What it is.
    pub reason: String,
    /// Hash before, when known.
    pub before_sha256: Option<String>,
    /// Hash after; `None` when deleted.
    pub after_sha256: Option<String>,
}

/// What one command changed, analysed before the ledger lock.
#[derive(Debug, Default)]
pub struct Changes {
    /// Changed files that are not protected, sorted by path.
    pub files: Vec<ChangedFile>,
    /// Changed protected files (never traced as writes).
    pub protected: Vec<ProtectedChange>,
    /// Analyses of the tree-sitter files' old and new texts.
    pub prepared: Prepared,
    /// Walk figures and costs, for the `tool.post` event (see [`Changes::summary`]).
    stats: Value,
}

/// Work done for a shell command outside the ledger lock.
#[derive(Debug, Default)]
pub struct Outside {
    /// PostToolUse: what the command changed; `None` without a baseline.
    pub changes: Option<Changes>,
    /// PreToolUse: the tool-use id whose baseline the gate asked for, saved once
    /// the lock is released.
    pub baseline_for: Option<String>,
}

impl Outside {
    /// Does the part of a shell command's PostToolUse that needs no lock.
    pub fn before_lock(workspace: &Workspace, root: &Path, event: &super::HookEvent) -> Outside {
        let mut outside = Outside::default();
        let post = matches!(
            event.phase,
            super::Phase::PostTool | super::Phase::PostToolFailure
        );
        let shell = event.tool.as_ref().filter(|t| {
            t.handshake.is_none() && matches!(t.action, intent_gate::Action::Shell { .. })
        });
        if let (true, Some(use_id)) = (post, shell.and_then(|t| t.use_id.as_deref())) {
            outside.changes = analyse(workspace, root, use_id);
        }
        outside
    }
}

/// Compares the workspace with the baseline of `use_id` (consumed), hashes and
/// diffs what changed, and analyses the first [`MAX_AST_FILES`] code files. `None`
/// when there is no baseline.
pub fn analyse(workspace: &Workspace, root: &Path, use_id: &str) -> Option<Changes> {
    let ledger_rel = ledger_label(workspace);
    let started = Instant::now();
    let path = baseline_path(workspace, use_id);
    let bytes = std::fs::read(&path).ok()?;
    let _ = std::fs::remove_file(&path);
    let base = Baseline::decode(&bytes)?;
    let repo = git::discover(root);
    let git_dir = repo.as_ref().map(|r| r.git_dir.as_path());
    let after = snapshot::take(root, git_dir, snapshot::MAX_ENTRIES);
    let differences = snapshot::compare(root, git_dir, &base.snapshot, &after);

    let mut changes = Changes::default();
    let mut pending = Vec::new();
    for (rel, difference, old, now) in differences {
        // A racy entry with the same stats: only its content can tell.
        if old == now {
            let hash = base.racy.get(&rel);
            let path = snapshot::absolute(root, git_dir, &rel);
            if hash.is_some() && file_sha256(&path).ok().flatten().as_ref() == hash {
                continue;
            }
        }
        if rel == ledger_rel {
            if let Some(change) = ledger_rewritten(workspace, &base, now) {
                changes.protected.push(change);
            }
            continue;
        }
        if let Some(reason) = protected(&rel) {
            let after_sha256 = now
                .and_then(|_| file_sha256(&snapshot::absolute(root, git_dir, &rel)).ok())
                .flatten();
            let before_sha256 = base.protected.get(&rel).cloned();
            if before_sha256.is_some() && before_sha256 == after_sha256 {
                continue; // touched, same content
            }
            if rel == ".git/config" && only_branches_changed(&base, git_dir) {
                continue;
            }
            changes.protected.push(ProtectedChange {
                path: rel,
                reason: reason.to_string(),
                before_sha256,
                after_sha256,
            });
            continue;
        }
        pending.push((rel, difference, now));
    }

    // Old contents: the baseline's hash for files already dirty, the committed
    // content for the other tracked ones, unknown for the rest.
    let traced = pending.len().min(MAX_TRACED);
    let lookups: Vec<&str> = pending[..traced]
        .iter()
        .filter(|(rel, d, _)| *d != Difference::Created && !base.dirty.contains_key(rel))
        .map(|(rel, _, _)| rel.as_str())
        .collect();
    let committed = match (&repo, &base.revision) {
        (Some(repo), Some(revision)) => git::committed(
            root,
            repo,
            revision,
            &lookups,
            MAX_TEXT_BYTES,
            MAX_COMMITTED_BYTES,
        ),
        _ => Default::default(),
    };
    let (mut ast_files, mut ast_bytes) = (0, 0);
    let mut sources = Vec::new();
    let mut hashed = 0u64;
    for (index, (rel, difference, now)) in pending.into_iter().enumerate() {
        let existed = difference != Difference::Created;
        let mut file = ChangedFile {
            path: rel,
            difference,
            existed,
            trace: None,
            before_unknown: false,
            before_text: None,
            ast: false,
            ast_skipped: None,
        };
        hashed += now.map_or(0, |s| s.size);
        if index >= MAX_TRACED || hashed > MAX_HASHED_BYTES {
            file.before_unknown = existed;
            changes.files.push(file);
            continue;
        }
        let (before_text, before_hash) = match (existed, base.dirty.get(&file.path)) {
            (false, _) => (None, None),
            (true, Some(hash)) => {
                let text = hash.as_deref().and_then(|h| texts::load(workspace, h));
                (text, hash.clone())
            }
            (true, None) => match committed.get(&file.path) {
                Some(c) => (c.text.clone(), Some(c.hash.clone())),
                None => (None, None),
            },
        };
        file.before_unknown = existed && before_hash.is_none();
        let recorded = |hash: &str| texts::has(workspace, hash);
        let mut trace = trace_changed(
            root,
            &file.path,
            now,
            before_text.as_deref(),
            &before_hash,
            &recorded,
        );
        if trace.rule == "text:unchanged" {
            continue; // its times moved, not its content
        }
        if file.before_unknown && trace.after_sha256.is_some() {
            trace.rule = "text:before-unknown";
        }
        if intent_ast_hash::language_for_path(&file.path).is_some() {
            let bytes = before_text.as_ref().map_or(0, Vec::len)
                + Stat::read(&root.join(&file.path)).map_or(0, |s| s.size as usize);
            file.ast_skipped = if file.before_unknown {
                Some("before-unknown")
            } else if ast_files >= MAX_AST_FILES || ast_bytes + bytes > MAX_AST_TOTAL_BYTES {
                Some("cap")
            } else {
                match ast_sources(root, &file.path, before_text.as_deref()) {
                    Some((before, after)) => {
                        ast_files += 1;
                        ast_bytes += bytes;
                        file.ast = true;
                        file.before_text = before_text;
                        sources.extend(before);
                        sources.extend(after);
                        if let Some(hash) = &trace.after_sha256 {
                            texts::store(workspace, root, &file.path, hash);
                        }
                        None
                    }
                    None => Some("not-text"),
                }
            };
        }
        file.trace = Some(trace);
        changes.files.push(file);
    }
    changes.prepared = analysis_cache::prepare(workspace, &sources);
    changes.stats = json!({
        "git": base.revision.is_some(),
        "walked": after.walked,
        "truncated": base.snapshot.truncated || after.truncated,
        "baseline_walk_ms": millis(base.snapshot.elapsed),
        "analysis_ms": millis(started.elapsed()),
    });
    Some(changes)
}

impl Changes {
    /// What the `tool.post` event says of the changes: counts, caps, costs.
    pub fn summary(&self) -> serde_json::Map<String, Value> {
        let count = |f: &dyn Fn(&ChangedFile) -> bool| self.files.iter().filter(|c| f(c)).count();
        let Value::Object(mut out) = json!({
            "files": self.files.len(),
            "created": count(&|f| f.difference == Difference::Created),
            "modified": count(&|f| f.difference == Difference::Modified),
            "deleted": count(&|f| f.difference == Difference::Deleted),
            "protected": self.protected.len(),
            "traced": count(&|f| f.trace.is_some()),
            "untraced": count(&|f| f.trace.is_none()),
            "ast_files": count(&|f| f.ast),
        }) else {
            unreachable!("a JSON object literal")
        };
        if let Some(stats) = self.stats.as_object() {
            out.extend(stats.clone());
        }
        out
    }
}

fn millis(d: Duration) -> f64 {
    (d.as_secs_f64() * 1e4).round() / 10.0
}

/// Traces a changed file. Large files are hashed as a stream and not diffed, and
/// a symbolic link is traced by its target (`text:symlink`).
fn trace_changed(
    root: &Path,
    rel: &str,
    now: Option<Stat>,
    before_text: Option<&[u8]>,
    before_hash: &Option<String>,
    recorded: &dyn Fn(&str) -> bool,
) -> FileTrace {
    let hashed_only = |after_sha256: Option<String>, rule: &'static str| FileTrace {
        path: rel.to_string(),
        before_sha256: before_hash.clone(),
        after_sha256,
        ranges: Vec::new(),
        mutation_class: "INTENT_EVOLUTION",
        rule,
        lines: None,
    };
    match now {
        Some(stat) if stat.is_symlink() => {
            let target = std::fs::read_link(root.join(rel)).unwrap_or_default();
            let hash = bytes_sha256(target.as_os_str().as_encoded_bytes());
            hashed_only(Some(hash), "text:symlink")
        }
        Some(stat) if stat.size as usize > MAX_TEXT_BYTES => {
            let hash = file_sha256(&root.join(rel)).ok().flatten();
            hashed_only(hash, "text:large-file")
        }
        _ => trace::trace_file(root, rel, before_text, before_hash.clone(), recorded),
    }
}

/// The old and new text of a code file, as the analyser takes them; `None` when
/// either is binary or too large.
fn ast_sources(
    root: &Path,
    rel: &str,
    before: Option<&[u8]>,
) -> Option<(Option<SourceFile>, Option<SourceFile>)> {
    let text = |bytes: &[u8]| {
        (bytes.len() <= MAX_AST_BYTES)
            .then(|| std::str::from_utf8(bytes).ok().map(str::to_string))
            .flatten()
    };
    let before = match before {
        Some(bytes) => Some(SourceFile::new(rel, text(bytes)?)),
        None => None,
    };
    let after = match std::fs::read(root.join(rel)) {
        Ok(bytes) => Some(SourceFile::new(rel, text(&bytes)?)),
        Err(_) => None,
    };
    Some((before, after))
}

/// The ledger only grows while commands run; anything else is a rewrite.
fn ledger_rewritten(
    workspace: &Workspace,
    base: &Baseline,
    now: Option<Stat>,
) -> Option<ProtectedChange> {
    let (len, tail) = base.ledger?;
    let grew = now.is_some_and(|now| {
        now.size >= len && snapshot::tail_hash(&workspace.ledger_path(), len) == Some(tail)
    });
    (!grew).then(|| ProtectedChange {
        path: ledger_label(workspace).to_string(),
        reason: "the ledger, which may only grow, was truncated or rewritten".to_string(),
        before_sha256: None,
        after_sha256: None,
    })
}

/// Whether the repository's `config` differs from the baseline's only in
/// `[branch "…"]` sections, which `git push -u`, `git checkout -t` and the like
/// write: no setting there runs code or moves hooks.
fn only_branches_changed(base: &Baseline, git_dir: Option<&Path>) -> bool {
    let Some(before) = &base.git_config else {
        return false;
    };
    let Some(after) = git_dir.and_then(|dir| std::fs::read(dir.join("config")).ok()) else {
        return false;
    };
    let settings = |text: &[u8]| -> Vec<String> {
        let mut out = Vec::new();
        let mut in_branch = false;
        for line in String::from_utf8_lossy(text).lines() {
            let line = line.trim();
            if line.starts_with('[') {
                in_branch = line.starts_with("[branch ") || line.starts_with("[branch\t");
            }
            if !in_branch && !line.is_empty() && !line.starts_with(['#', ';']) {
                out.push(line.to_string());
            }
        }
        out
    };
    settings(before) == settings(&after)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protected_paths_are_what_a_write_could_not_touch() {
        for rel in [
            ".orchestration/active_intents.yaml",
            ".git/hooks/pre-commit",
            ".claude/settings.local.json",
            ".clinerules/hooks/PreToolUse",
            ".mcp.json",
        ] {
            assert!(protected(rel).is_some(), "{rel}");
        }
        for rel in ["src/a.ts", ".claude/agents/x.md", "docs/.mcp.json"] {
            assert!(protected(rel).is_none(), "{rel}");
        }
    }
}
