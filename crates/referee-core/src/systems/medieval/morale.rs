//! The MORALE track (6.1), regrouping scattered units (9.1.6–9.1.7) and fatigue (13.0).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::data::MedievalData;
use crate::contract::{effect, Chance, Change, Check, Note, Resolution, Target, Total};
use crate::error::RefereeError;
use crate::odds::{Band, Dist};
use crate::rule_system::resolve::roll_named;
use crate::rule_system::throws::Throws;
use crate::rule_system::{Die, Thrower};
use crate::state::BattleState;
use crate::ErrorCode;

/// Something that moves the MORALE track (6.1.4–6.1.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "MedievalMoraleEventKind")]
pub enum MoraleEventKind {
    /// An enemy unit eliminated (not by scatter, ride-down or a leader's death).
    Elimination,
    /// An enemy banner fell.
    BannerFall,
    /// A banner recaptured.
    BannerRecapture,
    /// An enemy leader died.
    LeaderDeath,
    /// The enemy grand leader died.
    GrandLeaderDeath,
    /// Boxes moved otherwise: by the umpire's hand, or a move stopped at the track's end (1 box
    /// each).
    Moved,
}

/// Which player an event benefits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "MedievalPlayer")]
pub enum Player {
    #[default]
    A,
    B,
}

#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "MedievalMoraleEvent")]
pub struct MoraleEvent {
    pub kind: MoraleEventKind,
    /// The player it benefits.
    pub to: Player,
    #[serde(default = "one")]
    #[ts(optional, as = "Option<u32>")]
    pub count: u32,
}

fn one() -> u32 {
    1
}

/// morale: the track after this turn's events, set in force in phase 9 (6.1.9).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "MedievalMoraleSituation")]
pub struct MoraleSituation {
    /// The counter when the turn began: positive in player A's favour.
    #[serde(default)]
    #[ts(optional, as = "Option<i64>")]
    pub track: i64,
    /// This turn's events, in order; in a battle, those its results moved the counter by.
    pub events: Vec<MoraleEvent>,
}

/// A battle's phase-9 step (6.1.9): the counter when the turn began and what this turn's results
/// moved it by, each move as the event it was (R-MED-35).
pub fn this_turn(data: &MedievalData, state: &BattleState) -> MoraleSituation {
    let m = &data.morale;
    let moved: i64 = state.morale_moves.iter().map(|x| x.boxes).sum();
    let mut events: Vec<MoraleEvent> = Vec::new();
    for x in &state.morale_moves {
        let to = if x.boxes > 0 { Player::A } else { Player::B };
        let kinds = [
            (
                MoraleEventKind::Elimination,
                m.elimination,
                &m.elimination_rule,
            ),
            (MoraleEventKind::BannerFall, m.banner, &m.banner_rule),
            (MoraleEventKind::LeaderDeath, m.leader, &m.leader_rule),
            (
                MoraleEventKind::GrandLeaderDeath,
                m.grand_leader,
                &m.grand_leader_rule,
            ),
        ];
        let (kind, count) = kinds
            .iter()
            .find(|(_, boxes, rule)| **rule == x.rule && *boxes == x.boxes.abs())
            .map_or(
                (MoraleEventKind::Moved, x.boxes.unsigned_abs()),
                |(k, _, _)| (*k, 1),
            );
        let count = u32::try_from(count).unwrap_or(u32::MAX);
        // One line per kind and player: "2 × units eliminated for player A".
        match events.iter_mut().find(|e| e.kind == kind && e.to == to) {
            Some(e) => e.count = e.count.saturating_add(count),
            None => events.push(MoraleEvent { kind, to, count }),
        }
    }
    MoraleSituation {
        track: state.morale_track - moved,
        events,
    }
}

