use std::time::Duration;

/// Server settings; fields not present in the config file keep their
/// default values.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Settings {
    pub port: u16,
    pub workers: usize,
    pub request_timeout: Duration,
    pub compress: bool,
    pub log_requests: bool,
}

impl Settings {
    /// Applies `KEY=value` overrides from the environment-style list.
    pub fn with_overrides<'a>(
        mut self,
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Self {
        for (key, value) in pairs {
            match key {
                "PORT" => self.port = value.parse().unwrap_or(self.port),
                "WORKERS" => self.workers = value.parse().unwrap_or(self.workers),
                "COMPRESS" => self.compress = value == "1",
                "LOG_REQUESTS" => self.log_requests = value == "1",
                _ => {}
            }
        }
        self
    }
}
