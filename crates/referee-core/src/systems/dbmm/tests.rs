//! DBMM mechanics against hand-counted odds, the sheet's COMBAT DICE PROBABILITIES table, the
//! morale thresholds at their exact boundaries and the errors the sheet's limits call for.

use serde_json::{json, Value};

use super::combat::score_of;
use super::data::Doubled;
use super::outcome::Score;
use crate::ruleset::Layers;
use crate::systems::test_support::{chance, load, odds, total as value};
use crate::systems::{builtin, switch, Ruleset};

fn resolved(action: &str, situation: Value) -> crate::Resolution {
    load("dbmm")
        .resolve(action, &situation, None)
        .unwrap_or_else(|e| panic!("{action}: {}", e.one_line()))
}

fn refused(action: &str, situation: Value) -> crate::RefereeError {
    match load("dbmm").resolve(action, &situation, None) {
        Ok(_) => panic!("{action} resolved {situation}"),
        Err(e) => e,
    }
}

fn el(t: &str, g: &str) -> Value {
    json!({ "type": t, "grade": g })
}

fn fighter(t: &str, g: &str) -> Value {
    json!({ "element": el(t, g) })
}

fn sheet_doubling() -> Ruleset {
    Ruleset::load(&Layers {
        base: builtin("dbmm").unwrap(),
        // The switchable ruling R-DBMM-15 as shipped (Settings puts it in force).
        house_rules: vec![switch("rulesets/switches/dbmm-doubled-at-most-half.toml").unwrap()],
    })
    .unwrap()
}

/// The sheet's worked example: double-overlapped Bd (O) against rear-supported Pk (O), 2 v 4.
fn bd_v_pk() -> Value {
    json!({
        "a": { "element": el("Bd", "O"), "overlaps": [{ "type": "Pk" }, { "type": "Bd" }] },
        "b": { "element": el("Pk", "O"), "support": { "ranks": [el("Pk", "O")] } },
        "bound": "a"
    })
}

#[test]
fn the_sheets_example_gives_2_against_4_and_its_percentages() {
    let r = resolved("close_combat", bd_v_pk());
    assert_eq!(r.total_modifier, 2 - 4);
    assert_eq!(value(&r, "Bd (O) total before grading"), "d6 +2");
    assert_eq!(value(&r, "Pk (O) total before grading"), "d6 +4");
    // Hand count, d6+2 v d6+4: lower 26/36 (72%), equal 4/36 (11%), higher 6/36 (17%).
    let lower = crate::odds::Probability::parse(&chance(&r, "Bd (O) scores less, not doubled"))
        .unwrap()
        .plus(&crate::odds::Probability::parse(&chance(&r, "Bd (O) is doubled")).unwrap())
        .unwrap();
    assert_eq!(lower.to_string(), "13/18");
    assert_eq!(chance(&r, "Bd (O) scores equal"), "1/9");
    assert_eq!(chance(&r, "Bd (O) scores more"), "1/6");
    assert_eq!(chance(&r, "Pk (O) is doubled"), "0/1");
    // R-DBMM-1 reads "doubled" as less than half: 2(a+2) < b+4 for 6 of 36 throws. The sheet's
    // example says 25%: it counts "at most half" (9 of 36) — the house rule below.
    assert_eq!(chance(&r, "Bd (O) is doubled"), "1/6");
    let sheet = sheet_doubling()
        .resolve("close_combat", &bd_v_pk(), None)
        .unwrap();
    assert_eq!(chance(&sheet, "Bd (O) is doubled"), "1/4");
    // Bd beating Pk in the Pk's enemy bound is a quick kill (p. 38–39).
    assert_eq!(chance(&r, "Pk (O) is destroyed"), "1/6");
    assert_eq!(chance(&r, "Bd (O) is destroyed"), "1/6");
    assert_eq!(chance(&r, "Bd (O) recoils"), "5/9");
}

