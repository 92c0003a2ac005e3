//! Recoil (7.1–7.3, R-GTS-6): every unit of both sides rolls d100 + modifiers (clamped 1…100)
//! against its recoil number. Exact for several units a side without enumerating 100ⁿ rolls:
//! each unit's fate depends only on its own roll, the lowest passing roll of the other side and
//! whether anyone on its own side passed, so those are folded unit by unit.

use crate::odds::{Dist, OddsError};

/// One unit's recoil test: its recoil number and the modifier to its d100.
#[derive(Clone, Copy, Debug)]
pub struct Test {
    pub number: i64,
    pub modifier: i64,
}

/// What becomes of a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Fate {
    Holds,
    Recoils,
    Routs,
    /// Everyone on both sides failed: nobody recoils, each unit takes 2 hits.
    Locked,
}

/// What becomes of a side: worst case over its units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SideFate {
    Holds,
    GivesGround,
    SomeRout,
    Locked,
}

impl SideFate {
    /// The key a result row goes by.
    pub fn code(self) -> &'static str {
        match self {
            SideFate::Holds => "holds",
            SideFate::GivesGround => "gives_ground",
            SideFate::SomeRout => "some_rout",
            SideFate::Locked => "locked",
        }
    }
}

/// Weights of a modified d100 over 1…100 (index 0 unused), clamped (R-GTS-2).
fn md100(t: &Test) -> [u128; 101] {
    let mut w = [0u128; 101];
    for d in 1..=100i64 {
        w[(d + t.modifier).clamp(1, 100) as usize] += 1;
    }
    w
}

/// Weights of the lowest passing md100 of a side (index 0: nobody passed), over 100ⁿ.
fn lowest_pass(side: &[Test]) -> Vec<u128> {
    let mut acc = vec![0u128; 101];
    acc[0] = 1;
    for t in side {
        let roll = md100(t);
        let mut next = vec![0u128; 101];
        for (low, &w) in acc.iter().enumerate() {
            if w == 0 {
                continue;
            }
            for (r, &rw) in roll.iter().enumerate().skip(1) {
                let passes = r as i64 <= t.number;
                let low2 = match (passes, low) {
                    (false, _) => low,
                    (true, 0) => r,
                    (true, l) => l.min(r),
                };
                next[low2] += w * rw;
            }
        }
        acc = next;
    }
    acc
}

/// Weights of (nobody passed, someone passed) on a side, over 100ⁿ.
fn anyone_passes(side: &[Test]) -> [u128; 2] {
    let mut none = 1u128;
    let mut total = 1u128;
    for t in side {
        let roll = md100(t);
        let fails: u128 = roll
            .iter()
            .enumerate()
            .skip(1)
            .filter(|(r, _)| *r as i64 > t.number)
            .map(|(_, w)| *w)
            .sum();
        none *= fails;
        total *= 100;
    }
    [none, total - none]
}

/// Whether nobody on a side passes its test (true), over 100ⁿ: the victor's follow-up (7.3)
/// needs every enemy unit to fail.
pub fn nobody_passes(side: &[Test]) -> Result<Dist<bool>, OddsError> {
    let [none, some] = anyone_passes(side);
    Dist::from_weights([(true, none), (false, some)])
}

/// The fate of unit `i` of `own`, facing `other` (R-GTS-6).
pub fn unit_fate(
    own: &[Test],
    i: usize,
    other: &[Test],
    multiple: i64,
) -> Result<Dist<Fate>, OddsError> {
    let me = own[i];
    let others: Vec<Test> = own
        .iter()
        .enumerate()
        .filter(|(j, _)| *j != i)
        .map(|(_, t)| *t)
        .collect();
    let mine = md100(&me);
    let low = lowest_pass(other);
    let [nobody, somebody] = anyone_passes(&others);
    let mut w = [0u128; 4];
    for (r, &rw) in mine.iter().enumerate().skip(1) {
        if rw == 0 {
            continue;
        }
        for (l, &lw) in low.iter().enumerate() {
            if lw == 0 {
                continue;
            }
            let both = rw * lw * (nobody + somebody);
            if r as i64 <= me.number {
                w[0] += both;
            } else if l == 0 {
                w[1] += rw * lw * somebody;
                w[3] += rw * lw * nobody;
            } else if r as i64 >= multiple * l as i64 {
                w[2] += both;
            } else {
                w[1] += both;
            }
        }
    }
    Dist::from_weights([
        (Fate::Holds, w[0]),
        (Fate::Recoils, w[1]),
        (Fate::Routs, w[2]),
        (Fate::Locked, w[3]),
    ])
}

