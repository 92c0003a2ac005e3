//! Medieval mechanics against hand-counted odds. 2d6 weights of 36: 2:1 3:2 4:3 5:4 6:5 7:6
//! 8:5 9:4 10:3 11:2 12:1.

use serde_json::{json, Value};

use super::combat::initial_column;
use crate::contract::{Change, Resolution, Target};
use crate::systems::medieval::Medieval;
use crate::systems::test_support::{chance, load, odds};
use crate::systems::Ruleset;

fn medieval() -> Ruleset {
    load("medieval")
}

fn resolved(action: &str, situation: Value) -> crate::Resolution {
    medieval()
        .resolve(action, &situation, None)
        .unwrap_or_else(|e| panic!("{action}: {}", e.one_line()))
}

fn refused(action: &str, situation: Value) -> crate::RefereeError {
    medieval().resolve(action, &situation, None).unwrap_err()
}

#[test]
fn initial_ratios_round_half_up_and_clamp() {
    let ruleset = medieval();
    let data = ruleset.data::<Medieval>().unwrap();
    let columns = data.combat.column_ratios();
    let col = |a, d| data.combat.columns[initial_column(&columns, a, d)].clone();
    assert_eq!(col(8, 3), "3:1"); // 1.5 a
    assert_eq!(col(3, 2), "2:1"); // 1.6 a
    assert_eq!(col(649, 100), "6:1"); // 1.6 b: 6.49:1
    assert_eq!(col(3, 5), "1:2"); // R-MED-1
    assert_eq!(col(2, 5), "1:3"); // 1:2.5 → 1:3
    assert_eq!(col(1, 9), "1:4"); // clamped
    assert_eq!(col(20, 1), "9:1");
    assert_eq!(col(2, 2), "1:1");
}

#[test]
fn the_5_1_1_combat_forecasts_scatter_and_losses() {
    // Column 4:1 by roll: 2 -1/D3R, 3 D3, 4 -1/D2, 5 D2-1, 6 D2, 7 D2, 8 D1-1, 9 D1, 10 -1/D1,
    // 11 -, 12 -1/-1. Light cavalry scatter on D2: 1–2, D3: 1–3, D1: never.
    // Scattered: 1 + 2·3/6 + (3+4+5+6)·2/6 = 8 of 36.
    let r = resolved(
        "combat",
        json!({
            "attackers": [
                { "stream": true, "units": [{ "type": "heavy_cavalry", "sp": 2, "cf": 2 }] },
                { "stream": true, "units": [{ "type": "cavalry", "sp": 2, "cf": 3 }] }
            ],
            "defenders": [{ "terrain": "stream", "units": [{ "type": "light_cavalry", "sp": 2, "cf": 1 }] }]
        }),
    );
    assert_eq!(chance(&r, "The defender is scattered"), "2/9");
    assert_eq!(chance(&r, "The defender loses SP"), "5/18"); // rolls 5, 8, 12
    assert_eq!(chance(&r, "The defender retreats"), "11/12"); // rolls 2–10
    assert_eq!(chance(&r, "The defender is eliminated"), "0/1");
    assert_eq!(chance(&r, "The attacker loses SP"), "2/9"); // rolls 2, 4, 10, 12
    assert_eq!(odds(&r, "D2"), "11/36"); // rolls 6, 7
    assert_eq!(
        r.distribution
            .iter()
            .find(|d| d.result == "D2")
            .unwrap()
            .rolls,
        "6–7"
    );
    assert_eq!(r.total_modifier, 0, "the roll itself is never modified");
}

#[test]
fn blocked_retreats_cost_sp_and_leaders_stop_scatter_but_may_die() {
    // 2 v 2 retainers: column 1:1 — 2 D2-1, 3 D1-1, 4 D1, 5 -1/D1, 6 -, 7 -1/-1, 8 -1/-, 9 A1,
    // 10 A1-1, 11 A1, 12 A1R.
    let r = resolved(
        "combat",
        json!({
            "attackers": [{ "units": [{ "type": "retainers", "sp": 2 }] }],
            "defenders": [{ "terrain": "clear", "units": [{ "type": "retainers", "sp": 2 }] }],
            "attacker": { "leader": "stacked" },
            "defender": { "retreat_possible": 0 }
        }),
    );
    // The leader's 2 CMs shift 1:1 to 3:1: use the 3:1 column instead, by hand:
    // 2 -1/D2, 3 D2-1, 4 D2, 5 D2, 6 D1-1, 7 D1, 8 -1/D1, 9 -, 10 -1/-1, 11 -1/-, 12 A1.
    assert!(r.totals.iter().any(|t| t.value == "+0 → 3:1"));
    // Defender cannot retreat: every hex is an SP (5.4.6). 2 SPs: eliminated on D2 (rolls 2, 4,
    // 5: 1+3+4), D2-1 (3: 2) and D1-1 (6: 5) = 15/36; loses SP on rolls 2–8 and 10 = 29/36.
    assert_eq!(chance(&r, "The defender is eliminated"), "5/12");
    assert_eq!(chance(&r, "The defender loses SP"), "29/36");
    // The scatter roll follows the result (R-MED-12) even when the retreat was blocked:
    // surviving D1 on rolls 7–8 (11/36), retainers scatter on D1 with a 1: 11/216.
    assert_eq!(chance(&r, "The defender is scattered"), "11/216");
    // Attacker with a stacked leader: never scattered; A1 on 12 (1/36) with no loss: the leader
    // dies on 2d6 ≤ 1: never.
    assert_eq!(chance(&r, "The attacker is scattered"), "0/1");
    assert_eq!(
        chance(&r, "The attacker's leader dies on his death 2d6"),
        "0/1"
    );
}

#[test]
fn a_leader_in_range_by_distance_and_a_bad_range() {
    let s = |distance: u32, range: u32| {
        json!({
            "attackers": [{ "units": [{ "type": "retainers", "sp": 2 }] }],
            "defenders": [{ "terrain": "clear", "units": [{ "type": "retainers", "sp": 2 }] }],
            "attacker": { "leader_distance": distance, "leader_range": range }
        })
    };
    let r = resolved("combat", s(2, 2));
    assert!(r
        .modifiers
        .iter()
        .any(|m| m.label == "Attacker: within a leader's range" && m.value == 1));
    let r = resolved("combat", s(3, 2));
    assert!(r.modifiers.iter().all(|m| !m.label.contains("leader")));
    let e = refused("combat", s(1, 4));
    assert_eq!(
        (e.code.as_str(), e.field.as_deref()),
        (
            "situation.invalid_leader_range",
            Some("attacker.leader_range")
        )
    );
}

