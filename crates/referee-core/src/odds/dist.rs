//! Exact discrete distributions.
//!
//! A distribution is a map from outcome to an integer weight, over a common total: the
//! probability of an outcome is exactly `weight / total`. Every operation keeps integers, so no
//! float ever enters a probability; `Probability::to_f64` exists only for display.

use std::collections::BTreeMap;
use std::fmt;

use super::OddsError;

/// An exact probability `num / den`, always reduced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Probability {
    num: u128,
    den: u128,
}

impl Probability {
    pub const ZERO: Probability = Probability { num: 0, den: 1 };
    pub const ONE: Probability = Probability { num: 1, den: 1 };

    /// `num / den`, reduced. `den` must be positive (a distribution total always is).
    pub fn new(num: u128, den: u128) -> Probability {
        debug_assert!(den > 0, "a probability needs a positive denominator");
        let g = gcd(num, den).max(1);
        Probability {
            num: num / g,
            den: den / g,
        }
    }

    pub fn numerator(&self) -> u128 {
        self.num
    }

    pub fn denominator(&self) -> u128 {
        self.den
    }

    /// For display only.
    pub fn to_f64(&self) -> f64 {
        self.num as f64 / self.den as f64
    }

    /// Reads the contract's `"n/d"` back.
    pub fn parse(text: &str) -> Option<Probability> {
        let (n, d) = text.split_once('/')?;
        let (num, den) = (n.trim().parse().ok()?, d.trim().parse::<u128>().ok()?);
        (den > 0).then(|| Probability::new(num, den))
    }

    /// The exact sum, or `None` if the common denominator would overflow.
    pub fn plus(&self, other: &Probability) -> Option<Probability> {
        let den = lcm(self.den, other.den).ok()?;
        let num =
            (self.num * (den / self.den)).checked_add(other.num.checked_mul(den / other.den)?)?;
        Some(Probability::new(num, den))
    }
}

impl fmt::Display for Probability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.num, self.den)
    }
}

impl PartialOrd for Probability {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Probability {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        // Reduced fractions of dice totals are far below 2^64, so the cross products fit.
        (self.num * other.den).cmp(&(other.num * self.den))
    }
}

pub(crate) fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

fn lcm(a: u128, b: u128) -> Result<u128, OddsError> {
    let g = gcd(a, b).max(1);
    (a / g).checked_mul(b).ok_or(OddsError::TooLarge)
}

/// An exact distribution over outcomes of type `T`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dist<T: Ord> {
    weights: BTreeMap<T, u128>,
    total: u128,
}

impl<T: Ord + Clone> Dist<T> {
    /// The outcome `value` with probability 1.
    pub fn certain(value: T) -> Dist<T> {
        Dist {
            weights: BTreeMap::from([(value, 1)]),
            total: 1,
        }
    }

    /// Each value once, equally likely (repeats add up).
    pub fn uniform(values: impl IntoIterator<Item = T>) -> Result<Dist<T>, OddsError> {
        Dist::from_weights(values.into_iter().map(|v| (v, 1)))
    }

    /// Outcomes with integer weights; zero weights are dropped. Needs a positive total.
    pub fn from_weights(pairs: impl IntoIterator<Item = (T, u128)>) -> Result<Dist<T>, OddsError> {
        let mut weights = BTreeMap::new();
        let mut total: u128 = 0;
        for (value, weight) in pairs {
            if weight == 0 {
                continue;
            }
            total = total.checked_add(weight).ok_or(OddsError::TooLarge)?;
            *weights.entry(value).or_insert(0) += weight;
        }
        if total == 0 {
            return Err(OddsError::Empty);
        }
        Ok(Dist { weights, total }.reduced())
    }

    fn reduced(mut self) -> Dist<T> {
        let g = self.weights.values().fold(self.total, |g, &w| gcd(g, w));
        if g > 1 {
            for w in self.weights.values_mut() {
                *w /= g;
            }
            self.total /= g;
        }
        self
    }

    /// The common denominator of every outcome's weight.
    pub fn total(&self) -> u128 {
        self.total
    }

    pub fn weight(&self, value: &T) -> u128 {
        self.weights.get(value).copied().unwrap_or(0)
    }

