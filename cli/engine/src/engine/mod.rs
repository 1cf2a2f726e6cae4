//! The hook engine: one normalized event in, one normalized reply out.
//!
//! Every event runs as one ledger transaction: load the hook state (O(1) plus the
//! lines written since its stamp), load the specs and policy, decide or record,
//! append, save the state. Adapters (`crate::adapters`) only translate payloads.

mod analysis_cache;
pub(crate) mod ast;
mod confine_rewrite;
pub mod context;
pub(crate) mod deferred;
pub(crate) mod event;
mod handshakes;
pub mod kept;
pub mod lessons;
pub mod lifecycle;
pub(crate) mod line_diff;
mod model;
mod post;
mod post_shell;
mod pre;
mod prefetch;
pub mod resident;
mod selection;
pub(crate) mod shell;
pub(crate) mod specs;
mod taken_lines;
pub(crate) mod texts;
mod touched;
pub(crate) mod trace;
pub mod unrecorded;
pub(crate) mod vcs;

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use intent_gate::{GateReason, Policy};
use intent_ledger::payload::{
    HookWarning, Payload, Prompt, SessionStart, SessionStop, TurnVerdict,
};
use intent_ledger::{
    kinds, DerivedIds, Durability, LedgerOptions, NewEvent, ReverseLineReader, Transaction,
    Workspace,
};
use intent_spec::SpecDocument;
use intent_state::{HookState, StateCache};
use serde_json::Value;

use crate::Hook;
pub use event::{
    ExternalFrontEnd, FrontEnd, HookEvent, Origin, Phase, Refusal, Reply, ToolCall, ToolResponse,
};

/// Runs hook events against one workspace.
#[derive(Debug, Clone)]
pub struct Engine {
    workspace: Workspace,
    root: PathBuf,
    ledger_options: LedgerOptions,
    /// Who calls the methods other than [`Engine::handle`] (whose events name their
    /// front-end): a person at the CLI unless [`Engine::acting_for`] says otherwise.
    origin: Origin,
}

impl Engine {
    /// Prepares an engine for an initialized workspace.
    pub fn new(workspace: Workspace) -> anyhow::Result<Engine> {
        anyhow::ensure!(
            workspace.is_initialized(),
            "{} has no .orchestration/; run `intent init` there first",
            workspace.root().display()
        );
        let root = workspace
            .root()
            .canonicalize()
            .with_context(|| format!("cannot resolve {}", workspace.root().display()))?;
        let mut ledger_options = LedgerOptions::default();
        if let Ok(text) = std::env::var("INTENT_DURABILITY") {
            ledger_options.durability = Durability::parse(&text).with_context(|| {
                format!("INTENT_DURABILITY={text:?}: expected always, batch or never")
            })?;
        }
        Ok(Engine {
            workspace,
            root,
            ledger_options,
            origin: Origin::Cli,
        })
    }

    /// The same engine, recording what it does outside hooks as `origin`'s (the
    /// MCP server: [`Origin::Mcp`]).
    pub fn acting_for(mut self, origin: Origin) -> Engine {
        self.origin = origin;
        self
    }

    /// Returns the workspace.
    pub fn workspace(&self) -> &Workspace {
        &self.workspace
    }

    /// Handles one event, the hook `hook`: records it and answers.
    pub fn handle(&self, event: &HookEvent, hook: &mut Hook) -> Result<Reply, crate::HookError> {
        let prefetch = prefetch::prefetch(&self.root, event, hook.resident.clone());
        // A shell command's files are walked, hashed and parsed before the ledger
        // lock is taken, and its baseline saved after it is released.
        let shell = shell::Outside::before_lock(&self.workspace, &self.root, event);
        hook.timings.mark("before lock");
        let mut baseline_for = None;
        let reply = self.in_transaction(Origin::Hook(event.front_end), hook, |turn| {
            turn.prefetch = prefetch;
            turn.shell = shell;
            let reply = turn.handle(event);
            baseline_for = turn.shell.baseline_for.take();
            reply
        })?;
        if let Some(use_id) = baseline_for {
            shell::save_baseline(&self.workspace, &self.root, &use_id);
        }
        // This hook could write: record what earlier hooks could not.
        unrecorded::flush(
            &self.workspace,
            LedgerOptions {
                lock_timeout: Some(hook_lock_timeout()),
                ..self.ledger_options.clone()
            },
        );
        Ok(reply)
    }