#[test]
fn the_whole_combat_dice_probabilities_table_is_reproduced() {
    // The sheet's table (121 pairings of adjusted values 0–10), transcribed as printed; with the
    // sheet's own "at most half" every figure is the exact count rounded, give or take the 1 the
    // printer rounded the other way, and one misprint.
    let table: Value =
        serde_json::from_str(include_str!("combat_dice_probabilities.json")).unwrap();
    let rows = table["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 121);
    let sheet = Doubled::AtMostHalf;
    for row in rows {
        let (own, vs) = (row["own"].as_i64().unwrap(), row["vs"].as_i64().unwrap());
        let mut c = [0u32; 4];
        for a in 1..=6 {
            for b in 1..=6 {
                let (mine, theirs) = (
                    score_of(a + own, b + vs, sheet),
                    score_of(b + vs, a + own, sheet),
                );
                c[0] += u32::from(matches!(mine, Score::Less | Score::Doubled));
                c[1] += u32::from(mine == Score::Doubled);
                c[2] += u32::from(mine == Score::Greater);
                c[3] += u32::from(theirs == Score::Doubled);
            }
        }
        for (k, key) in ["lower", "doubled", "higher", "doubling"]
            .iter()
            .enumerate()
        {
            let exact = f64::from(c[k]) * 100.0 / 36.0;
            let printed = row[key].as_f64().unwrap();
            if row.get("misprint").is_some() && *key == "doubled" {
                assert_eq!(c[k], 0, "{own} v {vs}: {}", row["misprint"]);
                continue;
            }
            assert!(
                (exact - printed).abs() <= 1.0,
                "{own} v {vs} {key}: exact {exact:.1}%, the sheet prints {printed}%"
            );
        }
    }
}

#[test]
fn knights_against_blades_in_good_going_in_the_knights_bound() {
    // The question: Kn (O) v Bd (O), GGo, Kn's bound. Both d6+4 (Kn +4 v Others, Bd +4 v
    // Mounted): Kn beats Bd in 15 of 36, ties 6, loses 15.
    let r = resolved(
        "close_combat",
        json!({ "a": fighter("Kn", "O"), "b": fighter("Bd", "O"), "bound": "a" }),
    );
    assert_eq!(chance(&r, "Kn (O) scores more"), "5/12");
    assert_eq!(chance(&r, "Kn (O) scores equal"), "1/6");
    // Bd beaten by Kn in GGo in its enemy bound: quick kill; the Kn must pursue (mounted).
    assert_eq!(chance(&r, "Bd (O) is destroyed"), "5/12");
    assert_eq!(chance(&r, "Kn (O) pursues"), "5/12");
    // Kn beaten by Foot not Bd (X), Bw, Sh: repulsed if the player wishes; never doubled here.
    assert_eq!(
        chance(&r, "Kn (O) is repulsed or recoils, as the player chooses"),
        "5/12"
    );
    assert_eq!(chance(&r, "Kn (O) is doubled"), "0/1");
    assert_eq!(odds(&r, "pursue/destroyed"), "5/12");
    let kn_wins = r
        .distribution
        .iter()
        .find(|d| d.result == "pursue/destroyed")
        .unwrap();
    assert!(
        kn_wins.meaning.contains("must pursue (Mounted)"),
        "{}",
        kn_wins.meaning
    );
    // A repulsed opponent is not pursued (p. 42).
    let bd_wins = r
        .distribution
        .iter()
        .find(|d| d.result == "repulsed_or_recoil/stand")
        .unwrap();
    assert!(!bd_wins.meaning.contains("pursue"), "{}", bd_wins.meaning);
    // With dice: Kn 5 + 4 = 9 against Bd 2 + 4 = 6.
    let rolled = load("dbmm")
        .resolve(
            "close_combat",
            &json!({ "a": fighter("Kn", "O"), "b": fighter("Bd", "O"), "bound": "a" }),
            Some(&[5, 2]),
        )
        .unwrap();
    let o = rolled.outcome.unwrap();
    assert_eq!((o.modified, o.result.as_str()), (9, "pursue/destroyed"));
    assert_eq!(
        o.effects
            .iter()
            .map(|e| e.text.as_str())
            .collect::<Vec<_>>(),
        ["Kn (O): pursues", "Bd (O): is destroyed"]
    );
}

#[test]
fn foot_in_difficult_going_lose_one_against_mounted_only_in_good_going() {
    // p. 37: Pk (F), Bd, Wb (S/O), Hd (O) in close combat in DGo −1 "against Mounted (in GGo for
    // them) or Foot"; p. 19 names only Foot (R-DBMM-17).
    let dgo = |t: &str, g: &str| json!({ "element": el(t, g), "going": "DGo" });
    let in_going = |t: &str, g: &str, going: &str| json!({ "element": el(t, g), "going": going });
    let mounted_row = "Pk (F), Bd, Wb (S/O), Hd (O) in close combat in DGo against Mounted in GGo";
    let foot_row = "Pk (F), Bd, Wb (S/O), Hd (O) in close combat in DGo against Foot";
    let factor = |r: &crate::Resolution, text: &str| {
        r.modifiers
            .iter()
            .find(|m| m.label.ends_with(text))
            .map(|m| (m.value, m.rule.clone(), m.ruling.clone()))
    };
    // Against Cv in GGo: −1, citing p. 37 and the ruling.
    let r = resolved(
        "close_combat",
        json!({ "a": dgo("Bd", "O"), "b": in_going("Cv", "O", "GGo"), "bound": "b" }),
    );
    assert_eq!(
        factor(&r, mounted_row),
        Some((-1, "p. 37".into(), Some("R-DBMM-17".into())))
    );
    // Against Cv in RGo or DGo: nothing (it was −1 in any going before issue 22).
    for going in ["RGo", "DGo"] {
        let r = resolved(
            "close_combat",
            json!({ "a": dgo("Wb", "S"), "b": in_going("Cv", "O", going), "bound": "b" }),
        );
        assert_eq!(factor(&r, mounted_row), None, "{going}");
        assert_eq!(factor(&r, foot_row), None, "{going}");
    }
    // Against Foot in any going, as before.
    for going in ["GGo", "DGo"] {
        let r = resolved(
            "close_combat",
            json!({ "a": dgo("Pk", "F"), "b": in_going("Bd", "O", going), "bound": "a" }),
        );
        assert_eq!(
            factor(&r, foot_row),
            Some((-1, "p. 37, p. 19".into(), None)),
            "{going}"
        );
    }
}

#[test]
fn grading_factors_follow_the_first_comparison() {
    // Bd (S) v Bd (O) in the (S)'s bound: +1 on a first tie, +2 on a first win (p. 37), so ties
    // become wins: 21/36.
    let r = resolved(
        "close_combat",
        json!({ "a": fighter("Bd", "S"), "b": fighter("Bd", "O"), "bound": "a" }),
    );
    assert_eq!(chance(&r, "Bd (S) scores more"), "7/12");
    assert_eq!(chance(&r, "Bd (S) scores equal"), "0/1");
    // In the enemy bound, Foot (S) gets +1 only when first behind: a 4 v 5 becomes a tie.
    let r = resolved(
        "close_combat",
        json!({ "a": fighter("Bd", "S"), "b": fighter("Bd", "O"), "bound": "b" }),
    );
    // Ties: 6 (level) + 5 (one behind, lifted); wins 15; losses 10.
    assert_eq!(chance(&r, "Bd (S) scores equal"), "11/36");
    assert_eq!(chance(&r, "Bd (S) scores more"), "5/12");
    // Bd (I): −1 once behind in close combat, so it can now be doubled: 2(a+3) < b+4 → 2 of 36.
    let r = resolved(
        "close_combat",
        json!({ "a": fighter("Bd", "I"), "b": fighter("Bd", "O"), "bound": "a" }),
    );
    assert_eq!(chance(&r, "Bd (I) is doubled"), "1/18");
    assert_eq!(chance(&r, "Bd (I) is destroyed"), "1/18");
}

/// A target must be seen (p. 25): at night 80p without the moon, 160p by moonlight; at dusk
/// 400p; by day as far as the range goes.
#[test]
fn shooting_at_night_sees_as_far_as_the_moon_lets() {
    use crate::contract::CheckStatus;
    let seen = |time: &str, moonlight: bool, range: i64| {
        let r = resolved(
            "shooting",
            json!({ "shooter": fighter("Bw", "O"), "target": fighter("Kn", "O"), "bound": "shooter",
                    "range": range, "time": time, "moonlight": moonlight }),
        );
        r.checks
            .iter()
            .find(|c| c.label.starts_with("The target is within the"))
            .map(|c| (c.label.clone(), c.status, c.rule.clone()))
    };
    assert_eq!(
        seen("night", false, 120),
        Some((
            "The target is within the 80p elements see (Night: moonless), here 120p".into(),
            CheckStatus::NotMet,
            "p. 25".into()
        ))
    );
    assert_eq!(seen("night", true, 120).unwrap().1, CheckStatus::Met);
    assert_eq!(seen("dusk", false, 240).unwrap().1, CheckStatus::Met);
    assert_eq!(seen("day", false, 240), None);
}

#[test]
fn shooting_unanswered_disregards_the_shooters_outcome() {
    // Bw (O) shooting, not shot at: +4 v Mounted; Kn shot at: +4 v Others.
    let r = resolved(
        "shooting",
        json!({ "shooter": fighter("Bw", "O"), "target": fighter("Kn", "O"), "bound": "shooter", "range": 200 }),
    );
    assert_eq!(value(&r, "Bw (O) total before grading"), "d6 +4");
    assert_eq!(value(&r, "Kn (O) total before grading"), "d6 +4");
    assert_eq!(chance(&r, "Bw (O) outcome disregarded"), "1/1");
    // Kn shot at and beaten: the flee exception is for close combat only, so it recoils.
    assert_eq!(chance(&r, "Kn (O) recoils"), "5/12");
    // Kn beating the Bw that shot it may press forward (p. 42), though the Bw's outcome is
    // disregarded.
    let kn_wins = r
        .distribution
        .iter()
        .find(|d| d.result == "disregarded/stand")
        .unwrap();
    assert!(
        kn_wins.meaning.contains("may press forward 80p"),
        "{}",
        kn_wins.meaning
    );
    // Who shoots at whom is a checklist (p. 34); the range entered is checked.
    let range = &r.checks[0];
    assert_eq!(
        (range.label.as_str(), range.status),
        (
            "The target is within 240p (200p)",
            crate::contract::CheckStatus::Met
        )
    );
    assert!(r
        .checks
        .iter()
        .any(|c| c.label.starts_with("Shooting is mandatory")));
    let e = refused(
        "shooting",
        json!({ "shooter": fighter("Bw", "O"), "target": fighter("Kn", "O"), "bound": "shooter", "range": 300 }),
    );
    assert_eq!(
        (e.code.as_str(), e.rule.as_deref()),
        ("situation.out_of_range", Some("p. 34"))
    );
    // Answered: both shot at; Bw then fights at +2 v Others (Bw is the target of Bw).
    let r = resolved(
        "shooting",
        json!({ "shooter": fighter("Bw", "O"), "target": fighter("Bw", "O"), "bound": "shooter", "shoots_back": true }),
    );
    // Two elements of one label are told apart by their role, so each maps to its own unit.
    assert_eq!(value(&r, "Shooter: Bw (O) total before grading"), "d6 +2");
    assert_eq!(value(&r, "Target: Bw (O) total before grading"), "d6 +2");
    assert_eq!(chance(&r, "Shooter: Bw (O) scores more"), "5/12");
}

fn tally(total: f64, destroyed: f64, spent: f64, off: f64) -> Value {
    json!({ "tally": { "total": total, "destroyed": destroyed, "spent": spent, "off_table": off } })
}

#[test]
fn command_thresholds_are_strict_at_their_boundaries() {
    let state = |t: Value| resolved("command_morale", t).distribution[0].result.clone();
    // 12 ME: disheartened past 3, broken past 4 lost or 6 lost-or-spent, shattered past 6 gone.
    let cases = [
        (tally(12.0, 3.0, 0.0, 0.0), "steady"),
        (tally(12.0, 3.5, 0.0, 0.0), "disheartened"),
        (tally(12.0, 2.0, 0.0, 1.5), "disheartened"),
        (tally(12.0, 4.0, 0.0, 0.0), "disheartened"),
        (tally(12.0, 4.5, 0.0, 0.0), "broken"),
        (tally(12.0, 2.0, 4.0, 0.0), "steady"),
        (tally(12.0, 2.0, 4.5, 0.0), "broken"),
        (tally(12.0, 6.0, 0.0, 0.0), "broken"),
        (tally(12.0, 5.0, 0.0, 1.5), "shattered"),
        (tally(12.0, 6.5, 0.0, 0.0), "shattered"),
        (tally(9.0, 2.0, 0.0, 0.0), "steady"),
        (tally(9.0, 2.5, 0.0, 0.0), "disheartened"),
        (tally(9.0, 3.0, 0.0, 0.0), "disheartened"),
        (tally(9.0, 3.5, 0.0, 0.0), "broken"),
    ];
    for (t, want) in cases {
        assert_eq!(state(t.clone()), want, "{t}");
    }
    let r = resolved("command_morale", tally(12.0, 3.0, 0.0, 0.0));
    assert_eq!(value(&r, "Disheartened"), "½ ME to go");
    assert_eq!(value(&r, "Broken: lost >"), "1½ ME to go");
    let e = refused("command_morale", tally(6.0, 4.0, 2.5, 0.0));
    assert_eq!(
        (e.code.as_str(), e.rule.as_deref()),
        ("situation.losses_exceed_command", Some("p. 42"))
    );
}

#[test]
fn a_command_loses_elements_one_by_one() {
    // General's Kn (4 ME) and eight Bd (O) (1 ME each): 12 ME.
    let mut elements = vec![json!({ "element": { "type": "Kn", "grade": "O", "general": true } })];
    elements.extend((0..8).map(|_| json!({ "element": el("Bd", "O") })));
    let mut seen = Vec::new();
    for lost in 0..=8 {
        for (i, e) in elements.iter_mut().enumerate().skip(1) {
            e["state"] = json!(if i <= lost { "destroyed" } else { "in_play" });
        }
        let r = resolved(
            "command_morale",
            json!({ "name": "Left", "elements": elements }),
        );
        assert_eq!(value(&r, "Original ME"), "12 ME");
        seen.push(r.distribution[0].result.clone());
    }
    assert_eq!(
        seen,
        [
            "steady",
            "steady",
            "steady",
            "steady",       // 0–3 lost: not past ¼ of 12
            "disheartened", // 4 > 3
            "broken",
            "broken", // 5, 6 > 4 (⅓); 6 destroyed is not past ½
            "shattered",
            "shattered", // 7 > 6 destroyed
        ]
    );
    // A spent element counts once the general's element is lost (p. 42).
    elements[0]["state"] = json!("spent");
    for e in elements.iter_mut().skip(1) {
        e["state"] = json!("in_play");
    }
    let r = resolved("command_morale", json!({ "elements": elements }));
    assert_eq!(value(&r, "Lost (as counted)"), "4 ME");
    assert_eq!(r.distribution[0].result, "broken");
}

#[test]
fn a_nearby_broken_command_adds_a_temporary_penalty() {
    let mut c = tally(12.0, 3.0, 0.0, 0.0);
    c["nearby_broken_me"] = json!(10);
    let r = resolved("command_morale", c.clone());
    assert_eq!(value(&r, "Nearby broken command"), "+1 ME");
    assert_eq!(r.distribution[0].result, "disheartened");
    c["nearby_broken_me"] = json!(13);
    let r = resolved("command_morale", c);
    assert_eq!(value(&r, "Nearby broken command"), "+2 ME");
    assert_eq!(r.distribution[0].result, "broken");
}

#[test]
fn victory_points_split_25() {
    let army = |total: f64, lost: f64| json!({ "commands": [tally(total, lost, 0.0, 0.0)] });
    // Defender loses 13 of 24 (> ½): defeated. Invader lost 5 of 24: 2 complete tenths → 4 PP,
    // and its command is disheartened (5 > 6? no: steady) → invader 21, defender 4.
    let r = resolved(
        "victory",
        json!({ "invader": army(24.0, 5.0), "defender": army(24.0, 13.0) }),
    );
    assert_eq!(r.distribution[0].result, "21-4");
    // Neither defeated: invader 2 of 20 (1 tenth, 2 PP), defender 5 of 20 (2 tenths → 4, and
    // disheartened: 5 > 5? no) → PP 2 v 4, differ by 2: 14 and 11.
    let r = resolved(
        "victory",
        json!({ "invader": army(20.0, 2.0), "defender": army(20.0, 5.0) }),
    );
    assert_eq!(r.distribution[0].result, "14-11");
    // Equal, neither defeated: defender 12, invader 13.
    let r = resolved(
        "victory",
        json!({ "invader": army(20.0, 2.0), "defender": army(20.0, 2.0) }),
    );
    assert_eq!(r.distribution[0].result, "13-12");
    // Equal, both defeated: defender 13, invader 12.
    let r = resolved(
        "victory",
        json!({ "invader": army(20.0, 11.0), "defender": army(20.0, 11.0) }),
    );
    assert_eq!(r.distribution[0].result, "12-13");
}

#[test]
fn pip_dice_with_the_c_in_cs_allocation() {
    let r = resolved(
        "pips",
        json!({ "commands": [
            { "name": "Centre", "c_in_c": true, "allocated": "highest" },
            { "name": "Left", "allocated": "next" },
            { "name": "Right", "allocated": "lowest" }
        ] }),
    );
    // The highest of three d6 is 6 in 1 − (5/6)³ = 91/216; the lowest is 1 as often.
    assert_eq!(chance(&r, "Centre: 6 PIPs"), "91/216");
    assert_eq!(chance(&r, "Right: 1 PIPs"), "91/216");
    // An Inert C-in-C takes 1 from every command (never below 0).
    let r = resolved(
        "pips",
        json!({ "commands": [{ "c_in_c": true, "inert": true }, { "shattered": true }] }),
    );
    assert_eq!(chance(&r, "Command 1: 0 PIPs"), "1/6");
    assert_eq!(chance(&r, "Command 2: 0 PIPs"), "1/1");
    let r = load("dbmm")
        .resolve(
            "pips",
            &json!({ "commands": [{ "brilliant_stroke": true }, {}] }),
            Some(&[3, 4]),
        )
        .unwrap();
    assert_eq!(r.outcome.unwrap().meaning, "Command 1 6, Command 2 4");
}

#[test]
fn pip_costs_add_their_conditions() {
    let r = resolved(
        "pip_cost",
        json!({ "action": "move", "conditions": ["night", "awkward_troops"] }),
    );
    assert_eq!(r.distribution[0].result, "3");
    let r = resolved(
        "pip_cost",
        json!({ "action": "move", "conditions": ["c_in_c"] }),
    );
    assert_eq!(r.distribution[0].result, "0");
    let e = refused("pip_cost", json!({ "action": "teleport" }));
    assert_eq!(e.code, "situation.unknown_pip_action");
}

#[test]
fn move_or_halt_conditions_add_to_moves_and_halts_only() {
    // p. 27: the C-in-C's −1 and the night +1 are "Move or halt …" rows (issue 22, R-DBMM-18).
    let cost = |action: &str, conditions: Value| {
        resolved(
            "pip_cost",
            json!({ "action": action, "conditions": conditions }),
        )
    };
    // Changing orders with the C-in-C costs 3, not 2; activating an ally at night 3, not 4.
    let r = cost("change_orders", json!(["c_in_c"]));
    assert_eq!(r.distribution[0].result, "3");
    assert!(r.modifiers.is_empty(), "{:?}", r.modifiers);
    assert_eq!(r.total_modifier, 0);
    let note = r
        .notes
        .iter()
        .find(|n| n.message.starts_with("Move or halt, once per bound"))
        .expect("a note for the condition that adds nothing");
    assert!(
        note.message.ends_with(
            "change orders by the C-in-C (not by Brilliant Stroke) is neither a move nor a halt"
        ),
        "{}",
        note.message
    );
    assert_eq!(
        (note.rule.as_str(), note.ruling.as_deref()),
        ("p. 27", Some("R-DBMM-18"))
    );
    assert_eq!(
        cost("activate_ally", json!(["night"])).distribution[0].result,
        "3"
    );
    for other in ["set_up_po", "mount_or_dismount", "feigned_flight"] {
        let r = cost(other, json!(["c_in_c", "night", "general_unable"]));
        assert_eq!(r.distribution[0].result, "2", "{other}");
        assert_eq!(r.notes.len(), 3, "{other}: {:?}", r.notes);
    }
    // A move or a halt still takes them, each cited.
    let r = cost("halt_naval", json!(["c_in_c", "night", "general_unable"]));
    assert_eq!(r.distribution[0].result, "3");
    assert!(r
        .modifiers
        .iter()
        .all(|m| m.rule == "p. 27" && m.ruling.as_deref() == Some("R-DBMM-12")));
    assert_eq!(cost("column", json!(["night"])).distribution[0].result, "2");
    // March conditions belong to moves, the Irr halt to halts; the orders changed last bound
    // names no row and adds to every cost.
    assert_eq!(
        cost(
            "halt_broken_or_impetuous",
            json!(["irr_third_march", "irr_halt"])
        )
        .distribution[0]
            .result,
        "2"
    );
    assert_eq!(
        cost("move", json!(["irr_third_march", "irr_halt"])).distribution[0].result,
        "2"
    );
    assert_eq!(
        cost("change_orders", json!(["orders_changed"])).distribution[0].result,
        "4"
    );
}

#[test]
fn distances_convert_paces_for_the_figure_scale() {
    let r = resolved(
        "distances",
        json!({ "element": el("LH", "O"), "scale": "25mm" }),
    );
    assert_eq!(value(&r, "Move in GGo"), "320p = 480 mm = 18.9\"");
    let r = resolved("distances", json!({ "element": el("Ps", "F") }));
    // (F) +40p (p. 29).
    assert_eq!(value(&r, "Move in GGo"), "240p = 240 mm = 9.4\"");
    let r = resolved("distances", json!({ "element": el("Art", "S") }));
    assert_eq!(value(&r, "Move in DGo"), "may not enter");
    assert_eq!(value(&r, "Shooting range"), "560p = 560 mm = 22.0\"");
}

#[test]
fn the_troop_model_lists_factors_me_and_quick_kills() {
    let r = resolved("element", json!({ "element": el("Sp", "S") }));
    assert_eq!(
        value(&r, "Morale equivalent"),
        "2 ME (Kn | Cv (S) | Cm (S) | El (S/O) | WWg (S/O) | Sp (S) | Bd (S))"
    );
    assert_eq!(value(&r, "Combat factor"), "+4 v Mounted, +4 v Others");
    assert!(value(&r, "Quick kill if it scores less").contains("Destroyed by El"));
    let r = resolved(
        "element",
        json!({ "element": { "type": "Ps", "grade": "O", "irr": true } }),
    );
    assert_eq!(value(&r, "Morale equivalent"), "½ ME (Naval (S/O/I/F) | Irr Pk | Irr Sp (I) | Bw (I) | Ax (O/I/F/X) | Ps | Wb (O/I/F/X) | Hd (S/O/F))");
    let r = resolved(
        "element",
        json!({ "element": { "type": "Kn", "grade": "X", "counts_as": "Kn (I)" } }),
    );
    assert_eq!(value(&r, "Counts as"), "Kn (I)");
}

#[test]
fn bad_elements_and_claims_are_refused_citing_the_page() {
    let cases = [
        (
            json!({ "element": el("Kt", "O") }),
            "situation.unknown_element",
            "p. 36",
        ),
        (
            json!({ "element": el("Train", "O") }),
            "situation.unknown_element",
            "p. 36",
        ),
        (
            json!({ "element": el("Kn", "Q") }),
            "situation.unknown_grade",
            "p. 4–9",
        ),
        (
            json!({ "element": { "type": "Kn", "grade": "O", "counts_as": "Kn (S)" } }),
            "situation.invalid_counts_as",
            "p. 4–9",
        ),
    ];
    for (s, code, rule) in cases {
        let e = refused("element", s.clone());
        assert_eq!(
            (e.code.as_str(), e.rule.as_deref()),
            (code, Some(rule)),
            "{s}"
        );
    }
    let e = refused("element", json!({ "element": el("Train", "O") }));
    assert!(e.message.contains("class of elements"), "{}", e.message);
    let combat = |b: Value| json!({ "a": fighter("Kn", "O"), "b": b, "bound": "a" });
    let support_cases = [
        // Kn cannot support Bd.
        json!({ "element": el("Bd", "O"), "support": { "ranks": [el("Kn", "O")] } }),
        // Not in DGo.
        json!({ "element": el("Pk", "O"), "going": "DGo", "support": { "ranks": [el("Pk", "O")] } }),
        // Not lined up.
        json!({ "element": el("Pk", "O"), "support": { "ranks": [el("Pk", "O")], "lined_up": false } }),
    ];
    for b in support_cases {
        let e = refused("close_combat", combat(b.clone()));
        assert_eq!(
            (e.code.as_str(), e.rule.as_deref()),
            ("situation.support_not_allowed", Some("p. 36")),
            "{b}"
        );
    }
    // Bw behind Bd (S/O) against Foot in the enemy bound: only if the army list permits.
    let e = refused(
        "close_combat",
        json!({ "a": fighter("Bd", "O"), "b": { "element": el("Bd", "S"), "support": { "ranks": [el("Bw", "O")] } }, "bound": "a" }),
    );
    assert_eq!(e.field.as_deref(), Some("b.support.army_list_permits"));
    // A pairing that exists but does not count in this bound is a note, not an error.
    let r = resolved(
        "close_combat",
        json!({ "a": fighter("Kn", "O"), "b": { "element": el("Sp", "O"), "support": { "ranks": [el("Sp", "O")] } }, "bound": "b" }),
    );
    assert!(r
        .notes
        .iter()
        .any(|n| n.message.contains("gives no support here")));
    let e = refused(
        "close_combat",
        combat(json!({ "element": el("Bd", "O"), "factors": ["upslope", "over_po"] })),
    );
    assert_eq!(e.code, "situation.factor_not_applicable");
    let e = refused(
        "close_combat",
        combat(json!({ "element": el("Bd", "O"), "factors": ["fog"] })),
    );
    assert_eq!(e.code, "situation.unknown_factor");
}

#[test]
fn overlaps_are_ignored_where_the_sheet_says() {
    // Mounted in its own bound ignores Foot (not Bw) overlapping it (p. 35).
    let r = resolved(
        "close_combat",
        json!({ "a": { "element": el("Kn", "O"), "overlaps": [{ "type": "Sp" }, { "type": "Bw" }] }, "b": fighter("Sp", "O"), "bound": "a" }),
    );
    assert_eq!(value(&r, "Kn (O) total before grading"), "d6 +3");
    // Kn in Wedge ignores every overlap.
    let r = resolved(
        "close_combat",
        json!({ "a": { "element": { "type": "Kn", "grade": "O", "wedge": true }, "overlaps": [{ "type": "Bw" }] }, "b": fighter("Sp", "O"), "bound": "b" }),
    );
    assert_eq!(value(&r, "Kn (O) total before grading"), "d6 +4");
}

#[test]
fn an_opposed_throw_shows_each_side_die_modifier_and_total() {
    let s = json!({ "a": fighter("Kn", "O"), "b": fighter("Bd", "O"), "bound": "a" });
    let r = load("dbmm")
        .resolve("close_combat", &s, Some(&[4, 3]))
        .unwrap();
    let sides = &r.outcome.unwrap().sides;
    let line: Vec<_> = sides
        .iter()
        .map(|s| (s.label.as_str(), s.die, s.modifier, s.total))
        .collect();
    // Kn against foot 4, Bd against mounted 4 (p. 36): 4 + 4 = 8 against 3 + 4 = 7.
    assert_eq!(line, [("Kn (O)", 4, 4, 8), ("Bd (O)", 3, 4, 7)]);
}

/// A flank or rear contact brings its −1 without being entered twice (p. 37, R-DBMM-16).
#[test]
fn a_flank_contact_implies_the_enemy_front_edge_factor_once() {
    let factor = |contact: &str, entered: u32| {
        let r = resolved(
            "close_combat",
            json!({
                "a": { "element": el("Bd", "O"), "contact": contact, "also_fighting_front": true, "enemy_on_flank_or_rear": entered },
                "b": fighter("Kn", "O"),
                "bound": "b",
            }),
        );
        r.modifiers
            .iter()
            .find(|m| {
                m.label
                    .contains("Each enemy front edge on flank or rear edge")
            })
            .map(|m| (m.value, m.ruling.clone()))
    };
    assert_eq!(factor("front", 0), None);
    assert_eq!(factor("flank", 0), Some((-1, Some("R-DBMM-16".into()))));
    assert_eq!(factor("rear", 1), Some((-1, None)));
    assert_eq!(factor("flank", 2).map(|f| f.0), Some(-2));
}

#[test]
fn the_army_verdict_reads_right_for_a_side_named_in_the_plural() {
    let s = json!({ "name": "Saxons", "commands": [{ "name": "Housecarls", "tally": { "total": 12, "destroyed": 0 } }] });
    let r = resolved("army_morale", s);
    assert_eq!(r.outcome.unwrap().meaning, "Saxons: the army fights on");
}

fn note_with(r: &crate::Resolution, ruling: &str) -> String {
    r.notes
        .iter()
        .find(|n| n.ruling.as_deref() == Some(ruling))
        .map(|n| n.message.clone())
        .unwrap_or_else(|| panic!("no note {ruling} in {:?}", r.notes))
}

fn results(r: &crate::Resolution) -> Vec<String> {
    r.distribution.iter().map(|d| d.result.clone()).collect()
}

/// "Between dusk and sunrise" begins at dusk: the sunset-to-dusk period has no −2 (p. 37,
/// p. 23, R-DBMM-19).
#[test]
fn mounted_lose_two_from_dusk_until_sunrise_not_in_the_dusk_period() {
    for (time, kn_total) in [("day", 4), ("dusk", 4), ("night", 2), ("dawn", 2)] {
        let r = resolved(
            "close_combat",
            json!({ "a": fighter("Kn", "O"), "b": fighter("Bd", "O"), "bound": "a", "time": time }),
        );
        assert_eq!(
            value(&r, "Kn (O) total before grading"),
            format!("d6 +{kn_total}"),
            "{time}"
        );
        let night = r.modifiers.iter().find(|m| m.label.contains("dusk"));
        assert_eq!(night.is_some(), kn_total == 2, "{time}");
        if let Some(m) = night {
            assert_eq!(m.ruling.as_deref(), Some("R-DBMM-19"));
        }
        let noted = r
            .notes
            .iter()
            .any(|n| n.ruling.as_deref() == Some("R-DBMM-19"));
        assert_eq!(noted, time == "dusk", "{time}");
    }
}

/// Sp behind Sp of "same or * grade": read as Pk's "same or higher" (p. 36, R-DBMM-20).
#[test]
fn spear_support_comes_from_spear_of_the_same_or_higher_grade() {
    let support = |front: &str, rear: &str| {
        let r = resolved(
            "close_combat",
            json!({
                "a": { "element": el("Sp", front), "support": { "ranks": [el("Sp", rear)] } },
                "b": fighter("Bd", "O"),
                "bound": "a",
            }),
        );
        r.modifiers
            .iter()
            .find(|m| m.label.contains("Rear support"))
            .map(|m| (m.value, m.ruling.clone()))
    };
    let plus_one = Some((1, Some("R-DBMM-20".to_string())));
    assert_eq!(support("O", "O"), plus_one);
    assert_eq!(
        support("O", "S"),
        plus_one,
        "a higher grade behind supports"
    );
    assert_eq!(support("I", "O"), plus_one);
    assert_eq!(support("S", "O"), None, "a lower grade behind does not");
}

/// Doubled compares with half a positive total only (R-DBMM-21).
#[test]
fn a_total_of_zero_or_less_doubles_nobody() {
    for rule in [Doubled::LessThanHalf, Doubled::AtMostHalf] {
        assert_eq!(score_of(-3, -2, rule), Score::Less, "{rule:?}");
        assert_eq!(score_of(-1, 0, rule), Score::Less, "{rule:?}");
        assert_eq!(score_of(-1, 1, rule), Score::Doubled, "{rule:?}");
        assert_eq!(score_of(0, 1, rule), Score::Doubled, "{rule:?}");
        assert_eq!(score_of(2, 5, rule), Score::Doubled, "{rule:?}");
    }
    // Shaken Ps (O) that marched and cannot recoil: d6 + 2 − 3 reaches 0, and with two enemy
    // front edges on its flanks below.
    let r = resolved(
        "close_combat",
        json!({
            "a": { "element": el("Ps", "O"), "factors": ["shaken", "marched", "unable_to_recoil"], "enemy_on_flank_or_rear": 2 },
            "b": { "element": el("Ps", "O"), "factors": ["shaken", "marched", "unable_to_recoil"] },
            "bound": "a",
        }),
    );
    assert!(note_with(&r, "R-DBMM-21").contains("0 or less"));
    // Either side totals −1 … 5: the only doubled throws are against a positive total.
    let doubled = crate::odds::Probability::parse(&chance(&r, "A: Ps (O) is doubled")).unwrap();
    assert!(doubled.numerator() > 0);
}

/// Ignored overlaps say which line of p. 35 ignores them (R-DBMM-22).
#[test]
fn ignored_overlaps_are_noted_with_their_line() {
    let r = resolved(
        "close_combat",
        json!({ "a": { "element": { "type": "Kn", "grade": "O", "wedge": true }, "overlaps": [{ "type": "Bw" }] }, "b": fighter("Sp", "O"), "bound": "b" }),
    );
    assert!(note_with(&r, "R-DBMM-22").contains("Wedge"));
    // Kn (F) in Wedge against LH is overlapped after all.
    let r = resolved(
        "close_combat",
        json!({ "a": { "element": { "type": "Kn", "grade": "F", "wedge": true }, "overlaps": [{ "type": "Bw" }] }, "b": fighter("LH", "O"), "bound": "b" }),
    );
    assert!(r.modifiers.iter().any(|m| m.label.contains("overlapped")));
    // An El overlapping an element it does not aid (its friend in front is Kn) is ignored.
    let r = resolved(
        "close_combat",
        json!({ "a": { "element": el("Bd", "O"), "overlaps": [{ "type": "El" }] }, "b": fighter("Kn", "O"), "bound": "b" }),
    );
    assert!(note_with(&r, "R-DBMM-22").contains("El not aiding"));
    assert!(!r.modifiers.iter().any(|m| m.label.contains("overlapped")));
}

/// Contacted on its rear edge: equal or more turns 180°, less is destroyed (p. 40); a Kn that
/// wins there turns, it does not pursue (R-DBMM-23).
#[test]
fn an_element_contacted_on_its_rear_edge_turns_or_is_destroyed() {
    let r = resolved(
        "close_combat",
        json!({ "a": { "element": el("Kn", "O"), "contact": "rear" }, "b": fighter("Bd", "O"), "bound": "b" }),
    );
    let kn: Vec<String> = results(&r)
        .iter()
        .map(|x| x.split('/').next().unwrap().to_string())
        .collect();
    assert!(
        kn.iter()
            .all(|f| ["turn", "destroyed"].contains(&f.as_str())),
        "{kn:?}"
    );
    assert!(kn.iter().any(|f| f == "turn") && kn.iter().any(|f| f == "destroyed"));
    let more = r
        .distribution
        .iter()
        .find(|d| d.meaning.starts_with("Kn (O) (>)"))
        .unwrap();
    assert!(
        more.meaning
            .contains("does not pursue (contacted on its rear edge)"),
        "{}",
        more.meaning
    );
    let turn = more
        .effects
        .iter()
        .find(|e| e.text.contains("turns 180°"))
        .unwrap();
    assert_eq!(turn.ruling.as_deref(), Some("R-DBMM-23"));
    // The Bd fighting a rear edge has its outcome disregarded whatever it scores.
    assert!(results(&r).iter().all(|x| x.ends_with("/disregarded")));
    // A flank contact that wins stands (p. 38).
    let r = resolved(
        "close_combat",
        json!({ "a": { "element": el("Bd", "O"), "contact": "flank", "also_fighting_front": true }, "b": fighter("Bd", "O"), "bound": "b" }),
    );
    assert!(results(&r).iter().all(|x| !x.starts_with("turn")));
}

/// A fleeing element that meets enemy it cannot avoid bursts through if more, is destroyed if
/// not, and inflicts no outcome (p. 41).
#[test]
fn a_fleeing_element_bursts_through_enemy_or_is_destroyed() {
    let r = resolved(
        "close_combat",
        json!({ "a": { "element": el("Cv", "O"), "fleeing": true }, "b": fighter("Bd", "O"), "bound": "b" }),
    );
    for d in &r.distribution {
        let (cv, bd) = d.result.split_once('/').unwrap();
        match cv {
            "burst_through" => assert_eq!(bd, "disregarded", "{}", d.meaning),
            "destroyed" => assert_ne!(bd, "disregarded", "{}", d.meaning),
            other => panic!("fleeing Cv {other}"),
        }
    }
    // Cv 3 + d6 against Bd 3 + d6 (p. 36): more on 15 of 36 throws.
    assert_eq!(chance(&r, "Cv (O) bursts through"), "5/12");
    assert_eq!(chance(&r, "Cv (O) is destroyed"), "7/12");
}

/// The friend behind an element destroyed in close combat is destroyed by the same result when
/// what was entered makes it certain (p. 42); otherwise the umpire checks it.
#[test]
fn friends_behind_are_destroyed_with_the_element_in_front() {
    let behind = |friend: Value| {
        resolved(
            "close_combat",
            json!({
                "a": { "element": el("Bd", "O"), "behind": friend },
                "b": { "element": { "type": "Wb", "grade": "O", "irr": true } },
                "bound": "b",
            }),
        )
    };
    let r = behind(json!({ "type": "Bw", "grade": "O", "name": "Archers" }));
    let hit = r
        .distribution
        .iter()
        .find(|d| d.result.starts_with("destroyed/"))
        .unwrap();
    assert!(hit
        .effects
        .iter()
        .any(|e| e.text == "Archers: is destroyed" && e.rule == "p. 42"));
    for d in r
        .distribution
        .iter()
        .filter(|d| !d.result.starts_with("destroyed/"))
    {
        assert!(
            d.effects.iter().all(|e| !e.text.starts_with("Archers")),
            "{}",
            d.meaning
        );
    }
    // Ps behind Bd fighting Kn: only the umpire can tell (edge contact), so no effect.
    let r = resolved(
        "close_combat",
        json!({ "a": { "element": el("Bd", "O"), "behind": { "type": "Ps", "grade": "O", "name": "Skirmishers" } }, "b": fighter("Kn", "O"), "bound": "b" }),
    );
    assert!(r
        .distribution
        .iter()
        .flat_map(|d| &d.effects)
        .all(|e| !e.text.starts_with("Skirmishers")));
    assert!(r.checks.iter().any(|c| c.label.contains("Skirmishers")));
}

/// An (X) element with no line entered is not silently ungraded (p. 4–9, R-DBMM-6).
#[test]
fn an_x_element_without_its_line_is_noted_and_a_wrong_line_lists_the_right_ones() {
    let r = resolved(
        "close_combat",
        json!({ "a": fighter("Kn", "X"), "b": fighter("Bd", "O"), "bound": "a" }),
    );
    let note = note_with(&r, "R-DBMM-6");
    assert!(
        note.contains("Kn (S)") && note.contains("Kn (I)") && note.contains("Kn (O)"),
        "{note}"
    );
    let r = resolved(
        "close_combat",
        json!({ "a": { "element": { "type": "Kn", "grade": "X", "counts_as": "Kn (S)" } }, "b": fighter("Bd", "O"), "bound": "a" }),
    );
    assert!(r
        .notes
        .iter()
        .all(|n| n.ruling.as_deref() != Some("R-DBMM-6")));
    let e = refused(
        "element",
        json!({ "element": { "type": "Kn", "grade": "X", "counts_as": "Kn (F)" } }),
    );
    assert_eq!(e.code, "situation.invalid_counts_as");
    assert!(
        e.message.contains("Kn (S), Kn (I), Kn (O)"),
        "{}",
        e.message
    );
    assert!(!e.message.contains("only for"), "{}", e.message);
    let e = refused(
        "element",
        json!({ "element": { "type": "Kn", "grade": "O", "counts_as": "Kn (S)" } }),
    );
    assert!(
        e.message.starts_with("Only an (X) element"),
        "{}",
        e.message
    );
}

/// Friends a fleeing element bursts through recoil if its ME are equal or more, are spent if
/// less (p. 41).
#[test]
fn fleeing_through_friends_compares_morale_equivalents() {
    for (fleeing, friends, fate) in [
        (el("Cv", "O"), el("Bd", "O"), "recoil"), // 1 ME against 1 ME
        (el("Ps", "O"), el("Bd", "O"), "spent"),  // ½ against 1
        (el("Kn", "O"), el("Bd", "S"), "recoil"), // 2 against 2
        (el("Cv", "O"), el("Bd", "S"), "spent"),  // 1 against 2
        (el("Bd", "O"), el("Bd", "O"), "recoil"), // the same, told apart
    ] {
        let r = resolved(
            "flee_through_friends",
            json!({ "fleeing": fleeing, "friends": friends }),
        );
        let o = r.outcome.as_ref().unwrap();
        assert_eq!(o.result, fate, "{}", o.meaning);
        assert_eq!(o.effects.len(), 1);
        assert_eq!(o.effects[0].rule, "p. 41");
        let target = match &o.effects[0].target {
            crate::contract::Target::Unit(l) => l.clone(),
            other => panic!("{other:?}"),
        };
        assert!(target.ends_with(&format!("({})", friends["grade"].as_str().unwrap())));
        assert!(!target.starts_with("Fleeing"));
    }
}

/// The sheet's choices read as choices: Kn beaten by Foot may be repulsed, or recoil as the
/// general outcome says (p. 38–39); the effect and the forecast say both.
#[test]
fn a_repulse_the_player_may_choose_is_shown_as_a_choice() {
    let r = resolved(
        "close_combat",
        json!({ "a": fighter("Kn", "O"), "b": fighter("Sp", "O"), "bound": "b" }),
    );
    let row = r
        .distribution
        .iter()
        .find(|d| d.result.starts_with("repulsed_or_recoil/"))
        .unwrap_or_else(|| panic!("{:?}", results(&r)));
    assert!(
        row.meaning
            .contains("is repulsed or recoils, as the player chooses"),
        "{}",
        row.meaning
    );
    assert!(row
        .effects
        .iter()
        .any(|e| e.text == "Kn (O): is repulsed or recoils, as the player chooses"));
    assert!(!results(&r).iter().any(|x| x.starts_with("repulsed/")));
    let p = chance(&r, "Kn (O) is repulsed or recoils, as the player chooses");
    assert_eq!(p, chance(&r, "Kn (O) scores less, not doubled"));
}

/// Whose bound it is, in the sheet's words for each element.
#[test]
fn the_bound_is_each_elements_own_or_enemy_bound() {
    let r = resolved(
        "close_combat",
        json!({ "a": fighter("Kn", "O"), "b": fighter("Bd", "O"), "bound": "b" }),
    );
    assert_eq!(value(&r, "Bound"), "Kn (O): enemy bound; Bd (O): own bound");
    let r = resolved(
        "shooting",
        json!({ "shooter": fighter("Bw", "O"), "target": fighter("Bd", "O"), "bound": "shooter" }),
    );
    assert_eq!(value(&r, "Bound"), "Bw (O): own bound; Bd (O): enemy bound");
}

/// The entry refusals of issue 22: each names its field and rule, none is a panic.
#[test]
fn impossible_entries_are_refused_as_such() {
    // Three edges take at most three enemy front edges (p. 37).
    let e = refused(
        "close_combat",
        json!({ "a": { "element": el("Bd", "O"), "enemy_on_flank_or_rear": 4 }, "b": fighter("Kn", "O"), "bound": "b" }),
    );
    assert_eq!(
        (e.code.as_str(), e.field.as_deref()),
        (
            "situation.invalid_contact",
            Some("a.enemy_on_flank_or_rear")
        )
    );
    resolved(
        "close_combat",
        json!({ "a": { "element": el("Bd", "O"), "enemy_on_flank_or_rear": 3 }, "b": fighter("Kn", "O"), "bound": "b" }),
    );
    // A command of 0 ME has no thresholds (p. 42).
    for command in [
        json!({ "tally": { "total": 0 } }),
        json!({ "elements": [{ "element": el("Exp", "O") }] }),
    ] {
        let e = refused("command_morale", command.clone());
        assert_eq!(e.code, "situation.no_morale_equivalents", "{command}");
    }
    // A negative range is no distance, not one out of range (p. 34).
    let shoot = |range: i64| {
        load("dbmm").resolve(
            "shooting",
            &json!({ "shooter": fighter("Bw", "O"), "target": fighter("Bd", "O"), "bound": "shooter", "range": range }),
            None,
        )
    };
    assert_eq!(shoot(-40).unwrap_err().code, "situation.invalid_range");
    assert_eq!(
        shoot(100_000 / 100).unwrap_err().code,
        "situation.out_of_range"
    );
    // A missing choice is named with its choices, and its field is the missing one itself.
    let e = refused(
        "close_combat",
        json!({ "a": fighter("Bd", "O"), "b": fighter("Pk", "O") }),
    );
    assert_eq!(e.field.as_deref(), Some("bound"), "{e:?}");
    assert_eq!(e.message, "The bound is missing: choose a or b.");
    // 0 paces is contact, fought in close combat, not shot (issue 34 item 7).
    let e = shoot(0).unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.field.as_deref()),
        ("situation.invalid_range", Some("range"))
    );
    assert!(e.message.contains("close combat"), "{}", e.message);
    assert!(shoot(40).is_ok());
}

