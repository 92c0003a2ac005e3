//! Medieval combats opened from the roster: the picked counters by the hex they stand in (a
//! counter without a hex is a hex of its own), each with the SPs it has left (1.2) and its charge
//! factor now (5.6, lowered by results). A defending hex defends with every counter of its side
//! there (5.2.3); the leader standing on a fighting hex is stacked with its units, brings his
//! 2 CMs and throws for his life when they retreat, the result landing on his roster row (8.2,
//! R-MED-40).

use std::collections::BTreeMap;

use super::after::{PursuitHex, PursuitSituation};
use super::combat::{AttackingHex, CombatSituation, DefendingHex, SideSupport};
use super::data::MedievalData;
use super::fire::{FireSituation, FireTarget};
use super::leader::MedievalLeader;
use super::retreat::RetreatHex;
use super::roster::MedievalCounter;
use super::units::MedUnit;
use crate::contract::{target_key, Target};
use crate::error::{and_list, counted, possessive, RefereeError};
use crate::rule_system::fight::{
    not_a_combat, one_each, open_ground, targets, Fighter, Labels, Opening, Place, PlaceList, Sides,
};
use crate::state::{BattleState, UnitId, UnitState};
use crate::ErrorCode;

type Picked<'a> = Fighter<'a, MedievalCounter>;

/// A hex of the fight: its counters in the fight, under one label (their labels together), the
/// leader stacked there, and whether any counter of the side on the hex holds a banner, picked
/// or not (7.1.7: "any friendly units on hex with banner").
struct FightingHex<'a> {
    label: String,
    members: Vec<Picked<'a>>,
    leader: Option<(&'a UnitState, &'a MedievalLeader)>,
    banner: bool,
}

impl FightingHex<'_> {
    fn ids(&self) -> Vec<UnitId> {
        self.members.iter().map(|f| f.unit.id).collect()
    }

    fn units(&self) -> Vec<MedUnit> {
        self.members.iter().map(counter).collect()
    }

    fn leader_name(&self) -> Option<String> {
        self.leader.map(|(u, _)| u.label.clone())
    }

    fn grand_leader(&self) -> bool {
        self.leader.is_some_and(|(_, l)| l.grand)
    }
}

/// The fighters by hex, in the order picked; a defending hex brings its side's other counters
/// there (5.2.3: every enemy in the attacker's ZoC is attacked). The leader on each hex is the
/// first of the side's leaders in play standing there (8.2.3: a unit gains CMs from one leader).
fn by_hex<'a>(
    state: &'a BattleState,
    fighters: &[Picked<'a>],
    whole_hex: bool,
) -> Vec<FightingHex<'a>> {
    let mut hexes: Vec<(Option<&str>, Vec<Picked<'a>>)> = Vec::new();
    for f in fighters {
        let hex = f.own.hex.as_deref();
        match hexes.iter_mut().find(|(h, _)| hex.is_some() && *h == hex) {
            Some((_, members)) => members.push(f.clone()),
            None => hexes.push((hex, vec![f.clone()])),
        }
    }
    let side = fighters.first().map(|f| f.unit.side.as_str());
    let on_table = |u: &UnitState| Some(u.side.as_str()) == side && !u.lost;
    hexes
        .into_iter()
        .map(|(hex, mut members)| {
            let mut leader = None;
            let mut banner = members.iter().any(|f| f.own.banners > 0);
            if let Some(hex) = hex {
                for u in state.units.values().filter(|u| on_table(u)) {
                    if let Some(own) = u.detail::<MedievalCounter>() {
                        let here =
                            own.hex.as_deref() == Some(hex) && !own.scattered && u.strength > 0;
                        // 7.1.7: the banner of any friendly counter on the hex, picked or not.
                        banner |= here && own.banners > 0;
                        let joins = whole_hex && here && !members.iter().any(|m| m.unit.id == u.id);
                        if joins {
                            members.push(Fighter {
                                unit: u,
                                own,
                                label: u.label.clone(),
                            });
                        }
                    } else if let Some(l) = u.detail::<MedievalLeader>() {
                        let in_play = !u.leader.is_some_and(|f| f.out_of_play());
                        if in_play && leader.is_none() && l.hex.as_deref() == Some(hex) {
                            leader = Some((u, l));
                        }
                    }
                }
            }
            let labels: Vec<&str> = members.iter().map(|f| f.label.as_str()).collect();
            FightingHex {
                label: and_list(&labels),
                members,
                leader,
                banner,
            }
        })
        .collect()
}

