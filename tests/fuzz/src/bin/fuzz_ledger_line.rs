//! AFL++ entry point of the `ledger_line` target (`cargo afl build --features afl`).
fn main() {
    afl::fuzz!(|data: &[u8]| intent_fuzz::ledger_line(data));
}
