//! After combat: forced and voluntary break (4.5.12, 5.2, 2.6.1) and what becomes of a leader
//! whose stack is eliminated (6.1.4).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::data::ItacsData;
use super::results::{effect, effects_of, EffectContext};
use super::situation::{resolve_units, UnitEntry};
use crate::contract::{Change, Check, Effect, Resolution, Target};
use crate::error::RefereeError;
use crate::ErrorCode;

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AfterCombatRules {
    pub withdraw_margin: u32,
    pub withdraw_rule: String,
    pub withdraw_ruling: Option<String>,
    pub break_rule: String,
    pub break_ruling: Option<String>,
    /// Results whose effects include "must_break" (10.7).
    pub must_break_results: Vec<String>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LeaderFate {
    /// The event, in the rule's words.
    pub event: String,
    /// unaffected, captured, freed or killed.
    pub result: String,
    pub text: String,
    pub rule: String,
}

/// Which side of the combat the units fought on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum CombatSide {
    Attacker,
    #[default]
    Defender,
}

/// break_check: may or must these units break at the end of the combat phase?
#[derive(Clone, Debug, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "ItacsBreakSituation")]
pub struct BreakSituation {
    /// The units left in the hex after the result (the survivors), with their movement points.
    pub units: Vec<UnitEntry>,
    #[serde(default)]
    #[ts(optional, as = "Option<CombatSide>")]
    pub side: CombatSide,
    /// The combat result they suffered, e.g. D2XB (10.7).
    #[serde(default)]
    #[ts(optional)]
    pub result: Option<String>,
    /// They attacked a square (2.6.1).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub attacked_square: bool,
    /// The hex has D markers now (5.1, 5.2).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub disrupted: bool,
    /// Movement points of the enemy units they fought in melee this phase (4.5.12).
    #[serde(default)]
    #[ts(optional, as = "Option<Vec<u32>>")]
    pub enemy_movement: Vec<u32>,
    /// Another unit of their formation broke this phase (4.5.12).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub formation_broke: bool,
    /// The attackers' result fell on a single defending unit: a D2XB then leaves them
    /// undisrupted (10.7, R-ITACS-7, R-ITACS-36).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub lone_defender: bool,
}

