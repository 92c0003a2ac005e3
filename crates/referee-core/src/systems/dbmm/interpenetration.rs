//! Interpenetration of friendly troops (p. 32): whether an element moving, recoiling, repulsed,
//! fleeing, routing or advancing spontaneously may pass through a friend, from the table in
//! `[interpenetration]` of `rulesets/dbmm-tables.toml` (read by R-DBMM-43); what a recoil does
//! where it may not pass (push back, or stop where it meets them, p. 40); and what befalls friends
//! that spontaneous or routing troops pass through.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::data::DbmmData;
use super::element::{self, Element};
use crate::contract::{effect, Change, Check, CheckStatus, Note, Resolution, Target, Total};
use crate::error::RefereeError;
use crate::fate::Fate;

/// The move an element is making as it reaches its friends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Passing {
    Moving,
    Recoiling,
    Repulsed,
    Fleeing,
    Routing,
    Spontaneous,
}

impl Passing {
    fn word(self) -> &'static str {
        match self {
            Passing::Moving => "moving",
            Passing::Recoiling => "recoiling",
            Passing::Repulsed => "repulsed",
            Passing::Fleeing => "fleeing",
            Passing::Routing => "routing",
            Passing::Spontaneous => "advancing spontaneously",
        }
    }
}

/// How the friends face, against the element passing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Facing {
    Same,
    Opposite,
    RightAngle,
}

impl Facing {
    fn words(self) -> &'static str {
        match self {
            Facing::Same => "facing the same way",
            Facing::Opposite => "facing the opposite way",
            Facing::RightAngle => "at 90°",
        }
    }
}

