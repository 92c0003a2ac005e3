//! `db check` opens every battle by the rules, not only its hashes; damage is named in words
//! (no SQL text, whatever bytes are flipped); names are held to a length and control
//! characters, and an older file's are shown escaped in the text log.

use serde_json::json;

use referee_api::{Battles, NewBattle, Referee, NAME_MAX_CHARS};

fn begin(battles: &mut Battles, referee: &Referee, name: &str) -> i64 {
    let new: NewBattle = serde_json::from_value(json!({
        "name": name, "ruleset": "itacs",
        "sides": [{"name": "Romans"}, {"name": "Gauls"}],
        "units": [{"label": "Legio X", "side": "Romans", "stats": {"type": "SD", "count": 4}}],
    }))
    .unwrap();
    battles.create(referee, &new).unwrap().id
}

#[test]
fn db_check_replays_every_battle_deleted_ones_too() {
    let referee = Referee::builtin();
    // The first event of a real battle, as a version 3 database stored it (no hashes).
    let dir = tempfile::tempdir().unwrap();
    let created = {
        let mut battles = Battles::open(&dir.path().join("source.db")).unwrap();
        let id = begin(&mut battles, &referee, "Zama");
        let file = serde_json::to_value(battles.export(&referee, id).unwrap()).unwrap();
        file["events"][0]["body"].to_string()
    };
    let path = dir.path().join("referee.db");
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(&referee_store_schema(3)).unwrap();
        conn.pragma_update(None, "user_version", 3).unwrap();
        conn.execute(
            "INSERT INTO battles (id, name, ruleset, fingerprint, created_at, deleted_at)
             VALUES (1, 'Zama', 'itacs', 'f', 'then', NULL), (2, 'Ilipa', 'itacs', 'f', 'then', '2999-01-01T00:00:00.000Z')",
            [],
        )
        .unwrap();
        for battle in [1, 2] {
            conn.execute(
                "INSERT INTO events (battle_id, seq, at, body) VALUES (?1, 1, 'then', ?2),
                 (?1, 2, 'then', '{\"kind\":\"unit_removed\",\"id\":7}')",
                rusqlite::params![battle, created],
            )
            .unwrap();
        }
    }
    // The migration hashed the events as they were: the chain holds, the rules do not.
    let mut battles = Battles::open(&path).unwrap();
    assert!(battles.view(&referee, 1).is_err());
    let check = battles.check(&referee).unwrap();
    assert_eq!(check.damage.len(), 2, "{:?}", check.damage);
    assert!(
        check.damage[0].starts_with("battle #1 “Zama” cannot be replayed by the rules: "),
        "{:?}",
        check.damage
    );
    assert!(
        check.damage[1].starts_with("battle #2 “Ilipa”"),
        "{:?}",
        check.damage
    );
}

fn referee_store_schema(version: i64) -> String {
    referee_store::schema_at(version)
}

/// Words a developer would recognise and an umpire should never read.
const DEVELOPER_TEXT: &[&str] = &[
    "SELECT",
    "sqlite_",
    "SQL logic",
    "no such",
    "Invalid column",
    "malformed",
    "btree",
    "rowid",
    "near \"",
    "constraint",
    "***",
    "Page ",
    "FromSql",
    "serde",
    "expected value",
];

fn plain(text: &str) -> bool {
    !DEVELOPER_TEXT.iter().any(|w| text.contains(w))
}

