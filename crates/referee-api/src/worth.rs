//! What each box of a situation is worth, in one call: the situation with one box turned over,
//! resolved for every box the form shows (the resolver asked once per box before, each call
//! queued behind the last); and a choice's chips, the situation with the choice set to each
//! chip's value.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::{Referee, RefereeError};
use referee_core::contract::Resolution;
use referee_core::ErrorCode;

/// A situation and the boxes (yes/no fields) to turn over one at a time.
#[derive(Clone, Debug, Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct FlipsRequest {
    pub ruleset: String,
    pub action: String,
    #[ts(type = "unknown")]
    pub situation: Value,
    /// Each box as a JSON pointer into the situation (`/attacker/rear`); a box not in the
    /// situation counts as its schema's default (off unless the schema says on).
    pub boxes: Vec<String>,
    /// One value of a choice to set, each on its own (an ITACS attack from an adjacent wall hex):
    /// answered after the boxes, in this order.
    #[serde(default)]
    #[ts(optional, as = "Option<Vec<Pick>>")]
    pub picks: Vec<Pick>,
}

/// A choice set to one value: its field as a JSON pointer (`/attack_from`) and the value's key.
#[derive(Clone, Debug, Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct Pick {
    pub pointer: String,
    pub value: String,
}

/// The odds with one box turned over: enough to say what the box is worth.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct Flipped {
    /// The box, as the request named it.
    #[serde(rename = "box")]
    #[ts(rename = "box")]
    pub pointer: String,
    /// Whether the box was on in the situation given (a pick: whether the choice held its value).
    pub on: bool,
    /// A pick's value, as the request named it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub value: Option<String>,
    pub total_modifier: i64,
    /// Each result and its chance, as the resolution lists them.
    pub distribution: Vec<ResultChance>,
    /// Each result in words.
    pub names: std::collections::BTreeMap<String, String>,
    /// Turned over, the situation is refused: why, in words.
    #[ts(optional)]
    pub refused: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct ResultChance {
    pub result: String,
    pub p: f64,
}

impl Referee {
    /// Resolves the situation once with each box turned over, then once with each pick set.
    pub fn flips(&self, request: &FlipsRequest) -> Result<Vec<Flipped>, RefereeError> {
        let ruleset = self.ruleset(&request.ruleset)?;
        let schema = ruleset.situation_schema(&request.action)?.to_value();
        // A box or pick that cannot be made is refused on its own; the others still answer.
        let answer = |pointer: &str,
                      value: Option<&str>,
                      changed: Result<(bool, Value), RefereeError>| {
            let mut flipped = match changed {
                Ok((on, situation)) => match ruleset.resolve(&request.action, &situation, None) {
                    Ok(r) => Flipped::of(pointer, on, &r),
                    Err(e) => Flipped::refused(pointer, on, e.message),
                },
                Err(e) => Flipped::refused(pointer, false, e.message),
            };
            flipped.value = value.map(str::to_string);
            flipped
        };
        let boxes = request.boxes.iter().map(|pointer| {
            let mut situation = request.situation.clone();
            let turned = turn_over(&mut situation, pointer, &schema).map(|on| (on, situation));
            answer(pointer, None, turned)
        });
        let picks = request.picks.iter().map(|pick| {
            let mut situation = request.situation.clone();
            let set = set_to(&mut situation, &pick.pointer, &pick.value).map(|on| (on, situation));
            answer(&pick.pointer, Some(&pick.value), set)
        });
        Ok(boxes.chain(picks).collect())
    }
}

impl Flipped {
    fn refused(pointer: &str, on: bool, why: String) -> Flipped {
        Flipped {
            pointer: pointer.to_string(),
            on,
            value: None,
            total_modifier: 0,
            distribution: Vec::new(),
            names: Default::default(),
            refused: Some(why),
        }
    }

