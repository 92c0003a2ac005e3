//! The effects step (5.1.1, 5.2.11, 5.4, 6.1.4, 8.2.9, 9.1): what a result does to each side —
//! SP losses, the retreat by its route (blocked hexes, friends ridden down), the charge factor,
//! the MORALE track and the scattered units.

use super::modifiers::Cms;
use super::strength::Fighters;
use super::{CombatSituation, LeaderPresence, SideSupport};
use crate::contract::{effect, Change, Chooser, Effect, Target};
use crate::error::RefereeError;
use crate::rule_system::{Die, Thrower};
use crate::systems::medieval::after::death_effects;
use crate::systems::medieval::data::MedievalData;
use crate::systems::medieval::result::{CombatResult, Part};
use crate::systems::medieval::retreat::{Landing, Retreat, RetreatHex, Route, StackLanding};
use crate::systems::medieval::scatter::ScatterRead;
use crate::systems::medieval::units::Unit;

/// What a result can do to one side: its retreat route and who a scatter reaches.
pub(super) struct SideAftermath {
    pub route: Retreat,
    /// Who the scatter d6 is read for (5.1.1 g), by hex.
    pub read: ScatterRead,
    /// The targets an outright scatter (R) reaches: nobody stacked with a leader (9.1.3).
    pub scatter: Vec<Target>,
    pub cavalry: bool,
    /// The side's SPs on its counters, never below 1 while it fights with any.
    pub sp: u32,
    /// The leaders stacked with the side's units, one a hex, each rolling for his life when
    /// they retreat (8.2.4).
    pub leaders: Vec<StackedLeader>,
}

impl SideAftermath {
    /// The SPs a part of a result costs the side: its loss, and 1 for each hex its retreat is
    /// short (5.4.6), never more than it has.
    pub fn losses(&self, data: &MedievalData, part: Part) -> u32 {
        let blocked =
            self.route
                .blocked_sp(part.retreat, part.loss, data.retreat.blocked_sp_per_hex);
        (part.loss + blocked).min(self.sp)
    }

    /// Where the side's counters stand once a part of a result is made, the side whole or
    /// each fighting hex's units (R-MED-44, R-MED-50).
    pub fn landings(&self, part: Part) -> Vec<StackLanding> {
        self.route.landings(part.retreat, part.loss)
    }
}

/// The leader stacked with a side's units: when they must retreat he throws 2d6 for his life
/// (8.2.4), less the SPs his units lose (8.2.5); surviving, he retreats on his own (8.2.6).
pub(super) struct StackedLeader {
    /// His name on the roster; none for a leader ticked on a hex without a name.
    pub name: Option<String>,
    pub grand: bool,
    pub thrower: Thrower,
    /// "attacking" or "defending".
    pub word: &'static str,
    /// With the side on several hexes: the SPs on his hex and on the others (R-MED-31).
    pub split: Option<(u32, u32)>,
    /// The side's hex he stands on, by its index; none for a leader with the whole side.
    pub hex: Option<usize>,
}

impl StackedLeader {
    /// The side's stacked leaders: the leader of each of its hexes with one, each with his own
    /// split (his hex against all the others, R-MED-31), else a leader the umpire stacked with
    /// the whole side (8.2.1). Every one of them throws for his life (8.2.4, R-MED-40).
    fn of(
        fighters: &Fighters,
        presence: LeaderPresence,
        named: &[(Option<&str>, bool)],
        thrower: Thrower,
        word: &'static str,
    ) -> Vec<StackedLeader> {
        if presence != LeaderPresence::Stacked {
            return Vec::new();
        }
        let leaders = &fighters.leaders;
        let hexes: Vec<usize> = (0..leaders.len()).filter(|h| leaders[*h]).collect();
        if hexes.is_empty() {
            return vec![StackedLeader {
                name: None,
                grand: false,
                thrower,
                word,
                split: None,
                hex: None,
            }];
        }
        let places = hex_names(&fighters.labels, thrower, word);
        let several = hexes.len() > 1;
        hexes
            .into_iter()
            .map(|hex| {
                let (name, grand) = named.get(hex).copied().unwrap_or((None, false));
                let split = (leaders.len() > 1).then(|| {
                    let on = |own: bool| {
                        fighters
                            .units
                            .iter()
                            .zip(&fighters.hex_of)
                            .filter(|(_, h)| (**h == hex) == own)
                            .map(|((u, _), _)| u.sp * u.count)
                            .sum::<u32>()
                    };
                    (on(true), on(false))
                });
                // Two leaders without names are told apart by their hexes.
                let name = match name {
                    Some(n) => Some(n.to_string()),
                    None if several => places
                        .get(hex)
                        .map(|place| format!("{word} leader on {place}")),
                    None => None,
                };
                StackedLeader {
                    name,
                    grand,
                    thrower,
                    word,
                    split,
                    hex: Some(hex),
                }
            })
            .collect()
    }

