//! A combat opened from roster picks, as a system sees it: the picked units on each side in their
//! state now, and what the system opens from them (a typed situation, how its effects name the
//! units, what the umpire still has to set).

use std::collections::BTreeMap;

use serde::Serialize;
use ts_rs::TS;

use crate::contract::{target_key, Target};
use crate::error::RefereeError;
use crate::rule_system::ChoiceList;
use crate::state::{BattleState, Detail, UnitId, UnitState};
use crate::ErrorCode;

/// A picked unit, its system's state, and the label it goes by in this fight (its roster label,
/// with its id when two picked units share one, so every effect target names exactly one unit).
#[derive(Clone, Debug)]
pub struct Fighter<'a, U> {
    pub unit: &'a UnitState,
    pub own: &'a U,
    pub label: String,
}

/// Both sides as picked, attackers first, with the contacts picked besides them.
#[derive(Clone, Debug)]
pub struct Sides<'a, U> {
    pub state: &'a BattleState,
    pub attackers: Vec<Fighter<'a, U>>,
    pub defenders: Vec<Fighter<'a, U>>,
    /// Friends directly behind the element fighting in front, of either side (DBMM p. 36, 42).
    pub behind: Vec<Fighter<'a, U>>,
    /// Friends in front-edge contact with the enemy front element's flank or rear (DBMM p. 38).
    pub on_enemy_flank: Vec<Fighter<'a, U>>,
    /// Whose bound it is: the attackers' (true) or the defenders'.
    pub attackers_bound: bool,
    /// A move's places entered, in order, as the umpire names them (an ITACS hex): the system
    /// reads each from the roster. Empty for a fight.
    pub path: Vec<String>,
}

/// What the umpire picks on the roster besides the fighters, each contact once: whose bound it
/// is, friends behind and friends on the enemy's flank (DBMM p. 35–38).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct Contacts {
    /// The side whose bound it is; none: the attackers'.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub bound_of: Option<String>,
    /// Friends directly behind the element fighting in front, of either side.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(optional, as = "Option<Vec<UnitId>>")]
    pub behind: Vec<UnitId>,
    /// Friends in front-edge contact with the enemy front element's flank or rear.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(optional, as = "Option<Vec<UnitId>>")]
    pub on_enemy_flank: Vec<UnitId>,
}

impl Contacts {
    pub fn is_empty(&self) -> bool {
        self.bound_of.is_none() && self.behind.is_empty() && self.on_enemy_flank.is_empty()
    }
}

impl<'a> Sides<'a, Detail> {
    /// The picks in their system's own type: a unit that is not (a leader's row) is refused.
    pub fn typed<U: 'static>(&self) -> Result<Sides<'a, U>, RefereeError> {
        let typed = |fighters: &[Fighter<'a, Detail>]| {
            fighters
                .iter()
                .map(|f| {
                    let own = f.unit.detail::<U>().ok_or_else(|| {
                        RefereeError::new(
                            ErrorCode::FightNotAUnit,
                            format!(
                                "{} is not a unit of this battle's rules: it cannot fight.",
                                f.unit.named()
                            ),
                        )
                    })?;
                    Ok(Fighter {
                        unit: f.unit,
                        own,
                        label: f.label.clone(),
                    })
                })
                .collect::<Result<Vec<_>, RefereeError>>()
        };
        Ok(Sides {
            state: self.state,
            attackers: typed(&self.attackers)?,
            defenders: typed(&self.defenders)?,
            behind: typed(&self.behind)?,
            on_enemy_flank: typed(&self.on_enemy_flank)?,
            attackers_bound: self.attackers_bound,
            path: self.path.clone(),
        })
    }
}

impl<U> Sides<'_, U> {
    /// The attackers belong to the battle's first side.
    pub fn attackers_first(&self) -> bool {
        self.state.sides.first().map(|s| s.name.as_str())
            == Some(self.attackers[0].unit.side.as_str())
    }
}

/// How the system's effects name single units or hexes: the labels of the fighters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Labels {
    /// ITACS, Medieval: each picked unit is a hex (`hex:<label>`).
    Hexes,
    /// GTS, DBMM: `unit:<label>`.
    Units,
    /// The sides only.
    SidesOnly,
}

/// What a system opens: the situation, the roster units each of its effect targets is, and
/// what the umpire still has to set.
pub struct Opening {
    pub situation: serde_json::Value,
    /// Effect target (attacker, defender, hex:<label>, unit:<label>) → the roster units it is.
    pub targets: BTreeMap<String, Vec<UnitId>>,
    pub asks: Vec<String>,
    /// The fight's own values for fields of its situation, naming the picked units (the unit
    /// that gives a side's modifiers): the form offers them by name.
    pub choices: Vec<ChoiceList>,
    /// The fight's own words for fields of its situation, naming the picked units ("Persian
    /// cavalry charged"): the form and its chips say them for the field.
    pub labels: BTreeMap<String, String>,
    /// Lists of the situation picked place by place from the roster (a Medieval retreat route).
    pub places: Vec<PlaceList>,
}

