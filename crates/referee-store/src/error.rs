//! SQLite's failures as the referee's typed errors: what is wrong and what to do.

use std::path::Path;

use rusqlite::ErrorCode;

use referee_core::RefereeError;

pub(crate) fn corrupt(path: &Path) -> RefereeError {
    let backup = match super::latest_backup(path) {
        Some(b) => format!(
            "The latest backup is {}: copy it over the damaged file, or open it instead.",
            b.display()
        ),
        None => "There is no backup of it yet.".to_string(),
    };
    RefereeError::new(
        "store.corrupt",
        format!(
            "the database {} is damaged or is not a referee database; it was left untouched. {backup}",
            path.display()
        ),
    )
    .location(path.display().to_string())
}

/// Maps a SQLite error to a stable code.
pub fn store_error(e: rusqlite::Error, path: &Path) -> RefereeError {
    let code = match &e {
        rusqlite::Error::SqliteFailure(f, _) => Some(f.code),
        _ => None,
    };
    match code {
        Some(ErrorCode::DiskFull) => RefereeError::new(
            "store.disk_full",
            format!(
                "the disk holding {} is full: nothing was written and the battle is unchanged; free some space and try again",
                path.display()
            ),
        ),
        Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase) => corrupt(path),
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => RefereeError::new(
            "store.busy",
            format!("{} is in use by another referee; close it and try again", path.display()),
        ),
        Some(ErrorCode::ReadOnly | ErrorCode::CannotOpen | ErrorCode::PermissionDenied) => {
            RefereeError::new(
                "store.unwritable",
                format!("cannot write {}: {e}", path.display()),
            )
        }
        _ => RefereeError::new(
            "store.failed",
            format!("the database {} failed: {e}; nothing was written", path.display()),
        ),
    }
    .location(path.display().to_string())
}
