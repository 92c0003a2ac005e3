//! Close combat and shooting (p. 34–39): each element's total is a d6 plus its combat factor,
//! rear support and tactical factors; grading factors then adjust it by the first comparison
//! and the bound (R-DBMM-1); the final comparison gives each element's outcome. Every one of
//! the 36 pairs of dice is enumerated, so the odds are exact.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::data::{Bound, Class, DbmmData, Doubled, Going};
use super::element::{self, Checked, Element, Mode};
use super::outcome::{self, Context, FateAt, Score};
use super::selector::Traits;
use crate::contract::{
    effect, Chance, Change, Check, Modifier, Note, Outcome, Resolution, ResultOdds, Shown,
    SideThrow, Target, Total,
};
use crate::error::RefereeError;
use crate::fate::{Fate, FateChoice};
use crate::odds::{Dist, Probability};
use crate::rule_system::resolve::{is_default, is_true};
use crate::ErrorCode;

fn good_going() -> Going {
    Going::GGo
}

fn in_good_going(going: &Going) -> bool {
    *going == Going::GGo
}

fn yes() -> bool {
    true
}

/// Which edge of this element the enemy's front edge touches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Contact {
    #[default]
    Front,
    Flank,
    Rear,
}

/// Time of day for the tactical factors (p. 37) and visibility (p. 23–25), as the climate
/// table's four times bound it (R-DBMM-19).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Time {
    /// From sunrise to sunset.
    #[default]
    Day,
    /// From sunset until dusk: the failing light, seeing 400p.
    Dusk,
    /// From dusk until dawn.
    Night,
    /// From dawn until sunrise: seeing 400p.
    Dawn,
}

impl Time {
    /// "Between dusk and sunrise" (p. 37): night and the dawn before sunrise, not the period
    /// from sunset to dusk (R-DBMM-19).
    pub fn between_dusk_and_sunrise(self) -> bool {
        matches!(self, Time::Night | Time::Dawn)
    }
}

/// An enemy element overlapping this one (p. 35).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Overlap {
    /// The overlapper's element type.
    #[serde(rename = "type")]
    pub type_code: String,
    /// Its grade (default O).
    #[serde(default, skip_serializing_if = "is_default")]
    pub grade: Option<String>,
}

/// Elements behind claimed as rear support (p. 36), 2nd rank first.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Support {
    pub ranks: Vec<Element>,
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    #[schemars(extend("default" = true))]
    pub same_command: bool,
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    #[schemars(extend("default" = true))]
    pub lined_up: bool,
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    #[schemars(extend("default" = true))]
    pub facing: bool,
    /// The army list permits the rows the sheet marks *.
    #[serde(default, skip_serializing_if = "is_default")]
    pub army_list_permits: bool,
}

/// An element in a combat, with what the tables ask about it.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Fighter {
    pub element: Element,
    /// The going it fights in (default GGo).
    #[serde(default = "good_going", skip_serializing_if = "in_good_going")]
    pub going: Going,
    /// Which of its edges the enemy's front edge touches (default front).
    #[serde(default, skip_serializing_if = "is_default")]
    pub contact: Contact,
    /// Contacted on flank or rear while also fighting to its front (p. 38).
    #[serde(default, skip_serializing_if = "is_default")]
    pub also_fighting_front: bool,
    /// Tactical factors claimed by id (p. 37), e.g. upslope, shaken, marched.
    #[serde(default, skip_serializing_if = "is_default")]
    pub factors: Vec<String>,
    /// Enemy elements overlapping it (p. 35); ignored where the sheet says so.
    #[serde(default, skip_serializing_if = "is_default")]
    pub overlaps: Vec<Overlap>,
    /// Overlapped by a battlefield edge (p. 35).
    #[serde(default, skip_serializing_if = "is_default")]
    pub edge_overlap: bool,
    /// Enemy front edges on its flank or rear edge (p. 37); a contact on the flank or rear is one
    /// of them without being counted here (R-DBMM-16).
    #[serde(default, skip_serializing_if = "is_default")]
    pub enemy_on_flank_or_rear: u32,
    /// Shooting elements aiding the enemy primary shooter not contiguous behind it (p. 37).
    #[serde(default, skip_serializing_if = "is_default")]
    pub enemy_aiders: u32,
    /// Rear support claimed (p. 36).
    #[serde(default, skip_serializing_if = "is_default")]
    pub support: Option<Support>,
    /// It fights only as an overlap: its outcome is disregarded (p. 38).
    #[serde(default, skip_serializing_if = "is_default")]
    pub as_overlap: bool,
    /// Hd in a BUA (p. 39).
    #[serde(default, skip_serializing_if = "is_default")]
    pub in_bua: bool,
    /// Part of a group (Hd, p. 39; default yes).
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    #[schemars(extend("default" = true))]
    pub in_group: bool,
    /// Naval in contact with land (p. 39).
    #[serde(default, skip_serializing_if = "is_default")]
    pub at_land: bool,
    /// Naval whose troops have disembarked (p. 36).
    #[serde(default, skip_serializing_if = "is_default")]
    pub troops_disembarked: bool,
    /// In a PF Tower (p. 38).
    #[serde(default, skip_serializing_if = "is_default")]
    pub in_pf_tower: bool,
    /// Foot in close combat across a TF/PF (p. 38).
    #[serde(default, skip_serializing_if = "is_default")]
    pub across_fortification: bool,
    /// Assaulting an undefended TF/PF section (p. 38).
    #[serde(default, skip_serializing_if = "is_default")]
    pub assaulting_undefended: bool,
    /// The friend directly behind, for destruction of friends behind (p. 42); named as on the
    /// roster, a battle applies its destruction.
    #[serde(default, skip_serializing_if = "is_default")]
    pub behind: Option<Element>,
    /// A friend in front-edge contact with the enemy element's flank or rear edge (p. 38, the
    /// footnote of "Disregard outcomes"): named as on the roster, it recoils (if it cannot, it is
    /// spent) when this element recoils, flees, is repulsed, destroyed or spent.
    #[serde(default, skip_serializing_if = "is_default")]
    pub friend_on_enemy_flank: Option<Element>,
    /// A fleeing element that contacted this enemy and could not avoid it (p. 41).
    #[serde(default, skip_serializing_if = "is_default")]
    pub fleeing: bool,
}

