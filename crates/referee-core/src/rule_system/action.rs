//! An action as the app lists it, a system as players see it, and the sequence of play.

use serde::Serialize;
use ts_rs::TS;

/// Where an action belongs in the app's list: the umpire looks for a combat, a check, a move or a
/// table, not for a rule number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ActionGroup {
    Combat,
    /// Morale and checks.
    Checks,
    Movement,
    Tables,
}

/// One action a system resolves, as the app lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct ActionInfo {
    pub id: String,
    pub name: String,
    pub rule: String,
    pub group: ActionGroup,
    /// It takes two sides of roster units: its system opens its situation from them.
    pub fights: bool,
    /// It is filled in from the whole battle (every hex with markers, say): its system opens
    /// its situation from the roster without picks.
    pub from_roster: bool,
    /// It is a test of one unit, opened from the unit's roster row with the unit in its state now
    /// (its system's `open_unit`): a GTS rally (3.33).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(optional, as = "Option<bool>")]
    pub for_a_unit: bool,
    /// It throws dice; an action that does not answers with one certain result.
    pub rolls: bool,
    /// The contacts it takes from the roster besides the two units fighting in front (DBMM
    /// p. 35–38): none for a system whose picks are all it fights with.
    pub contacts: Vec<ContactInfo>,
    /// It is fought in one side's bound, which the umpire names (DBMM).
    pub asks_bound: bool,
    /// It moves one picked roster entry along the places the umpire names, each read from the
    /// roster (an ITACS rout or break move, 5.1–5.3): opened from that one pick, no enemy.
    pub moves: bool,
}

/// What a contact is to the fight (DBMM p. 35–38).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ContactKind {
    /// An element overlapping the enemy's front element: picked as a further unit of its side.
    Overlap,
    /// A friend directly behind its side's front element.
    Behind,
    /// A friend in front-edge contact with the enemy front element's flank or rear.
    OnEnemyFlank,
}

/// The part of a fight whose friends a contact is picked from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum FightPart {
    Attackers,
    Defenders,
}

/// A contact an action takes from the roster, in the rules' words: `{front}` stands for the
/// label of its own side's front element, `{enemy}` for the enemy's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct ContactInfo {
    pub kind: ContactKind,
    /// Whose friends it is picked from.
    pub parts: Vec<FightPart>,
    /// At most this many for each front element.
    pub at_most: u32,
    /// The pick's name: "On {enemy}'s flank".
    pub label: String,
    /// What it counts for on both elements it concerns.
    pub counts: String,
    pub rule: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub ruling: Option<String>,
}

/// One die of a throw: its sides, which side of an opposed roll throws it, and, where each die
/// is a unit's own (a GTS recoil: a d100 per unit), that unit's name; in a chain of throws, what
/// it is thrown for ("stand-loss check").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct Die {
    pub sides: u32,
    #[ts(optional)]
    pub thrower: Option<Thrower>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub label: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub purpose: Option<String>,
    /// What each face means, in the rule's words, from 1 up (a frenzied elephant's heading: its
    /// facing as North, then NE, E …); none where a face is only its number.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[ts(optional, as = "Option<Vec<String>>")]
    pub face_names: Vec<String>,
}

impl Die {
    /// A die of `sides` thrown by `thrower`'s side for `purpose`, named by the unit `label`.
    pub fn of(sides: u32, thrower: Thrower, label: &str, purpose: &str) -> Die {
        Die {
            sides,
            thrower: Some(thrower),
            label: (!label.is_empty()).then(|| label.to_string()),
            purpose: Some(purpose.to_string()),
            face_names: Vec::new(),
        }
    }

    /// The die with each face named in the rule's words (4.46: a compass point).
    pub fn naming_faces(mut self, names: &[String]) -> Die {
        self.face_names = names.to_vec();
        self
    }
}

/// The two sides of an opposed roll, as the dice notation orders them ("d6 v d6").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum Thrower {
    A,
    B,
}

/// The dice of a notation, one by one: "2d6" is two dice of 6, "d10 v d10" a d10 for each side,
/// "d6 then d6" two throws of a d6. None for a notation that is not dice (a throw per unit).
pub fn dice_of(notation: &str) -> Option<Vec<Die>> {
    let notation = notation.trim();
    if notation.is_empty() || notation == "none" {
        return Some(Vec::new());
    }
    let opposed: Vec<&str> = notation.split(" v ").collect();
    let mut dice = Vec::new();
    for (i, part) in opposed.iter().enumerate() {
        let thrower = match (opposed.len(), i) {
            (2, 0) => Some(Thrower::A),
            (2, _) => Some(Thrower::B),
            _ => None,
        };
        for throw in part.split(" then ") {
            let spec: crate::odds::DiceSpec = throw.trim().parse().ok()?;
            for _ in 0..spec.count {
                dice.push(Die {
                    sides: spec.sides,
                    thrower,
                    label: None,
                    purpose: None,
                    face_names: Vec::new(),
                });
            }
        }
    }
    Some(dice)
}

