//! How each system's units enter a battle (checked by the ruleset's own unit rules) and how a
//! change lands on one.

use serde_json::{json, Value};

use super::model::{LeaderFate, Role, UnitId, UnitKind, UnitSpec, UnitState};
use crate::contract::Change;
use crate::error::RefereeError;
use crate::systems::itacs::situation::{resolve_units, stack_state, UnitEntry as ItacsEntry};
use crate::systems::itacs::state::HexState;
use crate::systems::medieval::units::{unit as medieval_unit, MedUnit};
use crate::systems::{dbmm, gts, parse_situation, Ruleset, SystemRules};

/// Prefixes a unit error's field with where the unit was entered.
fn at(e: RefereeError, field: &str) -> RefereeError {
    let inner = e.field.clone();
    let f = match inner {
        Some(i) if !i.is_empty() => format!("{field}.{i}"),
        _ => field.to_string(),
    };
    e.field(f)
}

/// A unit as the battle keeps it, its stats checked by the ruleset (unknown types, zero
/// strengths and the rest are refused with the ruleset's own errors).
pub fn enter(
    ruleset: &Ruleset,
    id: UnitId,
    spec: &UnitSpec,
    field: &str,
) -> Result<UnitState, RefereeError> {
    let stats_field = format!("{field}.stats");
    let (strength, kind, stats) = match &ruleset.rules {
        // A leader is not a unit of any table: its stats are the umpire's notes (range, rating).
        _ if spec.role == Role::Leader => {
            if !spec.stats.is_object() && !spec.stats.is_null() {
                return Err(RefereeError::new(
                    "battle.invalid_unit",
                    "a leader's stats are an object of notes, e.g. {\"range\": 3}",
                )
                .field(stats_field));
            }
            (1, UnitKind::default(), spec.stats.clone())
        }
        SystemRules::Itacs(data) => {
            let entry: ItacsEntry =
                parse_situation(&spec.stats).map_err(|e| at(e, &stats_field))?;
            // The entry is checked as the only unit of a hex: its fields are the entry's own.
            let units = resolve_units(data, std::slice::from_ref(&entry), "").map_err(|e| {
                let own = e.field.as_deref().map(|f| {
                    let f = f.strip_prefix("units[0]").unwrap_or(f);
                    f.strip_prefix('.').unwrap_or(f).to_string()
                });
                at(RefereeError { field: own, ..e }, &stats_field)
            })?;
            let stack = stack_state(data, &units, 0, false, false);
            let kind = UnitKind {
                never_breaks: stack.never_breaks,
                rampages: stack.rampages,
                ..UnitKind::default()
            };
            (entry.count, kind, spec.stats.clone())
        }
        SystemRules::Medieval(data) => {
            let entry: MedUnit = parse_situation(&spec.stats).map_err(|e| at(e, &stats_field))?;
            medieval_unit(data, &entry, "").map_err(|e| at(e, &stats_field))?;
            if entry.count != 1 {
                return Err(RefereeError::new(
                    "battle.one_unit_per_entry",
                    "enter each Medieval counter as its own roster entry (count 1): SP losses and scatters land on one counter",
                )
                .field(format!("{stats_field}.count"))
                .rule("1.2"));
            }
            (entry.sp, UnitKind::default(), spec.stats.clone())
        }
        SystemRules::Dbmm(data) => {
            let entry: dbmm::element::Element =
                parse_situation(&spec.stats).map_err(|e| at(e, &stats_field))?;
            dbmm::element::check(data, &entry, "").map_err(|e| at(e, &stats_field))?;
            (1, UnitKind::default(), spec.stats.clone())
        }
        SystemRules::Gts(data) => {
            let entry: gts::units::UnitEntry =
                parse_situation(&spec.stats).map_err(|e| at(e, &stats_field))?;
            let unit =
                gts::units::Unit::build(data, &entry, "").map_err(|e| at(e, &stats_field))?;
            let kind = UnitKind {
                hits_per_stand: unit.hits_per_stand,
                ..UnitKind::default()
            };
            (entry.stands, kind, spec.stats.clone())
        }
    };
    if spec.label.trim().is_empty() {
        return Err(RefereeError::new(
            "battle.invalid_unit",
            "a unit needs a label the umpire knows it by",
        )
        .field(format!("{field}.label")));
    }
    if strength == 0 && spec.role == Role::Unit {
        return Err(RefereeError::new(
            "battle.invalid_unit",
            "a unit enters the battle with a strength of 1 or more",
        )
        .field(stats_field));
    }
    let mut unit = UnitState {
        id,
        label: spec.label.clone(),
        side: spec.side.clone(),
        command: spec.command.clone(),
        role: spec.role,
        stats,
        strength,
        starting: strength,
        d_markers: 0,
        broken: false,
        rout: false,
        scattered: false,
        disordered: false,
        hits: 0,
        lost: false,
        leader: None,
        leader_wounds: 0,
        near_fallen_leader: false,
        moves: Vec::new(),
        threw: false,
        kind,
    };
    // GTS units may enter already hit, disordered or routed.
    if let SystemRules::Gts(_) = &ruleset.rules {
        // The roster keeps the stands the unit started with, for its terminal rout trigger
        // (2.11): later situations built from the stats read them, not the stands left.
        if unit.stats.get("starting_stands").is_none() {
            set(&mut unit.stats, "starting_stands", json!(strength));
        }
        unit.hits = unit.stats.get("hits").and_then(Value::as_u64).unwrap_or(0) as u32;
        unit.disordered = unit.stats.get("disordered") == Some(&json!(true));
        unit.rout = unit.stats.get("routed") == Some(&json!(true));
    }
    Ok(unit)
}

