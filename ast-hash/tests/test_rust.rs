//! Rust: blocks, and what the classifier calls a refactor (rules in
//! `src/lang/rust/mod.rs`).

use intent_ast_hash::lang::BlockKind;
use intent_ast_hash::MutationClass::{self, AstRefactor, IntentEvolution};

use crate::{analyze_as, block, turn};

#[track_caller]
fn assert_rs(before: &str, after: &str, expected: MutationClass) {
    let verdict = turn(&[("src/lib.rs", before)], &[("src/lib.rs", after)]);
    assert_eq!(
        verdict.mutation_class, expected,
        "reason: {}\n--- before\n{before}\n--- after\n{after}",
        verdict.reason
    );
}

/// Both directions.
#[track_caller]
fn assert_both(a: &str, b: &str, expected: MutationClass) {
    assert_rs(a, b, expected);
    assert_rs(b, a, expected);
}

const MODULE: &str = r#"//! Shapes.
use std::fmt;

/// A circle.
#[derive(Debug, Clone)]
pub struct Circle {
    pub r: f64,
    cache: Option<f64>,
}

enum Kind {
    Round,
    Flat(u8),
}

pub(crate) trait Area {
    fn area(&self) -> f64;
    fn twice(&self) -> f64 {
        2.0 * self.area()
    }
}

impl Circle {
    pub fn new(r: f64) -> Self {
        Circle { r, cache: None }
    }

    fn grow(&mut self, by: f64) {
        self.r += by;
    }
}

impl fmt::Display for Circle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "circle {}", self.r)
    }
}

pub type Radius = f64;
pub const MAX: f64 = 10.0;
static COUNT: u32 = 0;

macro_rules! square {
    ($x:expr) => {
        $x * $x
    };
}

pub mod util {
    pub fn clamp(x: f64) -> f64 {
        x.min(super::MAX)
    }
    fn hidden() {}
}

fn helper() -> f64 {
    square!(2.0)
}
"#;

#[test]
fn blocks_are_items_impls_and_their_members() {
    let a = analyze_as("src/shapes.rs", MODULE);
    let kinds: Vec<(&str, BlockKind, bool)> = a
        .blocks
        .iter()
        .map(|b| (b.qualified_name.as_str(), b.kind, b.exported))
        .collect();
    assert_eq!(
        kinds,
        [
            ("Circle", BlockKind::Struct, true),
            ("Kind", BlockKind::Enum, false),
            ("Area", BlockKind::Trait, true),
            ("Area.area", BlockKind::Method, true),
            ("Area.twice", BlockKind::Method, true),
            ("Circle", BlockKind::Impl, true),
            ("Circle.new", BlockKind::Method, true),
            ("Circle.grow", BlockKind::Method, false),
            ("fmt::Display for Circle", BlockKind::Impl, true),
            ("fmt::Display for Circle.fmt", BlockKind::Method, true),
            ("Radius", BlockKind::TypeAlias, true),
            ("MAX", BlockKind::Const, true),
            ("COUNT", BlockKind::Static, false),
            ("square", BlockKind::Macro, false),
            ("util", BlockKind::Namespace, true),
            ("util.clamp", BlockKind::Function, true),
            ("util.hidden", BlockKind::Function, false),
            ("helper", BlockKind::Function, false),
        ]
    );
    assert!(a.errors.is_empty(), "{:?}", a.errors);
    assert_eq!(block(&a, "Circle.grow").lines.start, 28);
}

#[test]
fn reformatting_and_comments_are_refactors() {
    let before = "fn f(a: u8, b: u8) -> Vec<u8> {\n    let v = vec![a, b];\n    v\n}\n";
    let after = "fn f(\n    a: u8,\n    b: u8, // second\n) -> Vec<u8> {\n    /* the pair */\n    let v = vec![\n        a,\n        b,\n    ];\n    v\n}\n";
    assert_both(before, after, AstRefactor);
    assert_both("fn f() {}\n// a\n", "fn f() {}\n// b\n", AstRefactor);
    // Redundant parentheses.
    assert_both(
        "fn f(a: u8) -> u8 { (a + 1) * 2 }\n",
        "fn f(a: u8) -> u8 { ((a + 1)) * 2 }\n",
        AstRefactor,
    );
    // `(self.f)(x)` calls a field, `self.f(x)` a method.
    assert_both(
        "fn f(s: S) -> u8 { (s.g)(1) }\n",
        "fn f(s: S) -> u8 { s.g(1) }\n",
        IntentEvolution,
    );
    // A tail expression and a statement differ.
    assert_both(
        "fn f() -> u8 { g() }\n",
        "fn f() -> u8 { g(); }\n",
        IntentEvolution,
    );
}

