//! `referee event …`: convention events on the command line, over the same API as the app.

use std::io::Read;
use std::path::{Path, PathBuf};

use clap::{Subcommand, ValueEnum};

use referee_api::{
    Battles, ErrorCode, FirstRound, HandResult, Limited, NewEvent, PairingMethod, Player, Referee,
    RefereeError,
};

use crate::battle::{read, value, Answer};

#[derive(Clone, Copy, ValueEnum)]
pub enum Pairing {
    Swiss,
    RoundRobin,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum First {
    Random,
    Seeded,
}

#[derive(Subcommand)]
pub enum EventCommand {
    /// Create an event.
    Create {
        #[arg(long)]
        name: String,
        /// The ruleset its battles are played under, e.g. dbmm; repeated for an event of several
        /// systems (--ruleset gts --ruleset itacs).
        #[arg(long, required = true)]
        ruleset: Vec<String>,
        /// The scoring settings' id, e.g. dbmm-25 (`referee event scorings` lists them).
        #[arg(long)]
        scoring: String,
        #[arg(long, value_enum, default_value = "swiss")]
        pairing: Pairing,
        /// How the first round is paired: in an order drawn with the seeded dice, or by the
        /// order the players were entered.
        #[arg(long, value_enum, default_value = "random")]
        first_round: First,
        /// Rounds planned, 1 to 20, for a Swiss event (a round robin plays one round fewer than
        /// its players, whatever is given here).
        #[arg(long, default_value_t = 4)]
        rounds: u32,
    },
    /// List the events.
    List,
    /// The scoring settings an event can be created with.
    Scorings,
    /// An event as it stands: players, rounds, results, standings.
    Show { event: i64 },
    /// Players.
    #[command(subcommand)]
    Player(PlayerCommand),
    /// Pair a round (the next one).
    Pair {
        event: i64,
        #[arg(long)]
        round: u32,
    },
    /// Swap two players of a round not yet started (one may hold the bye).
    Swap {
        event: i64,
        #[arg(long)]
        round: u32,
        a: String,
        b: String,
    },
    /// Begin the battle of a pairing in this database (or open the one begun).
    Begin {
        event: i64,
        #[arg(long)]
        round: u32,
        #[arg(long)]
        table: u32,
        /// The ruleset the battle is played under, one of the event's (needed only when the
        /// event plays several).
        #[arg(long)]
        ruleset: Option<String>,
    },
    /// Enter a table's result.
    #[command(subcommand)]
    Result(ResultCommand),
    /// The standings (JSON, or CSV with `--csv`: the standings then the games).
    Standings {
        event: i64,
        #[arg(long)]
        csv: bool,
    },
    /// The printable report: one self-contained HTML file.
    Report { event: i64 },
    /// Undo the last change to the event.
    Undo { event: i64 },
    /// Redo the last change undone.
    Redo { event: i64 },
}

#[derive(Subcommand)]
pub enum PlayerCommand {
    /// Add a player and the army he brings.
    Add {
        event: i64,
        #[arg(long)]
        name: String,
        #[arg(long)]
        army: String,
    },
    /// Withdraw a player: kept in the standings, no longer paired.
    Withdraw { event: i64, name: String },
}

#[derive(Subcommand)]
pub enum ResultCommand {
    /// The verdict of the battle begun from the pairing in this database.
    Battle {
        event: i64,
        #[arg(long)]
        round: u32,
        #[arg(long)]
        table: u32,
    },
    /// The verdict of a battle file from the table's device (`-` reads it on stdin).
    Import {
        event: i64,
        #[arg(long)]
        round: u32,
        #[arg(long)]
        table: u32,
        file: PathBuf,
    },
    /// A result entered by hand: the winner (none for a draw), the victory points if counted.
    Hand {
        event: i64,
        #[arg(long)]
        round: u32,
        #[arg(long)]
        table: u32,
        #[arg(long)]
        winner: Option<String>,
        /// The first player's victory points.
        #[arg(long = "vp-a", allow_negative_numbers = true)]
        vp_a: Option<f64>,
        /// The second player's victory points.
        #[arg(long = "vp-b", allow_negative_numbers = true)]
        vp_b: Option<f64>,
        #[arg(long)]
        note: Option<String>,
        /// The ruleset the table played, at an event of several when the table names none yet.
        #[arg(long)]
        ruleset: Option<String>,
    },
}

/// A battle file named, or `-` for standard input, within its size limit.
fn battle_file(path: &Path) -> Result<String, RefereeError> {
    if path.as_os_str() != "-" {
        return read(path, Limited::BattleFile);
    }
    let mut text = String::new();
    std::io::stdin()
        .take(referee_api::BATTLE_FILE_LIMIT + 1)
        .read_to_string(&mut text)
        .map_err(|e| {
            RefereeError::new(
                ErrorCode::InputUnreadable,
                format!("cannot read stdin: {e}"),
            )
        })?;
    Limited::BattleFile.check(text.len())?;
    Ok(text)
}

pub fn event(db: &Path, r: &Referee, command: EventCommand) -> Result<Answer, RefereeError> {
    if let EventCommand::Scorings = command {
        return Ok(Answer::Json(value(&r.scorings())));
    }
    let mut b = Battles::open(db)?;
    Ok(Answer::Json(match command {
        EventCommand::Create {
            name,
            ruleset,
            scoring,
            pairing,
            first_round,
            rounds,
        } => value(&b.event_create(
            r,
            &NewEvent {
                name,
                rulesets: ruleset,
                scoring,
                pairing: match pairing {
                    Pairing::Swiss => PairingMethod::Swiss,
                    Pairing::RoundRobin => PairingMethod::RoundRobin,
                },
                first_round: match first_round {
                    First::Random => FirstRound::Random,
                    First::Seeded => FirstRound::Seeded,
                },
                rounds,
            },
        )?),
        EventCommand::List => value(&b.event_list(r)?),
        EventCommand::Scorings => value(&r.scorings()),
        EventCommand::Show { event } => value(&b.event_view(r, event)?),
        EventCommand::Player(PlayerCommand::Add { event, name, army }) => {
            value(&b.event_player_add(
                r,
                event,
                &Player {
                    name,
                    army,
                    withdrawn: false,
                },
            )?)
        }
        EventCommand::Player(PlayerCommand::Withdraw { event, name }) => {
            value(&b.event_player_withdraw(r, event, &name)?)
        }
        EventCommand::Pair { event, round } => value(&b.event_pair(r, event, round)?),
        EventCommand::Swap {
            event,
            round,
            a,
            b: other,
        } => value(&b.event_swap(r, event, round, &a, &other)?),
        EventCommand::Begin {
            event,
            round,
            table,
            ruleset,
        } => value(&b.event_begin_battle(r, event, round, table, ruleset.as_deref())?),
        EventCommand::Result(ResultCommand::Battle {
            event,
            round,
            table,
        }) => value(&b.event_result_from_battle(r, event, round, table)?),
        EventCommand::Result(ResultCommand::Import {
            event,
            round,
            table,
            file,
        }) => {
            let text = battle_file(&file)?;
            value(&b.event_result_import(r, event, round, table, &text)?)
        }
        EventCommand::Result(ResultCommand::Hand {
            event,
            round,
            table,
            winner,
            vp_a,
            vp_b,
            note,
            ruleset,
        }) => value(&b.event_result_by_hand(
            r,
            event,
            round,
            table,
            &HandResult {
                winner,
                victory_points_a: vp_a,
                victory_points_b: vp_b,
                note,
                ruleset,
            },
        )?),
        EventCommand::Standings { event, csv } => {
            if csv {
                return Ok(Answer::Text(b.event_csv(r, event)?));
            }
            value(&b.event_view(r, event)?.standings)
        }
        EventCommand::Report { event } => return Ok(Answer::Text(b.event_report(r, event)?)),
        EventCommand::Undo { event } => value(&b.event_undo(r, event)?),
        EventCommand::Redo { event } => value(&b.event_redo(r, event)?),
    }))
}
