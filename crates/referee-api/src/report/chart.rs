//! A break gauge over the turns as an inline SVG line chart: its figure at the end of each turn
//! (solid, with a dot per turn) and its threshold (dashed), on one scale from 0.

use super::html::Html;
use super::{gauge_name, Sample};

/// One gauge's figure and threshold at the end of each turn.
pub struct Series {
    pub name: String,
    /// One per sample.
    pub points: Vec<Point>,
}

/// A gauge at the end of a turn: none where it was not shown then.
pub struct Point {
    pub turn: u32,
    pub amount: Option<f64>,
    pub limit: Option<f64>,
}

/// Every gauge with a figure, in the order the standings first show them.
pub fn gauge_series(samples: &[Sample]) -> Vec<Series> {
    let mut names: Vec<String> = Vec::new();
    for g in samples.iter().flat_map(|s| &s.gauges) {
        let name = gauge_name(g);
        if g.amount.is_some() && !names.contains(&name) {
            names.push(name);
        }
    }
    names
        .into_iter()
        .map(|name| Series {
            points: samples
                .iter()
                .map(|s| {
                    let g = s.gauges.iter().find(|g| gauge_name(g) == name);
                    Point {
                        turn: s.turn,
                        amount: g.and_then(|g| g.amount),
                        limit: g.and_then(|g| g.limit),
                    }
                })
                .collect(),
            name,
        })
        .collect()
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

pub fn draw(h: &mut Html, series: &Series) {
    let values = || {
        series
            .points
            .iter()
            .flat_map(|p| [p.amount, p.limit])
            .flatten()
    };
    let lo = values().fold(0.0_f64, f64::min);
    let mut hi = values().fold(lo, f64::max);
    if hi - lo < 1.0 {
        hi = lo + 1.0;
    }
    let n = series.points.len();
    let x = |i: usize| {
        if n <= 1 {
            (LEFT + RIGHT) / 2.0
        } else {
            LEFT + (RIGHT - LEFT) * i as f64 / (n - 1) as f64
        }
    };
    let y = |v: f64| BOTTOM - (BOTTOM - TOP) * (v - lo) / (hi - lo);
    let at = |v: f64| format!("{v:.1}");
    let line = |pick: fn(&Point) -> Option<f64>| {
        series
            .points
            .iter()
            .enumerate()
            .filter_map(|(i, p)| pick(p).map(|v| format!("{},{}", at(x(i)), at(y(v)))))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let label = format!("{}, at the end of each turn", series.name);
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
    let limits = line(|p| p.limit);
    if !limits.is_empty() {
        h.empty("polyline", &[("class", "limit"), ("points", &limits)]);
    }
    h.empty(
        "polyline",
        &[("class", "amount"), ("points", &line(|p| p.amount))],
    );
    let every = n.div_ceil(TURN_LABELS).max(1);
    for (i, point) in series.points.iter().enumerate() {
        if let Some(v) = point.amount {
            h.empty(
                "circle",
                &[
                    ("class", "dot"),
                    ("cx", &at(x(i))),
                    ("cy", &at(y(v))),
                    ("r", "2.5"),
                ],
            );
        }
        if i % every == 0 || i + 1 == n {
            h.element(
                "text",
                &[
                    ("class", "scale"),
                    ("x", &at(x(i))),
                    ("y", &at(BOTTOM + 16.0)),
                    ("text-anchor", "middle"),
                ],
                &format!("T{}", point.turn),
            );
        }
    }
    h.close("svg");
}
