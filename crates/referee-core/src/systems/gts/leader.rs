//! A GTS leader's own row on the roster (1.2–1.6): his tag's values (PC, TS, PV) and the unit he
//! is attached to, by its label; and the links between rows the fights read — a unit's attached
//! leader, an elephant's or chariot's escort stand (3.16) — checked where a row is entered.

use serde::Serialize;
use serde_json::{Map, Value};

use super::roster::GtsUnit;
use crate::contract::Change;
use crate::error::RefereeError;
use crate::rule_system::form::{Field, FieldKind, UnitField, UnitOption};
use crate::state::{
    BattleState, LeaderFate, QuickEdit, Role, SystemUnit, UnitId, UnitSpec, UnitState, UnitWords,
};
use crate::ErrorCode;

/// The leader form's field naming the unit he leads.
pub const LEADS: &str = "leads";
/// The unit form's field naming the elephant or chariot an escort stand runs with.
pub const ESCORTS: &str = "escorts";
/// The leader form's field marking him the army general (1.2).
pub const ARMY: &str = "army";

/// A leader on the roster: his tag (1.2: "Army Leonidas 3(E) +2") and the unit he is attached to
/// (1.5). His state and wounds from Table 1.10 are his row's (`UnitState::leader`).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct GtsLeader {
    /// Personal valour, −2 to +2 (1.2): it counts in the fights of the unit he leads (1.6).
    pub pv: Option<i64>,
    /// Personal command rating, 1 to 5 (1.2).
    pub pc: Option<i64>,
    /// Tactical skill: E, G, A or P (1.2).
    pub ts: Option<String>,
    /// The unit he is attached to (1.5), by its roster label.
    pub leads: Option<String>,
    /// The army general (1.2: "Army Leonidas 3(E) +2"): killed or captured, he lowers his army's
    /// break point (8.0, R-GTS-7).
    pub army: bool,
    /// His command points this turn, as his command phase's roll gave them (1.2), and those
    /// spent (1.7): none kept past the turn.
    pub command_points: u32,
    pub command_spent: u32,
    /// With no unit, contacted by an enemy unit this turn and moved away up to 10" (6.25).
    pub moved_from_contact: bool,
    /// Other notes as entered (battles recorded before leaders were typed kept free notes).
    #[serde(skip)]
    pub notes: Map<String, Value>,
}

impl SystemUnit for GtsLeader {
    fn entry(&self) -> serde_json::Result<Value> {
        let mut entry = self.notes.clone();
        if let Some(pv) = self.pv {
            entry.insert("pv".into(), pv.into());
        }
        if let Some(pc) = self.pc {
            entry.insert("pc".into(), pc.into());
        }
        if let Some(ts) = &self.ts {
            entry.insert("ts".into(), ts.clone().into());
        }
        if let Some(leads) = &self.leads {
            entry.insert(LEADS.into(), leads.clone().into());
        }
        if self.army {
            entry.insert(ARMY.into(), true.into());
        }
        Ok(Value::Object(entry))
    }
}

const GRADES: [(&str, &str); 4] = [
    ("E", "Excellent (d10)"),
    ("G", "Good (d8)"),
    ("A", "Average (d6)"),
    ("P", "Poor (d4)"),
];

/// The tactical skills (1.2), each with the die it throws.
pub fn grades() -> Vec<UnitOption> {
    GRADES
        .iter()
        .map(|(k, name)| UnitOption {
            key: (*k).into(),
            label: (*name).into(),
            unit_label: None,
            fills: Vec::new(),
            printed: Vec::new(),
        })
        .collect()
}

/// What a leader's row asks: his tag's values and the unit he leads.
pub fn fields() -> Vec<UnitField> {
    let grades = grades();
    vec![
        // One leader to a unit (R-GTS-32): the unit one leads is not carried to the next added.
        Field::new(LEADS, "Leads", "1.5, 1.6", FieldKind::Unit).once().help(
            "The unit he is attached to: his valour counts in its fights, and his casualty tests land on him here. Leave empty while he commands from behind.",
        ),
        Field::new(ARMY, "Army general", "1.2, 8.0", FieldKind::Toggle).help(
            "The army's general, not a wing general: killed or captured, he lowers his army's break point to 50 %.",
        ),
        Field::new("pv", "Personal valour (PV)", "1.2, 1.6", FieldKind::Number)
            .required()
            .range(Some(-2), Some(2)),
        Field::new("pc", "Personal command (PC)", "1.2", FieldKind::Number).range(Some(1), Some(5)),
        Field::new("ts", "Tactical skill (TS)", "1.2", FieldKind::Choice).options(grades),
    ]
    .into_iter()
    .map(|f| f.0)
    .collect()
}

