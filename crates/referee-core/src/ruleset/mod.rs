//! Rulesets as data: parsing, house-rule layering, typed validation with `file:line key.path`
//! errors, and fingerprints. Text comes in from the caller; this module reads no files.

mod house_rule;
mod locate;
pub mod phase_actions;

use serde::de::DeserializeOwned;

pub use house_rule::HouseRule;
pub use locate::{line_of_offset, locate_path};

use crate::error::RefereeError;
use crate::ErrorCode;

/// A named text: a ruleset or house-rule file as the caller read it.
#[derive(Clone, Copy, Debug)]
pub struct SourceFile<'a> {
    pub name: &'a str,
    pub text: &'a str,
}

/// A problem the typed check of a ruleset found, at a key path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub path: String,
    pub message: String,
}

impl Problem {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Problem {
        Problem {
            path: path.into(),
            message: message.into(),
        }
    }
}

/// What a rule system's data must offer: serde shape plus checks serde cannot express.
pub trait SystemData: DeserializeOwned {
    /// A second data file the system's tables continue in, embedded with the app: its tables
    /// join the ruleset's before house rules apply (so a house rule may change them too), a
    /// table both files give is refused, and its errors name its own file and line. It is not
    /// part of a battle's fingerprint, which stays the ruleset file's and its house rules'.
    const COMPANION: Option<SourceFile<'static>> = None;

    fn problems(&self) -> Vec<Problem>;
}

/// The line of path in text, or of its nearest parent there (a missing key is reported at the
/// table that lacks it).
fn nearest_line(text: &str, path: &str) -> usize {
    let mut parent = path;
    loop {
        if let Some(line) = locate_path(text, parent) {
            return line;
        }
        match parent.rfind(['.', '[']) {
            Some(cut) => parent = &parent[..cut],
            None => return 1,
        }
    }
}

/// Joins a companion file's tables to the ruleset's: a table both give is refused in words;
/// its actions added to phases join the ruleset's sequence of play (`known`: the system's actions).
fn join_companion(
    table: &mut toml::Table,
    companion: SourceFile,
    known: &[String],
) -> Result<(), RefereeError> {
    let mut tables = parse_table(companion)?;
    let added = tables.remove(phase_actions::KEY);
    for (key, value) in tables {
        if table.contains_key(&key) {
            return Err(RefereeError::new(
                ErrorCode::RulesetInvalid,
                format!(
                    "the table {key} is given both here and in the ruleset’s own file; keep it in one of them"
                ),
            )
            .field(key.clone())
            .location(format!(
                "{}:{}",
                companion.name,
                locate_path(companion.text, &key).unwrap_or(1)
            )));
        }
        table.insert(key, value);
    }
    match added {
        Some(added) => phase_actions::add(table, added, companion, known),
        None => Ok(()),
    }
}

/// file:line of a key path: in the companion file when its table is the companion's and no house
/// rule set it, else as the layers locate it.
fn locate_joined(layers: &Layers, companion: Option<SourceFile>, path: &str) -> String {
    let head = path.split(['.', '[']).next().unwrap_or(path);
    let set_by_house = layers
        .house_rules
        .iter()
        .any(|h| locate_path(h.text, &format!("set.{path}")).is_some());
    match companion {
        Some(c) if !set_by_house && !head.is_empty() && locate_path(c.text, head).is_some() => {
            format!("{}:{}", c.name, nearest_line(c.text, path))
        }
        _ => layers.locate(path),
    }
}

/// A data file beside the rulesets (a preset, scoring settings) parsed as TOML, its syntax
/// errors under the file's own code and with no backticks in the sentence.
pub fn parse_data_table(file: SourceFile, code: ErrorCode) -> Result<toml::Table, RefereeError> {
    parse_table(file).map_err(|e| RefereeError {
        code,
        message: e.message.replace('`', ""),
        ..e
    })
}

/// Parses TOML text into a table, a syntax error located at its line.
pub fn parse_table(file: SourceFile) -> Result<toml::Table, RefereeError> {
    file.text.parse::<toml::Table>().map_err(|e| {
        let line = e
            .span()
            .map(|s| line_of_offset(file.text, s.start))
            .unwrap_or(1);
        RefereeError::new(ErrorCode::RulesetSyntax, first_line(e.message()))
            .location(format!("{}:{line}", file.name))
    })
}

/// The layers a ruleset was built from, last wins: the base file, then each house rule.
#[derive(Clone, Debug)]
pub struct Layers<'a> {
    pub base: SourceFile<'a>,
    pub house_rules: Vec<SourceFile<'a>>,
}

