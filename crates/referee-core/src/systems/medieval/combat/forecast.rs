//! The forecast step (5.1.1 g, 5.4, 8.2.4–8.2.8, 9.1): the chained odds of what finally becomes
//! of each side over every result — losses with blocked retreats, elimination, the scatter d6,
//! friends ridden down and the leader's death roll.

use super::effects::{exposed, leader_losses, Aftermath, SideAftermath};
use super::table::Table;
use super::{CombatSituation, SideSupport};
use crate::contract::Chance;
use crate::error::RefereeError;
use crate::odds::{DiceSpec, Dist};
use crate::systems::medieval::data::MedievalData;
use crate::systems::medieval::result::{CombatResult, Part};
use crate::systems::medieval::retreat::Retreat;
use crate::systems::medieval::units::Unit;
use crate::ErrorCode;

/// Both sides' forecast lines, the attacker's first; a leader alone has none (8.2.9).
pub(super) fn both_sides(
    data: &MedievalData,
    s: &CombatSituation,
    table: &Table,
    after: &Aftermath,
) -> Result<Vec<Chance>, RefereeError> {
    let attacker = fate(data, "attacker", &after.attacker, &s.attacker);
    let mut lines = forecast(data, &table.results, &attacker, |r| r.attacker)?;
    if !s.leader_alone {
        let defender = fate(data, "defender", &after.defender, &s.defender);
        lines.extend(forecast(data, &table.results, &defender, |r| r.defender)?);
    }
    Ok(lines)
}

/// The COMBAT SCATTER column of the most easily scattered of the units.
fn scatter_column(data: &MedievalData, units: &[(Unit, u32)]) -> String {
    units
        .iter()
        .max_by_key(|(u, _)| data.scatter.threshold(&u.scatter, 2))
        .map(|(u, _)| u.scatter.clone())
        .unwrap_or_default()
}

/// A side as the forecast follows it.
fn fate(
    data: &MedievalData,
    name: &'static str,
    after: &SideAftermath,
    support: &SideSupport,
) -> Fate {
    let exposed = exposed(&after.read);
    Fate {
        name,
        sp: after.sp,
        route: after.route.clone(),
        leaders: after
            .leaders
            .iter()
            .map(|l| (l.name.clone(), l.split))
            .collect(),
        scatter_immune: exposed.is_empty(),
        scatter_column: scatter_column(data, &exposed),
        track_full: support.scatter_track_full,
    }
}

/// With the side on several hexes: the SPs on a leader's hex and on the others (R-MED-31).
type Split = Option<(u32, u32)>;

/// A side for the chained forecast.
struct Fate {
    name: &'static str,
    sp: u32,
    route: Retreat,
    /// Each leader stacked with the side's units, who rolls for his life when they retreat
    /// (8.2.4): his name and, with the side on several hexes, the SPs on his hex and on the
    /// others. His roll counts the losses of his hex only (8.2.4–8.2.5, R-MED-31).
    leaders: Vec<(Option<String>, Split)>,
    /// Every unit of the side is stacked with a leader: none scatters (9.1.3).
    scatter_immune: bool,
    /// The COMBAT SCATTER column of the side's most easily scattered unit not with a leader.
    scatter_column: String,
    /// Scattered units are eliminated (9.1.4).
    track_full: bool,
}

/// What finally becomes of a side after one result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct End {
    lost: u32,
    retreated: bool,
    eliminated: bool,
    scattered: bool,
    /// The leaders who die, one bit each in the order of the side's leaders.
    leaders_die: u32,
    /// The side's cavalry rode friendly units down in its retreat (5.4.4).
    rode_down: bool,
}

