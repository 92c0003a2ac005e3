//! DBMM 2.x: the troop model, close combat and shooting with exact outcome odds (grading by the
//! first comparison, R-DBMM-1), quick kills, morale equivalents with command and army breaks,
//! victory points, PIPs and distances, over the shared engine. Tables are `rulesets/dbmm.toml`.

mod aftermath;
pub mod clock;
pub mod combat;
pub mod data;
pub mod daylight;
pub mod deployment;
pub mod element;
pub mod fight;
pub mod going;
pub mod interpenetration;
pub mod morale;
pub mod outcome;
pub mod outcome_moves;
pub mod pips;
pub mod roster;
pub mod selector;
pub mod setup;
pub mod sight;
pub mod spontaneous;
mod standing;
pub mod terrain_choice;
pub mod weather;

use schemars::JsonSchema;
use serde::Deserialize;

use crate::contract::{Change, Resolution, Total};
use crate::error::RefereeError;
use crate::rule_system::shared::SystemHeader;
use crate::rule_system::{
    Action, ActionGroup, Choice, ChoiceList, CommonSituation, FollowOn, Opening, Phase, RuleSystem,
    Sides, Standing, UnitField, UnitPreview, Verdict,
};
use crate::state::{BattleState, LeaderNotes, UnitSpec, UnitState, UnitWords};
use crate::ErrorCode;

pub use data::DbmmData;
pub use roster::DbmmElement;

/// DBMM, from its quick-reference sheets, as the referee plays it.
pub struct Dbmm;

impl RuleSystem for Dbmm {
    type Data = DbmmData;
    type Unit = DbmmElement;
    type Leader = LeaderNotes;

    const ID: &'static str = "dbmm";
    const MAIN_ACTION: &'static str = "close_combat";

    fn header(data: &DbmmData) -> &SystemHeader {
        &data.system
    }

    fn sequence(data: &DbmmData) -> &[Phase] {
        &data.sequence
    }

    fn actions() -> Vec<Action<DbmmData>> {
        use Action as A;
        use ActionGroup::{Checks, Combat, Movement, Tables};
        vec![
            A::certain(
                "element",
                "Element: factors, ME, moves, quick kills",
                "p. 4–9, 29, 34, 36, 42",
                Tables,
                describe,
            ),
            A::rolled(
                "close_combat",
                "Close combat",
                "p. 35–42",
                Combat,
                combat::close_combat,
            )
            .fights()
            .in_a_bound(fight::close_combat_contacts()),
            A::rolled(
                "shooting",
                "Shooting",
                "p. 34, 36–42",
                Combat,
                combat::shooting,
            )
            .fights()
            .in_a_bound(fight::shooting_contacts()),
            A::certain(
                "flee_through_friends",
                "Fleeing through friends",
                "p. 41",
                Movement,
                outcome::flee_through_friends,
            ),
            A::certain(
                "interpenetration",
                "Passing through friends",
                "p. 32, 40",
                Movement,
                interpenetration::interpenetration,
            )
            .for_a_unit(),
            A::certain(
                "spontaneous_advance",
                "Spontaneous advance",
                "p. 30, 27",
                Movement,
                spontaneous::spontaneous_advance,
            )
            .from_roster(),
            A::certain(
                "threat_zone",
                "Threat zone",
                "p. 32",
                Movement,
                spontaneous::threat_zone,
            ),
            A::certain(
                "command_morale",
                "Command morale",
                "p. 42–43",
                Checks,
                morale::command_morale,
            ),
            A::certain(
                "army_morale",
                "Army morale",
                "p. 43",
                Checks,
                morale::army_morale,
            ),
            A::certain(
                "victory",
                "Victory points",
                "p. 43",
                Checks,
                morale::victory,
            ),
            A::rolled("pips", "PIP dice", "p. 27", Checks, pips::pips).from_roster(),
            A::certain(
                "pip_cost",
                "PIP cost of a move or halt",
                "p. 27",
                Movement,
                pips::pip_cost,
            ),
            A::certain(
                "daylight",
                "Time of day and visibility",
                "p. 23–25",
                Tables,
                daylight::daylight,
            )
            .from_roster(),
            A::certain(
                "going",
                "Going by element",
                "p. 19–20",
                Movement,
                going::going,
            ),
            A::certain(
                "weather",
                "Weather changes and effects",
                "p. 25",
                Checks,
                weather::weather,
            ),
            A::rolled(
                "setup",
                "Setting up the battle: aggression, season, deployment, first bound",
                "p. 18–23, 26",
                Tables,
                setup::setup,
            ),
            A::certain(
                "terrain_choice",
                "Choosing terrain: FE costs and limits",
                "p. 20",
                Tables,
                terrain_choice::terrain_choice,
            )
            .from_roster(),
            A::certain(
                "deployment",
                "Where an element may deploy",
                "p. 21–22",
                Checks,
                deployment::deployment,
            ),
            A::rolled(
                "place_terrain",
                "Placing a terrain",
                "p. 20",
                Tables,
                setup::place_terrain,
            ),
            A::certain(
                "distances",
                "Distances on the table",
                "p. 29, 34",
                Tables,
                distances,
            ),
        ]
    }

