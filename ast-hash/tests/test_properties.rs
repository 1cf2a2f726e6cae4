//! Properties of the hashes over generated variants of sampled snippets.
//!
//! Snippets are written with one space between tokens and `$name` placeholders for
//! local bindings; the properties re-space them, rename the placeholders and mutate
//! single tokens.

use proptest::prelude::*;
use proptest::test_runner::Config;

use intent_ast_hash::{analyze, analyze_turn, SourceFile};

use crate::ts;

/// Token streams with explicit semicolons, so that line breaks never change meaning
/// except where the generator avoids them: after `return` or `let`, before `++`, `(`
/// or `[` (automatic semicolon insertion, and tree-sitter's reading of it).
const SNIPPETS: &[&str] = &[
    "export function total ( $items : number [ ] , $rate = 0.2 ) : number { let $sum = 0 ; for ( const $item of $items ) { $sum += $item * ( 1 + $rate ) ; } return $sum ; }",
    "export const pick = ( $obj : Record < string , number > , $keys : string [ ] ) => $keys . filter ( ( $k ) => $k in $obj && $obj [ $k ] > 1 ) . map ( ( $k ) => ( { key : $k , value : $obj [ $k ] } ) ) ;",
    "export class Queue { #items : string [ ] = [ ] ; push ( $value : string ) { if ( $value . length === 0 ) { throw new Error ( \"empty\" ) ; } this . #items . push ( $value ) ; } drain ( ) { const $out = this . #items ; this . #items = [ ] ; return $out . join ( \",\" ) ; } }",
    "export async function fetchAll ( $urls : string [ ] , $limit = 4 ) { const $results = [ ] ; let $i = 0 ; while ( $i < $urls . length ) { const $batch = $urls . slice ( $i , $i + $limit ) ; try { $results . push ( ... ( await Promise . all ( $batch . map ( fetch ) ) ) ) ; } catch ( $error ) { console . error ( $error , `batch` ) ; } $i += $limit ; } return $results ; }",
    "function helper ( $a : number , $b : number ) { const { x : $x , y = 2 } = { x : $a , y : $b } ; return $x > y ? $x - y : y ?? $x ; } export default helper ;",
];

const NAMES: &[&str] = &[
    "a", "b", "c", "val", "tmp", "acc", "idx", "entry", "node", "res", "q", "z9", "_p", "$d",
    "item2", "zz",
];

fn tokens(snippet: &str) -> Vec<&str> {
    snippet.split(' ').collect()
}

/// Joins tokens with the given separators, forcing a plain space where a line break
/// would trigger automatic semicolon insertion.
fn join(tokens: &[String], separators: &[&str]) -> String {
    let mut out = String::new();
    for (i, token) in tokens.iter().enumerate() {
        out.push_str(token);
        if let Some(next) = tokens.get(i + 1) {
            let sep = separators[i % separators.len()];
            let breaks = sep.contains('\n');
            // After these, tree-sitter (like ASI) may end the statement at a line break.
            let risky = matches!(
                token.as_str(),
                "return"
                    | "throw"
                    | "break"
                    | "continue"
                    | "yield"
                    | "async"
                    | "let"
                    | "const"
                    | "var"
                    | "static"
                    | "get"
                    | "set"
                    | "export"
                    | "default"
                    | "new"
                    | "await"
                    | "typeof"
                    | "void"
                    | "delete"
            ) || matches!(next.as_str(), "++" | "--" | "=>" | "(" | "[" | "<");
            out.push_str(if breaks && risky { " " } else { sep });
        }
    }
    out
}

fn separator() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        " ",
        "  ",
        "\n",
        "\n\n    ",
        "\t",
        " /* note */ ",
        "// line comment\n",
        "\r\n",
    ])
}

/// Replaces `$name` placeholders by `names` (one per distinct placeholder, in order).
fn bind(tokens: &[&str], names: &[&str]) -> Vec<String> {
    let mut seen: Vec<&str> = Vec::new();
    tokens
        .iter()
        .map(|t| match t.strip_prefix('$') {
            Some(placeholder) => {
                let index = seen
                    .iter()
                    .position(|s| *s == placeholder)
                    .unwrap_or_else(|| {
                        seen.push(placeholder);
                        seen.len() - 1
                    });
                names[index].to_string()
            }
            None => t.to_string(),
        })
        .collect()
}

fn canonical(tokens: &[&str]) -> Vec<String> {
    let placeholders: Vec<String> = (0..16).map(|i| format!("v{i}")).collect();
    let names: Vec<&str> = placeholders.iter().map(String::as_str).collect();
    bind(tokens, &names)
}

/// The replacements that change meaning, for operator and literal tokens.
fn mutation(token: &str) -> Option<String> {
    let swapped = match token {
        "+" => "-",
        "-" => "+",
        "*" => "/",
        ">" => ">=",
        "<" => "<=",
        "===" => "!==",
        "&&" => "||",
        "??" => "||",
        "+=" => "-=",
        "in" => "instanceof",
        "\"empty\"" => "\"blank\"",
        "\",\"" => "\";\"",
        _ => "",
    };
    if !swapped.is_empty() {
        return Some(swapped.to_string());
    }
    if let Ok(n) = token.parse::<f64>() {
        return Some(format!("{}", n + 1.0));
    }
    None
}

