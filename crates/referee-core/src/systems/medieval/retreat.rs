//! A combat's retreat read from its hexes as they stand: how far the side gets (5.4.5, 4.5.2),
//! the SPs a short retreat costs (5.4.6) and the friendly units its cavalry rides down on the
//! way (5.4.4, 5.8.7, 5.8.8, R-MED-28, R-MED-29).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::data::MedievalData;
use super::units::{resolve_hex, sp_of, terrain, MedUnit, Unit};
use crate::contract::Note;
use crate::error::RefereeError;
use crate::rule_system::resolve::is_default;

/// One hex of a side's retreat route, as it stands before the retreat (5.4).
#[derive(Clone, Debug, PartialEq, Default, Deserialize, Serialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "MedievalRetreatHex")]
pub struct RetreatHex {
    /// The hex's name; a ride-down there is an effect on this hex (default: "the defender's
    /// retreat hex 1" and so on).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub label: Option<String>,
    /// A key of the TERRAIN EFFECT chart (default: clear): fortifications hold 10 SPs, and
    /// infantry in fortifications or a village cannot be ridden down (4.5.1, 11.1.8, 5.8.8).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub terrain: Option<String>,
    /// Enemy units or an enemy ZoC: the retreat cannot enter it (5.4.5).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub enemy: bool,
    /// Terrain the retreating units cannot enter (5.4.5).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub impassable: bool,
    /// The side's own units standing there.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<Vec<MedUnit>>")]
    pub friendly: Vec<MedUnit>,
    /// Those units are in a special formation, e.g. a shiltron (5.8.8).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub special_formation: bool,
}

/// A retreat hex read against the ruleset.
#[derive(Clone, Debug)]
struct RouteHex {
    label: String,
    /// The umpire named the hex (a roster's hex, or a new one): a retreat ending there lands
    /// the units on it (R-MED-44).
    named: bool,
    enemy: bool,
    impassable: bool,
    /// SPs of friendly cavalry and of friendly non-cavalry there.
    cavalry_sp: u32,
    other_sp: u32,
    other_names: Vec<String>,
    /// The non-cavalry there cannot be ridden down (5.8.8).
    protected: bool,
    stacking_limit: u32,
    /// A fortified hex holds at most this many SPs of cavalry (11.1.9).
    cavalry_limit: Option<u32>,
}

/// Why a retreat stops before a hex.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stop {
    Enemy,
    Impassable,
    Stacking,
    /// A fortified hex would hold more cavalry than it may (11.1.9).
    FortifiedCavalry,
}

impl Stop {
    pub fn rule(self) -> &'static str {
        match self {
            Stop::Enemy | Stop::Impassable => "5.4.5",
            Stop::Stacking => "4.5.2",
            Stop::FortifiedCavalry => "11.1.9",
        }
    }
}

/// How one retreat goes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Walk {
    /// Hexes the side gets from the combat hex.
    pub reached: u32,
    /// Why it stopped short, if it did.
    pub stop: Option<Stop>,
    /// Indexes of the route hexes whose friendly non-cavalry the side's cavalry rides down.
    pub ridden: Vec<usize>,
}

/// Where a side's counters stand once its retreat is made (5.4.2, 5.4.6, R-MED-44).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Landing {
    /// On this hex of the route, the last one the retreat reaches.
    On(String),
    /// Where they fought: the retreat could not leave the combat hex, or the units do not
    /// retreat (10.3.3).
    Stays,
    /// Past the hexes the route names (or no route was picked): the roster cannot say where.
    Unnamed,
    /// The result's losses eliminate the side: nothing retreats.
    Gone,
    /// The side's stacks from several hexes would end together on this hex over its stacking
    /// limit (4.5.2, R-MED-47): the roster cannot say which goes where.
    Overfull(String),
}

