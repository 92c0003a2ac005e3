//! Every worked example of the rule texts, as data in `tests/golden/<system>/*.json`, resolved
//! with the built-in ruleset and compared with the text's numbers.

use std::path::PathBuf;

use referee_core::ruleset::Layers;
use referee_core::systems::{builtin, Ruleset};
use serde_json::Value;

fn golden_dir(system: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/golden")
        .join(system)
}

fn check_case(ruleset: &Ruleset, name: &str, case: &Value) -> Result<(), String> {
    let action = case["action"].as_str().ok_or("no action")?;
    let dice: Option<Vec<u32>> = case
        .get("dice")
        .map(|d| serde_json::from_value(d.clone()).map_err(|e| e.to_string()))
        .transpose()?;
    let expect = &case["expect"];
    let answer = ruleset.resolve(action, &case["situation"], dice.as_deref());
    if let Some(code) = expect.get("error").and_then(Value::as_str) {
        return match answer {
            Err(e) if e.code == code => Ok(()),
            Err(e) => Err(format!(
                "{name}: refused with {}, expected {code}",
                e.one_line()
            )),
            Ok(_) => Err(format!("{name}: resolved, expected the error {code}")),
        };
    }
    let r = answer.map_err(|e| format!("{name}: refused: {}", e.one_line()))?;
    let fail = |what: String| Err(format!("{name}: {what}"));

    let actual: Vec<(String, i64)> = r
        .modifiers
        .iter()
        .map(|m| (m.label.clone(), m.value))
        .collect();
    if let Some(mods) = expect.get("modifiers").and_then(Value::as_array) {
        let wanted: Vec<(String, i64)> = mods
            .iter()
            .map(|m| {
                (
                    m[0].as_str().unwrap_or("").to_string(),
                    m[1].as_i64().unwrap_or(i64::MIN),
                )
            })
            .collect();
        let complete = expect.get("total_modifier").is_some();
        if complete && wanted != actual {
            return fail(format!("modifiers {actual:?}, the text has {wanted:?}"));
        }
        for w in &wanted {
            if !actual.contains(w) {
                return fail(format!("missing modifier {w:?} in {actual:?}"));
            }
        }
    }
    if let Some(t) = expect.get("total_modifier").and_then(Value::as_i64) {
        if r.total_modifier != t {
            return fail(format!(
                "total modifier {}, the text has {t}",
                r.total_modifier
            ));
        }
    }
    for t in expect
        .get("totals")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let (label, value) = (t[0].as_str().unwrap_or(""), t[1].as_str().unwrap_or(""));
        if !r
            .totals
            .iter()
            .any(|x| x.label == label && x.value == value)
        {
            return fail(format!("no total {label} = {value} in {:?}", r.totals));
        }
    }
    for f in expect
        .get("forecast")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let (label, p) = (f[0].as_str().unwrap_or(""), f[1].as_str().unwrap_or(""));
        if !r
            .forecast
            .iter()
            .any(|x| x.label == label && x.probability == p)
        {
            return fail(format!("no forecast {label} = {p} in {:?}", r.forecast));
        }
    }
    // Notes and checks named by the case: each wanted text is part of some note (or check label),
    // each absent text part of none; a note or check may carry the ruling it rests on.
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
    for (key, list) in [("notes", &notes), ("checks", &checks)] {
        for w in expect
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let (text, ruling) = match w {
                Value::Array(pair) => (pair[0].as_str().unwrap_or(""), pair[1].as_str()),
                other => (other.as_str().unwrap_or(""), None),
            };
            let found = list
                .iter()
                .any(|(m, r)| m.contains(text) && (ruling.is_none() || *r == ruling));
            if !found {
                return fail(format!("no {key} entry {text:?} ({ruling:?}) in {list:?}"));
            }
        }
        let absent = format!("{key}_absent");
        for w in expect
            .get(&absent)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let text = w.as_str().unwrap_or("");
            if list.iter().any(|(m, _)| m.contains(text)) {
                return fail(format!("{key} should not mention {text:?}: {list:?}"));
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
        return fail(format!("probabilities sum to {}/{}", sum.0, sum.1));
    }
    if let Some(outcome) = &r.outcome {
        for (key, actual) in [("roll", outcome.roll), ("modified", outcome.modified)] {
            if let Some(v) = expect.get(key).and_then(Value::as_i64) {
                if v != actual {
                    return fail(format!("{key} {actual}, the text has {v}"));
                }
            }
        }
        if let Some(res) = expect.get("result").and_then(Value::as_str) {
            if outcome.result != res {
                return fail(format!("result {}, the text has {res}", outcome.result));
            }
            let listed = r.distribution.iter().find(|d| d.result == res);
            if listed.is_none_or(|d| d.p <= 0.0) {
                return fail(format!(
                    "result {res} has no probability in the distribution"
                ));
            }
        }
        if let Some(effects) = expect.get("effects").and_then(Value::as_array) {
            let texts: Vec<&str> = outcome.effects.iter().map(|e| e.text.as_str()).collect();
            let wanted: Vec<&str> = effects.iter().filter_map(Value::as_str).collect();
            if texts != wanted {
                return fail(format!("effects {texts:?}, expected {wanted:?}"));
            }
        }
        // The ruling an effect rests on, where the case names one: `[text, ruling]`.
        for pair in expect
            .get("effect_rulings")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let (text, ruling) = (pair[0].as_str().unwrap_or(""), pair[1].as_str());
            let found = outcome
                .effects
                .iter()
                .any(|e| e.text == text && e.ruling.as_deref() == ruling);
            if !found {
                return fail(format!("no effect {text:?} resting on {ruling:?}"));
            }
        }
    } else if expect.get("result").is_some() {
        return fail("the case names a result but gives no dice".into());
    }
    Ok(())
}

fn run_system(system: &str, at_least: usize) {
    let ruleset = Ruleset::load(&Layers {
        base: builtin(system).unwrap(),
        house_rules: vec![],
    })
    .unwrap();
    let mut failures = Vec::new();
    let mut count = 0;
    for entry in std::fs::read_dir(golden_dir(system)).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let case: Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        count += 1;
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
