//! Lessons: redacted text a session leaves for later ones (a refusal, a failure, what
//! an agent chose to record).
//!
//! A lesson is a `lesson` event in the ledger, and nothing else is written for it
//! that git tracks. Later sessions learn it two ways, both derived from the ledgers —
//! this clone's, and the teammates' that `intent sync` fetched ([`fetched`]):
//!
//! - the context the hooks inject at session start and with each prompt holds the
//!   newest [`RECENT_LESSONS`] ([`context_block`]), and says how many more exist;
//! - [`FILE`], `.orchestration/lessons.md`, lists the same, rewritten by the hook
//!   that records a lesson and at session start. It is listed in
//!   `.orchestration/.gitignore`, and written only while that file lists it, so it
//!   never shows up as a change to commit.
//!
//! A person publishes chosen lessons into a tracked file (`CLAUDE.md`, `AGENTS.md`)
//! with `intent lessons publish` ([`section::publish`]); no hook ever does.

pub mod fetched;
pub mod list;
pub mod section;

use std::collections::VecDeque;

use intent_ledger::payload::Lesson;
use intent_ledger::Workspace;
use intent_state::{RecentLesson, RECENT_LESSONS};
use serde::Serialize;

pub use section::SECTION;

/// Longest lesson an agent may record.
pub const MAX_LESSON_CHARS: usize = 4000;

/// The generated lessons file, relative to the workspace root (never tracked).
pub const FILE: &str = ".orchestration/lessons.md";

/// The line of `.orchestration/.gitignore` that ignores [`FILE`].
const IGNORE_LINE: &str = "lessons.md";

/// Most bytes of lesson text one injected context holds.
const CONTEXT_BYTES: usize = 3 * 1024;

/// Characters of one lesson in the injected context.
const CONTEXT_CHARS: usize = 240;

/// Replaces likely secrets (API keys, tokens, private keys, passwords, credentials in
/// URLs) with `[REDACTED:<rule>]`: the ledger's one redactor
/// ([`intent_ledger::redact`]), applied here too because a lesson also goes to other
/// sessions' context, and a prompt or command to the agent's. The ledger writer
/// redacts every stored field again; redacting twice changes nothing.
pub fn redact(text: &str) -> String {
    intent_ledger::redact::redact(text).into_owned()
}

/// A lesson with the ledger it comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// How to name it to `intent lessons publish`: its seq in this clone's ledger
    /// (`42`), or the first 8 digits of a fetched ledger's id and its seq there
    /// (`0a1b2c3d:42`).
    pub id: String,
    /// The fetched ledger's label (owner, machine, id); `None` for this clone's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ledger: Option<String>,
    /// The lesson.
    #[serde(flatten)]
    pub lesson: RecentLesson,
}

impl Entry {
    /// A lesson of this clone's ledger.
    pub fn local(lesson: RecentLesson) -> Entry {
        Entry {
            id: lesson.seq.to_string(),
            ledger: None,
            lesson,
        }
    }

    /// A lesson of the fetched ledger `ledger_id`, named `label`.
    pub fn fetched(ledger_id: &str, label: &str, lesson: RecentLesson) -> Entry {
        Entry {
            id: format!("{}:{}", ledger_id.get(..8).unwrap_or(ledger_id), lesson.seq),
            ledger: Some(label.to_string()),
            lesson,
        }
    }

    /// The lesson's day (`YYYY-MM-DD`), intent and origin: what a published line or
    /// a listing shows before the text.
    pub fn prefix(&self) -> String {
        format!(
            "{} {}",
            self.lesson.ts.get(..10).unwrap_or(&self.lesson.ts),
            self.lesson.intent_id.as_deref().unwrap_or("no intent"),
        )
    }
}

/// Orders lessons newest first: by time, then this clone's before fetched ones,
/// then by id; the same inputs always give the same order.
pub fn newest_first(entries: &mut [Entry]) {
    entries.sort_by(|a, b| {
        b.lesson
            .ts
            .cmp(&a.lesson.ts)
            .then_with(|| a.ledger.is_some().cmp(&b.ledger.is_some()))
            .then_with(|| b.lesson.seq.cmp(&a.lesson.seq))
            .then_with(|| a.id.cmp(&b.id))
    });
}

/// The newest lessons of every ledger this clone knows, newest first, and how many
/// lessons those ledgers hold in all.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Newest {
    /// At most [`RECENT_LESSONS`], newest first.
    pub entries: Vec<Entry>,
    /// Every lesson of every ledger.
    pub total: u64,
}

