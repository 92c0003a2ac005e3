//! A DBMM bound played from the roster alone (issue 34): the Romans throw their PIPs, their
//! archers shoot the Gallic slingers, the hastati fight the soldurii with an overlap, a friend
//! behind and a friend on the enemy's flank, which disheartens the Warband and removes its
//! chariots (0 ME); its Gaesatae then fight shaken in the Gauls' attack on the principes (the
//! Gallic horsemen on their flank, the hastati overlapping), are destroyed, the horsemen give way
//! with them and the Warband breaks, its general routing; at the bound's end the Nobles see the
//! broken Warband and count its ME for that bound-end only; the next bound clears it. After each
//! step the roster and every command's morale are checked, the battle replayed equals the live
//! one, and undo and redo of the step are exact.

mod turn_play;

use std::collections::BTreeMap;

use referee_core::battle::{
    fight_with, standing, Battle, BattleSetup, Contacts, DiceSource, EventBody, Mapping, Role,
    Subject, UnitId, UnitSpec,
};
use referee_core::contract::{Change, Resolution};
use referee_core::ruleset::Layers;
use referee_core::systems::dbmm::DbmmElement;
use referee_core::systems::{builtin, Ruleset};
use serde_json::{json, Value};

struct Bound {
    r: Ruleset,
    b: Battle,
}

/// Each command's state on the standing, by its name ("Legion" → "steady").
type Morale = BTreeMap<String, String>;

impl Bound {
    fn begin() -> Bound {
        let r = Ruleset::load(&Layers {
            base: builtin("dbmm").unwrap(),
            house_rules: vec![],
        })
        .unwrap();
        let setup = BattleSetup {
            name: "Gergovia".into(),
            ruleset: "dbmm".into(),
            fingerprint: r.info.fingerprint.clone(),
            sides: serde_json::from_value(json!([
                { "name": "Romans", "commands": ["Legion", "Horse"] },
                { "name": "Gauls", "commands": ["Warband", "Nobles"] }
            ]))
            .unwrap(),
        };
        let element = |label: &str, side: &str, command: &str, stats: Value| UnitSpec {
            label: label.into(),
            side: side.into(),
            command: Some(command.into()),
            role: Role::Unit,
            stats,
        };
        let general = json!({ "type": "Cv", "grade": "O", "general": true });
        let units = [
            element("Legate", "Romans", "Legion", general.clone()),
            element(
                "Hastati",
                "Romans",
                "Legion",
                json!({ "type": "Bd", "grade": "O" }),
            ),
            element(
                "Principes",
                "Romans",
                "Legion",
                json!({ "type": "Bd", "grade": "O" }),
            ),
            element(
                "Triarii",
                "Romans",
                "Legion",
                json!({ "type": "Sp", "grade": "O" }),
            ),
            element(
                "Sagittarii",
                "Romans",
                "Legion",
                json!({ "type": "Bw", "grade": "O" }),
            ),
            element("Tribune", "Romans", "Horse", general.clone()),
            element(
                "Equites",
                "Romans",
                "Horse",
                json!({ "type": "Cv", "grade": "O" }),
            ),
            // The Warband: 4 + 2 + 1 + 0 = 7 ME; disheartened past 1¾ lost, broken past 2⅓.
            element("Brennus", "Gauls", "Warband", general.clone()),
            element(
                "Soldurii",
                "Gauls",
                "Warband",
                json!({ "type": "Bd", "grade": "S" }),
            ),
            element(
                "Gaesatae",
                "Gauls",
                "Warband",
                json!({ "type": "Wb", "grade": "S" }),
            ),
            element(
                "Chariots",
                "Gauls",
                "Warband",
                json!({ "type": "Exp", "grade": "O" }),
            ),
            // The Nobles: 4 + 1 + ½ = 5½ ME; disheartened past 1⅜ lost.
            element("Vercassivellaunus", "Gauls", "Nobles", general),
            element(
                "Horsemen",
                "Gauls",
                "Nobles",
                json!({ "type": "Cv", "grade": "O" }),
            ),
            element(
                "Slingers",
                "Gauls",
                "Nobles",
                json!({ "type": "Ps", "grade": "O" }),
            ),
        ];
        let b = Battle::create_with_units(&r, setup, &units, "2026-01-01T00:00:00Z").unwrap();
        Bound { r, b }
    }

    fn id(&self, label: &str) -> UnitId {
        turn_play::id_of(&self.b, label)
    }

    fn element(&self, label: &str) -> &DbmmElement {
        self.b.state.units[&self.id(label)]
            .detail::<DbmmElement>()
            .unwrap()
    }

    /// The roster's words for an element ("in the line", "destroyed", …).
    fn summary(&self, label: &str) -> String {
        self.r
            .system
            .words(&self.b.state.units[&self.id(label)])
            .summary
    }

    /// The whole roster checked at once: every element no longer "in the line" (a general's
    /// "general, in the line") or with a move called for, by its label, in the roster's words.
    fn roster(&self) -> BTreeMap<String, String> {
        self.b
            .state
            .units
            .values()
            .filter_map(|u| {
                let words = self.summary(&u.label);
                let moved = if u.moves.is_empty() {
                    words
                } else {
                    format!("{words}; {}", u.moves.join("; "))
                };
                (!matches!(moved.as_str(), "in the line" | "general, in the line"))
                    .then(|| (u.label.clone(), moved))
            })
            .collect()
    }