/// Every figure scale R-DBMM-14 covers is accepted by its size; sizes it does not cover are
/// refused with the sizes it does.
#[test]
fn every_figure_scale_the_ruling_covers_is_accepted() {
    let at = |scale: &str| {
        load("dbmm").resolve(
            "distances",
            &json!({ "element": el("LH", "O"), "scale": scale }),
            None,
        )
    };
    for (scale, key) in [
        ("6mm", "15mm"),
        ("10mm", "15mm"),
        ("15mm", "15mm"),
        ("20mm", "25mm"),
        ("25mm", "25mm"),
        ("28mm", "25mm"),
        ("28 mm", "25mm"),
    ] {
        let r = at(scale).unwrap_or_else(|e| panic!("{scale}: {}", e.one_line()));
        assert_eq!(r.outcome.unwrap().result, key, "{scale}");
    }
    let e = at("18mm").unwrap_err();
    assert_eq!(e.code, "situation.unknown_scale");
    assert!(e.message.contains("20–28 mm figures"), "{}", e.message);
}

/// Going by element: the special cases of the terrain definitions (p. 19) and wading (p. 20).
#[test]
fn going_depends_on_the_element_in_the_special_cases_and_rivers() {
    let going = |situation: Value| {
        let r = resolved("going", situation);
        r.outcome.unwrap().result
    };
    let cases = [
        // Elephants in SH and SF are in good going; camelry in dunes too.
        (
            json!({ "element": el("El", "O"), "terrain": "SH", "going": "RGo" }),
            "GGo",
        ),
        (
            json!({ "element": el("El", "O"), "terrain": "SF", "going": "RGo" }),
            "GGo",
        ),
        (
            json!({ "element": el("El", "O"), "terrain": "RH", "going": "RGo" }),
            "DGo",
        ),
        (
            json!({ "element": el("Cm", "O"), "terrain": "D", "going": "DGo" }),
            "GGo",
        ),
        (
            json!({ "element": el("Bge", "F"), "terrain": "D", "going": "DGo" }),
            "GGo",
        ),
        (
            json!({ "element": el("Cv", "O"), "camelry": true, "terrain": "SH", "going": "RGo" }),
            "DGo",
        ),
        (
            json!({ "element": el("Kn", "O"), "chariots": true, "terrain": "SF", "going": "RGo" }),
            "DGo",
        ),
        // No special case: the terrain's own going.
        (
            json!({ "element": el("Bd", "O"), "terrain": "SH", "going": "RGo" }),
            "RGo",
        ),
        (
            json!({ "element": el("Kn", "O"), "terrain": "CH" }),
            "impassable",
        ),
        // Wading: a river 80p or wider is DGo for Foot, RGo for Mounted not Exp or chariots.
        (
            json!({ "element": el("Bd", "O"), "river": { "width": 120 } }),
            "DGo",
        ),
        (
            json!({ "element": el("Cv", "O"), "river": { "width": 120 } }),
            "RGo",
        ),
        (
            json!({ "element": el("Exp", "O"), "river": { "width": 120 } }),
            "DGo",
        ),
        (
            json!({ "element": el("Cv", "O"), "chariots": true, "river": { "width": 120 } }),
            "DGo",
        ),
        (
            json!({ "element": el("Cv", "O"), "river": { "width": 120, "state": "spate" } }),
            "DGo",
        ),
        (
            json!({ "element": el("Bd", "O"), "river": { "width": 120, "state": "low" } }),
            "RGo",
        ),
        // Narrower than 80p: Foot RGo, Mounted and Train DGo.
        (
            json!({ "element": el("Bd", "O"), "river": { "width": 40 } }),
            "RGo",
        ),
        (
            json!({ "element": el("Cv", "O"), "river": { "width": 40 } }),
            "DGo",
        ),
        (
            json!({ "element": el("Bge", "O"), "river": { "width": 40 } }),
            "DGo",
        ),
    ];
    for (situation, want) in cases {
        assert_eq!(going(situation.clone()), want, "{situation}");
    }
    let e = refused(
        "going",
        json!({ "element": el("Bd", "O"), "river": { "width": -5 } }),
    );
    assert_eq!(e.code, "situation.invalid_range");
}

