//! DBMM elements on a battle's roster: the element form, an element's preview, its typed state
//! (how it left the table, p. 42), how an outcome lands on it, and its words.

use serde::Serialize;
use serde_json::Value;

use super::data::DbmmData;
use super::element::Element;
use super::morale::ElementState;
use crate::contract::Change;
use crate::error::RefereeError;
use crate::fate::Fate;
use crate::rule_system::form::{
    option_label, printed, Field, FieldKind, UnitField, UnitOption, UnitPreview,
};
use crate::rule_system::resolve::parse_situation;
use crate::state::{QuickEdit, SystemUnit, UnitSpec, UnitState, UnitWords};
use crate::ErrorCode;

/// An element on the roster.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DbmmElement {
    /// Shown as the unit's entry, not again in its state.
    #[serde(skip)]
    pub element: Element,
    /// In play, or how it left the table: the ME tallies count it by this (p. 42).
    pub state: ElementState,
    /// It sees, within 800p at this bound's end, an element of a broken friendly command: its
    /// command counts more ME lost until the bound ends (p. 43, R-DBMM-36).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub sees_broken: bool,
}

impl SystemUnit for DbmmElement {
    fn entry(&self) -> serde_json::Result<Value> {
        serde_json::to_value(&self.element)
    }
}

impl DbmmElement {
    /// The element as the sheet takes it, named as on the roster.
    pub fn now(&self, name: &str) -> Element {
        Element {
            name: name.to_string(),
            ..self.element.clone()
        }
    }
}

/// An element checked by the sheet's troop model.
pub fn enter(data: &DbmmData, spec: &UnitSpec) -> Result<(u32, DbmmElement), RefereeError> {
    let element: Element = parse_situation(&spec.stats)?;
    super::element::check(data, &element, "")?;
    Ok((
        1,
        DbmmElement {
            element,
            state: ElementState::InPlay,
            sees_broken: false,
        },
    ))
}

/// Battles recorded before elements were typed kept how an element left the table in its stats
/// (`state`), written by the battle, never by the umpire: an edit of such an element carried it
/// back, and the edit keeps the state the element has anyway.
pub fn edited_stats(stats: &Value) -> Value {
    let mut stats = stats.clone();
    if let Some(map) = stats.as_object_mut() {
        map.remove("state");
    }
    stats
}

/// An edit keeps how the element left the table and what it sees this bound.
pub fn keep(old: &DbmmElement, new: &mut DbmmElement) {
    new.state = old.state;
    new.sees_broken = old.sees_broken;
}

/// What lasts "for that bound-end only" ends with the bound (p. 43).
pub fn end_of_bound(own: &mut DbmmElement) {
    own.sees_broken = false;
}

/// An outcome lands on the element: it leaves the table, or it moves as the outcome says.
pub fn land(data: &DbmmData, unit: &mut UnitState, own: &mut DbmmElement, change: &Change) -> bool {
    match change {
        Change::ElementFate { fate } if fate.or.is_none() && seeing(fate.fate).is_some() => {
            own.sees_broken = seeing(fate.fate) == Some(true);
        }
        Change::ElementFate { fate } => match leaves_as(fate.fate) {
            // The element leaves the table; its state says how, for the ME tallies (p. 42).
            Some(state) => {
                unit.strength = 0;
                own.state = state;
            }
            // The move it calls for, with its distance (p. 40–41), stays on the row until the
            // next phase: the table is the players'.
            None => match super::element::check(data, &own.element, "element")
                .ok()
                .and_then(|e| super::outcome_moves::called_for(data, &e, *fate))
            {
                Some(words) => unit.moves.push(format!("{}: {words}", unit.label)),
                None => crate::rule_system::moved(unit, change),
            },
        },
        _ => return false,
    }
    true
}

/// The fates that mark an element seeing a broken friendly command at the bound's end (true),
/// and take the mark back (false).
fn seeing(fate: Fate) -> Option<bool> {
    match fate {
        Fate::SeesBrokenCommand => Some(true),
        Fate::SeesNoBrokenCommand => Some(false),
        _ => None,
    }
}

/// The fates that take an element off the table.
fn leaves_as(fate: Fate) -> Option<ElementState> {
    match fate {
        Fate::Destroyed => Some(ElementState::Destroyed),
        Fate::Spent => Some(ElementState::Spent),
        Fate::OffTable => Some(ElementState::OffTable),
        Fate::Removed => Some(ElementState::Removed),
        _ => None,
    }
}

/// The action an element's "Pass through…" opens on it: passing through a friend (p. 32).
pub const PASS_THROUGH: &str = "interpenetration";