#[test]
fn bad_units_are_refused_citing_the_rule() {
    let combat = |unit: Value| {
        json!({
            "attackers": [{ "units": [unit] }],
            "defenders": [{ "terrain": "clear", "units": [{ "type": "retainers", "sp": 1 }] }]
        })
    };
    let e = refused(
        "combat",
        combat(json!({ "type": "heavy_cavalry", "sp": 2, "cf": 4 })),
    );
    assert_eq!(
        (e.code.as_str(), e.rule.as_deref()),
        ("situation.invalid_charge_factor", Some("5.6.2"))
    );
    let e = refused(
        "combat",
        combat(json!({ "type": "retainers", "sp": 2, "armour": 3 })),
    );
    assert_eq!(
        (e.code.as_str(), e.rule.as_deref()),
        ("situation.invalid_armour", Some("1.1"))
    );
    let e = refused(
        "combat",
        combat(json!({ "type": "retainers", "sp": 2, "count": 2 })),
    );
    assert_eq!(e.code, "situation.over_stacking");
    let e = refused("combat", combat(json!({ "type": "knights", "sp": 2 })));
    assert_eq!(e.code, "situation.unknown_unit_type");
    let e = refused("combat", combat(json!({ "type": "retainers", "sp": 0 })));
    assert_eq!(e.code, "situation.invalid_strength");
    // A fortified hex holds 10 SPs and fights with 4 (11.1.8).
    let r = resolved(
        "combat",
        json!({
            "attackers": [{ "through_fortifications": true, "units": [{ "type": "retainers", "sp": 2 }] }],
            "defenders": [{ "terrain": "fortifications", "units": [{ "type": "retainers", "sp": 2, "count": 3 }] }]
        }),
    );
    assert!(r
        .totals
        .iter()
        .any(|t| t.label == "Defender SPs" && t.value == "4"));
    assert!(r
        .totals
        .iter()
        .any(|t| t.label == "Attacker SPs" && t.value == "1"));
}

#[test]
fn archers_and_crossbows_by_hand() {
    let fire = |shooter: &str, armour_type: &str, zoc: bool| {
        resolved(
            "fire",
            json!({
                "shooter": { "type": shooter, "sp": 2 },
                "range": 1,
                "in_friendly_zoc": zoc,
                "target": { "terrain": "clear", "units": [{ "type": armour_type, "sp": 2 }] }
            }),
        )
    };
    // Archers at 1 hex: 7–8 -1 (11/36), 9–10 -1R (7/36), 11+ -2 (3/36).
    let r = fire("archers", "retainers", false);
    assert_eq!(odds(&r, "-1"), "11/36");
    assert_eq!(odds(&r, "-1R"), "7/36");
    assert_eq!(chance(&r, "The target loses SP"), "7/12");
    assert_eq!(chance(&r, "The target is scattered"), "7/36");
    // Crossbows against armour 2 (−2): -1 on rolls 6–10 (23/36), -1R on 11–12 (3/36), and a loss
    // scatters on a d6 of 6: 3/36 + 23/36 · 1/6 = 41/216.
    let r = fire("crossbowmen", "heavy_infantry", false);
    assert_eq!(r.total_modifier, -2);
    assert_eq!(chance(&r, "The target is scattered"), "41/216");
    // In a friendly ZoC a d6 of 1 hits the friend instead (10.2.1).
    let r = fire("archers", "retainers", true);
    assert_eq!(
        chance(&r, "A friendly unit beside the target loses 1 SP instead"),
        "1/6"
    );
    assert_eq!(chance(&r, "The target loses SP"), "35/72");
    let e = refused(
        "fire",
        json!({ "shooter": { "type": "archers", "sp": 2 }, "range": 5,
        "target": { "terrain": "clear", "units": [{ "type": "retainers", "sp": 1 }] } }),
    );
    assert_eq!(e.code, "situation.out_of_range");
    let e = refused(
        "fire",
        json!({ "shooter": { "type": "retainers", "sp": 2 }, "range": 1,
        "target": { "terrain": "clear", "units": [{ "type": "retainers", "sp": 1 }] } }),
    );
    assert_eq!(e.code, "situation.not_ranged");
}

#[test]
fn the_pursuit_results_reach_the_screen_in_the_rules_words() {
    // 5.5.1–5.5.4: "PO - pursuit obligatory"; a voluntary pursuit is named too, not its key
    // capitalised by the screen.
    let r = resolved("pursuit", json!({ "hexes_from_leader": 2, "morale": 0 }));
    let shown: Vec<&str> = r
        .distribution
        .iter()
        .map(|d| r.shown.names[&d.result].as_str())
        .collect();
    assert_eq!(shown, ["Pursuit obligatory", "Pursuit voluntary"]);
    for d in &r.distribution {
        assert_ne!(
            r.shown.names[&d.result],
            crate::contract::result_words(&d.result),
            "the key {} reaches the screen",
            d.result
        );
    }
}

#[test]
fn a_voluntary_pursuit_declined_moves_nothing() {
    // 5.5.4: a voluntary pursuit "may" be made. Declined, the unit stays and rides nobody down;
    // an obligatory one is made whatever the player would rather.
    let pursuit = |stays: bool| {
        json!({
            "hexes_from_leader": 2,
            "pursuer": { "type": "light_cavalry", "sp": 2, "cf": 3 },
            "path": [{ "label": "05.06", "enemy": [{ "type": "heavy_infantry", "sp": 1 }] }],
            "stays": stays
        })
    };
    let moves = |r: &crate::Resolution| r.outcome.as_ref().unwrap().effects.len();
    // A 6 is voluntary at 2 hexes from the leader, a 1 obligatory.
    let made = with_dice("pursuit", pursuit(false), &[6]);
    assert_eq!(made.outcome.as_ref().unwrap().result, "voluntary");
    assert_eq!(moves(&made), 2, "the ride-down and the move: {made:?}");
    let declined = with_dice("pursuit", pursuit(true), &[6]);
    assert_eq!(moves(&declined), 0, "{:?}", declined.outcome);
    assert!(declined.outcome.as_ref().unwrap().meaning.contains("stays"));
    // The odds say the same as Apply: the voluntary row lands nothing.
    let row = declined
        .distribution
        .iter()
        .find(|d| d.result == "voluntary")
        .unwrap();
    assert!(row.effects.is_empty());
    let obliged = with_dice("pursuit", pursuit(true), &[1]);
    assert_eq!(obliged.outcome.as_ref().unwrap().result, "obligatory");
    assert_eq!(moves(&obliged), 2);
}

#[test]
fn pursuit_fatigue_and_regroup_by_hand() {
    let p = |hexes: u32, morale: i64| {
        let r = resolved(
            "pursuit",
            json!({ "hexes_from_leader": hexes, "morale": morale }),
        );
        odds(&r, "obligatory")
    };
    assert_eq!(p(2, 0), "1/3");
    assert_eq!(p(2, 2), "5/6"); // 5.5.10: −3
    assert_eq!(p(0, 0), "0/1");
    let r = resolved(
        "fatigue",
        json!({ "level": 12, "active": true, "units": 2 }),
    );
    assert_eq!(chance(&r, "Exactly 0 of 2 units scatter"), "1/4");
    assert_eq!(chance(&r, "Exactly 1 of 2 units scatter"), "1/2");
    let r = resolved("fatigue", json!({ "level": 12, "units": 2 }));
    assert!(r.forecast.is_empty());
    let r = resolved(
        "regroup",
        json!({ "sp": 2, "leader_alive": true, "grand_leader_alive": true }),
    );
    assert_eq!(odds(&r, "regroups"), "1/2");
    let r = resolved(
        "regroup",
        json!({ "sp": 1, "leader_alive": false, "grand_leader_alive": false }),
    );
    assert_eq!(r.outcome.unwrap().result, "eliminated");
}

