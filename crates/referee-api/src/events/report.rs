//! An event shared: the printable report (one self-contained HTML page: no script, no link, its
//! style sheet inline, laid out for paper) and the CSV of the standings and games, with the
//! names they are offered under.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use referee_core::error::counted;
use referee_core::tournament::{Game, GameResult, Outcome, ResultSource};
use referee_core::RefereeError;

use super::{number, EventView};
use crate::report::html::Html;
use crate::{Battles, Referee};

/// What of an event is saved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum EventDocument {
    /// The printable report: one HTML page.
    Report,
    /// The standings and games as a spreadsheet's CSV.
    Csv,
}

impl EventDocument {
    pub fn extension(self) -> &'static str {
        match self {
            EventDocument::Report => "html",
            EventDocument::Csv => "csv",
        }
    }

    /// The kind of file, as a save dialog's filter names it.
    pub fn kind_words(self) -> &'static str {
        match self {
            EventDocument::Report => "Web page",
            EventDocument::Csv => "Spreadsheet (CSV)",
        }
    }

    /// Where a saved file went, in words.
    pub fn saved_words(self, path: &std::path::Path) -> String {
        let (name, folder) = crate::share::where_saved(path);
        match self {
            EventDocument::Report => format!("The event's standings are saved as “{name}”{folder}: open it in a browser to print it or save it as PDF."),
            EventDocument::Csv => format!("The event's standings are saved as “{name}”{folder}: open it in a spreadsheet."),
        }
    }
}

/// "<event name> standings.html": the name in letters, digits, spaces and dashes.
pub fn event_file_name(event: &str, document: EventDocument) -> String {
    let kept: String = event
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '_' | '-'))
        .collect();
    let stem = kept.split_whitespace().collect::<Vec<_>>().join(" ");
    let stem = if stem.is_empty() { "event" } else { &stem };
    format!("{stem} standings.{}", document.extension())
}

const STYLE: &str = concat!(
    crate::report::print_style_base!(),
    "\
p{margin:.15em 0}.meta{color:#333}.how{color:#555;font-size:.9em}\
td.n{text-align:right}\
@media print{body{margin:0;max-width:none;font-size:10pt}h2,h3{break-after:avoid}\
tr{break-inside:avoid}}"
);

/// How a result was reached, in words.
fn how(result: &GameResult) -> &'static str {
    match result.source {
        ResultSource::Battle { .. } => "from the battle at this table's device, its record checked",
        ResultSource::File { .. } => "from the battle file imported, its record checked",
        ResultSource::Hand => "entered by hand",
    }
}

/// The system a table plays, for the System column an event of several systems has (none at an
/// event of one; blank while the table's system is not known yet).
fn system_cell(referee: &Referee, view: &EventView, game: &Game) -> Option<String> {
    (view.tournament.setup.rulesets.len() > 1).then(|| {
        game.ruleset
            .as_deref()
            .map(|id| super::system_words(referee, id))
            .unwrap_or_default()
    })
}

fn outcome_words(o: Outcome) -> &'static str {
    match o {
        Outcome::Win => "win",
        Outcome::Draw => "draw",
        Outcome::Loss => "loss",
    }
}

