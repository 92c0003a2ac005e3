//! The fold: a battle's state from its events, and what undo and redo would take back.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

use super::event::{AppliedChange, Event, EventBody, Subject};
use crate::contract::Change;
use crate::error::RefereeError;
use crate::rule_system::Onto;
use crate::state::{BattleState, TrackMove, UnitId};
use crate::systems::Ruleset;
use crate::ErrorCode;

/// What the event list says beyond the state: which events are in force, and what undo and
/// redo would take.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct History {
    /// Events taken back by an undo (and not redone).
    pub undone: BTreeSet<u64>,
    /// Applied events whose roll was edited: the seq of the edit in force.
    pub edited: BTreeMap<u64, u64>,
    /// The event an undo would take back.
    pub undo: Option<u64>,
    /// The event a redo would put back.
    pub redo: Option<u64>,
}

impl History {
    pub fn of(events: &[Event]) -> History {
        let mut h = History::default();
        let mut redo_stack: Vec<u64> = Vec::new();
        for (i, e) in events.iter().enumerate() {
            match &e.body {
                EventBody::Undone { event } => {
                    h.undone.insert(*event);
                    redo_stack.push(*event);
                }
                EventBody::Redone { event } => {
                    h.undone.remove(event);
                    redo_stack.retain(|x| x != event);
                }
                EventBody::UndoneTo { event } => {
                    let taken: Vec<u64> = events[..i]
                        .iter()
                        .filter(|x| {
                            x.seq > *event && x.body.undoable() && !h.undone.contains(&x.seq)
                        })
                        .map(|x| x.seq)
                        .collect();
                    // The latest first onto the stack, so redo brings back the earliest first.
                    for seq in taken.into_iter().rev() {
                        h.undone.insert(seq);
                        redo_stack.push(seq);
                    }
                }
                b if b.undoable() => redo_stack.clear(),
                _ => {}
            }
        }
        for e in events {
            if let EventBody::RollEdited { event, .. } = &e.body {
                if !h.undone.contains(&e.seq) {
                    h.edited.insert(*event, e.seq);
                }
            }
        }
        h.undo = events
            .iter()
            .rev()
            .find(|e| e.body.undoable() && !h.undone.contains(&e.seq))
            .map(|e| e.seq);
        h.redo = redo_stack.last().copied();
        h
    }

    pub fn in_force(&self, seq: u64) -> bool {
        !self.undone.contains(&seq)
    }
}

