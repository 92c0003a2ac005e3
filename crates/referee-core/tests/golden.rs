//! Every worked example of the rule texts, as data in `tests/golden/<system>/*.json`, resolved
//! with the built-in ruleset and compared with the text's numbers.
//!
//! The cases are typed and refuse unknown keys, so a misspelt expectation fails instead of
//! asserting nothing. Modifiers are expected by rule and value (a label only where the label is
//! the point). `UPDATE_GOLDEN=1` rewrites the expectations a case already has from what the code
//! answers now, as the bindings' test does; read the diff against the rule text before committing.

use std::path::{Path, PathBuf};

use referee_core::ruleset::Layers;
use referee_core::systems::{builtin, Ruleset};
use referee_core::Resolution;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One worked example: the situation as the text gives it and what the text says follows.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct Case {
    example: String,
    action: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    dice: Option<Vec<u32>>,
    situation: Value,
    expect: Expect,
}

/// What the text says, each part optional: a case asserts what its example states.
#[derive(Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
struct Expect {
    /// The stable code of a refusal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    /// Complete when `total_modifier` is given too; otherwise each must be among the modifiers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    modifiers: Option<Vec<ModifierExpect>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    total_modifier: Option<i64>,
    /// Figures by their label (which side's strength, which column) and value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    totals: Option<Vec<(String, String)>>,
    /// Forecast lines by label and exact probability.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    forecast: Option<Vec<(String, String)>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    notes: Option<Vec<TextExpect>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    notes_absent: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    checks: Option<Vec<TextExpect>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    checks_absent: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    roll: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    modified: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    result: Option<String>,
    /// Every effect's words, in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    effects: Option<Vec<String>>,
    /// `[text, ruling]`: the ruling an effect rests on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    effect_rulings: Option<Vec<(String, String)>>,
}

/// A modifier by the rule that gives it and its value; its label only where the label is the
/// point of the example.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq, PartialOrd, Ord)]
#[serde(deny_unknown_fields)]
struct ModifierExpect {
    rule: String,
    value: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    label: Option<String>,
}

impl ModifierExpect {
    fn matches(&self, m: &referee_core::contract::Modifier) -> bool {
        m.rule == self.rule
            && m.value == self.value
            && self.label.as_ref().is_none_or(|l| *l == m.label)
    }
}

/// Part of a note's (or check's) words, with the ruling it must rest on where one is named.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(untagged)]
enum TextExpect {
    Text(String),
    WithRuling(String, String),
}

impl TextExpect {
    fn parts(&self) -> (&str, Option<&str>) {
        match self {
            TextExpect::Text(t) => (t, None),
            TextExpect::WithRuling(t, r) => (t, Some(r)),
        }
    }
}

fn golden_dir(system: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/golden")
        .join(system)
}

fn check_case(ruleset: &Ruleset, name: &str, case: &Case) -> Result<(), String> {
    let expect = &case.expect;
    let answer = ruleset.resolve(&case.action, &case.situation, case.dice.as_deref());
    if let Some(code) = &expect.error {
        return match answer {
            Err(e) if e.code == *code => Ok(()),
            Err(e) => Err(format!(
                "{name}: refused with {}, expected {code}",
                e.one_line()
            )),
            Ok(_) => Err(format!("{name}: resolved, expected the error {code}")),
        };
    }
    let r = answer.map_err(|e| format!("{name}: refused: {}", e.one_line()))?;
    check_resolution(&r, expect).map_err(|what| format!("{name}: {what}"))
}

