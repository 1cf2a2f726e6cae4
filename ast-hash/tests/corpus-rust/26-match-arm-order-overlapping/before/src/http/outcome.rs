/// What the client does with a response status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Done,
    RetryLater,
    ServerError,
    ClientError,
    Unexpected,
}

pub const MAX_RETRIES: u32 = 4;

/// Maps a status code to an outcome. Rate limiting (429) and maintenance (503)
/// are retried a few times; the first matching arm wins.
pub fn classify(status: u16, attempt: u32) -> Outcome {
    match status {
        429 | 503 if attempt < MAX_RETRIES => Outcome::RetryLater,
        500..=599 => Outcome::ServerError,
        400..=499 => Outcome::ClientError,
        200..=299 => Outcome::Done,
        _ => Outcome::Unexpected,
    }
}

/// Backoff before retry number `attempt`, in milliseconds.
pub fn backoff_ms(attempt: u32) -> u64 {
    250 * 2u64.pow(attempt.min(6))
}

/// Runs `send` until it yields a final outcome; returns it with the attempts used.
pub fn run(mut send: impl FnMut(u32) -> u16, mut sleep: impl FnMut(u64)) -> (Outcome, u32) {
    let mut attempt = 0;
    loop {
        let outcome = classify(send(attempt), attempt);
        if outcome != Outcome::RetryLater {
            return (outcome, attempt + 1);
        }
        sleep(backoff_ms(attempt));
        attempt += 1;
    }
}
