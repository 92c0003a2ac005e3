//! The Tauri shell: each command is a one-line adapter over `referee_api`, which the CLI shares.
//! Commands are async and do their work on a blocking thread, so a long one (a large import, a
//! restore) never holds the window's main thread.

pub mod display;

use std::path::PathBuf;
use std::sync::{Arc, Mutex, RwLock};

use referee_api::{
    AdjustRequest, ApplyRequest, Backups, BattleRow, BattleView, Battles, Chance, DeletedBattle,
    DiceRoll, ErrorCode, EventDocument, EventRow, EventView, Fight, FightRequest, HandResult,
    HouseRuleChoice, NewBattle, NewEvent, OutlookRequest, Player, PresetList, Referee,
    RefereeError, Resolution, ResolveRequest, RollEditPreview, RuleSection, RulesetList, Scoring,
    SharedDocument, UnitForm, UnitPreview, UnitSpec,
};
use tauri::{Manager, State};
use tauri_plugin_dialog::DialogExt;
use tauri_plugin_store::StoreExt;

/// The battles database, or why it could not be opened (damaged, from a newer app): the app
/// still starts, resolves, and shows that error wherever battles are asked for — except the
/// backups, which are listed and restored from the database's path alone.
struct Database {
    path: Option<PathBuf>,
    battles: Arc<Mutex<Result<Battles, RefereeError>>>,
}

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

    fn replace(&self, referee: Arc<Referee>) -> RulesetList {
        *self.referee.write().unwrap_or_else(|e| e.into_inner()) = Arc::clone(&referee);
        referee.rulesets()
    }
}

/// Runs `f` on a blocking thread, off the window's main thread.
async fn off_main<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, RefereeError> + Send + 'static,
) -> Result<T, RefereeError> {
    tauri::async_runtime::spawn_blocking(f)
        .await
        .unwrap_or_else(|_| {
            Err(RefereeError::new(
                ErrorCode::AppFailed,
                "the referee stopped midway: open the battle again to see what was kept, then try again",
            ))
        })
}

/// Runs `f` with the rulesets in force, off the main thread.
async fn with_rules<T: Send + 'static>(
    rules: &Rules,
    f: impl FnOnce(&Referee) -> Result<T, RefereeError> + Send + 'static,
) -> Result<T, RefereeError> {
    let referee = rules.now();
    off_main(move || f(&referee)).await
}

/// Runs `f` on the battles database with the rulesets in force, off the main thread.
async fn with_db<T: Send + 'static>(
    db: &Database,
    rules: &Rules,
    f: impl FnOnce(&mut Battles, &Referee) -> Result<T, RefereeError> + Send + 'static,
) -> Result<T, RefereeError> {
    let referee = rules.now();
    with_store(db, move |opened, _| match opened.as_mut() {
        Ok(battles) => f(battles, &referee),
        Err(e) => Err(e.clone()),
    })
    .await
}

/// Runs `f` on the database as it is — opened, or why it could not be — and its path, off the
/// main thread.
async fn with_store<T: Send + 'static>(
    db: &Database,
    f: impl FnOnce(
            &mut Result<Battles, RefereeError>,
            Option<&std::path::Path>,
        ) -> Result<T, RefereeError>
        + Send
        + 'static,
) -> Result<T, RefereeError> {
    let battles = Arc::clone(&db.battles);
    let path = db.path.clone();
    off_main(move || {
        let mut guard = battles.lock().map_err(|_| {
            RefereeError::new(
                ErrorCode::StoreFailed,
                "an earlier database operation failed midway: restart the app",
            )
        })?;
        f(&mut guard, path.as_deref())
    })
    .await
}

/// The preferences file, in the app's data folder: the only store the app opens. The window has
/// no grant on the store plugin; it reads and writes this one value through the two commands.
const PREFERENCES_FILE: &str = "settings.json";
const PREFERENCES_KEY: &str = "settings";

