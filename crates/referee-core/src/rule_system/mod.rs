//! The contract every rule system implements, once, in its own folder: its actions as one
//! table, its roster units (form, check at entry, typed state, how a change lands, their words),
//! the combats it opens from roster picks, its once-per-turn limits, and its standing. The battle
//! (`battle/`) speaks to a system only through this contract, and a system knows nothing of the
//! battle: the types both need (`state/`, `contract`) sit below both.

pub mod action;
pub mod fight;
pub mod form;
pub mod resolve;
pub mod shared;
pub mod standing;
pub mod throws;

use std::any::Any;
use std::fmt;

use serde::de::DeserializeOwned;

pub use action::{
    check_side_fields, dice_of, ActionGroup, ActionInfo, Choice, ChoiceList, CommonSituation,
    ContactInfo, ContactKind, Die, FightPart, Phase, PhaseStep, SideField, SystemInfo, Thrower,
};
pub use fight::{Fighter, Labels, Opening, Place, PlaceList, Sides};
pub use form::{UnitField, UnitForm, UnitPreview};
pub use standing::{Gauge, SideVerdict, Standing, Verdict};

use crate::contract::{Change, Resolution};
use crate::error::RefereeError;
use crate::ruleset::SystemData;
use crate::state::{
    BattleSetup, BattleState, Detail, LeaderFate, LeaderNotes, Role, SystemUnit, UnitId, UnitSpec,
    UnitState, UnitWords,
};
use crate::ErrorCode;
use shared::SystemHeader;

type Resolve<D> =
    Box<dyn Fn(&D, &serde_json::Value, Option<&[u32]>) -> ResolveResult + Send + Sync>;
type ResolveResult = Result<Resolution, RefereeError>;

/// One action of a system: what the app lists, the schema of its situation, and how it resolves.
/// A system's `actions()` is the one place an action is named.
pub struct Action<D> {
    pub info: ActionInfo,
    pub schema: fn() -> schemars::Schema,
    resolve: Resolve<D>,
}

impl<D: 'static> Action<D> {
    /// An action that throws dice: its situation of type S, read from the umpire's JSON.
    pub fn rolled<S: DeserializeOwned + schemars::JsonSchema + 'static>(
        id: &str,
        name: &str,
        rule: &str,
        group: ActionGroup,
        resolve: fn(&D, &S, Option<&[u32]>) -> ResolveResult,
    ) -> Action<D> {
        Action {
            info: info(id, name, rule, group, true),
            schema: || schemars::schema_for!(S),
            resolve: Box::new(move |data, json, dice| {
                resolve(data, &resolve::parse_situation(json)?, dice)
            }),
        }
    }

    /// An action that throws no dice: it answers one certain result, and refuses dice.
    pub fn certain<S: DeserializeOwned + schemars::JsonSchema + 'static>(
        id: &str,
        name: &str,
        rule: &str,
        group: ActionGroup,
        resolve: fn(&D, &S) -> ResolveResult,
    ) -> Action<D> {
        let action = id.to_string();
        Action {
            info: info(id, name, rule, group, false),
            schema: || schemars::schema_for!(S),
            resolve: Box::new(move |data, json, dice| {
                resolve::without_dice(&action, dice, || {
                    resolve(data, &resolve::parse_situation(json)?)
                })
            }),
        }
    }

    /// A combat that opens from the units the umpire picked on the roster.
    pub fn fights(mut self) -> Action<D> {
        self.info.fights = true;
        self
    }

    /// A step filled in from the whole battle, without picks (its system's `open_battle`).
    pub fn from_roster(mut self) -> Action<D> {
        self.info.from_roster = true;
        self
    }

    /// A move of the picked entries (one, or a stack's as one where the system allows it) along
    /// places the umpire names (its system's `open`, with the path in `Sides::path`).
    pub fn moves(mut self) -> Action<D> {
        self.info.moves = true;
        self
    }

    /// A test of one unit opened from its roster row (its system's `open_unit`).
    pub fn for_a_unit(mut self) -> Action<D> {
        self.info.for_a_unit = true;
        self
    }

    /// A combat fought in one side's bound, with these contacts picked besides its units (its
    /// system takes them: `takes_contacts`).
    pub fn in_a_bound(mut self, contacts: Vec<ContactInfo>) -> Action<D> {
        self.info.asks_bound = true;
        self.info.contacts = contacts;
        self
    }
}

