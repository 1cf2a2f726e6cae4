//! AST classification of writes, a whole agent turn at a time.
//!
//! Every write of one turn (same session and prompt id) is classified together, so a
//! declaration moved from one file to another in the same turn is a move, not a
//! delete plus an add. Hook processes are separate, so the turn's "before" texts
//! live in `.orchestration/.cache/turns/` (derived data, gitignored, removed when the
//! session's next prompt starts a new turn).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use intent_ast_hash::{
    analyze_turn_with, BlockMatch, BlockRef, FileAnalysis, LineageEvent, Prepared, SourceFile,
    TurnAnalysis,
};

use super::shell::MAX_TURN_AST_FILES;
use super::taken_lines::taken_lines;
use super::touched::Touched;
use super::{analysis_cache, label};
use intent_ledger::payload::{BlockOrigin, BlockSide, Classification, TraceBlock};
use intent_ledger::Workspace;
use serde_json::{json, Value};

use crate::Hook;

/// Files larger than this are classified by text rules only.
pub(super) const MAX_AST_BYTES: usize = 2 * 1024 * 1024;

/// What the turn's files looked like before the turn: `Some(text)` for an existing
/// text file, `None` for a file the turn created. Files whose old text is unknown
/// are kept out (text rules decide them).
type TurnBefore = BTreeMap<String, Option<String>>;

/// A turn file: whose turn it is, and the turn's files as they were before it.
#[derive(serde::Serialize, serde::Deserialize)]
struct StoredTurn {
    session: String,
    files: TurnBefore,
}

fn turn_path(workspace: &Workspace, session: &str, turn: &str) -> PathBuf {
    let key = blake3::hash(format!("{session}\n{turn}").as_bytes()).to_hex();
    workspace
        .cache_dir()
        .join("turns")
        .join(format!("{}.json", &key[..32]))
}

