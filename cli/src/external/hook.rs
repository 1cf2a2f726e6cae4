//! `intent hook <name>` through an external adapter: the agent's payload goes to
//! the adapter (`decode`), the generic event it gives back is answered as every
//! hook is (`crate::hook_answer::answer`, in this process: the resident helper
//! serves built-in front-ends only), and the reply goes back to the adapter
//! (`encode`) for the bytes and exit code its agent expects.
//!
//! The adapter is untrusted: whatever goes wrong with it (missing, another
//! protocol, a crash, a hang, garbage, an event of another workspace) refuses the
//! hook in its agent's words when the handshake gave them (exit 2 with nothing on
//! stdout before that), says what to do on stderr, and records a `hook.warning` in
//! the workspace's ledger, so that an event lost on the way is never lost silently.

use std::io::{Read, Write};

use intent_engine::adapters;
use intent_engine::{respond, FrontEnd, Hook};
use serde_json::{json, Value};

use super::{clip, expect_type, file_name, output, path_text, Adapter, Output};
use crate::config::Config;
use crate::exit;
use crate::hook_answer::{self, HookArgs};

/// The largest `event` answer: the payload it came from (up to 64 MiB) may grow
/// when re-encoded, never beyond twice.
const EVENT_LIMIT: usize = 2 * respond::MAX_PAYLOAD_BYTES as usize + 1024 * 1024;

/// The largest `reply` answer.
const REPLY_LIMIT: usize = 4 * 1024 * 1024;

/// What went wrong with the adapter, and what it printed before if anything.
struct Failure {
    why: String,
    /// What the hook prints: the adapter's declared refusal once it shook hands.
    refusal: Output,
    /// Adapter's stderr, last 4 KiB.
    stderr: String,
}

/// Runs one hook through the adapter `name`; returns the exit code.
pub fn run(config: &Config, name: &'static str, event_flag: Option<&str>) -> anyhow::Result<u8> {
    let mut input = Vec::new();
    let read = std::io::stdin()
        .lock()
        .take(respond::MAX_PAYLOAD_BYTES + 1)
        .read_to_end(&mut input);
    let mut hook = Hook::one_shot();
    hook.timings.mark("start");
    let (out, stderr) = match read
        .map_err(|e| format!("the hook's payload cannot be read ({e})"))
        .and_then(|_| super::find(name).ok_or_else(|| missing(name)))
    {
        Err(why) => fail(
            config,
            &mut hook,
            name,
            Failure {
                why,
                refusal: Output::default(),
                stderr: String::new(),
            },
        ),
        Ok(path) => match super::start(name, &path) {
            Err(why) => fail(
                config,
                &mut hook,
                name,
                Failure {
                    why: format!("{} {why}", path.display()),
                    refusal: Output::default(),
                    stderr: String::new(),
                },
            ),
            Ok(adapter) => converse(config, &mut hook, adapter, &input, event_flag),
        },
    };
    std::io::stderr().lock().write_all(stderr.as_bytes())?;
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(out.stdout.as_bytes())?;
    stdout.flush()?;
    Ok(if out.exit_code == 0 {
        exit::OK
    } else {
        out.exit_code
    })
}

fn missing(name: &str) -> String {
    format!(
        "`{name}` is not a built-in front-end and no executable `{}` is on PATH ({}): install \
         the adapter (docs/frontends/external.md), or fix the agent's hook command; until \
         then every hook through it is refused",
        file_name(name),
        path_text()
    )
}

/// `decode`, the answer, `encode`: what the hook prints, and its stderr.
fn converse(
    config: &Config,
    hook: &mut Hook,
    mut adapter: Adapter,
    input: &[u8],
    event_flag: Option<&str>,
) -> (Output, String) {
    let name = adapter.front_end.name;
    let failure = |adapter: &Adapter, why: String| Failure {
        why: format!("{} {why}", adapter.process.path().display()),
        refusal: adapter.refusal.clone(),
        stderr: adapter.process.stderr(),
    };
    let (event_name, reply, mut stderr) = match decode(&mut adapter, input, event_flag) {
        Err(why) => return fail(config, hook, name, failure(&adapter, why)),
        Ok(Decoded::Unreadable { event, why }) => {
            // The adapter could not read its agent's payload: refused in the agent's
            // words if it could change the workspace, as a built-in adapter does.
            let message = format!(
                "intent gate: cannot read this {name} hook payload ({why}); refusing to be safe."
            );
            let reply = adapters::adapter(FrontEnd::Generic).fail_closed(&event, &message);
            (event, reply, format!("intent hook: {why}\n"))
        }
        Ok(Decoded::Event(event)) => match answer(config, hook, &adapter, &event) {
            Err(why) => return fail(config, hook, name, failure(&adapter, why)),
            Ok((reply, stderr)) => (
                event["event"].as_str().unwrap_or_default().to_string(),
                reply,
                stderr,
            ),
        },
    };
    let encode = json!({"type": "encode", "event": event_name, "reply": reply});
    let out = adapter
        .process
        .ask(&encode, REPLY_LIMIT)
        .and_then(|answer| {
            expect_type(&answer, "reply")?;
            let out = output(&answer, REPLY_LIMIT).map_err(|why| format!("its `reply` {why}"))?;
            if let Some(text) = answer["stderr"].as_str() {
                stderr += &format!("{}\n", clip(text));
            }
            Ok(out)
        });
    match out {
        Ok(out) => {
            adapter.process.finish();
            (out, stderr)
        }
        Err(why) => {
            let (out, more) = fail(config, hook, name, failure(&adapter, why));
            (out, stderr + &more)
        }
    }
}

