//! The block-lineage projection: every AST block ever traced, its stable identity,
//! its lineage events and its current location, one shard per path under
//! `.orchestration/.cache/lineage/`.
//!
//! `core.json` holds the stamp and, per session, the offset of its latest prompt
//! (so a trace knows the prompt that led to it). Shards are written before the core;
//! a `dirty` marker written first and removed last makes a crash in between visible,
//! and the next catch-up then rebuilds instead of applying events twice.

mod lines;
mod model;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use intent_ledger::payload::{Trace, TurnVerdict};
use intent_ledger::{kinds, Workspace};
use serde::{Deserialize, Serialize};

pub use lines::taken::Removed;
pub use lines::{LineMap, LineStory, LineWrite};
use model::{apply_trace, set_turn_class, Shards, TraceFacts};
pub use model::{BlockState, Change, FileLineage, TraceRef};

use crate::projection::{
    resume_point, scan_kinds, write_atomic, CatchUp, Progress, QueryError, Result, Stamp,
};

/// Bump when the stored shape changes: an older cache is then rebuilt.
const VERSION: u32 = 6;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
struct Core {
    version: u32,
    stamp: Stamp,
    /// Offset of each session's latest `prompt` event.
    prompts: BTreeMap<String, u64>,
    /// Turns without a verdict yet, by turn key: their latest class and the paths
    /// they wrote, so a later judgement reaches every entry of the turn.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    open_turns: BTreeMap<String, OpenTurn>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
struct OpenTurn {
    class: String,
    paths: BTreeSet<String>,
    /// Seq of its latest trace.
    seq: u64,
}

/// Open turns kept at most (sessions that end without a verdict leave theirs open).
const MAX_OPEN_TURNS: usize = 64;

/// The lineage projection of one workspace.
#[derive(Debug)]
pub struct Lineage {
    dir: PathBuf,
    core: Core,
    shards: HashMap<String, FileLineage>,
    dirty: BTreeSet<String>,
    /// Whether shards are loaded on demand from disk (false during a full rebuild).
    from_disk: bool,
}

/// The directory of the projection.
pub fn dir(workspace: &Workspace) -> PathBuf {
    workspace.projection_dir().join("lineage")
}

fn shard_file(dir: &Path, path: &str) -> PathBuf {
    let key = blake3::hash(path.as_bytes()).to_hex();
    dir.join("files").join(format!("{}.json", &key[..32]))
}

/// The shard's traces, one JSON line each, appended as they come.
fn traces_file(dir: &Path, path: &str) -> PathBuf {
    shard_file(dir, path).with_extension("traces.jsonl")
}

fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Option<T> {
    let bytes = std::fs::read(path).ok()?;
    serde_json::from_slice(&bytes).ok()
}

impl Shards for Lineage {
    fn shard(&mut self, path: &str) -> &mut FileLineage {
        self.dirty.insert(path.to_string());
        let (dir, from_disk) = (&self.dir, self.from_disk);
        self.shards.entry(path.to_string()).or_insert_with(|| {
            let stored = from_disk
                .then(|| read_json::<FileLineage>(&shard_file(dir, path)))
                .flatten();
            stored.unwrap_or_else(|| FileLineage {
                path: path.to_string(),
                ..FileLineage::default()
            })
        })
    }
}

impl Lineage {
    /// Brings the projection up to the ledger's last complete line (rebuilding it
    /// when its stamp no longer matches) and returns how that went.
    pub fn catch_up(workspace: &Workspace, progress: &dyn Progress) -> Result<CatchUp> {
        Self::update(workspace, progress, false)
    }

    /// Discards the projection and builds it again from the ledger alone.
    pub fn rebuild(workspace: &Workspace, progress: &dyn Progress) -> Result<CatchUp> {
        Self::update(workspace, progress, true)
    }