/// Whose bound it is.
impl Fighter {
    /// An element fighting with nothing more claimed: what a situation that names only the
    /// element reads as (good going, front contact, in its group).
    pub fn of(element: Element) -> Fighter {
        Fighter {
            element,
            going: good_going(),
            contact: Contact::default(),
            also_fighting_front: false,
            factors: Vec::new(),
            overlaps: Vec::new(),
            edge_overlap: false,
            enemy_on_flank_or_rear: 0,
            enemy_aiders: 0,
            support: None,
            as_overlap: false,
            in_bua: false,
            in_group: yes(),
            at_land: false,
            troops_disembarked: false,
            in_pf_tower: false,
            across_fortification: false,
            assaulting_undefended: false,
            behind: None,
            friend_on_enemy_flank: None,
            fleeing: false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CloseBound {
    A,
    B,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CloseCombatSituation {
    pub a: Fighter,
    pub b: Fighter,
    /// Whose bound it is: a or b.
    pub bound: CloseBound,
    #[serde(default, skip_serializing_if = "is_default")]
    pub time: Time,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ShootingBound {
    Shooter,
    Target,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ShootingSituation {
    /// The primary shooter.
    pub shooter: Fighter,
    pub target: Fighter,
    /// The target shoots back at the shooter (p. 34).
    #[serde(default, skip_serializing_if = "is_default")]
    pub shoots_back: bool,
    /// Whose bound it is.
    pub bound: ShootingBound,
    /// Paces from the shooter to the target, checked against its range (p. 34).
    #[serde(default, skip_serializing_if = "is_default")]
    pub range: Option<i64>,
    /// Bounds it has rained so far (p. 25: after 6, Art and Sh no longer shoot).
    #[serde(default, skip_serializing_if = "is_default")]
    pub bounds_of_rain: u32,
    #[serde(default, skip_serializing_if = "is_default")]
    pub time: Time,
    /// At night, the moon is up: elements see farther (p. 23–25).
    #[serde(default, skip_serializing_if = "is_default")]
    pub moonlight: bool,
}

/// One side of the fight, with its totals built.
struct Side<'a> {
    fighter: &'a Fighter,
    checked: Checked<'a>,
    own_bound: bool,
    label: String,
    /// Combat, rear support and tactical factors.
    modifiers: Vec<Modifier>,
    base: i64,
    /// Grading by the first comparison: [>, =, <].
    grading: [Vec<Modifier>; 3],
}

fn bound_fits(bound: Bound, own: bool) -> bool {
    match bound {
        Bound::Own => own,
        Bound::Enemy => !own,
        Bound::Both => true,
    }
}

/// An element's two flank edges and its rear edge each take one enemy front edge.
const ENEMY_EDGES_AT_MOST: u32 = 3;

/// The tactical factors of one side (p. 37), claimed ones checked.
#[allow(clippy::too_many_arguments)]
fn tactical(
    data: &DbmmData,
    side: &Checked,
    fighter: &Fighter,
    mode: Mode,
    own_bound: bool,
    opponent: &Checked,
    opponent_going: Going,
    time: Time,
    field: &str,
    notes: &mut Vec<Note>,
) -> Result<Vec<Modifier>, RefereeError> {
    let traits = side.traits();
    let opp = opponent.traits();
    if fighter.enemy_on_flank_or_rear > ENEMY_EDGES_AT_MOST {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidContact,
            format!(
                "{} has two flank edges and a rear edge: at most {ENEMY_EDGES_AT_MOST} enemy front edges can be on them, not {}",
                side.element.label(),
                fighter.enemy_on_flank_or_rear
            ),
        )
        .field(format!("{field}.enemy_on_flank_or_rear"))
        .rule("p. 37"));
    }
    let mut claimed: Vec<String> = fighter.factors.clone();
    if side.element.general && !claimed.iter().any(|c| c == "general") {
        claimed.push("general".into());
    }
    if claimed.iter().any(|c| c == "brilliant_stroke") && !side.element.general {
        return Err(RefereeError::new(
            ErrorCode::SituationFactorNotApplicable,
            "a Brilliant Stroke is declared by a Brilliant General: the element is not a general",
        )
        .field(format!("{field}.factors"))
        .rule("p. 37, p. 27"));
    }
    let overlaps = effective_overlaps(data, side, fighter, own_bound, opponent, field, notes)?;
    let mut out = Vec::new();
    let fits = |row: &super::data::TacticalFactor| {
        data.selector(&row.who).matches(&traits)
            && mode.fits(row.fighting)
            && bound_fits(row.bound, own_bound)
            && row.going.is_none_or(|g| g == fighter.going)
            && row
                .against
                .as_ref()
                .is_none_or(|a| data.selector(a).matches(&opp))
            && row.against_going.is_none_or(|g| g == opponent_going)
            && row.time.is_none_or(|t| match t {
                super::data::TimeOfDay::Night => time == Time::Night,
                super::data::TimeOfDay::DuskToSunrise => time.between_dusk_and_sunrise(),
            })
    };
    for id in &claimed {
        let rows: Vec<_> = data
            .tactical_factors
            .iter()
            .filter(|r| &r.id == id && !r.automatic && r.per.is_none())
            .collect();
        if rows.is_empty() {
            let known: Vec<&str> = data
                .tactical_factors
                .iter()
                .filter(|r| !r.automatic && r.per.is_none())
                .map(|r| r.id.as_str())
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            return Err(RefereeError::new(
                ErrorCode::SituationUnknownFactor,
                format!(
                    "no tactical factor {} to claim; claimable: {} (counted: overlaps, enemy on flank or rear, enemy aiders; going and time are read from the situation)",
                    crate::error::given(id),
                    known.join(", ")
                ),
            )
            .field(format!("{field}.factors"))
            .rule("p. 37"));
        }
        match rows.iter().find(|r| fits(r)) {
            Some(row) => out.push(Modifier::new(
                row.text.clone(),
                row.value,
                &row.rule,
                row.ruling.as_deref(),
            )),
            None => {
                return Err(RefereeError::new(
                    ErrorCode::SituationFactorNotApplicable,
                    format!(
                        "{} does not apply to {} here: {}",
                        crate::error::given(id),
                        side.element.label(),
                        rows.iter()
                            .map(|r| r.text.as_str())
                            .collect::<Vec<_>>()
                            .join("; ")
                    ),
                )
                .field(format!("{field}.factors"))
                .rule(rows[0].rule.clone()))
            }
        }
    }
    for row in &data.tactical_factors {
        if row.automatic && fits(row) {
            out.push(Modifier::new(
                row.text.clone(),
                row.value,
                &row.rule,
                row.ruling.as_deref(),
            ));
        }
        if let Some(per) = &row.per {
            // The opponent's front edge on this element's flank or rear is one of the enemy
            // front edges there: the contact implies the −1 (p. 37, R-DBMM-16).
            let by_contact = u32::from(fighter.contact != Contact::Front);
            let (count, ruling) = match per.as_str() {
                "overlaps" => (overlaps, row.ruling.as_deref()),
                "enemy_on_flank_or_rear" if by_contact > fighter.enemy_on_flank_or_rear => {
                    (by_contact, Some("R-DBMM-16"))
                }
                "enemy_on_flank_or_rear" => (fighter.enemy_on_flank_or_rear, row.ruling.as_deref()),
                "enemy_aiders" => (fighter.enemy_aiders, row.ruling.as_deref()),
                _ => (0, None),
            };
            if count > 0 && fits(row) {
                out.push(Modifier::new(
                    format!("{} (×{count})", row.text),
                    row.value * i64::from(count),
                    &row.rule,
                    ruling,
                ));
            }
        }
    }
    Ok(out)
}

/// Overlaps that count (p. 35): at most one per flank, the ignored ones dropped with a note
/// saying which line of the sheet ignores them (R-DBMM-22).
fn effective_overlaps(
    data: &DbmmData,
    side: &Checked,
    fighter: &Fighter,
    own_bound: bool,
    opponent: &Checked,
    field: &str,
    notes: &mut Vec<Note>,
) -> Result<u32, RefereeError> {
    let mut count = 0;
    let t = side.traits();
    let is = |sel: &str, tr: &Traits| data.selector(sel).matches(tr);
    let label = side.element.label();
    // "Kn in Wedge (unless Kn (F) against LH), Exp, WWg" is read as the overlapped element:
    // the exception names the enemy it fights, which only the overlapped element has
    // (R-DBMM-22). "Aided is Exp": the overlapper's friend in front, this element's opponent.
    let ignores_all = if side.type_code == "Kn"
        && fighter.element.wedge
        && !(side.grade == "F" && opponent.type_code == "LH")
    {
        Some(format!(
            "{label} is Kn in Wedge, and overlaps on it are ignored"
        ))
    } else if ["Exp", "WWg"].contains(&side.type_code.as_str()) {
        Some(format!(
            "{label} is {}, and overlaps on it are ignored",
            side.type_code
        ))
    } else if opponent.type_code == "Exp" {
        Some(format!(
            "the element the overlappers aid is Exp, so overlaps on {label} are ignored"
        ))
    } else {
        None
    };
    let mut ignored = Vec::new();
    for (i, o) in fighter.overlaps.iter().enumerate() {
        let grade = o.grade.clone().unwrap_or_else(|| "O".into());
        let e = Element {
            type_code: o.type_code.clone(),
            grade,
            ..Element::default()
        };
        let c = element::check(data, &e, &format!("{field}.overlaps[{i}]"))?;
        let ot = c.traits();
        let el_not_aiding = c.type_code == "El" && !is("El | Foot | Art | Exp", &opponent.traits());
        let mounted_own_bound = t.class == Class::Mounted && own_bound && is("Foot not Bw", &ot);
        if ignores_all.is_some() {
            continue;
        } else if el_not_aiding {
            ignored.push(format!(
                "The overlap by {} on {label} is ignored: the overlapper is El not aiding El, Foot, Art, Exp.",
                e.label()
            ));
        } else if mounted_own_bound {
            ignored.push(format!(
                "The overlap by {} on {label} is ignored: Mounted in its own bound are not overlapped by Foot not Bw.",
                e.label()
            ));
        } else {
            count += 1;
        }
    }
    if fighter.edge_overlap {
        if own_bound || is("Ps | LH | Bge", &t) {
            ignored.push(format!(
                "The battlefield edge overlaps {label} only in the enemy bound and not Ps, LH, Bge."
            ));
        } else if ignores_all.is_none() {
            count += 1;
        }
    }
    let claimed = fighter.overlaps.len() + usize::from(fighter.edge_overlap);
    if let Some(why) = ignores_all.filter(|_| claimed > 0) {
        notes.push(Note::new(
            format!("Overlaps ignored: {why}."),
            "p. 35",
            Some("R-DBMM-22"),
        ));
    }
    for why in ignored {
        notes.push(Note::new(why, "p. 35", Some("R-DBMM-22")));
    }
    if count > 2 {
        return Err(RefereeError::new(
            ErrorCode::SituationTooManyOverlaps,
            "an element has two flanks: at most 2 overlaps count",
        )
        .field(format!("{field}.overlaps"))
        .rule("p. 35"));
    }
    Ok(count)
}

/// Whether the sheet has a row letting `rear`, in the 2nd rank, support `front` without the army
/// list's leave (p. 36): a friend behind is then claimed as rear support; the row's other
/// conditions (grade, going, bound, the enemy) are the table's to judge.
pub fn may_support(data: &DbmmData, front: &Element, rear: &Element) -> bool {
    let (Ok(f), Ok(r)) = (
        element::check(data, front, ""),
        element::check(data, rear, ""),
    ) else {
        return false;
    };
    let (ft, rt) = (f.traits(), r.traits());
    data.rear_support.rows.iter().any(|row| {
        row.rank == 2
            && !row.army_list
            && (!row.double_based || rear.double_based_rear)
            && data.selector(&row.front).matches(&ft)
            && data.selector(&row.rear).matches(&rt)
    })
}

/// Rear support (p. 36): each claimed rank adds the first row that matches it.
fn rear_support(
    data: &DbmmData,
    side: &Checked,
    fighter: &Fighter,
    own_bound: bool,
    opponent: &Checked,
    notes: &mut Vec<Note>,
    field: &str,
) -> Result<Vec<Modifier>, RefereeError> {
    let Some(support) = &fighter.support else {
        return Ok(Vec::new());
    };
    let rule = data.rear_support.rule.as_str();
    let refuse = |why: &str| {
        Err(RefereeError::new(
            ErrorCode::SituationSupportNotAllowed,
            format!(
                "rear support only if {}: {why}",
                data.rear_support.only_if.join(", ")
            ),
        )
        .field(format!("{field}.support"))
        .rule(rule))
    };
    if !support.same_command {
        return refuse("the rear element is of another command");
    }
    if !support.lined_up {
        return refuse("the rear element is not lined up");
    }
    if !support.facing {
        return refuse("the rear element does not face the opponent");
    }
    if fighter.going == Going::DGo {
        return refuse("the front element is in DGo");
    }
    if fighter.factors.iter().any(|f| f == "marched") {
        return refuse("the front element marched into combat");
    }
    if support.ranks.len() > 3 {
        return refuse("only a 2nd, 3rd and 4th rank can support");
    }
    let front = side.traits();
    let opp = opponent.traits();
    let ranks: Vec<Checked> = support
        .ranks
        .iter()
        .enumerate()
        .map(|(i, e)| element::check(data, e, &format!("{field}.support.ranks[{i}]")))
        .collect::<Result<_, _>>()?;
    let grade_rank = |g: &str| data.grades.get(g).map_or(0, |x| x.rank);
    let mut out = Vec::new();
    for (i, rear) in ranks.iter().enumerate() {
        let rank = i as u32 + 2;
        let rt = rear.traits();
        let paired: Vec<_> = data
            .rear_support
            .rows
            .iter()
            .filter(|r| {
                r.rank == rank
                    && data.selector(&r.front).matches(&front)
                    && data.selector(&r.rear).matches(&rt)
            })
            .collect();
        if paired.is_empty() {
            return Err(RefereeError::new(
                ErrorCode::SituationSupportNotAllowed,
                format!(
                    "no rear support row lets {} in rank {rank} support {} (p. 36 lists every pairing)",
                    rear.element.label(),
                    side.element.label()
                ),
            )
            .field(format!("{field}.support.ranks[{i}]"))
            .rule(rule));
        }
        let fits = |r: &&super::data::RearSupportRow| {
            use super::data::RearGrade;
            let grade_ok = match r.rear_grade {
                None => true,
                Some(RearGrade::Same) => rear.grade == side.grade,
                Some(RearGrade::SameOrHigher) => grade_rank(&rear.grade) >= grade_rank(&side.grade),
                Some(RearGrade::SameAsSecond) => rear.grade == ranks[0].grade,
            };
            grade_ok
                && (!r.second_same_as_front || ranks[0].type_code == side.type_code)
                && (!r.good_going || fighter.going == Going::GGo)
                && (!r.double_based || rear.element.double_based_rear)
                && (!r.assaulting_fortification
                    || fighter.assaulting_undefended
                    || fighter.across_fortification)
                && bound_fits(r.bound, own_bound)
                && data.selector(&r.against).matches(&opp)
        };
        let Some(row) = paired.iter().find(|r| fits(r)) else {
            notes.push(Note::new(
                format!(
                    "{} in rank {rank} gives no support here: {}",
                    rear.element.label(),
                    paired
                        .iter()
                        .map(|r| r.text.as_str())
                        .collect::<Vec<_>>()
                        .join("; ")
                ),
                rule,
                None,
            ));
            continue;
        };
        if row.army_list && !support.army_list_permits {
            return Err(RefereeError::new(
                ErrorCode::SituationSupportNotAllowed,
                format!(
                    "{} — only if the army list permits it (the sheet's *): set army_list_permits",
                    row.text
                ),
            )
            .field(format!("{field}.support.army_list_permits"))
            .rule(rule));
        }
        out.push(Modifier::new(
            format!("Rear support, rank {rank}: {}", row.text),
            row.factor,
            rule,
            row.ruling.as_deref(),
        ));
    }
    Ok(out)
}

fn grading(
    data: &DbmmData,
    side: &Checked,
    mode: Mode,
    own_bound: bool,
    opponent: &Checked,
) -> [Vec<Modifier>; 3] {
    let t = side.traits();
    let o = opponent.traits();
    let mut out: [Vec<Modifier>; 3] = Default::default();
    for (i, first) in [">", "=", "<"].iter().enumerate() {
        for g in &data.grading_factors {
            let scoring_fits = g.scoring == *first || (g.scoring == "<=" && *first != ">");
            if scoring_fits
                && data.selector(&g.who).matches(&t)
                && mode.fits(g.fighting)
                && bound_fits(g.bound, own_bound)
                && data.selector(&g.against).matches(&o)
                && (!g.against_other_type || side.type_code != opponent.type_code)
            {
                out[i].push(Modifier::new(
                    format!("Grading ({}, first score {first}): {}", side.grade, g.who),
                    g.value,
                    &g.rule,
                    g.ruling.as_deref(),
                ));
            }
        }
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn build<'a>(
    data: &DbmmData,
    fighter: &'a Fighter,
    checked: Checked<'a>,
    mode: Mode,
    own_bound: bool,
    opponent: &Checked,
    opponent_going: Going,
    time: Time,
    field: &str,
    notes: &mut Vec<Note>,
) -> Result<Side<'a>, RefereeError> {
    let label = checked.element.label();
    notes.extend(element::x_grading_note(data, &checked));
    let cf = element::combat_factor(data, &checked, mode, opponent.class).ok_or_else(|| {
        RefereeError::new(
            ErrorCode::SituationNoCombatFactor,
            format!("{label} has no combat factor for this kind of combat"),
        )
        .field(format!("{field}.element"))
        .rule("p. 36")
    })?;
    let mut modifiers = vec![cf];
    if mode.close {
        modifiers.extend(rear_support(
            data, &checked, fighter, own_bound, opponent, notes, field,
        )?);
    } else if fighter.support.is_some() {
        return Err(RefereeError::new(
            ErrorCode::SituationSupportNotAllowed,
            "rear support counts in close combat only",
        )
        .field(format!("{field}.support"))
        .rule("p. 36"));
    }
    modifiers.extend(tactical(
        data,
        &checked,
        fighter,
        mode,
        own_bound,
        opponent,
        opponent_going,
        time,
        field,
        notes,
    )?);
    let base = modifiers.iter().map(|m| m.value).sum();
    let grading = grading(data, &checked, mode, own_bound, opponent);
    Ok(Side {
        fighter,
        checked,
        own_bound,
        label,
        modifiers,
        base,
        grading,
    })
}

pub(crate) fn score_of(own: i64, enemy: i64, doubled: Doubled) -> Score {
    if own > enemy {
        Score::Greater
    } else if own == enemy {
        Score::Equal
    } else {
        // A total of 0 or less has no half to fall below: only a positive total doubles
        // (R-DBMM-21).
        let doubled = enemy > 0
            && match doubled {
                Doubled::LessThanHalf => 2 * own < enemy,
                Doubled::AtMostHalf => 2 * own <= enemy,
            };
        if doubled {
            Score::Doubled
        } else {
            Score::Less
        }
    }
}

fn first_index(own: i64, enemy: i64) -> usize {
    match own.cmp(&enemy) {
        std::cmp::Ordering::Greater => 0,
        std::cmp::Ordering::Equal => 1,
        std::cmp::Ordering::Less => 2,
    }
}

/// Final totals for one pair of dice.
fn totals(a: &Side, b: &Side, da: i64, db: i64) -> (i64, i64) {
    let (ta, tb) = (da + a.base, db + b.base);
    let ga: i64 = a.grading[first_index(ta, tb)].iter().map(|m| m.value).sum();
    let gb: i64 = b.grading[first_index(tb, ta)].iter().map(|m| m.value).sum();
    (ta + ga, tb + gb)
}

/// What a pair of dice gives: each side's score and fate.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Pair {
    a: FateAt,
    b: FateAt,
}

struct Fight<'a> {
    a: Side<'a>,
    b: Side<'a>,
    kind: outcome::Kind,
    notes: Vec<Note>,
}

fn context<'a>(
    me: &'a Side<'a>,
    them: &'a Side<'a>,
    kind: outcome::Kind,
    shooting_unanswered: bool,
) -> Context<'a> {
    Context {
        fighter: me.fighter,
        checked: &me.checked,
        opponent: &them.checked,
        opponent_fighter: them.fighter,
        own_bound: me.own_bound,
        kind,
        shooting_unanswered,
    }
}

