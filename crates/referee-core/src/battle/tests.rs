//! Scripted battles for each system: every step recorded live must equal the fold of the
//! events, and the rosters and standings must read what the rules say.

use serde_json::json;

use super::*;
use crate::contract::{Change, Chooser, Resolution};
use crate::systems::gts::GtsUnit;
use crate::systems::itacs::ItacsUnit;
use crate::systems::medieval::MedievalCounter;
use crate::systems::test_support::load;
use crate::systems::Ruleset;

struct Script {
    ruleset: Ruleset,
    battle: Battle,
}

impl Script {
    fn new(system: &str, sides: serde_json::Value) -> Script {
        let ruleset = load(system);
        let setup = BattleSetup {
            name: format!("{system} test"),
            ruleset: system.into(),
            fingerprint: ruleset.info.fingerprint.clone(),
            sides: serde_json::from_value(sides).unwrap(),
        };
        let battle = Battle::create(&ruleset, setup, "2026-11-21T10:00:00Z").unwrap();
        Script { ruleset, battle }
    }

    /// Records an event, then checks the live state against a fresh fold of every event.
    fn record(&mut self, body: EventBody) {
        assert_eq!(serde_json::to_value(&body).unwrap()["kind"], body.kind());
        let event = Event {
            seq: self.battle.next_seq(),
            at: "2026-11-21T10:01:00Z".into(),
            body,
        };
        self.battle.record(&self.ruleset, event).unwrap();
        let replayed = Battle::open(&self.ruleset, self.battle.events.clone()).unwrap();
        assert_eq!(replayed.state, self.battle.state, "live state ≠ replay");
        assert_eq!(replayed.history.undo, self.battle.history.undo);
        assert_eq!(replayed.history.redo, self.battle.history.redo);
    }

    fn add(&mut self, label: &str, side: &str, role: Role, stats: serde_json::Value) -> UnitId {
        self.add_to(label, side, None, role, stats)
    }

    fn add_to(
        &mut self,
        label: &str,
        side: &str,
        command: Option<&str>,
        role: Role,
        stats: serde_json::Value,
    ) -> UnitId {
        let body = self
            .battle
            .add_unit(
                &self.ruleset,
                UnitSpec {
                    label: label.into(),
                    side: side.into(),
                    command: command.map(str::to_string),
                    role,
                    stats,
                },
            )
            .unwrap();
        let EventBody::UnitAdded { id, .. } = body else {
            panic!()
        };
        self.record(body);
        id
    }

    fn resolve(&self, action: &str, situation: &serde_json::Value, dice: &[u32]) -> Resolution {
        self.ruleset.resolve(action, situation, Some(dice)).unwrap()
    }

    fn apply(&mut self, r: &Resolution, mapping: Mapping) {
        let body = self
            .battle
            .apply(
                &self.ruleset,
                r,
                &mapping,
                DiceSource::Physical,
                Some("umpire".into()),
                None,
            )
            .unwrap();
        self.record(body);
    }

    fn unit(&self, id: UnitId) -> &UnitState {
        &self.battle.state.units[&id]
    }

    fn itacs(&self, id: UnitId) -> &ItacsUnit {
        self.unit(id).detail().expect("an ITACS unit")
    }

    fn gts(&self, id: UnitId) -> &GtsUnit {
        self.unit(id).detail().expect("a GTS unit")
    }

    fn medieval(&self, id: UnitId) -> &MedievalCounter {
        self.unit(id).detail().expect("a Medieval counter")
    }

    /// The unit as its system's next situation takes it now (its stats, as the battle keeps them).
    fn stats(&self, id: UnitId) -> serde_json::Value {
        let u = self.unit(id);
        if let Some(i) = u.detail::<ItacsUnit>() {
            serde_json::to_value(i.now(u.strength)).unwrap()
        } else if let Some(m) = u.detail::<MedievalCounter>() {
            serde_json::to_value(m.now(u.strength)).unwrap()
        } else if let Some(g) = u.detail::<GtsUnit>() {
            serde_json::to_value(g.now(u, &u.label)).unwrap()
        } else {
            panic!("{} has no situation entry", u.label)
        }
    }

    fn gauge(&self, side: Option<&str>, label: &str) -> Gauge {
        standing(&self.ruleset, &self.battle.state)
            .gauges
            .into_iter()
            .find(|g| g.side.as_deref() == side && g.label.starts_with(label))
            .unwrap_or_else(|| panic!("no gauge {label}"))
    }
}

fn mapping(targets: &[(&str, &[UnitId])]) -> Mapping {
    Mapping {
        units_moving: None,
        targets: targets
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_vec()))
            .collect(),
        choices: Default::default(),
    }
}

/// The first 2d6 roll whose outcome has an effect matching `want`.
fn dice_for(
    ruleset: &Ruleset,
    action: &str,
    situation: &serde_json::Value,
    want: impl Fn(&Resolution) -> bool,
) -> Vec<u32> {
    for a in 1..=6 {
        for b in 1..=6 {
            let r = ruleset.resolve(action, situation, Some(&[a, b])).unwrap();
            if want(&r) {
                return vec![a, b];
            }
        }
    }
    panic!("no roll gives the outcome wanted");
}

fn has(r: &Resolution, f: impl Fn(&crate::contract::Effect) -> bool) -> bool {
    r.outcome.as_ref().is_some_and(|o| o.effects.iter().any(f))
}

#[test]
fn an_itacs_melee_applied_undone_and_redone_replays_to_the_live_state() {
    let mut s = Script::new(
        "itacs",
        json!([{"name": "Romans", "panic_level": 3}, {"name": "Gauls", "panic_level": 6}]),
    );
    let r1 = s.add(
        "17.04",
        "Romans",
        Role::Unit,
        json!({"type": "SD", "count": 4}),
    );
    let r2 = s.add(
        "18.05",
        "Romans",
        Role::Unit,
        json!({"type": "SD", "count": 2}),
    );
    let g1 = s.add(
        "17.03",
        "Gauls",
        Role::Unit,
        json!({"type": "PS", "count": 2}),
    );
    let melee = json!({
        "attackers": [
            { "label": "17.04", "units": [{ "type": "SD", "count": 4 }] }
        ],
        "defenders": [{ "label": "17.03", "terrain": "clear", "units": [{ "type": "PS", "count": 2 }] }]
    });
    let dice = dice_for(&s.ruleset, "melee", &melee, |r| {
        has(r, |e| {
            matches!(e.change, Change::LoseUnits { .. })
                && e.target == crate::contract::Target::Defender
        }) && !has(r, |e| {
            matches!(e.change, Change::LoseUnits { .. })
                && e.target == crate::contract::Target::Attacker
        })
    });
    let r = s.resolve("melee", &melee, &dice);
    let before = s.battle.state.clone();
    // The defending hex must be mapped: asked for, not guessed.
    let e = s
        .battle
        .apply(
            &s.ruleset,
            &r,
            &mapping(&[("attacker", &[r1])]),
            DiceSource::Physical,
            None,
            None,
        )
        .unwrap_err();
    assert_eq!(e.code, "battle.target_unmapped");
    s.apply(&r, mapping(&[("attacker", &[r1]), ("defender", &[g1])]));
    let after = s.battle.state.clone();
    let lost = r
        .outcome
        .as_ref()
        .unwrap()
        .effects
        .iter()
        .find_map(|e| match e.change {
            Change::LoseUnits { count, .. } if e.target == crate::contract::Target::Defender => {
                Some(count)
            }
            _ => None,
        });
    assert_eq!(lost, Some(1), "the roll found loses one PS");
    assert_eq!(s.unit(g1).strength, 1);
    assert_eq!(s.stats(g1)["count"], 1);
    // A lost PS (combat 4, fire 0) is worth 4 ÷ 2 = 2 victory points to the Romans.
    assert_eq!(
        s.gauge(Some("Romans"), "Victory points").value,
        "2 points scored"
    );
    let panic = s.gauge(Some("Gauls"), "Panic level");
    assert_eq!(
        (
            panic.label.as_str(),
            panic.status.as_deref(),
            panic.value.as_str(),
            panic.to_go.as_deref(),
            panic.threshold.as_deref(),
            panic.reached
        ),
        (
            "Panic level",
            None,
            "enemy has 2 of 6 points",
            Some("4 points to panic"),
            Some("6 points"),
            false
        )
    );

    s.record(s.battle.undo().unwrap());
    assert_eq!(s.battle.state.units, before.units);
    assert!(s.battle.undo().is_ok(), "earlier events can be undone too");
    s.record(s.battle.redo().unwrap());
    assert_eq!(s.battle.state.units, after.units);
    assert_eq!(s.battle.redo().unwrap_err().code, "battle.nothing_to_redo");

    // Three D markers rout the hex (5.1): the roster's markers follow the ITACS hex rules.
    s.record(
        s.battle
            .adjust(
                &s.ruleset,
                Subject::Unit(r2),
                Change::DMarkers { count: 3 },
                None,
            )
            .unwrap(),
    );
    assert!(s.itacs(r2).rout);
    assert_eq!(s.itacs(r2).d_markers, 3);
    // Everything can be undone back to the start, and no further.
    while s.battle.history.undo.is_some() {
        s.record(s.battle.undo().unwrap());
    }
    assert!(s.battle.state.units.is_empty());
    assert_eq!(s.battle.undo().unwrap_err().code, "battle.nothing_to_undo");
}

