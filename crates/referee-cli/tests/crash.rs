//! Crash safety: a scripted battle is killed with SIGKILL at random points, again and again; every
//! event the process reported committed must be in the database afterwards, with the same content
//! as the uninterrupted run's event at that place (body compared in full, each event's hash
//! verified on opening), the database must pass `PRAGMA integrity_check`, and the battle must still
//! fold. `CRASH_KILLS` sets how many
//! kills (default 200); `bench/crash.sh` runs it as a standalone report.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};

use referee_api::{Battles, Referee};

/// A scripted ITACS battle: units, then adjustments, applied results, undo and redo.
fn script() -> Value {
    let mut steps = Vec::new();
    for i in 0..8 {
        let side = if i % 2 == 0 { "Romans" } else { "Gauls" };
        steps.push(json!({"op": "add_unit", "unit": {"label": format!("u{i}"), "side": side, "stats": {"type": "SD", "count": 4}}}));
    }
    let melee = json!({
        "attackers": [{ "label": "a", "units": [{ "type": "SD", "count": 4 }] }],
        "defenders": [{ "label": "d", "terrain": "clear", "units": [{ "type": "SD", "count": 4 }] }]
    });
    for i in 0..60u32 {
        let unit = 1 + (i % 8);
        steps.push(match i % 6 {
            0 => json!({"op": "adjust", "subject": {"unit": unit}, "change": {"kind": "d_markers", "count": 1}}),
            1 => json!({"op": "adjust", "subject": {"unit": unit}, "change": {"kind": "remove_d_markers", "count": 1}}),
            2 => json!({"op": "apply", "action": "melee", "situation": melee, "dice": {"kind": "app", "seed": i},
                        "mapping": {"targets": {"attacker": [], "defender": []}}}),
            3 => json!({"op": "undo"}),
            4 => json!({"op": "redo"}),
            _ => json!({"op": "turn"}),
        });
    }
    json!({"battle": {"name": "Crash", "ruleset": "itacs", "sides": [{"name": "Romans"}, {"name": "Gauls"}]}, "steps": steps})
}

/// A small xorshift: the kill times are reproducible from `CRASH_SEED`.
struct Xorshift(u64);
impl Xorshift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn sigkill_at_random_points_loses_no_committed_event() {
    let kills: u32 = std::env::var("CRASH_KILLS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let seed: u64 = std::env::var("CRASH_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5EED);
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("referee.db");
    let script_path = dir.path().join("script.json");
    std::fs::write(&script_path, script().to_string()).unwrap();
    let referee = Referee::builtin();
    let mut rng = Xorshift(seed | 1);
    // How long a whole run takes uninterrupted, to kill anywhere inside it.
    let started = std::time::Instant::now();
    let full = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(["battle", "script"])
        .arg(&script_path)
        .env("REFEREE_DB", &db)
        .output()
        .unwrap();
    assert!(
        full.status.success(),
        "{}",
        String::from_utf8_lossy(&full.stderr)
    );
    let span = started.elapsed().as_millis().max(20) as u64;
    // The steps the script reports, one JSON line each.
    let steps = String::from_utf8_lossy(&full.stdout).lines().count() as u64;
    // The events of the uninterrupted run: every killed run's events must be a prefix of them.
    let reference: Vec<Value> = {
        let mut battles = Battles::open(&db).unwrap();
        let file = serde_json::to_value(battles.export(&referee, 1).unwrap()).unwrap();
        file["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["body"].clone())
            .collect()
    };
    let mut compared = 0u64;

    let (mut committed_total, mut recovered_total, mut integrity_ok, mut mid_run) =
        (0u64, 0u64, 0u32, 0u32);
    for _ in 0..kills {
        let mut child = Command::new(env!("CARGO_BIN_EXE_referee"))
            .args(["battle", "script"])
            .arg(&script_path)
            .env("REFEREE_DB", &db)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let lines: Arc<Mutex<Vec<Value>>> = Arc::default();
        let reader = {
            let lines = lines.clone();
            let out = child.stdout.take().unwrap();
            std::thread::spawn(move || {
                for line in BufReader::new(out).lines().map_while(Result::ok) {
                    if let Ok(v) = serde_json::from_str::<Value>(&line) {
                        lines.lock().unwrap().push(v);
                    }
                }
            })
        };
        // Killed after a random number of steps reported committed, then a random moment more:
        // anywhere inside the run however fast or slow the machine is today.
        let after = rng.next() % steps.max(1);
        let waiting = std::time::Instant::now();
        while (lines.lock().unwrap().len() as u64) < after
            && child.try_wait().unwrap().is_none()
            && waiting.elapsed() < Duration::from_millis(span.saturating_mul(4))
        {
            std::thread::sleep(Duration::from_micros(200));
        }
        std::thread::sleep(Duration::from_micros(rng.next() % 3000));
        let finished = child.try_wait().unwrap().is_some();
        child.kill().ok(); // SIGKILL on Unix
        child.wait().unwrap();
        reader.join().unwrap();
        if !finished {
            mid_run += 1;
        }
        let lines = lines.lock().unwrap();
        let battle = lines
            .iter()
            .find_map(|l| l.get("battle").and_then(Value::as_i64));
        let last = lines
            .iter()
            .filter_map(|l| l.get("event").and_then(Value::as_u64))
            .max();

        let mut battles = Battles::open(&db).expect("the database opens after a kill");
        assert_eq!(battles.store().integrity_check().unwrap(), "ok");
        integrity_ok += 1;
        if let (Some(battle), Some(last)) = (battle, last) {
            let view = battles
                .view(&referee, battle)
                .expect("the battle still folds");
            let stored = view.log.last().map_or(0, |l| l.seq);
            assert!(
                stored >= last,
                "battle {battle}: {last} reported committed, {stored} stored"
            );
            committed_total += last;
            recovered_total += stored;
            let file = serde_json::to_value(battles.export(&referee, battle).unwrap()).unwrap();
            let bodies: Vec<&Value> = file["events"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| &e["body"])
                .collect();
            assert!(
                bodies.len() <= reference.len(),
                "battle {battle}: more events than the script makes"
            );
            for (i, body) in bodies.iter().enumerate() {
                assert_eq!(
                    **body,
                    reference[i],
                    "battle {battle}: event {} differs from the uninterrupted run's",
                    i + 1
                );
            }
            compared += bodies.len() as u64;
        }
    }
    eprintln!(
        "crash: {kills} kills ({mid_run} mid-run), {committed_total} events reported committed, {recovered_total} events recovered, {compared} compared in full with the uninterrupted run's (all equal, every hash verified), integrity_check ok {integrity_ok}/{kills}"
    );
    assert!(
        mid_run > kills / 2,
        "most kills must land mid-run to prove anything ({mid_run}/{kills})"
    );
}
