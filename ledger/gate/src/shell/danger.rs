//! Commands dangerous whatever the intent: they act on the machine, outside the
//! workspace, or on the workspace as a whole.

use std::path::{Path, PathBuf};

use super::ShellAnalysis;

/// `:(){ :|:& };:` and its spacings.
pub(super) fn fork_bomb(text: &str, out: &mut ShellAnalysis) {
    let squashed: String = text.split_whitespace().collect();
    if squashed.contains(":(){:|:&") || squashed.contains(":(){") && squashed.contains(":|:") {
        out.danger("a fork bomb");
    }
}

/// A shell or interpreter given a downloaded script through a substitution:
/// `bash <(curl …)`, `sh -c "$(wget -qO- …)"`, `python -c "$(curl …)"`.
pub(super) fn downloaded_script(command: tree_sitter::Node, src: &str, out: &mut ShellAnalysis) {
    let Some(name) = command.child_by_field_name("name") else {
        return;
    };
    let name = super::scripts::plain_text(super::text(name, src));
    let program = name.rsplit('/').next().unwrap_or(&name);
    let runs_code = super::tables::SHELLS.contains(&program)
        || super::tables::INTERPRETERS.contains(&program)
        || program == "eval"
        || program == "source"
        || program == ".";
    if !runs_code {
        return;
    }
    let mut cursor = command.walk();
    for argument in command.children_by_field_name("argument", &mut cursor) {
        if has_download(argument, src) {
            out.danger("running a downloaded script runs unreviewed code");
            return;
        }
    }
}

/// Whether a substitution inside `node` runs curl or wget.
fn has_download(node: tree_sitter::Node, src: &str) -> bool {
    if matches!(node.kind(), "command_substitution" | "process_substitution") {
        let text = super::scripts::plain_text(super::text(node, src));
        return ["curl", "wget", "fetch "].iter().any(|d| text.contains(d));
    }
    let mut cursor = node.walk();
    let found = node
        .named_children(&mut cursor)
        .any(|c| has_download(c, src));
    found
}

/// A write target outside the workspace, or a recursive one that covers the
/// workspace, a home directory or `/`.
pub(super) fn write_outside(
    path: &Path,
    raw: &str,
    recursive: bool,
    by: &str,
    root: &Path,
    out: &mut ShellAnalysis,
) {
    let covers = |p: &Path| root.starts_with(p) || p == Path::new("/") || is_home(p);
    let everything_in =
        path.file_name().is_some_and(|n| n == "*") && path.parent().is_some_and(covers);
    if recursive && (covers(path) || everything_in) {
        out.danger(match by.starts_with("git ") {
            true => format!("`{by} {raw}` discards uncommitted changes across the whole work tree"),
            false => format!("`{by} -r {raw}` deletes the workspace, a home directory or /"),
        });
    } else if !path.starts_with(root) {
        out.danger(format!("`{by}` writes outside the workspace ({raw})"));
    }
}

/// A destination directory outside the workspace (`cp -t /tmp`, `mv x ~/`).
pub(super) fn write_outside_dir(
    path: Option<&Path>,
    raw: &str,
    by: &str,
    root: &Path,
    out: &mut ShellAnalysis,
) {
    if let Some(path) = path {
        if !path.starts_with(root) {
            out.danger(format!("`{by}` writes outside the workspace ({raw})"));
        }
    }
}

fn is_home(path: &Path) -> bool {
    let text = path.to_string_lossy();
    text == "/root"
        || (text.starts_with("/home/") && !text["/home/".len()..].contains('/'))
        || std::env::var_os("HOME").is_some_and(|h| Path::new(&h) == path)
}

/// Programs that act on the machine, not the workspace.
pub(super) fn machine_wide(program: &str, _args: &[super::Word], out: &mut ShellAnalysis) {
    if program.starts_with("mkfs")
        || matches!(
            program,
            "fdisk" | "parted" | "wipefs" | "shutdown" | "reboot" | "halt" | "poweroff" | "init"
        )
    {
        out.danger(format!(
            "`{program}` acts on the machine, not the workspace"
        ));
    }
}

