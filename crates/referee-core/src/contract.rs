//! The one resolution contract every rule system answers with.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::odds::{Dist, Probability};

/// One dice-roll modifier with the rule it comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct Modifier {
    pub label: String,
    pub value: i64,
    pub rule: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub ruling: Option<String>,
}

impl Modifier {
    pub fn new(label: impl Into<String>, value: i64, rule: &str, ruling: Option<&str>) -> Modifier {
        Modifier {
            label: label.into(),
            value,
            rule: rule.to_string(),
            ruling: ruling.map(str::to_string),
        }
    }
}

/// A figure the resolution is built on: a strength, a ratio, the column used.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct Total {
    pub label: String,
    pub value: String,
    pub rule: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub ruling: Option<String>,
}

impl Total {
    pub fn new(
        label: impl Into<String>,
        value: impl Into<String>,
        rule: &str,
        ruling: Option<&str>,
    ) -> Total {
        Total {
            label: label.into(),
            value: value.into(),
            rule: rule.to_string(),
            ruling: ruling.map(str::to_string),
        }
    }
}

/// Something the umpire should know that is not a number: a flag, an ignored modifier.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct Note {
    pub message: String,
    pub rule: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub ruling: Option<String>,
}

impl Note {
    pub fn new(message: impl Into<String>, rule: &str, ruling: Option<&str>) -> Note {
        Note {
            message: message.into(),
            rule: rule.to_string(),
            ruling: ruling.map(str::to_string),
        }
    }
}

/// Who an effect applies to. In fire, the attacker is the firing side and the defender the hex
/// fired on, as the combat results table (10.7) names them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    Attacker,
    Defender,
    /// One hex, by the label the situation gave it.
    Hex(String),
    /// One unit or leader, by its label.
    Unit(String),
    /// A whole army, by the side's name.
    Army(String),
    /// Every unit (not a leader) under the command of the leader named by his label: the units
    /// of his side and command on the roster, each taking the whole change.
    Command(String),
    /// Every unit (not a leader) of the side of the leader or unit named by its label, each
    /// taking the whole change.
    SideOf(String),
    /// The army facing the leader or unit named by its label: a change to that side itself.
    EnemyOf(String),
    /// The units of the side of the leader or unit named by its label (`of`) that stand within
    /// so many inches of him: the map is the players', so they pick them as the result lands
    /// (none, if none is), each taking the whole change.
    Within {
        of: String,
        inches: u32,
    },
    /// The battle itself, not any army (a DBMM battle's clock): landed as a change of the first
    /// side, which the battle keeps for all.
    Battle,
}

/// The key an effect's target goes by in a mapping.
pub fn target_key(target: &Target) -> String {
    match target {
        Target::Attacker => "attacker".into(),
        Target::Defender => "defender".into(),
        Target::Hex(l) => format!("hex:{l}"),
        Target::Unit(l) => format!("unit:{l}"),
        Target::Army(s) => format!("army:{s}"),
        Target::Command(l) => format!("command:{l}"),
        Target::SideOf(l) => format!("side_of:{l}"),
        Target::EnemyOf(l) => format!("enemy_of:{l}"),
        Target::Within { of, inches } => format!("within_{inches}:{of}"),
        Target::Battle => "battle".into(),
    }
}

/// Which player makes a choice the rules leave open.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum Chooser {
    Attacker,
    Defender,
}

