//! OpenCode: a plugin, `.opencode/plugin/intent-ledger.js`, which OpenCode loads at
//! startup and which runs our hook on every tool call (`opencode_plugin.js`; all the
//! logic is in `intent hook opencode`). `doctor` proves OpenCode loads it by asking
//! an `opencode` on PATH for its resolved configuration.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::config::write_text;
use super::probe::{verdict, Finding};
use super::Wiring;

/// How `intent init` wires OpenCode and `intent doctor` checks it.
pub const WIRING: Wiring = Wiring {
    files: PLUGIN,
    wire,
    note: Some("OpenCode loads .opencode/plugin/ at startup (restart a running OpenCode); `opencode --pure` starts without plugins, and so without the gate. Name the intent in a prompt (`/intent INT-001` on a line of its own), or add `\"mcp\": {\"intent\": {\"type\": \"local\", \"command\": [\"intent\", \"mcp\"]}}` to opencode.json for the handshake tools."),
    commands,
    check,
};

/// The plugin `intent init --agent opencode` writes.
pub const PLUGIN: &str = ".opencode/plugin/intent-ledger.js";

/// The plugin's first line, which says it is ours.
const HEADER: &str = "// Written by `intent init --agent opencode`";

/// How long `doctor` waits for `opencode debug config`.
const LOAD_PROOF_LIMIT: Duration = Duration::from_secs(45);

/// The plugin's text for the hook command `command` (`intent`, or a path).
pub fn plugin(command: &str) -> String {
    include_str!("opencode_plugin.js").replace(
        "__INTENT_COMMAND__",
        &serde_json::to_string(command).expect("a string serializes"),
    )
}

/// The command a plugin of ours runs, from its `const COMMAND = "…";` line.
fn plugin_command(text: &str) -> Option<String> {
    let line = text.lines().find(|l| l.starts_with("const COMMAND = "))?;
    let json = line.strip_prefix("const COMMAND = ")?.strip_suffix(';')?;
    serde_json::from_str(json).ok()
}

fn wire(root: &Path, command: &str) -> anyhow::Result<Vec<String>> {
    let path = root.join(PLUGIN);
    let text = plugin(command);
    match std::fs::read_to_string(&path) {
        Ok(old) if old == text => return Ok(Vec::new()),
        Ok(old) => anyhow::ensure!(
            old.starts_with(HEADER),
            "{PLUGIN} exists and is not ours; move it away, then run `intent init --agent opencode`"
        ),
        Err(_) => {}
    }
    write_text(&path, &text)?;
    Ok(vec![PLUGIN.to_string()])
}

fn commands(root: &Path) -> Vec<(String, String)> {
    std::fs::read_to_string(root.join(PLUGIN))
        .ok()
        .and_then(|text| plugin_command(&text))
        .map(|command| vec![(PLUGIN.to_string(), format!("{command} hook opencode"))])
        .unwrap_or_default()
}

/// The plugin must be ours and current (a plugin that was edited may no longer
/// refuse anything); then an `opencode` on PATH must list it among the plugins it
/// loads here.
fn check(root: &Path, found: &mut Vec<Finding>) {
    let Ok(text) = std::fs::read_to_string(root.join(PLUGIN)) else {
        return;
    };
    let gaps = match plugin_command(&text) {
        Some(command) if text == plugin(&command) => Vec::new(),
        Some(_) => vec![format!(
            "{PLUGIN} is not the plugin this intent writes (edited, or from another version)"
        )],
        None => vec![format!("{PLUGIN} does not run `intent hook opencode`")],
    };
    let ok = gaps.is_empty();
    found.push(verdict("opencode", PLUGIN, &[], &gaps));
    if ok {
        found.push(load_proof(root));
    }
}

/// Whether OpenCode loads the plugin: `opencode debug config` prints the resolved
/// configuration, whose `plugin` list names every plugin file it loads.
fn load_proof(root: &Path) -> Finding {
    let name = "opencode plugin loaded".to_string();
    let Some(bin) = on_path("opencode") else {
        return (
            name,
            "ok",
            format!("no `opencode` on PATH: {PLUGIN} is in place, that OpenCode loads it was not proven"),
        );
    };
    let wanted = root.join(PLUGIN);
    let wanted = wanted.canonicalize().unwrap_or(wanted);
    match debug_config(&bin, root) {
        Err(why) => (
            name,
            "warn",
            format!(
                "`{} debug config` {why}: that OpenCode loads {PLUGIN} was not proven",
                bin.display()
            ),
        ),
        Ok(config) => {
            let plugins: Vec<&str> = config["plugin"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            let loaded = plugins.iter().any(|p| {
                let path = Path::new(p.strip_prefix("file://").unwrap_or(p));
                path.canonicalize().is_ok_and(|p| p == wanted)
            });
            if loaded {
                (
                    name,
                    "ok",
                    format!("`{} debug config` lists {PLUGIN}", bin.display()),
                )
            } else {
                (
                    name,
                    "fail",
                    format!(
                        "`{} debug config` does not list {PLUGIN} among its plugins ({}): the gate is not wired; check opencode.json and OPENCODE_CONFIG*",
                        bin.display(),
                        plugins.join(", ")
                    ),
                )
            }
        }
    }
}

fn on_path(program: &str) -> Option<std::path::PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(program))
        .find(|path| super::probe::executable(path) && path.is_file())
}

/// Runs `opencode debug config` in `root`, within [`LOAD_PROOF_LIMIT`].
fn debug_config(bin: &Path, root: &Path) -> Result<Value, String> {
    let mut child = Command::new(bin)
        .args(["debug", "config"])
        .current_dir(root)
        .env("OPENCODE_DISABLE_AUTOUPDATE", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start ({e})"))?;
    let mut stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut out).map(|_| out)
    });
    let deadline = Instant::now() + LOAD_PROOF_LIMIT;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(100)),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "did not finish in {} s",
                    LOAD_PROOF_LIMIT.as_secs()
                ));
            }
            Err(e) => return Err(format!("failed ({e})")),
        }
    };
    let out = reader
        .join()
        .map_err(|_| "could not be read".to_string())?
        .map_err(|e| format!("could not be read ({e})"))?;
    if !status.success() {
        return Err(format!("failed ({status})"));
    }
    // The JSON starts at the first `{` (a first start may log before it).
    let text = String::from_utf8_lossy(&out);
    let start = text.find('{').ok_or("printed no configuration")?;
    serde_json::from_str(&text[start..]).map_err(|e| format!("printed no configuration ({e})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plugin_names_its_command_as_a_javascript_string() {
        let text = plugin("/opt/my tools/intent");
        assert!(text.starts_with(HEADER));
        assert!(text.contains(r#"const COMMAND = "/opt/my tools/intent";"#));
        assert_eq!(
            plugin_command(&text).as_deref(),
            Some("/opt/my tools/intent")
        );
        assert_eq!(plugin_command("export const X = 1;"), None);
    }
}
