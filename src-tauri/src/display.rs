//! A window needs a display: on Linux, without one GTK panics deep in the window's event loop
//! with a backtrace an umpire cannot read. The app asks first and says, in one sentence, what is
//! missing.

/// What keeps the window from opening, as one sentence; none when a display answers.
#[cfg(target_os = "linux")]
pub fn missing() -> Option<String> {
    let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
    if !set("DISPLAY") && !set("WAYLAND_DISPLAY") {
        return Some(
            "The referee needs a display to open its window: start it in a desktop session, or under xvfb-run for a virtual one."
                .into(),
        );
    }
    // Named but not there (a closed session, a stale DISPLAY): GTK cannot connect.
    if gtk::init().is_err() {
        let named = std::env::var("WAYLAND_DISPLAY")
            .ok()
            .filter(|v| !v.is_empty())
            .or_else(|| std::env::var("DISPLAY").ok())
            .unwrap_or_default();
        return Some(format!(
            "The referee cannot reach the display “{named}” to open its window: start it in a running desktop session, or under xvfb-run for a virtual one."
        ));
    }
    None
}

#[cfg(not(target_os = "linux"))]
pub fn missing() -> Option<String> {
    None
}
