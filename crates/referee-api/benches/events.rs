//! An event at size (issue 37): 200 battle files imported into a 100-player, 4-round Swiss DBMM
//! event and ranked. The files are made first (each a battle another table's device exported);
//! what is timed is a fresh database, the event created with its players, each round paired and
//! its 50 files imported (each read whole: its hash chain checked, its events folded, its verdict
//! taken), and the standings. Run with `cargo bench -p referee-api --bench events`.

// The bench uses the files, not the victory points the tests check them by.
#[allow(dead_code)]
#[path = "../tests/support/event_files.rs"]
mod event_files;

use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use event_files::{battle_file, Margin};
use referee_api::{Battles, NewEvent, Referee};
use referee_core::tournament::{FirstRound, PairingMethod, Player};

const PLAYERS: u32 = 100;
const ROUNDS: u32 = 4;

fn new_event() -> NewEvent {
    NewEvent {
        name: "Bench open".into(),
        rulesets: vec!["dbmm".into()],
        scoring: "dbmm-25".into(),
        pairing: PairingMethod::Swiss,
        first_round: FirstRound::Seeded,
        rounds: ROUNDS,
    }
}

fn decided(a: &str, b: &str) -> (String, Margin) {
    let seed = |n: &str| n[1..].parse::<u32>().unwrap();
    let winner = if seed(a) < seed(b) { a } else { b };
    let margin = if (seed(a) + seed(b)) % 3 == 0 {
        Margin::Crushing
    } else {
        Margin::Narrow
    };
    (winner.to_string(), margin)
}

/// Runs the event: with `files` empty, makes each game's file (returned, round by round, table
/// by table); with them, imports them. Returns the files and how long the event took.
fn run(referee: &Referee, files: &[String]) -> (Vec<String>, Duration) {
    let dir = tempfile::tempdir().unwrap();
    let mut made = Vec::new();
    let mut maker = Battles::open(&dir.path().join("files.db")).unwrap();
    let start = Instant::now();
    let mut battles = Battles::open(&dir.path().join("event.db")).unwrap();
    let event = battles.event_create(referee, &new_event()).unwrap().id;
    for i in 1..=PLAYERS {
        let player = Player {
            name: format!("P{i:03}"),
            army: format!("Army {i}"),
            withdrawn: false,
        };
        battles.event_player_add(referee, event, &player).unwrap();
    }
    let mut next = files.iter();
    let mut making = Duration::ZERO;
    for round in 1..=ROUNDS {
        let view = battles.event_pair(referee, event, round).unwrap();
        let games = view.tournament.rounds.last().unwrap().games.clone();
        for g in games {
            let file = match next.next() {
                Some(f) => f.clone(),
                None => {
                    let t = Instant::now();
                    let (winner, margin) = decided(&g.pairing.a, &g.pairing.b);
                    let f = battle_file(
                        &mut maker,
                        referee,
                        &g.pairing.a,
                        &g.pairing.b,
                        &winner,
                        margin,
                    );
                    making += t.elapsed();
                    made.push(f.clone());
                    f
                }
            };
            battles
                .event_result_import(referee, event, round, g.pairing.table, &file)
                .unwrap();
        }
    }
    let view = battles.event_view(referee, event).unwrap();
    assert_eq!(view.standings.len(), PLAYERS as usize);
    (made, start.elapsed() - making)
}

fn bench(c: &mut Criterion) {
    let referee = Referee::builtin();
    let (files, _) = run(&referee, &[]);
    assert_eq!(files.len(), (PLAYERS / 2 * ROUNDS) as usize);
    let mut g = c.benchmark_group("event");
    g.sample_size(10);
    g.bench_function("import_200_battle_files_and_rank", |b| {
        b.iter_custom(|iters| (0..iters).map(|_| run(&referee, &files).1).sum())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