fn info(id: &str, name: &str, rule: &str, group: ActionGroup, rolls: bool) -> ActionInfo {
    ActionInfo {
        id: id.into(),
        name: name.into(),
        rule: rule.into(),
        group,
        fights: false,
        from_roster: false,
        for_a_unit: false,
        rolls,
        contacts: Vec::new(),
        asks_bound: false,
        moves: false,
    }
}

/// A rule system. Everything the battle, the API and the app need of a system is here; each
/// system implements it once, in its folder, with its own data and unit types.
pub trait RuleSystem: Sized + Send + Sync + 'static {
    /// The ruleset file, typed and checked.
    type Data: SystemData + schemars::JsonSchema + Clone + fmt::Debug + Send + Sync;
    /// A roster unit's state in this system's terms.
    type Unit: SystemUnit;
    /// A leader's row in this system's terms (his printed values), or `LeaderNotes` where the
    /// system types no leader.
    type Leader: SystemUnit;

    /// The id a ruleset file declares under `[system] id`.
    const ID: &'static str;
    /// The action "Resolve" on the roster opens.
    const MAIN_ACTION: &'static str;

    fn header(data: &Self::Data) -> &SystemHeader;
    fn sequence(data: &Self::Data) -> &[Phase];
    /// Every action, once.
    fn actions() -> Vec<Action<Self::Data>>;
    /// The values a situation field can take, from the ruleset data.
    fn choices(data: &Self::Data) -> Vec<ChoiceList>;
    /// The boxes of its situations an umpire ticks most.
    fn common_situations() -> Vec<CommonSituation>;
    /// The numbers a side is set up with, besides its name and commands.
    fn side_fields() -> Vec<SideField> {
        Vec::new()
    }
    /// The system's own checks of how a battle begins (its sides' numbers).
    fn check_setup(setup: &BattleSetup) -> Result<(), RefereeError> {
        let _ = setup;
        Ok(())
    }
    /// What the umpire should know when filling the roster.
    fn roster_advice() -> Option<&'static str> {
        None
    }
    /// A unit's values are worked out from the tables, so the roster offers to show them.
    const DERIVED_VALUES: bool = false;
    /// What the rules call a turn of the battle ("bound" in DBMM), for the screen's words.
    const TURN_WORD: &'static str = "turn";

    /// The roster unit form's fields.
    fn unit_form(data: &Self::Data) -> Vec<UnitField>;
    /// The fields a leader's row takes (none where the system types no leader).
    fn leader_form(data: &Self::Data) -> Vec<UnitField> {
        let _ = data;
        Vec::new()
    }
    /// The unit form's field that places a unit (a hex), where the system places units.
    fn place_field() -> Option<&'static str> {
        None
    }
    /// A leader entering the battle, checked by the system. Error fields are relative to the
    /// stats.
    fn enter_leader(data: &Self::Data, spec: &UnitSpec) -> Result<Self::Leader, RefereeError>;
    /// A leader's row in the rules' words.
    fn leader_words(data: &Self::Data, unit: &UnitState, leader: &Self::Leader) -> UnitWords {
        let _ = (data, leader);
        leader_words(unit)
    }
    /// Stats keys a roster unit may carry besides the form's own (kept, not asked).
    fn other_keys() -> &'static [&'static str];
    /// A unit's preview: a summary line and the values it brings.
    fn unit_preview(
        data: &Self::Data,
        stats: &serde_json::Value,
    ) -> Result<UnitPreview, RefereeError>;
    /// What the umpire must enter for a new or corrected unit beyond the form's required fields
    /// (an ITACS missile unit's fire strength). Checked where a unit is entered, never as a battle
    /// folds: units entered before a value was asked still load. Error fields are the stats keys.
    fn check_entry(data: &Self::Data, stats: &serde_json::Value) -> Result<(), RefereeError> {
        let _ = (data, stats);
        Ok(())
    }
    /// A unit the umpire adds or corrects, against the battle's other units (a DBMM command's one
    /// general); `editing` is the unit corrected. Like `check_entry`, never as a battle folds.
    fn check_among(
        data: &Self::Data,
        state: &BattleState,
        spec: &UnitSpec,
        editing: Option<UnitId>,
    ) -> Result<(), RefereeError> {
        let _ = (data, state, spec, editing);
        Ok(())
    }
    /// A unit entering the battle, checked by the system's own rules: its strength and its state.
    /// Error fields are relative to the stats.
    fn enter(data: &Self::Data, spec: &UnitSpec) -> Result<(u32, Self::Unit), RefereeError>;
    /// What an edited unit keeps of its state before the edit (markers, hits, scatter).
    fn keep(old: &Self::Unit, new: &mut Self::Unit);
    /// What an edited leader's row keeps of his state before the edit (a Medieval leader's
    /// fatigue already set this turn): a correction is not a new turn.
    fn keep_leader(old: &Self::Leader, new: &mut Self::Leader) {
        let _ = (old, new);
    }
    /// An edit's stats as the system reads them: battles recorded before units were typed may
    /// carry in an edit what the battle, not the umpire, had written into the stats.
    fn edited_stats(stats: &serde_json::Value) -> serde_json::Value {
        stats.clone()
    }
    /// Some of an entry's units leave it as a new entry (a stack restacking, ITACS 4.3.3): the
    /// entry that remains and the one that leaves, in this system's terms; None where its
    /// entries are not split (one unit a row).
    fn split(
        _data: &Self::Data,
        _own: &Self::Unit,
        _units: u32,
    ) -> Option<(Self::Unit, Self::Unit)> {
        None
    }
    /// The rule and ruling a split of an entry cites; None where entries are not split.
    fn split_rule() -> Option<(&'static str, &'static str)> {
        None
    }
    /// Lands one change on a unit; false when the change is not one of this system's. Total: a
    /// replay always completes.
    fn land(data: &Self::Data, unit: &mut UnitState, own: &mut Self::Unit, change: &Change)
        -> bool;
    /// Lands one change on a leader's row in the system's own terms (a Medieval leader's
    /// fatigue); false when it is not one of his. Total, as `land`.
    fn land_leader(
        data: &Self::Data,
        unit: &mut UnitState,
        own: &mut Self::Leader,
        change: &Change,
    ) -> bool {
        let _ = (data, unit, own, change);
        false
    }
    /// A new turn ends what lasted until the turn ends.
    fn end_of_turn(unit: &mut UnitState, own: &mut Self::Unit) {
        let _ = (unit, own);
    }
    /// What befalls the leader of a row, his own or the unit he rides with: captured, freed,
    /// killed (`land_leader_fate`); a system with more fates adds its own. False when the change
    /// is not a leader's.
    fn land_on_leader(unit: &mut UnitState, change: &Change) -> bool {
        land_leader_fate(unit, change)
    }
    /// A new turn ends what lasted until the turn ends for a row's leader.
    fn leader_at_turn_end(unit: &mut UnitState) {
        let _ = unit;
    }
    /// A change the battle refuses before it is written, against the battle as it stands
    /// (ITACS 6.6: throwing weapons once; 4.3.3: never into a hex of enemy units).
    fn refuse(
        state: &BattleState,
        unit: &UnitState,
        own: &Self::Unit,
        change: &Change,
        rule: &str,
    ) -> Option<RefereeError> {
        let _ = (state, unit, own, change, rule);
        None
    }
    /// A change the battle refuses on a leader's row before it is written (Medieval 13.1.6: his
    /// fatigue set once a turn; GTS 1.7: more command points than he has left).
    fn refuse_leader(
        state: &BattleState,
        unit: &UnitState,
        own: &Self::Leader,
        change: &Change,
    ) -> Option<RefereeError> {
        let _ = (state, unit, own, change);
        None
    }
    /// The unit in the rules' words.
    fn words(data: &Self::Data, unit: &UnitState, own: &Self::Unit) -> UnitWords;

    /// Opens a fighting action's situation from the picked units in their state now.
    fn open(
        data: &Self::Data,
        action: &str,
        sides: &Sides<Self::Unit>,
    ) -> Result<Opening, RefereeError>;
    /// Whether its fights take contacts besides the picks and a bound's side (`Contacts`).
    fn takes_contacts() -> bool {
        false
    }
    /// A step of the whole battle (an action marked `from_roster`) opened from its roster.
    fn open_battle(
        data: &Self::Data,
        action: &str,
        state: &BattleState,
    ) -> Result<Opening, RefereeError> {
        let _ = (data, state);
        Err(fight::not_a_combat(action))
    }
    /// A test of one unit (an action marked `for_a_unit`) opened from its roster row, with the
    /// unit in its state now.
    fn open_unit(
        data: &Self::Data,
        action: &str,
        state: &BattleState,
        unit: &UnitState,
    ) -> Result<Opening, RefereeError> {
        let _ = (data, state, unit);
        Err(fight::not_a_combat(action))
    }
    /// A battle's check of an action against the results applied this turn: a refusal, or
    /// warnings to show with the fight. Systems without such limits accept all.
    fn turn_limits(
        state: &BattleState,
        action: &str,
        attackers: &[UnitId],
        defenders: &[UnitId],
    ) -> Result<Vec<String>, RefereeError> {
        let _ = (state, action, attackers, defenders);
        Ok(Vec::new())
    }
    /// Lands a change on a whole side (victory points, the MORALE track, an army's panic), cited
    /// by `rule` (a battle recorded before a change had its own kind may say by its rule what it
    /// was): the changes that then land on each of its units still on the table, or None when
    /// the system makes no such change on a side.
    fn land_on_side(
        data: &Self::Data,
        state: &mut BattleState,
        side: usize,
        change: &Change,
        rule: &str,
    ) -> Option<Vec<Change>> {
        let _ = (data, state, side, change, rule);
        None
    }
    /// A change the battle refuses on a whole side before it is written, against the battle as
    /// it stands (DBMM p. 23: a side records its retreat at dusk once).
    fn refuse_on_side(
        data: &Self::Data,
        state: &BattleState,
        side: usize,
        change: &Change,
    ) -> Option<RefereeError> {
        let _ = (data, state, side, change);
        None
    }
    /// What a result brings about beyond its own effects once it has landed: `before` is the
    /// battle before the result, `after` with it (a DBMM command disheartened removes its 0 ME
    /// elements; one broken routs). Written into the same event, so undo takes them back with it.
    fn follow_on(data: &Self::Data, before: &BattleState, after: &BattleState) -> Vec<FollowOn> {
        let _ = (data, before, after);
        Vec::new()
    }
    /// Each army's break points, and the system's own cited resolution of the standing.
    fn standing(data: &Self::Data, state: &BattleState) -> Standing;
    /// How the battle ends as it stands, for an event's standings; none where the system cannot
    /// yet judge (an army without units).
    fn verdict(data: &Self::Data, state: &BattleState) -> Option<Verdict> {
        let _ = (data, state);
        None
    }
}

