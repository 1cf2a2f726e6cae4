//! Just enough HTTP/1.1 for the loopback mocks of model APIs (`claude::mock`,
//! `codex::mock`, `gemini::mock`): incremental request parsing (Content-Length and
//! chunked bodies, keep-alive), fixed-length responses, and a small threaded server
//! that records every request and answers it with a handler.

// Each mock uses a different part of this module.
#![allow(dead_code)]

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use serde_json::{json, Value};

/// A complete request.
#[derive(Debug)]
pub struct Request {
    /// `GET`, `POST`, …
    pub method: String,
    /// Request target, with query.
    pub path: String,
    /// HTTP version, e.g. `HTTP/1.1`.
    pub version: String,
    /// Headers in arrival order, names lowercased.
    pub headers: Vec<(String, String)>,
    /// The body, de-chunked.
    pub body: Vec<u8>,
}

impl Request {
    /// Returns the first header with this (lowercase) name.
    pub fn header(&self, name: &str) -> Option<&str> {
        header(&self.headers, name)
    }

    /// Tells whether the connection ends after this request.
    pub fn wants_close(&self) -> bool {
        let connection = self.header("connection").unwrap_or("").to_ascii_lowercase();
        connection.contains("close")
            || (self.version == "HTTP/1.0" && !connection.contains("keep-alive"))
    }
}

