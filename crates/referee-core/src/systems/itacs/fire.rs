//! Missile combat (4.2) and defensive fire (4.4): fire strength, terrain, stacking, range,
//! shields, rear and elite modifiers on the Missile Combat Table (10.4).

use super::data::{BandModifier, ItacsData, Terrain};
use super::forecast::{forecast, Stack};
use super::results::{effect, roll_on_table, EffectContext};
use super::situation::{
    check_square, check_stacking, resolve_units, road_note, square_has_no_rear_note, stack_state,
    terrain, FireSituation, FiringHex, ScarpLine, Unit,
};
use crate::contract::{Change, Check, Effect, Modifier, Note, Resolution, Shown, Target, Total};
use crate::error::RefereeError;
use crate::ErrorCode;

/// Which fire: missile combat (4.2), defensive fire (4.4), or horse archers after movement (6.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FireKind {
    Missile,
    Defensive,
    HorseArchers,
}

impl FireKind {
    fn action(self) -> &'static str {
        match self {
            FireKind::Missile => "missile",
            FireKind::Defensive => "defensive_fire",
            FireKind::HorseArchers => "horse_archer_fire",
        }
    }
}

/// 6.2: after firing, horse archers may break in open terrain against slow enemies; otherwise
/// they take D markers.
fn horse_archer_consequence(
    data: &ItacsData,
    s: &FireSituation,
    firing: &[Vec<Unit>],
) -> Result<(Vec<Check>, Vec<Effect>), RefereeError> {
    let ha = &data.horse_archers;
    let Some(after) = &s.after_movement else {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidField,
            "horse archer fire needs after_movement: their terrain, movement and the movement of the units in contact",
        )
        .field("after_movement")
        .rule(&ha.rule));
    };
    if after.fired_before_movement {
        return Err(RefereeError::new(
            ErrorCode::SituationAlreadyFired,
            "horse archers that fired in the missile combat phase may not fire again after movement",
        )
        .field("after_movement.fired_before_movement")
        .rule(&ha.rule));
    }
    for (i, units) in firing.iter().enumerate() {
        for (j, u) in units.iter().enumerate().filter(|(_, u)| u.firing) {
            let known = u.unit_type.as_ref().and_then(|t| data.unit_types.get(t));
            let carried = u
                .unit_type
                .as_ref()
                .and_then(|t| data.carriers.get(t))
                .is_some_and(|c| c.carried_horse_archer && !u.cargo.is_empty());
            if known.is_some_and(|t| !t.horse_archer) && !carried {
                return Err(RefereeError::new(
                    ErrorCode::SituationNotHorseArchers,
                    format!(
                        "{} units are not horse archers: only horse archers (and Ff units on chariots) fire after movement",
                        u.label
                    ),
                )
                .field(format!("firing_hexes[{i}].units[{j}].type"))
                .rule(&ha.rule));
            }
        }
    }
    let ground = terrain(data, &after.terrain, "after_movement.terrain")?;
    let open = ha
        .break_terrain
        .iter()
        .any(|k| data.terrain.get(k).is_some_and(|t| std::ptr::eq(t, ground)));
    let slower = after
        .contact_movement
        .iter()
        .all(|m| after.movement > m + ha.slower_by_more_than);
    let checks = vec![
        Check::holds(
            format!("In open terrain ({}): may break instead of being disrupted", ground.name),
            open,
            &ha.rule,
        )
        .ruling(ha.ruling.as_deref()),
        Check::holds(
            format!(
                "Every unit in contact has more than {} fewer movement points than the horse archers ({})",
                ha.slower_by_more_than, after.movement
            ),
            slower,
            &ha.rule,
        )
        .ruling(ha.ruling.as_deref()),
    ];
    let effects = if open && slower {
        Vec::new()
    } else {
        vec![effect(
            Target::Attacker,
            Change::DMarkers {
                count: ha.disruption,
            },
            &ha.rule,
            None,
        )]
    };
    Ok((checks, effects))
}

fn band_modifier(bands: &[BandModifier], value: i64) -> Option<i64> {
    bands
        .iter()
        .find(|b| b.band().contains(value))
        .map(|b| b.modifier)
}

