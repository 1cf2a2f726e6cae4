//! The hook's side: ask the workspace's helper, or say why not so the hook answers
//! itself. Every failure here (no helper, a stale or crashed one, a socket that is
//! not a helper's, a timeout, a garbled answer) ends in `None`: the caller then runs
//! the very same answer in its own process.

use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};

use intent_engine::timings::Timings;
use intent_ledger::Workspace;

use super::wire::{self, Answer, Ask, HookAsk};
use super::Place;
use crate::config::Config;
use crate::hook_answer::{project_dir_variable, HookArgs, Printed};

/// Why this process answers the hook itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerHere {
    /// The helper never got the hook (none runs, it is not trusted, hooks may not
    /// use one): nothing can have been recorded for it.
    Unasked,
    /// The hook was sent and no answer came back (a timeout, a broken connection,
    /// a garbled answer, a panic): the helper may record it, before or after this
    /// process does. Both look for their events' ids among the ledger's lines from
    /// this offset on (its length when the hook was sent).
    AfterAsking(u64),
}

/// The helper's answer to this hook, or why this process must answer it. Starts a
/// helper in the background when none runs. `seed` names the hook's events
/// (`intent_engine::hook_ids`); `timings` are the hook's, marked on the way.
pub fn answer(
    config: &Config,
    args: &HookArgs,
    input: &[u8],
    seed: &str,
    timings: &mut Timings,
) -> Result<Printed, AnswerHere> {
    ask_helper(config, args, input, seed, timings).ok_or(AnswerHere::Unasked)?
}

/// `None` while the helper was not asked, else its answer or why not.
fn ask_helper(
    config: &Config,
    args: &HookArgs,
    input: &[u8],
    seed: &str,
    timings: &mut Timings,
) -> Option<Result<Printed, AnswerHere>> {
    if !super::enabled() {
        return None;
    }
    let workspace = likely_workspace(config, args);
    if !workspace.is_initialized() {
        return None;
    }
    let place = Place::of(&workspace).ok()?;
    // Without the secret (a confined process cannot read it) the helper would
    // decline: answer here, where the ledger's own protection applies.
    let token = super::secret::load_or_create(&workspace).ok()?;
    timings.mark("find helper");
    let Ok(mut stream) = UnixStream::connect(&place.socket) else {
        start_helper(&place);
        return None;
    };
    if let Err(why) = verify_peer(&stream) {
        // Not a helper this hook can trust with its decision: answer here. If it
        // is an older `intent` (or one started under LD_PRELOAD), asking it to stop
        // lets the next hook start a current one; anything else ignores the ask.
        eprintln!(
            "intent hook: not using the helper socket {}: {why}",
            place.socket.display()
        );
        let _ = wire::write_ask(&mut stream, &Ask::Stop, b"");
        return None;
    }
    timings.mark("connect and check helper");
    // The ledger's length before the helper can record anything for this hook.
    let look_from = std::fs::metadata(workspace.ledger_path()).map_or(0, |m| m.len());
    let ask = Ask::Hook(Box::new(hook_ask(config, args, seed, look_from, token)?));
    timings.mark("describe hook");
    let timeout = super::answer_timeout();
    stream.set_write_timeout(Some(timeout)).ok()?;
    stream.set_read_timeout(Some(timeout)).ok()?;
    // From the first byte written on, the helper may record the hook.
    if wire::write_ask(&mut stream, &ask, input).is_err() {
        return Some(Err(AnswerHere::AfterAsking(look_from)));
    }
    Some(match wire::read_answer(&mut stream) {
        Ok(Answer::Served { stdout, stderr }) => Ok(Printed { stdout, stderr }),
        // Refused before anything was recorded. A stale helper exits, and the next
        // hook starts a current one.
        Ok(Answer::Stale { .. } | Answer::Declined { .. }) => Err(AnswerHere::Unasked),
        Ok(Answer::Failed { .. } | Answer::Status(_) | Answer::Stopping) | Err(_) => {
            Err(AnswerHere::AfterAsking(look_from))
        }
    })
}

