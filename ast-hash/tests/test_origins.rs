//! Splits and merges: where code that appeared in a turn came from, and the block
//! text hashes and keys that tell a touched block and name it uniquely.

use intent_ast_hash::{find_origins, match_blocks, LineageEvent, OriginKind};

use crate::analyze_as;

const BIG: &str = "export function handle(req: { name: string; age: number }) {\n  if (req.name.length === 0 || req.age < 0 || req.age > 150) {\n    throw new Error('invalid request: ' + req.name);\n  }\n  return req.name.toUpperCase();\n}\n";
const SPLIT: &str = "export function handle(req: { name: string; age: number }) {\n  validate(req);\n  return req.name.toUpperCase();\n}\n\nfunction validate(req: { name: string; age: number }) {\n  if (req.name.length === 0 || req.age < 0 || req.age > 150) {\n    throw new Error('invalid request: ' + req.name);\n  }\n}\n";

#[test]
fn an_extracted_function_is_split_from_the_one_it_left() {
    let before = [analyze_as("src/h.ts", BIG)];
    let after = [analyze_as("src/h.ts", SPLIT)];
    let matches = match_blocks(&before, &after);
    let origins = find_origins(&before, &after, &matches);
    assert_eq!(origins.len(), 1, "{origins:#?}");
    let origin = &origins[0];
    assert_eq!(origin.kind, OriginKind::Split);
    assert_eq!(origin.from.qualified_name, "handle");
    let target = &matches[origin.target];
    assert_eq!(target.event, LineageEvent::Created);
    assert_eq!(target.after.as_ref().unwrap().qualified_name, "validate");
    assert!(origin.share >= intent_ast_hash::MIN_SHARE);
}

#[test]
fn an_inlined_function_is_merged_into_the_one_that_took_it_in() {
    let before = [analyze_as("src/h.ts", SPLIT)];
    let after = [analyze_as("src/h.ts", BIG)];
    let matches = match_blocks(&before, &after);
    let origins = find_origins(&before, &after, &matches);
    assert_eq!(origins.len(), 1, "{origins:#?}");
    assert_eq!(origins[0].kind, OriginKind::Merge);
    assert_eq!(origins[0].from.qualified_name, "validate");
    let target = &matches[origins[0].target];
    assert_eq!(target.after.as_ref().unwrap().qualified_name, "handle");
}

#[test]
fn unrelated_new_code_and_small_blocks_have_no_origin() {
    let before = [analyze_as("src/h.ts", BIG)];
    let grown = format!("{BIG}\nexport function other(list: number[]) {{\n  return list.filter((n) => n % 2 === 1).map((n) => n * 3).join('-');\n}}\nconst x = 1;\n");
    let after = [analyze_as("src/h.ts", &grown)];
    let matches = match_blocks(&before, &after);
    assert!(find_origins(&before, &after, &matches).is_empty());
}

#[test]
fn comment_and_whitespace_edits_are_reformats_and_keys_are_unique() {
    let v1 = "export class A {\n  run() {\n    return 1;\n  }\n}\n";
    let v2 = "export class A {\n  run() {\n    // @ts-ignore\n    return  1;\n  }\n}\n";
    let (before, after) = ([analyze_as("a.ts", v1)], [analyze_as("a.ts", v2)]);
    let matches = match_blocks(&before, &after);
    let run = matches
        .iter()
        .find(|m| {
            m.after
                .as_ref()
                .is_some_and(|a| a.qualified_name == "A.run")
        })
        .unwrap();
    assert_eq!(run.event, LineageEvent::Reformatted);
    assert!(run.retexted && !run.retokened);
    let (b, a) = (&before[0], &after[0]);
    assert_ne!(
        b.block_text_hash(&b.blocks[1]),
        a.block_text_hash(&a.blocks[1])
    );
    assert_eq!(b.blocks[1].hashes.exact, a.blocks[1].hashes.exact);

    // A semicolon after a field is outside the field's node but on its line: a
    // line-based reader sees the field's line change, and so does its story.
    let (b, a) = (
        [analyze_as("f.ts", "class F {\n  x = 1\n}\n")],
        [analyze_as("f.ts", "class F {\n  x = 1;\n}\n")],
    );
    let field = match_blocks(&b, &a)
        .into_iter()
        .find(|m| m.after.as_ref().is_some_and(|r| r.qualified_name == "F.x"))
        .unwrap();
    assert_eq!(field.event, LineageEvent::Reformatted);
    assert_eq!(a[0].block_lines_text(&a[0].blocks[1]), "  x = 1;");

    let overloads = analyze_as(
        "o.ts",
        "export function f(a: string): void;\nexport function f(a: number): void;\nexport function f(a: any) {}\n",
    );
    let keys: Vec<String> = (0..overloads.blocks.len())
        .map(|i| overloads.block_key(i))
        .collect();
    assert_eq!(keys, ["f", "f#2", "f#3"]);
    assert_eq!(overloads.block_keys(), keys);
}

/// Found on the Go and Rust replays: punctuation and keywords made unrelated short
/// blocks look alike (a deleted test "merged" into an impl; a method "renamed" into
/// another type's method), and a template string was one token, so editing it lost
/// the block's identity.
#[test]
fn unrelated_short_blocks_are_not_linked_and_edited_templates_keep_their_identity() {
    let before = [analyze_as(
        "src/a.rs",
        "impl S {\n    fn f(&self) -> u8 {\n        self.x\n    }\n}\n\n#[test]\nfn verify_app() {\n    build_app().debug_assert()\n}\n",
    )];
    let after = [analyze_as(
        "src/a.rs",
        "impl S {\n    fn f(&self) -> u8 {\n        self.x\n    }\n\n    fn g(&self) -> u8 {\n        self.y\n    }\n}\n",
    )];
    let matches = match_blocks(&before, &after);
    let origins = find_origins(&before, &after, &matches);
    assert!(origins.is_empty(), "{origins:#?}");

    let before = [analyze_as(
        "flag.go",
        "package cli\n\nfunc (f *DurationFlag) RunAction(c *Context) error {\n\tif f.Action != nil {\n\t\treturn f.Action(c, c.Duration(f.Name))\n\t}\n\treturn nil\n}\n",
    )];
    let after = [analyze_as(
        "flag.go",
        "package cli\n\nfunc (i durationValue) Create(val time.Duration, p *time.Duration, c NoConfig) Value {\n\t*p = val\n\treturn (*durationValue)(p)\n}\n",
    )];
    let matches = match_blocks(&before, &after);
    assert!(
        matches.iter().all(|m| m.event != LineageEvent::Renamed),
        "{matches:#?}"
    );

    let template = |name: &str, field: &str| {
        format!("package cli\n\nvar {name} = `NAME:\n   {{{{.{field}}}}} - {{{{.Usage}}}}\n\nUSAGE:\n   {{{{.{field}}}}} [global options] command [command options] [arguments...]\n\nVERSION:\n   {{{{.Version}}}}\n\nCOMMANDS:\n{{{{range .Commands}}}}   {{{{join .Names \", \"}}}}{{{{ \"\\t\" }}}}{{{{.Usage}}}}\n{{{{end}}}}`\n")
    };
    let before = [analyze_as(
        "template.go",
        &template("AppHelpTemplate", "HelpName"),
    )];
    let after = [analyze_as(
        "template.go",
        &template("RootCommandHelpTemplate", "FullName"),
    )];
    let matches = match_blocks(&before, &after);
    assert_eq!(matches.len(), 1, "{matches:#?}");
    assert_eq!(matches[0].event, LineageEvent::Renamed, "{matches:#?}");
}