impl Newest {
    /// Merges this clone's newest lessons (`local`, of `local_total`) with the
    /// fetched ledgers' kept by the last `intent sync`.
    pub fn gather(
        local: &VecDeque<RecentLesson>,
        local_total: u64,
        fetched: &fetched::FetchedLessons,
    ) -> Newest {
        let mut entries: Vec<Entry> = local.iter().cloned().map(Entry::local).collect();
        let mut total = local_total;
        for (id, ledger) in &fetched.ledgers {
            total += ledger.count;
            entries.extend(
                ledger
                    .recent
                    .iter()
                    .cloned()
                    .map(|lesson| Entry::fetched(id, &ledger.label, lesson)),
            );
        }
        newest_first(&mut entries);
        entries.truncate(RECENT_LESSONS);
        Newest { entries, total }
    }

    /// This workspace's newest lessons: the state's and the fetched ones.
    pub fn of(workspace: &Workspace, local: &VecDeque<RecentLesson>, local_total: u64) -> Newest {
        Newest::gather(local, local_total, &fetched::load(workspace))
    }
}

/// The `<intent_lessons>` block injected into a session's context: the newest
/// lessons, each cut short, within 3 KiB; how many more there are and
/// where to read them. `None` when no ledger holds a lesson.
pub fn context_block(newest: &Newest) -> Option<String> {
    if newest.total == 0 {
        return None;
    }
    let mut items = String::new();
    let mut shown = 0u64;
    for entry in &newest.entries {
        let from = match &entry.ledger {
            Some(label) => format!(" from=\"{}\"", super::context::escape(label)),
            None => String::new(),
        };
        let item = format!(
            "  <lesson id=\"{}\" date=\"{}\" intent=\"{}\"{from}>{}</lesson>\n",
            super::context::escape(&entry.id),
            super::context::escape(entry.lesson.ts.get(..10).unwrap_or_default()),
            super::context::escape(entry.lesson.intent_id.as_deref().unwrap_or("")),
            super::context::escape(&super::context::clip(&entry.lesson.text, CONTEXT_CHARS)),
        );
        if items.len() + item.len() > CONTEXT_BYTES {
            break;
        }
        items += &item;
        shown += 1;
    }
    let more = newest.total.saturating_sub(shown);
    let mut out = format!(
        "<intent_lessons shown=\"{shown}\" total=\"{}\">\n  <note>Lessons earlier sessions left (refusals, failures, what agents recorded), newest first. Avoid repeating them.{}</note>\n",
        newest.total,
        if more > 0 {
            format!(" {more} more: run `intent lessons`.")
        } else {
            String::new()
        }
    );
    out += &items;
    out += "</intent_lessons>";
    Some(out)
}

/// The text of [`FILE`] for these lessons: deterministic (no time of writing).
pub fn render_file(newest: &Newest) -> String {
    let mut out = String::from(
        "<!-- Generated by Intent Ledger from its ledgers (this clone's and, after `intent sync`,\n     \
         the teammates'). Never tracked: .orchestration/.gitignore lists it. Do not edit;\n     \
         publish chosen lessons into a tracked file with `intent lessons publish`. -->\n\
         # Lessons recorded by agents' sessions\n\n",
    );
    if newest.entries.is_empty() {
        out += "None yet.\n";
        return out;
    }
    out += &format!(
        "The newest {} of {}, newest first (all of them: `intent lessons`).\n\n",
        newest.entries.len(),
        newest.total
    );
    for entry in &newest.entries {
        let mut head = format!("[{}] {}, {}", entry.id, entry.prefix(), origin(entry));
        if let Some(label) = &entry.ledger {
            head += &format!(", from {label}");
        }
        out += &section::entry(&format!("{head}: {}", entry.lesson.text));
        out.push('\n');
    }
    out
}

fn origin(entry: &Entry) -> &str {
    entry.lesson.origin.as_deref().unwrap_or("recorded")
}

/// Whether [`FILE`] may be written: `.orchestration/.gitignore` lists it (every
/// `intent init` since it exists writes that line; an older workspace gets it from
/// running `intent init` again), so the file never shows up as a change to commit.
pub fn file_enabled(workspace: &Workspace) -> bool {
    std::fs::read_to_string(workspace.orchestration_dir().join(".gitignore"))
        .is_ok_and(|text| text.lines().any(|line| line.trim() == IGNORE_LINE))
}

/// Writes [`FILE`] for these lessons when it is enabled and differs from what is
/// there. Returns whether it wrote.
pub fn write_file(workspace: &Workspace, newest: &Newest) -> std::io::Result<bool> {
    if !file_enabled(workspace) {
        return Ok(false);
    }
    let path = workspace.root().join(FILE);
    let text = render_file(newest);
    if std::fs::read(&path).is_ok_and(|old| old == text.as_bytes()) {
        return Ok(false);
    }
    intent_ledger::atomic::write(&path, text.as_bytes(), intent_ledger::atomic::Sync::No)?;
    Ok(true)
}

