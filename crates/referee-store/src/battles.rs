//! Battles as rows, their events as an append-only list, and each event's detail kept apart.

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;
use ts_rs::TS;

use referee_core::battle::{Event, EventBody};

use super::chain::{event_hash, event_hash_bytes, head_hash, BattleRecord, CHAIN_START};
use super::error::{backup_hint, store_error, StoreError};
use super::Store;

/// A battle in the list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct BattleRow {
    pub id: i64,
    pub name: String,
    pub ruleset: String,
    pub fingerprint: String,
    pub created_at: String,
    /// The time of the latest event.
    pub updated_at: String,
    pub events: i64,
}

/// A battle deleted lately: it can be restored until `kept_until`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct DeletedBattle {
    pub battle: BattleRow,
    /// When it was deleted (RFC 3339, UTC).
    pub deleted_at: String,
    /// After this it is gone for good (RFC 3339, UTC).
    pub kept_until: String,
}

fn unknown(id: i64) -> StoreError {
    StoreError::BattleUnknown { battle: id }
}

/// A JSON value as stored text.
pub fn raw(value: &serde_json::Value) -> Box<serde_json::value::RawValue> {
    serde_json::value::to_raw_value(value).unwrap_or_else(|_| {
        serde_json::value::RawValue::from_string("null".into()).expect("null is JSON")
    })
}

fn body_text(body: &EventBody) -> String {
    serde_json::to_string(body).unwrap_or_default()
}

/// An event's seq as SQLite stores it (a signed 64-bit integer).
pub(crate) fn seq_column(seq: u64) -> Result<i64, StoreError> {
    i64::try_from(seq).map_err(|_| StoreError::EventNumberTooLarge { seq })
}

fn conflict(battle: i64, last: i64) -> StoreError {
    StoreError::Conflict { battle, last }
}

/// Writes events after `prev` (the hash of the event before the first), with their chained
/// hashes, inside the caller's transaction.
fn insert_events(
    tx: &Connection,
    battle: i64,
    mut prev: String,
    events: &[(Event, Option<Box<serde_json::value::RawValue>>)],
) -> rusqlite::Result<()> {
    let mut ev = tx.prepare_cached(
        "INSERT INTO events (battle_id, seq, at, body, hash) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    let mut det = tx
        .prepare_cached("INSERT INTO event_details (battle_id, seq, detail) VALUES (?1, ?2, ?3)")?;
    for (e, detail) in events {
        // Checked by the callers: every seq here fits.
        let seq = i64::try_from(e.seq)
            .map_err(|_| rusqlite::Error::IntegralValueOutOfRange(1, i64::MAX))?;
        let hash = event_hash(
            &prev,
            e.seq,
            &e.at,
            &e.body,
            detail.as_ref().map(|d| d.get()),
        );
        ev.execute(params![battle, seq, e.at, body_text(&e.body), hash])?;
        if let Some(d) = detail {
            det.execute(params![battle, seq, d.get()])?;
        }
        prev = hash;
    }
    Ok(())
}

/// A battle's row as stored: what its head covers, and the head itself.
struct StoredRow {
    name: String,
    ruleset: String,
    fingerprint: String,
    created_at: String,
    deleted_at: Option<String>,
    head_seq: i64,
    head_hash: String,
}

impl StoredRow {
    fn record(&self) -> BattleRecord<'_> {
        BattleRecord {
            name: &self.name,
            ruleset: &self.ruleset,
            fingerprint: &self.fingerprint,
            created_at: &self.created_at,
            deleted_at: self.deleted_at.as_deref(),
        }
    }
}

fn stored_row(conn: &Connection, battle: i64) -> rusqlite::Result<Option<StoredRow>> {
    conn.query_row(
        "SELECT name, ruleset, fingerprint, created_at, deleted_at, head_seq, head_hash
         FROM battles WHERE id = ?1",
        [battle],
        |r| {
            Ok(StoredRow {
                name: r.get(0)?,
                ruleset: r.get(1)?,
                fingerprint: r.get(2)?,
                created_at: r.get(3)?,
                deleted_at: r.get(4)?,
                head_seq: r.get(5)?,
                head_hash: r.get(6)?,
            })
        },
    )
    .optional()
}

