//! The hook engine: one normalized event in, one normalized reply out.
//!
//! Every event runs as one ledger transaction: load the hook state (O(1) plus the
//! lines written since its stamp), load the specs and policy, decide or record,
//! append, save the state. Adapters (`crate::adapters`) only translate payloads.

pub mod ast;
pub mod context;
pub mod event;
pub mod lessons;
mod model;
pub mod shell;
pub mod specs;
pub mod trace;
pub mod vcs;

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use intent_ledger::gate::{
    self, file_sha256, Action, GateInput, GateReason, Policy, ReasonKind, Verdict,
};
use intent_ledger::spec::SpecDocument;
use intent_ledger::state::{HookState, StateCache};
use intent_ledger::{
    kinds, Durability, LedgerOptions, NewEvent, ReverseLineReader, Transaction, Workspace,
};
use serde_json::{json, Value};

pub use event::{FrontEnd, HookEvent, Phase, Refusal, Reply, ToolCall};

/// Kind of the event that records an agent's stop.
pub const SESSION_STOP: &str = "session.stop";
/// Kind of the event that records a problem the hook handled by failing open or closed.
pub const HOOK_WARNING: &str = "hook.warning";

/// Runs hook events against one workspace.
#[derive(Debug, Clone)]
pub struct Engine {
    workspace: Workspace,
    root: PathBuf,
    ledger_options: LedgerOptions,
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
        })
    }

    /// Returns the workspace.
    pub fn workspace(&self) -> &Workspace {
        &self.workspace
    }

    /// Handles one event: records it and answers.
    pub fn handle(&self, event: &HookEvent) -> anyhow::Result<Reply> {
        self.with_turn(event.front_end, |turn| turn.handle(event))
    }

    /// Selects an intent for a session from outside a front-end (`intent select`).
    pub fn select(
        &self,
        session: &str,
        intent_id: &str,
        via: &str,
    ) -> anyhow::Result<Result<String, GateReason>> {
        self.with_turn(FrontEnd::ClaudeCode, |turn| {
            turn.session = session.to_string();
            turn.select(intent_id, via, None)
        })
    }

    /// Checks whether `intent_id` may be selected and renders its context, without
    /// recording anything (the MCP server's answer; the hook records the selection).
    pub fn preview_selection(&self, intent_id: &str) -> anyhow::Result<Result<String, GateReason>> {
        self.with_turn(FrontEnd::ClaudeCode, |turn| {
            turn.state.ensure_digest(intent_id);
            Ok(turn.check_selectable(intent_id).map(|spec_index| {
                let specs = turn.specs.as_ref().expect("checked");
                context::intent_context(&specs.file.active_intents[spec_index], &turn.state)
            }))
        })
    }

    /// Returns the active intent and its context for a session.
    pub fn active_context(&self, session: &str) -> anyhow::Result<Option<(String, String)>> {
        self.with_turn(FrontEnd::ClaudeCode, |turn| {
            let Some(id) = turn.state.active_intent(session).map(str::to_string) else {
                return Ok(None);
            };
            turn.state.ensure_digest(&id);
            let text = match turn.specs.as_ref().ok().and_then(|s| s.intent(&id)) {
                Some(spec) => context::intent_context(spec, &turn.state),
                None => format!("{id} is no longer in active_intents.yaml"),
            };
            Ok(Some((id, text)))
        })
    }

    /// Returns the specs as the gate sees them, or why they are unusable.
    pub fn specs(&self) -> anyhow::Result<Result<SpecDocument, String>> {
        self.with_turn(FrontEnd::ClaudeCode, |turn| Ok(turn.specs.clone()))
    }

    /// Finds the session whose hook recorded `tool_use_id` (MCP servers learn the
    /// tool-use id from the front-end, not the session). Reads newest first and
    /// stops after a bounded number of lines.
    pub fn session_for_tool_use(&self, tool_use_id: &str) -> anyhow::Result<Option<String>> {
        let needle = format!(r#""tool_use_id":{}"#, serde_json::to_string(tool_use_id)?);
        let path = self.workspace.ledger_path();
        for line in ReverseLineReader::open(&path)?.take(20_000) {
            let line = line?;
            if memchr_find(&line.bytes, needle.as_bytes()) {
                let event = line.parse(&path)?;
                if event.kind == kinds::TOOL_PRE {
                    return Ok(event.session);
                }
            }
        }
        Ok(None)
    }

    /// Records a problem the hook handled by failing open or closed. Best effort.
    pub fn record_warning(&self, session: Option<&str>, message: &str) {
        let Ok(mut ledger) = self.workspace.open_ledger(self.ledger_options.clone()) else {
            return;
        };
        let mut event = NewEvent::new(HOOK_WARNING, "hook", json!({ "message": message }));
        event.session = session.map(str::to_string);
        let _ = ledger.append(event);
    }

    fn with_turn<T>(
        &self,
        front_end: FrontEnd,
        work: impl FnOnce(&mut Turn<'_, '_>) -> anyhow::Result<T>,
    ) -> anyhow::Result<T> {
        let mut ledger = self.workspace.open_ledger(self.ledger_options.clone())?;
        ledger.transaction(|tx| {
            let cache = StateCache::new(&self.workspace.cache_dir());
            let mut state = cache.load(tx)?;
            let source = format!("hook:{}", front_end.as_str());
            let specs = specs::load(&self.workspace, tx, &mut state, &source)?;
            let policy = Policy::load(&self.workspace.orchestration_dir().join("policy.yaml"));
            let mut turn = Turn {
                engine: self,
                tx,
                state,
                specs,
                policy,
                source,
                front_end,
                session: String::new(),
            };
            let result = work(&mut turn)?;
            let Turn { tx, mut state, .. } = turn;
            state.catch_up(tx.path(), tx.end())?;
            cache.save(&state)?;
            Ok(result)
        })
    }
}

