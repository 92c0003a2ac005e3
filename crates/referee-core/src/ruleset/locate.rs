//! Finding the line of a key path (`terrain.swamp.melee`, `melee.results[3].min`) in TOML text.

use toml::de::{DeTable, DeValue};
use toml::Spanned;

/// 1-based line of a byte offset.
pub fn line_of_offset(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}

#[derive(Clone, Copy)]
enum Step<'p> {
    Key(&'p str),
    Index(usize),
}

fn steps(path: &str) -> Vec<Step<'_>> {
    let mut out = Vec::new();
    for part in path.split('.').filter(|p| !p.is_empty()) {
        let (key, rest) = part.split_once('[').unwrap_or((part, ""));
        if !key.is_empty() {
            out.push(Step::Key(key));
        }
        for index in rest.split('[') {
            if let Ok(i) = index.trim_end_matches(']').parse() {
                out.push(Step::Index(i));
            }
        }
    }
    out
}

/// The line of the deepest part of `path` that exists in `text`; `None` when not even its
/// first key does.
pub fn locate_path(text: &str, path: &str) -> Option<usize> {
    let root = DeTable::parse(text).ok()?;
    let mut found: Option<usize> = None;
    let mut table: Option<&DeTable> = Some(root.get_ref());
    let mut array: Option<&[Spanned<DeValue>]> = None;
    for step in steps(path) {
        let value: &Spanned<DeValue> = match (step, table, array) {
            (Step::Key(k), Some(t), _) => {
                let (key, value) = t.iter().find(|(key, _)| key.get_ref().as_ref() == k)?;
                found = Some(key.span().start);
                value
            }
            (Step::Index(i), _, Some(a)) => a.get(i)?,
            _ => break,
        };
        if !matches!(value.get_ref(), DeValue::Table(_)) || found.is_none() {
            found = Some(value.span().start);
        }
        match value.get_ref() {
            DeValue::Table(t) => {
                table = Some(t);
                array = None;
            }
            DeValue::Array(a) => {
                table = None;
                array = Some(a.as_ref());
            }
            _ => {
                table = None;
                array = None;
            }
        }
        if let Step::Index(_) = step {
            found = Some(value.span().start);
        }
    }
    found.map(|offset| line_of_offset(text, offset))
}
