//! The referee's memory: battles (as their event lists), event details and rosters in one SQLite
//! file. WAL with `synchronous=FULL`; every write is one `BEGIN IMMEDIATE` transaction (so a
//! second writer waits up to the busy timeout instead of being refused); each event carries a
//! hash chained to the one before; schema migrations run one transaction each after an automatic
//! backup; a database from a newer app, another application's or a damaged one is refused and
//! left untouched.

mod backups;
mod battles;
mod chain;
mod error;
mod file;
mod rosters;
mod schema;
mod tournaments;

use std::path::{Path, PathBuf};

use rusqlite::config::DbConfig;
use rusqlite::{Connection, OpenFlags, Savepoint, Transaction, TransactionBehavior};
use serde::Serialize;

use referee_core::battle::Event;

pub use backups::{
    backups_dir, backups_of, daily_due, latest_backup, leftovers, restore_over_damaged, BackupInfo,
    BackupReason,
};
pub use battles::{raw, BattleRow, DeletedBattle};
pub use chain::{event_hash, event_hash_text, CHAIN_START};
pub use error::{store_error, BackupHint, StoreError};
pub use file::{version_for, BattleFile, FileEvent, FileHead, FORMAT, FORMAT_VERSION};
pub use rosters::{Roster, RosterRow};
pub use schema::{schema_at, APPLICATION_ID, SCHEMA_VERSION};
pub use tournaments::TournamentRow;

