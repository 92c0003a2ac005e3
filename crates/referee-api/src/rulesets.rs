//! Loading rulesets: the built-in ones, a user folder of full rulesets and house rules, and
//! single files to check.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use referee_core::preset::{self, Preset, BUILTIN_PRESETS};
use referee_core::ruleset::{parse_table, HouseRule, Layers, SourceFile};
use referee_core::systems::{builtin, ruleset_schema, Ruleset, BUILTIN, SWITCHES};
use referee_core::ErrorCode;
use referee_core::{RefereeError, Resolution, SystemInfo};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use referee_core::tournament::Scoring;

use crate::{PresetList, ResolveRequest, RuleSection, RulesetList};

/// The rulesets in force.
#[derive(Clone, Debug)]
pub struct Referee {
    rulesets: BTreeMap<String, Ruleset>,
    house_rules: Vec<HouseRuleInfo>,
    /// The text of each ruleset's base file and of each house rule offered, to find which choice
    /// a battle's fingerprint was made under.
    texts: BTreeMap<String, String>,
    problems: Vec<RefereeError>,
    /// The presets that stand under these rulesets, and the preset files that failed.
    presets: Vec<Preset>,
    preset_problems: Vec<RefereeError>,
    /// An event's scoring settings: the built-in ones, then the data folder's `events/`.
    scorings: Vec<Scoring>,
    scoring_problems: Vec<RefereeError>,
}

/// Which house rules are in force, by the file name each is listed under: by default every
/// house-rule file of the user folder and none of the switchable rulings.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct HouseRuleChoice {
    /// Files to put in force (e.g. `rulesets/switches/itacs-forbid-below-lowest-column.toml`).
    #[serde(default)]
    pub on: Vec<String>,
    /// Files to leave out.
    #[serde(default)]
    pub off: Vec<String>,
}

/// A house rule the umpire can put in force or leave out.
#[derive(Clone, Debug, Serialize, TS)]
pub struct HouseRuleInfo {
    /// The file, as the ruleset's `layers` name it; the key of a `HouseRuleChoice`.
    pub file: String,
    /// The ruleset it changes.
    pub extends: String,
    pub name: String,
    /// The ruling it switches, for a switchable ruling.
    #[ts(optional)]
    pub ruling: Option<String>,
    #[ts(optional)]
    pub description: Option<String>,
    /// Built into the app (a switchable ruling, off by default) rather than a file of the user
    /// folder (on by default).
    pub switch: bool,
    /// In force now.
    pub on: bool,
}

struct UserFile {
    name: String,
    text: String,
}

/// The `.toml` files of a folder, in name order, read; a file that cannot be read is a problem.
fn read_folder(folder: Option<&Path>, problems: &mut Vec<RefereeError>) -> Vec<UserFile> {
    let mut paths: Vec<PathBuf> = match folder.map(std::fs::read_dir) {
        Some(Ok(entries)) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "toml"))
            .collect(),
        _ => Vec::new(),
    };
    paths.sort();
    let mut files = Vec::new();
    for path in paths {
        match read(&path) {
            Ok(text) => files.push(UserFile {
                name: path.display().to_string(),
                text,
            }),
            Err(e) => problems.push(e),
        }
    }
    files
}

fn read(path: &Path) -> Result<String, RefereeError> {
    crate::Limited::Ruleset.read(path)
}

fn is_house_rule(file: SourceFile) -> Result<Option<String>, RefereeError> {
    let table = parse_table(file)?;
    Ok(table
        .get("extends")
        .and_then(|v| v.as_str())
        .map(str::to_string))
}

/// A house-rule file as the settings list it, on or off by the choice (else by its default).
fn house_rule_info(
    file: SourceFile,
    switch: bool,
    choice: &HouseRuleChoice,
) -> Result<HouseRuleInfo, RefereeError> {
    let rule = HouseRule::parse(file)?;
    let chosen = |list: &[String]| list.iter().any(|f| f == file.name);
    let stem = Path::new(file.name).file_stem().map_or_else(
        || file.name.to_string(),
        |s| s.to_string_lossy().into_owned(),
    );
    Ok(HouseRuleInfo {
        file: file.name.to_string(),
        extends: rule.extends,
        name: rule.name.unwrap_or(stem),
        ruling: rule.ruling,
        description: rule.description,
        switch,
        on: if switch {
            chosen(&choice.on)
        } else {
            !chosen(&choice.off)
        },
    })
}

