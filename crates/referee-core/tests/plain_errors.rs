//! Every refusal reads as a sentence an umpire understands: each documented situation of each
//! system (the examples of docs/api.md, read where they are written) is spoilt in the usual
//! ways — an unknown field, a missing field, a wrong type, an unknown choice or unit type — and
//! every message is checked for developer text (backticks, serde's "expected …", "invalid
//! type", list indexes, quoted snake_case identifiers).

mod common;

use referee_core::ruleset::Layers;
use referee_core::systems::{builtin, Ruleset};
use serde_json::{json, Value};

/// The first example of each action in docs/api.md, by `<system>/<action>`.
fn examples() -> serde_json::Map<String, Value> {
    let mut examples = serde_json::Map::new();
    for (tag, situation) in common::api_examples() {
        examples.entry(tag).or_insert(situation);
    }
    examples
}

/// Every spoilt copy of `v`: one change each, at every depth.
fn spoil(v: &Value, out: &mut Vec<Value>) {
    #[derive(Clone)]
    enum Step {
        Key(String),
        Index(usize),
    }
    let root = v.clone();
    let replace = |path: &[Step], new: Value| {
        let mut copy = root.clone();
        let mut here = &mut copy;
        for s in path {
            here = match s {
                Step::Key(k) => &mut here[k.as_str()],
                Step::Index(i) => &mut here[*i],
            };
        }
        *here = new;
        copy
    };
    // The closure borrows `root`; walk with a small adapter.
    fn walk(
        v: &Value,
        path: &mut Vec<Step>,
        out: &mut Vec<Value>,
        replace: &dyn Fn(&[Step], Value) -> Value,
    ) {
        match v {
            Value::Object(map) => {
                let mut extra = map.clone();
                extra.insert("armour_plate".into(), json!(1));
                out.push(replace(path, Value::Object(extra)));
                for k in map.keys() {
                    let mut less = map.clone();
                    less.remove(k);
                    out.push(replace(path, Value::Object(less)));
                    path.push(Step::Key(k.clone()));
                    walk(&map[k], path, out, replace);
                    path.pop();
                }
            }
            Value::Array(items) => {
                out.push(replace(path, json!("many")));
                for (i, x) in items.iter().enumerate().take(2) {
                    path.push(Step::Index(i));
                    walk(x, path, out, replace);
                    path.pop();
                }
            }
            Value::Number(_) => {
                out.push(replace(path, json!("many")));
                out.push(replace(path, json!(-1)));
                out.push(replace(path, json!(1.5)));
            }
            Value::String(_) => {
                out.push(replace(path, json!("sideways_on")));
                out.push(replace(path, json!(7)));
            }
            Value::Bool(_) => out.push(replace(path, json!("perhaps"))),
            Value::Null => {}
        }
    }
    walk(v, &mut Vec::new(), out, &replace);
}

/// What an umpire must never read, or none.
fn developer_text(message: &str) -> Option<&'static str> {
    if message.contains('`') {
        return Some("a backtick");
    }
    if message.contains("expected") {
        return Some("serde's \"expected\"");
    }
    if message.contains("invalid type") || message.contains("invalid value") {
        return Some("serde's \"invalid type\"");
    }
    let b = message.as_bytes();
    for w in b.windows(3) {
        if w[0] == b'[' && w[1].is_ascii_digit() && (w[2] == b']' || w[2].is_ascii_digit()) {
            return Some("a list index");
        }
    }
    for q in ['"', '\'', '\u{201c}'] {
        let close = if q == '\u{201c}' { '\u{201d}' } else { q };
        for part in message.split(q).skip(1) {
            let inner = part.split(close).next().unwrap_or("");
            if inner.contains('_') && !inner.contains(' ') {
                return Some("a quoted snake_case identifier");
            }
        }
    }
    None
}

#[test]
fn every_refusal_reads_as_a_sentence() {
    let mut problems = Vec::new();
    let mut seen = 0;
    let mut kinds: std::collections::BTreeMap<String, usize> = Default::default();
    for (key, situation) in examples() {
        let (system, action) = key.split_once('/').unwrap();
        let ruleset = Ruleset::load(&Layers {
            base: builtin(system).unwrap(),
            house_rules: vec![],
        })
        .unwrap();
        let mut spoilt = Vec::new();
        spoil(&situation, &mut spoilt);
        spoilt.push(json!("not a situation"));
        spoilt.push(json!({"armour": 3}));
        for s in spoilt {
            if let Err(e) = ruleset.resolve(action, &s, None) {
                seen += 1;
                *kinds.entry(format!("{system} {}", e.code)).or_default() += 1;
                if let Some(what) = developer_text(&e.message) {
                    problems.push(format!("{key} {}: {what}: {}", e.code, e.message));
                }
            }
        }
    }
    problems.sort();
    problems.dedup();
    assert!(seen > 400, "only {seen} refusals: {kinds:?}");
    for system in ["itacs", "medieval", "gts", "dbmm"] {
        assert!(
            kinds
                .keys()
                .any(|k| k == &format!("{system} situation.invalid_field")),
            "no invalid field refused in {system}: {kinds:?}"
        );
    }
    assert!(
        problems.is_empty(),
        "{} messages with developer text:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn serde_refusals_name_the_field_in_words() {
    let itacs = Ruleset::load(&Layers {
        base: builtin("itacs").unwrap(),
        house_rules: vec![],
    })
    .unwrap();
    let all = examples();
    let mut melee = all["itacs/melee"].clone();
    let first = melee.as_object().unwrap().keys().next().unwrap().clone();
    melee[&first] = json!("many");
    let e = itacs.resolve("melee", &melee, None).unwrap_err();
    assert_eq!(e.code, "situation.invalid_field");
    assert!(e.field.is_some());
    assert!(e.message.ends_with('.'), "{}", e.message);
    assert!(
        e.message.chars().next().unwrap().is_uppercase(),
        "{}",
        e.message
    );
}

/// A word an umpire must never read in a form's hint: snake_case (a code id) or a backtick.
fn code_words(text: &str) -> Vec<String> {
    let mut found: Vec<String> = text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| {
            let parts: Vec<&str> = w.split('_').collect();
            parts.len() > 1
                && parts
                    .iter()
                    .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_lowercase()))
        })
        .map(str::to_string)
        .collect();
    if text.contains('`') {
        found.push("`".into());
    }
    found
}

/// Every hint the forms show (each field's description in each action's situation schema) is in
/// words: the window prints them under the fields.
#[test]
fn every_field_hint_is_in_words() {
    fn walk(v: &Value, at: &str, out: &mut Vec<String>) {
        match v {
            Value::Object(m) => {
                for (k, sub) in m {
                    // The schema's own description (the action's) is not shown in a form.
                    if k == "description" && at.contains('.') {
                        if let Value::String(text) = sub {
                            let words = code_words(text);
                            if !words.is_empty() {
                                out.push(format!("{at}: {words:?} in {text:?}"));
                            }
                        }
                    } else if k != "description" {
                        walk(sub, &format!("{at}.{k}"), out);
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|i| walk(i, at, out)),
            _ => {}
        }
    }
    let mut problems = Vec::new();
    for key in examples().keys() {
        let (system, action) = key.split_once('/').unwrap();
        let ruleset = Ruleset::load(&Layers {
            base: builtin(system).unwrap(),
            house_rules: vec![],
        })
        .unwrap();
        let schema = serde_json::to_value(ruleset.situation_schema(action).unwrap()).unwrap();
        walk(&schema, key, &mut problems);
    }
    problems.sort();
    problems.dedup();
    assert!(
        problems.is_empty(),
        "{} hints with code words:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