pub fn morale(data: &MedievalData, s: &MoraleSituation) -> Result<Resolution, RefereeError> {
    let m = &data.morale;
    m.on_track(s.track, "track")?;
    let mut track = s.track;
    let mut totals = vec![Total {
        label: "MORALE track now".into(),
        value: format!("{:+}", s.track),
        rule: m.rule.clone(),
        ruling: None,
    }];
    for e in &s.events {
        let (boxes, rule, what) = match e.kind {
            MoraleEventKind::Elimination => {
                (m.elimination, &m.elimination_rule, "units eliminated")
            }
            MoraleEventKind::BannerFall | MoraleEventKind::BannerRecapture => {
                (m.banner, &m.banner_rule, "banner")
            }
            MoraleEventKind::LeaderDeath => (m.leader, &m.leader_rule, "leader death"),
            MoraleEventKind::GrandLeaderDeath => {
                (m.grand_leader, &m.grand_leader_rule, "grand leader death")
            }
            MoraleEventKind::Moved => (1, &m.rule, "box moved by hand"),
        };
        let moved = boxes * i64::from(e.count);
        let signed = match e.to {
            Player::A => moved,
            Player::B => -moved,
        };
        track += signed;
        totals.push(Total {
            label: format!("{} × {what} for player {:?}", e.count, e.to),
            value: format!("{signed:+}"),
            rule: rule.clone(),
            ruling: None,
        });
    }
    // The counter stops at the track's last box when the events would carry it further.
    if let Some(end) = m.track_ends.filter(|end| track.abs() > *end) {
        totals.push(Total {
            label: "At the end of the track".into(),
            value: format!("{track:+} → {:+}", end * track.signum()),
            rule: m.rule.clone(),
            ruling: None,
        });
        track = end * track.signum();
    }
    let favour = match track.cmp(&0) {
        std::cmp::Ordering::Greater => format!("player A gains {track} CM in every combat"),
        std::cmp::Ordering::Less => format!("player B gains {} CM in every combat", -track),
        std::cmp::Ordering::Equal => "no side gains CMs".to_string(),
    };
    totals.push(Total {
        label: "MORALE from next turn's phase 1".into(),
        value: format!("{track:+}: {favour}"),
        rule: m.applied_rule.clone(),
        ruling: None,
    });
    // Phase 9 sets the value in force (6.1.9); the counter stands there too, so a step the
    // umpire corrected corrects the counter.
    let effects = vec![effect(
        Target::Army("A".into()),
        Change::MoraleInForce { value: track },
        &m.applied_rule,
        Some("R-MED-35"),
    )];
    let mut r = Resolution::certain(
        &data.system.id,
        "morale",
        &format!("{track:+}"),
        &format!("The MORALE track ends the turn at {track:+}."),
        effects,
    );
    r.totals = totals;
    r.notes.push(Note::new(
        "Scatter losses, ride-downs and units lost to a leader's death do not move the track.",
        "9.1.5, 5.8.4, 8.1.6",
        None,
    ));
    Ok(r)
}

/// regroup: a scattered unit's roll at the start of its movement phase (9.1.6, 9.1.7).
#[derive(Clone, Debug, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "MedievalRegroupSituation")]
pub struct RegroupSituation {
    /// The unit's SPs.
    pub sp: u32,
    /// Its own leader is alive.
    pub leader_alive: bool,
    /// The grand leader is alive.
    pub grand_leader_alive: bool,
}

pub fn regroup(
    data: &MedievalData,
    s: &RegroupSituation,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    let rg = &data.regroup;
    if s.sp == 0 {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidStrength,
            "a unit with 0 SPs is eliminated: it has nothing to regroup",
        )
        .field("sp")
        .rule("1.2"));
    }
    if !s.leader_alive && !s.grand_leader_alive {
        let mut r = Resolution::certain(
            &data.system.id,
            "regroup",
            "eliminated",
            "Its leader and the grand leader are dead: the scattered unit is eliminated (no MORALE effect).",
            vec![effect(Target::Unit("scattered unit".into()), Change::DestroyAll, "9.1.7", None)],
        );
        r.checks
            .push(Check::holds("A leader lives to rally it", false, "9.1.7"));
        return Ok(r);
    }
    let under_grand_leader = !s.leader_alive;
    let lose_sp = under_grand_leader;
    let eliminated = lose_sp && s.sp <= 1;
    let rows = vec![
        (
            Band {
                min: None,
                max: Some(rg.at_least - 1),
            },
            "stays_scattered".to_string(),
        ),
        (
            Band {
                min: Some(rg.at_least),
                max: None,
            },
            "regroups".to_string(),
        ),
    ];
    let meaning = |code: &str| {
        if code == "stays_scattered" {
            return (
                "It stays on the Scattered Units track.".to_string(),
                Vec::new(),
            );
        }
        let place = if under_grand_leader {
            "within the grand leader's range, losing 1 SP"
        } else {
            "on any hex within its leader's range"
        };
        let mut effects = Vec::new();
        if eliminated {
            effects.push(effect(
                Target::Unit("scattered unit".into()),
                Change::DestroyAll,
                "9.1.7",
                None,
            ));
            return (
                "It would lose its last SP: eliminated.".to_string(),
                effects,
            );
        }
        if lose_sp {
            effects.push(effect(
                Target::Unit("scattered unit".into()),
                Change::LoseSp {
                    count: 1,
                    chosen_by: crate::contract::Chooser::Attacker,
                },
                "9.1.7",
                Some("R-MED-23"),
            ));
        }
        effects.push(effect(
            Target::Unit("scattered unit".into()),
            Change::Regroup,
            "9.1.6",
            None,
        ));
        effects.push(effect(
            Target::Unit("scattered unit".into()),
            Change::ResetChargeFactor,
            "9.1.8",
            None,
        ));
        (
            format!("It regroups {place}; it counts as moved, CF 0."),
            effects,
        )
    };
    let (distribution, outcome) = roll_named(&rg.dice, &rows, &meaning, dice)?;
    let mut r = Resolution::certain(&data.system.id, "regroup", "", "", vec![]);
    r.dice = rg.dice.clone();
    r.distribution = distribution;
    r.outcome = outcome;
    r.totals.push(Total {
        label: "Regroups on a d6 of at least".into(),
        value: rg.at_least.to_string(),
        rule: rg.rule.clone(),
        ruling: None,
    });
    if under_grand_leader {
        r.notes.push(Note::new(
            "Its leader is dead: it still rolls to regroup, and only on regrouping is it placed in the grand leader's range, losing 1 SP (with 1 SP left, eliminated).",
            "9.1.7",
            Some("R-MED-23"),
        ));
    }
    Ok(r)
}

