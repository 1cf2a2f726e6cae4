//! Renaming a local function: a refactor exactly when no use can read its `.name`.
//!
//! Kept apart from `test_classify.rs` (its traps and refactor tables) for size; the
//! traps there that observe a local function's name still hold.

use intent_ast_hash::MutationClass::{AstRefactor, IntentEvolution};
use intent_ast_hash::RefactorKind;

use crate::{analyze_as, block, turn};

/// A function body template: `NAME` is the local function's name.
type Case = (&'static str, &'static str);

/// Local functions that are only ever called directly (or not used at all).
const CALL_ONLY_TS: &[Case] = &[
    (
        "function declaration",
        "export function f(x: number) {\n  function NAME(n: number) { return n * 2; }\n  return NAME(x) + NAME(1);\n}\n",
    ),
    (
        "arrow",
        "export function f(xs: number[]) {\n  const NAME = (n: number) => n * 2;\n  return xs.map((x) => NAME(x));\n}\n",
    ),
    (
        "function expression",
        "export function f(x: number) {\n  const NAME = function (n: number) { return n * 2; };\n  return NAME(x);\n}\n",
    ),
    (
        "var function expression, called before",
        "export function f(x: number) {\n  if (x) return NAME(x);\n  var NAME = function (n: number) { return n; };\n}\n",
    ),
    (
        "async, generic call, optional call, tagged template",
        "export async function f(x: number) {\n  async function NAME<T>(n: T) { return n; }\n  await NAME(x);\n  NAME<number>(x);\n  NAME?.(x);\n  return NAME`x`;\n}\n",
    ),
    (
        "generator",
        "export function f() {\n  function* NAME() { yield 1; }\n  return [...NAME()];\n}\n",
    ),
    (
        "recursive, called from a nested function",
        "export function f(n: number) {\n  function NAME(k: number): number { return k <= 1 ? 1 : k * NAME(k - 1); }\n  return [n].map(function (k) { return NAME(k); });\n}\n",
    ),
    (
        "unused",
        "export function f() {\n  const NAME = () => 1;\n  return 2;\n}\n",
    ),
    (
        "method body",
        "export class A {\n  m(x: number) {\n    function NAME(n: number) { return n + 1; }\n    return NAME(x);\n  }\n}\n",
    ),
];

/// The same in JavaScript (a script: sloppy mode).
const CALL_ONLY_JS: &[Case] = &[
    (
        "function declaration",
        "function f(x) {\n  function NAME(n) { return n * 2; }\n  return NAME(x) + NAME(1);\n}\n",
    ),
    (
        "arrow",
        "function f(xs) {\n  const NAME = (n) => n * 2;\n  return xs.map((x) => NAME(x));\n}\n",
    ),
    (
        "function expression",
        "function f(x) {\n  const NAME = function (n) { return n * 2; };\n  return NAME(x);\n}\n",
    ),
    (
        "arrow in an arrow",
        "const f = (x) => {\n  let NAME = (n) => n - 1;\n  return NAME(NAME(x));\n};\n",
    ),
];

fn with_name(template: &str, name: &str) -> String {
    template.replace("NAME", name)
}

#[track_caller]
fn assert_rename(path: &str, what: &str, before: &str, after: &str, expected: bool) {
    let verdict = turn(&[(path, before)], &[(path, after)]);
    let class = if expected {
        AstRefactor
    } else {
        IntentEvolution
    };
    assert_eq!(
        verdict.mutation_class, class,
        "{path} {what}: {}\n--- before\n{before}\n--- after\n{after}",
        verdict.reason
    );
    if expected {
        assert_eq!(
            verdict.refactor_kinds,
            vec![RefactorKind::RenameLocal],
            "{path} {what}"
        );
    }
}

#[test]
fn renaming_a_call_only_local_function_is_a_local_rename() {
    for (path, cases) in [("src/a.ts", CALL_ONLY_TS), ("src/a.js", CALL_ONLY_JS)] {
        for (what, template) in cases {
            let (helper, double) = (with_name(template, "helper"), with_name(template, "double"));
            assert_rename(path, what, &helper, &double, true);
            assert_rename(path, what, &double, &helper, true);
            // The block's alpha hash is what a ledger stores: it must not move.
            let name = if template.contains("class A") {
                "A.m"
            } else {
                "f"
            };
            let alpha = |text: &str| block(&analyze_as(path, text), name).hashes.alpha;
            assert_eq!(alpha(&helper), alpha(&double), "{path} {what}");
        }
    }
}