/// A change a roster can apply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Change {
    /// Place this many D (disruption) markers on the hex.
    DMarkers { count: u32 },
    /// Remove this many D markers (never below zero).
    RemoveDMarkers { count: u32 },
    /// Remove this many units, chosen by a player.
    LoseUnits { count: u32, chosen_by: Chooser },
    /// Every unit is destroyed.
    DestroyAll,
    /// The units must break: Break marker and an immediate rout move.
    MustBreak,
    /// The units break by choice: Break marker, rout move now or in their next movement phase.
    Break,
    /// Remove the Break marker.
    RemoveBreak,
    /// Place a Rout marker: the units make a rout move in their next movement phase.
    Rout,
    /// Remove the Rout marker.
    RemoveRout,
    /// Victory points awarded to the target side.
    VictoryPoints { points: u32 },
    /// The unit becomes another unit type (conversion).
    ConvertTo { unit_type: String },
    /// A leader is captured by the units that eliminated his stack.
    LeaderCaptured,
    /// A captured leader walks free.
    LeaderFreed,
    /// A leader is eliminated.
    LeaderKilled,
    /// GTS Table 1.10, 2: the leader is dazed, P −1 until the turn ends.
    LeaderDazed,
    /// GTS Table 1.10, 3: the leader is wounded, one grade less effective and PV +1.
    LeaderWounded,
    /// GTS Table 1.10, 4: the leader is unhorsed or unhelmed, out of play until the turn ends.
    LeaderUnhorsed,
    /// GTS Table 1.10, 5: the leader stays on the field until the turn ends, then passes out.
    LeaderSeriouslyWounded,
    /// GTS Table 1.10, 8: the units within 6" of the fallen leader take −1 to melees and command
    /// tests until the turn ends.
    NearFallenLeader,
    /// A rampaging elephant turns to face this direction and moves its full allowance.
    Rampage { direction: String },
    /// Lose this many strength points, spread as the player chooses.
    LoseSp { count: u32, chosen_by: Chooser },
    /// Retreat this many hexes from the combat hex.
    Retreat { hexes: u32 },
    /// The retreat ends on this hex, the last one it reaches along the route picked from the
    /// roster: the unit (or the leader retreating with it) now stands there (Medieval 5.4.2,
    /// 8.2.7, R-MED-44).
    RetreatTo { hex: String },
    /// The units are scattered: off the map onto the Scattered Units track.
    Scatter,
    /// Charge factor down by this much (never below 0).
    ReduceChargeFactor { by: u32 },
    /// Charge factor to 0.
    ResetChargeFactor,
    /// Move the MORALE track this many boxes in the target side's favour.
    Morale { boxes: i64 },
    /// If this result takes the unit off the table, the MORALE track moves this many boxes in
    /// the enemy's favour (Medieval 6.1.4); a unit the result leaves standing moves nothing.
    MoraleIfEliminated { boxes: i64 },
    /// The MORALE value in force becomes this, in the target side's favour, and the counter
    /// stands there (Medieval 6.1.9: set once a turn, in phase 9).
    MoraleInForce { value: i64 },
    /// The unit regroups: off the Scattered Units track, back on the map (Medieval 9.1.6).
    Regroup,
    /// A ranged unit turns its counter: to its movement side, or back to its combat side (Medieval
    /// 10.1.1, 10.1.3).
    Formation { movement: bool },
    /// A leader's fatigue level up (or, negative, down) by this much, never below 0 (Medieval
    /// 13.1).
    Fatigue { by: i32 },
    /// A leader's fatigue level becomes this (Medieval 13.1.3–13.1.6: the level a fatigue step
    /// gives, landed as it says, whatever the row held).
    FatigueLevel { level: u32 },
    /// The unit takes banners of its side, or passes them on (Medieval 7.1.4): one, or as many as
    /// it says (R-MED-49).
    Banner {
        held: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        count: Option<u32>,
    },
    /// Take this many hits (pips); a stand's worth removes a stand.
    Hits { count: u32 },
    /// The unit becomes Disordered.
    Disorder,
    /// The unit Routs.
    RoutUnit,
    /// The unit moves back this many inches.
    RecoilMove { inches: u32 },
    /// The victor advances to contact again (GTS 7.3).
    FollowUp,
    /// The unit recovers from Disorder (GTS 3.32).
    Recover,
    /// The unit's 1st-turn melee bonus is used (GTS 2.14): HM's once per battle, SH's until a
    /// leader's command point recovers it.
    FirstTurnSpent,
    /// A leader's command point recovers a unit's Shock capability (GTS 2.14, 0.0 A d).
    ShockRecovered,
    /// The unit is placed in Reserve, or (not placed) loses its Reserve chit by moving (GTS
    /// 3.31, 4.6).
    Reserve { placed: bool },
    /// A routed unit leaves the table: lost for good if its Rout is permanent, else off the
    /// table with one rally to return (GTS 4.312).
    RoutsOffTable,
    /// A GTS general's command points for this turn, from his command phase's roll (1.2): his
    /// spending starts again from none.
    CommandPoints { points: u32 },
    /// A GTS general spends this many of his command points this turn (1.7).
    SpendCommand { points: u32 },
    /// A GTS leader with no unit, contacted by an enemy unit, is moved anywhere within this many
    /// inches (6.25).
    LeaderMovedFromContact { inches: u32 },
    /// A DBMM element's outcome (recoil, repulsed, flee, spent, destroyed, pursue …), or a
    /// choice of two the player makes.
    ElementFate {
        #[schemars(with = "String")]
        #[ts(type = "string")]
        fate: crate::fate::FateChoice,
    },
    /// The stack forms a square, or is no longer one (ITACS 2.6.1).
    Square { formed: bool },
    /// A broken square must restack to the stacking limit at its next movement, or (not needed)
    /// its hex is within the limit again (ITACS 2.6.1).
    MustRestack { needed: bool },
    /// The units fired their throwing weapons: once per game (ITACS 6.6).
    ThrowingWeaponsUsed,
    /// Some of the entry's units leave it as a new roster entry with its own number and label,
    /// of the same side and type, carrying the markers of their hex; the losses stay with the
    /// units that remain (ITACS 4.3.3, R-ITACS-44).
    SplitOff {
        units: u32,
        into: u32,
        label: String,
    },
    /// The stack now stands in this hex, where its move ended (ITACS 4.3, 5.3.1), or its
    /// pursuit (Medieval 5.5, R-MED-45).
    EntersHex { hex: String },
    /// The battle's clock starts: the battle's first bound at its start time ("HH:MM"), in the
    /// climate and season whose dawn, sunrise, sunset and dusk it reads, with the Invader's
    /// first deployment die for the moon when given, and the weather when given (DBMM p. 23,
    /// 25, R-DBMM-39).
    BattleClock {
        start: String,
        climate: String,
        season: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        moon_die: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        weather: Option<String>,
    },
    /// The side records its decision at dusk to retreat rather than continue the battle at dawn
    /// (DBMM p. 23): the battle ends when both sides retreat.
    RetreatAtDusk,
    /// The terrain features a player chose within the limits, kept by the battle: the Invader or
    /// the Defender, and each feature's terrain type and size (DBMM p. 20).
    TerrainChosen {
        chooser: String,
        features: Vec<TerrainFeature>,
    },
}

