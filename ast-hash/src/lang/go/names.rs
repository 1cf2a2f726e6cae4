//! Names of Go's predeclared functions the rules rely on (not grammar kinds: the
//! kind check of `tests/test_spec_kinds.rs` skips this file).

/// Predeclared functions that run no code of the package unless handed it.
pub(super) const BUILTINS: &[&str] = &[
    "append", "cap", "clear", "complex", "copy", "delete", "imag", "len", "make", "max", "min",
    "new", "real",
];