#[test]
fn flipped_bits_are_named_in_words() {
    let referee = Referee::builtin();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("referee.db");
    {
        let mut battles = Battles::open(&path).unwrap();
        for name in ["Cannae", "Zama", "Ilipa"] {
            let id = begin(&mut battles, &referee, name);
            for _ in 0..5 {
                battles.advance_turn(&referee, id, None, None).unwrap();
            }
        }
        battles.delete(2).unwrap();
    }
    let sound = std::fs::read(&path).unwrap();
    let flips: u64 = std::env::var("BIT_FLIPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(400);
    let mut seed: u64 = 0x0B17_F11B;
    let (mut opened, mut refused, mut damaged) = (0, 0, 0);
    for i in 0..flips {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mut bytes = sound.clone();
        let at = usize::try_from(seed % (bytes.len() as u64 * 8)).unwrap();
        bytes[at / 8] ^= 1 << (at % 8);
        let flipped = dir.path().join(format!("flip-{i}.db"));
        std::fs::write(&flipped, &bytes).unwrap();
        match Battles::open(&flipped) {
            Err(e) => {
                refused += 1;
                assert!(plain(&e.message), "bit {at}: {}", e.message);
            }
            Ok(mut battles) => {
                opened += 1;
                match battles.check(&referee) {
                    Err(e) => assert!(plain(&e.message), "bit {at}: {}", e.message),
                    Ok(check) => {
                        damaged += usize::from(!check.damage.is_empty());
                        for d in &check.damage {
                            assert!(plain(d), "bit {at}: {d}");
                        }
                    }
                }
            }
        }
        let _ = std::fs::remove_file(&flipped);
        let _ = std::fs::remove_dir_all(dir.path().join("backups"));
    }
    eprintln!("bit flips: {flips}, {refused} refused at opening, {opened} opened ({damaged} with damage named)");
}

#[test]
fn names_are_held_to_a_length_and_one_line() {
    let referee = Referee::builtin();
    let dir = tempfile::tempdir().unwrap();
    let mut battles = Battles::open(&dir.path().join("referee.db")).unwrap();
    let huge = "x".repeat(50 * 1024 * 1024);
    for name in [
        huge.as_str(),
        "Cannae\nTurn 9: Romans win",
        "\u{1b}[2JCannae",
    ] {
        let new: NewBattle = serde_json::from_value(json!({
            "name": name, "ruleset": "itacs", "sides": [{"name": "Romans"}, {"name": "Gauls"}],
        }))
        .unwrap();
        let e = battles.create(&referee, &new).unwrap_err();
        assert_eq!(
            (e.code.as_str(), e.field.as_deref()),
            ("name.invalid", Some("name"))
        );
    }
    assert!(battles.list().unwrap().is_empty(), "nothing stored");
    let id = begin(&mut battles, &referee, &"é".repeat(NAME_MAX_CHARS));
    let unit = serde_json::from_value(
        json!({"label": "a\nb", "side": "Romans", "stats": {"type": "SD", "count": 4}}),
    )
    .unwrap();
    let e = battles.add_unit(&referee, id, unit).unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.field.as_deref()),
        ("name.invalid", Some("label"))
    );
}

#[test]
fn an_older_files_names_cannot_forge_a_line_of_the_text_log() {
    let referee = Referee::builtin();
    let dir = tempfile::tempdir().unwrap();
    let mut battles = Battles::open(&dir.path().join("referee.db")).unwrap();
    let id = begin(&mut battles, &referee, "Cannae");
    let mut file = serde_json::to_value(battles.export(&referee, id).unwrap()).unwrap();
    // As a version 1 file (no hashes) could carry it.
    file["version"] = json!(1);
    file.as_object_mut().unwrap().remove("head");
    for e in file["events"].as_array_mut().unwrap() {
        e.as_object_mut().unwrap().remove("hash");
    }
    file["events"][0]["body"]["setup"]["name"] = json!("Cannae\nTurn 9: Romans win\u{1b}[2J");
    file["events"][1]["body"]["unit"]["label"] = json!("Legio\nTurn 9: Gauls win");
    let view = battles.import(&referee, &file.to_string()).unwrap();
    let log = battles.text_log(&referee, view.id).unwrap();
    assert!(
        !log.lines().any(|l| l.starts_with("Turn 9")),
        "no forged line:\n{log}"
    );
    assert!(!log.contains('\u{1b}'), "no escape sequence:\n{log}");
    assert!(log.contains("Cannae␊Turn 9: Romans win␛[2J"), "{log}");
}
