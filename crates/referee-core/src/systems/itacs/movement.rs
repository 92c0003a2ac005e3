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
use crate::ErrorCode;

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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema, TS)]
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
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, TS)]
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

/// The hex a move starts in.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "ItacsStartHex")]
pub struct StartHex {
    #[serde(default)]
    #[ts(optional)]
    pub label: Option<String>,
    /// Its terrain: a tower hex is left only into an adjacent wall hex (10.3).
    pub terrain: String,
}

/// move: one unit or stack along a path.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, TS)]
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
    /// The D markers on the hex it starts in (5.1): they move with the stack (R-ITACS-40). A
    /// disrupted stack given none carries one.
    #[serde(default)]
    #[ts(optional, as = "Option<u32>")]
    pub d_markers: u32,
    /// The hex it starts in has a Rout marker (5.3), which moves with the stack (R-ITACS-40); a
    /// rout move carries one anyway.
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub routed: bool,
    /// The hex it starts in, with its terrain (10.3).
    #[serde(default)]
    #[ts(optional)]
    pub start: Option<StartHex>,
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
/// The terrain keys of a tower and a wall: a tower is entered and left only from and into an
/// adjacent wall hex (10.3, R-ITACS-41). Keys, not ruleset data, for the fingerprint's sake.
const TOWER: &str = "tower";
const WALL: &str = "wall";

