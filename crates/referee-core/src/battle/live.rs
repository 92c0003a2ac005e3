//! A battle in play: its events, the state they fold to, and the events an umpire's action would
//! append, checked before anything is written.

use serde::Serialize;
use ts_rs::TS;

use super::changes::{adjustment, changes_for, Mapping};
use super::event::{AppliedChange, DiceSource, Event, EventBody, Subject};
use super::fight::{part_label, part_moving};
use super::fold::{
    apply_changes, fold, fold_unit, free_leaders, hold_captives, turn_to, with_follow_ons, History,
};
use crate::contract::{Change, Resolution};
use crate::error::RefereeError;
use crate::state::{BattleSetup, BattleState, UnitId, UnitSpec, UnitState};
use crate::systems::Ruleset;
use crate::ErrorCode;

#[derive(Clone, Debug)]
pub struct Battle {
    pub events: Vec<Event>,
    pub state: BattleState,
    pub history: History,
}

/// What an edited roll changes downstream, unit by unit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct Difference {
    pub what: String,
    pub before: String,
    pub after: String,
}

impl Battle {
    /// Folds stored events.
    pub fn open(ruleset: &Ruleset, events: Vec<Event>) -> Result<Battle, RefereeError> {
        let (state, history) = fold(ruleset, &events)?;
        Ok(Battle {
            events,
            state,
            history,
        })
    }

    /// The event that creates a battle, checked.
    pub fn create(ruleset: &Ruleset, setup: BattleSetup, at: &str) -> Result<Battle, RefereeError> {
        crate::rule_system::check_side_fields(&ruleset.info.side_fields, &setup.sides)?;
        let event = Event {
            seq: 1,
            at: at.to_string(),
            body: EventBody::Created { setup },
        };
        Battle::open(ruleset, vec![event])
    }

    /// A battle begun with its first units: the event that creates it, then one `UnitAdded` per
    /// unit, each checked against the battle as it stands after the ones before it. A refused
    /// unit is named by its label in the message and by `units[i]` in the field.
    pub fn create_with_units(
        ruleset: &Ruleset,
        setup: BattleSetup,
        units: &[UnitSpec],
        at: &str,
    ) -> Result<Battle, RefereeError> {
        let mut battle = Battle::create(ruleset, setup, at)?;
        for (i, unit) in units.iter().enumerate() {
            let body = battle
                .add_unit(ruleset, unit.clone())
                .map_err(|e| refused_unit(e, i, &unit.label))?;
            let seq = battle.next_seq();
            battle.record(
                ruleset,
                Event {
                    seq,
                    at: at.to_string(),
                    body,
                },
            )?;
        }
        Ok(battle)
    }

    pub fn next_seq(&self) -> u64 {
        self.events.last().map_or(1, |e| e.seq.saturating_add(1))
    }

    pub fn add_unit(&self, ruleset: &Ruleset, unit: UnitSpec) -> Result<EventBody, RefereeError> {
        self.check_place(&unit)?;
        let id = self.state.next_unit_id();
        ruleset.system.enter(id, &unit, "unit")?;
        Ok(EventBody::UnitAdded { id, unit })
    }

    /// A correction to a unit on the roster, checked like a new one; it keeps its losses and
    /// markers.
    pub fn edit_unit(
        &self,
        ruleset: &Ruleset,
        id: UnitId,
        unit: UnitSpec,
    ) -> Result<EventBody, RefereeError> {
        let old = self.on_roster(id)?;
        self.check_place(&unit)?;
        ruleset.system.edit(old, &unit, "unit")?;
        Ok(EventBody::UnitEdited { id, unit })
    }

    /// Takes a unit off the roster (entered by mistake): not a loss.
    pub fn remove_unit(&self, id: UnitId) -> Result<EventBody, RefereeError> {
        self.on_roster(id)?;
        Ok(EventBody::UnitRemoved { id })
    }

