//! Names of Rust's standard macros the rules rely on (not grammar kinds: the kind
//! check of `tests/test_spec_kinds.rs` skips this file).

/// Macros whose arguments are a format string and expressions (`name = expr` for
/// named arguments): their identifiers are plain uses of locals.
pub(super) const FORMAT_MACROS: &[&str] = &[
    "print",
    "println",
    "eprint",
    "eprintln",
    "format",
    "format_args",
    "write",
    "writeln",
    "panic",
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "unreachable",
    "todo",
    "unimplemented",
    "trace",
    "debug",
    "info",
    "warn",
    "error",
];
