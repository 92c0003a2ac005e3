//! Backups a user never has to think of: one on the first write of each day, one before every
//! migration and before a restore, each a consistent copy made in one step of SQLite's backup API
//! into `backups/` beside the database, under the write lock; the last few of each kind are kept.
//! Backups are ordered by a sequence number in their names, never by the clock: a backup named
//! with a later time (a clock set wrong) cannot outrank a new one and have it pruned at once.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Local, NaiveDate, Utc};
use rusqlite::{Connection, OpenFlags};
use serde::Serialize;
use ts_rs::TS;

use super::error::{store_error, StoreError};
use super::{schema, Store};

/// Why a backup was taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum BackupReason {
    /// The first change of a day.
    Daily,
    /// Before the database was brought up to a newer schema.
    BeforeSchema,
    /// Before another backup was restored over it.
    BeforeRestore,
    /// Asked for by the user.
    OnDemand,
}

impl BackupReason {
    fn tag(self) -> &'static str {
        match self {
            BackupReason::Daily => "daily",
            BackupReason::BeforeSchema => "before-schema",
            BackupReason::BeforeRestore => "before-restore",
            BackupReason::OnDemand => "on-demand",
        }
    }

    fn from_tag(tag: &str) -> Option<BackupReason> {
        [
            BackupReason::Daily,
            BackupReason::BeforeSchema,
            BackupReason::BeforeRestore,
            BackupReason::OnDemand,
        ]
        .into_iter()
        .find(|r| tag == r.tag() || tag.starts_with(&format!("{}-", r.tag())))
    }

    /// How many backups of this kind are kept (the oldest beyond go).
    fn kept(self) -> usize {
        match self {
            BackupReason::Daily => 7,
            BackupReason::BeforeSchema | BackupReason::BeforeRestore => 5,
            BackupReason::OnDemand => 10,
        }
    }
}

/// A backup of the battles database, as Settings lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct BackupInfo {
    /// What a restore names it by (never shown: the window shows its time and reason).
    pub id: String,
    /// When it was taken (RFC 3339, UTC).
    pub taken_at: String,
    pub reason: BackupReason,
    /// How many battles it holds, when it can be read.
    pub battles: Option<i64>,
    pub bytes: u64,
}

const STAMP: &str = "%Y%m%dT%H%M%S%3fZ";

/// A backup's name: `referee-<sequence>-<stamp>-<reason>.db`, the sequence one above the highest
/// in the folder.
fn file_name(
    sequence: u64,
    at: DateTime<Utc>,
    reason: BackupReason,
    detail: Option<&str>,
) -> String {
    let tag = match detail {
        Some(d) => format!("{}-{d}", reason.tag()),
        None => reason.tag().to_string(),
    };
    format!("referee-{sequence:06}-{}-{tag}.db", at.format(STAMP))
}

/// Where a backup stands among the others: its sequence (0 for names from before sequences),
/// then its time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Order {
    sequence: u64,
    at: DateTime<Utc>,
}

/// A backup's order, time and reason from its file name: `referee-<sequence>-<stamp>-<reason>.db`,
/// or `referee-<stamp>-<reason>.db` as written before sequences.
fn parse_name(name: &str) -> Option<(Order, BackupReason)> {
    let rest = name.strip_prefix("referee-")?.strip_suffix(".db")?;
    let (first, rest) = rest.split_once('-')?;
    let (sequence, stamp, tag) = match first.parse::<u64>() {
        Ok(sequence) if first.bytes().all(|b| b.is_ascii_digit()) => {
            let (stamp, tag) = rest.split_once('-')?;
            (sequence, stamp, tag)
        }
        _ => (0, first, rest),
    };
    let at = chrono::NaiveDateTime::parse_from_str(stamp, STAMP).ok()?;
    Some((
        Order {
            sequence,
            at: at.and_utc(),
        },
        BackupReason::from_tag(tag)?,
    ))
}