/// A side's retreat: its route (if described), the umpire's own count (if given), and whether
/// its units may retreat at all.
#[derive(Clone, Debug, Default)]
pub struct Route {
    hexes: Vec<RouteHex>,
    described: bool,
    /// The umpire's count of hexes the side can retreat: it stands (5.4.6).
    umpire: Option<u32>,
    /// Ranged units fighting alone in combat formation do not retreat (10.3.3).
    held: bool,
    /// The side's SPs before the result's losses (stacking counts them, 10.1.1)…
    sp: u32,
    /// …and those of its largest hex: each hex retreats as its own stack.
    stack_sp: u32,
    /// It fights from several hexes: its stacks land together only where they all fit.
    several: bool,
    /// The side's SPs of cavalry: a fortified hex takes 2 at most (11.1.9).
    cavalry_sp: u32,
    /// Cavalry retreats with the side: it rides friendly non-cavalry down (5.4.4).
    cavalry: bool,
}

impl Route {
    /// Reads a side's route. `side` names it in labels and fields ("defender").
    pub fn new(
        data: &MedievalData,
        path: Option<&[RetreatHex]>,
        side: &str,
        units: &[Unit],
        stacks: &[u32],
        umpire: Option<u32>,
        held: bool,
    ) -> Result<Route, RefereeError> {
        let mut hexes = Vec::new();
        for (i, h) in path.unwrap_or_default().iter().enumerate() {
            let at = format!("{side}.retreat_hexes[{i}]");
            let ground = match &h.terrain {
                Some(key) => Some(terrain(data, key, &format!("{at}.terrain"))?),
                None => None,
            };
            let fortified = ground.is_some_and(|g| g.fortified);
            let friendly = if h.friendly.is_empty() {
                Vec::new()
            } else {
                resolve_hex(data, &h.friendly, &format!("{at}.friendly"), fortified)?
            };
            let sum = |cav: bool| sp_of(&friendly, |u| u.cavalry == cav);
            let protected_ground = h
                .terrain
                .as_ref()
                .is_some_and(|k| data.ride_down.protected_terrain.contains(k));
            hexes.push(RouteHex {
                label: h
                    .label
                    .clone()
                    .unwrap_or_else(|| format!("the {side}'s retreat hex {}", i + 1)),
                named: h.label.as_deref().is_some_and(|l| !l.trim().is_empty()),
                enemy: h.enemy,
                impassable: h.impassable,
                cavalry_sp: sum(true),
                other_sp: sum(false),
                other_names: friendly
                    .iter()
                    .filter(|u| !u.cavalry)
                    .map(|u| u.name.clone())
                    .collect(),
                protected: protected_ground || h.special_formation,
                stacking_limit: if fortified {
                    data.movement.fortified_stacking_sp
                } else {
                    data.movement.stacking_sp
                },
                cavalry_limit: fortified.then_some(data.movement.fortified_cavalry_sp),
            });
        }
        Ok(Route {
            hexes,
            described: path.is_some(),
            umpire,
            held,
            sp: sp_of(units, |_| true),
            cavalry_sp: sp_of(units, |u| u.cavalry),
            stack_sp: stacks.iter().copied().max().unwrap_or(0),
            several: stacks.iter().filter(|sp| **sp > 0).count() > 1,
            cavalry: units.iter().any(|u| u.cavalry),
        })
    }

    /// The route of one stack of a side fighting from several hexes: the result's losses are
    /// the side's, spread as its owner chooses, so the stack keeps at most what the side has
    /// left (R-MED-28, R-MED-50).
    pub fn within_side(mut self, side_sp: u32) -> Route {
        self.sp = side_sp;
        self
    }

