//! Convention events through the API: every refusal writes nothing (the stored record is the same
//! before and after), battle files checked (edited, another system, other players, twice), undo
//! and redo, a battle begun twice is one battle, the report escapes names, the CSV quotes.

mod support;

use referee_api::{
    Battles, ErrorCode, EventView, HandResult, NewBattle, NewEvent, Referee, RefereeError,
};
use referee_core::battle::SideSetup;
use referee_core::tournament::{FirstRound, PairingMethod, Player, ResultSource};
use support::event_files::{battle_file, Margin};

struct Event {
    _dir: tempfile::TempDir,
    battles: Battles,
    referee: Referee,
    id: i64,
}

fn player(name: &str) -> Player {
    Player {
        name: name.into(),
        army: format!("{name}'s army"),
        withdrawn: false,
    }
}

/// A DBMM event with these players, round 1 paired (seeded: in the order entered).
fn event(players: &[&str]) -> Event {
    let dir = tempfile::tempdir().unwrap();
    let referee = Referee::builtin();
    let mut battles = Battles::open(&dir.path().join("referee.db")).unwrap();
    let id = battles
        .event_create(
            &referee,
            &NewEvent {
                name: "Spring open".into(),
                rulesets: vec!["dbmm".into()],
                scoring: "dbmm-25".into(),
                pairing: PairingMethod::Swiss,
                first_round: FirstRound::Seeded,
                rounds: 3,
            },
        )
        .unwrap()
        .id;
    for p in players {
        battles.event_player_add(&referee, id, &player(p)).unwrap();
    }
    Event {
        _dir: dir,
        battles,
        referee,
        id,
    }
}

impl Event {
    fn view(&mut self) -> EventView {
        self.battles.event_view(&self.referee, self.id).unwrap()
    }

    fn pair(&mut self, round: u32) -> EventView {
        self.battles
            .event_pair(&self.referee, self.id, round)
            .unwrap()
    }

    /// Runs a write that must be refused, and checks the stored record is as it was.
    fn refused(
        &mut self,
        code: ErrorCode,
        write: impl FnOnce(&mut Battles, &Referee, i64) -> Result<EventView, RefereeError>,
    ) -> RefereeError {
        let before = self.battles.event_record(self.id).unwrap();
        let e = write(&mut self.battles, &self.referee, self.id).unwrap_err();
        assert_eq!(e.code, code, "{}", e.message);
        assert!(e.message.ends_with('.'), "a sentence: {}", e.message);
        let after = self.battles.event_record(self.id).unwrap();
        assert_eq!(before, after, "nothing written by: {}", e.message);
        e
    }

    /// Table `table` of round 1: its two players.
    fn table(&mut self, table: u32) -> (String, String) {
        let view = self.view();
        let g = &view.tournament.rounds[0].games[table as usize - 1];
        (g.pairing.a.clone(), g.pairing.b.clone())
    }

    /// A battle of `ruleset` between `a` and `b`, with no units yet, begun outside the event.
    fn empty_battle(&mut self, ruleset: &str, a: &str, b: &str) -> referee_api::BattleView {
        let side = |name: &str| -> SideSetup {
            serde_json::from_value(serde_json::json!({ "name": name })).unwrap()
        };
        self.battles
            .create(
                &self.referee,
                &NewBattle {
                    name: format!("{a} v {b}"),
                    ruleset: ruleset.into(),
                    sides: vec![side(a), side(b)],
                    units: vec![],
                    preset_sides: None,
                },
            )
            .unwrap()
    }

    fn file(&mut self, a: &str, b: &str, winner: &str, margin: Margin) -> String {
        battle_file(&mut self.battles, &self.referee, a, b, winner, margin)
    }
}

