//! What the tests that read the project's own source share: its files, with their text.

use std::fs;
use std::path::{Path, PathBuf};

/// Every file under `dir` with one of the extensions, with its text.
pub fn files(dir: &Path, exts: &[&str]) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if exts
                .iter()
                .any(|e| path.extension().is_some_and(|x| x == *e))
            {
                let text = fs::read_to_string(&path).unwrap();
                out.push((path, text));
            }
        }
    }
    out.sort();
    out
}