    /// Selects an intent for a session from outside a front-end (`intent select`).
    pub fn select(
        &self,
        session: &str,
        intent_id: &str,
        via: &str,
    ) -> anyhow::Result<Result<String, GateReason>> {
        self.in_transaction(self.origin, &mut Hook::default(), |turn| {
            turn.session = session.to_string();
            turn.select(intent_id, via, None)
        })
    }

    /// Moves an intent through its lifecycle on a human's behalf (`intent status`).
    pub fn change_status(
        &self,
        change: &lifecycle::StatusChange,
    ) -> anyhow::Result<Result<intent_ledger::payload::IntentStatus, GateReason>> {
        self.in_transaction(self.origin, &mut Hook::default(), |turn| {
            turn.change_status(change, lifecycle::Actor::Human)
        })
    }

    /// Checks whether `intent_id` may be selected and renders its context, without
    /// recording anything (the MCP server's answer; the hook records the selection).
    pub fn preview_selection(&self, intent_id: &str) -> anyhow::Result<Result<String, GateReason>> {
        self.in_transaction(self.origin, &mut Hook::default(), |turn| {
            turn.state.ensure_digest(intent_id);
            Ok(turn.check_selectable(intent_id).map(|spec_index| {
                let specs = turn.specs.as_deref().expect("checked");
                context::intent_context(
                    &specs.file.active_intents[spec_index],
                    &specs.file,
                    &turn.state,
                )
            }))
        })
    }

    /// Returns the active intent and its context for a session.
    pub fn active_context(&self, session: &str) -> anyhow::Result<Option<(String, String)>> {
        self.in_transaction(self.origin, &mut Hook::default(), |turn| {
            let Some(id) = turn.state.active_intent(session).map(str::to_string) else {
                return Ok(None);
            };
            turn.state.ensure_digest(&id);
            let specs = turn.specs.as_deref().ok();
            let text = match specs.and_then(|s| s.intent(&id).map(|i| (i, s))) {
                Some((spec, specs)) => context::intent_context(spec, &specs.file, &turn.state),
                None => format!("{id} is no longer in active_intents.yaml"),
            };
            Ok(Some((id, text)))
        })
    }

    /// The newest lessons of this clone's ledger and of the fetched ones (as the last
    /// `intent sync` left them), as the hooks inject them. Appends nothing (not even
    /// a spec snapshot): `intent sync` calls it right after publishing the ledger.
    pub fn newest_lessons(&self) -> anyhow::Result<lessons::Newest> {
        let mut ledger = self.workspace.open_ledger(self.hook_ledger_options(None))?;
        let cache = StateCache::new(&self.workspace.cache_dir());
        let state =
            ledger.transaction(|tx| -> intent_ledger::Result<HookState> { cache.load(tx) })?;
        Ok(lessons::Newest::of(
            &self.workspace,
            &state.lessons,
            state.lesson_count,
        ))
    }

    /// Rewrites the generated lessons file ([`lessons::FILE`]) if it is out of date
    /// (after `intent sync` fetched teammates' lessons). Returns whether it wrote.
    pub fn refresh_lessons_file(&self) -> anyhow::Result<bool> {
        let newest = self.newest_lessons()?;
        lessons::write_file(&self.workspace, &newest)
            .with_context(|| format!("cannot write {}", lessons::FILE))
    }

    /// Returns the specs as the gate sees them, or why they are unusable.
    pub fn specs(&self) -> anyhow::Result<Result<SpecDocument, String>> {
        self.in_transaction(self.origin, &mut Hook::default(), |turn| {
            Ok(turn.specs.as_deref().cloned().map_err(Clone::clone))
        })
    }