/// fatigue: a leader's fatigue this turn and its effect on his units (13.1, 13.2).
#[derive(Clone, Debug, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "MedievalFatigueSituation")]
pub struct FatigueSituation {
    /// The leader's fatigue level at the start of the turn.
    pub level: u32,
    /// The leader moved or influenced a combat this turn (13.1.3).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub active: bool,
    /// A unit under him has CF above 0 (13.1.4).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub charging: bool,
    /// The player lowers it by 1 when it did not rise (13.1.5).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub rest: bool,
    /// Units under his command (horse archers excepted, 10.5.11).
    pub units: u32,
    /// Those units by their roster labels, in order (default: numbered): each scatter d6 is named
    /// by its unit, and a scatter lands on it.
    #[serde(default)]
    #[ts(optional, as = "Option<Vec<String>>")]
    pub unit_labels: Vec<String>,
    /// The leader by his roster name: the level the step gives lands on his row (13.1).
    #[serde(default)]
    #[ts(optional)]
    pub leader: Option<String>,
}

pub fn fatigue(
    data: &MedievalData,
    s: &FatigueSituation,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    let f = &data.fatigue;
    // 13.1.6: one level per turn at most.
    let level = if s.active || s.charging {
        s.level + 1
    } else if s.rest {
        s.level.saturating_sub(1)
    } else {
        s.level
    };
    let tired = level > f.above;
    // The leader's row takes the level the step gives, as its words say it, whatever the row
    // held before (13.1.3–13.1.6): applying does what the step says.
    let moved: Vec<crate::contract::Effect> = s
        .leader
        .iter()
        .map(|name| {
            effect(
                Target::Unit(name.clone()),
                Change::FatigueLevel { level },
                "13.1.3–13.1.6",
                None,
            )
        })
        .collect();
    let die = Dist::die(6)?;
    let scatter_each = die.probability_where(|r| *r < f.scatter_below);
    // How many units scatter: the sum of independent d6 tests, exactly.
    let each: Dist<u32> = die.map(|r| u32::from(*r < f.scatter_below));
    let mut count: Dist<u32> = Dist::certain(0);
    if tired {
        for _ in 0..s.units {
            count = count.joint(&each)?.map(|(a, b)| a + b);
        }
    }
    let mut r = Resolution::certain(
        &data.system.id,
        "fatigue",
        &format!("fatigue_{level}"),
        &if tired {
            format!(
                "Above {}: each unit under this leader scatters on a d6 below {} before it acts.",
                f.above, f.scatter_below
            )
        } else {
            format!("At most {}: no effect.", f.above)
        },
        moved.clone(),
    )
    .named(&format!("fatigue_{level}"), format!("Fatigue {level}"));
    r.totals.push(Total {
        label: "Fatigue level".into(),
        value: format!("{} → {level}", s.level),
        rule: "13.1.3–13.1.6".into(),
        ruling: None,
    });
    if tired {
        r.forecast
            .push(Chance::new("Each unit scatters", scatter_each, &f.rule));
        for (n, p) in count.outcomes() {
            r.forecast.push(Chance::new(
                format!("Exactly {n} of {} units scatter", s.units),
                p,
                &f.rule,
            ));
        }
    }
    r.notes.push(Note::new(
        "Horse archers are not affected by fatigue.",
        "10.5.11",
        None,
    ));
    // 13.2.1: above the limit, a d6 for each unit, asked once the level is known: each below the
    // mark scatters its unit.
    if !s.unit_labels.is_empty() && s.unit_labels.len() != s.units as usize {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidField,
            format!(
                "{} units are named for {} under his command: name each one once",
                s.unit_labels.len(),
                s.units
            ),
        )
        .field("unit_labels")
        .rule(&f.rule));
    }
    let names: Vec<String> = (0..s.units as usize)
        .map(|i| {
            s.unit_labels
                .get(i)
                .cloned()
                .unwrap_or_else(|| format!("unit {} under this leader", i + 1))
        })
        .collect();
    let mut throws = Throws::new(dice.unwrap_or(&[]));
    let asked = if tired {
        names
            .iter()
            .map(|n| Die::of(6, Thrower::A, n, "fatigue scatter"))
            .collect()
    } else {
        Vec::new()
    };
    let faces = throws.stage(asked)?;
    r.shown.faces = throws.finish()?;
    r.shown.in_turn = tired;
    if tired {
        r.dice = format!("d6 per unit ({})", s.units);
        r.outcome = faces.map(|faces| {
            let scattered: Vec<&String> = names
                .iter()
                .zip(&faces)
                .filter(|(_, d)| i64::from(**d) < f.scatter_below)
                .map(|(n, _)| n)
                .collect();
            let effects =
                moved
                    .iter()
                    .cloned()
                    .chain(scattered.iter().map(|n| {
                        effect(Target::Unit((*n).clone()), Change::Scatter, &f.rule, None)
                    }))
                    .collect();
            let meaning = match scattered.as_slice() {
                [] => format!("Fatigue {level}: no unit scatters."),
                some => format!(
                    "Fatigue {level}: {} scattered (d6 below {}).",
                    crate::error::and_list(&some.iter().map(|n| n.as_str()).collect::<Vec<_>>()),
                    f.scatter_below
                ),
            };
            crate::contract::Outcome {
                dice: faces.clone(),
                roll: 0,
                modified: 0,
                result: format!("fatigue_{level}"),
                meaning,
                effects,
                // Each unit's die by its name: "Knights 3 + 0 = 3 · Sergeants 5 + 0 = 5".
                sides: names
                    .iter()
                    .zip(&faces)
                    .map(|(n, d)| crate::contract::SideThrow {
                        label: n.clone(),
                        die: *d,
                        modifier: 0,
                        total: i64::from(*d),
                    })
                    .collect(),
            }
        });
    }
    Ok(r)
}