fn check_resolution(r: &Resolution, expect: &Expect) -> Result<(), String> {
    if let Some(wanted) = &expect.modifiers {
        // Each wanted modifier takes one of the resolution's; with the total given, the text
        // lists every modifier, so none may be left over.
        let mut left: Vec<&referee_core::contract::Modifier> = r.modifiers.iter().collect();
        for w in wanted {
            let Some(at) = left.iter().position(|m| w.matches(m)) else {
                return Err(format!("missing modifier {w:?} in {:?}", r.modifiers));
            };
            left.remove(at);
        }
        if expect.total_modifier.is_some() && !left.is_empty() {
            return Err(format!("modifiers {left:?} that the text does not have"));
        }
    }
    if let Some(t) = expect.total_modifier {
        if r.total_modifier != t {
            return Err(format!(
                "total modifier {}, the text has {t}",
                r.total_modifier
            ));
        }
    }
    for (label, value) in expect.totals.iter().flatten() {
        if !r
            .totals
            .iter()
            .any(|x| x.label == *label && x.value == *value)
        {
            return Err(format!("no total {label} = {value} in {:?}", r.totals));
        }
    }
    for (label, p) in expect.forecast.iter().flatten() {
        if !r
            .forecast
            .iter()
            .any(|x| x.label == *label && x.probability == *p)
        {
            return Err(format!("no forecast {label} = {p} in {:?}", r.forecast));
        }
    }
    // Notes and checks named by the case: each wanted text is part of some note (or check label),
    // each absent text part of none.
    let notes: Vec<(&str, Option<&str>)> = r
        .notes
        .iter()
        .map(|n| (n.message.as_str(), n.ruling.as_deref()))
        .collect();
    let checks: Vec<(&str, Option<&str>)> = r
        .checks
        .iter()
        .map(|c| (c.label.as_str(), c.ruling.as_deref()))
        .collect();
    for (key, list, wanted, absent) in [
        ("notes", &notes, &expect.notes, &expect.notes_absent),
        ("checks", &checks, &expect.checks, &expect.checks_absent),
    ] {
        for w in wanted.iter().flatten() {
            let (text, ruling) = w.parts();
            let found = list
                .iter()
                .any(|(m, r)| m.contains(text) && (ruling.is_none() || *r == ruling));
            if !found {
                return Err(format!("no {key} entry {text:?} ({ruling:?}) in {list:?}"));
            }
        }
        for text in absent.iter().flatten() {
            if list.iter().any(|(m, _)| m.contains(text.as_str())) {
                return Err(format!("{key} should not mention {text:?}: {list:?}"));
            }
        }
    }
    // Every distribution is exact and sums to one.
    let sum = r.distribution.iter().fold((0u128, 1u128), |(n, d), x| {
        let (a, b) = x.probability.split_once('/').unwrap();
        let (a, b): (u128, u128) = (a.parse().unwrap(), b.parse().unwrap());
        (n * b + a * d, d * b)
    });
    if sum.0 != sum.1 {
        return Err(format!("probabilities sum to {}/{}", sum.0, sum.1));
    }
    let Some(outcome) = &r.outcome else {
        if expect.result.is_some() {
            return Err("the case names a result but gives no dice".into());
        }
        return Ok(());
    };
    for (key, wanted, actual) in [
        ("roll", expect.roll, outcome.roll),
        ("modified", expect.modified, outcome.modified),
    ] {
        if wanted.is_some_and(|v| v != actual) {
            return Err(format!("{key} {actual}, the text has {}", wanted.unwrap()));
        }
    }
    if let Some(res) = &expect.result {
        // The text names a result by a table's code ("-1/D2") or in words ("4 MP", "ridden
        // down"): the result's key, or its words as the screen shows them.
        let words = r.shown.names.get(&outcome.result);
        let named = words.is_some_and(|w| w == res || *w == referee_core::error::sentence(res));
        if outcome.result != *res && !named {
            return Err(format!(
                "result {} ({}), the text has {res}",
                outcome.result,
                words.map_or("no words", String::as_str)
            ));
        }
        let listed = r.distribution.iter().find(|d| d.result == outcome.result);
        if listed.is_none_or(|d| d.p <= 0.0) {
            return Err(format!(
                "result {res} has no probability in the distribution"
            ));
        }
    }
    if let Some(wanted) = &expect.effects {
        let texts: Vec<&str> = outcome.effects.iter().map(|e| e.text.as_str()).collect();
        if texts != *wanted {
            return Err(format!("effects {texts:?}, expected {wanted:?}"));
        }
    }
    for (text, ruling) in expect.effect_rulings.iter().flatten() {
        let found = outcome
            .effects
            .iter()
            .any(|e| e.text == *text && e.ruling.as_deref() == Some(ruling.as_str()));
        if !found {
            return Err(format!("no effect {text:?} resting on {ruling:?}"));
        }
    }
    Ok(())
}

