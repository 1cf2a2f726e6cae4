//! Running git: the plumbing commands sync and restore use, with errors that say
//! which command failed and what git said.

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::{bail, Context as _};

/// Runs `git args…` in `dir`; returns stdout (trailing newline trimmed).
pub fn run(dir: &Path, args: &[&str]) -> anyhow::Result<String> {
    run_with_input(dir, args, None)
}

/// Runs `git args…` in `dir` with `input` on stdin; returns stdout.
pub fn run_with_input(dir: &Path, args: &[&str], input: Option<&[u8]>) -> anyhow::Result<String> {
    let bytes = output(dir, args, input)?;
    Ok(String::from_utf8_lossy(&bytes).trim_end().to_string())
}

/// Runs `git args…` in `dir`; returns stdout as bytes.
pub fn output(dir: &Path, args: &[&str], input: Option<&[u8]>) -> anyhow::Result<Vec<u8>> {
    // No repository hook runs for us (`pre-push`, `reference-transaction`, …): an
    // agent that planted one would otherwise run code at every turn-end checkpoint.
    let mut child = Command::new("git")
        .args(["-c", "core.hooksPath=/dev/null"])
        .args(args)
        .current_dir(dir)
        .env("GIT_TERMINAL_PROMPT", "0")
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("cannot start git (is it installed and on PATH?)")?;
    if let Some(input) = input {
        let mut stdin = child.stdin.take().expect("piped stdin");
        // Written from a thread: git may fill its stdout pipe before reading all of
        // stdin, and a large stream would then deadlock.
        let input = input.to_vec();
        let writer = std::thread::spawn(move || stdin.write_all(&input));
        let out = child.wait_with_output()?;
        writer
            .join()
            .map_err(|_| anyhow::anyhow!("writer thread panicked"))?
            .or_else(|e| if out.status.success() { Err(e) } else { Ok(()) })?;
        return check(args, out);
    }
    check(args, child.wait_with_output()?)
}

fn check(args: &[&str], out: std::process::Output) -> anyhow::Result<Vec<u8>> {
    if !out.status.success() {
        bail!(
            "`git {}` failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    Ok(out.stdout)
}

/// The object id `reference` points to, if it exists.
pub fn resolve(dir: &Path, reference: &str) -> Option<String> {
    run(dir, &["rev-parse", "--verify", "--quiet", reference])
        .ok()
        .filter(|s| !s.is_empty())
}

/// Reads the contents of many blobs with one `git cat-file --batch`, in order.
pub fn blobs(dir: &Path, oids: &[String]) -> anyhow::Result<Vec<Vec<u8>>> {
    if oids.is_empty() {
        return Ok(Vec::new());
    }
    let mut input = oids.join("\n").into_bytes();
    input.push(b'\n');
    let out = output(dir, &["cat-file", "--batch"], Some(&input))?;
    let mut rest = &out[..];
    let mut found = Vec::with_capacity(oids.len());
    for oid in oids {
        let end = memchr_newline(rest).with_context(|| format!("cat-file: no header for {oid}"))?;
        let header = std::str::from_utf8(&rest[..end])?;
        let mut parts = header.split(' ');
        let (Some(_), Some(kind), Some(size)) = (parts.next(), parts.next(), parts.next()) else {
            bail!("blob {oid} is missing from the object store ({header})");
        };
        if kind != "blob" {
            bail!("{oid} is a {kind}, not a blob");
        }
        let size: usize = size.parse()?;
        let body = end + 1;
        if rest.len() < body + size + 1 {
            bail!("cat-file: blob {oid} cut short");
        }
        found.push(rest[body..body + size].to_vec());
        rest = &rest[body + size + 1..];
    }
    Ok(found)
}

fn memchr_newline(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b == b'\n')
}

/// `(path, blob oid)` of every file in `commit`'s tree.
pub fn tree_files(dir: &Path, commit: &str) -> anyhow::Result<Vec<(String, String)>> {
    let text = run(dir, &["ls-tree", "-r", "--full-tree", commit])?;
    Ok(text
        .lines()
        .filter_map(|line| {
            let (meta, path) = line.split_once('\t')?;
            let oid = meta.split(' ').nth(2)?;
            Some((path.to_string(), oid.to_string()))
        })
        .collect())
}
