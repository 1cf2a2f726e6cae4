//! One hook payload in, one native reply out: the whole answer to a hook, short of
//! reading stdin and printing. `intent hook` and the in-process conformance suite
//! both go through [`answer`].
//!
//! A hook must never let a destructive action through by accident: a payload that
//! cannot be read, a workspace that cannot be opened, an error or a panic inside the
//! engine all answer "deny" for anything that is not clearly read-only (fail closed),
//! and let read-only actions pass with a warning event (fail open).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use intent_ledger::Workspace;
use serde_json::{json, Value};

use crate::adapters::{self, Adapter};
use crate::engine::{Engine, FrontEnd, HookEvent, Phase, Reply};
use crate::{Hook, HookError};

/// Largest payload a hook reads; Write payloads carry whole files.
pub const MAX_PAYLOAD_BYTES: u64 = 64 * 1024 * 1024;

/// What a hook answers, and what it has to say about it.
#[derive(Debug)]
pub struct Answer {
    /// The reply, in the front-end's words.
    pub reply: Value,
    /// What went wrong, one line each, for stderr (empty when all went well).
    pub diagnostics: Vec<String>,
    /// The event, when the payload could be read, and whether the engine handled
    /// it without error.
    pub handled: Option<(HookEvent, bool)>,
}

/// How a hook was called: the front-end named on the command line (recognized from
/// the payload's shape without one) and the event it is registered for (for
/// front-ends whose payloads do not name it).
#[derive(Debug, Clone, Copy, Default)]
pub struct Call<'a> {
    /// `intent hook <front-end>`.
    pub front_end: Option<FrontEnd>,
    /// `intent hook … --event <name>`.
    pub event: Option<&'a str>,
}

impl Call<'_> {
    /// The adapter that speaks before the payload is read: the named front-end's
    /// (Claude Code's when none is named: Codex reads it too).
    fn named(&self) -> &'static dyn Adapter {
        adapters::adapter(self.front_end.unwrap_or(FrontEnd::ClaudeCode))
    }

    /// The refusal when the payload itself is unusable.
    pub fn refuse_unreadable(&self, why: &str) -> Answer {
        let err = HookError::Unreadable(why.to_string());
        Answer {
            reply: self.named().fail_closed(
                self.event.unwrap_or(""),
                &format!("intent gate: the hook {err}; refusing to be safe."),
            ),
            diagnostics: vec![err.to_string()],
            handled: None,
        }
    }
}

/// Answers one payload, as the hook `hook` (its helper's memory if any, its event
/// ids' seed, its timings; what it defers is left in it for
/// [`Hook::after_answer`]). `workspace_for` picks the workspace from the parsed
/// event (the CLI's `--workspace`, a project directory variable, the payload's
/// `cwd`).
pub fn answer(
    call: Call<'_>,
    hook: &mut Hook,
    input: &[u8],
    workspace_for: impl FnOnce(&HookEvent) -> Workspace,
) -> Answer {
    answer_unless(call, hook, input, |event| Some(workspace_for(event)))
        .expect("a workspace is always chosen")
}

