//! The roll step (1.4, 5.1): the table's 2d6 read on the final column, as exact odds of each
//! result, each named in words with its code as printed and the effects it has.

use std::collections::BTreeMap;

use super::effects::Aftermath;
use super::words::SideNames;
use crate::contract::{rolls_text, ResultOdds};
use crate::error::RefereeError;
use crate::odds::{DiceSpec, Dist};
use crate::systems::medieval::data::{CombatRules, MedievalData};
use crate::systems::medieval::result::CombatResult;
use crate::ErrorCode;

/// The COMBAT TABLE read on one column with the system's dice.
pub(super) struct Table<'d> {
    pub rules: &'d CombatRules,
    pub column: usize,
    pub spec: DiceSpec,
    pub rolls: Dist<i64>,
    /// Each code printed on the column, by the odds of its rolls.
    pub codes: Dist<String>,
    pub results: Dist<CombatResult>,
}

impl<'d> Table<'d> {
    pub fn read(data: &'d MedievalData, column: usize) -> Result<Table<'d>, RefereeError> {
        let spec: DiceSpec = data.system.dice.parse().map_err(|e: String| {
            RefereeError::new(ErrorCode::RulesetInvalid, e).field("system.dice")
        })?;
        let rolls = spec.distribution()?;
        let mut table = Table {
            rules: &data.combat,
            column,
            spec,
            rolls,
            codes: Dist::certain(String::new()),
            results: Dist::certain(CombatResult::default()),
        };
        table.codes = table.rolls.and_then(|r| {
            Ok(Dist::certain(
                table.code_at(*r).map(str::to_string).unwrap_or_default(),
            ))
        })?;
        table.results = table
            .codes
            .and_then(|code| Ok(Dist::certain(table.parse(code).unwrap_or_default())))?;
        Ok(table)
    }

    /// The code printed on the column for a roll.
    pub fn code_at(&self, roll: i64) -> Result<&'d str, RefereeError> {
        let c = self.rules;
        c.rows
            .iter()
            .find(|r| r.roll == roll)
            .and_then(|r| r.results.get(self.column))
            .map(String::as_str)
            .ok_or_else(|| {
                RefereeError::new(
                    ErrorCode::RulesetInvalid,
                    format!("the COMBAT TABLE has no row {roll}"),
                )
                .rule(&c.table_rule)
            })
    }

    pub fn parse(&self, code: &str) -> Result<CombatResult, RefereeError> {
        code.parse().map_err(|e: String| {
            RefereeError::new(ErrorCode::RulesetInvalid, e).rule(&self.rules.table_rule)
        })
    }

    /// Each result of the column once, in the table's row order: its odds, words and effects;
    /// and the names the bar and the table give the codes.
    pub fn distribution(
        &self,
        after: &Aftermath,
        words: &SideNames,
    ) -> Result<(Vec<ResultOdds>, BTreeMap<String, String>), RefereeError> {
        let mut distribution = Vec::new();
        let mut names = BTreeMap::new();
        let mut seen: Vec<String> = Vec::new();
        for row in &self.rules.rows {
            let code = row.results[self.column].clone();
            if seen.contains(&code) {
                continue;
            }
            let r = self.parse(&code)?;
            // The bar and the table name a result in words, with its code as printed.
            names.insert(code.clone(), format!("{} ({code})", words.result(&r)));
            distribution.push(ResultOdds::new(
                &code,
                &words.meaning(&r),
                rolls_text(&self.rolls, |x| self.code_at(x).is_ok_and(|c| c == code)),
                self.codes.probability(&code),
                after.effects(&r),
            ));
            seen.push(code);
        }
        Ok((distribution, names))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::{medieval::Medieval, test_support::load};

    #[test]
    fn a_roll_of_4_on_the_4_1_column_is_minus_1_d2() {
        // 5.1.1: the roll of 4 on 4:1.
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let four = data.combat.columns.iter().position(|k| k == "4:1").unwrap();
        let table = Table::read(data, four).unwrap();
        assert_eq!(table.code_at(4).unwrap(), "-1/D2");
        let r = table.parse("-1/D2").unwrap();
        assert_eq!((r.attacker.loss, r.defender.retreat), (1, 2));
        // D2 on rolls 6 and 7: 11 of 36.
        assert_eq!(
            table.codes.probability(&"D2".to_string()).to_string(),
            "11/36"
        );
        assert_eq!(table.code_at(13).unwrap_err().code, "ruleset.invalid");
    }
}
