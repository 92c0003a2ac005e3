//! The append-only events a battle is folded from.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::contract::Change;
use crate::state::{BattleSetup, UnitId, UnitSpec};

/// One event with its place in the battle and when it was recorded (RFC 3339, stamped by the
/// caller: the core reads no clock).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Event {
    pub seq: u64,
    pub at: String,
    pub body: EventBody,
}

/// Where the dice of an applied result came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DiceSource {
    /// The action takes no dice.
    None,
    /// Physical dice, faces entered by the umpire.
    Physical,
    /// The app's seeded generator: the seed replays the roll.
    App { seed: u32 },
}

/// Who a concrete change lands on.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum Subject {
    Unit(UnitId),
    /// A side, by name (victory points, the MORALE track, an army's panic).
    Side(String),
}

/// A change made to one unit or side, with the rule behind it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct AppliedChange {
    pub subject: Subject,
    pub change: Change,
    pub text: String,
    pub rule: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub ruling: Option<String>,
    /// Brought about by the event's other changes once landed (a command disheartened by a loss
    /// removes its 0 ME elements), not by the result itself: after an earlier roll is edited,
    /// the fold derives these again from the battle as it then stands. Absent in battles
    /// recorded before it was kept, and written only when set.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(skip)]
    pub follow_on: bool,
}

// Not a UI type: the window sees events as log entries.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum EventBody {
    /// The battle begins.
    Created {
        setup: BattleSetup,
    },
    UnitAdded {
        id: UnitId,
        unit: UnitSpec,
    },
    /// The umpire corrected a unit's entry: it takes the new label, side, command, role and
    /// stats, and keeps the losses and markers it has.
    UnitEdited {
        id: UnitId,
        unit: UnitSpec,
    },
    /// The umpire took a unit off the roster (entered by mistake): it is gone from the battle,
    /// neither lost nor counted for victory.
    UnitRemoved {
        id: UnitId,
    },
    /// A resolution's effects applied to the roster. The situation and the full resolution are
    /// kept beside the event (they are not needed to fold it).
    Applied {
        action: String,
        dice: Vec<u32>,
        source: DiceSource,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rolled_by: Option<String>,
        result: String,
        /// The result in words, as the screen showed it ("Hoplites 1 takes 3"); absent in battles
        /// recorded before results had words of their own.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        words: Option<String>,
        /// Each effect target (attacker, defender, hex:A, unit:L) → the roster units.
        targets: BTreeMap<String, Vec<UnitId>>,
        /// The players' choices: effect index → the units chosen, one per loss.
        #[serde(default)]
        choices: BTreeMap<String, Vec<UnitId>>,
        changes: Vec<AppliedChange>,
        /// The client's key for the resolution it showed: a second apply of the same shown
        /// result (a double tap, a retried request) is refused while this event is in force.
        /// Absent in battles recorded before keys existed, and written only when given.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        apply_key: Option<String>,
    },
    /// The umpire changed the roster by hand (a quick edit).
    Adjusted {
        changes: Vec<AppliedChange>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    TurnAdvanced {
        turn: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        phase: Option<String>,
    },
    /// Takes back an event; later events stay.
    Undone {
        event: u64,
    },
    /// Puts back an undone event.
    Redone {
        event: u64,
    },
    /// Takes back, in one step, every undoable event after `event` still in force: the battle
    /// as it stood at that entry of the log (turn changes, being navigation, stay). Redo puts
    /// them back one at a time, the earliest first.
    UndoneTo {
        event: u64,
    },
    /// A past roll corrected: the applied event now has these dice and changes; the later events
    /// are replayed on top.
    RollEdited {
        event: u64,
        dice: Vec<u32>,
        source: DiceSource,
        result: String,
        /// The new result in words, as for an applied result.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        words: Option<String>,
        changes: Vec<AppliedChange>,
    },
}

impl EventBody {
    /// Events that change the battle and can be undone. A turn or phase change is navigation,
    /// not a change to take back: the umpire sets the phase back directly, so undo after a
    /// combat and a phase change takes back the combat, and a phase change keeps the redo.
    pub fn undoable(&self) -> bool {
        !matches!(
            self,
            EventBody::Created { .. }
                | EventBody::TurnAdvanced { .. }
                | EventBody::Undone { .. }
                | EventBody::Redone { .. }
                | EventBody::UndoneTo { .. }
        )
    }

