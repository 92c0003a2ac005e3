//! A Medieval leader on the roster (8.0, 13.0): a leader or a grand leader (8.1.5), the hex he
//! stands in — stacked with his side's units there (8.2.1) — and his fatigue level now (13.1).

use serde::Serialize;
use serde_json::Value;

use super::roster::{hex_field, hex_of};
use crate::contract::Change;
use crate::error::RefereeError;
use crate::rule_system::form::{placed, Field, FieldKind, UnitField};
use crate::state::{QuickEdit, SystemUnit, UnitSpec, UnitState, UnitWords};
use crate::ErrorCode;

/// A leader's row.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct MedievalLeader {
    /// A grand leader: his death costs every unit of his side 1 SP and moves the MORALE track
    /// 12 boxes (8.1.5, 6.1.7). Every leader of range 3 is one (R-MED-41).
    pub grand: bool,
    /// His command range as entered, 2 or 3 (8.1, R-MED-15).
    pub range: Option<u32>,
    /// The hex he stands in (4.5, 8.2.1).
    #[serde(skip)]
    pub hex: Option<String>,
    /// His fatigue level now (13.1): entered as it stands, moved by results and by hand.
    pub fatigue: u32,
    /// The fatigue step set his level this turn: it changes once a turn only (13.1.6).
    #[serde(skip)]
    pub fatigue_set: bool,
    /// Any other notes the umpire entered, as entered (battles recorded before leaders were typed
    /// wrote free notes).
    #[serde(skip)]
    pub notes: serde_json::Map<String, Value>,
}

impl SystemUnit for MedievalLeader {
    fn entry(&self) -> serde_json::Result<Value> {
        let mut entry = self.notes.clone();
        if let Some(range) = self.range {
            entry.insert("range".into(), Value::from(range));
        }
        if self.grand {
            entry.insert("grand".into(), Value::from(true));
        }
        if self.fatigue > 0 {
            entry.insert("fatigue".into(), Value::from(self.fatigue));
        }
        let mut entry = Value::Object(entry);
        placed(&mut entry, &self.hex);
        Ok(entry)
    }
}

impl MedievalLeader {
    /// His command range: a grand leader's 3 (8.1.5), else as entered, 2 by default (8.1,
    /// R-MED-15).
    pub fn command_range(&self) -> u32 {
        if self.grand {
            3
        } else {
            self.range.unwrap_or(2)
        }
    }
}

/// A leader as entered. Values of another kind than the form's are kept as notes, never refused:
/// a leader's row of an older battle folds as it did.
pub fn enter(spec: &UnitSpec) -> Result<MedievalLeader, RefereeError> {
    if !spec.stats.is_object() && !spec.stats.is_null() {
        return Err(RefereeError::new(
            ErrorCode::BattleInvalidUnit,
            "a leader's values are whether he is a grand leader, his hex and his fatigue",
        ));
    }
    // A hex of another kind (a leader's row of an older battle held free notes) stays a note as
    // the battle folds; a leader added or corrected now is refused it (`check`).
    let (stats, hex) = hex_of(&spec.stats).unwrap_or_else(|_| (spec.stats.clone(), None));
    let mut notes = stats.as_object().cloned().unwrap_or_default();
    // A value of the form's kind is taken out of the notes; any other stays a note.
    let mut taken = |key: &str, fits: fn(&Value) -> bool| {
        if notes.get(key).is_some_and(fits) {
            notes.remove(key)
        } else {
            None
        }
    };
    let small = |v: &Value| v.as_u64().is_some_and(|n| n <= 100);
    let range = taken("range", |v| {
        v.as_u64().is_some_and(|r| (2..=3).contains(&r))
    })
    .and_then(|v| v.as_u64())
    .and_then(|r| u32::try_from(r).ok());
    let fatigue = taken("fatigue", small)
        .and_then(|v| v.as_u64())
        .and_then(|f| u32::try_from(f).ok())
        .unwrap_or(0);
    let grand = taken("grand", Value::is_boolean)
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
        || range == Some(3);
    Ok(MedievalLeader {
        grand,
        range,
        hex,
        fatigue,
        fatigue_set: false,
        notes,
    })
}

/// A leader the umpire adds or corrects now: his hex is one the map prints (4.5). Never checked as
/// a battle folds: an older row's hex of another kind is kept as a note.
pub fn check(spec: &UnitSpec) -> Result<(), RefereeError> {
    hex_of(&spec.stats).map(|_| ())
}

/// What a leader's row asks: grand or not, his hex, his fatigue.
pub fn fields() -> Vec<UnitField> {
    vec![
        Field::new("grand", "Grand leader", "8.1.5", FieldKind::Toggle).help(
            "Command range 3: his death costs every unit of his side 1 SP and moves the MORALE track 12 boxes.",
        ),
        hex_field(),
        Field::new("fatigue", "Fatigue", "13.1.2", FieldKind::Number)
            .default(Value::from(0))
            .range(Some(0), Some(20))
            .help("His fatigue level now: 0 when the battle begins, unless the scenario says otherwise."),
    ]
    .into_iter()
    .map(|f| f.0)
    .collect()
}

/// A change on a leader's row: his fatigue, one level up or down, never below 0, or the level a
/// fatigue step gives (13.1.3–13.1.6).
pub fn land(own: &mut MedievalLeader, change: &Change) -> bool {
    match change {
        Change::Fatigue { by } => {
            own.fatigue = own.fatigue.saturating_add_signed(*by);
            true
        }
        Change::FatigueLevel { level } => {
            own.fatigue = *level;
            own.fatigue_set = true;
            true
        }
        // 8.2.6, 8.2.7, R-MED-44: he stops where his units' retreat along the route stops.
        Change::RetreatTo { hex } => {
            own.hex = Some(hex.clone());
            true
        }
        // 8.2.1, R-MED-45: stacked with the pursuer, he ends its pursuit with it.
        Change::EntersHex { hex } => {
            own.hex = Some(hex.clone());
            true
        }
        _ => false,
    }
}