    /// The moves the roster calls for on an element this phase.
    fn moves(&self, label: &str) -> Vec<String> {
        self.b.state.units[&self.id(label)].moves.clone()
    }

    /// Every command's morale, and each army's gauge: (ME lost as counted, its status).
    fn morale(&self) -> (Morale, BTreeMap<String, (f64, Option<String>)>) {
        let s = standing(&self.r, &self.b.state);
        let mut commands = Morale::new();
        let mut armies = BTreeMap::new();
        for g in s.gauges {
            // The clock and the decision at dusk are no morale.
            let Some(side) = g.side.clone() else {
                continue;
            };
            if g.label == "Decision at dusk" {
                continue;
            }
            if g.label == "Army" {
                armies.insert(side, (g.amount.unwrap(), g.status));
            } else {
                commands.insert(g.label, g.status.unwrap());
            }
        }
        (commands, armies)
    }

    fn commands(&self) -> Morale {
        self.morale().0
    }

    fn step(&mut self, body: EventBody) {
        turn_play::step(&self.r, &mut self.b, body)
    }

    /// The fight opened from the roster picks and contacts.
    fn open(
        &self,
        action: &str,
        attackers: &[&str],
        defenders: &[&str],
        behind: &[&str],
        on_enemy_flank: &[&str],
        bound_of: Option<&str>,
    ) -> (Value, Mapping, Vec<String>) {
        let ids = |labels: &[&str]| labels.iter().map(|l| self.id(l)).collect::<Vec<_>>();
        let f = fight_with(
            &self.r,
            &self.b.state,
            action,
            &ids(attackers),
            &ids(defenders),
            &Contacts {
                bound_of: bound_of.map(str::to_string),
                behind: ids(behind),
                on_enemy_flank: ids(on_enemy_flank),
            },
        )
        .unwrap();
        (
            f.situation,
            Mapping {
                units_moving: None,
                targets: f.targets,
                choices: Default::default(),
            },
            f.asks,
        )
    }

    /// Resolves with the dice as they fell and applies the result.
    fn throw(
        &mut self,
        action: &str,
        situation: &Value,
        dice: &[u32],
        mapping: &Mapping,
    ) -> Resolution {
        // A check without dice (the time of day) takes none.
        let dice = (!dice.is_empty()).then_some(dice);
        let r = self.r.resolve(action, situation, dice).unwrap();
        let source = if dice.is_some() {
            DiceSource::Physical
        } else {
            DiceSource::None
        };
        let body = self
            .b
            .apply(&self.r, &r, mapping, source, None, None)
            .unwrap();
        self.step(body);
        r
    }
}

fn roster(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(l, w)| (l.to_string(), w.to_string()))
        .collect()
}

fn morale(pairs: &[(&str, &str)]) -> Morale {
    pairs
        .iter()
        .map(|(c, s)| (c.to_string(), s.to_string()))
        .collect()
}

fn has_factor(fighter: &Value, factor: &str) -> bool {
    fighter["factors"]
        .as_array()
        .is_some_and(|f| f.iter().any(|x| x == factor))
}

