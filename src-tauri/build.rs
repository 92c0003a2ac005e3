// The app's own commands are declared here so that each needs an explicit grant in
// capabilities/default.json: nothing is allowed by default.
const COMMANDS: &[&str] = &["rulesets", "resolve", "roll_dice"];

fn main() {
    tauri_build::try_build(
        tauri_build::Attributes::new()
            .app_manifest(tauri_build::AppManifest::new().commands(COMMANDS)),
    )
    .expect("failed to run the tauri build script");
}
