//! Publishing this clone's ledger as git objects under `refs/intent/ledgers/<id>`.
//!
//! The ledger is stored in sealed segments of [`SEGMENT_LINES`] lines
//! (`segments/<first seq>.jsonl.zst`), tail pieces (`tail/<first seq>.jsonl.zst`: the lines
//! each publish added since the last sealed segment), and `ledger.json` (ledger id,
//! where it ended, who owns it). No file ever changes once written. A publish writes
//! one new piece holding only its new lines; when the pieces add up to a segment (or
//! number [`MAX_PIECES`]), they are compacted into sealed segments and one piece for
//! the rest. So a publish after N new events writes O(N) bytes of objects
//! (amortized: a compaction rewrites at most one segment's worth, once per
//! [`SEGMENT_LINES`] events), whatever the ledger's size. Each publish is one commit
//! on top of the previous one, written by one `git fast-import`, so every update of
//! the ref is a fast-forward.

use std::fs::File;
use std::io::Write as _;
use std::os::unix::fs::FileExt as _;
use std::path::Path;

use anyhow::{bail, Context as _};
use intent_ledger::{line, Workspace};
use serde::{Deserialize, Serialize};

use crate::git;

/// Lines per sealed segment.
pub const SEGMENT_LINES: u64 = 4096;
/// Most tail pieces before they are compacted.
pub const MAX_PIECES: usize = 64;

/// The ref a ledger is published under.
pub fn ledger_ref(ledger_id: &str) -> String {
    format!("refs/intent/ledgers/{ledger_id}")
}

/// `ledger.json` of a published ledger: where it ended and whose it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meta {
    /// Format of this layout.
    pub format: u32,
    /// The ledger id (the genesis line's `prev`).
    pub ledger_id: String,
    /// Seq of the last line published.
    pub seq: u64,
    /// `h` of the last line published.
    pub h: String,
    /// Byte offset of the last line published.
    pub last_start: u64,
    /// Bytes published (the ledger's length then).
    pub bytes: u64,
    /// Bytes in sealed segments.
    pub sealed_end: u64,
    /// Seq of the last sealed line (0: none).
    pub sealed_seq: u64,
    /// Lines per sealed segment.
    pub segment_lines: u64,
    /// Tail pieces after the sealed segments, in order (`tail/<first seq>.jsonl.zst`).
    #[serde(default)]
    pub pieces: Vec<String>,
    /// Who owns the ledger: git's `user.email` (or `user.name`) of the clone.
    pub user: String,
    /// The machine's host name.
    pub machine: String,
    /// The clone's directory on that machine.
    pub clone: String,
    /// When it was published (RFC 3339 UTC).
    pub published_at: String,
}

/// What a publish did.
#[derive(Debug, Clone, Serialize)]
pub struct Published {
    /// The ledger id.
    pub ledger_id: String,
    /// The ref written.
    pub reference: String,
    /// The commit the ref points to now.
    pub commit: String,
    /// Seq of the last line published.
    pub seq: u64,
    /// Events added by this publish (0: it was up to date).
    pub new_events: u64,
    /// Segments sealed by this publish.
    pub new_segments: u64,
    /// Bytes of git objects written (0 when not measured).
    pub object_bytes: u64,
}

/// Reads `ledger.json` of the commit `commit`.
pub fn read_meta(dir: &Path, commit: &str) -> anyhow::Result<Meta> {
    let text = git::run(dir, &["cat-file", "blob", &format!("{commit}:ledger.json")])?;
    serde_json::from_str(&text).with_context(|| format!("{commit}:ledger.json does not parse"))
}

/// The ledger id of the ledger file (its genesis line's `prev`).
pub fn ledger_id_of(ledger: &Path) -> Option<String> {
    intent_ledger::head::ledger_id(&File::open(ledger).ok()?)
}

