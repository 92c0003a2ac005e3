//! Dice notation: `2d6`, `d10`, `d100`.

use std::fmt;
use std::str::FromStr;

use super::{Dist, OddsError};

/// A number of identical dice summed: `2d6` is two six-sided dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiceSpec {
    pub count: u32,
    pub sides: u32,
}

impl DiceSpec {
    pub const TWO_D6: DiceSpec = DiceSpec { count: 2, sides: 6 };

    pub fn distribution(&self) -> Result<Dist<i64>, OddsError> {
        Dist::dice(self.count, self.sides)
    }

    /// Checks physical dice faces against this spec and returns their sum.
    pub fn total_of(&self, faces: &[u32]) -> Result<i64, String> {
        if faces.len() != self.count as usize {
            let dice = |n: usize| {
                if n == 1 {
                    "1 die".to_string()
                } else {
                    format!("{n} dice")
                }
            };
            let given = if faces.len() == 1 { "was" } else { "were" };
            return Err(format!(
                "{self} needs {}, {} {given} given",
                dice(self.count as usize),
                dice(faces.len())
            ));
        }
        if let Some(bad) = faces.iter().find(|f| **f == 0 || **f > self.sides) {
            return Err(format!(
                "a d{} shows 1 to {}, not {bad}",
                self.sides, self.sides
            ));
        }
        Ok(faces.iter().map(|f| i64::from(*f)).sum())
    }
}

impl fmt::Display for DiceSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count == 1 {
            write!(f, "d{}", self.sides)
        } else {
            write!(f, "{}d{}", self.count, self.sides)
        }
    }
}

impl FromStr for DiceSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<DiceSpec, String> {
        let bad = || format!("'{s}' is not dice notation such as 2d6, d10 or d100");
        let (count, sides) = s.trim().split_once(['d', 'D']).ok_or_else(bad)?;
        let count = if count.is_empty() {
            1
        } else {
            count.parse().map_err(|_| bad())?
        };
        let sides: u32 = sides.parse().map_err(|_| bad())?;
        if count == 0 || count > 12 || sides == 0 || sides > 100 {
            return Err(format!("{s}: from 1 to 12 dice of 1 to 100 sides"));
        }
        Ok(DiceSpec { count, sides })
    }
}
