//! PostToolUse of a shell command: what it changed (found before the lock by
//! [`super::shell`]), judged path by path with the gate's rules, traced, and told.

use intent_gate::changes::{ChangeJudge, ChangeVerdict};
use intent_ledger::payload::{Payload, ToolPost, Violation};
use serde_json::{json, Value};

use super::post::{error_text, Writer, SHOWN_PATHS};
use super::{ast, context, shell, vcs, EventTx, Reply, ToolCall};
use crate::engine::HookEvent;

/// Paths listed in a `violation` of a `tool.post` event.
const LISTED_PATHS: usize = 20;

/// How a changed path fares against the session's intent, as a Write of it would.
type ShellVerdict = ChangeVerdict;

impl EventTx<'_, '_> {
    /// PostToolUse of a shell command: records what it changed (found before the
    /// lock, see [`shell`]), judges every changed path like a Write of it, traces the
    /// files that are not protected, and tells the agent about violations in the
    /// reply's context (and in a lesson).
    pub(super) fn post_shell(
        &mut self,
        event: &HookEvent,
        tool: &ToolCall,
        mut post: ToolPost,
        failed: bool,
        active: Option<String>,
        model: Option<String>,
    ) -> anyhow::Result<Reply> {
        let Some(mut changes) = self.shell.changes.take() else {
            // No baseline: the gate found the command read-only, or PreToolUse did
            // not run for it.
            post.changes_detected = Some(false);
            self.append(&post)?;
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
        post.changes = Some(changes.summary());
        if let Some(first) = violations.first() {
            post.violation = Some(first.clone());
            // Told in this hook's reply (below), so not queued for the next.
            post.violation_told = Some(true);
        }
        if violations.len() > 1 {
            post.violations = Some(violations.clone());
        }
        self.append(&post)?;

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
        let next = if violations.iter().any(|v| v.kind == "policy_block") {
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
            rewrite: None,
        })
    }

    /// The verdict on each changed file that is not protected: the gate's rules,
    /// compiled once for all of them.
    fn shell_verdicts(
        &self,
        files: &[shell::ChangedFile],
        active: Option<&str>,
    ) -> Vec<ShellVerdict> {
        let ignore = super::read_intentignore(&self.engine.workspace);
        let judge = ChangeJudge::new(
            active,
            self.specs.as_deref().map_err(String::as_str),
            &ignore,
        );
        files.iter().map(|file| judge.judge(&file.path)).collect()
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
        let turn = self.turn_of(event, tool);
        self.close_other_turn(&turn)?;
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
            &self.engine.root,
            &self.session,
            &turn,
            &written,
            &mut prepared,
            self.hook,
        );
        drop(written);
        let mut by_file: std::collections::HashMap<usize, ast::AstTrace> = analysed
            .iter()
            .zip(asts)
            .filter_map(|(&i, ast)| Some((i, ast?)))
            .collect();
        let revision = vcs::git_revision(self.root());
        let salt = tool.use_id.clone().unwrap_or_else(|| turn.clone());
        let writer = Writer {
            event,
            tool,
            turn: &turn,
            intent_id: active,
            model: model.as_deref(),
            revision: revision.as_deref(),
        };
        let mut events = Vec::with_capacity(traced.len());
        for &i in traced {
            let file = &changes.files[i];
            let Some(trace) = &file.trace else { continue };
            let mut data = self.attributed(trace.to_trace(), &writer);
            match by_file.remove(&i) {
                Some(ast) => {
                    data.mutation_class = ast.mutation_class.to_string();
                    data.classification = ast.classification;
                    let mut blocks = ast.blocks;
                    self.assign_block_ids(&mut blocks, &salt);
                    data.blocks = Some(blocks);
                }
                // Said, so that a text-rule verdict on code is not taken for an
                // AST one.
                None if file.ast => data.classification.ast_skipped = Some("turn-cap".into()),
                None => data.classification.ast_skipped = file.ast_skipped.map(str::to_string),
            }
            match verdicts[i] {
                ShellVerdict::Fine => {}
                verdict => data.violation = verdict.reason_type().map(str::to_string),
            }
            events.push(data);
        }
        self.append_all(events)
    }

    /// Appends events of one kind as one group commit.
    fn append_all<P: Payload>(&mut self, items: Vec<P>) -> anyhow::Result<()> {
        if items.is_empty() {
            return Ok(());
        }
        let events = items
            .iter()
            .map(|payload| {
                let event = intent_ledger::NewEvent::from_payload(self.source.clone(), payload);
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
        let error = error_text(tool);
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
) -> Vec<Violation> {
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
        let mut violation = listed_violation(
            "policy_block",
            active,
            &paths,
            "changed protected files".into(),
        );
        violation
            .extra
            .insert("files".to_string(), Value::Array(files));
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
        out.push(listed_violation(
            "no_active_intent",
            None,
            &no_intent,
            "changed files without an active intent".into(),
        ));
    }
    let outside = with(ShellVerdict::OutOfScope);
    if let (false, Some(id)) = (outside.is_empty(), active) {
        out.push(listed_violation(
            "scope_violation",
            active,
            &outside,
            format!("changed files outside {id}'s owned_scope"),
        ));
    }
    out
}

/// A violation as a `tool.post` event stores it: at most [`LISTED_PATHS`] paths,
/// and how many there were.
fn listed_violation(
    kind: &str,
    intent_id: Option<&str>,
    paths: &[&str],
    message: String,
) -> Violation {
    Violation {
        kind: kind.to_string(),
        intent_id: intent_id.map(str::to_string),
        paths: paths
            .iter()
            .take(LISTED_PATHS)
            .map(|p| p.to_string())
            .collect(),
        count: Some(paths.len() as u64),
        message,
        extra: Default::default(),
    }
}

/// One sentence for the agent (and the lesson) about one violation.
fn told_violation(tool: &str, violation: &Violation) -> String {
    let paths: Vec<String> = violation
        .paths
        .iter()
        .take(SHOWN_PATHS)
        .map(|p| format!("`{p}`"))
        .collect();
    let count = violation.count.map_or(paths.len(), |c| c as usize);
    let more = if count > paths.len() {
        format!(" and {} more", count - paths.len())
    } else {
        String::new()
    };
    let message = if violation.message.is_empty() {
        "changed files"
    } else {
        &violation.message
    };
    format!("{tool} {message}: {}{more}.", paths.join(", "))
}
