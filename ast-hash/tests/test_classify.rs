//! Turn-level classification: moves, renames, API changes, errors, text rules.

use intent_ast_hash::MutationClass::{AstRefactor, IntentEvolution};
use intent_ast_hash::{declared_mismatch, ApiChangeKind, Method, RefactorKind, TextRule};

use crate::{assert_class, turn};

const STRINGS: &str = r#"import type { Result } from "./result";

export function validateEmail(value: string): Result {
  return value.includes("@") ? { ok: true } : { ok: false, error: "email" };
}

export function validatePort(value: number): Result {
  return value > 0 && value < 65536 ? { ok: true } : { ok: false, error: "port" };
}
"#;

const NUMBERS: &str = r#"import type { Result } from "./result";

export function validateRange(value: number, min: number, max: number): Result {
  return value >= min && value <= max ? { ok: true } : { ok: false, error: "range" };
}
"#;

const BARREL: &str = "export * from \"./strings\";\nexport * from \"./numbers\";\n";

fn strings_after() -> String {
    let start = STRINGS.find("export function validatePort").unwrap();
    STRINGS[..start].trim_end().to_string() + "\n"
}

fn numbers_after() -> String {
    let start = STRINGS.find("export function validatePort").unwrap();
    format!("{NUMBERS}\n{}", &STRINGS[start..])
}

#[test]
fn cross_file_move_behind_a_barrel_is_a_move() {
    let before = [
        ("src/v/index.ts", BARREL),
        ("src/v/strings.ts", STRINGS),
        ("src/v/numbers.ts", NUMBERS),
    ];
    let (s, n) = (strings_after(), numbers_after());
    let after = [
        ("src/v/index.ts", BARREL),
        ("src/v/strings.ts", s.as_str()),
        ("src/v/numbers.ts", n.as_str()),
    ];
    let verdict = turn(&before, &after);
    assert_eq!(verdict.mutation_class, AstRefactor, "{}", verdict.reason);
    assert!(
        verdict.refactor_kinds.contains(&RefactorKind::Move),
        "{:?}",
        verdict.refactor_kinds
    );
    assert_eq!(verdict.moved_blocks.len(), 1);
    assert_eq!(verdict.moved_blocks[0].from.path, "src/v/strings.ts");
    assert_eq!(verdict.moved_blocks[0].to.path, "src/v/numbers.ts");
    assert!(verdict.added_blocks.is_empty() && verdict.removed_blocks.is_empty());
    assert!(
        verdict.api_changes.is_empty(),
        "the barrel's surface is unchanged: {:?}",
        verdict.api_changes
    );
}

#[test]
fn cross_file_move_of_an_export_without_a_barrel_changes_the_api() {
    let before = [("src/v/strings.ts", STRINGS), ("src/v/numbers.ts", NUMBERS)];
    let (s, n) = (strings_after(), numbers_after());
    let after = [
        ("src/v/strings.ts", s.as_str()),
        ("src/v/numbers.ts", n.as_str()),
    ];
    let verdict = turn(&before, &after);
    assert_eq!(verdict.mutation_class, IntentEvolution);
    assert!(verdict.reason.contains("moved"), "{}", verdict.reason);
    assert!(verdict
        .api_changes
        .iter()
        .any(|c| c.kind == ApiChangeKind::Moved && c.name == "validatePort"));
    assert_eq!(
        verdict.moved_blocks.len(),
        1,
        "still reported as a move, not delete + add"
    );
}

