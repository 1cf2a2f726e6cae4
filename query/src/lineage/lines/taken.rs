//! Lines that crossed from one block to another at a split or merge: the
//! receiver's lines take the stories of the donor lines they came from (looked up
//! by hash in the donor file's record, and in the lines the turn removed from it),
//! so the line record follows code across files the way it follows a move within
//! one, and the receiving block inherits the donor's story *of those lines* only.

use std::collections::{HashMap, HashSet};

use intent_ledger::lines::TOKEN_LEN;
use serde::{Deserialize, Serialize};

use super::{encode, trim, LineMap, LineStory, LineWrite, Working, UNKNOWN};

/// Lines the writes of one turn removed from a file, with their stories.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Removed {
    /// The turn (session and turn id).
    pub turn: String,
    /// The lines, in the order they were removed.
    pub lines: LineMap,
}

/// Adds `gone` (lines a write of `turn` removed) to `removed`, which keeps only
/// the current turn's.
pub(crate) fn remember(removed: &mut Option<Removed>, turn: &str, gone: Option<LineMap>) {
    if removed.as_ref().is_some_and(|r| r.turn != turn) {
        *removed = None;
    }
    let Some(gone) = gone else { return };
    let Some(mut add) = gone.decode() else { return };
    let lines = match removed.take().and_then(|r| r.lines.decode()) {
        Some(mut work) => {
            let shift = work.stories.len() as u32;
            work.stories.append(&mut add.stories);
            work.lines.extend(add.lines.into_iter().map(|mut l| {
                l.story += shift;
                l
            }));
            encode(work)
        }
        None => gone,
    };
    *removed = Some(Removed {
        turn: turn.to_string(),
        lines,
    });
}

/// Reads a [`BlockOrigin::lines`](intent_ledger::payload::BlockOrigin::lines)
/// string: per receiver line, the donor line's hash (`None`: not taken). `None`
/// when it is not such a string.
pub(crate) fn parse(tokens: &str) -> Option<Vec<Option<u64>>> {
    if !tokens.len().is_multiple_of(TOKEN_LEN) || !tokens.is_ascii() {
        return None;
    }
    (0..tokens.len() / TOKEN_LEN)
        .map(|i| match &tokens[i * TOKEN_LEN..(i + 1) * TOKEN_LEN] {
            UNKNOWN => Some(None),
            hex => u64::from_str_radix(hex, 16).ok().map(Some),
        })
        .collect()
}

/// Per receiver line (`hashes`: the donor line each was taken from, `None`: not
/// taken), the writes of that donor line, found in `maps`. A hash several lines
/// share (`return None;`, `Ok(())`) is placed by its neighbours: taken lines come
/// in runs, so the occurrence nearest to where the closest placed line of the
/// run puts it is the one; with no placed line to go by, all occurrences count.
pub(crate) fn writes_per_line(maps: &[&LineMap], hashes: &[Option<u64>]) -> Vec<Vec<LineWrite>> {
    let wanted: HashSet<u64> = hashes.iter().flatten().copied().collect();
    let works: Vec<Working> = maps.iter().filter_map(|m| m.decode()).collect();
    // Where each wanted hash occurs: (map, line).
    let mut at: HashMap<u64, Vec<(usize, usize)>> = HashMap::new();
    for (m, work) in works.iter().enumerate() {
        for (i, line) in work.lines.iter().enumerate() {
            if let Some(hash) = line.hash.filter(|h| wanted.contains(h)) {
                at.entry(hash).or_default().push((m, i));
            }
        }
    }
    let places = |i: usize| {
        hashes[i]
            .and_then(|h| at.get(&h))
            .map_or(&[][..], Vec::as_slice)
    };
    let mut placed: Vec<Option<(usize, usize)>> = (0..hashes.len())
        .map(|i| match places(i) {
            [one] => Some(*one),
            _ => None,
        })
        .collect();
    let anchors: Vec<usize> = (0..hashes.len()).filter(|&i| placed[i].is_some()).collect();
    for i in 0..hashes.len() {
        if placed[i].is_some() || places(i).len() < 2 {
            continue;
        }
        let Some(&k) = anchors.iter().min_by_key(|&&k| k.abs_diff(i)) else {
            continue;
        };
        let (m, line) = placed[k].expect("anchors are placed");
        let expected = (line + i).saturating_sub(k);
        placed[i] = places(i)
            .iter()
            .min_by_key(|(om, ol)| (*om != m, ol.abs_diff(expected)))
            .copied();
    }
    (0..hashes.len())
        .map(|i| {
            let chosen: Vec<(usize, usize)> = match placed[i] {
                Some(one) => vec![one],
                None => places(i).to_vec(),
            };
            let mut writes: Vec<LineWrite> = chosen
                .iter()
                .flat_map(|&(m, l)| {
                    let work = &works[m];
                    work.stories[work.lines[l].story as usize]
                        .writes
                        .iter()
                        .copied()
                })
                .collect();
            writes.sort_by_key(|w| w.offset);
            writes.dedup_by_key(|w| w.offset);
            writes
        })
        .collect()
}

