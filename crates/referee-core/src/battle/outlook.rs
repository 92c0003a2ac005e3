//! The battle's outlook under a resolution: for every break point not yet reached, the exact
//! chance that applying this roll's result reaches it ("P(the Romans reach their panic level)").

use super::changes::{changes_for, Mapping};
use super::fold::apply_changes;
use super::standing;
use crate::contract::{Chance, Resolution, ResultOdds};
use crate::error::RefereeError;
use crate::odds::Probability;
use crate::rule_system::Gauge;
use crate::state::BattleState;
use crate::systems::Ruleset;
use crate::ErrorCode;

/// After the dice: the resolution narrowed to its outcome, so that the outlook says what this
/// roll's result does (each chance then 0 or 1) rather than what any roll might.
pub fn settled(resolution: &Resolution) -> Resolution {
    let mut settled = resolution.clone();
    if let Some(o) = &resolution.outcome {
        settled.distribution = vec![ResultOdds::new(
            &o.result,
            &o.meaning,
            o.dice
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join("-"),
            Probability::ONE,
            o.effects.clone(),
        )];
    }
    settled
}

/// Each result is applied to a copy of the battle with the mapping given; where a loss needs a
/// player's choice not yet made, the first units mapped take it (the chance then assumes so, and
/// says it). A result whose changes cannot be made (a target not mapped, a unit gone) is refused
/// as applying it would be: counting it as reaching nothing would forecast 0 where applying,
/// once mapped, reaches the break point.
pub fn outlook(
    ruleset: &Ruleset,
    state: &BattleState,
    resolution: &Resolution,
    mapping: &Mapping,
) -> Result<Vec<Chance>, RefereeError> {
    let before = standing(ruleset, state);
    let open: Vec<&Gauge> = before
        .gauges
        .iter()
        .filter(|g| g.threshold.is_some() && !g.reached)
        .collect();
    let mut reached: Vec<Probability> = vec![Probability::ZERO; open.len()];
    let mut assumed = false;
    for odds in &resolution.distribution {
        let Some(p) = Probability::parse(&odds.probability) else {
            continue;
        };
        let mut m = mapping.clone();
        let changes = match changes_for(state, &odds.effects, &m) {
            Ok(c) => c,
            Err(e) if e.code == ErrorCode::BattleChoiceNeeded => {
                // Take every open choice in the order the units were mapped.
                for (i, effect) in odds.effects.iter().enumerate() {
                    // Units near a leader, which the players pick as it lands: none assumed
                    // (what they take moves no break point).
                    let key = super::changes::target_key(&effect.target);
                    if matches!(effect.target, crate::contract::Target::Within { .. }) {
                        if !m.targets.contains_key(&key) {
                            m.choices.entry(i.to_string()).or_default();
                        }
                        continue;
                    }
                    if let (Some(ids), Some(count)) =
                        (m.targets.get(&key).cloned(), loss(&effect.change))
                    {
                        if ids.len() > 1 {
                            assumed = true;
                            let picked = ids.iter().cycle().take(count as usize).copied().collect();
                            m.choices.insert(i.to_string(), picked);
                        }
                    }
                }
                changes_for(state, &odds.effects, &m)?
            }
            Err(e) => return Err(e),
        };
        let mut after = state.clone();
        apply_changes(ruleset, &mut after, &changes, 0)?;
        let now = standing(ruleset, &after);
        for (i, was) in open.iter().enumerate() {
            // Reached, or moved past the threshold to the next state (a DBMM command gauge
            // then measures the next threshold).
            let hit = now.gauges.iter().any(|g| {
                g.side == was.side && g.label == was.label && (g.reached || g.status != was.status)
            });
            if hit {
                if let Some(sum) = reached[i].plus(&p) {
                    reached[i] = sum;
                }
            }
        }
    }
    Ok(open
        .into_iter()
        .zip(reached)
        .map(|(g, p)| {
            let who = g
                .side
                .as_ref()
                .map(|s| format!("{s}: "))
                .unwrap_or_default();
            let next = g.next.as_deref().unwrap_or("reached");
            let note = if assumed {
                " (losses taken by the units in the order ticked)"
            } else {
                ""
            };
            let mut c = Chance::new(
                format!("{who}{} {next} after this result{note}", g.label),
                p,
                &g.rule,
            );
            c.ruling = g.ruling.clone();
            c
        })
        .collect())
}

fn loss(change: &crate::contract::Change) -> Option<u32> {
    match change {
        crate::contract::Change::LoseUnits { count, .. }
        | crate::contract::Change::LoseSp { count, .. } => Some(*count),
        _ => None,
    }
}
