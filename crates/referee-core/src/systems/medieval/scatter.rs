//! The scatter d6, asked in turn once a result calls for it (5.1.1 g, 10.5.10, 10.6.3): who it is
//! read for — never units stacked with a leader (9.1.3) —, one die per side read for each of its
//! units on its own COMBAT SCATTER column, and what it scatters, or eliminates when the side's
//! Scattered Units track is full (9.1.4).

use super::data::MedievalData;
use super::units::Unit;
use crate::contract::{effect, Change, Effect, Target};
use crate::error::and_list;
use crate::rule_system::{Die, Thrower};

/// A side's units a scatter d6 is read for, and where they stand.
pub struct ScatterRead {
    /// The whole side, as its effects name it.
    pub side: Target,
    pub thrower: Thrower,
    /// Each unit the die is read for (none stacked with a leader), with its hex's index.
    pub units: Vec<(Unit, usize)>,
    /// Each hex of the side by name: its label, or "defending hex 2".
    pub hexes: Vec<String>,
    /// A leader stands on one of the side's hexes: its other hexes are named one by one.
    pub by_hex: bool,
    /// The side's Scattered Units track is full (9.1.4).
    pub track_full: bool,
}

impl ScatterRead {
    /// The highest face that scatters a unit after this retreat (COMBAT SCATTER; 0: never).
    fn at_most(data: &MedievalData, u: &Unit, hexes: u32) -> u32 {
        data.scatter.threshold(&u.scatter, hexes)
    }

    /// A d6 is worth throwing: some unit it is read for can scatter after a retreat of `hexes`.
    pub fn asks(&self, data: &MedievalData, hexes: u32) -> bool {
        self.units
            .iter()
            .any(|(u, _)| Self::at_most(data, u, hexes) > 0)
    }

    /// The die, named by the units that throw it ("Boyars' d6, scatter").
    pub fn die(&self) -> Die {
        Die::of(6, self.thrower, &and_list(&self.names()), "scatter")
    }

    /// Who a face scatters after a retreat of `hexes`, each unit on its own column: the whole
    /// side when every unit is, else each hex whose units all are, else the unit on its hex.
    pub fn scattered(&self, data: &MedievalData, hexes: u32, face: u32) -> Vec<Target> {
        self.scattered_by(|u| face <= Self::at_most(data, u, hexes))
    }

    /// Who is scattered where `scatters` says a unit is.
    pub fn scattered_by(&self, scatters: impl Fn(&Unit) -> bool) -> Vec<Target> {
        let hit: Vec<bool> = self.units.iter().map(|(u, _)| scatters(u)).collect();
        if !hit.iter().any(|h| *h) {
            return Vec::new();
        }
        if !self.by_hex && hit.iter().all(|h| *h) {
            return vec![self.side.clone()];
        }
        let mut out = Vec::new();
        for (h, name) in self.hexes.iter().enumerate() {
            let on: Vec<(&Unit, bool)> = self
                .units
                .iter()
                .zip(&hit)
                .filter(|((_, at), _)| *at == h)
                .map(|((u, _), s)| (u, *s))
                .collect();
            if !on.is_empty() && on.iter().all(|(_, s)| *s) {
                out.push(Target::Hex(name.clone()));
            } else {
                out.extend(
                    on.iter()
                        .filter(|(_, s)| *s)
                        .map(|(u, _)| Target::Unit(format!("{} on {name}", u.name))),
                );
            }
        }
        out
    }

    /// The effects of scattering these targets: onto the Scattered Units track, or eliminated
    /// when it is full — a loss that does not move the MORALE track (9.1.4, 9.1.5).
    pub fn effects(&self, targets: Vec<Target>, rule: &str, ruling: Option<&str>) -> Vec<Effect> {
        targets
            .into_iter()
            .map(|t| {
                if self.track_full {
                    effect(t, Change::DestroyAll, "9.1.4, 9.1.5", Some("R-MED-12"))
                } else {
                    effect(t, Change::Scatter, rule, ruling)
                }
            })
            .collect()
    }

    /// The names of the hexes the die is read for ("Boyars", "Boyars and Spears").
    fn names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for (_, h) in &self.units {
            if !names.contains(&self.hexes[*h].as_str()) {
                names.push(&self.hexes[*h]);
            }
        }
        names
    }

    /// A face in words: "Scatter d6 2 (Boyars): Boyars scattered." / "…: none scattered."
    pub fn words(&self, face: u32, targets: &[Target]) -> String {
        let whose = and_list(&self.names());
        if targets.is_empty() {
            return format!("Scatter d6 {face} ({whose}): none scattered.");
        }
        let names: Vec<&str> = targets
            .iter()
            .map(|t| match t {
                Target::Hex(l) | Target::Unit(l) => l.as_str(),
                _ => whose.as_str(),
            })
            .collect();
        let fate = if self.track_full {
            "eliminated, the Scattered Units track being full"
        } else {
            "scattered"
        };
        format!("Scatter d6 {face} ({whose}): {} {fate}.", and_list(&names))
    }
}
