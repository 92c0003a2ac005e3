//! The Tauri shell: each command is a one-line adapter over `referee_api`, which the CLI shares.

use referee_api::{
    DiceRoll, Referee, RefereeError, Resolution, ResolveRequest, RollRequest, RulesetList,
};
use tauri::{Manager, State};

#[tauri::command]
fn rulesets(referee: State<Referee>) -> RulesetList {
    referee.rulesets()
}

#[tauri::command]
fn resolve(referee: State<Referee>, request: ResolveRequest) -> Result<Resolution, RefereeError> {
    referee.resolve(&request)
}

#[tauri::command]
fn roll_dice(request: RollRequest) -> Result<DiceRoll, RefereeError> {
    referee_api::roll(&request)
}

#[cfg_attr(mobile, tauri::mobile_entry_point)]
pub fn run() {
    tauri::Builder::default()
        .setup(|app| {
            // House rules and user rulesets live in the app's data folder, `rulesets/`.
            let referee = match app.path().app_data_dir() {
                Ok(dir) => Referee::with_user_folder(&dir.join("rulesets")),
                Err(_) => Referee::builtin(),
            };
            app.manage(referee);
            Ok(())
        })
        .invoke_handler(tauri::generate_handler![rulesets, resolve, roll_dice])
        .run(tauri::generate_context!())
        .expect("error while running the referee app");
}
