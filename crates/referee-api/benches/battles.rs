//! Battles at size: 500 units and 20,000 events. Opening (read and fold), applying a resolution
//! (one transaction with synchronous=FULL), opening a fight from picks (which reads every stored
//! situation for the terrain kept in the battle), export and import.

use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::json;
use std::time::{Duration, Instant};

use referee_api::{
    ApplyRequest, Battles, DiceEntry, FightRequest, Mapping, NewBattle, PhysicalDice, Referee,
};
use referee_core::battle::{Battle, BattleSetup, DiceSource, Event, EventBody, Subject, UnitSpec};
use referee_core::contract::Change;

const UNITS: u32 = 500;
const EVENTS: u64 = 20_000;

fn melee() -> serde_json::Value {
    json!({
        "attackers": [{ "label": "a", "units": [{ "type": "SD", "count": 4 }] }],
        "defenders": [{ "label": "d", "terrain": "clear", "units": [{ "type": "SD", "count": 4 }] }]
    })
}

/// A battle file of 500 units and 20,000 events: adjustments, applied melees (with their stored
/// situation and resolution), turns, undo and redo.
fn big_battle_file(referee: &Referee) -> String {
    let ruleset = referee.ruleset("itacs").unwrap();
    let setup = BattleSetup {
        name: "Big".into(),
        ruleset: "itacs".into(),
        fingerprint: ruleset.info.fingerprint.clone(),
        sides: serde_json::from_value(
            json!([{"name": "A", "panic_level": 500}, {"name": "B", "panic_level": 500}]),
        )
        .unwrap(),
    };
    let mut battle = Battle::create(ruleset, setup, "2026-11-21T10:00:00Z").unwrap();
    let mut details = vec![None];
    let push = |battle: &mut Battle,
                body: EventBody,
                detail: Option<serde_json::Value>,
                details: &mut Vec<Option<serde_json::Value>>| {
        let e = Event {
            seq: battle.next_seq(),
            at: "2026-11-21T10:00:01Z".into(),
            body,
        };
        battle.record(ruleset, e).unwrap();
        details.push(detail);
    };
    for i in 0..UNITS {
        let side = if i % 2 == 0 { "A" } else { "B" };
        let spec = UnitSpec {
            label: format!("{i:03}"),
            side: side.into(),
            command: None,
            role: Default::default(),
            stats: json!({"type": "SD", "count": 4}),
        };
        let body = battle.add_unit(ruleset, spec).unwrap();
        push(&mut battle, body, None, &mut details);
    }
    let mut n = 0u32;
    while battle.next_seq() <= EVENTS {
        let unit = 1 + n % UNITS;
        let body = match n % 8 {
            0 | 4 => battle
                .adjust(
                    ruleset,
                    Subject::Unit(unit),
                    Change::DMarkers { count: 1 },
                    None,
                )
                .unwrap(),
            1 | 5 => battle
                .adjust(
                    ruleset,
                    Subject::Unit(unit),
                    Change::RemoveDMarkers { count: 1 },
                    None,
                )
                .unwrap(),
            2 => {
                // The melee's markers land on two live units, never its losses: the roster stays full.
                let r = ruleset.resolve("melee", &melee(), Some(&[1, 1])).unwrap();
                let mapping: Mapping = serde_json::from_value(
                    json!({"targets": {"attacker": [unit], "defender": [1 + (unit % UNITS)]}}),
                )
                .unwrap();
                let body = battle
                    .apply(ruleset, &r, &mapping, DiceSource::Physical, None, None)
                    .unwrap();
                let detail = json!({"situation": melee(), "resolution": r});
                push(&mut battle, body, Some(detail), &mut details);
                n += 1;
                continue;
            }
            3 => battle.undo().unwrap(),
            6 => battle.redo().unwrap_or(EventBody::TurnAdvanced {
                turn: 2,
                phase: None,
            }),
            _ => EventBody::TurnAdvanced {
                turn: 1 + n / 8,
                phase: None,
            },
        };
        push(&mut battle, body, None, &mut details);
        n += 1;
    }
    let file = json!({
        "format": "referee-battle",
        "version": 1,
        "ruleset": "itacs",
        "fingerprint": ruleset.info.fingerprint,
        "events": battle.events.iter().zip(&details).map(|(e, d)| {
            let mut v = json!({"seq": e.seq, "at": e.at, "body": e.body});
            if let Some(d) = d { v["detail"] = d.clone(); }
            v
        }).collect::<Vec<_>>(),
    });
    file.to_string()
}

