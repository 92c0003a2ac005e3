//! What goes wrong in the store, as its own error: SQLite's failures sorted by what the umpire can
//! do about them, a battle, roster or backup not found, a damaged or foreign file, a battle
//! changed elsewhere, a battle file refused. Each message is the umpire's sentence (SQLite's own
//! words stay out of it: they follow the file in the location, for a report). Where the store
//! meets the API, `From<StoreError> for RefereeError` gives each its stable code, field and
//! location.

use std::fmt;
use std::path::{Path, PathBuf};

use rusqlite::ErrorCode as SqliteCode;

use referee_core::{ErrorCode, RefereeError};

use super::file::FORMAT_VERSION;
use super::schema::SCHEMA_VERSION;

/// What to do about a damaged database: restore its latest backup, if there is one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackupHint {
    Restore,
    NoneYet,
}

impl fmt::Display for BackupHint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BackupHint::Restore => "Restore its latest backup in Settings, under Backups: the damaged file will be kept among them.",
            BackupHint::NoneYet => "There is no backup of it yet.",
        })
    }
}

pub(crate) fn backup_hint(path: &Path) -> BackupHint {
    match super::latest_backup(path) {
        Some(_) => BackupHint::Restore,
        None => BackupHint::NoneYet,
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    // The database file itself.
    #[error("the database path names a folder, not a file: name the database file inside it (referee.db, say)")]
    IsFolder { path: PathBuf },
    #[error("the battles database is damaged or is not a referee database; it was left untouched. {backup}")]
    Corrupt { path: PathBuf, backup: BackupHint },
    #[error("the file is a database of another application, not the referee's battles; it was left untouched. Choose the referee's own database, or a new file name to begin one")]
    NotReferee { path: PathBuf },
    #[error("the battles database was written by a newer referee (schema {schema}; this one knows up to {SCHEMA_VERSION}): update the app to open it. The file was left untouched.")]
    NewerSchema { path: PathBuf, schema: i64 },
    #[error("the battles database cannot use write-ahead logging ({mode})")]
    NoWriteAheadLog { mode: String },

    // SQLite's failures, by what can be done about them.
    #[error("the disk holding the battles database is full: nothing was written and the battle is unchanged; free some space and try again")]
    DiskFull { path: PathBuf },
    #[error("the battles database is in use by another referee; close it and try again")]
    Busy { path: PathBuf },
    #[error(
        "the battles database cannot be written: check that its folder and file may be written to"
    )]
    ReadOnly { path: PathBuf, sqlite: String },
    #[error("the battles database failed to answer; nothing was written")]
    Failed { path: PathBuf, sqlite: String },

    // Folders and files beside the database.
    #[error("cannot create the data folder {}: {io}", .dir.display())]
    DataFolder { dir: PathBuf, io: String },
    #[error("cannot create {}: {io}", .dir.display())]
    Folder { dir: PathBuf, io: String },
    #[error("cannot write the backup {}: {io}", .dest.display())]
    BackupNotWritten { dest: PathBuf, io: String },
    #[error("the backup could not be put in place ({io}); the battles were left as they are")]
    BackupNotPutInPlace { io: String },
    #[error("there is no such backup: choose one from the list")]
    BackupUnknown,
    #[error("that backup cannot be restored: {why}. The battles were left as they are")]
    BackupUnusable { why: &'static str },

    // Battles and rosters.
    #[error("there is no battle #{battle}")]
    BattleUnknown { battle: i64 },
    #[error("that battle is not among the recently deleted ones (it was restored already, or deleted more than 30 days ago)")]
    BattleNotDeleted,
    #[error("a battle's first event creates it")]
    FirstEventNotCreation,
    /// `place` counts from 1.
    #[error(
        "event {seq} stands at place {place}: a battle's events are numbered 1, 2, 3 and so on"
    )]
    EventOutOfPlace { seq: u64, place: usize },
    #[error("event {seq} is numbered beyond what a battle holds")]
    EventNumberTooLarge { seq: u64 },
    #[error("battle #{battle} changed elsewhere (it is at event {last}): reopen it and try again")]
    Conflict { battle: i64, last: i64 },
    #[error(
        "event {seq} of battle #{battle} {what}: the battle cannot be opened as it is. {backup}"
    )]
    DamagedEvent {
        path: PathBuf,
        battle: i64,
        seq: i64,
        what: String,
        backup: BackupHint,
    },
    #[error("there is no roster #{roster}")]
    RosterUnknown { roster: i64 },
    #[error("roster #{roster} {what}: it cannot be used as it is. {backup}")]
    DamagedRoster {
        path: PathBuf,
        roster: i64,
        what: String,
        backup: BackupHint,
    },

    // Convention events.
    #[error("there is no event #{event}: choose one from the list of events")]
    TournamentUnknown { event: i64 },
    #[error("entry {seq} of event #{event} cannot be read: the event cannot be opened as it is. {backup}")]
    DamagedEntry {
        path: PathBuf,
        event: i64,
        seq: i64,
        backup: BackupHint,
    },

    // Battle files, exported and imported.
    #[error("the file is not a battle file: choose a battle file exported by the referee")]
    FileNotJson,
    #[error("the file is not a referee battle: choose a battle file exported by the referee")]
    FileNotABattle,
    #[error("the battle file is version {version}; this referee reads up to {FORMAT_VERSION}: update the app")]
    FileNewer { version: u64 },
    /// `at`: the key path at fault; `why`: what is wrong there, in words.
    #[error("the battle file is damaged: {why}")]
    FileInvalid { at: String, why: String },
    #[error("{what}: export the battle again from the referee that played it")]
    FileDamaged { what: String, at: String },
}