    fn update(workspace: &Workspace, progress: &dyn Progress, force: bool) -> Result<CatchUp> {
        let dir = dir(workspace);
        let ledger = workspace.ledger_path();
        if !force && up_to_date(&dir, &ledger) {
            // The usual case (and once per fetched ledger in every query): no lock.
            return Ok(CatchUp::default());
        }
        std::fs::create_dir_all(&dir).map_err(|e| QueryError::io(&dir, e))?;
        // One updater at a time; readers never need the lock (atomic renames).
        let lock_path = dir.join("lock");
        let lock = std::fs::File::create(&lock_path).map_err(|e| QueryError::io(&lock_path, e))?;
        let wait = intent_ledger::lock::command_wait();
        match intent_ledger::lock::exclusive_within(&lock, Some(wait)) {
            Ok(true) => {}
            Ok(false) => {
                return Err(QueryError::io(
                    &lock_path,
                    std::io::Error::other(format!(
                        "another process has held this lock for {} s (a stopped `intent`? \
                         `fuser {}` names it; INTENT_LOCK_WAIT_MS waits longer)",
                        wait.as_secs(),
                        lock_path.display()
                    )),
                ))
            }
            Err(e) => return Err(QueryError::io(&lock_path, e)),
        }
        let core: Option<Core> = read_json(&dir.join("core.json"))
            .filter(|c: &Core| c.version == VERSION && !dir.join("dirty").exists() && !force);
        let from = resume_point(&ledger, core.as_ref().map(|c| &c.stamp));
        let mut lineage = Lineage {
            core: match (from, core) {
                (Some(_), Some(core)) => core,
                _ => Core {
                    version: VERSION,
                    ..Core::default()
                },
            },
            dir: dir.clone(),
            shards: HashMap::new(),
            dirty: BTreeSet::new(),
            from_disk: from.is_some(),
        };
        if from.is_none() {
            let files = dir.join("files");
            if files.exists() {
                std::fs::remove_dir_all(&files).map_err(|e| QueryError::io(&files, e))?;
            }
        }
        if !ledger.exists() {
            return Ok(CatchUp::default());
        }
        let mut applied = 0;
        let stamp = scan_kinds(
            &ledger,
            from.unwrap_or(0),
            &[kinds::TRACE, kinds::PROMPT, kinds::TURN_VERDICT],
            "lineage",
            progress,
            |event, offset| {
                let session = event.session.as_deref().unwrap_or("");
                if event.kind == kinds::PROMPT {
                    lineage.core.prompts.insert(session.to_string(), offset);
                    // A new prompt ends the session's earlier turns (ledgers written
                    // before verdicts existed have none to close them).
                    let prefix = format!("{session}\n");
                    lineage
                        .core
                        .open_turns
                        .retain(|turn, _| !turn.starts_with(&prefix));
                    return Ok(());
                }
                if let Some(verdict) = event.payload::<TurnVerdict>() {
                    let turn = format!("{session}\n{}", verdict.turn);
                    lineage.judge_turn(&turn, &verdict.mutation_class, true);
                    return Ok(());
                }
                let Some(trace) = event.payload::<Trace>() else {
                    // Data that does not fit a trace (a hand-made line): kept in the
                    // ledger, not part of any lineage.
                    return Ok(());
                };
                let facts = TraceFacts {
                    seq: event.seq,
                    offset,
                    trace: &trace,
                    session,
                    prompt: lineage.core.prompts.get(session).copied(),
                };
                apply_trace(&mut lineage, &facts);
                if facts.class().is_empty() {
                    // A trace that names no class judges no turn.
                    applied += 1;
                    return Ok(());
                }
                let turn = facts.turn();
                let open = lineage.core.open_turns.entry(turn.clone()).or_default();
                open.paths.insert(facts.path().to_string());
                open.seq = event.seq;
                // Turns of sessions that never prompt again stay open: keep the
                // newest few (the judgement of a turn that old comes from its
                // traces only).
                while lineage.core.open_turns.len() > MAX_OPEN_TURNS {
                    let oldest = lineage
                        .core
                        .open_turns
                        .iter()
                        .min_by_key(|(key, t)| (t.seq, (*key).clone()))
                        .map(|(key, _)| key.clone());
                    if let Some(key) = oldest {
                        lineage.core.open_turns.remove(&key);
                    }
                }
                lineage.judge_turn(&turn, facts.class(), false);
                applied += 1;
                Ok(())
            },
        )?;
        if let Some(stamp) = stamp {
            lineage.core.stamp = stamp;
            lineage.save()?;
        }
        Ok(CatchUp {
            from_scratch: from.is_none(),
            applied,
        })
    }

    /// Records a (new) judgement of a turn's class on every entry of the turn;
    /// `last` (its verdict) closes the turn.
    fn judge_turn(&mut self, turn: &str, class: &str, last: bool) {
        // Most traces keep their turn's class: nothing to touch, nothing to copy.
        let unchanged = self
            .core
            .open_turns
            .get(turn)
            .is_none_or(|t| t.class == class);
        if unchanged {
            if last {
                self.core.open_turns.remove(turn);
            }
            return;
        }
        let open = match last {
            true => self.core.open_turns.remove(turn),
            false => self.core.open_turns.get(turn).cloned(),
        };
        let Some(open) = open else {
            return;
        };
        for path in &open.paths {
            set_turn_class(self.shard(path), turn, class);
        }
        if let Some(entry) = self.core.open_turns.get_mut(turn) {
            entry.class = class.to_string();
        }
    }

