//! The unit builder (2.1, Table 2.10, R-GTS-1): a unit's values from its class and ratings, each
//! with the rows that produced it, any of them overridden by the printed unit tag; the terminal
//! rout trigger (2.11) and hits per stand (5.52).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::rule_system::resolve::{is_false, is_zero};
use ts_rs::TS;

use super::data::{trigger, GtsData, Row, UnitClass};
use crate::contract::Total;
use crate::error::RefereeError;
use crate::ErrorCode;

/// Values printed on the unit tag, which win over the derived ones (R-GTS-1).
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "GtsTagValues")]
pub struct TagValues {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub response: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub quality: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub move_inches: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub fire_attack: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub fire_defence: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub melee: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub melee_first: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub recoil: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub hits_per_stand: Option<u32>,
}

/// A unit as the umpire enters it: its class, its ratings (Table 2.10), stands and hits.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "GtsUnit")]
pub struct UnitEntry {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub name: Option<String>,
    /// The tag's colour: which command the unit belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub command: Option<String>,
    /// infantry, cavalry, camelry, elephant, chariot, engine, wagon.
    pub class: String,
    /// C (confident), I (impetuous), R (reluctant); none: standard.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub morale: Option<String>,
    /// P, D, F, V; none: standard.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub training: Option<String>,
    /// N, L, M, H, A.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub armour: Option<String>,
    /// Primary weapon: PK, LN, LS, SP, JV, BW, SL, SH, HM, PM, BL, CT.
    pub weapon: String,
    /// Sling ammunition: stones (4") or lead (6") (5.1, R-GTS-20).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub ammunition: Option<String>,
    /// Secondary weapon, for fire at −1 (2.13).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub secondary: Option<String>,
    /// CO (close) or OO (open); elephants have neither (3.23).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub order: Option<String>,
    /// Stands now.
    pub stands: u32,
    /// Hits (pips) on the unit now, less than one stand's worth.
    #[serde(default, skip_serializing_if = "is_zero")]
    #[ts(optional, as = "Option<u32>")]
    pub hits: u32,
    /// Stands when the battle began, for the terminal rout trigger (default: stands).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub starting_stands: Option<u32>,
    /// In skirmish formation (3.12).
    #[serde(default, skip_serializing_if = "is_false")]
    #[ts(optional, as = "Option<bool>")]
    pub skirmish: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    #[ts(optional, as = "Option<bool>")]
    pub disordered: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    #[ts(optional, as = "Option<bool>")]
    pub routed: bool,
    /// In March formation (3.14).
    #[serde(default, skip_serializing_if = "is_false")]
    #[ts(optional, as = "Option<bool>")]
    pub march: bool,
    /// The printed tag's values, which override the derived ones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub tag: Option<TagValues>,
}

/// A derived value and how it was reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Value<T> {
    pub value: T,
    pub sources: Vec<String>,
}

/// A unit with every value it needs.
#[derive(Clone, Debug)]
pub struct Unit {
    pub name: String,
    pub class: String,
    pub mounted: bool,
    pub stands: u32,
    pub hits: u32,
    pub skirmish: bool,
    pub disordered: bool,
    pub routed: bool,
    pub march: bool,
    /// Close order (3.21).
    pub close_order: bool,
    /// Trained as Professional, Drilled, or both (2.10, 3.1512).
    pub professional: bool,
    pub drilled: bool,
    pub response: Value<i64>,
    pub quality: Value<String>,
    pub move_inches: Value<Option<i64>>,
    pub fire_attack: Value<i64>,
    pub fire_defence: Value<i64>,
    pub melee: Value<i64>,
    pub melee_first: Value<Option<i64>>,
    pub recoil: Value<i64>,
    pub hits_per_stand: u32,
    pub weapon: Row,
    pub weapon_key: String,
    pub secondary: Option<Row>,
    pub weapon_class: String,
    /// None without an armour rating: no armour gap counts for or against it (R-GTS-22).
    pub armour_level: Option<u32>,
    pub mounted_fire: bool,
    pub ammunition: Option<String>,
    /// (stands, hits) of the terminal rout trigger.
    pub rout_trigger: Option<(u32, u32)>,
    pub second_hit_disorders: bool,
    pub always_flanked: bool,
    /// Hits taken since the battle began (stands lost and pips).
    pub hits_received: u32,
}