#[test]
fn doc_comments_and_attributes_are_behaviour() {
    assert_both(
        "/// Adds.\npub fn f() {}\n",
        "/// Adds two.\npub fn f() {}\n",
        IntentEvolution,
    );
    assert_both(
        "//! Crate.\nfn f() {}\n",
        "//! The crate.\nfn f() {}\n",
        IntentEvolution,
    );
    assert_both(
        "/// Adds.\nfn f() {}\n",
        "// Adds.\nfn f() {}\n",
        IntentEvolution,
    );
    assert_both(
        "impl S {\n    /// Doc.\n    fn f(&self) {}\n}\n",
        "impl S {\n    /// Other doc.\n    fn f(&self) {}\n}\n",
        IntentEvolution,
    );
    // `////` is an ordinary comment.
    assert_both("//// a\nfn f() {}\n", "//// b\nfn f() {}\n", AstRefactor);
    assert_both(
        "#[derive(Debug)]\nstruct S;\n",
        "#[derive(Debug, Clone)]\nstruct S;\n",
        IntentEvolution,
    );
    assert_both("#[inline]\nfn f() {}\n", "fn f() {}\n", IntentEvolution);
    assert_both(
        "#[cfg(test)]\nmod tests {}\n",
        "#[cfg(not(test))]\nmod tests {}\n",
        IntentEvolution,
    );
    assert_both(
        "#![allow(dead_code)]\nfn f() {}\n",
        "fn f() {}\n",
        IntentEvolution,
    );
    // An attribute moved from one item to another.
    assert_both(
        "#[inline]\nfn a() {}\nfn b() {}\n",
        "fn a() {}\n#[inline]\nfn b() {}\n",
        IntentEvolution,
    );
    assert_both(
        "#[derive(Debug)]\nstruct A;\n#[derive(Clone)]\nstruct B;\n",
        "#[derive(Clone)]\nstruct A;\n#[derive(Debug)]\nstruct B;\n",
        IntentEvolution,
    );
    assert_both(
        "impl S {\n    #[inline]\n    fn a(&self) {}\n    fn b(&self) {}\n}\n",
        "impl S {\n    fn a(&self) {}\n    #[inline]\n    fn b(&self) {}\n}\n",
        IntentEvolution,
    );
}

#[test]
fn visibility_and_item_names_are_api() {
    assert_both("fn f() {}\n", "pub fn f() {}\n", IntentEvolution);
    assert_both("pub fn f() {}\n", "pub(crate) fn f() {}\n", IntentEvolution);
    assert_both("pub fn f() {}\n", "pub fn g() {}\n", IntentEvolution);
    // A private fn's name is still how the module reaches it.
    assert_both("fn f() {}\n", "fn g() {}\n", IntentEvolution);
    assert_both(
        "impl S {\n    fn f(&self) {}\n}\n",
        "impl S {\n    fn g(&self) {}\n}\n",
        IntentEvolution,
    );
    assert_both(
        "struct S { a: u8 }\n",
        "struct S { b: u8 }\n",
        IntentEvolution,
    );
}

