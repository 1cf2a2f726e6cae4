//! External adapters: `intent-adapter-<name>` on `PATH`, a program in any language
//! that turns its agent's hook payloads into the generic event and our generic
//! reply back into what its agent expects, over newline-delimited JSON on its
//! stdin and stdout (the contract: docs/frontends/external.md).
//!
//! Only a name that is not built in is looked up here, so built-in front-ends pay
//! nothing for this. One adapter process serves one hook: `hello` (protocol
//! version, declared capabilities, the refusal to print if it fails later), then
//! `decode` (the agent's payload in, the generic event out), then `encode` (our
//! reply in, the agent's bytes and exit code out).

pub mod hook;
pub mod process;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use intent_engine::ExternalFrontEnd;
use serde_json::{json, Value};

use process::Process;

/// The protocol versions this intent speaks; an adapter picks one in its `hello`.
pub const PROTOCOLS: &[u64] = &[1];

/// The prefix of an adapter's file name.
pub const PREFIX: &str = "intent-adapter-";

/// The largest `hello` answer.
const HELLO_LIMIT: usize = 64 * 1024;

/// The largest refusal an adapter may declare.
const REFUSAL_LIMIT: usize = 64 * 1024;

/// What an adapter prints when the hook cannot go on: the bytes its agent reads as
/// a refusal, and the exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// Printed on stdout.
    pub stdout: String,
    /// The hook's exit code.
    pub exit_code: u8,
}

impl Default for Output {
    /// Before an adapter said otherwise: nothing on stdout, exit 2, which refuses
    /// in every agent whose hooks we know (docs/frontends/external.md).
    fn default() -> Self {
        Output {
            stdout: String::new(),
            exit_code: 2,
        }
    }
}

/// An adapter after its handshake.
pub struct Adapter {
    /// Its process.
    pub process: Process,
    /// Its name and declared capabilities, as events record them.
    pub front_end: ExternalFrontEnd,
    /// The protocol it chose.
    pub protocol: u64,
    /// Its version, as it gave it.
    pub version: String,
    /// What to print if it fails from here on.
    pub refusal: Output,
}