/// The preferences store, opened for one load or save and closed after it: the plugin keeps no
/// copy of it, so neither its auto-save nor its save at exit ever writes the file with a plain
/// write that a crash could cut short.
fn preferences_store(
    app: &tauri::AppHandle,
) -> Result<std::sync::Arc<tauri_plugin_store::Store<tauri::Wry>>, RefereeError> {
    app.store_builder(PREFERENCES_FILE)
        .disable_auto_save()
        .build()
        .map_err(preferences_error)
}

#[tauri::command]
async fn preferences_load(app: tauri::AppHandle) -> Result<serde_json::Value, RefereeError> {
    let store = preferences_store(&app)?;
    let settings = store
        .get(PREFERENCES_KEY)
        .unwrap_or(serde_json::Value::Null);
    store.close_resource();
    Ok(settings)
}

/// The store's entries written all or nothing (temporary file, sync, rename): a crash or a full
/// disk leaves the preferences as they were.
#[tauri::command]
async fn preferences_save(
    app: tauri::AppHandle,
    settings: serde_json::Value,
) -> Result<(), RefereeError> {
    referee_api::check_preferences(&settings)?;
    let path = tauri_plugin_store::resolve_store_path(&app, PREFERENCES_FILE)
        .map_err(preferences_error)?;
    let store = preferences_store(&app)?;
    store.set(PREFERENCES_KEY, settings);
    let entries: serde_json::Map<String, serde_json::Value> = store.entries().into_iter().collect();
    store.close_resource();
    referee_api::write_preferences(&path, &entries).map_err(|e| {
        RefereeError::new(
            ErrorCode::PreferencesUnwritable,
            "the preferences could not be kept: they apply until the app closes",
        )
        .location(e.location.unwrap_or_default())
    })
}

fn preferences_error(e: tauri_plugin_store::Error) -> RefereeError {
    RefereeError::new(
        ErrorCode::PreferencesUnwritable,
        format!("the preferences could not be kept ({e}): they apply until the app closes"),
    )
}

#[tauri::command]
async fn rulesets_choose(
    rules: State<'_, Rules>,
    choice: HouseRuleChoice,
) -> Result<RulesetList, RefereeError> {
    let folder = rules.folder.clone();
    let referee = off_main(move || Ok(Referee::choosing(folder.as_deref(), &choice))).await?;
    Ok(rules.replace(Arc::new(referee)))
}

#[tauri::command]
async fn presets_list(rules: State<'_, Rules>) -> Result<PresetList, RefereeError> {
    with_rules(&rules, |r| Ok(r.presets())).await
}

#[tauri::command]
async fn resolve(
    rules: State<'_, Rules>,
    request: ResolveRequest,
) -> Result<Resolution, RefereeError> {
    with_rules(&rules, move |r| r.resolve(&request)).await
}

#[tauri::command]
async fn resolve_flips(
    rules: State<'_, Rules>,
    request: referee_api::FlipsRequest,
) -> Result<Vec<referee_api::Flipped>, RefereeError> {
    with_rules(&rules, move |r| r.flips(&request)).await
}

#[tauri::command]
async fn situation_schema(
    rules: State<'_, Rules>,
    ruleset: String,
    action: String,
) -> Result<serde_json::Value, RefereeError> {
    with_rules(&rules, move |r| r.situation_schema(&ruleset, &action)).await
}

#[tauri::command]
async fn rule_section(
    rules: State<'_, Rules>,
    ruleset: String,
    section: String,
) -> Result<RuleSection, RefereeError> {
    with_rules(&rules, move |r| r.rule_section(&ruleset, &section)).await
}

#[tauri::command]
async fn throw_dice(
    rules: State<'_, Rules>,
    request: ResolveRequest,
    seed: Option<u32>,
) -> Result<DiceRoll, RefereeError> {
    with_rules(&rules, move |r| r.throw(&request, seed)).await
}

#[tauri::command]
async fn battles_list(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
) -> Result<Vec<BattleRow>, RefereeError> {
    with_db(&db, &rules, |b, _| b.list()).await
}

#[tauri::command]
async fn battles_deleted(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
) -> Result<Vec<DeletedBattle>, RefereeError> {
    with_db(&db, &rules, |b, _| b.deleted()).await
}