/// 13.1.6: a result setting his fatigue a second time in one turn is refused (the fatigue step
/// once a turn per leader, R-MED-48); the umpire's own edits are not results.
pub fn refuse(unit: &UnitState, own: &MedievalLeader, change: &Change) -> Option<RefereeError> {
    match change {
        Change::FatigueLevel { .. } if own.fatigue_set => Some(
            RefereeError::new(
                ErrorCode::BattleOncePerTurn,
                format!(
                    "{}'s fatigue was already set this turn: it changes by 1 level in a turn only; undo that step to set it again.",
                    unit.label
                ),
            )
            .rule("13.1.6")
            .ruling("R-MED-48"),
        ),
        _ => None,
    }
}

/// A correction of his row keeps the turn's fatigue step: the row corrected is not a new turn
/// (13.1.6, R-MED-48).
pub fn keep(old: &MedievalLeader, new: &mut MedievalLeader) {
    new.fatigue_set = old.fatigue_set;
}

/// A new turn: his fatigue may be set again (13.1.6).
pub fn at_turn_end(unit: &mut UnitState) {
    if let Some(own) = unit.detail_mut::<MedievalLeader>() {
        own.fatigue_set = false;
    }
}

/// A leader in the rules' words: "Grand leader", "fatigue 2"; his hex is his place.
pub fn words(unit: &UnitState, leader: &MedievalLeader) -> UnitWords {
    let mut parts = Vec::new();
    if unit.lost {
        parts.push("lost".to_string());
    }
    crate::rule_system::leader_parts(unit, &mut parts);
    parts.push(format!("fatigue {}", leader.fatigue));
    let q = |label: &str, by: i32| QuickEdit {
        label: label.into(),
        change: Change::Fatigue { by },
        opens: None,
    };
    UnitWords {
        opens_move: None,
        type_name: if leader.grand {
            "Grand leader".into()
        } else {
            "Leader".into()
        },
        summary: parts.join(", "),
        // 13.1.3–13.1.5: up when he moved or led a combat, down by 1 when it did not rise.
        quick_edits: if unit.lost {
            Vec::new()
        } else {
            std::iter::once(q("Fatigue +1", 1))
                .chain((leader.fatigue > 0).then(|| q("Fatigue −1", -1)))
                .collect()
        },
        place: leader.hex.as_ref().map(|h| format!("Hex {h}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::Role;
    use serde_json::json;

    fn leader(stats: Value) -> MedievalLeader {
        enter(&UnitSpec {
            label: "Komtur".into(),
            side: "Order".into(),
            command: None,
            role: Role::Leader,
            stats,
        })
        .unwrap()
    }

    #[test]
    fn a_leader_of_range_3_is_a_grand_leader_and_old_notes_are_kept() {
        assert!(leader(json!({ "range": 3 })).grand);
        assert!(!leader(json!({ "range": 2 })).grand);
        let marked = leader(json!({ "grand": true, "hex": "12.05", "fatigue": 2 }));
        assert_eq!(
            (marked.grand, marked.hex.as_deref(), marked.fatigue),
            (true, Some("12.05"), 2)
        );
        assert_eq!(
            marked.entry().unwrap(),
            json!({ "grand": true, "hex": "12.05", "fatigue": 2 })
        );
        // A note of another kind stays a note, as entered.
        let old = leader(json!({ "range": 2, "rating": "bold" }));
        assert_eq!(
            old.entry().unwrap(),
            json!({ "range": 2, "rating": "bold" })
        );
    }

    #[test]
    fn an_older_rows_hex_of_another_kind_folds_as_a_note_but_is_refused_now() {
        let spec = UnitSpec {
            label: "Komtur".into(),
            side: "Order".into(),
            command: None,
            role: Role::Leader,
            stats: json!({ "hex": true, "rating": "bold" }),
        };
        let old = enter(&spec).unwrap();
        assert_eq!(old.hex, None);
        assert_eq!(
            old.entry().unwrap(),
            json!({ "hex": true, "rating": "bold" })
        );
        let e = check(&spec).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("hex"));
        assert!(check(&UnitSpec {
            stats: json!({ "hex": "12.05" }),
            ..spec
        })
        .is_ok());
    }

    #[test]
    fn fatigue_moves_a_level_at_a_time_and_never_below_0() {
        let mut l = leader(json!({}));
        assert!(land(&mut l, &Change::Fatigue { by: 1 }));
        assert!(land(&mut l, &Change::Fatigue { by: -1 }));
        assert!(land(&mut l, &Change::Fatigue { by: -1 }));
        assert_eq!(l.fatigue, 0);
        assert!(!land(&mut l, &Change::Scatter));
    }

    #[test]
    fn a_corrected_row_keeps_the_turns_fatigue_step() {
        // 13.1.6, R-MED-48: the step set his level this turn; the row typed again is no new turn.
        let mut was = leader(json!({}));
        assert!(land(&mut was, &Change::FatigueLevel { level: 1 }));
        let mut now = leader(json!({ "fatigue": 1, "hex": "12.05" }));
        assert!(!now.fatigue_set);
        keep(&was, &mut now);
        assert!(now.fatigue_set);
        assert_eq!(now.fatigue, 1);
    }
}