#[test]
fn the_morale_track_moves_by_the_events_of_6_1() {
    let r = resolved(
        "morale",
        json!({ "track": 1, "events": [
            { "kind": "elimination", "to": "b", "count": 2 },
            { "kind": "banner_fall", "to": "a" },
            { "kind": "leader_death", "to": "b" }
        ]}),
    );
    // 1 − 2 + 3 − 8 = −6.
    assert_eq!(r.outcome.unwrap().result, "-6");
}

#[test]
fn banners_fall_are_captured_and_recaptured() {
    let b = |s: Value| resolved("banner", s).outcome.unwrap();
    // 6.1.5: player B's banner falls: 3 boxes to player A, the battle's first side.
    let fallen = b(json!({ "event": "holder_eliminated", "banner_of": "b" }));
    assert_eq!(fallen.result, "fallen");
    assert_eq!(
        fallen.effects[0].text,
        "Army A: MORALE track 3 boxes in its favour"
    );
    // Whose banner it is must be said before the track can move.
    let e = refused("banner", json!({ "event": "holder_eliminated" }));
    assert_eq!(
        (e.code.as_str(), e.field.as_deref()),
        ("situation.banner_of_missing", Some("banner_of"))
    );
    assert_eq!(
        b(json!({ "event": "holder_eliminated", "friendly_units_on_hex": 1 })).result,
        "held"
    );
    let archers = json!({ "type": "archers", "sp": 2 });
    assert_eq!(
        b(json!({ "event": "unit_enters", "unit": archers })).result,
        "not_taken"
    );
    let knights = json!({ "type": "heavy_cavalry", "sp": 2 });
    assert_eq!(
        b(json!({ "event": "unit_enters", "unit": knights })).result,
        "captured"
    );
    // R-MED-36: its own side takes it back, captured or not: 3 boxes back to player B.
    let back =
        b(json!({ "event": "unit_enters", "unit": knights, "own_side": true, "banner_of": "b" }));
    assert_eq!(back.result, "recaptured");
    assert_eq!(
        back.effects[0].text,
        "Army B: MORALE track 3 boxes in its favour"
    );
    assert_eq!(back.effects[0].ruling.as_deref(), Some("R-MED-36"));
}

#[test]
fn ranged_units_in_combat_formation_take_every_retreat_hex_as_an_sp() {
    // Archers alone fight with 1 SP (10.3.2) and cannot retreat (10.3.3): 2 v 1 at 2:1, +2 for a
    // ranged target → 4:1. A D2 there costs them 2 SPs instead; their 2 SPs are gone on every
    // result with loss + retreat ≥ 2: rolls 2–8, 26 of 36.
    let r = resolved(
        "combat",
        json!({
            "attackers": [{ "units": [{ "type": "retainers", "sp": 2 }] }],
            "defenders": [{ "terrain": "clear", "units": [{ "type": "archers", "sp": 2 }] }]
        }),
    );
    let d2 = r.distribution.iter().find(|d| d.result == "D2").unwrap();
    let texts: Vec<&str> = d2.effects.iter().map(|e| e.text.as_str()).collect();
    assert!(
        texts.contains(&"Defender: lose 2 SP (defender's choice of unit)"),
        "{texts:?}"
    );
    assert_eq!(chance(&r, "The defender is eliminated"), "13/18");
}

/// A defender on a slope is charged uphill: its terrain modifier and the attacker's CF −1 come
/// from the one terrain choice (5.6.9, R-MED-16); a longer climb is entered on the attacking hex.
#[test]
fn a_slope_defender_takes_the_attackers_charge_factor_once() {
    let combat = |terrain: &str, uphill: u32| {
        let r = resolved(
            "combat",
            json!({
                "attackers": [{ "uphill": uphill, "units": [{ "type": "heavy_cavalry", "sp": 2, "cf": 3 }] }],
                "defenders": [{ "terrain": terrain, "units": [{ "type": "heavy_infantry", "sp": 2 }] }],
            }),
        );
        serde_json::to_value(&r.modifiers).unwrap()
    };
    assert_eq!(combat("slope", 0), combat("slope", 1));
    assert_ne!(combat("slope", 0), combat("slope", 2));
    assert_ne!(combat("clear", 0), combat("clear", 1));
}

// ---- the audit of issue 20: readings and the rules that were missing.

fn with_dice(action: &str, situation: Value, dice: &[u32]) -> crate::Resolution {
    medieval()
        .resolve(action, &situation, Some(dice))
        .unwrap_or_else(|e| panic!("{action}: {}", e.one_line()))
}

fn has_note(r: &crate::Resolution, text: &str, ruling: Option<&str>) -> bool {
    r.notes
        .iter()
        .any(|n| n.message.contains(text) && (ruling.is_none() || n.ruling.as_deref() == ruling))
}

#[test]
fn equal_defending_hexes_count_the_better_terrain_whatever_the_order() {
    // 5.3.2, R-MED-17: 1 SP in a village (1 CM) and 1 SP in clear; either order, the village.
    let village =
        json!({ "label": "V", "terrain": "village", "units": [{ "type": "retainers", "sp": 1 }] });
    let clear =
        json!({ "label": "C", "terrain": "clear", "units": [{ "type": "retainers", "sp": 1 }] });
    let attackers = json!([{ "units": [{ "type": "retainers", "sp": 2 }] }]);
    let mut columns = Vec::new();
    for defenders in [json!([village, clear]), json!([clear, village])] {
        let r = resolved(
            "combat",
            json!({ "attackers": attackers, "defenders": defenders }),
        );
        assert!(r
            .modifiers
            .iter()
            .any(|m| m.label.starts_with("Defender: terrain, Village") && m.value == -1));
        assert!(has_note(&r, "Village counts", Some("R-MED-17")));
        columns.push(crate::systems::test_support::total(
            &r,
            "Final combat ratio",
        ));
    }
    assert_eq!(columns[0], columns[1]);
}

#[test]
fn a_weaker_defending_hex_in_forest_still_stops_the_charge() {
    // 5.6.6, R-MED-18: 2 SPs in clear count for the terrain, 1 SP in forest stops the CF.
    let r = resolved(
        "combat",
        json!({
            "attackers": [{ "units": [{ "type": "heavy_cavalry", "sp": 2, "cf": 3 }] }],
            "defenders": [
                { "terrain": "clear", "units": [{ "type": "retainers", "sp": 2 }] },
                { "terrain": "forest", "units": [{ "type": "retainers", "sp": 1 }] }
            ]
        }),
    );
    assert!(!r
        .modifiers
        .iter()
        .any(|m| m.label.contains("charge factor")));
    assert!(has_note(&r, "Forest", Some("R-MED-18")));
}