#[tauri::command]
async fn battle_create(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    request: serde_json::Value,
) -> Result<BattleView, RefereeError> {
    // Read here, not by the window's IPC: a value it refuses is a sentence naming the field.
    let request: NewBattle = referee_api::parse_request(request, "")?;
    with_db(&db, &rules, move |b, r| b.create(r, &request)).await
}

#[tauri::command]
async fn battle_view(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    battle: i64,
) -> Result<BattleView, RefereeError> {
    with_db(&db, &rules, move |b, r| b.view(r, battle)).await
}

#[tauri::command]
async fn battle_add_unit(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    battle: i64,
    unit: UnitSpec,
) -> Result<BattleView, RefereeError> {
    with_db(&db, &rules, move |b, r| b.add_unit(r, battle, unit)).await
}

#[tauri::command]
async fn battle_edit_unit(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    battle: i64,
    unit: u32,
    spec: UnitSpec,
) -> Result<BattleView, RefereeError> {
    with_db(&db, &rules, move |b, r| b.edit_unit(r, battle, unit, spec)).await
}

#[tauri::command]
async fn battle_remove_unit(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    battle: i64,
    unit: u32,
) -> Result<BattleView, RefereeError> {
    with_db(&db, &rules, move |b, r| b.remove_unit(r, battle, unit)).await
}

#[tauri::command]
async fn unit_form(rules: State<'_, Rules>, ruleset: String) -> Result<UnitForm, RefereeError> {
    with_rules(&rules, move |r| r.unit_form(&ruleset)).await
}

#[tauri::command]
async fn unit_preview(
    rules: State<'_, Rules>,
    ruleset: String,
    stats: serde_json::Value,
) -> Result<UnitPreview, RefereeError> {
    with_rules(&rules, move |r| r.unit_preview(&ruleset, &stats)).await
}

#[tauri::command]
async fn roster_csv_template(
    rules: State<'_, Rules>,
    ruleset: String,
) -> Result<String, RefereeError> {
    with_rules(&rules, move |r| r.roster_csv_template(&ruleset)).await
}

#[tauri::command]
async fn battle_apply(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    battle: i64,
    request: ApplyRequest,
) -> Result<BattleView, RefereeError> {
    with_db(&db, &rules, move |b, r| b.apply(r, battle, &request)).await
}

#[tauri::command]
async fn battle_outlook(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    battle: i64,
    request: OutlookRequest,
) -> Result<Vec<Chance>, RefereeError> {
    with_db(&db, &rules, move |b, r| b.outlook(r, battle, &request)).await
}

#[tauri::command]
async fn battle_fight(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    battle: i64,
    request: FightRequest,
) -> Result<Fight, RefereeError> {
    with_db(&db, &rules, move |b, r| b.fight(r, battle, &request)).await
}

#[tauri::command]
async fn battle_adjust(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    battle: i64,
    request: AdjustRequest,
) -> Result<BattleView, RefereeError> {
    with_db(&db, &rules, move |b, r| b.adjust(r, battle, &request)).await
}

#[tauri::command]
async fn battle_turn(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    battle: i64,
    turn: Option<u32>,
    phase: Option<String>,
) -> Result<BattleView, RefereeError> {
    with_db(&db, &rules, move |b, r| {
        b.advance_turn(r, battle, turn, phase)
    })
    .await
}

#[tauri::command]
async fn battle_undo(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    battle: i64,
) -> Result<BattleView, RefereeError> {
    with_db(&db, &rules, move |b, r| b.undo(r, battle)).await
}

#[tauri::command]
async fn battle_undo_to(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    battle: i64,
    event: u64,
) -> Result<BattleView, RefereeError> {
    with_db(&db, &rules, move |b, r| b.undo_to(r, battle, event)).await
}

#[tauri::command]
async fn battle_redo(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    battle: i64,
) -> Result<BattleView, RefereeError> {
    with_db(&db, &rules, move |b, r| b.redo(r, battle)).await
}

