//! A Medieval turn played from the roster alone: a charge that kills, an archery fire that kills,
//! a leader's death landing on the units under his command, a banner falling, a scattered unit
//! regrouping, and the phase-9 MORALE step setting the value in force. After each step the roster
//! and the MORALE counter are checked, the battle replayed from its events equals the live one,
//! and undoing the step gives back exactly the battle before it (redo, exactly the one after).

mod turn_play;

use referee_core::battle::{
    fight, Battle, BattleSetup, DiceSource, EventBody, Mapping, Role, Subject, UnitId, UnitSpec,
};
use referee_core::contract::{Change, Effect, Resolution, Target};
use referee_core::ruleset::Layers;
use referee_core::systems::medieval::MedievalCounter;
use referee_core::systems::{builtin, Ruleset};
use serde_json::{json, Value};

fn ruleset() -> Ruleset {
    Ruleset::load(&Layers {
        base: builtin("medieval").unwrap(),
        house_rules: vec![],
    })
    .unwrap()
}

fn spec(label: &str, side: &str, command: &str, role: Role, stats: Value) -> UnitSpec {
    UnitSpec {
        label: label.into(),
        side: side.into(),
        command: Some(command.into()),
        role,
        stats,
    }
}

struct Turn {
    r: Ruleset,
    b: Battle,
}

/// A unit of `side`'s `command`, with its counter's values.
fn unit(label: &str, side: &str, command: &str, stats: Value) -> UnitSpec {
    spec(label, side, command, Role::Unit, stats)
}

/// The Order's vanguard: the Komtur, his knights and sergeants, and crossbows.
fn order() -> Vec<UnitSpec> {
    vec![
        spec(
            "Komtur",
            "Order",
            "Vanguard",
            Role::Leader,
            json!({ "range": 2 }),
        ),
        unit(
            "Knights",
            "Order",
            "Vanguard",
            json!({ "type": "heavy_cavalry", "sp": 2, "cf": 2 }),
        ),
        unit(
            "Sergeants",
            "Order",
            "Vanguard",
            json!({ "type": "cavalry", "sp": 2, "cf": 1 }),
        ),
        unit(
            "Crossbows",
            "Order",
            "Vanguard",
            json!({ "type": "crossbowmen", "sp": 2 }),
        ),
    ]
}

impl Turn {
    /// A battle begun with these sides and units.
    fn begin(name: &str, sides: Value, units: &[UnitSpec]) -> Turn {
        let r = ruleset();
        let setup = BattleSetup {
            name: name.into(),
            ruleset: "medieval".into(),
            fingerprint: r.info.fingerprint.clone(),
            sides: serde_json::from_value(sides).unwrap(),
        };
        let b = Battle::create_with_units(&r, setup, units, "2026-01-01T00:00:00Z").unwrap();
        Turn { r, b }
    }

    fn id(&self, label: &str) -> UnitId {
        turn_play::id_of(&self.b, label)
    }

    fn unit(&self, label: &str) -> &referee_core::state::UnitState {
        &self.b.state.units[&self.id(label)]
    }

    fn scattered(&self, label: &str) -> bool {
        self.unit(label)
            .detail::<MedievalCounter>()
            .unwrap()
            .scattered
    }

    fn cf(&self, label: &str) -> u32 {
        self.unit(label)
            .detail::<MedievalCounter>()
            .unwrap()
            .entry
            .cf
    }

    /// Records one step; replay, undo and redo checked exact.
    fn step(&mut self, body: EventBody) {
        turn_play::step(&self.r, &mut self.b, body)
    }

    fn record(&mut self, body: EventBody) {
        turn_play::record(&self.r, &mut self.b, body)
    }

    fn resolve(&self, action: &str, situation: &Value, dice: &[u32]) -> Resolution {
        let dice = (!dice.is_empty()).then_some(dice);
        self.r.resolve(action, situation, dice).unwrap()
    }

    fn apply(&mut self, r: &Resolution, targets: &[(&str, UnitId)]) {
        let mapping = Mapping {
            units_moving: None,
            targets: targets
                .iter()
                .map(|(k, id)| (k.to_string(), vec![*id]))
                .collect(),
            choices: Default::default(),
        };
        let body = self
            .b
            .apply(&self.r, r, &mapping, DiceSource::Physical, None, None)
            .unwrap();
        self.step(body);
    }

    /// Every whole throw of the action, its dice asked in turn: each face of each die the
    /// resolution lays out, stage after stage, until it gives its outcome.
    fn chains(&self, action: &str, situation: &Value, faces: Vec<u32>) -> Vec<Vec<u32>> {
        let dice = (!faces.is_empty()).then_some(faces.as_slice());
        let r = self.r.resolve(action, situation, dice).unwrap();
        if r.outcome.is_some() {
            return vec![faces];
        }
        let next = &r.shown.faces[faces.len()];
        (1..=next.sides)
            .flat_map(|f| {
                let mut more = faces.clone();
                more.push(f);
                self.chains(action, situation, more)
            })
            .collect()
    }

    /// The first whole throw (faces entered physically, follow-up dice too) whose outcome
    /// `wanted` accepts.
    fn throw_where(
        &self,
        action: &str,
        situation: &Value,
        wanted: impl Fn(&[Effect]) -> bool,
    ) -> Vec<u32> {
        self.chains(action, situation, Vec::new())
            .into_iter()
            .find(|f| wanted(&self.resolve(action, situation, f).outcome.unwrap().effects))
            .unwrap_or_else(|| panic!("no throw of {action} gives the result wanted"))
    }

    /// Opens a fight from roster picks; the fight's own targets land its result.
    fn fought(
        &mut self,
        action: &str,
        attackers: &[&str],
        defenders: &[&str],
        wanted: impl Fn(&[Effect]) -> bool,
    ) {
        let a: Vec<UnitId> = attackers.iter().map(|l| self.id(l)).collect();
        let d: Vec<UnitId> = defenders.iter().map(|l| self.id(l)).collect();
        let f = fight(&self.r, &self.b.state, action, &a, &d).unwrap();
        let throw = self.throw_where(action, &f.situation, wanted);
        let r = self.resolve(action, &f.situation, &throw);
        let mapping = Mapping {
            units_moving: None,
            targets: f.targets,
            choices: Default::default(),
        };
        let body = self
            .b
            .apply(&self.r, &r, &mapping, DiceSource::Physical, None, None)
            .unwrap();
        self.step(body);
    }

    /// Lands the throw of a fight opened from the roster on the fight's own targets.
    fn land_throw(&mut self, f: &referee_core::battle::Fight, throw: &[u32]) {
        let r = self.resolve(&f.action, &f.situation, throw);
        let mapping = Mapping {
            units_moving: None,
            targets: f.targets.clone(),
            choices: Default::default(),
        };
        let body = self
            .b
            .apply(&self.r, &r, &mapping, DiceSource::Physical, None, None)
            .unwrap();
        self.step(body);
    }

    /// A change the umpire makes by hand on a unit (a quick edit).
    fn edit_by_hand(&mut self, label: &str, change: Change) {
        let id = self.id(label);
        let body = self
            .b
            .adjust(
                &self.r,
                referee_core::battle::Subject::Unit(id),
                change,
                None,
            )
            .unwrap();
        self.step(body);
    }

    /// The MORALE a combat between these units opens with, in the attacker's favour.
    fn combat_morale(&self, attacker: &str, defender: &str) -> (i64, Value) {
        let f = fight(
            &self.r,
            &self.b.state,
            "combat",
            &[self.id(attacker)],
            &[self.id(defender)],
        )
        .unwrap();
        (
            f.situation
                .get("morale")
                .and_then(Value::as_i64)
                .unwrap_or(0),
            f.situation
                .get("attacker_player")
                .cloned()
                .unwrap_or(json!("a")),
        )
    }
}

fn loses_sp(effects: &[Effect], target: &Target) -> bool {
    effects
        .iter()
        .any(|e| &e.target == target && matches!(e.change, Change::LoseSp { .. }))
}