/// The name of the next backup: its sequence follows every backup in the folder.
fn next_name(db: &Path, reason: BackupReason, detail: Option<&str>) -> PathBuf {
    let sequence = listed(db)
        .first()
        .map_or(0, |(_, order, _)| order.sequence)
        .saturating_add(1);
    backups_dir(db).join(file_name(sequence, Utc::now(), reason, detail))
}

/// The temporary files a backup or a restore is made in: they end in `.partial` (in the backups
/// folder) or are the database's name with `.restoring` (beside it).
fn is_leftover(name: &str, db_name: &str) -> bool {
    let base = name
        .strip_suffix("-journal")
        .or_else(|| name.strip_suffix("-wal"))
        .or_else(|| name.strip_suffix("-shm"))
        .unwrap_or(name);
    base.ends_with(".partial") || base == format!("{db_name}.restoring")
}

/// The temporary files left by a backup or a restore that was killed: in the backups folder and
/// beside the database.
pub fn leftovers(db: &Path) -> Vec<PathBuf> {
    let db_name = db
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let beside = db
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    [backups_dir(db), beside]
        .iter()
        .filter_map(|dir| std::fs::read_dir(dir).ok())
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| is_leftover(n, &db_name))
        })
        .collect()
}

/// The backups folder of a database: `backups/` beside it.
pub fn backups_dir(db: &Path) -> PathBuf {
    db.parent()
        .map_or_else(|| PathBuf::from("backups"), |d| d.join("backups"))
}

fn listed(db: &Path) -> Vec<(PathBuf, Order, BackupReason)> {
    let Ok(entries) = std::fs::read_dir(backups_dir(db)) else {
        return Vec::new();
    };
    let mut found: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter_map(|p| {
            let (at, reason) = parse_name(p.file_name()?.to_str()?)?;
            Some((p, at, reason))
        })
        .collect();
    found.sort_by_key(|b| std::cmp::Reverse(b.1));
    found
}

/// The newest backup of a database, to offer when it is damaged.
pub fn latest_backup(db: &Path) -> Option<PathBuf> {
    listed(db).into_iter().next().map(|(p, _, _)| p)
}

/// Whether a daily backup is due: none of the backups listed was taken on `today` (local).
pub fn daily_due(today: NaiveDate, taken: &[DateTime<Utc>]) -> bool {
    !taken
        .iter()
        .any(|at| at.with_timezone(&Local).date_naive() == today)
}

fn unusable(why: &'static str) -> StoreError {
    StoreError::BackupUnusable { why }
}

fn open_read_only(path: &Path) -> Result<Connection, StoreError> {
    // A file that is not there must not be created by opening it.
    Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|_| unusable("it cannot be read"))
}

/// How many battles (not deleted) a backup holds, if it is a referee database this app knows.
fn count_battles(conn: &Connection) -> Result<i64, StoreError> {
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(|_| unusable("it is not a battles database"))?;
    if !(1..=schema::SCHEMA_VERSION).contains(&version) {
        return Err(unusable("it is not a battles database this app knows"));
    }
    let deleted_known = version >= 3;
    let sql = if deleted_known {
        "SELECT count(*) FROM battles WHERE deleted_at IS NULL"
    } else {
        "SELECT count(*) FROM battles"
    };
    conn.query_row(sql, [], |r| r.get(0))
        .map_err(|_| unusable("it is not a battles database"))
}

/// A backup checked whole before it is restored: readable, a referee database this app knows,
/// not damaged. Answers how many battles it holds.
fn check_backup(path: &Path) -> Result<i64, StoreError> {
    let conn = open_read_only(path)?;
    let check: String = conn
        .query_row("PRAGMA quick_check", [], |r| r.get(0))
        .map_err(|_| unusable("it is damaged"))?;
    if check != "ok" {
        return Err(unusable("it is damaged"));
    }
    count_battles(&conn)
}

