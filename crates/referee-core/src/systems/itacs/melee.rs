//! Melee combat (4.5): strengths with dots, brackets, squares and leaders; the odds column
//! (R-ITACS-1); terrain, unit class, rear and elite modifiers; the Melee Combat Table (10.5).

use super::data::{AttackPosition, BelowLowest, ItacsData};
use super::forecast::{forecast, Stack};
use super::results::{effect, roll_on_table, EffectContext};
use super::situation::{
    check_can_stand, check_square, check_stacking, resolve_units, road_note,
    square_has_no_rear_note, stack_state, terrain, AttackingHex, DefendingHex, MeleeSituation,
    Unit,
};
use super::state::HexState;
use super::strength::{show_half_points, stack_half_points};
use super::transport::{check_load, fleet_strength};
use crate::contract::{Change, Modifier, Note, Resolution, Shown, Target, Total};
use crate::error::RefereeError;
use crate::odds::column_by_ratio;
use crate::ErrorCode;

fn strength_of(units: &[Unit], defending: bool, field: &str) -> Result<u64, RefereeError> {
    let printed = units
        .iter()
        .enumerate()
        .map(|(i, u)| Ok((u.combat_strength(&format!("{field}.units[{i}]"))?, u.count)))
        .collect::<Result<Vec<_>, RefereeError>>()?;
    Ok(stack_half_points(&printed, defending))
}

/// A hex's strength: fleets with what they carry (6.7.3, 6.7.5), other units as a stack (2.4.6).
fn hex_strength(
    data: &ItacsData,
    units: &[Unit],
    defending: bool,
    fleet_battle: bool,
    field: &str,
) -> Result<u64, RefereeError> {
    let mut fleets = 0u64;
    let mut others = Vec::new();
    for (i, u) in units.iter().enumerate() {
        let f = format!("{field}.units[{i}]");
        if !u.cargo.is_empty() {
            check_load(data, u, &u.cargo, 0, &f)?;
        }
        if !u.type_data(data).is_some_and(|t| t.fleet) {
            others.push(u.clone());
            continue;
        }
        if u.count > 1 || units.len() > 1 {
            return Err(RefereeError::new(
                ErrorCode::SituationFleetStacking,
                "fleets stack one fleet counter per hex; carried units go in its cargo",
            )
            .field(format!("{field}.units"))
            .rule("6.7.1"));
        }
        fleets += fleet_strength(data, u, fleet_battle, defending, &f)?;
    }
    let rest = if others.is_empty() {
        0
    } else {
        strength_of(&others, defending, field)?
    };
    Ok(fleets + rest)
}

fn ratio_text(a: u64, d: u64) -> String {
    format!("{}:{}", show_half_points(a), show_half_points(d))
}

