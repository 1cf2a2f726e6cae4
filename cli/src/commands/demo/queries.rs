//! The demo's last act: asking the ledger. `why`, `blame`, `search`, the regenerated
//! `intent_map.md`, an Agent Trace export and a one-line `intent bench`, each run as
//! the real command a user would type.

use std::path::Path;
use std::process::Command;

use anyhow::Context;
use serde_json::Value;

use super::say;

/// Runs `intent --workspace root args…`; returns stdout, failing on a non-zero exit.
pub(super) fn intent(bin: &Path, root: &Path, args: &[&str]) -> anyhow::Result<String> {
    let out = Command::new(bin)
        .arg("--workspace")
        .arg(root)
        .args(args)
        .output()
        .with_context(|| format!("cannot run intent {args:?}"))?;
    anyhow::ensure!(
        out.status.success(),
        "intent {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Shows `output` in full, whatever the step's line budget.
pub(super) fn show_full(command: &str, output: &str) {
    super::say_all(&format!("$ {command}"));
    for line in output.lines() {
        super::say_all(&format!("  {line}"));
    }
}

pub(super) fn show(command: &str, output: &str, max_lines: usize) {
    say(&format!("$ {command}"));
    let lines: Vec<&str> = output.lines().collect();
    for line in lines.iter().take(max_lines) {
        say(&format!("  {line}"));
    }
    if lines.len() > max_lines {
        say(&format!("  … ({} more lines)", lines.len() - max_lines));
    }
}

/// `why` beyond TypeScript: a Python line (answered by its function, the block
/// that holds it) and a Markdown line (no grammar: answered by the writes that gave
/// the line its text).
pub fn ask_by_line(bin: &Path, root: &Path) -> anyhow::Result<()> {
    let python = intent(bin, root, &["why", "src/auth/rotate.py:5"])?;
    show(
        "intent why src/auth/rotate.py:5   # Python: its function rotate() answers",
        &python,
        7,
    );
    let notes = intent(bin, root, &["why", "src/auth/NOTES.md:4"])?;
    show(
        "intent why src/auth/NOTES.md:4   # Markdown: no grammar, the line is followed",
        &notes,
        3,
    );
    Ok(())
}

/// Asks the demo ledger every question the query engine answers.
pub fn ask(bin: &Path, root: &Path) -> anyhow::Result<()> {
    let why = intent(bin, root, &["why", "src/auth/expiry.ts:2"])?;
    show_full(
        "intent why src/auth/expiry.ts:2   # the helper moved out of jwt.ts",
        &why,
    );
    let by_name = intent(bin, root, &["why", "src/auth/jwt.ts::verify"])?;
    show("intent why src/auth/jwt.ts::verify", &by_name, 6);
    let python = intent(bin, root, &["why", "src/auth/rotate.py:5"])?;
    show(
        "intent why src/auth/rotate.py:5   # Python: by block, like TypeScript",
        &python,
        12,
    );
    let notes = intent(bin, root, &["why", "src/auth/NOTES.md:4"])?;
    show(
        "intent why src/auth/NOTES.md:4   # Markdown: no grammar, by line",
        &notes,
        6,
    );

    let blame = intent(bin, root, &["blame", "src/auth/jwt.ts"])?;
    show("intent blame src/auth/jwt.ts", &blame, 8);

    let search = intent(bin, root, &["search", "outside scope", "--limit", "2"])?;
    show("intent search \"outside scope\" --limit 2", &search, 6);
    let refactors = intent(
        bin,
        root,
        &["search", "", "--class", "AST_REFACTOR", "--limit", "1"],
    )?;
    show(
        "intent search \"\" --class AST_REFACTOR --limit 1",
        &refactors,
        3,
    );

    let map = intent(bin, root, &["map", "--stdout"])?;
    show(
        "intent map --stdout   # also written to .orchestration/intent_map.md",
        &map,
        14,
    );

    let export = intent(bin, root, &["export", "agent-trace"])?;
    let first: Value = serde_json::from_str(export.lines().next().unwrap_or("{}"))?;
    say(&format!(
        "$ intent export agent-trace   # {} Agent Trace v{} records; the first names {} and intent {}",
        export.lines().count(),
        first["version"].as_str().unwrap_or("?"),
        first["files"][0]["path"].as_str().unwrap_or("?"),
        first["files"][0]["conversations"][0]["related"][0]["url"]
            .as_str()
            .unwrap_or("?"),
    ));

    let rebuilt = intent(bin, root, &["rebuild"])?;
    show(
        "intent rebuild   # every projection again, from the ledger alone",
        &rebuilt,
        4,
    );

    // No soak: its 600 hooks wait on fsync (over a minute on a slow disk), and the
    // line below shows none of its figures.
    say("$ intent bench --events 20000 --runs 5 --soak-hooks 0   # sizes a setup; the full run defaults to 100k events and a 600-hook soak");
    let bench = intent(
        bin,
        root,
        &[
            "--json",
            "bench",
            "--events",
            "20000",
            "--runs",
            "5",
            "--soak-hooks",
            "0",
        ],
    )?;
    let r: Value = serde_json::from_str(&bench)?;
    let p50 = |v: &Value| v["p50_ms"].as_f64().unwrap_or(f64::NAN);
    say(&format!(
        "  {} events: hook pre p50 {:.1} ms, post (AST) p50 {:.1} ms, why p50 {:.1} ms, search p50 {:.1} ms, rebuild {:.0} ms, {} bytes/event",
        r["workload"]["events"],
        p50(&r["hook"]["pre_tool_use"]),
        p50(&r["hook"]["post_tool_use_with_ast"]),
        p50(&r["query"]["why"]),
        p50(&r["query"]["search"]),
        r["rebuild"]["total_ms"].as_f64().unwrap_or(f64::NAN),
        r["workload"]["bytes_per_event"],
    ));
    Ok(())
}
