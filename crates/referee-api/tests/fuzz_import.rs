//! Fuzzing battle import: an exported battle file (every system), mutated at random (seeded), is
//! read and checked in full; it must never panic, and whatever it accepts must fold, be stored,
//! reopen from the database as the same battle, and take one more event (a turn). Half the files
//! lose their hashes first (a file from before version 4), so mutations reach past the chain. A
//! short pass runs in `npm test`; `bash bench/fuzz.sh` runs a million (`FUZZ_IMPORT_ITERATIONS`,
//! `FUZZ_SEED`).

use std::panic::{catch_unwind, AssertUnwindSafe};

use serde_json::{json, Value};

use referee_api::{
    read_battle_file, AppDice, ApplyRequest, Battles, DiceEntry, NewBattle, Referee,
};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Battle files of each system, exported from real battles.
fn corpus(referee: &Referee) -> Vec<Value> {
    let dir = tempfile::tempdir().unwrap();
    let mut battles = Battles::open(&dir.path().join("referee.db")).unwrap();
    let mut files = Vec::new();
    let setups = [
        (
            "itacs",
            json!({"type": "SD", "count": 4}),
            json!({"type": "PS", "count": 2}),
            "melee",
            json!({"attackers": [{"label": "a", "units": [{"type": "SD", "count": 4}]}], "defenders": [{"label": "d", "terrain": "clear", "units": [{"type": "PS", "count": 2}]}]}),
        ),
        (
            "medieval",
            json!({"type": "heavy_cavalry", "sp": 2, "cf": 2}),
            json!({"type": "light_cavalry", "sp": 2, "cf": 1}),
            "combat",
            json!({"attackers": [{"units": [{"type": "heavy_cavalry", "sp": 2, "cf": 2}]}], "defenders": [{"terrain": "clear", "units": [{"type": "light_cavalry", "sp": 2, "cf": 1}]}]}),
        ),
        (
            "gts",
            json!({"class": "infantry", "weapon": "BW", "armour": "N", "stands": 3}),
            json!({"class": "infantry", "weapon": "SP", "armour": "M", "stands": 3}),
            "fire",
            json!({"firer": {"class": "infantry", "weapon": "BW", "armour": "N", "stands": 3}, "target": {"class": "infantry", "weapon": "SP", "armour": "M", "stands": 3}, "range": 1.5}),
        ),
        (
            "dbmm",
            json!({"type": "Kn", "grade": "O"}),
            json!({"type": "Bd", "grade": "O"}),
            "close_combat",
            json!({"a": {"element": {"type": "Kn", "grade": "O", "name": "a"}}, "b": {"element": {"type": "Bd", "grade": "O", "name": "d"}}, "bound": "a"}),
        ),
    ];
    for (ruleset, a, d, action, situation) in setups {
        let new: NewBattle = serde_json::from_value(json!({"name": ruleset, "ruleset": ruleset, "sides": [{"name": "A", "panic_level": 5}, {"name": "B"}]})).unwrap();
        let id = battles.create(referee, &new).unwrap().id;
        battles
            .add_unit(
                referee,
                id,
                serde_json::from_value(json!({"label": "a", "side": "A", "stats": a})).unwrap(),
            )
            .unwrap();
        battles
            .add_unit(
                referee,
                id,
                serde_json::from_value(json!({"label": "d", "side": "B", "stats": d})).unwrap(),
            )
            .unwrap();
        // Every effect target on the roster: attacker → a, the rest → d.
        let r = referee
            .ruleset(ruleset)
            .unwrap()
            .resolve(action, &situation, None)
            .unwrap();
        let mut targets = serde_json::Map::new();
        for o in &r.distribution {
            for e in &o.effects {
                let key = referee_core::battle::target_key(&e.target);
                if !key.starts_with("army:") {
                    targets.insert(
                        key.clone(),
                        json!(if key == "attacker" || key == "unit:a" {
                            [1]
                        } else {
                            [2]
                        }),
                    );
                }
            }
        }
        let apply = ApplyRequest {
            action: action.into(),
            situation,
            dice: DiceEntry::App(AppDice { seed: Some(3) }),
            mapping: serde_json::from_value(json!({"targets": targets})).unwrap(),
            rolled_by: Some("fuzz".into()),
            apply_key: None,
        };
        battles.apply(referee, id, &apply).unwrap();
        battles.undo(referee, id).unwrap();
        battles.redo(referee, id).unwrap();
        files.push(serde_json::to_value(battles.export(referee, id).unwrap()).unwrap());
    }
    files
}

