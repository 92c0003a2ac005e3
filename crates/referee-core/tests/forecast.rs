//! The battle's forecast agrees with applying, for every outcome of every system: each fighting
//! action is opened from roster picks, every face of its dice is resolved and applied to a copy
//! of the battle, and the break points it reaches are what the outlook said — certain (1 or 0)
//! for that throw, and, summed over the faces, the undiced outlook's exact chance.

use std::collections::BTreeMap;

use referee_core::battle::{
    fight, outlook, settled, standing, target_key, Battle, BattleSetup, DiceSource, Event,
    EventBody, Gauge, Mapping, Role, Subject, UnitId, UnitSpec,
};
use referee_core::contract::{Change, Effect, Resolution};
use referee_core::odds::{DiceSpec, Probability};
use referee_core::preset::{self, BUILTIN_PRESETS};
use referee_core::ruleset::{Layers, SourceFile};
use referee_core::systems::{builtin, Ruleset};
use serde_json::{json, Value};

fn ruleset(system: &str) -> Ruleset {
    Ruleset::load(&Layers {
        base: builtin(system).unwrap(),
        house_rules: vec![],
    })
    .unwrap()
}

/// A battle of "Red" and "Blue" (with these setups of the sides) and units (label, side 0 or 1,
/// command, stats).
fn battle(system: &str, sides: Value, units: &[(&str, usize, Option<&str>, Value)]) -> Battle {
    let r = ruleset(system);
    let setup = BattleSetup {
        name: format!("{system} forecast"),
        ruleset: system.into(),
        fingerprint: r.info.fingerprint.clone(),
        sides: serde_json::from_value(sides).unwrap(),
    };
    let names = [setup.sides[0].name.clone(), setup.sides[1].name.clone()];
    let specs: Vec<UnitSpec> = units
        .iter()
        .map(|(label, side, command, stats)| UnitSpec {
            label: label.to_string(),
            side: names[*side].clone(),
            command: command.map(str::to_string),
            role: Role::Unit,
            stats: stats.clone(),
        })
        .collect();
    Battle::create_with_units(&r, setup, &specs, "2026-01-01T00:00:00Z").unwrap()
}

/// The battles of a system's presets.
fn preset_battles(system: &str) -> Vec<Battle> {
    let rulesets = BTreeMap::from([(system.to_string(), ruleset(system))]);
    BUILTIN_PRESETS
        .iter()
        .filter(|(name, _)| name.contains(&format!("/{system}-")))
        .map(|(name, text)| {
            let p = preset::load(SourceFile { name, text }, true, &rulesets).unwrap();
            let r = ruleset(system);
            let mut sides = p.sides.clone();
            // A low panic level, so the ITACS results have a break point to reach (5.4).
            for side in sides.iter_mut().filter(|_| system == "itacs") {
                side.panic_level = Some(2);
            }
            let setup = BattleSetup {
                name: p.name.clone(),
                ruleset: system.into(),
                fingerprint: r.info.fingerprint.clone(),
                sides,
            };
            Battle::create_with_units(&r, setup, &p.units, "2026-01-01T00:00:00Z").unwrap()
        })
        .collect()
}

/// Appends a change by hand, as the umpire's quick edit would.
fn adjust(r: &Ruleset, b: &mut Battle, id: UnitId, change: Change) {
    let body = b.adjust(r, Subject::Unit(id), change, None).unwrap();
    record(r, b, body);
}

fn record(r: &Ruleset, b: &mut Battle, body: EventBody) {
    let event = Event {
        seq: b.next_seq(),
        at: "2026-01-01T00:01:00Z".into(),
        body,
    };
    b.record(r, event).unwrap();
}

