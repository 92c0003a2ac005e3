use super::*;
use crate::systems::{builtin, Ruleset};

fn base() -> SourceFile<'static> {
    builtin("itacs").unwrap()
}

fn load_with(text: &str) -> Result<Ruleset, RefereeError> {
    Ruleset::load(&Layers {
        base: SourceFile {
            name: "rulesets/itacs.toml",
            text,
        },
        house_rules: vec![],
    })
}

fn line_containing(text: &str, needle: &str, after: &str) -> usize {
    let start = text.find(after).unwrap();
    line_of_offset(text, start + text[start..].find(needle).unwrap())
}

#[test]
fn a_wrong_type_names_file_line_and_key_path() {
    let text = base().text.replacen(
        "melee = -4\nrule = \"10.3\"\n\n[terrain.mud]",
        "melee = \"high\"\nrule = \"10.3\"\n\n[terrain.mud]",
        1,
    );
    let e = load_with(&text).unwrap_err();
    let line = line_containing(&text, "melee = \"high\"", "[terrain.swamp]");
    assert_eq!(e.code, "ruleset.invalid");
    assert_eq!(e.field.as_deref(), Some("terrain.swamp.melee"));
    assert_eq!(e.location, Some(format!("rulesets/itacs.toml:{line}")));
    assert!(
        e.message.contains("must be a whole number"),
        "{}",
        e.message
    );
    assert_eq!(
        e.one_line(),
        format!(
            "rulesets/itacs.toml:{line} terrain.swamp.melee: {}",
            e.message
        )
    );
}

#[test]
fn a_syntax_error_names_its_line() {
    let text = format!("{}\n[broken\n", base().text);
    let e = load_with(&text).unwrap_err();
    assert_eq!(e.code, "ruleset.syntax");
    assert_eq!(
        e.location,
        Some(format!("rulesets/itacs.toml:{}", text.lines().count()))
    );
}

#[test]
fn a_gap_in_a_results_table_is_found() {
    let text = base()
        .text
        .replace("  { min = 9, max = 10, result = \"D1X\" },\n", "");
    let e = load_with(&text).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("missile.results[2].min"));
    assert!(
        e.message.contains("Rolls 9 to 10 have no row"),
        "{}",
        e.message
    );
}

#[test]
fn an_unknown_key_and_an_unknown_result_are_refused() {
    let text = base()
        .text
        .replace("[scarp]\n", "[scarp]\nfiring_sideways = 1\n");
    let e = load_with(&text).unwrap_err();
    assert!(
        e.message
            .contains("has a firing sideways value, which the rules do not use here"),
        "{}",
        e.message
    );
    assert_eq!(e.field.as_deref(), Some("scarp.firing_sideways"));
    let text = base().text.replace(
        "{ min = 11, result = \"DX\" }",
        "{ min = 11, result = \"DXX\" }",
    );
    let e = load_with(&text).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("missile.results[3].result"));
}

#[test]
fn the_builtin_ruleset_loads_and_has_a_stable_fingerprint() {
    let a = load_with(base().text).unwrap();
    let b = load_with(base().text).unwrap();
    assert_eq!(a.info.fingerprint, b.info.fingerprint);
    // Every phase of the sequence of play offers only actions the system has.
    let ids: Vec<&str> = a.info.actions.iter().map(|x| x.id.as_str()).collect();
    assert!(ids.contains(&"melee") && ids.contains(&"victory"));
    for phase in &a.info.phases {
        for action in &phase.actions {
            assert!(ids.contains(&action.as_str()), "{action} in {}", phase.key);
        }
    }
    assert_eq!(a.info.phases.len(), 5);
}

const HOUSE: &str = r#"extends = "itacs"
name = "Club rules"
remove = ["terrain.mountain"]

[set.melee]
below_lowest_column = "forbid"

[set.terrain.quagmire]
name = "Quagmire"
missile = 0
melee = -5
rule = "house rule"
"#;

