//! The gate: decides whether a tool call may run, and says why not in a form an
//! agent can act on.
//!
//! [`decide`] is a pure function of the action, the session's state, the specs and
//! the policy (plus reading the target files' hashes from disk for the stale check).
//! Order of checks: classify (read-only actions always pass) → the specs and policy
//! must be readable (else fail closed) → dangerous commands per policy → an active,
//! workable intent → every target path inside the workspace, outside
//! `.orchestration/`, inside the intent's `owned_scope` or `.intentignore` → each
//! target still has the hash this session last saw → human approval where the policy
//! asks for it.

pub mod changes;
pub mod command;
pub mod policy;
pub mod protected;
pub mod shell;
mod types;

use std::path::Path;

pub use command::{classify_command, CommandClass};
pub use intent_ledger::digest::{bytes_sha256, file_sha256};
pub use intent_ledger::workspace::paths::{self, workspace_relative, PathProblem};
use intent_spec::{IntentStatus, ScopeMatcher, SpecDocument};
use intent_state::HookState;
pub use policy::{
    AgentCompletion, CheckAction, ConfineShell, DangerAction, MismatchAction, Policy, PolicyError,
    ReviewPolicy, TaskRefusal,
};
pub use protected::{protected, tree_in_scope};
pub use types::{Action, ActionClass, Decision, GateReason, IntentBrief, ReasonKind, Verdict};

/// Everything [`decide`] looks at.
#[derive(Debug, Clone, Copy)]
pub struct GateInput<'a> {
    /// The tool call.
    pub action: &'a Action,
    /// The agent session.
    pub session: &'a str,
    /// Canonical workspace root.
    pub root: &'a Path,
    /// Directory relative paths are resolved against.
    pub cwd: &'a Path,
    /// The specs, or why they cannot be used.
    pub specs: Result<&'a SpecDocument, &'a str>,
    /// The policy, or why it cannot be used.
    pub policy: Result<&'a Policy, &'a str>,
    /// The hook state (active intents, last seen hashes).
    pub state: &'a HookState,
    /// Globs from `.orchestration/.intentignore`, exempt from scope checks.
    pub ignore: &'a [String],
    /// What the front-end can do with a refusal.
    pub capabilities: Capabilities,
    /// The intent a write tool's input cites (`intent_id`), if any.
    pub cited_intent: Option<&'a str>,
    /// The action already happened (a front-end that reports edits only after
    /// them): judge it as if it were asked before, without the stale-file and
    /// approval checks, which only make sense before.
    pub after_the_fact: bool,
}

/// What a front-end can do with the gate's answer, declared by its adapter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capabilities {
    /// It asks before a file is written (Cursor reports edits only afterwards).
    pub blocks_before_write: bool,
    /// A refusal cancels the whole task rather than one tool call (Cline).
    pub refusal_cancels_task: bool,
}

impl Default for Capabilities {
    fn default() -> Self {
        Capabilities {
            blocks_before_write: true,
            refusal_cancels_task: false,
        }
    }
}

/// Decides; see the module docs for the order of checks. Then says whether the
/// refusal is enforced: not when the action already happened, nor when the
/// front-end can only cancel the whole task and the policy says `cline_refusal:
/// warn` (the refusal is recorded and told to the agent instead).
pub fn decide(input: &GateInput<'_>) -> Decision {
    let mut decision = cited_intent_check(judge(input), input);
    let warn_only = input.capabilities.refusal_cancels_task
        && input
            .policy
            .is_ok_and(|p| p.cline_refusal == TaskRefusal::Warn);
    let too_late = input.after_the_fact
        || (!input.capabilities.blocks_before_write
            && matches!(input.action, Action::Write { .. }));
    decision.enforced = decision.verdict == Verdict::Allow || !(warn_only || too_late);
    decision
}

/// What the agent is told when the `mutation_class` it declared is not the one
/// the change has: a refusal of the result under `declared_class_mismatch:
/// block`, nothing (the mismatch is only recorded) otherwise.
pub fn declared_class_refusal(mismatch: &str, policy: Result<&Policy, &str>) -> Option<String> {
    policy
        .is_ok_and(|p| p.declared_class_mismatch == MismatchAction::Block)
        .then(|| format!("intent gate: {mismatch}. Declare the class the change really has, or undo the behaviour change."))
}

/// Whether a failing hook may still let this action through (it only reads):
/// everything else fails closed.
pub fn fails_open(action: &Action, cwd: &Path) -> bool {
    match action {
        Action::Read { .. } | Action::Handshake { .. } => true,
        Action::Shell { command, .. } => shell::analyze(command, cwd, cwd).is_read_only(),
        Action::Write { .. } | Action::Other { .. } => false,
    }
}

