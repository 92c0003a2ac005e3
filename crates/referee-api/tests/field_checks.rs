//! Every field the app checks beside itself is refused by the API the same way, so a value that
//! slips past the screen is still a sentence tied to its field, never serde's words: a side's
//! numbers against the bounds its system gives them, a unit's numbers against its form's, a
//! request the window could not read (a number too large for its type, text where dice go).

use serde_json::json;

use referee_api::{
    parse_request, Battles, NewBattle, Referee, UnitSpec, FIELD_LIMITS, NAME_MAX_CHARS,
};

fn open(dir: &tempfile::TempDir) -> (Battles, Referee) {
    (
        Battles::open(&dir.path().join("referee.db")).unwrap(),
        Referee::builtin(),
    )
}

fn itacs(panic_level: serde_json::Value) -> serde_json::Value {
    json!({"name": "Hastings", "ruleset": "itacs",
        "sides": [{"name": "Normans", "panic_level": panic_level}, {"name": "Saxons"}]})
}

/// No developer text in a refusal: serde's words, a type, a path.
fn plain(message: &str) {
    for dev in [
        "u32",
        "i64",
        "invalid type",
        "invalid value",
        "expected",
        "`",
        "[0]",
        "null",
    ] {
        assert!(!message.contains(dev), "{dev} in “{message}”");
    }
    assert!(message.ends_with('.'), "“{message}” is no sentence");
}

#[test]
fn a_sides_number_is_held_to_its_fields_bounds() {
    let dir = tempfile::tempdir().unwrap();
    let (mut battles, referee) = open(&dir);
    let itacs_info = referee
        .rulesets()
        .systems
        .into_iter()
        .find(|s| s.id == "itacs")
        .unwrap();
    let panic = itacs_info
        .side_fields
        .iter()
        .find(|f| f.key == "panic_level")
        .unwrap();
    assert_eq!(
        (panic.min, i64::from(panic.max)),
        (0, FIELD_LIMITS.value_max)
    );
    let over = i64::from(panic.max) + 1;
    let e = battles
        .create(
            &referee,
            &serde_json::from_value::<NewBattle>(itacs(json!(over))).unwrap(),
        )
        .unwrap_err();
    assert_eq!(e.code, "battle.invalid_setup");
    assert_eq!(e.field.as_deref(), Some("sides[0].panic_level"));
    assert_eq!(
        e.message,
        "Panic level must be a whole number from 0 to 10,000 (10,001 is not)."
    );
    assert_eq!(e.rule.as_deref(), Some("5.4"));
    // Nothing was written.
    assert!(battles.list().unwrap().is_empty());
    // At the bound, the battle begins.
    let max = i64::from(panic.max);
    battles
        .create(
            &referee,
            &serde_json::from_value::<NewBattle>(itacs(json!(max))).unwrap(),
        )
        .unwrap();
}

#[test]
fn a_request_the_window_could_not_read_names_its_field_in_words() {
    // Beyond a u32: the window's own reading would say "invalid args … expected u32".
    let e = parse_request::<NewBattle>(itacs(json!(5_000_000_000u64)), "").unwrap_err();
    assert_eq!(e.code, "input.invalid");
    assert_eq!(e.field.as_deref(), Some("sides[0].panic_level"));
    plain(&e.message);
    let e = parse_request::<NewBattle>(itacs(json!(-5)), "").unwrap_err();
    assert_eq!(e.field.as_deref(), Some("sides[0].panic_level"));
    plain(&e.message);
    let e = parse_request::<NewBattle>(itacs(json!(2.5)), "").unwrap_err();
    plain(&e.message);
    // A roll edited with "abc" (null once sent).
    let e = parse_request::<Vec<u32>>(json!([null]), "dice").unwrap_err();
    assert_eq!(e.field.as_deref(), Some("dice[0]"));
    plain(&e.message);
}