#[test]
fn a_counter_with_other_armour_scatters_on_its_armours_column() {
    // R-MED-22: light infantry with armour 2 scatters as heavy infantry does.
    let fight = |unit: Value| {
        resolved(
            "combat",
            json!({
                "attackers": [{ "units": [{ "type": "retainers", "sp": 2 }] }],
                "defenders": [{ "terrain": "clear", "units": [unit] }],
                "column": "9:1"
            }),
        )
    };
    let armoured = fight(json!({ "type": "light_infantry", "sp": 2, "armour": 2 }));
    let heavy = fight(json!({ "type": "heavy_infantry", "sp": 2 }));
    let light = fight(json!({ "type": "light_infantry", "sp": 2 }));
    let scattered = |r: &crate::Resolution| chance(r, "The defender is scattered");
    assert_eq!(scattered(&armoured), scattered(&heavy));
    assert_ne!(scattered(&armoured), scattered(&light));
    assert!(has_note(&armoured, "armour 2", Some("R-MED-22")));
    assert!(!has_note(&heavy, "armour 2", Some("R-MED-22")));
}

#[test]
fn a_leader_on_one_hex_keeps_only_that_hex_from_scattering() {
    // 9.1.3, 8.2.4 by hex; the table read on the 1:4 column the umpire names: 12 is A4-1R.
    let situation = |leader_on_a: bool, side_stacked: bool| {
        json!({
            "attackers": [
                { "label": "A", "leader": leader_on_a, "units": [{ "type": "retainers", "sp": 1 }] },
                { "label": "B", "units": [{ "type": "retainers", "sp": 1 }] }
            ],
            "defenders": [{ "terrain": "clear", "units": [{ "type": "retainers", "sp": 2 }] }],
            "attacker": { "leader": if side_stacked { "stacked" } else { "none" } },
            "column": "1:4"
        })
    };
    let scattered = |r: &crate::Resolution| {
        r.outcome
            .as_ref()
            .unwrap()
            .effects
            .iter()
            .filter(|e| e.change == crate::contract::Change::Scatter)
            .map(|e| e.target.clone())
            .collect::<Vec<_>>()
    };
    // A4-1R makes the attacker retreat: the leader's death 2d6 follows the table's (8.2.4).
    assert!(with_dice("combat", situation(true, false), &[6, 6])
        .outcome
        .is_none());
    let by_hex = with_dice("combat", situation(true, false), &[6, 6, 6, 6]);
    assert_eq!(by_hex.outcome.as_ref().unwrap().result, "A4-1R");
    assert_eq!(
        scattered(&by_hex),
        vec![crate::contract::Target::Hex("B".into())]
    );
    assert_ne!(chance(&by_hex, "The attacker is scattered"), "0/1");
    chance(&by_hex, "The attacker's leader dies on his death 2d6");
    // A leader stacked with the whole side: nobody scatters, in the forecast and the effects.
    let side = with_dice("combat", situation(false, true), &[6, 6, 6, 6]);
    assert!(scattered(&side).is_empty());
    assert_eq!(chance(&side, "The attacker is scattered"), "0/1");
    // Nobody with a leader: the side scatters.
    let none = with_dice("combat", situation(false, false), &[6, 6]);
    assert_eq!(scattered(&none), vec![crate::contract::Target::Attacker]);
}

#[test]
fn the_umpires_own_count_and_column() {
    let base = json!({
        "attackers": [{ "units": [{ "type": "heavy_cavalry", "sp": 2, "cf": 2 }] }],
        "defenders": [{ "terrain": "clear", "units": [{ "type": "retainers", "sp": 2 }] }],
        "attacker": { "cms": 1 }
    });
    let r = resolved("combat", base.clone());
    let attacker: Vec<_> = r.modifiers.iter().filter(|m| m.value > 0).collect();
    assert_eq!(attacker.len(), 1);
    assert_eq!(attacker[0].value, 1);
    // The referee's own count: armour 2 + CF 2 (capped at 3) = 4.
    assert!(has_note(&r, "the referee counts 4", None));
    assert_eq!(
        crate::systems::test_support::total(&r, "Final combat ratio"),
        "+0 → 2:1"
    );
    let mut bad = base;
    bad["column"] = json!("10:1");
    assert_eq!(refused("combat", bad).code, "situation.unknown_column");
}

#[test]
fn an_attack_on_fortifications_from_outside_is_through_them() {
    // 11.1.1: entered once, by the defender's terrain: 4 SPs attack with 2.
    let r = resolved(
        "combat",
        json!({
            "attackers": [
                { "units": [{ "type": "retainers", "sp": 2 }] },
                { "units": [{ "type": "retainers", "sp": 2 }] }
            ],
            "defenders": [{ "terrain": "fortifications", "units": [{ "type": "retainers", "sp": 2 }] }]
        }),
    );
    assert_eq!(crate::systems::test_support::total(&r, "Attacker SPs"), "2");
}

#[test]
fn formations_and_strengths_as_the_counters_stand() {
    let combat = |unit: Value| {
        json!({
            "attackers": [{ "units": [{ "type": "retainers", "sp": 2 }] }],
            "defenders": [{ "terrain": "clear", "units": [unit] }]
        })
    };
    // 10.5.1: horse archers have no movement side.
    let e = refused(
        "combat",
        combat(json!({ "type": "horse_archers", "sp": 2, "movement_formation": true })),
    );
    assert_eq!(e.code, "situation.invalid_formation");
    assert_eq!(e.rule.as_deref(), Some("10.5.1"));
    // 10.1.1: archers on their movement side as the counter shows them, SP 0: alone, 1 SP.
    let r = resolved(
        "combat",
        combat(json!({ "type": "archers", "sp": 0, "movement_formation": true })),
    );
    assert_eq!(crate::systems::test_support::total(&r, "Defender SPs"), "1");
    // Regroup with 0 SPs is refused like everywhere else.
    let e = refused(
        "regroup",
        json!({ "sp": 0, "leader_alive": true, "grand_leader_alive": true }),
    );
    assert_eq!(e.code, "situation.invalid_strength");
    // 9.1.7 carries its ruling.
    let r = resolved(
        "regroup",
        json!({ "sp": 2, "leader_alive": false, "grand_leader_alive": true }),
    );
    assert!(has_note(&r, "grand leader", Some("R-MED-23")));
}

