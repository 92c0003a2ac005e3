//! GTS units on a battle's roster: the unit form (Table 2.10), a unit's preview, the typed state
//! of a unit (stands, hits, Disorder, Rout: 2.11, 3.32, 6.13), how a result's changes land on
//! it, and its words.

use serde::Serialize;
use serde_json::Value;

use super::data::{GtsData, Row};
use super::leader::{GtsLeader, ESCORTS};
use super::units::{Unit, UnitEntry};
use crate::contract::Change;
use crate::error::RefereeError;
use crate::rule_system::form::{
    option_label, printed, Field, FieldKind, PrintedValue, UnitField, UnitOption, UnitPreview,
};
use crate::rule_system::resolve::parse_situation;
use crate::state::{
    BattleState, LeaderFate, QuickEdit, Role, SystemUnit, UnitSpec, UnitState, UnitWords,
};
use crate::ErrorCode;

/// A unit on the roster.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GtsUnit {
    /// The unit as entered (its stands those it began with). Shown as the unit's entry, not
    /// again in its state.
    #[serde(skip)]
    pub entry: UnitEntry,
    pub hits: u32,
    pub disordered: bool,
    pub rout: bool,
    /// Hits that remove one stand.
    pub hits_per_stand: u32,
    /// Table 1.10, 8: within 6" of a leader who fell on his sword: −1 to melees and command
    /// tests until the turn ends.
    pub near_fallen_leader: bool,
    /// The personal valour of a leader entered on the unit's own row (1.2, 1.6), as battles
    /// recorded before leaders had rows of their own kept him: his state and wounds are then the
    /// unit's row's (`UnitState::leader`). A leader's own row linked to the unit comes first.
    pub leader_pv: Option<i64>,
    /// The elephant or chariot this stand runs with as its runner or escort (3.16), by its
    /// roster label.
    pub escorts: Option<String>,
    /// Its SH or HM 1st-turn melee bonus is used (2.14): HM for the battle, SH until a leader's
    /// command point recovers it.
    pub first_turn_spent: bool,
    /// In Reserve condition (3.31): it may move in the enemy's Reserve Movement phase (4.6).
    pub reserve: bool,
    /// Placed in Reserve at some time: once a game an army places one (3.31, 1.7 e).
    pub reserve_used: bool,
    /// Routed off the table and not yet past its dispersal trigger: one rally to return (4.312).
    pub off_table: bool,
    /// On a general's own row, entered with his guard: his tag (1.2) and his command points this
    /// turn (R-GTS-40).
    pub general: Option<GtsLeader>,
}

impl SystemUnit for GtsUnit {
    fn entry(&self) -> serde_json::Result<Value> {
        let mut entry = serde_json::to_value(&self.entry)?;
        if let Some(map) = entry.as_object_mut() {
            if let Some(pv) = self.leader_pv {
                map.insert(LEADER_PV.into(), pv.into());
            }
            if let Some(escorts) = &self.escorts {
                map.insert(ESCORTS.into(), escorts.clone().into());
            }
            // His tag as entered, for the form that corrects his row (the army's general he is
            // by his row's role).
            if let Some(Value::Object(tag)) =
                self.general.as_ref().map(|g| g.entry()).transpose()?
            {
                map.extend(tag.into_iter().filter(|(k, _)| k != super::leader::ARMY));
            }
        }
        Ok(entry)
    }
}

/// A leader's valour entered on the unit's own row (battles recorded before leaders had rows of
/// their own): not a field of a unit in a situation, where a melee unit carries its own.
pub const LEADER_PV: &str = "leader_pv";

/// A roster entry's unit, the valour of a leader entered on it (1.2, 1.6) and the elephant or
/// chariot it escorts (3.16), if any.
fn split_links(stats: &Value) -> Result<(Value, Option<i64>, Option<String>), RefereeError> {
    let mut unit = stats.clone();
    let escorts = match unit.as_object_mut().and_then(|m| m.remove(ESCORTS)) {
        None | Some(Value::Null) => None,
        Some(Value::String(e)) if e.trim().is_empty() => None,
        Some(Value::String(e)) => Some(e),
        Some(_) => {
            return Err(RefereeError::new(
                ErrorCode::BattleInvalidUnit,
                "Escorts: pick the elephant or chariot it runs with from the roster",
            )
            .field(ESCORTS)
            .rule("3.16"))
        }
    };
    let pv = match unit.as_object_mut().and_then(|m| m.remove(LEADER_PV)) {
        None | Some(Value::Null) => None,
        Some(v) => {
            let pv = v.as_i64().ok_or_else(|| {
                RefereeError::new(
                    ErrorCode::SituationInvalidRating,
                    "a leader's personal valour is a whole number from −2 to +2",
                )
                .field(LEADER_PV)
                .rule("1.2")
            })?;
            super::units::check_pv(pv, LEADER_PV)?;
            Some(pv)
        }
    };
    Ok((unit, pv, escorts))
}