impl Referee {
    /// Only the built-in rulesets.
    pub fn builtin() -> Referee {
        Referee::load(&[], &[], &HouseRuleChoice::default())
    }

    /// The built-in rulesets, replaced or extended by the `.toml` files of a user folder if any: a
    /// file with `[system]` replaces that system's ruleset; a file with `extends` is a house rule.
    /// The house rules the choice puts in force are laid on top: switchable rulings first, then the
    /// folder's (in file-name order). A file that fails is reported in `problems` and left out; the
    /// rest still load. The folder's `presets/` adds presets to the built-in ones (a file of the
    /// same name replaces one), each checked under the rulesets now in force; a broken one is
    /// reported in the presets' own `problems` and left out.
    pub fn choosing(folder: Option<&Path>, choice: &HouseRuleChoice) -> Referee {
        let mut problems = Vec::new();
        let files = read_folder(folder, &mut problems);
        let mut preset_problems = Vec::new();
        let presets = read_folder(
            folder.map(|f| f.join("presets")).as_deref(),
            &mut preset_problems,
        );
        let mut referee = Referee::load(&files, &presets, choice);
        problems.append(&mut referee.problems);
        referee.problems = problems;
        preset_problems.append(&mut referee.preset_problems);
        referee.preset_problems = preset_problems;
        let mut scoring_problems = Vec::new();
        let club = read_folder(
            folder.map(|f| f.join("events")).as_deref(),
            &mut scoring_problems,
        );
        for f in &club {
            let file = SourceFile {
                name: &f.name,
                text: &f.text,
            };
            match referee_core::tournament::scoring::load(file, false) {
                Ok(s) => match referee.scorings.iter_mut().find(|q| q.id == s.id) {
                    Some(q) => *q = s,
                    None => referee.scorings.push(s),
                },
                Err(e) => scoring_problems.push(e),
            }
        }
        referee.scoring_problems.append(&mut scoring_problems);
        referee
    }

    fn load(
        user_files: &[UserFile],
        user_presets: &[UserFile],
        choice: &HouseRuleChoice,
    ) -> Referee {
        let mut problems = Vec::new();
        let mut bases: BTreeMap<String, SourceFile> = BUILTIN
            .iter()
            .map(|b| (b.id.to_string(), b.source()))
            .collect();
        let mut candidates: Vec<(SourceFile, bool)> = SWITCHES
            .iter()
            .map(|(name, text)| (SourceFile { name, text }, true))
            .collect();
        for f in user_files {
            let file = SourceFile {
                name: &f.name,
                text: &f.text,
            };
            match is_house_rule(file) {
                Ok(Some(_)) => candidates.push((file, false)),
                Ok(None) => match referee_core::systems::declared_system(file) {
                    Ok(id) => {
                        bases.insert(id, file);
                    }
                    Err(e) => problems.push(e),
                },
                Err(e) => problems.push(e),
            }
        }
        let mut house_rules = Vec::new();
        let mut texts = BTreeMap::new();
        let mut houses: BTreeMap<String, Vec<SourceFile>> = BTreeMap::new();
        for (file, switch) in candidates {
            match house_rule_info(file, switch, choice) {
                Ok(info) if !bases.contains_key(&info.extends) => problems.push(
                    RefereeError::new(
                        ErrorCode::HouseRuleInvalid,
                        format!("extends “{}”, which is not a ruleset here", info.extends),
                    )
                    .location(format!("{}:1", file.name)),
                ),
                Ok(info) => {
                    if info.on {
                        houses.entry(info.extends.clone()).or_default().push(file);
                    }
                    texts.insert(file.name.to_string(), file.text.to_string());
                    house_rules.push(info);
                }
                Err(e) => problems.push(e),
            }
        }
        let mut rulesets = BTreeMap::new();
        for base in bases.values() {
            texts.insert(base.name.to_string(), base.text.to_string());
        }
        for (id, base) in bases {
            let house_rules = houses.get(&id).cloned().unwrap_or_default();
            match Ruleset::load(&Layers {
                base,
                house_rules: house_rules.clone(),
            }) {
                Ok(r) => {
                    rulesets.insert(id, r);
                }
                Err(e) => {
                    problems.push(e);
                    // A broken user file must not cost the umpire the built-in system.
                    if let Some(fallback) = builtin(&id) {
                        if let Ok(r) = Ruleset::load(&Layers {
                            base: fallback,
                            house_rules: vec![],
                        }) {
                            rulesets.insert(id, r);
                        }
                    }
                }
            }
        }
        // A house rule is on only if its ruleset stands with it.
        for info in &mut house_rules {
            info.on &= rulesets
                .get(&info.extends)
                .is_some_and(|r| r.info.layers.contains(&info.file));
        }
        let (presets, preset_problems) = load_presets(&rulesets, user_presets);
        let (scorings, scoring_problems) = builtin_scorings();
        Referee {
            scorings,
            scoring_problems,
            rulesets,
            house_rules,
            texts,
            problems,
            presets,
            preset_problems,
        }
    }

