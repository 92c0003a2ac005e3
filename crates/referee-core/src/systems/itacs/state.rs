//! Hex state (5.0–5.3): the D, Break and Rout markers on a stack, how a change applies to them,
//! and the phases that remove them: end of movement (5.2.1, 5.3.2, 6.1.1) and recovery (4.6).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::data::ItacsData;
use super::results::effect;
use super::situation::{resolve_units, stack_state, UnitEntry};
use crate::contract::{Change, Check, Effect, Note, Resolution, Target, Total};
use crate::error::RefereeError;
use crate::rule_system::resolve::{is_false, is_true, is_zero};
use crate::ErrorCode;

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MarkerRules {
    pub rule: String,
    /// D markers at which a hex routs (5.1).
    pub rout_at: u32,
    pub rout_rule: String,
    pub recovery_removes: u32,
    pub recovery_rule: String,
    pub leader_removes: u32,
    pub leader_rule: String,
    pub leader_rout_rule: String,
    /// The reading that a leader's own hex need not hold a Rout marker (R-ITACS-29).
    pub leader_rout_own_hex_ruling: String,
    pub leader_ruling: Option<String>,
    pub end_of_break_rule: String,
    pub square_rule: String,
}

/// The markers on one hex and what kind of stack carries them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct HexState {
    pub units: u32,
    pub d_markers: u32,
    pub broken: bool,
    pub rout: bool,
    pub square: bool,
    /// Elephants and fleets never break nor rout (6.9.2, 6.7.5).
    pub never_breaks: bool,
    /// An elephant: disrupted, it rampages and keeps its D marker for good (6.9.2).
    pub rampages: bool,
    pub rampaging: bool,
}

/// What else happened when a change was applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Consequence {
    /// 3 or more D markers: a Rout marker is placed (5.1).
    Routed,
    /// Disrupted or lost a unit: no longer a square (2.6.1).
    SquareBroken,
    /// An elephant disrupted: rampages for the rest of the game (6.9.2).
    Rampaging,
    /// No units left: the markers go with them.
    Emptied,
    /// Elephants and fleets never break nor rout.
    ImmuneToBreak,
    /// A rampaging elephant's D marker is never removed.
    PermanentDisruption,
}

impl HexState {
    pub fn disrupted(&self) -> bool {
        self.units > 0 && self.d_markers > 0
    }