/// One terrain feature a player chose: its terrain type as the sheet writes it (Wd, RH, BUA,
/// Rd …) and its size, or which road it is, as the table of sizes names it (DBMM p. 20).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct TerrainFeature {
    pub terrain: String,
    pub size: String,
}

/// "Wd, small; RH, medium": the features chosen in words.
pub fn features_text(features: &[TerrainFeature]) -> String {
    if features.is_empty() {
        return "none".into();
    }
    features
        .iter()
        .map(|f| format!("{}, {}", f.terrain, f.size.replace('_', " ")))
        .collect::<Vec<_>>()
        .join("; ")
}

/// One structured effect with its citation and a plain-words rendering.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct Effect {
    pub target: Target,
    pub change: Change,
    /// "Defender: +2 D markers": the target and the change in words.
    pub text: String,
    /// "+2 D markers": the change alone in words, for a screen that names the target by the
    /// units it lands on.
    pub what: String,
    pub rule: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub ruling: Option<String>,
}

/// An effect with its plain-words rendering.
pub fn effect(target: Target, change: Change, rule: &str, ruling: Option<&str>) -> Effect {
    let who = match &target {
        Target::Attacker => "Attacker".to_string(),
        Target::Defender => "Defender".to_string(),
        Target::Hex(label) => format!("Hex {label}"),
        Target::Unit(label) => label.clone(),
        Target::Army(side) => format!("Army {side}"),
        Target::Command(l) => format!("Every unit under the command of {l}"),
        Target::SideOf(l) => format!("Every unit of the side of {l}"),
        Target::EnemyOf(l) => format!("The enemy of {l}"),
        Target::Within { of, inches } => format!("The units within {inches}\" of {of}"),
        Target::Battle => "The battle".to_string(),
    };
    let what = match &change {
        Change::DMarkers { count: 1 } => "+1 D marker".to_string(),
        Change::DMarkers { count } => format!("+{count} D markers"),
        Change::LoseUnits { count, chosen_by } => {
            let chooser = match chosen_by {
                Chooser::Attacker => "attacker",
                Chooser::Defender => "defender",
            };
            let units = if *count == 1 { "unit" } else { "units" };
            format!("lose {count} {units} ({chooser}'s choice)")
        }
        Change::RemoveDMarkers { count: 1 } => "remove 1 D marker".to_string(),
        Change::RemoveDMarkers { count } => format!("remove {count} D markers"),
        Change::DestroyAll => "all units destroyed".to_string(),
        Change::MustBreak => "must break (Break marker, rout move after combat)".to_string(),
        Change::Break => "breaks (Break marker; rout move now or next movement phase)".to_string(),
        Change::RemoveBreak => "remove the Break marker".to_string(),
        Change::Rout => "Rout marker (rout move in its next movement phase)".to_string(),
        Change::RemoveRout => "remove the Rout marker".to_string(),
        Change::VictoryPoints { points } => format!("{points} victory points"),
        Change::ConvertTo { unit_type } => format!("becomes a {unit_type} unit"),
        Change::LeaderCaptured => "the leader is captured".to_string(),
        Change::LeaderFreed => "the leader walks free".to_string(),
        Change::LeaderKilled => "the leader is eliminated".to_string(),
        Change::LeaderDazed => "the leader is dazed (P −1 until the turn ends)".to_string(),
        Change::LeaderWounded => {
            "the leader is wounded (one grade less effective, PV +1)".to_string()
        }
        Change::LeaderUnhorsed => "the leader is out of play until the turn ends".to_string(),
        Change::LeaderSeriouslyWounded => {
            "the leader fights on until the turn ends, then passes out".to_string()
        }
        Change::NearFallenLeader => {
            "−1 to melees and command tests until the turn ends (the leader fell within 6\")"
                .to_string()
        }
        Change::Rampage { direction } => {
            format!("rampages: turns {direction} and moves its full allowance")
        }
        Change::LoseSp { count, chosen_by } => {
            let chooser = match chosen_by {
                Chooser::Attacker => "attacker",
                Chooser::Defender => "defender",
            };
            format!("lose {count} SP ({chooser}'s choice of unit)")
        }
        Change::Retreat { hexes: 1 } => "retreat 1 hex".to_string(),
        Change::Retreat { hexes } => format!("retreat {hexes} hexes"),
        Change::RetreatTo { hex } => format!("ends its retreat on hex {hex}"),
        Change::Scatter => "scattered (onto the Scattered Units track)".to_string(),
        Change::ReduceChargeFactor { by } => format!("charge factor −{by}"),
        Change::ResetChargeFactor => "charge factor to 0".to_string(),
        Change::Morale { boxes } => format!("MORALE track {boxes} boxes in its favour"),
        Change::MoraleIfEliminated { boxes: 1 } => {
            "if eliminated, MORALE track 1 box in the enemy's favour".to_string()
        }
        Change::MoraleIfEliminated { boxes } => {
            format!("if eliminated, MORALE track {boxes} boxes in the enemy's favour")
        }
        Change::MoraleInForce { value } => {
            format!("MORALE in force {value:+} in its favour from the next turn")
        }
        Change::Regroup => "regroups: back on the map from the Scattered Units track".to_string(),
        Change::Formation { movement: true } => "turns to movement formation".to_string(),
        Change::Formation { movement: false } => "turns to combat formation".to_string(),
        Change::Fatigue { by } if *by >= 0 => format!("fatigue +{by}"),
        Change::Fatigue { by } => format!("fatigue −{}", by.unsigned_abs()),
        Change::FatigueLevel { level } => format!("fatigue level {level}"),
        Change::Banner { held, count } => match (held, count.unwrap_or(1)) {
            (true, 1) => "takes a banner".to_string(),
            (true, n) => format!("takes {n} banners"),
            (false, 1) => "passes a banner on".to_string(),
            (false, n) => format!("passes {n} banners on"),
        },
        Change::Hits { count: 1 } => "takes 1 hit".to_string(),
        Change::Hits { count } => format!("takes {count} hits"),
        Change::Disorder => "Disordered".to_string(),
        Change::RoutUnit => "Routs".to_string(),
        Change::RecoilMove { inches } => format!("recoils {inches}\" straight back"),
        Change::FollowUp => "follows up to contact".to_string(),
        Change::Recover => "recovers from Disorder".to_string(),
        Change::FirstTurnSpent => "has used its 1st-turn melee bonus".to_string(),
        Change::ShockRecovered => "recovers its Shock capability".to_string(),
        Change::Reserve { placed: true } => "placed in Reserve".to_string(),
        Change::Reserve { placed: false } => "leaves Reserve".to_string(),
        Change::RoutsOffTable => "routs off the table".to_string(),
        Change::CommandPoints { points: 1 } => "1 command point this turn".to_string(),
        Change::CommandPoints { points } => format!("{points} command points this turn"),
        Change::SpendCommand { points: 1 } => "spends 1 command point".to_string(),
        Change::SpendCommand { points } => format!("spends {points} command points"),
        Change::LeaderMovedFromContact { inches } => {
            format!("contacted by the enemy, is moved anywhere within {inches}\"")
        }
        Change::ElementFate { fate } => fate.words(),
        Change::ThrowingWeaponsUsed => {
            "throwing weapons used (once per game: not again this battle)".to_string()
        }
        Change::EntersHex { hex } => format!("now in hex {hex}"),
        Change::SplitOff {
            units: 1, label, ..
        } => format!("1 unit leaves it as {label}"),
        Change::SplitOff { units, label, .. } => format!("{units} units leave it as {label}"),
        Change::Square { formed: true } => "forms a square".to_string(),
        Change::Square { formed: false } => "is no longer a square".to_string(),
        Change::MustRestack { needed: true } => {
            "broken square: must restack to the stacking limit at its next movement".to_string()
        }
        Change::MustRestack { needed: false } => "restacked: within the stacking limit".to_string(),
        Change::BattleClock {
            start,
            climate,
            season,
            moon_die,
            weather,
        } => {
            let moon = moon_die.map_or(String::new(), |d| format!(", the moon by a {d}"));
            let weather = weather.as_ref().map_or(String::new(), |w| {
                format!(", weather {}", w.replace('_', " "))
            });
            format!("the battle's first bound at {start}, {climate} {season}{moon}{weather}")
        }
        Change::RetreatAtDusk => "retreats at dusk rather than fight on at dawn".to_string(),
        Change::TerrainChosen { chooser, features } => {
            format!("the {chooser}'s terrain: {}", features_text(features))
        }
    };
    Effect {
        target,
        change,
        text: format!("{who}: {what}"),
        what,
        rule: rule.to_string(),
        ruling: ruling.map(str::to_string),
    }
}