fn load_house(text: &str) -> Result<Ruleset, RefereeError> {
    Ruleset::load(&Layers {
        base: base(),
        house_rules: vec![SourceFile {
            name: "club.toml",
            text,
        }],
    })
}

#[test]
fn a_house_rule_adds_overrides_and_removes_entries() {
    let r = load_house(HOUSE).unwrap();
    let data = r
        .data::<crate::systems::itacs::Itacs>()
        .expect("an ITACS house rule loads as ITACS");
    assert!(data.terrain.contains_key("quagmire"));
    assert!(!data.terrain.contains_key("mountain"));
    assert_eq!(
        data.melee.below_lowest_column,
        crate::systems::itacs::data::BelowLowest::Forbid
    );
    // Untouched entries stay.
    assert_eq!(data.terrain["swamp"].melee, Some(-4));
    assert_eq!(r.info.layers, vec!["rulesets/itacs.toml", "club.toml"]);
    assert_ne!(
        r.info.fingerprint,
        load_with(base().text).unwrap().info.fingerprint
    );
}

#[test]
fn a_house_rule_error_points_into_the_house_rule_file() {
    let bad = HOUSE.replace("melee = -5", "melee = \"very bad\"");
    let e = load_house(&bad).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("terrain.quagmire.melee"));
    assert_eq!(e.location.as_deref(), Some("club.toml:11"));
    let e = load_house(&HOUSE.replace("terrain.mountain", "terrain.volcano")).unwrap_err();
    assert_eq!(e.code, "house_rule.invalid");
    assert!(e.message.contains("terrain.volcano"));
    let e = load_house("name = \"no extends\"").unwrap_err();
    assert_eq!(e.code, "house_rule.invalid");
    let e = load_house("extends = \"itacs\"\nsett = {}").unwrap_err();
    assert!(e.message.contains("Unknown key “sett”"), "{}", e.message);
}

#[test]
fn key_paths_into_arrays_are_located() {
    let text = base().text;
    let line = locate_path(text, "melee.columns[3].ratio").unwrap();
    assert!(text.lines().nth(line - 1).unwrap().contains("3:1"));
}

#[test]
fn every_switchable_ruling_names_its_ruling_and_loads_on_its_ruleset() {
    for (name, text) in crate::systems::SWITCHES {
        let file = SourceFile { name, text };
        let rule = HouseRule::parse(file).unwrap();
        let ruling = rule.ruling.clone().unwrap_or_default();
        assert!(ruling.starts_with("R-"), "{name}: ruling {ruling:?}");
        assert!(rule.name.is_some() && rule.description.is_some(), "{name}");
        let plain = Ruleset::load(&Layers {
            base: builtin(&rule.extends).unwrap(),
            house_rules: vec![],
        })
        .unwrap();
        let switched = Ruleset::load(&Layers {
            base: builtin(&rule.extends).unwrap(),
            house_rules: vec![file],
        })
        .unwrap();
        assert_ne!(plain.info.fingerprint, switched.info.fingerprint, "{name}");
        assert_eq!(switched.info.layers.last().map(String::as_str), Some(*name));
    }
}

#[test]
fn a_house_rule_with_an_unknown_key_lists_the_keys_it_may_have() {
    let e = HouseRule::parse(SourceFile {
        name: "club.toml",
        text: "extends = \"itacs\"\nrulling = \"R-ITACS-1\"\n",
    })
    .unwrap_err();
    assert_eq!(e.field.as_deref(), Some("rulling"));
    assert_eq!(e.location.as_deref(), Some("club.toml:2"));
    assert!(e.message.contains("ruling, description"), "{}", e.message);
}

/// A system's data with a companion file: the N-th of `COMPANIONS`.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct WithCompanion<const N: usize> {
    #[allow(dead_code)]
    kept: i64,
    depths: Depths,
}

#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Depths {
    wedge: i64,
}