    /// Applies one change; markers never go below zero, an empty hex keeps none.
    pub fn apply(&mut self, change: &Change, rules: &MarkerRules) -> Vec<Consequence> {
        let mut out = Vec::new();
        if self.units == 0 {
            *self = HexState::default();
            return out;
        }
        match change {
            Change::DMarkers { count } => {
                if *count == 0 {
                    return out;
                }
                self.d_markers = self.d_markers.saturating_add(*count);
                if self.square {
                    self.square = false;
                    out.push(Consequence::SquareBroken);
                }
                if self.rampages && !self.rampaging {
                    self.rampaging = true;
                    out.push(Consequence::Rampaging);
                }
                if self.d_markers >= rules.rout_at && !self.rout {
                    if self.never_breaks {
                        out.push(Consequence::ImmuneToBreak);
                    } else {
                        self.rout = true;
                        out.push(Consequence::Routed);
                    }
                }
            }
            Change::RemoveDMarkers { count } => {
                if self.rampaging {
                    out.push(Consequence::PermanentDisruption);
                } else {
                    self.d_markers = self.d_markers.saturating_sub(*count);
                }
            }
            Change::LoseUnits { count, .. } => {
                self.units = self.units.saturating_sub(*count);
                if self.square {
                    self.square = false;
                    out.push(Consequence::SquareBroken);
                }
            }
            Change::DestroyAll => self.units = 0,
            Change::MustBreak | Change::Break | Change::Rout => {
                if self.never_breaks {
                    out.push(Consequence::ImmuneToBreak);
                } else if matches!(change, Change::Rout) {
                    self.rout = true;
                } else {
                    self.broken = true;
                }
            }
            Change::RemoveBreak => self.broken = false,
            Change::RemoveRout => self.rout = false,
            Change::VictoryPoints { .. }
            | Change::ConvertTo { .. }
            | Change::LeaderCaptured
            | Change::LeaderDazed
            | Change::LeaderWounded
            | Change::LeaderUnhorsed
            | Change::LeaderSeriouslyWounded
            | Change::NearFallenLeader
            | Change::LeaderFreed
            | Change::LeaderKilled
            | Change::Rampage { .. }
            | Change::LoseSp { .. }
            | Change::Retreat { .. }
            | Change::RetreatTo { .. }
            | Change::Scatter
            | Change::ReduceChargeFactor { .. }
            | Change::ResetChargeFactor
            | Change::Morale { .. }
            | Change::MoraleIfEliminated { .. }
            | Change::MoraleInForce { .. }
            | Change::Regroup
            | Change::Formation { .. }
            | Change::Square { .. }
            | Change::MustRestack { .. }
            | Change::Fatigue { .. }
            | Change::FatigueLevel { .. }
            | Change::Banner { .. }
            | Change::Hits { .. }
            | Change::Disorder
            | Change::RoutUnit
            | Change::RecoilMove { .. }
            | Change::FollowUp
            | Change::Recover
            | Change::FirstTurnSpent
            | Change::ShockRecovered
            | Change::Reserve { .. }
            | Change::RoutsOffTable
            | Change::CommandPoints { .. }
            | Change::SpendCommand { .. }
            | Change::LeaderMovedFromContact { .. }
            | Change::ElementFate { .. }
            | Change::ThrowingWeaponsUsed
            | Change::EntersHex { .. }
            | Change::SplitOff { .. }
            | Change::BattleClock { .. }
            | Change::RetreatAtDusk
            | Change::TerrainChosen { .. } => {}
        }
        if self.units == 0 {
            *self = HexState::default();
            out.push(Consequence::Emptied);
        }
        out
    }

    /// One word for the state, worst first.
    pub fn summary(&self) -> &'static str {
        if self.units == 0 {
            "destroyed"
        } else if self.rout {
            "routs"
        } else if self.broken {
            "broken"
        } else if self.d_markers > 0 {
            "disrupted"
        } else {
            "steady"
        }
    }
}

fn consequence_note(c: Consequence, rules: &MarkerRules) -> Note {
    match c {
        Consequence::Routed => Note::new(
            format!(
                "{} or more D markers: the hex routs (Rout marker).",
                rules.rout_at
            ),
            &rules.rout_rule,
            None,
        ),
        Consequence::SquareBroken => Note::new(
            "The square is disrupted or lost a unit: it is no longer a square.",
            &rules.square_rule,
            None,
        ),
        Consequence::Rampaging => Note::new(
            "The elephant is disrupted: its D marker stays for the rest of the game and it rampages.",
            "6.9.2",
            None,
        ),
        Consequence::Emptied => Note::new("No units are left in the hex.", "10.7", None),
        Consequence::ImmuneToBreak => Note::new(
            "Elephants and fleets never break nor rout.",
            "6.7.5, 6.9.2",
            None,
        ),
        Consequence::PermanentDisruption => Note::new(
            "A rampaging elephant's D markers can never be removed.",
            "6.9.2",
            Some("R-ITACS-38"),
        ),
    }
}

fn default_true() -> bool {
    true
}

/// A hex as the umpire sees it: its markers and units.
#[derive(Clone, Debug, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "ItacsHexState")]
pub struct HexEntry {
    #[serde(default)]
    #[ts(optional)]
    pub label: Option<String>,
    #[serde(default)]
    #[ts(optional, as = "Option<u32>")]
    pub d_markers: u32,
    #[serde(default, rename = "break")]
    #[ts(optional, as = "Option<bool>", rename = "break")]
    pub broken: bool,
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub rout: bool,
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub square: bool,
    /// An elephant already rampaging (its D marker is permanent, 6.9.2).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub rampaging: bool,
    pub units: Vec<UnitEntry>,
}

