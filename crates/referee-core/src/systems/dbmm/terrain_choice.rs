//! Choosing terrain (p. 20): the features each player chooses, what each costs in FE and the
//! chooser's limits, from `[terrain_choice]` of `rulesets/dbmm-tables.toml` (read by R-DBMM-44).
//! Costs are counted in half FE, so ½ FE is a whole number.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::data::DbmmData;
use crate::contract::{
    effect, Change, Check, CheckStatus, Effect, Resolution, Target, TerrainFeature, Total,
};
use crate::error::RefereeError;
use crate::rule_system::fight::Opening;
use crate::rule_system::standing::{gauge, Gauge};
use crate::state::BattleState;
use crate::ErrorCode;

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FeatureSize {
    pub key: String,
    pub name: String,
    /// Its cost in half FE.
    pub halves: i64,
    /// Terrain types this size costs half as much for.
    #[serde(default)]
    pub halved_for: Vec<String>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TerrainChoice {
    pub rule: String,
    pub ruling: String,
    /// The Invader's least and most, in half FE.
    pub invader: [i64; 2],
    /// The Defender's least and most before what the Invader left, in half FE.
    pub defender: [i64; 2],
    /// The Invader's allowance the Defender may take up if the Invader leaves it, in half FE.
    pub invader_not_chosen_to_defender: i64,
    /// Terrain types the Invader may not choose.
    pub invader_not: Vec<String>,
    pub sizes: Vec<FeatureSize>,
    /// Terrain types that must be the smallest size.
    pub small_only: Vec<String>,
    pub most_halves_of_a_type: i64,
    pub most_non_compulsory_of_a_type: usize,
    pub most_half_fe_features: usize,
}

impl TerrainChoice {
    fn size(&self, key: &str) -> Option<&FeatureSize> {
        self.sizes.iter().find(|s| s.key == key)
    }
}

/// Who chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Chooser {
    Invader,
    Defender,
}

/// One feature chosen.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChosenFeature {
    /// Its terrain type: Wd, RH, BUA, Rd …
    pub terrain: String,
    /// Its size, or which road it is.
    pub size: String,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TerrainChoiceSituation {
    pub chooser: Chooser,
    /// The features this player chooses.
    pub features: Vec<ChosenFeature>,
    /// For the Defender: the features the Invader chose.
    #[serde(default)]
    pub invader_features: Vec<ChosenFeature>,
    /// The compulsory terrain types of the Defender's army list.
    #[serde(default)]
    pub compulsory: Vec<String>,
}

const ROADS: &[&str] = &["first_unpaved_road", "second_unpaved_road", "paved_road"];

/// ½, 1, 1½ … FE.
pub fn fe_text(halves: i64) -> String {
    match (halves / 2, halves % 2) {
        (0, 1) => "½ FE".into(),
        (whole, 1) => format!("{whole}½ FE"),
        (whole, _) => format!("{whole} FE"),
    }
}

fn terrain_codes(data: &DbmmData) -> Vec<&str> {
    data.setup
        .placement_order
        .iter()
        .flatten()
        .map(String::as_str)
        .collect()
}

/// Each feature's cost in half FE, its terrain and size checked (p. 20); `field` names the list.
fn costs(
    data: &DbmmData,
    features: &[ChosenFeature],
    field: &str,
) -> Result<Vec<i64>, RefereeError> {
    let t = &data.terrain_choice;
    let codes = terrain_codes(data);
    let code_list: Vec<String> = codes.iter().map(|c| c.to_string()).collect();
    let refuse = |i: usize, key: &str, message: String| {
        let code = if key == "terrain" {
            ErrorCode::SituationUnknownTerrain
        } else {
            ErrorCode::SituationInvalidField
        };
        RefereeError::new(code, message)
            .field(format!("{field}[{i}].{key}"))
            .rule(t.rule.clone())
            .ruling(t.ruling.clone())
    };
    features
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let code = f.terrain.trim();
            if !codes.contains(&code) {
                return Err(refuse(
                    i,
                    "terrain",
                    format!(
                        "{} is not a terrain of the sheet: {}",
                        crate::error::given(code),
                        crate::error::or_list(&code_list)
                    ),
                ));
            }
            let size = t.size(&f.size).ok_or_else(|| {
                let names: Vec<String> = t.sizes.iter().map(|s| s.name.clone()).collect();
                refuse(
                    i,
                    "size",
                    format!("choose its size: {}", crate::error::or_list(&names)),
                )
            })?;
            let road = ROADS.contains(&size.key.as_str());
            if road != (code == "Rd") {
                return Err(refuse(
                    i,
                    "size",
                    if road {
                        format!("only a road (Rd) is chosen as the {}", size.name)
                    } else {
                        "a road (Rd) is chosen as the first or second unpaved road, or a paved road"
                            .to_string()
                    },
                ));
            }
            Ok(if size.halved_for.iter().any(|h| h == code) {
                size.halves / 2
            } else {
                size.halves
            })
        })
        .collect()
}

