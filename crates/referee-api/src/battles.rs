//! Battles, rosters and the event log: every operation the app and the CLI run, each one
//! transaction in the store, each answered with the battle as it now stands.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use ts_rs::TS;

use referee_core::battle::{
    fight_with, move_along, outlook, settled, standing, AppliedChange, Battle, BattleSetup,
    BattleState, Contacts, DiceSource, Difference, Event, EventBody, Fight, Mapping, SideSetup,
    Standing, Subject, UnitId, UnitSpec,
};
use referee_core::contract::{Chance, Change};
use referee_core::rule_system::Phase;
use referee_core::ErrorCode;
use referee_core::{RefereeError, Resolution};
use referee_store::{
    event_hash, now, raw, BackupInfo, BackupReason, BattleFile, BattleRow, DeletedBattle,
    FileEvent, FileHead, Roster, RosterRow, Store, CHAIN_START,
};

use crate::import::{read_battle_file, MAX_TURN};
use crate::names;
use crate::terrain;
use crate::{report, HouseRuleChoice, Limited, Referee};

/// Where the referee keeps its database when none is named: the app's data folder
/// (`$XDG_DATA_HOME` or `~/.local/share`, then the app identifier), as the app uses it.
pub fn default_database() -> PathBuf {
    let base = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .unwrap_or_else(|| PathBuf::from("."));
    base.join("dev.tabletop.referee").join("referee.db")
}

#[derive(Clone, Debug, Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct NewBattle {
    pub name: String,
    pub ruleset: String,
    pub sides: Vec<SideSetup>,
    /// Units to begin with (a preset's), added in the same transaction as the battle: all of
    /// them, or no battle.
    #[serde(default)]
    #[ts(optional, as = "Option<Vec<UnitSpec>>")]
    pub units: Vec<UnitSpec>,
    /// The sides the units were written for, when they come from a preset whose sides the
    /// umpire renamed before beginning: each unit joins the side (and command) in the same place.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub preset_sides: Option<Vec<SideSetup>>,
}

impl NewBattle {
    /// A battle begun from a preset: its sides and units, under its name unless another is given.
    pub fn from_preset(preset: &referee_core::preset::Preset, name: Option<String>) -> NewBattle {
        NewBattle {
            name: name.unwrap_or_else(|| preset.name.clone()),
            ruleset: preset.ruleset.clone(),
            sides: preset.sides.clone(),
            units: preset.units.clone(),
            preset_sides: Some(preset.sides.clone()),
        }
    }

    /// The units as they join: under the sides given, when a preset's sides were renamed.
    fn units(&self) -> Vec<UnitSpec> {
        match &self.preset_sides {
            Some(from) => referee_core::preset::units_under(from, &self.units, &self.sides),
            None => self.units.clone(),
        }
    }
}

/// The dice of an applied result: the app rolls them (seeded), or the umpire enters the faces.
#[derive(Clone, Debug, Deserialize, Serialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DiceEntry {
    /// The action takes no dice.
    None,
    Physical(PhysicalDice),
    App(AppDice),
}

/// Faces read off physical dice.
#[derive(Clone, Debug, Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct PhysicalDice {
    pub faces: Vec<u32>,
}

/// Dice the app rolls; a seed replays a roll.
#[derive(Clone, Debug, Default, Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct AppDice {
    #[serde(default)]
    #[ts(optional)]
    pub seed: Option<u32>,
}

#[derive(Clone, Debug, Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct ApplyRequest {
    pub action: String,
    #[ts(type = "unknown")]
    pub situation: serde_json::Value,
    pub dice: DiceEntry,
    #[serde(default)]
    #[ts(optional, as = "Option<Mapping>")]
    pub mapping: Mapping,
    #[serde(default)]
    #[ts(optional)]
    pub rolled_by: Option<String>,
    /// The client's key for the resolution it shows (one per shown result): a second apply with a
    /// key an applied result in force already carries is refused (`battle.already_applied`)
    /// before anything is written; once that result is undone, the key applies again.
    #[serde(default)]
    #[ts(optional)]
    pub apply_key: Option<String>,
}

/// An action's situation and the mapping its result would be applied with.
#[derive(Clone, Debug, Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct OutlookRequest {
    pub action: String,
    #[ts(type = "unknown")]
    pub situation: serde_json::Value,
    /// The dice thrown, if any: the outlook is then this roll's (each chance certain or nil).
    #[serde(default)]
    #[ts(optional)]
    pub dice: Option<Vec<u32>>,
    #[serde(default)]
    #[ts(optional, as = "Option<Mapping>")]
    pub mapping: Mapping,
}

/// The units the umpire ticked on the roster, and the combat they fight.
#[derive(Clone, Debug, Default, Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct FightRequest {
    pub action: String,
    pub attackers: Vec<UnitId>,
    pub defenders: Vec<UnitId>,
    /// The side whose bound it is (DBMM); none: the attackers'.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub bound_of: Option<String>,
    /// Friends directly behind the element fighting in front, of either side (DBMM).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(optional, as = "Option<Vec<UnitId>>")]
    pub behind: Vec<UnitId>,
    /// Friends in front-edge contact with the enemy front element's flank or rear (DBMM).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(optional, as = "Option<Vec<UnitId>>")]
    pub on_enemy_flank: Vec<UnitId>,
    /// A move's hexes entered, in order, as the map numbers them (an ITACS rout move): the one
    /// unit picked as `attackers` moves, each hex read from the roster.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(optional, as = "Option<Vec<String>>")]
    pub path: Vec<String>,
    /// A move of one entry: how many of its units move, the others staying (the ones moving
    /// then become an entry of their own as the move is applied). None: all of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub units_moving: Option<u32>,
}

#[derive(Clone, Debug, Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct AdjustRequest {
    pub subject: Subject,
    pub change: Change,
    #[serde(default)]
    #[ts(optional)]
    pub reason: Option<String>,
}

