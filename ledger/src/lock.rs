//! Advisory file locks (`flock`) taken within a deadline: a lock held by a stopped
//! process (`kill -STOP`, a debugger, a suspended terminal) must not keep a hook or
//! a query waiting forever.

use std::fs::File;
use std::time::{Duration, Instant};

/// Takes `file`'s exclusive lock, waiting at most `timeout` (`None`: as long as it
/// takes). Returns `Ok(false)` when the deadline passed first.
pub fn exclusive_within(file: &File, timeout: Option<Duration>) -> std::io::Result<bool> {
    let Some(timeout) = timeout else {
        file.lock()?;
        return Ok(true);
    };
    let deadline = Instant::now() + timeout;
    let mut pause = Duration::from_millis(1);
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(true),
            Err(std::fs::TryLockError::WouldBlock) => {}
            Err(std::fs::TryLockError::Error(e)) => return Err(e),
        }
        let now = Instant::now();
        if now >= deadline {
            return Ok(false);
        }
        std::thread::sleep(pause.min(deadline - now));
        pause = (pause * 2).min(Duration::from_millis(25));
    }
}

/// How long a command other than a hook waits for a lock: `INTENT_LOCK_WAIT_MS`,
/// else 60 s (a rebuild of a large ledger by another process can take that long).
pub fn command_wait() -> Duration {
    let ms = std::env::var("INTENT_LOCK_WAIT_MS")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(60_000u64);
    Duration::from_millis(ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_lock_is_given_up_at_the_deadline_and_a_free_one_taken() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l");
        let holder = File::create(&path).unwrap();
        holder.lock().unwrap();
        let waiter = File::open(&path).unwrap();
        let started = Instant::now();
        assert!(!exclusive_within(&waiter, Some(Duration::from_millis(50))).unwrap());
        assert!(started.elapsed() >= Duration::from_millis(50));
        holder.unlock().unwrap();
        assert!(exclusive_within(&waiter, Some(Duration::from_millis(50))).unwrap());
    }
}