#[test]
fn every_refusal_leaves_the_event_as_it_was() {
    let mut ev = event(&["Anna", "Boris", "Carl", "Dora"]);
    ev.refused(ErrorCode::EventDuplicatePlayer, |b, r, id| {
        b.event_player_add(r, id, &player("anna"))
    });
    ev.pair(1);
    ev.refused(ErrorCode::EventRoundPaired, |b, r, id| {
        b.event_pair(r, id, 1)
    });
    ev.refused(ErrorCode::EventResultsMissing, |b, r, id| {
        b.event_pair(r, id, 2)
    });
    ev.refused(ErrorCode::EventNotInRound, |b, r, id| {
        b.event_swap(r, id, 1, "Anna", "Zed")
    });
    let e = ev.refused(ErrorCode::EventNotInRound, |b, r, id| {
        b.event_result_by_hand(r, id, 1, 9, &HandResult::default())
    });
    assert!(e.message.contains("table 9"), "{}", e.message);
    ev.refused(ErrorCode::EventNotInRound, |b, r, id| {
        b.event_result_by_hand(r, id, 2, 1, &HandResult::default())
    });
    ev.refused(ErrorCode::EventWrongPlayers, |b, r, id| {
        b.event_result_by_hand(
            r,
            id,
            1,
            1,
            &HandResult {
                winner: Some("Nobody".into()),
                ..HandResult::default()
            },
        )
    });
    for bad in [-1.0, 10_001.0, f64::NAN, f64::INFINITY] {
        ev.refused(ErrorCode::EventInvalid, |b, r, id| {
            b.event_result_by_hand(
                r,
                id,
                1,
                1,
                &HandResult {
                    victory_points_a: Some(bad),
                    ..HandResult::default()
                },
            )
        });
    }
    // No battle begun at the table: nothing to take a verdict from.
    ev.refused(ErrorCode::EventNoVerdict, |b, r, id| {
        b.event_result_from_battle(r, id, 1, 1)
    });
    // A battle begun, nothing fought: no verdict yet.
    ev.battles
        .event_begin_battle(&ev.referee, ev.id, 1, 1, None)
        .unwrap();
    let e = ev.refused(ErrorCode::EventNoVerdict, |b, r, id| {
        b.event_result_from_battle(r, id, 1, 1)
    });
    assert_eq!(
        e.message,
        "The battle at table 1 has no result yet: apply a result in it first."
    );
    // Swapping once the round has started.
    let (a, b2) = ev.table(2);
    ev.refused(ErrorCode::EventRoundStarted, |b, r, id| {
        b.event_swap(r, id, 1, &a, &b2)
    });
}

#[test]
fn a_battle_file_is_checked_and_refusals_name_the_table() {
    let mut ev = event(&["Anna", "Boris", "Carl", "Dora"]);
    ev.pair(1);
    let (a, b) = ev.table(2);
    let file = ev.file(&a, &b, &a, Margin::Narrow);

    // Edited after export: refused naming the table, with no file name or hash.
    let tampered = file.replacen("\"Bd 3\"", "\"Bd 33\"", 1);
    assert_ne!(tampered, file);
    let e = ev.refused(ErrorCode::ImportDamaged, |bs, r, id| {
        bs.event_result_import(r, id, 1, 2, &tampered)
    });
    assert_eq!(
        e.message,
        "The battle file from table 2 was changed after it was exported: ask table 2 for the file again."
    );

    // A battle of other players.
    let others = ev.file("Xena", "Yuri", "Xena", Margin::Crushing);
    let e = ev.refused(ErrorCode::EventWrongPlayers, |bs, r, id| {
        bs.event_result_import(r, id, 1, 2, &others)
    });
    assert!(
        e.message.contains("Xena") && e.message.contains(&a) && e.message.contains(&b),
        "{}",
        e.message
    );

    // A battle of another system.
    let gts = ev.empty_battle("gts", &a, &b);
    let gts_file = ev.battles.export_text(&ev.referee, gts.id).unwrap();
    let e = ev.refused(ErrorCode::EventWrongSystem, |bs, r, id| {
        bs.event_result_import(r, id, 1, 2, &gts_file)
    });
    assert_eq!(
        e.message,
        "The battle file from table 2 is a GTS battle; this event plays DBMM 2.x: ask table 2 for the file of the battle they played here."
    );

    // Not a battle file at all.
    let e = ev.refused(ErrorCode::ImportNotABattle, |bs, r, id| {
        bs.event_result_import(r, id, 1, 2, "{\"format\": 1}")
    });
    assert_eq!(
        e.message,
        "The battle file from table 2 is not a referee battle: choose a battle file exported by the referee."
    );

    // The file as exported: its verdict, from the file, the record's head kept.
    let view = ev
        .battles
        .event_result_import(&ev.referee, ev.id, 1, 2, &file)
        .unwrap();
    let result = view.tournament.rounds[0].games[1].result.clone().unwrap();
    assert!(matches!(result.source, ResultSource::File { .. }));
    assert_eq!(result.players[0].player, a);
    let (won, lost) = Margin::Narrow.points();
    assert_eq!(result.players[0].victory_points, Some(won));
    assert_eq!(result.players[1].victory_points, Some(lost));
    assert!(!result.words.is_empty());

    // The same file for another table: imported already.
    let e = ev.refused(ErrorCode::EventImportedTwice, |bs, r, id| {
        bs.event_result_import(r, id, 1, 1, &file)
    });
    assert!(e.message.contains("table 2"), "{}", e.message);
}

