//! A unit passing through a friend, or forced through one (4.7, 4.22, 4.31, 4.323, 7.2): who
//! takes Disorder, and who is displaced. No die is thrown: the text gives none for friends.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use ts_rs::TS;

use super::data::GtsData;
use super::units::UnitEntry;
use crate::contract::{effect, Change, Note, Resolution, Target};
use crate::error::RefereeError;
use crate::rule_system::resolve::is_default;
use crate::ErrorCode;

/// How the unit comes to pass through its friend.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "GtsPassage")]
pub enum Passage {
    /// Its own move.
    #[default]
    Movement,
    /// A rout move.
    Rout,
    /// A recoil.
    Recoil,
    /// A withdrawal out of combat.
    Withdrawal,
    /// Displaced by a friend passing through it.
    Displacement,
}

impl Passage {
    /// Moving through others (4.7): a gap prevents Disorder. Forced through them (recoil,
    /// withdrawal, displacement): any interpenetration disorders both.
    fn moving_through(self) -> bool {
        matches!(self, Passage::Movement | Passage::Rout)
    }

    pub fn words(self) -> &'static str {
        match self {
            Passage::Movement => "Movement",
            Passage::Rout => "Rout",
            Passage::Recoil => "Recoil",
            Passage::Withdrawal => "Withdrawal",
            Passage::Displacement => "Displacement",
        }
    }

    pub const ALL: [Passage; 5] = [
        Passage::Movement,
        Passage::Rout,
        Passage::Recoil,
        Passage::Withdrawal,
        Passage::Displacement,
    ];
}

/// Which of the two becomes Disordered when a move through friends leaves no gap.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "GtsDisorderedOne")]
pub enum DisorderedOne {
    /// The unit moving.
    #[default]
    Moving,
    /// The unit passed through.
    PassedThrough,
}

/// interpenetration: a unit passing through a friend of its army, or forced through it.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "GtsInterpenetrationSituation")]
pub struct InterpenetrationSituation {
    pub unit: UnitEntry,
    /// The friendly unit passed through, picked from the army's units.
    pub through: String,
    /// How the unit comes to pass through it.
    #[serde(default)]
    #[ts(optional, as = "Option<Passage>")]
    pub passage: Passage,
    /// A gap of one stand between the units passed: moving through it causes no Disorder.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub gap: bool,
    /// With no gap, which of the two becomes Disordered.
    #[serde(default)]
    #[ts(optional, as = "Option<DisorderedOne>")]
    pub without_gap: DisorderedOne,
    /// The army's units as the roster has them now, by name: read, not asked.
    #[serde(default)]
    #[schemars(skip)]
    #[ts(skip)]
    pub friends: BTreeMap<String, UnitEntry>,
}

fn name(u: &UnitEntry) -> String {
    u.name.clone().unwrap_or_else(|| "The unit".into())
}

