//! A GTS turn played from the roster alone: bowmen fire at peltasts in cover, cavalry charge the
//! peltasts (the 4.43 morale check chained in front of the round), a melee round between the
//! Immortals and the hoplites runs through stand loss, recoil and rout with a leader's test, the
//! Disordered peltasts recover, and the turn advances. Every die of every chain is entered as the
//! table threw it. After each step the roster and the army break points are checked, the battle
//! replayed from its events equals the live one, and undoing the step gives back exactly the
//! battle before it (redo, exactly the one after).

mod turn_play;

use referee_core::battle::{
    fight, standing, Battle, BattleSetup, DiceSource, EventBody, Mapping, Role, Subject, UnitId,
    UnitSpec,
};
use referee_core::contract::{Change, Effect, Resolution, Target};
use referee_core::ruleset::Layers;
use referee_core::state::{LeaderFate, UnitState};
use referee_core::systems::gts::GtsUnit;
use referee_core::systems::{builtin, Ruleset};
use referee_core::ErrorCode;
use serde_json::{json, Value};

fn ruleset() -> Ruleset {
    Ruleset::load(&Layers {
        base: builtin("gts").unwrap(),
        house_rules: vec![],
    })
    .unwrap()
}

struct Turn {
    r: Ruleset,
    b: Battle,
}

impl Turn {
    fn begin() -> Turn {
        let r = ruleset();
        let setup = BattleSetup {
            name: "Plataea".into(),
            ruleset: "gts".into(),
            fingerprint: r.info.fingerprint.clone(),
            sides: serde_json::from_value(json!([{ "name": "Persians" }, { "name": "Greeks" }]))
                .unwrap(),
        };
        let unit = |label: &str, side: &str, role: Role, stats: Value| UnitSpec {
            label: label.into(),
            side: side.into(),
            command: None,
            role,
            stats,
        };
        let units = [
            // The army's general with his guard (8.0: lost, he lowers the break point).
            unit(
                "Mardonius",
                "Persians",
                Role::General,
                json!({ "class": "cavalry", "armour": "M", "weapon": "LN", "stands": 1 }),
            ),
            unit(
                "Immortals",
                "Persians",
                Role::Unit,
                json!({ "class": "infantry", "armour": "M", "weapon": "SP", "order": "CO", "stands": 4,
                        "tag": { "hits_per_stand": 3 } }),
            ),
            // Their leader, a row of his own attached to them (1.5, 1.6, R-GTS-32).
            unit(
                "Artaphernes",
                "Persians",
                Role::Leader,
                json!({ "pv": 1, "pc": 3, "ts": "G", "leads": "Immortals" }),
            ),
            unit(
                "Sparabara",
                "Persians",
                Role::Unit,
                json!({ "class": "infantry", "armour": "L", "weapon": "BW", "stands": 4 }),
            ),
            unit(
                "Persian cavalry",
                "Persians",
                Role::Unit,
                json!({ "class": "cavalry", "armour": "N", "weapon": "BW", "stands": 3 }),
            ),
            unit(
                "Pausanias",
                "Greeks",
                Role::General,
                json!({ "class": "infantry", "armour": "H", "weapon": "SP", "order": "CO", "stands": 1 }),
            ),
            unit(
                "Hoplites",
                "Greeks",
                Role::Unit,
                json!({ "class": "infantry", "armour": "H", "weapon": "SP", "order": "CO", "stands": 4 }),
            ),
            unit(
                "Peltasts",
                "Greeks",
                Role::Unit,
                json!({ "class": "infantry", "armour": "L", "weapon": "JV", "order": "OO", "stands": 4 }),
            ),
            unit(
                "Greek cavalry",
                "Greeks",
                Role::Unit,
                json!({ "class": "cavalry", "armour": "M", "weapon": "LN", "stands": 3 }),
            ),
        ];
        let b = Battle::create_with_units(&r, setup, &units, "2026-01-01T00:00:00Z").unwrap();
        Turn { r, b }
    }

    fn id(&self, label: &str) -> UnitId {
        turn_play::id_of(&self.b, label)
    }

    fn unit(&self, label: &str) -> &UnitState {
        &self.b.state.units[&self.id(label)]
    }

    fn gts(&self, label: &str) -> &GtsUnit {
        self.unit(label).detail::<GtsUnit>().unwrap()
    }

    /// The army break point gauge of a side: (units lost, its break point).
    fn break_point(&self, side: &str) -> (f64, f64) {
        let g = standing(&self.r, &self.b.state)
            .gauges
            .into_iter()
            .find(|g| g.side.as_deref() == Some(side) && g.label == "Army break point")
            .unwrap();
        (g.amount.unwrap(), g.limit.unwrap())
    }

    /// The words of a side's army break point: "50%" once its general is lost (8.0).
    fn threshold(&self, side: &str) -> String {
        standing(&self.r, &self.b.state)
            .gauges
            .into_iter()
            .find(|g| g.side.as_deref() == Some(side) && g.label == "Army break point")
            .and_then(|g| g.threshold)
            .unwrap()
    }

    /// Records one step; replay, undo and redo checked exact.
    fn step(&mut self, body: EventBody) {
        turn_play::step(&self.r, &mut self.b, body)
    }

    fn record(&mut self, body: EventBody) {
        turn_play::record(&self.r, &mut self.b, body)
    }

    /// The fight opened from the roster picks, its situation changed by `set`.
    fn open(
        &self,
        action: &str,
        attackers: &[&str],
        defenders: &[&str],
        set: impl FnOnce(&mut Value),
    ) -> (Value, Mapping) {
        let ids = |labels: &[&str]| labels.iter().map(|l| self.id(l)).collect::<Vec<_>>();
        let f = fight(
            &self.r,
            &self.b.state,
            action,
            &ids(attackers),
            &ids(defenders),
        )
        .unwrap();
        let mut situation = f.situation.clone();
        set(&mut situation);
        (
            situation,
            Mapping {
                units_moving: None,
                targets: f.targets.clone(),
                choices: Default::default(),
            },
        )
    }

    /// Resolves with the faces as entered one stage at a time: the faces given so far lay out the
    /// next dice; the outcome comes with the last.
    fn throw(&self, action: &str, situation: &Value, faces: &[u32]) -> Resolution {
        let in_turn = self
            .r
            .resolve(action, situation, None)
            .unwrap()
            .shown
            .in_turn;
        for n in (1..faces.len()).filter(|_| in_turn) {
            let so_far = self
                .r
                .resolve(action, situation, Some(&faces[..n]))
                .unwrap();
            assert!(
                so_far.outcome.is_none(),
                "{action}: an outcome after {n} dice"
            );
            assert!(
                so_far.shown.faces.len() > n,
                "{action}: no die asked after {n}"
            );
        }
        let r = self.r.resolve(action, situation, Some(faces)).unwrap();
        assert!(r.outcome.is_some(), "{action} {faces:?}: no outcome");
        r
    }

    fn apply(&mut self, r: &Resolution, mapping: &Mapping) {
        let body = self
            .b
            .apply(&self.r, r, mapping, DiceSource::Physical, None, None)
            .unwrap();
        self.step(body);
    }
}

/// A chain thrown on from its first faces, each next die as a table might throw it (a fixed
/// sequence), to its outcome: the faces entered one stage at a time.
fn thrown_on(t: &Turn, action: &str, situation: &Value, first: Vec<u32>) -> Vec<u32> {
    let mut faces = first;
    let mut k = 7u32;
    loop {
        let r = t.r.resolve(action, situation, Some(&faces)).unwrap();
        if r.outcome.is_some() {
            return faces;
        }
        for d in &r.shown.faces[faces.len()..] {
            k = k * 5 % 11;
            faces.push(k % d.sides + 1);
        }
    }
}

/// A chain thrown on from its first faces, each next die's face picked by what it is thrown for
/// (its purpose), to its outcome; answers the outcome and every face entered.
fn thrown_by_purpose(
    t: &Turn,
    action: &str,
    situation: &Value,
    first: Vec<u32>,
    face: impl Fn(&str) -> u32,
) -> (Resolution, Vec<u32>) {
    let mut faces = first;
    loop {
        let r = t.r.resolve(action, situation, Some(&faces)).unwrap();
        if r.outcome.is_some() {
            return (r, faces);
        }
        for d in &r.shown.faces[faces.len()..] {
            faces.push(face(d.purpose.as_deref().unwrap_or("")));
        }
    }
}

fn on(effects: &[Effect], unit: &str, change: impl Fn(&Change) -> bool) -> bool {
    effects
        .iter()
        .any(|e| e.target == Target::Unit(unit.into()) && change(&e.change))
}

