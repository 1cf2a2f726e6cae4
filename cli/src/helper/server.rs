//! `intent helper serve`: the helper process. One thread per connection, each
//! running the hook exactly as `intent hook` would in its own process; a watchdog
//! ends the process when it is idle, its socket is gone or replaced, its workspace
//! is gone, or a client of another binary reached it.

use std::io::ErrorKind;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use intent_engine::engine::kept;
use intent_engine::timings::Timings;
use intent_engine::{Hook, Resident};
use intent_ledger::Workspace;

use super::wire::{self, Answer, Ask, HookAsk, Status};
use super::Place;
use crate::config::{Config, Output};
use crate::engine::FrontEnd;
use crate::hook_answer::{self, HookArgs};

struct Shared {
    root: PathBuf,
    socket: PathBuf,
    socket_inode: u64,
    ledger: PathBuf,
    exe: String,
    shared_env: Vec<(String, String)>,
    /// The helper's secret ([`super::secret`]) every hook must present.
    secret: String,
    started: Instant,
    idle_limit: Duration,
    /// Requests being answered, and whether the helper is closing (no new ones).
    in_flight: Mutex<(usize, Option<&'static str>)>,
    last_request: Mutex<Instant>,
    served: AtomicU64,
    declined: AtomicU64,
    /// What the helper keeps between the hooks it answers.
    resident: Arc<Resident>,
}

/// Serves `workspace`'s hooks until idle for `idle_limit` (or another reason to
/// stop), then exits the process. Returns `Ok(())` at once when another helper
/// already serves the workspace.
pub fn serve(workspace: &Workspace, idle_limit: Duration) -> anyhow::Result<()> {
    anyhow::ensure!(
        workspace.is_initialized(),
        "{} has no .orchestration/; run `intent init` there first",
        workspace.root().display()
    );
    // A workspace being deleted (its ledger already gone) gets no helper.
    anyhow::ensure!(
        workspace.ledger_path().exists(),
        "no ledger at {}; the next hook starts the helper once there is one",
        workspace.ledger_path().display()
    );
    let place = Place::of(workspace).map_err(anyhow::Error::msg)?;
    let secret = super::secret::load_or_create(workspace)
        .context("cannot read or make the helper's secret")?;
    place
        .make_dir()
        .with_context(|| format!("cannot create {}", place.dir().display()))?;
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&place.lock)
        .with_context(|| format!("cannot open {}", place.lock.display()))?;
    if lock.try_lock().is_err() {
        return Ok(());
    }
    // The lock is ours: a socket file left there is a dead helper's.
    match std::fs::remove_file(&place.socket) {
        Ok(()) => {}
        Err(e) if e.kind() == ErrorKind::NotFound => {}
        Err(e) => return Err(e).context(format!("cannot remove {}", place.socket.display())),
    }
    let listener = UnixListener::bind(&place.socket)
        .with_context(|| format!("cannot listen on {}", place.socket.display()))?;
    // Only this user may ask (a hook can record and gate in this workspace).
    std::fs::set_permissions(&place.socket, std::fs::Permissions::from_mode(0o600))?;
    let shared = Arc::new(Shared {
        root: place.root.clone(),
        socket_inode: std::fs::metadata(&place.socket)?.ino(),
        socket: place.socket.clone(),
        ledger: workspace.ledger_path(),
        exe: super::exe_identity(),
        shared_env: super::shared_environment(),
        secret,
        started: Instant::now(),
        idle_limit,
        in_flight: Mutex::new((0, None)),
        last_request: Mutex::new(Instant::now()),
        served: AtomicU64::new(0),
        declined: AtomicU64::new(0),
        resident: Arc::new(Resident::new(kept::budget_bytes())),
    });
    {
        let shared = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("helper-watchdog".into())
            .spawn(move || watch(&shared))?;
    }
    eprintln!(
        "intent helper {}: serving {}",
        std::process::id(),
        shared.root.display()
    );
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        {
            let mut flight = shared.in_flight.lock().unwrap_or_else(|e| e.into_inner());
            // Closing: the client sees the connection close unanswered and
            // answers itself; nothing was done here.
            if flight.1.is_some() {
                continue;
            }
            flight.0 += 1;
        }
        let worker = Arc::clone(&shared);
        let spawned = std::thread::Builder::new()
            .name("helper-hook".into())
            .spawn(move || {
                respond(stream, &worker);
                worker.in_flight.lock().unwrap_or_else(|e| e.into_inner()).0 -= 1;
            });
        if spawned.is_err() {
            shared.in_flight.lock().unwrap_or_else(|e| e.into_inner()).0 -= 1;
        }
    }
    Ok(())
}

