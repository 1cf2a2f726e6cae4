//! What each hash keeps and what it forgets.

use intent_ast_hash::MutationClass::{AstRefactor, IntentEvolution};

use crate::{analyze_as, assert_class, block, ts};

const BASE: &str = r#"
import { readFile } from "node:fs/promises";

export async function load(path: string, retries = 3): Promise<string> {
  let attempt = 0;
  while (attempt < retries) {
    try {
      const text = await readFile(path, "utf8");
      return text.trim();
    } catch (error) {
      attempt += 1;
    }
  }
  throw new Error(`cannot read ${path}`);
}
"#;

#[test]
fn reformat_keeps_exact_and_alpha() {
    let reformatted = r#"import {readFile} from 'node:fs/promises'
export async function load(path: string, retries = 3): Promise<string>
{
    let attempt = 0
    while (attempt < retries) { try { const text = await readFile(path, 'utf8'); return text.trim() } catch (error) { attempt += 1 } }
    throw new Error(`cannot read ${path}`)
}"#;
    let (a, b) = (ts(BASE), ts(reformatted));
    assert_eq!(a.exact, b.exact);
    assert_eq!(a.alpha, b.alpha);
    assert_class(BASE, reformatted, AstRefactor);
}

#[test]
fn comments_are_ignored() {
    let commented = BASE
        .replace(
            "let attempt = 0;",
            "let attempt = 0; // first try\n  /* loop */",
        )
        .replace("export async", "/** Loads a file. */\nexport async");
    assert_eq!(ts(BASE).exact, ts(&commented).exact);
    let verdict = assert_class(BASE, &commented, AstRefactor);
    assert!(
        verdict
            .refactor_kinds
            .iter()
            .any(|k| k.as_str() == "comment"),
        "{:?}",
        verdict.refactor_kinds
    );
}

#[test]
fn renaming_locals_keeps_alpha_only() {
    let renamed = BASE
        .replace("attempt", "tries")
        .replace("text", "content")
        .replace("error", "e");
    let (a, b) = (ts(BASE), ts(&renamed));
    assert_ne!(a.exact, b.exact);
    assert_eq!(a.alpha, b.alpha);
    let verdict = assert_class(BASE, &renamed, AstRefactor);
    assert!(verdict
        .refactor_kinds
        .iter()
        .any(|k| k.as_str() == "rename-local"));
}

#[test]
fn renaming_parameters_keeps_alpha() {
    let renamed = BASE.replace("path", "file").replace("retries", "max");
    assert_eq!(ts(BASE).alpha, ts(&renamed).alpha);
}

#[test]
fn operator_and_literal_changes_alter_exact_and_alpha() {
    for (from, to) in [
        ("attempt < retries", "attempt <= retries"),
        ("attempt += 1", "attempt += 2"),
        ("retries = 3", "retries = 4"),
        ("\"utf8\"", "\"latin1\""),
        ("await readFile", "readFile"),
        ("let attempt", "var attempt"),
    ] {
        let changed = BASE.replace(from, to);
        assert_ne!(ts(BASE).exact, ts(&changed).exact, "{from} -> {to}");
        assert_ne!(ts(BASE).alpha, ts(&changed).alpha, "{from} -> {to}");
        assert_class(BASE, &changed, IntentEvolution);
    }
}

#[test]
fn swapping_two_locals_alters_alpha() {
    let a = "function f(a: number, b: number) { return a - b; }";
    let b = "function f(a: number, b: number) { return b - a; }";
    assert_ne!(ts(a).alpha, ts(b).alpha);
}

#[test]
fn renaming_a_local_onto_a_global_alters_alpha() {
    // `x` was global; after the rename the local captures it.
    let a = "function f(y: number) { return x + y; }";
    let b = "function f(x: number) { return x + x; }";
    assert_ne!(ts(a).alpha, ts(b).alpha);
}

#[test]
fn hoisted_bindings_resolve_to_their_scope() {
    // `x` before its declaration is the local (TDZ), not a global.
    let a = "function f() { g(x); let x = 1; }";
    let b = "function f() { g(x); let y = 1; }";
    assert_ne!(ts(a).alpha, ts(b).alpha);
    let c = "function f() { g(z); let z = 1; }";
    assert_eq!(ts(a).alpha, ts(c).alpha);
}

