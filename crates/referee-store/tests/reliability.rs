//! What the second reliability review found, each pinned: the chain's head catches a cut tail and
//! a changed battle row, rosters carry hashes, backups are ordered by sequence and not by the
//! clock, one daily backup a day however many writers start at once, leftovers of killed backups
//! and restores cleared on start, a damaged database restored over through temporary files with
//! its write-ahead log kept, and foreign files refused byte for byte untouched.

use std::path::{Path, PathBuf};

use referee_core::battle::{BattleSetup, Event, EventBody, SideSetup};
use referee_core::RefereeError;
use referee_store::{backups_dir, leftovers, schema_at, BackupReason, Roster, Store};
use rusqlite::Connection;

fn created(name: &str) -> Event {
    let side = |n: &str| SideSetup {
        name: n.into(),
        commands: vec![],
        panic_level: None,
        stacking_limit: None,
    };
    Event {
        seq: 1,
        at: "2026-11-21T10:00:00Z".into(),
        body: EventBody::Created {
            setup: BattleSetup {
                name: name.into(),
                ruleset: "itacs".into(),
                fingerprint: "f".into(),
                sides: vec![side("A"), side("B")],
            },
        },
    }
}

fn turn(seq: u64) -> Event {
    Event {
        seq,
        at: "2026-11-21T10:01:00Z".into(),
        body: EventBody::TurnAdvanced {
            turn: u32::try_from(seq).unwrap(),
            phase: None,
        },
    }
}

fn with_battle(dir: &Path) -> (PathBuf, Store, i64) {
    let path = dir.join("referee.db");
    let mut store = Store::open(&path).unwrap();
    let id = store.insert_battle(&[(created("Cannae"), None)]).unwrap();
    for seq in 2..=4 {
        store.append(id, &turn(seq), None).unwrap();
    }
    (path, store, id)
}

#[test]
fn removing_the_last_events_or_changing_a_battles_row_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    let (path, mut store, id) = with_battle(dir.path());
    assert_eq!(store.events(id).unwrap().len(), 4);
    let sql = Connection::open(&path).unwrap();
    sql.execute("DELETE FROM events WHERE seq >= 3", [])
        .unwrap();
    let e = RefereeError::from(store.events(id).unwrap_err());
    assert_eq!(e.code, "store.damaged_event");
    assert!(e.message.contains("removed"), "{}", e.message);
    let check = store.check(|_| Ok(())).unwrap();
    assert_eq!(check.damage.len(), 1, "{:?}", check.damage);
    assert!(
        check.damage[0].contains("battle #1 “Cannae”, event 4"),
        "{:?}",
        check.damage
    );

    let dir = tempfile::tempdir().unwrap();
    let (path, mut store, id) = with_battle(dir.path());
    let sql = Connection::open(&path).unwrap();
    for change in [
        "UPDATE battles SET name = 'Zama'",
        "UPDATE battles SET ruleset = 'gts'",
        "UPDATE battles SET deleted_at = '2026-11-21T10:00:00Z'",
    ] {
        let saved: (String, String, Option<String>) = sql
            .query_row("SELECT name, ruleset, deleted_at FROM battles", [], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .unwrap();
        sql.execute(change, []).unwrap();
        let check = store.check(|_| Ok(())).unwrap();
        assert_eq!(check.damage.len(), 1, "{change}: {:?}", check.damage);
        assert!(check.damage[0].contains("changed outside"), "{change}");
        sql.execute(
            "UPDATE battles SET name = ?1, ruleset = ?2, deleted_at = ?3",
            rusqlite::params![saved.0, saved.1, saved.2],
        )
        .unwrap();
    }
    assert_eq!(store.events(id).unwrap().len(), 4, "put back, it opens");
    // The referee's own changes keep the head: delete, restore, append.
    store.delete_battle(id).unwrap();
    assert!(store.check(|_| Ok(())).unwrap().damage.is_empty());
    store.restore_battle(id).unwrap();
    store.append(id, &turn(5), None).unwrap();
    assert!(store.check(|_| Ok(())).unwrap().damage.is_empty());
}

