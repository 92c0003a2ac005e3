//! Combat (1.4–1.7, 5.0): strengths, the initial ratio (R-MED-1), combat modifiers as column
//! shifts — attacker's first, then defender's, never netted (R-MED-2) — the COMBAT TABLE, and the
//! chained odds of what becomes of each side: SP losses (with blocked retreats, 5.4.6),
//! elimination, the scatter roll (5.1.1 g) and the leader-death roll (8.2.4).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::data::MedievalData;
use super::result::{CombatResult, Part, Who};
use super::retreat::{RetreatHex, Route};
use super::scatter::{and_list, ScatterRead};
use super::units::{group_mean, resolve_hex, MedUnit, Unit};
use crate::contract::{
    effect, rolls_text, Chance, Change, Check, Chooser, Effect, Modifier, Note, Outcome,
    Resolution, ResultOdds, Shown, Target, Total,
};
use crate::error::RefereeError;
use crate::odds::{DiceSpec, Dist};
use crate::rule_system::resolve::is_default;
use crate::rule_system::throws::Throws;
use crate::rule_system::Thrower;

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
    /// The units on the hex; none when a leader stands there alone (8.2.9).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<Vec<MedUnit>>")]
    pub units: Vec<MedUnit>,
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
                    "situation.invalid_leader_range",
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
                    "situation.invalid_leader_range",
                    "with a leader distance, give the leader's command range (2 or 3)",
                )
                .field(format!("{field}.leader_range"))
                .rule("8.1"))
            }
        })
    }
}

/// A side for the chained forecast.
struct Fate {
    name: &'static str,
    sp: u32,
    route: Route,
    /// A leader stacked with the side's units rolls for his life when they retreat (8.2.4).
    leader: bool,
    /// With the leader on one of the side's hexes: the SPs on his hex and on the others. His
    /// roll counts the losses of his hex only (8.2.4–8.2.5, R-MED-31).
    leader_hex: Option<(u32, u32)>,
    /// Every unit of the side is stacked with a leader: none scatters (9.1.3).
    scatter_immune: bool,
    /// The COMBAT SCATTER column of the side's most easily scattered unit not with a leader.
    scatter_column: String,
    /// Scattered units are eliminated (9.1.4).
    track_full: bool,
}

/// What finally becomes of a side after one result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct End {
    lost: u32,
    retreated: bool,
    eliminated: bool,
    scattered: bool,
    leader_dies: bool,
    /// The side's cavalry rode friendly units down in its retreat (5.4.4).
    rode_down: bool,
}

fn end_of(
    data: &MedievalData,
    side: &Fate,
    part: Part,
    leader_roll: &Dist<i64>,
) -> Result<Dist<End>, crate::odds::OddsError> {
    let walk = side.route.walk(part.retreat, part.loss);
    let blocked = part.retreat.saturating_sub(walk.reached);
    let lost = part.loss + blocked * data.retreat.blocked_sp_per_hex;
    let eliminated = lost >= side.sp;
    let base = End {
        lost: lost.min(side.sp),
        retreated: part.retreat > 0,
        eliminated,
        scattered: false,
        leader_dies: false,
        rode_down: !walk.ridden.is_empty(),
    };
    // 5.1.1 g: after a retreat, the d6 scatter roll; none when stacked with a leader (9.1.3).
    let scatter: Dist<bool> = if eliminated || part.retreat == 0 || side.scatter_immune {
        Dist::certain(false)
    } else if part.scattered {
        Dist::certain(true)
    } else {
        let at_most = data.scatter.threshold(&side.scatter_column, part.retreat);
        Dist::die(6)?.map(|r| *r <= i64::from(at_most))
    };
    // 8.2.4–8.2.5, R-MED-7: 2d6 − SP lost ≤ hexes to retreat. The owner spreads the losses
    // (5.4.7): his leader's hex takes those the other hexes cannot (R-MED-31). On one hex as on
    // several, the roll subtracts the SPs the units can lose, never the nominal loss (5.4.6).
    let leader_lost = match side.leader_hex {
        Some((own, others)) => lost.saturating_sub(others).min(own),
        None => base.lost,
    };
    let leader: Dist<bool> = if side.leader && part.retreat > 0 {
        leader_roll.map(|r| *r - i64::from(leader_lost) <= i64::from(part.retreat))
    } else {
        Dist::certain(false)
    };
    let track_full = side.track_full;
    Ok(scatter.joint(&leader)?.map(move |(s, l)| End {
        scattered: *s,
        eliminated: base.eliminated || (*s && track_full),
        leader_dies: *l,
        ..base
    }))
}

fn forecast(
    data: &MedievalData,
    results: &Dist<CombatResult>,
    side: &Fate,
    pick: fn(&CombatResult) -> Part,
) -> Result<Vec<Chance>, RefereeError> {
    let dice: DiceSpec =
        data.leader_death.dice.parse().map_err(|e: String| {
            RefereeError::new("ruleset.invalid", e).field("leader_death.dice")
        })?;
    let leader_roll = dice.distribution()?;
    let ends = results.and_then(|r| end_of(data, side, pick(r), &leader_roll))?;
    let c = &data.combat;
    let mut out = vec![
        (
            format!("The {} loses SP", side.name),
            ends.probability_where(|e| e.lost > 0),
            c.rule.clone(),
        ),
        (
            format!("The {} retreats", side.name),
            ends.probability_where(|e| e.retreated),
            "5.4".to_string(),
        ),
        (
            format!("The {} is scattered", side.name),
            ends.probability_where(|e| e.scattered),
            data.scatter.rule.clone(),
        ),
        (
            format!("The {} is eliminated", side.name),
            ends.probability_where(|e| e.eliminated),
            format!("{}, {}", c.rule, data.retreat.rule),
        ),
    ];
    let rides = ends.probability_where(|e| e.rode_down);
    if rides.numerator() > 0 {
        out.push((
            format!(
                "The {}'s retreating cavalry rides down friendly units",
                side.name
            ),
            rides,
            "5.4.4, 5.8.7".to_string(),
        ));
    }
    if side.leader {
        out.push((
            format!("The {}'s leader dies", side.name),
            ends.probability_where(|e| e.leader_dies),
            data.leader_death.rule.clone(),
        ));
        // 8.2.6–8.2.8: he retreats on his own; with every unit of his stack gone he stands
        // alone, and an enemy entering his hex kills him.
        out.push((
            format!(
                "The {}'s leader lives but is left alone (killed if an enemy enters his hex)",
                side.name
            ),
            ends.probability_where(|e| e.eliminated && !e.leader_dies),
            "8.2.6, 8.2.7, 8.2.8".to_string(),
        ));
    }
    Ok(out
        .into_iter()
        .map(|(label, p, rule)| Chance::new(label, p, &rule))
        .collect())
}