/// One line of the event log.
#[derive(Clone, Debug, Serialize, TS)]
pub struct LogEntry {
    pub seq: u64,
    pub at: String,
    pub kind: String,
    /// The line in words; a table's code is apart, in `tag`.
    pub text: String,
    /// The table's code of the result the line names ("-1/D2"), shown as a small tag beside it.
    #[ts(optional)]
    pub tag: Option<String>,
    /// Taken back by an undo.
    pub undone: bool,
    /// Its roll was edited later.
    pub edited: bool,
    /// The concrete changes it made, in words.
    pub changes: Vec<String>,
    /// The turn it happened in (a turn change: the turn it began).
    pub turn: u32,
    /// In force and a change undo can take back (not a turn change, nor an undo or redo).
    pub undoable: bool,
}

/// A battle as the app shows it.
#[derive(Clone, Debug, Serialize, TS)]
pub struct BattleView {
    pub id: i64,
    pub state: BattleState,
    pub standing: Standing,
    /// Events in the battle; `log` holds the latest of them (see `LOG_TAIL`).
    pub events: u64,
    pub log: Vec<LogEntry>,
    /// The event an undo takes back, and the one a redo puts back.
    #[ts(optional)]
    pub undo: Option<u64>,
    #[ts(optional)]
    pub redo: Option<u64>,
    /// The battle began under other ruleset or house-rule files than those in force now.
    #[ts(optional)]
    pub ruleset_changed: Option<String>,
    /// When the rules changed: the house rules of this ruleset that, put in force, give the rules
    /// the battle began under (if the files offered can).
    #[ts(optional)]
    pub began_under: Option<HouseRuleChoice>,
    /// The resolution just applied, when this view answers an `apply`.
    #[ts(optional)]
    pub applied: Option<Resolution>,
}

/// An edited roll's preview: what would change downstream.
#[derive(Clone, Debug, Serialize, TS)]
pub struct RollEditPreview {
    pub result: String,
    pub differences: Vec<Difference>,
}

/// The battles of one database, under the rulesets in force.
pub struct Battles {
    pub(crate) store: Store,
    /// The battle last opened, so a sequence of commands does not refold it each time.
    pub(crate) open: Option<(i64, Battle)>,
}

fn changes_text(changes: &[AppliedChange]) -> Vec<String> {
    changes.iter().map(|c| c.text.clone()).collect()
}

/// How many of the latest events a view carries; `log` pages through the rest.
pub const LOG_TAIL: usize = 200;

/// Every unit's entries in force (as added, then as each edit left it), in seq order: the log
/// and the report ask "the unit's entry before this event" for many events, and a binary search
/// here answers each without scanning the battle's events again.
pub(crate) struct UnitEntries<'b>(BTreeMap<UnitId, Vec<(u64, &'b UnitSpec)>>);

impl<'b> UnitEntries<'b> {
    pub(crate) fn of(battle: &'b Battle) -> UnitEntries<'b> {
        let mut entries: BTreeMap<UnitId, Vec<(u64, &UnitSpec)>> = BTreeMap::new();
        for e in &battle.events {
            if let EventBody::UnitAdded { id, unit } | EventBody::UnitEdited { id, unit } = &e.body
            {
                if battle.history.in_force(e.seq) {
                    entries.entry(*id).or_default().push((e.seq, unit));
                }
            }
        }
        UnitEntries(entries)
    }

    /// The unit's entry as it stood before event `seq`.
    pub(crate) fn before(&self, seq: u64, id: UnitId) -> Option<&'b UnitSpec> {
        let entries = self.0.get(&id)?;
        let k = entries.partition_point(|(s, _)| *s < seq);
        k.checked_sub(1).map(|k| entries[k].1)
    }
}

/// What an edit changed in a unit's entry, in words: "count 4 → 6", "side Romans → Gauls".
fn edit_changes(before: Option<&UnitSpec>, after: &UnitSpec) -> Vec<String> {
    let Some(before) = before else {
        return Vec::new();
    };
    let text = |v: Option<&serde_json::Value>| match v {
        None | Some(serde_json::Value::Null) => "none".to_string(),
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
    };
    let mut out = Vec::new();
    let mut pair = |what: &str, a: String, b: String| {
        if a != b {
            out.push(format!("{what} {a} → {b}"));
        }
    };
    pair("label", before.label.clone(), after.label.clone());
    pair("side", before.side.clone(), after.side.clone());
    pair(
        "command",
        before.command.clone().unwrap_or_else(|| "none".into()),
        after.command.clone().unwrap_or_else(|| "none".into()),
    );
    pair(
        "role",
        format!("{:?}", before.role).to_lowercase(),
        format!("{:?}", after.role).to_lowercase(),
    );
    let mut keys: Vec<&String> = before
        .stats
        .as_object()
        .into_iter()
        .flat_map(|m| m.keys())
        .chain(after.stats.as_object().into_iter().flat_map(|m| m.keys()))
        .collect();
    keys.sort();
    keys.dedup();
    for k in keys {
        pair(k, text(before.stats.get(k)), text(after.stats.get(k)));
    }
    out
}

/// An event in words. An undo or redo says what it took back or put back ("Undo: Melee — SD
/// front, PS: D1X (dice 2, 3; physical dice)"), not the number of an entry.
/// A log line in words and, apart, the table's code of the result it names (an undo names the
/// result it takes back).
fn entry_text(
    battle: &Battle,
    units: &UnitEntries,
    phases: &[Phase],
    e: &Event,
) -> (String, Option<String>) {
    let words = |e: &Event| {
        untagged(
            e.body.describe_in(
                |id| units.before(e.seq, id).map(|u| u.label.clone()),
                phases,
            ),
            &e.body,
        )
    };
    let (what, seq) = match e.body {
        EventBody::Undone { event } => ("Undo", event),
        EventBody::Redone { event } => ("Redo", event),
        EventBody::UndoneTo { event } => ("Undo back to", event),
        _ => return words(e),
    };
    match battle.events.binary_search_by_key(&seq, |x| x.seq) {
        Ok(k) => {
            let (text, tag) = words(&battle.events[k]);
            (format!("{what}: {text}"), tag)
        }
        Err(_) => words(e),
    }
}