    /// His name, as his dice and his effects name him: the roster's, else "attacking leader".
    pub fn who(&self) -> String {
        self.name
            .clone()
            .unwrap_or_else(|| format!("{} leader", self.word))
    }

    /// His 2d6, named by him.
    pub fn dice(&self) -> Vec<Die> {
        let who = self.who();
        vec![
            Die::of(6, self.thrower, &who, "leader death"),
            Die::of(6, self.thrower, &who, "leader death"),
        ]
    }

    /// The throw in words and what it does: he dies when 2d6 less his units' SPs lost is at most
    /// the hexes they retreat (8.2.4, 8.2.5, R-MED-7); else he retreats on his own, as far, and
    /// with his units all lost stands alone where he stops (8.2.6–8.2.8).
    pub fn outcome(
        &self,
        data: &MedievalData,
        retreat: u32,
        lost: u32,
        eliminated: bool,
        to: Landing,
        faces: &[u32],
    ) -> (String, Vec<Effect>) {
        let who = self.who();
        let roll: u32 = faces.iter().sum();
        let less = if lost > 0 {
            format!(
                ", less {}",
                crate::error::counted(i64::from(lost), "SP lost", "SPs lost")
            )
        } else {
            String::new()
        };
        let thrown = format!(
            "Leader death 2d6 {roll} ({who}){less}: {}",
            i64::from(roll) - i64::from(lost)
        );
        if i64::from(roll) - i64::from(lost) <= i64::from(retreat) {
            let (units, effects) = death_effects(data, &who, self.grand);
            let boxes = crate::systems::medieval::after::boxes(data, self.grand);
            return (
                format!(
                    "{thrown}, at most {retreat}: {who} dies; {units} loses 1 SP; the enemy gains {boxes} MORALE boxes."
                ),
                effects,
            );
        }
        let alone = if eliminated {
            " His units gone, he stands alone where he stops: an enemy entering his hex kills him."
        } else {
            ""
        };
        let mut effects = vec![effect(
            Target::Unit(who.clone()),
            Change::Retreat { hexes: retreat },
            "8.2.6, 8.2.7, 8.2.8",
            Some("R-MED-40"),
        )];
        // A leader of the roster stops where his units' retreat stops (8.2.7, R-MED-44).
        let stops = match (&self.name, to) {
            (Some(_), Landing::On(hex)) => {
                effects.push(effect(
                    Target::Unit(who.clone()),
                    Change::RetreatTo { hex: hex.clone() },
                    "8.2.6, 8.2.7",
                    Some("R-MED-44"),
                ));
                format!(" He stops on hex {hex}.")
            }
            _ => String::new(),
        };
        (
            format!(
                "{thrown}, above {retreat}: {who} lives and retreats on his own, ignoring enemy ZoCs.{stops}{alone}"
            ),
            effects,
        )
    }
}

/// The SPs the leader's death roll subtracts (8.2.5): all the side's losses on one hex; on
/// several, those his own hex takes when the others take what they can (R-MED-31).
pub(super) fn leader_losses(lost: u32, split: Option<(u32, u32)>) -> u32 {
    match split {
        Some((own, others)) => lost.saturating_sub(others).min(own),
        None => lost,
    }
}

