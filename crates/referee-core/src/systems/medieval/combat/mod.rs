//! Combat (1.4–1.7, 5.0): strengths, the initial ratio (R-MED-1), combat modifiers as column
//! shifts — attacker's first, then defender's, never netted (R-MED-2) — the COMBAT TABLE, and the
//! chained odds of what becomes of each side: SP losses (with blocked retreats, 5.4.6),
//! elimination, the scatter roll (5.1.1 g) and the leader-death roll (8.2.4).
//!
//! One fight is a pipeline of named steps, each in its module: strengths (strength.rs) →
//! modifiers (modifiers.rs) → column (column.rs) → roll on the table (table.rs) → effects
//! (effects.rs, words.rs) → the dice asked in turn (outcome.rs) → forecast (forecast.rs), and the
//! notes the whole fight calls for (notes.rs).

mod column;
mod effects;
mod forecast;
mod modifiers;
mod notes;
mod outcome;
mod strength;
mod table;
#[cfg(test)]
mod test_support;
mod words;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::data::MedievalData;
use super::retreat::RetreatHex;
use super::units::MedUnit;
use crate::contract::{Check, Resolution, Shown};
use crate::error::RefereeError;
use crate::rule_system::resolve::is_default;
use crate::rule_system::throws::Throws;
use crate::ErrorCode;

pub use column::initial_column;
pub use strength::uphill_hexes;

/// A leader's part in a side's combat (8.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "MedievalLeader")]
pub enum LeaderPresence {
    #[default]
    None,
    /// Within a leader's command range: 1 CM.
    InRange,
    /// Stacked with a leader: 2 CMs, no scatter, and the leader-death roll on a retreat.
    Stacked,
}

/// An attacking hex and what its units crossed to attack.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "MedievalAttackingHex")]
pub struct AttackingHex {
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub label: Option<String>,
    pub units: Vec<MedUnit>,
    /// A leader is stacked on this hex: 2 CMs (8.2.1); its units do not scatter (9.1.3) and he
    /// rolls for his life if they retreat (8.2.4). Other hexes of the side may scatter.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub leader: bool,
    /// The stacked leader's name, as the roster has him: his death roll is named by him and its
    /// result lands on him (8.2.4–8.2.6, R-MED-40).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub leader_name: Option<String>,
    /// The stacked leader is a grand leader (8.1.5, 6.1.7).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub grand_leader: bool,
    /// The hex is in the defender's rear area (3.1.2).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub rear: bool,
    /// Across a stream: CF −1 (5.6.8).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub stream: bool,
    /// Across a bridge: CF −1 (5.6.7).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub bridge: bool,
    /// Across a ford: CF 0, as in the countercharge example (4.2.5, 5.7.6, R-MED-27).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub ford: bool,
    /// Hexes moved uphill: CF −1 each (5.6.9).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<u32>")]
    pub uphill: u32,
    /// Attacking through fortifications: SPs halved, no CF (11.1.1, 11.1.2). Implied when a
    /// defending hex is fortified and this one is not.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub through_fortifications: bool,
    /// The attacking hex's own terrain, a key of the TERRAIN EFFECT chart (default: clear). A
    /// fortified hex holds up to 10 SPs and fights with at most 4 (11.1.8, 11.1.9).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub terrain: Option<String>,
    /// This hex's own retreat route when its side fights from several hexes, in order from the
    /// hex, as its hexes stand: its units retreat by it as a stack of their own and end on its
    /// last hex reached (5.4, 4.5.2, R-MED-50). Without it, the side's route.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub retreat_hexes: Option<Vec<RetreatHex>>,
}

#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "MedievalDefendingHex")]
pub struct DefendingHex {
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub label: Option<String>,
    /// A key of the TERRAIN EFFECT chart.
    pub terrain: String,
    /// A leader is stacked on this hex (8.2.1, 9.1.3, 8.2.4), as for an attacking hex.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub leader: bool,
    /// The stacked leader's name, as for an attacking hex.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub leader_name: Option<String>,
    /// The stacked leader is a grand leader, as for an attacking hex.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub grand_leader: bool,
    /// The units on the hex; none when a leader stands there alone (8.2.9).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<Vec<MedUnit>>")]
    pub units: Vec<MedUnit>,
    /// This hex's own retreat route when its side fights from several hexes, in order from the
    /// hex, as its hexes stand: its units retreat by it as a stack of their own and end on its
    /// last hex reached (5.4, 4.5.2, R-MED-50). Without it, the side's route.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub retreat_hexes: Option<Vec<RetreatHex>>,
}