pub fn resolve(
    data: &ItacsData,
    s: &MeleeSituation,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    let m = &data.melee;
    if s.attackers.is_empty() {
        return Err(RefereeError::new(
            ErrorCode::SituationNoUnits,
            "enter at least one attacking hex",
        )
        .field("attackers")
        .rule(&m.rule));
    }
    if s.defenders.is_empty() {
        return Err(RefereeError::new(
            ErrorCode::SituationNoUnits,
            "enter at least one defending hex",
        )
        .field("defenders")
        .rule(&m.rule));
    }
    // 6.7.5: fleets against fleets when every unit on both sides is a fleet.
    let entry_is_fleet = |e: &super::situation::UnitEntry| {
        e.unit_type
            .as_ref()
            .and_then(|t| data.unit_types.get(t))
            .is_some_and(|t| t.fleet)
    };
    let fleet_battle = s
        .attackers
        .iter()
        .all(|h| h.units.iter().all(entry_is_fleet))
        && s.defenders
            .iter()
            .all(|h| h.units.iter().all(entry_is_fleet));
    let mut notes = Vec::new();
    let mut attack = 0u64;
    let mut attacker_units = Vec::new();
    for (i, hex) in s.attackers.iter().enumerate() {
        let (strength, units) = attacking_hex(data, hex, i, fleet_battle)?;
        attack += strength;
        attacker_units.extend(units);
    }
    let mut defence = 0u64;
    let mut defender_units = Vec::new();
    let mut terrain_values: Vec<TerrainValue> = Vec::new();
    let any_square = s.defenders.iter().any(|h| h.square);
    let mut stacks = Vec::new();
    for (i, hex) in s.defenders.iter().enumerate() {
        let (strength, units, ground, stack) =
            defending_hex(data, s, hex, i, fleet_battle, &mut notes)?;
        defence += strength;
        defender_units.extend(units);
        terrain_values.push(ground);
        stacks.push(stack);
    }
    let mut totals = leader_bonuses(
        data,
        s,
        [&attacker_units, &defender_units],
        [&mut attack, &mut defence],
        &mut notes,
    );
    if attack == 0 {
        return Err(RefereeError::new(
            ErrorCode::SituationZeroAttack,
            "the attacking units have combat strength 0",
        )
        .field("attackers")
        .rule("2.4.6"));
    }
    if defence == 0 {
        return Err(RefereeError::new(
            ErrorCode::SituationZeroDefence,
            "the defending units have combat strength 0: check the strengths entered",
        )
        .field("defenders")
        .rule("2.4.6"));
    }
    totals.insert(
        0,
        Total {
            label: "Attack strength".into(),
            value: show_half_points(attack),
            rule: "4.5.10".into(),
            ruling: None,
        },
    );
    totals.insert(
        1,
        Total {
            label: "Defence strength".into(),
            value: show_half_points(defence),
            rule: "4.5.10, 2.4.6".into(),
            ruling: Some("R-ITACS-2".into()),
        },
    );

    let index = column_index(data, attack, defence, &mut notes)?;
    let column = &m.columns[index];
    let column_name = column.label.clone().unwrap_or_else(|| column.ratio.clone());
    totals.push(Total {
        label: "Combat ratio".into(),
        value: format!("{} → {}", ratio_text(attack, defence), column_name),
        rule: m.ratio_rule.clone(),
        ruling: m.ratio_ruling.clone(),
    });
    let modifiers = melee_modifiers(
        data,
        s,
        &column_name,
        column.modifier,
        &terrain_values,
        [&attacker_units, &defender_units],
        &mut notes,
    );
    let total_modifier = modifiers.iter().map(|m| m.value).sum();

    let defending_units: u32 = defender_units.iter().map(|u| u.count).sum();
    let leaders: Vec<&String> = s.defenders.iter().flat_map(|h| &h.leaders).collect();
    let extra = |code: &str| {
        let mut out = Vec::new();
        if any_square && m.square_breaks_attacker_on.iter().any(|c| c == code) {
            out.push(effect(
                Target::Attacker,
                Change::MustBreak,
                &m.square_rule,
                None,
            ));
        }
        // The defending units eliminated, the leaders stacked with them are captured (6.1.4).
        if !leaders.is_empty() && eliminates_defenders(data, code, defending_units) {
            out.extend(leaders.iter().map(|l| {
                effect(
                    Target::Unit((*l).clone()),
                    Change::LeaderCaptured,
                    "6.1.4",
                    None,
                )
            }));
        }
        out
    };
    let ctx = EffectContext {
        defending_units,
        extra: &extra,
    };
    let rolled = roll_on_table(data, &m.results, total_modifier, &ctx, dice)?;
    let (mut chances, forecast_notes) =
        forecast(data, &rolled.results, &ctx, Target::Defender, &stacks);
    notes.extend(forecast_notes);
    let attacker = Stack {
        label: "The attacking side".into(),
        start: HexState {
            units: attacker_units.iter().map(|u| u.count).sum(),
            ..stack_state(data, &attacker_units, 0, false, false)
        },
    };
    chances.extend(forecast(data, &rolled.results, &ctx, Target::Attacker, &[attacker]).0);
    Ok(Resolution {
        shown: Shown::default(),
        system: data.system.id.clone(),
        action: "melee".into(),
        dice: data.system.dice.clone(),
        totals,
        modifiers,
        total_modifier,
        distribution: rolled.distribution,
        forecast: chances,
        checks: super::situation::horse_archer_arcs(
            data,
            &attacker_units,
            &defender_units,
            s.attackers.iter().any(|h| h.rear),
        ),
        notes,
        outcome: rolled.outcome,
    })
}