    fn choices(data: &DbmmData) -> Vec<ChoiceList> {
        choices(data)
    }

    fn common_situations() -> Vec<CommonSituation> {
        CommonSituation::list(&[
            ("in_bua", "In BUA"),
            ("assaulting_undefended", "Assaulting undefended"),
        ])
    }

    // The rules play in bounds, each side's in turn.
    const TURN_WORD: &'static str = "bound";
    fn roster_advice() -> Option<&'static str> {
        Some("On the roster, give each element its command and mark the general’s element: each command’s morale is counted apart (p. 42–43).")
    }

    const DERIVED_VALUES: bool = true;

    fn unit_form(data: &DbmmData) -> Vec<UnitField> {
        roster::fields(data)
    }

    fn other_keys() -> &'static [&'static str] {
        &[
            "name",
            "double_based_rear",
            "army_baggage",
            "counts_as",
            "elephant_killer",
            "wedge",
        ]
    }

    fn unit_preview(
        data: &DbmmData,
        stats: &serde_json::Value,
    ) -> Result<UnitPreview, RefereeError> {
        roster::preview(data, stats)
    }

    fn check_among(
        _data: &DbmmData,
        state: &crate::state::BattleState,
        spec: &UnitSpec,
        editing: Option<crate::state::UnitId>,
    ) -> Result<(), RefereeError> {
        roster::one_general(state, spec, editing)
    }

    fn enter(data: &DbmmData, spec: &UnitSpec) -> Result<(u32, DbmmElement), RefereeError> {
        roster::enter(data, spec)
    }

    fn enter_leader(_data: &DbmmData, spec: &UnitSpec) -> Result<LeaderNotes, RefereeError> {
        LeaderNotes::of(spec)
    }

    fn keep(old: &DbmmElement, new: &mut DbmmElement) {
        roster::keep(old, new)
    }

    fn edited_stats(stats: &serde_json::Value) -> serde_json::Value {
        roster::edited_stats(stats)
    }

    fn land(data: &DbmmData, unit: &mut UnitState, own: &mut DbmmElement, change: &Change) -> bool {
        roster::land(data, unit, own, change)
    }

    fn end_of_turn(_unit: &mut UnitState, own: &mut DbmmElement) {
        roster::end_of_bound(own)
    }

    fn words(data: &DbmmData, unit: &UnitState, own: &DbmmElement) -> UnitWords {
        roster::words(data, unit, own)
    }

    fn open(
        data: &DbmmData,
        action: &str,
        sides: &Sides<DbmmElement>,
    ) -> Result<Opening, RefereeError> {
        fight::open(data, action, sides)
    }

    fn takes_contacts() -> bool {
        true
    }

    /// "Pass through…" opened from an element's row, the friend picked from its side (p. 32).
    fn open_unit(
        data: &DbmmData,
        action: &str,
        state: &BattleState,
        unit: &UnitState,
    ) -> Result<Opening, RefereeError> {
        match action {
            roster::PASS_THROUGH => interpenetration::open_unit(data, state, unit),
            _ => Err(crate::rule_system::fight::not_a_combat(action)),
        }
    }

    /// Steps opened from the battle: the time of day, its clock read at the bound now (p. 23);
    /// the PIP dice of the side whose bound it is, its commands as the roster has them (p. 27).
    fn open_battle(
        data: &DbmmData,
        action: &str,
        state: &BattleState,
    ) -> Result<Opening, RefereeError> {
        match action {
            "daylight" => daylight::open_battle(data, state),
            "pips" => pips::open_battle(data, state),
            "spontaneous_advance" => spontaneous::open_battle(data, state),
            "terrain_choice" => terrain_choice::open_battle(state),
            _ => Err(crate::rule_system::fight::not_a_combat(action)),
        }
    }

    /// The battle's clock and the decision at dusk land on the battle (p. 23, R-DBMM-39,
    /// R-DBMM-40); nothing else lands on a DBMM side.
    fn land_on_side(
        data: &DbmmData,
        state: &mut BattleState,
        side: usize,
        change: &Change,
        _rule: &str,
    ) -> Option<Vec<Change>> {
        clock::land(data, state, side, change)
            .or_else(|| terrain_choice::land(state, change))
            .map(|()| Vec::new())
    }

    /// A side's retreat at dusk recorded a second time, or before the clock started (p. 23).
    fn refuse_on_side(
        _data: &DbmmData,
        state: &BattleState,
        side: usize,
        change: &Change,
    ) -> Option<RefereeError> {
        clock::refuse(state, side, change)
    }

    fn follow_on(data: &DbmmData, before: &BattleState, after: &BattleState) -> Vec<FollowOn> {
        aftermath::follow_on(data, before, after)
    }

    fn standing(data: &DbmmData, state: &BattleState) -> Standing {
        standing::standing(data, state)
    }

    fn verdict(data: &DbmmData, state: &BattleState) -> Option<Verdict> {
        standing::verdict(data, state)
    }
}