#[test]
fn a_medieval_turn_holds_together_from_the_roster() {
    let sides = json!([
        { "name": "Order", "commands": ["Vanguard"] },
        { "name": "Lithuanians", "commands": ["Right", "Left"] }
    ]);
    let mut units = order();
    units.extend([
        spec(
            "Vytautas",
            "Lithuanians",
            "Right",
            Role::Leader,
            json!({ "range": 2 }),
        ),
        unit(
            "Boyars",
            "Lithuanians",
            "Right",
            json!({ "type": "light_cavalry", "sp": 1 }),
        ),
        unit(
            "Spears",
            "Lithuanians",
            "Right",
            json!({ "type": "light_infantry", "sp": 1 }),
        ),
        unit(
            "Horsemen",
            "Lithuanians",
            "Right",
            json!({ "type": "light_cavalry", "sp": 2 }),
        ),
        unit(
            "Scouts",
            "Lithuanians",
            "Right",
            json!({ "type": "light_cavalry", "sp": 1 }),
        ),
        unit(
            "Tatars",
            "Lithuanians",
            "Left",
            json!({ "type": "light_cavalry", "sp": 2 }),
        ),
    ]);
    let mut t = Turn::begin("Grunwald, turn 1", sides, &units);
    assert_eq!((t.b.state.morale_track, t.b.state.morale_in_force), (0, 0));

    // 1. The Knights charge the Boyars and kill them: the counter moves 1 box to the Order
    //    (6.1.4), the value in force stays (6.1.9).
    t.fought("combat", &["Knights"], &["Boyars"], |e| {
        loses_sp(e, &Target::Defender) && !loses_sp(e, &Target::Attacker)
    });
    assert!(t.unit("Boyars").lost);
    assert_eq!(t.unit("Knights").strength, 2);
    assert_eq!(
        t.cf("Knights"),
        1,
        "5.2.11: the CF drops by 1 after a combat"
    );
    assert_eq!((t.b.state.morale_track, t.b.state.morale_in_force), (1, 0));

    // 2. The Crossbows shoot the Spears down: one box more (6.1.4).
    t.fought("fire", &["Crossbows"], &["Spears"], |e| {
        loses_sp(e, &Target::Defender)
    });
    assert!(t.unit("Spears").lost);
    assert_eq!(t.b.state.morale_track, 2);

    // 3. Vytautas dies: every unit under his command loses 1 SP (8.1.4) — the Scouts are lost,
    //    without a box for it (8.1.6) — the Tatars of another command keep theirs, and the
    //    Order gains 8 boxes (6.1.6).
    let death = json!({ "retreat": 2 });
    let dies = t.resolve("leader_death", &death, &[1, 1]);
    assert_eq!(dies.outcome.as_ref().unwrap().result, "dies");
    let vytautas = t.id("Vytautas");
    t.apply(&dies, &[("unit:leader", vytautas)]);
    assert!(t.unit("Vytautas").lost);
    assert_eq!(t.unit("Horsemen").strength, 1);
    assert!(t.unit("Scouts").lost);
    assert_eq!(t.unit("Tatars").strength, 2);
    assert_eq!(
        t.unit("Knights").strength,
        2,
        "the enemy's units lose nothing"
    );
    assert_eq!(t.b.state.morale_track, 10);

    // 4. The Lithuanian banner falls (7.1.5): 3 boxes to the Order (6.1.5).
    let fallen = t.resolve(
        "banner",
        &json!({ "event": "holder_eliminated", "banner_of": "b" }),
        &[],
    );
    t.apply(&fallen, &[]);
    assert_eq!(t.b.state.morale_track, 13);

    // 5. The Sergeants scattered (a quick edit, as after the scatter d6) cannot fight; their
    //    regroup roll of 4+ brings them back, CF 0 (9.1.6, 9.1.8), and they fight again.
    let sergeants = t.id("Sergeants");
    let scatter =
        t.b.adjust(
            &t.r,
            referee_core::battle::Subject::Unit(sergeants),
            Change::Scatter,
            None,
        )
        .unwrap();
    t.step(scatter);
    assert!(t.scattered("Sergeants"));
    let tatars = t.id("Tatars");
    let refused = fight(&t.r, &t.b.state, "combat", &[sergeants], &[tatars]).unwrap_err();
    assert_eq!(refused.code, "fight.scattered");
    let regroup = json!({ "sp": 2, "leader_alive": true, "grand_leader_alive": true });
    let back = t.resolve("regroup", &regroup, &[5]);
    assert_eq!(back.outcome.as_ref().unwrap().result, "regroups");
    t.apply(&back, &[("unit:scattered unit", sergeants)]);
    assert!(!t.scattered("Sergeants"));
    assert_eq!(t.cf("Sergeants"), 0);
    assert!(fight(&t.r, &t.b.state, "combat", &[sergeants], &[tatars]).is_ok());

    // Before phase 9 the combats still take the value in force: 0 (6.1.9).
    assert_eq!(t.combat_morale("Tatars", "Knights").0, 0);

    // 6. Phase 9: the MORALE step opens with what this turn did, and sets the value in force.
    let phase = t.b.advance_turn(None, Some("morale".into()));
    t.record(phase);
    let step = fight(&t.r, &t.b.state, "morale", &[], &[]).unwrap();
    assert_eq!(
        step.situation,
        json!({ "track": 0, "events": [
            { "kind": "elimination", "to": "a", "count": 2 },
            { "kind": "leader_death", "to": "a", "count": 1 },
            { "kind": "banner_fall", "to": "a", "count": 1 }
        ]})
    );
    let set = t.resolve("morale", &step.situation, &[]);
    assert_eq!(set.outcome.as_ref().unwrap().result, "+13");
    t.apply(&set, &[]);
    assert_eq!(
        (t.b.state.morale_track, t.b.state.morale_in_force),
        (13, 13)
    );
    // The next combats take it, in player A's favour whoever attacks (6.1.2).
    assert_eq!(t.combat_morale("Tatars", "Knights"), (13, json!("b")));
    assert_eq!(t.combat_morale("Knights", "Tatars"), (13, json!("a")));
    let attack = fight(&t.r, &t.b.state, "combat", &[tatars], &[t.id("Knights")]).unwrap();
    let resolved = t.r.resolve("combat", &attack.situation, None).unwrap();
    assert!(resolved
        .modifiers
        .iter()
        .any(|m| m.label == "Defender: MORALE +13"));
    // A new turn: the moves of the last one are behind, the value in force stays.
    let next = t.b.advance_turn(Some(2), None);
    t.record(next);
    let step = fight(&t.r, &t.b.state, "morale", &[], &[]).unwrap();
    assert_eq!(step.situation, json!({ "track": 13, "events": [] }));
}