#[test]
fn a_whole_gts_turn_from_the_roster() {
    let mut t = Turn::begin();
    assert_eq!(t.break_point("Persians"), (0.0, 2.0));
    assert_eq!(t.break_point("Greeks"), (0.0, 2.0));

    // Missile phase: the Sparabara shoot at the peltasts, in cover, at 4". A 10 against a 1:
    // hits, fewer for the cover (5.0).
    let (fire, m) = t.open("fire", &["Sparabara"], &["Peltasts"], |s| {
        s["range"] = json!(4.0);
        s["target_in_cover"] = json!(true);
    });
    let open_fire =
        t.r.resolve(
            "fire",
            &{
                let mut s = fire.clone();
                s["target_in_cover"] = json!(false);
                s
            },
            None,
        )
        .unwrap();
    let r = t.throw("fire", &fire, &[10, 1]);
    // Cover is a modifier of its own, and it lowers the chance of any hit (5.0).
    assert!(
        r.modifiers
            .iter()
            .any(|m| m.label.to_lowercase().contains("cover")),
        "{:?}",
        r.modifiers
    );
    let no_hit = |r: &Resolution| {
        r.distribution
            .iter()
            .filter(|d| {
                d.effects
                    .iter()
                    .all(|e| !matches!(e.change, Change::Hits { .. }))
            })
            .map(|d| d.p)
            .sum::<f64>()
    };
    assert!(
        no_hit(&r) > no_hit(&open_fire),
        "{} v {}",
        no_hit(&r),
        no_hit(&open_fire)
    );
    let hits = |r: &Resolution| {
        r.outcome
            .as_ref()
            .unwrap()
            .effects
            .iter()
            .find_map(|e| match e.change {
                Change::Hits { count } => Some(count),
                _ => None,
            })
            .unwrap_or(0)
    };
    assert!(hits(&r) > 0);
    t.apply(&r, &m);
    let per = t.gts("Peltasts").hits_per_stand;
    assert_eq!(
        (t.unit("Peltasts").strength, t.gts("Peltasts").hits),
        (4 - hits(&r) / per, hits(&r) % per)
    );

    // Melee phase. The Persian cavalry charge the peltasts: the 4.43 morale check comes first —
    // a 10 fails it, so they fight Disordered — then the round, every die of it entered.
    let (charge, m) = t.open("melee_round", &["Persian cavalry"], &["Peltasts"], |s| {
        s["contact"] = json!(true);
    });
    let first = t.r.resolve("melee_round", &charge, None).unwrap();
    assert!(first.shown.faces[0]
        .purpose
        .as_deref()
        .unwrap()
        .starts_with("morale check against"));
    // The check's die as the table threw it, a 10, then each die the round asks for in turn.
    let faces = thrown_on(&t, "melee_round", &charge, vec![10]);
    let r = t.throw("melee_round", &charge, &faces);
    let effects = r.outcome.as_ref().unwrap().effects.clone();
    assert!(effects
        .iter()
        .any(|e| e.rule == "4.43" && e.change == Change::Disorder));
    t.apply(&r, &m);
    assert!(t.gts("Peltasts").disordered);
    // Each change the chain called for is on the roster.
    for (label, routed) in [
        (
            "Peltasts",
            on(&effects, "Peltasts", |c| *c == Change::RoutUnit),
        ),
        (
            "Persian cavalry",
            on(&effects, "Persian cavalry", |c| *c == Change::RoutUnit),
        ),
    ] {
        assert_eq!(t.gts(label).rout, routed, "{label}");
    }

    // The Immortals, with their leader (PV +1), attack the hoplites: a round through a stand
    // lost, the Immortals routing and their leader's casualty test (and the victorious side's
    // leader's, none here).
    let (round, m) = t.open("melee_round", &["Immortals"], &["Hoplites"], |_| {});
    // The leader's valour comes from his row, not retyped, and his fate lands on his row.
    assert_eq!(round["side_a"][0]["leader_pv"], json!(1));
    assert_eq!(round["side_a"][0]["leader_name"], json!("Artaphernes"));
    assert_eq!(m.targets["unit:Artaphernes"], vec![t.id("Artaphernes")]);
    let stands = t.unit("Immortals").strength;
    // A 1 against a 10: the Immortals take the most hits the roll-off gives and lose a stand,
    // Disordered (6.13); a 10 fails their stand-loss check (R-GTS-19) and they rout, so nobody
    // presses the hoplites (R-GTS-23); their leader's test, 1, hurts him, and Table 1.10's 2
    // dazes him.
    let faces = [1, 10, 10, 1, 2];
    let r = t.throw("melee_round", &round, &faces);
    let purposes: Vec<&str> = r
        .shown
        .faces
        .iter()
        .map(|d| d.purpose.as_deref().unwrap_or(""))
        .collect();
    assert_eq!(
        purposes,
        [
            "roll-off",
            "roll-off",
            "stand-loss check",
            "leader's casualty test",
            "Table 1.10"
        ]
    );
    let effects = r.outcome.as_ref().unwrap().effects.clone();
    t.apply(&r, &m);
    let immortals = t.unit("Immortals");
    assert!(immortals.strength < stands);
    assert!(t.gts("Immortals").rout);
    assert_eq!(immortals.leader, None, "{effects:?}");
    assert_eq!(
        t.unit("Artaphernes").leader,
        Some(LeaderFate::Dazed),
        "{effects:?}"
    );
    let words = t.r.system.words(t.unit("Artaphernes"));
    assert_eq!(
        (words.type_name.as_str(), words.summary.as_str()),
        ("Leader 3(G) +1", "leads Immortals, leader dazed")
    );
    // Dazed, his valour counts −1 in the Immortals' next fight (R-GTS-25).
    let (next, _) = t.open("melee", &["Immortals"], &["Hoplites"], |_| {});
    assert_eq!(next["side_a"][0]["leader_condition"], json!("dazed"));
    // A routed unit counts against its army once its Rout is permanent (R-GTS-13).
    let persians = t.break_point("Persians");
    assert!(persians.0 < persians.1, "{persians:?}");

    // Recovery: the peltasts recover from Disorder (3.32), the hoplites' leader untouched.
    let peltasts = t.id("Peltasts");
    let body =
        t.b.adjust(&t.r, Subject::Unit(peltasts), Change::Recover, None)
            .unwrap();
    t.step(body);
    assert!(!t.gts("Peltasts").disordered);
    // A unit in good order has nothing to recover from: its quick edit is "Disorder".
    let words = t.r.system.words(t.unit("Peltasts"));
    assert!(words.quick_edits.iter().any(|q| q.label == "Disorder"));

    // The next turn: a dazed or unhorsed leader is himself again (R-GTS-25).
    // (The turn is the table's clock: undo takes back results, not the turn, so it is recorded
    // and replayed, not undone.)
    let body = t.b.advance_turn(Some(2), None);
    t.record(body);
    let replayed = Battle::open(&t.r, t.b.events.clone()).unwrap();
    assert_eq!(replayed.state, t.b.state);
    assert_eq!(t.b.state.turn, 2);
    assert_eq!(t.unit("Artaphernes").leader, None);
}

