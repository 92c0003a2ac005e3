//! Backups a user never has to think of, and battles that can be restored after a delete: over a
//! real database file, as the app and the CLI use it.

use serde_json::json;

use referee_api::{BackupReason, Battles, NewBattle, Referee};

fn begin(battles: &mut Battles, referee: &Referee, name: &str) -> i64 {
    let new: NewBattle = serde_json::from_value(json!({
        "name": name, "ruleset": "itacs",
        "sides": [{"name": "Romans"}, {"name": "Gauls"}],
    }))
    .unwrap();
    battles.create(referee, &new).unwrap().id
}

fn names(battles: &mut Battles) -> Vec<String> {
    battles
        .list()
        .unwrap()
        .into_iter()
        .map(|b| b.name)
        .collect()
}

#[test]
fn the_first_change_of_a_day_is_backed_up_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("referee.db");
    let referee = Referee::builtin();
    let mut battles = Battles::open(&path).unwrap();
    // An empty database has nothing to back up: the first battle is written without one.
    let first = begin(&mut battles, &referee, "Alesia");
    assert!(battles.backups().backups.is_empty());
    // The next change, in the same session, backs up what there is, once.
    battles.advance_turn(&referee, first, None, None).unwrap();
    begin(&mut battles, &referee, "Gergovia");
    let list = battles.backups();
    let daily: Vec<_> = list
        .backups
        .iter()
        .filter(|b| b.reason == BackupReason::Daily)
        .collect();
    assert_eq!(daily.len(), 1, "{list:?}");
    assert_eq!(
        daily[0].battles,
        Some(1),
        "the backup holds the day's start"
    );
    assert!(list.problem.is_none());
    let mut again = Battles::open(&path).unwrap();
    begin(&mut again, &referee, "Avaricum");
    assert_eq!(again.backups().backups.len(), 1, "one a day");
}

#[test]
fn a_deleted_battle_leaves_the_list_and_comes_back_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("referee.db");
    let referee = Referee::builtin();
    let mut battles = Battles::open(&path).unwrap();
    let id = begin(&mut battles, &referee, "Cannae");
    battles.advance_turn(&referee, id, None, None).unwrap();
    let before = battles.view(&referee, id).unwrap();
    battles.delete(id).unwrap();
    assert!(names(&mut battles).is_empty());
    assert_eq!(
        battles.view(&referee, id).unwrap_err().code,
        "battle.unknown",
        "a deleted battle does not open"
    );
    assert_eq!(battles.delete(id).unwrap_err().code, "battle.unknown");
    let deleted = battles.deleted().unwrap();
    assert_eq!(deleted.len(), 1);
    assert_eq!(deleted[0].battle.name, "Cannae");
    let at = chrono::DateTime::parse_from_rfc3339(&deleted[0].deleted_at).unwrap();
    let until = chrono::DateTime::parse_from_rfc3339(&deleted[0].kept_until).unwrap();
    assert_eq!((until - at).num_days(), referee_api::KEEP_DELETED_DAYS);
    // Another process sees the same.
    let mut other = Battles::open(&path).unwrap();
    assert_eq!(other.deleted().unwrap().len(), 1);
    let back = other.restore(&referee, id).unwrap();
    assert_eq!(
        serde_json::to_value(&back.state).unwrap(),
        serde_json::to_value(&before.state).unwrap()
    );
    assert_eq!(names(&mut other), ["Cannae"]);
    assert!(other.deleted().unwrap().is_empty());
    assert_eq!(
        other.restore(&referee, id).unwrap_err().code,
        "battle.not_deleted"
    );
}

#[test]
fn a_restored_backup_brings_back_the_battles_and_keeps_what_it_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("referee.db");
    let referee = Referee::builtin();
    let mut battles = Battles::open(&path).unwrap();
    begin(&mut battles, &referee, "Zama");
    battles.backup().unwrap();
    let taken = battles.backups();
    let on_demand = taken
        .backups
        .iter()
        .find(|b| b.reason == BackupReason::OnDemand)
        .unwrap()
        .clone();
    assert_eq!(on_demand.battles, Some(1));
    begin(&mut battles, &referee, "Ilipa");
    assert_eq!(names(&mut battles), ["Ilipa", "Zama"]);

    // Names that are not listed backups are refused, whatever path they spell.
    for bad in ["../referee.db", "/etc/passwd", "referee.db", ""] {
        assert_eq!(
            battles.restore_backup(bad).unwrap_err().code,
            "backup.unknown",
            "{bad}"
        );
    }
    assert_eq!(names(&mut battles), ["Ilipa", "Zama"], "nothing changed");

    let after = battles.restore_backup(&on_demand.id).unwrap();
    assert_eq!(names(&mut battles), ["Zama"]);
    let kept = after
        .backups
        .iter()
        .find(|b| b.reason == BackupReason::BeforeRestore)
        .expect("the replaced database is kept as a backup");
    assert_eq!(kept.battles, Some(2));
    // A fresh process reads the restored file, and can go on writing to it.
    let mut fresh = Battles::open(&path).unwrap();
    assert_eq!(names(&mut fresh), ["Zama"]);
    begin(&mut fresh, &referee, "Metaurus");
    // Restoring what it replaced undoes the restore.
    let kept = kept.id.clone();
    fresh.restore_backup(&kept).unwrap();
    assert_eq!(names(&mut fresh), ["Ilipa", "Zama"]);
}

