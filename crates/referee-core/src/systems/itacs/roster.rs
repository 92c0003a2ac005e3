//! ITACS units on a battle's roster: the unit form, a unit's preview, the typed state of a stack
//! (its D, Break and Rout markers, 5.0–5.3), how a result's changes land on it, and its words.

use serde::Serialize;
use serde_json::Value;

use super::data::{ItacsData, UnitType};
use super::situation::{resolve_units, stack_state, Unit, UnitEntry};
use super::state::HexState;
use crate::contract::{Change, Chooser};
use crate::error::RefereeError;
use crate::rule_system::form::{
    option_label, printed, rule_for, Field, FieldKind, PrintedValue, UnitField, UnitOption,
    UnitPreview,
};
use crate::rule_system::resolve::parse_situation;
use crate::state::{QuickEdit, SystemUnit, UnitSpec, UnitState, UnitWords};

/// A roster entry: a stack of identical units in one hex, with its markers.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ItacsUnit {
    /// The entry as the umpire made it (its count the units it began with); a conversion
    /// (6.4, 6.5) changes its type. Shown as the unit's entry, not again in its state.
    #[serde(skip)]
    pub entry: UnitEntry,
    pub d_markers: u32,
    pub broken: bool,
    pub rout: bool,
    /// It has fired its throwing weapons, which it does once per game (6.6).
    pub threw: bool,
    /// Elephants and fleets never break nor rout (6.9.2, 6.7.5).
    pub never_breaks: bool,
    /// An elephant: disrupted, it rampages and keeps its D marker (6.9.2).
    pub rampages: bool,
    pub rampaging: bool,
}

impl SystemUnit for ItacsUnit {
    fn entry(&self) -> serde_json::Result<Value> {
        serde_json::to_value(&self.entry)
    }
}

impl ItacsUnit {
    /// The stack as a situation takes it now: the units left in it (4.5.11).
    pub fn now(&self, strength: u32) -> UnitEntry {
        UnitEntry {
            count: strength,
            ..self.entry.clone()
        }
    }
}

/// The stack as the rules check it: its entry as the only unit of a hex, its fields the entry's own.
pub fn enter(data: &ItacsData, spec: &UnitSpec) -> Result<(u32, ItacsUnit), RefereeError> {
    let entry: UnitEntry = parse_situation(&spec.stats)?;
    let units = resolve_units(data, std::slice::from_ref(&entry), "").map_err(|e| {
        let own = e.field.as_deref().map(|f| {
            let f = f.strip_prefix("units[0]").unwrap_or(f);
            f.strip_prefix('.').unwrap_or(f).to_string()
        });
        RefereeError { field: own, ..e }
    })?;
    let stack = stack_state(data, &units, 0, false, false);
    Ok((
        entry.count,
        ItacsUnit {
            entry,
            d_markers: 0,
            broken: false,
            rout: false,
            threw: false,
            never_breaks: stack.never_breaks,
            rampages: stack.rampages,
            rampaging: false,
        },
    ))
}

/// An edit keeps the markers the stack carries.
pub fn keep(old: &ItacsUnit, new: &mut ItacsUnit) {
    new.d_markers = old.d_markers;
    new.broken = old.broken;
    new.rout = old.rout;
    new.threw = old.threw;
    new.rampaging = old.rampaging;
}

/// Lands a change on the stack: markers through the hex's own rules (5.0–5.3).
pub fn land(data: &ItacsData, unit: &mut UnitState, own: &mut ItacsUnit, change: &Change) -> bool {
    match change {
        Change::DMarkers { .. }
        | Change::RemoveDMarkers { .. }
        | Change::LoseUnits { .. }
        | Change::DestroyAll
        | Change::MustBreak
        | Change::Break
        | Change::Rout
        | Change::RemoveBreak
        | Change::RemoveRout => {
            let mut hex = HexState {
                units: unit.strength,
                d_markers: own.d_markers,
                broken: own.broken,
                rout: own.rout,
                square: false,
                never_breaks: own.never_breaks,
                rampages: own.rampages,
                rampaging: own.rampaging,
            };
            hex.apply(change, &data.markers);
            unit.strength = hex.units;
            own.d_markers = hex.d_markers;
            own.broken = hex.broken;
            own.rout = hex.rout;
            own.rampaging = hex.rampaging;
        }
        Change::ConvertTo { unit_type } => own.entry.unit_type = Some(unit_type.clone()),
        Change::ThrowingWeaponsUsed => own.threw = true,
        _ => return false,
    }
    true
}