/// Checks that the process listening on the socket is a helper this hook may
/// trust with its decision: this user's, running this very binary file, with the
/// same dynamic-loader variables (`LD_PRELOAD` and the like) and no debugger attached.
/// Anything else that binds the socket (an agent's script answering "allow",
/// a helper started under `LD_PRELOAD` or `gdb`) is ignored and the hook answers
/// itself. Linux only (`/proc`); elsewhere no helper is used.
fn verify_peer(stream: &UnixStream) -> Result<(), String> {
    use std::os::unix::fs::MetadataExt;
    let cred = rustix::net::sockopt::socket_peercred(stream)
        .map_err(|e| format!("no peer credentials ({e})"))?;
    let ours = std::fs::metadata("/proc/self").map_err(|e| format!("no /proc ({e})"))?;
    if cred.uid.as_raw() != ours.uid() {
        return Err(format!("it belongs to user {}", cred.uid.as_raw()));
    }
    let proc = std::path::PathBuf::from(format!("/proc/{}", cred.pid.as_raw_nonzero()));
    let exe = |dir: &Path| std::fs::metadata(dir.join("exe")).map(|m| (m.dev(), m.ino()));
    if exe(&proc).ok() != exe(Path::new("/proc/self")).ok() {
        return Err("it runs another program than this `intent`".into());
    }
    let status = std::fs::read_to_string(proc.join("status")).map_err(|e| e.to_string())?;
    let traced = status
        .lines()
        .find_map(|l| l.strip_prefix("TracerPid:"))
        .is_none_or(|pid| pid.trim() != "0");
    if traced {
        return Err("a debugger or tracer is attached to it".into());
    }
    // The loader variables the hook itself runs with (the agent CLI's, which
    // in-process answers run under too) are fine; any other are an injection.
    let loader_vars = |environ: &[u8]| {
        let mut vars: Vec<Vec<u8>> = environ
            .split(|b| *b == 0)
            .filter(|var| var.starts_with(b"LD_"))
            .map(<[u8]>::to_vec)
            .collect();
        vars.sort();
        vars
    };
    let theirs = std::fs::read(proc.join("environ")).map_err(|e| e.to_string())?;
    let ours = std::fs::read("/proc/self/environ").map_err(|e| e.to_string())?;
    if loader_vars(&theirs) != loader_vars(&ours) {
        return Err("it runs with other dynamic-loader variables (LD_*) than this hook".into());
    }
    Ok(())
}

/// The workspace the hook will most likely be answered in, to find its helper: the
/// helper declines an event whose workspace turns out to be another.
fn likely_workspace(config: &Config, args: &HookArgs) -> Workspace {
    if config.explicit_workspace {
        return config.workspace.clone();
    }
    match std::env::var_os(project_dir_variable(args.front_end)) {
        // Usually the front-end runs its hooks in the project directory itself,
        // which `config` was discovered from already.
        Some(dir) if Path::new(&dir) == config.workspace.root() => config.workspace.clone(),
        Some(dir) => Workspace::discover(Path::new(&dir)),
        None => config.workspace.clone(),
    }
}

fn hook_ask(
    config: &Config,
    args: &HookArgs,
    seed: &str,
    look_from: u64,
    token: String,
) -> Option<HookAsk> {
    let cwd = std::env::current_dir().ok()?.to_str()?.to_string();
    let explicit_workspace = match config.explicit_workspace {
        true => Some(config.workspace.root().to_str()?.to_string()),
        false => None,
    };
    let mut project_dirs = Vec::new();
    for name in super::environment::sent() {
        if let Some(value) = std::env::var_os(name) {
            project_dirs.push((name.to_string(), value.into_string().ok()?));
        }
    }
    Some(HookAsk {
        exe: super::exe_identity(),
        shared_env: super::shared_environment(),
        project_dirs,
        timings: std::env::var_os("INTENT_HOOK_TIMINGS").is_some(),
        cwd,
        explicit_workspace,
        front_end: args
            .front_end
            .and_then(|f| clap::ValueEnum::to_possible_value(&f))
            .map(|v| v.get_name().to_string()),
        event: args.event.clone(),
        seed: seed.to_string(),
        look_from,
        token,
    })
}

/// Starts `intent helper serve` for the workspace, detached, unless a helper holds
/// the lock (one is starting, or is alive but not answering: never two).
pub fn start_helper(place: &Place) {
    if place.make_dir().is_err() {
        return;
    }
    let Ok(lock) = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&place.lock)
    else {
        return;
    };
    if lock.try_lock().is_err() {
        return;
    }
    drop(lock);
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&place.log)
        .map(Stdio::from)
        .unwrap_or_else(|_| Stdio::null());
    // Its own process group: a signal to the agent's hook process group (a hook
    // timeout) does not reach it. Nobody waits for it; it outlives this hook.
    let mut command = Command::new(exe);
    // glibc gives each new thread (one per hook) its own malloc arena up to eight
    // per core, and memory freed in one is not reused by another: 800 writes of
    // thirty 40 KB files left the helper at 170 MB resident with the default, 110 MB
    // with two arenas (same build, same run of `benches/soak.rs`).
    if std::env::var_os("MALLOC_ARENA_MAX").is_none() {
        command.env("MALLOC_ARENA_MAX", "2");
    }
    let _ = command
        .arg("--workspace")
        .arg(&place.root)
        .args(["helper", "serve"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log)
        .process_group(0)
        .spawn();
}

/// Asks the helper serving `place` a question other than a hook (`status`, `stop`).
pub fn ask(place: &Place, ask: &Ask) -> std::io::Result<Answer> {
    let mut stream = UnixStream::connect(&place.socket)?;
    stream.set_read_timeout(Some(super::answer_timeout()))?;
    wire::write_ask(&mut stream, ask, b"")?;
    wire::read_answer(&mut stream)
}
