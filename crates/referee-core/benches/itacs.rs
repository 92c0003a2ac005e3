//! Every ITACS action resolved in full (modifiers, exact distribution, chained forecast, effects,
//! outcome), from situation JSON to the resolution, as the API does it.

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
        "target": { "terrain": "mud", "road": true, "d_markers": 1, "units": [{ "type": "MS", "count": 2 }] }
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
            { "terrain": "clear", "d_markers": 2, "units": [{ "type": "PS", "count": 2 }] },
            { "terrain": "swamp", "stream": true, "d_markers": 1, "units": [{ "type": "SD", "count": 2 }] }
        ],
        "attacker_leader_bonus": 2
    });
    let horse_archers = json!({
        "firing_hexes": [{ "range": 2, "units": [{ "type": "HB", "fire": 3, "count": 2 }] }],
        "target": { "terrain": "clear", "d_markers": 1, "units": [{ "type": "SD", "count": 2 }] },
        "after_movement": { "terrain": "clear", "movement": 10, "contact_movement": [4] }
    });
    let rolled = [
        ("missile", missile),
        ("defensive_fire", defensive),
        ("melee", melee),
        ("horse_archer_fire", horse_archers),
        (
            "feudal_charge",
            json!({ "enemy_in_sight": true, "leader_bonus": 4 }),
        ),
        ("rampage", json!({ "elephant": "EL" })),
    ];
    for (action, situation) in &rolled {
        c.bench_function(&format!("itacs/{action}"), |b| {
            b.iter(|| {
                ruleset
                    .resolve(action, std::hint::black_box(situation), Some(&[4, 1]))
                    .unwrap()
            })
        });
    }
    let certain = [
        (
            "markers",
            json!({ "hex": { "units": [{ "type": "MS", "count": 2 }] },
            "changes": [{ "kind": "d_markers", "count": 2 }, { "kind": "d_markers", "count": 2 }] }),
        ),
        (
            "end_of_movement",
            json!({ "hexes": [
            { "label": "A", "formation": "PS", "d_markers": 2, "leaders": [{ "label": "2L", "control_range": 2 }] },
            { "label": "B", "formation": "PS", "d_markers": 1, "rout": true, "leader_distances": { "2L": 1 } },
            { "label": "C", "break": true }] }),
        ),
        (
            "recovery",
            json!({ "hexes": [{ "label": "A", "d_markers": 2 }, { "label": "B", "d_markers": 3 }] }),
        ),
        (
            "move",
            json!({ "unit": { "type": "LB", "count": 2 },
            "path": [{ "terrain": "mud" }, { "terrain": "mud" }, { "terrain": "mud", "road": true }] }),
        ),
        (
            "withdraw",
            json!({ "defenders": [{ "type": "LC", "movement": 9 }], "attackers": [{ "type": "SD" }] }),
        ),
        (
            "break_check",
            json!({ "units": [{ "type": "SD", "count": 2 }], "result": "DD", "enemy_movement": [3] }),
        ),
        (
            "scenario",
            json!({ "turns": 12, "first_side": "A", "sides": [
                { "name": "A", "stacking_limit": 2, "elite_types": ["HC"] },
                { "name": "B", "panic_level": 30 }] }),
        ),
        (
            "leader_fate",
            json!({ "event": "stack_eliminated_by_melee" }),
        ),
        ("conversion", json!({ "type": "HC", "stationary": true })),
        (
            "transport",
            json!({ "carrier": { "type": "LF", "combat": "4" }, "cargo": [{ "type": "SD", "count": 2 }] }),
        ),
        ("fire_ship", json!({ "type": "LF", "designated_turn": 8 })),
        (
            "victory",
            json!({ "sides": [
            { "name": "A", "panic_level": 20, "lost": [{ "type": "PP", "count": 2 }, { "type": "LB" }] },
            { "name": "B", "lost": [{ "type": "HC", "count": 3 }] }] }),
        ),
    ];
    for (action, situation) in &certain {
        c.bench_function(&format!("itacs/{action}"), |b| {
            b.iter(|| {
                ruleset
                    .resolve(action, std::hint::black_box(situation), None)
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
