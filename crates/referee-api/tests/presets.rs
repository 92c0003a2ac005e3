//! Presets: every file of `rulesets/presets/` is built in, loads, and begins a battle with its
//! units; a club's preset in the data folder is listed, a broken one reported alone with its
//! file and line; a new battle with a refused unit writes nothing.

use std::collections::BTreeSet;
use std::path::PathBuf;

use referee_api::{Battles, HouseRuleChoice, NewBattle, Referee};
use referee_core::preset::BUILTIN_PRESETS;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The roster's units as (label, side).
fn on_roster(view: &referee_api::BattleView) -> Vec<(String, String)> {
    view.state
        .units
        .values()
        .map(|u| (u.label.clone(), u.side.clone()))
        .collect()
}

/// A preset's units as (label, side), each side named by `side`.
fn in_preset(
    preset: &referee_core::preset::Preset,
    side: impl Fn(&str) -> String,
) -> Vec<(String, String)> {
    preset
        .units
        .iter()
        .map(|u| (u.label.clone(), side(&u.side)))
        .collect()
}

#[test]
fn every_preset_file_is_built_in_loads_and_begins_a_battle_with_its_units() {
    let on_disk: BTreeSet<String> = std::fs::read_dir(root().join("rulesets/presets"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".toml"))
        .map(|n| format!("rulesets/presets/{n}"))
        .collect();
    let embedded: BTreeSet<String> = BUILTIN_PRESETS.iter().map(|(n, _)| n.to_string()).collect();
    assert_eq!(
        on_disk, embedded,
        "rulesets/presets/ and BUILTIN_PRESETS differ"
    );

    let referee = Referee::builtin();
    let list = referee.presets();
    assert!(list.problems.is_empty(), "{:#?}", list.problems);
    assert_eq!(list.presets.len(), BUILTIN_PRESETS.len());
    let systems: BTreeSet<&str> = list.presets.iter().map(|p| p.ruleset.as_str()).collect();
    assert_eq!(
        systems,
        ["dbmm", "gts", "itacs", "medieval"].into_iter().collect(),
        "at least one preset per system"
    );

    let dir = tempfile::tempdir().unwrap();
    let mut battles = Battles::open(&dir.path().join("referee.db")).unwrap();
    for preset in &list.presets {
        let file = format!("rulesets/presets/{}.toml", preset.id);
        assert!(
            embedded.contains(&file),
            "{} is not its file stem",
            preset.id
        );
        assert!(preset.builtin);
        assert!(preset.id.starts_with(&format!("{}-", preset.ruleset)));
        for text in [&preset.name, &preset.rule, &preset.description] {
            assert!(
                !text.trim().is_empty(),
                "{}: name, rule and description",
                preset.id
            );
        }
        assert!(!preset.description.contains('`'), "{}", preset.id);
        assert!(!preset.units.is_empty(), "{}", preset.id);

        let view = battles
            .create(&referee, &NewBattle::from_preset(preset, None))
            .unwrap_or_else(|e| panic!("{}: {}", preset.id, e.one_line()));
        assert_eq!(view.state.name, preset.name);
        assert_eq!(view.state.ruleset, preset.ruleset);
        assert_eq!(view.events, 1 + preset.units.len() as u64);
        assert_eq!(
            on_roster(&view),
            in_preset(preset, str::to_string),
            "{}",
            preset.id
        );
        let sides: Vec<&str> = view.state.sides.iter().map(|s| s.name.as_str()).collect();
        let preset_sides: Vec<&str> = preset.sides.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(sides, preset_sides);
        // Read back from the file, the battle is the same.
        let mut fresh = Battles::open(&dir.path().join("referee.db")).unwrap();
        let reread = fresh.view(&referee, view.id).unwrap();
        assert_eq!(reread.state, view.state);
    }
    assert_eq!(battles.list().unwrap().len(), list.presets.len());
    assert_eq!(
        referee.preset("itacs-melee-example").unwrap().rule,
        "4.5.13"
    );
    assert_eq!(referee.preset("nope").unwrap_err().code, "preset.unknown");
}