impl GtsUnit {
    /// The unit as a situation takes it now, named as the roster names it so its effects find
    /// it: its stands left, hits, Disorder and Rout, and the stands it began with, for its
    /// terminal rout trigger (2.11).
    pub fn now(&self, unit: &UnitState, name: &str) -> UnitEntry {
        UnitEntry {
            name: Some(name.to_string()),
            stands: unit.strength,
            hits: self.hits,
            disordered: self.disordered,
            routed: self.rout,
            starting_stands: self.entry.starting_stands.or(Some(unit.starting)),
            ..self.entry.clone()
        }
    }
}

/// What a unit the umpire adds or corrects must be beyond the form (never as a battle folds):
/// skirmish stands are units of one stand each, since each moves on its own and falls to its own
/// two hits (3.12, 4.32, R-GTS-31) — pooled on one row, two hits on different stands would
/// remove a stand.
pub fn check_entry(stats: &Value) -> Result<(), RefereeError> {
    let skirmish = stats.get("skirmish").and_then(Value::as_bool) == Some(true);
    let stands = stats.get("stands").and_then(Value::as_u64).unwrap_or(1);
    if skirmish && stands > 1 {
        return Err(RefereeError::new(
            ErrorCode::UnitSkirmishStands,
            format!(
                "skirmish stands move and take their hits one by one: enter 1 stand, and add {stands} such units (“How many”)"
            ),
        )
        .field("stands")
        .rule("3.12, 4.32")
        .ruling("R-GTS-31"));
    }
    Ok(())
}

/// A unit built by Table 2.10; it may enter already hit, disordered or routed.
pub fn enter(data: &GtsData, spec: &UnitSpec) -> Result<(u32, GtsUnit), RefereeError> {
    let (stats, general) = super::leader::split_general(&spec.stats)?;
    if general.is_some() && spec.role != Role::General {
        return Err(RefereeError::new(
            ErrorCode::BattleInvalidUnit,
            "Only a general's row carries his valour, command and skill: add a leader as a leader, or the unit as a general.",
        )
        .field("pc")
        .rule("1.2"));
    }
    let (stats, leader_pv, escorts) = split_links(&stats)?;
    let entry: UnitEntry = parse_situation(&stats)?;
    let unit = Unit::build(data, &entry, "")?;
    Ok((
        entry.stands,
        GtsUnit {
            hits: entry.hits,
            disordered: entry.disordered,
            rout: entry.routed,
            hits_per_stand: unit.hits_per_stand,
            near_fallen_leader: false,
            leader_pv,
            escorts,
            first_turn_spent: false,
            reserve: false,
            reserve_used: false,
            off_table: false,
            general,
            entry,
        },
    ))
}

/// An edit keeps the unit's hits, Disorder, Rout, the fallen leader's −1 and a spent 1st-turn
/// bonus.
pub fn keep(old: &GtsUnit, new: &mut GtsUnit) {
    new.first_turn_spent = old.first_turn_spent;
    new.hits = old.hits;
    new.disordered = old.disordered;
    new.rout = old.rout;
    new.near_fallen_leader = old.near_fallen_leader;
    new.reserve = old.reserve;
    new.reserve_used = old.reserve_used;
    new.off_table = old.off_table;
    if let (Some(old), Some(new)) = (&old.general, &mut new.general) {
        super::leader::keep(old, new);
    }
}

