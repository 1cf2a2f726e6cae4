//! AFL++ entry point of the `payload` target (`cargo afl build --features afl`).
fn main() {
    afl::fuzz!(|data: &[u8]| intent_fuzz::payload(data));
}
