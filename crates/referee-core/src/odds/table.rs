//! Table lookup: a row by modified roll, a column by ratio or by shifted column.

use super::{Dist, OddsError};

/// An inclusive band of rolls; an open end reaches to infinity (`≤ 0`, `12 +`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Band {
    pub min: Option<i64>,
    pub max: Option<i64>,
}

impl Band {
    /// Rolls of at most `n`.
    pub fn at_most(n: i64) -> Band {
        Band {
            min: None,
            max: Some(n),
        }
    }

    /// Rolls above `n`.
    pub fn above(n: i64) -> Band {
        Band {
            min: Some(n + 1),
            max: None,
        }
    }

    pub fn contains(&self, roll: i64) -> bool {
        self.min.is_none_or(|m| roll >= m) && self.max.is_none_or(|m| roll <= m)
    }
}

/// Rows of a results table, each a band of modified rolls and what it gives.
#[derive(Clone, Debug, PartialEq)]
pub struct RollTable<R> {
    pub rows: Vec<(Band, R)>,
}

impl<R: Clone + Ord> RollTable<R> {
    pub fn lookup(&self, roll: i64) -> Result<&R, OddsError> {
        self.rows
            .iter()
            .find(|(band, _)| band.contains(roll))
            .map(|(_, r)| r)
            .ok_or(OddsError::NoRow(roll))
    }

    /// The exact distribution of results for a distribution of modified rolls.
    pub fn distribution(&self, rolls: &Dist<i64>) -> Result<Dist<R>, OddsError> {
        rolls.and_then(|roll| Ok(Dist::certain(self.lookup(*roll)?.clone())))
    }
}

/// The index of the column a ratio falls in: the highest column whose ratio `a:b` does not
/// exceed `attack / defence` (rounded down, in the defender's favour). `None` when the ratio is
/// below the lowest column. Columns must be in ascending order.
pub fn column_by_ratio(columns: &[(u64, u64)], attack: u64, defence: u64) -> Option<usize> {
    columns.iter().rposition(|&(a, b)| {
        u128::from(a) * u128::from(defence) <= u128::from(attack) * u128::from(b)
    })
}

/// A column index moved by `shift` columns, held inside the table.
pub fn shifted_column(index: usize, shift: i64, columns: usize) -> usize {
    let last = columns.saturating_sub(1) as i64;
    (index as i64 + shift).clamp(0, last) as usize
}
