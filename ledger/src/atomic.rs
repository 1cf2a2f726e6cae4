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

/// Reads `path` whole if it is a regular file. A FIFO, socket or device put in
/// place of a configuration file (`active_intents.yaml` replaced by a FIFO) would
/// make a plain read wait forever, past every hook's deadline: it is opened without
/// blocking, checked on the open descriptor (no window to swap it), and refused.
pub fn read_regular(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read as _;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.custom_flags(O_NONBLOCK);
    }
    let mut file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!(
                "{} is not a regular file (a FIFO, socket or device?): refusing to read it",
                path.display()
            ),
        ));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// `O_NONBLOCK`: opening a FIFO for reading returns at once instead of waiting for
/// a writer (it only matters for what `read_regular` then refuses).
#[cfg(any(target_os = "linux", target_os = "android"))]
const O_NONBLOCK: i32 = 0o4000;
#[cfg(all(unix, not(any(target_os = "linux", target_os = "android"))))]
const O_NONBLOCK: i32 = 0x0004;

#[cfg(test)]
mod read_regular_tests {
    use super::*;

    #[test]
    fn a_fifo_is_refused_at_once_and_a_file_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("specs.yaml");
        std::fs::write(&file, b"x: 1\n").unwrap();
        assert_eq!(read_regular(&file).unwrap(), b"x: 1\n");
        let fifo = dir.path().join("fifo.yaml");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let err = read_regular(&fifo).unwrap_err();
        assert!(err.to_string().contains("not a regular file"), "{err}");
    }
}