/// The case's expectations rewritten from what the code answers now: only the keys the case
/// already has, so a case keeps asserting just what its example states.
fn updated(ruleset: &Ruleset, case: &Case) -> Expect {
    let old = &case.expect;
    let r = match ruleset.resolve(&case.action, &case.situation, case.dice.as_deref()) {
        Err(e) => {
            return Expect {
                error: Some(e.code.to_string()),
                ..Default::default()
            }
        }
        Ok(r) => r,
    };
    let outcome = r.outcome.as_ref();
    let modifier = |m: &referee_core::contract::Modifier, label: bool| ModifierExpect {
        rule: m.rule.clone(),
        value: m.value,
        label: label.then(|| m.label.clone()),
    };
    let modifiers = old.modifiers.as_ref().map(|wanted| {
        if old.total_modifier.is_some() {
            // The complete list: every modifier, labelled where the case labelled them.
            let labelled = wanted.iter().any(|w| w.label.is_some());
            r.modifiers.iter().map(|m| modifier(m, labelled)).collect()
        } else {
            // A few named modifiers: each kept where the code still gives it by its rule.
            wanted
                .iter()
                .map(|w| {
                    r.modifiers
                        .iter()
                        .find(|m| w.matches(m))
                        .map_or_else(|| w.clone(), |m| modifier(m, w.label.is_some()))
                })
                .collect()
        }
    });
    let relabel = |wanted: &Option<Vec<(String, String)>>, actual: Vec<(String, String)>| {
        wanted.as_ref().map(|w| {
            w.iter()
                .map(|(label, v)| {
                    let now = actual.iter().find(|(l, _)| l == label);
                    (
                        label.clone(),
                        now.map_or_else(|| v.clone(), |(_, v)| v.clone()),
                    )
                })
                .collect()
        })
    };
    Expect {
        error: None,
        modifiers,
        total_modifier: old.total_modifier.map(|_| r.total_modifier),
        totals: relabel(
            &old.totals,
            r.totals
                .iter()
                .map(|t| (t.label.clone(), t.value.clone()))
                .collect(),
        ),
        forecast: relabel(
            &old.forecast,
            r.forecast
                .iter()
                .map(|f| (f.label.clone(), f.probability.clone()))
                .collect(),
        ),
        notes: old.notes.clone(),
        notes_absent: old.notes_absent.clone(),
        checks: old.checks.clone(),
        checks_absent: old.checks_absent.clone(),
        roll: old.roll.and(outcome.map(|o| o.roll)),
        modified: old.modified.and(outcome.map(|o| o.modified)),
        result: old.result.as_ref().and(outcome.map(|o| o.result.clone())),
        effects: old
            .effects
            .as_ref()
            .and(outcome.map(|o| o.effects.iter().map(|e| e.text.clone()).collect())),
        effect_rulings: old.effect_rulings.clone(),
    }
}

/// The case file's text with its `expect` object replaced, the rest as it was written.
fn with_expect(text: &str, expect: &Expect) -> String {
    let key = text.find("\"expect\"").expect("a case has an expect");
    let open = key + text[key..].find('{').unwrap();
    let mut stream = serde_json::Deserializer::from_str(&text[open..]).into_iter::<Value>();
    stream.next().unwrap().unwrap();
    let close = open + stream.byte_offset();
    let value = serde_json::to_value(expect).unwrap();
    format!("{}{}{}", &text[..open], layout(&value, 1), &text[close..])
}