/// The climate table's times bound the periods of the day (p. 23–24, R-DBMM-19); visibility is
/// the shorter of the period's and the weather's (p. 25).
/// MOON EFFECTS (p. 23, R-DBMM-31) by the Invader's first deployment die: 1 no moon; 3, 5 rise at
/// the start of the first night bound after that bound and stay up; 2, 4, 6 are up at sunset and
/// set at the end of the first night bound after that bound. Up, elements see 160p (80p in mist).
#[test]
fn the_moon_die_says_when_the_moon_lights_the_night() {
    use super::daylight::{moon_up, MoonCourse};
    // A night beginning in bound 2: a moon die of 3 rises in bound 4, one of 2 sets after bound 3.
    assert!(!moon_up(MoonCourse::Rises, 3, 3, 2));
    assert!(moon_up(MoonCourse::Rises, 3, 4, 2));
    assert!(moon_up(MoonCourse::Sets, 2, 3, 2));
    assert!(!moon_up(MoonCourse::Sets, 2, 4, 2));
    // A night beginning late (bound 12): the first night bound after bound 5 is bound 12 itself.
    assert!(moon_up(MoonCourse::Rises, 5, 12, 12));
    assert!(moon_up(MoonCourse::Sets, 6, 12, 12));
    assert!(!moon_up(MoonCourse::Sets, 6, 13, 12));
    assert!(!moon_up(MoonCourse::None, 1, 12, 12));
    let night = |die: u32, bound: u32, weather: &str| {
        let r = resolved(
            "daylight",
            json!({ "climate": "Warm", "season": "Summer", "clock": "23:00", "weather": weather,
                    "moon_die": die, "bound": bound, "night_began": 2 }),
        );
        (
            r.outcome.clone().unwrap().result,
            value(&r, "Visibility"),
            value(&r, "The moon"),
        )
    };
    assert_eq!(
        night(3, 4, "clear"),
        (
            "night_moonlight".to_string(),
            "160p".to_string(),
            "Rises at the start of the 1st night bound after bound 3; sets after sunrise: up now"
                .to_string()
        )
    );
    assert_eq!(night(3, 3, "clear").1, "80p");
    assert_eq!(night(4, 5, "mist").1, "80p");
    assert_eq!(night(1, 9, "clear").2, "No moon: not up now");
    // Without the bound the moon's course is shown and the umpire says whether it is up.
    let r = resolved(
        "daylight",
        json!({ "climate": "Warm", "season": "Summer", "clock": "23:00", "moon_die": 5, "moonlight": true }),
    );
    assert_eq!(value(&r, "Visibility"), "160p");
    assert!(r
        .checks
        .iter()
        .any(|c| c.ruling.as_deref() == Some("R-DBMM-31")));
    for (situation, field) in [
        (json!({ "moon_die": 7 }), "moon_die"),
        (
            json!({ "moon_die": 2, "bound": 3, "night_began": 4 }),
            "night_began",
        ),
        // Bounds are counted from 1 (issue 34 item 7).
        (json!({ "moon_die": 2, "bound": 0 }), "bound"),
        (
            json!({ "moon_die": 2, "bound": 3, "night_began": 0 }),
            "night_began",
        ),
    ] {
        let mut s = json!({ "climate": "Warm", "season": "Summer", "clock": "23:00" });
        s.as_object_mut()
            .unwrap()
            .extend(situation.as_object().unwrap().clone());
        assert_eq!(refused("daylight", s).field.as_deref(), Some(field));
    }
}

