//! The store against real SQLite files: migrations from every earlier schema, newer and damaged
//! files refused and left untouched, WAL with synchronous=FULL, backups.

use std::path::Path;

use referee_core::battle::{BattleSetup, Event, EventBody, SideSetup};
use referee_core::RefereeError;
use referee_store::{event_hash, latest_backup, schema_at, Store, CHAIN_START, SCHEMA_VERSION};
use rusqlite::Connection;

fn created() -> Event {
    Event {
        seq: 1,
        at: "2026-11-21T10:00:00Z".into(),
        body: EventBody::Created {
            setup: BattleSetup {
                name: "Test".into(),
                ruleset: "itacs".into(),
                fingerprint: "f".into(),
                sides: vec![
                    SideSetup {
                        name: "A".into(),
                        commands: vec![],
                        panic_level: None,
                        stacking_limit: None,
                    },
                    SideSetup {
                        name: "B".into(),
                        commands: vec![],
                        panic_level: None,
                        stacking_limit: None,
                    },
                ],
            },
        },
    }
}

fn turn(seq: u64) -> Event {
    Event {
        seq,
        at: "2026-11-21T10:01:00Z".into(),
        body: EventBody::TurnAdvanced {
            turn: seq as u32,
            phase: None,
        },
    }
}

fn bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap()
}

#[test]
fn every_earlier_schema_migrates_with_a_backup_and_keeps_its_battles() {
    for version in 0..SCHEMA_VERSION {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("referee.db");
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(&schema_at(version.min(4))).unwrap();
            conn.pragma_update(None, "user_version", version.min(4))
                .unwrap();
            if version >= 1 {
                conn.execute(
                    "INSERT INTO battles (id, name, ruleset, fingerprint, created_at) VALUES (1, 'Old', 'itacs', 'f', 'then')",
                    [],
                )
                .unwrap();
                conn.execute(
                    "INSERT INTO events (battle_id, seq, at, body) VALUES (1, 1, 'then', ?1)",
                    [serde_json::to_string(&created().body).unwrap()],
                )
                .unwrap();
                // From schema 4 on, events carry their hash (earlier ones get it migrating).
                if version >= 4 {
                    let hash = event_hash(CHAIN_START, 1, "then", &created().body, None);
                    conn.execute("UPDATE events SET hash = ?1", [hash]).unwrap();
                }
            }
        }
        if version >= 5 {
            // From schema 5 on, a battle carries its head, written as the app wrote it: the
            // file at schema 4 opened (migrated), then taken back to this version's tables.
            drop(Store::open(&path).unwrap());
            let conn = Connection::open(&path).unwrap();
            // Schema 6's tables (events) go; a later migration's tables would go here too.
            conn.execute_batch("DROP TABLE tournament_entries; DROP TABLE tournaments;")
                .unwrap();
            conn.pragma_update(None, "user_version", version).unwrap();
            drop(conn);
            std::fs::remove_dir_all(referee_store::backups_dir(&path)).unwrap();
        }
        let mut store = Store::open(&path).unwrap();
        let v: i64 = Connection::open(&path)
            .unwrap()
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(v, SCHEMA_VERSION, "from {version}");
        if version >= 1 {
            assert_eq!(store.events(1).unwrap().len(), 1, "from {version}");
            let backup = latest_backup(&path).expect("a backup before migrating");
            let old: i64 = Connection::open(&backup)
                .unwrap()
                .query_row("PRAGMA user_version", [], |r| r.get(0))
                .unwrap();
            assert_eq!(old, version, "the backup is the file as it was");
            // The chain was computed for the old event: it opens, and takes an append.
            store.append(1, &turn(2), None).unwrap();
            assert_eq!(store.events(1).unwrap().len(), 2, "from {version}");
        } else {
            assert!(latest_backup(&path).is_none(), "a new file needs no backup");
        }
        // The migrated store takes rosters and details (schema 2).
        assert!(store.rosters().unwrap().is_empty());
        assert_eq!(store.integrity_check().unwrap(), "ok");
    }
}

#[test]
fn a_database_from_a_newer_app_is_refused_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("referee.db");
    drop(Store::open(&path).unwrap());
    Connection::open(&path)
        .unwrap()
        .pragma_update(None, "user_version", SCHEMA_VERSION + 1)
        .unwrap();
    let before = bytes(&path);
    let e = RefereeError::from(Store::open(&path).err().unwrap());
    assert_eq!(e.code, "store.newer_version");
    assert!(e.message.contains("update the app"), "{}", e.message);
    assert_eq!(bytes(&path), before);
}