    /// Finds the session whose hook recorded `tool_use_id` (MCP servers learn the
    /// tool-use id from the front-end, not the session): the hook's note in the
    /// cache, else (a deleted cache) the call's `tool.pre` in the ledger, read
    /// newest first and for a bounded number of lines.
    pub fn session_for_tool_use(&self, tool_use_id: &str) -> anyhow::Result<Option<String>> {
        if let Some(session) = handshakes::lookup(&self.workspace, tool_use_id) {
            return Ok(Some(session));
        }
        let needle = format!(r#""tool_use_id":{}"#, serde_json::to_string(tool_use_id)?);
        let path = self.workspace.ledger_path();
        for line in ReverseLineReader::open(&path)?.take(20_000) {
            let line = line?;
            if memchr::memmem::find(&line.bytes, needle.as_bytes()).is_some() {
                let event = line.parse(&path)?;
                if event.kind == kinds::TOOL_PRE {
                    return Ok(event.session);
                }
            }
        }
        Ok(None)
    }

    /// Records a problem the hook `hook` handled by failing open or closed. Best
    /// effort.
    pub fn record_warning(&self, hook: &mut Hook, session: Option<&str>, message: &str) {
        let options = self.hook_ledger_options(hook.next_ids());
        let Ok(mut ledger) = self.workspace.open_ledger(options) else {
            return;
        };
        let warning = HookWarning {
            message: message.to_string(),
            extra: Default::default(),
        };
        let mut event = NewEvent::from_payload("hook", &warning);
        event.session = session.map(str::to_string);
        let _ = ledger.append(event);
    }

    /// The ledger options of one ledger handle of a hook: event ids drawn from the
    /// hook's seed when its client gave one (`crate::hook_ids`).
    fn hook_ledger_options(&self, derived_ids: Option<DerivedIds>) -> LedgerOptions {
        LedgerOptions {
            derived_ids,
            lock_timeout: Some(hook_lock_timeout()),
            ..self.ledger_options.clone()
        }
    }

    /// Runs `work` in one ledger transaction for `hook` (a default [`Hook`] for a
    /// command a person or the MCP server runs).
    fn in_transaction<T>(
        &self,
        origin: Origin,
        hook: &mut Hook,
        work: impl FnOnce(&mut EventTx<'_, '_>) -> anyhow::Result<T>,
    ) -> anyhow::Result<T> {
        let mut ledger = self
            .workspace
            .open_ledger(self.hook_ledger_options(hook.next_ids()))?;
        hook.timings.mark("open ledger");
        ledger.transaction(|tx| {
            hook.timings.mark("lock");
            let cache_dir = self.workspace.cache_dir();
            let cache = StateCache::new(&cache_dir);
            // The field, not `hook.resident()`: the timings are marked meanwhile.
            let resident = hook.resident.as_deref();
            let mut state = match resident {
                Some(resident) => cache.load_kept(tx, resident.last_save.take(&cache_dir))?,
                None => cache.load(tx)?,
            };
            hook.timings.mark("load state");
            let source = origin.source();
            let specs = specs::load(&self.workspace, tx, &mut state, &source, resident)?;
            hook.timings.mark("specs");
            let policy = Policy::load(&self.workspace.orchestration_dir().join("policy.yaml"))
                .map_err(|e| e.to_string());
            hook.timings.mark("policy");
            let mut turn = EventTx {
                engine: self,
                hook: &mut *hook,
                tx,
                state,
                specs,
                policy,
                source,
                origin,
                session: String::new(),
                prefetch: None,
                shell: shell::Outside::default(),
            };
            let result = work(&mut turn)?;
            let EventTx {
                tx,
                mut state,
                hook,
                ..
            } = turn;
            hook.timings.mark("work");
            state.catch_up(tx.path(), tx.end())?;
            if hook.resident.is_some() {
                hook.after
                    .defer_save(&self.workspace, &self.ledger_options, state);
                hook.timings.mark("defer state save");
            } else {
                cache.save(&state)?;
                hook.timings.mark("save state");
            }
            Ok(result)
        })
    }
}

/// One hook event's (or one CLI call's) work, inside the ledger transaction: read
/// the state, decide, append, save the state. Not an agent's turn, which spans many
/// events (see `turn.verdict`).
struct EventTx<'e, 't> {
    engine: &'e Engine,
    /// The hook this event is (a default one for a person's command).
    hook: &'e mut Hook,
    tx: &'e mut Transaction<'t>,
    state: HookState,
    /// Shared with the helper's copy (`specs::load`): never copied per hook.
    specs: Result<std::sync::Arc<SpecDocument>, String>,
    policy: Result<Policy, String>,
    source: String,
    origin: Origin,
    session: String,
    /// Analyses of the written files, started before the transaction (post only).
    prefetch: Option<prefetch::Prefetch>,
    /// A shell command's work done outside the transaction.
    shell: shell::Outside,
}

impl EventTx<'_, '_> {
    pub(super) fn root(&self) -> &Path {
        &self.engine.root
    }

