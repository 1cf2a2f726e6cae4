//! One answer from several ledgers: this clone's and the ones `intent sync` fetched
//! from other clones. Each ledger answers on its own (its own projections, up to
//! the version of the block or line this checkout has); the answers are merged
//! here, and every change from another clone's ledger says which ledger it came
//! from.
//!
//! A ledger *speaks* for a block when it recorded the block's text as the file has
//! it. The changes of the ledgers that speak are joined by the ones they started
//! from: a change whose starting text another ledger's change produced pulls that
//! ledger's history in, up to that change. The joined changes are ordered by
//! cause (each after the change whose text it started from, each ledger's own in
//! its order), and only where cause says nothing, by clock: clocks of different
//! machines disagree.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};

use crate::why::{BlameAnswer, HistoryItem, Newer, WhyAnswer};

/// Merges `why` answers, the local one first. `label` is `None` for this clone's
/// ledger, else how to name the fetched one.
pub fn merge_why(parts: Vec<(Option<String>, WhyAnswer)>) -> Option<WhyAnswer> {
    let mut parts = parts;
    if parts.is_empty() {
        return None;
    }
    for (label, answer) in &mut parts {
        tag_history(answer, label.clone());
    }
    let speaks = |a: &WhyAnswer| !a.history.is_empty() && !a.outside_ledger;
    let primary = parts.iter().position(|(_, a)| speaks(a));
    // How many of each ledger's changes join: all of a speaking one's (it answered
    // up to the version this checkout has); when none speaks, this clone's alone
    // answers, saying the block changed outside the ledger.
    let mut taken: Vec<usize> = parts
        .iter()
        .enumerate()
        .map(|(i, (_, a))| match primary {
            Some(_) if speaks(a) => a.history.len(),
            None if i == 0 => a.history.len(),
            _ => 0,
        })
        .collect();
    join_by_cause(&parts, &mut taken);

    let mut merged = parts[0].1.clone();
    if let Some(p) = primary.filter(|p| *p != 0) {
        // This clone has no record of the block's text; another's has.
        let (_, first) = &parts[p];
        merged.level = first.level;
        merged.note = first.note.clone();
        merged.outside_ledger = false;
        if merged.block.as_ref().is_none_or(|b| b.id.is_none()) {
            merged.block = first.block.clone();
        }
    }
    merged.newer.clear();
    let mut chains = Vec::new();
    for (i, (label, answer)) in parts.iter().enumerate() {
        if taken[i] == 0 {
            continue;
        }
        chains.push(answer.history[..taken[i]].to_vec());
        // What this ledger holds past its version, and past the part joined.
        let past = answer.history[taken[i]..]
            .iter()
            .filter(|h| h.inherited_from.is_none())
            .map(|h| (h.seq, h.intent_id.as_deref()));
        for mut newer in answer.newer.iter().cloned().chain(Newer::of(past)) {
            newer.ledger = label.clone();
            merged.newer.push(newer);
        }
        for brief in &answer.intents {
            if !merged.intents.iter().any(|b| b.id == brief.id) {
                merged.intents.push(brief.clone());
            }
        }
    }
    merged.history = order_by_cause(chains);
    merged.intents.retain(|b| {
        merged
            .history
            .iter()
            .any(|h| h.intent_id.as_deref() == Some(b.id.as_str()))
    });
    crate::why::set_lasts(&mut merged);
    Some(merged)
}

/// Grows `taken` (how many of each ledger's changes join) until every joined
/// change whose starting text some ledger produced has that change joined too.
fn join_by_cause(parts: &[(Option<String>, WhyAnswer)], taken: &mut [usize]) {
    loop {
        let joined = || {
            parts
                .iter()
                .zip(taken.iter())
                .flat_map(|((_, a), n)| &a.history[..*n])
        };
        let produced: HashSet<&str> = joined().map(|h| h.after_text.as_str()).collect();
        let needed: HashSet<&str> = joined()
            .map(|h| h.before_text.as_str())
            .filter(|t| !t.is_empty() && !produced.contains(t))
            .collect();
        let mut grew = false;
        for (i, (_, answer)) in parts.iter().enumerate() {
            let found = answer.history[taken[i]..].iter().rposition(|h| {
                h.inherited_from.is_none() && needed.contains(h.after_text.as_str())
            });
            if let Some(k) = found {
                taken[i] += k + 1;
                grew = true;
            }
        }
        if !grew {
            return;
        }
    }
}