fn fates(data: &DbmmData, f: &Fight, da: i64, db: i64) -> (Pair, i64, i64, Score, Score) {
    let (ta, tb) = totals(&f.a, &f.b, da, db);
    let doubled = data.outcomes.doubled;
    let (sa, sb) = (score_of(ta, tb, doubled), score_of(tb, ta, doubled));
    let ctx = |me, them, unanswered| context(me, them, f.kind, unanswered);
    let unanswered_a = f.kind == outcome::Kind::Shooting { shot_back: false };
    let mut a = outcome::fate(data, &ctx(&f.a, &f.b, unanswered_a), sa);
    let mut b = outcome::fate(data, &ctx(&f.b, &f.a, false), sb);
    outcome::pursuit(data, &ctx(&f.a, &f.b, unanswered_a), &mut a, &b);
    outcome::pursuit(data, &ctx(&f.b, &f.a, false), &mut b, &a);
    (Pair { a, b }, ta, tb, sa, sb)
}

/// One throw: A's die, B's die, the fates they give and both final totals.
type Throw = (i64, i64, Pair, i64, i64);

/// Every throw once: (A's die, B's die) → fates and totals.
fn every_throw(data: &DbmmData, f: &Fight) -> Vec<Throw> {
    (1..=6)
        .flat_map(|da| (1..=6).map(move |db| (da, db)))
        .map(|(da, db)| {
            let (pair, ta, tb, _, _) = fates(data, f, da, db);
            (da, db, pair, ta, tb)
        })
        .collect()
}

