//! Movement (4.3): the cost of a path on the terrain chart, facing changes, roads and streams,
//! stacking while passing through (4.3.3), entering disrupted or routed hexes (5.1, 5.3), rout
//! and break moves (5.2, 5.3.1), squares (2.6.1), fleets (6.7); and withdrawal before melee (4.5.5).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::data::{ItacsData, Terrain, UnitType};
use super::results::effect;
use super::situation::{check_can_stand, terrain, Unit, UnitEntry};
use crate::contract::{Change, Check, Effect, Note, Resolution, Target, Total};
use crate::error::RefereeError;

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MovementRules {
    pub rule: String,
    /// The stacking limit when the scenario sets none (4.3.3).
    pub stacking_limit: u32,
    pub stacking_rule: String,
    pub square_stacking: u32,
    pub facing_change_cost: u32,
    pub facing_rule: String,
    pub road_cost: u32,
    pub road_rule: String,
    pub pass_through_mover_d: u32,
    pub pass_through_stationary_d: u32,
    pub break_rout_penalty: u32,
    pub square_hexes: u32,
    /// Terrain keys a square may not enter; stream stands for stream and river hexes.
    pub square_closed_to: Vec<String>,
    pub square_rule: String,
}

/// Which kind of move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum MoveKind {
    #[default]
    Normal,
    /// A rout move: no cost for facing (5.3.1).
    Rout,
    /// A rout move under a Break marker: one point less unless disrupted (5.2).
    Break,
}

/// One hex entered.
#[derive(Clone, Debug, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "ItacsPathStep")]
pub struct PathStep {
    #[serde(default)]
    #[ts(optional)]
    pub label: Option<String>,
    pub terrain: String,
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub stream: bool,
    /// Entered along a road or bridge: 1 point whatever the terrain (3.1.1).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub road: bool,
    /// Facing changes before entering this hex (1 point each, 4.3.2).
    #[serde(default)]
    #[ts(optional, as = "Option<u32>")]
    pub facing_changes: u32,
    /// Friendly units (not leaders) already in the hex (4.3.3).
    #[serde(default)]
    #[ts(optional, as = "Option<u32>")]
    pub units_in_hex: u32,
    /// D markers on the hex: a unit entering it is disrupted and stops (5.1).
    #[serde(default)]
    #[ts(optional, as = "Option<u32>")]
    pub d_markers: u32,
    /// A Rout marker on the hex: a unit entering it routs too (5.3).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub rout: bool,
    /// An elephant stands in the hex: no other unit may stack with it (6.9.3).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub elephant: bool,
    /// The hex is entered across a scarp hexside: not allowed (3.2.1).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub across_scarp: bool,
    /// Hexes from this one to the nearest enemy unit: a rout move enters only hexes farther
    /// than the one it leaves (5.3.1).
    #[serde(default)]
    #[ts(optional)]
    pub enemy_distance: Option<u32>,
    /// The hex is next to the map edge: a routing unit that reaches it with movement points
    /// left leaves the map, destroyed (5.3.3).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub map_edge: bool,
}

/// move: one unit or stack along a path.
#[derive(Clone, Debug, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "ItacsMoveSituation")]
pub struct MoveSituation {
    /// The moving units (one stack of one type), with their movement points.
    pub unit: UnitEntry,
    #[serde(default)]
    #[ts(optional, as = "Option<MoveKind>")]
    pub kind: MoveKind,
    /// The hex it starts in has D markers (5.1).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub disrupted: bool,
    /// The units are a square (2.6.1).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub square: bool,
    /// A fire ship moves at half its allowance (6.7.6).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub fire_ship: bool,
    /// A feudal cavalry charge (6.3): HC may then enter trench hexes (10.3).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub charging: bool,
    /// The scenario's stacking limit for this side (default 3, 4.3.3).
    #[serde(default)]
    #[ts(optional)]
    pub stacking_limit: Option<u32>,
    pub path: Vec<PathStep>,
    /// Hexes from the starting hex to the nearest enemy unit (5.3.1), for a rout move.
    #[serde(default)]
    #[ts(optional)]
    pub enemy_distance: Option<u32>,
    /// A rout move with no hex farther from the nearest enemy: the unit stops and takes one D
    /// marker (5.3.1); the path is then empty.
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub nowhere_farther: bool,
    /// Facing changes after the last hex (4.3.2).
    #[serde(default)]
    #[ts(optional, as = "Option<u32>")]
    pub end_facing_changes: u32,
}