/// One possible result with its exact probability.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct ResultOdds {
    pub result: String,
    pub meaning: String,
    /// The modified rolls that give it, e.g. ≤ 1, 2–8, 12+.
    pub rolls: String,
    /// Exact, as n/d.
    pub probability: String,
    /// The same, as a float for display only.
    pub p: f64,
    pub effects: Vec<Effect>,
}

/// The result for a given roll of the dice.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct Outcome {
    pub dice: Vec<u32>,
    pub roll: i64,
    pub modified: i64,
    pub result: String,
    pub meaning: String,
    pub effects: Vec<Effect>,
    /// An opposed roll, side by side: each side's die, its modifier and its total, so the
    /// header reads "A 7 + 2 = 9 · B 3 + 4 = 7". Empty when one side throws.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[ts(optional, as = "Option<Vec<SideThrow>>")]
    pub sides: Vec<SideThrow>,
}

/// One side's throw in an opposed roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct SideThrow {
    /// The side or element, as the resolution names it.
    pub label: String,
    pub die: u32,
    /// Everything added to the die, before any clamping.
    pub modifier: i64,
    /// The total the results compare (clamped where the rule clamps it).
    pub total: i64,
}

impl SideThrow {
    pub fn new(label: impl Into<String>, die: u32, modifier: i64, total: i64) -> SideThrow {
        SideThrow {
            label: label.into(),
            die,
            modifier,
            total,
        }
    }
}

