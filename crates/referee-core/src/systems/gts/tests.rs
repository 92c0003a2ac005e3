//! GTS mechanics against hand-counted odds and the text's numbers.

use serde_json::{json, Value};

use crate::systems::test_support::{chance, load, odds, total as value};

fn resolved(action: &str, situation: Value) -> crate::Resolution {
    load("gts")
        .resolve(action, &situation, None)
        .unwrap_or_else(|e| panic!("{action}: {}", e.one_line()))
}

fn refused(action: &str, situation: Value) -> crate::RefereeError {
    load("gts").resolve(action, &situation, None).unwrap_err()
}

fn spartans() -> Value {
    json!({ "class": "infantry", "morale": "C", "training": "P", "armour": "H", "weapon": "SP",
            "order": "CO", "stands": 4 })
}

fn persian_horse() -> Value {
    json!({ "class": "cavalry", "armour": "N", "weapon": "BW", "stands": 3 })
}

#[test]
fn the_builder_adds_every_row_of_table_2_10() {
    // Response 4 + 2 (C) + 1 (P) = 7; quality C two grades better = A; melee −1 + 1 + 1 + 1 + 0
    // + 1 = 3; recoil 20 + 6 + 6 + 6 + 2 + 6 + 15 (A) = 61; move 6 + 1 − 1 − 1 = 5".
    let r = resolved("unit", spartans());
    assert_eq!(value(&r, "Response"), "7");
    assert_eq!(value(&r, "Quality"), "A");
    assert_eq!(value(&r, "Melee"), "+3");
    assert_eq!(value(&r, "Recoil number"), "61");
    assert_eq!(value(&r, "Move"), "5\"");
    assert_eq!(value(&r, "Fire defence"), "+0");
    assert_eq!(value(&r, "Hits per stand"), "5");
    assert_eq!(value(&r, "Weapon class"), "d");
    assert_eq!(value(&r, "Terminal rout trigger"), "2-3"); // A, 4 stands
    assert!(r.totals[0].label.contains("Confident (C) +2"));
    let r = resolved("unit", persian_horse());
    assert_eq!(value(&r, "Move"), "15\"");
    assert_eq!(value(&r, "Melee"), "-4");
    assert_eq!(value(&r, "Recoil number"), "25");
    assert_eq!(value(&r, "Fire range"), "1.5\" / 3\" / 5\"");
}

#[test]
fn the_tag_overrides_and_bad_units_are_refused() {
    let mut u = spartans();
    u["tag"] = json!({ "response": 9, "quality": "B" });
    let r = resolved("unit", u);
    assert_eq!(value(&r, "Response"), "9");
    assert_eq!(value(&r, "Recoil number"), "55"); // quality B: +9 instead of +15
    let mut u = spartans();
    u["stands"] = json!(0);
    assert_eq!(refused("unit", u).code, "situation.no_stands");
    let mut u = spartans();
    u["hits"] = json!(5);
    assert_eq!(refused("unit", u).code, "situation.too_many_hits");
    let mut u = spartans();
    u["tag"] = json!({ "quality": "F" });
    assert_eq!(refused("unit", u).code, "situation.invalid_quality");
    let mut u = spartans();
    u["weapon"] = json!("katana");
    assert_eq!(refused("unit", u).code, "situation.unknown_rating");
    let mut u = spartans();
    u["morale"] = json!("P");
    assert_eq!(refused("unit", u).field.as_deref(), Some("morale"));
}

#[test]
fn the_2_14_example_armour_gap_and_weapon_length() {
    // Persian unarmoured cavalry with bows v Greek medium cavalry with lances: Persians −2,
    // Greeks +1.
    let r = resolved(
        "melee",
        json!({
            "side_a": [{ "unit": persian_horse() }],
            "side_b": [{ "unit": { "class": "cavalry", "armour": "M", "weapon": "LN", "stands": 3 } }]
        }),
    );
    assert!(r
        .modifiers
        .iter()
        .any(|m| m.label.ends_with(": 2 armour levels less") && m.value == -2));
    assert!(r
        .modifiers
        .iter()
        .any(|m| m.label.ends_with(": longer weapon (b v e)") && m.value == 1));
}

#[test]
fn melee_by_hand_and_ties() {
    // Equal units, both net −2; each d10 − 2 is clamped to 1 (R-GTS-2): 1 on 1–3, then 2–8.
    // A tie gives 1 hit each (both negative): (3/10)² + 7 · (1/10)² = 16/100.
    let inf = json!({ "class": "infantry", "weapon": "SP", "armour": "M", "stands": 2 });
    let r = resolved(
        "melee",
        json!({ "side_a": [{ "unit": inf }], "side_b": [{ "unit": inf }] }),
    );
    // Both: −1 (base) −1 (M) + 0 (SP) = −2.
    assert_eq!(odds(&r, "hits_1_1"), "4/25");
    assert_eq!(odds(&r, "hits_7_0"), "3/100"); // A 1 (3/10), B 8 (1/10)
}

#[test]
fn fire_by_hand_and_skirmish_fire() {
    // Archers (fire att 0) at 4" (no short range) on medium infantry (def 0): d10 v d10 —
    // no hit 55, one hit 20, two 25 of 100.
    let archers = json!({ "class": "infantry", "weapon": "BW", "armour": "N", "stands": 3 });
    let target = json!({ "class": "infantry", "weapon": "SP", "armour": "M", "stands": 3 });
    let r = resolved(
        "fire",
        json!({ "firer": archers, "target": target, "range": 4 }),
    );
    assert_eq!(odds(&r, "hits_0"), "11/20");
    assert_eq!(odds(&r, "hits_2"), "1/4");
    // Firer 7 against target 5: one hit, said as English says it.
    let one = load("gts")
        .resolve(
            "fire",
            &json!({ "firer": archers, "target": target, "range": 4 }),
            Some(&[7, 5]),
        )
        .unwrap()
        .outcome
        .unwrap();
    assert!(
        one.meaning.ends_with("The target takes 1 hit."),
        "{}",
        one.meaning
    );
    let e = refused(
        "fire",
        json!({ "firer": archers, "target": target, "range": 6 }),
    );
    assert_eq!(e.code, "situation.out_of_range");
    // Two skirmish stands (−2 each) at short range (+2): net 0 against one defender d10: a stand
    // hits when its die beats the defender's. Two hits: Σ_d ((10 − d)/10)² / 10 = 285/1000.
    let mut skirmishers = archers.clone();
    skirmishers["skirmish"] = json!(true);
    let r = resolved(
        "fire",
        json!({ "firer": skirmishers, "target": target, "range": 1.5, "skirmish_stands": 2 }),
    );
    assert_eq!(odds(&r, "hits_2"), "57/200");
}

#[test]
fn the_recoil_and_a_round_are_exact_and_need_both_sides() {
    let inf = json!({ "class": "infantry", "weapon": "SP", "armour": "M", "stands": 2 });
    let r = resolved(
        "recoil",
        json!({ "side_a": [{ "unit": inf }], "side_b": [{ "unit": inf }] }),
    );
    // RN 20 + 4 (M) + 2 (SP) + 5 (C) = 31 each: everyone fails with (69/100)² = 4761/10000.
    assert_eq!(odds(&r, "locked"), "4761/10000");
    let e = refused(
        "recoil",
        json!({ "side_a": [{ "unit": inf }], "side_b": [] }),
    );
    assert_eq!(
        (e.code.as_str(), e.rule.as_deref()),
        ("situation.no_units", Some("6.11, 7.1"))
    );
    let r = resolved(
        "melee_round",
        json!({ "side_a": [{ "unit": inf }, { "unit": inf }, { "unit": inf }, { "unit": inf }],
                "side_b": [{ "unit": inf }, { "unit": inf }, { "unit": inf }, { "unit": inf }] }),
    );
    let total: f64 = r
        .forecast
        .iter()
        .filter(|c| c.label.contains("(side A"))
        .take(4)
        .map(|c| c.p)
        .sum();
    assert!(
        total > 0.99 && total < 1.01,
        "one unit's fates sum to 1: {total}"
    );
}

