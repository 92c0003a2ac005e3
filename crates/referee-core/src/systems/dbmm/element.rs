//! The troop model: an element as the umpire enters it, checked against the ruleset, with what
//! the sheet gives it — class, combat factors, morale equivalent, moves and shooting range.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::rule_system::resolve::is_false;

use super::data::{Class, DbmmData, Fighting};
use super::selector::Traits;
use crate::contract::{Modifier, Total};
use crate::error::RefereeError;
use crate::ErrorCode;

/// One element.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Element {
    /// Its element type: Kn, Bd, Ps … (p. 36).
    #[serde(rename = "type")]
    pub type_code: String,
    /// S, O, I, F or X (p. 4–9).
    pub grade: String,
    /// Irregular (default regular).
    #[serde(default, skip_serializing_if = "is_false")]
    pub irr: bool,
    /// A label for the answer (default: type and grade).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The element of a general (C-in-C, sub-general or ally general).
    #[serde(default, skip_serializing_if = "is_false")]
    pub general: bool,
    /// The rear half of a double-based element (0 ME, p. 42).
    #[serde(default, skip_serializing_if = "is_false")]
    pub double_based_rear: bool,
    /// Part of the army's baggage command (Reg army Bge: 2 ME, p. 42).
    #[serde(default, skip_serializing_if = "is_false")]
    pub army_baggage: bool,
    /// For an (X) element, the line of X-grading it counts as now, Kn (S) (p. 4–9).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counts_as: Option<String>,
    /// Ax that the army list makes elephant-killers (p. 38).
    #[serde(default, skip_serializing_if = "is_false")]
    pub elephant_killer: bool,
    /// Kn in Wedge (p. 35, p. 38).
    #[serde(default, skip_serializing_if = "is_false")]
    pub wedge: bool,
}

impl Element {
    pub fn label(&self) -> String {
        if self.name.is_empty() {
            format!(
                "{}{} ({})",
                if self.irr { "Irr " } else { "" },
                self.type_code,
                self.grade
            )
        } else {
            self.name.clone()
        }
    }
}

/// An element checked against the ruleset: its type and grade are the sheet's, and what it
/// fights as (X-grading applied).
#[derive(Clone, Debug)]
pub struct Checked<'a> {
    pub element: &'a Element,
    /// The type and grade it fights as.
    pub type_code: String,
    pub grade: String,
    pub class: Class,
}

impl Checked<'_> {
    pub fn traits(&self) -> Traits<'_> {
        Traits {
            type_code: &self.type_code,
            class: self.class,
            grade: &self.grade,
            irregular: self.element.irr,
        }
    }

    /// Its own traits, before X-grading (morale equivalents and moves use these).
    pub fn own_traits<'b>(&'b self, data: &DbmmData) -> Traits<'b> {
        Traits {
            type_code: &self.element.type_code,
            class: class_of(data, &self.element.type_code).unwrap_or(self.class),
            grade: &self.element.grade,
            irregular: self.element.irr,
        }
    }
}

fn class_of(data: &DbmmData, code: &str) -> Option<Class> {
    data.types.get(code).map(|t| t.class)
}

/// Checks an element's type and grade; field names it in errors.
pub fn check<'a>(
    data: &DbmmData,
    element: &'a Element,
    field: &str,
) -> Result<Checked<'a>, RefereeError> {
    let Some(kind) = data.types.get(&element.type_code) else {
        let hint = if ["Train", "Naval", "Mounted", "Foot"].contains(&element.type_code.as_str()) {
            format!(
                " “{}” is a class of elements: enter the element's own type",
                element.type_code
            )
        } else {
            String::new()
        };
        return Err(RefereeError::new(
            ErrorCode::SituationUnknownElement,
            format!(
                "the sheet has no element type {}: it has {}.{hint}",
                crate::error::given(&element.type_code),
                data.type_codes().join(", ")
            ),
        )
        .field(format!("{field}.type"))
        .rule("p. 36"));
    };
    if !data.grades.contains_key(&element.grade) {
        return Err(RefereeError::new(
            ErrorCode::SituationUnknownGrade,
            format!(
                "the sheet has no grade {}: grades are {}",
                crate::error::given(&element.grade),
                data.grade_codes().join(", ")
            ),
        )
        .field(format!("{field}.grade"))
        .rule("p. 4–9"));
    }
    let mut checked = Checked {
        element,
        type_code: element.type_code.clone(),
        grade: element.grade.clone(),
        class: kind.class,
    };
    if let Some(line) = &element.counts_as {
        let lines: Vec<&str> = data
            .x_grading
            .iter()
            .filter(|x| x.type_code == element.type_code)
            .map(|x| x.counts_as.as_str())
            .collect();
        if element.grade != "X" || !lines.contains(&line.as_str()) {
            let message = if element.grade != "X" {
                format!(
                    "Only an (X) element counts as another line of the X-grading table: {} is graded {}",
                    element.label(),
                    element.grade
                )
            } else if lines.is_empty() {
                format!(
                    "{} (X) has no X-grading line: it fights as it is entered",
                    element.type_code
                )
            } else {
                format!(
                    "{} (X) counts as {}: {} is not one of its lines",
                    element.type_code,
                    lines.join(", "),
                    crate::error::given(line)
                )
            };
            return Err(
                RefereeError::new(ErrorCode::SituationInvalidCountsAs, message)
                    .field(format!("{field}.counts_as"))
                    .rule("p. 4–9")
                    .ruling("R-DBMM-6"),
            );
        }
        let (code, grade) = split_type_grade(line).ok_or_else(|| {
            RefereeError::new(
                ErrorCode::RulesetInvalid,
                format!("“{line}” is not “Type (G)”"),
            )
        })?;
        checked.class = class_of(data, &code).unwrap_or(checked.class);
        checked.type_code = code;
        checked.grade = grade;
    }
    Ok(checked)
}

