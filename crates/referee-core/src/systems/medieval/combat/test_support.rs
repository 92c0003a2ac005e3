//! Situations the combat steps' tests share.

use serde_json::{json, Value};

use super::effects::Aftermath;
use super::modifiers::{self, Cms};
use super::strength::{self, Fighters};
use super::table::Table;
use super::CombatSituation;
use crate::contract::Note;
use crate::systems::medieval::data::MedievalData;

pub fn situation(v: Value) -> CombatSituation {
    serde_json::from_value(v).unwrap()
}

/// 5.1.1: cavalry of 2 SPs with CF 2 and 3, armour 2 and 1, attack across a stream a 2-SP light
/// cavalry with CF 1.
pub fn example_5_1_1() -> CombatSituation {
    situation(json!({
        "attackers": [
            { "stream": true, "units": [{ "type": "heavy_cavalry", "sp": 2, "cf": 2 }] },
            { "stream": true, "units": [{ "type": "cavalry", "sp": 2, "cf": 3 }] }
        ],
        "defenders": [{ "terrain": "stream", "units": [{ "type": "light_cavalry", "sp": 2, "cf": 1 }] }]
    }))
}

/// A fight counted up to its modifiers, as the steps after them take it.
pub struct Counted<'s> {
    pub attackers: Fighters<'s>,
    pub defenders: Fighters<'s>,
    pub cms: Cms,
    pub notes: Vec<Note>,
}

impl Counted<'_> {
    pub fn sides(&self) -> [&Fighters<'_>; 2] {
        [&self.attackers, &self.defenders]
    }
}

pub fn counted<'s>(data: &MedievalData, s: &'s CombatSituation) -> Counted<'s> {
    let mut notes = Vec::new();
    let (defenders, hexes) = strength::defenders(data, s, &mut notes).unwrap();
    let ground = strength::Ground::of(&hexes, &mut notes);
    let (attackers, rear) = strength::attackers(data, s, &ground, &mut notes).unwrap();
    let cms = modifiers::combat_modifiers(
        data,
        s,
        [&attackers, &defenders],
        ground.counted,
        rear,
        &mut notes,
    )
    .unwrap();
    Counted {
        attackers,
        defenders,
        cms,
        notes,
    }
}

/// What any result of a counted fight does, and the table read on the named column.
pub fn read_on<'d>(
    data: &'d MedievalData,
    s: &CombatSituation,
    fight: &Counted,
    column: &str,
) -> (Aftermath<'d>, Table<'d>) {
    let after = Aftermath::of(data, s, fight.sides(), &fight.cms).unwrap();
    let at = data
        .combat
        .columns
        .iter()
        .position(|k| k == column)
        .unwrap();
    (after, Table::read(data, at).unwrap())
}
