//! `referee`: the headless referee over the same API as the app.
//!
//! Results go to stdout as JSON; an error goes to stderr as one line (`file:line key: message
//! (rule)`) and to stdout as the error's JSON, with exit status 2.

mod battle;
mod event;

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use referee_api::{
    check_file, roll, ErrorCode, HouseRuleChoice, Referee, RefereeError, ResolveRequest,
    RollRequest,
};

#[derive(Parser)]
#[command(
    name = "referee",
    version,
    about = "Exact odds and cited rulings for historical wargames"
)]
struct Cli {
    /// A folder of ruleset and house-rule files (`*.toml`) laid over the built-in rulesets.
    #[arg(long, global = true, env = "REFEREE_RULESETS")]
    rulesets: Option<PathBuf>,
    /// Put a house rule in force by its file name as `referee rulesets` lists it, e.g. a
    /// switchable ruling `rulesets/switches/itacs-forbid-below-lowest-column.toml` (repeatable).
    #[arg(long = "house-rule", global = true, value_name = "FILE")]
    house_rules_on: Vec<String>,
    /// Leave a house rule of the `--rulesets` folder out (repeatable).
    #[arg(long = "no-house-rule", global = true, value_name = "FILE")]
    house_rules_off: Vec<String>,
    /// The database of battles and rosters (default: the app's data folder).
    #[arg(long, global = true, env = "REFEREE_DB")]
    db: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the systems, their actions, the house rules that can be put in force and any user
    /// ruleset file that failed.
    Rulesets,
    /// List the presets a battle can begin from (built-in and the `--rulesets` folder's
    /// `presets/`) and any preset file that failed.
    Presets,
    /// Resolve an action: the situation JSON on stdin, the resolution JSON on stdout.
    Resolve {
        #[arg(long)]
        ruleset: String,
        #[arg(long)]
        action: String,
        /// Physical dice faces, e.g. `--dice 4,1`.
        #[arg(long, value_delimiter = ',')]
        dice: Option<Vec<u32>>,
        /// Roll the action's dice with the app's seeded generator instead: every die it lays
        /// out, each stage of a chain in turn (a GTS melee round), then resolve with them.
        #[arg(long, conflicts_with = "dice")]
        roll: bool,
        /// The seed for `--roll` (a fresh one when absent).
        #[arg(long, requires = "roll")]
        seed: Option<u32>,
    },
    /// What each yes-or-no box of a situation is worth: the situation JSON on stdin, resolved once
    /// with each box turned over, then once with each choice picked; the odds of each on stdout.
    Worth {
        #[arg(long)]
        ruleset: String,
        #[arg(long)]
        action: String,
        /// A box as a JSON pointer into the situation, e.g. `--box /attacker/rear` (repeat it).
        #[arg(long = "box", required_unless_present = "picks")]
        boxes: Vec<String>,
        /// A choice set to one value, pointer=value, e.g. `--pick /attack_from=wall` (repeat it).
        #[arg(long = "pick", value_parser = parse_pick)]
        picks: Vec<referee_api::Pick>,
    },
    /// Print the JSON schema of an action's situation, or of the ruleset file without an action.
    Schema {
        ruleset: String,
        action: Option<String>,
    },
    /// Print a rule section a citation opens: its title and the rule's words.
    Section { ruleset: String, section: String },
    /// Validate a ruleset or house-rule file.
    Check { file: PathBuf },
    /// Roll dice with the app's seeded generator, e.g. `referee roll 2d6 --seed 7`.
    Roll {
        dice: String,
        #[arg(long)]
        seed: Option<u32>,
    },
    /// Battles: begin, add units, apply results, undo, edit rolls, export, import.
    #[command(subcommand)]
    Battle(battle::BattleCommand),
    /// Reusable army rosters.
    #[command(subcommand)]
    Roster(battle::RosterCommand),
    /// Convention events: players, rounds paired, results, standings.
    #[command(subcommand)]
    Event(event::EventCommand),
    /// The database itself: backups and integrity.
    #[command(subcommand)]
    Db(battle::DbCommand),
}

fn database(db: &Option<PathBuf>) -> PathBuf {
    db.clone().unwrap_or_else(referee_api::default_database)
}

fn json<T: serde::Serialize>(value: &T) -> serde_json::Value {
    serde_json::to_value(value).unwrap_or(serde_json::Value::Null)
}

