//! Backups a user never has to think of: one on the first write of each day, one before every
//! migration and before a restore, each a consistent copy made with SQLite's backup API into
//! `backups/` beside the database; the last few of each kind are kept.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Local, NaiveDate, Utc};
use rusqlite::{Connection, OpenFlags};
use serde::Serialize;
use ts_rs::TS;

use referee_core::RefereeError;

use super::{error::store_error, schema, Store};

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

/// The backups, newest first, and why the last automatic one failed, if it did.
#[derive(Clone, Debug, Serialize, TS)]
pub struct Backups {
    pub backups: Vec<BackupInfo>,
    pub problem: Option<RefereeError>,
}

const STAMP: &str = "%Y%m%dT%H%M%S%3fZ";

fn file_name(at: DateTime<Utc>, reason: BackupReason, detail: Option<&str>) -> String {
    let tag = match detail {
        Some(d) => format!("{}-{d}", reason.tag()),
        None => reason.tag().to_string(),
    };
    format!("referee-{}-{tag}.db", at.format(STAMP))
}

/// A backup's time and reason from its file name: `referee-<stamp>-<reason>.db`.
fn parse_name(name: &str) -> Option<(DateTime<Utc>, BackupReason)> {
    let rest = name.strip_prefix("referee-")?.strip_suffix(".db")?;
    let (stamp, tag) = rest.split_once('-')?;
    let at = chrono::NaiveDateTime::parse_from_str(stamp, STAMP).ok()?;
    Some((at.and_utc(), BackupReason::from_tag(tag)?))
}

/// The backups folder of a database: `backups/` beside it.
pub fn backups_dir(db: &Path) -> PathBuf {
    db.parent()
        .map_or_else(|| PathBuf::from("backups"), |d| d.join("backups"))
}

fn listed(db: &Path) -> Vec<(PathBuf, DateTime<Utc>, BackupReason)> {
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

fn unusable(why: &str) -> RefereeError {
    RefereeError::new(
        "backup.unusable",
        format!("that backup cannot be restored: {why}. The battles were left as they are"),
    )
}

fn open_read_only(path: &Path) -> Result<Connection, RefereeError> {
    // A file that is not there must not be created by opening it.
    Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|_| unusable("it cannot be read"))
}

/// How many battles (not deleted) a backup holds, if it is a referee database this app knows.
fn count_battles(conn: &Connection) -> Result<i64, RefereeError> {
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
fn check_backup(path: &Path) -> Result<i64, RefereeError> {
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
                taken_at: at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
                reason,
                battles: open_read_only(&path).and_then(|c| count_battles(&c)).ok(),
                bytes: std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0),
            })
        })
        .collect()
}

/// The listed backup named `id`: a name from the list, never a path.
fn find(db: &Path, id: &str) -> Result<PathBuf, RefereeError> {
    listed(db)
        .into_iter()
        .map(|(p, _, _)| p)
        .find(|p| p.file_name().and_then(|n| n.to_str()) == Some(id))
        .ok_or_else(|| {
            RefereeError::new(
                "backup.unknown",
                "there is no such backup: choose one from the list",
            )
        })
}

/// Puts a backup in the place of a database that cannot be opened (damaged): the damaged file is
/// kept among the backups, the checked backup is copied over it whole (temporary file, then
/// rename). The caller opens the database again.
pub fn restore_over_damaged(db: &Path, id: &str) -> Result<(), RefereeError> {
    let source = find(db, id)?;
    check_backup(&source)?;
    let failed = |e: std::io::Error| {
        RefereeError::new(
            "store.unwritable",
            format!(
                "the backup could not be put in place ({e}); the battles were left as they are"
            ),
        )
    };
    let kept = backups_dir(db).join(file_name(Utc::now(), BackupReason::BeforeRestore, None));
    if db.exists() {
        std::fs::copy(db, &kept).map_err(failed)?;
    }
    let temp = db.with_extension("restoring");
    std::fs::copy(&source, &temp).map_err(failed)?;
    std::fs::File::open(&temp)
        .and_then(|f| f.sync_all())
        .map_err(failed)?;
    for side in ["-wal", "-shm"] {
        let mut name = db.as_os_str().to_owned();
        name.push(side);
        let _ = std::fs::remove_file(PathBuf::from(name));
    }
    std::fs::rename(&temp, db).map_err(failed)?;
    Ok(())
}