#[test]
fn losses_spread_over_several_units_need_the_players_choice() {
    let mut s = Script::new("itacs", json!([{"name": "A"}, {"name": "B"}]));
    let a = s.add("a", "A", Role::Unit, json!({"type": "SD", "count": 2}));
    let b = s.add("b", "A", Role::Unit, json!({"type": "SD", "count": 2}));
    let r = Resolution::certain(
        "itacs",
        "melee",
        "A1",
        "",
        vec![crate::contract::effect(
            crate::contract::Target::Attacker,
            Change::LoseUnits {
                count: 2,
                chosen_by: Chooser::Attacker,
            },
            "10.7",
            None,
        )],
    );
    let m = mapping(&[("attacker", &[a, b])]);
    let e = s
        .battle
        .apply(&s.ruleset, &r, &m, DiceSource::None, None, None)
        .unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.field.as_deref()),
        ("battle.choice_needed", Some("choices.0"))
    );
    assert!(e.message.contains("attacker chooses"), "{}", e.message);
    let mut m = m;
    m.choices.insert("0".into(), vec![b, b]);
    s.apply(&r, m);
    assert!(s.unit(b).lost);
    assert_eq!(s.unit(a).strength, 2);
    // A unit that is gone takes nothing more.
    let e = s
        .battle
        .adjust(
            &s.ruleset,
            Subject::Unit(b),
            Change::DMarkers { count: 1 },
            None,
        )
        .unwrap_err();
    assert_eq!(e.code, "battle.unit_gone");
    let e = s
        .battle
        .apply(
            &s.ruleset,
            &r,
            &mapping(&[("attacker", &[b])]),
            DiceSource::None,
            None,
            None,
        )
        .unwrap_err();
    assert_eq!(e.code, "battle.unit_gone");
}

#[test]
fn an_edited_roll_replays_the_later_events_and_shows_what_changed() {
    let mut s = Script::new("itacs", json!([{"name": "A"}, {"name": "B"}]));
    let a = s.add("17.04", "A", Role::Unit, json!({"type": "SD", "count": 2}));
    let d = s.add("17.03", "B", Role::Unit, json!({"type": "PS", "count": 2}));
    let melee = json!({
        "attackers": [{ "label": "17.04", "units": [{ "type": "SD", "count": 2 }] }],
        "defenders": [{ "label": "17.03", "terrain": "clear", "units": [{ "type": "PS", "count": 2 }] }]
    });
    let quiet = dice_for(&s.ruleset, "melee", &melee, |r| {
        r.outcome.as_ref().is_some_and(|o| {
            o.effects.iter().all(|e| {
                e.target != crate::contract::Target::Defender
                    || matches!(e.change, Change::DMarkers { .. })
            })
        })
    });
    let bloody = dice_for(&s.ruleset, "melee", &melee, |r| {
        has(r, |e| {
            matches!(e.change, Change::LoseUnits { .. } | Change::DestroyAll)
                && e.target == crate::contract::Target::Defender
        })
    });
    let all = [
        ("attacker", &[a][..]),
        ("defender", &[d][..]),
        ("hex:17.04", &[a][..]),
        ("hex:17.03", &[d][..]),
    ];
    s.apply(&s.resolve("melee", &melee, &quiet), mapping(&all));
    let applied = s.battle.events.last().unwrap().seq;
    s.record(
        s.battle
            .adjust(
                &s.ruleset,
                Subject::Unit(d),
                Change::DMarkers { count: 1 },
                None,
            )
            .unwrap(),
    );
    let (body, diff) = s
        .battle
        .edit_roll(&s.ruleset, applied, &melee, &bloody, DiceSource::Physical)
        .unwrap();
    assert!(diff.iter().any(|x| x.what.starts_with("17.03")), "{diff:?}");
    s.record(body);
    assert!(s.unit(d).strength < 2);
    // The later D marker still lands unless the hex is gone, in which case it is a conflict.
    if s.unit(d).lost {
        assert_eq!(s.battle.state.conflicts.len(), 1);
    } else {
        assert!(s.itacs(d).d_markers >= 1);
    }
    // Undoing the edit puts the first roll back.
    s.record(s.battle.undo().unwrap());
    assert_eq!(s.unit(d).strength, 2);
    assert_eq!(
        s.battle
            .edit_roll(&s.ruleset, 2, &melee, &bloody, DiceSource::Physical)
            .unwrap_err()
            .code,
        "battle.not_a_roll"
    );
}

#[test]
fn a_medieval_combat_costs_sps_and_moves_the_morale_track() {
    let mut s = Script::new(
        "medieval",
        json!([{"name": "Order"}, {"name": "Lithuanians"}]),
    );
    let k = s.add(
        "Knights",
        "Order",
        Role::Unit,
        json!({"type": "heavy_cavalry", "sp": 2, "cf": 2}),
    );
    let c = s.add(
        "Riders",
        "Order",
        Role::Unit,
        json!({"type": "cavalry", "sp": 2, "cf": 3}),
    );
    let l = s.add(
        "Boyars",
        "Lithuanians",
        Role::Unit,
        json!({"type": "light_cavalry", "sp": 2, "cf": 1}),
    );
    let combat = json!({
        "attackers": [
            { "stream": true, "units": [{ "type": "heavy_cavalry", "sp": 2, "cf": 2 }] },
            { "stream": true, "units": [{ "type": "cavalry", "sp": 2, "cf": 3 }] }
        ],
        "defenders": [{ "terrain": "stream", "units": [{ "type": "light_cavalry", "sp": 2, "cf": 1 }] }]
    });
    let dice = dice_for(&s.ruleset, "combat", &combat, |r| {
        has(r, |e| {
            e.target == crate::contract::Target::Defender
                && matches!(e.change, Change::LoseSp { .. })
        })
    });
    let r = s.resolve("combat", &combat, &dice);
    let mut m = mapping(&[("attacker", &[k, c]), ("defender", &[l])]);
    // Attacker SP losses over two hexes are the attacker's choice.
    if let Err(e) = s
        .battle
        .apply(&s.ruleset, &r, &m, DiceSource::Physical, None, None)
    {
        assert_eq!(e.code, "battle.choice_needed");
        let i = e.field.unwrap().trim_start_matches("choices.").to_string();
        let n = r.outcome.as_ref().unwrap().effects[i.parse::<usize>().unwrap()]
            .change
            .clone();
        let Change::LoseSp { count, .. } = n else {
            panic!()
        };
        m.choices.insert(i, vec![k; count as usize]);
    }
    s.apply(&r, m);
    assert!(s.unit(l).strength < 2);
    assert_eq!(s.stats(l)["sp"], s.unit(l).strength);
    let lost = 2 - s.unit(l).strength;
    assert_eq!(
        s.gauge(Some("Lithuanians"), "Strength points").value,
        format!("lost {lost} SP{}", if lost == 1 { "" } else { "s" })
    );
    // A banner captured by the Order: the track moves 3 boxes its way (6.1.5), via player A.
    let morale = s
        .ruleset
        .resolve(
            "morale",
            &json!({"track": 0, "events": [{"kind": "banner_fall", "to": "a", "count": 1}]}),
            None,
        )
        .unwrap();
    s.apply(&morale, Mapping::default());
    assert_eq!(s.battle.state.morale_track, 3);
    assert_eq!(s.gauge(None, "MORALE track").value, "+3: Order gains 3 CMs");
    let cf = s.medieval(c).entry.cf;
    s.record(
        s.battle
            .adjust(
                &s.ruleset,
                Subject::Unit(c),
                Change::ReduceChargeFactor { by: 1 },
                None,
            )
            .unwrap(),
    );
    assert_eq!(s.medieval(c).entry.cf, cf.saturating_sub(1));
    // Each Medieval counter is its own entry.
    let e = s
        .battle
        .add_unit(
            &s.ruleset,
            UnitSpec {
                label: "x".into(),
                side: "Order".into(),
                command: None,
                role: Role::Unit,
                stats: json!({"type": "cavalry", "sp": 2, "count": 2}),
            },
        )
        .unwrap_err();
    assert_eq!(e.code, "battle.one_unit_per_entry");
}