/// Folds a battle's events into its state. The first event must create the battle; an event
/// that does not fit (a unit added twice, a change to a side that does not exist) is an error,
/// which is what keeps an import or a bad write from becoming a battle.
pub fn fold(ruleset: &Ruleset, events: &[Event]) -> Result<(BattleState, History), RefereeError> {
    let history = History::of(events);
    let mut state = match events.first().map(|e| &e.body) {
        Some(EventBody::Created { setup }) => {
            check_setup(setup, &ruleset.info.id)?;
            ruleset.system.check_setup(setup)?;
            BattleState::new(setup)
        }
        _ => {
            return Err(RefereeError::new(
                ErrorCode::BattleInvalidEvents,
                "a battle's first event creates it",
            )
            .field("events[0]"))
        }
    };
    let edits: BTreeMap<u64, &Event> = events
        .iter()
        .filter(|e| history.edited.values().any(|s| *s == e.seq))
        .map(|e| (e.seq, e))
        .collect();
    // The earliest event whose roll was edited: every event after it was worked out against a
    // battle that no longer stands.
    let first_edited = history.edited.keys().next().copied();
    let mut last = 0u64;
    for (i, e) in events.iter().enumerate() {
        if i > 0 && e.seq <= last {
            return Err(RefereeError::new(
                ErrorCode::BattleInvalidEvents,
                format!(
                    "event {} comes after event {last}: events are in order",
                    e.seq
                ),
            )
            .field(format!("events[{i}].seq")));
        }
        last = e.seq;
        if !history.in_force(e.seq) {
            continue;
        }
        let field = format!("events[{i}]");
        match &e.body {
            EventBody::Created { .. } if i > 0 => {
                return Err(RefereeError::new(
                    ErrorCode::BattleInvalidEvents,
                    "a battle is created once",
                )
                .field(field))
            }
            EventBody::Created { .. } => {}
            EventBody::UnitAdded { .. }
            | EventBody::UnitEdited { .. }
            | EventBody::UnitRemoved { .. } => fold_unit(ruleset, &mut state, &e.body, &field)?,
            EventBody::Applied {
                changes,
                action,
                targets,
                ..
            } => {
                let changes = match history.edited.get(&e.seq).and_then(|s| edits.get(s)) {
                    Some(Event {
                        body: EventBody::RollEdited { changes, .. },
                        ..
                    }) => changes,
                    _ => changes,
                };
                let after_edit = first_edited.is_some_and(|edited| edited < e.seq);
                let changes = landing(ruleset, &state, changes, Some(targets), after_edit)?;
                state.note_combat(e.seq, action, targets);
                let free = free_leaders(&state);
                apply_changes(ruleset, &mut state, &changes, e.seq)?;
                hold_captives(&mut state, &free, targets);
            }
            EventBody::Adjusted { changes, .. } => {
                let after_edit = first_edited.is_some_and(|edited| edited < e.seq);
                let changes = landing(ruleset, &state, changes, None, after_edit)?;
                apply_changes(ruleset, &mut state, &changes, e.seq)?
            }
            EventBody::TurnAdvanced { turn, phase } => turn_to(ruleset, &mut state, *turn, phase),
            EventBody::Undone { event } | EventBody::Redone { event } => {
                if !earlier(events, i, *event).is_some_and(|x| x.body.may_be_taken_back()) {
                    return Err(RefereeError::new(
                        ErrorCode::BattleInvalidEvents,
                        format!("undo or redo of event {event}, which is not an event that can be undone"),
                    )
                    .field(field));
                }
            }
            EventBody::UndoneTo { event } => {
                if earlier(events, i, *event).is_none() {
                    return Err(RefereeError::new(
                        ErrorCode::BattleInvalidEvents,
                        format!("undo back to event {event}, which does not come before it"),
                    )
                    .field(field));
                }
            }
            EventBody::RollEdited { event, .. } => {
                if !earlier(events, i, *event)
                    .is_some_and(|x| matches!(x.body, EventBody::Applied { .. }))
                {
                    return Err(RefereeError::new(
                        ErrorCode::BattleInvalidEvents,
                        format!("roll edit of event {event}, which applied no result"),
                    )
                    .field(field));
                }
            }
        }
    }
    Ok((state, history))
}

/// The event `seq` among those before the `i`th, which the fold has already seen in order: a
/// binary search, so a battle of many undos opens in n log n, not n².
fn earlier(events: &[Event], i: usize, seq: u64) -> Option<&Event> {
    let before = &events[..i];
    before
        .binary_search_by_key(&seq, |x| x.seq)
        .ok()
        .map(|k| &before[k])
}

/// A new turn or phase: the moves the results called for were the last phase's.
/// A new turn also lifts the once-per-turn limits and ends the effects that last until the turn
/// ends; a phase of the same turn keeps them.
pub fn turn_to(ruleset: &Ruleset, state: &mut BattleState, turn: u32, phase: &Option<String>) {
    if state.turn != turn {
        state.this_turn.clear();
        state.morale_moves.clear();
        for u in state.units.values_mut() {
            ruleset.system.end_of_turn(u);
        }
    }
    state.turn = turn;
    state.phase.clone_from(phase);
    for u in state.units.values_mut() {
        u.moves.clear();
    }
}

