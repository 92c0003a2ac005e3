//! The battle commands on the command line: the documented scripted battle runs, every committed
//! step is reported, and the battle survives export, import and a fresh process.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

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

#[test]
fn the_documented_scripted_battle_runs_and_round_trips() {
    let script = root().join("docs/examples/battle-itacs.json");
    let doc = std::fs::read_to_string(root().join("docs/api.md")).unwrap();
    let text = std::fs::read_to_string(&script).unwrap();
    assert!(
        doc.contains(&text),
        "docs/examples/battle-itacs.json is the example of docs/api.md"
    );

    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("referee.db");
    let (status, _, stdout) = referee(&db, &["battle", "script", script.to_str().unwrap()]);
    assert_eq!(status, 0, "{stdout}");
    let lines: Vec<Value> = stdout
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    // The creation, then one line per step (7 steps), then the summary.
    assert_eq!(lines.iter().filter(|l| l.get("step").is_some()).count(), 7);
    let (_, state, _) = referee(&db, &["battle", "state", "1"]);
    assert_eq!(state["events"], 8);
    assert_eq!(state["state"]["turn"], 2);
    let log: Vec<&str> = state["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    assert!(
        log[3].contains("app dice, seed 7") && log[3].contains("Hannibal"),
        "{log:?}"
    );

    let out = dir.path().join("cannae.json");
    let (status, _, _) = referee(
        &db,
        &["battle", "export", "1", "--out", out.to_str().unwrap()],
    );
    assert_eq!(status, 0);
    let (status, imported, _) = referee(&db, &["battle", "import", out.to_str().unwrap()]);
    assert_eq!(status, 0);
    assert_eq!(imported["state"], state["state"]);

    let (status, error, _) = referee(&db, &["battle", "undo", "99"]);
    assert_eq!(
        (status, error["code"].as_str()),
        (2, Some("battle.unknown"))
    );
    let (status, check, _) = referee(&db, &["db", "check"]);
    assert_eq!((status, check["integrity_check"].as_str()), (0, Some("ok")));
    let (status, backup, _) = referee(&db, &["db", "backup"]);
    assert_eq!(status, 0);
    assert!(Path::new(backup["backup"].as_str().unwrap()).exists());
}

#[test]
fn a_damaged_database_is_a_clear_error_on_the_cli_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("referee.db");
    std::fs::write(&db, b"not a database, not at all, no").unwrap();
    let (status, error, _) = referee(&db, &["battle", "list"]);
    assert_eq!((status, error["code"].as_str()), (2, Some("store.corrupt")));
    assert_eq!(
        std::fs::read(&db).unwrap(),
        b"not a database, not at all, no"
    );
}

fn referee_in(db: &Path, args: &[&str], stdin: &str) -> (i32, Value) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(args)
        .env("REFEREE_DB", db)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    (
        out.status.code().unwrap_or(-1),
        serde_json::from_str(&stdout).unwrap_or(Value::Null),
    )
}