    /// The scoring settings an event can be created with: the built-in ones, then the club's.
    pub fn scorings(&self) -> Vec<Scoring> {
        self.scorings.clone()
    }

    /// One scoring by its id, or a sentence naming those there are.
    pub fn scoring(&self, id: &str) -> Result<&Scoring, RefereeError> {
        self.scorings.iter().find(|s| s.id == id).ok_or_else(|| {
            let names: Vec<String> = self
                .scorings
                .iter()
                .map(|s| format!("“{}”", s.name))
                .collect();
            RefereeError::new(
                ErrorCode::EventInvalid,
                format!(
                    "There are no such scoring settings; choose one of {}.",
                    referee_core::error::or_list(&names)
                ),
            )
            .field("scoring")
        })
    }

    /// The presets a new battle can begin from, and the preset files that failed.
    pub fn presets(&self) -> PresetList {
        PresetList {
            presets: self.presets.clone(),
            problems: self.preset_problems.clone(),
        }
    }

    pub fn preset(&self, id: &str) -> Result<&Preset, RefereeError> {
        self.presets.iter().find(|p| p.id == id).ok_or_else(|| {
            let ids: Vec<&str> = self.presets.iter().map(|p| p.id.as_str()).collect();
            RefereeError::new(
                ErrorCode::PresetUnknown,
                format!(
                    "There is no preset named {id}; the presets are {}.",
                    ids.join(", ")
                ),
            )
            .field("preset")
        })
    }

    /// Which of the house rules offered for a ruleset, put in force, give this fingerprint: the
    /// choice to play a battle under the rules it began under (`None` if no combination does,
    /// e.g. a file since edited or removed). Only that ruleset's house rules are named.
    pub fn choice_for(&self, ruleset: &str, fingerprint: &str) -> Option<HouseRuleChoice> {
        let base_name = self.rulesets.get(ruleset)?.info.layers.first()?;
        let base = SourceFile {
            name: base_name,
            text: self.texts.get(base_name)?,
        };
        let offered: Vec<SourceFile> = self
            .house_rules
            .iter()
            .filter(|h| h.extends == ruleset)
            .filter_map(|h| {
                Some(SourceFile {
                    name: &h.file,
                    text: self.texts.get(&h.file)?,
                })
            })
            .collect();
        // Every subset, in the order they load; a handful of files at most (capped at 2^12).
        let n = offered.len().min(12);
        (0u32..1 << n).find_map(|mask| {
            let chosen = |i: usize| mask & (1 << i) != 0;
            let layers = Layers {
                base,
                house_rules: (0..n).filter(|&i| chosen(i)).map(|i| offered[i]).collect(),
            };
            (layers.fingerprint() == fingerprint).then(|| {
                let (on, off): (Vec<usize>, Vec<usize>) = (0..n).partition(|&i| chosen(i));
                let names =
                    |list: Vec<usize>| list.iter().map(|&i| offered[i].name.to_string()).collect();
                HouseRuleChoice {
                    on: names(on),
                    off: names(off),
                }
            })
        })
    }

    pub fn rulesets(&self) -> RulesetList {
        RulesetList {
            systems: self.rulesets.values().map(|r| r.info.clone()).collect(),
            house_rules: self.house_rules.clone(),
            // An event scoring file of the folder that fails is said where the rulesets' are, so
            // the club sees why its scoring is not offered.
            problems: self
                .problems
                .iter()
                .chain(&self.scoring_problems)
                .cloned()
                .collect(),
        }
    }

    /// The roster unit form of a ruleset: its fields in the rules' words, every choice with the
    /// values the ruleset data prints for it.
    pub fn unit_form(&self, ruleset: &str) -> Result<referee_core::battle::UnitForm, RefereeError> {
        Ok(self.ruleset(ruleset)?.unit_form())
    }