/// The resolution these dice give, and a copy of the battle with it applied to `targets`.
fn thrown_and_applied(
    r: &Ruleset,
    b: &Battle,
    action: &str,
    situation: &Value,
    faces: &[u32],
    targets: &BTreeMap<String, Vec<UnitId>>,
) -> (Resolution, Battle) {
    let thrown = r.resolve(action, situation, Some(faces)).unwrap();
    let effects = &thrown.outcome.as_ref().unwrap().effects;
    let mut copy = b.clone();
    let body = copy
        .apply(
            r,
            &thrown,
            &choices(effects, targets),
            DiceSource::Physical,
            None,
            None,
        )
        .unwrap();
    record(r, &mut copy, body);
    (thrown, copy)
}

fn id_of(b: &Battle, label: &str) -> UnitId {
    b.state
        .units
        .values()
        .find(|u| u.label == label)
        .unwrap_or_else(|| panic!("no unit {label}"))
        .id
}

/// A chain thrown on from its first stage's faces, each die after them set by its place (so the
/// chains go down many branches), to its outcome.
fn thrown_on(r: &Ruleset, action: &str, situation: &Value, first: Vec<u32>) -> Vec<u32> {
    let mut faces = first;
    let seed: u32 = faces.iter().sum();
    loop {
        let at = r.resolve(action, situation, Some(&faces)).unwrap();
        if at.outcome.is_some() {
            return faces;
        }
        let next: Vec<u32> = at.shown.faces[faces.len()..]
            .iter()
            .enumerate()
            .map(|(i, d)| (seed + 3 * (faces.len() + i) as u32) % d.sides + 1)
            .collect();
        faces.extend(next);
    }
}

/// Every face of the action's dice, each throw equally likely; none for dice the app cannot
/// enumerate by notation (GTS frenzy's "d10 per test, then d6").
fn throws(dice: &str) -> Option<Vec<Vec<u32>>> {
    let sizes: Vec<u32> = dice
        .split(" v ")
        .flat_map(|p| p.split(" then "))
        .map(|p| p.trim().parse::<DiceSpec>())
        .collect::<Result<Vec<_>, _>>()
        .ok()?
        .iter()
        .flat_map(|s| std::iter::repeat_n(s.sides, s.count as usize))
        .collect();
    let mut out = vec![Vec::new()];
    for n in sizes {
        out = out
            .into_iter()
            .flat_map(|t: Vec<u32>| {
                (1..=n).map(move |f| {
                    let mut t = t.clone();
                    t.push(f);
                    t
                })
            })
            .collect();
    }
    Some(out)
}

/// The players' choices the outlook assumes: each loss over several units is taken by the units
/// in the order they were mapped.
fn choices(effects: &[Effect], targets: &BTreeMap<String, Vec<UnitId>>) -> Mapping {
    let mut m = Mapping {
        units_moving: None,
        targets: targets.clone(),
        choices: BTreeMap::new(),
    };
    for (i, e) in effects.iter().enumerate() {
        if let Change::LoseUnits { count, .. } | Change::LoseSp { count, .. } = e.change {
            if let Some(ids) = targets.get(&target_key(&e.target)) {
                if ids.len() > 1 {
                    let picked = ids.iter().cycle().take(count as usize).copied().collect();
                    m.choices.insert(i.to_string(), picked);
                }
            }
        }
    }
    m
}

/// The break points not yet reached, as the outlook lists them.
fn open(r: &Ruleset, b: &Battle) -> Vec<Gauge> {
    standing(r, &b.state)
        .gauges
        .into_iter()
        .filter(|g| g.threshold.is_some() && !g.reached)
        .collect()
}

/// Whether a standing has passed each open break point: reached, or moved to its next state.
fn passed(r: &Ruleset, after: &Battle, open: &[Gauge]) -> Vec<bool> {
    let now = standing(r, &after.state).gauges;
    open.iter()
        .map(|was| {
            now.iter().any(|g| {
                g.side == was.side && g.label == was.label && (g.reached || g.status != was.status)
            })
        })
        .collect()
}

