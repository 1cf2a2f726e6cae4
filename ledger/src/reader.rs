//! Lock-free readers: forward streaming and newest-first.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use crate::error::{LedgerError, Result};
use crate::event::Event;

/// One complete line as stored, with its byte offset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawLine {
    /// Offset of the line's first byte in the ledger.
    pub offset: u64,
    /// The line's bytes without the newline.
    pub bytes: Vec<u8>,
}

impl RawLine {
    /// Parses the line as an [`Event`]; a line that is not valid JSON of the envelope
    /// shape is reported as corruption at its offset.
    pub fn parse(&self, path: &Path) -> Result<Event> {
        serde_json::from_slice(&self.bytes).map_err(|e| LedgerError::Corruption {
            path: path.to_path_buf(),
            seq: crate::line::inspect(&self.bytes).map_or(0, |v| v.seq),
            offset: self.offset,
            reason: format!("not a valid event: {e}"),
        })
    }
}

/// Streams the complete lines of a ledger from a byte offset, without a lock.
///
/// Stops at an unterminated last line: a concurrent writer may be halfway through
/// it, or a dead one left it behind (the next append sets it aside).
#[derive(Debug)]
pub struct LineReader {
    path: PathBuf,
    reader: BufReader<File>,
    offset: u64,
    done: bool,
}

impl LineReader {
    /// Opens `path` for reading from its first byte.
    pub fn open(path: impl AsRef<Path>) -> Result<LineReader> {
        LineReader::open_at(path, 0)
    }

    /// Opens `path` for reading from `offset`, which must be a line start.
    pub fn open_at(path: impl AsRef<Path>, offset: u64) -> Result<LineReader> {
        use std::io::Seek;
        let path = path.as_ref().to_path_buf();
        let mut file = File::open(&path).map_err(|e| LedgerError::io(&path, e))?;
        file.seek(std::io::SeekFrom::Start(offset))
            .map_err(|e| LedgerError::io(&path, e))?;
        Ok(LineReader {
            reader: BufReader::with_capacity(1 << 20, file),
            path,
            offset,
            done: false,
        })
    }

    /// Turns this line stream into a stream of parsed events.
    pub fn events(self) -> Events {
        Events { lines: self }
    }
}

impl Iterator for LineReader {
    type Item = Result<RawLine>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let mut bytes = Vec::with_capacity(256);
        match self.reader.read_until(b'\n', &mut bytes) {
            Err(e) => {
                self.done = true;
                Some(Err(LedgerError::io(&self.path, e)))
            }
            Ok(0) => {
                self.done = true;
                None
            }
            Ok(n) => {
                if bytes.last() != Some(&b'\n') {
                    self.done = true;
                    return None;
                }
                bytes.pop();
                let offset = self.offset;
                self.offset += n as u64;
                Some(Ok(RawLine { offset, bytes }))
            }
        }
    }
}

/// Parsed events of a [`LineReader`].
#[derive(Debug)]
pub struct Events {
    lines: LineReader,
}

impl Iterator for Events {
    type Item = Result<Event>;

    fn next(&mut self) -> Option<Self::Item> {
        let line = self.lines.next()?;
        Some(line.and_then(|line| line.parse(&self.lines.path)))
    }
}

/// Streams the parsed events of the ledger at `path`, oldest first.
pub fn read_events(path: impl AsRef<Path>) -> Result<Events> {
    Ok(LineReader::open(path)?.events())
}

/// Reads complete lines newest first, in chunks from the end, so "the last N" or
/// "the latest event of kind K" costs what it returns, not the ledger's size.
#[derive(Debug)]
pub struct ReverseLineReader {
    path: PathBuf,
    file: File,
    /// Bytes `[pos, pos + pending.len())` not yet split into lines.
    pending: Vec<u8>,
    pos: u64,
    /// Lines of the current chunk, newest last (so `pop` yields newest first).
    ready: Vec<RawLine>,
}

impl ReverseLineReader {
    /// Opens `path`; the unterminated tail, if any, is skipped.
    pub fn open(path: impl AsRef<Path>) -> Result<ReverseLineReader> {
        let path = path.as_ref().to_path_buf();
        let file = File::open(&path).map_err(|e| LedgerError::io(&path, e))?;
        let len = file
            .metadata()
            .map_err(|e| LedgerError::io(&path, e))?
            .len();
        let mut reader = ReverseLineReader {
            path,
            file,
            pending: Vec::new(),
            pos: len,
            ready: Vec::new(),
        };
        // Drop the torn tail: read until the last newline is found.
        loop {
            if let Some(i) = memchr::memrchr(b'\n', &reader.pending) {
                reader.pending.truncate(i + 1);
                break;
            }
            if reader.pos == 0 {
                reader.pending.clear();
                break;
            }
            reader.read_chunk()?;
        }
        Ok(reader)
    }

    fn read_chunk(&mut self) -> Result<()> {
        const CHUNK: u64 = 256 * 1024;
        let lo = self.pos.saturating_sub(CHUNK);
        let mut chunk = vec![0u8; (self.pos - lo) as usize];
        self.file
            .read_exact_at(&mut chunk, lo)
            .map_err(|e| LedgerError::io(&self.path, e))?;
        chunk.extend_from_slice(&self.pending);
        self.pending = chunk;
        self.pos = lo;
        Ok(())
    }

    fn fill(&mut self) -> Result<()> {
        while self.ready.is_empty() && !self.pending.is_empty() {
            // `pending` ends with '\n'; find complete lines after the first newline
            // unless we are at the start of the file.
            let body = &self.pending[..self.pending.len() - 1];
            let first_complete = if self.pos == 0 {
                Some(0)
            } else {
                memchr::memchr(b'\n', body).map(|i| i + 1)
            };
            match first_complete {
                None => self.read_chunk()?,
                Some(start) => {
                    let region = &self.pending[start..];
                    let mut offset = self.pos + start as u64;
                    for line in region[..region.len() - 1].split(|&b| b == b'\n') {
                        self.ready.push(RawLine {
                            offset,
                            bytes: line.to_vec(),
                        });
                        offset += line.len() as u64 + 1;
                    }
                    self.pending.truncate(start);
                    if self.pending.is_empty() {
                        break;
                    }
                    // What is left ends with '\n' too, or is a partial line at `pos`.
                    if self.pending.last() != Some(&b'\n') {
                        self.read_chunk()?;
                    }
                }
            }
        }
        Ok(())
    }
}

impl Iterator for ReverseLineReader {
    type Item = Result<RawLine>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.ready.is_empty() {
            if let Err(e) = self.fill() {
                self.pending.clear();
                return Some(Err(e));
            }
        }
        self.ready.pop().map(Ok)
    }
}
