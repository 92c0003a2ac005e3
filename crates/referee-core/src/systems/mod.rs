//! The rule systems, one folder each, and the registry: the built-in rulesets, and the loaded
//! ruleset every action runs against. Each system implements the contract of `rule_system` in
//! its own folder; a fifth system adds its folder, its ruleset file and one line to `BUILTIN`.

pub mod dbmm;
pub mod gts;
pub mod itacs;
pub mod medieval;
pub mod sections;
#[cfg(test)]
pub(crate) mod test_support;

use std::sync::Arc;

use crate::contract::Resolution;
use crate::error::RefereeError;
use crate::rule_system::{form, Loaded, RuleSystem, System, SystemInfo, UnitForm, UnitPreview};
use crate::ruleset::{self, Layers, SourceFile};
use crate::state::{BattleState, Role, UnitSpec};
use crate::ErrorCode;

/// How a built-in system loads from its layers and its companion file.
type LoadSystem = fn(&Layers, Option<SourceFile>) -> Result<Arc<dyn System>, RefereeError>;

/// A built-in rule system: its ruleset file, embedded at compile time, and how it loads.
pub struct Builtin {
    pub id: &'static str,
    pub file: &'static str,
    pub text: &'static str,
    /// The file its tables continue in, if any (`SystemData::COMPANION`).
    pub companion: Option<SourceFile<'static>>,
    load: LoadSystem,
    schema: fn() -> schemars::Schema,
    companion_schema: fn() -> Option<schemars::Schema>,
}

impl Builtin {
    const fn of<S: RuleSystem>(file: &'static str, text: &'static str) -> Builtin {
        Builtin {
            id: S::ID,
            file,
            text,
            companion: <S::Data as ruleset::SystemData>::COMPANION,
            load: load::<S>,
            schema: schema::<S>,
            companion_schema: companion_file_schema::<S>,
        }
    }

    pub fn source(&self) -> SourceFile<'static> {
        SourceFile {
            name: self.file,
            text: self.text,
        }
    }
}

fn load<S: RuleSystem>(
    layers: &Layers,
    companion: Option<SourceFile>,
) -> Result<Arc<dyn System>, RefereeError> {
    let actions: Vec<String> = crate::rule_system::action_infos::<S>()
        .into_iter()
        .map(|a| a.id)
        .collect();
    let data: S::Data = ruleset::load_typed(layers, companion, &actions)?;
    Ok(Arc::new(Loaded::<S>::new(data)))
}

/// The ruleset file's schema: the system's data without the tables its companion file gives.
fn schema<S: RuleSystem>() -> schemars::Schema {
    let mut schema = schemars::schema_for!(S::Data);
    let companion = companion_keys(<S::Data as ruleset::SystemData>::COMPANION);
    keep_properties(&mut schema, |key| !companion.iter().any(|k| k == key));
    prune_definitions(&mut schema);
    schema
}

/// The companion file's schema: the tables it gives and the actions it may add to phases.
fn companion_file_schema<S: RuleSystem>() -> Option<schemars::Schema> {
    let companion = companion_keys(Some(<S::Data as ruleset::SystemData>::COMPANION?));
    let mut schema = schemars::schema_for!(S::Data);
    keep_properties(&mut schema, |key| companion.iter().any(|k| k == key));
    let added = schemars::schema_for!(Vec<ruleset::phase_actions::PhaseAction>);
    let object = schema.as_object_mut()?;
    if let Some(defs) = added.as_object().and_then(|a| a.get("$defs")) {
        let mine = object
            .entry("$defs")
            .or_insert_with(|| serde_json::json!({}));
        if let (Some(mine), Some(defs)) = (mine.as_object_mut(), defs.as_object()) {
            mine.extend(defs.clone());
        }
    }
    let mut items = added.to_value();
    if let Some(items) = items.as_object_mut() {
        items.remove("$schema");
        items.remove("$defs");
    }
    if let Some(properties) = object.get_mut("properties").and_then(|p| p.as_object_mut()) {
        properties.insert(ruleset::phase_actions::KEY.into(), items);
    }
    prune_definitions(&mut schema);
    Some(schema)
}

