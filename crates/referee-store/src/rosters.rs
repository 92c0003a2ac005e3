//! Reusable army rosters, saved apart from any battle.

use rusqlite::{params, OptionalExtension};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use referee_core::battle::UnitSpec;
use referee_core::RefereeError;

use super::{error::store_error, now, Store};

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

impl Store {
    pub fn save_roster(&mut self, roster: &Roster) -> Result<i64, RefereeError> {
        let path = self.path.clone();
        let units = serde_json::to_string(&roster.units).unwrap_or_default();
        self.before_write();
        self.write(|tx| {
            tx.execute(
                "INSERT INTO rosters (name, ruleset, units, saved_at) VALUES (?1, ?2, ?3, ?4)",
                params![roster.name, roster.ruleset, units, now()],
            )?;
            Ok(tx.last_insert_rowid())
        })
        .map_err(|e| store_error(e, &path))
    }

    pub fn roster(&mut self, id: i64) -> Result<Roster, RefereeError> {
        let path = self.path.clone();
        let row: Option<(String, String, String)> = self
            .conn()
            .query_row(
                "SELECT name, ruleset, units FROM rosters WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()
            .map_err(|e| store_error(e, &path))?;
        let (name, ruleset, units) = row.ok_or_else(|| {
            RefereeError::new("roster.unknown", format!("there is no roster #{id}")).field("roster")
        })?;
        let units = serde_json::from_str(&units).map_err(|e| {
            RefereeError::new("store.corrupt", format!("roster #{id} cannot be read: {e}"))
        })?;
        Ok(Roster {
            name,
            ruleset,
            units,
        })
    }

    pub fn rosters(&mut self) -> Result<Vec<RosterRow>, RefereeError> {
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

    pub fn delete_roster(&mut self, id: i64) -> Result<(), RefereeError> {
        let path = self.path.clone();
        self.before_write();
        let n = self
            .write(|tx| tx.execute("DELETE FROM rosters WHERE id = ?1", [id]))
            .map_err(|e| store_error(e, &path))?;
        if n == 0 {
            return Err(
                RefereeError::new("roster.unknown", format!("there is no roster #{id}"))
                    .field("roster"),
            );
        }
        Ok(())
    }
}