fn choices(data: &DbmmData) -> Vec<ChoiceList> {
    vec![
        ChoiceList {
            field: "type".into(),
            options: data
                .types
                .iter()
                .map(|(k, t)| Choice {
                    key: k.clone(),
                    label: format!("{k} — {}", t.name),
                })
                .collect(),
        },
        ChoiceList {
            field: "grade".into(),
            options: data
                .grades
                .iter()
                .map(|(k, g)| Choice {
                    key: k.clone(),
                    label: format!("({k}) {}", g.name),
                })
                .collect(),
        },
        ChoiceList {
            field: "factors".into(),
            options: data
                .tactical_factors
                .iter()
                .filter(|f| !f.automatic && f.per.is_none())
                .fold(Vec::<Choice>::new(), |mut out, f| {
                    if !out.iter().any(|c| c.key == f.id) {
                        out.push(Choice {
                            key: f.id.clone(),
                            label: f.text.clone(),
                        });
                    }
                    out
                }),
        },
        listed(
            "action",
            data.pips.costs.iter().map(|c| (&c.id, c.text.as_str())),
        ),
        listed(
            "conditions",
            data.pips.modifiers.iter().map(|c| (&c.id, c.text.as_str())),
        ),
        listed(
            "weather",
            data.daylight
                .weather
                .iter()
                .map(|w| (&w.key, w.name.as_str())),
        ),
        // Each effect's text begins with its name: "Strong wind: −1 TF …".
        listed(
            "effects",
            data.weather
                .effects
                .iter()
                .map(|e| (&e.key, e.text.split(':').next().unwrap_or(&e.text))),
        ),
        // The climate table's climates and the seasons (p. 23), in the table's order.
        distinct("climate", data.daylight.times.iter().map(|r| &r.climate)),
        listed("season", data.setup.seasons.iter().map(|s| (s, s.as_str()))),
        // The terrain codes of the placing order (p. 20), as the sheet writes them.
        distinct(
            "terrain",
            data.setup
                .placement_order
                .iter()
                .flatten()
                .chain(&data.setup.without_dice),
        ),
        listed(
            "scale",
            data.scales.iter().map(|s| (&s.key, s.name.as_str())),
        ),
    ]
}

/// A line of the sheet inside a sentence: "Activate ally …" → "activate ally …"; a word in
/// capitals ("PIPs …") stays.
pub(super) fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    match (chars.next(), chars.clone().next()) {
        (Some(c), Some(d)) if c.is_uppercase() && !d.is_uppercase() => {
            c.to_lowercase().chain(chars).collect()
        }
        _ => text.to_string(),
    }
}

/// A pick list of codes the sheet writes as they are (climates, terrains), each once, in order.
fn distinct<'d>(field: &str, codes: impl Iterator<Item = &'d String>) -> ChoiceList {
    let mut options: Vec<Choice> = Vec::new();
    for code in codes {
        if !options.iter().any(|c| &c.key == code) {
            options.push(Choice {
                key: code.clone(),
                label: code.clone(),
            });
        }
    }
    ChoiceList {
        field: field.into(),
        options,
    }
}

/// A pick list of a field from the ruleset's rows, each as its key and the words shown.
fn listed<'d>(field: &str, rows: impl Iterator<Item = (&'d String, &'d str)>) -> ChoiceList {
    ChoiceList {
        field: field.into(),
        options: rows
            .map(|(key, label)| Choice {
                key: key.clone(),
                label: label.to_string(),
            })
            .collect(),
    }
}

