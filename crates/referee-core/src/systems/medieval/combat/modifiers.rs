//! The modifiers step (1.5, 1.7, 5.2, 5.3, 5.6, 6.1, 7.1.7, 8.2): each side's combat modifiers,
//! attacker's and defender's apart (R-MED-2), or the count the umpire entered.

use super::strength::Fighters;
use super::{CombatSituation, LeaderPresence, SideSupport};
use crate::contract::{Modifier, Note};
use crate::error::RefereeError;
use crate::systems::medieval::data::{CombatRules, MedievalData, Terrain};
use crate::systems::medieval::morale::Player;
use crate::systems::medieval::units::{group_mean, Unit};

/// Each side's combat modifiers and its leader's part.
pub(super) struct Cms {
    pub attacker: Vec<Modifier>,
    pub defender: Vec<Modifier>,
    pub attacker_leader: LeaderPresence,
    pub defender_leader: LeaderPresence,
}

impl Cms {
    pub fn attacker_sum(&self) -> i64 {
        self.attacker.iter().map(|m| m.value).sum()
    }

    pub fn defender_sum(&self) -> i64 {
        self.defender.iter().map(|m| m.value).sum()
    }

    /// One list: the attacker's shifts right, the defender's left, so negative (R-MED-2).
    pub fn signed(self) -> Vec<Modifier> {
        let mut modifiers = self.attacker;
        modifiers.extend(self.defender.into_iter().map(|mut m| {
            m.value = -m.value;
            m
        }));
        modifiers
    }

    pub fn a_leader_stacked(&self) -> bool {
        self.attacker_leader == LeaderPresence::Stacked
            || self.defender_leader == LeaderPresence::Stacked
    }
}

/// Both sides' CMs in the order the rules list them: armour and charge, leader, banner, MORALE,
/// terrain, rear, opposing directions, ranged targets; then the umpire's own counts (1.5).
pub(super) fn combat_modifiers(
    data: &MedievalData,
    s: &CombatSituation,
    [attackers, defenders]: [&Fighters; 2],
    ground: &Terrain,
    rear_hexes: i64,
    notes: &mut Vec<Note>,
) -> Result<Cms, RefereeError> {
    let c = &data.combat;
    let mut attacker = armour_and_charge(c, &attackers.units, "Attacker", s.countercharge);
    // 5.7.9 speaks of the countercharge fight: the unarmoured unit countercharged gets no CM
    // from its CF either (R-MED-38).
    let mut defender = armour_and_charge(c, &defenders.units, "Defender", s.countercharge);
    let attacker_leader = leader_presence(attackers, &s.attacker, "attacker")?;
    let defender_leader = leader_presence(defenders, &s.defender, "defender")?;
    attacker.extend(leader_and_banner(
        c,
        attacker_leader,
        &s.attacker,
        "Attacker",
    ));
    defender.extend(leader_and_banner(
        c,
        defender_leader,
        &s.defender,
        "Defender",
    ));
    match morale_modifier(c, s.morale, s.attacker_player) {
        Some((true, m)) => attacker.push(m),
        Some((false, m)) => defender.push(m),
        None => {}
    }
    defender.extend(terrain_modifier(ground, s.defenders.len() > 1));
    attacker.extend(attack_situation(c, s, rear_hexes, defenders));
    umpire_count(&s.attacker, &mut attacker, "Attacker", notes);
    umpire_count(&s.defender, &mut defender, "Defender", notes);
    Ok(Cms {
        attacker,
        defender,
        attacker_leader,
        defender_leader,
    })
}