/// The line without the table's code its result's words carry, and the code.
fn untagged(text: String, body: &EventBody) -> (String, Option<String>) {
    let Some(tag) = body.result_tag() else {
        return (text, None);
    };
    let code = format!(" ({tag})");
    match text.find(&code) {
        Some(i) => (
            format!("{}{}", &text[..i], &text[i + code.len()..]),
            Some(tag.to_string()),
        ),
        None => (text, None),
    }
}

fn log_entries(battle: &Battle, phases: &[Phase], events: &[Event]) -> Vec<LogEntry> {
    let units = UnitEntries::of(battle);
    // The turn of every event, from the turn changes in force before it.
    let mut turn = 1;
    let turns: BTreeMap<u64, u32> = battle
        .events
        .iter()
        .map(|e| {
            if let EventBody::TurnAdvanced { turn: t, .. } = e.body {
                if battle.history.in_force(e.seq) {
                    turn = t;
                }
            }
            (e.seq, turn)
        })
        .collect();
    events
        .iter()
        .map(|e| {
            let (text, tag) = entry_text(battle, &units, phases, e);
            (e, text, tag)
        })
        .map(|(e, text, tag)| LogEntry {
            turn: turns.get(&e.seq).copied().unwrap_or(1),
            undoable: e.body.undoable() && battle.history.in_force(e.seq),
            seq: e.seq,
            at: e.at.clone(),
            kind: e.body.kind().to_string(),
            text,
            tag,
            undone: !battle.history.in_force(e.seq),
            edited: battle.history.edited.contains_key(&e.seq),
            changes: match &e.body {
                EventBody::Applied { changes, .. }
                | EventBody::Adjusted { changes, .. }
                | EventBody::RollEdited { changes, .. } => changes_text(changes),
                EventBody::UnitEdited { id, unit } => edit_changes(units.before(e.seq, *id), unit),
                _ => Vec::new(),
            },
        })
        .collect()
}