#[test]
fn every_preset_begins_under_any_side_names() {
    let referee = Referee::builtin();
    let dir = tempfile::tempdir().unwrap();
    let mut battles = Battles::open(&dir.path().join("referee.db")).unwrap();
    for preset in &referee.presets().presets {
        // The umpire renames both sides before Begin: the units follow their side by its place.
        let mut new = NewBattle::from_preset(preset, Some("Renamed".into()));
        new.sides[0].name = "Our army".into();
        new.sides[1].name = "The enemy".into();
        let view = battles
            .create(&referee, &new)
            .unwrap_or_else(|e| panic!("{}: {}", preset.id, e.one_line()));
        let first = preset.sides[0].name.clone();
        let renamed = move |side: &str| {
            if side == first {
                "Our army"
            } else {
                "The enemy"
            }
            .to_string()
        };
        assert_eq!(
            on_roster(&view),
            in_preset(preset, renamed),
            "{}",
            preset.id
        );
        // Each side keeps what the preset set it up with besides its name.
        assert_eq!(
            view.state.sides[0].stacking_limit,
            preset.sides[0].stacking_limit
        );
    }
}

const CLUB: &str = r#"name = "Our club's skirmish"
ruleset = "itacs"
description = "Two stacks of swordsmen."

[[sides]]
name = "Red"

[[sides]]
name = "Blue"

[[units]]
label = "R1"
side = "Red"
stats = { type = "SD", count = 2 }

[[units]]
label = "B1"
side = "Blue"
stats = { type = "SD", count = 2 }
"#;

#[test]
fn a_club_preset_is_listed_and_a_broken_one_reported_alone_with_its_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let presets = dir.path().join("presets");
    std::fs::create_dir(&presets).unwrap();
    std::fs::write(presets.join("itacs-club.toml"), CLUB).unwrap();
    // A unit type the ruleset does not have, on line 19.
    let unknown_type = CLUB.replace(
        "label = \"B1\"\nside = \"Blue\"\nstats = { type = \"SD\", count = 2 }",
        "label = \"B1\"\nside = \"Blue\"\nstats = { type = \"XX\", count = 2 }",
    );
    std::fs::write(presets.join("itacs-typo.toml"), unknown_type).unwrap();
    std::fs::write(
        presets.join("gts-elsewhere.toml"),
        "name = \"Elsewhere\"\nruleset = \"warhammer\"\nsides = []\n",
    )
    .unwrap();
    std::fs::write(
        presets.join("medieval-syntax.toml"),
        "name = \"x\nruleset = 1\n",
    )
    .unwrap();
    std::fs::write(
        presets.join("dbmm-field.toml"),
        "name = \"x\"\nruleset = \"dbmm\"\n\n[[sides]]\nname = \"A\"\nflag = \"red\"\n",
    )
    .unwrap();
    // A house rule in the folder itself is no preset, nor is a preset a house rule.
    std::fs::write(
        dir.path().join("club.toml"),
        "extends = \"itacs\"\n[set.terrain.hills]\nmelee = -3\n",
    )
    .unwrap();

    let referee = Referee::choosing(Some(dir.path()), &HouseRuleChoice::default());
    assert!(referee.rulesets().problems.is_empty());
    let list = referee.presets();
    assert_eq!(list.presets.len(), BUILTIN_PRESETS.len() + 1);
    let club = referee.preset("itacs-club").unwrap();
    assert!(!club.builtin);
    assert_eq!(club.name, "Our club's skirmish");
    assert_eq!(club.rule, "");
    assert_eq!(club.units.len(), 2);

    let problem = |file: &str| {
        list.problems
            .iter()
            .find(|e| e.location.as_deref().unwrap_or("").contains(file))
            .unwrap_or_else(|| panic!("no problem for {file}: {:#?}", list.problems))
    };
    assert_eq!(list.problems.len(), 4, "{:#?}", list.problems);
    for e in &list.problems {
        assert!(!e.message.contains('`'), "plain words: {e:?}");
    }

    let typo = problem("itacs-typo.toml");
    assert!(
        typo.location
            .as_deref()
            .unwrap()
            .ends_with("itacs-typo.toml:19"),
        "{typo:?}"
    );
    assert!(
        typo.field.as_deref().unwrap().starts_with("units[1].stats"),
        "{typo:?}"
    );
    assert!(
        typo.message.starts_with("Unit B1 cannot enter the battle"),
        "{typo:?}"
    );

    let elsewhere = problem("gts-elsewhere.toml");
    assert_eq!(elsewhere.code, "preset.unknown_ruleset");
    assert_eq!(elsewhere.field.as_deref(), Some("ruleset"));
    assert!(elsewhere.location.as_deref().unwrap().ends_with(":2"));
    assert!(!elsewhere.message.contains('`'));

    let syntax = problem("medieval-syntax.toml");
    assert_eq!(syntax.code, "preset.syntax");
    assert!(
        syntax.location.as_deref().unwrap().ends_with(":1"),
        "{syntax:?}"
    );

    let field = problem("dbmm-field.toml");
    assert_eq!(field.code, "preset.invalid");
    assert_eq!(field.field.as_deref(), Some("sides[0].flag"), "{field:?}");
    assert!(
        field.location.as_deref().unwrap().ends_with(":6"),
        "{field:?}"
    );

    // A file of the folder with a built-in's name replaces it.
    std::fs::write(
        presets.join("itacs-melee-example.toml"),
        CLUB.replace("Our club's skirmish", "Our own melee example"),
    )
    .unwrap();
    let referee = Referee::choosing(Some(dir.path()), &HouseRuleChoice::default());
    let list = referee.presets();
    assert_eq!(list.presets.len(), BUILTIN_PRESETS.len() + 1);
    let replaced = referee.preset("itacs-melee-example").unwrap();
    assert_eq!(
        (replaced.name.as_str(), replaced.builtin),
        ("Our own melee example", false)
    );
}