pub fn land(data: &GtsData, unit: &mut UnitState, own: &mut GtsUnit, change: &Change) -> bool {
    // A general's command points land on his tag, on his guard's row (R-GTS-40).
    if let (Some(general), Change::CommandPoints { .. } | Change::SpendCommand { .. }) =
        (own.general.as_mut(), change)
    {
        return super::leader::land(general, change);
    }
    match change {
        Change::Hits { count } => {
            own.hits = own.hits.saturating_add(*count);
            let per = own.hits_per_stand;
            while per > 0 && own.hits >= per && unit.strength > 0 {
                own.hits -= per;
                unit.strength -= 1;
            }
        }
        Change::LoseUnits { count, .. } | Change::LoseSp { count, .. } => {
            unit.strength = unit.strength.saturating_sub(*count)
        }
        Change::DestroyAll => unit.strength = 0,
        // Reserve, Disorder and Rout exclude one another (3.3): Disordered or Routed, a unit
        // in Reserve loses its chit; a routed unit is not also Disordered (a rally brings
        // Disorder back with it, 3.33), and a Disordered one that routs is only Routed.
        Change::Disorder => {
            own.disordered = !own.rout;
            own.reserve = false;
        }
        Change::Recover => own.disordered = false,
        Change::Rout | Change::RoutUnit => {
            own.rout = true;
            own.disordered = false;
            own.reserve = false;
        }
        // Rallied off the table, it comes back where it left (4.312).
        Change::RemoveRout => {
            own.rout = false;
            own.off_table = false;
        }
        Change::Reserve { placed: true } => {
            own.reserve = true;
            own.reserve_used = true;
        }
        Change::Reserve { placed: false } => own.reserve = false,
        // 4.312: a unit in permanent Rout is lost for good; any other has one rally to return.
        Change::RoutsOffTable => {
            if own.rout && permanent_rout(data, unit, own) {
                unit.strength = 0;
            } else {
                own.off_table = true;
            }
        }
        Change::NearFallenLeader => own.near_fallen_leader = true,
        Change::FirstTurnSpent => own.first_turn_spent = true,
        Change::ShockRecovered => own.first_turn_spent = false,
        _ => return false,
    }
    true
}

/// A routed unit's move towards its friendly table edge, ignoring terrain: its full allowance
/// plus panic dice, which the text never sizes (4.31, R-GTS-39).
fn rout_move(data: &GtsData, unit: &UnitState, own: &GtsUnit) -> String {
    match Unit::build(data, &own.now(unit, &unit.label), "")
        .ok()
        .and_then(|u| u.move_inches.value)
    {
        Some(inches) => format!("rout move {inches}\" + panic dice"),
        None => "rout move: its full move + panic dice".into(),
    }
}

/// Past its dispersal trigger (2.11, 3.33): a Rout it can never rally from.
fn permanent_rout(data: &GtsData, unit: &UnitState, own: &GtsUnit) -> bool {
    Unit::build(data, &own.now(unit, &unit.label), "")
        .is_ok_and(|u| u.trigger_breached(unit.strength, own.hits))
}

/// What a change to Reserve the battle refuses (3.31, 0.0 B a ii, R-GTS-38): only Flexible
/// infantry and cavalry, in good order, formed, once a game for each army.
pub fn refuse(
    state: &BattleState,
    unit: &UnitState,
    own: &GtsUnit,
    change: &Change,
) -> Option<RefereeError> {
    if let (Some(general), Change::SpendCommand { .. }) = (&own.general, change) {
        return super::leader::refuse(unit, general, change);
    }
    if *change != (Change::Reserve { placed: true }) {
        return None;
    }
    let refused = |message: String| {
        Some(
            RefereeError::new(ErrorCode::UnitNotForReserve, message)
                .rule("3.31")
                .ruling("R-GTS-38"),
        )
    };
    if unit.role != Role::Unit || !may_be_reserve(own) {
        return refused(format!(
            "{} cannot be placed in Reserve: only Flexible infantry and cavalry can.",
            unit.label
        ));
    }
    if own.rout || own.disordered || own.off_table {
        return refused(format!(
            "{} is {}: a unit in Reserve is in good order (Reserve, Disorder and Rout exclude one another).",
            unit.label,
            if own.rout { "Routed" } else { "Disordered" }
        ));
    }
    let used = state
        .units
        .values()
        .filter(|u| u.side == unit.side)
        .find(|u| u.detail::<GtsUnit>().is_some_and(|g| g.reserve_used));
    used.and_then(|u| {
        refused(format!(
            "{} already placed {} in Reserve: an army does so once a game.",
            unit.side, u.label
        ))
    })
}

/// Flexible infantry, or cavalry (camelry are cavalry, 2.1), not skirmishing (3.31, R-GTS-38).
fn may_be_reserve(own: &GtsUnit) -> bool {
    let e = &own.entry;
    !e.skirmish
        && own.escorts.is_none()
        && match e.class.as_str() {
            "infantry" => e.training.as_deref() == Some("F"),
            "cavalry" | "camelry" => true,
            _ => false,
        }
}

