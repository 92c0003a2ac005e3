//! Two `referee` processes writing to one database at once, for a few seconds: on the same
//! battle, then on a battle each. Every write takes the write lock first (`BEGIN IMMEDIATE`), so
//! the second writer waits for the first instead of being refused; a command worked out on a
//! battle the other process changed meanwhile is worked out again. Nothing is lost, nothing is
//! duplicated, nothing is refused. `TWO_WRITER_STEPS` sets the writes per process (default 150).

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::Instant;

use serde_json::{json, Value};

use referee_api::{Battles, Referee};

/// A script of `steps` next-turn writes, on the battle `--battle` names or on a new one.
fn script(dir: &Path, name: &str, steps: usize, new_battle: bool) -> std::path::PathBuf {
    let mut script = json!({"steps": vec![json!({"op": "turn"}); steps]});
    if new_battle {
        script["battle"] =
            json!({"name": name, "ruleset": "itacs", "sides": [{"name": "A"}, {"name": "B"}]});
    }
    let path = dir.join(format!("{name}.json"));
    std::fs::write(&path, script.to_string()).unwrap();
    path
}

fn spawn(db: &Path, script: &Path, battle: Option<i64>) -> Child {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_referee"));
    cmd.args(["battle", "script"]).arg(script);
    if let Some(b) = battle {
        cmd.args(["--battle", &b.to_string()]);
    }
    cmd.env("REFEREE_DB", db)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The events each step reported committed, and whether the process was refused anything.
fn reported(out: &Output) -> (Vec<u64>, Option<String>) {
    let events = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|l| l.get("step").is_some())
        .filter_map(|l| l["event"].as_u64())
        .collect();
    let refused = (!out.status.success()).then(|| String::from_utf8_lossy(&out.stderr).into());
    (events, refused)
}

/// The turns of a battle's turn events, in order.
fn turns(battles: &mut Battles, referee: &Referee, id: i64) -> Vec<u64> {
    let file = serde_json::to_value(battles.export(referee, id).unwrap()).unwrap();
    file["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["body"]["kind"] == "turn_advanced")
        .map(|e| e["body"]["turn"].as_u64().unwrap())
        .collect()
}

#[test]
fn two_processes_writing_at_once_lose_duplicate_and_refuse_nothing() {
    let steps: usize = std::env::var("TWO_WRITER_STEPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(150);
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("referee.db");
    let referee = Referee::builtin();
    let shared = {
        let mut battles = Battles::open(&db).unwrap();
        let new = serde_json::from_value(
            json!({"name": "Shared", "ruleset": "itacs", "sides": [{"name": "A"}, {"name": "B"}]}),
        )
        .unwrap();
        battles.create(&referee, &new).unwrap().id
    };

    // One battle, two writers.
    let steps_only = script(dir.path(), "turns", steps, false);
    let started = Instant::now();
    let (a, b) = (
        spawn(&db, &steps_only, Some(shared)),
        spawn(&db, &steps_only, Some(shared)),
    );
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    let same_time = started.elapsed();
    let (mut committed, refused_a) = reported(&a);
    let (from_b, refused_b) = reported(&b);
    committed.extend(from_b);
    let refusals = usize::from(refused_a.is_some()) + usize::from(refused_b.is_some());
    assert_eq!(refused_a, None, "writer A was refused");
    assert_eq!(refused_b, None, "writer B was refused");
    committed.sort_unstable();
    let expected: Vec<u64> = (2..=1 + 2 * steps as u64).collect();
    assert_eq!(
        committed, expected,
        "each write committed once, as its own event"
    );
    let mut battles = Battles::open(&db).unwrap();
    let view = battles.view(&referee, shared).unwrap();
    assert_eq!(
        view.events,
        1 + 2 * steps as u64,
        "nothing lost, nothing doubled"
    );
    // Each next turn was worked out on the battle as the other writer left it: 2, 3, 4…
    let expected_turns: Vec<u64> = (2..=1 + 2 * steps as u64).collect();
    assert_eq!(turns(&mut battles, &referee, shared), expected_turns);

    // A battle each, two writers.
    let started = Instant::now();
    let (a, b) = (
        spawn(&db, &script(dir.path(), "A", steps, true), None),
        spawn(&db, &script(dir.path(), "B", steps, true), None),
    );
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    let apart_time = started.elapsed();
    let mut apart_refusals = 0;
    for out in [&a, &b] {
        let (events, refused) = reported(out);
        apart_refusals += usize::from(refused.is_some());
        assert_eq!(refused, None, "a writer was refused");
        assert_eq!(events, (2..=1 + steps as u64).collect::<Vec<_>>());
    }
    let mut battles = Battles::open(&db).unwrap();
    let list = battles.list().unwrap();
    assert_eq!(list.len(), 3);
    for row in list.iter().filter(|r| r.id != shared) {
        assert_eq!(row.events, 1 + steps as i64, "{}", row.name);
        let expected_turns: Vec<u64> = (2..=1 + steps as u64).collect();
        assert_eq!(turns(&mut battles, &referee, row.id), expected_turns);
    }
    assert!(battles.check(&referee).unwrap().damage.is_empty());
    eprintln!(
        "two writers: one battle {} writes, {refusals} refused, {:.2} s; a battle each {} writes, {apart_refusals} refused, {:.2} s",
        2 * steps,
        same_time.as_secs_f64(),
        2 * steps,
        apart_time.as_secs_f64()
    );
}
