//! How `intent` talks on stderr: one prefix for each kind of message
//! (`intent: error:`, `intent: warning:`, `intent: note:`), coloured on a terminal
//! and plain everywhere else. `anstream` decides: colour only when stderr is a
//! terminal, never under `NO_COLOR`, always under `CLICOLOR_FORCE`.

use anstyle::{AnsiColor, Style};

/// Red, bold: something failed.
pub const ERROR: Style = AnsiColor::Red.on_default().bold();
/// Yellow, bold: something to look at.
pub const WARNING: Style = AnsiColor::Yellow.on_default().bold();
/// Green, bold: it passed.
pub const GOOD: Style = AnsiColor::Green.on_default().bold();
/// Cyan: for information.
pub const NOTE: Style = AnsiColor::Cyan.on_default();

/// `text` in `style` (the escapes are stripped again where colour is off).
pub fn paint(style: Style, text: &str) -> String {
    format!("{style}{text}{style:#}")
}

/// `intent: error: MESSAGE`.
pub fn error(message: &str) {
    anstream::eprintln!("intent: {} {message}", paint(ERROR, "error:"));
}

/// `intent: warning: MESSAGE`.
pub fn warning(message: &str) {
    anstream::eprintln!("intent: {} {message}", paint(WARNING, "warning:"));
}

/// `intent: note: MESSAGE`.
pub fn note(message: &str) {
    anstream::eprintln!("intent: {} {message}", paint(NOTE, "note:"));
}
