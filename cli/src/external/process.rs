//! One external adapter process and the lines exchanged with it: a request written,
//! one answer read, under a deadline and a size limit. The adapter is someone
//! else's program: everything it prints is checked before use, and a wait on it
//! never outlasts [`timeout`].

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

/// How long an adapter has to answer one request, unless `INTENT_ADAPTER_TIMEOUT_MS`
/// says otherwise: well inside every agent's hook timeout (the shortest we know is
/// Cursor's and Cline's 30 s), with the gate's own answer still to come.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(5);

/// The adapter's stderr kept for messages: its last this many bytes.
const STDERR_KEPT: usize = 4096;

/// The time an adapter gets to exit after its last answer before it is killed.
const EXIT_GRACE: Duration = Duration::from_millis(500);

/// The time limit of one request: `INTENT_ADAPTER_TIMEOUT_MS` (1 ms to 60 s),
/// else 5 s.
pub fn timeout() -> Duration {
    std::env::var("INTENT_ADAPTER_TIMEOUT_MS")
        .ok()
        .and_then(|ms| ms.parse::<u64>().ok())
        .filter(|ms| (1..=60_000).contains(ms))
        .map_or(DEFAULT_TIMEOUT, Duration::from_millis)
}

/// A running adapter.
pub struct Process {
    path: PathBuf,
    child: Child,
    /// Lines to write, handed to a writer thread so that an adapter that does not
    /// read cannot block us past the deadline.
    to_adapter: Option<SyncSender<Vec<u8>>>,
    /// Lines the adapter printed, read by a reader thread (each bounded).
    from_adapter: Receiver<Result<Vec<u8>, String>>,
    /// One line's size limit per answer wanted: the reader reads a line only when
    /// asked, with the limit of the answer it is for.
    limits: SyncSender<usize>,
    stderr: Arc<Mutex<Vec<u8>>>,
    timeout: Duration,
}

impl Process {
    /// Starts the adapter at `path` in the hook's directory, with the hook's
    /// environment (its agent's variables are the adapter's to read).
    pub fn start(path: &Path) -> Result<Process, String> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start it ({e})"))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr_pipe = child.stderr.take().expect("piped stderr");

        let (to_adapter, lines_out) = sync_channel::<Vec<u8>>(1);
        std::thread::spawn(move || write_lines(stdin, lines_out));

        let (limits, wanted) = sync_channel(1);
        let (lines_in, from_adapter) = sync_channel(1);
        std::thread::spawn(move || read_lines(stdout, wanted, &lines_in));

        let stderr = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&stderr);
        std::thread::spawn(move || keep_tail(stderr_pipe, &kept));

        Ok(Process {
            path: path.to_path_buf(),
            child,
            to_adapter: Some(to_adapter),
            from_adapter,
            limits,
            stderr,
            timeout: timeout(),
        })
    }

    /// Writes `request` as one line and reads one JSON object back, of at most
    /// `limit` bytes, within the time limit. The error says what went wrong.
    pub fn ask(&mut self, request: &Value, limit: usize) -> Result<Value, String> {
        let mut line = serde_json::to_vec(request).map_err(|e| e.to_string())?;
        line.push(b'\n');
        let sent = self.to_adapter.as_ref().map(|tx| tx.send(line));
        if !matches!(sent, Some(Ok(()))) {
            return Err(self.gone("stopped reading its input"));
        }
        if self.limits.send(limit).is_err() {
            return Err(self.gone("closed its output"));
        }
        let line = match self.from_adapter.recv_timeout(self.timeout) {
            Ok(Ok(line)) => line,
            Ok(Err(why)) => return Err(self.gone(&why)),
            Err(RecvTimeoutError::Timeout) => {
                let _ = self.child.kill();
                return Err(format!(
                    "did not answer within {} ms (INTENT_ADAPTER_TIMEOUT_MS); it was stopped",
                    self.timeout.as_millis()
                ));
            }
            Err(RecvTimeoutError::Disconnected) => return Err(self.gone("closed its output")),
        };
        let value: Value = serde_json::from_slice(&line).map_err(|e| {
            let shown: String = String::from_utf8_lossy(&line).chars().take(120).collect();
            format!("printed a line that is not JSON ({e}): {shown:?}")
        })?;
        if !value.is_object() {
            return Err(format!("printed {value:.120} where a JSON object belongs"));
        }
        Ok(value)
    }

    /// What the adapter wrote on stderr, its last 4 KiB.
    pub fn stderr(&self) -> String {
        let kept = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        String::from_utf8_lossy(&kept).into_owned()
    }

    /// The adapter's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Closes its input and gives it a moment to exit, then stops it.
    pub fn finish(mut self) {
        self.to_adapter = None;
        let until = Instant::now() + EXIT_GRACE;
        while Instant::now() < until {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Why the adapter stopped answering, with its exit status when it has one.
    fn gone(&mut self, why: &str) -> String {
        // The reader saw the end of its output: give its exit a moment to land.
        let until = Instant::now() + Duration::from_millis(200);
        let mut status = None;
        while Instant::now() < until {
            if let Ok(Some(s)) = self.child.try_wait() {
                status = Some(s);
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        match status {
            Some(status) => format!("{why} ({status})"),
            None => why.to_string(),
        }
    }
}

impl Drop for Process {
    /// An adapter is never left running after the hook.
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn write_lines(mut stdin: ChildStdin, lines: Receiver<Vec<u8>>) {
    for line in lines {
        if stdin.write_all(&line).and_then(|()| stdin.flush()).is_err() {
            return;
        }
    }
}

/// Reads one line per limit in `wanted`, until the end or a line too long; each
/// result goes to `out`. Nothing is read that was not asked for.
fn read_lines(
    stdout: impl Read,
    wanted: Receiver<usize>,
    out: &SyncSender<Result<Vec<u8>, String>>,
) {
    let mut reader = BufReader::new(stdout);
    for max in wanted {
        let mut line = Vec::new();
        let read = (&mut reader)
            .take(max as u64 + 1)
            .read_until(b'\n', &mut line);
        let result = match read {
            Err(e) => Err(format!("its output cannot be read ({e})")),
            Ok(0) => Err("exited or closed its output without answering".to_string()),
            Ok(_) if line.last() != Some(&b'\n') && line.len() > max => {
                Err(format!("printed a line over {max} bytes"))
            }
            Ok(_) if line.last() != Some(&b'\n') => {
                Err("closed its output in the middle of a line".to_string())
            }
            Ok(_) => Ok(line),
        };
        let last = result.is_err();
        if out.send(result).is_err() || last {
            return;
        }
    }
}

fn keep_tail(mut pipe: impl Read, kept: &Mutex<Vec<u8>>) {
    let mut buf = [0u8; 4096];
    while let Ok(n) = pipe.read(&mut buf) {
        if n == 0 {
            return;
        }
        let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
        kept.extend_from_slice(&buf[..n]);
        if kept.len() > STDERR_KEPT {
            let cut = kept.len() - STDERR_KEPT;
            kept.drain(..cut);
        }
    }
}
