//! The dice asked in turn (5.1.1 f–g, 8.2.4): the table's 2d6, then the scatter d6 of each side
//! the result makes retreat that a d6 could scatter — not one scattered outright (R), eliminated,
//! or whose every unit stands with a leader (9.1.3) — and the leader-death 2d6 of each side's
//! stacked leader whose units it makes retreat (R-MED-40).

use super::effects::{leader_losses, Aftermath, SideAftermath, StackedLeader};
use super::strength::Fighters;
use super::table::Table;
use super::words::SideNames;
use crate::contract::Outcome;
use crate::error::RefereeError;
use crate::rule_system::throws::Throws;
use crate::systems::medieval::data::MedievalData;
use crate::systems::medieval::result::Part;

/// Whether a side's part of the result asks its scatter d6: it retreats, is not scattered
/// outright, has units a d6 could scatter, and keeps an SP after its blocked hexes (5.4.6).
pub(super) fn asks_scatter(data: &MedievalData, part: Part, side: &SideAftermath, sp: u32) -> bool {
    if part.retreat == 0 || part.scattered || !side.read.asks(data, part.retreat) {
        return false;
    }
    let lost = part.loss
        + side
            .route
            .blocked_sp(part.retreat, part.loss, data.retreat.blocked_sp_per_hex);
    lost < sp
}

