//! Dice asked in turn: a chain of throws where what is thrown next depends on the faces before
//! (a GTS melee round: the roll-off, then the stand-loss checks of units that lost a stand, then
//! a recoil d100 per unit still fighting …). A system walks its chain stage by stage over the
//! faces entered so far; each stage lays out its dice, and the walk stops at the first stage not
//! yet thrown, so the screen asks for exactly those dice next.

use super::action::Die;
use crate::error::RefereeError;
use crate::ErrorCode;

/// The faces entered so far, read stage by stage.
#[derive(Debug)]
pub struct Throws<'a> {
    faces: &'a [u32],
    used: usize,
    asked: Vec<Die>,
    /// A stage was not (wholly) thrown yet: later stages wait for it.
    waiting: bool,
}

impl<'a> Throws<'a> {
    pub fn new(faces: &'a [u32]) -> Throws<'a> {
        Throws {
            faces,
            used: 0,
            asked: Vec::new(),
            waiting: false,
        }
    }

    /// A stage's dice, laid out; their faces once every one of them is entered, None while one
    /// is missing (or an earlier stage waits). A face no die of its kind shows is refused.
    pub fn stage(&mut self, dice: Vec<Die>) -> Result<Option<Vec<u32>>, RefereeError> {
        if self.waiting || dice.is_empty() {
            return Ok((!self.waiting).then(Vec::new));
        }
        let start = self.used;
        let mut faces = Vec::new();
        for (i, die) in dice.iter().enumerate() {
            match self.faces.get(start + i) {
                Some(f) if (1..=die.sides).contains(f) => faces.push(*f),
                Some(f) => {
                    return Err(RefereeError::new(
                        ErrorCode::DiceInvalid,
                        format!(
                            "a d{} shows 1 to {}; {f} is not one of its faces ({})",
                            die.sides,
                            die.sides,
                            die_words(die)
                        ),
                    )
                    .field("dice"))
                }
                None => break,
            }
        }
        self.asked.extend(dice.iter().cloned());
        if faces.len() < dice.len() {
            self.waiting = true;
            return Ok(None);
        }
        self.used += dice.len();
        Ok(Some(faces))
    }

    /// One die of a stage of its own.
    pub fn one(&mut self, die: Die) -> Result<Option<u32>, RefereeError> {
        Ok(self.stage(vec![die])?.map(|f| f[0]))
    }

    /// The faces entered after those read so far: a chain handed on to the next part of the
    /// resolution (the roll-off after the contact tests).
    pub fn rest(&self) -> &'a [u32] {
        &self.faces[self.used.min(self.faces.len())..]
    }

    /// Every stage the chain calls for is thrown.
    pub fn complete(&self) -> bool {
        !self.waiting
    }

    /// The dice laid out so far: those thrown and the next stage's.
    pub fn asked(&self) -> &[Die] {
        &self.asked
    }

    /// The chain is done: more faces than it asked for are refused, naming how many it takes.
    pub fn finish(self) -> Result<Vec<Die>, RefereeError> {
        if !self.waiting && self.faces.len() > self.used {
            return Err(RefereeError::new(
                ErrorCode::DiceInvalid,
                format!(
                    "this throw takes {} {}; {} were entered",
                    self.used,
                    if self.used == 1 { "die" } else { "dice" },
                    self.faces.len()
                ),
            )
            .field("dice"));
        }
        Ok(self.asked)
    }
}

/// A die in words: whose, and what for ("Levies' d10, stand-loss check").
fn die_words(die: &Die) -> String {
    let mut out = match &die.label {
        Some(l) => format!("{} d{}", crate::error::possessive(l), die.sides),
        None => format!("d{}", die.sides),
    };
    if let Some(p) = &die.purpose {
        out.push_str(", ");
        out.push_str(p);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule_system::Thrower;

    fn d10(label: &str, purpose: &str) -> Die {
        Die::of(10, Thrower::A, label, purpose)
    }

    #[test]
    fn a_chain_lays_out_the_next_stage_and_waits_for_it() {
        let faces = [3, 7];
        let mut t = Throws::new(&faces);
        assert_eq!(
            t.stage(vec![d10("A", "roll-off"), d10("B", "roll-off")])
                .unwrap(),
            Some(vec![3, 7])
        );
        assert_eq!(t.one(d10("A", "stand-loss check")).unwrap(), None);
        // A stage after a waiting one is not asked yet.
        assert_eq!(t.one(d10("B", "recoil")).unwrap(), None);
        assert!(!t.complete());
        let asked = t.finish().unwrap();
        assert_eq!(asked.len(), 3);
        assert_eq!(asked[2].purpose.as_deref(), Some("stand-loss check"));
    }

    #[test]
    fn a_stage_half_thrown_waits_and_faces_past_the_chain_are_refused() {
        let mut t = Throws::new(&[4]);
        assert_eq!(t.stage(vec![d10("A", "x"), d10("B", "x")]).unwrap(), None);
        assert_eq!(t.finish().unwrap().len(), 2);
        let mut t = Throws::new(&[4, 5, 6]);
        assert!(t
            .stage(vec![d10("A", "x"), d10("B", "x")])
            .unwrap()
            .is_some());
        let e = t.finish().unwrap_err();
        assert_eq!(e.code, "dice.invalid");
        assert!(
            e.message.contains("takes 2 dice; 3 were entered"),
            "{}",
            e.message
        );
    }

    #[test]
    fn a_face_off_its_die_is_refused_with_the_die_named() {
        let mut t = Throws::new(&[11]);
        let e = t.one(d10("Levies", "stand-loss check")).unwrap_err();
        assert!(
            e.message.contains("Levies' d10, stand-loss check"),
            "{}",
            e.message
        );
    }
}