/// The side's combat modifiers from armour and charge (5.2.7, 5.6.4–5.6.6, 1.7, R-MED-9).
fn armour_and_charge(
    c: &CombatRules,
    units: &[(Unit, u32)],
    side: &str,
    countercharge: bool,
) -> Vec<Modifier> {
    let mut modifiers = Vec::new();
    let armour = group_mean(units.iter().map(|(u, _)| (u.armour, u.count)));
    if armour > 0 {
        modifiers.push(Modifier::new(
            format!("{side}: armour (group {armour})"),
            armour as i64,
            &c.armour.rule,
            Some("R-MED-9"),
        ));
    }
    // Per unit (R-MED-14): the CF it brings after crossings; horse archers and (in a countercharge)
    // unarmoured units bring none.
    let cf = group_mean(units.iter().map(|(u, cf)| {
        let counts = !(u.no_charge_modifier || (countercharge && u.armour == 0));
        (if counts { *cf } else { 0 }, u.count)
    }));
    let cap = armour + c.charge_cap_over_armour;
    let value = cf.min(cap);
    if value > 0 {
        let capped = if cf > cap {
            format!(", capped at armour + {}", c.charge_cap_over_armour)
        } else {
            String::new()
        };
        modifiers.push(Modifier::new(
            format!("{side}: charge factor (group {cf}{capped})"),
            value as i64,
            &c.charge.rule,
            Some("R-MED-14"),
        ));
    }
    modifiers
}

/// A leader on one of the side's hexes is stacked with that hex's units (8.2.1); else the side's
/// own word, or his distance and range (8.2.2).
fn leader_presence(
    side: &Fighters,
    support: &SideSupport,
    field: &str,
) -> Result<LeaderPresence, RefereeError> {
    if side.leader_on_a_hex() {
        Ok(LeaderPresence::Stacked)
    } else {
        support.presence(field)
    }
}

/// The leader's CMs (8.2.1, 8.2.2) and the banner's (7.1.7).
fn leader_and_banner(
    c: &CombatRules,
    presence: LeaderPresence,
    support: &SideSupport,
    side: &str,
) -> Vec<Modifier> {
    let mut list = Vec::new();
    match presence {
        LeaderPresence::None => {}
        LeaderPresence::InRange => list.push(
            c.leader_in_range
                .line(&format!("{side}: within a leader's range")),
        ),
        LeaderPresence::Stacked => list.push(
            c.leader_stacked
                .line(&format!("{side}: stacked with a leader")),
        ),
    }
    if support.banner {
        list.push(c.banner.line(&format!("{side}: on or beside a banner")));
    }
    list
}

/// The MORALE value as a CM of the side it favours (6.1.2), and whether that is the attacker.
fn morale_modifier(c: &CombatRules, track: i64, attacker: Player) -> Option<(bool, Modifier)> {
    // The track is in player A's favour; the attacker's favour when he is player B is its
    // opposite.
    let morale = match attacker {
        Player::A => track,
        Player::B => -track,
    };
    if morale == 0 {
        return None;
    }
    let side = if morale > 0 { "Attacker" } else { "Defender" };
    Some((
        morale > 0,
        Modifier::new(
            format!("{side}: MORALE {:+}", morale.abs()),
            morale.abs(),
            &c.morale.rule,
            c.morale.ruling.as_deref(),
        ),
    ))
}

/// The defender's terrain CM, from the hex that counts (5.3, 5.3.2).
fn terrain_modifier(ground: &Terrain, several: bool) -> Option<Modifier> {
    if ground.combat == 0 {
        return None;
    }
    let several = if several {
        " (the hex with most SPs, 5.3.2)"
    } else {
        ""
    };
    Some(Modifier::new(
        format!("Defender: terrain, {}{several}", ground.name),
        i64::from(ground.combat),
        &ground.rule,
        ground.ruling.as_deref(),
    ))
}

/// The attacker's CMs from how the attack is made: the rear area (3.1.2), opposing directions
/// (5.2.6), ranged targets (10.3.1).
fn attack_situation(
    c: &CombatRules,
    s: &CombatSituation,
    rear_hexes: i64,
    defenders: &Fighters,
) -> Vec<Modifier> {
    let mut list = Vec::new();
    if rear_hexes > 0 {
        list.push(Modifier::new(
            format!("Attacker: {rear_hexes} hex(es) in the defender's rear area"),
            c.rear_per_hex.modifier * rear_hexes,
            &c.rear_per_hex.rule,
            c.rear_per_hex.ruling.as_deref(),
        ));
    }
    if s.opposing_directions {
        list.push(
            c.opposing_directions
                .line("Attacker: from opposing directions"),
        );
    }
    if defenders.units.iter().any(|(u, _)| u.fights_as_ranged()) {
        list.push(
            c.ranged_target
                .line("Attacker: the targets include ranged units"),
        );
    }
    list
}