impl StoreError {
    /// The stable code the app and the CLI know it by.
    pub fn code(&self) -> ErrorCode {
        match self {
            StoreError::IsFolder { .. } => ErrorCode::StoreIsFolder,
            StoreError::Corrupt { .. } => ErrorCode::StoreCorrupt,
            StoreError::NotReferee { .. } => ErrorCode::StoreNotReferee,
            StoreError::NewerSchema { .. } => ErrorCode::StoreNewerVersion,
            StoreError::NoWriteAheadLog { .. } | StoreError::Failed { .. } => {
                ErrorCode::StoreFailed
            }
            StoreError::DiskFull { .. } => ErrorCode::StoreDiskFull,
            StoreError::Busy { .. } => ErrorCode::StoreBusy,
            StoreError::ReadOnly { .. }
            | StoreError::DataFolder { .. }
            | StoreError::Folder { .. }
            | StoreError::BackupNotWritten { .. }
            | StoreError::BackupNotPutInPlace { .. } => ErrorCode::StoreUnwritable,
            StoreError::BackupUnknown => ErrorCode::BackupUnknown,
            StoreError::BackupUnusable { .. } => ErrorCode::BackupUnusable,
            StoreError::BattleUnknown { .. } => ErrorCode::BattleUnknown,
            StoreError::BattleNotDeleted => ErrorCode::BattleNotDeleted,
            StoreError::FirstEventNotCreation
            | StoreError::EventOutOfPlace { .. }
            | StoreError::EventNumberTooLarge { .. } => ErrorCode::BattleInvalidEvents,
            StoreError::Conflict { .. } => ErrorCode::StoreConflict,
            StoreError::DamagedEvent { .. } => ErrorCode::StoreDamagedEvent,
            StoreError::RosterUnknown { .. } => ErrorCode::RosterUnknown,
            StoreError::DamagedRoster { .. } => ErrorCode::StoreDamagedRoster,
            StoreError::TournamentUnknown { .. } => ErrorCode::EventUnknown,
            StoreError::DamagedEntry { .. } => ErrorCode::StoreDamagedEvent,
            StoreError::FileNotJson | StoreError::FileInvalid { .. } => ErrorCode::ImportInvalid,
            StoreError::FileNotABattle => ErrorCode::ImportNotABattle,
            StoreError::FileNewer { .. } => ErrorCode::ImportNewerVersion,
            StoreError::FileDamaged { .. } => ErrorCode::ImportDamaged,
        }
    }

    /// The field at fault: the battle or roster asked for, or the battle file's key path.
    fn field(&self) -> Option<String> {
        match self {
            StoreError::BattleUnknown { .. } | StoreError::BattleNotDeleted => {
                Some("battle".into())
            }
            StoreError::RosterUnknown { .. } => Some("roster".into()),
            StoreError::TournamentUnknown { .. } => Some("event".into()),
            StoreError::EventOutOfPlace { place, .. } => {
                Some(format!("events[{}].seq", place.saturating_sub(1)))
            }
            StoreError::FileNotABattle => Some("format".into()),
            StoreError::FileNewer { .. } => Some("version".into()),
            StoreError::FileInvalid { at, .. } | StoreError::FileDamaged { at, .. } => {
                Some(at.clone())
            }
            _ => None,
        }
    }