fn run(cli: Cli) -> Result<battle::Answer, RefereeError> {
    let choice = HouseRuleChoice {
        on: cli.house_rules_on,
        off: cli.house_rules_off,
    };
    let referee = || Referee::choosing(cli.rulesets.as_deref(), &choice);
    let json_answer = match cli.command {
        Command::Rulesets => Ok(json(&referee().rulesets())),
        Command::Presets => Ok(json(&referee().presets())),
        Command::Resolve {
            ruleset,
            action,
            dice,
            roll,
            seed,
        } => {
            let situation = situation_on_stdin()?;
            let mut request = ResolveRequest {
                ruleset,
                action,
                situation,
                dice,
            };
            let referee = referee();
            if roll {
                request.dice = Some(referee.throw(&request, seed)?.faces);
            }
            Ok(json(&referee.resolve(&request)?))
        }
        Command::Worth {
            ruleset,
            action,
            boxes,
            picks,
        } => {
            let situation = situation_on_stdin()?;
            Ok(json(&referee().flips(&referee_api::FlipsRequest {
                ruleset,
                action,
                situation,
                boxes,
                picks,
            })?))
        }
        Command::Schema { ruleset, action } => match action {
            Some(action) => referee().situation_schema(&ruleset, &action),
            None => Referee::ruleset_schema(&ruleset),
        },
        Command::Section { ruleset, section } => {
            Ok(json(&referee().rule_section(&ruleset, &section)?))
        }
        Command::Check { file } => Ok(json(&check_file(&file)?)),
        Command::Roll { dice, seed } => Ok(json(&roll(&RollRequest { dice, seed })?)),
        Command::Battle(command) => return battle::battle(&database(&cli.db), &referee(), command),
        Command::Event(command) => return event::event(&database(&cli.db), &referee(), command),
        Command::Roster(command) => battle::roster(&database(&cli.db), &referee(), command),
        Command::Db(command) => battle::db(&database(&cli.db), &referee(), command),
    };
    json_answer.map(battle::Answer::Json)
}

/// The situation JSON the command reads on stdin.
/// `--pick /attack_from=wall`: a choice's pointer and the value to set it to.
fn parse_pick(text: &str) -> Result<referee_api::Pick, String> {
    let (pointer, value) = text
        .split_once('=')
        .ok_or_else(|| format!("“{text}” is not pointer=value, e.g. /attack_from=wall"))?;
    Ok(referee_api::Pick {
        pointer: pointer.to_string(),
        value: value.to_string(),
    })
}

fn situation_on_stdin() -> Result<serde_json::Value, RefereeError> {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).map_err(|e| {
        RefereeError::new(
            ErrorCode::SituationUnreadable,
            format!("cannot read stdin: {e}"),
        )
    })?;
    serde_json::from_str(&input).map_err(|e| {
        RefereeError::new(
            ErrorCode::SituationInvalidJson,
            format!("the situation on stdin is not JSON: {e}"),
        )
    })
}

/// Writes the answer. A reader that closed the pipe early (`referee … | head`) is not an error
/// worth a panic: the rest of the output is simply dropped. Any other failure (a full disk under
/// `referee battle export 1 > b.json`) is an error: the output is not whole.
fn emit(text: &str) -> Result<(), std::io::Error> {
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{text}").and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e),
        _ => Ok(()),
    }
}

/// The answer written, or the exit status of an output that could not be written whole.
fn emitted(text: &str) -> ExitCode {
    match emit(text) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let e = RefereeError::new(
                ErrorCode::OutputUnwritable,
                format!("the answer could not be written out whole ({e}); what was written is incomplete"),
            );
            let _ = writeln!(
                std::io::stderr().lock(),
                "error [{}]: {}",
                e.code,
                e.one_line()
            );
            ExitCode::from(2)
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(battle::Answer::Json(value)) => {
            emitted(&serde_json::to_string_pretty(&value).unwrap_or_default())
        }
        Ok(battle::Answer::Text(text)) => emitted(&text),
        Err(e) => {
            // Names in a message are shown with their control characters as pictures: nothing
            // from a battle drives the terminal.
            let _ = writeln!(
                std::io::stderr().lock(),
                "error [{}]: {}",
                e.code,
                referee_api::printable(&e.one_line())
            );
            let _ = emit(&serde_json::to_string_pretty(&e).unwrap_or_default());
            ExitCode::from(2)
        }
    }
}
