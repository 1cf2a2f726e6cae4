//! `INTENT_HOOK_TIMINGS=1`: where a hook's time goes. Each [`mark`] records the
//! time since the previous one under a label; [`report`] gives them as one line of
//! JSON, which `intent hook` prints to stderr. Off (one thread-local read per mark)
//! unless the variable is set.
//!
//! Marks are kept per thread: the resident helper (`intent helper`) answers several
//! hooks at once on threads of one process, and each hook reports its own spans.

use std::cell::RefCell;
use std::time::Instant;

struct Marks {
    last: Instant,
    spans: Vec<(&'static str, f64)>,
}

thread_local! {
    /// `None` until the thread first looks; then on or off for the thread's life
    /// unless [`enable`] turns it on.
    static MARKS: RefCell<Option<Option<Marks>>> = const { RefCell::new(None) };
}

fn fresh() -> Marks {
    Marks {
        last: Instant::now(),
        spans: Vec::new(),
    }
}

fn with_marks<T>(work: impl FnOnce(&mut Option<Marks>) -> T) -> T {
    MARKS.with(|cell| {
        let mut cell = cell.borrow_mut();
        let marks =
            cell.get_or_insert_with(|| std::env::var_os("INTENT_HOOK_TIMINGS").map(|_| fresh()));
        work(marks)
    })
}

/// Turns timing on for this thread from now on, whatever the environment says
/// (the helper does this for a hook whose client asked for timings).
pub fn enable() {
    MARKS.with(|cell| *cell.borrow_mut() = Some(Some(fresh())));
}

/// Records the time since the previous mark (or since the first call) as `label`.
pub fn mark(label: &'static str) {
    with_marks(|marks| {
        if let Some(marks) = marks {
            let now = Instant::now();
            let ms = (now - marks.last).as_secs_f64() * 1e3;
            marks.last = now;
            marks.spans.push((label, ms));
        }
    });
}

/// The marks so far as `{"timings_ms": [[label, ms], …]}`, when timing is on.
pub fn report() -> Option<String> {
    with_marks(|marks| {
        let marks = marks.as_ref()?;
        let spans: Vec<serde_json::Value> = marks
            .spans
            .iter()
            .map(|(label, ms)| serde_json::json!([label, (ms * 1000.0).round() / 1000.0]))
            .collect();
        Some(serde_json::json!({ "timings_ms": spans }).to_string())
    })
}
