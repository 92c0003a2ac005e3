// Prevents an extra console window on Windows in release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    // WebKitGTK's accelerated compositing more than doubles the web process's memory (296 → 135
    // MB PSS measured under Xvfb) and buys nothing for screens of forms and text; it is also the
    // usual cause of blank windows on some GPU drivers. Set before any thread starts; an
    // umpire's own setting wins.
    #[cfg(target_os = "linux")]
    if std::env::var_os("WEBKIT_DISABLE_COMPOSITING_MODE").is_none() {
        std::env::set_var("WEBKIT_DISABLE_COMPOSITING_MODE", "1");
    }
    referee_app_lib::run()
}