fn config() -> Config {
    Config {
        cases: 48,
        failure_persistence: None,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn reformatting_keeps_exact_and_alpha(
        snippet in prop::sample::select(SNIPPETS.to_vec()),
        separators in prop::collection::vec(separator(), 1..24),
    ) {
        let tokens = canonical(&tokens(snippet));
        let plain = tokens.join(" ");
        let spaced = join(&tokens, &separators);
        let (a, b) = (ts(&plain), ts(&spaced));
        prop_assert_eq!(a.exact, b.exact, "exact changed:\n{}\n---\n{}", plain, spaced);
        prop_assert_eq!(a.alpha, b.alpha);
    }

    #[test]
    fn renaming_locals_keeps_alpha(
        snippet in prop::sample::select(SNIPPETS.to_vec()),
        names in prop::sample::subsequence(NAMES.to_vec(), 8..=8).prop_shuffle(),
    ) {
        let raw = tokens(snippet);
        let base = canonical(&raw).join(" ");
        let renamed = bind(&raw, &names).join(" ");
        prop_assert_eq!(ts(&base).alpha, ts(&renamed).alpha, "alpha changed:\n{}\n---\n{}", base, renamed);
    }

    #[test]
    fn changing_one_operator_or_literal_changes_alpha(
        snippet in prop::sample::select(SNIPPETS.to_vec()),
        pick in any::<prop::sample::Index>(),
    ) {
        let tokens = canonical(&tokens(snippet));
        let candidates: Vec<usize> = (0..tokens.len()).filter(|&i| mutation(&tokens[i]).is_some()).collect();
        prop_assume!(!candidates.is_empty());
        let at = candidates[pick.index(candidates.len())];
        let mut changed = tokens.clone();
        changed[at] = mutation(&tokens[at]).unwrap();
        let (a, b) = (tokens.join(" "), changed.join(" "));
        prop_assert_ne!(ts(&a).alpha, ts(&b).alpha, "alpha kept:\n{}\n---\n{}", a, b);
        prop_assert_ne!(ts(&a).exact, ts(&b).exact);
    }
}

proptest! {
    #![proptest_config(config())]

    /// The after side of a turn re-parses incrementally from the before tree; it must
    /// hash exactly like a fresh parse, whatever the edit (even one that breaks syntax).
    #[test]
    fn incremental_parse_matches_fresh_parse(
        base in prop::sample::select(SNIPPETS.to_vec()),
        donor in prop::sample::select(SNIPPETS.to_vec()),
        at in any::<prop::sample::Index>(),
        len in 0usize..12,
        from in any::<prop::sample::Index>(),
        take in 0usize..12,
        separators in prop::collection::vec(separator(), 1..8),
    ) {
        let base = canonical(&tokens(base));
        let donor = canonical(&tokens(donor));
        let start = at.index(base.len());
        let end = (start + len).min(base.len());
        let from = from.index(donor.len());
        let mut edited = base[..start].to_vec();
        edited.extend_from_slice(&donor[from..(from + take).min(donor.len())]);
        edited.extend_from_slice(&base[end..]);
        let (before, after) = (join(&base, &[" "]), join(&edited, &separators));
        let turn = analyze_turn(&[SourceFile::new("a.ts", before.clone())], &[SourceFile::new("a.ts", after.clone())]);
        let fresh = analyze(&SourceFile::new("a.ts", after.clone()));
        let incremental = &turn.after[0];
        prop_assert_eq!(incremental.hashes, fresh.hashes, "{}\n---\n{}", before, after);
        prop_assert_eq!(&incremental.blocks, &fresh.blocks);
        prop_assert_eq!(&incremental.errors, &fresh.errors);
    }

    /// The same for edits that keep the code valid (no fallback to a fresh parse).
    #[test]
    fn incremental_parse_of_valid_edits_matches_fresh_parse(
        snippet in prop::sample::select(SNIPPETS.to_vec()),
        picks in prop::collection::vec(any::<prop::sample::Index>(), 1..4),
        separators in prop::collection::vec(separator(), 1..6),
    ) {
        let tokens = canonical(&tokens(snippet));
        let candidates: Vec<usize> = (0..tokens.len()).filter(|&i| mutation(&tokens[i]).is_some()).collect();
        let mut edited = tokens.clone();
        for pick in picks {
            let at = candidates[pick.index(candidates.len())];
            edited[at] = mutation(&tokens[at]).unwrap();
        }
        let spaced = join(&edited, &separators);
        let before = tokens.join(" ");
        let turn = analyze_turn(&[SourceFile::new("a.ts", before)], &[SourceFile::new("a.ts", spaced.clone())]);
        let fresh = analyze(&SourceFile::new("a.ts", spaced.clone()));
        // `<` may be a type argument list: such a mutation is not a valid edit.
        prop_assume!(fresh.errors.is_empty());
        prop_assert_eq!(turn.after[0].hashes, fresh.hashes, "{}", spaced);
        prop_assert_eq!(&turn.after[0].blocks, &fresh.blocks);
    }
}

#[test]
fn snippets_parse_cleanly() {
    for snippet in SNIPPETS {
        let text = canonical(&tokens(snippet)).join(" ");
        let analysis = crate::analyze_as("a.ts", &text);
        assert!(analysis.errors.is_empty(), "{text}\n{:?}", analysis.errors);
    }
}