#[test]
fn response_command_casualty_frenzy_and_break_point() {
    let inf = json!({ "class": "infantry", "weapon": "SP", "armour": "M", "stands": 2, "disordered": true });
    let r = resolved(
        "response_test",
        json!({ "test": "formation_change", "unit": inf }),
    );
    // Response 4, Disordered −2: passes on 1–2.
    assert_eq!(odds(&r, "passes"), "1/5");
    assert_eq!(
        value(&r, "Formation change cost"),
        "6\" (10 − response 4); or the whole move at its start"
    );
    let r = resolved("command_points", json!({ "pc": 3, "ts": "A" }));
    assert_eq!(odds(&r, "points_3"), "1/2"); // d6 of 1–3 → the PC of 3
    let r = resolved("leader_casualty", json!({}));
    assert_eq!(
        chance(&r, "The leader is hurt (d10 ≤ 3) and rolls on Table 1.10"),
        "3/10"
    );
    assert_eq!(
        chance(&r, "The leader leaves play (6–0 on Table 1.10)"),
        "3/20"
    );
    let r = resolved("frenzy", json!({ "hits_before": 0, "new_hits": 1 }));
    assert_eq!(odds(&r, "calm"), "1/1"); // the first hit tests nothing
    let r = resolved("frenzy", json!({ "hits_before": 2, "new_hits": 1 }));
    // Third hit: d8 − 1 ≤ 3 → 1–4: 1/2 frenzy; the driver kills it on 1–3 of d10.
    assert_eq!(odds(&r, "frenzied"), "7/20");
    assert_eq!(odds(&r, "killed_by_its_driver"), "3/20");
    let r = resolved(
        "army_break",
        json!({ "units": 12, "lost": 7, "general_lost": true }),
    );
    assert_eq!(r.outcome.unwrap().result, "broken"); // 50% of 12 = 6
    let r = resolved("army_break", json!({ "units": 12, "lost": 7 }));
    assert_eq!(value(&r, "Army break point"), "8 (60% of 12, rounded up)");
}

/// 8.0: the broken army's turn to break the enemy "as well, thus rescuing a tactical Draw" —
/// both past their break points is a draw, with no victory level (R-GTS-37); the enemy broken
/// alone changes nothing for an army that holds.
#[test]
fn both_armies_broken_is_a_tactical_draw() {
    let r = resolved(
        "army_break",
        json!({ "units": 5, "lost": 3, "enemy_broken": true,
                "victor_stands_lost": 6, "defeated_stands_lost": 9 }),
    );
    let o = r.outcome.clone().unwrap();
    assert_eq!(o.result, "draw");
    assert!(o.meaning.contains("tactical Draw"), "{}", o.meaning);
    assert!(r
        .totals
        .iter()
        .all(|t| !t.label.starts_with("Victory ratio")));
    let r = resolved(
        "army_break",
        json!({ "units": 5, "lost": 2, "enemy_broken": true }),
    );
    assert_eq!(r.outcome.unwrap().result, "holding");
    let r = resolved("army_break", json!({ "units": 5, "lost": 3 }));
    assert_eq!(r.outcome.unwrap().result, "broken");
}

#[test]
fn errors_name_the_unit_field_inside_a_situation() {
    let e = refused(
        "fire",
        json!({ "firer": { "class": "infantry", "weapon": "BW", "stands": 0 },
                "target": { "class": "infantry", "weapon": "SP", "stands": 2 }, "range": 2 }),
    );
    assert_eq!(e.field.as_deref(), Some("firer.stands"));
    // Recoil with given d100s: A 40 against RN 31 fails, B 70 against 31 fails: locked.
    let inf = json!({ "class": "infantry", "weapon": "SP", "armour": "M", "stands": 2 });
    let r = load("gts")
        .resolve(
            "recoil",
            &json!({ "side_a": [{ "unit": inf }], "side_b": [{ "unit": inf }] }),
            Some(&[40, 70]),
        )
        .unwrap();
    assert_eq!(r.outcome.unwrap().result, "locked");
    // A 20 passes; B 70 ≥ 2 × 20 routs. A held in good order while every enemy unit gave
    // ground: its command test to follow up (7.3) is asked next, and a 1 passes it.
    let one_each = json!({ "side_a": [{ "unit": inf }], "side_b": [{ "unit": inf }] });
    let r = load("gts")
        .resolve("recoil", &one_each, Some(&[20, 70]))
        .unwrap();
    assert!(r.outcome.is_none());
    let asked = &laid_out(&r)[2];
    assert_eq!(
        (asked.0, asked.2.as_str()),
        (10, "command test to follow up")
    );
    let r = load("gts")
        .resolve("recoil", &one_each, Some(&[20, 70, 1]))
        .unwrap();
    let o = r.outcome.unwrap();
    assert_eq!(o.result, "holds/some_rout");
    assert!(o.effects.iter().any(|e| e.text.ends_with("Routs")));
    assert!(o
        .effects
        .iter()
        .any(|e| e.change == crate::contract::Change::FollowUp));
}

#[test]
fn a_recoil_throws_a_d100_per_unit_each_named_by_its_unit() {
    let unit = |name: &str| json!({ "unit": { "name": name, "class": "infantry", "weapon": "SP", "armour": "M", "stands": 2 } });
    let situation =
        json!({ "side_a": [unit("Hastati"), unit("Principes")], "side_b": [unit("Gauls")] });
    let r = resolved("recoil", situation.clone());
    // Dice notation the app can roll: two for side A, one for side B.
    assert_eq!(r.dice, "2d100 v 1d100");
    let laid: Vec<(u32, Option<crate::rule_system::Thrower>, Option<&str>)> = r
        .shown
        .faces
        .iter()
        .map(|d| (d.sides, d.thrower, d.label.as_deref()))
        .collect();
    use crate::rule_system::Thrower::{A, B};
    assert_eq!(
        laid,
        vec![
            (100, Some(A), Some("Hastati")),
            (100, Some(A), Some("Principes")),
            (100, Some(B), Some("Gauls"))
        ]
    );
    // Hastati hold on 20; Principes fail on 70 and, a friend having passed, recoil; the Gauls
    // fail on 95 ≥ 2 × 20 and rout. Then, in turn, the Principes' recoil-move test (7.2) and the
    // Hastati's command test to follow up (7.3), each die named by the unit that throws it.
    let r = thrown("recoil", &situation, &[20, 70, 95]);
    assert!(r.outcome.is_none());
    assert_eq!(
        laid_out(&r)[3..],
        [
            (10, "Hastati".into(), "command test to follow up".into()),
            (10, "Principes".into(), "recoil-move test".into())
        ]
    );
    // Each unit's throw is shown as its own, not summed; a 10 fails the recoil-move test.
    let o = thrown("recoil", &situation, &[20, 70, 95, 1, 10])
        .outcome
        .unwrap();
    let throws: Vec<(&str, u32, i64)> = o
        .sides
        .iter()
        .map(|t| (t.label.as_str(), t.die, t.total))
        .collect();
    assert_eq!(
        throws,
        vec![
            ("Hastati", 20, 20),
            ("Principes", 70, 70),
            ("Gauls", 95, 95)
        ]
    );
    let landed: Vec<(&str, &str)> = o
        .effects
        .iter()
        .map(|e| (e.text.as_str(), e.rule.as_str()))
        .collect();
    assert_eq!(o.dice, [20, 70, 95, 1, 10]);
    assert!(
        o.meaning
            .contains("Principes fails its recoil-move test and is Disordered"),
        "{}",
        o.meaning
    );
    assert!(
        o.meaning.contains("Hastati follows up to contact"),
        "{}",
        o.meaning
    );
    assert_eq!(landed.len(), 4, "{landed:?}");
    // Two faces for three units: the third unit's d100 is asked; faces past the chain refused.
    let r = thrown("recoil", &situation, &[40, 70]);
    assert!(r.outcome.is_none());
    assert_eq!(laid_out(&r).len(), 3);
    let e = load("gts")
        .resolve("recoil", &situation, Some(&[20, 70, 95, 1, 10, 4]))
        .unwrap_err();
    assert_eq!(e.code, "dice.invalid");
    assert_eq!(e.message, "This throw takes 5 dice; 6 were entered.");
}