#[test]
fn a_leader_moves_between_units_and_falls_before_the_units_the_players_pick() {
    let mut t = Turn::begin();
    // A second leader, commanding from behind (1.5): a row of his own, leading no unit.
    let hydarnes = UnitSpec {
        label: "Hydarnes".into(),
        side: "Persians".into(),
        command: None,
        role: Role::Leader,
        stats: json!({ "pv": 2 }),
    };
    t.r.check_in_battle(&t.b.state, &hydarnes, None, "unit")
        .unwrap();
    let body = t.b.add_unit(&t.r, hydarnes.clone()).unwrap();
    t.step(body);
    let id = t.id("Hydarnes");
    // Unattached, he is moved up to 10" when an enemy unit contacts him (6.25).
    assert_eq!(
        t.r.system.words(t.unit("Hydarnes")).summary,
        "with no unit: if an enemy unit contacts him, he is moved up to 10\""
    );
    // A negative valour is printed with the app's minus sign.
    let craven = UnitSpec {
        label: "Craven".into(),
        stats: json!({ "pv": -2 }),
        ..hydarnes.clone()
    };
    let body = t.b.add_unit(&t.r, craven).unwrap();
    t.step(body);
    assert_eq!(
        t.r.system.words(t.unit("Craven")).type_name,
        "Leader, PV −2"
    );
    let leading = |unit: &str| UnitSpec {
        stats: json!({ "pv": 2, "leads": unit }),
        ..hydarnes.clone()
    };
    // One leader to a unit (R-GTS-32); a unit of his side on the roster (1.5).
    refuses_the_units_he_may_not_lead(&t, id, leading);
    // He joins the Persian cavalry: one correction of his row, undone as one (1.5).
    t.r.check_in_battle(&t.b.state, &leading("Persian cavalry"), Some(id), "unit")
        .unwrap();
    let body = t.b.edit_unit(&t.r, id, leading("Persian cavalry")).unwrap();
    t.step(body);
    let (charge, m) = t.open(
        "melee_round",
        &["Persian cavalry"],
        &["Greek cavalry"],
        |_| {},
    );
    assert_eq!(charge["side_a"][0]["leader_pv"], json!(2));
    assert_eq!(charge["side_a"][0]["leader_name"], json!("Hydarnes"));
    assert_eq!(m.targets["unit:Hydarnes"], vec![id]);
    // Shot at, the cavalry's leader is his row too: his casualty test would name him (1.9).
    let (shot, m) = t.open("fire", &["Peltasts"], &["Persian cavalry"], |_| {});
    assert_eq!(
        (
            &shot["target_leader_pv"],
            &shot["target_leader"],
            &shot["target_leader_name"]
        ),
        (&json!(2), &json!(true), &json!("Hydarnes"))
    );
    assert_eq!(m.targets["unit:Hydarnes"], vec![id]);
    // Who charged, asked by name (R-GTS-35); a side of several names its modifying unit.
    let two = fight(
        &t.r,
        &t.b.state,
        "melee_round",
        &[t.id("Immortals"), t.id("Sparabara")],
        &[t.id("Hoplites")],
    )
    .unwrap();
    assert_eq!(
        two.labels["contact"],
        "Who charged: Immortals and Sparabara (contact this turn)"
    );
    assert_eq!(
        two.labels["modifying_a"],
        "Persians: the unit whose modifiers count"
    );
    // Each side by its army's name, not "Side A".
    assert_eq!(
        (two.labels["side_a"].as_str(), two.labels["side_b"].as_str()),
        ("Persians", "Greeks")
    );
    let named: Vec<(&str, &str)> = two.choices[0]
        .options
        .iter()
        .map(|c| (c.key.as_str(), c.label.as_str()))
        .collect();
    assert_eq!(
        (two.choices[0].field.as_str(), named),
        ("modifying_a", vec![("0", "Immortals"), ("1", "Sparabara")])
    );

    // Artaphernes falls on his sword before his troops (Table 1.10, 8): a 1 against a 10, the
    // stand-loss check failed (10), the Immortals rout, his test (1) hurts him, the table gives 8.
    let (round, m) = t.open("melee_round", &["Immortals"], &["Hoplites"], |_| {});
    let r = t.throw("melee_round", &round, &[1, 10, 10, 1, 8]);
    let effects = r.outcome.as_ref().unwrap().effects.clone();
    let near = effects
        .iter()
        .position(|e| matches!(e.target, Target::Within { .. }))
        .expect("result 8's units within 6\"");
    assert_eq!(
        effects[near].target,
        Target::Within {
            of: "Artaphernes".into(),
            inches: 6
        }
    );
    assert_eq!(effects[near].ruling.as_deref(), Some("R-GTS-33"));
    // The players are asked which units stood within 6" — his side's, picked on the roster.
    let e =
        t.b.apply(&t.r, &r, &m, DiceSource::Physical, None, None)
            .unwrap_err();
    assert_eq!(e.code, ErrorCode::BattleChoiceNeeded);
    assert_eq!(e.field.as_deref(), Some(format!("choices.{near}").as_str()));
    assert!(
        e.message
            .contains("Which units of Persians stand within 6\" of Artaphernes?"),
        "{}",
        e.message
    );
    let answered = |ids: Vec<UnitId>| {
        let mut m = m.clone();
        m.choices.insert(near.to_string(), ids);
        m
    };
    let greek =
        t.b.apply(
            &t.r,
            &r,
            &answered(vec![t.id("Peltasts")]),
            DiceSource::Physical,
            None,
            None,
        )
        .unwrap_err();
    assert_eq!(greek.code, ErrorCode::BattleMixedSides);
    t.apply(
        &r,
        &answered(vec![t.id("Sparabara"), t.id("Persian cavalry")]),
    );
    let fallen = t.unit("Artaphernes");
    assert_eq!(
        (fallen.leader, fallen.lost),
        (Some(LeaderFate::Killed), true)
    );
    assert!(!t.unit("Immortals").lost);
    assert!(t.gts("Immortals").rout);
    for (label, near) in [
        ("Sparabara", true),
        ("Persian cavalry", true),
        ("Immortals", false),
        ("Hoplites", false),
    ] {
        assert_eq!(t.gts(label).near_fallen_leader, near, "{label}");
    }
    // None within 6" is an answer too (undone first: the same result, another answer).
    let undo = t.b.undo().unwrap();
    t.record(undo);
    t.apply(&r, &answered(Vec::new()));
    assert!(!t.gts("Sparabara").near_fallen_leader);
    assert_eq!(t.unit("Artaphernes").leader, Some(LeaderFate::Killed));
}

#[test]
fn an_escort_entered_once_runs_with_its_elephant() {
    let mut t = Turn::begin();
    let add = |t: &mut Turn, label: &str, stats: Value| {
        let spec = UnitSpec {
            label: label.into(),
            side: "Greeks".into(),
            command: None,
            role: Role::Unit,
            stats,
        };
        t.r.check_in_battle(&t.b.state, &spec, None, "unit")?;
        let body = t.b.add_unit(&t.r, spec).unwrap();
        t.step(body);
        Ok::<(), referee_core::error::RefereeError>(())
    };
    add(
        &mut t,
        "War elephant",
        json!({ "class": "elephant", "weapon": "SP", "stands": 1 }),
    )
    .unwrap();
    let escort = |of: &str, stands: u32| json!({ "class": "infantry", "armour": "N", "weapon": "JV", "stands": stands, "escorts": of });
    // An escort runs with an elephant or chariot, one stand of infantry (3.16, R-GTS-34).
    for (stats, refusal) in [
        (escort("Hoplites", 1), "Hoplites is no elephant or chariot"),
        (escort("War elephant", 2), "one stand of infantry"),
    ] {
        let e = add(&mut t, "Runners", stats).unwrap_err();
        assert!(e.message.contains(refusal), "{}", e.message);
    }
    add(&mut t, "Runners", escort("War elephant", 1)).unwrap();
    let e = add(&mut t, "More runners", escort("War elephant", 1)).unwrap_err();
    assert!(
        e.message.contains("Runners already escorts"),
        "{}",
        e.message
    );
    assert!(t
        .r
        .system
        .words(t.unit("Runners"))
        .summary
        .contains("escorts War elephant"));

    // Fire at the elephant: its escort comes in from the roster, and an even die puts the shot
    // on the escort's own row (3.163).
    let (fire, m) = t.open("fire", &["Sparabara"], &["War elephant"], |s| {
        s["range"] = json!(2.0);
    });
    assert_eq!(fire["target_escort"]["name"], json!("Runners"));
    assert_eq!(m.targets["unit:Runners"], vec![t.id("Runners")]);
    let r = t.throw("fire", &fire, &[10, 1]);
    t.apply(&r, &m);
    assert_eq!(t.gts("War elephant").hits, 0, "the elephant is untouched");
    let runners = t.unit("Runners");
    // The dice 10 and 1: two hits on the runners' one stand, not yet lost (3.163).
    assert_eq!(
        (t.gts("Runners").hits, runners.lost),
        (2, false),
        "the runners take the shot: {runners:?}"
    );
    // The runners fire from their elephant at −2 (3.163), without retyping it.
    let (own, _) = t.open("fire", &["Runners"], &["Sparabara"], |_| {});
    assert_eq!(own["escort"], json!(true));
    // In melee the elephant with its escort gives the side's modifiers (3.164, R-GTS-26).
    let (melee, _) = t.open(
        "melee",
        &["Hoplites", "War elephant"],
        &["Immortals"],
        |_| {},
    );
    assert_eq!(melee["side_a"][1]["escort"]["name"], json!("Runners"));
    t.r.resolve("melee", &melee, None).unwrap();
    let mut hoplites_modify = melee.clone();
    hoplites_modify["modifying_a"] = json!(0);
    let e = t.r.resolve("melee", &hoplites_modify, None).unwrap_err();
    assert_eq!(e.rule.as_deref(), Some("3.164"));
    // The escort is not picked as a unit of its own: shot at alone it would skip 3.163's split,
    // picked into a melee it would count twice or lead the elephant (3.164).
    let (runners, elephant) = (t.id("Runners"), t.id("War elephant"));
    let (sparabara, immortals) = (t.id("Sparabara"), t.id("Immortals"));
    for (action, a, d, rule) in [
        ("fire", vec![sparabara], vec![runners], "3.163"),
        ("melee", vec![runners], vec![immortals], "3.164"),
        ("melee", vec![elephant, runners], vec![immortals], "3.164"),
        ("melee", vec![immortals], vec![runners], "3.164"),
    ] {
        let e = fight(&t.r, &t.b.state, action, &a, &d).unwrap_err();
        assert_eq!(e.rule.as_deref(), Some(rule), "{action}: {}", e.message);
        assert!(
            e.message.contains("pick War elephant instead"),
            "{}",
            e.message
        );
    }
}