/// A quick kill the winner's going denies (p. 19), said once for every throw it holds for.
fn quick_kill_denials(data: &DbmmData, throws: &[Throw]) -> Vec<Note> {
    let mut denials: Vec<&String> = throws
        .iter()
        .flat_map(|(_, _, p, _, _)| [&p.a.denied, &p.b.denied])
        .flatten()
        .collect();
    denials.sort();
    denials.dedup();
    denials
        .into_iter()
        .map(|d| {
            let deny = data
                .outcomes
                .quick_kill_deny
                .iter()
                .find(|q| d.starts_with(&q.text));
            Note::new(
                d.clone(),
                deny.map_or("p. 19", |q| q.rule.as_str()),
                deny.and_then(|q| q.ruling.as_deref()),
            )
        })
        .collect()
}

/// Said when some throw leaves a side beaten by a total of 0 or less, which doubles no one
/// (R-DBMM-21).
fn zero_total_note(data: &DbmmData, throws: &[Throw]) -> Option<Note> {
    let beaten_by_nothing = throws
        .iter()
        .any(|(_, _, _, ta, tb)| (ta < tb && *tb <= 0) || (tb < ta && *ta <= 0));
    beaten_by_nothing.then(|| {
        Note::new(
            "A total of 0 or less has no half to fall below: an element scoring less than it is not doubled (a total of 0 or less is doubled by any positive total).",
            &data.outcomes.doubled_rule,
            Some("R-DBMM-21"),
        )
    })
}

/// The elements a combat's result acts on: the two fighters, A's then B's, and the friends who
/// share their fate in close combat — the friend behind destroyed with it (p. 42) and the friend
/// on the enemy's flank or rear recoiling with it (p. 38), each named apart from the fighters so
/// a battle finds it.
struct Targets {
    fighters: [String; 2],
    behind: [Option<outcome::FriendsBehind>; 2],
    on_flank: [Option<String>; 2],
}

impl Targets {
    fn of(data: &DbmmData, f: &Fight) -> Targets {
        let fighters = [f.a.label.clone(), f.b.label.clone()];
        let apart = |name: String, prefix: &str| {
            if fighters.contains(&name) {
                format!("{prefix} {name}")
            } else {
                name
            }
        };
        let close = f.kind == outcome::Kind::Close;
        // Friends behind, when what was entered makes their destruction certain.
        let behind = |me: &Side, them: &Side| -> Option<outcome::FriendsBehind> {
            if !close {
                return None;
            }
            let mut fb = outcome::friends_behind(data, &me.checked, me.fighter, &them.checked)?;
            fb.destroyed_with = fb.destroyed_with.map(|name| apart(name, "Behind"));
            Some(fb)
        };
        let on_flank = |me: &Side| -> Option<String> {
            if !close {
                return None;
            }
            let name = me.fighter.friend_on_enemy_flank.as_ref()?.label();
            Some(apart(name, "On the flank"))
        };
        Targets {
            behind: [behind(&f.a, &f.b), behind(&f.b, &f.a)],
            on_flank: [on_flank(&f.a), on_flank(&f.b)],
            fighters,
        }
    }

    /// What a pair of fates does (p. 38–42): each fighter's fate, the friend behind destroyed
    /// with it, the friend on the enemy's flank recoiling when it gives way.
    fn effects(&self, p: &Pair) -> Vec<crate::contract::Effect> {
        let mut out = Vec::new();
        for (i, fate) in [&p.a, &p.b].into_iter().enumerate() {
            if !matches!(
                fate.fate,
                super::data::Fate::Stand | super::data::Fate::Disregarded
            ) {
                out.push(effect(
                    Target::Unit(self.fighters[i].clone()),
                    Change::ElementFate {
                        fate: fate.choice(),
                    },
                    "p. 38–42",
                    fate.ruling.as_deref(),
                ));
            }
            let friend = self.behind[i]
                .as_ref()
                .and_then(|fb| fb.destroyed_with.as_ref());
            if let (super::data::Fate::Destroyed, Some(friend)) = (fate.fate, friend) {
                out.push(effect(
                    Target::Unit(friend.clone()),
                    Change::ElementFate {
                        fate: Fate::Destroyed.into(),
                    },
                    "p. 42",
                    None,
                ));
            }
            if let (true, Some(flank)) = (fate.fate.gives_way(), &self.on_flank[i]) {
                out.push(effect(
                    Target::Unit(flank.clone()),
                    Change::ElementFate {
                        fate: FateChoice::either(Fate::Recoil, Fate::Spent),
                    },
                    "p. 38",
                    None,
                ));
            }
        }
        out
    }