fn signed(n: i64) -> String {
    format!("{n:+}")
}

fn row<'d>(
    data: &'d GtsData,
    key: &str,
    group: &str,
    field: &str,
) -> Result<&'d Row, RefereeError> {
    let r = data.rows.get(key).ok_or_else(|| {
        RefereeError::new(
            ErrorCode::SituationUnknownRating,
            format!(
                "unknown {group} {}; Table 2.10 has {}",
                crate::error::given(key),
                data.rows
                    .iter()
                    .filter(|(_, r)| r.group == group)
                    .map(|(k, r)| format!("{k} ({})", r.name))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )
        .field(field)
        .rule("2.10")
    })?;
    if r.group != group {
        return Err(RefereeError::new(
            ErrorCode::SituationUnknownRating,
            format!(
                "“{key}” ({}) is a {} rating, not a {group}",
                r.name, r.group
            ),
        )
        .field(field)
        .rule("2.10"));
    }
    Ok(r)
}

/// A leader's personal valour runs from −2 to +2 (1.2).
pub fn check_pv(pv: i64, field: &str) -> Result<(), RefereeError> {
    if (-2..=2).contains(&pv) {
        Ok(())
    } else {
        Err(RefereeError::new(
            ErrorCode::SituationInvalidRating,
            format!("a leader's personal valour runs from −2 to +2, not {pv:+}"),
        )
        .field(field)
        .rule("1.2"))
    }
}

impl Unit {
    pub fn build(data: &GtsData, e: &UnitEntry, field: &str) -> Result<Unit, RefereeError> {
        let field = if field.is_empty() {
            String::new()
        } else {
            format!("{field}.")
        };
        let class = class_of(data, e, &field)?;
        let rows = rows_of(data, e, class, &field)?;
        let secondary = match &e.secondary {
            Some(k) => Some(row(data, k, "weapon", &format!("{field}secondary"))?.clone()),
            None => None,
        };
        let weapon = row(data, &e.weapon, "weapon", &format!("{field}weapon"))?.clone();
        let training = e.training.as_ref().and_then(|k| data.rows.get(k));
        let b = &data.base;
        let tag = e.tag.clone().unwrap_or_default();
        let sum =
            |base: i64, label: &str, get: &dyn Fn(&Row) -> i64| summed(&rows, base, label, get);
        let response = tagged(
            sum(b.response, &b.response.to_string(), &|r| r.response),
            tag.response,
        );
        let fire_attack = tagged(
            sum(b.fire_attack, &signed(b.fire_attack), &|r| r.fire_attack),
            tag.fire_attack,
        );
        let fire_defence = tagged(
            sum(b.fire_defence, &signed(b.fire_defence), &|r| r.fire_defence),
            tag.fire_defence,
        );
        let melee = tagged(sum(b.melee, &signed(b.melee), &|r| r.melee), tag.melee);
        let quality = quality(data, &rows, &tag, &field)?;
        let q = &data.qualities[data.quality_index(&quality.value).unwrap_or(2)];
        let mut recoil = sum(b.recoil, &b.recoil.to_string(), &|r| r.recoil);
        recoil.value += q.recoil_bonus;
        recoil
            .sources
            .push(format!("quality {} {}", q.letter, signed(q.recoil_bonus)));
        let recoil = tagged(recoil, tag.recoil);
        let move_inches = move_inches(&rows, class, &tag);
        let melee_first = melee_first(e, &weapon, &melee, &tag);
        let hits_per_stand = tag.hits_per_stand.unwrap_or(if e.skirmish {
            2
        } else {
            class.hits_per_stand.unwrap_or(q.hits_per_stand)
        });
        check_stands(e, hits_per_stand, &quality.value, &field)?;
        check_ammunition(e, &weapon, secondary.as_ref(), &field)?;
        let starting = e.starting_stands.unwrap_or(e.stands);
        let rout_trigger = rout_trigger(data, e, starting, &quality.value, &field)?;
        Ok(Unit {
            name: e
                .name
                .clone()
                .unwrap_or_else(|| format!("{} {}", class.name, e.weapon)),
            class: e.class.clone(),
            mounted: class.mounted,
            stands: e.stands,
            hits: e.hits,
            skirmish: e.skirmish,
            disordered: e.disordered,
            routed: e.routed,
            march: e.march,
            close_order: e.order.as_deref() == Some("CO"),
            professional: training.is_some_and(|r| r.professional),
            drilled: training.is_some_and(|r| r.drilled),
            response,
            quality,
            move_inches,
            fire_attack,
            fire_defence,
            melee,
            melee_first,
            recoil,
            hits_per_stand,
            weapon_class: weapon.weapon_class.clone().unwrap_or_else(|| "e".into()),
            armour_level: e
                .armour
                .as_ref()
                .and_then(|a| data.rows.get(a))
                .and_then(|r| r.armour_level),
            mounted_fire: class.mounted || class.mounted_fire,
            ammunition: e.ammunition.clone(),
            weapon,
            weapon_key: e.weapon.clone(),
            secondary,
            rout_trigger,
            second_hit_disorders: class.second_hit_disorders,
            always_flanked: class.always_flanked,
            hits_received: (starting - e.stands) * hits_per_stand + e.hits,
        })
    }