const COMPANIONS: [&str; 4] = [
    "# depths\n[depths]\nwedge = 40\n",
    "# depths\n[depths]\nwedge = \"deep\"\n",
    "# depths\n[depths]\nwedge = -1\n",
    "# depths\n[kept]\nwedge = 1\n",
];

impl<const N: usize> SystemData for WithCompanion<N> {
    const COMPANION: Option<SourceFile<'static>> = Some(SourceFile {
        name: "rulesets/x-tables.toml",
        text: COMPANIONS[N],
    });

    fn problems(&self) -> Vec<Problem> {
        if self.depths.wedge <= 0 {
            vec![Problem::new(
                "depths.wedge",
                "a base is deeper than 0 paces",
            )]
        } else {
            Vec::new()
        }
    }
}

fn load_companion<const N: usize>(house: Option<&str>) -> Result<WithCompanion<N>, RefereeError> {
    load_typed(
        &Layers {
            base: SourceFile {
                name: "rulesets/x.toml",
                text: "kept = 1\n",
            },
            house_rules: house
                .map(|text| SourceFile {
                    name: "house.toml",
                    text,
                })
                .into_iter()
                .collect(),
        },
        WithCompanion::<N>::COMPANION,
        &[],
    )
}

const SEQUENCE: &str = "[[sequence]]\nkey = \"movement\"\nname = \"Movement\"\nactions = [\"march\"]\nsteps = [{ text = \"Then spontaneous advances\" }]\n";

/// The sequence after the companion's phase actions joined it, or the refusal.
fn with_phase_actions(companion: &str) -> Result<toml::Table, RefereeError> {
    let mut table = parse_table(SourceFile {
        name: "x.toml",
        text: SEQUENCE,
    })?;
    let companion = SourceFile {
        name: "rulesets/x-tables.toml",
        text: companion,
    };
    let known = ["march", "advance", "shoot"].map(String::from);
    join_companion(&mut table, companion, &known)?;
    Ok(table)
}