/// The backups of a database, newest first, read from its folder alone (so they can be listed
/// even when the database itself is damaged). Only each file's header is read.
pub fn backups_of(db: &Path) -> Vec<BackupInfo> {
    listed(db)
        .into_iter()
        .filter_map(|(path, at, reason)| {
            Some(BackupInfo {
                id: path.file_name()?.to_str()?.to_string(),
                taken_at: at.at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
                reason,
                battles: open_read_only(&path).and_then(|c| count_battles(&c)).ok(),
                bytes: std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0),
            })
        })
        .collect()
}

/// The listed backup named `id`: a name from the list, never a path.
fn find(db: &Path, id: &str) -> Result<PathBuf, StoreError> {
    listed(db)
        .into_iter()
        .map(|(p, _, _)| p)
        .find(|p| p.file_name().and_then(|n| n.to_str()) == Some(id))
        .ok_or(StoreError::BackupUnknown)
}

/// Puts a backup in the place of a database that cannot be opened (damaged): the damaged file is
/// kept among the backups, the checked backup is copied over it whole (temporary file, then
/// rename). The caller opens the database again.
pub fn restore_over_damaged(db: &Path, id: &str) -> Result<(), StoreError> {
    let source = find(db, id)?;
    check_backup(&source)?;
    let failed = |e: std::io::Error| StoreError::BackupNotPutInPlace { io: e.to_string() };
    let kept = next_name(db, BackupReason::BeforeRestore, None);
    let side = |path: &Path, suffix: &str| {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        PathBuf::from(name)
    };
    if db.exists() {
        // Copied whole into a temporary file, then renamed: a copy cut short is never listed.
        let partial = side(&kept, ".partial");
        std::fs::copy(db, &partial)
            .and_then(|_| std::fs::File::open(&partial)?.sync_all())
            .and_then(|()| std::fs::rename(&partial, &kept))
            .map_err(|e| {
                let _ = std::fs::remove_file(&partial);
                failed(e)
            })?;
        // The damaged file's write-ahead log is part of it: kept beside its copy, as it was.
        if side(db, "-wal").exists() {
            std::fs::rename(side(db, "-wal"), side(&kept, "-wal")).map_err(failed)?;
        }
    }
    let temp = side(db, ".restoring");
    std::fs::copy(&source, &temp)
        .and_then(|_| std::fs::File::open(&temp)?.sync_all())
        .map_err(|e| {
            let _ = std::fs::remove_file(&temp);
            failed(e)
        })?;
    let _ = std::fs::remove_file(side(db, "-shm"));
    std::fs::rename(&temp, db).map_err(|e| {
        let _ = std::fs::remove_file(&temp);
        failed(e)
    })?;
    if let Some(dir) = db.parent().and_then(|d| std::fs::File::open(d).ok()) {
        let _ = dir.sync_all();
    }
    Ok(())
}

impl Store {
    /// A backup beside the database, in `backups/`, named after its sequence, time and reason.
    /// Taken under the write lock: no other process writes meanwhile, and the next sequence
    /// number is this one's alone.
    pub fn backup_for(
        &self,
        reason: BackupReason,
        detail: Option<&str>,
    ) -> Result<PathBuf, StoreError> {
        let taken = self.lock()?;
        let dest = next_name(&self.path, reason, detail);
        let done = self.backup_to(&dest);
        self.unlock(taken, false);
        done?;
        prune(&self.path, reason);
        Ok(dest)
    }

    /// Every backup, newest first, with how many battles each holds.
    pub fn backups(&self) -> Vec<BackupInfo> {
        backups_of(&self.path)
    }

    /// Why the last automatic backup failed, if it did (for Settings to say).
    pub fn backup_problem(&self) -> Option<&StoreError> {
        self.backup_problem.as_ref()
    }

