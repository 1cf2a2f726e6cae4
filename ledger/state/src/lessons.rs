//! The newest lessons the hook state keeps, of every intent and of none.

use super::{truncate, HookState, LESSON_CHARS, RECENT_LESSONS};
use intent_ledger::payload::Lesson;
use intent_ledger::{kinds, Event};
use serde::{Deserialize, Serialize};

/// One of the newest lessons, as [`HookState::lessons`] keeps it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecentLesson {
    /// Seq of the `lesson` event.
    pub seq: u64,
    /// Its time (RFC 3339 UTC).
    pub ts: String,
    /// The intent it was learned under.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intent_id: Option<String>,
    /// Who learned it (`agent`, `gate`, `shell`, `tool_failure`…).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
    /// The session it was learned in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// The text (redacted when recorded), cut to [`LESSON_CHARS`] characters.
    pub text: String,
}

impl RecentLesson {
    /// The lesson an event records, if it is one, its text cut to [`LESSON_CHARS`].
    pub fn of(event: &Event) -> Option<RecentLesson> {
        RecentLesson::cut_to(event, LESSON_CHARS)
    }

    /// The lesson an event records, if it is one, its text cut to `max_chars`.
    pub fn cut_to(event: &Event, max_chars: usize) -> Option<RecentLesson> {
        if event.kind != kinds::LESSON {
            return None;
        }
        let lesson = event.payload::<Lesson>()?;
        Some(RecentLesson {
            seq: event.seq,
            ts: event.ts.clone(),
            intent_id: lesson
                .intent_id
                .or_else(|| event.intent_id().map(str::to_string)),
            origin: lesson.origin,
            session: event.session.clone(),
            text: truncate(&lesson.text, max_chars),
        })
    }
}

impl HookState {
    pub(super) fn push_lesson(&mut self, event: &Event) {
        // Applied once per event, like the digests (see `push_digest`).
        if self
            .lessons
            .back()
            .is_some_and(|last| last.seq >= event.seq)
        {
            return;
        }
        let Some(lesson) = RecentLesson::of(event) else {
            return;
        };
        self.lesson_count += 1;
        self.lessons.push_back(lesson);
        while self.lessons.len() > RECENT_LESSONS {
            self.lessons.pop_front();
        }
    }
}
