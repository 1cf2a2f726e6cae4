//! `intent attest` (issue #32): a signed in-toto attestation of a range's review
//! with a fresh SSH key as git's signing key; `--verify` succeeds on it and fails,
//! with a reason, when one byte of the envelope changes, when the commit is
//! another, when the signer is not the one allowed, and when the ledger it rests
//! on is edited.

use std::path::Path;
use std::process::Command;

use base64::Engine as _;
use serde_json::Value;

use crate::common::stderr;
use crate::gitrepo::{git, Checkout};

const AUTH: &str =
    "export function verify(token: string): boolean {\n  return token.length > 8;\n}\n";

fn keygen(path: &Path) {
    let out = Command::new("ssh-keygen")
        .args([
            "-q",
            "-t",
            "ed25519",
            "-N",
            "",
            "-C",
            "tester@example.com",
            "-f",
        ])
        .arg(path)
        .output()
        .expect("ssh-keygen runs");
    assert!(out.status.success(), "{}", stderr(&out));
}

/// `intent attest --verify FILE extra…`: (exit code, stdout).
fn verify(c: &Checkout, file: &Path, extra: &[&str]) -> (Option<i32>, String) {
    let mut args = vec!["attest", "--verify", file.to_str().unwrap()];
    args.extend_from_slice(extra);
    let out = c.intent(&args, None);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn an_attestation_verifies_and_every_tampering_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let c = Checkout::create(&dir.path().join("repo"));
    let key = dir.path().join("signing_key");
    keygen(&key);
    git(&c.root, &["config", "gpg.format", "ssh"]);
    git(
        &c.root,
        &["config", "user.signingkey", key.to_str().unwrap()],
    );
    git(&c.root, &["checkout", "-qb", "feature"]);
    c.select("s1");
    c.agent_write("s1", "src/auth.ts", AUTH, "w1");
    git(&c.root, &["add", "-A"]);
    git(&c.root, &["commit", "-qm", "auth"]);
    let head = git(&c.root, &["rev-parse", "HEAD"]);

    let envelope = dir.path().join("review.intoto.json");
    c.intent_ok(&["attest", "main..HEAD", "-o", envelope.to_str().unwrap()]);
    let (code, out) = verify(&c, &envelope, &[]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.starts_with("verified: commit "), "{out}");

    // What it says: the commit, the changed file's hash, the cited trace.
    let text = std::fs::read_to_string(&envelope).unwrap();
    let env: Value = serde_json::from_str(&text).unwrap();
    let b64 = base64::engine::general_purpose::STANDARD;
    let payload = b64.decode(env["payload"].as_str().unwrap()).unwrap();
    let statement: Value = serde_json::from_slice(&payload).unwrap();
    assert_eq!(statement["_type"], "https://in-toto.io/Statement/v1");
    assert_eq!(
        statement["subject"][0]["digest"]["gitCommit"],
        head.as_str()
    );
    assert_eq!(statement["subject"][1]["name"], "src/auth.ts");
    let trace = c
        .events()
        .into_iter()
        .find(|e| e.kind == "trace" && e.data["path"] == "src/auth.ts")
        .unwrap();
    let cited = &statement["predicate"]["events"][0];
    assert_eq!(
        (cited["id"].as_str(), cited["h"].as_str()),
        (Some(trace.id.as_str()), Some(trace.h.as_str()))
    );

    // One byte of the envelope changed: the signature no longer verifies.
    let mut forged = payload.clone();
    let at = forged.windows(7).position(|w| w == b"auth.ts").unwrap();
    forged[at] = b'A';
    let mut edited = env.clone();
    edited["payload"] = b64.encode(&forged).into();
    let tampered = dir.path().join("tampered.json");
    std::fs::write(&tampered, edited.to_string()).unwrap();
    let (code, out) = verify(&c, &tampered, &[]);
    assert_eq!(code, Some(5), "{out}");
    assert!(
        out.contains("NOT VERIFIED: the signature does not verify"),
        "{out}"
    );

    // Only the allowed signer, under its identity.
    let public = std::fs::read_to_string(dir.path().join("signing_key.pub")).unwrap();
    let allowed = dir.path().join("allowed_signers");
    std::fs::write(&allowed, format!("tester@example.com {public}")).unwrap();
    let allowed = allowed.to_str().unwrap();
    let with = |who: &str| {
        verify(
            &c,
            &envelope,
            &["--allowed-signers", allowed, "--identity", who],
        )
    };
    assert_eq!(with("tester@example.com").0, Some(0));
    let (code, out) = with("mallory@example.com");
    assert_eq!(code, Some(5), "{out}");
    assert!(out.contains("does not verify for that signer"), "{out}");

    // Another commit checked out: not what it attests, unless named.
    std::fs::write(c.root.join("src/app.ts"), "export const x = 1;\n").unwrap();
    git(&c.root, &["commit", "-qam", "more"]);
    let (code, out) = verify(&c, &envelope, &[]);
    assert_eq!(code, Some(5), "{out}");
    assert!(
        out.contains(&format!("it is about commit {head}, not HEAD")),
        "{out}"
    );
    assert_eq!(verify(&c, &envelope, &["--commit", &head]).0, Some(0));

    // The ledger it rests on edited: its chain breaks, and the check says so.
    let ledger = c.ledger();
    let bytes = std::fs::read(&ledger).unwrap();
    let needle = trace.id.as_bytes();
    let at = bytes
        .windows(needle.len())
        .position(|w| w == needle)
        .unwrap();
    let mut edited = bytes.clone();
    edited[at] = if edited[at] == b'0' { b'1' } else { b'0' };
    std::fs::write(&ledger, &edited).unwrap();
    let (code, out) = verify(&c, &envelope, &["--commit", &head]);
    assert_eq!(code, Some(5), "{out}");
    assert!(out.contains("does not verify at seq"), "{out}");
}
