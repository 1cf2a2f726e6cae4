//! Every lesson of a ledger, for `intent lessons` (a person's command, never a
//! hook's: it reads the whole ledger, skipping every other line unparsed).

use std::path::Path;

use intent_ledger::LineReader;
use intent_state::RecentLesson;

/// The marker of a `lesson` line, found without parsing JSON.
const MARKER: &[u8] = br#","kind":"lesson","#;

/// Whether a ledger line is a `lesson` event.
pub fn is_lesson_line(line: &[u8]) -> bool {
    memchr::memmem::find(line, MARKER).is_some()
}

/// Every lesson of the ledger at `path`, oldest first, with its whole text (a
/// missing file has none).
pub fn read_all(path: &Path) -> intent_ledger::Result<Vec<RecentLesson>> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for line in LineReader::open(path)? {
        let line = line?;
        if is_lesson_line(&line.bytes) {
            if let Some(lesson) = RecentLesson::cut_to(&line.parse(path)?, usize::MAX) {
                out.push(lesson);
            }
        }
    }
    Ok(out)
}

/// Every lesson of this clone's ledger and of the fetched ledgers `fetched`, newest
/// first (see [`super::newest_first`]), with their whole text. A fetched ledger
/// that cannot be read is left out, with a warning for the caller.
pub fn everything(
    workspace: &intent_ledger::Workspace,
    fetched: &[super::fetched::Source],
) -> intent_ledger::Result<(Vec<super::Entry>, Vec<String>)> {
    let mut entries: Vec<super::Entry> = read_all(&workspace.ledger_path())?
        .into_iter()
        .map(super::Entry::local)
        .collect();
    let mut warnings = Vec::new();
    for source in fetched {
        match read_all(&source.ledger) {
            Ok(lessons) => entries.extend(
                lessons
                    .into_iter()
                    .map(|l| super::Entry::fetched(&source.ledger_id, &source.label, l)),
            ),
            Err(err) => warnings.push(format!("skipping {}: {err}", source.label)),
        }
    }
    super::newest_first(&mut entries);
    Ok((entries, warnings))
}
