//! A battle file exported on any path imports again: to standard output as with `--out`, each
//! stored detail byte for byte. A file whose last events were cut off is refused; an export that
//! cannot be written whole (a full disk) fails instead of leaving an empty file behind a 0, and
//! `--out` never replaces what is not a plain file (a FIFO).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn run(db: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(args)
        .env("REFEREE_DB", db)
        .output()
        .unwrap()
}

fn answer(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or(Value::Null)
}

/// The documented scripted battle (it applies a result with its situation and resolution).
fn scripted(dir: &Path) -> PathBuf {
    let db = dir.join("referee.db");
    let script = root().join("docs/examples/battle-itacs.json");
    let out = run(&db, &["battle", "script", script.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    db
}

#[test]
fn an_export_to_standard_output_imports_again() {
    let dir = tempfile::tempdir().unwrap();
    let db = scripted(dir.path());
    let out = run(&db, &["battle", "export", "1"]);
    assert!(out.status.success());
    let file: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        file["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e.get("detail").is_some()),
        "the battle has an applied result with its detail"
    );
    assert_eq!(file["version"], 5);
    let path = dir.path().join("b.json");
    std::fs::write(&path, &out.stdout).unwrap();
    let imported = run(&db, &["battle", "import", path.to_str().unwrap()]);
    assert!(
        imported.status.success(),
        "{}",
        String::from_utf8_lossy(&imported.stdout)
    );
    // `--out` writes the same text.
    let out_path = dir.path().join("out.json");
    let written = run(
        &db,
        &["battle", "export", "1", "--out", out_path.to_str().unwrap()],
    );
    assert!(written.status.success());
    assert_eq!(
        std::fs::read(&out_path).unwrap(),
        out.stdout.strip_suffix(b"\n").unwrap()
    );
}

#[test]
fn a_battle_file_cut_short_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = scripted(dir.path());
    let out = run(&db, &["battle", "export", "1"]);
    let mut file: Value = serde_json::from_slice(&out.stdout).unwrap();
    file["events"].as_array_mut().unwrap().pop();
    let path = dir.path().join("cut.json");
    std::fs::write(&path, file.to_string()).unwrap();
    let refused = run(&db, &["battle", "import", path.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(2));
    let e = answer(&refused);
    assert_eq!(e["code"], "import.damaged", "{e}");
    assert!(e["message"].as_str().unwrap().contains("cut off"), "{e}");
    // Without its head, a version 5 file is refused too.
    file.as_object_mut().unwrap().remove("head");
    std::fs::write(&path, file.to_string()).unwrap();
    let refused = run(&db, &["battle", "import", path.to_str().unwrap()]);
    assert_eq!(answer(&refused)["code"], "import.damaged");
}

#[test]
fn an_export_onto_a_full_disk_fails() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = scripted(dir.path());
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(["battle", "export", "1"])
        .env("REFEREE_DB", &db)
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("output.unwritable"), "{stderr}");
}

#[test]
fn out_never_replaces_a_fifo() {
    let dir = tempfile::tempdir().unwrap();
    let db = scripted(dir.path());
    let fifo = dir.path().join("pipe");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        return;
    }
    let out = run(
        &db,
        &["battle", "export", "1", "--out", fifo.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(answer(&out)["code"], "file.unwritable");
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
}
