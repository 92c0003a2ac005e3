//! The rule systems, one module each, and the loaded ruleset every action runs against.

pub mod dbmm;
pub mod gts;
pub mod itacs;
pub mod medieval;
pub mod sections;
pub mod shared;
#[cfg(test)]
pub(crate) mod test_support;

use serde::Serialize;
use ts_rs::TS;

use crate::contract::Resolution;
use crate::error::RefereeError;
use crate::ruleset::{self, Layers, SourceFile};

/// Parses situation JSON into its type, naming the field at fault.
pub fn parse_situation<T: serde::de::DeserializeOwned>(
    json: &serde_json::Value,
) -> Result<T, RefereeError> {
    if let Some((path, n)) = out_of_range(json, "") {
        return Err(RefereeError::new(
            "situation.value_out_of_range",
            format!("{n} is not a tabletop value: numbers run from -{MAX_VALUE} to {MAX_VALUE}"),
        )
        .field(path));
    }
    serde_path_to_error::deserialize(json).map_err(|e| {
        let path = e.path().to_string();
        let error = RefereeError::new(
            "situation.invalid_field",
            crate::error::plain_serde_error(&e.inner().to_string(), &path),
        );
        if path == "." {
            error
        } else {
            error.field(path)
        }
    })
}

/// No count, strength, range or turn on a table comes near this; refusing larger numbers at the
/// door keeps every sum and product of them far from overflow.
pub const MAX_VALUE: i64 = 10_000;

/// The first number in a situation beyond ±MAX_VALUE, with its path.
fn out_of_range(json: &serde_json::Value, path: &str) -> Option<(String, String)> {
    match json {
        serde_json::Value::Number(n) => {
            let big = n.as_i64().map_or_else(
                || n.as_u64().is_some() || n.as_f64().is_some_and(|f| f.abs() > MAX_VALUE as f64),
                |v| !(-MAX_VALUE..=MAX_VALUE).contains(&v),
            );
            big.then(|| (path.trim_start_matches('.').to_string(), n.to_string()))
        }
        serde_json::Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, x)| out_of_range(x, &format!("{path}[{i}]"))),
        serde_json::Value::Object(map) => map
            .iter()
            .find_map(|(k, x)| out_of_range(x, &format!("{path}.{k}"))),
        _ => None,
    }
}

/// The total of the faces the umpire entered for spec, refused as dice.invalid when they do
/// not fit the roll.
pub fn faces_total(spec: &crate::odds::DiceSpec, faces: &[u32]) -> Result<i64, RefereeError> {
    spec.total_of(faces)
        .map_err(|m| RefereeError::new("dice.invalid", m).field("dice"))
}

/// A roll of dice on a table of named results: exact distribution and, with faces, the outcome.
pub fn roll_named(
    dice: &str,
    rows: &[(crate::odds::Band, String)],
    meaning: &dyn Fn(&str) -> (String, Vec<crate::contract::Effect>),
    faces: Option<&[u32]>,
) -> Result<
    (
        Vec<crate::contract::ResultOdds>,
        Option<crate::contract::Outcome>,
    ),
    RefereeError,
> {
    let spec: crate::odds::DiceSpec = dice
        .parse()
        .map_err(|e: String| RefereeError::new("ruleset.invalid", e))?;
    let table = crate::odds::RollTable {
        rows: rows.to_vec(),
    };
    let rolls = spec.distribution()?;
    let results = table.distribution(&rolls)?;
    let mut seen: Vec<&str> = Vec::new();
    let mut distribution = Vec::new();
    for (_, code) in rows {
        if seen.contains(&code.as_str()) {
            continue;
        }
        seen.push(code);
        let (text, effects) = meaning(code);
        distribution.push(crate::contract::ResultOdds::new(
            code,
            &text,
            crate::contract::rolls_text(&rolls, |r| table.lookup(r).is_ok_and(|c| c == code)),
            results.probability(code),
            effects,
        ));
    }
    let outcome = match faces {
        None => None,
        Some(faces) => {
            let roll = faces_total(&spec, faces)?;
            let code = table.lookup(roll)?.clone();
            let (text, effects) = meaning(&code);
            Some(crate::contract::Outcome {
                dice: faces.to_vec(),
                roll,
                modified: roll,
                result: code,
                meaning: text,
                effects,
                sides: Vec::new(),
            })
        }
    };
    Ok((distribution, outcome))
}

