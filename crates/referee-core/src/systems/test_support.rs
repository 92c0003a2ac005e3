//! What the systems' unit tests read from a resolution.

use crate::ruleset::Layers;
use crate::systems::{builtin, Ruleset};
use crate::Resolution;

/// A built-in ruleset without house rules.
pub fn load(system: &str) -> Ruleset {
    Ruleset::load(&Layers {
        base: builtin(system).unwrap(),
        house_rules: vec![],
    })
    .unwrap()
}

/// The exact probability of a forecast line.
pub fn chance(r: &Resolution, label: &str) -> String {
    r.forecast
        .iter()
        .find(|c| c.label == label)
        .map(|c| c.probability.clone())
        .unwrap_or_else(|| panic!("no forecast `{label}` in {:?}", r.forecast))
}

/// The value of the first total whose label starts with `starts`.
pub fn total(r: &Resolution, starts: &str) -> String {
    r.totals
        .iter()
        .find(|t| t.label.starts_with(starts))
        .map(|t| t.value.clone())
        .unwrap_or_else(|| panic!("no total `{starts}` in {:?}", r.totals))
}

/// The exact probability of a result.
pub fn odds(r: &Resolution, result: &str) -> String {
    r.distribution
        .iter()
        .find(|d| d.result == result)
        .map(|d| d.probability.clone())
        .unwrap_or_else(|| panic!("no result `{result}`"))
}

/// The outcome's effects in words.
pub fn effects(r: &Resolution) -> Vec<String> {
    r.outcome
        .as_ref()
        .map(|o| o.effects.iter().map(|e| e.text.clone()).collect())
        .unwrap_or_default()
}