    /// The retreat of `hexes` after the result took `loss` SPs (R-MED-28).
    pub fn walk(&self, hexes: u32, loss: u32) -> Walk {
        if self.held {
            return Walk {
                reached: 0,
                stop: None,
                ridden: Vec::new(),
            };
        }
        let left = self.sp.saturating_sub(loss);
        let sp = self.stack_sp.min(left);
        let mut walk = Walk {
            reached: hexes,
            stop: None,
            ridden: Vec::new(),
        };
        if self.sp > 0 && left == 0 {
            // The result's losses eliminate the side: nothing retreats.
            return walk;
        }
        for (i, h) in self.hexes.iter().enumerate().take(hexes as usize) {
            let stop = if h.enemy {
                Some(Stop::Enemy)
            } else if h.impassable {
                Some(Stop::Impassable)
            } else {
                // 5.4.4: cavalry entering the hex rides its friendly non-cavalry down, unless
                // 5.8.8 protects them (R-MED-29); what stays there counts for stacking.
                let rides = self.cavalry && h.other_sp > 0 && !h.protected;
                let staying = h.cavalry_sp + if rides { 0 } else { h.other_sp };
                // The stack's cavalry: all of it, or as much as the stack holds.
                let cavalry = self.cavalry_sp.min(sp);
                if staying + sp > h.stacking_limit {
                    Some(Stop::Stacking)
                } else if h
                    .cavalry_limit
                    .is_some_and(|cap| h.cavalry_sp + cavalry > cap)
                {
                    Some(Stop::FortifiedCavalry)
                } else {
                    if rides {
                        walk.ridden.push(i);
                    }
                    None
                }
            };
            if let Some(stop) = stop {
                walk.reached = i as u32;
                walk.stop = Some(stop);
                break;
            }
        }
        if let Some(p) = self.umpire {
            // The umpire's count stands; ride-downs only on the hexes it reaches.
            walk.reached = hexes.min(p);
            walk.stop = None;
            let reached = walk.reached as usize;
            walk.ridden.retain(|i| *i < reached);
        }
        walk
    }

    /// Where the side's counters end a retreat of `hexes` after the result took `loss` SPs: on
    /// the last hex it reaches along the route, when the umpire named that hex (R-MED-44).
    pub fn landing(&self, hexes: u32, loss: u32) -> Landing {
        if self.held || hexes == 0 {
            return Landing::Stays;
        }
        if self.sp > 0 && self.sp.saturating_sub(loss) == 0 {
            return Landing::Gone;
        }
        let walk = self.walk(hexes, loss);
        if walk.reached == 0 {
            return Landing::Stays;
        }
        let i = walk.reached as usize - 1;
        match self.hexes.get(i) {
            Some(h) if h.named && self.overfills(h, &walk, i, loss) => {
                Landing::Overfull(h.label.clone())
            }
            Some(h) if h.named => Landing::On(h.label.clone()),
            _ => Landing::Unnamed,
        }
    }

    /// 4.5.2, R-MED-47: the side's stacks from several hexes, with the SPs the result leaves
    /// them, would hold more than the hex takes with the friends staying there.
    fn overfills(&self, h: &RouteHex, walk: &Walk, i: usize, loss: u32) -> bool {
        let staying = h.cavalry_sp
            + if walk.ridden.contains(&i) {
                0
            } else {
                h.other_sp
            };
        self.several && staying + self.sp.saturating_sub(loss) > h.stacking_limit
    }

    /// The SPs of friends staying on the route's last hex reached when the side's retreat ends
    /// there (those its cavalry rides down gone), and the hex's stacking limit (4.5.2).
    fn room(&self, walk: &Walk) -> Option<(u32, u32)> {
        let i = (walk.reached as usize).checked_sub(1)?;
        let h = self.hexes.get(i)?;
        let staying = h.cavalry_sp
            + if walk.ridden.contains(&i) {
                0
            } else {
                h.other_sp
            };
        Some((staying, h.stacking_limit))
    }

    /// The SPs of the one stack this route carries (R-MED-50).
    fn stack_sp(&self) -> u32 {
        self.stack_sp
    }

    /// The stacking limit of a route hex, by its label.
    pub fn stacking_limit(&self, label: &str) -> Option<u32> {
        self.hexes
            .iter()
            .find(|h| h.label == label)
            .map(|h| h.stacking_limit)
    }

    /// Where a leader stacked with the side stops when he lives (8.2.6, 8.2.7, R-MED-44): where
    /// his units' retreat stops; with them all lost, where it would have stopped.
    pub fn leader_landing(&self, hexes: u32, loss: u32) -> Landing {
        match self.landing(hexes, loss) {
            Landing::Gone => self.landing(hexes, 0),
            other => other,
        }
    }

