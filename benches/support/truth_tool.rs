//! Running a ground-truth tool of the replay benchmark (a parser that is not the one
//! under test): `{path: text}` as JSON on its stdin, `{path: [{name, kind, start,
//! end}] | {"error": ..}}` as JSON on its stdout.

use std::io::Write as _;
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::replay_truth::{FileTruth, TBlock};

/// Runs `command` on `files` ((path, text)) and reads its blocks; a file the tool
/// cannot parse gets no blocks (its lines are not sampled) and is named in the
/// error list.
pub fn run(
    name: &str,
    mut command: Command,
    files: &[(String, String)],
) -> Result<(Vec<FileTruth>, Vec<String>), String> {
    let input: serde_json::Map<String, Value> = files
        .iter()
        .map(|(p, t)| (p.clone(), Value::String(t.clone())))
        .collect();
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{name}: {e}"))?;
    let body = serde_json::to_vec(&input).map_err(|e| e.to_string())?;
    // Written from a thread: the tool may fill its stdout before reading all of stdin.
    let mut stdin = child.stdin.take().ok_or(format!("{name}: no stdin"))?;
    let writer = std::thread::spawn(move || stdin.write_all(&body));
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    writer
        .join()
        .map_err(|_| format!("{name}: stdin writer panicked"))?
        .map_err(|e| format!("{name} stdin: {e}"))?;
    if !out.status.success() {
        return Err(format!("{name}: {}", String::from_utf8_lossy(&out.stderr)));
    }
    let parsed: Value =
        serde_json::from_slice(&out.stdout).map_err(|e| format!("{name} output: {e}"))?;
    let mut truths = Vec::new();
    let mut errors = Vec::new();
    for (path, text) in files {
        let entry = &parsed[path.as_str()];
        let blocks = match entry.as_array() {
            Some(blocks) => blocks
                .iter()
                .map(|b| TBlock {
                    name: b["name"].as_str().unwrap_or("").to_string(),
                    kind: b["kind"].as_str().unwrap_or("").to_string(),
                    start: b["start"].as_u64().unwrap_or(0) as u32,
                    end: b["end"].as_u64().unwrap_or(0) as u32,
                })
                .collect(),
            None => {
                errors.push(format!("{path}: {}", entry["error"]));
                Vec::new()
            }
        };
        truths.push(FileTruth {
            path: path.clone(),
            lines: text.lines().count() as u32,
            blocks,
        });
    }
    Ok((truths, errors))
}

/// Where the tools are built and cached: the workspace's `target/`.
pub fn target_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target")
}
