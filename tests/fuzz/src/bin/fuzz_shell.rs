//! AFL++ entry point of the `shell` target (`cargo afl build --features afl`).
fn main() {
    afl::fuzz!(|data: &[u8]| intent_fuzz::shell(data));
}