#[test]
fn a_damaged_file_is_refused_untouched_and_the_latest_backup_offered() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("referee.db");
    // Not a database at all.
    std::fs::write(&path, b"these are not the pages you are looking for").unwrap();
    let before = bytes(&path);
    let e = RefereeError::from(Store::open(&path).err().unwrap());
    assert_eq!(e.code, "store.corrupt");
    assert!(e.message.contains("no backup"), "{}", e.message);
    assert_eq!(bytes(&path), before);

    // A real database with a backup, then its first page damaged past the header.
    std::fs::remove_file(&path).unwrap();
    let mut store = Store::open(&path).unwrap();
    store.insert_battle(&[(created(), None)]).unwrap();
    let backup = store
        .backup_for(referee_store::BackupReason::OnDemand, None)
        .unwrap();
    drop(store);
    let mut damaged = bytes(&path);
    for b in &mut damaged[100..1000] {
        *b = 0xA5;
    }
    std::fs::write(&path, &damaged).unwrap();
    let _ = std::fs::remove_file(path.with_extension("db-wal"));
    let e = RefereeError::from(Store::open(&path).err().unwrap());
    assert_eq!(e.code, "store.corrupt", "{e:?}");
    // The backup is offered where the umpire can restore it, with no path on screen.
    assert!(
        e.message.contains("Restore its latest backup in Settings"),
        "{}",
        e.message
    );
    assert!(
        !e.message.contains(&backup.display().to_string()),
        "{}",
        e.message
    );
    assert_eq!(bytes(&path), damaged, "never overwritten");
    // The backup opens, with the battle.
    let mut restored = Store::open(&backup).unwrap();
    assert_eq!(restored.events(1).unwrap().len(), 1);
}

#[test]
fn the_database_uses_wal_with_full_sync_and_appends_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("referee.db");
    let mut store = Store::open(&path).unwrap();
    let conn = Connection::open(&path).unwrap();
    let mode: String = conn
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    let id = store.insert_battle(&[(created(), None)]).unwrap();
    store.append(id, &turn(2), None).unwrap();
    // An event out of order (another writer got there first) is refused.
    let e = RefereeError::from(store.append(id, &turn(2), None).unwrap_err());
    assert_eq!(e.code, "store.conflict");
    let e = RefereeError::from(store.append(99, &turn(2), None).unwrap_err());
    assert_eq!(e.code, "battle.unknown");
    assert_eq!(store.events(id).unwrap().len(), 2);
    // A batch fails whole: nothing of it is kept.
    let e = RefereeError::from(
        store
            .append_all(id, &[(turn(3), None), (turn(5), None)])
            .unwrap_err(),
    );
    assert_eq!(e.code, "store.conflict");
    assert_eq!(store.events(id).unwrap().len(), 2);
}

#[test]
fn another_applications_database_is_refused_untouched_and_a_folder_named_plainly() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("other.db");
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
            .unwrap();
    }
    let before = bytes(&path);
    let e = RefereeError::from(Store::open(&path).err().unwrap());
    assert_eq!(e.code, "store.not_referee", "{e:?}");
    assert!(e.message.contains("another application"), "{}", e.message);
    assert_eq!(bytes(&path), before, "not converted");
    assert!(!path.with_extension("db-wal").exists());

    // Another application's id, even with tables named like the referee's.
    let marked = dir.path().join("marked.db");
    {
        let conn = Connection::open(&marked).unwrap();
        conn.execute_batch(&schema_at(2)).unwrap();
        conn.pragma_update(None, "application_id", 42).unwrap();
    }
    assert_eq!(
        Store::open(&marked).err().unwrap().code(),
        "store.not_referee"
    );

    // A referee database is marked as one.
    let ours = dir.path().join("referee.db");
    drop(Store::open(&ours).unwrap());
    let id: i64 = Connection::open(&ours)
        .unwrap()
        .query_row("PRAGMA application_id", [], |r| r.get(0))
        .unwrap();
    assert_eq!(id, referee_store::APPLICATION_ID);

    let e = RefereeError::from(Store::open(dir.path()).err().unwrap());
    assert_eq!(e.code, "store.is_folder", "{e:?}");
    assert!(e.message.contains("folder"), "{}", e.message);
}