impl HexEntry {
    pub fn state(&self, data: &ItacsData, field: &str) -> Result<HexState, RefereeError> {
        let units = resolve_units(data, &self.units, field)?;
        let mut state = stack_state(data, &units, self.d_markers, self.rout, self.square);
        state.broken = self.broken;
        state.rampaging = self.rampaging;
        Ok(state)
    }
}

/// markers: changes applied to one hex, with the rout, square and elephant rules.
#[derive(Clone, Debug, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "ItacsMarkersSituation")]
pub struct MarkersSituation {
    pub hex: HexEntry,
    /// A combat result code applied to the hex first, e.g. DD or D1X (10.7).
    #[serde(default)]
    #[ts(optional)]
    pub result: Option<String>,
    /// Which side of that combat the hex was on (default the defender).
    #[serde(default)]
    #[ts(optional, as = "Option<super::after_combat::CombatSide>")]
    pub side: super::after_combat::CombatSide,
    /// The changes, in order, e.g. two results' D markers.
    #[serde(default)]
    #[ts(optional, as = "Option<Vec<Change>>")]
    pub changes: Vec<Change>,
}

fn marker_totals(before: &HexState, after: &HexState, rule: &str) -> Vec<Total> {
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    vec![
        Total {
            label: "Units".into(),
            value: format!("{} → {}", before.units, after.units),
            rule: "10.7".into(),
            ruling: None,
        },
        Total {
            label: "D markers".into(),
            value: format!("{} → {}", before.d_markers, after.d_markers),
            rule: rule.into(),
            ruling: None,
        },
        Total {
            label: "Break marker".into(),
            value: format!("{} → {}", yes_no(before.broken), yes_no(after.broken)),
            rule: "5.2".into(),
            ruling: None,
        },
        Total {
            label: "Rout marker".into(),
            value: format!("{} → {}", yes_no(before.rout), yes_no(after.rout)),
            rule: "5.3".into(),
            ruling: None,
        },
    ]
}

pub fn markers(data: &ItacsData, s: &MarkersSituation) -> Result<Resolution, RefereeError> {
    let rules = &data.markers;
    let before = s.hex.state(data, "hex")?;
    let mut after = before;
    let target = s
        .hex
        .label
        .clone()
        .map(Target::Hex)
        .unwrap_or(Target::Defender);
    let mut effects: Vec<Effect> = Vec::new();
    let mut notes = Vec::new();
    let mut changes: Vec<(Change, String, Option<String>)> = Vec::new();
    if let Some(code) = &s.result {
        if !data.results.contains_key(code) {
            return Err(RefereeError::new(
                ErrorCode::SituationUnknownResult,
                format!(
                    "unknown combat result `{code}`; the results are {}",
                    data.results.keys().cloned().collect::<Vec<_>>().join(", ")
                ),
            )
            .field("result")
            .rule("10.7"));
        }
        let side = match s.side {
            super::after_combat::CombatSide::Attacker => Target::Attacker,
            super::after_combat::CombatSide::Defender => Target::Defender,
        };
        let no_extra = |_: &str| Vec::new();
        let ctx = super::results::EffectContext {
            defending_units: before.units,
            extra: &no_extra,
        };
        for e in super::results::effects_of(data, code, &ctx) {
            if e.target == side {
                changes.push((e.change, e.rule, e.ruling));
            }
        }
    }
    changes.extend(
        s.changes
            .iter()
            .map(|c| (c.clone(), rules.rule.clone(), None)),
    );
    for (change, rule, ruling) in &changes {
        effects.push(effect(
            target.clone(),
            change.clone(),
            rule,
            ruling.as_deref(),
        ));
        for c in after.apply(change, rules) {
            if c == Consequence::Routed {
                effects.push(effect(target.clone(), Change::Rout, &rules.rout_rule, None));
            }
            notes.push(consequence_note(c, rules));
        }
    }
    let state = after.summary();
    let mut r = Resolution::certain(
        &data.system.id,
        "markers",
        state,
        &match state {
            "routs" => "The hex routs after the changes.".to_string(),
            other => format!("The hex is {other} after the changes."),
        },
        effects,
    );
    r.totals = marker_totals(&before, &after, &rules.rule);
    r.notes = notes;
    if after.rout {
        r.checks.extend(rout_move_checks());
    }
    Ok(r)
}