#[test]
fn undo_and_redo_say_what_they_take_back_and_never_undo_the_creation() {
    let mut ev = event(&[]);
    ev.refused(ErrorCode::EventInvalid, |b, r, id| b.event_undo(r, id));
    ev.refused(ErrorCode::EventInvalid, |b, r, id| b.event_redo(r, id));
    let view = ev
        .battles
        .event_player_add(&ev.referee, ev.id, &player("Anna"))
        .unwrap();
    assert_eq!(view.undo.as_deref(), Some("Undo: Anna added"));
    assert!(!view.can_pair);
    assert!(view.why_not_pair.is_some());
    let view = ev.battles.event_undo(&ev.referee, ev.id).unwrap();
    assert!(view.tournament.players.is_empty());
    assert_eq!(view.undo, None);
    assert_eq!(view.redo.as_deref(), Some("Redo: Anna added"));
    ev.refused(ErrorCode::EventInvalid, |b, r, id| b.event_undo(r, id));
    let view = ev.battles.event_redo(&ev.referee, ev.id).unwrap();
    assert_eq!(view.tournament.players.len(), 1);
    assert_eq!(view.redo, None);
    ev.battles
        .event_player_add(&ev.referee, ev.id, &player("Boris"))
        .unwrap();
    let view = ev.pair(1);
    assert_eq!(view.undo.as_deref(), Some("Undo: round 1 paired"));
    let view = ev.battles.event_undo(&ev.referee, ev.id).unwrap();
    assert!(view.tournament.rounds.is_empty());
    assert!(view.can_pair, "{:?}", view.why_not_pair);
    // Paired again after the undo: a new entry, the redo forgotten.
    let view = ev.pair(1);
    assert_eq!(view.redo, None);
}

#[test]
fn a_battle_begun_twice_is_one_battle_named_for_the_table() {
    let mut ev = event(&["Anna", "Boris", "Carl"]);
    let view = ev.pair(1);
    assert!(view.tournament.rounds[0].bye.is_some());
    let (a, b) = ev.table(1);
    let first = ev
        .battles
        .event_begin_battle(&ev.referee, ev.id, 1, 1, None)
        .unwrap();
    assert_eq!(first.state.name, "Spring open, round 1, table 1");
    let sides: Vec<&str> = first.state.sides.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(sides, [a.as_str(), b.as_str()]);
    let again = ev
        .battles
        .event_begin_battle(&ev.referee, ev.id, 1, 1, None)
        .unwrap();
    assert_eq!(first.id, again.id);
    assert_eq!(ev.battles.list().unwrap().len(), 1);
    let view = ev.view();
    assert_eq!(view.tournament.rounds[0].games[0].battle, Some(first.id));
}