fn random_value(rng: &mut Rng) -> Value {
    match rng.below(9) {
        0 => Value::Null,
        1 => json!(rng.below(2) == 0),
        2 => json!(rng.below(20) as i64 - 5),
        3 => json!(i64::MAX - rng.below(3) as i64),
        4 => json!(-1e300),
        5 => {
            let words = [
                "",
                "itacs",
                "unit",
                "A",
                "applied",
                "d_markers",
                "lose_units",
                "undone",
                "created",
            ];
            json!(words[rng.below(9) as usize])
        }
        6 => json!([]),
        7 => json!({}),
        _ => {
            let kinds = [
                "created",
                "unit_added",
                "applied",
                "adjusted",
                "turn_advanced",
                "undone",
                "redone",
                "roll_edited",
                "unit_edited",
                "unit_removed",
            ];
            json!({ "kind": kinds[rng.below(kinds.len() as u64) as usize] })
        }
    }
}

/// One random change somewhere in the tree.
fn mutate(v: &mut Value, rng: &mut Rng, depth: u32) {
    let descend = depth < 12 && rng.below(3) != 0;
    match v {
        Value::Object(map) if !map.is_empty() && descend => {
            let key = map
                .keys()
                .nth(rng.below(map.len() as u64) as usize)
                .unwrap()
                .clone();
            mutate(map.get_mut(&key).unwrap(), rng, depth + 1);
        }
        Value::Array(items) if !items.is_empty() && descend => {
            let i = rng.below(items.len() as u64) as usize;
            match rng.below(6) {
                0 => {
                    let copy = items[i].clone();
                    items.insert(i, copy);
                }
                1 => {
                    items.remove(i);
                }
                2 => {
                    let j = rng.below(items.len() as u64) as usize;
                    items.swap(i, j);
                }
                _ => mutate(&mut items[i], rng, depth + 1),
            }
        }
        Value::Object(map) if !map.is_empty() && rng.below(2) == 0 => {
            let key = map
                .keys()
                .nth(rng.below(map.len() as u64) as usize)
                .unwrap()
                .clone();
            map.remove(&key);
        }
        _ => *v = random_value(rng),
    }
}

/// A change a battle file could plausibly carry, at the edges of what is allowed: a turn at or
/// past the last one, a seq out of its place or at the integer limits, a last event dropped, a
/// turn, an undo or a redo appended, a time rewritten.
fn plausible(file: &mut Value, rng: &mut Rng) {
    let Some(events) = file.get_mut("events").and_then(Value::as_array_mut) else {
        return;
    };
    let n = events.len() as u64;
    let max = u64::from(referee_api::MAX_TURN);
    let turns = [
        0,
        1,
        2,
        max - 1,
        max,
        max + 1,
        u64::from(u32::MAX),
        rng.below(1 << 33),
    ];
    let seqs = [
        0,
        1,
        n,
        n + 1,
        i64::MAX as u64,
        1 << 63,
        u64::MAX,
        rng.below(n + 2),
    ];
    let pick = |rng: &mut Rng, list: &[u64]| list[rng.below(list.len() as u64) as usize];
    match rng.below(6) {
        0 => {
            let turn = pick(rng, &turns);
            events.push(json!({"seq": n + 1, "at": "2026-01-01T00:00:00.000Z", "body": {"kind": "turn_advanced", "turn": turn}}));
        }
        1 if n > 0 => {
            let i = rng.below(n) as usize;
            let seq = pick(rng, &seqs);
            if let Some(e) = events[i].as_object_mut() {
                e.insert("seq".into(), json!(seq));
            }
        }
        2 if n > 1 => {
            events.pop();
        }
        3 => {
            let kind = if rng.below(2) == 0 {
                "undone"
            } else {
                "redone"
            };
            let event = pick(rng, &seqs);
            events.push(json!({"seq": n + 1, "at": "2026-01-01T00:00:00.000Z", "body": {"kind": kind, "event": event}}));
        }
        4 if n > 0 => {
            let i = rng.below(n) as usize;
            let at = ["", "then", "2026-01-01T00:00:00Z", "ü"][rng.below(4) as usize];
            if let Some(e) = events[i].as_object_mut() {
                e.insert("at".into(), json!(at));
            }
        }
        _ => {
            for e in events.iter_mut() {
                let body = e.get_mut("body").and_then(Value::as_object_mut);
                if let Some(body) = body.filter(|b| b.get("kind") == Some(&json!("turn_advanced")))
                {
                    body.insert("turn".into(), json!(pick(rng, &turns)));
                }
            }
        }
    }
}