/// The scatter d6 is asked after the throw that calls for it, named by the units that throw it,
/// and lands with the result: a charge with a leader stacked on the attacking hex that makes the
/// defender retreat (5.1.1 g; the leader's units never scatter, 9.1.3), and a volley of
/// crossbows whose losses call for the d6 of 6 (10.6.3).
#[test]
fn the_scatter_die_is_asked_in_turn_and_lands_on_the_units() {
    let sides = json!([
        { "name": "Order", "commands": ["Vanguard"] },
        { "name": "Lithuanians", "commands": ["Right"] }
    ]);
    let mut units = order();
    units.extend([
        unit(
            "Boyars",
            "Lithuanians",
            "Right",
            json!({ "type": "light_cavalry", "sp": 2 }),
        ),
        unit(
            "Spears",
            "Lithuanians",
            "Right",
            json!({ "type": "light_infantry", "sp": 2 }),
        ),
    ]);
    let mut t = Turn::begin("Tannenberg, turn 2", sides, &units);

    // 1. The Knights charge the Boyars with the Komtur stacked on their hex (8.2.1: 2 CMs).
    let f = fight(
        &t.r,
        &t.b.state,
        "combat",
        &[t.id("Knights")],
        &[t.id("Boyars")],
    )
    .unwrap();
    let mut charge = f.situation.clone();
    charge["attackers"][0]["leader"] = json!(true);
    let undiced = t.resolve("combat", &charge, &[]);
    assert!(undiced.shown.in_turn);
    assert!(undiced
        .modifiers
        .iter()
        .any(|m| m.label == "Attacker: stacked with a leader"));
    // Of the 36 throws, those making the Boyars retreat without scattering them outright ask
    // one d6 more, the Boyars'; the Knights, stacked with their leader, never throw one (9.1.3).
    let mut asked = 0;
    let mut retreat_throw = None;
    for a in 1..=6 {
        for b in 1..=6 {
            let at = t.resolve("combat", &charge, &[a, b]);
            if at.outcome.is_some() {
                assert_eq!(at.shown.faces.len(), 2);
                continue;
            }
            asked += 1;
            assert_eq!(at.shown.faces.len(), 3, "{a} {b}");
            let die = &at.shown.faces[2];
            assert_eq!(
                (die.sides, die.label.as_deref(), die.purpose.as_deref()),
                (6, Some("Boyars"), Some("scatter")),
                "5.1.1 g: the retreating unit's d6"
            );
            retreat_throw.get_or_insert((a, b));
        }
    }
    assert!(asked > 0, "some result makes the Boyars retreat");
    let (a, b) = retreat_throw.unwrap();
    // Light cavalry scatter on 1 after D1 and on 1–2 after D2 (COMBAT SCATTER): a 6 never does.
    let held = t.resolve("combat", &charge, &[a, b, 6]);
    let held_effects = &held.outcome.as_ref().unwrap().effects;
    assert!(!held_effects
        .iter()
        .any(|e| matches!(e.change, Change::Scatter)));
    assert!(held
        .outcome
        .as_ref()
        .unwrap()
        .meaning
        .contains("Scatter d6 6 (Boyars): none scattered."));
    let scattered = t.resolve("combat", &charge, &[a, b, 1]);
    let outcome = scattered.outcome.as_ref().unwrap();
    assert!(outcome.effects.iter().any(|e| e.target == Target::Defender
        && e.change == Change::Scatter
        && e.rule.contains("5.1.1")));
    assert!(
        outcome.meaning.contains("Boyars scattered"),
        "{}",
        outcome.meaning
    );
    // A fourth face is refused, naming how many the throw takes.
    let e =
        t.r.resolve("combat", &charge, Some(&[a, b, 1, 1]))
            .unwrap_err();
    assert!(
        e.message.contains("takes 3 dice; 4 were entered"),
        "{}",
        e.message
    );
    let mapping = Mapping {
        units_moving: None,
        targets: f.targets.clone(),
        choices: Default::default(),
    };
    let body =
        t.b.apply(&t.r, &scattered, &mapping, DiceSource::Physical, None, None)
            .unwrap();
    t.step(body);
    assert!(t.scattered("Boyars"), "the scatter lands on the Boyars");
    assert!(!t.scattered("Knights"));

    // 2. The Crossbows shoot the Spears: a loss calls for the d6, a 6 scatters (10.6.3).
    let f = fight(
        &t.r,
        &t.b.state,
        "fire",
        &[t.id("Crossbows")],
        &[t.id("Spears")],
    )
    .unwrap();
    let volley = t.throw_where("fire", &f.situation, |e| {
        e.iter()
            .any(|e| e.change == Change::Scatter && e.rule.contains("10.6.3"))
    });
    let shot = t.resolve("fire", &f.situation, &volley);
    assert_eq!(volley.len(), 3, "the table's 2d6, then the scatter d6");
    assert_eq!(volley[2], 6, "10.6.3: only a 6 scatters");
    let die = &shot.shown.faces[2];
    assert_eq!(
        (die.label.as_deref(), die.purpose.as_deref()),
        (Some("Spears"), Some("scatter"))
    );
    let mut five = volley.clone();
    five[2] = 5;
    let spared = t.resolve("fire", &f.situation, &five);
    assert!(!spared
        .outcome
        .unwrap()
        .effects
        .iter()
        .any(|e| e.change == Change::Scatter));
    let body =
        t.b.apply(
            &t.r,
            &shot,
            &Mapping {
                units_moving: None,
                targets: f.targets.clone(),
                choices: Default::default(),
            },
            DiceSource::Physical,
            None,
            None,
        )
        .unwrap();
    t.step(body);
    assert!(t.scattered("Spears"));
    assert!(t.unit("Spears").strength < 2);
}

/// A ranged unit's formation is a state of its counter (10.1.1, 10.1.3): turned by a quick edit,
/// undone exactly, read by the fights opened from the roster — on its movement side it does not
/// shoot (10.1.2) and fights with no SPs (10.1.1); a unit without a movement side refuses it.
#[test]
fn a_ranged_units_formation_is_a_state_of_its_counter() {
    let sides = json!([
        { "name": "Order", "commands": ["Vanguard"] },
        { "name": "Lithuanians", "commands": ["Right"] }
    ]);
    let mut units = order();
    units.push(unit(
        "Boyars",
        "Lithuanians",
        "Right",
        json!({ "type": "light_cavalry", "sp": 2 }),
    ));
    let mut t = Turn::begin("Grunwald, turn 3", sides, &units);
    let (crossbows, boyars) = (t.id("Crossbows"), t.id("Boyars"));
    let words = t.r.worded(&t.b.state);
    let row = &words.units[&crossbows].words;
    assert!(row.summary.contains("combat formation"), "{}", row.summary);
    let turn = row
        .quick_edits
        .iter()
        .find(|q| q.label == "To movement formation")
        .expect("a quick edit turns the counter")
        .change
        .clone();
    assert_eq!(turn, Change::Formation { movement: true });
    let body =
        t.b.adjust(
            &t.r,
            referee_core::battle::Subject::Unit(crossbows),
            turn,
            None,
        )
        .unwrap();
    t.step(body);
    let counter = t.unit("Crossbows").detail::<MedievalCounter>().unwrap();
    assert!(counter.entry.movement_formation);
    let words = t.r.worded(&t.b.state);
    assert!(words.units[&crossbows]
        .words
        .summary
        .contains("movement formation"));
    // The fire opened from the roster reads it: no shot on the movement side (10.1.2).
    let f = fight(&t.r, &t.b.state, "fire", &[crossbows], &[boyars]).unwrap();
    let e = t.r.resolve("fire", &f.situation, None).unwrap_err();
    assert_eq!(e.rule.as_deref(), Some("10.1.2"));
    // Light cavalry have no movement side: the change is refused as a conflict-free error.
    let refused = t.b.adjust(
        &t.r,
        referee_core::battle::Subject::Unit(boyars),
        Change::Formation { movement: true },
        None,
    );
    assert!(refused.is_err(), "light cavalry have no formations");
}

fn leader(label: &str, side: &str, command: &str, stats: Value) -> UnitSpec {
    spec(label, side, command, Role::Leader, stats)
}

fn retreats(effects: &[Effect], target: &Target) -> bool {
    effects
        .iter()
        .any(|e| &e.target == target && matches!(e.change, Change::Retreat { .. }))
}

fn killed(effects: &[Effect], who: &str) -> bool {
    effects
        .iter()
        .any(|e| e.target == Target::Unit(who.into()) && e.change == Change::LeaderKilled)
}