impl Store {
    /// A backup beside the database, in `backups/`, named after the time and its reason.
    pub fn backup_for(
        &self,
        reason: BackupReason,
        detail: Option<&str>,
    ) -> Result<PathBuf, RefereeError> {
        let dest = backups_dir(&self.path).join(file_name(Utc::now(), reason, detail));
        self.backup_to(&dest)?;
        prune(&self.path, reason);
        Ok(dest)
    }

    /// Every backup, newest first, with how many battles each holds.
    pub fn backups(&self) -> Backups {
        Backups {
            backups: backups_of(&self.path),
            problem: self.backup_problem.clone(),
        }
    }

    /// Before a write: the day's backup if none was taken today, then the battles deleted more
    /// than 30 days ago are let go. A backup that fails does not stop the write (the game goes
    /// on); Settings says why it failed.
    pub(crate) fn before_write(&mut self) {
        let today = Local::now().date_naive();
        if self.backed_up_on == Some(today) {
            return;
        }
        self.backed_up_on = Some(today);
        let taken: Vec<_> = listed(&self.path)
            .into_iter()
            .filter(|(_, _, r)| *r == BackupReason::Daily)
            .map(|(_, at, _)| at)
            .collect();
        if daily_due(today, &taken) && self.holds_anything() {
            self.backup_problem = self.backup_for(BackupReason::Daily, None).err();
        }
        let _ = self.purge_deleted(Utc::now() - chrono::Duration::days(super::KEEP_DELETED_DAYS));
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

    /// Puts a backup in the database's place, after backing up the database as it is now.
    /// Answers the backup of what was replaced.
    pub fn restore_backup(&mut self, id: &str) -> Result<PathBuf, RefereeError> {
        // Only a backup listed by name: a path cannot reach outside the backups folder.
        let source = find(&self.path, id)?;
        check_backup(&source)?;
        // Kept before anything is pruned, so the backup being restored cannot go.
        let before =
            backups_dir(&self.path).join(file_name(Utc::now(), BackupReason::BeforeRestore, None));
        self.backup_to(&before)?;
        let path = self.path.clone();
        let copied = open_read_only(&source).and_then(|from| {
            let backup = rusqlite::backup::Backup::new(&from, self.conn())
                .map_err(|e| store_error(e, &path))?;
            backup
                .run_to_completion(256, std::time::Duration::from_millis(0), None)
                .map_err(|e| store_error(e, &path))
        });
        let whole = copied.and_then(|()| count_battles(self.conn()).map(|_| ()));
        if let Err(e) = whole {
            // Whatever went wrong midway, the database is put back as it was.
            if let Ok(from) = open_read_only(&before) {
                if let Ok(back) = rusqlite::backup::Backup::new(&from, self.conn()) {
                    let _ = back.run_to_completion(256, std::time::Duration::ZERO, None);
                }
            }
            return Err(e);
        }
        // An older backup is brought up to this schema, as at opening.
        schema::prepare(self)?;
        prune(&self.path, BackupReason::BeforeRestore);
        Ok(before)
    }
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
        let name = file_name(at, BackupReason::BeforeSchema, Some("3"));
        assert_eq!(name, "referee-20261123T173005123Z-before-schema-3.db");
        assert_eq!(parse_name(&name), Some((at, BackupReason::BeforeSchema)));
        assert_eq!(
            parse_name("referee-20261123T173005123Z-daily.db"),
            Some((at, BackupReason::Daily))
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