pub fn terrain_choice(
    data: &DbmmData,
    s: &TerrainChoiceSituation,
) -> Result<Resolution, RefereeError> {
    let t = &data.terrain_choice;
    let rule = t.rule.as_str();
    let mine = costs(data, &s.features, "features")?;
    let theirs = costs(data, &s.invader_features, "invader_features")?;
    let total: i64 = mine.iter().sum();
    let mut checks = Vec::new();
    let (least, most, who) = match s.chooser {
        Chooser::Invader => (t.invader[0], t.invader[1], "The Invader"),
        Chooser::Defender => {
            let left = (t.invader_not_chosen_to_defender - theirs.iter().sum::<i64>()).max(0);
            (t.defender[0], t.defender[1] + left, "The Defender")
        }
    };
    checks.push(Check::holds(
        format!(
            "{who} chooses {} to {} (here {})",
            fe_text(least),
            fe_text(most),
            fe_text(total)
        ),
        (least..=most).contains(&total),
        rule,
    ));
    if s.chooser == Chooser::Invader {
        for not in &t.invader_not {
            checks.push(Check::holds(
                format!("The Invader does not choose {not}"),
                !s.features.iter().any(|f| f.terrain.trim() == not),
                rule,
            ));
        }
    }
    for f in &s.features {
        let code = f.terrain.trim();
        if t.small_only.iter().any(|o| o == code) {
            checks.push(Check::holds(
                format!("{code} is of ½ FE size"),
                t.size(&f.size).is_some_and(|z| z.halves == 1),
                rule,
            ));
        }
    }
    let mut by_type: BTreeMap<&str, (i64, usize)> = BTreeMap::new();
    for (f, cost) in s.features.iter().zip(&mine) {
        let entry = by_type.entry(f.terrain.trim()).or_default();
        entry.0 += cost;
        entry.1 += 1;
    }
    for (code, (halves, count)) in &by_type {
        checks.push(Check::holds(
            format!(
                "No more than {} of {code} (here {})",
                fe_text(t.most_halves_of_a_type),
                fe_text(*halves)
            ),
            *halves <= t.most_halves_of_a_type,
            rule,
        ));
        if !s.compulsory.iter().any(|c| c == code) {
            checks.push(Check::holds(
                format!(
                    "No more than {} non-compulsory {code} (here {count})",
                    t.most_non_compulsory_of_a_type
                ),
                *count <= t.most_non_compulsory_of_a_type,
                rule,
            ));
        }
    }
    let small = mine.iter().filter(|c| **c == 1).count();
    checks.push(Check::holds(
        format!(
            "No more than {} features of ½ FE (here {small})",
            t.most_half_fe_features
        ),
        small <= t.most_half_fe_features,
        rule,
    ));
    for road in ROADS.iter().take(2) {
        let count = s.features.iter().filter(|f| f.size == *road).count();
        if count > 1 {
            let name = t.size(road).map_or(*road, |z| z.name.as_str());
            checks.push(Check::holds(format!("Only one {name}"), false, rule));
        }
    }
    if s.chooser == Chooser::Defender {
        for code in &s.compulsory {
            let chosen = s
                .features
                .iter()
                .chain(&s.invader_features)
                .any(|f| f.terrain.trim() == code);
            checks.push(Check::holds(
                format!("At least one {code}, a compulsory type, is chosen"),
                chosen,
                rule,
            ));
        }
    }
    checks.push(
        Check::umpire(
            "Terrain is of the types the Defender's Army Book lists (S, WW for the Invader only if compulsory or permitted in his own; M beside water, D on a sea shore touching a beach for any army)",
            rule,
        ),
    );
    let checks: Vec<Check> = checks
        .into_iter()
        .map(|c| c.ruling(Some(&t.ruling)))
        .collect();
    let allowed = checks.iter().all(|c| c.status != CheckStatus::NotMet);
    let why: Vec<&str> = checks
        .iter()
        .filter(|c| c.status == CheckStatus::NotMet)
        .map(|c| c.label.as_str())
        .collect();
    let mut r = Resolution::certain(
        &data.system.id,
        "terrain_choice",
        if allowed {
            "may_choose"
        } else {
            "over_the_limits"
        },
        &if allowed {
            format!("{who} may choose these features: {}.", fe_text(total))
        } else {
            format!("{who} may not choose these features: {}.", why.join("; "))
        },
        // Within the limits, the battle keeps what was chosen (R-DBMM-49).
        if allowed {
            vec![chosen_effect(data, s)]
        } else {
            Vec::new()
        },
    );
    r.totals.push(Total::new(
        "FE chosen",
        fe_text(total),
        rule,
        Some(&t.ruling),
    ));
    for (f, cost) in s.features.iter().zip(&mine) {
        let size = t.size(&f.size).map_or("", |z| z.name.as_str());
        r.totals.push(Total::new(
            format!("{}, {size}", f.terrain.trim()),
            fe_text(*cost),
            rule,
            Some(&t.ruling),
        ));
    }
    r.checks = checks;
    Ok(r)
}