#[test]
fn local_renames_are_refactors() {
    let before = "pub fn f(items: &[u8], scale: u8) -> u8 {\n    let mut total = 0;\n    for item in items {\n        total += item * scale;\n    }\n    let double = |v: u8| v * 2;\n    match total.checked_mul(2) {\n        Some(n) if n > MAX => double(n),\n        Some(n) => n,\n        None => 0,\n    }\n}\n";
    let after = "pub fn f(xs: &[u8], k: u8) -> u8 {\n    let mut acc = 0;\n    for x in xs {\n        acc += x * k;\n    }\n    let twice = |w: u8| w * 2;\n    match acc.checked_mul(2) {\n        Some(m) if m > MAX => twice(m),\n        Some(m) => m,\n        None => 0,\n    }\n}\n";
    assert_both(before, after, AstRefactor);
    // A local fn.
    assert_both(
        "fn f(x: u8) -> u8 {\n    fn helper(n: u8) -> u8 { n * 2 }\n    helper(x)\n}\n",
        "fn f(x: u8) -> u8 {\n    fn double(n: u8) -> u8 { n * 2 }\n    double(x)\n}\n",
        AstRefactor,
    );
    // if let / while let / let-else bindings.
    assert_both(
        "fn f(o: Option<u8>) -> u8 {\n    if let Some(v) = o { v } else { 0 }\n}\n",
        "fn f(o: Option<u8>) -> u8 {\n    if let Some(w) = o { w } else { 0 }\n}\n",
        AstRefactor,
    );
    assert_both(
        "fn f(o: Option<u8>) -> u8 {\n    let Some(v) = o else { return 0 };\n    v\n}\n",
        "fn f(o: Option<u8>) -> u8 {\n    let Some(w) = o else { return 0 };\n    w\n}\n",
        AstRefactor,
    );
    // Shadowing renamed away.
    assert_both(
        "fn f(s: &str) -> usize {\n    let s = s.trim();\n    s.len()\n}\n",
        "fn f(s: &str) -> usize {\n    let t = s.trim();\n    t.len()\n}\n",
        AstRefactor,
    );
}

#[test]
fn shadowing_is_resolved_in_order() {
    // Which binding a name reads is behaviour.
    assert_both(
        "fn f(x: u8, w: u8) -> u8 {\n    {\n        let y = x;\n        let x = 1;\n        y + x\n    }\n}\n",
        "fn f(x: u8, w: u8) -> u8 {\n    {\n        let y = w;\n        let w = 1;\n        y + w\n    }\n}\n",
        IntentEvolution,
    );
    assert_both(
        "fn f(a: u8) -> u8 {\n    let x = a;\n    let x = x + 1;\n    x\n}\n",
        "fn f(a: u8) -> u8 {\n    let x = a;\n    let y = x + 1;\n    x\n}\n",
        IntentEvolution,
    );
    // An `else` does not see the `if let` binding.
    assert_both(
        "fn f(y: u8, w: u8, o: Option<u8>) -> u8 {\n    if let Some(y) = o { 1 } else { y }\n}\n",
        "fn f(y: u8, w: u8, o: Option<u8>) -> u8 {\n    if let Some(w) = o { 1 } else { w }\n}\n",
        IntentEvolution,
    );
    // A `for` iterator does not see the loop variable.
    assert_both(
        "fn f(x: Vec<u8>, w: Vec<u8>) {\n    for x in x { g(x); }\n}\n",
        "fn f(x: Vec<u8>, w: Vec<u8>) {\n    for w in w { g(w); }\n}\n",
        IntentEvolution,
    );
    // let chains: the second `let` and the body see the first.
    assert_both(
        "fn f(o: Option<Option<u8>>) -> u8 {\n    if let Some(a) = o && let Some(b) = a { b } else { 0 }\n}\n",
        "fn f(o: Option<Option<u8>>) -> u8 {\n    if let Some(p) = o && let Some(q) = p { q } else { 0 }\n}\n",
        AstRefactor,
    );
}

#[test]
fn patterns_bind_only_lowercase_names() {
    // `None` and `MAX` are references, not bindings.
    assert_both(
        "fn f(o: Option<u8>) -> u8 {\n    match o { None => 0, Some(MAX) => 1, Some(n) => n }\n}\n",
        "fn f(o: Option<u8>) -> u8 {\n    match o { None => 0, Some(MIN) => 1, Some(n) => n }\n}\n",
        IntentEvolution,
    );
}

