//! `intent doctor`: is this workspace in working order? Specs valid, ledger intact,
//! every configured front-end's hook pointing at a working `intent`, projections
//! caught up. Each check says what to do when it fails.

use std::path::Path;

use clap::Args;
use intent_ledger::{verify_path, Workspace};
use intent_spec::{validate, Diagnostic, SpecDocument};
use intent_state::Stamp;
use serde_json::{json, Value};

use crate::config::Config;
use crate::exit;

/// Arguments of `intent doctor`.
#[derive(Debug, Args)]
pub struct DoctorArgs {}

/// One finding.
struct Check {
    name: String,
    status: &'static str,
    detail: String,
}

impl Check {
    fn new(name: impl Into<String>, status: &'static str, detail: impl Into<String>) -> Check {
        Check {
            name: name.into(),
            status,
            detail: detail.into(),
        }
    }
}

/// Runs every check; exits 1 when one fails (warnings do not fail).
pub fn run(config: &Config, _args: DoctorArgs) -> anyhow::Result<u8> {
    let workspace = &config.workspace;
    let mut checks = vec![
        specs(workspace),
        location(workspace),
        ledger(workspace),
        writable(workspace),
    ];
    checks.extend(checkpoint(workspace));
    checks.extend(front_ends(workspace.root()));
    checks.extend(
        crate::external::doctor()
            .into_iter()
            .map(|(name, status, detail)| Check::new(name, status, detail)),
    );
    checks.extend(projections(workspace));
    let (status, detail) = super::doctor_languages::languages(workspace);
    checks.push(Check::new("languages", status, detail));
    checks.push(confinement());
    checks.push(helper(workspace));
    checks.push(binary());
    let failed = checks.iter().any(|c| c.status == "fail");
    if config.json() {
        let list: Vec<Value> = checks
            .iter()
            .map(|c| json!({"check": c.name, "status": c.status, "detail": c.detail}))
            .collect();
        println!(
            "{}",
            json!({"workspace": workspace.root(), "ok": !failed, "checks": list})
        );
    } else {
        println!("Workspace: {}", workspace.root().display());
        for c in &checks {
            println!("  [{:<4}] {}: {}", c.status, c.name, c.detail);
        }
        let warnings = checks.iter().filter(|c| c.status == "warn").count();
        println!(
            "{}",
            match (failed, warnings) {
                (true, _) => "Some checks failed.".to_string(),
                (false, 0) => "All good.".to_string(),
                (false, n) => format!("No failure; {n} warning(s) above say what to look at."),
            }
        );
    }
    Ok(if failed { exit::ERROR } else { exit::OK })
}

fn specs(workspace: &Workspace) -> Check {
    let path = workspace.specs_path();
    match SpecDocument::load(&path) {
        Err(e) => Check::new(
            "specs",
            "fail",
            format!("{e}; fix it, then run `intent validate`"),
        ),
        Ok(doc) => {
            let found = validate(&doc.file);
            let errors = found.iter().filter(|d| Diagnostic::is_error(d)).count();
            let intents = doc.file.active_intents.len();
            if errors > 0 {
                Check::new(
                    "specs",
                    "fail",
                    format!("{errors} error(s); run `intent validate` for details"),
                )
            } else {
                let warnings = found.len();
                Check::new(
                    "specs",
                    "ok",
                    format!("{intents} intent(s), {warnings} warning(s)"),
                )
            }
        }
    }
}

/// Where the ledger is, in words.
pub fn location_text(workspace: &Workspace) -> String {
    use intent_ledger::workspace::LedgerLocation;
    let path = workspace.relative(&workspace.ledger_path());
    match workspace.ledger_location() {
        LedgerLocation::GitCommonDir => format!(
            "{path} (in the git common directory: one ledger for every worktree, never \
             tracked, untouched by checkout, stash, reset, clean and rebase)"
        ),
        LedgerLocation::Orchestration => format!("{path} (no git here)"),
        LedgerLocation::LegacyInGit => format!(
            "{path} (in the working tree, where git operations can rewind it: run \
             `intent init` to move it into .git/intent/)"
        ),
        LedgerLocation::Fetched => format!("{path} (another clone's, read-only)"),
    }
}