#[test]
fn cross_file_move_between_classic_scripts() {
    let helpers = "\"use strict\";\nfunction esc(t) { return String(t).replace(/&/g, '&amp;'); }\nfunction fmt(n) { return n.toFixed(2); }\n";
    let table = "\"use strict\";\nfunction row(x) { return '<td>' + esc(x.name) + fmt(x.total) + '</td>'; }\n";
    let helpers_after = "\"use strict\";\nfunction fmt(n) { return n.toFixed(2); }\n";
    let table_after = "\"use strict\";\nfunction row(x) { return '<td>' + esc(x.name) + fmt(x.total) + '</td>'; }\nfunction esc(t) { return String(t).replace(/&/g, '&amp;'); }\n";
    let verdict = turn(
        &[("js/helpers.js", helpers), ("js/table.js", table)],
        &[
            ("js/helpers.js", helpers_after),
            ("js/table.js", table_after),
        ],
    );
    assert_eq!(verdict.mutation_class, AstRefactor, "{}", verdict.reason);
    assert!(verdict.refactor_kinds.contains(&RefactorKind::Move));
    // A script that runs code at load time may call the moved function before it exists.
    let eager = format!("{table}row({{ name: 'a', total: 1 }});\n");
    let eager_after = format!("{table_after}row({{ name: 'a', total: 1 }});\n");
    let verdict = turn(
        &[("js/helpers.js", helpers), ("js/table.js", &eager)],
        &[
            ("js/helpers.js", helpers_after),
            ("js/table.js", &eager_after),
        ],
    );
    assert_eq!(verdict.mutation_class, IntentEvolution);
}

#[test]
fn move_with_import_changes_is_an_evolution() {
    let money = "export function fromMinor(m: number) { return m / 100; }\nexport function format(m: number) { return '$' + fromMinor(m); }\n";
    let receipt = "import { format } from './money';\nexport function render(m: number) { return 'Total ' + format(m); }\n";
    let money_after = "export function fromMinor(m: number) { return m / 100; }\n";
    let receipt_after = "import { fromMinor } from './money';\nexport function format(m: number) { return '$' + fromMinor(m); }\nexport function render(m: number) { return 'Total ' + format(m); }\n";
    let verdict = turn(
        &[("src/money.ts", money), ("src/receipt.ts", receipt)],
        &[
            ("src/money.ts", money_after),
            ("src/receipt.ts", receipt_after),
        ],
    );
    assert_eq!(
        verdict.mutation_class, IntentEvolution,
        "{}",
        verdict.reason
    );
}

#[test]
fn file_rename_without_exports_is_a_refactor() {
    let test = "import { add } from '../src/add';\ndescribe('add', () => { it('adds', () => expect(add(1, 2)).toBe(3)); });\n";
    let verdict = turn(&[("test/add.test.ts", test)], &[("test/add.spec.ts", test)]);
    assert_eq!(verdict.mutation_class, AstRefactor, "{}", verdict.reason);
    assert_eq!(verdict.refactor_kinds, vec![RefactorKind::FileRename]);
    assert_eq!(verdict.method, Method::Ast);
}

#[test]
fn file_rename_of_a_module_with_exports_changes_the_api() {
    let module = "export function add(a: number, b: number) { return a + b; }\n";
    let verdict = turn(&[("src/add.ts", module)], &[("src/sum.ts", module)]);
    assert_eq!(verdict.mutation_class, IntentEvolution);
    assert!(
        verdict
            .api_changes
            .iter()
            .any(|c| c.kind == ApiChangeKind::Moved),
        "{:?}",
        verdict.api_changes
    );
}

#[test]
fn renaming_an_export_is_an_api_change() {
    let verdict = assert_class(
        "export function verify(token: string) { return token.length > 0; }\n",
        "export function validate(token: string) { return token.length > 0; }\n",
        IntentEvolution,
    );
    let change = &verdict.api_changes[0];
    assert_eq!(change.kind, ApiChangeKind::Renamed);
    assert_eq!(change.name, "validate");
    assert!(
        verdict.reason.contains("API change") && verdict.reason.contains("verify"),
        "{}",
        verdict.reason
    );
    assert_eq!(verdict.renamed_blocks.len(), 1);
}

#[test]
fn signature_and_export_changes_are_api_changes() {
    let v = assert_class(
        "export function f(a: string) { return a; }",
        "export function f(a: number) { return a; }",
        IntentEvolution,
    );
    assert_eq!(v.api_changes[0].kind, ApiChangeKind::Signature);
    let v = assert_class(
        "export function f(a: string) { return a; }",
        "function f(a: string) { return a; }",
        IntentEvolution,
    );
    assert_eq!(v.api_changes[0].kind, ApiChangeKind::ExportRemoved);
    let v = assert_class(
        "export function f(a: string) { return a; }",
        "export function f(a: string) { return a + 1; }",
        IntentEvolution,
    );
    assert!(
        v.api_changes.is_empty(),
        "a body change is not an API change: {:?}",
        v.api_changes
    );
    let v = assert_class(
        "export const f = (a: number) => a + 1;",
        "export const f = (a: number) => a + 2;",
        IntentEvolution,
    );
    assert!(
        v.api_changes.is_empty(),
        "an arrow's body is not its signature: {:?}",
        v.api_changes
    );
    assert!(
        v.reason.contains("behaviour changed in `f`"),
        "{}",
        v.reason
    );
}