#[test]
fn a_whole_dbmm_bound_from_the_roster() {
    let mut t = Bound::begin();
    let all_steady = morale(&[
        ("Legion", "steady"),
        ("Horse", "steady"),
        ("Warband", "steady"),
        ("Nobles", "steady"),
    ]);
    assert_eq!(t.commands(), all_steady);

    // 1. PIPs (p. 27), opened from the battle: bound 1 is the Romans' (the side listed first,
    // R-DBMM-41), their commands named as the roster has them, none shattered; the umpire ticks
    // the C-in-C's command.
    let (mut pips, _, asks) = t.open("pips", &[], &[], &[], &[], None);
    assert_eq!(
        pips,
        json!({ "commands": [{ "name": "Legion" }, { "name": "Horse" }] })
    );
    assert!(asks[0].starts_with("Bound 1 is the Romans'"), "{asks:?}");
    pips["commands"][0]["c_in_c"] = json!(true);
    let roster_before = t.b.state.units.clone();
    let r = t.throw("pips", &pips, &[5, 2], &Mapping::default());
    let outcome = r.outcome.as_ref().unwrap();
    assert!(
        outcome.effects.is_empty(),
        "PIPs land nothing on the roster"
    );
    assert_eq!(outcome.meaning, "Legion 5, Horse 2");
    assert_eq!(t.b.state.units, roster_before);
    assert!(t.roster().is_empty(), "{:?}", t.roster());
    assert_eq!(t.commands(), all_steady);

    // 2. Shooting (p. 34): the Sagittarii shoot the Slingers, which are destroyed. The Nobles
    // lose ½ ME of 5½: still steady, but they have now lost an element.
    let (s, m, _) = t.open("shooting", &["Sagittarii"], &["Slingers"], &[], &[], None);
    assert_eq!(s["bound"], "shooter");
    let r = t.throw("shooting", &s, &[6, 1], &m);
    assert!(
        r.outcome.as_ref().unwrap().result.contains("destroyed"),
        "{:?}",
        r.outcome
    );
    assert_eq!(t.summary("Slingers"), "destroyed");
    assert_eq!(t.roster(), roster(&[("Slingers", "destroyed")]));
    assert_eq!(t.commands(), all_steady);
    assert_eq!(t.morale().1["Gauls"].0, 0.5);

    // 3. Close combat (p. 35–42): the Hastati fight the Soldurii, the Principes overlapping them,
    // the Triarii behind the Hastati and the Equites (of the Horse) on the Soldurii's flank. Each
    // contact is entered once and counts on both elements it concerns.
    let (s, m, asks) = t.open(
        "close_combat",
        &["Hastati", "Principes"],
        &["Soldurii"],
        &["Triarii"],
        &["Equites"],
        None,
    );
    assert_eq!(s["bound"], "a", "the attackers' bound when none is named");
    assert_eq!(s["b"]["overlaps"][0]["type"], "Bd", "{s}");
    assert_eq!(s["b"]["enemy_on_flank_or_rear"], 1, "{s}");
    assert_eq!(s["a"]["friend_on_enemy_flank"]["name"], "Equites", "{s}");
    assert_eq!(s["a"]["behind"]["name"], "Triarii", "{s}");
    assert_eq!(s["a"]["support"]["ranks"][0]["name"], "Triarii", "{s}");
    assert!(
        asks.iter().any(|a| a.starts_with("Triarii behind Hastati")),
        "{asks:?}"
    );
    for label in ["Equites", "Triarii"] {
        assert!(
            m.targets.contains_key(&format!("unit:{label}")),
            "{:?}",
            m.targets
        );
    }
    let r = t.throw("close_combat", &s, &[6, 1], &m);
    // The overlap and the friend on the flank each count −1 on the Soldurii (p. 35, p. 37); the
    // Triarii (Sp) behind Bd support only against El or Kn in the enemy's bound (p. 36).
    let factor = |label: &str| {
        r.modifiers
            .iter()
            .find(|x| x.label.starts_with(label))
            .map(|x| x.value)
    };
    assert_eq!(
        factor("Soldurii: Each flank overlapped"),
        Some(-1),
        "{:?}",
        r.modifiers
    );
    assert_eq!(
        factor("Soldurii: Each enemy front edge on flank"),
        Some(-1),
        "{:?}",
        r.modifiers
    );
    assert_eq!(factor("Hastati: Rear support"), None, "{:?}", r.modifiers);
    assert!(
        r.notes
            .iter()
            .any(|n| n.message.contains("gives no support here")),
        "{:?}",
        r.notes
    );
    let outcome = r.outcome.as_ref().unwrap();
    assert!(outcome.result.ends_with("destroyed"), "{}", outcome.result);
    assert_eq!(t.summary("Soldurii"), "destroyed");
    // The Warband has lost 2 ME of 7: disheartened, and its chariots (0 ME) leave the table in
    // the same entry of the log (p. 43, R-DBMM-35).
    assert_eq!(
        t.commands(),
        morale(&[
            ("Legion", "steady"),
            ("Horse", "steady"),
            ("Warband", "disheartened"),
            ("Nobles", "steady"),
        ])
    );
    assert_eq!(t.summary("Chariots"), "removed (its command disheartened)");
    assert_eq!(
        t.roster(),
        roster(&[
            ("Slingers", "destroyed"),
            ("Soldurii", "destroyed"),
            ("Chariots", "removed (its command disheartened)"),
        ])
    );
    // The step undid and redid it: the combat is the last result applied.
    let changes =
        t.b.events
            .iter()
            .rev()
            .find_map(|e| match &e.body {
                EventBody::Applied { changes, .. } => Some(changes),
                _ => None,
            })
            .unwrap();
    let removal = changes
        .iter()
        .find(|c| c.subject == Subject::Unit(t.id("Chariots")))
        .unwrap();
    assert_eq!(removal.rule, "p. 43");
    assert_eq!(removal.ruling.as_deref(), Some("R-DBMM-35"));
    for label in [
        "Hastati",
        "Principes",
        "Triarii",
        "Equites",
        "Gaesatae",
        "Brennus",
    ] {
        assert!(!t.b.state.units[&t.id(label)].lost, "{label} stays in play");
    }

    // 4. The Gauls attack in the Romans' bound (named: the attackers' is not the bound's): the
    // Gaesatae, 1 ME of a disheartened command, fight shaken without anything ticked; the
    // Horsemen are in contact with the Principes' flank, the Hastati overlap the Gaesatae.
    let (s, m, asks) = t.open(
        "close_combat",
        &["Gaesatae"],
        &["Principes", "Hastati"],
        &[],
        &["Horsemen"],
        Some("Romans"),
    );
    assert_eq!(s["a"]["overlaps"][0]["type"], "Bd", "{s}");
    assert_eq!(s["b"]["enemy_on_flank_or_rear"], 1, "{s}");
    assert_eq!(s["bound"], "b", "the Romans' bound, the defenders'");
    assert!(
        asks.contains(&"Fought in the bound of Romans (R-DBMM-37).".to_string()),
        "{asks:?}"
    );
    assert!(has_factor(&s["a"], "shaken"), "{s}");
    assert!(!has_factor(&s["b"], "shaken"), "{s}");
    assert!(
        asks.iter().any(|a| a.contains("Warband) is disheartened")),
        "{asks:?}"
    );
    let r = t.throw("close_combat", &s, &[1, 6], &m);
    assert!(
        r.outcome.as_ref().unwrap().result.starts_with("destroyed"),
        "{:?}",
        r.outcome
    );
    assert_eq!(t.summary("Gaesatae"), "destroyed");
    // The friend on the enemy's flank gives way with the Gaesatae (p. 38).
    assert_eq!(
        t.moves("Horsemen"),
        vec!["Horsemen: recoils 30p (its base depth); if it cannot, it is spent".to_string()]
    );
    // 3 ME of 7 lost: the Warband breaks, and its land elements left rout (p. 43): Brennus; the
    // Nobles are not broken.
    assert_eq!(t.commands()["Warband"], "broken");
    assert_eq!(
        t.moves("Brennus"),
        vec!["Brennus: routs 480p GGo, 320p RGo, 160p DGo".to_string()]
    );
    assert!(
        t.moves("Vercassivellaunus").is_empty(),
        "the Nobles do not rout"
    );
    let after_the_combats = roster(&[
        ("Slingers", "destroyed"),
        ("Soldurii", "destroyed"),
        ("Chariots", "removed (its command disheartened)"),
        ("Gaesatae", "destroyed"),
        (
            "Horsemen",
            "in the line; Horsemen: recoils 30p (its base depth); if it cannot, it is spent",
        ),
        (
            "Brennus",
            "general, in the line; Brennus: routs 480p GGo, 320p RGo, 160p DGo",
        ),
    ]);
    assert_eq!(t.roster(), after_the_combats);
    let (_, armies) = t.morale();
    assert_eq!(
        armies["Gauls"],
        (3.5, None),
        "3 ME of the Warband and the Slingers' ½"
    );

    // 5. The bound ends: the umpire marks the Horsemen as seeing the broken Warband within 800p
    // (p. 43, R-DBMM-36). The Nobles, who have lost an element, count 1 ME more lost (the Warband
    // is 12 ME or less): 1½ of 5½, past ¼ — disheartened for this bound-end.
    let words = t.r.system.words(&t.b.state.units[&t.id("Horsemen")]);
    let sees = words
        .quick_edits
        .iter()
        .find(|q| q.label == "Sees a broken command within 800p")
        .unwrap()
        .change
        .clone();
    let body =
        t.b.adjust(&t.r, Subject::Unit(t.id("Horsemen")), sees, None)
            .unwrap();
    t.step(body);
    assert!(t.element("Horsemen").sees_broken);
    let mut marked = after_the_combats.clone();
    marked.insert(
        "Horsemen".into(),
        "in the line, sees a broken command within 800p; Horsemen: recoils 30p (its base depth); if it cannot, it is spent".into(),
    );
    assert_eq!(t.roster(), marked);
    assert_eq!(t.commands()["Nobles"], "disheartened");
    let nobles = standing(&t.r, &t.b.state)
        .gauges
        .into_iter()
        .find(|g| g.label == "Nobles")
        .unwrap();
    assert_eq!(
        nobles.value,
        "lost 1½ of 5½ ME, 1 of them for a broken command in sight this bound-end"
    );
    let (_, armies) = t.morale();
    assert_eq!(
        armies["Gauls"],
        (4.5, None),
        "the Nobles' temporary ME counts for the army"
    );
    assert_eq!(t.commands()["Legion"], "steady");
    assert_eq!(t.commands()["Horse"], "steady");

    // 6. The next bound: the mark ends with the bound-end, the Nobles count only what they lost;
    // the Warband stays broken, its losses being real.
    let next = t.b.advance_turn(Some(t.b.state.turn + 1), None);
    turn_play::record(&t.r, &mut t.b, next);
    assert!(!t.element("Horsemen").sees_broken);
    // Only what was lost stays: the moves called for were the last bound's.
    assert_eq!(
        t.roster(),
        roster(&[
            ("Slingers", "destroyed"),
            ("Soldurii", "destroyed"),
            ("Chariots", "removed (its command disheartened)"),
            ("Gaesatae", "destroyed"),
        ])
    );
    assert_eq!(
        t.commands(),
        morale(&[
            ("Legion", "steady"),
            ("Horse", "steady"),
            ("Warband", "broken"),
            ("Nobles", "steady"),
        ])
    );
    assert!(
        t.moves("Brennus").is_empty(),
        "a rout called for is made in its bound"
    );
    let replayed = Battle::open(&t.r, t.b.events.clone()).unwrap();
    assert_eq!(replayed.state, t.b.state);
}