fn location(workspace: &Workspace) -> Check {
    let status = match workspace.ledger_location() {
        intent_ledger::workspace::LedgerLocation::LegacyInGit => "warn",
        _ => "ok",
    };
    Check::new("location", status, location_text(workspace))
}

/// The live ledger against its last checkpoint in git, and the fetched ledgers.
fn checkpoint(workspace: &Workspace) -> Vec<Check> {
    let mut checks = Vec::new();
    match intent_sync::restore::check(workspace) {
        Ok(None) if workspace.git_store_dir().is_some() => checks.push(Check::new(
            "checkpoint",
            "warn",
            "none yet: one is written when an agent's turn ends and by `intent sync`",
        )),
        Ok(None) => {}
        Ok(Some(c)) if c.holds => checks.push(Check::new(
            "checkpoint",
            "ok",
            format!("the ledger holds its checkpoint (seq {})", c.checkpoint.seq),
        )),
        Ok(Some(c)) => checks.push(Check::new(
            "checkpoint",
            "fail",
            format!(
                "the ledger lost what its checkpoint (seq {}) holds: {}; `intent restore` \
                 rebuilds it",
                c.checkpoint.seq,
                c.problem.unwrap_or_default()
            ),
        )),
        Err(e) => checks.push(Check::new("checkpoint", "warn", format!("{e:#}"))),
    }
    let fetched = intent_sync::fetched::list(workspace);
    if !fetched.is_empty() {
        let names: Vec<String> = fetched
            .iter()
            .map(|f| format!("{} to seq {}", f.label(), f.meta.seq))
            .collect();
        checks.push(Check::new(
            "fetched ledgers",
            "ok",
            format!("{} ({})", fetched.len(), names.join("; ")),
        ));
    }
    checks
}

/// Whether hooks can record right now, for reasons that are not the agent's: a
/// restore left unfinished, a ledger that cannot be opened for writing, a full
/// disk; and tool calls that ran while they could not.
fn writable(workspace: &Workspace) -> Check {
    let path = workspace.ledger_path();
    let mut problems = Vec::new();
    if intent_ledger::recovery::journal_path(&path).exists() {
        problems.push(
            "an `intent restore` was interrupted; run `intent restore` to finish it".to_string(),
        );
    }
    if path.exists() {
        if let Err(e) = std::fs::OpenOptions::new().append(true).open(&path) {
            problems.push(format!("the ledger cannot be opened for writing ({e})"));
        }
    }
    if let Some(dir) = path.parent() {
        if let Ok(stat) = rustix::fs::statvfs(dir) {
            let free = stat.f_bavail.saturating_mul(stat.f_frsize);
            if free < 1 << 20 {
                problems.push(format!(
                    "the disk holding {} has {free} bytes free; free some space",
                    dir.display()
                ));
            }
        }
    }
    let pending = intent_engine::engine::unrecorded::pending(&path);
    if pending > 0 {
        problems.push(format!(
            "{pending} tool call(s) ran while hooks could not record them; the next hook that \
             can write records each as `hook.unrecorded`"
        ));
    }
    match problems.is_empty() {
        true => Check::new("recording", "ok", "hooks can write the ledger"),
        false => Check::new("recording", "fail", problems.join("; ")),
    }
}

fn ledger(workspace: &Workspace) -> Check {
    let path = workspace.ledger_path();
    if !path.exists() {
        return Check::new("ledger", "fail", "no ledger; run `intent init`");
    }
    match intent_ledger::head::check_path(&path) {
        Ok(Some(found)) => {
            return Check::new(
                "ledger",
                "fail",
                format!(
                    "tampered with ({}, from seq {}): {}; appends are refused until a person \
                     runs `intent verify --repair`",
                    found.kind, found.since_seq, found.detail
                ),
            )
        }
        Err(e) => return Check::new("ledger", "fail", format!("cannot read it: {e}")),
        Ok(None) => {}
    }
    match verify_path(&path) {
        Err(e) => Check::new("ledger", "fail", format!("cannot read it: {e}")),
        Ok(report) => match &report.corruption {
            Some(bad) => Check::new(
                "ledger",
                "fail",
                format!(
                    "corrupt at seq {}: {}; run `intent verify`",
                    bad.seq, bad.reason
                ),
            ),
            None => Check::new("ledger", "ok", format!("intact, {} events", report.events)),
        },
    }
}