pub fn break_check(data: &ItacsData, s: &BreakSituation) -> Result<Resolution, RefereeError> {
    let ac = &data.after_combat;
    let rule = ac.break_rule.as_str();
    let units = resolve_units(data, &s.units, "")?;
    let never = units
        .iter()
        .all(|u| u.type_data(data).is_some_and(|t| t.never_breaks));
    let slowest_own = units
        .iter()
        .enumerate()
        .map(|(i, u)| u.movement_points(&format!("units[{i}]")))
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .min()
        .unwrap_or(0);
    let (side_target, side_name) = match s.side {
        CombatSide::Attacker => (Target::Attacker, "attacker"),
        CombatSide::Defender => (Target::Defender, "defender"),
    };
    let mut result_effects: Vec<Effect> = Vec::new();
    if let Some(code) = &s.result {
        if !data.results.contains_key(code) {
            return Err(RefereeError::new(
                ErrorCode::SituationUnknownResult,
                format!(
                    "unknown combat result {}; the results are {}",
                    crate::error::given(code),
                    crate::error::choices(data.results.keys())
                ),
            )
            .field("result")
            .rule("10.7"));
        }
        let square_break = s.attacked_square
            && s.side == CombatSide::Attacker
            && data.melee.square_breaks_attacker_on.contains(code);
        let extra = |_: &str| {
            if square_break {
                vec![effect(
                    Target::Attacker,
                    Change::MustBreak,
                    &data.melee.square_rule,
                    None,
                )]
            } else {
                Vec::new()
            }
        };
        // The units entered are those the result left (10.7): a D2XB that leaves survivors had
        // more than one defender, so "the remaining units must break" applies to them however
        // few they are; the single-defender reading (R-ITACS-7) destroys the lone defender. The
        // attackers' own side cannot tell from their survivors: they say whether the defender
        // was alone (R-ITACS-36), and are disrupted by a D2XB unless he was.
        let lone = s.lone_defender && s.side == CombatSide::Attacker;
        let ctx = EffectContext {
            defending_units: if lone { 1 } else { u32::MAX },
            extra: &extra,
        };
        result_effects = effects_of(data, code, &ctx)
            .into_iter()
            .filter(|e| e.target == side_target)
            .collect();
    }
    let forced = result_effects
        .iter()
        .find(|e| matches!(e.change, Change::MustBreak));
    let disruption_result = result_effects
        .iter()
        .any(|e| matches!(e.change, Change::DMarkers { .. }));
    let slower_enemy = s.enemy_movement.iter().any(|m| *m < slowest_own);
    let voluntary = disruption_result || s.disrupted || slower_enemy || s.formation_broke;
    let mut checks = vec![
        Check::holds(
            format!("The result says the {side_name} must break"),
            forced.is_some(),
            forced.map(|e| e.rule.as_str()).unwrap_or(rule),
        ),
        Check::holds(
            "They suffered a disruption result in this combat",
            disruption_result,
            "5.2",
        ),
        Check::holds("They are disrupted now", s.disrupted, "5.1, 5.2"),
        Check::holds(
            format!(
                "They fought an enemy unit with fewer movement points than theirs ({slowest_own})"
            ),
            slower_enemy,
            "4.5.12, 5.2",
        )
        .ruling(ac.break_ruling.as_deref()),
        Check::holds(
            "Another unit of their formation broke",
            s.formation_broke,
            "4.5.12, 5.2",
        ),
    ];
    // The attackers' survivors cannot tell how many defenders a D2XB fell on: the umpire says.
    if s.side == CombatSide::Attacker && s.result.as_deref() == Some("D2XB") {
        checks.push(
            Check::holds(
                "The D2XB fell on a single defending unit (lone defender): the attackers are then neither disrupted nor made to break",
                s.lone_defender,
                "10.7",
            )
            .ruling(Some("R-ITACS-36")),
        );
    }
    let (result, meaning, effects) = if never {
        (
            "never_breaks",
            "Elephants and fleets never break nor rout.",
            Vec::new(),
        )
    } else if let Some(f) = forced {
        (
            "must_break",
            "Place a Break marker: the rout move is made immediately after the combat phase.",
            vec![effect(side_target, Change::MustBreak, &f.rule, None)],
        )
    } else if voluntary {
        (
            "may_break",
            "They may break: Break marker, rout move now or in their next movement phase.",
            vec![effect(side_target, Change::Break, rule, None)],
        )
    } else {
        ("may_not_break", "Nothing allows them to break.", Vec::new())
    };
    if result != "may_not_break" && !never {
        checks.push(Check::holds(
            "Not disrupted: the rout move is one movement point shorter, then a turn of up to 180°",
            !s.disrupted,
            "5.2",
        ));
        checks.push(Check::umpire(
            "Every other unit of the formation may also break",
            "4.5.12, 5.2",
        ));
    }
    let mut r = Resolution::certain(&data.system.id, "break_check", result, meaning, effects);
    r.checks = checks;
    if s.result.is_some() {
        r.notes.push(crate::contract::Note::new(
            "The units entered are those left in the hex after the result.",
            "10.7",
            None,
        ));
    }
    Ok(r)
}

/// leader_fate: an event of 6.1.4.
#[derive(Clone, Debug, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "ItacsLeaderFateSituation")]
pub struct LeaderFateSituation {
    /// The event (6.1.4).
    pub event: String,
    /// The leader, e.g. 2L Harold.
    #[serde(default)]
    #[ts(optional)]
    pub leader: Option<String>,
}

pub fn leader_fate(data: &ItacsData, s: &LeaderFateSituation) -> Result<Resolution, RefereeError> {
    let fate = data.leader_fate.get(&s.event).ok_or_else(|| {
        RefereeError::new(
            ErrorCode::SituationUnknownEvent,
            format!(
                "unknown event {}; the events are {}",
                crate::error::given(&s.event),
                crate::error::choices(data.leader_fate.keys())
            ),
        )
        .field("event")
        .rule("6.1.4")
    })?;
    let leader = s.leader.clone().unwrap_or_else(|| "The leader".to_string());
    let change = match fate.result.as_str() {
        "captured" => Some(Change::LeaderCaptured),
        "freed" => Some(Change::LeaderFreed),
        "killed" => Some(Change::LeaderKilled),
        _ => None,
    };
    let effects = change
        .map(|c| vec![effect(Target::Unit(leader), c, &fate.rule, None)])
        .unwrap_or_default();
    let mut r = Resolution::certain(
        &data.system.id,
        "leader_fate",
        &fate.result,
        &fate.text,
        effects,
    );
    r.checks
        .push(Check::holds(fate.event.clone(), true, &fate.rule));
    Ok(r)
}
