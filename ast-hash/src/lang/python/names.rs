//! Names of Python's runtime and tools the rules rely on (not grammar kinds: the
//! kind check of `tests/test_spec_kinds.rs` skips this file).

/// Builtins that run no code of the module unless handed it (a callback it then
/// names): `print`, `open` and `__import__` are left out on purpose (I/O and imports
/// are effects a reorder could observe only through names it holds, but they are the
/// usual barriers a reader expects to stay put).
pub(super) const BUILTINS: &[&str] = &[
    "abs",
    "all",
    "any",
    "bool",
    "bytes",
    "bytearray",
    "chr",
    "dict",
    "divmod",
    "enumerate",
    "filter",
    "float",
    "format",
    "frozenset",
    "hash",
    "int",
    "isinstance",
    "issubclass",
    "iter",
    "len",
    "list",
    "map",
    "max",
    "min",
    "next",
    "object",
    "ord",
    "pow",
    "range",
    "repr",
    "reversed",
    "round",
    "set",
    "slice",
    "sorted",
    "str",
    "sum",
    "tuple",
    "type",
    "zip",
    "property",
    "staticmethod",
    "classmethod",
    "super",
    "Exception",
    "ValueError",
    "TypeError",
    "KeyError",
    "RuntimeError",
    "NotImplementedError",
    "__name__",
    "__file__",
];

/// Decorators that wrap a function without running code of the module or looking at
/// what was defined before (`@x.setter` does: it extends the property `x`).
pub(super) const PLAIN_DECORATORS: &[&str] = &[
    "staticmethod",
    "classmethod",
    "property",
    "abstractmethod",
    "abc.abstractmethod",
    "cached_property",
    "functools.cached_property",
    "override",
    "typing.override",
    "typing_extensions.override",
];

/// Markers of comments that tools act on.
pub(super) const PRAGMAS: &[&str] = &[
    "type:", "noqa", "fmt:", "pragma:", "pylint:", "mypy:", "pyright:", "isort:", "ruff:",
    "coding", "#!",
];

/// Functions that read or write local names by string.
pub(super) const READS_LOCALS: &[&str] = &["eval", "exec", "locals", "vars"];
