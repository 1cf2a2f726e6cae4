use std::thread;
use std::time::Duration;

/// Why an attempt failed, as seen by the retry loop.
#[derive(Debug, PartialEq, Eq)]
pub enum Failure<E> {
    Transient(E),
    Permanent(E),
}

/// Runs `op` up to `attempts` times, sleeping `base`, `2 * base`, ... between
/// transient failures. Returns the last error when all attempts fail.
pub fn retry<T, E>(
    attempts: u32,
    base: Duration,
    mut op: impl FnMut(u32) -> Result<T, Failure<E>>,
) -> Result<T, E> {
    let mut pause = base;
    let mut attempt = 0;
    loop {
        attempt += 1;
        match op(attempt) {
            Ok(v) => return Ok(v),
            Err(Failure::Permanent(e)) => return Err(e),
            Err(Failure::Transient(e)) if attempt >= attempts => return Err(e),
            Err(Failure::Transient(_)) => {
                thread::sleep(pause);
                pause *= 2; // unbounded; callers keep `attempts` small
            }
        }
    }
}