/// A box of a situation the umpire ticks often (a flank or rear attack, uphill, a river,
/// cover), or one value of a choice (an ITACS attack from an adjacent wall hex): the app offers
/// every field of this name as a chip.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct CommonSituation {
    /// The box's (or choice's) name in the situation.
    pub field: String,
    /// Its words on the chip.
    pub label: String,
    /// The one value of a choice the chip sets (its key); none for a box. Shown where setting it
    /// changes the odds, or while it is set.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub value: Option<String>,
}

impl CommonSituation {
    pub fn list(fields: &[(&str, &str)]) -> Vec<CommonSituation> {
        fields
            .iter()
            .map(|(field, label)| CommonSituation {
                field: field.to_string(),
                label: label.to_string(),
                value: None,
            })
            .collect()
    }

    /// A chip that sets `field` to `value`.
    pub fn pick(field: &str, value: &str, label: &str) -> CommonSituation {
        CommonSituation {
            field: field.to_string(),
            label: label.to_string(),
            value: Some(value.to_string()),
        }
    }
}

/// A system as listed to players.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct SystemInfo {
    pub id: String,
    pub name: String,
    pub dice: String,
    pub fingerprint: String,
    /// The files it was built from, base first.
    pub layers: Vec<String>,
    pub actions: Vec<ActionInfo>,
    /// The action that resolves the system's main combat: "Resolve" on the roster opens it.
    pub main_action: String,
    /// The values a situation field can take, from the ruleset data (unit_type, terrain).
    pub choices: Vec<ChoiceList>,
    /// The sequence of play, phase by phase, with the actions each phase offers.
    pub phases: Vec<Phase>,
    /// The boxes offered as chips.
    pub common_situations: Vec<CommonSituation>,
    /// The numbers a side is set up with in this system, besides its name and commands.
    pub side_fields: Vec<SideField>,
    /// What the umpire should know when filling the roster, in the rules' words.
    #[ts(optional)]
    pub roster_advice: Option<String>,
    /// A unit's values are worked out from the tables (not printed on a counter): the roster
    /// offers to show them.
    pub derived_values: bool,
    /// What the rules call a turn of the battle: "turn", or "bound" (DBMM).
    pub turn_word: String,
}

/// A number a side is set up with (ITACS: the scenario's panic level and stacking limit): a
/// whole number from `min` to `max`, which a battle begun is held to (`check_side_fields`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct SideField {
    /// The side setup's field: `panic_level`, `stacking_limit`.
    pub key: String,
    pub label: String,
    pub rule: String,
    pub min: u32,
    pub max: u32,
}

impl SideField {
    /// "Panic level must be a whole number from 0 to 10,000.": what the field takes, said the
    /// same way wherever it is refused.
    pub fn bounds_words(&self) -> String {
        crate::error::whole_number_words(&self.label, i64::from(self.min), i64::from(self.max))
    }
}

/// A battle begun: every side's numbers within their fields' bounds (the side fields are what
/// its system asks; a number it does not ask is left as given). Checked when a battle begins, not
/// as a stored one folds, so an older battle file opens as it was written.
pub fn check_side_fields(
    fields: &[SideField],
    sides: &[crate::state::SideSetup],
) -> Result<(), crate::error::RefereeError> {
    for (i, side) in sides.iter().enumerate() {
        for field in fields {
            let Some(n) = side.number(&field.key) else {
                continue;
            };
            if !(field.min..=field.max).contains(&n) {
                return Err(crate::error::RefereeError::new(
                    crate::ErrorCode::BattleInvalidSetup,
                    format!(
                        "{} ({} is not).",
                        field.bounds_words().trim_end_matches('.'),
                        crate::error::grouped(i64::from(n))
                    ),
                )
                .field(format!("sides[{i}].{}", field.key))
                .rule(field.rule.clone()));
            }
        }
    }
    Ok(())
}

/// One phase of a player turn, as ruleset data, so the app can walk the umpire through a turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize, schemars::JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct Phase {
    pub key: String,
    pub name: String,
    pub rule: String,
    /// The actions the phase offers, in the order they usually come.
    pub actions: Vec<String>,
    /// What happens in the phase, in order.
    pub steps: Vec<PhaseStep>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize, schemars::JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct PhaseStep {
    pub text: String,
    pub rule: String,
    /// The action that resolves this step, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub action: Option<String>,
}

/// The values of one situation field, each with its label.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct ChoiceList {
    pub field: String,
    pub options: Vec<Choice>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct Choice {
    pub key: String,
    pub label: String,
}
