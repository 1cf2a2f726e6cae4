//! `intent export`: the ledger in interchange formats. `agent-trace` writes one
//! Agent Trace v0.1.0 record per traced write, as JSON Lines; the record format is
//! specified in [`intent_query::export`].

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::{Args, Subcommand};
use intent_query::export::{export_agent_trace_with_progress, ExportSummary};
use intent_query::log::parse_since;
use intent_query::QueryError;
use time::OffsetDateTime;

use crate::config::Config;
use crate::exit;
use crate::progress::TerminalProgress;

/// Arguments of `intent export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The format to write.
    #[command(subcommand)]
    pub format: ExportFormat,
}

/// Formats `intent export` writes.
#[derive(Debug, Subcommand)]
pub enum ExportFormat {
    /// One Agent Trace v0.1.0 record per traced write, as JSON Lines
    /// (<https://agent-trace.dev>).
    AgentTrace(AgentTraceArgs),
}

/// Arguments of `intent export agent-trace`.
#[derive(Debug, Args)]
pub struct AgentTraceArgs {
    /// Only writes at or after: RFC 3339 time, a date, or an age like 30m, 2h, 7d.
    #[arg(long, value_name = "T")]
    pub since: Option<String>,
    /// Write to FILE instead of stdout; it is replaced only once every record is
    /// written.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// An export, validated before any work (stage two of the arguments).
#[derive(Debug)]
struct Plan {
    ledger: PathBuf,
    since: Option<OffsetDateTime>,
    output: Option<PathBuf>,
}

/// Runs `intent export`. Records go to stdout (or `--output`) whatever `--json`
/// says; the summary `exported N records` goes to stderr.
pub fn run(config: &Config, args: ExportArgs) -> anyhow::Result<u8> {
    match args.format {
        ExportFormat::AgentTrace(args) => agent_trace(config, args),
    }
}

fn agent_trace(config: &Config, args: AgentTraceArgs) -> anyhow::Result<u8> {
    let plan = plan(config, args)?;
    let progress = TerminalProgress::new();
    // Every ledger: this clone's, then each fetched from another clone (records
    // are self-contained; each names its own trace ids and sessions).
    let ledgers: Vec<PathBuf> = std::iter::once(plan.ledger.clone())
        .chain(
            intent_sync::fetched::list(&config.workspace)
                .into_iter()
                .map(|f| f.ledger),
        )
        .collect();
    let export = |out: &mut dyn Write| -> Result<ExportSummary, QueryError> {
        let mut total = ExportSummary::default();
        for ledger in &ledgers {
            let one = export_agent_trace_with_progress(ledger, plan.since, out, &progress)?;
            total.events += one.events;
            total.records += one.records;
            total.skipped += one.skipped;
        }
        Ok(total)
    };
    let summary = match &plan.output {
        Some(path) => write_atomically(path, export)?,
        None => {
            let stdout = std::io::stdout();
            // A closed pipe (`intent export agent-trace | head`) ends quietly
            // (`exit::CliError`).
            export(&mut stdout.lock()).map_err(|err| export_error(err, "stdout"))?
        }
    };
    eprintln!("{}", summary_line(&summary, plan.output.as_deref()));
    Ok(exit::OK)
}

fn plan(config: &Config, args: AgentTraceArgs) -> anyhow::Result<Plan> {
    let since = args
        .since
        .as_deref()
        .map(|text| parse_since(text, OffsetDateTime::now_utc()))
        .transpose()?;
    let ledger = config.require_ledger()?;
    if let Some(path) = &args.output {
        anyhow::ensure!(
            !path.is_dir(),
            "--output {} is a directory; name a file, e.g. {}",
            path.display(),
            path.join("agent-trace.jsonl").display()
        );
        let dir = parent(path);
        anyhow::ensure!(
            dir.is_dir(),
            "--output {}: directory {} does not exist; create it first",
            path.display(),
            dir.display()
        );
        anyhow::ensure!(
            !same_file(path, &ledger),
            "--output {} is the ledger itself; write the export to another file",
            path.display()
        );
    }
    Ok(Plan {
        ledger,
        since,
        output: args.output,
    })
}

/// Streams the export into a temporary file beside `path` and renames it over
/// `path`, so readers see the old file or the complete new one, never a part.
fn write_atomically(
    path: &Path,
    export: impl FnOnce(&mut dyn Write) -> intent_query::Result<ExportSummary>,
) -> anyhow::Result<ExportSummary> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut tmp = TempFile {
        path: parent(path).join(format!(".{name}.{}.tmp", std::process::id())),
        keep: false,
    };
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp.path)
        .with_context(|| format!("cannot create {}", tmp.path.display()))?;
    let shown = path.display().to_string();
    let summary = export(&mut file).map_err(|err| export_error(err, &shown))?;
    file.sync_all()
        .with_context(|| format!("cannot write {}", tmp.path.display()))?;
    std::fs::rename(&tmp.path, path)
        .with_context(|| format!("cannot replace {}", path.display()))?;
    tmp.keep = true;
    Ok(summary)
}

/// A temporary file removed on drop unless it was renamed into place.
struct TempFile {
    path: PathBuf,
    keep: bool,
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Turns a library error into one the exit codes understand: ledger errors stay
/// `LedgerError` (corruption exits 3); a failed write names the destination.
fn export_error(err: QueryError, destination: &str) -> anyhow::Error {
    match err {
        QueryError::Ledger(err) => anyhow::Error::from(err)
            .context("cannot read the ledger; `intent verify` says what is wrong with it"),
        QueryError::Io { source, .. } => {
            anyhow::Error::from(source).context(format!("cannot write to {destination}"))
        }
        other => anyhow::Error::from(other),
    }
}

fn summary_line(summary: &ExportSummary, output: Option<&Path>) -> String {
    let plural = if summary.records == 1 { "" } else { "s" };
    let mut line = format!("exported {} record{plural}", summary.records);
    if let Some(path) = output {
        line.push_str(&format!(" to {}", path.display()));
    }
    if summary.skipped > 0 {
        line.push_str(&format!(
            " ({} trace event(s) skipped: no path or no readable time)",
            summary.skipped
        ));
    }
    line
}

/// Returns whether both paths exist and name the same file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// The directory a relative or bare `--output` lives in.
fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}
