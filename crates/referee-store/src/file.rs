//! The battle file: one battle's events (and their details) as versioned JSON, for export and
//! import. Parsing is strict: unknown fields and wrong types are refused with their path.

use serde::{Deserialize, Serialize};

use super::error::StoreError;
use referee_core::battle::{Event, EventBody};

pub const FORMAT: &str = "referee-battle";
/// The newest version this referee writes and reads. Version 2 adds unit edits and removals
/// (`unit_edited`, `unit_removed`); version 3 adds the client's key on an applied result
/// (`apply_key`); version 4 adds each event's `hash`, chained to the one before; version 5 adds
/// the chain's `head` (the last event's seq and hash), so a file whose last events were cut off
/// is caught. A battle is written as the oldest version that holds what it carries (with hashes
/// and head, as every export now does: 5), so an older referee refuses a newer file plainly
/// ("update the app"). Files without hashes (versions 1 to 3) or without a head (4) still import.
pub const FORMAT_VERSION: u32 = 5;

/// The version a battle file of these events is written as: the oldest that holds them (and
/// their hashes and the chain's head, if `hashed`).
pub fn version_for<'e>(bodies: impl IntoIterator<Item = &'e EventBody>, hashed: bool) -> u32 {
    let events = bodies
        .into_iter()
        .map(|b| match b {
            EventBody::Applied {
                apply_key: Some(_), ..
            } => 3,
            EventBody::UnitEdited { .. } | EventBody::UnitRemoved { .. } => 2,
            _ => 1,
        })
        .max()
        .unwrap_or(1);
    if hashed {
        events.max(5)
    } else {
        events
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BattleFile {
    pub format: String,
    pub version: u32,
    pub ruleset: String,
    pub fingerprint: String,
    pub events: Vec<FileEvent>,
    /// The chain's head: the last event's seq and hash (version 5). A file cut short no longer
    /// ends at its head.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head: Option<FileHead>,
}

/// Where a battle's chain ends: its last event's seq and hash.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileHead {
    pub seq: u64,
    pub hash: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileEvent {
    pub seq: u64,
    pub at: String,
    pub body: EventBody,
    /// The situation and resolution of an applied event, kept as the JSON text it was stored as.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<Box<serde_json::value::RawValue>>,
    /// The event's hash, chained to the one before it (version 4; see chain.rs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash: Option<String>,
}

impl BattleFile {
    /// Reads a battle file, checking its format and version before its contents.
    pub fn parse(text: &str) -> Result<BattleFile, StoreError> {
        // Only the head first (the rest is skipped, not built): a big file is not held twice.
        #[derive(Deserialize)]
        struct Head {
            #[serde(default)]
            format: serde_json::Value,
            #[serde(default)]
            version: serde_json::Value,
        }
        let value: Head = serde_json::from_str(text).map_err(|_| StoreError::FileNotJson)?;
        if value.format.as_str() != Some(FORMAT) {
            return Err(StoreError::FileNotABattle);
        }
        match value.version.as_u64() {
            Some(v) if v > u64::from(FORMAT_VERSION) => {
                return Err(StoreError::FileNewer { version: v })
            }
            _ => {}
        }
        let mut de = serde_json::Deserializer::from_str(text);
        serde_path_to_error::deserialize(&mut de).map_err(|e| StoreError::FileInvalid {
            at: e.path().to_string(),
            why: referee_core::error::plain_serde_error(
                &e.inner().to_string(),
                &e.path().to_string(),
            ),
        })
    }
}

impl BattleFile {
    /// Every event's hash checked against the chain, when the file carries hashes (all of its
    /// events, or none: a file from before version 4), and the chain's head, which every file
    /// from version 5 on carries: a file whose last events were cut off ends before its head.
    pub fn check_chain(&self) -> Result<(), StoreError> {
        let hashed = self.events.iter().filter(|e| e.hash.is_some()).count();
        let damaged = |what: &str, field: &str| StoreError::FileDamaged {
            what: what.to_string(),
            at: field.to_string(),
        };
        if self.version >= 5 && (self.head.is_none() || hashed == 0) {
            return Err(damaged(
                "the battle file lacks the hashes that mark where its events end",
                "head",
            ));
        }
        if hashed == 0 {
            return Ok(());
        }
        let mut prev = super::chain::CHAIN_START.to_string();
        for (i, e) in self.events.iter().enumerate() {
            let computed = super::chain::event_hash(
                &prev,
                e.seq,
                &e.at,
                &e.body,
                e.detail.as_ref().map(|d| d.get()),
            );
            if e.hash.as_deref() != Some(computed.as_str()) {
                let what = if e.hash.is_none() {
                    "has no hash while others do"
                } else {
                    "was changed after the battle was exported (it no longer matches its hash)"
                };
                return Err(damaged(
                    &format!("event {} of the battle file {what}", e.seq),
                    &format!("events[{i}].hash"),
                ));
            }
            prev = computed;
        }
        if let Some(head) = &self.head {
            let last = self.events.last().map(|e| e.seq).unwrap_or(0);
            if head.seq != last || head.hash != prev {
                return Err(damaged(
                    &format!(
                        "the battle file ends at event {last}, but it was exported with {} events: events were cut off or changed at its end",
                        head.seq
                    ),
                    "head",
                ));
            }
        }
        Ok(())
    }
}

impl FileEvent {
    pub fn event(&self) -> Event {
        Event {
            seq: self.seq,
            at: self.at.clone(),
            body: self.body.clone(),
        }
    }
}