/// Folds an event that adds, edits or removes a roster unit.
pub fn fold_unit(
    ruleset: &Ruleset,
    state: &mut BattleState,
    body: &EventBody,
    field: &str,
) -> Result<(), RefereeError> {
    match body {
        EventBody::UnitAdded { id, unit } => {
            if state.units.contains_key(id) || state.removed.contains(id) {
                return Err(RefereeError::new(
                    ErrorCode::BattleInvalidEvents,
                    format!("unit #{id} is added twice"),
                )
                .field(field));
            }
            if state.side_index(&unit.side).is_none() {
                return Err(state.unknown_side(&unit.side, &format!("{field}.unit.side")));
            }
            let u = ruleset.system.enter(*id, unit, &format!("{field}.unit"))?;
            state.units.insert(*id, u);
        }
        EventBody::UnitEdited { id, unit } => {
            let Some(old) = state.units.get(id) else {
                return Err(RefereeError::new(
                    ErrorCode::BattleInvalidEvents,
                    format!("an edit of unit #{id}, which is not on the roster"),
                )
                .field(field));
            };
            if state.side_index(&unit.side).is_none() {
                return Err(state.unknown_side(&unit.side, &format!("{field}.unit.side")));
            }
            let u = ruleset.system.edit(old, unit, &format!("{field}.unit"))?;
            state.units.insert(*id, u);
        }
        EventBody::UnitRemoved { id } => {
            if state.units.remove(id).is_none() {
                return Err(RefereeError::new(
                    ErrorCode::BattleInvalidEvents,
                    format!("a removal of unit #{id}, which is not on the roster"),
                )
                .field(field));
            }
            state.removed.insert(*id);
        }
        _ => {}
    }
    Ok(())
}

fn check_setup(setup: &super::BattleSetup, ruleset: &str) -> Result<(), RefereeError> {
    if setup.ruleset != ruleset {
        return Err(RefereeError::new(
            ErrorCode::BattleInvalidSetup,
            format!(
                "the battle is a “{}” battle, not “{ruleset}”",
                setup.ruleset
            ),
        )
        .field("ruleset"));
    }
    if setup.sides.len() != 2 {
        return Err(RefereeError::new(
            ErrorCode::BattleInvalidSetup,
            "a battle has exactly two sides",
        )
        .field("sides"));
    }
    if setup.sides[0].name == setup.sides[1].name
        || setup.sides.iter().any(|s| s.name.trim().is_empty())
    {
        return Err(RefereeError::new(
            ErrorCode::BattleInvalidSetup,
            "each side needs its own, non-empty name",
        )
        .field("sides"));
    }
    if setup.name.trim().is_empty() {
        return Err(
            RefereeError::new(ErrorCode::BattleInvalidSetup, "name the battle").field("name"),
        );
    }
    Ok(())
}

/// The units whose leader is not captured: a result that captures one of them makes its
/// attackers his captors.
pub fn free_leaders(state: &BattleState) -> BTreeSet<UnitId> {
    state
        .units
        .values()
        .filter(|u| u.leader != Some(crate::state::LeaderFate::Captured))
        .map(|u| u.id)
        .collect()
}

/// The leaders a result captured are held by the units of the enemy side that attacked (ITACS
/// 6.1.4: "stack the leader under the attacking units' counter"), so that their elimination can
/// free him.
pub fn hold_captives(
    state: &mut BattleState,
    free_before: &BTreeSet<UnitId>,
    targets: &BTreeMap<String, Vec<UnitId>>,
) {
    let attackers = targets.get("attacker").cloned().unwrap_or_default();
    let side_of = |state: &BattleState, id: &UnitId| state.units.get(id).map(|u| u.side.clone());
    let taken: Vec<(UnitId, String)> = state
        .units
        .values()
        .filter(|u| {
            free_before.contains(&u.id) && u.leader == Some(crate::state::LeaderFate::Captured)
        })
        .map(|u| (u.id, u.side.clone()))
        .collect();
    for (id, side) in taken {
        let captors: Vec<UnitId> = attackers
            .iter()
            .filter(|a| side_of(state, a).is_some_and(|s| s != side))
            .copied()
            .collect();
        if let Some(u) = state.units.get_mut(&id) {
            u.held_by = captors;
        }
    }
}

