//! What a battle is made of: its setup (ruleset, sides, commands) and the live state of every
//! unit and side. Below both the battle (which folds events into it) and the rule systems (which
//! read it and land changes on it), so neither needs the other.

pub mod clock;
pub mod unit;

pub use unit::{
    Detail, LeaderFate, LeaderNotes, QuickEdit, Role, SystemUnit, UnitDetail, UnitId, UnitSpec,
    UnitState, UnitWords,
};

use std::collections::{BTreeMap, BTreeSet};

use crate::ErrorCode;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct SideSetup {
    pub name: String,
    /// Commands or wings, by name.
    #[serde(default)]
    #[ts(optional, as = "Option<Vec<String>>")]
    pub commands: Vec<String>,
    /// ITACS: the scenario's panic level for this army (5.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub panic_level: Option<u32>,
    /// ITACS: the scenario's stacking limit for this side (4.3.3, 8.0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub stacking_limit: Option<u32>,
}

impl SideSetup {
    /// The number set up under a side field's key (`panic_level`, `stacking_limit`), if given.
    pub fn number(&self, key: &str) -> Option<u32> {
        match key {
            "panic_level" => self.panic_level,
            "stacking_limit" => self.stacking_limit,
            _ => None,
        }
    }
}

/// How a battle begins: the ruleset in force (with its fingerprint) and the sides.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct BattleSetup {
    pub name: String,
    pub ruleset: String,
    /// The fingerprint of the ruleset and house-rule files in force when the battle began.
    pub fingerprint: String,
    pub sides: Vec<SideSetup>,
}

/// A result applied this turn: its action and the roster units on each side of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnCombat {
    pub seq: u64,
    pub action: String,
    pub attackers: Vec<UnitId>,
    pub defenders: Vec<UnitId>,
}

/// One move of the MORALE counter: the boxes it actually moved (the first side's favour) and the
/// rule of the change that moved it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrackMove {
    pub boxes: i64,
    pub rule: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct SideState {
    pub name: String,
    pub commands: Vec<String>,
    #[ts(optional)]
    pub panic_level: Option<u32>,
    #[ts(optional)]
    pub stacking_limit: Option<u32>,
    /// Victory points a result awarded directly (losses are counted from the roster).
    pub points_awarded: u32,
    /// The army panicked (ITACS 5.4).
    pub panicked: bool,
}

/// The battle now: the fold of its events.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct BattleState {
    pub name: String,
    pub ruleset: String,
    pub fingerprint: String,
    pub sides: Vec<SideState>,
    pub units: BTreeMap<UnitId, UnitState>,
    pub turn: u32,
    #[ts(optional)]
    pub phase: Option<String>,
    /// Medieval MORALE counter, positive in the first side's favour: results move it as they
    /// land (6.1.4–6.1.7).
    pub morale_track: i64,
    /// Medieval MORALE value in force, positive in the first side's favour: the counter as it
    /// stood when phase 9 last set it (6.1.9); combats take their CMs from it.
    pub morale_in_force: i64,
    /// The counter's moves since the turn began, in order: what the phase-9 step reports.
    #[serde(skip)]
    #[ts(skip)]
    pub morale_moves: Vec<TrackMove>,
    /// Changes a replay could not make (their unit was already gone after an edited roll).
    pub conflicts: Vec<String>,
    /// The results applied (and in force) since the turn began: the once-per-turn limits read
    /// them (ITACS 4.2, 4.5.4).
    #[serde(skip)]
    #[ts(skip)]
    pub this_turn: Vec<TurnCombat>,
    /// Units taken off the roster: their ids are not given again.
    #[serde(skip)]
    #[ts(skip)]
    pub removed: BTreeSet<UnitId>,
    /// Results and adjustments in force, the whole battle through: before the first there is
    /// nothing to give a verdict on.
    #[serde(skip)]
    #[ts(skip)]
    pub results: u32,
    /// The battle's game clock, once a result started it (DBMM p. 23): the time of each turn is
    /// read from it and the turn.
    #[serde(skip)]
    #[ts(skip)]
    pub clock: Option<clock::BattleClock>,
    /// The terrain each player chose, by chooser (Invader, Defender), once a result recorded it
    /// (DBMM p. 20).
    #[serde(skip)]
    #[ts(skip)]
    pub terrain: BTreeMap<String, Vec<crate::contract::TerrainFeature>>,
}

impl BattleState {
    pub fn new(setup: &BattleSetup) -> BattleState {
        BattleState {
            name: setup.name.clone(),
            ruleset: setup.ruleset.clone(),
            fingerprint: setup.fingerprint.clone(),
            sides: setup
                .sides
                .iter()
                .map(|s| SideState {
                    name: s.name.clone(),
                    commands: s.commands.clone(),
                    panic_level: s.panic_level,
                    stacking_limit: s.stacking_limit,
                    points_awarded: 0,
                    panicked: false,
                })
                .collect(),
            units: BTreeMap::new(),
            turn: 1,
            phase: None,
            morale_track: 0,
            morale_in_force: 0,
            morale_moves: Vec::new(),
            conflicts: Vec::new(),
            this_turn: Vec::new(),
            removed: BTreeSet::new(),
            results: 0,
            clock: None,
            terrain: BTreeMap::new(),
        }
    }

    pub fn side_index(&self, name: &str) -> Option<usize> {
        self.sides.iter().position(|s| s.name == name)
    }

    /// The error for a side the battle does not have, naming the ones it has.
    pub fn unknown_side(&self, side: &str, field: &str) -> crate::error::RefereeError {
        let sides: Vec<&str> = self.sides.iter().map(|s| s.name.as_str()).collect();
        crate::error::RefereeError::new(
            ErrorCode::BattleUnknownSide,
            format!(
                "no side “{side}” in this battle; the sides are {}",
                sides.join(" and ")
            ),
        )
        .field(field)
    }

    /// The next unit id: one more than the highest so far, removed units included.
    pub fn next_unit_id(&self) -> UnitId {
        let on = self.units.keys().next_back().copied().unwrap_or(0);
        let off = self.removed.last().copied().unwrap_or(0);
        on.max(off).saturating_add(1)
    }

    /// Notes a result applied this turn, for the once-per-turn limits.
    pub fn note_combat(&mut self, seq: u64, action: &str, targets: &BTreeMap<String, Vec<UnitId>>) {
        let ids = |key: &str| targets.get(key).cloned().unwrap_or_default();
        self.this_turn.push(TurnCombat {
            seq,
            action: action.to_string(),
            attackers: ids("attacker"),
            defenders: ids("defender"),
        });
    }

    pub fn panic_happened(&self) -> bool {
        self.sides.iter().any(|s| s.panicked)
    }
}