enum Decoded {
    /// The generic event.
    Event(Value),
    /// The adapter's own word that the payload is not its agent's: the event it
    /// could tell (`pre`, … or empty) and why.
    Unreadable { event: String, why: String },
}

fn decode(
    adapter: &mut Adapter,
    input: &[u8],
    event_flag: Option<&str>,
) -> Result<Decoded, String> {
    let Ok(text) = std::str::from_utf8(input) else {
        return Ok(Decoded::Unreadable {
            event: String::new(),
            why: "the hook's payload is not valid UTF-8".to_string(),
        });
    };
    if input.len() as u64 > respond::MAX_PAYLOAD_BYTES {
        return Ok(Decoded::Unreadable {
            event: String::new(),
            why: "the hook's payload is over 64 MiB".to_string(),
        });
    }
    let cwd = std::env::current_dir().ok();
    let request = json!({"type": "decode", "stdin": text, "event_flag": event_flag, "cwd": cwd});
    let answer = adapter.process.ask(&request, EVENT_LIMIT)?;
    if answer["type"] == "error" {
        return Ok(Decoded::Unreadable {
            event: answer["event"].as_str().unwrap_or_default().to_string(),
            why: clip(answer["message"].as_str().unwrap_or("(no message)")),
        });
    }
    expect_type(&answer, "event")?;
    match answer.get("event") {
        Some(event @ Value::Object(_)) => Ok(Decoded::Event(event.clone())),
        _ => Err("answered an `event` without an `event` object".to_string()),
    }
}

/// Answers the generic event as every hook is, only in this workspace: an adapter
/// whose event names a directory of another one fails (it never chooses where the
/// hook records).
fn answer(
    config: &Config,
    hook: &mut Hook,
    adapter: &Adapter,
    event: &Value,
) -> Result<(Value, String), String> {
    let root = config
        .workspace
        .root()
        .canonicalize()
        .map_err(|e| format!("(the workspace cannot be resolved: {e})"))?;
    let args = HookArgs {
        front_end: Some(FrontEnd::External(adapter.front_end)),
        event: None,
    };
    let bytes = serde_json::to_vec(event).map_err(|e| e.to_string())?;
    // No project directory variable: the workspace is where the hook runs.
    let printed = hook_answer::answer(config, &args, hook, &bytes, &|_| None, Some(&root))
        .ok_or_else(|| {
            format!(
                "gave an event whose directory is outside this workspace ({}); nothing was recorded",
                root.display()
            )
        })?;
    let reply = serde_json::from_str(printed.stdout.trim()).map_err(|e| e.to_string())?;
    Ok((reply, printed.stderr))
}

/// The hook's output when the adapter failed: its declared refusal (exit 2 before
/// it declared one), the reason and the adapter's stderr, and a warning recorded in
/// this workspace's ledger when it has one.
fn fail(config: &Config, hook: &mut Hook, name: &str, failure: Failure) -> (Output, String) {
    let why = format!(
        "external adapter {} failed: {}; the hook was refused (fail closed) and any event \
         it carried was not recorded past this point. `intent doctor` checks the adapter.",
        file_name(name),
        failure.why
    );
    if let Ok(engine) = intent_engine::Engine::new(config.workspace.clone()) {
        engine.record_warning(hook, None, &why);
    }
    let mut stderr = format!("intent hook: {why}\n");
    if !failure.stderr.trim().is_empty() {
        stderr += &format!(
            "intent hook: {} said: {}\n",
            file_name(name),
            clip(failure.stderr.trim())
        );
    }
    (failure.refusal, stderr)
}