fn plural(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

pub fn resolve(
    data: &ItacsData,
    s: &FireSituation,
    kind: FireKind,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    let m = &data.missile;
    let defensive = kind == FireKind::Defensive;
    let firing = firing_hexes(data, s, kind)?;
    let fire_strength: u32 = firing
        .hexes
        .iter()
        .flatten()
        .filter(|u| u.firing)
        .map(|u| u.fire_strength(data))
        .sum();
    if fire_strength == 0 {
        return Err(RefereeError::new(
            ErrorCode::SituationZeroFireStrength,
            "the firing units have no fire strength: units without one may not fire",
        )
        .field("firing_hexes")
        .rule("2.4.6"));
    }
    let (target_units, ground, terrain_mod) = fired_on(data, s)?;
    let stacked: u32 = target_units.iter().map(|u| u.count).sum();
    let mut notes = Vec::new();
    let (modifiers, rear) = fire_modifiers(
        data,
        s,
        &firing,
        &target_units,
        (ground, terrain_mod),
        fire_strength,
        &mut notes,
    )?;
    let total_modifier: i64 = modifiers.iter().map(|m| m.value).sum();
    let ff_disrupted = if defensive {
        ff_disrupted(data, s, &firing.hexes)
    } else {
        Vec::new()
    };
    let (mut checks, after_fire) = if kind == FireKind::HorseArchers {
        horse_archer_consequence(data, s, &firing.hexes)?
    } else {
        (Vec::new(), Vec::new())
    };
    checks.extend(fire_checks(data, &firing, &target_units, rear, defensive));
    notes.extend(fire_notes(data, &firing));
    let threw = threw(s, &firing.hexes);
    let dd = &data.defensive_fire;
    let extra = |_: &str| {
        ff_disrupted
            .iter()
            .map(|(label, ruling)| {
                effect(
                    Target::Hex(label.clone()),
                    Change::DMarkers {
                        count: dd.ff_disruption,
                    },
                    &dd.ff_disruption_rule,
                    *ruling,
                )
            })
            .chain(after_fire.iter().cloned())
            .chain(threw.iter().map(|label| {
                effect(
                    Target::Hex(label.clone()),
                    Change::ThrowingWeaponsUsed,
                    &data.throwing_weapons.rule,
                    None,
                )
            }))
            .collect()
    };
    let ctx = EffectContext {
        defending_units: stacked,
        extra: &extra,
    };
    let rolled = roll_on_table(data, &m.results, total_modifier, &ctx, dice)?;
    let target = Stack {
        label: s
            .target
            .label
            .as_ref()
            .map(|l| format!("Hex {l}"))
            .unwrap_or_else(|| "The target hex".to_string()),
        start: stack_state(
            data,
            &target_units,
            s.target.d_markers,
            s.target.rout,
            s.target.square,
        ),
    };
    let (chances, forecast_notes) =
        forecast(data, &rolled.results, &ctx, Target::Defender, &[target]);
    notes.extend(forecast_notes);
    Ok(Resolution {
        shown: Shown::default(),
        system: data.system.id.clone(),
        action: kind.action().into(),
        dice: data.system.dice.clone(),
        totals: vec![
            Total {
                label: "Fire strength".into(),
                value: fire_strength.to_string(),
                rule: "4.2, 4.2.7".into(),
                ruling: None,
            },
            Total {
                label: "Range".into(),
                value: firing.range.to_string(),
                rule: "4.2.7".into(),
                ruling: None,
            },
        ],
        modifiers,
        total_modifier,
        distribution: rolled.distribution,
        forecast: chances,
        checks,
        notes,
        outcome: rolled.outcome,
    })
}

/// The firing hexes read and checked: their units, the longest range, and whether a printed
/// range was missing or a hill's +1 was needed (4.2.3).
struct Firing {
    hexes: Vec<Vec<Unit>>,
    range: u32,
    range_unknown: bool,
    hills_used: bool,
}

fn firing_hexes(
    data: &ItacsData,
    s: &FireSituation,
    kind: FireKind,
) -> Result<Firing, RefereeError> {
    let action_rule = match kind {
        FireKind::Defensive => data.defensive_fire.rule.as_str(),
        FireKind::HorseArchers => data.horse_archers.rule.as_str(),
        FireKind::Missile => data.missile.rule.as_str(),
    };
    if kind != FireKind::HorseArchers && s.after_movement.is_some() {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidField,
            "after_movement is for horse archers firing after movement (action horse_archer_fire)",
        )
        .field("after_movement")
        .rule("6.2"));
    }
    if s.firing_hexes.is_empty() {
        return Err(RefereeError::new(
            ErrorCode::SituationNoUnits,
            "enter at least one firing hex",
        )
        .field("firing_hexes")
        .rule(action_rule));
    }
    // 4.2.3: hills add to the fire range against units not on hills.
    let target_bonus = terrain(data, &s.target.terrain, "target.terrain")
        .ok()
        .and_then(|t| t.fire_range_bonus);
    let mut firing = Firing {
        hexes: Vec::new(),
        range: 0,
        range_unknown: false,
        hills_used: false,
    };
    for (i, hex) in s.firing_hexes.iter().enumerate() {
        let units = firing_hex(data, hex, i, kind, target_bonus, &mut firing)?;
        firing.hexes.push(units);
    }
    Ok(firing)
}