#[test]
fn differing_parse_errors_are_an_evolution() {
    let ok = "export function f() {\n  return 1;\n}\n";
    let broken = "export function f() {\n  return 1 +;\n}\n";
    let v = assert_class(ok, broken, IntentEvolution);
    assert!(v.reason.contains("parse errors differ"), "{}", v.reason);
    assert!(!v.parse_errors.is_empty());
    // The same error on both sides does not block a refactor elsewhere.
    let broken_reformatted = "export function f() { return 1 +; }\n";
    let v = assert_class(broken, broken_reformatted, AstRefactor);
    assert_eq!(v.parse_errors.len(), 2);
}

#[test]
fn text_files_fall_back_to_named_rules() {
    let v = turn(
        &[("README.md", "# Title\r\nText  \n")],
        &[("README.md", "# Title\nText\n\n")],
    );
    assert_eq!(v.mutation_class, AstRefactor, "{}", v.reason);
    assert_eq!(v.method, Method::Text);
    assert_eq!(v.text_files[0].rule, TextRule::LineEndings);
    assert!(v.reason.contains("line-endings"), "{}", v.reason);

    let v = turn(
        &[("package.json", "{\"a\":1,\"b\":2}")],
        &[("package.json", "{\n  \"b\": 2,\n  \"a\": 1\n}\n")],
    );
    assert_eq!(v.mutation_class, AstRefactor, "{}", v.reason);
    assert_eq!(v.text_files[0].rule, TextRule::JsonEquivalent);

    let v = turn(
        &[("README.md", "# Title\n")],
        &[("README.md", "# Other title\n")],
    );
    assert_eq!(v.mutation_class, IntentEvolution);
    assert!(
        v.reason.contains("README.md") && v.reason.contains("`changed`"),
        "{}",
        v.reason
    );

    let v = turn(&[("docs/a.md", "same\n")], &[("docs/b.md", "same\n")]);
    assert_eq!(v.mutation_class, AstRefactor, "{}", v.reason);
    assert_eq!(v.text_files[0].rule, TextRule::FileRename);
    assert_eq!(v.refactor_kinds, vec![RefactorKind::FileRename]);

    let v = turn(&[], &[("config.yaml", "a: 1\n")]);
    assert_eq!(v.mutation_class, IntentEvolution);
    assert!(v.reason.contains("`added`"), "{}", v.reason);
}

#[test]
fn a_turn_mixing_text_and_code_needs_both_to_pass() {
    let code = "export const a = 1;\n";
    let v = turn(
        &[("src/a.ts", code), ("README.md", "x\n")],
        &[("src/a.ts", code), ("README.md", "y\n")],
    );
    assert_eq!(v.mutation_class, IntentEvolution);
    assert_eq!(v.method, Method::Ast);
}

#[test]
fn import_changes_reach_the_declarations_that_use_them() {
    let v = assert_class(
        "import { hash } from './sha1';\nexport const id = (s: string) => hash(s);\n",
        "import { hash } from './sha256';\nexport const id = (s: string) => hash(s);\n",
        IntentEvolution,
    );
    assert!(v.reason.contains("`hash`"), "{}", v.reason);
}

#[test]
fn dropping_a_side_effect_import_is_an_evolution() {
    assert_class(
        "import './polyfill';\nexport const a = 1;\n",
        "export const a = 1;\n",
        IntentEvolution,
    );
    assert_class(
        "import { x } from 'lib';\nexport const a = 1;\n",
        "export const a = 1;\n",
        IntentEvolution,
    );
}

