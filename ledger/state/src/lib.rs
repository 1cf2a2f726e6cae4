//! The hook state: the small projection every hook process reads.
//!
//! It holds the active intent per session, the last content hash each session saw of
//! each file, the newest spec snapshot, a bounded digest of recent traces and
//! lessons per intent, and the newest lessons of all (with their count). It lives in `.orchestration/.cache/state.json`, stamped with the
//! `(seq, h, end)` of the last ledger line it reflects, and is only ever written under
//! the ledger lock (see [`intent_ledger::Ledger::transaction`]). Loading it never scans the
//! ledger: it checks the stamp against the ledger in O(1) and applies only the lines
//! written since. A missing, unreadable or mismatched cache is rebuilt from the ledger,
//! so deleting `.cache/` loses nothing.
//!
//! The per-session file hashes and the per-intent digests are sharded into their own
//! files (`.cache/sessions/`, `.cache/digests/`) and loaded only when an event or the
//! caller touches them, so a hook's cost follows its own session, not the number of
//! sessions or intents the workspace ever had.

mod blocks;
pub use blocks::{BlockIdentity, BlockWriter};
mod lessons;
pub use lessons::RecentLesson;
mod cache;
pub mod checkpoint;
mod replay;
mod session;

use cache::{digest_shard, read_json, session_shard};
pub use cache::{KeptState, StateCache};
use session::remember;
pub use session::{OpenTurn, SessionState};

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use intent_ledger::payload::{
    ChecklistItem, CompletionProposed, IntentSelected, IntentSpec, IntentStatus, Lesson, Prompt,
    SessionStart, ToolPost, ToolPre, Trace, TurnVerdict,
};
use intent_ledger::{kinds, Event};

/// `"kind":"…"` markers of the events [`HookState::apply`] uses; other lines are
/// skipped without parsing during a rebuild.
const STATE_KINDS: &[&str] = &[
    r#","kind":"intent."#,
    r#","kind":"session.start","#,
    r#","kind":"tool.post","#,
    r#","kind":"trace","#,
    r#","kind":"lesson","#,
    r#","kind":"prompt","#,
    r#","kind":"turn.verdict","#,
    // Only the `tool.pre` events that told an agent about recorded violations or
    // notices.
    r#""reported_violations":"#,
    r#""reported_notices":"#,
];

/// Version of the cache layout; a different version is rebuilt.
const STATE_VERSION: u32 = 8;
/// Sessions kept; the least recently active are dropped beyond this.
pub const MAX_SESSIONS: usize = 256;
/// Files remembered per session.
pub const MAX_FILES_PER_SESSION: usize = 512;
/// Recent traces and lessons kept per intent for the context digest.
pub const DIGEST_LEN: usize = 5;
/// Newest lessons kept (of every intent, and of none) for later sessions' context
/// and the generated lessons file.
pub const RECENT_LESSONS: usize = 20;
/// Characters of a lesson's text kept in [`HookState::lessons`].
pub const LESSON_CHARS: usize = 400;

/// The `(seq, h, end)` of the ledger line a projection reflects.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stamp {
    /// Seq of the last applied line (0: nothing applied).
    pub seq: u64,
    /// Its `h`.
    pub h: String,
    /// Offset just past it.
    pub end: u64,
}

impl Stamp {
    /// Returns whether the ledger line ending at `end` still has `h`: O(1), one read.
    /// A mismatch means the ledger was replaced or rewritten and the projection
    /// stamped with this must be rebuilt.
    pub fn matches(&self, ledger: &std::path::Path) -> bool {
        use std::os::unix::fs::FileExt;
        if self.seq == 0 {
            return self.end == 0;
        }
        // A line ends with `"h":"<64 hex>"}\n`: the hash sits 67..3 bytes before `end`.
        if self.end < 67 {
            return false;
        }
        let Ok(file) = std::fs::File::open(ledger) else {
            return false;
        };
        let mut h = [0u8; 64];
        file.read_exact_at(&mut h, self.end - 67).is_ok() && h == self.h.as_bytes()
    }
}

