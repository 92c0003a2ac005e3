//! Movement helpers (3.3, 4.0, 5.6): the cost of a turn (R-MED-5) and of a path hex by hex with
//! the charge factor it builds or loses, ZoC stops (3.3.3), stacking (4.5) and the hexes that
//! cost a charging unit an SP and a scatter (4.2.6–4.2.8). Costs are kept in sixths of an MP so
//! roads (½ and ⅓ MP) stay exact.

use schemars::JsonSchema;
use serde::Deserialize;
use ts_rs::TS;

use super::data::{MedievalData, Terrain};
use super::units::{terrain, unit, MedUnit, Unit};
use crate::contract::{effect, Change, Check, Effect, Note, Resolution, Target, Total};
use crate::error::RefereeError;
use crate::ErrorCode;

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
            ErrorCode::SituationInvalidTurn,
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
            ErrorCode::SituationInvalidTurn,
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
                "{} × (CF {} + 1) + armour {}",
                crate::error::counted(i64::from(hexsides), "hexside", "hexsides"),
                u.cf,
                u.armour
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
    let r = Resolution::certain(
        &data.system.id,
        "turn_cost",
        &format!("mp_sixths_{sixths}"),
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
    let mut r = r.named(
        &format!("mp_sixths_{sixths}"),
        format!("{} MP", show_sixths(sixths)),
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

/// move_cost: the mover → each hex in turn (its cost, the CF it builds or loses, what charging
/// into it does, an enemy ZoC) → leaving the map → the move's notes and totals.
pub fn move_cost(data: &MedievalData, s: &MoveSituation) -> Result<Resolution, RefereeError> {
    let u = mover(data, s)?;
    let movement = movement_points(data, s)?;
    if s.path.is_empty() {
        return Err(
            RefereeError::new(ErrorCode::SituationEmptyPath, "enter at least one hex")
                .field("path")
                .rule(&data.movement.rule),
        );
    }
    let mut m = Move::new(data, s, u, movement);
    for (i, step) in s.path.iter().enumerate() {
        m.enter(i, step)?;
    }
    if s.leave_map {
        m.leave_map()?;
    }
    Ok(m.finish())
}

/// The moving unit, or a leader on his own: cavalry over the terrain, no CF, no SPs (8.1.1).
fn mover(data: &MedievalData, s: &MoveSituation) -> Result<Unit, RefereeError> {
    match (&s.unit, s.leader) {
        (Some(e), false) => unit(data, e, "unit"),
        (None, true) => Ok(Unit {
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
        }),
        (Some(_), true) => Err(RefereeError::new(
            ErrorCode::SituationInvalidMove,
            "a leader moves on his own: enter either the unit or the leader, not both",
        )
        .field("leader")
        .rule("8.1.1")),
        (None, false) => Err(RefereeError::new(
            ErrorCode::SituationInvalidField,
            "enter the moving unit, or say that a leader moves",
        )
        .field("unit")
        .rule(&data.movement.rule)),
    }
}

/// The MPs of the phase: as entered; a leader's 10 unless given (8.1.2).
fn movement_points(data: &MedievalData, s: &MoveSituation) -> Result<u32, RefereeError> {
    match (s.movement, s.leader) {
        (Some(m), _) => Ok(m),
        (None, true) => Ok(data.movement.leader_mp),
        (None, false) => Err(RefereeError::new(
            ErrorCode::SituationInvalidField,
            "enter the unit's movement points",
        )
        .field("movement")
        .rule(&data.movement.rule)),
    }
}

/// A hex's cost in sixths of an MP and the words of each part ("1 MP", "+1 friendly hex").
struct HexCost {
    sixths: u32,
    parts: Vec<String>,
}

impl HexCost {
    fn add(&mut self, sixths: u32, part: String) {
        self.sixths += sixths;
        self.parts.push(part);
    }
}

/// A move under way: what it has spent, its CF now, and what its hexes have called for.
struct Move<'a> {
    data: &'a MedievalData,
    s: &'a MoveSituation,
    u: Unit,
    movement: u32,
    /// MPs in sixths.
    budget: u32,
    spent: u32,
    cf: u32,
    totals: Vec<Total>,
    effects: Vec<Effect>,
    notes: Vec<Note>,
    /// The hex before was an enemy ZoC the unit passed: leaving it costs more (3.3.3).
    zoc_extra_next: bool,
    fortification_lines: Vec<String>,
    fired: bool,
    lowered: bool,
    climbed_slopes: bool,
    fords: bool,
    /// 4.2.10: the one-hex move any unit may always make, for all its MPs.
    always_allowed: bool,
}

impl<'a> Move<'a> {
    fn new(data: &'a MedievalData, s: &'a MoveSituation, u: Unit, movement: u32) -> Move<'a> {
        Move {
            data,
            s,
            cf: u.cf,
            u,
            movement,
            budget: 6 * movement,
            spent: 0,
            totals: Vec::new(),
            effects: Vec::new(),
            notes: Vec::new(),
            zoc_extra_next: false,
            fortification_lines: Vec::new(),
            fired: false,
            lowered: false,
            climbed_slopes: false,
            fords: false,
            always_allowed: false,
        }
    }

    fn leader(&self) -> bool {
        self.s.leader
    }

    /// One hex entered straight ahead: its cost paid, then what entering it does.
    fn enter(&mut self, i: usize, step: &PathStep) -> Result<(), RefereeError> {
        let data = self.data;
        let field = format!("path[{i}]");
        let name = step
            .label
            .clone()
            .unwrap_or_else(|| format!("hex {}", i + 1));
        let ground = terrain(data, &step.terrain, &format!("{field}.terrain"))?;
        if ground.prohibited && !step.road {
            self.notes.push(Note::new(
                format!("{name}: {} is closed to movement except by road; entering costs 1 SP and a scatter.", ground.name),
                "TERRAIN EFFECT, 4.2.7",
                Some("R-MED-10"),
            ));
        }
        let cost = self.hex_cost(step, ground, &name, &field)?;
        self.pay(i, cost.sixths, &name, field.clone())?;
        self.totals.push(Total::new(
            format!("Enter {name} ({})", ground.name),
            format!("{}; CF {}", cost.parts.join(" "), self.cf),
            &ground.rule,
            None,
        ));
        self.charge_into(i, step, ground, &name, &field)?;
        if step.ford && self.u.cavalry {
            self.cf = 0;
            self.fords = true;
        }
        self.enemy_zoc(i, step, &name, &field)
    }

    /// What entering a hex costs, turning first, leaving a ZoC, fortifications, friends, the CF
    /// held or lowered, a shot and a banner passed; the CF as it ends there.
    fn hex_cost(
        &mut self,
        step: &PathStep,
        ground: &Terrain,
        name: &str,
        field: &str,
    ) -> Result<HexCost, RefereeError> {
        let (data, mv) = (self.data, &self.data.movement);
        let turn = self.turn_first(step, field)?;
        let base = entry_sixths(data, &self.u, step, ground);
        let mut cost = HexCost {
            sixths: base,
            parts: vec![format!("{} MP", show_sixths(base))],
        };
        if step.turn_before > 0 {
            cost.add(turn, format!("+{} turning first", show_sixths(turn)));
        }
        if self.zoc_extra_next {
            cost.add(
                6 * mv.zoc_pass_extra,
                format!("+{} leaving a ZoC", mv.zoc_pass_extra),
            );
            self.zoc_extra_next = false;
        }
        // 11.1.3: moving through fortifications costs more by class and armour, but not through
        // a gate (11.1.4).
        let extra = if ground.fortified && !step.gate {
            fortification_extra(data, &self.u)
        } else {
            0
        };
        if extra > 0 {
            cost.add(6 * extra, format!("+{extra} fortifications"));
            self.fortification_lines.push(name.to_string());
        }
        self.friends(step, name, field, &mut cost)?;
        if step.hold_cf && step.lower_cf {
            return Err(RefereeError::new(
                ErrorCode::SituationInvalidMove,
                format!("{name}: a unit either holds its charge factor or lowers it, not both"),
            )
            .field(format!("{field}.lower_cf"))
            .rule("5.6.12, 5.6.13"));
        }
        if self.u.cavalry && !self.leader() {
            self.charge_factor(step, ground, &mut cost);
        }
        if step.fire {
            self.shoot(field, &mut cost)?;
        }
        if step.pass_banner {
            cost.add(
                6 * mv.pass_banner_cost,
                format!("+{} passing the banner", mv.pass_banner_cost),
            );
        }
        Ok(cost)
    }

    /// The cost of turning before entering (4.3; nothing on a road, 4.3.8); a cavalry unit's CF
    /// falls back to 0 (5.6.3).
    fn turn_first(&mut self, step: &PathStep, field: &str) -> Result<u32, RefereeError> {
        if step.turn_before == 0 {
            return Ok(0);
        }
        let now = Unit {
            cf: self.cf,
            ..self.u.clone()
        };
        let turn = if step.road {
            0
        } else {
            turn_sixths(
                self.data,
                &now,
                step.turn_before,
                &format!("{field}.turn_before"),
            )?
            .0
        };
        if self.u.cavalry {
            self.cf = 0;
        }
        Ok(turn)
    }

    /// Friendly units in the hex: the stacking limit (4.5.1) and their extra MP (4.2.3); a
    /// leader stacks without adding to the limit (8.1.1).
    fn friends(
        &self,
        step: &PathStep,
        name: &str,
        field: &str,
        cost: &mut HexCost,
    ) -> Result<(), RefereeError> {
        let mv = &self.data.movement;
        if step.friendly_sp == 0 || self.leader() {
            return Ok(());
        }
        let own = self.u.sp * self.u.count;
        if step.friendly_sp + own > mv.stacking_sp {
            return Err(RefereeError::new(
                ErrorCode::SituationOverStacking,
                format!(
                    "{name} holds {} SPs: with this unit's {own} it breaks the {}-SP stacking limit",
                    step.friendly_sp, mv.stacking_sp
                ),
            )
            .field(format!("{field}.friendly_sp"))
            .rule(&mv.stacking_rule));
        }
        cost.add(
            6 * mv.friendly_hex_extra,
            format!("+{} friendly hex", mv.friendly_hex_extra),
        );
        Ok(())
    }

    /// The charge factor: +1 per hex straight ahead, unless held (5.6.12) or lowered (5.6.13);
    /// crossings and slopes cost (5.6.7–5.6.9).
    fn charge_factor(&mut self, step: &PathStep, ground: &Terrain, cost: &mut HexCost) {
        let (mv, c) = (&self.data.movement, &self.data.combat);
        if step.hold_cf {
            let hold = if step.road { 3 } else { 6 * mv.hold_cf_extra };
            cost.add(hold, format!("+{} holding CF", show_sixths(hold)));
        } else if step.lower_cf {
            cost.add(
                6 * mv.lower_cf_extra,
                format!("+{} lowering CF", mv.lower_cf_extra),
            );
            self.cf = self.cf.saturating_sub(1);
            self.lowered = true;
        } else {
            self.cf = (self.cf + 1).min(c.max_charge_factor);
        }
        // Entering a slope is climbing it: the terrain and the climb are one fact (R-MED-16).
        let climbs = step.uphill || ground.uphill;
        if climbs && !step.uphill {
            self.climbed_slopes = true;
        }
        let loss = c.crossing_cf(step.stream, step.bridge, u32::from(climbs));
        self.cf = self.cf.saturating_sub(loss);
    }

    /// Horse archers shooting in their own movement phase: 1 MP, once (10.5.6–10.5.8).
    fn shoot(&mut self, field: &str, cost: &mut HexCost) -> Result<(), RefereeError> {
        let mv = &self.data.movement;
        if self.u.ranged.as_deref() != Some("horse_archers") {
            return Err(RefereeError::new(
                ErrorCode::SituationInvalidMove,
                format!(
                    "{}: only horse archers shoot during their own movement",
                    self.u.name
                ),
            )
            .field(format!("{field}.fire"))
            .rule("10.5.6, 10.1.5"));
        }
        if self.fired {
            return Err(RefereeError::new(
                ErrorCode::SituationInvalidMove,
                "horse archers shoot only once during their own movement phase",
            )
            .field(format!("{field}.fire"))
            .rule("10.5.7"));
        }
        self.fired = true;
        cost.add(
            6 * mv.horse_archer_fire_cost,
            format!("+{} shooting", mv.horse_archer_fire_cost),
        );
        Ok(())
    }

    /// Pays a hex from the MPs left; a single hex is always allowed for all of them (4.2.10).
    fn pay(
        &mut self,
        i: usize,
        sixths: u32,
        name: &str,
        field: String,
    ) -> Result<(), RefereeError> {
        let over = self.spent + sixths > self.budget;
        if over && i == 0 && self.s.path.len() == 1 && !self.s.leave_map {
            self.always_allowed = true;
        } else if over {
            return Err(RefereeError::new(
                ErrorCode::SituationOutOfMovement,
                format!(
                    "entering {name} costs {} and only {} MP are left",
                    show_sixths(sixths),
                    show_sixths(self.budget.saturating_sub(self.spent))
                ),
            )
            .field(field)
            .rule(&self.data.movement.rule));
        }
        self.spent += sixths;
        Ok(())
    }

    /// 4.2.6–4.2.8: charging into forest, village, ford or fortifications (or a swamp off the
    /// road) costs an SP and a scatter and ends the move; on a road cavalry may pass at CF 1.
    fn charge_into(
        &mut self,
        i: usize,
        step: &PathStep,
        ground: &Terrain,
        name: &str,
        field: &str,
    ) -> Result<(), RefereeError> {
        let cf = self.cf;
        let road_ok = step.road && cf <= 1;
        let charging_in = (ground.enter_loses_sp || step.ford) && cf > 0;
        // A leader has no SPs to lose and does not scatter (8.1.1, 8.1.7).
        if !(charging_in || (ground.enter_loses_sp && ground.prohibited))
            || road_ok
            || self.leader()
        {
            return Ok(());
        }
        if charging_in {
            self.notes.push(Note::new(
                format!("{name}: the unit enters with the CF the hex gives it ({cf})."),
                "4.2.6, 5.6.3",
                Some("R-MED-19"),
            ));
        }
        self.effects.push(effect(
            Target::Unit(self.u.name.clone()),
            Change::LoseSp {
                count: 1,
                chosen_by: crate::contract::Chooser::Attacker,
            },
            "4.2.6, 4.2.7",
            None,
        ));
        self.effects.push(effect(
            Target::Unit(self.u.name.clone()),
            Change::Scatter,
            "4.2.6, 4.2.7",
            None,
        ));
        if i != self.s.path.len() - 1 {
            return Err(RefereeError::new(
                ErrorCode::SituationMustStop,
                format!("{name}: the unit loses 1 SP and scatters there, ending its move"),
            )
            .field(field)
            .rule("4.2.6, 4.2.7"));
        }
        Ok(())
    }

    /// An enemy ZoC stops the unit unless its CF beats the enemy's by the margin; passing it
    /// costs more in the next hex (3.3.3). A leader ignores ZoCs (8.1.3).
    fn enemy_zoc(
        &mut self,
        i: usize,
        step: &PathStep,
        name: &str,
        field: &str,
    ) -> Result<(), RefereeError> {
        let mv = &self.data.movement;
        let Some(enemy_cf) = step.enemy_zoc_cf.filter(|_| !self.leader()) else {
            return Ok(());
        };
        if self.cf >= enemy_cf + mv.zoc_pass_cf_margin {
            self.zoc_extra_next = true;
        } else if i != self.s.path.len() - 1 {
            return Err(RefereeError::new(
                ErrorCode::SituationMustStop,
                format!(
                    "{name} is in an enemy ZoC: the unit stops there (its CF {} does not exceed the enemy's {enemy_cf} by {})",
                    self.cf, mv.zoc_pass_cf_margin
                ),
            )
            .field(format!("{field}.enemy_zoc_cf"))
            .rule(&mv.zoc_rule));
        }
        Ok(())
    }

    /// After the last hex it crosses the map border: 1 MP (4.4.2).
    fn leave_map(&mut self) -> Result<(), RefereeError> {
        let mv = &self.data.movement;
        let sixths = 6 * mv.leave_map_cost;
        if self.spent + sixths > self.budget {
            return Err(RefereeError::new(
                ErrorCode::SituationOutOfMovement,
                format!(
                    "crossing the map border costs {} and only {} MP are left",
                    mv.leave_map_cost,
                    show_sixths(self.budget.saturating_sub(self.spent))
                ),
            )
            .field("leave_map")
            .rule("4.4.2"));
        }
        self.spent += sixths;
        self.totals.push(Total::new(
            "Leave the map",
            format!("{} MP", mv.leave_map_cost),
            "4.4.2",
            None,
        ));
        Ok(())
    }

    /// The move as a resolution: the one-hex move's CF (4.2.10), the notes its hexes called
    /// for, the MPs spent and the CF at the end.
    fn finish(mut self) -> Resolution {
        let data = self.data;
        if self.always_allowed {
            self.spent = self.budget;
            if self.u.cavalry {
                self.cf = 0;
            }
            self.notes.push(Note::new(
                "A unit may always move 1 hex for all its MPs; its CF is then 0.",
                "4.2.10",
                None,
            ));
        }
        self.notes.extend(move_notes(data, &self));
        self.totals.push(Total::new(
            "Movement points spent",
            format!("{} of {}", show_sixths(self.spent), self.movement),
            &data.movement.rule,
            None,
        ));
        if self.leader() {
            self.notes.push(Note::new(
                "A leader moves like cavalry over the terrain, ignores enemy ZoCs and stacks with any units.",
                &data.movement.leader_rule,
                None,
            ));
        }
        self.totals.push(Total::new(
            "Charge factor at the end",
            self.cf.to_string(),
            "5.6.3",
            None,
        ));
        let scattered = !self.effects.is_empty();
        if self.always_allowed && self.u.cavalry && self.u.cf > 0 && !scattered {
            self.effects.push(effect(
                Target::Unit(self.u.name.clone()),
                Change::ResetChargeFactor,
                "4.2.10",
                None,
            ));
        }
        let (result, meaning) = if scattered {
            (
                "scattered",
                "The unit loses 1 SP and scatters in the last hex.",
            )
        } else {
            ("moves", "The move is allowed.")
        };
        let mut r =
            Resolution::certain(&data.system.id, "move_cost", result, meaning, self.effects);
        r.totals = self.totals;
        r.notes = self.notes;
        r.checks.push(Check::umpire(
            "Each hex is the unit's frontal hex; never a hex with enemy units (but for riding down)",
            "4.2.1, 4.2.2",
        ));
        r
    }
}

