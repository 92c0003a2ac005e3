//! A battle shared as a file the umpire keeps: the printable report or the plain-text log, the
//! name it is offered under, and what the screen says once it is saved (where it went, in words).
//! Where to save is the shell's to ask (the app's save dialog, the CLI's standard output).

use std::path::Path;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use referee_core::RefereeError;

use crate::{Battles, Referee};

/// What is shared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum SharedDocument {
    /// The printable battle report: one HTML page.
    Report,
    /// The plain-text log.
    Log,
}

impl SharedDocument {
    pub fn extension(self) -> &'static str {
        match self {
            SharedDocument::Report => "html",
            SharedDocument::Log => "txt",
        }
    }

    /// The kind of file, as a save dialog's filter names it.
    pub fn kind_words(self) -> &'static str {
        match self {
            SharedDocument::Report => "Web page",
            SharedDocument::Log => "Text",
        }
    }

    fn what(self) -> &'static str {
        match self {
            SharedDocument::Report => "The battle report",
            SharedDocument::Log => "The log",
        }
    }

    fn then(self) -> &'static str {
        match self {
            SharedDocument::Report => ": open it in a browser to print it or save it as PDF.",
            SharedDocument::Log => ".",
        }
    }
}

/// The name a file is offered under: the battle's name in letters, digits, spaces and dashes
/// (never empty), with the document's extension.
pub fn file_name(battle: &str, document: SharedDocument) -> String {
    let kept: String = battle
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '_' | '-'))
        .collect();
    // A character left out leaves no double space: "Trebia & co" → "Trebia co".
    let stem = kept.split_whitespace().collect::<Vec<_>>().join(" ");
    let stem = if stem.is_empty() { "battle" } else { &stem };
    format!("{stem}.{}", document.extension())
}

/// Where a saved file went, as the screen says it: "The battle report is saved as “Trebia.html”
/// in the folder “Reports”: open it in a browser to print it or save it as PDF."
pub fn saved_words(document: SharedDocument, path: &Path) -> String {
    let (name, folder) = where_saved(path);
    format!(
        "{} is saved as “{name}”{folder}{}",
        document.what(),
        document.then()
    )
}

/// A saved file's name and, when it has one, " in the folder “…”": the words a screen says where
/// a file went with, never its whole path.
pub fn where_saved(path: &Path) -> (String, String) {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let folder = path
        .parent()
        .and_then(|p| p.file_name())
        .map(|n| format!(" in the folder “{}”", n.to_string_lossy()))
        .unwrap_or_default();
    (name, folder)
}

impl Battles {
    /// The document's text and the name it is offered under.
    pub fn shared(
        &mut self,
        referee: &Referee,
        id: i64,
        document: SharedDocument,
    ) -> Result<(String, String), RefereeError> {
        let text = match document {
            SharedDocument::Report => self.report(referee, id)?,
            SharedDocument::Log => self.text_log(referee, id)?,
        };
        let name = self.view(referee, id)?.state.name;
        Ok((file_name(&name, document), text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_named_after_its_battle_in_plain_characters() {
        assert_eq!(
            file_name("Trebia & <b>the fords</b>", SharedDocument::Report),
            "Trebia bthe fordsb.html"
        );
        assert_eq!(file_name("../..", SharedDocument::Log), "battle.txt");
        assert_eq!(
            file_name("Hastings 1066", SharedDocument::Log),
            "Hastings 1066.txt"
        );
    }

    #[test]
    fn the_screen_says_where_the_file_went_in_words() {
        let path = Path::new("/home/umpire/Reports/Hastings 1066.html");
        assert_eq!(
            saved_words(SharedDocument::Report, path),
            "The battle report is saved as “Hastings 1066.html” in the folder “Reports”: open it in a browser to print it or save it as PDF."
        );
        assert_eq!(
            saved_words(SharedDocument::Log, Path::new("/log.txt")),
            "The log is saved as “log.txt”."
        );
    }
}