/// Writes a battle's head — its row and its last event — inside the caller's transaction: every
/// change to a battle ends with it.
pub(crate) fn write_head(tx: &Connection, battle: i64) -> rusqlite::Result<()> {
    let Some(row) = stored_row(tx, battle)? else {
        return Ok(());
    };
    let (seq, hash): (i64, String) = tx
        .query_row(
            "SELECT seq, hash FROM events WHERE battle_id = ?1 ORDER BY seq DESC LIMIT 1",
            [battle],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?
        .unwrap_or((0, String::new()));
    let head = head_hash(&row.record(), u64::try_from(seq).unwrap_or(0), &hash);
    tx.execute(
        "UPDATE battles SET head_seq = ?2, head_hash = ?3 WHERE id = ?1",
        params![battle, seq, head],
    )?;
    Ok(())
}

impl Store {
    /// A new battle from its first event (and any more, e.g. an import), in one transaction.
    pub fn insert_battle(
        &mut self,
        events: &[(Event, Option<Box<serde_json::value::RawValue>>)],
    ) -> Result<i64, StoreError> {
        let path = self.path.clone();
        let Some((
            Event {
                body: EventBody::Created { setup },
                at,
                ..
            },
            _,
        )) = events.first()
        else {
            return Err(StoreError::FirstEventNotCreation);
        };
        // A battle's events are numbered 1, 2, 3…: the chain and every later append rely on it.
        for (i, (e, _)) in events.iter().enumerate() {
            if u64::try_from(i + 1).ok() != Some(e.seq) {
                return Err(StoreError::EventOutOfPlace {
                    seq: e.seq,
                    place: i + 1,
                });
            }
        }
        self.before_write();
        let tx = self.write_tx().map_err(|e| store_error(e, &path))?;
        tx.execute(
            "INSERT INTO battles (name, ruleset, fingerprint, created_at) VALUES (?1, ?2, ?3, ?4)",
            params![setup.name, setup.ruleset, setup.fingerprint, at],
        )
        .map_err(|e| store_error(e, &path))?;
        let id = tx.last_insert_rowid();
        insert_events(&tx, id, CHAIN_START.to_string(), events)
            .and_then(|()| write_head(&tx, id))
            .map_err(|e| store_error(e, &path))?;
        tx.commit().map_err(|e| store_error(e, &path))?;
        Ok(id)
    }

    /// Appends one event (and its detail) in one transaction.
    pub fn append(
        &mut self,
        battle: i64,
        event: &Event,
        detail: Option<&serde_json::Value>,
    ) -> Result<(), StoreError> {
        self.append_all(battle, &[(event.clone(), detail.map(raw))])
    }

    /// Appends events (one command's worth) in one transaction. They must follow the last one
    /// stored: a battle changed elsewhere in the meantime is refused, not overwritten.
    pub fn append_all(
        &mut self,
        battle: i64,
        events: &[(Event, Option<Box<serde_json::value::RawValue>>)],
    ) -> Result<(), StoreError> {
        let path = self.path.clone();
        self.before_write();
        // IMMEDIATE: the write lock is taken before the last event is read, so a second writer
        // waits (the busy timeout) instead of failing when it upgrades a read to a write.
        let tx = self.write_tx().map_err(|e| store_error(e, &path))?;
        let last: Option<(i64, String)> = tx
            .query_row(
                "SELECT e.seq, e.hash FROM events e JOIN battles b ON b.id = e.battle_id
                 WHERE e.battle_id = ?1 AND b.deleted_at IS NULL ORDER BY e.seq DESC LIMIT 1",
                [battle],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(|e| store_error(e, &path))?;
        let Some((last, prev)) = last else {
            return Err(unknown(battle));
        };
        let mut expected = last;
        for (event, _) in events {
            expected = expected
                .checked_add(1)
                .ok_or_else(|| conflict(battle, last))?;
            if seq_column(event.seq)? != expected {
                return Err(conflict(battle, last));
            }
        }
        insert_events(&tx, battle, prev, events)
            .and_then(|()| write_head(&tx, battle))
            .map_err(|e| store_error(e, &path))?;
        tx.commit().map_err(|e| store_error(e, &path))
    }

    /// Every event of a battle, in order, checked: numbered 1, 2, 3…, each readable and matching
    /// its hash in the chain. A damaged event is refused, named by its battle and seq.
    pub fn events(&mut self, battle: i64) -> Result<Vec<Event>, StoreError> {
        let path = self.path.clone();
        self.checked_events(battle, false)?
            .map_err(|(seq, what)| StoreError::DamagedEvent {
                backup: backup_hint(&path),
                path,
                battle,
                seq,
                what,
            })
    }

    /// A battle's events, or the first damaged one: its seq and what is wrong with it. A deleted
    /// battle's only with `deleted` (`db check` reads them too: they can be restored).
    pub(crate) fn checked_events(
        &mut self,
        battle: i64,
        deleted: bool,
    ) -> Result<Result<Vec<Event>, (i64, String)>, StoreError> {
        // The battle's row and its events read in one transaction: one snapshot, so a write
        // another process commits between the two reads cannot look like a cut tail.
        self.reading(|store| store.read_checked_events(battle, deleted))
    }

    fn read_checked_events(
        &mut self,
        battle: i64,
        deleted: bool,
    ) -> Result<Result<Vec<Event>, (i64, String)>, StoreError> {
        let path = self.path.clone();
        let conn = self.conn();
        let Some(row) = stored_row(conn, battle).map_err(|e| store_error(e, &path))? else {
            return Err(unknown(battle));
        };
        if row.deleted_at.is_some() && !deleted {
            return Err(unknown(battle));
        }
        // Events and details are read side by side, both in seq order, rather than joined: a
        // join probes the details' b-tree once per event (about 6 times slower at 20,000
        // events), and each detail is hashed straight from SQLite's buffer, never copied.
        let mut events_stmt = conn
            .prepare_cached(
                "SELECT e.seq, e.at, e.body, e.hash FROM events e
                 JOIN battles b ON b.id = e.battle_id
                 WHERE e.battle_id = ?1 AND (?2 OR b.deleted_at IS NULL) ORDER BY e.seq",
            )
            .map_err(|e| store_error(e, &path))?;
        let mut details_stmt = conn
            .prepare_cached(
                "SELECT seq, detail FROM event_details WHERE battle_id = ?1 ORDER BY seq",
            )
            .map_err(|e| store_error(e, &path))?;
        let mut rows = events_stmt
            .query(params![battle, deleted])
            .map_err(|e| store_error(e, &path))?;
        let mut details = details_stmt
            .query(params![battle])
            .map_err(|e| store_error(e, &path))?;
        let mut detail_row = details.next().map_err(|e| store_error(e, &path))?;
        let mut events = Vec::new();
        let mut prev = CHAIN_START.to_string();
        while let Some(row) = rows.next().map_err(|e| store_error(e, &path))? {
            let read = |r: &rusqlite::Row| -> rusqlite::Result<(i64, String, String, String)> {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
            };
            let (seq, at, body, hash) = read(row).map_err(|e| store_error(e, &path))?;
            let expected = u64::try_from(events.len() + 1).unwrap_or(u64::MAX);
            let Some(seq_u) = u64::try_from(seq).ok().filter(|s| *s == expected) else {
                return Ok(Err((seq, format!("stands where event {expected} belongs"))));
            };
            // Skip a detail without an event (`db check` reports it as orphaned).
            while let Some(d) = detail_row {
                let dseq: i64 = d.get(0).map_err(|e| store_error(e, &path))?;
                if dseq >= seq {
                    break;
                }
                detail_row = details.next().map_err(|e| store_error(e, &path))?;
            }
            let detail: Option<&[u8]> = match detail_row {
                Some(d) if d.get::<_, i64>(0).map_err(|e| store_error(e, &path))? == seq => Some(
                    d.get_ref(1)
                        .and_then(|v| v.as_bytes().map_err(Into::into))
                        .map_err(|e| store_error(e, &path))?,
                ),
                _ => None,
            };
            let computed = event_hash_bytes(&prev, seq_u, &at, &body, detail);
            let body: EventBody = match serde_json::from_str(&body) {
                Ok(b) => b,
                Err(_) => {
                    return Ok(Err((
                        seq,
                        "cannot be read: its stored text is damaged".to_string(),
                    )))
                }
            };
            if computed != hash {
                return Ok(Err((
                    seq,
                    "was changed outside the referee (it no longer matches its hash in the chain)"
                        .to_string(),
                )));
            }
            prev = computed;
            events.push(Event {
                seq: seq_u,
                at,
                body,
            });
        }
        if events.is_empty() {
            return Err(unknown(battle));
        }
        // The head: the last event is the one the battle's row says, and the row is as written.
        let last = events.last().map_or(0, |e| e.seq);
        if u64::try_from(row.head_seq).ok() != Some(last) {
            return Ok(Err((
                row.head_seq,
                format!(
                    "is missing: the battle ends at event {last} but was written up to event {}, so its last events were removed outside the referee",
                    row.head_seq
                ),
            )));
        }
        if head_hash(&row.record(), last, &prev) != row.head_hash {
            return Ok(Err((
                row.head_seq,
                "closes a battle whose name, rules or deletion were changed outside the referee (they no longer match the battle's head)".to_string(),
            )));
        }
        Ok(Ok(events))
    }

    /// The seq of a battle's last event (None: no such battle).
    pub fn last_seq(&mut self, battle: i64) -> Result<Option<u64>, StoreError> {
        let path = self.path.clone();
        let last: Option<i64> = self
            .conn()
            .query_row(
                "SELECT max(seq) FROM events WHERE battle_id = ?1",
                [battle],
                |r| r.get(0),
            )
            .map_err(|e| store_error(e, &path))?;
        Ok(last.and_then(|s| u64::try_from(s).ok()))
    }

    /// The detail (situation and resolution) stored with an event.
    pub fn detail(
        &mut self,
        battle: i64,
        seq: u64,
    ) -> Result<Option<serde_json::Value>, StoreError> {
        let path = self.path.clone();
        let text: Option<String> = self
            .conn()
            .query_row(
                "SELECT detail FROM event_details WHERE battle_id = ?1 AND seq = ?2",
                params![battle, seq_column(seq)?],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| store_error(e, &path))?;
        Ok(text.and_then(|t| serde_json::from_str(&t).ok()))
    }

    /// A battle's events, checked, and their details as stored, read in one snapshot: what an
    /// export writes (a write another process commits meanwhile is in both or in neither).
    #[allow(clippy::type_complexity)]
    pub fn events_and_details(
        &mut self,
        battle: i64,
    ) -> Result<(Vec<Event>, Vec<(u64, Box<serde_json::value::RawValue>)>), StoreError> {
        self.reading(|store| Ok((store.events(battle)?, store.details(battle)?)))
    }

    /// Every detail of a battle, by seq, as the JSON text stored (for export).
    pub fn details(
        &mut self,
        battle: i64,
    ) -> Result<Vec<(u64, Box<serde_json::value::RawValue>)>, StoreError> {
        self.details_in_force(battle, &[])
    }

    /// The details of a battle's events but those `undone`, by seq: the undone are left out by
    /// the query, never read.
    pub fn details_in_force(
        &mut self,
        battle: i64,
        undone: &[u64],
    ) -> Result<Vec<(u64, Box<serde_json::value::RawValue>)>, StoreError> {
        let path = self.path.clone();
        let undone = serde_json::to_string(undone).unwrap_or_else(|_| "[]".into());
        let conn = self.conn();
        let mut stmt = conn
            .prepare(
                "SELECT seq, detail FROM event_details WHERE battle_id = ?1 \
                 AND seq NOT IN (SELECT value FROM json_each(?2)) ORDER BY seq",
            )
            .map_err(|e| store_error(e, &path))?;
        let rows = stmt
            .query_map(params![battle, undone], |r| {
                Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
            })
            .map_err(|e| store_error(e, &path))?;
        let mut out = Vec::new();
        for row in rows {
            let (seq, text) = row.map_err(|e| store_error(e, &path))?;
            if let (Ok(seq), Ok(v)) = (
                u64::try_from(seq),
                serde_json::value::RawValue::from_string(text),
            ) {
                out.push((seq, v));
            }
        }
        Ok(out)
    }

    pub fn battles(&mut self) -> Result<Vec<BattleRow>, StoreError> {
        let path = self.path.clone();
        let conn = self.conn();
        let mut stmt = conn
            .prepare(
                "SELECT b.id, b.name, b.ruleset, b.fingerprint, b.created_at,
                        (SELECT max(at) FROM events e WHERE e.battle_id = b.id),
                        (SELECT count(*) FROM events e WHERE e.battle_id = b.id)
                 FROM battles b WHERE b.deleted_at IS NULL ORDER BY b.id DESC",
            )
            .map_err(|e| store_error(e, &path))?;
        let rows = stmt
            .query_map([], |r| {
                Ok(BattleRow {
                    id: r.get(0)?,
                    name: r.get(1)?,
                    ruleset: r.get(2)?,
                    fingerprint: r.get(3)?,
                    created_at: r.get(4)?,
                    updated_at: r.get::<_, Option<String>>(5)?.unwrap_or_default(),
                    events: r.get(6)?,
                })
            })
            .map_err(|e| store_error(e, &path))?;
        rows.collect::<Result<Vec<_>, _>>()
            .map_err(|e| store_error(e, &path))
    }

    /// Deletes a battle: it leaves the list and can be restored for `KEEP_DELETED_DAYS` days.
    pub fn delete_battle(&mut self, battle: i64) -> Result<(), StoreError> {
        let path = self.path.clone();
        self.before_write();
        let n = self
            .write(|tx| {
                let n = tx.execute(
                    "UPDATE battles SET deleted_at = ?2 WHERE id = ?1 AND deleted_at IS NULL",
                    params![battle, super::now()],
                )?;
                write_head(tx, battle)?;
                Ok(n)
            })
            .map_err(|e| store_error(e, &path))?;
        if n == 0 {
            return Err(unknown(battle));
        }
        Ok(())
    }

    /// The battles deleted lately, the latest first.
    pub fn deleted_battles(&mut self) -> Result<Vec<DeletedBattle>, StoreError> {
        let path = self.path.clone();
        let conn = self.conn();
        let mut stmt = conn
            .prepare(
                "SELECT b.id, b.name, b.ruleset, b.fingerprint, b.created_at,
                        (SELECT max(at) FROM events e WHERE e.battle_id = b.id),
                        (SELECT count(*) FROM events e WHERE e.battle_id = b.id),
                        b.deleted_at
                 FROM battles b WHERE b.deleted_at IS NOT NULL AND b.deleted_at >= ?1
                 ORDER BY b.deleted_at DESC",
            )
            .map_err(|e| store_error(e, &path))?;
        let rows = stmt
            .query_map([kept_since()], |r| {
                let deleted_at: String = r.get(7)?;
                Ok(DeletedBattle {
                    battle: BattleRow {
                        id: r.get(0)?,
                        name: r.get(1)?,
                        ruleset: r.get(2)?,
                        fingerprint: r.get(3)?,
                        created_at: r.get(4)?,
                        updated_at: r.get::<_, Option<String>>(5)?.unwrap_or_default(),
                        events: r.get(6)?,
                    },
                    kept_until: kept_until(&deleted_at),
                    deleted_at,
                })
            })
            .map_err(|e| store_error(e, &path))?;
        rows.collect::<Result<Vec<_>, _>>()
            .map_err(|e| store_error(e, &path))
    }

    /// Brings a deleted battle back to the list, as it was.
    pub fn restore_battle(&mut self, battle: i64) -> Result<(), StoreError> {
        let path = self.path.clone();
        self.before_write();
        let n = self
            .write(|tx| {
                let n = tx.execute(
                    "UPDATE battles SET deleted_at = NULL
                     WHERE id = ?1 AND deleted_at IS NOT NULL AND deleted_at >= ?2",
                    params![battle, kept_since()],
                )?;
                write_head(tx, battle)?;
                Ok(n)
            })
            .map_err(|e| store_error(e, &path))?;
        if n == 0 {
            return Err(StoreError::BattleNotDeleted);
        }
        Ok(())
    }

    /// Lets the battles deleted before `before` go for good (events and details with them).
    pub(crate) fn purge_deleted(
        &mut self,
        before: chrono::DateTime<chrono::Utc>,
    ) -> Result<usize, StoreError> {
        let path = self.path.clone();
        let before = before.to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
        self.conn()
            .execute(
                "DELETE FROM battles WHERE deleted_at IS NOT NULL AND deleted_at < ?1",
                [before],
            )
            .map_err(|e| store_error(e, &path))
    }
}

/// The oldest deletion still restorable: `KEEP_DELETED_DAYS` ago.
fn kept_since() -> String {
    (chrono::Utc::now() - chrono::Duration::days(super::KEEP_DELETED_DAYS))
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// When a battle deleted at `deleted_at` is let go.
fn kept_until(deleted_at: &str) -> String {
    chrono::DateTime::parse_from_rfc3339(deleted_at)
        .map(|at| {
            (at.with_timezone(&chrono::Utc) + chrono::Duration::days(super::KEEP_DELETED_DAYS))
                .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
        })
        .unwrap_or_default()
}