/// Applies every throw of the action to a copy of the battle and checks the outlook against it.
/// Returns how many throws were checked.
fn check(r: &Ruleset, b: &Battle, action: &str, a: &[UnitId], d: &[UnitId]) -> usize {
    let what = format!("{} {action} {a:?} v {d:?}", r.info.id);
    let f = fight(r, &b.state, action, a, d).unwrap_or_else(|e| panic!("{what}: {}", e.one_line()));
    check_situation(r, b, action, &f.situation, &f.targets, &what)
}

/// A result and what it does, as the forecast and the throws are compared: the rulings behind
/// its changes left out (one result may gather throws that rest on different rulings).
fn result_key(result: &str, effects: &[referee_core::contract::Effect]) -> String {
    let changes: Vec<_> = effects
        .iter()
        .map(|e| (&e.target, &e.change, &e.text, &e.rule))
        .collect();
    serde_json::to_string(&(result, changes)).unwrap()
}

/// Applies a thrown resolution to a copy of the battle: which open break points it passes, each
/// checked against the outlook of the settled resolution (certain for that throw).
fn applied_as_said(
    r: &Ruleset,
    b: &Battle,
    thrown: &Resolution,
    targets: &BTreeMap<String, Vec<UnitId>>,
    gauges: &[Gauge],
    mapping: &Mapping,
    what: &str,
) -> Vec<bool> {
    let outcome = thrown.outcome.as_ref().expect("dice give an outcome");
    let m = choices(&outcome.effects, targets);
    let body = b
        .apply(r, thrown, &m, DiceSource::Physical, None, None)
        .unwrap_or_else(|e| panic!("{what}: {}", e.one_line()));
    let mut after = b.clone();
    record(r, &mut after, body);
    let did = passed(r, &after, gauges);
    let said = outlook(r, &b.state, &settled(thrown), mapping).unwrap();
    for (i, (g, c)) in gauges.iter().zip(&said).enumerate() {
        let certain = if did[i] { "1/1" } else { "0/1" };
        assert_eq!(
            c.probability, certain,
            "{what} ({}): {} — the forecast says {}, applying gives {certain}",
            outcome.result, g.label, c.probability
        );
    }
    did
}

