//! A side's break gauges over the turns as one inline SVG line chart: each figure that moved, at
//! the start and at the end of each turn (solid, a dot per point), and its threshold (dashed, in
//! the figure's colour), on one scale from 0. A gauge that never moved is left out; a side none of
//! whose gauges moved has no chart.

use super::html::Html;
use super::Sample;

/// One gauge's figure and threshold at each sample.
pub struct Series {
    /// The gauge's name, without its side (the chart names the side).
    pub name: String,
    /// One per sample.
    pub points: Vec<Point>,
}

/// A gauge at a sample: none where it was not shown then.
pub struct Point {
    pub amount: Option<f64>,
    pub limit: Option<f64>,
}

impl Series {
    /// Its figure or threshold differs between two samples.
    fn moved(&self) -> bool {
        let first = self.points.first();
        self.points
            .iter()
            .any(|p| first.is_some_and(|f| p.amount != f.amount || p.limit != f.limit))
    }
}

/// A side's chart: the gauges of one side (or of both, the battle's own) that moved.
pub struct SideChart {
    /// The side, or "Both sides" for a battle-wide gauge (the MORALE track).
    pub side: String,
    /// "Start", "T1", …: one per sample.
    pub labels: Vec<String>,
    pub series: Vec<Series>,
}

/// One chart per side whose gauges moved, in the order the standings first show the sides; and
/// the gauges with a figure that never moved, by name, to say they were left out.
pub fn side_charts(samples: &[Sample]) -> (Vec<SideChart>, Vec<String>) {
    let mut sides: Vec<Option<String>> = Vec::new();
    let mut names: Vec<(Option<String>, String)> = Vec::new();
    for g in samples.iter().flat_map(|s| &s.gauges) {
        let key = (g.side.clone(), g.label.clone());
        if g.amount.is_some() && !names.contains(&key) {
            if !sides.contains(&g.side) {
                sides.push(g.side.clone());
            }
            names.push(key);
        }
    }
    let labels: Vec<String> = samples.iter().map(|s| s.label.clone()).collect();
    let mut still = Vec::new();
    let mut charts = Vec::new();
    for side in sides {
        let mut series = Vec::new();
        for (_, name) in names.iter().filter(|(s, _)| *s == side) {
            let s = Series {
                name: name.clone(),
                points: samples
                    .iter()
                    .map(|sample| {
                        let g = sample
                            .gauges
                            .iter()
                            .find(|g| g.side == side && g.label == *name);
                        Point {
                            amount: g.and_then(|g| g.amount),
                            limit: g.and_then(|g| g.limit),
                        }
                    })
                    .collect(),
            };
            if s.moved() {
                series.push(s);
            } else {
                still.push(match &side {
                    Some(side) => format!("{side}: {name}"),
                    None => name.clone(),
                });
            }
        }
        if !series.is_empty() {
            charts.push(SideChart {
                side: side.unwrap_or_else(|| "Both sides".into()),
                labels: labels.clone(),
                series,
            });
        }
    }
    (charts, still)
}

/// "3", "2.5": a figure as the gauges say it.
fn figure(v: f64) -> String {
    let s = format!("{v:.1}");
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}

const WIDTH: f64 = 360.0;
const HEIGHT: f64 = 150.0;
const LEFT: f64 = 40.0;
const RIGHT: f64 = 345.0;
const TOP: f64 = 12.0;
const BOTTOM: f64 = 122.0;
/// Past this many turns, only some are labelled on the axis.
const TURN_LABELS: usize = 12;

/// The figures' colours and dashes, told apart in print too; past the last, they start again.
const LINES: usize = 4;