#[test]
fn movement_surcharges_of_the_ruleset() {
    let spent =
        |r: &crate::Resolution| crate::systems::test_support::total(r, "Movement points spent");
    let cf =
        |r: &crate::Resolution| crate::systems::test_support::total(r, "Charge factor at the end");
    // 5.6.13, R-MED-26: +2 MPs, CF 2 → 1 instead of 3.
    let r = resolved(
        "move_cost",
        json!({ "unit": { "type": "cavalry", "sp": 2, "cf": 2 }, "movement": 8,
                "path": [{ "terrain": "clear", "lower_cf": true }] }),
    );
    assert_eq!((spent(&r), cf(&r)), ("3 of 8".to_string(), "1".to_string()));
    // 4.4.2: leaving the map, 1 MP; 7.1.4: passing a banner, 1 MP.
    let r = resolved(
        "move_cost",
        json!({ "unit": { "type": "retainers", "sp": 2 }, "movement": 6,
                "path": [{ "terrain": "clear", "pass_banner": true }], "leave_map": true }),
    );
    assert_eq!(spent(&r), "3 of 6");
    let e = refused(
        "move_cost",
        json!({ "unit": { "type": "retainers", "sp": 2 }, "movement": 1,
                "path": [{ "terrain": "clear" }], "leave_map": true }),
    );
    assert_eq!(e.code, "situation.out_of_movement");
    // 10.5.8: horse archers shoot for 1 MP, once (10.5.7); nobody else shoots in own movement.
    let r = resolved(
        "move_cost",
        json!({ "unit": { "type": "horse_archers", "sp": 2 }, "movement": 8,
                "path": [{ "terrain": "clear" }, { "terrain": "clear", "fire": true }] }),
    );
    assert_eq!(spent(&r), "3 of 8");
    let twice = json!({ "unit": { "type": "horse_archers", "sp": 2 }, "movement": 8,
        "path": [{ "terrain": "clear", "fire": true }, { "terrain": "clear", "fire": true }] });
    assert_eq!(refused("move_cost", twice).rule.as_deref(), Some("10.5.7"));
    let archers = json!({ "unit": { "type": "archers", "sp": 2 }, "movement": 8,
        "path": [{ "terrain": "clear", "fire": true }] });
    assert_eq!(refused("move_cost", archers).code, "situation.invalid_move");
    // 4.2.5–4.2.6, R-MED-27: charging into a ford costs an SP and a scatter; held at CF 0 it
    // crosses and stays at 0.
    let r = resolved(
        "move_cost",
        json!({ "unit": { "type": "cavalry", "sp": 2, "cf": 2 }, "movement": 8,
                "path": [{ "terrain": "stream", "ford": true }] }),
    );
    assert_eq!(r.outcome.as_ref().unwrap().result, "scattered");
    let r = resolved(
        "move_cost",
        json!({ "unit": { "type": "cavalry", "sp": 2 }, "movement": 8,
                "path": [{ "terrain": "stream", "ford": true, "hold_cf": true }, { "terrain": "clear" }] }),
    );
    assert_eq!(cf(&r), "1");
    assert!(has_note(&r, "ford", Some("R-MED-27")));
}

#[test]
fn turning_in_an_enemy_zoc_costs_one_more_once() {
    let r = resolved(
        "turn_cost",
        json!({ "unit": { "type": "retainers", "sp": 2 }, "hexsides": 1, "in_enemy_zoc": true }),
    );
    let zoc = r
        .totals
        .iter()
        .find(|t| t.label.starts_with("In an enemy ZoC"))
        .unwrap();
    assert_eq!(
        (zoc.value.as_str(), zoc.ruling.as_deref()),
        ("+1", Some("R-MED-25"))
    );
    assert_eq!(r.outcome.as_ref().unwrap().result, "mp_sixths_12");
    assert_eq!(r.shown.names["mp_sixths_12"], "2 MP");
}

#[test]
fn shots_a_turn_and_the_phase_they_are_fired_in() {
    let fire = |shooter: &str, extra: Value| {
        let mut s = json!({
            "shooter": { "type": shooter, "sp": 2 },
            "range": 1,
            "target": { "terrain": "clear", "units": [{ "type": "retainers", "sp": 2 }] }
        });
        for (k, v) in extra.as_object().unwrap() {
            s[k] = v.clone();
        }
        s
    };
    // 10.1.6: once a turn.
    let e = refused("fire", fire("archers", json!({ "shots_this_turn": 1 })));
    assert_eq!(
        (e.code.as_str(), e.rule.as_deref()),
        ("situation.no_shot_left", Some("10.1.6"))
    );
    // 10.1.5: foot shoot in the enemy's movement phase only.
    let e = refused(
        "fire",
        fire("crossbowmen", json!({ "phase": "own_movement" })),
    );
    assert_eq!(e.code, "situation.no_shot_left");
    // 10.5.6–10.5.7: horse archers twice, once a phase.
    let r = resolved(
        "fire",
        fire(
            "horse_archers",
            json!({ "phase": "own_movement", "shots_this_turn": 1 }),
        ),
    );
    assert!(has_note(&r, "1 MP", None));
    let e = refused(
        "fire",
        fire("horse_archers", json!({ "shots_this_turn": 2 })),
    );
    assert_eq!(e.rule.as_deref(), Some("10.5.6"));
    let e = refused(
        "fire",
        fire("horse_archers", json!({ "shot_this_phase": true })),
    );
    assert_eq!(e.rule.as_deref(), Some("10.5.7"));
    // 10.2.6 said where it applies.
    let r = resolved("fire", fire("archers", json!({ "concurrent": true })));
    assert!(has_note(&r, "losses are set after both have shot", None));
}

#[test]
fn a_pursuits_hexes_keep_the_stacking_limit_and_ride_down_by_the_rules() {
    let pursue = |path: Value| {
        resolved(
            "pursuit",
            json!({
                "hexes_from_leader": 2,
                "pursuer": { "type": "light_cavalry", "sp": 2, "cf": 3 },
                "path": path
            }),
        )
    };
    let status = |r: &Resolution, starts: &str| {
        r.checks
            .iter()
            .find(|c| c.label.starts_with(starts))
            .map(|c| c.status)
            .unwrap_or_else(|| panic!("no check {starts} in {:?}", r.checks))
    };
    let ridden = |r: &Resolution| -> Vec<String> {
        r.distribution[0]
            .effects
            .iter()
            .filter(|e| e.change == Change::DestroyAll)
            .map(|e| match &e.target {
                Target::Hex(h) => h.clone(),
                other => panic!("ride-down on {other:?}"),
            })
            .collect()
    };
    use crate::contract::CheckStatus::{Met, NotMet};
    // 5.8.7: entering is enough, armour or not (heavy infantry, 1 + 0 − 2 ≤ 0 in movement).
    let r = pursue(json!([
        { "label": "first", "enemy": [{ "type": "retainers", "sp": 1 }] },
        { "label": "second", "enemy": [{ "type": "heavy_infantry", "sp": 1 }] },
        { "label": "third", "friendly": [{ "type": "heavy_infantry", "sp": 1 }] }
    ]));
    assert_eq!(status(&r, "First"), Met);
    assert_eq!(status(&r, "Second"), Met);
    // 4.5.2: 3 SPs would overfill the hex; the cavalry rides its own infantry down to enter.
    assert_eq!(status(&r, "Third"), Met);
    assert_eq!(ridden(&r), ["first", "second", "third"]);
    assert_eq!(r.distribution[0].effects, r.distribution[1].effects);
    // Untyped friendly SPs cannot be ridden down: the pursuit stops before that hex.
    let r = pursue(json!([
        { "label": "first", "friendly_sp": 1 },
        { "label": "second", "enemy": [{ "type": "retainers", "sp": 1 }] }
    ]));
    assert_eq!(status(&r, "First"), NotMet);
    assert!(ridden(&r).is_empty());
    assert!(r.checks.iter().all(|c| !c.label.starts_with("Second")));
    // 5.8.8: a shiltron, or infantry in a village, stops the pursuit; enemy cavalry too.
    for hex in [
        json!({ "enemy": [{ "type": "heavy_infantry", "sp": 1 }], "special_formation": true }),
        json!({ "enemy": [{ "type": "heavy_infantry", "sp": 1 }], "terrain": "village" }),
        json!({ "enemy": [{ "type": "light_cavalry", "sp": 1 }] }),
        json!({ "friendly": [{ "type": "heavy_infantry", "sp": 1 }], "special_formation": true }),
    ] {
        let r = pursue(json!([hex, { "enemy": [{ "type": "retainers", "sp": 1 }] }]));
        assert_eq!(status(&r, "Pursuit hex 1"), NotMet, "{hex}");
        assert!(ridden(&r).is_empty(), "{hex}");
    }
    // 11.1.5: out of the defender's fortified hex the pursuit goes no further: the unit beyond
    // is not ridden down.
    let r = pursue(json!([
        { "label": "gatehouse", "terrain": "fortifications" },
        { "label": "yard", "enemy": [{ "type": "retainers", "sp": 1 }] }
    ]));
    assert!(ridden(&r).is_empty());
    assert!(r.checks.iter().all(|c| !c.label.starts_with("Yard")));
    // R-MED-45: it ends in the gatehouse.
    assert!(r
        .distribution
        .iter()
        .all(|d| d.effects.iter().any(|e| e.change
            == Change::EntersHex {
                hex: "gatehouse".into()
            })));
    assert!(r.notes.iter().any(|n| n.rule == "11.1.5"));
    // …nor into a fortified hex the defender did not hold.
    let r =
        pursue(json!([{ "label": "field" }, { "label": "tower", "terrain": "fortifications" }]));
    assert_eq!(status(&r, "Tower"), NotMet);
    // 11.1.9: 2 SPs of pursuing cavalry with 1 of friendly cavalry: too many in a fortified hex.
    let r = pursue(json!([
        { "label": "gatehouse", "terrain": "fortifications", "friendly": [{ "type": "light_cavalry", "sp": 1 }] }
    ]));
    let check = r
        .checks
        .iter()
        .find(|c| c.label.starts_with("Gatehouse"))
        .unwrap();
    assert_eq!((check.status, check.rule.as_str()), (NotMet, "11.1.9"));
    // 4.2.6 is not applied to a pursuit (R-MED-39): into forest with CF 3, no loss, no scatter.
    // It only ends there (R-MED-45).
    let r = pursue(json!([{ "label": "wood", "terrain": "forest" }]));
    let ends_in_wood = [Change::EntersHex { hex: "wood".into() }];
    assert!(r.distribution.iter().all(|d| d
        .effects
        .iter()
        .map(|e| e.change.clone())
        .eq(ends_in_wood.clone())));
    assert!(r
        .notes
        .iter()
        .any(|n| n.ruling.as_deref() == Some("R-MED-39")));
    // Infantry pursuing rides nothing down.
    let r = resolved(
        "pursuit",
        json!({
            "hexes_from_leader": 2,
            "pursuer": { "type": "retainers", "sp": 1 },
            "path": [{ "enemy": [{ "type": "retainers", "sp": 1 }] }]
        }),
    );
    assert_eq!(status(&r, "Pursuit hex 1"), NotMet);
    assert!(ridden(&r).is_empty());
    let e = refused(
        "pursuit",
        json!({ "hexes_from_leader": 2, "path": [{ "friendly_sp": 1 }] }),
    );
    assert_eq!(e.field.as_deref(), Some("pursuer"));
}

