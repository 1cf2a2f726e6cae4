//! `intent attest BASE..HEAD`: the review of a range as an in-toto Statement in a
//! DSSE envelope, signed with the key the user signs git commits with
//! (`ssh-keygen -Y sign`, as git does with `gpg.format=ssh`); `--verify FILE`
//! checks the signature, that every ledger event it names exists with the hash it
//! names in a ledger whose chain verifies, and that the subject is the commit and
//! its files.
//!
//! The Statement's subject is the HEAD commit (`gitCommit` digest) and each file
//! the range changed (`sha256` of its content at HEAD); its predicate
//! (`https://intent-ledger.dev/attestation/review/v1`) holds the review's JSON,
//! every ledger it rests on (`ledger_id`, `seq`, `h` of its last event) and every
//! trace event it cites (`ledger_id`, `seq`, `id`, `h`).

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{bail, Context as _};
use base64::Engine as _;
use clap::Args;
use intent_sync::git;
use serde_json::{json, Value};

use crate::config::Config;
use crate::exit;

/// The predicate type (documented in the README).
pub const PREDICATE_TYPE: &str = "https://intent-ledger.dev/attestation/review/v1";
const STATEMENT_TYPE: &str = "https://in-toto.io/Statement/v1";
const PAYLOAD_TYPE: &str = "application/vnd.in-toto+json";
/// The `ssh-keygen -Y` namespace: a signature made for git commits (`git`) does
/// not verify as an attestation, nor the reverse.
const NAMESPACE: &str = "intent-attest";
/// Exit code of an attestation that does not verify.
pub const NOT_VERIFIED: u8 = 5;

/// Arguments of `intent attest`.
#[derive(Debug, Args)]
pub struct AttestArgs {
    /// `BASE..HEAD` or `BASE` (up to HEAD); default: the merge base with the default
    /// branch up to HEAD. HEAD must be checked out, its files as committed.
    pub range: Option<String>,
    /// Write the envelope here instead of stdout.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// The SSH key to sign with (default: git's `user.signingkey`).
    #[arg(long)]
    pub key: Option<PathBuf>,
    /// Check an envelope instead of making one.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["range", "output", "key"])]
    pub verify: Option<PathBuf>,
    /// With `--verify`: the commit it must be about (default HEAD).
    #[arg(long, requires = "verify")]
    pub commit: Option<String>,
    /// With `--verify`: accept only signers listed in this `allowed_signers` file
    /// (git's `gpg.ssh.allowedSignersFile` format), under `--identity`.
    #[arg(long, requires_all = ["verify", "identity"])]
    pub allowed_signers: Option<PathBuf>,
    /// The identity the signer must have in `--allowed-signers`.
    #[arg(long, requires = "allowed_signers")]
    pub identity: Option<String>,
}

/// Runs `intent attest`.
pub fn run(config: &Config, args: AttestArgs) -> anyhow::Result<u8> {
    config.require_ledger()?;
    if let Some(file) = &args.verify {
        return verify(config, file, &args);
    }
    let root = config.workspace.root();
    let range = match args.range.as_deref() {
        Some(r) if r.contains("..") => r.to_string(),
        Some(base) => format!("{base}..HEAD"),
        None => {
            let review = super::review::build(config, None)?;
            format!("{}..HEAD", review.base)
        }
    };
    let review = super::review::build(config, Some(&range))?;
    let commit = review.head.clone();
    let mut subject = vec![json!({"name": format!("git+commit:{commit}"),
        "digest": {"gitCommit": commit}})];
    for file in &review.files {
        if let Some(bytes) = blob(root, &commit, &file.path) {
            subject.push(json!({"name": file.path,
                "digest": {"sha256": intent_gate::bytes_sha256(&bytes)}}));
        }
    }
    let cited: Vec<String> = review
        .intents
        .iter()
        .flat_map(|i| &i.changes)
        .filter_map(|c| c.trace_id.clone())
        .collect();
    let (ledgers, events) = ledger_evidence(config, &cited)?;
    let statement = json!({
        "_type": STATEMENT_TYPE,
        "subject": subject,
        "predicateType": PREDICATE_TYPE,
        "predicate": {"review": review, "ledgers": ledgers, "events": events},
    });
    let payload = serde_json::to_vec(&statement)?;
    let key = match &args.key {
        Some(key) => key.clone(),
        None => signing_key(root)?,
    };
    let signature = ssh_keygen(
        &["-Y", "sign", "-n", NAMESPACE, "-f", &key.to_string_lossy()],
        &pae(&payload),
    )
    .context("ssh-keygen -Y sign")?;
    let b64 = base64::engine::general_purpose::STANDARD;
    let envelope = json!({
        "payloadType": PAYLOAD_TYPE,
        "payload": b64.encode(&payload),
        "signatures": [{"keyid": fingerprint(&key).unwrap_or_default(),
            "sig": b64.encode(&signature)}],
    });
    let text = serde_json::to_string_pretty(&envelope)? + "\n";
    match &args.output {
        Some(path) => {
            std::fs::write(path, text).with_context(|| format!("write {}", path.display()))?;
            crate::say::note(&format!(
                "attest: {} files, {} events in {} ledgers, signed; check with `intent attest --verify {}`",
                review.files.len(),
                events.len(),
                ledgers.len(),
                path.display()
            ));
        }
        None => print!("{text}"),
    }
    Ok(exit::OK)
}