/// One firing hex: may it fire, at that range, with those units (4.2, 4.4, 5.1, 6.6, 2.4.1).
fn firing_hex(
    data: &ItacsData,
    hex: &FiringHex,
    i: usize,
    kind: FireKind,
    target_bonus: Option<u32>,
    firing: &mut Firing,
) -> Result<Vec<Unit>, RefereeError> {
    let defensive = kind == FireKind::Defensive;
    let field = format!("firing_hexes[{i}]");
    if hex.disrupted {
        return Err(RefereeError::new(
            ErrorCode::SituationDisruptedAttacker,
            "units that are disrupted may not fire: they may not attack enemy units",
        )
        .field(format!("{field}.disrupted"))
        .rule("5.1, 9.0"));
    }
    let bonus = match &hex.terrain {
        Some(key) => terrain(data, key, &format!("{field}.terrain"))?
            .fire_range_bonus
            .filter(|_| target_bonus.is_none())
            .unwrap_or(0),
        None => 0,
    };
    if hex.range == 0 {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidRange,
            "range must be 1 or more: count hexes from the firing hex to the target hex",
        )
        .field(format!("{field}.range"))
        .rule("4.2.7"));
    }
    if defensive && hex.range > data.defensive_fire.range {
        return Err(RefereeError::new(
            ErrorCode::SituationOutOfRange,
            format!(
                "defensive fire is only at adjacent hexes (range {}), not range {}",
                data.defensive_fire.range, hex.range
            ),
        )
        .field(format!("{field}.range"))
        .rule(&data.defensive_fire.rule));
    }
    firing.range = firing.range.max(hex.range);
    let units = resolve_units(data, &hex.units, &field)?;
    check_stacking(data, &units, &field)?;
    for (j, _) in units.iter().enumerate().filter(|(_, u)| u.throwing) {
        let tw = &data.throwing_weapons;
        if !defensive {
            return Err(RefereeError::new(
                ErrorCode::SituationThrowingNotDefensive,
                "throwing weapons may only be used in defensive fire",
            )
            .field(format!("{field}.units[{j}].throwing"))
            .rule(&tw.rule));
        }
        if hex.range > tw.range {
            return Err(RefereeError::new(
                ErrorCode::SituationOutOfRange,
                format!("throwing weapons have range {}", tw.range),
            )
            .field(format!("{field}.range"))
            .rule(&tw.rule));
        }
    }
    for u in units.iter() {
        if !u.firing || u.fire_strength(data) == 0 || u.throwing {
            continue;
        }
        match u.fire_range {
            None => firing.range_unknown = true,
            Some(reach) if hex.range > reach + bonus => {
                let hills = if bonus > 0 {
                    format!(" (+{bonus} from hills)")
                } else {
                    String::new()
                };
                return Err(RefereeError::new(
                    ErrorCode::SituationOutOfRange,
                    format!(
                        "{} units fire {}{hills}: the target at range {} is out of their reach",
                        u.label,
                        plural(reach + bonus, "hex", "hexes"),
                        hex.range
                    ),
                )
                .field(format!("{field}.range"))
                .rule("4.2, 4.2.3"));
            }
            Some(reach) => firing.hills_used |= hex.range > reach,
        }
    }
    for (j, u) in units.iter().enumerate() {
        let standard = u
            .class
            .as_ref()
            .and_then(|c| data.unit_classes.get(c))
            .is_some_and(|c| c.no_missiles);
        if u.firing && !u.throwing && u.fire > 0 && standard {
            return Err(RefereeError::new(
                ErrorCode::SituationMayNotFire,
                format!(
                    "{} units are class {}, standard combat units: they may not fire missiles (only throwing weapons, in defensive fire)",
                    u.label,
                    u.class.as_deref().unwrap_or_default()
                ),
            )
            .field(format!("{field}.units[{j}].fire"))
            .rule("2.4.1"));
        }
    }
    if defensive {
        // Throwing weapons are carried by infantry (10.2.1), never Ff: no class is needed.
        for (j, u) in units
            .iter()
            .enumerate()
            .filter(|(_, u)| u.firing && !u.throwing)
        {
            u.require_class(&format!("{field}.units[{j}]"))?;
        }
    }
    Ok(units)
}

