//! The Tauri shell: each command is a one-line adapter over `referee_api`, which the CLI shares.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, RwLock};

use referee_api::{
    AdjustRequest, ApplyRequest, BattleRow, BattleView, Battles, Chance, DiceRoll, Fight,
    FightRequest, HouseRuleChoice, LogEntry, NewBattle, OutlookRequest, PresetList, Referee,
    RefereeError, Resolution, ResolveRequest, RollEditPreview, RollRequest, Roster, RosterRow,
    RuleSection, RulesetList, UnitForm, UnitPreview, UnitSpec,
};
use tauri::{Manager, State};

/// The battles database, or why it could not be opened (damaged, from a newer app): the app
/// still starts, resolves, and shows that error wherever battles are asked for.
struct Database(Mutex<Result<Battles, RefereeError>>);

/// The rulesets in force, rebuilt when the umpire chooses other house rules in Settings.
struct Rules {
    folder: Option<PathBuf>,
    referee: RwLock<Arc<Referee>>,
}

impl Rules {
    fn now(&self) -> Arc<Referee> {
        // A poisoned lock still holds a whole Referee: it is only ever replaced, never edited.
        Arc::clone(&self.referee.read().unwrap_or_else(|e| e.into_inner()))
    }

    fn choose(&self, choice: &HouseRuleChoice) -> RulesetList {
        let referee = Arc::new(Referee::choosing(self.folder.as_deref(), choice));
        *self.referee.write().unwrap_or_else(|e| e.into_inner()) = Arc::clone(&referee);
        referee.rulesets()
    }
}

fn with<T>(
    db: &State<Database>,
    f: impl FnOnce(&mut Battles) -> Result<T, RefereeError>,
) -> Result<T, RefereeError> {
    let mut guard = db.0.lock().map_err(|_| {
        RefereeError::new(
            "store.failed",
            "an earlier database operation failed midway: restart the app",
        )
    })?;
    match guard.as_mut() {
        Ok(battles) => f(battles),
        Err(e) => Err(e.clone()),
    }
}

#[tauri::command]
fn rulesets_choose(rules: State<Rules>, choice: HouseRuleChoice) -> RulesetList {
    rules.choose(&choice)
}

#[tauri::command]
fn presets_list(rules: State<Rules>) -> PresetList {
    rules.now().presets()
}

#[tauri::command]
fn resolve(rules: State<Rules>, request: ResolveRequest) -> Result<Resolution, RefereeError> {
    rules.now().resolve(&request)
}

#[tauri::command]
fn situation_schema(
    rules: State<Rules>,
    ruleset: String,
    action: String,
) -> Result<serde_json::Value, RefereeError> {
    rules.now().situation_schema(&ruleset, &action)
}

#[tauri::command]
fn rule_section(
    rules: State<Rules>,
    ruleset: String,
    section: String,
) -> Result<RuleSection, RefereeError> {
    rules.now().rule_section(&ruleset, &section)
}

#[tauri::command]
fn roll_dice(request: RollRequest) -> Result<DiceRoll, RefereeError> {
    referee_api::roll(&request)
}

#[tauri::command]
fn battles_list(db: State<Database>) -> Result<Vec<BattleRow>, RefereeError> {
    with(&db, |b| b.list())
}

#[tauri::command]
fn battle_create(
    db: State<Database>,
    rules: State<Rules>,
    request: NewBattle,
) -> Result<BattleView, RefereeError> {
    with(&db, |b| b.create(&rules.now(), &request))
}

#[tauri::command]
fn battle_view(
    db: State<Database>,
    rules: State<Rules>,
    battle: i64,
) -> Result<BattleView, RefereeError> {
    with(&db, |b| b.view(&rules.now(), battle))
}

#[tauri::command]
fn battle_log(
    db: State<Database>,
    rules: State<Rules>,
    battle: i64,
    before: Option<u64>,
    limit: usize,
) -> Result<Vec<LogEntry>, RefereeError> {
    with(&db, |b| b.log(&rules.now(), battle, before, limit))
}

#[tauri::command]
fn battle_add_unit(
    db: State<Database>,
    rules: State<Rules>,
    battle: i64,
    unit: UnitSpec,
) -> Result<BattleView, RefereeError> {
    with(&db, |b| b.add_unit(&rules.now(), battle, unit))
}

