//! The battle's game clock, as its events set it: when the first bound began and the climate
//! and season whose daylight the system reads. Game time, counted from the battle's turns; the
//! core reads no OS clock.

use std::collections::BTreeSet;

/// When the battle's first turn began and where, as a result landed it (DBMM p. 23).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BattleClock {
    /// Minutes after midnight at the start of the first turn.
    pub start: u32,
    pub climate: String,
    pub season: String,
    /// The Invader's first deployment die (DBMM MOON EFFECTS), once entered.
    pub moon_die: Option<u32>,
    /// The weather set with the clock (DBMM p. 25): the visibility table's key, once given.
    pub weather: Option<String>,
    /// The sides that recorded their decision to retreat at dusk (DBMM p. 23).
    pub retreating: BTreeSet<String>,
}

/// "07:10" → minutes after midnight; None unless hours 0–23 and minutes 0–59.
pub fn minutes_of(text: &str) -> Option<u32> {
    let (h, m) = text.trim().split_once(':')?;
    let (h, m): (u32, u32) = (h.trim().parse().ok()?, m.trim().parse().ok()?);
    (h < 24 && m < 60).then_some(h * 60 + m)
}

/// Minutes after midnight (any day) → "07:10".
pub fn clock_text(minutes: u32) -> String {
    let m = minutes % (24 * 60);
    format!("{:02}:{:02}", m / 60, m % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_times_read_and_write_as_hours_and_minutes() {
        assert_eq!(minutes_of("07:10"), Some(430));
        assert_eq!(minutes_of(" 7:05 "), Some(425));
        assert_eq!(minutes_of("24:00"), None);
        assert_eq!(minutes_of("12:60"), None);
        assert_eq!(minutes_of("noon"), None);
        assert_eq!(clock_text(430), "07:10");
        // Past midnight the clock goes round.
        assert_eq!(clock_text(24 * 60 + 5), "00:05");
    }
}
