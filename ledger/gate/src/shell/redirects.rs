//! Redirections, and where every write a command is known to make is recorded
//! (`write_target`, used by the programs in the sibling modules too).

use std::collections::HashSet;
use std::path::Path;

use tree_sitter::Node;

use super::words::{ShellScope, Word};
use super::{danger, text, Walker, WriteTarget};

/// Most writes one command's analysis records; past this the command is opaque.
const MAX_WRITES: usize = 4096;

impl Walker<'_> {
    pub(super) fn redirect(&mut self, node: Node, src: &str, scope: &mut ShellScope) {
        match node.kind() {
            "file_redirect" => {
                let destination = node.child_by_field_name("destination");
                let mut op = String::new();
                let mut cursor = node.walk();
                for (i, child) in node.children(&mut cursor).enumerate() {
                    let field = node.field_name_for_child(i as u32);
                    if field.is_none() && Some(child) != destination {
                        op.push_str(text(child, src));
                    }
                }
                let Some(destination) = destination else {
                    return;
                };
                let targets = self.eval(destination, src, scope);
                let writes = op.contains('>');
                if !writes {
                    return;
                }
                for target in targets {
                    match target {
                        // `>&2`, `2>&1`, `>&-`: duplicates a descriptor.
                        Word::Known { ref text, .. }
                            if (op.ends_with('&'))
                                && (text == "-" || text.chars().all(|c| c.is_ascii_digit())) => {}
                        Word::Known { text, glob } => {
                            if is_device(&text) {
                                continue;
                            }
                            self.write_target(&text, glob, false, &op, scope);
                        }
                        Word::Dynamic => self.out.opaque(format!(
                            "`{op}` writes to a file whose name is only known when it runs"
                        )),
                    }
                }
            }
            "heredoc_redirect" | "herestring_redirect" => {
                self.words(node, src, scope);
                let mut cursor = node.walk();
                for child in node.children_by_field_name("redirect", &mut cursor) {
                    self.redirect(child, src, scope);
                }
            }
            _ => self.words(node, src, scope),
        }
    }

    /// Records a known write target, resolved against the scope's directory.
    pub(super) fn write_target(
        &mut self,
        raw: &str,
        glob: bool,
        recursive: bool,
        by: &str,
        scope: &ShellScope,
    ) {
        self.record_write(raw, glob, recursive, recursive, by, scope);
    }

    /// Files anywhere in the tree under `raw` are written, none deleted (an archive
    /// extracted, a mirror without `--delete`): the workspace root itself is then a
    /// scope question, not a dangerous command.
    pub(super) fn write_tree(&mut self, raw: &str, by: &str, scope: &ShellScope) {
        self.record_write(raw, false, true, false, by, scope);
    }

    fn record_write(
        &mut self,
        raw: &str,
        glob: bool,
        recursive: bool,
        deletes: bool,
        by: &str,
        scope: &ShellScope,
    ) {
        let path = Path::new(raw);
        // `..` after a symlink goes where the kernel goes, not where the text says.
        let absolute = if path.is_absolute() {
            intent_ledger::workspace::paths::resolve_dotdot(path)
        } else if let Some(cwd) = &scope.cwd {
            intent_ledger::workspace::paths::resolve_dotdot(&cwd.join(path))
        } else {
            self.out.opaque(format!(
                "`{by}` writes `{raw}` relative to a directory only known when it runs"
            ));
            return;
        };
        danger::write_outside(&absolute, raw, deletes, by, self.root, &mut self.out);
        let mut paths = vec![absolute.clone()];
        if glob {
            let (matched, complete) = danger::expand_glob(&absolute);
            if !complete {
                self.out.opaque(format!(
                    "`{by}` writes `{raw}`, a glob matching more paths than can be checked"
                ));
            }
            paths.extend(matched);
        }
        // A set, not `writes.contains`: a glob's 2,000 paths against the list made
        // this quadratic, 150 ms for one 34-byte command (found by AFL++).
        let mut recorded: HashSet<WriteTarget> = self.out.writes.iter().cloned().collect();
        for path in paths {
            if self.out.writes.len() >= MAX_WRITES {
                self.out.opaque(format!(
                    "`{by}` writes more than {MAX_WRITES} paths, more than can be checked"
                ));
                break;
            }
            let target = WriteTarget {
                path,
                recursive,
                by: by.to_string(),
            };
            if recorded.insert(target.clone()) {
                self.out.writes.push(target);
            }
        }
    }
}

pub(super) fn is_device(path: &str) -> bool {
    matches!(
        path,
        "/dev/null" | "/dev/stdout" | "/dev/stderr" | "/dev/tty"
    ) || path
        .strip_prefix("/dev/fd/")
        .is_some_and(|fd| !fd.is_empty() && fd.chars().all(|c| c.is_ascii_digit()))
}
