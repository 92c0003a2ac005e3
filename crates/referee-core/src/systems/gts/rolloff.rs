//! The d10 roll-off every GTS fight rests on: each side's modified d10 clamped to 1…10 (R-GTS-2),
//! fire hits (5.51, R-GTS-3) and melee hits with the tie table (6.12, R-GTS-4).

use crate::error::RefereeError;
use crate::odds::{Dist, OddsError};
use crate::ErrorCode;

/// Two entered d10 faces (first side's, then the other's), each 1–10.
pub fn two_d10(faces: &[u32], order: &str) -> Result<(i64, i64), RefereeError> {
    let [a, b] = faces else {
        return Err(
            RefereeError::new(ErrorCode::DiceInvalid, format!("two d10: {order}")).field("dice"),
        );
    };
    if !(1..=10).contains(a) || !(1..=10).contains(b) {
        return Err(
            RefereeError::new(ErrorCode::DiceInvalid, "a d10 shows 1 to 10 (0 is 10)")
                .field("dice"),
        );
    }
    Ok((i64::from(*a), i64::from(*b)))
}

/// A d10 plus a modifier, clamped to 1…10 (R-GTS-2).
pub fn modified_d10(modifier: i64) -> Result<Dist<i64>, OddsError> {
    Ok(Dist::die(10)?.plus(modifier).clamp(1, 10))
}

/// A number of hits in words: "1 hit", "2 hits".
pub fn hits_word(n: u32) -> String {
    if n == 1 {
        "1 hit".to_string()
    } else {
        format!("{n} hits")
    }
}

/// Hits from one fire roll-off (5.51, R-GTS-3).
pub fn fire_hits(attacker: i64, defender: i64, max: u32) -> u32 {
    let hits = if defender >= attacker {
        0
    } else if attacker >= 2 * defender {
        2
    } else {
        1
    };
    hits.min(max)
}

/// Formed fire: one roll-off, 0–2 hits (at most `max`).
pub fn formed_fire(attack: i64, defence: i64, max: u32) -> Result<Dist<u32>, OddsError> {
    let a = modified_d10(attack)?;
    let d = modified_d10(defence)?;
    Ok(a.joint(&d)?.map(|(x, y)| fire_hits(*x, *y, max)))
}

/// Combined skirmish fire (5.5): one defender d10 against each stand's d10, at most one hit per
/// stand; the total hits, exactly.
pub fn skirmish_fire(attack: i64, defence: i64, stands: u32) -> Result<Dist<u32>, OddsError> {
    let a = modified_d10(attack)?;
    let d = modified_d10(defence)?;
    d.and_then(|def| {
        let one = a.map(|x| u32::from(*x > *def));
        let mut total = Dist::certain(0u32);
        for _ in 0..stands {
            total = total.joint(&one)?.map(|(t, h)| t + h);
        }
        Ok(total)
    })
}

/// Melee hits `(to the first side, to the second side)` for net modifiers `a` and `b`: the
/// difference goes to the loser; a tie follows the tie bands (R-GTS-4).
pub fn melee_hits(
    a: i64,
    b: i64,
    tie_hits: &dyn Fn(i64, i64) -> u32,
) -> Result<Dist<(u32, u32)>, OddsError> {
    let x = modified_d10(a)?;
    let y = modified_d10(b)?;
    let tie = tie_hits(a, b);
    Ok(x.joint(&y)?.map(|(p, q)| melee_result(*p, *q, tie)))
}

/// Hits `(to the first side, to the second side)` for modified dice `p` and `q`: the difference
/// to the loser, `tie` hits each on a tie (6.12, R-GTS-4).
pub fn melee_result(p: i64, q: i64, tie: u32) -> (u32, u32) {
    match p.cmp(&q) {
        std::cmp::Ordering::Greater => (0, (p - q) as u32),
        std::cmp::Ordering::Less => ((q - p) as u32, 0),
        std::cmp::Ordering::Equal => (tie, tie),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fire_hits_follow_r_gts_3() {
        assert_eq!(fire_hits(5, 5, 2), 0);
        assert_eq!(fire_hits(6, 4, 2), 1);
        assert_eq!(fire_hits(8, 4, 2), 2);
        assert_eq!(fire_hits(8, 4, 1), 1);
    }

    #[test]
    fn formed_fire_at_even_odds_by_hand() {
        // d10 v d10: no hit when defender ≥ attacker: 55 of 100. Two hits when a ≥ 2d:
        // d=1: a 2–10 (9), d=2: 4–10 (7), d=3: 6–10 (5), d=4: 8–10 (3), d=5: 10 (1) = 25.
        let d = formed_fire(0, 0, 2).unwrap();
        assert_eq!(d.probability(&0).to_string(), "11/20");
        assert_eq!(d.probability(&2).to_string(), "1/4");
        assert_eq!(d.probability(&1).to_string(), "1/5");
    }

    #[test]
    fn clamping_keeps_every_die_in_range() {
        let d = modified_d10(7).unwrap();
        assert_eq!(d.probability(&10).to_string(), "4/5");
        assert_eq!(
            modified_d10(-12).unwrap().probability(&1).to_string(),
            "1/1"
        );
    }
}
