//! ITACS units on a battle's roster: the unit form, a unit's preview, the typed state of a roster
//! entry (identical units in one hex, with its D, Break and Rout markers, 5.0–5.3) and of a
//! leader (his printed bonus and control range, 6.1), the hex each stands in (entries in one hex
//! are one stack, 2.4), how a result's changes land, and their words.

use serde::Serialize;
use serde_json::Value;

use super::data::{ItacsData, UnitType};
use super::situation::{resolve_units, stack_state, Unit, UnitEntry};
use super::state::HexState;
use crate::contract::{Change, Chooser};
use crate::error::RefereeError;
use crate::rule_system::form::{
    hex_key, option_label, printed, rule_for, Field, FieldKind, PrintedValue, UnitField,
    UnitOption, UnitPreview,
};
use crate::rule_system::resolve::parse_situation;
use crate::state::{
    BattleState, LeaderFate, QuickEdit, SystemUnit, UnitSpec, UnitState, UnitWords,
};
use crate::ErrorCode;

/// A roster entry: identical units in one hex, with its markers. Entries in the same hex are
/// one stack: they fight and take results together (2.4, 2.4.6).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ItacsUnit {
    /// The entry as the umpire made it (its count the units it began with); a conversion
    /// (6.4, 6.5) changes its type. Shown as the unit's entry, not again in its state.
    #[serde(skip)]
    pub entry: UnitEntry,
    /// The map hex it stands in, as the umpire numbers it ("17.03"); none when not given.
    #[serde(skip)]
    pub hex: Option<String>,
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
    /// Its type forms squares (SD, PS, PP: 2.6.1).
    #[serde(skip)]
    pub may_square: bool,
    /// The stack stands in square formation (2.6.1).
    pub square: bool,
    /// A broken square still over the stacking limit: it must restack at its next movement
    /// (2.6.1).
    pub must_restack: bool,
}

impl SystemUnit for ItacsUnit {
    fn entry(&self) -> serde_json::Result<Value> {
        let mut entry = serde_json::to_value(&self.entry)?;
        crate::rule_system::form::placed(&mut entry, &self.hex);
        Ok(entry)
    }
}

/// The hex a roster entry's stats name (2.4), apart from what the unit is.
fn hex_of(stats: &Value) -> Result<(Value, Option<String>), RefereeError> {
    crate::rule_system::form::hex_of(stats, "2.4")
}

/// A leader on the roster (6.1): the values printed on his counter, and the hex he stands in.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ItacsLeader {
    /// His level, 1L to 4L, as the counter shows it.
    pub level: Option<String>,
    /// Added to the strength of the formation he is stacked with in melee, capped by it (6.1.3).
    pub bonus: Option<u32>,
    /// Hexes over which he removes D markers and rallies his formation (6.1.1).
    pub control_range: Option<u32>,
    pub hex: Option<String>,
    /// Any other notes the umpire entered, as entered.
    pub notes: serde_json::Map<String, Value>,
}

impl SystemUnit for ItacsLeader {
    fn entry(&self) -> serde_json::Result<Value> {
        let mut entry = self.notes.clone();
        if let Some(level) = &self.level {
            entry.insert("type".into(), Value::from(level.clone()));
        }
        if let Some(bonus) = self.bonus {
            entry.insert("bonus".into(), Value::from(bonus));
        }
        if let Some(range) = self.control_range {
            entry.insert("control_range".into(), Value::from(range));
        }
        let mut entry = Value::Object(entry);
        crate::rule_system::form::placed(&mut entry, &self.hex);
        Ok(entry)
    }
}

/// The most a leader's counter prints for his bonus or control range: far above any counter's.
pub const LEADER_VALUE_MAX: i32 = 100;

