//! The strengths step (1.4, 5.3.2, 5.6.6–5.6.9, 10.3.2, 11.1): each side's SPs hex by hex, the
//! CF each attacking unit brings after its crossings, and the defending terrain that counts.

use super::CombatSituation;
use crate::contract::Note;
use crate::error::RefereeError;
use crate::systems::medieval::data::{MedievalData, Terrain};
use crate::systems::medieval::units::{resolve_hex, terrain, Unit};

/// One side's units as they fight, hex by hex.
pub(super) struct Fighters<'s> {
    /// Each unit with the CF it brings (the attackers' after their crossings).
    pub units: Vec<(Unit, u32)>,
    /// The hex each unit stands on, by its index among the side's hexes.
    pub hex_of: Vec<usize>,
    /// A leader stacked on each hex (8.2.1).
    pub leaders: Vec<bool>,
    /// Each hex's label as entered.
    pub labels: Vec<Option<&'s str>>,
    /// The side's SPs as they count (1.4).
    pub sp: u32,
}

impl Fighters<'_> {
    /// Horse archers are cavalry here (10.5.1): only foot ranged units count.
    pub fn all_ranged(&self) -> bool {
        all_ranged(&self.units)
    }

    /// The side's SPs on its counters, before any halving or cap.
    pub fn counter_sp(&self) -> u32 {
        self.units.iter().map(|(u, _)| u.sp * u.count).sum()
    }

    pub fn has_cavalry(&self) -> bool {
        self.units.iter().any(|(u, _)| u.cavalry)
    }

    /// A leader stands on one of the side's hexes.
    pub fn leader_on_a_hex(&self) -> bool {
        self.leaders.iter().any(|f| *f)
    }
}

fn all_ranged(units: &[(Unit, u32)]) -> bool {
    !units.is_empty() && units.iter().all(|(u, _)| u.fights_as_ranged())
}

/// A fortified hex fights with at most so many SPs, attacking as defending (11.1.8).
fn fortified_cap(sp: u32, max: u32, attacking: bool, notes: &mut Vec<Note>) -> u32 {
    if sp <= max {
        return sp;
    }
    let how = if attacking {
        ", attacking as defending"
    } else {
        ""
    };
    notes.push(Note::new(
        format!("A fortified hex fights with at most {max} SPs{how}."),
        "11.1.8",
        None,
    ));
    max
}

fn ranged_alone(notes: &mut Vec<Note>) -> u32 {
    notes.push(Note::new(
        "Ranged units fighting alone count 1 SP.",
        "10.3.2",
        None,
    ));
    1
}

/// Each defending hex's SPs as they count and its terrain (5.3.2).
pub(super) type HexGrounds<'d> = Vec<(u32, &'d Terrain)>;

/// The defenders' SPs hex by hex (5.3.2, 11.1.8, 10.3.2), and each hex's SPs and terrain.
pub(super) fn defenders<'s, 'd>(
    data: &'d MedievalData,
    s: &'s CombatSituation,
    notes: &mut Vec<Note>,
) -> Result<(Fighters<'s>, HexGrounds<'d>), RefereeError> {
    let mut side = Fighters {
        units: Vec::new(),
        hex_of: Vec::new(),
        leaders: s.defenders.iter().map(|h| h.leader).collect(),
        labels: s.defenders.iter().map(|h| h.label.as_deref()).collect(),
        sp: 0,
    };
    let mut hexes = Vec::new();
    for (i, hex) in s.defenders.iter().enumerate() {
        let field = format!("defenders[{i}]");
        let ground = terrain(data, &hex.terrain, &format!("{field}.terrain"))?;
        if s.leader_alone {
            hexes.push((0, ground));
            continue;
        }
        let units = resolve_hex(
            data,
            &hex.units,
            &format!("{field}.units"),
            ground.fortified,
        )?;
        // A ranged unit on its movement side fights with no SPs (10.1.1).
        let mut sp: u32 = units.iter().map(Unit::combat_sp).sum();
        if ground.fortified {
            sp = fortified_cap(sp, data.combat.fortified_defence_max, false, notes);
        }
        hexes.push((sp, ground));
        side.sp += sp;
        side.hex_of.extend(std::iter::repeat_n(i, units.len()));
        side.units.extend(units.into_iter().map(|u| {
            let cf = u.cf;
            (u, cf)
        }));
    }
    if side.all_ranged() && !s.leader_alone {
        side.sp = ranged_alone(notes);
    }
    Ok((side, hexes))
}

/// The defending terrain as it bears on the fight.
pub(super) struct Ground<'d> {
    /// The terrain that counts (5.3.2).
    pub counted: &'d Terrain,
    /// A defending hex where charge factors count nothing (5.6.6, R-MED-18).
    pub no_charge: Option<&'d Terrain>,
    /// One of the defending hexes is fortified (11.1.1).
    pub fortified: bool,
}