    /// The umpire's checks: the movement of outcomes, then the friends behind, then the friends
    /// on the enemy's flank.
    fn checks(&self, data: &DbmmData, kind: outcome::Kind) -> Vec<Check> {
        let mut checks = outcome::movement_checks(data, kind);
        for fb in self.behind.iter().flatten() {
            checks.push(fb.check.clone());
        }
        let [la, lb] = &self.fighters;
        for (me, them, flank) in [(la, lb, &self.on_flank[0]), (lb, la, &self.on_flank[1])] {
            if let Some(flank) = flank {
                checks.push(Check::holds(
                    format!("If {me} recoils, flees, is repulsed, destroyed or spent, {flank}, in front-edge contact with the flank or rear of {them}, recoils (if it cannot, it is spent)"),
                    true,
                    "p. 38",
                ));
            }
        }
        checks
    }
}

/// Each result with what it means for both elements, the dice that give it and its chance.
fn distribution(
    results: &[CombatResult],
    throws: &[Throw],
    pair_dist: &Dist<Pair>,
    [la, lb]: &[String; 2],
) -> Vec<ResultOdds> {
    results
        .iter()
        .map(|r| {
            let meanings: Vec<String> = r
                .pairs
                .iter()
                .map(|p| format!("{} {} · {} {}", la, p.a.describe(), lb, p.b.describe()))
                .collect();
            let chance = r.pairs.iter().fold(Probability::ZERO, |sum, p| {
                sum.plus(&pair_dist.probability(p)).unwrap_or(sum)
            });
            ResultOdds::new(
                &r.key,
                &meanings.join("; or "),
                dice_pairs(throws, &r.pairs),
                chance,
                r.effects.clone(),
            )
        })
        .collect()
}

/// Each result as the screen names it: what becomes of each element, by its name ("Bd (O)
/// recoils; Pk (O) stands"), never the key's fates in a row ("recoil/stand").
fn result_names(results: &[CombatResult], [la, lb]: &[String; 2]) -> BTreeMap<String, String> {
    let said = |name: &str, fate: &FateAt| match fate.fate {
        Fate::Disregarded if fate.choice.is_none() => format!("{name}'s outcome is disregarded"),
        _ => format!("{name} {}", fate.word()),
    };
    results
        .iter()
        .filter_map(|r| {
            let p = r.pairs.first()?;
            Some((
                r.key.clone(),
                format!("{}; {}", said(la, &p.a), said(lb, &p.b)),
            ))
        })
        .collect()
}

/// The key of the result a pair of fates falls under.
fn result_key(results: &[CombatResult], pair: &Pair) -> String {
    results
        .iter()
        .find(|r| r.pairs.contains(&pair))
        .map_or_else(|| result_code(pair), |r| r.key.clone())
}

/// Each side's chance of scoring more, equal, less, or being doubled (p. 38–39), of 36 throws.
fn score_forecast(
    data: &DbmmData,
    scores: &BTreeMap<(Score, Score), u128>,
    names: &[String; 2],
) -> Vec<Chance> {
    let score_p = |wanted: Score, a_side: bool| {
        Probability::new(
            scores
                .iter()
                .filter(|((sa, sb), _)| wanted == if a_side { *sa } else { *sb })
                .map(|(_, w)| *w)
                .sum(),
            36,
        )
    };
    let mut forecast = Vec::new();
    let rule = "p. 38–39";
    for (name, a_side) in [(&names[0], true), (&names[1], false)] {
        forecast.push(Chance::new(
            format!("{name} scores more"),
            score_p(Score::Greater, a_side),
            rule,
        ));
        forecast.push(Chance::new(
            format!("{name} scores equal"),
            score_p(Score::Equal, a_side),
            rule,
        ));
        forecast.push(Chance::new(
            format!("{name} scores less, not doubled"),
            score_p(Score::Less, a_side),
            rule,
        ));
        let mut doubled = Chance::new(
            format!("{name} is doubled"),
            score_p(Score::Doubled, a_side),
            &data.outcomes.doubled_rule,
        );
        doubled.ruling = data.outcomes.doubled_ruling.clone();
        forecast.push(doubled);
    }
    forecast
}

/// Each side's chance of each fate (p. 38–42), of 36 throws.
fn fate_forecast(rows: &[(Pair, u128)], names: &[String; 2]) -> Vec<Chance> {
    let mut forecast = Vec::new();
    for (name, a_side) in [(&names[0], true), (&names[1], false)] {
        let mut by_fate: BTreeMap<(super::data::Fate, Option<super::data::Fate>), u128> =
            BTreeMap::new();
        let mut words = BTreeMap::new();
        for (p, w) in rows {
            let fate = if a_side { &p.a } else { &p.b };
            let key = (fate.fate, fate.choice);
            *by_fate.entry(key).or_default() += w;
            words.insert(key, fate.word());
        }
        for (key, w) in by_fate {
            forecast.push(Chance::new(
                format!("{name} {}", words[&key]),
                Probability::new(w, 36),
                "p. 38–42",
            ));
        }
    }
    forecast
}

/// Both sides' combat, rear support and tactical factors, each named with its element.
fn labelled_modifiers(f: &Fight) -> Vec<Modifier> {
    let mut modifiers: Vec<Modifier> = Vec::new();
    for side in [&f.a, &f.b] {
        for m in &side.modifiers {
            let mut m = m.clone();
            m.label = format!("{}: {}", side.label, m.label);
            modifiers.push(m);
        }
    }
    modifiers
}

/// Whose bound it is, each side's total before grading and the grading by each first score.
fn fight_totals(f: &Fight) -> Vec<Total> {
    let (la, lb) = (&f.a.label, &f.b.label);
    let bound_of = |side: &Side| if side.own_bound { "own" } else { "enemy" };
    let mut totals = vec![
        // Whose bound, as the sheet's tables say it: each element's "own" or "enemy" bound.
        Total::new(
            "Bound",
            format!(
                "{la}: {} bound; {lb}: {} bound",
                bound_of(&f.a),
                bound_of(&f.b)
            ),
            "p. 36–39",
            None,
        ),
        Total::new(
            format!("{la} total before grading"),
            format!("d6 {:+}", f.a.base),
            "p. 36–37",
            None,
        ),
        Total::new(
            format!("{lb} total before grading"),
            format!("d6 {:+}", f.b.base),
            "p. 36–37",
            None,
        ),
    ];
    for side in [&f.a, &f.b] {
        for (i, first) in [">", "=", "<"].iter().enumerate() {
            let g: i64 = side.grading[i].iter().map(|m| m.value).sum();
            if g != 0 {
                totals.push(Total::new(
                    format!("{} grading if its first score is {first}", side.label),
                    format!("{g:+}"),
                    "p. 37",
                    Some("R-DBMM-1"),
                ));
            }
        }
    }
    totals
}

/// The outcome of the throw entered: A's die, then B's.
fn thrown(
    throws: &[Throw],
    results: &[CombatResult],
    targets: &Targets,
    faces: &[u32],
) -> Result<Outcome, RefereeError> {
    let [la, lb] = &targets.fighters;
    let [x, y] = faces else {
        return Err(RefereeError::new(
            ErrorCode::DiceInvalid,
            format!("two d6: {la}'s, then {lb}'s"),
        )
        .field("dice"));
    };
    if !(1..=6).contains(x) || !(1..=6).contains(y) {
        return Err(RefereeError::new(ErrorCode::DiceInvalid, "a d6 shows 1 to 6").field("dice"));
    }
    let (_, _, pair, ta, tb) = throws
        .iter()
        .find(|t| t.0 == i64::from(*x) && t.1 == i64::from(*y))
        .cloned()
        .expect("every throw is enumerated");
    Ok(Outcome {
        dice: faces.to_vec(),
        roll: i64::from(*x),
        modified: ta,
        result: result_key(results, &pair),
        meaning: format!(
            "{la} {ta} against {lb} {tb}: {la} {}; {lb} {}.",
            pair.a.describe(),
            pair.b.describe()
        ),
        effects: targets.effects(&pair),
        sides: vec![
            SideThrow::new(la.clone(), *x, ta - i64::from(*x), ta),
            SideThrow::new(lb.clone(), *y, tb - i64::from(*y), tb),
        ],
    })
}