#[test]
fn a_captured_leader_leads_no_one_and_another_may_be_attached() {
    // R-GTS-32: killed or captured, a leader leads his unit no longer.
    let mut t = Turn::begin();
    let artaphernes = t.id("Artaphernes");
    let body =
        t.b.adjust(
            &t.r,
            Subject::Unit(artaphernes),
            Change::LeaderCaptured,
            None,
        )
        .unwrap();
    t.step(body);
    let (round, _) = t.open("melee_round", &["Immortals"], &["Hoplites"], |_| {});
    assert_ne!(round["side_a"][0]["leader_name"], json!("Artaphernes"));
    let hydarnes = UnitSpec {
        label: "Hydarnes".into(),
        side: "Persians".into(),
        command: None,
        role: Role::Leader,
        stats: json!({ "pv": 2, "leads": "Immortals" }),
    };
    t.r.check_in_battle(&t.b.state, &hydarnes, None, "unit")
        .unwrap();
    let body = t.b.add_unit(&t.r, hydarnes).unwrap();
    t.step(body);
    let (round, _) = t.open("melee_round", &["Immortals"], &["Hoplites"], |_| {});
    assert_eq!(round["side_a"][0]["leader_name"], json!("Hydarnes"));
    assert_eq!(round["side_a"][0]["leader_pv"], json!(2));
}

#[test]
fn an_army_general_on_a_leaders_row_lowers_the_break_point_when_lost() {
    // 1.2 "Army Leonidas 3(E) +2", R-GTS-7: the army general leading a unit is a leader's row
    // marked the army's; killed or captured, the break point falls to 50 %.
    let mut t = Turn::begin();
    let leonidas = UnitSpec {
        label: "Leonidas".into(),
        side: "Greeks".into(),
        command: None,
        role: Role::Leader,
        stats: json!({ "pv": 2, "pc": 3, "ts": "E", "army": true, "leads": "Hoplites" }),
    };
    t.r.check_in_battle(&t.b.state, &leonidas, None, "unit")
        .unwrap();
    let body = t.b.add_unit(&t.r, leonidas).unwrap();
    t.step(body);
    let id = t.id("Leonidas");
    assert!(
        !t.threshold("Greeks").contains("50%"),
        "{}",
        t.threshold("Greeks")
    );
    for change in [Change::LeaderKilled, Change::LeaderCaptured] {
        let body =
            t.b.adjust(&t.r, Subject::Unit(id), change.clone(), None)
                .unwrap();
        t.step(body);
        assert!(
            t.threshold("Greeks").contains("50%"),
            "{change:?}: {}",
            t.threshold("Greeks")
        );
        let undo = t.b.undo().unwrap();
        t.record(undo);
    }
    let replayed = Battle::open(&t.r, t.b.events.clone()).unwrap();
    assert_eq!(replayed.state, t.b.state);
}

#[test]
fn a_dazed_general_leaves_the_break_point_where_it_was() {
    // 8.0, R-GTS-25: only a general killed or captured lowers the break point to 50 %.
    let mut t = Turn::begin();
    assert!(
        !t.threshold("Persians").contains("50%"),
        "{}",
        t.threshold("Persians")
    );
    let mardonius = t.id("Mardonius");
    for (change, lowered) in [
        (Change::LeaderDazed, false),
        (Change::LeaderUnhorsed, false),
        (Change::LeaderSeriouslyWounded, false),
        (Change::LeaderKilled, true),
        (Change::LeaderCaptured, true),
    ] {
        let body =
            t.b.adjust(&t.r, Subject::Unit(mardonius), change.clone(), None)
                .unwrap();
        t.step(body);
        assert_eq!(
            t.threshold("Persians").contains("50%"),
            lowered,
            "{change:?}: {}",
            t.threshold("Persians")
        );
        let undo = t.b.undo().unwrap();
        t.record(undo);
    }
}

#[test]
fn a_shock_bonus_used_is_kept_until_a_command_point_recovers_it() {
    // 2.14: the SH 1st-turn mod is used once, then gone until a leader's command point.
    let mut t = Turn::begin();
    let gauls = UnitSpec {
        label: "Gaesatae".into(),
        side: "Persians".into(),
        command: None,
        role: Role::Unit,
        stats: json!({ "class": "infantry", "armour": "N", "weapon": "SH", "stands": 4 }),
    };
    let body = t.b.add_unit(&t.r, gauls).unwrap();
    t.record(body);
    let first_turn = |s: &mut Value| {
        s["side_a"][0]["first_turn"] = json!(true);
        s["side_b"][0]["first_turn"] = json!(true);
    };
    let (s, mapping) = t.open("melee", &["Gaesatae"], &["Hoplites"], first_turn);
    let fought = t.throw("melee", &s, &[6, 6]);
    assert!(fought
        .modifiers
        .iter()
        .any(|m| m.label.contains("1st-turn melee")));
    t.apply(&fought, &mapping);
    assert!(t.gts("Gaesatae").first_turn_spent);
    let words = t.r.system.words(t.unit("Gaesatae"));
    assert!(
        words.summary.contains("Shock bonus used"),
        "{}",
        words.summary
    );
    // The next fight from the roster reads it spent, ticked first turn or not.
    let (s, _) = t.open("melee", &["Gaesatae"], &["Hoplites"], first_turn);
    let again = t.r.resolve("melee", &s, None).unwrap();
    assert!(!again
        .modifiers
        .iter()
        .any(|m| m.label.contains("1st-turn melee")));
    // A command point recovers it: the roster's quick edit.
    let edit = words
        .quick_edits
        .iter()
        .find(|q| q.label == "Shock recovered")
        .expect("the quick edit");
    let id = t.id("Gaesatae");
    let body =
        t.b.adjust(&t.r, Subject::Unit(id), edit.change.clone(), None)
            .unwrap();
    t.step(body);
    assert!(!t.gts("Gaesatae").first_turn_spent);
}

