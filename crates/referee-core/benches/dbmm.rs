//! Every DBMM action resolved in full, as the API does it: the close combats and shootings enumerate
//! all 36 throws with grading, outcomes, pursuit and the checklists (target < 1 ms each).

use criterion::{criterion_group, criterion_main, Criterion};
use referee_core::ruleset::Layers;
use referee_core::systems::{builtin, Ruleset};
use serde_json::{json, Value};

fn dbmm(c: &mut Criterion) {
    let ruleset = Ruleset::load(&Layers {
        base: builtin("dbmm").unwrap(),
        house_rules: vec![],
    })
    .unwrap();
    let el = |t: &str, g: &str| json!({ "type": t, "grade": g });
    let cases: Vec<(&str, &str, Value, Option<Vec<u32>>)> = vec![
        (
            "element",
            "element",
            json!({ "element": el("Sp", "S") }),
            None,
        ),
        (
            "close_combat",
            "close_combat",
            json!({ "a": { "element": el("Kn", "O") }, "b": { "element": el("Bd", "O") }, "bound": "a" }),
            Some(vec![5, 2]),
        ),
        (
            "close_combat_full",
            "close_combat",
            json!({
                "a": { "element": el("Bd", "S"), "overlaps": [{ "type": "Pk" }, { "type": "Bd" }],
                       "factors": ["upslope", "shaken"], "behind": el("Bw", "O") },
                "b": { "element": { "type": "Pk", "grade": "O", "general": true },
                       "support": { "ranks": [el("Pk", "O"), el("Pk", "O"), el("Pk", "O")] },
                       "enemy_on_flank_or_rear": 1 },
                "bound": "b", "time": "dusk"
            }),
            None,
        ),
        (
            "shooting",
            "shooting",
            json!({ "shooter": { "element": el("Bw", "S"), "factors": ["aided_behind"] },
                    "target": { "element": el("Bw", "I") }, "shoots_back": true, "bound": "shooter", "range": 200 }),
            None,
        ),
        (
            "command_morale",
            "command_morale",
            json!({ "elements": (0..12).map(|i| json!({ "element": el("Bd", "O"), "state": if i < 4 { "destroyed" } else { "in_play" } })).collect::<Vec<_>>() }),
            None,
        ),
        (
            "army_morale",
            "army_morale",
            json!({ "commands": [{ "tally": { "total": 12, "destroyed": 5 } }, { "tally": { "total": 10, "destroyed": 7 }, "nearby_broken_me": 13 }] }),
            None,
        ),
        (
            "victory",
            "victory",
            json!({ "invader": { "commands": [{ "tally": { "total": 24, "destroyed": 5 } }, { "tally": { "total": 12, "destroyed": 6 } }] },
                    "defender": { "commands": [{ "tally": { "total": 24, "destroyed": 13 } }] } }),
            None,
        ),
        (
            "pips_4_commands",
            "pips",
            json!({ "commands": [{ "c_in_c": true, "allocated": "highest" }, { "allocated": "next" }, { "allocated": "lowest" }, { "ally": true, "inert": true }] }),
            None,
        ),
        (
            "pip_cost",
            "pip_cost",
            json!({ "action": "move", "conditions": ["night", "awkward_troops"] }),
            None,
        ),
        (
            "distances",
            "distances",
            json!({ "element": el("LH", "O"), "scale": "25mm" }),
            None,
        ),
    ];
    for (name, action, situation, dice) in &cases {
        c.bench_function(&format!("dbmm/{name}"), |b| {
            b.iter(|| {
                ruleset
                    .resolve(action, std::hint::black_box(situation), dice.as_deref())
                    .unwrap()
            })
        });
    }
    c.bench_function("dbmm/load_ruleset", |b| {
        b.iter(|| {
            Ruleset::load(&Layers {
                base: builtin("dbmm").unwrap(),
                house_rules: vec![],
            })
            .unwrap()
        })
    });
}

criterion_group!(benches, dbmm);
criterion_main!(benches);