#[test]
fn exported_and_module_level_names_are_kept() {
    assert_ne!(
        ts("export function load() {}").alpha,
        ts("export function read() {}").alpha
    );
    assert_ne!(
        ts("function load() {}").alpha,
        ts("function read() {}").alpha
    );
    assert_ne!(
        ts("export const limit = 3;").alpha,
        ts("export const max = 3;").alpha
    );
}

#[test]
fn property_imported_and_global_names_are_kept() {
    let base =
        "import { a } from './a'; export function f(o: any) { return o.size + a + Math.PI; }";
    for (from, to) in [
        ("o.size", "o.length"),
        ("+ a +", "+ b +"),
        ("Math.PI", "Math.E"),
        ("{ a }", "{ b }"),
    ] {
        assert_ne!(
            ts(base).alpha,
            ts(&base.replace(from, to)).alpha,
            "{from} -> {to}"
        );
    }
}

#[test]
fn shorthand_properties_keep_the_property_name() {
    let a = "export function f() { const id = 1; return { id }; }";
    let b = "export function f() { const key = 1; return { key }; }";
    let c = "export function f() { const key = 1; return { id: key }; }";
    assert_ne!(ts(a).alpha, ts(b).alpha);
    assert_ne!(ts(a).alpha, ts(c).alpha, "a shorthand is not a pair");
    let d = "export function f({ id }: any) { return id; }";
    let e = "export function f({ key }: any) { return key; }";
    assert_ne!(ts(d).alpha, ts(e).alpha, "destructuring reads the property");
}

#[test]
fn parameter_properties_are_kept() {
    let a = "export class A { constructor(private x: number) {} get() { return this.x; } }";
    let b = "export class A { constructor(private y: number) {} get() { return this.x; } }";
    assert_ne!(ts(a).alpha, ts(b).alpha);
}

#[test]
fn with_and_eval_disable_renaming() {
    let a = "function f(o: any) { with (o) { return x; } }";
    let b = "function f(p: any) { with (p) { return x; } }";
    assert_ne!(ts(a).alpha, ts(b).alpha);
    let c = "function f(a: number) { return eval('a'); }";
    let d = "function f(b: number) { return eval('a'); }";
    assert_ne!(ts(c).alpha, ts(d).alpha);
}

#[test]
fn object_literal_property_order_matters() {
    let a = "export const o = { a: f(), b: g() };";
    let b = "export const o = { b: g(), a: f() };";
    assert_ne!(ts(a).exact, ts(b).exact);
    assert_class(a, b, IntentEvolution);
}

#[test]
fn arguments_and_statements_are_ordered() {
    assert_ne!(ts("f(a, b);").exact, ts("f(b, a);").exact);
    assert_ne!(ts("a(); b();").exact, ts("b(); a();").exact);
}

#[test]
fn class_methods_are_order_insensitive() {
    let a = "export class A { m() { return 1; } n() { return 2; } }";
    let b = "export class A { n() { return 2; } m() { return 1; } }";
    assert_eq!(
        block(&analyze_as("a.ts", a), "A").hashes.alpha,
        block(&analyze_as("a.ts", b), "A").hashes.alpha
    );
    let verdict = assert_class(a, b, AstRefactor);
    assert!(
        verdict
            .refactor_kinds
            .iter()
            .any(|k| k.as_str() == "reorder"),
        "{:?}",
        verdict.refactor_kinds
    );
}

#[test]
fn class_fields_stay_ordered() {
    let a = "export class A { x = f(); y = g(); }";
    let b = "export class A { y = g(); x = f(); }";
    assert_ne!(ts(a).alpha, ts(b).alpha);
    assert_class(a, b, IntentEvolution);
}

#[test]
fn decorators_stay_with_their_member() {
    let a = "export class A { @get m() {} @post n() {} }";
    let b = "export class A { @post m() {} @get n() {} }";
    assert_ne!(ts(a).alpha, ts(b).alpha);
    let c = "export class A { @post n() {} @get m() {} }";
    assert_eq!(ts(a).alpha, ts(c).alpha);
}