/// Lessons as a hook event records and injects them.
impl super::EventTx<'_, '_> {
    /// Records a lesson: a `lesson` event, then the generated lessons file rewritten
    /// (derived, untracked: see this module's documentation). No tracked file is
    /// written.
    pub(in crate::engine) fn lesson(
        &mut self,
        text: &str,
        intent_id: Option<String>,
        origin: &str,
    ) -> anyhow::Result<()> {
        let text = redact(text);
        self.append(&Lesson {
            intent_id,
            text,
            origin: Some(origin.to_string()),
            extra: Default::default(),
        })?;
        self.write_lessons_file();
        Ok(())
    }

    /// The newest lessons of this clone's ledger and of the fetched ones.
    fn newest_lessons(&self) -> Newest {
        Newest::of(
            &self.engine.workspace,
            &self.state.lessons,
            self.state.lesson_count,
        )
    }

    /// Rewrites the generated lessons file if it changed. Best effort: it is derived
    /// from the ledgers, and a later hook writes it again.
    pub(in crate::engine) fn write_lessons_file(&self) {
        let _ = write_file(&self.engine.workspace, &self.newest_lessons());
    }

    /// `context` followed by the newest lessons, when there are any.
    pub(in crate::engine) fn with_lessons(&self, context: Option<String>) -> Option<String> {
        let block = context_block(&self.newest_lessons());
        match (context, block) {
            (Some(context), Some(block)) => Some(format!("{context}\n{block}")),
            (context, block) => context.or(block),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lesson(seq: u64, ts: &str, text: &str) -> RecentLesson {
        RecentLesson {
            seq,
            ts: ts.to_string(),
            intent_id: Some("INT-001".into()),
            origin: Some("gate".into()),
            session: Some("s1".into()),
            text: text.to_string(),
        }
    }

    #[test]
    fn secrets_are_redacted_by_the_ledgers_redactor() {
        let text = "use key sk-R9BdxjkWxX5Rypt3UGEnbgukdposwY5M1z1HOsaa and password=hunter2 \
                    and ghp_qsR6RZ24lPoQj3oPUlieI2nVsbBi1RMar1jf";
        let out = redact(text);
        assert!(!out.contains("sk-R9Bd"), "{out}");
        assert!(!out.contains("hunter2"), "{out}");
        assert!(!out.contains("ghp_"), "{out}");
        assert!(out.starts_with("use key [REDACTED:"), "{out}");
        assert_eq!(
            redact("git clone https://alice:s3cr3tpass@example.com/repo.git"),
            "git clone https://[REDACTED:url-credentials]@example.com/repo.git"
        );
        for plain in [
            "plain words",
            "const skip = items.filter(x => x)",
            "see https://example.com/a:b",
            "the token bucket",
        ] {
            assert_eq!(redact(plain), plain);
        }
    }

    #[test]
    fn local_and_fetched_lessons_merge_newest_first_and_bounded() {
        let local: VecDeque<RecentLesson> = (1..=15)
            .map(|i| lesson(i, &format!("2026-01-{i:02}T00:00:00.000000Z"), "local"))
            .collect();
        let mut fetched = fetched::FetchedLessons::default();
        fetched.ledgers.insert(
            "ab".repeat(32),
            fetched::LedgerLessons {
                label: "bob on box".into(),
                count: 30,
                recent: (1..=10)
                    .map(|i| lesson(i, &format!("2026-01-{:02}T12:00:00.000000Z", i + 10), "b<"))
                    .collect(),
                ..Default::default()
            },
        );
        let newest = Newest::gather(&local, 15, &fetched);
        assert_eq!(newest.total, 45);
        assert_eq!(newest.entries.len(), RECENT_LESSONS);
        assert_eq!(newest.entries[0].id, "abababab:10");
        // Fetched ones of days 20 to 15 (noon), then this clone's of day 15.
        assert_eq!(newest.entries[5].id, "abababab:5");
        assert_eq!(newest.entries[6].id, "15");
        let block = context_block(&newest).unwrap();
        assert!(
            block.starts_with("<intent_lessons shown=\"20\" total=\"45\">"),
            "{block}"
        );
        assert!(block.contains("25 more: run `intent lessons`"), "{block}");
        assert!(
            block.contains("from=\"bob on box\">b&lt;</lesson>"),
            "{block}"
        );
        let file = render_file(&newest);
        assert!(file.contains("The newest 20 of 45"), "{file}");
        assert!(file.contains("- [abababab:10] 2026-01-20 INT-001, gate, from bob on box: b<\n"));
        assert_eq!(file, render_file(&newest.clone()), "deterministic");
        assert_eq!(context_block(&Newest::default()), None);
    }

    #[test]
    fn the_context_stays_within_its_budget() {
        let local: VecDeque<RecentLesson> = (1..=20)
            .map(|i| lesson(i, "2026-01-01T00:00:00.000000Z", &"x".repeat(4000)))
            .collect();
        let block = context_block(&Newest::gather(&local, 20, &Default::default())).unwrap();
        assert!(block.len() < CONTEXT_BYTES + 512, "{}", block.len());
        assert!(block.contains("more: run `intent lessons`"), "{block}");
    }
}
