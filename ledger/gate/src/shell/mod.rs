//! Shell commands, parsed with tree-sitter-bash and walked the way bash would run
//! them, to learn what they may change before they run.
//!
//! Every simple command is found wherever it hides: lists, pipelines, subshells,
//! `{ …; }` groups, `if`/`for`/`while`/`case` bodies, function bodies, command and
//! process substitutions (also inside strings and here-docs), and the commands that
//! wrappers run (`env`, `sudo`, `timeout`, `xargs`, `find -exec`, `bash -c`, `eval`).
//! `cd` is followed, and words are expanded as far as they can be known
//! ([`words`]). Each command is then judged by `commands`: read-only only if it is
//! on the allowlist *with* flags known to be safe; otherwise it writes known targets,
//! or its effects cannot be known (opaque). Anything the walker does not understand
//! makes the command opaque, never read-only.

mod commands;
mod danger;
mod expand;
mod file_tools;
mod git;
mod git_work_tree;
mod options;
mod redirects;
mod scripts;
mod statements;
// Generated from `programs/*.toml` by the test in `tables_tests.rs`.
#[rustfmt::skip]
mod tables;
mod variables;
pub mod words;
mod wrappers;
mod writers;

use std::path::{Path, PathBuf};

use tree_sitter::Node;

use super::command::lexical;
use words::{ShellScope, Word};

/// A file a command writes (creates, changes, deletes, moves, changes mode of).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct WriteTarget {
    /// Absolute, lexically normalized path (symlinks not yet resolved). May hold
    /// glob characters when the shell would match a pattern.
    pub path: PathBuf,
    /// The whole tree under `path` is affected (`rm -r`, `chmod -R`, `mv dir`).
    pub recursive: bool,
    /// The command that writes it, for messages (`rm`, `>`, `sed -i`).
    pub by: String,
}

/// Everything the gate learns from a command line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShellAnalysis {
    /// Why the command is dangerous, if it is.
    pub dangerous: Option<String>,
    /// Files the command writes that could be known before it runs.
    pub writes: Vec<WriteTarget>,
    /// Why some of its effects cannot be known before it runs (`npm install`, a
    /// write to a path held in an unknown variable).
    pub opaque: Vec<String>,
    /// `intent` subcommands that change state (only a human may run them).
    pub intent_acts: Vec<String>,
}

impl ShellAnalysis {
    /// Nothing the command does writes anything.
    pub fn is_read_only(&self) -> bool {
        self.dangerous.is_none()
            && self.writes.is_empty()
            && self.opaque.is_empty()
            && self.intent_acts.is_empty()
    }

    fn opaque(&mut self, why: impl Into<String>) {
        let why = why.into();
        if !self.opaque.contains(&why) && self.opaque.len() < 16 {
            self.opaque.push(why);
        }
    }

    fn danger(&mut self, why: impl Into<String>) {
        if self.dangerous.is_none() {
            self.dangerous = Some(why.into());
        }
    }
}

/// Deepest nesting of `bash -c`, `eval`, wrappers and substitutions followed.
const MAX_DEPTH: usize = 12;
/// Longest command line parsed; longer ones are opaque.
const MAX_COMMAND_BYTES: usize = 256 * 1024;

/// Analyses `command` as run from `cwd` (absolute) in the workspace at `root`.
pub fn analyze(command: &str, root: &Path, cwd: &Path) -> ShellAnalysis {
    analyze_with(command, root, cwd, &[])
}

/// [`analyze`], with commands the policy adds to the read-only allowlist
/// (`read_only_commands`: each entry's words must start the command, e.g.
/// `cargo metadata`).
pub fn analyze_with(
    command: &str,
    root: &Path,
    cwd: &Path,
    read_only_commands: &[String],
) -> ShellAnalysis {
    let extra: Vec<Vec<String>> = read_only_commands
        .iter()
        .map(|entry| entry.split_whitespace().map(str::to_string).collect())
        .filter(|words: &Vec<String>| !words.is_empty())
        .collect();
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .filter(|h| h.is_absolute())
        .unwrap_or_else(|| PathBuf::from("/root"));
    let mut scope = ShellScope {
        cwd: Some(lexical(cwd)),
        vars: Default::default(),
        home,
    };
    let mut walker = Walker {
        root,
        extra: &extra,
        depth: 0,
        out: ShellAnalysis::default(),
    };
    walker.script(command, &mut scope);
    walker.out
}

/// The state of one walk.
struct Walker<'r> {
    root: &'r Path,
    /// Command prefixes the policy declares read-only.
    extra: &'r [Vec<String>],
    depth: usize,
    out: ShellAnalysis,
}

/// Words a command reads on stdin when a pipeline feeds it known text (`echo a b |
/// xargs rm`), and whether the input is downloaded (`curl … | sh`).
#[derive(Debug, Clone, Default)]
struct Stdin {
    words: Option<Vec<Word>>,
    /// The whole text, when known (a here-string or a literal here-document): a
    /// shell reading it runs it as a script.
    text: Option<String>,
    downloaded: bool,
}

fn text<'s>(node: Node, src: &'s str) -> &'s str {
    src.get(node.byte_range()).unwrap_or("")
}

#[cfg(test)]
mod manuals_tests;
#[cfg(test)]
mod metamorphic_tests;
#[cfg(test)]
mod tables_tests;
#[cfg(test)]
mod tests;