/// Publishes what the ledger gained since its last publish (a local checkpoint:
/// nothing leaves the machine; `sync` pushes the ref).
///
/// `measure`: also count the bytes of the new objects (two more git processes;
/// `sync` reports them, the turn-end checkpoint skips them).
pub fn publish(workspace: &Workspace, measure: bool) -> anyhow::Result<Published> {
    let store = workspace
        .git_store_dir()
        .context("not a git workspace: a ledger is published into git's object store")?;
    let ledger = workspace.ledger_path();
    let dir = workspace.root();
    let ledger_id = ledger_id_of(&ledger)
        .with_context(|| format!("{} has no genesis line", ledger.display()))?;
    let reference = ledger_ref(&ledger_id);
    let parent = git::resolve(dir, &reference);
    let previous = match &parent {
        Some(commit) => Some(read_meta(dir, commit)?),
        None => None,
    };
    let file = File::open(&ledger).with_context(|| format!("open {}", ledger.display()))?;
    if let Some(meta) = &previous {
        still_holds(&file, meta).with_context(|| {
            format!(
                "the ledger no longer holds what was checkpointed at seq {} \
                 (run `intent verify`; `intent restore` rebuilds it from the checkpoint)",
                meta.seq
            )
        })?;
    }
    let len = file.metadata()?.len();
    let start = previous.as_ref().map_or(0, |m| m.sealed_end);
    let mut bytes = vec![0; (len - start) as usize];
    file.read_exact_at(&mut bytes, start)?;
    // Only whole lines: a line being written now goes into the next publish.
    let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    bytes.truncate(whole);
    let lines = split_lines(&bytes)?;
    let Some(last) = lines.last() else {
        bail!("{} has no complete line", ledger.display());
    };
    let last_seq = last.seq;
    if previous.as_ref().is_some_and(|m| m.seq == last_seq) {
        return Ok(Published {
            ledger_id,
            reference,
            commit: parent.unwrap_or_default(),
            seq: last_seq,
            new_events: 0,
            new_segments: 0,
            object_bytes: 0,
        });
    }

    let sealed_seq = previous.as_ref().map_or(0, |m| m.sealed_seq);
    let old_pieces = previous
        .as_ref()
        .map_or_else(Vec::new, |m| m.pieces.clone());
    let old_end = previous.as_ref().map_or(0, |m| m.bytes);
    let mut stream = Vec::with_capacity(bytes.len() + 4096);
    let mut new_segments = 0;
    let mut sealed_end = start;
    let mut sealed_last = sealed_seq;
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut deleted: Vec<String> = Vec::new();
    let mut pieces = old_pieces.clone();
    if lines.len() as u64 >= SEGMENT_LINES || old_pieces.len() >= MAX_PIECES {
        // Compact: everything since the last sealed segment becomes full segments
        // and one piece for the rest.
        deleted = old_pieces;
        pieces.clear();
        let mut offset = 0usize;
        for chunk in lines.chunks(SEGMENT_LINES as usize) {
            let chunk_len: usize = chunk.iter().map(|l| l.len).sum();
            let body = &bytes[offset..offset + chunk_len];
            if chunk.len() as u64 == SEGMENT_LINES {
                files.push((
                    format!("segments/{:012}{PART_SUFFIX}", chunk[0].seq),
                    encode_part(body)?,
                ));
                sealed_end += chunk_len as u64;
                sealed_last = chunk[chunk.len() - 1].seq;
                new_segments += 1;
            } else {
                let name = format!("tail/{:012}{PART_SUFFIX}", chunk[0].seq);
                pieces.push(name.clone());
                files.push((name, encode_part(body)?));
            }
            offset += chunk_len;
        }
    } else {
        // One new piece: the lines after the previous publish.
        let from = (old_end - start) as usize;
        let first = lines
            .iter()
            .scan(0usize, |at, l| {
                let here = *at;
                *at += l.len;
                Some((here, l.seq))
            })
            .find(|(at, _)| *at >= from)
            .map(|(_, seq)| seq)
            .expect("new lines after the previous publish");
        let name = format!("tail/{first:012}{PART_SUFFIX}");
        pieces.push(name.clone());
        files.push((name, encode_part(&bytes[from..])?));
    }
    let last_line = lines.last().expect("non-empty");
    let meta = Meta {
        format: 1,
        ledger_id: ledger_id.clone(),
        seq: last_seq,
        h: last_line.h.clone(),
        last_start: start + (whole - last_line.len) as u64,
        bytes: start + whole as u64,
        sealed_end,
        sealed_seq: sealed_last,
        segment_lines: SEGMENT_LINES,
        pieces,
        // A turn-end checkpoint keeps the owner it recorded (one git process fewer
        // per turn); `sync` reads it afresh.
        user: match (&previous, measure) {
            (Some(m), false) => m.user.clone(),
            _ => user(dir),
        },
        machine: machine(),
        clone: workspace.git().map_or_else(
            || dir.display().to_string(),
            |g| g.top.display().to_string(),
        ),
        published_at: line::format_ts(time::OffsetDateTime::now_utc()),
    };
    let meta_json = serde_json::to_vec_pretty(&meta)?;
    files.push(("ledger.json".to_string(), meta_json));

    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    let message = format!("intent ledger {ledger_id}: seq {last_seq}\n");
    write!(
        stream,
        "commit {reference}\ncommitter Intent Ledger <intent@localhost> {now} +0000\ndata {}\n{message}",
        message.len()
    )?;
    if let Some(parent) = &parent {
        writeln!(stream, "from {parent}")?;
    }
    for name in &deleted {
        writeln!(stream, "D {name}")?;
    }
    for (name, body) in &files {
        write!(stream, "M 100644 inline {name}\ndata {}\n", body.len())?;
        stream.extend_from_slice(body);
        stream.push(b'\n');
    }
    stream.extend_from_slice(b"\n");

    std::fs::create_dir_all(&store)?;
    git::run_with_input(dir, &["fast-import", "--quiet"], Some(&stream))?;
    let commit = git::resolve(dir, &reference).context("fast-import wrote no ref")?;
    let object_bytes = if measure {
        new_object_bytes(dir, parent.as_deref(), &commit)?
    } else {
        0
    };
    Ok(Published {
        ledger_id,
        reference,
        commit,
        seq: last_seq,
        new_events: last_seq - previous.as_ref().map_or(0, |m| m.seq),
        new_segments,
        object_bytes,
    })
}

