//! `referee … | head`: when the reader closes the pipe early, the CLI stops quietly instead of
//! panicking with a backtrace, and its exit status still says how the command went (a write that
//! committed is a success even if nobody read the answer; a refusal is still 2). The same holds
//! when stderr is closed.

use std::io::Read;
use std::process::{Command, Stdio};

#[test]
fn a_closed_output_pipe_is_not_a_panic() {
    // The full JSON schema of a ruleset is long; the reader takes nothing and closes the pipe.
    let mut child = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(["schema", "gts"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    assert!(!stderr.contains("panicked"), "stderr: {stderr}");
    assert_eq!(status.code(), Some(0), "the command itself succeeded");
}

#[test]
fn closed_stdout_and_stderr_on_a_refusal_exit_quietly_with_its_status() {
    let dir = tempfile::tempdir().unwrap();
    // Both pipes closed before the referee writes a word: the refusal (no battle #99) still
    // exits with 2, not with a panic's 101.
    let mut child = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(["battle", "state", "99"])
        .env("REFEREE_DB", dir.path().join("referee.db"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    drop(child.stderr.take());
    assert_eq!(child.wait().unwrap().code(), Some(2));

    // Only stderr closed: the error's JSON still reaches stdout.
    let mut child = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(["battle", "state", "99"])
        .env("REFEREE_DB", dir.path().join("referee.db"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(2));
    assert!(stdout.contains("battle.unknown"), "{stdout}");
}