    pub fn probability(&self, value: &T) -> Probability {
        Probability::new(self.weight(value), self.total)
    }

    /// The probability that the outcome satisfies `pred`.
    pub fn probability_where(&self, pred: impl Fn(&T) -> bool) -> Probability {
        let w = self
            .weights
            .iter()
            .filter(|(v, _)| pred(v))
            .map(|(_, w)| *w)
            .sum();
        Probability::new(w, self.total)
    }

    /// Every outcome with a non-zero probability, in order.
    pub fn outcomes(&self) -> impl Iterator<Item = (&T, Probability)> + '_ {
        self.weights
            .iter()
            .map(move |(v, w)| (v, Probability::new(*w, self.total)))
    }

    /// The sum of every outcome's probability, exactly (1 for every valid distribution).
    pub fn total_probability(&self) -> Probability {
        Probability::new(self.weights.values().sum(), self.total)
    }

    /// Each outcome transformed; outcomes that map together add up.
    pub fn map<U: Ord + Clone>(&self, f: impl Fn(&T) -> U) -> Dist<U> {
        let mut weights = BTreeMap::new();
        for (v, w) in &self.weights {
            *weights.entry(f(v)).or_insert(0) += *w;
        }
        Dist {
            weights,
            total: self.total,
        }
        .reduced()
    }

    /// Chaining: each outcome feeds a further random step (result → scatter roll, …).
    pub fn and_then<U: Ord + Clone>(
        &self,
        f: impl Fn(&T) -> Result<Dist<U>, OddsError>,
    ) -> Result<Dist<U>, OddsError> {
        let steps: Vec<(u128, Dist<U>)> = self
            .weights
            .iter()
            .map(|(v, w)| Ok((*w, f(v)?)))
            .collect::<Result<_, OddsError>>()?;
        let common = steps.iter().try_fold(1u128, |l, (_, d)| lcm(l, d.total))?;
        let mut weights = BTreeMap::new();
        for (w, d) in steps {
            let scale = common / d.total;
            for (u, uw) in d.weights {
                let add = w
                    .checked_mul(uw)
                    .and_then(|x| x.checked_mul(scale))
                    .ok_or(OddsError::TooLarge)?;
                *weights.entry(u).or_insert(0) += add;
            }
        }
        let total = self.total.checked_mul(common).ok_or(OddsError::TooLarge)?;
        Ok(Dist { weights, total }.reduced())
    }

    /// The joint distribution of two independent distributions.
    pub fn joint<U: Ord + Clone>(&self, other: &Dist<U>) -> Result<Dist<(T, U)>, OddsError> {
        self.and_then(|t| Ok(other.map(|u| (t.clone(), u.clone()))))
    }
}

impl Dist<i64> {
    /// One die numbered 1…sides.
    pub fn die(sides: u32) -> Result<Dist<i64>, OddsError> {
        if sides == 0 {
            return Err(OddsError::NoSides);
        }
        Dist::uniform(1..=i64::from(sides))
    }

    /// The sum of `count` dice of `sides` faces, by convolution.
    pub fn dice(count: u32, sides: u32) -> Result<Dist<i64>, OddsError> {
        if count == 0 {
            return Err(OddsError::NoDice);
        }
        let one = Dist::die(sides)?;
        let mut sum = one.clone();
        for _ in 1..count {
            sum = sum.add(&one)?;
        }
        Ok(sum)
    }

    /// The sum of two independent integer distributions.
    pub fn add(&self, other: &Dist<i64>) -> Result<Dist<i64>, OddsError> {
        Ok(self.joint(other)?.map(|(a, b)| a + b))
    }

    /// Every outcome shifted by a modifier.
    pub fn plus(&self, modifier: i64) -> Dist<i64> {
        self.map(|v| v + modifier)
    }

    /// Every outcome held inside `low…high` (a modified d10 stays in 1…10).
    pub fn clamp(&self, low: i64, high: i64) -> Dist<i64> {
        self.map(|v| (*v).clamp(low, high))
    }

    /// A threshold test: true when the roll is at most `target`.
    pub fn at_most(&self, target: i64) -> Dist<bool> {
        self.map(|v| *v <= target)
    }
}