#[test]
fn a_companion_adds_actions_to_phases_and_steps() {
    let table = with_phase_actions(
        "# added\nphase_actions = [\n  { phase = \"movement\", action = \"advance\", before = \"march\", step = \"Then spontaneous advances\" },\n  { phase = \"movement\", action = \"shoot\" },\n]\n",
    )
    .unwrap();
    let phase = &table["sequence"][0];
    let actions: Vec<&str> = phase["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert_eq!(actions, ["advance", "march", "shoot"]);
    assert_eq!(phase["steps"][0]["action"].as_str(), Some("advance"));
    assert!(!table.contains_key("phase_actions"));
}

#[test]
fn a_companion_adding_an_unknown_phase_action_or_step_is_refused_at_its_line() {
    let cases = [
        (
            "{ phase = \"shooting\", action = \"shoot\" }",
            "phase_actions[0].phase",
            "No phase “shooting” in the sequence of play; its phases: movement.",
        ),
        (
            "{ phase = \"movement\", action = \"fly\" }",
            "phase_actions[0].action",
            "Unknown action “fly”; the system’s actions: march, advance, shoot.",
        ),
        (
            "{ phase = \"movement\", action = \"march\" }",
            "phase_actions[0].action",
            "The phase Movement already offers “march”.",
        ),
        (
            "{ phase = \"movement\", action = \"shoot\", before = \"fly\" }",
            "phase_actions[0].before",
            "The phase Movement does not offer “fly”; it offers: march.",
        ),
        (
            "{ phase = \"movement\", action = \"shoot\", step = \"Rout\" }",
            "phase_actions[0].step",
            "The phase Movement has no step “Rout”; its steps: Then spontaneous advances.",
        ),
    ];
    for (row, field, message) in cases {
        let e =
            with_phase_actions(&format!("# added\nphase_actions = [\n  {row},\n]\n")).unwrap_err();
        assert_eq!(e.message, message);
        assert_eq!(e.field.as_deref(), Some(field));
        assert_eq!(
            e.location.as_deref(),
            Some("rulesets/x-tables.toml:3"),
            "{message}"
        );
    }
    let e = with_phase_actions("phase_actions = [{ phase = \"movement\", acton = \"shoot\" }]\n")
        .unwrap_err();
    assert_eq!(e.location.as_deref(), Some("rulesets/x-tables.toml:1"));
    assert!(e.message.contains("acton"), "{}", e.message);
}

#[test]
fn a_companion_file_joins_its_tables_and_a_bad_one_is_refused_at_its_own_line() {
    assert_eq!(load_companion::<0>(None).unwrap().depths.wedge, 40);
    // A house rule changes a companion's table like any other.
    let house = "extends = \"x\"\nname = \"Deeper\"\n[set.depths]\nwedge = 50\n";
    assert_eq!(load_companion::<0>(Some(house)).unwrap().depths.wedge, 50);
    let e = load_companion::<1>(None).unwrap_err();
    assert_eq!(e.code, "ruleset.invalid");
    assert_eq!(e.field.as_deref(), Some("depths.wedge"));
    assert_eq!(e.location.as_deref(), Some("rulesets/x-tables.toml:3"));
    let e = load_companion::<2>(None).unwrap_err();
    assert_eq!(e.location.as_deref(), Some("rulesets/x-tables.toml:3"));
    assert_eq!(e.message, "A base is deeper than 0 paces.");
    // A table both files give is refused, in words, at the companion's line.
    let e = load_companion::<3>(None).unwrap_err();
    assert_eq!(e.location.as_deref(), Some("rulesets/x-tables.toml:2"));
    assert!(
        e.message.contains("given both here and in the ruleset"),
        "{}",
        e.message
    );
}

#[test]
fn the_dbmm_companion_is_checked_like_the_ruleset() {
    let dbmm = builtin("dbmm").unwrap();
    let house = SourceFile {
        name: "house.toml",
        text: "extends = \"dbmm\"\nname = \"Odd bases\"\n[set.basing]\nrows = [{ who = \"Kn (Q)\", depth = 30 }]\n",
    };
    let e = Ruleset::load(&Layers {
        base: dbmm,
        house_rules: vec![house],
    })
    .unwrap_err();
    assert_eq!(e.field.as_deref(), Some("basing.rows[0].who"));
    assert_eq!(e.location.as_deref(), Some("house.toml:4"));
    // The companion is not part of the fingerprint: the ruleset file's bytes are.
    let plain = Ruleset::load(&Layers {
        base: dbmm,
        house_rules: vec![],
    })
    .unwrap();
    assert_eq!(
        plain.info.fingerprint,
        Layers {
            base: dbmm,
            house_rules: vec![]
        }
        .fingerprint()
    );
}

#[test]
fn the_builtin_companions_add_their_actions_to_phases() {
    let phase = |id: &str, key: &str| {
        let r = Ruleset::load(&Layers {
            base: builtin(id).unwrap(),
            house_rules: vec![],
        })
        .unwrap();
        r.info.phases.into_iter().find(|p| p.key == key).unwrap()
    };
    // DBMM: the spontaneous advance step is resolved in its phase (p. 26, 30).
    let movement = phase("dbmm", "movement");
    assert!(movement.actions.iter().any(|a| a == "spontaneous_advance"));
    let step = movement
        .steps
        .iter()
        .find(|s| s.text.starts_with("Then spontaneous advances"))
        .unwrap();
    assert_eq!(step.action.as_deref(), Some("spontaneous_advance"));
    assert!(phase("dbmm", "close_combat")
        .actions
        .iter()
        .any(|a| a == "interpenetration"));
    // GTS: a unit's move first in the Movement phase (0.0 B), as it was before.
    assert_eq!(phase("gts", "movement").actions[0], "movement");
}
