//! House-rule files: `extends = "itacs"`, a `[set.…]` tree merged over the ruleset (tables merge,
//! other values replace) and `remove = ["key.path", …]`; `name`, `ruling` and `description` say
//! what it is (a switchable ruling names its ruling id).

use super::{parse_table, SourceFile};
use crate::error::RefereeError;
use crate::ErrorCode;

#[derive(Clone, Debug)]
pub struct HouseRule {
    pub extends: String,
    pub name: Option<String>,
    /// The ruling it switches, e.g. `R-ITACS-1`.
    pub ruling: Option<String>,
    pub description: Option<String>,
    pub set: toml::Table,
    pub remove: Vec<String>,
}

impl HouseRule {
    pub fn parse(file: SourceFile) -> Result<HouseRule, RefereeError> {
        let mut table = parse_table(file)?;
        let at = |key: &str| {
            let line = super::locate_path(file.text, key).unwrap_or(1);
            format!("{}:{line}", file.name)
        };
        let bad = |key: &str, message: &str| {
            RefereeError::new(ErrorCode::HouseRuleInvalid, message)
                .field(key)
                .location(at(key))
        };
        let extends = match table.remove("extends") {
            Some(toml::Value::String(s)) => s,
            Some(_) => {
                return Err(bad(
                    "extends",
                    "expected the ruleset id as a string, e.g. \"itacs\"",
                ))
            }
            None => {
                return Err(RefereeError::new(
                    ErrorCode::HouseRuleInvalid,
                    "a house-rule file starts with “extends = \"<ruleset id>\"”",
                )
                .location(format!("{}:1", file.name)))
            }
        };
        let mut text = |key: &str| match table.remove(key) {
            Some(toml::Value::String(s)) => Ok(Some(s)),
            None => Ok(None),
            Some(_) => Err(bad(key, "expected a string")),
        };
        let name = text("name")?;
        let ruling = text("ruling")?;
        let description = text("description")?;
        let set = match table.remove("set") {
            Some(toml::Value::Table(t)) => t,
            None => toml::Table::new(),
            Some(_) => return Err(bad("set", "expected a table of values to set")),
        };
        let remove = match table.remove("remove") {
            Some(toml::Value::Array(a)) => a
                .into_iter()
                .map(|v| match v {
                    toml::Value::String(s) => Ok(s),
                    _ => Err(bad("remove", "expected a list of key paths as strings")),
                })
                .collect::<Result<_, _>>()?,
            None => Vec::new(),
            Some(_) => return Err(bad("remove", "expected a list of key paths as strings")),
        };
        if let Some(key) = table.keys().next() {
            return Err(bad(
                key,
                &format!(
                    "unknown key “{key}”: a house rule has extends, name, ruling, description, set and remove"
                ),
            ));
        }
        Ok(HouseRule {
            extends,
            name,
            ruling,
            description,
            set,
            remove,
        })
    }

    /// Removes, then sets, on the merged table of the ruleset.
    pub fn apply(&self, base: &mut toml::Table, file: SourceFile) -> Result<(), RefereeError> {
        for path in &self.remove {
            let (parent, key) = match path.rsplit_once('.') {
                Some((p, k)) => (Some(p), k),
                None => (None, path.as_str()),
            };
            let mut table = &mut *base;
            for part in parent.into_iter().flat_map(|p| p.split('.')) {
                table = match table.get_mut(part) {
                    Some(toml::Value::Table(t)) => t,
                    _ => return Err(missing(path, file)),
                };
            }
            if table.remove(key).is_none() {
                return Err(missing(path, file));
            }
        }
        merge(base, &self.set);
        Ok(())
    }
}

fn missing(path: &str, file: SourceFile) -> RefereeError {
    let line = super::locate_path(file.text, "remove").unwrap_or(1);
    RefereeError::new(
        ErrorCode::HouseRuleInvalid,
        format!("cannot remove “{path}”: the ruleset has no such entry"),
    )
    .field("remove")
    .location(format!("{}:{line}", file.name))
}

fn merge(base: &mut toml::Table, over: &toml::Table) {
    for (key, value) in over {
        match (base.get_mut(key), value) {
            (Some(toml::Value::Table(b)), toml::Value::Table(o)) => merge(b, o),
            _ => {
                base.insert(key.clone(), value.clone());
            }
        }
    }
}
