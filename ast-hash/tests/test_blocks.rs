//! Block extraction per language: kinds, qualified names, lines, parents, errors.

use intent_ast_hash::{BlockKind, ParseErrorKind};

use crate::{analyze_as, block};

const SERVICE: &str = r#"import { Token } from "./token";

/** Verifies tokens. */
export class AuthService {
  private readonly secret: string;
  #cache = new Map<string, Token>();

  constructor(secret: string) {
    this.secret = secret;
  }

  get size(): number {
    return this.#cache.size;
  }

  set size(value: number) {}

  verify(token: string): boolean {
    return token.length > 0;
  }

  private sign(payload: object): string {
    return JSON.stringify(payload);
  }
}

export interface Claims {
  sub: string;
  exp: number;
}

export type Role = "admin" | "user";

export enum Level {
  Low,
  High,
}

export namespace Util {
  export function pad(text: string) {
    return text.padStart(2);
  }
}

export const handler = async (event: unknown) => {
  return event;
};

const config = { retries: 3 };

let counter = 0;

export default function main() {}

function helper(a: number): number;
function helper(a: any) {
  return a;
}
"#;

#[test]
fn typescript_blocks_have_kinds_names_and_parents() {
    let a = analyze_as("src/auth.ts", SERVICE);
    assert!(a.errors.is_empty(), "{:?}", a.errors);
    let expect = [
        ("AuthService", BlockKind::Class, None),
        ("AuthService.secret", BlockKind::Field, Some("AuthService")),
        ("AuthService.#cache", BlockKind::Field, Some("AuthService")),
        (
            "AuthService.constructor",
            BlockKind::Method,
            Some("AuthService"),
        ),
        ("AuthService.size", BlockKind::Getter, Some("AuthService")),
        ("AuthService.verify", BlockKind::Method, Some("AuthService")),
        ("AuthService.sign", BlockKind::Method, Some("AuthService")),
        ("Claims", BlockKind::Interface, None),
        ("Role", BlockKind::TypeAlias, None),
        ("Level", BlockKind::Enum, None),
        ("Util", BlockKind::Namespace, None),
        ("Util.pad", BlockKind::Function, Some("Util")),
        ("handler", BlockKind::Const, None),
        ("config", BlockKind::Const, None),
        ("counter", BlockKind::Let, None),
        ("main", BlockKind::Function, None),
        ("helper", BlockKind::Function, None),
    ];
    for (name, kind, parent) in expect {
        let b = block(&a, name);
        assert_eq!(b.kind, kind, "{name}");
        let parent_name = b.parent.map(|p| a.blocks[p].qualified_name.as_str());
        assert_eq!(parent_name, parent, "{name}");
    }
    let setters: Vec<_> = a
        .blocks
        .iter()
        .filter(|b| b.kind == BlockKind::Setter)
        .collect();
    assert_eq!(setters.len(), 1);
    assert_eq!(setters[0].qualified_name, "AuthService.size");
    assert_eq!(
        a.blocks.iter().filter(|b| b.name == "helper").count(),
        2,
        "an overload and its implementation"
    );
    // Nothing inside function bodies is a block.
    assert!(!a
        .blocks
        .iter()
        .any(|b| b.name == "token" || b.name == "event"));
}

#[test]
fn line_and_byte_ranges_are_one_based_and_inclusive() {
    let a = analyze_as("src/auth.ts", SERVICE);
    let class = block(&a, "AuthService");
    assert_eq!((class.lines.start, class.lines.end), (4, 25));
    let verify = block(&a, "AuthService.verify");
    assert_eq!((verify.lines.start, verify.lines.end), (18, 20));
    assert!(a.block_text(verify).starts_with("verify(token: string)"));
    assert!(a.block_text(class).starts_with("class AuthService"));
}

#[test]
fn exported_marks_the_api_surface() {
    let a = analyze_as("src/auth.ts", SERVICE);
    assert!(block(&a, "AuthService").exported);
    assert!(block(&a, "AuthService.verify").exported);
    assert!(!block(&a, "AuthService.sign").exported, "private member");
    assert!(!block(&a, "AuthService.#cache").exported, "#private member");
    assert!(block(&a, "Util.pad").exported);
    assert!(!block(&a, "config").exported);
    assert!(block(&a, "main").exported);
}

#[test]
fn anonymous_default_exports_are_named_default() {
    let a = analyze_as("a.ts", "export default () => 1;");
    assert_eq!(block(&a, "default").kind, BlockKind::Function);
    let b = analyze_as("a.ts", "export default { name: 'x' };");
    assert_eq!(block(&b, "default").kind, BlockKind::Default);
    let c = analyze_as("a.ts", "export default class { m() {} }");
    assert_eq!(block(&c, "default.m").kind, BlockKind::Method);
}

#[test]
fn destructuring_declarations_are_not_blocks() {
    let a = analyze_as("a.ts", "const { a, b } = load();\nconst [c] = list;\n");
    assert!(a.blocks.is_empty(), "{:?}", a.blocks);
}

#[test]
fn javascript_and_jsx_blocks() {
    let src = r#"
class Counter extends Component {
  state = { n: 0 };
  render() {
    return <button onClick={() => this.inc()}>{this.state.n}</button>;
  }
}
function* ids() { yield 1; }
module.exports = { Counter };
"#;
    for path in ["a.js", "a.jsx", "a.mjs", "a.cjs"] {
        let a = analyze_as(path, src);
        assert_eq!(a.language, Some("javascript"), "{path}");
        assert!(a.errors.is_empty(), "{path}: {:?}", a.errors);
        assert_eq!(block(&a, "Counter.state").kind, BlockKind::Field);
        assert_eq!(block(&a, "Counter.render").kind, BlockKind::Method);
        assert_eq!(block(&a, "ids").kind, BlockKind::Function);
    }
}

#[test]
fn tsx_uses_the_tsx_grammar() {
    let a = analyze_as(
        "src/App.tsx",
        "export function App(): JSX.Element { return <div className=\"x\">hi</div>; }",
    );
    assert_eq!(a.language, Some("tsx"));
    assert!(a.errors.is_empty());
    assert_eq!(block(&a, "App").kind, BlockKind::Function);
    // The same text as plain TypeScript does not parse.
    assert!(!analyze_as(
        "src/App.ts",
        "export function App() { return <div className=\"x\">hi</div>; }"
    )
    .errors
    .is_empty());
}

#[test]
fn files_without_grammar_have_no_blocks() {
    for path in ["README.md", "package.json", "Makefile", "src/main.c"] {
        let a = analyze_as(path, "anything");
        assert_eq!(a.language, None, "{path}");
        assert!(a.blocks.is_empty() && a.hashes.is_none());
    }
}

#[test]
fn parse_errors_are_located() {
    let a = analyze_as("src/a.ts", "export function f() {\n  return 1 +;\n}\n");
    assert!(!a.errors.is_empty());
    let first = &a.errors[0];
    assert_eq!(first.line, 2, "{:?}", a.errors);
    assert!(first.column >= 3, "{:?}", a.errors);
    let b = analyze_as("src/a.ts", "export function f() {\n  return (1;\n}\n");
    assert!(b
        .errors
        .iter()
        .any(|e| e.kind == ParseErrorKind::Missing || e.kind == ParseErrorKind::Unexpected));
    let c = analyze_as("src/a.ts", "export function f() { return 1; }\n");
    assert!(c.errors.is_empty());
}