impl<'a> Layers<'a> {
    /// file:line of the layer that last set path; in the base file, of path or its nearest
    /// parent there (a missing key is reported at the table that lacks it).
    pub fn locate(&self, path: &str) -> String {
        for house in self.house_rules.iter().rev() {
            if let Some(line) = locate_path(house.text, &format!("set.{path}")) {
                return format!("{}:{line}", house.name);
            }
        }
        format!("{}:{}", self.base.name, nearest_line(self.base.text, path))
    }

    /// A content fingerprint of every layer, in order (FNV-1a, 64 bits, hex).
    pub fn fingerprint(&self) -> String {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        let layers = std::iter::once(&self.base).chain(self.house_rules.iter());
        for layer in layers {
            for byte in layer.text.bytes().chain(std::iter::once(0)) {
                hash ^= u64::from(byte);
                hash = hash.wrapping_mul(0x0100_0000_01b3);
            }
        }
        format!("{hash:016x}")
    }
}

/// Builds the merged table from the layers and deserializes it into a system's typed data,
/// then runs the system's own checks. Every error names file:line and the key path. `companion`
/// is the system's companion file as given (the built-in one, or a changed one to test it);
/// `actions` are the system's, those its phases may offer.
pub fn load_typed<T: SystemData>(
    layers: &Layers,
    companion: Option<SourceFile>,
    actions: &[String],
) -> Result<T, RefereeError> {
    let mut table = parse_table(layers.base)?;
    if table.contains_key("extends") {
        return Err(RefereeError::new(
            ErrorCode::RulesetIsHouseRule,
            "this is a house-rule file (it has extends); load it on top of its ruleset",
        )
        .location(format!("{}:1", layers.base.name)));
    }
    if let Some(companion) = companion {
        join_companion(&mut table, companion, actions)?;
    }
    for house in &layers.house_rules {
        HouseRule::parse(*house)?.apply(&mut table, *house)?;
    }
    let data: T = serde_path_to_error::deserialize(toml::Value::Table(table)).map_err(|e| {
        let path = e.path().to_string();
        let path = if path == "." { String::new() } else { path };
        RefereeError::new(
            ErrorCode::RulesetInvalid,
            crate::error::plain_serde_error(e.inner().message(), &path),
        )
        .field(path.clone())
        .location(locate_joined(layers, companion, &path))
    })?;
    if let Some(p) = data.problems().into_iter().next() {
        return Err(RefereeError::new(ErrorCode::RulesetInvalid, p.message)
            .location(locate_joined(layers, companion, &p.path))
            .field(p.path));
    }
    Ok(data)
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or(s).trim().to_string()
}

#[cfg(test)]
mod tests;

/// A results table must give a result for every modified roll, exactly once.
pub fn check_rows(path: &str, rows: &[(Option<i64>, Option<i64>)], problems: &mut Vec<Problem>) {
    if rows.is_empty() {
        problems.push(Problem::new(path, "the table has no rows"));
        return;
    }
    if rows[0].0.is_some() {
        problems.push(Problem::new(
            format!("{path}[0].min"),
            "the first row must be open below (leave out min)",
        ));
    }
    for (i, pair) in rows.windows(2).enumerate() {
        match (pair[0].1, pair[1].0) {
            (Some(max), Some(min)) if min == max + 1 => {}
            (Some(max), Some(min)) if min <= max => problems.push(Problem::new(
                format!("{path}[{}].min", i + 1),
                format!("rows overlap: {min} is already in the row before"),
            )),
            (Some(max), Some(min)) => problems.push(Problem::new(
                format!("{path}[{}].min", i + 1),
                format!("rolls {} to {} have no row", max + 1, min - 1),
            )),
            _ => problems.push(Problem::new(
                format!("{path}[{}]", i + 1),
                "only the first row may leave out min and only the last max",
            )),
        }
    }
    if let Some(last) = rows.last() {
        if last.1.is_some() {
            problems.push(Problem::new(
                format!("{path}[{}].max", rows.len() - 1),
                "the last row must be open above (leave out max)",
            ));
        }
    }
}

/// A modifier with its citation.
#[derive(Clone, Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Cited {
    pub modifier: i64,
    pub rule: String,
    pub ruling: Option<String>,
}

impl Cited {
    /// This modifier as a cited line of a resolution.
    pub fn line(&self, label: &str) -> crate::contract::Modifier {
        crate::contract::Modifier::new(label, self.modifier, &self.rule, self.ruling.as_deref())
    }
}

/// A rule citation without a value.
#[derive(Clone, Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Citation {
    pub rule: String,
    pub ruling: Option<String>,
}
