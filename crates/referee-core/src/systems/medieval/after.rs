//! After combat and around it: the pursuit test (5.5, R-MED-6), the leader-death roll (8.2.4,
//! R-MED-7), riding down (5.8) and countercharge eligibility (5.7).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::data::MedievalData;
use super::units::{resolve_hex, sp_of, terrain, unit, MedUnit, Unit};
use crate::contract::{effect, Change, Check, CheckStatus, Note, Resolution, Target, Total};
use crate::error::RefereeError;
use crate::odds::Band;
use crate::rule_system::resolve::{is_default, roll_named};
use crate::ErrorCode;

/// pursuit: is the pursuit obligatory (5.5.2)?
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "MedievalPursuitSituation")]
pub struct PursuitSituation {
    /// Hexes from the unit to its leader; 0 when he is on the attacker's hex.
    pub hexes_from_leader: u32,
    /// The side's MORALE value: at +2 or more the roll is 3 lower (5.5.10, R-MED-20).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<i64>")]
    pub morale: i64,
    /// The pursuing unit, to check the hexes of its pursuit (4.5.2, 5.5.9).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub pursuer: Option<MedUnit>,
    /// The hexes it would pursue into, in order.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<Vec<PursuitHex>>")]
    pub path: Vec<PursuitHex>,
    /// If the pursuit is voluntary, the player keeps the unit where it is (5.5.4): nothing
    /// moves and nothing is ridden down.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub stays: bool,
}

/// A hex of a pursuit: friendly units to stack with, enemy non-cavalry to ride down.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "MedievalPursuitHex")]
pub struct PursuitHex {
    /// The hex's name; a ride-down there is an effect on this hex (default: "pursuit hex 1" and
    /// so on).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub label: Option<String>,
    /// A key of the TERRAIN EFFECT chart (default: clear).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub terrain: Option<String>,
    /// SPs of friendly units there whose types are not given: they count for stacking (4.5.2).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<u32>")]
    pub friendly_sp: u32,
    /// Friendly units there: they count for stacking, and pursuing cavalry may ride their
    /// non-cavalry down to enter the hex (4.5.2, 5.8.7, R-MED-33).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<Vec<MedUnit>>")]
    pub friendly: Vec<MedUnit>,
    /// Enemy units there, to be ridden down (5.5.9).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<Vec<MedUnit>>")]
    pub enemy: Vec<MedUnit>,
    /// The units there are in a special formation, e.g. a shiltron (5.8.8).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub special_formation: bool,
    /// Hexes climbed to enter it (5.6.9).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<u32>")]
    pub uphill: u32,
}

/// What a pursuit's hexes do: the checks of each hex entered, the ride-downs (effects on the
/// hexes' labels) and where the pursuit stops.
#[derive(Default)]
struct PursuitPath {
    checks: Vec<Check>,
    ridden: Vec<crate::contract::Effect>,
    notes: Vec<Note>,
    /// The last hex the pursuit enters, when the umpire named it: the pursuer ends there
    /// (R-MED-45).
    ends: Option<String>,
}

