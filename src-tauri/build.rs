// The app's own commands are declared here so that each needs an explicit grant in
// capabilities/default.json: nothing is allowed by default.
const COMMANDS: &[&str] = &[
    "preferences_load",
    "preferences_save",
    "rulesets_choose",
    "presets_list",
    "resolve",
    "resolve_flips",
    "throw_dice",
    "situation_schema",
    "rule_section",
    "battles_list",
    "battles_deleted",
    "battle_create",
    "battle_view",
    "battle_add_unit",
    "battle_edit_unit",
    "battle_remove_unit",
    "unit_form",
    "unit_preview",
    "battle_apply",
    "battle_outlook",
    "battle_fight",
    "battle_adjust",
    "battle_turn",
    "battle_undo",
    "battle_undo_to",
    "battle_redo",
    "battle_edit_roll",
    "battle_export",
    "battle_log_text",
    "battle_save",
    "battle_import",
    "battle_duplicate",
    "battle_delete",
    "battle_restore",
    "roster_import_csv",
    "roster_csv_template",
    "roster_copy",
    "db_backup",
    "backups_list",
    "backup_restore",
];

fn main() {
    tauri_build::try_build(
        tauri_build::Attributes::new()
            .app_manifest(tauri_build::AppManifest::new().commands(COMMANDS)),
    )
    .expect("failed to run the tauri build script");
}