/// [`answer`], except that `workspace_for` may decline the event (`None`) before
/// anything is recorded: the resident helper declines events of another workspace,
/// which its client then answers itself.
pub fn answer_unless(
    call: Call<'_>,
    hook: &mut Hook,
    input: &[u8],
    workspace_for: impl FnOnce(&HookEvent) -> Option<Workspace>,
) -> Option<Answer> {
    if input.len() as u64 > MAX_PAYLOAD_BYTES {
        return Some(call.refuse_unreadable("is over 64 MiB"));
    }
    let mut payload: Value = match std::str::from_utf8(input)
        .map_err(|e| format!("is not valid UTF-8 ({e})"))
        .and_then(|text| serde_json::from_str(text).map_err(|e| format!("is not JSON ({e})")))
    {
        Ok(payload) => payload,
        Err(why) => return Some(call.refuse_unreadable(&why)),
    };
    if let (Some(event), Value::Object(fields)) = (call.event, &mut payload) {
        fields
            .entry(adapters::copilot::EVENT_FIELD)
            .or_insert_with(|| Value::String(event.to_string()));
    }
    hook.timings.mark("read payload");
    let adapter = adapters::adapter(call.front_end.unwrap_or_else(|| adapters::detect(&payload)));
    let name = adapter.event_name(&payload);
    let event = match adapter.parse(&payload).map_err(HookError::Payload) {
        // An external adapter's event is recorded under its own name, and judged with
        // the capabilities it declared.
        Ok(mut event) => {
            if let Some(external @ FrontEnd::External(_)) = call.front_end {
                event.front_end = external;
            }
            event
        }
        Err(err) => {
            return Some(Answer {
                reply: adapter.fail_closed(
                    &name,
                    &format!(
                    "intent gate: cannot read this {} hook payload ({err}); refusing to be safe.",
                    call.front_end.unwrap_or(adapter.front_end()).as_str()
                ),
                ),
                diagnostics: vec![err.to_string()],
                handled: None,
            })
        }
    };
    let mut diagnostics = Vec::new();
    let workspace = workspace_for(&event)?;
    let ledger = workspace.ledger_path();
    let engine = match Engine::new(workspace) {
        Ok(engine) => engine,
        Err(err) => {
            let why = HookError::Workspace(err).to_string();
            let reply = fail(
                adapter,
                &event,
                &name,
                None,
                &ledger,
                &why,
                &mut diagnostics,
            );
            return Some(Answer {
                reply,
                diagnostics,
                handled: Some((event, false)),
            });
        }
    };
    // A hook killed from here on leaves a marker the next hook records.
    let in_flight = unrecorded_record(&event, &name, "").and_then(|record| {
        crate::engine::unrecorded::InFlight::begin(&ledger, &event.session, record)
    });
    record_unsent(adapter, &payload, &engine, hook, &mut diagnostics);
    // Agent-supplied text reaches parsers and walkers: a panic must still answer.
    let outcome = catch_unwind(AssertUnwindSafe(|| engine.handle(&event, hook)))
        .unwrap_or_else(|panic| Err(HookError::Panic(panic_message(panic.as_ref()))));
    hook.timings.mark("commit");
    let (reply, ok) = match outcome {
        Ok(reply) => (adapter.render(&name, &reply), true),
        Err(err @ HookError::Tampered(_)) => {
            let why = err.to_string();
            let reply = fail_tampered(adapter, &event, &name, &ledger, &why, &mut diagnostics);
            (reply, false)
        }
        Err(err) => {
            let why = err.to_string();
            let reply = fail(
                adapter,
                &event,
                &name,
                Some((&engine, hook)),
                &ledger,
                &why,
                &mut diagnostics,
            );
            (reply, false)
        }
    };
    drop(in_flight);
    Some(Answer {
        reply,
        diagnostics,
        handled: Some((event, ok)),
    })
}

/// Records the events the front-end never sent before this one
/// ([`Adapter::unsent_before`]); one that cannot be read or recorded is named in
/// the diagnostics (a `hook.warning`) and the hook goes on.
fn record_unsent(
    adapter: &dyn Adapter,
    payload: &Value,
    engine: &Engine,
    hook: &mut Hook,
    diagnostics: &mut Vec<String>,
) {
    for unsent in adapter.unsent_before(payload) {
        let recorded = adapter
            .parse(&unsent)
            .map_err(|err| err.to_string())
            .and_then(|event| {
                catch_unwind(AssertUnwindSafe(|| engine.handle(&event, hook)))
                    .unwrap_or_else(|panic| Err(HookError::Panic(panic_message(panic.as_ref()))))
                    .map_err(|err| err.to_string())
            });
        if let Err(why) = recorded {
            diagnostics.push(format!(
                "a tool call the front-end did not report ({}) was not recorded: {why}",
                unsent["tool_name"].as_str().unwrap_or("an event")
            ));
        }
    }
}

/// The message a panic carried (`panic!("…")` gives a `String` or a `&str`).
pub fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "unknown panic".into())
}

/// A ledger that no longer matches its head: nothing can be recorded (so no
/// warning event either); destructive actions are refused with `ledger_tampered`,
/// reads pass.
fn fail_tampered(
    adapter: &dyn Adapter,
    event: &HookEvent,
    name: &str,
    ledger: &Path,
    why: &str,
    diagnostics: &mut Vec<String>,
) -> Value {
    diagnostics.push(why.to_string());
    if let Some(reply) = unrecorded_reply(event, name, ledger, why) {
        return adapter.render(name, &reply);
    }
    if event.phase == Phase::PreTool && !is_read_only(event) {
        let reason = json!({
            "type": "ledger_tampered",
            "message": why,
            "next_step": "Stop and tell the human: the ledger was tampered with. A person runs `intent verify` to see what happened, `intent restore` to rebuild lost events from the last checkpoint in git, or `intent verify --repair` to record the loss and continue. Do not touch .orchestration/ yourself.",
        });
        return adapter.fail_closed(
            name,
            &format!("intent gate: the ledger was tampered with; refusing every change until a person repairs it.\n{reason}"),
        );
    }
    adapter.render(name, &Default::default())
}