#[test]
fn a_roster_changed_outside_the_referee_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("referee.db");
    let mut store = Store::open(&path).unwrap();
    let id = store
        .save_roster(&Roster {
            name: "Legions".into(),
            ruleset: "itacs".into(),
            units: vec![],
        })
        .unwrap();
    assert_eq!(store.roster(id).unwrap().name, "Legions");
    Connection::open(&path)
        .unwrap()
        .execute("UPDATE rosters SET name = 'Gauls'", [])
        .unwrap();
    assert_eq!(store.roster(id).unwrap_err().code(), "store.damaged_roster");
    let check = store.check(|_| Ok(())).unwrap();
    assert_eq!(check.damage.len(), 1);
    assert!(
        check.damage[0].starts_with("roster #1 “Gauls”"),
        "{:?}",
        check.damage
    );
}

#[test]
fn a_backup_named_with_a_later_time_does_not_outrank_a_new_one() {
    let dir = tempfile::tempdir().unwrap();
    let (path, store, _) = with_battle(dir.path());
    // Ten backups from a clock set years ahead (named as before sequences were).
    let folder = backups_dir(&path);
    std::fs::create_dir_all(&folder).unwrap();
    for i in 0..10 {
        let name = format!("referee-20991231T1200000{i:02}Z-on-demand.db");
        store.backup_to(&folder.join(name)).unwrap();
    }
    for i in 0..5 {
        let name = format!("referee-20991231T1200000{i:02}Z-before-restore.db");
        store.backup_to(&folder.join(name)).unwrap();
    }
    let fresh = store.backup_for(BackupReason::OnDemand, None).unwrap();
    assert!(fresh.exists(), "the backup just taken is kept");
    let listed = store.backups();
    assert_eq!(listed[0].id, fresh.file_name().unwrap().to_str().unwrap());
    assert_eq!(
        listed
            .iter()
            .filter(|b| b.reason == BackupReason::OnDemand)
            .count(),
        10
    );
    drop(store);
    // The safety copy of a restore stays too.
    let mut store = Store::open(&path).unwrap();
    let id = listed[0].id.clone();
    let before = store.restore_backup(&id).unwrap();
    assert!(before.exists(), "the before-restore copy is kept");
    assert_eq!(
        store.backups()[0].id,
        before.file_name().unwrap().to_str().unwrap()
    );
}

#[test]
fn writers_starting_together_take_one_daily_backup() {
    let dir = tempfile::tempdir().unwrap();
    let (path, store, _) = with_battle(dir.path());
    drop(store);
    let _ = std::fs::remove_dir_all(backups_dir(&path));
    let writers: Vec<_> = (0..4)
        .map(|i| {
            let path = path.clone();
            std::thread::spawn(move || {
                let mut store = Store::open(&path).unwrap();
                store.append(1, &turn(5 + i), None).ok();
                store
                    .insert_battle(&[(created(&format!("W{i}")), None)])
                    .unwrap();
            })
        })
        .collect();
    for w in writers {
        w.join().unwrap();
    }
    let store = Store::open(&path).unwrap();
    let daily = store
        .backups()
        .into_iter()
        .filter(|b| b.reason == BackupReason::Daily)
        .count();
    assert_eq!(daily, 1);
}

#[test]
fn the_leftovers_of_a_killed_backup_or_restore_go_on_start() {
    let dir = tempfile::tempdir().unwrap();
    let (path, store, _) = with_battle(dir.path());
    let kept = store.backup_for(BackupReason::OnDemand, None).unwrap();
    drop(store);
    let folder = backups_dir(&path);
    for name in [
        "referee-000009-20261121T100000000Z-daily.db.partial",
        "referee-000002-20261121T100000000Z-on-demand.db.4242.partial",
        "referee-000002-20261121T100000000Z-on-demand.db.4242.partial-journal",
    ] {
        std::fs::write(folder.join(name), b"half a copy").unwrap();
    }
    std::fs::write(dir.path().join("referee.db.restoring"), b"half").unwrap();
    assert_eq!(leftovers(&path).len(), 4);
    drop(Store::open(&path).unwrap());
    assert!(leftovers(&path).is_empty(), "{:?}", leftovers(&path));
    assert!(kept.exists(), "backups stay");
}

