//! OpenCode: a plugin, `.opencode/plugin/intent-ledger.js`, which OpenCode loads at
//! startup and which runs our hook on every tool call (`opencode_plugin.js`; all the
//! logic is in `intent hook opencode`). `doctor` proves OpenCode loads it by asking
//! an `opencode` on PATH for its resolved configuration. Kilo Code, an OpenCode
//! fork, runs the same plugin from its own directory ([`PluginHost`],
//! `super::kilo_code`).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::config::write_text;
use super::probe::{verdict, Finding};
use super::Wiring;
use intent_engine::FrontEnd;

/// How `intent init` wires OpenCode and `intent doctor` checks it.
pub const WIRING: Wiring = Wiring {
    files: PLUGIN,
    wire: |root, command| wire(&OPENCODE, root, command),
    note: Some("OpenCode loads .opencode/plugin/ at startup (restart a running OpenCode); `opencode --pure` starts without plugins, and so without the gate. Name the intent in a prompt (`/intent INT-001` on a line of its own), or add `\"mcp\": {\"intent\": {\"type\": \"local\", \"command\": [\"intent\", \"mcp\"]}}` to opencode.json for the handshake tools."),
    commands: |root| commands(&OPENCODE, root),
    check: |root, found| check(&OPENCODE, root, found),
};

/// The plugin `intent init --agent opencode` writes.
pub const PLUGIN: &str = ".opencode/plugin/intent-ledger.js";

/// A CLI that loads `opencode_plugin.js`: OpenCode, or a fork with the same plugin
/// API.
pub struct PluginHost {
    /// The front-end (`intent init --agent` and `intent hook` take its name).
    pub front_end: FrontEnd,
    /// Its name in messages.
    pub name: &'static str,
    /// Where the plugin goes, workspace-relative.
    pub plugin: &'static str,
    /// The CLI's executable, which `doctor` asks for its configuration.
    pub program: &'static str,
    /// The prefix of its environment variables (`OPENCODE_DISABLE_AUTOUPDATE`).
    pub env: &'static str,
    /// Its project configuration file, for the hint.
    pub config: &'static str,
    /// How long `doctor` waits for `<program> debug config`.
    pub load_proof_limit: Duration,
}

/// OpenCode.
pub const OPENCODE: PluginHost = PluginHost {
    front_end: FrontEnd::OpenCode,
    name: "OpenCode",
    plugin: PLUGIN,
    program: "opencode",
    env: "OPENCODE",
    config: "opencode.json",
    load_proof_limit: Duration::from_secs(45),
};

impl PluginHost {
    /// The plugin's first line, which says it is ours.
    fn header(&self) -> String {
        format!(
            "// Written by `intent init --agent {}`",
            self.front_end.as_str()
        )
    }

    /// The plugin's text for the hook command `command` (`intent`, or a path).
    pub fn plugin(&self, command: &str) -> String {
        include_str!("opencode_plugin.js")
            .replace(
                "__INTENT_COMMAND__",
                &serde_json::to_string(command).expect("a string serializes"),
            )
            // A name of lowercase letters and `-`: plain text in the comment and
            // the string alike.
            .replace("__FRONT_END__", self.front_end.as_str())
    }
}

/// The command a plugin of ours runs, from its `const COMMAND = "…";` line.
fn plugin_command(text: &str) -> Option<String> {
    let line = text.lines().find(|l| l.starts_with("const COMMAND = "))?;
    let json = line.strip_prefix("const COMMAND = ")?.strip_suffix(';')?;
    serde_json::from_str(json).ok()
}

pub(crate) fn wire(host: &PluginHost, root: &Path, command: &str) -> anyhow::Result<Vec<String>> {
    let plugin = host.plugin;
    let path = root.join(plugin);
    let text = host.plugin(command);
    match std::fs::read_to_string(&path) {
        Ok(old) if old == text => return Ok(Vec::new()),
        Ok(old) => anyhow::ensure!(
            old.starts_with(&host.header()),
            "{plugin} exists and is not ours; move it away, then run `intent init --agent {}`",
            host.front_end.as_str()
        ),
        Err(_) => {}
    }
    write_text(&path, &text)?;
    Ok(vec![plugin.to_string()])
}

