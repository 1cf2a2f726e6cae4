//! Other clones' ledgers: fetched as git objects, rebuilt into a local file only
//! after their chain and id verify, kept read-only, and offered to every query.
//!
//! Each lives in `<common>/intent/fetched/<ledger id>/`: `agent_trace.jsonl`,
//! `state.json` (the commit and segments it was built from) and `cache/` (its
//! projections). A refetch reads only the parts (segments, pieces) the copy does not
//! have, verifies only the lines it lacks (linked to where it ends) and appends
//! them: O(new events) in time and bytes. A ledger that no longer extends what was
//! fetched before (its owner rewrote it) is refused and the earlier copy kept.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _};
use intent_ledger::Workspace;
use serde::{Deserialize, Serialize};

use crate::git;
use crate::publish::{decode_part, ordered_parts, read_meta, Meta};

/// A fetched ledger on disk.
#[derive(Debug, Clone)]
pub struct Fetched {
    /// Who it came from and where it ended.
    pub meta: Meta,
    /// The rebuilt ledger file.
    pub ledger: PathBuf,
    /// Where its projections live.
    pub cache: PathBuf,
}

impl Fetched {
    /// The workspace seen through this ledger (for running a query on it).
    pub fn view(&self, workspace: &Workspace) -> Workspace {
        workspace.with_fetched_ledger(self.ledger.clone(), self.cache.clone())
    }

    /// How answers name this ledger: `user@machine (id…)`.
    pub fn label(&self) -> String {
        label(&self.meta)
    }
}

