//! The roster unit form of every ruleset: every choice previews, the printed values are the
//! ruleset data's, bad stats are refused in plain words naming the field, and the CSV template
//! of each system imports cleanly.

use serde_json::{json, Map, Value};

use referee_api::{check_roster, roster_from_csv, Referee, UnitForm};

const SYSTEMS: [&str; 4] = ["itacs", "medieval", "gts", "dbmm"];

/// A unit that passes: each required field from the form (its default, its minimum or 2 for a
/// number; the first option for a choice), then `key: value` on top.
fn base(form: &UnitForm) -> Map<String, Value> {
    let mut stats = Map::new();
    for f in form.fields.iter().filter(|f| f.required) {
        let v = match f.kind_name() {
            "choice" => json!(f.options[0].key),
            "number" => f
                .default
                .clone()
                .unwrap_or(json!(f.min.unwrap_or(0).max(2))),
            "toggle" => json!(false),
            // A printed value every text field accepts (an ITACS combat strength).
            _ => f.default.clone().unwrap_or(json!("2")),
        };
        stats.insert(f.key.clone(), v);
    }
    stats
}

trait KindName {
    fn kind_name(&self) -> &'static str;
}

impl KindName for referee_api::UnitField {
    fn kind_name(&self) -> &'static str {
        match serde_json::to_value(self).unwrap()["kind"]
            .as_str()
            .unwrap()
        {
            "choice" => "choice",
            "number" => "number",
            "toggle" => "toggle",
            _ => "text",
        }
    }
}

fn plain(message: &str) {
    for bad in [
        "`",
        "expected",
        "stats.",
        "unknown variant",
        "invalid type",
        "[0]",
    ] {
        assert!(!message.contains(bad), "not plain ({bad}): {message}");
    }
}

#[test]
fn every_option_of_every_choice_previews() {
    let referee = Referee::builtin();
    for system in SYSTEMS {
        let form = referee.unit_form(system).unwrap();
        assert_eq!(form.ruleset, system);
        assert!(!form.fields.is_empty());
        for field in &form.fields {
            assert!(!field.label.is_empty() && !field.rule.is_empty());
            if let Some(h) = &field.help {
                plain(h);
            }
            if field.kind_name() != "choice" {
                assert!(field.options.is_empty(), "{system} {}", field.key);
                continue;
            }
            assert!(
                !field.options.is_empty(),
                "{system} {} has no options",
                field.key
            );
            for option in &field.options {
                let mut stats = base(&form);
                if system == "itacs" {
                    // Missile classes (Ff, Mf) ask a fire strength their type may not give.
                    stats.insert("fire".into(), json!(2));
                }
                stats.insert(field.key.clone(), json!(option.key));
                // What the type does not supply is asked (ITACS class and combat, R-ITACS-17);
                // what it supplies is not, so every type previews.
                let preview = referee
                    .unit_preview(system, &Value::Object(stats.clone()))
                    .unwrap_or_else(|e| {
                        panic!(
                            "{system} {} = {}: {:?} ({stats:?})",
                            field.key, option.key, e
                        )
                    });
                assert!(!preview.summary.is_empty());
                for v in &preview.values {
                    assert!(!v.label.is_empty() && !v.rule.is_empty(), "{system}: {v:?}");
                }
            }
        }
    }
}

fn option<'f>(form: &'f UnitForm, field: &str, key: &str) -> &'f referee_api::UnitOption {
    form.fields
        .iter()
        .find(|f| f.key == field)
        .and_then(|f| f.options.iter().find(|o| o.key == key))
        .unwrap_or_else(|| panic!("no {field} {key}"))
}

fn value(values: &[referee_api::PrintedValue], label: &str) -> String {
    values
        .iter()
        .find(|v| v.label == label)
        .map(|v| v.value.clone())
        .unwrap_or_else(|| panic!("no {label} in {values:?}"))
}