/// Drops the definitions no property reaches (those of the other file's tables).
fn prune_definitions(schema: &mut schemars::Schema) {
    fn refs(value: &serde_json::Value, out: &mut Vec<String>) {
        match value {
            serde_json::Value::Object(o) => {
                for (k, v) in o {
                    match (k.as_str(), v.as_str()) {
                        ("$ref", Some(r)) => {
                            out.extend(r.strip_prefix("#/$defs/").map(str::to_string))
                        }
                        _ => refs(v, out),
                    }
                }
            }
            serde_json::Value::Array(a) => a.iter().for_each(|v| refs(v, out)),
            _ => {}
        }
    }
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    let Some(serde_json::Value::Object(mut defs)) = object.remove("$defs") else {
        return;
    };
    let mut wanted = Vec::new();
    refs(&serde_json::Value::Object(object.clone()), &mut wanted);
    let mut kept = serde_json::Map::new();
    while let Some(name) = wanted.pop() {
        if let Some(def) = defs.remove(&name) {
            refs(&def, &mut wanted);
            kept.insert(name, def);
        }
    }
    if !kept.is_empty() {
        object.insert("$defs".into(), serde_json::Value::Object(kept));
    }
}

/// The top-level keys of a companion file.
fn companion_keys(companion: Option<SourceFile>) -> Vec<String> {
    companion
        .and_then(|c| ruleset::parse_table(c).ok())
        .map(|t| t.keys().cloned().collect())
        .unwrap_or_default()
}

/// Keeps the schema's properties (and required ones) whose key passes keep.
fn keep_properties(schema: &mut schemars::Schema, keep: impl Fn(&str) -> bool) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    if let Some(properties) = object.get_mut("properties").and_then(|p| p.as_object_mut()) {
        properties.retain(|k, _| keep(k));
    }
    if let Some(required) = object.get_mut("required").and_then(|r| r.as_array_mut()) {
        required.retain(|k| k.as_str().is_some_and(&keep));
    }
}

/// A built-in system: its `RuleSystem` and its ruleset file under rulesets/, embedded.
macro_rules! builtin {
    ($system:ty, $file:literal) => {
        Builtin::of::<$system>(
            concat!("rulesets/", $file),
            include_str!(concat!("../../../../rulesets/", $file)),
        )
    };
}

/// The built-in rule systems: one line each.
pub const BUILTIN: &[Builtin] = &[
    builtin!(itacs::Itacs, "itacs.toml"),
    builtin!(medieval::Medieval, "medieval.toml"),
    builtin!(gts::Gts, "gts.toml"),
    builtin!(dbmm::Dbmm, "dbmm.toml"),
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
    BUILTIN.iter().find(|b| b.id == id).map(Builtin::source)
}

/// A validated ruleset: a system's data with its house rules applied.
#[derive(Clone, Debug)]
pub struct Ruleset {
    pub info: SystemInfo,
    pub system: Arc<dyn System>,
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
                ErrorCode::RulesetInvalid,
                "the file does not say which rule system it is for (id under [system])",
            )
            .field("system.id")
            .location(format!("{}:1", file.name))
        })
}

impl Ruleset {
    pub fn load(layers: &Layers) -> Result<Ruleset, RefereeError> {
        Ruleset::load_with(layers, None)
    }

    /// Loads with another companion file in place of the system's built-in one (to check a
    /// changed companion file).
    pub fn load_with_companion(
        layers: &Layers,
        companion: SourceFile,
    ) -> Result<Ruleset, RefereeError> {
        Ruleset::load_with(layers, Some(companion))
    }

    fn load_with(layers: &Layers, companion: Option<SourceFile>) -> Result<Ruleset, RefereeError> {
        let id = declared_system(layers.base)?;
        let builtin = BUILTIN.iter().find(|b| b.id == id).ok_or_else(|| {
            unknown_system(&id)
                .field("system.id")
                .location(layers.locate("system.id"))
        })?;
        let system = (builtin.load)(layers, companion.or(builtin.companion))?;
        let header = system.header();
        let info = SystemInfo {
            id: id.clone(),
            name: header.name.clone(),
            dice: header.dice.clone(),
            fingerprint: layers.fingerprint(),
            layers: std::iter::once(layers.base.name)
                .chain(layers.house_rules.iter().map(|h| h.name))
                .map(str::to_string)
                .collect(),
            actions: system.actions(),
            main_action: system.main_action().to_string(),
            choices: system.choices(),
            phases: system.sequence().to_vec(),
            common_situations: system.common_situations(),
            side_fields: system.side_fields(),
            roster_advice: system.roster_advice().map(str::to_string),
            derived_values: system.derived_values(),
            turn_word: system.turn_word().to_string(),
        };
        Ok(Ruleset { info, system })
    }