/// A change a result brings about on a unit or a side it does not name, with the rule behind it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FollowOn {
    pub onto: Onto,
    pub change: Change,
    /// In the rules' words, naming the unit or side.
    pub text: String,
    pub rule: String,
    pub ruling: Option<String>,
}

/// Who a follow-on lands on: a roster unit, or a side by its index in the battle (the MORALE
/// track a fallen banner moves).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Onto {
    Unit(UnitId),
    Side(usize),
}

/// A system, whatever it is: what the battle and the API call. `Loaded<S>` implements it for
/// every `RuleSystem`.
pub trait System: Send + Sync + fmt::Debug {
    fn id(&self) -> &'static str;
    fn header(&self) -> &SystemHeader;
    fn main_action(&self) -> &'static str;
    fn sequence(&self) -> &[Phase];
    fn actions(&self) -> Vec<ActionInfo>;
    fn choices(&self) -> Vec<ChoiceList>;
    fn common_situations(&self) -> Vec<CommonSituation>;
    fn side_fields(&self) -> Vec<SideField>;
    fn check_setup(&self, setup: &BattleSetup) -> Result<(), RefereeError>;
    fn roster_advice(&self) -> Option<&'static str>;
    fn derived_values(&self) -> bool;
    fn turn_word(&self) -> &'static str;
    fn resolve(
        &self,
        action: &str,
        situation: &serde_json::Value,
        dice: Option<&[u32]>,
    ) -> ResolveResult;
    fn situation_schema(&self, action: &str) -> Option<schemars::Schema>;

