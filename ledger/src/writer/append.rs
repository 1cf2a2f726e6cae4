//! Steps 3–5 of the append protocol (see [`Ledger`]): events encoded before the
//! lock, then, under it, the expected seq checked, retried ids answered with their
//! original seq, and the new lines written with one positional write.

use std::os::unix::fs::FileExt;

use uuid::Uuid;

use super::tail::find_id;
use super::{AppendOptions, Appended, Durability, Ledger, Tail, MAX_LOOK_BACK};
use crate::error::{LedgerError, Result};
use crate::event::NewEvent;
use crate::head::Head;
use crate::line::{self, PreEncoded};

/// Whether to look for an event's id before writing it, and where.
#[derive(Debug, Clone, Copy)]
pub(super) enum Lookup {
    /// A random id: nowhere.
    Nowhere,
    /// A caller's id may be anywhere (a retried `intent append`).
    Everywhere,
    /// A derived id: in the lines from this offset on, at most `MAX_LOOK_BACK`
    /// bytes back from the tail.
    From(u64),
}

impl Ledger {
    pub(super) fn append_at_tail(
        &mut self,
        tail: &mut Tail,
        pre: Vec<(PreEncoded, Lookup)>,
        options: AppendOptions,
    ) -> Result<Vec<Appended>> {
        let (mut seq, mut prev) = tail
            .last
            .clone()
            .expect("prepare_tail writes a genesis line");
        if let Some(expected) = options.expected_last_seq {
            if expected != seq {
                return Err(LedgerError::Conflict {
                    expected,
                    actual: seq,
                });
            }
        }
        let mut out = Vec::with_capacity(pre.iter().map(|(p, _)| p.max_line_len()).sum());
        let mut results = Vec::with_capacity(pre.len());
        let mut written_ids: Vec<(String, u64)> = Vec::new();
        let mut last_start = tail.end;
        for (encoded, lookup) in &pre {
            let floor = match *lookup {
                Lookup::Nowhere => None,
                Lookup::Everywhere => Some(0),
                Lookup::From(from) => Some(from.max(tail.end.saturating_sub(MAX_LOOK_BACK))),
            };
            if let Some(floor) = floor {
                let earlier = written_ids
                    .iter()
                    .find(|(id, _)| *id == encoded.id)
                    .map(|(_, seq)| *seq);
                let earlier = match earlier {
                    Some(seq) => Some(seq),
                    None => find_id(&self.path, &self.file, (floor, tail.end), &encoded.id)?,
                };
                if let Some(original) = earlier {
                    results.push(Appended {
                        seq: original,
                        id: encoded.id.clone(),
                        duplicate: true,
                    });
                    continue;
                }
            }
            seq += 1;
            last_start = tail.end + out.len() as u64;
            prev = line::encode(&mut out, seq, encoded, &prev);
            written_ids.push((encoded.id.clone(), seq));
            results.push(Appended {
                seq,
                id: encoded.id.clone(),
                duplicate: false,
            });
        }
        if !out.is_empty() {
            self.write_at(&out, tail.end)?;
            tail.end += out.len() as u64;
            if self.ledger_id.is_none() {
                self.ledger_id = crate::head::ledger_id(&self.file);
            }
            self.pending_head = Some(Head {
                ledger_id: self.ledger_id.clone().unwrap_or_default(),
                seq,
                h: prev.clone(),
                start: last_start,
                end: tail.end,
            });
            tail.last = Some((seq, prev));
        }
        Ok(results)
    }

    /// Encodes events before the lock is taken; see [`Ledger::append_batch_with`].
    pub(super) fn pre_encode(&mut self, events: &[NewEvent]) -> Result<Vec<(PreEncoded, Lookup)>> {
        let mut pre = Vec::with_capacity(events.len());
        for event in events {
            event.validate()?;
            // A caller's id may be anywhere in the ledger (a retried `intent
            // append`); a derived one only in the recent tail, if at all.
            let (id, lookup) = match (event.id, &self.options.derived_ids) {
                (Some(id), _) => (id, Lookup::Everywhere),
                (None, Some(derived)) => {
                    let count = self.derived_counts.entry(event.kind.clone()).or_default();
                    let id = derived.id(&event.kind, *count);
                    *count += 1;
                    (id, derived.look_from.map_or(Lookup::Nowhere, Lookup::From))
                }
                (None, None) => (Uuid::now_v7(), Lookup::Nowhere),
            };
            let id = id.to_string();
            // No secret reaches the file: every text field passes the one redactor.
            let mut event = crate::redact::redact_event(event);
            if let Some(origin) = &self.options.origin {
                if event.kind != crate::event::kinds::GENESIS
                    && event.data.get("worktree").is_none()
                {
                    if let Some(data) = event.to_mut().data.as_object_mut() {
                        data.insert("worktree".to_string(), origin.clone());
                    }
                }
            }
            let encoded = PreEncoded::new(&event, id);
            let len = encoded.max_line_len();
            if len > self.options.max_line_bytes {
                return Err(LedgerError::TooLarge {
                    len,
                    max: self.options.max_line_bytes,
                });
            }
            pre.push((encoded, lookup));
        }
        Ok(pre)
    }

    fn write_at(&mut self, bytes: &[u8], offset: u64) -> Result<()> {
        if crate::recovery::torn_write_fault() {
            // The tests' `kill -9` in the middle of a write: half the bytes land.
            let _ = self.file.write_all_at(&bytes[..bytes.len() / 2], offset);
            crate::recovery::fault_point("append:torn");
        }
        if crate::recovery::short_write_fault() {
            // The tests' full disk: half the bytes land, then ENOSPC.
            let _ = self.file.write_all_at(&bytes[..bytes.len() / 2], offset);
            return Err(LedgerError::io(
                &self.path,
                std::io::Error::from_raw_os_error(28),
            ));
        }
        self.file
            .write_all_at(bytes, offset)
            .map_err(|e| LedgerError::io(&self.path, e))?;
        match self.options.durability {
            Durability::Always if !self.deferring_sync => self
                .file
                .sync_data()
                .map_err(|e| LedgerError::io(&self.path, e)),
            Durability::Always | Durability::Batch => {
                self.unsynced = true;
                Ok(())
            }
            Durability::Never => Ok(()),
        }
    }
}
