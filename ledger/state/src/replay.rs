//! Bringing the hook state up to the ledger: catching up from its stamp, or
//! rebuilding from the first line. Both apply the same events and skip, unparsed,
//! the lines of kinds the state does not use, so they give the same state.

use std::path::Path;

use super::{HookState, Stamp, STATE_KINDS, STATE_VERSION};
use intent_ledger::payload::Trace;
use intent_ledger::Event;
use intent_ledger::LineReader;
use intent_ledger::{LedgerError, Result};

impl HookState {
    /// Applies the ledger lines in `[self.stamp.end, end)`.
    pub fn catch_up(&mut self, ledger: &Path, end: u64) -> Result<()> {
        if self.stamp.end >= end {
            return Ok(());
        }
        for line in LineReader::open_at(ledger, self.stamp.end)? {
            let line = line?;
            if line.offset >= end {
                break;
            }
            // Kinds the state does not use change nothing: skipped unparsed, as a
            // rebuild skips them (a PreToolUse's own `tool.pre` is one).
            if !uses_kind(&line.bytes) {
                let view = intent_ledger::line::inspect(&line.bytes).map_err(|reason| {
                    LedgerError::Corruption {
                        path: ledger.to_path_buf(),
                        seq: self.stamp.seq + 1,
                        offset: line.offset,
                        reason: reason.to_string(),
                    }
                })?;
                self.stamp = Stamp {
                    seq: view.seq,
                    h: String::from_utf8_lossy(view.h).into_owned(),
                    end: line.offset + line.bytes.len() as u64 + 1,
                };
                continue;
            }
            let event = line.parse(ledger)?;
            // A shard must be in memory before an event changes it, or saving it
            // would drop what it held.
            if let Some(session) = &event.session {
                self.ensure_session(session);
            }
            if let Some(intent) = event.intent_id() {
                self.ensure_digest(intent);
            }
            match event.payload::<Trace>() {
                Some(trace) => {
                    for path in trace.block_paths() {
                        self.ensure_blocks(path);
                    }
                    // A collision queues a notice on the other session: load it first.
                    for other in trace.collisions.iter().flatten() {
                        self.ensure_session(&other.session);
                    }
                    self.apply_trace(&event, &trace);
                }
                None => self.apply(&event),
            }
            self.stamp = Stamp {
                seq: event.seq,
                h: event.h.clone(),
                end: line.offset + line.bytes.len() as u64 + 1,
            };
        }
        Ok(())
    }

    /// Rebuilds the state from the whole ledger up to `end`.
    ///
    /// Lines are parsed in parallel (only those of kinds the state uses; the kind is
    /// found without parsing JSON), then applied in order.
    pub fn rebuild(ledger: &Path, end: u64) -> Result<HookState> {
        use rayon::prelude::*;
        let mut state = HookState {
            version: STATE_VERSION,
            ..HookState::default()
        };
        let mut bytes = std::fs::read(ledger).map_err(|e| LedgerError::io(ledger, e))?;
        bytes.truncate(end as usize);
        let mut lines = Vec::new();
        let mut offset = 0usize;
        for line in bytes.split_inclusive(|&b| b == b'\n') {
            if line.last() == Some(&b'\n') {
                lines.push((offset, &line[..line.len() - 1]));
            }
            offset += line.len();
        }
        let parsed: Vec<Result<Option<Event>>> = lines
            .par_iter()
            .map(|&(offset, line)| {
                if !uses_kind(line) {
                    return Ok(None);
                }
                let raw = intent_ledger::RawLine {
                    offset: offset as u64,
                    bytes: line.to_vec(),
                };
                raw.parse(ledger).map(Some)
            })
            .collect();
        for (event, &(offset, line)) in parsed.into_iter().zip(&lines) {
            match event? {
                Some(event) => {
                    state.apply(&event);
                    state.stamp = Stamp {
                        seq: event.seq,
                        h: event.h.clone(),
                        end: (offset + line.len() + 1) as u64,
                    };
                }
                None => {
                    let view = intent_ledger::line::inspect(line).map_err(|reason| {
                        LedgerError::Corruption {
                            path: ledger.to_path_buf(),
                            seq: state.stamp.seq + 1,
                            offset: offset as u64,
                            reason: reason.to_string(),
                        }
                    })?;
                    state.stamp = Stamp {
                        seq: view.seq,
                        h: String::from_utf8_lossy(view.h).into_owned(),
                        end: (offset + line.len() + 1) as u64,
                    };
                }
            }
        }
        Ok(state)
    }
}

/// Whether a ledger line is of a kind [`HookState::apply`] uses ([`STATE_KINDS`]).
fn uses_kind(line: &[u8]) -> bool {
    STATE_KINDS
        .iter()
        .any(|k| memchr::memmem::find(line, k.as_bytes()).is_some())
}
