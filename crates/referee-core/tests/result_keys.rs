//! No two results of a resolution share a key: the app lists the results by key, and two under one
//! key stop the list. Every documented example of every system, and a DBMM close combat between
//! every pair of elements of the troop model at every grade, resolved as the screen resolves them.

mod common;

use std::collections::BTreeSet;

use referee_core::ruleset::Layers;
use referee_core::systems::dbmm::Dbmm;
use referee_core::systems::{builtin, Ruleset};
use referee_core::Resolution;
use serde_json::json;

fn ruleset(system: &str) -> Ruleset {
    Ruleset::load(&Layers {
        base: builtin(system).unwrap(),
        house_rules: vec![],
    })
    .unwrap()
}

/// The code is one the system's ruleset file prints, as a table's result.
fn printed(system: &str, code: &str) -> bool {
    let path = format!(
        "{}/../../rulesets/{system}.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let toml = std::fs::read_to_string(path).unwrap();
    toml.contains(&format!("result = \"{}\"", code.replace('"', "\\\"")))
}

/// The keys shared by more than one result, if any.
fn shared_keys(r: &Resolution) -> Vec<String> {
    let mut seen = BTreeSet::new();
    r.distribution
        .iter()
        .filter(|d| !seen.insert(d.result.clone()))
        .map(|d| d.result.clone())
        .collect()
}

#[test]
fn every_documented_example_has_one_result_per_key() {
    let mut checked = 0;
    let mut sentences = Vec::new();
    let mut unworded = Vec::new();
    for (tag, situation) in common::api_examples() {
        let (system, action) = tag.split_once('/').unwrap();
        let Ok(r) = ruleset(system).resolve(action, &situation, None) else {
            continue;
        };
        assert!(shared_keys(&r).is_empty(), "{tag}: {:?}", shared_keys(&r));
        // Every result is named in words for the screen, and its key is an identifier made from
        // typed values, never the sentence the screen shows.
        for key in r
            .distribution
            .iter()
            .map(|d| &d.result)
            .chain(r.outcome.as_ref().map(|o| &o.result))
        {
            assert!(r.shown.names.contains_key(key), "{tag}: {key}");
            // A key made of values ("hits_3_0", "turn_8") is never what the screen shows.
            if key.contains('_') && r.shown.names[key] == *key {
                unworded.push(format!("{tag}: {key}"));
            }
            // A code the ruleset's own table prints ("front left") is the table's key.
            if key.contains(char::is_whitespace) && !printed(system, key) {
                sentences.push(format!("{tag}: “{key}”"));
            }
        }
        checked += 1;
    }
    assert!(checked > 40, "{checked} examples resolved");
    assert!(
        sentences.is_empty(),
        "sentences as keys:\n{}",
        sentences.join("\n")
    );
}

#[test]
fn every_dbmm_pair_of_elements_has_one_result_per_key() {
    let r = ruleset("dbmm");
    let data = r.data::<Dbmm>().unwrap();
    let elements: Vec<serde_json::Value> = data
        .types
        .keys()
        .flat_map(|t| ["S", "O", "I", "F"].map(|g| json!({ "type": t, "grade": g })))
        .collect();
    let mut pairs = 0;
    for a in &elements {
        for b in &elements {
            let situation = json!({ "a": { "element": a }, "b": { "element": b }, "bound": "a" });
            // A pair the sheet has no combat for (a grade a type does not take) is refused.
            let Ok(resolution) = r.resolve("close_combat", &situation, None) else {
                continue;
            };
            let shared = shared_keys(&resolution);
            assert!(shared.is_empty(), "{a} against {b}: {shared:?}");
            pairs += 1;
        }
    }
    assert!(pairs > 1000, "{pairs} pairs resolved");
    eprintln!("close combat: {pairs} pairs of elements, one result per key");
}
