//! The shared battle: the plain-text log and the printable HTML report of a 200-event battle begun
//! from a preset. Names from the battle are escaped, nothing developer-ish shows, every gauge with
//! a figure has its chart, and the report stays small (its size is printed: `--nocapture`).

use serde_json::json;

use referee_api::{
    AdjustRequest, ApplyRequest, BattleView, Battles, DiceEntry, FightRequest, NewBattle,
    PhysicalDice, Referee, UnitSpec,
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
fn a_200_event_battle_reports_as_one_small_escaped_page_with_a_chart_per_side() {
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

    // One chart per side whose figures moved (victory points, panic level), each figure that
    // moved in its key; a figure that never moved is named as left out.
    let charts = report.matches("<svg").count();
    assert!((1..=2).contains(&charts), "{charts} charts");
    for side in ["Attacker", "Defender"] {
        let caption = format!("<figcaption><strong>{side}</strong>");
        let moved = view
            .standing
            .gauges
            .iter()
            .any(|g| g.side.as_deref() == Some(side) && g.amount.is_some_and(|a| a != 0.0));
        assert_eq!(report.contains(&caption), moved, "{side}'s chart");
    }
    assert!(report.contains("<span class=\"key l0\"></span>Victory points"));
    // The sides' units, each turn, each roll's odds, the standing.
    for words in [
        "SD front",
        "Turn 2",
        "The roll could give: ",
        "chance ",
        // Each result's situation and modifiers, with their rule sections.
        "The situation:",
        "<li>Attack strength ",
        "Modifiers (",
        "<li>Combat ratio (",
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

/// The screen's list of developer text (ui/src/lib/dev-text.json), as the end-to-end walk reads it.
fn developer_text() -> Vec<(regex::Regex, String)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../ui/src/lib/dev-text.json"
    );
    let list: Vec<(String, String, String)> =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    list.into_iter()
        .map(|(source, flags, what)| {
            let source = if flags.contains('i') {
                format!("(?i){source}")
            } else {
                source
            };
            (regex::Regex::new(&source).unwrap(), what)
        })
        .collect()
}

/// The words a page shows: its tags, style and entities left out.
fn shown_text(html: &str) -> String {
    let body = html.split("</style>").last().unwrap_or(html);
    let tags = regex::Regex::new(r"<[^>]*>").unwrap();
    tags.replace_all(body, " ")
        .replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&#39;", "'")
        .replace("&quot;", "\"")
}

#[test]
fn a_medieval_turn_reports_its_phases_and_results_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let referee = Referee::builtin();
    let mut battles = Battles::open(&dir.path().join("referee.db")).unwrap();
    let new = NewBattle::from_preset(referee.preset("medieval-combat-example").unwrap(), None);
    let view = battles.create(&referee, &new).unwrap();
    let id = view.id;
    battles
        .advance_turn(&referee, id, None, Some("a_cavalry_attack".into()))
        .unwrap();
    let ids: Vec<u32> = view.state.units.keys().copied().collect();
    // The 5.1.1 combat: a roll of 4 (−1/D2), then the scatter d6 of 2 scatters the defender.
    let combat = ApplyRequest {
        action: "combat".into(),
        situation: json!({
            "attackers": [
                { "label": "Heavy cavalry", "stream": true, "units": [{ "type": "heavy_cavalry", "sp": 2, "cf": 2 }] },
                { "label": "Cavalry", "stream": true, "units": [{ "type": "cavalry", "sp": 2, "cf": 3 }] }
            ],
            "defenders": [{ "label": "Light cavalry", "terrain": "stream", "units": [{ "type": "light_cavalry", "sp": 2, "cf": 1 }] }]
        }),
        dice: DiceEntry::Physical(PhysicalDice {
            faces: vec![1, 3, 2],
        }),
        mapping: serde_json::from_value(json!({
            "targets": {
                "attacker": [ids[0], ids[1]],
                "defender": [ids[2]],
                "hex:Heavy cavalry": [ids[0]],
                "hex:Cavalry": [ids[1]],
                "hex:Light cavalry": [ids[2]]
            },
            "choices": { "0": [ids[0]] }
        }))
        .unwrap(),
        rolled_by: None,
        apply_key: None,
    };
    battles.apply(&referee, id, &combat).unwrap();
    let report = battles.report(&referee, id).unwrap();
    let log = battles.text_log(&referee, id).unwrap();
    let page = shown_text(&report);
    // One chart per side that changed — the attacker's strength points, the defender's units
    // scattered —; the six figures that did not move are named as left out, not drawn flat.
    assert_eq!(report.matches("<svg").count(), 2, "{page}");
    for side in ["Attacker", "Defender"] {
        assert!(report.contains(&format!("<figcaption><strong>{side}</strong>")));
    }
    assert!(
        page.contains("Unchanged throughout, not charted: MORALE track; "),
        "{page}"
    );
    // The result's situation and modifiers, each with its rule section and ruling.
    for line in [
        "The situation:",
        "Attacker SPs 4 (1.4)",
        "Initial combat ratio 4:2 → 2:1 (1.4, 1.6; ruling R-MED-1)",
        "Modifiers:",
        "Attacker: armour (group 2) +2 (5.2.7; ruling R-MED-9)",
        "Defender: charge factor (group 1) −1 (5.6.4, 5.6.5; ruling R-MED-14)",
    ] {
        assert!(page.contains(line), "the report lacks {line}:\n{page}");
    }
    assert!(!page.contains(".."), "a doubled full stop:\n{page}");
    for (text, what) in [(&page, "report"), (&log, "text log")] {
        for phrase in [
            "Phase 2 – cavalry attack of player A",
            "Heavy cavalry and Cavalry lose 1 SP; Light cavalry retreats 2 hexes",
        ] {
            assert!(text.contains(phrase), "the {what} lacks {phrase}:\n{text}");
        }
        assert!(
            !text.contains("a_cavalry_attack"),
            "the {what} shows a phase id"
        );
        no_developer_text(text, what);
    }
}

