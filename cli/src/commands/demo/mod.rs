//! `intent demo`: a scripted tour of everything that exists, in a temporary workspace.

mod extras;
mod frontends;
mod git;
mod lifecycle;
mod queries;
mod session;
mod two_agents;

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use intent_ledger::{
    debris_path, read_events, verify_bytes, verify_path, Ledger, NewEvent, Workspace,
};
use intent_spec::{record_spec_snapshot, SpecSnapshot};
use intent_spec::{validate, SpecDocument};
use serde_json::json;

use crate::config::Config;
use crate::exit;

/// Arguments of `intent demo`.
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Build the demo workspace here (must not exist yet) instead of a temp dir.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Print every line of every step (by default each step shows its first lines).
    #[arg(long, short)]
    pub verbose: bool,
}

/// Lines each step prints unless `--verbose`.
const LINES_PER_STEP: usize = 12;
static VERBOSE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
static SHOWN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
static HIDDEN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The specs the demo writes: three intents, one of them with a deliberate warning.
const DEMO_SPECS: &str = r#"# Demo specs written by `intent demo`.
active_intents:
  - id: INT-001
    name: JWT authentication
    description: Replace session cookies with signed JWTs.
    status: IN_PROGRESS
    owner: alice
    created_at: 2026-11-01T09:00:00Z
    updated_at: 2026-11-20T16:30:00Z
    owned_scope: ["src/auth/**", "tests/auth/**"]
    constraints:
      - Tokens expire after 15 minutes.
      - No new runtime dependencies.
    acceptance_criteria:
      - verify() rejects expired and tampered tokens.
  - id: INT-002
    name: Rate limiting
    description: Limit login attempts per IP.
    status: IN_PROGRESS
    owned_scope: ["src/auth/limits/**"]   # overlaps INT-001: a deliberate warning
    constraints: [At most 5 attempts per minute.]
    acceptance_criteria: [A 6th attempt within a minute gets HTTP 429.]
    dependencies: [INT-001]
  - id: INT-003
    name: Audit log export
    status: DRAFT
    owned_scope: ["src/audit/**"]
    constraints: [Never export secrets.]
    acceptance_criteria: [Exports are valid JSON Lines.]
"#;