#[test]
fn an_engine_is_disordered_for_good_on_its_second_hit() {
    // A catapult crew (engine, 4 hits a stand) with 1 hit already: any hit now is its second.
    // Bows at 4" (no short range), 0 v 0: at least one hit = 1 − 11/20.
    let engine = json!({ "class": "engine", "weapon": "CT", "stands": 1, "hits": 1 });
    let archers = json!({ "class": "infantry", "weapon": "BW", "armour": "N", "stands": 3 });
    let r = resolved(
        "fire",
        json!({ "firer": archers, "target": engine, "range": 4 }),
    );
    assert_eq!(
        chance(&r, "The target is Disordered for good (its second hit)"),
        "9/20"
    );
}

#[test]
fn entries_on_a_unit_that_does_not_modify_are_named_in_a_note() {
    // 6.12, R-GTS-16: the largest unit's characteristics; the smaller unit's flank and leader
    // entries do not change the roll-off, and the answer says so.
    let r = resolved(
        "melee",
        json!({
            "side_a": [
                { "unit": spartans() },
                { "unit": { "name": "Helots", "class": "infantry", "armour": "N", "weapon": "SP",
                            "stands": 2 }, "flanked": true, "leader_pv": 2 }
            ],
            "side_b": [{ "unit": persian_horse() }]
        }),
    );
    let note = r
        .notes
        .iter()
        .find(|n| n.ruling.as_deref() == Some("R-GTS-16"))
        .expect("a note for the smaller unit");
    assert!(note.message.contains("Helots") && note.message.contains("flank, leader"));
    assert!(!r.modifiers.iter().any(|m| m.label.contains("flanked")));
    // R-GTS-17: a 6-stand unit in a recoil gets the tier note.
    let mut big = spartans();
    big["stands"] = json!(6);
    let r = resolved(
        "recoil",
        json!({ "side_a": [{ "unit": big }], "side_b": [{ "unit": persian_horse() }] }),
    );
    assert!(r
        .notes
        .iter()
        .any(|n| n.ruling.as_deref() == Some("R-GTS-17")));
}

#[test]
fn a_melee_roll_off_shows_each_side_die_modifier_and_clamped_total() {
    let s = json!({ "side_a": [{ "unit": spartans() }], "side_b": [{ "unit": persian_horse() }] });
    let r = load("gts").resolve("melee", &s, Some(&[7, 1])).unwrap();
    let (o, a, b) = (
        r.outcome.clone().unwrap(),
        value(&r, "Side A"),
        value(&r, "Side B"),
    );
    let net = |v: String| v.replace('+', "").parse::<i64>().unwrap();
    assert_eq!(o.sides.len(), 2);
    assert_eq!((o.sides[0].die, o.sides[0].modifier), (7, net(a)));
    assert_eq!((o.sides[1].die, o.sides[1].modifier), (1, net(b)));
    for side in &o.sides {
        assert_eq!(
            side.total,
            (i64::from(side.die) + side.modifier).clamp(1, 10)
        );
    }
    assert_eq!(o.modified, o.sides[0].total);
}

#[test]
fn artillery_firing_twice_gives_one_row_per_result() {
    // 9.21 against a target already Disordered: a double hit's Disorder (9.28) changes nothing,
    // so two shots making 2 hits are one row whichever way they fell, and rows run by hits.
    let target = json!({ "class": "infantry", "weapon": "SP", "armour": "M", "stands": 4, "disordered": true });
    let r = resolved(
        "fire",
        json!({ "firer": { "class": "engine", "weapon": "BL", "stands": 1 }, "target": target,
                "range": 2.0, "twice": true }),
    );
    let labels: Vec<&str> = r.distribution.iter().map(|d| d.result.as_str()).collect();
    let mut unique = labels.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), labels.len(), "{labels:?}");
    assert_eq!(labels, ["hits_0", "hits_1", "hits_2", "hits_3", "hits_4"]);
}

#[test]
fn a_catapult_firing_twice_names_each_row_apart_even_when_both_shots_stray() {
    // 9.21, 9.26: one shot astray and the other missing is not both shots astray; each row has a
    // key of its own (the app lists the rows by key).
    let r = resolved(
        "fire",
        json!({ "firer": { "class": "engine", "weapon": "CT", "stands": 1 },
                "target": { "class": "infantry", "weapon": "SP", "armour": "M", "stands": 4 },
                "range": 10.0, "twice": true }),
    );
    let keys: Vec<&str> = r.distribution.iter().map(|d| d.result.as_str()).collect();
    let mut unique = keys.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), keys.len(), "{keys:?}");
    assert!(
        keys.contains(&"hits_0_astray") && keys.contains(&"hits_0_astray_2"),
        "{keys:?}"
    );
    assert_eq!(r.shown.names["hits_0_astray_2"], "No effect; astray");
}

/// `p` is exactly `q` × n/d.
fn is_times(p: &str, q: &str, n: u128, d: u128) -> bool {
    let (p, q) = (
        crate::odds::Probability::parse(p).unwrap(),
        crate::odds::Probability::parse(q).unwrap(),
    );
    p.numerator() * q.denominator() * d == q.numerator() * p.denominator() * n
}

#[test]
fn the_victorious_leader_tests_at_plus_one_whenever_the_routed_leader_tests() {
    // 1.10: every leader casualty test of the routed side's leader (−1: hurt on 1–4) calls for
    // one by the victorious side's leader (+1: hurt on 1–2), an independent d10; Table 1.10's
    // 6–0 take him out of play. So his lines are the routed leader's test chance × 2/10 and
    // × 2/10 × 5/10, exactly.
    let hoplites = json!({ "name": "Hoplites", "class": "infantry", "weapon": "SP", "armour": "H", "stands": 4 });
    let levy =
        json!({ "name": "Levy", "class": "infantry", "weapon": "SP", "armour": "N", "stands": 2 });
    let r = resolved(
        "melee_round",
        json!({ "side_a": [{ "unit": hoplites, "leader_pv": 0 }],
                "side_b": [{ "unit": levy, "leader_pv": 0 }] }),
    );
    let routs = chance(&r, "Levy routs");
    let tests = chance(
        &r,
        "Levy: its leader's test calls the victorious side's leader to test at +1",
    );
    assert!(is_times(&tests, &routs, 1, 1), "{tests} v {routs}");
    let own = chance(&r, "Levy: its leader is hurt and rolls on Table 1.10");
    assert!(is_times(&own, &tests, 4, 10), "{own} v {tests}");
    let hurt = chance(
        &r,
        "Levy: so the victorious side's leader is hurt and rolls on Table 1.10",
    );
    assert!(is_times(&hurt, &tests, 2, 10), "{hurt} v {tests}");
    let gone = chance(
        &r,
        "Levy: so the victorious side's leader leaves play (6–0 on Table 1.10)",
    );
    assert!(is_times(&gone, &tests, 1, 10), "{gone} v {tests}");
    // Without a leader on the other side there is no second test (and no −1).
    let r = resolved(
        "melee_round",
        json!({ "side_a": [{ "unit": hoplites }], "side_b": [{ "unit": levy, "leader_pv": 0 }] }),
    );
    assert!(!r.forecast.iter().any(|c| c.label.contains("victorious")));
}

