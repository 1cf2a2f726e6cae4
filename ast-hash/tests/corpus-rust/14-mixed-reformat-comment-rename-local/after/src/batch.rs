use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub name: String,
    pub at_ms: u64,
}

/// Collects events from `rx` and hands them to `flush` whenever `size` events
/// have arrived or `interval` has passed since the last flush. Returns the
/// number of flushes once the sending side hangs up.
pub fn run_batches(
    rx: Receiver<Event>,
    size: usize,
    interval: Duration,
    mut flush: impl FnMut(Vec<Event>),
) -> usize {
    let mut pending: Vec<Event> = Vec::with_capacity(size);
    let mut flushes = 0;
    let mut last_flush = Instant::now();
    loop {
        // Block until the next event or until the current interval ends,
        // whichever comes first; a zero timeout just polls.
        let timeout = interval.saturating_sub(last_flush.elapsed());
        match rx.recv_timeout(timeout) {
            Ok(event) => {
                pending.push(event);
                if pending.len() < size {
                    continue;
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                if !pending.is_empty() {
                    flush(std::mem::take(&mut pending));
                    flushes += 1;
                }
                return flushes;
            }
        }
        if !pending.is_empty() {
            flush(std::mem::replace(&mut pending, Vec::with_capacity(size)));
            flushes += 1;
        }
        last_flush = Instant::now();
    }
}