#[test]
fn a_leader_moves_like_cavalry_through_zocs_and_stacks() {
    // 8.1.2–8.1.3: forest 1 + 3, then a clear hex in an enemy ZoC and one beyond, a full friendly
    // hex on the way: 4 + 1 + 1 = 6 of his 10 MPs, no stop, no SP lost, no scatter.
    let r = resolved(
        "move_cost",
        json!({
            "leader": true,
            "path": [
                { "terrain": "forest" },
                { "terrain": "clear", "enemy_zoc_cf": 0, "friendly_sp": 2 },
                { "terrain": "clear" }
            ]
        }),
    );
    assert_eq!(
        crate::systems::test_support::total(&r, "Movement points spent"),
        "6 of 10"
    );
    assert_eq!(r.outcome.as_ref().unwrap().result, "moves");
    let e = refused(
        "move_cost",
        json!({ "leader": true, "unit": { "type": "retainers", "sp": 1 }, "path": [{ "terrain": "clear" }] }),
    );
    assert_eq!(e.rule.as_deref(), Some("8.1.1"));
    let e = refused(
        "move_cost",
        json!({ "unit": { "type": "retainers", "sp": 1 }, "path": [{ "terrain": "clear" }] }),
    );
    assert_eq!(e.field.as_deref(), Some("movement"));
}

#[test]
fn a_stacked_leader_left_alone_is_forecast() {
    // 8.2.6–8.2.8: 1 SP of retainers with a leader, attacked at 9:1: eliminated on every roll
    // that costs it an SP; the leader lives (2d6 − 1 > retreat) on some of them.
    let r = resolved(
        "combat",
        json!({
            "attackers": [{ "units": [{ "type": "retainers", "sp": 2 }] }],
            "defenders": [{ "terrain": "clear", "leader": true, "units": [{ "type": "retainers", "sp": 1 }] }],
            "column": "9:1"
        }),
    );
    let alone = chance(
        &r,
        "The defender's leader lives but is left alone (killed if an enemy enters his hex)",
    );
    assert_ne!(alone, "0/1");
    assert!(has_note(&r, "retreats on his own", None));
}

#[test]
fn a_morale_beyond_the_track_is_refused() {
    use crate::ruleset::{Layers, SourceFile};
    // The text prints no track length: the ruleset's runs from −20 to +20 (R-MED-30).
    resolved("pursuit", json!({ "hexes_from_leader": 1, "morale": 20 }));
    let beyond = json!({
        "attackers": [{ "units": [{ "type": "retainers", "sp": 2 }] }],
        "defenders": [{ "terrain": "clear", "units": [{ "type": "retainers", "sp": 2 }] }],
        "morale": 21
    });
    let e = medieval().resolve("combat", &beyond, None).unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.ruling.as_deref()),
        ("situation.off_the_track", Some("R-MED-30"))
    );
    assert!(e.message.contains("from -20 to +20"), "{}", e.message);
    // A scenario's own track, by a house rule.
    let house = "extends = \"medieval\"\nname = \"Track of 15\"\n[set.morale]\ntrack_ends = 15\n";
    let ruleset = Ruleset::load(&Layers {
        base: crate::systems::builtin("medieval").unwrap(),
        house_rules: vec![SourceFile {
            name: "track.toml",
            text: house,
        }],
    })
    .unwrap();
    let combat = json!({
        "attackers": [{ "units": [{ "type": "retainers", "sp": 2 }] }],
        "defenders": [{ "terrain": "clear", "units": [{ "type": "retainers", "sp": 2 }] }],
        "morale": -16
    });
    let e = ruleset.resolve("combat", &combat, None).unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.field.as_deref()),
        ("situation.off_the_track", Some("morale"))
    );
    // Events carry the counter to the last box and no further, and say so.
    let r = ruleset
        .resolve(
            "morale",
            &json!({ "track": 10, "events": [{ "kind": "leader_death", "to": "a" }] }),
            None,
        )
        .unwrap();
    assert_eq!(r.outcome.as_ref().unwrap().result, "+15");
}