    /// The umpire gave the side's route (perhaps empty).
    pub fn described(&self) -> bool {
        self.described
    }

    /// The label of a route hex, for its ride-down effect.
    pub fn label(&self, i: usize) -> &str {
        &self.hexes[i].label
    }

    /// What the route's hexes do to the side's retreat, in words (notes of the resolution).
    pub fn notes(&self, side: &str) -> Vec<Note> {
        let mut out = Vec::new();
        if let Some(p) = self.umpire {
            out.push(Note::new(
                if self.described {
                    format!("The umpire's count stands: the {side} can retreat {p} hex(es); the retreat hexes described are read only for the units ridden down on the way.")
                } else {
                    format!("The umpire's count stands: the {side} can retreat {p} hex(es).")
                },
                "5.4.5, 5.4.6",
                None,
            ));
        }
        if self.held {
            return out;
        }
        for h in &self.hexes {
            let text = if h.enemy {
                format!(
                    "The {side}'s retreat cannot enter {}: enemy units or their ZoC.",
                    h.label
                )
            } else if h.impassable {
                format!(
                    "The {side}'s retreat cannot enter {}: its terrain is closed to the retreating units.",
                    h.label
                )
            } else if h.other_sp > 0 && self.cavalry && h.protected {
                format!(
                    "The {side}'s cavalry cannot ride down the {} in {} (fortifications, buildings or a special formation); they count for stacking.",
                    h.other_names.join(", "),
                    h.label
                )
            } else if h.other_sp > 0 && self.cavalry {
                format!(
                    "The {side}'s cavalry retreating into {} rides down the friendly {} there: eliminated, without MORALE change.",
                    h.label,
                    h.other_names.join(", ")
                )
            } else if h.cavalry_sp + h.other_sp > 0 {
                format!(
                    "{} holds {} of the {side}'s units: the retreat passes it only if the stack stays within {} SPs.",
                    capitalised(&h.label),
                    crate::error::counted(i64::from(h.cavalry_sp + h.other_sp), "SP", "SPs"),
                    h.stacking_limit
                )
            } else {
                continue;
            };
            let (rule, ruling) = if h.enemy || h.impassable {
                ("5.4.5, 5.4.6", None)
            } else if h.other_sp > 0 && self.cavalry && h.protected {
                ("5.8.8, 4.5.2", Some("R-MED-29"))
            } else if h.other_sp > 0 && self.cavalry {
                ("5.4.4, 5.8.4, 5.8.7", Some("R-MED-28"))
            } else {
                ("4.5.2, 5.4.6", Some("R-MED-28"))
            };
            out.push(Note::new(text, rule, ruling));
        }
        out
    }
}

/// A side's retreat: by the one route picked for the side (one hex; or several hexes with no
/// route of their own, R-MED-47), or by each fighting hex's own route, its units a stack of
/// their own landing on its last hex (5.4, 4.5.2, R-MED-50).
#[derive(Clone, Debug)]
pub enum Retreat {
    One(Route),
    /// Each fighting hex by the target its units are (its label) and its route.
    ByHex(Vec<(String, Route)>),
}

impl Default for Retreat {
    fn default() -> Retreat {
        Retreat::One(Route::default())
    }
}

/// What a short retreat costs one stack: the side's (`None`) or a fighting hex's units by its
/// label, the SPs, and why its retreat stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blocked {
    pub stack: Option<String>,
    pub sp: u32,
    pub stop: Option<Stop>,
}

/// Where one stack of a side lands: on the side as a whole (`None`), or the units of a fighting
/// hex by its label.
pub type StackLanding = (Option<String>, Landing);

impl Retreat {
    fn routes(&self) -> Vec<&Route> {
        match self {
            Retreat::One(r) => vec![r],
            Retreat::ByHex(hexes) => hexes.iter().map(|(_, r)| r).collect(),
        }
    }

