//! What git says changed between two versions: per file, the line runs the new
//! version has that the old one did not, and how many lines went either way
//! (counted as `git diff --numstat` counts them).

use std::path::Path;

use anyhow::Context as _;

/// One changed file of a range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileDiff {
    /// Path in the new version, workspace-relative with `/`.
    pub path: String,
    /// Path in the old version, when git saw a rename.
    pub from: Option<String>,
    /// Lines added (new side), as `--numstat` counts them.
    pub added: u32,
    /// Lines removed (old side).
    pub removed: u32,
    /// Runs of new-side lines, 1-based and inclusive.
    pub runs: Vec<(u32, u32)>,
    /// git showed no lines (a binary file).
    pub binary: bool,
}

/// The diff of `base` against `head` (`None`: the working tree), with renames.
pub fn diff(root: &Path, base: &str, head: Option<&str>) -> anyhow::Result<Vec<FileDiff>> {
    let mut args = vec![
        "-c",
        "core.quotePath=false",
        "diff",
        "--no-color",
        "--no-ext-diff",
        "-U0",
        "-M",
        base,
    ];
    if let Some(head) = head {
        args.push(head);
    }
    args.push("--");
    let out = intent_sync::git::output(root, &args, None)
        .with_context(|| format!("git diff {base} {}", head.unwrap_or("")))?;
    let mut files = parse(&String::from_utf8_lossy(&out));
    if head.is_none() {
        // An agent's new file is part of its work before anyone `git add`s it.
        files.extend(untracked(root)?);
        files.sort_by(|a, b| a.path.cmp(&b.path));
    }
    Ok(files)
}

/// The working tree's untracked files (ignored ones left out), each wholly added.
fn untracked(root: &Path) -> anyhow::Result<Vec<FileDiff>> {
    let out = intent_sync::git::output(
        root,
        &["ls-files", "--others", "--exclude-standard", "-z"],
        None,
    )?;
    let mut files = Vec::new();
    for path in out.split(|b| *b == 0).filter(|p| !p.is_empty()) {
        let path = String::from_utf8_lossy(path).into_owned();
        let Ok(bytes) = std::fs::read(root.join(&path)) else {
            continue; // gone meanwhile, or a directory (a nested repository)
        };
        let binary = intent_ledger::lines::is_binary(&bytes);
        // Counted as `git diff --numstat` counts a new file: every line, the last
        // one too when it has no newline.
        let lines = if binary {
            0
        } else {
            bytecount(&bytes) + u32::from(bytes.last().is_some_and(|b| *b != b'\n'))
        };
        files.push(FileDiff {
            path,
            from: None,
            added: lines,
            removed: 0,
            runs: if lines > 0 {
                vec![(1, lines)]
            } else {
                Vec::new()
            },
            binary,
        });
    }
    Ok(files)
}

fn bytecount(bytes: &[u8]) -> u32 {
    memchr::memchr_iter(b'\n', bytes).count() as u32
}

/// Parses `git diff -U0` output.
pub fn parse(patch: &str) -> Vec<FileDiff> {
    let mut files: Vec<FileDiff> = Vec::new();
    let mut old_path: Option<String> = None;
    for line in patch.lines() {
        if let Some(rest) = line.strip_prefix("diff --git ") {
            files.push(FileDiff {
                path: header_new_path(rest),
                from: None,
                added: 0,
                removed: 0,
                runs: Vec::new(),
                binary: false,
            });
            old_path = None;
            continue;
        }
        let Some(file) = files.last_mut() else {
            continue;
        };
        if let Some(path) = line.strip_prefix("--- ") {
            old_path = side(path, "a/");
        } else if let Some(path) = line.strip_prefix("+++ ") {
            if let Some(path) = side(path, "b/") {
                file.path = path;
            }
        } else if let Some(from) = line.strip_prefix("rename from ") {
            file.from = Some(unquote(from));
        } else if line.starts_with("Binary files ") {
            file.binary = true;
        } else if let Some(hunk) = line.strip_prefix("@@ ") {
            if let Some((removed, start, added)) = hunk_counts(hunk) {
                file.removed += removed;
                file.added += added;
                if added > 0 {
                    file.runs.push((start, start + added - 1));
                }
            }
        }
        if file.from.is_none() {
            if let Some(old) = &old_path {
                if *old != file.path && line.starts_with("+++ ") {
                    file.from = Some(old.clone());
                }
            }
        }
    }
    files
}