#[test]
fn top_level_statements_are_compared_in_order() {
    let v = assert_class(
        "app.use(auth);\napp.use(log);\napp.listen(3000);\n",
        "app.use(auth);\napp.use(log);\napp.listen(8080);\n",
        IntentEvolution,
    );
    assert!(v.reason.contains("top-level statements"), "{}", v.reason);
    assert_class(
        "app.use(auth);\napp.use(log);\n",
        "app.use(log);\napp.use(auth);\n",
        IntentEvolution,
    );
    assert_class(
        "app.use(auth);\napp.use(log);\n",
        "app.use(auth)\n\napp.use(log)\n",
        AstRefactor,
    );
}

#[test]
fn pragma_comments_are_not_comments() {
    assert_class(
        "export const a = f();\n",
        "export const a = /*#__PURE__*/ f();\n",
        IntentEvolution,
    );
    assert_class(
        "export const a = f();\n",
        "export const a = /* pure */ f();\n",
        AstRefactor,
    );
}

#[test]
fn declared_class_is_checked_against_the_computed_one() {
    let v = assert_class(
        "export class A {\n  verify(t: string) {\n    return t.length > 0;\n  }\n}\n",
        "export class A {\n  verify(t: string) {\n    return t.length >= 0;\n  }\n}\n",
        IntentEvolution,
    );
    let message = declared_mismatch("AST_REFACTOR", &v).expect("a mismatch");
    assert!(
        message.starts_with("declared AST_REFACTOR but behaviour changed in `A.verify`"),
        "{message}"
    );
    assert_eq!(declared_mismatch("INTENT_EVOLUTION", &v), None);
    assert_eq!(v.declared_mismatch("intent-evolution"), None);
    assert!(declared_mismatch("REFACTOR", &v)
        .unwrap()
        .contains("neither"));
    let r = assert_class(
        "export const a = 1;",
        "export const a = 1; // one",
        AstRefactor,
    );
    assert!(declared_mismatch("INTENT_EVOLUTION", &r)
        .unwrap()
        .contains("refactor"));
}

#[test]
fn classification_serializes_to_json() {
    let v = assert_class(
        "export function f(a: number) { return a; }",
        "export function f(b: number) { return b; }",
        AstRefactor,
    );
    let json = serde_json::to_value(&v).unwrap();
    assert_eq!(json["mutation_class"], "AST_REFACTOR");
    assert_eq!(json["method"], "ast");
    assert_eq!(json["refactor_kinds"][0], "rename-local");
}

