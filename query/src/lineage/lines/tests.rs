//! The line record through real diffs: every case is built with the hook's own
//! line-diff rules (git's diff, then runs scoring over 20 moved whole).

use super::*;
use intent_ledger::lines::{join_tokens, line_hash, token};

fn w(seq: u64) -> LineWrite {
    LineWrite {
        seq,
        offset: seq * 100,
        prompt: None,
    }
}

/// A trace from `before` to `after` the way the hook writes one, with moves
/// spelled explicitly by the test (`moves`: (new line index, old line, count)).
fn trace(before: Option<&str>, after: &str, recorded: bool) -> Trace {
    let hunks = match before {
        None => vec![LineHunk {
            at: 0,
            removed: 0,
            added: after.lines().map(|l| token(line_hash(l))).collect(),
        }],
        Some(before) => hash_hunks(&line_hashes(before), &line_hashes(after)),
    };
    Trace {
        before_sha256: before.map(|b| format!("sha256:{}", blake3::hash(b.as_bytes()))),
        after_sha256: Some(format!("sha256:{}", blake3::hash(after.as_bytes()))),
        lines: Some(LineDiff {
            before: before.map(|b| b.lines().count() as u32),
            after: after.lines().count() as u32,
            hunks,
            base: before
                .filter(|_| !recorded)
                .map(|b| join_tokens(&line_hashes(b))),
            ..LineDiff::default()
        }),
        ..Trace::default()
    }
}

/// Applies a chain of versions, each written by seq 1, 2, …; returns the map.
fn chain(versions: &[&str]) -> Option<LineMap> {
    let mut map = None;
    let mut previous: Option<String> = None;
    for (i, text) in versions.iter().enumerate() {
        let before = (i > 0).then(|| versions[i - 1]);
        let t = trace(before, text, true);
        apply(&mut map, previous.as_deref(), &t, w(i as u64 + 1));
        previous = t.after_sha256.clone();
    }
    map
}

fn last_seqs(map: &LineMap, text: &str) -> Vec<Option<u64>> {
    map.stories_of(text)
        .into_iter()
        .map(|(s, changed)| {
            (!s.untraced && !changed)
                .then(|| s.writes.last().map(|w| w.seq))
                .flatten()
        })
        .collect()
}

#[test]
fn each_line_names_the_write_that_gave_it_its_text() {
    let v1 = "a\nb\nc\n";
    let v2 = "a\nB\nc\nd\n";
    let v3 = "z\na\nB\nc\nd\n";
    let map = chain(&[v1, v2, v3]).unwrap();
    assert_eq!(map.len(), 5);
    assert_eq!(
        last_seqs(&map, v3),
        vec![Some(3), Some(1), Some(2), Some(1), Some(2)]
    );
    // `B` replaced `b`: its story holds both writes, oldest first.
    let stories = map.stories_of(v3);
    let seqs: Vec<u64> = stories[2].0.writes.iter().map(|w| w.seq).collect();
    assert_eq!(seqs, vec![1, 2]);
}

#[test]
fn the_file_as_it_is_now_is_mapped_by_hash() {
    let map = chain(&["a\nb\nc\n", "a\nB\nc\n"]).unwrap();
    // Someone the hooks did not see inserted a line and changed `c`.
    let now = "new\na\nB\nC\n";
    let stories = map.stories_of(now);
    assert_eq!(last_seqs(&map, now), vec![None, Some(1), Some(2), None]);
    assert!(stories[0].1 && stories[3].1, "changed since the last trace");
    // The changed `c` keeps the writes that shaped the line before.
    assert_eq!(stories[3].0.writes.last().map(|w| w.seq), Some(1));
}

