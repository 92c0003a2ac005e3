//! Melee (6.x, Table 2.14): the roll-off with the largest unit's modifiers for each side,
//! weapon length and armour gaps, first-turn bonuses, ties (R-GTS-4); recoil for every unit
//! (7.1, R-GTS-6); and the chained round: hits → Disorder (6.13) → recoil → rout.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::data::GtsData;
use super::recoil::{joint_fate, side_fate, Fate, SideFate, Test};
use super::rolloff::{hits_word, melee_hits};
use super::units::{Unit, UnitEntry};
use crate::contract::{
    effect, Chance, Change, Check, Modifier, Note, Outcome, Resolution, ResultOdds, Shown,
    SideThrow, Target, Total,
};
use crate::error::{side_verb, RefereeError};
use crate::odds::Dist;
use crate::rule_system::resolve::is_default;
use crate::rule_system::throws::Throws;
use crate::ErrorCode;

/// A unit in a melee, with what the table can see of its position.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "GtsMeleeUnit")]
pub struct MeleeUnit {
    pub unit: UnitEntry,
    /// It is flanked (2.14).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub flanked: bool,
    /// It is flanking the enemy while not flanked itself (7.1).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub flanking: bool,
    /// It has the elevation advantage (2.14, 7.1).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub elevation: bool,
    /// It contacts twice its stands or more of enemy stands (7.1).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub contacts_double: bool,
    /// Personal valour of an attached leader (1.6).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub leader_pv: Option<i64>,
    /// The attached leader's name, when he has a row of his own on the roster: his casualty
    /// test's result lands on him there (1.9, Table 1.10). Without it, on the unit.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub leader_name: Option<String>,
    /// The first turn of this unit-on-unit combat: SH and HM bonuses apply (2.14).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub first_turn: bool,
    /// Its HM bonus or SH capability is already spent (2.14).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub first_turn_spent: bool,
    /// It touches a rough terrain feature as contact is made: a formed unit is Disordered
    /// (4.54), and close-order infantry there may be charged by cavalry (4.43).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub in_rough: bool,
    /// Cavalry that failed its response after an enemy rout and charges out of control (6.26):
    /// it may contact close-order infantry with an equal or longer weapon (4.43).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub out_of_control: bool,
    /// A frenzied elephant (4.46): it fights one unit at a time, and its contact puts the unit
    /// to a response test (4.45).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub frenzied: bool,
    /// Its leader's state from Table 1.10, kept by the roster until the turn ends (R-GTS-25).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub leader_condition: Option<LeaderCondition>,
    /// Its leader's wounds (Table 1.10, 3): PV +1 each, to at most +2 (1.2).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<u32>")]
    pub leader_wounds: u32,
    /// It is within 6" of a leader who fell on his sword this turn (Table 1.10, 8): −1 to melees
    /// and command tests.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub near_fallen_leader: bool,
    /// The runner or escort stand of an elephant or chariot (3.16): the mixed unit is the
    /// modifying unit of its side and counts two stands deep (3.164, R-GTS-26).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub escort: Option<UnitEntry>,
}

/// A leader's state from Table 1.10 that lasts beyond the test (R-GTS-25).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "GtsLeaderCondition")]
pub enum LeaderCondition {
    /// Result 2: P −1 until the turn ends.
    Dazed,
    /// Result 4: out of play until the turn ends.
    Unhorsed,
    /// Result 5: fights on until the turn ends, then passes out.
    SeriouslyWounded,
    /// Result 5, a turn later: out of play.
    PassedOut,
    Killed,
    Captured,
}

impl LeaderCondition {
    pub fn out_of_play(self) -> bool {
        !matches!(
            self,
            LeaderCondition::Dazed | LeaderCondition::SeriouslyWounded
        )
    }

    pub fn words(self) -> &'static str {
        match self {
            LeaderCondition::Dazed => "is dazed: his valour counts as −1 until the turn ends",
            LeaderCondition::Unhorsed => "is out of play until the turn ends",
            LeaderCondition::SeriouslyWounded => "fights on until the turn ends, then passes out",
            LeaderCondition::PassedOut => "has passed out and is out of play",
            LeaderCondition::Killed => "is dead",
            LeaderCondition::Captured => "is a prisoner",
        }
    }
}

impl MeleeUnit {
    /// The valour its leader brings now (1.6, Table 1.10): none when the unit has no leader or
    /// he is out of play, −1 when dazed ("P −1"), his PV plus his wounds (at most +2) otherwise.
    pub fn leader_valour(&self) -> Option<i64> {
        match self.leader_condition {
            Some(c) if c.out_of_play() => None,
            Some(LeaderCondition::Dazed) => Some(-1),
            _ if self.leader_pv.is_none() && self.leader_wounds == 0 => None,
            _ => Some((self.leader_pv.unwrap_or(0) + i64::from(self.leader_wounds)).min(2)),
        }
    }

    /// Table 1.10 changed the valour entered: the modifier cites it.
    fn leader_changed(&self) -> bool {
        self.leader_condition == Some(LeaderCondition::Dazed) || self.leader_wounds > 0
    }
}

/// melee, recoil and melee_round: the two sides of one combat.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "GtsMeleeSituation")]
pub struct MeleeSituation {
    pub side_a: Vec<MeleeUnit>,
    pub side_b: Vec<MeleeUnit>,
    /// Which unit's modifiers side A uses when several are equally large (6.12); default the first.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub modifying_a: Option<usize>,
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub modifying_b: Option<usize>,
    /// This round follows contact made this turn, side A having moved into contact: cavalry may
    /// not charge close-order infantry with an equal or longer weapon (4.43), camels Disorder
    /// cavalry (4.47), and contact from rough terrain Disorders (4.54).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub contact: bool,
    /// The elephant's contact test (4.45) is already chained in: the branch being resolved.
    #[serde(skip)]
    #[schemars(skip)]
    #[ts(skip)]
    pub elephant_tested: bool,
}

