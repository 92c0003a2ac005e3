//! Seeing into and out of terrain (VISIBILITY, p. 25), part of the visibility check: how far
//! troops inside a terrain can be seen from, whether they are revealed, and whether they see
//! out as if outside. The rows are `[sight]` of `rulesets/dbmm-tables.toml` (read by R-DBMM-47).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::data::DbmmData;
use crate::contract::{Check, Total};
use crate::error::RefereeError;
use crate::ErrorCode;

/// What reveals troops hidden in a terrain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Revealed {
    /// By shooting out.
    Shooting,
    /// By moving or close combat.
    Moving,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SightRow {
    pub terrain: Vec<String>,
    #[serde(default)]
    pub seasons: Vec<String>,
    #[serde(default)]
    pub climates: Vec<String>,
    /// Only Ps are hidden so.
    #[serde(default)]
    pub ps_only: bool,
    pub paces: i64,
    pub revealed_by: Revealed,
    pub text: String,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SightTable {
    pub rule: String,
    pub ruling: String,
    pub rows: Vec<SightRow>,
    pub blocking: String,
}

/// Troops in a terrain, seen or seeing out.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InTerrain {
    /// The terrain they are inside: Wd, WH, O, Oa, BUA, D, V, M …
    pub terrain: String,
    /// They are Ps.
    #[serde(default)]
    pub ps: bool,
    /// Paces they stand inside its edge.
    pub inside: i64,
    /// Paces from them to whoever looks.
    pub from: i64,
    /// They shot out this bound.
    #[serde(default)]
    pub shot_out: bool,
    /// They moved or fought in close combat this bound.
    #[serde(default)]
    pub moved_or_fought: bool,
}

/// A distance the umpire gives, refused in words when below 0 (sight and deployment alike).
pub(super) fn paces(value: i64, field: &str, rule: &str) -> Result<i64, RefereeError> {
    if value < 0 {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidRange,
            format!("a distance is 0 paces or more, not {value}"),
        )
        .field(field)
        .rule(rule));
    }
    Ok(value)
}

/// The checks and totals of troops inside a terrain, in this season and climate, seen from so
/// far while elements see `visibility` paces (None: as far as the table goes).
pub fn in_terrain(
    data: &DbmmData,
    t: &InTerrain,
    season: &str,
    climate: &str,
    visibility: Option<i64>,
) -> Result<(Vec<Total>, Vec<Check>), RefereeError> {
    let s = &data.sight;
    let rule = s.rule.as_str();
    let ruling = Some(s.ruling.as_str());
    let inside = paces(t.inside, "sight.inside", rule)?;
    let from = paces(t.from, "sight.from", rule)?;
    let same = |list: &[String], v: &str| {
        list.is_empty() || list.iter().any(|x| x.eq_ignore_ascii_case(v.trim()))
    };
    let row = s.rows.iter().find(|r| {
        r.terrain.iter().any(|x| x == t.terrain.trim())
            && same(&r.seasons, season)
            && same(&r.climates, climate)
            && (!r.ps_only || t.ps)
    });
    let mut totals = Vec::new();
    let mut checks = Vec::new();
    let seen_in_light = visibility.is_none_or(|v| from <= v);
    match row {
        Some(row) => {
            let revealed = match row.revealed_by {
                Revealed::Shooting => t.shot_out,
                Revealed::Moving => t.moved_or_fought,
            };
            let why = match row.revealed_by {
                Revealed::Shooting => "revealed by shooting out",
                Revealed::Moving => "revealed by moving or close combat",
            };
            totals.push(Total::new(
                format!("Hidden inside {}", row.text),
                format!("beyond {}p", row.paces),
                rule,
                ruling,
            ));
            checks.push(
                Check::holds(
                    format!(
                        "Troops inside {} are seen from {}p or less unless {why} (here {from}p{})",
                        row.text,
                        row.paces,
                        if revealed { ", revealed" } else { "" }
                    ),
                    (from <= row.paces || revealed) && seen_in_light,
                    rule,
                )
                .ruling(ruling),
            );
            checks.push(
                Check::holds(
                    format!(
                        "Troops less than {}p inside see out as if outside (here {inside}p inside)",
                        row.paces
                    ),
                    inside < row.paces,
                    rule,
                )
                .ruling(ruling),
            );
        }
        None => checks.push(
            Check::holds(
                format!(
                    "{} does not hide troops inside it (here {from}p)",
                    t.terrain.trim()
                ),
                seen_in_light,
                rule,
            )
            .ruling(ruling),
        ),
    }
    if let Some(v) = visibility {
        checks.push(
            Check::holds(
                format!("Within the {v}p elements see now (here {from}p)"),
                from <= v,
                rule,
            )
            .ruling(ruling),
        );
    }
    checks.push(Check::umpire(s.blocking.clone(), rule).ruling(ruling));
    Ok((totals, checks))
}

