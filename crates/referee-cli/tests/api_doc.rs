//! docs/api.md is checked against the real CLI: its examples resolve, every action has one, and
//! every situation field is named in its section. (Its table of error codes is generated from the
//! one enum of codes: referee-core's `tests/error_codes.rs`.)

use std::collections::BTreeSet;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn referee(args: &[&str], stdin: &str) -> (i32, Value) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let json = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out.status.code().unwrap_or(-1), json)
}

/// `(ruleset/action [dice=a,b], json)` of every ```json example=… block.
fn examples(doc: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut lines = doc.lines();
    while let Some(line) = lines.next() {
        if let Some(tag) = line.strip_prefix("```json example=") {
            let body: Vec<&str> = lines
                .by_ref()
                .take_while(|l| !l.starts_with("```"))
                .collect();
            out.push((tag.trim().to_string(), body.join("\n")));
        }
    }
    out
}

/// The doc's section for an action: from its `### ruleset/action` heading to the next heading.
fn section<'d>(doc: &'d str, tag: &str) -> &'d str {
    let start = doc
        .find(&format!("### {tag} "))
        .unwrap_or_else(|| panic!("no section for {tag}"));
    let rest = &doc[start + 4..];
    &doc[start..start + 4 + rest.find("\n#").unwrap_or(rest.len())]
}

fn property_names(schema: &Value, out: &mut BTreeSet<String>) {
    match schema {
        Value::Object(map) => {
            if let Some(Value::Object(props)) = map.get("properties") {
                out.extend(props.keys().cloned());
            }
            map.values().for_each(|v| property_names(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| property_names(v, out)),
        _ => {}
    }
}

#[test]
fn every_example_in_docs_api_resolves_with_the_real_cli() {
    let doc = std::fs::read_to_string(root().join("docs/api.md")).unwrap();
    let found = examples(&doc);
    let (code, list) = referee(&["rulesets"], "");
    assert_eq!(code, 0);
    for system in list["systems"].as_array().unwrap() {
        let id = system["id"].as_str().unwrap();
        for action in system["actions"].as_array().unwrap() {
            let tag = format!("{id}/{}", action["id"].as_str().unwrap());
            let (line, json) = found
                .iter()
                .find(|(t, _)| t.split_whitespace().next() == Some(tag.as_str()))
                .unwrap_or_else(|| panic!("docs/api.md has no example for {tag}"));
            // An example may name its dice (`dice=40,70`) where the count depends on it.
            let given = line
                .split_whitespace()
                .find_map(|w| w.strip_prefix("dice="))
                .map(str::to_string);
            let (ruleset, action_id) = tag.split_once('/').unwrap();
            let args = ["resolve", "--ruleset", ruleset, "--action", action_id];
            let (code, mut resolution) = referee(&args, json);
            assert_eq!(code, 0, "{tag}: {resolution}");
            // Actions that roll dice get an outcome for given faces; the others are certain.
            if let Some(notation) = resolution["dice"].as_str().filter(|d| !d.is_empty()) {
                // As many faces as the notation has dice: `2d6` → 3,4; `d6` → 3; `d10 v d10` → 3,4.
                let count: usize = if notation.contains(" v ") {
                    notation.split(" v ").count()
                } else {
                    notation.split('d').next().unwrap().parse().unwrap_or(1)
                };
                let faces = given
                    .clone()
                    .unwrap_or_else(|| ["3", "4", "3", "4"][..count].join(","));
                let with_dice = [&args[..], &["--dice", faces.as_str()]].concat();
                let (code, rolled) = referee(&with_dice, json);
                assert_eq!(code, 0, "{tag}: {rolled}");
                resolution = rolled;
            }
            assert!(
                resolution["distribution"]
                    .as_array()
                    .is_some_and(|d| !d.is_empty()),
                "{tag}"
            );
            assert!(resolution["outcome"]["result"].is_string(), "{tag}");

            let (code, schema) = referee(&["schema", ruleset, action_id], "");
            assert_eq!(code, 0);
            let mut names = BTreeSet::new();
            property_names(&schema, &mut names);
            let text = section(&doc, &tag);
            let units = section(&doc, "Units");
            for name in names {
                assert!(
                    text.contains(&format!("`{name}`")) || units.contains(&format!("`{name}`")),
                    "docs/api.md does not document {tag} field `{name}`"
                );
            }
        }
    }
}

#[test]
fn the_cli_rolls_a_chain_of_dice_as_the_app_does() {
    // A GTS melee round asks its dice in turn: `--roll` throws every stage from one seed, and
    // the same seed gives the same throw.
    let round = r#"{"side_a": [{"unit": {"class": "infantry", "weapon": "SP", "armour": "M", "stands": 4}}],
        "side_b": [{"unit": {"class": "infantry", "weapon": "SP", "armour": "M", "stands": 4}}]}"#;
    let args = [
        "resolve",
        "--ruleset",
        "gts",
        "--action",
        "melee_round",
        "--roll",
        "--seed",
        "7",
    ];
    let (code, first) = referee(&args, round);
    assert_eq!(code, 0, "{first}");
    assert!(first["outcome"]["result"].is_string(), "{first}");
    let dice = first["outcome"]["dice"].as_array().unwrap().len();
    assert!(dice > 2, "the roll-off and what followed it: {dice} dice");
    assert_eq!(first["faces"].as_array().unwrap().len(), dice);
    let (_, again) = referee(&args, round);
    assert_eq!(first["outcome"], again["outcome"]);
}

#[test]
fn bad_input_on_the_cli_is_a_typed_error_with_exit_status_2() {
    let (code, e) = referee(
        &["resolve", "--ruleset", "itacs", "--action", "melee"],
        "not json",
    );
    assert_eq!(
        (code, e["code"].as_str()),
        (2, Some("situation.invalid_json"))
    );
    let (code, e) = referee(
        &["resolve", "--ruleset", "chess", "--action", "melee"],
        "{}",
    );
    assert_eq!((code, e["code"].as_str()), (2, Some("ruleset.unknown")));
    let (code, e) = referee(&["check", "/nonexistent/x.toml"], "");
    assert_eq!((code, e["code"].as_str()), (2, Some("file.unreadable")));
    let (code, r) = referee(&["roll", "2d6", "--seed", "7"], "");
    assert_eq!(code, 0);
    assert_eq!(r["faces"].as_array().unwrap().len(), 2);
    assert_eq!(r, referee(&["roll", "2d6", "--seed", "7"], "").1);
    let (code, schema) = referee(&["schema", "itacs"], "");
    assert_eq!(code, 0);
    assert!(schema["properties"]["melee"].is_object());
}
