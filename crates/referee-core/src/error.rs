//! Typed errors with stable codes and messages a player understands.

use serde::Serialize;
use ts_rs::TS;

use crate::ErrorCode;

/// An error a player or umpire sees: a stable `code` (documented in docs/api.md), a message
/// that says what is wrong and what to do, the field or file location, and the rule it rests on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS, thiserror::Error)]
#[error("{message}")]
pub struct RefereeError {
    pub code: ErrorCode,
    pub message: String,
    /// The situation field or ruleset key path at fault (`target.terrain`, `melee.columns[2]`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub field: Option<String>,
    /// `file:line` for ruleset and house-rule files.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub location: Option<String>,
    /// The rule section the check comes from.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rule: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub ruling: Option<String>,
}

impl RefereeError {
    /// An error whose message reads as a sentence: capitalised, ending with a full stop.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> RefereeError {
        let message = sentence(message.into().trim());
        let message = if message.ends_with(['.', '!', '?', '…']) || message.is_empty() {
            message
        } else {
            format!("{message}.")
        };
        RefereeError {
            code,
            message,
            field: None,
            location: None,
            rule: None,
            ruling: None,
        }
    }

    pub fn field(mut self, field: impl Into<String>) -> RefereeError {
        self.field = Some(field.into());
        self
    }

    pub fn rule(mut self, rule: impl Into<String>) -> RefereeError {
        self.rule = Some(rule.into());
        self
    }

    pub fn ruling(mut self, ruling: impl Into<String>) -> RefereeError {
        self.ruling = Some(ruling.into());
        self
    }

    pub fn location(mut self, location: impl Into<String>) -> RefereeError {
        self.location = Some(location.into());
        self
    }

    /// One line: `location field: message (rule, ruling)`, as the CLI prints it.
    pub fn one_line(&self) -> String {
        let mut s = String::new();
        if let Some(l) = &self.location {
            s.push_str(l);
            s.push(' ');
        }
        if let Some(f) = &self.field {
            s.push_str(f);
            s.push_str(": ");
        }
        s.push_str(&self.message);
        match (&self.rule, &self.ruling) {
            (Some(r), Some(g)) => s.push_str(&format!(" ({r}, {g})")),
            (Some(r), None) => s.push_str(&format!(" ({r})")),
            (None, Some(g)) => s.push_str(&format!(" ({g})")),
            (None, None) => {}
        }
        s
    }
}

impl From<crate::odds::OddsError> for RefereeError {
    fn from(e: crate::odds::OddsError) -> RefereeError {
        RefereeError::new(ErrorCode::OddsEngine, e.to_string())
    }
}

/// A name as it may be printed on a line of text: each control character (a line break, an
/// escape sequence's ESC) shown by its picture (␊, ␛) instead of acting, so a name can neither
/// begin a forged line of a log nor drive a terminal.
pub fn printable(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\u{0}'..='\u{1f}' => char::from_u32(0x2400 + u32::from(c)).unwrap_or('\u{fffd}'),
            '\u{7f}' => '\u{2421}',
            c if c.is_control() => '\u{fffd}',
            c => c,
        })
        .collect()
}

/// An identifier as words: `unit_type` → "unit type", `armour` → "armour".
pub fn words(id: &str) -> String {
    let w = id.trim_matches('`').replace(['_', '-'], " ");
    match w.as_str() {
        "type" => "unit type".into(),
        "lost" => "number lost".into(),
        "me" | "vp" | "pips" | "cf" | "sp" | "zoc" | "abp" => w.to_uppercase(),
        _ => w,
    }
}

/// "a" or "an" before `word`.
fn article(word: &str) -> &'static str {
    match word.chars().next() {
        Some(c) if "aeiouAEIOU".contains(c) && !word.starts_with("unit") => "an",
        _ => "a",
    }
}