#[test]
fn a_result_by_hand_is_worded_and_counted() {
    let mut ev = event(&["Anna", "Boris"]);
    ev.pair(1);
    let (a, b) = ev.table(1);
    let view = ev
        .battles
        .event_result_by_hand(
            &ev.referee,
            ev.id,
            1,
            1,
            &HandResult {
                winner: Some(b.clone()),
                victory_points_a: Some(7.0),
                victory_points_b: Some(18.0),
                ..HandResult::default()
            },
        )
        .unwrap();
    let result = view.tournament.rounds[0].games[0].result.clone().unwrap();
    assert_eq!(
        result.words,
        format!("Entered by hand: {b} beat {a}, 18–7.")
    );
    assert_eq!(result.source, ResultSource::Hand);
    assert_eq!(view.standings[0].player, b);
    assert_eq!(view.standings[0].wins, 1);
    ev.refused(ErrorCode::EventResultIn, |bs, r, id| {
        bs.event_result_by_hand(r, id, 1, 1, &HandResult::default())
    });
}

#[test]
fn the_report_escapes_names_and_the_csv_quotes_them() {
    let mut ev = event(&["<script>alert(1)</script>", "Smith, \"Jr\""]);
    ev.pair(1);
    ev.battles
        .event_result_by_hand(&ev.referee, ev.id, 1, 1, &HandResult::default())
        .unwrap();
    let html = ev.battles.event_report(&ev.referee, ev.id).unwrap();
    assert!(
        !html.contains("<th>System</th>"),
        "an event of one system has no System column"
    );
    assert!(
        html.contains("<th>Victory points</th>"),
        "DBMM's scoring reads victory points: their column is printed"
    );
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(!html.contains("<script"), "no script, no name as markup");
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(html.contains("Standings"));
    assert!(html.contains("Round 1 pairings"));
    assert!(html.contains("entered by hand"));
    assert!(html.contains("@media print"));

    let csv = ev.battles.event_csv(&ev.referee, ev.id).unwrap();
    assert!(csv.starts_with("Rank,Player,Army,"), "{csv}");
    assert!(csv.contains("\"Smith, \"\"Jr\"\"\""), "{csv}");
    assert!(
        csv.contains("\r\n\r\nRound,Table,Player,"),
        "a blank line between: {csv}"
    );
    let (name, _) = ev
        .battles
        .event_shared(&ev.referee, ev.id, referee_api::EventDocument::Csv)
        .unwrap();
    assert_eq!(name, "Spring open standings.csv");
}

#[test]
fn an_event_is_created_only_with_what_it_needs() {
    let dir = tempfile::tempdir().unwrap();
    let referee = Referee::builtin();
    let mut battles = Battles::open(&dir.path().join("referee.db")).unwrap();
    let new = |ruleset: &str, scoring: &str, rounds: u32, name: &str| NewEvent {
        name: name.into(),
        rulesets: ruleset.split('+').map(String::from).collect(),
        scoring: scoring.into(),
        pairing: PairingMethod::Swiss,
        first_round: FirstRound::Random,
        rounds,
    };
    for (request, code, field) in [
        (
            new("gts", "dbmm-25", 3, "Open"),
            ErrorCode::EventInvalid,
            "scoring",
        ),
        (
            new("dbmm", "nope", 3, "Open"),
            ErrorCode::EventInvalid,
            "scoring",
        ),
        (
            new("dbmm", "dbmm-25", 0, "Open"),
            ErrorCode::EventInvalid,
            "rounds",
        ),
        (
            new("dbmm", "dbmm-25", 21, "Open"),
            ErrorCode::EventInvalid,
            "rounds",
        ),
        (
            new("dbmm", "dbmm-25", 3, " "),
            ErrorCode::EventInvalid,
            "name",
        ),
        (
            new("dbmm", "dbmm-25", 3, "Two\nlines"),
            ErrorCode::NameInvalid,
            "name",
        ),
        (
            new("nope", "dbmm-25", 3, "Open"),
            ErrorCode::RulesetUnknown,
            "rulesets",
        ),
    ] {
        let e = battles.event_create(&referee, &request).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_deref()),
            (code, Some(field)),
            "{}",
            e.message
        );
    }
    assert!(battles.event_list(&referee).unwrap().is_empty());
    // A random first round: drawn with a seed kept in the entry.
    let id = battles
        .event_create(&referee, &new("dbmm", "win-draw-loss", 3, "Open"))
        .unwrap()
        .id;
    for p in ["A", "B", "C", "D"] {
        battles.event_player_add(&referee, id, &player(p)).unwrap();
    }
    battles.event_pair(&referee, id, 1).unwrap();
    let seeded = battles.event_record(id).unwrap().into_iter().any(|e| {
        matches!(
            e,
            referee_core::tournament::TournamentEntry::RoundPaired { seed: Some(_), .. }
        )
    });
    assert!(seeded);
    let rows = battles.event_list(&referee).unwrap();
    assert_eq!((rows[0].players, rows[0].rounds_paired), (4, 1));
    assert!(rows[0].ruleset_name.starts_with("DBMM"));
}