#[test]
fn restoring_over_a_damaged_database_keeps_it_whole_with_its_log() {
    let dir = tempfile::tempdir().unwrap();
    let (path, store, _) = with_battle(dir.path());
    let backup = store.backup_for(BackupReason::OnDemand, None).unwrap();
    drop(store);
    let mut damaged = std::fs::read(&path).unwrap();
    for b in &mut damaged[100..1000] {
        *b = 0xA5;
    }
    std::fs::write(&path, &damaged).unwrap();
    let wal = dir.path().join("referee.db-wal");
    std::fs::write(&wal, b"the damaged file's log").unwrap();
    assert_eq!(Store::open(&path).err().unwrap().code(), "store.corrupt");
    let id = backup.file_name().unwrap().to_str().unwrap();
    referee_store::restore_over_damaged(&path, id).unwrap();
    let kept = referee_store::backups_of(&path)
        .into_iter()
        .find(|b| b.reason == BackupReason::BeforeRestore)
        .unwrap();
    let kept = backups_dir(&path).join(kept.id);
    assert!(
        std::fs::read(&kept).unwrap() == damaged,
        "kept byte for byte"
    );
    let mut kept_wal = kept.into_os_string();
    kept_wal.push("-wal");
    assert_eq!(std::fs::read(kept_wal).unwrap(), b"the damaged file's log");
    assert!(!wal.exists());
    assert!(leftovers(&path).is_empty());
    let mut store = Store::open(&path).unwrap();
    assert_eq!(store.events(1).unwrap().len(), 4);
}

/// Each file of a folder: its name, length and a digest of its bytes. The -shm is left out: it
/// is SQLite's shared-memory index, whose read marks any reader moves.
fn files_of(dir: &Path) -> Vec<(String, usize, u64)> {
    use std::hash::{Hash, Hasher};
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !p.to_string_lossy().ends_with("-shm"))
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            let mut h = std::collections::hash_map::DefaultHasher::new();
            bytes.hash(&mut h);
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                bytes.len(),
                h.finish(),
            )
        })
        .collect();
    files.sort();
    files
}

#[test]
fn foreign_files_are_refused_byte_for_byte_untouched() {
    // Another application's WAL database, its log live (not yet checkpointed).
    let live = tempfile::tempdir().unwrap();
    let other = live.path().join("other.db");
    let conn = Connection::open(&other).unwrap();
    conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get::<_, String>(0))
        .unwrap();
    conn.execute_batch(
        "PRAGMA wal_autocheckpoint=0; CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT);
         INSERT INTO notes (text) VALUES ('keep me');",
    )
    .unwrap();
    // Its files as they are while it runs, copied where the referee is pointed at them.
    let dir = tempfile::tempdir().unwrap();
    for side in ["", "-wal", "-shm"] {
        let from = live.path().join(format!("other.db{side}"));
        if from.exists() {
            std::fs::copy(&from, dir.path().join(format!("other.db{side}"))).unwrap();
        }
    }
    drop(conn);
    let before = files_of(dir.path());
    assert!(before
        .iter()
        .any(|(n, len, _)| n == "other.db-wal" && *len > 0));
    let e = RefereeError::from(Store::open(&dir.path().join("other.db")).err().unwrap());
    assert_eq!(e.code, "store.not_referee", "{e:?}");
    assert_eq!(
        files_of(dir.path()),
        before,
        "not checkpointed, nothing removed"
    );

    // An unrelated file with tables named battles and events, at a version the referee had.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("league.db");
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(
            "CREATE TABLE battles (id INTEGER PRIMARY KEY, winner TEXT);
             CREATE TABLE events (id INTEGER PRIMARY KEY, what TEXT);
             PRAGMA user_version = 1;",
        )
        .unwrap();
    }
    let before = files_of(dir.path());
    let e = RefereeError::from(Store::open(&path).err().unwrap());
    assert_eq!(e.code, "store.not_referee", "{e:?}");
    assert_eq!(files_of(dir.path()), before, "no migration applied");

    // A referee database of an older schema is still known as one.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("referee.db");
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(&schema_at(3)).unwrap();
        conn.pragma_update(None, "user_version", 3).unwrap();
    }
    assert!(Store::open(&path).is_ok());
}