/// The D markers on the friendly unit a charging HC ends with over the stacking limit (6.3).
/// A constant, not ruleset data: a new key in the ruleset file would change its fingerprint, and
/// battles saved under the file as it was would no longer open.
const CHARGE_OVER_LIMIT_D: u32 = 2;
const CHARGE_RULE: &str = "6.3";

fn refuse(code: &str, message: String, field: String, rule: &str) -> RefereeError {
    RefereeError::new(code, message).field(field).rule(rule)
}

/// The movement allowance for this move, with the rule that set it.
fn allowance(
    data: &ItacsData,
    s: &MoveSituation,
    unit: &Unit,
    fleet: bool,
) -> Result<(u32, String, Vec<Note>), RefereeError> {
    let mv = &data.movement;
    let full = unit.movement_points("unit")?;
    let mut notes = Vec::new();
    let mut points = full;
    let mut rule = mv.rule.clone();
    if s.fire_ship || (fleet && s.disrupted) {
        points = full / 2;
        rule = if s.fire_ship {
            data.fleets.fire_ship_rule.clone()
        } else {
            data.fleets.fleet_vs_fleet_rule.clone()
        };
        notes.push(Note::new(
            "Half movement allowance (rounded down).",
            &rule,
            None,
        ));
    } else if s.disrupted && s.kind == MoveKind::Normal {
        return Err(refuse(
            "situation.disrupted_move",
            "disrupted units may not move, except to break or rout (5.1)".into(),
            "disrupted".into(),
            "5.1",
        ));
    } else if s.kind == MoveKind::Break && !s.disrupted {
        points = full.saturating_sub(mv.break_rout_penalty);
        rule = "5.2".into();
        notes.push(Note::new(
            "A broken unit that is not disrupted moves one point less, then may turn up to 180°.",
            "5.2",
            None,
        ));
    }
    Ok((points, rule, notes))
}

pub fn move_units(data: &ItacsData, s: &MoveSituation) -> Result<Resolution, RefereeError> {
    let unit = Unit::resolve(data, &s.unit, "unit")?;
    let fleet = unit.type_data(data).is_some_and(|t| t.fleet);
    let (points, allowance_rule, notes) = allowance(data, s, &unit, fleet)?;
    if s.nowhere_farther {
        return nowhere_farther(data, s, &unit, s.kind != MoveKind::Normal);
    }
    check_path(data, s, &unit)?;
    let mover = Mover::new(data, s, unit, points);
    let mut progress = Progress::new(notes);
    for i in 0..s.path.len() {
        let hex = mover.hex(i)?;
        let (enter, rule) = mover.entry_cost(&hex)?;
        mover.spend(&hex, enter, &mut progress)?;
        progress.totals.push(mover.entry_total(&hex, enter, rule));
        let stacking = mover.stacking(&hex);
        mover.end_in_stack(&hex, &stacking, &mut progress)?;
        mover.pass_through(&hex, &stacking, &mut progress);
        mover.markers(&hex, &mut progress)?;
    }
    mover.finish(progress, allowance_rule)
}

/// The path as a whole: at least one hex, and a square only of its own types and one hex long
/// (2.6.1).
fn check_path(data: &ItacsData, s: &MoveSituation, unit: &Unit) -> Result<(), RefereeError> {
    let mv = &data.movement;
    if s.path.is_empty() {
        return Err(refuse(
            "situation.empty_path",
            "enter at least one hex of the path".into(),
            "path".into(),
            &mv.rule,
        ));
    }
    let square_types = &data.melee.square_types;
    if s.square
        && !unit
            .unit_type
            .as_ref()
            .is_some_and(|t| square_types.contains(t))
    {
        return Err(refuse(
            "situation.invalid_square",
            format!(
                "only {} units may form a square, not {} units",
                square_types.join(", "),
                unit.label
            ),
            "square".into(),
            &mv.square_rule,
        ));
    }
    if s.square && s.path.len() as u32 > mv.square_hexes {
        return Err(refuse(
            "situation.square_move",
            format!("a square moves {} hex per movement phase", mv.square_hexes),
            "path".into(),
            &mv.square_rule,
        ));
    }
    Ok(())
}