/// Orders the joined changes: each ledger's in its own order, and a change after
/// another ledger's change that produced the text it started from; ties go to
/// the older clock. Changes in a cycle (a text written again later) follow by
/// clock.
fn order_by_cause(chains: Vec<Vec<HistoryItem>>) -> Vec<HistoryItem> {
    let nodes: Vec<(usize, HistoryItem)> = chains
        .into_iter()
        .enumerate()
        .flat_map(|(c, chain)| chain.into_iter().map(move |h| (c, h)))
        .collect();
    let mut producers: HashMap<&str, Vec<usize>> = HashMap::new();
    for (n, (_, h)) in nodes.iter().enumerate() {
        if !h.after_text.is_empty() {
            producers.entry(h.after_text.as_str()).or_default().push(n);
        }
    }
    let mut after: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    let mut waiting = vec![0usize; nodes.len()];
    for n in 0..nodes.len() {
        let (chain, h) = &nodes[n];
        if n + 1 < nodes.len() && nodes[n + 1].0 == *chain {
            after[n].push(n + 1);
            waiting[n + 1] += 1;
        }
        for &p in producers.get(h.before_text.as_str()).into_iter().flatten() {
            if nodes[p].0 != *chain {
                after[p].push(n);
                waiting[n] += 1;
            }
        }
    }
    // RFC 3339 UTC times of one fixed format sort as text.
    let mut ready: BinaryHeap<Reverse<(&str, usize)>> = (0..nodes.len())
        .filter(|n| waiting[*n] == 0)
        .map(|n| Reverse((nodes[n].1.ts.as_str(), n)))
        .collect();
    let mut order = Vec::with_capacity(nodes.len());
    let mut placed = vec![false; nodes.len()];
    while order.len() < nodes.len() {
        let next = match ready.pop() {
            Some(Reverse((_, n))) => n,
            // A cycle: the oldest change not placed yet goes next.
            None => (0..nodes.len())
                .filter(|n| !placed[*n])
                .min_by(|a, b| nodes[*a].1.ts.cmp(&nodes[*b].1.ts))
                .expect("a change not placed"),
        };
        if placed[next] {
            continue;
        }
        placed[next] = true;
        order.push(next);
        for &m in &after[next] {
            waiting[m] = waiting[m].saturating_sub(1);
            if waiting[m] == 0 && !placed[m] {
                ready.push(Reverse((nodes[m].1.ts.as_str(), m)));
            }
        }
    }
    let mut slots: Vec<Option<HistoryItem>> = nodes.into_iter().map(|(_, h)| Some(h)).collect();
    order.into_iter().filter_map(|n| slots[n].take()).collect()
}

fn tag_history(answer: &mut WhyAnswer, label: Option<String>) {
    if let Some(label) = label {
        for item in &mut answer.history {
            item.ledger = Some(label.clone());
        }
        for item in [
            &mut answer.last_touched,
            &mut answer.last_edit,
            &mut answer.last_behaviour_change,
        ]
        .into_iter()
        .flatten()
        {
            item.ledger = Some(label.clone());
        }
    }
}

/// Merges `blame` answers line by line: each line gets the newest change any
/// ledger has for it.
pub fn merge_blame(parts: Vec<(Option<String>, BlameAnswer)>) -> Option<BlameAnswer> {
    let mut parts = parts.into_iter();
    let (_, mut merged) = parts.next()?;
    for (label, answer) in parts {
        merged.intents.extend(answer.intents);
        for (row, other) in merged.lines.iter_mut().zip(answer.lines) {
            if other.seq.is_some() && !other.outside_ledger && other.ts > row.ts {
                let mut other = other;
                other.ledger = label.clone();
                *row = other;
            }
        }
    }
    Some(merged)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(seq: u64, ts: &str, before: &str, after: &str) -> HistoryItem {
        HistoryItem {
            seq,
            ts: ts.to_string(),
            event: "modified".to_string(),
            intent_id: Some("INT-001".to_string()),
            intent_name: None,
            mutation_class: None,
            path: "src/a.ts".to_string(),
            from_path: None,
            from_name: None,
            session: None,
            model: None,
            front_end: None,
            trace_id: format!("{before}->{after}"),
            reason: None,
            prompt: None,
            labels: Vec::new(),
            behaviour: true,
            origins: Vec::new(),
            inherited_from: None,
            ledger: None,
            before_text: before.to_string(),
            after_text: after.to_string(),
        }
    }

    fn ids(items: &[HistoryItem]) -> Vec<&str> {
        items.iter().map(|h| h.trace_id.as_str()).collect()
    }

    #[test]
    fn cause_wins_over_a_clock_that_went_back() {
        // Bob's machine is an hour behind: his change of Alice's v1 carries an
        // earlier time than her creation of v1, yet comes after it.
        let alice = vec![
            item(1, "2026-01-01T10:00:00Z", "", "v1"),
            item(2, "2026-01-01T10:30:00Z", "v2", "v3"),
        ];
        let bob = vec![item(1, "2026-01-01T09:10:00Z", "v1", "v2")];
        let order = order_by_cause(vec![alice, bob]);
        assert_eq!(ids(&order), ["->v1", "v1->v2", "v2->v3"]);
    }

    #[test]
    fn unrelated_changes_follow_the_clock_and_each_ledger_keeps_its_order() {
        let alice = vec![
            item(1, "2026-01-01T10:00:00Z", "", "a1"),
            item(2, "2026-01-01T08:00:00Z", "a1", "a2"),
        ];
        let bob = vec![item(1, "2026-01-01T09:00:00Z", "", "b1")];
        let order = order_by_cause(vec![alice, bob]);
        // Alice's second change keeps its place after her first, whatever its clock.
        assert_eq!(ids(&order), ["->b1", "->a1", "a1->a2"]);
    }

    #[test]
    fn a_text_written_twice_still_places_every_change() {
        let alice = vec![
            item(1, "2026-01-01T10:00:00Z", "", "v1"),
            item(2, "2026-01-01T10:10:00Z", "v1", "v2"),
        ];
        let bob = vec![item(1, "2026-01-01T10:05:00Z", "v2", "v1")];
        let order = order_by_cause(vec![alice, bob]);
        assert_eq!(order.len(), 3);
        let mut seen = ids(&order);
        seen.sort();
        assert_eq!(seen, ["->v1", "v1->v2", "v2->v1"]);
    }
}
