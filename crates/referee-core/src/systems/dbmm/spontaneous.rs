//! Spontaneous advance (p. 30) and threat zones (p. 32), from `[spontaneous]` and `[threat_zone]`
//! of `rulesets/dbmm-tables.toml` (read by R-DBMM-45): at the start of a bound, the elements of the
//! side whose bound it is that must advance without PIPs — impetuous troops, and any the umpire
//! names for a cause the sheet lists —, those excused and what halting each costs (p. 27); and
//! whether an element is in an enemy's threat zone, with the moves it may then make.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::data::DbmmData;
use super::element::{self, Element};
use crate::contract::{Check, CheckStatus, Note, Resolution, Total};
use crate::error::RefereeError;
use crate::ErrorCode;

/// A cause or an excuse the sheet lists, with its key.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Listed {
    pub key: String,
    pub text: String,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SpontaneousTable {
    pub rule: String,
    pub ruling: String,
    /// What moves impetuous troops spontaneously, besides their type.
    pub causes: Vec<Listed>,
    /// "Advance spontaneously unless …".
    pub excused: Vec<Listed>,
    /// The PIP cost the halt is (an id of the PIP costs) and the Irr addition to it.
    pub halt_cost: String,
    pub irr_halt: String,
    /// Elements never halted by PIPs once moved spontaneously.
    pub never_halted: String,
    pub directions: Vec<String>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ThreatZoneTable {
    pub rule: String,
    pub ruling: String,
    /// Paces forward of the front edge.
    pub depth: i64,
    /// Elements whose threat zone is ineffective.
    pub ineffective_by: String,
    /// What makes a threat zone ineffective, besides the element.
    pub ineffective: Vec<Listed>,
    /// The moves an element starting in or entering a threat zone may make.
    pub moves: Vec<String>,
}

/// An element of the bound's side, as the umpire sees it at the start of the bound.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Liable {
    pub element: Element,
    /// What moves it to advance, besides being impetuous.
    #[serde(default)]
    pub causes: Vec<String>,
    /// Why it does not advance.
    #[serde(default)]
    pub excused: Vec<String>,
    /// It has already moved spontaneously this battle.
    #[serde(default)]
    pub moved_spontaneously: bool,
    /// Halting it is an Irr halt that costs more (not beyond a river, uphill of the nearest enemy,
    /// or foot in rough or difficult going).
    #[serde(default)]
    pub irr_halt_costs_more: bool,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SpontaneousSituation {
    /// The elements that may be liable to advance.
    pub elements: Vec<Liable>,
}

fn unknown(list: &[Listed], key: &str, field: String, rule: &str) -> Result<(), RefereeError> {
    if list.iter().any(|l| l.key == key) {
        return Ok(());
    }
    let texts: Vec<String> = list.iter().map(|l| l.text.clone()).collect();
    Err(RefereeError::new(
        ErrorCode::SituationInvalidField,
        format!(
            "{} is not one the sheet lists: {}",
            crate::error::given(key),
            crate::error::or_list(&texts)
        ),
    )
    .field(field)
    .rule(rule))
}

fn text<'l>(list: &'l [Listed], key: &'l str) -> &'l str {
    list.iter()
        .find(|l| l.key == key)
        .map_or(key, |l| l.text.as_str())
}

/// The PIPs to halt one element: the halt's cost and the Irr addition (p. 27).
fn halt_pips(data: &DbmmData, liable: &Liable) -> i64 {
    let t = &data.spontaneous;
    let base = data
        .pips
        .costs
        .iter()
        .find(|c| c.id == t.halt_cost)
        .map_or(1, |c| c.cost);
    let irr = data
        .pips
        .modifiers
        .iter()
        .find(|m| m.id == t.irr_halt)
        .map_or(0, |m| m.value);
    base + if liable.element.irr && liable.irr_halt_costs_more {
        irr
    } else {
        0
    }
}

pub fn spontaneous_advance(
    data: &DbmmData,
    s: &SpontaneousSituation,
) -> Result<Resolution, RefereeError> {
    let t = &data.spontaneous;
    let rule = t.rule.as_str();
    let mut checks = Vec::new();
    let mut totals = Vec::new();
    let mut advancing = Vec::new();
    for (i, liable) in s.elements.iter().enumerate() {
        let checked = element::check(data, &liable.element, &format!("elements[{i}].element"))?;
        for (j, c) in liable.causes.iter().enumerate() {
            unknown(&t.causes, c, format!("elements[{i}].causes[{j}]"), rule)?;
        }
        for (j, e) in liable.excused.iter().enumerate() {
            unknown(&t.excused, e, format!("elements[{i}].excused[{j}]"), rule)?;
        }
        let name = checked.element.label();
        let impetuous = super::outcome::impetuous(data, &checked);
        let mut why: Vec<String> = Vec::new();
        if impetuous {
            why.push(format!("impetuous ({})", data.pursuit.impetuous_rule));
        }
        why.extend(liable.causes.iter().map(|c| text(&t.causes, c).to_string()));
        if why.is_empty() {
            totals.push(Total::new(&name, "not liable", rule, Some(&t.ruling)));
            continue;
        }
        if let Some(e) = liable.excused.first() {
            checks.push(Check::holds(
                format!(
                    "{name} advances spontaneously unless {}",
                    text(&t.excused, e)
                ),
                false,
                rule,
            ));
            totals.push(Total::new(&name, "excused", rule, Some(&t.ruling)));
            continue;
        }
        let never = liable.moved_spontaneously
            && data
                .selector(&t.never_halted)
                .matches(&checked.own_traits(data));
        let halt = if never {
            "may not be halted: it has moved spontaneously".to_string()
        } else {
            format!("halted for {} PIP", halt_pips(data, liable))
        };
        checks.push(Check::holds(
            format!(
                "{name} must advance spontaneously ({}) unless {halt}",
                why.join("; ")
            ),
            true,
            rule,
        ));
        totals.push(Total::new(&name, "advances", rule, Some(&t.ruling)));
        advancing.push((
            name,
            if never {
                None
            } else {
                Some(halt_pips(data, liable))
            },
        ));
    }
    let names: Vec<String> = advancing.iter().map(|(n, _)| n.clone()).collect();
    let halting: i64 = advancing.iter().filter_map(|(_, p)| *p).sum();
    let (result, words) = if advancing.is_empty() {
        (
            "none_advance",
            "No element must advance spontaneously this bound.".to_string(),
        )
    } else {
        (
            "advance",
            format!(
                "Must advance spontaneously: {}. Halting {} costs {halting} PIP.",
                crate::error::and_list(&names.iter().map(String::as_str).collect::<Vec<_>>()),
                if names.len() == 1 { "it" } else { "them all" },
            ),
        )
    };
    let mut r = Resolution::certain(
        &data.system.id,
        "spontaneous_advance",
        result,
        &words,
        Vec::new(),
    );
    r.totals = totals;
    r.checks = checks
        .into_iter()
        .map(|c: Check| c.ruling(Some(&t.ruling)))
        .collect();
    for d in &t.directions {
        r.notes.push(Note::new(d.clone(), rule, Some(&t.ruling)));
    }
    Ok(r)
}

/// An element and the enemy whose threat zone it may be in.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ThreatZoneSituation {
    /// The element moving.
    pub element: Element,
    /// The enemy whose threat zone it is.
    pub enemy: Element,
    /// Paces from the enemy's front edge.
    pub paces: i64,
    /// What stands between them or befalls the enemy.
    #[serde(default)]
    pub ineffective: Vec<String>,
    /// The enemy is routing.
    #[serde(default)]
    pub enemy_routing: bool,
}