#[test]
fn a_gts_army_loses_units_one_by_one_to_its_break_point() {
    let mut s = Script::new("gts", json!([{"name": "Spartans"}, {"name": "Persians"}]));
    let unit = json!({ "class": "infantry", "weapon": "SP", "armour": "M", "stands": 2 });
    let ids: Vec<UnitId> = (0..5)
        .map(|i| s.add(&format!("P{i}"), "Persians", Role::Unit, unit.clone()))
        .collect();
    s.add(
        "General",
        "Persians",
        Role::General,
        json!({ "class": "cavalry", "weapon": "SP", "armour": "M", "stands": 1 }),
    );
    let hps = s.gts(ids[0]).hits_per_stand;
    assert!(hps > 0);
    let g = s.gauge(Some("Persians"), "Army break point");
    let abp: u32 = g
        .threshold
        .as_ref()
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let units = |n: u32| format!("{n} unit{}", if n == 1 { "" } else { "s" });
    assert_eq!(g.to_go, Some(format!("{} to break", units(abp))));
    assert_eq!(g.value, format!("lost 0 of {} units", ids.len()));
    for (n, id) in ids.iter().enumerate() {
        // One hit short of a stand, then the stand goes.
        s.record(
            s.battle
                .adjust(
                    &s.ruleset,
                    Subject::Unit(*id),
                    Change::Hits { count: hps - 1 },
                    None,
                )
                .unwrap(),
        );
        assert_eq!((s.unit(*id).strength, s.gts(*id).hits), (2, hps - 1));
        s.record(
            s.battle
                .adjust(
                    &s.ruleset,
                    Subject::Unit(*id),
                    Change::Hits { count: hps + 1 },
                    None,
                )
                .unwrap(),
        );
        assert!(s.unit(*id).lost, "two stands' worth of hits");
        let g = s.gauge(Some("Persians"), "Army break point");
        assert_eq!(g.value, format!("lost {} of {} units", n + 1, ids.len()));
        assert_eq!(g.status.as_deref(), g.reached.then_some("broken"));
        assert_eq!(
            g.reached,
            n + 1 >= abp as usize,
            "at {} lost of ABP {abp}",
            n + 1
        );
        if g.reached {
            break;
        }
    }
    // The general's loss lowers the break point (8.0).
    let before: u32 = s
        .gauge(Some("Persians"), "Army break point")
        .threshold
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let general = s
        .battle
        .state
        .units
        .values()
        .find(|u| u.role == Role::General)
        .unwrap()
        .id;
    s.record(
        s.battle
            .adjust(
                &s.ruleset,
                Subject::Unit(general),
                Change::LeaderKilled,
                None,
            )
            .unwrap(),
    );
    let after: u32 = s
        .gauge(Some("Persians"), "Army break point")
        .threshold
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(after <= before);
    assert!(!standing(&s.ruleset, &s.battle.state).resolutions.is_empty());
}

#[test]
fn no_verdict_before_the_first_result_nor_once_every_result_is_undone() {
    let mut s = Script::new("gts", json!([{"name": "Spartans"}, {"name": "Persians"}]));
    let unit = json!({ "class": "infantry", "weapon": "SP", "armour": "M", "stands": 2 });
    let spartan = s.add("S1", "Spartans", Role::Unit, unit.clone());
    s.add("P1", "Persians", Role::Unit, unit);
    // Both armies on the table, no fight yet: the break points, but no verdict.
    let before = standing(&s.ruleset, &s.battle.state);
    assert!(!before.gauges.is_empty());
    assert!(before.resolutions.is_empty(), "{:?}", before.resolutions);
    s.record(
        s.battle
            .adjust(
                &s.ruleset,
                Subject::Unit(spartan),
                Change::Hits { count: 1 },
                None,
            )
            .unwrap(),
    );
    assert!(!standing(&s.ruleset, &s.battle.state).resolutions.is_empty());
    // Undone, the battle is as before any result; replayed from its events, the same.
    s.record(s.battle.undo().unwrap());
    assert!(standing(&s.ruleset, &s.battle.state).resolutions.is_empty());
    let (replayed, _) = fold(&s.ruleset, &s.battle.events).unwrap();
    assert_eq!(replayed, s.battle.state);
}

#[test]
fn undo_back_to_an_entry_is_one_event_that_takes_back_everything_after_it() {
    let mut s = Script::new("gts", json!([{"name": "Spartans"}, {"name": "Persians"}]));
    let unit = json!({ "class": "infantry", "weapon": "SP", "armour": "M", "stands": 3 });
    let spartan = s.add("S1", "Spartans", Role::Unit, unit.clone());
    let persian = s.add("P1", "Persians", Role::Unit, unit);
    let back_to = s.battle.events.last().unwrap().seq;
    let as_then = s.battle.state.clone();
    let hits = |s: &mut Script, id: UnitId| {
        let body = s
            .battle
            .adjust(
                &s.ruleset,
                Subject::Unit(id),
                Change::Hits { count: 1 },
                None,
            )
            .unwrap();
        s.record(body);
        s.battle.state.units.clone()
    };
    let first = hits(&mut s, spartan);
    // A turn change between the changes: navigation, it stays.
    s.record(s.battle.advance_turn(Some(2), None));
    hits(&mut s, persian);
    let last = hits(&mut s, spartan);
    assert_ne!(first, as_then.units);
    let events_before = s.battle.events.len();
    s.record(s.battle.undo_to(back_to).unwrap());
    // One event, and the units as they stood at that entry, in turn 2 still.
    assert_eq!(s.battle.events.len(), events_before + 1);
    assert!(matches!(
        s.battle.events.last().unwrap().body,
        EventBody::UndoneTo { event } if event == back_to
    ));
    assert_eq!(s.battle.state.units, as_then.units);
    assert_eq!(s.battle.state.turn, 2);
    // Replayed from the events, the same battle.
    let (replayed, history) = fold(&s.ruleset, &s.battle.events).unwrap();
    assert_eq!(replayed, s.battle.state);
    assert_eq!(history, s.battle.history);
    // Nothing is left to take back after that entry; an entry the log lacks is refused.
    assert_eq!(
        s.battle.undo_to(back_to).unwrap_err().code,
        "battle.nothing_to_undo"
    );
    assert_eq!(
        s.battle.undo_to(999).unwrap_err().code,
        "battle.unknown_event"
    );
    // Redo puts the changes back one at a time, the earliest first.
    s.record(s.battle.redo().unwrap());
    assert_eq!(s.battle.state.units, first);
    s.record(s.battle.redo().unwrap());
    s.record(s.battle.redo().unwrap());
    assert_eq!(s.battle.state.units, last);
    assert_eq!(s.battle.redo().unwrap_err().code, "battle.nothing_to_redo");
    // An undo back to an event that comes after it does not fold.
    let mut events = s.battle.events.clone();
    let seq = events.last().unwrap().seq + 1;
    events.push(Event {
        seq,
        at: String::new(),
        body: EventBody::UndoneTo { event: seq + 5 },
    });
    assert_eq!(
        fold(&s.ruleset, &events).unwrap_err().code,
        "battle.invalid_events"
    );
}

#[test]
fn units_the_ruleset_rejects_never_join() {
    let s = Script::new("itacs", json!([{"name": "A"}, {"name": "B"}]));
    let spec = |stats: serde_json::Value, side: &str| UnitSpec {
        label: "u".into(),
        side: side.into(),
        command: None,
        role: Role::Unit,
        stats,
    };
    let e = s
        .battle
        .add_unit(&s.ruleset, spec(json!({"type": "XX"}), "A"))
        .unwrap_err();
    assert!(
        e.field.as_deref().unwrap().starts_with("unit.stats"),
        "{e:?}"
    );
    let e = s
        .battle
        .add_unit(&s.ruleset, spec(json!({"type": "SD", "count": 0}), "A"))
        .unwrap_err();
    assert!(
        e.field.as_deref().unwrap().starts_with("unit.stats"),
        "{e:?}"
    );
    let e = s
        .battle
        .add_unit(&s.ruleset, spec(json!({"type": "SD"}), "C"))
        .unwrap_err();
    assert_eq!(e.code, "battle.unknown_side");
    // A second creation, or events out of order, do not fold.
    let mut events = s.battle.events.clone();
    events.push(Event {
        seq: 1,
        at: String::new(),
        body: EventBody::TurnAdvanced {
            turn: 2,
            phase: None,
        },
    });
    assert_eq!(
        Battle::open(&s.ruleset, events).unwrap_err().code,
        "battle.invalid_events"
    );
}