/// A leader stands on a hex of the roster: a fight opened from the units there brings him in —
/// his 2 CMs (8.2.1), no scatter (9.1.3) — and when they must retreat his death 2d6 is asked in
/// the same chain as the combat's dice, named by him, and lands on him: surviving, he retreats
/// on his own (8.2.6); dying, his command loses 1 SP a unit (8.1.4) and the enemy gains 8 boxes
/// (6.1.6); a grand leader's whole side loses 1 SP and the enemy gains 12 (8.1.5, 6.1.7). His
/// fatigue is kept on his row (13.1). After each step the roster and the MORALE counter are
/// checked, replay equals live, undo and redo are exact (R-MED-40, R-MED-41).
#[test]
fn a_stacked_leader_comes_from_the_roster_and_his_death_die_lands_on_him() {
    let sides = json!([
        { "name": "Order", "commands": ["Vanguard"] },
        { "name": "Lithuanians", "commands": ["Right", "Left"] }
    ]);
    let units = vec![
        leader("Komtur", "Order", "Vanguard", json!({ "hex": "12.05" })),
        unit(
            "Knights",
            "Order",
            "Vanguard",
            json!({ "type": "heavy_cavalry", "sp": 2, "cf": 2, "hex": "12.05" }),
        ),
        unit(
            "Sergeants",
            "Order",
            "Vanguard",
            json!({ "type": "cavalry", "sp": 2, "cf": 1, "hex": "12.06" }),
        ),
        leader(
            "Vytautas",
            "Lithuanians",
            "Right",
            json!({ "hex": "13.05" }),
        ),
        unit(
            "Boyars",
            "Lithuanians",
            "Right",
            json!({ "type": "light_cavalry", "sp": 2, "hex": "13.05" }),
        ),
        unit(
            "Horsemen",
            "Lithuanians",
            "Right",
            json!({ "type": "light_cavalry", "sp": 2, "hex": "13.07" }),
        ),
        leader(
            "Jagiełło",
            "Lithuanians",
            "Left",
            json!({ "grand": true, "hex": "14.05" }),
        ),
        unit(
            "Tatars",
            "Lithuanians",
            "Left",
            json!({ "type": "light_cavalry", "sp": 2, "hex": "14.05" }),
        ),
    ];
    let mut t = Turn::begin("Grunwald, the leaders", sides, &units);
    let words = t.r.worded(&t.b.state);
    let row = |label: &str| words.units[&t.id(label)].words.clone();
    assert_eq!(row("Jagiełło").type_name, "Grand leader");
    assert_eq!(row("Vytautas").type_name, "Leader");
    assert_eq!(row("Knights").place.as_deref(), Some("Hex 12.05"));
    assert_eq!(row("Komtur").place.as_deref(), Some("Hex 12.05"));

    // 1. The Sergeants charge the Boyars, Vytautas stacked with them on 13.05: picking the
    //    Boyars brings him in, with his 2 CMs (8.2.1) and his name on the hex.
    let (sergeants, boyars) = (t.id("Sergeants"), t.id("Boyars"));
    let f = fight(&t.r, &t.b.state, "combat", &[sergeants], &[boyars]).unwrap();
    let hex = &f.situation["defenders"][0];
    assert_eq!(
        (&hex["leader"], &hex["leader_name"]),
        (&json!(true), &json!("Vytautas"))
    );
    assert!(f.situation["attackers"][0].get("leader").is_none());
    assert_eq!(f.targets["unit:Vytautas"], vec![t.id("Vytautas")]);
    let undiced = t.resolve("combat", &f.situation, &[]);
    assert!(undiced
        .modifiers
        .iter()
        .any(|m| m.label == "Defender: stacked with a leader"));
    // A throw making the Boyars retreat asks two d6 more after the table's 2d6, Vytautas's.
    let survives = t.throw_where("combat", &f.situation, |e| {
        retreats(e, &Target::Unit("Vytautas".into()))
            && !loses_sp(e, &Target::Defender)
            && !loses_sp(e, &Target::Attacker)
            && !retreats(e, &Target::Attacker)
    });
    assert_eq!(
        survives.len(),
        4,
        "the table's 2d6, then his 2d6: {survives:?}"
    );
    let thrown = t.resolve("combat", &f.situation, &survives);
    let pads: Vec<(Option<&str>, Option<&str>)> = thrown.shown.faces[2..]
        .iter()
        .map(|d| (d.label.as_deref(), d.purpose.as_deref()))
        .collect();
    assert_eq!(
        pads,
        [(Some("Vytautas"), Some("leader death")); 2],
        "8.2.4: named by him"
    );
    let said = &thrown.outcome.as_ref().unwrap().meaning;
    assert!(
        said.contains("Vytautas lives and retreats on his own"),
        "{said}"
    );
    // The table's 2d6 alone waits for his dice.
    assert!(t
        .resolve("combat", &f.situation, &survives[..2])
        .outcome
        .is_none());
    t.land_throw(&f, &survives);
    let vytautas = t.unit("Vytautas");
    assert!(!vytautas.lost);
    assert!(
        vytautas
            .moves
            .iter()
            .any(|m| m.starts_with("Vytautas: retreat")),
        "8.2.6: his own retreat lands on him: {:?}",
        vytautas.moves
    );
    assert!(!t.scattered("Boyars"), "9.1.3: stacked with a leader");
    assert_eq!(t.unit("Boyars").strength, 2);
    assert_eq!(t.b.state.morale_track, 0);
    // The Sergeants pursue with no leader on their hex: the hexes to him are left for the
    // umpire to count, never pre-filled as 0 (5.5.2, R-MED-6).
    let chase = fight(&t.r, &t.b.state, "pursuit", &[], &[]).unwrap();
    assert_eq!(chase.situation["pursuer"]["type"], json!("cavalry"));
    assert!(chase.situation.get("hexes_from_leader").is_none());

    // 2. The Knights charge the Boyars, the Komtur with them and Vytautas still stacked there:
    //    a throw that kills him. His command (the Boyars, the Horsemen) loses 1 SP a unit, the
    //    other command's Tatars nothing; the Order gains 8 boxes (8.1.4, 8.1.6, 6.1.6).
    let knights = t.id("Knights");
    let f = fight(&t.r, &t.b.state, "combat", &[knights], &[boyars]).unwrap();
    assert_eq!(f.situation["attackers"][0]["leader_name"], json!("Komtur"));
    assert_eq!(f.targets["unit:Komtur"], vec![t.id("Komtur")]);
    let dies = t.throw_where("combat", &f.situation, |e| {
        killed(e, "Vytautas")
            && !loses_sp(e, &Target::Defender)
            && !loses_sp(e, &Target::Attacker)
            && !retreats(e, &Target::Attacker)
    });
    let thrown = t.resolve("combat", &f.situation, &dies);
    let said = &thrown.outcome.as_ref().unwrap().meaning;
    assert!(said.contains("Vytautas dies"), "{said}");
    t.land_throw(&f, &dies);
    assert!(t.unit("Vytautas").lost);
    assert_eq!(
        t.unit("Vytautas").leader,
        Some(referee_core::state::LeaderFate::Killed)
    );
    assert_eq!(t.unit("Boyars").strength, 1);
    assert_eq!(t.unit("Horsemen").strength, 1);
    assert_eq!(t.unit("Tatars").strength, 2);
    assert_eq!(t.unit("Knights").strength, 2);
    assert!(!t.unit("Komtur").lost);
    assert_eq!(t.b.state.morale_track, 8);
    assert!(t.b.state.conflicts.is_empty(), "{:?}", t.b.state.conflicts);
    // The pursuit test opens from that combat (R-MED-43): the Knights pursue as they stand, the
    // Komtur on their hex (0 hexes, R-MED-6), into the hex the Boyars' retreat emptied (5.5.5).
    let chase = fight(&t.r, &t.b.state, "pursuit", &[], &[]).unwrap();
    assert_eq!(chase.situation["pursuer"]["type"], json!("heavy_cavalry"));
    assert_eq!(chase.situation["hexes_from_leader"], json!(0));
    assert_eq!(chase.situation["path"], json!([{ "label": "13.05" }]));
    assert!(t.r.resolve("pursuit", &chase.situation, None).is_ok());
    // A dead leader stacks with no one: the Boyars fight alone now.
    let f = fight(&t.r, &t.b.state, "combat", &[t.id("Sergeants")], &[boyars]).unwrap();
    assert!(f.situation["defenders"][0].get("leader").is_none());

    // 3. The Knights charge the Tatars, the grand leader Jagiełło stacked with them: his death
    //    costs every Lithuanian unit 1 SP — the Boyars and the Horsemen, at 1 SP, are lost,
    //    moving no box (8.1.6) — and gives the Order 12 boxes (8.1.5, 6.1.7).
    let tatars = t.id("Tatars");
    let f = fight(&t.r, &t.b.state, "combat", &[knights], &[tatars]).unwrap();
    assert_eq!(f.situation["defenders"][0]["grand_leader"], json!(true));
    let dies = t.throw_where("combat", &f.situation, |e| {
        killed(e, "Jagiełło")
            && !loses_sp(e, &Target::Defender)
            && !loses_sp(e, &Target::Attacker)
            && !retreats(e, &Target::Attacker)
    });
    t.land_throw(&f, &dies);
    assert!(t.unit("Jagiełło").lost);
    assert_eq!(t.unit("Tatars").strength, 1);
    assert!(t.unit("Boyars").lost && t.unit("Horsemen").lost);
    assert_eq!(t.unit("Knights").strength, 2);
    assert_eq!(
        t.b.state.morale_track, 20,
        "8 + 12 boxes, the track's end (R-MED-30)"
    );

    // 4. The Komtur led two combats this turn: his fatigue rises by 1 on his row (13.1.3, 13.1.6);
    //    the fatigue step sets it once a turn (R-MED-48).
    let komtur = t.id("Komtur");
    let up = t.r.worded(&t.b.state).units[&komtur]
        .words
        .quick_edits
        .iter()
        .find(|q| q.label == "Fatigue +1")
        .expect("a quick edit raises his fatigue")
        .change
        .clone();
    t.edit_by_hand("Komtur", up);
    let words = t.r.worded(&t.b.state);
    assert!(
        words.units[&komtur].words.summary.contains("fatigue 1"),
        "{}",
        words.units[&komtur].words.summary
    );
    let fatigue = |t: &Turn| {
        t.unit("Komtur")
            .detail::<referee_core::systems::medieval::MedievalLeader>()
            .unwrap()
            .fatigue
    };
    assert_eq!(fatigue(&t), 1);
    // The next turn's fatigue step, named by him, lands on his row too: he led again, 1 → 2.
    let next = t.b.advance_turn(Some(2), None);
    t.record(next);
    let step = json!({ "level": 1, "active": true, "units": 2, "leader": "Komtur" });
    let r = t.resolve("fatigue", &step, &[]);
    assert_eq!(r.outcome.as_ref().unwrap().result, "fatigue_2");
    t.apply(&r, &[("unit:Komtur", komtur)]);
    assert_eq!(fatigue(&t), 2);
    // 13.1.6: once a turn: the same step applied again this turn is refused, nothing written.
    let events = t.b.events.len();
    let mapping = Mapping {
        units_moving: None,
        targets: [("unit:Komtur".to_string(), vec![komtur])].into(),
        choices: Default::default(),
    };
    let again =
        t.b.apply(&t.r, &r, &mapping, DiceSource::Physical, None, None)
            .unwrap_err();
    assert_eq!(again.code, "battle.once_per_turn");
    assert_eq!(again.rule.as_deref(), Some("13.1.6"));
    assert!(again
        .message
        .starts_with("Komtur's fatigue was already set this turn"));
    assert_eq!(t.b.events.len(), events);
    assert_eq!(fatigue(&t), 2);
    // A correction of his row (his hex typed) is not a new turn: the step is still refused
    // (R-MED-48), and the MORALE counter stays where it was.
    let morale = t.b.state.morale_track;
    let corrected = leader(
        "Komtur",
        "Order",
        "Vanguard",
        json!({ "range": 2, "fatigue": 2, "hex": "12.05" }),
    );
    let body = t.b.edit_unit(&t.r, komtur, corrected).unwrap();
    t.step(body);
    let komtur_row = t.unit("Komtur");
    let row = komtur_row
        .detail::<referee_core::systems::medieval::MedievalLeader>()
        .unwrap();
    assert_eq!(row.hex.as_deref(), Some("12.05"));
    assert!(
        row.fatigue_set,
        "the turn's fatigue step kept across the correction"
    );
    let still =
        t.b.apply(&t.r, &r, &mapping, DiceSource::Physical, None, None)
            .unwrap_err();
    assert_eq!(still.code, "battle.once_per_turn");
    assert_eq!(fatigue(&t), 2);
    assert_eq!(t.b.state.morale_track, morale);
    // A level typed other than his row's: the step says "Fatigue 4 (3 → 4)" and his row becomes
    // 4, as it says — not his row's 2 raised by 1 (13.1.3–13.1.6).
    let next = t.b.advance_turn(Some(3), None);
    t.record(next);
    let step = json!({ "level": 3, "active": true, "units": 2, "leader": "Komtur" });
    let r = t.resolve("fatigue", &step, &[]);
    assert_eq!(r.outcome.as_ref().unwrap().result, "fatigue_4");
    t.apply(&r, &[("unit:Komtur", komtur)]);
    assert_eq!(fatigue(&t), 4);
}