/// A battle begun from a pairing and fought on this device gives the table its result: no
/// verdict before a result is in force (refused in words), then the battle's own — DBMM's 25
/// points split — landing on the pairing's players with the battle as its source; the round
/// then counts as in.
#[test]
fn a_battle_begun_from_a_pairing_gives_its_own_verdict() {
    let mut ev = event(&["Anna", "Boris"]);
    ev.pair(1);
    let (a, b) = ev.table(1);
    let battle = ev
        .battles
        .event_begin_battle(&ev.referee, ev.id, 1, 1, None)
        .unwrap()
        .id;
    ev.refused(ErrorCode::EventNoVerdict, |bs, r, id| {
        bs.event_result_from_battle(r, id, 1, 1)
    });
    let element = |side: &str, i: u32| referee_core::battle::UnitSpec {
        label: format!("Bd {i}"),
        side: side.into(),
        command: None,
        role: Default::default(),
        stats: serde_json::json!({ "type": "Bd", "grade": "O" }),
    };
    let mut loser_ids = Vec::new();
    for i in 1..=4 {
        ev.battles
            .add_unit(&ev.referee, battle, element(&a, i))
            .unwrap();
        let view = ev
            .battles
            .add_unit(&ev.referee, battle, element(&b, i))
            .unwrap();
        loser_ids.push(view.state.units.values().last().unwrap().id);
    }
    for unit in loser_ids {
        let request = referee_api::AdjustRequest {
            subject: referee_core::battle::Subject::Unit(unit),
            change: serde_json::from_value(
                serde_json::json!({ "kind": "element_fate", "fate": "destroyed" }),
            )
            .unwrap(),
            reason: None,
        };
        ev.battles.adjust(&ev.referee, battle, &request).unwrap();
    }
    let view = ev
        .battles
        .event_result_from_battle(&ev.referee, ev.id, 1, 1)
        .unwrap();
    let result = view.tournament.rounds[0].games[0].result.clone().unwrap();
    assert_eq!(result.source, ResultSource::Battle { battle });
    let got: Vec<(&str, Option<f64>)> = result
        .players
        .iter()
        .map(|p| (p.player.as_str(), p.victory_points))
        .collect();
    assert_eq!(got, [(a.as_str(), Some(25.0)), (b.as_str(), Some(0.0))]);
    assert!(result.words.contains("25–0"), "{}", result.words);
    assert!(view.tournament.rounds[0].waiting().is_empty());
    assert_eq!(view.standings[0].player, a);
    assert_eq!(view.standings[0].points, 25.0);
}