    /// What an undo or redo event may name: the undoable events, and turn changes, which battles
    /// recorded before turns left the undo stack could undo (their undos are honoured).
    pub fn may_be_taken_back(&self) -> bool {
        self.undoable() || matches!(self, EventBody::TurnAdvanced { .. })
    }

    /// The event's kind, as serialized.
    pub fn kind(&self) -> &'static str {
        match self {
            EventBody::Created { .. } => "created",
            EventBody::UnitAdded { .. } => "unit_added",
            EventBody::UnitEdited { .. } => "unit_edited",
            EventBody::UnitRemoved { .. } => "unit_removed",
            EventBody::Applied { .. } => "applied",
            EventBody::Adjusted { .. } => "adjusted",
            EventBody::TurnAdvanced { .. } => "turn_advanced",
            EventBody::Undone { .. } => "undone",
            EventBody::Redone { .. } => "redone",
            EventBody::UndoneTo { .. } => "undone_to",
            EventBody::RollEdited { .. } => "roll_edited",
        }
    }

    /// The table's code a result's words end with ("-1/D2" of "Knights loses 1 SP; Boyars
    /// retreats 2 hexes (-1/D2)"), for a screen that shows it apart as a small tag.
    pub fn result_tag(&self) -> Option<&str> {
        let (EventBody::Applied { result, words, .. }
        | EventBody::RollEdited { result, words, .. }) = self
        else {
            return None;
        };
        let said = words.as_deref()?;
        (said.len() > result.len() + 3
            && said.ends_with(')')
            && said[..said.len() - 1].ends_with(result.as_str())
            && said[..said.len() - 1 - result.len()].ends_with(" ("))
        .then_some(result.as_str())
    }

    /// A line for the log. `label` names a unit by its id as the battle knew it before the
    /// event (a removed unit's event carries only its id).
    pub fn describe(&self, label: impl Fn(UnitId) -> Option<String>) -> String {
        self.describe_in(label, &[])
    }

    /// A line for the log, a phase named as the system's sequence names it ("Turn 2, Infantry
    /// attack"), never by its key.
    pub fn describe_in(
        &self,
        label: impl Fn(UnitId) -> Option<String>,
        phases: &[crate::rule_system::Phase],
    ) -> String {
        // An entry this event splits off is not on the roster before it: named as the event
        // names it.
        let split_off = |id: UnitId| match self {
            EventBody::Applied { changes, .. } => changes.iter().find_map(|c| match &c.change {
                Change::SplitOff { into, label, .. } if *into == id => Some(label.clone()),
                _ => None,
            }),
            _ => None,
        };
        let name = |id: &UnitId| {
            label(*id)
                .or_else(|| split_off(*id))
                .unwrap_or_else(|| format!("unit #{id}"))
        };
        match self {
            // The system is on the battle's head; its id is no word for the log.
            EventBody::Created { setup } => format!(
                "Battle “{}” begins: {}",
                setup.name,
                setup
                    .sides
                    .iter()
                    .map(|s| s.name.as_str())
                    .collect::<Vec<_>>()
                    .join(" v ")
            ),
            EventBody::UnitAdded { unit, .. } => {
                format!("Added {} to {}", unit.label, unit.side)
            }
            EventBody::UnitEdited { id, unit } => match label(*id) {
                Some(before) if before != unit.label => {
                    format!("Edited {} (was {before})", unit.label)
                }
                _ => format!("Edited {}", unit.label),
            },
            EventBody::UnitRemoved { id } => format!("Removed {}", name(id)),
            EventBody::Applied {
                action,
                dice,
                source,
                rolled_by,
                result,
                words: result_words,
                targets,
                changes,
                ..
            } => {
                let dice = describe_dice(dice, source, rolled_by.as_deref());
                // A check that sets the battle's clock says so, not the period it read ("Daylight:
                // Day"): an undo label says what it takes back (p. 23).
                if let Some(Change::BattleClock {
                    start,
                    climate,
                    season,
                    ..
                }) = changes
                    .iter()
                    .map(|c| &c.change)
                    .find(|c| matches!(c, Change::BattleClock { .. }))
                {
                    return format!(
                        "The battle's clock set: the first bound at {start}, {climate} {season}{dice}"
                    );
                }
                // Likewise the terrain a player chose (p. 20).
                if let Some(Change::TerrainChosen { chooser, features }) = changes
                    .iter()
                    .map(|c| &c.change)
                    .find(|c| matches!(c, Change::TerrainChosen { .. }))
                {
                    return format!(
                        "The {chooser}'s terrain chosen: {}",
                        crate::contract::features_text(features)
                    );
                }
                // The action in words ("close_combat" → "Close combat"): no id on the log.
                // The rules' abbreviations stay as the rules write them ("pip_cost" → "PIP cost").
                let mut words = action
                    .split('_')
                    .map(|w| match w {
                        "pip" => "PIP",
                        "pips" => "PIPs",
                        "me" => "ME",
                        "bua" => "BUA",
                        other => other,
                    })
                    .collect::<Vec<_>>()
                    .join(" ");
                if let Some(first) = words.get(..1) {
                    words = first.to_uppercase() + &words[1..];
                }
                // The units it was applied to, so an undo label says which combat it takes back.
                let mut units: Vec<String> = Vec::new();
                for id in targets.values().flatten() {
                    let n = name(id);
                    if !units.contains(&n) {
                        units.push(n);
                    }
                }
                let on = if units.is_empty() {
                    String::new()
                } else {
                    format!(" — {}", units.join(", "))
                };
                // The result in its own words; in a battle recorded before results had them, a
                // result named by its key ("recoil_or_spent") in words, a table's code ("1D") as
                // printed; an answer named after its action ("weather") says nothing more.
                if let Some(said) = result_words.as_deref().filter(|_| result != action) {
                    format!("{words}{on}: {said}{dice}")
                } else if result == action {
                    format!("{words}{on}{dice}")
                } else if result
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '_' || c == '/')
                {
                    // DBMM names both elements' fates: "pursue/destroyed" → "pursue / destroyed".
                    format!(
                        "{words}{on}: {}{dice}",
                        result.replace('_', " ").replace('/', " / ")
                    )
                } else {
                    format!("{words}{on}: {result}{dice}")
                }
            }
            EventBody::Adjusted { changes, reason } => format!(
                "Adjusted{}: {}",
                reason
                    .as_ref()
                    .map(|r| format!(" ({r})"))
                    .unwrap_or_default(),
                changes
                    .iter()
                    .map(|c| c.text.as_str())
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            EventBody::TurnAdvanced { turn, phase } => turn_words(*turn, phase.as_deref(), phases),
            EventBody::Undone { event } => format!("Undo #{event}"),
            EventBody::Redone { event } => format!("Redo #{event}"),
            EventBody::UndoneTo { event } => format!("Undo back to #{event}"),
            EventBody::RollEdited {
                event,
                dice,
                source,
                result,
                words,
                ..
            } => format!(
                "Roll of #{event} edited: {}{}",
                words.as_deref().unwrap_or(result),
                describe_dice(dice, source, None)
            ),
        }
    }
}

/// "Turn 2, Infantry attack": the phase by its name in the sequence; a key the sequence does not
/// know (a battle begun under other rules) in words.
pub fn turn_words(turn: u32, phase: Option<&str>, phases: &[crate::rule_system::Phase]) -> String {
    match phase {
        Some(key) => {
            let name = phases
                .iter()
                .find(|p| p.key == key)
                .map(|p| p.name.clone())
                .unwrap_or_else(|| {
                    let w = crate::error::words(key);
                    match w.get(..1) {
                        Some(first) => first.to_uppercase() + &w[1..],
                        None => w,
                    }
                });
            format!("Turn {turn}, {name}")
        }
        None => format!("Turn {turn}"),
    }
}

fn describe_dice(dice: &[u32], source: &DiceSource, by: Option<&str>) -> String {
    if dice.is_empty() {
        return String::new();
    }
    let faces = dice
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let how = match source {
        DiceSource::App { seed } => format!("app dice, seed {seed}"),
        DiceSource::Physical => "physical dice".to_string(),
        DiceSource::None => String::new(),
    };
    let by = by.map(|b| format!(", rolled by {b}")).unwrap_or_default();
    format!(" (dice {faces}; {how}{by})")
}