    pub(super) fn append<P: Payload>(&mut self, payload: &P) -> anyhow::Result<u64> {
        let mut event = NewEvent::from_payload(self.source.clone(), payload);
        // Commands run by a person (`intent status`) belong to no session.
        if !self.session.is_empty() {
            event = event.with_session(self.session.clone());
        }
        let done = self.tx.append(vec![event])?;
        self.state.catch_up(self.tx.path(), self.tx.end())?;
        Ok(done[0].seq)
    }

    fn handle(&mut self, event: &HookEvent) -> anyhow::Result<Reply> {
        self.session = event.session.clone();
        match event.phase {
            Phase::SessionStart => self.session_start(event),
            Phase::PromptSubmit => self.prompt(event),
            Phase::PreTool => {
                let pending = self.pending_violations();
                let notices = self.pending_notices();
                let mut reply = self.pre_tool(event)?;
                if !notices.is_empty() {
                    reply.add_context(format!(
                        "<intent_ledger>From other sessions: {}</intent_ledger>",
                        context::escape(&notices.join("; "))
                    ));
                }
                if !pending.is_empty() {
                    reply.add_context(format!(
                        "<intent_ledger>Recorded since your last action (the front-end reported these edits only after they happened): {}. Select the intent that owns these files, or undo them.</intent_ledger>",
                        context::escape(&pending.join("; "))
                    ));
                }
                Ok(reply)
            }
            Phase::PostTool | Phase::PostToolFailure => self.post_tool(event),
            Phase::Continue => Ok(Reply::default()),
            Phase::Stop => {
                self.close_turn("stop")?;
                self.append(&SessionStop {
                    front_end: Some(self.origin.name().to_string()),
                    extra: Default::default(),
                })?;
                Ok(Reply::default())
            }
        }
    }

    /// Notices from other sessions (collisions across worktrees) not yet told.
    fn pending_notices(&self) -> Vec<String> {
        self.state
            .session(&self.session)
            .map(|s| s.pending_notices.clone())
            .unwrap_or_default()
    }

    /// Violations recorded after the fact for this session and not yet told to the
    /// agent (Cursor: edits are reported only once they happened).
    fn pending_violations(&self) -> Vec<String> {
        if self.origin != Origin::Hook(FrontEnd::Cursor) {
            return Vec::new();
        }
        self.state
            .session(&self.session)
            .map(|s| s.pending_violations.clone())
            .unwrap_or_default()
    }

    pub(super) fn model(&self, event: &HookEvent) -> Option<String> {
        event
            .model
            .clone()
            .or_else(|| {
                self.state
                    .session(&self.session)
                    .and_then(|s| s.model.clone())
            })
            .or_else(|| {
                event
                    .transcript_path
                    .as_deref()
                    .and_then(model::from_transcript)
            })
            .map(|m| model::normalize(&m))
    }

    pub(super) fn active(&self) -> Option<String> {
        self.state.active_intent(&self.session).map(str::to_string)
    }