/// The same for a situation and the targets that map its effects.
fn check_situation(
    r: &Ruleset,
    b: &Battle,
    action: &str,
    situation: &Value,
    targets: &BTreeMap<String, Vec<UnitId>>,
    what: &str,
) -> usize {
    let undiced = match r.resolve(action, situation, None) {
        Ok(x) => x,
        // A value the roster leaves out and the text does not give is asked (R-ITACS-17).
        Err(e) if e.code.as_str().starts_with("situation.missing_") => return 0,
        // Units that cannot fight this way (no fire strength, no range): the picks refused.
        Err(e) if e.code.as_str().starts_with("situation.") => return 0,
        Err(e) => panic!("{what}: {}", e.one_line()),
    };
    // A throw of a die per unit not asked in turn (each die named by its unit): its rows are each
    // side's fate, not which unit recoils or routs, so only their chances (and the locked row's
    // hits) are compared. (A GTS recoil asks its dice in turn and is checked as a chain below.)
    let per_unit = undiced.shown.faces.iter().any(|d| d.label.is_some());
    // Dice asked in turn (a GTS melee round): every face of the first stage, each chain then
    // thrown on with set faces. Its rows are the first stage's; what each unit does through the
    // whole chain is checked against the forecast by sampling (gts/played.rs): here, what
    // applying the chain does is what its settled outlook says.
    let in_turn = undiced.shown.in_turn;
    let throws = if in_turn {
        let sizes: Vec<String> = undiced
            .shown
            .faces
            .iter()
            .map(|d| format!("d{}", d.sides))
            .collect();
        throws(&sizes.join(" then ")).map(|t| {
            t.into_iter()
                .map(|first| thrown_on(r, action, situation, first))
                .collect()
        })
    } else if per_unit {
        match undiced.shown.faces.len() {
            n if n <= 2 => throws(&vec!["d100"; n].join(" v ")),
            _ => None,
        }
    } else {
        throws(&undiced.dice)
    };
    let Some(throws) = throws else {
        eprintln!("{what}: dice {} not enumerated", undiced.dice);
        return 0;
    };
    let gauges = open(r, b);
    let mapping = Mapping {
        units_moving: None,
        targets: targets.clone(),
        choices: BTreeMap::new(),
    };
    let forecast = outlook(r, &b.state, &undiced, &mapping)
        .unwrap_or_else(|e| panic!("{what}: {}", e.one_line()));
    assert_eq!(forecast.len(), gauges.len(), "{what}");
    let mut hits = vec![0u128; gauges.len()];
    let mut results: BTreeMap<String, u128> = BTreeMap::new();
    let mut applied: BTreeMap<String, Vec<bool>> = BTreeMap::new();
    for faces in &throws {
        let thrown: Resolution = r
            .resolve(action, situation, Some(faces))
            .unwrap_or_else(|e| panic!("{what} {faces:?}: {}", e.one_line()));
        let outcome = thrown.outcome.as_ref().expect("dice give an outcome");
        if in_turn {
            applied_as_said(
                r,
                b,
                &thrown,
                targets,
                &gauges,
                &mapping,
                &format!("{what} {faces:?}"),
            );
            continue;
        }
        // The result the dice give is one of the forecast's, with the same effects.
        let effects = if per_unit && !outcome.result.contains("locked") {
            Vec::new()
        } else {
            outcome.effects.clone()
        };
        // The same changes on the same targets by the same rule: the ruling behind a change may
        // differ between the throws one result gathers (a DBMM quick kill and a doubling both
        // destroy), and the thrown outcome cites its own.
        let same = |forecast: &[referee_core::contract::Effect]| {
            forecast.len() == effects.len()
                && forecast.iter().zip(&effects).all(|(f, e)| {
                    (&f.target, &f.change, &f.text, &f.rule)
                        == (&e.target, &e.change, &e.text, &e.rule)
                })
        };
        assert!(
            undiced
                .distribution
                .iter()
                .any(|o| o.result == outcome.result && same(&o.effects)),
            "{what} {faces:?}: {} with effects {:?} is not forecast",
            outcome.result,
            effects
        );
        *results
            .entry(result_key(&outcome.result, &effects))
            .or_default() += 1;
        // Applying and the thrown outlook read only the outcome's effects: once per distinct one.
        let seen = serde_json::to_string(&outcome.effects).unwrap();
        if let Some(did) = applied.get(&seen) {
            for (h, d) in hits.iter_mut().zip(did) {
                *h += u128::from(*d);
            }
            continue;
        }
        let did = applied_as_said(
            r,
            b,
            &thrown,
            targets,
            &gauges,
            &mapping,
            &format!("{what} {faces:?}"),
        );
        applied.insert(seen, did.clone());
        for (h, d) in hits.iter_mut().zip(&did) {
            *h += u128::from(*d);
        }
    }
    if in_turn {
        return throws.len();
    }
    let n = throws.len() as u128;
    // A result may be listed more than once (two ways to it, each with its meaning): the
    // forecast's chance of a result and its effects is the sum of its rows.
    let mut forecast_of: BTreeMap<String, Probability> = BTreeMap::new();
    for o in &undiced.distribution {
        let key = result_key(&o.result, &o.effects);
        let p = Probability::parse(&o.probability).unwrap();
        let sum = match forecast_of.get(&key) {
            Some(q) => q.plus(&p).unwrap(),
            None => p,
        };
        forecast_of.insert(key, sum);
    }
    for (key, p) in &forecast_of {
        let count = results.get(key).copied().unwrap_or(0);
        assert_eq!(
            p.to_string(),
            Probability::new(count, n).to_string(),
            "{what}: {key} is forecast at {p}, {count} of {n} throws give it"
        );
    }
    for ((g, c), h) in gauges.iter().zip(&forecast).zip(hits) {
        assert_eq!(
            c.probability,
            Probability::new(h, n).to_string(),
            "{what}: {:?} {} — forecast {} over {n} throws, {h} reach it when applied",
            g.side,
            g.label,
            c.probability
        );
    }
    throws.len()
}

