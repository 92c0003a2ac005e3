//! `referee event …`: an event from creation to standings on the command line, and its bad
//! inputs refused with their codes, nothing written (a file imported twice: the API tests).

use std::path::Path;
use std::process::Command;

use serde_json::Value;

fn referee(db: &Path, args: &[&str]) -> (i32, Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(args)
        .env("REFEREE_DB", db)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    (
        out.status.code().unwrap_or(-1),
        serde_json::from_str(&stdout).unwrap_or(Value::Null),
        stdout,
    )
}

fn ok(db: &Path, args: &[&str]) -> Value {
    let (status, json, stdout) = referee(db, args);
    assert_eq!(status, 0, "{args:?}: {stdout}");
    json
}

/// Refused with this code, and the event shown the same before and after.
fn refused(db: &Path, args: &[&str], code: &str) -> String {
    let before = ok(db, &["event", "show", "1"]);
    let (status, json, stdout) = referee(db, args);
    assert_eq!(status, 2, "{args:?}: {stdout}");
    assert_eq!(json["code"], code, "{args:?}: {stdout}");
    assert_eq!(
        ok(db, &["event", "show", "1"]),
        before,
        "{args:?} wrote nothing"
    );
    json["message"].as_str().unwrap().to_string()
}

#[test]
fn an_event_from_creation_to_standings() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("referee.db");
    let created = ok(
        &db,
        &[
            "event",
            "create",
            "--name",
            "Cold Wars",
            "--ruleset",
            "dbmm",
            "--scoring",
            "dbmm-25",
            "--first-round",
            "seeded",
            "--rounds",
            "3",
        ],
    );
    assert_eq!(created["id"], 1);
    assert_eq!(created["can_pair"], false);
    for (name, army) in [("Anna", "Romans"), ("Boris", "Gauls"), ("Carl", "Huns")] {
        ok(
            &db,
            &[
                "event", "player", "add", "1", "--name", name, "--army", army,
            ],
        );
    }
    refused(
        &db,
        &[
            "event", "player", "add", "1", "--name", "anna", "--army", "Other",
        ],
        "event.duplicate_player",
    );
    let paired = ok(&db, &["event", "pair", "1", "--round", "1"]);
    let game = &paired["tournament"]["rounds"][0]["games"][0]["pairing"];
    let (a, b) = (
        game["a"].as_str().unwrap().to_string(),
        game["b"].as_str().unwrap().to_string(),
    );
    assert!(paired["tournament"]["rounds"][0]["bye"].is_string());
    refused(
        &db,
        &["event", "pair", "1", "--round", "1"],
        "event.round_paired",
    );
    let message = refused(
        &db,
        &[
            "event", "result", "hand", "1", "--round", "1", "--table", "4", "--winner", &a,
        ],
        "event.not_in_round",
    );
    assert_eq!(message, "Round 1 has no table 4.");
    let view = ok(
        &db,
        &[
            "event", "result", "hand", "1", "--round", "1", "--table", "1", "--winner", &a,
            "--vp-a", "18", "--vp-b", "7",
        ],
    );
    assert_eq!(
        view["tournament"]["rounds"][0]["games"][0]["result"]["words"],
        format!("Entered by hand: {a} beat {b}, 18–7.")
    );
    let standings = ok(&db, &["event", "standings", "1"]);
    assert_eq!(standings[0]["player"], a.as_str());
    let (status, _, csv) = referee(&db, &["event", "standings", "1", "--csv"]);
    assert_eq!(status, 0);
    assert!(csv.starts_with("Rank,Player,Army,"), "{csv}");
    let (status, _, html) = referee(&db, &["event", "report", "1"]);
    assert_eq!(status, 0);
    assert!(html.starts_with("<!DOCTYPE html>") && html.contains("Cold Wars"));
    let list = ok(&db, &["event", "list"]);
    assert_eq!(list[0]["players"], 3);
    let undone = ok(&db, &["event", "undo", "1"]);
    assert!(undone["tournament"]["rounds"][0]["games"][0]["result"].is_null());
    ok(&db, &["event", "redo", "1"]);
}

#[test]
fn a_battle_file_without_a_verdict_or_of_other_players_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("referee.db");
    ok(
        &db,
        &[
            "event",
            "create",
            "--name",
            "Open",
            "--ruleset",
            "dbmm",
            "--scoring",
            "dbmm-25",
            "--first-round",
            "seeded",
        ],
    );
    for name in ["Anna", "Boris", "Carl", "Dora"] {
        ok(
            &db,
            &[
                "event", "player", "add", "1", "--name", name, "--army", "Romans",
            ],
        );
    }
    let paired = ok(&db, &["event", "pair", "1", "--round", "1"]);
    // Table 1's battle begun here, exported as its device would export it.
    let battle = ok(
        &db,
        &["event", "begin", "1", "--round", "1", "--table", "1"],
    );
    let id = battle["id"].to_string();
    let file = dir.path().join("table1.json");
    ok(
        &db,
        &["battle", "export", &id, "--out", file.to_str().unwrap()],
    );
    // Nothing fought in it yet: no verdict.
    let message = refused(
        &db,
        &[
            "event",
            "result",
            "import",
            "1",
            "--round",
            "1",
            "--table",
            "1",
            file.to_str().unwrap(),
        ],
        "event.no_verdict",
    );
    assert!(message.contains("table 1"), "{message}");
    // The other table's players: refused naming them.
    let game = &paired["tournament"]["rounds"][0]["games"][1]["pairing"];
    let message = refused(
        &db,
        &[
            "event",
            "result",
            "import",
            "1",
            "--round",
            "1",
            "--table",
            "2",
            file.to_str().unwrap(),
        ],
        "event.wrong_players",
    );
    assert!(message.contains(game["a"].as_str().unwrap()), "{message}");
}

/// `--ruleset` repeated: an event of two systems; `begin` needs `--ruleset` then, one of them.
#[test]
fn an_event_of_two_systems_begins_each_battle_under_the_one_named() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("referee.db");
    let created = ok(
        &db,
        &[
            "event",
            "create",
            "--name",
            "Participation day",
            "--ruleset",
            "gts",
            "--ruleset",
            "itacs",
            "--scoring",
            "participation-day",
            "--first-round",
            "seeded",
        ],
    );
    assert_eq!(
        created["tournament"]["setup"]["rulesets"],
        serde_json::json!(["gts", "itacs"])
    );
    for (name, army) in [("Anna", "Spartans"), ("Boris", "Persians")] {
        ok(
            &db,
            &[
                "event", "player", "add", "1", "--name", name, "--army", army,
            ],
        );
    }
    ok(&db, &["event", "pair", "1", "--round", "1"]);
    let asked = refused(
        &db,
        &["event", "begin", "1", "--round", "1", "--table", "1"],
        "event.invalid",
    );
    assert!(asked.ends_with("Choose GTS or ITACS."), "{asked}");
    refused(
        &db,
        &[
            "event",
            "begin",
            "1",
            "--round",
            "1",
            "--table",
            "1",
            "--ruleset",
            "dbmm",
        ],
        "event.wrong_system",
    );
    let battle = ok(
        &db,
        &[
            "event",
            "begin",
            "1",
            "--round",
            "1",
            "--table",
            "1",
            "--ruleset",
            "gts",
        ],
    );
    assert_eq!(battle["state"]["ruleset"], "gts");
    let shown = ok(&db, &["event", "show", "1"]);
    assert_eq!(
        shown["tournament"]["rounds"][0]["games"][0]["ruleset"],
        "gts"
    );
}
