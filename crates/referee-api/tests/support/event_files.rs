//! DBMM battle files as another table's device exports them, for events: two armies of ten
//! Bd (O) named by the pairing's two players, the loser's elements destroyed by the umpire's
//! quick edits — all ten (his army defeated: 25–0, p. 43) or one (a tenth lost: 2 penalty
//! points to none, 14–11).

use referee_api::{AdjustRequest, Battles, NewBattle, Referee};
use referee_core::battle::{SideSetup, Subject, UnitSpec};
use serde_json::json;

/// How a game ends: the winner's enemy loses every element, or one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Margin {
    Crushing,
    Narrow,
}

impl Margin {
    /// The victory points p. 43 gives the winner and the loser.
    pub fn points(self) -> (f64, f64) {
        match self {
            Margin::Crushing => (25.0, 0.0),
            Margin::Narrow => (14.0, 11.0),
        }
    }
}

const ELEMENTS: usize = 10;

fn side(name: &str) -> SideSetup {
    serde_json::from_value(json!({ "name": name })).unwrap()
}

/// The battle file of a DBMM game between `a` (the invader) and `b`, won by `winner`.
pub fn battle_file(
    battles: &mut Battles,
    referee: &Referee,
    a: &str,
    b: &str,
    winner: &str,
    margin: Margin,
) -> String {
    let units = [a, b]
        .iter()
        .flat_map(|s| {
            (1..=ELEMENTS).map(move |i| UnitSpec {
                label: format!("Bd {i}"),
                side: s.to_string(),
                command: None,
                role: Default::default(),
                stats: json!({ "type": "Bd", "grade": "O" }),
            })
        })
        .collect();
    let view = battles
        .create(
            referee,
            &NewBattle {
                name: format!("{a} v {b}"),
                ruleset: "dbmm".into(),
                sides: vec![side(a), side(b)],
                units,
                preset_sides: None,
            },
        )
        .unwrap();
    let loser = if winner == a { b } else { a };
    let lost: Vec<_> = view
        .state
        .units
        .values()
        .filter(|u| u.side == loser)
        .map(|u| u.id)
        .take(match margin {
            Margin::Crushing => ELEMENTS,
            Margin::Narrow => 1,
        })
        .collect();
    for unit in lost {
        let request = AdjustRequest {
            subject: Subject::Unit(unit),
            change: serde_json::from_value(json!({ "kind": "element_fate", "fate": "destroyed" }))
                .unwrap(),
            reason: None,
        };
        battles.adjust(referee, view.id, &request).unwrap();
    }
    battles.export_text(referee, view.id).unwrap()
}