/// DSSE's pre-authentication encoding of `payload`: what is signed.
fn pae(payload: &[u8]) -> Vec<u8> {
    let mut out = format!(
        "DSSEv1 {} {PAYLOAD_TYPE} {} ",
        PAYLOAD_TYPE.len(),
        payload.len()
    )
    .into_bytes();
    out.extend_from_slice(payload);
    out
}

/// The content of `path` at `commit`, if it exists there (not a deletion).
fn blob(root: &Path, commit: &str, path: &str) -> Option<Vec<u8>> {
    git::output(
        root,
        &["cat-file", "blob", &format!("{commit}:{path}")],
        None,
    )
    .ok()
}

/// Every ledger this clone has (its own, then the fetched ones): path and report.
fn ledgers_of(config: &Config) -> Vec<(PathBuf, intent_ledger::VerifyReport)> {
    let own = config.workspace.ledger_path();
    let fetched = intent_sync::fetched::dirs(&config.workspace)
        .into_iter()
        .map(|d| d.view(&config.workspace).ledger_path());
    std::iter::once(own)
        .chain(fetched)
        .filter_map(|path| {
            let report = intent_ledger::verify_path(&path).ok()?;
            Some((path, report))
        })
        .collect()
}

/// The ledgers holding the `cited` trace events (id, last seq and hash of each),
/// and each cited event's ledger, seq, id and hash.
fn ledger_evidence(config: &Config, cited: &[String]) -> anyhow::Result<(Vec<Value>, Vec<Value>)> {
    let mut ledgers = Vec::new();
    let mut events = BTreeMap::new();
    for (path, report) in ledgers_of(config) {
        if let Some(c) = &report.corruption {
            bail!(
                "{} does not verify (seq {}: {}); an attestation cannot rest on it",
                path.display(),
                c.seq,
                c.reason
            );
        }
        let ledger_id = report.ledger_id.clone().unwrap_or_default();
        let mut used = false;
        for event in intent_ledger::read_events(&path)? {
            let event = event?;
            if cited.contains(&event.id) {
                used = true;
                events.insert(
                    event.id.clone(),
                    json!({"ledger_id": ledger_id, "seq": event.seq, "id": event.id, "h": event.h}),
                );
            }
        }
        if used {
            ledgers.push(json!({"ledger_id": ledger_id, "seq": report.last_seq,
                "h": report.last_h}));
        }
    }
    if let Some(missing) = cited.iter().find(|id| !events.contains_key(*id)) {
        bail!("trace {missing} is in none of this clone's ledgers (run `intent sync`)");
    }
    Ok((ledgers, events.into_values().collect()))
}

/// git's signing key (`user.signingkey`), for SSH signing.
fn signing_key(root: &Path) -> anyhow::Result<PathBuf> {
    let key = git::run(root, &["config", "user.signingkey"]).unwrap_or_default();
    if key.is_empty() {
        bail!(
            "no signing key: set git's (`git config user.signingkey ~/.ssh/id_ed25519.pub` \
             with `git config gpg.format ssh`) or pass --key FILE"
        );
    }
    if key.starts_with("key::") || key.starts_with("ssh-") {
        bail!("user.signingkey is a literal key; pass the key's file with --key FILE");
    }
    let expanded = match key.strip_prefix("~/") {
        Some(rest) => PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(rest),
        None => PathBuf::from(&key),
    };
    Ok(expanded)
}

fn fingerprint(key: &Path) -> Option<String> {
    let out = Command::new("ssh-keygen")
        .arg("-l")
        .arg("-f")
        .arg(key)
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.split_whitespace().nth(1).map(str::to_string)
}

/// Runs `ssh-keygen args…` with `input` on stdin; returns stdout.
fn ssh_keygen(args: &[&str], input: &[u8]) -> anyhow::Result<Vec<u8>> {
    let mut child = Command::new("ssh-keygen")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("ssh-keygen (OpenSSH 8.2 or later) is needed to sign and verify")?;
    let mut stdin = child.stdin.take().expect("piped");
    let written = stdin.write_all(input);
    drop(stdin);
    let out = child.wait_with_output()?;
    if !out.status.success() {
        bail!("{}", String::from_utf8_lossy(&out.stderr).trim());
    }
    written?;
    Ok(out.stdout)
}