pub(crate) fn commands(host: &PluginHost, root: &Path) -> Vec<(String, String)> {
    std::fs::read_to_string(root.join(host.plugin))
        .ok()
        .and_then(|text| plugin_command(&text))
        .map(|command| {
            let hook = format!("{command} hook {}", host.front_end.as_str());
            vec![(host.plugin.to_string(), hook)]
        })
        .unwrap_or_default()
}

/// The plugin must be ours and current (a plugin that was edited may no longer
/// refuse anything); then the CLI on PATH (`opencode`, `kilo`) must list it among
/// the plugins it loads here.
pub(crate) fn check(host: &PluginHost, root: &Path, found: &mut Vec<Finding>) {
    let (plugin, fe) = (host.plugin, host.front_end.as_str());
    let Ok(text) = std::fs::read_to_string(root.join(plugin)) else {
        return;
    };
    let gaps = match plugin_command(&text) {
        Some(command) if text == host.plugin(&command) => Vec::new(),
        Some(_) => vec![format!(
            "{plugin} is not the plugin this intent writes (edited, or from another version)"
        )],
        None => vec![format!("{plugin} does not run `intent hook {fe}`")],
    };
    let ok = gaps.is_empty();
    found.push(verdict(fe, plugin, &[], &gaps));
    if ok {
        found.push(load_proof(host, root));
    }
}

/// Whether the CLI loads the plugin: `<program> debug config` prints the resolved
/// configuration, whose `plugin` list names every plugin file it loads.
fn load_proof(host: &PluginHost, root: &Path) -> Finding {
    let (plugin, program, who) = (host.plugin, host.program, host.name);
    let name = format!("{} plugin loaded", host.front_end.as_str());
    let Some(bin) = on_path(program) else {
        return (
            name,
            "ok",
            format!(
                "no `{program}` on PATH: {plugin} is in place, that {who} loads it was not proven"
            ),
        );
    };
    let wanted = root.join(plugin);
    let wanted = wanted.canonicalize().unwrap_or(wanted);
    match debug_config(host, &bin, root) {
        Err(why) => (
            name,
            "warn",
            format!(
                "`{} debug config` {why}: that {who} loads {plugin} was not proven",
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
                    format!("`{} debug config` lists {plugin}", bin.display()),
                )
            } else {
                (
                    name,
                    "fail",
                    format!(
                        "`{} debug config` does not list {plugin} among its plugins ({}): the gate is not wired; check {} and {}_CONFIG*",
                        bin.display(),
                        plugins.join(", "),
                        host.config,
                        host.env
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

/// Runs `<program> debug config` in `root`, within the host's load proof limit.
fn debug_config(host: &PluginHost, bin: &Path, root: &Path) -> Result<Value, String> {
    let mut child = Command::new(bin)
        .args(["debug", "config"])
        .current_dir(root)
        .env(format!("{}_DISABLE_AUTOUPDATE", host.env), "1")
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
    let deadline = Instant::now() + host.load_proof_limit;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(100)),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "did not finish in {} s",
                    host.load_proof_limit.as_secs()
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
        let text = OPENCODE.plugin("/opt/my tools/intent");
        assert!(text.starts_with(&OPENCODE.header()));
        assert!(text.contains(r#"const FRONT_END = "opencode";"#));
        assert!(text.contains(r#"const COMMAND = "/opt/my tools/intent";"#));
        assert_eq!(
            plugin_command(&text).as_deref(),
            Some("/opt/my tools/intent")
        );
        assert_eq!(plugin_command("export const X = 1;"), None);
    }
}