#[test]
fn the_outlook_is_the_exact_chance_a_result_breaks_the_army() {
    // The Gauls panic at 2 points: losing one PS (2 VP to the Romans) is enough.
    let mut s = Script::new(
        "itacs",
        json!([{"name": "Romans"}, {"name": "Gauls", "panic_level": 2}]),
    );
    let a = s.add(
        "17.04",
        "Romans",
        Role::Unit,
        json!({"type": "SD", "count": 4}),
    );
    let d = s.add(
        "17.03",
        "Gauls",
        Role::Unit,
        json!({"type": "PS", "count": 2}),
    );
    let melee = json!({
        "attackers": [{ "label": "17.04", "units": [{ "type": "SD", "count": 4 }] }],
        "defenders": [{ "label": "17.03", "terrain": "clear", "units": [{ "type": "PS", "count": 2 }] }]
    });
    let r = s.ruleset.resolve("melee", &melee, None).unwrap();
    let chances = outlook(
        &s.ruleset,
        &s.battle.state,
        &r,
        &mapping(&[("attacker", &[a]), ("defender", &[d])]),
    )
    .unwrap();
    let panic = chances
        .iter()
        .find(|c| c.label.starts_with("Gauls: Panic level"))
        .unwrap();
    // By hand: every result in which the defender loses a unit or is destroyed.
    let mut expected = crate::odds::Probability::ZERO;
    for o in &r.distribution {
        if o.effects.iter().any(|e| {
            e.target == crate::contract::Target::Defender
                && matches!(e.change, Change::LoseUnits { .. } | Change::DestroyAll)
        }) {
            expected = expected
                .plus(&crate::odds::Probability::parse(&o.probability).unwrap())
                .unwrap();
        }
    }
    assert_eq!(panic.probability, expected.to_string());
    assert!(panic.p > 0.0 && panic.p < 1.0);
    // Nothing was applied.
    assert_eq!(s.unit(d).strength, 2);

    // After the dice the outlook is that roll's: certain for every throw, and it agrees with what
    // the throw's result does.
    let map = mapping(&[("attacker", &[a]), ("defender", &[d])]);
    for (x, y) in [(1, 1), (3, 4), (6, 6)] {
        let thrown = s.ruleset.resolve("melee", &melee, Some(&[x, y])).unwrap();
        let loses = thrown.outcome.as_ref().unwrap().effects.iter().any(|e| {
            e.target == crate::contract::Target::Defender
                && matches!(e.change, Change::LoseUnits { .. } | Change::DestroyAll)
        });
        let certain = outlook(&s.ruleset, &s.battle.state, &super::settled(&thrown), &map).unwrap();
        let panic = certain
            .iter()
            .find(|c| c.label.starts_with("Gauls: Panic level"))
            .unwrap();
        assert_eq!(panic.p, if loses { 1.0 } else { 0.0 }, "{x}-{y}");
    }
}

#[test]
fn a_dbmm_command_loses_elements_to_close_combat_through_its_thresholds() {
    let mut s = Script::new("dbmm", json!([{"name": "Romans"}, {"name": "Gauls"}]));
    let mut add = |label: &str, side: &str, command: &str, stats: serde_json::Value| {
        s.add_to(label, side, Some(command), Role::Unit, stats)
    };
    add(
        "Legate",
        "Romans",
        "Left",
        json!({ "type": "Kn", "grade": "O", "general": true }),
    );
    let blades: Vec<UnitId> = (1..=8)
        .map(|i| {
            add(
                &format!("Bd{i}"),
                "Romans",
                "Left",
                json!({ "type": "Bd", "grade": "O" }),
            )
        })
        .collect();
    add(
        "Warband",
        "Gauls",
        "Host",
        json!({ "type": "Wb", "grade": "O", "irr": true }),
    );
    let g = s.gauge(Some("Romans"), "Left");
    assert_eq!(
        (
            g.label.as_str(),
            g.status.as_deref(),
            g.value.as_str(),
            g.threshold.as_deref()
        ),
        (
            "Left",
            Some("steady"),
            "lost 0 of 12 ME",
            Some("more than 1/4 lost")
        )
    );
    assert_eq!(
        g.to_go.as_deref(),
        Some("3½ ME to disheartened"),
        "12 ME: disheartened past 3"
    );
    // In the Gauls' bound a beaten Bd is destroyed by Wb (p. 38–39).
    for (n, id) in blades.iter().enumerate() {
        let label = format!("Bd{}", n + 1);
        let situation = json!({
            "a": { "element": { "type": "Bd", "grade": "O", "name": label } },
            "b": { "element": { "type": "Wb", "grade": "O", "irr": true, "name": "Warband" } },
            "bound": "b"
        });
        let dice = dice_for(&s.ruleset, "close_combat", &situation, |r| {
            has(r, |e| {
                e.change
                    == Change::ElementFate {
                        fate: crate::fate::Fate::Destroyed.into(),
                    }
            })
        });
        let r = s.resolve("close_combat", &situation, &dice);
        s.apply(&r, mapping(&[]));
        assert!(s.unit(*id).lost, "{label} destroyed");
        let g = s.gauge(Some("Romans"), "Left");
        let want = match n + 1 {
            1..=3 => ("disheartened", "steady"),
            4 => ("broken", "disheartened"),
            5 | 6 => ("shattered", "broken"),
            _ => ("shattered", "shattered"),
        };
        let next = g.to_go.as_deref().map(|t| t.rsplit(' ').next().unwrap());
        assert_eq!(
            (next.unwrap_or("shattered"), g.status.as_deref().unwrap()),
            want,
            "after {} destroyed",
            n + 1
        );
        assert_eq!(g.reached, n + 1 >= 7);
        if n + 1 == 7 {
            break;
        }
    }
    // 7 of 12 ME lost: the army of 12 ME is defeated (> ½), and victory points follow.
    let army = s.gauge(Some("Romans"), "Army");
    assert!(army.reached);
    assert_eq!(
        (army.status.as_deref(), army.value.as_str()),
        (Some("defeated"), "lost 7 of 12 ME")
    );
    let standing = standing(&s.ruleset, &s.battle.state);
    let victory = standing
        .resolutions
        .iter()
        .find(|r| r.action == "victory")
        .unwrap();
    let outcome = victory.outcome.as_ref().unwrap();
    assert_eq!(outcome.result, "0-25");
    assert!(
        outcome
            .meaning
            .starts_with("Gauls win 25–0 on victory points"),
        "{}",
        outcome.meaning
    );
}

/// Destruction of friends behind (p. 42) is an effect the battle applies: the Bw behind a Bd
/// destroyed by Wb leaves the roster with it, and counts as lost for the command.
#[test]
fn a_dbmm_friend_behind_is_destroyed_with_the_element_in_front() {
    let mut s = Script::new("dbmm", json!([{"name": "Romans"}, {"name": "Gauls"}]));
    let bd = s.add_to(
        "Bd1",
        "Romans",
        Some("Left"),
        Role::Unit,
        json!({ "type": "Bd", "grade": "O" }),
    );
    let bw = s.add_to(
        "Archers",
        "Romans",
        Some("Left"),
        Role::Unit,
        json!({ "type": "Bw", "grade": "O" }),
    );
    s.add_to(
        "Warband",
        "Gauls",
        Some("Host"),
        Role::Unit,
        json!({ "type": "Wb", "grade": "O", "irr": true }),
    );
    let situation = json!({
        "a": { "element": { "type": "Bd", "grade": "O", "name": "Bd1" },
               "behind": { "type": "Bw", "grade": "O", "name": "Archers" } },
        "b": { "element": { "type": "Wb", "grade": "O", "irr": true, "name": "Warband" } },
        "bound": "b"
    });
    let dice = dice_for(&s.ruleset, "close_combat", &situation, |r| {
        has(r, |e| {
            matches!(&e.change, Change::ElementFate { fate } if fate.fate == crate::fate::Fate::Destroyed)
                && e.text.starts_with("Archers")
        })
    });
    let r = s.resolve("close_combat", &situation, &dice);
    s.apply(&r, mapping(&[]));
    assert!(s.unit(bd).lost, "the Bd is destroyed");
    assert!(s.unit(bw).lost, "the Bw behind it is destroyed too");
    let g = s.gauge(Some("Romans"), "Left");
    assert_eq!(g.value.as_str(), "lost 2 of 2 ME");
}

