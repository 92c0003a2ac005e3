//! Names the umpire types (a battle, its sides and commands, a unit's label, a roster, a reason):
//! at most `NAME_MAX_CHARS` characters and no control characters. A line break in a name would
//! forge a line of the text log, an escape sequence would drive a terminal, and a name of
//! megabytes would cost seconds and hundreds of megabytes in every view. What older battle files
//! carry is shown escaped instead (`referee_core::error::printable`).

use referee_core::battle::{SideSetup, UnitSpec};
use referee_core::ErrorCode;
use referee_core::RefereeError;

/// The longest name: far beyond any battle's, side's or unit's name.
pub const NAME_MAX_CHARS: usize = 200;

/// Refuses a name that is too long or holds a control character.
pub fn check_name(field: &str, what: &str, text: &str) -> Result<(), RefereeError> {
    let chars = text.chars().count();
    if chars > NAME_MAX_CHARS {
        return Err(RefereeError::new(
            ErrorCode::NameInvalid,
            format!("the {what} is {chars} characters long; a name takes at most {NAME_MAX_CHARS}"),
        )
        .field(field));
    }
    if text.chars().any(char::is_control) {
        return Err(RefereeError::new(
            ErrorCode::NameInvalid,
            format!("the {what} holds a line break, a tab or another control character: write it on one line"),
        )
        .field(field));
    }
    Ok(())
}

/// A unit's label, side and command.
pub fn check_unit(at: &str, unit: &UnitSpec) -> Result<(), RefereeError> {
    let field = |f: &str| {
        if at.is_empty() {
            f.to_string()
        } else {
            format!("{at}.{f}")
        }
    };
    check_name(&field("label"), "unit's label", &unit.label)?;
    check_name(&field("side"), "unit's side", &unit.side)?;
    if let Some(command) = &unit.command {
        check_name(&field("command"), "unit's command", command)?;
    }
    Ok(())
}

/// A battle's name, its sides' names and their commands.
pub fn check_setup(name: &str, sides: &[SideSetup]) -> Result<(), RefereeError> {
    check_name("name", "battle's name", name)?;
    for (i, side) in sides.iter().enumerate() {
        check_name(&format!("sides[{i}].name"), "side's name", &side.name)?;
        for (c, command) in side.commands.iter().enumerate() {
            check_name(
                &format!("sides[{i}].commands[{c}]"),
                "command's name",
                command,
            )?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_names_and_control_characters_are_refused() {
        assert!(check_name("name", "battle's name", "Cannae, 216 BC").is_ok());
        assert!(check_name("name", "battle's name", &"é".repeat(NAME_MAX_CHARS)).is_ok());
        let e = check_name("name", "battle's name", &"x".repeat(NAME_MAX_CHARS + 1)).unwrap_err();
        assert_eq!(
            (e.code.as_str(), e.field.as_deref()),
            ("name.invalid", Some("name"))
        );
        for bad in ["Cannae\nTurn 9: Romans win", "\u{1b}[2J", "tab\there"] {
            let e = check_name("label", "unit's label", bad).unwrap_err();
            assert_eq!(e.code, "name.invalid");
            assert!(e.message.ends_with("one line."), "{}", e.message);
        }
    }
}