/// Applies concrete changes. A unit already lost (after an edited roll replays) is recorded as
/// a conflict, not an error: the umpire sees what could not be applied.
pub fn apply_changes(
    ruleset: &Ruleset,
    state: &mut BattleState,
    changes: &[AppliedChange],
    seq: u64,
) -> Result<(), RefereeError> {
    state.results += 1;
    // The units on the table before this result: "if eliminated" asks of them (6.1.4).
    let standing: BTreeSet<UnitId> = state
        .units
        .values()
        .filter(|u| !u.lost)
        .map(|u| u.id)
        .collect();
    for c in changes {
        if let (Subject::Unit(id), Change::MoraleIfEliminated { boxes }) = (&c.subject, &c.change) {
            if let Some(enemy) = eliminated_by_this(state, &standing, *id) {
                let change = Change::Morale { boxes: *boxes };
                land_on_side(ruleset, state, enemy, &change, c, seq);
            }
            continue;
        }
        if let (Subject::Unit(id), Change::SplitOff { units, into, label }) =
            (&c.subject, &c.change)
        {
            split_off(ruleset, state, *id, *units, *into, label, seq)?;
            continue;
        }
        match &c.subject {
            Subject::Unit(id) => match state.units.get_mut(id) {
                Some(u) if !u.lost || matches!(c.change, Change::LeaderFreed) => {
                    if !ruleset.system.land(u, &c.change) {
                        state.conflicts.push(format!(
                            "#{seq}: {} takes no such change under these rules; not applied: {}",
                            u.label, c.text
                        ));
                    }
                }
                Some(u) => state.conflicts.push(format!(
                    "#{seq}: {} is already lost; not applied: {}",
                    u.label, c.text
                )),
                None if state.removed.contains(id) => state.conflicts.push(format!(
                    "#{seq}: unit #{id} was removed from the roster; not applied: {}",
                    c.text
                )),
                None => {
                    return Err(RefereeError::new(
                        ErrorCode::BattleInvalidEvents,
                        format!("event {seq} changes unit #{id}, which was never added"),
                    ))
                }
            },
            Subject::Side(name) => {
                let Some(i) = state.side_index(name) else {
                    return Err(state.unknown_side(name, "subject"));
                };
                land_on_side(ruleset, state, i, &c.change, c, seq);
            }
        }
    }
    Ok(())
}

/// Some of an entry's units leave it as the new entry `into` (a stack restacking): the system
/// says what each keeps. A number already taken is a bad event; an entry lost or with no more
/// units than that is a conflict, as any change that cannot land.
fn split_off(
    ruleset: &Ruleset,
    state: &mut BattleState,
    id: UnitId,
    units: u32,
    into: UnitId,
    label: &str,
    seq: u64,
) -> Result<(), RefereeError> {
    if state.units.contains_key(&into) || state.removed.contains(&into) {
        return Err(RefereeError::new(
            ErrorCode::BattleInvalidEvents,
            format!("event {seq} makes unit #{into}, which is already on the roster"),
        ));
    }
    let Some(unit) = state.units.get(&id) else {
        return Err(RefereeError::new(
            ErrorCode::BattleInvalidEvents,
            format!("event {seq} changes unit #{id}, which is not on the roster"),
        ));
    };
    match ruleset
        .system
        .split(unit, units, into, label)
        .filter(|_| !unit.lost)
    {
        Some((remaining, part)) => {
            state.units.insert(id, remaining);
            state.units.insert(into, part);
        }
        None => {
            state.conflicts.push(format!(
                "#{seq}: {} cannot give up {units} of its units; not applied: {label}",
                unit.label
            ));
            // What the event does to the new entry is then a conflict too, never a failed fold.
            state.removed.insert(into);
        }
    }
    Ok(())
}

/// The side facing a unit this result took off the table; None when it stands, or was lost
/// before.
fn eliminated_by_this(
    state: &BattleState,
    standing: &BTreeSet<UnitId>,
    id: UnitId,
) -> Option<usize> {
    let u = state
        .units
        .get(&id)
        .filter(|u| u.lost && standing.contains(&id))?;
    let own = state.side_index(&u.side)?;
    (0..state.sides.len()).find(|i| *i != own)
}

