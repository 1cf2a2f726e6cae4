//! The cases: what the gate must answer for each call, without and with the intent.
//! One file per few attack families; [`cases`] runs them in a fixed order.

mod read_only;
mod refused;
mod scope;
mod shell_syntax;
mod tools;

/// What the gate must answer: allow, or deny with one of the reason types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Expect {
    Allow,
    Deny(&'static [&'static str]),
}

const A: Expect = Expect::Allow;
const NAI: Expect = Expect::Deny(&["no_active_intent"]);
const SV: Expect = Expect::Deny(&["scope_violation"]);
const PB: Expect = Expect::Deny(&["policy_block"]);
/// Outside the workspace with an intent: the dangerous handling or a scope violation.
const OUT: Expect = Expect::Deny(&["policy_block", "scope_violation"]);
/// Outside the workspace without an intent: as above, or the missing intent first.
const OUT_N: Expect = Expect::Deny(&["policy_block", "scope_violation", "no_active_intent"]);
/// A protected file without an intent: the policy block, or the missing intent first.
const PROT_N: Expect = Expect::Deny(&["policy_block", "no_active_intent"]);

impl std::fmt::Display for Expect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Expect::Allow => write!(f, "allow"),
            Expect::Deny(kinds) => write!(f, "deny({})", kinds.join("|")),
        }
    }
}

/// A tool call, front-end neutral. `{ROOT}` in any string is the workspace root.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) enum Call {
    /// A shell command run from the workspace root.
    Shell(&'static str),
    /// A whole-file write tool (Write, write_file, write_to_file, apply_patch Add).
    Write(&'static str),
    /// An edit tool (Edit, replace, replace_in_file, apply_diff, apply_patch Update).
    Edit(&'static str),
    /// An MCP tool: server, tool, JSON arguments.
    Mcp(&'static str, &'static str, &'static str),
}

impl Call {
    pub(super) fn is_write(&self) -> bool {
        matches!(self, Call::Write(_) | Call::Edit(_))
    }
}

impl std::fmt::Display for Call {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Call::Shell(cmd) => write!(f, "sh `{}`", cmd.replace('\n', "\\n")),
            Call::Write(path) => write!(f, "Write {path}"),
            Call::Edit(path) => write!(f, "Edit {path}"),
            Call::Mcp(server, tool, args) => write!(f, "mcp {server}/{tool} {args}"),
        }
    }
}

/// One case: a call and what the gate must answer without and with the intent.
#[derive(Debug, Clone)]
pub(super) struct Case {
    pub(super) category: &'static str,
    pub(super) call: Call,
    pub(super) none: Expect,
    pub(super) intent: Expect,
}

#[derive(Default)]
struct Cases(Vec<Case>);

impl Cases {
    fn push(&mut self, category: &'static str, call: Call, none: Expect, intent: Expect) {
        self.0.push(Case {
            category,
            call,
            none,
            intent,
        });
    }

    /// Shell commands sharing both expectations.
    fn sh(&mut self, category: &'static str, none: Expect, intent: Expect, cmds: &[&'static str]) {
        for cmd in cmds {
            self.push(category, Call::Shell(cmd), none, intent);
        }
    }

    /// Shell commands refused without an intent, each with its own answer under it.
    fn sh_each(&mut self, category: &'static str, cmds: &[(&'static str, Expect)]) {
        for (cmd, intent) in cmds {
            self.push(category, Call::Shell(cmd), NAI, *intent);
        }
    }

    fn write(&mut self, none: Expect, intent: Expect, paths: &[&'static str]) {
        for path in paths {
            self.push("write_tool", Call::Write(path), none, intent);
        }
    }

    fn edit(&mut self, none: Expect, intent: Expect, paths: &[&'static str]) {
        for path in paths {
            self.push("edit_tool", Call::Edit(path), none, intent);
        }
    }

    fn mcp(
        &mut self,
        category: &'static str,
        none: Expect,
        intent: Expect,
        calls: &[(&'static str, &'static str, &'static str)],
    ) {
        for (server, tool, args) in calls {
            self.push(category, Call::Mcp(server, tool, args), none, intent);
        }
    }
}

/// Every case of the default configuration (no policy file), attack family by family.
pub(super) fn cases() -> Vec<Case> {
    let mut c = Cases::default();
    read_only::commands(&mut c);
    refused::forged_human_acts(&mut c);
    read_only::look_alikes(&mut c);
    shell_syntax::redirections(&mut c);
    scope::file_writing_programs(&mut c);
    shell_syntax::substitutions(&mut c);
    shell_syntax::wrappers(&mut c);
    shell_syntax::cd(&mut c);
    shell_syntax::home_and_variables(&mut c);
    refused::dangerous(&mut c);
    scope::outside_the_workspace(&mut c);
    refused::protected_files(&mut c);
    scope::out_of_scope(&mut c);
    scope::in_scope(&mut c);
    scope::unknown_effects(&mut c);
    tools::foreign_mcp(&mut c);
    tools::write_tool_paths(&mut c);
    c.0
}

/// Cases run where `.orchestration/policy.yaml` lists `mcp__fs__read_file` read-only.
pub(super) fn policy_cases() -> Vec<Case> {
    let mut c = Cases::default();
    c.mcp(
        "mcp_policy_read_only",
        A,
        A,
        &[
            ("fs", "read_file", r#"{"path":"src/a.ts"}"#),
            ("fs", "read_file", r#"{"path":"docs/guide.md"}"#),
        ],
    );
    c.mcp(
        "mcp_policy_read_only",
        NAI,
        A,
        &[
            ("fs", "write_file", r#"{"path":"src/a.ts","content":"x"}"#),
            ("other", "read_file", r#"{"path":"src/a.ts"}"#),
        ],
    );
    c.mcp(
        "mcp_policy_read_only",
        NAI,
        SV,
        &[("fs", "write_file", r#"{"path":"lib/a.ts","content":"x"}"#)],
    );
    c.sh("mcp_policy_read_only", A, A, &["ls -la"]);
    c.sh("mcp_policy_read_only", NAI, A, &["touch src/x.ts"]);
    c.0
}

/// The policy that lists one foreign MCP tool as read-only (issue #13's new key).
pub(super) const READ_ONLY_POLICY: &str = "read_only_tools: [mcp__fs__read_file]\n";
