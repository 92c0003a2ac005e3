//! Every Medieval action resolved in full, from situation JSON to the resolution, as the API does
//! it: combat includes the chained forecast of both sides (scatter d6 and leader-death 2d6 under
//! every result).

use criterion::{criterion_group, criterion_main, Criterion};
use referee_core::ruleset::Layers;
use referee_core::systems::{builtin, Ruleset};
use serde_json::json;

fn medieval(c: &mut Criterion) {
    let ruleset = Ruleset::load(&Layers {
        base: builtin("medieval").unwrap(),
        house_rules: vec![],
    })
    .unwrap();
    let combat = json!({
        "attackers": [
            { "stream": true, "units": [{ "type": "heavy_cavalry", "sp": 2, "cf": 2 }] },
            { "stream": true, "rear": true, "units": [{ "type": "cavalry", "sp": 2, "cf": 3 }] }
        ],
        "defenders": [{ "terrain": "stream", "units": [{ "type": "light_cavalry", "sp": 2, "cf": 1 }] }],
        "attacker": { "leader": "stacked", "retreat_possible": 1 },
        "defender": { "leader": "stacked", "banner": true, "retreat_possible": 2 },
        "morale": 1
    });
    let rolled = [
        ("combat", combat, vec![3, 4]),
        (
            "fire",
            json!({ "shooter": { "type": "crossbowmen", "sp": 2 }, "range": 2, "in_friendly_zoc": true,
                    "leader_in_target_hex": true,
                    "target": { "terrain": "village", "units": [{ "type": "heavy_cavalry", "sp": 2 }] } }),
            vec![3, 4],
        ),
        (
            "pursuit",
            json!({ "hexes_from_leader": 2, "morale": 2 }),
            vec![3],
        ),
        (
            "leader_death",
            json!({ "retreat": 3, "sp_lost": 2 }),
            vec![3, 4],
        ),
        (
            "regroup",
            json!({ "sp": 2, "leader_alive": true, "grand_leader_alive": true }),
            vec![3],
        ),
    ];
    for (action, situation, dice) in &rolled {
        c.bench_function(&format!("medieval/{action}"), |b| {
            b.iter(|| {
                ruleset
                    .resolve(action, std::hint::black_box(situation), Some(dice))
                    .unwrap()
            })
        });
    }
    let certain = [
        (
            "ride_down",
            json!({ "cavalry": { "type": "heavy_cavalry", "sp": 2, "cf": 3 }, "uphill": 1, "terrain": "slope",
                    "units": [{ "type": "heavy_infantry", "sp": 1 }] }),
        ),
        (
            "countercharge",
            json!({ "unit": { "type": "heavy_cavalry", "sp": 2, "cf": 1 }, "enemy_adjacent_to_front": true }),
        ),
        (
            "turn_cost",
            json!({ "unit": { "type": "heavy_cavalry", "sp": 2 }, "hexsides": 2, "terrain": "forest", "in_enemy_zoc": true }),
        ),
        (
            "move_cost",
            json!({ "unit": { "type": "light_cavalry", "sp": 2 }, "movement": 8, "path": [
                { "terrain": "clear" }, { "terrain": "slope", "uphill": true }, { "terrain": "clear", "road": true },
                { "terrain": "clear", "enemy_zoc_cf": 0 }, { "terrain": "clear" }] }),
        ),
        (
            "morale",
            json!({ "track": 0, "events": [{ "kind": "elimination", "to": "a", "count": 2 }, { "kind": "leader_death", "to": "b" }] }),
        ),
        ("banner", json!({ "event": "holder_eliminated" })),
        (
            "fatigue",
            json!({ "level": 12, "active": true, "units": 6 }),
        ),
    ];
    for (action, situation) in &certain {
        c.bench_function(&format!("medieval/{action}"), |b| {
            b.iter(|| {
                ruleset
                    .resolve(action, std::hint::black_box(situation), None)
                    .unwrap()
            })
        });
    }
    c.bench_function("medieval/load_ruleset", |b| {
        b.iter(|| {
            Ruleset::load(&Layers {
                base: builtin("medieval").unwrap(),
                house_rules: vec![],
            })
            .unwrap()
        })
    });
}

criterion_group!(benches, medieval);
criterion_main!(benches);
