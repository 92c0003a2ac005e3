//! A unit's move measured against its allowance (4.1–4.14, 4.5, 3.14, 3.15, 4.22, 4.31): the
//! umpire gives the inches crossed on each kind of ground; the referee prices them — rough and
//! steep ground 2:1, a road 1:2 for March, a sidestep and a withdrawal 2:1, a formation change
//! 10 less the response — and says what is left or how far over.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::data::GtsData;
use super::units::{Unit, UnitEntry};
use crate::contract::{effect, Change, Note, Resolution, Target, Total};
use crate::error::RefereeError;
use crate::rule_system::resolve::is_default;
use crate::ErrorCode;

/// movement: the inches a unit moves on each kind of ground, against its allowance.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "GtsMovementSituation")]
pub struct MovementSituation {
    pub unit: UnitEntry,
    /// Inches moved over clear ground, hills included.
    pub clear_inches: f64,
    /// Inches moved while touching rough ground or a steep hill: each costs two.
    pub rough_inches: f64,
    /// Inches marched along a road in March formation: each costs half, and rough ground on
    /// the road costs nothing more.
    #[serde(default)]
    #[ts(optional, as = "Option<f64>")]
    pub road_inches: f64,
    /// A sidestep at the start of the move, up to 3 inches, for open order cavalry, elephants
    /// and chariots: each inch costs two.
    #[serde(default)]
    #[ts(optional, as = "Option<f64>")]
    pub sidestep_inches: f64,
    /// Withdrawing backwards out of combat (Drilled units, after their test): every inch costs
    /// two.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub withdrawal: bool,
    /// A formation change at the start of the move: it costs 10 less the response number in
    /// inches, or the whole move.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub formation_change: bool,
    /// The unit is in Reserve: any move loses its chit.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub in_reserve: bool,
}

/// The longest sidestep (4.14), in tenths of an inch.
const SIDESTEP_TENTHS: i64 = 30;

/// Inches in tenths: the table measures no finer.
fn tenths(inches: f64, field: &str) -> Result<i64, RefereeError> {
    if !inches.is_finite() || !(0.0..=1000.0).contains(&inches) {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidField,
            "inches moved run from 0 to 1000",
        )
        .field(field)
        .rule("4.1"));
    }
    Ok((inches * 10.0).round() as i64)
}

fn inches(t: i64) -> String {
    if t % 10 == 0 {
        format!("{}\"", t / 10)
    } else {
        format!("{}.{}\"", t / 10, (t % 10).abs())
    }
}

fn refused(message: &str, field: &str, rule: &str) -> RefereeError {
    RefereeError::new(ErrorCode::SituationInvalidMove, message)
        .field(field)
        .rule(rule)
}