#[test]
fn a_copied_run_keeps_its_origin() {
    let mut map = chain(&["one\ntwo\nthree\n"]);
    let before = "one\ntwo\nthree\n";
    let after = "three\none\ntwo\n";
    let mut t = trace(Some(before), after, true);
    // As the hook spells it: "one\ntwo" moved down is `@0+2` after "three".
    t.lines.as_mut().unwrap().hunks = vec![
        LineHunk {
            at: 0,
            removed: 2,
            added: vec![],
        },
        LineHunk {
            at: 3,
            removed: 0,
            added: vec!["@0+2".into()],
        },
    ];
    let first_after = trace(None, before, true).after_sha256;
    apply(&mut map, first_after.as_deref(), &t, w(2));
    let map = map.unwrap();
    assert_eq!(last_seqs(&map, after), vec![Some(1), Some(1), Some(1)]);
}

#[test]
fn a_gap_with_the_old_lines_hashes_is_seen() {
    let v1 = "a\nb\nc\n";
    let mut map = chain(&[v1]);
    let after_v1 = trace(None, v1, true).after_sha256;
    // A person changed `b` to `p` and added `q`; then the agent changed `c`.
    let human = "a\np\nc\nq\n";
    let agent = "a\np\nC\nq\n";
    let t = trace(Some(human), agent, false);
    apply(&mut map, after_v1.as_deref(), &t, w(2));
    let map = map.unwrap();
    let stories = map.stories_of(agent);
    assert_eq!(last_seqs(&map, agent), vec![Some(1), None, Some(2), None]);
    assert!(stories[1].0.untraced && stories[3].0.untraced);
    assert_eq!(
        stories[1].0.writes.last().map(|w| w.seq),
        Some(1),
        "p replaced b of seq 1"
    );
    assert!(
        stories[3].0.writes.is_empty(),
        "q came from nowhere the ledger saw"
    );
}

#[test]
fn a_gap_without_the_old_lines_names_nothing_wrongly() {
    let mut map = chain(&["a\nb\n"]);
    let human = "x\na\nb\n";
    let agent = "x\na\nB\n";
    let t = trace(Some(human), agent, true); // claims recorded, but it was not
    apply(&mut map, Some("sha256:something-else"), &t, w(2));
    let map = map.unwrap();
    assert_eq!(last_seqs(&map, agent), vec![None, None, Some(2)]);
}

#[test]
fn a_writer_without_the_old_text_is_diffed_by_hash() {
    let mut map = chain(&["a\nb\nc\n"]);
    let first = trace(None, "a\nb\nc\n", true).after_sha256;
    let mut t = trace(None, "a\nB\nc\n", true);
    t.before_sha256 = first.clone();
    apply(&mut map, first.as_deref(), &t, w(2));
    let map = map.unwrap();
    assert_eq!(
        last_seqs(&map, "a\nB\nc\n"),
        vec![Some(1), Some(2), Some(1)]
    );
}

#[test]
fn a_record_that_does_not_add_up_is_dropped_not_guessed() {
    let mut map = chain(&["a\nb\n"]);
    let first = trace(None, "a\nb\n", true).after_sha256;
    let mut t = trace(Some("a\nb\n"), "a\nc\n", true);
    t.lines.as_mut().unwrap().after = 7;
    apply(&mut map, first.as_deref(), &t, w(2));
    assert_eq!(map, None);
    // A trace without a line record (binary, too large) leaves none either.
    let mut map = chain(&["a\n"]);
    apply(&mut map, None, &Trace::default(), w(3));
    assert_eq!(map, None);
}

#[test]
fn stories_are_shared_and_pruned() {
    let versions: Vec<String> = (0..20).map(|i| format!("head\nline {i}\ntail\n")).collect();
    let refs: Vec<&str> = versions.iter().map(String::as_str).collect();
    let map = chain(&refs).unwrap();
    assert_eq!(map.len(), 3);
    assert!(map.stories.len() <= 3, "{} stories kept", map.stories.len());
    let round: LineMap = serde_json::from_str(&serde_json::to_string(&map).unwrap()).unwrap();
    assert_eq!(round, map);
}
