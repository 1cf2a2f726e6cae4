//! Reads `{path: text}` (JSON) on stdin and prints `{path: [{name, kind, start, end}]}`
//! or `{path: {"error": ..}}`: the blocks of each Rust file by `syn`, named and
//! spanned the way `intent` names blocks (ast-hash/src/lang/rust/):
//!
//! - items at module level and in `mod { .. }` bodies (`fn` → `function`, `struct`
//!   and `union` → `struct`, `enum`, `trait`, `type` → `type_alias`, `const`,
//!   `static`, `macro_rules!` → `macro`, `mod` (with or without a body) →
//!   `namespace`, `impl`); items of a `mod` body are children named `m.item`;
//! - members of `impl` and `trait` bodies as children: `fn` → `method`, `const`,
//!   `type` → `type_alias`, named `Impl.member`;
//! - an `impl` is named after its type, or `Trait for Type` (`!Trait for Type` for a
//!   negative impl), whitespace removed inside the trait and the type;
//! - functions and statics of an `extern { .. }` block are top-level blocks;
//! - items inside function bodies are not blocks;
//! - a block's lines exclude its outer attributes and doc comments (tree-sitter
//!   makes them siblings of the item): from the first token after them (the
//!   visibility or the keyword) to the item's last token.

use std::io::Read as _;

use proc_macro2::{Delimiter, TokenTree};
use quote::ToTokens;
use serde_json::{json, Map, Value};
use syn::{ForeignItem, ImplItem, Item, TraitItem};

/// The first and last lines of `node`'s tokens after its outer attributes.
fn lines(node: &dyn ToTokens) -> (usize, usize) {
    let tokens: Vec<TokenTree> = node.to_token_stream().into_iter().collect();
    let mut i = 0;
    // `#[..]` (a doc comment is `#[doc = ".."]` with the comment's span).
    while i + 1 < tokens.len() {
        match (&tokens[i], &tokens[i + 1]) {
            (TokenTree::Punct(p), TokenTree::Group(g))
                if p.as_char() == '#' && g.delimiter() == Delimiter::Bracket =>
            {
                i += 2
            }
            _ => break,
        }
    }
    let located: Vec<&TokenTree> = tokens[i..]
        .iter()
        .filter(|t| t.span().start().line > 0)
        .collect();
    let start = located.first().map_or(0, |t| t.span().start().line);
    let end = located.last().map_or(0, |t| t.span().end().line);
    (start, end)
}

/// Token text with all whitespace removed, as `intent` names impl blocks.
fn squeezed(node: &dyn ToTokens) -> String {
    node.to_token_stream()
        .to_string()
        .split_whitespace()
        .collect()
}

struct Out(Vec<Value>);

impl Out {
    fn add(&mut self, name: String, kind: &str, node: &dyn ToTokens) {
        let (start, end) = lines(node);
        self.0
            .push(json!({"name": name, "kind": kind, "start": start, "end": end}));
    }
}

fn items(list: &[Item], prefix: &str, out: &mut Out) {
    for item in list {
        let named = |ident: &syn::Ident| format!("{prefix}{ident}");
        match item {
            Item::Fn(f) => out.add(named(&f.sig.ident), "function", f),
            Item::Struct(s) => out.add(named(&s.ident), "struct", s),
            Item::Union(u) => out.add(named(&u.ident), "struct", u),
            Item::Enum(e) => out.add(named(&e.ident), "enum", e),
            Item::Type(t) => out.add(named(&t.ident), "type_alias", t),
            Item::Const(c) => out.add(named(&c.ident), "const", c),
            Item::Static(s) => out.add(named(&s.ident), "static", s),
            Item::Macro(m) => {
                if let Some(ident) = &m.ident {
                    out.add(named(ident), "macro", m);
                }
            }
            Item::Mod(m) => {
                let name = named(&m.ident);
                out.add(name.clone(), "namespace", m);
                if let Some((_, content)) = &m.content {
                    items(content, &format!("{name}."), out);
                }
            }
            Item::Trait(t) => {
                let name = named(&t.ident);
                out.add(name.clone(), "trait", t);
                for member in &t.items {
                    match member {
                        TraitItem::Fn(f) => out.add(format!("{name}.{}", f.sig.ident), "method", f),
                        TraitItem::Const(c) => out.add(format!("{name}.{}", c.ident), "const", c),
                        TraitItem::Type(t) => {
                            out.add(format!("{name}.{}", t.ident), "type_alias", t)
                        }
                        _ => {}
                    }
                }
            }
            Item::Impl(i) => {
                let ty = squeezed(&i.self_ty);
                let own = match &i.trait_ {
                    Some((bang, path, _)) => {
                        let bang = if bang.is_some() { "!" } else { "" };
                        format!("{bang}{} for {ty}", squeezed(path))
                    }
                    None => ty,
                };
                let name = format!("{prefix}{own}");
                out.add(name.clone(), "impl", i);
                for member in &i.items {
                    match member {
                        ImplItem::Fn(f) => out.add(format!("{name}.{}", f.sig.ident), "method", f),
                        ImplItem::Const(c) => out.add(format!("{name}.{}", c.ident), "const", c),
                        ImplItem::Type(t) => {
                            out.add(format!("{name}.{}", t.ident), "type_alias", t)
                        }
                        _ => {}
                    }
                }
            }
            Item::ForeignMod(m) => {
                for member in &m.items {
                    match member {
                        ForeignItem::Fn(f) => out.add(named(&f.sig.ident), "function", f),
                        ForeignItem::Static(s) => out.add(named(&s.ident), "static", s),
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
}

fn analyze(text: &str) -> Value {
    match syn::parse_file(text) {
        Ok(file) => {
            let mut out = Out(Vec::new());
            items(&file.items, "", &mut out);
            Value::Array(out.0)
        }
        Err(e) => {
            let at = e.span().start();
            json!({ "error": format!("{}:{}: {e}", at.line, at.column + 1) })
        }
    }
}

fn main() {
    let mut input = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut input) {
        eprintln!("rust-truth: stdin: {e}");
        std::process::exit(1);
    }
    let files: Map<String, Value> = match serde_json::from_str(&input) {
        Ok(files) => files,
        Err(e) => {
            eprintln!("rust-truth: input: {e}");
            std::process::exit(1);
        }
    };
    let result: Map<String, Value> = files
        .iter()
        .map(|(path, text)| (path.clone(), analyze(text.as_str().unwrap_or(""))))
        .collect();
    println!("{}", Value::Object(result));
}