pub fn threat_zone(data: &DbmmData, s: &ThreatZoneSituation) -> Result<Resolution, RefereeError> {
    let t = &data.threat_zone;
    let rule = t.rule.as_str();
    let me = element::check(data, &s.element, "element")?;
    let enemy = element::check(data, &s.enemy, "enemy")?;
    if s.paces < 0 {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidRange,
            format!("a distance is 0 paces or more, not {}", s.paces),
        )
        .field("paces")
        .rule(rule));
    }
    for (j, e) in s.ineffective.iter().enumerate() {
        unknown(&t.ineffective, e, format!("ineffective[{j}]"), rule)?;
    }
    let (name, ename) = (me.element.label(), enemy.element.label());
    let mut checks = vec![
        Check::holds(
            format!(
                "Within {}p forward of the enemy's front edge (here {}p)",
                t.depth, s.paces
            ),
            s.paces <= t.depth,
            rule,
        ),
        Check::holds(
            format!(
                "{ename} is not {} nor routing, whose zones are ineffective",
                t.ineffective_by
            ),
            !data
                .selector(&t.ineffective_by)
                .matches(&enemy.own_traits(data))
                && !s.enemy_routing,
            rule,
        ),
    ];
    for e in &s.ineffective {
        checks.push(Check::holds(
            format!("Not ineffective: {}", text(&t.ineffective, e)),
            false,
            rule,
        ));
    }
    let inside = checks.iter().all(|c| c.status == CheckStatus::Met);
    let mut r = Resolution::certain(
        &data.system.id,
        "threat_zone",
        if inside {
            "in_threat_zone"
        } else {
            "not_in_threat_zone"
        },
        &if inside {
            format!("{name} is in the threat zone of {ename}: it may only make the moves listed.")
        } else {
            format!("{name} is not held by the threat zone of {ename}.")
        },
        Vec::new(),
    );
    r.totals.push(Total::new(
        "Threat zone",
        format!("{}p", t.depth),
        rule,
        Some(&t.ruling),
    ));
    r.checks = checks
        .into_iter()
        .map(|c| c.ruling(Some(&t.ruling)))
        .collect();
    if inside {
        for m in &t.moves {
            r.checks
                .push(Check::umpire(m.clone(), rule).ruling(Some(&t.ruling)));
        }
    }
    Ok(r)
}