/// The clock line on the battle's standing ("Bound 7 · 14:10, day; dusk at 17:40").
/// The situation opened, with what the umpire enters in its fields.
fn entered(situation: &Value, values: &[(&str, &str)]) -> Value {
    let mut out = situation.clone();
    for (k, v) in values {
        out[*k] = json!(v);
    }
    out
}

fn clock_line(t: &Bound) -> Option<String> {
    standing(&t.r, &t.b.state)
        .gauges
        .into_iter()
        .find(|g| g.side.is_none() && g.label.starts_with("Bound "))
        .map(|g| format!("{} · {}", g.label, g.value))
}

/// Issue 34, item 3: the battle's clock. The time of day opened from the battle asks for the
/// clock once; applied, the battle keeps it and counts 10 minutes a bound (p. 23, R-DBMM-39); the
/// check opened again reads the time, the night's first bound and the moon from the battle; past
/// dusk each side's decision is one tap (R-DBMM-40). Every step's undo, redo and replay are
/// exact.
#[test]
fn the_battle_keeps_its_clock_bound_by_bound() {
    let mut t = Bound::begin();
    assert_eq!(clock_line(&t), None, "no clock before the umpire starts it");
    // Bound 1 from the battle: nothing to read yet, so it asks.
    let (situation, mapping, asks) = t.open("daylight", &[], &[], &[], &[], None);
    assert_eq!(situation, json!({ "bound": 1, "starts_clock": true }));
    assert!(asks[0].contains("10 minutes a bound"), "{asks:?}");
    let opened = fight_with(&t.r, &t.b.state, "daylight", &[], &[], &Contacts::default()).unwrap();
    assert_eq!(
        opened.labels["starts_clock"],
        "The battle keeps this time as its clock: each bound adds 10 minutes (p. 23)"
    );
    // Cold Winter: dawn 07:30, sunrise 08:00, sunset 16:00, dusk 16:30 (p. 23). The deployment
    // dice's total, 15, would be 15:00; the umpire starts bound 1 at 15:50, no moon die yet.
    let r = t.throw(
        "daylight",
        &entered(
            &situation,
            &[
                ("clock", "15:50"),
                ("climate", "Cold"),
                ("season", "Winter"),
            ],
        ),
        &[],
        &mapping,
    );
    assert_eq!(
        r.outcome.as_ref().unwrap().effects[0].text,
        "The battle's clock: bound 1 at 15:50, Cold Winter."
    );
    assert_eq!(
        clock_line(&t).unwrap(),
        "Bound 1 · 15:50, day; dusk at 16:30"
    );
    // The log line, and so the undo's label, says what undo takes back: the clock set, not the
    // period the check read ("Daylight: Day").
    assert_eq!(
        t.b.events
            .iter()
            .rev()
            .find(|e| matches!(e.body, EventBody::Applied { .. }))
            .unwrap()
            .body
            .describe(|_| None),
        "The battle's clock set: the first bound at 15:50, Cold Winter"
    );

    // The moon die, entered once from the battle's check, is kept.
    let (situation, mapping, asks) = t.open("daylight", &[], &[], &[], &[], None);
    assert_eq!(situation["clock"], "15:50");
    assert_eq!(situation["climate"], "Cold");
    assert!(asks[0].contains("first deployment die"), "{asks:?}");
    let mut entered = situation.clone();
    entered["moon_die"] = json!(6);
    t.throw("daylight", &entered, &[], &mapping);
    let (situation, _, asks) = t.open("daylight", &[], &[], &[], &[], None);
    assert_eq!(situation["moon_die"], 6);
    assert!(asks.is_empty(), "nothing left to ask: {asks:?}");

    // The bounds advance: each adds 10 minutes.
    // (A turn advanced is recorded, not undone: undo takes back results.)
    for _ in 0..5 {
        let next = t.b.advance_turn(Some(t.b.state.turn + 1), None);
        turn_play::record(&t.r, &mut t.b, next);
    }
    assert_eq!(
        clock_line(&t).unwrap(),
        "Bound 6 · 16:40, night, moonlit; dawn at 07:30"
    );
    // The check from the battle reads the night's first bound (5, at 16:30) and the moon: a 6
    // has risen already and sets at the end of the 1st night bound after bound 6 (R-DBMM-31).
    let (situation, mapping, _) = t.open("daylight", &[], &[], &[], &[], None);
    assert_eq!(situation["clock"], "16:40");
    assert_eq!(situation["bound"], 6);
    assert_eq!(situation["night_began"], 5);
    assert!(situation.get("starts_clock").is_none());
    let r = t.r.resolve("daylight", &situation, None).unwrap();
    assert_eq!(r.outcome.as_ref().unwrap().result, "night_moonlight");
    assert!(r.outcome.as_ref().unwrap().effects.is_empty());
    assert!(mapping.targets.is_empty());
    let seen = r.totals.iter().find(|x| x.label == "Visibility").unwrap();
    assert_eq!(seen.value, "160p");
    let next = t.b.advance_turn(Some(8), None);
    turn_play::record(&t.r, &mut t.b, next);
    assert_eq!(
        clock_line(&t).unwrap(),
        "Bound 8 · 17:00, night, moonless; dawn at 07:30"
    );

    // Bound 8 is the Gauls': their PIP dice open with their commands.
    let (pips, _, asks) = t.open("pips", &[], &[], &[], &[], None);
    assert_eq!(
        pips,
        json!({ "commands": [{ "name": "Warband" }, { "name": "Nobles" }] })
    );
    assert!(asks[0].starts_with("Bound 8 is the Gauls'"), "{asks:?}");

    // Past dusk, each side's decision: one tap records a retreat.
    let decisions: Vec<_> = standing(&t.r, &t.b.state)
        .gauges
        .into_iter()
        .filter(|g| g.label == "Decision at dusk")
        .collect();
    assert_eq!(decisions.len(), 2);
    for g in decisions {
        let offer = g.offer.unwrap();
        // Both sides' names end in s: "Record Romans' retreat".
        let side = g.side.as_deref().unwrap();
        assert_eq!(offer.label, format!("Record {side}' retreat"));
        let body =
            t.b.adjust(&t.r, Subject::Side(side.to_string()), offer.change, None)
                .unwrap();
        // Said by the side's name, as on the standing, not "Army Romans".
        let EventBody::Adjusted { changes, .. } = &body else {
            panic!("a side's change by hand is an adjustment: {body:?}")
        };
        assert_eq!(
            changes[0].text,
            format!("{side}: retreats at dusk rather than fight on at dawn")
        );
        t.step(body);
    }
    let end = standing(&t.r, &t.b.state)
        .gauges
        .into_iter()
        .find(|g| g.label == "The battle")
        .unwrap();
    assert_eq!(end.status.as_deref(), Some("ends"));
    assert_eq!(end.value, "both sides retreat");
    // A side that has retreated cannot record it again: refused in words, nothing written
    // (p. 23).
    let again =
        t.b.adjust(
            &t.r,
            Subject::Side("Romans".into()),
            Change::RetreatAtDusk,
            None,
        )
        .unwrap_err();
    assert_eq!(
        again.message,
        "Romans has already recorded its retreat at dusk; nothing was written (p. 23)."
    );
    let replayed = Battle::open(&t.r, t.b.events.clone()).unwrap();
    assert_eq!(replayed.state, t.b.state);
}

