//! The referee's memory: battles (as their event lists), event details and rosters in one SQLite
//! file. WAL with `synchronous=FULL`; every write is one transaction; schema migrations run one
//! transaction each after an automatic backup; a database from a newer app, or a damaged one, is
//! refused and left untouched.

mod backups;
mod battles;
mod error;
mod file;
mod rosters;
mod schema;

use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};

use referee_core::RefereeError;

pub use backups::{
    backups_dir, backups_of, daily_due, latest_backup, restore_over_damaged, BackupInfo,
    BackupReason, Backups,
};
pub use battles::{raw, BattleRow, DeletedBattle};
pub use error::store_error;
pub use file::{version_for, BattleFile, FileEvent, FORMAT, FORMAT_VERSION};
pub use rosters::{Roster, RosterRow};
pub use schema::{schema_at, SCHEMA_VERSION};

pub struct Store {
    conn: Connection,
    path: PathBuf,
    /// The local day whose backup is known to be taken (checked once a day, not per write).
    backed_up_on: Option<chrono::NaiveDate>,
    /// Why the last automatic backup failed, for Settings to say.
    backup_problem: Option<RefereeError>,
}

/// How long a deleted battle can still be restored.
pub const KEEP_DELETED_DAYS: i64 = 30;

/// The time now, as the events record it.
pub fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

const SQLITE_HEADER: &[u8] = b"SQLite format 3\0";

impl Store {
    /// Opens (or creates) the database file, migrating an older schema after backing it up.
    pub fn open(path: &Path) -> Result<Store, RefereeError> {
        let exists = path.exists()
            && std::fs::metadata(path)
                .map(|m| m.len() > 0)
                .unwrap_or(false);
        if exists {
            let mut header = [0u8; 16];
            let read = std::fs::File::open(path)
                .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut header));
            if read.is_err() || header != SQLITE_HEADER {
                return Err(error::corrupt(path));
            }
        } else if let Some(dir) = path.parent() {
            if !dir.as_os_str().is_empty() {
                std::fs::create_dir_all(dir).map_err(|e| {
                    RefereeError::new(
                        "store.unwritable",
                        format!("cannot create the data folder {}: {e}", dir.display()),
                    )
                })?;
            }
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags).map_err(|e| store_error(e, path))?;
        let mut store = Store {
            conn,
            path: path.to_path_buf(),
            backed_up_on: None,
            backup_problem: None,
        };
        schema::prepare(&mut store)?;
        Ok(store)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Copies the whole database, consistently, with SQLite's backup API.
    pub fn backup_to(&self, dest: &Path) -> Result<(), RefereeError> {
        if let Some(dir) = dest.parent() {
            std::fs::create_dir_all(dir).map_err(|e| {
                RefereeError::new(
                    "store.unwritable",
                    format!("cannot create {}: {e}", dir.display()),
                )
            })?;
        }
        let mut target = Connection::open(dest).map_err(|e| store_error(e, dest))?;
        let backup = rusqlite::backup::Backup::new(&self.conn, &mut target)
            .map_err(|e| store_error(e, dest))?;
        backup
            .run_to_completion(256, std::time::Duration::from_millis(0), None)
            .map_err(|e| store_error(e, dest))?;
        drop(backup);
        // The copy carries the WAL mode; as a rollback-journal file it stays one file, and
        // reading it later leaves no -wal or -shm beside it.
        target
            .query_row("PRAGMA journal_mode=DELETE", [], |r| r.get::<_, String>(0))
            .map_err(|e| store_error(e, dest))?;
        Ok(())
    }

    /// `PRAGMA integrity_check`: "ok", or what is wrong.
    pub fn integrity_check(&self) -> Result<String, RefereeError> {
        self.conn
            .query_row("PRAGMA integrity_check", [], |r| r.get::<_, String>(0))
            .map_err(|e| store_error(e, &self.path))
    }

    pub(crate) fn conn(&mut self) -> &mut Connection {
        &mut self.conn
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use referee_core::battle::{BattleSetup, Event, EventBody, SideSetup};

    fn created(name: &str) -> Event {
        Event {
            seq: 1,
            at: now(),
            body: EventBody::Created {
                setup: BattleSetup {
                    name: name.into(),
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

    #[test]
    fn battles_deleted_more_than_30_days_ago_go_on_the_next_days_first_change() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("referee.db")).unwrap();
        let old = store.insert_battle(&[(created("Old"), None)]).unwrap();
        let recent = store.insert_battle(&[(created("Recent"), None)]).unwrap();
        store.delete_battle(old).unwrap();
        store.delete_battle(recent).unwrap();
        let long_ago = (chrono::Utc::now() - chrono::Duration::days(KEEP_DELETED_DAYS + 1))
            .to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
        store
            .conn
            .execute(
                "UPDATE battles SET deleted_at = ?1 WHERE id = ?2",
                rusqlite::params![long_ago, old],
            )
            .unwrap();
        store.before_write(); // already checked today: nothing is let go yet
        let rows: i64 = store
            .conn
            .query_row("SELECT count(*) FROM battles", [], |r| r.get(0))
            .unwrap();
        assert_eq!(rows, 2);
        // … but a battle past its 30 days is neither listed nor restorable meanwhile.
        let listed: Vec<_> = store
            .deleted_battles()
            .unwrap()
            .into_iter()
            .map(|d| d.battle.name)
            .collect();
        assert_eq!(listed, ["Recent"]);
        assert_eq!(
            store.restore_battle(old).unwrap_err().code,
            "battle.not_deleted"
        );
        store.backed_up_on = None; // the next day
        store.before_write();
        let left: Vec<_> = store
            .deleted_battles()
            .unwrap()
            .into_iter()
            .map(|d| d.battle.name)
            .collect();
        assert_eq!(left, ["Recent"]);
        let events: i64 = store
            .conn
            .query_row(
                "SELECT count(*) FROM events WHERE battle_id = ?1",
                [old],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(events, 0, "its events go with it");
    }

    #[test]
    fn a_full_disk_leaves_the_battle_unchanged_with_a_clear_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("referee.db");
        let mut store = Store::open(&path).unwrap();
        let id = store.insert_battle(&[(created("Full"), None)]).unwrap();
        // The disk is "full": the file may not grow by a page.
        let pages: i64 = store
            .conn
            .query_row("PRAGMA page_count", [], |r| r.get(0))
            .unwrap();
        store
            .conn
            .query_row(&format!("PRAGMA max_page_count = {pages}"), [], |r| {
                r.get::<_, i64>(0)
            })
            .unwrap();
        let big = serde_json::json!({"situation": "x".repeat(200_000)});
        let event = Event {
            seq: 2,
            at: now(),
            body: EventBody::TurnAdvanced {
                turn: 2,
                phase: None,
            },
        };
        let e = store.append(id, &event, Some(&big)).unwrap_err();
        assert_eq!(e.code, "store.disk_full", "{e:?}");
        assert!(e.message.contains("unchanged"));
        assert_eq!(store.events(id).unwrap().len(), 1);
        assert_eq!(store.integrity_check().unwrap(), "ok");
    }
}
