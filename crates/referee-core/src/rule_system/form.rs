//! The roster unit form, as every system offers it: the fields a roster unit's `stats` take, in
//! the rules' words, every choice with the values the ruleset data prints for it; the check of
//! entered stats against the form; a unit's preview; a CSV roster template. Each system builds
//! its own fields from its data (its `roster.rs`).

use serde::Serialize;
use serde_json::Value;
use ts_rs::TS;

use crate::error::RefereeError;
use crate::rule_system::resolve::MAX_VALUE;
use crate::ErrorCode;

/// The fields of a roster unit for one ruleset.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct UnitForm {
    pub ruleset: String,
    pub fields: Vec<UnitField>,
    /// What a leader's row asks (none where the system keeps a leader's notes as entered).
    pub leader_fields: Vec<UnitField>,
    /// The field that says where a unit stands, where the system places units (ITACS `hex`):
    /// units of one side with the same value are one stack, and moving a unit is changing it.
    pub place_field: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FieldKind {
    Choice,
    Number,
    Toggle,
    Text,
    /// Another unit of the same side on the roster, by its label: the unit a leader leads, the
    /// elephant an escort runs with. The form offers the side's units; the system checks the
    /// pick against the battle (`check_among`).
    Unit,
}

/// One field: the stats key it fills, its label and rule, and for a choice every value.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct UnitField {
    pub key: String,
    pub label: String,
    pub rule: String,
    #[ts(type = "\"choice\" | \"number\" | \"toggle\" | \"text\" | \"unit\"")]
    pub kind: FieldKind,
    pub required: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub default: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub min: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub max: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub help: Option<String>,
    pub options: Vec<UnitOption>,
    /// Asked of one unit only (the leader attached to it): the form clears it once a unit is
    /// added, where it keeps the others for the next unit of the kind.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[ts(optional, as = "Option<bool>")]
    pub once: bool,
    /// Asked of a general's own row only (his tag, where he is entered with his guard): the
    /// form leaves it out for any other unit.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[ts(optional, as = "Option<bool>")]
    pub general_only: bool,
}

/// One value of a choice, with what it brings.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct UnitOption {
    pub key: String,
    pub label: String,
    /// What a unit of this option is called when the umpire names it not ("Heavy cavalry" for
    /// Medieval's `heavy_cavalry`); absent, its key ("LB").
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub unit_label: Option<String>,
    /// Stats keys this option already supplies, so the form does not ask them.
    pub fills: Vec<String>,
    pub printed: Vec<PrintedValue>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct PrintedValue {
    pub label: String,
    pub value: String,
    pub rule: String,
}

/// A unit's values from the tables, as the form is filled in.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct UnitPreview {
    pub summary: String,
    pub values: Vec<PrintedValue>,
}

pub fn printed(label: &str, value: impl ToString, rule: &str) -> PrintedValue {
    PrintedValue {
        label: label.to_string(),
        value: value.to_string(),
        rule: rule.to_string(),
    }
}

/// "Swordsmen (SD)"; a key that is only the name in other letters ("heavy_cavalry") is left out.
pub fn option_label(key: &str, name: &str) -> String {
    let plain = |s: &str| {
        s.chars()
            .filter(char::is_ascii_alphanumeric)
            .collect::<String>()
            .to_lowercase()
    };
    if plain(key) == plain(name) {
        name.to_string()
    } else {
        format!("{name} ({key})")
    }
}

/// A form field being built, in the rules' words.
pub struct Field(pub UnitField);