fn resolve_fight(
    data: &DbmmData,
    f: Fight,
    action: &str,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    let throws = every_throw(data, &f);
    let mut pairs: BTreeMap<Pair, u128> = BTreeMap::new();
    let mut scores: BTreeMap<(Score, Score), u128> = BTreeMap::new();
    for (_, _, pair, _, _) in &throws {
        *pairs.entry(pair.clone()).or_default() += 1;
        *scores.entry((pair.a.score, pair.b.score)).or_default() += 1;
    }
    let pair_dist = Dist::from_weights(pairs.clone())?;
    let mut notes = f.notes.clone();
    notes.extend(quick_kill_denials(data, &throws));
    notes.extend(zero_total_note(data, &throws));
    let targets = Targets::of(data, &f);
    let mut rows: Vec<(Pair, u128)> = pairs.into_iter().collect();
    rows.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
    let results = results_of(&rows, &targets);
    let distribution = distribution(&results, &throws, &pair_dist, &targets.fighters);
    let mut forecast = score_forecast(data, &scores, &targets.fighters);
    forecast.extend(fate_forecast(&rows, &targets.fighters));
    let outcome = match dice {
        None => None,
        Some(faces) => Some(thrown(&throws, &results, &targets, faces)?),
    };
    Ok(Resolution {
        shown: Shown {
            names: result_names(&results, &targets.fighters),
            ..Shown::default()
        },
        system: data.system.id.clone(),
        action: action.into(),
        dice: "d6 v d6".into(),
        totals: fight_totals(&f),
        modifiers: labelled_modifiers(&f),
        total_modifier: f.a.base - f.b.base,
        distribution,
        forecast,
        checks: {
            // Each fighter's outcome moves with their distances (p. 13, 40–42, R-DBMM-42).
            let mut checks = targets.checks(data, f.kind);
            for side in [&f.a, &f.b] {
                checks.push(super::outcome_moves::check(
                    data,
                    &side.label,
                    &side.checked,
                ));
            }
            checks
        },
        notes,
        outcome,
    })
}

fn result_code(p: &Pair) -> String {
    format!("{}/{}", p.a.code(), p.b.code())
}

/// One result of a combat as the screen lists it: its key, the pairs of fates that give it and
/// what it does.
struct CombatResult<'p> {
    key: String,
    pairs: Vec<&'p Pair>,
    effects: Vec<crate::contract::Effect>,
}

/// The combat's results, one per pair of fates as they read and act: throws whose fates read the
/// same and do the same to the same elements (a quick kill and a doubling that both destroy) are
/// one result, their chances summed, whatever ruling each rests on; fates that read the same but
/// act otherwise keep apart, under a numbered key, so no two results share a key.
fn results_of<'p>(rows: &'p [(Pair, u128)], targets: &Targets) -> Vec<CombatResult<'p>> {
    let mut out: Vec<CombatResult> = Vec::new();
    for (pair, _) in rows {
        let code = result_code(pair);
        let done = targets.effects(pair);
        if let Some(r) = out.iter_mut().find(|r| {
            same_changes(&r.effects, &done)
                && (r.key == code || r.key.starts_with(&format!("{code} (")))
        }) {
            r.pairs.push(pair);
            continue;
        }
        let same = out
            .iter()
            .filter(|r| r.key == code || r.key.starts_with(&format!("{code} (")))
            .count();
        out.push(CombatResult {
            key: if same == 0 {
                code
            } else {
                format!("{code} ({})", same + 1)
            },
            pairs: vec![pair],
            effects: done,
        });
    }
    out
}

/// The same changes on the same targets, by the same rule (the ruling behind each may differ).
fn same_changes(a: &[crate::contract::Effect], b: &[crate::contract::Effect]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| (&x.target, &x.change, &x.rule) == (&y.target, &y.change, &y.rule))
}

/// The dice pairs (A's die, B's die) that give a result, for the umpire to read.
fn dice_pairs(throws: &[Throw], pairs: &[&Pair]) -> String {
    let out: Vec<String> = throws
        .iter()
        .filter(|t| pairs.contains(&&t.2))
        .map(|t| format!("{}-{}", t.0, t.1))
        .collect();
    if out.len() == 36 {
        "any".into()
    } else {
        out.join(" ")
    }
}

/// A's final score over every throw of a close combat (factors, support, grading by the first
/// comparison): the opposed roll alone, without outcomes — what bench/peer.py sets beside
/// Icepool.
pub fn close_combat_scores(
    data: &DbmmData,
    s: &CloseCombatSituation,
) -> Result<Dist<Score>, RefereeError> {
    let mut notes = Vec::new();
    let (a, b) = close_sides(data, s, &mut notes)?;
    let mut weights: BTreeMap<Score, u128> = BTreeMap::new();
    for da in 1..=6 {
        for db in 1..=6 {
            let (ta, tb) = totals(&a, &b, da, db);
            *weights
                .entry(score_of(ta, tb, data.outcomes.doubled))
                .or_default() += 1;
        }
    }
    Ok(Dist::from_weights(weights)?)
}

/// Both sides of a close combat with their factors and grading.
fn close_sides<'s>(
    data: &DbmmData,
    s: &'s CloseCombatSituation,
    notes: &mut Vec<Note>,
) -> Result<(Side<'s>, Side<'s>), RefereeError> {
    let ca = element::check(data, &s.a.element, "a.element")?;
    let cb = element::check(data, &s.b.element, "b.element")?;
    if s.a.contact != Contact::Front && s.b.contact != Contact::Front {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidContact,
            "close combat needs a front edge in contact: both elements are contacted on flank or rear",
        )
        .field("b.contact")
        .rule("p. 38"));
    }
    let mode = |f: &Fighter| Mode {
        close: true,
        front_edge: f.contact == Contact::Front,
        disembarked: f.troops_disembarked,
        ..Mode::default()
    };
    let (own_a, own_b) = (s.bound == CloseBound::A, s.bound == CloseBound::B);
    let a = build(
        data,
        &s.a,
        ca.clone(),
        mode(&s.a),
        own_a,
        &cb,
        s.b.going,
        s.time,
        "a",
        notes,
    )?;
    let b = build(
        data,
        &s.b,
        cb,
        mode(&s.b),
        own_b,
        &ca,
        s.a.going,
        s.time,
        "b",
        notes,
    )?;
    Ok((a, b))
}

/// Two elements of one label would be one target on the roster: name them by their role.
fn tell_apart(a: &mut Side, b: &mut Side, first: &str, second: &str) {
    if a.label == b.label {
        a.label = format!("{first}: {}", a.label);
        b.label = format!("{second}: {}", b.label);
    }
}

pub fn close_combat(
    data: &DbmmData,
    s: &CloseCombatSituation,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    let mut notes = Vec::new();
    let (mut a, mut b) = close_sides(data, s, &mut notes)?;
    tell_apart(&mut a, &mut b, "A", "B");
    if s.time == Time::Dusk && [&a, &b].iter().any(|x| x.checked.class == Class::Mounted) {
        notes.push(Note::new(
            "Dusk is the time from sunset until dusk: the −2 for Mounted between dusk and sunrise begins at dusk, so it does not count yet.",
            "p. 37, p. 23",
            Some("R-DBMM-19"),
        ));
    }
    resolve_fight(
        data,
        Fight {
            a,
            b,
            kind: outcome::Kind::Close,
            notes,
        },
        "close_combat",
        dice,
    )
}

