//! Movement helpers (3.3, 4.0, 5.6): the cost of a turn (R-MED-5) and of a path hex by hex with
//! the charge factor it builds or loses, ZoC stops (3.3.3), stacking (4.5) and the hexes that
//! cost a charging unit an SP and a scatter (4.2.6–4.2.8). Costs are kept in sixths of an MP so
//! roads (½ and ⅓ MP) stay exact.

use schemars::JsonSchema;
use serde::Deserialize;
use ts_rs::TS;

use super::data::MedievalData;
use super::units::{terrain, unit, MedUnit, Unit};
use crate::contract::{effect, Change, Check, Note, Resolution, Target, Total};
use crate::error::RefereeError;

/// Sixths of an MP as text: 4, 1½, 2⅓.
pub fn show_sixths(sixths: u32) -> String {
    let whole = sixths / 6;
    let frac = match sixths % 6 {
        0 => "",
        1 => "⅙",
        2 => "⅓",
        3 => "½",
        4 => "⅔",
        _ => "⅚",
    };
    match (whole, frac) {
        (0, "") => "0".into(),
        (0, f) => f.into(),
        (w, f) => format!("{w}{f}"),
    }
}

/// turn_cost: a unit turning in place (4.3).
#[derive(Clone, Debug, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "MedievalTurnSituation")]
pub struct TurnSituation {
    pub unit: MedUnit,
    /// Hexsides turned: 1 = 60°, 2 = 120°, 3 = 180°.
    pub hexsides: u32,
    /// Turning in an enemy ZoC (4.3.4).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub in_enemy_zoc: bool,
    /// The terrain it turns in: its movement cost is added (4.3.6).
    #[serde(default)]
    #[ts(optional)]
    pub terrain: Option<String>,
    /// Moving along a road: turns cost nothing (4.3.8, 4.3.9).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub on_road: bool,
}

/// The cost of a turn in sixths of an MP, with the lines that make it.
fn turn_sixths(
    data: &MedievalData,
    u: &Unit,
    hexsides: u32,
    field: &str,
) -> Result<(u32, Vec<Total>), RefereeError> {
    let mv = &data.movement;
    if hexsides == 0 || hexsides > 3 {
        return Err(RefereeError::new(
            "situation.invalid_turn",
            "a turn is 1 to 3 hexsides (60° to 180°)",
        )
        .field(field)
        .rule(&mv.turn_rule));
    }
    if !u.cavalry {
        return Ok((
            6 * mv.infantry_turn_cost,
            vec![Total::new(
                "Infantry turn (up to 180°)",
                mv.infantry_turn_cost.to_string(),
                "4.3.1",
                None,
            )],
        ));
    }
    if u.cf > mv.sharp_turn_max_cf && hexsides > 1 {
        return Err(RefereeError::new(
            "situation.invalid_turn",
            format!(
                "with charge factor {} a cavalry unit turns only 60°: move one hex straight between turns",
                u.cf
            ),
        )
        .field(field)
        .rule("4.3.3"));
    }
    if u.ranged.as_deref() == Some("horse_archers") {
        let sixths = mv.horse_archer_turn_sixths * hexsides;
        return Ok((
            sixths,
            vec![Total::new(
                format!("Horse archers: ½ MP per 60° × {hexsides}"),
                show_sixths(sixths),
                "10.5.2",
                None,
            )],
        ));
    }
    let mp = hexsides * (u.cf + 1) + u.armour;
    Ok((
        6 * mp,
        vec![Total::new(
            format!(
                "{hexsides} hexside(s) × (CF {} + 1) + armour {}",
                u.cf, u.armour
            ),
            mp.to_string(),
            &mv.turn_rule,
            mv.turn_ruling.as_deref(),
        )],
    ))
}

