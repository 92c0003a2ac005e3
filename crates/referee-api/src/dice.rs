//! App-rolled dice: a seeded ChaCha generator, so every roll can be replayed from its seed.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use referee_core::odds::DiceSpec;
use referee_core::ErrorCode;
use referee_core::RefereeError;

#[derive(Clone, Debug, Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct RollRequest {
    /// Dice notation, e.g. `2d6`.
    pub dice: String,
    /// Replays a roll; a fresh seed is drawn when absent.
    #[serde(default)]
    #[ts(optional)]
    pub seed: Option<u32>,
}

/// A roll and the seed that reproduces it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct DiceRoll {
    pub dice: String,
    pub faces: Vec<u32>,
    pub seed: u32,
}

/// Rolls dice notation (`2d6`, `d10`) or an action's dice as its resolution names them:
/// `d10 v d10` (opposed) and `d10 then d10` (one after the other) roll each part in turn.
pub fn roll(request: &RollRequest) -> Result<DiceRoll, RefereeError> {
    let parts: Vec<DiceSpec> = request
        .dice
        .split(" v ")
        .flat_map(|p| p.split(" then "))
        .map(|p| p.trim().parse())
        .collect::<Result<_, String>>()
        .map_err(|m| RefereeError::new(ErrorCode::DiceInvalid, m).field("dice"))?;
    let seed = request.seed.unwrap_or_else(rand::random);
    let mut rng = ChaCha8Rng::seed_from_u64(u64::from(seed));
    let faces = parts
        .iter()
        .flat_map(|spec| std::iter::repeat_n(spec.sides, spec.count as usize))
        .map(|sides| rng.random_range(1..=sides))
        .collect();
    Ok(DiceRoll {
        dice: parts
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" + "),
        faces,
        seed,
    })
}

/// Rolls an action's dice as its resolution lays them out, each next stage of a chain in turn (a
/// GTS melee round: the roll-off, the stand-loss checks, the recoil d100s …), from one seed.
pub fn throw(
    ruleset: &referee_core::Ruleset,
    action: &str,
    situation: &serde_json::Value,
    seed: Option<u32>,
) -> Result<DiceRoll, RefereeError> {
    let seed = seed.unwrap_or_else(rand::random);
    let mut rng = ChaCha8Rng::seed_from_u64(u64::from(seed));
    let faces = ruleset.throw(action, situation, &mut |sides| rng.random_range(1..=sides))?;
    let dice = ruleset.resolve(action, situation, None)?.dice;
    if faces.is_empty() && !dice.is_empty() && dice != "none" {
        return Err(RefereeError::new(
            ErrorCode::DiceEnterByHand,
            format!("the app cannot roll “{dice}” for this action: enter the faces"),
        )
        .field("dice"));
    }
    Ok(DiceRoll { dice, faces, seed })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_replays_the_same_faces_and_faces_stay_on_the_die() {
        let req = RollRequest {
            dice: "2d6".into(),
            seed: Some(42),
        };
        let a = roll(&req).unwrap();
        assert_eq!(a, roll(&req).unwrap());
        assert_eq!(a.faces.len(), 2);
        let mut seen = [0u32; 7];
        for seed in 0..600 {
            for f in roll(&RollRequest {
                dice: "2d6".into(),
                seed: Some(seed),
            })
            .unwrap()
            .faces
            {
                assert!((1..=6).contains(&f));
                seen[f as usize] += 1;
            }
        }
        // Every face turns up, none wildly more than its share (1200 faces, ~200 each).
        assert!(
            seen[1..].iter().all(|n| (120..=280).contains(n)),
            "{seen:?}"
        );
    }

    #[test]
    fn an_opposed_roll_rolls_each_side() {
        let r = roll(&RollRequest {
            dice: "d10 v d10".into(),
            seed: Some(3),
        })
        .unwrap();
        assert_eq!(r.faces.len(), 2);
        assert!(r.faces.iter().all(|f| (1..=10).contains(f)));
        // A GTS recoil: a d100 for each unit of each side, side A's first.
        let r = roll(&RollRequest {
            dice: "2d100 v 1d100".into(),
            seed: Some(5),
        })
        .unwrap();
        assert_eq!(r.faces.len(), 3);
        assert!(r.faces.iter().all(|f| (1..=100).contains(f)));
    }

    #[test]
    fn bad_notation_is_refused() {
        let e = roll(&RollRequest {
            dice: "2x6".into(),
            seed: None,
        })
        .unwrap_err();
        assert_eq!(e.code, "dice.invalid");
    }
}
