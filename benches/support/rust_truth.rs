//! Ground truth from a parser that is not the one under test: the blocks of Rust
//! files by `syn` 2 (with `proc-macro2`'s span locations), through the small tool of
//! `benches/tools/rust-truth/` (its own workspace; its doc says how it names and spans
//! blocks the way `intent` does). The tool is built once, in release mode, with its
//! committed `Cargo.lock`, under `target/rust-truth/`.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::replay_truth::FileTruth;
use crate::truth_tool;

/// Builds the tool (a no-op when it is up to date) and returns its binary.
fn build() -> Result<PathBuf, String> {
    let manifest =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../benches/tools/rust-truth/Cargo.toml");
    let target = truth_tool::target_dir().join("rust-truth");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "build",
            "--release",
            "--locked",
            "--quiet",
            "--manifest-path",
        ])
        .arg(&manifest)
        .arg("--target-dir")
        .arg(&target)
        .output()
        .map_err(|e| format!("cargo: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "cargo build {}: {}",
            manifest.display(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(target.join("release/rust-truth"))
}

/// The blocks of `files` ((path, text)) by `syn`; a file syn cannot parse gets no
/// blocks (its lines are not sampled) and is named in the error list.
pub fn analyze(files: &[(String, String)]) -> Result<(Vec<FileTruth>, Vec<String>), String> {
    let tool = build()?;
    truth_tool::run("rust-truth (syn)", Command::new(tool), files)
}