    /// A roster unit's values from the tables, or a plain error naming the stats key at fault.
    pub fn unit_preview(
        &self,
        ruleset: &str,
        stats: &serde_json::Value,
    ) -> Result<referee_core::battle::UnitPreview, RefereeError> {
        self.ruleset(ruleset)?
            .unit_preview(stats)
            .map_err(|e| self.from_another_system(ruleset, stats, e))
    }

    /// A refusal of a value this ruleset's form does not list, said better when the value is one
    /// of another system's choices: "Kn is a unit type of DBMM, not of ITACS" — a unit entered
    /// in the wrong battle, or a roster of the wrong system.
    pub fn from_another_system(
        &self,
        ruleset: &str,
        stats: &serde_json::Value,
        e: RefereeError,
    ) -> RefereeError {
        let Ok(own) = self.ruleset(ruleset) else {
            return e;
        };
        let own_form = own.unit_form();
        // Any choice of the stats this form does not list but another system's does: the unit
        // was meant for that system, whatever field the refusal named first.
        let found = own_form.fields.iter().find_map(|field| {
            let given = stats.get(&field.key)?.as_str()?;
            if field.options.is_empty() || field.options.iter().any(|o| o.key == given) {
                return None;
            }
            self.rulesets
                .values()
                .filter(|r| r.info.id != ruleset)
                .find_map(|r| {
                    let form = r.unit_form();
                    let f = form.fields.iter().find(|f| f.key == field.key)?;
                    let o = f.options.iter().find(|o| o.key == given)?;
                    Some((field, r.info.name.clone(), o.label.clone()))
                })
        });
        let Some((field, system, label)) = found else {
            return e;
        };
        // The refusal's own place, ending at the field at fault: `unit.stats.type`.
        let at = e.field.as_deref().map(|f| match f.rsplit_once('.') {
            Some((head, _)) => format!("{head}.{}", field.key),
            None => field.key.clone(),
        });
        RefereeError {
            message: format!(
                "{}: {label} belongs to {system}, not to {}. Pick one from the list, or add the unit to a {system} battle.",
                field.label, own.info.name
            ),
            field: at,
            code: ErrorCode::UnitOtherSystem,
            rule: None,
            ruling: None,
            location: e.location,
        }
    }