fn bench(c: &mut Criterion) {
    let referee = Referee::builtin();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("referee.db");
    let file = big_battle_file(&referee);
    let mut battles = Battles::open(&path).unwrap();
    let id = battles.import(&referee, &file).unwrap().id;
    let mut g = c.benchmark_group("battles");
    g.sample_size(10);
    g.bench_function("open_500_units_20000_events", |b| {
        b.iter(|| {
            let mut fresh = Battles::open(&path).unwrap();
            let view = fresh.view(&referee, id).unwrap();
            assert_eq!(view.state.units.len(), UNITS as usize);
        })
    });
    // Each melee picks a pair of units not yet in a melee this turn (4.5.4: a hex is meleed once
    // a turn, a unit attacks once), and a new turn begins, unmeasured, when the pairs run out.
    let request = |attacker: u32| ApplyRequest {
        action: "melee".into(),
        situation: melee(),
        dice: DiceEntry::Physical(PhysicalDice { faces: vec![1, 1] }),
        mapping: serde_json::from_value(
            json!({"targets": {"attacker": [attacker], "defender": [attacker + 1]}}),
        )
        .unwrap(),
        rolled_by: None,
        apply_key: None,
    };
    battles.view(&referee, id).unwrap();
    let mut applied = 0u32;
    g.bench_function("apply_commit_synchronous_full", |b| {
        b.iter_custom(|iters| {
            let mut took = Duration::ZERO;
            for _ in 0..iters {
                let pair = applied % (UNITS / 2);
                if pair == 0 {
                    battles.advance_turn(&referee, id, None, None).unwrap();
                }
                let request = request(1 + 2 * pair);
                let start = Instant::now();
                battles.apply(&referee, id, &request).unwrap();
                took += start.elapsed();
                applied += 1;
            }
            took
        })
    });
    // Opening a fight from two picks re-reads every stored result's situation for the terrain the
    // umpire last gave each hex (issue 31 item 4); the battle's fold is already held. Beside it,
    // the same fight in a battle of two units and no results: the difference is that memory's.
    let picks = |attacker: u32| FightRequest {
        action: "melee".into(),
        attackers: vec![attacker],
        defenders: vec![attacker + 1],
        bound_of: None,
        behind: Vec::new(),
        on_enemy_flank: Vec::new(),
        path: Vec::new(),
        units_moving: None,
    };
    // Two fresh units, with no markers yet: the battle's own have fought (and are disrupted).
    let fresh = |label: &str, side: &str| UnitSpec {
        label: label.into(),
        side: side.into(),
        command: None,
        role: Default::default(),
        stats: json!({"type": "SD", "count": 4}),
    };
    battles
        .add_unit(&referee, id, fresh("fresh a", "A"))
        .unwrap();
    let view = battles
        .add_unit(&referee, id, fresh("fresh b", "B"))
        .unwrap();
    let newest: Vec<u32> = view.state.units.keys().rev().take(2).copied().collect();
    let big_picks = FightRequest {
        attackers: vec![newest[1]],
        defenders: vec![newest[0]],
        ..picks(0)
    };
    g.bench_function("fight_500_units_20000_events", |b| {
        b.iter(|| battles.fight(&referee, id, &big_picks).unwrap())
    });
    let small: NewBattle = serde_json::from_value(json!({"name": "Small", "ruleset": "itacs",
        "sides": [{"name": "A"}, {"name": "B"}],
        "units": [{"label": "a", "side": "A", "stats": {"type": "SD", "count": 4}},
                  {"label": "b", "side": "B", "stats": {"type": "SD", "count": 4}}]}))
    .unwrap();
    let small = battles.create(&referee, &small).unwrap();
    let ids: Vec<u32> = small.state.units.keys().copied().collect();
    let small_picks = FightRequest {
        attackers: vec![ids[0]],
        defenders: vec![ids[1]],
        ..picks(0)
    };
    g.bench_function("fight_2_units_no_events", |b| {
        b.iter(|| battles.fight(&referee, small.id, &small_picks).unwrap())
    });
    g.bench_function("export_20000_events", |b| {
        b.iter(|| serde_json::to_string(&battles.export(&referee, id).unwrap()).unwrap())
    });
    g.bench_function("import_20000_events", |b| {
        b.iter(|| battles.import(&referee, &file).unwrap())
    });
    g.bench_function("create_battle", |b| {
        let new: NewBattle = serde_json::from_value(
            json!({"name": "x", "ruleset": "itacs", "sides": [{"name": "A"}, {"name": "B"}]}),
        )
        .unwrap();
        b.iter(|| battles.create(&referee, &new).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
