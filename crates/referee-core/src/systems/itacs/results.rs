//! The shared last step of every ITACS combat: 2d6 + modifiers on a results table, the exact
//! distribution of results, their effects, and the outcome of given dice.

use super::data::{EffectKind, EffectSpec, ItacsData, ResultRow, Side};
use crate::contract::{rolls_text, Change, Chooser, Effect, Outcome, ResultOdds, Target};
use crate::error::RefereeError;
use crate::odds::DiceSpec;
use crate::ErrorCode;

/// What decides a result's effects beyond the table: the number of defending units (D2XB,
/// R-ITACS-7), extra effects per result (a square breaking its attacker, Ff disruption).
pub struct EffectContext<'a> {
    pub defending_units: u32,
    pub extra: &'a dyn Fn(&str) -> Vec<Effect>,
}

pub use crate::contract::effect;

fn spec_effect(spec: &EffectSpec, rule: &str, ruling: Option<&str>) -> Effect {
    let (target, chooser) = match spec.side {
        Side::Attacker => (Target::Attacker, Chooser::Attacker),
        Side::Defender => (Target::Defender, Chooser::Defender),
    };
    let count = spec.count.unwrap_or(1);
    let change = match spec.kind {
        EffectKind::DMarkers => Change::DMarkers { count },
        EffectKind::LoseUnits => Change::LoseUnits {
            count,
            chosen_by: chooser,
        },
        EffectKind::DestroyAll => Change::DestroyAll,
        EffectKind::MustBreak => Change::MustBreak,
    };
    effect(target, change, rule, ruling)
}

/// The effects of one result code.
pub fn effects_of(data: &ItacsData, code: &str, ctx: &EffectContext) -> Vec<Effect> {
    let Some(spec) = data.results.get(code) else {
        return Vec::new();
    };
    let mut effects: Vec<Effect> = match (&spec.single_defender_effects, ctx.defending_units) {
        (Some(single), 1) => single
            .iter()
            .map(|e| spec_effect(e, &spec.rule, spec.single_defender_ruling.as_deref()))
            .collect(),
        _ => spec
            .effects
            .iter()
            .map(|e| spec_effect(e, &spec.rule, None))
            .collect(),
    };
    effects.extend((ctx.extra)(code));
    effects
}

pub struct TableOutcome {
    /// Every result code with its exact probability, for chained forecasts.
    pub results: crate::odds::Dist<String>,
    pub distribution: Vec<ResultOdds>,
    pub outcome: Option<Outcome>,
}

/// 2d6 + `total_modifier` on `rows`; every result of the table is listed, in table order,
/// including those that cannot happen (probability 0).
pub fn roll_on_table(
    data: &ItacsData,
    rows: &[ResultRow],
    total_modifier: i64,
    ctx: &EffectContext,
    dice: Option<&[u32]>,
) -> Result<TableOutcome, RefereeError> {
    let spec: DiceSpec = data.system.dice.parse().map_err(|e: String| {
        RefereeError::new(ErrorCode::RulesetInvalid, e).field("system.dice")
    })?;
    let table = super::data::roll_table(rows);
    let modified = spec.distribution()?.plus(total_modifier);
    let results = table.distribution(&modified)?;
    let mut seen: Vec<&str> = Vec::new();
    let mut distribution = Vec::new();
    for row in rows {
        if seen.contains(&row.result.as_str()) {
            continue;
        }
        seen.push(&row.result);
        let code = row.result.as_str();
        let meaning = data
            .results
            .get(code)
            .map(|r| r.text.as_str())
            .unwrap_or("");
        let rolls = rolls_text(&modified, |r| table.lookup(r).is_ok_and(|c| c == code));
        distribution.push(ResultOdds::new(
            code,
            meaning,
            rolls,
            results.probability(&row.result),
            effects_of(data, code, ctx),
        ));
    }
    let outcome = match dice {
        None => None,
        Some(faces) => {
            let roll = crate::rule_system::resolve::faces_total(&spec, faces)?;
            let modified = roll + total_modifier;
            let code = table.lookup(modified)?.clone();
            Some(Outcome {
                dice: faces.to_vec(),
                roll,
                modified,
                meaning: data
                    .results
                    .get(&code)
                    .map(|r| r.text.clone())
                    .unwrap_or_default(),
                effects: effects_of(data, &code, ctx),
                result: code,
                sides: Vec::new(),
            })
        }
    };
    Ok(TableOutcome {
        results,
        distribution,
        outcome,
    })
}