pub(super) struct Side {
    pub(super) name: &'static str,
    pub(super) units: Vec<(Unit, MeleeUnit)>,
    pub(super) modifying: usize,
    /// Units Disordered as contact is made, with the rule (4.47, 4.54).
    pub(super) contact_disorders: Vec<(String, &'static str)>,
}

fn side(
    data: &GtsData,
    entries: &[MeleeUnit],
    choice: Option<usize>,
    name: &'static str,
    field: &str,
) -> Result<Side, RefereeError> {
    if entries.is_empty() {
        return Err(RefereeError::new(
            ErrorCode::SituationNoUnits,
            format!("side {name} has no units in this combat"),
        )
        .field(field)
        .rule("6.11, 7.1"));
    }
    let units = entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            if let Some(pv) = e.leader_pv {
                super::units::check_pv(pv, &format!("{field}[{i}].leader_pv"))?;
            }
            let u = Unit::build(data, &e.unit, &format!("{field}[{i}].unit"))?;
            if let Some(escort) = &e.escort {
                check_escort(data, &u, escort, &format!("{field}[{i}].escort"))?;
            }
            Ok((u, e.clone()))
        })
        .collect::<Result<Vec<_>, RefereeError>>()?;
    // 3.164: an elephant or chariot with its escort is always its side's modifying unit.
    let escorted: Vec<usize> = units
        .iter()
        .enumerate()
        .filter(|(_, (_, e))| e.escort.is_some())
        .map(|(i, _)| i)
        .collect();
    if let Some(&first) = escorted.first() {
        return match choice {
            Some(i) if i != first => Err(RefereeError::new(
                ErrorCode::SituationInvalidField,
                "the elephant or chariot with its escort is always its side's modifying unit",
            )
            .field(format!("modifying_{}", name.to_lowercase()))
            .rule("3.164")),
            _ if escorted.len() > 1 => Err(RefereeError::new(
                ErrorCode::SituationInvalidField,
                "one mixed unit a side: each elephant or chariot with its escort is its side's modifying unit",
            )
            .field(format!("{field}[{}].escort", escorted[1]))
            .rule("3.164")),
            _ => Ok(Side {
                name,
                units,
                modifying: first,
                contact_disorders: Vec::new(),
            }),
        };
    }
    let largest = units.iter().map(|(u, _)| u.stands).max().unwrap_or(0);
    let modifying = match choice {
        Some(i) if i < units.len() => {
            if units[i].0.stands != largest {
                return Err(RefereeError::new(
                    ErrorCode::SituationInvalidField,
                    "the modifying unit is the largest unit in the combat (choice only between equals)",
                )
                .field(format!("modifying_{}", name.to_lowercase()))
                .rule("6.12"));
            }
            i
        }
        Some(_) => {
            return Err(
                RefereeError::new(ErrorCode::SituationInvalidField, "no such unit")
                    .field(format!("modifying_{}", name.to_lowercase())),
            )
        }
        None => units
            .iter()
            .position(|(u, _)| u.stands == largest)
            .unwrap_or(0),
    };
    Ok(Side {
        name,
        units,
        modifying,
        contact_disorders: Vec::new(),
    })
}

/// An escort runs with an elephant or a chariot and is one stand (3.16).
fn check_escort(
    data: &GtsData,
    u: &Unit,
    escort: &UnitEntry,
    field: &str,
) -> Result<(), RefereeError> {
    if !matches!(u.class.as_str(), "elephant" | "chariot") {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidField,
            "only an elephant or a chariot has an escort stand",
        )
        .field(field)
        .rule("3.16"));
    }
    let built = Unit::build(data, escort, field)?;
    if built.stands != 1 {
        return Err(
            RefereeError::new(ErrorCode::SituationInvalidField, "an escort is one stand")
                .field(format!("{field}.stands"))
                .rule("3.16"),
        );
    }
    Ok(())
}

/// The escort's stand, counted with its elephant or chariot: 2 stands deep (3.164, R-GTS-26).
pub(super) fn escort_stands(e: &MeleeUnit) -> u32 {
    u32::from(e.escort.is_some())
}

/// The name an escort's effects go to: its own, or the escort of the named unit.
pub(super) fn escort_name(u: &Unit, e: &MeleeUnit) -> Option<String> {
    e.escort.as_ref().map(|x| {
        x.name
            .clone()
            .unwrap_or_else(|| format!("the escort of {}", u.name))
    })
}

