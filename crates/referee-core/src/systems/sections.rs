//! The rule texts' sections as data (rulesets/sections/<system>.toml, extracted by
//! scripts/rule-sections.py), so a citation opens the rule's own words.

use serde::Serialize;
use ts_rs::TS;

/// A rule section as a citation opens it: its id, title and the rule's words. A section the
/// data does not have comes back with its id alone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct RuleSection {
    pub ruleset: String,
    /// The section answered: the first of the citation ("4.5.8" of "4.5.8, 10.4"), or the
    /// section holding it when the data has only that ("4.2" for "4.2.9").
    pub section: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub text: Option<String>,
}

const SECTIONS: &[(&str, &str)] = &[
    (
        "itacs",
        include_str!("../../../../rulesets/sections/itacs.toml"),
    ),
    (
        "medieval",
        include_str!("../../../../rulesets/sections/medieval.toml"),
    ),
    (
        "gts",
        include_str!("../../../../rulesets/sections/gts.toml"),
    ),
    (
        "dbmm",
        include_str!("../../../../rulesets/sections/dbmm.toml"),
    ),
];

#[derive(serde::Deserialize)]
struct Entry {
    title: Option<String>,
    text: Option<String>,
}

#[derive(serde::Deserialize)]
struct File {
    sections: std::collections::BTreeMap<String, Entry>,
}

fn file(system: &str) -> Option<File> {
    let text = SECTIONS.iter().find(|(s, _)| *s == system)?.1;
    toml::from_str(text).ok()
}

/// The first section a citation names: "4.5.8, 10.4" → "4.5.8", "p. 38–39" → "p. 38",
/// "10.2.1; class 4.5.7" → "10.2.1", "2.10 base qualities" → "2.10", "0.0 A b" → "0.0".
pub fn first_section(citation: &str) -> String {
    let first = citation.split([',', ';', '(']).next().unwrap_or("").trim();
    if let Some(page) = first.strip_prefix("p.") {
        let digits: String = page
            .trim()
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        return format!("p. {digits}");
    }
    match first.split_whitespace().next() {
        Some(id) if id.starts_with(|c: char| c.is_ascii_digit()) => id.to_string(),
        _ => first.to_string(),
    }
}

/// The section of `system` a citation opens; an unknown one answers its id alone.
pub fn rule_section(ruleset: &str, system: &str, citation: &str) -> RuleSection {
    let wanted = first_section(citation);
    let mut answer = RuleSection {
        ruleset: ruleset.to_string(),
        section: wanted.clone(),
        title: None,
        text: None,
    };
    let Some(data) = file(system) else {
        return answer;
    };
    // The section itself, else the nearest section holding it (4.2.9 → 4.2).
    let mut id = wanted.as_str();
    loop {
        if let Some(e) = data.sections.get(id) {
            answer.section = id.to_string();
            answer.title = e.title.clone();
            answer.text = e.text.clone();
            return answer;
        }
        match id.rsplit_once('.') {
            Some((parent, _)) if parent.contains('.') => id = parent,
            _ => return answer,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_citation_opens_its_first_section() {
        assert_eq!(first_section("4.5.8, 10.4"), "4.5.8");
        assert_eq!(first_section("p. 38–39"), "p. 38");
        assert_eq!(first_section("p. 22 (deployment stage 14), p. 27"), "p. 22");
        assert_eq!(first_section("10.2.1; class 4.5.7"), "10.2.1");
        assert_eq!(first_section("2.10 base qualities"), "2.10");
        assert_eq!(first_section("0.0 A b"), "0.0");
        let s = rule_section("itacs", "itacs", "4.5.13, 10.4");
        assert_eq!(s.section, "4.5.13");
        assert_eq!(s.title.as_deref(), Some("Melee Combat Example"));
        assert!(s
            .text
            .is_some_and(|t| !t.is_empty() && t.chars().count() <= 1_200));
        let none = rule_section("itacs", "itacs", "99.9");
        assert_eq!((none.title, none.text), (None, None));
        assert_eq!(none.section, "99.9");
    }

    /// Most sections each ruleset file cites open to the rule's words; the coverage per system
    /// is printed (cargo test -- --nocapture).
    #[test]
    fn most_cited_sections_have_their_words() {
        for builtin in crate::systems::BUILTIN {
            let (system, text) = (builtin.id, builtin.text);
            let mut cited: Vec<String> = Vec::new();
            // Every `rule = "…"` and `…_rule = "…"`, inline tables included.
            for (at, _) in text.match_indices("rule = \"") {
                let value = &text[at + 8..];
                let value = &value[..value.find('"').unwrap_or(0)];
                let id = first_section(value);
                if !id.is_empty() && !cited.contains(&id) {
                    cited.push(id);
                }
            }
            let found: Vec<&String> = cited
                .iter()
                .filter(|c| rule_section(system, system, c).text.is_some())
                .collect();
            let missing: Vec<&String> = cited.iter().filter(|c| !found.contains(c)).collect();
            println!(
                "{system}: {} of {} cited sections have their words; missing {missing:?}",
                found.len(),
                cited.len()
            );
            assert!(
                found.len() * 10 >= cited.len() * 7,
                "{system}: only {} of {} cited sections found; missing {missing:?}",
                found.len(),
                cited.len()
            );
        }
    }
}