/// A defending hex's ground modifier: value, the ground's name, rule and ruling.
type TerrainValue = (i64, String, String, Option<String>);

fn is_fleet_unit(data: &ItacsData, u: &Unit) -> bool {
    u.unit_type
        .as_ref()
        .and_then(|t| data.unit_types.get(t))
        .is_some_and(|t| t.fleet)
}

/// One attacking hex: may it attack (4.5, 5.1, 3.2.1), its units and its strength (a square
/// attacks with one unit's, 2.6.1).
fn attacking_hex(
    data: &ItacsData,
    hex: &AttackingHex,
    i: usize,
    fleet_battle: bool,
) -> Result<(u64, Vec<Unit>), RefereeError> {
    let m = &data.melee;
    let field = format!("attackers[{i}]");
    if hex.disrupted {
        return Err(RefereeError::new(
            ErrorCode::SituationDisruptedAttacker,
            "units that are disrupted may not attack",
        )
        .field(format!("{field}.disrupted"))
        .rule("4.5, 5.1"));
    }
    if hex.across_scarp {
        return Err(RefereeError::new(
            ErrorCode::SituationMeleeNotAllowed,
            "melee combat across a scarp hexside is not permitted, up or down",
        )
        .field(format!("{field}.across_scarp"))
        .rule(&data.scarp.rule));
    }
    let units = resolve_units(data, &hex.units, &field)?;
    check_stacking(data, &units, &field)?;
    for (j, u) in units.iter().enumerate() {
        u.require_class(&format!("{field}.units[{j}]"))?;
    }
    let strength = if hex.square {
        check_square(data, &units, 0, &field, &m.square_rule)?;
        // A square attacks with the strength of a single unit (2.6.1).
        let one = [(units[0].combat_strength(&format!("{field}.units[0]"))?, 1)];
        stack_half_points(&one, false)
    } else {
        hex_strength(data, &units, false, fleet_battle, &field)?
    };
    Ok((strength, units))
}