/// The points one facing change costs: none in a rout or break move (5.3.1).
fn facing_cost(mv: &MovementRules, kind: MoveKind) -> u32 {
    if kind == MoveKind::Normal {
        mv.facing_change_cost
    } else {
        0
    }
}

/// The moving stack and what holds for every hex of its move.
struct Mover<'a> {
    data: &'a ItacsData,
    s: &'a MoveSituation,
    /// One stack, as the terrain checks take it.
    units: Vec<Unit>,
    kind: Option<&'a UnitType>,
    mounted: bool,
    points: u32,
    facing_cost: u32,
    routing: bool,
}

/// What the move has gathered so far, hex by hex.
struct Progress {
    spent: u32,
    totals: Vec<Total>,
    effects: Vec<Effect>,
    notes: Vec<Note>,
    result: &'static str,
    left_map: bool,
}

impl Progress {
    fn new(notes: Vec<Note>) -> Self {
        Progress {
            spent: 0,
            totals: Vec::new(),
            effects: Vec::new(),
            notes,
            result: "moves",
            left_map: false,
        }
    }
}

/// One hex of the path, as the move enters it.
struct Hex<'a> {
    index: usize,
    step: &'a PathStep,
    name: String,
    field: String,
    ground: &'a Terrain,
    last: bool,
}

/// The stacking in a hex entered: its limit, and whether the mover breaks it and by which rule.
struct Stacking {
    limit: u32,
    over: bool,
    over_rule: String,
    /// The mover stacks alone and the hex already holds units.
    alone_and_held: bool,
}

impl<'a> Mover<'a> {
    fn new(data: &'a ItacsData, s: &'a MoveSituation, unit: Unit, points: u32) -> Self {
        Mover {
            data,
            s,
            kind: unit.type_data(data),
            mounted: unit.mounted(data),
            units: vec![unit],
            points,
            facing_cost: facing_cost(&data.movement, s.kind),
            routing: s.kind != MoveKind::Normal,
        }
    }

    fn unit(&self) -> &Unit {
        &self.units[0]
    }