#[test]
fn an_edited_unit_keeps_its_losses_and_a_removed_one_is_gone_not_lost() {
    let mut s = Script::new(
        "itacs",
        json!([{"name": "Romans", "panic_level": 3}, {"name": "Gauls", "panic_level": 6}]),
    );
    let r1 = s.add(
        "17.04",
        "Romans",
        Role::Unit,
        json!({"type": "SD", "count": 4}),
    );
    let g1 = s.add(
        "17.03",
        "Gauls",
        Role::Unit,
        json!({"type": "PS", "count": 2}),
    );
    let spec = |label: &str, side: &str, stats: serde_json::Value| UnitSpec {
        label: label.into(),
        side: side.into(),
        command: None,
        role: Role::Unit,
        stats,
    };
    // One PS lost and a D marker: worth 2 victory points to the Romans.
    s.record(
        s.battle
            .adjust(
                &s.ruleset,
                Subject::Unit(g1),
                Change::LoseUnits {
                    count: 1,
                    chosen_by: Chooser::Defender,
                },
                None,
            )
            .unwrap(),
    );
    s.record(
        s.battle
            .adjust(
                &s.ruleset,
                Subject::Unit(g1),
                Change::DMarkers { count: 1 },
                None,
            )
            .unwrap(),
    );
    assert_eq!(
        s.gauge(Some("Romans"), "Victory points").value,
        "2 points scored"
    );
    // The Gauls' stack really held 3 PS: it keeps its loss and its D marker.
    let body = s
        .battle
        .edit_unit(
            &s.ruleset,
            g1,
            spec("17.03", "Gauls", json!({"type": "PS", "count": 3})),
        )
        .unwrap();
    s.record(body);
    let u = s.unit(g1);
    assert_eq!((u.starting, u.strength, s.itacs(g1).d_markers), (3, 2, 1));
    assert_eq!(s.stats(g1)["count"], 2);
    assert!(!u.lost);
    // An edit the ruleset refuses is refused like a new unit, and so is an unknown unit.
    let e = s
        .battle
        .edit_unit(
            &s.ruleset,
            g1,
            spec("17.03", "Gauls", json!({"type": "XX", "count": 3})),
        )
        .unwrap_err();
    assert_eq!(e.code, "situation.unknown_unit_type");
    let e = s
        .battle
        .edit_unit(&s.ruleset, 99, spec("x", "Gauls", json!({"type": "PS"})))
        .unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.field.as_deref()),
        ("battle.unit_gone", Some("unit"))
    );
    assert_eq!(
        s.battle.remove_unit(99).unwrap_err().code,
        "battle.unit_gone"
    );
    // Fewer than the losses: the stack is lost.
    s.record(
        s.battle
            .edit_unit(
                &s.ruleset,
                g1,
                spec("17.03", "Gauls", json!({"type": "PS", "count": 1})),
            )
            .unwrap(),
    );
    assert!(s.unit(g1).lost);
    assert_eq!(s.unit(g1).strength, 0);
    s.record(s.battle.undo().unwrap());
    assert_eq!(s.unit(g1).strength, 2);

    // Removed: gone from the roster, not lost, no victory points; its id is never given again.
    let before = s.battle.state.clone();
    s.record(s.battle.remove_unit(g1).unwrap());
    assert!(!s.battle.state.units.contains_key(&g1));
    assert_eq!(
        s.gauge(Some("Romans"), "Victory points").value,
        "0 points scored"
    );
    assert!(s
        .battle
        .adjust(&s.ruleset, Subject::Unit(g1), Change::Break, None)
        .is_err());
    s.record(s.battle.undo().unwrap());
    assert_eq!(s.battle.state.units, before.units);
    s.record(s.battle.redo().unwrap());
    assert!(!s.battle.state.units.contains_key(&g1));
    let g2 = s.add(
        "17.02",
        "Gauls",
        Role::Unit,
        json!({"type": "PS", "count": 2}),
    );
    assert_eq!(g2, g1 + 1);
    assert!(s.battle.state.units.contains_key(&r1));
    // The log reads in words.
    let names = |id: UnitId| Some(if id == g1 { "17.03" } else { "?" }.to_string());
    assert_eq!(
        EventBody::UnitRemoved { id: g1 }.describe(names),
        "Removed 17.03"
    );
    assert_eq!(
        EventBody::UnitEdited {
            id: g1,
            unit: spec("17.03", "Gauls", json!({}))
        }
        .describe(names),
        "Edited 17.03"
    );
    assert_eq!(
        EventBody::UnitAdded {
            id: g1,
            unit: spec("17.03", "Gauls", json!({}))
        }
        .describe(names),
        "Added 17.03 to Gauls"
    );
    // A result's key in words, a table's code as printed, an answer named after its action alone.
    let applied = |action: &str, result: &str| EventBody::Applied {
        action: action.into(),
        dice: Vec::new(),
        source: DiceSource::None,
        rolled_by: None,
        result: result.into(),
        words: None,
        targets: [("defender".to_string(), vec![g1])].into(),
        choices: Default::default(),
        changes: Vec::new(),
        apply_key: None,
    };
    assert_eq!(
        applied("close_combat", "recoil_or_spent").describe(names),
        "Close combat — 17.03: recoil or spent"
    );
    assert_eq!(applied("melee", "1D").describe(names), "Melee — 17.03: 1D");
    assert_eq!(
        applied("pip_cost", "3 PIPs").describe(names),
        "PIP cost — 17.03: 3 PIPs"
    );
    let mut pips = applied("pips", "7");
    if let EventBody::Applied { targets, .. } = &mut pips {
        targets.clear();
    }
    assert_eq!(pips.describe(names), "PIPs: 7");
    assert_eq!(
        applied("close_combat", "pursue/destroyed").describe(names),
        "Close combat — 17.03: pursue / destroyed"
    );
    assert_eq!(
        applied("weather", "weather").describe(names),
        "Weather — 17.03"
    );
    // A result recorded with its words is said in them, never by its key.
    let mut said = applied("melee", "hits_3_0");
    if let EventBody::Applied { words, .. } = &mut said {
        *words = Some("Hoplites 1 takes 3".into());
    }
    assert_eq!(said.describe(names), "Melee — 17.03: Hoplites 1 takes 3");
    // A phase by its name in the sequence; a key the sequence does not know, in words.
    let phases = s.ruleset.info.phases.clone();
    let phase = &phases[0];
    let turn = |key: &str| EventBody::TurnAdvanced {
        turn: 2,
        phase: Some(key.into()),
    };
    assert_eq!(
        turn(&phase.key).describe_in(names, &phases),
        format!("Turn 2, {}", phase.name)
    );
    assert_eq!(
        turn("b_infantry_attack").describe(names),
        "Turn 2, B infantry attack"
    );
}

#[test]
fn a_rallied_gts_unit_is_no_longer_routed_but_disordered() {
    // 3.33: the rallied unit assumes Attack formation and Disordered status; conditions are
    // exclusive (3.3), so applying the rally ends the Rout.
    let mut s = Script::new("gts", json!([{"name": "Spartans"}, {"name": "Persians"}]));
    let id = s.add(
        "Hoplites",
        "Spartans",
        Role::Unit,
        json!({ "name": "Hoplites", "class": "infantry", "weapon": "SP", "armour": "M",
                "stands": 4, "routed": true }),
    );
    assert!(s.gts(id).rout);
    let situation = json!({ "test": "rally", "unit": s.stats(id) });
    let r = s.resolve("response_test", &situation, &[1]);
    s.apply(&r, mapping(&[("unit:Hoplites", &[id])]));
    let u = s.gts(id);
    assert!(!u.rout, "the Rout ends");
    assert!(u.disordered, "and the unit is Disordered");
    assert_eq!(s.stats(id).get("routed"), None, "no longer routed");
    assert_eq!(s.stats(id)["disordered"], json!(true));
}

#[test]
fn turn_changes_are_navigation_that_undo_and_redo_pass_over() {
    let mut s = Script::new("itacs", json!([{"name": "Romans"}, {"name": "Gauls"}]));
    let a = s.add(
        "17.04",
        "Romans",
        Role::Unit,
        json!({"type": "SD", "count": 4}),
    );
    let marker = |s: &Script| {
        s.battle
            .adjust(
                &s.ruleset,
                Subject::Unit(a),
                Change::DMarkers { count: 1 },
                None,
            )
            .unwrap()
    };
    s.record(marker(&s));
    let adjusted = s.battle.events.last().unwrap().seq;
    s.record(s.battle.advance_turn(None, Some("Melee phase".into())));
    assert_eq!(
        s.battle.history.undo,
        Some(adjusted),
        "undo skips the phase"
    );
    s.record(s.battle.undo().unwrap());
    assert_eq!(
        (s.itacs(a).d_markers, s.battle.state.phase.as_deref()),
        (0, Some("Melee phase")),
        "the marker is taken back, the phase stays"
    );
    // A turn change between undo and redo keeps the redo.
    s.record(s.battle.advance_turn(Some(2), None));
    assert_eq!(s.battle.history.redo, Some(adjusted));
    s.record(s.battle.redo().unwrap());
    assert_eq!((s.itacs(a).d_markers, s.battle.state.turn), (1, 2));
}

