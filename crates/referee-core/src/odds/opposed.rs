//! Opposed rolls: two modified rolls compared.

use super::{Dist, OddsError};

/// How the first total compares with the second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Comparison {
    Less,
    Equal,
    Greater,
}

/// One pair of totals, compared: the ordering, whether one is at least double the other, and
/// the difference. Systems read the part their rule names ("doubled", "beats by 2", …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Opposed {
    pub comparison: Comparison,
    /// `first ≥ 2 × second` with first > second.
    pub doubled: bool,
    /// `2 × first ≤ second` with first < second.
    pub halved: bool,
    /// `first − second`.
    pub difference: i64,
}

impl Opposed {
    pub fn of(first: i64, second: i64) -> Opposed {
        let comparison = match first.cmp(&second) {
            std::cmp::Ordering::Less => Comparison::Less,
            std::cmp::Ordering::Equal => Comparison::Equal,
            std::cmp::Ordering::Greater => Comparison::Greater,
        };
        Opposed {
            comparison,
            doubled: first > second && first >= 2 * second,
            halved: first < second && 2 * first <= second,
            difference: first - second,
        }
    }
}

/// The exact distribution of the comparison of two independent modified rolls.
pub fn opposed(first: &Dist<i64>, second: &Dist<i64>) -> Result<Dist<Opposed>, OddsError> {
    Ok(first.joint(second)?.map(|(a, b)| Opposed::of(*a, *b)))
}
