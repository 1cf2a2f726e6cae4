//! Replacing a file whole: readers see the old file or the new one, never half of
//! one. The one way every crate writes derived data, caches and configuration.

use std::io::Write;
use std::path::Path;

/// Whether a write must survive a power cut once it returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sync {
    /// Derived data and caches: rebuilt if lost, so not synced.
    No,
    /// Data of record: the file and its directory entry are synced.
    Yes,
}

/// Writes `bytes` to `path` through a uniquely named temporary file in the same
/// directory (created if missing), renamed over `path`. On any error the temporary
/// file is removed and `path` is as it was.
pub fn write(path: &Path, bytes: &[u8], sync: Sync) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir)?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".intent-")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    if sync == Sync::Yes {
        tmp.as_file().sync_all()?;
    }
    tmp.persist(path).map_err(|e| e.error)?;
    if sync == Sync::Yes {
        #[cfg(unix)]
        std::fs::File::open(dir)?.sync_all()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_whole_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a/b.json");
        write(&path, b"one", Sync::No).unwrap();
        write(&path, b"two", Sync::Yes).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        let names: Vec<_> = std::fs::read_dir(dir.path().join("a"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["b.json"]);
        // A target that cannot be replaced (a directory) fails and cleans up.
        std::fs::create_dir(dir.path().join("a/c")).unwrap();
        std::fs::write(dir.path().join("a/c/x"), b"").unwrap();
        assert!(write(&dir.path().join("a/c"), b"x", Sync::No).is_err());
        let names: Vec<_> = std::fs::read_dir(dir.path().join("a"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
    }
}
