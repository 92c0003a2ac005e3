//! The distributions `bench/peer.py` compares with Icepool, computed with this engine: each case
//! printed as one JSON line with its exact probabilities and the mean time to compute it.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use referee_core::odds::{DiceSpec, Dist};
use referee_core::rule_system::shared::roll_table;
use referee_core::ruleset::Layers;
use referee_core::systems::dbmm::combat::{close_combat_scores, CloseCombatSituation};
use referee_core::systems::dbmm::Dbmm;
use referee_core::systems::gts::recoil::{unit_fate, Fate, Test};
use referee_core::systems::gts::rolloff::formed_fire;
use referee_core::systems::itacs::Itacs;
use referee_core::systems::medieval::result::CombatResult;
use referee_core::systems::medieval::Medieval;
use referee_core::systems::{builtin, Ruleset};

fn load(id: &str) -> Ruleset {
    Ruleset::load(&Layers {
        base: builtin(id).unwrap(),
        house_rules: vec![],
    })
    .unwrap()
}

/// Mean time of `f` over at least 200 ms, and its last answer.
fn timed<T>(f: impl Fn() -> T) -> (T, f64) {
    let start = Instant::now();
    let mut runs = 1u32;
    let mut last = f();
    while start.elapsed() < Duration::from_millis(200) {
        last = f();
        runs += 1;
    }
    (last, start.elapsed().as_nanos() as f64 / f64::from(runs))
}

fn emit<T: Ord + Clone>(case: &str, dist: &Dist<T>, ns: f64, label: impl Fn(&T) -> String) {
    let probabilities: BTreeMap<String, String> = dist
        .outcomes()
        .map(|(v, p)| (label(v), p.to_string()))
        .collect();
    println!(
        "{}",
        serde_json::json!({ "case": case, "probabilities": probabilities, "ns": ns })
    );
}

fn main() {
    let itacs = load("itacs");
    let itacs = itacs.data::<Itacs>().expect("the ITACS ruleset");
    let table = roll_table(&itacs.melee.results);
    let two_d6: DiceSpec = "2d6".parse().unwrap();
    for drm in -6..=12 {
        let (d, ns) = timed(|| {
            table
                .distribution(&two_d6.distribution().unwrap().plus(drm))
                .unwrap()
        });
        emit(&format!("itacs_melee_drm_{drm}"), &d, ns, |s| s.clone());
    }

    let medieval = load("medieval");
    let medieval = medieval.data::<Medieval>().expect("the Medieval ruleset");
    let column = medieval
        .combat
        .columns
        .iter()
        .position(|c| c == "4:1")
        .unwrap();
    let (d, ns) = timed(|| {
        two_d6
            .distribution()
            .unwrap()
            .and_then(|r| {
                let row = medieval.combat.rows.iter().find(|x| x.roll == *r).unwrap();
                let part = row.results[column]
                    .parse::<CombatResult>()
                    .unwrap()
                    .defender;
                let at_most = medieval.scatter.threshold("light_cavalry", part.retreat);
                let scattered = if part.scattered {
                    Dist::certain(true)
                } else if part.retreat == 0 {
                    Dist::certain(false)
                } else {
                    Dist::die(6)?.map(|d| *d <= i64::from(at_most))
                };
                Ok(scattered.map(|s| (part.loss, part.retreat, *s)))
            })
            .unwrap()
    });
    emit(
        "medieval_4to1_defender_with_scatter",
        &d,
        ns,
        |(l, r, s)| format!("{l},{r},{s}"),
    );

    for (a, d) in [(0, 0), (2, -1)] {
        let (dist, ns) = timed(|| formed_fire(a, d, 2).unwrap());
        emit(&format!("gts_fire_{a}_{d}"), &dist, ns, |h| h.to_string());
    }

    let word = |f: &Fate| {
        match f {
            Fate::Holds => "holds",
            Fate::Recoils => "recoils",
            Fate::Routs => "routs",
            Fate::Locked => "locked",
        }
        .to_string()
    };
    let side = |modifiers: &[i64]| -> Vec<Test> {
        modifiers
            .iter()
            .map(|m| Test {
                number: 31,
                modifier: *m,
            })
            .collect()
    };
    let (one_a, one_b) = (side(&[0]), side(&[10]));
    let (dist, ns) = timed(|| unit_fate(&one_a, 0, &one_b, 2).unwrap());
    emit("gts_recoil_1v1", &dist, ns, word);
    let (three_a, three_b) = (side(&[0, -10, 20]), side(&[10, 0, -20]));
    let (dist, ns) = timed(|| unit_fate(&three_a, 0, &three_b, 2).unwrap());
    emit("gts_recoil_3v3", &dist, ns, word);

    // DBMM: A's final score in close combat (factors, support, grading by the first comparison),
    // >, =, < or doubled.
    let dbmm = load("dbmm");
    let dbmm = dbmm.data::<Dbmm>().expect("the DBMM ruleset");
    let fighter = |t: &str, g: &str| serde_json::json!({ "element": { "type": t, "grade": g } });
    let cases = [
        (
            "dbmm_bd_S_v_bd_O_own_bound",
            fighter("Bd", "S"),
            fighter("Bd", "O"),
            "a",
        ),
        (
            "dbmm_bd_S_v_bd_O_enemy_bound",
            fighter("Bd", "S"),
            fighter("Bd", "O"),
            "b",
        ),
        (
            "dbmm_bd_I_v_bd_O",
            fighter("Bd", "I"),
            fighter("Bd", "O"),
            "a",
        ),
        (
            "dbmm_kn_S_v_kn_O_own_bound",
            fighter("Kn", "S"),
            fighter("Kn", "O"),
            "a",
        ),
        (
            "dbmm_bd_O_overlapped_v_pk_O_supported",
            serde_json::json!({ "element": { "type": "Bd", "grade": "O" }, "overlaps": [{ "type": "Pk" }, { "type": "Bd" }] }),
            serde_json::json!({ "element": { "type": "Pk", "grade": "O" }, "support": { "ranks": [{ "type": "Pk", "grade": "O" }] } }),
            "a",
        ),
    ];
    for (case, a, b, bound) in cases {
        let situation: CloseCombatSituation =
            serde_json::from_value(serde_json::json!({ "a": a, "b": b, "bound": bound })).unwrap();
        let (dist, ns) = timed(|| close_combat_scores(dbmm, &situation).unwrap());
        emit(case, &dist, ns, |s| s.symbol().to_string());
    }
}
