//! The newest lessons of the teammates' ledgers `intent sync` fetched, kept in
//! `<cache>/lessons/fetched.json` so a hook reads one small file instead of any
//! ledger.
//!
//! Each fetched ledger is followed from where the file was last read (its
//! [`Stamp`]): a refresh reads only the lines fetched since, skipping every line
//! that is not a `lesson` without parsing it. A ledger whose stamp no longer matches
//! (replaced whole) is read again from its start; a ledger no longer fetched is
//! dropped.

use std::collections::{BTreeMap, VecDeque};
use std::path::{Path, PathBuf};

use intent_ledger::{LineReader, Workspace};
use intent_state::{RecentLesson, Stamp, RECENT_LESSONS};
use serde::{Deserialize, Serialize};

/// One fetched ledger, as [`refresh`] gets it from `intent sync`.
#[derive(Debug, Clone)]
pub struct Source {
    /// Its ledger id (64 hex digits).
    pub ledger_id: String,
    /// How answers name it (owner, machine, id).
    pub label: String,
    /// The fetched ledger file (verified by the fetch).
    pub ledger: PathBuf,
}

/// The newest lessons of every fetched ledger.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FetchedLessons {
    /// By ledger id.
    pub ledgers: BTreeMap<String, LedgerLessons>,
}

/// The newest lessons of one fetched ledger.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LedgerLessons {
    /// How answers name the ledger.
    pub label: String,
    /// The line read last.
    pub stamp: Stamp,
    /// How many lessons the ledger holds.
    pub count: u64,
    /// The newest [`RECENT_LESSONS`], newest last.
    pub recent: VecDeque<RecentLesson>,
}

/// Where the fetched lessons are kept.
pub fn path(workspace: &Workspace) -> PathBuf {
    workspace.cache_dir().join("lessons").join("fetched.json")
}

/// Reads what the last [`refresh`] kept (nothing when it never ran or the file is
/// unreadable: derived data).
pub fn load(workspace: &Workspace) -> FetchedLessons {
    std::fs::read(path(workspace))
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_default()
}

/// Brings the kept lessons up to the fetched ledgers `sources` and saves them: O(the
/// bytes fetched since the last refresh).
pub fn refresh(workspace: &Workspace, sources: &[Source]) -> std::io::Result<FetchedLessons> {
    let old = load(workspace);
    let mut new = FetchedLessons::default();
    for source in sources {
        let mut kept = old
            .ledgers
            .get(&source.ledger_id)
            .cloned()
            .filter(|kept| kept.stamp.matches(&source.ledger))
            .unwrap_or_default();
        kept.label = source.label.clone();
        catch_up(&source.ledger, &mut kept)?;
        new.ledgers.insert(source.ledger_id.clone(), kept);
    }
    if new != old {
        let path = path(workspace);
        let bytes = serde_json::to_vec(&new).map_err(std::io::Error::other)?;
        intent_ledger::atomic::write(&path, &bytes, intent_ledger::atomic::Sync::No)?;
    }
    Ok(new)
}

/// Reads the lines of `ledger` after `kept.stamp`. Lesson lines are found by their
/// envelope without parsing; only the newest [`RECENT_LESSONS`] of them are parsed
/// (a first read of a teammate's ledger may hold hundreds of thousands).
fn catch_up(ledger: &Path, kept: &mut LedgerLessons) -> std::io::Result<()> {
    let reader = LineReader::open_at(ledger, kept.stamp.end).map_err(std::io::Error::other)?;
    let mut newest: VecDeque<intent_ledger::RawLine> = VecDeque::new();
    for line in reader {
        let line = line.map_err(std::io::Error::other)?;
        let end = line.offset + line.bytes.len() as u64 + 1;
        let Ok(view) = intent_ledger::line::inspect(&line.bytes) else {
            break;
        };
        let stamp = Stamp {
            seq: view.seq,
            h: String::from_utf8_lossy(view.h).into_owned(),
            end,
        };
        if super::list::is_lesson_line(&line.bytes) {
            newest.push_back(line);
            if newest.len() > RECENT_LESSONS {
                newest.pop_front();
            }
            kept.count += 1;
        }
        kept.stamp = stamp;
    }
    for line in newest {
        let event = line.parse(ledger).map_err(std::io::Error::other)?;
        match RecentLesson::of(&event) {
            Some(lesson) => {
                kept.recent.push_back(lesson);
                while kept.recent.len() > RECENT_LESSONS {
                    kept.recent.pop_front();
                }
            }
            // Found by its envelope but not a readable lesson: not counted.
            None => kept.count = kept.count.saturating_sub(1),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use intent_ledger::NewEvent;
    use serde_json::json;

    use super::*;

    fn append(ws: &Workspace, kind: &str, data: serde_json::Value) {
        let mut ledger = ws.open_ledger(Default::default()).unwrap();
        ledger.append(NewEvent::new(kind, "test", data)).unwrap();
    }

    #[test]
    fn a_refresh_counts_every_lesson_keeps_the_newest_and_reads_only_what_is_new() {
        let dir = tempfile::tempdir().unwrap();
        let teammate = Workspace::at(dir.path().join("teammate"));
        std::fs::create_dir_all(teammate.root()).unwrap();
        teammate.init().unwrap();
        for i in 0..50 {
            append(
                &teammate,
                "lesson",
                json!({ "text": format!("lesson {i}") }),
            );
            append(
                &teammate,
                "prompt",
                json!({ "text": format!("prompt {i}") }),
            );
        }
        let home = Workspace::at(dir.path().join("home"));
        std::fs::create_dir_all(home.root()).unwrap();
        home.init().unwrap();
        let sources = [Source {
            ledger_id: "t".repeat(64),
            label: "teammate".to_string(),
            ledger: teammate.ledger_path(),
        }];
        let texts = |kept: &LedgerLessons| -> Vec<String> {
            kept.recent.iter().map(|l| l.text.clone()).collect()
        };
        let first = refresh(&home, &sources).unwrap();
        let kept = &first.ledgers[&"t".repeat(64)];
        assert_eq!(kept.count, 50);
        let expected: Vec<String> = (30..50).map(|i| format!("lesson {i}")).collect();
        assert_eq!(texts(kept), expected);
        for i in 50..55 {
            append(
                &teammate,
                "lesson",
                json!({ "text": format!("lesson {i}") }),
            );
        }
        let second = refresh(&home, &sources).unwrap();
        let kept = &second.ledgers[&"t".repeat(64)];
        assert_eq!(kept.count, 55, "the 50 read before are not counted again");
        let expected: Vec<String> = (35..55).map(|i| format!("lesson {i}")).collect();
        assert_eq!(texts(kept), expected);
    }
}