/// Which roster units each effect target is: each side's counters, each hex by its label, and
/// each stacked leader by his name (his death, his command's losses and his own retreat land
/// from him).
fn hex_targets(
    attacking: &[FightingHex],
    defending: &[FightingHex],
) -> BTreeMap<String, Vec<UnitId>> {
    let side = |hexes: &[FightingHex]| hexes.iter().flat_map(FightingHex::ids).collect::<Vec<_>>();
    let mut out = BTreeMap::from([
        (target_key(&Target::Attacker), side(attacking)),
        (target_key(&Target::Defender), side(defending)),
    ]);
    for h in attacking.iter().chain(defending) {
        out.insert(target_key(&Target::Hex(h.label.clone())), h.ids());
        if let Some((u, _)) = h.leader {
            out.insert(target_key(&Target::Unit(u.label.clone())), vec![u.id]);
        }
    }
    out
}

/// A banner stands on one of the hexes: its holder is among the side's counters there, picked
/// or not (7.1.7).
fn holds_banner(hexes: &[FightingHex]) -> bool {
    hexes.iter().any(|h| h.banner)
}

/// Where a side without a leader on its fighting hexes stands for 8.2.2, read from the roster's
/// hex numbers (R-MED-46): within a leader's command range of every fighting hex, by both ways
/// of staggering the map's columns; or which leaders the numbers cannot settle, for the umpire.
enum InRange {
    Within(String),
    Unsettled(Vec<String>),
    None,
}

fn leader_in_range(state: &BattleState, side: &str, hexes: &[FightingHex]) -> InRange {
    if hexes.iter().any(|h| h.leader.is_some()) {
        return InRange::None;
    }
    let fighting: Option<Vec<&str>> = hexes
        .iter()
        .map(|h| h.members.first().and_then(|f| f.own.hex.as_deref()))
        .collect();
    let Some(fighting) = fighting else {
        return InRange::None;
    };
    let mut unsettled = Vec::new();
    for u in state.units.values().filter(|u| u.side == side && !u.lost) {
        let Some(l) = u.detail::<MedievalLeader>() else {
            continue;
        };
        let (Some(at), false) = (l.hex.as_deref(), u.leader.is_some_and(|f| f.out_of_play()))
        else {
            continue;
        };
        let range = l.command_range();
        let each: Vec<Option<bool>> = fighting
            .iter()
            .map(|h| super::map::within(h, at, range))
            .collect();
        if each.iter().all(|w| *w == Some(true)) {
            return InRange::Within(u.label.clone());
        }
        if !each.contains(&Some(false)) {
            unsettled.push(u.label.clone());
        }
    }
    if unsettled.is_empty() {
        InRange::None
    } else {
        InRange::Unsettled(unsettled)
    }
}

/// The side's leader part read from the roster, and what is left to ask.
fn range_support(
    state: &BattleState,
    hexes: &[FightingHex],
    asks: &mut Vec<String>,
) -> super::combat::LeaderPresence {
    let Some(side) = hexes
        .first()
        .and_then(|h| h.members.first())
        .map(|f| f.unit.side.as_str())
    else {
        return super::combat::LeaderPresence::None;
    };
    match leader_in_range(state, side, hexes) {
        InRange::Within(name) => {
            asks.push(format!(
                "{name} is within his command range of the {} fighting hexes: 1 CM (8.2.2).",
                possessive(side)
            ));
            super::combat::LeaderPresence::InRange
        }
        InRange::Unsettled(names) => {
            asks.push(format!(
                "Say whether {} is within his command range of the {} fighting hexes: the hex numbers do not settle it (8.2.2).",
                crate::error::or_list(&names),
                possessive(side)
            ));
            super::combat::LeaderPresence::None
        }
        InRange::None => super::combat::LeaderPresence::None,
    }
}

