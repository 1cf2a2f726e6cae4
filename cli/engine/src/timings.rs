//! `INTENT_HOOK_TIMINGS=1`: where a hook's time goes. Each [`Timings::mark`]
//! records the time since the previous one under a label; [`Timings::report`] gives
//! them as one line of JSON, which `intent hook` prints to stderr.
//!
//! One value per hook, carried in its [`crate::Hook`]: the resident helper
//! (`intent helper`) answers several hooks at once in one process, and each hook
//! reports its own spans. Off (a branch per mark) unless asked for.

use std::time::Instant;

#[derive(Debug)]
struct Marks {
    last: Instant,
    spans: Vec<(&'static str, f64)>,
}

/// One hook's timing marks, or nothing when timing is off (the default).
#[derive(Debug, Default)]
pub struct Timings(Option<Marks>);

impl Timings {
    /// On when `INTENT_HOOK_TIMINGS` is set in this process's environment.
    pub fn from_env() -> Timings {
        match std::env::var_os("INTENT_HOOK_TIMINGS") {
            Some(_) => Timings::on(),
            None => Timings::default(),
        }
    }

    /// On, whatever the environment says (the helper, for a hook whose client asked
    /// for timings); the first span starts now.
    pub fn on() -> Timings {
        Timings(Some(Marks {
            last: Instant::now(),
            spans: Vec::new(),
        }))
    }

    /// Records the time since the previous mark (or since timing began) as `label`.
    pub fn mark(&mut self, label: &'static str) {
        if let Some(marks) = &mut self.0 {
            let now = Instant::now();
            let ms = (now - marks.last).as_secs_f64() * 1e3;
            marks.last = now;
            marks.spans.push((label, ms));
        }
    }

    /// The marks so far as `{"timings_ms": [[label, ms], …]}`, when timing is on.
    pub fn report(&self) -> Option<String> {
        let marks = self.0.as_ref()?;
        let spans: Vec<serde_json::Value> = marks
            .spans
            .iter()
            .map(|(label, ms)| serde_json::json!([label, (ms * 1000.0).round() / 1000.0]))
            .collect();
        Some(serde_json::json!({ "timings_ms": spans }).to_string())
    }
}
