//! Missile combat (4.2) and defensive fire (4.4): fire strength, terrain, stacking, range,
//! shields, rear and elite modifiers on the Missile Combat Table (10.4).

use super::data::{BandModifier, ItacsData};
use super::forecast::{forecast, Stack};
use super::results::{effect, roll_on_table, EffectContext};
use super::situation::{
    check_square, check_stacking, resolve_units, road_note, square_has_no_rear_note, stack_state,
    terrain, FireSituation, ScarpLine, Unit,
};
use crate::contract::{Change, Check, Effect, Modifier, Note, Resolution, Shown, Target, Total};
use crate::error::RefereeError;

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
            "situation.invalid_field",
            "horse archer fire needs after_movement: their terrain, movement and the movement of the units in contact",
        )
        .field("after_movement")
        .rule(&ha.rule));
    };
    if after.fired_before_movement {
        return Err(RefereeError::new(
            "situation.already_fired",
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
                    "situation.not_horse_archers",
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
    let action_rule = match kind {
        FireKind::Defensive => data.defensive_fire.rule.as_str(),
        FireKind::HorseArchers => data.horse_archers.rule.as_str(),
        FireKind::Missile => m.rule.as_str(),
    };
    if kind != FireKind::HorseArchers && s.after_movement.is_some() {
        return Err(RefereeError::new(
            "situation.invalid_field",
            "after_movement is for horse archers firing after movement (action horse_archer_fire)",
        )
        .field("after_movement")
        .rule("6.2"));
    }
    if s.firing_hexes.is_empty() {
        return Err(
            RefereeError::new("situation.no_units", "enter at least one firing hex")
                .field("firing_hexes")
                .rule(action_rule),
        );
    }
    let mut firing: Vec<Vec<Unit>> = Vec::new();
    let mut range: u32 = 0;
    // 4.2.3: hills add to the fire range against units not on hills.
    let target_bonus = terrain(data, &s.target.terrain, "target.terrain")
        .ok()
        .and_then(|t| t.fire_range_bonus);
    let mut range_unknown = false;
    let mut hills_used = false;
    for (i, hex) in s.firing_hexes.iter().enumerate() {
        let field = format!("firing_hexes[{i}]");
        if hex.disrupted {
            return Err(RefereeError::new(
                "situation.disrupted_attacker",
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
                "situation.invalid_range",
                "range must be 1 or more: count hexes from the firing hex to the target hex",
            )
            .field(format!("{field}.range"))
            .rule("4.2.7"));
        }
        if defensive && hex.range > data.defensive_fire.range {
            return Err(RefereeError::new(
                "situation.out_of_range",
                format!(
                    "defensive fire is only at adjacent hexes (range {}), not range {}",
                    data.defensive_fire.range, hex.range
                ),
            )
            .field(format!("{field}.range"))
            .rule(&data.defensive_fire.rule));
        }
        range = range.max(hex.range);
        let units = resolve_units(data, &hex.units, &field)?;
        check_stacking(data, &units, &field)?;
        for (j, _) in units.iter().enumerate().filter(|(_, u)| u.throwing) {
            let tw = &data.throwing_weapons;
            if !defensive {
                return Err(RefereeError::new(
                    "situation.throwing_not_defensive",
                    "throwing weapons may only be used in defensive fire",
                )
                .field(format!("{field}.units[{j}].throwing"))
                .rule(&tw.rule));
            }
            if hex.range > tw.range {
                return Err(RefereeError::new(
                    "situation.out_of_range",
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
                None => range_unknown = true,
                Some(reach) if hex.range > reach + bonus => {
                    let hills = if bonus > 0 {
                        format!(" (+{bonus} from hills)")
                    } else {
                        String::new()
                    };
                    return Err(RefereeError::new(
                        "situation.out_of_range",
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
                Some(reach) => hills_used |= hex.range > reach,
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
                    "situation.may_not_fire",
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
        firing.push(units);
    }
    let fire_strength: u32 = firing
        .iter()
        .flatten()
        .filter(|u| u.firing)
        .map(|u| u.fire_strength(data))
        .sum();
    if fire_strength == 0 {
        return Err(RefereeError::new(
            "situation.zero_fire_strength",
            "the firing units have no fire strength: units without one may not fire",
        )
        .field("firing_hexes")
        .rule("2.4.6"));
    }

    let target_units = resolve_units(data, &s.target.units, "target")?;
    let ground = terrain(data, &s.target.terrain, "target.terrain")?;
    let Some(terrain_mod) = ground.missile else {
        return Err(RefereeError::new(
            "situation.impassable",
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
    let stacked: u32 = target_units.iter().map(|u| u.count).sum();

    let mut modifiers = Vec::new();
    let mut notes = Vec::new();
    let table = m.table_rule.as_str();
    let strength_mod =
        band_modifier(&m.fire_strength, i64::from(fire_strength)).ok_or_else(|| {
            RefereeError::new(
                "situation.off_table",
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
            "situation.stacking_off_table",
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
    let range_mod = band_modifier(&m.range, i64::from(range)).ok_or_else(|| {
        RefereeError::new(
            "situation.off_table",
            format!("range {range} is not on the range table"),
        )
        .field("firing_hexes")
        .rule(table)
    })?;
    modifiers.push(Modifier::new(
        format!("Range ({})", plural(range, "hex", "hexes")),
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
    if firing.iter().flatten().any(|u| u.firing && u.elite) {
        modifiers.push(m.elite_attacking.line("Elite unit attacking"));
    }
    let total_modifier: i64 = modifiers.iter().map(|m| m.value).sum();

    // 4.4.1: Ff firers are disrupted after defensive fire unless a leader or another unit with a
    // non-dot combat strength shares their hex.
    let dd = &data.defensive_fire;
    let disrupts = |u: &Unit| {
        u.firing
            && u.class
                .as_ref()
                .is_some_and(|c| dd.ff_disruption_classes.contains(c))
    };
    let ff_disrupted: Vec<(String, Option<&str>)> = if defensive {
        s.firing_hexes
            .iter()
            .zip(&firing)
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
    } else {
        Vec::new()
    };
    let (mut checks, after_fire) = if kind == FireKind::HorseArchers {
        horse_archer_consequence(data, s, &firing)?
    } else {
        (Vec::new(), Vec::new())
    };
    let firers: Vec<Unit> = firing
        .iter()
        .flatten()
        .filter(|u| u.firing)
        .cloned()
        .collect();
    let ha_arcs = super::situation::horse_archer_arcs(data, &firers, &target_units, rear);
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
    if range_unknown {
        checks.push(Check::umpire(
            "Every firing unit's printed fire range reaches the target (+1 from hills at units not on hills)",
            "4.2, 4.2.3",
        ));
    }
    if hills_used {
        notes.push(Note::new(
            "Firing from hills: +1 fire range at units not on hills.",
            "4.2.3, 10.3",
            None,
        ));
    }
    if firing.iter().flatten().any(|u| u.firing && u.throwing) {
        notes.push(Note::new(
            "Throwing weapons: once per game for each unit.",
            &data.throwing_weapons.rule,
            None,
        ));
    }
    // 6.6: each unit throws once per game; the battle remembers the hexes that threw.
    let threw: Vec<String> = s
        .firing_hexes
        .iter()
        .zip(&firing)
        .enumerate()
        .filter(|(_, (_, units))| units.iter().any(|u| u.firing && u.throwing))
        .map(|(i, (hex, _))| {
            hex.label
                .clone()
                .unwrap_or_else(|| format!("firing hex {}", i + 1))
        })
        .collect();
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
                value: range.to_string(),
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
