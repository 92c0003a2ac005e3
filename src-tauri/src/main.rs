// Prevents an extra console window on Windows in release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    // WebKitGTK's accelerated compositing more than doubles the web process's memory (296 → 135
    // MB PSS measured under Xvfb) and buys nothing for screens of forms and text; it is also the
    // usual cause of blank windows on some GPU drivers. JavaScriptCore's JIT stays on: without it
    // the web process is some 25 MB smaller, but an input takes about twice as long to reach the
    // odds on screen (docs/performance.md). Set before any thread starts; an umpire's own setting
    // wins.
    #[cfg(target_os = "linux")]
    for (name, value) in [("WEBKIT_DISABLE_COMPOSITING_MODE", "1")] {
        if std::env::var_os(name).is_none() {
            std::env::set_var(name, value);
        }
    }
    if let Some(missing) = referee_app_lib::display::missing() {
        eprintln!("{missing}");
        std::process::exit(1);
    }
    referee_app_lib::run()
}