#[tauri::command]
async fn battle_edit_roll(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    battle: i64,
    event: u64,
    dice: serde_json::Value,
    preview: bool,
) -> Result<(RollEditPreview, Option<BattleView>), RefereeError> {
    let dice: Vec<u32> = referee_api::parse_request(dice, "dice")?;
    with_db(&db, &rules, move |b, r| {
        b.edit_roll(r, battle, event, dice, preview)
    })
    .await
}

/// The report or the text log saved where the umpire chooses: the system's save dialog (the
/// dialog plugin, driven from here — the window has no grant on it), then an all-or-nothing
/// write. Answers where it went in words, or nothing when the umpire cancelled.
#[tauri::command]
async fn battle_save(
    app: tauri::AppHandle,
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    battle: i64,
    document: SharedDocument,
) -> Result<Option<String>, RefereeError> {
    let (name, text) = with_db(&db, &rules, move |b, r| b.shared(r, battle, document)).await?;
    let filter = (document.kind_words(), document.extension());
    let saved = save_through_dialog(app, "Save the battle", name, filter, text).await?;
    Ok(saved.map(|path| referee_api::saved_words(document, &path)))
}

/// The system's save dialog (the dialog plugin, driven from here — the window has no grant on
/// it) offering `name`, then an all-or-nothing write of `text`: where it went, or nothing when
/// the umpire cancelled.
async fn save_through_dialog(
    app: tauri::AppHandle,
    title: &'static str,
    name: String,
    (kind, extension): (&'static str, &'static str),
    text: String,
) -> Result<Option<std::path::PathBuf>, RefereeError> {
    off_main(move || {
        let mut dialog = app
            .dialog()
            .file()
            .set_title(title)
            .set_file_name(name)
            .add_filter(kind, &[extension]);
        if let Some(window) = app.get_webview_window("main") {
            dialog = dialog.set_parent(&window);
        }
        let Some(chosen) = dialog.blocking_save_file() else {
            return Ok(None);
        };
        let path = chosen.into_path().map_err(|_| {
            RefereeError::new(
                ErrorCode::FileUnwritable,
                "the place chosen is not a folder the referee can write to: choose a folder on this device",
            )
        })?;
        referee_api::write_atomically(&path, text.as_bytes())?;
        Ok(Some(path))
    })
    .await
}

/// The convention events.
#[tauri::command]
async fn event_list(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
) -> Result<Vec<EventRow>, RefereeError> {
    with_db(&db, &rules, move |b, r| b.event_list(r)).await
}

#[tauri::command]
async fn event_create(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    request: serde_json::Value,
) -> Result<EventView, RefereeError> {
    let request: NewEvent = referee_api::parse_request(request, "")?;
    with_db(&db, &rules, move |b, r| b.event_create(r, &request)).await
}

#[tauri::command]
async fn event_view(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    event: i64,
) -> Result<EventView, RefereeError> {
    with_db(&db, &rules, move |b, r| b.event_view(r, event)).await
}

#[tauri::command]
async fn event_player_add(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    event: i64,
    request: serde_json::Value,
) -> Result<EventView, RefereeError> {
    let request: Player = referee_api::parse_request(request, "")?;
    with_db(&db, &rules, move |b, r| {
        b.event_player_add(r, event, &request)
    })
    .await
}

#[tauri::command]
async fn event_player_withdraw(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    event: i64,
    player: String,
) -> Result<EventView, RefereeError> {
    with_db(&db, &rules, move |b, r| {
        b.event_player_withdraw(r, event, &player)
    })
    .await
}

#[tauri::command]
async fn event_pair(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    event: i64,
    round: u32,
) -> Result<EventView, RefereeError> {
    with_db(&db, &rules, move |b, r| b.event_pair(r, event, round)).await
}

#[tauri::command]
async fn event_swap(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    event: i64,
    round: u32,
    a: String,
    b: String,
) -> Result<EventView, RefereeError> {
    with_db(&db, &rules, move |bs, r| {
        bs.event_swap(r, event, round, &a, &b)
    })
    .await
}