    /// Before a write: the day's backup if none was taken today, then the battles deleted more
    /// than 30 days ago are let go. A backup that fails does not stop the write (the game goes
    /// on); Settings says why it failed.
    pub(crate) fn before_write(&mut self) {
        let today = Local::now().date_naive();
        if self.backed_up_on == Some(today) {
            return;
        }
        // Settled for the day once the backup is taken, not due, or failed; a database that held
        // nothing is looked at again at the next change (the first battle of a new user's day is
        // backed up at the change after it, not the next day).
        match self.daily_backup(today) {
            Ok(false) => {}
            done => {
                self.backed_up_on = Some(today);
                self.backup_problem = done.err();
            }
        }
        let _ = self.purge_deleted(Utc::now() - chrono::Duration::days(super::KEEP_DELETED_DAYS));
    }

    /// The day's backup, if none of the backups was taken today: decided and taken under the
    /// write lock, so writers starting together take one between them. False: due, but the
    /// database holds nothing to back up yet.
    fn daily_backup(&mut self, today: NaiveDate) -> Result<bool, StoreError> {
        let taken = self.lock()?;
        let listed_today: Vec<_> = listed(&self.path)
            .into_iter()
            .filter(|(_, _, r)| *r == BackupReason::Daily)
            .map(|(_, order, _)| order.at)
            .collect();
        let done = if !daily_due(today, &listed_today) {
            Ok(true)
        } else if self.holds_anything() {
            self.backup_for(BackupReason::Daily, None).map(|_| true)
        } else {
            Ok(false)
        };
        self.unlock(taken, false);
        done
    }

    fn holds_anything(&mut self) -> bool {
        self.conn()
            .query_row(
                "SELECT (SELECT count(*) FROM battles) + (SELECT count(*) FROM rosters)",
                [],
                |r| r.get::<_, i64>(0),
            )
            .map_or(true, |n| n > 0)
    }

    /// Removes the temporary files of backups and restores that were killed. Under the write
    /// lock: every backup and restore is made under it, so none is under way meanwhile.
    pub(crate) fn clear_leftovers(&self) {
        if leftovers(&self.path).is_empty() {
            return;
        }
        let Ok(taken) = self.lock() else {
            return; // busy: the next start clears them
        };
        for file in leftovers(&self.path) {
            let _ = std::fs::remove_file(file);
        }
        self.unlock(taken, false);
    }

    /// Puts a backup in the database's place, after backing up the database as it is now: both
    /// under one write lock, so no write of another process can land between the copy kept and
    /// the copy put in place (it waits, then lands on the restored battles). Answers the backup
    /// of what was replaced.
    pub fn restore_backup(&mut self, id: &str) -> Result<PathBuf, StoreError> {
        // Only a backup listed by name: a path cannot reach outside the backups folder.
        let source = find(&self.path, id)?;
        let battles = check_backup(&source)?;
        let path = self.path.clone();
        let mut copy = source.as_os_str().to_owned();
        copy.push(format!(".{}.partial", std::process::id()));
        let copy = PathBuf::from(copy);
        // Everything under the write lock, from the temporary copy to the commit: another
        // process neither writes between the copy kept and the copy put in place, nor takes the
        // temporary copy for a leftover of a killed restore.
        let taken = self.lock()?;
        let restored = prepare_copy(&source, &copy).and_then(|from| {
            let before = next_name(&self.path, BackupReason::BeforeRestore, None);
            self.backup_to(&before)?;
            self.copy_in(&from, battles)?;
            Ok(before)
        });
        self.unlock(taken, restored.is_ok());
        for side in ["", "-journal", "-wal", "-shm"] {
            let mut name = copy.as_os_str().to_owned();
            name.push(side);
            let _ = std::fs::remove_file(PathBuf::from(name));
        }
        let before = restored?;
        prune(&path, BackupReason::BeforeRestore);
        Ok(before)
    }