/// What any result of the fight does, both sides' routes and reads found once.
pub(super) struct Aftermath<'d> {
    data: &'d MedievalData,
    pub leader_alone: bool,
    pub attacker: SideAftermath,
    pub defender: SideAftermath,
}

impl<'d> Aftermath<'d> {
    pub fn of(
        data: &'d MedievalData,
        s: &CombatSituation,
        [attackers, defenders]: [&Fighters; 2],
        cms: &Cms,
    ) -> Result<Aftermath<'d>, RefereeError> {
        let attacker_route = retreat_route(
            data,
            attackers,
            &s.attacker,
            s.attackers
                .iter()
                .map(|h| h.retreat_hexes.as_deref())
                .collect(),
            (Thrower::A, "attacking"),
        )?;
        let defender_route = retreat_route(
            data,
            defenders,
            &s.defender,
            s.defenders
                .iter()
                .map(|h| h.retreat_hexes.as_deref())
                .collect(),
            (Thrower::B, "defending"),
        )?;
        let attacker_read = scatter_read(
            Target::Attacker,
            Thrower::A,
            attackers,
            cms.attacker_leader,
            "attacking",
            &s.attacker,
        );
        let defender_read = scatter_read(
            Target::Defender,
            Thrower::B,
            defenders,
            cms.defender_leader,
            "defending",
            &s.defender,
        );
        let attacker_names: Vec<(Option<&str>, bool)> = s
            .attackers
            .iter()
            .map(|h| (h.leader_name.as_deref(), h.grand_leader))
            .collect();
        let defender_names: Vec<(Option<&str>, bool)> = s
            .defenders
            .iter()
            .map(|h| (h.leader_name.as_deref(), h.grand_leader))
            .collect();
        Ok(Aftermath {
            data,
            leader_alone: s.leader_alone,
            attacker: SideAftermath {
                route: attacker_route,
                scatter: scatter_targets(Target::Attacker, attackers, "attacking", &attacker_read),
                read: attacker_read,
                cavalry: attackers.has_cavalry(),
                sp: attackers.counter_sp().max(attackers.sp.min(1)),
                leaders: StackedLeader::of(
                    attackers,
                    cms.attacker_leader,
                    &attacker_names,
                    Thrower::A,
                    "attacking",
                ),
            },
            defender: SideAftermath {
                route: defender_route,
                scatter: scatter_targets(Target::Defender, defenders, "defending", &defender_read),
                read: defender_read,
                cavalry: defenders.has_cavalry(),
                sp: defenders.counter_sp().max(defenders.sp.min(1)),
                leaders: StackedLeader::of(
                    defenders,
                    cms.defender_leader,
                    &defender_names,
                    Thrower::B,
                    "defending",
                ),
            },
        })
    }

    /// Every effect of a result, the attacker's first (5.4, 5.2.11, 8.2.9).
    pub fn effects(&self, r: &CombatResult) -> Vec<Effect> {
        let c = &self.data.combat;
        let mut out = self.side_effects(r.attacker, Target::Attacker);
        if !self.leader_alone {
            out.extend(self.side_effects(r.defender, Target::Defender));
        }
        // 5.2.11: every charge factor drops by 1 after a combat.
        for (cavalry, target) in [
            (self.attacker.cavalry, Target::Attacker),
            (
                self.defender.cavalry && !self.leader_alone,
                Target::Defender,
            ),
        ] {
            if cavalry {
                out.push(effect(
                    target,
                    Change::ReduceChargeFactor {
                        by: c.after_combat_cf,
                    },
                    "5.2.11",
                    None,
                ));
            }
        }
        if self.leader_alone {
            out.push(effect(
                Target::Defender,
                Change::LeaderKilled,
                &c.leader_alone_rule,
                None,
            ));
        }
        out
    }

    /// One side's part of a result: its losses, its retreat, the MORALE track, its scatter.
    fn side_effects(&self, part: Part, target: Target) -> Vec<Effect> {
        let data = self.data;
        let c = &data.combat;
        let (side, chooser) = if target == Target::Attacker {
            (&self.attacker, Chooser::Attacker)
        } else {
            (&self.defender, Chooser::Defender)
        };
        let mut out = Vec::new();
        if part.loss > 0 {
            out.push(effect(
                target.clone(),
                Change::LoseSp {
                    count: part.loss,
                    chosen_by: chooser,
                },
                &c.table_rule,
                c.result_ruling.as_deref(),
            ));
        }
        let mut lost_sp = part.loss > 0;
        if part.retreat > 0 {
            let (retreat, blocked) = self.retreat_effects(part, &target, side);
            out.extend(retreat);
            // 5.4.6: 1 SP for each hex the retreat cannot be made.
            lost_sp |= !blocked.is_empty();
            out.extend(blocked);
        }
        // 6.1.4: each unit these losses eliminate moves the track 1 box to the enemy; the
        // scatter and ride-downs that follow do not (9.1.5, 5.8.4).
        if lost_sp {
            out.push(effect(
                target.clone(),
                Change::MoraleIfEliminated {
                    boxes: data.morale.elimination,
                },
                &data.morale.elimination_rule,
                Some("R-MED-34"),
            ));
        }
        if part.scattered {
            out.extend(side.read.effects(
                side.scatter.clone(),
                &c.table_rule,
                c.result_ruling.as_deref(),
            ));
        }
        out
    }

    /// A retreat's effects: the retreat, the attacker's CF back to 0 (5.6.10), the friends its
    /// cavalry rides down (5.4.4, 5.8.7); and apart, the SPs its blocked hexes cost (5.4.6).
    fn retreat_effects(
        &self,
        part: Part,
        target: &Target,
        side: &SideAftermath,
    ) -> (Vec<Effect>, Vec<Effect>) {
        let data = self.data;
        let c = &data.combat;
        let mut out = vec![effect(
            target.clone(),
            Change::Retreat {
                hexes: part.retreat,
            },
            &c.table_rule,
            c.result_ruling.as_deref(),
        )];
        if *target == Target::Attacker {
            out.push(effect(
                target.clone(),
                Change::ResetChargeFactor,
                "5.4, 5.6.10",
                None,
            ));
        }
        // 5.4.4, 5.8.7: the friendly non-cavalry the retreating cavalry enters.
        for hex in side.route.ridden(part.retreat, part.loss) {
            out.push(effect(
                Target::Hex(hex),
                Change::DestroyAll,
                "5.4.4, 5.8.3, 5.8.4, 5.8.7",
                Some("R-MED-28"),
            ));
        }
        // 5.4.2, R-MED-44: the counters land on the route's last hex reached, in this event;
        // from several hexes, each hex's units on their own route's (R-MED-50).
        for (stack, landing) in side.landings(part) {
            if let Landing::On(hex) = landing {
                let (on, ruling) = match stack {
                    Some(stack) => (Target::Hex(stack), "R-MED-50"),
                    None => (target.clone(), "R-MED-44"),
                };
                out.push(effect(
                    on,
                    Change::RetreatTo { hex },
                    "5.4.2, 5.4.6",
                    Some(ruling),
                ));
            }
        }
        // 5.4.6: each stack short of its hexes loses their SPs, chosen by the side's owner.
        let chooser = if *target == Target::Attacker {
            Chooser::Attacker
        } else {
            Chooser::Defender
        };
        let blocked = side
            .route
            .blocked(part.retreat, part.loss, data.retreat.blocked_sp_per_hex)
            .into_iter()
            .map(|b| {
                let why = b
                    .stop
                    .map_or(String::new(), |stop| format!(", {}", stop.rule()));
                effect(
                    b.stack.map_or_else(|| target.clone(), Target::Hex),
                    Change::LoseSp {
                        count: b.sp,
                        chosen_by: chooser,
                    },
                    &format!("{}{why}", data.retreat.rule),
                    b.stop.map(|_| "R-MED-28"),
                )
            })
            .collect();
        (out, blocked)
    }
}