pub fn draw(h: &mut Html, chart: &SideChart) {
    let values = || {
        chart
            .series
            .iter()
            .flat_map(|s| &s.points)
            .flat_map(|p| [p.amount, p.limit])
            .flatten()
    };
    let lo = values().fold(0.0_f64, f64::min);
    let mut hi = values().fold(lo, f64::max);
    if hi - lo < 1.0 {
        hi = lo + 1.0;
    }
    let n = chart.labels.len();
    let x = |i: usize| {
        if n <= 1 {
            (LEFT + RIGHT) / 2.0
        } else {
            LEFT + (RIGHT - LEFT) * i as f64 / (n - 1) as f64
        }
    };
    let y = |v: f64| BOTTOM - (BOTTOM - TOP) * (v - lo) / (hi - lo);
    let at = |v: f64| format!("{v:.1}");
    let line = |series: &Series, pick: fn(&Point) -> Option<f64>| {
        series
            .points
            .iter()
            .enumerate()
            .filter_map(|(i, p)| pick(p).map(|v| format!("{},{}", at(x(i)), at(y(v)))))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let names: Vec<&str> = chart.series.iter().map(|s| s.name.as_str()).collect();
    let label = format!(
        "{}: {}, at the start and at the end of each turn",
        chart.side,
        names.join(", ")
    );
    h.open(
        "svg",
        &[
            ("xmlns", "http://www.w3.org/2000/svg"),
            ("viewBox", &format!("0 0 {WIDTH} {HEIGHT}")),
            ("role", "img"),
            ("aria-label", &label),
        ],
    );
    h.element("title", &[], &label);
    for (x1, y1, x2, y2) in [(LEFT, TOP, LEFT, BOTTOM), (LEFT, BOTTOM, RIGHT, BOTTOM)] {
        h.empty(
            "line",
            &[
                ("class", "axis"),
                ("x1", &at(x1)),
                ("y1", &at(y1)),
                ("x2", &at(x2)),
                ("y2", &at(y2)),
            ],
        );
    }
    for v in [lo, hi] {
        h.element(
            "text",
            &[
                ("class", "scale"),
                ("x", &at(LEFT - 6.0)),
                ("y", &at(y(v) + 4.0)),
                ("text-anchor", "end"),
            ],
            &figure(v),
        );
    }
    for (k, series) in chart.series.iter().enumerate() {
        let limits = line(series, |p| p.limit);
        if !limits.is_empty() {
            h.empty(
                "polyline",
                &[("class", LIMIT_CLASSES[k % LINES]), ("points", &limits)],
            );
        }
        h.empty(
            "polyline",
            &[
                ("class", AMOUNT_CLASSES[k % LINES]),
                ("points", &line(series, |p| p.amount)),
            ],
        );
        for (i, point) in series.points.iter().enumerate() {
            if let Some(v) = point.amount {
                h.empty(
                    "circle",
                    &[
                        ("class", DOT_CLASSES[k % LINES]),
                        ("cx", &at(x(i))),
                        ("cy", &at(y(v))),
                        ("r", "2.5"),
                    ],
                );
            }
        }
    }
    let every = n.div_ceil(TURN_LABELS).max(1);
    for (i, name) in chart.labels.iter().enumerate() {
        if i % every == 0 || i + 1 == n {
            h.element(
                "text",
                &[
                    ("class", "scale"),
                    ("x", &at(x(i))),
                    ("y", &at(BOTTOM + 16.0)),
                    ("text-anchor", "middle"),
                ],
                name,
            );
        }
    }
    h.close("svg");
}

/// Each figure's line, dot and threshold by its place in the chart (the page's style sheet gives
/// each its colour and dash).
const AMOUNT_CLASSES: [&str; LINES] = ["amount l0", "amount l1", "amount l2", "amount l3"];
const DOT_CLASSES: [&str; LINES] = ["dot l0", "dot l1", "dot l2", "dot l3"];
const LIMIT_CLASSES: [&str; LINES] = ["limit l0", "limit l1", "limit l2", "limit l3"];
/// The legend's swatch of each figure.
pub const KEY_CLASSES: [&str; LINES] = ["key l0", "key l1", "key l2", "key l3"];

pub fn key_class(k: usize) -> &'static str {
    KEY_CLASSES[k % LINES]
}