#[test]
fn a_leader_hurt_on_table_1_10_changes_the_valour_his_unit_fights_with() {
    // R-GTS-25: dazed, his valour is −1 whatever his PV; wounded, PV +1 a wound to at most +2;
    // out of play, none; result 8's −1 within 6" on the roll-off.
    let melee = |extra: Value| {
        let mut a = json!({ "unit": spartans() });
        for (k, v) in extra.as_object().unwrap() {
            a[k] = v.clone();
        }
        resolved(
            "melee",
            json!({ "side_a": [a], "side_b": [{ "unit": persian_horse() }] }),
        )
    };
    let valour = |r: &crate::Resolution| {
        r.modifiers
            .iter()
            .find(|m| m.label.contains(": leader's personal valour"))
            .map(|m| (m.value, m.ruling.clone()))
    };
    let r = melee(json!({ "leader_pv": 2, "leader_condition": "dazed" }));
    assert_eq!(valour(&r), Some((-1, Some("R-GTS-25".into()))));
    let r = melee(json!({ "leader_pv": 0, "leader_wounds": 1 }));
    assert_eq!(valour(&r), Some((1, Some("R-GTS-25".into()))));
    let r = melee(json!({ "leader_pv": 2, "leader_wounds": 1 }));
    assert_eq!(valour(&r), Some((2, Some("R-GTS-25".into()))), "at most +2");
    let r = melee(json!({ "leader_pv": 2 }));
    assert_eq!(valour(&r), Some((2, None)));
    for out in ["unhorsed", "passed_out", "killed", "captured"] {
        let r = melee(json!({ "leader_pv": 2, "leader_condition": out }));
        assert_eq!(valour(&r), None, "{out}");
        assert!(r
            .notes
            .iter()
            .any(
                |n| n.ruling.as_deref() == Some("R-GTS-25") && n.message.contains("out of play")
                    || n.message.contains("dead")
                    || n.message.contains("prisoner")
            ));
    }
    let near = melee(json!({ "near_fallen_leader": true }));
    let m = near
        .modifiers
        .iter()
        .find(|m| m.label.contains("fell on his sword"))
        .expect("result 8's −1");
    assert_eq!((m.value, m.rule.as_str()), (-1, "Table 1.10"));
    let plain = melee(json!({}));
    assert_eq!(near.total_modifier, plain.total_modifier - 1);
}

#[test]
fn an_escorted_elephant_modifies_its_side_and_its_escort_goes_with_it() {
    // 3.164, R-GTS-26: the elephant with its escort is its side's modifying unit even beside a
    // larger unit, and counts 2 stands deep on its recoil test; 3.166: the escort is removed
    // when the melee eliminates the elephant or it frenzies.
    let elephant =
        json!({ "name": "Surus", "class": "elephant", "weapon": "SP", "stands": 1, "hits": 5 });
    let escort = json!({ "name": "Runners", "class": "infantry", "armour": "N", "weapon": "JV", "stands": 1 });
    let pikes =
        json!({ "name": "Pikes", "class": "infantry", "weapon": "PK", "armour": "L", "stands": 4 });
    let with_escort = json!({
        "side_a": [{ "unit": pikes }, { "unit": elephant, "escort": escort }],
        "side_b": [{ "unit": spartans() }]
    });
    let r = resolved("melee", with_escort.clone());
    assert!(r.totals[0].label.contains("Surus"), "{:?}", r.totals[0]);
    assert!(r
        .notes
        .iter()
        .any(|n| n.ruling.as_deref() == Some("R-GTS-26") && n.message.contains("Surus")));
    // Any hit eliminates the elephant (5 of 6 already): its escort goes with it.
    for row in &r.distribution {
        let elephant_hit = row
            .effects
            .iter()
            .any(|e| e.target == crate::contract::Target::Unit("Surus".into()));
        let escort_gone = row.effects.iter().any(|e| {
            e.target == crate::contract::Target::Unit("Runners".into())
                && e.change == crate::contract::Change::DestroyAll
                && e.rule == "3.166"
        });
        assert_eq!(elephant_hit, escort_gone, "{}", row.result);
    }
    // The escort's stand puts the elephant in the 3-stand tier of 7.1 (−10) with 2 stands.
    let recoil_number = |escorted: bool| {
        let mut e = json!({ "unit": { "name": "Surus", "class": "elephant", "weapon": "SP", "stands": 2 } });
        if escorted {
            e["escort"] = escort.clone();
        }
        let r = resolved(
            "recoil",
            json!({ "side_a": [e], "side_b": [{ "unit": spartans() }] }),
        );
        chance(&r, "Surus holds")
    };
    let (alone, escorted) = (recoil_number(false), recoil_number(true));
    assert!(
        crate::odds::Probability::parse(&escorted).unwrap().to_f64()
            > crate::odds::Probability::parse(&alone).unwrap().to_f64(),
        "{escorted} v {alone}"
    );
    // Another modifying unit is refused; so is an escort on infantry.
    let mut bad = with_escort.clone();
    bad["modifying_a"] = json!(0);
    let e = refused("melee", bad);
    assert_eq!(e.rule.as_deref(), Some("3.164"));
    let e = refused(
        "melee",
        json!({ "side_a": [{ "unit": pikes, "escort": escort }], "side_b": [{ "unit": spartans() }] }),
    );
    assert_eq!(
        (e.field.as_deref(), e.rule.as_deref()),
        (Some("side_a[0].escort"), Some("3.16"))
    );
    // 3.166 in the frenzy test: frenzied or killed by its driver, the escort is removed.
    let r = resolved(
        "frenzy",
        json!({ "hits_before": 1, "new_hits": 1, "escort": true }),
    );
    for row in &r.distribution {
        let gone = row
            .effects
            .iter()
            .any(|e| e.target == crate::contract::Target::Unit("escort".into()));
        assert_eq!(gone, row.result != "calm", "{}", row.result);
    }
}

#[test]
fn frenzy_hits_spill_onto_the_next_elephant_stand() {
    // R-GTS-27: a stand with 5 hits takes 3: the sixth eliminates it, and 2 spill onto the next
    // stand, whose first hit tests nothing and second tests on the d8 (1–3, no hit over 2 yet):
    // 3/8 frenzied (then the driver, 7.42). Hits that only finish the last stand, or land exactly
    // on a stand's sixth, frenzy nothing.
    let ruleset = load("gts");
    let data = ruleset
        .data::<crate::systems::gts::Gts>()
        .expect("a GTS ruleset");
    let spilled = super::checks::chained_frenzy(data, 2, 5, 3, 6).unwrap();
    let fresh = super::checks::frenzy_odds(data, 0, 2).unwrap().1;
    assert_eq!(spilled, fresh);
    assert_eq!(
        spilled
            .probability_where(|k| *k != super::checks::Frenzy::Calm)
            .to_string(),
        "3/8"
    );
    for (stands, before, new) in [(1, 5, 3), (2, 5, 1), (2, 0, 0)] {
        let d = super::checks::chained_frenzy(data, stands, before, new, 6).unwrap();
        assert_eq!(
            d,
            crate::odds::Dist::certain(super::checks::Frenzy::Calm),
            "{stands} {before} {new}"
        );
    }
    // Below the sixth hit the stand tests itself, as before.
    assert_eq!(
        super::checks::chained_frenzy(data, 2, 1, 2, 6).unwrap(),
        super::checks::frenzy_odds(data, 1, 2).unwrap().1
    );
}

