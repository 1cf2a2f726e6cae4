//! Steps 1–2 of the append protocol (see [`Ledger`]), run under the lock before
//! anything is read or written: a torn tail set aside, a bad last line or a ledger
//! that does not match its head refused, the genesis line written into an empty one.

use std::fs::OpenOptions;
use std::io::Write;
use std::os::unix::fs::FileExt;

use uuid::Uuid;

use super::tail::scan_tail;
use super::{debris_path, marker_path, Ledger, Tail};
use crate::error::{LedgerError, Result};
use crate::event::NewEvent;
use crate::head::Head;
use crate::line::{self, PreEncoded};
use crate::payload::Genesis;
use crate::verify;

impl Ledger {
    /// Repairs a torn tail, refuses a corrupt last line, and writes the genesis line
    /// into an empty ledger. Must run under the lock.
    pub(super) fn prepare_tail(&mut self) -> Result<Tail> {
        let len = self
            .file
            .metadata()
            .map_err(|e| LedgerError::io(&self.path, e))?
            .len();
        let scan = scan_tail(&self.path, &self.file, len, self.options.max_line_bytes)?;
        if scan.end < len {
            self.set_aside_debris(scan.end, len)?;
        }
        if marker_path(&self.path).exists() {
            self.recheck_marked_corruption()?;
        }
        if crate::recovery::journal_path(&self.path).exists() {
            return Err(LedgerError::Tampered {
                path: self.path.clone(),
                kind: "restore_interrupted",
                since_seq: 0,
                detail: "an `intent restore` or `verify --repair` was interrupted before it \
                         finished; a person runs `intent restore` to finish it (nothing is lost)"
                    .into(),
            });
        }
        let last = match scan.last_line {
            None => None,
            Some(last_line) => {
                let offset = scan.last_line_offset;
                let bad = |reason: &str, seq: u64| LedgerError::Corruption {
                    path: self.path.clone(),
                    seq,
                    offset,
                    reason: reason.to_string(),
                };
                // A bad last line after a head is foreign (tampering), not a torn write.
                let foreign = |error: LedgerError| match crate::head::read(&self.path) {
                    Some(head) => {
                        match crate::head::check(&self.file, scan.end, Some((u64::MAX, "")), &head)
                        {
                            Ok(Some(found)) => LedgerError::Tampered {
                                path: self.path.clone(),
                                kind: found.kind,
                                since_seq: found.since_seq,
                                detail: found.detail,
                            },
                            _ => error,
                        }
                    }
                    None => error,
                };
                let view = line::inspect(&last_line).map_err(|reason| foreign(bad(reason, 0)))?;
                if !line::hash_matches(&view) {
                    return Err(foreign(bad("h does not match the line's bytes", view.seq)));
                }
                let h = String::from_utf8(view.h.to_vec()).expect("checked hex");
                Some((view.seq, h))
            }
        };
        // The head kept outside the file: a wiped, shortened, rewritten or replaced
        // ledger, or foreign lines, fail closed, and a wiped ledger never restarts.
        if let Some(head) = crate::head::read(&self.path) {
            let last_ref = last.as_ref().map(|(seq, h)| (*seq, h.as_str()));
            if let Some(found) = crate::head::check(&self.file, scan.end, last_ref, &head)
                .map_err(|e| LedgerError::io(&self.path, e))?
            {
                return Err(LedgerError::Tampered {
                    path: self.path.clone(),
                    kind: found.kind,
                    since_seq: found.since_seq,
                    detail: found.detail,
                });
            }
            self.ledger_id = Some(head.ledger_id);
        }
        let mut tail = Tail {
            end: scan.end,
            last,
        };
        if tail.last.is_none() {
            tail = self.write_genesis()?;
        }
        Ok(tail)
    }

    fn write_genesis(&mut self) -> Result<Tail> {
        let ledger_id =
            hex::encode(*Uuid::new_v4().as_bytes()) + &hex::encode(*Uuid::new_v4().as_bytes());
        let genesis = Genesis {
            ledger_id: ledger_id.clone(),
            format: line::FORMAT_VERSION,
            created_by: concat!("intent-ledger ", env!("CARGO_PKG_VERSION")).to_string(),
            extra: Default::default(),
        };
        let event = NewEvent::from_payload("intent-ledger", &genesis);
        let pre = PreEncoded::new(&event, Uuid::now_v7().to_string());
        let mut out = Vec::new();
        let h = line::encode(&mut out, 1, &pre, &ledger_id);
        self.file
            .set_len(0)
            .map_err(|e| LedgerError::io(&self.path, e))?;
        self.file
            .write_all_at(&out, 0)
            .map_err(|e| LedgerError::io(&self.path, e))?;
        // The genesis line is always synced: a ledger id must not change after use.
        self.file
            .sync_data()
            .map_err(|e| LedgerError::io(&self.path, e))?;
        let h_hex = h.clone();
        self.ledger_id = Some(ledger_id.clone());
        let _ = crate::head::write(
            &self.path,
            &Head {
                ledger_id,
                seq: 1,
                h: h_hex,
                start: 0,
                end: out.len() as u64,
            },
        );
        Ok(Tail {
            end: out.len() as u64,
            last: Some((1, h)),
        })
    }

    fn set_aside_debris(&mut self, end: u64, len: u64) -> Result<()> {
        let mut debris = vec![0u8; (len - end) as usize];
        self.file
            .read_exact_at(&mut debris, end)
            .map_err(|e| LedgerError::io(&self.path, e))?;
        let debris_path = debris_path(&self.path);
        let mut side = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&debris_path)
            .map_err(|e| LedgerError::io(&debris_path, e))?;
        let header = format!(
            "# torn tail of {} bytes at offset {} set aside at {}\n",
            debris.len(),
            end,
            line::format_ts(time::OffsetDateTime::now_utc())
        );
        side.write_all(header.as_bytes())
            .and_then(|_| side.write_all(&debris))
            .and_then(|_| side.write_all(b"\n"))
            .and_then(|_| side.sync_data())
            .map_err(|e| LedgerError::io(&debris_path, e))?;
        self.file
            .set_len(end)
            .map_err(|e| LedgerError::io(&self.path, e))?;
        self.file
            .sync_data()
            .map_err(|e| LedgerError::io(&self.path, e))
    }

    fn recheck_marked_corruption(&mut self) -> Result<()> {
        let report = verify::verify_path(&self.path)?;
        match report.corruption {
            Some(bad) => Err(LedgerError::Corruption {
                path: self.path.clone(),
                seq: bad.seq,
                offset: bad.offset,
                reason: bad.reason,
            }),
            None => {
                // Repaired by hand (e.g. restored from a copy): forget the marker.
                let marker = marker_path(&self.path);
                std::fs::remove_file(&marker).map_err(|e| LedgerError::io(&marker, e))
            }
        }
    }
}
