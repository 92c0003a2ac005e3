//! `referee … | head`: when the reader closes the pipe early, the CLI stops quietly instead of
//! panicking with a backtrace.

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
    assert_ne!(status.code(), Some(101), "a panic exits with 101");
}