/// Throwing weapons are fired once per game (6.6): a unit that threw may not again.
pub fn refuse(
    unit: &UnitState,
    own: &ItacsUnit,
    change: &Change,
    rule: &str,
) -> Option<RefereeError> {
    (own.threw && *change == Change::ThrowingWeaponsUsed).then(|| {
        RefereeError::new(
            "battle.once_per_game",
            format!(
                "{} has already fired its throwing weapons in this battle: they are used once per game. Undo that fire first, or fire without them",
                unit.named()
            ),
        )
        .field("attackers")
        .rule(rule)
    })
}

/// The stack in the rules' words: "2/4, 1 D, Break".
pub fn words(data: &ItacsData, unit: &UnitState, own: &ItacsUnit) -> UnitWords {
    let mut parts = vec![format!("{}/{}", unit.strength, unit.starting)];
    if unit.lost {
        parts.push("lost".into());
    }
    if own.d_markers > 0 {
        parts.push(format!("{} D", own.d_markers));
    }
    if own.broken {
        parts.push("Break".into());
    }
    if own.rout {
        parts.push("Rout".into());
    }
    if own.threw {
        parts.push("threw".into());
    }
    crate::rule_system::leader_parts(unit, &mut parts);
    let type_name = own
        .entry
        .unit_type
        .as_ref()
        .map(|k| match data.unit_types.get(k) {
            Some(t) => option_label(k, &t.name),
            None => k.clone(),
        })
        .unwrap_or_default();
    let quick_edits = if unit.lost {
        Vec::new()
    } else {
        let q = |label: &str, change: Change| QuickEdit {
            label: label.into(),
            change,
        };
        vec![
            q("+D", Change::DMarkers { count: 1 }),
            q("−D", Change::RemoveDMarkers { count: 1 }),
            q(
                "−1 unit",
                Change::LoseUnits {
                    count: 1,
                    chosen_by: Chooser::Defender,
                },
            ),
            if own.broken {
                q("Unbreak", Change::RemoveBreak)
            } else {
                q("Break", Change::Break)
            },
        ]
    };
    UnitWords {
        type_name,
        summary: parts.join(", "),
        quick_edits,
    }
}

fn type_values(d: &ItacsData, t: &UnitType) -> (Vec<String>, Vec<PrintedValue>) {
    let mut fills = Vec::new();
    let mut values = Vec::new();
    if let Some(c) = &t.class {
        fills.push("class".to_string());
        let name = d
            .unit_classes
            .get(c)
            .map(|k| format!("{c} ({})", k.name))
            .unwrap_or_else(|| c.clone());
        values.push(printed("Unit class", name, &rule_for(&t.rule, "class")));
    }
    if let Some(c) = &t.combat {
        fills.push("combat".to_string());
        values.push(printed(
            "Combat strength",
            c,
            &rule_for(&t.rule, "strength"),
        ));
    }
    if let Some(f) = t.fire {
        fills.push("fire".to_string());
        values.push(printed("Fire strength", f, &rule_for(&t.rule, "fire")));
    }
    if let Some(m) = t.movement {
        fills.push("movement".to_string());
        values.push(printed(
            "Movement points",
            m,
            &rule_for(&t.rule, "movement"),
        ));
    }
    if t.shields {
        fills.push("shields".to_string());
        values.push(printed("Shields", "yes", &rule_for(&t.rule, "shields")));
    }
    (fills, values)
}