#[test]
fn an_elephants_contact_test_is_chained_into_the_roll_off() {
    // 4.45, R-GTS-28: the elephant makes contact in good order; the infantry it contacts tests
    // response first, and a failure makes it fight Disordered. Each row is the test's chance
    // times the roll-off's in that branch, exactly.
    let elephant = json!({ "name": "Surus", "class": "elephant", "weapon": "SP", "stands": 1 });
    let levy =
        json!({ "name": "Levy", "class": "infantry", "weapon": "SP", "armour": "N", "stands": 3 });
    let mut disordered_levy = levy.clone();
    disordered_levy["disordered"] = json!(true);
    let chained = resolved(
        "melee",
        json!({ "contact": true, "side_a": [{ "unit": elephant }], "side_b": [{ "unit": levy }] }),
    );
    let fails = chance(&chained, "Levy is Disordered by the elephant's contact");
    let passes = {
        let f = crate::odds::Probability::parse(&fails).unwrap();
        crate::odds::Probability::new(f.denominator() - f.numerator(), f.denominator()).to_string()
    };
    assert!(fails != "0" && passes != "0", "{fails}");
    for (branch, words, key, weight) in [
        (
            levy.clone(),
            "Levy passes the elephant test",
            "passed",
            &passes,
        ),
        (
            disordered_levy,
            "Levy fails the elephant test and is Disordered",
            "failed",
            &fails,
        ),
    ] {
        let plain = resolved(
            "melee",
            json!({ "side_a": [{ "unit": elephant }], "side_b": [{ "unit": branch }] }),
        );
        for row in &plain.distribution {
            let label = format!("{key};{}", row.result);
            // The row's words: the branch, then the plain result's own words.
            assert_eq!(
                chained.shown.names[&label],
                format!("{words}; {}", plain.shown.names[&row.result])
            );
            let got = odds(&chained, &label);
            let w = crate::odds::Probability::parse(weight).unwrap();
            assert!(
                is_times(&got, &row.probability, w.numerator(), w.denominator()),
                "{label}: {got} is not {weight} × {}",
                row.probability
            );
            let row_effects = &chained
                .distribution
                .iter()
                .find(|d| d.result == label)
                .unwrap()
                .effects;
            let disorders = row_effects
                .iter()
                .any(|e| e.rule == "4.45" && e.change == crate::contract::Change::Disorder);
            assert_eq!(disorders, words.contains("fails"), "{label}");
        }
    }
    // With dice: the test's d10 first. A 10 fails any response number below 10.
    let r = load("gts")
        .resolve(
            "melee",
            &json!({ "contact": true, "side_a": [{ "unit": elephant }], "side_b": [{ "unit": levy }] }),
            Some(&[10, 5, 5]),
        )
        .unwrap();
    let o = r.outcome.unwrap();
    assert!(o.result.starts_with("failed;hits_"), "{}", o.result);
    assert!(o.effects.iter().any(|e| e.rule == "4.45"));
    // No contact this turn: no test.
    let r = resolved(
        "melee",
        json!({ "side_a": [{ "unit": elephant }], "side_b": [{ "unit": levy }] }),
    );
    assert!(!r
        .forecast
        .iter()
        .any(|c| c.label.contains("elephant's contact")));
}

/// The R-GTS-19 round of the golden example: Levies (−9, 5 hits a stand, response 6) against
/// Veterans (+9, 10 hits a stand), both recoil 50.
fn levies_and_veterans(levies_leader: Option<i64>, veterans_leader: Option<i64>) -> Value {
    let mut a = json!({ "unit": { "name": "Levies", "class": "infantry", "armour": "M", "weapon": "SP",
        "stands": 3, "tag": { "hits_per_stand": 5, "recoil": 50, "response": 6, "melee": -9 } } });
    let mut b = json!({ "unit": { "name": "Veterans", "class": "infantry", "armour": "M", "weapon": "SP",
        "stands": 2, "tag": { "hits_per_stand": 10, "recoil": 50, "melee": 9 } } });
    if let Some(pv) = levies_leader {
        a["leader_pv"] = json!(pv);
    }
    if let Some(pv) = veterans_leader {
        b["leader_pv"] = json!(pv);
    }
    json!({ "side_a": [a], "side_b": [b] })
}

fn thrown(action: &str, situation: &Value, faces: &[u32]) -> crate::Resolution {
    load("gts")
        .resolve(action, situation, Some(faces))
        .unwrap_or_else(|e| panic!("{action} {faces:?}: {}", e.one_line()))
}

/// Each die laid out: (sides, whose, what for).
fn laid_out(r: &crate::Resolution) -> Vec<(u32, String, String)> {
    r.shown
        .faces
        .iter()
        .map(|d| {
            (
                d.sides,
                d.label.clone().unwrap_or_default(),
                d.purpose.clone().unwrap_or_default(),
            )
        })
        .collect()
}

fn changes_on(r: &crate::Resolution, unit: &str) -> Vec<crate::contract::Change> {
    r.outcome
        .as_ref()
        .expect("an outcome")
        .effects
        .iter()
        .filter(|e| e.target == crate::contract::Target::Unit(unit.into()))
        .map(|e| e.change.clone())
        .collect()
}

#[test]
fn a_melee_round_asks_each_die_in_turn_and_lands_the_whole_chain() {
    use crate::contract::Change;
    let s = levies_and_veterans(None, None);
    // Before any die: the roll-off's two d10s, asked in turn.
    let r = resolved("melee_round", s.clone());
    assert!(r.shown.in_turn);
    assert_eq!(laid_out(&r).len(), 2);
    assert_eq!(laid_out(&r)[0].2, "roll-off");
    // The roll-off thrown: Levies take 9 hits (a stand and Disorder, 6.13), so its stand-loss
    // check is asked next (R-GTS-19) — and nothing is applied yet.
    let r = thrown("melee_round", &s, &[1, 1]);
    assert!(r.outcome.is_none());
    assert_eq!(
        laid_out(&r)[2],
        (10, "Levies".into(), "stand-loss check".into())
    );
    // 5 fails response 6 − 2: already Disordered, it routs; nobody is left to press the
    // Veterans, who hold without a test (R-GTS-23). The chain ends with three dice.
    let r = thrown("melee_round", &s, &[1, 1, 5]);
    assert_eq!(r.shown.faces.len(), 3);
    assert_eq!(
        changes_on(&r, "Levies"),
        [
            Change::Hits { count: 9 },
            Change::Disorder,
            Change::RoutUnit
        ]
    );
    assert!(changes_on(&r, "Veterans").is_empty());
    // 4 passes: both test recoil, a d100 each, the Levies' first.
    let r = thrown("melee_round", &s, &[1, 1, 4]);
    assert!(r.outcome.is_none());
    assert_eq!(
        laid_out(&r)[3..],
        [
            (100, "Levies".into(), "recoil test".into()),
            (100, "Veterans".into(), "recoil test".into())
        ]
    );
    // Levies 60 + 20 = 80 fails; Veterans 40 passes; 80 is twice 40: the Levies rout (R-GTS-6).
    // The Veterans held in good order while every enemy gave ground: their command test to
    // follow up is asked (7.3), and a 1 passes it.
    let r = thrown("melee_round", &s, &[1, 1, 4, 60, 40]);
    assert_eq!(
        laid_out(&r)[5],
        (10, "Veterans".into(), "command test to follow up".into())
    );
    let r = thrown("melee_round", &s, &[1, 1, 4, 60, 40, 1]);
    assert_eq!(
        changes_on(&r, "Levies"),
        [
            Change::Hits { count: 9 },
            Change::Disorder,
            Change::RoutUnit
        ]
    );
    assert_eq!(changes_on(&r, "Veterans"), [Change::FollowUp]);
    // The outcome keeps every face of the chain, as the log shows and an edited roll replays.
    assert_eq!(r.outcome.as_ref().unwrap().dice, [1, 1, 4, 60, 40, 1]);
    let meaning = &r.outcome.as_ref().unwrap().meaning;
    assert!(
        meaning.contains("Veterans follows up to contact"),
        "{meaning}"
    );
    // A 59 only recoils them (80 < 2 × 59): 3" back, then the recoil-move test (7.2); a 10
    // fails it and, already Disordered, they take a hit.
    let r = thrown("melee_round", &s, &[1, 1, 4, 60, 41, 10, 10]);
    assert!(
        laid_out(&r)
            .iter()
            .any(|d| d.1 == "Levies" && d.2 == "recoil-move test"),
        "{:?}",
        laid_out(&r)
    );
    assert_eq!(
        changes_on(&r, "Levies")[2..],
        [Change::RecoilMove { inches: 3 }, Change::Hits { count: 1 }]
    );
    // More faces than the chain asks for are refused; a face off its die names the die.
    let e = load("gts")
        .resolve("melee_round", &s, Some(&[1, 1, 5, 3]))
        .unwrap_err();
    assert!(
        e.message.contains("takes 3 dice; 4 were entered"),
        "{}",
        e.message
    );
    let e = load("gts")
        .resolve("melee_round", &s, Some(&[1, 1, 11]))
        .unwrap_err();
    assert!(e.message.contains("stand-loss check"), "{}", e.message);
}