/// Runs the tour and prints what happens in plain words.
pub fn run(_config: &Config, args: DemoArgs) -> anyhow::Result<u8> {
    VERBOSE.store(args.verbose, std::sync::atomic::Ordering::Relaxed);
    // The hooks below start resident helpers in the demo's workspaces; those the
    // tour does not stop itself exit a minute after their last hook.
    if std::env::var_os("INTENT_HELPER_IDLE_SECS").is_none() {
        std::env::set_var("INTENT_HELPER_IDLE_SECS", "60");
    }
    let root = match args.dir {
        Some(dir) => {
            anyhow::ensure!(
                !dir.exists(),
                "--dir {} already exists; pick a new path",
                dir.display()
            );
            std::fs::create_dir_all(&dir)?;
            dir.canonicalize()?
        }
        None => tempfile::Builder::new()
            .prefix("intent-demo-")
            .tempdir()
            .context("cannot create a temporary directory")?
            .keep(),
    };
    let workspace = Workspace::at(&root);
    let ledger_path = workspace.ledger_path();
    println!(
        "Intent Ledger tour. Everything it creates is in {} (the demo workspace, and the \
         other workspaces it compares in {}/.demo/); nothing outside it is touched.",
        root.display(),
        root.display()
    );

    step("1. Initialize a workspace");
    for path in workspace.init()? {
        say(&format!("created {path}"));
    }

    step("2. Write intent specs (with one deliberate warning) and validate them");
    std::fs::write(workspace.specs_path(), DEMO_SPECS)?;
    let doc = SpecDocument::load(&workspace.specs_path())?;
    let diagnostics = validate(&doc.file);
    for d in &diagnostics {
        say(&d.to_string());
    }
    let errors = diagnostics.iter().filter(|d| d.is_error()).count();
    say(&format!(
        "{} intents, {errors} errors, {} warnings",
        doc.file.active_intents.len(),
        diagnostics.len() - errors
    ));
    let mut ledger = Ledger::open(&ledger_path)?;
    if let SpecSnapshot::Recorded(done) = record_spec_snapshot(&mut ledger, &doc, "demo")? {
        say(&format!(
            "the specs changed, so an intent.spec snapshot went into the ledger at seq {}",
            done.seq
        ));
    }

    drop(ledger);
    step("3. Wire Claude Code (`intent init --agent claude-code`)");
    let bin = std::env::current_exe().context("cannot find the intent binary")?;
    for path in
        (crate::frontends::claude_code::WIRING.wire)(&root, &super::init::shell_quote(&bin))?
    {
        say(&format!("wrote {path}"));
    }

    step(
        "3b. A Claude-Code-shaped session through `intent hook claude-code` (real hook processes)",
    );
    session::play(&bin, &root)?;

    step("3c. Two agents at once: an Architect and a Builder under different intents");
    two_agents::tour(&bin, &root)?;

    step("3d. The MCP server Claude Code talks to (`intent mcp`, stdio JSON-RPC)");
    extras::mcp(&bin, &root)?;

    step("3e. `intent classify --check`: is a change a pure refactor? (exit 0 yes, 5 no)");
    extras::classify(&bin, &root)?;

    step("3f. The same session through Codex's, Gemini CLI's, Copilot CLI's, Qwen Code's, OpenCode's, Kilo Code's, Factory Droid's and Windsurf's hooks and an external adapter: identical ledgers");
    frontends::replay(&bin, &root)?;

    step("3g. An intent's lifecycle: DRAFT → IN_PROGRESS → proposed → DONE, with a dependency");
    lifecycle::tour(&bin, &root)?;

    step("3h. The resident helper that answered those hooks (`intent helper status`, `stop`)");
    extras::helper(&bin, &root)?;

    step("4. Read the ledger back (`intent log`): every traced write, classified");
    let events: Vec<_> = read_events(&ledger_path)?.collect::<Result<_, _>>()?;
    say_all(&format!(
        "{} events; the {} traced writes in full (`intent log --kind trace`):",
        events.len(),
        events.iter().filter(|e| e.kind == "trace").count()
    ));
    for event in events.iter().filter(|e| e.kind == "trace") {
        let data = &event.data;
        say_all(&format!(
            "#{:<4} {:<22} {:<16} {} under {}: {}",
            event.seq,
            data["path"].as_str().unwrap_or("?"),
            data["mutation_class"].as_str().unwrap_or("?"),
            event.session.as_deref().unwrap_or("-"),
            data["intent_id"].as_str().unwrap_or("-"),
            data["classification"]["reason"].as_str().unwrap_or("")
        ));
    }
    say_all("and the first events as `intent log` prints them:");
    for event in &events {
        say(&super::log::render(event));
    }

    step("5. Verify the hash chain (`intent verify`)");
    let report = verify_path(&ledger_path)?;
    say(&format!(
        "intact: {} ({} events, last seq {})",
        report.is_intact(),
        report.events,
        report.last_seq
    ));

    step("6. A writer dies mid-append: its half line is a torn tail");
    let half = br#"{"v":1,"seq":99,"ts":"2026-11-22T10:00:00.000000Z","id":"0193"#;
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&ledger_path)?;
    std::io::Write::write_all(&mut file, half)?;
    drop(file);
    let report = verify_path(&ledger_path)?;
    say(&format!(
        "verify: still intact ({} events); {} bytes of debris after the last newline, which readers ignore",
        report.events, report.torn_tail_bytes
    ));
    let mut ledger = Ledger::open(&ledger_path)?;
    let done = ledger.append(NewEvent::new(
        "lesson",
        "demo",
        json!({"text": "the ledger survives a crash"}),
    ))?;
    say(&format!(
        "the next append set the debris aside in {} and wrote seq {}",
        debris_path(&ledger_path)
            .file_name()
            .unwrap_or_default()
            .to_string_lossy(),
        done.seq
    ));
    let report = verify_path(&ledger_path)?;
    say(&format!(
        "verify: intact {}, {} events, no torn tail: {}",
        report.is_intact(),
        report.events,
        report.torn_tail_bytes == 0
    ));

    step("7. Someone edits a line in the middle: verification names the seq");
    let mut tampered = std::fs::read(&ledger_path)?;
    let needle = b"src/auth/jwt.ts";
    if let Some(pos) = tampered.windows(needle.len()).position(|w| w == needle) {
        tampered[pos] = b'S';
    }
    let report = verify_bytes(&tampered);
    if let Some(bad) = report.corruption {
        say(&format!(
            "on a tampered copy: corrupt at seq {} (byte offset {}): {}",
            bad.seq, bad.offset, bad.reason
        ));
    }
    say("(the demo workspace itself is untouched)");

    step("7b. Someone drops the newest events: the head kept outside the ledger notices");
    // On a copy of the ledger and its head in a scratch directory (removed at once).
    let scratch = tempfile::tempdir()?;
    let copy = scratch.path().join("agent_trace.jsonl");
    let whole = std::fs::read(&ledger_path)?;
    std::fs::copy(
        intent_ledger::head::head_path(&ledger_path),
        intent_ledger::head::head_path(&copy),
    )?;
    let ends: Vec<usize> = (0..whole.len()).filter(|&i| whole[i] == b'\n').collect();
    let cut = ends.len().saturating_sub(4).max(1);
    std::fs::write(&copy, &whole[..ends[cut - 1] + 1])?;
    if let Some(found) = intent_ledger::head::check_path(&copy)? {
        say(&format!(
            "on a copy with its last 4 events cut off (it still verifies line by line): \
             tampered ({}, from seq {}): {}",
            found.kind, found.since_seq, found.detail
        ));
        say("hooks then refuse every change (ledger_tampered) until a person runs `intent verify --repair`");
    }

    step("8. Ask the ledger: why, blame, search, the intent map, export, rebuild, bench");
    queries::ask(&bin, &root)?;
    step("8b. Beyond TypeScript: Python answers by block, Markdown (no grammar) by line");
    queries::ask_by_line(&bin, &root)?;

    step("9. The ledger and git: .git/intent/, two clones, `intent sync`, `review`, `restore`");
    git::tour(&bin, &root)?;

    step("Done");
    VERBOSE.store(true, std::sync::atomic::Ordering::Relaxed);
    say(&format!("the workspace is {}", root.display()));
    // The binary that runs now, by its path: after `cargo run` no `intent` may be
    // on PATH, and the hint must work as printed.
    say(&format!(
        "explore it: {} --workspace {} log",
        shell_word(&bin.display().to_string()),
        shell_word(&root.display().to_string())
    ));
    Ok(exit::OK)
}

