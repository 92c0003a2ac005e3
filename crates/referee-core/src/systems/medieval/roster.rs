//! Medieval counters on a battle's roster: the unit form, a unit's preview, the typed state of
//! a counter (SPs, charge factor, scattered: 1.2, 5.6, 9.1), how a result's changes land on it,
//! and its words.

use serde::Serialize;
use serde_json::Value;

use super::data::{MedievalData, UnitType};
use super::units::{unit, MedUnit};
use crate::contract::{Change, Chooser};
use crate::error::RefereeError;
use crate::rule_system::form::{
    option_label, placed, printed, with_default, Field, FieldKind, PrintedValue, UnitField,
    UnitOption, UnitPreview,
};
use crate::rule_system::resolve::parse_situation;
use crate::state::{QuickEdit, SystemUnit, UnitSpec, UnitState, UnitWords};
use crate::ErrorCode;

/// A counter on the roster.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MedievalCounter {
    /// The counter as entered, its SPs those it began with; its charge factor is the one it has
    /// now (5.6), as the form asks it. Shown as the unit's entry, not again in its state.
    #[serde(skip)]
    pub entry: MedUnit,
    /// The map hex it stands in, as the umpire numbers it ("12.05"); none when not given. The
    /// units of one side on a hex are one stack, with the leader standing there (4.5, 8.2.1).
    #[serde(skip)]
    pub hex: Option<String>,
    /// On the Scattered Units track (9.1).
    pub scattered: bool,
    /// How many of its side's banners it holds (7.1.1, 7.1.4, R-MED-49): entered so, or taken
    /// and passed on by changes.
    pub banners: u32,
    /// The hex its last retreat along a route left: the first hex of a pursuit after it
    /// (5.5.5, R-MED-45).
    #[serde(skip)]
    pub left: Option<String>,
}

impl SystemUnit for MedievalCounter {
    fn entry(&self) -> serde_json::Result<Value> {
        let mut entry = serde_json::to_value(&self.entry)?;
        placed(&mut entry, &self.hex);
        if let (Some(map), true) = (entry.as_object_mut(), self.banners > 0) {
            map.insert("banner".into(), Value::from(self.banners));
        }
        Ok(entry)
    }
}

/// The hex a roster entry's stats name (4.5), apart from what the counter is.
pub fn hex_of(stats: &Value) -> Result<(Value, Option<String>), RefereeError> {
    crate::rule_system::form::hex_of(stats, "4.5")
}

/// A counter's stats apart from what the counter is: the stats left, its hex, and how many
/// banners it holds (a yes of an older row: one).
fn placed_parts(stats: &Value) -> Result<(Value, Option<String>, u32), RefereeError> {
    let (mut stats, hex) = hex_of(stats)?;
    let banner = match stats.as_object_mut().and_then(|m| m.remove("banner")) {
        None | Some(Value::Null) => 0,
        Some(Value::Bool(b)) => u32::from(b),
        Some(Value::Number(n)) if n.as_u64().is_some_and(|n| n <= u64::from(MOST_BANNERS)) => {
            n.as_u64().and_then(|n| u32::try_from(n).ok()).unwrap_or(0)
        }
        Some(_) => {
            return Err(RefereeError::new(
                ErrorCode::UnitInvalid,
                format!("the banners a unit holds are a number from 0 to {MOST_BANNERS}"),
            )
            .field("banner")
            .rule("7.1"))
        }
    };
    Ok((stats, hex, banner))
}

/// The most banners one counter is entered with: more than a side's leaders ever place (7.1.1).
const MOST_BANNERS: u32 = 9;

/// A regular unit: cavalry, or infantry that does not shoot (1.3); only one holds a banner
/// (7.1.2, 7.1.4).
fn regular(d: &MedievalData, own: &MedievalCounter) -> bool {
    d.unit_types
        .get(&own.entry.unit_type)
        .is_some_and(|t| t.cavalry || t.ranged.is_none())
}

impl MedievalCounter {
    /// The counter as a situation takes it now: the SPs it has left (1.2).
    pub fn now(&self, strength: u32) -> MedUnit {
        MedUnit {
            sp: strength,
            ..self.entry.clone()
        }
    }
}