/// What happens to a banner (7.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "MedievalBannerEvent")]
pub enum BannerEvent {
    /// The holder passes it to a friendly unit on the same or an adjacent hex (7.1.3–7.1.4).
    Pass,
    /// The unit holding it is eliminated (7.1.5).
    HolderEliminated,
    /// A unit enters the hex of a fallen banner (7.1.6); unit says whose and what.
    UnitEnters,
}

/// banner: a banner held, passed, fallen, captured or recaptured (7.1, 6.1.5).
#[derive(Clone, Debug, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "MedievalBannerSituation")]
pub struct BannerSituation {
    pub event: BannerEvent,
    /// Friendly units left on the holder's hex (when the holder is eliminated).
    #[serde(default)]
    #[ts(optional, as = "Option<u32>")]
    pub friendly_units_on_hex: u32,
    /// The entering unit (when a unit enters the banner's hex).
    #[serde(default)]
    #[ts(optional)]
    pub unit: Option<super::units::MedUnit>,
    /// The entering unit is of the banner's own side: a recapture.
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub own_side: bool,
    /// The holder has already moved this turn (pass): the new holder cannot move (7.1.3).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub holder_moved: bool,
    /// Whose banner it is, player A's or B's: its fall and recapture move the MORALE track
    /// (6.1.5).
    #[serde(default)]
    #[ts(optional)]
    pub banner_of: Option<Player>,
}

