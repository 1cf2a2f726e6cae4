//! The files an `apply_patch` patch touches (Codex's and the seeds' format):
//!
//! ```text
//! *** Begin Patch
//! *** Add File: src/new.ts
//! *** Update File: src/old.ts
//! *** Move to: src/renamed.ts
//! *** Delete File: src/gone.ts
//! *** End Patch
//! ```
//!
//! Every path named is a write (a move writes both its source and its target), so
//! the gate checks scope for each. A unified diff (`--- a/x` / `+++ b/x`) is read
//! too, since agents send those under the same tool name.

/// Every path the patch adds, updates, deletes or moves to, in order, without
/// duplicates; an error when it names none.
pub fn touched_paths(patch: &str) -> Result<Vec<String>, String> {
    let mut paths: Vec<String> = Vec::new();
    let mut add = |path: &str| {
        let path = path.trim();
        if !path.is_empty() && path != "/dev/null" && !paths.iter().any(|p| p == path) {
            paths.push(path.to_string());
        }
    };
    // In a `*** Begin Patch` body a removed line `-- x` reads `--- x`: only the
    // `***` markers count there.
    let unified = !patch.contains("*** Begin Patch");
    for line in patch.lines() {
        let line = line.trim_end_matches('\r');
        for marker in [
            "*** Add File: ",
            "*** Update File: ",
            "*** Delete File: ",
            "*** Move to: ",
        ] {
            if let Some(path) = line.strip_prefix(marker) {
                add(path);
            }
        }
        for marker in ["--- ", "+++ "] {
            if let Some(rest) = line.strip_prefix(marker).filter(|_| unified) {
                // `--- a/src/x.ts\t2024-…`: drop the timestamp and the a/ b/ prefix.
                let path = rest.split('\t').next().unwrap_or(rest);
                let path = path
                    .strip_prefix("a/")
                    .or_else(|| path.strip_prefix("b/"))
                    .unwrap_or(path);
                add(path);
            }
        }
    }
    if paths.is_empty() {
        Err("the patch names no file (expected `*** Add File:`, `*** Update File:`, `*** Delete File:` or a unified diff)".into())
    } else {
        Ok(paths)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_touched_path_is_found() {
        let patch = "*** Begin Patch\n*** Add File: src/new.ts\n+x\n*** Update File: src/old.ts\n*** Move to: lib/renamed.ts\n@@\n-a\n+b\n*** Delete File: src/gone.ts\n*** End Patch\n";
        assert_eq!(
            touched_paths(patch).unwrap(),
            ["src/new.ts", "src/old.ts", "lib/renamed.ts", "src/gone.ts"]
        );
        let diff = "--- a/src/x.ts\t2024-01-01\n+++ b/src/x.ts\n@@ -1 +1 @@\n-a\n+b\n--- /dev/null\n+++ b/src/y.ts\n";
        assert_eq!(touched_paths(diff).unwrap(), ["src/x.ts", "src/y.ts"]);
        assert!(touched_paths("*** Begin Patch\n*** End Patch\n").is_err());
        let removed_dashes =
            "*** Begin Patch\n*** Update File: a.sql\n@@\n--- old comment\n*** End Patch\n";
        assert_eq!(touched_paths(removed_dashes).unwrap(), ["a.sql"]);
        assert!(touched_paths("").is_err());
    }
}
