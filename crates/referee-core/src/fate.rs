//! What becomes of a DBMM element (p. 38–43): the outcomes table's fates and the roster's
//! changes are one typed enum, so nothing matches a fate by its text.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What becomes of an element. The outcomes table (p. 40–42) gives the fates up to
/// `BurstThrough`; the rest come from a command's morale (p. 43) and the umpire's quick edits.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize, Serialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Fate {
    Stand,
    Pursue,
    Recoil,
    Repulsed,
    Flee,
    Spent,
    Destroyed,
    /// The outcome does not apply (overlap, shooting unanswered, flank or rear attacker).
    Disregarded,
    /// Contacted on its rear edge, its total equal or more: it turns to face the enemy (p. 40).
    Turn,
    /// A fleeing element scoring more than the enemy it could not avoid goes through it (p. 41).
    BurstThrough,
    /// Left the table (an umpire's quick edit).
    #[schemars(skip)]
    #[serde(skip_deserializing)]
    OffTable,
    /// A 0 ME element of a disheartened command leaves (p. 43).
    #[schemars(skip)]
    #[serde(skip_deserializing)]
    Removed,
    /// An element of a broken command routs (p. 43).
    #[schemars(skip)]
    #[serde(skip_deserializing)]
    Rout,
    /// Sees a broken friendly command within 800p at the bound's end (p. 43).
    #[schemars(skip)]
    #[serde(skip_deserializing)]
    SeesBrokenCommand,
    /// The mark above taken back.
    #[schemars(skip)]
    #[serde(skip_deserializing)]
    SeesNoBrokenCommand,
}

impl Fate {
    pub const ALL: [Fate; 15] = [
        Fate::Stand,
        Fate::Pursue,
        Fate::Recoil,
        Fate::Repulsed,
        Fate::Flee,
        Fate::Spent,
        Fate::Destroyed,
        Fate::Disregarded,
        Fate::Turn,
        Fate::BurstThrough,
        Fate::OffTable,
        Fate::Removed,
        Fate::Rout,
        Fate::SeesBrokenCommand,
        Fate::SeesNoBrokenCommand,
    ];

    /// "Must recoil/flee or is repulsed/destroyed/spent" (p. 38): what makes a friend on the
    /// enemy's flank or rear recoil.
    pub fn gives_way(self) -> bool {
        matches!(
            self,
            Fate::Recoil | Fate::Repulsed | Fate::Flee | Fate::Destroyed | Fate::Spent
        )
    }

    /// The fates that take an element off the table.
    pub fn leaves_the_table(self) -> bool {
        matches!(
            self,
            Fate::Destroyed | Fate::Spent | Fate::OffTable | Fate::Removed
        )
    }

    /// The fate as a verb phrase: "is repulsed".
    pub fn word(self) -> &'static str {
        match self {
            Fate::Stand => "stands",
            Fate::Pursue => "pursues",
            Fate::Recoil => "recoils",
            Fate::Repulsed => "is repulsed",
            Fate::Flee => "flees",
            Fate::Spent => "is spent",
            Fate::Destroyed => "is destroyed",
            Fate::Disregarded => "outcome disregarded",
            Fate::Turn => "turns 180°",
            Fate::BurstThrough => "bursts through",
            Fate::OffTable => "leaves the table",
            Fate::Removed => "is removed",
            Fate::Rout => "routs",
            Fate::SeesBrokenCommand => "sees a broken command within 800p at the bound's end",
            Fate::SeesNoBrokenCommand => "no longer sees a broken command",
        }
    }

    /// The fate as a roster change reads: the outcome's words, whole.
    fn change_word(self) -> &'static str {
        match self {
            Fate::Turn => "turns 180° to face the enemy",
            Fate::BurstThrough => "bursts through the enemy",
            other => other.word(),
        }
    }

    /// The stable key the log stores: "burst_through".
    pub fn code(self) -> &'static str {
        match self {
            Fate::Stand => "stand",
            Fate::Pursue => "pursue",
            Fate::Recoil => "recoil",
            Fate::Repulsed => "repulsed",
            Fate::Flee => "flee",
            Fate::Spent => "spent",
            Fate::Destroyed => "destroyed",
            Fate::Disregarded => "disregarded",
            Fate::Turn => "turn",
            Fate::BurstThrough => "burst_through",
            Fate::OffTable => "off_table",
            Fate::Removed => "removed",
            Fate::Rout => "rout",
            Fate::SeesBrokenCommand => "sees_broken_command",
            Fate::SeesNoBrokenCommand => "sees_no_broken_command",
        }
    }

    fn from_code(code: &str) -> Option<Fate> {
        Fate::ALL.into_iter().find(|f| f.code() == code)
    }
}