impl Chooser {
    /// As the rules name the player: "Invader", "Defender".
    pub fn name(self) -> &'static str {
        match self {
            Chooser::Invader => "Invader",
            Chooser::Defender => "Defender",
        }
    }
}

/// The effect that records the features on the battle, worded with the sizes' names (p. 20,
/// R-DBMM-49).
fn chosen_effect(data: &DbmmData, s: &TerrainChoiceSituation) -> Effect {
    let t = &data.terrain_choice;
    let features: Vec<TerrainFeature> = s
        .features
        .iter()
        .map(|f| TerrainFeature {
            terrain: f.terrain.trim().to_string(),
            size: f.size.clone(),
        })
        .collect();
    let words = chosen_words(data, &features);
    let mut e = effect(
        Target::Battle,
        Change::TerrainChosen {
            chooser: s.chooser.name().into(),
            features,
        },
        &t.rule,
        Some(RULING),
    );
    e.what = format!("the {}'s terrain: {words}", s.chooser.name());
    e.text = format!("{}.", crate::error::sentence(&e.what));
    e
}

/// Recording the terrain chosen on the battle is R-DBMM-49's reading.
pub const RULING: &str = "R-DBMM-49";

/// "Wd, area feature up to 480 × 480p; Rd, first unpaved road": the features in the table's
/// words.
pub fn chosen_words(data: &DbmmData, features: &[TerrainFeature]) -> String {
    if features.is_empty() {
        return "none".into();
    }
    features
        .iter()
        .map(|f| {
            let size = data
                .terrain_choice
                .size(&f.size)
                .map_or(f.size.replace('_', " "), |z| z.name.clone());
            format!("{}, {size}", f.terrain)
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Lands the terrain a player chose on the battle: a later choice by the same player replaces
/// the earlier (p. 20, R-DBMM-49). None when the change is not this one.
pub fn land(state: &mut BattleState, change: &Change) -> Option<()> {
    let Change::TerrainChosen { chooser, features } = change else {
        return None;
    };
    state.terrain.insert(chooser.clone(), features.clone());
    Some(())
}

/// The terrain chosen on the battle's standing, in words, one line a player (p. 20).
pub fn gauges(data: &DbmmData, state: &BattleState) -> Vec<Gauge> {
    [Chooser::Invader, Chooser::Defender]
        .into_iter()
        .filter_map(|c| {
            let features = state.terrain.get(c.name())?;
            let mut g = gauge(
                None,
                format!("Terrain chosen by the {}", c.name()),
                chosen_words(data, features),
                &data.terrain_choice.rule,
            );
            g.ruling = Some(RULING.into());
            Some(g)
        })
        .collect()
}

/// Choosing terrain opened from the battle: what was chosen, filled in. Once the Invader has
/// chosen, the Defender's choice opens with the Invader's features beside it (p. 20).
pub fn open_battle(state: &BattleState) -> Result<Opening, RefereeError> {
    let feature = |f: &TerrainFeature| ChosenFeature {
        terrain: f.terrain.clone(),
        size: f.size.clone(),
    };
    let of = |c: Chooser| -> Vec<ChosenFeature> {
        state
            .terrain
            .get(c.name())
            .map(|fs| fs.iter().map(feature).collect())
            .unwrap_or_default()
    };
    let invader = state.terrain.contains_key(Chooser::Invader.name());
    let chooser = if invader {
        Chooser::Defender
    } else {
        Chooser::Invader
    };
    let situation = TerrainChoiceSituation {
        chooser,
        features: of(chooser),
        invader_features: if invader {
            of(Chooser::Invader)
        } else {
            Vec::new()
        },
        compulsory: Vec::new(),
    };
    let asks = if state.terrain.is_empty() {
        vec![
            "The Invader chooses first: applied, the battle keeps the features chosen (p. 20)."
                .to_string(),
        ]
    } else {
        Vec::new()
    };
    Opening::new(&situation, Default::default(), asks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn resolve(s: serde_json::Value) -> Result<Resolution, RefereeError> {
        let data = super::super::test_data();
        let s: TerrainChoiceSituation = serde_json::from_value(s).unwrap();
        terrain_choice(&data, &s)
    }

    fn failed(r: &Resolution) -> Vec<String> {
        r.checks
            .iter()
            .filter(|c| c.status == CheckStatus::NotMet)
            .map(|c| c.label.clone())
            .collect()
    }

    #[test]
    fn each_feature_costs_its_fe_by_size() {
        // p. 20: ½ FE up to 480 × 480p; 1 FE up to 800 × 600p (GH, F halved); 2 FE up to
        // 1200 × 800p or linear; the first unpaved road free, the second and paved 1 FE.
        let r = resolve(json!({ "chooser": "defender", "features": [
            { "terrain": "Wd", "size": "small" },
            { "terrain": "GH", "size": "medium" },
            { "terrain": "RH", "size": "medium" },
            { "terrain": "Rv", "size": "linear" },
            { "terrain": "Rd", "size": "first_unpaved_road" },
        ]}))
        .unwrap();
        let costs: Vec<(&str, &str)> = r
            .totals
            .iter()
            .map(|t| (t.label.as_str(), t.value.as_str()))
            .collect();
        assert_eq!(
            costs,
            [
                ("FE chosen", "4 FE"),
                ("Wd, area feature up to 480 × 480p", "½ FE"),
                ("GH, area feature over 480 × 480p, up to 800 × 600p", "½ FE"),
                ("RH, area feature over 480 × 480p, up to 800 × 600p", "1 FE"),
                ("Rv, linear feature (not a road)", "2 FE"),
                ("Rd, first unpaved road", "0 FE"),
            ]
        );
        assert_eq!(r.outcome.as_ref().unwrap().result, "may_choose");
        assert!(failed(&r).is_empty(), "{:?}", failed(&r));
        assert!(r.totals.iter().all(|t| t.rule == "p. 20"));
    }

    #[test]
    fn the_features_chosen_land_on_the_battle_and_open_again() {
        // p. 20, R-DBMM-49: within the limits the battle keeps the features; over them, none.
        let data = super::super::test_data();
        let r = resolve(json!({ "chooser": "invader", "features": [
            { "terrain": "Wd", "size": "small" },
        ]}))
        .unwrap();
        let effects = &r.outcome.as_ref().unwrap().effects;
        assert_eq!(
            effects[0].text,
            "The Invader's terrain: Wd, area feature up to 480 × 480p."
        );
        assert_eq!(
            r.distribution[0].effects, *effects,
            "forecast is what lands"
        );
        let over = resolve(json!({ "chooser": "invader", "features": [
            { "terrain": "BUA", "size": "large" },
        ]}))
        .unwrap();
        assert!(over.outcome.unwrap().effects.is_empty());

        let mut state = BattleState::new(&crate::state::BattleSetup {
            name: "Test".into(),
            ruleset: "dbmm".into(),
            fingerprint: String::new(),
            sides: Vec::new(),
        });
        let opened = open_battle(&state).unwrap();
        assert_eq!(opened.situation["chooser"], "invader");
        land(&mut state, &effects[0].change).unwrap();
        let g = gauges(&data, &state);
        assert_eq!(g.len(), 1);
        assert_eq!(
            (g[0].label.as_str(), g[0].value.as_str(), g[0].rule.as_str()),
            (
                "Terrain chosen by the Invader",
                "Wd, area feature up to 480 × 480p",
                "p. 20"
            )
        );
        // Opened again: the Defender's turn, the Invader's features beside it.
        let opened = open_battle(&state).unwrap();
        assert_eq!(opened.situation["chooser"], "defender");
        assert_eq!(
            opened.situation["invader_features"],
            json!([{ "terrain": "Wd", "size": "small" }])
        );
    }

    #[test]
    fn over_the_limits_is_refused_in_words() {
        // The Invader: 0–2 FE, never BUA.
        let r = resolve(json!({ "chooser": "invader", "features": [
            { "terrain": "BUA", "size": "large" },
            { "terrain": "Wd", "size": "small" },
        ]}))
        .unwrap();
        assert_eq!(r.outcome.as_ref().unwrap().result, "over_the_limits");
        assert_eq!(
            failed(&r),
            [
                "The Invader chooses 0 FE to 2 FE (here 2½ FE)",
                "The Invader does not choose BUA"
            ]
        );
        assert_eq!(
            r.outcome.as_ref().unwrap().meaning,
            "The Invader may not choose these features: The Invader chooses 0 FE to 2 FE (here 2½ FE); The Invader does not choose BUA."
        );
        // The Defender: 2–4 FE and what the Invader left of his 2; at most 2 FE and 2
        // non-compulsory features of a type, 3 features of ½ FE; O, BF only ½ FE; compulsory types.
        let r = resolve(json!({
            "chooser": "defender",
            "invader_features": [{ "terrain": "Wd", "size": "medium" }],
            "compulsory": ["M"],
            "features": [
                { "terrain": "RH", "size": "small" },
                { "terrain": "RH", "size": "small" },
                { "terrain": "RH", "size": "small" },
                { "terrain": "O", "size": "large" },
                { "terrain": "Wd", "size": "large" },
                { "terrain": "Wd", "size": "small" },
            ]
        }))
        .unwrap();
        assert_eq!(
            failed(&r),
            [
                "The Defender chooses 2 FE to 5 FE (here 6 FE)",
                "O is of ½ FE size",
                "No more than 2 non-compulsory RH (here 3)",
                "No more than 2 FE of Wd (here 2½ FE)",
                "No more than 3 features of ½ FE (here 4)",
                "At least one M, a compulsory type, is chosen"
            ]
        );
        // Within them: the Invader left 1 FE, so the Defender may take 5.
        let r = resolve(json!({
            "chooser": "defender",
            "invader_features": [{ "terrain": "Wd", "size": "medium" }],
            "compulsory": ["M"],
            "features": [
                { "terrain": "M", "size": "large" },
                { "terrain": "RH", "size": "large" },
                { "terrain": "Rd", "size": "paved_road" },
            ]
        }))
        .unwrap();
        assert!(failed(&r).is_empty(), "{:?}", failed(&r));
        assert_eq!(
            r.outcome.unwrap().meaning,
            "The Defender may choose these features: 5 FE."
        );
    }

    #[test]
    fn an_unknown_terrain_or_a_road_sized_wrong_names_the_feature() {
        let e = resolve(
            json!({ "chooser": "invader", "features": [{ "terrain": "Jungle", "size": "small" }] }),
        )
        .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("features[0].terrain"));
        assert!(
            e.message
                .starts_with("“Jungle” is not a terrain of the sheet"),
            "{}",
            e.message
        );
        let e = resolve(
            json!({ "chooser": "invader", "features": [{ "terrain": "Rd", "size": "small" }] }),
        )
        .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("features[0].size"));
        let e = resolve(json!({ "chooser": "invader", "features": [{ "terrain": "Wd", "size": "paved_road" }] }))
            .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("features[0].size"));
    }
}
