//! The roster unit form of each ruleset: the fields a roster unit's `stats` take, in the rules'
//! words, every choice with the values the ruleset data prints for it; a preview of a unit's
//! values from the tables; and a CSV roster template. Labels and rule sections of the fields are
//! the rules' own; every printed value is read from the ruleset data.

use serde::Serialize;
use serde_json::{json, Value};
use ts_rs::TS;

use crate::error::RefereeError;
use crate::systems::{dbmm, gts, itacs, medieval, Ruleset, SystemRules};

/// The fields of a roster unit for one ruleset.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct UnitForm {
    pub ruleset: String,
    pub fields: Vec<UnitField>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FieldKind {
    Choice,
    Number,
    Toggle,
    Text,
}

/// One field: the stats key it fills, its label and rule, and for a choice every value.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct UnitField {
    pub key: String,
    pub label: String,
    pub rule: String,
    #[ts(type = "\"choice\" | \"number\" | \"toggle\" | \"text\"")]
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
}

/// One value of a choice, with what it brings.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct UnitOption {
    pub key: String,
    pub label: String,
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

fn printed(label: &str, value: impl ToString, rule: &str) -> PrintedValue {
    PrintedValue {
        label: label.to_string(),
        value: value.to_string(),
        rule: rule.to_string(),
    }
}

