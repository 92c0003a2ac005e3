//! SQLite's failures as the referee's typed errors: what is wrong and what to do.

use std::path::Path;

use rusqlite::ErrorCode as SqliteCode;

use referee_core::{ErrorCode, RefereeError};

/// What to do about a damaged database: the latest backup, if there is one.
pub(crate) fn backup_hint(path: &Path) -> String {
    match super::latest_backup(path) {
        Some(_) => "Restore its latest backup in Settings, under Backups: the damaged file will be kept among them.".to_string(),
        None => "There is no backup of it yet.".to_string(),
    }
}

pub(crate) fn corrupt(path: &Path) -> RefereeError {
    let backup = backup_hint(path);
    RefereeError::new(
        ErrorCode::StoreCorrupt,
        format!(
            "the battles database is damaged or is not a referee database; it was left untouched. {backup}"
        ),
    )
    .location(path.display().to_string())
}

/// Maps a SQLite error to a stable code. The message is the umpire's sentence; SQLite's own words
/// stay out of it (they follow the file in `location`, for a report).
pub fn store_error(e: rusqlite::Error, path: &Path) -> RefereeError {
    let code = match &e {
        rusqlite::Error::SqliteFailure(f, _) => Some(f.code),
        _ => None,
    };
    match code {
        Some(SqliteCode::DiskFull) => RefereeError::new(
            ErrorCode::StoreDiskFull,
            "the disk holding the battles database is full: nothing was written and the battle is unchanged; free some space and try again",
        )
        .location(path.display().to_string()),
        Some(SqliteCode::DatabaseCorrupt | SqliteCode::NotADatabase) => corrupt(path),
        Some(SqliteCode::DatabaseBusy | SqliteCode::DatabaseLocked) => RefereeError::new(
            ErrorCode::StoreBusy,
            "the battles database is in use by another referee; close it and try again",
        )
        .location(path.display().to_string()),
        Some(SqliteCode::ReadOnly | SqliteCode::CannotOpen | SqliteCode::PermissionDenied) => {
            RefereeError::new(
                ErrorCode::StoreUnwritable,
                "the battles database cannot be written: check that its folder and file may be written to",
            )
            .location(format!("{}: {e}", path.display()))
        }
        _ => RefereeError::new(
            ErrorCode::StoreFailed,
            "the battles database failed to answer; nothing was written",
        )
        .location(format!("{}: {e}", path.display())),
    }
}