/// A leader as entered: his level, bonus and control range as printed, where he stands; other
/// notes are kept as they are (battles recorded before leaders were typed wrote free notes).
pub fn enter_leader(spec: &UnitSpec) -> Result<ItacsLeader, RefereeError> {
    if !spec.stats.is_object() && !spec.stats.is_null() {
        return Err(RefereeError::new(
            ErrorCode::BattleInvalidUnit,
            "a leader's values are his level, bonus and control range as his counter prints them",
        ));
    }
    let (stats, hex) = hex_of(&spec.stats)?;
    let mut notes = stats.as_object().cloned().unwrap_or_default();
    let number = |notes: &mut serde_json::Map<String, Value>, key: &str, label: &str| match notes
        .remove(key)
    {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .filter(|n| *n <= LEADER_VALUE_MAX as u64)
            .map(|n| Some(n as u32))
            .ok_or_else(|| {
                RefereeError::new(
                    ErrorCode::UnitInvalid,
                    format!("{label}: a whole number, as printed on the leader's counter"),
                )
                .field(key)
                .rule("6.1")
            }),
    };
    let bonus = number(&mut notes, "bonus", "Leader bonus")?;
    let control_range = number(&mut notes, "control_range", "Control range")?;
    let level = match notes.remove("type") {
        None | Some(Value::Null) => None,
        Some(Value::String(l)) => Some(l),
        Some(_) => {
            return Err(RefereeError::new(
                ErrorCode::UnitInvalid,
                "Leader level: 1L, 2L, 3L or 4L, as printed on the counter",
            )
            .field("type")
            .rule("6.1"))
        }
    };
    Ok(ItacsLeader {
        level,
        bonus,
        control_range,
        hex,
        notes,
    })
}

/// A leader in the rules' words: "Leader (2L)", "captured, bonus 2, range 3"; his hex is his place.
pub fn leader_words(unit: &UnitState, leader: &ItacsLeader) -> UnitWords {
    let mut parts = Vec::new();
    if unit.lost {
        parts.push("lost".to_string());
    }
    crate::rule_system::leader_parts(unit, &mut parts);
    if let Some(b) = leader.bonus {
        parts.push(format!("bonus {b}"));
    }
    if let Some(r) = leader.control_range {
        parts.push(format!("range {r}"));
    }
    UnitWords {
        opens_move: None,
        type_name: match &leader.level {
            Some(level) => format!("Leader ({level})"),
            None => "Leader".into(),
        },
        summary: parts.join(", "),
        // 6.1.4: the units holding a captured leader may kill him instead; recaptured, he walks
        // free.
        quick_edits: if unit.leader == Some(LeaderFate::Captured) && !unit.lost {
            vec![
                QuickEdit {
                    label: "Killed by his captors".into(),
                    change: Change::LeaderKilled,
                    opens: None,
                },
                QuickEdit {
                    label: "Walks free".into(),
                    change: Change::LeaderFreed,
                    opens: None,
                },
            ]
        } else {
            Vec::new()
        },
        place: leader.hex.as_ref().map(|h| format!("Hex {h}")),
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
    let (stats, hex) = hex_of(&spec.stats)?;
    let entry: UnitEntry = parse_situation(&stats)?;
    let units = resolve_units(data, std::slice::from_ref(&entry), "").map_err(|e| {
        let own = e.field.as_deref().map(|f| {
            let f = f.strip_prefix("units[0]").unwrap_or(f);
            f.strip_prefix('.').unwrap_or(f).to_string()
        });
        RefereeError { field: own, ..e }
    })?;
    let stack = stack_state(data, &units, 0, false, false);
    let may_square = super::square::forms_squares(data, entry.unit_type.as_deref());
    Ok((
        entry.count,
        ItacsUnit {
            entry,
            hex,
            d_markers: 0,
            broken: false,
            rout: false,
            threw: false,
            never_breaks: stack.never_breaks,
            rampages: stack.rampages,
            rampaging: false,
            may_square,
            square: false,
            must_restack: false,
        },
    ))
}

/// What is asked when a unit is added beyond the form's required fields: a missile unit's fire
/// strength, where its type gives none (R-ITACS-17) — without one it would fire with 0.
pub fn check_entry(data: &ItacsData, stats: &Value) -> Result<(), RefereeError> {
    let (stats, _) = hex_of(stats)?;
    let entry: UnitEntry = parse_situation(&stats)?;
    let unit = Unit::resolve(data, &entry, "")?;
    missile_fire(data, &entry, &unit)
}

fn missile_fire(data: &ItacsData, entry: &UnitEntry, unit: &Unit) -> Result<(), RefereeError> {
    let missile = unit
        .class
        .as_ref()
        .and_then(|c| data.unit_classes.get(c))
        .is_some_and(|c| c.missile);
    let printed = entry
        .fire
        .or_else(|| unit.type_data(data).and_then(|t| t.fire));
    if missile && printed.is_none() {
        return Err(RefereeError::new(
            ErrorCode::SituationMissingStrength,
            "missile troops fire: enter the fire strength printed on the counter",
        )
        .field("fire")
        .rule("2.4.6")
        .ruling("R-ITACS-17"));
    }
    Ok(())
}

/// An edit keeps the markers the stack carries.
pub fn keep(old: &ItacsUnit, new: &mut ItacsUnit) {
    new.d_markers = old.d_markers;
    new.broken = old.broken;
    new.rout = old.rout;
    new.threw = old.threw;
    new.rampaging = old.rampaging;
    new.square = old.square;
    new.must_restack = old.must_restack;
}

/// Some of an entry's units leave it (4.3.3: "units may be moved one at a time or in stacks"):
/// both entries keep the type, values and markers — markers are the hex's and lie on every unit
/// in it (5.0), and move with the units that move (R-ITACS-40) —; the units that remain keep the
/// entry's losses, the units that leave begin as they leave. The new entry is no square and
/// carries no mark to restack: that is its old hex's, judged again once the move lands
/// (R-ITACS-44).
pub fn split(own: &ItacsUnit, units: u32) -> Option<(ItacsUnit, ItacsUnit)> {
    if own.entry.count <= units {
        return None;
    }
    let mut stays = own.clone();
    stays.entry.count -= units;
    let mut leaves = own.clone();
    leaves.entry.count = units;
    leaves.square = false;
    leaves.must_restack = false;
    Some((stays, leaves))
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
        Change::ConvertTo { unit_type } => {
            own.entry.unit_type = Some(unit_type.clone());
            own.may_square = super::square::forms_squares(data, Some(unit_type));
        }
        Change::ThrowingWeaponsUsed => own.threw = true,
        Change::EntersHex { hex } => own.hex = Some(hex.clone()),
        Change::Square { formed } => {
            own.square = *formed;
            own.must_restack &= !formed;
        }
        Change::MustRestack { needed } => own.must_restack = *needed,
        _ => return false,
    }
    true
}

