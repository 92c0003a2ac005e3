use proptest::prelude::*;

use super::*;

fn p(n: u128, d: u128) -> Probability {
    Probability::new(n, d)
}

#[test]
fn two_d6_has_the_familiar_shape() {
    let d = Dist::dice(2, 6).unwrap();
    assert_eq!(d.total(), 36);
    assert_eq!(d.probability(&7), p(6, 36));
    assert_eq!(d.probability(&2), p(1, 36));
    assert_eq!(d.probability(&12), p(1, 36));
    assert_eq!(d.probability(&1), Probability::ZERO);
    assert_eq!(d.total_probability(), Probability::ONE);
}

#[test]
fn every_named_die_is_uniform() {
    for sides in [4u32, 6, 8, 10, 100] {
        let d = Dist::die(sides).unwrap();
        assert_eq!(d.outcomes().count(), sides as usize);
        assert_eq!(d.probability(&1), p(1, sides as u128));
    }
}

#[test]
fn dice_notation_parses_and_refuses() {
    assert_eq!("2d6".parse::<DiceSpec>().unwrap(), DiceSpec::TWO_D6);
    assert_eq!("d100".parse::<DiceSpec>().unwrap().sides, 100);
    assert!("2x6".parse::<DiceSpec>().is_err());
    assert!("0d6".parse::<DiceSpec>().is_err());
    assert_eq!(DiceSpec::TWO_D6.total_of(&[4, 1]), Ok(5));
    assert!(DiceSpec::TWO_D6.total_of(&[7, 1]).is_err());
    assert!(DiceSpec::TWO_D6.total_of(&[3]).is_err());
}

#[test]
fn a_modified_d10_is_clamped_into_one_to_ten() {
    let d = Dist::die(10).unwrap().plus(3).clamp(1, 10);
    assert_eq!(d.probability(&10), p(4, 10));
    assert_eq!(d.probability(&4), p(1, 10));
    assert_eq!(d.probability(&3), Probability::ZERO);
}

#[test]
fn threshold_counts_rolls_at_most_the_target() {
    let d = Dist::dice(2, 6).unwrap().at_most(4);
    assert_eq!(d.probability(&true), p(6, 36));
}

#[test]
fn opposed_d6_ties_one_in_six() {
    let d6 = Dist::die(6).unwrap();
    let o = opposed(&d6, &d6).unwrap();
    assert_eq!(
        o.probability_where(|x| x.comparison == Comparison::Equal),
        p(1, 6)
    );
    assert_eq!(
        o.probability_where(|x| x.comparison == Comparison::Greater),
        p(15, 36)
    );
    // doubled: (2,1) (3,1) (4,1) (4,2) (5,1) (5,2) (6,1) (6,2) (6,3) = 9 of 36
    assert_eq!(o.probability_where(|x| x.doubled), p(9, 36));
    assert_eq!(o.probability_where(|x| x.halved), p(9, 36));
    assert_eq!(o.probability_where(|x| x.difference == 5), p(1, 36));
}

#[test]
fn chaining_a_result_into_a_further_roll_is_exact() {
    // A d6 ≥ 5 forces a scatter check on a further d6 ≤ 2: 2/6 × 2/6 = 1/9.
    let first = Dist::die(6).unwrap().map(|v| *v >= 5);
    let scattered = first
        .and_then(|&forced| {
            if forced {
                Ok(Dist::die(6)?.at_most(2))
            } else {
                Ok(Dist::certain(false))
            }
        })
        .unwrap();
    assert_eq!(scattered.probability(&true), p(1, 9));
    assert_eq!(scattered.total_probability(), Probability::ONE);
}

#[test]
fn table_rows_cover_open_ended_bands() {
    let table = RollTable {
        rows: vec![
            (
                Band {
                    min: None,
                    max: Some(1),
                },
                "low",
            ),
            (
                Band {
                    min: Some(2),
                    max: Some(11),
                },
                "mid",
            ),
            (
                Band {
                    min: Some(12),
                    max: None,
                },
                "high",
            ),
        ],
    };
    assert_eq!(table.lookup(-40), Ok(&"low"));
    assert_eq!(table.lookup(99), Ok(&"high"));
    let d = table
        .distribution(&Dist::dice(2, 6).unwrap().plus(-1))
        .unwrap();
    assert_eq!(d.probability(&"low"), p(1, 36));
    assert_eq!(d.probability(&"high"), Probability::ZERO);
    let gap = RollTable {
        rows: vec![(
            Band {
                min: Some(2),
                max: Some(3),
            },
            "x",
        )],
    };
    assert_eq!(gap.lookup(7), Err(OddsError::NoRow(7)));
}

#[test]
fn ratio_columns_round_down_in_the_defenders_favour() {
    let cols = [
        (1, 2),
        (1, 1),
        (2, 1),
        (3, 1),
        (4, 1),
        (5, 1),
        (6, 1),
        (7, 1),
    ];
    assert_eq!(column_by_ratio(&cols, 10, 4), Some(2)); // 10:4 → 2:1
    assert_eq!(column_by_ratio(&cols, 5, 8), Some(0)); // 5:8 → 1:2
    assert_eq!(column_by_ratio(&cols, 24, 8), Some(3)); // 3:1 exactly
    assert_eq!(column_by_ratio(&cols, 99, 1), Some(7));
    assert_eq!(column_by_ratio(&cols, 1, 3), None); // below 1:2
    assert_eq!(shifted_column(2, 5, 8), 7);
    assert_eq!(shifted_column(2, -5, 8), 0);
}

fn monotone_table() -> RollTable<u8> {
    // Results ranked from worst (0) to best (3) for the attacker, as in a combat table.
    RollTable {
        rows: vec![
            (
                Band {
                    min: None,
                    max: 2.into(),
                },
                0,
            ),
            (
                Band {
                    min: Some(3),
                    max: Some(6),
                },
                1,
            ),
            (
                Band {
                    min: Some(7),
                    max: Some(9),
                },
                2,
            ),
            (
                Band {
                    min: Some(10),
                    max: None,
                },
                3,
            ),
        ],
    }
}

proptest! {
    #[test]
    fn every_distribution_sums_to_one(count in 1u32..4, sides in prop::sample::select(vec![4u32, 6, 8, 10, 100]), m in -20i64..20, lo in -5i64..5) {
        let d = Dist::dice(count, sides).unwrap().plus(m);
        prop_assert_eq!(d.total_probability(), Probability::ONE);
        prop_assert_eq!(d.clamp(lo, lo + 10).total_probability(), Probability::ONE);
        prop_assert_eq!(d.at_most(m).total_probability(), Probability::ONE);
        let o = opposed(&d, &Dist::die(sides).unwrap()).unwrap();
        prop_assert_eq!(o.total_probability(), Probability::ONE);
        let t = monotone_table().distribution(&d).unwrap();
        prop_assert_eq!(t.total_probability(), Probability::ONE);
    }

    #[test]
    fn a_better_modifier_never_lowers_the_best_result(m in -15i64..15, better in 1i64..6) {
        let rolls = Dist::dice(2, 6).unwrap();
        let table = monotone_table();
        let worse = table.distribution(&rolls.plus(m)).unwrap();
        let improved = table.distribution(&rolls.plus(m + better)).unwrap();
        prop_assert!(improved.probability(&3) >= worse.probability(&3));
        prop_assert!(improved.probability_where(|r| *r >= 2) >= worse.probability_where(|r| *r >= 2));
    }
}
