//! A roster unit: what the umpire entered, and what it is now. What every system shares (label,
//! side, strength, losses, the leader riding with it, the moves results called for) is here; what
//! only its system knows (markers, hits, scatter, how an element left the table) is the system's
//! own typed state, held as a `Detail` the battle carries without knowing what it is.

use std::any::Any;
use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::contract::Change;
use crate::ErrorCode;

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

/// A unit as the umpire enters it or a roster holds it. Events keep it exactly as entered (the
/// battle file's format and the hash chain depend on it); the fold reads `stats` once, through
/// the unit's system, into the system's typed state.
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
    /// a GTS unit entry, a DBMM element), so a resolution can be built from the roster.
    #[ts(type = "unknown")]
    pub stats: serde_json::Value,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum LeaderFate {
    Captured,
    Killed,
    /// GTS Table 1.10, 2: P −1 until the turn ends.
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

/// One change the umpire makes on a unit by hand, with the words on its button.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct QuickEdit {
    pub label: String,
    pub change: Change,
    /// The test that decides the change, opened on the unit instead of making it (the action's
    /// id, marked `for_a_unit`): a GTS rally is a response test (3.33).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub opens: Option<String>,
}

/// One unit now.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct UnitState {
    pub id: UnitId,
    pub label: String,
    pub side: String,
    #[ts(optional)]
    pub command: Option<String>,
    pub role: Role,
    /// Units in the stack (ITACS), SPs (Medieval), stands (GTS) or 1 (a DBMM element) now, and
    /// at the start.
    pub strength: u32,
    pub starting: u32,
    pub lost: bool,
    /// What befell the leader of this row, or the leader riding with the unit.
    #[ts(optional)]
    pub leader: Option<LeaderFate>,
    /// GTS Table 1.10, 3: the leader's wounds, each one grade less effective and PV +1.
    #[serde(skip_serializing_if = "is_zero")]
    #[ts(optional, as = "Option<u32>")]
    pub leader_wounds: u32,
    /// A captured leader's captors: the units that attacked the stack whose elimination captured
    /// him (ITACS 6.1.4); their own elimination frees him.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(optional, as = "Option<Vec<UnitId>>")]
    pub held_by: Vec<UnitId>,
    /// Moves the results called for (retreats, recoils, rampages): the map is the players'.
    pub moves: Vec<String>,
    /// The unit in its system's own terms: `entry`, the unit as the umpire would enter it again
    /// (the unit editor and a copy start from it), and `state`, what the system keeps of it.
    #[ts(type = "{ entry: unknown, state: unknown }")]
    pub detail: Detail,
    /// The unit in the rules' words, from its system: its type by name, its state and the
    /// changes the umpire may make by hand. Written when the state is shown
    /// (`Ruleset::worded`), empty in a fold.
    #[serde(flatten)]
    #[ts(flatten)]
    pub words: UnitWords,
}

/// What the roster shows of a unit, written by its system when the unit is shown.
#[derive(Clone, Debug, Default, PartialEq, Serialize, TS)]
pub struct UnitWords {
    /// "Swordsmen (SD)", "Infantry, Spear, Heavy", "Irr Bd, Superior".
    pub type_name: String,
    /// "2/4, 1 D, Break"; "destroyed"; "in the line".
    pub summary: String,
    pub quick_edits: Vec<QuickEdit>,
    /// Where the unit stands, in words ("Hex 17.03"), for systems played on a map of numbered
    /// hexes: the roster groups the units of one place of a side, and a fight takes them
    /// together (an ITACS stack, 2.4).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub place: Option<String>,
    /// The move its markers call for, in the rules' words ("Rout move"): its row opens its
    /// system's move (`moves`) on it, along the places the umpire names. None where none is due.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub opens_move: Option<String>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl UnitState {
    /// A unit's state as a system first makes it: everything at its start.
    pub fn new(id: UnitId, spec: &UnitSpec, strength: u32, detail: Detail) -> UnitState {
        UnitState {
            id,
            label: spec.label.clone(),
            side: spec.side.clone(),
            command: spec.command.clone(),
            role: spec.role,
            strength,
            starting: strength,
            lost: false,
            leader: None,
            leader_wounds: 0,
            held_by: Vec::new(),
            moves: Vec::new(),
            detail,
            words: UnitWords::default(),
        }
    }