/// Throwing weapons are fired once per game (6.6): a unit that threw may not again. A unit never
/// enters a hex of enemy units (4.3.3), checked again as the move lands: the hex landed is the
/// roster's as it stands then.
pub fn refuse(
    state: &BattleState,
    unit: &UnitState,
    own: &ItacsUnit,
    change: &Change,
    rule: &str,
) -> Option<RefereeError> {
    if let Change::EntersHex { hex } = change {
        return enemy_in(state, unit, hex);
    }
    if *change == (Change::Square { formed: true }) {
        return super::square::refuse_forming(state, unit, own);
    }
    if matches!(change, Change::SplitOff { .. }) && (own.rout || own.broken) {
        return Some(
            RefereeError::new(
                ErrorCode::FightUnitsMoving,
                format!(
                    "{} is under a {} marker, which lies on every unit of its hex: the stack makes its rout move whole",
                    unit.label,
                    if own.rout { "Rout" } else { "Break" }
                ),
            )
            .rule("5.3.1")
            .ruling("R-ITACS-42")
            .field("units_moving"),
        );
    }
    if matches!(change, Change::SplitOff { .. }) && own.square {
        return Some(
            RefereeError::new(
                ErrorCode::SituationInvalidSquare,
                format!(
                    "{} is a square, which moves as its 4 units together: leave the square first to move some of them",
                    unit.named()
                ),
            )
            .rule("2.6.1")
            .ruling("R-ITACS-44")
            .field("units_moving"),
        );
    }
    (own.threw && *change == Change::ThrowingWeaponsUsed).then(|| {
        RefereeError::new(
            ErrorCode::BattleOncePerGame,
            format!(
                "{} has already fired its throwing weapons in this battle: they are used once per game. Undo that fire first, or fire without them",
                unit.named()
            ),
        )
        .field("attackers")
        .rule(rule)
    })
}