    fn on_roster(&self, id: UnitId) -> Result<&UnitState, RefereeError> {
        self.state.units.get(&id).ok_or_else(|| {
            RefereeError::new(
                ErrorCode::BattleUnitGone,
                format!("There is no unit number {id} on this battle's roster."),
            )
            .field("unit")
        })
    }

    /// The side and command a unit is entered with exist.
    fn check_place(&self, unit: &UnitSpec) -> Result<(), RefereeError> {
        if self.state.side_index(&unit.side).is_none() {
            return Err(self.state.unknown_side(&unit.side, "side"));
        }
        if let Some(c) = &unit.command {
            let side = &self.state.sides[self.state.side_index(&unit.side).unwrap_or(0)];
            if !side.commands.is_empty() && !side.commands.contains(c) {
                return Err(RefereeError::new(
                    ErrorCode::BattleUnknownCommand,
                    format!(
                        "{} has no command “{c}”; its commands are {}",
                        side.name,
                        side.commands.join(", ")
                    ),
                )
                .field("command"));
            }
        }
        Ok(())
    }

    /// The event applying a resolution's outcome to the roster. `apply_key` names the shown
    /// resolution: a key an applied event in force already carries is refused first, so a
    /// double tap or a retried request never applies one result twice.
    pub fn apply(
        &self,
        ruleset: &Ruleset,
        resolution: &Resolution,
        mapping: &Mapping,
        source: DiceSource,
        rolled_by: Option<String>,
        apply_key: Option<String>,
    ) -> Result<EventBody, RefereeError> {
        let apply_key = apply_key.filter(|k| !k.trim().is_empty());
        if let Some(key) = &apply_key {
            if self.applied_with_key(key).is_some() {
                return Err(RefereeError::new(
                    ErrorCode::BattleAlreadyApplied,
                    "This result is already on the roster. Undo it first to apply it again.",
                )
                .field("apply_key"));
            }
        }
        let outcome = resolution.outcome.as_ref().ok_or_else(|| {
            RefereeError::new(
                ErrorCode::BattleNoOutcome,
                if resolution.shown.in_turn {
                    "the throw is not finished: enter each die it asks for in turn before applying the result"
                } else {
                    "roll the dice (or enter them) before applying the result"
                },
            )
            .field("dice")
        })?;
        // Some of one entry's units moving: they become an entry of their own first, and the
        // move's result lands on it.
        let (split, moved) = self.part_moving(ruleset, &resolution.action, mapping)?;
        let mut split_state = self.state.clone();
        apply_changes(ruleset, &mut split_state, &split, 0)?;
        let mut changes = split;
        changes.extend(changes_for(&split_state, &outcome.effects, &moved)?);
        let changes = with_follow_ons(ruleset, &self.state, changes, Some(&moved.targets))?;
        let picked = |key: &str| mapping.targets.get(key).map_or(&[][..], Vec::as_slice);
        ruleset.system.turn_limits(
            &self.state,
            &resolution.action,
            picked("attacker"),
            picked("defender"),
        )?;
        let mapping = moved;
        self.check_refused(ruleset, &split_state, &changes)?;
        Ok(EventBody::Applied {
            action: resolution.action.clone(),
            dice: outcome.dice.clone(),
            source: if outcome.dice.is_empty() {
                DiceSource::None
            } else {
                source
            },
            rolled_by,
            result: outcome.result.clone(),
            words: resolution.shown.names.get(&outcome.result).cloned(),
            targets: mapping.targets.clone(),
            choices: mapping.choices.clone(),
            changes,
            apply_key,
        })
    }