pub struct Store {
    conn: Connection,
    path: PathBuf,
    /// The local day whose backup is known to be taken (checked once a day, not per write).
    backed_up_on: Option<chrono::NaiveDate>,
    /// Why the last automatic backup failed, for Settings to say.
    backup_problem: Option<StoreError>,
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
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        if path.is_dir() {
            return Err(StoreError::IsFolder {
                path: path.to_path_buf(),
            });
        }
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
            schema::identify(path)?;
        } else if let Some(dir) = path.parent() {
            if !dir.as_os_str().is_empty() {
                std::fs::create_dir_all(dir).map_err(|e| StoreError::DataFolder {
                    dir: dir.to_path_buf(),
                    io: e.to_string(),
                })?;
            }
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags).map_err(|e| store_error(e, path))?;
        // Until the file is known as the referee's and fit to open, closing the connection must
        // not checkpoint its write-ahead log into it (nor remove the log): a refused file is left
        // as it was, log and all.
        conn.set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)
            .map_err(|e| store_error(e, path))?;
        let mut store = Store {
            conn,
            path: path.to_path_buf(),
            backed_up_on: None,
            backup_problem: None,
        };
        schema::prepare(&mut store)?;
        store
            .conn
            .set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, false)
            .map_err(|e| store_error(e, path))?;
        store.clear_leftovers();
        Ok(store)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Copies the whole database, consistently, with SQLite's backup API.
    pub fn backup_to(&self, dest: &Path) -> Result<(), StoreError> {
        if let Some(dir) = dest.parent() {
            std::fs::create_dir_all(dir).map_err(|e| StoreError::Folder {
                dir: dir.to_path_buf(),
                io: e.to_string(),
            })?;
        }
        // Into a temporary file first, renamed once whole: a backup that exists is complete.
        let mut partial = dest.as_os_str().to_owned();
        partial.push(".partial");
        let partial = PathBuf::from(partial);
        let _ = std::fs::remove_file(&partial);
        let copied = (|| {
            let mut target = Connection::open(&partial)?;
            // Read through a connection of its own: this one may hold the write lock, and
            // SQLite copies from no connection in a write transaction. Holding it here, the
            // copy is of the last commit and no other process commits meanwhile.
            let mut source = Connection::open_with_flags(
                &self.path,
                OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
            )?;
            source.busy_handler(Some(wait_for_lock))?;
            copy_whole(&source, &mut target)?;
            drop(source);
            // The copy carries the WAL mode; as a rollback-journal file it stays one file, and
            // reading it later leaves no -wal or -shm beside it.
            target.query_row("PRAGMA journal_mode=DELETE", [], |r| r.get::<_, String>(0))?;
            target.close().map_err(|(_, e)| e)
        })();
        if let Err(e) = copied {
            let _ = std::fs::remove_file(&partial);
            return Err(store_error(e, dest));
        }
        std::fs::rename(&partial, dest).map_err(|e| {
            let _ = std::fs::remove_file(&partial);
            StoreError::BackupNotWritten {
                dest: dest.to_path_buf(),
                io: e.to_string(),
            }
        })?;
        Ok(())
    }

    /// Runs `read` in one read transaction (one snapshot of the database), unless the caller
    /// holds a transaction already.
    pub(crate) fn reading<T>(
        &mut self,
        read: impl FnOnce(&mut Store) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        if !self.conn.is_autocommit() {
            return read(self);
        }
        self.conn
            .execute_batch("BEGIN")
            .map_err(|e| store_error(e, &self.path))?;
        let answer = read(self);
        if !self.conn.is_autocommit() {
            let _ = self.conn.execute_batch("COMMIT");
        }
        answer
    }

    /// Takes the write lock for a step that must not interleave with another process's writes
    /// (a backup and what it decides, a restore), unless this connection holds it already.
    /// Answers whether it was taken here, to be given back with `unlock`.
    pub(crate) fn lock(&self) -> Result<bool, StoreError> {
        if !self.conn.is_autocommit() {
            return Ok(false);
        }
        self.conn
            .execute_batch("BEGIN IMMEDIATE")
            .map_err(|e| store_error(e, &self.path))?;
        Ok(true)
    }

    /// Gives back the write lock `lock` took (nothing was written under it but what `commit`
    /// keeps).
    pub(crate) fn unlock(&self, taken: bool, commit: bool) {
        if taken && !self.conn.is_autocommit() {
            let _ = self
                .conn
                .execute_batch(if commit { "COMMIT" } else { "ROLLBACK" });
        }
    }

    /// `PRAGMA integrity_check`: "ok", or every problem it found, one per line.
    pub fn integrity_check(&self) -> Result<String, StoreError> {
        let mut stmt = self
            .conn
            .prepare("PRAGMA integrity_check")
            .map_err(|e| store_error(e, &self.path))?;
        let rows = stmt
            .query_map([], |r| r.get::<_, String>(0))
            .map_err(|e| store_error(e, &self.path))?;
        let lines = rows
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| store_error(e, &self.path))?;
        Ok(lines.join("\n"))
    }

    /// The whole database checked: SQLite's integrity and foreign keys, every battle (the
    /// deleted ones too) read whole — each event's hash in the chain, the chain's head, the
    /// battle's own row — and handed to `replay`, which folds it by the rules (or says, in
    /// words, why it cannot); every roster against its hash. Damage is listed in words, not
    /// stopped at.
    pub fn check(
        &mut self,
        replay: impl FnMut(&[Event]) -> Result<(), String>,
    ) -> Result<Check, StoreError> {
        // One snapshot for the whole check: a write committed meanwhile is not half seen.
        self.reading(|store| store.check_whole(replay))
    }

    fn check_whole(
        &mut self,
        mut replay: impl FnMut(&[Event]) -> Result<(), String>,
    ) -> Result<Check, StoreError> {
        let integrity = self.integrity_check()?;
        let mut check = Check {
            integrity: integrity.clone(),
            battles: 0,
            events: 0,
            tournaments: 0,
            damage: Vec::new(),
        };
        if integrity != "ok" {
            let problems = integrity.lines().count();
            check.damage.push(format!(
                "SQLite's integrity check found {problems} damaged {} in the file's pages",
                if problems == 1 { "place" } else { "places" }
            ));
        }
        let unreadable = "could not be read: the file is damaged there";
        let orphans: Result<i64, _> = self.conn.query_row(
            "SELECT (SELECT count(*) FROM events WHERE battle_id NOT IN (SELECT id FROM battles))
                  + (SELECT count(*) FROM event_details d WHERE NOT EXISTS
                      (SELECT 1 FROM events e WHERE e.battle_id = d.battle_id AND e.seq = d.seq))",
            [],
            |r| r.get(0),
        );
        match orphans {
            Ok(0) => {}
            Ok(n) => check
                .damage
                .push(format!("{n} events or details belong to no battle")),
            Err(_) => check
                .damage
                .push(format!("the list of events {unreadable}")),
        }
        let ids = |conn: &Connection, sql: &str| -> rusqlite::Result<Vec<(i64, String)>> {
            let mut stmt = conn.prepare(sql)?;
            let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
            rows.collect()
        };
        let battles = ids(&self.conn, "SELECT id, name FROM battles ORDER BY id");
        let battles = battles.unwrap_or_else(|_| {
            check
                .damage
                .push(format!("the list of battles {unreadable}"));
            Vec::new()
        });
        for (id, name) in battles {
            check.battles += 1;
            let name = referee_core::error::printable(&name);
            match self.checked_events(id, true) {
                Ok(Ok(events)) => {
                    check.events = check
                        .events
                        .saturating_add(u64::try_from(events.len()).unwrap_or(u64::MAX));
                    if let Err(e) = replay(&events) {
                        check.damage.push(format!(
                            "battle #{id} “{name}” cannot be replayed by the rules: {e}"
                        ));
                    }
                }
                Ok(Err((seq, what))) => check
                    .damage
                    .push(format!("battle #{id} “{name}”, event {seq}: it {what}")),
                Err(StoreError::BattleUnknown { .. }) => check
                    .damage
                    .push(format!("battle #{id} “{name}” has no events")),
                Err(_) => check
                    .damage
                    .push(format!("battle #{id} “{name}” {unreadable}")),
            }
        }
        let rosters = ids(&self.conn, "SELECT id, name FROM rosters ORDER BY id");
        let rosters = rosters.unwrap_or_else(|_| {
            check
                .damage
                .push(format!("the list of rosters {unreadable}"));
            Vec::new()
        });
        for (id, name) in rosters {
            let name = referee_core::error::printable(&name);
            match rosters::stored(&self.conn, id) {
                Ok(Some(r)) => {
                    if let Err(what) = r.units() {
                        check.damage.push(format!("roster #{id} “{name}” {what}"));
                    }
                }
                Ok(None) => {}
                Err(_) => check
                    .damage
                    .push(format!("roster #{id} “{name}” {unreadable}")),
            }
        }
        Ok(check)
    }

    /// Runs `write` in one `BEGIN IMMEDIATE` transaction (or inside the caller's, see
    /// `begin_write`): it waits for another writer (up to the busy timeout) before reading
    /// anything, and commits only if `write` succeeds.
    pub(crate) fn write<T>(
        &mut self,
        write: impl FnOnce(&Connection) -> rusqlite::Result<T>,
    ) -> rusqlite::Result<T> {
        let tx = self.write_tx()?;
        let out = write(&tx)?;
        tx.commit()?;
        Ok(out)
    }

    /// A write's transaction: `BEGIN IMMEDIATE`, or a savepoint inside the write the caller holds.
    pub(crate) fn write_tx(&mut self) -> rusqlite::Result<WriteTx<'_>> {
        if self.conn.is_autocommit() {
            Ok(WriteTx::Own(self.conn.transaction_with_behavior(
                TransactionBehavior::Immediate,
            )?))
        } else {
            Ok(WriteTx::Nested(self.conn.savepoint()?))
        }
    }

    /// Takes the write lock (`BEGIN IMMEDIATE`) for a read, work out, write sequence: no other
    /// process can write until `end_write`, so what is worked out from the battle read inside
    /// cannot be overtaken. The writes made meanwhile join this transaction.
    pub fn begin_write(&mut self) -> Result<(), StoreError> {
        // The day's backup and purge first, outside the transaction they would otherwise join.
        self.before_write();
        self.conn
            .execute_batch("BEGIN IMMEDIATE")
            .map_err(|e| store_error(e, &self.path))
    }

    /// Ends the write `begin_write` began: commits it, or rolls it back.
    pub fn end_write(&mut self, commit: bool) -> Result<(), StoreError> {
        if self.conn.is_autocommit() {
            return Ok(());
        }
        let sql = if commit { "COMMIT" } else { "ROLLBACK" };
        let done = self.conn.execute_batch(sql);
        if done.is_err() && !self.conn.is_autocommit() {
            let _ = self.conn.execute_batch("ROLLBACK");
        }
        done.map_err(|e| store_error(e, &self.path))
    }

    pub(crate) fn conn(&mut self) -> &mut Connection {
        &mut self.conn
    }
}