#[test]
fn the_clock_gives_the_period_of_the_day_and_how_far_elements_see() {
    let at = |clock: &str, weather: &str, moonlight: bool| {
        let r = resolved(
            "daylight",
            json!({ "climate": "Warm", "season": "Summer", "clock": clock, "weather": weather, "moonlight": moonlight }),
        );
        (r.outcome.clone().unwrap().result, value(&r, "Visibility"))
    };
    // Warm summer: dawn 04:30, sunrise 05:00, sunset 19:00, dusk 19:30.
    let want = [
        ("04:29", "clear", false, "night_moonless", "80p"),
        ("04:30", "clear", true, "dawn", "400p"),
        ("05:00", "clear", false, "day", "no limit"),
        ("12:00", "fog", false, "day", "80p"),
        ("19:00", "clear", false, "dusk", "400p"),
        ("19:15", "snow", false, "dusk", "160p"),
        ("19:30", "clear", true, "night_moonlight", "160p"),
        ("23:59", "mist", true, "night_moonlight", "80p"),
    ];
    for (clock, weather, moon, period, seen) in want {
        assert_eq!(
            at(clock, weather, moon),
            (period.to_string(), seen.to_string()),
            "{clock} {weather}"
        );
    }
    for (situation, code) in [
        (
            json!({ "climate": "Arctic", "season": "Summer", "clock": "12:00" }),
            "situation.unknown_climate",
        ),
        (
            json!({ "climate": "Warm", "season": "Summer", "clock": "25:00" }),
            "situation.invalid_clock",
        ),
        (
            json!({ "climate": "Warm", "season": "Summer", "clock": "12:00", "weather": "rain" }),
            "situation.unknown_weather",
        ),
    ] {
        assert_eq!(refused("daylight", situation).code, code);
    }
}

