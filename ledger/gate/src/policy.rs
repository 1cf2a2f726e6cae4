//! `.orchestration/policy.yaml`: the knobs of the gate, with documented defaults.

use std::path::Path;

use serde::{Deserialize, Serialize};

/// What to do with an obviously dangerous shell command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum DangerAction {
    /// Refuse it (default).
    #[default]
    Deny,
    /// Ask the human in the front-end.
    Ask,
}

/// What to do when an agent's declared `mutation_class` differs from the computed one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum MismatchAction {
    /// Record the mismatch in the trace (default).
    #[default]
    Record,
    /// Also feed it back to the agent as a PostToolUse block.
    Block,
}

/// What a refusal does in a front-end that can only abort the whole task (Cline).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum TaskRefusal {
    /// Abort the task (default): the refused action never happens.
    #[default]
    Cancel,
    /// Let the action run and warn the agent through its next context; the
    /// refusal is still recorded in the ledger.
    Warn,
}

/// Whether shell commands the gate allows run under `intent confine` (the kernel
/// then holds the intent's scope), where the front-end lets a hook rewrite them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum ConfineShell {
    /// Run them as the agent wrote them (default); the after-the-fact check stays.
    #[default]
    Off,
    /// Rewrite them and let them run: the front-end's own permission prompt for
    /// them is skipped (Claude Code needs `allow` or `ask` with a rewrite).
    Allow,
    /// Rewrite them and let the front-end ask the human, showing the rewrite.
    Ask,
}

/// Whether an agent may mark an intent DONE by itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum AgentCompletion {
    /// The agent proposes; a human confirms with `intent status ID DONE` (default).
    #[default]
    Propose,
    /// The agent's `complete_intent` marks the intent DONE.
    Allow,
}

/// What `intent review --check` does with one kind of finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CheckAction {
    /// Not reported.
    Allow,
    /// Reported; the check still passes.
    Warn,
    /// Reported; the check fails.
    Fail,
}

/// The rules `intent review --check` applies to a range (the `review:` section).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ReviewPolicy {
    /// Lines no traced write made as they are: a human's edit, or an agent's the
    /// ledger did not see. Default `warn`.
    pub untraced: CheckAction,
    /// Globs of files whose untraced lines are expected (lockfiles, generated
    /// code, the specs themselves): never reported.
    pub untraced_paths: Vec<String>,
    /// Changes outside their intent's current `owned_scope`. Default `fail`.
    pub outside_scope: CheckAction,
    /// Behaviour changes (each needs a reviewer). Default `allow`.
    pub behaviour: CheckAction,
    /// Violations the ledgers recorded for the range's files since its base
    /// (writes outside scope, protected files touched). Default `fail`.
    pub violations: CheckAction,
}

impl Default for ReviewPolicy {
    fn default() -> Self {
        ReviewPolicy {
            untraced: CheckAction::Warn,
            untraced_paths: vec![".orchestration/**".to_string()],
            outside_scope: CheckAction::Fail,
            behaviour: CheckAction::Allow,
            violations: CheckAction::Fail,
        }
    }
}