/// What the bytes received so far amount to.
#[derive(Debug)]
pub enum Parsed {
    /// A whole request, and how many bytes of the buffer it used.
    Complete(Request, usize),
    /// The head is not complete yet.
    NeedHead,
    /// The head is complete, the body is not.
    NeedBody {
        /// The client waits for `100 Continue` before sending the body.
        expect_continue: bool,
    },
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// Parses the first request in `buf`, if it is all there.
///
/// Re-parsing from the start on every read is quadratic in theory but requests here
/// are ~100 KB and arrive in a few reads; simplicity wins.
pub fn parse_request(buf: &[u8]) -> Result<Parsed, String> {
    let Some(head_end) = find(buf, b"\r\n\r\n") else {
        return Ok(Parsed::NeedHead);
    };
    let head = std::str::from_utf8(&buf[..head_end]).map_err(|_| "head is not UTF-8")?;
    let mut lines = head.split("\r\n");
    let mut first = lines.next().unwrap_or("").split(' ');
    let (Some(method), Some(path), Some(version)) = (first.next(), first.next(), first.next())
    else {
        return Err(format!("bad request line in {head:?}"));
    };
    let mut headers = Vec::new();
    for line in lines {
        let (name, value) = line
            .split_once(':')
            .ok_or_else(|| format!("bad header line {line:?}"))?;
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
    }
    let body_start = head_end + 4;
    let chunked = header(&headers, "transfer-encoding")
        .is_some_and(|te| te.to_ascii_lowercase().contains("chunked"));
    let body = if chunked {
        dechunk(&buf[body_start..])?
    } else {
        let length: usize = match header(&headers, "content-length") {
            Some(v) => v.parse().map_err(|_| format!("bad content-length {v:?}"))?,
            None => 0,
        };
        buf.get(body_start..body_start + length)
            .map(|body| (body.to_vec(), length))
    };
    let Some((body, body_len)) = body else {
        let expect_continue =
            header(&headers, "expect").is_some_and(|e| e.eq_ignore_ascii_case("100-continue"));
        return Ok(Parsed::NeedBody { expect_continue });
    };
    let request = Request {
        method: method.to_owned(),
        path: path.to_owned(),
        version: version.to_owned(),
        headers,
        body,
    };
    Ok(Parsed::Complete(request, body_start + body_len))
}

/// Decodes a chunked body; `None` while incomplete, else the body and bytes used.
fn dechunk(buf: &[u8]) -> Result<Option<(Vec<u8>, usize)>, String> {
    let mut body = Vec::new();
    let mut at = 0;
    loop {
        let Some(line_end) = find(&buf[at..], b"\r\n") else {
            return Ok(None);
        };
        let line = std::str::from_utf8(&buf[at..at + line_end]).map_err(|_| "bad chunk size")?;
        let size = line.split(';').next().unwrap_or("").trim();
        let size = usize::from_str_radix(size, 16).map_err(|_| format!("bad chunk {line:?}"))?;
        at += line_end + 2;
        if size == 0 {
            // Trailers (rarely sent) end with an empty line, like the head.
            let Some(end) = find(&buf[at..], b"\r\n") else {
                return Ok(None);
            };
            if end == 0 {
                return Ok(Some((body, at + 2)));
            }
            let Some(end) = find(&buf[at..], b"\r\n\r\n") else {
                return Ok(None);
            };
            return Ok(Some((body, at + end + 4)));
        }
        if buf.len() < at + size + 2 {
            return Ok(None);
        }
        body.extend_from_slice(&buf[at..at + size]);
        at += size + 2;
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// A response with a known length.
pub struct Response {
    status: u16,
    content_type: &'static str,
    body: Vec<u8>,
}

impl Response {
    /// A JSON response.
    pub fn json(status: u16, body: &serde_json::Value) -> Response {
        Response {
            status,
            content_type: "application/json",
            body: body.to_string().into_bytes(),
        }
    }

    /// A server-sent-events stream, sent whole: the client parses it just the same.
    pub fn sse(events: String) -> Response {
        Response {
            status: 200,
            content_type: "text/event-stream",
            body: events.into_bytes(),
        }
    }
}

/// Writes a response; `head_only` omits the body (HEAD requests).
pub fn write_response(
    out: &mut impl Write,
    response: &Response,
    head_only: bool,
    close: bool,
) -> io::Result<()> {
    let reason = if response.status == 200 {
        "OK"
    } else {
        "Error"
    };
    let connection = if close { "close" } else { "keep-alive" };
    let mut bytes = format!(
        "HTTP/1.1 {} {reason}\r\ncontent-type: {}\r\ncontent-length: {}\r\n\
         cache-control: no-cache\r\nrequest-id: req_mock\r\nconnection: {connection}\r\n\r\n",
        response.status,
        response.content_type,
        response.body.len()
    )
    .into_bytes();
    if !head_only {
        bytes.extend_from_slice(&response.body);
    }
    out.write_all(&bytes)?;
    out.flush()
}

/// How often idle connection threads wake up to check for shutdown.
const POLL: Duration = Duration::from_millis(50);

/// One HTTP request a mock received.
#[derive(Clone, Debug)]
pub struct RecordedRequest {
    /// `GET`, `POST`, …
    pub method: String,
    /// Path with query, e.g. `/v1/messages?beta=true`.
    pub path: String,
    /// Headers in arrival order, names lowercased.
    pub headers: Vec<(String, String)>,
    /// The body parsed as JSON, when it is JSON.
    pub body: Option<Value>,
}

impl RecordedRequest {
    /// Returns the first header with this (case-insensitive) name.
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        header(&self.headers, &name)
    }

    /// Returns the path without its query.
    pub fn path_only(&self) -> &str {
        path_only(&self.path)
    }
}

/// Returns `path` without its query.
pub fn path_only(path: &str) -> &str {
    path.split('?').next().unwrap_or(path)
}

/// Builds the reply to one request; the body comes parsed when it is JSON.
pub type Handler = dyn Fn(&Request, Option<&Value>) -> Response + Send + Sync;

/// State shared by the accept thread and the connection threads.
struct Shared {
    handler: Box<Handler>,
    requests: Mutex<Vec<RecordedRequest>>,
    stop: AtomicBool,
}

/// A running server on an ephemeral loopback port; stops (and joins its threads) on
/// drop. It never blocks a client: a handler answers every request.
pub struct MockServer {
    addr: SocketAddr,
    shared: Arc<Shared>,
    accept: Option<JoinHandle<()>>,
}

impl MockServer {
    /// Starts a server whose requests are answered by `handler`.
    pub fn start(
        name: &str,
        handler: impl Fn(&Request, Option<&Value>) -> Response + Send + Sync + 'static,
    ) -> io::Result<MockServer> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let addr = listener.local_addr()?;
        let shared = Arc::new(Shared {
            handler: Box::new(handler),
            requests: Mutex::new(Vec::new()),
            stop: AtomicBool::new(false),
        });
        let accept = {
            let shared = Arc::clone(&shared);
            thread::Builder::new()
                .name(name.to_owned())
                .spawn(move || accept_loop(listener, shared))?
        };
        Ok(MockServer {
            addr,
            shared,
            accept: Some(accept),
        })
    }

    /// Returns `http://127.0.0.1:<port>`.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Returns a copy of every request received so far, in arrival order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.shared.requests.lock().unwrap().clone()
    }
}