/// The side's melee modifiers: its modifying unit's, plus the combat's (Table 2.14).
fn melee_modifiers(data: &GtsData, own: &Side, other: &Side) -> Vec<Modifier> {
    let m = &data.melee;
    let (u, e) = &own.units[own.modifying];
    let (ou, _) = &other.units[other.modifying];
    // Each line names the side by its modifying unit (6.12), as the results do.
    let who = u.name.as_str();
    // The 1st-turn melee mod is not added to the melee mod: it is the unit's mod in its first
    // melee (the 2.10 note, R-GTS-14).
    let first = first_turn_bonus(u, e);
    let mut out = vec![match first {
        Some(v) => Modifier::new(
            // A weapon with no name of its own is not named in empty brackets.
            if u.weapon.name.is_empty() {
                format!("{who}: 1st-turn melee")
            } else {
                format!("{who}: 1st-turn melee ({})", u.weapon.name)
            },
            v,
            "2.10, 2.14",
            Some("R-GTS-14"),
        ),
        None => Modifier::new(
            format!("{who}: melee ({})", u.weapon.name),
            u.melee.value,
            "2.10, 6.12",
            Some("R-GTS-1"),
        ),
    }];
    if e.elevation {
        out.push(m.elevation.line(&format!("{who}: elevation")));
    }
    if u.routed {
        out.push(m.routed.line(&format!("{who}: Routed")));
    } else if u.disordered {
        out.push(m.disordered.line(&format!("{who}: Disordered")));
    }
    if let Some(pv) = e.leader_valour() {
        if pv != 0 {
            out.push(if e.leader_changed() {
                Modifier::new(
                    format!("{who}: leader's personal valour, as Table 1.10 left it"),
                    pv,
                    "1.6, 2.14, Table 1.10",
                    Some("R-GTS-25"),
                )
            } else {
                Modifier::new(
                    format!("{who}: leader's personal valour"),
                    pv,
                    "1.6, 2.14",
                    None,
                )
            });
        }
    }
    if e.near_fallen_leader {
        out.push(Modifier::new(
            format!("{who}: within 6\" of a leader who fell on his sword"),
            data.leader_casualty.near_fallen_leader,
            "Table 1.10",
            Some("R-GTS-25"),
        ));
    }
    if (e.flanked && !elephant_attacked_once(u, other)) || u.always_flanked {
        out.push(m.flanked.line(&format!("{who}: flanked")));
    }
    let more = own.units.len() as i64 - other.units.len() as i64;
    if more > 0 {
        out.push(Modifier::new(
            format!(
                "{who}: mass advantage ({} more)",
                crate::error::counted(more, "unit", "units")
            ),
            m.mass_per_unit * more,
            &m.mass_rule,
            m.mass_ruling.as_deref(),
        ));
    }
    if u.march {
        out.push(m.march.line(&format!("{who}: in March formation")));
    }
    if u.weapon_class < ou.weapon_class {
        out.push(Modifier::new(
            format!(
                "{who}: longer weapon ({} v {})",
                u.weapon_class, ou.weapon_class
            ),
            m.longer_weapon,
            &m.weapon_rule,
            None,
        ));
    }
    if let (Some(mine), Some(theirs)) = (u.armour_level, ou.armour_level) {
        if mine < theirs {
            let gap = i64::from(theirs - mine);
            out.push(Modifier::new(
                format!(
                    "{who}: {} less",
                    crate::error::counted(gap, "armour level", "armour levels")
                ),
                m.armour_level_gap * gap,
                &m.weapon_rule,
                None,
            ));
        }
    }
    out
}

/// What the roll-off leaves out, said aloud: entries on units that do not modify (6.12,
/// R-GTS-16), modifying units without an armour rating (R-GTS-22), and the recoil stand tiers
/// (7.1, R-GTS-17).
pub(super) fn melee_notes(sides: [&Side; 2], recoil: bool) -> Vec<Note> {
    let mut notes = Vec::new();
    for s in sides {
        for (i, (u, e)) in s.units.iter().enumerate() {
            if e.escort.is_some() {
                notes.push(Note::new(
                    format!(
                        "Side {}: {} fights with its escort: it is its side's modifying unit, takes the melee's hits, and counts 2 stands deep on its recoil test.",
                        s.name, u.name
                    ),
                    "3.164, 3.166",
                    Some("R-GTS-26"),
                ));
            }
            if let Some(c) = e.leader_condition {
                notes.push(Note::new(
                    format!("Side {}: the leader of {} {}.", s.name, u.name, c.words()),
                    "Table 1.10",
                    Some("R-GTS-25"),
                ));
            }
            if i == s.modifying {
                continue;
            }
            let mut set = Vec::new();
            if e.flanked {
                set.push("flank");
            }
            if e.elevation {
                set.push("elevation");
            }
            if e.leader_valour().is_some_and(|pv| pv != 0) {
                set.push("leader");
            }
            if e.near_fallen_leader {
                set.push("fallen leader");
            }
            if e.first_turn {
                set.push("first turn");
            }
            if !set.is_empty() {
                notes.push(Note::new(
                    format!(
                        "Side {}: {} is not the unit whose modifiers its side uses, so its {} entries do not change the roll-off; its elevation and leader still count in its own recoil test.",
                        s.name,
                        u.name,
                        set.join(", ")
                    ),
                    "6.12, 7.1",
                    Some("R-GTS-16"),
                ));
            }
        }
    }
    let [a, b] = sides;
    let (ua, ub) = (&a.units[a.modifying].0, &b.units[b.modifying].0);
    for u in [ua, ub] {
        if u.armour_level.is_none() {
            notes.push(Note::new(
                format!(
                    "{} has no armour rating: no armour gap is counted for or against it.",
                    u.name
                ),
                "2.1, 2.14",
                Some("R-GTS-22"),
            ));
        }
    }
    if recoil
        && sides
            .iter()
            .any(|s| s.units.iter().any(|(u, _)| u.stands >= 6))
    {
        notes.push(Note::new(
            "A unit of 6 or more stands takes −20 on its recoil roll, not −30: the 3-stand line does not add to the 6-stand line.",
            "7.1",
            Some("R-GTS-17"),
        ));
    }
    notes
}

fn tie_hits(data: &GtsData) -> impl Fn(i64, i64) -> u32 + '_ {
    move |a, b| {
        let m = &data.melee;
        for band in &m.ties {
            let inside =
                |x: i64| band.min.is_none_or(|lo| x >= lo) && band.max.is_none_or(|hi| x <= hi);
            if inside(a) && inside(b) {
                return band.hits;
            }
        }
        m.tie_default_hits
    }
}