/// How long a write (or a backup) waits for another process's write lock: up to the busy timeout
/// of about 5 s, asking again every millisecond. SQLite's own handler waits longer and longer
/// between asks (up to 100 ms), so a process whose writes follow each other closely can take the
/// lock again every time and starve a waiting backup for seconds.
pub(crate) fn wait_for_lock(attempts: i32) -> bool {
    const BUSY_TIMEOUT_MS: i32 = 5_000;
    if attempts >= BUSY_TIMEOUT_MS {
        return false;
    }
    std::thread::sleep(std::time::Duration::from_millis(1));
    true
}

/// The whole database copied into `target` in one step of SQLite's backup API: one read of a
/// consistent snapshot, which a writer in another process can neither restart nor starve (a copy
/// in small steps starts again after every foreign commit).
pub(crate) fn copy_whole(from: &Connection, target: &mut Connection) -> rusqlite::Result<()> {
    let backup = rusqlite::backup::Backup::new(from, target)?;
    // Busy or locked: another connection holds what the copy needs; wait a moment, as long as
    // the busy timeout.
    for _ in 0..1000 {
        match backup.step(-1)? {
            rusqlite::backup::StepResult::Done => return Ok(()),
            _ => std::thread::sleep(std::time::Duration::from_millis(5)),
        }
    }
    Err(rusqlite::Error::SqliteFailure(
        rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_BUSY),
        None,
    ))
}