/// Ends the process when there is a reason to, once no request is in flight.
fn watch(shared: &Shared) {
    loop {
        std::thread::sleep(Duration::from_millis(200));
        let reason = {
            let mut flight = shared.in_flight.lock().unwrap_or_else(|e| e.into_inner());
            if flight.1.is_none() {
                flight.1 = reason_to_stop(shared, flight.0);
            }
            match *flight {
                (0, Some(reason)) => Some(reason),
                _ => None,
            }
        };
        if let Some(reason) = reason {
            // Remove the socket only while it is still ours (a newer helper may
            // have replaced it), so no client connects to a helper that is gone.
            if socket_inode(&shared.socket) == Some(shared.socket_inode) {
                let _ = std::fs::remove_file(&shared.socket);
            }
            eprintln!("intent helper {}: stopped: {reason}", std::process::id());
            // The accept loop is blocked in `accept`; a connection that arrived
            // after the close is dropped unanswered, and its client answers itself.
            std::process::exit(0);
        }
    }
}

fn reason_to_stop(shared: &Shared, in_flight: usize) -> Option<&'static str> {
    if socket_inode(&shared.socket) != Some(shared.socket_inode) {
        return Some("its socket was removed or replaced");
    }
    if !shared.root.is_dir() || !shared.ledger.exists() {
        return Some("its workspace or its ledger is gone");
    }
    let idle = shared
        .last_request
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .elapsed();
    if in_flight == 0 && idle >= shared.idle_limit {
        return Some("idle");
    }
    None
}

fn socket_inode(path: &Path) -> Option<u64> {
    std::fs::symlink_metadata(path).ok().map(|m| m.ino())
}

fn close(shared: &Shared, reason: &'static str) {
    let mut flight = shared.in_flight.lock().unwrap_or_else(|e| e.into_inner());
    flight.1.get_or_insert(reason);
}

/// Reads one request and answers it. A request that cannot be read gets no
/// answer: its client answers itself.
fn respond(mut stream: UnixStream, shared: &Shared) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let Ok(request) = wire::read_ask(&mut stream) else {
        return;
    };
    // Fault injection for the tests of a helper that dies mid-request: the client
    // must then answer itself, and nothing may have been recorded twice.
    if std::env::var_os("INTENT_HELPER_TEST_ABORT").is_some() {
        std::process::abort();
    }
    // The hook answered, if any: what its answer left for later.
    let mut after = None;
    let answer = match request.ask {
        None => {
            close(shared, "a client of another protocol asked");
            Answer::Stale {
                helper_exe: shared.exe.clone(),
            }
        }
        Some((Ask::Status, _)) => Answer::Status(status(shared)),
        Some((Ask::Stop, _)) => {
            close(shared, "asked to stop");
            Answer::Stopping
        }
        Some((Ask::Hook(ask), input)) => {
            let mut hook = Hook::in_helper(Arc::clone(&shared.resident));
            let answer = answer_hook(shared, &ask, &input, &mut hook);
            after = Some(hook);
            let counter = match answer {
                Answer::Served { .. } => &shared.served,
                _ => &shared.declined,
            };
            counter.fetch_add(1, Ordering::Relaxed);
            *shared
                .last_request
                .lock()
                .unwrap_or_else(|e| e.into_inner()) = Instant::now();
            answer
        }
    };
    // Fault injection for the tests of a helper that stalls after recording a hook
    // until its client has given up and answered the hook itself.
    stall_for_tests("INTENT_HELPER_TEST_STALL_MS");
    let _ = wire::write_answer(&mut stream, &answer);
    // The hook has its answer: now the work that only keeps caches current.
    drop(stream);
    if let Some(mut hook) = after {
        hook.after_answer();
    }
}