/// A banner has a holder on the roster (7.1.4): when a change takes the holder off the table, a
/// friend on its hex takes the banner in the same event; with none there it falls and the enemy
/// gains 3 boxes (7.1.5, 6.1.5), which the phase-9 step counts as a banner's fall; a fight opened
/// from the roster gives the holder's side its CM (7.1.7). A counter counts its banners: a
/// holder of two that falls alone costs 2 × 3 boxes (R-MED-49). Replay and undo exact (R-MED-42).
#[test]
fn a_banner_falls_with_its_holder_unless_a_friend_on_its_hex_takes_it() {
    let sides = json!([
        { "name": "Order", "commands": ["Vanguard"] },
        { "name": "Lithuanians", "commands": ["Right"] }
    ]);
    let mut units = order();
    units.extend([
        unit(
            "Boyars",
            "Lithuanians",
            "Right",
            json!({ "type": "light_cavalry", "sp": 1, "hex": "13.05", "banner": true }),
        ),
        unit(
            "Spears",
            "Lithuanians",
            "Right",
            json!({ "type": "light_infantry", "sp": 1, "hex": "13.05" }),
        ),
        unit(
            "Horsemen",
            "Lithuanians",
            "Right",
            json!({ "type": "light_cavalry", "sp": 1, "hex": "13.07", "banner": true }),
        ),
        unit(
            "Tatars",
            "Lithuanians",
            "Right",
            json!({ "type": "light_cavalry", "sp": 2, "hex": "14.07" }),
        ),
    ]);
    let mut t = Turn::begin("Grunwald, the banners", sides, &units);
    let banners =
        |t: &Turn, label: &str| t.unit(label).detail::<MedievalCounter>().unwrap().banners;
    let summary = |t: &Turn, label: &str| {
        t.r.worded(&t.b.state).units[&t.id(label)]
            .words
            .summary
            .clone()
    };
    let words = t.r.worded(&t.b.state);
    let edits = |label: &str| -> Vec<String> {
        words.units[&t.id(label)]
            .words
            .quick_edits
            .iter()
            .map(|q| q.label.clone())
            .collect()
    };
    assert!(words.units[&t.id("Boyars")]
        .words
        .summary
        .contains("holds a banner"));
    assert!(edits("Boyars").contains(&"Passes a banner on".to_string()));
    assert!(edits("Knights").contains(&"Takes a banner".to_string()));
    assert!(
        !edits("Crossbows").iter().any(|e| e.contains("banner")),
        "1.3, 7.1.2: only a regular unit holds one"
    );

    // A defending hex defends whole (5.2.3): picking the Spears brings the Boyars on their hex,
    // with the banner's CM (7.1.7); both are the hex the result lands on.
    let (spears, boyars) = (t.id("Spears"), t.id("Boyars"));
    let f = fight(&t.r, &t.b.state, "combat", &[t.id("Knights")], &[spears]).unwrap();
    let hex = &f.situation["defenders"][0];
    assert_eq!(hex["label"], json!("Spears and Boyars"));
    assert_eq!(hex["units"].as_array().map(Vec::len), Some(2));
    assert_eq!(f.targets["defender"], vec![spears, boyars]);
    assert_eq!(f.situation["defender"]["banner"], json!(true));
    // Attacking, the Spears alone picked: the Boyars' banner on their hex still gives the CM
    // (7.1.7: "any friendly units on hex with banner").
    let f = fight(&t.r, &t.b.state, "combat", &[spears], &[t.id("Knights")]).unwrap();
    assert_eq!(f.situation["attackers"][0]["label"], json!("Spears"));
    assert_eq!(f.situation["attacker"]["banner"], json!(true));

    // 1. The Spears hold a banner of their own; the Boyars lose their last SP: the Spears on
    // their hex keep the Boyars' too, and it does not fall (7.1.5: it falls only when "no other
    // friendly units to keep it are on the hex").
    t.edit_by_hand(
        "Spears",
        Change::Banner {
            held: true,
            count: None,
        },
    );
    let loss = Change::LoseSp {
        count: 1,
        chosen_by: referee_core::contract::Chooser::Defender,
    };
    t.edit_by_hand("Boyars", loss.clone());
    assert!(t.unit("Boyars").lost);
    assert_eq!(
        banners(&t, "Spears"),
        2,
        "a friend on the hex keeps it, beside its own (R-MED-49)"
    );
    assert!(summary(&t, "Spears").contains("holds 2 banners"));
    assert_eq!(t.b.state.morale_track, 0);

    // 2. The Horsemen, alone on 13.07, lose theirs: the banner falls, 3 boxes to the Order.
    t.edit_by_hand("Horsemen", loss);
    assert!(t.unit("Horsemen").lost);
    assert_eq!(t.b.state.morale_track, 3, "6.1.5");
    let step = fight(&t.r, &t.b.state, "morale", &[], &[]).unwrap();
    assert_eq!(
        step.situation["events"],
        json!([{ "kind": "banner_fall", "to": "a", "count": 1 }])
    );

    // 3. The Knights charge the Spears, who hold the banner now: their side gains its CM.
    let f = fight(
        &t.r,
        &t.b.state,
        "combat",
        &[t.id("Knights")],
        &[t.id("Spears")],
    )
    .unwrap();
    assert_eq!(f.situation["defender"]["banner"], json!(true));
    assert!(f.situation.get("attacker").is_none());

    // 4. The Spears, alone on 13.05 with both banners, lose their last SP: each banner falls,
    // 3 boxes each to the Order (6.1.5, R-MED-49), counted as two falls in phase 9.
    t.edit_by_hand(
        "Spears",
        Change::LoseSp {
            count: 1,
            chosen_by: referee_core::contract::Chooser::Defender,
        },
    );
    assert!(t.unit("Spears").lost);
    assert_eq!(t.b.state.morale_track, 9, "3 + 2 × 3 boxes");
    let step = fight(&t.r, &t.b.state, "morale", &[], &[]).unwrap();
    assert_eq!(
        step.situation["events"],
        json!([{ "kind": "banner_fall", "to": "a", "count": 3 }])
    );

    // 5. The Tatars ride into 13.07 and take the Horsemen's fallen banner back: the track moves
    // 3 boxes back (6.1.5, R-MED-36) and the banner lands on the Tatars by the action itself
    // (7.1.6, R-MED-51), no "Takes a banner" after it.
    let back = t.resolve(
        "banner",
        &json!({
            "event": "unit_enters",
            "own_side": true,
            "banner_of": "b",
            "unit": { "type": "light_cavalry", "sp": 2 }
        }),
        &[],
    );
    assert_eq!(back.outcome.as_ref().unwrap().result, "recaptured");
    let tatars = t.id("Tatars");
    t.apply(&back, &[("unit:recapturing unit", tatars)]);
    assert_eq!(banners(&t, "Tatars"), 1);
    assert_eq!(
        t.b.state.morale_track, 6,
        "9 − 3 boxes back to the Lithuanians"
    );
    assert!(summary(&t, "Tatars").contains("holds a banner"));
}