pub fn interpenetration(
    data: &GtsData,
    s: &InterpenetrationSituation,
) -> Result<Resolution, RefereeError> {
    let mover = name(&s.unit);
    let Some(friend) = s.friends.get(&s.through).filter(|_| s.through != mover) else {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidField,
            "pick the unit passed through from the army's other units",
        )
        .field("through")
        .rule("4.7"));
    };
    let passed = s.through.clone();
    let mut notes = Vec::new();
    let mut disorder: Vec<(&str, &UnitEntry)> = Vec::new();
    let (key, meaning, rule, ruling): (&str, String, &str, Option<&str>) = if friend.skirmish
        || s.unit.skirmish
    {
        // Formed units pass skirmishers freely (4.7, 4.323); skirmish stands, having no
        // formation, take none from a friend (R-GTS-41).
        if friend.skirmish && !s.unit.skirmish {
            notes.push(Note::new(
                format!("If {mover} stops on the skirmish stands of {passed}, they move aside or back the least distance that clears it."),
                "4.323",
                None,
            ));
        }
        (
            "no_disorder",
            format!("{mover} passes through {passed}: skirmishers pass and are passed without Disorder."),
            "4.7, 4.323",
            Some("R-GTS-41"),
        )
    } else if !s.passage.moving_through() {
        // Recoil, withdrawal, displacement: any interpenetration disorders both, and the unit
        // passed through is displaced the least distance (4.7, 4.22, 7.2).
        disorder.push((&mover, &s.unit));
        disorder.push((&passed, friend));
        notes.push(Note::new(
            format!("{passed} is displaced backwards the least distance; if it passes through another friend, open Pass through… from its row as a displacement."),
            "4.7",
            None,
        ));
        (
            "both_disordered",
            format!("{mover} and {passed} are both Disordered; {passed} is displaced the least distance."),
            match s.passage {
                Passage::Recoil => "4.7, 7.2",
                Passage::Withdrawal => "4.7, 4.22",
                _ => "4.7",
            },
            None,
        )
    } else if s.gap {
        (
            "no_disorder",
            format!("{mover} passes through the gap by {passed}: no Disorder."),
            "4.7",
            None,
        )
    } else if s.passage == Passage::Rout || s.without_gap == DisorderedOne::PassedThrough {
        // A router is not Disordered on top of its Rout (3.3): the unit it passes takes it
        // (4.31, R-GTS-41).
        disorder.push((&passed, friend));
        (
            "passed_disordered",
            format!("{passed} is Disordered by {mover} passing through it."),
            if s.passage == Passage::Rout {
                "4.7, 4.31"
            } else {
                "4.7"
            },
            (s.passage == Passage::Rout).then_some("R-GTS-41"),
        )
    } else {
        disorder.push((&mover, &s.unit));
        (
            "moving_disordered",
            format!("{mover} is Disordered passing through {passed}."),
            "4.7",
            None,
        )
    };
    // A unit already Disordered or Routed stays as it is (3.3, 3.32).
    let effects = disorder
        .into_iter()
        .filter(|(_, u)| !u.disordered && !u.routed)
        .map(|(label, _)| {
            effect(
                Target::Unit(label.to_string()),
                Change::Disorder,
                rule,
                ruling,
            )
        })
        .collect();
    let mut r = Resolution::certain(&data.system.id, "interpenetration", key, &meaning, effects)
        .named("no_disorder", "no Disorder")
        .named("moving_disordered", "the moving unit Disordered")
        .named("passed_disordered", "the unit passed through Disordered")
        .named("both_disordered", "both Disordered and displaced");
    r.notes = notes;
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entry(name: &str, more: serde_json::Value) -> UnitEntry {
        let mut v = json!({ "name": name, "class": "infantry", "weapon": "SP", "stands": 4 });
        for (k, x) in more.as_object().unwrap() {
            v[k] = x.clone();
        }
        serde_json::from_value(v).unwrap()
    }

    fn passing(passage: Passage, gap: bool, friend: serde_json::Value) -> Resolution {
        let s = InterpenetrationSituation {
            unit: entry("Hoplites", json!({})),
            through: "Peltasts".into(),
            passage,
            gap,
            without_gap: DisorderedOne::Moving,
            friends: BTreeMap::from([("Peltasts".into(), entry("Peltasts", friend))]),
        };
        interpenetration(&super::super::test_data(), &s).unwrap()
    }

    fn disordered(r: &Resolution) -> Vec<String> {
        r.outcome
            .as_ref()
            .unwrap()
            .effects
            .iter()
            .map(|e| match &e.target {
                Target::Unit(l) => l.clone(),
                other => format!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn a_gap_of_one_stand_spares_a_move_through_friends_4_7() {
        let r = passing(Passage::Movement, true, json!({}));
        assert!(disordered(&r).is_empty());
        let r = passing(Passage::Movement, false, json!({}));
        assert_eq!(disordered(&r), ["Hoplites"]);
    }

    #[test]
    fn a_recoil_through_friends_disorders_both_whatever_the_gap_4_7_7_2() {
        let r = passing(Passage::Recoil, true, json!({}));
        assert_eq!(disordered(&r), ["Hoplites", "Peltasts"]);
        assert_eq!(r.outcome.as_ref().unwrap().effects[0].rule, "4.7, 7.2");
        // Already Disordered, the friend stays so: no second Disorder.
        let r = passing(Passage::Withdrawal, false, json!({ "disordered": true }));
        assert_eq!(disordered(&r), ["Hoplites"]);
    }

    #[test]
    fn a_router_disorders_the_unit_it_passes_4_31() {
        let r = passing(Passage::Rout, false, json!({}));
        assert_eq!(disordered(&r), ["Peltasts"]);
    }

    #[test]
    fn formed_units_pass_skirmishers_freely_4_323() {
        let r = passing(Passage::Recoil, false, json!({ "skirmish": true }));
        assert!(disordered(&r).is_empty());
        assert!(r.notes.iter().any(|n| n.rule == "4.323"));
    }

    #[test]
    fn a_friend_not_of_the_army_is_refused() {
        let s = InterpenetrationSituation {
            unit: entry("Hoplites", json!({})),
            through: "Hoplites".into(),
            passage: Passage::Movement,
            gap: false,
            without_gap: DisorderedOne::Moving,
            friends: BTreeMap::new(),
        };
        let e = interpenetration(&super::super::test_data(), &s).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("through"));
    }
}