impl Drop for MockServer {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        // `accept` blocks; a throwaway connection wakes it so it sees the flag.
        let _ = TcpStream::connect(self.addr);
        if let Some(handle) = self.accept.take() {
            let _ = handle.join();
        }
    }
}

fn accept_loop(listener: TcpListener, shared: Arc<Shared>) {
    let mut connections = Vec::new();
    for stream in listener.incoming() {
        if shared.stop.load(Ordering::SeqCst) {
            break;
        }
        let Ok(stream) = stream else { continue };
        let shared = Arc::clone(&shared);
        // One thread per connection: clients keep connections alive between calls.
        connections.push(thread::spawn(move || {
            let _ = serve_connection(stream, &shared);
        }));
    }
    for handle in connections {
        let _ = handle.join();
    }
}

fn serve_connection(mut stream: TcpStream, shared: &Shared) -> io::Result<()> {
    stream.set_read_timeout(Some(POLL))?;
    stream.set_nodelay(true)?;
    let mut buf = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];
    let mut sent_continue = false;
    loop {
        match parse_request(&buf) {
            Ok(Parsed::Complete(request, used)) => {
                buf.drain(..used);
                sent_continue = false;
                let close = request.wants_close();
                let body = serde_json::from_slice::<Value>(&request.body).ok();
                shared.requests.lock().unwrap().push(RecordedRequest {
                    method: request.method.clone(),
                    path: request.path.clone(),
                    headers: request.headers.clone(),
                    body: body.clone(),
                });
                let reply = (shared.handler)(&request, body.as_ref());
                write_response(&mut stream, &reply, request.method == "HEAD", close)?;
                if close {
                    return Ok(());
                }
                continue;
            }
            Ok(Parsed::NeedBody { expect_continue }) if expect_continue && !sent_continue => {
                stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n")?;
                sent_continue = true;
            }
            Ok(_) => {}
            Err(message) => {
                let reply = Response::json(400, &json!({"error": message}));
                return write_response(&mut stream, &reply, false, true);
            }
        }
        match stream.read(&mut chunk) {
            Ok(0) => return Ok(()),
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if is_timeout(&e) => {
                if shared.stop.load(Ordering::SeqCst) {
                    return Ok(());
                }
            }
            Err(e) => return Err(e),
        }
    }
}

fn is_timeout(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut | io::ErrorKind::Interrupted
    )
}

#[test]
fn parses_content_length_and_chunked_bodies_back_to_back() {
    let raw = b"POST /a HTTP/1.1\r\nContent-Length: 2\r\n\r\nhiPOST /b HTTP/1.1\r\n\
        Transfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\nGET /c";
    let Ok(Parsed::Complete(a, used)) = parse_request(raw) else {
        panic!("first request")
    };
    assert_eq!((a.path.as_str(), a.body.as_slice()), ("/a", &b"hi"[..]));
    let Ok(Parsed::Complete(b, used_b)) = parse_request(&raw[used..]) else {
        panic!("second request")
    };
    assert_eq!((b.path.as_str(), b.body.as_slice()), ("/b", &b"abcde"[..]));
    assert!(matches!(
        parse_request(&raw[used + used_b..]),
        Ok(Parsed::NeedHead)
    ));
    assert!(matches!(
        parse_request(b"POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nab"),
        Ok(Parsed::NeedBody { .. })
    ));
}
