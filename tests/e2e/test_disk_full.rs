//! A file size limit reached in the middle of a hook's events (issue #30): the
//! kernel, not a fault hook, cuts the ledger write short at a chosen byte
//! (`RLIMIT_FSIZE`, set by `prlimit`, with `SIGXFSZ` ignored so the write fails
//! with `EFBIG` the way a full disk fails with `ENOSPC`). At offsets spread over
//! every byte of a PostToolUse's events, and at every line boundary: the ledger
//! keeps all of the hook's events or none, never a torn line; the agent is told
//! when its write went unrecorded; once the limit is gone the next hook records
//! what was missed and `verify` says intact.

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{json, Value};

use crate::common::{intent_bin, stderr};
use crate::gitrepo::Checkout;

/// A PostToolUse of a write of `src/app.ts` in `root`.
fn post(root: &Path) -> Value {
    let path = root.join("src/app.ts");
    json!({"hook_event_name": "PostToolUse", "session_id": "s1", "cwd": root,
        "tool_name": "Write", "tool_use_id": "t-limited",
        "tool_input": {"file_path": path, "content": NEW},
        "tool_response": {"type": "update", "filePath": path, "originalFile": OLD}})
}

const OLD: &str = "export function start(): number {\n  return 1;\n}\n";
const NEW: &str = "export function start(): number {\n  return 2;\n}\n\nexport function stop(): number {\n  return 0;\n}\n";

/// Runs the hook with every file it writes limited to `limit` bytes.
fn limited_hook(root: &Path, payload: &Value, limit: u64) -> std::process::Output {
    use std::io::Write as _;
    let mut child = crate::common::intent_with_file_limit(root, limit)
        .args(["hook", "claude-code"])
        .env("INTENT_HELPER", "off")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("prlimit runs");
    let _ = child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.to_string().as_bytes());
    child.wait_with_output().unwrap()
}

fn copy_of(template: &Path, into: &Path) -> Checkout {
    let status = Command::new("cp")
        .arg("-a")
        .arg(template)
        .arg(into)
        .status()
        .unwrap();
    assert!(status.success());
    Checkout::at(into)
}

#[test]
fn a_write_cut_short_at_any_byte_leaves_all_or_none_and_the_agent_is_told() {
    let dir = tempfile::tempdir().unwrap();
    let template = dir.path().join("template");
    let repo = Checkout::create(&template);
    repo.select("s1");
    repo.agent_write("s1", "src/app.ts", OLD, "w1");
    // A PreToolUse of the write to come (its PostToolUse is the one cut short).
    let mut pre = post(&template);
    pre["hook_event_name"] = json!("PreToolUse");
    pre.as_object_mut().unwrap().remove("tool_response");
    let out = repo.intent(&["hook", "claude-code"], Some(pre.to_string().as_bytes()));
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::write(template.join("src/app.ts"), NEW).unwrap();
    let before = std::fs::read(repo.ledger()).unwrap();

    // What the hook appends when nothing stops it.
    let whole = copy_of(&template, &dir.path().join("whole"));
    let out = limited_hook(&whole.root, &post(&whole.root), u64::MAX >> 2);
    assert!(out.status.success(), "{}", stderr(&out));
    let full = std::fs::read(whole.ledger()).unwrap();
    assert!(full.starts_with(&before));
    let appended = &full[before.len()..];
    assert!(
        appended.len() > 200,
        "a tool.post and a trace: {} bytes",
        appended.len()
    );
    // Offsets: every line boundary and its neighbours, and 40 spread over the rest.
    let mut cuts: Vec<usize> = vec![0, 1, appended.len() - 1];
    for (i, byte) in appended.iter().enumerate() {
        if *byte == b'\n' {
            cuts.extend([i.saturating_sub(1), i, i + 1]);
        }
    }
    cuts.extend((0..40).map(|k| k * appended.len() / 40));
    cuts.sort_unstable();
    cuts.dedup();
    cuts.retain(|cut| *cut < appended.len());
    eprintln!(
        "{} cuts over the hook's {} bytes",
        cuts.len(),
        appended.len()
    );

    for cut in cuts {
        let root = dir.path().join(format!("cut-{cut}"));
        let repo = copy_of(&template, &root);
        let limit = (before.len() + cut) as u64;
        let out = limited_hook(&root, &post(&root), limit);
        assert_eq!(
            out.status.code(),
            Some(0),
            "cut {cut}: hooks always answer: {}",
            stderr(&out)
        );
        let after = std::fs::read(repo.ledger()).unwrap();
        let reply = String::from_utf8_lossy(&out.stdout).into_owned();
        // All or none: none of the hook's events remain, and no torn line. (The
        // failure itself may be recorded, as a `hook.warning`, when it fits.)
        assert!(
            after.starts_with(&before),
            "cut {cut}: nothing before it changed"
        );
        assert!(after.ends_with(b"\n"), "cut {cut}: no torn line");
        for line in String::from_utf8_lossy(&after[before.len()..]).lines() {
            let event: Value = serde_json::from_str(line).unwrap();
            assert_eq!(event["kind"], "hook.warning", "cut {cut}: {line}");
        }
        assert!(
            reply.contains("NOT recorded"),
            "cut {cut}: the agent is told its write went unrecorded: {reply}"
        );
        // The limit gone, the next hook records what was missed; verify agrees.
        repo.agent_read("s1", "src/app.ts", &format!("r-{cut}"));
        let missed: Vec<_> = repo
            .events()
            .into_iter()
            .filter(|e| e.kind == "hook.unrecorded")
            .collect();
        assert_eq!(
            missed.len(),
            1,
            "cut {cut}: the missed write is recorded once"
        );
        assert_eq!(missed[0].data["tool_use_id"], "t-limited", "cut {cut}");
        assert!(
            repo.intent_ok(&["verify"]).contains("Ledger intact"),
            "cut {cut}"
        );
        std::fs::remove_dir_all(&root).unwrap();
    }
}

