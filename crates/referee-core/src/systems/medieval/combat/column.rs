//! The column step (1.4, 1.5, R-MED-1, R-MED-2): the initial ratio, the attacker's shift right,
//! then the defender's left, never netted; or the column the umpire named.

use super::CombatSituation;
use crate::contract::{Note, Total};
use crate::error::RefereeError;
use crate::systems::medieval::data::CombatRules;
use crate::ErrorCode;

/// The COMBAT TABLE columns a fight passes through, as indexes of the table's columns.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Columns {
    pub initial: usize,
    pub after_attacker: usize,
    /// The column the table is read on.
    pub final_column: usize,
}

impl Columns {
    /// The columns from the strengths and each side's CMs; a leader alone is attacked on the
    /// highest column (8.2.9); a column the umpire named is read instead (1.5).
    pub fn of(
        c: &CombatRules,
        s: &CombatSituation,
        (attack, defence): (u32, u32),
        (a_cms, d_cms): (i64, i64),
        notes: &mut Vec<Note>,
    ) -> Result<Columns, RefereeError> {
        let columns = c.column_ratios();
        let last = columns.len() - 1;
        let mut out = if s.leader_alone {
            notes.push(Note::new(
                "A leader alone is attacked on the highest column and dies whatever the result.",
                &c.leader_alone_rule,
                None,
            ));
            Columns {
                initial: last,
                after_attacker: last,
                final_column: last,
            }
        } else {
            shifted(&columns, (attack, defence), (a_cms, d_cms))
        };
        if let Some(wanted) = &s.column {
            out.final_column = named_column(c, wanted, out.final_column, notes)?;
        }
        Ok(out)
    }

    /// The figures of the count: SPs, the initial ratio and each shift (1.4, 1.5).
    pub fn totals(
        &self,
        c: &CombatRules,
        (attack, defence): (u32, u32),
        (a_cms, d_cms): (i64, i64),
    ) -> Vec<Total> {
        vec![
            Total {
                label: "Attacker SPs".into(),
                value: attack.to_string(),
                rule: "1.4".into(),
                ruling: None,
            },
            Total {
                label: "Defender SPs".into(),
                value: defence.to_string(),
                rule: "1.4".into(),
                ruling: None,
            },
            Total {
                label: "Initial combat ratio".into(),
                value: format!(
                    "{} → {}",
                    ratio_text(attack, defence),
                    c.columns[self.initial]
                ),
                rule: c.ratio_rule.clone(),
                ruling: c.ratio_ruling.clone(),
            },
            Total {
                label: "After the attacker's CMs".into(),
                value: format!("{:+} → {}", a_cms, c.columns[self.after_attacker]),
                rule: c.shift_rule.clone(),
                ruling: c.shift_ruling.clone(),
            },
            Total {
                label: "Final combat ratio".into(),
                value: format!("{:+} → {}", -d_cms, c.columns[self.final_column]),
                rule: c.shift_rule.clone(),
                ruling: c.shift_ruling.clone(),
            },
        ]
    }
}

fn ratio_text(a: u32, d: u32) -> String {
    format!("{a}:{d}")
}

/// R-MED-1: larger ÷ smaller, a fraction of .5 or more rounds up; n:1 or 1:n.
pub fn initial_column(columns: &[Option<(u64, u64)>], attack: u32, defence: u32) -> usize {
    let (big, small, attacker_ahead) = if attack >= defence {
        (attack, defence, true)
    } else {
        (defence, attack, false)
    };
    // round(big / small), half up, in integers.
    let n = (2 * u64::from(big) + u64::from(small)) / (2 * u64::from(small));
    let wanted = if attacker_ahead { (n, 1) } else { (1, n) };
    // The column with that ratio, or the table's end in that direction (clamped).
    if let Some(i) = columns.iter().position(|c| *c == Some(wanted)) {
        return i;
    }
    if attacker_ahead {
        columns.len() - 1
    } else {
        0
    }
}

