//! The battle's clock (p. 23, R-DBMM-39): each player's bound adds 10 minutes, so the battle's
//! turn n — every bound of both sides counted from the first — begins 10 × (n − 1) minutes after
//! the first. From it and the climate table come the period of each bound, the bound the night
//! began in, whether the moon is up (R-DBMM-31) and, once dusk has fallen, each side's decision
//! to fight on at dawn or retreat (R-DBMM-40).

use super::combat::Time;
use super::data::DbmmData;
use super::daylight::{self, DaylightRow};
use crate::contract::Change;
use crate::error::RefereeError;
use crate::rule_system::standing::{gauge, Gauge};
use crate::state::clock::{clock_text, minutes_of, BattleClock};
use crate::state::{BattleState, QuickEdit};
use crate::ErrorCode;

/// "Each player's bound adds 10 minutes to clock" (TIME FACTORS, p. 23).
pub const BOUND_MINUTES: u32 = 10;
/// TIME FACTORS (p. 23).
pub const RULE: &str = "p. 23";
pub const RULING: &str = "R-DBMM-39";
/// The decision at dusk (p. 23) and when the app asks it.
pub const DUSK_RULING: &str = "R-DBMM-40";
const DAY: u32 = 24 * 60;

/// The climate table's row for a climate and season, as the sheet spells them (any case).
pub fn row<'d>(data: &'d DbmmData, climate: &str, season: &str) -> Option<&'d DaylightRow> {
    let same = |a: &str, b: &str| a.eq_ignore_ascii_case(b.trim());
    data.daylight
        .times
        .iter()
        .find(|r| same(&r.climate, climate) && same(&r.season, season))
}

/// Minutes after midnight at the start of bound `bound` (counted from 1), round the clock.
pub fn bound_time(clock: &BattleClock, bound: u32) -> u32 {
    (clock.start + BOUND_MINUTES * bound.saturating_sub(1)) % DAY
}

/// The first bound's time for a bound that begins at `at`: the clock run back.
pub fn first_bound_at(at: u32, bound: u32) -> u32 {
    let back = (BOUND_MINUTES * bound.saturating_sub(1)) % DAY;
    (at + DAY - back) % DAY
}

/// The battle's clock read at one bound.
#[derive(Clone, Debug)]
pub struct ClockNow<'d> {
    pub bound: u32,
    /// Minutes after midnight.
    pub at: u32,
    pub period: Time,
    pub row: &'d DaylightRow,
    /// At night, the bound this night began in: the earliest of the night's bounds in a row.
    pub night_began: Option<u32>,
    /// At night with the moon die entered: whether the moon is up (R-DBMM-31).
    pub moon_up: Option<bool>,
}

/// The clock at `bound`, if the battle's clock has started in a climate and season the table
/// has.
pub fn now<'d>(data: &'d DbmmData, clock: &BattleClock, bound: u32) -> Option<ClockNow<'d>> {
    let row = row(data, &clock.climate, &clock.season)?;
    let bound = bound.max(1);
    let period_at = |b: u32| daylight::period(row, bound_time(clock, b));
    let period = period_at(bound);
    let night_began = (period == Time::Night).then(|| {
        let mut first = bound;
        while first > 1 && period_at(first - 1) == Time::Night {
            first -= 1;
        }
        first
    });
    let moon_up = match (night_began, clock.moon_die) {
        (Some(began), Some(die)) => data
            .daylight
            .moon
            .rows
            .iter()
            .find(|r| r.faces.contains(&die))
            .map(|r| daylight::moon_up(r.course, die, bound, began)),
        _ => None,
    };
    Some(ClockNow {
        bound,
        at: bound_time(clock, bound),
        period,
        row,
        night_began,
        moon_up,
    })
}

impl ClockNow<'_> {
    /// "14:10, day; dusk at 17:40": the time, the period and the next of the table's times.
    pub fn words(&self) -> String {
        let (period, next, when) = match self.period {
            Time::Day => ("day", "dusk", &self.row.dusk),
            Time::Dusk => ("dusk (sunset until dusk)", "night", &self.row.dusk),
            Time::Dawn => ("dawn", "sunrise", &self.row.sunrise),
            Time::Night => (
                match self.moon_up {
                    Some(true) => "night, moonlit",
                    Some(false) => "night, moonless",
                    None => "night",
                },
                "dawn",
                &self.row.dawn,
            ),
        };
        format!("{}, {period}; {next} at {when}", clock_text(self.at))
    }

    /// Whether dusk has fallen on the battle: the bound is at or past dusk (night), so the
    /// decision of p. 23 is asked (R-DBMM-40).
    pub fn after_dusk(&self) -> bool {
        self.period == Time::Night
    }
}