fn retreats_to(effects: &[Effect], target: &Target, hex: &str) -> bool {
    effects.iter().any(|e| {
        &e.target == target
            && e.change
                == Change::RetreatTo {
                    hex: hex.to_string(),
                }
    })
}

fn hex_of(t: &Turn, label: &str) -> Option<String> {
    let u = t.unit(label);
    u.detail::<MedievalCounter>()
        .map(|c| c.hex.clone())
        .or_else(|| {
            u.detail::<referee_core::systems::medieval::leader::MedievalLeader>()
                .map(|l| l.hex.clone())
        })
        .flatten()
}

/// The retreat route picked from the roster, hex by hex (5.4, R-MED-44): the combat opened from
/// the roster offers each side the roster's hexes, the side's own counters there filled in as
/// friends (5.4.4, 4.5.2) and the enemy's ticked (5.4.5); the Boyars' D2 through the Spears' hex
/// rides them down and ends on the new hex named after it, where the Boyars and Vytautas, who
/// lives, now stand (8.2.6, 8.2.7) — in one event, replay equal to live, undo exact; the next
/// fight reads them there. Without a route nothing moves, and the result says so.
#[test]
fn a_retreat_route_picked_from_the_roster_moves_the_units_on_it() {
    let sides = json!([
        { "name": "Order", "commands": ["Vanguard"] },
        { "name": "Lithuanians", "commands": ["Right"] }
    ]);
    let units = vec![
        unit(
            "Knights",
            "Order",
            "Vanguard",
            json!({ "type": "heavy_cavalry", "sp": 2, "cf": 2, "hex": "12.05" }),
        ),
        unit(
            "Sergeants",
            "Order",
            "Vanguard",
            json!({ "type": "cavalry", "sp": 2, "cf": 1, "hex": "14.06" }),
        ),
        leader(
            "Vytautas",
            "Lithuanians",
            "Right",
            json!({ "hex": "13.05" }),
        ),
        unit(
            "Boyars",
            "Lithuanians",
            "Right",
            json!({ "type": "light_cavalry", "sp": 2, "hex": "13.05" }),
        ),
        unit(
            "Spears",
            "Lithuanians",
            "Right",
            json!({ "type": "light_infantry", "sp": 1, "hex": "14.05" }),
        ),
    ];
    let mut t = Turn::begin("Grunwald, the retreat", sides, &units);
    let (knights, boyars) = (t.id("Knights"), t.id("Boyars"));
    let f = fight(&t.r, &t.b.state, "combat", &[knights], &[boyars]).unwrap();

    // Each side's route offers the roster's other hexes: the defender's own Spears on 14.05,
    // filled in with their stats, and the enemy Sergeants on 14.06 ticked as enemy.
    let route = |side: &str| {
        f.places
            .iter()
            .find(|p| p.path == [side, "retreat_hexes"])
            .unwrap()
    };
    let defender = route("defender");
    assert_eq!(defender.title, "Lithuanians' retreat route");
    let offered: Vec<(&str, &str)> = defender
        .places
        .iter()
        .map(|p| (p.name.as_str(), p.words.as_str()))
        .collect();
    assert_eq!(
        offered,
        [("14.05", "Spears (1 SP)"), ("14.06", "enemy: Sergeants")]
    );
    assert_eq!(
        defender.places[0].item,
        json!({ "label": "14.05", "friendly": [{ "type": "light_infantry", "sp": 1 }] })
    );
    assert_eq!(
        defender.places[1].item,
        json!({ "label": "14.06", "enemy": true })
    );
    let attacker = route("attacker");
    assert_eq!(attacker.places[1].words, "Sergeants (2 SPs)");
    assert_eq!(attacker.places[0].item["enemy"], json!(true));
    // A ride-down there lands on the roster's counters of the hex.
    assert_eq!(f.targets["hex:14.05"], vec![t.id("Spears")]);

    // The umpire picks 14.05 from the list, then types a new hex, 15.05.
    let mut situation = f.situation.clone();
    situation["defender"]["retreat_hexes"] =
        json!([defender.places[0].item.clone(), { "label": "15.05" }]);
    let throw = t.throw_where("combat", &situation, |e| {
        retreats_to(e, &Target::Defender, "15.05")
            && retreats_to(e, &Target::Unit("Vytautas".into()), "15.05")
            && !loses_sp(e, &Target::Defender)
    });
    let r = t.resolve("combat", &situation, &throw);
    // The forecast names him and his own dice (8.2.4, R-MED-40).
    assert!(
        r.forecast
            .iter()
            .any(|c| c.label == "The defender's leader Vytautas dies on his death 2d6"),
        "{:?}",
        r.forecast.iter().map(|c| &c.label).collect::<Vec<_>>()
    );
    let outcome = r.outcome.as_ref().unwrap();
    assert!(
        outcome
            .meaning
            .contains("Boyars: the retreat ends on hex 15.05."),
        "{}",
        outcome.meaning
    );
    assert!(
        outcome.meaning.contains("He stops on hex 15.05."),
        "{}",
        outcome.meaning
    );
    assert!(outcome
        .effects
        .iter()
        .any(|e| e.target == Target::Hex("14.05".into()) && e.change == Change::DestroyAll));
    let f = referee_core::battle::Fight { situation, ..f };
    t.land_throw(&f, &throw);
    // One event moves them all, so one undo takes it back (checked exact by the step).
    let last = t.b.events.iter().rev().find_map(|e| match &e.body {
        EventBody::Applied { changes, .. } => Some(changes),
        _ => None,
    });
    let moved: Vec<&Subject> = last
        .unwrap()
        .iter()
        .filter(|c| matches!(c.change, Change::RetreatTo { .. }))
        .map(|c| &c.subject)
        .collect();
    assert_eq!(
        moved,
        [&Subject::Unit(boyars), &Subject::Unit(t.id("Vytautas"))]
    );
    assert_eq!(hex_of(&t, "Boyars").as_deref(), Some("15.05"));
    assert_eq!(hex_of(&t, "Vytautas").as_deref(), Some("15.05"));
    assert_eq!(hex_of(&t, "Knights").as_deref(), Some("12.05"));
    assert!(t.unit("Spears").lost, "ridden down (5.4.4)");
    let words = t.r.worded(&t.b.state);
    assert_eq!(
        words.units[&boyars].words.place.as_deref(),
        Some("Hex 15.05")
    );

    // The next fight reads them where they stand: Vytautas stacked with the Boyars on 15.05.
    let sergeants = t.id("Sergeants");
    let next = fight(&t.r, &t.b.state, "combat", &[sergeants], &[boyars]).unwrap();
    assert_eq!(
        next.situation["defenders"][0]["leader_name"],
        json!("Vytautas")
    );

    // Without a route nothing moves, and the result says so.
    let throw = t.throw_where("combat", &next.situation, |e| {
        retreats(e, &Target::Defender) && !loses_sp(e, &Target::Defender)
    });
    let r = t.resolve("combat", &next.situation, &throw);
    let said = &r.outcome.as_ref().unwrap().meaning;
    assert!(
        said.contains("Boyars: no retreat route picked; the roster leaves its units where they fought: move them on the map and set their hex."),
        "{said}"
    );
    assert!(!r
        .outcome
        .as_ref()
        .unwrap()
        .effects
        .iter()
        .any(|e| matches!(e.change, Change::RetreatTo { .. })));
    t.land_throw(&next, &throw);
    assert_eq!(hex_of(&t, "Boyars").as_deref(), Some("15.05"));
}