/// "Anna: win, 18 VP; Boris: loss, 7 VP".
fn result_line(result: &GameResult) -> String {
    result
        .players
        .iter()
        .map(|p| {
            let vp = p
                .victory_points
                .map(|v| format!(", {} VP", number(v)))
                .unwrap_or_default();
            format!("{}: {}{vp}", p.player, outcome_words(p.outcome))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

const STANDING_COLUMNS: [&str; 11] = [
    "Rank",
    "Player",
    "Army",
    "Played",
    "Won",
    "Drawn",
    "Lost",
    "Byes",
    "Points",
    "Victory points",
    "Strength of schedule",
];
/// Where "Victory points" stands among the standings' columns.
const VICTORY_POINTS_COLUMN: usize = 9;

/// A standings row as printed: "Victory points" only where the scoring reads them — at an event
/// whose scoring reads none (several systems, R-EVENT-6) their sum would add up counts of
/// different rules.
fn printed<T>(view: &EventView, row: [T; 11]) -> Vec<T> {
    let with_vp = view.scoring.reads_victory_points();
    row.into_iter()
        .enumerate()
        .filter(|(i, _)| with_vp || *i != VICTORY_POINTS_COLUMN)
        .map(|(_, c)| c)
        .collect()
}

fn standing_cells(view: &EventView) -> Vec<Vec<String>> {
    view.standings
        .iter()
        .map(|r| {
            printed(
                view,
                [
                    format!("{}{}", r.rank, if r.shared { "=" } else { "" }),
                    r.player.clone(),
                    r.army.clone(),
                    r.played.to_string(),
                    r.wins.to_string(),
                    r.draws.to_string(),
                    r.losses.to_string(),
                    r.byes.to_string(),
                    number(r.points),
                    number(r.victory_points),
                    number(r.strength_of_schedule),
                ],
            )
        })
        .collect()
}

pub(super) fn html(referee: &Referee, view: &EventView) -> String {
    let t = &view.tournament;
    let several = t.setup.rulesets.len() > 1;
    let mut h = Html::default();
    h.fixed("<!DOCTYPE html>")
        .open("html", &[("lang", "en")])
        .open("head", &[])
        .empty("meta", &[("charset", "utf-8")])
        .element("title", &[], &format!("{} — standings", t.setup.name))
        .open("style", &[])
        .fixed(STYLE)
        .close("style")
        .close("head")
        .open("body", &[])
        .open("header", &[]);
    h.element("h1", &[], &t.setup.name);
    h.element(
        "p",
        &[("class", "meta")],
        &format!(
            "{}; scoring: {}{}; {}, {} of {} paired.",
            view.ruleset_name,
            view.scoring.name,
            if view.scoring.rule.is_empty() {
                String::new()
            } else {
                format!(" ({})", view.scoring.rule)
            },
            counted(t.players.len() as i64, "player", "players"),
            t.rounds.len(),
            counted(i64::from(view.rounds_planned), "round", "rounds")
        ),
    );
    h.close("header");

    if let Some(last) = t.rounds.last() {
        h.element("h2", &[], &format!("Round {} pairings", last.number));
        h.open("table", &[]).open("tr", &[]);
        for c in [
            "Table", "System", "Player", "Army", "Player", "Army", "Result",
        ] {
            if c != "System" || several {
                h.element("th", &[], c);
            }
        }
        h.close("tr");
        for g in &last.games {
            let army = |n: &str| t.player(n).map(|p| p.army.clone()).unwrap_or_default();
            h.open("tr", &[]);
            h.element("td", &[("class", "n")], &g.pairing.table.to_string());
            if let Some(system) = system_cell(referee, view, g) {
                h.element("td", &[], &system);
            }
            h.element("td", &[], &g.pairing.a);
            h.element("td", &[], &army(&g.pairing.a));
            h.element("td", &[], &g.pairing.b);
            h.element("td", &[], &army(&g.pairing.b));
            h.element(
                "td",
                &[],
                &g.result
                    .as_ref()
                    .map_or_else(|| "waiting".to_string(), result_line),
            );
            h.close("tr");
        }
        h.close("table");
        if let Some(bye) = &last.bye {
            h.element("p", &[], &format!("Bye: {bye}."));
        }
    }

    h.element("h2", &[], "Standings");
    h.element(
        "p",
        &[("class", "how")],
        &format!(
            "Ranked by points, then {}; “=” marks a shared rank.",
            view.scoring
                .tie_breaks
                .iter()
                .map(|b| referee_core::tournament::scoring::tie_break_words(*b))
                .collect::<Vec<_>>()
                .join(", then ")
        ),
    );
    h.open("table", &[]).open("tr", &[]);
    for c in printed(view, STANDING_COLUMNS) {
        h.element("th", &[], c);
    }
    h.close("tr");
    for row in standing_cells(view) {
        h.open("tr", &[]);
        for (i, cell) in row.iter().enumerate() {
            if i == 1 || i == 2 {
                h.element("td", &[], cell);
            } else {
                h.element("td", &[("class", "n")], cell);
            }
        }
        h.close("tr");
    }
    h.close("table");

    h.element("h2", &[], "Games");
    for round in &t.rounds {
        h.element("h3", &[], &format!("Round {}", round.number));
        h.open("table", &[]).open("tr", &[]);
        for c in [
            "Table",
            "System",
            "Players",
            "Result",
            "Verdict",
            "How it was reached",
        ] {
            if c != "System" || several {
                h.element("th", &[], c);
            }
        }
        h.close("tr");
        for g in &round.games {
            h.open("tr", &[]);
            h.element("td", &[("class", "n")], &g.pairing.table.to_string());
            if let Some(system) = system_cell(referee, view, g) {
                h.element("td", &[], &system);
            }
            h.element(
                "td",
                &[],
                &format!("{} against {}", g.pairing.a, g.pairing.b),
            );
            match &g.result {
                Some(r) => {
                    h.element("td", &[], &result_line(r));
                    let verdict = if r.rule.is_empty() {
                        r.words.clone()
                    } else {
                        format!("{} ({})", r.words, r.rule)
                    };
                    h.element("td", &[], &verdict);
                    h.element("td", &[], how(r));
                }
                None => {
                    h.element("td", &[], "waiting");
                    h.element("td", &[], "");
                    h.element("td", &[], "");
                }
            }
            h.close("tr");
        }
        h.close("table");
        if let Some(bye) = &round.bye {
            h.element("p", &[], &format!("Bye: {bye}."));
        }
    }
    h.close("body").close("html");
    h.finish()
}

pub(super) fn csv(referee: &Referee, view: &EventView) -> Result<String, RefereeError> {
    let writer = |bytes: Vec<u8>| {
        csv::WriterBuilder::new()
            .flexible(true)
            .terminator(csv::Terminator::CRLF)
            .from_writer(bytes)
    };
    let mut out = writer(Vec::new());
    fn failed<E>(_: E) -> RefereeError {
        RefereeError::new(
            referee_core::ErrorCode::EventInvalid,
            "The standings could not be written as a spreadsheet.",
        )
    }
    out.write_record(printed(view, STANDING_COLUMNS))
        .map_err(failed)?;
    for row in standing_cells(view) {
        out.write_record(&row).map_err(failed)?;
    }
    // A blank line between the two tables (a record of one empty field would be `""`).
    let mut bytes = out.into_inner().map_err(failed)?;
    bytes.extend_from_slice(b"\r\n");
    let mut out = writer(bytes);
    let several = view.tournament.setup.rulesets.len() > 1;
    let mut header = vec!["Round", "Table"];
    if several {
        header.push("System");
    }
    header.extend([
        "Player",
        "Result",
        "Victory points",
        "Player",
        "Result",
        "Victory points",
        "Verdict",
        "How it was reached",
    ]);
    out.write_record(&header).map_err(failed)?;
    for round in &view.tournament.rounds {
        for g in &round.games {
            let mut cells = vec![round.number.to_string(), g.pairing.table.to_string()];
            cells.extend(system_cell(referee, view, g));
            match &g.result {
                Some(r) => {
                    for p in &r.players {
                        cells.push(p.player.clone());
                        cells.push(outcome_words(p.outcome).to_string());
                        cells.push(p.victory_points.map(number).unwrap_or_default());
                    }
                    cells.push(r.words.clone());
                    cells.push(how(r).to_string());
                }
                None => {
                    for p in [&g.pairing.a, &g.pairing.b] {
                        cells.extend([p.clone(), "waiting".into(), String::new()]);
                    }
                    cells.extend([String::new(), String::new()]);
                }
            }
            out.write_record(&cells).map_err(failed)?;
        }
        if let Some(bye) = &round.bye {
            let mut cells = vec![round.number.to_string(), String::new()];
            if several {
                cells.push(String::new());
            }
            cells.extend([bye.clone(), "bye".into()]);
            out.write_record(&cells).map_err(failed)?;
        }
    }
    let bytes = out.into_inner().map_err(failed)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

impl Battles {
    /// The printable report: one self-contained HTML page, every name escaped.
    pub fn event_report(&mut self, referee: &Referee, id: i64) -> Result<String, RefereeError> {
        Ok(html(referee, &self.event_view(referee, id)?))
    }

    /// The standings, then the games, as CSV (RFC 4180: quoted where needed, CRLF lines).
    pub fn event_csv(&mut self, referee: &Referee, id: i64) -> Result<String, RefereeError> {
        csv(referee, &self.event_view(referee, id)?)
    }

    /// The document's text and the name it is offered under.
    pub fn event_shared(
        &mut self,
        referee: &Referee,
        id: i64,
        document: EventDocument,
    ) -> Result<(String, String), RefereeError> {
        let view = self.event_view(referee, id)?;
        let text = match document {
            EventDocument::Report => html(referee, &view),
            EventDocument::Csv => csv(referee, &view)?,
        };
        Ok((event_file_name(&view.tournament.setup.name, document), text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_victory_points_column_is_where_it_is_said() {
        assert_eq!(STANDING_COLUMNS[VICTORY_POINTS_COLUMN], "Victory points");
    }

    #[test]
    fn a_file_is_named_after_its_event() {
        assert_eq!(
            event_file_name("Cold Wars <2026>", EventDocument::Csv),
            "Cold Wars 2026 standings.csv"
        );
        assert_eq!(
            event_file_name("../", EventDocument::Report),
            "event standings.html"
        );
    }
}