#[test]
fn macro_tokens_and_shorthand_fields_keep_names() {
    // A standard format macro's arguments are expressions: a local passed to one
    // renames like any other use.
    assert_both(
        "fn f(x: u8) {\n    println!(\"{}\", x);\n}\n",
        "fn f(y: u8) {\n    println!(\"{}\", y);\n}\n",
        AstRefactor,
    );
    assert_both(
        "fn f(s: &mut String, n: u8) {\n    writeln!(s, \"{} {}\", n, n.pow(2)).unwrap();\n}\n",
        "fn f(out: &mut String, k: u8) {\n    writeln!(out, \"{} {}\", k, k.pow(2)).unwrap();\n}\n",
        AstRefactor,
    );
    // Other macros' tokens are opaque; a method name or a named argument's name in a
    // format macro is kept, and so is everything in one holding a closure or braces.
    assert_both(
        "fn f(x: u8) {\n    trace_it!(x);\n}\n",
        "fn f(y: u8) {\n    trace_it!(y);\n}\n",
        IntentEvolution,
    );
    assert_both(
        "fn f(x: u8) {\n    println!(\"{n}\", n = x);\n}\n",
        "fn f(x: u8) {\n    println!(\"{m}\", m = x);\n}\n",
        IntentEvolution,
    );
    assert_both(
        "fn f(x: u8) {\n    println!(\"{:?}\", P { x });\n}\n",
        "fn f(y: u8) {\n    println!(\"{:?}\", P { y });\n}\n",
        IntentEvolution,
    );
    assert_both(
        "fn f(x: u8) -> String {\n    format!(\"{x}\")\n}\n",
        "fn f(y: u8) -> String {\n    format!(\"{y}\")\n}\n",
        IntentEvolution,
    );
    // Swapping which local a macro or a format string names.
    assert_both(
        "fn f() {\n    let x = 1;\n    let z = 2;\n    println!(\"{}\", x);\n}\n",
        "fn f() {\n    let z = 1;\n    let x = 2;\n    println!(\"{}\", x);\n}\n",
        IntentEvolution,
    );
    assert_both(
        "fn f() {\n    let x = 1;\n    let z = 2;\n    println!(\"{x}\");\n}\n",
        "fn f() {\n    let z = 1;\n    let x = 2;\n    println!(\"{x}\");\n}\n",
        IntentEvolution,
    );
    // A rename that does not touch a macro body.
    assert_both(
        "fn f(x: u8) {\n    let y = x + 1;\n    println!(\"{}\", 1);\n    g(y);\n}\n",
        "fn f(x: u8) {\n    let z = x + 1;\n    println!(\"{}\", 1);\n    g(z);\n}\n",
        AstRefactor,
    );
    // The shorthand names the field.
    assert_both(
        "fn f(x: u8) -> P {\n    P { x }\n}\n",
        "fn f(y: u8) -> P {\n    P { y }\n}\n",
        IntentEvolution,
    );
    assert_both(
        "fn f() -> P {\n    let x = 1;\n    let z = 2;\n    P { x }\n}\n",
        "fn f() -> P {\n    let z = 1;\n    let x = 2;\n    P { x }\n}\n",
        IntentEvolution,
    );
    assert_both(
        "fn f(p: P) -> u8 {\n    let P { x, .. } = p;\n    x\n}\n",
        "fn f(p: P) -> u8 {\n    let P { x: y, .. } = p;\n    y\n}\n",
        IntentEvolution,
    );
}

#[test]
fn statement_order_is_behaviour() {
    assert_both(
        "fn f() {\n    a();\n    b();\n}\n",
        "fn f() {\n    b();\n    a();\n}\n",
        IntentEvolution,
    );
}