/// The pursuit route picked from the roster (5.5, R-MED-45): after the Boyars' retreat lands on
/// 15.05, the pursuit opens from that combat with the hex the retreat emptied, 13.05, as its
/// first hex (5.5.5), the Knights and the Komtur stacked with them as the pursuers, and the
/// roster's other hexes to pick: the enemy Spears' 14.05, filled in as enemy units. The Knights
/// ride the Spears down there (5.5.9) and the fortified 14.04 typed after it stops them
/// (11.1.5): the Knights and the Komtur land on 14.05 in the same event as the ride-down, the
/// MORALE counter unmoved (5.8.4); replay equal to live, undo exact.
#[test]
fn a_pursuit_route_picked_from_the_roster_moves_the_pursuer_and_his_leader() {
    let sides = json!([
        { "name": "Order", "commands": ["Vanguard"] },
        { "name": "Lithuanians", "commands": ["Right"] }
    ]);
    let units = vec![
        leader("Komtur", "Order", "Vanguard", json!({ "hex": "12.05" })),
        unit(
            "Knights",
            "Order",
            "Vanguard",
            json!({ "type": "heavy_cavalry", "sp": 2, "cf": 2, "hex": "12.05" }),
        ),
        unit(
            "Boyars",
            "Lithuanians",
            "Right",
            json!({ "type": "light_cavalry", "sp": 2, "hex": "13.05" }),
        ),
        unit(
            "Spears",
            "Lithuanians",
            "Right",
            json!({ "type": "light_infantry", "sp": 1, "hex": "14.05" }),
        ),
    ];
    let mut t = Turn::begin("Grunwald, the pursuit", sides, &units);
    let (knights, boyars) = (t.id("Knights"), t.id("Boyars"));
    let f = fight(&t.r, &t.b.state, "combat", &[knights], &[boyars]).unwrap();
    let mut situation = f.situation.clone();
    situation["defender"]["retreat_hexes"] = json!([{ "label": "15.05" }]);
    let throw = t.throw_where("combat", &situation, |e| {
        retreats_to(e, &Target::Defender, "15.05") && !retreats(e, &Target::Attacker)
    });
    let f = referee_core::battle::Fight { situation, ..f };
    t.land_throw(&f, &throw);
    assert_eq!(hex_of(&t, "Boyars").as_deref(), Some("15.05"));
    let morale = t.b.state.morale_track;

    let chase = fight(&t.r, &t.b.state, "pursuit", &[], &[]).unwrap();
    assert_eq!(chase.situation["path"], json!([{ "label": "13.05" }]));
    assert_eq!(chase.situation["hexes_from_leader"], json!(0));
    assert_eq!(chase.targets["attacker"], vec![knights, t.id("Komtur")]);
    let route = &chase.places[0];
    assert_eq!(route.path, ["path"]);
    assert_eq!(route.title, "Knights' pursuit route");
    let offered: Vec<(&str, &str)> = route
        .places
        .iter()
        .map(|p| (p.name.as_str(), p.words.as_str()))
        .collect();
    assert_eq!(
        offered,
        [("14.05", "enemy: Spears"), ("15.05", "enemy: Boyars")]
    );
    assert_eq!(
        route.places[0].item,
        json!({ "label": "14.05", "enemy": [{ "type": "light_infantry", "sp": 1 }] })
    );
    // Only the non-cavalry there is ridden down (5.8.1).
    assert_eq!(chase.targets["hex:14.05"], vec![t.id("Spears")]);
    assert_eq!(chase.targets["hex:15.05"], Vec::<UnitId>::new());

    // The umpire picks 14.05 from the list, then types the fortified 14.04.
    let mut situation = chase.situation.clone();
    situation["path"] = json!([
        situation["path"][0].clone(),
        route.places[0].item.clone(),
        { "label": "14.04", "terrain": "fortifications" }
    ]);
    let r = t.resolve("pursuit", &situation, &[1]);
    let outcome = r.outcome.as_ref().unwrap();
    assert!(
        outcome.meaning.ends_with("The pursuit ends on hex 14.05."),
        "{}",
        outcome.meaning
    );
    assert!(r.checks.iter().any(|c| c.rule == "11.1.5"));
    let f = referee_core::battle::Fight { situation, ..chase };
    t.land_throw(&f, &[1]);
    let last = t.b.events.iter().rev().find_map(|e| match &e.body {
        EventBody::Applied { changes, .. } => Some(changes),
        _ => None,
    });
    let moved: Vec<&Subject> = last
        .unwrap()
        .iter()
        .filter(|c| matches!(c.change, Change::EntersHex { .. }))
        .map(|c| &c.subject)
        .collect();
    assert_eq!(
        moved,
        [&Subject::Unit(knights), &Subject::Unit(t.id("Komtur"))]
    );
    assert_eq!(hex_of(&t, "Knights").as_deref(), Some("14.05"));
    assert_eq!(hex_of(&t, "Komtur").as_deref(), Some("14.05"));
    assert!(t.unit("Spears").lost, "ridden down (5.5.9)");
    assert_eq!(hex_of(&t, "Boyars").as_deref(), Some("15.05"));
    assert_eq!(t.b.state.morale_track, morale, "5.8.4: no MORALE change");
    assert!(t.b.state.conflicts.is_empty(), "{:?}", t.b.state.conflicts);
    let words = t.r.worded(&t.b.state);
    assert_eq!(
        words.units[&knights].words.place.as_deref(),
        Some("Hex 14.05")
    );
}

/// A leader within his command range, read from the roster's hex numbers (8.2.2, R-MED-46):
/// Vytautas 2 hexes from the Boyars' 13.05 gives them 1 CM, said up front with his name; the
/// Komtur on 13.07, 2 or 3 hexes from the Knights' 12.05 as the map staggers its columns, is
/// asked of the umpire; a leader 3 hexes off gives nothing, a grand leader there 1 CM (range 3,
/// 8.1.5). The combat then lands as any other: replay equal to live, undo exact.
#[test]
fn a_leader_within_his_command_range_on_the_roster_gives_his_cm() {
    let sides = json!([
        { "name": "Order", "commands": ["Vanguard"] },
        { "name": "Lithuanians", "commands": ["Right"] }
    ]);
    let with = |lithuanian: UnitSpec| {
        vec![
            leader("Komtur", "Order", "Vanguard", json!({ "hex": "13.07" })),
            unit(
                "Knights",
                "Order",
                "Vanguard",
                json!({ "type": "heavy_cavalry", "sp": 2, "cf": 2, "hex": "12.05" }),
            ),
            unit(
                "Boyars",
                "Lithuanians",
                "Right",
                json!({ "type": "light_cavalry", "sp": 2, "hex": "13.05" }),
            ),
            lithuanian,
        ]
    };
    let opened = |t: &Turn| {
        fight(
            &t.r,
            &t.b.state,
            "combat",
            &[t.id("Knights")],
            &[t.id("Boyars")],
        )
        .unwrap()
    };
    let in_range = |r: &Resolution, side: &str| {
        r.modifiers
            .iter()
            .any(|m| m.label == format!("{side}: within a leader's range") && m.value.abs() == 1)
    };

    let near = leader(
        "Vytautas",
        "Lithuanians",
        "Right",
        json!({ "hex": "15.05" }),
    );
    let mut t = Turn::begin("Grunwald, command range", sides.clone(), &with(near));
    let f = opened(&t);
    assert_eq!(f.situation["defender"]["leader"], json!("in_range"));
    assert!(f.situation["attacker"].get("leader").is_none());
    assert!(
        f.asks.contains(
            &"Vytautas is within his command range of the Lithuanians' fighting hexes: 1 CM (8.2.2)."
                .to_string()
        ),
        "{:?}",
        f.asks
    );
    assert!(
        f.asks.contains(
            &"Say whether Komtur is within his command range of the Order's fighting hexes: the hex numbers do not settle it (8.2.2)."
                .to_string()
        ),
        "{:?}",
        f.asks
    );
    let r = t.resolve("combat", &f.situation, &[]);
    assert!(in_range(&r, "Defender"), "{:?}", r.modifiers);
    assert!(!in_range(&r, "Attacker"), "{:?}", r.modifiers);
    // It lands as any combat does.
    let morale = t.b.state.morale_track;
    t.fought("combat", &["Knights"], &["Boyars"], |e| {
        loses_sp(e, &Target::Defender)
    });
    assert!(t.unit("Boyars").strength < 2 || t.unit("Boyars").lost);
    assert!(t.b.state.morale_track >= morale);
    assert!(t.b.state.conflicts.is_empty(), "{:?}", t.b.state.conflicts);

    // 3 hexes off: out of a leader's range 2, within a grand leader's 3.
    let far = leader(
        "Vytautas",
        "Lithuanians",
        "Right",
        json!({ "hex": "16.05" }),
    );
    let t = Turn::begin("Grunwald, out of range", sides.clone(), &with(far));
    assert!(opened(&t).situation["defender"].get("leader").is_none());
    let grand = leader(
        "Jagiełło",
        "Lithuanians",
        "Right",
        json!({ "grand": true, "hex": "16.05" }),
    );
    let t = Turn::begin("Grunwald, the grand leader", sides, &with(grand));
    assert_eq!(
        opened(&t).situation["defender"]["leader"],
        json!("in_range")
    );
}

