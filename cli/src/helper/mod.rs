//! The resident helper: one process per workspace that answers hooks over a local
//! socket, so that a hook costs a process start and a round trip instead of a
//! cold engine (specs parsed, state loaded, trees built) every time.
//!
//! ```text
//!  intent hook ──payload──▶ client ──unix socket──▶ intent helper serve (same binary)
//!       │                     │                         └─ hook::answer, as in-process
//!       │                     └─ no helper, a stale one, a crash, a decline:
//!       └──────────────────────── hook::answer in this process (unchanged behaviour)
//! ```
//!
//! The first hook that finds no helper starts one in the background and answers
//! itself; the helper exits when idle, when its workspace or socket disappears, or
//! when a client built from another binary reaches it. It answers only hooks whose
//! behaviour would be the same in its process: same binary, same protocol, same
//! workspace, same environment where the engine reads it ([`environment`]).
//! `INTENT_HELPER=off` turns it off.

pub mod client;
pub mod environment;
pub mod secret;
pub mod server;
pub mod wire;

use std::path::{Path, PathBuf};
use std::time::Duration;

use intent_ledger::Workspace;

/// Bumped whenever the wire format changes (a client and a helper of the same
/// binary always agree; this guards against a mismatch that the binary check misses).
pub const PROTOCOL: u32 = 3;

/// Longest socket path the kernel accepts (`sun_path` is 108 bytes with its NUL).
const MAX_SOCKET_PATH: usize = 107;

/// Where one workspace's helper listens, locks and logs: under the workspace's
/// cache directory (`.git/intent/cache/helper/` in git), keyed by the workspace
/// root, so every worktree has its own helper.
#[derive(Debug, Clone)]
pub struct Place {
    /// The canonical workspace root the helper serves.
    pub root: PathBuf,
    /// The unix socket.
    pub socket: PathBuf,
    /// Held (`flock`) by the running helper for its whole life.
    pub lock: PathBuf,
    /// The helper's stderr.
    pub log: PathBuf,
}

impl Place {
    /// The place of `workspace`'s helper, or why it cannot have one.
    pub fn of(workspace: &Workspace) -> Result<Place, String> {
        let root = workspace
            .root()
            .canonicalize()
            .map_err(|e| format!("cannot resolve {}: {e}", workspace.root().display()))?;
        let key = blake3::hash(root.as_os_str().as_encoded_bytes()).to_hex();
        let dir = workspace.cache_dir().join("helper");
        let name = &key.as_str()[..16];
        let socket = dir.join(format!("{name}.sock"));
        if socket.as_os_str().len() > MAX_SOCKET_PATH {
            return Err(format!(
                "the socket path {} is longer than the {MAX_SOCKET_PATH} bytes a unix socket allows",
                socket.display()
            ));
        }
        Ok(Place {
            root,
            lock: dir.join(format!("{name}.lock")),
            log: dir.join(format!("{name}.log")),
            socket,
        })
    }

    /// The directory holding the socket, lock and log.
    pub fn dir(&self) -> &Path {
        self.socket.parent().expect("the socket is in a directory")
    }

    /// Creates [`Place::dir`] and the cache directory above it, and nothing
    /// higher: a workspace deleted while its helper starts is not brought back.
    pub fn make_dir(&self) -> std::io::Result<()> {
        let cache = self.dir().parent().expect("the helper dir is in the cache");
        for dir in [cache, self.dir()] {
            match std::fs::create_dir(dir) {
                Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => return Err(e),
                _ => {}
            }
        }
        Ok(())
    }
}

/// Whether hooks may use (and start) a helper: on unless `INTENT_HELPER` is `off`,
/// `0`, `false` or `no`.
pub fn enabled() -> bool {
    !matches!(
        std::env::var("INTENT_HELPER").as_deref(),
        Ok("off" | "0" | "false" | "no")
    )
}

/// How long a helper waits for the next hook before exiting
/// (`INTENT_HELPER_IDLE_SECS`, default 10 minutes).
pub fn idle_limit() -> Duration {
    Duration::from_secs(env_number("INTENT_HELPER_IDLE_SECS", 600))
}

/// How long a client waits for the helper's answer before answering itself
/// (`INTENT_HELPER_TIMEOUT_MS`, default 20 s).
pub fn answer_timeout() -> Duration {
    Duration::from_millis(env_number("INTENT_HELPER_TIMEOUT_MS", 20_000).max(1))
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

/// Identifies the running binary: its path, device, inode, size and modification
/// time. A rebuilt or reinstalled `intent` differs, so an old helper is never
/// asked to answer for a new client (or the other way round).
pub fn exe_identity() -> String {
    use std::os::unix::fs::MetadataExt;
    let Ok(exe) = std::env::current_exe() else {
        return "unknown".into();
    };
    match std::fs::metadata(&exe) {
        Ok(m) => format!(
            "{} {}:{} {} {}.{}",
            exe.display(),
            m.dev(),
            m.ino(),
            m.size(),
            m.mtime(),
            m.mtime_nsec()
        ),
        Err(_) => format!("{} (unreadable)", exe.display()),
    }
}

/// This process's values of the variables a helper must share with its clients:
/// the shared ones of [`environment::REGISTRY`] and every `GIT_*`, sorted.
pub fn shared_environment() -> Vec<(String, String)> {
    let mut shared: Vec<(String, String)> = std::env::vars_os()
        .filter_map(|(name, value)| Some((name.into_string().ok()?, value)))
        .filter(|(name, _)| environment::is_shared(name))
        .map(|(name, value)| (name, value.to_string_lossy().into_owned()))
        .collect();
    shared.sort();
    shared
}

/// Resident memory of process `pid` now and at its peak (`VmRSS`, `VmHWM`), in
/// bytes; `None` where `/proc` does not say.
pub fn resident_memory(pid: u32) -> Option<(u64, u64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| -> Option<u64> {
        let line = status.lines().find(|l| l.starts_with(name))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024)
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}
