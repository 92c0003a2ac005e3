//! Fuzzing without a nightly toolchain: every example situation of docs/api.md and every built-in
//! ruleset file, mutated at random (seeded, so a failure replays), must never panic; a situation
//! that resolves must give probabilities that sum to exactly 1 and forecasts no greater than 1.
//!
//! `npm test` runs a short pass; `bash bench/fuzz.sh` runs a million executions per target:
//! `FUZZ_ITERATIONS` (per example), `FUZZ_RULESET_ITERATIONS` (per ruleset file) and `FUZZ_SEED`
//! set the run.

use std::panic::{catch_unwind, AssertUnwindSafe};

mod common;

use referee_core::preset::{self, BUILTIN_PRESETS};
use referee_core::ruleset::{Layers, SourceFile};
use referee_core::systems::{builtin, Ruleset, BUILTIN};
use serde_json::{json, Map, Value};

/// xorshift64*: small, seeded, reproducible.
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

    fn chance(&mut self, one_in: u64) -> bool {
        self.below(one_in) == 0
    }
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// `(ruleset, action, situation)` of every example in docs/api.md.
fn examples() -> Vec<(String, String, Value)> {
    common::api_examples()
        .into_iter()
        .map(|(tag, situation)| {
            let (ruleset, action) = tag.split_once('/').unwrap();
            (ruleset.to_string(), action.to_string(), situation)
        })
        .collect()
}

/// Words worth trying where a string goes: the ruleset's own keys and some garbage.
const WORDS: &[&str] = &[
    "",
    "clear",
    "mud",
    "water",
    "wall",
    "mountain",
    "forest",
    "swamp",
    "fortifications",
    "SD",
    "PS",
    "LB",
    "HC",
    "EL",
    "LF",
    "CH",
    "A",
    "B",
    "C",
    "D",
    "E",
    "Ff",
    "Mf",
    "[4]",
    ".",
    "[x]",
    "-3",
    "infantry",
    "cavalry",
    "elephant",
    "engine",
    "SP",
    "BW",
    "CT",
    "BL",
    "PK",
    "N",
    "H",
    "P",
    "V",
    "heavy_cavalry",
    "archers",
    "bombards",
    "light_cavalry",
    "retainers",
    "stand_loss",
    "rally",
    "pass_through",
    "D2XB",
    "DX",
    "stream",
    "Kn",
    "Bd",
    "Train",
    "X",
    "GGo",
    "DGo",
    "upslope",
    "destroyed",
    "spent",
    "highest",
    "25mm",
    "Kn (S)",
    "☃",
    "\u{0}",
];

fn random_scalar(rng: &mut Rng) -> Value {
    match rng.below(9) {
        0 => json!(rng.below(5)),
        1 => json!(rng.below(20) as i64 - 10),
        2 => json!(u32::MAX),
        3 => json!(i64::MIN),
        4 => json!(rng.chance(2)),
        5 => json!(WORDS[rng.below(WORDS.len() as u64) as usize]),
        6 => json!(1.5),
        7 => Value::Null,
        _ => json!(rng.below(200)),
    }
}