impl Field {
    pub fn new(key: &str, label: &str, rule: &str, kind: FieldKind) -> Field {
        let field = Field(UnitField {
            key: key.into(),
            label: label.into(),
            rule: rule.into(),
            kind,
            required: false,
            default: None,
            min: None,
            max: None,
            help: None,
            options: Vec::new(),
            once: false,
            general_only: false,
        });
        if kind == FieldKind::Number {
            field.range(None, None)
        } else {
            field
        }
    }
    pub fn once(mut self) -> Field {
        self.0.once = true;
        self
    }
    pub fn general_only(mut self) -> Field {
        self.0.general_only = true;
        self
    }
    pub fn required(mut self) -> Field {
        self.0.required = true;
        self
    }
    pub fn default(mut self, v: Value) -> Field {
        self.0.default = Some(v);
        self
    }
    /// A number's bounds; a bound not given is the ±10,000 every tabletop value keeps to, so
    /// the form always says both.
    pub fn range(mut self, min: Option<i32>, max: Option<i32>) -> Field {
        self.0.min = Some(min.unwrap_or(-(MAX_VALUE as i32)));
        self.0.max = Some(max.unwrap_or(MAX_VALUE as i32));
        self
    }
    pub fn help(mut self, h: &str) -> Field {
        self.0.help = Some(h.into());
        self
    }
    pub fn options(mut self, o: Vec<UnitOption>) -> Field {
        self.0.options = o;
        self
    }
}

/// The section a type's `rule` gives for one of its values: "10.2.1; class 4.5.7, strength
/// 4.5.13" gives class → 4.5.7; otherwise the whole text.
pub fn rule_for(rule: &str, word: &str) -> String {
    rule.split(';')
        .skip(1)
        .flat_map(|part| part.split(','))
        .find_map(|p| {
            p.trim()
                .strip_prefix(word)
                .map(|r| r.trim().to_string())
                .filter(|r| !r.is_empty())
        })
        .unwrap_or_else(|| rule.split(';').next().unwrap_or(rule).trim().to_string())
}

pub fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_lowercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

fn form_error(key: &str, message: String) -> RefereeError {
    RefereeError::new(ErrorCode::UnitInvalid, message).field(key)
}