/// A write whose input cites an intent (`intent_id`, as the seeds' write tools do)
/// must cite the session's active one: otherwise the agent believes it works under
/// another requirement than the ledger would record.
fn cited_intent_check(mut decision: Decision, input: &GateInput<'_>) -> Decision {
    let writes = matches!(input.action, Action::Write { .. });
    let (Some(cited), true, Verdict::Allow) = (input.cited_intent, writes, decision.verdict) else {
        return decision;
    };
    let Some(active) = decision.intent_id.clone().filter(|active| active != cited) else {
        return decision;
    };
    decision.verdict = Verdict::Deny;
    decision.reason = Some(GateReason {
        kind: ReasonKind::IntentNotActive,
        message: format!("the write cites {cited}, but this session works under {active}."),
        intent_id: Some(active.clone()),
        attempted_path: decision.paths.first().cloned(),
        attempted_command: None,
        allowed_scope: Vec::new(),
        available_intents: Vec::new(),
        next_step: format!(
            "Cite {active}, or call select_active_intent with {cited} first if the work belongs to it."
        ),
    });
    decision
}

fn judge(input: &GateInput<'_>) -> Decision {
    let GateInput {
        action, root, cwd, ..
    } = *input;
    let analysis = match action {
        Action::Shell { command, .. } => {
            let extra = input
                .policy
                .map(|p| p.read_only_commands.as_slice())
                .unwrap_or_default();
            Some(shell::analyze_with(command, root, cwd, extra))
        }
        _ => None,
    };
    // Targets: the paths a tool names, or the files a command writes.
    let targets: Vec<Target> = match (action, &analysis) {
        (
            Action::Read { paths, .. } | Action::Write { paths, .. } | Action::Other { paths, .. },
            _,
        ) => paths
            .iter()
            .map(|raw| Target {
                raw: raw.clone(),
                recursive: false,
                by: None,
            })
            .collect(),
        (_, Some(analysis)) => analysis
            .writes
            .iter()
            .map(|w| Target {
                raw: w.path.to_string_lossy().into_owned(),
                recursive: w.recursive,
                by: Some(w.by.clone()),
            })
            .collect(),
        _ => Vec::new(),
    };
    let normalized: Vec<Result<String, PathProblem>> = targets
        .iter()
        .map(|t| workspace_relative(root, cwd, &t.raw))
        .collect();
    let paths: Vec<String> = normalized
        .iter()
        .zip(&targets)
        .map(|(n, t)| n.clone().unwrap_or_else(|_| t.raw.clone()))
        .collect();
    let listed_read_only = |tool: &str| input.policy.is_ok_and(|p| p.is_read_only_tool(tool));
    let (class, danger) = match (action, &analysis) {
        (Action::Read { .. } | Action::Handshake { .. }, _) => (ActionClass::ReadOnly, None),
        (Action::Other { tool, .. }, _) if listed_read_only(tool) => (ActionClass::ReadOnly, None),
        (_, Some(analysis)) => match CommandClass::from(analysis) {
            CommandClass::ReadOnly => (ActionClass::ReadOnly, None),
            CommandClass::Destructive => (ActionClass::Destructive, None),
            CommandClass::Dangerous(why) => (ActionClass::Dangerous, Some(why)),
        },
        _ => (ActionClass::Destructive, None),
    };
    let active = input.state.active_intent(input.session).map(str::to_string);
    let mut decision = Decision {
        verdict: Verdict::Allow,
        class,
        intent_id: active.clone(),
        paths: paths.clone(),
        reason: None,
        unknown_effects: analysis
            .as_ref()
            .map(|a| a.opaque.clone())
            .unwrap_or_default(),
        enforced: true,
    };
    if class == ActionClass::ReadOnly {
        return decision;
    }
    let command = match action {
        Action::Shell { command, .. } => Some(command.clone()),
        _ => None,
    };
    let mut reason = GateReason {
        kind: ReasonKind::InvalidConfig,
        message: String::new(),
        intent_id: active.clone(),
        attempted_path: paths.first().cloned(),
        attempted_command: command.clone(),
        allowed_scope: Vec::new(),
        available_intents: Vec::new(),
        next_step: String::new(),
    };
    let deny = |mut decision: Decision, reason: GateReason| {
        decision.verdict = Verdict::Deny;
        decision.reason = Some(reason);
        decision
    };

    // Changing Intent Ledger's own state from an agent's shell is forging a human's
    // act, whatever the intent or the configuration.
    if let Some(act) = analysis.as_ref().and_then(|a| a.intent_acts.first()) {
        reason.kind = ReasonKind::PolicyBlock;
        reason.message = format!("`{act}` changes Intent Ledger's state, which only a human (or the engine) may do; agents may not run it.");
        reason.next_step = "Use the MCP tools (select_active_intent, complete_intent, record_lesson), or ask the human to run it.".into();
        return deny(decision, reason);
    }

    let (specs, policy) = match (input.specs, input.policy) {
        (Ok(specs), Ok(policy)) => (specs, policy),
        (Err(why), _) | (_, Err(why)) => {
            reason.message = format!("the intent configuration cannot be used ({why}), so destructive actions are refused.");
            reason.next_step = "Tell the human to run `intent validate` and fix the errors; do not try to edit .orchestration/ yourself.".into();
            return deny(decision, reason);
        }
    };
    reason.available_intents = available_intents(specs, policy);

    if let Some(why) = danger {
        reason.kind = ReasonKind::PolicyBlock;
        reason.message = format!("this command is dangerous: {why}.");
        if policy.dangerous_commands == DangerAction::Ask {
            reason.kind = ReasonKind::ApprovalRequired;
            reason.next_step = "A human must approve it in the front-end.".into();
            decision.verdict = Verdict::Ask;
            decision.reason = Some(reason);
            return decision;
        }
        reason.next_step =
            "Do not retry it; find a narrower command, or ask the human to run it.".into();
        return deny(decision, reason);
    }

    // Protected files are refused before the intent is even looked at: no intent
    // makes them writable.
    for (target, normalized) in targets.iter().zip(&normalized) {
        if let Ok(rel) = normalized {
            if let Some(what) = protected(rel, target.recursive) {
                reason.kind = ReasonKind::PolicyBlock;
                reason.attempted_path = Some(rel.clone());
                // A tree write names its directory; below it lie protected files.
                let shown = match (rel.as_str(), target.recursive) {
                    ("", _) => "the whole workspace".to_string(),
                    (rel, true) => format!("everything under `{rel}`"),
                    (rel, false) => format!("`{rel}`"),
                };
                let what = match target.recursive {
                    true => format!("which holds {what}"),
                    false => what.to_string(),
                };
                reason.message = match &target.by {
                    Some(by) => {
                        format!("`{by}` would write {shown}, {what}; agents may not change it.")
                    }
                    None => format!("`{rel}` is {what}; agents may not write it."),
                };
                reason.next_step = "Use the MCP tools (select_active_intent, record_lesson) instead; ask the human to change it.".into();
                return deny(decision, reason);
            }
        }
    }

    let Some(intent_id) = active else {
        let lost = input
            .state
            .session(input.session)
            .and_then(|s| s.lost_intent.clone());
        if let Some((lost, status)) = lost {
            reason.kind = ReasonKind::IntentNotActive;
            reason.intent_id = Some(lost.clone());
            reason.message = format!(
                "{lost}, this session's intent, is now {status}, so its selection was cleared."
            );
            reason.next_step = "Select an IN_PROGRESS intent from available_intents, or ask the human about this one.".into();
            return deny(decision, reason);
        }
        reason.kind = ReasonKind::NoActiveIntent;
        reason.message =
            "no intent is selected for this session, and this action changes the workspace.".into();
        reason.next_step = "Call select_active_intent with one of available_intents (MCP tool mcp__intent__select_active_intent, or a prompt line `/intent INT-001`), then retry.".into();
        return deny(decision, reason);
    };
    let Some(intent) = specs.intent(&intent_id) else {
        reason.kind = ReasonKind::IntentNotActive;
        reason.message =
            format!("the selected intent {intent_id} is no longer in active_intents.yaml.");
        reason.next_step = "Select one of available_intents, then retry.".into();
        return deny(decision, reason);
    };
    reason.allowed_scope = intent.owned_scope.clone();
    if !workable(intent.status(), policy) {
        let status = intent
            .status()
            .map_or(intent.status.clone(), |s| s.as_str().to_string());
        reason.kind = ReasonKind::IntentNotActive;
        reason.message = match &intent.blocked_reason {
            Some(why) => format!("{intent_id} is {status} ({why}) and allows no work."),
            None => format!("{intent_id} is {status} and allows no work."),
        };
        reason.next_step = "Select an IN_PROGRESS intent from available_intents, or ask the human to move this one to IN_PROGRESS.".into();
        return deny(decision, reason);
    }

    let scope = ScopeMatcher::new(&intent.owned_scope).ok();
    let ignored = ScopeMatcher::new(input.ignore).ok();
    for (target, normalized) in targets.iter().zip(&normalized) {
        let raw = &target.raw;
        reason.attempted_path = Some(raw.clone());
        let rel = match normalized {
            Ok(rel) => rel,
            Err(PathProblem::OutsideWorkspace(resolved)) => {
                reason.kind = ReasonKind::ScopeViolation;
                reason.message = format!(
                    "`{raw}` resolves to {} outside the workspace.",
                    resolved.display()
                );
                reason.next_step =
                    "Only change files inside the workspace and inside allowed_scope.".into();
                return deny(decision, reason);
            }
            Err(PathProblem::Unusable(why)) => {
                reason.kind = ReasonKind::ScopeViolation;
                reason.message = format!("`{raw}` is not a usable path ({why}).");
                reason.next_step =
                    "Use a workspace-relative or absolute path inside the workspace.".into();
                return deny(decision, reason);
            }
        };
        reason.attempted_path = Some(rel.clone());
        let matches = |rel: &str| {
            scope.as_ref().is_some_and(|s| s.is_match(rel))
                || ignored.as_ref().is_some_and(|s| s.is_match(rel))
        };
        // A recursive target (`rm -r dir`) is in scope only if the whole tree is.
        let in_scope = if target.recursive && root.join(rel).is_dir() {
            tree_in_scope(rel, &intent.owned_scope)
        } else {
            matches(rel)
        };
        if !in_scope {
            reason.kind = ReasonKind::ScopeViolation;
            reason.message = match &target.by {
                Some(by) => {
                    format!("`{by}` would write `{rel}`, outside the owned_scope of {intent_id}.")
                }
                None => format!("`{rel}` is outside the owned_scope of {intent_id}."),
            };
            reason.next_step = "Only change files matching allowed_scope; if this file must change, select an intent that owns it or ask the human to extend owned_scope.".into();
            return deny(decision, reason);
        }
        // The stale check needs what the session last saw: only tools that name
        // their files have that (a command's own changes are traced after it).
        if target.by.is_some() || input.after_the_fact {
            continue;
        }
        let seen = input
            .state
            .session(input.session)
            .and_then(|s| s.files.get(rel.as_str()));
        if let Some(seen) = seen {
            let now = file_sha256(&root.join(rel)).ok().flatten();
            if now.as_deref() != Some(seen.as_str()) {
                reason.kind = ReasonKind::StaleFile;
                reason.message = format!(
                    "`{rel}` was changed by someone else since you read it; read it again."
                );
                reason.next_step =
                    "Read the file again, re-apply your change to its current content, then retry."
                        .into();
                return deny(decision, reason);
            }
        }
    }

    if input.after_the_fact {
        return decision;
    }
    let ask_path = ScopeMatcher::new(&policy.ask_paths)
        .ok()
        .filter(|_| !policy.ask_paths.is_empty())
        .and_then(|m| paths.iter().find(|p| m.is_match(p)).cloned());
    let ask_command = command.as_deref().and_then(|c| {
        policy
            .ask_commands
            .iter()
            .find(|prefix| c.trim_start().starts_with(prefix.as_str()))
    });
    if ask_path.is_some() || ask_command.is_some() {
        reason.kind = ReasonKind::ApprovalRequired;
        reason.message = match (&ask_path, ask_command) {
            (Some(path), _) => {
                format!("the policy asks a human to approve changes to `{path}` under {intent_id}.")
            }
            (None, Some(prefix)) => {
                format!("the policy asks a human to approve `{prefix}` commands under {intent_id}.")
            }
            (None, None) => unreachable!(),
        };
        reason.next_step = "Wait for the human's decision.".into();
        decision.verdict = Verdict::Ask;
        decision.reason = Some(reason);
    }
    decision
}

/// A path an action writes: as given, and for commands, how.
struct Target {
    raw: String,
    recursive: bool,
    /// The command that writes it (`None` for a tool that names the path).
    by: Option<String>,
}

/// The intents an agent may select under `policy`, for refusals to list.
pub fn available_intents(specs: &SpecDocument, policy: &Policy) -> Vec<IntentBrief> {
    specs
        .file
        .active_intents
        .iter()
        .filter(|i| workable(i.status(), policy))
        .map(|i| IntentBrief {
            id: i.id.clone(),
            name: i.name.clone(),
            status: i
                .status()
                .map_or(i.status.clone(), |s| s.as_str().to_string()),
        })
        .collect()
}

/// Returns whether an intent of this status allows work under `policy`.
pub fn workable(status: Option<IntentStatus>, policy: &Policy) -> bool {
    match status {
        Some(IntentStatus::InProgress) => true,
        Some(IntentStatus::Draft) => policy.allow_draft,
        _ => false,
    }
}