/// The rout move as a checklist: only the map shows the hexes (5.3.1, 5.3.3).
pub fn rout_move_checks() -> Vec<Check> {
    vec![
        Check::umpire(
            "Rout move: each hex entered is farther from the nearest enemy unit, using the full allowance and the most hexes; no hex farther: stop and take one D marker",
            "5.3.1",
        ),
        Check::umpire(
            "A routed unit adjacent to the map edge with movement left leaves the map and counts as destroyed",
            "5.3.3",
        ),
    ]
}

/// A leader at the end of the movement phase.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "ItacsLeader")]
pub struct LeaderEntry {
    pub label: String,
    /// Control range in hexes (6.1).
    pub control_range: u32,
}

/// A hex in the end-of-movement or recovery phase.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "ItacsPhaseHex")]
pub struct PhaseHex {
    pub label: String,
    /// The formation its units belong to (2.6), for leaders' reach.
    #[serde(default)]
    #[ts(optional)]
    pub formation: Option<String>,
    /// The units belong to the player whose movement phase ends (5.2.1).
    #[serde(default = "default_true", skip_serializing_if = "is_true")]
    #[schemars(extend("default" = true))]
    #[ts(optional, as = "Option<bool>")]
    pub moving_player: bool,
    #[serde(default, skip_serializing_if = "is_zero")]
    #[ts(optional, as = "Option<u32>")]
    pub d_markers: u32,
    #[serde(default, rename = "break", skip_serializing_if = "is_false")]
    #[ts(optional, as = "Option<bool>", rename = "break")]
    pub broken: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    #[ts(optional, as = "Option<bool>")]
    pub rout: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    #[ts(optional, as = "Option<bool>")]
    pub rampaging: bool,
    /// Leaders stacked in the hex.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(optional, as = "Option<Vec<LeaderEntry>>")]
    pub leaders: Vec<LeaderEntry>,
    /// Hexes from this hex to leaders elsewhere, by leader label.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[ts(optional, as = "Option<BTreeMap<String, u32>>")]
    pub leader_distances: BTreeMap<String, u32>,
}

/// end_of_movement and recovery: every hex with markers.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "ItacsPhaseSituation")]
pub struct PhaseSituation {
    pub hexes: Vec<PhaseHex>,
}

fn phase_state(h: &PhaseHex) -> HexState {
    HexState {
        units: 1,
        d_markers: h.d_markers,
        broken: h.broken,
        rout: h.rout,
        rampaging: h.rampaging,
        rampages: h.rampaging,
        ..HexState::default()
    }
}

fn unique_labels(s: &PhaseSituation) -> Result<(), RefereeError> {
    for (i, h) in s.hexes.iter().enumerate() {
        if s.hexes[..i].iter().any(|o| o.label == h.label) {
            return Err(RefereeError::new(
                ErrorCode::SituationDuplicateLabel,
                format!("hex “{}” is listed twice", h.label),
            )
            .field(format!("hexes[{i}].label")));
        }
    }
    Ok(())
}