    /// The database file, and SQLite's own words when it failed.
    fn location(&self) -> Option<String> {
        match self {
            StoreError::IsFolder { path }
            | StoreError::Corrupt { path, .. }
            | StoreError::NotReferee { path }
            | StoreError::NewerSchema { path, .. }
            | StoreError::DiskFull { path }
            | StoreError::Busy { path }
            | StoreError::DamagedEvent { path, .. }
            | StoreError::DamagedRoster { path, .. }
            | StoreError::DamagedEntry { path, .. } => Some(path.display().to_string()),
            StoreError::ReadOnly { path, sqlite } | StoreError::Failed { path, sqlite } => {
                Some(format!("{}: {sqlite}", path.display()))
            }
            _ => None,
        }
    }
}

/// The store's errors as the app and the CLI show them: the same codes and sentences as every
/// other error, with no rule or ruling (none applies to a file on disk).
impl From<StoreError> for RefereeError {
    fn from(e: StoreError) -> RefereeError {
        let mut error = RefereeError::new(e.code(), e.to_string());
        error.field = e.field();
        error.location = e.location();
        error
    }
}

pub(crate) fn corrupt(path: &Path) -> StoreError {
    StoreError::Corrupt {
        path: path.to_path_buf(),
        backup: backup_hint(path),
    }
}

/// Sorts a SQLite error by what the umpire can do about it.
pub fn store_error(e: rusqlite::Error, path: &Path) -> StoreError {
    let code = match &e {
        rusqlite::Error::SqliteFailure(f, _) => Some(f.code),
        _ => None,
    };
    let path = path.to_path_buf();
    match code {
        Some(SqliteCode::DiskFull) => StoreError::DiskFull { path },
        Some(SqliteCode::DatabaseCorrupt | SqliteCode::NotADatabase) => corrupt(&path),
        Some(SqliteCode::DatabaseBusy | SqliteCode::DatabaseLocked) => StoreError::Busy { path },
        Some(SqliteCode::ReadOnly | SqliteCode::CannotOpen | SqliteCode::PermissionDenied) => {
            StoreError::ReadOnly {
                path,
                sqlite: e.to_string(),
            }
        }
        _ => StoreError::Failed {
            path,
            sqlite: e.to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each error as the app and the CLI show it: code, sentence, field and place.
    #[test]
    fn a_store_error_converts_to_the_code_sentence_field_and_place_shown() {
        let path = PathBuf::from("/data/referee.db");
        let cases = [
            (
                StoreError::BattleUnknown { battle: 7 },
                "battle.unknown",
                "There is no battle #7.",
                Some("battle"),
                None,
            ),
            (
                StoreError::EventOutOfPlace { seq: 3, place: 2 },
                "battle.invalid_events",
                "Event 3 stands at place 2: a battle's events are numbered 1, 2, 3 and so on.",
                Some("events[1].seq"),
                None,
            ),
            (
                StoreError::Conflict { battle: 1, last: 4 },
                "store.conflict",
                "Battle #1 changed elsewhere (it is at event 4): reopen it and try again.",
                None,
                None,
            ),
            (
                StoreError::Corrupt {
                    path: path.clone(),
                    backup: BackupHint::NoneYet,
                },
                "store.corrupt",
                "The battles database is damaged or is not a referee database; it was left untouched. There is no backup of it yet.",
                None,
                Some("/data/referee.db"),
            ),
            (
                StoreError::Failed {
                    path: path.clone(),
                    sqlite: "disk I/O error".into(),
                },
                "store.failed",
                "The battles database failed to answer; nothing was written.",
                None,
                Some("/data/referee.db: disk I/O error"),
            ),
            (
                StoreError::NewerSchema { path, schema: 99 },
                "store.newer_version",
                &format!("The battles database was written by a newer referee (schema 99; this one knows up to {SCHEMA_VERSION}): update the app to open it. The file was left untouched."),
                None,
                Some("/data/referee.db"),
            ),
            (
                StoreError::FileNewer { version: 9 },
                "import.newer_version",
                &format!("The battle file is version 9; this referee reads up to {FORMAT_VERSION}: update the app."),
                Some("version"),
                None,
            ),
            (
                StoreError::BackupUnusable { why: "it is damaged" },
                "backup.unusable",
                "That backup cannot be restored: it is damaged. The battles were left as they are.",
                None,
                None,
            ),
        ];
        for (error, code, message, field, location) in cases {
            let shown = RefereeError::from(error.clone());
            assert_eq!(shown.code, code, "{error:?}");
            assert_eq!(shown.message, message, "{error:?}");
            assert_eq!(shown.field.as_deref(), field, "{error:?}");
            assert_eq!(shown.location.as_deref(), location, "{error:?}");
            assert_eq!((shown.rule, shown.ruling), (None, None));
        }
    }
}
