//! ITACS combats opened from the roster. Roster entries in one hex are one stack (2.4): picked
//! attackers fight by hex, only those picked (not every unit of a stack need join the same
//! attack, 4.5); a defending hex defends with every unit in it (2.4.6). Leaders stacked in a
//! fighting hex bring their bonus to a melee (6.1.3) and cover Ff firers after defensive fire
//! (4.4.1). D markers and Rout markers are carried (5.1, 5.3).

use std::collections::BTreeMap;

use super::data::{AttackPosition, ItacsData};
use super::movement::{MoveKind, MoveSituation, PathStep, StartHex};
use super::roster::{ItacsLeader, ItacsUnit};
use super::situation::{
    AfterMovement, AttackingHex, DefendingHex, FireSituation, FiringHex, MeleeSituation, ScarpLine,
    TargetHex, Unit, UnitEntry,
};
use super::state::{PhaseHex, PhaseSituation};
use crate::contract::{target_key, Target};
use crate::error::RefereeError;
use crate::rule_system::fight::{not_a_combat, open_ground, Fighter, Opening, Sides};
use crate::rule_system::form::hex_key;
use crate::state::{BattleState, UnitId, UnitState};
use crate::ErrorCode;

type Picked<'a> = Fighter<'a, ItacsUnit>;

/// A hex of the fight: the roster entries in it that take part, under one label (the hex's
/// number, or the entry's label where the roster gives no hex), and the leaders stacked there.
struct FightingHex<'a> {
    label: String,
    members: Vec<Picked<'a>>,
    /// Units of a firing hex that do not fire, there all the same: a unit with a combat strength
    /// spares the hex's Ff firers their D marker after defensive fire (4.4.1).
    watching: Vec<Picked<'a>>,
    leaders: Vec<Fighter<'a, ItacsLeader>>,
}

/// Which unpicked units of a picked hex's stack join it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Join {
    /// None: not every unit of an attacking stack need join the same attack (4.5).
    Picked,
    /// As units that do not fire (a firing hex).
    Watching,
    /// All: a defending hex defends with every unit in it (2.4.6).
    Stack,
}

impl FightingHex<'_> {
    /// Every roster unit of the hex in the fight: its results land on all of them (markers are
    /// placed on top of the stack, 5.0).
    fn ids(&self) -> Vec<UnitId> {
        self.members
            .iter()
            .chain(&self.watching)
            .map(|f| f.unit.id)
            .collect()
    }

    fn d_markers(&self) -> u32 {
        self.members
            .iter()
            .map(|f| f.own.d_markers)
            .max()
            .unwrap_or(0)
    }

    fn rout(&self) -> bool {
        self.members.iter().any(|f| f.own.rout)
    }

    /// The hex's stack stands in square, as the roster has it (2.6.1).
    fn square(&self) -> bool {
        self.members
            .iter()
            .chain(&self.watching)
            .any(|f| f.own.square)
    }

    fn units(&self) -> Vec<UnitEntry> {
        let watching = self.watching.iter().map(|f| UnitEntry {
            firing: false,
            ..stack(f)
        });
        self.members.iter().map(stack).chain(watching).collect()
    }

    /// The leaders' bonuses together; the resolver caps them at the formation's strength (6.1.3).
    fn leader_bonus(&self) -> u32 {
        self.leaders.iter().filter_map(|l| l.own.bonus).sum()
    }
}