#[test]
fn entering_a_slope_is_climbing_it_entered_once() {
    // R-MED-16 in movement: a slope hex takes the CF down whether or not uphill is ticked too.
    let cf = |step: Value| {
        let r = resolved(
            "move_cost",
            json!({ "unit": { "type": "cavalry", "sp": 2, "cf": 2 }, "movement": 8, "path": [step] }),
        );
        crate::systems::test_support::total(&r, "Charge factor at the end")
    };
    assert_eq!(cf(json!({ "terrain": "slope" })), "2");
    assert_eq!(cf(json!({ "terrain": "slope", "uphill": true })), "2");
    assert_eq!(cf(json!({ "terrain": "clear" })), "3");
}

#[test]
fn each_defending_hex_retreats_as_its_own_stack() {
    // 4.5.2, R-MED-28: two defending hexes of 2 SPs each retreat through an empty hex without
    // exceeding the stacking limit; 1 SP of friends there blocks a 2-SP stack.
    let blocked_by_stacking = |friendly: Value| {
        let r = resolved(
            "combat",
            json!({
                "attackers": [{ "units": [{ "type": "heavy_cavalry", "sp": 2 }] }],
                "defenders": [
                    { "terrain": "clear", "units": [{ "type": "retainers", "sp": 2 }] },
                    { "terrain": "clear", "units": [{ "type": "retainers", "sp": 2 }] }
                ],
                "defender": { "retreat_hexes": [{ "friendly": friendly }] },
                "morale": 10
            }),
        );
        r.distribution
            .iter()
            .flat_map(|d| &d.effects)
            .any(|e| e.rule.ends_with("4.5.2"))
    };
    assert!(!blocked_by_stacking(json!([])));
    assert!(blocked_by_stacking(
        json!([{ "type": "heavy_infantry", "sp": 1 }])
    ));
}

#[test]
fn a_fortified_hex_takes_two_sps_of_cavalry_in_a_retreat() {
    // 11.1.9, 4.5.2: a 2-SP cavalry stack retreating into a fortified hex that holds 1 SP of
    // friendly cavalry stops before it, though the hex holds 10 SPs; 1 SP of infantry there
    // (protected, 5.8.8, not ridden down) leaves room.
    let stop_rule = |friendly: Value| {
        let r = resolved(
            "combat",
            json!({
                "attackers": [{ "units": [{ "type": "heavy_cavalry", "sp": 2 }] }],
                "defenders": [{ "terrain": "clear", "units": [{ "type": "light_cavalry", "sp": 2 }] }],
                "defender": { "retreat_hexes": [{ "terrain": "fortifications", "friendly": friendly }] },
                "morale": 10
            }),
        );
        r.distribution
            .iter()
            .flat_map(|d| &d.effects)
            .find(|e| e.rule.starts_with("5.4.6, "))
            .map(|e| e.rule.clone())
    };
    assert_eq!(
        stop_rule(json!([{ "type": "light_cavalry", "sp": 1 }])).as_deref(),
        Some("5.4.6, 11.1.9")
    );
    assert_eq!(
        stop_rule(json!([{ "type": "heavy_infantry", "sp": 1 }])),
        None
    );
}

#[test]
fn an_attack_from_one_fortified_hex_into_another_is_not_through_them() {
    // R-MED-37: the attackers keep their SPs, unless the umpire says a wall lies between.
    let attack = |through: bool| {
        let r = resolved(
            "combat",
            json!({
                "attackers": [{ "terrain": "fortifications", "through_fortifications": through,
                                "units": [{ "type": "retainers", "sp": 2 }] }],
                "defenders": [{ "terrain": "fortifications", "units": [{ "type": "retainers", "sp": 2 }] }]
            }),
        );
        r.totals
            .iter()
            .find(|t| t.label == "Attacker SPs")
            .map(|t| t.value.clone())
            .unwrap()
    };
    assert_eq!(attack(false), "2");
    assert_eq!(attack(true), "1"); // 11.1.1
}

#[test]
fn an_unarmoured_unit_countercharged_gets_nothing_from_its_cf() {
    // 5.7.9, R-MED-38: in the countercharge fight the unarmoured light cavalry countercharged
    // loses the CM of its CF too; in another fight it keeps it.
    let charge_cm = |countercharge: bool| {
        let r = resolved(
            "combat",
            json!({
                "attackers": [{ "units": [{ "type": "heavy_cavalry", "sp": 2, "cf": 1 }] }],
                "defenders": [{ "terrain": "clear", "units": [{ "type": "light_cavalry", "sp": 2, "cf": 2 }] }],
                "countercharge": countercharge
            }),
        );
        r.modifiers
            .iter()
            .any(|m| m.label.starts_with("Defender: charge factor"))
    };
    assert!(charge_cm(false));
    assert!(!charge_cm(true));
}

#[test]
fn a_return_near_the_first_column_names_the_hexes_the_map_has() {
    // 4.4.4: cavalry leaving by hex 200 may come back 6 hexes either way, but the map starts at
    // column 1: 100 to 800, not 0 to 800.
    let hexes = |hex: u32| {
        resolved(
            "map_return",
            json!({ "left_turn": 2, "cavalry": true, "departure_hex": hex }),
        )
        .totals
        .iter()
        .find(|t| t.label == "Return hexes")
        .map(|t| t.value.clone())
        .unwrap()
    };
    assert_eq!(hexes(200), "100 to 800 inclusive");
    assert_eq!(hexes(205), "105 to 805 inclusive");
    assert_eq!(hexes(2300), "1700 to 2900 inclusive");
    let e = refused(
        "map_return",
        json!({ "left_turn": 2, "cavalry": true, "departure_hex": 20 }),
    );
    assert_eq!(e.field.as_deref(), Some("departure_hex"));
}

#[test]
fn the_roster_says_what_is_wrong_with_a_unit_when_it_is_added() {
    let r = medieval();
    let unit = |stats: Value| crate::state::UnitSpec {
        label: "New unit".into(),
        side: "Order".into(),
        command: None,
        role: crate::state::Role::Unit,
        stats,
    };
    // 4.5.1: a counter of 3 SPs is over a hex's stacking limit: every combat would refuse it.
    // The form's bound says so first, in the words the app says beside the field.
    let e = r
        .check_new_unit(&unit(json!({ "type": "heavy_cavalry", "sp": 3 })), "unit")
        .unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.field.as_deref(), e.rule.as_deref()),
        (
            "unit.invalid",
            Some("unit.stats.sp"),
            Some("1.2, 1.3, 4.5.1")
        )
    );
    assert_eq!(
        e.message,
        "Strength points (SP) must be a whole number from 1 to 2."
    );
    assert!(r
        .check_new_unit(&unit(json!({ "type": "heavy_cavalry", "sp": 2 })), "unit")
        .is_ok());
    // The type names the refusal lists are names the umpire can type (1.1).
    let e = refused(
        "combat",
        json!({
            "attackers": [{ "units": [{ "type": "knights", "sp": 2 }] }],
            "defenders": [{ "terrain": "clear", "units": [{ "type": "retainers", "sp": 2 }] }]
        }),
    );
    assert!(e.message.contains("heavy cavalry"), "{}", e.message);
    let battle = crate::battle::Battle::create_with_units(
        &r,
        serde_json::from_value(json!({
            "name": "Typed in words", "ruleset": "medieval", "fingerprint": r.info.fingerprint,
            "sides": [{ "name": "Order" }, { "name": "Lithuania" }]
        }))
        .unwrap(),
        &[
            unit(json!({ "type": "heavy cavalry", "sp": 2 })),
            unit(json!({ "type": "Light Cavalry", "sp": 1 })),
        ],
        "2026-01-01T00:00:00Z",
    )
    .unwrap();
    let types: Vec<String> = battle
        .state
        .units
        .values()
        .map(|u| r.system.words(u).type_name)
        .collect();
    assert_eq!(types, ["Heavy cavalry", "Light cavalry"]);
}