/// The recoil test of each unit, given the hits the side's modifying unit just took.
fn recoil_tests(data: &GtsData, s: &Side, hits_taken: u32) -> Vec<Test> {
    s.units
        .iter()
        .enumerate()
        .map(|(i, (u, e))| {
            if i == s.modifying {
                let (stands, _) = u.after_hits(hits_taken);
                recoil_test(data, u, e, stands, disordered_by(u, hits_taken))
            } else {
                recoil_test(data, u, e, u.stands, u.disordered)
            }
        })
        .collect()
}

/// Whether a unit is Disordered once it has taken `hits` this round: a stand's worth (6.13) or a
/// chariot's or engine's second hit (3.32).
pub(super) fn disordered_by(u: &Unit, hits: u32) -> bool {
    u.disordered || hits >= u.hits_per_stand || u.disordered_for_good_by(hits)
}

/// One unit's recoil test (7.1) with the stands it has and whether it is Disordered now.
pub(super) fn recoil_test(
    data: &GtsData,
    u: &Unit,
    e: &MeleeUnit,
    stands: u32,
    disordered: bool,
) -> Test {
    let r = &data.recoil;
    let mut modifier = 0;
    if e.flanking && !e.flanked {
        modifier += r.flanking.modifier;
    }
    // 3.164: a mixed unit is 2 stands deep (R-GTS-26).
    let stands = stands + escort_stands(e);
    if stands >= 6 {
        modifier += r.six_stands.modifier;
    } else if stands >= 3 {
        modifier += r.three_stands.modifier;
    }
    if e.elevation {
        modifier += r.elevation.modifier;
    }
    if e.contacts_double {
        modifier += r.double_enemy_stands.modifier;
    }
    if disordered {
        modifier += r.disordered.modifier;
    }
    if u.march {
        modifier += r.march.modifier;
    }
    // R-GTS-8: a leader's valour lowers the md100 (lower is better on a recoil test).
    modifier -= e.leader_valour().unwrap_or(0);
    Test {
        number: u.recoil.value,
        modifier,
    }
}

fn recoil_modifier_lines(data: &GtsData, s: &Side, tests: &[Test]) -> Vec<Total> {
    s.units
        .iter()
        .zip(tests)
        .map(|((u, _), t)| Total {
            label: format!("{}: {}", s.name, u.name),
            value: format!("d100 {:+} against recoil number {}", t.modifier, t.number),
            rule: data.recoil.rule.clone(),
            ruling: data.recoil.ruling.clone(),
        })
        .collect()
}

pub(super) fn sides(data: &GtsData, s: &MeleeSituation) -> Result<(Side, Side), RefereeError> {
    let mut a = side(data, &s.side_a, s.modifying_a, "A", "side_a")?;
    let mut b = side(data, &s.side_b, s.modifying_b, "B", "side_b")?;
    named_apart([&mut a, &mut b]);
    for (side, field) in [(&a, "side_a"), (&b, "side_b")] {
        for (i, (u, _)) in side.units.iter().enumerate() {
            if u.skirmish {
                return Err(RefereeError::new(
                    ErrorCode::SituationSkirmishInMelee,
                    "skirmish stands never engage in melee",
                )
                .field(format!("{field}[{i}].unit.skirmish"))
                .rule("4.41"));
            }
        }
    }
    for (side, other, field) in [(&a, &b, "side_a"), (&b, &a, "side_b")] {
        for (i, (u, e)) in side.units.iter().enumerate() {
            if !e.frenzied {
                continue;
            }
            if u.class != "elephant" {
                return Err(RefereeError::new(
                    ErrorCode::SituationInvalidField,
                    "only an elephant frenzies",
                )
                .field(format!("{field}[{i}].frenzied"))
                .rule("7.4"));
            }
            if other.units.len() != 1 {
                return Err(RefereeError::new(
                    ErrorCode::SituationInvalidField,
                    "a frenzied elephant fights one unit at a time: split the combat",
                )
                .field(format!("{field}[{i}].frenzied"))
                .rule("4.46"));
            }
        }
    }
    let (mut a, mut b) = (a, b);
    if s.contact {
        contact_checks(&mut a, &mut b)?;
    }
    Ok((a, b))
}

/// What contact made this turn does before the first roll-off (4.43, 4.47, 4.54).
fn contact_checks(a: &mut Side, b: &mut Side) -> Result<(), RefereeError> {
    // 4.43: cavalry cannot contact formed close-order infantry whose primary weapon is as long
    // or longer (the lower letter), unless the infantry is Disordered or in rough terrain, or
    // the cavalry is out of control (6.26).
    for (i, (cav, ce)) in a.units.iter().enumerate() {
        if !super::contact::charges_as_cavalry(&cav.class) || ce.out_of_control {
            continue;
        }
        for (inf, ie) in &b.units {
            let guarded = inf.class == "infantry"
                && inf.close_order
                && !inf.disordered
                && !inf.routed
                && !ie.in_rough
                && inf.weapon_class <= cav.weapon_class;
            if guarded {
                return Err(RefereeError::new(
                    ErrorCode::SituationContactForbidden,
                    format!(
                        "{} cannot charge {}: cavalry may not contact close-order infantry with a weapon of equal or longer class ({} against {}) unless the infantry is Disordered or in rough terrain, or the cavalry is out of control",
                        cav.name, inf.name, cav.weapon_class, inf.weapon_class
                    ),
                )
                .field(format!("side_a[{i}].unit"))
                .rule("4.43"));
            }
        }
    }
    // What each side faces: camels, and a formed enemy unit.
    let faces = |other: &Side| {
        (
            other.units.iter().any(|(u, _)| u.class == "camelry"),
            other.units.iter().any(|(u, _)| !u.routed && !u.skirmish),
        )
    };
    let (against_a, against_b) = (faces(b), faces(a));
    for (own, (camels, formed_enemy)) in [(&mut *a, against_a), (&mut *b, against_b)] {
        for (u, e) in own.units.iter_mut() {
            let rule = if camels && u.class == "cavalry" {
                Some("4.47")
            } else if e.in_rough && formed_enemy && !u.routed {
                Some("4.54")
            } else {
                None
            };
            if let Some(rule) = rule {
                if !u.disordered {
                    u.disordered = true;
                    own.contact_disorders.push((u.name.clone(), rule));
                }
            }
        }
    }
    Ok(())
}