/// Changes that look like refactors but are not: each must stay an evolution.
#[test]
fn traps_stay_evolutions() {
    let traps: &[(&str, &str, &str)] = &[
        (
            "jsx text",
            "const a = <p>Hello  world</p>;",
            "const a = <p>Hello world</p>;",
        ),
        (
            "method and getter swap",
            "export class A { x() { return 1; } get x() { return 2; } }",
            "export class A { get x() { return 2; } x() { return 1; } }",
        ),
        (
            "optional chain parens",
            "export const v = (a?.b).c;",
            "export const v = a?.b.c;",
        ),
        (
            "async added",
            "export function f() { return g(); }",
            "export async function f() { return g(); }",
        ),
        (
            "strict mode",
            "function f() { return this; }",
            "'use strict';\nfunction f() { return this; }",
        ),
        (
            "closure capture",
            "export function f(a: number) { return (b: number) => a + b; }",
            "export function f(b: number) { return (b: number) => b + b; }",
        ),
        (
            "spread order",
            "export const o = { ...a, ...b };",
            "export const o = { ...b, ...a };",
        ),
        (
            "decorator order",
            "export class A { @a @b m() {} }",
            "export class A { @b @a m() {} }",
        ),
        (
            "ts-ignore",
            "export const a: number = f();",
            "// @ts-ignore\nexport const a: number = f();",
        ),
        (
            "var to let",
            "export function f() { var x = 1; return x; }",
            "export function f() { let x = 1; return x; }",
        ),
        (
            "nested function order",
            "export function f() { function a() {} function b() {} return [a, b]; }",
            "export function f() { function b() {} function a() {} return [b, a]; }",
        ),
        (
            "label",
            "export function f() { outer: for (;;) { break outer; } }",
            "export function f() { inner: for (;;) { break inner; } }",
        ),
        (
            "regex flag",
            "export const r = /a/g;",
            "export const r = /a/i;",
        ),
        (
            "number",
            "export const n = 1_000;",
            "export const n = 1000.5;",
        ),
        (
            "this vs global",
            "export class A { m() { return this.x; } }",
            "export class A { m() { return globalThis.x; } }",
        ),
        (
            "shadowed import",
            "import { x } from './x';\nexport function f(y: number) { return x + y; }",
            "import { x } from './x';\nexport function f(x: number) { return x + x; }",
        ),
        (
            "unused to used param",
            "export function f(a: number, b: number) { return a; }",
            "export function f(a: number, b: number) { return b; }",
        ),
        (
            "catch param",
            "export function f() { try { g(); } catch (e) { return e; } }",
            "export function f() { try { g(); } catch { return e; } }",
        ),
        (
            "function name",
            "export function f() { function g() {} return g; }",
            "export function f() { function h() {} return h; }",
        ),
        (
            "arrow name",
            "export function f() { const g = () => 1; return g; }",
            "export function f() { const h = () => 1; return h; }",
        ),
        (
            "assigned name",
            "export function f() { let g; g = function () {}; return g; }",
            "export function f() { let h; h = function () {}; return h; }",
        ),
        (
            "default name",
            "export function f(cb = () => {}) { return cb.name; }",
            "export function f(fn = () => {}) { return fn.name; }",
        ),
        // A local function only ever called directly renames as a local
        // (`test_local_functions.rs`); one that is also used as a value does not.
        (
            "called and returned",
            "export function f() { function g() {} g(); return g; }",
            "export function f() { function h() {} h(); return h; }",
        ),
    ];
    for (name, before, after) in traps {
        let path = if before.contains('<') && name.starts_with("jsx") {
            "src/a.tsx"
        } else {
            "src/a.ts"
        };
        let verdict = turn(&[(path, before)], &[(path, after)]);
        assert_eq!(
            verdict.mutation_class, IntentEvolution,
            "{name}: {}",
            verdict.reason
        );
    }
}

/// Changes that are refactors and are recognized as such.
#[test]
fn harmless_changes_are_refactors() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "jsx text layout",
            "const a = <p>Hello world</p>;",
            "const a = (\n  <p>\n    Hello world\n  </p>\n);",
        ),
        (
            "jsx comment",
            "const a = <div><p /></div>;",
            "const a = <div>{/* why */}<p /></div>;",
        ),
        (
            "getter setter swap",
            "export class A { get x() { return 1; } set x(v) {} }",
            "export class A { set x(v) {} get x() { return 1; } }",
        ),
        (
            "static and instance",
            "export class A { static m() {} m() {} }",
            "export class A { m() {} static m() {} }",
        ),
        (
            "leading union pipe",
            "export type T = 'a' | 'b';",
            "export type T =\n  | 'a'\n  | 'b';",
        ),
        (
            "import order",
            "import { b } from './b';\nimport { a } from './a';\nexport const c = () => a + b;",
            "import { a } from './a';\nimport { b } from './b';\nexport const c = () => a + b;",
        ),
        (
            "catch rename",
            "export function f() { try { g(); } catch (e) { return e; } }",
            "export function f() { try { g(); } catch (err) { return err; } }",
        ),
        (
            "loop rename",
            "export function f(xs: number[]) { for (const x of xs) h(x); }",
            "export function f(xs: number[]) { for (const item of xs) h(item); }",
        ),
        (
            "destructuring rename",
            "export function f({ a: b }: any) { return b; }",
            "export function f({ a: c }: any) { return c; }",
        ),
        (
            "default export arrow",
            "export default (x) => x + 1;",
            "export default x => (x + 1);",
        ),
        (
            "named value, not a function",
            "export function f() { const g = make(() => 1); return g; }",
            "export function f() { const h = make(() => 1); return h; }",
        ),
    ];
    for (name, before, after) in cases {
        let path = if before.contains('<') {
            "src/a.tsx"
        } else {
            "src/a.ts"
        };
        let verdict = turn(&[(path, before)], &[(path, after)]);
        assert_eq!(
            verdict.mutation_class, AstRefactor,
            "{name}: {}",
            verdict.reason
        );
    }
}
