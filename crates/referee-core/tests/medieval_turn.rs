//! A Medieval turn played from the roster alone: a charge that kills, an archery fire that kills,
//! a leader's death landing on the units under his command, a banner falling, a scattered unit
//! regrouping, and the phase-9 MORALE step setting the value in force. After each step the roster
//! and the MORALE counter are checked, the battle replayed from its events equals the live one,
//! and undoing the step gives back exactly the battle before it (redo, exactly the one after).

mod turn_play;

use referee_core::battle::{
    fight, Battle, BattleSetup, DiceSource, EventBody, Mapping, Role, UnitId, UnitSpec,
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
            targets: f.targets,
            choices: Default::default(),
        };
        let body = self
            .b
            .apply(&self.r, &r, &mapping, DiceSource::Physical, None, None)
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