impl<'d> Ground<'d> {
    /// The counted terrain from the defending hexes, with the notes it calls for.
    pub fn of(hexes: &[(u32, &'d Terrain)], notes: &mut Vec<Note>) -> Ground<'d> {
        let (counted, tie) = counted_hex(hexes);
        if tie {
            notes.push(Note::new(
                format!(
                    "Defending hexes of equal SPs in different terrain: {} counts, the one that gives the defender most (5.3.2).",
                    counted.name
                ),
                "5.3.2",
                Some("R-MED-17"),
            ));
        }
        // 5.6.6: charging units in forest, swamp or fortifications counts nothing, whichever of
        // the defending hexes they stand in (R-MED-18).
        let no_charge = hexes.iter().find(|(_, g)| g.no_charge).map(|(_, g)| *g);
        if let (Some(g), false) = (no_charge, counted.no_charge) {
            notes.push(Note::new(
                format!(
                    "One of the defending hexes is in {}: charge factors count 0 against the whole defence.",
                    g.name
                ),
                "5.6.6",
                Some("R-MED-18"),
            ));
        }
        if counted.fortified {
            notes.push(Note::new(
                "Fortifications give the defender no combat modifier of their own: attackers through them fight with half their SPs and no charge factor.",
                "11.1.1, 11.1.2",
                Some("R-MED-24"),
            ));
        }
        Ground {
            counted,
            no_charge,
            fortified: hexes.iter().any(|(_, g)| g.fortified),
        }
    }
}

/// The defending hex whose terrain counts (5.3.2): the one with most SPs; among equals, the
/// terrain that gives the defender most, never the order they were entered in (R-MED-17).
/// Also says whether equal hexes in different terrain had to be told apart.
fn counted_hex<'d>(hexes: &[(u32, &'d Terrain)]) -> (&'d Terrain, bool) {
    let most = hexes.iter().map(|(sp, _)| *sp).max().unwrap_or(0);
    let strongest: Vec<&Terrain> = hexes
        .iter()
        .filter(|(sp, _)| *sp == most)
        .map(|(_, g)| *g)
        .collect();
    let best = strongest
        .iter()
        .copied()
        .max_by(|a, b| {
            (a.combat, a.no_charge, a.uphill, &b.name).cmp(&(
                b.combat,
                b.no_charge,
                b.uphill,
                &a.name,
            ))
        })
        .expect("at least one defending hex");
    let tie = strongest.iter().any(|g| g.name != best.name);
    (best, tie)
}

/// Hexes climbed to attack into `ground`: as entered, and at least one into a slope (5.6.9,
/// R-MED-16).
pub fn uphill_hexes(entered: u32, ground: &Terrain) -> u32 {
    entered.max(u32::from(ground.uphill))
}

/// The attackers' SPs hex by hex, halved through fortifications (11.1.1, 11.1.2), each unit's CF
/// after its crossings (5.6.6–5.6.9), and the hexes in the defender's rear area (3.1.2).
pub(super) fn attackers<'s>(
    data: &MedievalData,
    s: &'s CombatSituation,
    ground: &Ground,
    notes: &mut Vec<Note>,
) -> Result<(Fighters<'s>, i64), RefereeError> {
    let c = &data.combat;
    let mut side = Fighters {
        units: Vec::new(),
        hex_of: Vec::new(),
        leaders: s.attackers.iter().map(|h| h.leader).collect(),
        labels: s.attackers.iter().map(|h| h.label.as_deref()).collect(),
        sp: 0,
    };
    let mut rear_hexes = 0;
    for (i, hex) in s.attackers.iter().enumerate() {
        let field = format!("attackers[{i}]");
        let own = match &hex.terrain {
            Some(key) => Some(terrain(data, key, &format!("{field}.terrain"))?),
            None => None,
        };
        let fortified = own.is_some_and(|g| g.fortified);
        let units = resolve_hex(data, &hex.units, &format!("{field}.units"), fortified)?;
        let mut sp: u32 = units.iter().map(Unit::combat_sp).sum();
        if fortified {
            sp = fortified_cap(sp, c.fortified_defence_max, true, notes);
        }
        // An attack from outside on a fortified hex is an attack through its fortifications:
        // the pair is entered once, by the defender's terrain (11.1.1). From one fortified hex
        // into another it is not, unless the umpire says a wall lies between them (R-MED-37).
        let through = hex.through_fortifications || (ground.fortified && !fortified);
        side.sp += if through { sp.div_ceil(2) } else { sp };
        if hex.rear {
            rear_hexes += 1;
        }
        // The slope's defender modifier and the attacker's climb are one fact (R-MED-16): the
        // defending hex on a slope is at least one hex uphill for every attacker.
        let crossing = c.crossing_cf(
            hex.stream,
            hex.bridge,
            uphill_hexes(hex.uphill, ground.counted),
        );
        let units_charge = units.iter().any(|u| u.cf > 0);
        for u in units {
            let cf = if ground.no_charge.is_some() || through || hex.ford {
                0
            } else {
                u.cf.saturating_sub(crossing)
            };
            side.units.push((u, cf));
            side.hex_of.push(i);
        }
        crossing_notes(hex.ford && units_charge, through, notes);
    }
    if side.all_ranged() {
        side.sp = ranged_alone(notes);
    }
    charge_notes(c.uphill_cf_per_hex, ground, notes);
    Ok((side, rear_hexes))
}

