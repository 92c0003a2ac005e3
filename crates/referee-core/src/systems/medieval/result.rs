//! The COMBAT TABLE's result notation (R-MED-3): `x/y` = attacker part / defender part; a part is
//! `-` (nothing), `-N` (lose N SP), `AN` / `DN` (retreat N hexes), `DN-M` (retreat N and lose M),
//! with a trailing `R` when the retreating side is scattered outright.

use std::fmt;
use std::str::FromStr;

/// What one side suffers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Part {
    pub loss: u32,
    pub retreat: u32,
    pub scattered: bool,
}

impl Part {
    fn parse(text: &str, letter: char) -> Result<Part, String> {
        let bad = || format!("“{text}” is not a result part (-, -N, {letter}N, {letter}N-M, …R)");
        let mut t = text.trim();
        if t == "-" || t.is_empty() {
            return Ok(Part::default());
        }
        let scattered = t.ends_with('R');
        if scattered {
            t = &t[..t.len() - 1];
        }
        let mut part = Part {
            scattered,
            ..Part::default()
        };
        if let Some(rest) = t.strip_prefix(letter) {
            let (n, loss) = match rest.split_once('-') {
                Some((n, l)) => (n, Some(l)),
                None => (rest, None),
            };
            part.retreat = n.parse().map_err(|_| bad())?;
            if let Some(l) = loss {
                part.loss = l.parse().map_err(|_| bad())?;
            }
        } else if let Some(n) = t.strip_prefix('-') {
            part.loss = n.parse().map_err(|_| bad())?;
        } else {
            return Err(bad());
        }
        if part.scattered && part.retreat == 0 {
            return Err(format!("“{text}”: R (scattered) goes with a retreat"));
        }
        Ok(part)
    }
}

/// One cell of the COMBAT TABLE.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CombatResult {
    pub attacker: Part,
    pub defender: Part,
}

impl FromStr for CombatResult {
    type Err = String;

    fn from_str(code: &str) -> Result<CombatResult, String> {
        let code = code.trim();
        if let Some((a, d)) = code.split_once('/') {
            return Ok(CombatResult {
                attacker: Part::parse(a, 'A')?,
                defender: Part::parse(d, 'D')?,
            });
        }
        if code.starts_with('A') {
            Ok(CombatResult {
                attacker: Part::parse(code, 'A')?,
                ..CombatResult::default()
            })
        } else if code.starts_with('D') || code == "-" {
            Ok(CombatResult {
                defender: Part::parse(code, 'D')?,
                ..CombatResult::default()
            })
        } else {
            Err(format!(
                "“{code}” is not a COMBAT TABLE result: a lone loss needs a side (-1/-, -/-1)"
            ))
        }
    }
}

/// A side named in a result's words: its units' labels ("Knights and Sergeants"), one unit or a
/// side read as one ("the attacker") taking the verb's singular.
pub struct Who<'a> {
    pub name: &'a str,
    pub one: bool,
}

impl Part {
    /// What the side suffers in words, naming it ("Boyars retreats 2 hexes and loses 1 SP");
    /// None when nothing.
    pub fn words(&self, who: &Who) -> Option<String> {
        let verb = |one: &str, many: &str| if who.one { one } else { many }.to_string();
        let mut parts = Vec::new();
        if self.retreat > 0 {
            parts.push(format!(
                "{} {} hex{}",
                verb("retreats", "retreat"),
                self.retreat,
                if self.retreat == 1 { "" } else { "es" }
            ));
        }
        if self.loss > 0 {
            parts.push(format!("{} {} SP", verb("loses", "lose"), self.loss));
        }
        if self.scattered {
            parts.push(format!("{} scattered", verb("is", "are")));
        }
        let last = parts.pop()?;
        Some(if parts.is_empty() {
            format!("{} {last}", who.name)
        } else {
            format!("{} {} and {last}", who.name, parts.join(", "))
        })
    }
}

impl CombatResult {
    /// The result in words naming the sides: "Knights loses 1 SP; Boyars retreats 2 hexes".
    pub fn words(&self, attacker: &Who, defender: &Who) -> String {
        let said: Vec<String> = [self.attacker.words(attacker), self.defender.words(defender)]
            .into_iter()
            .flatten()
            .collect();
        if said.is_empty() {
            "No effect".to_string()
        } else {
            said.join("; ")
        }
    }
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if self.retreat > 0 {
            parts.push(format!(
                "retreat {} hex{}",
                self.retreat,
                if self.retreat == 1 { "" } else { "es" }
            ));
        }
        if self.loss > 0 {
            parts.push(format!("lose {} SP", self.loss));
        }
        if self.scattered {
            parts.push("scattered".to_string());
        }
        if parts.is_empty() {
            parts.push("no effect".to_string());
        }
        write!(f, "{}", parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_in_words_names_the_units() {
        let (a, d) = (
            Who {
                name: "Knights",
                one: true,
            },
            Who {
                name: "Boyars and Scouts",
                one: false,
            },
        );
        assert_eq!(
            r("-1/D2").words(&a, &d),
            "Knights loses 1 SP; Boyars and Scouts retreat 2 hexes"
        );
        assert_eq!(
            r("D3-1R").words(&a, &d),
            "Boyars and Scouts retreat 3 hexes, lose 1 SP and are scattered"
        );
        assert_eq!(r("-").words(&a, &d), "No effect");
    }

    fn r(code: &str) -> CombatResult {
        code.parse().unwrap()
    }

    #[test]
    fn the_notation_of_r_med_3() {
        let p = |loss, retreat, scattered| Part {
            loss,
            retreat,
            scattered,
        };
        assert_eq!(r("-"), CombatResult::default());
        assert_eq!(r("D2-1").defender, p(1, 2, false));
        assert_eq!(
            r("-1/D2"),
            CombatResult {
                attacker: p(1, 0, false),
                defender: p(0, 2, false)
            }
        );
        assert_eq!(
            r("-1/-1"),
            CombatResult {
                attacker: p(1, 0, false),
                defender: p(1, 0, false)
            }
        );
        assert_eq!(r("-1/-").attacker, p(1, 0, false));
        assert_eq!(r("A4-1R").attacker, p(1, 4, true));
        assert_eq!(r("-1/D5R").defender, p(0, 5, true));
        assert_eq!(r("-1/D5-1").defender, p(1, 5, false));
        assert!("-1".parse::<CombatResult>().is_err());
        assert!("X2".parse::<CombatResult>().is_err());
        assert!("D-1R".parse::<CombatResult>().is_err());
    }
}
