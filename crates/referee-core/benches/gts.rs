//! Every GTS action resolved in full, as the API does it; recoil and the chained melee round with
//! one and with four units a side.

use criterion::{criterion_group, criterion_main, Criterion};
use referee_core::ruleset::Layers;
use referee_core::systems::{builtin, Ruleset};
use serde_json::{json, Value};

fn side(n: usize, unit: &Value) -> Value {
    Value::Array((0..n).map(|_| json!({ "unit": unit })).collect())
}

fn gts(c: &mut Criterion) {
    let ruleset = Ruleset::load(&Layers {
        base: builtin("gts").unwrap(),
        house_rules: vec![],
    })
    .unwrap();
    let hoplites = json!({ "class": "infantry", "morale": "C", "training": "P", "armour": "H",
                           "weapon": "SP", "order": "CO", "stands": 4 });
    let levy =
        json!({ "class": "infantry", "training": "V", "armour": "L", "weapon": "SP", "stands": 3 });
    let archers = json!({ "class": "infantry", "weapon": "BW", "armour": "N", "stands": 3, "skirmish": true });
    let cases: Vec<(&str, Value, Option<Vec<u32>>)> = vec![
        ("unit", hoplites.clone(), None),
        (
            "fire",
            json!({ "firer": { "class": "infantry", "weapon": "BW", "armour": "N", "stands": 3 },
                         "target": hoplites, "range": 1.5 }),
            Some(vec![7, 3]),
        ),
        (
            "fire",
            json!({ "firer": archers, "target": hoplites, "range": 4, "skirmish_stands": 4 }),
            None,
        ),
        (
            "melee",
            json!({ "side_a": side(1, &hoplites), "side_b": side(1, &levy) }),
            Some(vec![7, 3]),
        ),
        (
            "recoil",
            json!({ "side_a": side(1, &hoplites), "side_b": side(1, &levy) }),
            Some(vec![40, 70]),
        ),
        (
            "recoil",
            json!({ "side_a": side(4, &hoplites), "side_b": side(4, &levy) }),
            None,
        ),
        (
            "melee_round",
            json!({ "side_a": side(1, &hoplites), "side_b": side(1, &levy) }),
            None,
        ),
        (
            "melee_round",
            json!({ "side_a": side(4, &hoplites), "side_b": side(4, &levy) }),
            None,
        ),
        (
            "response_test",
            json!({ "test": "stand_loss", "unit": levy, "leader_pv": 1 }),
            Some(vec![4]),
        ),
        (
            "command_points",
            json!({ "pc": 3, "ts": "E" }),
            Some(vec![7]),
        ),
        (
            "leader_casualty",
            json!({ "side": "routed" }),
            Some(vec![2, 9]),
        ),
        (
            "frenzy",
            json!({ "hits_before": 2, "new_hits": 2 }),
            Some(vec![6, 2, 8]),
        ),
        (
            "army_break",
            json!({ "units": 12, "lost": 5, "general_lost": true,
                               "victor_stands_lost": 14, "defeated_stands_lost": 20 }),
            None,
        ),
    ];
    let mut seen: Vec<String> = Vec::new();
    for (action, situation, dice) in &cases {
        let units = situation["side_a"].as_array().map(|a| a.len()).unwrap_or(0);
        let mut name = format!("gts/{action}");
        if units > 1 {
            name = format!("{name}_{units}v{units}");
        } else if situation.get("skirmish_stands").is_some() {
            name = format!("{name}_skirmish_4");
        }
        if seen.contains(&name) {
            continue;
        }
        seen.push(name.clone());
        c.bench_function(&name, |b| {
            b.iter(|| {
                ruleset
                    .resolve(action, std::hint::black_box(situation), dice.as_deref())
                    .unwrap()
            })
        });
    }
}

criterion_group!(benches, gts);
criterion_main!(benches);