/// Lands a change on side `i`, then the changes it calls for on each of its units on the table;
/// a move of the MORALE counter is noted for the turn's phase-9 step.
fn land_on_side(
    ruleset: &Ruleset,
    state: &mut BattleState,
    i: usize,
    change: &Change,
    c: &AppliedChange,
    seq: u64,
) {
    let name = state.sides[i].name.clone();
    let counter = state.morale_track;
    match ruleset.system.land_on_side(state, i, change, &c.rule) {
        Some(on_units) => {
            for u in state
                .units
                .values_mut()
                .filter(|u| u.side == name && !u.lost)
            {
                for change in &on_units {
                    ruleset.system.land(u, change);
                }
            }
        }
        None => state
            .conflicts
            .push(format!("#{seq}: {name}: a side cannot take “{}”", c.text)),
    }
    if state.morale_track != counter && matches!(change, Change::Morale { .. }) {
        state.morale_moves.push(TrackMove {
            boxes: state.morale_track - counter,
            rule: c.rule.clone(),
        });
    }
}

/// An event's changes as the fold lands them. After an earlier roll was edited, what they bring
/// about is derived again from the battle as it now stands: the stored follow-ons were worked out
/// against the roll as it was (a leader freed by the fall of captors the edit no longer
/// captures him with). A change stored without the mark (a battle recorded before it was kept)
/// stays as it is and is not derived a second time.
fn landing<'a>(
    ruleset: &Ruleset,
    state: &BattleState,
    changes: &'a [AppliedChange],
    targets: Option<&BTreeMap<String, Vec<UnitId>>>,
    after_edit: bool,
) -> Result<Cow<'a, [AppliedChange]>, RefereeError> {
    if !after_edit {
        return Ok(Cow::Borrowed(changes));
    }
    let own: Vec<AppliedChange> = changes.iter().filter(|c| !c.follow_on).cloned().collect();
    let count = own.len();
    let mut landed = with_follow_ons(ruleset, state, own, targets)?;
    let derived = landed.split_off(count);
    landed.extend(derived.into_iter().filter(|f| !landed_before(changes, f)));
    Ok(Cow::Owned(landed))
}

/// A follow-on an old battle stored as one of the result's own changes.
fn landed_before(changes: &[AppliedChange], f: &AppliedChange) -> bool {
    changes
        .iter()
        .any(|c| !c.follow_on && c.subject == f.subject && c.change == f.change)
}

/// A result's changes and what they bring about once landed (a DBMM command disheartened by them
/// removes its 0 ME elements), all in the one event: undo takes them back together, and a replay
/// lands exactly what the umpire saw. A result's `targets` make its attackers the captors of the
/// leaders it captures, as the fold will (an ITACS captive goes where they are).
pub(super) fn with_follow_ons(
    ruleset: &Ruleset,
    state: &BattleState,
    mut changes: Vec<AppliedChange>,
    targets: Option<&BTreeMap<String, Vec<UnitId>>>,
) -> Result<Vec<AppliedChange>, RefereeError> {
    let mut after = state.clone();
    apply_changes(ruleset, &mut after, &changes, 0)?;
    if let Some(targets) = targets {
        hold_captives(&mut after, &free_leaders(state), targets);
    }
    changes.extend(
        ruleset
            .system
            .follow_on(state, &after)
            .into_iter()
            .map(|f| AppliedChange {
                subject: match f.onto {
                    Onto::Unit(id) => Subject::Unit(id),
                    Onto::Side(i) => Subject::Side(
                        state
                            .sides
                            .get(i)
                            .map(|s| s.name.clone())
                            .unwrap_or_default(),
                    ),
                },
                change: f.change,
                text: f.text,
                rule: f.rule,
                ruling: f.ruling,
                follow_on: true,
            }),
    );
    Ok(changes)
}