#[test]
fn horse_archers_losses_ask_the_scatter_die_on_the_d1_row() {
    // 10.5.10: the D1/A1 row scatters the "other" column on a 1 and never heavy infantry.
    let at = |target: &str, dice: &[u32]| {
        with_dice(
            "fire",
            json!({
                "shooter": { "type": "horse_archers", "sp": 2 },
                "range": 1,
                "target": { "terrain": "clear", "units": [{ "type": target, "sp": 2 }] }
            }),
            dice,
        )
    };
    let waiting = at("archers", &[5, 5]);
    assert!(waiting.outcome.is_none(), "a loss calls for the scatter d6");
    assert_eq!(waiting.shown.faces.len(), 3);
    assert_eq!(waiting.shown.faces[2].label.as_deref(), Some("Archers"));
    let scatters = |r: &crate::Resolution| {
        r.outcome
            .as_ref()
            .unwrap()
            .effects
            .iter()
            .any(|e| e.change == Change::Scatter && e.rule == "10.5.10")
    };
    assert!(scatters(&at("archers", &[5, 5, 1])));
    assert!(!scatters(&at("archers", &[5, 5, 2])));
    // No face could scatter heavy infantry on that row: no die is asked.
    let hi = at("heavy_infantry", &[5, 5]);
    assert!(hi.outcome.is_some() && hi.shown.faces.len() == 2);
    // No loss, no die (10.5.10 speaks of losses).
    assert!(at("archers", &[1, 1]).outcome.is_some());
}

#[test]
fn a_full_scattered_units_track_turns_the_scatter_die_into_elimination() {
    // 9.1.4, 9.1.5: the 5.1.1 combat, the defender's track full: a scatter d6 of 2 eliminates
    // the light cavalry, without a MORALE effect of its own.
    let s = json!({
        "attackers": [
            { "stream": true, "units": [{ "type": "heavy_cavalry", "sp": 2, "cf": 2 }] },
            { "stream": true, "units": [{ "type": "cavalry", "sp": 2, "cf": 3 }] }
        ],
        "defenders": [{ "terrain": "stream", "units": [{ "type": "light_cavalry", "sp": 2, "cf": 1 }] }],
        "defender": { "scatter_track_full": true }
    });
    let r = with_dice("combat", s.clone(), &[1, 3, 2]);
    let effects = &r.outcome.as_ref().unwrap().effects;
    let last = effects.last().unwrap();
    assert_eq!(
        (&last.target, &last.change, last.rule.as_str()),
        (&Target::Defender, &Change::DestroyAll, "9.1.4, 9.1.5")
    );
    assert!(!effects.iter().any(|e| e.change == Change::Scatter));
    let kept = with_dice("combat", s, &[1, 3, 3]);
    assert!(!kept
        .outcome
        .unwrap()
        .effects
        .iter()
        .any(|e| e.change == Change::DestroyAll));
}

#[test]
fn the_scatter_die_is_read_for_the_hexes_without_the_leader() {
    // 9.1.3: the leader stands on hex A; the d6 is thrown for hex B alone, and scatters it.
    let s = json!({
        "attackers": [{ "units": [{ "type": "heavy_cavalry", "sp": 2, "cf": 2 }] }],
        "defenders": [
            { "label": "A", "terrain": "clear", "leader": true, "units": [{ "type": "light_cavalry", "sp": 1 }] },
            { "label": "B", "terrain": "clear", "units": [{ "type": "light_cavalry", "sp": 1 }] }
        ],
        "column": "4:1"
    });
    // 4:1, a roll of 6: D2. Then B's scatter d6 and the leader's death 2d6 (8.2.4), unnamed.
    let asked = with_dice("combat", s.clone(), &[3, 3]);
    assert_eq!(asked.shown.faces.len(), 5);
    assert_eq!(asked.shown.faces[2].label.as_deref(), Some("B"));
    assert_eq!(
        asked.shown.faces[2].thrower,
        Some(crate::rule_system::Thrower::B)
    );
    let death: Vec<_> = asked.shown.faces[3..]
        .iter()
        .map(|d| (d.label.as_deref(), d.purpose.as_deref()))
        .collect();
    assert_eq!(death, [(Some("defending leader"), Some("leader death")); 2]);
    let r = with_dice("combat", s, &[3, 3, 1, 6, 6]);
    let o = r.outcome.as_ref().unwrap();
    assert!(
        o.meaning
            .contains("defending leader lives and retreats on his own"),
        "{}",
        o.meaning
    );
    assert!(o
        .effects
        .iter()
        .any(|e| e.target == Target::Unit("defending leader".into())
            && e.change == Change::Retreat { hexes: 2 }));
    let scattered: Vec<_> = r
        .outcome
        .unwrap()
        .effects
        .into_iter()
        .filter(|e| e.change == Change::Scatter)
        .map(|e| e.target)
        .collect();
    assert_eq!(scattered, vec![Target::Hex("B".into())]);
}

#[test]
fn fatigue_above_12_asks_a_scatter_die_for_each_unit_by_name() {
    // 13.2.1: "For each unit under command of a leader with fatigue level above 12 one dice (D6)
    // roll is made. Result below 4 means that unit becomes scattered."
    let s =
        json!({ "level": 12, "active": true, "units": 2, "unit_labels": ["Knights", "Sergeants"] });
    let waiting = medieval().resolve("fatigue", &s, None).unwrap();
    assert!(waiting.outcome.is_none());
    let names: Vec<_> = waiting
        .shown
        .faces
        .iter()
        .map(|d| (d.label.clone().unwrap(), d.purpose.clone().unwrap()))
        .collect();
    assert_eq!(
        names,
        vec![
            ("Knights".to_string(), "fatigue scatter".to_string()),
            ("Sergeants".to_string(), "fatigue scatter".to_string())
        ]
    );
    let r = with_dice("fatigue", s.clone(), &[3, 4]);
    let o = r.outcome.unwrap();
    assert_eq!(o.result, "fatigue_13");
    let scattered: Vec<_> = o
        .effects
        .iter()
        .filter(|e| e.change == Change::Scatter && e.rule.contains("13.2.1"))
        .map(|e| e.target.clone())
        .collect();
    assert_eq!(
        scattered,
        vec![Target::Unit("Knights".into())],
        "3 scatters, 4 does not"
    );
    // At 12 or below no die is asked, and the level is the outcome.
    let rested = medieval()
        .resolve("fatigue", &json!({ "level": 11, "units": 2 }), None)
        .unwrap();
    assert!(rested.shown.faces.is_empty() && rested.outcome.is_some());
    let e = medieval()
        .resolve(
            "fatigue",
            &json!({ "level": 12, "active": true, "units": 3, "unit_labels": ["A"] }),
            None,
        )
        .unwrap_err();
    assert_eq!(e.field.as_deref(), Some("unit_labels"));
}
