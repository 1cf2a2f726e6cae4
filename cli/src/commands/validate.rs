//! `intent validate`: check the intent specs and snapshot them into the ledger.

use clap::Args;
use intent_ledger::{LedgerOptions, Workspace};
use intent_spec::{record_spec_snapshot, SpecSnapshot};
use intent_spec::{validate, Diagnostic, SpecDocument, SpecError};
use serde_json::json;

use crate::config::Config;
use crate::exit;

/// Arguments of `intent validate`.
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Check only; do not record a snapshot of the specs in the ledger.
    #[arg(long)]
    pub no_record: bool,
}

/// Prints errors and warnings; exits 1 when there are errors. A valid file whose
/// content changed since the last snapshot is recorded as an `intent.spec` event.
pub fn run(config: &Config, args: ValidateArgs) -> anyhow::Result<u8> {
    let workspace = &config.workspace;
    let path = workspace.specs_path();
    let (doc, diagnostics) = match SpecDocument::load(&path) {
        Ok(doc) => {
            let diagnostics = validate(&doc.file);
            (Some(doc), diagnostics)
        }
        Err(err) => (None, vec![load_error_diagnostic(&err)]),
    };
    let errors = diagnostics.iter().filter(|d| d.is_error()).count();
    let warnings = diagnostics.len() - errors;
    let mut snapshot = None;
    if let (Some(doc), 0, false, true) = (&doc, errors, args.no_record, workspace.is_initialized())
    {
        let mut ledger = workspace.open_ledger(LedgerOptions::default())?;
        snapshot = Some(record_spec_snapshot(&mut ledger, doc, "cli")?);
    }

    if config.json() {
        let snapshot_json = snapshot.as_ref().map(|s| match s {
            SpecSnapshot::Unchanged { seq } => json!({"seq": seq, "recorded": false}),
            SpecSnapshot::Recorded(done) => json!({"seq": done.seq, "recorded": true}),
        });
        println!(
            "{}",
            json!({
                "path": path,
                "content_hash": doc.as_ref().map(|d| d.content_hash.clone()),
                "intents": doc.as_ref().map(|d| d.file.active_intents.len()),
                "errors": errors,
                "warnings": warnings,
                "diagnostics": diagnostics,
                "snapshot": snapshot_json,
            })
        );
    } else {
        for diagnostic in &diagnostics {
            println!("{diagnostic}");
        }
        let count = doc.as_ref().map_or(0, |d| d.file.active_intents.len());
        println!(
            "{}: {count} intent(s), {errors} error(s), {warnings} warning(s)",
            path.strip_prefix(workspace.root())
                .unwrap_or(&path)
                .display()
        );
        match &snapshot {
            Some(SpecSnapshot::Recorded(done)) => {
                println!(
                    "Recorded the new specs in the ledger as an intent.spec event (seq {}).",
                    done.seq
                )
            }
            Some(SpecSnapshot::Unchanged { seq }) => {
                println!("The ledger already holds these specs (seq {seq}).")
            }
            None if errors > 0 => {
                println!("Fix the errors above; agents are refused destructive actions until then.")
            }
            None => {}
        }
    }
    Ok(if errors > 0 { exit::ERROR } else { exit::OK })
}

/// Records a snapshot when the specs load without errors; returns its seq.
pub fn snapshot_if_valid(workspace: &Workspace) -> anyhow::Result<Option<u64>> {
    let Ok(doc) = SpecDocument::load(&workspace.specs_path()) else {
        return Ok(None);
    };
    if validate(&doc.file).iter().any(Diagnostic::is_error) {
        return Ok(None);
    }
    let mut ledger = workspace.open_ledger(LedgerOptions::default())?;
    Ok(Some(
        match record_spec_snapshot(&mut ledger, &doc, "cli")? {
            SpecSnapshot::Unchanged { seq } => seq,
            SpecSnapshot::Recorded(done) => done.seq,
        },
    ))
}

fn load_error_diagnostic(err: &SpecError) -> Diagnostic {
    let code = match err {
        SpecError::Missing { .. } => "missing_file",
        SpecError::Io { .. } => "unreadable_file",
        SpecError::Encoding { .. } => "invalid_utf8",
        SpecError::Syntax { .. } => "yaml_syntax",
        SpecError::Schema { .. } => "schema",
    };
    Diagnostic {
        severity: intent_spec::Severity::Error,
        intent_id: None,
        field: String::new(),
        code,
        message: err.to_string(),
    }
}