fn is_read_only(event: &HookEvent) -> bool {
    match event.tool.as_ref() {
        None => true,
        Some(tool) => {
            let cwd = event.cwd.clone().unwrap_or_default();
            intent_gate::fails_open(&tool.action, &cwd)
        }
    }
}

/// Fails closed for anything that may change the workspace, open for reads; with an
/// engine, records the failure as the hook's warning.
fn fail(
    adapter: &dyn Adapter,
    event: &HookEvent,
    name: &str,
    engine: Option<(&Engine, &mut Hook)>,
    ledger: &Path,
    why: &str,
    diagnostics: &mut Vec<String>,
) -> Value {
    diagnostics.push(why.to_string());
    if let Some(reply) = unrecorded_reply(event, name, ledger, why) {
        if let Some((engine, hook)) = engine {
            engine.record_warning(
                hook,
                Some(&event.session),
                &format!("{name}: {why}; not recorded"),
            );
        }
        return adapter.render(name, &reply);
    }
    let read_only = is_read_only(event);
    if let Some((engine, hook)) = engine {
        let verdict = if read_only {
            "allowed (read-only, fail open)"
        } else {
            "denied (fail closed)"
        };
        let warning = format!("{name}: {why}; {verdict}");
        engine.record_warning(hook, Some(&event.session), &warning);
    }
    if event.phase == Phase::PreTool && !read_only {
        let reason = json!({
            "type": "invalid_config",
            "message": format!("the intent hook failed: {why}"),
            "next_step": "Tell the human; destructive actions are refused until `intent validate` and `intent verify` pass.",
        });
        return adapter.fail_closed(
            name,
            &format!("intent gate: the hook failed ({why}); refusing to be safe.\n{reason}"),
        );
    }
    adapter.render(name, &Default::default())
}

/// What a hook after a tool that may have changed files would have recorded, as a
/// `hook.unrecorded` record; `None` for every other hook.
fn unrecorded_record(
    event: &HookEvent,
    name: &str,
    why: &str,
) -> Option<intent_ledger::payload::HookUnrecorded> {
    if !matches!(event.phase, Phase::PostTool | Phase::PostToolFailure) || is_read_only(event) {
        return None;
    }
    let tool = event.tool.as_ref()?;
    let paths = match &tool.action {
        intent_gate::Action::Write { paths, .. } | intent_gate::Action::Other { paths, .. } => {
            paths.clone()
        }
        _ => Vec::new(),
    };
    Some(intent_ledger::payload::HookUnrecorded {
        hook: name.to_string(),
        front_end: Some(event.front_end.as_str().to_string()),
        tool: Some(tool.action.tool().to_string()),
        tool_use_id: tool.use_id.clone(),
        paths,
        why: why.to_string(),
        failed_at: time::OffsetDateTime::now_utc()
            .format(&time::format_description::well_known::Rfc3339)
            .unwrap_or_default(),
        extra: Default::default(),
    })
}

/// After a tool that may have changed files ran, a hook that cannot record it says
/// so to the agent (never an empty reply) and leaves a marker the next hook that
/// can write records as `hook.unrecorded`. `None` for every other hook.
fn unrecorded_reply(event: &HookEvent, name: &str, ledger: &Path, why: &str) -> Option<Reply> {
    let record = unrecorded_record(event, name, why)?;
    let tool = event.tool.as_ref()?;
    let left = crate::engine::unrecorded::leave(ledger, &event.session, &record);
    let later = match left {
        Some(_) => "The next hook that can write records it as `hook.unrecorded`.",
        None => "No marker could be left either: tell the human exactly what you changed.",
    };
    Some(Reply {
        context: Some(format!(
            "intent: this {} call ran but was NOT recorded in the ledger ({why}). Stop and \
             tell the human: the record of your work has a gap until a person fixes the \
             ledger (`intent doctor` says how). {later}",
            tool.action.tool()
        )),
        ..Default::default()
    })
}