    /// A move of `mapping.units_moving` of one entry's units, fewer than it has: the change that
    /// makes them an entry of their own (the next number, its label and a number), and the
    /// mapping with that entry as the mover. No change when all of them move.
    fn part_moving(
        &self,
        ruleset: &Ruleset,
        action: &str,
        mapping: &Mapping,
    ) -> Result<(Vec<AppliedChange>, Mapping), RefereeError> {
        let Some(units) = mapping.units_moving else {
            return Ok((Vec::new(), mapping.clone()));
        };
        let movers = mapping
            .targets
            .get("attacker")
            .map_or(&[][..], Vec::as_slice);
        let Some(unit) = part_moving(ruleset, &self.state, action, movers, units)? else {
            return Ok((Vec::new(), mapping.clone()));
        };
        let into = self.state.next_unit_id();
        let (rule, ruling) = ruleset.system.split_rule().unwrap_or_default();
        let change = Change::SplitOff {
            units,
            into,
            label: part_label(&self.state, unit),
        };
        let shown = crate::contract::effect(
            crate::contract::Target::Unit(unit.label.clone()),
            change,
            rule,
            Some(ruling),
        );
        let split = AppliedChange {
            subject: Subject::Unit(unit.id),
            text: shown.text,
            change: shown.change,
            rule: shown.rule,
            ruling: shown.ruling,
            follow_on: false,
        };
        // Every target the entry stood for (the mover, the unit by its label) is the new one.
        let mut moved = mapping.clone();
        for ids in moved.targets.values_mut() {
            for id in ids.iter_mut().filter(|id| **id == unit.id) {
                *id = into;
            }
        }
        Ok((vec![split], moved))
    }

    /// A change the unit's system refuses before anything is written (ITACS 6.6: throwing
    /// weapons are fired once per game), each unit as the entries split from it left it.
    fn check_refused(
        &self,
        ruleset: &Ruleset,
        state: &BattleState,
        changes: &[AppliedChange],
    ) -> Result<(), RefereeError> {
        for c in changes {
            let Subject::Unit(id) = &c.subject else {
                continue;
            };
            let u = if matches!(c.change, Change::SplitOff { .. }) {
                // Checked as the split itself: the fold lands it, not the unit.
                self.state.units.get(id)
            } else {
                state.units.get(id)
            };
            if let Some(u) = u {
                if let Some(e) = ruleset.system.refuse(state, u, &c.change, &c.rule) {
                    return Err(e);
                }
                if matches!(c.change, Change::SplitOff { .. }) {
                    continue;
                }
                if !ruleset.system.land(&mut u.clone(), &c.change) {
                    return Err(not_a_change_of_these_rules(u, ruleset, "targets"));
                }
            }
        }
        Ok(())
    }

    /// The applied event in force that carries this key, if any (an undone one frees its key).
    pub fn applied_with_key(&self, key: &str) -> Option<u64> {
        self.events.iter().rev().find_map(|e| match &e.body {
            EventBody::Applied {
                apply_key: Some(k), ..
            } if k == key && self.history.in_force(e.seq) => Some(e.seq),
            _ => None,
        })
    }

    /// A quick edit by hand: one change to a unit or side.
    pub fn adjust(
        &self,
        ruleset: &Ruleset,
        subject: Subject,
        change: Change,
        reason: Option<String>,
    ) -> Result<EventBody, RefereeError> {
        if let Subject::Unit(id) = &subject {
            let Some(unit) = self.state.units.get(id).filter(|u| !u.lost) else {
                return Err(RefereeError::new(
                    ErrorCode::BattleUnitGone,
                    format!("there is no unit #{id} on the table"),
                )
                .field("unit"));
            };
            // Only a change the unit's rules know: a GTS unit carries no D markers.
            if !ruleset.system.land(&mut unit.clone(), &change) {
                return Err(not_a_change_of_these_rules(unit, ruleset, "change"));
            }
            // What the rules refuse against the battle as it stands, from a row as from a
            // result (GTS 3.31: one Reserve an army a game).
            if let Some(e) = ruleset.system.refuse(&self.state, unit, &change, "") {
                return Err(e);
            }
        }
        if let Subject::Side(name) = &subject {
            // What the rules refuse a side as the battle stands (DBMM p. 23: one retreat at dusk).
            if let Some(i) = self.state.side_index(name) {
                if let Some(e) = ruleset.system.refuse_on_side(&self.state, i, &change) {
                    return Err(e);
                }
            }
        }
        let c = adjustment(&self.state, subject, change, "umpire")?;
        Ok(EventBody::Adjusted {
            changes: with_follow_ons(ruleset, &self.state, vec![c], None)?,
            reason,
        })
    }