/// A side fighting from two hexes given one route for both, as a situation typed by hand may
/// (R-MED-47): the Boyars' and the Horsemen's stacks (2 SPs each) driven back 1 hex cannot end
/// together on its first hex, 14.05, over its 2 SPs (4.5.2): nothing lands there, the result
/// says so, and both stay where they fought on the roster for the umpire to set; replay equal
/// to live, undo exact. From the roster each hex has its own picker (R-MED-50).
#[test]
fn stacks_from_two_hexes_never_overfill_the_hex_their_retreat_ends_on() {
    let sides = json!([
        { "name": "Order", "commands": ["Vanguard"] },
        { "name": "Lithuanians", "commands": ["Right"] }
    ]);
    let mut t = Turn::begin("Grunwald, two hexes", sides, &two_hexes(Vec::new()));
    let (knights, boyars, horsemen) = (t.id("Knights"), t.id("Boyars"), t.id("Horsemen"));
    let f = fight(&t.r, &t.b.state, "combat", &[knights], &[boyars, horsemen]).unwrap();
    let titles: Vec<&str> = f.places.iter().map(|p| p.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Order's retreat route",
            "Lithuanians' retreat route from 13.05 (Boyars)",
            "Lithuanians' retreat route from 13.06 (Horsemen)"
        ]
    );
    let mut situation = f.situation.clone();
    situation["defender"]["retreat_hexes"] =
        json!([{ "label": "14.05" }, { "label": "14.06" }, { "label": "15.05" }]);
    let throw = t.throw_where("combat", &situation, only_d1);
    let r = t.resolve("combat", &situation, &throw);
    let outcome = r.outcome.as_ref().unwrap();
    assert!(
        outcome
            .meaning
            .contains("cannot all end on hex 14.05, over its 2 SPs (4.5.2)"),
        "{}",
        outcome.meaning
    );
    assert!(!outcome
        .effects
        .iter()
        .any(|e| matches!(e.change, Change::RetreatTo { .. })));
    let f = referee_core::battle::Fight { situation, ..f };
    t.land_throw(&f, &throw);
    assert_eq!(hex_of(&t, "Boyars").as_deref(), Some("13.05"));
    assert_eq!(hex_of(&t, "Horsemen").as_deref(), Some("13.06"));
    assert!(t.b.state.conflicts.is_empty(), "{:?}", t.b.state.conflicts);
}

/// The defender retreats 1 hex and nothing more: no loss of its own, no scatter, the attacker
/// staying.
fn only_d1(e: &[Effect]) -> bool {
    e.iter()
        .any(|e| e.target == Target::Defender && e.change == Change::Retreat { hexes: 1 })
        && !loses_sp(e, &Target::Defender)
        && !retreats(e, &Target::Attacker)
        && !e.iter().any(|e| e.change == Change::Scatter)
}

/// The Knights on 12.05 facing the Boyars on 13.05 and the Horsemen on 13.06 (2 SPs each), and
/// any more units.
fn two_hexes(more: Vec<UnitSpec>) -> Vec<UnitSpec> {
    let mut units = vec![
        unit(
            "Knights",
            "Order",
            "Vanguard",
            json!({ "type": "heavy_cavalry", "sp": 2, "cf": 2, "hex": "12.05" }),
        ),
        unit(
            "Boyars",
            "Lithuanians",
            "Right",
            json!({ "type": "light_cavalry", "sp": 2, "hex": "13.05" }),
        ),
        unit(
            "Horsemen",
            "Lithuanians",
            "Right",
            json!({ "type": "light_cavalry", "sp": 2, "hex": "13.06" }),
        ),
    ];
    units.extend(more);
    units
}

/// The weight of the throws among `chains` (each face of a d6 1 in 6) whose outcome `holds`,
/// as the forecast writes a probability ("n/d").
fn share(chains: &[(Vec<u32>, bool)]) -> String {
    let longest = chains.iter().map(|(c, _)| c.len()).max().unwrap_or(0) as u32;
    let all = 6u64.pow(longest);
    let part: u64 = chains
        .iter()
        .filter(|(_, holds)| *holds)
        .map(|(c, _)| 6u64.pow(longest - c.len() as u32))
        .sum();
    let gcd = |mut a: u64, mut b: u64| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    let g = gcd(part, all).max(1);
    format!("{}/{}", part / g, all / g)
}

/// Each fighting hex retreats by its own route (5.4, 4.5.2, R-MED-50): the Boyars on 13.05 by
/// 14.05 and 15.05, open; the Horsemen on 13.06 by 14.06, where the Order's Sergeants stand
/// (5.4.5), so each hex they cannot retreat costs them 1 SP (5.4.6). The forecast reads both
/// routes: over every throw, the SPs the defender loses are those the effects applied take; a
/// D1 lands the Boyars on 14.05 and costs the Horsemen 1 SP where they stand; replay equal to
/// live, undo exact.
#[test]
fn each_fighting_hex_retreats_by_its_own_route() {
    let sides = json!([
        { "name": "Order", "commands": ["Vanguard"] },
        { "name": "Lithuanians", "commands": ["Right"] }
    ]);
    let sergeants = unit(
        "Sergeants",
        "Order",
        "Vanguard",
        json!({ "type": "light_infantry", "sp": 1, "hex": "14.06" }),
    );
    let mut t = Turn::begin("Grunwald, two routes", sides, &two_hexes(vec![sergeants]));
    let (knights, boyars, horsemen) = (t.id("Knights"), t.id("Boyars"), t.id("Horsemen"));
    let f = fight(&t.r, &t.b.state, "combat", &[knights], &[boyars, horsemen]).unwrap();
    let picker = |hex: &str| {
        f.places
            .iter()
            .find(|p| p.path == ["defenders", hex, "retreat_hexes"])
            .unwrap()
    };
    // The Horsemen's picker offers 14.06 with the enemy there, ticked (5.4.5).
    let blocked = picker("1")
        .places
        .iter()
        .find(|p| p.name == "14.06")
        .unwrap();
    assert_eq!(blocked.words, "enemy: Sergeants");
    let mut situation = f.situation.clone();
    situation["defenders"][0]["retreat_hexes"] =
        json!([{ "label": "14.05" }, { "label": "15.05" }]);
    situation["defenders"][1]["retreat_hexes"] = json!([blocked.item.clone()]);

    // The forecast against the effects, throw by throw.
    let r = t.resolve("combat", &situation, &[]);
    let chance = |label: &str| {
        r.forecast
            .iter()
            .find(|c| c.label == label)
            .unwrap_or_else(|| panic!("no {label} in {:?}", r.forecast))
            .probability
            .clone()
    };
    let defender = [
        Target::Defender,
        Target::Hex("Boyars".into()),
        Target::Hex("Horsemen".into()),
    ];
    let lost = |effects: &[Effect]| -> u32 {
        effects
            .iter()
            .filter(|e| defender.contains(&e.target))
            .map(|e| match e.change {
                Change::LoseSp { count, .. } => count,
                _ => 0,
            })
            .sum::<u32>()
            .min(4)
    };
    let thrown: Vec<(Vec<u32>, u32)> = t
        .chains("combat", &situation, Vec::new())
        .into_iter()
        .map(|c| {
            let o = t.resolve("combat", &situation, &c).outcome.unwrap();
            (c, lost(&o.effects))
        })
        .collect();
    let with = |p: fn(u32) -> bool| -> Vec<(Vec<u32>, bool)> {
        thrown.iter().map(|(c, l)| (c.clone(), p(*l))).collect()
    };
    assert_eq!(chance("The defender loses SP"), share(&with(|l| l > 0)));
    assert_eq!(
        chance("The defender is eliminated"),
        share(&with(|l| l >= 4))
    );
    // Every retreat costs the Horsemen's stack: whenever the defender retreats it loses SP.
    let retreating: Vec<(Vec<u32>, bool)> = t
        .chains("combat", &situation, Vec::new())
        .into_iter()
        .map(|c| {
            let o = t.resolve("combat", &situation, &c).outcome.unwrap();
            let back = retreats(&o.effects, &Target::Defender);
            assert!(!back || lost(&o.effects) > 0, "{c:?}: {}", o.meaning);
            (c, back)
        })
        .collect();
    assert_eq!(chance("The defender retreats"), share(&retreating));

    // A D1 and nothing more: the Boyars land on 14.05, the Horsemen lose 1 SP on 13.06.
    let throw = t.throw_where("combat", &situation, only_d1);
    let o = t.resolve("combat", &situation, &throw).outcome.unwrap();
    assert!(
        o.meaning.contains("Boyars: the retreat ends on hex 14.05."),
        "{}",
        o.meaning
    );
    assert!(retreats_to(
        &o.effects,
        &Target::Hex("Boyars".into()),
        "14.05"
    ));
    assert!(loses_sp(&o.effects, &Target::Hex("Horsemen".into())));
    let f = referee_core::battle::Fight { situation, ..f };
    t.land_throw(&f, &throw);
    assert_eq!(hex_of(&t, "Boyars").as_deref(), Some("14.05"));
    assert_eq!(t.unit("Boyars").strength, 2);
    assert_eq!(hex_of(&t, "Horsemen").as_deref(), Some("13.06"));
    assert_eq!(t.unit("Horsemen").strength, 1, "5.4.6: 1 hex short, 1 SP");
    assert!(t.b.state.conflicts.is_empty(), "{:?}", t.b.state.conflicts);
}
