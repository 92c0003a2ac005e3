//! Presets: a battle's sides and units as data (`rulesets/presets/<system>-<name>.toml`), built
//! from the rule texts' scenarios and worked examples, or dropped by a club into the data folder.
//! A preset is checked as a battle begun from it would be: its ruleset must be loaded, its sides
//! must make a battle, and every unit must enter it (its system's check at entry). Errors name
//! `file:line` and the key path. Texts come in from the caller; this module reads no files.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::battle::{Battle, BattleSetup, SideSetup, UnitSpec};
use crate::error::RefereeError;
use crate::ruleset::{parse_data_table, Layers, SourceFile};
use crate::systems::Ruleset;
use crate::ErrorCode;

/// The presets shipped with the app, embedded at compile time: (file, text).
pub const BUILTIN_PRESETS: &[(&str, &str)] = &[
    (
        "rulesets/presets/itacs-melee-example.toml",
        include_str!("../../../rulesets/presets/itacs-melee-example.toml"),
    ),
    (
        "rulesets/presets/itacs-multi-hex.toml",
        include_str!("../../../rulesets/presets/itacs-multi-hex.toml"),
    ),
    (
        "rulesets/presets/itacs-defensive-fire.toml",
        include_str!("../../../rulesets/presets/itacs-defensive-fire.toml"),
    ),
    (
        "rulesets/presets/itacs-missile-example.toml",
        include_str!("../../../rulesets/presets/itacs-missile-example.toml"),
    ),
    (
        "rulesets/presets/medieval-combat-example.toml",
        include_str!("../../../rulesets/presets/medieval-combat-example.toml"),
    ),
    (
        "rulesets/presets/gts-cavalry-melee.toml",
        include_str!("../../../rulesets/presets/gts-cavalry-melee.toml"),
    ),
    (
        "rulesets/presets/dbmm-combat-example.toml",
        include_str!("../../../rulesets/presets/dbmm-combat-example.toml"),
    ),
    (
        "rulesets/presets/dbmm-whole-bound.toml",
        include_str!("../../../rulesets/presets/dbmm-whole-bound.toml"),
    ),
];

/// A battle ready to begin: its sides and units, with the rule section they come from.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct Preset {
    /// The file stem, e.g. `itacs-melee-example`.
    pub id: String,
    pub name: String,
    pub ruleset: String,
    /// The section of the rule text the forces come from.
    pub rule: String,
    /// One plain sentence for the begin form's preview.
    pub description: String,
    /// Shipped with the app, or a file of the data folder's `presets/`.
    pub builtin: bool,
    pub sides: Vec<SideSetup>,
    pub units: Vec<UnitSpec>,
}

/// The file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PresetFile {
    name: String,
    ruleset: String,
    #[serde(default)]
    rule: String,
    #[serde(default)]
    description: String,
    sides: Vec<SideSetup>,
    #[serde(default)]
    units: Vec<UnitSpec>,
}

/// A preset's units under the sides a battle begins with, which the umpire may have renamed: a
/// unit of the preset's first side joins the first side whatever it is called now, and a unit of
/// a side's second command the second command. A unit whose side or command the preset does not
/// list keeps its own, for the battle to refuse in words.
pub fn units_under(from: &[SideSetup], units: &[UnitSpec], to: &[SideSetup]) -> Vec<UnitSpec> {
    units
        .iter()
        .map(|u| {
            let mut u = u.clone();
            let Some(i) = from.iter().position(|s| s.name == u.side) else {
                return u;
            };
            let Some(side) = to.get(i) else { return u };
            let command = u
                .command
                .as_ref()
                .and_then(|c| from[i].commands.iter().position(|x| x == c))
                .and_then(|j| side.commands.get(j));
            if let Some(c) = command {
                u.command = Some(c.clone());
            }
            u.side = side.name.clone();
            u
        })
        .collect()
}

/// The id of a preset file: its stem (`rulesets/presets/itacs-melee-example.toml` →
/// `itacs-melee-example`).
pub fn preset_id(file_name: &str) -> String {
    let base = file_name.rsplit(['/', '\\']).next().unwrap_or(file_name);
    base.strip_suffix(".toml").unwrap_or(base).to_string()
}

/// Reads and checks one preset file against the rulesets loaded.
pub fn load(
    file: SourceFile,
    builtin: bool,
    rulesets: &BTreeMap<String, Ruleset>,
) -> Result<Preset, RefereeError> {
    let at = |path: &str| {
        Layers {
            base: file,
            house_rules: vec![],
        }
        .locate(path)
    };
    let table = parse_data_table(file, ErrorCode::PresetSyntax)?;
    let parsed: PresetFile =
        serde_path_to_error::deserialize(toml::Value::Table(table)).map_err(|e| {
            let path = e.path().to_string();
            let path = if path == "." { String::new() } else { path };
            let message = crate::error::plain_serde_error(e.inner().message(), &path);
            RefereeError::new(ErrorCode::PresetInvalid, message)
                .location(at(&path))
                .field(path)
        })?;
    let ruleset = rulesets.get(&parsed.ruleset).ok_or_else(|| {
        let known: Vec<&str> = rulesets.keys().map(String::as_str).collect();
        RefereeError::new(
            ErrorCode::PresetUnknownRuleset,
            format!(
                "This preset is for the ruleset {}, which is not loaded here; the rulesets are {}.",
                parsed.ruleset,
                known.join(", ")
            ),
        )
        .location(at("ruleset"))
        .field("ruleset")
    })?;
    let setup = BattleSetup {
        name: parsed.name.clone(),
        ruleset: parsed.ruleset.clone(),
        fingerprint: ruleset.info.fingerprint.clone(),
        sides: parsed.sides.clone(),
    };
    // Exactly as a battle begun from it: the sides checked, then each unit entered in turn.
    Battle::create_with_units(ruleset, setup, &parsed.units, "").map_err(|e| {
        let location = at(e.field.as_deref().unwrap_or(""));
        e.location(location)
    })?;
    Ok(Preset {
        id: preset_id(file.name),
        name: parsed.name,
        ruleset: parsed.ruleset,
        rule: parsed.rule,
        description: parsed.description,
        builtin,
        sides: parsed.sides,
        units: parsed.units,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::Role;

    fn side(name: &str, commands: &[&str]) -> SideSetup {
        SideSetup {
            name: name.into(),
            commands: commands.iter().map(|c| c.to_string()).collect(),
            panic_level: None,
            stacking_limit: None,
        }
    }

    fn unit(side: &str, command: Option<&str>) -> UnitSpec {
        UnitSpec {
            label: "Bd".into(),
            side: side.into(),
            command: command.map(str::to_string),
            role: Role::Unit,
            stats: serde_json::json!({}),
        }
    }

    #[test]
    fn units_follow_their_side_and_command_by_place_when_renamed() {
        let from = [side("Attacker", &["Left", "Right"]), side("Defender", &[])];
        let to = [side("Romans", &["Legio I", "Legio II"]), side("Gauls", &[])];
        let units = [
            unit("Attacker", Some("Right")),
            unit("Defender", None),
            unit("Attacker", None),
            // Not the preset's: left as it is, for the battle to refuse by name.
            unit("Thebans", None),
        ];
        let under: Vec<(String, Option<String>)> = units_under(&from, &units, &to)
            .into_iter()
            .map(|u| (u.side, u.command))
            .collect();
        assert_eq!(
            under,
            vec![
                ("Romans".to_string(), Some("Legio II".to_string())),
                ("Gauls".to_string(), None),
                ("Romans".to_string(), None),
                ("Thebans".to_string(), None),
            ]
        );
    }
}