/// A participation day playing GTS and ITACS: the scoring must suit both; each table's battle is
/// begun under the system the umpire chooses (a choice needed, one of the event's); a GTS battle
/// file is accepted, a DBMM one refused naming both systems; each result keeps its system.
#[test]
fn an_event_of_two_systems_plays_each_table_under_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let referee = Referee::builtin();
    let mut battles = Battles::open(&dir.path().join("referee.db")).unwrap();
    let new = |scoring: &str| NewEvent {
        name: "Participation day".into(),
        rulesets: vec!["gts".into(), "itacs".into(), "gts".into()],
        scoring: scoring.into(),
        pairing: PairingMethod::Swiss,
        first_round: FirstRound::Seeded,
        rounds: 2,
    };
    let e = battles.event_create(&referee, &new("dbmm-25")).unwrap_err();
    assert_eq!(
        e.message,
        "The scoring “DBMM: the 25 victory points” is for DBMM 2.x events, not GTS and ITACS: choose another scoring."
    );
    // Victory points mean one thing per system: a scoring that reads them is refused.
    let e = battles
        .event_create(&referee, &new("win-draw-loss"))
        .unwrap_err();
    assert_eq!(e.field.as_deref(), Some("scoring"));
    assert_eq!(
        e.message,
        "The scoring “Win 3, draw 1, loss 0” reads the battles' victory points, which GTS and ITACS count each in their own way: choose a scoring that does not read them."
    );
    assert!(
        battles.event_list(&referee).unwrap().is_empty(),
        "nothing written"
    );
    let view = battles
        .event_create(&referee, &new("participation-day"))
        .unwrap();
    assert_eq!(
        view.tournament.setup.rulesets,
        ["gts", "itacs"],
        "named once each"
    );
    assert_eq!(view.ruleset_name, "GTS and ITACS");
    let listed = battles.event_list(&referee).unwrap();
    assert_eq!(listed[0].rulesets, ["gts", "itacs"]);
    let mut ev = Event {
        _dir: dir,
        battles,
        referee,
        id: view.id,
    };
    for p in ["Anna", "Boris", "Carl", "Dora", "Emil", "Fritz"] {
        ev.battles
            .event_player_add(&ev.referee, ev.id, &player(p))
            .unwrap();
    }
    ev.pair(1);

    // Begun without a system: which one is asked; a system the event does not play is refused.
    for (ruleset, code, words) in [
        (
            None,
            ErrorCode::EventInvalid,
            "plays which system? Choose GTS or ITACS.",
        ),
        (
            Some("dbmm"),
            ErrorCode::EventWrongSystem,
            "This event plays GTS and ITACS, not DBMM 2.x: choose GTS or ITACS.",
        ),
        (
            Some("GTS"),
            ErrorCode::RulesetUnknown,
            "available: dbmm, gts, itacs, medieval.",
        ),
    ] {
        let before = ev.battles.event_record(ev.id).unwrap();
        let e = ev
            .battles
            .event_begin_battle(&ev.referee, ev.id, 1, 1, ruleset)
            .unwrap_err();
        assert_eq!(e.code, code, "{}", e.message);
        assert!(e.message.ends_with(words), "{}", e.message);
        assert_eq!(ev.battles.event_record(ev.id).unwrap(), before);
    }
    let begun = ev
        .battles
        .event_begin_battle(&ev.referee, ev.id, 1, 1, Some("itacs"))
        .unwrap();
    assert_eq!(begun.state.ruleset, "itacs");
    assert_eq!(
        ev.view().tournament.rounds[0].games[0].ruleset.as_deref(),
        Some("itacs")
    );
    // Asked again under ITACS (a second tap) or with no system: the same battle. Under GTS:
    // refused, nothing written.
    for again in [Some("itacs"), None] {
        let same = ev
            .battles
            .event_begin_battle(&ev.referee, ev.id, 1, 1, again)
            .unwrap();
        assert_eq!(same.id, begun.id);
    }
    let e = ev.refused(ErrorCode::EventWrongSystem, |bs, r, id| {
        bs.event_begin_battle(r, id, 1, 1, Some("gts"))
            .and_then(|_| bs.event_view(r, id))
    });
    assert_eq!(
        e.message,
        "Table 1 of round 1 has begun its battle under ITACS already, not GTS: open that battle."
    );

    // Table 2 played GTS on another device: its file is accepted, a DBMM one refused.
    let (a, b) = ev.table(2);
    let dbmm_file = ev.file(&a, &b, &a, Margin::Narrow);
    let e = ev.refused(ErrorCode::EventWrongSystem, |bs, r, id| {
        bs.event_result_import(r, id, 1, 2, &dbmm_file)
    });
    assert_eq!(
        e.message,
        "The battle file from table 2 is a DBMM 2.x battle; this event plays GTS and ITACS: ask table 2 for the file of the battle they played here."
    );
    let gts = ev.empty_battle("gts", &a, &b);
    let mut hoplites = Vec::new();
    for (i, who) in [&a, &b].into_iter().enumerate() {
        let added = ev
            .battles
            .add_unit(
                &ev.referee,
                gts.id,
                referee_core::battle::UnitSpec {
                    label: format!("Hoplites {i}"),
                    side: who.clone(),
                    command: None,
                    role: Default::default(),
                    stats: serde_json::json!({"class": "infantry", "weapon": "SP", "armour": "H", "stands": 4}),
                },
            )
            .unwrap();
        hoplites.push(added.state.units.values().last().unwrap().id);
    }
    // One hit on the first player's hoplites: a result applied, neither army broken.
    let hit = referee_api::AdjustRequest {
        subject: referee_core::battle::Subject::Unit(hoplites[0]),
        change: serde_json::from_value(serde_json::json!({ "kind": "hits", "count": 1 })).unwrap(),
        reason: None,
    };
    ev.battles.adjust(&ev.referee, gts.id, &hit).unwrap();
    let gts_file = ev.battles.export_text(&ev.referee, gts.id).unwrap();
    let view = ev
        .battles
        .event_result_import(&ev.referee, ev.id, 1, 2, &gts_file)
        .unwrap();
    let game = &view.tournament.rounds[0].games[1];
    let result = game.result.clone().unwrap();
    assert_eq!(result.ruleset.as_deref(), Some("gts"));
    assert_eq!(game.ruleset.as_deref(), Some("gts"));
    // Neither army broken: a draw, one point each under win 3, draw 1.
    assert!(result
        .players
        .iter()
        .all(|p| p.outcome == referee_core::tournament::Outcome::Draw));
    let row = view.standings.iter().find(|r| r.player == a).unwrap();
    assert_eq!(row.points, 1.0);

    // Table 3 had no device: by hand, the system it played is asked, then kept.
    let (c, _) = ev.table(3);
    let by_hand = |ruleset: Option<&str>| HandResult {
        winner: Some(c.clone()),
        ruleset: ruleset.map(String::from),
        ..HandResult::default()
    };
    let e = ev.refused(ErrorCode::EventInvalid, |bs, r, id| {
        bs.event_result_by_hand(r, id, 1, 3, &by_hand(None))
    });
    assert!(
        e.message
            .ends_with("plays which system? Choose GTS or ITACS."),
        "{}",
        e.message
    );
    ev.refused(ErrorCode::EventWrongSystem, |bs, r, id| {
        bs.event_result_by_hand(r, id, 1, 3, &by_hand(Some("medieval")))
    });
    let view = ev
        .battles
        .event_result_by_hand(&ev.referee, ev.id, 1, 3, &by_hand(Some("gts")))
        .unwrap();
    assert_eq!(
        view.tournament.rounds[0].games[2].ruleset.as_deref(),
        Some("gts")
    );
    // A table with its result is not begun, whatever system is asked.
    let e = ev
        .battles
        .event_begin_battle(&ev.referee, ev.id, 1, 3, None)
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::EventResultIn, "{}", e.message);

    // The report and the CSV have a System column: table 1 ITACS (waiting), 2 and 3 GTS.
    let csv = ev.battles.event_csv(&ev.referee, ev.id).unwrap();
    assert!(csv.contains("\r\nRound,Table,System,Player,"), "{csv}");
    for (table, system) in [(1, "ITACS"), (2, "GTS"), (3, "GTS")] {
        assert!(
            csv.contains(&format!("\r\n1,{table},{system},")),
            "table {table}: {csv}"
        );
    }
    let page = ev.battles.event_report(&ev.referee, ev.id).unwrap();
    assert!(page.contains("<th>System</th>"));
    assert!(page.contains("<td>ITACS</td>") && page.contains("<td>GTS</td>"));
    // The scoring reads no victory points: the standings have no column of their sum (a GTS
    // level and an ITACS count added up), the games keep each battle's own.
    assert!(
        csv.starts_with(
            "Rank,Player,Army,Played,Won,Drawn,Lost,Byes,Points,Strength of schedule\r\n"
        ),
        "{csv}"
    );
    assert!(
        csv.contains(",Victory points,Player,"),
        "each game's own: {csv}"
    );
    let standings =
        &page[page.find("<h2>Standings</h2>").unwrap()..page.find("<h2>Games</h2>").unwrap()];
    assert!(!standings.contains("Victory points"), "{standings}");
}