/// The fallen leader's −1 lasts until the turn ends (Table 1.10, 8).
pub fn end_of_turn(own: &mut GtsUnit) {
    own.near_fallen_leader = false;
    // A general's points cannot be saved (1.2).
    if let Some(general) = own.general.as_mut() {
        general.command_points = 0;
        general.command_spent = 0;
    }
}

/// Table 1.10's fates, besides capture and death: dazed, wounded, unhorsed, seriously wounded. A
/// leader captured, killed or passed out takes no further wound.
pub fn land_on_leader(unit: &mut UnitState, change: &Change) -> bool {
    let gone = unit.leader.is_some_and(LeaderFate::gone);
    match change {
        Change::LeaderDazed | Change::LeaderUnhorsed | Change::LeaderSeriouslyWounded if gone => {}
        Change::LeaderDazed => unit.leader = Some(LeaderFate::Dazed),
        Change::LeaderUnhorsed => unit.leader = Some(LeaderFate::Unhorsed),
        Change::LeaderSeriouslyWounded => unit.leader = Some(LeaderFate::SeriouslyWounded),
        Change::LeaderWounded => {
            if !gone {
                unit.leader_wounds = unit.leader_wounds.saturating_add(1);
            }
        }
        _ => return crate::rule_system::land_leader_fate(unit, change),
    }
    true
}

/// Table 1.10's "for one complete turn" (R-GTS-25): a dazed or unhorsed leader is himself again,
/// a seriously wounded one passes out.
pub fn leader_at_turn_end(unit: &mut UnitState) {
    unit.leader = match unit.leader {
        Some(LeaderFate::Dazed | LeaderFate::Unhorsed) => None,
        Some(LeaderFate::SeriouslyWounded) => Some(LeaderFate::PassedOut),
        other => other,
    };
}