/// "Swordsmen (SD)"; a key that is only the name in other letters ("heavy_cavalry") is left out.
fn option_label(key: &str, name: &str) -> String {
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

struct Field(UnitField);

impl Field {
    fn new(key: &str, label: &str, rule: &str, kind: FieldKind) -> Field {
        Field(UnitField {
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
        })
    }
    fn required(mut self) -> Field {
        self.0.required = true;
        self
    }
    fn default(mut self, v: Value) -> Field {
        self.0.default = Some(v);
        self
    }
    fn range(mut self, min: Option<i32>, max: Option<i32>) -> Field {
        self.0.min = min;
        self.0.max = max;
        self
    }
    fn help(mut self, h: &str) -> Field {
        self.0.help = Some(h.into());
        self
    }
    fn options(mut self, o: Vec<UnitOption>) -> Field {
        self.0.options = o;
        self
    }
}

/// The roster unit form of a ruleset.
pub fn unit_form(ruleset: &Ruleset) -> UnitForm {
    let fields = match &ruleset.rules {
        SystemRules::Itacs(d) => itacs_fields(d),
        SystemRules::Medieval(d) => medieval_fields(d),
        SystemRules::Gts(d) => gts_fields(d),
        SystemRules::Dbmm(d) => dbmm_fields(d),
    };
    UnitForm {
        ruleset: ruleset.info.id.clone(),
        fields: fields.into_iter().map(|f| f.0).collect(),
    }
}

/// The section a type's `rule` gives for one of its values: "10.2.1; class 4.5.7, strength
/// 4.5.13" gives class → 4.5.7; otherwise the whole text.
fn rule_for(rule: &str, word: &str) -> String {
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

fn itacs_type_values(
    d: &itacs::ItacsData,
    t: &itacs::data::UnitType,
) -> (Vec<String>, Vec<PrintedValue>) {
    let mut fills = Vec::new();
    let mut values = Vec::new();
    if let Some(c) = &t.class {
        fills.push("class".to_string());
        let name = d
            .unit_classes
            .get(c)
            .map(|k| format!("{c} ({})", k.name))
            .unwrap_or_else(|| c.clone());
        values.push(printed("Unit class", name, &rule_for(&t.rule, "class")));
    }
    if let Some(c) = &t.combat {
        fills.push("combat".to_string());
        values.push(printed(
            "Combat strength",
            c,
            &rule_for(&t.rule, "strength"),
        ));
    }
    if let Some(f) = t.fire {
        fills.push("fire".to_string());
        values.push(printed("Fire strength", f, &rule_for(&t.rule, "fire")));
    }
    if let Some(m) = t.movement {
        fills.push("movement".to_string());
        values.push(printed(
            "Movement points",
            m,
            &rule_for(&t.rule, "movement"),
        ));
    }
    if t.shields {
        fills.push("shields".to_string());
        values.push(printed("Shields", "yes", &rule_for(&t.rule, "shields")));
    }
    (fills, values)
}

fn itacs_fields(d: &itacs::ItacsData) -> Vec<Field> {
    let types = d
        .unit_types
        .iter()
        .map(|(k, t)| {
            let (fills, printed) = itacs_type_values(d, t);
            UnitOption {
                key: k.clone(),
                label: option_label(k, &t.name),
                fills,
                printed,
            }
        })
        .collect();
    let classes = d
        .unit_classes
        .iter()
        .filter(|(_, c)| !c.leader)
        .map(|(k, c)| UnitOption {
            key: k.clone(),
            label: format!("{} ({k})", c.name),
            fills: Vec::new(),
            printed: Vec::new(),
        })
        .collect();
    vec![
        Field::new("type", "Unit type", "2.4.5", FieldKind::Choice)
            .required()
            .help("The code in the top left corner of the counter.")
            .options(types),
        Field::new("count", "Units in the hex", "2.4", FieldKind::Number)
            .required()
            .default(json!(1))
            .range(Some(1), None)
            .help("How many identical units of this type stand in the hex."),
        Field::new("class", "Unit class", "2.4.4", FieldKind::Choice)
            .help("The letter at the bottom of the counter, asked only when the rules do not give the type's class.")
            .options(classes),
        Field::new("combat", "Combat strength", "2.4.6", FieldKind::Text)
            .help("As printed on the counter: a number, a dot, or a number in square brackets."),
        Field::new("fire", "Fire strength", "2.4.6", FieldKind::Number)
            .range(Some(0), None)
            .help("As printed on the counter; a unit without one has a fire strength of 0."),
        Field::new("movement", "Movement points", "4.3", FieldKind::Number)
            .range(Some(0), None)
            .help("As printed on the counter."),
        Field::new("shields", "Shields", "4.2.5", FieldKind::Toggle)
            .help("The unit carries shields against missile fire."),
        Field::new("elite", "Elite", "4.2.6, 4.5.9", FieldKind::Toggle)
            .default(json!(false))
            .help("The scenario makes this unit elite."),
    ]
}

fn medieval_type_values(
    d: &medieval::MedievalData,
    t: &medieval::data::UnitType,
) -> (Vec<String>, Vec<PrintedValue>) {
    let mut fills = vec!["armour".to_string()];
    let mut values = vec![
        printed(
            "Arm",
            if t.cavalry { "Cavalry" } else { "Infantry" },
            &t.rule,
        ),
        printed("Armour level", t.armour, &t.rule),
    ];
    if !t.cavalry {
        fills.push("cf".to_string());
        values.push(printed(
            "Charge factor",
            "none: only cavalry charge",
            "5.6.1",
        ));
    }
    if let Some(r) = &t.ranged {
        let (name, rule) = d
            .fire
            .get(r)
            .map(|f| (f.name.clone(), f.rule.clone()))
            .unwrap_or_else(|| (r.clone(), t.rule.clone()));
        values.push(printed("Fires with", name, &rule));
    }
    if t.no_charge_modifier {
        values.push(printed("Charge modifier", "none", &t.rule));
    }
    (fills, values)
}

fn medieval_fields(d: &medieval::MedievalData) -> Vec<Field> {
    let types = d
        .unit_types
        .iter()
        .map(|(k, t)| {
            let (fills, printed) = medieval_type_values(d, t);
            UnitOption {
                key: k.clone(),
                label: option_label(k, &t.name),
                fills,
                printed,
            }
        })
        .collect();
    let max_cf = i32::try_from(d.combat.max_charge_factor).unwrap_or(i32::MAX);
    vec![
        Field::new("type", "Unit type", "1.1", FieldKind::Choice)
            .required()
            .options(types),
        Field::new("sp", "Strength points (SP)", "1.2, 1.3", FieldKind::Number)
            .required()
            .range(Some(1), None)
            .help("The strength points on the counter when the battle begins."),
        Field::new("armour", "Armour level", "1.1", FieldKind::Number)
            .range(Some(0), Some(2))
            .help("The shields on the counter, from 0 to 2; the unit type gives it."),
        Field::new("cf", "Charge factor (CF)", "5.6", FieldKind::Number)
            .default(json!(0))
            .range(Some(0), Some(max_cf))
            .help("Cavalry only: the charge factor the unit has now."),
    ]
}

/// A Table 2.10 row's modifiers, as printed values.
fn gts_row_values(r: &gts::data::Row) -> Vec<PrintedValue> {
    let signed = |n: i64| format!("{n:+}");
    let mut v = Vec::new();
    for (label, n) in [
        ("Response", r.response),
        ("Quality", r.quality),
        ("Move", r.move_inches),
        ("Fire attack", r.fire_attack),
        ("Fire defence", r.fire_defence),
        ("Melee", r.melee),
        ("Recoil", r.recoil),
    ] {
        if n != 0 {
            v.push(printed(label, signed(n), "2.10"));
        }
    }
    if let Some(m) = r.melee_first {
        v.push(printed("1st turn melee", signed(m), "2.10"));
    }
    if let Some(c) = &r.weapon_class {
        v.push(printed("Weapon class", c, "2.10"));
    }
    if !r.ranges.is_empty() {
        let inches = r
            .ranges
            .iter()
            .map(|t| format!("{}\"", f64::from(*t) / 10.0))
            .collect::<Vec<_>>()
            .join(", ");
        v.push(printed("Fire range", inches, "2.10"));
    }
    v
}

fn gts_fields(d: &gts::GtsData) -> Vec<Field> {
    let group = |g: &str| -> Vec<UnitOption> {
        d.rows
            .iter()
            .filter(|(_, r)| r.group == g)
            .map(|(k, r)| UnitOption {
                key: k.clone(),
                label: option_label(k, &r.name),
                fills: Vec::new(),
                printed: gts_row_values(r),
            })
            .collect()
    };
    let classes = d
        .classes
        .iter()
        .map(|(k, c)| {
            let mut values = Vec::new();
            if let Some(m) = c.move_inches {
                values.push(printed("Base move", format!("{m}\""), &c.rule));
            }
            if let Some(h) = c.hits_per_stand {
                values.push(printed("Hits per stand", h, &c.rule));
            }
            if c.mounted {
                values.push(printed("Mounted", "yes", &c.rule));
            }
            for key in &c.rows {
                if let Some(r) = d.rows.get(key) {
                    values.extend(gts_row_values(r));
                }
            }
            UnitOption {
                key: k.clone(),
                label: option_label(k, &c.name),
                fills: Vec::new(),
                printed: values,
            }
        })
        .collect();
    vec![
        Field::new("class", "Class", "2.1", FieldKind::Choice)
            .required()
            .options(classes),
        Field::new("morale", "Morale", "2.1, 2.10", FieldKind::Choice)
            .help("Leave empty for standard morale.")
            .options(group("morale")),
        Field::new("training", "Training", "2.1, 2.10", FieldKind::Choice)
            .help("Leave empty for standard training.")
            .options(group("training")),
        Field::new("armour", "Armour", "2.1, 2.10", FieldKind::Choice).options(group("armour")),
        Field::new("weapon", "Weapon", "2.1, 2.10", FieldKind::Choice)
            .required()
            .help("The unit's primary weapon.")
            .options(group("weapon")),
        Field::new("secondary", "Secondary weapon", "2.13", FieldKind::Choice)
            .help("A second weapon the unit fires with at a penalty.")
            .options(group("weapon")),
        Field::new("order", "Order", "2.10, 3.23", FieldKind::Choice)
            .help("Close or open order; elephants have neither.")
            .options(group("order")),
        Field::new("stands", "Stands", "2.11, 5.52", FieldKind::Number)
            .required()
            .range(Some(1), None)
            .help("The stands of the unit when the battle begins."),
    ]
}

fn dbmm_fields(d: &dbmm::DbmmData) -> Vec<Field> {
    let types = d
        .types
        .iter()
        .map(|(k, t)| {
            let class = serde_json::to_value(t.class)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .and_then(|c| d.classes.get(&c).map(|i| i.name.clone()))
                .unwrap_or_default();
            UnitOption {
                key: k.clone(),
                label: option_label(k, &t.name),
                fills: Vec::new(),
                printed: vec![printed("Class", class, &t.rule)],
            }
        })
        .collect();
    let grades = d
        .grades
        .iter()
        .map(|(k, g)| UnitOption {
            key: k.clone(),
            label: option_label(k, &g.name),
            fills: Vec::new(),
            printed: Vec::new(),
        })
        .collect();
    vec![
        Field::new("type", "Element type", "p. 36", FieldKind::Choice)
            .required()
            .options(types),
        Field::new("grade", "Grade", "p. 4–9", FieldKind::Choice)
            .required()
            .options(grades),
        Field::new("irr", "Irregular", "p. 4–9", FieldKind::Toggle)
            .default(json!(false))
            .help("Irregular troops; regular when off."),
        Field::new("general", "General's element", "p. 42", FieldKind::Toggle)
            .default(json!(false))
            .help("The element of the commander-in-chief, a sub-general or an ally general."),
    ]
}

/// The stats keys a roster unit takes besides the form's own (kept as they are, not asked).
fn other_keys(ruleset: &Ruleset) -> &'static [&'static str] {
    match &ruleset.rules {
        SystemRules::Itacs(_) => &["firing", "throwing", "cargo", "marine"],
        SystemRules::Medieval(_) => &["count", "movement_formation"],
        SystemRules::Gts(_) => &[
            "name",
            "command",
            "hits",
            "starting_stands",
            "skirmish",
            "disordered",
            "routed",
            "march",
            "tag",
        ],
        SystemRules::Dbmm(_) => &[
            "name",
            "double_based_rear",
            "army_baggage",
            "counts_as",
            "elephant_killer",
            "wedge",
        ],
    }
}

fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_lowercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

fn form_error(key: &str, message: String) -> RefereeError {
    RefereeError::new("unit.invalid", message).field(key)
}

/// Checks stats against the form: every key known, every choice one of its options, every number
/// whole and in range, every required field there. Messages name the field by its label.
pub fn check_stats(form: &UnitForm, ruleset: &Ruleset, stats: &Value) -> Result<(), RefereeError> {
    let Some(map) = stats.as_object() else {
        return Err(RefereeError::new(
            "unit.invalid",
            "The unit's values are missing: fill in the form.",
        ));
    };
    for (key, value) in map {
        let Some(field) = form.fields.iter().find(|f| &f.key == key) else {
            if other_keys(ruleset).contains(&key.as_str()) {
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
            FieldKind::Number => {
                let Some(n) = value.as_i64() else {
                    return Err(form_error(key, format!("{label}: enter a whole number.")));
                };
                if let Some(min) = field.min {
                    if n < i64::from(min) {
                        return Err(form_error(key, format!("{label}: at least {min}.")));
                    }
                }
                if let Some(max) = field.max {
                    if n > i64::from(max) {
                        return Err(form_error(key, format!("{label}: at most {max}.")));
                    }
                }
            }
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
        }
    }
    for field in form.fields.iter().filter(|f| f.required) {
        if map.get(&field.key).is_none_or(Value::is_null) {
            let how = match field.kind {
                FieldKind::Choice => "pick one from the list",
                FieldKind::Number => "enter a number",
                _ => "fill it in",
            };
            return Err(form_error(
                &field.key,
                format!("{}: every unit needs one; {how}.", field.label),
            ));
        }
    }
    Ok(())
}

/// A ruleset's error on a unit as the form shows it: the stats key at fault (no prefix, no
/// index), a plain sentence naming the field by its label.
fn plain(form: &UnitForm, e: RefereeError) -> RefereeError {
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
    let mut out = RefereeError::new(&e.code, text);
    if let Some(k) = key {
        out = out.field(k);
    }
    if let Some(r) = e.rule {
        out = out.rule(&r);
    }
    out
}

/// A unit's values from the tables, or what is wrong with its stats.
pub fn unit_preview(ruleset: &Ruleset, stats: &Value) -> Result<UnitPreview, RefereeError> {
    let form = unit_form(ruleset);
    check_stats(&form, ruleset, stats)?;
    preview(ruleset, stats).map_err(|e| plain(&form, e))
}

fn preview(ruleset: &Ruleset, stats: &Value) -> Result<UnitPreview, RefereeError> {
    use crate::systems::parse_situation;
    match &ruleset.rules {
        SystemRules::Itacs(d) => {
            let entry: itacs::situation::UnitEntry = parse_situation(stats)?;
            let unit = itacs::situation::Unit::resolve(d, &entry, "")?;
            let t = entry.unit_type.as_ref().and_then(|k| d.unit_types.get(k));
            let mut values = match t {
                Some(t) => itacs_type_values(d, t).1,
                None => Vec::new(),
            };
            let has = |values: &[PrintedValue], l: &str| values.iter().any(|v| v.label == l);
            if let (Some(c), false) = (&entry.class, has(&values, "Unit class")) {
                let name = d
                    .unit_classes
                    .get(c)
                    .map(|k| k.name.clone())
                    .unwrap_or_default();
                values.push(printed("Unit class", format!("{c} ({name})"), "2.4.4"));
            }
            if let (Some(c), false) = (&entry.combat, has(&values, "Combat strength")) {
                values.push(printed("Combat strength", c.text(), "2.4.6"));
            }
            if let (Some(f), false) = (entry.fire, has(&values, "Fire strength")) {
                values.push(printed("Fire strength", f, "2.4.6"));
            }
            if let (Some(m), false) = (entry.movement, has(&values, "Movement points")) {
                values.push(printed("Movement points", m, "4.3"));
            }
            if entry.elite {
                values.push(printed("Elite", "yes", "4.2.6, 4.5.9"));
            }
            let name = t
                .map(|t| t.name.clone())
                .unwrap_or_else(|| unit.label.clone());
            let mut summary = format!("{} × {name}", entry.count);
            if let Some(c) = &unit.class {
                summary.push_str(&format!(", class {c}"));
            }
            let combat = entry
                .combat
                .as_ref()
                .map(|c| c.text())
                .or_else(|| t.and_then(|t| t.combat.clone()));
            if let Some(c) = combat {
                summary.push_str(&format!(", combat {c}"));
            }
            if unit.fire > 0 {
                summary.push_str(&format!(", fire {}", unit.fire));
            }
            if entry.elite {
                summary.push_str(", elite");
            }
            Ok(UnitPreview { summary, values })
        }
        SystemRules::Medieval(d) => {
            let entry: medieval::units::MedUnit =
                parse_situation(&with_default(stats, "count", json!(1)))?;
            let unit = medieval::units::unit(d, &entry, "")?;
            let t = &d.unit_types[&entry.unit_type];
            let mut values = medieval_type_values(d, t).1;
            if let Some(v) = values.iter_mut().find(|v| v.label == "Armour level") {
                v.value = unit.armour.to_string();
            }
            values.insert(0, printed("Strength points", unit.sp, "1.2"));
            if t.cavalry {
                values.push(printed("Charge factor", unit.cf, "5.6"));
            }
            let mut summary = format!("{}, {} SP, armour {}", unit.name, unit.sp, unit.armour);
            if t.cavalry {
                summary.push_str(&format!(", CF {}", unit.cf));
            }
            Ok(UnitPreview { summary, values })
        }
        SystemRules::Gts(d) => {
            let entry: gts::units::UnitEntry = parse_situation(stats)?;
            let unit = gts::units::Unit::build(d, &entry, "")?;
            let class = d
                .classes
                .get(&entry.class)
                .map(|c| c.name.clone())
                .unwrap_or_default();
            let summary = format!(
                "{} stands of {} ({}), response {}, quality {}",
                unit.stands, class, unit.weapon.name, unit.response.value, unit.quality.value
            );
            let values = unit
                .totals()
                .into_iter()
                .map(|t| printed(&t.label, t.value, &t.rule))
                .collect();
            Ok(UnitPreview { summary, values })
        }
        SystemRules::Dbmm(_) => {
            let r = ruleset.resolve("element", &json!({ "element": stats }), None)?;
            let element: dbmm::element::Element = parse_situation(stats)?;
            let summary = r
                .distribution
                .first()
                .map(|o| o.meaning.clone())
                .unwrap_or_else(|| element.label());
            let values = r
                .totals
                .into_iter()
                .map(|t| printed(&t.label, t.value, &t.rule))
                .collect();
            Ok(UnitPreview { summary, values })
        }
    }
}

fn with_default(stats: &Value, key: &str, v: Value) -> Value {
    let mut s = stats.clone();
    if let Some(m) = s.as_object_mut() {
        m.entry(key.to_string()).or_insert(v);
    }
    s
}

/// A CSV roster template: `label` and the form's field keys, with two example rows built from
/// the ruleset's own choices (those that bring the most printed values first).
pub fn roster_csv_template(ruleset: &Ruleset) -> String {
    let form = unit_form(ruleset);
    let mut header = vec!["label".to_string()];
    header.extend(form.fields.iter().map(|f| f.key.clone()));
    let mut rows = vec![header.join(",")];
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
                        .to_string()
                }
                FieldKind::Toggle => "false".into(),
                FieldKind::Text => String::new(),
            };
        }
        cells[0] = format!("{name} {}", n + 1);
        rows.push(cells.join(","));
    }
    rows.join("\n") + "\n"
}
