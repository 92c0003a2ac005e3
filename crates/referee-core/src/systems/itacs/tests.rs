use proptest::prelude::*;
use serde_json::{json, Value};

use crate::ruleset::{Layers, SourceFile};
use crate::systems::{builtin, Ruleset};

fn itacs() -> Ruleset {
    Ruleset::load(&Layers {
        base: builtin("itacs").unwrap(),
        house_rules: vec![],
    })
    .unwrap()
}

fn refused(action: &str, situation: Value) -> crate::RefereeError {
    itacs().resolve(action, &situation, None).unwrap_err()
}

fn fire(units: Value, target: Value) -> Value {
    json!({ "firing_hexes": [{ "range": 1, "units": units }], "target": target })
}

fn melee(attack: &str, defence: &str, terrain: &str) -> Value {
    json!({
        "attackers": [{ "units": [{ "class": "A", "combat": attack }] }],
        "defenders": [{ "terrain": terrain, "units": [{ "class": "A", "combat": defence }] }]
    })
}

#[test]
fn the_melee_example_has_exact_odds() {
    // +6 on 2d6: DX needs a modified 10, a roll of 4 or more: 33/36.
    let r = itacs()
        .resolve(
            "melee",
            &json!({
                "attackers": [{ "rear": true, "units": [{ "type": "SD", "count": 6 }] }],
                "defenders": [{ "terrain": "clear", "units": [{ "type": "PS", "count": 2 }] }]
            }),
            None,
        )
        .unwrap();
    let dx = r.distribution.iter().find(|d| d.result == "DX").unwrap();
    assert_eq!(dx.probability, "11/12");
    assert_eq!(dx.rolls, "10–18");
    let d2xb = r.distribution.iter().find(|d| d.result == "D2XB").unwrap();
    assert_eq!(d2xb.probability, "1/12"); // rolls 2 and 3: 1/36 + 2/36
    let a1x = r.distribution.iter().find(|d| d.result == "A1X").unwrap();
    assert_eq!(a1x.probability, "0/1");
}

#[test]
fn bad_input_gets_a_typed_error_naming_the_field() {
    let target = json!({ "terrain": "clear", "units": [{ "type": "PS" }] });
    let cases: Vec<(&str, Value, &str, &str)> = vec![
        (
            "missile",
            fire(json!([{ "type": "LB", "fire": -3 }]), target.clone()),
            "situation.invalid_field",
            "firing_hexes[0].units[0].fire",
        ),
        (
            "missile",
            fire(json!([{ "type": "LB", "fire": "lots" }]), target.clone()),
            "situation.invalid_field",
            "firing_hexes[0].units[0].fire",
        ),
        (
            "missile",
            fire(json!([{ "type": "PS" }]), target.clone()),
            "situation.zero_fire_strength",
            "firing_hexes",
        ),
        (
            "missile",
            fire(json!([{ "type": "XX" }]), target.clone()),
            "situation.unknown_unit_type",
            "firing_hexes[0].units[0].type",
        ),
        (
            "missile",
            fire(
                json!([{ "type": "LB" }]),
                json!({ "terrain": "lava", "units": [{ "type": "PS" }] }),
            ),
            "situation.unknown_terrain",
            "target.terrain",
        ),
        (
            "missile",
            fire(
                json!([{ "type": "LB" }]),
                json!({ "terrain": "mountain", "units": [{ "type": "PS" }] }),
            ),
            "situation.impassable",
            "target.terrain",
        ),
        (
            "missile",
            fire(
                json!([{ "type": "LB" }]),
                json!({ "terrain": "clear", "units": [{ "type": "PS", "count": 5 }] }),
            ),
            "situation.stacking_off_table",
            "target.units",
        ),
        (
            "missile",
            fire(
                json!([{ "type": "LB" }]),
                json!({ "terrain": "clear", "units": [] }),
            ),
            "situation.no_units",
            "target.units",
        ),
        (
            "missile",
            json!({ "firing_hexes": [{ "range": 0, "units": [{ "type": "LB" }] }], "target": target.clone() }),
            "situation.invalid_range",
            "firing_hexes[0].range",
        ),
        (
            "defensive_fire",
            json!({ "firing_hexes": [{ "range": 2, "units": [{ "type": "LB" }] }], "target": target.clone() }),
            "situation.out_of_range",
            "firing_hexes[0].range",
        ),
        (
            "missile",
            fire(json!([{ "class": "Q", "fire": 3 }]), target.clone()),
            "situation.unknown_unit_class",
            "firing_hexes[0].units[0].class",
        ),
        (
            "missile",
            fire(json!([{ "class": "E", "fire": 3 }]), target.clone()),
            "situation.leader_as_unit",
            "firing_hexes[0].units[0].class",
        ),
        (
            "missile",
            json!({ "firing_hexes": [], "target": target.clone() }),
            "situation.no_units",
            "firing_hexes",
        ),
        (
            "missile",
            json!({ "target": target.clone() }),
            "situation.invalid_field",
            "",
        ),
        (
            "melee",
            melee("4", "0", "clear"),
            "situation.zero_defence",
            "defenders",
        ),
        (
            "melee",
            melee("four", "4", "clear"),
            "situation.invalid_strength",
            "attackers[0].units[0].combat",
        ),
        (
            "melee",
            melee("4", "4", "water"),
            "situation.melee_not_allowed",
            "defenders[0].terrain",
        ),
        (
            "melee",
            melee("4", "4", "wall"),
            "situation.melee_not_allowed",
            "attack_from",
        ),
        (
            "melee",
            json!({ "attackers": [{ "disrupted": true, "units": [{ "type": "PS" }] }], "defenders": [{ "terrain": "clear", "units": [{ "type": "PS" }] }] }),
            "situation.disrupted_attacker",
            "attackers[0].disrupted",
        ),
        (
            "melee",
            json!({ "attackers": [{ "units": [{ "type": "MS", "combat": "3" }] }], "defenders": [{ "terrain": "clear", "units": [{ "type": "PS" }] }] }),
            "situation.missing_class",
            "attackers[0].units[0].class",
        ),
        (
            "melee",
            json!({ "attackers": [{ "units": [{ "type": "PS" }] }], "defenders": [{ "terrain": "clear", "square": true, "units": [{ "type": "PS", "count": 3 }] }] }),
            "situation.invalid_square",
            "defenders[0].square",
        ),
        (
            "melee",
            json!({ "attackers": [{ "units": [{ "type": "PS", "count": 0 }] }], "defenders": [{ "terrain": "clear", "units": [{ "type": "PS" }] }] }),
            "situation.invalid_count",
            "attackers[0].units[0].count",
        ),
        ("charge", json!({}), "action.unknown", "action"),
    ];
    for (action, situation, code, field) in cases {
        let e = refused(action, situation.clone());
        assert_eq!(e.code, code, "{situation}: {}", e.one_line());
        assert_eq!(
            e.field.as_deref().unwrap_or(""),
            field,
            "{situation}: {}",
            e.one_line()
        );
        assert!(!e.message.is_empty());
    }
}

