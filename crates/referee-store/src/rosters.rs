//! Reusable army rosters, saved apart from any battle.

use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use referee_core::battle::UnitSpec;

use super::chain::roster_hash;
use super::error::{backup_hint, store_error, StoreError};
use super::{now, Store};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct Roster {
    pub name: String,
    pub ruleset: String,
    pub units: Vec<UnitSpec>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct RosterRow {
    pub id: i64,
    pub name: String,
    pub ruleset: String,
    pub units: i64,
    pub saved_at: String,
}

/// A roster as stored, with its hash.
pub(crate) struct StoredRoster {
    pub(crate) name: String,
    pub(crate) ruleset: String,
    units: String,
    saved_at: String,
    hash: String,
}

impl StoredRoster {
    /// Its units, if it matches its hash and reads as units; else what is wrong with it.
    pub(crate) fn units(&self) -> Result<Vec<UnitSpec>, String> {
        if roster_hash(&self.name, &self.ruleset, &self.units, &self.saved_at) != self.hash {
            return Err(
                "was changed outside the referee (it no longer matches its hash)".to_string(),
            );
        }
        serde_json::from_str(&self.units).map_err(|_| "cannot be read".to_string())
    }
}

pub(crate) fn stored(conn: &Connection, id: i64) -> rusqlite::Result<Option<StoredRoster>> {
    conn.query_row(
        "SELECT name, ruleset, units, saved_at, hash FROM rosters WHERE id = ?1",
        [id],
        |r| {
            Ok(StoredRoster {
                name: r.get(0)?,
                ruleset: r.get(1)?,
                units: r.get(2)?,
                saved_at: r.get(3)?,
                hash: r.get(4)?,
            })
        },
    )
    .optional()
}

/// A roster's hash written inside the caller's transaction (the migration that adds hashes).
pub(crate) fn write_hash(tx: &Connection, id: i64) -> rusqlite::Result<()> {
    if let Some(r) = stored(tx, id)? {
        tx.execute(
            "UPDATE rosters SET hash = ?2 WHERE id = ?1",
            params![id, roster_hash(&r.name, &r.ruleset, &r.units, &r.saved_at)],
        )?;
    }
    Ok(())
}

impl Store {
    pub fn save_roster(&mut self, roster: &Roster) -> Result<i64, StoreError> {
        let path = self.path.clone();
        let units = serde_json::to_string(&roster.units).unwrap_or_default();
        self.before_write();
        self.write(|tx| {
            let at = now();
            tx.execute(
                "INSERT INTO rosters (name, ruleset, units, saved_at, hash) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![
                    roster.name,
                    roster.ruleset,
                    units,
                    at,
                    roster_hash(&roster.name, &roster.ruleset, &units, &at)
                ],
            )?;
            Ok(tx.last_insert_rowid())
        })
        .map_err(|e| store_error(e, &path))
    }

    pub fn roster(&mut self, id: i64) -> Result<Roster, StoreError> {
        let path = self.path.clone();
        let row = stored(self.conn(), id).map_err(|e| store_error(e, &path))?;
        let row = row.ok_or(StoreError::RosterUnknown { roster: id })?;
        let units = row.units().map_err(|what| StoreError::DamagedRoster {
            backup: backup_hint(&path),
            path,
            roster: id,
            what,
        })?;
        let StoredRoster { name, ruleset, .. } = row;
        Ok(Roster {
            name,
            ruleset,
            units,
        })
    }

    pub fn rosters(&mut self) -> Result<Vec<RosterRow>, StoreError> {
        let path = self.path.clone();
        let conn = self.conn();
        let mut stmt = conn
            .prepare("SELECT id, name, ruleset, json_array_length(units), saved_at FROM rosters ORDER BY name, id")
            .map_err(|e| store_error(e, &path))?;
        let rows = stmt
            .query_map([], |r| {
                Ok(RosterRow {
                    id: r.get(0)?,
                    name: r.get(1)?,
                    ruleset: r.get(2)?,
                    units: r.get(3)?,
                    saved_at: r.get(4)?,
                })
            })
            .map_err(|e| store_error(e, &path))?;
        rows.collect::<Result<Vec<_>, _>>()
            .map_err(|e| store_error(e, &path))
    }

    pub fn delete_roster(&mut self, id: i64) -> Result<(), StoreError> {
        let path = self.path.clone();
        self.before_write();
        let n = self
            .write(|tx| tx.execute("DELETE FROM rosters WHERE id = ?1", [id]))
            .map_err(|e| store_error(e, &path))?;
        if n == 0 {
            return Err(StoreError::RosterUnknown { roster: id });
        }
        Ok(())
    }
}