/// A side's retreat route. Ranged units in combat formation cannot retreat: every hex is an SP
/// (10.3.3, 10.7.4). A mixed stack retreats as one, its ranged units with it (R-MED-21). Each
/// hex retreats as its own stack: by the side's one route, the largest counts for stacking
/// (4.5.2, R-MED-47); with a route of its own for any of the side's hexes, each hex by its own,
/// a hex without one by the side's (R-MED-50).
fn retreat_route(
    data: &MedievalData,
    side: &Fighters,
    support: &SideSupport,
    own_routes: Vec<Option<&[RetreatHex]>>,
    (thrower, word): (Thrower, &str),
) -> Result<Retreat, RefereeError> {
    let name = if thrower == Thrower::A {
        "attacker"
    } else {
        "defender"
    };
    let held = side.all_ranged() && side.units.iter().all(|(u, _)| !u.movement_formation);
    let mut stacks: Vec<u32> = vec![0; side.labels.len()];
    for ((u, _), h) in side.units.iter().zip(&side.hex_of) {
        if stacks.len() <= *h {
            stacks.resize(h + 1, 0);
        }
        stacks[*h] += u.sp * u.count;
    }
    let units: Vec<Unit> = side.units.iter().map(|(u, _)| u.clone()).collect();
    let by_hex = stacks.len() > 1 && own_routes.iter().any(Option::is_some);
    if !by_hex {
        return Ok(Retreat::One(Route::new(
            data,
            support.retreat_hexes.as_deref(),
            name,
            &units,
            &stacks,
            support.retreat_possible,
            held,
        )?));
    }
    let side_sp: u32 = stacks.iter().sum();
    let names = hex_names(&side.labels, thrower, word);
    let mut routes = Vec::new();
    for (h, stack) in stacks.iter().enumerate() {
        let own: Vec<Unit> = side
            .units
            .iter()
            .zip(&side.hex_of)
            .filter(|(_, on)| **on == h)
            .map(|((u, _), _)| u.clone())
            .collect();
        let path = own_routes
            .get(h)
            .copied()
            .flatten()
            .or(support.retreat_hexes.as_deref());
        let route = Route::new(
            data,
            path,
            name,
            &own,
            &[*stack],
            support.retreat_possible,
            held,
        )?
        .within_side(side_sp);
        routes.push((names[h].clone(), route));
    }
    Ok(Retreat::ByHex(routes))
}