/// What an outcome does to an element: one fate, or two the player chooses between (the sheet's
/// exception or the general outcome, p. 38), or a fate and what happens when it cannot be done (a
/// friend on the enemy's flank "recoils; if it cannot, it is spent", p. 38). The log stores it as
/// it always has: "repulsed", "repulsed_or_recoil".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FateChoice {
    pub fate: Fate,
    pub or: Option<Fate>,
}

impl FateChoice {
    pub fn one(fate: Fate) -> FateChoice {
        FateChoice { fate, or: None }
    }

    pub fn either(fate: Fate, or: Fate) -> FateChoice {
        FateChoice { fate, or: Some(or) }
    }

    /// The stored key: "repulsed", "repulsed_or_recoil".
    pub fn code(self) -> String {
        match self.or {
            Some(or) => format!("{}_or_{}", self.fate.code(), or.code()),
            None => self.fate.code().to_string(),
        }
    }

    /// In words: "is repulsed", "is repulsed or recoils, as the player chooses".
    pub fn words(self) -> String {
        match self.or {
            // A friend on the enemy's flank when the element in front gives way (p. 38).
            Some(Fate::Spent) if self.fate == Fate::Recoil => {
                "recoils (if it cannot, it is spent)".to_string()
            }
            Some(or) => format!(
                "{} or {}, as the player chooses",
                self.fate.change_word(),
                or.change_word()
            ),
            None => self.fate.change_word().to_string(),
        }
    }

    pub fn parse(code: &str) -> Option<FateChoice> {
        if let Some(fate) = Fate::from_code(code) {
            return Some(FateChoice::one(fate));
        }
        let (fate, or) = code.split_once("_or_")?;
        Some(FateChoice::either(
            Fate::from_code(fate)?,
            Fate::from_code(or)?,
        ))
    }
}

impl From<Fate> for FateChoice {
    fn from(fate: Fate) -> FateChoice {
        FateChoice::one(fate)
    }
}

impl Serialize for FateChoice {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.code())
    }
}

impl<'de> Deserialize<'de> for FateChoice {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<FateChoice, D::Error> {
        let code = String::deserialize(d)?;
        FateChoice::parse(&code).ok_or_else(|| {
            serde::de::Error::custom(format!("“{code}” is not a fate of a DBMM element"))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fate_and_choice_round_trips_through_its_stored_key() {
        for fate in Fate::ALL {
            let stored = serde_json::to_string(&fate).unwrap();
            assert_eq!(stored, format!("\"{}\"", fate.code()));
            for or in Fate::ALL.into_iter().map(Some).chain([None]) {
                let choice = FateChoice { fate, or };
                let json = serde_json::to_string(&choice).unwrap();
                assert_eq!(serde_json::from_str::<FateChoice>(&json).unwrap(), choice);
            }
        }
        // As the battles recorded so far hold them.
        assert_eq!(
            FateChoice::parse("repulsed_or_stand"),
            Some(FateChoice::either(Fate::Repulsed, Fate::Stand))
        );
        assert_eq!(
            FateChoice::parse("sees_no_broken_command").unwrap().or,
            None
        );
        assert_eq!(FateChoice::parse("retreats"), None);
    }

    #[test]
    fn a_choice_reads_as_the_player_choosing() {
        assert_eq!(
            FateChoice::either(Fate::Repulsed, Fate::Recoil).words(),
            "is repulsed or recoils, as the player chooses"
        );
        assert_eq!(
            FateChoice::either(Fate::Recoil, Fate::Spent).words(),
            "recoils (if it cannot, it is spent)"
        );
        assert_eq!(FateChoice::one(Fate::Removed).words(), "is removed");
    }
}