/// The directories of `PATH`, in order.
fn path_dirs() -> Vec<PathBuf> {
    std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default()
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The first `intent-adapter-<name>` on `PATH`, as a shell would find it.
pub fn find(name: &str) -> Option<PathBuf> {
    path_dirs()
        .into_iter()
        .filter(|dir| dir.is_absolute())
        .map(|dir| dir.join(format!("{PREFIX}{name}")))
        .find(|path| is_executable(path))
}

/// Every adapter on `PATH` (the first of each name), by name.
pub fn all_on_path() -> Vec<(String, PathBuf)> {
    let mut found: Vec<(String, PathBuf)> = Vec::new();
    for dir in path_dirs().into_iter().filter(|dir| dir.is_absolute()) {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut here: Vec<(String, PathBuf)> = entries
            .flatten()
            .filter_map(|entry| {
                let file = entry.file_name();
                let name = file.to_str()?.strip_prefix(PREFIX)?.to_string();
                let path = entry.path();
                (crate::front_end_arg::valid_name(&name).is_ok() && is_executable(&path))
                    .then_some((name, path))
            })
            .collect();
        here.sort();
        for (name, path) in here {
            if !found.iter().any(|(n, _)| *n == name) {
                found.push((name, path));
            }
        }
    }
    found
}

/// Starts the adapter at `path` and shakes hands: its protocol must be one of
/// ours, its name `name`, its capabilities all declared.
pub fn start(name: &'static str, path: &Path) -> Result<Adapter, String> {
    let mut process = Process::start(path)?;
    let hello = json!({"type": "hello", "protocols": PROTOCOLS,
        "intent_version": env!("CARGO_PKG_VERSION")});
    let answer = process.ask(&hello, HELLO_LIMIT)?;
    let adapter = read_hello(name, &answer)?;
    Ok(Adapter {
        process,
        front_end: adapter.0,
        protocol: adapter.1,
        version: adapter.2,
        refusal: adapter.3,
    })
}

/// Reads a `hello` answer: (front-end, protocol, version, refusal).
fn read_hello(
    name: &'static str,
    answer: &Value,
) -> Result<(ExternalFrontEnd, u64, String, Output), String> {
    expect_type(answer, "hello")?;
    let protocol = answer["protocol"]
        .as_u64()
        .ok_or("its `hello` has no numeric `protocol`")?;
    if !PROTOCOLS.contains(&protocol) {
        return Err(format!(
            "speaks protocol {protocol}, and this intent {} speaks {PROTOCOLS:?}: install the \
             adapter's release for protocol {PROTOCOLS:?}, or an intent that speaks {protocol}",
            env!("CARGO_PKG_VERSION")
        ));
    }
    let said = answer["name"].as_str().unwrap_or_default();
    if said != name {
        return Err(format!(
            "calls itself `{said}`, not `{name}`: a file named {PREFIX}{name} must be that adapter"
        ));
    }
    let caps = &answer["capabilities"];
    let flag = |key: &str| {
        caps[key].as_bool().ok_or_else(|| {
            format!("its `hello` does not declare `capabilities.{key}` (true or false)")
        })
    };
    let front_end = ExternalFrontEnd {
        name,
        blocks_before_write: flag("blocks_before_write")?,
        can_rewrite_input: flag("can_rewrite_input")?,
        refusal_cancels_task: flag("refusal_cancels_task")?,
    };
    let refusal = match answer.get("refusal") {
        None | Some(Value::Null) => Output::default(),
        Some(value) => {
            output(value, REFUSAL_LIMIT).map_err(|why| format!("its `refusal` {why}"))?
        }
    };
    let version = answer["version"]
        .as_str()
        .unwrap_or("")
        .chars()
        .take(64)
        .collect();
    Ok((front_end, protocol, version, refusal))
}

/// Reads `{stdout, exit_code}`.
pub fn output(value: &Value, limit: usize) -> Result<Output, String> {
    let stdout = value["stdout"]
        .as_str()
        .ok_or("has no string `stdout`")?
        .to_string();
    if stdout.len() > limit {
        return Err(format!("has a `stdout` over {limit} bytes"));
    }
    let exit_code = value["exit_code"]
        .as_u64()
        .and_then(|code| u8::try_from(code).ok())
        .ok_or("has no `exit_code` from 0 to 255")?;
    Ok(Output { stdout, exit_code })
}

/// An answer of type `wanted`; an adapter's `error` answer is its message.
pub fn expect_type(answer: &Value, wanted: &str) -> Result<(), String> {
    match answer["type"].as_str() {
        Some(t) if t == wanted => Ok(()),
        Some("error") => Err(format!(
            "answered with an error: {}",
            clip(answer["message"].as_str().unwrap_or("(no message)"))
        )),
        other => Err(format!(
            "answered {} where a `{wanted}` belongs",
            other.map_or("without a `type`".to_string(), |t| format!("`{t}`"))
        )),
    }
}

/// An adapter's text, cut for a message.
pub fn clip(text: &str) -> String {
    let mut out: String = text.chars().take(300).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

/// `intent doctor`'s line for every adapter on `PATH`: its protocol and declared
/// capabilities, or why its handshake failed (a warning: this workspace may not use
/// it).
pub fn doctor() -> Vec<(String, &'static str, String)> {
    all_on_path()
        .into_iter()
        .map(|(name, path)| {
            let label = format!("external adapter {name}");
            let name: &'static str = Box::leak(name.into_boxed_str());
            match start(name, &path) {
                Ok(adapter) => {
                    let caps = capabilities_text(adapter.front_end);
                    let detail = format!(
                        "{} (version {}), protocol {}; {caps}; `intent hook {name}` uses it",
                        path.display(),
                        if adapter.version.is_empty() {
                            "?"
                        } else {
                            &adapter.version
                        },
                        adapter.protocol
                    );
                    adapter.process.finish();
                    (label, "ok", detail)
                }
                Err(why) => (
                    label,
                    "warn",
                    format!(
                        "{} {why}; hooks through it refuse every change until it is fixed",
                        path.display()
                    ),
                ),
            }
        })
        .collect()
}

/// The declared capabilities in words.
pub fn capabilities_text(front_end: ExternalFrontEnd) -> String {
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    format!(
        "blocks before write: {}, can rewrite input: {}, refusal cancels the task: {}",
        yes_no(front_end.blocks_before_write),
        yes_no(front_end.can_rewrite_input),
        yes_no(front_end.refusal_cancels_task)
    )
}

/// The file name of `name`'s adapter, for messages.
pub fn file_name(name: &str) -> String {
    format!("{PREFIX}{name}")
}

/// `PATH` as the hook saw it, for messages.
pub fn path_text() -> String {
    std::env::var_os("PATH")
        .as_deref()
        .map(OsStr::to_string_lossy)
        .map(|p| clip(&p))
        .unwrap_or_else(|| "(unset)".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hello(
        change: impl FnOnce(&mut Value),
    ) -> Result<(ExternalFrontEnd, u64, String, Output), String> {
        let mut answer = json!({"type": "hello", "protocol": 1, "name": "x", "version": "1.2",
            "capabilities": {"blocks_before_write": true, "can_rewrite_input": false,
                             "refusal_cancels_task": true}});
        change(&mut answer);
        read_hello("x", &answer)
    }

    #[test]
    fn a_hello_is_checked_field_by_field() {
        let (front_end, protocol, version, refusal) = hello(|_| {}).unwrap();
        assert!(front_end.blocks_before_write && front_end.refusal_cancels_task);
        assert!(!front_end.can_rewrite_input);
        assert_eq!((protocol, version.as_str()), (1, "1.2"));
        assert_eq!(refusal, Output::default());

        let declared = hello(|a| a["refusal"] = json!({"stdout": "no\n", "exit_code": 0})).unwrap();
        assert_eq!(
            declared.3,
            Output {
                stdout: "no\n".into(),
                exit_code: 0
            }
        );

        for (change, says) in [
            (json!({"protocol": 2}), "speaks protocol 2"),
            (json!({"protocol": "1"}), "numeric `protocol`"),
            (json!({"type": "error", "message": "too old"}), "too old"),
            (
                json!({"type": "event"}),
                "answered `event` where a `hello` belongs",
            ),
            (json!({"name": "y"}), "calls itself `y`"),
            (
                json!({"capabilities": {"blocks_before_write": true}}),
                "can_rewrite_input",
            ),
            (
                json!({"refusal": {"stdout": "x", "exit_code": 256}}),
                "exit_code",
            ),
            (json!({"refusal": {"exit_code": 2}}), "stdout"),
        ] {
            let err = hello(|a| {
                for (k, v) in change.as_object().unwrap() {
                    a[k] = v.clone();
                }
            })
            .unwrap_err();
            assert!(err.contains(says), "{change}: {err}");
        }
    }
}