    pub fn advance_turn(&self, turn: Option<u32>, phase: Option<String>) -> EventBody {
        EventBody::TurnAdvanced {
            turn: turn.unwrap_or(self.state.turn),
            phase,
        }
    }

    pub fn undo(&self) -> Result<EventBody, RefereeError> {
        self.history
            .undo
            .map(|event| EventBody::Undone { event })
            .ok_or_else(|| {
                RefereeError::new(
                    ErrorCode::BattleNothingToUndo,
                    "nothing to undo: this is how the battle began",
                )
            })
    }

    /// Undo back to the entry `event`: everything undoable after it that is still in force, in
    /// one event.
    pub fn undo_to(&self, event: u64) -> Result<EventBody, RefereeError> {
        if !self.events.iter().any(|e| e.seq == event) {
            return Err(RefereeError::new(
                ErrorCode::BattleUnknownEvent,
                format!("the log has no entry {event} to undo back to"),
            )
            .field("event"));
        }
        let after = self
            .events
            .iter()
            .any(|e| e.seq > event && e.body.undoable() && self.history.in_force(e.seq));
        if !after {
            return Err(RefereeError::new(
                ErrorCode::BattleNothingToUndo,
                "nothing to undo after that entry: the battle stands as it did then",
            ));
        }
        Ok(EventBody::UndoneTo { event })
    }

    pub fn redo(&self) -> Result<EventBody, RefereeError> {
        self.history
            .redo
            .map(|event| EventBody::Redone { event })
            .ok_or_else(|| RefereeError::new(ErrorCode::BattleNothingToRedo, "nothing to redo"))
    }

    /// Editing a past roll: the event `seq` resolved again with other dice, its choices kept,
    /// and what that changes in the battle now.
    pub fn edit_roll(
        &self,
        ruleset: &Ruleset,
        seq: u64,
        situation: &serde_json::Value,
        dice: &[u32],
        source: DiceSource,
    ) -> Result<(EventBody, Vec<Difference>), RefereeError> {
        let position = self
            .events
            .iter()
            .position(|e| e.seq == seq && matches!(e.body, EventBody::Applied { .. }))
            .ok_or_else(|| {
                RefereeError::new(
                    ErrorCode::BattleNotARoll,
                    format!("event {seq} applied no result: there is no roll to edit"),
                )
                .field("event")
            })?;
        let EventBody::Applied {
            action,
            targets,
            choices,
            ..
        } = &self.events[position].body
        else {
            unreachable!("found as Applied above")
        };
        let resolution = ruleset.resolve(action, situation, Some(dice))?;
        // The choices are checked against the battle as it stood before the edited event.
        let (before, _) = fold(ruleset, &self.events[..position])?;
        let mapping = Mapping {
            units_moving: None,
            targets: targets.clone(),
            choices: choices.clone(),
        };
        let outcome = resolution.outcome.as_ref().ok_or_else(|| {
            RefereeError::new(
                ErrorCode::BattleNoOutcome,
                "the edited roll gives no outcome",
            )
            .field("dice")
        })?;
        let changes = changes_for(&before, &outcome.effects, &mapping)?;
        let changes = with_follow_ons(ruleset, &before, changes, Some(&mapping.targets))?;
        let body = EventBody::RollEdited {
            event: seq,
            dice: dice.to_vec(),
            source,
            result: outcome.result.clone(),
            words: resolution.shown.names.get(&outcome.result).cloned(),
            changes,
        };
        let mut events = self.events.clone();
        events.push(Event {
            seq: self.next_seq(),
            at: String::new(),
            body: body.clone(),
        });
        let (after, _) = fold(ruleset, &events)?;
        Ok((body, differences(ruleset, &self.state, &after)))
    }