/// Fighting units of each side, in roster order.
fn fighters(b: &Battle) -> [Vec<UnitId>; 2] {
    let side = |i: usize| {
        b.state
            .units
            .values()
            .filter(|u| u.side == b.state.sides[i].name && u.role != Role::Leader && !u.lost)
            .map(|u| u.id)
            .collect()
    };
    [side(0), side(1)]
}

/// Every fighting action of the system, with 1 to 3 units a side (as many as it takes).
fn check_all(system: &str, b: &Battle, checked: &mut BTreeMap<String, usize>) {
    let r = ruleset(system);
    let [red, blue] = fighters(b);
    let mut picks = std::collections::BTreeSet::new();
    for action in r.info.actions.iter().filter(|a| a.fights) {
        for n in 1..=3usize {
            let (na, nd) = (n.min(red.len()), n.min(blue.len()));
            if na == 0 || nd == 0 || !picks.insert((action.id.clone(), na, nd)) {
                continue;
            }
            match fight(&r, &b.state, &action.id, &red[..na], &blue[..nd]) {
                Ok(_) => {
                    *checked.entry(action.id.clone()).or_default() +=
                        check(&r, b, &action.id, &red[..na], &blue[..nd])
                }
                // More units than the action takes (one shooter, one element each).
                Err(e) if e.code == "fight.one_each" || e.code == "fight.too_many_units" => {}
                Err(e) => panic!("{system} {}: {}", action.id, e.one_line()),
            }
        }
    }
}

#[test]
fn every_preset_battle_forecasts_what_applying_does() {
    for system in ["itacs", "medieval", "gts", "dbmm"] {
        let mut checked = BTreeMap::new();
        for b in preset_battles(system) {
            check_all(system, &b, &mut checked);
        }
        eprintln!("{system}: {checked:?}");
        assert!(
            checked.values().any(|n| *n > 0),
            "{system}: no throw checked"
        );
    }
}