impl Battles {
    pub fn open(path: &Path) -> Result<Battles, RefereeError> {
        Ok(Battles {
            store: Store::open(path)?,
            open: None,
        })
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    pub fn list(&mut self) -> Result<Vec<BattleRow>, RefereeError> {
        Ok(self.store.battles()?)
    }

    pub fn create(
        &mut self,
        referee: &Referee,
        new: &NewBattle,
    ) -> Result<BattleView, RefereeError> {
        names::check_setup(&new.name, &new.sides)?;
        let units = new.units();
        for (i, unit) in units.iter().enumerate() {
            names::check_unit(&format!("units[{i}]"), unit)?;
        }
        let ruleset = referee.ruleset(&new.ruleset)?;
        let setup = BattleSetup {
            name: new.name.clone(),
            ruleset: new.ruleset.clone(),
            fingerprint: ruleset.info.fingerprint.clone(),
            sides: new.sides.clone(),
        };
        let battle = Battle::create_with_units(ruleset, setup, &units, &now())?;
        // Each unit against the others of the battle begun (a DBMM command's one general): a
        // roster or a preset is held to what adding the units one by one would be.
        for (i, (id, unit)) in battle.state.units.keys().zip(&units).enumerate() {
            ruleset.check_among(&battle.state, unit, Some(*id), &format!("units[{i}]"))?;
        }
        let rows: Vec<(Event, Option<Box<RawValue>>)> =
            battle.events.iter().map(|e| (e.clone(), None)).collect();
        let id = self.store.insert_battle(&rows)?;
        self.open = Some((id, battle));
        self.view(referee, id)
    }

    pub(crate) fn battle(
        &mut self,
        referee: &Referee,
        id: i64,
    ) -> Result<&mut Battle, RefereeError> {
        let fresh = !matches!(&self.open, Some((open, _)) if *open == id);
        if fresh {
            let events = self.store.events(id)?;
            let ruleset = ruleset_of(referee, &events)?;
            let battle = Battle::open(ruleset, events)?;
            self.open = Some((id, battle));
        }
        Ok(&mut self.open.as_mut().expect("opened above").1)
    }

    /// Stores events, then folds them into the open battle. A failed write leaves both as they
    /// were; a conflict with another writer reloads the battle from the store.
    fn commit(
        &mut self,
        referee: &Referee,
        id: i64,
        bodies: Vec<(EventBody, Option<serde_json::Value>)>,
    ) -> Result<(), RefereeError> {
        let battle = self.battle(referee, id)?;
        let mut seq = next_seq(battle)?;
        let at = now();
        let mut events: Vec<(Event, Option<Box<RawValue>>)> = Vec::new();
        for (body, detail) in bodies {
            events.push((
                Event {
                    seq,
                    at: at.clone(),
                    body,
                },
                detail.as_ref().map(raw),
            ));
            seq = seq.checked_add(1).ok_or_else(battle_full)?;
        }
        if let Err(e) = self.store.append_all(id, &events) {
            self.open = None;
            return Err(e.into());
        }
        let ruleset = referee.ruleset(&self.battle(referee, id)?.state.ruleset.clone())?;
        let battle = self.battle(referee, id)?;
        for (e, _) in events {
            battle.record(ruleset, e)?;
        }
        Ok(())
    }

    /// Runs a write — work out the events from the battle as it stands, then commit them —
    /// holding the database's write lock throughout (`BEGIN IMMEDIATE`), so another process can
    /// neither be refused nor overtake it: it waits, up to the busy timeout. A battle another
    /// process changed since this one read it is read again and the events worked out anew, as
    /// if the command had come a moment later.
    fn writing<T>(
        &mut self,
        id: i64,
        mut write: impl FnMut(&mut Battles) -> Result<T, RefereeError>,
    ) -> Result<T, RefereeError> {
        self.store.begin_write()?;
        // Inside the lock, the battle in memory is checked against the store before anything is
        // worked out from it, so a command is never judged on a stale battle.
        if let Some((open, battle)) = &self.open {
            let cached = battle.events.last().map(|e| e.seq);
            if *open == id && self.store.last_seq(id).ok() != Some(cached) {
                self.open = None;
            }
        }
        let mut answer = write(self);
        for _ in 1..WRITE_ATTEMPTS {
            match &answer {
                Err(e) if e.code == ErrorCode::StoreConflict => answer = write(self),
                _ => break,
            }
        }
        let ended = self.store.end_write(answer.is_ok());
        if answer.is_err() || ended.is_err() {
            // Whatever was folded in memory may not have been kept: read the battle again.
            self.open = None;
        }
        ended?;
        answer
    }

    pub fn view(&mut self, referee: &Referee, id: i64) -> Result<BattleView, RefereeError> {
        let battle = self.battle(referee, id)?;
        let ruleset = referee.ruleset(&battle.state.ruleset)?;
        let from = battle.events.len().saturating_sub(LOG_TAIL);
        let changed = battle.state.fingerprint != ruleset.info.fingerprint;
        let began_under = changed
            .then(|| referee.choice_for(&battle.state.ruleset, &battle.state.fingerprint))
            .flatten();
        let ruleset_changed = changed.then(|| {
            let files = match &began_under {
                Some(choice) if choice.on.is_empty() => " (without house rules)".to_string(),
                Some(choice) => format!(" with {}", choice.on.join(" + ")),
                None => String::new(),
            };
            format!(
                "this battle began under other ruleset or house-rule files{files} ({}); now in force: {} ({})",
                battle.state.fingerprint,
                ruleset.info.layers.join(" + "),
                ruleset.info.fingerprint
            )
        });
        Ok(BattleView {
            id,
            standing: standing(ruleset, &battle.state),
            began_under,
            ruleset_changed,
            state: ruleset.worded(&battle.state),
            events: u64::try_from(battle.events.len()).unwrap_or(u64::MAX),
            log: log_entries(battle, &ruleset.info.phases, &battle.events[from..]),
            undo: battle.history.undo,
            redo: battle.history.redo,
            applied: None,
        })
    }

    /// A page of the event log: up to `limit` events before `before` (the latest without it).
    pub fn log(
        &mut self,
        referee: &Referee,
        id: i64,
        before: Option<u64>,
        limit: usize,
    ) -> Result<Vec<LogEntry>, RefereeError> {
        let battle = self.battle(referee, id)?;
        let end = before.map_or(battle.events.len(), |b| {
            battle.events.partition_point(|e| e.seq < b)
        });
        let start = end.saturating_sub(limit);
        let phases = &referee.ruleset(&battle.state.ruleset)?.info.phases;
        Ok(log_entries(battle, phases, &battle.events[start..end]))
    }

    pub fn add_unit(
        &mut self,
        referee: &Referee,
        id: i64,
        unit: UnitSpec,
    ) -> Result<BattleView, RefereeError> {
        names::check_unit("", &unit)?;
        self.writing(id, |b| {
            let system = b.battle(referee, id)?.state.ruleset.clone();
            let ruleset = referee.ruleset(&system)?;
            ruleset
                .check_in_battle(&b.battle(referee, id)?.state, &unit, None, "unit")
                .map_err(|e| referee.from_another_system(&system, &unit.stats, e))?;
            let body = b
                .battle(referee, id)?
                .add_unit(ruleset, unit.clone())
                .map_err(|e| referee.from_another_system(&system, &unit.stats, e))?;
            b.commit(referee, id, vec![(body, None)])
        })?;
        self.view(referee, id)
    }

    /// Corrects a unit's entry (label, side, command, role, stats), checked by the ruleset like a
    /// new unit; the unit keeps its losses and markers. One event, undoable.
    pub fn edit_unit(
        &mut self,
        referee: &Referee,
        id: i64,
        unit_id: UnitId,
        spec: UnitSpec,
    ) -> Result<BattleView, RefereeError> {
        names::check_unit("", &spec)?;
        self.writing(id, |b| {
            let system = b.battle(referee, id)?.state.ruleset.clone();
            let ruleset = referee.ruleset(&system)?;
            ruleset
                .check_in_battle(&b.battle(referee, id)?.state, &spec, Some(unit_id), "unit")
                .map_err(|e| referee.from_another_system(&system, &spec.stats, e))?;
            let body = b
                .battle(referee, id)?
                .edit_unit(ruleset, unit_id, spec.clone())
                .map_err(|e| referee.from_another_system(&system, &spec.stats, e))?;
            b.commit(referee, id, vec![(body, None)])
        })?;
        self.view(referee, id)
    }

    /// Takes a unit off the roster: it is gone, neither lost nor counted for victory. One event,
    /// undoable.
    pub fn remove_unit(
        &mut self,
        referee: &Referee,
        id: i64,
        unit_id: UnitId,
    ) -> Result<BattleView, RefereeError> {
        self.writing(id, |b| {
            let body = b.battle(referee, id)?.remove_unit(unit_id)?;
            b.commit(referee, id, vec![(body, None)])
        })?;
        self.view(referee, id)
    }

    /// Resolves the action with the dice given (rolling them when the app rolls) and applies its
    /// outcome to the roster.
    pub fn apply(
        &mut self,
        referee: &Referee,
        id: i64,
        request: &ApplyRequest,
    ) -> Result<BattleView, RefereeError> {
        if let Some(who) = &request.rolled_by {
            names::check_name("rolled_by", "name of who rolled", who)?;
        }
        if let Some(key) = &request.apply_key {
            names::check_name("apply_key", "result's key", key)?;
        }
        let ruleset = referee.ruleset(&self.battle(referee, id)?.state.ruleset.clone())?;
        let (faces, source) =
            dice_for(ruleset, &request.action, &request.situation, &request.dice)?;
        let resolution = ruleset.resolve(&request.action, &request.situation, faces.as_deref())?;
        let detail = serde_json::json!({
            "situation": request.situation,
            "resolution": resolution,
        });
        self.writing(id, |b| {
            let body = b.battle(referee, id)?.apply(
                ruleset,
                &resolution,
                &request.mapping,
                source,
                request.rolled_by.clone(),
                request.apply_key.clone(),
            )?;
            b.commit(referee, id, vec![(body, Some(detail.clone()))])
        })?;
        let mut view = self.view(referee, id)?;
        view.applied = Some(resolution);
        Ok(view)
    }

    /// Before the dice: for each break point not yet reached, the exact chance that this action's
    /// result, applied with this mapping, reaches it.
    pub fn outlook(
        &mut self,
        referee: &Referee,
        id: i64,
        request: &OutlookRequest,
    ) -> Result<Vec<Chance>, RefereeError> {
        let ruleset = referee.ruleset(&self.battle(referee, id)?.state.ruleset.clone())?;
        let resolution = settled(&ruleset.resolve(
            &request.action,
            &request.situation,
            request.dice.as_deref(),
        )?);
        let battle = self.battle(referee, id)?;
        outlook(ruleset, &battle.state, &resolution, &request.mapping)
    }

    /// The action's situation opened with the picked units in their state now, and the mapping
    /// that applies its result to them.
    pub fn fight(
        &mut self,
        referee: &Referee,
        id: i64,
        request: &FightRequest,
    ) -> Result<Fight, RefereeError> {
        let ruleset = referee.ruleset(&self.battle(referee, id)?.state.ruleset.clone())?;
        for (i, hex) in request.path.iter().enumerate() {
            names::check_name(&format!("path[{i}]"), "hex", hex)?;
        }
        let terrains = self.terrains(referee, id)?;
        let battle = self.battle(referee, id)?;
        let moves = ruleset
            .info
            .actions
            .iter()
            .any(|a| a.id == request.action && a.moves);
        let mut fight = if moves {
            move_along(
                ruleset,
                &battle.state,
                &request.action,
                &request.attackers,
                &request.path,
                request.units_moving,
            )?
        } else {
            fight_with(
                ruleset,
                &battle.state,
                &request.action,
                &request.attackers,
                &request.defenders,
                &Contacts {
                    bound_of: request.bound_of.clone(),
                    behind: request.behind.clone(),
                    on_enemy_flank: request.on_enemy_flank.clone(),
                },
            )?
        };
        // The terrain the umpire last gave these hexes, kept in the battle (issue 31 item 4).
        terrain::given(&mut fight.situation, &terrains);
        Ok(fight)
    }

    /// The terrain the results in force last gave each hex, read from their stored situations
    /// (the undone left out by the store's query).
    fn terrains(&mut self, referee: &Referee, id: i64) -> Result<terrain::Terrains, RefereeError> {
        let undone: Vec<u64> = self
            .battle(referee, id)?
            .history
            .undone
            .iter()
            .copied()
            .collect();
        let mut terrains = terrain::Terrains::new();
        for (_, raw) in self.store.details_in_force(id, &undone)? {
            // Only the situation is built; the rest of the detail is skipped as it is read.
            if let Ok(detail) = serde_json::from_str::<terrain::AppliedSituation>(raw.get()) {
                terrain::remember(&mut terrains, &detail.situation);
            }
        }
        Ok(terrains)
    }

    pub fn adjust(
        &mut self,
        referee: &Referee,
        id: i64,
        request: &AdjustRequest,
    ) -> Result<BattleView, RefereeError> {
        if let Some(reason) = &request.reason {
            names::check_name("reason", "reason", reason)?;
        }
        let ruleset = referee.ruleset(&self.battle(referee, id)?.state.ruleset.clone())?;
        self.writing(id, |b| {
            let body = b.battle(referee, id)?.adjust(
                ruleset,
                request.subject.clone(),
                request.change.clone(),
                request.reason.clone(),
            )?;
            b.commit(referee, id, vec![(body, None)])
        })?;
        self.view(referee, id)
    }

    pub fn advance_turn(
        &mut self,
        referee: &Referee,
        id: i64,
        turn: Option<u32>,
        phase: Option<String>,
    ) -> Result<BattleView, RefereeError> {
        if let Some(t) = turn.filter(|t| *t > MAX_TURN) {
            return Err(turn_out_of_range(t));
        }
        if let Some(phase) = &phase {
            names::check_name("phase", "phase", phase)?;
        }
        self.writing(id, |b| {
            let battle = b.battle(referee, id)?;
            let next = match turn {
                Some(t) => Some(t),
                None if phase.is_none() => Some(
                    battle
                        .state
                        .turn
                        .checked_add(1)
                        .filter(|t| *t <= MAX_TURN)
                        .ok_or_else(|| turn_out_of_range(battle.state.turn.saturating_add(1)))?,
                ),
                None => None,
            };
            let body = battle.advance_turn(next, phase.clone());
            b.commit(referee, id, vec![(body, None)])
        })?;
        self.view(referee, id)
    }

    pub fn undo(&mut self, referee: &Referee, id: i64) -> Result<BattleView, RefereeError> {
        self.writing(id, |b| {
            let body = b.battle(referee, id)?.undo()?;
            b.commit(referee, id, vec![(body, None)])
        })?;
        self.view(referee, id)
    }

    /// Undo back to an entry of the log: one event takes back everything after it.
    pub fn undo_to(
        &mut self,
        referee: &Referee,
        id: i64,
        event: u64,
    ) -> Result<BattleView, RefereeError> {
        self.writing(id, |b| {
            let body = b.battle(referee, id)?.undo_to(event)?;
            b.commit(referee, id, vec![(body, None)])
        })?;
        self.view(referee, id)
    }

    pub fn redo(&mut self, referee: &Referee, id: i64) -> Result<BattleView, RefereeError> {
        self.writing(id, |b| {
            let body = b.battle(referee, id)?.redo()?;
            b.commit(referee, id, vec![(body, None)])
        })?;
        self.view(referee, id)
    }

    /// Edits the dice of an applied event: with `preview`, only says what would change.
    pub fn edit_roll(
        &mut self,
        referee: &Referee,
        id: i64,
        event: u64,
        faces: Vec<u32>,
        preview: bool,
    ) -> Result<(RollEditPreview, Option<BattleView>), RefereeError> {
        let ruleset = referee.ruleset(&self.battle(referee, id)?.state.ruleset.clone())?;
        let detail = self.store.detail(id, event)?;
        let situation = detail
            .as_ref()
            .and_then(|d| d.get("situation"))
            .cloned()
            .ok_or_else(|| {
                RefereeError::new(
                    ErrorCode::BattleNotARoll,
                    format!("event {event} has no stored situation: there is no roll to edit"),
                )
                .field("event")
            })?;
        let (preview_body, differences) = self.battle(referee, id)?.edit_roll(
            ruleset,
            event,
            &situation,
            &faces,
            DiceSource::Physical,
        )?;
        let EventBody::RollEdited { result, .. } = &preview_body else {
            unreachable!("edit_roll answers a RollEdited event")
        };
        let answer = RollEditPreview {
            result: result.clone(),
            differences,
        };
        if preview {
            return Ok((answer, None));
        }
        let resolution = ruleset.resolve(
            situation_action(&self.battle(referee, id)?.events, event),
            &situation,
            Some(&faces),
        )?;
        let detail = serde_json::json!({"situation": situation, "resolution": resolution});
        self.writing(id, |b| {
            let (body, _) = b.battle(referee, id)?.edit_roll(
                ruleset,
                event,
                &situation,
                &faces,
                DiceSource::Physical,
            )?;
            b.commit(referee, id, vec![(body, Some(detail.clone()))])
        })?;
        Ok((answer, Some(self.view(referee, id)?)))
    }

    /// What a report of the battle is told from: the battle, its stored resolutions, and the
    /// house rules in force.
    fn report_source<T>(
        &mut self,
        referee: &Referee,
        id: i64,
        write: impl FnOnce(&report::Source) -> Result<T, RefereeError>,
    ) -> Result<T, RefereeError> {
        let details = self
            .store
            .details(id)?
            .into_iter()
            .filter_map(|(seq, raw)| Some((seq, serde_json::from_str(raw.get()).ok()?)))
            .collect();
        let battle = self.battle(referee, id)?;
        let ruleset = referee.ruleset(&battle.state.ruleset)?;
        let house_rules = referee
            .rulesets()
            .house_rules
            .into_iter()
            .filter(|r| r.on && r.extends == ruleset.info.id)
            .map(|r| r.name)
            .collect();
        write(&report::Source {
            ruleset,
            battle,
            details,
            house_rules,
        })
    }

    /// The battle as a readable plain-text log: the head, each turn's events in force in words
    /// with their dice and the exact chance of each result rolled, the final standing.
    pub fn text_log(&mut self, referee: &Referee, id: i64) -> Result<String, RefereeError> {
        self.report_source(referee, id, report::text_log)
    }

    /// The printable battle report: one self-contained HTML file (style inline, charts as inline
    /// SVG, no script), every name from the battle escaped.
    pub fn report(&mut self, referee: &Referee, id: i64) -> Result<String, RefereeError> {
        self.report_source(referee, id, report::html_report)
    }

    pub fn export(&mut self, _referee: &Referee, id: i64) -> Result<BattleFile, RefereeError> {
        // Events and details from one snapshot of the store (never a battle cached earlier):
        // an event another process appends meanwhile is exported with its detail, or not at all.
        let (stored, details) = self.store.events_and_details(id)?;
        let mut details: BTreeMap<u64, Box<RawValue>> = details.into_iter().collect();
        let Some(Event {
            body: EventBody::Created { setup },
            ..
        }) = stored.first()
        else {
            return Err(RefereeError::new(
                ErrorCode::StoreCorrupt,
                "the battle's first event does not create it",
            ));
        };
        let (ruleset_id, fingerprint) = (setup.ruleset.clone(), setup.fingerprint.clone());
        let mut prev = CHAIN_START.to_string();
        let events: Vec<FileEvent> = stored
            .iter()
            .map(|e| {
                let detail = details.remove(&e.seq);
                let hash = event_hash(
                    &prev,
                    e.seq,
                    &e.at,
                    &e.body,
                    detail.as_ref().map(|d| d.get()),
                );
                prev.clone_from(&hash);
                FileEvent {
                    seq: e.seq,
                    at: e.at.clone(),
                    body: e.body.clone(),
                    detail,
                    hash: Some(hash),
                }
            })
            .collect();
        let head = events.last().map(|e| FileHead {
            seq: e.seq,
            hash: prev.clone(),
        });
        Ok(BattleFile {
            format: referee_store::FORMAT.into(),
            version: referee_store::version_for(stored.iter().map(|e| &e.body), true),
            ruleset: ruleset_id,
            fingerprint,
            events,
            head,
        })
    }

    /// The battle file as the text to save: compact JSON written straight from the file, so each
    /// event's detail is the stored text byte for byte (its hash holds) on every path — the
    /// app's export, `--out` and standard output alike.
    pub fn export_text(&mut self, referee: &Referee, id: i64) -> Result<String, RefereeError> {
        Ok(battle_file_text(&self.export(referee, id)?))
    }

    /// Imports a battle file as a new battle: all of it, or nothing.
    pub fn import(&mut self, referee: &Referee, text: &str) -> Result<BattleView, RefereeError> {
        let (file, battle) = read_battle_file(referee, text)?;
        let rows: Vec<(Event, Option<Box<RawValue>>)> = battle
            .events
            .iter()
            .cloned()
            .zip(file.events.iter().map(|e| e.detail.clone()))
            .collect();
        let id = self.store.insert_battle(&rows)?;
        self.open = Some((id, battle));
        self.view(referee, id)
    }

    pub fn duplicate(&mut self, referee: &Referee, id: i64) -> Result<BattleView, RefereeError> {
        let text = self.export_text(referee, id)?;
        self.import(referee, &text)
    }

    /// Deletes a battle: it can be restored for `KEEP_DELETED_DAYS` days (`deleted`, `restore`).
    pub fn delete(&mut self, id: i64) -> Result<(), RefereeError> {
        self.store.delete_battle(id)?;
        if matches!(&self.open, Some((open, _)) if *open == id) {
            self.open = None;
        }
        Ok(())
    }

    /// The whole database checked: SQLite's integrity, every battle opened (the recently
    /// deleted too), every chain verified; then every convention event's entries read and
    /// folded (each event in a snapshot of its own: an event is written apart from its battles).
    pub fn check(&mut self, referee: &Referee) -> Result<referee_store::Check, RefereeError> {
        self.open = None;
        // Why the rules cannot replay a battle, in the umpire's words.
        let mut check = self.store.check(|events| {
            let ruleset = ruleset_of(referee, events).map_err(|e| e.message)?;
            Battle::open(ruleset, events.to_vec())
                .map(|_| ())
                .map_err(|e| e.message)
        })?;
        let events = match self.store.tournaments() {
            Ok(rows) => rows,
            Err(_) => {
                check.damage.push(
                    "the list of convention events could not be read: the file is damaged there"
                        .into(),
                );
                Vec::new()
            }
        };
        for row in events {
            check.tournaments += 1;
            let event = format!(
                "convention event #{} “{}”",
                row.id,
                referee_core::error::printable(&row.name)
            );
            match self.store.tournament_entries(row.id) {
                Ok(entries) => {
                    if let Err(e) = referee_core::tournament::Tournament::open(&entries) {
                        check
                            .damage
                            .push(format!("{event} no longer opens: {}", e.message));
                    }
                }
                Err(referee_store::StoreError::DamagedEntry { seq, .. }) => check
                    .damage
                    .push(format!("{event}, entry {seq}: it could not be read")),
                Err(_) => check.damage.push(format!(
                    "{event} could not be read: the file is damaged there"
                )),
            }
        }
        Ok(check)
    }

    /// The battles deleted lately, that can still be restored.
    pub fn deleted(&mut self) -> Result<Vec<DeletedBattle>, RefereeError> {
        Ok(self.store.deleted_battles()?)
    }

    /// Brings a deleted battle back, as it was.
    pub fn restore(&mut self, referee: &Referee, id: i64) -> Result<BattleView, RefereeError> {
        self.store.restore_battle(id)?;
        self.view(referee, id)
    }

    /// A backup now, at the user's asking; answers its file.
    pub fn backup(&self) -> Result<PathBuf, RefereeError> {
        Ok(self.store.backup_for(BackupReason::OnDemand, None)?)
    }

    /// The backups, newest first (and why the last automatic one failed, if it did).
    pub fn backups(&self) -> Backups {
        Backups {
            backups: self.store.backups(),
            problem: self.store.backup_problem().cloned().map(RefereeError::from),
        }
    }

    /// Puts a listed backup in the database's place, after backing up the database as it is.
    pub fn restore_backup(&mut self, id: &str) -> Result<Backups, RefereeError> {
        self.open = None;
        self.store.restore_backup(id)?;
        Ok(self.backups())
    }
}

/// The backups, newest first, and why the last automatic one failed, if it did.
#[derive(Clone, Debug, Serialize, TS)]
pub struct Backups {
    pub backups: Vec<BackupInfo>,
    pub problem: Option<RefereeError>,
}

/// The backups of a database read from its folder alone: they can be listed when the database
/// itself cannot be opened (damaged).
pub fn backups_at(db: &Path) -> Backups {
    Backups {
        backups: referee_store::backups_of(db),
        problem: None,
    }
}

/// A battle file as text: never through `serde_json::Value`, which would lay each stored detail
/// out anew and break its hash.
pub fn battle_file_text(file: &BattleFile) -> String {
    serde_json::to_string(file).unwrap_or_default()
}

/// Puts a listed backup in the place of a database that cannot be opened (the damaged file is
/// kept among the backups), and opens it.
pub fn restore_over_damaged(db: &Path, id: &str) -> Result<Battles, RefereeError> {
    referee_store::restore_over_damaged(db, id)?;
    Battles::open(db)
}

impl Battles {
    pub fn save_roster(&mut self, referee: &Referee, roster: &Roster) -> Result<i64, RefereeError> {
        check_roster(referee, roster)?;
        Ok(self.store.save_roster(roster)?)
    }