#[test]
fn units_are_edited_and_removed_and_rosters_start_from_a_template() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("referee.db");
    let (status, _) = referee_in(
        &db,
        &["battle", "new"],
        r#"{"name": "Test", "ruleset": "itacs", "sides": [{"name": "Romans"}, {"name": "Gauls"}]}"#,
    );
    assert_eq!(status, 0);
    let unit = r#"{"label": "17.03", "side": "Gauls", "stats": {"type": "PS", "count": 2}}"#;
    assert_eq!(referee_in(&db, &["battle", "add-unit", "1"], unit).0, 0);
    let edited = r#"{"label": "17.03", "side": "Gauls", "stats": {"type": "PS", "count": 3}}"#;
    let (status, view) = referee_in(&db, &["battle", "edit-unit", "1", "--unit", "1"], edited);
    assert_eq!(status, 0, "{view}");
    assert_eq!(view["state"]["units"]["1"]["strength"], 3);
    assert_eq!(view["log"][2]["text"], "Edited 17.03");
    let (status, view) = referee_in(&db, &["battle", "remove-unit", "1", "--unit", "1"], "");
    assert_eq!(status, 0);
    assert_eq!(view["log"][3]["text"], "Removed 17.03");
    assert_eq!(view["state"]["units"], serde_json::json!({}));
    let (status, error) = referee_in(&db, &["battle", "remove-unit", "1", "--unit", "1"], "");
    assert_eq!(
        (status, error["code"].as_str()),
        (2, Some("battle.unit_gone"))
    );
    // An unknown adjustment is a sentence naming the choices, not serde's text.
    let (status, error) = referee_in(
        &db,
        &["battle", "adjust", "1"],
        r#"{"subject": {"side": "Gauls"}, "change": {"kind": "remove_disorder"}}"#,
    );
    let message = error["message"].as_str().unwrap_or_default();
    assert_eq!(
        (status, error["code"].as_str()),
        (2, Some("input.invalid")),
        "{error}"
    );
    assert!(
        message.starts_with("“remove disorder” is not one of the choices"),
        "{message}"
    );
    assert!(
        !message.contains('`') && !message.contains("variant"),
        "{message}"
    );

    let csv = dir.path().join("gts.csv");
    let (status, _) = referee_in(
        &db,
        &[
            "roster",
            "template",
            "--ruleset",
            "gts",
            "--out",
            csv.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(status, 0);
    let (status, saved) = referee_in(
        &db,
        &[
            "roster",
            "import",
            csv.to_str().unwrap(),
            "--ruleset",
            "gts",
        ],
        "",
    );
    assert_eq!((status, saved["units"].as_u64()), (0, Some(2)), "{saved}");
    let (status, preview) = referee_in(
        &db,
        &["roster", "preview", "--ruleset", "dbmm"],
        r#"{"type": "Kn", "grade": "Q"}"#,
    );
    assert_eq!((status, preview["field"].as_str()), (2, Some("grade")));
}

#[test]
fn a_battle_begins_from_a_preset_and_a_club_preset_is_listed() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("referee.db");
    let (status, list, out) = referee(&db, &["presets"]);
    assert_eq!(status, 0, "{out}");
    assert!(list["problems"].as_array().unwrap().is_empty(), "{out}");
    let ids: Vec<&str> = list["presets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"itacs-melee-example"), "{ids:?}");

    let (status, view, out) = referee(
        &db,
        &["battle", "create", "--preset", "itacs-melee-example"],
    );
    assert_eq!(status, 0, "{out}");
    assert_eq!(view["events"], 5);
    assert_eq!(view["state"]["units"].as_object().unwrap().len(), 4);
    let (status, view, out) = referee(
        &db,
        &[
            "battle",
            "new",
            "--preset",
            "gts-cavalry-melee",
            "--name",
            "Rematch",
        ],
    );
    assert_eq!(status, 0, "{out}");
    assert_eq!(view["state"]["name"], "Rematch");
    let (status, e, _) = referee(&db, &["battle", "create", "--preset", "nope"]);
    assert_eq!((status, e["code"].as_str()), (2, Some("preset.unknown")));
    let (_, battles, _) = referee(&db, &["battle", "list"]);
    assert_eq!(battles.as_array().unwrap().len(), 2);

    // A club's preset beside its house rules, and a broken one reported alone.
    let rules = dir.path().join("rulesets");
    std::fs::create_dir_all(rules.join("presets")).unwrap();
    std::fs::write(
        rules.join("presets/medieval-club.toml"),
        "name = \"Club\"\nruleset = \"medieval\"\n\n[[sides]]\nname = \"A\"\n\n[[sides]]\nname = \"B\"\n\n[[units]]\nlabel = \"a\"\nside = \"A\"\nstats = { type = \"archers\", sp = 1 }\n",
    )
    .unwrap();
    std::fs::write(rules.join("presets/medieval-broken.toml"), "name = 3\n").unwrap();
    let folder = rules.to_str().unwrap();
    let (status, list, out) = referee(&db, &["presets", "--rulesets", folder]);
    assert_eq!(status, 0, "{out}");
    let club = list["presets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == "medieval-club")
        .unwrap_or_else(|| panic!("{out}"));
    assert_eq!(club["builtin"], false);
    let problems = list["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 1, "{out}");
    assert!(problems[0]["location"]
        .as_str()
        .unwrap()
        .ends_with("medieval-broken.toml:1"));
    let (status, view, out) = referee(
        &db,
        &[
            "battle",
            "create",
            "--preset",
            "medieval-club",
            "--rulesets",
            folder,
        ],
    );
    assert_eq!(status, 0, "{out}");
    assert_eq!(view["state"]["ruleset"], "medieval");
}