/// Every phase of a sequence of play offers only actions the system has.
pub fn sequence_problems(sequence: &[Phase], actions: &[ActionInfo]) -> Vec<ruleset::Problem> {
    let mut problems = Vec::new();
    for (i, phase) in sequence.iter().enumerate() {
        let named = phase
            .actions
            .iter()
            .chain(phase.steps.iter().filter_map(|s| s.action.as_ref()));
        for a in named {
            if !actions.iter().any(|x| &x.id == a) {
                problems.push(ruleset::Problem::new(
                    format!("sequence[{i}]"),
                    format!("unknown action “{a}”"),
                ));
            }
        }
    }
    problems
}

/// Actions that roll no dice refuse dice rather than ignore them.
pub fn without_dice(
    action: &str,
    dice: Option<&[u32]>,
    answer: impl FnOnce() -> Result<Resolution, RefereeError>,
) -> Result<Resolution, RefereeError> {
    if dice.is_some() {
        return Err(RefereeError::new(
            "dice.not_rolled",
            format!(
                "{} rolls no dice: leave out the dice",
                crate::error::given(action)
            ),
        )
        .field("dice"));
    }
    answer()
}

/// Where an action belongs in the app's list: the umpire looks for a combat, a check, a move or a
/// table, not for a rule number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ActionGroup {
    Combat,
    /// Morale and checks.
    Checks,
    Movement,
    Tables,
}

/// One action a system resolves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct ActionInfo {
    pub id: String,
    pub name: String,
    pub rule: String,
    pub group: ActionGroup,
    /// It takes two sides of roster units: `battle::fight` builds its situation from them.
    pub fights: bool,
}

impl ActionInfo {
    pub fn new(id: &str, name: &str, rule: &str, group: ActionGroup) -> ActionInfo {
        ActionInfo {
            id: id.into(),
            name: name.into(),
            rule: rule.into(),
            group,
            fights: false,
        }
    }

    /// A combat that opens from the units the umpire picked on the roster.
    pub fn fights(self) -> ActionInfo {
        ActionInfo {
            fights: true,
            ..self
        }
    }
}

/// A system as listed to players.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct SystemInfo {
    pub id: String,
    pub name: String,
    pub dice: String,
    pub fingerprint: String,
    /// The files it was built from, base first.
    pub layers: Vec<String>,
    pub actions: Vec<ActionInfo>,
    /// The action that resolves the system's main combat: "Resolve" on the roster opens it.
    pub main_action: String,
    /// The values a situation field can take, from the ruleset data (unit_type, terrain).
    pub choices: Vec<ChoiceList>,
    /// The sequence of play, phase by phase, with the actions each phase offers.
    pub phases: Vec<Phase>,
}

/// One phase of a player turn, as ruleset data, so the app can walk the umpire through a turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize, schemars::JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct Phase {
    pub key: String,
    pub name: String,
    pub rule: String,
    /// The actions the phase offers, in the order they usually come.
    pub actions: Vec<String>,
    /// What happens in the phase, in order.
    pub steps: Vec<PhaseStep>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize, schemars::JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct PhaseStep {
    pub text: String,
    pub rule: String,
    /// The action that resolves this step, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub action: Option<String>,
}

/// The values of one situation field, each with its label.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct ChoiceList {
    pub field: String,
    pub options: Vec<Choice>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct Choice {
    pub key: String,
    pub label: String,
}