#[test]
fn battles_whose_undo_took_back_a_turn_still_fold_as_they_were_played() {
    let s = Script::new("itacs", json!([{"name": "Romans"}, {"name": "Gauls"}]));
    let mut events = s.battle.events.clone();
    // Recorded when turn changes were on the undo stack: turn 2, undone, redone, undone.
    for body in [
        EventBody::TurnAdvanced {
            turn: 2,
            phase: None,
        },
        EventBody::Undone { event: 2 },
        EventBody::Redone { event: 2 },
        EventBody::Undone { event: 2 },
    ] {
        events.push(Event {
            seq: events.len() as u64 + 1,
            at: String::new(),
            body,
        });
        let battle = Battle::open(&s.ruleset, events.clone()).unwrap();
        let undone = matches!(events.last().unwrap().body, EventBody::Undone { .. });
        assert_eq!(battle.state.turn, if undone { 1 } else { 2 });
    }
    let battle = Battle::open(&s.ruleset, events.clone()).unwrap();
    assert_eq!(
        battle.history.redo,
        Some(2),
        "the legacy undo can be redone"
    );
    assert_eq!(
        battle.history.undo, None,
        "and the turn is not undone again"
    );
}

#[test]
fn a_captured_gts_general_counts_against_the_break_point_through_the_apply_path() {
    // Table 1.10: a 9 takes the leader prisoner; applied, the roster marks him captured and the
    // army break point drops to 50 % (8.0).
    let mut s = Script::new("gts", json!([{"name": "Spartans"}, {"name": "Persians"}]));
    for i in 0..4 {
        s.add(
            &format!("P{i}"),
            "Persians",
            Role::Unit,
            json!({ "class": "infantry", "weapon": "SP", "armour": "M", "stands": 2 }),
        );
    }
    let general = s.add(
        "Xerxes",
        "Persians",
        Role::General,
        json!({ "class": "cavalry", "weapon": "SP", "armour": "M", "stands": 1 }),
    );
    let before = s.gauge(Some("Persians"), "Army break point").threshold;
    let r = s.resolve("leader_casualty", &json!({}), &[2, 9]);
    assert_eq!(r.outcome.as_ref().unwrap().result, "9: captured");
    s.apply(&r, mapping(&[("unit:the leader", &[general])]));
    assert_eq!(s.unit(general).leader, Some(LeaderFate::Captured));
    let after = s.gauge(Some("Persians"), "Army break point").threshold;
    assert_eq!(before.as_deref(), Some("3 units (60% of 4)"));
    assert_eq!(after.as_deref(), Some("2 units (50% of 4)"));
}

#[test]
fn gts_contact_disorder_and_escort_hits_land_on_the_roster() {
    // 4.47: camels Disorder the cavalry they contact, before the roll-off; 3.163: an even die
    // puts the fire on the escort, whose roster entry takes the hits.
    let mut s = Script::new("gts", json!([{"name": "Arabs"}, {"name": "Romans"}]));
    let camels = s.add(
        "Camels",
        "Arabs",
        Role::Unit,
        json!({ "name": "Camels", "class": "camelry", "armour": "L", "weapon": "BW", "stands": 2 }),
    );
    let lancers = s.add(
        "Lancers",
        "Romans",
        Role::Unit,
        json!({ "name": "Lancers", "class": "cavalry", "armour": "L", "weapon": "LN", "stands": 2 }),
    );
    let situation = json!({
        "contact": true,
        "side_a": [{ "unit": s.stats(camels) }],
        "side_b": [{ "unit": s.stats(lancers) }],
    });
    let r = s.resolve("melee", &situation, &[5, 5]);
    s.apply(
        &r,
        mapping(&[("unit:Camels", &[camels]), ("unit:Lancers", &[lancers])]),
    );
    assert!(s.gts(lancers).disordered, "Disordered by the camels");
    assert_eq!(s.stats(lancers)["disordered"], json!(true));

    let elephant = s.add(
        "Elephant",
        "Romans",
        Role::Unit,
        json!({ "name": "Elephant", "class": "elephant", "weapon": "SP", "stands": 1 }),
    );
    let runners = s.add(
        "Runners",
        "Romans",
        Role::Unit,
        json!({ "name": "Runners", "class": "infantry", "armour": "N", "weapon": "JV", "stands": 1,
                "tag": { "fire_defence": 0 } }),
    );
    let situation = json!({
        "firer": s.stats(camels),
        "target": s.stats(elephant),
        "target_escort": s.stats(runners),
        "range": 2.5,
    });
    let r = s.resolve("fire", &situation, &[10, 1]);
    let hits: u32 = r
        .outcome
        .as_ref()
        .unwrap()
        .effects
        .iter()
        .filter_map(|e| match e.change {
            Change::Hits { count } => Some(count),
            _ => None,
        })
        .sum();
    assert!(hits > 0, "an even 10 against 1 hits the escort");
    s.apply(
        &r,
        mapping(&[("defender", &[elephant]), ("unit:Runners", &[runners])]),
    );
    assert_eq!(s.gts(elephant).hits, 0, "the elephant is untouched");
    let runner = s.unit(runners);
    assert!(
        s.gts(runners).hits == hits || runner.strength == 0,
        "the runners take the hits: {runner:?}"
    );
}

/// Once-per-turn limits (ITACS 4.2, 4.4, 4.5.4, 6.2) and throwing weapons once per game (6.6).
mod limits {
    use std::collections::BTreeMap;

    use super::*;
    use crate::contract::Target;
    use crate::error::RefereeError;

    /// An ITACS battle: Roman SD singles at 17.04 and 18.05, a stack of three SD at 19.05, LB at
    /// 20.05 and HB at 21.05; Gaulish PS at 17.03, 18.04 and 19.04, and Frankish AX at 20.04.
    fn battle() -> (Script, BTreeMap<&'static str, UnitId>) {
        let mut s = Script::new("itacs", json!([{"name": "Romans"}, {"name": "Gauls"}]));
        let mut ids = BTreeMap::new();
        for (label, side, stats) in [
            ("17.04", "Romans", json!({"type": "SD", "count": 1})),
            ("18.05", "Romans", json!({"type": "SD", "count": 1})),
            ("19.05", "Romans", json!({"type": "SD", "count": 3})),
            ("20.05", "Romans", json!({"type": "LB", "count": 1})),
            (
                "21.05",
                "Romans",
                json!({"type": "HB", "count": 1, "fire": 3, "fire_range": 2, "movement": 12}),
            ),
            ("17.03", "Gauls", json!({"type": "PS", "count": 2})),
            ("18.04", "Gauls", json!({"type": "PS", "count": 2})),
            ("19.04", "Gauls", json!({"type": "PS", "count": 2})),
            ("20.04", "Gauls", json!({"type": "AX", "count": 1})),
        ] {
            ids.insert(label, s.add(label, side, Role::Unit, stats));
        }
        (s, ids)
    }

    impl Script {
        fn open(&self, action: &str, a: &[UnitId], d: &[UnitId]) -> Result<Fight, RefereeError> {
            fight(&self.ruleset, &self.battle.state, action, a, d)
        }

        /// Opens the fight and applies a roll that leaves every picked unit on the table and
        /// the attackers untouched, so the limits alone decide what follows.
        fn fight_it(
            &mut self,
            action: &str,
            a: &[UnitId],
            d: &[UnitId],
            edit: impl Fn(&mut serde_json::Value),
        ) -> Result<Fight, RefereeError> {
            let f = self.open(action, a, d)?;
            let mut situation = f.situation.clone();
            edit(&mut situation);
            let dice = dice_for(&self.ruleset, action, &situation, |r| {
                !has(r, |e| {
                    (e.target != Target::Defender && e.change != Change::ThrowingWeaponsUsed)
                        || matches!(e.change, Change::DestroyAll | Change::LoseUnits { .. })
                })
            });
            let r = self.resolve(action, &situation, &dice);
            let m = Mapping {
                units_moving: None,
                targets: f.targets.clone(),
                choices: Default::default(),
            };
            let body =
                self.battle
                    .apply(&self.ruleset, &r, &m, DiceSource::Physical, None, None)?;
            self.record(body);
            Ok(f)
        }
    }

    fn refused(r: Result<Fight, RefereeError>) -> RefereeError {
        r.expect_err("a repeat this turn is refused")
    }