/// The target hex: its units, its ground and the ground's missile modifier; impassable ground
/// and a square that cannot be are refused (10.3, 2.6.1).
fn fired_on<'d>(
    data: &'d ItacsData,
    s: &FireSituation,
) -> Result<(Vec<Unit>, &'d Terrain, i64), RefereeError> {
    let target_units = resolve_units(data, &s.target.units, "target")?;
    let ground = terrain(data, &s.target.terrain, "target.terrain")?;
    let Some(terrain_mod) = ground.missile else {
        return Err(RefereeError::new(
            ErrorCode::SituationImpassable,
            format!(
                "{} is impassable: no unit can be fired on there",
                ground.name
            ),
        )
        .field("target.terrain")
        .rule(&ground.rule));
    };
    super::situation::check_can_stand(data, &target_units, ground, s.target.stream, "target")?;
    if s.target.square {
        check_square(
            data,
            &target_units,
            s.target.d_markers,
            "target",
            &data.melee.square_rule,
        )?;
    }
    Ok((target_units, ground, terrain_mod))
}

/// The fire's modifiers from the Missile Combat Table (10.4): strength, terrain, stream, scarp,
/// stacking, range, shields and rear (a square has none, R-ITACS-5), elite; and whether a firer
/// is in a rear hex.
fn fire_modifiers(
    data: &ItacsData,
    s: &FireSituation,
    firing: &Firing,
    target_units: &[Unit],
    (ground, terrain_mod): (&Terrain, i64),
    fire_strength: u32,
    notes: &mut Vec<Note>,
) -> Result<(Vec<Modifier>, bool), RefereeError> {
    let m = &data.missile;
    let stacked: u32 = target_units.iter().map(|u| u.count).sum();
    let mut modifiers = Vec::new();
    let table = m.table_rule.as_str();
    let strength_mod =
        band_modifier(&m.fire_strength, i64::from(fire_strength)).ok_or_else(|| {
            RefereeError::new(
                ErrorCode::SituationOffTable,
                format!("fire strength {fire_strength} is not on the fire strength table"),
            )
            .field("firing_hexes")
            .rule(table)
        })?;
    modifiers.push(Modifier::new(
        format!("Attacking fire strength ({fire_strength})"),
        strength_mod,
        table,
        None,
    ));
    modifiers.push(Modifier::new(
        format!("Terrain: {}", ground.name),
        terrain_mod,
        &ground.rule,
        ground.ruling.as_deref(),
    ));
    if s.target.road {
        notes.push(road_note());
    }
    if s.target.stream {
        let st = &data.stream;
        modifiers.push(Modifier::new(
            st.name.clone(),
            st.missile,
            &st.rule,
            st.ruling.as_deref(),
        ));
    }
    match s.target.scarp {
        ScarpLine::None => {}
        ScarpLine::FiringDown => modifiers.push(Modifier::new(
            "Scarp: firing down",
            data.scarp.firing_down,
            &data.scarp.rule,
            None,
        )),
        ScarpLine::FiringUp => modifiers.push(Modifier::new(
            "Scarp: firing up",
            data.scarp.firing_up,
            &data.scarp.rule,
            None,
        )),
    }
    let stacking_mod = band_modifier(&m.stacking, i64::from(stacked)).ok_or_else(|| {
        RefereeError::new(
            ErrorCode::SituationStackingOffTable,
            format!(
                "{stacked} units in one hex is off the stacking table (leaders are not counted)"
            ),
        )
        .field("target.units")
        .rule("4.3.3, 10.4")
    })?;
    modifiers.push(Modifier::new(
        format!("Stacking ({})", plural(stacked, "unit", "units")),
        stacking_mod,
        table,
        None,
    ));
    let range_mod = band_modifier(&m.range, i64::from(firing.range)).ok_or_else(|| {
        RefereeError::new(
            ErrorCode::SituationOffTable,
            format!("range {} is not on the range table", firing.range),
        )
        .field("firing_hexes")
        .rule(table)
    })?;
    modifiers.push(Modifier::new(
        format!("Range ({})", plural(firing.range, "hex", "hexes")),
        range_mod,
        &format!("4.2.7, {table}"),
        None,
    ));
    // A square has no rear hexes (2.6.1, R-ITACS-5): a firer "in the rear" neither adds the rear
    // modifier nor takes the shields away.
    let rear_entered = s.firing_hexes.iter().any(|h| h.rear);
    let rear = rear_entered && !s.target.square;
    if target_units.iter().any(|u| u.shields) {
        if rear {
            notes.push(Note::new(
                "Shields do not count: a firer is in a rear hex.",
                &m.shields.rule,
                m.shields.ruling.as_deref(),
            ));
        } else {
            modifiers.push(m.shields.line("Shields"));
        }
    }
    if rear {
        modifiers.push(m.rear.line("Rear attack"));
    } else if rear_entered {
        let mut note = square_has_no_rear_note(&data.melee.square_rule);
        if target_units.iter().any(|u| u.shields) {
            note.message =
                "A square has no rear hexes: no rear modifier, and its shields count.".into();
        }
        notes.push(note);
    }
    if firing.hexes.iter().flatten().any(|u| u.firing && u.elite) {
        modifiers.push(m.elite_attacking.line("Elite unit attacking"));
    }
    Ok((modifiers, rear))
}

