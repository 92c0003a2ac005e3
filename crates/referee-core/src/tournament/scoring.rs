//! An event's scoring settings as data (`rulesets/events/<id>.toml`, embedded like the presets;
//! a club's own in the data folder's `events/`): the event points a win, a draw, a loss and a
//! bye are worth, whether the battle's victory points count as event points (DBMM's 25 split),
//! and the tie-breaks in order. Texts come in from the caller; this module reads no files.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::RefereeError;
use crate::preset::preset_id;
use crate::ruleset::{parse_data_table, Layers, SourceFile};
use crate::ErrorCode;

/// The scoring settings shipped with the app: (file, text).
pub const BUILTIN_SCORING: &[(&str, &str)] = &[
    (
        "rulesets/events/win-draw-loss.toml",
        include_str!("../../../../rulesets/events/win-draw-loss.toml"),
    ),
    (
        "rulesets/events/dbmm-25.toml",
        include_str!("../../../../rulesets/events/dbmm-25.toml"),
    ),
    (
        "rulesets/events/participation-day.toml",
        include_str!("../../../../rulesets/events/participation-day.toml"),
    ),
];

/// A tie-break, in the order the settings name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    /// The battles' victory points, summed over the player's games (a bye's as the settings say).
    VictoryPoints,
    /// The event points of the player's opponents, summed (a bye counts none).
    StrengthOfSchedule,
    /// Among players still tied, the event points each scored in the games between them.
    HeadToHead,
}

/// How an event turns verdicts into event points and ranks its players.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct Scoring {
    /// The file stem (`dbmm-25`); filled in from the file's name.
    #[serde(default)]
    pub id: String,
    pub name: String,
    /// One plain sentence for the create form.
    #[serde(default)]
    pub description: String,
    /// The rule systems these settings suit (ruleset ids); empty for any.
    #[serde(default)]
    pub rulesets: Vec<String>,
    /// Where the settings come from (the rules' page, or the club's own).
    #[serde(default)]
    pub rule: String,
    pub win: f64,
    pub draw: f64,
    pub loss: f64,
    /// The battle's victory points are the event points (DBMM's 25 split as the sheets give
    /// it); win, draw and loss then add nothing unless set.
    #[serde(default)]
    pub victory_points_are_points: bool,
    /// The event points and victory points a bye is worth.
    pub bye_points: f64,
    #[serde(default)]
    pub bye_victory_points: f64,
    pub tie_breaks: Vec<TieBreak>,
    /// Shipped with the app, or a club's file.
    #[serde(default)]
    pub builtin: bool,
}

impl Scoring {
    /// Whether it reads the battles' victory points (as the event points or a tie-break): they
    /// mean one thing per rule system, so an event of several cannot use it (R-EVENT-6).
    pub fn reads_victory_points(&self) -> bool {
        self.victory_points_are_points || self.tie_breaks.contains(&TieBreak::VictoryPoints)
    }
}

/// Reads and checks one scoring file; errors name `file:line` and the key, in sentences.
pub fn load(file: SourceFile, builtin: bool) -> Result<Scoring, RefereeError> {
    let at = |path: &str| {
        Layers {
            base: file,
            house_rules: vec![],
        }
        .locate(path)
    };
    let table = parse_data_table(file, ErrorCode::EventInvalid)?;
    for key in ["id", "builtin"] {
        // Filled in by the app, never written in the file.
        if table.contains_key(key) {
            return Err(RefereeError::new(
                ErrorCode::EventInvalid,
                format!("Scoring settings do not set their {key}: remove the line."),
            )
            .location(at(key))
            .field(key));
        }
    }
    let mut s: Scoring =
        serde_path_to_error::deserialize(toml::Value::Table(table)).map_err(|e| {
            let path = e.path().to_string();
            let path = if path == "." { String::new() } else { path };
            let message = crate::error::plain_serde_error(e.inner().message(), &path);
            RefereeError::new(ErrorCode::EventInvalid, message)
                .location(at(&path))
                .field(path)
        })?;
    if let Some((path, message)) = problem(&s) {
        return Err(RefereeError::new(ErrorCode::EventInvalid, message)
            .location(at(&path))
            .field(path));
    }
    s.id = preset_id(file.name);
    s.builtin = builtin;
    Ok(s)
}

