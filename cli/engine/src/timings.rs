//! `INTENT_HOOK_TIMINGS=1`: where a hook's time goes. Each [`mark`] records the
//! time since the previous one under a label; [`report`] gives them as one line of
//! JSON, which `intent hook` prints to stderr. Off (one relaxed load per mark)
//! unless the variable is set.

use std::sync::Mutex;
use std::sync::OnceLock;
use std::time::Instant;

struct Marks {
    last: Instant,
    spans: Vec<(&'static str, f64)>,
}

fn marks() -> Option<&'static Mutex<Marks>> {
    static MARKS: OnceLock<Option<Mutex<Marks>>> = OnceLock::new();
    MARKS
        .get_or_init(|| {
            std::env::var_os("INTENT_HOOK_TIMINGS").map(|_| {
                Mutex::new(Marks {
                    last: Instant::now(),
                    spans: Vec::new(),
                })
            })
        })
        .as_ref()
}

/// Records the time since the previous mark (or since the first call) as `label`.
pub fn mark(label: &'static str) {
    if let Some(marks) = marks() {
        let mut marks = marks.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        let ms = (now - marks.last).as_secs_f64() * 1e3;
        marks.last = now;
        marks.spans.push((label, ms));
    }
}

/// The marks so far as `{"timings_ms": [[label, ms], …]}`, when timing is on.
pub fn report() -> Option<String> {
    let marks = marks()?.lock().unwrap_or_else(|e| e.into_inner());
    let spans: Vec<serde_json::Value> = marks
        .spans
        .iter()
        .map(|(label, ms)| serde_json::json!([label, (ms * 1000.0).round() / 1000.0]))
        .collect();
    Some(serde_json::json!({ "timings_ms": spans }).to_string())
}