/// WEATHER EFFECT (p. 25): mist sees less at night, fog limits moves, and after 6 bounds of
/// rain Art and Sh no longer shoot.
#[test]
fn weather_limits_sight_and_moves_and_rain_stops_art_and_sh() {
    let r = resolved(
        "daylight",
        json!({ "climate": "Cool", "season": "Autumn", "clock": "23:00", "weather": "mist", "moonlight": true }),
    );
    assert_eq!(value(&r, "Visibility"), "80p");
    assert_eq!(value(&r, "Moves at most"), "120p");
    let r = resolved(
        "daylight",
        json!({ "climate": "Cool", "season": "Autumn", "clock": "12:00", "weather": "fog" }),
    );
    assert_eq!(value(&r, "Moves at most"), "120p");
    let shoot = |shooter: &str, rain: u32| {
        load("dbmm").resolve(
            "shooting",
            &json!({ "shooter": fighter(shooter, "O"), "target": fighter("Bd", "O"), "bound": "shooter", "bounds_of_rain": rain }),
            None,
        )
    };
    assert!(shoot("Art", 5).is_ok());
    let e = shoot("Art", 6).unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.rule.as_deref()),
        ("situation.cannot_shoot", Some("p. 25"))
    );
    assert!(shoot("Sh", 7).is_err());
    assert!(shoot("Bw", 9).is_ok());
}

mod setup {
    use super::*;
    use crate::odds::Probability;

    fn armies(rome_adjustment: i64) -> Value {
        json!({ "sides": [
            { "name": "Rome", "aggression": 1, "season": "Summer", "climate": "Warm",
              "deployment_adjustment": rome_adjustment, "mounted_ps_bge_only": rome_adjustment != 0 },
            { "name": "Parthia", "aggression": 2, "season": "Spring", "climate": "Dry" }
        ]})
    }

    fn thrown(situation: &Value, dice: &[u32]) -> crate::Resolution {
        thrown_with(&load("dbmm"), situation, dice)
    }

    fn thrown_with(rules: &Ruleset, situation: &Value, dice: &[u32]) -> crate::Resolution {
        rules
            .resolve("setup", situation, Some(dice))
            .unwrap_or_else(|e| panic!("{dice:?}: {}", e.one_line()))
    }

    fn fraction(text: &str) -> (u128, u128) {
        let (n, d) = text.split_once('/').unwrap_or((text, "1"));
        (n.parse().unwrap(), d.parse().unwrap())
    }

    /// The forecast of who deploys first and who takes the first bound is what applying every
    /// deciding pair of throws gives, each pair of aggression throws equally likely and each
    /// deployment throw equally likely among those that decide.
    #[test]
    fn forecast_agrees_with_every_deciding_throw() {
        let rules = load("dbmm");
        for adjustment in [3, -1] {
            let situation = armies(adjustment);
            let r = rules.resolve("setup", &situation, None).unwrap();
            // Every count of deciding deployment throws (30, 31, 33) divides this.
            let whole = 30 * 31 * 33u128;
            let mut deploys: std::collections::BTreeMap<String, u128> = Default::default();
            let mut aggression_throws = 0u128;
            for a in 1..=6u32 {
                for b in 1..=6u32 {
                    if a + 1 == b + 2 {
                        continue;
                    }
                    aggression_throws += 1;
                    let rome_invades = a + 1 > b + 2;
                    let (inv_adj, def_adj) = if rome_invades {
                        (adjustment, 0)
                    } else {
                        (0, adjustment)
                    };
                    let deciding: Vec<(u32, u32)> = (1..=6)
                        .flat_map(|x| (1..=6).map(move |y| (x, y)))
                        .filter(|(x, y)| i64::from(*x) + inv_adj != i64::from(*y) + def_adj)
                        .collect();
                    for (x, y) in &deciding {
                        let got = thrown_with(&rules, &situation, &[a, b, *x, *y]);
                        for key in ["Deploys first", "First bound"] {
                            let label = format!("{} {key}", value(&got, key));
                            *deploys.entry(label).or_default() += whole / deciding.len() as u128;
                        }
                    }
                }
            }
            for (label, n) in deploys {
                let (who, key) = label.split_once(' ').unwrap();
                let forecast_label = if key == "Deploys first" {
                    format!("{who} deploys first")
                } else {
                    format!("{who} takes the first bound")
                };
                assert_eq!(
                    chance(&r, &forecast_label),
                    Probability::new(n, whole * aggression_throws).to_string(),
                    "{forecast_label} with Rome's adjustment {adjustment}"
                );
            }
            let (n, d) = fraction(&odds(&r, "invader_a"));
            // Rome wins when a − b > 1: (3,1) (4,1) (4,2) (5,1…3) (6,1…4) = 10 of 31 deciding.
            assert_eq!((n, d), (10, 31));
        }
    }