/// The unit in the rules' words: "3/4, Disordered, 2 hits".
pub fn words(data: &GtsData, unit: &UnitState, own: &GtsUnit) -> UnitWords {
    let mut parts = vec![format!("{}/{}", unit.strength, unit.starting)];
    if unit.lost {
        parts.push("lost".into());
    }
    if own.rout {
        parts.push("Rout".into());
        parts.push(if own.off_table {
            "off the table: one rally to return".into()
        } else {
            rout_move(data, unit, own)
        });
    }
    if own.reserve {
        parts.push("in Reserve".into());
    }
    if own.disordered {
        parts.push("Disordered".into());
    }
    match own.hits {
        0 => {}
        1 => parts.push("1 hit".into()),
        n => parts.push(format!("{n} hits")),
    }
    if let Some(e) = &own.escorts {
        parts.push(format!("escorts {e}"));
    }
    if let (Some(pv), None) = (own.leader_pv, unit.leader) {
        parts.push(format!("leader PV {pv:+}"));
    }
    crate::rule_system::leader_parts(unit, &mut parts);
    if own.near_fallen_leader {
        parts.push("−1 for the fallen leader".into());
    }
    if own.first_turn_spent {
        parts.push(format!("{} used", bonus_name(&own.entry)));
    }
    // A general entered with his guard: his command points on his row (R-GTS-40).
    let mut command = Vec::new();
    if let Some(leads) = own.general.as_ref().and_then(|g| g.leads.as_ref()) {
        parts.push(format!("the general leads {leads}"));
    }
    if let Some(general) = &own.general {
        let active = !unit.lost && !unit.leader.is_some_and(LeaderFate::gone);
        super::leader::command_words(general, active, &mut parts, &mut command);
    }
    let row = |key: &Option<String>| {
        key.as_ref().map(|k| match data.rows.get(k) {
            Some(r) => option_label(k, &r.name),
            None => k.clone(),
        })
    };
    let class = match data.classes.get(&own.entry.class) {
        Some(c) => option_label(&own.entry.class, &c.name),
        None => own.entry.class.clone(),
    };
    let type_name = [
        Some(class),
        row(&Some(own.entry.weapon.clone())),
        row(&own.entry.armour),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(", ");
    let q = |label: &str, change: Change| QuickEdit {
        label: label.into(),
        change,
        opens: None,
    };
    UnitWords {
        opens_move: None,
        type_name,
        summary: parts.join(", "),
        quick_edits: if unit.lost {
            Vec::new()
        } else {
            // The state the unit is in can be undone from the roster: a Disordered unit recovers
            // (3.32), a Routed one rallies (3.33) — the roll itself is the response test's.
            vec![
                q("+1 hit", Change::Hits { count: 1 }),
                if own.disordered {
                    q("Recover", Change::Recover)
                } else {
                    q("Disorder", Change::Disorder)
                },
                if own.rout {
                    // 3.33: a rally is a test (a leader or independent command test), so the
                    // button opens it on the unit; its pass lifts the Rout.
                    QuickEdit {
                        opens: Some(RALLY_TEST.into()),
                        ..q("Rally", Change::RemoveRout)
                    }
                } else {
                    q("Rout", Change::RoutUnit)
                },
                q("Remove", Change::DestroyAll),
            ]
            .into_iter()
            // A spent Shock capability comes back by a leader's command point (2.14); HM's
            // bonus is once per battle.
            .chain(
                (own.first_turn_spent && own.entry.weapon == SHOCK)
                    .then(|| q("Shock recovered", Change::ShockRecovered)),
            )
            // 4.312: a router leaving the table; 3.31: the army's one Reserve, and its chit lost
            // when it moves.
            .chain(
                (own.rout && !own.off_table)
                    .then(|| q("Routs off the table", Change::RoutsOffTable)),
            )
            .chain(
                (unit.role == Role::Unit
                    && may_be_reserve(own)
                    && !own.reserve_used
                    && !own.rout
                    && !own.disordered)
                    .then(|| q("Reserve", Change::Reserve { placed: true })),
            )
            .chain(
                own.reserve
                    .then(|| q("Leaves Reserve", Change::Reserve { placed: false })),
            )
            // The move priced from the row (4.1–4.14, 4.5); a unit in Reserve loses its chit by
            // moving (3.31).
            .chain((!own.off_table).then(|| QuickEdit {
                opens: Some(MOVEMENT.into()),
                ..q("Move", Change::Reserve { placed: false })
            }))
            // 4.7: a unit passing through a friend, or forced through one; the friend picked
            // from the army's units.
            .chain((!own.off_table).then(|| QuickEdit {
                opens: Some(INTERPENETRATION.into()),
                ..q("Pass through…", Change::Disorder)
            }))
            .chain(command)
            .collect()
        },
        place: None,
    }
}

/// The action a routed unit's "Rally" opens on it: the response test, its rally (3.33).
pub const RALLY_TEST: &str = "response_test";

/// The action a unit's "Move" opens on it: its move against its allowance (4.1).
pub const MOVEMENT: &str = "movement";

/// The action a unit's "Pass through…" opens on it: its passing through a friend (4.7).
pub const INTERPENETRATION: &str = "interpenetration";

/// The weapon row whose 1st-turn bonus a command point recovers (2.14).
const SHOCK: &str = "SH";

/// The 1st-turn bonus by its weapon's name: "Shock bonus", "HM bonus".
fn bonus_name(entry: &UnitEntry) -> &'static str {
    match entry.weapon.as_str() {
        SHOCK => "Shock bonus",
        "HM" => "pilum or axe bonus",
        _ => "1st-turn melee bonus",
    }
}

/// A Table 2.10 row's modifiers, as printed values.
fn row_values(r: &Row) -> Vec<PrintedValue> {
    let signed = |n: i64| format!("{n:+}");
    let mut v = Vec::new();
    for (label, n) in [
        ("Response", r.response),
        ("Quality", r.quality),
        ("Move", r.move_inches),
        ("Fire attack", r.fire_attack),
        ("Fire defence", r.fire_defence),
        ("Melee", r.melee),
        ("Recoil", r.recoil),
    ] {
        if n != 0 {
            v.push(printed(label, signed(n), "2.10"));
        }
    }
    if let Some(m) = r.melee_first {
        v.push(printed("1st turn melee", signed(m), "2.10"));
    }
    if let Some(c) = &r.weapon_class {
        v.push(printed("Weapon class", c, "2.10"));
    }
    if !r.ranges.is_empty() {
        let inches = r
            .ranges
            .iter()
            .map(|t| format!("{}\"", f64::from(*t) / 10.0))
            .collect::<Vec<_>>()
            .join(", ");
        v.push(printed("Fire range", inches, "2.10"));
    }
    v
}