    pub fn rosters(&mut self) -> Result<Vec<RosterRow>, RefereeError> {
        Ok(self.store.rosters()?)
    }

    pub fn roster(&mut self, id: i64) -> Result<Roster, RefereeError> {
        Ok(self.store.roster(id)?)
    }

    pub fn delete_roster(&mut self, id: i64) -> Result<(), RefereeError> {
        Ok(self.store.delete_roster(id)?)
    }

    /// Copies a roster's units into a battle, on one side, in one transaction.
    pub fn copy_roster(
        &mut self,
        referee: &Referee,
        id: i64,
        roster: i64,
        side: &str,
    ) -> Result<BattleView, RefereeError> {
        let roster = self.store.roster(roster)?;
        let ruleset = referee.ruleset(&self.battle(referee, id)?.state.ruleset.clone())?;
        if roster.ruleset != ruleset.info.id {
            return Err(RefereeError::new(
                ErrorCode::RosterWrongRuleset,
                format!(
                    "the roster is for “{}”, the battle is “{}”",
                    roster.ruleset, ruleset.info.id
                ),
            )
            .field("roster"));
        }
        // Each unit is checked against the battle as it will stand after the ones before it.
        self.writing(id, |b| {
            let mut trial = b.battle(referee, id)?.clone();
            let mut bodies = Vec::new();
            for (i, unit) in roster.units.iter().enumerate() {
                let mut unit = unit.clone();
                unit.side = side.to_string();
                let body = trial
                    .add_unit(ruleset, unit)
                    .map_err(|e| prefix(e, &format!("units[{i}]")))?;
                trial.record(
                    ruleset,
                    Event {
                        seq: next_seq(&trial)?,
                        at: String::new(),
                        body: body.clone(),
                    },
                )?;
                bodies.push((body, None));
            }
            b.commit(referee, id, bodies)
        })?;
        self.view(referee, id)
    }
}

/// How many times a write is worked out when the battle read was stale (inside the write lock,
/// the second time always holds).
const WRITE_ATTEMPTS: usize = 3;

/// The seq the next event takes.
fn next_seq(battle: &Battle) -> Result<u64, RefereeError> {
    match battle.events.last() {
        None => Ok(1),
        Some(e) => e.seq.checked_add(1).ok_or_else(battle_full),
    }
}

fn battle_full() -> RefereeError {
    RefereeError::new(
        ErrorCode::BattleFull,
        "the battle holds as many events as it can: duplicate it to go on",
    )
}

fn turn_out_of_range(turn: u32) -> RefereeError {
    RefereeError::new(
        ErrorCode::BattleTurnOutOfRange,
        format!("turn {turn} is beyond the last turn a battle can reach ({MAX_TURN})"),
    )
    .field("turn")
}

fn prefix(e: RefereeError, at: &str) -> RefereeError {
    let field = match &e.field {
        Some(f) => format!("{at}.{f}"),
        None => at.to_string(),
    };
    e.field(field)
}

fn situation_action(events: &[Event], seq: u64) -> &str {
    events
        .iter()
        .find_map(|e| match &e.body {
            EventBody::Applied { action, .. } if e.seq == seq => Some(action.as_str()),
            _ => None,
        })
        .unwrap_or_default()
}

fn ruleset_of<'r>(
    referee: &'r Referee,
    events: &[Event],
) -> Result<&'r referee_core::Ruleset, RefereeError> {
    match events.first().map(|e| &e.body) {
        Some(EventBody::Created { setup }) => referee.ruleset(&setup.ruleset),
        _ => Err(RefereeError::new(
            ErrorCode::StoreCorrupt,
            "the battle's first event does not create it",
        )),
    }
}

