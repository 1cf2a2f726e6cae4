//! The `intent` binary: everything lives in the `intent_cli` library.
fn main() {
    std::process::exit(intent_cli::run());
}
