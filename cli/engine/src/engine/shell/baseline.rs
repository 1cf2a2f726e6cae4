//! A command's baseline and its file format: what PreToolUse knows of the
//! workspace before the command runs.

use std::collections::BTreeMap;
use std::time::Duration;

use super::snapshot::{Snapshot, Stat};

/// Everything PreToolUse knows of the workspace before a command.
#[derive(Debug, Clone, Default)]
pub(super) struct Baseline {
    pub(super) snapshot: Snapshot,
    /// HEAD when the workspace is in a git repository and it has a commit.
    pub(super) revision: Option<String>,
    /// Tracked files that already differed from HEAD, with their hash then (`None`:
    /// missing, or beyond the hashing cap).
    pub(super) dirty: BTreeMap<String, Option<String>>,
    /// Hashes of the protected files.
    pub(super) protected: BTreeMap<String, String>,
    /// Hashes of the files changed within a clock tick of the walk (see
    /// [`Snapshot::racy`]): a stat taken then may not show the next change.
    pub(super) racy: BTreeMap<String, String>,
    /// Length of the ledger and a hash of its last bytes.
    pub(super) ledger: Option<(u64, [u8; 32])>,
    /// The repository's `config` as it was.
    pub(super) git_config: Option<Vec<u8>>,
}

