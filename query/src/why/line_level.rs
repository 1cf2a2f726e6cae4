//! `why` for a line no traced block holds: the line record (every text file has
//! one, whatever its language) names the writes that gave the line its text,
//! following it across moves; a file with no lines to follow (binary, too large
//! to diff, or recorded before line tracking) is answered with every traced
//! write of it.

use intent_ledger::Workspace;

use super::{Context, HistoryReader, WhyAnswer};
use crate::lineage::{self, LineStory};
use crate::projection::Result;

/// The story of every line of the file as it is now, with whether the line
/// changed since its last traced write; empty without a line record.
pub(super) fn stories(cx: &Context) -> Vec<(LineStory, bool)> {
    match (&cx.shard, &cx.text) {
        (Some(shard), Some(text)) if !cx.binary => shard
            .lines
            .as_ref()
            .map(|map| map.stories_of(text))
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// Answers at line level, or at file level when the file has no line record.
pub(super) fn line_history(
    workspace: &Workspace,
    cx: &Context,
    reader: &mut HistoryReader<'_>,
    answer: &mut WhyAnswer,
) -> Result<()> {
    let Some(shard) = &cx.shard else {
        answer.note = Some(format!(
            "{} has no traced write in the ledger: its lines predate the ledger or were \
             written by something the hooks did not see",
            cx.rel
        ));
        return Ok(());
    };
    let (Some(_), Some(text)) = (&shard.lines, &cx.text) else {
        return file_history(workspace, cx, reader, answer);
    };
    let count = text.lines().count();
    let stories = stories(cx);
    let Some((mut story, mut changed)) = stories.get(answer.line as usize - 1).cloned() else {
        answer.note = Some(format!(
            "{} has {count} lines; line {} is past its end",
            cx.rel, answer.line
        ));
        return Ok(());
    };
    if changed {
        // The checkout may be behind the ledger: an earlier write left this text.
        let traces = lineage::traces(workspace, &cx.rel)?;
        if let Some((earlier, newer)) =
            super::versions::earlier_line(cx, reader, &traces, answer.line)?
        {
            story = earlier;
            changed = false;
            answer.newer.extend(newer);
        }
    }
    let changed = &changed;
    answer.level = "line";
    for write in &story.writes {
        let mut item = reader.item(None, write.offset, write.prompt)?;
        item.event = "changed".to_string();
        answer.history.push(item);
    }
    answer.outside_ledger = story.untraced || *changed;
    if answer.outside_ledger {
        answer.note = Some(match story.writes.is_empty() {
            true => format!(
                "line {} was not written by a traced write: it predates the ledger, or \
                 something the hooks did not see (a person, a shell, another tool) wrote it",
                answer.line
            ),
            false => format!(
                "line {}'s text is not from a traced write: something the hooks did not see \
                 (a person, a shell, another tool) changed it after the writes listed",
                answer.line
            ),
        });
    }
    Ok(())
}

/// Answers with every traced write of the file (oldest first), saying why the
/// line itself cannot be followed.
pub(super) fn file_history(
    workspace: &Workspace,
    cx: &Context,
    reader: &mut HistoryReader<'_>,
    answer: &mut WhyAnswer,
) -> Result<()> {
    let traces = lineage::traces(workspace, &cx.rel)?;
    if traces.is_empty() {
        answer.note = Some(format!("{} has no traced write in the ledger", cx.rel));
        return Ok(());
    }
    answer.level = "file";
    for trace in &traces {
        answer
            .history
            .push(reader.item(None, trace.offset, trace.prompt)?);
    }
    let why = if cx.binary {
        format!("{} is a binary file: it has no lines to follow", cx.rel)
    } else if cx.text.is_none() {
        format!("{} no longer exists", cx.rel)
    } else {
        format!(
            "{} has no line record: its last traced write was too large to diff (over 4 MB \
             or 200,000 lines) or was recorded before line tracking",
            cx.rel
        )
    };
    answer.note = Some(format!(
        "{why}; every traced write of the file is listed ({})",
        traces.len()
    ));
    Ok(())
}