/// What befalls friends passed through (p. 32).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PassedThroughFate {
    Flee,
    Follow,
    Spent,
    Recoil,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PassRow {
    pub actor: String,
    pub moves: Vec<Passing>,
    pub through: String,
    pub facing: Vec<Facing>,
    /// What becomes of the friends after, in words.
    #[serde(default)]
    pub then: Option<String>,
    /// Only through friends one element deep.
    #[serde(default)]
    pub one_deep: bool,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PassedThroughRow {
    pub by: String,
    pub friends: String,
    /// The row holds only for impetuous friends not yet moved this bound.
    #[serde(default)]
    pub impetuous_unmoved: bool,
    pub fate: PassedThroughFate,
    pub text: String,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InterpenetrationTable {
    pub rule: String,
    pub recoil_rule: String,
    pub ruling: String,
    pub rows: Vec<PassRow>,
    pub spontaneous_not_through: String,
    pub spontaneous_not_pike_ranks: i64,
    pub pushed_back: String,
    pub flee_from_recoil: String,
    pub passed_through: Vec<PassedThroughRow>,
}

impl InterpenetrationTable {
    /// Every selector with its key path, for the ruleset's checks.
    pub fn selectors(&self) -> Vec<(String, &str)> {
        let mut out: Vec<(String, &str)> = Vec::new();
        for (i, r) in self.rows.iter().enumerate() {
            out.push((format!("interpenetration.rows[{i}].actor"), &r.actor));
            out.push((format!("interpenetration.rows[{i}].through"), &r.through));
        }
        for (i, r) in self.passed_through.iter().enumerate() {
            out.push((format!("interpenetration.passed_through[{i}].by"), &r.by));
            out.push((
                format!("interpenetration.passed_through[{i}].friends"),
                &r.friends,
            ));
        }
        out.push((
            "interpenetration.spontaneous_not_through".into(),
            &self.spontaneous_not_through,
        ));
        out.push(("interpenetration.pushed_back".into(), &self.pushed_back));
        out.push((
            "interpenetration.flee_from_recoil".into(),
            &self.flee_from_recoil,
        ));
        out
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// What the umpire sees where one element reaches a friend.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InterpenetrationSituation {
    /// The element passing.
    pub element: Element,
    /// The friends it reaches, as the umpire enters them (or picked from the roster below).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub friend: Option<Element>,
    /// The friends it reaches, picked by their name on the roster.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub through: Option<String>,
    /// The side's other elements on the table as the roster has them now, by name: read, not
    /// asked.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[schemars(skip)]
    pub friends: BTreeMap<String, Element>,
    /// Its move as it reaches them.
    pub passing: Passing,
    /// How the friends face against it.
    pub facing: Facing,
    /// It moves straight forward or back (a change of direction never passes through).
    #[serde(default = "yes")]
    pub straight: bool,
    /// The friends are in contact with the enemy.
    #[serde(default, skip_serializing_if = "is_false")]
    pub friend_in_contact: bool,
    /// The friends stand in a river.
    #[serde(default, skip_serializing_if = "is_false")]
    pub friend_in_river: bool,
    /// Both march along the same road.
    #[serde(default, skip_serializing_if = "is_false")]
    pub same_road: bool,
    /// It passes only one corner of the friends.
    #[serde(default, skip_serializing_if = "is_false")]
    pub one_corner: bool,
    /// How many elements deep the friends stand.
    #[serde(default = "one")]
    pub friend_deep: i64,
    /// The friends are in close combat.
    #[serde(default, skip_serializing_if = "is_false")]
    pub friend_in_close_combat: bool,
    /// The friends give rear support.
    #[serde(default, skip_serializing_if = "is_false")]
    pub friend_rear_support: bool,
    /// The friends give overlap support.
    #[serde(default, skip_serializing_if = "is_false")]
    pub friend_overlap: bool,
    /// The friends are impetuous.
    #[serde(default, skip_serializing_if = "is_false")]
    pub friend_impetuous: bool,
    /// The friends have moved this bound.
    #[serde(default, skip_serializing_if = "is_false")]
    pub friend_moved: bool,
    /// The friends' command is broken.
    #[serde(default, skip_serializing_if = "is_false")]
    pub friend_broken: bool,
}

fn yes() -> bool {
    true
}

fn one() -> i64 {
    1
}

/// What becomes of the friends an element passes through, pushes back or meets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// It passes through.
    pub passes: bool,
    pub result: &'static str,
    pub words: String,
    /// The friends' fate, if the passing gives them one.
    pub friend_fate: Option<Fate>,
    pub checks: Vec<Check>,
    pub notes: Vec<String>,
}

/// The table's row that lets this element pass through this friend in this move, facing so.
fn allowing_row<'d>(
    data: &'d DbmmData,
    actor: &element::Checked,
    friend: &element::Checked,
    s: &InterpenetrationSituation,
) -> Option<&'d PassRow> {
    let (a, f) = (actor.own_traits(data), friend.own_traits(data));
    data.interpenetration.rows.iter().find(|r| {
        r.moves.contains(&s.passing)
            && r.facing.contains(&s.facing)
            && (!r.one_deep || s.friend_deep <= 1)
            && data.selector(&r.actor).matches(&a)
            && data.selector(&r.through).matches(&f)
    })
}