/// How parts are named now: zstd frames of ledger lines. Parts published before
/// (`.jsonl`, the lines as they are) are read alike.
const PART_SUFFIX: &str = ".jsonl.zst";

/// Largest part a fetch decompresses (a sealed segment is 4096 lines): a part that
/// claims more is refused, not allowed to fill the memory of whoever fetches it.
const MAX_PART_BYTES: u64 = 1 << 30;

/// Compresses one part's lines (zstd level 1: fast, and ~7× smaller for ledger
/// lines, so git packs and sends ~7× fewer bytes).
fn encode_part(lines: &[u8]) -> anyhow::Result<Vec<u8>> {
    zstd::bulk::compress(lines, 1).context("compressing a ledger part")
}

/// The ledger lines of part `name` from its blob: a zstd frame for `.zst` parts,
/// the lines themselves for parts published before compression.
pub fn decode_part(name: &str, blob: Vec<u8>) -> anyhow::Result<Vec<u8>> {
    use std::io::Read as _;
    if !name.ends_with(".zst") {
        return Ok(blob);
    }
    let mut lines = Vec::with_capacity(blob.len() * 8);
    zstd::stream::read::Decoder::new(blob.as_slice())
        .and_then(|d| d.take(MAX_PART_BYTES + 1).read_to_end(&mut lines))
        .with_context(|| format!("{name} is not a readable zstd frame"))?;
    if lines.len() as u64 > MAX_PART_BYTES {
        anyhow::bail!("{name} decompresses to more than {MAX_PART_BYTES} bytes");
    }
    Ok(lines)
}

/// The ledger's parts in a published tree, in ledger order: sealed segments, then
/// tail pieces (each by first seq; the names sort as numbers).
pub fn ordered_parts(files: &[(String, String)]) -> Vec<(String, String)> {
    let mut segments: Vec<_> = files
        .iter()
        .filter(|(p, _)| p.starts_with("segments/"))
        .cloned()
        .collect();
    segments.sort();
    let mut pieces: Vec<_> = files
        .iter()
        .filter(|(p, _)| p.starts_with("tail/"))
        .cloned()
        .collect();
    pieces.sort();
    segments.extend(pieces);
    segments
}

/// Checks that the ledger still has the last line a checkpoint recorded, with the
/// same seq and `h` (its `h` covers the whole chain before it).
pub fn still_holds(file: &File, meta: &Meta) -> anyhow::Result<()> {
    let len = meta.bytes - meta.last_start;
    let mut line = vec![0; len as usize];
    file.read_exact_at(&mut line, meta.last_start)
        .context("the ledger is shorter than the checkpoint")?;
    let line = line
        .strip_suffix(b"\n")
        .context("no line end where one was")?;
    let view = line::inspect(line).map_err(|e| anyhow::anyhow!("not a ledger line: {e}"))?;
    if view.seq != meta.seq || view.h != meta.h.as_bytes() {
        bail!("the line at seq {} was rewritten", meta.seq);
    }
    Ok(())
}