#[test]
fn a_routed_units_leader_and_the_victors_leader_are_asked_then_table_1_10() {
    use crate::contract::Change;
    // Both units have a leader: the Levies rout on their stand-loss check (5), so their leader
    // tests at −1 and the Veterans' at +1 (1.10); a 1 hurts each, and Table 1.10 is asked for
    // both: 6 kills the Levies' leader, 2 dazes the Veterans'.
    let s = levies_and_veterans(Some(0), Some(0));
    // The Levies' leader's valour 0 leaves the check at 4: a 5 fails.
    let r = thrown("melee_round", &s, &[1, 1, 5]);
    assert_eq!(
        laid_out(&r)[3..],
        [
            (10, "Levies".into(), "leader's casualty test".into()),
            (
                10,
                "Veterans".into(),
                "victorious leader's casualty test".into()
            )
        ]
    );
    // 9 − 1 and 9 + 1 leave both unharmed: done.
    let r = thrown("melee_round", &s, &[1, 1, 5, 9, 9]);
    assert!(r.outcome.is_some());
    let r = thrown("melee_round", &s, &[1, 1, 5, 1, 1]);
    assert_eq!(laid_out(&r)[5..].len(), 2);
    assert!(laid_out(&r)[5..].iter().all(|d| d.2 == "Table 1.10"));
    let r = thrown("melee_round", &s, &[1, 1, 5, 1, 1, 6, 2]);
    assert!(changes_on(&r, "Levies").contains(&Change::LeaderKilled));
    assert_eq!(changes_on(&r, "Veterans"), [Change::LeaderDazed]);
}

#[test]
fn the_app_throws_a_chain_through_to_its_outcome() {
    // Every die a 1: the roll-off, then whatever each stage asks, until the round has its
    // outcome; the faces thrown give it again when entered by hand.
    let ruleset = load("gts");
    let s = levies_and_veterans(Some(0), Some(0));
    let mut asked = Vec::new();
    let faces = ruleset
        .throw("melee_round", &s, &mut |sides| {
            asked.push(sides);
            1
        })
        .unwrap();
    assert_eq!(faces.len(), asked.len());
    assert!(faces.len() > 2, "{faces:?}");
    let r = thrown("melee_round", &s, &faces);
    assert!(r.outcome.is_some());
    assert_eq!(r.shown.faces.len(), faces.len());
    // A recoil in which both units hold asks nothing after its d100 per unit.
    let faces = ruleset.throw("recoil", &s, &mut |sides| sides / 2).unwrap();
    assert_eq!(faces, [50, 50]);
}

#[test]
fn a_leader_casualty_asks_table_1_10_only_when_hurt() {
    let s = json!({});
    let r = thrown("leader_casualty", &s, &[5]);
    assert_eq!(r.outcome.as_ref().unwrap().result, "unharmed");
    assert_eq!(r.shown.faces.len(), 1);
    let r = thrown("leader_casualty", &s, &[2]);
    assert!(r.outcome.is_none());
    assert_eq!(r.shown.faces.len(), 2);
    assert_eq!(r.shown.faces[1].purpose.as_deref(), Some("Table 1.10"));
    let r = thrown("leader_casualty", &s, &[2, 6]);
    assert!(r.outcome.unwrap().result.starts_with("6:"));
}

#[test]
fn a_cavalry_charge_puts_formed_infantry_to_a_morale_check_chained_into_the_roll_off() {
    // 4.43: cavalry in good order charging formed infantry induce a morale check against its
    // response (5 here: a d10 of 6–10 fails, 1/2); each charge induces one until the infantry is
    // Disordered, so two charging units Disorder it with 1 − (1/2)² = 3/4. A failure Disorders
    // it before the roll-off, and it fights Disordered.
    let greeks = json!({ "name": "Greek cavalry", "class": "cavalry", "armour": "M", "weapon": "LN", "stands": 3 });
    let thessalians = json!({ "name": "Thessalians", "class": "cavalry", "armour": "M", "weapon": "LN", "stands": 3 });
    let peltasts = json!({ "name": "Peltasts", "class": "infantry", "armour": "L", "weapon": "JV",
        "order": "CO", "stands": 4, "tag": { "response": 5 } });
    let one = json!({ "contact": true, "side_a": [{ "unit": greeks }], "side_b": [{ "unit": peltasts }] });
    let r = resolved("melee_round", one.clone());
    assert_eq!(
        chance(&r, "Peltasts is Disordered by the cavalry's charge"),
        "1/2"
    );
    assert!(r.shown.in_turn);
    assert_eq!(
        laid_out(&r),
        [(
            10,
            "Peltasts".into(),
            "morale check against Greek cavalry's charge".into()
        )]
    );
    let two = json!({ "contact": true, "side_a": [{ "unit": greeks }, { "unit": thessalians }],
        "side_b": [{ "unit": peltasts }] });
    let r = resolved("melee", two.clone());
    assert_eq!(
        chance(&r, "Peltasts is Disordered by the cavalry's charge"),
        "3/4"
    );
    // With dice: a 3 passes the first check, an 8 fails the second; then the roll-off.
    let r = thrown("melee", &two, &[3]);
    assert_eq!(laid_out(&r).len(), 2);
    assert!(laid_out(&r)[1].2.contains("Thessalians' charge"));
    let r = thrown("melee", &two, &[3, 8, 5, 5]);
    let o = r.outcome.as_ref().unwrap();
    assert!(o.result.starts_with("failed;hits_"), "{}", o.result);
    assert!(
        r.shown.names[&o.result]
            .starts_with("Peltasts fails the morale check against the cavalry charge"),
        "{}",
        r.shown.names[&o.result]
    );
    assert!(o
        .effects
        .iter()
        .any(|e| e.rule == "4.43" && e.change == crate::contract::Change::Disorder));
    // Both passed: no Disorder, and the roll-off follows.
    let r = thrown("melee", &two, &[3, 4, 5, 5]);
    assert!(!r.outcome.unwrap().effects.iter().any(|e| e.rule == "4.43"));
    // No check without contact this turn, or against infantry already Disordered (skirmishers
    // never engage in melee, 4.41).
    let mut quiet = one.clone();
    quiet["contact"] = json!(false);
    let mut shaken = one;
    shaken["side_b"][0]["unit"]["disordered"] = json!(true);
    for s in [quiet, shaken] {
        let r = resolved("melee", s);
        assert!(!r
            .forecast
            .iter()
            .any(|c| c.label.contains("cavalry's charge")));
    }
}

#[test]
fn camelry_charge_as_cavalry_and_may_not_contact_close_order_pike() {
    // 2.1: camelry are cavalry; 4.43 forbids their contact with formed close-order pike.
    let camels =
        json!({ "name": "Camels", "class": "camelry", "armour": "N", "weapon": "LN", "stands": 2 });
    let phalanx = json!({ "name": "Phalanx", "class": "infantry", "armour": "M", "weapon": "PK",
        "order": "CO", "stands": 6 });
    let e = refused(
        "melee",
        json!({ "contact": true, "side_a": [{ "unit": camels }], "side_b": [{ "unit": phalanx }] }),
    );
    assert_eq!(e.code, "situation.contact_forbidden");
    assert_eq!(e.rule.as_deref(), Some("4.43"));
}

#[test]
fn a_lock_that_makes_a_stands_worth_this_phase_disorders() {
    // 6.13: a stand's worth of hits in one melee phase Disorders — the lock's 2 hits (7.1) count
    // with the roll-off's. Two like units with 3 hits a stand (a D or E class unit) tie for a hit
    // each (R-GTS-4), then both fail recoil (100s): locked, 2 more hits each, 3 this phase:
    // Disordered, though neither hit alone was a stand's worth.
    let unit = |name: &str| {
        json!({ "unit": { "name": name, "class": "infantry", "armour": "M", "weapon": "SP", "stands": 3,
            "tag": { "hits_per_stand": 3, "recoil": 10 } } })
    };
    let s = json!({ "side_a": [unit("Left")], "side_b": [unit("Right")] });
    let r = thrown("melee_round", &s, &[5, 5, 100, 100]);
    let o = r.outcome.as_ref().unwrap();
    let tie = o
        .effects
        .iter()
        .find_map(|e| match e.change {
            crate::contract::Change::Hits { count } if e.rule != "7.1" => Some(count),
            _ => None,
        })
        .unwrap_or(0);
    let lock_disorders = o
        .effects
        .iter()
        .any(|e| e.rule == "6.13, 7.1" && e.change == crate::contract::Change::Disorder);
    assert_eq!(tie, 1, "{:?}", o.effects);
    assert!(lock_disorders, "{:?}", o.effects);
    let line = chance(
        &r,
        "Left is Disordered by the lock's hits (a stand's worth this phase)",
    );
    assert_ne!(line, "0");
}