/// 8.2.9: a leader alone is one defending hex with no units on it.
fn leader_alone_hex(s: &CombatSituation) -> Result<(), RefereeError> {
    if s.defenders.len() > 1 {
        return Err(RefereeError::new(
            "situation.invalid_leader_alone",
            "a leader alone stands on one hex: enter that hex only",
        )
        .field("defenders")
        .rule("8.2.9"));
    }
    if !s.defenders[0].units.is_empty() {
        return Err(RefereeError::new(
            "situation.invalid_leader_alone",
            "a leader alone has no units on his hex: leave them out, or attack the units with the leader stacked among them",
        )
        .field("defenders[0].units")
        .rule("8.2.9"));
    }
    Ok(())
}

/// The defending hex whose terrain counts (5.3.2): the one with most SPs; among equals, the
/// terrain that gives the defender most, never the order they were entered in (R-MED-17).
/// Also says whether equal hexes in different terrain had to be told apart.
fn counted_hex<'d>(hexes: &[(u32, &'d super::data::Terrain)]) -> (&'d super::data::Terrain, bool) {
    let most = hexes.iter().map(|(sp, _)| *sp).max().unwrap_or(0);
    let strongest: Vec<&super::data::Terrain> = hexes
        .iter()
        .filter(|(sp, _)| *sp == most)
        .map(|(_, g)| *g)
        .collect();
    let best = strongest
        .iter()
        .copied()
        .max_by(|a, b| {
            (a.combat, a.no_charge, a.uphill, &b.name).cmp(&(
                b.combat,
                b.no_charge,
                b.uphill,
                &a.name,
            ))
        })
        .expect("at least one defending hex");
    let tie = strongest.iter().any(|g| g.name != best.name);
    (best, tie)
}

/// Hexes climbed to attack into `ground`: as entered, and at least one into a slope (5.6.9,
/// R-MED-16).
pub fn uphill_hexes(entered: u32, ground: &super::data::Terrain) -> u32 {
    entered.max(u32::from(ground.uphill))
}

/// The side's combat modifiers from armour and charge (5.2.7, 5.6.4–5.6.6, 1.7, R-MED-9).
fn armour_and_charge(
    data: &MedievalData,
    units: &[(Unit, u32)],
    side: &str,
    countercharge: bool,
    modifiers: &mut Vec<Modifier>,
) {
    let c = &data.combat;
    let armour = group_mean(units.iter().map(|(u, _)| (u.armour, u.count)));
    if armour > 0 {
        modifiers.push(Modifier::new(
            format!("{side}: armour (group {armour})"),
            armour as i64,
            &c.armour.rule,
            Some("R-MED-9"),
        ));
    }
    // Per unit (R-MED-14): the CF it brings after crossings; horse archers and (in a countercharge)
    // unarmoured units bring none.
    let cf = group_mean(units.iter().map(|(u, cf)| {
        let counts = !(u.no_charge_modifier || (countercharge && u.armour == 0));
        (if counts { *cf } else { 0 }, u.count)
    }));
    let cap = armour + c.charge_cap_over_armour;
    let value = cf.min(cap);
    if value > 0 {
        let capped = if cf > cap {
            format!(", capped at armour + {}", c.charge_cap_over_armour)
        } else {
            String::new()
        };
        modifiers.push(Modifier::new(
            format!("{side}: charge factor (group {cf}{capped})"),
            value as i64,
            &c.charge.rule,
            Some("R-MED-14"),
        ));
    }
}

fn ratio_text(a: u32, d: u32) -> String {
    format!("{a}:{d}")
}

/// R-MED-1: larger ÷ smaller, a fraction of .5 or more rounds up; n:1 or 1:n.
pub fn initial_column(columns: &[Option<(u64, u64)>], attack: u32, defence: u32) -> usize {
    let (big, small, attacker_ahead) = if attack >= defence {
        (attack, defence, true)
    } else {
        (defence, attack, false)
    };
    // round(big / small), half up, in integers.
    let n = (2 * u64::from(big) + u64::from(small)) / (2 * u64::from(small));
    let wanted = if attacker_ahead { (n, 1) } else { (1, n) };
    // The column with that ratio, or the table's end in that direction (clamped).
    if let Some(i) = columns.iter().position(|c| *c == Some(wanted)) {
        return i;
    }
    if attacker_ahead {
        columns.len() - 1
    } else {
        0
    }
}

