//! Kilo Code's CLI (npm `@kilocode/cli`, binary `kilo`, seen with 7.7.7), an
//! OpenCode fork: it loads the plugin `intent init --agent kilo-code` writes into
//! `.kilo/plugins/` (it does not load `.opencode/`) and calls it with OpenCode's
//! plugin API, so the payloads are OpenCode's (`super::opencode`), with Kilo's
//! session version and its default agent (`code`) in them. What differs is the
//! tools: Kilo adds its own to OpenCode's, listed here from the tools 7.7.7 offers
//! the model and those it defines (`kilo` binary, `Tool.define`).

use intent_gate::Action;
use serde_json::Value;

use super::opencode::{OpenCodeFamily, TOOLS as OPENCODE_TOOLS};
use super::tools::{classify, Classified, ToolTable};
use super::PayloadError;
use crate::engine::FrontEnd;

/// The tools Kilo Code adds to OpenCode's. A tool in neither table needs an
/// intent, as any unknown tool: `notebook_execute` (runs a cell), `agent_manager`
/// (starts sessions in worktrees), `repo_clone`, `browser_open`, `notify_user` and
/// `send_file` (send to the paired mobile app).
pub const TOOLS: ToolTable = ToolTable {
    // `notebook_edit` edits a live VS Code notebook, which lands in the file.
    writes: &[("notebook_edit", &["path"])],
    patches: &[],
    // `background_process` with `action: start` runs `command` (in `workdir`); its
    // other actions are read or stop a process (see [`kilo_classify`]).
    shells: &[("background_process", "command")],
    // Session state and searches: no file of the workspace changes.
    reads: &[
        ("semantic_search", &[]),
        ("kilo_local_recall", &[]),
        ("board_read", &[]),
        ("board_post", &[]),
        ("schedule_wakeup", &[]),
        ("cancel_wakeup", &[]),
        ("suggest", &[]),
        ("agent_manager_models", &[]),
    ],
    native_handshake: false,
};

/// The Kilo Code adapter.
pub const KILO_CODE: OpenCodeFamily = OpenCodeFamily {
    front_end: FrontEnd::KiloCode,
    name: "Kilo Code",
    hook: "Kilo Code plugin hook",
    classify: kilo_classify,
};

/// Kilo's own tools by [`TOOLS`], the rest as OpenCode's. `background_process`
/// runs a command only when it starts one; `list`, `status` and `logs` read, and
/// `stop` and `restart` (of a process started earlier) need an intent like any
/// tool whose effect the gate cannot see.
fn kilo_classify(name: &str, args: &Value) -> Result<Classified, PayloadError> {
    if name == "background_process" && args["action"] != "start" {
        let tool = name.to_string();
        let action = match args["action"].as_str() {
            Some("list" | "status" | "logs") => Action::Read {
                tool,
                paths: Vec::new(),
            },
            _ => Action::Other {
                tool,
                paths: Vec::new(),
            },
        };
        return Ok(Classified {
            action,
            handshake: None,
        });
    }
    let table = if TOOLS.knows(name) {
        &TOOLS
    } else {
        &OPENCODE_TOOLS
    };
    classify(table, name, args)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::Adapter;
    use super::*;

    fn action(tool: &str, args: Value) -> Action {
        let payload = json!({"hook": "tool.execute.before", "directory": "/w",
            "input": {"tool": tool, "sessionID": "ses_1", "callID": "call_0"},
            "output": {"args": args}});
        KILO_CODE.parse(&payload).unwrap().tool.unwrap().action
    }

    #[test]
    fn kilo_tools_and_opencode_tools_map_to_actions() {
        assert!(matches!(
            action("write", json!({"filePath": "/w/a.ts", "content": "x"})),
            Action::Write { paths, .. } if paths == ["/w/a.ts"]
        ));
        assert!(matches!(
            action("notebook_edit", json!({"path": "n.ipynb", "action": "create"})),
            Action::Write { paths, .. } if paths == ["n.ipynb"]
        ));
        assert!(matches!(
            action("background_process", json!({"action": "start", "command": "npm run dev"})),
            Action::Shell { command, .. } if command == "npm run dev"
        ));
        assert!(matches!(
            action("background_process", json!({"action": "logs", "id": "p1"})),
            Action::Read { .. }
        ));
        assert!(matches!(
            action(
                "background_process",
                json!({"action": "restart", "id": "p1"})
            ),
            Action::Other { .. }
        ));
        assert!(matches!(
            action("kilo_local_recall", json!({"mode": "search", "query": "x"})),
            Action::Read { .. }
        ));
        assert!(matches!(
            action("notebook_execute", json!({"path": "n.ipynb", "index": 0})),
            Action::Other { .. }
        ));
        // A start without a command cannot be judged: the payload is refused.
        let payload = json!({"hook": "tool.execute.before", "directory": "/w",
            "input": {"tool": "background_process", "sessionID": "ses_1"},
            "output": {"args": {"action": "start"}}});
        assert!(KILO_CODE.parse(&payload).is_err());
    }

    #[test]
    fn events_are_kilo_codes_and_capabilities_the_plugins() {
        let start = json!({"hook": "event", "directory": "/w", "event": {
            "type": "session.created", "properties": {"sessionID": "ses_2", "info": {"id": "ses_2", "version": "7.7.7"}}}});
        let event = KILO_CODE.parse(&start).unwrap();
        assert_eq!(event.front_end, FrontEnd::KiloCode);
        let unknown = json!({"hook": "permission.ask", "input": {"sessionID": "s"}});
        let err = KILO_CODE.parse(&unknown).unwrap_err().to_string();
        assert!(err.contains("unsupported Kilo Code plugin hook"), "{err}");
        // The plugin throws before the tool runs; the session goes on.
        let caps = FrontEnd::KiloCode.capabilities();
        assert!(caps.blocks_before_write && !caps.refusal_cancels_task);
        // `output.args` is replaced in place: `bash` can run confined.
        assert!(FrontEnd::KiloCode.shell_command_slot("bash").is_some());
        assert!(FrontEnd::KiloCode
            .shell_command_slot("background_process")
            .is_none());
    }
}
