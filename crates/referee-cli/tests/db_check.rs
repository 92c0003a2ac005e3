//! `referee db check` opens every battle and verifies its chain of event hashes: one byte flipped
//! inside a stored event — which SQLite's own integrity check cannot see — is caught, and the
//! check exits non-zero naming the battle and the event.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

fn referee(db: &Path, args: &[&str], stdin: Option<&str>) -> (i32, Value, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_referee"));
    cmd.args(args).env("REFEREE_DB", db);
    let out = match stdin {
        Some(text) => {
            use std::io::Write;
            let mut child = cmd
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            child
                .stdin
                .take()
                .unwrap()
                .write_all(text.as_bytes())
                .unwrap();
            child.wait_with_output().unwrap()
        }
        None => cmd.output().unwrap(),
    };
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    (
        out.status.code().unwrap_or(-1),
        serde_json::from_str(&stdout).unwrap_or(Value::Null),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[test]
fn one_flipped_byte_in_an_event_is_caught_naming_battle_and_event() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("referee.db");
    let new = r#"{"name": "Cannae", "ruleset": "itacs", "sides": [{"name": "Romans"}, {"name": "Carthaginians"}]}"#;
    let (status, _, stderr) = referee(&db, &["battle", "new"], Some(new));
    assert_eq!(status, 0, "{stderr}");
    let unit = r#"{"label": "Legio XIII", "side": "Romans", "stats": {"type": "SD", "count": 4}}"#;
    let (status, _, stderr) = referee(&db, &["battle", "add-unit", "1"], Some(unit));
    assert_eq!(status, 0, "{stderr}");
    let (status, _, _) = referee(&db, &["battle", "turn", "1"], None);
    assert_eq!(status, 0);
    let (status, sound, stderr) = referee(&db, &["db", "check"], None);
    assert_eq!(status, 0, "{stderr}");
    assert_eq!(sound["integrity_check"], "ok");
    assert_eq!(
        (sound["battles"].as_u64(), sound["events"].as_u64()),
        (Some(1), Some(3))
    );

    // The processes have closed the database, so its pages are in the file itself (no WAL).
    let mut bytes = std::fs::read(&db).unwrap();
    let needle = b"Legio XIII";
    let at = bytes
        .windows(needle.len())
        .position(|w| w == needle)
        .expect("the event's text is in the file");
    bytes[at + 6] ^= 0x01; // "XIII" → "YIII"
    std::fs::write(&db, &bytes).unwrap();

    let (status, answer, stderr) = referee(&db, &["db", "check"], None);
    assert_ne!(status, 0, "damage must fail the check: {answer}");
    assert_eq!(answer["code"], "store.damaged", "{answer}");
    let message = answer["message"].as_str().unwrap();
    assert!(
        message.contains("battle #1 “Cannae”, event 2"),
        "names the battle and the event: {message}"
    );
    assert!(stderr.contains("store.damaged"), "{stderr}");
    // Opening the battle refuses it the same way, instead of showing a silently changed roster.
    let (status, answer, _) = referee(&db, &["battle", "state", "1"], None);
    assert_eq!(status, 2);
    assert_eq!(answer["code"], "store.damaged_event", "{answer}");
}

/// Convention events are checked too: their entries read and folded. One byte changed in a stored
/// entry that still reads (a second player's name made the first's) is caught by the fold and
/// named with the event.
#[test]
fn a_convention_event_that_no_longer_folds_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("referee.db");
    let run = |args: &[&str]| {
        let (status, answer, stderr) = referee(&db, args, None);
        assert_eq!(status, 0, "{args:?}: {stderr}");
        answer
    };
    run(&[
        "event",
        "create",
        "--name",
        "Cold Wars",
        "--ruleset",
        "dbmm",
        "--scoring",
        "dbmm-25",
    ]);
    for name in ["Zebedee", "Zebedef"] {
        run(&[
            "event", "player", "add", "1", "--name", name, "--army", "Romans",
        ]);
    }
    let sound = run(&["db", "check"]);
    assert_eq!(sound["convention_events"].as_u64(), Some(1), "{sound}");

    let mut bytes = std::fs::read(&db).unwrap();
    let needle = b"Zebedef";
    let at = bytes
        .windows(needle.len())
        .position(|w| w == needle)
        .expect("the entry's text is in the file");
    bytes[at + 6] = b'e';
    std::fs::write(&db, &bytes).unwrap();

    let (status, answer, _) = referee(&db, &["db", "check"], None);
    assert_ne!(status, 0, "damage must fail the check: {answer}");
    assert_eq!(answer["code"], "store.damaged", "{answer}");
    let message = answer["message"].as_str().unwrap();
    assert!(
        message.contains(
            "convention event #1 “Cold Wars” no longer opens: Zebedee is already a player"
        ),
        "names the event and what is wrong: {message}"
    );
}