/// The umpire who has already counted a side's CMs enters the count: it stands for the
/// referee's lines, which a note still gives for comparison (1.5).
fn umpire_count(
    support: &SideSupport,
    list: &mut Vec<Modifier>,
    side: &str,
    notes: &mut Vec<Note>,
) {
    if let Some(counted) = support.cms {
        let own: i64 = list.iter().map(|m| m.value).sum();
        notes.push(Note::new(
            format!("{side}: {counted} CMs as the umpire counted them; the referee counts {own}."),
            "1.5",
            None,
        ));
        *list = vec![Modifier::new(
            format!("{side}: combat modifiers as counted"),
            i64::from(counted),
            "1.5",
            None,
        )];
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{counted, example_5_1_1, situation};
    use super::*;
    use crate::systems::{medieval::Medieval, test_support::load};

    fn cms_of(data: &MedievalData, s: &CombatSituation) -> (Cms, Vec<Note>) {
        let fight = counted(data, s);
        (fight.cms, fight.notes)
    }

    #[test]
    fn the_5_1_1_example_gives_the_attacker_4_cms_and_the_defender_2() {
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let (cms, _) = cms_of(data, &example_5_1_1());
        // Armour (2 + 1) / 2 → 2 and charge (1 + 2) / 2 → 2; charge 1 and the stream's 1.
        let values = |m: &[Modifier]| {
            m.iter()
                .map(|m| (m.rule.clone(), m.value))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            values(&cms.attacker),
            [("5.2.7".to_string(), 2), ("5.6.4, 5.6.5".to_string(), 2)]
        );
        assert_eq!(cms.attacker_sum(), 4);
        assert_eq!(cms.defender_sum(), 2);
        assert_eq!(
            values(&cms.signed())[2..],
            [
                ("5.6.4, 5.6.5".to_string(), -1),
                ("TERRAIN EFFECT".to_string(), -1)
            ]
        );
    }

    #[test]
    fn the_morale_counts_for_the_side_it_favours() {
        let ruleset = load("medieval");
        let c = &ruleset.data::<Medieval>().unwrap().combat;
        let (attacker, m) = morale_modifier(c, 2, Player::A).unwrap();
        assert!(attacker);
        assert_eq!(m.value, 2);
        // +2 in player A's favour is −2 for an attacker who is player B: the defender's +2.
        let (attacker, m) = morale_modifier(c, 2, Player::B).unwrap();
        assert!(!attacker);
        assert_eq!((m.label.as_str(), m.value), ("Defender: MORALE +2", 2));
        assert!(morale_modifier(c, 0, Player::A).is_none());
    }

    #[test]
    fn the_umpires_count_stands_for_the_referees_lines() {
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let mut s = example_5_1_1();
        s.attacker.cms = Some(3);
        let (cms, notes) = cms_of(data, &s);
        assert_eq!(cms.attacker.len(), 1);
        assert_eq!(
            (cms.attacker[0].value, cms.attacker[0].rule.as_str()),
            (3, "1.5")
        );
        assert!(notes
            .iter()
            .any(|n| n.message
                == "Attacker: 3 CMs as the umpire counted them; the referee counts 4."));
    }

    #[test]
    fn a_leader_on_a_hex_is_stacked_with_its_side() {
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let s = situation(serde_json::json!({
            "attackers": [{ "leader": true, "units": [{ "type": "heavy_infantry", "sp": 2 }] }],
            "defenders": [{ "terrain": "clear", "units": [{ "type": "heavy_infantry", "sp": 2 }] }],
            "defender": { "leader_distance": 2, "leader_range": 3 }
        }));
        let (cms, _) = cms_of(data, &s);
        assert_eq!(cms.attacker_leader, LeaderPresence::Stacked);
        assert_eq!(cms.defender_leader, LeaderPresence::InRange);
        assert!(cms.a_leader_stacked());
        // 8.2.1: 2 CMs stacked, 1 within range.
        assert_eq!(cms.attacker.last().unwrap().value, 2);
        assert_eq!(cms.defender.last().unwrap().value, 1);
    }
}
