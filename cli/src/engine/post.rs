//! After a tool ran: re-hash, classify and trace written files, record handshake
//! results and failures.

use anyhow::Context as _;
use intent_ledger::gate::{self, file_sha256, Action};
use intent_ledger::kinds;
use intent_ledger::spec::ScopeMatcher;
use serde_json::{json, Value};

use super::{ast, context, lessons, shell, texts, trace, vcs, Phase, Reply, ToolCall, Turn};
use crate::engine::{FrontEnd, HookEvent};

impl Turn<'_, '_> {
    pub(super) fn post_tool(&mut self, event: &HookEvent) -> anyhow::Result<Reply> {
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
        if let (FrontEnd::Cursor, Action::Write { paths, .. }) = (self.front_end, &tool.action) {
            if let Some(violation) = self.observed_violation(paths, &cwd, active.as_deref()) {
                post["violation"] = violation;
            }
        }
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
                    // The front-end's old text describes a single-file write only.
                    let original = tool
                        .response
                        .as_ref()
                        .filter(|_| paths.len() == 1)
                        .and_then(|r| r.get("originalFile"))
                        .and_then(Value::as_str)
                        .map(str::as_bytes);
                    let known = self.last_known_hash(&rel);
                    // Without the front-end's original text, use the text recorded at
                    // the last traced hash (kept in the cache by content hash).
                    let before = original.map(<[u8]>::to_vec).or_else(|| {
                        known
                            .as_deref()
                            .and_then(|h| texts::load(&self.engine.workspace, h))
                    });
                    let file = trace::trace_file(self.root(), &rel, before.as_deref(), known);
                    let existed = file.before_sha256.is_some();
                    traces.push((file, before, existed));
                }
            }
            Action::Shell { .. } if tool.use_id.is_some() => {
                return self.post_shell(event, tool, post, failed, active, model);
            }
            _ => {}
        }
        self.append(kinds::TOOL_POST, post)?;
        let revision = vcs::git_revision(self.root());
        // The turn is the user prompt the write answers; front-ends whose tool events
        // do not name it get the session's latest prompt.
        let turn = event
            .prompt_id
            .clone()
            .or_else(|| {
                self.state
                    .session(&self.session)
                    .and_then(|s| s.last_prompt.clone())
            })
            .or_else(|| tool.use_id.clone())
            .unwrap_or_default();
        // A write of another turn than the session's open one ends that turn (a
        // front-end that sends no prompt between them): its verdict goes first.
        let open_turn = self
            .state
            .session(&self.session)
            .and_then(|s| s.open_turn.as_ref())
            .map(|t| t.turn.clone());
        if !traces.is_empty() && open_turn.is_some_and(|t| t != turn) {
            self.close_turn("next turn")?;
        }
        let mut block_reason = None;
        let mut prepared = match self.prefetch.take() {
            Some(started) if !traces.is_empty() => started.join().unwrap_or_default(),
            _ => Default::default(),
        };
        for (file, before, existed) in &traces {
            let mut data = file.to_json();
            let declared = tool.declared_mutation_class.as_deref();
            let ast = ast::classify_write(
                &self.engine.workspace,
                self.root(),
                &self.session,
                &turn,
                ast::WrittenFile {
                    rel: &file.path,
                    before: before.as_deref(),
                    existed: *existed,
                    declared,
                },
                &mut prepared,
            );
            data["intent_id"] = json!(active);
            data["tool"] = json!(tool.action.tool());
            data["tool_use_id"] = json!(tool.use_id);
            data["prompt_id"] = json!(event.prompt_id);
            // The turn this write belongs to, as the classifier grouped it: queries
            // keep one history entry per block and turn, and the turn's verdict
            // (`turn.verdict`) names it.
            data["turn"] = json!(turn);
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
            if let Some(hash) = &file.after_sha256 {
                texts::store(&self.engine.workspace, self.root(), &file.path, hash);
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

    /// For front-ends that report an edit only after it happened (Cursor): what the
    /// gate would have refused, recorded since it cannot be prevented.
    fn observed_violation(
        &self,
        paths: &[String],
        cwd: &std::path::Path,
        active: Option<&str>,
    ) -> Option<Value> {
        let Some(id) = active else {
            let paths: Vec<String> = paths
                .iter()
                .map(|raw| {
                    gate::workspace_relative(self.root(), cwd, raw).unwrap_or_else(|_| raw.clone())
                })
                .collect();
            return Some(json!({
                "type": "no_active_intent",
                "message": "edited without an active intent",
                "paths": paths,
            }));
        };
        let spec = self.specs.as_ref().ok()?.intent(id)?;
        let scope = ScopeMatcher::new(&spec.owned_scope).ok()?;
        let outside: Vec<String> = paths
            .iter()
            .map(|raw| {
                gate::workspace_relative(self.root(), cwd, raw).unwrap_or_else(|_| raw.clone())
            })
            .filter(|rel| !scope.is_match(rel))
            .collect();
        (!outside.is_empty()).then(|| {
            json!({
                "type": "scope_violation",
                "intent_id": id,
                "paths": outside,
                "message": format!("edited outside {id}'s owned_scope"),
            })
        })
    }

    pub(super) fn post_handshake(
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
                })
            }
            _ => Ok(Reply::default()),
        }
    }

    /// Gives each traced block its identity: the one its before side had, else a new
    /// one (the first trace that sees a block names it).
    pub(super) fn assign_block_ids(&mut self, blocks: &mut Value, salt: &str) {
        let Some(entries) = blocks.as_array_mut() else {
            return;
        };
        for (index, entry) in entries.iter_mut().enumerate() {
            // The key (name, `#n` for the n-th block of that name) is unique in
            // a file; traces written before keys existed carry the name only.
            let before = (
                entry["before"]["path"].as_str(),
                entry["before"]["key"]
                    .as_str()
                    .or_else(|| entry["before"]["name"].as_str()),
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
                    entry["after"]["path"], entry["after"]["key"]
                );
                blake3::hash(seed.as_bytes()).to_hex()[..32].to_string()
            });
            entry["id"] = json!(id);
            // Splits and merges: the identities of the blocks the code came from.
            if let Some(origins) = entry["origins"].as_array_mut() {
                for origin in origins {
                    let (Some(path), Some(key)) = (origin["path"].as_str(), origin["key"].as_str())
                    else {
                        continue;
                    };
                    self.state.ensure_blocks(path);
                    let known = self.state.blocks.get(path).and_then(|f| f.get(key));
                    if let Some(block) = known {
                        origin["id"] = json!(block.id);
                    }
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

/// Paths shown in a lesson or a reply; the event lists more, the count says all.
const SHOWN_PATHS: usize = 5;
/// Paths listed in a `violation` of a `tool.post` event.
const LISTED_PATHS: usize = 20;

/// How a changed path fares against the session's intent, as a Write of it would.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ShellVerdict {
    /// Allowed.
    Fine,
    /// No intent is selected.
    NoIntent,
    /// Outside the intent's `owned_scope` and `.intentignore`.
    OutOfScope,
}

impl Turn<'_, '_> {
    /// PostToolUse of a shell command: records what it changed (found before the
    /// lock, see [`shell`]), judges every changed path like a Write of it, traces the
    /// files that are not protected, and tells the agent about violations in the
    /// reply's context (and in a lesson).
    fn post_shell(
        &mut self,
        event: &HookEvent,
        tool: &ToolCall,
        mut post: Value,
        failed: bool,
        active: Option<String>,
        model: Option<String>,
    ) -> anyhow::Result<Reply> {
        let Some(mut changes) = self.shell.changes.take() else {
            // No baseline: the gate found the command read-only, or PreToolUse did
            // not run for it.
            post["changes_detected"] = json!(false);
            self.append(kinds::TOOL_POST, post)?;
            self.shell_failure_lesson(tool, failed, active)?;
            return Ok(Reply::default());
        };
        // An untracked file that existed: the hash a session last saw is the best
        // old hash there is (and if it is the current one, nothing changed).
        changes.files.retain_mut(|file| {
            let Some(trace) = file.trace.as_mut().filter(|_| file.before_unknown) else {
                return true;
            };
            let Some(known) = self.last_known_hash(&file.path) else {
                return true;
            };
            if trace.after_sha256.as_ref() == Some(&known) {
                return false;
            }
            trace.before_sha256 = Some(known);
            if trace.after_sha256.is_some() {
                trace.rule = "text:content-changed-no-diff";
            }
            true
        });
        let verdicts = self.shell_verdicts(&changes.files, active.as_deref());
        let violations = shell_violations(&changes, &verdicts, active.as_deref());
        post["changes"] = changes.summary();
        if let Some(first) = violations.first() {
            post["violation"] = first.clone();
        }
        if violations.len() > 1 {
            post["violations"] = json!(violations);
        }
        self.append(kinds::TOOL_POST, post)?;

        let traced: Vec<usize> = (0..changes.files.len())
            .filter(|&i| changes.files[i].trace.is_some())
            .collect();
        if !traced.is_empty() {
            self.shell_traces(
                event,
                tool,
                &mut changes,
                &verdicts,
                &traced,
                active.as_deref(),
                model,
            )?;
        }
        self.shell_failure_lesson(tool, failed, active.clone())?;
        if violations.is_empty() {
            return Ok(Reply::default());
        }
        let told: Vec<String> = violations
            .iter()
            .map(|v| told_violation(tool.action.tool(), v))
            .collect();
        self.lesson(&told.join(" "), active.clone(), "shell")?;
        let next = if violations.iter().any(|v| v["type"] == "policy_block") {
            "Undo the changes to protected files now: agents may not change Intent Ledger's data, git's configuration or hooks, or a front-end's hook settings; ask the human instead."
        } else if active.is_none() {
            "Select the intent the work belongs to (select_active_intent) before running commands that change files, and undo what falls outside it."
        } else {
            "Undo these changes unless the human asked for them; to change those files, select an intent that owns them or ask the human to extend owned_scope."
        };
        Ok(Reply {
            refusal: None,
            context: Some(format!(
                "<intent_ledger>Checked after it ran: {} This is recorded as a violation. {next}</intent_ledger>",
                context::escape(&told.join(" "))
            )),
            post_block: None,
        })
    }

    /// The verdict on each changed file that is not protected.
    fn shell_verdicts(
        &self,
        files: &[shell::ChangedFile],
        active: Option<&str>,
    ) -> Vec<ShellVerdict> {
        let Some(id) = active else {
            return vec![ShellVerdict::NoIntent; files.len()];
        };
        // Without a usable spec there is no scope to judge by (the gate refused
        // the command then anyway).
        let Some(scope) = self
            .specs
            .as_ref()
            .ok()
            .and_then(|specs| specs.intent(id))
            .and_then(|spec| ScopeMatcher::new(&spec.owned_scope).ok())
        else {
            return vec![ShellVerdict::Fine; files.len()];
        };
        let ignore = ScopeMatcher::new(&super::read_intentignore(&self.engine.workspace)).ok();
        files
            .iter()
            .map(|file| {
                let inside = scope.is_match(&file.path)
                    || ignore.as_ref().is_some_and(|i| i.is_match(&file.path));
                if inside {
                    ShellVerdict::Fine
                } else {
                    ShellVerdict::OutOfScope
                }
            })
            .collect()
    }

    /// Appends the traces of a shell command's files: the first
    /// [`shell::MAX_AST_FILES`] code files classified with the turn (one analysis
    /// for all of them), the others by text rules; all in one group commit.
    #[allow(clippy::too_many_arguments)]
    fn shell_traces(
        &mut self,
        event: &HookEvent,
        tool: &ToolCall,
        changes: &mut shell::Changes,
        verdicts: &[ShellVerdict],
        traced: &[usize],
        active: Option<&str>,
        model: Option<String>,
    ) -> anyhow::Result<()> {
        let turn = event
            .prompt_id
            .clone()
            .or_else(|| {
                self.state
                    .session(&self.session)
                    .and_then(|s| s.last_prompt.clone())
            })
            .or_else(|| tool.use_id.clone())
            .unwrap_or_default();
        let open_turn = self
            .state
            .session(&self.session)
            .and_then(|s| s.open_turn.as_ref())
            .map(|t| t.turn.clone());
        if open_turn.is_some_and(|t| t != turn) {
            self.close_turn("next turn")?;
        }
        let analysed: Vec<usize> = traced
            .iter()
            .copied()
            .filter(|&i| changes.files[i].ast)
            .collect();
        let written: Vec<ast::WrittenFile<'_>> = analysed
            .iter()
            .map(|&i| {
                let file = &changes.files[i];
                ast::WrittenFile {
                    rel: &file.path,
                    before: file.before_text.as_deref(),
                    existed: file.existed,
                    declared: None,
                }
            })
            .collect();
        let mut prepared = std::mem::take(&mut changes.prepared);
        let asts = ast::classify_batch(
            &self.engine.workspace,
            self.root(),
            &self.session,
            &turn,
            &written,
            shell::MAX_TURN_AST_FILES,
            &mut prepared,
        );
        drop(written);
        let mut by_file: std::collections::HashMap<usize, ast::AstTrace> = analysed
            .iter()
            .zip(asts)
            .filter_map(|(&i, ast)| Some((i, ast?)))
            .collect();
        let revision = vcs::git_revision(self.root());
        let salt = tool.use_id.clone().unwrap_or_else(|| turn.clone());
        let mut events = Vec::with_capacity(traced.len());
        for &i in traced {
            let file = &changes.files[i];
            let Some(trace) = &file.trace else { continue };
            let mut data = trace.to_json();
            data["intent_id"] = json!(active);
            data["tool"] = json!(tool.action.tool());
            data["tool_use_id"] = json!(tool.use_id);
            data["prompt_id"] = json!(event.prompt_id);
            data["turn"] = json!(turn);
            data["front_end"] = json!(self.front_end.as_str());
            data["model"] = json!(model);
            data["vcs"] = revision
                .as_ref()
                .map_or(Value::Null, |r| json!({"type": "git", "revision": r}));
            match by_file.remove(&i) {
                Some(ast) => {
                    data["mutation_class"] = json!(ast.mutation_class);
                    data["classification"] = ast.classification;
                    data["blocks"] = ast.blocks;
                    self.assign_block_ids(&mut data["blocks"], &salt);
                }
                // Said, so that a text-rule verdict on code is not taken for an
                // AST one.
                None if file.ast => data["classification"]["ast_skipped"] = json!("turn-cap"),
                None => {
                    if let Some(why) = file.ast_skipped {
                        data["classification"]["ast_skipped"] = json!(why);
                    }
                }
            }
            match verdicts[i] {
                ShellVerdict::Fine => {}
                ShellVerdict::NoIntent => data["violation"] = json!("no_active_intent"),
                ShellVerdict::OutOfScope => data["violation"] = json!("scope_violation"),
            }
            events.push(data);
        }
        self.append_all(kinds::TRACE, events)
    }

    /// Appends events of one kind as one group commit.
    fn append_all(&mut self, kind: &str, items: Vec<Value>) -> anyhow::Result<()> {
        if items.is_empty() {
            return Ok(());
        }
        let events = items
            .into_iter()
            .map(|data| {
                let event = intent_ledger::NewEvent::new(kind, self.source.clone(), data);
                if self.session.is_empty() {
                    event
                } else {
                    event.with_session(self.session.clone())
                }
            })
            .collect();
        self.tx.append(events)?;
        self.state.catch_up(self.tx.path(), self.tx.end())?;
        Ok(())
    }

    fn shell_failure_lesson(
        &mut self,
        tool: &ToolCall,
        failed: bool,
        active: Option<String>,
    ) -> anyhow::Result<()> {
        if !failed {
            return Ok(());
        }
        let error = tool.response.as_ref().map(error_text).unwrap_or_default();
        let text = format!(
            "{} failed: {}",
            tool.action.tool(),
            context::clip(&error, 300)
        );
        self.lesson(&text, active, "tool_failure")
    }
}

/// The violations of one command, the most serious first: protected files, then
/// files changed without an intent, then files outside its scope.
fn shell_violations(
    changes: &shell::Changes,
    verdicts: &[ShellVerdict],
    active: Option<&str>,
) -> Vec<Value> {
    let mut out = Vec::new();
    if !changes.protected.is_empty() {
        let paths: Vec<&str> = changes.protected.iter().map(|p| p.path.as_str()).collect();
        let files: Vec<Value> = changes
            .protected
            .iter()
            .take(LISTED_PATHS)
            .map(|p| {
                json!({
                    "path": p.path,
                    "reason": p.reason,
                    "before_sha256": p.before_sha256,
                    "after_sha256": p.after_sha256,
                })
            })
            .collect();
        let mut violation = violation_json(
            "policy_block",
            active,
            &paths,
            "changed protected files".into(),
        );
        violation["files"] = json!(files);
        out.push(violation);
    }
    let with = |wanted: ShellVerdict| -> Vec<&str> {
        changes
            .files
            .iter()
            .zip(verdicts)
            .filter(|(_, v)| **v == wanted)
            .map(|(f, _)| f.path.as_str())
            .collect()
    };
    let no_intent = with(ShellVerdict::NoIntent);
    if !no_intent.is_empty() {
        out.push(violation_json(
            "no_active_intent",
            None,
            &no_intent,
            "changed files without an active intent".into(),
        ));
    }
    let outside = with(ShellVerdict::OutOfScope);
    if let (false, Some(id)) = (outside.is_empty(), active) {
        out.push(violation_json(
            "scope_violation",
            active,
            &outside,
            format!("changed files outside {id}'s owned_scope"),
        ));
    }
    out
}

/// A violation as a `tool.post` event stores it (Cursor's edits record the same
/// shape): at most [`LISTED_PATHS`] paths, and how many there were.
fn violation_json(kind: &str, intent_id: Option<&str>, paths: &[&str], message: String) -> Value {
    json!({
        "type": kind,
        "intent_id": intent_id,
        "paths": paths.iter().take(LISTED_PATHS).collect::<Vec<_>>(),
        "count": paths.len(),
        "message": message,
    })
}

/// One sentence for the agent (and the lesson) about one violation.
fn told_violation(tool: &str, violation: &Value) -> String {
    let paths: Vec<String> = violation["paths"]
        .as_array()
        .into_iter()
        .flatten()
        .take(SHOWN_PATHS)
        .filter_map(|p| p.as_str().map(|p| format!("`{p}`")))
        .collect();
    let count = violation["count"].as_u64().unwrap_or(paths.len() as u64) as usize;
    let more = if count > paths.len() {
        format!(" and {} more", count - paths.len())
    } else {
        String::new()
    };
    format!(
        "{tool} {}: {}{more}.",
        violation["message"].as_str().unwrap_or("changed files"),
        paths.join(", ")
    )
}
