//! Target paths: from whatever an agent wrote to a workspace-relative path.

use std::path::{Component, Path, PathBuf};

/// Why a path cannot be a workspace path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathProblem {
    /// It resolves (after `..` and symlinks) outside the workspace.
    OutsideWorkspace(PathBuf),
    /// It is empty or not valid UTF-8.
    Unusable(String),
}

/// Turns `raw` (absolute, or relative to `cwd`) into a path relative to `root` with
/// `/` separators: `.` and `..` resolved, symlinks of the existing part resolved.
/// `root` must be canonical.
pub fn workspace_relative(root: &Path, cwd: &Path, raw: &str) -> Result<String, PathProblem> {
    if raw.trim().is_empty() {
        return Err(PathProblem::Unusable("empty path".into()));
    }
    let joined = resolve_dotdot(&cwd.join(raw));
    let resolved = resolve_symlinks(&joined);
    let rel = resolved
        .strip_prefix(root)
        .map_err(|_| PathProblem::OutsideWorkspace(resolved.clone()))?;
    let text = rel
        .to_str()
        .ok_or_else(|| PathProblem::Unusable(format!("{} is not UTF-8", rel.display())))?;
    Ok(text.replace('\\', "/"))
}

/// `path` with `.` dropped and each `..` applied the way the kernel applies it: to
/// the directory the path has reached *after* following symlinks (`lnk/..` with
/// `lnk -> ../billing/sub` is `../billing`, not the directory holding `lnk`).
/// Symlinks are resolved only before a `..` that follows them; parts that do not
/// exist are taken as written.
pub fn resolve_dotdot(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            std::path::Component::ParentDir => {
                if out.symlink_metadata().is_ok() {
                    out = resolve_symlinks(&out);
                }
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// Links followed at most, as the kernel does (ELOOP beyond).
const MAX_LINKS: usize = 40;

/// Canonicalizes the longest existing ancestor and re-attaches the rest, so a path
/// to a file that does not exist yet still has its symlinked directories resolved.
/// A dangling symlink on the way is followed to its target too: a write through it
/// lands there, so the target is what the gate must judge.
fn resolve_symlinks(path: &Path) -> PathBuf {
    resolve_within(path, 0)
}

fn resolve_within(path: &Path, links: usize) -> PathBuf {
    let mut existing = path.to_path_buf();
    let mut rest = Vec::new();
    loop {
        let reattach = |mut out: PathBuf, rest: &[std::ffi::OsString]| {
            for part in rest.iter().rev() {
                out.push(part);
            }
            out
        };
        if let Ok(canonical) = existing.canonicalize() {
            return reattach(canonical, &rest);
        }
        let dangling = existing
            .symlink_metadata()
            .is_ok_and(|m| m.file_type().is_symlink());
        if dangling && links < MAX_LINKS {
            if let (Ok(target), Some(parent)) = (std::fs::read_link(&existing), existing.parent()) {
                let followed = resolve_within(&lexical(&parent.join(target)), links + 1);
                return reattach(followed, &rest);
            }
        }
        match (
            existing.file_name().map(|n| n.to_os_string()),
            existing.parent(),
        ) {
            (Some(name), Some(parent)) => {
                rest.push(name);
                existing = parent.to_path_buf();
            }
            _ => return path.to_path_buf(),
        }
    }
}

/// Normalizes `.` and `..` without touching the filesystem.
pub fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dangling_symlink_is_judged_by_its_target() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::create_dir_all(root.join(".orchestration")).unwrap();
        std::os::unix::fs::symlink(
            "../.orchestration/.intentignore",
            root.join("src/ignore.ts"),
        )
        .unwrap();
        std::os::unix::fs::symlink("/etc/not-there", root.join("src/out.ts")).unwrap();
        std::os::unix::fs::symlink("loop-b", root.join("src/loop-a")).unwrap();
        std::os::unix::fs::symlink("loop-a", root.join("src/loop-b")).unwrap();
        let rel = |raw: &str| workspace_relative(&root, &root, raw);
        assert_eq!(
            rel("src/ignore.ts").unwrap(),
            ".orchestration/.intentignore"
        );
        assert!(matches!(
            rel("src/out.ts"),
            Err(PathProblem::OutsideWorkspace(_))
        ));
        // A link cycle ends (and is judged where the cycle stands).
        assert!(rel("src/loop-a").unwrap().starts_with("src/loop-"));
    }

    #[test]
    fn normalizes_relative_absolute_dots_and_symlinks() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("src/auth")).unwrap();
        let rel = |raw: &str| workspace_relative(&root, &root, raw);
        assert_eq!(rel("src/auth/jwt.ts").unwrap(), "src/auth/jwt.ts");
        assert_eq!(
            rel("./src/../src/auth/./jwt.ts").unwrap(),
            "src/auth/jwt.ts"
        );
        let abs = root.join("src/auth/new/deep.ts");
        assert_eq!(rel(abs.to_str().unwrap()).unwrap(), "src/auth/new/deep.ts");
        assert!(matches!(
            rel("../outside.ts"),
            Err(PathProblem::OutsideWorkspace(_))
        ));
        assert!(matches!(
            rel("/etc/passwd"),
            Err(PathProblem::OutsideWorkspace(_))
        ));
        assert!(matches!(rel(""), Err(PathProblem::Unusable(_))));

        // A symlink inside the workspace pointing out of it is outside.
        let outside = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), root.join("src/escape")).unwrap();
        assert!(matches!(
            rel("src/escape/x.ts"),
            Err(PathProblem::OutsideWorkspace(_))
        ));
        // A symlink to a directory inside resolves to its target.
        std::os::unix::fs::symlink(root.join("src/auth"), root.join("auth-link")).unwrap();
        assert_eq!(rel("auth-link/jwt.ts").unwrap(), "src/auth/jwt.ts");
    }
}