pub fn turn_cost(data: &MedievalData, s: &TurnSituation) -> Result<Resolution, RefereeError> {
    let mv = &data.movement;
    let u = unit(data, &s.unit, "unit")?;
    let mut notes = Vec::new();
    let (mut sixths, mut totals) = if s.on_road {
        notes.push(Note::new(
            "On a road turns cost nothing, but the unit ends facing along the road.",
            "4.3.8, 4.3.9",
            None,
        ));
        (0, Vec::new())
    } else {
        turn_sixths(data, &u, s.hexsides, "hexsides")?
    };
    if s.in_enemy_zoc && !s.on_road {
        sixths += 6 * mv.enemy_zoc_turn_extra;
        totals.push(Total::new(
            "In an enemy ZoC (once, 4.3.4 and 4.3.5 being one rule)",
            format!("+{}", mv.enemy_zoc_turn_extra),
            &mv.enemy_zoc_rule,
            Some("R-MED-25"),
        ));
    }
    if let (Some(key), false) = (&s.terrain, s.on_road) {
        let ground = terrain(data, key, "terrain")?;
        let extra = if u.cavalry {
            ground.cavalry
        } else {
            ground.infantry
        };
        if extra > 0 {
            sixths += 6 * extra;
            totals.push(Total::new(
                format!("Terrain: {}", ground.name),
                format!("+{extra}"),
                "4.3.6, TERRAIN EFFECT",
                Some("R-MED-10"),
            ));
        }
    }
    totals.push(Total::new(
        "Cost of the turn",
        format!("{} MP", show_sixths(sixths)),
        &mv.turn_rule,
        mv.turn_ruling.as_deref(),
    ));
    let mut r = Resolution::certain(
        &data.system.id,
        "turn_cost",
        &format!("{} MP", show_sixths(sixths)),
        "The turn's cost in movement points; a cavalry unit's CF drops to 0 (5.6.3).",
        if u.cavalry && u.cf > 0 {
            vec![effect(
                Target::Unit(u.name.clone()),
                Change::ResetChargeFactor,
                "5.6.3",
                None,
            )]
        } else {
            Vec::new()
        },
    );
    r.totals = totals;
    r.notes = notes;
    r.checks.push(Check::umpire(
        "A unit can always move 1 hex and turn, or just turn, for all its MPs; its CF drops to 0",
        "4.2.10",
    ));
    Ok(r)
}

/// One hex entered straight ahead.
#[derive(Clone, Debug, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "MedievalPathStep")]
pub struct PathStep {
    #[serde(default)]
    #[ts(optional)]
    pub label: Option<String>,
    pub terrain: String,
    /// Along a road (½ MP infantry, ⅓ MP cavalry; 4.2.8).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub road: bool,
    /// Entering it is moving uphill: CF −1 (5.6.9).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub uphill: bool,
    /// Crossing a stream (CF −1, 5.6.8) or a bridge (CF −1, 5.6.7).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub stream: bool,
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub bridge: bool,
    /// SPs of friendly units already there (4.2.3, 4.5.1).
    #[serde(default)]
    #[ts(optional, as = "Option<u32>")]
    pub friendly_sp: u32,
    /// The highest CF of the enemies whose ZoC covers the hex (3.3).
    #[serde(default)]
    #[ts(optional)]
    pub enemy_zoc_cf: Option<u32>,
    /// Hexsides turned before entering it: the turn's cost, and CF back to 0 (4.3, 5.6.3).
    #[serde(default)]
    #[ts(optional, as = "Option<u32>")]
    pub turn_before: u32,
    /// Pay to keep the CF from rising (1 MP, ½ on a road: 5.6.12, 4.2.9).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub hold_cf: bool,
    /// Pay 2 MPs to lower the CF by 1 instead of raising it (5.6.13, R-MED-26).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub lower_cf: bool,
    /// Crossing a river by a ford (4.2.5): charging into it costs an SP and a scatter (4.2.6),
    /// and the CF ends at 0 (5.7.6, R-MED-27).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub ford: bool,
    /// Into a fortified hex through its gate: no extra MPs (11.1.4).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub gate: bool,
    /// Horse archers shoot from this hex in their own movement phase: 1 MP, once (10.5.7, 10.5.8).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub fire: bool,
    /// The unit passes its banner to a friendly unit here: 1 MP (7.1.4).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub pass_banner: bool,
}

/// move_cost: a unit moving straight ahead hex by hex (4.0, 5.6).
#[derive(Clone, Debug, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "MedievalMoveSituation")]
pub struct MoveSituation {
    /// The moving unit; leave out when a leader moves on his own.
    #[serde(default)]
    #[ts(optional)]
    pub unit: Option<MedUnit>,
    /// A leader moving: 10 MPs, terrain as for cavalry, no charge factor, enemy ZoCs ignored, no
    /// stacking limit (8.1.1–8.1.3).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub leader: bool,
    /// Its movement points this phase (a leader's: 10 unless given, 8.1.2).
    #[serde(default)]
    #[ts(optional)]
    pub movement: Option<u32>,
    pub path: Vec<PathStep>,
    /// After the last hex it crosses the map border: 1 MP (4.4.2).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub leave_map: bool,
}

