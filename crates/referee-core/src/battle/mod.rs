//! A battle: the umpire's memory of who is on the table, in what state, and what happened.
//!
//! State is a fold over an append-only list of events (`event.rs`): units added, resolutions
//! applied (with their dice and who rolled them), manual adjustments, turns advanced, undo, redo
//! and edited rolls. Nothing is rewritten: undo and redo are events too. Pure like the rest of the
//! core: the caller stamps the time and stores the events. The battle never looks inside a rule
//! system: it asks the ruleset's system (the `rule_system` contract) to enter, land, open and
//! stand.

pub mod changes;
pub mod event;
pub mod fight;
pub mod fold;
pub mod live;
pub mod outlook;

#[cfg(test)]
mod tests;

pub use crate::rule_system::fight::Contacts;
pub use changes::{changes_for, target_key, Mapping};
pub use event::{turn_words, AppliedChange, DiceSource, Event, EventBody, Subject};
pub use fight::{fight, fight_with, move_along, Fight};
pub use fold::{fold, History};
pub use live::{differences, Battle, Difference};
pub use outlook::{outlook, settled};

pub use crate::rule_system::form::{PrintedValue, UnitField, UnitForm, UnitOption, UnitPreview};
pub use crate::rule_system::{Gauge, Standing};
pub use crate::state::{
    BattleSetup, BattleState, LeaderFate, QuickEdit, Role, SideSetup, SideState, UnitId, UnitSpec,
    UnitState, UnitWords,
};

/// The battle's standing: each army against its system's break points, and the system's
/// verdicts once a result (or an adjustment) is in force — before any, a verdict ("Own army
/// wins 13–12") would judge a fight nobody has fought.
/// How the battle ends as it stands, for an event: the system's verdict, once a result (or an
/// adjustment) is in force — before any, nobody has fought.
pub fn verdict(
    ruleset: &crate::systems::Ruleset,
    state: &BattleState,
) -> Option<crate::rule_system::standing::Verdict> {
    if state.results == 0 {
        return None;
    }
    ruleset.system.verdict(state)
}

pub fn standing(ruleset: &crate::systems::Ruleset, state: &BattleState) -> Standing {
    let mut standing = ruleset.system.standing(state);
    standing.resolutions = if state.results == 0 {
        Vec::new()
    } else {
        standing
            .resolutions
            .into_iter()
            .map(crate::contract::Resolution::shown)
            .collect()
    };
    standing
}
