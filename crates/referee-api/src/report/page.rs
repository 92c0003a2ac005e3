//! The printable battle report: one self-contained HTML file (its style sheet inline, its charts
//! inline SVG; no script, no link, no image), dark on light, laid out for paper by @media print.

use super::chart::{draw, key_class, side_charts};
use super::html::Html;
use super::text::entry_line;
use super::{gauge_words, Source, Story, Workings};
use referee_core::RefereeError;

/// The printed pages' shared look (the battle report's and the event's standings): type,
/// headings and tables. Each page adds its own rules after it.
macro_rules! print_style_base {
    () => {
        "\
body{font:11pt/1.45 Georgia,'Times New Roman',serif;color:#111;background:#fff;\
max-width:60rem;margin:2rem auto;padding:0 1rem}\
h1{font-size:1.8em;margin:0 0 .2em}\
h2{font-size:1.3em;border-bottom:1px solid #888;margin:1.6em 0 .4em}\
h3{font-size:1.05em;margin:1.1em 0 .3em}\
table{border-collapse:collapse;width:100%;margin:.3em 0 1em}\
th,td{border:1px solid #bbb;padding:.2em .5em;text-align:left;vertical-align:top}\
th{background:#eee}"
    };
}
pub(crate) use print_style_base;

const STYLE: &str = concat!(print_style_base!(), "\
p{margin:.15em 0}.meta{color:#333}.rule{color:#555;font-size:.9em}\
ol,ul{margin:.2em 0 .6em;padding-left:1.6em}li{margin:.15em 0}\
.odds,.changes{color:#333;font-size:.92em}.reached{font-weight:bold}\
.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(17rem,1fr));gap:1rem}\
figure{margin:0}figcaption{font-size:.9em}svg{width:100%;height:auto}\
.axis{stroke:#444;stroke-width:1}.amount{fill:none;stroke-width:2}\
.limit{fill:none;stroke-width:1.5;stroke-dasharray:5 4}\
.amount.l0,.limit.l0{stroke:#1a4f8b}.dot.l0{fill:#1a4f8b}.key.l0{border-color:#1a4f8b}\
.amount.l1,.limit.l1{stroke:#a33}.dot.l1{fill:#a33}.key.l1{border-color:#a33}\
.amount.l2,.limit.l2{stroke:#2a7a2a}.dot.l2{fill:#2a7a2a}.key.l2{border-color:#2a7a2a}\
.amount.l3,.limit.l3{stroke:#7a4a00}.dot.l3{fill:#7a4a00}.key.l3{border-color:#7a4a00}\
.amount.l1{stroke-dasharray:8 2}.amount.l2{stroke-dasharray:2 2}.amount.l3{stroke-dasharray:8 2 2 2}\
.keys{list-style:none;padding:0;margin:.2em 0;font-size:.9em}\
.key{display:inline-block;width:1.6em;border-top:3px solid;vertical-align:middle;margin-right:.4em}\
.workings{color:#333;font-size:.92em}.workings ul{margin:.1em 0 .3em}\
.scale{font:10px sans-serif;fill:#333}\
@media print{body{margin:0;max-width:none;font-size:10pt}h2,h3{break-after:avoid}\
li,tr,figure{break-inside:avoid}}");

fn head(h: &mut Html, story: &Story) {
    h.fixed("<!DOCTYPE html>")
        .open("html", &[("lang", "en")])
        .open("head", &[])
        .empty("meta", &[("charset", "utf-8")])
        .empty(
            "meta",
            &[
                ("name", "viewport"),
                ("content", "width=device-width, initial-scale=1"),
            ],
        )
        .element("title", &[], &format!("{} — battle report", story.title))
        .open("style", &[])
        .fixed(STYLE)
        .close("style")
        .close("head");
    h.open("body", &[]).open("header", &[]);
    h.element("h1", &[], &story.title);
    h.element("p", &[("class", "meta")], &story.sides_words());
    h.element("p", &[("class", "meta")], &story.rules_words());
    h.element(
        "p",
        &[("class", "meta")],
        &format!("Began {}; last entry {}.", story.began, story.last),
    );
    h.close("header");
}

fn sides(h: &mut Html, story: &Story) {
    h.element("h2", &[], "Sides");
    for side in &story.sides {
        h.element("h3", &[], &side.name);
        if side.units.is_empty() {
            h.element("p", &[], "No units on the roster.");
            continue;
        }
        h.open("table", &[]).open("thead", &[]).open("tr", &[]);
        for column in ["Unit", "Type", "At the end"] {
            h.element("th", &[], column);
        }
        h.close("tr").close("thead").open("tbody", &[]);
        for unit in &side.units {
            h.open("tr", &[]);
            for cell in [&unit.label, &unit.kind, &unit.state] {
                h.element("td", &[], cell);
            }
            h.close("tr");
        }
        h.close("tbody").close("table");
    }
}

