//! The `intent` command. `main.rs` only calls [`run`]; every command is a module
//! under [`commands`] that turns a validated [`config::Config`] into output, with the
//! work itself done by the library crates.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod caller;
pub mod commands;
pub mod config;
pub mod exit;
pub mod external;
pub mod front_end_arg;
pub mod frontends;
pub mod helper;
pub mod hook_answer;
mod hook_argv;
pub mod mcp;
mod progress;
pub mod say;
pub mod union;

// The hook engine is its own crate; these paths keep `crate::engine::…` working.
pub use intent_engine::{adapters, engine};

use clap::{Parser, Subcommand};

/// Command-line arguments as clap parses them (stage one of two; see [`config`]).
#[derive(Debug, Parser)]
#[command(
    name = "intent",
    version,
    about = "Intent Ledger: know what an AI agent changed, under which requirement, and why.",
    long_about = None,
)]
pub struct Cli {
    /// Global options.
    #[command(flatten)]
    pub global: config::GlobalArgs,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Create .orchestration/ with example specs and an empty ledger.
    Init(commands::init::InitArgs),
    /// Check .orchestration/active_intents.yaml and record a snapshot of it.
    Validate(commands::validate::ValidateArgs),
    /// Append events (one JSON object, or JSON Lines) from stdin.
    Append(commands::append::AppendArgs),
    /// Print events, optionally filtered.
    Log(commands::log::LogArgs),
    /// Export the ledger in an interchange format (agent-trace: Agent Trace v0.1.0).
    Export(commands::export::ExportArgs),
    /// Search intents, traces, prompts, gate decisions and lessons.
    Search(commands::search::SearchArgs),
    /// List the lessons sessions left (this clone's and fetched teammates'), or
    /// publish chosen ones into a tracked file (`publish ID… --to CLAUDE.md`).
    Lessons(commands::lessons::LessonsArgs),
    /// Check the whole ledger: seq continuity, prev links and every hash.
    Verify(commands::verify::VerifyArgs),
    /// Share ledgers through a git remote: publish this clone's, fetch every other's.
    Sync(commands::sync::SyncArgs),
    /// Rebuild a wiped, truncated or rewritten ledger from its last checkpoint in git.
    Restore(commands::sync::RestoreArgs),
    /// Check a workspace: specs, ledger, each front-end's hook wiring, projections.
    Doctor(commands::doctor::DoctorArgs),
    /// Move an intent through its lifecycle (DRAFT, IN_PROGRESS, BLOCKED, DONE).
    Status(commands::status::StatusArgs),
    /// One intent in full: spec, history, dependencies, sessions, files, blocks.
    Show(commands::show::ShowArgs),
    /// Why was this line changed? The history of the block holding PATH:LINE (or
    /// PATH::Symbol) through moves and renames, with intents and prompts.
    Why(commands::why::WhyArgs),
    /// Every line of a file with its block and latest intent (git blame, by intent).
    Blame(commands::why::BlameArgs),
    /// A reviewer's view of a range: its changes by intent and by behaviour, and
    /// what needs eyes first (behaviour changes, untraced lines, out-of-scope work).
    Review(commands::review::ReviewArgs),
    /// How much of a range agents wrote (per front-end, model, intent) and how much
    /// people did, per file and per author, adding up to `git diff --numstat`.
    Stats(commands::review::stats::StatsArgs),
    /// The review of a range as a signed in-toto attestation (DSSE, signed with
    /// git's SSH signing key), or `--verify FILE` to check one.
    Attest(commands::attest::AttestArgs),
    /// Accept a recorded violation, with the reason (a person's decision, kept in
    /// the ledger): `intent review --check` no longer fails on it.
    Accept(commands::accept::AcceptArgs),
    /// Rebuild projections (state, blocks, search, map) from the ledger alone.
    Rebuild(commands::rebuild::RebuildArgs),
    /// Write .orchestration/intent_map.md: per intent, the files and blocks it changed.
    Map(commands::rebuild::MapArgs),
    /// Measure this machine: hook, query and rebuild latencies on a synthetic workload.
    Bench(commands::bench::BenchArgs),
    /// Answer one agent hook (payload on stdin, native reply on stdout).
    Hook(commands::hook::HookArgs),
    /// The resident helper that answers this workspace's hooks (serve, status, stop).
    Helper(commands::helper::HelperArgs),
    /// Classify a change (files or directories) as AST_REFACTOR or INTENT_EVOLUTION.
    Classify(commands::classify::ClassifyArgs),
    /// Select the intent a session works under.
    Select(commands::select::SelectArgs),
    /// Run a command that may write only inside an intent's scope (Linux Landlock).
    Confine(commands::confine::ConfineArgs),
    /// Serve the intent handshake tools over MCP (stdio).
    Mcp(commands::mcp::McpArgs),
    /// Run a scripted tour of every feature in a temporary workspace.
    Demo(commands::demo::DemoArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(commands::manual::CompletionsArgs),
    /// Print the man page, write one per command (`--dir`), or the Markdown
    /// reference (`--markdown`).
    Man(commands::manual::ManArgs),
}

/// Parses the process arguments, runs the command and returns the exit code.
pub fn run() -> i32 {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // A hook process (one per tool call) skips building clap's command tree.
    let parsed = hook_argv::parse(&args).map_or_else(|| Cli::try_parse_from(&args), Ok);
    let cli = match parsed {
        Ok(cli) => cli,
        Err(err) => {
            // clap prints help/version to stdout (exit 0) and usage errors to stderr
            // (2); under `--json` a usage error is a JSON object like every other.
            let json = args.iter().skip(1).any(|a| a == "--json");
            if json && err.use_stderr() {
                let message = err.render().to_string();
                let body = serde_json::json!({"error": {"kind": "usage",
                    "message": message.trim().trim_start_matches("error: "),
                    "exit_code": err.exit_code()}});
                eprintln!("{body}");
            } else {
                let _ = err.print();
            }
            return err.exit_code();
        }
    };
    let json = cli.global.json;
    exit_quietly_when_stdout_closes();
    // Every command reads text agents wrote (sources, payloads, specs): a panic
    // there is a bug, reported as an error with exit 1, never an abort.
    let result = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| dispatch(cli))) {
        Ok(result) => result.map_err(exit::CliError::from),
        Err(panic) => Err(exit::CliError::Panic(
            intent_engine::respond::panic_message(panic.as_ref()),
        )),
    };
    match result {
        Ok(code) => code as i32,
        Err(err) => err.report(json) as i32,
    }
}