    /// The database's tables emptied and filled from `from` (a backup at this schema), inside
    /// the transaction the caller holds; checked to hold the backup's battles.
    fn copy_in(&self, from: &Connection, battles: i64) -> Result<(), StoreError> {
        let failed = |e| store_error(e, &self.path);
        self.conn
            .execute_batch(
                "DELETE FROM event_details; DELETE FROM events; DELETE FROM battles;
                 DELETE FROM rosters;",
            )
            .map_err(failed)?;
        for table in ["battles", "events", "event_details", "rosters"] {
            copy_rows(from, &self.conn, table).map_err(failed)?;
        }
        if count_battles(&self.conn)? != battles {
            return Err(unusable("it could not be copied whole"));
        }
        Ok(())
    }
}

/// Every row of `table` copied as it is (columns in the same order: both files are at this
/// schema).
fn copy_rows(from: &Connection, to: &Connection, table: &str) -> rusqlite::Result<()> {
    let mut read = from.prepare(&format!("SELECT * FROM {table}"))?;
    let columns = read.column_count();
    let slots: Vec<String> = (1..=columns).map(|i| format!("?{i}")).collect();
    let mut write = to.prepare(&format!(
        "INSERT INTO {table} VALUES ({})",
        slots.join(", ")
    ))?;
    let mut rows = read.query([])?;
    while let Some(row) = rows.next()? {
        let values = (0..columns)
            .map(|i| row.get::<_, rusqlite::types::Value>(i))
            .collect::<Result<Vec<_>, _>>()?;
        write.execute(rusqlite::params_from_iter(values))?;
    }
    Ok(())
}

/// A backup copied to `copy` and brought up to this schema there (the backup itself is never
/// written).
fn prepare_copy(source: &Path, copy: &Path) -> Result<Connection, StoreError> {
    let failed = |e| store_error(e, copy);
    let from = open_read_only(source)?;
    let mut to = Connection::open(copy).map_err(failed)?;
    super::copy_whole(&from, &mut to).map_err(failed)?;
    drop(from);
    to.query_row("PRAGMA journal_mode=DELETE", [], |r| r.get::<_, String>(0))
        .map_err(failed)?;
    to.execute_batch("PRAGMA foreign_keys=ON;")
        .map_err(failed)?;
    let version: i64 = to
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(failed)?;
    schema::migrate(&mut to, copy, version)?;
    Ok(to)
}

/// Lets the oldest backups of a kind go beyond the number kept.
fn prune(db: &Path, reason: BackupReason) {
    for (path, _, _) in listed(db)
        .into_iter()
        .filter(|(_, _, r)| *r == reason)
        .skip(reason.kept())
    {
        for side in ["", "-wal", "-shm", "-journal"] {
            let mut name = path.as_os_str().to_owned();
            name.push(side);
            let _ = std::fs::remove_file(PathBuf::from(name));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_carry_their_time_and_reason() {
        let at = DateTime::parse_from_rfc3339("2026-11-23T17:30:05.123Z")
            .unwrap()
            .with_timezone(&Utc);
        let name = file_name(12, at, BackupReason::BeforeSchema, Some("3"));
        assert_eq!(
            name,
            "referee-000012-20261123T173005123Z-before-schema-3.db"
        );
        let order = Order { sequence: 12, at };
        assert_eq!(parse_name(&name), Some((order, BackupReason::BeforeSchema)));
        // Names from before sequences stand below every numbered one.
        assert_eq!(
            parse_name("referee-20261123T173005123Z-daily.db"),
            Some((Order { sequence: 0, at }, BackupReason::Daily))
        );
        assert_eq!(parse_name("referee-garbage-daily.db"), None);
        assert_eq!(parse_name("notes.txt"), None);
    }

    #[test]
    fn a_daily_backup_is_due_once_per_local_day() {
        let now = Local::now();
        let today = now.date_naive();
        assert!(daily_due(today, &[]));
        assert!(!daily_due(today, &[now.with_timezone(&Utc)]));
        let two_days_ago = (now - chrono::Duration::days(2)).with_timezone(&Utc);
        assert!(daily_due(today, &[two_days_ago]));
    }
}