#[test]
fn mutated_battle_files_never_panic_and_what_is_accepted_folds() {
    let referee = Referee::builtin();
    let files = corpus(&referee);
    for f in &files {
        assert!(
            read_battle_file(&referee, &f.to_string()).is_ok(),
            "the corpus imports"
        );
    }
    let iterations = env("FUZZ_IMPORT_ITERATIONS", 3000);
    let seed = env("FUZZ_SEED", 7);
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let (mut accepted, mut refused, mut unchained) = (0u64, 0u64, 0u64);
    let (mut reopened, mut appended, mut last_turn) = (0u64, 0u64, 0u64);
    // In memory where the system has it: a million runs need not wait for the disk's syncs.
    let dir = match std::path::Path::new("/dev/shm") {
        shm if shm.is_dir() => tempfile::tempdir_in(shm),
        _ => tempfile::tempdir(),
    }
    .unwrap();
    let db = dir.path().join("fuzz.db");
    for n in 0..iterations {
        let mut file = files[(n % files.len() as u64) as usize].clone();
        if rng.below(2) == 0 {
            if let Some(events) = file["events"].as_array_mut() {
                for e in events {
                    e.as_object_mut().unwrap().remove("hash");
                }
            }
        }
        for _ in 0..=rng.below(3) {
            if rng.below(2) == 0 {
                plausible(&mut file, &mut rng);
            } else {
                mutate(&mut file, &mut rng, 0);
            }
        }
        let mut text = file.to_string();
        if rng.below(10) == 0 {
            let cut = rng.below(text.len() as u64) as usize;
            text = text.chars().take(cut).collect();
        }
        let outcome = catch_unwind(AssertUnwindSafe(|| read_battle_file(&referee, &text)));
        match outcome {
            Ok(Ok((_, battle))) => {
                accepted += 1;
                assert!(!battle.events.is_empty());
                let stored = catch_unwind(AssertUnwindSafe(|| {
                    store_reopen_and_append(&referee, &db, &text, &battle)
                }));
                match stored {
                    Ok(Ok(turned)) => {
                        reopened += 1;
                        appended += u64::from(turned);
                        last_turn += u64::from(!turned);
                    }
                    Ok(Err(e)) => panic!(
                        "seed {seed}, iteration {n}: accepted, then refused when stored or reopened ({e:?}): {text}"
                    ),
                    Err(_) => panic!(
                        "seed {seed}, iteration {n}: accepted, then panicked when stored, reopened or written: {text}"
                    ),
                }
            }
            Ok(Err(e)) => {
                refused += 1;
                unchained += u64::from(e.code == "import.damaged");
                assert!(!e.code.as_str().is_empty() && !e.message.is_empty());
            }
            Err(_) => panic!("seed {seed}, iteration {n}: import panicked on {text}"),
        }
    }
    eprintln!("import fuzz: {iterations} files (seed {seed}): {accepted} accepted, {refused} refused with a typed error ({unchained} by the hash chain), 0 panics; of the accepted, {reopened} stored and reopened equal, {appended} took one more turn, {last_turn} refused it at the last turn");
    assert!(refused > 0);
    assert!(
        accepted > 0,
        "some mutated files must be accepted to prove anything"
    );
}

/// Imports an accepted file into a database, reopens it there as a fresh process would (same
/// state, same events), appends a turn and reopens again. `Ok(true)` when the turn was taken,
/// `Ok(false)` when the battle stood at its last turn (refused with its code).
fn store_reopen_and_append(
    referee: &Referee,
    db: &std::path::Path,
    text: &str,
    read: &referee_core::battle::Battle,
) -> Result<bool, referee_api::RefereeError> {
    let id = Battles::open(db)?.import(referee, text)?.id;
    let mut fresh = Battles::open(db)?;
    let view = fresh.view(referee, id)?;
    // Both as the app shows them: every unit in its rules' words.
    let shown = referee.ruleset(&read.state.ruleset)?.worded(&read.state);
    assert_eq!(
        serde_json::to_value(&view.state).unwrap(),
        serde_json::to_value(&shown).unwrap(),
        "the stored battle reopens as it was read"
    );
    assert_eq!(view.events, read.events.len() as u64);
    let turned = match fresh.advance_turn(referee, id, None, None) {
        Ok(v) => {
            assert_eq!(v.events, read.events.len() as u64 + 1);
            true
        }
        Err(e) if e.code == "battle.turn_out_of_range" => {
            assert_eq!(view.state.turn, referee_api::MAX_TURN);
            false
        }
        Err(e) => return Err(e),
    };
    let mut again = Battles::open(db)?;
    let after = again.view(referee, id)?;
    assert_eq!(after.events, read.events.len() as u64 + u64::from(turned));
    // The file written back out imports again (its hashes are whole).
    let exported = serde_json::to_string(&again.export(referee, id)?).unwrap();
    read_battle_file(referee, &exported)?;
    again.delete(id)?;
    Ok(turned)
}
