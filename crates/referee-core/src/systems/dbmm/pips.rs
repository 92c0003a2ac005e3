//! PIPs (p. 27): each command's PIP die with the Reg C-in-C's allocation of the highest, next
//! and lowest scores, inert generals, Brilliant Strokes and shattered commands — exactly, over
//! every throw — and the PIP cost of a move or halt as a calculator.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;

use super::data::DbmmData;
use crate::contract::{Chance, Modifier, Note, Outcome, Resolution, ResultOdds, Shown, Total};
use crate::error::RefereeError;
use crate::odds::Probability;
use crate::ErrorCode;

/// Which allocated score a command receives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Allocation {
    Highest,
    Next,
    Lowest,
}

impl Allocation {
    fn word(self) -> &'static str {
        match self {
            Allocation::Highest => "highest",
            Allocation::Next => "next highest",
            Allocation::Lowest => "lowest",
        }
    }
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PipCommand {
    #[serde(default)]
    pub name: String,
    /// The C-in-C's own command.
    #[serde(default)]
    pub c_in_c: bool,
    /// An allied contingent.
    #[serde(default)]
    pub ally: bool,
    /// Its general is Inert.
    #[serde(default)]
    pub inert: bool,
    /// A Brilliant Stroke doubles this command's raw score.
    #[serde(default)]
    pub brilliant_stroke: bool,
    /// Shattered: throws no PIP dice.
    #[serde(default)]
    pub shattered: bool,
    /// The Reg C-in-C's allocation of the dice thrown for the allocated commands.
    #[serde(default)]
    pub allocated: Option<Allocation>,
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PipsSituation {
    pub commands: Vec<PipCommand>,
}

fn name(c: &PipCommand, i: usize) -> String {
    if c.name.is_empty() {
        format!("Command {}", i + 1)
    } else {
        c.name.clone()
    }
}

/// The commands' PIPs for one throw: a die per command that dices, in order.
fn pips_for(data: &DbmmData, s: &PipsSituation, faces: &[i64], inert_c_in_c: bool) -> Vec<i64> {
    let p = &data.pips;
    // Allocated commands share their dice, sorted high to low.
    let dicing: Vec<usize> = (0..s.commands.len())
        .filter(|i| !s.commands[*i].shattered)
        .collect();
    let mut raw: Vec<i64> = vec![0; s.commands.len()];
    let mut pool: Vec<i64> = Vec::new();
    for (k, &i) in dicing.iter().enumerate() {
        if s.commands[i].allocated.is_some() {
            pool.push(faces[k]);
        } else {
            raw[i] = faces[k];
        }
    }
    pool.sort_unstable_by(|a, b| b.cmp(a));
    let mut order: Vec<usize> = dicing
        .iter()
        .copied()
        .filter(|i| s.commands[*i].allocated.is_some())
        .collect();
    let rank = |a: Option<Allocation>| match a {
        Some(Allocation::Highest) => 0,
        Some(Allocation::Next) => 1,
        _ => 2,
    };
    order.sort_by_key(|i| rank(s.commands[*i].allocated));
    for (score, i) in pool.into_iter().zip(order) {
        raw[i] = score;
    }
    s.commands
        .iter()
        .enumerate()
        .map(|(i, c)| {
            if c.shattered {
                return 0;
            }
            let mut v = raw[i];
            if c.brilliant_stroke {
                v *= p.brilliant_factor;
            }
            if inert_c_in_c || (c.inert && c.ally) {
                v -= p.inert_deduct;
            }
            v.max(0)
        })
        .collect()
}

pub fn pips(
    data: &DbmmData,
    s: &PipsSituation,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    let p = &data.pips;
    if s.commands.is_empty() || s.commands.len() > 6 {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidField,
            "an army has 1 to 6 commands to dice for",
        )
        .field("commands")
        .rule(p.rule.clone()));
    }
    if s.commands.iter().filter(|c| c.brilliant_stroke).count() > 1 {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidField,
            "a Brilliant Stroke doubles one raw PIP score",
        )
        .field("commands")
        .rule(p.rule.clone()));
    }
    let allocated: Vec<Allocation> = s.commands.iter().filter_map(|c| c.allocated).collect();
    for a in [Allocation::Highest, Allocation::Next, Allocation::Lowest] {
        if allocated.iter().filter(|x| **x == a).count() > 1 {
            return Err(RefereeError::new(
                ErrorCode::SituationInvalidField,
                format!("only one command is allocated the {} score", a.word()),
            )
            .field("commands")
            .rule(p.allocation_rule.clone()));
        }
    }
    let inert_c_in_c = s.commands.iter().any(|c| c.c_in_c && c.inert);
    let n = s.commands.iter().filter(|c| !c.shattered).count();
    // One die of the ruleset's per command (its checks keep it one die of at most 10 sides).
    let sides = p
        .dice
        .parse::<crate::odds::DiceSpec>()
        .map_err(|e| RefereeError::new(ErrorCode::RulesetInvalid, e))?
        .sides as i64;
    let mut throws: BTreeMap<Vec<i64>, u128> = BTreeMap::new();
    let mut totals: BTreeMap<i64, u128> = BTreeMap::new();
    // Every throw of n dice: at most 6^6 = 46,656 with d6.
    let mut faces = vec![1i64; n];
    loop {
        let got = pips_for(data, s, &faces, inert_c_in_c);
        *totals.entry(got.iter().sum()).or_default() += 1;
        *throws.entry(got).or_default() += 1;
        let mut k = 0;
        while k < n && faces[k] == sides {
            faces[k] = 1;
            k += 1;
        }
        if k == n {
            break;
        }
        faces[k] += 1;
    }
    let whole = (sides as u128).pow(n as u32);
    let distribution = totals
        .iter()
        .map(|(t, w)| {
            ResultOdds::new(
                &t.to_string(),
                &format!("{t} PIPs in all"),
                "—".into(),
                Probability::new(*w, whole),
                Vec::new(),
            )
        })
        .collect();
    let mut forecast = Vec::new();
    for (i, c) in s.commands.iter().enumerate() {
        let mut by: BTreeMap<i64, u128> = BTreeMap::new();
        for (t, w) in &throws {
            *by.entry(t[i]).or_default() += w;
        }
        for (v, w) in by {
            forecast.push(Chance::new(
                format!("{}: {v} PIPs", name(c, i)),
                Probability::new(w, whole),
                &p.rule,
            ));
        }
    }
    let mut modifiers = Vec::new();
    let mut notes = Vec::new();
    for (i, c) in s.commands.iter().enumerate() {
        let who = name(c, i);
        if c.shattered {
            notes.push(Note::new(
                format!("{who} is shattered: it throws no PIP dice"),
                "p. 27, p. 43",
                None,
            ));
        }
        if c.brilliant_stroke {
            modifiers.push(Modifier::new(
                format!(
                    "{who}: Brilliant Stroke multiplies its raw score (a Reg C-in-C's own, or a sub-general's within {}p)",
                    p.brilliant_range_paces
                ),
                p.brilliant_factor,
                &p.rule,
                None,
            ));
        }
        if inert_c_in_c || (c.inert && c.ally) {
            modifiers.push(Modifier::new(
                format!(
                    "{who}: {}",
                    if inert_c_in_c {
                        "Inert C-in-C deducts from every command"
                    } else {
                        "Inert ally general"
                    }
                ),
                -p.inert_deduct,
                &p.rule,
                None,
            ));
        }
        if let Some(a) = c.allocated {
            notes.push(Note::new(
                format!("{who} receives the {} of the allocated scores", a.word()),
                &p.allocation_rule,
                None,
            ));
        }
    }
    if s.commands.iter().any(|c| c.inert && !c.ally && !c.c_in_c) {
        notes.push(Note::new("An Inert sub-general deducts nothing: the sheet names Inert allies and an Inert C-in-C only", &p.rule, Some("R-DBMM-12")));
    }
    let outcome = match dice {
        None => None,
        Some(fs) => {
            if fs.len() != n || fs.iter().any(|f| !(1..=sides).contains(&i64::from(*f))) {
                return Err(RefereeError::new(
                    ErrorCode::DiceInvalid,
                    format!("{n} × {}, one per command that dices (shattered commands throw none), in the order listed", p.dice),
                )
                .field("dice"));
            }
            let faces: Vec<i64> = fs.iter().map(|f| i64::from(*f)).collect();
            let got = pips_for(data, s, &faces, inert_c_in_c);
            let total: i64 = got.iter().sum();
            Some(Outcome {
                dice: fs.to_vec(),
                roll: faces.iter().sum(),
                modified: total,
                result: total.to_string(),
                meaning: s
                    .commands
                    .iter()
                    .enumerate()
                    .map(|(i, c)| format!("{} {}", name(c, i), got[i]))
                    .collect::<Vec<_>>()
                    .join(", "),
                effects: Vec::new(),
                sides: Vec::new(),
            })
        }
    };
    Ok(Resolution {
        shown: Shown::default(),
        system: data.system.id.clone(),
        action: "pips".into(),
        dice: format!("{n}d{sides}"),
        totals: vec![Total::new("Commands dicing", n.to_string(), &p.rule, None)],
        modifiers,
        total_modifier: 0,
        distribution,
        forecast,
        checks: Vec::new(),
        notes,
        outcome,
    })
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PipCostSituation {
    /// What is done (p. 27).
    pub action: String,
    /// The conditions that hold (p. 27), such as night.
    #[serde(default)]
    pub conditions: Vec<String>,
}