    #[test]
    fn the_invader_doubling_deploys_first_and_a_night_attack_is_the_second_sides_choice() {
        // Parthia 3 + 2 beats Rome 1 + 1 and invades; its 6 doubles Rome's 3 — Parthia deploys
        // first; deployment ends at 09:00, day; Parthia deployed first so takes the first bound.
        let r = thrown(&armies(0), &[1, 3, 6, 3]);
        assert_eq!(value(&r, "Invader"), "Parthia");
        assert_eq!(value(&r, "Deploys first"), "Parthia");
        assert_eq!(value(&r, "Weather score"), "3");
        assert_eq!(value(&r, "Deployment complete"), "09:00");
        assert_eq!(value(&r, "First bound"), "Parthia");
        // Deployment ends at 03:00, before dawn: the battle starts at sunrise unless the side
        // deploying second starts a night attack.
        let r = thrown(&armies(0), &[1, 3, 1, 2]);
        assert_eq!(value(&r, "Deploys first"), "Rome");
        assert_eq!(value(&r, "Deployment complete"), "03:00");
        // Rome defends, so the battle is in a Warm Spring (dawn 05:30, sunrise 06:00).
        assert!(
            value(&r, "Battle starts").starts_with("06:00 (sunrise)"),
            "{:?}",
            r.totals
        );
        assert_eq!(value(&r, "First bound"), "Rome");
        let mut night = armies(0);
        night["night_attack"] = json!(true);
        let r = thrown(&night, &[1, 3, 1, 2]);
        assert!(value(&r, "Battle starts").starts_with("03:00 (a night attack)"));
        // Night visibility (80p moonless) is below 400p: the Invader takes the first bound.
        assert_eq!(value(&r, "Visibility at the start"), "80p");
        assert_eq!(value(&r, "First bound"), "Parthia");
    }

    #[test]
    fn an_inert_c_in_c_gives_the_other_side_the_first_bound() {
        let mut s = armies(0);
        s["sides"][1]["inert_c_in_c"] = json!(true);
        let r = thrown(&s, &[1, 3, 6, 3]);
        assert_eq!(value(&r, "First bound"), "Rome");
    }

    #[test]
    fn set_up_refusals() {
        let mut s = armies(0);
        s["sides"][0]["deployment_adjustment"] = json!(3);
        assert_eq!(refused("setup", s).code, "situation.invalid_field");
        let mut s = armies(0);
        s["sides"][0]["deployment_adjustment"] = json!(2);
        s["sides"][0]["mounted_ps_bge_only"] = json!(true);
        assert_eq!(refused("setup", s).code, "situation.invalid_field");
        let mut s = armies(0);
        s["sides"][1]["aggression"] = json!(5);
        assert_eq!(refused("setup", s).code, "situation.invalid_range");
        let mut s = armies(0);
        s["sides"][1]["season"] = json!("Monsoon");
        assert_eq!(refused("setup", s).code, "situation.unknown_season");
        // A die too many, or a face no d6 shows, is refused.
        for dice in [&[1u32, 3, 6, 3, 4][..], &[1, 3, 7, 3]] {
            let e = load("dbmm")
                .resolve("setup", &armies(0), Some(dice))
                .unwrap_err();
            assert_eq!(e.code, "dice.invalid", "{dice:?}");
        }
    }

    /// The dice are asked in turn: a pair for aggression again while the scores are equal, then
    /// the Invader's and the Defender's deployment dice, again while those are equal.
    #[test]
    fn set_up_asks_its_dice_in_turn() {
        let rules = load("dbmm");
        let laid = |dice: &[u32]| -> (Vec<String>, bool) {
            let r = rules.resolve("setup", &armies(0), Some(dice)).unwrap();
            let named = r
                .shown
                .faces
                .iter()
                .map(|d| {
                    format!(
                        "{} {}",
                        d.label.clone().unwrap_or_default(),
                        d.purpose.clone().unwrap_or_default()
                    )
                })
                .collect();
            (named, r.outcome.is_some())
        };
        let r = rules.resolve("setup", &armies(0), None).unwrap();
        assert!(r.shown.in_turn);
        assert_eq!(r.shown.faces.len(), 2);
        // 2 + 1 = 1 + 2: equal scores, another pair of aggression dice.
        assert_eq!(
            laid(&[2, 1]).0,
            [
                "Rome aggression",
                "Parthia aggression",
                "Rome aggression",
                "Parthia aggression"
            ]
        );
        // Parthia (3 + 2) invades: its deployment die first.
        let (named, done) = laid(&[1, 3]);
        assert_eq!(
            (&named[2..], done),
            (
                &[
                    "Parthia deployment".to_string(),
                    "Rome deployment".to_string()
                ][..],
                false
            )
        );
        assert!(laid(&[1, 3, 6]).0.len() == 4 && !laid(&[1, 3, 6]).1);
        assert!(laid(&[1, 3, 6, 3]).1);
    }

    /// The climate table's weather (p. 23–24, R-DBMM-30): column 0 for every row, one cell per
    /// column in a row of five, a row of one cell (or of one weather) for every column, and the
    /// row's distinct cells as the umpire's choices otherwise.
    #[test]
    fn the_climate_table_gives_the_weather_or_the_rows_choices() {
        let rules = load("dbmm");
        let data = rules.data::<crate::systems::dbmm::Dbmm>().expect("dbmm");
        let d = &data.daylight;
        let row = |climate: &str, season: &str| {
            d.times
                .iter()
                .find(|r| r.climate == climate && r.season == season)
                .unwrap()
        };
        let weather = |climate: &str, season: &str, score: u32| {
            super::super::daylight::climate_weather(d, row(climate, season), score)
        };
        let one = |w: &str| (vec![w.to_string()], true);
        assert_eq!(weather("Cold", "Autumn", 0), one("Perfect clear and dry"));
        assert_eq!(weather("Dry", "Winter", 4), one("Strong wind S"));
        assert_eq!(
            weather("Cool", "Summer", 5),
            one("Light wind SW / Risk of dazzle")
        );
        assert_eq!(weather("Cold", "Winter", 3), one("Light wind NE"));
        assert_eq!(weather("Warm", "Winter", 2), one("Light wind NW"));
        assert_eq!(
            weather("Warm", "Spring", 2),
            (vec!["Light wind NW".into(), "Strong wind S".into()], false)
        );
        // Every row of the table has its cells; none has more than the five columns.
        assert_eq!(d.times.len(), 20);
        assert!(d.times.iter().all(|r| (1..=5).contains(&r.weathers.len())));
    }

    #[test]
    fn placing_terrain() {
        let r = load("dbmm")
            .resolve("place_terrain", &json!({ "terrain": "RH" }), Some(&[6, 2]))
            .unwrap();
        let meaning = &r.outcome.unwrap().meaning;
        assert!(
            meaning.contains("marked by the Invader") && meaning.contains("160p: at least"),
            "{meaning}"
        );
        let e = load("dbmm")
            .resolve("place_terrain", &json!({ "terrain": "BUA" }), Some(&[1, 1]))
            .unwrap_err();
        assert_eq!(e.code, "dice.not_rolled");
        assert_eq!(
            refused("place_terrain", json!({ "terrain": "Swamp" })).code,
            "situation.unknown_terrain"
        );
    }
}

mod weather {
    use super::*;

    fn changed(situation: Value) -> crate::Resolution {
        resolved("weather", situation)
    }

    #[test]
    fn the_defenders_average_turns_the_wind_and_a_strong_wind_turned_back_drops() {
        // Defender 1, 2, 3: average 2 → 45° clockwise (SW → W).
        let r = changed(
            json!({ "defender_pips": [1, 2, 3], "invader_pips": [4], "wind": "strong", "wind_from": "SW" }),
        );
        assert_eq!(value(&r, "Wind"), "Strong wind W (shifted 45° clockwise)");
        assert_eq!(value(&r, "Defender's PIPs average"), "2");
        // Defender 5, 6: average 11/2 → anticlockwise (NE → N), and the strong wind drops.
        let r = changed(
            json!({ "defender_pips": [5, 6], "invader_pips": [4], "wind": "strong", "wind_from": "NE" }),
        );
        assert_eq!(
            value(&r, "Wind"),
            "Light wind N (shifted 45° anticlockwise)"
        );
        // 2, 3: average 5/2 is above 2 and below 5 — no shift (exact, not rounded).
        let r = changed(
            json!({ "defender_pips": [2, 3], "invader_pips": [4], "wind": "light", "wind_from": "N" }),
        );
        assert_eq!(value(&r, "Wind"), "Light wind N (unchanged)");
        // NW turned clockwise is N.
        let r = changed(
            json!({ "defender_pips": [1], "invader_pips": [4], "wind": "light", "wind_from": "NW" }),
        );
        assert_eq!(value(&r, "Wind"), "Light wind N (shifted 45° clockwise)");
    }

    #[test]
    fn rain_starts_ceases_or_stays_by_any_sides_average() {
        let rain = |def: &[u32], inv: &[u32], falling: bool| {
            let r = changed(
                json!({ "defender_pips": def, "invader_pips": inv, "risk": "rain", "falling": falling }),
            );
            value(&r, "Rain, snow or dust storm")
        };
        assert_eq!(rain(&[4], &[5], false), "The rain starts");
        assert_eq!(rain(&[4], &[4], false), "Risk of rain remains");
        assert_eq!(rain(&[3], &[4], false), "The risk of rain ends");
        assert_eq!(rain(&[4, 3], &[4], true), "The rain goes on");
        assert_eq!(rain(&[4], &[2, 4], true), "The rain ceases");
        assert!(rain(&[6], &[1], false).contains("no change"));
    }

    #[test]
    fn fog_clears_by_a_low_average_or_three_hours_after_sunrise() {
        let fog = |def: u32, hours: u32| {
            let r = changed(
                json!({ "defender_pips": [def], "invader_pips": [6], "haze": "fog", "hours_after_sunrise": hours }),
            );
            value(&r, "Fog or mist")
        };
        assert_eq!(fog(4, 2), "The fog stays");
        assert!(fog(3, 2).starts_with("The fog clears (a PIPs average"));
        assert!(fog(4, 3).starts_with("The fog clears (3 hours"));
    }

