//! DBMM combats opened from the roster: the first element picked on each side fights; in close
//! combat the others picked are overlaps of the enemy element (p. 35), and the friends picked
//! behind or on the enemy's flank count on both elements they concern (p. 36–38, R-DBMM-38). The
//! bound is the side's the umpire names, else the attackers' (R-DBMM-37).

use super::combat::{
    may_support, CloseBound, CloseCombatSituation, Fighter as Side, Overlap, ShootingBound,
    ShootingSituation, Support, Time,
};
use super::data::DbmmData;
use super::morale::CommandState;
use super::roster::DbmmElement;
use super::standing::{command_of, command_states};
use crate::error::RefereeError;
use crate::rule_system::fight::{not_a_combat, one_each, targets, Fighter, Labels, Opening, Sides};
use crate::rule_system::{ContactInfo, ContactKind, FightPart};
use crate::state::clock::clock_text;
use crate::state::BattleState;
use crate::ErrorCode;
use std::collections::BTreeMap;

/// The fighting element and up to one overlap on each of the enemy's two flanks (p. 35).
const MOST_PICKED: usize = 3;

/// A contact as the app offers it to be picked, in the sheet's words (R-DBMM-38).
fn contact(
    kind: ContactKind,
    parts: &[FightPart],
    at_most: u32,
    label: &str,
    counts: &str,
    rule: &str,
) -> ContactInfo {
    ContactInfo {
        kind,
        parts: parts.to_vec(),
        at_most,
        label: label.into(),
        counts: counts.into(),
        rule: rule.into(),
        ruling: Some("R-DBMM-38".into()),
    }
}

/// The contacts a close combat takes, on either side: overlaps (the second and third elements
/// picked, one on each of the enemy's flanks, p. 35), a friend behind (p. 36, 42) and a friend
/// on the enemy's flank (p. 37–38).
pub fn close_combat_contacts() -> Vec<ContactInfo> {
    use ContactKind::{Behind, OnEnemyFlank, Overlap};
    let both = [FightPart::Attackers, FightPart::Defenders];
    vec![
        contact(
            Overlap,
            &both,
            (MOST_PICKED - 1) as u32,
            "Overlapping {enemy}",
            "{enemy} is overlapped on that flank.",
            "p. 35",
        ),
        contact(
            Behind,
            &both,
            1,
            "Behind {front}",
            "Rear support for {front} where the table allows it; the friend behind {front} in its outcome.",
            "p. 36, p. 42",
        ),
        contact(
            OnEnemyFlank,
            &both,
            1,
            "On the flank of {enemy}",
            "An enemy front edge on the flank of {enemy}; it recoils with {front}.",
            "p. 37–38",
        ),
    ]
}

/// The contact shooting takes: a friend behind the target, for the outcomes that reach it
/// (p. 42).
pub fn shooting_contacts() -> Vec<ContactInfo> {
    vec![contact(
        ContactKind::Behind,
        &[FightPart::Defenders],
        1,
        "Behind {front}",
        "The friend behind {front} in its outcome.",
        "p. 42",
    )]
}

/// Whether an element fights shaken because of its command's morale (p. 43): every element of
/// a broken (or shattered) command, and the 1 ME and ½ ME elements and Bge not (S) of a
/// disheartened one. With the sentence that says why.
fn shaken_by_command(
    data: &DbmmData,
    sides: &Sides<DbmmElement>,
    f: &Fighter<DbmmElement>,
) -> Option<String> {
    let command = command_of(f.unit);
    let (_, state) = command_states(data, sides.state, &f.unit.side)
        .into_iter()
        .find(|(name, _)| *name == command)?;
    let element = &f.own.element;
    let shaken = match state {
        CommandState::Steady => false,
        CommandState::Disheartened => {
            let halves = super::element::check(data, element, "")
                .map(|c| super::element::morale_halves(data, &c).0)
                .unwrap_or(0);
            halves == 1 || halves == 2 || (element.type_code == "Bge" && element.grade != "S")
        }
        CommandState::Broken | CommandState::Shattered => true,
    };
    shaken.then(|| {
        format!(
            "{}'s command ({command}) is {}: it fights shaken, −1 (p. 43, p. 37).",
            f.label,
            state.code()
        )
    })
}

/// The fighter as the sheet takes it, with the shaken factor its command's morale gives it.
fn fighter(
    data: &DbmmData,
    sides: &Sides<DbmmElement>,
    f: &Fighter<DbmmElement>,
    asks: &mut Vec<String>,
) -> Side {
    let mut side = Side::of(element(f));
    if let Some(why) = shaken_by_command(data, sides, f) {
        side.factors.push(SHAKEN.to_string());
        asks.push(why);
    }
    side
}