#[tauri::command]
fn battle_edit_unit(
    db: State<Database>,
    rules: State<Rules>,
    battle: i64,
    unit: u32,
    spec: UnitSpec,
) -> Result<BattleView, RefereeError> {
    with(&db, |b| b.edit_unit(&rules.now(), battle, unit, spec))
}

#[tauri::command]
fn battle_remove_unit(
    db: State<Database>,
    rules: State<Rules>,
    battle: i64,
    unit: u32,
) -> Result<BattleView, RefereeError> {
    with(&db, |b| b.remove_unit(&rules.now(), battle, unit))
}

#[tauri::command]
fn unit_form(rules: State<Rules>, ruleset: String) -> Result<UnitForm, RefereeError> {
    rules.now().unit_form(&ruleset)
}

#[tauri::command]
fn unit_preview(
    rules: State<Rules>,
    ruleset: String,
    stats: serde_json::Value,
) -> Result<UnitPreview, RefereeError> {
    rules.now().unit_preview(&ruleset, &stats)
}

#[tauri::command]
fn roster_csv_template(rules: State<Rules>, ruleset: String) -> Result<String, RefereeError> {
    rules.now().roster_csv_template(&ruleset)
}

#[tauri::command]
fn battle_apply(
    db: State<Database>,
    rules: State<Rules>,
    battle: i64,
    request: ApplyRequest,
) -> Result<BattleView, RefereeError> {
    with(&db, |b| b.apply(&rules.now(), battle, &request))
}

#[tauri::command]
fn battle_outlook(
    db: State<Database>,
    rules: State<Rules>,
    battle: i64,
    request: OutlookRequest,
) -> Result<Vec<Chance>, RefereeError> {
    with(&db, |b| b.outlook(&rules.now(), battle, &request))
}

#[tauri::command]
fn battle_fight(
    db: State<Database>,
    rules: State<Rules>,
    battle: i64,
    request: FightRequest,
) -> Result<Fight, RefereeError> {
    with(&db, |b| b.fight(&rules.now(), battle, &request))
}

#[tauri::command]
fn battle_adjust(
    db: State<Database>,
    rules: State<Rules>,
    battle: i64,
    request: AdjustRequest,
) -> Result<BattleView, RefereeError> {
    with(&db, |b| b.adjust(&rules.now(), battle, &request))
}

#[tauri::command]
fn battle_turn(
    db: State<Database>,
    rules: State<Rules>,
    battle: i64,
    turn: Option<u32>,
    phase: Option<String>,
) -> Result<BattleView, RefereeError> {
    with(&db, |b| b.advance_turn(&rules.now(), battle, turn, phase))
}

#[tauri::command]
fn battle_undo(
    db: State<Database>,
    rules: State<Rules>,
    battle: i64,
) -> Result<BattleView, RefereeError> {
    with(&db, |b| b.undo(&rules.now(), battle))
}

#[tauri::command]
fn battle_redo(
    db: State<Database>,
    rules: State<Rules>,
    battle: i64,
) -> Result<BattleView, RefereeError> {
    with(&db, |b| b.redo(&rules.now(), battle))
}

#[tauri::command]
fn battle_edit_roll(
    db: State<Database>,
    rules: State<Rules>,
    battle: i64,
    event: u64,
    dice: Vec<u32>,
    preview: bool,
) -> Result<(RollEditPreview, Option<BattleView>), RefereeError> {
    with(&db, |b| {
        b.edit_roll(&rules.now(), battle, event, dice, preview)
    })
}

/// The printable battle report (one self-contained HTML file) as text: the window saves or
/// prints it.
#[tauri::command]
fn battle_report(
    db: State<Database>,
    rules: State<Rules>,
    battle: i64,
) -> Result<String, RefereeError> {
    with(&db, |b| b.report(&rules.now(), battle))
}

/// The battle's plain-text log, to copy or share.
#[tauri::command]
fn battle_log_text(
    db: State<Database>,
    rules: State<Rules>,
    battle: i64,
) -> Result<String, RefereeError> {
    with(&db, |b| b.text_log(&rules.now(), battle))
}

