//! The schema and its migrations. `PRAGMA user_version` records the version; each migration runs
//! in one transaction, after a backup of the older file.

use referee_core::RefereeError;

use super::{error::store_error, Store};

/// Migration `i` takes the schema from version `i` to `i + 1`.
const MIGRATIONS: &[&str] = &[
    // 1: battles and their append-only events.
    "CREATE TABLE battles (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        ruleset TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE TABLE events (
        battle_id INTEGER NOT NULL REFERENCES battles(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        at TEXT NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (battle_id, seq)
    ) WITHOUT ROWID;",
    // 2: the details of applied events (situation and full resolution, kept apart so a battle
    // folds without reading them) and reusable rosters.
    "CREATE TABLE event_details (
        battle_id INTEGER NOT NULL REFERENCES battles(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        detail TEXT NOT NULL,
        PRIMARY KEY (battle_id, seq)
    ) WITHOUT ROWID;
    CREATE TABLE rosters (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        ruleset TEXT NOT NULL,
        units TEXT NOT NULL,
        saved_at TEXT NOT NULL
    );",
    // 3: a deleted battle is kept, restorable, for 30 days (KEEP_DELETED_DAYS).
    "ALTER TABLE battles ADD COLUMN deleted_at TEXT;",
];

pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// The SQL of the schema at an earlier version, for tests of the migrations.
pub fn schema_at(version: i64) -> String {
    MIGRATIONS[..version as usize].join("\n")
}

pub(crate) fn prepare(store: &mut Store) -> Result<(), RefereeError> {
    let path = store.path.clone();
    let conn = store.conn();
    conn.busy_timeout(std::time::Duration::from_secs(5))
        .map_err(|e| store_error(e, &path))?;
    // Reading the version also proves the file is a database at all.
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(|e| store_error(e, &path))?;
    conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| {
        r.get::<_, i64>(0)
    })
    .map_err(|e| store_error(e, &path))?;
    if version > SCHEMA_VERSION {
        return Err(RefereeError::new(
            "store.newer_version",
            format!(
                "the battles database was written by a newer referee (schema {version}; this one knows up to {SCHEMA_VERSION}): update the app to open it. The file was left untouched."
            ),
        )
        .location(path.display().to_string()));
    }
    let wal: String = conn
        .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
        .map_err(|e| store_error(e, &path))?;
    if !wal.eq_ignore_ascii_case("wal") {
        return Err(RefereeError::new(
            "store.failed",
            format!("the battles database cannot use write-ahead logging ({wal})"),
        ));
    }
    conn.execute_batch("PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;")
        .map_err(|e| store_error(e, &path))?;
    if version > 0 && version < SCHEMA_VERSION {
        store.backup_for(
            super::BackupReason::BeforeSchema,
            Some(&SCHEMA_VERSION.to_string()),
        )?;
    }
    migrate(store, version)
}

fn migrate(store: &mut Store, from: i64) -> Result<(), RefereeError> {
    let path = store.path.clone();
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(from as usize) {
        let tx = store
            .conn()
            .transaction()
            .map_err(|e| store_error(e, &path))?;
        tx.execute_batch(sql).map_err(|e| store_error(e, &path))?;
        tx.pragma_update(None, "user_version", i as i64 + 1)
            .map_err(|e| store_error(e, &path))?;
        tx.commit().map_err(|e| store_error(e, &path))?;
    }
    Ok(())
}
