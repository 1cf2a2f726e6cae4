//! Python: blocks, and what the classifier calls a refactor (rules in
//! `src/lang/python/mod.rs`). The labelled corpus (`tests/corpus-python/`) covers the
//! same rules on realistic files made by real tools.

use intent_ast_hash::lang::BlockKind;
use intent_ast_hash::MutationClass::{self, AstRefactor, IntentEvolution};

use crate::{analyze_as, block, turn};

#[track_caller]
fn assert_py(before: &str, after: &str, expected: MutationClass) {
    let verdict = turn(&[("pkg/mod.py", before)], &[("pkg/mod.py", after)]);
    assert_eq!(
        verdict.mutation_class, expected,
        "reason: {}\n--- before\n{before}\n--- after\n{after}",
        verdict.reason
    );
}

const MODULE: &str = r#""""Shapes."""
import math
from .units import (cm, mm as millimetre)

SCALE = 2
_cache = {}


@register
def area(r, /, *, precise=False):
    total = math.pi * r * r
    return total if precise else round(total)


class Circle(Shape):
    sides = 0

    def __init__(self, r):
        self.r = r

    @property
    def diameter(self):
        return 2 * self.r

    def _grow(self, by=1):
        self.r += by
"#;

#[test]
fn blocks_are_functions_classes_methods_and_module_variables() {
    let a = analyze_as("pkg/shapes.py", MODULE);
    let kinds: Vec<(&str, BlockKind, bool)> = a
        .blocks
        .iter()
        .map(|b| (b.qualified_name.as_str(), b.kind, b.exported))
        .collect();
    assert_eq!(
        kinds,
        [
            ("SCALE", BlockKind::Variable, true),
            ("_cache", BlockKind::Variable, false),
            ("area", BlockKind::Function, true),
            ("Circle", BlockKind::Class, true),
            ("Circle.sides", BlockKind::Field, true),
            ("Circle.__init__", BlockKind::Method, true),
            ("Circle.diameter", BlockKind::Method, true),
            ("Circle._grow", BlockKind::Method, false),
        ]
    );
    // A decorated definition's block starts at its decorator.
    let area = block(&a, "area");
    assert_eq!(area.lines.start, 9, "{area:?}");
    assert!(a.errors.is_empty(), "{:?}", a.errors);
}

#[test]
fn reformatting_and_comments_are_refactors() {
    let before = "def f(a, b):\n    x = {'k': [a,b]}\n    return x['k'][1:]\n";
    let after = "def f(a, b):\n    # the pair\n    x = {\n        \"k\": [\n            a,\n            b,\n        ]\n    }\n    return x[\"k\"][1:]\n";
    assert_py(before, after, AstRefactor);
    // Triple quotes hold the same value; a prefix changes it.
    assert_py("X = 'a'\n", "X = \"\"\"a\"\"\"\n", AstRefactor);
    assert_py("X = 'a'\n", "X = b'a'\n", IntentEvolution);
    // Where the colon of a slice stands is behaviour.
    assert_py(
        "def f(x):\n    return x[1:]\n",
        "def f(x):\n    return x[:1]\n",
        IntentEvolution,
    );
    // Relative import level.
    assert_py("from .a import x\n", "from ..a import x\n", IntentEvolution);
}

#[test]
fn re_indentation_that_moves_a_statement_is_behaviour() {
    let before =
        "def f(xs):\n    n = 0\n    for x in xs:\n        n += x\n        log(n)\n    return n\n";
    let after =
        "def f(xs):\n    n = 0\n    for x in xs:\n        n += x\n    log(n)\n    return n\n";
    assert_py(before, after, IntentEvolution);
}

#[test]
fn pragmas_and_docstrings_are_behaviour_comments_are_not() {
    assert_py("x = f()  # note\n", "x = f()  # a note\n", AstRefactor);
    assert_py("x = f()\n", "x = f()  # type: ignore\n", IntentEvolution);
    assert_py("import os  # noqa: F401\n", "import os\n", IntentEvolution);
    assert_py(
        "def f():\n    \"\"\"Add.\"\"\"\n    return 1\n",
        "def f():\n    \"\"\"Add two.\"\"\"\n    return 1\n",
        IntentEvolution,
    );
}