/// What the umpire is asked of the stacked leaders: his command, which his death costs 1 SP a
/// unit (8.1.4), where the roster gives him none.
fn leader_asks(hexes: &[FightingHex]) -> Vec<String> {
    hexes
        .iter()
        .filter_map(|h| h.leader)
        .filter(|(u, l)| u.command.is_none() && !l.grand)
        .map(|(u, _)| {
            format!(
                "{} has no command on the roster: give him his command, whose units his death costs 1 SP each (8.1.4).",
                u.label
            )
        })
        .collect()
}

/// What stands on each roster hex besides the fighting ones, seen by one side, in the roster's
/// order of hex names: its counters not scattered and its leaders in play (5.4, 5.5, R-MED-44).
fn roster_hexes<'a>(
    data: &MedievalData,
    state: &'a BattleState,
    side: &str,
    fighting: &[&str],
) -> BTreeMap<&'a str, OnHex<'a>> {
    let mut hexes: BTreeMap<&str, OnHex> = BTreeMap::new();
    for u in state.units.values().filter(|u| !u.lost) {
        if let Some(own) = u.detail::<MedievalCounter>() {
            let Some(hex) = own.hex.as_deref().filter(|h| !fighting.contains(h)) else {
                continue;
            };
            if own.scattered || u.strength == 0 {
                continue;
            }
            let here = hexes.entry(hex).or_default();
            // 5.8.1: only non-cavalry is ridden down there.
            let cavalry = data
                .unit_types
                .get(&own.entry.unit_type)
                .is_some_and(|t| t.cavalry);
            if !cavalry {
                here.ridden.push(u.id);
            }
            if u.side == side {
                here.friendly.push(own.now(u.strength));
                here.words.push(format!(
                    "{} ({})",
                    u.label,
                    counted(i64::from(u.strength), "SP", "SPs")
                ));
            } else {
                here.enemy.push(&u.label);
                here.enemy_units.push(own.now(u.strength));
            }
        } else if let Some(l) = u.detail::<MedievalLeader>() {
            let in_play = !u.leader.is_some_and(|f| f.out_of_play());
            match l.hex.as_deref() {
                Some(hex) if u.side == side && in_play && !fighting.contains(&hex) => {
                    hexes
                        .entry(hex)
                        .or_default()
                        .words
                        .push(format!("{} (leader)", u.label));
                }
                _ => {}
            }
        }
    }
    hexes
}

/// The roster's hexes a route may name, each with the item it adds (`item`: the hex and what
/// stands there), in words; a ride-down there lands on the hex's non-cavalry (5.8.1).
fn route_places<T: serde::Serialize>(
    hexes: BTreeMap<&str, OnHex>,
    targets: &mut BTreeMap<String, Vec<UnitId>>,
    item: impl Fn(&str, &OnHex) -> T,
) -> Result<Vec<Place>, RefereeError> {
    hexes
        .into_iter()
        .map(|(hex, on)| {
            targets
                .entry(target_key(&Target::Hex(hex.to_string())))
                .or_insert_with(|| on.ridden.clone());
            let mut words = on.words.clone();
            if !on.enemy.is_empty() {
                words.push(format!("enemy: {}", and_list(&on.enemy)));
            }
            Place::new(hex, words.join(", "), &item(hex, &on))
        })
        .collect()
}