/// A battle's check of an action against the results applied this turn (ITACS 4.2, 4.5.4, 6.2):
/// a refusal, or warnings to show with the fight. Systems without such limits accept all.
pub fn turn_limits(
    state: &crate::battle::BattleState,
    action: &str,
    attackers: &[crate::battle::UnitId],
    defenders: &[crate::battle::UnitId],
) -> Result<Vec<String>, RefereeError> {
    match state.ruleset.as_str() {
        "itacs" => itacs::limits::check(state, action, attackers, defenders),
        _ => Ok(Vec::new()),
    }
}

/// The built-in rulesets, embedded at compile time: (id, file name, text).
pub const BUILTIN: &[(&str, &str, &str)] = &[
    (
        "itacs",
        "rulesets/itacs.toml",
        include_str!("../../../../rulesets/itacs.toml"),
    ),
    (
        "medieval",
        "rulesets/medieval.toml",
        include_str!("../../../../rulesets/medieval.toml"),
    ),
    (
        "gts",
        "rulesets/gts.toml",
        include_str!("../../../../rulesets/gts.toml"),
    ),
    (
        "dbmm",
        "rulesets/dbmm.toml",
        include_str!("../../../../rulesets/dbmm.toml"),
    ),
];

/// The switchable rulings: house-rule files built in, off unless the umpire chooses them
/// (file name, text).
pub const SWITCHES: &[(&str, &str)] = &[
    (
        "rulesets/switches/itacs-forbid-below-lowest-column.toml",
        include_str!("../../../../rulesets/switches/itacs-forbid-below-lowest-column.toml"),
    ),
    (
        "rulesets/switches/itacs-hills-missile-chart.toml",
        include_str!("../../../../rulesets/switches/itacs-hills-missile-chart.toml"),
    ),
    (
        "rulesets/switches/dbmm-doubled-at-most-half.toml",
        include_str!("../../../../rulesets/switches/dbmm-doubled-at-most-half.toml"),
    ),
];

/// A switchable ruling's file by its name.
pub fn switch(name: &str) -> Option<SourceFile<'static>> {
    SWITCHES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(name, text)| SourceFile { name, text })
}

pub fn builtin(id: &str) -> Option<SourceFile<'static>> {
    BUILTIN
        .iter()
        .find(|(i, _, _)| *i == id)
        .map(|(_, name, text)| SourceFile { name, text })
}

#[derive(Clone, Debug)]
pub enum SystemRules {
    Itacs(Box<itacs::ItacsData>),
    Medieval(Box<medieval::MedievalData>),
    Gts(Box<gts::GtsData>),
    Dbmm(Box<dbmm::DbmmData>),
}

/// A validated ruleset: a system's data with its house rules applied.
#[derive(Clone, Debug)]
pub struct Ruleset {
    pub info: SystemInfo,
    pub rules: SystemRules,
}

/// The system id a ruleset file declares in [system] id.
pub fn declared_system(file: SourceFile) -> Result<String, RefereeError> {
    let table = ruleset::parse_table(file)?;
    table
        .get("system")
        .and_then(|s| s.get("id"))
        .and_then(|v| v.as_str())
        .map(str::to_string)
        .ok_or_else(|| {
            RefereeError::new(
                "ruleset.invalid",
                "the file does not say which rule system it is for (id under [system])",
            )
            .field("system.id")
            .location(format!("{}:1", file.name))
        })
}

