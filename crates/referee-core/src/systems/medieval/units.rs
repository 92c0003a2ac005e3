//! Units as the umpire enters them, checked against the ruleset: type, SPs, armour, charge
//! factor; group values (1.7, R-MED-9); stacking (4.5.1, 11.1.8).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::rule_system::resolve::{is_false, is_zero};
use ts_rs::TS;

use super::data::{MedievalData, Terrain};
use crate::error::RefereeError;
use crate::ErrorCode;

fn one() -> u32 {
    1
}

fn is_one(n: &u32) -> bool {
    *n == 1
}

/// A unit: its type and what its counter shows now.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "MedievalUnit")]
pub struct MedUnit {
    /// The unit's type (UNIT TYPES chart).
    #[serde(rename = "type")]
    #[ts(rename = "type")]
    pub unit_type: String,
    /// Strength points now (1.2); a ranged unit on its movement side may be entered with the
    /// SP 0 its counter shows there, or with its combat side's SPs, which count for stacking
    /// (10.1.1).
    pub sp: u32,
    /// Armour level from the counter's shields, 0–2 (default: the type's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub armour: Option<u32>,
    /// Current charge factor, 0–3 (5.6); infantry have 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    #[ts(optional, as = "Option<u32>")]
    pub cf: u32,
    /// Identical units.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    #[ts(optional, as = "Option<u32>")]
    pub count: u32,
    /// A ranged unit in movement formation (10.1.1); default: combat formation.
    #[serde(default, skip_serializing_if = "is_false")]
    #[ts(optional, as = "Option<bool>")]
    pub movement_formation: bool,
}

/// A unit with its type's values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    pub key: String,
    pub name: String,
    pub sp: u32,
    pub armour: u32,
    pub cf: u32,
    pub count: u32,
    pub cavalry: bool,
    pub ranged: Option<String>,
    pub no_charge_modifier: bool,
    pub scatter: String,
    pub movement_formation: bool,
}

/// The UNIT TYPES chart's key of a type as given: its key, or its name or key in words, in any
/// case ("Heavy cavalry", "heavy cavalry"), as the refusal of an unknown type lists them.
pub fn type_key<'d>(data: &'d MedievalData, given: &str) -> Option<&'d String> {
    if let Some((key, _)) = data.unit_types.get_key_value(given) {
        return Some(key);
    }
    let plain = |s: &str| s.trim().to_lowercase().replace([' ', '-'], "_");
    let wanted = plain(given);
    data.unit_types
        .iter()
        .find(|(k, t)| plain(k) == wanted || plain(&t.name) == wanted)
        .map(|(k, _)| k)
}

/// Resolves one unit entry, refusing what the rules forbid.
pub fn unit(data: &MedievalData, e: &MedUnit, field: &str) -> Result<Unit, RefereeError> {
    let key = type_key(data, &e.unit_type);
    let t = key.and_then(|k| data.unit_types.get(k)).ok_or_else(|| {
        RefereeError::new(
            ErrorCode::SituationUnknownUnitType,
            format!(
                "unknown unit type {}; the ruleset knows {}",
                crate::error::given(&e.unit_type),
                crate::error::choices(data.unit_types.keys())
            ),
        )
        .field(format!("{field}.type"))
        .rule("1.1")
    })?;
    let armour = e.armour.unwrap_or(t.armour);
    if armour > 2 {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidArmour,
            format!("armour level {armour}: armour levels are 0, 1 and 2"),
        )
        .field(format!("{field}.armour"))
        .rule("1.1"));
    }
    let max_cf = data.combat.max_charge_factor;
    if e.cf > max_cf {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidChargeFactor,
            format!("charge factor {}: it runs from 0 to {max_cf}", e.cf),
        )
        .field(format!("{field}.cf"))
        .rule("5.6.2"));
    }
    if e.cf > 0 && !t.cavalry {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidChargeFactor,
            format!("{} have no charge factor: only cavalry charge", t.name),
        )
        .field(format!("{field}.cf"))
        .rule("5.6.1"));
    }
    // 10.1.1, 10.5.1: only foot archers, crossbowmen and bombards have a movement side; horse
    // archers are cavalry and have none.
    if e.movement_formation && (t.ranged.is_none() || t.cavalry) {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidFormation,
            format!(
                "{} have no movement formation: only archers, crossbowmen and bombards turn their counters",
                t.name
            ),
        )
        .field(format!("{field}.movement_formation"))
        .rule(if t.cavalry { "10.5.1" } else { "10.1.1" }));
    }
    // A ranged unit on its movement side may be entered as the counter stands there, SP 0
    // (10.1.1); it then fights with none, as it would anyway.
    let movement_side_as_printed = e.sp == 0 && e.movement_formation;
    if (e.sp == 0 && !movement_side_as_printed) || e.count == 0 {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidStrength,
            "a unit with 0 SPs is eliminated: leave it out",
        )
        .field(format!("{field}.sp"))
        .rule("1.2"));
    }
    Ok(Unit {
        key: key.cloned().unwrap_or_default(),
        name: t.name.clone(),
        sp: e.sp,
        armour,
        cf: e.cf,
        count: e.count,
        cavalry: t.cavalry,
        ranged: t.ranged.clone(),
        no_charge_modifier: t.no_charge_modifier,
        // R-MED-22: a counter whose armour differs from its type's is read on the column of its
        // own armour.
        scatter: t
            .scatter_by_armour
            .get(armour as usize)
            .unwrap_or(&t.scatter)
            .clone(),
        movement_formation: e.movement_formation,
    })
}