/// A chained probability: what finally becomes of a hex or a side over every result, e.g.
/// "the target hex routs" given the D markers it already has.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct Chance {
    pub label: String,
    /// Exact, as n/d.
    pub probability: String,
    /// The same, as a float for display only.
    pub p: f64,
    pub rule: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub ruling: Option<String>,
}

impl Chance {
    pub fn new(label: impl Into<String>, probability: Probability, rule: &str) -> Chance {
        Chance {
            label: label.into(),
            probability: probability.to_string(),
            p: probability.to_f64(),
            rule: rule.to_string(),
            ruling: None,
        }
    }
}

/// Whether a condition of a checklist holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum CheckStatus {
    /// Holds, from what was entered.
    Met,
    /// Does not hold, from what was entered.
    NotMet,
    /// The umpire checks it on the table (the map, line of sight, paths).
    Umpire,
}

/// One condition of a checklist the umpire walks through, with its rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct Check {
    pub label: String,
    pub status: CheckStatus,
    pub rule: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub ruling: Option<String>,
}

impl Check {
    pub fn new(label: impl Into<String>, status: CheckStatus, rule: &str) -> Check {
        Check {
            label: label.into(),
            status,
            rule: rule.to_string(),
            ruling: None,
        }
    }

    /// A condition decided by what was entered.
    pub fn holds(label: impl Into<String>, holds: bool, rule: &str) -> Check {
        let status = if holds {
            CheckStatus::Met
        } else {
            CheckStatus::NotMet
        };
        Check::new(label, status, rule)
    }