/// The 1st-turn melee mod a unit fights with, if this is its first turn and its bonus is not
/// spent (2.14).
fn first_turn_bonus(u: &Unit, e: &MeleeUnit) -> Option<i64> {
    u.melee_first
        .value
        .filter(|_| e.first_turn && !e.first_turn_spent)
}

/// A modifying unit that fought with its 1st-turn bonus has used it (2.14): every outcome says
/// so, and the roster keeps it.
fn first_turn_effects(sides: [&Side; 2]) -> Vec<crate::contract::Effect> {
    sides
        .iter()
        .map(|s| &s.units[s.modifying])
        .filter(|(u, e)| first_turn_bonus(u, e).is_some())
        .map(|(u, _)| {
            effect(
                Target::Unit(u.name.clone()),
                Change::FirstTurnSpent,
                "2.14",
                None,
            )
        })
        .collect()
}

/// The Disorder contact brings (4.47, 4.54), as effects every outcome of the round carries.
fn contact_effects(sides: [&Side; 2]) -> Vec<crate::contract::Effect> {
    sides
        .iter()
        .flat_map(|s| &s.contact_disorders)
        .map(|(name, rule)| effect(Target::Unit(name.clone()), Change::Disorder, rule, None))
        .collect()
}

/// An elephant is flanked only when attacked on more than one side (6.23): by one enemy unit,
/// however wide, it is attacked on one (R-GTS-29).
fn elephant_attacked_once(u: &Unit, other: &Side) -> bool {
    u.class == "elephant" && other.units.len() == 1
}

/// What the situation changes that the umpire should read: an elephant's flank not taken (6.23),
/// and the Disorder contact brings (4.47, 4.54).
fn contact_notes(sides: [&Side; 2]) -> Vec<Note> {
    let unflanked = [(sides[0], sides[1]), (sides[1], sides[0])]
        .into_iter()
        .flat_map(|(own, other)| {
            own.units
                .iter()
                .filter(|(u, e)| e.flanked && elephant_attacked_once(u, other))
                .map(|(u, _)| {
                    Note::new(
                        format!(
                            "{} is attacked by one unit only: an elephant is flanked only when attacked on more than one side, so it takes no flank modifier.",
                            u.name
                        ),
                        "6.23",
                        Some("R-GTS-29"),
                    )
                })
                .collect::<Vec<_>>()
        });
    let disorders = sides
        .iter()
        .flat_map(|s| &s.contact_disorders)
        .map(|(name, rule)| {
            Note::new(
                if *rule == "4.47" {
                    format!("{name} is Disordered by contact with camels, and fights Disordered.")
                } else {
                    format!("{name} touches rough terrain as contact is made: it is Disordered, and fights Disordered.")
                },
                rule,
                None,
            )
        });
    unflanked.chain(disorders).collect()
}

/// One combat's two sides, their modifiers and net values, and the roll-off's hits.
pub(super) struct Fight {
    pub(super) a: Side,
    pub(super) b: Side,
    ma: Vec<Modifier>,
    mb: Vec<Modifier>,
    na: i64,
    nb: i64,
    pub(super) hits: Dist<(u32, u32)>,
}

impl Fight {
    /// The hits each side's modifying unit takes when side A's d10 shows `x` and side B's `y`
    /// (6.12, the tie by R-GTS-4).
    pub(super) fn hits_for(&self, data: &GtsData, x: i64, y: i64) -> (u32, u32) {
        let (na, nb) = (self.na, self.nb);
        super::rolloff::melee_result(
            (x + na).clamp(1, 10),
            (y + nb).clamp(1, 10),
            tie_hits(data)(na, nb),
        )
    }
}

pub(super) fn fight(data: &GtsData, s: &MeleeSituation) -> Result<Fight, RefereeError> {
    let (a, b) = sides(data, s)?;
    let ma = melee_modifiers(data, &a, &b);
    let mb = melee_modifiers(data, &b, &a);
    let (na, nb): (i64, i64) = (
        ma.iter().map(|m| m.value).sum(),
        mb.iter().map(|m| m.value).sum(),
    );
    let hits = melee_hits(na, nb, &tie_hits(data))?;
    Ok(Fight {
        a,
        b,
        ma,
        mb,
        na,
        nb,
        hits,
    })
}

pub fn melee(
    data: &GtsData,
    s: &MeleeSituation,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    super::contact::with_elephant_contact(data, s, dice, |s, dice| roll_off(data, s, dice))
}

