//! Every ITACS action resolved in full (modifiers, exact distribution, effects, outcome), from
//! situation JSON to the resolution, as the API does it.

use criterion::{criterion_group, criterion_main, Criterion};
use referee_core::ruleset::Layers;
use referee_core::systems::{builtin, Ruleset};
use serde_json::json;

fn itacs(c: &mut Criterion) {
    let ruleset = Ruleset::load(&Layers {
        base: builtin("itacs").unwrap(),
        house_rules: vec![],
    })
    .unwrap();
    let missile = json!({
        "firing_hexes": [{ "range": 2, "units": [{ "type": "LB", "count": 2 }] }],
        "target": { "terrain": "mud", "road": true, "units": [{ "type": "MS", "count": 2 }] }
    });
    let defensive = json!({
        "firing_hexes": [
            { "label": "22.19", "range": 1, "units": [{ "type": "LB", "count": 2 }, { "type": "PS" }] },
            { "label": "23.19", "range": 1, "leader": true, "units": [{ "type": "LB", "count": 2 }] }
        ],
        "target": { "terrain": "mud", "units": [{ "type": "MS", "count": 3 }] }
    });
    let melee = json!({
        "attackers": [
            { "units": [{ "type": "SD", "count": 3 }] },
            { "rear": true, "units": [{ "type": "SD", "count": 3 }] }
        ],
        "defenders": [
            { "terrain": "clear", "units": [{ "type": "PS", "count": 2 }] },
            { "terrain": "swamp", "stream": true, "units": [{ "type": "SD", "count": 2 }] }
        ],
        "attacker_leader_bonus": 2
    });
    for (action, situation) in [
        ("missile", &missile),
        ("defensive_fire", &defensive),
        ("melee", &melee),
    ] {
        c.bench_function(&format!("itacs/{action}"), |b| {
            b.iter(|| {
                ruleset
                    .resolve(action, std::hint::black_box(situation), Some(&[4, 1]))
                    .unwrap()
            })
        });
    }
    c.bench_function("itacs/load_ruleset", |b| {
        b.iter(|| {
            Ruleset::load(&Layers {
                base: builtin("itacs").unwrap(),
                house_rules: vec![],
            })
            .unwrap()
        })
    });
}

criterion_group!(benches, itacs);
criterion_main!(benches);