/// The gate's policy. Every field has a default, so an empty or missing file is the
/// default policy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Policy {
    /// `deny` (default) or `ask` for dangerous commands (`rm -rf /`, `curl | sh`,
    /// `chmod -R 777`, `git push --force`, writes outside the workspace).
    pub dangerous_commands: DangerAction,
    /// Globs of workspace paths whose writes need a human's approval (`ask`).
    pub ask_paths: Vec<String>,
    /// Command prefixes that need a human's approval (`ask`), e.g. `git push`.
    pub ask_commands: Vec<String>,
    /// Let agents work under DRAFT intents (default false: only IN_PROGRESS).
    pub allow_draft: bool,
    /// Append a lesson (shown to later sessions) for every deny.
    pub lesson_on_deny: bool,
    /// `record` (default) or `block` when a declared mutation class is wrong.
    pub declared_class_mismatch: MismatchAction,
    /// `cancel` (default) or `warn`: what a refusal does in Cline, whose hooks can
    /// only cancel the whole task.
    pub cline_refusal: TaskRefusal,
    /// `propose` (default) or `allow`: whether an agent's `complete_intent` marks the
    /// intent DONE or only proposes it for a human to confirm.
    pub agent_completion: AgentCompletion,
    /// Tools the gate may let through without an intent because they only read:
    /// names or globs of other MCP servers' tools (`mcp__github__get_*`). Every
    /// tool not listed and not known to the adapters is destructive.
    pub read_only_tools: Vec<String>,
    /// Shell commands to add to the gate's read-only allowlist, as leading words
    /// (`cargo metadata`, `npm ls`, `kubectl get`): a command that starts with
    /// these words passes without an intent. Redirections and substitutions in it
    /// are still checked.
    pub read_only_commands: Vec<String>,
    /// Workspace paths (globs cut at their first wildcard) that `intent confine`
    /// lets a command write whatever its intent's scope: build outputs and
    /// scratch. Default `target`, `node_modules`, `dist`.
    pub scratch_paths: Vec<String>,
    /// `off` (default), `allow` or `ask`: run the shell commands the gate allows
    /// under `intent confine` (Linux; where a front-end cannot rewrite the command,
    /// it is refused instead: docs/confine.md).
    pub confine_shell: ConfineShell,
    /// What `intent review --check` fails on.
    pub review: ReviewPolicy,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            dangerous_commands: DangerAction::Deny,
            ask_paths: Vec::new(),
            ask_commands: Vec::new(),
            allow_draft: false,
            lesson_on_deny: true,
            declared_class_mismatch: MismatchAction::Record,
            cline_refusal: TaskRefusal::Cancel,
            agent_completion: AgentCompletion::Propose,
            read_only_tools: Vec::new(),
            read_only_commands: Vec::new(),
            scratch_paths: ["target", "node_modules", "dist"]
                .map(String::from)
                .to_vec(),
            confine_shell: ConfineShell::Off,
            review: ReviewPolicy::default(),
        }
    }
}

impl Policy {
    /// Whether `read_only_tools` lists `tool` (exactly or by a glob).
    pub fn is_read_only_tool(&self, tool: &str) -> bool {
        self.read_only_tools.iter().any(|pattern| {
            pattern == tool
                || globset::Glob::new(pattern)
                    .map(|g| g.compile_matcher().is_match(tool))
                    .unwrap_or(false)
        })
    }

    /// Loads the policy file; a missing file is the default policy. A malformed one
    /// is an error the gate turns into fail-closed `invalid_config` denies.
    pub fn load(path: &Path) -> Result<Policy, PolicyError> {
        match intent_ledger::atomic::read_regular(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Policy::default()),
            Err(source) => Err(PolicyError::Read {
                path: path.to_path_buf(),
                source,
            }),
            Ok(bytes) if bytes.iter().all(u8::is_ascii_whitespace) => Ok(Policy::default()),
            Ok(bytes) => serde_norway::from_slice(&bytes).map_err(|source| PolicyError::Invalid {
                path: path.to_path_buf(),
                source,
            }),
        }
    }
}

/// Why `policy.yaml` cannot be used (the gate then refuses what is not read-only).
#[derive(Debug, thiserror::Error)]
pub enum PolicyError {
    /// The file exists but cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The policy file.
        path: std::path::PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The file is not a valid policy.
    #[error("{} is not a valid policy: {source}", path.display())]
    Invalid {
        /// The policy file.
        path: std::path::PathBuf,
        /// The parser's complaint.
        source: serde_norway::Error,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_empty_and_partial_files_use_defaults() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("policy.yaml");
        assert_eq!(Policy::load(&path).unwrap(), Policy::default());
        std::fs::write(&path, "\n").unwrap();
        assert_eq!(Policy::load(&path).unwrap(), Policy::default());
        std::fs::write(&path, "dangerous_commands: ask\nask_commands: [git push]\n").unwrap();
        let policy = Policy::load(&path).unwrap();
        assert_eq!(policy.dangerous_commands, DangerAction::Ask);
        assert_eq!(policy.ask_commands, vec!["git push"]);
        assert!(policy.lesson_on_deny);
        std::fs::write(&path, "dangerous_commnds: ask\n").unwrap();
        assert!(Policy::load(&path)
            .unwrap_err()
            .to_string()
            .contains("unknown field"));
    }
}