/// Forgets a session's finished turns (called when a new prompt starts one).
pub fn forget_turns(workspace: &Workspace, session: &str, keep_turn: Option<&str>) {
    let dir = workspace.cache_dir().join("turns");
    let keep = keep_turn.map(|t| turn_path(workspace, session, t));
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    let prefix = format!("{session}\n");
    for entry in entries.flatten() {
        let path = entry.path();
        if Some(&path) == keep.as_ref() {
            continue;
        }
        // Turn files are named by hash; read the owner from the file itself.
        let owner = std::fs::read(&path)
            .ok()
            .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
            .and_then(|v| v["session"].as_str().map(|s| format!("{s}\n")));
        if owner.as_deref() == Some(prefix.as_str()) {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// The AST part of a trace: the turn-level classification and this file's blocks.
#[derive(Debug, Clone)]
pub struct AstTrace {
    /// `AST_REFACTOR` or `INTENT_EVOLUTION`, for the whole turn.
    pub mutation_class: &'static str,
    /// `classification` object for the trace.
    pub classification: Classification,
    /// The turn's changed blocks of this file that this write touched.
    pub blocks: Vec<TraceBlock>,
    /// The full classification, for declared-class comparison.
    pub declared_mismatch: Option<String>,
}

/// One written file, as the classifier needs it.
#[derive(Debug, Clone, Copy)]
pub struct WrittenFile<'a> {
    /// Workspace-relative path.
    pub rel: &'a str,
    /// Content before the write; `None` when created, or unknown when `existed`.
    pub before: Option<&'a [u8]>,
    /// Whether the file existed before the write.
    pub existed: bool,
    /// The class the agent declared, if any.
    pub declared: Option<&'a str>,
}

/// Classifies the turn `turn` of `session` after a write of `file`, the hook
/// `hook`'s. `None` when the file cannot be parsed as text (binary, too large, old
/// content unknown).
pub fn classify_write(
    workspace: &Workspace,
    root: &Path,
    session: &str,
    turn: &str,
    file: WrittenFile<'_>,
    prepared: &mut Prepared,
    hook: &mut Hook,
) -> Option<AstTrace> {
    let WrittenFile {
        rel,
        before,
        existed,
        declared,
    } = file;
    let path = turn_path(workspace, session, turn);
    let mut stored = load_turn(&path, session);
    // The file is rewritten only when the turn meets a new file.
    if !stored.files.contains_key(rel) {
        let entry = turn_entry(before, existed)?;
        stored.files.insert(rel.to_string(), entry);
        save_turn(&path, &stored);
    }
    let files = stored.files;
    hook.timings.mark("load turn");
    let analysis = analyze_stored_turn(workspace, root, &files, prepared, hook)?;
    let touched = Touched::of(workspace, hook.resident(), prepared, &analysis, &file);
    let summary = summarize(&analysis, &[(rel, touched)], files.len(), declared).pop();
    hook.timings.mark("summarize");
    summary
}

/// Classifies the files one command wrote (a shell command's: many at once) with
/// the rest of the turn, in one analysis: each file is parsed once, and the traces
/// it yields carry only their own file's part of the verdict. Files the turn does
/// not take get `None` (text rules decide them): when it already holds
/// [`MAX_TURN_AST_FILES`] files, or when a file's old content is unknown or not
/// text.
pub fn classify_batch(
    workspace: &Workspace,
    root: &Path,
    session: &str,
    turn: &str,
    files: &[WrittenFile<'_>],
    prepared: &mut Prepared,
    hook: &mut Hook,
) -> Vec<Option<AstTrace>> {
    let path = turn_path(workspace, session, turn);
    let mut stored = load_turn(&path, session);
    let mut taken = vec![false; files.len()];
    let mut grew = false;
    for (index, file) in files.iter().enumerate() {
        if stored.files.contains_key(file.rel) {
            taken[index] = true;
            continue;
        }
        if stored.files.len() >= MAX_TURN_AST_FILES {
            continue;
        }
        if let Some(entry) = turn_entry(file.before, file.existed) {
            stored.files.insert(file.rel.to_string(), entry);
            taken[index] = true;
            grew = true;
        }
    }
    if grew {
        save_turn(&path, &stored);
    }
    if !taken.contains(&true) {
        return vec![None; files.len()];
    }
    let declared = files.iter().find_map(|f| f.declared);
    let Some(analysis) = analyze_stored_turn(workspace, root, &stored.files, prepared, hook) else {
        return vec![None; files.len()];
    };
    let rels: Vec<(&str, Option<Touched>)> = files
        .iter()
        .zip(&taken)
        .filter(|(_, taken)| **taken)
        .map(|(f, _)| {
            let touched = Touched::of(workspace, hook.resident(), prepared, &analysis, f);
            (f.rel, touched)
        })
        .collect();
    let mut summaries = summarize(&analysis, &rels, stored.files.len(), declared).into_iter();
    taken
        .iter()
        .map(|taken| if *taken { summaries.next() } else { None })
        .collect()
}

fn load_turn(path: &Path, session: &str) -> StoredTurn {
    std::fs::read(path)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_else(|| StoredTurn {
            session: session.to_string(),
            files: TurnBefore::new(),
        })
}

fn save_turn(path: &Path, stored: &StoredTurn) {
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    if let Ok(bytes) = serde_json::to_vec(stored) {
        let _ = std::fs::write(path, bytes);
    }
}

/// What the turn keeps of a file it meets: its old text, `None` for a new file;
/// no entry when the old content is unknown, binary or too large.
fn turn_entry(before: Option<&[u8]>, existed: bool) -> Option<Option<String>> {
    match before {
        Some(bytes) if bytes.len() <= MAX_AST_BYTES => {
            Some(Some(std::str::from_utf8(bytes).ok()?.to_string()))
        }
        Some(_) => None,
        None if existed => None,
        None => Some(None),
    }
}

/// Analyzes the turn's files, before and as they are now. `None` when one of them
/// became binary or too large.
fn analyze_stored_turn(
    workspace: &Workspace,
    root: &Path,
    files: &TurnBefore,
    prepared: &mut Prepared,
    hook: &mut Hook,
) -> Option<TurnAnalysis> {
    let before_files: Vec<SourceFile> = files
        .iter()
        .filter_map(|(p, text)| text.as_ref().map(|t| SourceFile::new(p.clone(), t.clone())))
        .collect();
    let mut after_files = Vec::new();
    for p in files.keys() {
        match std::fs::read(root.join(p)) {
            Ok(bytes) if bytes.len() <= MAX_AST_BYTES => {
                after_files.push(SourceFile::new(p.clone(), String::from_utf8(bytes).ok()?));
            }
            Ok(_) => return None,
            Err(_) => {} // deleted in this turn
        }
    }
    // The turn's other files were analyzed by earlier hooks: restore those, parse
    // (and keep) only what no hook has seen.
    // The field, not `hook.resident()`: the timings are marked meanwhile.
    let resident = hook.resident.as_deref();
    let mut restore = |files: &[SourceFile]| -> Vec<usize> {
        let mut fresh = Vec::new();
        for (index, file) in files.iter().enumerate() {
            if prepared.get(file).is_none() {
                if let Some(resident) = resident {
                    let analysis = analysis_cache::analyze_resident(resident, workspace, file);
                    prepared.insert(file, analysis);
                    continue;
                }
                match analysis_cache::load(workspace, file) {
                    Some(analysis) => prepared.insert(file, analysis),
                    None => fresh.push(index),
                }
            }
        }
        fresh
    };
    hook.timings.mark("read turn files");
    let (fresh_before, fresh_after) = (restore(&before_files), restore(&after_files));
    hook.timings.mark("restore analyses");
    let analysis = analyze_turn_with(&before_files, &after_files, prepared);
    hook.timings.mark("analyze turn");
    let made = fresh_before.iter().filter_map(|&i| analysis.before.get(i));
    for made in made.chain(fresh_after.iter().filter_map(|&i| analysis.after.get(i))) {
        analysis_cache::store(workspace, made);
    }
    hook.timings.mark("store analyses");
    Some(analysis)
}

/// API changes of one file listed in a trace (the count says how many there were).
const LISTED_API_CHANGES: usize = 20;
/// Parse errors of one side of one file listed in a trace (with their count).
const LISTED_PARSE_ERRORS: usize = 3;

/// One [`AstTrace`] per path of `rels`. The turn's class and reason are shared;
/// the lists (API changes, parse errors, text rulings, blocks) are each file's own,
/// so a trace's size does not grow with the turn (`turn_files` and
/// `turn_api_changes` count the whole turn); its blocks are those of the turn's
/// changes that this write touched (all of them when that is unknown).
fn summarize(
    analysis: &TurnAnalysis,
    rels: &[(&str, Option<Touched>)],
    turn_files: usize,
    declared: Option<&str>,
) -> Vec<AstTrace> {
    let c = &analysis.classification;
    let origins =
        intent_ast_hash::find_origins(&analysis.before, &analysis.after, &analysis.matches);
    let mut origins_by_target: HashMap<usize, Vec<&intent_ast_hash::Origin>> = HashMap::new();
    for origin in &origins {
        origins_by_target
            .entry(origin.target)
            .or_default()
            .push(origin);
    }
    // Changed blocks by path, either side, in match order.
    let mut by_path: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, m) in analysis.matches.iter().enumerate() {
        if m.event == LineageEvent::Unchanged {
            continue;
        }
        let after = m.after.as_ref().map(|r| r.path.as_str());
        let before = m.before.as_ref().map(|r| r.path.as_str());
        if let Some(path) = after {
            by_path.entry(path).or_default().push(i);
        }
        if let Some(path) = before.filter(|b| Some(*b) != after) {
            by_path.entry(path).or_default().push(i);
        }
    }
    // A block that took code from a block of another file is listed in that
    // file's trace too: when the donor's file is written last, only its trace
    // sees the split or merge.
    for origin in &origins {
        if analysis.matches[origin.target].event != LineageEvent::Unchanged {
            by_path
                .entry(origin.from.path.as_str())
                .or_default()
                .push(origin.target);
        }
    }
    let mismatch = declared.and_then(|d| c.declared_mismatch(d));
    rels.iter()
        .map(|(rel, touched)| {
            let mut detail = serde_json::Map::new();
            let mut put = |key: &str, value: Value| detail.insert(key.to_string(), value);
            // A trace carries the first few of a file's API changes and parse errors
            // and how many there were: a file that never parses (a grammar gap) would
            // otherwise repeat hundreds of errors in every trace of every write.
            let api: Vec<_> = c.api_changes.iter().filter(|a| a.path == *rel).collect();
            if api.len() > LISTED_API_CHANGES {
                put("api_change_count", json!(api.len()));
            }
            put("api_changes", json!(&api[..api.len().min(LISTED_API_CHANGES)]));
            let errors: Vec<Value> = c
                .parse_errors
                .iter()
                .filter(|e| e.path == *rel)
                .map(|e| {
                    let shown = &e.errors[..e.errors.len().min(LISTED_PARSE_ERRORS)];
                    json!({"path": e.path, "side": e.side, "errors": shown, "error_count": e.errors.len()})
                })
                .collect();
            put("parse_errors", Value::Array(errors));
            put(
                "text_files",
                json!(c
                    .text_files
                    .iter()
                    .filter(|t| t.path == *rel || t.from.as_deref() == Some(*rel))
                    .collect::<Vec<_>>()),
            );
            put("turn_files", json!(turn_files));
            put("turn_api_changes", json!(c.api_changes.len()));
            put("scheme", json!(intent_ast_hash::SCHEME_VERSION));
            let classification = Classification {
                method: label(&c.method),
                reason: Some(c.reason.clone()),
                refactor_kinds: Some(c.refactor_kinds.iter().map(label).collect()),
                extra: detail,
                ..Classification::default()
            };
            let mut indexes = by_path.get(rel).cloned().unwrap_or_default();
            indexes.sort_unstable();
            indexes.dedup();
            if let Some(touched) = touched {
                indexes.retain(|&i| {
                    let from = origins_by_target.get(&i).map_or(&[][..], Vec::as_slice);
                    touched.touches(analysis, &analysis.matches[i], from)
                });
            }
            let blocks: Vec<TraceBlock> = indexes
                .into_iter()
                .map(|i| {
                    let mut entry = trace_block(analysis, &analysis.matches[i]);
                    let from: Vec<BlockOrigin> = origins_by_target
                        .get(&i)
                        .into_iter()
                        .flatten()
                        .map(|o| {
                            let file = &analysis.before[o.from.file];
                            BlockOrigin {
                                kind: label(&o.kind),
                                path: o.from.path.clone(),
                                name: o.from.qualified_name.clone(),
                                key: Some(file.block_key(o.from.block)),
                                share: (o.share * 100.0).round() / 100.0,
                                id: None,
                                lines: origin_lines(analysis, o),
                                extra: Default::default(),
                            }
                        })
                        .collect();
                    if !from.is_empty() {
                        entry.origins = Some(from);
                    }
                    entry
                })
                .collect();
            AstTrace {
                mutation_class: c.mutation_class.as_str(),
                classification,
                blocks,
                declared_mismatch: mismatch.clone(),
            }
        })
        .collect()
}

/// The lines of `r` (a block of `files`), as a line reader sees them.
fn ref_lines<'a>(files: &'a [FileAnalysis], r: &BlockRef) -> Vec<&'a str> {
    let (start, end) = (r.lines.start.max(1) as usize, r.lines.end as usize);
    files[r.file]
        .text()
        .lines()
        .skip(start - 1)
        .take((end + 1).saturating_sub(start))
        .collect()
}