    /// A CSV roster template: `label` and the unit form's field keys, with two example rows.
    pub fn roster_csv_template(&self, ruleset: &str) -> Result<String, RefereeError> {
        let rows = self.ruleset(ruleset)?.roster_template_rows();
        let mut out = csv::Writer::from_writer(Vec::new());
        for row in rows {
            out.write_record(row).map_err(csv_error)?;
        }
        let bytes = out
            .into_inner()
            .map_err(|e| csv_error(e.into_error().into()))?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    pub fn ruleset(&self, id: &str) -> Result<&Ruleset, RefereeError> {
        self.rulesets.get(id).ok_or_else(|| {
            RefereeError::new(
                ErrorCode::RulesetUnknown,
                format!(
                    "no ruleset “{id}”; available: {}",
                    self.rulesets.keys().cloned().collect::<Vec<_>>().join(", ")
                ),
            )
            .field("ruleset")
        })
    }

    pub fn resolve(&self, request: &ResolveRequest) -> Result<Resolution, RefereeError> {
        self.ruleset(&request.ruleset)?.resolve(
            &request.action,
            &request.situation,
            request.dice.as_deref(),
        )
    }

    /// An action's dice rolled by the app from one seed, every stage of a chain in turn; the
    /// request's own faces are not read.
    pub fn throw(
        &self,
        request: &ResolveRequest,
        seed: Option<u32>,
    ) -> Result<crate::DiceRoll, RefereeError> {
        crate::dice::throw(
            self.ruleset(&request.ruleset)?,
            &request.action,
            &request.situation,
            seed,
        )
    }

    /// The section a citation opens ("4.5.8, 10.4" → 4.5.8, "p. 42"): its title and the rule's
    /// words, from rulesets/sections/<system>.toml; a section the data lacks answers its id alone.
    pub fn rule_section(&self, ruleset: &str, section: &str) -> Result<RuleSection, RefereeError> {
        let system = &self.ruleset(ruleset)?.info.id;
        Ok(referee_core::systems::sections::rule_section(
            ruleset, system, section,
        ))
    }

    /// The JSON schema of an action's situation.
    pub fn situation_schema(
        &self,
        ruleset: &str,
        action: &str,
    ) -> Result<serde_json::Value, RefereeError> {
        Ok(self.ruleset(ruleset)?.situation_schema(action)?.to_value())
    }

    /// The JSON schema of a system's ruleset file.
    pub fn ruleset_schema(id: &str) -> Result<serde_json::Value, RefereeError> {
        Ok(ruleset_schema(id)?.to_value())
    }
}

/// The scoring settings shipped with the app (a broken one is a problem, never a panic).
fn builtin_scorings() -> (Vec<Scoring>, Vec<RefereeError>) {
    let mut scorings = Vec::new();
    let mut problems = Vec::new();
    for (name, text) in referee_core::tournament::scoring::BUILTIN_SCORING {
        match referee_core::tournament::scoring::load(SourceFile { name, text }, true) {
            Ok(s) => scorings.push(s),
            Err(e) => problems.push(e),
        }
    }
    (scorings, problems)
}

/// The built-in presets, then the user folder's (one of the same id replaces the built-in one),
/// each checked under the rulesets loaded.
fn load_presets(
    rulesets: &BTreeMap<String, Ruleset>,
    user_presets: &[UserFile],
) -> (Vec<Preset>, Vec<RefereeError>) {
    let mut presets: Vec<Preset> = Vec::new();
    let mut problems = Vec::new();
    let builtin = BUILTIN_PRESETS
        .iter()
        .map(|(name, text)| (SourceFile { name, text }, true));
    let user = user_presets.iter().map(|f| {
        let file = SourceFile {
            name: &f.name,
            text: &f.text,
        };
        (file, false)
    });
    for (file, builtin) in builtin.chain(user) {
        match preset::load(file, builtin, rulesets) {
            Ok(p) => match presets.iter_mut().find(|q| q.id == p.id) {
                Some(q) => *q = p,
                None => presets.push(p),
            },
            Err(e) => problems.push(e),
        }
    }
    (presets, problems)
}

/// Validates one ruleset or house-rule file (a house rule against the built-in ruleset it
/// extends), answering what it builds.
pub fn check_file(path: &Path) -> Result<SystemInfo, RefereeError> {
    let text = read(path)?;
    let name = path.display().to_string();
    let file = SourceFile {
        name: &name,
        text: &text,
    };
    let layers = match is_house_rule(file)? {
        Some(extends) => Layers {
            base: builtin(&extends).ok_or_else(|| {
                RefereeError::new(
                    ErrorCode::HouseRuleInvalid,
                    format!("extends “{extends}”, which is not a built-in ruleset"),
                )
                .location(format!("{name}:1"))
                .field("extends")
            })?,
            house_rules: vec![file],
        },
        None => Layers {
            base: file,
            house_rules: vec![],
        },
    };
    Ok(Ruleset::load(&layers)?.info)
}

/// Writing CSV into memory fails only when out of memory; said plainly all the same.
fn csv_error(e: csv::Error) -> RefereeError {
    RefereeError::new(
        ErrorCode::RosterInvalid,
        format!("The template could not be written: {e}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_user_folder_adds_house_rules_and_reports_broken_files_without_losing_the_system() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("a-club.toml"),
            "extends = \"itacs\"\n[set.terrain.quagmire]\nname = \"Quagmire\"\nmissile = 0\nmelee = -5\nrule = \"house\"\n",
        )
        .unwrap();
        let referee = Referee::choosing(Some(dir.path()), &HouseRuleChoice::default());
        let list = referee.rulesets();
        assert!(list.problems.is_empty(), "{:?}", list.problems);
        let itacs = |list: &RulesetList| {
            list.systems
                .iter()
                .find(|s| s.id == "itacs")
                .unwrap()
                .clone()
        };
        assert_eq!(itacs(&list).layers.len(), 2);

        std::fs::write(
            dir.path().join("b-broken.toml"),
            "extends = \"itacs\"\n[set.melee]\nrear = 3\n",
        )
        .unwrap();
        let referee = Referee::choosing(Some(dir.path()), &HouseRuleChoice::default());
        let list = referee.rulesets();
        assert_eq!(list.problems.len(), 1);
        assert!(
            list.problems[0]
                .location
                .as_deref()
                .unwrap()
                .ends_with("b-broken.toml:3"),
            "{:?}",
            list.problems[0]
        );
        // The built-in systems are all still there, ITACS without the broken house rule.
        assert_eq!(list.systems.len(), BUILTIN.len());
        assert_eq!(itacs(&list).layers, vec!["rulesets/itacs.toml"]);
    }

    #[test]
    fn switchable_rulings_are_off_and_user_house_rules_on_unless_chosen_otherwise() {
        let dir = tempfile::tempdir().unwrap();
        let club = dir.path().join("club.toml");
        std::fs::write(
            &club,
            "extends = \"itacs\"\nname = \"Our club\"\n[set.terrain.hills]\nmelee = -3\n",
        )
        .unwrap();
        let club = club.display().to_string();
        let forbid = "rulesets/switches/itacs-forbid-below-lowest-column.toml".to_string();
        let layers = |referee: &Referee| referee.ruleset("itacs").unwrap().info.layers.clone();
        let on = |referee: &Referee, file: &str| {
            let list = referee.rulesets();
            let info = list.house_rules.iter().find(|h| h.file == file).unwrap();
            info.on
        };

        let plain = Referee::choosing(Some(dir.path()), &HouseRuleChoice::default());
        assert_eq!(layers(&plain), vec!["rulesets/itacs.toml", club.as_str()]);
        assert!(!on(&plain, &forbid) && on(&plain, &club));
        let list = plain.rulesets();
        assert_eq!(list.house_rules.len(), SWITCHES.len() + 1);
        let named = list.house_rules.iter().find(|h| h.file == club).unwrap();
        assert_eq!((named.name.as_str(), named.switch), ("Our club", false));

        // The switch goes in first, the club's file on top; a stale name is ignored.
        let chosen = Referee::choosing(
            Some(dir.path()),
            &HouseRuleChoice {
                on: vec![forbid.clone(), "gone.toml".into()],
                off: vec![],
            },
        );
        assert_eq!(
            layers(&chosen),
            vec!["rulesets/itacs.toml", forbid.as_str(), club.as_str()]
        );
        assert!(chosen.rulesets().problems.is_empty());
        let melee = ResolveRequest {
            ruleset: "itacs".into(),
            action: "melee".into(),
            situation: serde_json::json!({
                "attackers": [{ "units": [{ "class": "A", "combat": "1" }] }],
                "defenders": [{ "terrain": "clear", "units": [{ "class": "A", "combat": "3" }] }]
            }),
            dice: None,
        };
        assert!(plain.resolve(&melee).is_ok());
        let e = chosen.resolve(&melee).unwrap_err();
        assert_eq!(e.code, "situation.below_lowest_column");

        let without_club = Referee::choosing(
            Some(dir.path()),
            &HouseRuleChoice {
                on: vec![],
                off: vec![club.clone()],
            },
        );
        assert_eq!(layers(&without_club), vec!["rulesets/itacs.toml"]);
        assert!(!on(&without_club, &club));
        assert_ne!(
            plain.ruleset("itacs").unwrap().info.fingerprint,
            without_club.ruleset("itacs").unwrap().info.fingerprint
        );
        // With no folder at all the switches are still offered.
        assert_eq!(
            Referee::choosing(None, &HouseRuleChoice::default())
                .rulesets()
                .house_rules
                .len(),
            SWITCHES.len()
        );
    }

    #[test]
    fn a_broken_house_rule_is_reported_and_the_others_still_load() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("a-typo.toml"),
            "extends = \"itacs\"\nnmae = \"typo\"\n",
        )
        .unwrap();
        std::fs::write(
            dir.path().join("b-club.toml"),
            "extends = \"itacs\"\n[set.terrain.hills]\nmelee = -3\n",
        )
        .unwrap();
        let referee = Referee::choosing(Some(dir.path()), &HouseRuleChoice::default());
        let list = referee.rulesets();
        assert_eq!(list.problems.len(), 1, "{:?}", list.problems);
        assert_eq!(list.problems[0].field.as_deref(), Some("nmae"));
        let layers = &referee.ruleset("itacs").unwrap().info.layers;
        assert!(layers[1].ends_with("b-club.toml"), "{layers:?}");
    }

    #[test]
    fn checking_a_file_names_its_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("h.toml");
        std::fs::write(
            &path,
            "extends = \"itacs\"\n\n[set.terrain.swamp]\nmelee = \"x\"\n",
        )
        .unwrap();
        let e = check_file(&path).unwrap_err();
        assert_eq!(e.location, Some(format!("{}:4", path.display())));
        assert_eq!(e.field.as_deref(), Some("terrain.swamp.melee"));
        std::fs::write(&path, "extends = \"itacs\"\n").unwrap();
        assert_eq!(check_file(&path).unwrap().id, "itacs");
    }
}