/// The tactical factor "Broken or shaken in close combat or shot at" (p. 37).
const SHAKEN: &str = "shaken";

/// The situation's time of day.
const TIME_FIELD: &str = "time";

/// The period of the battle's current bound as its clock reads it (p. 23, R-DBMM-39), with the
/// time field's label and a line saying where it came from ("Night — bound 6, 16:40"); day, as
/// the umpire leaves it, before the clock has started. The umpire may still change it.
fn time_from_clock(data: &DbmmData, state: &BattleState) -> Option<(Time, String)> {
    let now = super::clock::now(data, state.clock.as_ref()?, state.turn)?;
    let period = match now.period {
        Time::Day => "Day",
        Time::Dusk => "Dusk",
        Time::Night => "Night",
        Time::Dawn => "Dawn",
    };
    Some((
        now.period,
        format!("{period} — bound {}, {}", now.bound, clock_text(now.at)),
    ))
}

/// Whether the moon is up now, as the battle's clock reads it (p. 23, R-DBMM-31): the night's
/// shooting sees 160p by moonlight, 80p without.
fn moon_up(data: &DbmmData, state: &BattleState) -> bool {
    state
        .clock
        .as_ref()
        .and_then(|c| super::clock::now(data, c, state.turn))
        .and_then(|now| now.moon_up)
        .unwrap_or(false)
}

/// The opening with the time of day filled in from the battle's clock, labelled as read from
/// it, and the line that says so.
fn with_clock(
    data: &DbmmData,
    state: &BattleState,
    time: &mut Time,
    asks: &mut Vec<String>,
) -> BTreeMap<String, String> {
    let mut labels = BTreeMap::new();
    if let Some((period, read)) = time_from_clock(data, state) {
        *time = period;
        labels.insert(
            TIME_FIELD.to_string(),
            format!("Time of day, from the battle's clock: {read}"),
        );
        asks.push(format!(
            "{read}: the time of day read from the battle's clock (p. 23, R-DBMM-39); change it if this fight is at another time."
        ));
    }
    labels
}

pub fn open(
    data: &DbmmData,
    action: &str,
    sides: &Sides<DbmmElement>,
) -> Result<Opening, RefereeError> {
    let (a, b) = (&sides.attackers[0], &sides.defenders[0]);
    let bound_side = if sides.attackers_bound { a } else { b };
    let mut asks: Vec<String> = vec![format!(
        "Fought in the bound of {} (R-DBMM-37).",
        bound_side.unit.side
    )];
    // An (X) element fights ungraded until its X-grading line is entered (R-DBMM-6).
    let ungraded = |f: &Fighter<DbmmElement>| {
        (f.own.element.grade == "X" && f.own.element.counts_as.is_none()).then(|| {
            format!(
                "{} is graded (X): enter the X-grading line it counts as in this combat (p. 4–9, R-DBMM-6).",
                f.label
            )
        })
    };
    match action {
        "close_combat" => {
            if sides.attackers.len() > MOST_PICKED || sides.defenders.len() > MOST_PICKED {
                return Err(RefereeError::new(
                    ErrorCode::FightTooManyUnits,
                    "An element has two flanks: pick the element in front contact and at most two overlapping it on each side.",
                )
                .rule("p. 35"));
            }
            asks.push("The second and third elements picked on a side overlap the enemy element (p. 35); a friend behind or on the enemy’s flank is picked as such (p. 36–38).".into());
            asks.push(
                "Set the going, the edge in contact and the tactical factors claimed (p. 36–38)."
                    .into(),
            );
            asks.extend([a, b].into_iter().filter_map(ungraded));
            let mut fa = Side {
                overlaps: overlaps(&sides.defenders[1..]),
                ..fighter(data, sides, a, &mut asks)
            };
            let mut fb = Side {
                overlaps: overlaps(&sides.attackers[1..]),
                ..fighter(data, sides, b, &mut asks)
            };
            contacts(data, sides, a, (&mut fa, &mut fb), &mut asks)?;
            contacts(data, sides, b, (&mut fb, &mut fa), &mut asks)?;
            let mut time = Time::default();
            let labels = with_clock(data, sides.state, &mut time, &mut asks);
            let situation = CloseCombatSituation {
                a: fa,
                b: fb,
                bound: if sides.attackers_bound {
                    CloseBound::A
                } else {
                    CloseBound::B
                },
                time,
            };
            Ok(
                Opening::new(&situation, targets(sides, Labels::Units), asks)?
                    .worded(Vec::new(), labels),
            )
        }
        "shooting" => {
            if sides.attackers.len() > 1
                || sides.defenders.len() > 1
                || !sides.on_enemy_flank.is_empty()
                || friend_behind(sides, a).is_some()
            {
                return Err(one_each(
                    "Shooting is resolved between the primary shooter and its target (a friend may stand behind the target only)",
                    "p. 34",
                ));
            }
            if sides.behind.len() > 1 {
                return Err(one_behind(b));
            }
            asks.push("Set the range in paces and any aiding shooters (p. 34, p. 37).".into());
            asks.extend([a, b].into_iter().filter_map(ungraded));
            let mut target = fighter(data, sides, b, &mut asks);
            // The friend behind the target, for the outcomes that reach it (p. 42).
            target.behind = friend_behind(sides, b).map(element);
            let mut time = Time::default();
            let labels = with_clock(data, sides.state, &mut time, &mut asks);
            let moonlight = moon_up(data, sides.state);
            let situation = ShootingSituation {
                // "Shaken … in close combat or shot at": the target only (p. 37).
                shooter: Side::of(element(a)),
                target,
                shoots_back: false,
                bound: if sides.attackers_bound {
                    ShootingBound::Shooter
                } else {
                    ShootingBound::Target
                },
                range: None,
                bounds_of_rain: 0,
                time,
                moonlight,
            };
            Ok(
                Opening::new(&situation, targets(sides, Labels::Units), asks)?
                    .worded(Vec::new(), labels),
            )
        }
        _ => Err(not_a_combat(action)),
    }
}