/// Issue 34, item 3: a close combat opened from the roster takes its time of day from the
/// battle's clock (p. 23, R-DBMM-39): at night the −2 for Mounted counts without a tick
/// (p. 37, R-DBMM-19), the field says where it came from, and the forecast of the opened fight
/// is what applying it lands.
#[test]
fn a_fight_opened_at_night_takes_the_night_from_the_clock() {
    let mut t = Bound::begin();
    // Before the clock starts, a fight opens in the day, with nothing said of a clock.
    let (s, _, asks) = t.open("close_combat", &["Equites"], &["Horsemen"], &[], &[], None);
    // Day is the form's default: left out of the situation.
    assert!(s.get("time").is_none(), "{s}");
    assert!(
        !asks.iter().any(|a| a.contains("battle's clock")),
        "{asks:?}"
    );

    // Cold Winter, bound 1 at 15:50: bound 6 is 16:40, night (dusk at 16:30).
    let (situation, mapping, _) = t.open("daylight", &[], &[], &[], &[], None);
    let mut entered = situation.clone();
    for (k, v) in [
        ("clock", "15:50"),
        ("climate", "Cold"),
        ("season", "Winter"),
    ] {
        entered[k] = json!(v);
    }
    t.throw("daylight", &entered, &[], &mapping);
    let day = t.open("close_combat", &["Equites"], &["Horsemen"], &[], &[], None);
    assert!(
        day.0.get("time").is_none(),
        "bound 1, 15:50 is day: {}",
        day.0
    );
    assert!(
        day.2.iter().any(|a| a.starts_with("Day — bound 1, 15:50")),
        "{:?}",
        day.2
    );
    for _ in 0..5 {
        let next = t.b.advance_turn(Some(t.b.state.turn + 1), None);
        turn_play::record(&t.r, &mut t.b, next);
    }

    let fight = fight_with(
        &t.r,
        &t.b.state,
        "close_combat",
        &[t.id("Equites")],
        &[t.id("Horsemen")],
        &Contacts::default(),
    )
    .unwrap();
    assert_eq!(fight.situation["time"], "night");
    assert_eq!(
        fight.labels.get("time").map(String::as_str),
        Some("Time of day, from the battle's clock: Night — bound 6, 16:40")
    );
    assert!(
        fight
            .asks
            .iter()
            .any(|a| a.starts_with("Night — bound 6, 16:40")),
        "{:?}",
        fight.asks
    );
    let (s, m, _) = t.open("close_combat", &["Equites"], &["Horsemen"], &[], &[], None);
    // Both Cv: each takes the −2 of night with no tick (p. 37).
    let forecast = t.r.resolve("close_combat", &s, None).unwrap();
    let night: Vec<_> = forecast
        .modifiers
        .iter()
        .filter(|x| x.label.contains("between dusk and sunrise"))
        .collect();
    assert_eq!(night.len(), 2, "{:?}", forecast.modifiers);
    assert!(night
        .iter()
        .all(|x| x.value == -2 && x.ruling.as_deref() == Some("R-DBMM-19")));
    // The umpire may still say the fight is in daylight: then no night factor.
    let mut by_day = s.clone();
    by_day["time"] = json!("day");
    let r = t.r.resolve("close_combat", &by_day, None).unwrap();
    assert!(!r
        .modifiers
        .iter()
        .any(|x| x.label.contains("between dusk and sunrise")));

    // Equites 6, Horsemen 1, applied: the same factors as the forecast, one of its results,
    // landed on the Horsemen.
    let before = t.summary("Horsemen");
    let thrown = t.throw("close_combat", &s, &[6, 1], &m);
    assert_eq!(thrown.modifiers, forecast.modifiers);
    let result = thrown.outcome.as_ref().unwrap().result.clone();
    assert!(
        forecast.distribution.iter().any(|d| d.result == result),
        "{result} is one of the forecast's results"
    );
    assert_ne!(
        t.summary("Horsemen"),
        before,
        "the result landed on the Horsemen"
    );
    let replayed = Battle::open(&t.r, t.b.events.clone()).unwrap();
    assert_eq!(replayed.state, t.b.state);
}