fn invalid(key: &str, message: &str, rule: &str) -> RefereeError {
    RefereeError::new(ErrorCode::BattleInvalidUnit, message)
        .field(key)
        .rule(rule)
}

/// A leader as entered: his values checked, other notes kept as they are.
pub fn enter(spec: &UnitSpec) -> Result<GtsLeader, RefereeError> {
    let mut notes = match &spec.stats {
        Value::Null => Map::new(),
        Value::Object(m) => m.clone(),
        _ => {
            return Err(invalid(
                "",
                "a leader's values are his valour, command and skill, and the unit he leads",
                "1.2",
            ))
        }
    };
    let mut number = |key: &str, label: &str, range: (i64, i64)| match notes.remove(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => match v.as_i64().filter(|n| (range.0..=range.1).contains(n)) {
            Some(n) => Ok(Some(n)),
            None => Err(invalid(
                key,
                &format!(
                    "{label}: a whole number from {} to {}",
                    signed(range.0),
                    signed(range.1)
                ),
                "1.2",
            )),
        },
    };
    let pv = number("pv", "Personal valour", (-2, 2))?;
    let pc = number("pc", "Personal command", (1, 5))?;
    let ts = match notes.remove("ts") {
        None | Some(Value::Null) => None,
        Some(Value::String(t)) if GRADES.iter().any(|(k, _)| *k == t) => Some(t),
        Some(_) => {
            return Err(invalid(
                "ts",
                "Tactical skill: E, G, A or P (Excellent, Good, Average, Poor)",
                "1.2",
            ))
        }
    };
    let leads = match notes.remove(LEADS) {
        None | Some(Value::Null) => None,
        Some(Value::String(l)) if l.trim().is_empty() => None,
        Some(Value::String(l)) => Some(l),
        Some(_) => {
            return Err(invalid(
                LEADS,
                "Leads: pick the unit he is attached to from the roster",
                "1.5",
            ))
        }
    };
    let army = match notes.remove(ARMY) {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => b,
        Some(_) => {
            return Err(invalid(
                ARMY,
                "Army general: he is the army general or he is not",
                "1.2",
            ))
        }
    };
    Ok(GtsLeader {
        army,
        pv,
        pc,
        ts,
        leads,
        notes,
        ..GtsLeader::default()
    })
}

/// The tag of a general entered as a unit with his guard (1.2, R-GTS-40): his valour, command and
/// skill, and the unit he leads from the front if not his guard (1.5, R-GTS-43), taken out of his
/// row's stats, where they are not the guard's; none when his row gives none of them. He is the
/// army's general (8.0).
pub fn split_general(stats: &Value) -> Result<(Value, Option<GtsLeader>), RefereeError> {
    let mut unit = stats.clone();
    let Some(map) = unit.as_object_mut() else {
        return Ok((unit, None));
    };
    let mut tag = Map::new();
    for key in ["pv", "pc", "ts", LEADS] {
        match map.remove(key) {
            None | Some(Value::Null) => {}
            Some(v) => {
                tag.insert(key.into(), v);
            }
        }
    }
    if tag.is_empty() {
        return Ok((unit, None));
    }
    let spec = UnitSpec {
        label: String::new(),
        side: String::new(),
        command: None,
        role: Role::Leader,
        stats: Value::Object(tag),
    };
    Ok((
        unit,
        Some(GtsLeader {
            army: true,
            ..enter(&spec)?
        }),
    ))
}

/// The action a leader's "Command points" opens on his row (1.2).
pub const COMMAND_POINTS: &str = "command_points";

/// The command points a general has left this turn (1.2, 1.7).
fn points_left(leader: &GtsLeader) -> u32 {
    leader.command_points.saturating_sub(leader.command_spent)
}

