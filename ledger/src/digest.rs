//! SHA-256 digests in the ledger's `sha256:<hex>` notation: the form every event
//! that names a file's content uses, and the recovery journal checks.

use std::io::Read;
use std::path::Path;

use sha2::{Digest, Sha256};

/// Returns `sha256:<hex>` of a file's bytes, `None` if it does not exist.
pub fn file_sha256(path: &Path) -> std::io::Result<Option<String>> {
    let mut file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(Some(format!("sha256:{}", hex::encode(hasher.finalize()))))
}

/// Returns `sha256:<hex>` of bytes.
pub fn bytes_sha256(bytes: &[u8]) -> String {
    format!("sha256:{}", hex::encode(Sha256::digest(bytes)))
}