/// The element as the sheet takes it, named as on the roster.
fn element(f: &Fighter<DbmmElement>) -> super::element::Element {
    f.own.now(&f.label)
}

fn overlaps(fighters: &[Fighter<DbmmElement>]) -> Vec<Overlap> {
    fighters
        .iter()
        .map(|f| Overlap {
            type_code: f.own.element.type_code.clone(),
            grade: Some(f.own.element.grade.clone()),
        })
        .collect()
}

/// The refusal of a second friend behind an element, or on the enemy's flank.
fn one_behind(front: &Fighter<DbmmElement>) -> RefereeError {
    RefereeError::new(
        ErrorCode::FightTooManyUnits,
        format!(
            "{} has one friend directly behind it and one on the enemy's flank at most: pick one of each.",
            front.label
        ),
    )
    .rule("p. 36, p. 38")
}

/// The friend picked behind `front`: one of its side (p. 36, p. 42).
fn friend_behind<'f, 'a>(
    sides: &'f Sides<'a, DbmmElement>,
    front: &Fighter<DbmmElement>,
) -> Option<&'f Fighter<'a, DbmmElement>> {
    sides.behind.iter().find(|f| f.unit.side == front.unit.side)
}

/// The contacts `front`'s side picked besides the fighters, each counted on both elements it
/// concerns (R-DBMM-38): a friend behind is the front element's rear support where the sheet has
/// a row for it (p. 36) and the friend behind its outcome may destroy (p. 42); a friend on the
/// enemy's flank is an enemy front edge on that element's flank (p. 37) and the friend who
/// recoils with its own front element (p. 38).
fn contacts(
    data: &DbmmData,
    sides: &Sides<DbmmElement>,
    front: &Fighter<DbmmElement>,
    (me, enemy): (&mut Side, &mut Side),
    asks: &mut Vec<String>,
) -> Result<(), RefereeError> {
    let ours = |picked: &[Fighter<'_, DbmmElement>]| -> Vec<Side> {
        picked
            .iter()
            .filter(|f| f.unit.side == front.unit.side)
            .map(|f| Side::of(element(f)))
            .collect()
    };
    let (behind, flank) = (ours(&sides.behind), ours(&sides.on_enemy_flank));
    if behind.len() > 1 || flank.len() > 1 {
        return Err(one_behind(front));
    }
    if let Some(rear) = friend_behind(sides, front) {
        me.behind = Some(element(rear));
        // Rear support is of the same command (p. 36); a friend of another only stands behind.
        if command_of(rear.unit) == command_of(front.unit)
            && may_support(data, &front.own.element, &rear.own.element)
        {
            me.support = Some(Support {
                ranks: vec![element(rear)],
                same_command: true,
                lined_up: true,
                facing: true,
                army_list_permits: false,
            });
            asks.push(format!(
                "{} behind {} is claimed as its rear support, lined up and facing the enemy (p. 36): untick it if it is not.",
                rear.label, front.label
            ));
        }
    }
    if let Some(friend) = flank.into_iter().next() {
        me.friend_on_enemy_flank = Some(friend.element);
        enemy.enemy_on_flank_or_rear += 1;
    }
    Ok(())
}