    fn unit_form(&self) -> Vec<UnitField>;
    fn leader_form(&self) -> Vec<UnitField>;
    fn place_field(&self) -> Option<&'static str>;
    fn other_keys(&self) -> &'static [&'static str];
    fn unit_preview(&self, stats: &serde_json::Value) -> Result<UnitPreview, RefereeError>;
    fn check_entry(&self, stats: &serde_json::Value) -> Result<(), RefereeError>;
    fn check_among(
        &self,
        state: &BattleState,
        spec: &UnitSpec,
        editing: Option<UnitId>,
    ) -> Result<(), RefereeError>;
    /// A unit as the battle keeps it, its stats checked by the system (field: where it was
    /// entered, e.g. `unit` or `events[3].unit`).
    fn enter(&self, id: UnitId, spec: &UnitSpec, field: &str) -> Result<UnitState, RefereeError>;
    /// A unit's entry corrected by the umpire: checked like a new one; it keeps the losses and
    /// markers it has.
    fn edit(
        &self,
        old: &UnitState,
        spec: &UnitSpec,
        field: &str,
    ) -> Result<UnitState, RefereeError>;
    fn land(&self, unit: &mut UnitState, change: &Change) -> bool;
    /// The entry that remains and the new one, `units` of its units numbered `into` and
    /// labelled `label`: its losses stay with the entry that remains. None where the system
    /// splits no entry, or the entry has no more than `units`.
    fn split(
        &self,
        unit: &UnitState,
        units: u32,
        into: UnitId,
        label: &str,
    ) -> Option<(UnitState, UnitState)>;
    /// The rule and ruling a split of an entry cites; None where the system splits none.
    fn split_rule(&self) -> Option<(&'static str, &'static str)>;
    fn end_of_turn(&self, unit: &mut UnitState);
    /// The unit in the rules' words. Written when the unit is shown, not as the battle folds:
    /// a fold of thousands of events writes no sentence.
    fn words(&self, unit: &UnitState) -> UnitWords;
    fn refuse(
        &self,
        state: &BattleState,
        unit: &UnitState,
        change: &Change,
        rule: &str,
    ) -> Option<RefereeError>;
    fn open(&self, action: &str, sides: &Sides<Detail>) -> Result<Opening, RefereeError>;
    fn takes_contacts(&self) -> bool;
    fn open_battle(&self, action: &str, state: &BattleState) -> Result<Opening, RefereeError>;
    fn open_unit(
        &self,
        action: &str,
        state: &BattleState,
        unit: &UnitState,
    ) -> Result<Opening, RefereeError>;
    fn turn_limits(
        &self,
        state: &BattleState,
        action: &str,
        attackers: &[UnitId],
        defenders: &[UnitId],
    ) -> Result<Vec<String>, RefereeError>;
    fn land_on_side(
        &self,
        state: &mut BattleState,
        side: usize,
        change: &Change,
        rule: &str,
    ) -> Option<Vec<Change>>;
    fn refuse_on_side(
        &self,
        state: &BattleState,
        side: usize,
        change: &Change,
    ) -> Option<RefereeError>;
    fn follow_on(&self, before: &BattleState, after: &BattleState) -> Vec<FollowOn>;
    fn standing(&self, state: &BattleState) -> Standing;
    fn verdict(&self, state: &BattleState) -> Option<Verdict>;
    /// The loaded system itself, for callers that know which it is (tests, benchmarks).
    fn as_any(&self) -> &dyn Any;
}