#[tauri::command]
async fn event_begin_battle(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    event: i64,
    round: u32,
    table: u32,
    ruleset: Option<String>,
) -> Result<BattleView, RefereeError> {
    with_db(&db, &rules, move |b, r| {
        b.event_begin_battle(r, event, round, table, ruleset.as_deref())
    })
    .await
}

#[tauri::command]
async fn event_result_from_battle(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    event: i64,
    round: u32,
    table: u32,
) -> Result<EventView, RefereeError> {
    with_db(&db, &rules, move |b, r| {
        b.event_result_from_battle(r, event, round, table)
    })
    .await
}

/// A battle file's text, read by the window from a file the user chose.
#[tauri::command]
async fn event_result_import(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    event: i64,
    round: u32,
    table: u32,
    text: String,
) -> Result<EventView, RefereeError> {
    with_db(&db, &rules, move |b, r| {
        b.event_result_import(r, event, round, table, &text)
    })
    .await
}

#[tauri::command]
async fn event_result_by_hand(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    event: i64,
    round: u32,
    table: u32,
    request: serde_json::Value,
) -> Result<EventView, RefereeError> {
    let request: HandResult = referee_api::parse_request(request, "")?;
    with_db(&db, &rules, move |b, r| {
        b.event_result_by_hand(r, event, round, table, &request)
    })
    .await
}

#[tauri::command]
async fn event_undo(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    event: i64,
) -> Result<EventView, RefereeError> {
    with_db(&db, &rules, move |b, r| b.event_undo(r, event)).await
}

#[tauri::command]
async fn event_redo(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    event: i64,
) -> Result<EventView, RefereeError> {
    with_db(&db, &rules, move |b, r| b.event_redo(r, event)).await
}

#[tauri::command]
async fn event_scorings(rules: State<'_, Rules>) -> Result<Vec<Scoring>, RefereeError> {
    with_rules(&rules, move |r| Ok(r.scorings())).await
}

/// The event's standings saved through the system's save dialog, as `battle_save` does.
#[tauri::command]
async fn event_save(
    app: tauri::AppHandle,
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    event: i64,
    document: EventDocument,
) -> Result<Option<String>, RefereeError> {
    let (name, text) = with_db(&db, &rules, move |b, r| b.event_shared(r, event, document)).await?;
    let filter = (document.kind_words(), document.extension());
    let title = "Save the event's standings";
    let saved = save_through_dialog(app, title, name, filter, text).await?;
    Ok(saved.map(|path| document.saved_words(&path)))
}

/// The battle's plain-text log, to copy or share.
#[tauri::command]
async fn battle_log_text(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    battle: i64,
) -> Result<String, RefereeError> {
    with_db(&db, &rules, move |b, r| b.text_log(r, battle)).await
}

/// The battle file as text: the window saves it where the user chooses (no file access here).
#[tauri::command]
async fn battle_export(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    battle: i64,
) -> Result<String, RefereeError> {
    with_db(&db, &rules, move |b, r| b.export_text(r, battle)).await
}

/// A battle file's text, read by the window from a file the user chose.
#[tauri::command]
async fn battle_import(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    text: String,
) -> Result<BattleView, RefereeError> {
    with_db(&db, &rules, move |b, r| b.import(r, &text)).await
}

#[tauri::command]
async fn battle_duplicate(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    battle: i64,
) -> Result<BattleView, RefereeError> {
    with_db(&db, &rules, move |b, r| b.duplicate(r, battle)).await
}

#[tauri::command]
async fn battle_delete(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    battle: i64,
) -> Result<(), RefereeError> {
    with_db(&db, &rules, move |b, _| b.delete(battle)).await
}

#[tauri::command]
async fn battle_restore(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    battle: i64,
) -> Result<BattleView, RefereeError> {
    with_db(&db, &rules, move |b, r| b.restore(r, battle)).await
}

#[tauri::command]
async fn roster_import_csv(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    name: String,
    ruleset: String,
    text: String,
) -> Result<i64, RefereeError> {
    with_db(&db, &rules, move |b, r| {
        b.save_roster(r, &referee_api::roster_from_csv(&name, &ruleset, &text)?)
    })
    .await
}