    #[test]
    fn a_defending_hex_is_meleed_once_a_turn_and_an_attacking_unit_attacks_once() {
        let (mut s, u) = battle();
        s.fight_it("melee", &[u["17.04"]], &[u["17.03"]], |_| {})
            .unwrap();

        // Another attacker on the same defending hex: refused at the fight and at apply.
        let e = refused(s.open("melee", &[u["18.05"]], &[u["17.03"]]));
        assert_eq!(e.code, "battle.once_per_turn");
        assert_eq!(e.rule.as_deref(), Some("4.5.4"));
        assert_eq!(e.field.as_deref(), Some("defenders"));
        assert!(e.message.contains("17.03"), "{}", e.message);
        let e = refused(s.fight_it("melee", &[u["18.05"]], &[u["17.03"]], |_| {}));
        assert_eq!(e.code, "battle.once_per_turn");
        // The same single attacker on another hex: refused.
        let e = refused(s.open("melee", &[u["17.04"]], &[u["18.04"]]));
        assert_eq!(
            (e.code.as_str(), e.field.as_deref()),
            ("battle.once_per_turn", Some("attackers"))
        );
        // A phase of the same turn keeps the limits.
        s.record(s.battle.advance_turn(None, Some("Melee Combat".into())));
        refused(s.open("melee", &[u["18.05"]], &[u["17.03"]]));

        // Undo the melee: the hex and the attacker are free again.
        s.record(s.battle.undo().unwrap());
        s.open("melee", &[u["18.05"]], &[u["17.03"]]).unwrap();
        s.open("melee", &[u["17.04"]], &[u["18.04"]]).unwrap();
        // Redone, the limit is back.
        s.record(s.battle.redo().unwrap());
        refused(s.open("melee", &[u["18.05"]], &[u["17.03"]]));

        // The next turn lifts it.
        s.record(s.battle.advance_turn(Some(2), None));
        s.fight_it("melee", &[u["18.05"]], &[u["17.03"]], |_| {})
            .unwrap();
    }

    #[test]
    fn a_stack_of_several_units_may_attack_again_with_a_warning() {
        let (mut s, u) = battle();
        let first = s
            .fight_it("melee", &[u["19.05"]], &[u["18.04"]], |_| {})
            .unwrap();
        assert!(!first.asks.iter().any(|a| a.contains("R-ITACS-35")));
        // Units of one stack may attack different hexes (4.5.4): warned, not refused.
        let again = s
            .fight_it("melee", &[u["19.05"]], &[u["19.04"]], |_| {})
            .unwrap();
        let warning = again
            .asks
            .iter()
            .find(|a| a.contains("R-ITACS-35"))
            .expect("a warning");
        assert!(
            warning.starts_with("19.05 (#3) already attacked this turn"),
            "{warning}"
        );
    }

    #[test]
    fn a_hex_is_fired_on_once_a_turn_and_a_firing_unit_fires_at_one_hex() {
        let (mut s, u) = battle();
        s.fight_it("missile", &[u["20.05"]], &[u["17.03"]], |_| {})
            .unwrap();
        // Other firers on the same hex: refused (4.2), horse archers after movement too
        // (R-ITACS-34).
        let e = refused(s.open("missile", &[u["21.05"]], &[u["17.03"]]));
        assert_eq!(
            (e.code.as_str(), e.rule.as_deref()),
            ("battle.once_per_turn", Some("4.2"))
        );
        let e = refused(s.open("horse_archer_fire", &[u["21.05"]], &[u["17.03"]]));
        assert_eq!(e.ruling.as_deref(), Some("R-ITACS-34"));
        // The same firer at another hex: refused.
        let e = refused(s.open("missile", &[u["20.05"]], &[u["18.04"]]));
        assert_eq!(e.field.as_deref(), Some("attackers"));
        // Melee is another attack: the hex fired on may still be attacked in melee.
        s.open("melee", &[u["17.04"]], &[u["17.03"]]).unwrap();

        // Horse archers that fired after movement do not attack in melee (6.2).
        s.fight_it("horse_archer_fire", &[u["21.05"]], &[u["18.04"]], |_| {})
            .unwrap();
        let e = refused(s.open("melee", &[u["21.05"]], &[u["19.04"]]));
        assert_eq!(e.rule.as_deref(), Some("6.2"));
        assert!(
            e.message.contains("instead of melee combat"),
            "{}",
            e.message
        );

        s.record(s.battle.advance_turn(Some(2), None));
        s.open("missile", &[u["20.05"]], &[u["17.03"]]).unwrap();
        s.open("melee", &[u["21.05"]], &[u["19.04"]]).unwrap();
    }

    #[test]
    fn throwing_weapons_are_fired_once_per_game_and_an_undo_gives_them_back() {
        let (mut s, u) = battle();
        let throwing = |situation: &mut serde_json::Value| {
            situation["firing_hexes"][0]["units"][0]["throwing"] = json!(true);
        };
        let (ax, target) = (u["20.04"], u["17.04"]);
        assert!(!s.itacs(ax).threw);
        s.fight_it("defensive_fire", &[ax], &[target], throwing)
            .unwrap();
        assert!(s.itacs(ax).threw, "the battle records the throw");
        assert!(s.ruleset.system.words(s.unit(ax)).summary.contains("threw"));

        // Not this turn, nor the next: once per game.
        s.record(s.battle.advance_turn(Some(2), None));
        let f = s.open("defensive_fire", &[ax], &[target]).unwrap();
        assert!(f.asks.iter().any(|a| a.contains("once per game (6.6)")));
        let e = refused(s.fight_it("defensive_fire", &[ax], &[target], throwing));
        assert_eq!(e.code, "battle.once_per_game");
        assert_eq!(e.rule.as_deref(), Some("6.6"));
        assert_eq!(
            e.message,
            "20.04 (#9) has already fired its throwing weapons in this battle: they are used once per game. Undo that fire first, or fire without them."
        );

        // Undo the first throw: the unit may throw again.
        s.record(s.battle.undo().unwrap());
        assert!(!s.itacs(ax).threw);
        s.fight_it("defensive_fire", &[ax], &[target], throwing)
            .unwrap();
        assert!(s.itacs(ax).threw);
    }
}

#[test]
fn table_1_10_leaves_a_gts_leader_hurt_until_the_turn_ends_and_his_unit_fights_so() {
    // R-GTS-25: results 2–5 and 8's −1 within 6" land on the roster through the apply path and
    // end when the battle's turn advances: dazed and unhorsed leaders are themselves again, the
    // seriously wounded one passes out, the wound stays. Every step replays to the same state.
    let mut s = Script::new("gts", json!([{"name": "Spartans"}, {"name": "Persians"}]));
    let stats = json!({ "class": "infantry", "weapon": "SP", "armour": "M", "stands": 4 });
    let [dazed, wounded, unhorsed, bleeding, fallen, near] =
        ["Dazed", "Wounded", "Unhorsed", "Bleeding", "Fallen", "Near"]
            .map(|l| s.add(l, "Spartans", Role::Unit, stats.clone()));
    let persians = s.add("Immortals", "Persians", Role::Unit, stats.clone());
    // Result 8's units within 6" of him, as the players picked them (R-GTS-33).
    let near_key = "within_6:the leader".to_string();
    for (id, roll) in [
        (dazed, 2),
        (wounded, 3),
        (unhorsed, 4),
        (bleeding, 5),
        (fallen, 8),
    ] {
        let r = s.resolve("leader_casualty", &json!({}), &[1, roll]);
        let (leader, nearby) = ([id], [near]);
        let mut targets: Vec<(&str, &[UnitId])> = vec![("unit:the leader", &leader)];
        if roll == 8 {
            targets.push((near_key.as_str(), &nearby));
        }
        s.apply(&r, mapping(&targets));
    }
    let fates = |s: &Script| {
        [dazed, wounded, unhorsed, bleeding, fallen, near].map(|id| {
            (
                s.unit(id).leader,
                s.unit(id).leader_wounds,
                s.gts(id).near_fallen_leader,
            )
        })
    };
    assert_eq!(
        fates(&s),
        [
            (Some(LeaderFate::Dazed), 0, false),
            (None, 1, false),
            (Some(LeaderFate::Unhorsed), 0, false),
            (Some(LeaderFate::SeriouslyWounded), 0, false),
            (Some(LeaderFate::Killed), 0, false),
            (None, 0, true),
        ]
    );
    assert!(s
        .ruleset
        .system
        .words(s.unit(dazed))
        .summary
        .contains("leader dazed"));
    // The unit whose leader fell fights on: only a leader's own row is lost with him.
    assert!(!s.unit(fallen).lost);
    assert!(s.unit(fallen).strength > 0);
    // The dazed leader's unit fights with −1 valour; the unit near the fallen leader at −1.
    let opened = fight(
        &s.ruleset,
        &s.battle.state,
        "melee",
        &[dazed, near],
        &[persians],
    )
    .unwrap();
    assert_eq!(
        opened.situation["side_a"][0]["leader_condition"],
        json!("dazed")
    );
    assert_eq!(
        opened.situation["side_a"][1]["near_fallen_leader"],
        json!(true)
    );
    let r = s.ruleset.resolve("melee", &opened.situation, None).unwrap();
    assert!(r
        .modifiers
        .iter()
        .any(|m| m.value == -1 && m.ruling.as_deref() == Some("R-GTS-25")));
    s.record(s.battle.advance_turn(Some(2), None));
    assert_eq!(
        fates(&s),
        [
            (None, 0, false),
            (None, 1, false),
            (None, 0, false),
            (Some(LeaderFate::PassedOut), 0, false),
            (Some(LeaderFate::Killed), 0, false),
            (None, 0, false),
        ]
    );
    let opened = fight(
        &s.ruleset,
        &s.battle.state,
        "melee",
        &[dazed, wounded],
        &[persians],
    )
    .unwrap();
    assert!(opened.situation["side_a"][0]
        .get("leader_condition")
        .is_none());
    assert_eq!(opened.situation["side_a"][1]["leader_wounds"], json!(1));
    // A passed-out leader takes no later wound.
    let r = s.resolve("leader_casualty", &json!({}), &[1, 2]);
    s.apply(&r, mapping(&[("unit:the leader", &[bleeding])]));
    assert_eq!(s.unit(bleeding).leader, Some(LeaderFate::PassedOut));
}