/// One defending hex: its units and strength, its ground's modifier (a fleet's at sea, 6.7.3; in
/// a river, R-ITACS-31; walls, 3.1.4) and the stack the forecast follows.
fn defending_hex(
    data: &ItacsData,
    s: &MeleeSituation,
    hex: &DefendingHex,
    i: usize,
    fleet_battle: bool,
    notes: &mut Vec<Note>,
) -> Result<(u64, Vec<Unit>, TerrainValue, Stack), RefereeError> {
    let m = &data.melee;
    let is_fleet_unit = |u: &Unit| is_fleet_unit(data, u);
    let field = format!("defenders[{i}]");
    let units = resolve_units(data, &hex.units, &field)?;
    check_stacking(data, &units, &field)?;
    for (j, u) in units.iter().enumerate() {
        u.require_class(&format!("{field}.units[{j}]"))?;
    }
    if hex.square {
        check_square(data, &units, hex.d_markers, &field, &m.square_rule)?;
    }
    let ground = terrain(data, &hex.terrain, &format!("{field}.terrain"))?;
    check_can_stand(data, &units, ground, hex.stream, &field)?;
    let stack = Stack {
        label: hex
            .label
            .as_ref()
            .map(|l| format!("Hex {l}"))
            .unwrap_or_else(|| format!("Defending hex {}", i + 1)),
        start: stack_state(data, &units, hex.d_markers, hex.rout, hex.square),
    };
    let fleets = &data.fleets;
    // 6.7.3's 0 is for a fleet at sea; a fleet in a river takes the hex's own modifiers
    // (R-ITACS-31); fleet against fleet has none (6.7.5).
    let fleet_in_river = hex.stream && !fleet_battle && units.iter().all(is_fleet_unit);
    if units.iter().all(is_fleet_unit) && !fleet_in_river {
        let (value, name, rule) = if fleet_battle {
            (
                0,
                "none: fleet against fleet".to_string(),
                &fleets.fleet_vs_fleet_rule,
            )
        } else {
            (
                fleets.sea_melee_modifier,
                format!("{} (fleet attacked from land)", ground.name),
                &fleets.land_defence_rule,
            )
        };
        let strength = hex_strength(data, &units, true, fleet_battle, &field)?;
        return Ok((strength, units, (value, name, rule.clone(), None), stack));
    }
    let Some(melee_mod) = ground.melee else {
        return Err(RefereeError::new(
            ErrorCode::SituationMeleeNotAllowed,
            format!("melee combat against a {} hex is not possible", ground.name),
        )
        .field(format!("{field}.terrain"))
        .rule(&ground.rule));
    };
    // 3.1.4: units on a wall hex attack only units on an adjacent wall hex, a ladder or a
    // siege tower.
    let wall_hex = ground
        .melee_from
        .as_ref()
        .is_some_and(|from| from.contains(&AttackPosition::Wall));
    if s.attack_from == AttackPosition::Wall && !wall_hex && !hex.on_ladder_or_tower {
        return Err(RefereeError::new(
            ErrorCode::SituationMeleeNotAllowed,
            format!(
                "units on a wall hex may attack only units on an adjacent wall hex or on a ladder or siege tower, not units in a {} hex",
                ground.name
            ),
        )
        .field("attack_from")
        .rule("3.1.4"));
    }
    if let Some(allowed) = &ground.melee_from {
        if !allowed.contains(&s.attack_from) {
            return Err(RefereeError::new(
                ErrorCode::SituationMeleeNotAllowed,
                format!(
                    "a {} hex can be attacked only from {}",
                    ground.name,
                    allowed
                        .iter()
                        .map(|p| p.describe())
                        .collect::<Vec<_>>()
                        .join(" or ")
                ),
            )
            .field("attack_from")
            .rule(&ground.rule));
        }
    }
    let mounted = units.iter().any(|u| {
        u.class
            .as_ref()
            .and_then(|c| data.unit_classes.get(c))
            .is_some_and(|c| c.mounted)
    });
    let (mut value, mut name, mut rule, mut ruling) = (
        melee_mod,
        ground.name.clone(),
        ground.rule.clone(),
        ground.ruling.clone(),
    );
    if let (true, Some(mm)) = (mounted, ground.mounted_melee) {
        value = mm;
        name = format!("{} (mounted defenders)", ground.name);
    }
    if ground.melee_modifier_ignored_from.contains(&s.attack_from) {
        value = 0;
        name = format!(
            "{} (attacked from an adjacent wall: modifier does not apply)",
            ground.name
        );
        rule = format!("{rule}, 3.1.4");
    }
    if hex.stream {
        value += data.stream.melee;
        name = format!("{name} + {}", data.stream.name);
        rule = format!("{rule}; {}", data.stream.rule);
        ruling = ruling.or(data.stream.ruling.clone());
    }
    if fleet_in_river {
        name = format!("{name} (fleet in a river)");
        rule = format!("{rule}; {}", data.fleets.land_defence_rule);
        ruling = data.fleets.river_ruling.clone();
    }
    if hex.road {
        notes.push(road_note());
    }
    let strength = hex_strength(data, &units, true, fleet_battle, &field)?;
    Ok((strength, units, (value, name, rule, ruling), stack))
}