/// What stands by one side beyond its units.
#[derive(Clone, Debug, PartialEq, Default, Deserialize, Serialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "MedievalSide")]
pub struct SideSupport {
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<LeaderPresence>")]
    pub leader: LeaderPresence,
    /// Instead of leader: hexes to the nearest leader of the units (0 = stacked)…
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub leader_distance: Option<u32>,
    /// …and his command range, 2 or 3 (8.1).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub leader_range: Option<u32>,
    /// On or adjacent to a friendly banner (7.1.7).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub banner: bool,
    /// The side's Scattered Units track is full: a scattered unit is eliminated (9.1.4).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub scatter_track_full: bool,
    /// Hexes the side could retreat, as the umpire already counted them (5.4.5, 5.4.6): it
    /// stands for the referee's reading of the retreat hexes, and the resolution says so.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub retreat_possible: Option<u32>,
    /// The hexes of the side's retreat route in order from the combat hex, as they stand; the
    /// hexes beyond the last one described are open. The referee decides how far the retreat
    /// goes (5.4.5, 4.5.2) and which friendly units its cavalry rides down (5.4.4).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub retreat_hexes: Option<Vec<RetreatHex>>,
    /// The side's combat modifiers as the umpire counted them: they stand for the referee's
    /// count (1.5).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub cms: Option<u32>,
}

/// combat: one attack (5.1).
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "MedievalCombatSituation")]
pub struct CombatSituation {
    pub attackers: Vec<AttackingHex>,
    pub defenders: Vec<DefendingHex>,
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<SideSupport>")]
    pub attacker: SideSupport,
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<SideSupport>")]
    pub defender: SideSupport,
    /// The MORALE value in force: positive in player A's favour, negative in player B's (6.1.2,
    /// 6.1.9), as everywhere.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<i64>")]
    pub morale: i64,
    /// Whose the attackers are, player A's or B's (default A): the MORALE counts for them when
    /// it is in their favour.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<super::morale::Player>")]
    pub attacker_player: super::morale::Player,
    /// Attacks come from opposing directions (5.2.6).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub opposing_directions: bool,
    /// A countercharge combat: unarmoured units, on either side, get nothing from their CF
    /// (5.7.9, R-MED-38).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub countercharge: bool,
    /// The final column (e.g. "4:1"), when the umpire has counted it: the COMBAT TABLE is read
    /// there directly (1.4, 1.5).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub column: Option<String>,
    /// The defender is a leader alone on his hex (8.2.9): one defending hex, with no units.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub leader_alone: bool,
}

impl SideSupport {
    /// The leader's part, from leader or from distance and range (8.2.1–8.2.2).
    fn presence(&self, field: &str) -> Result<LeaderPresence, RefereeError> {
        if let Some(range) = self.leader_range {
            if range != 2 && range != 3 {
                return Err(RefereeError::new(
                    ErrorCode::SituationInvalidLeaderRange,
                    format!("a leader's command range is 2 or 3 (a grand leader's 3), not {range}"),
                )
                .field(format!("{field}.leader_range"))
                .rule("8.1, 8.1.5")
                .ruling("R-MED-15"));
            }
        }
        Ok(match (self.leader_distance, self.leader_range) {
            (None, _) => self.leader,
            (Some(0), _) => LeaderPresence::Stacked,
            (Some(d), Some(range)) if d <= range => LeaderPresence::InRange,
            (Some(_), Some(_)) => LeaderPresence::None,
            (Some(_), None) => {
                return Err(RefereeError::new(
                    ErrorCode::SituationInvalidLeaderRange,
                    "with a leader distance, give the leader's command range (2 or 3)",
                )
                .field(format!("{field}.leader_range"))
                .rule("8.1"))
            }
        })
    }
}

/// The refusals a fight's hexes meet before anything is counted (5.1, 6.1.2, 8.2.9).
fn check_hexes(data: &MedievalData, s: &CombatSituation) -> Result<(), RefereeError> {
    let c = &data.combat;
    if s.attackers.is_empty() {
        return Err(RefereeError::new(
            ErrorCode::SituationNoUnits,
            "enter at least one attacking hex",
        )
        .field("attackers")
        .rule(&c.rule));
    }
    if s.defenders.is_empty() {
        return Err(RefereeError::new(
            ErrorCode::SituationNoUnits,
            "enter at least one defending hex",
        )
        .field("defenders")
        .rule(&c.rule));
    }
    data.morale.on_track(s.morale, "morale")?;
    if s.leader_alone {
        leader_alone_hex(s)?;
    } else if let Some(i) = s.defenders.iter().position(|h| h.units.is_empty()) {
        return Err(RefereeError::new(
            ErrorCode::SituationNoUnits,
            "a defending hex needs at least one unit; for a leader standing alone on his hex, say that the defender is a leader alone",
        )
        .field(format!("defenders[{i}].units"))
        .rule("8.2.9"));
    }
    Ok(())
}

