//! One answer from several ledgers: this clone's and the ones `intent sync` fetched
//! from other clones. Each ledger answers on its own (its own projections); the
//! answers are merged here by time, and every change from another clone's ledger
//! says which ledger it came from.

use crate::why::{BlameAnswer, WhyAnswer};

/// Merges `why` answers, the local one first. `label` is `None` for this clone's
/// ledger, else how to name the fetched one.
pub fn merge_why(parts: Vec<(Option<String>, WhyAnswer)>) -> Option<WhyAnswer> {
    let mut parts = parts.into_iter();
    let (label, mut merged) = parts.next()?;
    tag_history(&mut merged, label);
    for (label, mut answer) in parts {
        // Another clone's ledger speaks for a block only when the block is as that
        // ledger last recorded it: a change it holds that is not in this file (not
        // merged here, or since changed) is not this line's story.
        if answer.history.is_empty() || answer.outside_ledger {
            continue;
        }
        tag_history(&mut answer, label);
        if merged.block.as_ref().is_none_or(|b| b.id.is_none()) && answer.block.is_some() {
            merged.block = answer.block.clone();
        }
        merged.outside_ledger &= answer.outside_ledger;
        if merged.history.is_empty() {
            merged.outside_ledger = answer.outside_ledger;
            // This clone has no record of the line or block; the other's says how
            // it followed it.
            merged.level = answer.level;
            // The local note spoke of a block with no recorded change; this one has.
            merged.note = answer.note.take();
        }
        merged.history.append(&mut answer.history);
        for brief in answer.intents {
            if !merged.intents.iter().any(|b| b.id == brief.id) {
                merged.intents.push(brief);
            }
        }
    }
    // RFC 3339 UTC times of one fixed format sort as text.
    merged.history.sort_by(|a, b| a.ts.cmp(&b.ts));
    crate::why::set_lasts(&mut merged);
    Some(merged)
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