/// A whole line's seq, `h` and length (newline included).
#[derive(Debug)]
pub struct LineFacts {
    /// Its seq.
    pub seq: u64,
    /// Its `h`.
    pub h: String,
    /// Its length, newline included.
    pub len: usize,
}

/// Splits whole lines and reads their seq and `h`.
pub fn split_lines(bytes: &[u8]) -> anyhow::Result<Vec<LineFacts>> {
    let mut out = Vec::new();
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', bytes) {
        let view = line::inspect(&bytes[start..end])
            .map_err(|e| anyhow::anyhow!("bad ledger line at byte {start}: {e}"))?;
        out.push(LineFacts {
            seq: view.seq,
            h: String::from_utf8_lossy(view.h).into_owned(),
            len: end + 1 - start,
        });
        start = end + 1;
    }
    Ok(out)
}

/// Bytes on disk of the objects reachable from `commit` and not from `parent`:
/// what a publish added to the object store (and what a push of it sends).
pub fn new_object_bytes(dir: &Path, parent: Option<&str>, commit: &str) -> anyhow::Result<u64> {
    let range = match parent {
        Some(parent) => format!("{parent}..{commit}"),
        None => commit.to_string(),
    };
    let objects = git::run(dir, &["rev-list", "--objects", &range])?;
    let ids: String = objects
        .lines()
        .filter_map(|l| l.split(' ').next())
        .map(|id| format!("{id}\n"))
        .collect();
    let sizes = git::run_with_input(
        dir,
        &["cat-file", "--batch-check=%(objectsize:disk)"],
        Some(ids.as_bytes()),
    )?;
    Ok(sizes
        .lines()
        .filter_map(|l| l.trim().parse::<u64>().ok())
        .sum())
}

fn user(dir: &Path) -> String {
    git::run(dir, &["config", "user.email"])
        .or_else(|_| git::run(dir, &["config", "user.name"]))
        .ok()
        .filter(|s| !s.is_empty())
        .or_else(|| std::env::var("USER").ok())
        .unwrap_or_else(|| "unknown".to_string())
}