/// How answers name a ledger.
pub fn label(meta: &Meta) -> String {
    crate::sanitize(&format!(
        "{} on {} (ledger {})",
        meta.user,
        meta.machine,
        meta.ledger_id.get(..12).unwrap_or(&meta.ledger_id)
    ))
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct State {
    commit: String,
    meta: Option<Meta>,
    /// `(path in the tree, blob oid, file length after it)`: segments and tail
    /// pieces, in ledger order.
    segments: Vec<(String, String, u64)>,
}

/// What updating one fetched ledger did.
#[derive(Debug, Clone, Serialize)]
pub struct Update {
    /// The ledger id.
    pub ledger_id: String,
    /// Its owner, machine and id.
    pub from: String,
    /// Its last seq now.
    pub seq: u64,
    /// Events it gained.
    pub new_events: u64,
    /// Why it was not taken, if it was not (the earlier copy stays in use).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
}

fn root_dir(workspace: &Workspace) -> Option<PathBuf> {
    workspace.git_store_dir().map(|s| s.join("fetched"))
}

/// Where the one search index of every fetched ledger lives, beside the fetched
/// ledgers (the CLI's team search builds it: `intent_query::search::search_team`).
pub fn team_index_dir(workspace: &Workspace) -> Option<PathBuf> {
    workspace.git_store_dir().map(|s| s.join("fetched-search"))
}

/// Every fetched ledger of this clone, in ledger id order.
pub fn list(workspace: &Workspace) -> Vec<Fetched> {
    dirs(workspace)
        .iter()
        .filter_map(FetchedDir::load)
        .collect()
}

/// A fetched ledger's directory, its `state.json` not read yet: a query that asks
/// fifty ledgers about one file reads only the states of those that answer.
#[derive(Debug, Clone)]
pub struct FetchedDir {
    dir: PathBuf,
}

impl FetchedDir {
    /// The workspace seen through this ledger.
    pub fn view(&self, workspace: &Workspace) -> Workspace {
        workspace.with_fetched_ledger(self.ledger(), self.dir.join("cache"))
    }

    /// Its ledger id (the directory is named by it).
    pub fn id(&self) -> &str {
        self.dir.file_name().and_then(|n| n.to_str()).unwrap_or("")
    }

    /// The rebuilt ledger file.
    pub fn ledger(&self) -> PathBuf {
        self.dir.join(intent_ledger::workspace::LEDGER_FILE)
    }

    /// The ledger with who it came from; `None` while its first fetch is
    /// unfinished (no state recorded yet): such a ledger is not offered.
    pub fn load(&self) -> Option<Fetched> {
        let state: State =
            serde_json::from_slice(&std::fs::read(self.dir.join("state.json")).ok()?).ok()?;
        Some(Fetched {
            meta: state.meta?,
            ledger: self.ledger(),
            cache: self.dir.join("cache"),
        })
    }
}

/// The fetched ledgers' directories, in ledger id order (each is named by its id).
pub fn dirs(workspace: &Workspace) -> Vec<FetchedDir> {
    let Some(root) = root_dir(workspace) else {
        return Vec::new();
    };
    let Ok(entries) = std::fs::read_dir(&root) else {
        return Vec::new();
    };
    let mut found: Vec<FetchedDir> = entries
        .flatten()
        .filter(|entry| entry.file_type().is_ok_and(|t| t.is_dir()))
        .map(|entry| FetchedDir { dir: entry.path() })
        .collect();
    found.sort_by(|a, b| a.dir.cmp(&b.dir));
    found
}

/// Rebuilds the fetched ledger from `commit` (the commit of the ref named by ledger
/// id `named`) when it is newer than the copy on disk. A ledger is taken only under
/// the ref of its own id, and never with this clone's id (`own`): a copy of
/// someone's ledger pushed under another name is refused, whatever it holds.
pub fn update(
    workspace: &Workspace,
    commit: &str,
    named: &str,
    own: &str,
) -> anyhow::Result<Update> {
    let dir_git = workspace.root();
    let mut meta = read_meta(dir_git, commit)?;
    let root = root_dir(workspace).context("not a git workspace")?;
    if !is_ledger_id(&meta.ledger_id) {
        bail!(
            "{commit}: {:?} is not a ledger id",
            crate::sanitize(&meta.ledger_id)
        );
    }
    if meta.ledger_id != named {
        bail!(
            "published under the ref of ledger {named} but it is ledger {}: a ledger is only \
             taken under the ref of its own id",
            meta.ledger_id
        );
    }
    if meta.ledger_id == own {
        bail!("it claims this clone's own ledger id");
    }
    // What the owner says of itself reaches terminals: no control characters.
    meta.user = crate::sanitize(&meta.user);
    meta.machine = crate::sanitize(&meta.machine);
    meta.clone = crate::sanitize(&meta.clone);
    let dir = root.join(&meta.ledger_id);
    let state_path = dir.join("state.json");
    let old: State = std::fs::read(&state_path)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default();
    let old_seq = old.meta.as_ref().map_or(0, |m| m.seq);
    let mut report = Update {
        ledger_id: meta.ledger_id.clone(),
        from: label(&meta),
        seq: old_seq.max(meta.seq),
        new_events: 0,
        refused: None,
    };
    if old.commit == commit {
        report.seq = old_seq;
        return Ok(report);
    }
    if meta.seq < old_seq {
        report.seq = old_seq;
        report.refused = Some(format!(
            "it ends at seq {}, before the copy fetched earlier (seq {old_seq}): its owner \
             rewound it",
            meta.seq
        ));
        return Ok(report);
    }

    let files = git::tree_files(dir_git, commit)?;
    let parts = ordered_parts(&files);
    let ledger_path = dir.join(intent_ledger::workspace::LEDGER_FILE);
    // The copy on disk ends where the state says (bytes past it are the debris of
    // an update cut short, dropped below); a copy shorter than that is rebuilt.
    let old_end = old.segments.last().map_or(0, |(_, _, end)| *end);
    let on_disk = std::fs::metadata(&ledger_path).map_or(0, |m| m.len());
    let old = if on_disk < old_end || old.meta.is_none() {
        State::default()
    } else {
        old
    };
    let old_end = old.segments.last().map_or(0, |(_, _, end)| *end);

    // Parts (segments, pieces: neither ever changes) the copy already has are not
    // fetched again; the rest are. A part of the copy that is in none of them now
    // (pieces compacted into a segment) must be where the new bytes begin.
    let mut keep = 0u64;
    let mut new_parts = Vec::new();
    for ((name, oid, end), (new_name, new_oid)) in old.segments.iter().zip(&parts) {
        if name != new_name || oid != new_oid {
            break;
        }
        keep = *end;
        new_parts.push((name.clone(), oid.clone(), *end));
    }
    let wanted: Vec<String> = parts[new_parts.len()..]
        .iter()
        .map(|(_, oid)| oid.clone())
        .collect();
    let blobs = git::blobs(dir_git, &wanted)?;
    let mut tail = Vec::new();
    let mut end = keep;
    for ((name, oid), blob) in parts[new_parts.len()..].iter().zip(blobs) {
        let lines = decode_part(name, blob)?;
        tail.extend_from_slice(&lines);
        end += lines.len() as u64;
        new_parts.push((name.clone(), oid.clone(), end));
    }
    let refetched = read_range(&ledger_path, keep, old_end)?;

    // Verify before use: only the lines the copy does not have, linked to where it
    // ends (the whole ledger, from its genesis, on a first fetch).
    let problem = if !tail.starts_with(&refetched) {
        Some(format!(
            "it no longer extends the copy fetched before (seq {old_seq}): its owner rewrote it"
        ))
    } else {
        let added = &tail[refetched.len()..];
        let after = old.meta.as_ref().map(|m| intent_ledger::VerifiedEnd {
            seq: m.seq,
            h: m.h.clone(),
            ledger_id: m.ledger_id.clone(),
        });
        let verdict = intent_ledger::verify_bytes_after(added, after.as_ref());
        if let Some(c) = &verdict.corruption {
            Some(format!("its chain breaks at seq {}: {}", c.seq, c.reason))
        } else if verdict.ledger_id.as_deref() != Some(meta.ledger_id.as_str()) {
            Some(format!("its genesis is not ledger {}", meta.ledger_id))
        } else if verdict.last_seq != meta.seq
            || verdict.last_h.as_deref() != Some(meta.h.as_str())
            || verdict.torn_tail_bytes > 0
        {
            Some(format!(
                "it ends at seq {}, not at seq {} as its ledger.json says",
                verdict.last_seq, meta.seq
            ))
        } else {
            None
        }
    };
    if let Some(problem) = problem {
        report.seq = old_seq;
        report.refused = Some(problem);
        return Ok(report);
    }
    std::fs::create_dir_all(&dir)?;
    let added = &tail[refetched.len()..];
    if old_end == 0 {
        write_atomic(&ledger_path, &tail)?;
    } else {
        append_verified(&ledger_path, old_end, added)?;
    }
    let state = State {
        commit: commit.to_string(),
        meta: Some(meta.clone()),
        segments: new_parts,
    };
    write_atomic(&state_path, &serde_json::to_vec_pretty(&state)?)?;
    // Read-only: only the next fetch, after verifying, adds to it.
    let _ = set_read_only(&ledger_path);
    report.new_events = meta.seq - old_seq;
    report.seq = meta.seq;
    Ok(report)
}

fn is_ledger_id(id: &str) -> bool {
    id.len() == 64 && id.bytes().all(|b| b.is_ascii_hexdigit())
}

fn write_atomic(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    intent_ledger::atomic::write(path, bytes, intent_ledger::atomic::Sync::No)
        .with_context(|| format!("write {}", path.display()))
}

/// Bytes `from..to` of the file at `path` (empty when `from >= to`).
fn read_range(path: &Path, from: u64, to: u64) -> anyhow::Result<Vec<u8>> {
    use std::os::unix::fs::FileExt;
    if from >= to {
        return Ok(Vec::new());
    }
    let file = std::fs::File::open(path).with_context(|| format!("open {}", path.display()))?;
    let mut bytes = vec![0u8; (to - from) as usize];
    file.read_exact_at(&mut bytes, from)
        .with_context(|| format!("read {}", path.display()))?;
    Ok(bytes)
}

/// Appends verified `bytes` to the fetched copy at `path`, which ends at `end`
/// (anything past it, left by an update cut short, is dropped first). The copy
/// is written in place: O(new bytes), not O(ledger). A crash mid-write leaves at
/// most a torn last line, which readers skip and the next update drops.
fn append_verified(path: &Path, end: u64, bytes: &[u8]) -> anyhow::Result<()> {
    use std::io::Write as _;
    let mut perms = std::fs::metadata(path)?.permissions();
    #[allow(clippy::permissions_set_readonly_false)]
    perms.set_readonly(false);
    std::fs::set_permissions(path, perms)?;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .with_context(|| format!("open {}", path.display()))?;
    file.set_len(end)?;
    use std::io::Seek as _;
    file.seek(std::io::SeekFrom::Start(end))?;
    file.write_all(bytes)
        .with_context(|| format!("append to {}", path.display()))?;
    Ok(())
}

fn set_read_only(path: &Path) -> std::io::Result<()> {
    let mut perms = std::fs::metadata(path)?.permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(path, perms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_64_hex_digits_are_a_ledger_id() {
        let id = "0123456789abcdef".repeat(4);
        assert!(is_ledger_id(&id));
        assert!(is_ledger_id(&id.to_uppercase()));
        assert!(!is_ledger_id(&id[..63]));
        assert!(!is_ledger_id(&format!("{id}0")));
        // A ref name or a path is not an id: the fetched copy's directory is named
        // by it.
        assert!(!is_ledger_id(&format!("../{}", &id[3..])));
        assert!(!is_ledger_id(&id.replace('a', "g")));
    }

    #[test]
    fn a_label_names_owner_machine_and_short_id_without_control_characters() {
        let meta = Meta {
            format: 1,
            ledger_id: "0123456789abcdef".repeat(4),
            seq: 7,
            h: "0".repeat(64),
            last_start: 0,
            bytes: 0,
            sealed_end: 0,
            sealed_seq: 0,
            segment_lines: crate::publish::SEGMENT_LINES,
            pieces: Vec::new(),
            user: "eve\u{1b}]0;owned\u{7}".into(),
            machine: "box\n".into(),
            clone: "/src/app".into(),
            published_at: "2026-01-02T03:04:05.000000Z".into(),
        };
        assert_eq!(
            label(&meta),
            "eve\\u{1b}]0;owned\\u{7} on box\\u{a} (ledger 0123456789ab)"
        );
        // An id too short to cut (refused before it is stored) still labels whole.
        let short = Meta {
            ledger_id: "abc".into(),
            ..meta
        };
        assert!(label(&short).ends_with("(ledger abc)"));
    }
}