pub fn fields(d: &GtsData) -> Vec<UnitField> {
    let group = |g: &str| -> Vec<UnitOption> {
        d.rows
            .iter()
            .filter(|(_, r)| r.group == g)
            .map(|(k, r)| UnitOption {
                unit_label: None,
                key: k.clone(),
                label: option_label(k, &r.name),
                fills: Vec::new(),
                printed: row_values(r),
            })
            .collect()
    };
    let classes = d
        .classes
        .iter()
        .map(|(k, c)| {
            let mut values = Vec::new();
            if let Some(m) = c.move_inches {
                values.push(printed("Base move", format!("{m}\""), &c.rule));
            }
            if let Some(h) = c.hits_per_stand {
                values.push(printed("Hits per stand", h, &c.rule));
            }
            if c.mounted {
                values.push(printed("Mounted", "yes", &c.rule));
            }
            for key in &c.rows {
                if let Some(r) = d.rows.get(key) {
                    values.extend(row_values(r));
                }
            }
            UnitOption {
                unit_label: None,
                key: k.clone(),
                label: option_label(k, &c.name),
                fills: Vec::new(),
                printed: values,
            }
        })
        .collect();
    vec![
        Field::new("class", "Class", "2.1", FieldKind::Choice)
            .required()
            .options(classes),
        // Morale, training and order are each unit's own: left empty they mean the standard (no
        // order: Table 2.10 adds nothing), so the unit added before must not fill them in.
        Field::new("morale", "Morale", "2.1, 2.10", FieldKind::Choice)
            .once()
            .help("Leave empty for standard morale.")
            .options(group("morale")),
        Field::new("training", "Training", "2.1, 2.10", FieldKind::Choice)
            .once()
            .help("Leave empty for standard training.")
            .options(group("training")),
        Field::new("armour", "Armour", "2.1, 2.10", FieldKind::Choice).options(group("armour")),
        Field::new("weapon", "Weapon", "2.1, 2.10", FieldKind::Choice)
            .required()
            .help("The unit's primary weapon.")
            .options(group("weapon")),
        Field::new("secondary", "Secondary weapon", "2.13", FieldKind::Choice)
            .help("A second weapon the unit fires with at a penalty.")
            .options(group("weapon")),
        Field::new("order", "Order", "2.10, 3.23", FieldKind::Choice)
            .once()
            .help("Close or open order; elephants have neither.")
            .options(group("order")),
        Field::new("stands", "Stands", "2.11, 5.52", FieldKind::Number)
            .required()
            .range(Some(1), None)
            .help("The stands of the unit when the battle begins."),
        // A general entered with his guard carries his tag on his row (1.2, R-GTS-40).
        Field::new("pv", "General's personal valour (PV)", "1.2, 1.6", FieldKind::Number)
            .general_only()
            .range(Some(-2), Some(2))
            .help("The general's own tag, where he rides with his guard: his valour counts in the guard's fights."),
        Field::new("pc", "General's personal command (PC)", "1.2", FieldKind::Number)
            .general_only()
            .range(Some(1), Some(5)),
        Field::new("ts", "General's tactical skill (TS)", "1.2", FieldKind::Choice)
            .general_only()
            .options(super::leader::grades()),
        Field::new(super::leader::LEADS, "General leads from the front", "1.5, 1.6", FieldKind::Unit)
            .general_only()
            .once()
            .help("Another unit the general has attached to (1.5): his valour counts in its fights, not his guard's, and its rout puts him to the casualty test. Leave empty while he rides with his guard."),
        Field::new(ESCORTS, "Escorts", "3.16", FieldKind::Unit)
            .once()
            .help("For a runner or escort stand (one stand of light or unarmoured infantry): the elephant or chariot it runs with. Its fights take the stand in; leave empty for any other unit."),
    ]
    .into_iter()
    .map(|f| f.0)
    .collect()
}

/// A unit's values from the tables, as the form is filled in.
pub fn preview(d: &GtsData, stats: &serde_json::Value) -> Result<UnitPreview, RefereeError> {
    // A general's tag is his, not his guard's values.
    let (stats, _) = super::leader::split_general(stats)?;
    let (stats, _, _) = split_links(&stats)?;
    let entry: UnitEntry = parse_situation(&stats)?;
    let unit = Unit::build(d, &entry, "")?;
    let class = d
        .classes
        .get(&entry.class)
        .map(|c| c.name.clone())
        .unwrap_or_default();
    let summary = format!(
        "{} stands of {} ({}), response {}, quality {}",
        unit.stands, class, unit.weapon.name, unit.response.value, unit.quality.value
    );
    let values = unit
        .totals()
        .into_iter()
        .map(|t| printed(&t.label, t.value, &t.rule))
        .collect();
    Ok(UnitPreview { summary, values })
}