/// Changes per hex, in hex order, as effects and before → after totals.
fn phase_answer(
    data: &ItacsData,
    action: &str,
    s: &PhaseSituation,
    changes: &[Vec<(Change, String, Option<String>)>],
) -> Resolution {
    let rules = &data.markers;
    let mut effects = Vec::new();
    let mut totals = Vec::new();
    let mut notes = Vec::new();
    for (hex, list) in s.hexes.iter().zip(changes) {
        let before = phase_state(hex);
        let mut after = before;
        for (change, rule, ruling) in list {
            let consequences = after.apply(change, rules);
            if consequences.contains(&Consequence::PermanentDisruption) {
                notes.push(Note::new(
                    format!("{}: a rampaging elephant keeps its D markers.", hex.label),
                    "6.9.2",
                    Some("R-ITACS-38"),
                ));
                continue;
            }
            effects.push(effect(
                Target::Hex(hex.label.clone()),
                change.clone(),
                rule,
                ruling.as_deref(),
            ));
        }
        if before != after {
            let mut parts = Vec::new();
            if before.d_markers != after.d_markers {
                parts.push(format!("D {} → {}", before.d_markers, after.d_markers));
            }
            if before.broken != after.broken {
                parts.push("Break removed".to_string());
            }
            if before.rout != after.rout {
                parts.push("Rout removed".to_string());
            }
            totals.push(Total {
                label: hex.label.clone(),
                value: parts.join(", "),
                rule: rules.rule.clone(),
                ruling: None,
            });
        }
    }
    let (result, meaning) = if effects.is_empty() {
        ("no_change", "No marker is removed.")
    } else {
        ("markers_removed", "Remove the markers listed.")
    };
    let mut r = Resolution::certain(&data.system.id, action, result, meaning, effects);
    r.totals = totals;
    r.notes = notes;
    r
}

pub fn end_of_movement(data: &ItacsData, s: &PhaseSituation) -> Result<Resolution, RefereeError> {
    unique_labels(s)?;
    let rules = &data.markers;
    let ruling = rules.leader_ruling.clone();
    let mut changes: Vec<Vec<(Change, String, Option<String>)>> = vec![Vec::new(); s.hexes.len()];
    let mut d_removed = vec![0u32; s.hexes.len()];
    let mut rout_removed = vec![false; s.hexes.len()];
    let mut rout_ruling: Vec<Option<String>> = vec![None; s.hexes.len()];
    let leaders: Vec<(usize, &LeaderEntry)> = s
        .hexes
        .iter()
        .enumerate()
        .flat_map(|(i, h)| h.leaders.iter().map(move |l| (i, l)))
        .collect();
    for (i, h) in s.hexes.iter().enumerate() {
        for name in h.leader_distances.keys() {
            if !leaders.iter().any(|(_, l)| &l.label == name) {
                return Err(RefereeError::new(
                    ErrorCode::SituationUnknownLeader,
                    format!(
                        "no hex lists a leader {}: add him to the leaders of his hex",
                        crate::error::given(name)
                    ),
                )
                .field(format!("hexes[{i}].leader_distances.{name}"))
                .rule("6.1.1"));
            }
        }
    }
    for (home, leader) in &leaders {
        let formation = &s.hexes[*home].formation;
        for (i, h) in s.hexes.iter().enumerate() {
            let same_formation = i == *home || (formation.is_some() && h.formation == *formation);
            if !same_formation {
                continue;
            }
            let in_range = i == *home
                || h.leader_distances
                    .get(&leader.label)
                    .is_some_and(|d| *d <= leader.control_range);
            if in_range && h.d_markers > d_removed[i] {
                d_removed[i] += rules.leader_removes.min(h.d_markers - d_removed[i]);
            }
            // 5.3.2: every Rout marker of the leader's formation, whatever the range, whether or
            // not the leader's own hex has one (R-ITACS-29).
            if h.rout && !rout_removed[i] {
                rout_removed[i] = true;
                if i != *home && !s.hexes[*home].rout {
                    rout_ruling[i] = Some(rules.leader_rout_own_hex_ruling.clone());
                }
            }
        }
    }
    for (i, h) in s.hexes.iter().enumerate() {
        if d_removed[i] > 0 {
            changes[i].push((
                Change::RemoveDMarkers {
                    count: d_removed[i],
                },
                rules.leader_rule.clone(),
                ruling.clone(),
            ));
        }
        if rout_removed[i] {
            changes[i].push((
                Change::RemoveRout,
                rules.leader_rout_rule.clone(),
                rout_ruling[i].clone().or(ruling.clone()),
            ));
        }
        if h.broken && h.moving_player {
            changes[i].push((Change::RemoveBreak, rules.end_of_break_rule.clone(), None));
        }
    }
    let mut r = phase_answer(data, "end_of_movement", s, &changes);
    r.checks.push(Check::umpire(
        "Each leader counts control range in hexes from his own hex to hexes of his formation",
        &rules.leader_rule,
    ));
    Ok(r)
}