    fn of(pointer: &str, on: bool, r: &Resolution) -> Flipped {
        Flipped {
            pointer: pointer.to_string(),
            on,
            value: None,
            total_modifier: r.total_modifier,
            distribution: r
                .distribution
                .iter()
                .map(|d| ResultChance {
                    result: d.result.clone(),
                    p: d.p,
                })
                .collect(),
            names: r.shown.names.clone(),
            refused: None,
        }
    }
}

/// Turns the box at `pointer` over (absent counts as its default in the situation's schema — a
/// DBMM support's "same command" is on unless said otherwise —, and a missing object on the way
/// is made, as the form does when a box is ticked) and says whether it was on.
fn turn_over(situation: &mut Value, pointer: &str, schema: &Value) -> Result<bool, RefereeError> {
    let not_a_box = || {
        RefereeError::new(
            ErrorCode::SituationInvalidField,
            format!("“{pointer}” is not a yes-or-no box of this situation"),
        )
        .field("boxes")
    };
    let (slot, tokens) = slot_at(situation, pointer).ok_or_else(not_a_box)?;
    let on = match slot {
        Value::Bool(b) => *b,
        Value::Null => default_at(schema, schema, &tokens) == Some(&Value::Bool(true)),
        _ => return Err(not_a_box()),
    };
    *slot = Value::Bool(!on);
    Ok(on)
}

/// Sets the choice at `pointer` to `value` (a missing object on the way is made) and says
/// whether it held that value already. The value is checked by resolving, as the form's is.
fn set_to(situation: &mut Value, pointer: &str, value: &str) -> Result<bool, RefereeError> {
    let (slot, _) = slot_at(situation, pointer).ok_or_else(|| {
        RefereeError::new(
            ErrorCode::SituationInvalidField,
            format!("“{pointer}” is not a choice of this situation"),
        )
        .field("picks")
    })?;
    let held = slot.as_str() == Some(value);
    *slot = Value::String(value.to_string());
    Ok(held)
}

/// The field at `pointer` (made null if absent, with any missing object on the way), and the
/// pointer's tokens; none when the pointer runs through a list item not there or a value that
/// holds no fields.
fn slot_at<'v>(situation: &'v mut Value, pointer: &str) -> Option<(&'v mut Value, Vec<String>)> {
    let tokens: Vec<String> = pointer
        .strip_prefix('/')?
        .split('/')
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect();
    let mut slot = situation;
    for token in &tokens {
        slot = match slot {
            Value::Null => {
                *slot = Value::Object(Default::default());
                let Value::Object(map) = slot else {
                    unreachable!("just made an object")
                };
                map.entry(token.clone()).or_insert(Value::Null)
            }
            Value::Object(map) => map.entry(token.clone()).or_insert(Value::Null),
            Value::Array(items) => token.parse::<usize>().ok().and_then(|i| items.get_mut(i))?,
            _ => return None,
        };
    }
    Some((slot, tokens))
}