    /// The hex at `i` of the path, if the mover may enter it at all: farther from the enemy in
    /// a rout move (5.3.1), not across a scarp (3.2.1), ground it may stand on, not closed to
    /// its class (10.3) and, for a square, no river, road nor bridge (2.6.1).
    fn hex(&self, i: usize) -> Result<Hex<'a>, RefereeError> {
        let (data, s) = (self.data, self.s);
        let mv = &data.movement;
        let step = &s.path[i];
        let field = format!("path[{i}]");
        let name = step
            .label
            .clone()
            .unwrap_or_else(|| format!("hex {}", i + 1));
        let ground = terrain(data, &step.terrain, &format!("{field}.terrain"))?;
        let before = if i == 0 {
            s.enemy_distance
        } else {
            s.path[i - 1].enemy_distance
        };
        if let (true, Some(from), Some(to)) = (self.routing, before, step.enemy_distance) {
            if to <= from {
                return Err(refuse(
                    "situation.not_farther",
                    format!("{name} is {to} hexes from the nearest enemy, not farther than the {from} of the hex before: a routing unit moves only away (5.3.1)"),
                    format!("{field}.enemy_distance"),
                    "5.3.1",
                ));
            }
        }
        if step.across_scarp {
            return Err(refuse(
                "situation.terrain_closed",
                format!("{name} is across a scarp hexside: movement up or down a scarp is not permitted"),
                format!("{field}.across_scarp"),
                &data.scarp.rule,
            ));
        }
        check_can_stand(data, &self.units, ground, step.stream, &field)?;
        let closed = self
            .unit()
            .class
            .as_ref()
            .is_some_and(|c| ground.closed_to.contains(c));
        if closed && !s.charging {
            return Err(refuse(
                "situation.terrain_closed",
                format!(
                    "{} units may enter {} hexes only when charging by the feudal cavalry rule",
                    self.unit().label,
                    ground.name
                ),
                format!("{field}.terrain"),
                "10.3, 6.3",
            ));
        }
        if s.square
            && (step.road
                || mv
                    .square_closed_to
                    .iter()
                    .any(|k| data.terrain.get(k).is_some_and(|t| std::ptr::eq(t, ground)))
                || (step.stream && mv.square_closed_to.iter().any(|k| k == "stream")))
        {
            return Err(refuse(
                "situation.square_move",
                "a square may not enter river hexes nor use roads or bridges".into(),
                field,
                &mv.square_rule,
            ));
        }
        Ok(Hex {
            index: i,
            step,
            name,
            field,
            ground,
            last: i == s.path.len() - 1,
        })
    }

    /// The terrain chart's cost to enter, facing apart, with its rule: cavalry pay their own
    /// column, elephants pay infantry's in some terrain (6.9.1), a stream adds its cost (3.1.2);
    /// a road costs 1 whatever the terrain (3.1.1).
    fn entry_cost(&self, hex: &Hex) -> Result<(u32, String), RefereeError> {
        let data = self.data;
        let mv = &data.movement;
        let (step, ground) = (hex.step, hex.ground);
        if step.road {
            return Ok((mv.road_cost, mv.road_rule.clone()));
        }
        let infantry_here = self.kind.is_some_and(|t| {
            t.infantry_costs_in
                .iter()
                .any(|k| data.terrain.get(k).is_some_and(|g| std::ptr::eq(g, ground)))
        });
        let Some(infantry_cost) = ground.movement else {
            return Err(refuse(
                "situation.no_movement_cost",
                format!(
                    "the ruleset gives no movement cost for {}: add movement to its terrain entry",
                    ground.name
                ),
                format!("{}.terrain", hex.field),
                &ground.rule,
            ));
        };
        let base = match (self.mounted && !infantry_here, ground.mounted_movement) {
            (true, Some(m)) => m,
            _ => infantry_cost,
        };
        let stream = if step.stream { data.stream.movement } else { 0 };
        let mut rule = ground.rule.clone();
        if step.stream {
            rule = format!("{rule}; {}", data.stream.rule);
        }
        if infantry_here && self.mounted {
            rule = format!("{rule}; 6.9.1");
        }
        Ok((base + stream, rule))
    }

    /// Pays for the hex and the facing changes before it, if the points last (4.3.1); a routing
    /// unit at the map edge with points left leaves the map there (5.3.3).
    fn spend(&self, hex: &Hex, enter: u32, progress: &mut Progress) -> Result<(), RefereeError> {
        let points = self.points;
        let cost = enter + hex.step.facing_changes * self.facing_cost;
        if progress.spent + cost > points {
            return Err(refuse(
                "situation.out_of_movement",
                format!(
                    "entering {} costs {cost} movement points and only {} of {points} are left: the unit may not enter it",
                    hex.name,
                    points - progress.spent
                ),
                hex.field.clone(),
                &self.data.movement.rule,
            ));
        }
        progress.spent += cost;
        if self.routing && hex.step.map_edge && progress.spent < points {
            if !hex.last {
                return Err(refuse(
                    "situation.off_map",
                    format!("{} is next to the map edge and movement points are left: the routing unit leaves the map there", hex.name),
                    format!("path[{}]", hex.index + 1),
                    "5.3.3",
                ));
            }
            progress.left_map = true;
        }
        Ok(())
    }

    /// The line showing what entering the hex cost, facing changes included (4.3.2).
    fn entry_total(&self, hex: &Hex, enter: u32, rule: String) -> Total {
        let step = hex.step;
        let mut value = format!("{enter} MP");
        if step.facing_changes > 0 && self.facing_cost > 0 {
            value = format!(
                "{value} + {} facing",
                step.facing_changes * self.facing_cost
            );
        }
        Total {
            label: format!("Enter {} ({})", hex.name, hex.ground.name),
            value,
            rule,
            ruling: if step.road {
                None
            } else {
                self.kind.and_then(|t| t.movement_ruling.clone())
            },
        }
    }

    /// The hex's stacking limit (the terrain's, else the scenario's, else 3: 4.3.3; 4 for a
    /// square, 2.6.1), and whether the mover breaks it: elephants and fleets stack alone (6.9.3,
    /// 6.7.1), so a hex holding one is full.
    fn stacking(&self, hex: &Hex) -> Stacking {
        let (s, mv, step) = (self.s, &self.data.movement, hex.step);
        let mut limit = hex
            .ground
            .stacking_limit
            .unwrap_or(s.stacking_limit.unwrap_or(mv.stacking_limit));
        if s.square {
            limit = limit.max(mv.square_stacking);
        }
        let fleet = self.kind.is_some_and(|t| t.fleet);
        let alone = self.kind.is_some_and(|t| t.stacks_alone) || fleet;
        let alone_and_held = alone && step.units_in_hex > 0;
        let over = step.units_in_hex + self.unit().count > limit || alone_and_held || step.elephant;
        let over_rule = if step.elephant {
            "6.9.3".to_string()
        } else if alone_and_held {
            (if fleet { "6.7.1" } else { "6.9.3" }).to_string()
        } else {
            mv.stacking_rule.clone()
        };
        Stacking {
            limit,
            over,
            over_rule,
            alone_and_held,
        }
    }

    /// Ending the move over the limit is refused (4.3.3), but for a feudal charge: the friendly
    /// unit there takes 2 D markers and must break (6.3). Elephants and fleets still stack alone.
    fn end_in_stack(
        &self,
        hex: &Hex,
        stacking: &Stacking,
        progress: &mut Progress,
    ) -> Result<(), RefereeError> {
        if !(stacking.over && hex.last) {
            return Ok(());
        }
        let (step, name, limit) = (hex.step, &hex.name, stacking.limit);
        if self.s.charging && !step.elephant && !stacking.alone_and_held {
            progress.effects.push(effect(
                Target::Hex(name.clone()),
                Change::DMarkers {
                    count: CHARGE_OVER_LIMIT_D,
                },
                CHARGE_RULE,
                None,
            ));
            progress.effects.push(effect(
                Target::Hex(name.clone()),
                Change::MustBreak,
                CHARGE_RULE,
                None,
            ));
            progress.notes.push(Note::new(
                format!("The charge ends in {name} over the stacking limit of {limit}: the friendly unit there is disrupted (2 D markers) and must break."),
                CHARGE_RULE,
                None,
            ));
            return Ok(());
        }
        let message = if step.elephant {
            format!("{name} holds an elephant: no other unit may stack in its hex but the unit it carries")
        } else if stacking.alone_and_held {
            format!(
                "{} units stack alone: {name} already holds {} units",
                self.unit().label,
                step.units_in_hex
            )
        } else {
            format!(
                "{name} already holds {} units: ending there breaks the stacking limit of {limit}",
                step.units_in_hex
            )
        };
        let e = refuse(
            "situation.over_stacking",
            message,
            format!("{}.units_in_hex", hex.field),
            &stacking.over_rule,
        );
        Err(if step.elephant {
            e.ruling("R-ITACS-33")
        } else {
            e
        })
    }

    /// Moving on through a hex at its stacking limit disrupts both stacks (4.3.3), as does a
    /// charging HC passing through any friendly unit (6.3, R-ITACS-39).
    fn pass_through(&self, hex: &Hex, stacking: &Stacking, progress: &mut Progress) {
        let (mv, step, name) = (&self.data.movement, hex.step, &hex.name);
        let full = stacking.over && (step.units_in_hex >= stacking.limit || step.elephant);
        let charge_through = self.s.charging && step.units_in_hex > 0;
        if hex.last || !(full || charge_through) {
            return;
        }
        let ruling = if step.elephant {
            Some("R-ITACS-33")
        } else if charge_through && step.units_in_hex < stacking.limit {
            Some("R-ITACS-39")
        } else {
            None
        };
        progress.effects.push(effect(
            Target::Unit(self.unit().label.clone()),
            Change::DMarkers {
                count: mv.pass_through_mover_d,
            },
            &mv.stacking_rule,
            ruling,
        ));
        progress.effects.push(effect(
            Target::Hex(name.clone()),
            Change::DMarkers {
                count: mv.pass_through_stationary_d,
            },
            &mv.stacking_rule,
            ruling,
        ));
        let why = if ruling == Some("R-ITACS-39") {
            "A charge passing through a friendly unit"
        } else {
            "Moving through a hex at its stacking limit"
        };
        progress.notes.push(Note::new(
            format!("{why} ({name}) disrupts both stacks, once all movement is finished."),
            &mv.stacking_rule,
            ruling,
        ));
    }

    /// Markers in the hex entered stop the move there: a Rout marker routs the unit (5.3); D
    /// markers disrupt a unit from a hex without them, a rout or break move too (5.1). A
    /// disrupted unit routing is disrupted already.
    fn markers(&self, hex: &Hex, progress: &mut Progress) -> Result<(), RefereeError> {
        let (s, step, name, field) = (self.s, hex.step, &hex.name, &hex.field);
        if step.rout && s.kind == MoveKind::Normal {
            if !hex.last {
                return Err(refuse(
                    "situation.must_stop",
                    format!("{name} has a Rout marker: a unit entering it routs"),
                    format!("{field}.rout"),
                    "5.3",
                ));
            }
            progress.effects.push(effect(
                Target::Unit(self.unit().label.clone()),
                Change::Rout,
                "5.3",
                None,
            ));
            progress.result = "routs";
        } else if step.d_markers > 0 && !s.disrupted {
            if !hex.last {
                return Err(refuse(
                    "situation.must_stop",
                    format!(
                        "{name} has D markers: a unit entering it is disrupted and must stop there"
                    ),
                    format!("{field}.d_markers"),
                    "5.1",
                ));
            }
            progress.notes.push(Note::new(
                format!(
                    "{} joins the D markers of {name}: disrupted.",
                    self.unit().label
                ),
                "5.1",
                None,
            ));
            progress.result = "disrupted";
        }
        Ok(())
    }

    /// After the last hex: facing changes there (4.3.2), the points spent, leaving the map
    /// (5.3.3), the Break marker going after any rout move (5.2.1), and the umpire's checks.
    fn finish(
        &self,
        mut progress: Progress,
        allowance_rule: String,
    ) -> Result<Resolution, RefereeError> {
        let (data, s, points) = (self.data, self.s, self.points);
        let mover = &self.unit().label;
        let end_cost = s.end_facing_changes * self.facing_cost;
        if progress.spent + end_cost > points {
            return Err(refuse(
                "situation.out_of_movement",
                format!(
                    "changing facing at the end costs {end_cost} and only {} movement points are left",
                    points - progress.spent
                ),
                "end_facing_changes".into(),
                &data.movement.facing_rule,
            ));
        }
        progress.spent += end_cost;
        progress.totals.push(Total {
            label: "Movement points spent".into(),
            value: format!("{} of {points}", progress.spent),
            rule: allowance_rule,
            ruling: None,
        });
        if progress.left_map {
            progress.effects.push(effect(
                Target::Unit(mover.clone()),
                Change::DestroyAll,
                "5.3.3",
                None,
            ));
            progress.result = "leaves the map";
        }
        if self.routing {
            progress.effects.push(effect(
                Target::Unit(mover.clone()),
                Change::RemoveBreak,
                "5.2.1",
                None,
            ));
        }
        let result = progress.result;
        let mut r = Resolution::certain(
            &data.system.id,
            "move",
            result,
            meaning(result),
            progress.effects,
        );
        r.totals = progress.totals;
        r.notes = progress.notes;
        if self.routing {
            r.checks.extend(super::state::rout_move_checks());
        } else {
            r.checks.push(Check::umpire(
                "Each hex entered is the front hex or a side hex of the unit (4.3.2); never a hex with enemy units",
                "4.3.2, 4.3.3",
            ));
        }
        Ok(r)
    }
}

