//! A progress bar on stderr for long ledger scans (catch-ups and rebuilds).

use std::io::IsTerminal;
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use intent_query::Progress;

/// Scans shorter than this finish before a bar would be worth drawing.
const MIN_BYTES: u64 = 8 << 20;

/// Draws an [`indicatif`] bar on stderr while a projection scans the ledger; draws
/// nothing when stderr is not a terminal (pipes, CI, `--json` consumers) or the scan
/// is short. One value can report several scans in turn.
#[derive(Debug)]
pub struct TerminalProgress {
    enabled: bool,
    bar: Mutex<Option<ProgressBar>>,
}

impl TerminalProgress {
    /// Creates a reporter that draws only when stderr is a terminal.
    pub fn new() -> TerminalProgress {
        TerminalProgress {
            enabled: std::io::stderr().is_terminal(),
            bar: Mutex::new(None),
        }
    }

    fn bar(&self) -> std::sync::MutexGuard<'_, Option<ProgressBar>> {
        // A panic while drawing leaves nothing inconsistent worth refusing to read.
        self.bar.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Default for TerminalProgress {
    fn default() -> TerminalProgress {
        TerminalProgress::new()
    }
}

impl Progress for TerminalProgress {
    fn start(&self, what: &str, total: u64) {
        let mut slot = self.bar();
        if let Some(old) = slot.take() {
            old.finish_and_clear();
        }
        if !self.enabled || total < MIN_BYTES {
            return;
        }
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template(
            "{msg:>14} [{bar:32}] {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
        bar.set_style(style);
        bar.set_message(what.to_string());
        *slot = Some(bar);
    }

    fn advance(&self, bytes: u64) {
        if let Some(bar) = self.bar().as_ref() {
            bar.inc(bytes);
        }
    }

    fn finish(&self) {
        if let Some(bar) = self.bar().take() {
            bar.finish_and_clear();
        }
    }
}
