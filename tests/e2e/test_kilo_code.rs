//! `intent hook kilo-code` proven with the real Kilo Code CLI (`kilo run`, 7.7.7,
//! offline against the scripted chat-completions mock), wired by `intent init
//! --agent kilo-code`: the sessions of `test_opencode.rs`, since Kilo runs the same
//! plugin (from `.kilo/plugins/`). A write without an intent is refused before the
//! file exists and the session goes on; with the intent named in the prompt, writes
//! in scope are traced with chained hashes, a write outside the scope is refused, a
//! failing command leaves a lesson, and `intent doctor` proves (`kilo debug config`)
//! that Kilo loads the plugin.

use crate::opencode::KILO;
use crate::test_opencode::{
    a_write_without_an_intent_is_refused_before_it_happens,
    writes_in_scope_are_traced_and_out_of_scope_refused,
};

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn kilo_write_without_an_intent_is_refused_before_it_happens() {
    a_write_without_an_intent_is_refused_before_it_happens(&KILO, "kilo-code");
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs a real agent CLI, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn kilo_writes_in_scope_are_traced_and_out_of_scope_refused() {
    writes_in_scope_are_traced_and_out_of_scope_refused(&KILO, "kilo-code");
}