/// Defensive fire's Ff firers disrupted (4.4.1), by hex label, with the ruling each rests on:
/// unless a leader or another unit with a non-dot combat strength shares their hex (R-ITACS-30).
fn ff_disrupted<'d>(
    data: &'d ItacsData,
    s: &FireSituation,
    firing: &[Vec<Unit>],
) -> Vec<(String, Option<&'d str>)> {
    let dd = &data.defensive_fire;
    let disrupts = |u: &Unit| {
        u.firing
            && u.class
                .as_ref()
                .is_some_and(|c| dd.ff_disruption_classes.contains(c))
    };
    s.firing_hexes
        .iter()
        .zip(firing)
        .enumerate()
        .filter(|(_, (hex, units))| {
            let ff_fired = units.iter().any(disrupts);
            let covered = hex.leader
                || units.iter().any(|u| {
                    !disrupts(u)
                        && u.combat
                            .is_some_and(|c| c.half_points(false).unwrap_or(0) > 0)
                });
            ff_fired && !covered
        })
        .map(|(i, (hex, units))| {
            let label = hex
                .label
                .clone()
                .unwrap_or_else(|| format!("firing hex {}", i + 1));
            // Firing Ff units with a non-dot strength do not spare one another (R-ITACS-30).
            let strong_firers = units.iter().any(|u| {
                disrupts(u)
                    && u.combat
                        .is_some_and(|c| c.half_points(false).unwrap_or(0) > 0)
            });
            let ruling = if strong_firers {
                dd.ff_firers_ruling.as_deref()
            } else {
                dd.ff_disruption_ruling.as_deref()
            };
            (label, ruling)
        })
        .collect()
}