/// Each side's leader bonus, capped at its strength (4.5.10), with the note where the formation
/// has only dots; the strengths are raised by it. Gives the totals' lines.
fn leader_bonuses(
    data: &ItacsData,
    s: &MeleeSituation,
    [attacker_units, defender_units]: [&Vec<Unit>; 2],
    [attack, defence]: [&mut u64; 2],
    notes: &mut Vec<Note>,
) -> Vec<Total> {
    let m = &data.melee;
    let mut totals = Vec::new();
    for (bonus, units, field) in [
        (
            s.attacker_leader_bonus,
            attacker_units,
            "attacker_leader_bonus",
        ),
        (
            s.defender_leader_bonus,
            defender_units,
            "defender_leader_bonus",
        ),
    ] {
        let dots_only = units
            .iter()
            .all(|u| matches!(u.combat, Some(super::strength::CombatStrength::Dot)));
        if bonus > 0 && dots_only {
            notes.push(Note::new(
                format!(
                    "{field}: the formation has no unit with a combat strength (only dots), so the leader bonus is capped at its strength of 1."
                ),
                &m.leader_rule,
                m.leader_ruling.as_deref(),
            ));
        }
    }
    for (bonus, side, strength, label) in [
        (
            s.attacker_leader_bonus,
            "attacker",
            attack,
            "Attacker leader bonus",
        ),
        (
            s.defender_leader_bonus,
            "defender",
            defence,
            "Defender leader bonus",
        ),
    ] {
        if bonus == 0 {
            continue;
        }
        let added = (2 * u64::from(bonus)).min(*strength);
        let capped = if added < 2 * u64::from(bonus) {
            format!(" (capped at the {side}'s strength)")
        } else {
            String::new()
        };
        totals.push(Total {
            label: label.into(),
            value: format!("+{}{capped}", show_half_points(added)),
            rule: m.leader_rule.clone(),
            ruling: m.leader_ruling.clone(),
        });
        *strength += added;
    }
    totals
}

/// The column of the combat ratio (10.5), or the lowest with a note, or a refusal, as the
/// ruleset says for a ratio below it (R-ITACS-1).
fn column_index(
    data: &ItacsData,
    attack: u64,
    defence: u64,
    notes: &mut Vec<Note>,
) -> Result<usize, RefereeError> {
    let m = &data.melee;
    let columns: Vec<(u64, u64)> = m.columns.iter().filter_map(|c| c.parts()).collect();
    let index = match column_by_ratio(&columns, attack, defence) {
        Some(i) => i,
        None => match m.below_lowest_column {
            BelowLowest::LowestColumn => {
                notes.push(Note::new(
                    format!(
                        "{} is below the lowest column: resolved on {}.",
                        ratio_text(attack, defence),
                        m.columns[0].ratio
                    ),
                    &m.ratio_rule,
                    m.ratio_ruling.as_deref(),
                ));
                0
            }
            BelowLowest::Forbid => {
                return Err(RefereeError::new(
                    ErrorCode::SituationBelowLowestColumn,
                    format!(
                        "{} is below the lowest column ({}): this attack is not allowed",
                        ratio_text(attack, defence),
                        m.columns[0].ratio
                    ),
                )
                .field("attackers")
                .rule(&m.ratio_rule)
                .ruling(m.ratio_ruling.clone().unwrap_or_default()))
            }
        },
    };
    Ok(index)
}