#[test]
fn a_routed_unit_losing_its_last_stand_puts_its_leader_to_the_test() {
    // 1.9: a leader tests when his unit loses a stand while already Routed — its last one too.
    let s = json!({
        "side_a": [{ "unit": { "name": "Fugitives", "class": "infantry", "armour": "N", "weapon": "SP",
            "stands": 1, "routed": true, "tag": { "hits_per_stand": 2, "melee": -9 } }, "leader_pv": 0 }],
        "side_b": [{ "unit": { "name": "Pursuers", "class": "infantry", "armour": "M", "weapon": "SP",
            "stands": 3, "tag": { "melee": 9 } } }]
    });
    let r = thrown("melee_round", &s, &[1, 1]);
    assert!(
        laid_out(&r)
            .iter()
            .any(|d| d.1 == "Fugitives" && d.2 == "leader's casualty test"),
        "{:?}",
        laid_out(&r)
    );
    assert_ne!(
        chance(&r, "Fugitives: its leader is hurt and rolls on Table 1.10"),
        "0"
    );
}

#[test]
fn fire_that_costs_a_stand_asks_the_stand_loss_check_then_a_routing_units_leader() {
    // 5.53: a stand lost to fire calls for the stand-loss check; failed while Disordered, the
    // unit Routs, and its leader takes his casualty test (1.9), then Table 1.10 if hurt — each die
    // asked in turn after the shot's two.
    let s = json!({
        "firer": { "name": "Archers", "class": "infantry", "weapon": "BW", "armour": "L", "stands": 4 },
        "target": { "name": "Levy", "class": "infantry", "weapon": "SP", "armour": "N", "stands": 3,
            "hits": 3, "disordered": true, "tag": { "hits_per_stand": 4 } },
        "range": 2.0,
        "target_leader": true
    });
    let r = resolved("fire", s.clone());
    assert!(r.shown.in_turn);
    assert_eq!(laid_out(&r).len(), 2);
    let r = thrown("fire", &s, &[10, 1]);
    assert!(r.outcome.is_none());
    assert_eq!(
        laid_out(&r)[2],
        (10, "Levy".into(), "stand-loss check".into())
    );
    // A pass: done, the hits alone.
    let r = thrown("fire", &s, &[10, 1, 1]);
    assert!(!changes_on(&r, "Levy").contains(&crate::contract::Change::RoutUnit));
    // A failure while Disordered: it Routs, and its leader tests; a 1 hurts him, a 6 kills him.
    let r = thrown("fire", &s, &[10, 1, 10]);
    assert_eq!(laid_out(&r)[3].2, "leader's casualty test");
    let r = thrown("fire", &s, &[10, 1, 10, 9]);
    assert!(changes_on(&r, "Levy").contains(&crate::contract::Change::RoutUnit));
    let r = thrown("fire", &s, &[10, 1, 10, 1, 6]);
    assert!(changes_on(&r, "Levy").contains(&crate::contract::Change::LeaderKilled));
    // Without a leader, the Rout ends the chain.
    let mut alone = s.clone();
    alone["target_leader"] = json!(false);
    let r = thrown("fire", &alone, &[10, 1, 10]);
    assert!(changes_on(&r, "Levy").contains(&crate::contract::Change::RoutUnit));
}

#[test]
fn an_elephant_attacked_by_one_unit_is_not_flanked() {
    // 6.23, R-GTS-29: flanked only when attacked on more than one side; one unit is one side.
    let elephant = json!({ "name": "Surus", "class": "elephant", "weapon": "SP", "stands": 2 });
    let levy = json!({ "name": "Levy", "class": "infantry", "weapon": "SP", "stands": 4 });
    let slingers = json!({ "name": "Slingers", "class": "infantry", "weapon": "SL", "stands": 2 });
    let flanked = |b: Value| {
        resolved(
            "melee",
            json!({ "side_a": [{ "unit": elephant, "flanked": true }], "side_b": b }),
        )
    };
    let flank_line =
        |r: &crate::Resolution| r.modifiers.iter().any(|m| m.label.ends_with("flanked"));
    let one = flanked(json!([{ "unit": levy }]));
    assert!(!flank_line(&one), "{:?}", one.modifiers);
    let note = one
        .notes
        .iter()
        .find(|n| n.rule == "6.23")
        .expect("a 6.23 note");
    assert_eq!(note.ruling.as_deref(), Some("R-GTS-29"));
    assert!(note
        .message
        .starts_with("Surus is attacked by one unit only"));
    // The same elephant against two units is flanked: the −2 and no note.
    let two = flanked(json!([{ "unit": levy }, { "unit": slingers }]));
    assert!(flank_line(&two), "{:?}", two.modifiers);
    assert!(two.notes.iter().all(|n| n.rule != "6.23"));
    let line = two
        .modifiers
        .iter()
        .find(|m| m.label.ends_with("flanked"))
        .unwrap();
    assert_eq!((line.value, line.rule.as_str()), (-2, "2.14"));
}

#[test]
fn table_1_10_deaths_unnoticed_or_on_his_sword_kill_the_leader() {
    // Table 1.10, R-GTS-30: 6 and 8 are deaths (8.0 counts them), 0 too; 7 and 9 captures.
    for (face, killed) in [(6, true), (8, true), (10, true), (7, false), (5, false)] {
        let r = thrown("leader_casualty", &json!({}), &[1, face]);
        let effects = &r.outcome.as_ref().unwrap().effects;
        let death = effects
            .iter()
            .find(|e| e.change == crate::contract::Change::LeaderKilled);
        assert_eq!(death.is_some(), killed, "{face}: {effects:?}");
        if let Some(d) = death {
            assert_eq!(d.ruling.as_deref(), Some("R-GTS-30"));
        }
    }
}

#[test]
fn a_fallen_leader_costs_the_units_near_him_one_on_their_response_tests() {
    // Table 1.10, 8 (R-GTS-25): −1 to command tests, a rally among them.
    let mut s = json!({ "test": "rally", "unit": {
        "class": "infantry", "armour": "N", "weapon": "JV", "stands": 3,
        "starting_stands": 4, "routed": true } });
    let before = resolved("response_test", s.clone());
    s["near_fallen_leader"] = json!(true);
    let after = resolved("response_test", s);
    let number = |r: &crate::Resolution| r.modifiers.iter().map(|m| m.value).sum::<i64>();
    assert_eq!(number(&after), number(&before) - 1);
    assert_ne!(odds(&after, "passes"), odds(&before, "passes"));
    let line = after.modifiers.last().unwrap();
    assert_eq!(
        (line.value, line.rule.as_str(), line.ruling.as_deref()),
        (-1, "Table 1.10", Some("R-GTS-25"))
    );
}

#[test]
fn a_first_turn_bonus_used_in_melee_is_spent_for_the_next() {
    // 2.14: SH and HM units fight their first turn with the 1st-turn mod, once; the round says so
    // in every outcome, and a spent bonus is not used again.
    let shock =
        json!({ "name": "Gauls", "class": "infantry", "armour": "N", "weapon": "SH", "stands": 4 });
    let levy =
        json!({ "name": "Levy", "class": "infantry", "armour": "N", "weapon": "SP", "stands": 4 });
    let round = |spent: bool| {
        resolved(
            "melee",
            json!({ "side_a": [{ "unit": shock, "first_turn": true, "first_turn_spent": spent }],
                    "side_b": [{ "unit": levy, "first_turn": true }] }),
        )
    };
    let fresh = round(false);
    let r = thrown(
        "melee",
        &json!({ "side_a": [{ "unit": shock, "first_turn": true }], "side_b": [{ "unit": levy, "first_turn": true }] }),
        &[5, 5],
    );
    assert!(changes_on(&r, "Gauls").contains(&crate::contract::Change::FirstTurnSpent));
    // The spearmen have no 1st-turn mod: nothing of theirs is spent.
    assert!(!changes_on(&r, "Levy").contains(&crate::contract::Change::FirstTurnSpent));
    let spent = round(true);
    assert!(fresh
        .modifiers
        .iter()
        .any(|m| m.label.contains("1st-turn melee")));
    assert!(!spent
        .modifiers
        .iter()
        .any(|m| m.label.contains("1st-turn melee")));
}

