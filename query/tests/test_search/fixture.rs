//! Workspaces and realistic events for the search tests, written with the
//! ledger's own API at pinned times.

use intent_ledger::{Durability, LedgerOptions, NewEvent, Workspace};
use intent_query::search::{self, SearchHit, SearchQuery};
use serde_json::{json, Value};
use time::{Duration, OffsetDateTime};

/// A temp workspace with an initialized ledger.
pub struct Fixture {
    _dir: tempfile::TempDir,
    pub ws: Workspace,
}

impl Fixture {
    /// Creates a temp dir and runs the equivalent of `intent init` in it.
    pub fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let ws = Workspace::at(dir.path());
        ws.init().unwrap();
        Fixture { _dir: dir, ws }
    }

    /// Appends `events` in one batch (no fsync: test data).
    pub fn append(&self, events: Vec<NewEvent>) {
        let options = LedgerOptions {
            durability: Durability::Never,
            ..LedgerOptions::default()
        };
        self.ws
            .open_ledger(options)
            .unwrap()
            .append_batch(events)
            .unwrap();
    }

    /// Searches, expecting success; returns the hits.
    pub fn search(&self, query: &SearchQuery) -> Vec<SearchHit> {
        search::search(&self.ws, query).unwrap().hits
    }

    /// Searches `text` with no filter.
    pub fn find(&self, text: &str) -> Vec<SearchHit> {
        self.search(&SearchQuery::new(text))
    }
}

/// The `minute`-th minute of a fixed day.
pub fn at(minute: i64) -> OffsetDateTime {
    time::macros::datetime!(2026-11-20 09:00 UTC) + Duration::minutes(minute)
}

/// An event of `kind` at `minute`, in `session` if given.
pub fn event(kind: &str, session: Option<&str>, minute: i64, data: Value) -> NewEvent {
    let event = NewEvent::new(kind, "test", data).with_ts(at(minute));
    match session {
        Some(s) => event.with_session(s),
        None => event,
    }
}

/// A spec snapshot: INT-001, INT-002 named `rate_limit_name`, and INT-003 if asked.
pub fn spec(minute: i64, rate_limit_name: &str, with_audit: bool) -> NewEvent {
    let mut intents = vec![
        json!({"id": "INT-001", "name": "JWT authentication", "status": "IN_PROGRESS",
               "description": "Replace session cookies with signed JWTs.",
               "owned_scope": ["src/auth/**", "tests/auth/**"],
               "constraints": ["Tokens expire after 15 minutes."],
               "acceptance_criteria": ["verify() rejects expired and tampered tokens."]}),
        json!({"id": "INT-002", "name": rate_limit_name, "status": "IN_PROGRESS",
               "description": "Limit login attempts per IP.",
               "owned_scope": ["src/auth/limits/**"],
               "constraints": ["At most 5 attempts per minute."]}),
    ];
    if with_audit {
        intents.push(
            json!({"id": "INT-003", "name": "Audit log export", "status": "DRAFT",
                            "owned_scope": ["src/audit/**"],
                            "constraints": ["Never export secrets."]}),
        );
    }
    let data =
        json!({"content_hash": format!("sha256:{minute}"), "spec": {"active_intents": intents}});
    event("intent.spec", None, minute, data)
}

/// A traced write of one function `block` in `path`.
pub fn trace(
    session: &str,
    minute: i64,
    intent: &str,
    path: &str,
    class: &str,
    reason: &str,
    block: &str,
) -> NewEvent {
    let side = json!({"path": path, "kind": "function", "name": block});
    let data = json!({"path": path, "mutation_class": class, "intent_id": intent,
                      "classification": {"method": "ast", "reason": reason},
                      "model": "anthropic/claude-sonnet-4-5", "front_end": "claude-code",
                      "blocks": [{"event": "modified", "before": side, "after": side}]});
    event("trace", Some(session), minute, data)
}

/// A prompt or lesson with `text`.
pub fn text_event(kind: &str, session: &str, minute: i64, intent: &str, text: &str) -> NewEvent {
    event(
        kind,
        Some(session),
        minute,
        json!({"intent_id": intent, "text": text}),
    )
}

/// A refused write with a reason of type `kind`.
pub fn deny(
    session: &str,
    minute: i64,
    intent: &str,
    path: &str,
    kind: &str,
    message: &str,
) -> NewEvent {
    let data = json!({"tool": "Write", "intent_id": intent, "decision": "deny", "class": "destructive",
                      "paths": [path], "reason": {"type": kind, "message": message,
                      "next_step": "Only change files matching allowed_scope."}});
    event("tool.pre", Some(session), minute, data)
}

/// The first half of a realistic ledger: specs, two sessions, traces, a denial.
pub fn part_one() -> Vec<NewEvent> {
    vec![
        spec(1, "Rate limiting", true),
        event(
            "session.start",
            Some("s1"),
            2,
            json!({"front_end": "claude-code", "model": "m"}),
        ),
        text_event("prompt", "s1", 3, "INT-001", "Add token expiry to verify()"),
        trace(
            "s1",
            4,
            "INT-001",
            "src/auth/jwt.ts",
            "INTENT_EVOLUTION",
            "behaviour changed in `verify` (src/auth/jwt.ts:1-4)",
            "verify",
        ),
        deny(
            "s1",
            5,
            "INT-001",
            "src/billing/invoice.ts",
            "scope_violation",
            "`src/billing/invoice.ts` is outside the owned_scope of INT-001.",
        ),
        text_event(
            "lesson",
            "s1",
            6,
            "INT-001",
            "Write was denied (scope_violation): invoice.ts is outside the owned_scope of INT-001.",
        ),
    ]
}

/// The second half: another session, a refactor, a spec edit, an unknown kind.
pub fn part_two() -> Vec<NewEvent> {
    vec![
        text_event(
            "prompt",
            "s2",
            10,
            "INT-002",
            "Throttle login attempts per IP",
        ),
        trace(
            "s2",
            11,
            "INT-002",
            "src/auth/limits/throttle.ts",
            "INTENT_EVOLUTION",
            "API change: exported `throttle` added",
            "throttle",
        ),
        trace(
            "s2",
            12,
            "INT-002",
            "src/auth/limits/window.ts",
            "AST_REFACTOR",
            "alpha-normalized declarations unchanged (rename-local)",
            "slidingWindow",
        ),
        spec(13, "Login throttling", false),
        text_event(
            "lesson",
            "s2",
            14,
            "INT-002",
            "token buckets reset every minute",
        ),
        event(
            "review.note",
            Some("s2"),
            15,
            json!({"text": "kangaroo review finished"}),
        ),
    ]
}

/// The seqs of `hits`, in order.
pub fn seqs(hits: &[SearchHit]) -> Vec<u64> {
    hits.iter().map(|h| h.seq).collect()
}

/// A workspace holding [`part_one`] then [`part_two`].
pub fn populated() -> Fixture {
    let fx = Fixture::new();
    fx.append(part_one());
    fx.append(part_two());
    fx
}
