//! A battle: the umpire's memory of who is on the table, in what state, and what happened.
//!
//! State is a fold over an append-only list of events (`event.rs`): units added, resolutions
//! applied (with their dice and who rolled them), manual adjustments, turns advanced, undo, redo
//! and edited rolls. Nothing is rewritten: undo and redo are events too. Pure like the rest of the
//! core: the caller stamps the time and stores the events.

pub mod changes;
pub mod event;
pub mod fight;
pub mod fold;
pub mod form;
pub mod live;
pub mod model;
pub mod outlook;
pub mod standing;
pub mod units;

#[cfg(test)]
mod tests;

pub use changes::{changes_for, target_key, Mapping};
pub use event::{AppliedChange, DiceSource, Event, EventBody, Subject};
pub use fight::{fight, Fight};
pub use fold::{fold, History};
pub use form::{
    roster_csv_template, unit_form, unit_preview, PrintedValue, UnitField, UnitForm, UnitOption,
    UnitPreview,
};
pub use live::{differences, Battle, Difference};
pub use model::{
    BattleSetup, BattleState, LeaderFate, Role, SideSetup, SideState, UnitId, UnitSpec, UnitState,
};
pub use outlook::{outlook, settled};
pub use standing::{standing, Gauge, Standing};