/// Adds `per_line[i]`'s writes to the story of line `first + i` of `map` (lines
/// the map does not have are skipped).
pub(crate) fn adopt(map: &mut LineMap, first: usize, per_line: &[Vec<LineWrite>]) {
    let Some(mut work) = map.decode() else { return };
    let mut made: HashMap<(u32, Vec<u64>), u32> = HashMap::new();
    for (i, extra) in per_line.iter().enumerate() {
        let Some(line) = work.lines.get(first + i) else {
            break;
        };
        if extra.is_empty() {
            continue;
        }
        let key = (line.story, extra.iter().map(|w| w.offset).collect());
        let story = match made.get(&key) {
            Some(story) => *story,
            None => {
                let old = &work.stories[line.story as usize];
                let mut writes: Vec<LineWrite> = old.writes.iter().chain(extra).copied().collect();
                writes.sort_by_key(|w| w.offset);
                writes.dedup_by_key(|w| w.offset);
                trim(&mut writes);
                work.stories.push(LineStory {
                    writes,
                    untraced: old.untraced,
                });
                let story = (work.stories.len() - 1) as u32;
                made.insert(key, story);
                story
            }
        };
        work.lines[first + i].story = story;
    }
    *map = encode(work);
}

/// The offsets of every write in the stories of lines `first..first + count`.
pub(crate) fn offsets_of_lines(map: &LineMap, first: usize, count: usize) -> HashSet<u64> {
    let Some(work) = map.decode() else {
        return HashSet::new();
    };
    work.lines
        .iter()
        .skip(first)
        .take(count)
        .flat_map(|l| &work.stories[l.story as usize].writes)
        .map(|w| w.offset)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::Line;
    use super::*;
    use intent_ledger::lines::{line_hash, token};

    fn map_of(lines: &[(&str, &[u64])]) -> LineMap {
        let mut work = Working::default();
        for (text, seqs) in lines {
            work.stories.push(LineStory {
                writes: seqs
                    .iter()
                    .map(|&seq| LineWrite {
                        seq,
                        offset: seq * 10,
                        prompt: None,
                    })
                    .collect(),
                untraced: false,
            });
            work.lines.push(Line {
                hash: Some(line_hash(text)),
                story: (work.stories.len() - 1) as u32,
            });
        }
        encode(work)
    }

    fn seqs(map: &LineMap) -> Vec<Vec<u64>> {
        let work = map.decode().unwrap();
        work.lines
            .iter()
            .map(|l| {
                work.stories[l.story as usize]
                    .writes
                    .iter()
                    .map(|w| w.seq)
                    .collect()
            })
            .collect()
    }

    #[test]
    fn tokens_round_trip_with_lines_not_taken() {
        let text = format!("{}{UNKNOWN}{}", token(7), token(0xabc));
        assert_eq!(parse(&text), Some(vec![Some(7), None, Some(0xabc)]));
        assert_eq!(parse("xyz"), None);
    }

    #[test]
    fn a_receiver_line_adopts_the_story_of_the_donor_line_it_came_from() {
        let donor = map_of(&[("let a = load();", &[1, 3]), ("let b = 2;", &[2])]);
        let found = writes_per_line(&[&donor], &[Some(line_hash("let a = load();")), None]);
        let writes = &found[0];
        assert_eq!(writes.iter().map(|w| w.seq).collect::<Vec<_>>(), [1, 3]);
        assert!(found[1].is_empty());

        let mut receiver = map_of(&[("fn f() {", &[9]), ("let a = load();", &[9]), ("}", &[9])]);
        adopt(&mut receiver, 1, &[writes.clone(), Vec::new()]);
        assert_eq!(seqs(&receiver), [vec![9], vec![1, 3, 9], vec![9]]);
        let offsets = offsets_of_lines(&receiver, 1, 1);
        assert_eq!(offsets, [10, 30, 90].into());
    }

    #[test]
    fn a_line_many_share_is_placed_by_the_run_it_came_in() {
        let donor = map_of(&[
            ("first = one();", &[1]),
            ("return None;", &[2]),
            ("second = two();", &[3]),
            ("return None;", &[4]),
        ]);
        let receiver = [
            Some(line_hash("second = two();")),
            Some(line_hash("return None;")),
        ];
        let found = writes_per_line(&[&donor], &receiver);
        let seqs: Vec<Vec<u64>> = found
            .iter()
            .map(|w| w.iter().map(|w| w.seq).collect())
            .collect();
        assert_eq!(seqs, [vec![3], vec![4]]);
        // Nothing to place it by: every occurrence's writes.
        let alone = writes_per_line(&[&donor], &[Some(line_hash("return None;"))]);
        assert_eq!(alone[0].iter().map(|w| w.seq).collect::<Vec<_>>(), [2, 4]);
    }

    #[test]
    fn removed_lines_are_kept_for_one_turn_only() {
        let mut removed = None;
        remember(&mut removed, "s\nt1", Some(map_of(&[("gone one", &[1])])));
        remember(&mut removed, "s\nt1", Some(map_of(&[("gone two", &[2])])));
        let kept = removed.as_ref().unwrap();
        assert_eq!(seqs(&kept.lines), [vec![1], vec![2]]);
        remember(&mut removed, "s\nt2", None);
        assert_eq!(removed, None);
    }
}