/// A write's own transaction, or a savepoint of the caller's.
pub(crate) enum WriteTx<'c> {
    Own(Transaction<'c>),
    Nested(Savepoint<'c>),
}

impl std::ops::Deref for WriteTx<'_> {
    type Target = Connection;
    fn deref(&self) -> &Connection {
        match self {
            WriteTx::Own(tx) => tx,
            WriteTx::Nested(sp) => sp,
        }
    }
}

impl WriteTx<'_> {
    pub(crate) fn commit(self) -> rusqlite::Result<()> {
        match self {
            WriteTx::Own(tx) => tx.commit(),
            WriteTx::Nested(sp) => sp.commit(),
        }
    }
}

/// What `referee db check` found.
#[derive(Clone, Debug, Serialize)]
pub struct Check {
    /// `PRAGMA integrity_check`'s answer ("ok").
    pub integrity: String,
    pub battles: u64,
    /// Events read and verified, in all battles.
    pub events: u64,
    /// Convention events read and folded (by the API, which knows how to fold them).
    pub tournaments: u64,
    /// Each problem, naming its battle and event; empty when the database is sound.
    pub damage: Vec<String>,
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
            store.restore_battle(old).unwrap_err().code(),
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
        assert_eq!(e.code(), "store.disk_full", "{e:?}");
        assert!(e.to_string().contains("unchanged"));
        assert_eq!(store.events(id).unwrap().len(), 1);
        assert_eq!(store.integrity_check().unwrap(), "ok");
    }
}