/// Which lines of an origin's receiver came from its donor (see [`taken_lines`]).
fn origin_lines(analysis: &TurnAnalysis, o: &intent_ast_hash::Origin) -> Option<String> {
    let receiver = &analysis.matches[o.target];
    let donor_after = analysis
        .matches
        .iter()
        .find(|m| {
            m.before
                .as_ref()
                .is_some_and(|b| b.file == o.from.file && b.block == o.from.block)
        })
        .and_then(|m| m.after.as_ref())
        .map(|a| ref_lines(&analysis.after, a))
        .unwrap_or_default();
    let receiver_before = receiver
        .before
        .as_ref()
        .map(|b| ref_lines(&analysis.before, b))
        .unwrap_or_default();
    taken_lines(
        &ref_lines(&analysis.before, &o.from),
        &donor_after,
        &ref_lines(&analysis.after, receiver.after.as_ref()?),
        &receiver_before,
    )
}

fn trace_block(analysis: &TurnAnalysis, m: &BlockMatch) -> TraceBlock {
    let side = |files: &[intent_ast_hash::FileAnalysis], r: &intent_ast_hash::BlockRef| {
        let file = &files[r.file];
        let block = &file.blocks[r.block];
        BlockSide {
            path: r.path.clone(),
            kind: label(&r.kind),
            name: r.qualified_name.clone(),
            key: Some(file.block_key(r.block)),
            start_line: r.lines.start,
            end_line: r.lines.end,
            exact: label(&block.hashes.exact),
            alpha: label(&block.hashes.alpha),
            shape: label(&block.hashes.shape),
            text: Some(label(&file.block_text_hash(block))),
            extra: Default::default(),
        }
    };
    TraceBlock {
        event: label(&m.event),
        matched_by: m.matched_by.as_ref().map(label),
        change: Some(
            change_labels(analysis, m)
                .into_iter()
                .map(str::to_string)
                .collect(),
        ),
        behaviour: Some(m.modified),
        before: m.before.as_ref().map(|r| side(&analysis.before, r)),
        after: m.after.as_ref().map(|r| side(&analysis.after, r)),
        origins: None,
        id: None,
        extra: Default::default(),
    }
}