/// What stands on a roster hex, seen by one side: its own counters (as a route hex's friendly
/// units), its own in words, the enemy's labels and counters, and the non-cavalry a ride-down
/// there would eliminate.
#[derive(Default)]
struct OnHex<'a> {
    friendly: Vec<MedUnit>,
    words: Vec<String>,
    enemy: Vec<&'a str>,
    enemy_units: Vec<MedUnit>,
    ridden: Vec<UnitId>,
}

/// Both sides' retreat routes to pick hex by hex (5.4, R-MED-44): the roster's other hexes, the
/// side's counters there as its friendly units (5.4.4, 4.5.2) and the enemy's ticked (5.4.5).
/// A side fighting from several hexes has a route for each, its picker naming the hex and its
/// units (R-MED-50). ZoCs and terrain stay the umpire's to set.
fn routes(
    data: &MedievalData,
    state: &BattleState,
    [attacking, defending]: [&[FightingHex]; 2],
    targets: &mut BTreeMap<String, Vec<UnitId>>,
) -> Result<Vec<PlaceList>, RefereeError> {
    let fighting: Vec<&str> = attacking
        .iter()
        .chain(defending)
        .flat_map(|h| h.members.iter().filter_map(|f| f.own.hex.as_deref()))
        .collect();
    let mut out = Vec::new();
    for (hexes, key, each) in [
        (attacking, "attacker", "attackers"),
        (defending, "defender", "defenders"),
    ] {
        let Some(side) = hexes
            .iter()
            .find_map(|h| h.members.first())
            .map(|f| f.unit.side.as_str())
        else {
            continue;
        };
        let on_roster = roster_hexes(data, state, side, &fighting);
        let places = route_places(on_roster, targets, |hex, on| RetreatHex {
            label: Some(hex.to_string()),
            enemy: !on.enemy.is_empty(),
            friendly: on.friendly.clone(),
            ..RetreatHex::default()
        })?;
        let list = |path: Vec<String>, title: String, ruling: &str| PlaceList {
            path,
            title,
            rule: "5.4".to_string(),
            ruling: Some(ruling.to_string()),
            places: places.clone(),
            name_key: "label".to_string(),
        };
        if hexes.len() < 2 {
            out.push(list(
                vec![key.to_string(), "retreat_hexes".to_string()],
                format!("{} retreat route", possessive(side)),
                "R-MED-44",
            ));
            continue;
        }
        for (i, h) in hexes.iter().enumerate() {
            let from = h
                .members
                .first()
                .and_then(|f| f.own.hex.as_deref())
                .map_or(String::new(), |hex| format!(" from {hex}"));
            out.push(list(
                vec![each.to_string(), i.to_string(), "retreat_hexes".to_string()],
                format!("{} retreat route{from} ({})", possessive(side), h.label),
                "R-MED-50",
            ));
        }
    }
    Ok(out)
}