/// The spontaneous advance opened from the battle at the start of a bound: the elements in play
/// of the side whose bound it is that are impetuous, each excused if its command is
/// disheartened (p. 30); the other causes are the umpire's to add.
pub fn open_battle(
    data: &DbmmData,
    state: &crate::state::BattleState,
) -> Result<crate::rule_system::Opening, RefereeError> {
    use super::morale::{CommandState, ElementState};
    use super::roster::DbmmElement;
    let Some(side) = super::pips::bound_side(state) else {
        return Err(crate::rule_system::fight::not_a_combat(
            "spontaneous advance",
        ));
    };
    let commands = super::standing::command_states(data, state, &side.name);
    let mut elements = Vec::new();
    for unit in state.units.values().filter(|u| u.side == side.name) {
        let Some(own) = unit.detail::<DbmmElement>() else {
            continue;
        };
        let now = own.now(&unit.label);
        let impetuous = element::check(data, &now, "element")
            .map(|c| super::outcome::impetuous(data, &c))
            .unwrap_or(false);
        if own.state != ElementState::InPlay || !impetuous {
            continue;
        }
        let command = super::standing::command_of(unit);
        let command_state = commands
            .iter()
            .find(|(name, _)| *name == command)
            .map_or(CommandState::Steady, |(_, s)| *s);
        if matches!(
            command_state,
            CommandState::Broken | CommandState::Shattered
        ) {
            // A broken command's elements rout (p. 43): they do not advance.
            continue;
        }
        let disheartened = command_state == CommandState::Disheartened;
        let mut entry = serde_json::json!({ "element": now });
        if disheartened {
            entry["excused"] = serde_json::json!(["disheartened"]);
        }
        elements.push(entry);
    }
    let asks = vec![format!(
        "Bound {} is the {}: its impetuous elements are listed. Add any other that sees a broken enemy or a feigned flight, and tick what excuses one ({}).",
        state.turn.max(1),
        crate::error::possessive(&side.name),
        data.spontaneous.rule
    )];
    crate::rule_system::Opening::new(
        &serde_json::json!({ "elements": elements }),
        Default::default(),
        asks,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn advance(elements: serde_json::Value) -> Result<Resolution, RefereeError> {
        let data = super::super::test_data();
        let s: SpontaneousSituation =
            serde_json::from_value(json!({ "elements": elements })).unwrap();
        spontaneous_advance(&data, &s)
    }

    #[test]
    fn impetuous_troops_and_the_causes_listed_advance_unless_excused() {
        // p. 30: Irr Wb is impetuous; a Reg Bd advances only for a cause the sheet lists; a
        // disheartened command's Irr Kn is excused; Exp once moved spontaneously is not halted.
        let r = advance(json!([
            { "element": { "type": "Wb", "grade": "O", "irr": true, "name": "Gaesatae" } },
            { "element": { "type": "Wb", "grade": "O", "irr": true, "name": "Boii" }, "irr_halt_costs_more": true },
            { "element": { "type": "Bd", "grade": "O", "name": "Hastati" } },
            { "element": { "type": "Bd", "grade": "O", "name": "Principes" }, "causes": ["broken_enemy"] },
            { "element": { "type": "Kn", "grade": "O", "irr": true, "name": "Nobles" }, "excused": ["disheartened"] },
            { "element": { "type": "Exp", "grade": "O", "name": "Chariots" }, "moved_spontaneously": true },
        ]))
        .unwrap();
        let totals: Vec<(&str, &str)> = r
            .totals
            .iter()
            .map(|t| (t.label.as_str(), t.value.as_str()))
            .collect();
        assert_eq!(
            totals,
            [
                ("Gaesatae", "advances"),
                ("Boii", "advances"),
                ("Hastati", "not liable"),
                ("Principes", "advances"),
                ("Nobles", "excused"),
                ("Chariots", "advances"),
            ]
        );
        let outcome = r.outcome.unwrap();
        assert_eq!(outcome.result, "advance");
        // 1 PIP each to halt (p. 27), +1 for the Irr halt that costs more; Exp not at all.
        assert_eq!(
            outcome.meaning,
            "Must advance spontaneously: Gaesatae, Boii, Principes and Chariots. Halting them all costs 4 PIP."
        );
        let labels: Vec<&str> = r.checks.iter().map(|c| c.label.as_str()).collect();
        assert!(labels.contains(&"Nobles advances spontaneously unless of a disheartened command"));
        assert!(labels.contains(&"Chariots must advance spontaneously (impetuous (p. 30)) unless may not be halted: it has moved spontaneously"));
        assert!(r
            .checks
            .iter()
            .all(|c| c.rule == "p. 30" && c.ruling.as_deref() == Some("R-DBMM-45")));
        assert_eq!(r.notes.len(), 3);
    }

    #[test]
    fn nothing_liable_and_an_unknown_cause() {
        let r = advance(json!([{ "element": { "type": "Sp", "grade": "O" } }])).unwrap();
        assert_eq!(
            r.outcome.unwrap().meaning,
            "No element must advance spontaneously this bound."
        );
        let e =
            advance(json!([{ "element": { "type": "Sp", "grade": "O" }, "causes": ["bored"] }]))
                .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("elements[0].causes[0]"));
        assert!(
            e.message
                .contains("aware of broken or shattered enemy within 400p"),
            "{}",
            e.message
        );
    }

    #[test]
    fn a_threat_zone_reaches_80p_and_holds_the_moves() {
        let data = super::super::test_data();
        let tz = |enemy: serde_json::Value, paces: i64, extra: serde_json::Value| {
            let mut s = json!({ "element": { "type": "Bd", "grade": "O" }, "enemy": enemy, "paces": paces });
            for (k, v) in extra.as_object().unwrap() {
                s[k] = v.clone();
            }
            let s: ThreatZoneSituation = serde_json::from_value(s).unwrap();
            threat_zone(&data, &s).unwrap()
        };
        let sp = json!({ "type": "Sp", "grade": "O" });
        let cases = [
            (sp.clone(), 80, json!({}), "in_threat_zone"),
            (sp.clone(), 81, json!({}), "not_in_threat_zone"),
            (
                json!({ "type": "Bge", "grade": "O" }),
                40,
                json!({}),
                "not_in_threat_zone",
            ),
            (
                json!({ "type": "Hd", "grade": "I" }),
                40,
                json!({}),
                "not_in_threat_zone",
            ),
            (
                json!({ "type": "Hd", "grade": "O" }),
                40,
                json!({}),
                "in_threat_zone",
            ),
            (
                sp.clone(),
                40,
                json!({ "enemy_routing": true }),
                "not_in_threat_zone",
            ),
            (
                sp.clone(),
                40,
                json!({ "ineffective": ["water"] }),
                "not_in_threat_zone",
            ),
        ];
        for (enemy, paces, extra, result) in cases {
            let r = tz(enemy.clone(), paces, extra.clone());
            assert_eq!(
                r.outcome.as_ref().unwrap().result,
                result,
                "{enemy} {paces} {extra}"
            );
            let moves = r
                .checks
                .iter()
                .filter(|c| c.status == CheckStatus::Umpire)
                .count();
            assert_eq!(moves, if result == "in_threat_zone" { 6 } else { 0 });
        }
        let r = tz(sp, 40, json!({}));
        assert_eq!(
            r.outcome.unwrap().meaning,
            "Bd (O) is in the threat zone of Sp (O): it may only make the moves listed."
        );
    }
}