#[test]
fn the_printed_values_are_the_rulesets() {
    let referee = Referee::builtin();
    // ITACS 10.2.4: Longbowmen (LB) are class Ff, combat ".", fire 3, movement 5.
    let form = referee.unit_form("itacs").unwrap();
    let lb = option(&form, "type", "LB");
    assert_eq!(lb.label, "Longbowmen (LB)");
    assert_eq!(lb.fills, vec!["class", "combat", "fire", "movement"]);
    assert_eq!(value(&lb.printed, "Fire strength"), "3");
    assert_eq!(value(&lb.printed, "Combat strength"), ".");
    assert_eq!(value(&lb.printed, "Movement points"), "5");
    assert!(value(&lb.printed, "Unit class").starts_with("Ff"));
    let fire_rule = &lb
        .printed
        .iter()
        .find(|v| v.label == "Fire strength")
        .unwrap()
        .rule;
    assert_eq!(fire_rule, "4.2.8 and 4.4.2");
    // Heavy Cavalry (HC): class C, combat [4] (2.4.6); a type the text gives nothing for fills nothing.
    let hc = option(&form, "type", "HC");
    assert_eq!(value(&hc.printed, "Combat strength"), "[4]");
    assert!(option(&form, "type", "MI").fills.is_empty());
    let p = referee
        .unit_preview("itacs", &json!({"type": "SD", "count": 6}))
        .unwrap();
    assert_eq!(p.summary, "6 × Swordsmen, class B, combat 4");
    assert_eq!(value(&p.values, "Movement points"), "4");

    // Medieval 1.1: heavy cavalry have armour 2; infantry have no charge factor to ask.
    let form = referee.unit_form("medieval").unwrap();
    let hc = option(&form, "type", "heavy_cavalry");
    assert_eq!(hc.label, "Heavy cavalry");
    assert_eq!(value(&hc.printed, "Armour level"), "2");
    assert!(option(&form, "type", "heavy_infantry")
        .fills
        .contains(&"cf".to_string()));
    let cf = form.fields.iter().find(|f| f.key == "cf").unwrap();
    assert_eq!(cf.max, Some(3));
    let p = referee
        .unit_preview(
            "medieval",
            &json!({"type": "heavy_cavalry", "sp": 2, "cf": 3}),
        )
        .unwrap();
    assert_eq!(p.summary, "Heavy cavalry, 2 SP, armour 2, CF 3");
    // 4.5.1: a counter of 5 SPs no hex could hold is refused as it is entered.
    let e = referee
        .unit_preview("medieval", &json!({"type": "heavy_cavalry", "sp": 5}))
        .unwrap_err();
    assert_eq!(e.field.as_deref(), Some("sp"));
    assert_eq!(
        e.message,
        "Strength points (SP) must be a whole number from 1 to 2."
    );
    plain(&e.message);
    assert_eq!(
        form.fields.iter().find(|f| f.key == "sp").unwrap().max,
        Some(2)
    );
    // The form calls a heavy cavalry unit by its name, not its key.
    assert_eq!(hc.unit_label.as_deref(), Some("Heavy cavalry"));

    // GTS Table 2.10: Confident morale is response +2, quality +1; the preview is the builder's.
    let form = referee.unit_form("gts").unwrap();
    let c = option(&form, "morale", "C");
    assert_eq!(c.label, "Confident (C)");
    assert_eq!(value(&c.printed, "Response"), "+2");
    assert_eq!(option(&form, "armour", "M").label, "Medium armour (M)");
    let p = referee
        .unit_preview(
            "gts",
            &json!({"class": "infantry", "morale": "C", "training": "D", "armour": "H", "weapon": "SP", "order": "CO", "stands": 4}),
        )
        .unwrap();
    assert!(
        p.summary.starts_with("4 stands of Infantry (Spear)"),
        "{}",
        p.summary
    );
    assert!(p.values.iter().any(|v| v.label.starts_with("Response")));

    // DBMM p. 36: Knights (Kn) are mounted; the preview is the troop model.
    let form = referee.unit_form("dbmm").unwrap();
    let kn = option(&form, "type", "Kn");
    assert_eq!(kn.label, "Knights (Kn)");
    assert_eq!(value(&kn.printed, "Class"), "Mounted");
    assert_eq!(option(&form, "grade", "S").label, "Superior (S)");
    let p = referee
        .unit_preview(
            "dbmm",
            &json!({"type": "Kn", "grade": "O", "general": true}),
        )
        .unwrap();
    assert!(!p.values.is_empty());
}