impl Player {
    fn other(self) -> Player {
        match self {
            Player::A => Player::B,
            Player::B => Player::A,
        }
    }

    fn side(self) -> &'static str {
        match self {
            Player::A => "A",
            Player::B => "B",
        }
    }
}

/// The unit whose entering takes its side's fallen banner back: the umpire picks it on the
/// roster when the recapture is applied.
pub const RECAPTURING: &str = "recapturing unit";

pub fn banner(data: &MedievalData, s: &BannerSituation) -> Result<Resolution, RefereeError> {
    let m = &data.morale;
    // The fall moves the track to the banner's enemy, the recapture back to its side (6.1.5).
    let morale = |enemy: bool| -> Result<Vec<crate::contract::Effect>, RefereeError> {
        let own = s.banner_of.ok_or_else(|| {
            RefereeError::new(
                ErrorCode::SituationBannerOfMissing,
                "say whose banner it is, player A's or player B's: the MORALE track moves for the other player",
            )
            .field("banner_of")
            .rule(&m.banner_rule)
        })?;
        let to = if enemy { own.other() } else { own };
        Ok(vec![effect(
            Target::Army(to.side().into()),
            Change::Morale { boxes: m.banner },
            &m.banner_rule,
            (!enemy).then_some("R-MED-36"),
        )])
    };
    let (result, meaning, effects, checks): (&str, String, _, Vec<Check>) = match s.event {
        BannerEvent::Pass => (
            "passed",
            "The holder pays 1 MP and passes the banner to a friendly unit on the same or an adjacent hex.".into(),
            Vec::new(),
            vec![
                Check::umpire("The new holder is a regular unit (cavalry or non-ranged infantry)", "7.1.2, 1.3"),
                Check::holds(
                    "The new holder may still move with it (the holder passed it before moving)",
                    !s.holder_moved,
                    "7.1.3",
                ),
            ],
        ),
        BannerEvent::HolderEliminated if s.friendly_units_on_hex > 0 => (
            "held",
            "Another friendly unit on the hex takes the banner: it does not fall.".into(),
            Vec::new(),
            vec![Check::holds("A friendly unit is left on the hex to hold it", true, "7.1.4, 7.1.5")],
        ),
        BannerEvent::HolderEliminated => (
            "fallen",
            format!("The banner falls and stays on the hex; the enemy gains {} MORALE boxes.", m.banner),
            morale(true)?,
            vec![Check::holds("A friendly unit is left on the hex to hold it", false, "7.1.5")],
        ),
        BannerEvent::UnitEnters => {
            let entering = s.unit.as_ref().ok_or_else(|| {
                RefereeError::new(ErrorCode::SituationInvalidField, "enter the unit that enters the banner's hex")
                    .field("unit")
                    .rule("7.1.6")
            })?;
            let u = super::units::unit(data, entering, "unit")?;
            let regular = u.cavalry || u.ranged.is_none();
            let check = Check::holds("The entering unit is a regular unit", regular, "7.1.6, 1.3");
            match (regular, s.own_side) {
                (false, _) => ("not_taken", "Only a regular unit takes a fallen banner.".into(), Vec::new(), vec![check]),
                (true, false) => (
                    "captured",
                    "The enemy captures the fallen banner.".into(),
                    Vec::new(),
                    vec![check],
                ),
                // Its own side takes it back, captured or not: the fall is reversed (R-MED-36),
                // and the unit entering holds it from now on (6.1.5, 7.1.4, 7.1.6, R-MED-51).
                (true, true) => {
                    let mut effects = morale(false)?;
                    effects.push(effect(
                        Target::Unit(RECAPTURING.into()),
                        Change::Banner { held: true, count: None },
                        "7.1.4, 7.1.6",
                        Some("R-MED-51"),
                    ));
                    (
                        "recaptured",
                        format!("The banner is recaptured: the track moves {} boxes back to its side, and the unit entering holds it.", m.banner),
                        effects,
                        vec![check],
                    )
                }
            }
        }
    };
    let mut r = Resolution::certain(&data.system.id, "banner", result, &meaning, effects);
    r.checks = checks;
    r.notes.push(Note::new(
        "Units on or beside a friendly banner gain 1 CM (one banner at most).",
        "7.1.7",
        None,
    ));
    Ok(r)
}
