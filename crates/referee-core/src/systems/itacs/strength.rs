//! Combat strength as printed (2.4.6, R-ITACS-2), counted in half points so that bracketed
//! defenders' halves stay exact.

use std::fmt;

use crate::rule_system::resolve::MAX_VALUE;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CombatStrength {
    Plain(u32),
    /// `.`: adds nothing to a stack with non-dot units; a stack of only dots has strength 1.
    Dot,
    /// `[n]`: n in attack, n/2 in defence.
    Bracketed(u32),
}

impl CombatStrength {
    pub fn parse(printed: &str) -> Result<CombatStrength, String> {
        let s = printed.trim();
        if s == "." {
            return Ok(CombatStrength::Dot);
        }
        let bad = || {
            format!(
                "combat strength {} must be a whole number from 0 to {}, “.” (dot) or “[n]” (bracketed)",
                crate::error::given(printed),
                crate::error::grouped(MAX_VALUE)
            )
        };
        // No counter prints more than a tabletop value: 9999999 is refused, not summed.
        let number = |t: &str| {
            t.trim()
                .parse::<u32>()
                .ok()
                .filter(|n| i64::from(*n) <= MAX_VALUE)
                .ok_or_else(bad)
        };
        if let Some(inner) = s.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
            return number(inner).map(CombatStrength::Bracketed);
        }
        number(s).map(CombatStrength::Plain)
    }

    /// Half points this unit adds to a stack, `None` for a dot.
    pub fn half_points(&self, defending: bool) -> Option<u64> {
        match *self {
            CombatStrength::Plain(n) => Some(2 * u64::from(n)),
            CombatStrength::Bracketed(n) if defending => Some(u64::from(n)),
            CombatStrength::Bracketed(n) => Some(2 * u64::from(n)),
            CombatStrength::Dot => None,
        }
    }
}

impl fmt::Display for CombatStrength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CombatStrength::Plain(n) => write!(f, "{n}"),
            CombatStrength::Dot => write!(f, "."),
            CombatStrength::Bracketed(n) => write!(f, "[{n}]"),
        }
    }
}

/// The strength of one stack, in half points (2.4.6): non-dot units add up; dots add nothing
/// beside them; a stack of only dots has strength 1.
pub fn stack_half_points(units: &[(CombatStrength, u32)], defending: bool) -> u64 {
    let mut sum = 0;
    let mut any_non_dot = false;
    let mut any = false;
    for (strength, count) in units {
        if *count == 0 {
            continue;
        }
        any = true;
        if let Some(h) = strength.half_points(defending) {
            any_non_dot = true;
            sum += h * u64::from(*count);
        }
    }
    match (any, any_non_dot) {
        (true, false) => 2,
        _ => sum,
    }
}

/// Half points as a strength for display: `12`, `4½`.
pub fn show_half_points(h: u64) -> String {
    if h.is_multiple_of(2) {
        (h / 2).to_string()
    } else {
        format!("{}½", h / 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use CombatStrength::*;

    #[test]
    fn printed_strengths_parse() {
        assert_eq!(CombatStrength::parse("4"), Ok(Plain(4)));
        assert_eq!(CombatStrength::parse("."), Ok(Dot));
        assert_eq!(CombatStrength::parse("[4]"), Ok(Bracketed(4)));
        assert!(CombatStrength::parse("four").is_err());
        assert!(CombatStrength::parse("[x]").is_err());
        // The refusal quotes what was typed, minus included (issue 31 item 8).
        let e = CombatStrength::parse("-4").unwrap_err();
        assert!(e.contains("\u{201c}-4\u{201d}"), "{e}");
        let e = CombatStrength::parse("[-4]").unwrap_err();
        assert!(e.contains("\u{201c}[-4]\u{201d}"), "{e}");
        // Beyond any counter: refused, not summed.
        let e = CombatStrength::parse("9999999").unwrap_err();
        assert!(e.contains("from 0 to 10,000"), "{e}");
        assert!(CombatStrength::parse("[10001]").is_err());
        assert_eq!(CombatStrength::parse("10000"), Ok(Plain(10_000)));
    }

    // The three examples of 2.4.6.
    #[test]
    fn two_pikemen_and_a_longbow_have_strength_12() {
        assert_eq!(stack_half_points(&[(Plain(6), 2), (Dot, 1)], false), 24);
    }

    #[test]
    fn three_longbows_have_strength_1() {
        assert_eq!(stack_half_points(&[(Dot, 3)], true), 2);
    }

    #[test]
    fn heavy_cavalry_attacks_with_4_and_defends_with_2() {
        assert_eq!(stack_half_points(&[(Bracketed(4), 1)], false), 8);
        assert_eq!(stack_half_points(&[(Bracketed(4), 1)], true), 4);
        assert_eq!(
            show_half_points(stack_half_points(&[(Bracketed(3), 1)], true)),
            "1½"
        );
    }
}