/// JSON laid out as the cases are written by hand: a value that fits on a line stays on it.
fn layout(value: &Value, depth: usize) -> String {
    let compact = compact(value);
    if compact.len() + 2 * depth <= 100 || !(value.is_array() || value.is_object()) {
        return compact;
    }
    let pad = "  ".repeat(depth + 1);
    let items: Vec<String> = match value {
        Value::Array(items) => items.iter().map(|v| layout(v, depth + 1)).collect(),
        Value::Object(map) => in_order(map)
            .map(|(k, v)| format!("{}: {}", Value::from(k.as_str()), layout(v, depth + 1)))
            .collect(),
        _ => unreachable!(),
    };
    let (open, close) = if value.is_array() {
        ('[', ']')
    } else {
        ('{', '}')
    };
    format!(
        "{open}\n{pad}{}\n{}{close}",
        items.join(&format!(",\n{pad}")),
        "  ".repeat(depth)
    )
}

/// The keys in the order a case reads: the figures, the modifiers, the dice, what follows.
fn in_order(map: &serde_json::Map<String, Value>) -> impl Iterator<Item = (&String, &Value)> {
    const ORDER: [&str; 18] = [
        "error",
        "totals",
        "rule",
        "value",
        "label",
        "modifiers",
        "total_modifier",
        "forecast",
        "notes",
        "notes_absent",
        "checks",
        "checks_absent",
        "roll",
        "modified",
        "result",
        "effects",
        "effect_rulings",
        "",
    ];
    let rank = |k: &str| ORDER.iter().position(|o| *o == k).unwrap_or(ORDER.len());
    let mut entries: Vec<(&String, &Value)> = map.iter().collect();
    entries.sort_by_key(|(k, _)| rank(k));
    entries.into_iter()
}

/// One line, with a space after each comma and colon.
fn compact(value: &Value) -> String {
    match value {
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(compact).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(map) => {
            let items: Vec<String> = in_order(map)
                .map(|(k, v)| format!("{}: {}", Value::from(k.as_str()), compact(v)))
                .collect();
            format!("{{ {} }}", items.join(", "))
        }
        scalar => scalar.to_string(),
    }
}

fn read_case(path: &Path) -> Case {
    let text = std::fs::read_to_string(path).unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn run_system(system: &str, at_least: usize) {
    let ruleset = Ruleset::load(&Layers {
        base: builtin(system).unwrap(),
        house_rules: vec![],
    })
    .unwrap();
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut failures = Vec::new();
    let mut count = 0;
    for entry in std::fs::read_dir(golden_dir(system)).unwrap() {
        let path = entry.unwrap().path();
        let mut case = read_case(&path);
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        count += 1;
        if update {
            let now = updated(&ruleset, &case);
            if now != case.expect {
                let text = std::fs::read_to_string(&path).unwrap();
                std::fs::write(&path, with_expect(&text, &now)).unwrap();
                case.expect = now;
            }
        }
        if let Err(e) = check_case(&ruleset, &name, &case) {
            failures.push(e);
        }
    }
    assert!(
        count >= at_least,
        "expected the {system} golden cases, found {count}"
    );
    assert!(
        failures.is_empty(),
        "golden cases failed:\n{}",
        failures.join("\n")
    );
}

#[test]
fn itacs_worked_examples() {
    run_system("itacs", 20);
}

#[test]
fn medieval_worked_examples() {
    run_system("medieval", 20);
}

#[test]
fn gts_worked_examples() {
    run_system("gts", 7);
}

#[test]
fn dbmm_worked_examples() {
    run_system("dbmm", 1);
}

#[test]
fn a_misspelt_expectation_is_refused() {
    let case = r#"{"example": "x", "action": "fire", "situation": {}, "expect": {"reslt": "D1"}}"#;
    let err = serde_json::from_str::<Case>(case).unwrap_err().to_string();
    assert!(err.contains("reslt"), "{err}");
    let modifier = r#"{"rule": "4.2", "value": 1, "lable": "Armour"}"#;
    assert!(serde_json::from_str::<ModifierExpect>(modifier).is_err());
}
