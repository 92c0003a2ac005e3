//! What a battle is made of: its setup (ruleset, sides, commands) and the live state of every
//! unit and side.

use std::collections::{BTreeMap, BTreeSet};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

pub type UnitId = u32;

/// What a roster entry is: a fighting unit, a leader, the army's general, or its baggage (GTS
/// counts the last two in the army break point).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    #[default]
    Unit,
    Leader,
    General,
    Baggage,
}

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

/// A unit as the umpire enters it or a roster holds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct UnitSpec {
    pub label: String,
    pub side: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub command: Option<String>,
    #[serde(default)]
    #[ts(optional, as = "Option<Role>")]
    pub role: Role,
    /// The unit exactly as the ruleset's actions take it (an ITACS unit entry, a Medieval unit,
    /// a GTS unit entry), so a resolution can be built from the roster.
    #[ts(type = "unknown")]
    pub stats: serde_json::Value,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum LeaderFate {
    Captured,
    Killed,
    /// GTS Table 1.10, 2: P −1 until the turn ends (R-GTS-25).
    Dazed,
    /// GTS Table 1.10, 4: out of play until the turn ends.
    Unhorsed,
    /// GTS Table 1.10, 5: on the field until the turn ends, then passed out.
    SeriouslyWounded,
    /// GTS Table 1.10, 5, a turn later: out of play for the rest of the battle.
    PassedOut,
}

impl LeaderFate {
    /// The leader is out of play: he gives his unit nothing.
    pub fn out_of_play(self) -> bool {
        matches!(
            self,
            LeaderFate::Captured
                | LeaderFate::Killed
                | LeaderFate::Unhorsed
                | LeaderFate::PassedOut
        )
    }

    /// For good: no later wound can reach him.
    pub fn gone(self) -> bool {
        matches!(
            self,
            LeaderFate::Captured | LeaderFate::Killed | LeaderFate::PassedOut
        )
    }

    pub fn words(self) -> &'static str {
        match self {
            LeaderFate::Captured => "captured",
            LeaderFate::Killed => "killed",
            LeaderFate::Dazed => "leader dazed",
            LeaderFate::Unhorsed => "leader unhorsed",
            LeaderFate::SeriouslyWounded => "leader seriously wounded",
            LeaderFate::PassedOut => "leader passed out",
        }
    }
}

/// One unit now. stats is kept current (count, SPs, charge factor, stands, hits, disorder,
/// rout), so it can go straight into the next situation.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct UnitState {
    pub id: UnitId,
    pub label: String,
    pub side: String,
    #[ts(optional)]
    pub command: Option<String>,
    pub role: Role,
    #[ts(type = "unknown")]
    pub stats: serde_json::Value,
    /// Units in the stack (ITACS), SPs (Medieval) or stands (GTS) now, and at the start.
    pub strength: u32,
    pub starting: u32,
    pub d_markers: u32,
    pub broken: bool,
    pub rout: bool,
    pub scattered: bool,
    pub disordered: bool,
    pub hits: u32,
    pub lost: bool,
    #[ts(optional)]
    pub leader: Option<LeaderFate>,
    /// GTS Table 1.10, 3: the leader's wounds, each one grade less effective and PV +1.
    #[serde(skip_serializing_if = "is_zero")]
    #[ts(optional, as = "Option<u32>")]
    pub leader_wounds: u32,
    /// GTS Table 1.10, 8: within 6" of a leader who fell on his sword: −1 to melees and command
    /// tests until the turn ends.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[ts(optional, as = "Option<bool>")]
    pub near_fallen_leader: bool,
    /// Moves the results called for (retreats, recoils, rampages): the map is the players'.
    pub moves: Vec<String>,
    /// ITACS: the unit has fired its throwing weapons, which it does once per game (6.6).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[ts(optional, as = "Option<bool>")]
    pub threw: bool,
    #[serde(skip)]
    #[ts(skip)]
    pub kind: UnitKind,
}

/// What a unit's type says about how changes land on it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UnitKind {
    /// Elephants and fleets never break nor rout (ITACS 6.9.2, 6.7.5).
    pub never_breaks: bool,
    /// ITACS elephants rampage once disrupted, and keep that D marker.
    pub rampages: bool,
    pub rampaging: bool,
    /// GTS: hits that remove one stand.
    pub hits_per_stand: u32,
}

impl UnitState {
    /// The unit's state in a few words, worst first, for logs and diffs.
    pub fn summary(&self) -> String {
        let mut parts = vec![format!("{}/{}", self.strength, self.starting)];
        if self.lost {
            parts.push("lost".into());
        }
        if self.d_markers > 0 {
            parts.push(format!("{} D", self.d_markers));
        }
        for (on, word) in [
            (self.broken, "Break"),
            (self.rout, "Rout"),
            (self.scattered, "scattered"),
            (self.disordered, "Disordered"),
        ] {
            if on {
                parts.push(word.into());
            }
        }
        if self.hits > 0 {
            parts.push(format!("{} hits", self.hits));
        }
        if self.threw {
            parts.push("threw".into());
        }
        if let Some(cf) = self.stats.get("cf").and_then(|v| v.as_u64()) {
            parts.push(format!("CF {cf}"));
        }
        if let Some(fate) = self.leader {
            parts.push(fate.words().into());
        }
        match self.leader_wounds {
            0 => {}
            1 => parts.push("leader wounded".into()),
            n => parts.push(format!("leader wounded {n} times")),
        }
        if self.near_fallen_leader {
            parts.push("−1 for the fallen leader".into());
        }
        parts.join(", ")
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A result applied this turn: its action and the roster units on each side of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnCombat {
    pub seq: u64,
    pub action: String,
    pub attackers: Vec<UnitId>,
    pub defenders: Vec<UnitId>,
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
    /// Medieval MORALE track, positive in the first side's favour (6.1).
    pub morale_track: i64,
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
            conflicts: Vec::new(),
            this_turn: Vec::new(),
            removed: BTreeSet::new(),
        }
    }

    pub fn side_index(&self, name: &str) -> Option<usize> {
        self.sides.iter().position(|s| s.name == name)
    }

    /// The error for a side the battle does not have, naming the ones it has.
    pub fn unknown_side(&self, side: &str, field: &str) -> crate::error::RefereeError {
        let sides: Vec<&str> = self.sides.iter().map(|s| s.name.as_str()).collect();
        crate::error::RefereeError::new(
            "battle.unknown_side",
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
