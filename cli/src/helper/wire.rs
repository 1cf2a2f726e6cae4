//! What client and helper say to each other: one request, one answer per
//! connection. A frame is a 4-byte tag, the protocol number, a postcard header and
//! (for a hook) the payload's raw bytes, so a 64 MiB payload is copied, not encoded
//! byte by byte.

use std::io::{Read, Write};

use serde::{Deserialize, Serialize};

use super::PROTOCOL;

const ASK_TAG: &[u8; 4] = b"INTQ";
const ANSWER_TAG: &[u8; 4] = b"INTA";
/// No header is anywhere near this; a larger length is garbage, not a request.
const MAX_HEADER: u32 = 1 << 20;
/// The largest payload a hook reads, plus the byte that tells it is too large.
const MAX_BODY: u64 = intent_engine::respond::MAX_PAYLOAD_BYTES + 1;

/// What a client asks.
#[derive(Debug, Serialize, Deserialize)]
pub enum Ask {
    /// Answer this hook (its payload follows the header).
    Hook(Box<HookAsk>),
    /// Say who you are and what you did.
    Status,
    /// Exit once the hooks in flight are answered.
    Stop,
}

/// One hook, as the client process would have run it.
#[derive(Debug, Serialize, Deserialize)]
pub struct HookAsk {
    /// The client's binary ([`super::exe_identity`]).
    pub exe: String,
    /// The client's [`super::shared_environment`].
    pub shared_env: Vec<(String, String)>,
    /// The client's front-end project directory variables that are set.
    pub project_dirs: Vec<(String, String)>,
    /// Whether the client's `INTENT_HOOK_TIMINGS` is set.
    pub timings: bool,
    /// The client's current directory.
    pub cwd: String,
    /// The client's `--workspace`, canonical.
    pub explicit_workspace: Option<String>,
    /// `intent hook <front-end>`, as clap names it.
    pub front_end: Option<String>,
    /// `--event`.
    pub event: Option<String>,
    /// The hook's seed for the ids of its events (`intent_engine::hook_ids`): if
    /// the client ends up answering the hook itself, its events carry the same ids.
    pub seed: String,
    /// The ledger's length when the hook was sent: both answers look for their
    /// events' ids in the lines written since.
    pub look_from: u64,
    /// The helper's secret ([`super::secret`]): proof that the client may have the
    /// helper record for it (a confined command cannot read it).
    pub token: String,
}

/// What the helper answers.
#[derive(Debug, Serialize, Deserialize)]
pub enum Answer {
    /// The hook was answered: print these.
    Served {
        /// The hook's stdout.
        stdout: String,
        /// The hook's stderr.
        stderr: String,
    },
    /// Another binary or protocol: the client answers itself; the helper exits.
    Stale {
        /// The helper's binary.
        helper_exe: String,
    },
    /// Not answered, nothing recorded: the client answers itself.
    Declined {
        /// Why (another workspace, another environment).
        why: String,
    },
    /// Not answered, but the hook may have been recorded in part (the helper
    /// panicked while answering): the client answers it itself as a repeat.
    Failed {
        /// What went wrong.
        why: String,
    },
    /// Who the helper is.
    Status(Status),
    /// The helper exits once the hooks in flight are answered.
    Stopping,
}

/// What `intent helper status` shows.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Status {
    /// The helper's process id.
    pub pid: u32,
    /// The workspace root it serves.
    pub root: String,
    /// Its binary ([`super::exe_identity`]).
    pub exe: String,
    /// Seconds since it started.
    pub uptime_secs: f64,
    /// Seconds since its last request.
    pub idle_secs: f64,
    /// It exits after this many idle seconds.
    pub idle_limit_secs: u64,
    /// Hooks answered.
    pub served: u64,
    /// Hooks declined or refused as stale.
    pub declined: u64,
    /// What it keeps in memory against its budget.
    pub memory: intent_engine::engine::kept::Memory,
    /// Its resident memory now and at its peak, in bytes (0 where unknown).
    pub rss_bytes: u64,
    /// See `rss_bytes`.
    pub peak_rss_bytes: u64,
}

/// Writes a request: the ask and, for a hook, its payload.
pub fn write_ask(out: &mut impl Write, ask: &Ask, body: &[u8]) -> std::io::Result<()> {
    let header = postcard::to_allocvec(ask).map_err(std::io::Error::other)?;
    let mut frame = Vec::with_capacity(24 + header.len());
    frame.extend_from_slice(ASK_TAG);
    frame.extend_from_slice(&PROTOCOL.to_le_bytes());
    frame.extend_from_slice(&(header.len() as u32).to_le_bytes());
    frame.extend_from_slice(&header);
    frame.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.write_all(&frame)?;
    out.write_all(body)?;
    out.flush()
}

/// A request as read: its protocol, and the ask with its payload when the protocol
/// is ours (another protocol's header is not decoded).
pub struct Request {
    /// The client's protocol number.
    pub protocol: u32,
    /// The ask and the payload, when `protocol` is [`PROTOCOL`].
    pub ask: Option<(Ask, Vec<u8>)>,
}