/// `print!` panics when the reader of stdout has gone away (`intent log | head`).
/// That is not an error: the process exits 0 at once, saying nothing, as `cat`
/// would under SIGPIPE. Every other panic is left to the hook before this one
/// (and then reported as a bug by [`run`]). Errors returned as values are sorted
/// the same way by [`exit::CliError::BrokenPipe`].
fn exit_quietly_when_stdout_closes() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = intent_engine::respond::panic_message(info.payload());
        // std's message: "failed printing to stdout: Broken pipe (os error 32)".
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(exit::OK as i32);
        }
        previous(info);
    }));
}

/// Runs the parsed command.
fn dispatch(cli: Cli) -> anyhow::Result<u8> {
    config::Config::from_args(&cli.global).and_then(|config| match cli.command {
        Command::Init(args) => commands::init::run(&config, args),
        Command::Validate(args) => commands::validate::run(&config, args),
        Command::Append(args) => commands::append::run(&config, args),
        Command::Log(args) => commands::log::run(&config, args),
        Command::Export(args) => commands::export::run(&config, args),
        Command::Search(args) => commands::search::run(&config, args),
        Command::Lessons(args) => commands::lessons::run(&config, args),
        Command::Verify(args) => commands::verify::run(&config, args),
        Command::Sync(args) => commands::sync::run_sync(&config, args),
        Command::Restore(args) => commands::sync::run_restore(&config, args),
        Command::Doctor(args) => commands::doctor::run(&config, args),
        Command::Status(args) => commands::status::run(&config, args),
        Command::Show(args) => commands::show::run(&config, args),
        Command::Why(args) => commands::why::run_why(&config, args),
        Command::Blame(args) => commands::why::run_blame(&config, args),
        Command::Review(args) => commands::review::run(&config, args),
        Command::Stats(args) => commands::review::stats::run(&config, args),
        Command::Attest(args) => commands::attest::run(&config, args),
        Command::Accept(args) => commands::accept::run(&config, args),
        Command::Rebuild(args) => commands::rebuild::run(&config, args),
        Command::Map(args) => commands::rebuild::run_map(&config, args),
        Command::Bench(args) => commands::bench::run(&config, args),
        Command::Demo(args) => commands::demo::run(&config, args),
        Command::Hook(args) => commands::hook::run(&config, args),
        Command::Helper(args) => commands::helper::run(&config, args),
        Command::Select(args) => commands::select::run(&config, args),
        Command::Confine(args) => commands::confine::run(&config, args),
        Command::Classify(args) => commands::classify::run(&config, args),
        Command::Mcp(args) => commands::mcp::run(&config, args),
        Command::Completions(args) => commands::manual::completions(args),
        Command::Man(args) => commands::manual::man(args),
    })
}
