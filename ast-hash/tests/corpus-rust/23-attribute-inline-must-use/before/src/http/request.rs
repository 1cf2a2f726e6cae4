use std::time::Duration;

/// An outgoing HTTP request, built fluently.
#[derive(Debug, Clone, PartialEq)]
pub struct RequestBuilder {
    method: &'static str,
    url: String,
    headers: Vec<(String, String)>,
    timeout: Option<Duration>,
    body: Vec<u8>,
}

impl RequestBuilder {
    pub fn get(url: impl Into<String>) -> Self {
        Self::new("GET", url.into())
    }

    pub fn post(url: impl Into<String>, body: Vec<u8>) -> Self {
        RequestBuilder {
            body,
            ..Self::new("POST", url.into())
        }
    }

    fn new(method: &'static str, url: String) -> Self {
        RequestBuilder {
            method,
            url,
            headers: Vec::new(),
            timeout: None,
            body: Vec::new(),
        }
    }

    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers
            .push((name.to_ascii_lowercase(), value.to_string()));
        self
    }

    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    pub fn content_length(&self) -> usize {
        self.body.len()
    }

    /// The request head as sent on the wire.
    pub fn head(&self) -> String {
        let mut head = format!("{} {} HTTP/1.1\r\n", self.method, self.url);
        for (name, value) in &self.headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str(&format!(
            "content-length: {}\r\n\r\n",
            self.content_length()
        ));
        head
    }
}
