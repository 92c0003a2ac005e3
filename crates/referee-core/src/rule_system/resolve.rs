//! What resolving an action shares in every system: reading the situation the umpire entered,
//! the dice of a roll, a roll on a table of named results, and the refusals that go with them.

use crate::contract::Resolution;
use crate::error::RefereeError;
use crate::rule_system::{ActionInfo, Phase};
use crate::ruleset;
use crate::ErrorCode;

/// Parses situation JSON into its type, naming the field at fault.
pub fn parse_situation<T: serde::de::DeserializeOwned>(
    json: &serde_json::Value,
) -> Result<T, RefereeError> {
    if let Some((path, n)) = out_of_range(json, "") {
        return Err(RefereeError::new(
            ErrorCode::SituationValueOutOfRange,
            format!("{n} is not a tabletop value: numbers run from -{MAX_VALUE} to {MAX_VALUE}"),
        )
        .field(path));
    }
    serde_path_to_error::deserialize(json).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.inner().to_string();
        let error = RefereeError::new(
            ErrorCode::SituationInvalidField,
            crate::error::plain_serde_error(&inner, &path),
        );
        // A missing field is named itself, so the form can mark it and its choices be said.
        let missing = inner
            .strip_prefix("missing field `")
            .and_then(|r| r.split('`').next());
        match (path.as_str(), missing) {
            (".", Some(name)) => error.field(name),
            (_, Some(name)) => error.field(format!("{path}.{name}")),
            (".", None) => error,
            _ => error.field(path),
        }
    })
}

/// A schema node with its `$ref` followed and an optional field's null alternative set aside.
fn resolve_ref<'s>(
    schema: &'s serde_json::Value,
    mut node: &'s serde_json::Value,
) -> Option<&'s serde_json::Value> {
    for _ in 0..8 {
        if let Some(r) = node.get("$ref").and_then(|r| r.as_str()) {
            let name = r.rsplit('/').next()?;
            node = schema.get("$defs")?.get(name)?;
            continue;
        }
        let alternatives = node.get("anyOf").or_else(|| node.get("oneOf"));
        if let Some(list) = alternatives.and_then(|a| a.as_array()) {
            let some: Vec<_> = list
                .iter()
                .filter(|a| a.get("type").and_then(|t| t.as_str()) != Some("null"))
                .collect();
            if some.len() == 1 {
                node = some[0];
                continue;
            }
        }
        break;
    }
    Some(node)
}

/// The choices a situation field takes, from the action's schema, by the field's path
/// (`bound`, `a.contact`, `attackers[0].units[1].type`): a missing choice is said with them.
pub fn choices_at(schema: &serde_json::Value, path: &str) -> Option<Vec<String>> {
    let mut node = resolve_ref(schema, schema)?;
    for part in path.split('.') {
        let (name, indexes) = match part.find('[') {
            Some(i) => (&part[..i], part[i..].matches('[').count()),
            None => (part, 0),
        };
        if !name.is_empty() {
            node = resolve_ref(schema, node.get("properties")?.get(name)?)?;
        }
        for _ in 0..indexes {
            node = resolve_ref(schema, node.get("items")?)?;
        }
    }
    let values: Vec<String> = match node.get("enum").and_then(|e| e.as_array()) {
        Some(list) => list
            .iter()
            .filter_map(|v| v.as_str())
            .map(str::to_string)
            .collect(),
        None => node
            .get("oneOf")?
            .as_array()?
            .iter()
            .filter_map(|v| v.get("const").and_then(|c| c.as_str()))
            .map(str::to_string)
            .collect(),
    };
    (!values.is_empty()).then_some(values)
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
        .map_err(|m| RefereeError::new(ErrorCode::DiceInvalid, m).field("dice"))
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
        .map_err(|e: String| RefereeError::new(ErrorCode::RulesetInvalid, e))?;
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
            ErrorCode::DiceNotRolled,
            format!(
                "{} rolls no dice: leave out the dice",
                crate::error::given(action)
            ),
        )
        .field("dice"));
    }
    answer()
}

pub fn unknown_action(system: &str, action: &str, actions: &[ActionInfo]) -> RefereeError {
    RefereeError::new(
        ErrorCode::ActionUnknown,
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

/// A field left at its default is left out when a typed entry is written back, as the umpire
/// left it out when entering it.
pub fn is_false(b: &bool) -> bool {
    !*b
}

pub fn is_true(b: &bool) -> bool {
    *b
}

pub fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A field at its type's default.
pub fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}
