//! Size limits on what the referee reads from a user: a file above its limit is refused before it
//! is parsed, so a huge or hostile file costs neither minutes nor gigabytes (docs/security.md).

use std::io::Read;
use std::path::Path;

use referee_core::ErrorCode;
use referee_core::RefereeError;

/// A battle file (import): the largest battle the benchmarks play (500 units, 20,000 events, a
/// few thousand results with their situation and resolution) is about 17 MB; 32 MiB leaves it
/// room.
pub const BATTLE_FILE_LIMIT: u64 = 32 * 1024 * 1024;
/// A roster, CSV or JSON: thousands of units fit in a fraction of it.
pub const ROSTER_FILE_LIMIT: u64 = 1024 * 1024;
/// A ruleset, house-rule or preset file: the largest built-in ruleset is under 50 kB.
pub const RULESET_FILE_LIMIT: u64 = 1024 * 1024;

/// The kinds of file with a limit, named as a message says them.
#[derive(Clone, Copy, Debug)]
pub enum Limited {
    BattleFile,
    Roster,
    Ruleset,
}

impl Limited {
    pub fn limit(self) -> u64 {
        match self {
            Limited::BattleFile => BATTLE_FILE_LIMIT,
            Limited::Roster => ROSTER_FILE_LIMIT,
            Limited::Ruleset => RULESET_FILE_LIMIT,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Limited::BattleFile => "battle file",
            Limited::Roster => "roster",
            Limited::Ruleset => "ruleset or house-rule file",
        }
    }

    /// Refuses text above the limit.
    pub fn check(self, len: usize) -> Result<(), RefereeError> {
        self.refuse_above(len, |name, size, limit| {
            format!(
                "the {name} is {size}; the referee reads one of up to {limit}, so it was not read"
            )
        })
    }

    /// Refuses a battle file whose export — what the referee would write of it once stored, with
    /// hashes and head — would be above the limit: a file that imports must export to one that
    /// imports again.
    pub fn check_export(self, len: usize) -> Result<(), RefereeError> {
        self.refuse_above(len, |name, size, limit| {
            format!("the {name} would be {size} once exported again with its hashes; the referee reads one of up to {limit}, so it was not imported")
        })
    }

    /// `file.too_large` for a length above the limit, said by `words(name, size, limit)`.
    fn refuse_above(
        self,
        len: usize,
        words: impl Fn(&str, String, String) -> String,
    ) -> Result<(), RefereeError> {
        let len = u64::try_from(len).unwrap_or(u64::MAX);
        if len <= self.limit() {
            return Ok(());
        }
        Err(RefereeError::new(
            ErrorCode::FileTooLarge,
            words(self.name(), size(len, true), size(self.limit(), false)),
        ))
    }

    /// Reads a file, refusing it by its size before reading it (and reading no more than the
    /// limit, should it grow meanwhile).
    pub fn read(self, path: &Path) -> Result<String, RefereeError> {
        let unreadable = |e: std::io::Error| {
            RefereeError::new(
                ErrorCode::FileUnreadable,
                format!("cannot read {}: {e}", path.display()),
            )
            .location(path.display().to_string())
        };
        let file = std::fs::File::open(path).map_err(unreadable)?;
        let len = file.metadata().map_err(unreadable)?.len();
        let located = |e: RefereeError| e.location(path.display().to_string());
        self.check(usize::try_from(len).unwrap_or(usize::MAX))
            .map_err(located)?;
        let mut text = String::new();
        file.take(self.limit().saturating_add(1))
            .read_to_string(&mut text)
            .map_err(unreadable)?;
        self.check(text.len()).map_err(located)?;
        Ok(text)
    }
}

/// A size as people read it: "16 MB", "1.5 MB", "900 kB"; rounded `up` to the tenth, so a file
/// just over a limit never reads as the limit itself.
fn size(bytes: u64, up: bool) -> String {
    const MB: u64 = 1024 * 1024;
    if bytes >= MB {
        let tenths = if up {
            bytes.saturating_mul(10).div_ceil(MB)
        } else {
            bytes.saturating_mul(10) / MB
        };
        if tenths.is_multiple_of(10) {
            format!("{} MB", tenths / 10)
        } else {
            format!("{}.{} MB", tenths / 10, tenths % 10)
        }
    } else {
        format!("{} kB", bytes.div_ceil(1024))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_above_its_limit_is_refused_with_both_sizes() {
        assert!(Limited::Roster.check(1024 * 1024).is_ok());
        let e = Limited::Roster.check(1024 * 1024 + 1).unwrap_err();
        assert_eq!(e.code, "file.too_large");
        assert!(e.message.contains("is 1.1 MB"), "{}", e.message);
        let e = Limited::BattleFile.check(100 * 1024 * 1024).unwrap_err();
        assert!(
            e.message.contains("100 MB") && e.message.contains("32 MB"),
            "{}",
            e.message
        );
    }
}