#[test]
fn bad_stats_name_the_field_in_plain_words() {
    let referee = Referee::builtin();
    let cases = [
        (
            "itacs",
            json!({"type": "XX", "count": 2}),
            "type",
            "Unit type: the rules have no unit type called XX. Pick one from the list.",
        ),
        (
            "itacs",
            json!({"type": "SD", "count": 0}),
            "count",
            "Units in the hex must be a whole number from 1 to 10,000.",
        ),
        (
            "itacs",
            json!({"count": 2}),
            "type",
            "Unit type: every unit needs one; pick one from the list.",
        ),
        (
            "itacs",
            json!({"type": "SD", "count": "six"}),
            "count",
            "Units in the hex must be a whole number from 1 to 10,000.",
        ),
        (
            "itacs",
            json!({"type": "SD", "colour": "red"}),
            "colour",
            "The rules give a unit no value called colour: leave it out.",
        ),
        (
            "medieval",
            json!({"type": "knights", "sp": 2}),
            "type",
            "Unit type: the rules have no unit type called knights. Pick one from the list.",
        ),
        (
            "medieval",
            json!({"type": "heavy_infantry", "sp": 2, "cf": 2}),
            "cf",
            "",
        ),
        (
            "gts",
            json!({"class": "infantry", "weapon": "SP", "stands": 4, "armour": "Q"}),
            "armour",
            "",
        ),
        (
            "dbmm",
            json!({"type": "Kn", "grade": "Q"}),
            "grade",
            "Grade: the rules have no grade called Q. Pick one from the list.",
        ),
        ("dbmm", json!({"type": "Train", "grade": "O"}), "type", ""),
    ];
    for (system, stats, field, message) in cases {
        let e = referee.unit_preview(system, &stats).unwrap_err();
        assert_eq!(e.field.as_deref(), Some(field), "{system} {stats}: {e:?}");
        plain(&e.message);
        if !message.is_empty() {
            assert_eq!(e.message, message);
        }
    }
    // An error the ruleset itself finds (only cavalry charge) is plain too, with its field.
    let e = referee
        .unit_preview(
            "medieval",
            &json!({"type": "heavy_infantry", "sp": 2, "cf": 2}),
        )
        .unwrap_err();
    assert!(
        e.message.starts_with("Charge factor (CF): "),
        "{}",
        e.message
    );
}

#[test]
fn each_csv_template_imports_through_the_roster_checks() {
    let referee = Referee::builtin();
    for system in SYSTEMS {
        let text = referee.roster_csv_template(system).unwrap();
        let form = referee.unit_form(system).unwrap();
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
        assert_eq!(header[0], "label");
        assert_eq!(
            header[1..].to_vec(),
            form.fields
                .iter()
                .map(|f| f.key.clone())
                .collect::<Vec<_>>()
        );
        let roster = roster_from_csv("template", system, &text).unwrap();
        assert_eq!(roster.units.len(), 2, "{system}:\n{text}");
        check_roster(&referee, &roster).unwrap_or_else(|e| panic!("{system}: {e:?}\n{text}"));
        for unit in &roster.units {
            referee
                .unit_preview(system, &unit.stats)
                .unwrap_or_else(|e| panic!("{system}: {e:?}"));
        }
    }
}