#[test]
fn an_elephants_frenzy_asks_its_dice_in_turn_a_d8_per_test_then_the_drivers_d10() {
    let gts = load("gts");
    let third_hit = json!({ "hits_before": 2, "new_hits": 1 });
    let at = |faces: Option<&[u32]>| gts.resolve("frenzy", &third_hit, faces);
    let laid = |r: &crate::Resolution| -> Vec<(u32, String)> {
        r.shown
            .faces
            .iter()
            .map(|d| (d.sides, d.purpose.clone().unwrap_or_default()))
            .collect()
    };
    let before = at(None).unwrap();
    assert!(before.shown.in_turn);
    assert_eq!(laid(&before), [(8, "frenzy test 1".to_string())]);
    // 3 − 1 ≤ 3: it frenzies, and the driver's d10 is asked next.
    let frenzies = at(Some(&[3])).unwrap();
    assert!(frenzies.outcome.is_none());
    assert_eq!(laid(&frenzies)[1], (10, "driver".to_string()));
    // The driver fails (5): its heading's d8 is asked next, each face a compass point with its
    // facing as North (4.46, R-GTS-36).
    let heading = at(Some(&[3, 5])).unwrap();
    assert!(heading.outcome.is_none());
    let d8 = &heading.shown.faces[2];
    assert_eq!(
        (d8.sides, d8.purpose.as_deref()),
        (8, Some("rampage heading, its facing as North"))
    );
    assert_eq!(
        d8.face_names,
        ["N (straight ahead)", "NE", "E", "SE", "S", "SW", "W", "NW"]
    );
    // A 3: it rampages east, the forecast's "heading E" line (7/20 frenzied ÷ 8 points).
    let east = at(Some(&[3, 5, 3])).unwrap();
    assert_eq!(chance(&east, "Frenzied, heading E"), "7/160");
    let o = east.outcome.unwrap();
    assert_eq!(
        (o.result.as_str(), o.meaning.as_str()),
        ("frenzied", "frenzied, heading E")
    );
    assert!(o.effects.iter().any(|e| e.change
        == crate::contract::Change::Rampage {
            direction: "E".into()
        }));
    assert_eq!(at(Some(&[3, 5, 9])).unwrap_err().code, "dice.invalid");
    assert_eq!(
        at(Some(&[3, 2])).unwrap().outcome.unwrap().result,
        "killed_by_its_driver"
    );
    // 8 − 1 > 3: calm, and no d10 is thrown.
    let calm = at(Some(&[8])).unwrap();
    assert_eq!(
        (
            calm.outcome.unwrap().result.as_str(),
            calm.shown.faces.len()
        ),
        ("calm", 1)
    );
    assert_eq!(at(Some(&[8, 5])).unwrap_err().code, "dice.invalid");
    // The first hit tests nothing: calm, with no dice to throw.
    let first = gts
        .resolve("frenzy", &json!({ "hits_before": 0, "new_hits": 1 }), None)
        .unwrap();
    assert_eq!(
        (first.dice.as_str(), first.outcome.unwrap().result.as_str()),
        ("", "calm")
    );
}

#[test]
fn an_elephant_hit_in_the_round_tests_for_frenzy_as_the_chains_last_stage() {
    // 7.41–7.42 in the round (R-GTS-36): both sides at −9 roll 1 against 1, a tie with both
    // sides negative, 1 hit each (6.12). The elephant, hit once before, takes its second hit: one
    // frenzy test. Both hold their recoil tests (1s); then the elephant's d8, on a pad named by
    // it, then — frenzied — its driver's d10.
    let elephant = json!({ "unit": { "name": "War elephant", "class": "elephant", "weapon": "SP",
        "stands": 1, "hits": 1, "tag": { "melee": -9 } },
        "escort": { "name": "Runners", "class": "infantry", "armour": "N", "weapon": "JV", "stands": 1 } });
    let hoplites = json!({ "unit": { "name": "Hoplites", "class": "infantry", "armour": "M",
        "weapon": "SP", "stands": 4, "tag": { "melee": -9 } } });
    let s = json!({ "side_a": [elephant], "side_b": [hoplites] });
    let r = thrown("melee_round", &s, &[1, 1, 1, 1]);
    assert!(r.outcome.is_none());
    assert_eq!(
        laid_out(&r).last().unwrap(),
        &(8, "War elephant".to_string(), "frenzy test 1".to_string())
    );
    assert_eq!(
        r.shown.faces.last().unwrap().thrower,
        Some(crate::rule_system::Thrower::A)
    );
    // A 2 frenzies it (2 − 0 ≤ 3): the driver's d10 is asked next.
    let r = thrown("melee_round", &s, &[1, 1, 1, 1, 2]);
    assert!(r.outcome.is_none());
    assert_eq!(
        laid_out(&r).last().unwrap(),
        &(10, "War elephant".to_string(), "driver".to_string())
    );
    // The driver fails (9): its heading's d8 is asked, on a pad named by the elephant (4.46).
    let r = thrown("melee_round", &s, &[1, 1, 1, 1, 2, 9]);
    assert!(r.outcome.is_none());
    assert_eq!(
        laid_out(&r).last().unwrap(),
        &(
            8,
            "War elephant".to_string(),
            "rampage heading, its facing as North".to_string()
        )
    );
    assert_eq!(r.shown.faces.last().unwrap().face_names[7], "NW");
    // A 6: it rampages south-west (4.46) and its escort is removed (3.166), with the round.
    let frenzied = thrown("melee_round", &s, &[1, 1, 1, 1, 2, 9, 6]);
    let on_elephant = changes_on(&frenzied, "War elephant");
    assert!(
        on_elephant.contains(&crate::contract::Change::Rampage {
            direction: "SW".into()
        }),
        "{on_elephant:?}"
    );
    assert!(changes_on(&frenzied, "Runners").contains(&crate::contract::Change::DestroyAll));
    assert!(frenzied
        .outcome
        .as_ref()
        .unwrap()
        .meaning
        .contains("War elephant frenzies and rampages heading SW"));
    // The driver kills it (1): removed (7.42).
    let killed = thrown("melee_round", &s, &[1, 1, 1, 1, 2, 1]);
    assert!(changes_on(&killed, "War elephant").contains(&crate::contract::Change::DestroyAll));
    // An 8 keeps it calm: nothing of the frenzy lands.
    let calm = thrown("melee_round", &s, &[1, 1, 1, 1, 8]);
    assert!(!changes_on(&calm, "Runners").contains(&crate::contract::Change::DestroyAll));
    assert!(calm
        .outcome
        .unwrap()
        .meaning
        .contains("War elephant stays calm"));
}

#[test]
fn the_unit_form_carries_no_order_morale_or_training_to_the_next_unit() {
    // Persian cavalry added after close-order Immortals moved 14", not its 15" (12" + 3" for no
    // armour, Table 2.10): the form had carried "Close order" over. Each unit's own choices,
    // left empty for the standard, are asked afresh; its class and weapon still carry.
    let fields = super::roster::fields(&super::test_data());
    let once = |key: &str| fields.iter().find(|f| f.key == key).unwrap().once;
    for key in ["order", "morale", "training"] {
        assert!(once(key), "{key}");
    }
    for key in ["class", "weapon", "armour", "stands"] {
        assert!(!once(key), "{key}");
    }
    // Nor the unit a leader leads (one leader to a unit, R-GTS-32), a general's the same.
    assert!(once("leads"));
    assert!(
        super::leader::fields()
            .iter()
            .find(|f| f.key == "leads")
            .unwrap()
            .once
    );
    // Without an order the cavalry moves its 15" (Table 2.10 adds nothing for no order).
    let r = resolved("unit", persian_horse());
    assert_eq!(value(&r, "Move"), "15\"");
}
