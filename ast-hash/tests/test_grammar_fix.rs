//! The vendored TypeScript grammar's scanner fix (`vendor/tree-sitter-typescript/
//! PATCHED.md`): a generic call signature on its own line after a member without a
//! separator parses, as TypeScript reads it, and expressions still read `<` on a new
//! line as a comparison.

use intent_ast_hash::{analyze, stored, SourceFile};

/// From hono's `src/context.ts`, where the unpatched grammar reported 11 errors.
const CALL_SIGNATURES: &str = "interface Get<E extends Env> {
  <Key extends keyof E['Variables']>(key: Key): E['Variables'][Key]
  <Key extends keyof ContextVariableMap>(key: Key): ContextVariableMap[Key]
}

type UseStateType = {
  <T>(initialState: T | (() => T)): [T, UpdateStateFunction<T>]
  <T = undefined>(): [T | undefined, UpdateStateFunction<T | undefined>]
}

export function after(x: number): number {
  return x + 1
}
";

#[test]
fn generic_call_signatures_on_their_own_lines_parse_without_errors() {
    for path in ["src/context.ts", "src/context.tsx"] {
        let analysis = analyze(&SourceFile::new(path, CALL_SIGNATURES));
        assert_eq!(analysis.errors, Vec::new(), "{path}");
        let names: Vec<&str> = analysis.blocks.iter().map(|b| b.name.as_str()).collect();
        for name in ["Get", "UseStateType", "after"] {
            assert!(
                names.contains(&name),
                "{path}: {name} missing from {names:?}"
            );
        }
        let after = analysis.blocks.iter().find(|b| b.name == "after").unwrap();
        assert_eq!((after.lines.start, after.lines.end), (11, 13), "{path}");
    }
}

#[test]
fn a_less_than_on_a_new_line_in_an_expression_is_still_a_comparison() {
    // With a semicolon inserted, `< b` would start a statement and fail to parse.
    let source =
        "export function smaller(a: number, b: number): boolean {\n  return a\n    < b\n}\n";
    let analysis = analyze(&SourceFile::new("src/cmp.ts", source));
    assert_eq!(analysis.errors, Vec::new());
    assert_eq!(analysis.blocks.len(), 1);
}

#[test]
fn an_analysis_stored_under_another_grammar_revision_is_not_restored() {
    let file = SourceFile::new("src/context.ts", CALL_SIGNATURES);
    let mut bytes = stored::encode(&analyze(&file));
    assert!(stored::decode(&bytes, &file).is_some());
    // The revision is the last field (a postcard varint below 128: one byte).
    *bytes.last_mut().unwrap() = u8::try_from(stored::GRAMMAR_REVISION + 1).unwrap();
    assert!(stored::decode(&bytes, &file).is_none());
}