pub fn resolve(
    data: &MedievalData,
    s: &CombatSituation,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    let c = &data.combat;
    if s.attackers.is_empty() {
        return Err(
            RefereeError::new("situation.no_units", "enter at least one attacking hex")
                .field("attackers")
                .rule(&c.rule),
        );
    }
    if s.defenders.is_empty() {
        return Err(
            RefereeError::new("situation.no_units", "enter at least one defending hex")
                .field("defenders")
                .rule(&c.rule),
        );
    }
    data.morale.on_track(s.morale, "morale")?;
    let mut notes = Vec::new();
    let mut checks = vec![Check::holds(
        "Either the attackers or the defenders are in one hex (no many-on-many combats)",
        s.attackers.len() == 1 || s.defenders.len() == 1,
        "5.2.5",
    )];
    let mut totals = Vec::new();
    let mut attacker_modifiers = Vec::new();
    let mut defender_modifiers = Vec::new();

    // --- defenders: strength per hex, the terrain of the strongest hex (5.3.2).
    if s.leader_alone {
        leader_alone_hex(s)?;
    } else if let Some(i) = s.defenders.iter().position(|h| h.units.is_empty()) {
        return Err(RefereeError::new(
            "situation.no_units",
            "a defending hex needs at least one unit; for a leader standing alone on his hex, say that the defender is a leader alone",
        )
        .field(format!("defenders[{i}].units"))
        .rule("8.2.9"));
    }
    let mut defence = 0u32;
    let mut defender_units: Vec<(Unit, u32)> = Vec::new();
    // The defending hex of each unit, for a leader's hex (9.1.3).
    let mut defender_hex_of: Vec<usize> = Vec::new();
    let mut hexes: Vec<(u32, &super::data::Terrain)> = Vec::new();
    for (i, hex) in s.defenders.iter().enumerate() {
        let field = format!("defenders[{i}]");
        let ground = super::units::terrain(data, &hex.terrain, &format!("{field}.terrain"))?;
        if s.leader_alone {
            hexes.push((0, ground));
            continue;
        }
        let units = resolve_hex(
            data,
            &hex.units,
            &format!("{field}.units"),
            ground.fortified,
        )?;
        // A ranged unit on its movement side fights with no SPs (10.1.1).
        let mut sp: u32 = units.iter().map(Unit::combat_sp).sum();
        if ground.fortified && sp > c.fortified_defence_max {
            notes.push(Note::new(
                format!(
                    "A fortified hex fights with at most {} SPs.",
                    c.fortified_defence_max
                ),
                "11.1.8",
                None,
            ));
            sp = c.fortified_defence_max;
        }
        hexes.push((sp, ground));
        defence += sp;
        defender_hex_of.extend(std::iter::repeat_n(i, units.len()));
        defender_units.extend(units.into_iter().map(|u| {
            let cf = u.cf;
            (u, cf)
        }));
    }
    // Horse archers are cavalry here (10.5.1): only foot ranged units count.
    let all_ranged = |units: &[(Unit, u32)]| {
        !units.is_empty() && units.iter().all(|(u, _)| u.fights_as_ranged())
    };
    if all_ranged(&defender_units) && !s.leader_alone {
        defence = 1;
        notes.push(Note::new(
            "Ranged units fighting alone count 1 SP.",
            "10.3.2",
            None,
        ));
    }

    // --- attackers: CF after crossings (5.6.6–5.6.9, 11.1.2), SPs halved through fortifications.
    let (ground, tie) = counted_hex(&hexes);
    if tie {
        notes.push(Note::new(
            format!(
                "Defending hexes of equal SPs in different terrain: {} counts, the one that gives the defender most (5.3.2).",
                ground.name
            ),
            "5.3.2",
            Some("R-MED-17"),
        ));
    }
    // 5.6.6: charging units in forest, swamp or fortifications counts nothing, whichever of the
    // defending hexes they stand in (R-MED-18).
    let no_charge = hexes.iter().find(|(_, g)| g.no_charge).map(|(_, g)| *g);
    if let (Some(g), false) = (no_charge, ground.no_charge) {
        notes.push(Note::new(
            format!(
                "One of the defending hexes is in {}: charge factors count 0 against the whole defence.",
                g.name
            ),
            "5.6.6",
            Some("R-MED-18"),
        ));
    }
    if ground.fortified {
        notes.push(Note::new(
            "Fortifications give the defender no combat modifier of their own: attackers through them fight with half their SPs and no charge factor.",
            "11.1.1, 11.1.2",
            Some("R-MED-24"),
        ));
    }
    let defending_fortified = hexes.iter().any(|(_, g)| g.fortified);
    let mut attack = 0u32;
    let mut attacker_units: Vec<(Unit, u32)> = Vec::new();
    let mut attacker_hex_of: Vec<usize> = Vec::new();
    let mut rear_hexes = 0;
    for (i, hex) in s.attackers.iter().enumerate() {
        let field = format!("attackers[{i}]");
        let own = match &hex.terrain {
            Some(key) => Some(super::units::terrain(
                data,
                key,
                &format!("{field}.terrain"),
            )?),
            None => None,
        };
        let fortified = own.is_some_and(|g| g.fortified);
        let units = resolve_hex(data, &hex.units, &format!("{field}.units"), fortified)?;
        let mut sp: u32 = units.iter().map(Unit::combat_sp).sum();
        if fortified && sp > c.fortified_defence_max {
            notes.push(Note::new(
                format!(
                    "A fortified hex fights with at most {} SPs, attacking as defending.",
                    c.fortified_defence_max
                ),
                "11.1.8",
                None,
            ));
            sp = c.fortified_defence_max;
        }
        // An attack from outside on a fortified hex is an attack through its fortifications:
        // the pair is entered once, by the defender's terrain (11.1.1). From one fortified hex
        // into another it is not, unless the umpire says a wall lies between them (R-MED-37).
        let through = hex.through_fortifications || (defending_fortified && !fortified);
        attack += if through { sp.div_ceil(2) } else { sp };
        if hex.rear {
            rear_hexes += 1;
        }
        // The slope's defender modifier and the attacker's climb are one fact (R-MED-16): the
        // defending hex on a slope is at least one hex uphill for every attacker.
        let crossing = c.crossing_cf(hex.stream, hex.bridge, uphill_hexes(hex.uphill, ground));
        let units_charge = units.iter().any(|u| u.cf > 0);
        for u in units {
            let cf = if no_charge.is_some() || through || hex.ford {
                0
            } else {
                u.cf.saturating_sub(crossing)
            };
            attacker_units.push((u, cf));
            attacker_hex_of.push(i);
        }
        if hex.ford && units_charge {
            notes.push(Note::new(
                "Attacking across a ford: the charge factor counts 0.",
                "4.2.5, 5.7.6",
                Some("R-MED-27"),
            ));
        }
        if through {
            notes.push(Note::new(
                "Attacking through fortifications: SPs halved (rounded up), no charge factor.",
                "11.1.1, 11.1.2, 1.6",
                None,
            ));
        }
    }
    if all_ranged(&attacker_units) {
        attack = 1;
        notes.push(Note::new(
            "Ranged units fighting alone count 1 SP.",
            "10.3.2",
            None,
        ));
    }
    if ground.uphill && no_charge.is_none() {
        notes.push(Note::new(
            format!(
                "Attacking into {}: at least one hex uphill, CF −{} (5.6.9).",
                ground.name, c.uphill_cf_per_hex
            ),
            "5.6.9",
            Some("R-MED-16"),
        ));
    }
    if ground.no_charge {
        notes.push(Note::new(
            format!("Charge factors count 0 against units in {}.", ground.name),
            "5.6.6",
            None,
        ));
    }
    if attack == 0 {
        return Err(
            RefereeError::new("situation.zero_attack", "the attacking units have no SPs")
                .field("attackers")
                .rule("1.2"),
        );
    }
    if defence == 0 && !s.leader_alone {
        return Err(
            RefereeError::new("situation.zero_defence", "the defending units have no SPs")
                .field("defenders")
                .rule("1.2"),
        );
    }

    // --- combat modifiers.
    armour_and_charge(
        data,
        &attacker_units,
        "Attacker",
        s.countercharge,
        &mut attacker_modifiers,
    );
    // 5.7.9 speaks of the countercharge fight: the unarmoured unit countercharged gets no CM
    // from its CF either (R-MED-38).
    armour_and_charge(
        data,
        &defender_units,
        "Defender",
        s.countercharge,
        &mut defender_modifiers,
    );
    // A leader on one of the side's hexes is stacked with that hex's units (8.2.1).
    let attacker_flags: Vec<bool> = s.attackers.iter().map(|h| h.leader).collect();
    let defender_flags: Vec<bool> = s.defenders.iter().map(|h| h.leader).collect();
    let presence = |flags: &[bool], support: &SideSupport, field: &str| {
        if flags.iter().any(|f| *f) {
            Ok(LeaderPresence::Stacked)
        } else {
            support.presence(field)
        }
    };
    let attacker_leader = presence(&attacker_flags, &s.attacker, "attacker")?;
    let defender_leader = presence(&defender_flags, &s.defender, "defender")?;
    for (support, presence, list, side) in [
        (
            &s.attacker,
            attacker_leader,
            &mut attacker_modifiers,
            "Attacker",
        ),
        (
            &s.defender,
            defender_leader,
            &mut defender_modifiers,
            "Defender",
        ),
    ] {
        match presence {
            LeaderPresence::None => {}
            LeaderPresence::InRange => list.push(
                c.leader_in_range
                    .line(&format!("{side}: within a leader's range")),
            ),
            LeaderPresence::Stacked => list.push(
                c.leader_stacked
                    .line(&format!("{side}: stacked with a leader")),
            ),
        }
        if support.banner {
            list.push(c.banner.line(&format!("{side}: on or beside a banner")));
        }
    }
    // The track is in player A's favour; the attacker's favour when he is player B is its
    // opposite.
    let morale = match s.attacker_player {
        super::morale::Player::A => s.morale,
        super::morale::Player::B => -s.morale,
    };
    if morale != 0 {
        let (list, side) = if morale > 0 {
            (&mut attacker_modifiers, "Attacker")
        } else {
            (&mut defender_modifiers, "Defender")
        };
        list.push(Modifier::new(
            format!("{side}: MORALE {:+}", morale.abs()),
            morale.abs(),
            &c.morale.rule,
            c.morale.ruling.as_deref(),
        ));
    }
    if ground.combat > 0 {
        let several = if s.defenders.len() > 1 {
            " (the hex with most SPs, 5.3.2)"
        } else {
            ""
        };
        defender_modifiers.push(Modifier::new(
            format!("Defender: terrain, {}{several}", ground.name),
            i64::from(ground.combat),
            &ground.rule,
            ground.ruling.as_deref(),
        ));
    }
    if rear_hexes > 0 {
        attacker_modifiers.push(Modifier::new(
            format!("Attacker: {rear_hexes} hex(es) in the defender's rear area"),
            c.rear_per_hex.modifier * rear_hexes,
            &c.rear_per_hex.rule,
            c.rear_per_hex.ruling.as_deref(),
        ));
    }
    if s.opposing_directions {
        attacker_modifiers.push(
            c.opposing_directions
                .line("Attacker: from opposing directions"),
        );
    }
    if defender_units.iter().any(|(u, _)| u.fights_as_ranged()) {
        attacker_modifiers.push(
            c.ranged_target
                .line("Attacker: the targets include ranged units"),
        );
    }

    // The umpire who has already counted a side's CMs enters the count: it stands for the
    // referee's lines, which a note still gives for comparison (1.5).
    for (support, list, side) in [
        (&s.attacker, &mut attacker_modifiers, "Attacker"),
        (&s.defender, &mut defender_modifiers, "Defender"),
    ] {
        if let Some(counted) = support.cms {
            let own: i64 = list.iter().map(|m| m.value).sum();
            notes.push(Note::new(
                format!(
                    "{side}: {counted} CMs as the umpire counted them; the referee counts {own}."
                ),
                "1.5",
                None,
            ));
            *list = vec![Modifier::new(
                format!("{side}: combat modifiers as counted"),
                i64::from(counted),
                "1.5",
                None,
            )];
        }
    }

    // --- the column: initial ratio, attacker shifts right, then defender shifts left (R-MED-2).
    let columns = c.column_ratios();
    let last = columns.len() - 1;
    let sum = |m: &[Modifier]| m.iter().map(|x| x.value).sum::<i64>();
    let (a_cms, d_cms) = (sum(&attacker_modifiers), sum(&defender_modifiers));
    let (initial, after_attacker, final_column) = if s.leader_alone {
        notes.push(Note::new(
            "A leader alone is attacked on the highest column and dies whatever the result.",
            &c.leader_alone_rule,
            None,
        ));
        (last, last, last)
    } else {
        let initial = initial_column(&columns, attack, defence);
        let after = (initial as i64 + a_cms).clamp(0, last as i64) as usize;
        let fin = (after as i64 - d_cms).clamp(0, last as i64) as usize;
        (initial, after, fin)
    };
    // A direct look-up: the umpire names the final column and the table is read there.
    let final_column = match &s.column {
        None => final_column,
        Some(wanted) => {
            let at = c
                .columns
                .iter()
                .position(|k| k.replace(' ', "") == wanted.replace(' ', ""))
                .ok_or_else(|| {
                    RefereeError::new(
                        "situation.unknown_column",
                        format!(
                            "the COMBAT TABLE has no column {}; its columns are {}",
                            crate::error::given(wanted),
                            c.columns.join(", ")
                        ),
                    )
                    .field("column")
                    .rule(&c.table_rule)
                })?;
            if at != final_column {
                notes.push(Note::new(
                    format!(
                        "The table is read on the {} column the umpire named; the referee's count gives {}.",
                        c.columns[at], c.columns[final_column]
                    ),
                    &c.table_rule,
                    None,
                ));
            }
            at
        }
    };
    totals.push(Total {
        label: "Attacker SPs".into(),
        value: attack.to_string(),
        rule: "1.4".into(),
        ruling: None,
    });
    totals.push(Total {
        label: "Defender SPs".into(),
        value: defence.to_string(),
        rule: "1.4".into(),
        ruling: None,
    });
    totals.push(Total {
        label: "Initial combat ratio".into(),
        value: format!("{} → {}", ratio_text(attack, defence), c.columns[initial]),
        rule: c.ratio_rule.clone(),
        ruling: c.ratio_ruling.clone(),
    });
    totals.push(Total {
        label: "After the attacker's CMs".into(),
        value: format!("{:+} → {}", a_cms, c.columns[after_attacker]),
        rule: c.shift_rule.clone(),
        ruling: c.shift_ruling.clone(),
    });
    totals.push(Total {
        label: "Final combat ratio".into(),
        value: format!("{:+} → {}", -d_cms, c.columns[final_column]),
        rule: c.shift_rule.clone(),
        ruling: c.shift_ruling.clone(),
    });

    // --- the roll on the column.
    let spec: DiceSpec = data
        .system
        .dice
        .parse()
        .map_err(|e: String| RefereeError::new("ruleset.invalid", e).field("system.dice"))?;
    let rolls = spec.distribution()?;
    let code_at = |roll: i64| -> Result<&str, RefereeError> {
        c.rows
            .iter()
            .find(|r| r.roll == roll)
            .and_then(|r| r.results.get(final_column))
            .map(String::as_str)
            .ok_or_else(|| {
                RefereeError::new(
                    "ruleset.invalid",
                    format!("the COMBAT TABLE has no row {roll}"),
                )
                .rule(&c.table_rule)
            })
    };
    let codes: Dist<String> = rolls.and_then(|r| {
        Ok(Dist::certain(
            code_at(*r).map(str::to_string).unwrap_or_default(),
        ))
    })?;
    let parse = |code: &str| -> Result<CombatResult, RefereeError> {
        code.parse()
            .map_err(|e: String| RefereeError::new("ruleset.invalid", e).rule(&c.table_rule))
    };
    let results: Dist<CombatResult> =
        codes.and_then(|code| Ok(Dist::certain(parse(code).unwrap_or_default())))?;

    let leader_alone = s.leader_alone;
    let has_cavalry = |units: &[(Unit, u32)]| units.iter().any(|(u, _)| u.cavalry);
    let (attacker_cavalry, defender_cavalry) =
        (has_cavalry(&attacker_units), has_cavalry(&defender_units));
    // Ranged units in combat formation cannot retreat: every hex is an SP (10.3.3, 10.7.4).
    // A mixed stack retreats as one, its ranged units with it (R-MED-21).
    let route = |units: &[(Unit, u32)], hex_of: &[usize], support: &SideSupport, side: &str| {
        let held = all_ranged(units) && units.iter().all(|(u, _)| !u.movement_formation);
        // Each hex retreats as its own stack: the largest counts for stacking (4.5.2).
        let mut stacks: Vec<u32> = Vec::new();
        for ((u, _), h) in units.iter().zip(hex_of) {
            if stacks.len() <= *h {
                stacks.resize(h + 1, 0);
            }
            stacks[*h] += u.sp * u.count;
        }
        let units: Vec<Unit> = units.iter().map(|(u, _)| u.clone()).collect();
        Route::new(
            data,
            support.retreat_hexes.as_deref(),
            side,
            &units,
            stacks.into_iter().max().unwrap_or(0),
            support.retreat_possible,
            held,
        )
    };
    let attacker_retreat = route(&attacker_units, &attacker_hex_of, &s.attacker, "attacker")?;
    let defender_retreat = route(&defender_units, &defender_hex_of, &s.defender, "defender")?;
    notes.extend(attacker_retreat.notes("attacker"));
    if !leader_alone {
        notes.extend(defender_retreat.notes("defender"));
    }
    // Who a scattering result scatters: nobody stacked with a leader (9.1.3). With the leader on
    // one hex, the side's other hexes scatter; a side-wide leader covers every unit. The scatter
    // d6 after a retreat (5.1.1 g) is read for each of them, by its hex.
    let read = |side: Target,
                thrower: Thrower,
                units: &[(Unit, u32)],
                hex_of: &[usize],
                flags: &[bool],
                leader,
                labels: Vec<Option<&str>>,
                word: &str,
                support: &SideSupport| {
        let by_hex = flags.iter().any(|f| *f);
        ScatterRead {
            side,
            thrower,
            units: units
                .iter()
                .zip(hex_of)
                .filter(|(_, h)| {
                    if by_hex {
                        !flags[**h]
                    } else {
                        leader != LeaderPresence::Stacked
                    }
                })
                .map(|((u, _), h)| (u.clone(), *h))
                .collect(),
            // A hex without a label: "the defender" when it is the side's only one.
            hexes: {
                let one = labels.len() == 1;
                labels
                    .into_iter()
                    .enumerate()
                    .map(|(i, l)| match l {
                        Some(l) => l.to_string(),
                        None if one => format!(
                            "the {}",
                            if thrower == Thrower::A {
                                "attacker"
                            } else {
                                "defender"
                            }
                        ),
                        None => format!("{word} hex {}", i + 1),
                    })
                    .collect()
            },
            by_hex,
            track_full: support.scatter_track_full,
        }
    };
    let attacker_read = read(
        Target::Attacker,
        Thrower::A,
        &attacker_units,
        &attacker_hex_of,
        &attacker_flags,
        attacker_leader,
        s.attackers.iter().map(|h| h.label.as_deref()).collect(),
        "attacking",
        &s.attacker,
    );
    let defender_read = read(
        Target::Defender,
        Thrower::B,
        &defender_units,
        &defender_hex_of,
        &defender_flags,
        defender_leader,
        s.defenders.iter().map(|h| h.label.as_deref()).collect(),
        "defending",
        &s.defender,
    );
    let exposed = |read: &ScatterRead| {
        read.units
            .iter()
            .map(|(u, _)| (u.clone(), 0))
            .collect::<Vec<(Unit, u32)>>()
    };
    let (attacker_exposed, defender_exposed) = (exposed(&attacker_read), exposed(&defender_read));
    let scatter_targets = |side: Target,
                           flags: &[bool],
                           labels: Vec<Option<&str>>,
                           word: &str,
                           units_exposed: bool| {
        if !units_exposed {
            Vec::new()
        } else if flags.iter().any(|f| *f) {
            flags
                .iter()
                .zip(labels)
                .enumerate()
                .filter(|(_, (f, _))| !**f)
                .map(|(i, (_, l))| {
                    Target::Hex(l.map_or_else(|| format!("{word} hex {}", i + 1), str::to_string))
                })
                .collect()
        } else {
            vec![side]
        }
    };
    let attacker_scatter = scatter_targets(
        Target::Attacker,
        &attacker_flags,
        s.attackers.iter().map(|h| h.label.as_deref()).collect(),
        "attacking",
        !attacker_exposed.is_empty(),
    );
    let defender_scatter = scatter_targets(
        Target::Defender,
        &defender_flags,
        s.defenders.iter().map(|h| h.label.as_deref()).collect(),
        "defending",
        !defender_exposed.is_empty(),
    );
    let effects_of = |r: &CombatResult| -> Vec<Effect> {
        let mut out = Vec::new();
        for (part, target, chooser, rule, route) in [
            (
                r.attacker,
                Target::Attacker,
                Chooser::Attacker,
                "5.4, 5.6.10",
                &attacker_retreat,
            ),
            (
                r.defender,
                Target::Defender,
                Chooser::Defender,
                "5.4",
                &defender_retreat,
            ),
        ] {
            if leader_alone && target == Target::Defender {
                continue;
            }
            let mut lost_sp = part.loss > 0;
            if part.loss > 0 {
                out.push(effect(
                    target.clone(),
                    Change::LoseSp {
                        count: part.loss,
                        chosen_by: chooser,
                    },
                    &c.table_rule,
                    c.result_ruling.as_deref(),
                ));
            }
            if part.retreat > 0 {
                out.push(effect(
                    target.clone(),
                    Change::Retreat {
                        hexes: part.retreat,
                    },
                    &c.table_rule,
                    c.result_ruling.as_deref(),
                ));
                if target == Target::Attacker {
                    out.push(effect(
                        target.clone(),
                        Change::ResetChargeFactor,
                        rule,
                        None,
                    ));
                }
                let walk = route.walk(part.retreat, part.loss);
                // 5.4.4, 5.8.7: the friendly non-cavalry the retreating cavalry enters.
                for i in &walk.ridden {
                    out.push(effect(
                        Target::Hex(route.label(*i).to_string()),
                        Change::DestroyAll,
                        "5.4.4, 5.8.3, 5.8.4, 5.8.7",
                        Some("R-MED-28"),
                    ));
                }
                // 5.4.6: 1 SP for each hex the retreat cannot be made.
                let short = part.retreat.saturating_sub(walk.reached);
                if short > 0 {
                    lost_sp = true;
                    let why = walk
                        .stop
                        .map_or(String::new(), |stop| format!(", {}", stop.rule()));
                    out.push(effect(
                        target.clone(),
                        Change::LoseSp {
                            count: short * data.retreat.blocked_sp_per_hex,
                            chosen_by: chooser,
                        },
                        &format!("{}{why}", data.retreat.rule),
                        walk.stop.map(|_| "R-MED-28"),
                    ));
                }
            }
            // 6.1.4: each unit these losses eliminate moves the track 1 box to the enemy; the
            // scatter and ride-downs that follow do not (9.1.5, 5.8.4).
            if lost_sp {
                out.push(effect(
                    target.clone(),
                    Change::MoraleIfEliminated {
                        boxes: data.morale.elimination,
                    },
                    &data.morale.elimination_rule,
                    Some("R-MED-34"),
                ));
            }
            if part.scattered {
                let (scattered, read) = if target == Target::Attacker {
                    (&attacker_scatter, &attacker_read)
                } else {
                    (&defender_scatter, &defender_read)
                };
                out.extend(read.effects(
                    scattered.clone(),
                    &c.table_rule,
                    c.result_ruling.as_deref(),
                ));
            }
        }
        // 5.2.11: every charge factor drops by 1 after a combat.
        for (cavalry, target) in [
            (attacker_cavalry, Target::Attacker),
            (defender_cavalry && !leader_alone, Target::Defender),
        ] {
            if cavalry {
                out.push(effect(
                    target,
                    Change::ReduceChargeFactor {
                        by: c.after_combat_cf,
                    },
                    "5.2.11",
                    None,
                ));
            }
        }
        if leader_alone {
            out.push(effect(
                Target::Defender,
                Change::LeaderKilled,
                &c.leader_alone_rule,
                None,
            ));
        }
        out
    };
    // Each side by its hexes' labels (the roster's units), else "the attacker" (5.1.1 f).
    let side_name = |labels: Vec<Option<&str>>, word: &'static str| -> (String, bool) {
        let named: Vec<&str> = labels.iter().flatten().copied().collect();
        if named.is_empty() || named.len() < labels.len() {
            (word.to_string(), true)
        } else {
            (and_list(&named), named.len() == 1)
        }
    };
    let (attacker_name, attacker_one) = side_name(
        s.attackers.iter().map(|h| h.label.as_deref()).collect(),
        "The attacker",
    );
    let (defender_name, defender_one) = if leader_alone {
        ("The leader".to_string(), true)
    } else {
        side_name(
            s.defenders.iter().map(|h| h.label.as_deref()).collect(),
            "The defender",
        )
    };
    let result_words = |r: &CombatResult| -> String {
        let attacker = Who {
            name: &attacker_name,
            one: attacker_one,
        };
        if leader_alone {
            let own = r.attacker.words(&attacker);
            return match own {
                Some(w) => format!("{w}; the leader is killed"),
                None => "The leader is killed".to_string(),
            };
        }
        let defender = Who {
            name: &defender_name,
            one: defender_one,
        };
        r.words(&attacker, &defender)
    };
    let meaning = |r: &CombatResult| -> String { format!("{}.", result_words(r)) };
    let mut distribution = Vec::new();
    let mut names = std::collections::BTreeMap::new();
    let mut seen: Vec<String> = Vec::new();
    for row in &c.rows {
        let code = row.results[final_column].clone();
        if seen.contains(&code) {
            continue;
        }
        let r = parse(&code)?;
        // The bar and the table name a result in words, with its code as printed.
        names.insert(code.clone(), format!("{} ({code})", result_words(&r)));
        distribution.push(ResultOdds::new(
            &code,
            &meaning(&r),
            rolls_text(&rolls, |x| code_at(x).is_ok_and(|c| c == code)),
            codes.probability(&code),
            effects_of(&r),
        ));
        seen.push(code);
    }
    // Asked in turn: the table's 2d6, then the scatter d6 of each side the result makes retreat
    // that a d6 could scatter (5.1.1 f–g) — not one scattered outright (R), eliminated, or whose
    // every unit stands with a leader (9.1.3).
    let side_sp = |units: &[(Unit, u32)]| units.iter().map(|(u, _)| u.sp * u.count).sum::<u32>();
    let (attacker_sp, defender_sp) = (side_sp(&attacker_units), side_sp(&defender_units));
    let asks_scatter = |part: Part, read: &ScatterRead, route: &Route, sp: u32| {
        if part.retreat == 0 || part.scattered || !read.asks(data, part.retreat) {
            return false;
        }
        let walk = route.walk(part.retreat, part.loss);
        let lost =
            part.loss + part.retreat.saturating_sub(walk.reached) * data.retreat.blocked_sp_per_hex;
        lost < sp
    };
    let mut throws = Throws::new(dice.unwrap_or(&[]));
    let mut table_dice = crate::rule_system::dice_of(&data.system.dice).unwrap_or_default();
    for d in &mut table_dice {
        d.purpose = Some("combat".into());
    }
    let outcome = match throws.stage(table_dice)? {
        None => None,
        Some(faces) => {
            let roll = crate::rule_system::resolve::faces_total(&spec, &faces)?;
            let code = code_at(roll)?.to_string();
            let r = parse(&code)?;
            let mut sides = vec![(r.attacker, &attacker_read, &attacker_retreat, attacker_sp)];
            if !leader_alone {
                sides.push((r.defender, &defender_read, &defender_retreat, defender_sp));
            }
            sides.retain(|(part, read, route, sp)| asks_scatter(*part, read, route, *sp));
            let asked = sides.iter().map(|(_, read, _, _)| read.die()).collect();
            throws.stage(asked)?.map(|scatter_faces| {
                let mut effects = effects_of(&r);
                let mut words = vec![meaning(&r)];
                for ((part, read, _, _), face) in sides.iter().zip(scatter_faces) {
                    let targets = read.scattered(data, part.retreat, face);
                    words.push(read.words(face, &targets));
                    effects.extend(read.effects(
                        targets,
                        &data.scatter.rule,
                        data.scatter.ruling.as_deref(),
                    ));
                }
                Outcome {
                    dice: dice.unwrap_or(&[]).to_vec(),
                    roll,
                    modified: roll,
                    meaning: words.join(" "),
                    effects,
                    result: code,
                    sides: Vec::new(),
                }
            })
        }
    };

    // --- chained forecast for both sides.
    let scatter_column = |units: &[(Unit, u32)]| {
        units
            .iter()
            .max_by_key(|(u, _)| data.scatter.threshold(&u.scatter, 2))
            .map(|(u, _)| u.scatter.clone())
            .unwrap_or_default()
    };
    let fate = |name,
                units: &[(Unit, u32)],
                exposed: &[(Unit, u32)],
                sp: u32,
                support: &SideSupport,
                route: Route,
                leader: LeaderPresence,
                hex_of: &[usize],
                flags: &[bool]| Fate {
        name,
        sp: units
            .iter()
            .map(|(u, _)| u.sp * u.count)
            .sum::<u32>()
            .max(sp.min(1)),
        route,
        leader: leader == LeaderPresence::Stacked,
        leader_hex: if flags.len() > 1 && flags.iter().any(|f| *f) {
            let on = |leader_hex: bool| {
                units
                    .iter()
                    .zip(hex_of)
                    .filter(|(_, h)| flags[**h] == leader_hex)
                    .map(|((u, _), _)| u.sp * u.count)
                    .sum::<u32>()
            };
            Some((on(true), on(false)))
        } else {
            None
        },
        scatter_immune: exposed.is_empty(),
        scatter_column: scatter_column(exposed),
        track_full: support.scatter_track_full,
    };
    let mut forecast_lines = forecast(
        data,
        &results,
        &fate(
            "attacker",
            &attacker_units,
            &attacker_exposed,
            attack,
            &s.attacker,
            attacker_retreat.clone(),
            attacker_leader,
            &attacker_hex_of,
            &attacker_flags,
        ),
        |r| r.attacker,
    )?;
    if s.attacker.retreat_hexes.is_none() && s.defender.retreat_hexes.is_none() {
        notes.push(Note::new(
            "Cavalry retreating through a hex of friendly non-cavalry rides it down (eliminated); describe the retreat hexes and the referee finds who.",
            "5.4.4",
            None,
        ));
    }
    if !leader_alone {
        forecast_lines.extend(forecast(
            data,
            &results,
            &fate(
                "defender",
                &defender_units,
                &defender_exposed,
                defence,
                &s.defender,
                defender_retreat.clone(),
                defender_leader,
                &defender_hex_of,
                &defender_flags,
            ),
            |r| r.defender,
        )?);
    }
    if [&attacker_units, &defender_units]
        .iter()
        .any(|units| units.iter().any(|(u, _)| u.scatter != units[0].0.scatter))
    {
        notes.push(Note::new(
            "Units of several types: one scatter roll, read for each unit; the forecast uses the most easily scattered.",
            &data.scatter.rule,
            None,
        ));
    }
    for (u, _) in attacker_units.iter().chain(&defender_units) {
        let own = data.unit_types.get(&u.key).map(|t| t.scatter.as_str());
        if own.is_some_and(|column| column != u.scatter) {
            notes.push(Note::new(
                format!(
                    "{} with armour {} scatter on the COMBAT SCATTER column of that armour.",
                    u.name, u.armour
                ),
                &data.scatter.rule,
                Some("R-MED-22"),
            ));
            break;
        }
    }
    if let Some((u, _)) = attacker_units
        .iter()
        .chain(&defender_units)
        .find(|(u, _)| u.cavalry && u.ranged.is_some())
    {
        notes.push(Note::new(
            format!(
                "{} fight as cavalry: their SPs count in full, they retreat, and they scatter as light cavalry at armour 0.",
                u.name
            ),
            "10.5.1",
            Some("R-MED-24"),
        ));
    }
    for units in [&attacker_units, &defender_units] {
        let held = |u: &Unit| u.fights_as_ranged() && !u.movement_formation;
        if units.iter().any(|(u, _)| held(u)) && !units.iter().all(|(u, _)| held(u)) {
            notes.push(Note::new(
                "Ranged units in combat formation stacked with other units retreat with the stack; only ranged units fighting on their own cannot retreat.",
                "10.3.3",
                Some("R-MED-21"),
            ));
            break;
        }
    }
    if [&attacker_flags, &defender_flags]
        .iter()
        .any(|flags| flags.len() > 1 && flags.iter().any(|f| *f))
    {
        notes.push(Note::new(
            "The leader's death roll counts the SPs lost on his own hex: the forecast puts there only the losses the side's other hexes cannot take, as its player chooses who loses.",
            "8.2.4, 8.2.5, 5.4.7",
            Some("R-MED-31"),
        ));
    }
    if attacker_leader == LeaderPresence::Stacked || defender_leader == LeaderPresence::Stacked {
        notes.push(Note::new(
            "A stacked leader retreats on his own, ignoring enemy ZoCs; if he cannot retreat he stops at the last hex he can reach.",
            "8.2.6, 8.2.7",
            None,
        ));
    }
    checks.push(Check::umpire(
        "Every unit with enemies in its ZoC attacks, and every enemy in an attacker's ZoC is attacked",
        "5.2.2, 5.2.3",
    ));

    let mut modifiers = attacker_modifiers;
    modifiers.extend(defender_modifiers.into_iter().map(|mut m| {
        m.value = -m.value;
        m
    }));
    Ok(Resolution {
        shown: Shown {
            faces: throws.finish()?,
            in_turn: true,
            names,
        },
        system: data.system.id.clone(),
        action: "combat".into(),
        dice: data.system.dice.clone(),
        totals,
        // The roll itself is never modified: the CMs shift the column (1.5).
        total_modifier: 0,
        modifiers,
        distribution,
        forecast: forecast_lines,
        checks,
        notes,
        outcome,
    })
}