pub fn recovery(data: &ItacsData, s: &PhaseSituation) -> Result<Resolution, RefereeError> {
    unique_labels(s)?;
    let rules = &data.markers;
    let changes: Vec<Vec<(Change, String, Option<String>)>> = s
        .hexes
        .iter()
        .map(|h| {
            if h.d_markers > 0 {
                vec![(
                    Change::RemoveDMarkers {
                        count: rules.recovery_removes.min(h.d_markers),
                    },
                    rules.recovery_rule.clone(),
                    None,
                )]
            } else {
                Vec::new()
            }
        })
        .collect();
    let mut r = phase_answer(data, "recovery", s, &changes);
    r.notes.push(Note::new(
        "Rout markers stay: only a leader ends a rout.",
        "5.3.2",
        None,
    ));
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn rules() -> MarkerRules {
        let ruleset = crate::systems::itacs::tests::itacs_data();
        ruleset.markers
    }

    fn change() -> impl Strategy<Value = Change> {
        prop_oneof![
            (0u32..4).prop_map(|count| Change::DMarkers { count }),
            (0u32..4).prop_map(|count| Change::RemoveDMarkers { count }),
            (0u32..3).prop_map(|count| Change::LoseUnits {
                count,
                chosen_by: crate::contract::Chooser::Defender
            }),
            Just(Change::MustBreak),
            Just(Change::RemoveBreak),
            Just(Change::RemoveRout),
        ]
    }

    proptest! {
        // Markers never go negative (u32 saturates) and an empty hex keeps no markers.
        #[test]
        fn an_empty_hex_keeps_no_markers(units in 0u32..5, d in 0u32..6, changes in prop::collection::vec(change(), 0..12)) {
            let rules = rules();
            let mut hex = HexState { units, d_markers: d, ..HexState::default() };
            for c in &changes {
                let before = hex;
                hex.apply(c, &rules);
                if hex.units == 0 {
                    prop_assert_eq!(hex, HexState::default());
                }
                match c {
                    Change::RemoveDMarkers { count } if before.units > 0 => {
                        prop_assert_eq!(hex.d_markers, before.d_markers.saturating_sub(*count));
                    }
                    Change::DMarkers { count } if hex.units > 0 => {
                        prop_assert_eq!(hex.d_markers, before.d_markers + count);
                    }
                    _ => {}
                }
            }
        }

        // Applying D markers to a hex without a Rout marker: it routs iff it ends with 3 or more.
        #[test]
        fn rout_iff_three_or_more_d_markers(units in 1u32..5, d in 0u32..3, adds in prop::collection::vec(0u32..4, 1..5)) {
            let rules = rules();
            let mut hex = HexState { units, d_markers: d, ..HexState::default() };
            for count in adds {
                hex.apply(&Change::DMarkers { count }, &rules);
                prop_assert_eq!(hex.rout, hex.d_markers >= rules.rout_at);
            }
        }

        // Elephants and fleets never rout, whatever they take.
        #[test]
        fn elephants_never_rout(adds in prop::collection::vec(0u32..4, 1..6)) {
            let rules = rules();
            let mut hex = HexState { units: 1, never_breaks: true, rampages: true, ..HexState::default() };
            for count in adds {
                hex.apply(&Change::DMarkers { count }, &rules);
                hex.apply(&Change::MustBreak, &rules);
                prop_assert!(!hex.rout && !hex.broken);
            }
        }
    }
}