    /// Engines and chariots are Disordered for good on their second hit (3.32).
    pub fn disordered_for_good_by(&self, more: u32) -> bool {
        self.second_hit_disorders && self.hits_received < 2 && self.hits_received + more >= 2
    }

    /// The terminal rout trigger is breached (2.11): no Rally from Rout any more.
    pub fn trigger_breached(&self, stands: u32, hits: u32) -> bool {
        match self.rout_trigger {
            Some((s, h)) => stands < s || (stands == s && hits >= h),
            None => false,
        }
    }

    /// Hits on the unit as stands lost and pips left (5.52).
    pub fn after_hits(&self, more: u32) -> (u32, u32) {
        let total = self.hits + more;
        let lost = total / self.hits_per_stand;
        (
            self.stands.saturating_sub(lost),
            if lost >= self.stands {
                0
            } else {
                total % self.hits_per_stand
            },
        )
    }

    /// The derived values as cited lines.
    pub fn totals(&self) -> Vec<Total> {
        let line = |label: &str, value: String, sources: &[String]| Total {
            label: format!("{label} ({})", sources.join(", ")),
            value,
            rule: "2.10".into(),
            ruling: Some("R-GTS-1".into()),
        };
        let ranges = |r: &Row| {
            if r.ranges.is_empty() {
                "none".to_string()
            } else {
                r.ranges
                    .iter()
                    .map(|t| format!("{}\"", *t as f64 / 10.0))
                    .collect::<Vec<_>>()
                    .join(" / ")
            }
        };
        let mut out = vec![
            line(
                "Response",
                self.response.value.to_string(),
                &self.response.sources,
            ),
            line("Quality", self.quality.value.clone(), &self.quality.sources),
            line(
                "Move",
                self.move_inches
                    .value
                    .map(|m| format!("{m}\""))
                    .unwrap_or_else(|| "from the tag".into()),
                &self.move_inches.sources,
            ),
            line(
                "Fire attack",
                format!("{:+}", self.fire_attack.value),
                &self.fire_attack.sources,
            ),
            line(
                "Fire defence",
                format!("{:+}", self.fire_defence.value),
                &self.fire_defence.sources,
            ),
            line(
                "Melee",
                format!("{:+}", self.melee.value),
                &self.melee.sources,
            ),
            Total {
                ruling: Some("R-GTS-14".into()),
                rule: "2.10, 2.14".into(),
                ..line(
                    "1st-turn melee",
                    self.melee_first
                        .value
                        .map(|v| format!("{v:+}"))
                        .unwrap_or_else(|| "none".into()),
                    &self.melee_first.sources,
                )
            },
            line(
                "Recoil number",
                self.recoil.value.to_string(),
                &self.recoil.sources,
            ),
        ];
        out.push(Total {
            label: format!("Fire range ({})", self.weapon.name),
            value: ranges(&self.weapon),
            rule: "2.10, 5.1".into(),
            ruling: None,
        });
        out.push(Total {
            label: "Weapon class".into(),
            value: self.weapon_class.clone(),
            rule: "2.10".into(),
            ruling: None,
        });
        out.push(Total {
            label: "Hits per stand".into(),
            value: self.hits_per_stand.to_string(),
            rule: "2.12, 5.52".into(),
            ruling: Some("R-GTS-1".into()),
        });
        if let Some((s, h)) = self.rout_trigger {
            out.push(Total {
                label: "Terminal rout trigger (stands-hits)".into(),
                value: format!("{s}-{h}"),
                rule: "2.11".into(),
                ruling: None,
            });
        }
        out
    }
}