#[test]
fn a_changed_event_or_a_gap_in_the_numbering_is_caught_naming_battle_and_event() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("referee.db");
    let mut store = Store::open(&path).unwrap();
    let id = store
        .insert_battle(&[(created(), None), (turn(2), None), (turn(3), None)])
        .unwrap();
    assert!(store.check(|_| Ok(())).unwrap().damage.is_empty());
    // Event 2's turn changed behind the referee's back.
    Connection::open(&path)
        .unwrap()
        .execute(
            "UPDATE events SET body = replace(body, '\"turn\":2', '\"turn\":7') WHERE seq = 2",
            [],
        )
        .unwrap();
    let e = RefereeError::from(store.events(id).unwrap_err());
    assert_eq!(e.code, "store.damaged_event", "{e:?}");
    assert!(e.message.contains("Event 2 of battle #1"), "{}", e.message);
    let check = store.check(|_| Ok(())).unwrap();
    assert_eq!(check.integrity, "ok", "SQLite sees nothing wrong");
    assert_eq!(check.damage.len(), 1, "{:?}", check.damage);
    assert!(
        check.damage[0].contains("battle #1 “Test”, event 2"),
        "{:?}",
        check.damage
    );

    // A battle numbered 1, 3 (an event deleted) is caught too.
    let other = store
        .insert_battle(&[(created(), None), (turn(2), None)])
        .unwrap();
    Connection::open(&path)
        .unwrap()
        .execute(
            "UPDATE events SET seq = 3 WHERE battle_id = ?1 AND seq = 2",
            [other],
        )
        .unwrap();
    assert_eq!(
        store.events(other).unwrap_err().code(),
        "store.damaged_event"
    );
    assert_eq!(store.check(|_| Ok(())).unwrap().damage.len(), 2);
}

#[test]
fn a_battle_is_stored_only_numbered_one_two_three() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("referee.db")).unwrap();
    for seqs in [[1, 3], [1, u64::MAX], [1, 1 << 63]] {
        let e = RefereeError::from(
            store
                .insert_battle(&[(created(), None), (turn(seqs[1]), None)])
                .unwrap_err(),
        );
        assert_eq!(e.code, "battle.invalid_events", "{seqs:?}");
    }
    let id = store.insert_battle(&[(created(), None)]).unwrap();
    for (seq, code) in [
        (u64::MAX, "battle.invalid_events"),
        (1 << 63, "battle.invalid_events"),
        (3, "store.conflict"),
    ] {
        assert_eq!(
            store.append(id, &turn(seq), None).unwrap_err().code(),
            code,
            "{seq}"
        );
    }
    assert!(store.battles().unwrap().iter().all(|b| b.events == 1));
}

/// The details of the events in force are read with the undone left out by the query itself.
#[test]
fn the_details_in_force_leave_the_undone_out() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("referee.db")).unwrap();
    let detail =
        |n: u32| Some(serde_json::value::RawValue::from_string(format!("{{\"n\":{n}}}")).unwrap());
    let id = store
        .insert_battle(&[
            (created(), None),
            (turn(2), detail(2)),
            (turn(3), detail(3)),
        ])
        .unwrap();
    let seqs = |d: Vec<(u64, Box<serde_json::value::RawValue>)>| -> Vec<(u64, String)> {
        d.into_iter()
            .map(|(s, v)| (s, v.get().to_string()))
            .collect()
    };
    assert_eq!(
        seqs(store.details_in_force(id, &[2]).unwrap()),
        vec![(3, "{\"n\":3}".to_string())]
    );
    assert_eq!(seqs(store.details(id).unwrap()).len(), 2);
}

/// A database of the app before events (schema 5) migrates: its battles kept, the events'
/// tables added, an event created with its first entry and entries appended in order.
#[test]
fn a_database_from_before_events_migrates_and_keeps_events() {
    use referee_core::tournament::{
        FirstRound, PairingMethod, Player, TournamentEntry, TournamentSetup,
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("referee.db");
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(&schema_at(5)).unwrap();
        conn.pragma_update(None, "user_version", 5).unwrap();
    }
    let mut store = Store::open(&path).unwrap();
    let id = store.insert_battle(&[(created(), None)]).unwrap();
    assert_eq!(store.events(id).unwrap().len(), 1);
    assert!(latest_backup(&path).is_some(), "a backup before migrating");
    assert!(store.tournaments().unwrap().is_empty());
    let created = TournamentEntry::Created {
        setup: TournamentSetup {
            name: "Open".into(),
            rulesets: vec!["dbmm".into()],
            scoring: "dbmm-25".into(),
            pairing: PairingMethod::Swiss,
            first_round: FirstRound::Seeded,
            rounds: 3,
        },
    };
    let event = store.create_tournament("Open", &created).unwrap();
    let added = TournamentEntry::PlayerAdded {
        player: Player {
            name: "Anna".into(),
            army: "Romans".into(),
            withdrawn: false,
        },
    };
    store.append_tournament_entry(event, &added).unwrap();
    store
        .append_tournament_entry(event, &TournamentEntry::Undone)
        .unwrap();
    assert_eq!(
        store.tournament_entries(event).unwrap(),
        [created, added, TournamentEntry::Undone]
    );
    let rows = store.tournaments().unwrap();
    assert_eq!((rows[0].id, rows[0].name.as_str()), (event, "Open"));
    let e = RefereeError::from(store.tournament_entries(event + 1).unwrap_err());
    assert_eq!(e.code, "event.unknown");
    assert!(store
        .append_tournament_entry(event + 1, &TournamentEntry::Redone)
        .is_err());
    assert_eq!(store.integrity_check().unwrap(), "ok");
}