/// The default the schema gives the field at `tokens`, following its references, lists and
/// optional parts (`anyOf` with null).
fn default_at<'s>(root: &'s Value, at: &'s Value, tokens: &[String]) -> Option<&'s Value> {
    if let Some(reference) = at.get("$ref").and_then(Value::as_str) {
        let target = root.pointer(reference.strip_prefix('#')?)?;
        return default_at(root, target, tokens);
    }
    if let Some(choices) = at.get("anyOf").and_then(Value::as_array) {
        return choices.iter().find_map(|c| default_at(root, c, tokens));
    }
    let Some((first, rest)) = tokens.split_first() else {
        return at.get("default");
    };
    let next = match first.parse::<usize>() {
        Ok(_) if at.get("items").is_some() => at.get("items")?,
        _ => at.get("properties")?.get(first)?,
    };
    default_at(root, next, rest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_box_is_turned_over_where_the_pointer_says_and_absent_counts_as_off() {
        let mut s = json!({ "a": { "rear": true }, "list": [{ "x": false }] });
        assert!(turn_over(&mut s, "/a/rear", &json!({})).unwrap());
        assert_eq!(s["a"]["rear"], false);
        assert!(!turn_over(&mut s, "/list/0/x", &json!({})).unwrap());
        assert_eq!(s["list"][0]["x"], true);
        assert!(!turn_over(&mut s, "/a/stream", &json!({})).unwrap());
        assert_eq!(s["a"]["stream"], true);
        // A box inside an object the situation leaves out: the object is made.
        assert!(!turn_over(&mut s, "/escort/flanked", &json!({})).unwrap());
        assert_eq!(s["escort"], json!({ "flanked": true }));
        for bad in ["", "rear", "/list/7/x", "/a", "/list/0/x/y"] {
            let e = turn_over(&mut s, bad, &json!({})).unwrap_err();
            assert_eq!(e.code, ErrorCode::SituationInvalidField, "{bad}");
        }
        // A field that is no box is refused, not overwritten.
        let mut s = json!({ "range": 3 });
        assert!(turn_over(&mut s, "/range", &json!({})).is_err());
        assert_eq!(s["range"], 3);
    }

    /// The GTS melee of docs/api.md.
    fn base_situation() -> Value {
        json!({
            "side_a": [{ "unit": { "class": "cavalry", "armour": "N", "weapon": "BW", "stands": 3 } }],
            "side_b": [{ "unit": { "class": "cavalry", "armour": "M", "weapon": "LN", "stands": 3 },
                        "first_turn": true }]
        })
    }

    #[test]
    fn each_box_is_worth_what_resolving_it_turned_over_gives() {
        let referee = Referee::builtin();
        let schema = referee.situation_schema("gts", "melee").unwrap();
        let situation = base_situation();
        let boxes = ["/side_a/0/flanked", "/side_b/0/first_turn"];
        let flips = referee
            .flips(&FlipsRequest {
                ruleset: "gts".into(),
                action: "melee".into(),
                situation: situation.clone(),
                boxes: boxes.iter().map(|b| b.to_string()).collect(),
                picks: Vec::new(),
            })
            .unwrap();
        assert_eq!(flips.len(), 2);
        for (flip, pointer) in flips.iter().zip(boxes) {
            let mut turned = situation.clone();
            let on = turn_over(&mut turned, pointer, &schema).unwrap();
            let r = referee
                .resolve(&crate::ResolveRequest {
                    ruleset: "gts".into(),
                    action: "melee".into(),
                    situation: turned,
                    dice: None,
                })
                .unwrap();
            assert_eq!((flip.pointer.as_str(), flip.on), (pointer, on));
            assert_eq!(flip.total_modifier, r.total_modifier, "{pointer}");
            assert_eq!(flip.distribution.len(), r.distribution.len());
            assert!(flip.refused.is_none());
        }
        // Flanked counts against side A: the modifier (A's minus B's) falls.
        let base = referee
            .resolve(&crate::ResolveRequest {
                ruleset: "gts".into(),
                action: "melee".into(),
                situation,
                dice: None,
            })
            .unwrap();
        assert!(flips[0].total_modifier < base.total_modifier);
        assert!(!flips[0].on && flips[1].on);
        // A pointer that is no box is refused on its own; the boxes beside it still answer.
        let mixed = referee
            .flips(&FlipsRequest {
                ruleset: "gts".into(),
                action: "melee".into(),
                situation: base_situation(),
                boxes: vec!["/side_a".into(), "/side_a/0/flanked".into()],
                picks: Vec::new(),
            })
            .unwrap();
        assert!(mixed[0]
            .refused
            .as_deref()
            .unwrap()
            .contains("not a yes-or-no box"));
        assert_eq!(mixed[1].total_modifier, flips[0].total_modifier);
    }

    #[test]
    fn a_box_left_out_counts_as_its_schemas_default() {
        // A DBMM rear support is of the same command, lined up and facing unless the situation
        // says otherwise (p. 36): left out, those boxes are on, and turning one over turns it off.
        let referee = Referee::builtin();
        let schema = referee.situation_schema("dbmm", "close_combat").unwrap();
        let mut s = json!({ "a": { "support": { "ranks": [] } }, "b": {} });
        for field in ["same_command", "lined_up", "facing"] {
            let pointer = format!("/a/support/{field}");
            assert!(turn_over(&mut s, &pointer, &schema).unwrap(), "{field}");
            assert_eq!(s["a"]["support"][field], false);
        }
        // A box whose default is off still counts as off, and so does one the schema does not know.
        assert!(!turn_over(&mut s, "/a/support/army_list_permits", &schema).unwrap());
        assert!(!turn_over(&mut s, "/b/in_bua", &schema).unwrap());
        // ITACS: a unit fires unless it is said not to (4.2).
        let schema = referee.situation_schema("itacs", "missile").unwrap();
        let mut s = json!({ "firing_hexes": [{ "units": [{ "type": "LB" }] }] });
        assert!(turn_over(&mut s, "/firing_hexes/0/units/0/firing", &schema).unwrap());
    }

    #[test]
    fn a_choice_set_to_a_chips_value_is_worth_what_resolving_it_so_gives() {
        // ITACS 3.1.4: a wall hex is attacked only from a ladder, a siege tower or an adjacent
        // wall hex, and from a wall its −6 (10.3) does not apply. From the ground (the default)
        // the fight is refused; each position's odds still come back.
        let referee = Referee::builtin();
        let situation = json!({
            "attackers": [{ "units": [{ "type": "PS" }] }],
            "defenders": [{ "terrain": "wall", "units": [{ "type": "PS" }] }]
        });
        let resolve = |situation: Value| {
            referee.resolve(&crate::ResolveRequest {
                ruleset: "itacs".into(),
                action: "melee".into(),
                situation,
                dice: None,
            })
        };
        assert!(resolve(situation.clone()).is_err());
        let pick = |value: &str| Pick {
            pointer: "/attack_from".into(),
            value: value.into(),
        };
        let answers = referee
            .flips(&FlipsRequest {
                ruleset: "itacs".into(),
                action: "melee".into(),
                situation: situation.clone(),
                boxes: vec!["/defenders/0/stream".into()],
                picks: vec![pick("ground"), pick("ladder_or_tower"), pick("wall")],
            })
            .unwrap();
        assert_eq!(answers.len(), 4);
        // The box comes first, then the picks in order, each naming its value.
        assert_eq!(answers[0].value, None);
        assert_eq!(answers[1].value.as_deref(), Some("ground"));
        assert!(answers[1]
            .refused
            .as_deref()
            .unwrap()
            .contains("can be attacked only from"));
        for answer in &answers[2..] {
            let value = answer.value.clone().unwrap();
            let mut set = situation.clone();
            set["attack_from"] = json!(value);
            let r = resolve(set).unwrap();
            assert!(answer.refused.is_none() && !answer.on, "{value}");
            assert_eq!(answer.total_modifier, r.total_modifier, "{value}");
            let chances: Vec<_> = r
                .distribution
                .iter()
                .map(|d| (d.result.clone(), d.p))
                .collect();
            let answered: Vec<_> = answer
                .distribution
                .iter()
                .map(|d| (d.result.clone(), d.p))
                .collect();
            assert_eq!(answered, chances, "{value}");
        }
        // From the wall, the wall's −6 is gone: six better on the dice than from a ladder.
        assert_eq!(answers[3].total_modifier - answers[2].total_modifier, 6);
        // A choice that already holds the value says so.
        let mut from_wall = situation.clone();
        from_wall["attack_from"] = json!("wall");
        let again = referee
            .flips(&FlipsRequest {
                ruleset: "itacs".into(),
                action: "melee".into(),
                situation: from_wall,
                boxes: vec![],
                picks: vec![
                    pick("wall"),
                    Pick {
                        pointer: "/attackers/9/x".into(),
                        value: "wall".into(),
                    },
                ],
            })
            .unwrap();
        assert!(again[0].on);
        assert!(again[1]
            .refused
            .as_deref()
            .unwrap()
            .contains("not a choice"));
    }
}