/// The unit's class (2.1).
fn class_of<'d>(
    data: &'d GtsData,
    e: &UnitEntry,
    field: &str,
) -> Result<&'d UnitClass, RefereeError> {
    data.classes.get(&e.class).ok_or_else(|| {
        RefereeError::new(
            ErrorCode::SituationUnknownClass,
            format!(
                "unknown unit class {}; the classes are {}",
                crate::error::given(&e.class),
                crate::error::choices(data.classes.keys())
            ),
        )
        .field(format!("{field}class"))
        .rule("2.1")
    })
}

/// The Table 2.10 rows the unit's ratings and class bring, in the table's order.
fn rows_of<'d>(
    data: &'d GtsData,
    e: &'d UnitEntry,
    class: &'d UnitClass,
    field: &str,
) -> Result<Vec<(&'d str, &'d Row)>, RefereeError> {
    let mut rows: Vec<(&str, &Row)> = Vec::new();
    for (value, group, f) in [
        (e.morale.as_deref(), "morale", "morale"),
        (e.training.as_deref(), "training", "training"),
        (e.armour.as_deref(), "armour", "armour"),
        (Some(e.weapon.as_str()), "weapon", "weapon"),
        (e.order.as_deref(), "order", "order"),
    ] {
        if let Some(key) = value {
            rows.push((key, row(data, key, group, &format!("{field}{f}"))?));
        }
    }
    for key in &class.rows {
        rows.push((
            key.as_str(),
            row(data, key, "class", &format!("{field}class"))?,
        ));
    }
    Ok(rows)
}

/// A value built from the base and each row's part, with its sources in words (Table 2.10).
fn summed(
    rows: &[(&str, &Row)],
    base: i64,
    base_label: &str,
    get: &dyn Fn(&Row) -> i64,
) -> Value<i64> {
    let mut sources = vec![format!("base {base_label}")];
    let mut total = base;
    for (key, r) in rows {
        let v = get(r);
        if v != 0 {
            total += v;
            sources.push(format!("{} ({key}) {}", r.name, signed(v)));
        }
    }
    Value {
        value: total,
        sources,
    }
}

/// A value printed on the unit's tag takes the place of the derived one (R-GTS-1).
fn tagged<T>(v: Value<T>, tag: Option<T>) -> Value<T> {
    match tag {
        Some(t) => Value {
            value: t,
            sources: vec!["unit tag".into()],
        },
        None => v,
    }
}