/// Lands a change on the battle's clock; None when it is not the clock's (or cannot be: a time
/// not of a day, a climate and season the table does not have, a die not 1–6, a decision
/// before the clock started).
pub fn land(data: &DbmmData, state: &mut BattleState, side: usize, change: &Change) -> Option<()> {
    match change {
        Change::BattleClock {
            start,
            climate,
            season,
            moon_die,
            weather,
        } => {
            let start = minutes_of(start)?;
            let row = row(data, climate, season)?;
            if moon_die.is_some_and(|d| !(1..=6).contains(&d)) {
                return None;
            }
            let weather = match weather {
                Some(w) => Some(data.daylight.weather_named(Some(w)).ok()?.key.clone()),
                None => None,
            };
            let retreating = state.clock.take().map(|c| c.retreating).unwrap_or_default();
            state.clock = Some(BattleClock {
                start,
                climate: row.climate.clone(),
                season: row.season.clone(),
                moon_die: *moon_die,
                weather,
                retreating,
            });
            Some(())
        }
        Change::RetreatAtDusk => {
            let name = state.sides.get(side)?.name.clone();
            state.clock.as_mut()?.retreating.insert(name);
            Some(())
        }
        _ => None,
    }
}

/// A retreat at dusk the battle refuses before it is written: a side that has already recorded
/// its retreat, or a battle whose clock has not started (p. 23, R-DBMM-40).
pub fn refuse(state: &BattleState, side: usize, change: &Change) -> Option<RefereeError> {
    if !matches!(change, Change::RetreatAtDusk) {
        return None;
    }
    let name = &state.sides.get(side)?.name;
    let message = match &state.clock {
        None => format!(
            "{name} cannot record a retreat at dusk: the battle's clock has not been set (p. 23)"
        ),
        Some(c) if c.retreating.contains(name) => {
            format!("{name} has already recorded its retreat at dusk; nothing was written (p. 23)")
        }
        Some(_) => return None,
    };
    Some(RefereeError::new(ErrorCode::BattleOncePerGame, message).field("change"))
}