    #[test]
    fn weather_refusals_and_effect_lines() {
        let r = changed(
            json!({ "defender_pips": [4], "invader_pips": [4], "effects": ["dazzle", "thirst"] }),
        );
        assert_eq!(r.checks.len(), 2);
        assert!(r.checks[0].label.starts_with("Dazzle: −1 TF"));
        for bad in [
            json!({ "defender_pips": [], "invader_pips": [4] }),
            json!({ "defender_pips": [7], "invader_pips": [4] }),
            json!({ "defender_pips": [4], "invader_pips": [4], "wind": "light" }),
            json!({ "defender_pips": [4], "invader_pips": [4], "wind": "light", "wind_from": "NNE" }),
            json!({ "defender_pips": [4], "invader_pips": [4], "falling": true }),
            json!({ "defender_pips": [4], "invader_pips": [4], "effects": ["hail"] }),
        ] {
            assert_eq!(
                refused("weather", bad.clone()).code,
                "situation.invalid_field",
                "{bad}"
            );
        }
    }
}

/// Mud (p. 25): an unpaved Rd is RGo, F and BF DGo, the worse of this and an element's own case
/// (R-DBMM-28).
#[test]
fn mud_makes_roads_rough_and_fields_difficult() {
    let going = |t: &str, g: &str, mud: bool, element: Value| {
        let r = resolved(
            "going",
            json!({ "element": element, "terrain": t, "going": g, "mud": mud }),
        );
        value(&r, "Going")
    };
    assert_eq!(going("Rd", "GGo", true, el("Bd", "O")), "RGo");
    assert_eq!(going("Rd", "GGo", false, el("Bd", "O")), "GGo");
    assert_eq!(going("BF", "RGo", true, el("Bd", "O")), "DGo");
    assert_eq!(going("F", "GGo", true, el("Kn", "O")), "DGo");
    // SF is not muddy: elephants keep their good going there.
    assert_eq!(going("SF", "RGo", true, el("El", "O")), "GGo");
    // A terrain worse already stays so.
    assert_eq!(going("CH", "DGo", true, el("Bd", "O")), "impassable");
}

/// The terrain table's "Quick Kill deny" column (p. 19, R-DBMM-29): Kn in RGo gets no quick
/// kill, so Bd it beats in its bound recoil and are destroyed only when doubled; Wb fighting from
/// DGo do not quick-kill Bd either; the denial is noted with its ruling.
#[test]
fn the_winners_going_denies_its_quick_kill() {
    let against_bd = |t: &str, going: &str| {
        resolved(
            "close_combat",
            json!({ "a": { "element": el(t, "O"), "going": going }, "b": fighter("Bd", "O"), "bound": "a" }),
        )
    };
    // A fate the dice never give has no line of its own.
    let destroyed = |r: &crate::Resolution| {
        r.forecast
            .iter()
            .find(|c| c.label == "Bd (O) is destroyed")
            .map_or("0/1".to_string(), |c| c.probability.clone())
    };
    // In GGo every Kn win destroys the Bd (5/12, above); in RGo only a doubled Bd dies.
    assert_eq!(destroyed(&against_bd("Kn", "GGo")), "5/12");
    let rough = against_bd("Kn", "RGo");
    assert_eq!(destroyed(&rough), chance(&rough, "Bd (O) is doubled"));
    assert_eq!(
        chance(&rough, "Bd (O) recoils"),
        chance(&rough, "Kn (O) scores more")
    );
    let said = note_with(&rough, "R-DBMM-29");
    assert!(
        said.starts_with("No quick kill for Kn, Cv, LH, Cm in RGo: Bd (O) is not “destroyed in GGo by Exp, Kn, Cm (S)”"),
        "{said}"
    );
    assert!(against_bd("Kn", "GGo")
        .notes
        .iter()
        .all(|n| n.ruling.as_deref() != Some("R-DBMM-29")));
    // Bd beaten by Wb in the Wb's bound: destroyed, unless the Wb fight from DGo.
    let good = against_bd("Wb", "GGo");
    assert_eq!(destroyed(&good), chance(&good, "Wb (O) scores more"));
    let difficult = against_bd("Wb", "DGo");
    assert_eq!(
        destroyed(&difficult),
        chance(&difficult, "Bd (O) is doubled")
    );
    assert!(note_with(&difficult, "R-DBMM-29")
        .starts_with("No quick kill in DGo for any but Ax, Bw, Ps"));
    // Ax keep theirs in DGo: El beaten by elephant-killer Ax are destroyed.
    let ax = resolved(
        "close_combat",
        json!({ "a": { "element": { "type": "Ax", "grade": "O", "elephant_killer": true }, "going": "DGo" },
                "b": fighter("El", "O"), "bound": "a" }),
    );
    assert_eq!(
        chance(&ax, "El (O) is destroyed"),
        chance(&ax, "Ax (O) scores more")
    );
}

/// Where an element may deploy (p. 21–22, R-DBMM-32): 240p from the centre line for the army
/// deploying first, 400p for the second unless in ambush or a fortified BUA; nothing within 400p
/// of a short edge, only light troops (and a general grouped with them) within 800p; more than
/// 240p from an enemy TF or PF.
#[test]
fn deployment_zones_hold_elements_back_from_the_centre_line_and_short_edges() {
    let at = |extra: Value| {
        let mut s = json!({ "element": el("Bd", "O"), "deploys": "second",
                            "from_centre_line": 400, "from_short_edge": 801 });
        s.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        let r = resolved("deployment", s);
        r.outcome.unwrap().result
    };
    assert_eq!(at(json!({})), "may_deploy_here");
    assert_eq!(
        at(json!({ "from_centre_line": 399 })),
        "may_not_deploy_here"
    );
    assert_eq!(
        at(json!({ "from_centre_line": 399, "in_ambush": true })),
        "may_deploy_here"
    );
    assert_eq!(
        at(json!({ "deploys": "first", "from_centre_line": 240 })),
        "may_deploy_here"
    );
    assert_eq!(
        at(json!({ "deploys": "first", "from_centre_line": 239, "in_fortified_bua": true })),
        "may_not_deploy_here"
    );
    // Short edges: Bd only beyond 800p; LH and Cv (O) from 400p; a general with them too.
    assert_eq!(at(json!({ "from_short_edge": 800 })), "may_not_deploy_here");
    assert_eq!(
        at(json!({ "element": el("LH", "O"), "from_short_edge": 400 })),
        "may_deploy_here"
    );
    assert_eq!(
        at(json!({ "element": el("Cv", "S"), "from_short_edge": 600 })),
        "may_not_deploy_here"
    );
    assert_eq!(
        at(json!({ "element": el("Cv", "O"), "from_short_edge": 399 })),
        "may_not_deploy_here"
    );
    let general = json!({ "type": "Kn", "grade": "O", "general": true });
    assert_eq!(
        at(json!({ "element": general.clone(), "from_short_edge": 500 })),
        "may_not_deploy_here"
    );
    assert_eq!(
        at(json!({ "element": general, "from_short_edge": 500, "grouped_with_light": true })),
        "may_deploy_here"
    );
    assert_eq!(
        at(json!({ "from_enemy_fortification": 240 })),
        "may_not_deploy_here"
    );
    let r = resolved(
        "deployment",
        json!({ "element": el("Bd", "O"), "deploys": "first", "from_centre_line": 100, "from_short_edge": 900 }),
    );
    let o = r.outcome.unwrap();
    assert!(
        o.meaning.contains(
            "The army deploying first deploys 240p or more from the centre line (here 100p)"
        ),
        "{}",
        o.meaning
    );
    assert!(r
        .notes
        .iter()
        .all(|n| n.ruling.as_deref() == Some("R-DBMM-32")));
    let e = refused(
        "deployment",
        json!({ "element": el("Bd", "O"), "deploys": "first", "from_centre_line": -5, "from_short_edge": 900 }),
    );
    assert_eq!(e.field.as_deref(), Some("from_centre_line"));
}

/// The terrain definitions' own going (p. 19, R-DBMM-33): a terrain named is its column's going
/// unless the umpire gives another (frozen, say), which stands with a note; the special cases
/// still change it by element, and starred terrains say how groups move there.
#[test]
fn a_terrain_named_gives_its_own_going() {
    let going = |situation: Value| {
        let r = resolved("going", situation);
        (r.outcome.clone().unwrap().result, r)
    };
    for (terrain, want) in [
        ("GH", "GGo"),
        ("B", "RGo"),
        ("RH", "RGo"),
        ("Wd", "DGo"),
        ("BUA", "DGo"),
        ("M", "DGo"),
    ] {
        let (got, r) = going(json!({ "element": el("Bd", "O"), "terrain": terrain }));
        assert_eq!(got, want, "{terrain}");
        assert!(
            r.notes
                .iter()
                .any(|n| n.ruling.as_deref() == Some("R-DBMM-33")),
            "{terrain}: {:?}",
            r.notes
        );
    }
    // The element's special case still holds over the terrain's going: El in SH, camelry in D.
    assert_eq!(
        going(json!({ "element": el("El", "O"), "terrain": "SH" })).0,
        "GGo"
    );
    assert_eq!(
        going(json!({ "element": el("Cm", "O"), "terrain": "D" })).0,
        "GGo"
    );
    // A frozen marsh: the umpire's going stands, and the answer says the table's.
    let (got, r) = going(json!({ "element": el("Bd", "O"), "terrain": "M", "going": "GGo" }));
    assert_eq!(got, "GGo");
    assert!(r.notes.iter().any(|n| n.message.starts_with(
        "The going given (GGo) stands, though the terrain definitions make M difficult going"
    )));
    let (_, r) = going(json!({ "element": el("Bd", "O"), "terrain": "RF" }));
    assert!(r.notes.iter().any(|n| n
        .message
        .starts_with("Group moves in this terrain must be in column")));
    // A terrain the definitions do not list needs the umpire's going.
    assert_eq!(
        refused("going", json!({ "element": el("Bd", "O"), "terrain": "L" }))
            .field
            .as_deref(),
        Some("going")
    );
    assert_eq!(
        going(json!({ "element": el("Bd", "O"), "terrain": "L", "going": "DGo" })).0,
        "DGo"
    );
}

/// The forms pick climates, seasons and terrains from the ruleset's own lists, each once.
#[test]
fn climates_seasons_and_terrains_are_picked_from_the_sheets_lists() {
    let info = load("dbmm").info;
    let keys = |field: &str| -> Vec<String> {
        info.choices
            .iter()
            .find(|c| c.field == field)
            .unwrap_or_else(|| panic!("no pick list {field}"))
            .options
            .iter()
            .map(|o| o.key.clone())
            .collect()
    };
    assert_eq!(keys("climate"), ["Cold", "Cool", "Warm", "Dry", "Tropical"]);
    assert_eq!(keys("season"), ["Spring", "Summer", "Autumn", "Winter"]);
    let terrains = keys("terrain");
    for t in ["RH", "SH", "Wd", "BUA", "S"] {
        assert_eq!(terrains.iter().filter(|k| *k == t).count(), 1, "{t}");
    }
}