/// Issue 34, item 6: at the start of the Gauls' bound the spontaneous advance opened from the
/// battle lists their impetuous elements in play — the Chariots (Exp, p. 30) — with what halting
/// them costs; left unhalted they advance through the Soldurii, who flee (Any passed through by
/// El or Exp flee, p. 32, R-DBMM-43): the flight lands on the Soldurii's row, every command's
/// morale stays as it was, and the step replays and undoes exactly.
#[test]
fn a_spontaneous_advance_from_the_roster_passes_through_friends() {
    let mut t = Bound::begin();
    // Bound 1 is the Romans': none of theirs is impetuous.
    let (s, _, asks) = t.open("spontaneous_advance", &[], &[], &[], &[], None);
    assert_eq!(s, json!({ "elements": [] }));
    assert!(asks[0].starts_with("Bound 1 is the Romans'"), "{asks:?}");
    let next = t.b.advance_turn(Some(2), None);
    turn_play::record(&t.r, &mut t.b, next);

    let (s, mapping, asks) = t.open("spontaneous_advance", &[], &[], &[], &[], None);
    assert!(asks[0].starts_with("Bound 2 is the Gauls'"), "{asks:?}");
    assert_eq!(
        s,
        json!({ "elements": [{ "element": { "type": "Exp", "grade": "O", "name": "Chariots" } }] })
    );
    let r = t.throw("spontaneous_advance", &s, &[], &mapping);
    assert_eq!(
        r.outcome.as_ref().unwrap().meaning,
        "Must advance spontaneously: Chariots. Halting it costs 1 PIP."
    );
    assert!(t.roster().is_empty(), "nothing lands: {:?}", t.roster());

    // The Chariots pass through the Soldurii, facing the same way: the Soldurii flee. "Pass
    // through…" opens from the Chariots' row; the friend is picked from their side's elements.
    let words = t.r.system.words(&t.b.state.units[&t.id("Chariots")]);
    let pass = words
        .quick_edits
        .iter()
        .find(|q| q.label == "Pass through…")
        .unwrap();
    assert_eq!(pass.opens.as_deref(), Some("interpenetration"));
    let (mut passing, mapping, _) = t.open("interpenetration", &["Chariots"], &[], &[], &[], None);
    assert_eq!(passing["element"]["name"], "Chariots");
    let friends = passing["friends"].as_object().unwrap();
    assert!(friends.contains_key("Soldurii") && !friends.contains_key("Chariots"));
    assert!(
        friends
            .keys()
            .all(|k| t.b.state.units[&t.id(k)].side == "Gauls"),
        "{friends:?}"
    );
    assert_eq!(mapping.targets["unit:Soldurii"], vec![t.id("Soldurii")]);
    // A name not among them is refused in words, naming those it may be.
    passing["through"] = json!("Scipio");
    let e = t.r.resolve("interpenetration", &passing, None).unwrap_err();
    assert!(
        e.message
            .starts_with("Scipio is not a friend on the table; pick one of "),
        "{}",
        e.message
    );
    passing["through"] = json!("Soldurii");
    passing["passing"] = json!("spontaneous");
    let before = t.commands();
    let r = t.throw("interpenetration", &passing, &[], &mapping);
    let outcome = r.outcome.as_ref().unwrap();
    assert_eq!(outcome.result, "passes_through");
    assert_eq!(
        outcome.meaning,
        "Chariots passes through Soldurii. Any passed through by El or Exp flee."
    );
    // The flight is a move called for on the Soldurii's row.
    assert_eq!(
        t.roster(),
        roster(&[(
            "Soldurii",
            "in the line; Soldurii: flees 160p GGo, 160p RGo, 80p DGo"
        )])
    );
    assert_eq!(t.commands(), before);
    let replayed = Battle::open(&t.r, t.b.events.clone()).unwrap();
    assert_eq!(replayed.state, t.b.state);
}