#[tauri::command]
async fn roster_copy(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
    roster: i64,
    battle: i64,
    side: String,
) -> Result<BattleView, RefereeError> {
    with_db(&db, &rules, move |b, r| {
        b.copy_roster(r, battle, roster, &side)
    })
    .await
}

/// A backup now; answers the list (the window never sees a file's path).
#[tauri::command]
async fn db_backup(
    db: State<'_, Database>,
    rules: State<'_, Rules>,
) -> Result<Backups, RefereeError> {
    with_db(&db, &rules, |b, _| {
        b.backup()?;
        Ok(b.backups())
    })
    .await
}

/// The backups, even when the database cannot be opened (damaged).
#[tauri::command]
async fn backups_list(db: State<'_, Database>) -> Result<Backups, RefereeError> {
    with_store(&db, |opened, path| match (opened, path) {
        (Ok(b), _) => Ok(b.backups()),
        (Err(_), Some(path)) => Ok(referee_api::backups_at(path)),
        (Err(e), None) => Err(e.clone()),
    })
    .await
}

/// A listed backup put in the database's place; over a damaged database, it is opened anew.
#[tauri::command]
async fn backup_restore(db: State<'_, Database>, backup: String) -> Result<Backups, RefereeError> {
    with_store(&db, move |opened, path| match (opened.as_mut(), path) {
        (Ok(b), _) => b.restore_backup(&backup),
        (Err(_), Some(path)) => {
            let battles = referee_api::restore_over_damaged(path, &backup)?;
            let list = battles.backups();
            *opened = Ok(battles);
            Ok(list)
        }
        (Err(e), None) => Err(e.clone()),
    })
    .await
}

#[cfg_attr(mobile, tauri::mobile_entry_point)]
pub fn run() {
    tauri::Builder::default()
        .plugin(tauri_plugin_store::Builder::new().build())
        // Only `battle_save` opens it, from Rust: the window has no grant on the plugin.
        .plugin(tauri_plugin_dialog::init())
        .setup(|app| {
            // House rules and user rulesets live in the app's data folder, `rulesets/`, a club's
            // presets in its `presets/`; the battles database beside them.
            let dir = app.path().app_data_dir();
            let folder = dir.as_ref().ok().map(|dir| dir.join("rulesets"));
            let referee = Referee::choosing(folder.as_deref(), &HouseRuleChoice::default());
            let path = dir.as_ref().ok().map(|dir| dir.join("referee.db"));
            let battles = match (&path, &dir) {
                (Some(path), _) => Battles::open(path),
                (None, Err(e)) => Err(RefereeError::new(
                    ErrorCode::StoreUnwritable,
                    format!("the app has no data folder: {e}"),
                )),
                (None, Ok(_)) => Err(RefereeError::new(
                    ErrorCode::StoreUnwritable,
                    "the app has no data folder",
                )),
            };
            app.manage(Rules {
                folder,
                referee: RwLock::new(Arc::new(referee)),
            });
            app.manage(Database {
                path,
                battles: Arc::new(Mutex::new(battles)),
            });
            Ok(())
        })
        .invoke_handler(tauri::generate_handler![
            preferences_load,
            preferences_save,
            rulesets_choose,
            presets_list,
            resolve,
            resolve_flips,
            throw_dice,
            situation_schema,
            rule_section,
            battles_list,
            battles_deleted,
            battle_create,
            battle_view,
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
            battle_undo_to,
            battle_redo,
            battle_edit_roll,
            battle_export,
            battle_log_text,
            battle_save,
            battle_import,
            battle_duplicate,
            battle_delete,
            battle_restore,
            roster_import_csv,
            roster_csv_template,
            roster_copy,
            db_backup,
            backups_list,
            backup_restore,
            event_list,
            event_create,
            event_view,
            event_player_add,
            event_player_withdraw,
            event_pair,
            event_swap,
            event_begin_battle,
            event_result_from_battle,
            event_result_import,
            event_result_by_hand,
            event_undo,
            event_redo,
            event_scorings,
            event_save
        ])
        .run(tauri::generate_context!())
        .expect("error while running the referee app");
}
