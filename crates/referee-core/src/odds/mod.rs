//! The exact odds engine: dice, modifiers, clamping, tables, opposed rolls, thresholds and
//! chaining, all over exact integer-weighted distributions.

mod dice;
mod dist;
mod opposed;
mod table;

pub use dice::DiceSpec;
pub use dist::{Dist, Probability};
pub use opposed::{opposed, Comparison, Opposed};
pub use table::{column_by_ratio, shifted_column, Band, RollTable};

/// What the engine itself can refuse. Rule systems wrap these into player-facing errors.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OddsError {
    #[error("a die needs at least one side")]
    NoSides,
    #[error("a roll needs at least one die")]
    NoDice,
    #[error("a distribution needs at least one possible outcome")]
    Empty,
    #[error("the dice are too many for an exact count")]
    TooLarge,
    #[error("the table has no row for a roll of {0}")]
    NoRow(i64),
}

#[cfg(test)]
mod tests;