/// Most paths one glob expands to for checking.
const MAX_GLOB_PATHS: usize = 2000;

/// Most directories one glob's expansion reads: `>/**/**/*…` in a 40-byte command
/// made the hook read and match thousands of directories, seconds of work (found by
/// fuzzing).
const MAX_GLOB_DIRS: usize = 256;

/// Longest one glob's expansion may take. The directory bound alone does not bound
/// time: 256 directories under `/proc` took over a second on a loaded machine (found
/// when AFL++ timed out on a committed corpus input). Past this the glob is left
/// unchecked and the command opaque, as for the other bounds.
const MAX_GLOB_TIME: std::time::Duration = std::time::Duration::from_millis(25);

/// The existing paths a glob matches (as the shell would expand it), bounded, and
/// whether that is all of them (`false`: the bounds cut the expansion short).
/// Components are matched one at a time; `*` does not match a leading dot.
pub(super) fn expand_glob(pattern: &Path) -> (Vec<PathBuf>, bool) {
    expand_glob_within(pattern, MAX_GLOB_TIME)
}

fn expand_glob_within(pattern: &Path, budget: std::time::Duration) -> (Vec<PathBuf>, bool) {
    let mut current = vec![PathBuf::from("/")];
    let mut dirs_read = 0;
    let mut complete = true;
    let deadline = std::time::Instant::now() + budget;
    for component in pattern.components().skip(1) {
        let part = component.as_os_str().to_string_lossy();
        let is_glob = part.contains(['*', '?', '[']);
        if !is_glob {
            current = current.iter().map(|base| base.join(&*part)).collect();
            continue;
        }
        // One matcher per component, not per directory it is matched in.
        let Ok(matcher) = globset::GlobBuilder::new(&part)
            .literal_separator(true)
            .build()
            .map(|g| g.compile_matcher())
        else {
            return (Vec::new(), true);
        };
        let mut next = Vec::new();
        for base in &current {
            if dirs_read == MAX_GLOB_DIRS
                || next.len() >= MAX_GLOB_PATHS
                || std::time::Instant::now() >= deadline
            {
                complete = false;
                break;
            }
            dirs_read += 1;
            let Ok(entries) = std::fs::read_dir(base) else {
                continue;
            };
            for (seen, entry) in entries.flatten().enumerate() {
                if seen % 64 == 63 && std::time::Instant::now() >= deadline {
                    complete = false;
                    break;
                }
                let name = entry.file_name();
                let name = name.to_string_lossy();
                if name.starts_with('.') && !part.starts_with('.') {
                    continue;
                }
                if matcher.is_match(&*name) {
                    next.push(base.join(&*name));
                    if next.len() >= MAX_GLOB_PATHS {
                        complete = false;
                        break;
                    }
                }
            }
        }
        current = next;
        if current.is_empty() {
            break;
        }
    }
    current.retain(|p| p.symlink_metadata().is_ok());
    (current, complete)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn tree() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for name in ["a.ts", "b.ts", ".hidden.ts", "c.md"] {
            std::fs::write(dir.path().join(name), "").unwrap();
        }
        dir
    }

    #[test]
    fn a_glob_expands_to_the_paths_the_shell_would_give() {
        let dir = tree();
        let (mut found, complete) = expand_glob(&dir.path().join("*.ts"));
        found.sort();
        assert!(complete);
        assert_eq!(
            found,
            vec![dir.path().join("a.ts"), dir.path().join("b.ts")]
        );
    }

    #[test]
    fn a_spent_time_budget_leaves_the_expansion_incomplete_not_empty_and_complete() {
        let dir = tree();
        let (found, complete) = expand_glob_within(&dir.path().join("*.ts"), Duration::ZERO);
        assert!(
            !complete,
            "an expansion cut short by time must say so: {found:?}"
        );
    }
}