pub fn fields(d: &ItacsData) -> Vec<UnitField> {
    let types = d
        .unit_types
        .iter()
        .map(|(k, t)| {
            let (fills, printed) = type_values(d, t);
            UnitOption {
                key: k.clone(),
                label: option_label(k, &t.name),
                fills,
                printed,
            }
        })
        .collect();
    let classes = d
        .unit_classes
        .iter()
        .filter(|(_, c)| !c.leader)
        .map(|(k, c)| UnitOption {
            key: k.clone(),
            label: format!("{} ({k})", c.name),
            fills: Vec::new(),
            printed: Vec::new(),
        })
        .collect();
    vec![
        Field::new("type", "Unit type", "2.4.5", FieldKind::Choice)
            .required()
            .help("The code in the top left corner of the counter.")
            .options(types),
        Field::new("count", "Units in the hex", "2.4", FieldKind::Number)
            .required()
            .default(Value::from(1))
            .range(Some(1), None)
            .help("How many identical units of this type stand in the hex."),
        Field::new("class", "Unit class", "2.4.4", FieldKind::Choice)
            .help("The letter at the bottom of the counter, asked only when the rules do not give the type's class.")
            .options(classes),
        Field::new("combat", "Combat strength", "2.4.6", FieldKind::Text)
            .help("As printed on the counter: a number, a dot, or a number in square brackets."),
        Field::new("fire", "Fire strength", "2.4.6", FieldKind::Number)
            .range(Some(0), None)
            .help("As printed on the counter; a unit without one has a fire strength of 0."),
        Field::new("movement", "Movement points", "4.3", FieldKind::Number)
            .range(Some(0), None)
            .help("As printed on the counter."),
        Field::new("shields", "Shields", "4.2.5", FieldKind::Toggle)
            .help("The unit carries shields against missile fire."),
        Field::new("elite", "Elite", "4.2.6, 4.5.9", FieldKind::Toggle)
            .default(Value::from(false))
            .help("The scenario makes this unit elite."),
    ]
    .into_iter()
    .map(|f| f.0)
    .collect()
}

/// A unit's values from the tables, as the form is filled in.
pub fn preview(d: &ItacsData, stats: &Value) -> Result<UnitPreview, RefereeError> {
    let entry: UnitEntry = parse_situation(stats)?;
    let unit = Unit::resolve(d, &entry, "")?;
    let t = entry.unit_type.as_ref().and_then(|k| d.unit_types.get(k));
    let mut values = match t {
        Some(t) => type_values(d, t).1,
        None => Vec::new(),
    };
    let has = |values: &[PrintedValue], l: &str| values.iter().any(|v| v.label == l);
    if let (Some(c), false) = (&entry.class, has(&values, "Unit class")) {
        let name = d
            .unit_classes
            .get(c)
            .map(|k| k.name.clone())
            .unwrap_or_default();
        values.push(printed("Unit class", format!("{c} ({name})"), "2.4.4"));
    }
    if let (Some(c), false) = (&entry.combat, has(&values, "Combat strength")) {
        values.push(printed("Combat strength", c.text(), "2.4.6"));
    }
    if let (Some(f), false) = (entry.fire, has(&values, "Fire strength")) {
        values.push(printed("Fire strength", f, "2.4.6"));
    }
    if let (Some(m), false) = (entry.movement, has(&values, "Movement points")) {
        values.push(printed("Movement points", m, "4.3"));
    }
    if entry.elite {
        values.push(printed("Elite", "yes", "4.2.6, 4.5.9"));
    }
    let name = t
        .map(|t| t.name.clone())
        .unwrap_or_else(|| unit.label.clone());
    let mut summary = format!("{} × {name}", entry.count);
    if let Some(c) = &unit.class {
        summary.push_str(&format!(", class {c}"));
    }
    let combat = entry
        .combat
        .as_ref()
        .map(|c| c.text())
        .or_else(|| t.and_then(|t| t.combat.clone()));
    if let Some(c) = combat {
        summary.push_str(&format!(", combat {c}"));
    }
    if unit.fire > 0 {
        summary.push_str(&format!(", fire {}", unit.fire));
    }
    if entry.elite {
        summary.push_str(", elite");
    }
    Ok(UnitPreview { summary, values })
}