/// A DBMM command one element short of disheartened: 3 of its 8 Bd already destroyed (12 ME,
/// disheartened past 3 lost), then a close combat whose outcome may destroy a fourth.
#[test]
fn a_dbmm_command_near_its_threshold_forecasts_what_applying_does() {
    let r = ruleset("dbmm");
    let mut units = vec![(
        "Legate",
        0,
        Some("Left"),
        json!({ "type": "Kn", "grade": "O", "general": true }),
    )];
    let labels: Vec<String> = (1..=8).map(|i| format!("Bd{i}")).collect();
    for l in &labels {
        units.push((l, 0, Some("Left"), json!({ "type": "Bd", "grade": "O" })));
    }
    units.push((
        "Warband",
        1,
        Some("Host"),
        json!({ "type": "Wb", "grade": "O", "irr": true }),
    ));
    units.push((
        "Knights",
        1,
        Some("Host"),
        json!({ "type": "Kn", "grade": "S" }),
    ));
    let mut b = battle(
        "dbmm",
        json!([{ "name": "Red", "commands": ["Left"] }, { "name": "Blue", "commands": ["Host"] }]),
        &units,
    );
    for l in &labels[..3] {
        let id = id_of(&b, l);
        adjust(
            &r,
            &mut b,
            id,
            Change::ElementFate {
                fate: referee_core::fate::Fate::Destroyed.into(),
            },
        );
    }
    let left = open(&r, &b)
        .into_iter()
        .find(|g| g.label == "Left")
        .expect("the Left command's gauge");
    assert_eq!(left.status.as_deref(), Some("steady"));
    assert_eq!(left.to_go.as_deref(), Some("½ ME to disheartened"));
    let bd4 = id_of(&b, "Bd4");
    for foe in ["Warband", "Knights"] {
        let foe = id_of(&b, foe);
        assert!(check(&r, &b, "close_combat", &[bd4], &[foe]) >= 36);
        assert!(check(&r, &b, "close_combat", &[foe], &[bd4]) >= 36);
    }
    check_all("dbmm", &b, &mut BTreeMap::new());

    // A situation entered by hand names its elements by type ("Bd (O)", "Irr Wb (O)"), which no
    // roster label is. The outlook used to count the results it could not map as reaching
    // nothing — 0 for the command — while applying, once the umpire mapped them, made it
    // disheartened. Unmapped, both now refuse; mapped, they agree.
    let situation = json!({
        "a": { "element": { "type": "Bd", "grade": "O" } },
        "b": { "element": { "type": "Wb", "grade": "O", "irr": true } },
        "bound": "b"
    });
    let wb = id_of(&b, "Warband");
    let sides = BTreeMap::from([
        ("attacker".to_string(), vec![bd4]),
        ("defender".to_string(), vec![wb]),
    ]);
    let undiced = r.resolve("close_combat", &situation, None).unwrap();
    let partial = Mapping {
        units_moving: None,
        targets: sides.clone(),
        choices: BTreeMap::new(),
    };
    let refused = outlook(&r, &b.state, &undiced, &partial).unwrap_err();
    assert_eq!(refused.code, "battle.target_unmapped");
    for faces in throws("d6 v d6").unwrap() {
        let thrown = r.resolve("close_combat", &situation, Some(&faces)).unwrap();
        if !thrown.outcome.as_ref().unwrap().effects.is_empty() {
            let e = b
                .apply(&r, &thrown, &partial, DiceSource::Physical, None, None)
                .unwrap_err();
            assert_eq!(e.code, refused.code, "{faces:?}");
        }
    }
    let mut mapped = sides;
    mapped.insert("unit:Bd (O)".into(), vec![bd4]);
    mapped.insert("unit:Irr Wb (O)".into(), vec![wb]);
    let chances = outlook(
        &r,
        &b.state,
        &undiced,
        &Mapping {
            units_moving: None,
            targets: mapped.clone(),
            choices: BTreeMap::new(),
        },
    )
    .unwrap();
    let disheartened = chances
        .iter()
        .find(|c| c.label.starts_with("Red: Left disheartened"))
        .unwrap();
    assert!(disheartened.p > 0.0, "{disheartened:?}");
    assert!(check_situation(&r, &b, "close_combat", &situation, &mapped, "by hand") >= 36);

    // A friend on the enemy's flank (p. 38): Bd5 recoils whenever Bd4 gives way. A recoil loses
    // no ME, so the command's chances are those of Bd4 alone, applied or forecast.
    let flank = json!({
        "a": { "element": { "type": "Bd", "grade": "O" },
               "friend_on_enemy_flank": { "type": "Bd", "grade": "O", "name": "Bd5" } },
        "b": { "element": { "type": "Wb", "grade": "O", "irr": true } },
        "bound": "b"
    });
    mapped.insert("unit:Bd5".into(), vec![id_of(&b, "Bd5")]);
    let thrown = r.resolve("close_combat", &flank, Some(&[1, 6])).unwrap();
    assert!(
        thrown
            .outcome
            .as_ref()
            .unwrap()
            .effects
            .iter()
            .any(|e| e.text.starts_with("Bd5: recoils")),
        "{:?}",
        thrown.outcome
    );
    assert!(
        check_situation(
            &r,
            &b,
            "close_combat",
            &flank,
            &mapped,
            "friend on the flank"
        ) >= 36
    );
}