pub fn shooting(
    data: &DbmmData,
    s: &ShootingSituation,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    let cs = element::check(data, &s.shooter.element, "shooter.element")?;
    let ct = element::check(data, &s.target.element, "target.element")?;
    let range = element::shooting_range(data, &cs).ok_or_else(|| {
        RefereeError::new(
            ErrorCode::SituationCannotShoot,
            format!(
                "{} does not shoot: the sheet gives it no range",
                cs.element.label()
            ),
        )
        .field("shooter.element.type")
        .rule("p. 34")
    })?;
    // 0 paces is contact: elements in contact fight in close combat, they do not shoot.
    if let Some(r) = s.range.filter(|r| *r <= 0) {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidRange,
            format!("a range is a distance in paces, more than 0: {r}p is not a shot (in contact, elements fight in close combat)"),
        )
        .field("range")
        .rule("p. 34"));
    }
    if let Some(r) = s.range {
        if r > range {
            return Err(RefereeError::new(
                ErrorCode::SituationOutOfRange,
                format!(
                    "{} shoots up to {range}p; the target is {r}p away",
                    cs.element.label()
                ),
            )
            .field("range")
            .rule("p. 34"));
        }
    }
    if s.shoots_back && element::shooting_range(data, &ct).is_none() {
        return Err(RefereeError::new(
            ErrorCode::SituationCannotShoot,
            format!(
                "{} cannot shoot back: it does not shoot",
                ct.element.label()
            ),
        )
        .field("shoots_back")
        .rule("p. 34"));
    }
    let rain = &data.daylight;
    if s.bounds_of_rain >= rain.rain_bounds {
        let stopped = [
            (&cs, "shooter.element", true),
            (&ct, "shoots_back", s.shoots_back),
        ]
        .into_iter()
        .find(|(c, _, shoots)| *shoots && data.selector(&rain.rain_stops).matches(&c.traits()));
        if let Some((c, field, _)) = stopped {
            return Err(RefereeError::new(
                ErrorCode::SituationCannotShoot,
                format!(
                    "after {} bounds of rain Art and Sh can no longer shoot: {} cannot shoot after {}",
                    rain.rain_bounds,
                    c.element.label(),
                    s.bounds_of_rain
                ),
            )
            .field(field)
            .rule(rain.visibility_rule.clone()));
        }
    }
    for (f, field) in [(&s.shooter, "shooter"), (&s.target, "target")] {
        if f.fleeing {
            return Err(RefereeError::new(
                ErrorCode::SituationInvalidContact,
                "a fleeing element fights the enemy it cannot avoid in close combat, not by shooting",
            )
            .field(format!("{field}.fleeing"))
            .rule("p. 41"));
        }
        if f.friend_on_enemy_flank.is_some() {
            return Err(RefereeError::new(
                ErrorCode::SituationInvalidContact,
                "a friend on the enemy's flank or rear recoils with the element fighting the enemy's front in close combat, not in shooting",
            )
            .field(format!("{field}.friend_on_enemy_flank"))
            .rule("p. 38"));
        }
    }
    let mode_s = Mode {
        shooting: true,
        shot_at: s.shoots_back,
        ..Mode::default()
    };
    let mode_t = Mode {
        shooting: s.shoots_back,
        shot_at: true,
        ..Mode::default()
    };
    let mut notes = Vec::new();
    let own_s = s.bound == ShootingBound::Shooter;
    let mut a = build(
        data,
        &s.shooter,
        cs.clone(),
        mode_s,
        own_s,
        &ct,
        s.target.going,
        s.time,
        "shooter",
        &mut notes,
    )?;
    let mut b = build(
        data,
        &s.target,
        ct,
        mode_t,
        !own_s,
        &cs,
        s.shooter.going,
        s.time,
        "target",
        &mut notes,
    )?;
    tell_apart(&mut a, &mut b, "Shooter", "Target");
    if !s.shoots_back {
        notes.push(Note::new(
            format!(
                "{}: {}, so its outcome is disregarded",
                a.label, data.outcomes.disregard.shooting_not_shot_back
            ),
            &data.outcomes.disregard.rule,
            None,
        ));
    }
    let mut r = resolve_fight(
        data,
        Fight {
            a,
            b,
            kind: outcome::Kind::Shooting {
                shot_back: s.shoots_back,
            },
            notes,
        },
        "shooting",
        dice,
    )?;
    let rule = data.shooting.rule.as_str();
    let mut checks = vec![match s.range {
        Some(r) => Check::holds(format!("The target is within {range}p ({r}p)"), true, rule),
        None => Check::umpire(format!("The target is within {range}p"), rule),
    }];
    // The target must be seen: at dawn, dusk and night no farther than the period lets (p. 25).
    let key = super::daylight::period_key(s.time, s.moonlight);
    if let Some(p) = data.daylight.periods.iter().find(|p| p.key == key) {
        if let Some(seen) = p.paces {
            let label = format!("The target is within the {seen}p elements see ({})", p.name);
            let vis = data.daylight.visibility_rule.as_str();
            checks.push(match s.range {
                Some(r) => Check::holds(format!("{label}, here {r}p"), r <= seen, vis),
                None => Check::umpire(label, vis),
            });
        }
    }
    let marched = [&s.shooter, &s.target]
        .iter()
        .any(|f| f.factors.iter().any(|x| x == "marched"));
    for line in &data.shooting.checklist {
        checks.push(
            if line.starts_with("Neither shooter nor target marched") && marched {
                Check::holds(line.clone(), false, rule)
            } else {
                Check::umpire(line.clone(), rule)
            },
        );
    }
    checks.append(&mut r.checks);
    r.checks = checks;
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::dbmm::test_data as data;
    use serde_json::json;

    fn situation(v: serde_json::Value) -> CloseCombatSituation {
        serde_json::from_value(v).unwrap()
    }

    fn fight<'s>(d: &DbmmData, s: &'s CloseCombatSituation) -> Fight<'s> {
        let mut notes = Vec::new();
        let (a, b) = close_sides(d, s, &mut notes).unwrap();
        Fight {
            a,
            b,
            kind: outcome::Kind::Close,
            notes,
        }
    }

    /// The sheet's worked example (p. 38): double-overlapped Bd (O) against rear-supported Pk
    /// (O), d6+2 against d6+4.
    fn bd_v_pk() -> CloseCombatSituation {
        situation(json!({
            "a": { "element": { "type": "Bd", "grade": "O" }, "overlaps": [{ "type": "Pk" }, { "type": "Bd" }] },
            "b": { "element": { "type": "Pk", "grade": "O" }, "support": { "ranks": [{ "type": "Pk", "grade": "O" }] } },
            "bound": "a"
        }))
    }

    /// p. 42: Bd (O) with Archers behind, fighting Kn (O) in the Kn's bound.
    fn archers_behind() -> CloseCombatSituation {
        situation(json!({
            "a": { "element": { "type": "Bd", "grade": "O" }, "behind": { "type": "Bw", "grade": "O", "name": "Archers" } },
            "b": { "element": { "type": "Kn", "grade": "O" } },
            "bound": "b"
        }))
    }

    fn throw_of(throws: &[Throw], da: i64, db: i64) -> &Throw {
        throws.iter().find(|t| t.0 == da && t.1 == db).unwrap()
    }

    #[test]
    fn every_throw_is_one_of_36_with_both_final_totals() {
        let (d, s) = (data(), bd_v_pk());
        let throws = every_throw(&d, &fight(&d, &s));
        assert_eq!(throws.len(), 36);
        let (_, _, _, ta, tb) = throw_of(&throws, 1, 1);
        assert_eq!((*ta, *tb), (3, 5));
        let (_, _, _, ta, tb) = throw_of(&throws, 6, 2);
        assert_eq!((*ta, *tb), (8, 6));
    }

    #[test]
    fn a_quick_kill_the_going_denies_is_noted_once_with_its_ruling() {
        // p. 19: no quick kill for Kn in RGo (R-DBMM-29).
        let d = data();
        let s = situation(json!({
            "a": { "element": { "type": "Kn", "grade": "O" }, "going": "RGo" },
            "b": { "element": { "type": "Bd", "grade": "O" } },
            "bound": "a"
        }));
        let notes = quick_kill_denials(&d, &every_throw(&d, &fight(&d, &s)));
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0]
            .message
            .starts_with("No quick kill for Kn, Cv, LH, Cm in RGo"));
        assert_eq!(notes[0].ruling.as_deref(), Some("R-DBMM-29"));
        let (d, s) = (data(), bd_v_pk());
        assert!(quick_kill_denials(&d, &every_throw(&d, &fight(&d, &s))).is_empty());
    }

    #[test]
    fn a_total_of_0_or_less_beating_nothing_is_noted() {
        // R-DBMM-21: d6+2 against d6+4 never has a winner at 0 or less.
        let (d, s) = (data(), bd_v_pk());
        let mut throws = every_throw(&d, &fight(&d, &s));
        assert!(zero_total_note(&d, &throws).is_none());
        (throws[0].3, throws[0].4) = (-1, 0);
        let note = zero_total_note(&d, &throws).unwrap();
        assert_eq!(note.ruling.as_deref(), Some("R-DBMM-21"));
    }

    #[test]
    fn the_friend_behind_is_destroyed_with_the_element_in_front() {
        // p. 42, the golden case: Bd (O) destroyed on 1 against 6; the Archers behind with it.
        let (d, s) = (data(), archers_behind());
        let f = fight(&d, &s);
        let targets = Targets::of(&d, &f);
        assert_eq!(
            targets.fighters,
            ["Bd (O)".to_string(), "Kn (O)".to_string()]
        );
        assert_eq!(
            targets.behind[0]
                .as_ref()
                .and_then(|fb| fb.destroyed_with.as_deref()),
            Some("Archers")
        );
        let throws = every_throw(&d, &f);
        let (_, _, pair, _, _) = throw_of(&throws, 1, 6);
        let hit: Vec<String> = targets
            .effects(pair)
            .iter()
            .map(|e| format!("{:?} {:?}", e.target, e.change))
            .collect();
        assert_eq!(hit.len(), 3, "{hit:?}");
        assert!(
            hit[1].contains("Archers") && hit[1].contains("Destroyed"),
            "{hit:?}"
        );
    }

    #[test]
    fn a_friend_on_the_flank_named_as_a_fighter_is_named_apart_and_checked() {
        // p. 38: the friend on the enemy's flank recoils with the element; an unnamed Sp (O)
        // would be one target with the fighter, so it is "On the flank Sp (O)".
        let d = data();
        let s = situation(json!({
            "a": { "element": { "type": "Sp", "grade": "O" }, "friend_on_enemy_flank": { "type": "Sp", "grade": "O" } },
            "b": { "element": { "type": "Bd", "grade": "O" } },
            "bound": "a"
        }));
        let f = fight(&d, &s);
        let targets = Targets::of(&d, &f);
        assert_eq!(targets.on_flank[0].as_deref(), Some("On the flank Sp (O)"));
        assert_eq!(targets.on_flank[1], None);
        let checks = targets.checks(&d, f.kind);
        assert!(checks.last().unwrap().label.starts_with(
            "If Sp (O) recoils, flees, is repulsed, destroyed or spent, On the flank Sp (O),"
        ));
        // In shooting there is no friend on the flank to move.
        let shot = Fight {
            kind: outcome::Kind::Shooting { shot_back: true },
            ..fight(&d, &s)
        };
        assert_eq!(Targets::of(&d, &shot).on_flank, [None, None]);
    }

    #[test]
    fn each_result_is_named_by_what_becomes_of_each_element() {
        let (d, s) = (data(), bd_v_pk());
        let r = resolve_fight(&d, fight(&d, &s), "close_combat", None).unwrap();
        for line in &r.distribution {
            let name = &r.shown.names[&line.result];
            assert!(
                name.starts_with("Bd (O) ") && name.contains("; Pk (O) "),
                "{} is named {name}",
                line.result
            );
            assert!(!name.contains('/') && !name.contains('_'), "{name}");
        }
        assert_eq!(
            r.shown.names["stand/destroyed"],
            "Bd (O) stands; Pk (O) is destroyed"
        );
    }

    #[test]
    fn the_score_forecast_counts_the_sheets_example_of_36() {
        // d6+2 against d6+4: A more 6/36, equal 4/36; B's the mirror.
        let (d, s) = (data(), bd_v_pk());
        let f = fight(&d, &s);
        let mut scores: BTreeMap<(Score, Score), u128> = BTreeMap::new();
        for (_, _, p, _, _) in every_throw(&d, &f) {
            *scores.entry((p.a.score, p.b.score)).or_default() += 1;
        }
        let names = [f.a.label.clone(), f.b.label.clone()];
        let forecast = score_forecast(&d, &scores, &names);
        let p = |label: &str| {
            forecast
                .iter()
                .find(|c| c.label == label)
                .unwrap()
                .probability
                .clone()
        };
        assert_eq!(forecast.len(), 8);
        assert_eq!(p("Bd (O) scores more"), Probability::new(6, 36).to_string());
        assert_eq!(
            p("Bd (O) scores equal"),
            Probability::new(4, 36).to_string()
        );
        assert_eq!(
            p("Pk (O) scores less, not doubled"),
            Probability::new(6, 36).to_string()
        );
    }

    #[test]
    fn the_results_cover_every_throw_once_and_their_chances_sum_to_one() {
        let (d, s) = (data(), archers_behind());
        let f = fight(&d, &s);
        let throws = every_throw(&d, &f);
        let mut pairs: BTreeMap<Pair, u128> = BTreeMap::new();
        for (_, _, pair, _, _) in &throws {
            *pairs.entry(pair.clone()).or_default() += 1;
        }
        let pair_dist = Dist::from_weights(pairs.clone()).unwrap();
        let mut rows: Vec<(Pair, u128)> = pairs.into_iter().collect();
        rows.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
        let targets = Targets::of(&d, &f);
        let results = results_of(&rows, &targets);
        let lines = distribution(&results, &throws, &pair_dist, &targets.fighters);
        let dice: usize = lines.iter().map(|l| l.rolls.split(' ').count()).sum();
        assert_eq!(dice, 36);
        let whole = lines.iter().fold(Probability::ZERO, |sum, l| {
            sum.plus(&Probability::parse(&l.probability).unwrap())
                .unwrap()
        });
        assert_eq!(whole, Probability::new(1, 1));
        let (_, _, pair, _, _) = throw_of(&throws, 1, 6);
        let key = result_key(&results, pair);
        let line = lines.iter().find(|l| l.result == key).unwrap();
        assert!(line.rolls.split(' ').any(|x| x == "1-6"), "{}", line.rolls);
        // Each side's fates, of 36.
        let fates = fate_forecast(&rows, &targets.fighters);
        let of = |name: &str| {
            fates
                .iter()
                .filter(|c| c.label.starts_with(name))
                .fold(Probability::ZERO, |sum, c| {
                    sum.plus(&Probability::parse(&c.probability).unwrap())
                        .unwrap()
                })
        };
        assert_eq!(of("Bd (O)"), Probability::new(1, 1));
        assert_eq!(of("Kn (O)"), Probability::new(1, 1));
    }

    #[test]
    fn the_totals_name_each_bound_and_each_total_before_grading() {
        let (d, s) = (data(), bd_v_pk());
        let f = fight(&d, &s);
        let totals = fight_totals(&f);
        assert_eq!(totals[0].value, "Bd (O): own bound; Pk (O): enemy bound");
        assert_eq!(totals[1].label, "Bd (O) total before grading");
        assert_eq!(totals[1].value, "d6 +2");
        assert_eq!(totals[2].value, "d6 +4");
        let modifiers = labelled_modifiers(&f);
        assert!(modifiers
            .iter()
            .all(|m| m.label.starts_with("Bd (O): ") || m.label.starts_with("Pk (O): ")));
        assert_eq!(modifiers.iter().map(|m| m.value).sum::<i64>(), 2 + 4);
    }

    #[test]
    fn a_throw_entered_gives_both_totals_or_is_refused() {
        let (d, s) = (data(), bd_v_pk());
        let f = fight(&d, &s);
        let throws = every_throw(&d, &f);
        let targets = Targets::of(&d, &f);
        let mut pairs: Vec<(Pair, u128)> = Vec::new();
        for (_, _, p, _, _) in &throws {
            if !pairs.iter().any(|(q, _)| q == p) {
                pairs.push((p.clone(), 1));
            }
        }
        let results = results_of(&pairs, &targets);
        let out = thrown(&throws, &results, &targets, &[6, 2]).unwrap();
        assert_eq!((out.roll, out.modified), (6, 8));
        assert!(out.meaning.starts_with("Bd (O) 8 against Pk (O) 6:"));
        assert_eq!(out.sides[1].modifier, 4);
        let one = thrown(&throws, &results, &targets, &[6]).unwrap_err();
        assert_eq!(one.message, "Two d6: Bd (O)'s, then Pk (O)'s.");
        let seven = thrown(&throws, &results, &targets, &[7, 1]).unwrap_err();
        assert_eq!(seven.field.as_deref(), Some("dice"));
    }
}
