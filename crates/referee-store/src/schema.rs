//! The schema and its migrations. `PRAGMA user_version` records the version; each migration runs
//! in one transaction, after a backup of the older file.

use std::io::Read;
use std::path::Path;

use rusqlite::{Connection, OpenFlags, Transaction, TransactionBehavior};

use super::error::{store_error, StoreError};
use super::Store;

/// `PRAGMA application_id` of a referee database ("REFR"), set by migration 4: another
/// application's SQLite file is refused instead of being turned into a referee database.
pub const APPLICATION_ID: i64 = 0x5245_4652;

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
    // 4: each event's hash, chained to the one before (see chain.rs); the hashes of the events
    // already stored are computed in the same transaction (`fill_hashes`). The file is marked as
    // the referee's.
    "ALTER TABLE events ADD COLUMN hash TEXT NOT NULL DEFAULT '';
    PRAGMA application_id = 1380271698;",
    // 5: the chain's head of each battle — its last event's seq, and a hash over the battle's own
    // row (name, ruleset, fingerprint, creation, deletion) and its last event's hash —, written
    // in the transaction of every change to the battle, so removing its last events or changing
    // its row is caught; and each roster's hash. Computed for what is stored (`fill_heads`).
    "ALTER TABLE battles ADD COLUMN head_seq INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE battles ADD COLUMN head_hash TEXT NOT NULL DEFAULT '';
    ALTER TABLE rosters ADD COLUMN hash TEXT NOT NULL DEFAULT '';",
    // 6: convention events (in code tournaments, apart from a battle's events): each a row and
    // its append-only entries (the core's TournamentEntry as JSON), folded as a battle's are.
    "CREATE TABLE tournaments (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE TABLE tournament_entries (
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        at TEXT NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (tournament_id, seq)
    ) WITHOUT ROWID;",
];

/// The schema version whose migration adds event hashes (computed for existing events).
const HASHED: usize = 4;
/// The schema version whose migration adds the battles' heads and the rosters' hashes.
const HEADED: usize = 5;

#[allow(clippy::cast_possible_wrap)] // a handful of migrations
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// The SQL of the schema at an earlier version, for tests of the migrations.
pub fn schema_at(version: i64) -> String {
    MIGRATIONS[..usize::try_from(version).unwrap_or(0).min(MIGRATIONS.len())].join("\n")
}

fn not_referee(path: &Path) -> StoreError {
    StoreError::NotReferee {
        path: path.to_path_buf(),
    }
}

/// The tables and their columns, in order, of a database.
fn shape(conn: &Connection) -> rusqlite::Result<Vec<(String, Vec<String>)>> {
    let tables: Vec<String> = {
        let mut stmt = conn.prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        rows.collect::<Result<_, _>>()?
    };
    tables
        .into_iter()
        .map(|t| {
            let mut stmt = conn.prepare("SELECT name FROM pragma_table_info(?1)")?;
            let columns = stmt
                .query_map([&t], |r| r.get(0))?
                .collect::<Result<Vec<String>, _>>()?;
            Ok((t, columns))
        })
        .collect()
}

/// Whether a database without the referee's mark is a referee database from before the mark
/// (schema 1 to 3): exactly the tables and columns that schema had. An unrelated file that
/// happens to have tables named `battles` and `events` is not.
fn shape_is_referee(conn: &Connection, version: i64) -> rusqlite::Result<bool> {
    let expected = Connection::open_in_memory()?;
    expected.execute_batch(&schema_at(version))?;
    Ok(shape(conn)? == shape(&expected)?)
}

fn ours(conn: &Connection, application: i64, version: i64) -> rusqlite::Result<bool> {
    Ok(match application {
        APPLICATION_ID => true,
        0 if version == 0 => {
            conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| {
                r.get::<_, i64>(0)
            })? == 0
        }
        0 if (1..=3).contains(&version) => shape_is_referee(conn, version)?,
        _ => false,
    })
}

/// Before the file is opened for writing: a database that is not the referee's is refused from
/// its header and a read-only look at its tables, so it stays byte for byte as it was — not even
/// its write-ahead log is checkpointed or removed, as closing a writable connection would.
pub(crate) fn identify(path: &Path) -> Result<(), StoreError> {
    let mut header = [0u8; 100];
    let Ok(()) = std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut header)) else {
        // Shorter than a header: the writable open below says what it is.
        return Ok(());
    };
    let application = i64::from(i32::from_be_bytes([
        header[68], header[69], header[70], header[71],
    ]));
    if application == APPLICATION_ID {
        return Ok(());
    }
    if application != 0 {
        return Err(not_referee(path));
    }
    // Read-only, so nothing is written and the log is neither checkpointed nor removed on
    // closing; the log read too when it can be (its index beside it), else the main file alone
    // (immutable: no -wal or -shm touched).
    // The main file's header may be behind its log (a new database's mark is still in it): the
    // mark and version are read again through the connection, with the log.
    let judged = |conn: Connection| {
        let application: i64 = conn.query_row("PRAGMA application_id", [], |r| r.get(0))?;
        let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        ours(&conn, application, version)
    };
    let read_only =
        || Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY).and_then(judged);
    let immutable = || {
        Connection::open_with_flags(
            immutable_uri(path),
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI,
        )
        .and_then(judged)
    };
    match read_only().or_else(|_| immutable()) {
        Ok(false) => Err(not_referee(path)),
        // Unreadable here: the writable open tells damage from a foreign file.
        _ => Ok(()),
    }
}