fn refuse(code: ErrorCode, message: String, field: String, rule: &str) -> RefereeError {
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
            ErrorCode::SituationDisruptedMove,
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
            ErrorCode::SituationEmptyPath,
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
            ErrorCode::SituationInvalidSquare,
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
            ErrorCode::SituationSquareMove,
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
                    ErrorCode::SituationNotFarther,
                    format!("{name} is {to} hexes from the nearest enemy, not farther than the {from} of the hex before: a routing unit moves only away (5.3.1)"),
                    format!("{field}.enemy_distance"),
                    "5.3.1",
                ));
            }
        }
        if step.across_scarp {
            return Err(refuse(
                ErrorCode::SituationTerrainClosed,
                format!("{name} is across a scarp hexside: movement up or down a scarp is not permitted"),
                format!("{field}.across_scarp"),
                &data.scarp.rule,
            ));
        }
        check_can_stand(data, &self.units, ground, step.stream, &field)?;
        self.tower_from_a_wall(i, &name, ground, &field)?;
        let closed = self
            .unit()
            .class
            .as_ref()
            .is_some_and(|c| ground.closed_to.contains(c));
        if closed && !s.charging {
            return Err(refuse(
                ErrorCode::SituationTerrainClosed,
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
                ErrorCode::SituationSquareMove,
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

    /// A tower hex is entered only from an adjacent wall hex, and left only into one (10.3,
    /// R-ITACS-41); a hex before whose terrain is not known (a move typed by hand from nowhere
    /// named) is not held to it.
    fn tower_from_a_wall(
        &self,
        i: usize,
        name: &str,
        ground: &Terrain,
        field: &str,
    ) -> Result<(), RefereeError> {
        let (data, s) = (self.data, self.s);
        let is = |key: &str, t: &Terrain| data.terrain.get(key).is_some_and(|k| std::ptr::eq(k, t));
        let before = if i == 0 {
            s.start.as_ref().map(|h| {
                (
                    h.terrain.as_str(),
                    h.label.clone(),
                    "start.terrain".to_string(),
                )
            })
        } else {
            let p = &s.path[i - 1];
            let label = p.label.clone().or_else(|| Some(format!("hex {i}")));
            Some((
                p.terrain.as_str(),
                label,
                format!("path[{}].terrain", i - 1),
            ))
        };
        let Some((key, label, before_field)) = before else {
            return Ok(());
        };
        let from = terrain(data, key, &before_field)?;
        let named = |l: Option<String>| {
            l.map_or_else(
                || "the hex it starts in".to_string(),
                |l| format!("hex {l}"),
            )
        };
        if is(TOWER, ground) && !is(WALL, from) {
            return Err(refuse(
                ErrorCode::SituationTerrainClosed,
                format!("{name} is a tower hex, entered only from an adjacent wall hex, not from {} ({})", named(label), from.name),
                format!("{field}.terrain"),
                "10.3",
            )
            .ruling("R-ITACS-41"));
        }
        if is(TOWER, from) && !is(WALL, ground) {
            return Err(refuse(
                ErrorCode::SituationTerrainClosed,
                format!(
                    "{} is a tower hex, left only into an adjacent wall hex, not into {name} ({})",
                    named(label),
                    ground.name
                ),
                format!("{field}.terrain"),
                "10.3",
            )
            .ruling("R-ITACS-41"));
        }
        Ok(())
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
                ErrorCode::SituationNoMovementCost,
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
                ErrorCode::SituationOutOfMovement,
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
                    ErrorCode::SituationOffMap,
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
            ErrorCode::SituationOverStacking,
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

    /// The D markers the stack carries from the hex it starts in (R-ITACS-40).
    fn carried_d_markers(&self) -> u32 {
        self.s.d_markers.max(u32::from(self.s.disrupted))
    }

    /// Whether the stack carries a Rout marker from the hex it starts in (R-ITACS-40).
    fn carries_rout(&self) -> bool {
        self.s.routed || self.s.kind == MoveKind::Rout
    }

    /// Markers in the hex entered stop the move there, each by its own rule: a Rout marker routs
    /// a unit not routing already, and stops a normal move (5.3: "must also rout"); D markers
    /// disrupt and stop a unit from a hex without them, a rout or break move too (5.1). A
    /// disrupted unit routing is disrupted already. The markers the stack then shares are set as
    /// it joins the hex (`join`).
    fn markers(&self, hex: &Hex, progress: &mut Progress) -> Result<(), RefereeError> {
        let (s, step, name, field) = (self.s, hex.step, &hex.name, &hex.field);
        if step.rout && !self.carries_rout() {
            if s.kind == MoveKind::Normal && !hex.last {
                return Err(refuse(
                    ErrorCode::SituationMustStop,
                    format!("{name} has a Rout marker: a unit entering it routs"),
                    format!("{field}.rout"),
                    "5.3",
                ));
            }
            if progress.result != "routs" {
                progress.effects.push(effect(
                    Target::Unit(self.unit().label.clone()),
                    Change::Rout,
                    "5.3",
                    None,
                ));
                progress.result = "routs";
            }
        }
        if step.d_markers > 0 && !s.disrupted {
            if !hex.last {
                return Err(refuse(
                    ErrorCode::SituationMustStop,
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
            if progress.result != "routs" {
                progress.result = "disrupted";
            }
        }
        Ok(())
    }

    /// The stack ends in its last hex with the friends already there: the hex's markers lie on
    /// every unit in it (5.0), so both take the larger of the two D counts — the mover's own,
    /// with any it took passing through (4.3.3), and the hex's — and a Rout marker either
    /// brings (5.3), R-ITACS-40. A stack that left the map joins no one.
    fn join(&self, progress: &mut Progress) {
        let Some(last) = self.s.path.last() else {
            return;
        };
        if progress.left_map {
            return;
        }
        let name = last
            .label
            .clone()
            .unwrap_or_else(|| format!("hex {}", self.s.path.len()));
        let mover = Target::Unit(self.unit().label.clone());
        let on_mover = |e: &&Effect| e.target == mover;
        let taken: u32 = progress
            .effects
            .iter()
            .filter(on_mover)
            .map(|e| match e.change {
                Change::DMarkers { count } => count,
                _ => 0,
            })
            .sum();
        let mover_routs = self.carries_rout()
            || progress
                .effects
                .iter()
                .filter(on_mover)
                .any(|e| e.change == Change::Rout);
        // The hex's own count, with what this move put there (a charge ending over the limit
        // leaves 2 on the friendly unit, 6.3): one count for the whole hex afterwards.
        let there = Target::Hex(name.clone());
        let hex_d = last.d_markers
            + progress
                .effects
                .iter()
                .filter(|e| e.target == there)
                .map(|e| match e.change {
                    Change::DMarkers { count } => count,
                    _ => 0,
                })
                .sum::<u32>();
        let carried = self.carried_d_markers() + taken;
        let count = carried.max(hex_d);
        if count > carried {
            progress.effects.push(effect(
                mover.clone(),
                Change::DMarkers {
                    count: count - carried,
                },
                "5.1",
                Some("R-ITACS-40"),
            ));
        }
        if last.units_in_hex == 0 {
            return;
        }
        if count > hex_d {
            progress.effects.push(effect(
                there,
                Change::DMarkers {
                    count: count - hex_d,
                },
                "5.0",
                Some("R-ITACS-40"),
            ));
            progress.notes.push(Note::new(
                format!(
                    "{} brings its D markers into {name}: the units there carry {count}, as it does.",
                    self.unit().label
                ),
                "5.0",
                Some("R-ITACS-40"),
            ));
        }
        if mover_routs && !last.rout {
            progress.effects.push(effect(
                Target::Hex(name.clone()),
                Change::Rout,
                "5.3",
                Some("R-ITACS-40"),
            ));
            progress.notes.push(Note::new(
                format!(
                    "{} brings its Rout marker into {name}: the units there rout with it.",
                    self.unit().label
                ),
                "5.3",
                Some("R-ITACS-40"),
            ));
        }
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
                ErrorCode::SituationOutOfMovement,
                format!(
                    "changing facing at the end costs {end_cost} and only {} movement points are left",
                    points - progress.spent
                ),
                "end_facing_changes".into(),
                &data.movement.facing_rule,
            ));
        }
        progress.spent += end_cost;
        self.join(&mut progress);
        // Where the move ends, when the umpire named the hex: the roster's place for the stack.
        // Trimmed as the roster keeps a hex (form::hex_of); a blank label names no hex.
        let end = s
            .path
            .last()
            .and_then(|h| h.label.as_deref())
            .map(str::trim)
            .filter(|h| !h.is_empty())
            .map(str::to_string);
        if let (Some(hex), false) = (end, progress.left_map) {
            progress.effects.insert(
                0,
                effect(
                    Target::Unit(mover.clone()),
                    Change::EntersHex { hex },
                    &data.movement.rule,
                    Some("R-ITACS-40"),
                ),
            );
        }
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
            progress.result = "leaves_the_map";
        }
        // A rout move under a Break marker takes it off (5.2.1); a stack without one has none.
        if s.kind == MoveKind::Break {
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
        "leaves_the_map" => {
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
            ErrorCode::SituationNotARoutMove,
            "only a rout or break move stops for want of a hex farther from the enemy".into(),
            "nowhere_farther".into(),
            "5.3.1",
        ));
    }
    if !s.path.is_empty() {
        return Err(refuse(
            ErrorCode::SituationNotFarther,
            "with no hex farther from the nearest enemy the unit does not move: leave the path empty".into(),
            "path".into(),
            "5.3.1",
        ));
    }
    // As after any rout move, a Break marker goes (5.2.1).
    let mut effects = vec![effect(
        Target::Unit(unit.label.clone()),
        Change::DMarkers { count: 1 },
        "5.3.1",
        None,
    )];
    if s.kind == MoveKind::Break {
        effects.push(effect(
            Target::Unit(unit.label.clone()),
            Change::RemoveBreak,
            "5.2.1",
            None,
        ));
    }
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
            RefereeError::new(ErrorCode::SituationNoUnits, "enter at least one unit").field(field),
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
            "may_withdraw",
            "The defenders may withdraw one hex; then no melee takes place.",
        )
    } else {
        ("may_not_withdraw", "The defenders must stand and fight.")
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::itacs::tests::itacs_data as data;
    use serde_json::{json, Value};

    /// Runs `f` on the mover of the situation `v`, with its full printed allowance.
    fn with_mover<T>(v: Value, f: impl FnOnce(&Mover) -> T) -> T {
        let d = data();
        let s: MoveSituation = serde_json::from_value(v).unwrap();
        let unit = Unit::resolve(&d, &s.unit, "unit").unwrap();
        let points = unit.movement_points("unit").unwrap();
        f(&Mover::new(&d, &s, unit, points))
    }

    fn texts(effects: &[Effect]) -> Vec<(&str, &str, Option<&str>)> {
        effects
            .iter()
            .map(|e| (e.text.as_str(), e.rule.as_str(), e.ruling.as_deref()))
            .collect()
    }

    #[test]
    fn a_square_moves_one_hex_and_only_of_its_own_types() {
        // 2.6.1: SD, PS and PP form squares, which move 1 hex per movement phase.
        let d = data();
        let check = |v: Value| {
            let s: MoveSituation = serde_json::from_value(v).unwrap();
            let unit = Unit::resolve(&d, &s.unit, "unit").unwrap();
            check_path(&d, &s, &unit).map_err(|e| (e.code.to_string(), e.field))
        };
        let clear = json!({ "terrain": "clear" });
        let pp = json!({ "type": "PP", "movement": 3, "count": 4 });
        assert_eq!(
            check(json!({ "unit": pp, "square": true, "path": [clear] })),
            Ok(())
        );
        assert_eq!(
            check(json!({ "unit": pp, "square": true, "path": [clear, clear] })),
            Err(("situation.square_move".into(), Some("path".into())))
        );
        assert_eq!(
            check(json!({ "unit": { "type": "LB" }, "square": true, "path": [clear] })),
            Err(("situation.invalid_square".into(), Some("square".into())))
        );
        assert_eq!(
            check(json!({ "unit": pp, "path": [] })),
            Err(("situation.empty_path".into(), Some("path".into())))
        );
    }

    #[test]
    fn a_tower_is_entered_and_left_only_by_a_wall_hex() {
        // 10.3: "Entry and exit only allowed from adjacent wall hexes" (R-ITACS-41).
        let refused = |start: Option<&str>, path: &[&str], i: usize| {
            let path: Vec<Value> = path
                .iter()
                .enumerate()
                .map(|(n, t)| json!({ "label": format!("20.0{n}"), "terrain": t }))
                .collect();
            let mut v = json!({ "unit": { "type": "SD" }, "path": path });
            if let Some(t) = start {
                v["start"] = json!({ "label": "19.05", "terrain": t });
            }
            with_mover(v, |m| {
                m.hex(i)
                    .err()
                    .map(|e| (e.message, e.field, e.rule, e.ruling))
            })
        };
        assert_eq!(refused(Some("wall"), &["tower"], 0), None);
        assert_eq!(refused(Some("wall"), &["tower", "wall"], 1), None);
        assert_eq!(
            refused(None, &["tower"], 0),
            None,
            "where it starts is not known"
        );
        let (message, field, rule, ruling) = refused(Some("clear"), &["tower"], 0).unwrap();
        assert_eq!(
            message,
            "20.00 is a tower hex, entered only from an adjacent wall hex, not from hex 19.05 (Clear, Farmland, Grassland)."
        );
        assert_eq!(
            (field, rule, ruling),
            (
                Some("path[0].terrain".into()),
                Some("10.3".into()),
                Some("R-ITACS-41".into())
            )
        );
        let left = refused(Some("wall"), &["tower", "clear"], 1).unwrap();
        assert_eq!(
            left.0,
            "Hex 20.00 is a tower hex, left only into an adjacent wall hex, not into 20.01 (Clear, Farmland, Grassland)."
        );
        assert!(
            refused(Some("tower"), &["clear"], 0).is_some(),
            "out of a tower"
        );
        assert!(
            refused(Some("tower"), &["tower"], 0).is_some(),
            "tower to tower"
        );
    }

    #[test]
    fn facing_costs_a_point_except_in_rout_and_break_moves() {
        // 4.3.2: 1 point per facing change; 5.3.1: none in a rout move.
        let mv = &data().movement;
        assert_eq!(facing_cost(mv, MoveKind::Normal), 1);
        assert_eq!(facing_cost(mv, MoveKind::Rout), 0);
        assert_eq!(facing_cost(mv, MoveKind::Break), 0);
    }

    #[test]
    fn a_hex_is_refused_across_a_scarp_nearer_the_enemy_or_closed_to_the_class() {
        let refused = |v: Value, i: usize| {
            with_mover(v, |m| {
                m.hex(i)
                    .err()
                    .map(|e| (e.code.to_string(), e.field, e.rule))
            })
        };
        // 3.2.1: no movement up or down a scarp.
        assert_eq!(
            refused(
                json!({ "unit": { "type": "SD" }, "path": [{ "terrain": "clear", "across_scarp": true }] }),
                0
            ),
            Some((
                "situation.terrain_closed".into(),
                Some("path[0].across_scarp".into()),
                Some("3.2.1, 10.3".into())
            ))
        );
        // 5.3.1: each hex of a rout move farther from the nearest enemy than the one before.
        let rout = json!({ "unit": { "type": "SD" }, "kind": "rout", "enemy_distance": 2,
                           "path": [{ "terrain": "clear", "enemy_distance": 3 },
                                    { "terrain": "clear", "enemy_distance": 3 }] });
        assert_eq!(refused(rout.clone(), 0), None);
        assert_eq!(
            refused(rout, 1).map(|e| e.1),
            Some(Some("path[1].enemy_distance".into()))
        );
        // 10.3: trenches are closed to cavalry but for a feudal charge (6.3).
        let hc = |charging: bool| {
            json!({ "unit": { "type": "HC", "movement": 8 }, "charging": charging,
                    "path": [{ "terrain": "trench" }] })
        };
        assert_eq!(
            refused(hc(false), 0).map(|e| e.2),
            Some(Some("10.3, 6.3".into()))
        );
        assert_eq!(refused(hc(true), 0), None);
        // 2.6.1: a square may not enter a river hex.
        let square = json!({ "unit": { "type": "SD" }, "square": true,
                             "path": [{ "terrain": "clear", "stream": true }] });
        assert_eq!(
            refused(square, 0).map(|e| e.0),
            Some("situation.square_move".into())
        );
    }

    #[test]
    fn entering_costs_the_terrain_chart_a_road_or_a_stream() {
        let cost = |unit: Value, step: Value| {
            with_mover(json!({ "unit": unit, "path": [step] }), |m| {
                m.entry_cost(&m.hex(0).unwrap()).unwrap()
            })
        };
        let lb = json!({ "type": "LB" });
        // 4.3.4: mud costs LB 2; along a road 1 whatever the terrain (3.1.1).
        assert_eq!(
            cost(lb.clone(), json!({ "terrain": "mud" })),
            (2, "10.3".into())
        );
        assert_eq!(
            cost(lb.clone(), json!({ "terrain": "mud", "road": true })),
            (1, "3.1.1".into())
        );
        // 3.1.2: a stream adds 1 (clear + stream = 2).
        assert_eq!(
            cost(lb, json!({ "terrain": "clear", "stream": true })),
            (2, "10.3; 3.1.2, 10.3".into())
        );
        // 10.3: cavalry pay their own column: woods 4 against infantry's 2.
        assert_eq!(
            cost(
                json!({ "type": "LC", "movement": 8 }),
                json!({ "terrain": "woods" })
            )
            .0,
            4
        );
        // 6.9.1: an elephant moves as mounted, but pays infantry's cost in jungle.
        let el = json!({ "type": "EL", "movement": 10 });
        assert_eq!(cost(el.clone(), json!({ "terrain": "woods" })).0, 4);
        assert_eq!(
            cost(el, json!({ "terrain": "jungle" })),
            (3, "10.3; 6.9.1".into())
        );
    }

    #[test]
    fn points_are_spent_while_they_last_and_a_rout_at_the_edge_leaves_the_map() {
        // 4.3.1: SD (4 points) through 3 clear hexes may not then enter a 2-point hex.
        let sd = json!({ "unit": { "type": "SD" },
                         "path": [{ "terrain": "clear", "facing_changes": 2 }, { "terrain": "woods" }] });
        with_mover(sd, |m| {
            let mut p = Progress::new(vec![]);
            m.spend(&m.hex(0).unwrap(), 1, &mut p).unwrap();
            assert_eq!(p.spent, 3, "1 for clear, 2 for two facing changes (4.3.2)");
            let e = m.spend(&m.hex(1).unwrap(), 2, &mut p).unwrap_err();
            assert_eq!(
                (e.code.as_str(), e.field.as_deref()),
                ("situation.out_of_movement", Some("path[1]"))
            );
            assert_eq!(p.spent, 3);
        });
        // 5.3.3: at the map edge with points left, a routing unit leaves the map.
        let edge = json!({ "terrain": "clear", "map_edge": true });
        let rout = |path: Value| json!({ "unit": { "type": "SD" }, "kind": "rout", "path": path });
        with_mover(rout(json!([edge])), |m| {
            let mut p = Progress::new(vec![]);
            m.spend(&m.hex(0).unwrap(), 1, &mut p).unwrap();
            assert!(p.left_map);
        });
        // With no points left at the edge it stays on the map.
        let clear = json!({ "terrain": "clear" });
        with_mover(rout(json!([clear, clear, clear, edge])), |m| {
            let mut p = Progress::new(vec![]);
            for i in 0..4 {
                m.spend(&m.hex(i).unwrap(), 1, &mut p).unwrap();
            }
            assert_eq!((p.spent, p.left_map), (4, false));
        });
        with_mover(rout(json!([edge, { "terrain": "clear" }])), |m| {
            let mut p = Progress::new(vec![]);
            let e = m.spend(&m.hex(0).unwrap(), 1, &mut p).unwrap_err();
            assert_eq!(
                (e.code.as_str(), e.field.as_deref()),
                ("situation.off_map", Some("path[1]"))
            );
        });
    }

    #[test]
    fn each_hex_entered_shows_its_cost_and_facing() {
        let line = |v: Value| {
            with_mover(v, |m| {
                let hex = m.hex(0).unwrap();
                let (enter, rule) = m.entry_cost(&hex).unwrap();
                let t = m.entry_total(&hex, enter, rule);
                (t.label, t.value, t.ruling)
            })
        };
        let step = json!([{ "terrain": "mud", "facing_changes": 1 }]);
        assert_eq!(
            line(json!({ "unit": { "type": "LB" }, "path": step })),
            ("Enter hex 1 (Mud)".into(), "2 MP + 1 facing".into(), None)
        );
        // A rout move pays nothing for facing (5.3.1).
        assert_eq!(
            line(json!({ "unit": { "type": "LB" }, "kind": "rout", "path": step })).1,
            "2 MP"
        );
        // An elephant's costs rest on R-ITACS-28, but not a road's.
        let el = json!({ "type": "EL", "movement": 10 });
        assert_eq!(
            line(json!({ "unit": el, "path": [{ "terrain": "hills", "label": "H" }] })),
            (
                "Enter H (Hills, Grassy Hills)".into(),
                "3 MP".into(),
                Some("R-ITACS-28".into())
            )
        );
        assert_eq!(
            line(json!({ "unit": el, "path": [{ "terrain": "hills", "road": true }] })).2,
            None
        );
    }

    #[test]
    fn the_stacking_limit_is_the_terrains_the_scenarios_or_three() {
        let stacking = |v: Value| {
            with_mover(v, |m| {
                let s = m.stacking(&m.hex(0).unwrap());
                (s.limit, s.over, s.over_rule, s.alone_and_held)
            })
        };
        let lb = |n: u32, terrain: &str| {
            json!({ "unit": { "type": "LB", "count": 2 },
                    "path": [{ "terrain": terrain, "units_in_hex": n }] })
        };
        // 4.3.3: 3 units a hex; 2 LB join 1 unit, not 2.
        assert_eq!(stacking(lb(1, "clear")), (3, false, "4.3.3".into(), false));
        assert!(stacking(lb(2, "clear")).1);
        // 3.1.4: a wall holds 1.
        assert_eq!(stacking(lb(0, "wall")), (1, true, "4.3.3".into(), false));
        // The scenario's limit, and 4 for a square (2.6.1).
        let pp = |extra: Value| {
            let mut v = json!({ "unit": { "type": "PP", "movement": 3, "count": 4 },
                                "path": [{ "terrain": "clear" }] });
            v.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            v
        };
        assert_eq!(stacking(pp(json!({ "stacking_limit": 2 }))).0, 2);
        assert_eq!(
            stacking(pp(json!({ "square": true }))),
            (4, false, "4.3.3".into(), false)
        );
        // Elephants (6.9.3) and fleets (6.7.1) stack alone.
        let alone = |ty: &str| {
            json!({ "unit": { "type": ty, "movement": 6 },
                    "path": [{ "terrain": "water", "units_in_hex": 1 }] })
        };
        assert_eq!(stacking(alone("HF")), (3, true, "6.7.1".into(), true));
        let el = json!({ "unit": { "type": "EL", "movement": 10 },
                         "path": [{ "terrain": "clear", "units_in_hex": 1 }] });
        assert_eq!(stacking(el), (3, true, "6.9.3".into(), true));
    }

    #[test]
    fn ending_over_the_limit_is_refused_but_for_a_feudal_charge() {
        type Ended = (Vec<(Change, String)>, usize);
        let end = |charging: bool, step: Value| -> Result<Ended, RefereeError> {
            let v = json!({ "unit": { "type": "HC", "movement": 8 }, "charging": charging,
                            "path": [step] });
            with_mover(v, |m| {
                let hex = m.hex(0).unwrap();
                let mut p = Progress::new(vec![]);
                m.end_in_stack(&hex, &m.stacking(&hex), &mut p)?;
                let changes = p.effects.iter().map(|e| (e.change.clone(), e.rule.clone()));
                Ok((changes.collect(), p.notes.len()))
            })
        };
        let full = json!({ "terrain": "clear", "label": "18.04", "units_in_hex": 3 });
        // 4.3.3: no move ends over the limit.
        let e = end(false, full.clone()).unwrap_err();
        assert_eq!(
            (e.code.as_str(), e.field.as_deref(), e.rule.as_deref()),
            (
                "situation.over_stacking",
                Some("path[0].units_in_hex"),
                Some("4.3.3")
            )
        );
        // 6.3: the friendly unit there takes 2 D markers and must break, with a note.
        let six_three = |c: Change| (c, "6.3".to_string());
        assert_eq!(
            end(true, full).unwrap(),
            (
                vec![
                    six_three(Change::DMarkers { count: 2 }),
                    six_three(Change::MustBreak)
                ],
                1
            )
        );
        // Into an elephant's hex, even a charge is refused (6.9.3, R-ITACS-33).
        let e = end(true, json!({ "terrain": "clear", "elephant": true })).unwrap_err();
        assert_eq!(
            (e.rule.as_deref(), e.ruling.as_deref()),
            (Some("6.9.3"), Some("R-ITACS-33"))
        );
    }

    #[test]
    fn a_charge_over_the_limit_leaves_one_d_count_on_the_hex() {
        // 6.3's 2 D markers on the friendly unit are the hex's (5.0, R-ITACS-40): the HC that
        // ends there shares them.
        let charge = |there: u32| {
            let d: Vec<(Target, u32)> = landed(json!({
                "unit": { "type": "HC", "movement": 8 }, "charging": true,
                "path": [{ "terrain": "clear", "label": "B", "units_in_hex": 3, "d_markers": there }]
            }))
            .into_iter()
            .filter_map(|(t, c, ..)| match c {
                Change::DMarkers { count } => Some((t, count)),
                _ => None,
            })
            .collect();
            d
        };
        let hc = || Target::Unit("HC".into());
        // A clean HC into clean friends: they take 2, it takes their 2.
        assert_eq!(charge(0), vec![(hex_b(), 2), (hc(), 2)]);
        // Friends with 1 already: 3 on the hex, the HC lifted to 3.
        assert_eq!(charge(1), vec![(hex_b(), 2), (hc(), 3)]);
    }

    #[test]
    fn passing_through_a_full_hex_disrupts_both_stacks() {
        let through = |unit: Value, charging: bool, first: Value| {
            let v = json!({ "unit": unit, "charging": charging,
                            "path": [first, { "terrain": "clear" }] });
            with_mover(v, |m| {
                let mut p = Progress::new(vec![]);
                for i in 0..2 {
                    let hex = m.hex(i).unwrap();
                    m.pass_through(&hex, &m.stacking(&hex), &mut p);
                }
                texts(&p.effects)
                    .into_iter()
                    .map(|(t, r, g)| (t.to_string(), r.to_string(), g.map(String::from)))
                    .collect::<Vec<_>>()
            })
        };
        let mc = json!({ "type": "MC", "movement": 6 });
        let hex = |n: u32| json!({ "label": "22.07", "terrain": "clear", "units_in_hex": n });
        // 4.3.3 example: MC through 22.07 holding 3 CB: 1 D marker on the MC, 2 on the CB.
        let d = |who: &str, n: &str, ruling: Option<&str>| {
            (
                format!("{who}: {n}"),
                "4.3.3".to_string(),
                ruling.map(String::from),
            )
        };
        assert_eq!(
            through(mc.clone(), false, hex(3)),
            vec![
                d("MC", "+1 D marker", None),
                d("Hex 22.07", "+2 D markers", None)
            ]
        );
        // Below the limit the hex is passed freely, but not by a charge (6.3, R-ITACS-39).
        assert!(through(mc, false, hex(1)).is_empty());
        let hc = json!({ "type": "HC", "movement": 8 });
        assert_eq!(
            through(hc.clone(), true, hex(1)),
            vec![
                d("HC", "+1 D marker", Some("R-ITACS-39")),
                d("Hex 22.07", "+2 D markers", Some("R-ITACS-39"))
            ]
        );
        // Through a full hex a charge is disrupted by 4.3.3 itself, with no ruling.
        assert_eq!(through(hc.clone(), true, hex(3))[0].2, None);
        // Through an elephant's hex (R-ITACS-33).
        let el = json!({ "label": "22.07", "terrain": "clear", "elephant": true });
        assert_eq!(through(hc, false, el)[0].2.as_deref(), Some("R-ITACS-33"));
    }

    #[test]
    fn markers_in_the_hex_entered_stop_the_move() {
        let enter = |v: Value, i: usize| {
            with_mover(v, |m| {
                let mut p = Progress::new(vec![]);
                m.markers(&m.hex(i).unwrap(), &mut p)
                    .map(|()| (p.result, p.effects.len(), p.notes.len()))
                    .map_err(|e| (e.code.to_string(), e.field, e.rule))
            })
        };
        let sd = |extra: Value, path: Value| {
            let mut v = json!({ "unit": { "type": "SD" }, "path": path });
            v.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            v
        };
        let rout = json!({ "terrain": "clear", "rout": true });
        let d = json!({ "terrain": "clear", "d_markers": 2 });
        let clear = json!({ "terrain": "clear" });
        // 5.3: a unit entering a routed hex routs, and must stop there.
        assert_eq!(enter(sd(json!({}), json!([rout])), 0), Ok(("routs", 1, 0)));
        assert_eq!(
            enter(sd(json!({}), json!([rout, clear])), 0),
            Err((
                "situation.must_stop".into(),
                Some("path[0].rout".into()),
                Some("5.3".into())
            ))
        );
        // 5.1: D markers disrupt and stop a unit, in a break move too (the markers it takes are
        // set as it joins the hex).
        assert_eq!(
            enter(sd(json!({ "kind": "break" }), json!([d])), 0),
            Ok(("disrupted", 0, 1))
        );
        assert_eq!(
            enter(sd(json!({}), json!([d, clear])), 0).map_err(|e| e.1),
            Err(Some("path[0].d_markers".into()))
        );
        // A disrupted unit routing is disrupted already and goes on.
        let routing = json!({ "kind": "rout", "disrupted": true });
        assert_eq!(
            enter(sd(routing, json!([d, clear])), 0),
            Ok(("moves", 0, 0))
        );
        // 5.3 and 5.1 each apply: a normal mover entering a routed hex with D markers routs and
        // is disrupted; a break move entering a routed hex routs too, and goes on.
        let both = json!({ "terrain": "clear", "rout": true, "d_markers": 1 });
        assert_eq!(enter(sd(json!({}), json!([both])), 0), Ok(("routs", 1, 1)));
        assert_eq!(
            enter(sd(json!({ "kind": "break" }), json!([rout, clear])), 0),
            Ok(("routs", 1, 0))
        );
        // A unit routing already takes no second Rout marker.
        assert_eq!(
            enter(sd(json!({ "kind": "rout" }), json!([rout])), 0),
            Ok(("moves", 0, 0))
        );
    }

    /// The changes a whole move lands, each with its target, rule and ruling.
    fn landed(v: Value) -> Vec<(Target, Change, String, Option<String>)> {
        let s: MoveSituation = serde_json::from_value(v).unwrap();
        let r = move_units(&data(), &s).unwrap();
        r.outcome
            .unwrap()
            .effects
            .into_iter()
            .map(|e| (e.target, e.change, e.rule, e.ruling))
            .collect()
    }

    fn unit_sd() -> Target {
        Target::Unit("SD".into())
    }

    fn hex_b() -> Target {
        Target::Hex("B".into())
    }

    fn ruled(
        target: Target,
        change: Change,
        rule: &str,
    ) -> (Target, Change, String, Option<String>) {
        (target, change, rule.into(), Some("R-ITACS-40".into()))
    }

    #[test]
    fn a_stack_joining_friends_shares_the_larger_d_count_and_its_rout() {
        let enters = || ruled(unit_sd(), Change::EntersHex { hex: "B".into() }, "4.3.1");
        let mover = |extra: Value, hex: Value| {
            let mut v = json!({ "unit": { "type": "SD", "movement": 6 }, "kind": "rout",
                                "path": [hex] });
            v.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            v
        };
        let friends = |d: u32, rout: bool| json!({ "label": "B", "terrain": "clear", "units_in_hex": 1, "d_markers": d, "rout": rout });
        // A routing stack with 2 D markers joins clean friends: they take 2 and its Rout marker.
        assert_eq!(
            landed(mover(
                json!({ "disrupted": true, "d_markers": 2 }),
                friends(0, false)
            )),
            vec![
                enters(),
                ruled(hex_b(), Change::DMarkers { count: 2 }, "5.0"),
                ruled(hex_b(), Change::Rout, "5.3"),
            ]
        );
        // Friends with 1 D marker are lifted to the mover's 2, not to 3: the larger count.
        assert_eq!(
            landed(mover(
                json!({ "disrupted": true, "d_markers": 2 }),
                friends(1, true)
            )),
            vec![
                enters(),
                ruled(hex_b(), Change::DMarkers { count: 1 }, "5.0")
            ]
        );
        // Friends with more lift the mover: 1 against 2.
        assert_eq!(
            landed(mover(
                json!({ "disrupted": true, "d_markers": 1 }),
                friends(2, true)
            )),
            vec![
                enters(),
                ruled(unit_sd(), Change::DMarkers { count: 1 }, "5.1")
            ]
        );
        // An undisrupted stack entering a hex with D markers takes the hex's count (5.1).
        assert_eq!(
            landed(json!({ "unit": { "type": "SD", "movement": 6 }, "path": [friends(2, false)] })),
            vec![
                enters(),
                ruled(unit_sd(), Change::DMarkers { count: 2 }, "5.1")
            ]
        );
        // Without a hex label nothing is entered, but the friends still share the markers.
        let unnamed = json!({ "terrain": "clear", "units_in_hex": 1 });
        assert_eq!(
            landed(mover(json!({ "disrupted": true }), unnamed)),
            vec![
                ruled(
                    Target::Hex("hex 1".into()),
                    Change::DMarkers { count: 1 },
                    "5.0"
                ),
                ruled(Target::Hex("hex 1".into()), Change::Rout, "5.3"),
            ]
        );
    }

    #[test]
    fn the_d_marker_taken_passing_through_reaches_the_friends_joined() {
        // 4.3.3: through a full hex the mover takes 1 D, the hex 2; ending among clean friends,
        // they carry the mover's 1 too (R-ITACS-40).
        let v = json!({ "unit": { "type": "LC", "movement": 8 }, "path": [
            { "label": "A", "terrain": "clear", "units_in_hex": 3 },
            { "label": "B", "terrain": "clear", "units_in_hex": 1 },
        ] });
        let changes = landed(v);
        assert_eq!(
            changes.last(),
            Some(&ruled(hex_b(), Change::DMarkers { count: 1 }, "5.0"))
        );
        let mover_d = (
            Target::Unit("LC".into()),
            Change::DMarkers { count: 1 },
            "4.3.3".to_string(),
            None,
        );
        assert!(changes.contains(&mover_d));
    }

    #[test]
    fn the_move_ends_with_its_facing_its_points_and_its_markers() {
        let finish = |v: Value, spent: u32, left_map: bool| {
            with_mover(v, |m| {
                let mut p = Progress::new(vec![]);
                p.spent = spent;
                p.left_map = left_map;
                m.finish(p, "4.3.1".into())
            })
        };
        let lb = |end: u32| {
            json!({ "unit": { "type": "LB" }, "end_facing_changes": end,
                    "path": [{ "terrain": "clear" }] })
        };
        // 4.3.4: 5 of LB's 5 points spent; one facing change more is refused (4.3.2).
        let r = finish(lb(0), 5, false).unwrap();
        assert_eq!(r.totals[0].value, "5 of 5");
        assert_eq!(r.outcome.unwrap().result, "moves");
        let e = finish(lb(1), 5, false).unwrap_err();
        assert_eq!(
            (e.field.as_deref(), e.rule.as_deref()),
            (Some("end_facing_changes"), Some("4.3.2"))
        );
        assert_eq!(finish(lb(1), 4, false).unwrap().totals[0].value, "5 of 5");
        // A break move off the map: destroyed (5.3.3), and its Break marker goes (5.2.1).
        let rout =
            json!({ "unit": { "type": "SD" }, "kind": "break", "path": [{ "terrain": "clear" }] });
        let o = finish(rout, 1, true).unwrap().outcome.unwrap();
        assert_eq!(o.result, "leaves_the_map");
        assert_eq!(o.meaning, meaning("leaves_the_map"));
        let changes: Vec<_> = o
            .effects
            .iter()
            .map(|e| (e.change.clone(), e.rule.as_str()))
            .collect();
        assert_eq!(
            changes,
            vec![
                (Change::DestroyAll, "5.3.3"),
                (Change::RemoveBreak, "5.2.1")
            ]
        );
    }
}