pub fn pip_cost(data: &DbmmData, s: &PipCostSituation) -> Result<Resolution, RefereeError> {
    let p = &data.pips;
    let base = p.costs.iter().find(|c| c.id == s.action).ok_or_else(|| {
        RefereeError::new(
            ErrorCode::SituationUnknownPipAction,
            format!(
                "no PIP cost {}; the sheet has {}",
                crate::error::given(&s.action),
                crate::error::choices(p.costs.iter().map(|c| c.id.as_str()))
            ),
        )
        .field("action")
        .rule(p.rule.clone())
    })?;
    let mut modifiers = Vec::new();
    let mut not_applying = Vec::new();
    for (i, id) in s.conditions.iter().enumerate() {
        let m = p.modifiers.iter().find(|m| &m.id == id).ok_or_else(|| {
            RefereeError::new(
                ErrorCode::SituationUnknownPipCondition,
                format!(
                    "no PIP condition {}; the sheet has {}",
                    crate::error::given(id),
                    crate::error::choices(p.modifiers.iter().map(|m| m.id.as_str()))
                ),
            )
            .field(format!("conditions[{i}]"))
            .rule(p.rule.clone())
        })?;
        if s.conditions[..i].contains(id) {
            return Err(RefereeError::new(
                ErrorCode::SituationInvalidField,
                format!(
                    "{} is listed twice: each condition adds once",
                    crate::error::given(id)
                ),
            )
            .field(format!("conditions[{i}]")));
        }
        if m.applies(base.kind) {
            modifiers.push(Modifier::new(
                m.text.clone(),
                m.value,
                &p.rule,
                Some("R-DBMM-12"),
            ));
        } else {
            not_applying.push(Note::new(
                format!(
                    "{} adds nothing here: {} is {}",
                    m.text,
                    super::lower_first(&base.text),
                    base.kind.word()
                ),
                &p.rule,
                Some("R-DBMM-18"),
            ));
        }
    }
    let sum: i64 = modifiers.iter().map(|m| m.value).sum();
    let cost = (base.cost + sum).max(0);
    let mut r = Resolution::certain(
        &data.system.id,
        "pip_cost",
        &cost.to_string(),
        &format!(
            "{}: {cost} PIP{}",
            base.text,
            if cost == 1 { "" } else { "s" }
        ),
        Vec::new(),
    );
    r.totals.push(Total::new(
        "Base cost",
        base.cost.to_string(),
        &p.rule,
        Some("R-DBMM-12"),
    ));
    r.totals.push(Total::new(
        "Cost",
        cost.to_string(),
        &p.rule,
        Some("R-DBMM-12"),
    ));
    if base.cost + sum < 0 {
        r.notes.push(Note::new(
            "A cost never falls below 0 PIPs",
            &p.rule,
            Some("R-DBMM-12"),
        ));
    }
    r.notes.extend(not_applying);
    r.total_modifier = sum;
    r.modifiers = modifiers;
    Ok(r)
}