/// His command points landing on his row: those his roll gave him this turn, and each spent
/// (1.2, 1.7).
pub fn land(own: &mut GtsLeader, change: &Change) -> bool {
    match change {
        Change::CommandPoints { points } => {
            own.command_points = *points;
            own.command_spent = 0;
        }
        Change::SpendCommand { points } => {
            own.command_spent = own.command_spent.saturating_add(*points)
        }
        Change::LeaderMovedFromContact { .. } => own.moved_from_contact = true,
        _ => return false,
    }
    true
}

/// A correction of his row keeps this turn's command points, those spent and his move from
/// contact: the row corrected is not a new turn, and points are rolled once a Command phase
/// (1.2, R-GTS-40).
pub fn keep(old: &GtsLeader, new: &mut GtsLeader) {
    new.command_points = old.command_points;
    new.command_spent = old.command_spent;
    new.moved_from_contact = old.moved_from_contact && new.leads.is_none();
}

/// How far a leader with no unit is moved when an enemy unit contacts him (6.25).
pub const CONTACT_MOVE_INCHES: u32 = 10;

/// Points cannot be saved (1.2): a new turn starts with none until his roll.
pub fn at_turn_end(unit: &mut UnitState) {
    if let Some(own) = unit.detail_mut::<GtsLeader>() {
        own.command_points = 0;
        own.command_spent = 0;
        own.moved_from_contact = false;
    }
}

/// Spending more command points than he has left this turn is refused in words (1.7).
pub fn refuse(unit: &UnitState, own: &GtsLeader, change: &Change) -> Option<RefereeError> {
    // 6.25 moves a leader "not themselves attached to a friendly combat unit": one leading a unit
    // fights with it (1.9).
    if let (Change::LeaderMovedFromContact { .. }, Some(leads)) = (change, &own.leads) {
        return Some(
            RefereeError::new(
                ErrorCode::BattleNotAChangeOfTheseRules,
                format!(
                    "{} leads {leads}: an enemy contacting him fights {leads}, and his fate is the leader casualty roll's.",
                    unit.label
                ),
            )
            .rule("6.25, 1.9"),
        );
    }
    let Change::SpendCommand { points } = change else {
        return None;
    };
    let left = points_left(own);
    (*points > left).then(|| {
        RefereeError::new(
            ErrorCode::BattleCommandSpent,
            format!(
                "{} has {} left this turn: he cannot spend {}.",
                unit.label,
                crate::error::counted(i64::from(left), "command point", "command points"),
                points
            ),
        )
        .rule("1.2, 1.7")
    })
}

fn signed(n: i64) -> String {
    if n < 0 {
        format!("−{}", -n)
    } else {
        n.to_string()
    }
}

/// A valour with its sign, the minus the app prints: "+2", "+0", "−2".
fn plus(n: i64) -> String {
    if n < 0 {
        signed(n)
    } else {
        format!("+{n}")
    }
}

/// A leader's row in the rules' words: "Leader 3(E) +2", "leads Immortals, dazed".
pub fn words(unit: &UnitState, leader: &GtsLeader) -> UnitWords {
    let tag = match (leader.pc, &leader.ts, leader.pv) {
        (Some(pc), Some(ts), Some(pv)) => format!(" {pc}({ts}) {}", plus(pv)),
        (_, _, Some(pv)) => format!(", PV {}", plus(pv)),
        _ => String::new(),
    };
    let mut parts = Vec::new();
    if unit.lost {
        parts.push("lost".to_string());
    }
    match &leader.leads {
        Some(l) => parts.push(format!("leads {l}")),
        // 6.25: unattached, a leader an enemy unit contacts is moved anywhere within 10".
        None if !unit.lost && leader.moved_from_contact => parts
            .push("with no unit: contacted by the enemy, moved up to 10\" away this turn".into()),
        None if !unit.lost => {
            parts.push("with no unit: if an enemy unit contacts him, he is moved up to 10\"".into())
        }
        None => parts.push("with no unit".into()),
    }
    crate::rule_system::leader_parts(unit, &mut parts);
    let q = |label: &str, change: Change| QuickEdit {
        label: label.into(),
        change,
        opens: None,
    };
    let active = !unit.lost && !unit.leader.is_some_and(LeaderFate::gone);
    let mut quick_edits = Vec::new();
    command_words(leader, active, &mut parts, &mut quick_edits);
    // 6.25: a leader with no unit, contacted by an enemy unit, is moved anywhere within 10".
    if active && leader.leads.is_none() {
        quick_edits.push(q(
            "Contacted by the enemy",
            Change::LeaderMovedFromContact {
                inches: CONTACT_MOVE_INCHES,
            },
        ));
    }
    UnitWords {
        opens_move: None,
        type_name: format!("Leader{tag}"),
        summary: parts.join(", "),
        quick_edits,
        place: None,
    }
}