/// Kn (S) → (Kn, S).
pub fn split_type_grade(text: &str) -> Option<(String, String)> {
    let (code, rest) = text.split_once('(')?;
    Some((
        code.trim().to_string(),
        rest.strip_suffix(')')?.trim().to_string(),
    ))
}

/// How an element fights this combat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mode {
    pub close: bool,
    pub front_edge: bool,
    pub shooting: bool,
    pub shot_at: bool,
    pub disembarked: bool,
}

impl Mode {
    pub fn fits(self, f: Fighting) -> bool {
        match f {
            Fighting::Any => true,
            Fighting::CloseCombat => self.close,
            Fighting::FrontEdge => self.close && self.front_edge,
            Fighting::ShotAt => self.shot_at,
            Fighting::Shooting => self.shooting,
            Fighting::Combat => self.close || self.shot_at,
            Fighting::FrontEdgeOrShotAt => (self.close && self.front_edge) || self.shot_at,
            Fighting::ShootingNotShotAt => self.shooting && !self.shot_at,
            Fighting::ShotAtNotShooting => self.shot_at && !self.shooting,
            Fighting::ShotAtOrCloseCombat => self.shot_at || self.close,
            Fighting::NotShooting => !self.shooting,
            Fighting::Disembarked => self.disembarked,
        }
    }
}

/// The combat factor against opponent (p. 36): the first row for the element and its mode.
pub fn combat_factor(
    data: &DbmmData,
    element: &Checked,
    mode: Mode,
    opponent_class: Class,
) -> Option<Modifier> {
    let traits = element.traits();
    // `Fighting::Any` fits every mode, so the first row for the type and mode wins.
    let row = data
        .combat_factors
        .iter()
        .find(|r| mode.fits(r.fighting) && data.selector(&r.types).matches(&traits))?;
    let mounted = opponent_class == Class::Mounted;
    let what = row
        .label
        .clone()
        .unwrap_or_else(|| element.type_code.clone());
    Some(Modifier::new(
        format!(
            "Combat factor: {what} against {}",
            if mounted { "Mounted" } else { "Others" }
        ),
        if mounted {
            row.vs_mounted
        } else {
            row.vs_others
        },
        &row.rule,
        row.ruling.as_deref(),
    ))
}

/// Morale equivalent in half-ME (p. 42): the general's element first, then a double-based
/// rear, then the first row that matches, else "Other".
pub fn morale_halves(data: &DbmmData, element: &Checked) -> (i64, String) {
    let m = &data.morale;
    let halves = |me: f64| (me * 2.0).round() as i64;
    if element.element.general {
        return (halves(m.general), "General".into());
    }
    if element.element.double_based_rear {
        return (halves(m.double_based_rear), "double-based rear".into());
    }
    let traits = element.own_traits(data);
    for row in &m.values {
        if row.army_baggage && !element.element.army_baggage {
            continue;
        }
        if data.selector(&row.who).matches(&traits) {
            return (halves(row.me), row.who.clone());
        }
    }
    (halves(m.other), "Other".into())
}

/// 3, ½, 1½.
pub fn me_text(halves: i64) -> String {
    let (whole, half) = (halves / 2, halves % 2 != 0);
    match (whole, half) {
        (0, true) => "½".into(),
        (w, true) => format!("{w}½"),
        (w, false) => w.to_string(),
    }
}

