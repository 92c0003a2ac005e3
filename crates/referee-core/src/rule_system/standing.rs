//! Live break points, as every system reports them: how each army stands against the thresholds
//! of its system, and how far it is from the next one.

use serde::Serialize;
use ts_rs::TS;

use crate::contract::Resolution;
use crate::state::{BattleState, QuickEdit, UnitState};
use crate::tournament::Outcome;

/// One figure against its threshold, in phrases the app joins as
/// "label — status · value · to_go" (parts absent are skipped), e.g. "Housecarls — broken ·
/// lost 2 of 6 ME · ½ ME to shattered".
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct Gauge {
    /// The side it belongs to; none for a battle-wide figure (the MORALE track).
    #[ts(optional)]
    pub side: Option<String>,
    /// What is measured: "Army", a command's name, "Panic level", "Army break point".
    pub label: String,
    /// Where it stands, in the rules' word: "steady", "disheartened", "broken", "shattered",
    /// "panicked", "defeated", "broken" (GTS army).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub status: Option<String>,
    /// The figure as a phrase: "lost 2 of 6 ME", "enemy has 7 of 10 points".
    pub value: String,
    /// The threshold itself, for a tooltip: "more than 1/4 lost", "10 points".
    #[ts(optional)]
    pub threshold: Option<String>,
    /// How far to the threshold, saying which: "½ ME to shattered", "3 points to panic".
    #[ts(optional)]
    pub to_go: Option<String>,
    /// What passing the threshold makes of it, for the outlook: "shattered", "defeated".
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub next: Option<String>,
    /// Share of the way to the threshold, 0–1, for a bar (display only).
    #[ts(optional)]
    pub progress: Option<f64>,
    /// The figure as a number, in the unit of `value` (ME lost, points, units lost, SPs lost,
    /// MORALE track boxes), for charts over the turns; none for a setting (a stacking limit).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub amount: Option<f64>,
    /// The threshold as a number in the same unit, where there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub limit: Option<f64>,
    pub reached: bool,
    pub rule: String,
    #[ts(optional)]
    pub ruling: Option<String>,
    /// What the rules make of the side now the threshold is reached, one tap away: a change of
    /// the side ("Rome panics: every unit routs", 5.4).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub offer: Option<QuickEdit>,
}

/// The battle's standing: gauges, and the system's own cited resolutions of it (ITACS
/// `victory`, Medieval `morale`, GTS `army_break`, DBMM `army_morale` and `victory`) built from
/// the roster.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct Standing {
    pub gauges: Vec<Gauge>,
    pub resolutions: Vec<Resolution>,
}

/// How a battle ends for an event's standings: each side's outcome and victory points, in the
/// rules' words, from the system's own verdict on the roster (DBMM's 25 points split, ITACS's
/// points and level, GTS's army break and level, Medieval's MORALE track).
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct Verdict {
    /// One per side, in the battle's order of sides.
    pub sides: Vec<SideVerdict>,
    /// The verdict as a sentence naming the sides.
    pub words: String,
    pub rule: String,
    #[ts(optional)]
    pub ruling: Option<String>,
}

/// One side's share of a verdict.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct SideVerdict {
    pub side: String,
    pub outcome: Outcome,
    /// The side's victory points where the system counts them.
    #[ts(optional)]
    pub victory_points: Option<f64>,
}

pub fn gauge(
    side: Option<&str>,
    label: impl Into<String>,
    value: impl Into<String>,
    rule: &str,
) -> Gauge {
    Gauge {
        side: side.map(str::to_string),
        label: label.into(),
        status: None,
        value: value.into(),
        threshold: None,
        to_go: None,
        next: None,
        progress: None,
        amount: None,
        limit: None,
        reached: false,
        rule: rule.to_string(),
        ruling: None,
        offer: None,
    }
}

pub fn of_side<'a>(state: &'a BattleState, side: &'a str) -> impl Iterator<Item = &'a UnitState> {
    state.units.values().filter(move |u| u.side == side)
}