pub fn movement(data: &GtsData, s: &MovementSituation) -> Result<Resolution, RefereeError> {
    let u = Unit::build(data, &s.unit, "unit")?;
    let Some(allowance) = u.move_inches.value else {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidField,
            "the text gives no base move for this class: enter the unit's move from its tag",
        )
        .field("unit.tag.move_inches")
        .rule("2.10")
        .ruling("R-GTS-11"));
    };
    let allowance = allowance.max(0) * 10;
    let clear = tenths(s.clear_inches, "clear_inches")?;
    let rough = tenths(s.rough_inches, "rough_inches")?;
    let road = tenths(s.road_inches, "road_inches")?;
    let sidestep = tenths(s.sidestep_inches, "sidestep_inches")?;
    // Routers head for the table edge ignoring terrain (4.31); skirmishers wheel freely but pay
    // terrain (4.32).
    if road > 0 && !u.march {
        return Err(refused(
            "only a unit in March formation moves 2\" for 1\" along a road",
            "road_inches",
            "3.14, 4.53",
        ));
    }
    let sidesteps =
        (u.mounted && !u.close_order) || matches!(u.class.as_str(), "elephant" | "chariot");
    if sidestep > 0 && !(sidesteps || u.skirmish) {
        return Err(refused(
            "only open order cavalry, elephants and chariots sidestep",
            "sidestep_inches",
            "4.14",
        ));
    }
    if sidestep > SIDESTEP_TENTHS && !u.skirmish {
        return Err(refused(
            "a sidestep is at most 3\"",
            "sidestep_inches",
            "4.14",
        ));
    }
    if s.withdrawal && !u.drilled {
        return Err(refused(
            "only Drilled units withdraw from combat",
            "withdrawal",
            "4.12, 4.22",
        ));
    }
    if s.withdrawal && (road > 0 || sidestep > 0) {
        return Err(refused(
            "a withdrawing unit makes no other kind of move that phase",
            "withdrawal",
            "4.12",
        ));
    }
    let mut totals = vec![Total::new(
        "Movement allowance",
        inches(allowance),
        "2.10, 4.1",
        None,
    )];
    let mut notes = Vec::new();
    let mut spent = 0;
    let mut cost = |label: String, t: i64, rule: &str, spent: &mut i64| {
        *spent += t;
        totals.push(Total::new(label, inches(t), rule, None));
    };
    let whole_move = s.formation_change && {
        let change = (10 - u.response.value).max(0) * 10;
        // A unit may always change formation once by using its whole move (3.15).
        if change >= allowance {
            true
        } else {
            cost(
                format!("Formation change (10 − response {})", u.response.value),
                change,
                "3.15",
                &mut spent,
            );
            false
        }
    };
    let ground = if u.routed {
        // 4.31: routers ignore terrain costs.
        notes.push(Note::new(
            "A routed unit ignores terrain costs and adds panic dice to its move.",
            "4.31",
            Some("R-GTS-39"),
        ));
        clear + rough
    } else {
        clear + 2 * rough
    };
    let factor = if s.withdrawal { 2 } else { 1 };
    if clear > 0 {
        cost(
            format!("{} over clear ground", inches(clear)),
            clear * factor,
            if s.withdrawal { "4.12, 4.51" } else { "4.51" },
            &mut spent,
        );
    }
    if rough > 0 {
        let priced = (ground - clear) * factor;
        cost(
            format!(
                "{} touching rough or steep ground{}",
                inches(rough),
                if u.routed { " (ignored)" } else { " (2:1)" }
            ),
            priced,
            if u.routed { "4.31" } else { "4.52, 4.53" },
            &mut spent,
        );
    }
    if road > 0 {
        // 1" of allowance for 2" on the road, rounded up to the tenth.
        cost(
            format!("{} of March along a road (1:2)", inches(road)),
            (road + 1) / 2,
            "3.14, 4.53",
            &mut spent,
        );
    }
    if sidestep > 0 {
        cost(
            format!("{} sidestep (2:1)", inches(sidestep)),
            if u.skirmish { sidestep } else { 2 * sidestep },
            if u.skirmish { "4.32" } else { "4.14" },
            &mut spent,
        );
    }
    if whole_move {
        notes.push(Note::new(
            "The formation change takes the whole move: the unit moves no further this phase.",
            "3.15",
            None,
        ));
        if spent > 0 {
            return Err(refused(
                "a formation change that takes the whole move leaves no inches to move",
                "formation_change",
                "3.15",
            ));
        }
        spent = allowance;
    }
    totals.push(Total::new("Allowance spent", inches(spent), "4.1", None));
    let left = allowance - spent;
    let (key, meaning) = if left >= 0 {
        (
            "within",
            format!(
                "The move is within the allowance: {} spent of {}, {} left.",
                inches(spent),
                inches(allowance),
                inches(left)
            ),
        )
    } else {
        (
            "too_far",
            format!(
                "The move is {} over the allowance: {} spent of {}.",
                inches(-left),
                inches(spent),
                inches(allowance)
            ),
        )
    };
    // 3.31: the Reserve chit is lost for good upon any movement.
    let effects = if s.in_reserve && spent > 0 && left >= 0 {
        vec![effect(
            Target::Unit(u.name.clone()),
            Change::Reserve { placed: false },
            "3.31",
            None,
        )]
    } else {
        Vec::new()
    };
    let mut r = Resolution::certain(&data.system.id, "movement", key, &meaning, effects)
        .named("within", "within the allowance")
        .named("too_far", "over the allowance");
    totals.push(Total::new(
        if left >= 0 { "Left" } else { "Over" },
        inches(left.abs()),
        "4.1",
        None,
    ));
    r.totals = totals;
    r.notes = notes;
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn moved(mut situation: serde_json::Value) -> Result<Resolution, RefereeError> {
        for ground in ["clear_inches", "rough_inches"] {
            if situation.get(ground).is_none() {
                situation[ground] = json!(0);
            }
        }
        let s: MovementSituation = serde_json::from_value(situation).unwrap();
        movement(&super::super::test_data(), &s)
    }

    fn total(r: &Resolution, label: &str) -> String {
        r.totals
            .iter()
            .find(|t| t.label.starts_with(label))
            .unwrap_or_else(|| panic!("no {label}"))
            .value
            .clone()
    }

    fn hoplites() -> serde_json::Value {
        // Infantry 6", heavy armour −1", close order −1: 4" (Table 2.10).
        json!({ "class": "infantry", "armour": "H", "weapon": "SP", "order": "CO", "stands": 4 })
    }

    #[test]
    fn rough_and_steep_ground_cost_two_for_one() {
        // 4.52, 4.53: 1" clear and 1.5" touching rough ground spend 1" + 3" of 4".
        let r =
            moved(json!({ "unit": hoplites(), "clear_inches": 1, "rough_inches": 1.5 })).unwrap();
        assert_eq!(total(&r, "Movement allowance"), "4\"");
        assert_eq!(total(&r, "1.5\" touching rough"), "3\"");
        assert_eq!(total(&r, "Allowance spent"), "4\"");
        assert_eq!(r.outcome.unwrap().result, "within");
        let r = moved(json!({ "unit": hoplites(), "rough_inches": 2.5 })).unwrap();
        let o = r.outcome.unwrap();
        assert_eq!(o.result, "too_far");
        assert!(o.meaning.contains("1\" over"), "{}", o.meaning);
    }

    #[test]
    fn a_march_on_a_road_goes_two_for_one_and_only_in_march() {
        // 3.14: 2" for 1" of allowance on roads; 8" of road spend 4".
        let mut unit = hoplites();
        unit["march"] = json!(true);
        let r = moved(json!({ "unit": unit, "road_inches": 8 })).unwrap();
        assert_eq!(total(&r, "Allowance spent"), "4\"");
        assert_eq!(r.outcome.unwrap().result, "within");
        let e = moved(json!({ "unit": hoplites(), "road_inches": 2 })).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("road_inches"));
        assert_eq!(e.rule.as_deref(), Some("3.14, 4.53"));
    }

    #[test]
    fn sidestep_withdrawal_and_formation_change() {
        // 4.14: open order cavalry sidestep up to 3" at 2:1; cavalry, no armour: 12" + 3" = 15".
        let cav = json!({ "class": "cavalry", "armour": "N", "weapon": "BW", "stands": 3 });
        let r = moved(json!({ "unit": cav, "sidestep_inches": 3, "clear_inches": 9 })).unwrap();
        assert_eq!(total(&r, "Movement allowance"), "15\"");
        assert_eq!(total(&r, "Allowance spent"), "15\"");
        let e = moved(json!({ "unit": cav, "sidestep_inches": 3.5 })).unwrap_err();
        assert_eq!(e.rule.as_deref(), Some("4.14"));
        assert!(moved(json!({ "unit": hoplites(), "sidestep_inches": 1 })).is_err());
        // 4.12, 4.22: only Drilled units withdraw, every inch at 2:1.
        assert_eq!(
            moved(json!({ "unit": hoplites(), "withdrawal": true, "clear_inches": 1 }))
                .unwrap_err()
                .rule
                .as_deref(),
            Some("4.12, 4.22")
        );
        let mut drilled = hoplites();
        drilled["training"] = json!("D");
        let r = moved(json!({ "unit": drilled, "withdrawal": true, "clear_inches": 2 })).unwrap();
        assert_eq!(total(&r, "Allowance spent"), "4\"");
        // 3.15: a formation change costs 10 − response; response 4 against a 4" move takes
        // the whole move.
        let r = moved(json!({ "unit": hoplites(), "formation_change": true })).unwrap();
        assert_eq!(total(&r, "Allowance spent"), "4\"");
        assert!(
            moved(json!({ "unit": hoplites(), "formation_change": true, "clear_inches": 1 }))
                .is_err()
        );
    }

    #[test]
    fn the_movement_phase_offers_the_move() {
        // 0.0 B: the move is played in the Movement phase, so it is not marked out of it.
        let data = super::super::test_data();
        let phase = data.sequence.iter().find(|p| p.key == "movement").unwrap();
        assert_eq!(phase.actions.first().map(String::as_str), Some("movement"));
        assert_eq!(
            data.sequence
                .iter()
                .flat_map(|p| &p.actions)
                .filter(|a| *a == "movement")
                .count(),
            1
        );
    }

    #[test]
    fn a_router_ignores_terrain_and_a_reserve_loses_its_chit() {
        let mut routed = hoplites();
        routed["routed"] = json!(true);
        let r = moved(json!({ "unit": routed, "rough_inches": 4 })).unwrap();
        assert_eq!(total(&r, "Allowance spent"), "4\"");
        assert!(r.notes.iter().any(|n| n.rule == "4.31"));
        let r =
            moved(json!({ "unit": hoplites(), "clear_inches": 2, "in_reserve": true })).unwrap();
        assert_eq!(
            r.outcome.unwrap().effects[0].change,
            Change::Reserve { placed: false }
        );
        let r = moved(json!({ "unit": hoplites(), "clear_inches": 2 })).unwrap();
        assert!(r.outcome.unwrap().effects.is_empty());
    }
}