fn end_of(
    data: &MedievalData,
    side: &Fate,
    part: Part,
    leader_roll: &Dist<i64>,
) -> Result<Dist<End>, crate::odds::OddsError> {
    let lost = part.loss
        + side
            .route
            .blocked_sp(part.retreat, part.loss, data.retreat.blocked_sp_per_hex);
    let eliminated = lost >= side.sp;
    let base = End {
        lost: lost.min(side.sp),
        retreated: part.retreat > 0,
        eliminated,
        scattered: false,
        leaders_die: 0,
        rode_down: !side.route.ridden(part.retreat, part.loss).is_empty(),
    };
    // 5.1.1 g: after a retreat, the d6 scatter roll; none when stacked with a leader (9.1.3).
    let scatter: Dist<bool> = if eliminated || part.retreat == 0 || side.scatter_immune {
        Dist::certain(false)
    } else if part.scattered {
        Dist::certain(true)
    } else {
        let at_most = data.scatter.threshold(&side.scatter_column, part.retreat);
        Dist::die(6)?.map(|r| *r <= i64::from(at_most))
    };
    // 8.2.4–8.2.5, R-MED-7: 2d6 − SP lost ≤ hexes to retreat. The owner spreads the losses
    // (5.4.7): his leader's hex takes those the other hexes cannot (R-MED-31). On one hex as on
    // several, the roll subtracts the SPs the units can lose, never the nominal loss (5.4.6).
    // Each leader throws his own 2d6 (8.2.4, R-MED-40).
    let mut leaders: Dist<u32> = Dist::certain(0);
    if part.retreat > 0 {
        for (i, (_, split)) in side.leaders.iter().enumerate().take(32) {
            let leader_lost = leader_losses(base.lost, *split);
            let dies = leader_roll.map(|r| *r - i64::from(leader_lost) <= i64::from(part.retreat));
            leaders = leaders
                .joint(&dies)?
                .map(|(mask, d)| if *d { mask | (1 << i) } else { *mask });
        }
    }
    let track_full = side.track_full;
    Ok(scatter.joint(&leaders)?.map(move |(s, l)| End {
        scattered: *s,
        eliminated: base.eliminated || (*s && track_full),
        leaders_die: *l,
        ..base
    }))
}