/// What an attacking hex's crossing does to its charge (4.2.5, 5.7.6, 11.1.1, 11.1.2).
fn crossing_notes(charging_across_a_ford: bool, through: bool, notes: &mut Vec<Note>) {
    if charging_across_a_ford {
        notes.push(Note::new(
            "Attacking across a ford: the charge factor counts 0.",
            "4.2.5, 5.7.6",
            Some("R-MED-27"),
        ));
    }
    if through {
        notes.push(Note::new(
            "Attacking through fortifications: SPs halved (rounded up), no charge factor.",
            "11.1.1, 11.1.2, 1.6",
            None,
        ));
    }
}

/// What the counted terrain does to every attacker's charge (5.6.6, 5.6.9).
fn charge_notes(uphill_cf_per_hex: u32, ground: &Ground, notes: &mut Vec<Note>) {
    let counted = ground.counted;
    if counted.uphill && ground.no_charge.is_none() {
        notes.push(Note::new(
            format!(
                "Attacking into {}: at least one hex uphill, CF −{} (5.6.9).",
                counted.name, uphill_cf_per_hex
            ),
            "5.6.9",
            Some("R-MED-16"),
        ));
    }
    if counted.no_charge {
        notes.push(Note::new(
            format!("Charge factors count 0 against units in {}.", counted.name),
            "5.6.6",
            None,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{example_5_1_1, situation};
    use super::*;
    use crate::systems::{medieval::Medieval, test_support::load};

    #[test]
    fn the_5_1_1_example_fights_4_sps_against_2_its_cfs_cut_by_the_stream() {
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let s = example_5_1_1();
        let mut notes = Vec::new();
        let (defenders, hexes) = defenders(data, &s, &mut notes).unwrap();
        assert_eq!(defenders.sp, 2);
        assert_eq!(hexes[0].1.name, data.terrain["stream"].name);
        let ground = Ground::of(&hexes, &mut notes);
        let (attackers, rear) = attackers(data, &s, &ground, &mut notes).unwrap();
        assert_eq!(attackers.sp, 4);
        assert_eq!(rear, 0);
        // CF 2 and 3 across the stream: 1 and 2 (5.6.8).
        let cfs: Vec<u32> = attackers.units.iter().map(|(_, cf)| *cf).collect();
        assert_eq!(cfs, [1, 2]);
        assert_eq!(attackers.hex_of, [0, 1]);
        assert!(notes.is_empty());
    }

    #[test]
    fn a_fortified_hex_fights_with_at_most_4_sps_and_attackers_from_outside_are_halved() {
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let s = situation(serde_json::json!({
            "attackers": [{ "units": [{ "type": "heavy_infantry", "sp": 2 }] }],
            "defenders": [{ "terrain": "fortifications", "units": [
                { "type": "heavy_infantry", "sp": 2 }, { "type": "retainers", "sp": 2 },
                { "type": "heavy_infantry", "sp": 2 }
            ] }]
        }));
        let mut notes = Vec::new();
        let (defenders, hexes) = defenders(data, &s, &mut notes).unwrap();
        assert_eq!(defenders.sp, data.combat.fortified_defence_max);
        assert_eq!(notes[0].rule, "11.1.8");
        let ground = Ground::of(&hexes, &mut notes);
        let (attackers, _) = attackers(data, &s, &ground, &mut notes).unwrap();
        // 2 SPs through the fortifications: 1.
        assert_eq!(attackers.sp, 1);
        assert!(notes.iter().any(|n| n.rule == "11.1.1, 11.1.2, 1.6"));
    }

    #[test]
    fn ranged_units_fighting_alone_count_1_sp() {
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let s = situation(serde_json::json!({
            "attackers": [{ "units": [{ "type": "heavy_infantry", "sp": 2 }] }],
            "defenders": [{ "terrain": "clear", "units": [{ "type": "archers", "sp": 2 }] }]
        }));
        let mut notes = Vec::new();
        let (defenders, _) = defenders(data, &s, &mut notes).unwrap();
        assert_eq!(defenders.sp, 1);
        assert_eq!(notes[0].rule, "10.3.2");
    }

    #[test]
    fn equal_hexes_count_the_terrain_that_gives_the_defender_most() {
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let (clear, forest) = (&data.terrain["clear"], &data.terrain["forest"]);
        let (counted, tie) = counted_hex(&[(2, clear), (2, forest)]);
        assert_eq!((counted.name.as_str(), tie), (forest.name.as_str(), true));
        let (counted, tie) = counted_hex(&[(3, clear), (2, forest)]);
        assert_eq!((counted.name.as_str(), tie), (clear.name.as_str(), false));
    }
}
