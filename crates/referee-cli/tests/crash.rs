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

/// One operation a kill may interrupt, besides battle writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Operation {
    Backup,
    /// The day's backup, taken before a turn of the "Daily" battle.
    DailyBackup,
    Restore,
    Import,
}

/// The battles of a database: name and events, by id (a database is opened to read them: a
/// clean start, which also clears what a killed backup or restore left).
fn battles_of(db: &std::path::Path) -> std::collections::BTreeMap<i64, (String, i64)> {
    let mut battles = Battles::open(db).expect("the database opens after a kill");
    battles
        .list()
        .unwrap()
        .into_iter()
        .map(|b| (b.id, (b.name, b.events)))
        .collect()
}

/// Runs `referee ARGS`, killed with SIGKILL after `after` unless it finished; answers whether it
/// finished, and its output.
fn killed_after(db: &std::path::Path, args: &[&str], after: Duration) -> (bool, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(args)
        .env("REFEREE_DB", db)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while started.elapsed() < after && child.try_wait().unwrap().is_none() {
        std::thread::sleep(Duration::from_micros(200));
    }
    let finished = matches!(child.try_wait(), Ok(Some(s)) if s.success());
    child.kill().ok();
    let out = child.wait_with_output().unwrap();
    (finished, String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn sigkill_during_backups_restores_and_imports_loses_nothing() {
    let kills: u32 = std::env::var("CRASH_OPERATION_KILLS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40);
    let seed: u64 = std::env::var("CRASH_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5EED);
    let mut rng = Xorshift(seed.rotate_left(17) | 1);
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("referee.db");
    let script_path = dir.path().join("script.json");
    std::fs::write(&script_path, script().to_string()).unwrap();
    let referee = Referee::builtin();
    // The scripted battle played whole, a battle for the daily backups, its export, a backup.
    let full = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(["battle", "script"])
        .arg(&script_path)
        .env("REFEREE_DB", &db)
        .output()
        .unwrap();
    assert!(full.status.success());
    let file = dir.path().join("crash.json");
    let (reference, backup) = {
        let mut battles = Battles::open(&db).unwrap();
        let new = serde_json::from_value(
            json!({"name": "Daily", "ruleset": "itacs", "sides": [{"name": "A"}, {"name": "B"}]}),
        )
        .unwrap();
        battles.create(&referee, &new).unwrap();
        std::fs::write(&file, battles.export_text(&referee, 1).unwrap()).unwrap();
        let backup = battles.backup().unwrap();
        let reference: Vec<Value> = serde_json::to_value(battles.export(&referee, 1).unwrap())
            .unwrap()["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["body"].clone())
            .collect();
        (
            reference,
            backup.file_name().unwrap().to_str().unwrap().to_string(),
        )
    };
    let daily = battles_of(&db)
        .into_iter()
        .find(|(_, (name, _))| name == "Daily")
        .unwrap()
        .0
        .to_string();
    let restored = battles_of(&db);
    // How long each operation takes uninterrupted, to kill anywhere inside it.
    let span = |args: &[&str]| {
        let started = std::time::Instant::now();
        let (finished, _) = killed_after(&db, args, Duration::from_secs(60));
        assert!(finished, "{args:?}");
        started.elapsed()
    };
    let backup_args = ["db", "backup"];
    let daily_args = ["battle", "turn", daily.as_str()];
    let restore_args = ["db", "restore", backup.as_str()];
    let import_args = ["battle", "import", file.to_str().unwrap()];
    let spans = [
        (Operation::Backup, span(&backup_args)),
        (Operation::DailyBackup, span(&daily_args)),
        (Operation::Restore, span(&restore_args)),
        (Operation::Import, span(&import_args)),
    ];
    let backups_dir = dir.path().join("backups");
    let (mut compared, mut cleared, mut mid_run, mut done) = (0u64, 0usize, 0u32, [0u32; 4]);
    for k in 0..kills {
        let (operation, took) = spans[k as usize % spans.len()];
        let args: &[&str] = match operation {
            Operation::Backup => &backup_args,
            Operation::DailyBackup => {
                // No daily backup yet today: the turn takes one first.
                for entry in std::fs::read_dir(&backups_dir).unwrap() {
                    let path = entry.unwrap().path();
                    if path.to_string_lossy().contains("-daily.db") {
                        std::fs::remove_file(path).unwrap();
                    }
                }
                &daily_args
            }
            Operation::Restore => &restore_args,
            Operation::Import => &import_args,
        };
        let before = battles_of(&db);
        let after_micros = rng.next() % (took.as_micros() as u64 * 3 / 2).max(1);
        let (finished, out) = killed_after(&db, args, Duration::from_micros(after_micros));
        if finished {
            done[k as usize % spans.len()] += 1;
        } else {
            mid_run += 1;
        }
        // What a kill left, then a clean start clears it: none may be left after.
        cleared += referee_api::leftovers(&db).len();
        let now = battles_of(&db);
        let left = referee_api::leftovers(&db);
        assert!(left.is_empty(), "left after a clean start: {left:?}");
        let mut battles = Battles::open(&db).unwrap();
        assert_eq!(battles.store().integrity_check().unwrap(), "ok");
        let check = battles.check(&referee).unwrap();
        assert!(check.damage.is_empty(), "{:?}", check.damage);
        // Nothing committed before the operation is lost: it is in the database, or — a restore
        // that committed — in the copy the restore kept of what it replaced.
        let kept = if now == before {
            before.clone()
        } else if operation == Operation::Restore {
            assert_eq!(
                now, restored,
                "a restore puts the backup's battles back whole"
            );
            let copy = referee_api::backups_at(&db)
                .backups
                .into_iter()
                .find(|b| b.reason == referee_api::BackupReason::BeforeRestore)
                .expect("the copy of what the restore replaced");
            battles_of(&backups_dir.join(copy.id))
        } else {
            now.clone()
        };
        for (id, (name, events)) in &before {
            let (kept_name, kept_events) = kept.get(id).expect("no battle lost");
            assert_eq!(kept_name, name);
            assert!(kept_events >= events, "{name}: events lost");
        }
        // An import is whole or absent; a finished one is there.
        if operation == Operation::Import && finished {
            assert!(out.contains("\"id\""), "{out}");
            assert_eq!(now.len(), before.len() + 1, "a finished import is stored");
        }
        // Every battle's events, compared in full: the scripted battle and its imports with the
        // uninterrupted run's events; every battle opened (check above replayed each).
        for (id, (name, events)) in &now {
            if name == "Crash" {
                let exported =
                    serde_json::to_value(battles.export(&referee, *id).unwrap()).unwrap();
                let bodies: Vec<&Value> = exported["events"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|e| &e["body"])
                    .collect();
                assert_eq!(bodies.len(), reference.len(), "battle {id}: whole");
                for (i, body) in bodies.iter().enumerate() {
                    assert_eq!(**body, reference[i], "battle {id}: event {}", i + 1);
                }
            }
            compared += u64::try_from(*events).unwrap();
        }
        drop(battles);
        // A finished backup is listed; a finished daily turn took one.
        if finished && operation == Operation::Backup {
            let v: Value = serde_json::from_str(&out).unwrap();
            assert!(std::path::Path::new(v["backup"].as_str().unwrap()).exists());
        }
        if finished && operation == Operation::DailyBackup {
            assert!(referee_api::backups_at(&db)
                .backups
                .iter()
                .any(|b| b.reason == referee_api::BackupReason::Daily));
        }
        // The database stays small enough to keep the test quick: imports are let go.
        if now.len() > 6 {
            let mut battles = Battles::open(&db).unwrap();
            for id in now.keys().filter(|id| **id > 2) {
                battles.delete(*id).unwrap();
            }
        }
    }
    eprintln!(
        "crash operations: {kills} kills ({mid_run} mid-operation; finished: {} backups, {} daily backups, {} restores, {} imports), {compared} events compared, leftovers {cleared} cleared on start and 0 left",
        done[0], done[1], done[2], done[3]
    );
    assert!(
        mid_run > kills / 3,
        "most kills must land mid-operation to prove anything ({mid_run}/{kills})"
    );
}
