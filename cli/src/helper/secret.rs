//! The helper's secret: 32 random bytes in the cache's `private/helper.key` (mode
//! 0600). A hook proves with it that it may have the helper record for it; the
//! helper declines a hook without it. `intent confine` keeps the file unreadable
//! (Landlock), so a confined command that reaches the socket (connecting to a
//! socket file is not a write the kernel checks) cannot pose as a front-end's hook.

use std::io::{Read, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use intent_ledger::Workspace;

const LEN: usize = 32;

/// The directory no confined command may read (`intent confine` hides it).
pub fn private_dir(workspace: &Workspace) -> PathBuf {
    workspace.cache_dir().join("private")
}

fn key_path(workspace: &Workspace) -> PathBuf {
    private_dir(workspace).join("helper.key")
}

/// The secret, hex-encoded, created on first use. Fails where the file cannot be
/// read (a confined process) or made.
pub fn load_or_create(workspace: &Workspace) -> std::io::Result<String> {
    let path = key_path(workspace);
    match read(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        other => return other,
    }
    let dir = private_dir(workspace);
    // The cache directory and this one, nothing higher: a workspace deleted
    // meanwhile is not brought back.
    for (dir, mode) in [(workspace.cache_dir(), 0o755), (dir.clone(), 0o700)] {
        match std::fs::DirBuilder::new().mode(mode).create(&dir) {
            Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => return Err(e),
            _ => {}
        }
    }
    let mut bytes = [0u8; LEN];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    // Written whole under a name of its own, then linked into place: a reader
    // never sees half a key, and of two processes creating it at once the first
    // link wins and both use that one.
    let temp = dir.join(format!("helper.key.{}", std::process::id()));
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(&temp)?;
    file.write_all(&bytes)?;
    file.sync_all()?;
    let linked = std::fs::hard_link(&temp, &path);
    let _ = std::fs::remove_file(&temp);
    match linked {
        Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => Err(e),
        _ => read(&path),
    }
}

fn read(path: &Path) -> std::io::Result<String> {
    let bytes = intent_ledger::atomic::read_regular(path)?;
    if bytes.len() != LEN {
        return Err(std::io::Error::other(format!(
            "{} is not a helper key ({} bytes); delete it to make a new one",
            path.display(),
            bytes.len()
        )));
    }
    Ok(
        blake3::Hash::from_bytes(bytes.try_into().expect("checked length"))
            .to_hex()
            .to_string(),
    )
}

/// Whether `given` is `expected`, compared in constant time.
pub fn matches(given: &str, expected: &str) -> bool {
    blake3::hash(given.as_bytes()) == blake3::hash(expected.as_bytes())
}