    /// Appends a stored event: simple events fold on in place, undo, redo and edits refold.
    pub fn record(&mut self, ruleset: &Ruleset, event: Event) -> Result<(), RefereeError> {
        match &event.body {
            EventBody::UnitAdded { .. }
            | EventBody::UnitEdited { .. }
            | EventBody::UnitRemoved { .. } => {
                fold_unit(ruleset, &mut self.state, &event.body, "unit")?
            }
            EventBody::Applied {
                changes,
                action,
                targets,
                ..
            } => {
                self.state.note_combat(event.seq, action, targets);
                let free = free_leaders(&self.state);
                apply_changes(ruleset, &mut self.state, changes, event.seq)?;
                hold_captives(&mut self.state, &free, targets);
            }
            EventBody::Adjusted { changes, .. } => {
                apply_changes(ruleset, &mut self.state, changes, event.seq)?
            }
            EventBody::TurnAdvanced { turn, phase } => {
                turn_to(ruleset, &mut self.state, *turn, phase);
                // Not undoable: the undo and redo stacks stay as they were.
                self.events.push(event);
                return Ok(());
            }
            EventBody::Created { .. }
            | EventBody::Undone { .. }
            | EventBody::Redone { .. }
            | EventBody::UndoneTo { .. }
            | EventBody::RollEdited { .. } => {
                let mut events = self.events.clone();
                events.push(event);
                *self = Battle::open(ruleset, events)?;
                return Ok(());
            }
        }
        self.history.undo = Some(event.seq);
        self.history.redo = None;
        self.events.push(event);
        Ok(())
    }
}

/// The refusal of a change the unit's rules do not make (D markers on a GTS unit), before
/// anything is written.
fn not_a_change_of_these_rules(unit: &UnitState, ruleset: &Ruleset, field: &str) -> RefereeError {
    RefereeError::new(
        ErrorCode::BattleNotAChangeOfTheseRules,
        format!(
            "{} cannot take that change under {}: use the changes its rules offer",
            unit.label, ruleset.info.name
        ),
    )
    .field(field)
}

/// Units and figures that differ between two states of one battle.
pub fn differences(
    ruleset: &Ruleset,
    before: &BattleState,
    after: &BattleState,
) -> Vec<Difference> {
    let mut out = Vec::new();
    for (id, b) in &before.units {
        let a = after.units.get(id).map(|u| ruleset.system.words(u).summary);
        let b_text = ruleset.system.words(b).summary;
        if a.as_deref() != Some(b_text.as_str()) {
            out.push(Difference {
                what: format!("{} (#{id})", b.label),
                before: b_text,
                after: a.unwrap_or_else(|| "not in the battle".into()),
            });
        }
    }
    for (b, a) in before.sides.iter().zip(&after.sides) {
        if b != a {
            out.push(Difference {
                what: b.name.clone(),
                before: format!(
                    "{} points awarded, panicked: {}",
                    b.points_awarded, b.panicked
                ),
                after: format!(
                    "{} points awarded, panicked: {}",
                    a.points_awarded, a.panicked
                ),
            });
        }
    }
    if before.morale_track != after.morale_track {
        out.push(Difference {
            what: "MORALE track".into(),
            before: format!("{:+}", before.morale_track),
            after: format!("{:+}", after.morale_track),
        });
    }
    out
}

/// A unit `add_unit` refused, as one of a list: the message names it by its label (or its place
/// in the list) and the field says where it is (`units[2].stats.type`).
fn refused_unit(e: RefereeError, i: usize, label: &str) -> RefereeError {
    let inner = match e.field.as_deref() {
        Some("unit") | None => String::new(),
        Some(f) => format!(".{}", f.strip_prefix("unit.").unwrap_or(f)),
    };
    let who = if label.trim().is_empty() {
        format!("Unit {} of the list", i + 1)
    } else {
        format!("Unit {}", label.trim())
    };
    // Plain words: the ruleset's own wording may quote names in backticks.
    let message = format!(
        "{who} cannot enter the battle: {}",
        e.message.replace('`', "")
    );
    RefereeError { message, ..e }.field(format!("units[{i}]{inner}"))
}