/// Who a scattering result scatters: nobody stacked with a leader (9.1.3). With the leader on
/// one hex, the side's other hexes scatter; a side-wide leader covers every unit. The scatter d6
/// after a retreat (5.1.1 g) is read for each of them, by its hex.
fn scatter_read(
    side: Target,
    thrower: Thrower,
    fighters: &Fighters,
    leader: LeaderPresence,
    word: &str,
    support: &SideSupport,
) -> ScatterRead {
    let by_hex = fighters.leader_on_a_hex();
    ScatterRead {
        side,
        thrower,
        units: fighters
            .units
            .iter()
            .zip(&fighters.hex_of)
            .filter(|(_, h)| {
                if by_hex {
                    !fighters.leaders[**h]
                } else {
                    leader != LeaderPresence::Stacked
                }
            })
            .map(|((u, _), h)| (u.clone(), *h))
            .collect(),
        hexes: hex_names(&fighters.labels, thrower, word),
        by_hex,
        track_full: support.scatter_track_full,
    }
}

/// Each hex by its label; a hex without one is "the defender" when it is the side's only one,
/// else "defending hex 2".
fn hex_names(labels: &[Option<&str>], thrower: Thrower, word: &str) -> Vec<String> {
    let one = labels.len() == 1;
    labels
        .iter()
        .enumerate()
        .map(|(i, l)| match l {
            Some(l) => l.to_string(),
            None if one => format!(
                "the {}",
                if thrower == Thrower::A {
                    "attacker"
                } else {
                    "defender"
                }
            ),
            None => format!("{word} hex {}", i + 1),
        })
        .collect()
}

