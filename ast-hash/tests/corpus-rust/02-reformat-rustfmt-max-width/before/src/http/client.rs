use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

#[derive(Debug, Clone)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

pub struct Client {
    timeout: Duration,
    user_agent: String,
}

impl Client {
    pub fn new(timeout: Duration, user_agent: impl Into<String>) -> Self {
        Client {
            timeout,
            user_agent: user_agent.into(),
        }
    }

    pub fn get(&self, host: &str, port: u16, path: &str) -> io::Result<Response> {
        let mut stream = TcpStream::connect((host, port))?;
        stream.set_read_timeout(Some(self.timeout))?;
        stream.set_write_timeout(Some(self.timeout))?;
        let request = format!(
            "GET {path} HTTP/1.0\r\nHost: {host}\r\nUser-Agent: {}\r\nConnection: close\r\n\r\n",
            self.user_agent
        );
        stream.write_all(request.as_bytes())?;
        read_response(BufReader::new(stream))
    }
}

fn read_response<R: Read>(mut reader: BufReader<R>) -> io::Result<Response> {
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, "bad status line"))?;
    let mut headers = Vec::new();
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 || line.trim_end().is_empty() {
            break;
        }
        if let Some((name, value)) = line.trim_end().split_once(':') {
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
        }
    }
    let mut body = Vec::new();
    reader.read_to_end(&mut body)?;
    Ok(Response {
        status,
        headers,
        body,
    })
}