/// A counter checked by the rules; each counter is its own roster entry.
pub fn enter(data: &MedievalData, spec: &UnitSpec) -> Result<(u32, MedievalCounter), RefereeError> {
    let (stats, hex, banner) = placed_parts(&spec.stats)?;
    let mut entry: MedUnit = parse_situation(&stats)?;
    // A type typed in words ("Heavy cavalry") is kept by its chart key.
    entry.unit_type = unit(data, &entry, "")?.key;
    if entry.count != 1 {
        return Err(RefereeError::new(
            ErrorCode::BattleOneUnitPerEntry,
            "enter each Medieval counter as its own roster entry (count 1): SP losses and scatters land on one counter",
        )
        .field("count")
        .rule("1.2"));
    }
    Ok((
        entry.sp,
        MedievalCounter {
            entry,
            hex,
            scattered: false,
            banners: banner,
            left: None,
        },
    ))
}

/// A counter the umpire adds or corrects: one a hex can hold, since every combat refuses a hex
/// over its stacking limit (4.5.1). Never checked as a battle folds.
pub fn check_entry(data: &MedievalData, stats: &Value) -> Result<(), RefereeError> {
    let (stats, _, banner) = placed_parts(stats)?;
    // Stats that do not read as a unit are the form's to name, field by field.
    let Ok(entry) = parse_situation::<MedUnit>(&with_default(&stats, "count", Value::from(1)))
    else {
        return Ok(());
    };
    let u = unit(data, &entry, "")?;
    if banner > 0 && !(u.cavalry || u.ranged.is_none()) {
        return Err(RefereeError::new(
            ErrorCode::UnitInvalid,
            format!(
                "{} cannot hold a banner: only a regular unit does, cavalry or infantry that does not shoot",
                u.name
            ),
        )
        .field("banner")
        .rule("7.1.2, 1.3"));
    }
    let limit = data.movement.stacking_sp;
    let sp = super::units::sp_of(std::slice::from_ref(&u), |_| true);
    if sp > limit {
        return Err(RefereeError::new(
            ErrorCode::BattleOverStacking,
            format!(
                "{sp} SPs on one counter: a hex holds {limit} SPs at most, so no combat could take it; enter it as counters of {limit} SPs or fewer"
            ),
        )
        .field("sp")
        .rule("4.5.1"));
    }
    Ok(())
}

/// An edit keeps the counter on the Scattered Units track if it was, and the hex its retreat
/// left; its banner is the entry's.
pub fn keep(old: &MedievalCounter, new: &mut MedievalCounter) {
    new.scattered = old.scattered;
    new.left = old.left.clone();
}

/// A foot ranged unit: it has a combat side and a movement side (10.1.1).
fn has_formations(d: &MedievalData, own: &MedievalCounter) -> bool {
    d.unit_types
        .get(&own.entry.unit_type)
        .is_some_and(|t| t.ranged.is_some() && !t.cavalry)
}

pub fn land(
    d: &MedievalData,
    unit: &mut UnitState,
    own: &mut MedievalCounter,
    change: &Change,
) -> bool {
    match change {
        Change::LoseSp { count, .. } | Change::LoseUnits { count, .. } => {
            unit.strength = unit.strength.saturating_sub(*count)
        }
        Change::DestroyAll => unit.strength = 0,
        Change::Scatter => own.scattered = true,
        // 9.1.6: back on the map, to fight again.
        Change::Regroup => own.scattered = false,
        // 10.1.1, 10.1.3: only a ranged unit has a movement side.
        Change::Formation { movement }
            if has_formations(d, own) && own.entry.movement_formation != *movement =>
        {
            own.entry.movement_formation = *movement
        }
        Change::Formation { .. } => return false,
        // The battle moves the track when the unit is lost by the result (6.1.4).
        Change::MoraleIfEliminated { .. } => {}
        Change::ReduceChargeFactor { by } => own.entry.cf = own.entry.cf.saturating_sub(*by),
        Change::ResetChargeFactor => own.entry.cf = 0,
        // 7.1.4, R-MED-49: a regular unit takes banners or passes them on, one by default.
        Change::Banner { held: true, count } if regular(d, own) => {
            own.banners = own.banners.saturating_add(count.unwrap_or(1))
        }
        Change::Banner { held: false, count } => {
            own.banners = own.banners.saturating_sub(count.unwrap_or(1))
        }
        // 5.4.2, R-MED-44: the retreat ends on the route's hex; the next fight reads it there.
        Change::RetreatTo { hex } => own.left = own.hex.replace(hex.clone()),
        // 5.5, R-MED-45: the pursuit ends on the last hex of its route it enters.
        Change::EntersHex { hex } => own.hex = Some(hex.clone()),
        _ => return false,
    }
    true
}