/// Walks a pursuit's hexes in order: the stacking limit at every moment (4.5.2) and riding down
/// what the pursuing cavalry enters (5.5.9, 5.8.7: entering is enough, no CF or 5.8.2 margin;
/// 5.8.8 protects, R-MED-32, R-MED-33). The pursuit stops before a hex it cannot enter.
fn pursuit_path(data: &MedievalData, s: &PursuitSituation) -> Result<PursuitPath, RefereeError> {
    let mut out = PursuitPath::default();
    if s.path.is_empty() {
        return Ok(out);
    }
    let entry = s.pursuer.as_ref().ok_or_else(|| {
        RefereeError::new(
            ErrorCode::SituationInvalidField,
            "to check the hexes of a pursuit, enter the pursuing unit",
        )
        .field("pursuer")
        .rule("5.5")
    })?;
    let pursuer = unit(data, entry, "pursuer")?;
    let pursuer_sp = pursuer.sp * pursuer.count;
    let mv = &data.movement;
    for (i, hex) in s.path.iter().enumerate() {
        let field = format!("path[{i}]");
        let name = hex
            .label
            .clone()
            .unwrap_or_else(|| format!("pursuit hex {}", i + 1));
        let key = hex.terrain.clone().unwrap_or_else(|| "clear".into());
        let ground = terrain(data, &key, &format!("{field}.terrain"))?;
        let protected = data.ride_down.protected_terrain.contains(&key) || hex.special_formation;
        let enemy = hex_units(
            data,
            &hex.enemy,
            &format!("{field}.enemy"),
            ground.fortified,
        )?;
        let friendly = hex_units(
            data,
            &hex.friendly,
            &format!("{field}.friendly"),
            ground.fortified,
        )?;
        let title = capitalised(&name);
        let mut stop: Option<String> = None;
        let mut ridden = false;
        // 11.1.5: through fortifications only into the hex the defender held, the first.
        if ground.fortified && i > 0 {
            out.checks.push(Check::holds(
                format!("{title}: a fortified hex the defender did not hold: the pursuit cannot enter it"),
                false,
                "11.1.5",
            ));
            stop = Some("11.1.5".into());
        }
        if stop.is_none() && !enemy.is_empty() {
            let check = enemy_check(&pursuer, &enemy, protected, &title);
            if check.status == CheckStatus::Met {
                ridden = true;
            } else {
                stop = Some(check.rule.clone());
            }
            out.checks.push(check);
        }
        let limit = if ground.fortified {
            mv.fortified_stacking_sp
        } else {
            mv.stacking_sp
        };
        let sum = |cav: bool| sp_of(&friendly, |u| u.cavalry == cav);
        let (friendly_cavalry, friendly_other) = (sum(true), sum(false));
        let friends = hex.friendly_sp + friendly_cavalry + friendly_other;
        // 11.1.9: a fortified hex holds 2 SPs of cavalry at most, the pursuer's with its friends'.
        let cavalry_in = friendly_cavalry + if pursuer.cavalry { pursuer_sp } else { 0 };
        if stop.is_none() && ground.fortified && cavalry_in > mv.fortified_cavalry_sp {
            out.checks.push(Check::holds(
                format!(
                    "{title}: {cavalry_in} SPs of cavalry in a fortified hex, at most {}",
                    mv.fortified_cavalry_sp
                ),
                false,
                "11.1.9",
            ));
            stop = Some("11.1.9".into());
        }
        if stop.is_none() && friends > 0 {
            let check = friends_check(
                &pursuer,
                &friendly,
                hex.friendly_sp,
                protected,
                limit,
                &title,
            );
            if check.status != CheckStatus::Met {
                stop = Some(check.rule.clone());
            } else if check.ruling.is_some() {
                ridden = true;
            }
            out.checks.push(check);
        }
        if let Some(rule) = stop {
            out.notes.push(Note::new(
                format!(
                    "The pursuit stops before {name}: it cannot enter it, nor the hexes beyond."
                ),
                &rule,
                Some("R-MED-32"),
            ));
            break;
        }
        // Entered: the pursuit ends here unless it goes on; a hex left unnamed cannot be landed on.
        out.ends = hex.label.clone().filter(|l| !l.trim().is_empty());
        if ridden {
            // 5.8.3, 5.8.4: eliminated, without MORALE change.
            out.ridden.push(effect(
                Target::Hex(name.clone()),
                Change::DestroyAll,
                "5.5.9, 5.8.3, 5.8.4, 5.8.7",
                Some("R-MED-32"),
            ));
        }
        // 4.2.6 is a rule of movement: a pursuit entering such ground with its CF loses nothing.
        if ground.enter_loses_sp && pursuer.cf > 0 {
            out.notes.push(Note::new(
                format!("{title}: a pursuit is not movement: entering {} with its CF costs no SP and no scatter.", ground.name),
                "4.2.6, 5.5",
                Some("R-MED-39"),
            ));
        }
        if ground.fortified {
            out.notes.push(Note::new(
                format!("The pursuit ends in {name}: through fortifications it enters only the hex the defender held."),
                "11.1.5",
                None,
            ));
            break;
        }
    }
    Ok(out)
}

