//! A backup and a restore while 1, 2 and 4 other processes write: every write a writer reported
//! committed ends in the database or in a copy the restore kept of what it replaced. The copy
//! kept and the copy put in place are made under one write lock, so no write lands between them;
//! backups are made in one step, so a writer cannot make them start over (their times are
//! printed: `RACE_WRITES` sets the writes per writer, default 100).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use referee_api::{BackupReason, Battles, NewBattle, Referee};

/// A writer's script: `writes` quick edits on battle 1, each with its own reason `w<n>-<step>`.
fn script(dir: &Path, writer: usize, writes: usize) -> PathBuf {
    let steps: Vec<Value> = (0..writes)
        .map(|i| {
            json!({"op": "adjust", "subject": {"unit": 1},
                   "change": {"kind": "remove_d_markers", "count": 1},
                   "reason": format!("w{writer}-{i}")})
        })
        .collect();
    let path = dir.join(format!("writer-{writer}.json"));
    std::fs::write(&path, json!({ "steps": steps }).to_string()).unwrap();
    path
}

fn spawn(db: &Path, script: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(["battle", "script"])
        .arg(script)
        .args(["--battle", "1"])
        .env("REFEREE_DB", db)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The reasons of battle 1's quick edits in a backup (a copy of it is read, so the backup is never
/// written: a backup is one file).
fn kept_reasons(file: &Path, referee: &Referee, scratch: &Path) -> BTreeSet<String> {
    let copy = scratch.join("read.db");
    std::fs::copy(file, &copy).unwrap();
    let mut battles = Battles::open(&copy).unwrap();
    let found = reasons(&mut battles, referee);
    drop(battles);
    for side in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(scratch.join(format!("read.db{side}")));
    }
    let _ = std::fs::remove_dir_all(scratch.join("backups"));
    found
}

fn reasons(battles: &mut Battles, referee: &Referee) -> BTreeSet<String> {
    let exported = serde_json::to_value(battles.export(referee, 1).unwrap()).unwrap();
    exported["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["body"]["reason"].as_str().map(str::to_string))
        .collect()
}

#[test]
fn a_backup_and_a_restore_under_writers_lose_nothing() {
    let writes: usize = std::env::var("RACE_WRITES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let referee = Referee::builtin();
    for writers in [1, 2, 4] {
        let dir = tempfile::tempdir().unwrap();
        let scratch = tempfile::tempdir().unwrap();
        let db = dir.path().join("referee.db");
        let mut battles = Battles::open(&db).unwrap();
        let new: NewBattle = serde_json::from_value(json!({
            "name": "Race", "ruleset": "itacs",
            "sides": [{"name": "Romans"}, {"name": "Gauls"}],
            "units": [{"label": "Legio X", "side": "Romans", "stats": {"type": "SD", "count": 4}}],
        }))
        .unwrap();
        battles.create(&referee, &new).unwrap();

        let mut running: Vec<(usize, Child)> = (0..writers)
            .map(|w| (w, spawn(&db, &script(dir.path(), w, writes))))
            .collect();
        // Backups and restores while they write, until they are done.
        let mut kept = BTreeSet::new();
        let (mut restores, mut backup_times) = (0, Vec::new());
        let mut outputs = Vec::new();
        while !running.is_empty() {
            // A backup taken now, then restored: the writes that land in between are in the copy
            // the restore keeps.
            let started = Instant::now();
            let taken = battles.backup().unwrap();
            backup_times.push(started.elapsed());
            let taken = taken.file_name().unwrap().to_str().unwrap().to_string();
            let after = battles.restore_backup(&taken).unwrap();
            restores += 1;
            // The copy of what the restore replaced is the newest backup: read it before it is
            // pruned.
            let replaced = &after.backups[0];
            assert_eq!(replaced.reason, BackupReason::BeforeRestore);
            let file = db.parent().unwrap().join("backups").join(&replaced.id);
            kept.extend(kept_reasons(&file, &referee, scratch.path()));
            std::thread::sleep(Duration::from_millis(5));
            let mut still = Vec::new();
            for (w, mut child) in running {
                if child.try_wait().unwrap().is_some() {
                    outputs.push((w, child.wait_with_output().unwrap()));
                } else {
                    still.push((w, child));
                }
            }
            running = still;
        }
        kept.extend(reasons(&mut battles, &referee));
        // Every write reported committed is somewhere: in the database or a copy kept.
        let mut reported = BTreeSet::new();
        for (w, out) in &outputs {
            assert!(
                out.status.success(),
                "writer refused: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            for line in String::from_utf8_lossy(&out.stdout).lines() {
                if let Some(step) = serde_json::from_str::<Value>(line)
                    .ok()
                    .and_then(|l| l["step"].as_u64())
                {
                    reported.insert(format!("w{w}-{step}"));
                }
            }
        }
        let committed = reported.len();
        let lost: Vec<_> = reported.difference(&kept).collect();
        assert!(lost.is_empty(), "{writers} writers: lost {lost:?}");
        let mut battles = Battles::open(&db).unwrap();
        assert!(battles.check(&referee).unwrap().damage.is_empty());
        let slowest = backup_times.iter().max().copied().unwrap_or_default();
        eprintln!(
            "race: {writers} writers, {committed} writes committed, {restores} restores and backups meanwhile, 0 lost; backup under the writers {:.3}–{:.3} s",
            backup_times.iter().min().copied().unwrap_or_default().as_secs_f64(),
            slowest.as_secs_f64()
        );
    }
}