impl Unit {
    /// A ranged unit in direct combat (10.3): archers, crossbowmen, bombards. Horse archers are
    /// cavalry there (10.5.1: "[10.3] doesn't apply").
    pub fn fights_as_ranged(&self) -> bool {
        self.ranged.is_some() && !self.cavalry
    }

    /// The SPs it fights with: none on its movement side (10.1.1), though they count for
    /// stacking.
    pub fn combat_sp(&self) -> u32 {
        if self.fights_as_ranged() && self.movement_formation {
            0
        } else {
            self.sp * self.count
        }
    }
}

/// The SPs of the units that `keep` picks, as they count for stacking (4.5.1).
pub fn sp_of(units: &[Unit], keep: impl Fn(&Unit) -> bool) -> u32 {
    units
        .iter()
        .filter(|u| keep(u))
        .map(|u| u.sp * u.count)
        .sum()
}

/// Resolves the units of one hex and checks its stacking limit: 2 SPs, 10 in fortifications
/// with at most 2 of cavalry (4.5.1, 11.1.8, 11.1.9).
pub fn resolve_hex(
    data: &MedievalData,
    entries: &[MedUnit],
    field: &str,
    fortified: bool,
) -> Result<Vec<Unit>, RefereeError> {
    if entries.is_empty() {
        return Err(RefereeError::new(
            ErrorCode::SituationNoUnits,
            "the hex needs at least one unit",
        )
        .field(field));
    }
    let units = entries
        .iter()
        .enumerate()
        .map(|(i, e)| unit(data, e, &format!("{field}[{i}]")))
        .collect::<Result<Vec<_>, _>>()?;
    let mv = &data.movement;
    let total = sp_of(&units, |_| true);
    let cavalry = sp_of(&units, |u| u.cavalry);
    let limit = if fortified {
        mv.fortified_stacking_sp
    } else {
        mv.stacking_sp
    };
    if total > limit || (fortified && cavalry > mv.fortified_cavalry_sp) {
        let what = if total > limit {
            format!("{total} SPs in one hex: the stacking limit is {limit} SPs")
        } else {
            format!(
                "{cavalry} SPs of cavalry in a fortified hex: at most {}",
                mv.fortified_cavalry_sp
            )
        };
        return Err(RefereeError::new(ErrorCode::SituationOverStacking, what)
            .field(field)
            .rule(&mv.stacking_rule));
    }
    Ok(units)
}

/// A group value (1.7, R-MED-9): the mean over the units, rounded .5 up.
pub fn group_mean(values: impl Iterator<Item = (u32, u32)>) -> u32 {
    let (sum, n) = values.fold((0u64, 0u64), |(s, n), (v, count)| {
        (s + u64::from(v) * u64::from(count), n + u64::from(count))
    });
    if n == 0 {
        return 0;
    }
    ((2 * sum + n) / (2 * n)) as u32
}

pub fn terrain<'d>(
    data: &'d MedievalData,
    key: &str,
    field: &str,
) -> Result<&'d Terrain, RefereeError> {
    data.terrain.get(key).ok_or_else(|| {
        RefereeError::new(
            ErrorCode::SituationUnknownTerrain,
            format!(
                "unknown terrain {}; the TERRAIN EFFECT chart has {}",
                crate::error::given(key),
                crate::error::choices(data.terrain.keys())
            ),
        )
        .field(field)
        .rule("TERRAIN EFFECT")
    })
}

#[cfg(test)]
mod tests {
    use super::group_mean;

    #[test]
    fn the_group_example_of_1_7() {
        // CF 3, 3, 2, 1 → 9/4 = 2.25 → 2; armour 1, 1, none, none → 0.5 → 1.
        assert_eq!(group_mean([3, 3, 2, 1].into_iter().map(|v| (v, 1))), 2);
        assert_eq!(group_mean([1, 1, 0, 0].into_iter().map(|v| (v, 1))), 1);
        assert_eq!(group_mean(std::iter::empty()), 0);
    }
}