/// A general's command points on his row (1.2, 1.7, R-GTS-40): those left this turn in words,
/// and while he is in play, his roll and the spending of them.
pub fn command_words(
    leader: &GtsLeader,
    active: bool,
    parts: &mut Vec<String>,
    quick_edits: &mut Vec<QuickEdit>,
) {
    let left = points_left(leader);
    if leader.command_points > 0 {
        parts.push(format!(
            "{} of {} command points left",
            left, leader.command_points
        ));
    }
    if !active || leader.pc.is_none() || leader.ts.is_none() {
        return;
    }
    let q = |label: &str, change: Change| QuickEdit {
        label: label.into(),
        change,
        opens: None,
    };
    // 1.2: his points this turn are his roll, at least his PC; 1.7: spent one by one on the
    // units he commands, 3 at once for the army's Reserve (1.7 e).
    quick_edits.push(QuickEdit {
        opens: Some(COMMAND_POINTS.into()),
        ..q("Command points", Change::CommandPoints { points: 0 })
    });
    if left >= 1 {
        quick_edits.push(q("Spend 1 point", Change::SpendCommand { points: 1 }));
    }
    if leader.army && left >= 3 {
        quick_edits.push(q(
            "Spend 3 for the Reserve",
            Change::SpendCommand { points: 3 },
        ));
    }
}

/// The leader attached to a unit on the roster (1.5): the row of its side, on the table, that
/// leads it by its label.
pub fn leader_of<'s>(
    state: &'s BattleState,
    unit: &UnitState,
) -> Option<(&'s UnitState, &'s GtsLeader)> {
    state.units.values().find_map(|row| {
        let leader = tag_of(row)?;
        (row.id != unit.id
            && !row.lost
            && !taken(row)
            && row.side == unit.side
            && leader.leads.as_deref() == Some(unit.label.as_str()))
        .then_some((row, leader))
    })
}

/// A leader's tag: his own row's, or a general's entered with his guard (R-GTS-40, R-GTS-43).
pub fn tag_of(row: &UnitState) -> Option<&GtsLeader> {
    match row.role {
        Role::Leader => row.detail::<GtsLeader>(),
        Role::General => row.detail::<GtsUnit>()?.general.as_ref(),
        _ => None,
    }
}

/// A leader killed or captured leads no one (R-GTS-32): his row no longer counts as the unit's
/// leader, and another may be attached to it.
fn taken(row: &UnitState) -> bool {
    matches!(row.leader, Some(LeaderFate::Killed | LeaderFate::Captured))
}

/// The escort stand running with an elephant or chariot on the roster (3.16): the unit of its
/// side, on the table, that escorts it by its label.
pub fn escort_of<'s>(
    state: &'s BattleState,
    unit: &UnitState,
) -> Option<(&'s UnitState, &'s GtsUnit)> {
    state.units.values().find_map(|row| {
        let own = row.detail::<GtsUnit>()?;
        (row.id != unit.id
            && !row.lost
            && row.side == unit.side
            && own.escorts.as_deref() == Some(unit.label.as_str()))
        .then_some((row, own))
    })
}

/// The leader's valour as it counts now (R-GTS-25): none out of play, −1 dazed, his PV plus his
/// wounds to at most +2 otherwise.
pub fn valour_now(row: &UnitState, pv: Option<i64>) -> Option<i64> {
    match row.leader {
        Some(l) if l.out_of_play() => None,
        Some(LeaderFate::Dazed) => Some(-1),
        _ => Some((pv.unwrap_or(0) + i64::from(row.leader_wounds)).min(2)),
    }
}