/// ITACS issue 31 item 5 (R-ITACS-17): what a unit's type does not give is asked when the unit
/// is added, each beside its own field; what the type gives is not asked again.
#[test]
fn itacs_asks_at_entry_what_the_type_does_not_give() {
    let referee = Referee::builtin();
    let refused = |stats: Value| {
        referee
            .unit_preview("itacs", &stats)
            .expect_err(&format!("{stats} should be refused"))
    };
    // Militia Infantry (MI): the text gives no class and no strength.
    let e = refused(json!({"type": "MI", "count": 2}));
    assert_eq!(e.field.as_deref(), Some("class"), "{e:?}");
    plain(&e.message);
    let e = refused(json!({"type": "MI", "class": "A", "count": 2}));
    assert_eq!(e.field.as_deref(), Some("combat"), "{e:?}");
    plain(&e.message);
    // Crossbowmen (CB) are missile troops (Ff) without a printed fire strength.
    let e = refused(json!({"type": "CB", "combat": "2", "count": 1}));
    assert_eq!(e.field.as_deref(), Some("fire"), "{e:?}");
    assert_eq!(e.ruling.as_deref(), Some("R-ITACS-17"));
    plain(&e.message);
    let p = referee
        .unit_preview(
            "itacs",
            &json!({"type": "CB", "combat": "2", "fire": 2, "count": 1}),
        )
        .unwrap();
    assert!(p.summary.contains("combat 2"), "{}", p.summary);
    // A type that gives its class and strength (PS: A, 4) asks neither.
    referee
        .unit_preview("itacs", &json!({"type": "PS", "count": 2}))
        .unwrap();
    // A class picked by hand that fires (Mf) asks the fire strength too.
    let e = refused(json!({"type": "MI", "class": "Mf", "combat": "3", "count": 1}));
    assert_eq!(e.field.as_deref(), Some("fire"), "{e:?}");
}

/// GTS skirmish stands are units of one stand each on the roster (3.12, 4.32, R-GTS-31).
#[test]
fn gts_skirmish_stands_are_entered_one_by_one() {
    let referee = Referee::builtin();
    let peltasts = |stands: u32| json!({"class": "infantry", "armour": "N", "weapon": "JV", "stands": stands, "skirmish": true});
    let e = referee.unit_preview("gts", &peltasts(4)).unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.field.as_deref(), e.ruling.as_deref()),
        ("unit.skirmish_stands", Some("stands"), Some("R-GTS-31"))
    );
    assert!(e.message.contains("add 4 such units"), "{}", e.message);
    plain(&e.message);
    referee.unit_preview("gts", &peltasts(1)).unwrap();
    // Formed, the same four stands are one unit.
    let mut formed = peltasts(4);
    formed["skirmish"] = json!(false);
    referee.unit_preview("gts", &formed).unwrap();
}

/// A unit of another system says which system it belongs to (issue 31 item 8).
#[test]
fn a_unit_of_another_system_names_its_system() {
    let referee = Referee::builtin();
    let name = |id: &str| {
        referee
            .rulesets()
            .systems
            .into_iter()
            .find(|s| s.id == id)
            .unwrap()
            .name
    };
    let e = referee
        .unit_preview("itacs", &json!({"type": "Kn", "count": 1}))
        .unwrap_err();
    assert_eq!(e.field.as_deref(), Some("type"));
    assert_eq!(e.code, "unit.other_system");
    assert!(e.message.contains("Knights (Kn)"), "{}", e.message);
    assert!(e.message.contains(&name("dbmm")), "{}", e.message);
    assert!(e.message.contains(&name("itacs")), "{}", e.message);
    plain(&e.message);
    let e = referee
        .unit_preview("dbmm", &json!({"type": "SD", "grade": "O"}))
        .unwrap_err();
    assert!(e.message.contains(&name("itacs")), "{}", e.message);
    // An ITACS unit in a Medieval roster says it is ITACS's, when added as when previewed.
    let e = referee
        .unit_preview("medieval", &json!({"type": "SD", "count": 4}))
        .unwrap_err();
    assert_eq!(e.code, "unit.other_system");
    assert!(e.message.contains(&name("itacs")), "{}", e.message);
    plain(&e.message);
    // A value no system knows keeps the plain refusal.
    let e = referee
        .unit_preview("itacs", &json!({"type": "ZZ", "count": 1}))
        .unwrap_err();
    assert!(!e.message.contains("belongs to"), "{}", e.message);
}
