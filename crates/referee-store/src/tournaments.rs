//! Convention events (tournaments in code): a row each and their append-only entries, folded by
//! the core as a battle's events are. Every write is one `BEGIN IMMEDIATE` transaction, or joins
//! the caller's (`begin_write`), so an entry checked against the entries read is appended after
//! exactly them.

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;
use ts_rs::TS;

use referee_core::tournament::TournamentEntry;

use super::error::{backup_hint, store_error, StoreError};
use super::{now, Store};

/// An event in the list, as stored (the API adds what the fold knows).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct TournamentRow {
    pub id: i64,
    pub name: String,
    pub created_at: String,
}

fn body_text(entry: &TournamentEntry) -> String {
    serde_json::to_string(entry).unwrap_or_default()
}

fn exists(conn: &Connection, id: i64) -> rusqlite::Result<bool> {
    Ok(conn
        .query_row("SELECT 1 FROM tournaments WHERE id = ?1", [id], |_| Ok(()))
        .optional()?
        .is_some())
}

impl Store {
    /// Every event, the latest first.
    pub fn tournaments(&mut self) -> Result<Vec<TournamentRow>, StoreError> {
        let path = self.path.clone();
        let conn = self.conn();
        let mut stmt = conn
            .prepare("SELECT id, name, created_at FROM tournaments ORDER BY id DESC")
            .map_err(|e| store_error(e, &path))?;
        let rows = stmt
            .query_map([], |r| {
                Ok(TournamentRow {
                    id: r.get(0)?,
                    name: r.get(1)?,
                    created_at: r.get(2)?,
                })
            })
            .map_err(|e| store_error(e, &path))?;
        rows.collect::<Result<Vec<_>, _>>()
            .map_err(|e| store_error(e, &path))
    }

    /// Creates an event with its first entry (its creation), in one transaction.
    pub fn create_tournament(
        &mut self,
        name: &str,
        created: &TournamentEntry,
    ) -> Result<i64, StoreError> {
        let path = self.path.clone();
        let body = body_text(created);
        self.before_write();
        self.write(|tx| {
            let at = now();
            tx.execute(
                "INSERT INTO tournaments (name, created_at) VALUES (?1, ?2)",
                params![name, at],
            )?;
            let id = tx.last_insert_rowid();
            tx.execute(
                "INSERT INTO tournament_entries (tournament_id, seq, at, body) VALUES (?1, 1, ?2, ?3)",
                params![id, at, body],
            )?;
            Ok(id)
        })
        .map_err(|e| store_error(e, &path))
    }

    /// An event's entries, in order (from one snapshot).
    pub fn tournament_entries(&mut self, id: i64) -> Result<Vec<TournamentEntry>, StoreError> {
        self.reading(|store| {
            let path = store.path.clone();
            let conn = store.conn();
            if !exists(conn, id).map_err(|e| store_error(e, &path))? {
                return Err(StoreError::TournamentUnknown { event: id });
            }
            let rows: Vec<(i64, String)> = {
                let mut stmt = conn
                    .prepare(
                        "SELECT seq, body FROM tournament_entries WHERE tournament_id = ?1 ORDER BY seq",
                    )
                    .map_err(|e| store_error(e, &path))?;
                let rows = stmt
                    .query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))
                    .map_err(|e| store_error(e, &path))?;
                rows.collect::<Result<_, _>>()
                    .map_err(|e| store_error(e, &path))?
            };
            rows.into_iter()
                .enumerate()
                .map(|(i, (seq, body))| {
                    let in_place = i64::try_from(i + 1).ok() == Some(seq);
                    serde_json::from_str(&body)
                        .ok()
                        .filter(|_| in_place)
                        .ok_or_else(|| StoreError::DamagedEntry {
                            backup: backup_hint(&path),
                            path: path.clone(),
                            event: id,
                            seq,
                        })
                })
                .collect()
        })
    }

    /// Appends one entry after the last, in one transaction (or the caller's).
    pub fn append_tournament_entry(
        &mut self,
        id: i64,
        entry: &TournamentEntry,
    ) -> Result<(), StoreError> {
        let path = self.path.clone();
        let body = body_text(entry);
        self.before_write();
        let tx = self.write_tx().map_err(|e| store_error(e, &path))?;
        if !exists(&tx, id).map_err(|e| store_error(e, &path))? {
            return Err(StoreError::TournamentUnknown { event: id });
        }
        tx.execute(
            "INSERT INTO tournament_entries (tournament_id, seq, at, body)
             SELECT ?1, coalesce(max(seq), 0) + 1, ?2, ?3 FROM tournament_entries WHERE tournament_id = ?1",
            params![id, now(), body],
        )
        .map_err(|e| store_error(e, &path))?;
        tx.commit().map_err(|e| store_error(e, &path))
    }
}