/// A unit's entry corrected by the umpire: the new entry is checked exactly like `enter`, and the
/// unit keeps the losses and markers it has (strength = the new starting strength less the losses
/// so far, not below 0).
pub fn edit(
    ruleset: &Ruleset,
    old: &UnitState,
    spec: &UnitSpec,
    field: &str,
) -> Result<UnitState, RefereeError> {
    // A DBMM element keeps how it left the table (`state`, set by the battle, not the umpire).
    let mut checked = spec.clone();
    let state = match (&ruleset.rules, checked.stats.as_object_mut()) {
        (SystemRules::Dbmm(_), Some(map)) => map.remove("state"),
        _ => None,
    };
    let mut unit = enter(ruleset, old.id, &checked, field)?;
    let losses = old.starting.saturating_sub(old.strength);
    unit.strength = unit.starting.saturating_sub(losses);
    unit.d_markers = old.d_markers;
    unit.broken = old.broken;
    unit.rout = old.rout;
    unit.scattered = old.scattered;
    unit.disordered = old.disordered;
    unit.hits = old.hits;
    unit.leader = old.leader;
    unit.leader_wounds = old.leader_wounds;
    unit.near_fallen_leader = old.near_fallen_leader;
    unit.moves.clone_from(&old.moves);
    unit.kind.rampaging = old.kind.rampaging;
    unit.threw = old.threw;
    unit.lost = old.leader == Some(LeaderFate::Killed) || (unit.starting > 0 && unit.strength == 0);
    if let SystemRules::Dbmm(_) = &ruleset.rules {
        if let Some(state) = old.stats.get("state").cloned().or(state) {
            set(&mut unit.stats, "state", state);
        }
    }
    sync_stats(ruleset, &mut unit);
    Ok(unit)
}

/// A new turn ends what Table 1.10 gave "for one complete turn" (GTS, R-GTS-25): a dazed or
/// unhorsed leader is himself again, a seriously wounded one passes out, and the −1 of a fallen
/// leader is over.
pub fn end_of_turn(unit: &mut UnitState) {
    unit.leader = match unit.leader {
        Some(LeaderFate::Dazed | LeaderFate::Unhorsed) => None,
        Some(LeaderFate::SeriouslyWounded) => Some(LeaderFate::PassedOut),
        other => other,
    };
    unit.near_fallen_leader = false;
}