/// The hook commands each front-end's configuration holds, with the file.
fn configured_commands(root: &Path) -> Vec<(&'static str, String, String)> {
    crate::frontends::all()
        .flat_map(|(fe, wiring)| {
            (wiring.commands)(root)
                .into_iter()
                .map(move |(rel, command)| (fe.as_str(), rel, command))
        })
        .collect()
}

/// Each configured hook command must start a working `intent` (checked with
/// `--version`, which touches nothing).
fn front_ends(root: &Path) -> Vec<Check> {
    let mut checks = Vec::new();
    let mut seen = Vec::new();
    for (fe, rel, command) in configured_commands(root) {
        if seen.contains(&(fe, command.clone())) {
            continue;
        }
        seen.push((fe, command.clone()));
        let program = command
            .split(" hook")
            .next()
            .unwrap_or_default()
            .trim()
            .to_string();
        let probe = std::process::Command::new("sh")
            .args(["-c", &format!("{program} --version")])
            .current_dir(root)
            .output();
        let name = format!("{fe} hook ({rel})");
        checks.push(match probe {
            Ok(out) if out.status.success() && String::from_utf8_lossy(&out.stdout).starts_with("intent") => {
                Check::new(name, "ok", format!("`{command}` runs {}", String::from_utf8_lossy(&out.stdout).trim()))
            }
            _ => Check::new(
                name,
                "fail",
                format!("`{program}` does not start intent; run `intent init --agent {fe}` again from the intent you want hooks to use"),
            ),
        });
    }
    let mut findings = Vec::new();
    for (_, wiring) in crate::frontends::all() {
        (wiring.check)(root, &mut findings);
    }
    checks.extend(
        findings
            .into_iter()
            .map(|(name, status, detail)| Check::new(name, status, detail)),
    );
    if checks.is_empty() {
        // Every front-end with a wiring, so a new one is named without an edit here.
        let others: Vec<&str> = crate::frontends::all()
            .map(|(fe, _)| fe.as_str())
            .filter(|fe| *fe != "claude-code")
            .collect();
        checks.push(Check::new(
            "front-ends",
            "warn",
            format!(
                "no front-end is wired; run `intent init --agent claude-code` (or {})",
                others.join(", ")
            ),
        ));
    }
    checks
}

/// Projections record the ledger line they reflect; a stale one is rebuilt by the
/// next query, but a lagging one means hooks or queries have not run since.
fn projections(workspace: &Workspace) -> Vec<Check> {
    let ledger = workspace.ledger_path();
    let length = std::fs::metadata(&ledger).map_or(0, |m| m.len());
    let cache = workspace.cache_dir();
    let mut checks = Vec::new();
    for (name, rel, builder) in [
        (
            "hook state",
            "state.json",
            "the next hook (or `intent select`)",
        ),
        (
            "intent state",
            "intents.json",
            "the next query (or `intent rebuild`)",
        ),
        (
            "block lineage",
            "lineage/core.json",
            "the next query (or `intent rebuild`)",
        ),
    ] {
        let stamp = std::fs::read(cache.join(rel))
            .ok()
            .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
            .and_then(|v| serde_json::from_value::<Stamp>(v["stamp"].clone()).ok());
        checks.push(match stamp {
            // Nothing to look at: a projection is built by its first use.
            None => Check::new(
                name,
                "ok",
                "not built yet; the next use builds it (or run `intent rebuild`)",
            ),
            Some(stamp) if !stamp.matches(&ledger) => Check::new(
                name,
                "warn",
                format!("made from another ledger; {builder} rebuilds it"),
            ),
            Some(stamp) if stamp.end < length => Check::new(
                name,
                "ok",
                format!(
                    "{} bytes behind the ledger; caught up on its next use",
                    length - stamp.end
                ),
            ),
            Some(_) => Check::new(name, "ok", "up to date"),
        });
    }
    checks
}