/// The roll-off itself, once the elephant's contact test (4.45) is settled.
fn roll_off(
    data: &GtsData,
    s: &MeleeSituation,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    let Fight {
        a,
        b,
        ma,
        mb,
        na,
        nb,
        hits,
    } = fight(data, s)?;
    let ties = tie_hits(data);
    let (ua, ub) = (&a.units[a.modifying].0, &b.units[b.modifying].0);
    let mut on_contact = contact_effects([&a, &b]);
    on_contact.extend(first_turn_effects([&a, &b]));
    let (ea, eb) = (&a.units[a.modifying].1, &b.units[b.modifying].1);
    let effects_for = |(ha, hb): (u32, u32)| {
        let mut out = on_contact.clone();
        for (h, u, e) in [(ha, ua, ea), (hb, ub, eb)] {
            // 3.166: an elephant's escort is removed the instant the melee eliminates it.
            if let Some(escort) = escort_name(u, e) {
                if u.class == "elephant" && h > 0 && u.after_hits(h).0 == 0 {
                    out.push(effect(
                        Target::Unit(escort),
                        Change::DestroyAll,
                        "3.166",
                        None,
                    ));
                }
            }
            if h > 0 {
                out.push(effect(
                    Target::Unit(u.name.clone()),
                    Change::Hits { count: h },
                    &data.melee.rule,
                    None,
                ));
                if h >= u.hits_per_stand && !u.disordered {
                    out.push(effect(
                        Target::Unit(u.name.clone()),
                        Change::Disorder,
                        "6.13",
                        None,
                    ));
                } else if u.disordered_for_good_by(h) && !u.disordered {
                    out.push(effect(
                        Target::Unit(u.name.clone()),
                        Change::Disorder,
                        "3.32",
                        None,
                    ));
                }
            }
        }
        out
    };
    // Each side by the unit that takes its hits (6.12).
    let [na_name, nb_name] = [ua.name.clone(), ub.name.clone()];
    let takes = |name: &str, n: u32| format!("{} {n}", side_verb(name, "take", "takes"));
    let words = |(ha, hb): (u32, u32)| match (ha, hb) {
        (0, 0) => "no hits".to_string(),
        (x, y) if x == y => format!("tie: {} each", hits_word(x)),
        (x, 0) => takes(&na_name, x),
        (0, y) => takes(&nb_name, y),
        (x, y) => format!("{}, {}", takes(&na_name, x), takes(&nb_name, y)),
    };
    // Most likely first would jump around; by the hits A takes minus B's, worst for A first
    // (a stable sort: equal differences keep the distribution's order).
    let mut rows: Vec<_> = hits.outcomes().collect();
    rows.sort_by_key(|((ha, hb), _)| -(i64::from(*ha) - i64::from(*hb)));
    let distribution: Vec<ResultOdds> = rows
        .into_iter()
        .map(|(h, p)| ResultOdds::new(&hits_key(*h), &words(*h), "—".into(), p, effects_for(*h)))
        .collect();
    let names = hits
        .outcomes()
        .map(|(h, _)| (hits_key(*h), crate::error::sentence(&words(*h))))
        .collect();
    let outcome = match dice {
        None => None,
        Some(faces) => {
            let (x, y) = super::rolloff::two_d10(faces, "side A's, then side B's")?;
            let (mx, my) = ((x + na).clamp(1, 10), (y + nb).clamp(1, 10));
            let h = super::rolloff::melee_result(mx, my, ties(na, nb));
            Some(Outcome {
                dice: faces.to_vec(),
                roll: x,
                modified: mx,
                result: hits_key(h),
                meaning: format!("{na_name} {mx} against {nb_name} {my}: {}.", words(h)),
                effects: effects_for(h),
                sides: vec![
                    SideThrow::new(na_name.clone(), x as u32, na, mx),
                    SideThrow::new(nb_name.clone(), y as u32, nb, my),
                ],
            })
        }
    };
    let lost = |h: u32, u: &Unit| h >= u.hits_per_stand - u.hits;
    let forecast = vec![
        Chance::new(
            format!("{na_name} loses a stand"),
            hits.probability_where(|(ha, _)| lost(*ha, ua)),
            "5.52, 6.12",
        ),
        Chance::new(
            format!("{na_name} is Disordered by its hits"),
            hits.probability_where(|(ha, _)| *ha >= ua.hits_per_stand && !ua.disordered),
            "6.13",
        ),
        Chance::new(
            format!("{nb_name} loses a stand"),
            hits.probability_where(|(_, hb)| lost(*hb, ub)),
            "5.52, 6.12",
        ),
        Chance::new(
            format!("{nb_name} is Disordered by its hits"),
            hits.probability_where(|(_, hb)| *hb >= ub.hits_per_stand && !ub.disordered),
            "6.13",
        ),
    ];
    let mut modifiers = ma;
    modifiers.extend(mb);
    Ok(Resolution {
        shown: Shown {
            names,
            ..Shown::default()
        },
        system: data.system.id.clone(),
        action: "melee".into(),
        dice: "d10 v d10".into(),
        totals: vec![
            Total {
                label: format!("Side A net modifier ({})", ua.name),
                value: format!("{na:+}"),
                rule: "6.12".into(),
                ruling: Some("R-GTS-2".into()),
            },
            Total {
                label: format!("Side B net modifier ({})", ub.name),
                value: format!("{nb:+}"),
                rule: "6.12".into(),
                ruling: Some("R-GTS-2".into()),
            },
        ],
        modifiers,
        total_modifier: na - nb,
        distribution,
        forecast,
        checks: std::iter::once(Check::umpire(
            "Every unit in contact fights at least one enemy unit; no stand splits its effort",
            "6.11",
        ))
        .chain(
            [&a, &b]
                .iter()
                .any(|s| s.units.iter().any(|(_, e)| e.frenzied))
                .then(|| {
                    Check::umpire(
                        "The frenzied elephant moved into contact in the Command phase, before any other combat, and an escort was removed when it frenzied",
                        "4.45, 4.46, 7.43, 3.166",
                    )
                }),
        )
        .collect(),
        notes: std::iter::once(Note::new(
            "Hits go to each side's modifying unit; a tie follows the net modifiers (R-GTS-4).",
            &data.melee.tie_rule,
            data.melee.tie_ruling.as_deref(),
        ))
        .chain(melee_notes([&a, &b], false))
        .chain(contact_notes([&a, &b]))
        .collect(),
        outcome,
    })
}

pub(super) fn fate_word(f: &Fate) -> &'static str {
    match f {
        Fate::Holds => "holds",
        Fate::Recoils => "recoils 3\"",
        Fate::Routs => "routs",
        Fate::Locked => "is locked in combat (+2 hits)",
    }
}

