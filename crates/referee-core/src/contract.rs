//! The one resolution contract every rule system answers with.

use serde::Serialize;
use ts_rs::TS;

use crate::odds::{Dist, Probability};

/// One dice-roll modifier with the rule it comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct Modifier {
    pub label: String,
    pub value: i64,
    pub rule: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub ruling: Option<String>,
}

impl Modifier {
    pub fn new(label: impl Into<String>, value: i64, rule: &str, ruling: Option<&str>) -> Modifier {
        Modifier {
            label: label.into(),
            value,
            rule: rule.to_string(),
            ruling: ruling.map(str::to_string),
        }
    }
}

/// A figure the resolution is built on: a strength, a ratio, the column used.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct Total {
    pub label: String,
    pub value: String,
    pub rule: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub ruling: Option<String>,
}

/// Something the umpire should know that is not a number: a flag, an ignored modifier.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct Note {
    pub message: String,
    pub rule: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub ruling: Option<String>,
}

impl Note {
    pub fn new(message: impl Into<String>, rule: &str, ruling: Option<&str>) -> Note {
        Note {
            message: message.into(),
            rule: rule.to_string(),
            ruling: ruling.map(str::to_string),
        }
    }
}

/// Who an effect applies to. In fire, the attacker is the firing side and the defender the hex
/// fired on, as the combat results table (10.7) names them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    Attacker,
    Defender,
    /// One firing or attacking hex, by the label the situation gave it.
    Hex(String),
}

/// Which player makes a choice the rules leave open.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum Chooser {
    Attacker,
    Defender,
}

/// A change a roster can apply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Change {
    /// Place this many D (disruption) markers on the hex.
    DMarkers { count: u32 },
    /// Remove this many units, chosen by a player.
    LoseUnits { count: u32, chosen_by: Chooser },
    /// Every unit is destroyed.
    DestroyAll,
    /// The units must break: Break marker and an immediate rout move.
    MustBreak,
}

/// One structured effect with its citation and a plain-words rendering.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct Effect {
    pub target: Target,
    pub change: Change,
    pub text: String,
    pub rule: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub ruling: Option<String>,
}

/// One possible result with its exact probability.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct ResultOdds {
    pub result: String,
    pub meaning: String,
    /// The modified rolls that give it, e.g. `≤ 1`, `2–8`, `12+`.
    pub rolls: String,
    /// Exact, as `n/d`.
    pub probability: String,
    /// The same, as a float for display only.
    pub p: f64,
    pub effects: Vec<Effect>,
}

/// The result for a given roll of the dice.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct Outcome {
    pub dice: Vec<u32>,
    pub roll: i64,
    pub modified: i64,
    pub result: String,
    pub meaning: String,
    pub effects: Vec<Effect>,
}

/// What every action of every system returns.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct Resolution {
    pub system: String,
    pub action: String,
    /// Dice notation of the roll, e.g. `2d6`.
    pub dice: String,
    pub totals: Vec<Total>,
    pub modifiers: Vec<Modifier>,
    pub total_modifier: i64,
    pub distribution: Vec<ResultOdds>,
    pub notes: Vec<Note>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub outcome: Option<Outcome>,
}

impl ResultOdds {
    pub fn new(
        result: &str,
        meaning: &str,
        rolls: String,
        probability: Probability,
        effects: Vec<Effect>,
    ) -> ResultOdds {
        ResultOdds {
            result: result.to_string(),
            meaning: meaning.to_string(),
            rolls,
            probability: probability.to_string(),
            p: probability.to_f64(),
            effects,
        }
    }
}

/// The modified rolls of a distribution that give each result, as `a–b` text.
pub fn rolls_text(modified: &Dist<i64>, gives: impl Fn(i64) -> bool) -> String {
    let rolls: Vec<i64> = modified
        .outcomes()
        .map(|(r, _)| *r)
        .filter(|r| gives(*r))
        .collect();
    match (rolls.first(), rolls.last()) {
        (Some(a), Some(b)) if a == b => a.to_string(),
        (Some(a), Some(b)) => format!("{a}–{b}"),
        _ => "—".to_string(),
    }
}