/// What the umpire checks on the table: arcs (4.2.1, 4.4), horse archers' arcs, line of sight
/// (4.2.3) and, where a range was not printed, the reach.
fn fire_checks(
    data: &ItacsData,
    firing: &Firing,
    target_units: &[Unit],
    rear: bool,
    defensive: bool,
) -> Vec<Check> {
    let mut checks = Vec::new();
    let firers: Vec<Unit> = firing
        .hexes
        .iter()
        .flatten()
        .filter(|u| u.firing)
        .cloned()
        .collect();
    let ha_arcs = super::situation::horse_archer_arcs(data, &firers, target_units, rear);
    let ha_firing = firers
        .iter()
        .any(|u| u.type_data(data).is_some_and(|t| t.horse_archer));
    if !ha_firing || firers.len() > 1 {
        checks.push(if defensive {
            Check::umpire(
                "The target is in an adjacent front or side hex of every firing unit",
                "4.4, 4.2.1",
            )
        } else {
            Check::umpire(
                "Every firing unit fires through its front or side hexes",
                "4.2.1",
            )
        });
    }
    checks.extend(ha_arcs);
    checks.push(Check::umpire(
        "Line of sight: no hill, forest or jungle hex lies between a firing unit and the target (firing into one is allowed)",
        "4.2.3",
    ));
    if firing.range_unknown {
        checks.push(Check::umpire(
            "Every firing unit's printed fire range reaches the target (+1 from hills at units not on hills)",
            "4.2, 4.2.3",
        ));
    }
    checks
}

/// Notes on the fire: a hill's +1 range (4.2.3), throwing weapons once per game (6.6).
fn fire_notes(data: &ItacsData, firing: &Firing) -> Vec<Note> {
    let mut notes = Vec::new();
    if firing.hills_used {
        notes.push(Note::new(
            "Firing from hills: +1 fire range at units not on hills.",
            "4.2.3, 10.3",
            None,
        ));
    }
    if firing
        .hexes
        .iter()
        .flatten()
        .any(|u| u.firing && u.throwing)
    {
        notes.push(Note::new(
            "Throwing weapons: once per game for each unit.",
            &data.throwing_weapons.rule,
            None,
        ));
    }
    notes
}

/// The hexes whose units threw their throwing weapons (6.6: once per game; the battle remembers).
fn threw(s: &FireSituation, firing: &[Vec<Unit>]) -> Vec<String> {
    // 6.6: each unit throws once per game; the battle remembers the hexes that threw.
    s.firing_hexes
        .iter()
        .zip(firing)
        .enumerate()
        .filter(|(_, (_, units))| units.iter().any(|u| u.firing && u.throwing))
        .map(|(i, (hex, _))| {
            hex.label
                .clone()
                .unwrap_or_else(|| format!("firing hex {}", i + 1))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::itacs::tests::itacs_data as data;
    use serde_json::json;

    fn situation(v: serde_json::Value) -> FireSituation {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn the_firing_hexes_give_the_longest_range_and_a_hills_reach() {
        // 4.2.3 example: LB on a hill reach 4 hexes at a target not on a hill (+1).
        let d = data();
        let s = situation(json!({
            "firing_hexes": [
                { "range": 4, "terrain": "hills", "units": [{ "type": "LB" }] },
                { "range": 2, "units": [{ "type": "LB" }] }
            ],
            "target": { "terrain": "mud", "units": [{ "type": "CB" }] }
        }));
        let f = firing_hexes(&d, &s, FireKind::Missile).unwrap();
        assert_eq!((f.range, f.hills_used, f.hexes.len()), (4, true, 2));
        assert_eq!(fire_notes(&d, &f).len(), 1);
        // Off the hill, 4 hexes is out of reach.
        let mut off = s.clone();
        off.firing_hexes[0].terrain = None;
        let e = firing_hexes(&d, &off, FireKind::Missile).err().unwrap();
        assert_eq!(e.field.as_deref(), Some("firing_hexes[0].range"));
    }

    #[test]
    fn only_the_hexes_that_threw_are_remembered() {
        // 6.6: throwing weapons once per game, by the hexes that used them.
        let d = data();
        let s = situation(json!({
            "firing_hexes": [
                { "label": "0405", "range": 1, "units": [{ "type": "SD", "throwing": true }] },
                { "label": "0406", "range": 1, "units": [{ "type": "LB" }] }
            ],
            "target": { "terrain": "clear", "units": [{ "type": "PS" }] }
        }));
        let f = firing_hexes(&d, &s, FireKind::Defensive).unwrap();
        assert_eq!(threw(&s, &f.hexes), vec!["0405".to_string()]);
        // Throwing weapons are for defensive fire only.
        let e = firing_hexes(&d, &s, FireKind::Missile).err().unwrap();
        assert_eq!(e.code, "situation.throwing_not_defensive");
    }
}