/// A workspace of the tour's besides the main one, inside the demo directory.
pub(super) fn side_dir(root: &std::path::Path, name: &str) -> std::path::PathBuf {
    root.join(".demo").join(name)
}

/// `PATH` with the directory of the demo's `intent` first, so the configuration
/// `intent init --agent` writes (plain `intent`) finds this binary.
pub(super) fn path_with(bin: &std::path::Path) -> std::ffi::OsString {
    let dir = bin
        .parent()
        .map(std::path::Path::to_path_buf)
        .unwrap_or_default();
    let rest = std::env::var_os("PATH").unwrap_or_default();
    std::env::join_paths(std::iter::once(dir).chain(std::env::split_paths(&rest))).unwrap_or(rest)
}

fn step(title: &str) {
    flush_hidden();
    println!("\n== {title}");
}

/// Says how many lines of the step just ended were left out.
fn flush_hidden() {
    use std::sync::atomic::Ordering::Relaxed;
    let hidden = HIDDEN.swap(0, Relaxed);
    SHOWN.store(0, Relaxed);
    if hidden > 0 {
        println!("   … {hidden} more line(s): `intent demo --verbose` shows them");
    }
}

/// `word`, quoted for a POSIX shell when it needs to be.
fn shell_word(word: &str) -> String {
    let plain = word
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"/._-+:@%,=".contains(&b));
    if plain && !word.is_empty() {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// Says `text` whatever the step's line budget: the output that matters most.
pub(super) fn say_all(text: &str) {
    println!("   {text}");
}

pub(super) fn say(text: &str) {
    use std::sync::atomic::Ordering::Relaxed;
    if VERBOSE.load(Relaxed) || SHOWN.fetch_add(1, Relaxed) < LINES_PER_STEP {
        println!("   {text}");
    } else {
        HIDDEN.fetch_add(1, Relaxed);
    }
}