/// What a leader's row takes, a unit's riding leader, and changes a unit's rules do not make.
#[test]
fn leader_rows_riding_leaders_and_foreign_changes_land_as_the_rules_say() {
    let mut s = Script::new("itacs", json!([{"name": "Romans"}, {"name": "Gauls"}]));
    let caesar = s.add("Caesar", "Romans", Role::Leader, json!({"bonus": 2}));
    let legion = s.add(
        "Legio I",
        "Romans",
        Role::Unit,
        json!({"type": "SD", "count": 2}),
    );
    // Battles recorded before units were typed offered every quick edit on a leader's row: a
    // marker has nothing to land on (and is no conflict), a loss takes the row off the table.
    for change in [
        Change::DMarkers { count: 1 },
        Change::LoseUnits {
            count: 1,
            chosen_by: Chooser::Defender,
        },
    ] {
        let body = s
            .battle
            .adjust(&s.ruleset, Subject::Unit(caesar), change, None)
            .unwrap();
        s.record(body);
    }
    assert!(s.unit(caesar).lost);
    assert!(s.battle.state.conflicts.is_empty());
    // A unit whose riding leader is killed keeps its place, and an edit of it too.
    let r = Resolution::certain(
        "itacs",
        "leader_fate",
        "killed",
        "killed",
        vec![crate::contract::effect(
            crate::contract::Target::Unit("Legio I".into()),
            Change::LeaderKilled,
            "6.1.4",
            None,
        )],
    );
    s.apply(&r, mapping(&[("unit:Legio I", &[legion])]));
    assert_eq!(s.unit(legion).leader, Some(LeaderFate::Killed));
    assert!(!s.unit(legion).lost);
    let body = s
        .battle
        .edit_unit(
            &s.ruleset,
            legion,
            UnitSpec {
                label: "Legio II".into(),
                side: "Romans".into(),
                command: None,
                role: Role::Unit,
                stats: json!({"type": "SD", "count": 2}),
            },
        )
        .unwrap();
    s.record(body);
    assert!(!s.unit(legion).lost, "the edit keeps the unit on the table");
    // A change no ITACS result makes is refused before anything is written, by hand or applied.
    let hits = Change::Hits { count: 2 };
    let e = s
        .battle
        .adjust(&s.ruleset, Subject::Unit(legion), hits.clone(), None)
        .unwrap_err();
    assert_eq!(e.code, "battle.not_a_change_of_these_rules");
    let foreign = Resolution::certain(
        "itacs",
        "markers",
        "hits",
        "hits",
        vec![crate::contract::effect(
            crate::contract::Target::Unit("Legio II".into()),
            hits,
            "5.0",
            None,
        )],
    );
    let e = s
        .battle
        .apply(
            &s.ruleset,
            &foreign,
            &mapping(&[("unit:Legio II", &[legion])]),
            DiceSource::None,
            None,
            None,
        )
        .unwrap_err();
    assert_eq!(e.code, "battle.not_a_change_of_these_rules");
}

/// How an element left the table is the battle's to write: an element entered with it is refused;
/// an edit recorded before elements were typed, which carried it back, is read without it.
#[test]
fn a_dbmm_elements_state_is_the_battles_not_the_umpires() {
    let mut s = Script::new("dbmm", json!([{"name": "Romans"}, {"name": "Gauls"}]));
    let e = s
        .battle
        .add_unit(
            &s.ruleset,
            UnitSpec {
                label: "Bd".into(),
                side: "Romans".into(),
                command: None,
                role: Role::Unit,
                stats: json!({"type": "Bd", "grade": "O", "state": "destroyed"}),
            },
        )
        .unwrap_err();
    assert!(
        e.field.as_deref().unwrap().starts_with("unit.stats"),
        "{e:?}"
    );
    let bd = s.add(
        "Bd",
        "Romans",
        Role::Unit,
        json!({"type": "Bd", "grade": "O"}),
    );
    let body = s
        .battle
        .adjust(
            &s.ruleset,
            Subject::Unit(bd),
            Change::ElementFate {
                fate: crate::fate::Fate::Spent.into(),
            },
            None,
        )
        .unwrap();
    s.record(body);
    s.record(EventBody::UnitEdited {
        id: bd,
        unit: UnitSpec {
            label: "Bd (S)".into(),
            side: "Romans".into(),
            command: None,
            role: Role::Unit,
            stats: json!({"type": "Bd", "grade": "S", "state": "spent"}),
        },
    });
    let u = s.unit(bd);
    assert!(u.lost);
    assert_eq!(
        u.detail::<crate::systems::dbmm::DbmmElement>()
            .unwrap()
            .state,
        crate::systems::dbmm::morale::ElementState::Spent
    );
}

/// 8.1.5, 6.1.7: a grand leader's death costs every unit of his side 1 SP (not the enemy's, not
/// the other leaders) and gives the enemy 12 boxes; a leader's death needs his command on the
/// roster, or the umpire's own pick of his units (8.1.4, R-MED-35).
#[test]
fn a_grand_leaders_death_lands_on_his_whole_side() {
    let mut s = Script::new(
        "medieval",
        json!([{ "name": "Order", "commands": ["Vanguard"] }, { "name": "Poles", "commands": ["Royal", "Banners"] }]),
    );
    let cav = json!({ "type": "light_cavalry", "sp": 2 });
    let jagiello = s.add_to("Jagiełło", "Poles", Some("Royal"), Role::Leader, json!({}));
    let zyndram = s.add_to("Zyndram", "Poles", None, Role::Leader, json!({}));
    let royal = s.add_to(
        "Court banner",
        "Poles",
        Some("Royal"),
        Role::Unit,
        cav.clone(),
    );
    let other = s.add_to(
        "Land banner",
        "Poles",
        Some("Banners"),
        Role::Unit,
        cav.clone(),
    );
    let knights = s.add_to(
        "Knights",
        "Order",
        Some("Vanguard"),
        Role::Unit,
        cav.clone(),
    );
    let death = s.resolve(
        "leader_death",
        &json!({ "retreat": 2, "grand_leader": true }),
        &[1, 1],
    );
    s.apply(&death, mapping(&[("unit:leader", &[jagiello])]));
    assert!(s.unit(jagiello).lost);
    assert_eq!(s.unit(royal).strength, 1);
    assert_eq!(s.unit(other).strength, 1);
    assert_eq!(s.unit(knights).strength, 2);
    assert!(!s.unit(zyndram).lost, "another leader loses no SP");
    assert_eq!(s.battle.state.morale_track, 12);
    // Zyndram has no command on the roster: his death asks for it, or for his units.
    let death = s.resolve("leader_death", &json!({ "retreat": 2 }), &[1, 1]);
    let e = s
        .battle
        .apply(
            &s.ruleset,
            &death,
            &mapping(&[("unit:leader", &[zyndram])]),
            DiceSource::Physical,
            None,
            None,
        )
        .unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.field.as_deref()),
        ("battle.no_command", Some("targets.command:leader"))
    );
    s.apply(
        &death,
        mapping(&[("unit:leader", &[zyndram]), ("command:leader", &[other])]),
    );
    assert_eq!(s.unit(other).strength, 0);
    assert!(s.unit(other).lost);
    assert_eq!(s.unit(royal).strength, 1);
    // 8.1.6: the unit his death eliminated moves nothing; his death, 8 boxes.
    assert_eq!(s.battle.state.morale_track, 20);
    // A leader not on the roster (mapped to none, "Apply anyway"): what lands on his side or
    // command from him is left out with him, and the result is still recorded.
    let before = s.battle.state.clone();
    let death = s.resolve(
        "leader_death",
        &json!({ "retreat": 2, "grand_leader": true }),
        &[1, 1],
    );
    s.apply(&death, mapping(&[("unit:leader", &[])]));
    assert_eq!(s.battle.state.units, before.units, "no unit changed");
}