/// Renames a use can observe, or that are not consistent: each stays an evolution.
#[test]
fn observable_or_inconsistent_renames_stay_evolutions() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "called and returned",
            "export function f() { function NAME() { return 1; } NAME(); return NAME; }",
            "ts",
        ),
        (
            "passed as a callback",
            "export function f(xs: number[]) { const NAME = (x: number) => x; return xs.map(NAME); }",
            "ts",
        ),
        (
            "name read",
            "export function f() { function NAME() {} NAME(); return NAME.name; }",
            "ts",
        ),
        (
            "called through .call",
            "export function f() { function NAME() { return 1; } return NAME.call(null); }",
            "ts",
        ),
        (
            "shorthand property",
            "export function f() { const NAME = () => 1; return { NAME }; }",
            "ts",
        ),
        (
            "constructed: the instance's constructor is the function",
            "export function f() { function NAME() {} return new NAME(); }",
            "ts",
        ),
        (
            "local class, only constructed",
            "export function f() { class NAME {} return new NAME(); }",
            "ts",
        ),
        (
            "own name of a function expression",
            "export function f() { const run = function NAME() { return 1; }; return run(); }",
            "ts",
        ),
        (
            "assigned later",
            "export function f() { let NAME; NAME = () => 1; return NAME(); }",
            "ts",
        ),
        (
            // Annex B: in sloppy mode the block's function is also a `var` of `f`.
            "declared in a block",
            "function f(x) { if (x) { function NAME() { return 1; } NAME(); } }",
            "js",
        ),
        (
            // Running the block assigns its `helper` to the outer one (Annex B).
            "a block function of the same name",
            "function f(x) { function NAME() { return 1; } if (x) { function helper() { return 2; } } return NAME(); }",
            "js",
        ),
        (
            "arguments.callee",
            "function f() { function NAME() { return arguments.callee.name; } return NAME(); }",
            "js",
        ),
        (
            "module-level function, only called",
            "function NAME() { return 1; }\nexport function f() { return NAME(); }",
            "ts",
        ),
    ];
    for (what, template, ext) in cases {
        let path = format!("src/a.{ext}");
        let (helper, double) = (with_name(template, "helper"), with_name(template, "double"));
        assert_rename(&path, what, &helper, &double, false);
        assert_rename(&path, what, &double, &helper, false);
    }
    let inconsistent: &[(&str, &str, &str)] = &[
        (
            "declaration only",
            "export function f() { function helper() { return 1; } return helper(); }",
            "export function f() { function double() { return 1; } return helper(); }",
        ),
        (
            "call only",
            "export function f() { function helper() { return 1; } return helper(); }",
            "export function f() { function helper() { return 1; } return double(); }",
        ),
        (
            "shadows an outer function the call meant",
            "export function f() {\n  function helper2() { return 2; }\n  function run() {\n    function helper() { return 1; }\n    return helper() + helper2();\n  }\n  return run();\n}",
            "export function f() {\n  function helper2() { return 2; }\n  function run() {\n    function helper2() { return 1; }\n    return helper2() + helper2();\n  }\n  return run();\n}",
        ),
        (
            "calls swapped",
            "export function f() { function a() { return 1; } function b() { return 2; } return a() - b(); }",
            "export function f() { function a() { return 1; } function b() { return 2; } return b() - a(); }",
        ),
    ];
    for (what, before, after) in inconsistent {
        for path in ["src/a.ts", "src/a.js"] {
            assert_rename(path, what, before, after, false);
        }
    }
}

#[test]
fn swapping_two_call_only_names_consistently_is_a_local_rename() {
    // Declarations and calls swap together: the same functions run in the same order.
    assert_rename(
        "src/a.ts",
        "swap",
        "export function f() { function a() { return 1; } function b() { return 2; } return a() - b(); }",
        "export function f() { function b() { return 1; } function a() { return 2; } return b() - a(); }",
        true,
    );
}