fn memchr_find(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// One event's work, inside the ledger transaction.
struct Turn<'e, 't> {
    engine: &'e Engine,
    tx: &'e mut Transaction<'t>,
    state: HookState,
    specs: Result<SpecDocument, String>,
    policy: Result<Policy, String>,
    source: String,
    front_end: FrontEnd,
    session: String,
}

impl Turn<'_, '_> {
    fn root(&self) -> &Path {
        &self.engine.root
    }

    fn append(&mut self, kind: &str, data: Value) -> anyhow::Result<u64> {
        let event =
            NewEvent::new(kind, self.source.clone(), data).with_session(self.session.clone());
        let done = self.tx.append(vec![event])?;
        self.state.catch_up(self.tx.path(), self.tx.end())?;
        Ok(done[0].seq)
    }

    fn handle(&mut self, event: &HookEvent) -> anyhow::Result<Reply> {
        self.session = event.session.clone();
        match event.phase {
            Phase::SessionStart => self.session_start(event),
            Phase::PromptSubmit => self.prompt(event),
            Phase::PreTool => self.pre_tool(event),
            Phase::PostTool | Phase::PostToolFailure => self.post_tool(event),
            Phase::Stop => {
                self.append(
                    SESSION_STOP,
                    json!({ "front_end": self.front_end.as_str() }),
                )?;
                Ok(Reply::default())
            }
        }
    }

    fn model(&self, event: &HookEvent) -> Option<String> {
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

    fn active(&self) -> Option<String> {
        self.state.active_intent(&self.session).map(str::to_string)
    }

    fn active_context(&mut self) -> Option<String> {
        let id = self.active()?;
        self.state.ensure_digest(&id);
        let spec = self.specs.as_ref().ok()?.intent(&id)?;
        Some(context::intent_context(spec, &self.state))
    }

    fn session_start(&mut self, event: &HookEvent) -> anyhow::Result<Reply> {
        let model = self.model(event);
        self.append(
            kinds::SESSION_START,
            json!({
                "front_end": self.front_end.as_str(),
                "source": event.source,
                "model": model,
                "cwd": event.cwd,
            }),
        )?;
        let context = self
            .active_context()
            .or_else(|| self.specs.as_ref().ok().map(context::selection_notice));
        Ok(Reply {
            refusal: None,
            context,
            post_block: None,
        })
    }

    fn prompt(&mut self, event: &HookEvent) -> anyhow::Result<Reply> {
        let text = lessons::redact(event.prompt.as_deref().unwrap_or_default());
        let active = self.active();
        self.append(
            kinds::PROMPT,
            json!({
                "front_end": self.front_end.as_str(),
                "prompt_id": event.prompt_id,
                "text": text,
                "intent_id": active,
            }),
        )?;
        ast::forget_turns(
            &self.engine.workspace,
            &self.session,
            event.prompt_id.as_deref(),
        );
        if let Some(id) = select_command(&text) {
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
            });
        }
        let context = self
            .active_context()
            .or_else(|| self.specs.as_ref().ok().map(context::selection_notice));
        Ok(Reply {
            refusal: None,
            context,
            post_block: None,
        })
    }

    /// Validates a selection: returns the intent's index in the specs, or why not.
    // A refusal is an ordinary answer built once per hook process, not an error
    // on a hot path, so its size does not matter.
    #[allow(clippy::result_large_err)]
    fn check_selectable(&self, intent_id: &str) -> Result<usize, GateReason> {
        let mut reason = GateReason {
            kind: ReasonKind::IntentNotActive,
            message: String::new(),
            intent_id: Some(intent_id.to_string()),
            attempted_path: None,
            attempted_command: None,
            allowed_scope: Vec::new(),
            available_intents: Vec::new(),
            next_step: "Select one of available_intents.".into(),
        };
        let specs = match &self.specs {
            Ok(specs) => specs,
            Err(why) => {
                reason.kind = ReasonKind::InvalidConfig;
                reason.message = format!("intents cannot be selected: {why}.");
                reason.next_step =
                    "Tell the human to run `intent validate` and fix the errors.".into();
                return Err(reason);
            }
        };
        let default_policy = Policy::default();
        let policy = self.policy.as_ref().unwrap_or(&default_policy);
        reason.available_intents = gate::available_intents(specs, policy);
        let well_formed = intent_id
            .strip_prefix("INT-")
            .is_some_and(|digits| digits.len() >= 3 && digits.bytes().all(|b| b.is_ascii_digit()));
        if !well_formed {
            reason.message = format!("`{intent_id}` is not an intent id (expected INT- and at least three digits, e.g. INT-001).");
            return Err(reason);
        }
        let Some(index) = specs
            .file
            .active_intents
            .iter()
            .position(|i| i.id == intent_id)
        else {
            reason.message = format!("{intent_id} does not exist in active_intents.yaml.");
            return Err(reason);
        };
        let intent = &specs.file.active_intents[index];
        reason.allowed_scope = intent.owned_scope.clone();
        let status = intent.status();
        if !gate::workable(status, policy) {
            let shown = status.map_or(intent.status.clone(), |s| s.as_str().to_string());
            reason.message = match &intent.blocked_reason {
                Some(why) => {
                    format!("{intent_id} is {shown}: {why}. It cannot be selected for work.")
                }
                None => format!("{intent_id} is {shown}. It cannot be selected for work."),
            };
            reason.next_step = "Select an IN_PROGRESS intent from available_intents, or ask the human to change this one's status.".into();
            return Err(reason);
        }
        Ok(index)
    }

    /// Records the selection of `intent_id` for the session and returns its context.
    fn select(
        &mut self,
        intent_id: &str,
        via: &str,
        reasoning: Option<&str>,
    ) -> anyhow::Result<Result<String, GateReason>> {
        let index = match self.check_selectable(intent_id) {
            Ok(index) => index,
            Err(reason) => return Ok(Err(reason)),
        };
        let previous = self.active();
        self.append(
            kinds::INTENT_SELECTED,
            json!({
                "intent_id": intent_id,
                "via": via,
                "previous": previous,
                "reasoning": reasoning.map(lessons::redact),
            }),
        )?;
        self.state.ensure_digest(intent_id);
        let specs = self.specs.as_ref().expect("checked by check_selectable");
        Ok(Ok(context::intent_context(
            &specs.file.active_intents[index],
            &self.state,
        )))
    }

    fn pre_tool(&mut self, event: &HookEvent) -> anyhow::Result<Reply> {
        let tool = event.tool.as_ref().context("a tool event without a tool")?;
        let model = self.model(event);
        let mut base = json!({
            "front_end": self.front_end.as_str(),
            "tool": tool.action.tool(),
            "tool_use_id": tool.use_id,
            "prompt_id": event.prompt_id,
            "model": model,
        });
        if tool.handshake.as_deref() == Some("select_active_intent") {
            let wanted = tool.input["intent_id"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            let verdict = self.check_selectable(&wanted);
            base["intent_id"] = json!(wanted);
            base["decision"] = json!(if verdict.is_ok() { "allow" } else { "deny" });
            base["class"] = json!("read_only");
            if let Err(reason) = &verdict {
                base["reason"] = serde_json::to_value(reason)?;
            }
            self.append(kinds::TOOL_PRE, base)?;
            return Ok(match verdict {
                Ok(_) => Reply::default(),
                Err(reason) => Reply {
                    refusal: Some(Refusal { ask: false, reason }),
                    context: None,
                    post_block: None,
                },
            });
        }
        let cwd = event
            .cwd
            .clone()
            .unwrap_or_else(|| self.root().to_path_buf());
        let ignore = read_intentignore(&self.engine.workspace);
        self.state.ensure_session(&self.session);
        let decision = {
            let input = GateInput {
                action: &tool.action,
                session: &self.session,
                root: self.root(),
                cwd: &cwd,
                specs: self.specs.as_ref().map_err(String::as_str),
                policy: self.policy.as_ref().map_err(String::as_str),
                state: &self.state,
                ignore: &ignore,
            };
            gate::decide(&input)
        };
        base["intent_id"] = json!(decision.intent_id);
        base["decision"] = json!(decision.verdict);
        base["class"] = json!(decision.class);
        base["paths"] = json!(decision.paths);
        if let Action::Shell { command, .. } = &tool.action {
            base["command"] = json!(lessons::redact(command));
        }
        if let Some(reason) = &decision.reason {
            base["reason"] = serde_json::to_value(reason)?;
        }
        self.append(kinds::TOOL_PRE, base)?;
        if matches!(&tool.action, Action::Shell { .. })
            && decision.verdict != Verdict::Deny
            && decision.class != gate::ActionClass::ReadOnly
        {
            if let Some(use_id) = &tool.use_id {
                shell::save_baseline(&self.engine.workspace, self.root(), use_id);
            }
        }
        let refusal = decision
            .reason
            .clone()
            .filter(|_| decision.verdict != Verdict::Allow)
            .map(|reason| Refusal {
                ask: decision.verdict == Verdict::Ask,
                reason,
            });
        if let Some(refusal) = &refusal {
            if decision.verdict == Verdict::Deny
                && self
                    .policy
                    .as_ref()
                    .map(|p| p.lesson_on_deny)
                    .unwrap_or(true)
            {
                let text = format!(
                    "{} was denied ({}): {}",
                    tool.action.tool(),
                    refusal.reason.kind.as_str(),
                    refusal.reason.message
                );
                self.lesson(&text, decision.intent_id.clone(), "gate")?;
            }
        }
        Ok(Reply {
            refusal,
            context: None,
            post_block: None,
        })
    }

    fn lesson(
        &mut self,
        text: &str,
        intent_id: Option<String>,
        origin: &str,
    ) -> anyhow::Result<()> {
        let text = lessons::redact(text);
        self.append(
            kinds::LESSON,
            json!({ "intent_id": intent_id, "text": text, "origin": origin }),
        )?;
        let date = intent_ledger::line::format_ts(time::OffsetDateTime::now_utc());
        let line = format!(
            "{} {} (session {}): {}",
            &date[..10],
            intent_id.as_deref().unwrap_or("no intent"),
            short(&self.session),
            text
        );
        lessons::append_to_claude_md(
            &self.engine.workspace.orchestration_dir().join("CLAUDE.md"),
            &line,
        )
        .context("cannot update .orchestration/CLAUDE.md")
    }

    fn post_tool(&mut self, event: &HookEvent) -> anyhow::Result<Reply> {
        let tool = event.tool.as_ref().context("a tool event without a tool")?;
        let failed = event.phase == Phase::PostToolFailure
            || tool.response.as_ref().is_some_and(response_failed);
        self.state.ensure_session(&self.session);
        let active = self.active();
        if let Some(handshake) = tool.handshake.as_deref() {
            return self.post_handshake(handshake, tool, failed);
        }
        let model = self.model(event);
        let mut post = json!({
            "front_end": self.front_end.as_str(),
            "tool": tool.action.tool(),
            "tool_use_id": tool.use_id,
            "prompt_id": event.prompt_id,
            "intent_id": active,
            "ok": !failed,
        });
        let cwd = event
            .cwd
            .clone()
            .unwrap_or_else(|| self.root().to_path_buf());
        let mut traces = Vec::new();
        match &tool.action {
            Action::Read { paths, .. } if !failed => {
                let mut hashes = serde_json::Map::new();
                for raw in paths {
                    if let Ok(rel) = gate::workspace_relative(self.root(), &cwd, raw) {
                        if let Ok(Some(hash)) = file_sha256(&self.root().join(&rel)) {
                            hashes.insert(rel, json!(hash));
                        }
                    }
                }
                post["file_hashes"] = Value::Object(hashes);
            }
            Action::Write { paths, .. } if !failed => {
                for raw in paths {
                    let Ok(rel) = gate::workspace_relative(self.root(), &cwd, raw) else {
                        continue;
                    };
                    let original = tool
                        .response
                        .as_ref()
                        .and_then(|r| r.get("originalFile"))
                        .and_then(Value::as_str)
                        .map(str::as_bytes);
                    let known = self.last_known_hash(&rel);
                    let file = trace::trace_file(self.root(), &rel, original, known);
                    // An `update` without its original text cannot be parsed as before.
                    let existed = file.before_sha256.is_some();
                    traces.push((file, original.map(<[u8]>::to_vec), existed));
                }
            }
            Action::Shell { .. } if !failed => {
                if let Some(use_id) = &tool.use_id {
                    match shell::changed_files(&self.engine.workspace, self.root(), use_id) {
                        Some(changed) => {
                            for change in changed {
                                let existed =
                                    change.before_text.is_some() || change.before_hash.is_some();
                                let file = trace::trace_file(
                                    self.root(),
                                    &change.path,
                                    change.before_text.as_deref(),
                                    change.before_hash,
                                );
                                traces.push((file, change.before_text, existed));
                            }
                        }
                        None => post["changes_detected"] = json!(false),
                    }
                }
            }
            _ => {}
        }
        self.append(kinds::TOOL_POST, post)?;
        let revision = vcs::git_revision(self.root());
        let turn = event
            .prompt_id
            .clone()
            .or_else(|| tool.use_id.clone())
            .unwrap_or_default();
        let mut block_reason = None;
        for (file, before, existed) in &traces {
            let mut data = file.to_json();
            let declared = tool.declared_mutation_class.as_deref();
            let ast = ast::classify_write(
                &self.engine.workspace,
                self.root(),
                &self.session,
                &turn,
                &file.path,
                before.as_deref(),
                *existed,
                declared,
            );
            data["intent_id"] = json!(active);
            data["tool"] = json!(tool.action.tool());
            data["tool_use_id"] = json!(tool.use_id);
            data["prompt_id"] = json!(event.prompt_id);
            data["front_end"] = json!(self.front_end.as_str());
            data["model"] = json!(model);
            data["vcs"] = revision
                .as_ref()
                .map_or(Value::Null, |r| json!({"type": "git", "revision": r}));
            let computed = match &ast {
                Some(ast) => {
                    data["mutation_class"] = json!(ast.mutation_class);
                    data["classification"] = ast.classification.clone();
                    data["blocks"] = ast.blocks.clone();
                    let salt = tool.use_id.clone().unwrap_or_else(|| turn.clone());
                    self.assign_block_ids(&mut data["blocks"], &salt);
                    ast.mutation_class
                }
                None => file.mutation_class,
            };
            if let Some(declared) = declared {
                data["declared_mutation_class"] = json!(declared);
                data["declared_matches"] = json!(declared == computed);
                let mismatch = ast
                    .as_ref()
                    .and_then(|a| a.declared_mismatch.clone())
                    .or_else(|| {
                        (declared != computed).then(|| {
                            format!(
                                "declared {declared} but the change of `{}` is {computed}",
                                file.path
                            )
                        })
                    });
                if let Some(message) = mismatch {
                    data["declared_mismatch"] = json!(message);
                    let block = self
                        .policy
                        .as_ref()
                        .is_ok_and(|p| p.declared_class_mismatch == gate::MismatchAction::Block);
                    if block {
                        block_reason = Some(format!("intent gate: {message}. Declare the class the change really has, or undo the behaviour change."));
                    }
                }
            }
            self.append(kinds::TRACE, data)?;
        }
        if failed {
            let error = tool.response.as_ref().map(error_text).unwrap_or_default();
            let text = format!(
                "{} failed: {}",
                tool.action.tool(),
                context::clip(&error, 300)
            );
            self.lesson(&text, active, "tool_failure")?;
        }
        Ok(Reply {
            post_block: block_reason,
            ..Reply::default()
        })
    }

    fn post_handshake(
        &mut self,
        handshake: &str,
        tool: &ToolCall,
        failed: bool,
    ) -> anyhow::Result<Reply> {
        self.append(
            kinds::TOOL_POST,
            json!({
                "front_end": self.front_end.as_str(),
                "tool": tool.action.tool(),
                "tool_use_id": tool.use_id,
                "ok": !failed,
            }),
        )?;
        if failed {
            return Ok(Reply::default());
        }
        match handshake {
            "select_active_intent" => {
                let id = tool.input["intent_id"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string();
                let reasoning = tool.input["reasoning"].as_str().map(str::to_string);
                let context = match self.select(&id, "mcp", reasoning.as_deref())? {
                    Ok(context) => context,
                    Err(reason) => format!(
                        "<intent_ledger>{}</intent_ledger>",
                        context::escape(&reason.to_agent_text())
                    ),
                };
                Ok(Reply {
                    refusal: None,
                    context: Some(context),
                    post_block: None,
                })
            }
            "clear_active_intent" => {
                if let Some(previous) = self.active() {
                    self.append(
                        kinds::INTENT_CLEARED,
                        json!({ "intent_id": previous, "via": "mcp" }),
                    )?;
                }
                Ok(Reply::default())
            }
            "record_lesson" => {
                // The same rule as the MCP server's: it refused anything else, and an
                // MCP tool's error does not always reach PostToolUse as one.
                let text = tool.input["text"]
                    .as_str()
                    .map(str::trim)
                    .unwrap_or_default();
                if !text.is_empty() && text.chars().count() <= lessons::MAX_LESSON_CHARS {
                    let active = self.active();
                    self.lesson(text, active, "agent")?;
                }
                Ok(Reply::default())
            }
            _ => Ok(Reply::default()),
        }
    }

    /// Gives each traced block its identity: the one its before side had, else a new
    /// one (the first trace that sees a block names it).
    fn assign_block_ids(&mut self, blocks: &mut Value, salt: &str) {
        let Some(entries) = blocks.as_array_mut() else {
            return;
        };
        for (index, entry) in entries.iter_mut().enumerate() {
            let before = (
                entry["before"]["path"].as_str(),
                entry["before"]["name"].as_str(),
            );
            let known = match before {
                (Some(path), Some(name)) => {
                    self.state.ensure_blocks(path);
                    self.state
                        .blocks
                        .get(path)
                        .and_then(|f| f.get(name))
                        .map(|b| b.id.clone())
                }
                _ => None,
            };
            let id = known.unwrap_or_else(|| {
                let seed = format!(
                    "{salt}\n{index}\n{}\n{}",
                    entry["after"]["path"], entry["after"]["name"]
                );
                blake3::hash(seed.as_bytes()).to_hex()[..32].to_string()
            });
            entry["id"] = json!(id);
        }
    }

    /// The hash this session last saw, else the newest any loaded session saw (other
    /// sessions' shards are not loaded just for this).
    fn last_known_hash(&self, rel: &str) -> Option<String> {
        if let Some(hash) = self
            .state
            .session(&self.session)
            .and_then(|s| s.files.get(rel))
        {
            return Some(hash.clone());
        }
        self.state
            .sessions
            .values()
            .filter_map(|s| s.files.get(rel).map(|h| (s.last_seq, h)))
            .max_by_key(|(seq, _)| *seq)
            .map(|(_, h)| h.clone())
    }
}

/// Finds `/intent INT-001` on a line of its own (leading spaces allowed).
fn select_command(prompt: &str) -> Option<String> {
    prompt.lines().find_map(|line| {
        let rest = line.trim_start().strip_prefix("/intent")?;
        if !rest.starts_with(char::is_whitespace) {
            return None;
        }
        rest.split_whitespace().next().map(str::to_string)
    })
}

fn read_intentignore(workspace: &Workspace) -> Vec<String> {
    std::fs::read_to_string(workspace.orchestration_dir().join(".intentignore"))
        .map(|text| {
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

fn response_failed(response: &Value) -> bool {
    response.get("is_error").and_then(Value::as_bool) == Some(true)
        || response.get("success").and_then(Value::as_bool) == Some(false)
        || response
            .get("error")
            .is_some_and(|e| !e.is_null() && e != "")
}

fn error_text(response: &Value) -> String {
    for key in ["error", "stderr", "message", "content"] {
        if let Some(text) = response.get(key).and_then(Value::as_str) {
            return text.to_string();
        }
    }
    response.to_string()
}

fn short(session: &str) -> &str {
    session.get(..8).unwrap_or(session)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prompt_selection_command_is_found_on_its_own_line() {
        assert_eq!(select_command("/intent INT-001"), Some("INT-001".into()));
        assert_eq!(
            select_command("please\n  /intent INT-042 now"),
            Some("INT-042".into())
        );
        assert_eq!(select_command("use /intent INT-001 inline"), None);
        assert_eq!(select_command("/intentional"), None);
    }
}