/// Lands one change on a unit. Total: it never fails, so a replay always completes.
pub fn land(ruleset: &Ruleset, unit: &mut UnitState, change: &Change) {
    match (&ruleset.rules, change) {
        (SystemRules::Itacs(data), _) if itacs_marker_change(change) => {
            let mut hex = HexState {
                units: unit.strength,
                d_markers: unit.d_markers,
                broken: unit.broken,
                rout: unit.rout,
                square: false,
                never_breaks: unit.kind.never_breaks,
                rampages: unit.kind.rampages,
                rampaging: unit.kind.rampaging,
            };
            hex.apply(change, &data.markers);
            unit.strength = hex.units;
            unit.d_markers = hex.d_markers;
            unit.broken = hex.broken;
            unit.rout = hex.rout;
            unit.kind.rampaging = hex.rampaging;
        }
        (_, Change::DMarkers { count }) => unit.d_markers = unit.d_markers.saturating_add(*count),
        (_, Change::RemoveDMarkers { count }) => {
            unit.d_markers = unit.d_markers.saturating_sub(*count)
        }
        (_, Change::LoseUnits { count, .. } | Change::LoseSp { count, .. }) => {
            unit.strength = unit.strength.saturating_sub(*count)
        }
        (_, Change::DestroyAll) => unit.strength = 0,
        (_, Change::MustBreak | Change::Break) => unit.broken = true,
        (_, Change::RemoveBreak) => unit.broken = false,
        (_, Change::Rout | Change::RoutUnit) => unit.rout = true,
        (_, Change::RemoveRout) => unit.rout = false,
        (_, Change::Scatter) => unit.scattered = true,
        (_, Change::Disorder) => unit.disordered = true,
        (_, Change::Hits { count }) => {
            unit.hits = unit.hits.saturating_add(*count);
            let per = unit.kind.hits_per_stand;
            while per > 0 && unit.hits >= per && unit.strength > 0 {
                unit.hits -= per;
                unit.strength -= 1;
            }
        }
        (_, Change::ReduceChargeFactor { by }) => {
            let cf = unit.stats.get("cf").and_then(Value::as_u64).unwrap_or(0);
            set(
                &mut unit.stats,
                "cf",
                json!(cf.saturating_sub(u64::from(*by))),
            );
        }
        (_, Change::ResetChargeFactor) => set(&mut unit.stats, "cf", json!(0)),
        (_, Change::ConvertTo { unit_type }) => set(&mut unit.stats, "type", json!(unit_type)),
        (_, Change::LeaderCaptured) => unit.leader = Some(LeaderFate::Captured),
        (_, Change::LeaderFreed) => unit.leader = None,
        // A leader's own row is lost with him; a unit whose leader rode with it (GTS leaders
        // mapped onto the unit they lead) loses its leader, not itself.
        (_, Change::LeaderKilled) => {
            unit.leader = Some(LeaderFate::Killed);
            if unit.role != Role::Unit {
                unit.lost = true;
            }
        }
        // Table 1.10: a leader captured, killed or passed out takes no further wound.
        (_, Change::LeaderDazed | Change::LeaderUnhorsed | Change::LeaderSeriouslyWounded)
            if unit.leader.is_some_and(LeaderFate::gone) => {}
        (_, Change::LeaderDazed) => unit.leader = Some(LeaderFate::Dazed),
        (_, Change::LeaderUnhorsed) => unit.leader = Some(LeaderFate::Unhorsed),
        (_, Change::LeaderSeriouslyWounded) => unit.leader = Some(LeaderFate::SeriouslyWounded),
        (_, Change::LeaderWounded) => {
            if !unit.leader.is_some_and(LeaderFate::gone) {
                unit.leader_wounds = unit.leader_wounds.saturating_add(1);
            }
        }
        (_, Change::NearFallenLeader) => unit.near_fallen_leader = true,
        (_, Change::Retreat { .. } | Change::RecoilMove { .. } | Change::Rampage { .. }) => {}
        (_, Change::VictoryPoints { .. } | Change::Morale { .. }) => {}
        (_, Change::ThrowingWeaponsUsed) => unit.threw = true,
        (_, Change::ElementFate { fate }) => match fate.as_str() {
            // The element leaves the table; its state says how, for the ME tallies (p. 42).
            "destroyed" | "spent" | "off_table" => {
                unit.strength = 0;
                set(&mut unit.stats, "state", json!(fate));
            }
            _ => {}
        },
    }
    let outcome_move = matches!(change, Change::ElementFate { fate } if !["destroyed", "spent", "off_table"].contains(&fate.as_str()));
    if outcome_move
        || matches!(
            change,
            Change::Retreat { .. } | Change::RecoilMove { .. } | Change::Rampage { .. }
        )
    {
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
    if unit.strength == 0 && unit.starting > 0 {
        unit.lost = true;
    }
    sync_stats(ruleset, unit);
}

fn itacs_marker_change(change: &Change) -> bool {
    matches!(
        change,
        Change::DMarkers { .. }
            | Change::RemoveDMarkers { .. }
            | Change::LoseUnits { .. }
            | Change::DestroyAll
            | Change::MustBreak
            | Change::Break
            | Change::Rout
            | Change::RemoveBreak
            | Change::RemoveRout
    )
}

fn set(stats: &mut Value, key: &str, value: Value) {
    if let Some(map) = stats.as_object_mut() {
        map.insert(key.to_string(), value);
    }
}

/// Keeps the stats the system's actions read in step with the state.
fn sync_stats(ruleset: &Ruleset, unit: &mut UnitState) {
    match &ruleset.rules {
        SystemRules::Itacs(_) => {
            if unit.strength > 0 {
                set(&mut unit.stats, "count", json!(unit.strength));
            }
        }
        SystemRules::Medieval(_) => {
            if unit.strength > 0 {
                set(&mut unit.stats, "sp", json!(unit.strength));
            }
        }
        SystemRules::Gts(_) => {
            if unit.strength > 0 {
                set(&mut unit.stats, "stands", json!(unit.strength));
            }
            set(&mut unit.stats, "hits", json!(unit.hits));
            set(&mut unit.stats, "disordered", json!(unit.disordered));
            set(&mut unit.stats, "routed", json!(unit.rout));
        }
        SystemRules::Dbmm(_) => {}
    }
}