/// What the move's result means, in words.
fn meaning(result: &str) -> &'static str {
    match result {
        "leaves the map" => {
            "The routing unit leaves the map: it may not return and counts as destroyed."
        }
        "routs" => "The unit ends in a routed hex and routs with it.",
        "disrupted" => "The unit ends in a disrupted hex and is disrupted.",
        _ => "The move is allowed.",
    }
}

/// A rout move with no hex farther from the nearest enemy: the unit stays and takes one D
/// marker (5.3.1).
fn nowhere_farther(
    data: &ItacsData,
    s: &MoveSituation,
    unit: &Unit,
    routing: bool,
) -> Result<Resolution, RefereeError> {
    if !routing {
        return Err(refuse(
            "situation.not_a_rout_move",
            "only a rout or break move stops for want of a hex farther from the enemy".into(),
            "nowhere_farther".into(),
            "5.3.1",
        ));
    }
    if !s.path.is_empty() {
        return Err(refuse(
            "situation.not_farther",
            "with no hex farther from the nearest enemy the unit does not move: leave the path empty".into(),
            "path".into(),
            "5.3.1",
        ));
    }
    // As after any rout move, its Break marker goes (5.2.1).
    let effects = vec![
        effect(
            Target::Unit(unit.label.clone()),
            Change::DMarkers { count: 1 },
            "5.3.1",
            None,
        ),
        effect(
            Target::Unit(unit.label.clone()),
            Change::RemoveBreak,
            "5.2.1",
            None,
        ),
    ];
    Ok(Resolution::certain(
        &data.system.id,
        "move",
        "stops",
        "No hex is farther from the nearest enemy: the unit stops and takes one D marker.",
        effects,
    ))
}

