use std::io;
use std::net::{SocketAddr, TcpStream};
use std::thread;
use std::time::Duration;

// Pause between reconnect attempts. Unit tests use a tiny delay so that the
// retry tests finish quickly; production waits five seconds.
#[cfg(test)]
const RECONNECT_DELAY: Duration = Duration::from_secs(5);
#[cfg(not(test))]
const RECONNECT_DELAY: Duration = Duration::from_millis(1);

const MAX_ATTEMPTS: u32 = 10;

/// Connects to `addr`, retrying up to `MAX_ATTEMPTS` times with a fixed delay.
pub fn connect_with_retry(addr: SocketAddr) -> io::Result<TcpStream> {
    let mut last_err = None;
    for attempt in 1..=MAX_ATTEMPTS {
        match TcpStream::connect_timeout(&addr, Duration::from_secs(2)) {
            Ok(stream) => return Ok(stream),
            Err(e) => {
                eprintln!("reconnect: attempt {attempt} to {addr} failed: {e}");
                last_err = Some(e);
                thread::sleep(RECONNECT_DELAY);
            }
        }
    }
    Err(last_err.unwrap_or_else(|| io::Error::other("no attempt made")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gives_up_after_max_attempts() {
        let addr: SocketAddr = "127.0.0.1:9".parse().unwrap();
        assert!(connect_with_retry(addr).is_err());
    }
}