#[test]
fn bad_dice_are_refused() {
    let s = melee("4", "4", "clear");
    for dice in [vec![7, 1], vec![3], vec![0, 2]] {
        let e = itacs().resolve("melee", &s, Some(&dice)).unwrap_err();
        assert_eq!(e.code, "dice.invalid");
    }
}

#[test]
fn below_the_lowest_column_is_flagged_or_forbidden() {
    let r = itacs()
        .resolve("melee", &melee("1", "3", "clear"), None)
        .unwrap();
    assert!(r
        .notes
        .iter()
        .any(|n| n.message.contains("below the lowest column")));
    assert_eq!(r.modifiers[0].label, "Combat ratio (1:2)");
    let forbid = Ruleset::load(&Layers {
        base: builtin("itacs").unwrap(),
        house_rules: vec![SourceFile {
            name: "forbid.toml",
            text: "extends = \"itacs\"\n[set.melee]\nbelow_lowest_column = \"forbid\"\n",
        }],
    })
    .unwrap();
    let e = forbid
        .resolve("melee", &melee("1", "3", "clear"), None)
        .unwrap_err();
    assert_eq!(e.code, "situation.below_lowest_column");
    assert_eq!(e.ruling.as_deref(), Some("R-ITACS-1"));
}

#[test]
fn leaders_bonus_is_capped_at_the_formations_strength() {
    let s = json!({
        "attackers": [{ "units": [{ "type": "LB" }] }],
        "defenders": [{ "terrain": "clear", "units": [{ "type": "PS" }] }],
        "attacker_leader_bonus": 3
    });
    let r = itacs().resolve("melee", &s, None).unwrap();
    let bonus = r
        .totals
        .iter()
        .find(|t| t.label == "Attacker leader bonus")
        .unwrap();
    assert_eq!(bonus.value, "+1 (capped at the attacker's strength)");
    assert_eq!(r.totals[0].value, "2"); // a lone dot (1) + capped bonus (1)
}

