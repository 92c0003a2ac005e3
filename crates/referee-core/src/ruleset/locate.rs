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

/// The line of `path` in `text`: of its last key, or of its last array element. `None` when any
/// part of the path is not in the text, so that a layer answers only for what it sets itself.
pub fn locate_path(text: &str, path: &str) -> Option<usize> {
    let root = DeTable::parse(text).ok()?;
    let mut value: Option<&Spanned<DeValue>> = None;
    let mut offset = None;
    for step in steps(path) {
        let next = match (step, value.map(Spanned::get_ref)) {
            (Step::Key(k), None) => find_key(root.get_ref(), k),
            (Step::Key(k), Some(DeValue::Table(t))) => find_key(t, k),
            (Step::Index(i), Some(DeValue::Array(a))) => a.get(i).map(|v| (v.span().start, v)),
            _ => None,
        }?;
        offset = Some(next.0);
        value = Some(next.1);
    }
    offset.map(|o| line_of_offset(text, o))
}

fn find_key<'t, 'i>(
    table: &'t DeTable<'i>,
    key: &str,
) -> Option<(usize, &'t Spanned<DeValue<'i>>)> {
    table
        .iter()
        .find(|(k, _)| k.get_ref().as_ref() == key)
        .map(|(k, v)| (k.span().start, v))
}