/// withdraw: may the defenders step back before melee (4.5.5)?
#[derive(Clone, Debug, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "ItacsWithdrawSituation")]
pub struct WithdrawSituation {
    pub defenders: Vec<UnitEntry>,
    pub attackers: Vec<UnitEntry>,
}

fn movements(
    data: &ItacsData,
    entries: &[UnitEntry],
    field: &str,
) -> Result<Vec<(String, u32)>, RefereeError> {
    if entries.is_empty() {
        return Err(
            RefereeError::new("situation.no_units", "enter at least one unit").field(field),
        );
    }
    entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let f = format!("{field}[{i}]");
            let u = Unit::resolve(data, e, &f)?;
            Ok((u.label.clone(), u.movement_points(&f)?))
        })
        .collect()
}

pub fn withdraw(data: &ItacsData, s: &WithdrawSituation) -> Result<Resolution, RefereeError> {
    let ac = &data.after_combat;
    let defenders = movements(data, &s.defenders, "defenders")?;
    let attackers = movements(data, &s.attackers, "attackers")?;
    let fastest = attackers.iter().map(|(_, m)| *m).max().unwrap_or(0);
    let slowest = defenders.iter().map(|(_, m)| *m).min().unwrap_or(0);
    let may = slowest >= fastest + ac.withdraw_margin;
    let (result, meaning) = if may {
        (
            "may withdraw",
            "The defenders may withdraw one hex; then no melee takes place.",
        )
    } else {
        ("may not withdraw", "The defenders must stand and fight.")
    };
    let mut r = Resolution::certain(&data.system.id, "withdraw", result, meaning, Vec::new());
    r.totals = vec![
        Total {
            label: "Fastest attacker".into(),
            value: format!("{fastest} MP"),
            rule: ac.withdraw_rule.clone(),
            ruling: None,
        },
        Total {
            label: "Slowest defender".into(),
            value: format!("{slowest} MP"),
            rule: ac.withdraw_rule.clone(),
            ruling: None,
        },
    ];
    r.checks = vec![
        Check::holds(
            format!(
                "Every defender has at least {} movement points more than the fastest attacker",
                ac.withdraw_margin
            ),
            may,
            &ac.withdraw_rule,
        )
        .ruling(ac.withdraw_ruling.as_deref()),
        Check::umpire(
            "The hex withdrawn to is within stacking limits, not impassable, and not adjacent to enemy units",
            &ac.withdraw_rule,
        ),
        Check::umpire(
            "If one hex of a formation withdraws, the defender chooses for each other hex of it",
            &ac.withdraw_rule,
        ),
    ];
    Ok(r)
}