/// Quality: the letter shifted one grade better per +1, clamped to A…E (R-GTS-1), or the tag's.
fn quality(
    data: &GtsData,
    rows: &[(&str, &Row)],
    tag: &TagValues,
    field: &str,
) -> Result<Value<String>, RefereeError> {
    let shift = summed(rows, 0, "C", &|r| r.quality);
    let base_index = data.quality_index(&data.base.quality).unwrap_or(2) as i64;
    let index = (base_index - shift.value).clamp(0, data.qualities.len() as i64 - 1) as usize;
    let Some(q) = &tag.quality else {
        return Ok(Value {
            value: data.qualities[index].letter.clone(),
            sources: shift.sources,
        });
    };
    if data.quality_index(q).is_none() {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidQuality,
            format!("quality “{q}”: the qualities are A, B, C, D and E"),
        )
        .field(format!("{field}tag.quality"))
        .rule("2.12"));
    }
    Ok(Value {
        value: q.clone(),
        sources: vec!["unit tag".into()],
    })
}

/// The move in inches: the tag's, or the class's base with the rows' parts; none where the
/// text gives no base.
fn move_inches(rows: &[(&str, &Row)], class: &UnitClass, tag: &TagValues) -> Value<Option<i64>> {
    match (tag.move_inches, class.move_inches) {
        (Some(t), _) => Value {
            value: Some(t),
            sources: vec!["unit tag".into()],
        },
        (None, Some(base)) => {
            let v = summed(rows, base, &format!("{}\"", base), &|r| r.move_inches);
            Value {
                value: Some(v.value),
                sources: v.sources,
            }
        }
        (None, None) => Value {
            value: None,
            sources: vec![format!(
                "the text gives no base move for {}: enter it from the tag",
                class.name
            )],
        },
    }
}

/// The 1st-turn melee mod: the tag's, or the melee mod plus the weapon's "melee 1st T".
fn melee_first(
    e: &UnitEntry,
    weapon: &Row,
    melee: &Value<i64>,
    tag: &TagValues,
) -> Value<Option<i64>> {
    // The 1st-turn melee mod is the whole mod of the unit's first melee, not a bonus on top
    // of it (the 2.10 note, R-GTS-14): derived, it is the melee mod plus the weapon's
    // "melee 1st T"; printed on the tag, it is taken as it stands.
    match tag.melee_first {
        Some(t) => Value {
            value: Some(t),
            sources: vec!["unit tag".into()],
        },
        None => match weapon.melee_first {
            Some(v) => Value {
                value: Some(melee.value + v),
                sources: vec![
                    format!("melee {}", signed(melee.value)),
                    format!("{} ({}) {}", weapon.name, e.weapon, signed(v)),
                ],
            },
            None => Value {
                value: None,
                sources: Vec::new(),
            },
        },
    }
}

/// A unit on the table has a stand, and fewer hits than a stand takes (5.52).
fn check_stands(
    e: &UnitEntry,
    hits_per_stand: u32,
    quality: &str,
    field: &str,
) -> Result<(), RefereeError> {
    if e.stands == 0 {
        return Err(RefereeError::new(
            ErrorCode::SituationNoStands,
            "a unit with no stands is eliminated: leave it out",
        )
        .field(format!("{field}stands"))
        .rule("5.52"));
    }
    if e.hits >= hits_per_stand {
        return Err(RefereeError::new(
            ErrorCode::SituationTooManyHits,
            format!(
                "{} hits: a {} stand takes {hits_per_stand}, the last of which removes it — enter fewer stands instead",
                e.hits, quality
            ),
        )
        .field(format!("{field}hits"))
        .rule("5.52"));
    }
    Ok(())
}