// The baseline file: `ISB2` (`ISB1` also kept `.orchestration/CLAUDE.md`, which hooks
// no longer write), then little-endian fields; strings are a u32 length and
// UTF-8 bytes; entries are sorted and each path stores only what differs from the
// previous one (u16 shared prefix length, then the rest).
impl Baseline {
    pub(super) fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + self.snapshot.entries.len() * 40);
        out.extend_from_slice(b"ISB2");
        out.extend_from_slice(&self.snapshot.started_ns.to_le_bytes());
        out.extend_from_slice(&(self.snapshot.elapsed.as_micros() as u64).to_le_bytes());
        out.push(u8::from(self.snapshot.truncated));
        out.extend_from_slice(&(self.snapshot.walked as u64).to_le_bytes());
        put_str(&mut out, self.revision.as_deref().unwrap_or(""));
        out.extend_from_slice(&(self.dirty.len() as u32).to_le_bytes());
        for (path, hash) in &self.dirty {
            put_str(&mut out, path);
            put_str(&mut out, hash.as_deref().unwrap_or(""));
        }
        for map in [&self.protected, &self.racy] {
            out.extend_from_slice(&(map.len() as u32).to_le_bytes());
            for (path, hash) in map {
                put_str(&mut out, path);
                put_str(&mut out, hash);
            }
        }
        let (len, tail) = self.ledger.unwrap_or((u64::MAX, [0; 32]));
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&tail);
        match &self.git_config {
            Some(bytes) => {
                out.push(1);
                out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
                out.extend_from_slice(bytes);
            }
            None => out.push(0),
        }
        out.extend_from_slice(&(self.snapshot.entries.len() as u32).to_le_bytes());
        let mut previous: &[u8] = b"";
        for (path, stat) in &self.snapshot.entries {
            let path = path.as_bytes();
            let shared = previous
                .iter()
                .zip(path)
                .take_while(|(a, b)| a == b)
                .count()
                .min(u16::MAX as usize);
            let rest = &path[shared..];
            out.extend_from_slice(&(shared as u16).to_le_bytes());
            out.extend_from_slice(&(rest.len() as u32).to_le_bytes());
            out.extend_from_slice(rest);
            out.extend_from_slice(&stat.size.to_le_bytes());
            out.extend_from_slice(&stat.mtime_ns.to_le_bytes());
            out.extend_from_slice(&stat.ctime_ns.to_le_bytes());
            out.extend_from_slice(&stat.ino.to_le_bytes());
            out.extend_from_slice(&stat.mode.to_le_bytes());
            previous = path;
        }
        out
    }

    pub(super) fn decode(bytes: &[u8]) -> Option<Baseline> {
        let mut r = Reader(bytes);
        if r.take(4)? != b"ISB2" {
            return None;
        }
        let mut base = Baseline::default();
        base.snapshot.started_ns = r.u64()? as i64;
        base.snapshot.elapsed = Duration::from_micros(r.u64()?);
        base.snapshot.truncated = r.take(1)?[0] != 0;
        base.snapshot.walked = r.u64()? as usize;
        base.revision = Some(r.string()?).filter(|s| !s.is_empty());
        for _ in 0..r.u32()? {
            let path = r.string()?;
            let hash = r.string()?;
            base.dirty
                .insert(path, Some(hash).filter(|h| !h.is_empty()));
        }
        for map in [&mut base.protected, &mut base.racy] {
            for _ in 0..r.u32()? {
                let path = r.string()?;
                let hash = r.string()?;
                map.insert(path, hash);
            }
        }
        let len = r.u64()?;
        let tail: [u8; 32] = r.take(32)?.try_into().ok()?;
        base.ledger = (len != u64::MAX).then_some((len, tail));
        if r.take(1)?[0] == 1 {
            let n = r.u32()? as usize;
            base.git_config = Some(r.take(n)?.to_vec());
        }
        let count = r.u32()? as usize;
        let mut entries: Vec<(String, Stat)> = Vec::with_capacity(count.min(1 << 20));
        let mut previous = Vec::new();
        for _ in 0..count {
            let shared = u16::from_le_bytes(r.take(2)?.try_into().ok()?) as usize;
            let n = r.u32()? as usize;
            previous.truncate(shared);
            previous.extend_from_slice(r.take(n)?);
            let stat = Stat {
                size: r.u64()?,
                mtime_ns: r.u64()? as i64,
                ctime_ns: r.u64()? as i64,
                ino: r.u64()?,
                mode: r.u32()?,
            };
            entries.push((String::from_utf8(previous.clone()).ok()?, stat));
        }
        base.snapshot.entries = entries;
        Some(base)
    }
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&(s.len() as u32).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
}

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if self.0.len() < n {
            return None;
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Some(head)
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    fn string(&mut self) -> Option<String> {
        let n = self.u32()? as usize;
        String::from_utf8(self.take(n)?.to_vec()).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::super::snapshot;
    use super::*;

    #[test]
    fn baselines_survive_encoding() {
        let dir = tempfile::tempdir().unwrap();
        for rel in ["src/a.ts", "src/ab.ts", "src/b/c.ts", "z"] {
            std::fs::create_dir_all(dir.path().join(rel).parent().unwrap()).unwrap();
            std::fs::write(dir.path().join(rel), rel).unwrap();
        }
        let mut base = Baseline {
            snapshot: snapshot::take(dir.path(), None, snapshot::MAX_ENTRIES),
            revision: Some("abc".into()),
            ledger: Some((42, [7; 32])),
            git_config: Some(b"[core]\n".to_vec()),
            ..Baseline::default()
        };
        base.dirty
            .insert("src/a.ts".into(), Some("sha256:00".into()));
        base.dirty.insert("gone.ts".into(), None);
        base.protected
            .insert(".mcp.json".into(), "sha256:11".into());
        base.racy.insert("src/ab.ts".into(), "sha256:22".into());
        let back = Baseline::decode(&base.encode()).unwrap();
        assert_eq!(back.snapshot.entries, base.snapshot.entries);
        assert_eq!(back.snapshot.started_ns, base.snapshot.started_ns);
        assert_eq!(
            (
                &back.revision,
                &back.dirty,
                &back.protected,
                &back.racy,
                back.ledger,
                &back.git_config
            ),
            (
                &base.revision,
                &base.dirty,
                &base.protected,
                &base.racy,
                base.ledger,
                &base.git_config
            )
        );
        assert!(Baseline::decode(&base.encode()[..20]).is_none());
    }
}