/// One line of an intent's recent history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DigestItem {
    /// Seq of the event.
    pub seq: u64,
    /// Time of the event.
    pub ts: String,
    /// `trace` or `lesson`.
    pub kind: String,
    /// A short, human-readable summary.
    pub summary: String,
}

/// The hook state; see the module docs.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct HookState {
    /// Cache layout version.
    pub version: u32,
    /// The ledger line this state reflects.
    pub stamp: Stamp,
    /// Content hash and seq of the newest `intent.spec` snapshot.
    pub spec: Option<(String, u64)>,
    /// Sessions by id.
    pub sessions: BTreeMap<String, SessionState>,
    /// Acceptance criteria an agent recorded evidence for, per intent (from
    /// completion proposals and completions).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub evidence: BTreeMap<String, BTreeSet<String>>,
    /// The newest [`RECENT_LESSONS`] lessons, newest last.
    #[serde(default, skip_serializing_if = "VecDeque::is_empty")]
    pub lessons: VecDeque<RecentLesson>,
    /// How many lessons the ledger holds.
    #[serde(default)]
    pub lesson_count: u64,
    /// Recent traces and lessons per intent, newest last. Stored in per-intent
    /// shards; see [`HookState::ensure_digest`].
    #[serde(skip)]
    pub digests: BTreeMap<String, VecDeque<DigestItem>>,
    /// Stable block identities per file: qualified name → identity, as of the latest
    /// trace of the file. Stored in per-file shards; see [`HookState::ensure_blocks`].
    #[serde(skip)]
    pub blocks: BTreeMap<String, BTreeMap<String, BlockIdentity>>,
    /// Where shards live and which are loaded or changed; `None` for a state that
    /// holds everything in memory (a rebuild).
    #[serde(skip)]
    shards: Option<Shards>,
}

/// Bookkeeping of lazily loaded shards.
#[derive(Debug, Clone, Default)]
struct Shards {
    dir: PathBuf,
    loaded_sessions: BTreeSet<String>,
    loaded_digests: BTreeSet<String>,
    loaded_blocks: BTreeSet<String>,
    dirty_blocks: BTreeSet<String>,
    dirty_sessions: BTreeSet<String>,
    dirty_digests: BTreeSet<String>,
    evicted_sessions: BTreeSet<String>,
    /// Whether an event changed the core (`state.json`) since it was loaded.
    applied: bool,
    /// The stamp's end when it was loaded: how far `state.json` lags.
    saved_end: u64,
}

impl Shards {
    /// Whether nothing needs writing: no event changed the state since it was
    /// loaded, and the stamp (which only moved past events the state does not use)
    /// lags the file by less than `MAX_UNSAVED_BYTES`.
    fn nothing_to_save(&self, end: u64) -> bool {
        !self.applied
            && self.dirty_blocks.is_empty()
            && self.dirty_sessions.is_empty()
            && self.dirty_digests.is_empty()
            && self.evicted_sessions.is_empty()
            && end.saturating_sub(self.saved_end) < MAX_UNSAVED_BYTES
    }
}