/// Each unit's fate for given d100 faces (side A's units, then side B's), by R-GTS-6.
pub(super) fn fates_for_rolls(ta: &[Test], tb: &[Test], faces: &[u32], multiple: i64) -> Vec<Fate> {
    let md = |t: &Test, f: u32| (i64::from(f) + t.modifier).clamp(1, 100);
    let ra: Vec<i64> = ta.iter().zip(faces).map(|(t, f)| md(t, *f)).collect();
    let rb: Vec<i64> = tb
        .iter()
        .zip(&faces[ta.len()..])
        .map(|(t, f)| md(t, *f))
        .collect();
    let lowest = |tests: &[Test], rolls: &[i64]| {
        tests
            .iter()
            .zip(rolls)
            .filter(|(t, r)| **r <= t.number)
            .map(|(_, r)| *r)
            .min()
    };
    let (low_a, low_b) = (lowest(ta, &ra), lowest(tb, &rb));
    let locked = low_a.is_none() && low_b.is_none();
    let fate = |t: &Test, r: i64, other_low: Option<i64>| {
        if r <= t.number {
            Fate::Holds
        } else if locked {
            Fate::Locked
        } else {
            match other_low {
                Some(l) if r >= multiple * l => Fate::Routs,
                _ => Fate::Recoils,
            }
        }
    };
    ta.iter()
        .zip(&ra)
        .map(|(t, r)| fate(t, *r, low_b))
        .chain(tb.iter().zip(&rb).map(|(t, r)| fate(t, *r, low_a)))
        .collect()
}

pub fn recoil(
    data: &GtsData,
    s: &MeleeSituation,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    let (a, b) = sides(data, s)?;
    for (side, field) in [(&a, "side_a"), (&b, "side_b")] {
        if let Some(i) = side.units.iter().position(|(u, _)| u.routed) {
            return Err(RefereeError::new(
                ErrorCode::SituationRoutedRecoil,
                "a routed unit makes another rout move instead of a recoil test",
            )
            .field(format!("{field}[{i}].unit.routed"))
            .rule("6.21"));
        }
    }
    let r = &data.recoil;
    let (ta, tb) = (recoil_tests(data, &a, 0), recoil_tests(data, &b, 0));
    let forecast = recoil_forecast(data, [&a, &b], [&ta, &tb])?;
    let distribution = recoil_distribution(data, [&a, &b], [&ta, &tb])?;
    let mut totals = recoil_modifier_lines(data, &a, &ta);
    totals.extend(recoil_modifier_lines(data, &b, &tb));
    let mut res = Resolution::certain(&data.system.id, "recoil", "", "", Vec::new());
    // A d100 for every unit, side A's then side B's, each on a pad named by the unit that throws
    // it; the tests they call for come after (laid out below).
    res.dice = format!("{}d100 v {}d100", a.units.len(), b.units.len());
    // Each row by its words, naming the sides' units.
    res.shown.names = distribution
        .iter()
        .map(|d| (d.result.clone(), crate::error::sentence(&d.meaning)))
        .collect();
    res.distribution = distribution;
    // The d100 of each unit on its own pad, then whatever its fate calls for, asked in turn: the
    // round's stages from no hits (played.rs), so a recoil lands as a round's recoil does.
    let mut throws = Throws::new(dice.unwrap_or(&[]));
    let played = super::played::play_after(data, [&a, &b], [0, 0], &mut throws)?;
    res.shown.faces = throws.finish()?;
    res.shown.in_turn = true;
    res.outcome = match (dice, played) {
        (Some(faces), Some(played)) => {
            Some(recoil_outcome(data, [&a, &b], [&ta, &tb], faces, played))
        }
        _ => None,
    };
    res.totals = totals;
    res.totals.push(Total {
        label: "Dice".into(),
        value: "a d100 for every unit, clamped to 1–100 after modifiers".into(),
        rule: data.recoil.rule.clone(),
        ruling: Some("R-GTS-2".into()),
    });

    res.forecast = forecast;
    res.checks = vec![Check::umpire(
        "Hits from being locked in combat or from a failed recoil-move test that cost a stand call for a stand-loss check",
        "7.1, 7.2, 5.53",
    )];
    res.notes.push(Note::new(
        "A failed unit routs when its md100 is at least twice the lowest passing md100 of the other side (R-GTS-6).",
        &r.rule,
        r.ruling.as_deref(),
    ));
    res.notes.extend(
        melee_notes([&a, &b], true)
            .into_iter()
            .filter(|n| n.ruling.as_deref() == Some("R-GTS-17")),
    );
    res.notes.extend(contact_notes([&a, &b]));
    Ok(res)
}

/// A side's fate in words, after the side's name (R-GTS-12): "every unit holds".
fn side_word(f: &SideFate) -> &'static str {
    match f {
        SideFate::Holds => "every unit holds",
        SideFate::GivesGround => "gives ground (recoils, none routs)",
        SideFate::SomeRout => "a unit routs",
        SideFate::Locked => "locked",
    }
}

/// Both sides' fates in the same rolls (R-GTS-12), each side named by its units: the row's words.
fn both_words((fa, fb): &(SideFate, SideFate), [a, b]: &[String; 2]) -> String {
    if *fa == SideFate::Locked {
        LOCKED.to_string()
    } else {
        format!("{a}: {}; {b}: {}", side_word(fa), side_word(fb))
    }
}

/// Everyone failed their recoil tests (7.1).
const LOCKED: &str = "everyone fails: locked, 2 hits each";

/// The row's key, from both fates: "holds/gives_ground"; "locked" when everyone failed.
fn both_key((fa, fb): &(SideFate, SideFate)) -> String {
    if *fa == SideFate::Locked {
        fa.code().to_string()
    } else {
        format!("{}/{}", fa.code(), fb.code())
    }
}