/// An element and the figure scale its distances are wanted in.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DistancesSituation {
    pub element: element::Element,
    /// A figure scale of the ruleset (15mm, 25mm; default the first).
    #[serde(default)]
    pub scale: Option<String>,
}

fn distances(data: &DbmmData, s: &DistancesSituation) -> Result<Resolution, RefereeError> {
    let checked = element::check(data, &s.element, "element")?;
    let scale = match &s.scale {
        None => &data.scales[0],
        Some(key) => data.scale(key).ok_or_else(|| {
            RefereeError::new(
                ErrorCode::SituationUnknownScale,
                format!(
                    "no figure scale {}; the ruleset has {}",
                    crate::error::given(key),
                    crate::error::choices(data.scales.iter().map(|x| {
                        match x.figures_mm {
                            Some([lo, hi]) if lo > 1 => format!("{} ({lo}–{hi} mm figures)", x.key),
                            Some([_, hi]) => format!("{} (figures up to {hi} mm)", x.key),
                            None => x.key.clone(),
                        }
                    }))
                ),
            )
            .field("scale")
            .ruling("R-DBMM-14")
        })?,
    };
    let show = |paces: i64| {
        let mm = paces as f64 * scale.mm_per_pace;
        format!("{paces}p = {mm:.0} mm = {:.1}\"", mm / 25.4)
    };
    let mut r = Resolution::certain(
        &data.system.id,
        "distances",
        &scale.key,
        &format!(
            "{} at {} ({} mm per pace)",
            checked.element.label(),
            scale.name,
            scale.mm_per_pace
        ),
        Vec::new(),
    );
    let ruling = Some("R-DBMM-14");
    if let Some(m) = element::moves(data, &checked) {
        for (label, v) in ["GGo", "RGo", "DGo", "Road (march)"].iter().zip(m) {
            r.totals.push(Total::new(
                format!("Move in {label}"),
                v.map_or("may not enter".to_string(), |p| {
                    if p == 0 {
                        "may not move".into()
                    } else {
                        show(p)
                    }
                }),
                &data.movement.rule,
                ruling,
            ));
        }
    }
    if let Some(range) = element::shooting_range(data, &checked) {
        r.totals.push(Total::new(
            "Shooting range",
            show(range),
            &data.shooting.rule,
            ruling,
        ));
    }
    r.totals
        .push(Total::new("Threat zone", show(80), "p. 32", ruling));
    r.notes.push(crate::contract::Note::new(
        data.movement.march_moves.clone(),
        &data.movement.rule,
        None,
    ));
    Ok(r)
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ElementSituation {
    pub element: element::Element,
}

pub(crate) fn describe(data: &DbmmData, s: &ElementSituation) -> Result<Resolution, RefereeError> {
    let checked = element::check(data, &s.element, "element")?;
    let (me, _) = element::morale_halves(data, &checked);
    let mut r = Resolution::certain(
        &data.system.id,
        "element",
        "element",
        &format!("{}: {} ME", checked.element.label(), element::me_text(me)),
        Vec::new(),
    )
    .named(
        "element",
        format!("{} ({})", checked.type_code, checked.grade),
    );
    r.totals = element::describe(data, &checked);
    let traits = checked.traits();
    for (symbol, label) in [
        ("=", "Quick kill if it scores equal"),
        ("<", "Quick kill if it scores less"),
    ] {
        let lines: Vec<&str> = data
            .outcomes
            .exceptions
            .iter()
            .filter(|e| {
                e.quick_kill && e.scoring == symbol && data.selector(&e.type_code).matches(&traits)
            })
            .map(|e| e.text.as_str())
            .collect();
        if !lines.is_empty() {
            r.totals.push(Total::new(
                label,
                lines.join("; "),
                "p. 38–39",
                Some("R-DBMM-10"),
            ));
        }
    }
    if outcome::impetuous(data, &checked) {
        r.totals.push(Total::new(
            "Impetuous",
            "yes",
            &data.pursuit.impetuous_rule,
            None,
        ));
    }
    Ok(r)
}

#[cfg(test)]
mod tests;

/// The built-in tables, for the steps' own tests.
#[cfg(test)]
fn test_data() -> DbmmData {
    crate::systems::test_support::load("dbmm")
        .data::<Dbmm>()
        .unwrap()
        .clone()
}