    /// The SPs a retreat of `hexes` costs by the hexes it is short, `per_hex` a hex (5.4.6):
    /// the side's, or each fighting hex's stack its own, never more than the stack has
    /// (R-MED-50); with the rules that stop each.
    pub fn blocked(&self, hexes: u32, loss: u32, per_hex: u32) -> Vec<Blocked> {
        let stack = |stack: Option<&String>, route: &Route, cap: Option<u32>| {
            let walk = route.walk(hexes, loss);
            let short = hexes.saturating_sub(walk.reached) * per_hex;
            let sp = cap.map_or(short, |cap| short.min(cap));
            (sp > 0).then(|| Blocked {
                stack: stack.cloned(),
                sp,
                stop: walk.stop,
            })
        };
        match self {
            Retreat::One(r) => stack(None, r, None).into_iter().collect(),
            Retreat::ByHex(by_hex) => by_hex
                .iter()
                .filter_map(|(hex, r)| stack(Some(hex), r, Some(r.stack_sp())))
                .collect(),
        }
    }

    /// The SPs all of the side's blocked hexes cost (5.4.6).
    pub fn blocked_sp(&self, hexes: u32, loss: u32, per_hex: u32) -> u32 {
        self.blocked(hexes, loss, per_hex)
            .iter()
            .map(|b| b.sp)
            .sum()
    }