    /// A condition only the umpire can see on the table.
    pub fn umpire(label: impl Into<String>, rule: &str) -> Check {
        Check::new(label, CheckStatus::Umpire, rule)
    }

    /// The ruling this reading of the condition rests on.
    pub fn ruling(mut self, ruling: Option<&str>) -> Check {
        self.ruling = ruling.map(str::to_string);
        self
    }
}

/// What every action of every system returns.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct Resolution {
    pub system: String,
    pub action: String,
    /// Dice notation of the roll, e.g. 2d6.
    pub dice: String,
    pub totals: Vec<Total>,
    pub modifiers: Vec<Modifier>,
    pub total_modifier: i64,
    pub distribution: Vec<ResultOdds>,
    /// Chained probabilities of what becomes of each hex or side.
    pub forecast: Vec<Chance>,
    /// Conditions the rules set, met or not, or for the umpire to check on the table.
    pub checks: Vec<Check>,
    pub notes: Vec<Note>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub outcome: Option<Outcome>,
    /// How the app shows it, filled in by the ruleset once the system has answered.
    #[serde(flatten)]
    #[ts(flatten)]
    pub shown: Shown,
}

/// What the app needs to show a resolution without knowing its system: the dice to enter, one by
/// one, and every result in words.
#[derive(Clone, Debug, Default, PartialEq, Serialize, TS)]
pub struct Shown {
    /// The dice of the throw, one by one, with the side throwing each in an opposed roll; none
    /// for an answer without dice, or a throw per unit the app cannot lay out.
    pub faces: Vec<crate::rule_system::Die>,
    /// Its dice are asked in turn (a chain of throws: a GTS melee round's roll-off, then the
    /// stand-loss checks, the recoil tests …): resolved with the faces entered so far, it lays out
    /// those dice and the next ones the rules call for, and gives its outcome once none is left.
    pub in_turn: bool,
    /// Each result as the screen names it: a table's code as printed ("1D", "A2R"), a result
    /// named by its key in words ("recoil_or_spent" → "Recoil or spent"), or the system's own
    /// words naming the units ("Knights loses 1 SP; Boyars retreats 2 hexes (-1/D2)").
    pub names: std::collections::BTreeMap<String, String>,
    /// What the modifiers move when it is not the dice, in the rules' words: Medieval's combat
    /// modifiers shift the column of the table, the roll itself never modified (1.5). Absent,
    /// they are added to the dice.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub modifiers_shift: Option<String>,
}