/// Whether hooks can use a resident helper, and whether one runs (`intent helper`).
fn helper(workspace: &Workspace) -> Check {
    use crate::helper::wire::{Answer, Ask};
    let place = match crate::helper::Place::of(workspace) {
        Ok(place) => place,
        Err(why) => {
            return Check::new(
                "helper",
                "warn",
                format!(
                    "hooks cannot use a resident helper ({why}); each answers in its own process"
                ),
            )
        }
    };
    if !crate::helper::enabled() {
        return Check::new(
            "helper",
            "ok",
            "off (INTENT_HELPER=off here): hooks answer in their own process",
        );
    }
    match crate::helper::client::ask(&place, &Ask::Status) {
        Ok(Answer::Status(s)) if s.exe != crate::helper::exe_identity() => Check::new(
            "helper",
            "warn",
            format!(
                "pid {} runs another `intent` binary; the next hook stops it and answers itself",
                s.pid
            ),
        ),
        Ok(Answer::Status(s)) => Check::new(
            "helper",
            "ok",
            format!(
                "pid {}, up {:.0} s, {} hook(s) answered, {} declined",
                s.pid, s.uptime_secs, s.served, s.declined
            ),
        ),
        _ => Check::new("helper", "ok", "not running; the next hook starts one"),
    }
}

/// How this `intent` is linked: agents start it for every tool call, and a
/// dynamically linked one spends ~0.6 ms of each start loading shared libraries
/// (README, "Install").
/// Whether `intent confine` can hold an intent's scope in the kernel here.
fn confinement() -> Check {
    match super::confine::landlock_abi() {
        Some(abi) => Check::new(
            "confinement",
            "ok",
            format!(
                "Landlock ABI {abi}: `intent confine --intent ID -- CMD` runs a command that can \
                 write only inside the intent's scope; `confine_shell: allow` in policy.yaml \
                 runs the agents' shell commands under it (docs/confine.md)"
            ),
        ),
        None => Check::new(
            "confinement",
            "warn",
            "this kernel has no Landlock (Linux ≥ 5.13 with `landlock` in the LSM list): \
             `intent confine` refuses to run, and shell commands are checked only after the \
             fact",
        ),
    }
}

fn binary() -> Check {
    let detail = match linked_statically() {
        Some(true) => "statically linked: a hook starts as fast as `/bin/true`".to_string(),
        Some(false) => "dynamically linked: each hook spends ~0.6 ms loading shared libraries; \
             `cli/build-static --install` (Linux, glibc) installs a static build"
            .to_string(),
        None => "linking not known on this system".to_string(),
    };
    Check::new("binary", "ok", detail)
}

/// Whether the running executable has no program interpreter (a 64-bit ELF
/// without `PT_INTERP`): `None` when that cannot be told.
pub(crate) fn linked_statically() -> Option<bool> {
    const PT_INTERP: u32 = 3;
    use std::io::Read;
    // The program headers follow the ELF header at the start of the file.
    let mut elf = Vec::with_capacity(4096);
    std::fs::File::open(std::env::current_exe().ok()?)
        .ok()?
        .take(4096)
        .read_to_end(&mut elf)
        .ok()?;
    if elf.get(..6)? != b"\x7fELF\x02\x01" {
        return None;
    }
    let read = |at: usize, len: usize| elf.get(at..at + len);
    let u16_at = |at: usize| read(at, 2).map(|b| u16::from_le_bytes([b[0], b[1]]) as usize);
    let offset = u64::from_le_bytes(read(0x20, 8)?.try_into().ok()?) as usize;
    let (size, count) = (u16_at(0x36)?, u16_at(0x38)?);
    let mut interp = false;
    for i in 0..count {
        let kind = u32::from_le_bytes(read(offset + i * size, 4)?.try_into().ok()?);
        interp |= kind == PT_INTERP;
    }
    Some(!interp)
}