/// A roll-off's key: the hits each side takes, "hits_3_0".
fn hits_key((ha, hb): (u32, u32)) -> String {
    format!("hits_{ha}_{hb}")
}

/// The names of the combat's units, side A's first.
fn unit_names([a, b]: [&Side; 2]) -> Vec<String> {
    a.units
        .iter()
        .chain(&b.units)
        .map(|(u, _)| u.name.clone())
        .collect()
}

/// Every unit of the combat by a name of its own, as results and forecasts name them: a name two
/// units share (unnamed units of one type) says its side, and its place when that is not enough.
fn named_apart([a, b]: [&mut Side; 2]) {
    let names = unit_names([a, b]);
    let count = |n: &str| names.iter().filter(|x| *x == n).count();
    for side in [a, b] {
        let in_side: Vec<String> = side.units.iter().map(|(u, _)| u.name.clone()).collect();
        for (i, (u, _)) in side.units.iter_mut().enumerate() {
            if count(&u.name) < 2 {
                continue;
            }
            u.name = if in_side.iter().filter(|x| **x == u.name).count() < 2 {
                format!("{} (side {})", u.name, side.name)
            } else {
                format!("{} (side {}, unit {})", u.name, side.name, i + 1)
            };
        }
    }
}

/// A side named by its units: "Hoplites 1", "Hoplites 1 and Peltasts 2".
fn side_label(side: &Side) -> String {
    let names: Vec<&str> = side.units.iter().map(|(u, _)| u.name.as_str()).collect();
    crate::error::and_list(&names)
}

/// A side's fate from its units' fates.
fn side_of(fates: &[Fate]) -> SideFate {
    if fates.contains(&Fate::Locked) {
        SideFate::Locked
    } else if fates.contains(&Fate::Routs) {
        SideFate::SomeRout
    } else if fates.contains(&Fate::Recoils) {
        SideFate::GivesGround
    } else {
        SideFate::Holds
    }
}

/// Each unit's fate, then each side's (7.1, R-GTS-6).
fn recoil_forecast(
    data: &GtsData,
    [a, b]: [&Side; 2],
    [ta, tb]: [&Vec<Test>; 2],
) -> Result<Vec<Chance>, RefereeError> {
    let r = &data.recoil;
    // Each unit through the chain: its fate, then what follows it (7.2, 7.3, 1.9).
    let mut forecast = super::round::after_recoil_lines(data, [a, b])?;
    // Each side by its units' names.
    let labels = [side_label(a), side_label(b)];
    for (fates, label) in [
        side_fate(ta, tb, r.rout_multiple)?,
        side_fate(tb, ta, r.rout_multiple)?,
    ]
    .iter()
    .zip(&labels)
    {
        for (f, p) in fates.outcomes() {
            let words = match f {
                SideFate::Locked => LOCKED.to_string(),
                f => format!("{label}: {}", side_word(f)),
            };
            forecast.push(Chance::new(words, p, &r.rule));
        }
    }
    Ok(forecast)
}

/// The rows: both sides together (R-GTS-12). A row names each side's fate, not which unit
/// recoils or routs; only the locked row says what befalls every unit (everyone failed: hits
/// each), so it carries those effects, as the throw's outcome does — a battle's outlook then
/// counts the stands they cost.
fn recoil_distribution(
    data: &GtsData,
    [a, b]: [&Side; 2],
    [ta, tb]: [&Vec<Test>; 2],
) -> Result<Vec<ResultOdds>, RefereeError> {
    let r = &data.recoil;
    let joint = joint_fate(ta, tb, r.rout_multiple)?;
    let labels = [side_label(a), side_label(b)];
    let locked_hits: Vec<crate::contract::Effect> = a
        .units
        .iter()
        .chain(&b.units)
        .map(|(u, _)| {
            effect(
                Target::Unit(u.name.clone()),
                Change::Hits {
                    count: r.locked_hits,
                },
                &r.rule,
                r.ruling.as_deref(),
            )
        })
        .collect();
    Ok(joint
        .outcomes()
        .map(|(f, p)| {
            let effects = if f.0 == SideFate::Locked {
                locked_hits.clone()
            } else {
                Vec::new()
            };
            ResultOdds::new(
                &both_key(f),
                &both_words(f, &labels),
                "—".into(),
                p,
                effects,
            )
        })
        .collect())
}

/// The chain as thrown: each unit's d100 (side A's first) gives the row, and what the chain then
/// called for (7.2, 7.3, 1.9) lands with it.
fn recoil_outcome(
    data: &GtsData,
    [a, b]: [&Side; 2],
    [ta, tb]: [&Vec<Test>; 2],
    faces: &[u32],
    played: super::played::Played,
) -> Outcome {
    let r = &data.recoil;
    let fates = fates_for_rolls(ta, tb, faces, r.rout_multiple);
    let names = unit_names([a, b]);
    let mut effects = contact_effects([a, b]);
    effects.extend(played.effects);
    Outcome {
        dice: faces.to_vec(),
        roll: i64::from(faces[0]),
        modified: (i64::from(faces[0]) + ta[0].modifier).clamp(1, 100),
        result: both_key(&(
            side_of(&fates[..a.units.len()]),
            side_of(&fates[a.units.len()..]),
        )),
        meaning: played.words.join("; "),
        effects,
        // Each unit's own md100 (R-GTS-2), not a sum: the dice are one per unit.
        sides: names
            .iter()
            .zip(ta.iter().chain(tb))
            .zip(faces)
            .map(|((name, t), f)| {
                crate::contract::SideThrow::new(
                    name.clone(),
                    *f,
                    t.modifier,
                    (i64::from(*f) + t.modifier).clamp(1, 100),
                )
            })
            .collect(),
    }
}