/// Reads a request; an error for anything that is not one.
pub fn read_ask(input: &mut impl Read) -> std::io::Result<Request> {
    let mut head = [0u8; 8];
    input.read_exact(&mut head)?;
    if &head[..4] != ASK_TAG {
        return Err(invalid("not an intent helper request"));
    }
    let protocol = u32::from_le_bytes(head[4..8].try_into().expect("4 bytes"));
    if protocol != PROTOCOL {
        return Ok(Request {
            protocol,
            ask: None,
        });
    }
    let header = read_block(input, MAX_HEADER as u64, 4)?;
    let ask: Ask = postcard::from_bytes(&header).map_err(std::io::Error::other)?;
    let body = read_block(input, MAX_BODY, 8)?;
    Ok(Request {
        protocol,
        ask: Some((ask, body)),
    })
}

/// Writes the answer.
pub fn write_answer(out: &mut impl Write, answer: &Answer) -> std::io::Result<()> {
    let body = postcard::to_allocvec(answer).map_err(std::io::Error::other)?;
    let mut frame = Vec::with_capacity(12 + body.len());
    frame.extend_from_slice(ANSWER_TAG);
    frame.extend_from_slice(&(body.len() as u64).to_le_bytes());
    frame.extend_from_slice(&body);
    out.write_all(&frame)?;
    out.flush()
}

/// Reads the answer; an error for a truncated or garbled one (a helper that died
/// mid-answer, or something else listening on the socket).
pub fn read_answer(input: &mut impl Read) -> std::io::Result<Answer> {
    let mut tag = [0u8; 4];
    input.read_exact(&mut tag)?;
    if &tag != ANSWER_TAG {
        return Err(invalid("not an intent helper answer"));
    }
    let body = read_block(input, 2 * MAX_BODY, 8)?;
    postcard::from_bytes(&body).map_err(std::io::Error::other)
}

/// Reads a little-endian length of `width` bytes, then that many bytes (at most `max`).
fn read_block(input: &mut impl Read, max: u64, width: usize) -> std::io::Result<Vec<u8>> {
    let mut len = [0u8; 8];
    input.read_exact(&mut len[..width])?;
    let len = u64::from_le_bytes(len);
    if len > max {
        return Err(invalid("a frame longer than any request"));
    }
    let mut block = Vec::with_capacity(len as usize);
    input.take(len).read_to_end(&mut block)?;
    if block.len() as u64 != len {
        return Err(std::io::ErrorKind::UnexpectedEof.into());
    }
    Ok(block)
}

fn invalid(why: &str) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, why.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hook_request_and_its_answer_round_trip() {
        let ask = Ask::Hook(Box::new(HookAsk {
            exe: "intent 1:2".into(),
            shared_env: vec![("HOME".into(), "/home/a".into())],
            project_dirs: vec![],
            timings: true,
            cwd: "/w".into(),
            explicit_workspace: None,
            front_end: Some("claude-code".into()),
            event: None,
            seed: "hook-seed".into(),
            look_from: 4096,
            token: "ab".repeat(32),
        }));
        let mut frame = Vec::new();
        write_ask(&mut frame, &ask, b"{\"x\":1}").unwrap();
        let request = read_ask(&mut frame.as_slice()).unwrap();
        let (Ask::Hook(hook), body) = request.ask.unwrap() else {
            panic!("a hook ask")
        };
        assert_eq!(
            (hook.cwd.as_str(), body.as_slice()),
            ("/w", &b"{\"x\":1}"[..])
        );

        let mut frame = Vec::new();
        let served = Answer::Served {
            stdout: "{}".into(),
            stderr: String::new(),
        };
        write_answer(&mut frame, &served).unwrap();
        assert!(matches!(
            read_answer(&mut frame.as_slice()).unwrap(),
            Answer::Served { stdout, .. } if stdout == "{}"
        ));
    }

    #[test]
    fn truncated_and_foreign_frames_are_errors_not_panics() {
        let mut frame = Vec::new();
        write_ask(&mut frame, &Ask::Status, b"").unwrap();
        for cut in 0..frame.len() {
            assert!(read_ask(&mut &frame[..cut]).is_err(), "cut at {cut}");
        }
        let mut answer = Vec::new();
        write_answer(&mut answer, &Answer::Stopping).unwrap();
        for cut in 0..answer.len() {
            assert!(read_answer(&mut &answer[..cut]).is_err(), "cut at {cut}");
        }
        assert!(read_answer(&mut &b"HTTP/1.1 200 OK\r\n"[..]).is_err());
        let mut huge = b"INTA".to_vec();
        huge.extend_from_slice(&u64::MAX.to_le_bytes());
        assert!(read_answer(&mut huge.as_slice()).is_err());
    }

    #[test]
    fn another_protocol_is_recognized_without_decoding_it() {
        let mut frame = b"INTQ".to_vec();
        frame.extend_from_slice(&(PROTOCOL + 1).to_le_bytes());
        frame.extend_from_slice(b"whatever follows");
        let request = read_ask(&mut frame.as_slice()).unwrap();
        assert_eq!(request.protocol, PROTOCOL + 1);
        assert!(request.ask.is_none());
    }
}