fn standing(h: &mut Html, story: &Story) {
    h.element("h2", &[], "Standing at the end");
    let verdicts = story.verdicts();
    if !verdicts.is_empty() {
        h.open("ul", &[]);
        for verdict in &verdicts {
            h.element("li", &[], verdict);
        }
        h.close("ul");
    }
    let mut groups: Vec<Option<&str>> = Vec::new();
    for g in &story.standing.gauges {
        if !groups.contains(&g.side.as_deref()) {
            groups.push(g.side.as_deref());
        }
    }
    for side in groups {
        h.element("h3", &[], side.unwrap_or("Both sides"));
        h.open("ul", &[]);
        for g in story
            .standing
            .gauges
            .iter()
            .filter(|g| g.side.as_deref() == side)
        {
            h.open(
                "li",
                &[("class", if g.reached { "reached" } else { "gauge" })],
            )
            .text(&gauge_words(g))
            .text(" ")
            .element("span", &[("class", "rule")], &format!("({})", g.rule))
            .close("li");
        }
        h.close("ul");
    }
}

fn charts(h: &mut Html, story: &Story) {
    let (charts, still) = side_charts(&story.samples);
    if charts.is_empty() && still.is_empty() {
        return;
    }
    h.element("h2", &[], "Break points over the turns");
    if charts.is_empty() {
        h.element(
            "p",
            &[("class", "meta")],
            "No break point moved during the battle.",
        );
    } else {
        h.element(
            "p",
            &[("class", "meta")],
            "One chart per side: each figure that moved, at the start and at the end of each turn (solid); its threshold, where it has one (dashed).",
        );
        h.open("div", &[("class", "charts")]);
        for chart in &charts {
            h.open("figure", &[]);
            draw(h, chart);
            h.open("figcaption", &[])
                .element("strong", &[], &chart.side);
            h.open("ul", &[("class", "keys")]);
            for (k, s) in chart.series.iter().enumerate() {
                h.open("li", &[])
                    .element("span", &[("class", key_class(k))], "")
                    .text(&s.name)
                    .close("li");
            }
            h.close("ul").close("figcaption").close("figure");
        }
        h.close("div");
    }
    if !still.is_empty() {
        h.element(
            "p",
            &[("class", "meta")],
            &format!("Unchanged throughout, not charted: {}.", still.join("; ")),
        );
    }
}

/// What a result was worked out from: the situation's figures, then the modifiers.
fn workings(h: &mut Html, w: &Workings) {
    h.open("div", &[("class", "workings")]);
    if !w.situation.is_empty() {
        h.element("p", &[], "The situation:");
        h.open("ul", &[]);
        for line in &w.situation {
            h.element("li", &[], line);
        }
        h.close("ul");
    }
    if !w.modifiers.is_empty() {
        let head = match &w.on_dice {
            Some(sum) => format!("Modifiers ({sum}):"),
            None => "Modifiers:".to_string(),
        };
        h.element("p", &[], &head);
        h.open("ul", &[]);
        for line in &w.modifiers {
            h.element("li", &[], line);
        }
        h.close("ul");
    }
    h.close("div");
}

/// A sentence's full stop, once: "… 3 hexes." stays, never "… 3 hexes..".
fn full_stop(text: &str) -> String {
    if text.ends_with(['.', '!', '?']) {
        text.to_string()
    } else {
        format!("{text}.")
    }
}

fn turns(h: &mut Html, story: &Story) {
    h.element("h2", &[], "Turn by turn");
    for turn in &story.turns {
        h.element("h3", &[], &turn.heading);
        h.open("ol", &[]);
        for entry in &turn.entries {
            h.open("li", &[]);
            let text = match &entry.roll {
                Some(_) => entry.text.clone(),
                None => entry_line(entry),
            };
            h.element("p", &[], &text);
            if let Some(roll) = &entry.roll {
                let mut odds = match &roll.chance {
                    Some(c) => format!("Result {}: chance {}", roll.result, c.words()),
                    None => format!("Result {}", roll.result),
                };
                if !roll.meaning.is_empty() && roll.meaning != roll.result {
                    odds = format!("{odds} — {}", roll.meaning);
                }
                if entry.corrected {
                    odds.push_str(" (roll corrected)");
                }
                h.element("p", &[("class", "odds")], &full_stop(&odds));
                let all: Vec<String> = roll
                    .distribution
                    .iter()
                    .map(|c| format!("{} {}", c.result, c.words()))
                    .collect();
                h.element(
                    "p",
                    &[("class", "odds")],
                    &format!("The roll could give: {}.", all.join(" · ")),
                );
                if !entry.changes.is_empty() {
                    h.element("p", &[("class", "changes")], &entry.changes.join("; "));
                }
            }
            if let Some(w) = &entry.workings {
                workings(h, w);
            }
            h.close("li");
        }
        h.close("ol");
    }
    if let Some(words) = story.left_out_words() {
        h.element("p", &[("class", "meta")], &words);
    }
}

/// The battle report as one HTML file.
pub fn html_report(source: &Source) -> Result<String, RefereeError> {
    let story = Story::tell(source)?;
    let mut h = Html::default();
    head(&mut h, &story);
    sides(&mut h, &story);
    standing(&mut h, &story);
    charts(&mut h, &story);
    turns(&mut h, &story);
    h.open("footer", &[])
        .element(
            "p",
            &[("class", "meta")],
            "Resolved and recorded by the tabletop referee: every chance is exact.",
        )
        .close("footer")
        .close("body")
        .close("html");
    Ok(h.finish())
}