/// The first thing wrong with settings read: the key path and a sentence.
fn problem(s: &Scoring) -> Option<(String, String)> {
    if s.name.trim().is_empty() {
        return Some((
            "name".into(),
            "The settings' name is empty: give them one.".into(),
        ));
    }
    let points = [
        ("win", s.win),
        ("draw", s.draw),
        ("loss", s.loss),
        ("bye_points", s.bye_points),
        ("bye_victory_points", s.bye_victory_points),
    ];
    for (key, value) in points {
        if !value.is_finite() || value < 0.0 {
            let what = key.replace('_', " ");
            return Some((
                key.into(),
                format!("The points for a {what} must be 0 or more, not {value}."),
            ));
        }
    }
    if s.win < s.draw || s.draw < s.loss {
        return Some((
            "win".into(),
            "A win must be worth at least a draw, and a draw at least a loss.".into(),
        ));
    }
    for (i, r) in s.rulesets.iter().enumerate() {
        if r.trim().is_empty() {
            return Some((
                format!("rulesets[{i}]"),
                "A rule system of the list is empty: name it (dbmm, itacs …) or remove it.".into(),
            ));
        }
    }
    for (i, t) in s.tie_breaks.iter().enumerate() {
        if s.tie_breaks[..i].contains(t) {
            return Some((
                format!("tie_breaks[{i}]"),
                format!(
                    "The tie-break {} is named twice: name each once.",
                    tie_break_words(*t)
                ),
            ));
        }
    }
    None
}

/// A tie-break in the umpire's words.
pub fn tie_break_words(t: TieBreak) -> &'static str {
    match t {
        TieBreak::VictoryPoints => "victory points",
        TieBreak::StrengthOfSchedule => "strength of schedule",
        TieBreak::HeadToHead => "head to head",
    }
}

/// The scoring settings shipped with the app, loaded (each is checked by the tests below).
pub fn builtin_scorings() -> Vec<Scoring> {
    BUILTIN_SCORING
        .iter()
        .map(|&(name, text)| {
            load(SourceFile { name, text }, true)
                .unwrap_or_else(|e| panic!("{name} is shipped broken: {}", e.message))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_builtin_scoring_loads() {
        let ids: Vec<String> = builtin_scorings().into_iter().map(|s| s.id).collect();
        assert_eq!(ids, ["win-draw-loss", "dbmm-25", "participation-day"]);
        let [wdl, dbmm, day] = <[Scoring; 3]>::try_from(builtin_scorings()).unwrap();
        // R-EVENT-1: a bye is a 15–10 win.
        assert_eq!((dbmm.bye_points, dbmm.bye_victory_points), (15.0, 15.0));
        assert!(dbmm.victory_points_are_points && dbmm.builtin);
        // R-EVENT-6: only the participation day's suits an event of several systems.
        assert!(wdl.reads_victory_points() && dbmm.reads_victory_points());
        assert!(!day.reads_victory_points() && day.rulesets.is_empty());
    }

    const GOOD: &str = "name = \"Club\"\nwin = 3\ndraw = 1\nloss = 0\nbye_points = 3\ntie_breaks = [\"victory_points\"]\n";

    /// (the line changed or added, the line the error names, the sentence, or its start)
    const BAD: &[(&str, &str, u32, &str)] = &[
        (
            "tie_breaks = [\"victory_points\"]",
            "tie_breaks = [\"victory_points\", \"head_to_head\", \"victory_points\"]",
            6,
            "The tie-break victory points is named twice: name each once.",
        ),
        (
            "win = 3",
            "win = -1",
            2,
            "The points for a win must be 0 or more, not -1.",
        ),
        (
            "loss = 0",
            "loss = -1",
            4,
            "The points for a loss must be 0 or more, not -1.",
        ),
        (
            "draw = 1",
            "draw = 5",
            2,
            "A win must be worth at least a draw, and a draw at least a loss.",
        ),
        (
            "name = \"Club\"",
            "name = \" \"",
            1,
            "The settings' name is empty: give them one.",
        ),
        ("loss = 0", "loss = 0\ncolour = \"red\"", 5, ""),
        (
            "tie_breaks = [\"victory_points\"]",
            "tie_breaks = [\"coin_toss\"]",
            6,
            "",
        ),
        ("win = 3", "win = ", 2, ""),
        (
            "loss = 0",
            "loss = 0\nid = \"mine\"",
            5,
            "Scoring settings do not set their id: remove the line.",
        ),
        (
            "loss = 0",
            "loss = 0\nrulesets = [\"\"]",
            5,
            "A rule system of the list is empty",
        ),
    ];

    #[test]
    fn a_bad_file_is_refused_with_a_sentence_and_its_line() {
        fn file(text: &str) -> SourceFile<'_> {
            SourceFile {
                name: "events/club.toml",
                text,
            }
        }
        let good = load(file(GOOD), false).unwrap();
        assert_eq!((good.id.as_str(), good.builtin), ("club", false));
        for (from, to, line, sentence) in BAD {
            assert!(GOOD.contains(from), "{from}");
            let text = GOOD.replacen(from, to, 1);
            let e = load(file(&text), false).unwrap_err();
            assert_eq!(e.code, ErrorCode::EventInvalid, "{to}");
            assert_eq!(
                e.location.as_deref(),
                Some(format!("events/club.toml:{line}").as_str()),
                "{to}: {}",
                e.message
            );
            assert!(e.message.starts_with(sentence), "{to}: {}", e.message);
            let m = &e.message;
            assert!(
                (m.starts_with(char::is_uppercase) || m.starts_with('“'))
                    && m.ends_with('.')
                    && !m.contains('`'),
                "{to}: {m}"
            );
        }
    }
}