/// A `file:` URI that opens `path` read-only as immutable.
fn immutable_uri(path: &Path) -> String {
    let mut uri = String::from("file:");
    for b in path.as_os_str().as_encoded_bytes() {
        if b.is_ascii_alphanumeric() || b"/-_.~".contains(b) {
            uri.push(char::from(*b));
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri.push_str("?immutable=1");
    uri
}

pub(crate) fn prepare(store: &mut Store) -> Result<(), StoreError> {
    let path = store.path.clone();
    let conn = store.conn();
    conn.busy_handler(Some(super::wait_for_lock))
        .map_err(|e| store_error(e, &path))?;
    // Reading the version also proves the file is a database at all.
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(|e| store_error(e, &path))?;
    let application: i64 = conn
        .query_row("PRAGMA application_id", [], |r| r.get(0))
        .map_err(|e| store_error(e, &path))?;
    // Before anything is written (not even WAL mode): a file that is not the referee's stays
    // exactly as it was. Databases from before the application id are known by their tables.
    if !ours(conn, application, version).map_err(|e| store_error(e, &path))? {
        return Err(not_referee(&path));
    }
    if version > SCHEMA_VERSION {
        return Err(StoreError::NewerSchema {
            path,
            schema: version,
        });
    }
    let wal: String = conn
        .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
        .map_err(|e| store_error(e, &path))?;
    if !wal.eq_ignore_ascii_case("wal") {
        return Err(StoreError::NoWriteAheadLog { mode: wal });
    }
    conn.execute_batch("PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;")
        .map_err(|e| store_error(e, &path))?;
    if version > 0 && version < SCHEMA_VERSION {
        store.backup_for(
            super::BackupReason::BeforeSchema,
            Some(&SCHEMA_VERSION.to_string()),
        )?;
    }
    let path = store.path.clone();
    migrate(store.conn(), &path, version)
}

/// Brings a database up to this schema, one transaction per migration (no backup: the caller
/// took one, or the file is a copy).
pub(crate) fn migrate(conn: &mut Connection, path: &Path, from: i64) -> Result<(), StoreError> {
    let path = path.to_path_buf();
    for (i, sql) in MIGRATIONS
        .iter()
        .enumerate()
        .skip(usize::try_from(from).unwrap_or(0))
    {
        let to = i64::try_from(i + 1).unwrap_or(i64::MAX);
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| store_error(e, &path))?;
        // Another referee opening the same new file may have migrated it while this one waited.
        let now: i64 = tx
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(|e| store_error(e, &path))?;
        if now >= to {
            continue;
        }
        tx.execute_batch(sql).map_err(|e| store_error(e, &path))?;
        if i + 1 == HASHED {
            fill_hashes(&tx).map_err(|e| store_error(e, &path))?;
        }
        if i + 1 == HEADED {
            fill_heads(&tx).map_err(|e| store_error(e, &path))?;
        }
        tx.pragma_update(None, "user_version", to)
            .map_err(|e| store_error(e, &path))?;
        tx.commit().map_err(|e| store_error(e, &path))?;
    }
    Ok(())
}

/// The chain of every battle stored before events had hashes, computed from the events as they
/// are (an event that cannot be read keeps no hash, and its battle will say so when opened).
fn fill_hashes(tx: &Transaction) -> rusqlite::Result<()> {
    let rows: Vec<(i64, i64, String, String, Option<String>)> = {
        let mut stmt = tx.prepare(
            "SELECT e.battle_id, e.seq, e.at, e.body, d.detail FROM events e
             LEFT JOIN event_details d ON d.battle_id = e.battle_id AND d.seq = e.seq
             ORDER BY e.battle_id, e.seq",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })?;
        rows.collect::<Result<_, _>>()?
    };
    let mut update = tx.prepare("UPDATE events SET hash = ?3 WHERE battle_id = ?1 AND seq = ?2")?;
    let mut battle = None;
    let mut prev = super::chain::CHAIN_START.to_string();
    for (id, seq, at, body, detail) in rows {
        if battle != Some(id) {
            battle = Some(id);
            prev = super::chain::CHAIN_START.to_string();
        }
        // Hashed as stored, as opening a battle will check it.
        let Ok(seq_u) = u64::try_from(seq) else {
            prev = String::new();
            continue;
        };
        let hash = super::chain::event_hash_text(&prev, seq_u, &at, &body, detail.as_deref());
        update.execute(rusqlite::params![id, seq, hash])?;
        prev = hash;
    }
    Ok(())
}

/// The head of every battle and the hash of every roster stored before schema 5, from what is
/// stored (a battle whose events are damaged keeps the head of what is there: opening it still
/// finds the damage in its events).
fn fill_heads(tx: &Transaction) -> rusqlite::Result<()> {
    let ids: Vec<i64> = {
        let mut stmt = tx.prepare("SELECT id FROM battles")?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        rows.collect::<Result<_, _>>()?
    };
    for id in ids {
        super::battles::write_head(tx, id)?;
    }
    let rosters: Vec<i64> = {
        let mut stmt = tx.prepare("SELECT id FROM rosters")?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        rows.collect::<Result<_, _>>()?
    };
    for id in rosters {
        super::rosters::write_hash(tx, id)?;
    }
    Ok(())
}
