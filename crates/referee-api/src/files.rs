//! Files the referee writes for the user (exports, reports, templates): all or nothing. The text
//! goes to a temporary file beside the target, is synced to disk, then renamed over it, so a full
//! disk or a crash leaves the old file whole, never a part of the new one.

use std::io::Write;
use std::path::{Path, PathBuf};

use referee_core::ErrorCode;
use referee_core::RefereeError;

/// Writes `bytes` to `path` atomically (temporary file, fsync, rename, fsync of the folder).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), RefereeError> {
    let failed = |e: std::io::Error| {
        RefereeError::new(
            ErrorCode::FileUnwritable,
            format!(
                "cannot write {}: {e}; the file there before, if any, is unchanged",
                path.display()
            ),
        )
        .location(path.display().to_string())
    };
    if path.is_dir() {
        return Err(failed(std::io::Error::other("it is a folder")));
    }
    // A FIFO, a device or a socket would be replaced by a plain file: only a plain file (or
    // nothing) is written over.
    if let Ok(meta) = std::fs::metadata(path) {
        if !meta.is_file() {
            return Err(failed(std::io::Error::other("it is not a plain file")));
        }
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // One temporary file per write, even two at once in one process (two saves of the
    // preferences): each renames its own whole file over the target.
    static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let temp = dir.join(format!(".{name}.{}.{n}.partial", std::process::id()));
    let written = (|| {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&temp, path)?;
        // The rename itself is durable once the folder is synced (not possible on every system).
        if let Ok(d) = std::fs::File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written.map_err(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_replaces_the_file_whole_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("b.json");
        std::fs::write(&path, "old").unwrap();
        write_atomically(&path, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        // A failed write (the target is a folder) changes nothing.
        let e = write_atomically(dir.path(), b"x").unwrap_err();
        assert_eq!(e.code, "file.unwritable");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