    fn active_context(&mut self) -> Option<String> {
        let id = self.active()?;
        self.state.ensure_digest(&id);
        let specs = self.specs.as_deref().ok()?;
        let spec = specs.intent(&id)?;
        Some(context::intent_context(spec, &specs.file, &self.state))
    }

    fn session_start(&mut self, event: &HookEvent) -> anyhow::Result<Reply> {
        let model = self.model(event);
        self.append(&SessionStart {
            front_end: Some(self.origin.name().to_string()),
            source: event.source.clone(),
            model,
            cwd: event.cwd.as_ref().map(|c| c.to_string_lossy().into_owned()),
            extra: Default::default(),
        })?;
        let context = self
            .active_context()
            .or_else(|| self.specs.as_deref().ok().map(context::selection_notice));
        // Another worktree, or a sync, may have left the generated file behind.
        self.write_lessons_file();
        Ok(Reply {
            refusal: None,
            context: self.with_lessons(context),
            post_block: None,
            rewrite: None,
        })
    }

    /// Ends the session's open turn, if any: appends its `turn.verdict`, the class
    /// judged over all of the turn's writes (each trace only knew the writes before
    /// it). `ended_by` says what ended it.
    pub(super) fn close_turn(&mut self, ended_by: &str) -> anyhow::Result<()> {
        let Some(open) = self
            .state
            .session(&self.session)
            .and_then(|s| s.open_turn.clone())
        else {
            return Ok(());
        };
        self.append(&TurnVerdict {
            turn: open.turn,
            mutation_class: open.mutation_class,
            reason: open.reason,
            first_seq: open.first_seq,
            last_seq: open.last_seq,
            traces: open.traces,
            paths: open.paths,
            ended_by: ended_by.to_string(),
            front_end: Some(self.origin.name().to_string()),
            extra: Default::default(),
        })?;
        Ok(())
    }

    fn prompt(&mut self, event: &HookEvent) -> anyhow::Result<Reply> {
        self.close_turn("prompt")?;
        let text = lessons::redact(event.prompt.as_deref().unwrap_or_default());
        let active = self.active();
        self.append(&Prompt {
            front_end: Some(self.origin.name().to_string()),
            prompt_id: event.prompt_id.clone(),
            text: text.clone(),
            intent_id: active,
            extra: Default::default(),
        })?;
        ast::forget_turns(
            &self.engine.workspace,
            &self.session,
            event.prompt_id.as_deref(),
        );
        analysis_cache::trim(&self.engine.workspace);
        if let Some(id) = selection::select_command(&text) {
            let context = match self.select(&id, "prompt", None)? {
                Ok(context) => context,
                Err(reason) => format!(
                    "<intent_ledger>{}</intent_ledger>",
                    context::escape(&reason.to_agent_text())
                ),
            };
            return Ok(Reply {
                refusal: None,
                context: Some(context),
                post_block: None,
                rewrite: None,
            });
        }
        let context = self
            .active_context()
            .or_else(|| self.specs.as_deref().ok().map(context::selection_notice));
        Ok(Reply {
            refusal: None,
            context: self.with_lessons(context),
            post_block: None,
            rewrite: None,
        })
    }
}

fn read_intentignore(workspace: &Workspace) -> Vec<String> {
    intent_ledger::atomic::read_regular(&workspace.orchestration_dir().join(".intentignore"))
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .map(|text| {
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// A value that serializes as a JSON string (an enum's label, a hash's hex), as
/// that string.
fn label<T: serde::Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(Value::String(text)) => text,
        Ok(other) => other.to_string(),
        Err(_) => String::new(),
    }
}

/// How long a hook waits for the ledger's lock before failing closed: 10 s, well
/// inside every front-end's hook timeout (Claude Code's default 60 s, ours 30 s);
/// `INTENT_HOOK_LOCK_MS` changes it.
fn hook_lock_timeout() -> std::time::Duration {
    let ms = std::env::var("INTENT_HOOK_LOCK_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    std::time::Duration::from_millis(ms)
}