    /// The unit's own state in its system's type, if it is of that type.
    pub fn detail<T: 'static>(&self) -> Option<&T> {
        self.detail.get::<T>()
    }

    pub fn detail_mut<T: 'static>(&mut self) -> Option<&mut T> {
        self.detail.get_mut::<T>()
    }

    /// The unit in a sentence: its label and roster id.
    pub fn named(&self) -> String {
        format!("{} (#{})", self.label, self.id)
    }
}

/// A system's typed unit state behind a type the battle can clone, compare and show without
/// knowing the system. Only the unit's own system reads inside it (`UnitState::detail`).
pub struct Detail(Box<dyn UnitDetail>);

/// A system's typed unit state.
pub trait SystemUnit: Any + Clone + fmt::Debug + PartialEq + Serialize + Send + Sync {
    /// The unit as the umpire would enter it again, in the roster's format: what the unit is
    /// now (an ITACS unit converted is of its new type, a Medieval counter's charge factor is its
    /// charge factor now), with the strength it began with; what befell it (losses, markers,
    /// hits, Disorder, scatter) is its state, which an edit keeps. A copy starts from it too.
    fn entry(&self) -> serde_json::Result<serde_json::Value>;
}

/// What travels in a `Detail`: any system's unit state, behind an object-safe face.
pub trait UnitDetail: Any + fmt::Debug + Send + Sync {
    fn clone_box(&self) -> Box<dyn UnitDetail>;
    fn same_as(&self, other: &dyn UnitDetail) -> bool;
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
    fn shown(&self) -> serde_json::Result<serde_json::Value>;
}

impl<T: SystemUnit> UnitDetail for T {
    fn clone_box(&self) -> Box<dyn UnitDetail> {
        Box::new(self.clone())
    }
    fn same_as(&self, other: &dyn UnitDetail) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
    fn shown(&self) -> serde_json::Result<serde_json::Value> {
        Ok(serde_json::json!({ "entry": self.entry()?, "state": self }))
    }
}

impl Detail {
    pub fn new<T: SystemUnit>(detail: T) -> Detail {
        Detail(Box::new(detail))
    }

    pub fn get<T: 'static>(&self) -> Option<&T> {
        self.0.as_any().downcast_ref::<T>()
    }

    pub fn get_mut<T: 'static>(&mut self) -> Option<&mut T> {
        self.0.as_any_mut().downcast_mut::<T>()
    }

    /// The unit's entry as entered (what the editor shows).
    pub fn entry(&self) -> Option<serde_json::Value> {
        self.0
            .shown()
            .ok()?
            .get_mut("entry")
            .map(serde_json::Value::take)
    }
}

impl Clone for Detail {
    fn clone(&self) -> Detail {
        Detail(self.0.clone_box())
    }
}

impl PartialEq for Detail {
    fn eq(&self, other: &Detail) -> bool {
        self.0.same_as(other.0.as_ref())
    }
}

impl fmt::Debug for Detail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl Serialize for Detail {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0
            .shown()
            .map_err(serde::ser::Error::custom)?
            .serialize(s)
    }
}

/// A leader's row: not a unit of any table, its entry is the umpire's notes (range, rating),
/// kept as the JSON text entered.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LeaderNotes {
    pub notes: String,
}

impl LeaderNotes {
    /// A leader's notes as entered: an object of notes, or nothing.
    pub fn of(spec: &UnitSpec) -> Result<LeaderNotes, crate::error::RefereeError> {
        if !spec.stats.is_object() && !spec.stats.is_null() {
            return Err(crate::error::RefereeError::new(
                ErrorCode::BattleInvalidUnit,
                "a leader's stats are an object of notes, e.g. {\"range\": 3}",
            ));
        }
        Ok(LeaderNotes {
            notes: if spec.stats.is_null() {
                String::new()
            } else {
                spec.stats.to_string()
            },
        })
    }
}

impl SystemUnit for LeaderNotes {
    fn entry(&self) -> serde_json::Result<serde_json::Value> {
        if self.notes.is_empty() {
            return Ok(serde_json::Value::Object(Default::default()));
        }
        serde_json::from_str(&self.notes)
    }
}
