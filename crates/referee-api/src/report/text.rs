//! The battle as a plain-text log, to paste into a message or a club's forum: a head, then each
//! turn with one line per event in force (dice and the exact chance of the result rolled), then
//! the final standing.

use std::fmt::Write;

use super::{gauge_words, Entry, Source, Story};
use referee_core::error::printable;
use referee_core::RefereeError;

/// One line for an event: "Melee — 17.04, 17.03: DX (dice 3, 4; physical dice); chance of DX
/// 7/12 (58.3%). 17.03: all units destroyed."
pub fn entry_line(entry: &Entry) -> String {
    let mut line = entry.text.clone();
    if let Some(chance) = entry.roll.as_ref().and_then(|r| r.chance.as_ref()) {
        let _ = write!(line, "; chance of {} {}", chance.result, chance.words());
    }
    if entry.corrected {
        line.push_str("; roll corrected");
    }
    line.push('.');
    if !entry.changes.is_empty() {
        let _ = write!(line, " {}.", entry.changes.join("; "));
    }
    line
}

/// The plain-text log of a battle. Each line's text is written with its control characters shown
/// (`printable`): a name holding a line break cannot forge a line ("Turn 9: Romans win"), nor an
/// escape sequence reach a terminal.
pub fn text_log(source: &Source) -> Result<String, RefereeError> {
    let story = Story::tell(source)?;
    let mut out = String::new();
    let mut line = |text: &str| {
        out.push_str(&printable(text));
        out.push('\n');
    };
    line(&story.title);
    line(&format!(
        "{} · {}",
        story.sides_words(),
        story.rules_words()
    ));
    line(&format!(
        "Began {}; last entry {}.",
        story.began, story.last
    ));
    for turn in &story.turns {
        line("");
        line(&turn.heading);
        for entry in &turn.entries {
            line(&format!("- {}", entry_line(entry)));
        }
    }
    if let Some(words) = story.left_out_words() {
        line("");
        line(&format!("({words})"));
    }
    line("");
    line("Standing");
    for g in &story.standing.gauges {
        let side = g
            .side
            .as_deref()
            .map(|s| format!("{s}: "))
            .unwrap_or_default();
        line(&format!("- {side}{}", gauge_words(g)));
    }
    for verdict in story.verdicts() {
        line(&format!("- {verdict}"));
    }
    Ok(out)
}