/// The fate of a whole side: locked, holds (all pass), some unit routs, or gives ground.
pub fn side_fate(own: &[Test], other: &[Test], multiple: i64) -> Result<Dist<SideFate>, OddsError> {
    // Own side folded to (anyone passed, highest failing roll: 0 = none failed).
    let mut acc = vec![[0u128; 101]; 2];
    acc[0][0] = 1;
    for t in own {
        let roll = md100(t);
        let mut next = vec![[0u128; 101]; 2];
        for any in 0..2 {
            for high in 0..=100usize {
                let w = acc[any][high];
                if w == 0 {
                    continue;
                }
                for (r, &rw) in roll.iter().enumerate().skip(1) {
                    if r as i64 <= t.number {
                        next[1][high] += w * rw;
                    } else {
                        next[any][high.max(r)] += w * rw;
                    }
                }
            }
        }
        acc = next;
    }
    let low = lowest_pass(other);
    let mut w = [0u128; 4];
    for (any, row) in acc.iter().enumerate() {
        for (high, &hw) in row.iter().enumerate() {
            if hw == 0 {
                continue;
            }
            for (l, &lw) in low.iter().enumerate() {
                if lw == 0 {
                    continue;
                }
                let k = match (high, l) {
                    (_, 0) if any == 0 => 3,
                    (0, _) => 0,
                    (h, l) if l > 0 && h as i64 >= multiple * l as i64 => 2,
                    _ => 1,
                };
                w[k] += hw * lw;
            }
        }
    }
    Dist::from_weights([
        (SideFate::Holds, w[0]),
        (SideFate::GivesGround, w[1]),
        (SideFate::SomeRout, w[2]),
        (SideFate::Locked, w[3]),
    ])
}

/// Weights of a side's (lowest passing md100, highest failing md100), 0 for none, over 100ⁿ:
/// `out[low][high]`.
fn low_and_high(side: &[Test]) -> Vec<[u128; 101]> {
    let mut acc = vec![[0u128; 101]; 101];
    acc[0][0] = 1;
    for t in side {
        let roll = md100(t);
        let mut next = vec![[0u128; 101]; 101];
        for (low, row) in acc.iter().enumerate() {
            for (high, &w) in row.iter().enumerate() {
                if w == 0 {
                    continue;
                }
                for (r, &rw) in roll.iter().enumerate().skip(1) {
                    if rw == 0 {
                        continue;
                    }
                    if r as i64 <= t.number {
                        let l = if low == 0 { r } else { low.min(r) };
                        next[l][high] += w * rw;
                    } else {
                        next[low][high.max(r)] += w * rw;
                    }
                }
            }
        }
        acc = next;
    }
    acc
}

/// A side's fate from its lowest pass and highest failure and the other side's lowest pass.
fn fate_of(low: usize, high: usize, other_low: usize, multiple: i64) -> SideFate {
    if low == 0 && other_low == 0 {
        SideFate::Locked
    } else if high == 0 {
        SideFate::Holds
    } else if other_low > 0 && high as i64 >= multiple * other_low as i64 {
        SideFate::SomeRout
    } else {
        SideFate::GivesGround
    }
}