/// Checks the envelope in `file`: prints what it vouches for, or why it does not.
fn verify(config: &Config, file: &Path, args: &AttestArgs) -> anyhow::Result<u8> {
    let outcome = check(config, file, args);
    let json = config.json();
    match outcome {
        Ok(summary) => {
            if json {
                println!("{}", json!({"verified": true, "summary": summary}));
            } else {
                println!("verified: {summary}");
            }
            Ok(exit::OK)
        }
        Err(reason) => {
            if json {
                println!(
                    "{}",
                    json!({"verified": false, "reason": format!("{reason:#}")})
                );
            } else {
                println!("NOT VERIFIED: {reason:#}");
            }
            Ok(NOT_VERIFIED)
        }
    }
}

fn check(config: &Config, file: &Path, args: &AttestArgs) -> anyhow::Result<String> {
    let root = config.workspace.root();
    let envelope: Value = serde_json::from_slice(
        &std::fs::read(file).with_context(|| format!("read {}", file.display()))?,
    )
    .context("the envelope is not JSON")?;
    if envelope["payloadType"] != PAYLOAD_TYPE {
        bail!("payloadType is not {PAYLOAD_TYPE}");
    }
    let b64 = base64::engine::general_purpose::STANDARD;
    let payload = b64
        .decode(envelope["payload"].as_str().unwrap_or(""))
        .context("the payload is not base64")?;
    let sig = envelope["signatures"][0]["sig"]
        .as_str()
        .and_then(|s| b64.decode(s).ok())
        .context("no signature")?;
    let dir = tempfile::tempdir()?;
    let sig_file = dir.path().join("sig");
    std::fs::write(&sig_file, &sig)?;
    let sig_path = sig_file.to_string_lossy().into_owned();
    let signer = match (&args.allowed_signers, &args.identity) {
        (Some(allowed), Some(identity)) => {
            let allowed = allowed.to_string_lossy().into_owned();
            ssh_keygen(
                &[
                    "-Y", "verify", "-f", &allowed, "-I", identity, "-n", NAMESPACE, "-s",
                    &sig_path,
                ],
                &pae(&payload),
            )
            .context("the signature does not verify for that signer")?;
            identity.clone()
        }
        _ => {
            ssh_keygen(
                &["-Y", "check-novalidate", "-n", NAMESPACE, "-s", &sig_path],
                &pae(&payload),
            )
            .context("the signature does not verify")?;
            envelope["signatures"][0]["keyid"]
                .as_str()
                .unwrap_or("an unlisted key")
                .to_string()
        }
    };
    let statement: Value = serde_json::from_slice(&payload).context("the payload is not JSON")?;
    if statement["predicateType"] != PREDICATE_TYPE {
        bail!("predicateType is not {PREDICATE_TYPE}");
    }
    let want = args.commit.as_deref().unwrap_or("HEAD");
    let commit = git::resolve(root, &format!("{want}^{{commit}}"))
        .with_context(|| format!("{want} is not a commit here"))?;
    let subject = statement["subject"].as_array().context("no subject")?;
    let attested = subject
        .first()
        .and_then(|s| s["digest"]["gitCommit"].as_str())
        .unwrap_or("");
    if attested != commit {
        bail!("it is about commit {attested}, not {want} ({commit})");
    }
    for s in &subject[1..] {
        let path = s["name"].as_str().unwrap_or("");
        let sha = s["digest"]["sha256"].as_str().unwrap_or("");
        let actual = blob(root, &commit, path).map(|b| intent_gate::bytes_sha256(&b));
        if actual.as_deref() != Some(sha) {
            bail!("{path} at {want} is not the content it names");
        }
    }
    let ledgers = ledgers_of(config);
    let events = statement["predicate"]["events"]
        .as_array()
        .context("no events")?;
    for cited in events {
        let ledger_id = cited["ledger_id"].as_str().unwrap_or("");
        let Some((path, report)) = ledgers
            .iter()
            .find(|(_, r)| r.ledger_id.as_deref() == Some(ledger_id))
        else {
            bail!("ledger {ledger_id} is not here (run `intent sync`)");
        };
        if let Some(c) = &report.corruption {
            bail!(
                "ledger {ledger_id} does not verify at seq {}: {}",
                c.seq,
                c.reason
            );
        }
        let seq = cited["seq"].as_u64().unwrap_or(0);
        let found = intent_ledger::read_events(path)?
            .filter_map(Result::ok)
            .find(|e| e.seq == seq);
        match found {
            Some(e) if e.id == cited["id"] && e.h == cited["h"] => {}
            Some(_) => bail!("event seq {seq} of ledger {ledger_id} is not the one it names"),
            None => bail!("ledger {ledger_id} has no event seq {seq}"),
        }
    }
    Ok(format!(
        "commit {}, {} files, {} ledger events, signed by {signer}",
        &commit[..12],
        subject.len() - 1,
        events.len()
    ))
}