    fn save(&self) -> Result<()> {
        let marker = self.dir.join("dirty");
        if !self.dirty.is_empty() {
            std::fs::write(&marker, b"").map_err(|e| QueryError::io(&marker, e))?;
        }
        for path in &self.dirty {
            let shard = &self.shards[path];
            let bytes = serde_json::to_vec(shard).expect("lineage shards serialize");
            write_atomic(&shard_file(&self.dir, path), &bytes)?;
            if !shard.traces.is_empty() {
                let mut lines = Vec::new();
                for t in &shard.traces {
                    serde_json::to_writer(&mut lines, t).expect("traces serialize");
                    lines.push(b'\n');
                }
                let file = traces_file(&self.dir, path);
                let mut out = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&file)
                    .map_err(|e| QueryError::io(&file, e))?;
                std::io::Write::write_all(&mut out, &lines)
                    .map_err(|e| QueryError::io(&file, e))?;
            }
        }
        let core = serde_json::to_vec(&self.core).expect("lineage core serializes");
        write_atomic(&self.dir.join("core.json"), &core)?;
        if marker.exists() {
            std::fs::remove_file(&marker).map_err(|e| QueryError::io(&marker, e))?;
        }
        Ok(())
    }
}

/// Whether the projection in `dir` already ends where the ledger ends.
fn up_to_date(dir: &Path, ledger: &Path) -> bool {
    let Some(core) = read_json::<Core>(&dir.join("core.json")) else {
        return false;
    };
    let len = std::fs::metadata(ledger).map_or(0, |m| m.len());
    core.version == VERSION
        && !dir.join("dirty").exists()
        && resume_point(ledger, Some(&core.stamp)) == Some(len)
}

/// Reads the shard of `path` as last caught up (`None`: never traced).
pub fn shard(workspace: &Workspace, path: &str) -> Option<FileLineage> {
    read_json(&shard_file(&dir(workspace), path))
}

/// Reads every trace of `path` as last caught up, oldest first.
pub fn traces(workspace: &Workspace, path: &str) -> Result<Vec<TraceRef>> {
    let file = traces_file(&dir(workspace), path);
    let bytes = match std::fs::read(&file) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(QueryError::io(&file, e)),
    };
    bytes
        .split(|b| *b == b'\n')
        .filter(|line| !line.is_empty())
        .map(|line| {
            serde_json::from_slice(line).map_err(|e| {
                QueryError::Invalid(format!(
                    "{} is unreadable ({e}): run `intent rebuild --only blocks`",
                    file.display()
                ))
            })
        })
        .collect()
}

/// Reads every shard, sorted by path.
pub fn all_shards(workspace: &Workspace) -> Result<Vec<FileLineage>> {
    let files = dir(workspace).join("files");
    let mut out = Vec::new();
    let entries = match std::fs::read_dir(&files) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(out),
        Err(e) => return Err(QueryError::io(&files, e)),
    };
    for entry in entries {
        let path = entry.map_err(|e| QueryError::io(&files, e))?.path();
        if path.extension().is_some_and(|e| e == "json") {
            let shard: FileLineage = read_json(&path).ok_or_else(|| {
                QueryError::Invalid(format!(
                    "{} is unreadable: run `intent rebuild --only blocks`",
                    path.display()
                ))
            })?;
            out.push(shard);
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

/// Finds a block by id in any shard (current or deleted), for `log --block`.
pub fn find_block(workspace: &Workspace, id: &str) -> Result<Option<BlockState>> {
    Ok(all_shards(workspace)?
        .into_iter()
        .find_map(|mut s| s.blocks.remove(id).or_else(|| s.deleted.remove(id))))
}

/// Rebuilds the line record of one path from the ledger, one trace at a time
/// (oldest first), and shows `visit` the record after each (`None`: that write left
/// no line record). Lines another file's block took in (see `taken`) keep only
/// this path's writes here: a replay follows one file.
pub(crate) fn replay_lines(
    ledger: &crate::projection::LinesAt,
    traces: &[TraceRef],
    mut visit: impl FnMut(usize, Option<&LineMap>),
) -> Result<()> {
    let mut map = None;
    let mut after: Option<String> = None;
    for (k, trace_ref) in traces.iter().enumerate() {
        let event = ledger.event_at(trace_ref.offset)?;
        let Some(trace) = event.payload::<Trace>() else {
            continue;
        };
        let write = LineWrite {
            seq: trace_ref.seq,
            offset: trace_ref.offset,
            prompt: trace_ref.prompt,
        };
        lines::apply(&mut map, after.as_deref(), &trace, write);
        after = trace.after_sha256.clone();
        visit(k, map.as_ref());
    }
    Ok(())
}