/// The same on a real full disk: the ledger's directory is a tmpfs (in a mount
/// namespace of its own, so nothing outside the test sees it) filled to its last
/// page, so the hook's write fails with `ENOSPC` where the ledger's last page
/// ends. Its markers cannot go beside the ledger either: one goes to the temp dir.
/// Skipped where mount namespaces are not allowed.
#[test]
fn a_full_tmpfs_under_the_ledger_loses_nothing_and_the_agent_is_told() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("repo");
    let repo = Checkout::create(&root);
    repo.select("s1");
    repo.agent_write("s1", "src/app.ts", OLD, "w1");
    let mut pre = post(&root);
    pre["hook_event_name"] = json!("PreToolUse");
    pre.as_object_mut().unwrap().remove("tool_response");
    let out = repo.intent(&["hook", "claude-code"], Some(pre.to_string().as_bytes()));
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::write(root.join("src/app.ts"), NEW).unwrap();
    let ledger = repo.ledger();
    let store = ledger.parent().unwrap().to_path_buf();
    let before = std::fs::read(&ledger).unwrap();
    let staged = dir.path().join("staged");
    let after_dir = dir.path().join("after");
    let reply_file = dir.path().join("reply.json");
    // Inside the namespace: stage the ledger's directory, mount a 1 MiB tmpfs on
    // it, copy it back, fill the rest, run the hook, copy the result out.
    let script = r#"set -e
cp -a "$1"/. "$2"/
mount -t tmpfs -o size=1m tmpfs "$1"
cp -a "$2"/. "$1"/
dd if=/dev/zero of="$1/filler" bs=4096 2>/dev/null || true
INTENT_HELPER=off "$3" --workspace "$4" hook claude-code < "$5" > "$6" || true
rm -f "$1/filler"
cp -a "$1"/. "$7"/
"#;
    std::fs::create_dir_all(&staged).unwrap();
    std::fs::create_dir_all(&after_dir).unwrap();
    let payload_file = dir.path().join("payload.json");
    std::fs::write(&payload_file, post(&root).to_string()).unwrap();
    let status = Command::new("unshare")
        .args([
            "-m",
            "--propagation",
            "private",
            "--",
            "sh",
            "-c",
            script,
            "full",
        ])
        .arg(&store)
        .arg(&staged)
        .arg(intent_bin())
        .arg(&root)
        .arg(&payload_file)
        .arg(&reply_file)
        .arg(&after_dir)
        .env("PATH", crate::common::path_with_intent())
        .output()
        .unwrap();
    if !status.status.success() {
        eprintln!(
            "skipped: no mount namespace here ({})",
            String::from_utf8_lossy(&status.stderr)
        );
        return;
    }
    let reply = std::fs::read_to_string(&reply_file).unwrap();
    assert!(
        reply.contains("NOT recorded"),
        "the agent is told its write went unrecorded: {reply}"
    );
    let after = std::fs::read(after_dir.join(ledger.file_name().unwrap())).unwrap();
    assert!(after.starts_with(&before), "nothing before it changed");
    assert!(after.ends_with(b"\n"), "no torn line");
    for line in String::from_utf8_lossy(&after[before.len()..]).lines() {
        let event: Value = serde_json::from_str(line).unwrap();
        assert_eq!(
            event["kind"], "hook.warning",
            "none of the hook's events: {line}"
        );
    }
    // Space again (the host's directory never filled): the ledger as the full disk
    // left it, and the next hook records what was missed from the temp dir's marker.
    std::fs::write(&ledger, &after).unwrap();
    let head = intent_ledger::head::head_path(&ledger);
    std::fs::copy(after_dir.join(head.file_name().unwrap()), &head).unwrap();
    repo.agent_read("s1", "src/app.ts", "r-after");
    let missed: Vec<_> = repo
        .events()
        .into_iter()
        .filter(|e| e.kind == "hook.unrecorded")
        .collect();
    assert_eq!(missed.len(), 1, "the missed write is recorded once");
    assert_eq!(missed[0].data["tool_use_id"], "t-limited");
    assert!(
        missed[0].data["why"]
            .as_str()
            .unwrap()
            .contains("No space left"),
        "{}",
        missed[0].data
    );
    assert!(repo.intent_ok(&["verify"]).contains("Ledger intact"));
}