/// Checks stats against the form: every key known, every choice one of its options, every number
/// whole and in range, every required field there. Messages name the field by its label.
pub fn check_stats(
    form: &UnitForm,
    other_keys: &[&str],
    stats: &Value,
) -> Result<(), RefereeError> {
    let Some(map) = stats.as_object() else {
        return Err(RefereeError::new(
            ErrorCode::UnitInvalid,
            "The unit's values are missing: fill in the form.",
        ));
    };
    for (key, value) in map {
        let Some(field) = form.fields.iter().find(|f| &f.key == key) else {
            if other_keys.contains(&key.as_str()) {
                continue;
            }
            return Err(form_error(
                key,
                format!("The rules give a unit no value called {key}: leave it out."),
            ));
        };
        let label = &field.label;
        match field.kind {
            FieldKind::Choice => {
                let Some(v) = value.as_str() else {
                    return Err(form_error(key, format!("{label}: pick one from the list.")));
                };
                if !field.options.iter().any(|o| o.key == v) {
                    return Err(form_error(
                        key,
                        format!(
                            "{label}: the rules have no {} called {v}. Pick one from the list.",
                            lower_first(label)
                        ),
                    ));
                }
            }
            FieldKind::Number => check_number(field, value)?,
            FieldKind::Toggle => {
                if !value.is_boolean() {
                    return Err(form_error(key, format!("{label}: yes or no.")));
                }
            }
            FieldKind::Text => {
                if !value.is_string() {
                    return Err(form_error(
                        key,
                        format!("{label}: enter it as printed on the counter."),
                    ));
                }
            }
            FieldKind::Unit => {
                if !value.is_string() {
                    return Err(form_error(
                        key,
                        format!("{label}: pick a unit of the roster by its label."),
                    ));
                }
            }
        }
    }
    match first_missing(form, map, false, &|_| false) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// "Units in the hex must be a whole number from 1 to 10,000.": what a number field takes, said
/// the same way by the API and beside the field on screen.
pub fn number_words(field: &UnitField) -> String {
    let (min, max) = number_bounds(field);
    crate::error::whole_number_words(&field.label, min, max)
}

/// A number field's bounds: its own, within the ±10,000 every tabletop value keeps to.
pub fn number_bounds(field: &UnitField) -> (i64, i64) {
    let min = field.min.map_or(-MAX_VALUE, i64::from).max(-MAX_VALUE);
    let max = field.max.map_or(MAX_VALUE, i64::from).min(MAX_VALUE);
    (min, max)
}

/// A number field's value: a whole number within its bounds.
fn check_number(field: &UnitField, value: &Value) -> Result<(), RefereeError> {
    let (min, max) = number_bounds(field);
    match value.as_i64() {
        Some(n) if (min..=max).contains(&n) => Ok(()),
        _ => Err(form_error(&field.key, number_words(field)).rule(field.rule.clone())),
    }
}

/// The numbers of a unit the umpire adds or corrects, each a whole number within its field's
/// bounds (a field the form does not have is the system's to check).
pub fn check_numbers(fields: &[UnitField], stats: &Value) -> Result<(), RefereeError> {
    let Some(map) = stats.as_object() else {
        return Ok(());
    };
    for field in fields.iter().filter(|f| f.kind == FieldKind::Number) {
        match map.get(&field.key) {
            None | Some(Value::Null) => {}
            Some(v) => check_number(field, v)?,
        }
    }
    Ok(())
}

/// A unit the umpire adds or corrects: every field the form requires is there, unless the chosen
/// type fills it or the field has a default. Checked where a unit is entered, not as a battle
/// folds: battles recorded before a field was asked still load. A correction (`before`: the
/// entry it corrects) is not asked what the entry already lacked: moving a preset's unit to
/// another hex does not ask its class.
pub fn check_required(
    form: &UnitForm,
    stats: &Value,
    before: Option<&Value>,
) -> Result<(), RefereeError> {
    let lacked = |key: &str| before.is_some_and(|b| b.get(key).is_none_or(Value::is_null));
    match stats
        .as_object()
        .and_then(|map| first_missing(form, map, true, &lacked))
    {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The first required field missing from `map`, in form order, but those `not_asked`.
fn first_missing(
    form: &UnitForm,
    map: &serde_json::Map<String, Value>,
    defaults_fill: bool,
    not_asked: &dyn Fn(&str) -> bool,
) -> Option<RefereeError> {
    // A field the chosen option already fills (an ITACS type's class) is not asked.
    let filled: Vec<&str> = form
        .fields
        .iter()
        .filter(|f| f.kind == FieldKind::Choice)
        .filter_map(|f| {
            let chosen = map.get(&f.key)?.as_str()?;
            f.options.iter().find(|o| o.key == chosen)
        })
        .flat_map(|o| o.fills.iter().map(String::as_str))
        .collect();
    let field = form.fields.iter().filter(|f| f.required).find(|f| {
        let given_otherwise = filled.contains(&f.key.as_str())
            || (defaults_fill && f.default.is_some())
            || not_asked(&f.key);
        !given_otherwise && map.get(&f.key).is_none_or(Value::is_null)
    })?;
    let how = match field.kind {
        FieldKind::Choice => "pick one from the list",
        FieldKind::Number => "enter a number",
        _ => "fill it in",
    };
    Some(form_error(
        &field.key,
        format!("{}: every unit needs one; {how}.", field.label),
    ))
}

/// A ruleset's error on a unit as the form shows it: the stats key at fault (no prefix, no
/// index), a plain sentence naming the field by its label.
pub fn plain(form: &UnitForm, e: RefereeError) -> RefereeError {
    let key = e
        .field
        .as_deref()
        .and_then(|f| f.rsplit('.').next())
        .map(|k| k.split('[').next().unwrap_or(k).to_string())
        .filter(|k| !k.is_empty());
    let label = key
        .as_ref()
        .and_then(|k| form.fields.iter().find(|f| &f.key == k))
        .map(|f| f.label.clone());
    let text = e.message.replace('`', "");
    let mut text = match &label {
        Some(l) => format!("{l}: {text}"),
        None => text,
    };
    if let Some(first) = text.get(..1) {
        text = first.to_uppercase() + &text[1..];
    }
    if !text.ends_with('.') {
        text.push('.');
    }
    let mut out = RefereeError::new(e.code, text);
    if let Some(k) = key {
        out = out.field(k);
    }
    if let Some(r) = e.rule {
        out = out.rule(&r);
    }
    if let Some(r) = e.ruling {
        out = out.ruling(&r);
    }
    out
}

/// An entry with the hex it stands in, as the roster keeps it (the system's place field).
pub fn placed(entry: &mut Value, hex: &Option<String>) {
    if let (Some(map), Some(hex)) = (entry.as_object_mut(), hex) {
        map.insert("hex".into(), Value::from(hex.clone()));
    }
}

/// A hex as a key to compare by: trimmed, each number of it read as a number and any words
/// without case, so "19.5", "19.05" and " 19.05" name one hex (the map prints 19.05).
pub fn hex_key(hex: &str) -> String {
    hex.trim()
        .split('.')
        .map(|part| {
            let part = part.trim();
            match part.parse::<u64>() {
                Ok(n) if part.chars().all(|c| c.is_ascii_digit()) => n.to_string(),
                _ => part.to_lowercase(),
            }
        })
        .collect::<Vec<_>>()
        .join(".")
}

/// The hex a roster entry's stats name, apart from what the unit is: the stats without it, and
/// the hex (a number or text, as the umpire wrote it); `rule` is the system's rule on hexes.
pub fn hex_of(stats: &Value, rule: &str) -> Result<(Value, Option<String>), RefereeError> {
    let mut stats = stats.clone();
    let hex = match stats.as_object_mut().and_then(|m| m.remove("hex")) {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if s.trim().is_empty() => None,
        Some(Value::String(s)) => Some(s.trim().to_string()),
        Some(Value::Number(n)) => Some(n.to_string()),
        Some(_) => {
            return Err(RefereeError::new(
                ErrorCode::UnitInvalid,
                "the hex is the number the map prints on it, such as 17.03",
            )
            .field("hex")
            .rule(rule))
        }
    };
    Ok((stats, hex))
}

/// Stats with a key's default filled in when the umpire left it out.
pub fn with_default(stats: &Value, key: &str, v: Value) -> Value {
    let mut s = stats.clone();
    if let Some(m) = s.as_object_mut() {
        m.entry(key.to_string()).or_insert(v);
    }
    s
}

/// A roster template's rows: `label` and the form's field keys, then two example rows built from
/// the ruleset's own choices (those that bring the most printed values first). The API writes
/// them as CSV.
pub fn roster_template_rows(form: &UnitForm) -> Vec<Vec<String>> {
    let mut header = vec!["label".to_string()];
    header.extend(form.fields.iter().map(|f| f.key.clone()));
    let mut rows = vec![header.clone()];
    for n in 0..2 {
        let mut cells = vec![String::new(); header.len()];
        let mut filled: Vec<String> = Vec::new();
        let mut name = String::new();
        for (i, f) in form.fields.iter().enumerate() {
            if !f.required || filled.contains(&f.key) {
                continue;
            }
            cells[i + 1] = match f.kind {
                FieldKind::Choice => {
                    let mut options: Vec<&UnitOption> = f.options.iter().collect();
                    options.sort_by_key(|o| std::cmp::Reverse(o.fills.len() + o.printed.len()));
                    let Some(o) = options.get(n % options.len().max(1)) else {
                        continue;
                    };
                    filled.extend(o.fills.iter().cloned());
                    if name.is_empty() {
                        name = o.label.split(" (").next().unwrap_or(&o.label).to_string();
                    }
                    o.key.clone()
                }
                FieldKind::Number => {
                    let v = f.default.as_ref().and_then(Value::as_i64).unwrap_or(0);
                    v.max(i64::from(f.min.unwrap_or(0)))
                        .max(2 + n as i64)
                        .min(f.max.map_or(i64::MAX, i64::from))
                        .to_string()
                }
                FieldKind::Toggle => "false".into(),
                FieldKind::Text | FieldKind::Unit => String::new(),
            };
        }
        cells[0] = format!("{name} {}", n + 1);
        rows.push(cells);
    }
    rows
}

#[cfg(test)]
mod hex_key_tests {
    use super::hex_key;

    #[test]
    fn a_hex_key_reads_the_numbers_of_a_hex_as_numbers() {
        assert_eq!(hex_key("19.5"), hex_key("19.05"));
        assert_eq!(hex_key(" 19.05 "), "19.5");
        assert_ne!(hex_key("19.50"), hex_key("19.05"));
        assert_eq!(hex_key("Ford A"), hex_key("ford a"));
    }
}