/// A sentence starting with a capital letter.
pub fn sentence(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn ordinal(i: usize) -> String {
    const WORDS: [&str; 10] = [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
        "tenth",
    ];
    WORDS
        .get(i)
        .map_or_else(|| format!("number {}", i + 1), |w| (*w).to_string())
}

/// One step of a serde path: `side_a[0]` → ("side_a", Some(0)).
fn step(seg: &str) -> (&str, Option<usize>) {
    match seg.split_once('[') {
        Some((k, rest)) => (k, rest.trim_end_matches(']').parse().ok()),
        None => (seg, None),
    }
}

/// What a field belongs to, in words: "this unit", "the first of the defenders", "the target",
/// "the situation".
fn container(parent: Option<&str>) -> String {
    let last = parent.map(|p| p.rsplit('.').next().unwrap_or(p));
    match last.map(step) {
        None | Some(("", None)) => "the situation".into(),
        Some(("units" | "side_a" | "side_b" | "elements" | "stack" | "cargo", Some(_))) => {
            "this unit".into()
        }
        Some((k, Some(i))) => format!("the {} of the {}", ordinal(i), words(k)),
        Some(("a" | "b", None)) => format!("side {}", last.unwrap_or_default()),
        Some((k, None)) => format!("the {}", words(k)),
    }
}

/// The field at `path`, in words: `side_a[0].count` → "the count", `side_a[1]` → "the second
/// entry of side a".
fn field_words(path: &str) -> String {
    let last = path.rsplit('.').next().unwrap_or("");
    match step(last) {
        ("", _) => "the situation".into(),
        (k, Some(i)) => format!("the {} entry of {}", ordinal(i), words(k)),
        (k, None) => format!("the {}", words(k)),
    }
}

/// The names inside backticks in `s`, in order.
fn quoted(s: &str) -> Vec<String> {
    s.split('`')
        .enumerate()
        .filter(|(i, _)| i % 2 == 1)
        .map(|(_, x)| x.to_string())
        .collect()
}

/// A value the umpire entered, quoted in words: `sideways_on` → “sideways on”. A value without
/// letters is quoted as typed: “-4” keeps its minus, which is what is wrong with it.
pub fn given(value: &str) -> String {
    let shown = if value.chars().any(char::is_alphabetic) {
        words(value)
    } else {
        value.to_string()
    };
    format!("\u{201c}{shown}\u{201d}")
}

/// The choices of a list, in words: `clear`, `forest_hills` → "clear, forest hills".
pub fn choices<S: AsRef<str>>(items: impl IntoIterator<Item = S>) -> String {
    items
        .into_iter()
        .map(|s| words(s.as_ref()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// "a" or "an" before `word`, for sentences outside this module.
pub fn article_for(word: &str) -> &'static str {
    article(word)
}

/// A side's name with its verb: "Romans win", "Rome wins".
pub fn side_verb(side: &str, plural: &str, singular: &str) -> String {
    if side.ends_with('s') {
        format!("{side} {plural}")
    } else {
        format!("{side} {singular}")
    }
}

/// A count with its noun, never "unit(s)": "1 unit", "3 units".
pub fn counted(n: i64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A side's possessive: "Romans'", "Rome's".
pub fn possessive(side: &str) -> String {
    if side.ends_with('s') {
        format!("{side}'")
    } else {
        format!("{side}'s")
    }
}

/// A list in words: "a, b or c".
/// Names in words: "a", "a and b", "a, b and c".
pub fn and_list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

pub fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// A number with its thousands grouped as the rules print them: 10,000; -1,250.
pub fn grouped(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 {
        format!("-{out}")
    } else {
        out
    }
}

/// "Panic level must be a whole number from 0 to 10,000.": what a number field takes, said the
/// same way by the API wherever it refuses one and by the app beside the field (lib/fields.ts).
pub fn whole_number_words(label: &str, min: i64, max: i64) -> String {
    format!(
        "{label} must be a whole number from {} to {}.",
        grouped(min),
        grouped(max)
    )
}

/// What serde expected, as the kind of value the umpire must give.
fn kind_words(expected: &str) -> String {
    let e = expected.trim();
    let e = e.strip_prefix("expected ").unwrap_or(e);
    if matches!(e, "u8" | "u16" | "u32" | "u64" | "usize") {
        return "a whole number, 0 or more".into();
    }
    if matches!(
        e,
        "i8" | "i16" | "i32" | "i64" | "isize" | "integer" | "an integer"
    ) {
        return "a whole number".into();
    }
    if e.starts_with("a whole number") {
        return e.replace('≥', "of").replace("of 0", "0 or more");
    }
    if matches!(e, "f32" | "f64" | "a number") {
        return "a number".into();
    }
    if e.contains("boolean") || e.contains("true or false") {
        return "yes or no (true or false)".into();
    }
    if e.contains("string") || e.contains("char") {
        return "text".into();
    }
    if e.contains("sequence") || e.contains("array") || e.contains("tuple") || e.contains("Vec") {
        return "a list".into();
    }
    if e.contains("enum") || e.contains("variant") {
        return "one of the choices".into();
    }
    if e.contains("struct") || e.contains("map") || e.contains("table") {
        return "a group of values".into();
    }
    "a value of another kind".into()
}

/// serde's wording (`unknown field `armour`, expected one of …`, `invalid type: …, expected
/// u32`) as a plain sentence naming the field at `path` in words; the path itself stays in the
/// error's `field`.
pub fn plain_serde_error(message: &str, path: &str) -> String {
    let m = message.lines().next().unwrap_or(message).trim();
    // serde_json appends " at line L column C" when reading text.
    let m = m.split(" at line ").next().unwrap_or(m);
    let path = path.trim_start_matches('.');
    let names = quoted(m);
    let field = field_words(path);
    if let Some(rest) = m.strip_prefix("unknown field ") {
        let name = quoted(rest).into_iter().next().unwrap_or_default();
        // The path names the unknown key itself; its owner is the step before.
        let at = match path.rsplit_once('.') {
            Some((p, last)) if last == name => Some(p),
            None if path == name => None,
            _ if path.is_empty() => None,
            _ => Some(path),
        };
        let owner = container(at);
        let w = words(&name);
        return sentence(&format!(
            "{owner} has {} {w} value, which the rules do not use here.",
            article(&w)
        ));
    }
    if let Some(rest) = m.strip_prefix("missing field ") {
        let name = quoted(rest).into_iter().next().unwrap_or_default();
        let owner = container(if path.is_empty() { None } else { Some(path) });
        let of = match owner.as_str() {
            "the situation" | "this unit" => String::new(),
            o => format!(" of {o}"),
        };
        return format!("The {}{of} is missing.", words(&name));
    }
    if let Some(rest) = m.strip_prefix("duplicate field ") {
        let name = quoted(rest).into_iter().next().unwrap_or_default();
        return format!("The {} is given twice.", words(&name));
    }
    if let Some(rest) = m.strip_prefix("unknown variant ") {
        let given = names.first().cloned().unwrap_or_default();
        let choices: Vec<String> = quoted(rest)
            .into_iter()
            .skip(1)
            .map(|c| words(&c))
            .collect();
        let given = if given.is_empty() {
            "This".to_string()
        } else {
            format!("\u{201c}{}\u{201d}", words(&given))
        };
        return if choices.is_empty() {
            format!("{given} is not one of the choices for {field}.")
        } else {
            format!(
                "{given} is not one of the choices for {field}: {}.",
                or_list(&choices)
            )
        };
    }
    // A count of units is 1 or more wherever it is asked (0 is refused by the rules' checks with
    // the same minimum), though it is read as any whole number 0 or more.
    let kind_at = |expected: &str| match (path.rsplit('.').next(), expected) {
        (Some("count"), "u32") => "a whole number, 1 or more".to_string(),
        _ => kind_words(expected),
    };
    // A box left empty (a choice not yet made arrives as null): said as missing, not as text or
    // a number it should have been.
    if m.starts_with("invalid type: null") {
        return sentence(&format!("{field} is missing."));
    }
    if let Some(rest) = m.strip_prefix("invalid type: ") {
        let expected = rest.split(", expected ").nth(1).unwrap_or("");
        return sentence(&format!("{field} must be {}.", kind_at(expected)));
    }
    if let Some(rest) = m.strip_prefix("invalid value: ") {
        let expected = rest.split(", expected ").nth(1).unwrap_or("");
        let given = quoted(rest).into_iter().next();
        let kind = kind_at(expected);
        // A whole number too large for its field (the window sends what was typed): not a
        // matter of its kind, so not said as one.
        let unsigned = matches!(expected.trim(), "u8" | "u16" | "u32" | "u64" | "usize");
        if let Some(g) = given
            .as_deref()
            .filter(|g| unsigned && g.parse::<u128>().is_ok())
        {
            return sentence(&format!(
                "{field} is far too large: {g} is beyond any number on the table."
            ));
        }
        return match given {
            Some(g) => sentence(&format!("{field} must be {kind} ({g} is not).")),
            None => sentence(&format!("{field} must be {kind}.")),
        };
    }
    if m.starts_with("invalid length") {
        return sentence(&format!("{field} has the wrong number of entries."));
    }
    if m.starts_with("data did not match any variant") {
        return sentence(&format!("{field} is not in a form the rules know."));
    }
    if m.starts_with("expected ") && m.contains("enum") {
        return sentence(&format!("{field} must be one of the choices."));
    }
    if m.contains("EOF") {
        return "The text ends too soon: it is not complete.".into();
    }
    // Our own checks (dice, ratios) already speak plainly; drop the code quoting.
    let plain = m.replace('`', "");
    let plain = plain
        .replace("expected i64", "a whole number is needed")
        .replace("expected u32", "a whole number, 0 or more, is needed");
    sentence(&plain)
}

#[cfg(test)]
mod plain_tests {
    use super::plain_serde_error as p;

    #[test]
    fn serde_wording_becomes_sentences() {
        assert_eq!(
            p(
                "unknown field `armour`, expected one of `type`, `count`",
                "side_a[0].armour"
            ),
            "This unit has an armour value, which the rules do not use here."
        );
        assert_eq!(
            p("missing field `type`", "side_a[0]"),
            "The unit type is missing."
        );
        assert_eq!(
            p(
                "invalid type: string \"x\", expected u32",
                "side_a[0].count"
            ),
            "The count must be a whole number, 1 or more."
        );
        // A choice left empty is missing, not "must be text".
        assert_eq!(
            p(
                "invalid type: null, expected a string",
                "defenders[0].terrain"
            ),
            "The terrain is missing."
        );
        // A negative count names the same minimum as a count of 0 (ITACS issue 31 item 8).
        assert_eq!(
            p(
                "invalid value: integer `-3`, expected u32",
                "attackers[0].units[0].count"
            ),
            "The count must be a whole number, 1 or more (-3 is not)."
        );
        // Too large for its type: said as too large, not as the wrong kind.
        assert_eq!(
            p(
                "invalid value: integer `5000000000`, expected u32",
                "sides[0].panic_level"
            ),
            "The panic level is far too large: 5000000000 is beyond any number on the table."
        );
        assert_eq!(
            p("unknown variant `sideways`, expected one of `none`, `firing_down`, `firing_up`", "target.scarp"),
            "\u{201c}sideways\u{201d} is not one of the choices for the scarp: none, firing down or firing up."
        );
        assert_eq!(
            p(
                "invalid type: map, expected internally tagged enum Change",
                "changes[0]"
            ),
            "The first entry of changes must be one of the choices."
        );
    }
}