impl HookState {
    /// Estimated bytes this state takes in memory: the size of its JSON, shards
    /// included (its maps and strings take about what their JSON does), counted
    /// without building it. A long-lived process charges it to its memory budget.
    pub fn memory_bytes(&self) -> usize {
        struct Count(usize);
        impl std::io::Write for Count {
            fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
                self.0 += bytes.len();
                Ok(bytes.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let mut count = Count(0);
        let _ = serde_json::to_writer(&mut count, self);
        let _ = serde_json::to_writer(&mut count, &self.digests);
        let _ = serde_json::to_writer(&mut count, &self.blocks);
        count.0
    }
}

impl HookState {
    /// After the cache was written: nothing is dirty any more and `state.json` is at
    /// the stamp. A state held entirely in memory (a rebuild) had every shard
    /// written, so from now on it counts them all as loaded from `dir`.
    pub(crate) fn mark_saved(&mut self, dir: &std::path::Path) {
        let shards = self.shards.get_or_insert_with(|| Shards {
            dir: dir.to_path_buf(),
            loaded_sessions: self.sessions.keys().cloned().collect(),
            loaded_digests: self.digests.keys().cloned().collect(),
            loaded_blocks: self.blocks.keys().cloned().collect(),
            ..Shards::default()
        });
        shards.dirty_blocks.clear();
        shards.dirty_sessions.clear();
        shards.dirty_digests.clear();
        shards.evicted_sessions.clear();
        shards.applied = false;
        shards.saved_end = self.stamp.end;
    }
}

/// How far `state.json`'s stamp may lag the ledger when nothing else changed: the
/// next load skims that many bytes of lines it does not use (a `memmem` per marker)
/// instead of every hook rewriting the file (a rename ext4 flushes).
const MAX_UNSAVED_BYTES: u64 = 256 * 1024;

impl PartialEq for HookState {
    /// Compares content (core, file hashes, digests), not what happens to be loaded.
    fn eq(&self, other: &Self) -> bool {
        let files = |s: &HookState| -> BTreeMap<String, BTreeMap<String, String>> {
            s.sessions
                .iter()
                .map(|(id, st)| (id.clone(), st.files.clone()))
                .collect()
        };
        self.version == other.version
            && self.stamp == other.stamp
            && self.spec == other.spec
            && self.sessions == other.sessions
            && self.lessons == other.lessons
            && self.lesson_count == other.lesson_count
            && files(self) == files(other)
            && self.digests == other.digests
            && self
                .blocks
                .iter()
                .filter(|(_, b)| !b.is_empty())
                .collect::<Vec<_>>()
                == other
                    .blocks
                    .iter()
                    .filter(|(_, b)| !b.is_empty())
                    .collect::<Vec<_>>()
    }
}

impl Eq for HookState {}

impl HookState {
    /// Applies one event. A pure function of the event sequence, so applying the
    /// whole ledger and catching up incrementally give the same state.
    pub fn apply(&mut self, event: &Event) {
        if event.kind == kinds::TRACE {
            if let Some(trace) = event.payload::<Trace>() {
                self.apply_trace(event, &trace);
            }
            return;
        }
        if self.apply_other(event) {
            self.finish(event);
        }
    }

    /// Applies every kind but `trace`; `false` when the event changes nothing (not
    /// even `last_seq`), so a rebuild may skip it unparsed.
    fn apply_other(&mut self, event: &Event) -> bool {
        match event.kind.as_str() {
            kinds::INTENT_SPEC => {
                let spec = event.payload::<IntentSpec>();
                if let Some(spec) = spec.filter(|s| !s.content_hash.is_empty()) {
                    self.spec = Some((spec.content_hash, event.seq));
                }
            }
            kinds::INTENT_SELECTED => {
                let selected = event.payload::<IntentSelected>();
                if let (Some(selected), Some(session)) = (selected, self.session_mut(event)) {
                    session.lost_intent = None;
                    session.active_intent = Some(selected.intent_id);
                }
            }
            kinds::INTENT_CLEARED => {
                if let Some(session) = self.session_mut(event) {
                    session.active_intent = None;
                }
            }
            kinds::INTENT_COMPLETION_PROPOSED => {
                if let Some(proposed) = event.payload::<CompletionProposed>() {
                    self.remember_evidence(&proposed.intent_id, &proposed.checklist);
                }
                return false;
            }
            kinds::INTENT_STATUS => {
                let Some(change) = event.payload::<IntentStatus>() else {
                    return false;
                };
                if let Some(checklist) = &change.checklist {
                    self.remember_evidence(&change.intent_id, checklist);
                }
                // An intent that stops being workable is no one's active intent.
                if change.status != "IN_PROGRESS" {
                    let id = change.intent_id.as_str();
                    for session in self.sessions.values_mut() {
                        if session.active_intent.as_deref() == Some(id) {
                            session.active_intent = None;
                            session.lost_intent = Some((id.to_string(), change.status.clone()));
                        }
                    }
                }
            }
            kinds::PROMPT => {
                let prompt = event.payload::<Prompt>().unwrap_or_default();
                if let Some(session) = self.session_mut(event) {
                    // A prompt without an id is named by its seq: unique, and the same
                    // in every rebuild.
                    session.last_prompt = Some(
                        prompt
                            .prompt_id
                            .unwrap_or_else(|| format!("seq-{}", event.seq)),
                    );
                }
            }
            kinds::SESSION_START => {
                let start = event.payload::<SessionStart>().unwrap_or_default();
                if let Some(session) = self.session_mut(event) {
                    if let Some(model) = start.model {
                        session.model = Some(model);
                    }
                    if let Some(front_end) = start.front_end {
                        session.front_end = Some(front_end);
                    }
                }
            }
            kinds::TOOL_PRE => {
                // Other `tool.pre` events are skipped by a rebuild: they change nothing.
                let pre = event.payload::<ToolPre>().unwrap_or_default();
                let violations = pre.reported_violations.unwrap_or(0);
                let notices = pre.reported_notices.unwrap_or(0);
                if violations == 0 && notices == 0 {
                    return false;
                }
                if let Some(session) = self.session_mut(event) {
                    if violations > 0 {
                        session.pending_violations.clear();
                    }
                    if notices > 0 {
                        session.pending_notices.clear();
                    }
                }
            }
            kinds::TOOL_POST => {
                let post = event.payload::<ToolPost>().unwrap_or_default();
                // A violation already told in the hook's own reply (a shell
                // command's, checked after it ran) is not queued for the next one.
                let told = post.violation_told == Some(true);
                if let (Some(violation), Some(session), false) =
                    (&post.violation, self.session_mut(event), told)
                {
                    session.push_violation(
                        post.tool.as_deref(),
                        &violation.message,
                        &violation.paths,
                    );
                }
                if let (Some(hashes), Some(session)) = (post.file_hashes, self.session_mut(event)) {
                    for (path, hash) in hashes {
                        remember(session, path, hash.as_str());
                    }
                }
            }
            kinds::TURN_VERDICT => {
                let verdict = event.payload::<TurnVerdict>().unwrap_or_default();
                if let Some(session) = self.session_mut(event) {
                    if session.open_turn.as_ref().map(|t| &t.turn) == Some(&verdict.turn) {
                        session.open_turn = None;
                    }
                }
            }
            kinds::LESSON => {
                let Some(lesson) = event.payload::<Lesson>() else {
                    return false;
                };
                if let Some(intent) = event.intent_id() {
                    self.push_digest(intent, event, truncate(&lesson.text, 240));
                }
                self.push_lesson(event);
            }
            _ => return false,
        }
        true
    }

    fn apply_trace(&mut self, event: &Event, trace: &Trace) {
        if let Some(session) = self.session_mut(event) {
            remember(session, trace.path.clone(), trace.after_sha256.as_deref());
        }
        if let (Some(turn), Some(session)) = (&trace.turn, self.session_mut(event)) {
            let open = session.open_turn.get_or_insert_with(OpenTurn::default);
            if &open.turn != turn {
                *open = OpenTurn {
                    turn: turn.clone(),
                    ..OpenTurn::default()
                };
            }
            open.record(event.seq, trace);
        }
        self.apply_block_identities(event, trace);
        self.queue_collision_notices(event, trace);
        if let Some(intent) = &trace.intent_id {
            let class = match trace.mutation_class.as_str() {
                "" => "?",
                class => class,
            };
            let summary = format!("{class} {}", trace.path);
            self.push_digest(intent, event, summary);
        }
        self.finish(event);
    }

    /// What every applied event does last: the session's `last_seq`, and eviction.
    fn finish(&mut self, event: &Event) {
        self.mark_applied();
        if let Some(session) = event.session.as_ref() {
            if let Some(state) = self.sessions.get_mut(session) {
                state.last_seq = event.seq;
            }
        }
        self.evict_sessions();
    }

    /// Returns the session's state, if the ledger mentions it.
    pub fn session(&self, id: &str) -> Option<&SessionState> {
        self.sessions.get(id)
    }

    /// Returns the active intent of a session.
    pub fn active_intent(&self, session: &str) -> Option<&str> {
        self.sessions.get(session)?.active_intent.as_deref()
    }

    fn mark_applied(&mut self) {
        if let Some(shards) = self.shards.as_mut() {
            shards.applied = true;
        }
    }

    /// Notes which acceptance criteria a checklist gives evidence for.
    fn remember_evidence(&mut self, intent: &str, list: &[ChecklistItem]) {
        self.mark_applied();
        let with: BTreeSet<String> = list
            .iter()
            .filter(|item| {
                item.evidence
                    .as_deref()
                    .is_some_and(|e| !e.trim().is_empty())
            })
            .map(|item| item.criterion.clone())
            .collect();
        self.evidence
            .entry(intent.to_string())
            .or_default()
            .extend(with);
    }

    fn session_mut(&mut self, event: &Event) -> Option<&mut SessionState> {
        let id = event.session.as_ref()?;
        if let Some(shards) = self.shards.as_mut() {
            shards.dirty_sessions.insert(id.clone());
        }
        Some(self.sessions.entry(id.clone()).or_default())
    }

    fn push_digest(&mut self, intent: &str, event: &Event, summary: String) {
        if let Some(shards) = self.shards.as_mut() {
            shards.dirty_digests.insert(intent.to_string());
        }
        let items = self.digests.entry(intent.to_string()).or_default();
        // A shard saved ahead of the core (or by a newer state) already holds the
        // events a catch-up applies again: once is enough.
        if items.back().is_some_and(|last| last.seq >= event.seq) {
            return;
        }
        items.push_back(DigestItem {
            seq: event.seq,
            ts: event.ts.clone(),
            kind: event.kind.clone(),
            summary,
        });
        while items.len() > DIGEST_LEN * 2 {
            items.pop_front();
        }
    }

    fn evict_sessions(&mut self) {
        while self.sessions.len() > MAX_SESSIONS {
            let oldest = self
                .sessions
                .iter()
                .min_by_key(|(id, s)| (s.last_seq, (*id).clone()))
                .map(|(id, _)| id.clone());
            match oldest {
                Some(id) => {
                    self.sessions.remove(&id);
                    if let Some(shards) = self.shards.as_mut() {
                        shards.dirty_sessions.remove(&id);
                        shards.evicted_sessions.insert(id);
                    }
                }
                None => break,
            };
        }
    }

    /// Loads a session's file hashes from its shard, once. A no-op for a state held
    /// entirely in memory.
    pub fn ensure_session(&mut self, session: &str) {
        let Some(shards) = self.shards.as_mut() else {
            return;
        };
        if !shards.loaded_sessions.insert(session.to_string()) {
            return;
        }
        let files: BTreeMap<String, String> =
            read_json(&session_shard(&shards.dir, session)).unwrap_or_default();
        // A shard without its session in the core is a leftover of an evicted
        // session; the session starts afresh.
        if let Some(state) = self.sessions.get_mut(session) {
            state.files = files;
        }
    }

    /// Loads an intent's digest from its shard, once.
    pub fn ensure_digest(&mut self, intent: &str) {
        let Some(shards) = self.shards.as_mut() else {
            return;
        };
        if !shards.loaded_digests.insert(intent.to_string()) {
            return;
        }
        if let Some(items) = read_json::<VecDeque<DigestItem>>(&digest_shard(&shards.dir, intent)) {
            self.digests.insert(intent.to_string(), items);
        }
    }
}

fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    text.chars().take(max - 1).collect::<String>() + "…"
}