#[test]
fn overloads_keep_their_order() {
    let a = "export class A { f(x: string): void; f(x: number): void; f(x: any) {} }";
    let b = "export class A { f(x: number): void; f(x: string): void; f(x: any) {} }";
    assert_ne!(ts(a).alpha, ts(b).alpha);
}

#[test]
fn interface_members_and_imports_are_order_insensitive() {
    assert_eq!(
        ts("export interface I { a: string; b(): void }").alpha,
        ts("export interface I { b(): void; a: string }").alpha
    );
    assert_eq!(
        ts("import { a, b } from './x';").alpha,
        ts("import { b, a } from './x';").alpha
    );
    assert_class(
        "import { a, b } from './x'; export const c = () => a + b;",
        "import { b, a } from './x';\nexport const c = () => a + b;",
        AstRefactor,
    );
}

#[test]
fn enum_members_are_ordered() {
    assert_ne!(ts("enum E { A, B }").alpha, ts("enum E { B, A }").alpha);
}

#[test]
fn hoisted_functions_reorder_but_statements_do_not() {
    let a = "export function f() { return g(); }\nfunction g() { return 1; }\n";
    let b = "function g() { return 1; }\nexport function f() { return g(); }\n";
    assert_class(a, b, AstRefactor);
    let c = "setup();\nrun();\n";
    let d = "run();\nsetup();\n";
    assert_class(c, d, IntentEvolution);
}

#[test]
fn pure_declarations_do_not_cross_effects() {
    // `start()` may read `config`: moving the declaration below it changes behaviour.
    let a = "const config = { port: 1 };\nstart();\n";
    let b = "start();\nconst config = { port: 1 };\n";
    assert_class(a, b, IntentEvolution);
    // Without effects in between, pure declarations reorder freely.
    let c = "export const a = 1;\nexport const b = 'x';\nstart();\n";
    let d = "export const b = 'x';\nexport const a = 1;\nstart();\n";
    assert_class(c, d, AstRefactor);
}

#[test]
fn effectful_declarations_are_ordered() {
    let a = "export const a = open();\nexport const b = close();\n";
    let b = "export const b = close();\nexport const a = open();\n";
    assert_class(a, b, IntentEvolution);
}

#[test]
fn redundant_parentheses_and_arrow_parens_are_formatting() {
    assert_eq!(
        ts("const f = x => (x + 1);").exact,
        ts("const f = (x) => x + 1;").exact
    );
    assert_eq!(ts("return1((a));").exact, ts("return1(a);").exact);
    assert_ne!(
        ts("const v = (a?.b).c;").exact,
        ts("const v = a?.b.c;").exact
    );
}

#[test]
fn quotes_semicolons_and_trailing_commas_are_formatting() {
    assert_eq!(ts("f('a', [1, 2,],);").exact, ts("f(\"a\", [1, 2])").exact);
    assert_eq!(ts(r#"f('it\'s')"#).exact, ts(r#"f("it's")"#).exact);
    assert_ne!(ts("f('a b')").exact, ts("f('a  b')").exact);
}

#[test]
fn shape_forgets_names_and_literals() {
    let a = ts("export function f(a: number) { return a + 1; }");
    let b = ts("export function g(b: number) { return b + 2; }");
    assert_eq!(a.shape, b.shape);
    assert_ne!(a.alpha, b.alpha);
    assert_ne!(
        a.shape,
        ts("export function g(b: number) { return b - 2; }").shape
    );
}

#[test]
fn export_status_is_part_of_the_block_hash() {
    let a = analyze_as("a.ts", "export function f() {}");
    let b = analyze_as("a.ts", "function f() {}");
    assert_ne!(block(&a, "f").hashes.alpha, block(&b, "f").hashes.alpha);
}

#[test]
fn javascript_is_hashed_too() {
    let a = analyze_as("a.js", "export function f(a) { return a + 1 }")
        .hashes
        .unwrap();
    let b = analyze_as("a.js", "export function f(x) {\n  return x + 1;\n}\n")
        .hashes
        .unwrap();
    assert_eq!(a.alpha, b.alpha);
    assert_ne!(a.exact, b.exact);
}