    pub fn resolve(
        &self,
        action: &str,
        situation: &serde_json::Value,
        dice: Option<&[u32]>,
    ) -> Result<Resolution, RefereeError> {
        match self.system.resolve(action, situation, dice) {
            Ok(r) => Ok(r.shown()),
            Err(e) => Err(self.with_choices(action, e)),
        }
    }

    /// Throws an action's dice with `roll` (a die's sides → its face): every die it lays out, and,
    /// where it asks its dice in turn, each next stage until it has its outcome. The faces in
    /// order, as they would be entered; none for an action without dice or whose dice it cannot
    /// lay out.
    pub fn throw(
        &self,
        action: &str,
        situation: &serde_json::Value,
        roll: &mut dyn FnMut(u32) -> u32,
    ) -> Result<Vec<u32>, RefereeError> {
        let mut faces: Vec<u32> = Vec::new();
        // A chain asks at least one more die per stage; this bounds a system that never ends.
        for _ in 0..256 {
            let r = self.resolve(action, situation, (!faces.is_empty()).then_some(&faces))?;
            let done = !faces.is_empty() && (r.outcome.is_some() || !r.shown.in_turn);
            if done || r.shown.faces.len() <= faces.len() {
                return Ok(faces);
            }
            for die in &r.shown.faces[faces.len()..] {
                faces.push(roll(die.sides));
            }
        }
        Err(RefereeError::new(
            ErrorCode::DiceEnterByHand,
            "this throw asks for more dice than the app will roll: enter the faces",
        )
        .field("dice"))
    }

    /// "The bound is missing." said with the choices the schema gives it: "…: a or b."
    fn with_choices(&self, action: &str, e: RefereeError) -> RefereeError {
        let missing =
            e.code == ErrorCode::SituationInvalidField && e.message.ends_with(" is missing.");
        let choices = match (&e.field, self.system.situation_schema(action)) {
            (Some(path), Some(schema)) if missing => crate::rule_system::resolve::choices_at(
                &serde_json::to_value(&schema).ok().unwrap_or_default(),
                path,
            ),
            _ => None,
        };
        match choices {
            Some(list) => {
                let words: Vec<String> = list.iter().map(|c| crate::error::words(c)).collect();
                let message = format!(
                    "{}: choose {}.",
                    e.message.trim_end_matches('.'),
                    crate::error::or_list(&words)
                );
                RefereeError { message, ..e }
            }
            None => e,
        }
    }

    pub fn situation_schema(&self, action: &str) -> Result<schemars::Schema, RefereeError> {
        self.system.situation_schema(action).ok_or_else(|| {
            crate::rule_system::resolve::unknown_action(&self.info.id, action, &self.info.actions)
        })
    }

    /// The loaded data of system S, when this ruleset is of that system.
    pub fn data<S: RuleSystem>(&self) -> Option<&S::Data> {
        self.system
            .as_any()
            .downcast_ref::<Loaded<S>>()
            .map(|l| &l.data)
    }

    /// The roster unit form of the ruleset.
    pub fn unit_form(&self) -> UnitForm {
        UnitForm {
            ruleset: self.info.id.clone(),
            fields: self.system.unit_form(),
            leader_fields: self.system.leader_form(),
            place_field: self.system.place_field().map(str::to_string),
        }
    }

    /// A unit the umpire adds or corrects (not one read back from a battle): what the form
    /// requires and the system asks at entry is there. `field` is where the unit was given
    /// (`unit`); errors name `{field}.stats.{key}`.
    pub fn check_new_unit(&self, spec: &UnitSpec, field: &str) -> Result<(), RefereeError> {
        self.check_entered(spec, None, field)
    }

