//! Kilo Code's CLI (`kilo`, npm `@kilocode/cli`), an OpenCode fork: the same plugin
//! as OpenCode's, in `.kilo/plugins/intent-ledger.js`, where Kilo looks for plugins
//! (7.7.7 scans `.kilo/` and the older `.kilocode/`, not `.opencode/`). `doctor`
//! proves Kilo loads it with `kilo debug config`, as for OpenCode.

use std::time::Duration;

use intent_engine::FrontEnd;

use super::opencode::{check, commands, wire, PluginHost};
use super::Wiring;

/// The plugin `intent init --agent kilo-code` writes.
pub const PLUGIN: &str = ".kilo/plugins/intent-ledger.js";

/// Kilo Code's CLI.
pub const KILO: PluginHost = PluginHost {
    front_end: FrontEnd::KiloCode,
    name: "Kilo Code",
    plugin: PLUGIN,
    program: "kilo",
    env: "KILO",
    config: "kilo.json",
    // `kilo debug config` boots the whole CLI: 19 s on an idle 2-core machine,
    // 45 to 62 s with other builds running (7.7.7).
    load_proof_limit: Duration::from_secs(90),
};

/// How `intent init` wires Kilo Code and `intent doctor` checks it.
pub const WIRING: Wiring = Wiring {
    files: PLUGIN,
    wire: |root, command| wire(&KILO, root, command),
    note: Some("Kilo Code loads .kilo/plugins/ at startup (restart a running Kilo); `kilo --pure` (or KILO_PURE=1) starts without plugins, and so without the gate. Name the intent in a prompt (`/intent INT-001` on a line of its own), or add `\"mcp\": {\"intent\": {\"type\": \"local\", \"command\": [\"intent\", \"mcp\"]}}` to kilo.json for the handshake tools."),
    commands: |root| commands(&KILO, root),
    check: |root, found| check(&KILO, root, found),
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plugin_runs_the_kilo_code_hook() {
        let text = KILO.plugin("intent");
        assert!(text.starts_with("// Written by `intent init --agent kilo-code`"));
        assert!(text.contains(r#"const FRONT_END = "kilo-code";"#));
        assert!(!text.contains("__"), "a placeholder is left: {text}");
    }
}