/// Whether it may pass, and what then befalls the friends or the element (p. 32, p. 40).
pub fn decide(
    data: &DbmmData,
    actor: &element::Checked,
    friend: &element::Checked,
    s: &InterpenetrationSituation,
) -> Verdict {
    let t = &data.interpenetration;
    let rule = t.rule.as_str();
    let (name, fname) = (actor.element.label(), friend.element.label());
    let ftraits = friend.own_traits(data);
    let mut checks = vec![
        Check::holds(
            "The friends are not in contact with the enemy",
            !s.friend_in_contact,
            rule,
        ),
        Check::holds("The friends are not in a river", !s.friend_in_river, rule),
        Check::holds(
            "They are not marching along the same road",
            !s.same_road,
            rule,
        ),
    ];
    let spontaneous = s.passing == Passing::Spontaneous;
    let row = if spontaneous {
        let pikes_deep =
            friend.element.type_code == "Pk" && s.friend_deep >= t.spontaneous_not_pike_ranks;
        checks.push(Check::holds(
            format!(
                "Spontaneous troops pass through any friends but {} and Pk {} or more deep",
                t.spontaneous_not_through, t.spontaneous_not_pike_ranks
            ),
            !data.selector(&t.spontaneous_not_through).matches(&ftraits) && !pikes_deep,
            rule,
        ));
        for (label, held) in [
            ("in close combat", s.friend_in_close_combat),
            ("giving rear support", s.friend_rear_support),
            ("giving overlap support", s.friend_overlap),
            (
                "impetuous and already moved this bound",
                s.friend_impetuous && s.friend_moved,
            ),
        ] {
            checks.push(Check::holds(
                format!("The friends are not {label}"),
                !held,
                rule,
            ));
        }
        None
    } else {
        checks.push(Check::holds(
            "It moves straight forward or back",
            s.straight,
            rule,
        ));
        let row = allowing_row(data, actor, friend, s);
        checks.push(Check::holds(
            format!(
                "The table lets {name} {} pass through {fname} {}",
                s.passing.word(),
                s.facing.words()
            ),
            row.is_some(),
            rule,
        ));
        row
    };
    let mut passes = checks.iter().all(|c| c.status == CheckStatus::Met);
    if s.one_corner && !passes {
        // "Allowed if passing through only 1 corner" (p. 32): the table's limits give way.
        checks.push(Check::holds(
            "It passes through only one corner of the friends",
            true,
            rule,
        ));
        passes = true;
    }
    let mut notes = Vec::new();
    let recoil = matches!(s.passing, Passing::Recoiling | Passing::Repulsed);
    let flees = if !recoil {
        None
    } else if data.selector(&t.flee_from_recoil).matches(&ftraits) {
        Some(format!("{fname} flees out of the way of {name}."))
    } else if actor.element.type_code == "El" {
        Some(format!("{fname}, in the way of a recoiling El, flees."))
    } else {
        None
    };
    if let Some(words) = flees {
        // "Elements that would be passed through or pushed back by recoiling El flee"; "Bge (F/I)
        // always flee out of the way" (p. 40): before any passing.
        return Verdict {
            passes: false,
            result: "friends_flee",
            words,
            friend_fate: Some(Fate::Flee),
            checks,
            notes,
        };
    }
    if let Some(then) = row.and_then(|r| r.then.clone()) {
        notes.push(then);
    }
    if passes {
        let fate = if spontaneous || s.passing == Passing::Routing {
            passed_through(data, actor, friend, s)
        } else {
            None
        };
        let (friend_fate, fate_words) = match fate {
            Some((fate, text)) => (fate, format!(" {text}")),
            None => (None, String::new()),
        };
        return Verdict {
            passes,
            result: "passes_through",
            words: format!("{name} passes through {fname}.{fate_words}"),
            friend_fate,
            checks,
            notes,
        };
    }
    blocked(data, actor, friend, s, checks, notes)
}

/// A friend's fate from spontaneous or routing troops passing through (p. 32): broken friends
/// join behind routers; else the first row of the table that holds (following behind lands
/// nothing on the roster: it is said).
fn passed_through(
    data: &DbmmData,
    actor: &element::Checked,
    friend: &element::Checked,
    s: &InterpenetrationSituation,
) -> Option<(Option<Fate>, String)> {
    if s.passing == Passing::Routing && s.friend_broken {
        return Some((
            Some(Fate::Rout),
            "Broken troops passed through by routers join behind them in rout.".into(),
        ));
    }
    let (a, f) = (actor.own_traits(data), friend.own_traits(data));
    let unmoved_impetuous = s.friend_impetuous && !s.friend_moved;
    let row = data.interpenetration.passed_through.iter().find(|r| {
        (!r.impetuous_unmoved || unmoved_impetuous)
            && data.selector(&r.by).matches(&a)
            && data.selector(&r.friends).matches(&f)
    })?;
    let fate = match row.fate {
        PassedThroughFate::Flee => Some(Fate::Flee),
        PassedThroughFate::Spent => Some(Fate::Spent),
        PassedThroughFate::Recoil => Some(Fate::Recoil),
        PassedThroughFate::Follow => None,
    };
    Some((fate, row.text.clone()))
}