    /// `check_new_unit` for a correction of `before` (the entry corrected): what it already
    /// lacked is not asked now.
    fn check_entered(
        &self,
        spec: &UnitSpec,
        before: Option<&serde_json::Value>,
        field: &str,
    ) -> Result<(), RefereeError> {
        let form = self.unit_form();
        if spec.role == Role::Leader {
            return form::check_numbers(&form.leader_fields, &spec.stats)
                .map_err(|e| in_stats(e, field));
        }
        if spec.role != Role::Unit {
            return Ok(());
        }
        // The numbers against the form's bounds first, in the words the app says them beside the
        // field; then the system's own check: a type it does not know says so before the fields
        // that type would have filled are asked.
        form::check_numbers(&form.fields, &spec.stats)
            .and_then(|()| {
                self.system
                    .check_entry(&spec.stats)
                    .map_err(|e| form::plain(&form, e))
            })
            .and_then(|()| form::check_required(&form, &spec.stats, before))
            .map_err(|e| in_stats(e, field))
    }

    /// A unit against the battle's other units only (a DBMM command's one general), as a battle
    /// begun with its units checks each: errors name `{field}.stats.{key}`.
    pub fn check_among(
        &self,
        state: &BattleState,
        spec: &UnitSpec,
        editing: Option<crate::state::UnitId>,
        field: &str,
    ) -> Result<(), RefereeError> {
        self.system
            .check_among(state, spec, editing)
            .map_err(|e| in_stats(e, field))
    }

    /// A unit the umpire adds to or corrects in a battle, against the battle's other units
    /// (`editing`: the unit corrected); errors name `{field}.stats.{key}`.
    pub fn check_in_battle(
        &self,
        state: &BattleState,
        spec: &UnitSpec,
        editing: Option<crate::state::UnitId>,
        field: &str,
    ) -> Result<(), RefereeError> {
        let before = editing
            .and_then(|id| state.units.get(&id))
            .and_then(|u| u.detail.entry());
        self.check_entered(spec, before.as_ref(), field)?;
        self.check_among(state, spec, editing, field)
    }

    /// A unit's values from the tables, or what is wrong with its stats.
    pub fn unit_preview(&self, stats: &serde_json::Value) -> Result<UnitPreview, RefereeError> {
        let form = self.unit_form();
        form::check_stats(&form, self.system.other_keys(), stats)?;
        self.system
            .check_entry(stats)
            .and_then(|()| self.system.unit_preview(stats))
            .map_err(|e| form::plain(&form, e))
    }

    /// The battle's state with every unit in the rules' words, as the app shows it. A row
    /// offers its move only while the turn's limits allow one (a unit moves once a turn).
    pub fn worded(&self, state: &BattleState) -> BattleState {
        let moves: Vec<&str> = self
            .info
            .actions
            .iter()
            .filter(|a| a.moves)
            .map(|a| a.id.as_str())
            .collect();
        let mut shown = state.clone();
        for (id, unit) in &mut shown.units {
            unit.words = self.system.words(unit);
            let moved = || {
                moves
                    .iter()
                    .any(|m| self.system.turn_limits(state, m, &[*id], &[]).is_err())
            };
            if unit.words.opens_move.is_some() && moved() {
                unit.words.opens_move = None;
            }
        }
        shown
    }

    /// A roster template's rows: `label` and the form's field keys, with two example rows.
    pub fn roster_template_rows(&self) -> Vec<Vec<String>> {
        form::roster_template_rows(&self.unit_form())
    }
}

/// The JSON schema of a system's ruleset file.
pub fn ruleset_schema(id: &str) -> Result<schemars::Schema, RefereeError> {
    BUILTIN
        .iter()
        .find(|b| b.id == id)
        .map(|b| (b.schema)())
        .ok_or_else(|| unknown_system(id))
}

/// The JSON schema of a system's companion file, with the file's name, if it has one.
pub fn companion_schema(
    id: &str,
) -> Result<Option<(&'static str, schemars::Schema)>, RefereeError> {
    let b = BUILTIN
        .iter()
        .find(|b| b.id == id)
        .ok_or_else(|| unknown_system(id))?;
    Ok(b.companion
        .zip((b.companion_schema)())
        .map(|(c, s)| (c.name, s)))
}

fn unknown_system(id: &str) -> RefereeError {
    let known = BUILTIN.iter().map(|b| b.id).collect::<Vec<_>>().join(", ");
    RefereeError::new(
        ErrorCode::RulesetUnknownSystem,
        format!("no rule system “{id}”; known: {known}"),
    )
}

/// A unit check's error at the stats key it names, under where the unit was given:
/// `unit.stats.class`.
fn in_stats(e: RefereeError, field: &str) -> RefereeError {
    let key = e.field.clone().unwrap_or_default();
    e.field(format!("{field}.stats.{key}"))
}
