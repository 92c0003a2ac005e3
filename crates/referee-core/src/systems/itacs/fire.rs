//! Missile combat (4.2) and defensive fire (4.4): fire strength, terrain, stacking, range,
//! shields, rear and elite modifiers on the Missile Combat Table (10.4).

use super::data::{BandModifier, ItacsData};
use super::results::{effect, roll_on_table, EffectContext};
use super::situation::{
    check_square, resolve_units, road_note, square_has_no_rear_note, terrain, FireSituation,
    ScarpLine, Unit,
};
use crate::contract::{Change, Modifier, Note, Resolution, Target, Total};
use crate::error::RefereeError;

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
    defensive: bool,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    let m = &data.missile;
    let action_rule = if defensive {
        data.defensive_fire.rule.as_str()
    } else {
        m.rule.as_str()
    };
    if s.firing_hexes.is_empty() {
        return Err(
            RefereeError::new("situation.no_units", "enter at least one firing hex")
                .field("firing_hexes")
                .rule(action_rule),
        );
    }
    let mut firing: Vec<Vec<Unit>> = Vec::new();
    let mut range: u32 = 0;
    for (i, hex) in s.firing_hexes.iter().enumerate() {
        let field = format!("firing_hexes[{i}]");
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
        if defensive {
            for (j, u) in units.iter().enumerate().filter(|(_, u)| u.firing) {
                u.require_class(&format!("{field}.units[{j}]"))?;
            }
        }
        firing.push(units);
    }
    let fire_strength: u32 = firing
        .iter()
        .flatten()
        .filter(|u| u.firing)
        .map(|u| u.fire * u.count)
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
    if s.target.square {
        check_square(&target_units, "target", &data.melee.square_rule)?;
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
    let rear = s.firing_hexes.iter().any(|h| h.rear);
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
        if s.target.square {
            notes.push(square_has_no_rear_note(&data.melee.square_rule));
        } else {
            modifiers.push(m.rear.line("Rear attack"));
        }
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
    let ff_disrupted: Vec<String> = if defensive {
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
            .map(|(i, (hex, _))| {
                hex.label
                    .clone()
                    .unwrap_or_else(|| format!("firing hex {}", i + 1))
            })
            .collect()
    } else {
        Vec::new()
    };
    let extra = |_: &str| {
        ff_disrupted
            .iter()
            .map(|label| {
                effect(
                    Target::Hex(label.clone()),
                    Change::DMarkers {
                        count: dd.ff_disruption,
                    },
                    &dd.ff_disruption_rule,
                    None,
                )
            })
            .collect()
    };
    let ctx = EffectContext {
        defending_units: stacked,
        extra: &extra,
    };
    let rolled = roll_on_table(data, &m.results, total_modifier, &ctx, dice)?;
    Ok(Resolution {
        system: data.system.id.clone(),
        action: if defensive {
            "defensive_fire"
        } else {
            "missile"
        }
        .into(),
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
        notes,
        outcome: rolled.outcome,
    })
}