/// The battle file as text: the window saves it where the user chooses (no file access here).
#[tauri::command]
fn battle_export(
    db: State<Database>,
    rules: State<Rules>,
    battle: i64,
) -> Result<String, RefereeError> {
    with(&db, |b| {
        b.export(&rules.now(), battle)
            .map(|f| serde_json::to_string_pretty(&f).unwrap_or_default())
    })
}

/// A battle file's text, read by the window from a file the user chose.
#[tauri::command]
fn battle_import(
    db: State<Database>,
    rules: State<Rules>,
    text: String,
) -> Result<BattleView, RefereeError> {
    with(&db, |b| b.import(&rules.now(), &text))
}

#[tauri::command]
fn battle_duplicate(
    db: State<Database>,
    rules: State<Rules>,
    battle: i64,
) -> Result<BattleView, RefereeError> {
    with(&db, |b| b.duplicate(&rules.now(), battle))
}

#[tauri::command]
fn battle_delete(db: State<Database>, battle: i64) -> Result<(), RefereeError> {
    with(&db, |b| b.delete(battle))
}

#[tauri::command]
fn rosters_list(db: State<Database>) -> Result<Vec<RosterRow>, RefereeError> {
    with(&db, |b| b.rosters())
}

#[tauri::command]
fn roster_save(
    db: State<Database>,
    rules: State<Rules>,
    roster: Roster,
) -> Result<i64, RefereeError> {
    with(&db, |b| b.save_roster(&rules.now(), &roster))
}

#[tauri::command]
fn roster_import_csv(
    db: State<Database>,
    rules: State<Rules>,
    name: String,
    ruleset: String,
    text: String,
) -> Result<i64, RefereeError> {
    with(&db, |b| {
        b.save_roster(
            &rules.now(),
            &referee_api::roster_from_csv(&name, &ruleset, &text)?,
        )
    })
}

#[tauri::command]
fn roster_copy(
    db: State<Database>,
    rules: State<Rules>,
    roster: i64,
    battle: i64,
    side: String,
) -> Result<BattleView, RefereeError> {
    with(&db, |b| b.copy_roster(&rules.now(), battle, roster, &side))
}

#[tauri::command]
fn roster_delete(db: State<Database>, roster: i64) -> Result<(), RefereeError> {
    with(&db, |b| b.delete_roster(roster))
}

#[tauri::command]
fn db_backup(db: State<Database>) -> Result<String, RefereeError> {
    with(&db, |b| b.backup().map(|p| p.display().to_string()))
}

#[cfg_attr(mobile, tauri::mobile_entry_point)]
pub fn run() {
    tauri::Builder::default()
        .plugin(tauri_plugin_store::Builder::new().build())
        .setup(|app| {
            // House rules and user rulesets live in the app's data folder, `rulesets/`, a club's
            // presets in its `presets/`; the battles database beside them.
            let dir = app.path().app_data_dir();
            let folder = dir.as_ref().ok().map(|dir| dir.join("rulesets"));
            let referee = Referee::choosing(folder.as_deref(), &HouseRuleChoice::default());
            let battles = match &dir {
                Ok(dir) => Battles::open(&dir.join("referee.db")),
                Err(e) => Err(RefereeError::new(
                    "store.unwritable",
                    format!("the app has no data folder: {e}"),
                )),
            };
            app.manage(Rules {
                folder,
                referee: RwLock::new(Arc::new(referee)),
            });
            app.manage(Database(Mutex::new(battles)));
            Ok(())
        })
        .invoke_handler(tauri::generate_handler![
            rulesets_choose,
            presets_list,
            resolve,
            roll_dice,
            situation_schema,
            rule_section,
            battles_list,
            battle_create,
            battle_view,
            battle_log,
            battle_add_unit,
            battle_edit_unit,
            battle_remove_unit,
            unit_form,
            unit_preview,
            battle_apply,
            battle_outlook,
            battle_fight,
            battle_adjust,
            battle_turn,
            battle_undo,
            battle_redo,
            battle_edit_roll,
            battle_export,
            battle_report,
            battle_log_text,
            battle_import,
            battle_duplicate,
            battle_delete,
            rosters_list,
            roster_save,
            roster_import_csv,
            roster_csv_template,
            roster_copy,
            roster_delete,
            db_backup
        ])
        .run(tauri::generate_context!())
        .expect("error while running the referee app");
}