/// A system with its ruleset data loaded.
pub struct Loaded<S: RuleSystem> {
    pub data: S::Data,
    actions: Vec<Action<S::Data>>,
}

impl<S: RuleSystem> Loaded<S> {
    pub fn new(data: S::Data) -> Loaded<S> {
        Loaded {
            data,
            actions: S::actions(),
        }
    }

    fn action(&self, id: &str) -> Option<&Action<S::Data>> {
        self.actions.iter().find(|a| a.info.id == id)
    }
}

impl<S: RuleSystem> fmt::Debug for Loaded<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Loaded").field("system", &S::ID).finish()
    }
}

/// The actions of a system as the app lists them.
pub fn action_infos<S: RuleSystem>() -> Vec<ActionInfo> {
    S::actions().into_iter().map(|a| a.info).collect()
}

impl<S: RuleSystem> System for Loaded<S> {
    fn id(&self) -> &'static str {
        S::ID
    }
    fn header(&self) -> &SystemHeader {
        S::header(&self.data)
    }
    fn main_action(&self) -> &'static str {
        S::MAIN_ACTION
    }
    fn sequence(&self) -> &[Phase] {
        S::sequence(&self.data)
    }
    fn actions(&self) -> Vec<ActionInfo> {
        self.actions.iter().map(|a| a.info.clone()).collect()
    }
    fn choices(&self) -> Vec<ChoiceList> {
        S::choices(&self.data)
    }
    fn common_situations(&self) -> Vec<CommonSituation> {
        S::common_situations()
    }
    fn side_fields(&self) -> Vec<SideField> {
        S::side_fields()
    }
    fn check_setup(&self, setup: &BattleSetup) -> Result<(), RefereeError> {
        S::check_setup(setup)
    }
    fn roster_advice(&self) -> Option<&'static str> {
        S::roster_advice()
    }
    fn derived_values(&self) -> bool {
        S::DERIVED_VALUES
    }
    fn turn_word(&self) -> &'static str {
        S::TURN_WORD
    }
    fn resolve(
        &self,
        action: &str,
        situation: &serde_json::Value,
        dice: Option<&[u32]>,
    ) -> ResolveResult {
        match self.action(action) {
            Some(a) => (a.resolve)(&self.data, situation, dice),
            None => Err(resolve::unknown_action(S::ID, action, &self.actions())),
        }
    }
    fn situation_schema(&self, action: &str) -> Option<schemars::Schema> {
        self.action(action).map(|a| (a.schema)())
    }

    fn unit_form(&self) -> Vec<UnitField> {
        S::unit_form(&self.data)
    }
    fn leader_form(&self) -> Vec<UnitField> {
        S::leader_form(&self.data)
    }
    fn place_field(&self) -> Option<&'static str> {
        S::place_field()
    }
    fn other_keys(&self) -> &'static [&'static str] {
        S::other_keys()
    }
    fn unit_preview(&self, stats: &serde_json::Value) -> Result<UnitPreview, RefereeError> {
        S::unit_preview(&self.data, stats)
    }
    fn check_entry(&self, stats: &serde_json::Value) -> Result<(), RefereeError> {
        S::check_entry(&self.data, stats)
    }
    fn check_among(
        &self,
        state: &BattleState,
        spec: &UnitSpec,
        editing: Option<UnitId>,
    ) -> Result<(), RefereeError> {
        S::check_among(&self.data, state, spec, editing)
    }

    fn enter(&self, id: UnitId, spec: &UnitSpec, field: &str) -> Result<UnitState, RefereeError> {
        let stats_field = format!("{field}.stats");
        let unit = if spec.role == Role::Leader {
            let leader = S::enter_leader(&self.data, spec).map_err(|e| at(e, &stats_field))?;
            UnitState::new(id, spec, 1, Detail::new(leader))
        } else {
            let (strength, own) = S::enter(&self.data, spec).map_err(|e| at(e, &stats_field))?;
            if strength == 0 && spec.role == Role::Unit {
                return Err(RefereeError::new(
                    ErrorCode::BattleInvalidUnit,
                    "a unit enters the battle with a strength of 1 or more",
                )
                .field(stats_field));
            }
            UnitState::new(id, spec, strength, Detail::new(own))
        };
        if spec.label.trim().is_empty() {
            return Err(RefereeError::new(
                ErrorCode::BattleInvalidUnit,
                "a unit needs a label the umpire knows it by",
            )
            .field(format!("{field}.label")));
        }
        Ok(unit)
    }

    fn edit(
        &self,
        old: &UnitState,
        spec: &UnitSpec,
        field: &str,
    ) -> Result<UnitState, RefereeError> {
        let spec = UnitSpec {
            stats: S::edited_stats(&spec.stats),
            ..spec.clone()
        };
        let mut unit = self.enter(old.id, &spec, field)?;
        let losses = old.starting.saturating_sub(old.strength);
        unit.strength = unit.starting.saturating_sub(losses);
        unit.leader = old.leader;
        unit.leader_wounds = old.leader_wounds;
        unit.moves.clone_from(&old.moves);
        if let (Some(was), Some(now)) = (old.detail::<S::Unit>(), unit.detail_mut::<S::Unit>()) {
            S::keep(was, now);
        }
        if let (Some(was), Some(now)) = (old.detail::<S::Leader>(), unit.detail_mut::<S::Leader>())
        {
            S::keep_leader(was, now);
        }
        // A leader's own row is lost with him; a unit whose riding leader fell is not.
        unit.lost = (unit.role != Role::Unit && old.leader == Some(LeaderFate::Killed))
            || (unit.starting > 0 && unit.strength == 0);
        Ok(unit)
    }

    fn land(&self, unit: &mut UnitState, change: &Change) -> bool {
        let landed = S::land_on_leader(unit, change)
            || land_move(unit, change)
            || with_own::<S::Unit, _>(unit, |unit, own| S::land(&self.data, unit, own, change))
                .or_else(|| {
                    with_own::<S::Leader, _>(unit, |unit, own| {
                        S::land_leader(&self.data, unit, own, change)
                    })
                    .filter(|landed| *landed)
                })
                .unwrap_or_else(|| land_on_leader_row(unit, change));
        if unit.strength == 0 && unit.starting > 0 {
            unit.lost = true;
        }
        landed
    }

    fn split(
        &self,
        unit: &UnitState,
        units: u32,
        into: UnitId,
        label: &str,
    ) -> Option<(UnitState, UnitState)> {
        if unit.role != Role::Unit || units == 0 || units >= unit.strength {
            return None;
        }
        let (stays, leaves) = S::split(&self.data, unit.detail::<S::Unit>()?, units)?;
        let mut remaining = unit.clone();
        remaining.strength -= units;
        remaining.starting = remaining.starting.saturating_sub(units);
        remaining.detail = Detail::new(stays);
        // The new entry: what the units are and carry, none of the row's own history (its
        // leader, his captors, the moves its results called for).
        let mut part = unit.clone();
        part.id = into;
        part.label = label.to_string();
        part.strength = units;
        part.starting = units;
        part.leader = None;
        part.leader_wounds = 0;
        part.held_by.clear();
        part.moves.clear();
        part.detail = Detail::new(leaves);
        Some((remaining, part))
    }

    fn split_rule(&self) -> Option<(&'static str, &'static str)> {
        S::split_rule()
    }

    fn end_of_turn(&self, unit: &mut UnitState) {
        S::leader_at_turn_end(unit);
        with_own::<S::Unit, _>(unit, S::end_of_turn);
    }

    fn words(&self, unit: &UnitState) -> UnitWords {
        if let Some(own) = unit.detail::<S::Unit>() {
            return S::words(&self.data, unit, own);
        }
        match unit.detail::<S::Leader>() {
            Some(leader) => S::leader_words(&self.data, unit, leader),
            None => leader_words(unit),
        }
    }

    fn refuse(
        &self,
        state: &BattleState,
        unit: &UnitState,
        change: &Change,
        rule: &str,
    ) -> Option<RefereeError> {
        match unit.detail::<S::Unit>() {
            Some(own) => S::refuse(state, unit, own, change, rule),
            None => S::refuse_leader(state, unit, unit.detail::<S::Leader>()?, change),
        }
    }

    fn open(&self, action: &str, sides: &Sides<Detail>) -> Result<Opening, RefereeError> {
        S::open(&self.data, action, &sides.typed::<S::Unit>()?)
    }

    fn takes_contacts(&self) -> bool {
        S::takes_contacts()
    }

    fn open_battle(&self, action: &str, state: &BattleState) -> Result<Opening, RefereeError> {
        S::open_battle(&self.data, action, state)
    }

    fn open_unit(
        &self,
        action: &str,
        state: &BattleState,
        unit: &UnitState,
    ) -> Result<Opening, RefereeError> {
        S::open_unit(&self.data, action, state, unit)
    }

    fn turn_limits(
        &self,
        state: &BattleState,
        action: &str,
        attackers: &[UnitId],
        defenders: &[UnitId],
    ) -> Result<Vec<String>, RefereeError> {
        S::turn_limits(state, action, attackers, defenders)
    }

    fn land_on_side(
        &self,
        state: &mut BattleState,
        side: usize,
        change: &Change,
        rule: &str,
    ) -> Option<Vec<Change>> {
        S::land_on_side(&self.data, state, side, change, rule)
    }

    fn refuse_on_side(
        &self,
        state: &BattleState,
        side: usize,
        change: &Change,
    ) -> Option<RefereeError> {
        S::refuse_on_side(&self.data, state, side, change)
    }

    fn follow_on(&self, before: &BattleState, after: &BattleState) -> Vec<FollowOn> {
        S::follow_on(&self.data, before, after)
    }

    fn standing(&self, state: &BattleState) -> Standing {
        S::standing(&self.data, state)
    }

    fn verdict(&self, state: &BattleState) -> Option<Verdict> {
        S::verdict(&self.data, state)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Runs `f` on the unit and, apart from it, its own state of type `T` (a system's unit or
/// leader); None when the row's state is of another type. The state is lifted out so both can be
/// changed at once.
fn with_own<T: 'static, R>(
    unit: &mut UnitState,
    f: impl FnOnce(&mut UnitState, &mut T) -> R,
) -> Option<R> {
    let mut detail = std::mem::replace(&mut unit.detail, Detail::new(LeaderNotes::default()));
    let answer = detail.get_mut::<T>().map(|own| f(unit, own));
    unit.detail = detail;
    answer
}

/// A leader captured, freed or killed, as every system's leaders may be. A leader's own row is
/// lost with him; a unit whose leader rode with it loses its leader, not itself.
pub fn land_leader_fate(unit: &mut UnitState, change: &Change) -> bool {
    match change {
        Change::LeaderCaptured => unit.leader = Some(LeaderFate::Captured),
        Change::LeaderFreed => {
            unit.leader = None;
            unit.held_by.clear();
        }
        Change::LeaderKilled => {
            unit.leader = Some(LeaderFate::Killed);
            unit.held_by.clear();
            if unit.role != Role::Unit {
                unit.lost = true;
            }
        }
        _ => return false,
    }
    true
}

/// The moves results call for, which the players make on the map: noted on the unit.
fn land_move(unit: &mut UnitState, change: &Change) -> bool {
    match change {
        Change::Retreat { .. }
        | Change::RecoilMove { .. }
        | Change::Rampage { .. }
        | Change::FollowUp => {
            moved(unit, change);
            true
        }
        _ => false,
    }
}

/// A change on a leader's row, which no table types: a loss takes the row off the table (battles
/// recorded before units were typed offered every system's quick edits on leaders too); a marker
/// has nothing to land on and is let go, not refused, so those battles fold as they did.
fn land_on_leader_row(unit: &mut UnitState, change: &Change) -> bool {
    match change {
        Change::LoseUnits { count, .. } | Change::LoseSp { count, .. } => {
            unit.strength = unit.strength.saturating_sub(*count)
        }
        Change::DestroyAll => unit.strength = 0,
        Change::ElementFate { fate }
            if fate.or.is_none()
                && matches!(
                    fate.fate,
                    crate::fate::Fate::Destroyed
                        | crate::fate::Fate::Spent
                        | crate::fate::Fate::OffTable
                ) =>
        {
            unit.strength = 0
        }
        _ => {}
    }
    true
}

/// Notes a move a result called for, in words.
pub fn moved(unit: &mut UnitState, change: &Change) {
    unit.moves.push(
        crate::contract::effect(
            crate::contract::Target::Unit(unit.label.clone()),
            change.clone(),
            "",
            None,
        )
        .text,
    );
}

/// A leader's row in words, where no table gives it a type.
pub fn leader_words(unit: &UnitState) -> UnitWords {
    let mut parts = Vec::new();
    if unit.lost {
        parts.push("lost".to_string());
    }
    leader_parts(unit, &mut parts);
    UnitWords {
        opens_move: None,
        type_name: "Leader".into(),
        summary: parts.join(", "),
        quick_edits: Vec::new(),
        place: None,
    }
}

/// What the roster says of the leader of a row: his fate and his wounds.
pub fn leader_parts(unit: &UnitState, parts: &mut Vec<String>) {
    if let Some(fate) = unit.leader {
        parts.push(fate.words().into());
    }
    match unit.leader_wounds {
        0 => {}
        1 => parts.push("leader wounded".into()),
        n => parts.push(format!("leader wounded {n} times")),
    }
}

/// Prefixes a unit error's field with where the unit was entered.
fn at(e: RefereeError, field: &str) -> RefereeError {
    // A system's own path may begin with a dot (".grade" of an element checked at the root).
    let inner = e
        .field
        .clone()
        .map(|i| i.trim_start_matches('.').to_string());
    let f = match inner {
        Some(i) if !i.is_empty() => format!("{field}.{i}"),
        _ => field.to_string(),
    };
    e.field(f)
}