#[cfg(test)]
mod leader_hex {
    use super::*;
    use crate::systems::{medieval::Medieval, test_support::load};

    fn leader_dies(leader_hex: Option<(u32, u32)>, part: Part) -> String {
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let side = Fate {
            name: "defender",
            sp: 3,
            route: Route::default(),
            leader: true,
            leader_hex,
            scatter_immune: true,
            scatter_column: String::new(),
            track_full: false,
        };
        let roll = "2d6".parse::<DiceSpec>().unwrap().distribution().unwrap();
        end_of(data, &side, part, &roll)
            .unwrap()
            .probability_where(|e| e.leader_dies)
            .to_string()
    }

    #[test]
    fn the_leader_counts_the_losses_of_his_own_hex() {
        // 8.2.4–8.2.5: D2-1 on a side of two hexes, the leader's with 1 SP and the other with 2.
        let d2_1 = Part {
            loss: 1,
            retreat: 2,
            scattered: false,
        };
        // The whole side's loss counted: 2d6 − 1 ≤ 2, 2d6 ≤ 3: 3 of 36.
        assert_eq!(leader_dies(None, d2_1), "1/12");
        // The other hex takes the loss (R-MED-31): 2d6 ≤ 2, 1 of 36.
        assert_eq!(leader_dies(Some((1, 2)), d2_1), "1/36");
        // A loss of 3 on 2 + 1 SPs: the leader's hex takes 1: 2d6 ≤ 3 again.
        let d2_3 = Part { loss: 3, ..d2_1 };
        assert_eq!(leader_dies(Some((1, 2)), d2_3), "1/12");
    }

    #[test]
    fn the_leader_counts_the_sps_his_units_can_lose_on_one_hex_as_on_several() {
        // 8.2.5, 5.4.6: a 2-SP unit with its leader on D2-1, its retreat blocked: 1 + 2 SPs
        // nominal, 2 it can lose. 2d6 − 2 ≤ 2: 6 of 36 on one hex and on several (R-MED-31).
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let blocked = Route::new(data, None, "defender", &[], 2, Some(0), false).unwrap();
        let roll = "2d6".parse::<DiceSpec>().unwrap().distribution().unwrap();
        let d2_1 = Part {
            loss: 1,
            retreat: 2,
            scattered: false,
        };
        let dies = |leader_hex| {
            let side = Fate {
                name: "defender",
                sp: 2,
                route: blocked.clone(),
                leader: true,
                leader_hex,
                scatter_immune: true,
                scatter_column: String::new(),
                track_full: false,
            };
            end_of(data, &side, d2_1, &roll)
                .unwrap()
                .probability_where(|e| e.leader_dies)
                .to_string()
        };
        assert_eq!(dies(None), "1/6");
        assert_eq!(dies(Some((2, 0))), "1/6");
    }
}