#[test]
fn a_damaged_backup_is_refused_and_nothing_changes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("referee.db");
    let referee = Referee::builtin();
    let mut battles = Battles::open(&path).unwrap();
    begin(&mut battles, &referee, "Pydna");
    let file = battles.backup().unwrap();
    std::fs::write(&file, b"SQLite format 3\0 but then nothing useful").unwrap();
    let id = file.file_name().unwrap().to_str().unwrap().to_string();
    let e = battles.restore_backup(&id).unwrap_err();
    assert_eq!(e.code, "backup.unusable", "{e:?}");
    assert!(!e.message.contains('`'));
    assert_eq!(names(&mut battles), ["Pydna"]);
    let listed = battles.backups();
    let shown = listed.backups.iter().find(|b| b.id == id).unwrap();
    assert_eq!(shown.battles, None, "a damaged backup shows no count");
}

#[test]
fn the_oldest_backup_kept_before_a_restore_can_itself_be_restored() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("referee.db");
    let referee = Referee::builtin();
    let mut battles = Battles::open(&path).unwrap();
    begin(&mut battles, &referee, "Raphia");
    let first = battles.backup().unwrap();
    let first = first.file_name().unwrap().to_str().unwrap().to_string();
    begin(&mut battles, &referee, "Magnesia");
    // Five restores keep five copies of what they replaced: as many as are kept.
    for _ in 0..5 {
        std::thread::sleep(std::time::Duration::from_millis(5));
        battles.restore_backup(&first).unwrap();
    }
    let kept: Vec<_> = battles
        .backups()
        .backups
        .into_iter()
        .filter(|b| b.reason == BackupReason::BeforeRestore)
        .collect();
    assert_eq!(kept.len(), 5);
    let oldest = kept.last().unwrap();
    assert_eq!(
        oldest.battles,
        Some(2),
        "the copy taken before the first restore"
    );
    battles.restore_backup(&oldest.id).unwrap();
    assert_eq!(names(&mut battles), ["Magnesia", "Raphia"]);
    let mut fresh = Battles::open(&path).unwrap();
    assert_eq!(names(&mut fresh), ["Magnesia", "Raphia"]);
    // Backups are single files: reading them leaves nothing beside them.
    let strays: Vec<_> = std::fs::read_dir(dir.path().join("backups"))
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| !n.ends_with(".db"))
        .collect();
    assert!(strays.is_empty(), "{strays:?}");
}

#[test]
fn a_damaged_database_is_restored_from_its_backups_without_opening_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("referee.db");
    let referee = Referee::builtin();
    {
        let mut battles = Battles::open(&path).unwrap();
        begin(&mut battles, &referee, "Hydaspes");
        battles.backup().unwrap();
    }
    for side in ["-wal", "-shm"] {
        let _ = std::fs::remove_file(dir.path().join(format!("referee.db{side}")));
    }
    std::fs::write(&path, vec![0x5a; 8192]).unwrap();
    let e = Battles::open(&path).err().expect("damaged");
    assert_eq!(e.code, "store.corrupt");
    assert!(
        !e.message.contains(dir.path().to_str().unwrap()),
        "no path in the message: {}",
        e.message
    );
    assert!(e.message.contains("Settings"), "{}", e.message);
    let listed = referee_api::backups_at(&path);
    assert_eq!(listed.backups.len(), 1);
    assert_eq!(listed.backups[0].battles, Some(1));
    assert_eq!(
        referee_api::restore_over_damaged(&path, "../referee.db")
            .err()
            .unwrap()
            .code,
        "backup.unknown"
    );
    let mut battles = referee_api::restore_over_damaged(&path, &listed.backups[0].id).unwrap();
    assert_eq!(names(&mut battles), ["Hydaspes"]);
    let after = battles.backups();
    let damaged = after
        .backups
        .iter()
        .find(|b| b.reason == BackupReason::BeforeRestore)
        .expect("the damaged file is kept");
    assert_eq!(damaged.battles, None, "kept as it was, unreadable");
}
