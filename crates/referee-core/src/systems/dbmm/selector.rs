//! Element selectors in the sheet's own notation: `Mounted not El, LH`, `Pk not (F)`,
//! `Reg Ax (S)`, `Sp (S/O) | Reg Sp (I)`. The ruleset writes every "who", "against" and "front
//! rank" this way, so a table row reads as the sheet does and a house rule edits text.

use super::data::Class;

/// What a selector looks at: an element's type, class, grade and regularity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Traits<'a> {
    pub type_code: &'a str,
    pub class: Class,
    pub grade: &'a str,
    pub irregular: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Name {
    Any,
    Land,
    Class(Class),
    Type(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Exclusion {
    name: Option<Name>,
    grades: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Clause {
    regular: Option<bool>,
    name: Name,
    grades: Vec<String>,
    not: Vec<Exclusion>,
}

/// A parsed selector: any clause may match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selector {
    clauses: Vec<Clause>,
}

impl Selector {
    /// Parses `text`; `types` and `grades` are the ruleset's codes, so a typo is an error.
    pub fn parse(text: &str, types: &[&str], grades: &[&str]) -> Result<Selector, String> {
        let clauses = text
            .split('|')
            .map(|c| clause(c.trim(), types, grades))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Selector { clauses })
    }

    /// Selects no element.
    pub fn nothing() -> Selector {
        Selector {
            clauses: Vec::new(),
        }
    }

    pub fn matches(&self, t: &Traits) -> bool {
        self.clauses.iter().any(|c| {
            c.regular.is_none_or(|reg| reg != t.irregular)
                && name_matches(&c.name, t)
                && (c.grades.is_empty() || c.grades.iter().any(|g| g == t.grade))
                && !c.not.iter().any(|x| {
                    x.name.as_ref().is_none_or(|n| name_matches(n, t))
                        && (x.grades.is_empty() || x.grades.iter().any(|g| g == t.grade))
                })
        })
    }
}

fn name_matches(name: &Name, t: &Traits) -> bool {
    match name {
        Name::Any => true,
        Name::Land => t.class != Class::Naval,
        Name::Class(c) => *c == t.class,
        Name::Type(code) => code == t.type_code,
    }
}

fn clause(text: &str, types: &[&str], grades: &[&str]) -> Result<Clause, String> {
    if text.is_empty() {
        return Err("an empty clause between “|”".into());
    }
    let (head, not) = match text.split_once(" not ") {
        Some((h, n)) => (h.trim(), Some(n.trim())),
        None => (text, None),
    };
    let (regular, head) = if let Some(rest) = head.strip_prefix("Reg ") {
        (Some(true), rest.trim())
    } else if let Some(rest) = head.strip_prefix("Irr ") {
        (Some(false), rest.trim())
    } else {
        (None, head)
    };
    let (name, grade_list) = named(head, types, grades)?;
    let name = name.ok_or_else(|| format!("“{text}” names no element type or class"))?;
    let not = match not {
        None => Vec::new(),
        Some(list) => list
            .split(',')
            .map(|x| {
                let (name, grades) = named(x.trim(), types, grades)?;
                Ok(Exclusion { name, grades })
            })
            .collect::<Result<Vec<_>, String>>()?,
    };
    Ok(Clause {
        regular,
        name,
        grades: grade_list,
        not,
    })
}

/// `NAME`, `NAME (G/G)` or `(G/G)`.
fn named(
    text: &str,
    types: &[&str],
    grades: &[&str],
) -> Result<(Option<Name>, Vec<String>), String> {
    let (word, grade_text) = match text.find('(') {
        Some(i) => {
            let inner = text[i + 1..]
                .strip_suffix(')')
                .ok_or_else(|| format!("“{text}”: a grade list must end with “)”"))?;
            (text[..i].trim(), Some(inner))
        }
        None => (text.trim(), None),
    };
    let name = match word {
        "" => None,
        "Any" => Some(Name::Any),
        "Land" => Some(Name::Land),
        "Mounted" => Some(Name::Class(Class::Mounted)),
        "Foot" => Some(Name::Class(Class::Foot)),
        "Train" => Some(Name::Class(Class::Train)),
        "Naval" => Some(Name::Class(Class::Naval)),
        code if types.contains(&code) => Some(Name::Type(code.to_string())),
        other => {
            return Err(format!(
                "“{other}” is not an element type ({}) nor Any, Land, Mounted, Foot, Train, Naval",
                types.join(", ")
            ))
        }
    };
    let grade_list = match grade_text {
        None => Vec::new(),
        Some(inner) => inner
            .split('/')
            .map(|g| {
                let g = g.trim();
                if grades.contains(&g) {
                    Ok(g.to_string())
                } else {
                    Err(format!("“{g}” is not a grade ({})", grades.join(", ")))
                }
            })
            .collect::<Result<Vec<_>, String>>()?,
    };
    if name.is_none() && grade_list.is_empty() {
        return Err(format!("“{text}” names nothing"));
    }
    Ok((name, grade_list))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TYPES: &[&str] = &["El", "Kn", "LH", "Pk", "Sp", "Bd", "Ax", "Ps", "Cv", "Art"];
    const GRADES: &[&str] = &["S", "O", "I", "F", "X"];

    fn el<'a>(type_code: &'a str, class: Class, grade: &'a str, irregular: bool) -> Traits<'a> {
        Traits {
            type_code,
            class,
            grade,
            irregular,
        }
    }

    #[test]
    fn selectors_read_as_the_sheet_writes_them() {
        let s = |t| Selector::parse(t, TYPES, GRADES).unwrap();
        let kn = el("Kn", Class::Mounted, "O", false);
        let lh = el("LH", Class::Mounted, "O", true);
        let pk_f = el("Pk", Class::Foot, "F", false);
        let pk_o = el("Pk", Class::Foot, "O", false);
        let sp_i_irr = el("Sp", Class::Foot, "I", true);
        let sp_i_reg = el("Sp", Class::Foot, "I", false);
        let art_x = el("Art", Class::Train, "X", false);
        let art_s = el("Art", Class::Train, "S", false);
        let cases: &[(&str, &Traits, bool)] = &[
            ("Mounted not El, LH", &kn, true),
            ("Mounted not El, LH", &lh, false),
            ("Mounted | Sp | Pk not (F) | Train", &pk_f, false),
            ("Mounted | Sp | Pk not (F) | Train", &pk_o, true),
            ("Mounted | Sp | Pk not (F) | Train", &art_x, true),
            ("Sp (S/O) | Reg Sp (I)", &sp_i_irr, false),
            ("Sp (S/O) | Reg Sp (I)", &sp_i_reg, true),
            ("Irr Any", &lh, true),
            ("Irr Any", &kn, false),
            ("Art not (X/I)", &art_x, false),
            ("Art not (X/I)", &art_s, true),
            ("Land", &kn, true),
            ("Any not Cv, LH, Ps, Train", &art_s, false),
            ("Any not Cv, LH, Ps, Train", &pk_o, true),
        ];
        for (text, traits, want) in cases {
            assert_eq!(s(text).matches(traits), *want, "{text} on {traits:?}");
        }
    }

    #[test]
    fn typos_in_a_selector_are_named() {
        let e = Selector::parse("Kn | Knights", TYPES, GRADES).unwrap_err();
        assert!(e.contains("“Knights” is not an element type"), "{e}");
        let e = Selector::parse("Pk (Q)", TYPES, GRADES).unwrap_err();
        assert!(e.contains("“Q” is not a grade"), "{e}");
        let e = Selector::parse("Kn |", TYPES, GRADES).unwrap_err();
        assert!(e.contains("empty clause"), "{e}");
    }
}
