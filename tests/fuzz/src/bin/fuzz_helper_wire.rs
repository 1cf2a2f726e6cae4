//! AFL++ entry point of the `helper_wire` target (`cargo afl build --features afl`).
fn main() {
    afl::fuzz!(|data: &[u8]| intent_fuzz::helper_wire(data));
}