/// The fighting actions the presets do not open: horse archers, Medieval archers, DBMM bows.
#[test]
fn every_fighting_action_forecasts_what_applying_does() {
    let mut checked: BTreeMap<String, usize> = BTreeMap::new();
    let itacs = battle(
        "itacs",
        json!([{ "name": "Red", "panic_level": 2 }, { "name": "Blue", "panic_level": 2 }]),
        &[
            (
                "HA",
                0,
                None,
                json!({ "class": "Mf", "combat": 2, "fire": 2, "fire_range": 2, "movement": 8 }),
            ),
            ("LB", 0, None, json!({ "type": "LB", "count": 2 })),
            (
                "PS",
                1,
                None,
                json!({ "type": "PS", "count": 2, "movement": 4 }),
            ),
            ("SD", 1, None, json!({ "type": "SD" })),
        ],
    );
    check_all("itacs", &itacs, &mut checked);
    let medieval = battle(
        "medieval",
        json!([{ "name": "Red" }, { "name": "Blue" }]),
        &[
            ("Archers", 0, None, json!({ "type": "archers", "sp": 2 })),
            (
                "Spears",
                1,
                None,
                json!({ "type": "heavy_infantry", "sp": 1 }),
            ),
        ],
    );
    check_all("medieval", &medieval, &mut checked);
    let dbmm = battle(
        "dbmm",
        json!([{ "name": "Red" }, { "name": "Blue" }]),
        &[
            ("Bw", 0, None, json!({ "type": "Bw", "grade": "O" })),
            ("Kn", 1, None, json!({ "type": "Kn", "grade": "O" })),
            ("Bd", 1, None, json!({ "type": "Bd", "grade": "O" })),
        ],
    );
    check_all("dbmm", &dbmm, &mut checked);
    for action in ["horse_archer_fire", "fire", "shooting"] {
        assert!(
            checked.get(action).copied().unwrap_or(0) > 0,
            "{action}: {checked:?}"
        );
    }
}

/// A Medieval pursuit described hex by hex: entering is enough to ride the enemy down (5.8.7),
/// and the friendly infantry in a full hex is ridden down to enter it (4.5.2); each ride-down is
/// an effect on its hex, and every throw removes both units when applied.
#[test]
fn a_medieval_pursuit_that_rides_units_down_removes_them_when_applied() {
    let r = ruleset("medieval");
    let b = battle(
        "medieval",
        json!([{ "name": "Red" }, { "name": "Blue" }]),
        &[
            (
                "Hobilars",
                0,
                None,
                json!({ "type": "light_cavalry", "sp": 2 }),
            ),
            (
                "Archers",
                0,
                None,
                json!({ "type": "heavy_infantry", "sp": 1 }),
            ),
            (
                "Spears",
                1,
                None,
                json!({ "type": "heavy_infantry", "sp": 1 }),
            ),
        ],
    );
    let (hobilars, archers, spears) = (
        id_of(&b, "Hobilars"),
        id_of(&b, "Archers"),
        id_of(&b, "Spears"),
    );
    // 5.8.7: entering is enough (heavy infantry, armour 2, is ridden down); 4.5.2: the friendly
    // infantry in the full hex is ridden down to enter it.
    let situation = json!({
        "hexes_from_leader": 2,
        "pursuer": { "type": "light_cavalry", "sp": 2 },
        "path": [
            { "label": "0906", "enemy": [{ "type": "heavy_infantry", "sp": 1 }] },
            { "label": "0907", "friendly": [{ "type": "heavy_infantry", "sp": 1 }] }
        ]
    });
    let targets = BTreeMap::from([
        ("hex:0906".to_string(), vec![spears]),
        ("hex:0907".to_string(), vec![archers]),
        ("attacker".to_string(), vec![hobilars]),
    ]);
    assert!(check_situation(&r, &b, "pursuit", &situation, &targets, "ride-down pursuit") >= 6);
    let before = b.state.morale_track;
    for faces in throws("d6").unwrap() {
        let (thrown, copy) = thrown_and_applied(&r, &b, "pursuit", &situation, &faces, &targets);
        let effects = &thrown.outcome.as_ref().unwrap().effects;
        assert!(copy.state.units[&spears].lost, "{faces:?}: {effects:?}");
        assert!(copy.state.units[&archers].lost, "{faces:?}: {effects:?}");
        assert!(!copy.state.units[&hobilars].lost, "{faces:?}");
        // R-MED-45: the pursuer ends on the last hex it enters.
        let pursuer = copy.state.units[&hobilars]
            .detail::<referee_core::systems::medieval::roster::MedievalCounter>()
            .unwrap();
        assert_eq!(pursuer.hex.as_deref(), Some("0907"), "{faces:?}");
        // 5.8.4: riding down does not move the MORALE track.
        assert_eq!(copy.state.morale_track, before, "{faces:?}");
        // The standing counts them as eliminated, and says so (5.8.3, R-MED-34).
        let gauges = referee_core::battle::standing(&r, &copy.state).gauges;
        let red = gauges
            .iter()
            .find(|g| g.side.as_deref() == Some("Red") && g.label.starts_with("Units eliminated"))
            .expect("an elimination gauge");
        assert_eq!(red.label, "Units eliminated, ridden down included");
        assert_eq!(red.ruling.as_deref(), Some("R-MED-34"));
        assert_eq!(red.amount, Some(1.0), "{faces:?}");
    }
}

