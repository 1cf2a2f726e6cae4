//! Block identity across versions: one lineage event per block.

use intent_ast_hash::{analyze, match_blocks, BlockMatch, FileAnalysis, LineageEvent, MatchedBy};

use crate::files;

fn analyses(pairs: &[(&str, &str)]) -> Vec<FileAnalysis> {
    files(pairs).iter().map(analyze).collect()
}

fn event_of<'m>(matches: &'m [BlockMatch], name: &str) -> &'m BlockMatch {
    matches
        .iter()
        .find(|m| {
            m.after
                .as_ref()
                .or(m.before.as_ref())
                .is_some_and(|b| b.qualified_name == name)
        })
        .unwrap_or_else(|| panic!("no match for `{name}`: {matches:#?}"))
}

const BEFORE: &str = r#"
export function parse(input: string) {
  return input.split(",").map((part) => part.trim());
}

export function total(values: number[]) {
  let sum = 0;
  for (const v of values) sum += v;
  return sum;
}

function unused() {
  return 42;
}

export class Cart {
  add(item: string) { this.items.push(item); }
  clear() { this.items = []; }
}
"#;

const AFTER: &str = r#"
export function total(values: number[]) {
  let acc = 0;
  for (const value of values) acc += value;
  return acc;
}

export function parse(input: string) {
  return input.split(";").map((part) => part.trim());
}

export class Cart {
  clear() { this.items = []; }
  add(item: string) { this.items.push(item); }
  count() { return this.items.length; }
}

export function average(values: number[]) {
  return total(values) / values.length;
}
"#;

#[test]
fn lineage_events_in_one_file() {
    let matches = match_blocks(
        &analyses(&[("src/a.ts", BEFORE)]),
        &analyses(&[("src/a.ts", AFTER)]),
    );
    let parse = event_of(&matches, "parse");
    assert!(parse.modified, "a literal changed");
    assert_eq!(parse.matched_by, Some(MatchedBy::Name));
    let total = event_of(&matches, "total");
    assert!(!total.modified && total.retokened, "locals renamed");
    assert_eq!(total.matched_by, Some(MatchedBy::Alpha));
    // The two swapped: one of them moved, the other stayed (and was modified or refactored).
    let events = (parse.event, total.event);
    assert!(
        events == (LineageEvent::Moved, LineageEvent::Refactored)
            || events == (LineageEvent::Modified, LineageEvent::Moved),
        "{events:?}"
    );
    assert_eq!(event_of(&matches, "unused").event, LineageEvent::Deleted);
    assert_eq!(event_of(&matches, "average").event, LineageEvent::Created);
    assert_eq!(
        event_of(&matches, "Cart.count").event,
        LineageEvent::Created
    );
    assert_eq!(event_of(&matches, "Cart").event, LineageEvent::Modified);
    let moved_members = ["Cart.add", "Cart.clear"]
        .iter()
        .filter(|n| event_of(&matches, n).event == LineageEvent::Moved)
        .count();
    assert_eq!(moved_members, 1, "one of the two swapped methods moved");
    // Every block of both sides appears exactly once.
    let befores = matches.iter().filter(|m| m.before.is_some()).count();
    let afters = matches.iter().filter(|m| m.after.is_some()).count();
    assert_eq!((befores, afters), (6, 7));
}

#[test]
fn unchanged_and_refactored_blocks() {
    let before = analyses(&[(
        "a.ts",
        "export function f(a: number) { return a; }\nexport const g = 1;\n",
    )]);
    let after = analyses(&[(
        "a.ts",
        "export function f(b: number) {\n  return b;\n}\nexport const g = 1;\n",
    )]);
    let matches = match_blocks(&before, &after);
    assert_eq!(event_of(&matches, "f").event, LineageEvent::Refactored);
    assert_eq!(event_of(&matches, "g").event, LineageEvent::Unchanged);
    assert_eq!(event_of(&matches, "g").matched_by, Some(MatchedBy::Exact));
}

#[test]
fn moves_across_files_are_found() {
    let f = "export function helper(x: number) {\n  return x * 2;\n}\n";
    let before = analyses(&[("src/a.ts", f), ("src/b.ts", "export const b = 1;\n")]);
    let after = analyses(&[
        ("src/a.ts", ""),
        ("src/b.ts", &format!("export const b = 1;\n{f}")),
    ]);
    let matches = match_blocks(&before, &after);
    let m = event_of(&matches, "helper");
    assert_eq!(m.event, LineageEvent::Moved);
    assert_eq!(m.before.as_ref().unwrap().path, "src/a.ts");
    assert_eq!(m.after.as_ref().unwrap().path, "src/b.ts");
    assert_eq!(
        (
            m.before.as_ref().unwrap().file,
            m.after.as_ref().unwrap().file
        ),
        (0, 1)
    );
}

#[test]
fn renames_are_found_by_shape_and_similarity() {
    let before = analyses(&[("a.ts", "export function computeTotal(items: number[]) {\n  return items.reduce((a, b) => a + b, 0) * 1.2;\n}\n")]);
    let after = analyses(&[("a.ts", "export function grandTotal(items: number[]) {\n  return items.reduce((a, b) => a + b, 0) * 1.2;\n}\n")]);
    let matches = match_blocks(&before, &after);
    assert_eq!(matches.len(), 1);
    let m = &matches[0];
    assert_eq!(m.event, LineageEvent::Renamed);
    assert_eq!(m.matched_by, Some(MatchedBy::Similarity));
    assert!(m.similarity.unwrap() >= intent_ast_hash::matching::SIMILAR_SAME_SHAPE);
}

#[test]
fn renamed_and_edited_blocks_pair_above_the_threshold_only() {
    let before = analyses(&[("a.ts", "export function load(path: string) {\n  const text = read(path);\n  return JSON.parse(text);\n}\n")]);
    let edited = analyses(&[("a.ts", "export function loadConfig(path: string) {\n  const text = read(path);\n  return JSON.parse(text) ?? {};\n}\n")]);
    assert_eq!(
        match_blocks(&before, &edited)[0].event,
        LineageEvent::Renamed
    );
    let unrelated = analyses(&[(
        "a.ts",
        "export function render(view: View) {\n  document.body.append(view.node);\n}\n",
    )]);
    let events: Vec<LineageEvent> = match_blocks(&before, &unrelated)
        .iter()
        .map(|m| m.event)
        .collect();
    assert_eq!(events, vec![LineageEvent::Deleted, LineageEvent::Created]);
}

#[test]
fn edited_in_place_blocks_pair_by_name() {
    let before = analyses(&[("a.ts", "export function f() { return 1; }\n")]);
    let after = analyses(&[(
        "a.ts",
        "export function f() { return [1, 2, 3].map(String).join(); }\n",
    )]);
    let m = &match_blocks(&before, &after)[0];
    assert_eq!(m.event, LineageEvent::Modified);
    assert_eq!(m.matched_by, Some(MatchedBy::Name));
}

#[test]
fn matches_serialize_for_the_caller() {
    let before = analyses(&[("a.ts", "export const a = 1;\n")]);
    let after = analyses(&[("a.ts", "export const a = 2;\n")]);
    let json = serde_json::to_value(match_blocks(&before, &after)).unwrap();
    assert_eq!(json[0]["event"], "modified");
    assert_eq!(json[0]["before"]["qualified_name"], "a");
}