impl Ruleset {
    pub fn load(layers: &Layers) -> Result<Ruleset, RefereeError> {
        let id = declared_system(layers.base)?;
        let names = std::iter::once(layers.base.name)
            .chain(layers.house_rules.iter().map(|h| h.name))
            .map(str::to_string)
            .collect();
        let info = |header: &shared::SystemHeader,
                    main_action: &str,
                    actions: Vec<ActionInfo>,
                    choices: Vec<ChoiceList>,
                    phases: &[Phase]| SystemInfo {
            id: id.clone(),
            name: header.name.clone(),
            dice: header.dice.clone(),
            fingerprint: layers.fingerprint(),
            layers: names,
            actions,
            main_action: main_action.to_string(),
            choices,
            phases: phases.to_vec(),
        };
        match id.as_str() {
            "itacs" => {
                let data: itacs::ItacsData = ruleset::load_typed(layers)?;
                Ok(Ruleset {
                    info: info(
                        &data.system,
                        itacs::MAIN_ACTION,
                        itacs::actions(),
                        itacs::choices(&data),
                        &data.sequence,
                    ),
                    rules: SystemRules::Itacs(Box::new(data)),
                })
            }
            "medieval" => {
                let data: medieval::MedievalData = ruleset::load_typed(layers)?;
                Ok(Ruleset {
                    info: info(
                        &data.system,
                        medieval::MAIN_ACTION,
                        medieval::actions(),
                        medieval::choices(&data),
                        &data.sequence,
                    ),
                    rules: SystemRules::Medieval(Box::new(data)),
                })
            }
            "gts" => {
                let data: gts::GtsData = ruleset::load_typed(layers)?;
                Ok(Ruleset {
                    info: info(
                        &data.system,
                        gts::MAIN_ACTION,
                        gts::actions(),
                        gts::choices(&data),
                        &data.sequence,
                    ),
                    rules: SystemRules::Gts(Box::new(data)),
                })
            }
            "dbmm" => {
                let data: dbmm::DbmmData = ruleset::load_typed(layers)?;
                Ok(Ruleset {
                    info: info(
                        &data.system,
                        dbmm::MAIN_ACTION,
                        dbmm::actions(),
                        dbmm::choices(&data),
                        &data.sequence,
                    ),
                    rules: SystemRules::Dbmm(Box::new(data)),
                })
            }
            other => Err(unknown_system(other)
                .field("system.id")
                .location(layers.locate("system.id"))),
        }
    }

    pub fn resolve(
        &self,
        action: &str,
        situation: &serde_json::Value,
        dice: Option<&[u32]>,
    ) -> Result<Resolution, RefereeError> {
        match &self.rules {
            SystemRules::Itacs(data) => itacs::resolve(data, action, situation, dice),
            SystemRules::Medieval(data) => medieval::resolve(data, action, situation, dice),
            SystemRules::Gts(data) => gts::resolve(data, action, situation, dice),
            SystemRules::Dbmm(data) => dbmm::resolve(data, action, situation, dice),
        }
    }

    pub fn situation_schema(&self, action: &str) -> Result<schemars::Schema, RefereeError> {
        let schema = match &self.rules {
            SystemRules::Itacs(_) => itacs::situation_schema(action),
            SystemRules::Medieval(_) => medieval::situation_schema(action),
            SystemRules::Gts(_) => gts::situation_schema(action),
            SystemRules::Dbmm(_) => dbmm::situation_schema(action),
        };
        schema.ok_or_else(|| unknown_action(&self.info.id, action, &self.info.actions))
    }
}

/// The JSON schema of a system's ruleset file.
pub fn ruleset_schema(id: &str) -> Result<schemars::Schema, RefereeError> {
    match id {
        "itacs" => Ok(schemars::schema_for!(itacs::ItacsData)),
        "medieval" => Ok(schemars::schema_for!(medieval::MedievalData)),
        "gts" => Ok(schemars::schema_for!(gts::GtsData)),
        "dbmm" => Ok(schemars::schema_for!(dbmm::DbmmData)),
        other => Err(unknown_system(other)),
    }
}

fn unknown_system(id: &str) -> RefereeError {
    let known = BUILTIN.iter().map(|b| b.0).collect::<Vec<_>>().join(", ");
    RefereeError::new(
        "ruleset.unknown_system",
        format!("no rule system “{id}”; known: {known}"),
    )
}

pub fn unknown_action(system: &str, action: &str, actions: &[ActionInfo]) -> RefereeError {
    RefereeError::new(
        "action.unknown",
        format!(
            "{system} has no action {}; it has {}",
            crate::error::given(action),
            actions
                .iter()
                .map(|a| a.name.to_lowercase())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    )
    .field("action")
}