#[test]
fn squares_break_attackers_on_ad_and_a1x_and_have_no_rear() {
    let s = json!({
        "attackers": [{ "rear": true, "units": [{ "type": "PS" }] }],
        "defenders": [{ "terrain": "clear", "square": true, "units": [{ "type": "PS", "count": 4 }] }]
    });
    let r = itacs().resolve("melee", &s, Some(&[1, 1])).unwrap();
    assert!(!r.modifiers.iter().any(|m| m.label == "Rear attack"));
    assert!(r.notes.iter().any(|n| n.message.contains("no rear")));
    let o = r.outcome.unwrap();
    assert_eq!(o.result, "AD"); // 1:4 resolved on 1:2 (-1), 2 - 1 = 1
    assert!(o
        .effects
        .iter()
        .any(|e| e.text == "Attacker: must break (Break marker, rout move after combat)"));
}

#[test]
fn mounted_defenders_in_a_village_and_walls_from_walls_use_zero() {
    let s = json!({
        "attackers": [{ "units": [{ "type": "PS" }] }],
        "defenders": [{ "terrain": "village", "units": [{ "type": "HC" }] }]
    });
    let r = itacs().resolve("melee", &s, None).unwrap();
    assert_eq!(r.modifiers[1].value, 0);
    let s = json!({
        "attack_from": "wall",
        "attackers": [{ "units": [{ "type": "PS" }] }],
        "defenders": [{ "terrain": "wall", "units": [{ "type": "PS" }] }]
    });
    assert_eq!(
        itacs().resolve("melee", &s, None).unwrap().modifiers[1].value,
        0
    );
    let s = json!({
        "attack_from": "ladder_or_tower",
        "attackers": [{ "units": [{ "type": "PS" }] }],
        "defenders": [{ "terrain": "wall", "units": [{ "type": "PS" }] }]
    });
    assert_eq!(
        itacs().resolve("melee", &s, None).unwrap().modifiers[1].value,
        -6
    );
}

#[test]
fn shields_count_unless_a_firer_is_in_the_rear() {
    let front = fire(
        json!([{ "type": "LB", "count": 2 }]),
        json!({ "terrain": "clear", "units": [{ "type": "SD" }] }),
    );
    let r = itacs().resolve("missile", &front, None).unwrap();
    assert!(r
        .modifiers
        .iter()
        .any(|m| m.label == "Shields" && m.value == -2));
    let mut rear = front.clone();
    rear["firing_hexes"][0]["rear"] = json!(true);
    let r = itacs().resolve("missile", &rear, None).unwrap();
    assert!(!r.modifiers.iter().any(|m| m.label == "Shields"));
    assert!(r
        .modifiers
        .iter()
        .any(|m| m.label == "Rear attack" && m.value == 1));
}

fn p_of(r: &crate::Resolution, result: &str) -> (u128, u128) {
    let s = &r
        .distribution
        .iter()
        .find(|d| d.result == result)
        .unwrap()
        .probability;
    let (n, d) = s.split_once('/').unwrap();
    (n.parse().unwrap(), d.parse().unwrap())
}

fn at_least(a: (u128, u128), b: (u128, u128)) -> bool {
    a.0 * b.1 >= b.0 * a.1
}

proptest! {
    #[test]
    fn more_attack_strength_never_makes_dx_less_likely(attack in 1u32..40, extra in 1u32..10, defence in 1u32..20) {
        let ruleset = itacs();
        let weaker = ruleset.resolve("melee", &melee(&attack.to_string(), &defence.to_string(), "clear"), None).unwrap();
        let stronger = ruleset.resolve("melee", &melee(&(attack + extra).to_string(), &defence.to_string(), "clear"), None).unwrap();
        prop_assert!(at_least(p_of(&stronger, "DX"), p_of(&weaker, "DX")));
        let sum = stronger.distribution.iter().map(|d| d.p).sum::<f64>();
        prop_assert!((sum - 1.0).abs() < 1e-12);
    }

    #[test]
    fn more_fire_strength_never_makes_dx_less_likely(fire_strength in 1u32..20, extra in 1u32..10, stacked in 1u32..5) {
        let ruleset = itacs();
        let target = json!({ "terrain": "clear", "units": [{ "type": "PS", "count": stacked }] });
        let weaker = ruleset.resolve("missile", &fire(json!([{ "class": "Ff", "fire": fire_strength }]), target.clone()), None).unwrap();
        let stronger = ruleset.resolve("missile", &fire(json!([{ "class": "Ff", "fire": fire_strength + extra }]), target), None).unwrap();
        prop_assert!(at_least(p_of(&stronger, "DX"), p_of(&weaker, "DX")));
    }
}