/// Sleeps for the milliseconds `variable` says, if set (tests/e2e/test_helper_stall.rs).
fn stall_for_tests(variable: &str) {
    if let Some(ms) = std::env::var(variable).ok().and_then(|ms| ms.parse().ok()) {
        std::thread::sleep(Duration::from_millis(ms));
    }
}

/// Answers `ask` as `hook`, which keeps what the answer defers.
fn answer_hook(shared: &Shared, ask: &HookAsk, input: &[u8], hook: &mut Hook) -> Answer {
    if !super::secret::matches(&ask.token, &shared.secret) {
        eprintln!(
            "intent helper {}: declined a hook without the helper's secret",
            std::process::id()
        );
        return Answer::Declined {
            why: "the client did not present the helper's secret".into(),
        };
    }
    if ask.exe != shared.exe {
        close(shared, "a client of another binary asked");
        return Answer::Stale {
            helper_exe: shared.exe.clone(),
        };
    }
    if ask.shared_env != shared.shared_env {
        return Answer::Declined {
            why: "the client's environment differs from the helper's".into(),
        };
    }
    let front_end = match ask.front_end.as_deref() {
        None => None,
        Some(name) => match <FrontEnd as clap::ValueEnum>::from_str(name, false) {
            Ok(front_end) => Some(front_end),
            Err(_) => {
                return Answer::Declined {
                    why: format!("unknown front-end {name}"),
                }
            }
        },
    };
    let workspace = match &ask.explicit_workspace {
        Some(root) => Workspace::at(root),
        None => Workspace::discover(Path::new(&ask.cwd)),
    };
    let config = Config {
        workspace,
        output: Output::Text,
        explicit_workspace: ask.explicit_workspace.is_some(),
    };
    let args = HookArgs {
        front_end,
        event: ask.event.clone(),
    };
    let env = |name: &str| {
        ask.project_dirs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.into())
    };
    if ask.timings {
        hook.timings = Timings::on();
        hook.timings.mark("helper start");
    }
    // The client may answer this hook too (after its timeout), before or after
    // this: both name its events alike and look for them (`hook_ids`).
    hook.name_events(&ask.seed, ask.look_from);
    // Fault injection for the tests of a helper that stalls before recording a
    // hook until its client has answered the hook itself.
    stall_for_tests("INTENT_HELPER_TEST_STALL_BEFORE_MS");
    let answered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        hook_answer::answer(&config, &args, hook, input, &env, Some(&shared.root))
    }));
    match answered {
        Ok(Some(printed)) => Answer::Served {
            stdout: printed.stdout,
            stderr: printed.stderr,
        },
        Ok(None) => Answer::Declined {
            why: "the event belongs to another workspace".into(),
        },
        // The client answers itself, and fails the way `intent hook` fails.
        Err(_) => Answer::Failed {
            why: "the helper panicked".into(),
        },
    }
}

fn status(shared: &Shared) -> Status {
    let rss = super::resident_memory(std::process::id());
    Status {
        pid: std::process::id(),
        root: shared.root.display().to_string(),
        exe: shared.exe.clone(),
        uptime_secs: shared.started.elapsed().as_secs_f64(),
        idle_secs: shared
            .last_request
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .elapsed()
            .as_secs_f64(),
        idle_limit_secs: shared.idle_limit.as_secs(),
        served: shared.served.load(Ordering::Relaxed),
        declined: shared.declined.load(Ordering::Relaxed),
        memory: shared.resident.memory(),
        rss_bytes: rss.map_or(0, |(now, _)| now),
        peak_rss_bytes: rss.map_or(0, |(_, peak)| peak),
    }
}