impl Resolution {
    /// The resolution with what the app shows of it.
    pub fn shown(mut self) -> Resolution {
        // A system that names its results in words (naming the units) keeps its names.
        let mut names = std::mem::take(&mut self.shown.names);
        let results = self
            .distribution
            .iter()
            .map(|d| d.result.as_str())
            .chain(self.outcome.as_ref().map(|o| o.result.as_str()));
        for result in results {
            names
                .entry(result.to_string())
                .or_insert_with(|| result_words(result));
        }
        // A system that names each die (a unit's own) has laid them out already.
        let faces = if self.shown.faces.is_empty() {
            crate::rule_system::dice_of(&self.dice).unwrap_or_default()
        } else {
            std::mem::take(&mut self.shown.faces)
        };
        self.shown = Shown {
            faces,
            in_turn: self.shown.in_turn,
            names,
            modifiers_shift: self.shown.modifiers_shift.take(),
        };
        self
    }

    /// Names a result in words for the screen; its key stays an identifier ("points_7" is
    /// "7 points").
    pub fn named(mut self, key: &str, words: impl Into<String>) -> Resolution {
        self.shown.names.insert(key.to_string(), words.into());
        self
    }

    /// An answer that involves no dice: its one result is certain, and it is also the outcome, so
    /// it can be applied like any rolled result.
    pub fn certain(
        system: &str,
        action: &str,
        result: &str,
        meaning: &str,
        effects: Vec<Effect>,
    ) -> Resolution {
        Resolution {
            shown: Shown::default(),
            system: system.to_string(),
            action: action.to_string(),
            dice: String::new(),
            totals: Vec::new(),
            modifiers: Vec::new(),
            total_modifier: 0,
            distribution: vec![ResultOdds::new(
                result,
                meaning,
                "—".to_string(),
                Probability::new(1, 1),
                effects.clone(),
            )],
            forecast: Vec::new(),
            checks: Vec::new(),
            notes: Vec::new(),
            outcome: Some(Outcome {
                dice: Vec::new(),
                roll: 0,
                modified: 0,
                result: result.to_string(),
                meaning: meaning.to_string(),
                effects,
                sides: Vec::new(),
            }),
        }
    }
}

impl ResultOdds {
    pub fn new(
        result: &str,
        meaning: &str,
        rolls: String,
        probability: Probability,
        effects: Vec<Effect>,
    ) -> ResultOdds {
        ResultOdds {
            result: result.to_string(),
            meaning: meaning.to_string(),
            rolls,
            probability: probability.to_string(),
            p: probability.to_f64(),
            effects,
        }
    }
}