/// R-MED-2: the attacker's CMs shift right from the initial column, then the defender's left,
/// each stopping at the table's end.
fn shifted(
    columns: &[Option<(u64, u64)>],
    (attack, defence): (u32, u32),
    (a_cms, d_cms): (i64, i64),
) -> Columns {
    let last = columns.len() - 1;
    let initial = initial_column(columns, attack, defence);
    let after_attacker = (initial as i64 + a_cms).clamp(0, last as i64) as usize;
    let final_column = (after_attacker as i64 - d_cms).clamp(0, last as i64) as usize;
    Columns {
        initial,
        after_attacker,
        final_column,
    }
}

/// A direct look-up: the umpire names the final column and the table is read there; a note
/// gives the referee's own count when it differs.
fn named_column(
    c: &CombatRules,
    wanted: &str,
    counted: usize,
    notes: &mut Vec<Note>,
) -> Result<usize, RefereeError> {
    let at = c
        .columns
        .iter()
        .position(|k| k.replace(' ', "") == wanted.replace(' ', ""))
        .ok_or_else(|| {
            RefereeError::new(
                ErrorCode::SituationUnknownColumn,
                format!(
                    "the COMBAT TABLE has no column {}; its columns are {}",
                    crate::error::given(wanted),
                    c.columns.join(", ")
                ),
            )
            .field("column")
            .rule(&c.table_rule)
        })?;
    if at != counted {
        notes.push(Note::new(
            format!(
                "The table is read on the {} column the umpire named; the referee's count gives {}.",
                c.columns[at], c.columns[counted]
            ),
            &c.table_rule,
            None,
        ));
    }
    Ok(at)
}

#[cfg(test)]
mod tests {
    use super::super::test_support::example_5_1_1;
    use super::*;
    use crate::systems::{medieval::Medieval, test_support::load};

    #[test]
    fn the_5_1_1_example_shifts_2_1_to_6_1_then_back_to_4_1() {
        let ruleset = load("medieval");
        let c = &ruleset.data::<Medieval>().unwrap().combat;
        let at = shifted(&c.column_ratios(), (4, 2), (4, 2));
        let name = |i: usize| c.columns[i].as_str();
        assert_eq!(
            (
                name(at.initial),
                name(at.after_attacker),
                name(at.final_column)
            ),
            ("2:1", "6:1", "4:1")
        );
        let totals = at.totals(c, (4, 2), (4, 2));
        let values: Vec<&str> = totals.iter().map(|t| t.value.as_str()).collect();
        assert_eq!(values, ["4", "2", "4:2 → 2:1", "+4 → 6:1", "-2 → 4:1"]);
    }

    #[test]
    fn shifts_stop_at_the_tables_ends_and_are_never_netted() {
        let ruleset = load("medieval");
        let c = &ruleset.data::<Medieval>().unwrap().combat;
        let columns = c.column_ratios();
        let last = columns.len() - 1;
        // 9:1 and +3: still the last column; then −2 from there, not from +1 netted.
        let at = shifted(&columns, (9, 1), (3, 2));
        assert_eq!(at.after_attacker, last);
        assert_eq!(at.final_column, last - 2);
    }

    #[test]
    fn the_umpires_column_is_read_and_the_referees_count_noted() {
        let ruleset = load("medieval");
        let c = &ruleset.data::<Medieval>().unwrap().combat;
        let mut notes = Vec::new();
        let three = c.columns.iter().position(|k| k == "3:1").unwrap();
        let four = c.columns.iter().position(|k| k == "4:1").unwrap();
        assert_eq!(named_column(c, "3 : 1", four, &mut notes).unwrap(), three);
        assert_eq!(
            notes[0].message,
            "The table is read on the 3:1 column the umpire named; the referee's count gives 4:1."
        );
        let e = named_column(c, "9:9", four, &mut notes).unwrap_err();
        assert_eq!(e.code, "situation.unknown_column");
        let mut s = example_5_1_1();
        s.column = Some("3:1".into());
        let at = Columns::of(c, &s, (4, 2), (4, 2), &mut Vec::new()).unwrap();
        let six = c.columns.iter().position(|k| k == "6:1").unwrap();
        assert_eq!((at.after_attacker, at.final_column), (six, three));
    }
}