fn combat(data: &MedievalData, sides: &Sides<MedievalCounter>) -> Result<Opening, RefereeError> {
    let terrain = open_ground(data.terrain.keys());
    let attacking = by_hex(sides.state, &sides.attackers, false);
    let defending = by_hex(sides.state, &sides.defenders, true);
    let mut ranged = Vec::new();
    let situation = CombatSituation {
        attackers: attacking
            .iter()
            .map(|h| AttackingHex {
                label: Some(h.label.clone()),
                units: h.units(),
                leader: h.leader.is_some(),
                leader_name: h.leader_name(),
                grand_leader: h.grand_leader(),
                ..AttackingHex::default()
            })
            .collect(),
        defenders: defending
            .iter()
            .map(|h| DefendingHex {
                label: Some(h.label.clone()),
                terrain: terrain.clone(),
                units: h.units(),
                leader: h.leader.is_some(),
                leader_name: h.leader_name(),
                grand_leader: h.grand_leader(),
                retreat_hexes: None,
            })
            .collect(),
        // 7.1.7: a side whose fighting hex holds a banner gains its CM; 8.2.2: a leader within
        // his command range, read from the roster's hexes (R-MED-46).
        attacker: SideSupport {
            banner: holds_banner(&attacking),
            leader: range_support(sides.state, &attacking, &mut ranged),
            ..SideSupport::default()
        },
        defender: SideSupport {
            banner: holds_banner(&defending),
            leader: range_support(sides.state, &defending, &mut ranged),
            ..SideSupport::default()
        },
        // The value in force, not the counter: phase 9 sets it (6.1.9); in player A's favour,
        // the battle's first side.
        morale: sides.state.morale_in_force,
        attacker_player: if sides.attackers_first() {
            super::morale::Player::A
        } else {
            super::morale::Player::B
        },
        ..CombatSituation::default()
    };
    let mut asks = vec![
        "Set the terrain of each defending hex and tick streams, bridges and rear attacks (5.6, 3.1.2).".to_string(),
    ];
    let stacked = attacking
        .iter()
        .chain(&defending)
        .any(|h| h.leader.is_some());
    if ranged.is_empty() {
        asks.push(if stacked {
            "Say where any other leader of either side is: within his command range, 1 CM (8.2.2)."
                .into()
        } else {
            "Say where each side's leader is (8.2).".into()
        });
    }
    asks.extend(ranged);
    asks.extend(leader_asks(&attacking));
    asks.extend(leader_asks(&defending));
    let mut targets = hex_targets(&attacking, &defending);
    let places = routes(data, sides.state, [&attacking, &defending], &mut targets)?;
    let mut opening = Opening::new(&situation, targets, asks)?;
    opening.places = places;
    Ok(opening)
}

pub fn open(
    data: &MedievalData,
    action: &str,
    sides: &Sides<MedievalCounter>,
) -> Result<Opening, RefereeError> {
    for f in sides.attackers.iter().chain(&sides.defenders) {
        if f.own.scattered {
            return Err(RefereeError::new(
                ErrorCode::FightScattered,
                format!(
                    "{} is scattered: it fights again only once it has regrouped.",
                    f.unit.named()
                ),
            )
            .rule("9.1"));
        }
    }
    match action {
        "combat" => combat(data, sides),
        "fire" => {
            if sides.attackers.len() > 1 {
                return Err(
                    one_each("A ranged fire is one unit shooting at a hex", "10.2")
                        .field("attackers"),
                );
            }
            let situation = FireSituation {
                shooter: counter(&sides.attackers[0]),
                range: 1,
                target: Some(FireTarget {
                    label: Some(
                        sides
                            .defenders
                            .iter()
                            .map(|f| f.label.as_str())
                            .collect::<Vec<_>>()
                            .join(" and "),
                    ),
                    terrain: open_ground(data.terrain.keys()),
                    units: sides.defenders.iter().map(counter).collect(),
                }),
                ..FireSituation::default()
            };
            Opening::new(
                &situation,
                targets(sides, Labels::Hexes),
                vec!["Set the range to the target and its terrain (10.2).".into()],
            )
        }
        _ => Err(not_a_combat(action)),
    }
}

