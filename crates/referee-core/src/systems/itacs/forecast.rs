//! Chained odds: over every result of a combat, what finally becomes of each hex — destroyed,
//! routed (given the D markers it already has), broken, disrupted or steady (5.1, 5.3, 10.7).

use super::data::ItacsData;
use super::results::{effects_of, EffectContext};
use super::state::HexState;
use crate::contract::{Chance, Change, Note, Target};
use crate::odds::Dist;

/// One hex of one side, as it stands before the roll.
pub struct Stack {
    pub label: String,
    pub start: HexState,
}

const END_STATES: [(&str, &str, &str); 5] = [
    ("destroyed", "is destroyed", "10.7"),
    ("routs", "routs", "5.1, 5.3"),
    ("broken", "must break", "4.5.12, 5.2"),
    ("disrupted", "ends disrupted", "5.1"),
    ("steady", "is unaffected", "10.7"),
];

/// The end state of one stack after one result. Units lost from a side of several hexes are the
/// player's choice: they empty this hex only when the whole side has no more units than that.
fn end_state(
    data: &ItacsData,
    code: &str,
    ctx: &EffectContext,
    side: &Target,
    side_units: u32,
    start: HexState,
) -> HexState {
    let mut hex = start;
    for e in effects_of(data, code, ctx) {
        if &e.target != side {
            continue;
        }
        let change = match e.change {
            Change::LoseUnits { count, .. } if start.units < side_units => {
                if count >= side_units {
                    Change::DestroyAll
                } else {
                    continue;
                }
            }
            other => other,
        };
        hex.apply(&change, &data.markers);
    }
    hex
}

/// Exact probabilities of every end state of each stack, leaving out those that cannot happen.
pub fn forecast(
    data: &ItacsData,
    results: &Dist<String>,
    ctx: &EffectContext,
    side: Target,
    stacks: &[Stack],
) -> (Vec<Chance>, Vec<Note>) {
    let side_units: u32 = stacks.iter().map(|s| s.start.units).sum();
    let mut chances = Vec::new();
    for stack in stacks {
        let ends: Dist<HexState> =
            results.map(|code| end_state(data, code, ctx, &side, side_units, stack.start));
        for (key, words, rule) in END_STATES {
            let p = ends.probability_where(|h| h.summary() == key);
            if p.numerator() > 0 {
                chances.push(Chance::new(format!("{} {words}", stack.label), p, rule));
            }
        }
    }
    let notes = if stacks.len() > 1 {
        vec![Note::new(
            "Units lost are the defender's choice: a hex is counted destroyed only when the whole formation is.",
            "10.7",
            Some("R-ITACS-22"),
        )]
    } else {
        Vec::new()
    };
    (chances, notes)
}