/// The joint fate of both sides, exactly (R-GTS-6, R-GTS-12): given both sides' lowest passing
/// rolls, the two sides' highest failures are independent, so the pairs are summed over the
/// lowest passes only.
pub fn joint_fate(
    a: &[Test],
    b: &[Test],
    multiple: i64,
) -> Result<Dist<(SideFate, SideFate)>, OddsError> {
    let (wa, wb) = (low_and_high(a), low_and_high(b));
    let fates = [
        SideFate::Holds,
        SideFate::GivesGround,
        SideFate::SomeRout,
        SideFate::Locked,
    ];
    let index = |f: SideFate| fates.iter().position(|x| *x == f).unwrap_or(0);
    let mut w = [[0u128; 4]; 4];
    for (la, row_a) in wa.iter().enumerate() {
        if row_a.iter().all(|x| *x == 0) {
            continue;
        }
        for (lb, row_b) in wb.iter().enumerate() {
            if row_b.iter().all(|x| *x == 0) {
                continue;
            }
            let mut fa = [0u128; 4];
            for (h, &x) in row_a.iter().enumerate() {
                if x > 0 {
                    fa[index(fate_of(la, h, lb, multiple))] += x;
                }
            }
            let mut fb = [0u128; 4];
            for (h, &x) in row_b.iter().enumerate() {
                if x > 0 {
                    fb[index(fate_of(lb, h, la, multiple))] += x;
                }
            }
            for i in 0..4 {
                for j in 0..4 {
                    w[i][j] += fa[i] * fb[j];
                }
            }
        }
    }
    Dist::from_weights(
        (0..4)
            .flat_map(|i| (0..4).map(move |j| (i, j)))
            .map(|(i, j)| ((fates[i], fates[j]), w[i][j])),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_against_one_by_hand() {
        // RN 50 v RN 50, no modifiers. A holds: 50/100. Both fail (locked): 1/4. A fails, B
        // passes with b: A routs when a ≥ 2b. For b ≤ 25 every failing a (51–100) is ≥ 2b;
        // for b in 26–50, a ≥ 2b gives 101 − 2b values. Routs: (25·50 + Σ_{b=26}^{50}(101 − 2b))
        // / 10⁴ = (1250 + 25·101 − 2·950) / 10⁴ = 1875/10000 = 3/16.
        let a = [Test {
            number: 50,
            modifier: 0,
        }];
        let b = [Test {
            number: 50,
            modifier: 0,
        }];
        let f = unit_fate(&a, 0, &b, 2).unwrap();
        assert_eq!(f.probability(&Fate::Holds).to_string(), "1/2");
        assert_eq!(f.probability(&Fate::Locked).to_string(), "1/4");
        assert_eq!(f.probability(&Fate::Routs).to_string(), "3/16");
        assert_eq!(f.probability(&Fate::Recoils).to_string(), "1/16");
        let s = side_fate(&a, &b, 2).unwrap();
        assert_eq!(s.probability(&SideFate::SomeRout).to_string(), "3/16");
        // Jointly: A routs only when B held (3/16); both locked 1/4; each side's margin agrees
        // with side_fate.
        let j = joint_fate(&a, &b, 2).unwrap();
        assert_eq!(
            j.probability(&(SideFate::SomeRout, SideFate::Holds))
                .to_string(),
            "3/16"
        );
        assert_eq!(
            j.probability(&(SideFate::Locked, SideFate::Locked))
                .to_string(),
            "1/4"
        );
        assert_eq!(
            j.probability_where(|(x, _)| *x == SideFate::GivesGround)
                .to_string(),
            s.probability(&SideFate::GivesGround).to_string()
        );
    }

    #[test]
    fn a_friend_who_passes_turns_lock_into_recoil() {
        // A has two units; B fails for sure (RN 0, modifier irrelevant): a failing A unit
        // recoils if its friend passed, is locked if not.
        let a = [
            Test {
                number: 50,
                modifier: 0,
            },
            Test {
                number: 50,
                modifier: 0,
            },
        ];
        let b = [Test {
            number: 0,
            modifier: 0,
        }];
        let f = unit_fate(&a, 0, &b, 2).unwrap();
        assert_eq!(f.probability(&Fate::Recoils).to_string(), "1/4");
        assert_eq!(f.probability(&Fate::Locked).to_string(), "1/4");
    }
}