/// The faces to resolve with: entered, rolled now by the app (the dice the action names), or none.
fn dice_for(
    ruleset: &referee_core::Ruleset,
    action: &str,
    situation: &serde_json::Value,
    entry: &DiceEntry,
) -> Result<(Option<Vec<u32>>, DiceSource), RefereeError> {
    match entry {
        DiceEntry::None => Ok((None, DiceSource::None)),
        DiceEntry::Physical(PhysicalDice { faces }) => {
            Ok((Some(faces.clone()), DiceSource::Physical))
        }
        DiceEntry::App(AppDice { seed }) => {
            let r = ruleset.resolve(action, situation, None)?;
            if r.dice.is_empty() || r.dice == "none" {
                return Ok((None, DiceSource::None));
            }
            let rolled = crate::dice::throw(ruleset, action, situation, *seed)?;
            Ok((Some(rolled.faces), DiceSource::App { seed: rolled.seed }))
        }
    }
}

/// Checks every unit of a roster against its ruleset.
pub fn check_roster(referee: &Referee, roster: &Roster) -> Result<(), RefereeError> {
    let ruleset = referee.ruleset(&roster.ruleset)?;
    if roster.name.trim().is_empty() {
        return Err(RefereeError::new(ErrorCode::RosterInvalid, "name the roster").field("name"));
    }
    names::check_name("name", "roster's name", &roster.name)?;
    for (i, unit) in roster.units.iter().enumerate() {
        names::check_unit(&format!("units[{i}]"), unit)?;
    }
    for (i, unit) in roster.units.iter().enumerate() {
        let id = u32::try_from(i + 1).map_err(|_| {
            RefereeError::new(
                ErrorCode::RosterInvalid,
                "the roster has more units than a battle holds",
            )
        })?;
        let field = format!("units[{i}]");
        ruleset
            .system
            .enter(id, unit, &field)
            .and_then(|_| ruleset.check_new_unit(unit, &field))
            .map_err(|e| referee.from_another_system(&roster.ruleset, &unit.stats, e))?;
    }
    Ok(())
}