fn forecast(
    data: &MedievalData,
    results: &Dist<CombatResult>,
    side: &Fate,
    pick: fn(&CombatResult) -> Part,
) -> Result<Vec<Chance>, RefereeError> {
    let dice: DiceSpec = data.leader_death.dice.parse().map_err(|e: String| {
        RefereeError::new(ErrorCode::RulesetInvalid, e).field("leader_death.dice")
    })?;
    let leader_roll = dice.distribution()?;
    let ends = results.and_then(|r| end_of(data, side, pick(r), &leader_roll))?;
    let c = &data.combat;
    let mut out = vec![
        (
            format!("The {} loses SP", side.name),
            ends.probability_where(|e| e.lost > 0),
            c.rule.clone(),
        ),
        (
            format!("The {} retreats", side.name),
            ends.probability_where(|e| e.retreated),
            "5.4".to_string(),
        ),
        (
            format!("The {} is scattered", side.name),
            ends.probability_where(|e| e.scattered),
            data.scatter.rule.clone(),
        ),
        (
            format!("The {} is eliminated", side.name),
            ends.probability_where(|e| e.eliminated),
            format!("{}, {}", c.rule, data.retreat.rule),
        ),
    ];
    let rides = ends.probability_where(|e| e.rode_down);
    if rides.numerator() > 0 {
        out.push((
            format!(
                "The {}'s retreating cavalry rides down friendly units",
                side.name
            ),
            rides,
            "5.4.4, 5.8.7".to_string(),
        ));
    }
    for (i, (name, _)) in side.leaders.iter().enumerate().take(32) {
        let bit = 1u32 << i;
        // Named as the roster names him, and by his own 2d6 (8.2.4, R-MED-40).
        let who = match name {
            Some(n) => format!("The {}'s leader {n}", side.name),
            None => format!("The {}'s leader", side.name),
        };
        out.push((
            format!("{who} dies on his death 2d6"),
            ends.probability_where(|e| e.leaders_die & bit != 0),
            data.leader_death.rule.clone(),
        ));
        // 8.2.6–8.2.8: he retreats on his own; with every unit of his stack gone he stands
        // alone, and an enemy entering his hex kills him.
        out.push((
            format!("{who} lives but is left alone (killed if an enemy enters his hex)"),
            ends.probability_where(|e| e.eliminated && e.leaders_die & bit == 0),
            "8.2.6, 8.2.7, 8.2.8".to_string(),
        ));
    }
    Ok(out
        .into_iter()
        .map(|(label, p, rule)| Chance::new(label, p, &rule))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::odds::DiceSpec;
    use crate::systems::{medieval::Medieval, test_support::load};

    fn leader_dies(leader_hex: Option<(u32, u32)>, part: Part) -> String {
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let side = Fate {
            name: "defender",
            sp: 3,
            route: Retreat::default(),
            leaders: vec![(None, leader_hex)],
            scatter_immune: true,
            scatter_column: String::new(),
            track_full: false,
        };
        let roll = "2d6".parse::<DiceSpec>().unwrap().distribution().unwrap();
        end_of(data, &side, part, &roll)
            .unwrap()
            .probability_where(|e| e.leaders_die & 1 != 0)
            .to_string()
    }

    #[test]
    fn the_leader_counts_the_losses_of_his_own_hex() {
        // 8.2.4–8.2.5: D2-1 on a side of two hexes, the leader's with 1 SP and the other with 2.
        let d2_1 = Part {
            loss: 1,
            retreat: 2,
            scattered: false,
        };
        // The whole side's loss counted: 2d6 − 1 ≤ 2, 2d6 ≤ 3: 3 of 36.
        assert_eq!(leader_dies(None, d2_1), "1/12");
        // The other hex takes the loss (R-MED-31): 2d6 ≤ 2, 1 of 36.
        assert_eq!(leader_dies(Some((1, 2)), d2_1), "1/36");
        // A loss of 3 on 2 + 1 SPs: the leader's hex takes 1: 2d6 ≤ 3 again.
        let d2_3 = Part { loss: 3, ..d2_1 };
        assert_eq!(leader_dies(Some((1, 2)), d2_3), "1/12");
    }

    #[test]
    fn the_leader_counts_the_sps_his_units_can_lose_on_one_hex_as_on_several() {
        // 8.2.5, 5.4.6: a 2-SP unit with its leader on D2-1, its retreat blocked: 1 + 2 SPs
        // nominal, 2 it can lose. 2d6 − 2 ≤ 2: 6 of 36 on one hex and on several (R-MED-31).
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let blocked = crate::systems::medieval::retreat::Route::new(
            data,
            None,
            "defender",
            &[],
            &[2],
            Some(0),
            false,
        )
        .unwrap();
        let roll = "2d6".parse::<DiceSpec>().unwrap().distribution().unwrap();
        let d2_1 = Part {
            loss: 1,
            retreat: 2,
            scattered: false,
        };
        let dies = |leader_hex| {
            let side = Fate {
                name: "defender",
                sp: 2,
                route: Retreat::One(blocked.clone()),
                leaders: vec![(None, leader_hex)],
                scatter_immune: true,
                scatter_column: String::new(),
                track_full: false,
            };
            end_of(data, &side, d2_1, &roll)
                .unwrap()
                .probability_where(|e| e.leaders_die & 1 != 0)
                .to_string()
        };
        assert_eq!(dies(None), "1/6");
        assert_eq!(dies(Some((2, 0))), "1/6");
    }

    #[test]
    fn the_5_1_1_defender_is_scattered_2_times_in_9() {
        // 4:1: scattered outright on 2 (D3R), by the d6 on D2 (1–2) and D3 (1–3): 8 of 36.
        use super::super::test_support::{counted, example_5_1_1, read_on};
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let s = example_5_1_1();
        let fight = counted(data, &s);
        let (after, table) = read_on(data, &s, &fight, "4:1");
        let lines = both_sides(data, &s, &table, &after).unwrap();
        let chance = |label: &str| {
            lines
                .iter()
                .find(|c| c.label == label)
                .map(|c| c.probability.clone())
        };
        assert_eq!(chance("The defender is scattered").as_deref(), Some("2/9"));
        assert_eq!(chance("The defender retreats").as_deref(), Some("11/12"));
        assert_eq!(chance("The attacker's leader dies on his death 2d6"), None);
    }
}