#[cfg(test)]
mod tests {
    use crate::contract::CheckStatus;
    use serde_json::json;

    /// VISIBILITY (p. 25): the daylight check with troops inside a terrain.
    fn look(
        season: &str,
        climate: &str,
        clock: &str,
        sight: serde_json::Value,
    ) -> (Vec<String>, Vec<String>) {
        let data = super::super::test_data();
        let s: super::super::daylight::DaylightSituation = serde_json::from_value(json!({
            "climate": climate, "season": season, "clock": clock, "sight": sight
        }))
        .unwrap();
        let r = super::super::daylight::daylight(&data, &s).unwrap();
        let failed = r
            .checks
            .iter()
            .filter(|c| c.status == CheckStatus::NotMet)
            .map(|c| c.label.clone())
            .collect();
        let hidden = r
            .totals
            .iter()
            .filter(|t| t.label.starts_with("Hidden"))
            .map(|t| format!("{}: {}", t.label, t.value))
            .collect();
        (failed, hidden)
    }

    #[test]
    fn troops_inside_terrain_are_seen_only_from_near_unless_revealed() {
        let wd =
            |from: i64, inside: i64| json!({ "terrain": "Wd", "inside": inside, "from": from });
        // Wd in Summer hides beyond 40p; in Autumn beyond 80p.
        let (failed, hidden) = look("Summer", "Warm", "12:00", wd(60, 20));
        assert_eq!(hidden, ["Hidden inside Wd or WH in Summer: beyond 40p"]);
        assert_eq!(
            failed,
            ["Troops inside Wd or WH in Summer are seen from 40p or less unless revealed by shooting out (here 60p)"]
        );
        let (failed, hidden) = look("Autumn", "Warm", "12:00", wd(60, 20));
        assert_eq!(
            hidden,
            ["Hidden inside Wd or WH in Spring, Autumn or Winter: beyond 80p"]
        );
        assert!(failed.is_empty(), "{failed:?}");
        // Deeper inside than that, they do not see out as if outside.
        let (failed, _) = look("Autumn", "Warm", "12:00", wd(60, 100));
        assert_eq!(
            failed,
            ["Troops less than 80p inside see out as if outside (here 100p inside)"]
        );
        // Shooting out reveals them.
        let mut shot = wd(300, 20);
        shot["shot_out"] = json!(true);
        let (failed, _) = look("Summer", "Warm", "12:00", shot);
        assert!(failed.is_empty(), "{failed:?}");
        // Ps in a marsh are hidden beyond 160p unless they move or fight; other troops are not.
        let ps = json!({ "terrain": "M", "ps": true, "inside": 10, "from": 200 });
        let (failed, hidden) = look("Summer", "Warm", "12:00", ps);
        assert_eq!(
            hidden,
            ["Hidden inside Ps in V, M, crags, rocks or scrub: beyond 160p"]
        );
        assert_eq!(failed.len(), 1, "{failed:?}");
        let (failed, hidden) = look(
            "Summer",
            "Warm",
            "12:00",
            json!({ "terrain": "M", "inside": 10, "from": 200 }),
        );
        assert!(
            hidden.is_empty() && failed.is_empty(),
            "{hidden:?} {failed:?}"
        );
        // A terrain that hides nothing: seen as far as elements see (no limit by day).
        let (failed, _) = look(
            "Summer",
            "Warm",
            "12:00",
            json!({ "terrain": "RH", "inside": 0, "from": 500 }),
        );
        assert!(failed.is_empty(), "{failed:?}");
    }
}
