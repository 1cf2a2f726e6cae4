use std::time::Instant;

/// Token-bucket rate limiter: `capacity` burst, refilled at `rate` tokens/s.
#[derive(Debug, Clone)]
pub struct TokenBucket {
    capacity: f64,
    rate: f64,
    tokens: f64,
    last: Instant,
}

impl TokenBucket {
    pub fn new(capacity: u32, rate_per_sec: f64, now: Instant) -> Self {
        TokenBucket {
            capacity: f64::from(capacity),
            rate: rate_per_sec,
            tokens: f64::from(capacity),
            last: now,
        }
    }

    fn refill(&mut self, now: Instant) {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.tokens = (self.tokens + elapsed * self.rate).min(self.capacity);
        self.last = now;
    }

    /// Takes one token if available.
    pub fn try_acquire(&mut self, now: Instant) -> bool {
        self.refill(now);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// Whole tokens left, for the `X-RateLimit-Remaining` header.
    pub fn remaining(&self) -> u32 {
        self.tokens.floor() as u32
    }
}