#[test]
fn a_dbmm_close_combat_reports_what_became_of_each_element_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let referee = Referee::builtin();
    let mut battles = Battles::open(&dir.path().join("referee.db")).unwrap();
    let new = NewBattle::from_preset(referee.preset("dbmm-combat-example").unwrap(), None);
    let view = battles.create(&referee, &new).unwrap();
    let id = view.id;
    let ids: Vec<u32> = view.state.units.keys().copied().collect();
    let request: FightRequest = serde_json::from_value(json!({
        "action": "close_combat", "attackers": [ids[0]], "defenders": [ids[1]]
    }))
    .unwrap();
    let fight = battles.fight(&referee, id, &request).unwrap();
    let apply = ApplyRequest {
        action: "close_combat".into(),
        situation: fight.situation,
        dice: DiceEntry::Physical(PhysicalDice { faces: vec![6, 1] }),
        mapping: serde_json::from_value(json!({ "targets": fight.targets })).unwrap(),
        rolled_by: None,
        apply_key: None,
    };
    battles.apply(&referee, id, &apply).unwrap();
    let page = shown_text(&battles.report(&referee, id).unwrap());
    let log = battles.text_log(&referee, id).unwrap();
    for (text, what) in [(&page, "report"), (&log, "text log")] {
        assert!(
            text.contains("Close combat — Bd (O), Pk (O) front rank: Bd (O) stands; Pk (O) front rank is destroyed"),
            "the {what} does not name each element's fate:\n{text}"
        );
        assert!(
            !text.contains("stand/destroyed") && !text.contains("Stand / Destroyed"),
            "{text}"
        );
        no_developer_text(text, what);
    }
    // The enemy's chart only: its ME lost moved, the own army's did not.
    assert!(
        page.contains("Unchanged throughout, not charted: Own army: "),
        "{page}"
    );
    for line in [
        "The situation:",
        "Modifiers (+1 on the dice):",
        "Bd (O): Combat factor: Bd against Others +4 (p. 36)",
    ] {
        assert!(page.contains(line), "the report lacks {line}:\n{page}");
    }
}

/// Fails on the first developer text in `text`, with the words around it.
fn no_developer_text(text: &str, what: &str) {
    for (re, kind) in developer_text() {
        if let Some(m) = re.find(text) {
            let at = text[..m.start()]
                .char_indices()
                .rev()
                .nth(40)
                .map_or(0, |(i, _)| i);
            panic!("the {what} shows {kind}: “{}”", &text[at..m.end()]);
        }
    }
}
