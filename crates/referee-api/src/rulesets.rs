//! Loading rulesets: the built-in ones, a user folder of full rulesets and house rules, and
//! single files to check.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use referee_core::ruleset::{parse_table, Layers, SourceFile};
use referee_core::systems::{builtin, ruleset_schema, Ruleset, BUILTIN};
use referee_core::{RefereeError, Resolution, SystemInfo};

use crate::{ResolveRequest, RulesetList};

/// The rulesets in force.
#[derive(Clone, Debug)]
pub struct Referee {
    rulesets: BTreeMap<String, Ruleset>,
    problems: Vec<RefereeError>,
}

struct UserFile {
    name: String,
    text: String,
}

fn read(path: &Path) -> Result<String, RefereeError> {
    std::fs::read_to_string(path).map_err(|e| {
        RefereeError::new(
            "file.unreadable",
            format!("cannot read {}: {e}", path.display()),
        )
        .location(path.display().to_string())
    })
}

fn is_house_rule(file: SourceFile) -> Result<Option<String>, RefereeError> {
    let table = parse_table(file)?;
    Ok(table
        .get("extends")
        .and_then(|v| v.as_str())
        .map(str::to_string))
}

impl Referee {
    /// Only the built-in rulesets.
    pub fn builtin() -> Referee {
        Referee::load(&[])
    }

    /// The built-in rulesets, replaced or extended by the `.toml` files of a user folder: a file
    /// with `[system]` replaces that system's ruleset; a file with `extends` is a house rule laid on
    /// top (in file-name order). A file that fails is reported in `problems` and left out; the rest
    /// still load.
    pub fn with_user_folder(folder: &Path) -> Referee {
        let mut paths: Vec<PathBuf> = match std::fs::read_dir(folder) {
            Ok(entries) => entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "toml"))
                .collect(),
            Err(_) => Vec::new(),
        };
        paths.sort();
        let mut files = Vec::new();
        let mut problems = Vec::new();
        for path in paths {
            match read(&path) {
                Ok(text) => files.push(UserFile {
                    name: path.display().to_string(),
                    text,
                }),
                Err(e) => problems.push(e),
            }
        }
        let mut referee = Referee::load(&files);
        problems.append(&mut referee.problems);
        referee.problems = problems;
        referee
    }

    fn load(user_files: &[UserFile]) -> Referee {
        let mut problems = Vec::new();
        let mut bases: BTreeMap<String, SourceFile> = BUILTIN
            .iter()
            .map(|(id, name, text)| (id.to_string(), SourceFile { name, text }))
            .collect();
        let mut houses: BTreeMap<String, Vec<SourceFile>> = BTreeMap::new();
        for f in user_files {
            let file = SourceFile {
                name: &f.name,
                text: &f.text,
            };
            match is_house_rule(file) {
                Ok(Some(extends)) => houses.entry(extends).or_default().push(file),
                Ok(None) => match referee_core::systems::declared_system(file) {
                    Ok(id) => {
                        bases.insert(id, file);
                    }
                    Err(e) => problems.push(e),
                },
                Err(e) => problems.push(e),
            }
        }
        for (id, list) in &houses {
            if !bases.contains_key(id) {
                for h in list {
                    problems.push(
                        RefereeError::new(
                            "house_rule.invalid",
                            format!("extends `{id}`, which is not a ruleset here"),
                        )
                        .location(format!("{}:1", h.name)),
                    );
                }
            }
        }
        let mut rulesets = BTreeMap::new();
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
        Referee { rulesets, problems }
    }

    pub fn rulesets(&self) -> RulesetList {
        RulesetList {
            systems: self.rulesets.values().map(|r| r.info.clone()).collect(),
            problems: self.problems.clone(),
        }
    }

    pub fn ruleset(&self, id: &str) -> Result<&Ruleset, RefereeError> {
        self.rulesets.get(id).ok_or_else(|| {
            RefereeError::new(
                "ruleset.unknown",
                format!(
                    "no ruleset `{id}`; available: {}",
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
                    "house_rule.invalid",
                    format!("extends `{extends}`, which is not a built-in ruleset"),
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
        let referee = Referee::with_user_folder(dir.path());
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
        let referee = Referee::with_user_folder(dir.path());
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