/// Issue 34: the terrain chosen (p. 20). Opened from the battle, the Invader's choice applied
/// lands on the battle in one undoable step, the standing says it in words, and the step opened
/// again is the Defender's with the Invader's features beside it (R-DBMM-49). Morale is
/// untouched; replay, undo and redo are exact.
#[test]
fn the_battle_keeps_the_terrain_chosen() {
    let mut t = Bound::begin();
    let before = t.commands();
    let (mut situation, mapping, asks) = t.open("terrain_choice", &[], &[], &[], &[], None);
    assert_eq!(situation["chooser"], "invader");
    assert!(asks[0].contains("The Invader chooses first"), "{asks:?}");
    situation["features"] = json!([
        { "terrain": "Wd", "size": "small" },
        { "terrain": "Rd", "size": "first_unpaved_road" },
    ]);
    let r = t.throw("terrain_choice", &situation, &[], &mapping);
    assert_eq!(r.outcome.unwrap().result, "may_choose");
    assert_eq!(t.commands(), before, "choosing terrain moves no morale");
    let chosen = standing(&t.r, &t.b.state)
        .gauges
        .into_iter()
        .find(|g| g.label == "Terrain chosen by the Invader")
        .unwrap();
    assert_eq!(
        chosen.value,
        "Wd, area feature up to 480 × 480p; Rd, first unpaved road"
    );
    assert_eq!(chosen.ruling.as_deref(), Some("R-DBMM-49"));
    let applied =
        t.b.events
            .iter()
            .rev()
            .find(|e| matches!(e.body, EventBody::Applied { .. }))
            .unwrap();
    assert_eq!(
        applied.body.describe(|_| None),
        "The Invader's terrain chosen: Wd, small; Rd, first unpaved road"
    );
    let (again, _, asks) = t.open("terrain_choice", &[], &[], &[], &[], None);
    assert_eq!(again["chooser"], "defender");
    assert_eq!(again["invader_features"], situation["features"]);
    assert!(asks.is_empty(), "{asks:?}");
    // Undone, nothing is kept.
    let undo = t.b.undo().unwrap();
    turn_play::record(&t.r, &mut t.b, undo);
    assert!(standing(&t.r, &t.b.state)
        .gauges
        .iter()
        .all(|g| !g.label.starts_with("Terrain chosen")));
    assert_eq!(t.commands(), before);
}