/// The side whose bound the battle's turn is (R-DBMM-41): the sides take bounds in turn, the
/// side the battle lists first taking bound 1.
pub fn bound_side(state: &crate::state::BattleState) -> Option<&crate::state::SideState> {
    let n = state.sides.len();
    (n > 0).then(|| &state.sides[(state.turn.max(1) as usize - 1) % n])
}

/// The PIP dice opened from the battle (p. 26–27): the commands of the side whose bound it is,
/// named as the roster has them, a shattered one throwing no die (p. 26); the C-in-C's command,
/// allies, inert generals, Brilliant Strokes and the allocation are the umpire's to tick.
pub fn open_battle(
    data: &DbmmData,
    state: &crate::state::BattleState,
) -> Result<crate::rule_system::Opening, RefereeError> {
    let Some(side) = bound_side(state) else {
        return Err(crate::rule_system::fight::not_a_combat("PIP dice"));
    };
    let commands: Vec<serde_json::Value> = super::standing::command_states(data, state, &side.name)
        .into_iter()
        .map(|(name, s)| {
            if s == super::morale::CommandState::Shattered {
                serde_json::json!({ "name": name, "shattered": true })
            } else {
                serde_json::json!({ "name": name })
            }
        })
        .collect();
    let asks = if commands.is_empty() {
        vec![format!(
            "{} has no elements on the roster yet: add them, or enter its commands here.",
            side.name
        )]
    } else {
        vec![format!(
            "Bound {} is the {} (the side listed first takes the odd bounds, R-DBMM-41): tick the C-in-C's command, allies, inert generals and the Reg C-in-C's allocation ({}).",
            state.turn.max(1),
            crate::error::possessive(&side.name),
            data.pips.rule
        )]
    };
    crate::rule_system::Opening::new(
        &serde_json::json!({ "commands": commands }),
        Default::default(),
        asks,
    )
}