/// The melee's modifiers: the column's, the highest terrain (4.5.6), the highest unit modifier
/// (R-ITACS-3), rear (a square has none), elite on either side.
fn melee_modifiers(
    data: &ItacsData,
    s: &MeleeSituation,
    column_name: &str,
    column_modifier: i64,
    terrain_values: &[TerrainValue],
    [attacker_units, defender_units]: [&Vec<Unit>; 2],
    notes: &mut Vec<Note>,
) -> Vec<Modifier> {
    let m = &data.melee;
    let any_square = s.defenders.iter().any(|h| h.square);
    let mut modifiers = vec![Modifier::new(
        format!("Combat ratio ({column_name})"),
        column_modifier,
        &m.table_rule,
        m.ratio_ruling.as_deref(),
    )];
    // 4.5.6: a formation in several terrains uses the highest modifier.
    if let Some((value, name, rule, ruling)) = terrain_values.iter().max_by_key(|t| t.0).cloned() {
        let several = terrain_values.len() > 1;
        let (label, rule) = if several {
            (
                format!("Terrain: {name} (highest of the formation)"),
                format!("{rule}; 4.5.6"),
            )
        } else {
            (format!("Terrain: {name}"), rule)
        };
        modifiers.push(Modifier::new(label, value, &rule, ruling.as_deref()));
    }
    // R-ITACS-3: the highest modifier over every attacking/defending class pair of 10.6.
    let table = &data.unit_modifiers;
    let best = defender_units
        .iter()
        .flat_map(|d| attacker_units.iter().map(move |a| (a, d)))
        .filter_map(|(a, d)| {
            let (ac, dc) = (a.class.as_deref()?, d.class.as_deref()?);
            let value = table.defending.get(dc)?.get(ac)?;
            Some((*value, ac.to_string(), dc.to_string()))
        })
        .max_by_key(|t| t.0);
    if let Some((value, a, d)) = best {
        modifiers.push(Modifier::new(
            format!("Unit modifier (class {a} attacking class {d})"),
            value,
            &table.rule,
            table.ruling.as_deref(),
        ));
    }
    if s.attackers.iter().any(|h| h.rear) {
        if any_square {
            notes.push(square_has_no_rear_note(&m.square_rule));
        } else {
            modifiers.push(m.rear.line("Rear attack"));
        }
    }
    if attacker_units.iter().any(|u| u.elite) {
        modifiers.push(m.elite_attacking.line("Elite unit attacking"));
    }
    if defender_units.iter().any(|u| u.elite) {
        modifiers.push(m.elite_defending.line("Elite unit defending"));
    }
    modifiers
}

/// Whether a result eliminates every one of `defending` units: all destroyed, or as many lost
/// as there are (10.7).
fn eliminates_defenders(data: &ItacsData, code: &str, defending: u32) -> bool {
    let none = |_: &str| Vec::new();
    let ctx = EffectContext {
        defending_units: defending,
        extra: &none,
    };
    super::results::effects_of(data, code, &ctx)
        .iter()
        .filter(|e| e.target == Target::Defender)
        .any(|e| match &e.change {
            Change::DestroyAll => true,
            Change::LoseUnits { count, .. } => *count >= defending,
            _ => false,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::itacs::tests::itacs_data as data;

    #[test]
    fn a_ratio_below_the_lowest_column_is_fought_on_it_with_a_note() {
        // R-ITACS-1: 1:5 is below 1:4, the table's lowest column.
        let d = data();
        let mut notes = Vec::new();
        assert_eq!(column_index(&d, 2, 10, &mut notes).unwrap(), 0);
        assert_eq!(notes.len(), 1);
        assert!(
            notes[0]
                .message
                .starts_with("1:5 is below the lowest column"),
            "{}",
            notes[0].message
        );
        // 24:8 is 3:1 (the 4.5.13 example), with no note.
        let mut none = Vec::new();
        let three = column_index(&d, 48, 16, &mut none).unwrap();
        assert_eq!(d.melee.columns[three].ratio, "3:1");
        assert!(none.is_empty());
    }

    #[test]
    fn a_leader_bonus_is_capped_at_his_sides_strength() {
        // 4.5.10: a leader adds his bonus, at most the strength of the formation he leads.
        let d = data();
        let s: MeleeSituation = serde_json::from_value(serde_json::json!({
            "attackers": [{ "units": [{ "type": "SD" }] }],
            "defenders": [{ "terrain": "clear", "units": [{ "type": "PS" }] }],
            "attacker_leader_bonus": 5,
            "defender_leader_bonus": 1
        }))
        .unwrap();
        let (mut attack, mut defence) = (4u64, 8u64);
        let mut notes = Vec::new();
        let totals = leader_bonuses(
            &d,
            &s,
            [&vec![], &vec![]],
            [&mut attack, &mut defence],
            &mut notes,
        );
        assert_eq!((attack, defence), (8, 10));
        assert_eq!(totals[0].value, "+2 (capped at the attacker's strength)");
        assert_eq!(totals[1].value, "+1");
    }
}
