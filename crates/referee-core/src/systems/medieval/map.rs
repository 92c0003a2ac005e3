//! Hexes by the numbers the map prints on them, column then row ("15.05": column 15, row 5), and
//! how many hexes apart two of them are (8.2.2, R-MED-46). The rules do not say whether the odd
//! or the even columns stand half a hex lower, so a distance is read both ways: where the two
//! agree on what matters (within a command range or not), the roster answers; else the umpire.

use crate::rule_system::form::hex_key;

/// A hex's column and row, when its number reads as two whole numbers ("15.05").
pub fn column_row(hex: &str) -> Option<(i64, i64)> {
    let key = hex_key(hex);
    let (column, row) = key.split_once('.')?;
    Some((column.parse().ok()?, row.parse().ok()?))
}

/// Hexes from one hex to another, with the odd columns half a hex lower, then the even ones.
pub fn distances(from: &str, to: &str) -> Option<(u32, u32)> {
    let (a, b) = (column_row(from)?, column_row(to)?);
    Some((apart(a, b, 1), apart(a, b, 0)))
}

/// Whether `to` is within `range` hexes of `from` (0: the same hex), when both ways of
/// staggering the columns say the same; None when they differ, or a hex number does not read.
pub fn within(from: &str, to: &str, range: u32) -> Option<bool> {
    let (odd, even) = distances(from, to)?;
    let (a, b) = (odd <= range, even <= range);
    (a == b).then_some(a)
}

/// Hexes apart on a map whose columns of parity `lower` stand half a hex lower: the columns
/// read as cube coordinates.
fn apart((c1, r1): (i64, i64), (c2, r2): (i64, i64), lower: i64) -> u32 {
    let cube = |c: i64, r: i64| {
        let odd = c.rem_euclid(2);
        let shift = if lower == 1 { c - odd } else { c + odd }.div_euclid(2);
        let z = r - shift;
        (c, -c - z, z)
    };
    let ((x1, y1, z1), (x2, y2, z2)) = (cube(c1, r1), cube(c2, r2));
    let d = (x1 - x2).abs().max((y1 - y2).abs()).max((z1 - z2).abs());
    u32::try_from(d).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hexes_read_as_column_and_row() {
        assert_eq!(column_row("15.05"), Some((15, 5)));
        assert_eq!(column_row(" 15.5 "), Some((15, 5)));
        assert_eq!(column_row("ford"), None);
        assert_eq!(column_row("15"), None);
    }

    #[test]
    fn distances_down_a_column_and_across_either_stagger() {
        // Down one column: the rows between, whichever columns stand lower.
        assert_eq!(distances("12.05", "12.08"), Some((3, 3)));
        assert_eq!(distances("12.05", "12.05"), Some((0, 0)));
        // Straight across two columns: 2 both ways.
        assert_eq!(distances("12.05", "14.05"), Some((2, 2)));
        // One column over, one row down: adjacent on one map, 2 hexes on the other.
        let (odd, even) = distances("12.05", "13.06").unwrap();
        assert_eq!([odd.min(even), odd.max(even)], [1, 2]);
        // Symmetric.
        assert_eq!(distances("13.06", "12.05"), distances("12.05", "13.06"));
    }

    #[test]
    fn within_a_range_only_when_both_staggers_agree() {
        assert_eq!(within("12.05", "14.05", 2), Some(true));
        assert_eq!(within("12.05", "16.05", 3), Some(false));
        // 1 or 2 apart: within 2 either way, within 1 on one map only.
        assert_eq!(within("12.05", "13.06", 2), Some(true));
        assert_eq!(within("12.05", "13.06", 1), None);
        assert_eq!(within("12.05", "the ford", 2), None);
    }
}