/// A round robin takes no player once round 1 is paired (its circle is planned from round 1's
/// players, R-EVENT-7): refused in a sentence, nothing written; with round 1's pairing undone, the
/// player joins. A Swiss event takes the late entry.
#[test]
fn a_round_robin_takes_no_late_entry() {
    let mut ev = event(&["Anna", "Boris", "Clara", "Dmitri"]);
    let id = ev
        .battles
        .event_create(
            &ev.referee,
            &NewEvent {
                name: "Club league".into(),
                rulesets: vec!["dbmm".into()],
                scoring: "dbmm-25".into(),
                pairing: PairingMethod::RoundRobin,
                first_round: FirstRound::Seeded,
                rounds: 3,
            },
        )
        .unwrap()
        .id;
    let swiss = std::mem::replace(&mut ev.id, id);
    for p in ["Anna", "Boris", "Clara", "Dmitri"] {
        ev.battles
            .event_player_add(&ev.referee, id, &player(p))
            .unwrap();
    }
    assert_eq!(ev.view().why_no_player_joins, None, "before round 1");
    let paired = ev.pair(1);
    let e = ev.refused(ErrorCode::EventRoundStarted, |bs, r, id| {
        bs.event_player_add(r, id, &player("Emil"))
    });
    // The screen says so before anyone types a name.
    assert_eq!(
        paired.why_no_player_joins.as_deref(),
        Some(e.message.as_str())
    );
    assert_eq!(e.field.as_deref(), Some("name"));
    assert!(e
        .message
        .starts_with("Round 1 is paired, so this round robin takes no more players"));
    ev.battles.event_undo(&ev.referee, id).unwrap();
    let view = ev
        .battles
        .event_player_add(&ev.referee, id, &player("Emil"))
        .unwrap();
    assert_eq!(view.tournament.players.len(), 5);

    // Round 1 may be swapped by hand (the circle follows it); round 2 may not, in a sentence,
    // nothing written.
    let round1 = ev.pair(1).tournament.rounds[0].clone();
    let (a, b) = (
        round1.games[0].pairing.a.clone(),
        round1.games[1].pairing.b.clone(),
    );
    ev.battles.event_swap(&ev.referee, id, 1, &a, &b).unwrap();
    for table in [1, 2] {
        ev.battles
            .event_result_by_hand(&ev.referee, id, 1, table, &HandResult::default())
            .unwrap();
    }
    let round2 = ev.pair(2).tournament.rounds[1].clone();
    let (a, b) = (
        round2.games[0].pairing.a.clone(),
        round2.games[1].pairing.b.clone(),
    );
    let e = ev.refused(ErrorCode::EventRoundStarted, |bs, r, id| {
        bs.event_swap(r, id, 2, &a, &b)
    });
    assert!(
        e.message
            .starts_with("A round robin's round 2 follows from round 1"),
        "{}",
        e.message
    );

    ev.id = swiss;
    ev.pair(1);
    let view = ev
        .battles
        .event_player_add(&ev.referee, swiss, &player("Emil"))
        .unwrap();
    assert_eq!(
        view.tournament.players.len(),
        5,
        "a Swiss event's late entry"
    );
    assert_eq!(view.why_no_player_joins, None);
}
