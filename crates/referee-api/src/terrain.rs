//! The terrain the umpire last gave each hex (issue 31 item 4): every labelled part of an applied
//! situation with a terrain — a defending hex's woods, a target in mud —, read from the battle's
//! stored situations of the results in force, so a fight opened there again starts with it, the
//! battle reopened after a restart included. Nothing is kept beside the events: an undo forgets
//! what its result gave.

use std::collections::BTreeMap;

use serde_json::Value;

/// A stored result's detail, of which only its situation is read.
#[derive(serde::Deserialize)]
pub struct AppliedSituation {
    #[serde(default)]
    pub situation: Value,
}

/// Hex label → terrain key.
pub type Terrains = BTreeMap<String, String>;

fn walk(value: &mut Value, visit: &mut impl FnMut(&mut serde_json::Map<String, Value>)) {
    match value {
        Value::Array(items) => items.iter_mut().for_each(|v| walk(v, visit)),
        Value::Object(part) => {
            visit(part);
            part.values_mut().for_each(|v| walk(v, visit));
        }
        _ => {}
    }
}

/// Adds the terrain each labelled hex of `situation` was given; a later situation's wins. Read
/// in place: nothing of the situation is copied but the labels and terrains.
pub fn remember(terrains: &mut Terrains, situation: &Value) {
    match situation {
        Value::Array(items) => items.iter().for_each(|v| remember(terrains, v)),
        Value::Object(part) => {
            if let (Some(Value::String(label)), Some(Value::String(terrain))) =
                (part.get("label"), part.get("terrain"))
            {
                if !label.is_empty() && !terrain.is_empty() {
                    terrains.insert(label.clone(), terrain.clone());
                }
            }
            part.values().for_each(|v| remember(terrains, v));
        }
        _ => {}
    }
}

/// The situation with each labelled hex given the terrain remembered for it.
pub fn given(situation: &mut Value, terrains: &Terrains) {
    walk(situation, &mut |part| {
        let known = match part.get("label") {
            Some(Value::String(label)) => terrains.get(label),
            _ => None,
        };
        if let (Some(known), Some(Value::String(_))) = (known, part.get("terrain")) {
            part.insert("terrain".into(), Value::String(known.clone()));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_last_terrain_given_to_a_hex_opens_its_next_fight() {
        let mut t = Terrains::new();
        remember(
            &mut t,
            &json!({"defenders": [{"label": "18.04", "terrain": "forest"}], "target": {"label": "", "terrain": "mud"}}),
        );
        remember(
            &mut t,
            &json!({"target": {"label": "18.04", "terrain": "hills"}}),
        );
        assert_eq!(t, Terrains::from([("18.04".into(), "hills".into())]));
        let mut next = json!({"defenders": [{"label": "18.04", "terrain": "clear"}, {"label": "19.04", "terrain": "clear"}], "units": [{"label": "18.04"}]});
        given(&mut next, &t);
        assert_eq!(
            next,
            json!({"defenders": [{"label": "18.04", "terrain": "hills"}, {"label": "19.04", "terrain": "clear"}], "units": [{"label": "18.04"}]})
        );
    }
}