/// The clock on the battle's standing: the bound, its time and period ("Bound 7 · 14:10, day;
/// dusk at 17:40"); once dusk has fallen, each side's decision, one tap to record a retreat, and
/// the battle's end when both retreat (p. 23).
pub fn gauges(data: &DbmmData, state: &BattleState) -> Vec<Gauge> {
    let Some(clock) = &state.clock else {
        return Vec::new();
    };
    let Some(now) = now(data, clock, state.turn) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    // The weather set with the clock is said with it (p. 25).
    let weather = clock
        .weather
        .as_deref()
        .and_then(|w| data.daylight.weather_named(Some(w)).ok())
        .map_or(String::new(), |w| format!("; {}", w.name));
    let words = format!("{}{weather}", now.words());
    let mut g = gauge(None, format!("Bound {}", now.bound), words, RULE);
    g.ruling = Some(RULING.into());
    out.push(g);
    if !now.after_dusk() {
        return out;
    }
    for side in &state.sides {
        let retreats = clock.retreating.contains(&side.name);
        let mut g = gauge(
            Some(&side.name),
            "Decision at dusk",
            if retreats {
                "retreats"
            } else {
                "continues the battle at dawn unless it records a retreat"
            },
            RULE,
        );
        // A decision, not a threshold: it raises no alarm.
        g.ruling = Some(DUSK_RULING.into());
        if !retreats {
            g.offer = Some(QuickEdit {
                label: format!("Record {} retreat", crate::error::possessive(&side.name)),
                change: Change::RetreatAtDusk,
                opens: None,
            });
        }
        out.push(g);
    }
    if !state.sides.is_empty()
        && state
            .sides
            .iter()
            .all(|s| clock.retreating.contains(&s.name))
    {
        let mut g = gauge(None, "The battle", "both sides retreat", RULE);
        g.status = Some("ends".into());
        g.ruling = Some(DUSK_RULING.into());
        out.push(g);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{BattleSetup, SideSetup};

    /// Cold Winter: dawn 07:30, sunrise 08:00, sunset 16:00, dusk 16:30 (p. 23).
    fn clock(start: &str, moon_die: Option<u32>) -> BattleClock {
        BattleClock {
            start: minutes_of(start).unwrap(),
            climate: "Cold".into(),
            season: "Winter".into(),
            moon_die,
            weather: None,
            retreating: Default::default(),
        }
    }

    #[test]
    fn each_bound_adds_ten_minutes_and_reads_its_period() {
        let data = super::super::test_data();
        let c = clock("15:50", None);
        let cases = [
            (1, "15:50, day; dusk at 16:30", None),
            (2, "16:00, dusk (sunset until dusk); night at 16:30", None),
            (5, "16:30, night; dawn at 07:30", Some(5)),
            (7, "16:50, night; dawn at 07:30", Some(5)),
        ];
        for (bound, words, began) in cases {
            let now = now(&data, &c, bound).unwrap();
            assert_eq!(now.words(), words, "bound {bound}");
            assert_eq!(now.night_began, began, "bound {bound}");
            assert_eq!(now.after_dusk(), began.is_some(), "bound {bound}");
        }
    }

    #[test]
    fn the_moon_die_kept_by_the_battle_says_whether_the_moon_is_up() {
        let data = super::super::test_data();
        // Night begins in bound 5. A 3 rises at the start of the 1st night bound after bound 3:
        // bound 5. A 6 has risen already and sets at the end of the 1st night bound after bound
        // 6: bound 7. A 1 is no moon (R-DBMM-31).
        let up = |die: u32, bound: u32| {
            now(&data, &clock("15:50", Some(die)), bound)
                .unwrap()
                .moon_up
        };
        assert_eq!(up(3, 5), Some(true));
        assert_eq!(up(3, 4), None, "not night yet");
        assert_eq!(up(6, 7), Some(true));
        assert_eq!(up(6, 8), Some(false));
        assert_eq!(up(1, 6), Some(false));
        assert!(now(&data, &clock("15:50", Some(6)), 8)
            .unwrap()
            .words()
            .contains("night, moonless"));
    }

    #[test]
    fn the_first_bound_is_the_clock_run_back() {
        assert_eq!(
            first_bound_at(minutes_of("14:10").unwrap(), 7),
            minutes_of("13:10").unwrap()
        );
        // Round midnight.
        assert_eq!(
            first_bound_at(minutes_of("00:05").unwrap(), 2),
            minutes_of("23:55").unwrap()
        );
        assert_eq!(
            bound_time(&clock("23:55", None), 2),
            minutes_of("00:05").unwrap()
        );
    }

    #[test]
    fn a_clock_the_table_cannot_read_does_not_land() {
        let data = super::super::test_data();
        let mut state = BattleState::new(&BattleSetup {
            name: "Test".into(),
            ruleset: "dbmm".into(),
            fingerprint: String::new(),
            sides: ["Romans", "Gauls"]
                .map(|n| SideSetup {
                    name: n.into(),
                    commands: vec![],
                    panic_level: None,
                    stacking_limit: None,
                })
                .to_vec(),
        });
        let set = |start: &str, climate: &str, die: Option<u32>| Change::BattleClock {
            start: start.into(),
            climate: climate.into(),
            season: "Winter".into(),
            moon_die: die,
            weather: None,
        };
        assert_eq!(
            land(&data, &mut state, 0, &Change::RetreatAtDusk),
            None,
            "no clock yet"
        );
        assert_eq!(
            land(&data, &mut state, 0, &set("25:00", "Cold", None)),
            None
        );
        assert_eq!(
            land(&data, &mut state, 0, &set("15:50", "Arctic", None)),
            None
        );
        assert_eq!(
            land(&data, &mut state, 0, &set("15:50", "Cold", Some(7))),
            None
        );
        assert!(state.clock.is_none());
        assert_eq!(
            land(&data, &mut state, 0, &set("15:50", "cold", Some(3))),
            Some(())
        );
        assert_eq!(state.clock.as_ref().unwrap().climate, "Cold");
        // Day: the clock alone on the standing; past dusk, each side's decision with its offer.
        assert_eq!(gauges(&data, &state).len(), 1);
        assert_eq!(gauges(&data, &state)[0].value, "15:50, day; dusk at 16:30");
        // The weather set with the clock is kept and said with it; one not in the table is
        // refused (p. 25).
        let with_weather = |w: &str| Change::BattleClock {
            start: "15:50".into(),
            climate: "Cold".into(),
            season: "Winter".into(),
            moon_die: Some(3),
            weather: Some(w.into()),
        };
        assert_eq!(land(&data, &mut state, 0, &with_weather("sunshine")), None);
        assert_eq!(land(&data, &mut state, 0, &with_weather("fog")), Some(()));
        assert_eq!(
            state.clock.as_ref().unwrap().weather.as_deref(),
            Some("fog")
        );
        assert_eq!(
            gauges(&data, &state)[0].value,
            "15:50, day; dusk at 16:30; Fog"
        );
        state.turn = 6;
        let g = gauges(&data, &state);
        assert_eq!(g.len(), 3);
        assert_eq!(g[1].offer.as_ref().unwrap().label, "Record Romans' retreat");
        for side in 0..2 {
            land(&data, &mut state, side, &Change::RetreatAtDusk).unwrap();
        }
        // A second retreat is refused in words (p. 23).
        let again = refuse(&state, 0, &Change::RetreatAtDusk).unwrap();
        assert!(again
            .message
            .contains("Romans has already recorded its retreat at dusk"));
        let g = gauges(&data, &state);
        assert!(g[1].offer.is_none());
        assert_eq!(g[1].value, "retreats");
        let end = g.last().unwrap();
        assert_eq!(
            (end.status.as_deref(), end.value.as_str()),
            (Some("ends"), "both sides retreat")
        );
    }
}