/// Where it may not pass: a recoil pushes back friends facing the same way that can be pushed
/// back, else it ends where it meets them; a recoiling El makes them flee (p. 40). Any other
/// move stops short of them.
fn blocked(
    data: &DbmmData,
    actor: &element::Checked,
    friend: &element::Checked,
    s: &InterpenetrationSituation,
    checks: Vec<Check>,
    mut notes: Vec<String>,
) -> Verdict {
    let t = &data.interpenetration;
    let (name, fname) = (actor.element.label(), friend.element.label());
    let ftraits = friend.own_traits(data);
    let recoil = matches!(s.passing, Passing::Recoiling | Passing::Repulsed);
    let (result, words, fate) = if recoil
        && s.facing == Facing::Same
        && actor.class != super::data::Class::Naval
        && data.selector(&t.pushed_back).matches(&ftraits)
        && !s.friend_in_close_combat
    {
        (
            "pushes_back",
            format!("{name} may not pass through {fname}: it pushes {fname} back as it recoils."),
            None,
        )
    } else if recoil {
        notes.push(
            "An element unable to recoil is penalized in combat (p. 40); a repulse prevented within 160p becomes a recoil."
                .into(),
        );
        (
            "recoil_ends",
            format!("{name} may not pass through nor push back {fname}: its recoil ends where it meets them."),
            None,
        )
    } else if s.passing == Passing::Fleeing {
        // A flight meeting friends it may not pass through or around bursts through them (p. 41).
        (
            "bursts_through",
            format!("{name} may not pass through {fname}: fleeing, it bursts through them; what befalls them is Fleeing through friends (p. 41)."),
            None,
        )
    } else {
        (
            "stops",
            format!("{name} may not pass through {fname}: it stops on meeting them."),
            None,
        )
    };
    Verdict {
        passes: false,
        result,
        words,
        friend_fate: fate,
        checks,
        notes,
    }
}

pub fn interpenetration(
    data: &DbmmData,
    s: &InterpenetrationSituation,
) -> Result<Resolution, RefereeError> {
    let t = &data.interpenetration;
    let actor = element::check(data, &s.element, "element")?;
    let friend = element::check(data, friend_of(s)?, "friend")?;
    if s.friend_deep < 1 {
        return Err(RefereeError::new(
            crate::ErrorCode::SituationInvalidRange,
            format!(
                "friends stand 1 or more elements deep, not {}",
                s.friend_deep
            ),
        )
        .field("friend_deep")
        .rule(t.rule.clone()));
    }
    let v = decide(data, &actor, &friend, s);
    let effects = v
        .friend_fate
        .map(|fate| {
            vec![effect(
                Target::Unit(friend.element.label()),
                Change::ElementFate { fate: fate.into() },
                &t.rule,
                Some(&t.ruling),
            )]
        })
        .unwrap_or_default();
    let mut r = Resolution::certain(
        &data.system.id,
        "interpenetration",
        v.result,
        &v.words,
        effects,
    );
    r.totals.push(Total::new(
        "Move",
        s.passing.word(),
        &t.rule,
        Some(&t.ruling),
    ));
    r.checks = v
        .checks
        .into_iter()
        .map(|c| c.ruling(Some(&t.ruling)))
        .collect();
    let rule = if matches!(s.passing, Passing::Recoiling | Passing::Repulsed) && !v.passes {
        &t.recoil_rule
    } else {
        &t.rule
    };
    for n in v.notes {
        r.notes.push(Note::new(n, rule, Some(&t.ruling)));
    }
    Ok(r)
}

/// The friend reached: the one picked from the roster, else the one entered.
fn friend_of(s: &InterpenetrationSituation) -> Result<&Element, RefereeError> {
    let refuse = |message: String| {
        RefereeError::new(crate::ErrorCode::SituationInvalidField, message)
            .field("through")
            .rule("p. 32")
    };
    match (&s.through, &s.friend) {
        (Some(name), _) if !s.friends.is_empty() => s.friends.get(name).ok_or_else(|| {
            refuse(format!(
                "{name} is not a friend on the table; pick one of {}",
                crate::error::or_list(&s.friends.keys().cloned().collect::<Vec<_>>())
            ))
        }),
        (_, Some(friend)) => Ok(friend),
        _ => Err(refuse(
            "Pick the friend it reaches (open it from the element's row), or enter it".into(),
        )
        .field("friend")),
    }
}