#[test]
fn a_recoil_from_the_roster_asks_each_units_d100_then_what_its_fate_calls_for() {
    // 7.1–7.3: the Sparabara and the Persian cavalry against the Greek cavalry. Each unit's d100
    // on its own pad named by it; the Sparabara hold (1), the Persian cavalry fail (100) and,
    // their friends having held, recoil; the Greek cavalry fail (100) and rout (100 ≥ 2 × the
    // Sparabara's md100). Then, in turn, the Sparabara's command test to follow up (every enemy
    // gave ground, 7.3) and the Persian cavalry's recoil-move test (7.2): a 1 follows up, a 10
    // fails the move test and Disorders them. The whole chain lands as one result.
    let mut t = Turn::begin();
    let (recoil, m) = t.open(
        "recoil",
        &["Sparabara", "Persian cavalry"],
        &["Greek cavalry"],
        |_| {},
    );
    let first = t.r.resolve("recoil", &recoil, None).unwrap();
    assert!(first.shown.in_turn);
    let pads = |r: &Resolution| {
        r.shown
            .faces
            .iter()
            .map(|d| {
                format!(
                    "{} d{} {}",
                    d.label.as_deref().unwrap_or(""),
                    d.sides,
                    d.purpose.as_deref().unwrap_or("")
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(
        pads(&first),
        [
            "Sparabara d100 recoil test",
            "Persian cavalry d100 recoil test",
            "Greek cavalry d100 recoil test"
        ]
    );
    let r = t.throw("recoil", &recoil, &[1, 100, 100, 1, 10]);
    assert_eq!(
        pads(&r)[3..],
        [
            "Sparabara d10 command test to follow up",
            "Persian cavalry d10 recoil-move test"
        ]
    );
    let effects = r.outcome.as_ref().unwrap().effects.clone();
    // Forecast and result agree: each change that landed was forecast possible.
    for (unit, line) in [
        ("Sparabara", "Sparabara follows up to contact"),
        (
            "Persian cavalry",
            "Persian cavalry fails its recoil-move test and is Disordered",
        ),
        ("Greek cavalry", "Greek cavalry routs"),
    ] {
        assert!(
            r.forecast.iter().any(|c| c.label == line && c.p > 0.0),
            "{line}"
        );
        assert!(
            effects
                .iter()
                .any(|e| e.target == Target::Unit(unit.into())),
            "{unit}: {effects:?}"
        );
    }
    let before = t.b.events.len();
    t.apply(&r, &m);
    // One event (applied; the step's undo and redo are recorded after it and checked exact).
    assert!(matches!(t.b.events[before].body, EventBody::Applied { .. }));
    assert!(t.gts("Greek cavalry").rout);
    assert!(t.gts("Persian cavalry").disordered);
    assert!(!t.gts("Persian cavalry").rout && !t.gts("Sparabara").disordered);
    assert!(
        !t.unit("Sparabara").moves.is_empty(),
        "the follow-up is on the Sparabara's row"
    );
    assert!(!t.unit("Persian cavalry").moves.is_empty());
}

#[test]
fn a_routed_unit_rallies_from_its_roster_row_with_its_leader_and_the_fallen_leaders_minus_one() {
    // 3.33: a routed unit rallies by passing a leader or independent command test; its row
    // offers "Rally", which opens the response test on it: the unit as it is now, its leader's
    // valour from his own row (Artaphernes, +1: 1.6, R-GTS-32) and Table 1.10 result 8's −1
    // when it stands within 6" of a leader who fell on his sword (R-GTS-25).
    let mut t = Turn::begin();
    let immortals = t.id("Immortals");
    for change in [Change::RoutUnit, Change::NearFallenLeader] {
        let body =
            t.b.adjust(&t.r, Subject::Unit(immortals), change, None)
                .unwrap();
        t.step(body);
    }
    let words = t.r.system.words(t.unit("Immortals"));
    let rally = words
        .quick_edits
        .iter()
        .find(|q| q.label == "Rally")
        .expect("a routed unit's row offers Rally");
    assert_eq!(rally.opens.as_deref(), Some("response_test"));
    // A unit in good order offers no rally (it has nothing to rally from).
    let hoplites = t.r.system.words(t.unit("Hoplites"));
    assert!(hoplites
        .quick_edits
        .iter()
        .all(|q| q.opens.as_deref() != Some("response_test")));

    let opened = fight(&t.r, &t.b.state, "response_test", &[immortals], &[]).unwrap();
    let s = &opened.situation;
    assert_eq!(s["test"], json!("rally"));
    assert_eq!(
        (
            &s["leader_pv"],
            &s["near_fallen_leader"],
            &s["unit"]["routed"]
        ),
        (&json!(1), &json!(true), &json!(true))
    );
    assert_eq!(opened.targets["unit:Immortals"], vec![immortals]);
    let undiced = t.r.resolve("response_test", s, None).unwrap();
    let parts: Vec<(&str, i64)> = undiced
        .modifiers
        .iter()
        .map(|m| (m.rule.as_str(), m.value))
        .collect();
    assert!(parts.contains(&("1.6, 2.12", 1)), "{parts:?}");
    assert!(parts.contains(&("Table 1.10", -1)), "{parts:?}");
    let number: i64 = parts.iter().map(|(_, v)| v).sum();
    // The die on a pad of its own, named by the unit.
    assert_eq!(undiced.shown.faces.len(), 1);
    assert_eq!(undiced.shown.faces[0].sides, 10);
    let mapping = Mapping {
        units_moving: None,
        targets: opened.targets.clone(),
        choices: Default::default(),
    };
    // A die above the number fails: it stays routed, and nothing lands but the test itself.
    let failed = t.throw("response_test", s, &[(number + 1).clamp(1, 10) as u32]);
    if number < 10 {
        assert_eq!(failed.outcome.as_ref().unwrap().result, "fails");
        assert!(failed.outcome.as_ref().unwrap().effects.is_empty());
    }
    // A 1 passes: no longer Routed, in Attack formation and Disordered (3.33), in one event.
    let passed = t.throw("response_test", s, &[1]);
    assert_eq!(passed.outcome.as_ref().unwrap().result, "passes");
    let before = t.b.events.len();
    t.apply(&passed, &mapping);
    assert!(matches!(t.b.events[before].body, EventBody::Applied { .. }));
    assert!(!t.gts("Immortals").rout);
    assert!(t.gts("Immortals").disordered);
    // Now Disordered, its row offers "Recover" (3.32: no test) and no rally.
    let words = t.r.system.words(t.unit("Immortals"));
    assert!(words.quick_edits.iter().any(|q| q.label == "Recover"));
    assert!(words
        .quick_edits
        .iter()
        .all(|q| q.opens.as_deref() != Some("response_test")));

    // A unit not routed is refused with the rule's words; a test is taken by one unit.
    let e = fight(&t.r, &t.b.state, "response_test", &[immortals], &[]).unwrap_err();
    assert_eq!(e.code, ErrorCode::SituationNotRouted);
    assert!(
        e.message.contains("Immortals is not Routed"),
        "{}",
        e.message
    );
    let e = fight(
        &t.r,
        &t.b.state,
        "response_test",
        &[immortals, t.id("Sparabara")],
        &[],
    )
    .unwrap_err();
    assert_eq!(e.code, ErrorCode::FightNoUnits);
}

#[test]
fn an_elephant_hit_in_the_round_frenzies_within_it_and_lands_with_it_on_the_roster() {
    // 7.41–7.43, 3.166, R-GTS-36: the war elephant (hit once before) and its runners against
    // the hoplites, both sides at −9 so the roll-off is 1 against 1, a hit each; both hold their
    // recoil tests; the elephant's frenzy d8 (2) frenzies it and its driver's d10 (9) fails to
    // kill it: it rampages and its runners are removed, all in the round's one result.
    let mut t = Turn::begin();
    for (label, stats) in [
        (
            "War elephant",
            json!({ "class": "elephant", "weapon": "SP", "stands": 1, "hits": 1, "tag": { "melee": -9 } }),
        ),
        (
            "Runners",
            json!({ "class": "infantry", "armour": "N", "weapon": "JV", "stands": 1, "escorts": "War elephant" }),
        ),
    ] {
        let body =
            t.b.add_unit(
                &t.r,
                UnitSpec {
                    label: label.into(),
                    side: "Persians".into(),
                    command: None,
                    role: Role::Unit,
                    stats,
                },
            )
            .unwrap();
        t.step(body);
    }
    let (round, m) = t.open("melee_round", &["War elephant"], &["Hoplites"], |s| {
        s["side_b"][0]["unit"]["tag"] = json!({ "melee": -9 });
    });
    let (r, faces) = thrown_by_purpose(&t, "melee_round", &round, vec![1, 1], |purpose| {
        match purpose {
            "recoil test" => 1,
            p if p.starts_with("frenzy test") => 2,
            "driver" => 9,
            // 4.46: its heading, a d8 with its facing as North: 2 is north-east.
            "rampage heading, its facing as North" => 2,
            _ => 5,
        }
    });
    let frenzy: Vec<(&str, &str)> = r.shown.faces[faces.len() - 3..]
        .iter()
        .map(|d| {
            (
                d.label.as_deref().unwrap_or(""),
                d.purpose.as_deref().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        frenzy,
        [
            ("War elephant", "frenzy test 1"),
            ("War elephant", "driver"),
            ("War elephant", "rampage heading, its facing as North")
        ]
    );
    assert_eq!(r.shown.faces.last().unwrap().face_names[1], "NE");
    let r = t.throw("melee_round", &round, &faces);
    t.apply(&r, &m);
    assert!(t.unit("Runners").lost, "the escort goes as it frenzies");
    assert!(
        t.unit("War elephant")
            .moves
            .iter()
            .any(|m| m.contains("rampages: turns NE")),
        "{:?}",
        t.unit("War elephant").moves
    );
    assert!(!t.unit("War elephant").lost);
}

#[test]
fn an_elephant_hit_by_fire_frenzies_within_it_and_lands_with_it_on_the_roster() {
    // 7.41–7.42, 4.46, 3.166, R-GTS-36: the Sparabara shoot at the Greeks' war elephant (hit once
    // before) and its runners; an odd firer's die puts the shot on the elephant (3.163), and its
    // hits put it to the frenzy test within the fire's chain, every die entered as thrown: the
    // frenzy d8 (2) frenzies it, then its driver's d10 — 9 fails to kill it and its heading's d8
    // (3) turns it East; 1 kills it. Either way its runners go, in the fire's one result.
    for (driver, killed) in [(9, false), (1, true)] {
        let mut t = Turn::begin();
        for (label, stats) in [
            (
                "War elephant",
                json!({ "class": "elephant", "weapon": "SP", "stands": 2, "hits": 1 }),
            ),
            (
                "Runners",
                json!({ "class": "infantry", "armour": "N", "weapon": "JV", "stands": 1, "escorts": "War elephant" }),
            ),
        ] {
            let spec = UnitSpec {
                label: label.into(),
                side: "Greeks".into(),
                command: None,
                role: Role::Unit,
                stats,
            };
            let body = t.b.add_unit(&t.r, spec).unwrap();
            t.step(body);
        }
        let (fire, m) = t.open("fire", &["Sparabara"], &["War elephant"], |s| {
            s["range"] = json!(2.0);
        });
        let odds = t.r.resolve("fire", &fire, None).unwrap();
        assert!(
            odds.forecast
                .iter()
                .any(|c| c.label == "The elephant frenzies (its escort is removed)" && c.p > 0.0),
            "{:?}",
            odds.forecast
        );
        let (r, faces) = thrown_by_purpose(&t, "fire", &fire, vec![9, 1], |purpose| {
            match purpose {
                p if p.starts_with("frenzy test") => 2,
                "driver" => driver,
                // 4.46: its heading, a d8 with its facing as North: 3 is East.
                "rampage heading, its facing as North" => 3,
                _ => 5,
            }
        });
        let asked: Vec<(&str, &str)> = r.shown.faces[2..]
            .iter()
            .map(|d| {
                (
                    d.label.as_deref().unwrap_or(""),
                    d.purpose.as_deref().unwrap_or(""),
                )
            })
            .collect();
        let mut expected = vec![
            ("War elephant", "frenzy test 1"),
            ("War elephant", "driver"),
        ];
        if !killed {
            expected.push(("War elephant", "rampage heading, its facing as North"));
            assert_eq!(r.shown.faces.last().unwrap().face_names[2], "E");
        }
        // The first test's 2 frenzies it: no second test is thrown (7.41).
        assert_eq!(asked, expected);
        // Entered one die at a time, each asked only once the one before is thrown.
        let r = t.throw("fire", &fire, &faces);
        t.apply(&r, &m);
        assert!(t.unit("Runners").lost, "the escort goes as it frenzies");
        assert_eq!(t.unit("War elephant").lost, killed);
        if !killed {
            assert!(t.gts("War elephant").hits > 1, "the shot's hits land too");
            assert!(
                t.unit("War elephant")
                    .moves
                    .iter()
                    .any(|m| m.contains("rampages: turns E")),
                "{:?}",
                t.unit("War elephant").moves
            );
        }
    }
}

/// A leader's row (or a general's) naming the Immortals, whom Artaphernes leads, or the Greeks'
/// Hoplites is refused in words at its field (R-GTS-32, 1.5).
fn refuses_the_units_he_may_not_lead(t: &Turn, id: UnitId, leading: impl Fn(&str) -> UnitSpec) {
    for (unit, refusal) in [
        ("Immortals", "Artaphernes already leads Immortals"),
        (
            "Hoplites",
            "No unit of Persians on the table is called Hoplites",
        ),
    ] {
        let e =
            t.r.check_in_battle(&t.b.state, &leading(unit), Some(id), "unit")
                .unwrap_err();
        assert!(e.message.contains(refusal), "{}", e.message);
        assert_eq!(e.field.as_deref(), Some("unit.stats.leads"));
    }
}

/// The words a roster row shows for a unit, and the labels of its quick edits.
fn row(t: &Turn, label: &str) -> (String, Vec<String>) {
    let w = t.r.system.words(t.unit(label));
    (
        w.summary,
        w.quick_edits.into_iter().map(|q| q.label).collect(),
    )
}

#[test]
fn reserve_rout_moves_off_the_table_and_a_draw_from_the_roster() {
    let mut t = Turn::begin();
    let adjust = |t: &mut Turn, label: &str, change: Change| {
        let id = t.id(label);
        let body = t.b.adjust(&t.r, Subject::Unit(id), change, None).unwrap();
        t.step(body);
    };
    let refused = |t: &Turn, label: &str, change: Change| {
        let id = t.id(label);
        t.b.adjust(&t.r, Subject::Unit(id), change, None)
            .map(|_| ())
            .unwrap_err()
    };

    // Reserve (3.31, R-GTS-38): cavalry may be placed in it, close-order hoplites of standard
    // training may not; the chit is lost when it moves, and an army places one a game.
    assert!(row(&t, "Persian cavalry")
        .1
        .contains(&"Reserve".to_string()));
    assert!(!row(&t, "Immortals").1.contains(&"Reserve".to_string()));
    // The general's own guard is his, not a unit of the army's count (8.0): no Reserve.
    assert!(!row(&t, "Mardonius").1.contains(&"Reserve".to_string()));
    let e = refused(&t, "Immortals", Change::Reserve { placed: true });
    assert_eq!(e.code, ErrorCode::UnitNotForReserve);
    assert_eq!(e.rule.as_deref(), Some("3.31"));
    adjust(&mut t, "Persian cavalry", Change::Reserve { placed: true });
    let (words, edits) = row(&t, "Persian cavalry");
    assert!(words.contains("in Reserve"), "{words}");
    assert!(edits.contains(&"Leaves Reserve".to_string()), "{edits:?}");
    // Its Reserve move (4.6) from the row's "Move": 10" over clear ground and 2" through a
    // wood (2:1) spend 14" of its 15" (cavalry 12", no armour +3"); moving, it loses the chit.
    let cavalry = t.id("Persian cavalry");
    let opened = fight(&t.r, &t.b.state, "movement", &[cavalry], &[]).unwrap();
    assert_eq!(opened.situation["in_reserve"], json!(true));
    let mut situation = opened.situation.clone();
    situation["clear_inches"] = json!(10);
    situation["rough_inches"] = json!(2);
    let r = t.r.resolve("movement", &situation, None).unwrap();
    let o = r.outcome.clone().unwrap();
    assert_eq!(o.result, "within");
    assert!(
        o.meaning.contains("14\" spent of 15\", 1\" left"),
        "{}",
        o.meaning
    );
    let mapping = Mapping {
        units_moving: None,
        targets: opened.targets.clone(),
        choices: Default::default(),
    };
    t.apply(&r, &mapping);
    assert!(!t.gts("Persian cavalry").reserve);
    let (words, edits) = row(&t, "Persian cavalry");
    assert!(!words.contains("Reserve"), "{words}");
    assert!(
        !edits.contains(&"Reserve".to_string()),
        "once a game: {edits:?}"
    );
    let e = refused(&t, "Persian cavalry", Change::Reserve { placed: true });
    assert!(e.message.contains("once a game"), "{}", e.message);
    // Reserve, Disorder and Rout exclude one another (3.3): Disordered, the Greeks' reserve is
    // lost, and a Disordered unit is not placed in one.
    adjust(&mut t, "Greek cavalry", Change::Reserve { placed: true });
    adjust(&mut t, "Greek cavalry", Change::Disorder);
    assert!(!t.gts("Greek cavalry").reserve);
    assert_eq!(
        refused(&t, "Hoplites", Change::Reserve { placed: true }).code,
        ErrorCode::UnitNotForReserve
    );

    // Rout movement (4.31): a routed unit's row gives its move, full allowance (infantry 6",
    // light armour +1") plus panic dice, and offers its routing off the table (4.312).
    // Disordered when it routs, it is Routed only (3.3: the conditions exclude one another),
    // and Disorder befalling a router leaves it Routed only.
    adjust(&mut t, "Peltasts", Change::Disorder);
    assert!(t.gts("Peltasts").disordered);
    adjust(&mut t, "Peltasts", Change::RoutUnit);
    assert!(!t.gts("Peltasts").disordered && t.gts("Peltasts").rout);
    adjust(&mut t, "Peltasts", Change::Disorder);
    assert!(!t.gts("Peltasts").disordered);
    let (words, edits) = row(&t, "Peltasts");
    assert!(!words.contains("Disordered"), "{words}");
    assert!(words.contains("rout move 7\" + panic dice"), "{words}");
    assert!(
        edits.contains(&"Routs off the table".to_string()),
        "{edits:?}"
    );
    // Not past its dispersal trigger (C, 4 stands: 2-0), it has one rally to return: not lost,
    // the break point unmoved, the rally still offered.
    adjust(&mut t, "Peltasts", Change::RoutsOffTable);
    assert!(!t.unit("Peltasts").lost);
    assert!(t.gts("Peltasts").off_table);
    let (words, edits) = row(&t, "Peltasts");
    assert!(
        words.contains("off the table: one rally to return"),
        "{words}"
    );
    assert!(
        edits.contains(&"Rally".to_string()) && !edits.contains(&"Routs off the table".to_string())
    );
    assert_eq!(t.break_point("Greeks"), (0.0, 2.0));
    // Rallied, it comes back on where it left (4.312).
    adjust(&mut t, "Peltasts", Change::RemoveRout);
    assert!(!t.gts("Peltasts").off_table && !t.gts("Peltasts").rout);
    // Past its trigger (2 stands of 4 left), a router leaving the table is lost for good and
    // counts towards the break point (8.0, R-GTS-13).
    adjust(&mut t, "Hoplites", Change::Hits { count: 8 });
    adjust(&mut t, "Hoplites", Change::RoutUnit);
    adjust(&mut t, "Hoplites", Change::RoutsOffTable);
    assert!(t.unit("Hoplites").lost);
    assert_eq!(t.break_point("Greeks"), (1.0, 2.0));

    // 8.0: one army broken has its turn to break the other; both broken is a tactical Draw
    // (R-GTS-37), said in the standing's verdicts.
    let verdicts = |t: &Turn| {
        standing(&t.r, &t.b.state)
            .resolutions
            .into_iter()
            .map(|r| r.outcome.unwrap())
            .map(|o| (o.result, o.meaning))
            .collect::<Vec<_>>()
    };
    adjust(&mut t, "Greek cavalry", Change::DestroyAll);
    assert_eq!(t.break_point("Greeks"), (2.0, 2.0));
    let v = verdicts(&t);
    assert_eq!(v[1].0, "broken");
    assert!(
        v[1].1.contains("unless Greeks break them too"),
        "{}",
        v[1].1
    );
    adjust(&mut t, "Immortals", Change::DestroyAll);
    adjust(&mut t, "Sparabara", Change::DestroyAll);
    assert_eq!(t.break_point("Persians"), (2.0, 2.0));
    for (result, meaning) in verdicts(&t) {
        assert_eq!(result, "draw");
        assert!(meaning.contains("tactical Draw"), "{meaning}");
    }
}

#[test]
fn a_generals_command_points_are_rolled_on_his_row_spent_and_gone_next_turn() {
    // 1.2: his points this Command phase are his TS die's roll, at least his PC; 1.7: spent on
    // the units' actions; "Command points cannot be saved".
    let mut t = Turn::begin();
    let artaphernes = t.id("Artaphernes");
    let (_, edits) = row(&t, "Artaphernes");
    assert!(edits.contains(&"Command points".to_string()), "{edits:?}");
    assert!(!edits.iter().any(|e| e.starts_with("Spend")), "{edits:?}");
    let opened = fight(&t.r, &t.b.state, "command_points", &[artaphernes], &[]).unwrap();
    let s = &opened.situation;
    assert_eq!(
        (&s["pc"], &s["ts"], &s["leader"]),
        (&json!(3), &json!("G"), &json!("Artaphernes"))
    );
    let mapping = Mapping {
        units_moving: None,
        targets: opened.targets.clone(),
        choices: Default::default(),
    };
    // A 1 on his d8 still gives his PC of 3; a 6 gives 6, landing on his row.
    let low = t.throw("command_points", s, &[1]);
    assert_eq!(low.outcome.unwrap().result, "points_3");
    let r = t.throw("command_points", s, &[6]);
    assert_eq!(r.outcome.as_ref().unwrap().result, "points_6");
    t.apply(&r, &mapping);
    let (words, edits) = row(&t, "Artaphernes");
    assert!(words.contains("6 of 6 command points left"), "{words}");
    assert!(edits.contains(&"Spend 1 point".to_string()), "{edits:?}");
    // He is not the army general: no Reserve to pay for (1.7 e).
    assert!(!edits.iter().any(|e| e.contains("Reserve")), "{edits:?}");
    let body =
        t.b.adjust(
            &t.r,
            Subject::Unit(artaphernes),
            Change::SpendCommand { points: 1 },
            None,
        )
        .unwrap();
    t.step(body);
    assert!(row(&t, "Artaphernes")
        .0
        .contains("5 of 6 command points left"));
    // His row corrected in the turn (his valour) is not a new turn: his points stay (1.2).
    let corrected = UnitSpec {
        label: "Artaphernes".into(),
        side: "Persians".into(),
        command: None,
        role: Role::Leader,
        stats: json!({ "pv": 2, "pc": 3, "ts": "G", "leads": "Immortals" }),
    };
    let body = t.b.edit_unit(&t.r, artaphernes, corrected).unwrap();
    t.step(body);
    let (words, edits) = row(&t, "Artaphernes");
    assert!(words.contains("5 of 6 command points left"), "{words}");
    assert_eq!(
        t.r.system.words(t.unit("Artaphernes")).type_name,
        "Leader 3(G) +2"
    );
    assert!(edits.contains(&"Spend 1 point".to_string()), "{edits:?}");
    // Overspending is refused in words, and nothing is written.
    let events = t.b.events.len();
    let e =
        t.b.adjust(
            &t.r,
            Subject::Unit(artaphernes),
            Change::SpendCommand { points: 6 },
            None,
        )
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::BattleCommandSpent);
    assert!(
        e.message.contains("has 5 command points left this turn"),
        "{}",
        e.message
    );
    assert_eq!(t.b.events.len(), events);
    // The next turn starts with none (a turn is not undone: recorded, and replayed).
    let body = t.b.advance_turn(Some(2), None);
    t.record(body);
    assert_eq!(
        Battle::open(&t.r, t.b.events.clone()).unwrap().state,
        t.b.state
    );
    let (words, edits) = row(&t, "Artaphernes");
    assert!(!words.contains("command points"), "{words}");
    assert!(!edits.iter().any(|e| e.starts_with("Spend")), "{edits:?}");
}

#[test]
fn a_unit_passes_through_a_friend_picked_from_its_row_and_both_rows_take_what_4_7_gives() {
    let mut t = Turn::begin();
    // The row offers it; the friend is picked from the army's other units on the table.
    assert!(row(&t, "Hoplites").1.contains(&"Pass through…".to_string()));
    let hoplites = t.id("Hoplites");
    let opened = fight(&t.r, &t.b.state, "interpenetration", &[hoplites], &[]).unwrap();
    let friends: Vec<&str> = opened
        .choices
        .iter()
        .find(|c| c.field == "through")
        .unwrap()
        .options
        .iter()
        .map(|o| o.label.as_str())
        .collect();
    assert_eq!(friends, ["Greek cavalry", "Pausanias", "Peltasts"]);
    let mapping = Mapping {
        units_moving: None,
        targets: opened.targets.clone(),
        choices: Default::default(),
    };
    let passing = |through: &str, passage: &str, gap: bool| {
        let mut s = opened.situation.clone();
        s["through"] = json!(through);
        s["passage"] = json!(passage);
        s["gap"] = json!(gap);
        t.r.resolve("interpenetration", &s, None).unwrap()
    };
    // Moving through a one-stand gap: nobody is Disordered (4.7).
    let r = passing("Peltasts", "movement", true);
    assert_eq!(r.outcome.as_ref().unwrap().result, "no_disorder");
    assert!(r.outcome.as_ref().unwrap().effects.is_empty());
    // A recoil through the peltasts: both Disordered, the peltasts displaced (4.7, 7.2), as one
    // result that lands on both rows, undone exactly.
    let r = passing("Peltasts", "recoil", true);
    let o = r.outcome.clone().unwrap();
    assert_eq!(o.result, "both_disordered");
    assert!(on(&o.effects, "Hoplites", |c| *c == Change::Disorder));
    assert!(on(&o.effects, "Peltasts", |c| *c == Change::Disorder));
    assert!(o.meaning.contains("displaced"), "{}", o.meaning);
    let body =
        t.b.apply(
            &t.r,
            &r,
            &mapping,
            DiceSource::Physical,
            None,
            Some("pass-1".into()),
        )
        .unwrap();
    t.step(body);
    assert!(t.gts("Hoplites").disordered && t.gts("Peltasts").disordered);
    assert!(!t.gts("Greek cavalry").disordered);
    assert_eq!(t.break_point("Greeks"), (0.0, 2.0));
    // A second tap of the same Apply writes nothing.
    let events = t.b.events.len();
    assert!(t
        .b
        .apply(
            &t.r,
            &r,
            &mapping,
            DiceSource::Physical,
            None,
            Some("pass-1".into())
        )
        .is_err());
    assert_eq!(t.b.events.len(), events);
    // A router passing the cavalry without a gap disorders them, not itself (4.31, R-GTS-41).
    let body =
        t.b.adjust(
            &t.r,
            Subject::Unit(t.id("Peltasts")),
            Change::RoutUnit,
            None,
        )
        .unwrap();
    t.step(body);
    let peltasts = t.id("Peltasts");
    let opened = fight(&t.r, &t.b.state, "interpenetration", &[peltasts], &[]).unwrap();
    assert_eq!(opened.situation["passage"], json!("rout"));
    let mut s = opened.situation.clone();
    s["through"] = json!("Greek cavalry");
    let r = t.r.resolve("interpenetration", &s, None).unwrap();
    let o = r.outcome.as_ref().unwrap();
    assert_eq!(o.result, "passed_disordered");
    assert!(!on(&o.effects, "Peltasts", |_| true));
    t.apply(
        &r,
        &Mapping {
            units_moving: None,
            targets: opened.targets.clone(),
            choices: Default::default(),
        },
    );
    assert!(t.gts("Greek cavalry").disordered && t.gts("Peltasts").rout);
    assert_eq!(t.break_point("Greeks"), (0.0, 2.0));
}

#[test]
fn a_leader_with_no_unit_contacted_by_the_enemy_is_moved_up_to_10_inches_6_25() {
    let mut t = Turn::begin();
    let body =
        t.b.add_unit(
            &t.r,
            UnitSpec {
                label: "Hydarnes".into(),
                side: "Persians".into(),
                command: None,
                role: Role::Leader,
                stats: json!({ "pv": 2 }),
            },
        )
        .unwrap();
    t.step(body);
    // His row offers the contact; it lands on him, undone exactly, the break point unmoved.
    let (_, edits) = row(&t, "Hydarnes");
    assert!(
        edits.contains(&"Contacted by the enemy".to_string()),
        "{edits:?}"
    );
    let hydarnes = t.id("Hydarnes");
    let body =
        t.b.adjust(
            &t.r,
            Subject::Unit(hydarnes),
            Change::LeaderMovedFromContact { inches: 10 },
            None,
        )
        .unwrap();
    t.step(body);
    let (words, _) = row(&t, "Hydarnes");
    assert!(
        words.contains("contacted by the enemy, moved up to 10\" away this turn"),
        "{words}"
    );
    assert_eq!(t.unit("Hydarnes").leader, None);
    assert_eq!(t.break_point("Persians"), (0.0, 2.0));
    // A leader leading a unit is not moved by 6.25: no offer, and a refusal in words, nothing
    // written.
    assert!(!row(&t, "Artaphernes")
        .1
        .contains(&"Contacted by the enemy".to_string()));
    let events = t.b.events.len();
    let e =
        t.b.adjust(
            &t.r,
            Subject::Unit(t.id("Artaphernes")),
            Change::LeaderMovedFromContact { inches: 10 },
            None,
        )
        .unwrap_err();
    assert_eq!(e.rule.as_deref(), Some("6.25, 1.9"));
    assert!(e.message.contains("leads Immortals"), "{}", e.message);
    assert_eq!(t.b.events.len(), events);
    // The next turn his row is as before.
    let body = t.b.advance_turn(Some(2), None);
    t.record(body);
    assert!(row(&t, "Hydarnes")
        .0
        .contains("if an enemy unit contacts him"));
}

#[test]
fn a_general_entered_with_his_guard_rolls_and_spends_his_command_points_on_his_row() {
    // R-GTS-40, 1.2, 1.7 e: the army general's tag on his guard's row; his command points rolled
    // there, 3 spent for the army's Reserve, kept when his row is corrected, gone next turn.
    let mut t = Turn::begin();
    let mardonius = t.id("Mardonius");
    assert!(!row(&t, "Mardonius")
        .1
        .contains(&"Command points".to_string()));
    let tagged = |pv: i64| UnitSpec {
        label: "Mardonius".into(),
        side: "Persians".into(),
        command: None,
        role: Role::General,
        stats: json!({ "class": "cavalry", "armour": "M", "weapon": "LN", "stands": 1,
                       "pv": pv, "pc": 2, "ts": "E" }),
    };
    let body = t.b.edit_unit(&t.r, mardonius, tagged(1)).unwrap();
    t.step(body);
    let entry = referee_core::state::SystemUnit::entry(t.gts("Mardonius")).unwrap();
    assert_eq!((&entry["pc"], &entry["ts"]), (&json!(2), &json!("E")));
    assert!(row(&t, "Mardonius")
        .1
        .contains(&"Command points".to_string()));
    let opened = fight(&t.r, &t.b.state, "command_points", &[mardonius], &[]).unwrap();
    assert_eq!(
        (&opened.situation["pc"], &opened.situation["ts"]),
        (&json!(2), &json!("E"))
    );
    let mapping = Mapping {
        targets: opened.targets.clone(),
        ..Mapping::default()
    };
    // His d10 (Excellent) shows 7: 7 points, on his row.
    let r = t.throw("command_points", &opened.situation, &[7]);
    assert_eq!(r.outcome.as_ref().unwrap().result, "points_7");
    t.apply(&r, &mapping);
    let (words, edits) = row(&t, "Mardonius");
    assert!(words.contains("7 of 7 command points left"), "{words}");
    assert!(
        edits.contains(&"Spend 3 for the Reserve".to_string()),
        "{edits:?}"
    );
    let spend = |t: &mut Turn, points: u32| {
        t.b.adjust(
            &t.r,
            Subject::Unit(mardonius),
            Change::SpendCommand { points },
            None,
        )
    };
    let body = spend(&mut t, 3).unwrap();
    t.step(body);
    assert!(row(&t, "Mardonius")
        .0
        .contains("4 of 7 command points left"));
    // A correction of his row is not a new turn (1.2).
    let body = t.b.edit_unit(&t.r, mardonius, tagged(2)).unwrap();
    t.step(body);
    assert!(row(&t, "Mardonius")
        .0
        .contains("4 of 7 command points left"));
    let e = spend(&mut t, 5).unwrap_err();
    assert_eq!(e.code, ErrorCode::BattleCommandSpent);
    // A unit that is not a general carries no tag: refused in words.
    let mut sparabara = tagged(0);
    sparabara.label = "Sparabara".into();
    sparabara.role = Role::Unit;
    let e =
        t.r.check_in_battle(&t.b.state, &sparabara, Some(t.id("Sparabara")), "unit")
            .and_then(|_| {
                t.b.edit_unit(&t.r, t.id("Sparabara"), sparabara.clone())
                    .map(|_| ())
            })
            .unwrap_err();
    assert!(e.message.contains("Only a general's row"), "{}", e.message);
    // The next turn clears them.
    let body = t.b.advance_turn(Some(2), None);
    t.record(body);
    assert!(!row(&t, "Mardonius").0.contains("command points"));
}

#[test]
fn a_general_leading_another_unit_from_the_front_brings_it_his_valour_and_takes_its_rout_test() {
    // 1.5, 1.6, 1.9, R-GTS-43: Mardonius, entered with his guard, attaches to the Sparabara.
    // His valour counts in their fights, not his guard's; their rout puts him to the casualty
    // test, and his death (Table 1.10, 0) lands on his own row and lowers the break point.
    let mut t = Turn::begin();
    let mardonius = t.id("Mardonius");
    let leading = |leads: &str| UnitSpec {
        label: "Mardonius".into(),
        side: "Persians".into(),
        command: None,
        role: Role::General,
        stats: json!({ "class": "cavalry", "armour": "M", "weapon": "LN", "stands": 1,
                       "pv": 2, "pc": 3, "ts": "G", "leads": leads }),
    };
    // Another leader's unit, or one of the enemy's, is refused in words.
    refuses_the_units_he_may_not_lead(&t, mardonius, leading);
    t.r.check_in_battle(&t.b.state, &leading("Sparabara"), Some(mardonius), "unit")
        .unwrap();
    let body =
        t.b.edit_unit(&t.r, mardonius, leading("Sparabara"))
            .unwrap();
    t.step(body);
    assert!(row(&t, "Mardonius")
        .0
        .contains("the general leads Sparabara"));
    // His guard fights without him.
    let (guard, _) = t.open("melee_round", &["Mardonius"], &["Greek cavalry"], |_| {});
    assert!(guard["side_a"][0]
        .get("leader_pv")
        .is_none_or(Value::is_null));
    // The Sparabara fight with his +2, his fate mapped to his own row.
    let (round, m) = t.open("melee_round", &["Sparabara"], &["Hoplites"], |_| {});
    assert_eq!(round["side_a"][0]["leader_pv"], json!(2));
    assert_eq!(round["side_a"][0]["leader_name"], json!("Mardonius"));
    assert_eq!(m.targets["unit:Mardonius"], vec![mardonius]);
    assert!(
        !t.threshold("Persians").contains("50%"),
        "{}",
        t.threshold("Persians")
    );
    // A 1 against a 10; every later die as a table might throw it, his casualty test a 1 and
    // Table 1.10 a 10 (0: killed).
    let (r, _) = thrown_by_purpose(
        &t,
        "melee_round",
        &round,
        vec![1, 10],
        |purpose| match purpose {
            "stand-loss check" => 10,
            "recoil test" => 1,
            "Table 1.10" => 10,
            p if p.contains("casualty") => 1,
            _ => 5,
        },
    );
    let o = r.outcome.clone().unwrap();
    assert!(
        on(&o.effects, "Sparabara", |c| *c == Change::RoutUnit),
        "{}",
        o.meaning
    );
    t.apply(&r, &m);
    assert_eq!(t.unit("Mardonius").leader, Some(LeaderFate::Killed));
    assert!(t.gts("Sparabara").rout);
    // The army general killed: the break point falls to 50 % (8.0, R-GTS-7).
    assert!(
        t.threshold("Persians").contains("50%"),
        "{}",
        t.threshold("Persians")
    );
}