/// Tactical move by going, and road (march) move, in paces (p. 29); None where it may not go.
pub fn moves(data: &DbmmData, element: &Checked) -> Option<[Option<i64>; 4]> {
    let traits = element.own_traits(data);
    let row = data
        .movement
        .rows
        .iter()
        .find(|r| data.selector(&r.who).matches(&traits))?;
    let fast = element.element.grade == "F"
        && data
            .selector(&data.movement.fast_bonus_who)
            .matches(&traits);
    let bonus = if fast { data.movement.fast_bonus } else { 0 };
    let add = |v: Option<i64>| v.map(|p| if p > 0 { p + bonus } else { p });
    Some([
        add(row.good),
        add(row.rough),
        add(row.difficult),
        add(row.road),
    ])
}

/// The shooting range in paces (p. 34), if the element shoots.
pub fn shooting_range(data: &DbmmData, element: &Checked) -> Option<i64> {
    let traits = element.own_traits(data);
    data.shooting
        .ranges
        .iter()
        .find(|r| data.selector(&r.who).matches(&traits))
        .map(|r| r.paces)
}

/// The troop-model answer for one element: class, factors, ME, moves, range, X-grading.
pub fn describe(data: &DbmmData, element: &Checked) -> Vec<Total> {
    let mut totals = Vec::new();
    let kind = &data.types[&element.element.type_code];
    let class = &data.classes;
    let class_key = match kind.class {
        Class::Mounted => "mounted",
        Class::Foot => "foot",
        Class::Train => "train",
        Class::Naval => "naval",
    };
    totals.push(Total::new(
        "Element",
        format!(
            "{} — {}, {}{}",
            element.element.label(),
            kind.name,
            class.get(class_key).map_or(class_key, |c| c.name.as_str()),
            if element.element.irr {
                ", Irr"
            } else {
                ", Reg"
            }
        ),
        &kind.rule,
        kind.ruling.as_deref(),
    ));
    if element.type_code != element.element.type_code || element.grade != element.element.grade {
        totals.push(Total::new(
            "Counts as",
            format!("{} ({})", element.type_code, element.grade),
            "p. 4–9",
            Some("R-DBMM-6"),
        ));
    }
    for row in data
        .combat_factors
        .iter()
        .filter(|r| data.selector(&r.types).matches(&element.traits()))
    {
        totals.push(Total::new(
            format!(
                "Combat factor{}",
                row.label
                    .as_ref()
                    .map(|l| format!(" ({l})"))
                    .unwrap_or_default()
            ),
            format!("+{} v Mounted, +{} v Others", row.vs_mounted, row.vs_others),
            &row.rule,
            row.ruling.as_deref(),
        ));
    }
    let (me, row) = morale_halves(data, element);
    totals.push(Total::new(
        "Morale equivalent",
        format!("{} ME ({row})", me_text(me)),
        &data.morale.rule,
        None,
    ));
    if let Some([good, rough, difficult, road]) = moves(data, element) {
        let p = |v: Option<i64>| v.map_or("—".to_string(), |p| format!("{p}p"));
        totals.push(Total::new(
            "Move",
            format!(
                "GGo {}, RGo {}, DGo {}, road {}",
                p(good),
                p(rough),
                p(difficult),
                p(road)
            ),
            &data.movement.rule,
            None,
        ));
    }
    if let Some(range) = shooting_range(data, element) {
        totals.push(Total::new(
            "Shooting range",
            format!("{range}p"),
            &data.shooting.rule,
            None,
        ));
    }
    for x in data
        .x_grading
        .iter()
        .filter(|x| x.type_code == element.element.type_code && element.element.grade == "X")
    {
        totals.push(Total::new(
            "X-grading",
            format!("counts as {} {}", x.counts_as, x.when),
            &x.rule,
            x.ruling.as_deref(),
        ));
    }
    totals
}

/// An (X) element entered without the line it counts as fights ungraded as its own type; the
/// answer says so and lists the lines the umpire picks from (R-DBMM-6).
pub fn x_grading_note(data: &DbmmData, element: &Checked) -> Option<crate::contract::Note> {
    if element.element.grade != "X" || element.element.counts_as.is_some() {
        return None;
    }
    let lines: Vec<String> = data
        .x_grading
        .iter()
        .filter(|x| x.type_code == element.element.type_code)
        .map(|x| format!("{} {}", x.counts_as, x.when))
        .collect();
    if lines.is_empty() {
        return None;
    }
    Some(crate::contract::Note::new(
        format!(
            "{} is graded (X) but no X-grading line is entered, so it fights as {} (X) with no grading factors; the umpire enters the line it counts as now: {}.",
            element.element.label(),
            element.element.type_code,
            lines.join("; ")
        ),
        "p. 4–9",
        Some("R-DBMM-6"),
    ))
}