fn mutate(v: &Value, rng: &mut Rng, depth: u32) -> Value {
    if rng.chance(12) {
        return random_scalar(rng);
    }
    match v {
        Value::Object(map) => {
            let mut out = Map::new();
            for (k, x) in map {
                if rng.chance(15) {
                    continue; // drop a field
                }
                out.insert(k.clone(), mutate(x, rng, depth + 1));
            }
            if rng.chance(20) {
                out.insert("unexpected".into(), random_scalar(rng));
            }
            Value::Object(out)
        }
        Value::Array(items) => {
            let mut out: Vec<Value> = items.iter().map(|x| mutate(x, rng, depth + 1)).collect();
            if !out.is_empty() && rng.chance(6) && depth < 6 {
                let i = rng.below(out.len() as u64) as usize;
                let copy = out[i].clone();
                for _ in 0..rng.below(4) {
                    out.push(copy.clone());
                }
            }
            if !out.is_empty() && rng.chance(8) {
                out.remove(rng.below(out.len() as u64) as usize);
            }
            Value::Array(out)
        }
        Value::Number(_) | Value::Bool(_) | Value::String(_) | Value::Null => {
            if rng.chance(3) {
                random_scalar(rng)
            } else {
                v.clone()
            }
        }
    }
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The exact sum of `n/d` strings, `None` when it would overflow u128.
fn sum(fractions: &[&str]) -> Option<(u128, u128)> {
    let mut acc = (0u128, 1u128);
    for f in fractions {
        let (n, d) = f.split_once('/')?;
        let (n, d): (u128, u128) = (n.parse().ok()?, d.parse().ok()?);
        let l = acc.1 / gcd(acc.1, d) * d;
        let num = acc
            .0
            .checked_mul(l / acc.1)?
            .checked_add(n.checked_mul(l / d)?)?;
        let g = gcd(num, l).max(1);
        acc = (num / g, l / g);
    }
    Some(acc)
}

#[test]
fn mutated_situations_never_panic_and_stay_exact() {
    let iterations = env("FUZZ_ITERATIONS", 150);
    let mut rng = Rng(env("FUZZ_SEED", 0x5EED_CAFE).max(1));
    let rulesets: Vec<(String, Ruleset)> = BUILTIN
        .iter()
        .map(|b| {
            let id = b.id;
            let r = Ruleset::load(&Layers {
                base: builtin(id).unwrap(),
                house_rules: vec![],
            })
            .unwrap();
            (id.to_string(), r)
        })
        .collect();
    let mut executions = 0u64;
    let mut resolved = 0u64;
    for (ruleset, action, example) in examples() {
        let r = &rulesets.iter().find(|(id, _)| *id == ruleset).unwrap().1;
        for _ in 0..iterations {
            let situation = mutate(&example, &mut rng, 0);
            let dice: Option<Vec<u32>> = if rng.chance(2) {
                Some((0..rng.below(5)).map(|_| rng.below(102) as u32).collect())
            } else {
                None
            };
            let answer = catch_unwind(AssertUnwindSafe(|| {
                r.resolve(&action, &situation, dice.as_deref())
            }));
            executions += 1;
            let Ok(answer) = answer else {
                panic!(
                    "{ruleset}/{action} panicked on {} with dice {dice:?}",
                    situation
                );
            };
            if let Ok(res) = answer {
                resolved += 1;
                let p: Vec<&str> = res
                    .distribution
                    .iter()
                    .map(|d| d.probability.as_str())
                    .collect();
                if let Some((n, d)) = sum(&p) {
                    assert_eq!(
                        n, d,
                        "{ruleset}/{action}: probabilities sum to {n}/{d} on {situation}"
                    );
                }
                for c in &res.forecast {
                    let (n, d) = sum(&[c.probability.as_str()]).unwrap();
                    assert!(n <= d, "{ruleset}/{action}: forecast {} = {n}/{d}", c.label);
                }
            }
        }
    }
    println!("situations: {executions} executions, {resolved} resolved, none panicked");
    assert!(
        resolved > 0,
        "no mutated situation resolved at all: the mutations are too wild"
    );
}

/// A file's text with one to four lines removed, repeated, renumbered, cut or retyped.
fn mutated_text(lines: &[&str], rng: &mut Rng) -> String {
    let mut edited: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    for _ in 0..1 + rng.below(4) {
        let i = rng.below(edited.len() as u64) as usize;
        match rng.below(5) {
            0 => {
                edited.remove(i);
            }
            1 => {
                let j = rng.below(edited.len() as u64) as usize;
                edited.insert(i, edited[j].clone());
            }
            2 => {
                // Change a number on the line.
                edited[i] = edited[i]
                    .chars()
                    .map(|c| {
                        if c.is_ascii_digit() && rng.chance(2) {
                            char::from(b'0' + rng.below(10) as u8)
                        } else {
                            c
                        }
                    })
                    .collect();
            }
            3 => {
                let cut = rng.below(edited[i].len() as u64 + 1) as usize;
                let cut = (0..=cut)
                    .rev()
                    .find(|k| edited[i].is_char_boundary(*k))
                    .unwrap_or(0);
                edited[i].truncate(cut);
            }
            _ => {
                let word = WORDS[rng.below(WORDS.len() as u64) as usize];
                edited[i] = edited[i].replacen('"', &format!("\"{word}"), 1);
            }
        }
    }
    edited.join("\n")
}

#[test]
fn mutated_ruleset_files_never_panic() {
    let iterations = env("FUZZ_RULESET_ITERATIONS", 150);
    let mut rng = Rng(env("FUZZ_SEED", 0x5EED_CAFE).max(1) ^ 0xF00D);
    let mut executions = 0u64;
    for b in BUILTIN {
        let (name, text) = (b.file, b.text);
        let lines: Vec<&str> = text.lines().collect();
        for _ in 0..iterations {
            let text = mutated_text(&lines, &mut rng);
            let answer = catch_unwind(AssertUnwindSafe(|| {
                Ruleset::load(&Layers {
                    base: SourceFile { name, text: &text },
                    house_rules: vec![],
                })
                .map(|_| ())
            }));
            executions += 1;
            if answer.is_err() {
                panic!("{name}: loading panicked on:\n{text}");
            }
        }
        // The companion file, mutated under the ruleset file as it is.
        let Some(companion) = b.companion else {
            continue;
        };
        let lines: Vec<&str> = companion.text.lines().collect();
        for _ in 0..iterations {
            let text = mutated_text(&lines, &mut rng);
            let answer = catch_unwind(AssertUnwindSafe(|| {
                Ruleset::load_with_companion(
                    &Layers {
                        base: b.source(),
                        house_rules: vec![],
                    },
                    SourceFile {
                        name: companion.name,
                        text: &text,
                    },
                )
                .map(|_| ())
            }));
            executions += 1;
            if answer.is_err() {
                panic!("{}: loading panicked on:\n{text}", companion.name);
            }
        }
    }
    println!("rulesets: {executions} executions, none panicked");
}

#[test]
fn mutated_preset_files_never_panic() {
    let iterations = env("FUZZ_RULESET_ITERATIONS", 150);
    let mut rng = Rng(env("FUZZ_SEED", 0x5EED_CAFE).max(1) ^ 0xBEEF);
    let rulesets: std::collections::BTreeMap<String, Ruleset> = BUILTIN
        .iter()
        .map(|b| {
            let id = b.id;
            let layers = Layers {
                base: builtin(id).unwrap(),
                house_rules: vec![],
            };
            (id.to_string(), Ruleset::load(&layers).unwrap())
        })
        .collect();
    let mut executions = 0u64;
    for (name, text) in BUILTIN_PRESETS {
        let lines: Vec<&str> = text.lines().collect();
        for _ in 0..iterations {
            let text = mutated_text(&lines, &mut rng);
            let answer = catch_unwind(AssertUnwindSafe(|| {
                preset::load(SourceFile { name, text: &text }, true, &rulesets).map(|_| ())
            }));
            executions += 1;
            if answer.is_err() {
                panic!("{name}: loading panicked on:\n{text}");
            }
        }
    }
    println!("presets: {executions} executions, none panicked");
}
