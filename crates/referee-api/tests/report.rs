//! The shared battle: the plain-text log and the printable HTML report of a 200-event battle begun
//! from a preset. Names from the battle are escaped, nothing developer-ish shows, every gauge with
//! a figure has its chart, and the report stays small (its size is printed: `--nocapture`).

use serde_json::json;

use referee_api::{
    AdjustRequest, ApplyRequest, BattleView, Battles, DiceEntry, NewBattle, PhysicalDice, Referee,
    UnitSpec,
};

const SCRIPT_LABEL: &str = "<script>alert(1)</script>";

fn unit(label: &str, side: &str) -> UnitSpec {
    serde_json::from_value(
        json!({"label": label, "side": side, "stats": {"type": "PS", "count": 2}}),
    )
    .unwrap()
}

fn adjust(unit: u32, change: serde_json::Value) -> AdjustRequest {
    serde_json::from_value(json!({"subject": {"unit": unit}, "change": change})).unwrap()
}

/// The ITACS melee example's forces, with panic levels, fought turn after turn: each turn a
/// fresh PS stack joins the defender and is attacked, the umpire marks and clears a D marker on
/// the attacker, and the turn advances; one result is applied and undone.
fn long_battle(battles: &mut Battles, referee: &Referee, events: u64) -> BattleView {
    let mut new = NewBattle::from_preset(
        referee.preset("itacs-melee-example").unwrap(),
        Some("Trebia & <b>the fords</b>".into()),
    );
    new.sides[0].panic_level = Some(12);
    new.sides[1].panic_level = Some(30);
    let mut view = battles.create(referee, &new).unwrap();
    let id = view.id;
    let mut turn = 0;
    while view.events < events {
        turn += 1;
        let label = if turn == 1 {
            SCRIPT_LABEL.to_string()
        } else {
            format!("PS {turn}")
        };
        view = battles
            .add_unit(referee, id, unit(&label, "Defender"))
            .unwrap();
        let defender = *view.state.units.keys().next_back().unwrap();
        let melee = ApplyRequest {
            action: "melee".into(),
            situation: json!({
                "attackers": [{ "label": "SD front", "units": [{ "type": "SD", "count": 2 }] }],
                "defenders": [{ "label": label, "terrain": "clear", "units": [{ "type": "PS", "count": 2 }] }]
            }),
            dice: DiceEntry::Physical(PhysicalDice {
                faces: vec![1 + turn % 6, 1 + (turn / 6) % 6],
            }),
            mapping: serde_json::from_value(
                json!({"targets": {"attacker": [], "defender": [defender]}}),
            )
            .unwrap(),
            rolled_by: Some("Hannibal".into()),
            apply_key: Some(format!("turn {turn}")),
        };
        battles.apply(referee, id, &melee).unwrap();
        if turn == 2 {
            battles.undo(referee, id).unwrap();
            battles.apply(referee, id, &melee).unwrap();
        }
        battles
            .adjust(
                referee,
                id,
                &adjust(1, json!({"kind": "d_markers", "count": 1})),
            )
            .unwrap();
        battles
            .adjust(
                referee,
                id,
                &adjust(1, json!({"kind": "remove_d_markers", "count": 1})),
            )
            .unwrap();
        view = battles.advance_turn(referee, id, None, None).unwrap();
    }
    view
}

#[test]
fn a_200_event_battle_reports_as_one_small_escaped_page_with_a_chart_per_gauge() {
    let dir = tempfile::tempdir().unwrap();
    let referee = Referee::builtin();
    let mut battles = Battles::open(&dir.path().join("referee.db")).unwrap();
    let view = long_battle(&mut battles, &referee, 200);
    assert!(view.events >= 200, "{} events", view.events);
    let report = battles.report(&referee, view.id).unwrap();
    println!("report: {} bytes ({} events)", report.len(), view.events);
    assert!(
        report.len() < 500_000,
        "the report of {} events is {} bytes",
        view.events,
        report.len()
    );

    // One file, nothing fetched or run.
    assert!(report.starts_with("<!DOCTYPE html>") && report.ends_with("</html>"));
    for outside in [
        "<script", "<link", " src=", "<img", "<iframe", "@import", "url(",
    ] {
        assert!(!report.contains(outside), "the report holds {outside}");
    }
    assert!(report.contains("@media print"));
    // What the umpire typed is text, never markup.
    assert!(report.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(report.contains("Trebia &amp; &lt;b&gt;the fords&lt;/b&gt;"));

    // A chart per gauge with a figure: victory points and panic level, each side.
    let charted: Vec<_> = view
        .standing
        .gauges
        .iter()
        .filter(|g| g.amount.is_some())
        .collect();
    assert_eq!(charted.len(), 4);
    assert_eq!(report.matches("<svg").count(), charted.len());
    for g in charted {
        let name = format!("{}: {}", g.side.as_deref().unwrap_or_default(), g.label);
        assert!(
            report.contains(&format!("<figcaption>{name}</figcaption>")),
            "{name}"
        );
    }
    // The sides' units, each turn, each roll's odds, the standing.
    for words in [
        "SD front",
        "Turn 2",
        "The roll could give: ",
        "chance ",
        "Standing at the end",
        "Panic level",
        "1 entry taken back by undo is left out.",
    ] {
        assert!(report.contains(words), "the report lacks {words}");
    }
    // Nothing developer-ish: no JSON, no field names, no codes, no fingerprint.
    let fingerprint = &view.state.fingerprint;
    for developer in [
        "{\"",
        "apply_key",
        "turn_advanced",
        "d_markers",
        "battle.",
        "null",
        fingerprint.as_str(),
    ] {
        assert!(!report.contains(developer), "the report shows {developer}");
    }
}

#[test]
fn the_text_log_tells_each_turn_in_words_with_the_odds_of_each_roll() {
    let dir = tempfile::tempdir().unwrap();
    let referee = Referee::builtin();
    let mut battles = Battles::open(&dir.path().join("referee.db")).unwrap();
    let view = long_battle(&mut battles, &referee, 30);
    let log = battles.text_log(&referee, view.id).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(
        lines[0], "Trebia & <b>the fords</b>",
        "plain text is not escaped"
    );
    assert_eq!(
        lines[1],
        "Attacker v Defender · ITACS — Improved Tactical System"
    );
    assert!(lines[2].starts_with("Began "), "{}", lines[2]);
    assert!(log.contains("\nTurn 2\n"), "{log}");
    // Units added one after another to a side are one line.
    assert!(
        log.contains(&format!("- Added 2 units to Defender: PS, {SCRIPT_LABEL}.")),
        "{log}"
    );
    // Each melee: its units, dice, who rolled, and the exact chance of its result.
    let melee = lines
        .iter()
        .find(|l| l.starts_with("- Melee — "))
        .unwrap_or_else(|| panic!("{log}"));
    assert!(
        melee.contains("(dice ")
            && melee.contains("rolled by Hannibal")
            && melee.contains("; chance of "),
        "{melee}"
    );
    assert!(
        log.contains("\nStanding\n- Attacker: Victory points"),
        "{log}"
    );
    assert!(log.contains("1 entry taken back by undo is left out."));
}