/// The modified rolls of a distribution that give a result, as runs of rolls: 2, 4–6.
pub fn rolls_text(modified: &Dist<i64>, gives: impl Fn(i64) -> bool) -> String {
    let rolls: Vec<i64> = modified
        .outcomes()
        .map(|(r, _)| *r)
        .filter(|r| gives(*r))
        .collect();
    if rolls.is_empty() {
        return "—".to_string();
    }
    // Runs of consecutive rolls: `2, 4–6` (a column of a table need not give a result in one run).
    let mut parts: Vec<String> = Vec::new();
    let mut start = 0;
    for i in 1..=rolls.len() {
        if i == rolls.len() || rolls[i] != rolls[i - 1] + 1 {
            parts.push(if start == i - 1 {
                rolls[start].to_string()
            } else {
                format!("{}–{}", rolls[start], rolls[i - 1])
            });
            start = i;
        }
    }
    parts.join(", ")
}

/// The rules' abbreviations, as the rules write them.
const ABBREVIATIONS: &[(&str, &str)] = &[
    ("bua", "BUA"),
    ("pf", "PF"),
    ("tf", "TF"),
    ("me", "ME"),
    ("cf", "CF"),
    ("sp", "SP"),
    ("sps", "SPs"),
    ("zoc", "ZoC"),
    ("drm", "DRM"),
    ("pip", "PIP"),
    ("pips", "PIPs"),
    ("vp", "VP"),
    ("vps", "VPs"),
];

/// A key in words: "recoil_or_spent" → "Recoil or spent", "in_bua" → "In BUA".
pub fn key_words(key: &str) -> String {
    let words: Vec<String> = key
        .split(['_', ' '])
        .filter(|w| !w.is_empty())
        .map(|w| match ABBREVIATIONS.iter().find(|(k, _)| *k == w) {
            Some((_, a)) => a.to_string(),
            None if w.len() == 1 => w.to_uppercase(),
            None => w.to_string(),
        })
        .collect();
    let joined = words.join(" ");
    let mut chars = joined.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => key.to_string(),
    }
}

/// A result as the screen names it: a result named by its key in words, each of DBMM's two
/// fates too ("pursue/destroyed" → "Pursue / Destroyed"); a table's code as printed.
pub fn result_words(result: &str) -> String {
    let is_key = |part: &str| {
        part.chars().next().is_some_and(|c| c.is_ascii_lowercase())
            && part
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == '_' || c == ' ')
    };
    // A second result whose fates read like another's but act otherwise: "stand/destroyed (2)".
    let (key, number) = match result.rsplit_once(" (") {
        Some((key, n))
            if n.strip_suffix(')')
                .is_some_and(|n| n.parse::<u32>().is_ok()) =>
        {
            (key, Some(&n[..n.len() - 1]))
        }
        _ => (result, None),
    };
    if !key.is_empty() && key.split('/').all(is_key) {
        let words = key
            .split('/')
            .map(key_words)
            .collect::<Vec<_>>()
            .join(" / ");
        match number {
            Some(n) => format!("{words} ({n})"),
            None => words,
        }
    } else {
        result.to_string()
    }
}

#[cfg(test)]
mod words {
    use super::*;

    #[test]
    fn results_named_by_a_key_read_as_words_and_table_codes_stay() {
        for (key, words) in [
            ("recoil_or_spent", "Recoil or spent"),
            ("pursue/destroyed", "Pursue / Destroyed"),
            ("stand/destroyed (2)", "Stand / Destroyed (2)"),
            ("in_bua", "In BUA"),
            ("weather", "Weather"),
            ("1D", "1D"),
            ("A2R", "A2R"),
            ("B takes 3", "B takes 3"),
            ("-", "-"),
        ] {
            assert_eq!(result_words(key), words, "{key}");
        }
    }
}
