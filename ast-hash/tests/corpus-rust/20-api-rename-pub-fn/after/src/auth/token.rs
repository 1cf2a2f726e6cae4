use std::time::{Duration, SystemTime, UNIX_EPOCH};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claims {
    pub subject: String,
    pub expires_at: u64,
}

#[derive(Debug, PartialEq, Eq)]
pub enum TokenError {
    Malformed,
    BadSignature,
    Expired,
}

fn checksum(payload: &str, key: &[u8]) -> u64 {
    // FNV-1a over key and payload; a stand-in for an HMAC in this service.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in key.iter().chain(payload.as_bytes()) {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Issues `subject|expires.checksum` valid for `ttl`.
pub fn issue(subject: &str, ttl: Duration, key: &[u8]) -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let payload = format!("{subject}|{}", (now + ttl).as_secs());
    format!("{payload}.{:016x}", checksum(&payload, key))
}

/// Checks signature and expiry of a token produced by [`issue`].
pub fn validate(token: &str, key: &[u8], now_secs: u64) -> Result<Claims, TokenError> {
    let (payload, sig) = token.rsplit_once('.').ok_or(TokenError::Malformed)?;
    if format!("{:016x}", checksum(payload, key)) != sig {
        return Err(TokenError::BadSignature);
    }
    let (subject, exp) = payload.split_once('|').ok_or(TokenError::Malformed)?;
    let expires_at: u64 = exp.parse().map_err(|_| TokenError::Malformed)?;
    if now_secs >= expires_at {
        return Err(TokenError::Expired);
    }
    Ok(Claims {
        subject: subject.to_string(),
        expires_at,
    })
}

/// Convenience wrapper for request handlers.
pub fn subject_of(token: &str, key: &[u8], now_secs: u64) -> Option<String> {
    validate(token, key, now_secs).ok().map(|c| c.subject)
}