/// The units given on a pursuit hex, none when none are given.
fn hex_units(
    data: &MedievalData,
    given: &[MedUnit],
    field: &str,
    fortified: bool,
) -> Result<Vec<Unit>, RefereeError> {
    if given.is_empty() {
        Ok(Vec::new())
    } else {
        resolve_hex(data, given, field, fortified)
    }
}

/// 5.5.9: only cavalry rides down, only non-cavalry, and not what 5.8.8 protects; entering is
/// enough (5.8.7, R-MED-32). The check passes when the pursuit rides the enemy down.
fn enemy_check(pursuer: &Unit, enemy: &[Unit], protected: bool, title: &str) -> Check {
    let why_not = if !pursuer.cavalry {
        Some(("the pursuer is not cavalry", "5.5.9, 5.8.1"))
    } else if enemy.iter().any(|u| u.cavalry) {
        Some(("cavalry cannot be ridden down", "5.5.9"))
    } else if protected {
        Some((
            "infantry in fortifications, buildings or a special formation cannot be ridden down",
            "5.8.8",
        ))
    } else {
        None
    };
    match why_not {
        Some((why, rule)) => Check::holds(
            format!("{title}: the pursuit cannot enter the enemy there: {why}"),
            false,
            rule,
        )
        .ruling(Some("R-MED-32")),
        None => Check::holds(
            format!(
                "{title}: the pursuing cavalry rides down the enemy {} there: entering is enough",
                unit_names(enemy)
            ),
            true,
            "5.5.9, 5.8.7",
        )
        .ruling(Some("R-MED-32")),
    }
}

/// 4.5.2: the pursuer with the friends in a hex keeps the stacking limit, or its cavalry rides
/// the friendly infantry down to enter (5.8.1, 5.8.7, R-MED-33). The check passes with the
/// ruling when it rides them down.
fn friends_check(
    pursuer: &Unit,
    friendly: &[Unit],
    untyped_sp: u32,
    protected: bool,
    limit: u32,
    title: &str,
) -> Check {
    let pursuer_sp = pursuer.sp * pursuer.count;
    let sum = |cav: bool| sp_of(friendly, |u| u.cavalry == cav);
    let (friendly_cavalry, friendly_other) = (sum(true), sum(false));
    let total = untyped_sp + friendly_cavalry + friendly_other + pursuer_sp;
    let staying = untyped_sp + friendly_cavalry + pursuer_sp;
    if total <= limit {
        Check::holds(
            format!("{title}: {total} SPs with the friendly units there, at most {limit}"),
            true,
            "4.5.2",
        )
    } else if pursuer.cavalry && friendly_other > 0 && !protected && staying <= limit {
        let infantry: Vec<Unit> = friendly.iter().filter(|u| !u.cavalry).cloned().collect();
        Check::holds(
            format!(
                "{title}: {total} SPs would exceed {limit}; the pursuing cavalry rides down the friendly {} there to enter",
                unit_names(&infantry)
            ),
            true,
            "4.5.2, 5.8.1, 5.8.7",
        )
        .ruling(Some("R-MED-33"))
    } else {
        Check::holds(
            format!("{title}: {total} SPs with the friendly units there, at most {limit}"),
            false,
            "4.5.2",
        )
        .ruling(Some("R-MED-33"))
    }
}