/// A roster from CSV: a header row naming `label` and, optionally, `side`, `command` and `role`;
/// every other column is a stat of the unit (numbers, `true`/`false`, or text; empty cells are
/// left out). See docs/rosters.md.
pub fn roster_from_csv(name: &str, ruleset: &str, text: &str) -> Result<Roster, RefereeError> {
    Limited::Roster.check(text.len())?;
    let invalid = |message: String, line: u64| {
        RefereeError::new(ErrorCode::RosterInvalid, message).location(format!("line {line}"))
    };
    // Quoted cells may hold commas ("Smith, John"); rows of another length are said below.
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(1, |p| p.line());
            invalid(format!("this line is not CSV: {e}"), line)
        })?;
        let line = record.position().map_or(0, |p| p.line());
        if record.iter().all(str::is_empty) {
            continue;
        }
        rows.push((line, record));
    }
    let mut rows = rows.into_iter();
    let header: Vec<String> = rows
        .next()
        .map(|(_, h)| h.iter().map(str::to_string).collect())
        .unwrap_or_default();
    if !header.iter().any(|h| h == "label") {
        return Err(invalid(
            "the first line names the columns, and one of them is label".into(),
            1,
        ));
    }
    let mut units = Vec::new();
    for (line, record) in rows {
        let cells: Vec<&str> = record.iter().collect();
        if cells.len() != header.len() {
            return Err(invalid(
                format!(
                    "{} cells where the header has {}",
                    cells.len(),
                    header.len()
                ),
                line,
            ));
        }
        let mut unit = serde_json::Map::new();
        let mut stats = serde_json::Map::new();
        for (h, c) in header.iter().zip(cells) {
            if c.is_empty() {
                continue;
            }
            match h.as_str() {
                "label" | "side" | "command" | "role" => {
                    unit.insert(h.clone(), serde_json::Value::String(c.to_string()));
                }
                _ => {
                    let v = if let Ok(i) = c.parse::<i64>() {
                        serde_json::json!(i)
                    } else if let Ok(f) = c.parse::<f64>() {
                        serde_json::json!(f)
                    } else if c == "true" || c == "false" {
                        serde_json::json!(c == "true")
                    } else {
                        serde_json::json!(c)
                    };
                    stats.insert(h.clone(), v);
                }
            }
        }
        unit.entry("side").or_insert_with(|| serde_json::json!(""));
        unit.insert("stats".into(), serde_json::Value::Object(stats));
        let spec: UnitSpec =
            serde_json::from_value(serde_json::Value::Object(unit)).map_err(|e| {
                invalid(
                    referee_core::error::plain_serde_error(&e.to_string(), ""),
                    line,
                )
            })?;
        units.push(spec);
    }
    Ok(Roster {
        name: name.to_string(),
        ruleset: ruleset.to_string(),
        units,
    })
}
