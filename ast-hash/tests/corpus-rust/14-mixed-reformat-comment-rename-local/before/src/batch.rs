use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

#[derive(Debug, Clone, PartialEq)]
pub struct Event { pub name: String, pub at_ms: u64 }

/// Collects events from `rx` and hands them to `flush` whenever `size` events
/// have arrived or `interval` has passed since the last flush. Returns the
/// number of flushes once the sending side hangs up.
pub fn run_batches(rx: Receiver<Event>, size: usize, interval: Duration, mut flush: impl FnMut(Vec<Event>)) -> usize {
    let mut buf: Vec<Event> = Vec::with_capacity(size);
    let mut n = 0;
    let mut t = Instant::now();
    loop {
        // wait
        let w = interval.saturating_sub(t.elapsed());
        match rx.recv_timeout(w) {
            Ok(e) => { buf.push(e); if buf.len() < size { continue; } }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                if !buf.is_empty() { flush(std::mem::take(&mut buf)); n += 1; }
                return n;
            }
        }
        if !buf.is_empty() { flush(std::mem::replace(&mut buf, Vec::with_capacity(size))); n += 1; }
        t = Instant::now();
    }
}