/// The fighters grouped by hex, in the order picked, with the leaders stacked there and the
/// units of the stack that `join`.
fn by_hex<'a>(state: &'a BattleState, fighters: &[Picked<'a>], join: Join) -> Vec<FightingHex<'a>> {
    let mut hexes: Vec<(Option<&str>, FightingHex<'a>)> = Vec::new();
    for f in fighters {
        let hex = f.own.hex.as_deref();
        match hexes.iter_mut().find(|(h, _)| hex.is_some() && *h == hex) {
            Some((_, group)) => group.members.push(f.clone()),
            None => hexes.push((
                hex,
                FightingHex {
                    label: hex.map_or_else(|| f.label.clone(), str::to_string),
                    members: vec![f.clone()],
                    watching: Vec::new(),
                    leaders: Vec::new(),
                },
            )),
        }
    }
    let side = fighters.first().map(|f| f.unit.side.as_str());
    for (hex, group) in &mut hexes {
        let Some(hex) = *hex else { continue };
        let here = |u: &UnitState| Some(u.side.as_str()) == side && !u.lost;
        for u in state.units.values().filter(|u| here(u)) {
            if let Some(own) = u.detail::<ItacsUnit>() {
                let joins = own.hex.as_deref() == Some(hex)
                    && u.strength > 0
                    && !group.members.iter().any(|m| m.unit.id == u.id);
                let f = Fighter {
                    unit: u,
                    own,
                    label: u.label.clone(),
                };
                match join {
                    _ if !joins => {}
                    Join::Picked => {}
                    Join::Watching => group.watching.push(f),
                    Join::Stack => group.members.push(f),
                }
            } else if let Some(leader) = u.detail::<ItacsLeader>() {
                let in_play = !u.leader.is_some_and(|f| f.out_of_play());
                if in_play && leader.hex.as_deref() == Some(hex) {
                    group.leaders.push(Fighter {
                        unit: u,
                        own: leader,
                        label: u.label.clone(),
                    });
                }
            }
        }
    }
    hexes.into_iter().map(|(_, g)| g).collect()
}

/// Every stack on the table: the roster entries of one side in one hex (an entry without a hex
/// is a stack of its own), in roster order.
fn stacks(state: &BattleState) -> Vec<FightingHex<'_>> {
    let mut out: Vec<(&str, Option<&str>, FightingHex)> = Vec::new();
    for u in state.units.values().filter(|u| !u.lost && u.strength > 0) {
        let Some(own) = u.detail::<ItacsUnit>() else {
            continue;
        };
        let f = Fighter {
            unit: u,
            own,
            label: u.label.clone(),
        };
        let hex = own.hex.as_deref();
        let same = |(side, h, _): &&mut (&str, Option<&str>, FightingHex)| {
            hex.is_some() && *h == hex && *side == u.side
        };
        match out.iter_mut().find(same) {
            Some((_, _, stack)) => stack.members.push(f),
            None => out.push((
                u.side.as_str(),
                hex,
                FightingHex {
                    label: hex.map_or_else(|| u.label.clone(), str::to_string),
                    members: vec![f],
                    watching: Vec::new(),
                    leaders: Vec::new(),
                },
            )),
        }
    }
    let mut stacks: Vec<FightingHex> = out.into_iter().map(|(_, _, s)| s).collect();
    // A label names one stack: a unit labelled as another stack's hex goes by its id too.
    let labels: Vec<String> = stacks.iter().map(|s| s.label.clone()).collect();
    for s in &mut stacks {
        if labels.iter().filter(|l| **l == s.label).count() > 1 {
            s.label = format!("{} (#{})", s.label, s.members[0].unit.id);
        }
    }
    stacks
}

/// The steps of the whole battle opened from the roster: recovery takes one D marker from every
/// hex that has one (4.6).
pub fn open_battle(
    _data: &ItacsData,
    action: &str,
    state: &BattleState,
) -> Result<Opening, RefereeError> {
    if action != "recovery" {
        return Err(not_a_combat(action));
    }
    let marked: Vec<FightingHex> = stacks(state)
        .into_iter()
        .filter(|s| s.d_markers() > 0)
        .collect();
    let situation = PhaseSituation {
        hexes: marked
            .iter()
            .map(|s| PhaseHex {
                label: s.label.clone(),
                formation: None,
                moving_player: true,
                d_markers: s.d_markers(),
                broken: s.members.iter().any(|f| f.own.broken),
                rout: s.rout(),
                rampaging: s.members.iter().any(|f| f.own.rampaging),
                leaders: Vec::new(),
                leader_distances: BTreeMap::new(),
            })
            .collect(),
    };
    let asks = if marked.is_empty() {
        vec!["No hex has a D marker: the recovery phase removes none (4.6).".into()]
    } else {
        Vec::new()
    };
    let targets = marked
        .iter()
        .map(|s| (target_key(&Target::Hex(s.label.clone())), s.ids()))
        .collect();
    Opening::new(&situation, targets, asks)
}

/// Which roster units each effect target is: each side's hexes, and each hex by its label.
/// A side is the units fighting (a firing hex's units that do not fire are not, so they may
/// still fire this turn, 4.2); a hex is every unit in it.
fn targets(attacking: &[FightingHex], defending: &[FightingHex]) -> BTreeMap<String, Vec<UnitId>> {
    let fighting = |hexes: &[FightingHex]| {
        hexes
            .iter()
            .flat_map(|h| h.members.iter().map(|f| f.unit.id))
            .collect::<Vec<_>>()
    };
    let mut out = BTreeMap::from([
        (target_key(&Target::Attacker), fighting(attacking)),
        (target_key(&Target::Defender), fighting(defending)),
    ]);
    for h in attacking.iter().chain(defending) {
        out.insert(target_key(&Target::Hex(h.label.clone())), h.ids());
    }
    // The defenders' leaders, by name: captured when the units they stand with are eliminated
    // in melee (6.1.4).
    for l in defending.iter().flat_map(|h| &h.leaders) {
        out.insert(target_key(&Target::Unit(l.label.clone())), vec![l.unit.id]);
    }
    out
}

pub fn open(
    data: &ItacsData,
    action: &str,
    sides: &Sides<ItacsUnit>,
) -> Result<Opening, RefereeError> {
    if action == "move" {
        return open_move(data, sides);
    }
    let attacking = by_hex(
        sides.state,
        &sides.attackers,
        if action == "melee" {
            Join::Picked
        } else {
            Join::Watching
        },
    );
    let defending = by_hex(sides.state, &sides.defenders, Join::Stack);
    for f in attacking.iter().flat_map(|h| &h.members) {
        if f.own.d_markers > 0 {
            return Err(RefereeError::new(
                ErrorCode::FightDisrupted,
                format!(
                    "{} has {}: disrupted units may not attack or fire.",
                    f.unit.named(),
                    crate::error::counted(i64::from(f.own.d_markers), "D marker", "D markers")
                ),
            )
            .field("attackers")
            .rule("5.1, 9.0"));
        }
    }
    let terrain = open_ground(data.terrain.keys());
    let mut asks: Vec<String> = match action {
        "melee" => vec![
            "Set the terrain of each defending hex (10.3) and tick attacks through a rear hex (4.5.8).".into(),
        ],
        "missile" => vec![
            "Set the range of each firing hex (4.2) and the terrain of the target hex (10.3).".into(),
        ],
        "defensive_fire" => vec![
            "Set the terrain of the target hex (10.3).".into(),
        ],
        "horse_archer_fire" => vec![
            "Set the range of each firing hex and the horse archers' terrain (6.2).".into(),
        ],
        _ => return Err(not_a_combat(action)),
    };
    // Where the roster gives no hex it cannot know the leaders stacked there.
    let unplaced = attacking
        .iter()
        .chain(&defending)
        .any(|h| h.members.iter().any(|f| f.own.hex.is_none()));
    if unplaced && action == "melee" {
        asks.push("Enter the bonus of leaders stacked with either side (6.1.3).".into());
    }
    if unplaced && action == "defensive_fire" {
        asks.push("Tick a leader in a firing hex (4.4.1).".into());
    }
    let all: Vec<&Picked> = attacking
        .iter()
        .chain(&defending)
        .flat_map(|h| &h.members)
        .collect();
    asks.extend(missing_values(data, action, &all));
    if action == "defensive_fire" {
        for f in attacking
            .iter()
            .flat_map(|h| &h.members)
            .filter(|f| f.own.threw)
        {
            asks.push(format!(
                "{} has already fired its throwing weapons in this battle: they are used once per game (6.6).",
                f.label
            ));
        }
    }
    let targets = targets(&attacking, &defending);
    match action {
        "melee" => Opening::new(&melee(&attacking, &defending, &terrain), targets, asks),
        _ => Opening::new(
            &fire(data, action, &attacking, &defending, &terrain),
            targets,
            asks,
        ),
    }
}

fn melee(attacking: &[FightingHex], defending: &[FightingHex], terrain: &str) -> MeleeSituation {
    let bonus = |hexes: &[FightingHex]| hexes.iter().map(FightingHex::leader_bonus).sum();
    MeleeSituation {
        attackers: attacking
            .iter()
            .map(|h| AttackingHex {
                label: Some(h.label.clone()),
                rear: false,
                disrupted: false,
                square: h.square(),
                across_scarp: false,
                units: h.units(),
            })
            .collect(),
        defenders: defending
            .iter()
            .map(|h| DefendingHex {
                label: Some(h.label.clone()),
                terrain: terrain.to_string(),
                stream: false,
                road: false,
                square: h.square(),
                d_markers: h.d_markers(),
                rout: h.rout(),
                on_ladder_or_tower: false,
                units: h.units(),
                leaders: h.leaders.iter().map(|l| l.label.clone()).collect(),
            })
            .collect(),
        attack_from: AttackPosition::Ground,
        attacker_leader_bonus: bonus(attacking),
        defender_leader_bonus: bonus(defending),
    }
}

fn fire(
    data: &ItacsData,
    action: &str,
    attacking: &[FightingHex],
    defending: &[FightingHex],
    terrain: &str,
) -> FireSituation {
    let movement_of = |hexes: &[FightingHex]| -> Vec<u32> {
        hexes
            .iter()
            .flat_map(|h| &h.members)
            .filter_map(|f| movement(data, f))
            .collect()
    };
    FireSituation {
        firing_hexes: attacking
            .iter()
            .map(|h| FiringHex {
                label: Some(h.label.clone()),
                range: 1,
                rear: false,
                leader: !h.leaders.is_empty(),
                terrain: None,
                disrupted: false,
                units: h.units(),
            })
            .collect(),
        target: target(defending, terrain),
        after_movement: (action == "horse_archer_fire").then(|| AfterMovement {
            terrain: terrain.to_string(),
            // The formation moves at its slowest unit's pace (4.3.1).
            movement: movement_of(attacking).into_iter().min().unwrap_or(0),
            contact_movement: movement_of(defending),
            fired_before_movement: false,
        }),
    }
}

/// The stack as it stands now: the units left in it (4.5.11).
fn stack(f: &Picked) -> UnitEntry {
    f.own.now(f.unit.strength)
}

/// The defenders as one target hex: fire falls on a single hex (4.2), so the defending hexes
/// picked are read as one, with the most D markers any of them carries.
fn target(defending: &[FightingHex], terrain: &str) -> TargetHex {
    let labels: Vec<&str> = defending.iter().map(|h| h.label.as_str()).collect();
    TargetHex {
        terrain: terrain.to_string(),
        stream: false,
        road: false,
        scarp: ScarpLine::None,
        square: defending.iter().any(FightingHex::square),
        d_markers: defending
            .iter()
            .map(FightingHex::d_markers)
            .max()
            .unwrap_or(0),
        rout: defending.iter().any(FightingHex::rout),
        label: Some(labels.join(" + ")),
        units: defending.iter().flat_map(FightingHex::units).collect(),
    }
}

/// A roster unit as the rules read it, with its type's values.
fn resolved(data: &ItacsData, f: &Picked) -> Option<Unit> {
    Unit::resolve(data, &f.own.entry, "").ok()
}

/// The movement points of a unit, printed or from its type.
fn movement(data: &ItacsData, f: &Picked) -> Option<u32> {
    resolved(data, f)?.movement
}

/// The values the text does not give for a unit's type and its roster entry leaves out
/// (R-ITACS-17): the umpire reads them off the counter.
fn missing_values(data: &ItacsData, action: &str, fighters: &[&Picked]) -> Vec<String> {
    let mut asks = Vec::new();
    for f in fighters {
        let Some(unit) = resolved(data, f) else {
            continue;
        };
        if unit.class.is_none() {
            asks.push(format!(
                "Enter the unit class printed on the {} counter (2.4.4).",
                f.label
            ));
        }
        if action == "move" && unit.movement.is_none() {
            asks.push(format!(
                "Enter the movement points printed on the {} counter (4.3.1).",
                f.label
            ));
        }
        if action == "melee" && unit.combat.is_none() {
            asks.push(format!(
                "Enter the combat strength printed on the {} counter (2.4.6).",
                f.label
            ));
        }
        // Whether horse archers may break after firing turns on every unit's movement points
        // (6.2): a unit without them is not left out of the contact list unsaid.
        if action == "horse_archer_fire" && unit.movement.is_none() {
            asks.push(format!(
                "Enter the movement points printed on the {} counter (4.3): whether the horse archers may break depends on them (6.2).",
                f.label
            ));
        }
    }
    asks
}

/// A move opened from its roster entry (4.3): the markers of the stack it stands in set the
/// move — a Break marker a break move (5.2), a Rout marker a rout move (5.3.1), D markers a
/// disrupted mover (5.1) —, and each hex the umpire names is read from the roster: the friends
/// already there (4.3.3), their D and Rout markers (5.1, 5.3), an elephant (6.9.3). A hex of
/// enemy units is never entered (4.3.3). Its terrain, its distance from the nearest enemy and
/// the map edge are the umpire's to set. The stack's markers move with it (R-ITACS-40).
fn open_move(data: &ItacsData, sides: &Sides<ItacsUnit>) -> Result<Opening, RefereeError> {
    let Some(first) = sides.attackers.first() else {
        return Err(not_a_combat("move"));
    };
    // Units move one at a time or in stacks (4.3.3): several entries only of one side's hex.
    let movers = &sides.attackers;
    let hex_of = |f: &Picked| f.own.hex.as_deref().map(hex_key);
    if movers.len() > 1
        && movers.iter().any(|m| {
            hex_of(m).is_none() || hex_of(m) != hex_of(first) || m.unit.side != first.unit.side
        })
    {
        return Err(RefereeError::new(
            ErrorCode::FightOneEach,
            "Units move one at a time or as one stack: pick the units of one hex.",
        )
        .field("attackers")
        .rule("4.3.3"));
    }
    // A stack moves at the pace of its slowest entry (R-ITACS-42).
    let mover = movers
        .iter()
        .min_by_key(|m| movement(data, m).unwrap_or(u32::MAX))
        .unwrap_or(first);
    let ids: Vec<UnitId> = movers.iter().map(|m| m.unit.id).collect();
    let state = sides.state;
    let all = stacks(state);
    let own = all
        .iter()
        .find(|s| s.members.iter().any(|m| m.unit.id == mover.unit.id));
    let d_markers = own.map_or(mover.own.d_markers, FightingHex::d_markers);
    let routed = own.map_or(mover.own.rout, FightingHex::rout);
    let broken = own.map_or(mover.own.broken, |s| s.members.iter().any(|m| m.own.broken));
    let kind = if broken {
        MoveKind::Break
    } else if routed {
        MoveKind::Rout
    } else {
        MoveKind::Normal
    };
    let ground = open_ground(data.terrain.keys());
    // The move names its mover as the rules read the entry (its type): that is the roster entry.
    let name = resolved(data, mover).map_or_else(|| "unnamed".to_string(), |u| u.label);
    // The mover is also the fight's attacker: the battle's once-per-turn limit finds it there.
    let mut targets = BTreeMap::from([
        (target_key(&Target::Unit(name)), ids.clone()),
        (target_key(&Target::Attacker), ids.clone()),
    ]);
    let mut path: Vec<PathStep> = Vec::new();
    let start = mover.own.hex.as_deref().map(hex_key);
    for (i, typed) in sides
        .path
        .iter()
        .map(|h| h.trim())
        .filter(|h| !h.is_empty())
        .enumerate()
    {
        // A hex matched as a number ("19.5" is the roster's 19.05), named as the roster has it.
        let key = hex_key(typed);
        let at = |h: Option<&str>| h.is_some_and(|h| hex_key(h) == key);
        let here = |s: &&FightingHex| at(s.members[0].own.hex.as_deref());
        let hex = all
            .iter()
            .find(here)
            .and_then(|s| s.members[0].own.hex.as_deref())
            .map_or_else(|| typed.to_string(), |h| h.trim().to_string());
        let hex = hex.as_str();
        let named_before = path
            .iter()
            .any(|p| p.label.as_deref().is_some_and(|l| hex_key(l) == key));
        if (i == 0 && start.as_deref() == Some(key.as_str())) || named_before {
            let why = if named_before {
                format!("Hex {hex} is named twice: a move enters each hex of its path once.")
            } else {
                format!(
                    "{} stands in hex {hex}: give the hexes the move enters, after the one it starts in.",
                    mover.unit.named()
                )
            };
            return Err(RefereeError::new(ErrorCode::FightPathHex, why)
                .field(format!("path[{i}]"))
                .rule("4.3.1"));
        }
        if let Some(enemy) = all
            .iter()
            .filter(here)
            .find(|s| s.members[0].unit.side != mover.unit.side)
        {
            let names: Vec<String> = enemy.members.iter().map(|m| m.unit.named()).collect();
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            return Err(RefereeError::new(
                ErrorCode::FightEnemyHex,
                format!(
                    "Hex {hex} holds {}: units may never enter a hex containing enemy units. Give the hexes the move enters.",
                    crate::error::and_list(&names)
                ),
            )
            .field(format!("path[{i}]"))
            .rule("4.3.3"));
        }
        let friends: Vec<&Picked> = all
            .iter()
            .filter(here)
            .filter(|s| s.members[0].unit.side == mover.unit.side)
            .flat_map(|s| &s.members)
            .filter(|m| !ids.contains(&m.unit.id))
            .collect();
        path.push(PathStep {
            label: Some(hex.to_string()),
            terrain: ground.clone(),
            stream: false,
            road: false,
            facing_changes: 0,
            units_in_hex: friends.iter().map(|f| f.unit.strength).sum(),
            d_markers: friends.iter().map(|f| f.own.d_markers).max().unwrap_or(0),
            rout: friends.iter().any(|f| f.own.rout),
            elephant: friends.iter().any(|f| f.own.rampages),
            across_scarp: false,
            enemy_distance: None,
            map_edge: false,
        });
        if !friends.is_empty() {
            targets.insert(
                target_key(&Target::Hex(hex.to_string())),
                friends.iter().map(|f| f.unit.id).collect(),
            );
        }
    }
    let mut asks = if path.is_empty() && kind != MoveKind::Normal {
        vec!["Give the hexes the unit enters, in order, each farther from the nearest enemy unit; if no hex is farther, say so: the unit stays and takes one D marker (5.3.1).".into()]
    } else if path.is_empty() {
        vec!["Give the hexes the unit enters, in order (4.3.1).".into()]
    } else if kind == MoveKind::Normal {
        vec!["Set the terrain of each hex entered (10.3) and the facing changes (4.3.2).".into()]
    } else {
        vec!["Set the terrain of each hex entered (10.3), how far each is from the nearest enemy unit (5.3.1), and whether the last is next to the map edge (5.3.3).".into()]
    };
    let movers_ref: Vec<&Picked> = movers.iter().collect();
    asks.extend(missing_values(data, "move", &movers_ref));
    let mixed = movers
        .iter()
        .any(|m| m.own.entry.unit_type != mover.own.entry.unit_type);
    if mixed {
        asks.push(format!(
            "The stack moves at the pace of its slowest units, {}: check that each of its units may enter every hex (10.3).",
            mover.unit.named()
        ));
    }
    let situation = MoveSituation {
        // The whole stack, counted for stacking (4.3.3), as its slowest entry.
        unit: UnitEntry {
            count: movers.iter().map(|m| m.unit.strength).sum(),
            ..stack(mover)
        },
        kind,
        disrupted: d_markers > 0,
        d_markers,
        routed,
        // The hex it leaves, for the tower it may stand in (10.3): its terrain as last given.
        start: mover.own.hex.as_ref().map(|h| StartHex {
            label: Some(h.trim().to_string()),
            terrain: ground.clone(),
        }),
        // A square moves 1 hex only, and stacks 4 (2.6.1).
        square: movers.iter().any(|m| m.own.square),
        fire_ship: false,
        charging: false,
        stacking_limit: state
            .sides
            .iter()
            .find(|s| s.name == mover.unit.side)
            .and_then(|s| s.stacking_limit),
        path,
        enemy_distance: None,
        nowhere_farther: false,
        end_facing_changes: 0,
    };
    Opening::new(&situation, targets, asks)
}