pub fn move_cost(data: &MedievalData, s: &MoveSituation) -> Result<Resolution, RefereeError> {
    let mv = &data.movement;
    let c = &data.combat;
    let u = match (&s.unit, s.leader) {
        (Some(e), false) => unit(data, e, "unit")?,
        (None, true) => Unit {
            key: "leader".into(),
            name: "Leader".into(),
            sp: 0,
            armour: 0,
            cf: 0,
            count: 1,
            cavalry: true,
            ranged: None,
            no_charge_modifier: true,
            scatter: String::new(),
            movement_formation: false,
        },
        (Some(_), true) => {
            return Err(RefereeError::new(
                "situation.invalid_move",
                "a leader moves on his own: enter either the unit or the leader, not both",
            )
            .field("leader")
            .rule("8.1.1"))
        }
        (None, false) => {
            return Err(RefereeError::new(
                "situation.invalid_field",
                "enter the moving unit, or say that a leader moves",
            )
            .field("unit")
            .rule(&mv.rule))
        }
    };
    let leader = s.leader;
    let movement = match (s.movement, leader) {
        (Some(m), _) => m,
        (None, true) => mv.leader_mp,
        (None, false) => {
            return Err(RefereeError::new(
                "situation.invalid_field",
                "enter the unit's movement points",
            )
            .field("movement")
            .rule(&mv.rule))
        }
    };
    if s.path.is_empty() {
        return Err(
            RefereeError::new("situation.empty_path", "enter at least one hex")
                .field("path")
                .rule(&mv.rule),
        );
    }
    let budget = 6 * movement;
    let mut spent = 0u32;
    let mut cf = u.cf;
    let mut totals = Vec::new();
    let mut effects = Vec::new();
    let mut notes = Vec::new();
    let mut zoc_extra_next = false;
    let mut fortification_lines: Vec<String> = Vec::new();
    let mut fired = false;
    let mut lowered = false;
    let mut climbed_slopes = false;
    let mut fords = false;
    // 4.2.10: the one-hex move any unit may always make, for all its MPs.
    let mut always_allowed = false;
    let last = s.path.len() - 1;
    for (i, step) in s.path.iter().enumerate() {
        let field = format!("path[{i}]");
        let name = step
            .label
            .clone()
            .unwrap_or_else(|| format!("hex {}", i + 1));
        let ground = terrain(data, &step.terrain, &format!("{field}.terrain"))?;
        if ground.prohibited && !step.road {
            notes.push(Note::new(
                format!("{name}: {} is closed to movement except by road; entering costs 1 SP and a scatter.", ground.name),
                "TERRAIN EFFECT, 4.2.7",
                Some("R-MED-10"),
            ));
        }
        let mut turn = 0;
        if step.turn_before > 0 {
            let now = Unit { cf, ..u.clone() };
            turn = if step.road {
                0
            } else {
                turn_sixths(
                    data,
                    &now,
                    step.turn_before,
                    &format!("{field}.turn_before"),
                )?
                .0
            };
            if u.cavalry {
                cf = 0;
            }
        }
        let mut sixths = if step.road {
            if u.cavalry {
                data.road.cavalry_sixths
            } else {
                data.road.infantry_sixths
            }
        } else {
            6 * (1 + if u.cavalry {
                ground.cavalry
            } else {
                ground.infantry
            })
        };
        let mut parts = vec![format!("{} MP", show_sixths(sixths))];
        if step.turn_before > 0 {
            sixths += turn;
            parts.push(format!("+{} turning first", show_sixths(turn)));
        }
        if zoc_extra_next {
            sixths += 6 * mv.zoc_pass_extra;
            parts.push(format!("+{} leaving a ZoC", mv.zoc_pass_extra));
            zoc_extra_next = false;
        }
        // 11.1.3: moving through fortifications costs more by class and armour, but not through
        // a gate (11.1.4).
        if ground.fortified && !step.gate {
            let by_armour = if u.cavalry {
                &data.fortification_costs.cavalry
            } else {
                &data.fortification_costs.infantry
            };
            let extra = by_armour
                .get(u.armour as usize)
                .or(by_armour.last())
                .copied()
                .unwrap_or(0);
            if extra > 0 {
                sixths += 6 * extra;
                parts.push(format!("+{extra} fortifications"));
                fortification_lines.push(name.clone());
            }
        }
        // A leader stacks without adding to the limit (8.1.1).
        if step.friendly_sp > 0 && !leader {
            if step.friendly_sp + u.sp * u.count > mv.stacking_sp {
                return Err(RefereeError::new(
                    "situation.over_stacking",
                    format!(
                        "{name} holds {} SPs: with this unit's {} it breaks the {}-SP stacking limit",
                        step.friendly_sp,
                        u.sp * u.count,
                        mv.stacking_sp
                    ),
                )
                .field(format!("{field}.friendly_sp"))
                .rule(&mv.stacking_rule));
            }
            sixths += 6 * mv.friendly_hex_extra;
            parts.push(format!("+{} friendly hex", mv.friendly_hex_extra));
        }
        if step.hold_cf && step.lower_cf {
            return Err(RefereeError::new(
                "situation.invalid_move",
                format!("{name}: a unit either holds its charge factor or lowers it, not both"),
            )
            .field(format!("{field}.lower_cf"))
            .rule("5.6.12, 5.6.13"));
        }
        // The charge factor: +1 per hex straight ahead, unless held or lowered; crossings and
        // slopes cost.
        if u.cavalry && !leader {
            if step.hold_cf {
                let hold = if step.road { 3 } else { 6 * mv.hold_cf_extra };
                sixths += hold;
                parts.push(format!("+{} holding CF", show_sixths(hold)));
            } else if step.lower_cf {
                sixths += 6 * mv.lower_cf_extra;
                parts.push(format!("+{} lowering CF", mv.lower_cf_extra));
                cf = cf.saturating_sub(1);
                lowered = true;
            } else {
                cf = (cf + 1).min(c.max_charge_factor);
            }
            // Entering a slope is climbing it: the terrain and the climb are one fact (R-MED-16).
            let climbs = step.uphill || ground.uphill;
            if climbs && !step.uphill {
                climbed_slopes = true;
            }
            let loss = c.crossing_cf(step.stream, step.bridge, u32::from(climbs));
            cf = cf.saturating_sub(loss);
        }
        if step.fire {
            if u.ranged.as_deref() != Some("horse_archers") {
                return Err(RefereeError::new(
                    "situation.invalid_move",
                    format!(
                        "{}: only horse archers shoot during their own movement",
                        u.name
                    ),
                )
                .field(format!("{field}.fire"))
                .rule("10.5.6, 10.1.5"));
            }
            if fired {
                return Err(RefereeError::new(
                    "situation.invalid_move",
                    "horse archers shoot only once during their own movement phase",
                )
                .field(format!("{field}.fire"))
                .rule("10.5.7"));
            }
            fired = true;
            sixths += 6 * mv.horse_archer_fire_cost;
            parts.push(format!("+{} shooting", mv.horse_archer_fire_cost));
        }
        if step.pass_banner {
            sixths += 6 * mv.pass_banner_cost;
            parts.push(format!("+{} passing the banner", mv.pass_banner_cost));
        }
        if spent + sixths > budget && i == 0 && s.path.len() == 1 && !s.leave_map {
            always_allowed = true;
        } else if spent + sixths > budget {
            return Err(RefereeError::new(
                "situation.out_of_movement",
                format!(
                    "entering {name} costs {} and only {} MP are left",
                    show_sixths(sixths),
                    show_sixths(budget.saturating_sub(spent))
                ),
            )
            .field(field)
            .rule(&mv.rule));
        }
        spent += sixths;
        totals.push(Total::new(
            format!("Enter {name} ({})", ground.name),
            format!("{}; CF {cf}", parts.join(" ")),
            &ground.rule,
            None,
        ));
        // 4.2.6–4.2.8: charging into forest, village, ford or fortifications (or a swamp off the
        // road) costs an SP and a scatter; on a road cavalry may pass at CF 1.
        let road_ok = step.road && cf <= 1;
        let charging_in = (ground.enter_loses_sp || step.ford) && cf > 0;
        // A leader has no SPs to lose and does not scatter (8.1.1, 8.1.7).
        if (charging_in || (ground.enter_loses_sp && ground.prohibited)) && !road_ok && !leader {
            if charging_in {
                notes.push(Note::new(
                    format!("{name}: the unit enters with the CF the hex gives it ({cf})."),
                    "4.2.6, 5.6.3",
                    Some("R-MED-19"),
                ));
            }
            effects.push(effect(
                Target::Unit(u.name.clone()),
                Change::LoseSp {
                    count: 1,
                    chosen_by: crate::contract::Chooser::Attacker,
                },
                "4.2.6, 4.2.7",
                None,
            ));
            effects.push(effect(
                Target::Unit(u.name.clone()),
                Change::Scatter,
                "4.2.6, 4.2.7",
                None,
            ));
            if i != last {
                return Err(RefereeError::new(
                    "situation.must_stop",
                    format!("{name}: the unit loses 1 SP and scatters there, ending its move"),
                )
                .field(field)
                .rule("4.2.6, 4.2.7"));
            }
        }
        if step.ford && u.cavalry {
            cf = 0;
            fords = true;
        }
        if let Some(enemy_cf) = step.enemy_zoc_cf.filter(|_| !leader) {
            if cf >= enemy_cf + mv.zoc_pass_cf_margin {
                zoc_extra_next = true;
            } else if i != last {
                return Err(RefereeError::new(
                    "situation.must_stop",
                    format!(
                        "{name} is in an enemy ZoC: the unit stops there (its CF {cf} does not exceed the enemy's {enemy_cf} by {})",
                        mv.zoc_pass_cf_margin
                    ),
                )
                .field(format!("{field}.enemy_zoc_cf"))
                .rule(&mv.zoc_rule));
            }
        }
    }
    if s.leave_map {
        let sixths = 6 * mv.leave_map_cost;
        if spent + sixths > budget {
            return Err(RefereeError::new(
                "situation.out_of_movement",
                format!(
                    "crossing the map border costs {} and only {} MP are left",
                    mv.leave_map_cost,
                    show_sixths(budget.saturating_sub(spent))
                ),
            )
            .field("leave_map")
            .rule("4.4.2"));
        }
        spent += sixths;
        totals.push(Total::new(
            "Leave the map",
            format!("{} MP", mv.leave_map_cost),
            "4.4.2",
            None,
        ));
    }
    if always_allowed {
        spent = budget;
        if u.cavalry {
            cf = 0;
        }
        notes.push(Note::new(
            "A unit may always move 1 hex for all its MPs; its CF is then 0.",
            "4.2.10",
            None,
        ));
    }
    if !fortification_lines.is_empty() {
        notes.push(Note::new(
            format!(
                "Moving through fortifications costs more by class and armour ({}); through a gate it costs nothing extra.",
                fortification_lines.join(", ")
            ),
            &data.fortification_costs.rule,
            None,
        ));
    }
    if climbed_slopes {
        notes.push(Note::new(
            "Entering a slope is moving uphill: CF −1 there.",
            "5.6.9",
            Some("R-MED-16"),
        ));
    }
    if lowered {
        notes.push(Note::new(
            "Lowering the CF on entering a hex takes it 1 lower for 2 MPs.",
            "5.6.13",
            Some("R-MED-26"),
        ));
    }
    if fords {
        notes.push(Note::new(
            "A cavalry unit crossing a ford ends there with CF 0, as in the countercharge example.",
            "4.2.5, 5.7.6",
            Some("R-MED-27"),
        ));
    }
    totals.push(Total::new(
        "Movement points spent",
        format!("{} of {movement}", show_sixths(spent)),
        &mv.rule,
        None,
    ));
    if leader {
        notes.push(Note::new(
            "A leader moves like cavalry over the terrain, ignores enemy ZoCs and stacks with any units.",
            &mv.leader_rule,
            None,
        ));
    }
    totals.push(Total::new(
        "Charge factor at the end",
        cf.to_string(),
        "5.6.3",
        None,
    ));
    let result = if effects.is_empty() {
        "moves"
    } else {
        "scattered"
    };
    let scattered = !effects.is_empty();
    if always_allowed && u.cavalry && u.cf > 0 && !scattered {
        effects.push(effect(
            Target::Unit(u.name.clone()),
            Change::ResetChargeFactor,
            "4.2.10",
            None,
        ));
    }
    let mut r = Resolution::certain(
        &data.system.id,
        "move_cost",
        result,
        if !scattered {
            "The move is allowed."
        } else {
            "The unit loses 1 SP and scatters in the last hex."
        },
        effects,
    );
    r.totals = totals;
    r.notes = notes;
    r.checks.push(Check::umpire(
        "Each hex is the unit's frontal hex; never a hex with enemy units (but for riding down)",
        "4.2.1, 4.2.2",
    ));
    Ok(r)
}