/// Only a sling unit chooses its ammunition, among its sling's (5.1, R-GTS-20).
fn check_ammunition(
    e: &UnitEntry,
    weapon: &Row,
    secondary: Option<&Row>,
    field: &str,
) -> Result<(), RefereeError> {
    if let Some(a) = &e.ammunition {
        let slings = [Some(weapon), secondary]
            .into_iter()
            .flatten()
            .find(|w| !w.ammunition.is_empty());
        match slings {
            None => {
                return Err(RefereeError::new(
                    ErrorCode::SituationInvalidField,
                    "only a sling unit has a choice of ammunition",
                )
                .field(format!("{field}ammunition"))
                .rule("5.1"))
            }
            Some(w) if !w.ammunition.contains_key(a) => {
                return Err(RefereeError::new(
                    ErrorCode::SituationInvalidField,
                    format!(
                        "a {} shoots {}",
                        w.name.to_lowercase(),
                        w.ammunition
                            .keys()
                            .cloned()
                            .collect::<Vec<_>>()
                            .join(" or ")
                    ),
                )
                .field(format!("{field}ammunition"))
                .rule("5.1"))
            }
            _ => {}
        }
    }
    Ok(())
}

/// The terminal rout trigger from the stands the unit started with (2.11, Table 2.11).
fn rout_trigger(
    data: &GtsData,
    e: &UnitEntry,
    starting: u32,
    quality: &str,
    field: &str,
) -> Result<Option<(u32, u32)>, RefereeError> {
    if starting < e.stands {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidField,
            "a unit cannot have more stands than it started with",
        )
        .field(format!("{field}starting_stands")));
    }
    let columns = data
        .rout_triggers
        .by_quality
        .get(quality)
        .map_or(0, |row| row.len() as u32);
    if columns > 0 && starting > columns {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidField,
            format!(
                "Table 2.11 gives terminal rout triggers for units of 1 to {columns} stands, not {starting}"
            ),
        )
        .field(format!(
            "{field}{}",
            if e.starting_stands.is_some() {
                "starting_stands"
            } else {
                "stands"
            }
        ))
        .rule("2.11"));
    }
    Ok(data
        .rout_triggers
        .by_quality
        .get(quality)
        .and_then(|row| row.get(starting.clamp(1, row.len() as u32) as usize - 1))
        .and_then(|t| trigger(t)))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::systems::gts::test_data as data;

    fn entry(v: serde_json::Value) -> UnitEntry {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn quality_shifts_a_grade_per_plus_one_and_the_tag_wins() {
        // R-GTS-1: Confident (+1) and Professional (+1) make a C unit A; a tag's letter stands.
        let d = data();
        let e = entry(
            serde_json::json!({ "class": "infantry", "morale": "C", "training": "P", "weapon": "SP", "stands": 4 }),
        );
        let class = class_of(&d, &e, "").unwrap();
        let rows = rows_of(&d, &e, class, "").unwrap();
        assert_eq!(
            quality(&d, &rows, &TagValues::default(), "").unwrap().value,
            "A"
        );
        let tag = TagValues {
            quality: Some("D".into()),
            ..TagValues::default()
        };
        assert_eq!(
            quality(&d, &rows, &tag, "").unwrap().sources,
            vec!["unit tag"]
        );
        let bad = TagValues {
            quality: Some("Z".into()),
            ..TagValues::default()
        };
        assert_eq!(
            quality(&d, &rows, &bad, "unit.")
                .unwrap_err()
                .field
                .as_deref(),
            Some("unit.tag.quality")
        );
    }

    #[test]
    fn only_a_sling_chooses_its_ammunition() {
        // 5.1, R-GTS-20.
        let d = data();
        let sling = d.rows["SL"].clone();
        let bow = d.rows["BW"].clone();
        let lead = entry(
            serde_json::json!({ "class": "infantry", "weapon": "SL", "stands": 2, "ammunition": "lead" }),
        );
        check_ammunition(&lead, &sling, None, "").unwrap();
        let e = check_ammunition(&lead, &bow, None, "").unwrap_err();
        assert_eq!(e.field.as_deref(), Some("ammunition"));
        let mut iron = lead.clone();
        iron.ammunition = Some("iron".into());
        assert!(check_ammunition(&iron, &sling, None, "")
            .unwrap_err()
            .message
            .contains("lead or stones"));
    }
}