    /// The route hexes whose friendly non-cavalry the side's cavalry rides down, each once.
    pub fn ridden(&self, hexes: u32, loss: u32) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for route in self.routes() {
            for i in route.walk(hexes, loss).ridden {
                let label = route.label(i).to_string();
                if !out.contains(&label) {
                    out.push(label);
                }
            }
        }
        out
    }

    /// Where each stack lands after a retreat of `hexes` that took `loss` SPs. Stacks of
    /// several hexes ending on one hex land there only if they fit together, with the SPs the
    /// side has left and the friends staying there (4.5.2, R-MED-50).
    pub fn landings(&self, hexes: u32, loss: u32) -> Vec<StackLanding> {
        let by_hex = match self {
            Retreat::One(r) => return vec![(None, r.landing(hexes, loss))],
            Retreat::ByHex(by_hex) => by_hex,
        };
        let mut out: Vec<StackLanding> = by_hex
            .iter()
            .map(|(hex, r)| (Some(hex.clone()), r.landing(hexes, loss)))
            .collect();
        let side_left = by_hex.first().map_or(0, |(_, r)| r.sp.saturating_sub(loss));
        let ends: Vec<Option<String>> = out
            .iter()
            .map(|(_, l)| match l {
                Landing::On(hex) => Some(hex.clone()),
                _ => None,
            })
            .collect();
        for (i, end) in ends.iter().enumerate() {
            let Some(hex) = end else { continue };
            let together: Vec<usize> = (0..ends.len())
                .filter(|j| ends[*j].as_ref() == Some(hex))
                .collect();
            if together.len() < 2 {
                continue;
            }
            let sp: u32 = together.iter().map(|j| by_hex[*j].1.stack_sp()).sum();
            let route = &by_hex[i].1;
            let fits = route
                .room(&route.walk(hexes, loss))
                .is_none_or(|(staying, limit)| staying + sp.min(side_left) <= limit);
            if !fits {
                out[i].1 = Landing::Overfull(hex.clone());
            }
        }
        out
    }

    /// Where the leader stacked on the side's hex `hex` (or with the whole side) stops when he
    /// lives (8.2.6, 8.2.7): where his units' retreat stops; with them all lost, where it would
    /// have stopped (R-MED-44, R-MED-50).
    pub fn leader_landing(&self, hex: Option<usize>, hexes: u32, loss: u32) -> Landing {
        match (self, hex) {
            (Retreat::One(r), _) => r.leader_landing(hexes, loss),
            (Retreat::ByHex(_), Some(h)) => {
                let of = |loss| {
                    self.landings(hexes, loss)
                        .into_iter()
                        .nth(h)
                        .map_or(Landing::Unnamed, |(_, l)| l)
                };
                match of(loss) {
                    Landing::Gone => of(0),
                    other => other,
                }
            }
            (Retreat::ByHex(_), None) => Landing::Unnamed,
        }
    }

    /// The umpire gave a route (perhaps empty) for the side or one of its hexes.
    pub fn described(&self) -> bool {
        self.routes().iter().any(|r| r.described())
    }

    /// The stacking limit of a route hex, by its label.
    pub fn stacking_limit(&self, label: &str) -> Option<u32> {
        self.routes().iter().find_map(|r| r.stacking_limit(label))
    }

    /// What the routes' hexes do to the side's retreat, in words, each said once.
    pub fn notes(&self, side: &str) -> Vec<Note> {
        let mut out: Vec<Note> = Vec::new();
        for note in self.routes().iter().flat_map(|r| r.notes(side)) {
            if !out.contains(&note) {
                out.push(note);
            }
        }
        out
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::medieval::Medieval;
    use crate::systems::test_support::load;
    use serde_json::json;

    /// A 2-SP light cavalry stack.
    fn light_cavalry(data: &MedievalData) -> Vec<Unit> {
        resolve_hex(
            data,
            &[serde_json::from_value(json!({ "type": "light_cavalry", "sp": 2 })).unwrap()],
            "units",
            false,
        )
        .unwrap()
    }

    /// A 2-SP light cavalry stack's route, read from these hexes.
    fn route(hexes: Option<serde_json::Value>, umpire: Option<u32>) -> Route {
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let units = light_cavalry(data);
        let path: Option<Vec<RetreatHex>> = hexes.map(|h| serde_json::from_value(h).unwrap());
        Route::new(
            data,
            path.as_deref(),
            "defender",
            &units,
            &[2],
            umpire,
            false,
        )
        .unwrap()
    }

    #[test]
    fn stacks_from_several_hexes_land_together_only_where_they_all_fit() {
        // 4.5.2, R-MED-47: two 2-SP stacks retreating D1 onto 15.05 would hold 4 SPs there, over
        // its 2: nothing lands; once the result's 2 SPs of losses leave 2, they fit.
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let stack = || light_cavalry(data);
        let units = [stack(), stack()].concat();
        let path: Vec<RetreatHex> = serde_json::from_value(json!([{ "label": "15.05" }])).unwrap();
        let two = Route::new(data, Some(&path), "defender", &units, &[2, 2], None, false).unwrap();
        assert_eq!(two.landing(1, 0), Landing::Overfull("15.05".into()));
        assert_eq!(two.stacking_limit("15.05"), Some(2));
        assert_eq!(two.landing(1, 2), Landing::On("15.05".into()));
        // One stack lands as it always did.
        let one = Route::new(data, Some(&path), "defender", &stack(), &[2], None, false).unwrap();
        assert_eq!(one.landing(1, 0), Landing::On("15.05".into()));
    }

    #[test]
    fn each_hex_lands_on_its_own_route_and_stacks_meeting_there_must_fit() {
        // R-MED-50, 4.5.2: 2-SP stacks from two hexes, D1 along their own routes: on 15.05 and
        // 15.06 both land; both routed onto 15.05 they would hold 4 SPs there, over its 2, and
        // neither lands. A route blocked at its first hex costs its stack 1 SP a hex (5.4.6).
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let stack = || light_cavalry(data);
        let route = |hexes: serde_json::Value| {
            let path: Vec<RetreatHex> = serde_json::from_value(hexes).unwrap();
            Route::new(data, Some(&path), "defender", &stack(), &[2], None, false)
                .unwrap()
                .within_side(4)
        };
        let by_hex = |a: serde_json::Value, b: serde_json::Value| {
            Retreat::ByHex(vec![
                ("Boyars".into(), route(a)),
                ("Horsemen".into(), route(b)),
            ])
        };
        let apart = by_hex(json!([{ "label": "15.05" }]), json!([{ "label": "15.06" }]));
        assert_eq!(
            apart.landings(1, 0),
            [
                (Some("Boyars".into()), Landing::On("15.05".into())),
                (Some("Horsemen".into()), Landing::On("15.06".into()))
            ]
        );
        let together = by_hex(json!([{ "label": "15.05" }]), json!([{ "label": "15.05" }]));
        assert_eq!(
            together.landings(1, 0),
            [
                (Some("Boyars".into()), Landing::Overfull("15.05".into())),
                (Some("Horsemen".into()), Landing::Overfull("15.05".into()))
            ]
        );
        let blocked = by_hex(
            json!([{ "label": "15.05" }, { "label": "16.05" }]),
            json!([{ "label": "15.06", "enemy": true }]),
        );
        assert_eq!(
            blocked.blocked(2, 0, 1),
            [Blocked {
                stack: Some("Horsemen".into()),
                sp: 2,
                stop: Some(Stop::Enemy)
            }]
        );
        // Never more than the stack has: a D3 short by 3 costs the 2-SP stack 2; the other's
        // route is open past its hexes named.
        assert_eq!(blocked.blocked_sp(3, 0, 1), 2);
        assert_eq!(blocked.landings(2, 0)[0].1, Landing::On("16.05".into()));
        assert_eq!(blocked.landings(2, 0)[1].1, Landing::Stays);
    }

    #[test]
    fn a_retreat_lands_on_the_last_named_hex_it_reaches() {
        // 5.4.2, R-MED-44: D2 along 14.05 (friendly infantry, ridden down) and 15.05 ends on
        // 15.05; D1 on 14.05.
        let r = route(
            Some(json!([
                { "label": "14.05", "friendly": [{ "type": "light_infantry", "sp": 1 }] },
                { "label": "15.05" }
            ])),
            None,
        );
        assert_eq!(r.landing(2, 0), Landing::On("15.05".into()));
        assert_eq!(r.landing(1, 0), Landing::On("14.05".into()));
        assert_eq!(r.landing(0, 0), Landing::Stays);
        // Past the hexes named: the roster cannot say where.
        assert_eq!(r.landing(3, 0), Landing::Unnamed);
        // The losses eliminate the side: nothing retreats; a stacked leader stops where the
        // stack would have (8.2.7).
        assert_eq!(r.landing(2, 2), Landing::Gone);
        assert_eq!(r.leader_landing(2, 2), Landing::On("15.05".into()));
    }

    #[test]
    fn a_stopped_retreat_lands_on_the_last_hex_before_the_stop() {
        // 5.4.5, 5.4.6, R-MED-44: an enemy on the second hex stops a D3 on the first; an
        // enemy on the first keeps the side where it fought.
        let r = route(
            Some(json!([{ "label": "14.05" }, { "label": "15.05", "enemy": true }])),
            None,
        );
        assert_eq!(r.landing(3, 0), Landing::On("14.05".into()));
        let first = route(Some(json!([{ "label": "14.05", "enemy": true }])), None);
        assert_eq!(first.landing(2, 0), Landing::Stays);
        // 4.5.2: a friendly 1 SP there stops a 2-SP stack, not one left with 1 SP.
        let full = route(
            Some(json!([{ "label": "14.05", "friendly": [{ "type": "light_cavalry", "sp": 1 }] }])),
            None,
        );
        assert_eq!(full.landing(1, 0), Landing::Stays);
        assert_eq!(full.landing(1, 1), Landing::On("14.05".into()));
    }

    #[test]
    fn without_a_named_route_nothing_lands() {
        // No route, a route of unnamed hexes, or the umpire's count past the hexes named.
        assert_eq!(route(None, None).landing(2, 0), Landing::Unnamed);
        assert_eq!(
            route(Some(json!([{}, {}])), None).landing(2, 0),
            Landing::Unnamed
        );
        let counted = route(Some(json!([{ "label": "14.05" }])), Some(1));
        assert_eq!(counted.landing(2, 0), Landing::On("14.05".into()));
        assert_eq!(
            route(Some(json!([{ "label": "14.05" }])), Some(2)).landing(2, 0),
            Landing::Unnamed
        );
    }
}