/// A row linked to another as the umpire adds or corrects it: a leader to the unit he leads, an
/// escort stand to its elephant or chariot. The unit named is one unit of the same side on the
/// roster, led by one leader (R-GTS-32) or escorted by one stand (3.16, R-GTS-34).
pub fn check_links(
    state: &BattleState,
    spec: &UnitSpec,
    editing: Option<UnitId>,
) -> Result<(), RefereeError> {
    // A general entered with his guard may lead another unit from the front (R-GTS-43).
    let key = if matches!(spec.role, Role::Leader | Role::General) {
        LEADS
    } else {
        ESCORTS
    };
    let Some(target) = spec
        .stats
        .get(key)
        .and_then(Value::as_str)
        .filter(|t| !t.trim().is_empty())
    else {
        return Ok(());
    };
    let named: Vec<&UnitState> = state
        .units
        .values()
        .filter(|u| {
            u.side == spec.side
                && u.label == target
                && u.role != Role::Leader
                && !u.lost
                && Some(u.id) != editing
        })
        .collect();
    let unit = match named.as_slice() {
        [] => {
            return Err(invalid(
                key,
                &format!(
                "No unit of {} on the table is called {target}: pick one of the roster's units.",
                spec.side
            ),
                if key == LEADS { "1.5" } else { "3.16" },
            ))
        }
        [one] => *one,
        _ => {
            return Err(invalid(
                key,
                &format!(
                    "Two units of {} are called {target}: give them labels of their own first.",
                    spec.side
                ),
                if key == LEADS { "1.5" } else { "3.16" },
            ))
        }
    };
    let other = state.units.values().find(|row| {
        Some(row.id) != editing
            && row.side == spec.side
            && !row.lost
            && !taken(row)
            && matches!(row.role, Role::Leader | Role::General) == (key == LEADS)
            && linked(row, key) == Some(target)
    });
    if key == LEADS {
        if let Some(other) = other {
            return Err(invalid(
                key,
                &format!(
                    "{} already leads {target}: a unit fights with one attached leader.",
                    other.label
                ),
                "1.5, 1.6",
            )
            .ruling("R-GTS-32"));
        }
        return Ok(());
    }
    let class = unit.detail::<GtsUnit>().map(|u| u.entry.class.as_str());
    if !matches!(class, Some("elephant" | "chariot")) {
        return Err(invalid(
            key,
            &format!(
                "{target} is no elephant or chariot: only they take a runner or escort stand."
            ),
            "3.16",
        )
        .ruling("R-GTS-34"));
    }
    let stands = spec.stats.get("stands").and_then(Value::as_u64);
    let infantry = spec.stats.get("class").and_then(Value::as_str) == Some("infantry");
    if !infantry || stands != Some(1) {
        return Err(
            invalid(key, "A runner or escort is one stand of infantry.", "3.16").ruling("R-GTS-34"),
        );
    }
    if let Some(other) = other {
        return Err(invalid(
            key,
            &format!(
                "{} already escorts {target}: one stand runs with an elephant or chariot.",
                other.label
            ),
            "3.16",
        )
        .ruling("R-GTS-34"));
    }
    Ok(())
}

/// The unit a row names under `key`, as entered.
fn linked<'u>(row: &'u UnitState, key: &str) -> Option<&'u str> {
    if key == LEADS {
        tag_of(row)?.leads.as_deref()
    } else {
        row.detail::<GtsUnit>()?.escorts.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leader(leads: Option<&str>) -> GtsLeader {
        GtsLeader {
            leads: leads.map(str::to_string),
            ..GtsLeader::default()
        }
    }

    #[test]
    fn contacted_with_no_unit_he_is_moved_away_until_the_turn_ends_6_25() {
        let mut own = leader(None);
        let moved = Change::LeaderMovedFromContact {
            inches: CONTACT_MOVE_INCHES,
        };
        assert!(land(&mut own, &moved));
        assert!(own.moved_from_contact);
        assert!(!land(&mut own, &Change::Disorder));
    }
}