/// The enemy units standing in `hex`, refused as the hex a unit enters (4.3.3).
fn enemy_in(state: &BattleState, unit: &UnitState, hex: &str) -> Option<RefereeError> {
    let key = hex_key(hex);
    let hex = hex.trim();
    let enemies: Vec<String> = state
        .units
        .values()
        .filter(|u| !u.lost && u.strength > 0 && u.side != unit.side)
        .filter(|u| {
            u.detail::<ItacsUnit>()
                .and_then(|o| o.hex.as_deref())
                .is_some_and(|h| hex_key(h) == key)
        })
        .map(UnitState::named)
        .collect();
    if enemies.is_empty() {
        return None;
    }
    let names: Vec<&str> = enemies.iter().map(String::as_str).collect();
    Some(
        RefereeError::new(
            ErrorCode::FightEnemyHex,
            format!(
                "Hex {hex} holds {}: units may never enter a hex containing enemy units. Give the hexes the move enters.",
                crate::error::and_list(&names)
            ),
        )
        .field("path")
        .rule("4.3.3"),
    )
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
    if own.square && !unit.lost {
        parts.push("square".into());
    }
    if own.must_restack && !unit.lost {
        parts.push(super::square::MUST_RESTACK.into());
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
            opens: None,
        };
        let mut edits = vec![
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
        ];
        // A routing stack: its rout ends (a leader, 5.3.2), or its rout move takes it off the
        // map, where it counts as destroyed (5.3.3); a rout placed by hand (5.3).
        if own.rout {
            edits.push(q("Rout ends", Change::RemoveRout));
            edits.push(q("Routs off the map", Change::DestroyAll));
        } else if !own.never_breaks {
            edits.push(q("Rout", Change::Rout));
        }
        if own.square {
            edits.push(q("Leave square", Change::Square { formed: false }));
        } else if super::square::may_form(unit, own) {
            edits.push(q("Form square", Change::Square { formed: true }));
        }
        edits
    };
    // A Break marker calls for a rout move under it (5.2: a broken unit "makes a rout move"), a
    // Rout marker for a rout move (5.3.1), a broken square over the limit for the move that
    // restacks it (2.6.1, some of its units moving: R-ITACS-44): the row opens it, in words —
    // once its D markers are gone, as a disrupted unit may not move but to break or rout (5.1).
    let opens_move = match (unit.lost, own.broken, own.rout) {
        (false, false, false) if own.must_restack && own.d_markers == 0 => {
            Some("Restack move".to_string())
        }
        (true, _, _) | (false, false, false) => None,
        (false, true, _) => Some("Rout move (Break)".to_string()),
        (false, false, true) => Some("Rout move".to_string()),
    };
    UnitWords {
        opens_move,
        type_name,
        summary: parts.join(", "),
        quick_edits,
        place: own.hex.as_ref().map(|h| format!("Hex {h}")),
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
                unit_label: None,
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
            unit_label: None,
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
        // Asked when the unit is added, where the rule text gives the type no value (R-ITACS-17):
        // the fights need them.
        Field::new("class", "Unit class", "2.4.4", FieldKind::Choice)
            .required()
            .help("The letter at the bottom of the counter, asked only when the rules do not give the type's class.")
            .options(classes),
        Field::new("combat", "Combat strength", "2.4.6", FieldKind::Text)
            .required()
            .help("As printed on the counter: a number, a dot, or a number in square brackets."),
        Field::new("fire", "Fire strength", "2.4.6", FieldKind::Number)
            .range(Some(0), None)
            .help("As printed on the counter; asked for missile troops whose type gives none. Other units without one have a fire strength of 0."),
        Field::new("movement", "Movement points", "4.3", FieldKind::Number)
            .range(Some(0), None)
            .help("As printed on the counter."),
        Field::new("shields", "Shields", "4.2.5", FieldKind::Toggle)
            .help("The unit carries shields against missile fire."),
        Field::new("elite", "Elite", "4.2.6, 4.5.9", FieldKind::Toggle)
            .default(Value::from(false))
            .help("The scenario makes this unit elite."),
        hex_field(),
    ]
    .into_iter()
    .map(|f| f.0)
    .collect()
}

fn hex_field() -> Field {
    Field::new("hex", "Hex", "2.4", FieldKind::Text).help(
        "The number the map prints on the hex it stands in. Units in one hex are one stack: they fight together.",
    )
}

/// What a leader's row asks: the values on his counter and his hex (6.1).
pub fn leader_fields() -> Vec<UnitField> {
    vec![
        Field::new("type", "Leader level", "6.1", FieldKind::Text)
            .help("As printed on the counter: 1L, 2L, 3L or 4L."),
        Field::new("bonus", "Leader bonus", "6.1.3", FieldKind::Number)
            .range(Some(0), Some(LEADER_VALUE_MAX))
            .help("Added to the strength of the units he is stacked with in melee."),
        Field::new("control_range", "Control range", "6.1.1", FieldKind::Number)
            .range(Some(0), Some(LEADER_VALUE_MAX))
            .help("Hexes over which he rallies his formation."),
        hex_field(),
    ]
    .into_iter()
    .map(|f| f.0)
    .collect()
}

/// A unit's values from the tables, as the form is filled in.
pub fn preview(d: &ItacsData, stats: &Value) -> Result<UnitPreview, RefereeError> {
    let (stats, _) = hex_of(stats)?;
    let entry: UnitEntry = parse_situation(&stats)?;
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