/// The units a scatter could reach, with no CF: those not stacked with a leader (9.1.3).
pub(super) fn exposed(read: &ScatterRead) -> Vec<(Unit, u32)> {
    read.units.iter().map(|(u, _)| (u.clone(), 0)).collect()
}

/// The targets an outright scatter reaches: the side, or with a leader on one hex its other
/// hexes; none when every unit stands with a leader (9.1.3).
fn scatter_targets(
    side: Target,
    fighters: &Fighters,
    word: &str,
    read: &ScatterRead,
) -> Vec<Target> {
    if read.units.is_empty() {
        Vec::new()
    } else if fighters.leader_on_a_hex() {
        fighters
            .leaders
            .iter()
            .zip(&fighters.labels)
            .enumerate()
            .filter(|(_, (f, _))| !**f)
            .map(|(i, (_, l))| {
                Target::Hex(l.map_or_else(|| format!("{word} hex {}", i + 1), str::to_string))
            })
            .collect()
    } else {
        vec![side]
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{counted, example_5_1_1, situation};
    use super::*;
    use crate::systems::{medieval::Medieval, test_support::load};

    fn aftermath<'d>(data: &'d MedievalData, s: &CombatSituation) -> Aftermath<'d> {
        let fight = counted(data, s);
        Aftermath::of(data, s, fight.sides(), &fight.cms).unwrap()
    }

    fn texts(effects: &[Effect]) -> Vec<String> {
        effects.iter().map(|e| e.text.clone()).collect()
    }

    #[test]
    fn the_5_1_1_result_costs_the_attacker_1_sp_and_retreats_the_defender_2() {
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let after = aftermath(data, &example_5_1_1());
        let r: CombatResult = "-1/D2".parse().unwrap();
        assert_eq!(
            texts(&after.effects(&r)),
            [
                "Attacker: lose 1 SP (attacker's choice of unit)",
                "Attacker: if eliminated, MORALE track 1 box in the enemy's favour",
                "Defender: retreat 2 hexes",
                "Attacker: charge factor −1",
                "Defender: charge factor −1"
            ]
        );
    }

    #[test]
    fn a_blocked_retreat_costs_an_sp_a_hex() {
        // 5.4.6: D2 with one hex open: the second hex costs 1 SP.
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let mut s = example_5_1_1();
        s.defender.retreat_possible = Some(1);
        let after = aftermath(data, &s);
        let r: CombatResult = "D2".parse().unwrap();
        let effects = after.effects(&r);
        let lost: Vec<&Effect> = effects
            .iter()
            .filter(|e| e.target == Target::Defender && matches!(e.change, Change::LoseSp { .. }))
            .collect();
        assert_eq!(lost.len(), 1);
        assert_eq!(
            lost[0].change,
            Change::LoseSp {
                count: data.retreat.blocked_sp_per_hex,
                chosen_by: Chooser::Defender
            }
        );
        assert!(effects
            .iter()
            .any(|e| matches!(e.change, Change::MoraleIfEliminated { .. })
                && e.target == Target::Defender));
    }

    #[test]
    fn a_leader_on_one_hex_keeps_only_that_hex_from_scattering() {
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let s = situation(serde_json::json!({
            "attackers": [{ "units": [{ "type": "heavy_cavalry", "sp": 2 }] }],
            "defenders": [
                { "terrain": "clear", "leader": true, "units": [{ "type": "light_cavalry", "sp": 2 }] },
                { "terrain": "clear", "units": [{ "type": "light_infantry", "sp": 2 }] }
            ]
        }));
        let after = aftermath(data, &s);
        assert_eq!(
            after.defender.scatter,
            [Target::Hex("defending hex 2".into())]
        );
        assert_eq!(exposed(&after.defender.read).len(), 1);
        assert_eq!(after.attacker.scatter, [Target::Attacker]);
        assert_eq!(
            hex_names(&[None], Thrower::B, "defending"),
            ["the defender"]
        );
    }
}