/// "Pass through…" opened from an element's row: the element as it is now, and its side's other
/// elements on the table to pick the friend from, each a target of what befalls it (p. 32).
pub fn open_unit(
    data: &DbmmData,
    state: &crate::state::BattleState,
    unit: &crate::state::UnitState,
) -> Result<crate::rule_system::Opening, RefereeError> {
    use super::roster::DbmmElement;
    use crate::contract::target_key;
    let Some(own) = unit.detail::<DbmmElement>() else {
        return Err(crate::rule_system::fight::not_a_combat("interpenetration"));
    };
    let friends: BTreeMap<String, (crate::state::UnitId, Element)> = state
        .units
        .values()
        .filter(|u| u.side == unit.side && u.id != unit.id && !u.lost)
        .filter_map(|u| {
            Some((
                u.label.clone(),
                (u.id, u.detail::<DbmmElement>()?.now(&u.label)),
            ))
        })
        .collect();
    let Some(first) = friends.keys().next().cloned() else {
        return Err(RefereeError::new(
            crate::ErrorCode::FightNotAUnit,
            format!("{} has no friend on the table to pass through.", unit.label),
        )
        .rule(data.interpenetration.rule.clone()));
    };
    let mut targets =
        BTreeMap::from([(target_key(&Target::Unit(unit.label.clone())), vec![unit.id])]);
    for (label, (id, _)) in &friends {
        targets.insert(target_key(&Target::Unit(label.clone())), vec![*id]);
    }
    let choices = vec![crate::rule_system::ChoiceList {
        field: "through".into(),
        options: friends
            .iter()
            .map(|(label, (_, e))| crate::rule_system::Choice {
                key: label.clone(),
                label: format!("{label} ({} ({}))", e.type_code, e.grade),
            })
            .collect(),
    }];
    let labels = BTreeMap::from([(
        "through".to_string(),
        format!("The friends {} reaches", unit.label),
    )]);
    let situation = InterpenetrationSituation {
        element: own.now(&unit.label),
        friend: None,
        through: Some(first),
        friends: friends.into_iter().map(|(k, (_, e))| (k, e)).collect(),
        passing: Passing::Moving,
        facing: Facing::Same,
        straight: true,
        friend_in_contact: false,
        friend_in_river: false,
        same_road: false,
        one_corner: false,
        friend_deep: 1,
        friend_in_close_combat: false,
        friend_rear_support: false,
        friend_overlap: false,
        friend_impetuous: false,
        friend_moved: false,
        friend_broken: false,
    };
    crate::rule_system::Opening::new(&situation, targets, Vec::new())
        .map(|o| o.worded(choices, labels))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn resolve(situation: serde_json::Value) -> Resolution {
        let data = super::super::test_data();
        let s: InterpenetrationSituation = serde_json::from_value(situation).unwrap();
        interpenetration(&data, &s).unwrap()
    }

    fn el(code: &str) -> serde_json::Value {
        let (irr, rest) = match code.strip_prefix("Irr ") {
            Some(rest) => (true, rest),
            None => (false, code),
        };
        let (t, g) = rest.split_once(' ').unwrap();
        json!({ "type": t, "grade": g.trim_matches(['(', ')']), "irr": irr })
    }

    /// Who passes, whom, in which move, facing how, what else holds; the result and the fate
    /// landed on the friends.
    type Case = (
        &'static str,
        &'static str,
        &'static str,
        &'static str,
        serde_json::Value,
        &'static str,
        Option<&'static str>,
    );

    /// p. 32 and p. 40, row by row: who passes whom, in which move, facing how; what follows.
    #[test]
    fn the_table_decides_who_passes_whom() {
        let cases: &[Case] = &[
            // Ps pass through any land friends facing the same or the opposite way.
            (
                "Ps (O)",
                "Bd (O)",
                "moving",
                "same",
                json!({}),
                "passes_through",
                None,
            ),
            (
                "Ps (O)",
                "Kn (S)",
                "fleeing",
                "opposite",
                json!({}),
                "passes_through",
                None,
            ),
            // Mounted (not LH, Exp) not recoiling pass through foot not Pk or Hd.
            (
                "Kn (O)",
                "Bd (O)",
                "moving",
                "same",
                json!({}),
                "passes_through",
                None,
            ),
            (
                "Kn (O)",
                "Pk (O)",
                "moving",
                "same",
                json!({}),
                "stops",
                None,
            ),
            (
                "LH (O)",
                "Bd (O)",
                "moving",
                "same",
                json!({}),
                "stops",
                None,
            ),
            // A flight that may not pass bursts through (p. 41).
            (
                "LH (O)",
                "Bd (O)",
                "fleeing",
                "same",
                json!({}),
                "bursts_through",
                None,
            ),
            // Reg Cv repulsed through Reg Cv facing the same way; Irr Cv may not, and pushes back.
            (
                "Cv (O)",
                "Cv (O)",
                "repulsed",
                "same",
                json!({}),
                "passes_through",
                None,
            ),
            (
                "Irr Cv (O)",
                "Cv (O)",
                "repulsed",
                "same",
                json!({}),
                "pushes_back",
                None,
            ),
            // Reg Bd through Bd, Sp, Pk; Ax and Bw (not X) through Bd facing the same way.
            (
                "Bd (O)",
                "Pk (O)",
                "recoiling",
                "opposite",
                json!({}),
                "passes_through",
                None,
            ),
            (
                "Ax (S)",
                "Bd (O)",
                "moving",
                "same",
                json!({}),
                "passes_through",
                None,
            ),
            (
                "Ax (S)",
                "Bd (O)",
                "moving",
                "opposite",
                json!({}),
                "stops",
                None,
            ),
            (
                "Bw (O)",
                "Bd (O)",
                "moving",
                "same",
                json!({}),
                "passes_through",
                None,
            ),
            (
                "Bw (X)",
                "Bd (O)",
                "moving",
                "same",
                json!({}),
                "stops",
                None,
            ),
            // Any recoiling passes through Ps.
            (
                "Sp (O)",
                "Ps (O)",
                "recoiling",
                "same",
                json!({}),
                "passes_through",
                None,
            ),
            // Through Train 1 deep even at 90°.
            (
                "Bd (O)",
                "Bge (O)",
                "moving",
                "right_angle",
                json!({}),
                "passes_through",
                None,
            ),
            (
                "Bd (O)",
                "Bge (O)",
                "moving",
                "right_angle",
                json!({ "friend_deep": 2 }),
                "stops",
                None,
            ),
            // A recoil that may not pass: El, WWg, Bge, Naval are not pushed back; it ends there.
            (
                "Irr Bd (O)",
                "El (O)",
                "recoiling",
                "same",
                json!({}),
                "recoil_ends",
                None,
            ),
            (
                "Sp (O)",
                "Sp (O)",
                "recoiling",
                "opposite",
                json!({}),
                "recoil_ends",
                None,
            ),
            // Friends in the way of a recoiling El flee; Bge (F/I) flee out of the way.
            (
                "El (O)",
                "Bd (O)",
                "recoiling",
                "same",
                json!({}),
                "friends_flee",
                Some("flee"),
            ),
            (
                "Sp (O)",
                "Bge (F)",
                "recoiling",
                "same",
                json!({}),
                "friends_flee",
                Some("flee"),
            ),
            // Not through friends in contact with the enemy, in a river, along the same road…
            (
                "Ps (O)",
                "Bd (O)",
                "moving",
                "same",
                json!({ "friend_in_contact": true }),
                "stops",
                None,
            ),
            // … unless it passes only one corner.
            (
                "Kn (O)",
                "Pk (O)",
                "moving",
                "same",
                json!({ "one_corner": true }),
                "passes_through",
                None,
            ),
            (
                "Ps (O)",
                "Bd (O)",
                "moving",
                "same",
                json!({ "straight": false }),
                "stops",
                None,
            ),
            // Spontaneous troops pass through any not El or Pk 3 deep, if the friends are free.
            (
                "Wb (O)",
                "Bd (O)",
                "spontaneous",
                "same",
                json!({}),
                "passes_through",
                Some("recoil"),
            ),
            (
                "Kn (O)",
                "Bd (O)",
                "spontaneous",
                "same",
                json!({}),
                "passes_through",
                Some("spent"),
            ),
            (
                "El (O)",
                "Ax (O)",
                "spontaneous",
                "same",
                json!({}),
                "passes_through",
                Some("flee"),
            ),
            (
                "Kn (O)",
                "Wb (O)",
                "spontaneous",
                "same",
                json!({ "friend_impetuous": true }),
                "passes_through",
                None,
            ),
            (
                "Kn (O)",
                "El (O)",
                "spontaneous",
                "same",
                json!({}),
                "stops",
                None,
            ),
            (
                "Kn (O)",
                "Pk (O)",
                "spontaneous",
                "same",
                json!({ "friend_deep": 3 }),
                "stops",
                None,
            ),
            (
                "Kn (O)",
                "Pk (O)",
                "spontaneous",
                "same",
                json!({ "friend_deep": 2 }),
                "passes_through",
                Some("spent"),
            ),
            (
                "Kn (O)",
                "Bd (O)",
                "spontaneous",
                "same",
                json!({ "friend_rear_support": true }),
                "stops",
                None,
            ),
            // Routers through friends: broken friends join behind in rout.
            (
                "Ps (O)",
                "Bd (O)",
                "routing",
                "same",
                json!({ "friend_broken": true }),
                "passes_through",
                Some("rout"),
            ),
            (
                "Ps (O)",
                "Bd (O)",
                "routing",
                "same",
                json!({}),
                "passes_through",
                Some("recoil"),
            ),
        ];
        for (actor, friend, passing, facing, extra, result, fate) in cases {
            let mut s = json!({
                "element": el(actor), "friend": el(friend), "passing": passing, "facing": facing
            });
            for (k, v) in extra.as_object().unwrap() {
                s[k] = v.clone();
            }
            let r = resolve(s);
            let case = format!("{actor} {passing} through {friend} {facing} {extra}");
            assert_eq!(
                r.outcome.as_ref().unwrap().result,
                *result,
                "{case}: {}",
                r.outcome.as_ref().unwrap().meaning
            );
            let landed: Vec<String> = r
                .outcome
                .as_ref()
                .unwrap()
                .effects
                .iter()
                .map(|e| {
                    serde_json::to_value(&e.change).unwrap()["fate"]
                        .as_str()
                        .unwrap_or("")
                        .to_string()
                })
                .collect();
            assert_eq!(
                landed,
                fate.map(|f| vec![f.to_string()]).unwrap_or_default(),
                "{case}"
            );
            assert!(r.checks.iter().all(|c| c.rule == "p. 32"), "{case}");
        }
    }

    #[test]
    fn it_says_why_in_words_and_cites_its_ruling() {
        let r = resolve(json!({
            "element": el("Kn (O)"), "friend": el("Pk (O)"), "passing": "moving", "facing": "same"
        }));
        assert_eq!(
            r.outcome.unwrap().meaning,
            "Kn (O) may not pass through Pk (O): it stops on meeting them."
        );
        let failed: Vec<&str> = r
            .checks
            .iter()
            .filter(|c| c.status == CheckStatus::NotMet)
            .map(|c| c.label.as_str())
            .collect();
        assert_eq!(
            failed,
            ["The table lets Kn (O) moving pass through Pk (O) facing the same way"]
        );
        assert!(r
            .checks
            .iter()
            .all(|c| c.ruling.as_deref() == Some("R-DBMM-43")));
        let r = resolve(json!({
            "element": el("Irr Bd (O)"), "friend": el("El (O)"), "passing": "recoiling", "facing": "same"
        }));
        assert!(r
            .notes
            .iter()
            .any(|n| n.rule == "p. 40" && n.message.contains("penalized in combat")));
        let data = super::super::test_data();
        let bad: InterpenetrationSituation = serde_json::from_value(json!({
            "element": el("Ps (O)"), "friend": el("Bd (O)"), "passing": "moving", "facing": "same",
            "friend_deep": 0
        }))
        .unwrap();
        let e = interpenetration(&data, &bad).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("friend_deep"));
    }
}
