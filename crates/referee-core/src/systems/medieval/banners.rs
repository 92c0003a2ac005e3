//! Banners on the roster (7.1): what a result brings about when it eliminates a banner's holder —
//! a friendly regular unit left on his hex takes the banner; else it falls, and the enemy gains 3
//! MORALE boxes in the same event (7.1.5, 6.1.5, R-MED-42).

use super::data::MedievalData;
use super::roster::MedievalCounter;
use crate::contract::Change;
use crate::rule_system::{FollowOn, Onto};
use crate::state::{BattleState, UnitState};

/// The banners whose holders this result eliminated: each kept on its hex by a friend there, or
/// fallen.
pub fn follow_on(data: &MedievalData, before: &BattleState, after: &BattleState) -> Vec<FollowOn> {
    let mut out = Vec::new();
    let mut taken = Vec::new();
    for holder in after.units.values().filter(|u| u.lost) {
        let Some(own) = holder.detail::<MedievalCounter>() else {
            continue;
        };
        let was_standing = before.units.get(&holder.id).is_some_and(|u| !u.lost);
        if own.banners == 0 || !was_standing {
            continue;
        }
        match keeper(data, after, holder, own, &taken) {
            Some(friend) => {
                taken.push(friend.id);
                let banners = match own.banners {
                    1 => "the banner".to_string(),
                    n => format!("the {n} banners"),
                };
                out.push(FollowOn {
                    onto: Onto::Unit(friend.id),
                    change: Change::Banner {
                        held: true,
                        count: (own.banners > 1).then_some(own.banners),
                    },
                    text: format!(
                        "{}: takes {banners} of {}, eliminated on its hex",
                        friend.label, holder.label
                    ),
                    rule: "7.1.4, 7.1.5".into(),
                    ruling: Some("R-MED-42".into()),
                });
            }
            None => {
                let Some(enemy) = after
                    .side_index(&holder.side)
                    .and_then(|own| (0..after.sides.len()).find(|i| *i != own))
                else {
                    continue;
                };
                let m = &data.morale;
                // 6.1.5 moves the track for each banner that falls (R-MED-49).
                for nth in 1..=own.banners {
                    let which = if own.banners == 1 {
                        format!("The banner of {}", holder.label)
                    } else {
                        format!("A banner of {} ({nth} of {})", holder.label, own.banners)
                    };
                    out.push(FollowOn {
                        onto: Onto::Side(enemy),
                        change: Change::Morale { boxes: m.banner },
                        text: format!(
                            "{which} falls with it: {} gains {} MORALE boxes",
                            after.sides[enemy].name, m.banner
                        ),
                        rule: m.banner_rule.clone(),
                        ruling: Some(
                            if own.banners == 1 {
                                "R-MED-42"
                            } else {
                                "R-MED-49"
                            }
                            .into(),
                        ),
                    });
                }
            }
        }
    }
    out
}

/// The friend left on the holder's hex to keep the banner: a regular unit of his side on the
/// table, the first on the roster not holding one already, else any such friend (7.1.4; 7.1.5:
/// it falls only when "no other friendly units to keep it are on the hex").
fn keeper<'s>(
    data: &MedievalData,
    after: &'s BattleState,
    holder: &UnitState,
    own: &MedievalCounter,
    taken: &[u32],
) -> Option<&'s UnitState> {
    let hex = own.hex.as_deref()?;
    let friends: Vec<(&UnitState, &MedievalCounter)> = after
        .units
        .values()
        .filter_map(|u| u.detail::<MedievalCounter>().map(|c| (u, c)))
        .filter(|(u, c)| {
            let regular = data
                .unit_types
                .get(&c.entry.unit_type)
                .is_some_and(|t| t.cavalry || t.ranged.is_none());
            u.side == holder.side
                && !u.lost
                && !c.scattered
                && regular
                && c.hex.as_deref() == Some(hex)
        })
        .collect();
    friends
        .iter()
        .find(|(u, c)| c.banners == 0 && !taken.contains(&u.id))
        .or_else(|| friends.first())
        .map(|(u, _)| *u)
}