/// The outcome of the dice entered so far: none until the table's 2d6 and every scatter d6 the
/// result asks for are in.
pub(super) fn outcome(
    data: &MedievalData,
    table: &Table,
    after: &Aftermath,
    words: &SideNames,
    throws: &mut Throws,
    dice: Option<&[u32]>,
    [attackers, defenders]: [&Fighters; 2],
) -> Result<Option<Outcome>, RefereeError> {
    let mut table_dice = crate::rule_system::dice_of(&data.system.dice).unwrap_or_default();
    for d in &mut table_dice {
        d.purpose = Some("combat".into());
    }
    let Some(faces) = throws.stage(table_dice)? else {
        return Ok(None);
    };
    let roll = crate::rule_system::resolve::faces_total(&table.spec, &faces)?;
    let code = table.code_at(roll)?.to_string();
    let r = table.parse(&code)?;
    let mut sides = vec![(r.attacker, &after.attacker, attackers.counter_sp())];
    if !after.leader_alone {
        sides.push((r.defender, &after.defender, defenders.counter_sp()));
    }
    // 8.2.4: every leader stacked with a side the result makes retreat throws for his life.
    let leaders: Vec<(Part, &SideAftermath, &StackedLeader)> = sides
        .iter()
        .filter(|(part, _, _)| part.retreat > 0)
        .flat_map(|&(part, side, _)| side.leaders.iter().map(move |l| (part, side, l)))
        .collect();
    sides.retain(|(part, side, sp)| asks_scatter(data, *part, side, *sp));
    let mut asked: Vec<_> = sides.iter().map(|(_, side, _)| side.read.die()).collect();
    asked.extend(leaders.iter().flat_map(|(_, _, l)| l.dice()));
    Ok(throws.stage(asked)?.map(|faces| {
        let (scatter_faces, leader_faces) = faces.split_at(sides.len());
        let mut effects = after.effects(&r);
        let mut meaning = vec![words.meaning(&r)];
        meaning.extend(words.landings(&r, after));
        for ((part, side, _), face) in sides.iter().zip(scatter_faces) {
            let targets = side.read.scattered(data, part.retreat, *face);
            meaning.push(side.read.words(*face, &targets));
            effects.extend(side.read.effects(
                targets,
                &data.scatter.rule,
                data.scatter.ruling.as_deref(),
            ));
        }
        for ((part, side, leader), faces) in leaders.iter().zip(leader_faces.chunks(2)) {
            let lost = side.losses(data, *part);
            let (said, done) = leader.outcome(
                data,
                part.retreat,
                leader_losses(lost, leader.split),
                lost >= side.sp,
                side.route
                    .leader_landing(leader.hex, part.retreat, part.loss),
                faces,
            );
            meaning.push(said);
            effects.extend(done);
        }
        Outcome {
            dice: dice.unwrap_or(&[]).to_vec(),
            roll,
            modified: roll,
            meaning: meaning.join(" "),
            effects,
            result: code,
            sides: Vec::new(),
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{counted, example_5_1_1, read_on};
    use super::*;
    use crate::systems::{medieval::Medieval, test_support::load};

    /// The outcome of `faces` thrown for a fight read on the 4:1 column.
    fn thrown(
        data: &super::super::super::data::MedievalData,
        s: &super::super::CombatSituation,
        faces: &[u32],
    ) -> Option<Outcome> {
        let fight = counted(data, s);
        let (after, table) = read_on(data, s, &fight, "4:1");
        let mut throws = Throws::new(faces);
        outcome(
            data,
            &table,
            &after,
            &SideNames::of(s),
            &mut throws,
            Some(faces),
            fight.sides(),
        )
        .unwrap()
    }

    fn rolled(faces: &[u32]) -> Option<Outcome> {
        let ruleset = load("medieval");
        thrown(ruleset.data::<Medieval>().unwrap(), &example_5_1_1(), faces)
    }

    #[test]
    fn the_5_1_1_roll_of_4_then_a_scatter_d6_of_3_leaves_the_defender_in_order() {
        // Light cavalry scatter on 1–2 after D2.
        let kept = rolled(&[1, 3, 3]).unwrap();
        assert_eq!((kept.roll, kept.result.as_str()), (4, "-1/D2"));
        let scattered = rolled(&[1, 3, 2]).unwrap();
        assert!(scattered.effects.len() > kept.effects.len());
        // The 2d6 alone: the scatter d6 is still to come.
        assert!(rolled(&[1, 3]).is_none());
    }

    #[test]
    fn a_retreat_along_a_named_route_lands_on_its_last_hex_and_says_so() {
        // R-MED-44: the 5.1.1 fight's D2 along 14.05 and 15.05 ends on 15.05; a quick combat
        // without a route and without names says nothing of where it ends.
        use crate::contract::{Change, Target};
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let mut s = example_5_1_1();
        let quiet = thrown(data, &s, &[1, 3, 3]).unwrap();
        assert!(!quiet.meaning.contains("retreat ends"), "{}", quiet.meaning);
        assert!(!quiet.meaning.contains("route"), "{}", quiet.meaning);
        s.defender.retreat_hexes = Some(
            serde_json::from_value(serde_json::json!([{ "label": "14.05" }, { "label": "15.05" }]))
                .unwrap(),
        );
        let o = thrown(data, &s, &[1, 3, 3]).unwrap();
        assert!(
            o.meaning
                .contains("The defender: the retreat ends on hex 15.05."),
            "{}",
            o.meaning
        );
        assert!(o.effects.iter().any(|e| e.target == Target::Defender
            && e.change
                == Change::RetreatTo {
                    hex: "15.05".into()
                }));
        // A route that ends before the retreat does: nothing lands, and the words say so.
        s.defender.retreat_hexes =
            Some(serde_json::from_value(serde_json::json!([{ "label": "14.05" }])).unwrap());
        let short = thrown(data, &s, &[1, 3, 3]).unwrap();
        assert!(
            short
                .meaning
                .contains("the retreat route names no hex where the retreat ends"),
            "{}",
            short.meaning
        );
        assert!(!short
            .effects
            .iter()
            .any(|e| matches!(e.change, Change::RetreatTo { .. })));
    }

    #[test]
    fn every_leader_stacked_with_retreating_units_throws_for_his_life() {
        // 8.2.4: the defender on two hexes, a leader on each; D2 makes both retreat. Each
        // leader throws his own 2d6, each counting his own hex's losses (R-MED-31).
        use super::super::test_support::situation;
        use serde_json::json;
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let s = situation(json!({
            "attackers": [
                { "units": [{ "type": "heavy_cavalry", "sp": 2, "cf": 2 }] },
                { "units": [{ "type": "cavalry", "sp": 2, "cf": 3 }] }
            ],
            "defenders": [
                { "terrain": "clear", "leader": true, "leader_name": "Vytautas",
                  "units": [{ "type": "light_cavalry", "sp": 2, "cf": 1 }] },
                { "terrain": "clear", "leader": true, "leader_name": "Jogaila",
                  "units": [{ "type": "light_cavalry", "sp": 2, "cf": 1 }] }
            ]
        }));
        let fight = counted(data, &s);
        let (after, table) = read_on(data, &s, &fight, "4:1");
        let names: Vec<_> = after
            .defender
            .leaders
            .iter()
            .map(|l| (l.who(), l.split))
            .collect();
        assert_eq!(
            names,
            [
                ("Vytautas".to_string(), Some((2, 2))),
                ("Jogaila".to_string(), Some((2, 2)))
            ]
        );
        let roll = |faces: &[u32]| thrown(data, &s, faces);
        // The table's 2d6 (4: -1/D2) and one leader's 2d6: the second is still to come.
        assert!(roll(&[1, 3, 6, 6]).is_none());
        let o = roll(&[1, 3, 6, 6, 1, 1]).unwrap();
        assert!(o.meaning.contains("(Vytautas)"), "{}", o.meaning);
        assert!(o.meaning.contains("Jogaila dies"), "{}", o.meaning);
        assert!(!o.meaning.contains("Vytautas dies"), "{}", o.meaning);
        // The forecast gives each his own line.
        let lines = super::super::forecast::both_sides(data, &s, &table, &after).unwrap();
        for who in ["Vytautas", "Jogaila"] {
            let label = format!("The defender's leader {who} dies on his death 2d6");
            assert!(lines.iter().any(|c| c.label == label), "{label}");
        }
    }
}