impl Place {
    /// A place of the roster and its typed list item, left without the fields it leaves unset.
    pub fn new(name: &str, words: String, item: &impl Serialize) -> Result<Place, RefereeError> {
        let mut item = serde_json::to_value(item).map_err(|_| not_opened())?;
        strip_nulls(&mut item);
        Ok(Place {
            name: name.to_string(),
            words,
            item,
        })
    }
}

/// A list of the situation the umpire picks place by place, in order, from the roster's places
/// or a new one typed by name (a Medieval side's retreat route, hex by hex).
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct PlaceList {
    /// The list in the situation: its keys, outermost first (`["defender", "retreat_hexes"]`).
    pub path: Vec<String>,
    /// The list in the rules' words ("The Lithuanians' retreat route").
    pub title: String,
    /// The rule it follows…
    pub rule: String,
    /// …and the ruling, if any.
    pub ruling: Option<String>,
    /// The roster's places it may name, each with the item it adds, what stands there filled in.
    pub places: Vec<Place>,
    /// A new place typed by name adds an item with the name under this key.
    pub name_key: String,
}

/// One of the roster's places, and the list item naming it.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct Place {
    /// The place as the roster names it ("13.05").
    pub name: String,
    /// What stands there, in words ("Spears, 2 SPs"; "enemy: Tatars").
    pub words: String,
    /// The list item it adds.
    #[ts(type = "unknown")]
    pub item: serde_json::Value,
}

/// The plain mapping: each side's effects to its picked units, each label to its one unit.
pub fn targets<U>(sides: &Sides<U>, labels: Labels) -> BTreeMap<String, Vec<UnitId>> {
    let ids = |fighters: &[Fighter<U>]| fighters.iter().map(|f| f.unit.id).collect::<Vec<_>>();
    let mut out = BTreeMap::from([
        (target_key(&Target::Attacker), ids(&sides.attackers)),
        (target_key(&Target::Defender), ids(&sides.defenders)),
    ]);
    let contacts = sides.behind.iter().chain(&sides.on_enemy_flank);
    for f in sides
        .attackers
        .iter()
        .chain(&sides.defenders)
        .chain(contacts)
    {
        let target = match labels {
            Labels::Hexes => Target::Hex(f.label.clone()),
            Labels::Units => Target::Unit(f.label.clone()),
            Labels::SidesOnly => continue,
        };
        out.insert(target_key(&target), vec![f.unit.id]);
    }
    out
}

impl Opening {
    /// An opening of a typed situation. Absent optional fields are left out, as the umpire
    /// would leave them, rather than written as nulls.
    pub fn new(
        situation: &impl Serialize,
        targets: BTreeMap<String, Vec<UnitId>>,
        asks: Vec<String>,
    ) -> Result<Opening, RefereeError> {
        let mut situation = serde_json::to_value(situation).map_err(|_| not_opened())?;
        strip_nulls(&mut situation);
        Ok(Opening {
            situation,
            targets,
            asks,
            choices: Vec::new(),
            labels: BTreeMap::new(),
            places: Vec::new(),
        })
    }

    /// The opening with the fight's own values and words for its fields.
    pub fn worded(mut self, choices: Vec<ChoiceList>, labels: BTreeMap<String, String>) -> Opening {
        self.choices = choices;
        self.labels = labels;
        self
    }
}

/// A typed situation always serializes; were it ever not to, the umpire is told plainly.
fn not_opened() -> RefereeError {
    RefereeError::new(
        ErrorCode::FightNotOpened,
        "The combat could not be opened from the roster: enter its situation instead.",
    )
}

fn strip_nulls(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            map.retain(|_, v| !v.is_null());
            map.values_mut().for_each(strip_nulls);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(strip_nulls),
        _ => {}
    }
}

/// The refusal of an action that takes no units from the roster.
pub fn not_a_combat(action_name: &str) -> RefereeError {
    RefereeError::new(
        ErrorCode::FightNotACombat,
        format!("{action_name} takes no sides of roster units: fill in its situation instead."),
    )
    .field("action")
}

/// The refusal of more picks than the action fights with.
pub fn one_each(what: &str, rule: &str) -> RefereeError {
    RefereeError::new(
        ErrorCode::FightOneEach,
        format!("{what}: pick one unit on each side."),
    )
    .rule(rule)
}

/// The default terrain of a situation: clear when the ruleset has it, else its first.
pub fn open_ground<'k>(mut keys: impl Iterator<Item = &'k String> + Clone) -> String {
    keys.clone()
        .find(|k| k.as_str() == "clear")
        .or_else(|| keys.next())
        .cloned()
        .unwrap_or_else(|| "clear".into())
}