/// The counter in the rules' words: "1/2, scattered, CF 1".
pub fn words(data: &MedievalData, unit: &UnitState, own: &MedievalCounter) -> UnitWords {
    let t = data.unit_types.get(&own.entry.unit_type);
    let mut parts = vec![format!("{}/{}", unit.strength, unit.starting)];
    if unit.lost {
        parts.push("lost".into());
    }
    if own.scattered {
        parts.push("scattered".into());
    }
    match own.banners {
        _ if unit.lost => {}
        0 => {}
        1 => parts.push("holds a banner".into()),
        n => parts.push(format!("holds {n} banners")),
    }
    let formations = has_formations(data, own);
    if formations {
        parts.push(
            if own.entry.movement_formation {
                "movement formation"
            } else {
                "combat formation"
            }
            .into(),
        );
    }
    // Only cavalry charge (5.6.1).
    if t.is_some_and(|t| t.cavalry) {
        parts.push(format!("CF {}", own.entry.cf));
    }
    crate::rule_system::leader_parts(unit, &mut parts);
    let q = |label: &str, change: Change| QuickEdit {
        label: label.into(),
        change,
        opens: None,
    };
    UnitWords {
        opens_move: None,
        type_name: t
            .map(|t| option_label(&own.entry.unit_type, &t.name))
            .unwrap_or_else(|| own.entry.unit_type.clone()),
        summary: parts.join(", "),
        quick_edits: if unit.lost {
            Vec::new()
        } else {
            vec![
                q(
                    "−1 SP",
                    Change::LoseSp {
                        count: 1,
                        chosen_by: Chooser::Defender,
                    },
                ),
                q("CF −1", Change::ReduceChargeFactor { by: 1 }),
                q("Scatter", Change::Scatter),
            ]
            .into_iter()
            // 7.1.4: the holder passes a banner on, a regular unit takes one (R-MED-49: one
            // more, for a holder).
            .chain((regular(data, own) && own.banners > 0).then(|| {
                q(
                    "Passes a banner on",
                    Change::Banner {
                        held: false,
                        count: None,
                    },
                )
            }))
            .chain(regular(data, own).then(|| {
                let label = if own.banners > 0 {
                    "Takes another banner"
                } else {
                    "Takes a banner"
                };
                q(
                    label,
                    Change::Banner {
                        held: true,
                        count: None,
                    },
                )
            }))
            // 10.1.3: a ranged unit turns its counter.
            .chain(formations.then(|| {
                let movement = !own.entry.movement_formation;
                q(
                    if movement {
                        "To movement formation"
                    } else {
                        "To combat formation"
                    },
                    Change::Formation { movement },
                )
            }))
            .collect()
        },
        place: own.hex.as_ref().map(|h| format!("Hex {h}")),
    }
}

fn type_values(d: &MedievalData, t: &UnitType) -> (Vec<String>, Vec<PrintedValue>) {
    let mut fills = vec!["armour".to_string()];
    let mut values = vec![
        printed(
            "Arm",
            if t.cavalry { "Cavalry" } else { "Infantry" },
            &t.rule,
        ),
        printed("Armour level", t.armour, &t.rule),
    ];
    if !t.cavalry {
        fills.push("cf".to_string());
        values.push(printed(
            "Charge factor",
            "none: only cavalry charge",
            "5.6.1",
        ));
    }
    if let Some(r) = &t.ranged {
        let (name, rule) = d
            .fire
            .get(r)
            .map(|f| (f.name.clone(), f.rule.clone()))
            .unwrap_or_else(|| (r.clone(), t.rule.clone()));
        values.push(printed("Fires with", name, &rule));
    }
    if t.no_charge_modifier {
        values.push(printed("Charge modifier", "none", &t.rule));
    }
    (fills, values)
}