#[test]
fn a_new_battle_with_a_refused_unit_writes_nothing_and_names_the_unit() {
    let dir = tempfile::tempdir().unwrap();
    let referee = Referee::builtin();
    let mut battles = Battles::open(&dir.path().join("referee.db")).unwrap();
    let mut new = NewBattle::from_preset(referee.preset("itacs-multi-hex").unwrap(), None);
    new.units[4].stats = serde_json::json!({ "type": "SD", "count": 0 });
    let e = battles.create(&referee, &new).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("units[4].stats.count"), "{e:?}");
    assert!(
        e.message.starts_with("Unit 18.04 cannot enter the battle"),
        "{e:?}"
    );
    assert!(battles.list().unwrap().is_empty());

    new.units[4].stats = serde_json::json!({ "type": "SD" });
    new.units[5].side = "Thebans".into();
    let e = battles.create(&referee, &new).unwrap_err();
    assert_eq!(e.code, "battle.unknown_side");
    assert_eq!(e.field.as_deref(), Some("units[5].side"), "{e:?}");
    assert!(
        e.message.starts_with("Unit 20.05 cannot enter the battle"),
        "{e:?}"
    );
    assert!(battles.list().unwrap().is_empty());

    new.units[5].side = "Swordsmen".into();
    let view = battles.create(&referee, &new).unwrap();
    assert_eq!(view.state.units.len(), 6);
    assert_eq!(battles.list().unwrap().len(), 1);

    // Without units, as before.
    new.units.clear();
    let view = battles.create(&referee, &new).unwrap();
    assert_eq!((view.events, view.state.units.len()), (1, 0));
}

/// A club's scoring file of the folder's `events/` that fails is left out and said with the
/// rulesets' problems (the app shows those on every screen), naming its file; a sound one is
/// offered beside the built-in ones.
#[test]
fn a_club_scoring_file_that_fails_is_said() {
    let dir = tempfile::tempdir().unwrap();
    let events = dir.path().join("events");
    std::fs::create_dir_all(&events).unwrap();
    std::fs::write(
        events.join("club-league.toml"),
        "name = \"Club league\"\ndescription = \"Ours.\"\nwin = 2\ndraw = 1\nloss = 0\nbye_points = 2\nbye_victory_points = 0\ntie_breaks = [\"head_to_head\"]\n",
    )
    .unwrap();
    std::fs::write(
        events.join("broken.toml"),
        "name = \"Broken\"\nwin = \"lots\"\n",
    )
    .unwrap();
    let referee = Referee::choosing(Some(dir.path()), &HouseRuleChoice::default());
    let ids: Vec<String> = referee.scorings().into_iter().map(|s| s.id).collect();
    assert!(ids.contains(&"club-league".to_string()), "{ids:?}");
    assert!(!ids.contains(&"broken".to_string()), "{ids:?}");
    let problems = referee.rulesets().problems;
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(
        problems[0]
            .location
            .as_deref()
            .unwrap_or("")
            .contains("broken.toml"),
        "{problems:#?}"
    );
}