/// A roll edited after a later event landed what it brought about: the later event's follow-ons
/// are derived again from the battle as it now stands. The Slingers shot (½ ME of the Nobles'
/// 5½), then the Horsemen lost by hand (1 ME more): the Nobles, past 1⅜ lost, are disheartened
/// and their 0 ME carts leave in the Horsemen's entry (p. 43, R-DBMM-35). Edited so the Slingers
/// survive, the Nobles have lost 1 ME only: steady, and the carts stay.
#[test]
fn an_edited_roll_derives_the_later_follow_ons_again() {
    let mut t = Bound::begin();
    let carts = UnitSpec {
        label: "Carts".into(),
        side: "Gauls".into(),
        command: Some("Nobles".into()),
        role: Role::Unit,
        stats: json!({ "type": "Exp", "grade": "O" }),
    };
    let added = t.b.add_unit(&t.r, carts).unwrap();
    t.step(added);

    let (shot, m, _) = t.open("shooting", &["Sagittarii"], &["Slingers"], &[], &[], None);
    t.throw("shooting", &shot, &[6, 1], &m);
    // The step undid and redid it: the shot is the last result applied.
    let shooting =
        t.b.events
            .iter()
            .rev()
            .find(|e| matches!(e.body, EventBody::Applied { .. }))
            .unwrap()
            .seq;
    assert_eq!(t.summary("Slingers"), "destroyed");
    assert_eq!(t.commands()["Nobles"], "steady");

    let lost =
        t.b.adjust(
            &t.r,
            Subject::Unit(t.id("Horsemen")),
            Change::ElementFate {
                fate: referee_core::fate::Fate::Destroyed.into(),
            },
            None,
        )
        .unwrap();
    t.step(lost);
    assert_eq!(t.commands()["Nobles"], "disheartened");
    assert_eq!(t.summary("Carts"), "removed (its command disheartened)");
    let recorded = t.b.events.clone();

    // The shot edited: the Slingers are not destroyed; the Horsemen's loss no longer
    // disheartens the Nobles, and the carts are back in the line.
    let (body, _) =
        t.b.edit_roll(&t.r, shooting, &shot, &[1, 6], DiceSource::Physical)
            .unwrap();
    t.step(body);
    assert_ne!(t.summary("Slingers"), "destroyed");
    assert_eq!(t.summary("Horsemen"), "destroyed");
    assert_eq!(t.commands()["Nobles"], "steady");
    assert_eq!(t.summary("Carts"), "in the line");

    // Edited back, the carts leave again, once.
    let (body, _) =
        t.b.edit_roll(&t.r, shooting, &shot, &[6, 1], DiceSource::Physical)
            .unwrap();
    t.step(body);
    assert_eq!(t.commands()["Nobles"], "disheartened");
    assert_eq!(t.summary("Carts"), "removed (its command disheartened)");

    // A battle recorded before follow-ons were marked keeps them as the result's own changes:
    // an edit lands them once, not twice.
    let mut old = recorded;
    for e in &mut old {
        if let EventBody::Adjusted { changes, .. } | EventBody::Applied { changes, .. } =
            &mut e.body
        {
            for c in changes {
                c.follow_on = false;
            }
        }
    }
    let mut t = Bound {
        b: Battle::open(&t.r, old).unwrap(),
        r: t.r,
    };
    let (body, _) =
        t.b.edit_roll(&t.r, shooting, &shot, &[6, 1], DiceSource::Physical)
            .unwrap();
    t.step(body);
    assert_eq!(t.summary("Carts"), "removed (its command disheartened)");
}

/// Issue 34: the weather set with the battle's clock (p. 23, 25). Kept by the battle, said with
/// the clock on the standing, and read by the time of day opened again rather than asked; the
/// visibility it gives follows it. Undone, the clock goes with it; replay is exact.
#[test]
fn the_weather_is_kept_with_the_clock() {
    let mut t = Bound::begin();
    let (situation, mapping, _) = t.open("daylight", &[], &[], &[], &[], None);
    let set = [
        ("clock", "12:00"),
        ("climate", "Cold"),
        ("season", "Winter"),
        ("weather", "mist"),
    ];
    let r = t.throw("daylight", &entered(&situation, &set), &[], &mapping);
    assert_eq!(
        r.outcome.as_ref().unwrap().effects[0].text,
        "The battle's clock: bound 1 at 12:00, Cold Winter, Mist."
    );
    assert_eq!(
        clock_line(&t).unwrap(),
        "Bound 1 · 12:00, day; dusk at 16:30; Mist"
    );
    let (again, _, _) = t.open("daylight", &[], &[], &[], &[], None);
    assert_eq!(again["weather"], "mist");
    let r = t.r.resolve("daylight", &again, None).unwrap();
    let seen = r.totals.iter().find(|x| x.label == "Visibility").unwrap();
    assert_eq!(seen.value, "160p");
    let replayed = Battle::open(&t.r, t.b.events.clone()).unwrap();
    assert_eq!(replayed.state, t.b.state);
    let undo = t.b.undo().unwrap();
    turn_play::record(&t.r, &mut t.b, undo);
    assert_eq!(clock_line(&t), None);
}