pub fn fields(d: &MedievalData) -> Vec<UnitField> {
    let types = d
        .unit_types
        .iter()
        .map(|(k, t)| {
            let (fills, printed) = type_values(d, t);
            UnitOption {
                key: k.clone(),
                label: option_label(k, &t.name),
                unit_label: Some(t.name.clone()),
                fills,
                printed,
            }
        })
        .collect();
    let max_cf = i32::try_from(d.combat.max_charge_factor).unwrap_or(i32::MAX);
    let stacking = i32::try_from(d.movement.stacking_sp).unwrap_or(i32::MAX);
    vec![
        Field::new("type", "Unit type", "1.1", FieldKind::Choice)
            .required()
            .options(types),
        Field::new("sp", "Strength points (SP)", "1.2, 1.3, 4.5.1", FieldKind::Number)
            .required()
            .range(Some(1), Some(stacking))
            .help(&format!("The strength points on the counter when the battle begins: a hex holds {stacking} at most.")),
        Field::new("armour", "Armour level", "1.1", FieldKind::Number)
            .range(Some(0), Some(2))
            .help("The shields on the counter, from 0 to 2; the unit type gives it."),
        Field::new("cf", "Charge factor (CF)", "5.6", FieldKind::Number)
            .default(Value::from(0))
            .range(Some(0), Some(max_cf))
            .help("Cavalry only: the charge factor the unit has now."),
        hex_field(),
        // One unit's banner is not the next unit's: the form clears it once a unit is added.
        Field::new("banner", "Banners held", "7.1.1, 7.1.4", FieldKind::Number)
            .once()
            .default(Value::from(0))
            .range(Some(0), i32::try_from(MOST_BANNERS).ok())
            .help(
                "How many of its side's banners it holds, usually 0 or 1: its stack gains 1 CM (7.1.7); if it is eliminated with no friend left on its hex, each banner falls (7.1.5).",
            ),
    ]
    .into_iter()
    .map(|f| f.0)
    .collect()
}

/// Where a counter or a leader stands: one side's counters on a hex are a stack, and the leader
/// there is stacked with them (4.5, 8.2.1). Asked of each counter anew: a hex holds 2 SPs, so the
/// next counter rarely stands on the last one's.
pub fn hex_field() -> Field {
    Field::new("hex", "Hex", "4.5, 8.2.1", FieldKind::Text)
        .help(
            "The number the map prints on the hex it stands in. Units and a leader of one side in one hex are a stack: they fight together.",
        )
        .once()
}

/// A unit's values from the tables, as the form is filled in.
pub fn preview(d: &MedievalData, stats: &Value) -> Result<UnitPreview, RefereeError> {
    let (stats, _, _) = placed_parts(stats)?;
    let entry: MedUnit = parse_situation(&with_default(&stats, "count", Value::from(1)))?;
    let unit = unit(d, &entry, "")?;
    let Some(t) = d.unit_types.get(&unit.key) else {
        return Err(RefereeError::new(
            ErrorCode::SituationUnknownUnitType,
            "pick the unit type from the list",
        )
        .field("type"));
    };
    let mut values = type_values(d, t).1;
    if let Some(v) = values.iter_mut().find(|v| v.label == "Armour level") {
        v.value = unit.armour.to_string();
    }
    values.insert(0, printed("Strength points", unit.sp, "1.2"));
    if t.cavalry {
        values.push(printed("Charge factor", unit.cf, "5.6"));
    }
    let mut summary = format!("{}, {} SP, armour {}", unit.name, unit.sp, unit.armour);
    if t.cavalry {
        summary.push_str(&format!(", CF {}", unit.cf));
    }
    Ok(UnitPreview { summary, values })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_counter_holds_a_count_of_banners_an_older_yes_being_one() {
        // 7.1.1, 7.1.4, R-MED-49: a holder may be given a second banner.
        let count = |stats: Value| placed_parts(&stats).map(|(_, _, n)| n);
        assert_eq!(count(json!({ "sp": 2 })).unwrap(), 0);
        assert_eq!(count(json!({ "banner": true })).unwrap(), 1);
        assert_eq!(count(json!({ "banner": false })).unwrap(), 0);
        assert_eq!(count(json!({ "banner": 2 })).unwrap(), 2);
        for bad in [json!({ "banner": 10 }), json!({ "banner": "two" })] {
            let e = count(bad).unwrap_err();
            assert_eq!(e.field.as_deref(), Some("banner"));
            assert!(e.message.contains("from 0 to 9"), "{}", e.message);
        }
    }
}