/// A hex's own cost: by road ½ MP infantry, ⅓ MP cavalry (4.2.8); else 1 MP plus the terrain's
/// extra for the unit's class (TERRAIN EFFECT).
fn entry_sixths(data: &MedievalData, u: &Unit, step: &PathStep, ground: &Terrain) -> u32 {
    if step.road {
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
    }
}

/// 11.1.3: the extra MPs through fortifications by class and armour (the last column beyond).
fn fortification_extra(data: &MedievalData, u: &Unit) -> u32 {
    let by_armour = if u.cavalry {
        &data.fortification_costs.cavalry
    } else {
        &data.fortification_costs.infantry
    };
    by_armour
        .get(u.armour as usize)
        .or(by_armour.last())
        .copied()
        .unwrap_or(0)
}

/// What the move's hexes called for once: fortifications (11.1.3), slopes (5.6.9, R-MED-16),
/// a lowered CF (5.6.13, R-MED-26), a ford (4.2.5, R-MED-27).
fn move_notes(data: &MedievalData, m: &Move) -> Vec<Note> {
    let mut notes = Vec::new();
    if !m.fortification_lines.is_empty() {
        notes.push(Note::new(
            format!(
                "Moving through fortifications costs more by class and armour ({}); through a gate it costs nothing extra.",
                m.fortification_lines.join(", ")
            ),
            &data.fortification_costs.rule,
            None,
        ));
    }
    if m.climbed_slopes {
        notes.push(Note::new(
            "Entering a slope is moving uphill: CF −1 there.",
            "5.6.9",
            Some("R-MED-16"),
        ));
    }
    if m.lowered {
        notes.push(Note::new(
            "Lowering the CF on entering a hex takes it 1 lower for 2 MPs.",
            "5.6.13",
            Some("R-MED-26"),
        ));
    }
    if m.fords {
        notes.push(Note::new(
            "A cavalry unit crossing a ford ends there with CF 0, as in the countercharge example.",
            "4.2.5, 5.7.6",
            Some("R-MED-27"),
        ));
    }
    notes
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::systems::{medieval::Medieval, test_support::load};

    fn situation(v: serde_json::Value) -> MoveSituation {
        serde_json::from_value(v).unwrap()
    }

    fn step(v: serde_json::Value) -> PathStep {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn a_leader_moves_alone_with_10_mps() {
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let leader = situation(json!({ "leader": true, "path": [{ "terrain": "clear" }] }));
        let u = mover(data, &leader).unwrap();
        assert!(u.cavalry && u.cf == 0 && u.sp == 0);
        assert_eq!(movement_points(data, &leader).unwrap(), 10);
        let both = situation(json!({
            "leader": true, "unit": { "type": "cavalry", "sp": 2 }, "path": []
        }));
        assert_eq!(
            mover(data, &both).unwrap_err().rule.as_deref(),
            Some("8.1.1")
        );
    }

    #[test]
    fn a_hex_costs_its_terrain_or_the_road_and_fortifications_by_armour() {
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let knights = unit(
            data,
            &serde_json::from_value(json!({ "type": "heavy_cavalry", "sp": 2 })).unwrap(),
            "unit",
        )
        .unwrap();
        let clear = &data.terrain["clear"];
        // ⅓ MP by road for cavalry (4.2.8), 1 MP in the open.
        assert_eq!(
            entry_sixths(
                data,
                &knights,
                &step(json!({ "terrain": "clear", "road": true })),
                clear
            ),
            2
        );
        assert_eq!(
            entry_sixths(data, &knights, &step(json!({ "terrain": "clear" })), clear),
            6
        );
        // 11.1.3: cavalry at armour 2 pays 5 MPs more.
        assert_eq!(fortification_extra(data, &knights), 5);
    }

    #[test]
    fn the_cf_rises_a_hex_at_a_time_to_3_and_a_stream_costs_1() {
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let s = situation(json!({
            "unit": { "type": "light_cavalry", "sp": 2, "cf": 2 }, "movement": 8,
            "path": [{ "terrain": "clear" }]
        }));
        let u = mover(data, &s).unwrap();
        let mut m = Move::new(data, &s, u, 8);
        let clear = &data.terrain["clear"];
        let mut cost = HexCost {
            sixths: 6,
            parts: Vec::new(),
        };
        m.charge_factor(&step(json!({ "terrain": "clear" })), clear, &mut cost);
        assert_eq!(m.cf, 3);
        m.charge_factor(&step(json!({ "terrain": "clear" })), clear, &mut cost);
        assert_eq!(m.cf, 3);
        m.charge_factor(
            &step(json!({ "terrain": "clear", "stream": true })),
            clear,
            &mut cost,
        );
        assert_eq!(m.cf, 2);
        // Holding the CF costs 1 MP (5.6.12).
        m.charge_factor(
            &step(json!({ "terrain": "clear", "hold_cf": true })),
            clear,
            &mut cost,
        );
        assert_eq!((m.cf, cost.sixths), (2, 12));
    }

    #[test]
    fn an_enemy_zoc_stops_a_unit_unless_its_cf_beats_the_enemys_by_2() {
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let s = situation(json!({
            "unit": { "type": "light_cavalry", "sp": 2, "cf": 2 }, "movement": 8,
            "path": [{ "terrain": "clear" }, { "terrain": "clear" }]
        }));
        let u = mover(data, &s).unwrap();
        let mut m = Move::new(data, &s, u, 8);
        m.enemy_zoc(
            0,
            &step(json!({ "terrain": "clear", "enemy_zoc_cf": 0 })),
            "hex 1",
            "path[0]",
        )
        .unwrap();
        assert!(m.zoc_extra_next);
        let e = m
            .enemy_zoc(
                0,
                &step(json!({ "terrain": "clear", "enemy_zoc_cf": 1 })),
                "hex 1",
                "path[0]",
            )
            .unwrap_err();
        assert_eq!(e.code, "situation.must_stop");
    }

    #[test]
    fn a_single_hex_is_always_allowed_for_all_the_mps() {
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let s = situation(json!({
            "unit": { "type": "heavy_infantry", "sp": 2 }, "movement": 1,
            "path": [{ "terrain": "forest" }]
        }));
        let u = mover(data, &s).unwrap();
        let mut m = Move::new(data, &s, u, 1);
        m.pay(0, 12, "hex 1", "path[0]".into()).unwrap();
        assert!(m.always_allowed);
        let r = m.finish();
        assert!(r.notes.iter().any(|n| n.rule == "4.2.10"));
        assert_eq!(r.totals[0].value, "1 of 1");
    }
}