#[test]
fn a_units_numbers_are_held_to_its_forms_bounds_when_added_or_corrected() {
    let dir = tempfile::tempdir().unwrap();
    let (mut battles, referee) = open(&dir);
    let new: NewBattle = serde_json::from_value(json!({"name": "Hastings", "ruleset": "itacs",
        "sides": [{"name": "Normans"}, {"name": "Saxons"}]}))
    .unwrap();
    let id = battles.create(&referee, &new).unwrap().id;
    let form = referee.unit_form("itacs").unwrap();
    let bound = |fields: &[referee_api::UnitField], key: &str| {
        let f = fields.iter().find(|f| f.key == key).unwrap();
        (f.min.unwrap(), f.max.unwrap())
    };
    // The form says both bounds of every number, the largest the ±10,000 of every value.
    assert_eq!(bound(&form.fields, "movement"), (0, 10_000));
    assert_eq!(bound(&form.fields, "count"), (1, 10_000));
    assert_eq!(bound(&form.leader_fields, "bonus"), (0, 100));
    let as_role = |role: &str, stats: serde_json::Value| -> UnitSpec {
        serde_json::from_value(
            json!({"label": "HC", "side": "Normans", "role": role, "stats": stats}),
        )
        .unwrap()
    };
    let unit = |stats: serde_json::Value| as_role("unit", stats);
    let leader = |stats: serde_json::Value| as_role("leader", stats);
    let cases = [
        (
            unit(json!({"type": "HC", "count": 1, "movement": -2})),
            "unit.stats.movement",
            "Movement points must be a whole number from 0 to 10,000.",
        ),
        (
            unit(json!({"type": "HC", "count": 9_999_999})),
            "unit.stats.count",
            "Units in the hex must be a whole number from 1 to 10,000.",
        ),
        (
            unit(json!({"type": "HC", "count": 2.7})),
            "unit.stats.count",
            "Units in the hex must be a whole number from 1 to 10,000.",
        ),
        (
            leader(json!({"type": "2L", "bonus": 2.5})),
            "unit.stats.bonus",
            "Leader bonus must be a whole number from 0 to 100.",
        ),
        (
            leader(json!({"type": "2L", "bonus": -5})),
            "unit.stats.bonus",
            "Leader bonus must be a whole number from 0 to 100.",
        ),
    ];
    for (spec, field, message) in cases {
        let e = battles.add_unit(&referee, id, spec.clone()).unwrap_err();
        assert_eq!(
            (e.code.as_str(), e.field.as_deref(), e.message.as_str()),
            ("unit.invalid", Some(field), message),
            "{:?}",
            spec.stats
        );
    }
    // A strength typed as text (what the rules give militia no value for) is held to the same
    // bound, as the form previews it and as the unit is added.
    let militia = json!({"type": "MI", "class": "A", "count": 1, "combat": "9999999"});
    let e = referee.unit_preview("itacs", &militia).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("combat"));
    assert!(e.message.contains("from 0 to 10,000"), "{}", e.message);
    plain(&e.message);
    let e = battles.add_unit(&referee, id, unit(militia)).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("unit.stats.combat"));
    assert!(battles.view(&referee, id).unwrap().state.units.is_empty());
    // Corrected the same way: a unit added right, then edited wrong, is left as it was.
    let view = battles
        .add_unit(&referee, id, unit(json!({"type": "HC", "count": 2})))
        .unwrap();
    let uid = *view.state.units.keys().next().unwrap();
    let e = battles
        .edit_unit(&referee, id, uid, unit(json!({"type": "HC", "count": -3})))
        .unwrap_err();
    assert_eq!(e.field.as_deref(), Some("unit.stats.count"));
    assert_eq!(
        battles.view(&referee, id).unwrap().state.units[&uid]
            .detail
            .entry()
            .unwrap()["count"],
        json!(2)
    );
}

#[test]
fn a_name_is_held_to_the_limit_the_app_checks() {
    assert_eq!(FIELD_LIMITS.name_max_chars, NAME_MAX_CHARS);
    let dir = tempfile::tempdir().unwrap();
    let (mut battles, referee) = open(&dir);
    let long = "x".repeat(NAME_MAX_CHARS + 1);
    let new: NewBattle = serde_json::from_value(json!({"name": long, "ruleset": "gts",
        "sides": [{"name": "Greeks"}, {"name": "Persians"}]}))
    .unwrap();
    let e = battles.create(&referee, &new).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("name"));
    let new: NewBattle = serde_json::from_value(json!({"name": "", "ruleset": "gts",
        "sides": [{"name": "Greeks"}, {"name": "Persians"}]}))
    .unwrap();
    let e = battles.create(&referee, &new).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("name"), "{}", e.message);
}