/// `a/X b/Y` of a `diff --git` header: Y (exact unless the path holds " b/"; the
/// `+++` line that follows, when there is one, says it exactly).
fn header_new_path(rest: &str) -> String {
    let at = rest.rfind(" \"b/").or_else(|| rest.rfind(" b/"));
    match at.and_then(|at| side(rest[at + 1..].trim(), "b/")) {
        Some(path) => path,
        None => rest.to_string(),
    }
}

/// A `a/…` or `b/…` path of a patch, unquoted, without its prefix.
fn side(raw: &str, prefix: &str) -> Option<String> {
    unquote(raw).strip_prefix(prefix).map(str::to_string)
}

/// `-a,b +c,d @@…`: (b, c, d), a count of 1 when omitted.
fn hunk_counts(hunk: &str) -> Option<(u32, u32, u32)> {
    let mut parts = hunk.split_whitespace();
    let old = parts.next()?.strip_prefix('-')?;
    let new = parts.next()?.strip_prefix('+')?;
    let count = |spec: &str| -> Option<(u32, u32)> {
        match spec.split_once(',') {
            Some((start, n)) => Some((start.parse().ok()?, n.parse().ok()?)),
            None => Some((spec.parse().ok()?, 1)),
        }
    };
    let (_, removed) = count(old)?;
    let (start, added) = count(new)?;
    Some((removed, start, added))
}

/// A path as git prints it: C-quoted when it holds unusual characters.
fn unquote(path: &str) -> String {
    let Some(inner) = path.strip_prefix('"').and_then(|p| p.strip_suffix('"')) else {
        return path.trim_end_matches('\t').to_string();
    };
    let mut out = Vec::new();
    let mut bytes = inner.bytes().peekable();
    while let Some(b) = bytes.next() {
        if b != b'\\' {
            out.push(b);
            continue;
        }
        match bytes.next() {
            Some(b'n') => out.push(b'\n'),
            Some(b't') => out.push(b'\t'),
            Some(d @ b'0'..=b'7') => {
                let mut value = u32::from(d - b'0');
                for _ in 0..2 {
                    if let Some(&next @ b'0'..=b'7') = bytes.peek() {
                        value = value * 8 + u32::from(next - b'0');
                        bytes.next();
                    }
                }
                out.push(value as u8);
            }
            Some(other) => out.push(other),
            None => {}
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hunks_renames_and_binaries_are_read_as_numstat_counts_them() {
        let patch = "\
diff --git a/src/a.ts b/src/a.ts
index 1..2 100644
--- a/src/a.ts
+++ b/src/a.ts
@@ -2 +2,2 @@ fn
-old
+new
+more
@@ -10,3 +11,0 @@
-x
-y
-z
diff --git a/old.py b/new.py
similarity index 90%
rename from old.py
rename to new.py
--- a/old.py
+++ b/new.py
@@ -1 +1 @@
-a
+b
diff --git a/img.png b/img.png
Binary files a/img.png and b/img.png differ
diff --git a/gone.rs b/gone.rs
deleted file mode 100644
--- a/gone.rs
+++ /dev/null
@@ -1,2 +0,0 @@
-a
-b
diff --git \"a/sp\\303\\251cial.go\" \"b/sp\\303\\251cial.go\"
--- \"a/sp\\303\\251cial.go\"
+++ \"b/sp\\303\\251cial.go\"
@@ -0,0 +1 @@
+package x
";
        let files = parse(patch);
        assert_eq!(files.len(), 5);
        assert_eq!(files[0].path, "src/a.ts");
        assert_eq!((files[0].added, files[0].removed), (2, 4));
        assert_eq!(files[0].runs, vec![(2, 3)]);
        assert_eq!(files[1].path, "new.py");
        assert_eq!(files[1].from.as_deref(), Some("old.py"));
        assert!(files[2].binary);
        assert_eq!(files[3].path, "gone.rs");
        assert_eq!((files[3].added, files[3].removed), (0, 2));
        assert!(files[3].runs.is_empty());
        assert_eq!(files[4].path, "spécial.go");
        assert_eq!(files[4].runs, vec![(1, 1)]);
    }
}