#[test]
fn local_renames_are_refactors() {
    let before = "def f(items):\n    total = 0\n    for item in items:\n        total += item\n    squares = [v * v for v in items]\n    with open('x') as fh:\n        fh.write(str(total))\n    try:\n        pass\n    except ValueError as err:\n        raise err\n    return total, squares, f\"{total}\"\n";
    let after = "def f(items):\n    acc = 0\n    for it in items:\n        acc += it\n    squares = [w * w for w in items]\n    with open('x') as out:\n        out.write(str(acc))\n    try:\n        pass\n    except ValueError as e:\n        raise e\n    return acc, squares, f\"{acc}\"\n";
    assert_py(before, after, AstRefactor);
    // A local function only called directly.
    assert_py(
        "def f(x):\n    def helper(n):\n        return n * 2\n    return helper(x)\n",
        "def f(x):\n    def double(n):\n        return n * 2\n    return double(x)\n",
        AstRefactor,
    );
    // Positional-only parameters and `*args` cannot be passed by keyword.
    assert_py(
        "def f(a, /, *rest):\n    return a, rest\n",
        "def f(b, /, *others):\n    return b, others\n",
        AstRefactor,
    );
}

#[test]
fn renames_that_are_observable_are_behaviour() {
    // Keyword-callable parameters are API.
    assert_py(
        "def f(a, b=1):\n    return a + b\n",
        "def f(a, c=1):\n    return a + c\n",
        IntentEvolution,
    );
    // A `global` name is the module's.
    assert_py(
        "def f():\n    global n\n    n = 1\n",
        "def f():\n    global m\n    m = 1\n",
        IntentEvolution,
    );
    // A local function passed as a value escapes with its `__name__`.
    assert_py(
        "def f(xs):\n    def key(n):\n        return -n\n    return sorted(xs, key=key)\n",
        "def f(xs):\n    def neg(n):\n        return -n\n    return sorted(xs, key=neg)\n",
        IntentEvolution,
    );
    // A decorated local function is passed to its decorator.
    assert_py(
        "def f():\n    @cache\n    def g():\n        return 1\n    return g()\n",
        "def f():\n    @cache\n    def h():\n        return 1\n    return h()\n",
        IntentEvolution,
    );
    // The class attributes of a class defined in a function are attributes.
    assert_py(
        "def f():\n    class C:\n        size = 1\n    return C\n",
        "def f():\n    class C:\n        width = 1\n    return C\n",
        IntentEvolution,
    );
    // `locals()` reads names by string.
    assert_py(
        "def f():\n    a = 1\n    return locals()\n",
        "def f():\n    b = 1\n    return locals()\n",
        IntentEvolution,
    );
    // Renaming into a captured name.
    assert_py(
        "def f(xs):\n    n = len(xs)\n    return [n + x for x in xs]\n",
        "def f(xs):\n    x = len(xs)\n    return [x + x for x in xs]\n",
        IntentEvolution,
    );
    // An attribute is not a local, even when a local has its name.
    assert_py(
        "def f(o):\n    size = 1\n    return o.size + size\n",
        "def f(o):\n    width = 1\n    return o.width + width\n",
        IntentEvolution,
    );
    // A module-level function is a module attribute.
    assert_py(
        "def _f():\n    return 1\n",
        "def _g():\n    return 1\n",
        IntentEvolution,
    );
}

#[test]
fn reorders_of_definitions_that_run_no_code_are_refactors() {
    assert_py(
        "class C:\n    def a(self):\n        return 1\n\n    def b(self, k=2):\n        return k\n",
        "class C:\n    def b(self, k=2):\n        return k\n\n    def a(self):\n        return 1\n",
        AstRefactor,
    );
    assert_py(
        "import os\nimport sys\n\ndef a():\n    return os.sep\n\ndef b():\n    return sys.argv\n",
        "import sys\nimport os\n\ndef b():\n    return sys.argv\n\ndef a():\n    return os.sep\n",
        AstRefactor,
    );
}

#[test]
fn reorders_of_code_that_runs_are_behaviour() {
    // Decorators run when `def` runs (a registry keeps their order).
    assert_py(
        "@route\ndef a():\n    pass\n\n@route\ndef b():\n    pass\n",
        "@route\ndef b():\n    pass\n\n@route\ndef a():\n    pass\n",
        IntentEvolution,
    );
    // So do default values.
    assert_py(
        "def a(x=make()):\n    pass\n\ndef b(y=make()):\n    pass\n",
        "def b(y=make()):\n    pass\n\ndef a(x=make()):\n    pass\n",
        IntentEvolution,
    );
    // Class attributes are evaluated in order.
    assert_py(
        "class E(Enum):\n    A = 1\n    B = 2\n",
        "class E(Enum):\n    B = 2\n    A = 1\n",
        IntentEvolution,
    );
    // Statements run in order.
    assert_py(
        "def f():\n    a()\n    b()\n",
        "def f():\n    b()\n    a()\n",
        IntentEvolution,
    );
    // Decorators apply inside out.
    assert_py(
        "@a\n@b\ndef f():\n    pass\n",
        "@b\n@a\ndef f():\n    pass\n",
        IntentEvolution,
    );
}