/// The pursuit test after the last combat applied this turn (5.5, R-MED-43): its first attacker
/// still on the table pursues, with its counter now and the MORALE in force in its favour; a
/// leader standing on its hex is 0 hexes away (R-MED-6) and pursues with it; the first hex of
/// the path is the hex the retreat emptied, the defenders' before they retreated (5.5.5); the
/// hexes beyond are picked from the roster's, and the pursuer, with that leader, ends on the last
/// one it enters (R-MED-45). With no leader there his hexes are left for the umpire to count.
/// Before any combat, the umpire fills it in.
pub fn open_pursuit(data: &MedievalData, state: &BattleState) -> Result<Opening, RefereeError> {
    let last = state.this_turn.iter().rev().find(|c| c.action == "combat");
    let counter_of = |id: &UnitId| {
        state
            .units
            .get(id)
            .filter(|u| !u.lost)
            .and_then(|u| u.detail::<MedievalCounter>().map(|c| (u, c)))
            .filter(|(_, c)| !c.scattered)
    };
    // The hexes to the leader are known only with him on the pursuer's hex (0, R-MED-6): else
    // they are left unset, for the form to ask.
    let unset = |opening: Result<Opening, RefereeError>| {
        opening.map(|mut o| {
            if let Some(m) = o.situation.as_object_mut() {
                m.remove("hexes_from_leader");
            }
            o
        })
    };
    let Some((pursuer, own)) = last.and_then(|c| c.attackers.iter().find_map(counter_of)) else {
        return unset(Opening::new(
            &PursuitSituation::default(),
            BTreeMap::new(),
            vec!["No attacker of a combat this turn is on the table to pursue: enter the pursuing unit, its hexes from its leader and its path (5.5).".into()],
        ));
    };
    let leader = own.hex.as_ref().and_then(|hex| {
        state.units.values().find(|u| {
            u.side == pursuer.side
                && !u.lost
                && !u.leader.is_some_and(|f| f.out_of_play())
                && u.detail::<MedievalLeader>()
                    .is_some_and(|l| l.hex.as_ref() == Some(hex))
        })
    });
    let first_side = state.sides.first().map(|s| s.name.as_str()) == Some(pursuer.side.as_str());
    // 5.5.5: the hex the retreat emptied, where the defenders stood before it; a defender
    // without a hex leaves it unnamed, so the pursuit lands nowhere (R-MED-45).
    let emptied = last
        .into_iter()
        .flat_map(|c| &c.defenders)
        .filter_map(|id| state.units.get(id))
        .find_map(|u| u.detail::<MedievalCounter>())
        .map(|c| c.left.clone().or_else(|| c.hex.clone()));
    let situation = PursuitSituation {
        hexes_from_leader: 0,
        morale: if first_side {
            state.morale_in_force
        } else {
            state.morale_in_force.saturating_neg()
        },
        pursuer: Some(own.now(pursuer.strength)),
        path: emptied
            .map(|label| PursuitHex {
                label,
                ..PursuitHex::default()
            })
            .into_iter()
            .collect(),
        // A voluntary pursuit is made unless the umpire ticks that the player declines it.
        stays: false,
    };
    let mut targets = BTreeMap::from([(
        target_key(&Target::Attacker),
        std::iter::once(pursuer.id)
            .chain(leader.map(|l| l.id))
            .collect(),
    )]);
    let fighting: Vec<&str> = own.hex.as_deref().into_iter().collect();
    let hexes = roster_hexes(data, state, &pursuer.side, &fighting);
    let places = route_places(hexes, &mut targets, |hex, on| PursuitHex {
        label: Some(hex.to_string()),
        friendly: on.friendly.clone(),
        enemy: on.enemy_units.clone(),
        ..PursuitHex::default()
    })?;
    let mut asks = vec![format!(
        "{} pursues: add the hexes beyond the first from the roster or by name, and set their terrain; it ends on the last one it enters (5.5.5, 5.5.9).",
        pursuer.label
    )];
    if leader.is_none() {
        asks.push(format!(
            "Count the hexes from {} to its leader (5.5.2, R-MED-6).",
            pursuer.label
        ));
    }
    let mut opening = Opening::new(&situation, targets, asks)?;
    opening.places = vec![PlaceList {
        path: vec!["path".to_string()],
        title: format!("{} pursuit route", possessive(&pursuer.label)),
        rule: "5.5".to_string(),
        ruling: Some("R-MED-45".to_string()),
        places,
        name_key: "label".to_string(),
    }];
    if leader.is_none() {
        return unset(Ok(opening));
    }
    Ok(opening)
}

/// The counter now: its SPs left.
fn counter(f: &Fighter<MedievalCounter>) -> MedUnit {
    f.own.now(f.unit.strength)
}
