//! Analyses stored by one process and restored by another (`intent_ast_hash::stored`).

use intent_ast_hash::{analyze, stored, SourceFile};

const SOURCE: &str = "import { a } from './a';\n\
export class Service {\n  run(x: number) { return a(x) + 1; }\n}\n\
export const helper = (y: string) => y.trim();\n\
function broken( {\n";

#[test]
fn a_restored_analysis_is_the_analysis() {
    let file = SourceFile::new("src/service.ts", SOURCE);
    let fresh = analyze(&file);
    assert!(!fresh.blocks.is_empty() && !fresh.errors.is_empty());
    let bytes = stored::encode(&fresh);
    let restored = stored::decode(&bytes, &file).expect("the same file must be restored");
    assert_eq!(restored.blocks, fresh.blocks);
    assert_eq!(restored.errors, fresh.errors);
    assert_eq!(restored.hashes, fresh.hashes);
    assert_eq!(restored.language, Some("typescript"));
    assert_eq!(restored.text(), SOURCE);
    // Everything else (the crate-internal detail) survives too.
    assert_eq!(stored::encode(&restored), bytes);
}

#[test]
fn a_stored_analysis_is_refused_for_another_text_or_path() {
    let file = SourceFile::new("src/service.ts", SOURCE);
    let bytes = stored::encode(&analyze(&file));
    let edited = SourceFile::new("src/service.ts", SOURCE.replace("+ 1", "+ 2"));
    assert!(stored::decode(&bytes, &edited).is_none());
    let moved = SourceFile::new("src/other.ts", SOURCE);
    assert!(stored::decode(&bytes, &moved).is_none());
}

#[test]
fn damaged_or_foreign_bytes_are_refused() {
    let file = SourceFile::new("src/service.ts", SOURCE);
    let bytes = stored::encode(&analyze(&file));
    assert!(stored::decode(&bytes[..bytes.len() / 2], &file).is_none());
    assert!(stored::decode(b"not an analysis", &file).is_none());
    assert!(stored::decode(&[], &file).is_none());
    // The scheme is the first field (a varint): another scheme is refused.
    assert_eq!(u32::from(bytes[0]), intent_ast_hash::SCHEME_VERSION);
    let mut old_scheme = bytes.clone();
    old_scheme[0] = 1;
    assert!(stored::decode(&old_scheme, &file).is_none());
    // A grammar this build does not have (same length, so the rest still decodes).
    let at = bytes
        .windows(10)
        .position(|w| w == b"typescript")
        .expect("the language is stored by name");
    let mut foreign = bytes.clone();
    foreign[at..at + 10].copy_from_slice(b"cobolscrip");
    assert!(stored::decode(&foreign, &file).is_none());
    // Every byte flipped in turn: refused or (when the flip lands in a hash or a
    // line number) restored for the same text only, never a panic.
    for i in 0..bytes.len() {
        let mut flipped = bytes.clone();
        flipped[i] ^= 0xff;
        let _ = stored::decode(&flipped, &file);
    }
}

#[test]
fn files_without_a_grammar_round_trip() {
    let file = SourceFile::new("notes.txt", "plain text\n");
    let restored = stored::decode(&stored::encode(&analyze(&file)), &file).unwrap();
    assert_eq!(restored.language, None);
    assert!(restored.blocks.is_empty());
}

#[test]
fn an_analysis_stored_without_a_grammar_this_build_has_is_parsed_again() {
    // What a build without Python stored for a Python file: no language, no blocks.
    let file = SourceFile::new("app/greet.py", "def greet(name):\n    return name\n");
    let mut old = analyze(&file);
    assert_eq!(old.language, Some("python"));
    old.language = None;
    old.blocks.clear();
    old.hashes = None;
    assert!(stored::decode(&stored::encode(&old), &file).is_none());
    // This build's own analysis restores.
    let restored = stored::decode(&stored::encode(&analyze(&file)), &file).unwrap();
    assert_eq!(restored.blocks.len(), 1);
}

#[test]
fn only_files_without_a_stored_analysis_are_parsed() {
    use intent_ast_hash::Prepared;
    let old = SourceFile::new("src/service.ts", SOURCE);
    let new = SourceFile::new("src/service.ts", SOURCE.replace("+ 1", "+ 2"));
    let store = stored::encode(&analyze(&old));
    let asked = std::cell::RefCell::new(Vec::new());
    let prepared = Prepared::analyze_missing(&[old.clone(), new.clone()], |file| {
        asked.borrow_mut().push(file.text.clone());
        stored::decode(&store, file)
    });
    assert_eq!(asked.borrow().len(), 2);
    assert_eq!(prepared.len(), 2);
    let fresh_new = analyze(&new);
    assert_eq!(prepared.get(&new).unwrap().hashes, fresh_new.hashes);
    assert_eq!(prepared.get(&old).unwrap().hashes, analyze(&old).hashes);
}