/// What a write did to one block, as labels: `behaviour` when its alpha hash changed
/// (or it was created or deleted), else the refactor kinds it underwent: `rename`,
/// `move`, `reorder`, `rename-local`, `reformat` (whitespace only) or `trivia`
/// (comments, pragmas, quotes or punctuation: text the hashes ignore).
fn change_labels(analysis: &TurnAnalysis, m: &BlockMatch) -> Vec<&'static str> {
    let (Some(b), Some(a)) = (&m.before, &m.after) else {
        return vec!["behaviour"];
    };
    let mut labels = Vec::new();
    if m.modified {
        labels.push("behaviour");
    }
    if m.renamed {
        labels.push("rename");
    }
    if m.moved {
        labels.push(if b.path == a.path { "reorder" } else { "move" });
    }
    if m.retokened && !m.modified {
        labels.push("rename-local");
    }
    if !m.retokened && m.retexted {
        let text = |files: &[intent_ast_hash::FileAnalysis], r: &intent_ast_hash::BlockRef| {
            let file = &files[r.file];
            file.block_lines_text(&file.blocks[r.block])
                .split_whitespace()
                .collect::<String>()
        };
        let same_but_space = text(&analysis.before, b) == text(&analysis.after, a);
        labels.push(if same_but_space { "reformat" } else { "trivia" });
    }
    labels
}