#[test]
fn item_and_member_order_is_free_with_attributes_attached() {
    assert_both(
        "/// A.\n#[inline]\nfn a() {}\n\n#[cold]\nfn b() {}\n\nstruct S;\n",
        "struct S;\n\n#[cold]\nfn b() {}\n\n/// A.\n#[inline]\nfn a() {}\n",
        AstRefactor,
    );
    assert_both(
        "use std::fmt;\nuse std::io;\n\nfn a() {}\n",
        "use std::io;\nuse std::fmt;\n\nfn a() {}\n",
        AstRefactor,
    );
    assert_both(
        "impl S {\n    /// A.\n    #[inline]\n    pub fn a(&self) {}\n\n    const N: u8 = 1;\n\n    fn b(&self) {}\n}\n",
        "impl S {\n    fn b(&self) {}\n\n    /// A.\n    #[inline]\n    pub fn a(&self) {}\n\n    const N: u8 = 1;\n}\n",
        AstRefactor,
    );
    // Not across a macro definition: macros are scoped by textual order.
    assert_both(
        "macro_rules! m { () => {} }\nfn a() { m!() }\n",
        "fn a() { m!() }\nmacro_rules! m { () => {} }\n",
        IntentEvolution,
    );
}

#[test]
fn field_variant_and_arm_order_is_behaviour() {
    assert_both(
        "#[derive(PartialOrd)]\nstruct S { a: u8, b: u8 }\n",
        "#[derive(PartialOrd)]\nstruct S { b: u8, a: u8 }\n",
        IntentEvolution,
    );
    assert_both("enum E { A, B }\n", "enum E { B, A }\n", IntentEvolution);
    assert_both(
        "fn f(x: u8) -> u8 {\n    match x { 0 => 1, _ => 2 }\n}\n",
        "fn f(x: u8) -> u8 {\n    match x { _ => 2, 0 => 1 }\n}\n",
        IntentEvolution,
    );
}

#[test]
fn formatter_braces_and_use_lists_are_refactors() {
    assert_both(
        "fn f(o: Option<u8>) -> u8 {\n    o.map(|v| v + 1).unwrap_or(0)\n}\n",
        "fn f(o: Option<u8>) -> u8 {\n    o.map(|v| {\n        v + 1\n    }).unwrap_or(0)\n}\n",
        AstRefactor,
    );
    assert_both(
        "fn f(o: Option<u8>) -> u8 {\n    match o { Some(n) => n + 1, None => 0 }\n}\n",
        "fn f(o: Option<u8>) -> u8 {\n    match o {\n        Some(n) => {\n            n + 1\n        }\n        None => 0,\n    }\n}\n",
        AstRefactor,
    );
    // Elsewhere a block moves its value into a temporary.
    assert_both(
        "fn f(x: u8) -> u8 {\n    let r = &x;\n    *r\n}\n",
        "fn f(x: u8) -> u8 {\n    let r = &{ x };\n    *r\n}\n",
        IntentEvolution,
    );
    assert_both(
        "use std::io::{Write, BufRead, self};\n",
        "use std::io::{self, BufRead, Write};\n",
        AstRefactor,
    );
    assert_both(
        "use std::io::{Read, Write};\n",
        "use std::io::{Read};\n",
        IntentEvolution,
    );
}

#[test]
fn moves_between_glob_re_exported_private_modules_are_refactors() {
    let mod_rs = "mod a;\nmod b;\npub use a::*;\npub use b::*;\n";
    let f = "pub fn f() -> u8 {\n    1\n}\n";
    let before = [
        ("src/m/mod.rs", mod_rs),
        ("src/m/a.rs", f),
        ("src/m/b.rs", "pub fn g() {}\n"),
    ];
    let after_text = format!("pub fn g() {{}}\n{f}");
    let after = [
        ("src/m/mod.rs", mod_rs),
        ("src/m/a.rs", ""),
        ("src/m/b.rs", after_text.as_str()),
    ];
    assert_eq!(turn(&before, &after).mutation_class, AstRefactor);
    // A public module is reachable by its own path.
    let public = "pub mod a;\nmod b;\npub use a::*;\npub use b::*;\n";
    let before = [before[0], before[1], before[2]].map(|(p, t)| {
        if p == "src/m/mod.rs" {
            (p, public)
        } else {
            (p, t)
        }
    });
    let after = [after[0], after[1], after[2]].map(|(p, t)| {
        if p == "src/m/mod.rs" {
            (p, public)
        } else {
            (p, t)
        }
    });
    assert_eq!(turn(&before, &after).mutation_class, IntentEvolution);
}