/// 8.2.9: a leader alone is one defending hex with no units on it.
fn leader_alone_hex(s: &CombatSituation) -> Result<(), RefereeError> {
    if s.defenders.len() > 1 {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidLeaderAlone,
            "a leader alone stands on one hex: enter that hex only",
        )
        .field("defenders")
        .rule("8.2.9"));
    }
    if !s.defenders[0].units.is_empty() {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidLeaderAlone,
            "a leader alone has no units on his hex: leave them out, or attack the units with the leader stacked among them",
        )
        .field("defenders[0].units")
        .rule("8.2.9"));
    }
    Ok(())
}

/// 1.2: a side with no SPs cannot fight; a leader alone has none to count.
fn check_strengths(attack: u32, defence: u32, leader_alone: bool) -> Result<(), RefereeError> {
    if attack == 0 {
        return Err(RefereeError::new(
            ErrorCode::SituationZeroAttack,
            "the attacking units have no SPs",
        )
        .field("attackers")
        .rule("1.2"));
    }
    if defence == 0 && !leader_alone {
        return Err(RefereeError::new(
            ErrorCode::SituationZeroDefence,
            "the defending units have no SPs",
        )
        .field("defenders")
        .rule("1.2"));
    }
    Ok(())
}

/// combat: strengths → modifiers → column → roll → effects → forecast.
pub fn resolve(
    data: &MedievalData,
    s: &CombatSituation,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    check_hexes(data, s)?;
    let mut notes = Vec::new();
    let mut checks = vec![Check::holds(
        "Either the attackers or the defenders are in one hex (no many-on-many combats)",
        s.attackers.len() == 1 || s.defenders.len() == 1,
        "5.2.5",
    )];
    let (defenders, hexes) = strength::defenders(data, s, &mut notes)?;
    let ground = strength::Ground::of(&hexes, &mut notes);
    let (attackers, rear_hexes) = strength::attackers(data, s, &ground, &mut notes)?;
    check_strengths(attackers.sp, defenders.sp, s.leader_alone)?;
    let cms = modifiers::combat_modifiers(
        data,
        s,
        [&attackers, &defenders],
        ground.counted,
        rear_hexes,
        &mut notes,
    )?;
    let (a_cms, d_cms) = (cms.attacker_sum(), cms.defender_sum());
    let columns = column::Columns::of(
        &data.combat,
        s,
        (attackers.sp, defenders.sp),
        (a_cms, d_cms),
        &mut notes,
    )?;
    let totals = columns.totals(&data.combat, (attackers.sp, defenders.sp), (a_cms, d_cms));
    let table = table::Table::read(data, columns.final_column)?;
    let after = effects::Aftermath::of(data, s, [&attackers, &defenders], &cms)?;
    notes.extend(after.attacker.route.notes("attacker"));
    if !s.leader_alone {
        notes.extend(after.defender.route.notes("defender"));
    }
    let words = words::SideNames::of(s);
    let (distribution, names) = table.distribution(&after, &words)?;
    let mut throws = Throws::new(dice.unwrap_or(&[]));
    let outcome = outcome::outcome(
        data,
        &table,
        &after,
        &words,
        &mut throws,
        dice,
        [&attackers, &defenders],
    )?;
    let forecast = forecast::both_sides(data, s, &table, &after)?;
    notes.extend(notes::closing(data, s, [&attackers, &defenders], &cms));
    checks.push(Check::umpire(
        "Every unit with enemies in its ZoC attacks, and every enemy in an attacker's ZoC is attacked",
        "5.2.2, 5.2.3",
    ));
    Ok(Resolution {
        shown: Shown {
            faces: throws.finish()?,
            in_turn: true,
            names,
            // The CMs shift the column (1.5).
            modifiers_shift: Some("Column shift".into()),
        },
        system: data.system.id.clone(),
        action: "combat".into(),
        dice: data.system.dice.clone(),
        totals,
        // The roll itself is never modified: the CMs shift the column (1.5).
        total_modifier: 0,
        modifiers: cms.signed(),
        distribution,
        forecast,
        checks,
        notes,
        outcome,
    })
}