fn unit_names(units: &[Unit]) -> String {
    units
        .iter()
        .map(|u| u.name.clone())
        .collect::<Vec<_>>()
        .join(", ")
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

pub fn pursuit(
    data: &MedievalData,
    s: &PursuitSituation,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    let p = &data.pursuit;
    data.morale.on_track(s.morale, "morale")?;
    let path = pursuit_path(data, s)?;
    let modifier = if s.morale >= p.high_morale {
        p.high_morale_modifier
    } else {
        0
    };
    // d6 + modifier ≤ hexes  ⇔  d6 ≤ hexes − modifier.
    let limit = i64::from(s.hexes_from_leader) - modifier;
    let rows = vec![
        (Band::at_most(limit), "obligatory".to_string()),
        (Band::above(limit), "voluntary".to_string()),
    ];
    let meaning = |code: &str| {
        let text = if code == "obligatory" {
            "Pursuit is obligatory: along the retreat path only, as far as the retreat (5.5.3)."
        } else {
            "Pursuit is voluntary: the unit may pursue, leaving the retreat path by 1 hex (5.5.4), or stay."
        };
        // A voluntary pursuit the player declines: the unit stays, nothing moves (5.5.4).
        if code != "obligatory" && s.stays {
            return (
                "Pursuit is voluntary, and the unit stays where it is (5.5.4).".to_string(),
                vec![],
            );
        }
        // The path described is the pursuit the unit makes (R-MED-32): its ride-downs follow
        // either way, and it ends on the last hex it enters (R-MED-45).
        let mut effects = path.ridden.clone();
        let mut text = text.to_string();
        if let Some(hex) = &path.ends {
            effects.push(effect(
                Target::Attacker,
                Change::EntersHex { hex: hex.clone() },
                "5.5",
                Some("R-MED-45"),
            ));
            text.push_str(&format!(" The pursuit ends on hex {hex}."));
        }
        (text, effects)
    };
    let (distribution, mut outcome) = roll_named(&p.dice, &rows, &meaning, dice)?;
    if let Some(o) = outcome.as_mut() {
        o.modified = o.roll + modifier;
    }
    let mut r = Resolution::certain(&data.system.id, "pursuit", "", "", vec![]);
    r.dice = p.dice.clone();
    // The results as 5.5.1–5.5.4 name them ("PO - pursuit obligatory"), never the keys.
    for (key, words) in [
        ("obligatory", "Pursuit obligatory"),
        ("voluntary", "Pursuit voluntary"),
    ] {
        r.shown.names.insert(key.to_string(), words.to_string());
    }
    r.distribution = distribution;
    r.outcome = outcome;
    r.total_modifier = modifier;
    if modifier != 0 {
        r.modifiers.push(crate::contract::Modifier::new(
            format!("MORALE +{} or more", p.high_morale),
            modifier,
            &p.high_morale_rule,
            p.high_morale_ruling.as_deref(),
        ));
    }
    r.totals.push(Total::new(
        "Obligatory on a modified d6 of at most",
        s.hexes_from_leader.to_string(),
        &p.rule,
        p.ruling.as_deref(),
    ));
    r.checks = vec![
        Check::umpire(
            "The first hex of any pursuit is the hex the retreat emptied",
            "5.5.5",
        ),
        Check::umpire(
            "Enemy ZoCs are ignored; CF does not grow; turns under 120° cost no CF",
            "5.5.6–5.5.8",
        ),
        Check::umpire(
            "Through fortifications, only into the hex the defender held",
            "11.1.5",
        ),
    ];
    r.checks.extend(path.checks);
    r.notes.extend(path.notes);
    if !path.ridden.is_empty() {
        r.notes.push(Note::new(
            "The units ridden down in the pursuit are eliminated; the MORALE track does not move.",
            "5.8.3, 5.8.4",
            Some("R-MED-32"),
        ));
    }
    Ok(r)
}

/// leader_death: the 2d6 roll for a leader stacked with retreating units (8.2.4, 8.2.5).
#[derive(Clone, Debug, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "MedievalLeaderDeathSituation")]
pub struct LeaderDeathSituation {
    /// Hexes the result orders the stack to retreat.
    pub retreat: u32,
    /// SPs the stack lost to the enemy, including for hexes it could not retreat (5.4.6).
    #[serde(default)]
    #[ts(optional, as = "Option<u32>")]
    pub sp_lost: u32,
    /// A grand leader (range 3): his death costs every unit 1 SP and 12 MORALE boxes.
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub grand_leader: bool,
}

pub fn leader_death(
    data: &MedievalData,
    s: &LeaderDeathSituation,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    let ld = &data.leader_death;
    if s.retreat == 0 {
        return Err(RefereeError::new(
            ErrorCode::SituationNoRetreat,
            "the leader-death roll is made only when the stack must retreat",
        )
        .field("retreat")
        .rule(&ld.rule));
    }
    // 2d6 − losses ≤ retreat  ⇔  2d6 ≤ retreat + losses.
    let limit = i64::from(s.retreat) + i64::from(s.sp_lost);
    let rows = vec![
        (Band::at_most(limit), "dies".to_string()),
        (Band::above(limit), "survives".to_string()),
    ];
    let meaning = |code: &str| {
        if code == "dies" {
            let (units_text, effects) = death_effects(data, "leader", s.grand_leader);
            (
                format!(
                    "The leader dies: {units_text} loses 1 SP; the enemy gains {} MORALE boxes.",
                    boxes(data, s.grand_leader)
                ),
                effects,
            )
        } else {
            // 8.2.6: his own retreat, a move on his row (R-MED-40).
            (
                "The leader survives and retreats on his own, ignoring enemy ZoCs.".to_string(),
                vec![effect(
                    Target::Unit("leader".into()),
                    Change::Retreat { hexes: s.retreat },
                    "8.2.6, 8.2.7, 8.2.8",
                    Some("R-MED-40"),
                )],
            )
        }
    };
    let (distribution, mut outcome) = roll_named(&ld.dice, &rows, &meaning, dice)?;
    if let Some(o) = outcome.as_mut() {
        o.modified = o.roll - i64::from(s.sp_lost);
    }
    let mut r = Resolution::certain(&data.system.id, "leader_death", "", "", vec![]);
    r.dice = ld.dice.clone();
    r.distribution = distribution;
    r.outcome = outcome;
    r.total_modifier = -i64::from(s.sp_lost);
    if s.sp_lost > 0 {
        r.modifiers.push(crate::contract::Modifier::new(
            format!("SPs lost by the retreating stack ({})", s.sp_lost),
            -i64::from(s.sp_lost),
            "8.2.5",
            ld.ruling.as_deref(),
        ));
    }
    r.totals.push(Total::new(
        "The leader dies on a modified 2d6 of at most",
        s.retreat.to_string(),
        &ld.rule,
        ld.ruling.as_deref(),
    ));
    r.notes.push(Note::new(
        "Unit losses caused by a leader's death do not move the MORALE track.",
        "8.1.6",
        None,
    ));
    Ok(r)
}

/// The MORALE boxes a leader's death moves: 8, a grand leader's 12 (6.1.6, 6.1.7).
pub fn boxes(data: &MedievalData, grand: bool) -> i64 {
    if grand {
        data.morale.grand_leader
    } else {
        data.morale.leader
    }
}

/// What the death of the leader `who` does, with his units in words: he is killed (8.2.4); the
/// units of his command lose 1 SP each (8.1.4), a grand leader's whole side (8.1.5), which moves
/// no MORALE (8.1.6); only his death moves the track, to the enemy (6.1.6, 6.1.7).
pub fn death_effects(
    data: &MedievalData,
    who: &str,
    grand: bool,
) -> (&'static str, Vec<crate::contract::Effect>) {
    let ld = &data.leader_death;
    let m = &data.morale;
    let who = who.to_string();
    let (morale_rule, units_text, units, units_rule) = if grand {
        (
            &m.grand_leader_rule,
            "every unit of his side",
            Target::SideOf(who.clone()),
            "8.1.5, 8.1.6",
        )
    } else {
        (
            &m.leader_rule,
            "every unit under his command",
            Target::Command(who.clone()),
            "8.1.4, 8.1.6",
        )
    };
    (
        units_text,
        vec![
            effect(
                Target::Unit(who.clone()),
                Change::LeaderKilled,
                &ld.rule,
                ld.ruling.as_deref(),
            ),
            effect(
                units,
                Change::LoseSp {
                    count: 1,
                    chosen_by: crate::contract::Chooser::Defender,
                },
                units_rule,
                None,
            ),
            effect(
                Target::EnemyOf(who),
                Change::Morale {
                    boxes: boxes(data, grand),
                },
                morale_rule,
                None,
            ),
        ],
    )
}

/// When the ride-down happens: it costs MPs only in the movement phase (5.8.6, 5.8.7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "MedievalRideDownWhen")]
pub enum RideDownWhen {
    #[default]
    Movement,
    Pursuit,
    Retreat,
}

/// ride_down: may this cavalry ride down these infantry, and at what cost (5.8)?
#[derive(Clone, Debug, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "MedievalRideDownSituation")]
pub struct RideDownSituation {
    pub cavalry: MedUnit,
    /// Hexes moved uphill to get there: CF −1 each (5.6.9).
    #[serde(default)]
    #[ts(optional, as = "Option<u32>")]
    pub uphill: u32,
    /// The ridden-down hex: its terrain and units.
    pub terrain: String,
    pub units: Vec<MedUnit>,
    /// The units are in a special formation (e.g. a shiltron) (5.8.8).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub special_formation: bool,
    #[serde(default)]
    #[ts(optional, as = "Option<RideDownWhen>")]
    pub when: RideDownWhen,
}

pub fn ride_down(data: &MedievalData, s: &RideDownSituation) -> Result<Resolution, RefereeError> {
    let rd = &data.ride_down;
    let c = &data.combat;
    let cav = unit(data, &s.cavalry, "cavalry")?;
    if !cav.cavalry {
        return Err(RefereeError::new(
            ErrorCode::SituationNotCavalry,
            format!("{} cannot ride down: only cavalry can", cav.name),
        )
        .field("cavalry.type")
        .rule("5.8.1"));
    }
    let ground = terrain(data, &s.terrain, "terrain")?;
    let targets = resolve_hex(data, &s.units, "units", ground.fortified)?;
    let cf = if ground.no_charge {
        0
    } else {
        cav.cf.saturating_sub(c.crossing_cf(
            false,
            false,
            super::combat::uphill_hexes(s.uphill, ground),
        ))
    };
    let cm = if cav.no_charge_modifier {
        0
    } else {
        cf.min(cav.armour + c.charge_cap_over_armour)
    };
    let target_armour = super::units::group_mean(targets.iter().map(|u| (u.armour, u.count)));
    let margin =
        i64::from(cm) + i64::from(cav.armour) - i64::from(target_armour) - i64::from(ground.combat);
    let sp: u32 = targets.iter().map(|u| u.sp * u.count).sum();
    // 5.4.4, 5.8.7: cavalry retreating through friendly non-cavalry eliminates it; entering the
    // hex is enough, whatever its CF.
    let retreat = s.when == RideDownWhen::Retreat;
    let entry_enough = s.when != RideDownWhen::Movement;
    let mut checks = vec![
        Check::holds(
            "The units ridden down are not cavalry",
            targets.iter().all(|u| !u.cavalry),
            match s.when {
                RideDownWhen::Retreat => "5.4.4",
                RideDownWhen::Pursuit => "5.5.9",
                RideDownWhen::Movement => "5.8.1",
            },
        ),
        Check::holds(
            format!("Charge factor above {} on entering (now {cf})", rd.min_cf - 1),
            cf >= rd.min_cf,
            "5.8.1, 5.6.9",
        ),
        Check::holds(
            format!(
                "CM from CF ({cm}) + armour ({}) − their armour ({target_armour}) − terrain ({}) = {margin} > 0",
                cav.armour, ground.combat
            ),
            margin > 0,
            "5.8.2",
        ),
        Check::holds(
            "Not in fortifications, buildings or a special formation",
            !rd.protected_terrain.contains(&s.terrain) && !s.special_formation,
            "5.8.8",
        )
        .ruling(retreat.then_some("R-MED-29")),
    ];
    if entry_enough {
        // Neither the CF of 5.8.1 nor the margin of 5.8.2 is asked of a pursuit or a retreat
        // (5.8.7, R-MED-32).
        checks.drain(1..3);
    }
    let ok = checks.iter().all(|c| c.status == CheckStatus::Met);
    let mut r = if ok {
        Resolution::certain(
            &data.system.id,
            "ride_down",
            "ridden_down",
            if retreat {
                "The retreating cavalry rides its own units down: they are eliminated; the MORALE track does not move."
            } else {
                "The units are ridden down and eliminated; the MORALE track does not move."
            },
            vec![effect(
                // In a retreat the units ridden down are the cavalry's own side's, not the
                // defender's: the umpire names them on the roster.
                if retreat {
                    Target::Unit("Friends ridden down".into())
                } else {
                    Target::Defender
                },
                Change::DestroyAll,
                match s.when {
                    RideDownWhen::Retreat => "5.4.4, 5.8.3, 5.8.4",
                    RideDownWhen::Pursuit => "5.5.9, 5.8.3, 5.8.4, 5.8.7",
                    RideDownWhen::Movement => "5.8.3, 5.8.4",
                },
                (s.when == RideDownWhen::Pursuit).then_some("R-MED-32"),
            )],
        )
    } else {
        Resolution::certain(
            &data.system.id,
            "ride_down",
            "cannot_ride_down",
            "The cavalry cannot ride these units down.",
            Vec::new(),
        )
    };
    r.checks = checks;
    if ok {
        let cost = match s.when {
            RideDownWhen::Movement => {
                let enter = 1 + if cav.cavalry {
                    ground.cavalry
                } else {
                    ground.infantry
                };
                r.totals.push(Total::new(
                    "Movement points",
                    format!(
                        "{sp} (SPs ridden down) + {enter} (entering) = {}",
                        sp + enter
                    ),
                    "5.8.6",
                    None,
                ));
                sp + enter
            }
            _ => 0,
        };
        if cost == 0 {
            r.totals.push(Total::new(
                "Movement points",
                "none: entering the hex in pursuit or retreat is enough",
                "5.8.7",
                None,
            ));
        }
    }
    Ok(r)
}

/// countercharge: may this cavalry countercharge, and with what CF (5.7)?
#[derive(Clone, Debug, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "MedievalCounterchargeSituation")]
pub struct CounterchargeSituation {
    pub unit: MedUnit,
    /// It turns 60° before moving (5.7.2 a): its CF drops to 0 first.
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub turns: bool,
    /// The hex it moves into is across a ford or stream: CF to 0 / −1.
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub through_ford: bool,
    /// The moving enemy is adjacent to its front area (5.7.1).
    pub enemy_adjacent_to_front: bool,
    /// It is in the ZoC of enemy cavalry (5.7.8).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub in_enemy_cavalry_zoc: bool,
    /// It already countercharged in this enemy movement phase (5.7.7).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub already_countercharged: bool,
    /// The moving enemy is adjacent to another friendly unit (5.7.10).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub enemy_adjacent_to_other_friendly: bool,
}

pub fn countercharge(
    data: &MedievalData,
    s: &CounterchargeSituation,
) -> Result<Resolution, RefereeError> {
    let c = &data.combat;
    let u = unit(data, &s.unit, "unit")?;
    let checks = vec![
        Check::holds("A cavalry unit", u.cavalry, "5.7.1"),
        Check::holds(
            "The moving enemy cavalry is adjacent to its front area",
            s.enemy_adjacent_to_front,
            "5.7.1",
        ),
        Check::holds(
            "Not in the ZoC of enemy cavalry",
            !s.in_enemy_cavalry_zoc,
            "5.7.8",
        ),
        Check::holds(
            "Has not countercharged this enemy movement phase",
            !s.already_countercharged,
            "5.7.7",
        ),
        Check::holds(
            "The enemy is not adjacent to another friendly unit",
            !s.enemy_adjacent_to_other_friendly,
            "5.7.10",
        ),
    ];
    let ok = checks.iter().all(|c| c.status == CheckStatus::Met);
    // 5.7.6: a turn sets CF to 0, then the hex moved towards the enemy adds 1.
    let start = if s.turns { 0 } else { u.cf };
    let cf = if s.through_ford {
        0
    } else {
        (start + 1).min(c.max_charge_factor)
    };
    let cm = if u.armour == 0 || u.no_charge_modifier {
        0
    } else {
        cf.min(u.armour + c.charge_cap_over_armour)
    };
    let mut r = if ok {
        Resolution::certain(
            &data.system.id,
            "countercharge",
            "may_countercharge",
            "It may countercharge: move next to the enemy and fight at once; the enemy stops.",
            Vec::new(),
        )
    } else {
        Resolution::certain(
            &data.system.id,
            "countercharge",
            "may_not_countercharge",
            "A condition of 5.7 is not met.",
            Vec::new(),
        )
    };
    r.checks = checks;
    r.totals = vec![
        Total::new(
            "Charge factor in the countercharge combat",
            cf.to_string(),
            "5.7.6",
            None,
        ),
        Total::new(
            "Combat modifiers from the charge factor",
            cm.to_string(),
            "5.7.6, 5.7.9, 5.6.5",
            None,
        ),
    ];
    r.notes.push(Note::new(
        "The countercharged unit stops whatever the result; countercharging does not stop a later cavalry combat.",
        "5.7.4, 5.7.11",
        None,
    ));
    Ok(r)
}

#[cfg(test)]
mod pursuit_hexes {
    use serde_json::json;

    use super::*;
    use crate::systems::{medieval::Medieval, test_support::load};

    fn units(data: &MedievalData, v: serde_json::Value) -> Vec<Unit> {
        let given: Vec<MedUnit> = serde_json::from_value(v).unwrap();
        hex_units(data, &given, "units", false).unwrap()
    }

    #[test]
    fn only_cavalry_rides_down_and_only_unprotected_non_cavalry() {
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let knights = &units(data, json!([{ "type": "heavy_cavalry", "sp": 2 }]))[0];
        let foot = units(data, json!([{ "type": "light_infantry", "sp": 2 }]));
        let horse = units(data, json!([{ "type": "cavalry", "sp": 2 }]));
        let rides = enemy_check(knights, &foot, false, "Hex");
        assert_eq!(
            (rides.status, rides.rule.as_str()),
            (CheckStatus::Met, "5.5.9, 5.8.7")
        );
        assert_eq!(
            enemy_check(&foot[0], &foot, false, "Hex").rule,
            "5.5.9, 5.8.1"
        );
        assert_eq!(enemy_check(knights, &horse, false, "Hex").rule, "5.5.9");
        assert_eq!(enemy_check(knights, &foot, true, "Hex").rule, "5.8.8");
        assert!(hex_units(data, &[], "units", false).unwrap().is_empty());
    }

    #[test]
    fn a_pursuer_keeps_the_stacking_limit_or_rides_friendly_infantry_down() {
        // 4.5.2: 2 SPs a hex; R-MED-33: cavalry rides friendly infantry down to enter.
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let limit = data.movement.stacking_sp;
        let knights = &units(data, json!([{ "type": "heavy_cavalry", "sp": 1 }]))[0];
        let foot = units(data, json!([{ "type": "light_infantry", "sp": 1 }]));
        let fits = friends_check(knights, &foot, 0, false, limit, "Hex");
        assert_eq!((fits.status, fits.ruling), (CheckStatus::Met, None));
        // Friends whose types are not given stay: 2 of them and the pursuer's 1 exceed 2.
        let full = friends_check(knights, &foot, 2, false, limit, "Hex");
        assert_eq!(full.status, CheckStatus::NotMet);
        let two = units(data, json!([{ "type": "light_infantry", "sp": 2 }]));
        let rides = friends_check(knights, &two, 0, false, limit, "Hex");
        assert_eq!(
            (rides.status, rides.ruling.as_deref()),
            (CheckStatus::Met, Some("R-MED-33"))
        );
        let shiltron = friends_check(knights, &two, 0, true, limit, "Hex");
        assert_eq!(shiltron.status, CheckStatus::NotMet);
    }
}
