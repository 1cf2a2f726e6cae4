//! After a tool ran: re-hash, classify and trace written files, record handshake
//! results and failures.

use anyhow::Context as _;
use intent_gate::changes::{ChangeJudge, ChangeVerdict};
use intent_gate::{self as gate, file_sha256, Action};
use intent_ledger::payload::{
    Collision, IntentCleared, ToolPost, Trace, TraceBlock, Vcs, Violation,
};
use serde_json::Value;

use super::{ast, context, lessons, texts, trace, vcs, EventTx, Phase, Reply, ToolCall};
use crate::engine::{FrontEnd, HookEvent, Origin};

impl EventTx<'_, '_> {
    pub(super) fn post_tool(&mut self, event: &HookEvent) -> anyhow::Result<Reply> {
        let tool = event.tool.as_ref().context("a tool event without a tool")?;
        let failed = event.phase == Phase::PostToolFailure
            || tool.response.as_ref().is_some_and(|r| r.failed);
        self.state.ensure_session(&self.session);
        let active = self.active();
        if let Some(handshake) = tool.handshake.as_deref() {
            return self.post_handshake(handshake, tool, failed);
        }
        let model = self.model(event);
        let mut warnings: Vec<String> = Vec::new();
        let mut post = ToolPost {
            front_end: Some(self.origin.name().to_string()),
            tool: Some(tool.action.tool().to_string()),
            tool_use_id: tool.use_id.clone(),
            prompt_id: event.prompt_id.clone(),
            intent_id: active.clone(),
            ok: !failed,
            ..ToolPost::default()
        };
        let cwd = event
            .cwd
            .clone()
            .unwrap_or_else(|| self.root().to_path_buf());
        // A Tab completion is the person's edit, not the agent's: traced, never a
        // violation.
        let agent_edit = tool.action.tool() != "tab_edit";
        if let (Origin::Hook(FrontEnd::Cursor), Action::Write { paths, .. }, true) =
            (self.origin, &tool.action, agent_edit)
        {
            if let Some(violation) = self.observed_violation(paths, &cwd, active.as_deref()) {
                post.violation = Some(violation);
            }
        }
        let mut traces = Vec::new();
        match &tool.action {
            Action::Read { paths, .. } if !failed => {
                let mut hashes = serde_json::Map::new();
                for raw in paths {
                    if let Ok(rel) = gate::workspace_relative(self.root(), &cwd, raw) {
                        if let Ok(Some(hash)) = file_sha256(&self.root().join(&rel)) {
                            hashes.insert(rel, Value::String(hash));
                        }
                    }
                }
                post.file_hashes = Some(hashes);
            }
            Action::Write { paths, .. } if !failed => {
                for raw in paths {
                    let Ok(rel) = gate::workspace_relative(self.root(), &cwd, raw) else {
                        continue;
                    };
                    // The front-end's old text describes a single-file write only.
                    let original = tool
                        .response
                        .as_ref()
                        .filter(|_| paths.len() == 1)
                        .and_then(|r| r.original_text.as_deref())
                        .map(str::as_bytes);
                    let known = self.last_known_hash(&rel);
                    // Without the front-end's original text, use the text recorded at
                    // the last traced hash (kept in the cache by content hash).
                    let before = original.map(<[u8]>::to_vec).or_else(|| {
                        known
                            .as_deref()
                            .and_then(|h| texts::load(&self.engine.workspace, h))
                    });
                    let workspace = &self.engine.workspace;
                    let file =
                        trace::trace_file(self.root(), &rel, before.as_deref(), known, &|hash| {
                            texts::has(workspace, hash)
                        });
                    let existed = file.before_sha256.is_some();
                    traces.push((file, before, existed));
                }
            }
            Action::Shell { .. } if tool.use_id.is_some() => {
                return self.post_shell(event, tool, post, failed, active, model);
            }
            _ => {}
        }
        self.hook.timings.mark("hash and diff");
        self.append(&post)?;
        let revision = vcs::git_revision(self.root());
        let turn = self.turn_of(event, tool);
        if !traces.is_empty() {
            self.close_other_turn(&turn)?;
        }
        self.hook.timings.mark("revision and turn");
        let mut block_reason = None;
        let mut prepared = match self.prefetch.take() {
            Some(started) if !traces.is_empty() => started.join().unwrap_or_default(),
            _ => Default::default(),
        };
        self.hook.timings.mark("wait for prefetch");
        for (file, before, existed) in &traces {
            let declared = tool.declared_mutation_class.as_deref();
            let ast = ast::classify_write(
                &self.engine.workspace,
                &self.engine.root,
                &self.session,
                &turn,
                ast::WrittenFile {
                    rel: &file.path,
                    before: before.as_deref(),
                    existed: *existed,
                    declared,
                },
                &mut prepared,
                self.hook,
            );
            let writer = Writer {
                event,
                tool,
                turn: &turn,
                intent_id: active.as_deref(),
                model: model.as_deref(),
                revision: revision.as_deref(),
            };
            self.hook.timings.mark("classify");
            let mut data = self.attributed(file.to_trace(), &writer);
            let computed = match &ast {
                Some(ast) => {
                    data.mutation_class = ast.mutation_class.to_string();
                    data.classification = ast.classification.clone();
                    let mut blocks = ast.blocks.clone();
                    let salt = tool.use_id.clone().unwrap_or_else(|| turn.clone());
                    let collisions = self.collisions(&blocks);
                    self.assign_block_ids(&mut blocks, &salt);
                    data.blocks = Some(blocks);
                    if !collisions.is_empty() {
                        warnings.push(collision_warning(&file.path, &collisions));
                        data.collisions = Some(collisions);
                    }
                    ast.mutation_class
                }
                None => file.mutation_class,
            };
            if let Some(declared) = declared {
                data.declared_mutation_class = Some(declared.to_string());
                data.declared_matches = Some(declared == computed);
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
                    let policy = self.policy.as_ref().map_err(String::as_str);
                    if let Some(reason) = gate::declared_class_refusal(&message, policy) {
                        block_reason = Some(reason);
                    }
                    data.declared_mismatch = Some(message);
                }
            }
            if let Some(hash) = &file.after_sha256 {
                texts::store(&self.engine.workspace, self.root(), &file.path, hash);
            }
            self.append(&data)?;
            self.hook.timings.mark("append trace");
        }
        if failed {
            let error = error_text(tool);
            let text = format!(
                "{} failed: {}",
                tool.action.tool(),
                context::clip(&error, 300)
            );
            self.lesson(&text, active, "tool_failure")?;
        }
        Ok(Reply {
            post_block: block_reason,
            context: (!warnings.is_empty()).then(|| {
                format!(
                    "<intent_ledger>{}</intent_ledger>",
                    context::escape(&warnings.join(" "))
                )
            }),
            ..Reply::default()
        })
    }

    /// Blocks this write changes that a session in another worktree changed
    /// differently (its version of the block is not the one this write started
    /// from): the "shared brain" that tells parallel agents they are about to
    /// conflict. Read from the hook state's block identities, which remember each
    /// block's last writer.
    fn collisions(&mut self, blocks: &[TraceBlock]) -> Vec<Collision> {
        let Some(here) = self.engine.workspace.git().map(|g| g.worktree.clone()) else {
            return Vec::new();
        };
        let mut found = Vec::new();
        for entry in blocks {
            // A changed block is looked up where it was; a new one where it lands (two
            // worktrees adding the same function collide too).
            let Some(side) = entry.before.as_ref().or(entry.after.as_ref()) else {
                continue;
            };
            let (path, key) = (side.path.as_str(), side.key_or_name());
            self.state.ensure_blocks(path);
            let Some(known) = self.state.blocks.get(path).and_then(|f| f.get(key)) else {
                continue;
            };
            let Some(writer) = &known.writer else {
                continue;
            };
            if writer.worktree == here
                || writer.session == self.session
                || known.alpha == side.alpha
            {
                continue;
            }
            found.push(Collision {
                path: path.to_string(),
                block: key.to_string(),
                session: writer.session.clone(),
                worktree: writer.worktree.clone(),
                branch: writer.branch.clone(),
                seq: writer.seq,
                intent_id: writer.intent.clone(),
                extra: Default::default(),
            });
        }
        found
    }

    /// A trace's text-rule facts, with who wrote it, under which intent, in which
    /// turn and at which revision.
    pub(super) fn attributed(&self, facts: Trace, writer: &Writer<'_>) -> Trace {
        Trace {
            intent_id: writer.intent_id.map(str::to_string),
            tool: Some(writer.tool.action.tool().to_string()),
            tool_use_id: writer.tool.use_id.clone(),
            prompt_id: writer.event.prompt_id.clone(),
            // The turn this write belongs to, as the classifier grouped it: queries
            // keep one history entry per block and turn, and the turn's verdict
            // (`turn.verdict`) names it.
            turn: Some(writer.turn.to_string()),
            front_end: Some(self.origin.name().to_string()),
            model: writer.model.map(str::to_string),
            vcs: writer.revision.map(Vcs::git),
            ..facts
        }
    }

    /// The turn a write belongs to: the user prompt it answers; front-ends whose tool
    /// events do not name it get the session's latest prompt.
    pub(super) fn turn_of(&self, event: &HookEvent, tool: &ToolCall) -> String {
        event
            .prompt_id
            .clone()
            .or_else(|| {
                self.state
                    .session(&self.session)
                    .and_then(|s| s.last_prompt.clone())
            })
            .or_else(|| tool.use_id.clone())
            .unwrap_or_default()
    }

    /// A write of another turn than the session's open one ends that turn (a
    /// front-end that sends no prompt between them): its verdict goes first.
    pub(super) fn close_other_turn(&mut self, turn: &str) -> anyhow::Result<()> {
        let open_turn = self
            .state
            .session(&self.session)
            .and_then(|s| s.open_turn.as_ref())
            .map(|t| t.turn.clone());
        if open_turn.is_some_and(|t| t != turn) {
            self.close_turn("next turn")?;
        }
        Ok(())
    }

    /// For front-ends that report an edit only after it happened (Cursor): what the
    /// gate would have refused (its rules, path by path), recorded since it cannot be
    /// prevented.
    fn observed_violation(
        &self,
        paths: &[String],
        cwd: &std::path::Path,
        active: Option<&str>,
    ) -> Option<Violation> {
        let ignore = super::read_intentignore(&self.engine.workspace);
        let judge = ChangeJudge::new(
            active,
            self.specs.as_deref().map_err(String::as_str),
            &ignore,
        );
        let judged: Vec<(String, ChangeVerdict)> = paths
            .iter()
            .map(|raw| {
                let rel =
                    gate::workspace_relative(self.root(), cwd, raw).unwrap_or_else(|_| raw.clone());
                let verdict = judge.judge(&rel);
                (rel, verdict)
            })
            .collect();
        // The most serious kind first: protected, then no intent, then scope.
        let worst = judged
            .iter()
            .map(|(_, v)| *v)
            .find(|v| matches!(v, ChangeVerdict::Protected(_)))
            .or_else(|| {
                judged
                    .iter()
                    .map(|(_, v)| *v)
                    .find(|v| *v != ChangeVerdict::Fine)
            })?;
        let listed: Vec<&str> = judged
            .iter()
            .filter(|(_, v)| v.reason_type() == worst.reason_type())
            .map(|(rel, _)| rel.as_str())
            .collect();
        let message = match (worst, active) {
            (ChangeVerdict::Protected(what), _) => {
                format!("edited {what}, which agents may not change")
            }
            (ChangeVerdict::NoIntent, _) => "edited without an active intent".to_string(),
            (_, Some(id)) => format!("edited outside {id}'s owned_scope"),
            (_, None) => "edited outside the intent's owned_scope".to_string(),
        };
        Some(Violation {
            kind: worst.reason_type().unwrap_or_default().to_string(),
            intent_id: active.map(str::to_string),
            paths: listed.into_iter().map(str::to_string).collect(),
            count: None,
            message,
            extra: Default::default(),
        })
    }

    pub(super) fn post_handshake(
        &mut self,
        handshake: &str,
        tool: &ToolCall,
        failed: bool,
    ) -> anyhow::Result<Reply> {
        self.append(&ToolPost {
            front_end: Some(self.origin.name().to_string()),
            tool: Some(tool.action.tool().to_string()),
            tool_use_id: tool.use_id.clone(),
            ok: !failed,
            ..ToolPost::default()
        })?;
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
                    rewrite: None,
                })
            }
            "clear_active_intent" => {
                if let Some(previous) = self.active() {
                    self.append(&IntentCleared {
                        intent_id: Some(previous),
                        via: "mcp".to_string(),
                        extra: Default::default(),
                    })?;
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
            "complete_intent" => {
                let id = tool.input["intent_id"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string();
                let notes = tool.input["verification_notes"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string();
                let evidence = tool.input.get("evidence").cloned();
                let told = match self.complete_intent(&id, &notes, evidence.as_ref())? {
                    Ok(told) => told,
                    Err(reason) => reason.to_agent_text(),
                };
                Ok(Reply {
                    refusal: None,
                    context: Some(format!(
                        "<intent_ledger>{}</intent_ledger>",
                        context::escape(&told)
                    )),
                    post_block: None,
                    rewrite: None,
                })
            }
            _ => Ok(Reply::default()),
        }
    }

    /// Gives each traced block its identity: the one its before side had, else a new
    /// one (the first trace that sees a block names it).
    pub(super) fn assign_block_ids(&mut self, blocks: &mut [TraceBlock], salt: &str) {
        for (index, entry) in blocks.iter_mut().enumerate() {
            // The key (name, `#n` for the n-th block of that name) is unique in
            // a file; traces written before keys existed carry the name only.
            let known = entry.before.as_ref().and_then(|before| {
                self.state.ensure_blocks(&before.path);
                self.state
                    .blocks
                    .get(&before.path)
                    .and_then(|f| f.get(before.key_or_name()))
                    .map(|b| b.id.clone())
            });
            let id = known.unwrap_or_else(|| {
                // The seed spells the after side's path and key as JSON (`null`
                // when absent), as it always has: ids stay what they were.
                let json = |text: Option<&str>| serde_json::to_string(&text).unwrap_or_default();
                let after = entry.after.as_ref();
                let seed = format!(
                    "{salt}\n{index}\n{}\n{}",
                    json(after.map(|a| a.path.as_str())),
                    json(after.and_then(|a| a.key.as_deref()))
                );
                blake3::hash(seed.as_bytes()).to_hex()[..32].to_string()
            });
            entry.id = Some(id);
            // Splits and merges: the identities of the blocks the code came from.
            for origin in entry.origins.iter_mut().flatten() {
                let Some(key) = &origin.key else {
                    continue;
                };
                self.state.ensure_blocks(&origin.path);
                let known = self.state.blocks.get(&origin.path).and_then(|f| f.get(key));
                if let Some(block) = known {
                    origin.id = Some(block.id.clone());
                }
            }
        }
    }

    /// The hash this session last saw, else the newest any loaded session saw (other
    /// sessions' shards are not loaded just for this).
    pub(super) fn last_known_hash(&self, rel: &str) -> Option<String> {
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

/// Why a tool failed, as its front-end said it (empty when it did not say).
/// Who wrote a traced file, and where: the same for every file of one tool call.
pub(super) struct Writer<'a> {
    pub event: &'a HookEvent,
    pub tool: &'a ToolCall,
    pub turn: &'a str,
    pub intent_id: Option<&'a str>,
    pub model: Option<&'a str>,
    pub revision: Option<&'a str>,
}

pub(super) fn error_text(tool: &ToolCall) -> String {
    tool.response
        .as_ref()
        .and_then(|r| r.error.clone())
        .unwrap_or_default()
}

/// Paths shown in a lesson or a reply; the event lists more, the count says all.
pub(super) const SHOWN_PATHS: usize = 5;

/// What the writing agent is told about its collisions.
fn collision_warning(path: &str, collisions: &[Collision]) -> String {
    let each: Vec<String> = collisions
        .iter()
        .map(|c| {
            format!(
                "`{}` was changed differently by session {} in worktree {} (branch {}, seq {}, {})",
                c.block,
                c.session,
                c.worktree,
                c.branch.as_deref().unwrap_or("detached"),
                c.seq,
                c.intent_id.as_deref().unwrap_or("no intent"),
            )
        })
        .collect();
    format!(
        "Collision in {path}: {}. That change is not in this worktree; the two versions will \
         conflict when merged. Coordinate (or merge it first) before going on.",
        each.join("; ")
    )
}