fn machine() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .map(|s| s.trim().to_string())
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing;

    fn names(parts: &[(String, String)]) -> Vec<&str> {
        parts.iter().map(|(name, _)| name.as_str()).collect()
    }

    #[test]
    fn parts_are_ordered_segments_first_then_pieces_by_first_seq() {
        let files: Vec<(String, String)> = [
            "ledger.json",
            "tail/000000008200.jsonl.zst",
            "segments/000000004097.jsonl.zst",
            "tail/000000008193.jsonl",
            "segments/000000000001.jsonl.zst",
            "README",
        ]
        .iter()
        .enumerate()
        .map(|(i, name)| (name.to_string(), format!("oid{i}")))
        .collect();
        let parts = ordered_parts(&files);
        assert_eq!(
            names(&parts),
            [
                "segments/000000000001.jsonl.zst",
                "segments/000000004097.jsonl.zst",
                "tail/000000008193.jsonl",
                "tail/000000008200.jsonl.zst",
            ]
        );
        // Each part keeps its own blob.
        assert_eq!(parts[0].1, "oid4");
        assert_eq!(parts[3].1, "oid1");
    }

    #[test]
    fn split_lines_reads_each_lines_seq_h_and_length() {
        let dir = tempfile::tempdir().unwrap();
        let (path, bytes) = testing::ledger(dir.path(), "ledger.jsonl", 4);
        let facts = split_lines(&bytes).unwrap();
        let events: Vec<_> = intent_ledger::read_events(&path)
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(facts.len(), 5);
        for (fact, event) in facts.iter().zip(&events) {
            assert_eq!((fact.seq, fact.h.as_str()), (event.seq, event.h.as_str()));
        }
        let lens: Vec<usize> = testing::lines(&bytes).iter().map(|l| l.len()).collect();
        assert_eq!(facts.iter().map(|f| f.len).collect::<Vec<_>>(), lens);

        // Only complete lines count; a line that is no ledger line is an error
        // that says where it starts.
        let mut broken = bytes.clone();
        broken.extend_from_slice(b"{\"not\":\"a line\"}\n");
        let err = split_lines(&broken).unwrap_err().to_string();
        assert!(err.contains(&format!("at byte {}", bytes.len())), "{err}");
        assert_eq!(split_lines(&bytes[..bytes.len() - 1]).unwrap().len(), 4);
    }

    /// The `ledger.json` of a checkpoint that ended at the last line of `bytes`.
    fn checkpoint_meta(bytes: &[u8]) -> Meta {
        let facts = split_lines(bytes).unwrap();
        let last = facts.last().unwrap();
        Meta {
            format: 1,
            ledger_id: "0".repeat(64),
            seq: last.seq,
            h: last.h.clone(),
            last_start: (bytes.len() - last.len) as u64,
            bytes: bytes.len() as u64,
            sealed_end: 0,
            sealed_seq: 0,
            segment_lines: SEGMENT_LINES,
            pieces: vec!["tail/000000000001.jsonl.zst".into()],
            user: "ann@example.com".into(),
            machine: "box".into(),
            clone: "/src/app".into(),
            published_at: "2026-01-02T03:04:05.000000Z".into(),
        }
    }

    #[test]
    fn a_checkpoint_holds_while_the_ledger_only_grows() {
        let dir = tempfile::tempdir().unwrap();
        let (path, bytes) = testing::ledger(dir.path(), "ledger.jsonl", 3);
        let meta = checkpoint_meta(&bytes);
        still_holds(&File::open(&path).unwrap(), &meta).unwrap();

        let (_, grown) = testing::ledger(dir.path(), "ledger.jsonl", 2);
        assert!(grown.len() > bytes.len());
        still_holds(&File::open(&path).unwrap(), &meta).unwrap();

        let short = dir.path().join("short.jsonl");
        std::fs::write(&short, &bytes[..bytes.len() - 10]).unwrap();
        let err = still_holds(&File::open(&short).unwrap(), &meta).unwrap_err();
        assert!(
            format!("{err:#}").contains("shorter than the checkpoint"),
            "{err:#}"
        );

        // Another ledger where the checkpoint's last line was: another `h`.
        let (foreign, _) = testing::ledger(dir.path(), "foreign.jsonl", 3);
        let err = still_holds(&File::open(&foreign).unwrap(), &meta).unwrap_err();
        assert!(format!("{err:#}").contains("was rewritten"), "{err:#}");
    }

    #[test]
    fn ledger_json_round_trips_and_older_ones_without_pieces_parse() {
        let dir = tempfile::tempdir().unwrap();
        let (_, bytes) = testing::ledger(dir.path(), "ledger.jsonl", 1);
        let meta = checkpoint_meta(&bytes);
        let text = serde_json::to_string_pretty(&meta).unwrap();
        assert_eq!(serde_json::from_str::<Meta>(&text).unwrap(), meta);

        let mut older: serde_json::Value = serde_json::from_str(&text).unwrap();
        older.as_object_mut().unwrap().remove("pieces");
        let read: Meta = serde_json::from_value(older).unwrap();
        assert!(read.pieces.is_empty());
        assert_eq!(read.h, meta.h);
    }

    #[test]
    fn a_ledger_is_published_under_its_id() {
        let dir = tempfile::tempdir().unwrap();
        let (path, bytes) = testing::ledger(dir.path(), "ledger.jsonl", 0);
        let id = ledger_id_of(&path).unwrap();
        let genesis =
            intent_ledger::line::inspect(testing::lines(&bytes)[0].strip_suffix(b"\n").unwrap())
                .unwrap();
        assert_eq!(id.as_bytes(), genesis.prev);
        assert_eq!(ledger_ref(&id), format!("refs/intent/ledgers/{id}"));
        assert_eq!(ledger_id_of(&dir.path().join("missing.jsonl")), None);
    }

    #[test]
    fn parts_round_trip_and_older_plain_parts_read_as_they_are() {
        let lines = b"{\"v\":1,\"seq\":1}\n".repeat(500);
        let frame = encode_part(&lines).unwrap();
        assert!(
            frame.len() * 5 < lines.len(),
            "{} of {}",
            frame.len(),
            lines.len()
        );
        let name = format!("segments/000000000001{PART_SUFFIX}");
        assert_eq!(decode_part(&name, frame).unwrap(), lines);
        assert_eq!(
            decode_part("tail/000000000001.jsonl", lines.clone()).unwrap(),
            lines
        );
        let err = decode_part(&name, b"not a frame".to_vec()).unwrap_err();
        assert!(
            format!("{err:#}").contains("not a readable zstd frame"),
            "{err:#}"
        );
    }
}