/// A Medieval retreat described hex by hex: the defending light cavalry rides down the friendly
/// infantry in its second retreat hex (5.4.4). The ride-down is an effect on that hex, which the
/// umpire maps to the roster unit standing there: every throw that makes the cavalry retreat
/// two hexes or more removes that unit when applied, and the forecast agrees throw by throw.
#[test]
fn a_medieval_retreat_that_rides_friends_down_removes_them_when_applied() {
    let r = ruleset("medieval");
    let b = battle(
        "medieval",
        json!([{ "name": "Red" }, { "name": "Blue" }]),
        &[
            (
                "Knights",
                0,
                None,
                json!({ "type": "heavy_cavalry", "sp": 2 }),
            ),
            (
                "Hobilars",
                1,
                None,
                json!({ "type": "light_cavalry", "sp": 2 }),
            ),
            (
                "Spears",
                1,
                None,
                json!({ "type": "heavy_infantry", "sp": 1 }),
            ),
        ],
    );
    let (knights, hobilars, spears) = (
        id_of(&b, "Knights"),
        id_of(&b, "Hobilars"),
        id_of(&b, "Spears"),
    );
    let situation = json!({
        "attackers": [{ "units": [{ "type": "heavy_cavalry", "sp": 2 }] }],
        "defenders": [{ "terrain": "clear", "units": [{ "type": "light_cavalry", "sp": 2 }] }],
        "defender": { "retreat_hexes": [{}, { "label": "0907", "friendly": [{ "type": "heavy_infantry", "sp": 1 }] }] },
        "morale": 10
    });
    let targets = BTreeMap::from([
        ("attacker".to_string(), vec![knights]),
        ("defender".to_string(), vec![hobilars]),
        ("hex:0907".to_string(), vec![spears]),
    ]);
    assert!(check_situation(&r, &b, "combat", &situation, &targets, "ride-down retreat") >= 36);
    let mut ridden = 0;
    for first in throws("2d6").unwrap() {
        // The scatter d6 a retreat calls for is asked after the 2d6 (5.1.1 g).
        let faces = thrown_on(&r, "combat", &situation, first);
        let (thrown, copy) = thrown_and_applied(&r, &b, "combat", &situation, &faces, &targets);
        let effects = &thrown.outcome.as_ref().unwrap().effects;
        let retreat = effects.iter().find_map(|e| match e.change {
            Change::Retreat { hexes } if e.target == referee_core::contract::Target::Defender => {
                Some(hexes)
            }
            _ => None,
        });
        let lost = copy.state.units[&spears].lost;
        assert_eq!(
            lost,
            retreat.is_some_and(|h| h >= 2),
            "{faces:?}: {effects:?}"
        );
        ridden += usize::from(lost);
    }
    assert!(ridden > 0, "no throw rides the infantry down");
}