/// The element in the rules' words: "general, in the line"; "destroyed".
pub fn words(data: &DbmmData, unit: &UnitState, own: &DbmmElement) -> UnitWords {
    let mut parts = Vec::new();
    if own.element.general {
        parts.push("general".to_string());
    }
    parts.push(if unit.lost {
        match own.state {
            ElementState::Destroyed => "destroyed",
            ElementState::Spent => "spent",
            ElementState::OffTable => "off table",
            ElementState::Removed => "removed (its command disheartened)",
            ElementState::InPlay => "lost",
        }
        .to_string()
    } else {
        "in the line".to_string()
    });
    if own.sees_broken && !unit.lost {
        parts.push("sees a broken command within 800p".to_string());
    }
    crate::rule_system::leader_parts(unit, &mut parts);
    let e = &own.element;
    let type_name = match data.types.get(&e.type_code) {
        Some(t) => option_label(&e.type_code, &t.name),
        None => e.type_code.clone(),
    };
    let grade = match data.grades.get(&e.grade) {
        Some(g) => option_label(&e.grade, &g.name),
        None => e.grade.clone(),
    };
    let q = |label: &str, fate: Fate| QuickEdit {
        label: label.into(),
        change: Change::ElementFate { fate: fate.into() },
        opens: None,
    };
    // A friend to pass through: another element of its side on the table (p. 32).
    let passes_through = !unit.lost && unit.role != crate::state::Role::Leader;
    UnitWords {
        opens_move: None,
        type_name: format!("{}{type_name}, {grade}", if e.irr { "Irr " } else { "" }),
        summary: parts.join(", "),
        quick_edits: if unit.lost {
            Vec::new()
        } else {
            vec![
                q("Destroyed", Fate::Destroyed),
                q("Spent", Fate::Spent),
                q("Off table", Fate::OffTable),
                if own.sees_broken {
                    q("No broken command in sight", Fate::SeesNoBrokenCommand)
                } else {
                    q("Sees a broken command within 800p", Fate::SeesBrokenCommand)
                },
            ]
            .into_iter()
            .chain(passes_through.then(|| QuickEdit {
                opens: Some(PASS_THROUGH.into()),
                ..q("Pass through…", Fate::Stand)
            }))
            .collect()
        },
        place: None,
    }
}

pub fn fields(d: &DbmmData) -> Vec<UnitField> {
    let types = d
        .types
        .iter()
        .map(|(k, t)| {
            let class = serde_json::to_value(t.class)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .and_then(|c| d.classes.get(&c).map(|i| i.name.clone()))
                .unwrap_or_default();
            UnitOption {
                unit_label: None,
                key: k.clone(),
                label: option_label(k, &t.name),
                fills: Vec::new(),
                printed: vec![printed("Class", class, &t.rule)],
            }
        })
        .collect();
    let grades = d
        .grades
        .iter()
        .map(|(k, g)| UnitOption {
            unit_label: None,
            key: k.clone(),
            label: option_label(k, &g.name),
            fills: Vec::new(),
            printed: Vec::new(),
        })
        .collect();
    vec![
        Field::new("type", "Element type", "p. 36", FieldKind::Choice)
            .required()
            .options(types),
        Field::new("grade", "Grade", "p. 4–9", FieldKind::Choice)
            .required()
            .options(grades),
        Field::new("irr", "Irregular", "p. 4–9", FieldKind::Toggle)
            .default(Value::from(false))
            .help("Irregular troops; regular when off."),
        Field::new("general", "General's element", "p. 42", FieldKind::Toggle)
            .default(Value::from(false))
            .help("The element of the commander-in-chief, a sub-general or an ally general."),
    ]
    .into_iter()
    .map(|f| f.0)
    .collect()
}

/// An element's values from the sheet, as the form is filled in.
pub fn preview(data: &DbmmData, stats: &Value) -> Result<UnitPreview, RefereeError> {
    let element: Element = parse_situation(stats)?;
    let r = super::describe(
        data,
        &super::ElementSituation {
            element: element.clone(),
        },
    )?;
    let summary = r
        .distribution
        .first()
        .map(|o| o.meaning.clone())
        .unwrap_or_else(|| element.label());
    let values = r
        .totals
        .into_iter()
        .map(|t| printed(&t.label, t.value, &t.rule))
        .collect();
    Ok(UnitPreview { summary, values })
}

/// A command has one general's element (p. 42, R-DBMM-34): a second one in the same command of
/// the same side is refused where it is added or corrected.
pub fn one_general(
    state: &crate::state::BattleState,
    spec: &crate::state::UnitSpec,
    editing: Option<crate::state::UnitId>,
) -> Result<(), RefereeError> {
    let general = spec
        .stats
        .get("general")
        .and_then(serde_json::Value::as_bool)
        .unwrap_or(false);
    if !general || spec.role != crate::state::Role::Unit {
        return Ok(());
    }
    let command = spec.command.clone().unwrap_or_else(|| spec.side.clone());
    let other = state.units.values().find(|u| {
        Some(u.id) != editing
            && !u.lost
            && u.side == spec.side
            && super::standing::command_of(u) == command
            && u.detail::<DbmmElement>().is_some_and(|e| e.element.general)
    });
    match other {
        Some(u) => Err(RefereeError::new(
            ErrorCode::UnitTwoGenerals,
            format!(
                "{command} already has its general's element, {}: a command has one general. Untick it here, or move this element to another command.",
                u.label
            ),
        )
        .field("general")
        .rule("p. 42")
        .ruling("R-DBMM-34")),
        None => Ok(()),
    }
}
