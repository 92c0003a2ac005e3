//! `referee battle …`, `referee roster …`, `referee db …`: the battle API on the command line.
//! Structured input (a new battle, a unit, an apply request) is JSON on stdin.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Subcommand;
use serde::Deserialize;
use serde_json::{json, Value};

use referee_api::{
    roster_from_csv, write_atomically, AdjustRequest, ApplyRequest, Battles, ErrorCode,
    FightRequest, Limited, NewBattle, Referee, RefereeError, Roster,
};

#[derive(Subcommand)]
pub enum BattleCommand {
    /// List the battles.
    List,
    /// Begin a battle: `{name, ruleset, sides: [{name, commands?, panic_level?}], units?}` on
    /// stdin, or from a preset with `--preset ID` (nothing on stdin).
    #[command(visible_alias = "create")]
    New {
        /// Begin from this preset (`referee presets` lists them): its sides and units.
        #[arg(long, value_name = "ID")]
        preset: Option<String>,
        /// The battle's name, with `--preset` (default: the preset's).
        #[arg(long, requires = "preset")]
        name: Option<String>,
    },
    /// Add a unit: `{label, side, command?, role?, stats}` on stdin.
    AddUnit {
        battle: i64,
    },
    /// Correct a unit on the roster: `{label, side, command?, role?, stats}` on stdin. It keeps
    /// its losses and markers.
    EditUnit {
        battle: i64,
        #[arg(long)]
        unit: u32,
    },
    /// Take a unit entered by mistake off the roster (not a loss; undo puts it back).
    RemoveUnit {
        battle: i64,
        #[arg(long)]
        unit: u32,
    },
    /// Resolve and apply: `{action, situation, dice, mapping?, rolled_by?, apply_key?}` on stdin.
    Apply {
        battle: i64,
        /// The key of the shown result (overrides the request's `apply_key`): applying it again
        /// while it is in force is refused.
        #[arg(long, value_name = "KEY")]
        apply_key: Option<String>,
    },
    /// Before the dice: the chance each break point is reached, `{action, situation, mapping?}` on stdin.
    Outlook {
        battle: i64,
    },
    /// Open a combat with the units ticked on the roster, in their state now: the situation,
    /// the targets that apply its result to them, and what the umpire still has to set.
    Fight {
        battle: i64,
        /// The action, e.g. melee (`referee systems` lists each system's actions).
        #[arg(long)]
        action: String,
        /// Roster ids of the attacking units (the firing units in a fire action), e.g. 1,2;
        /// none for a step of the whole battle (ITACS recovery).
        #[arg(long, value_delimiter = ',')]
        attackers: Vec<u32>,
        /// Roster ids of the defending units (their target in a fire action).
        #[arg(long, value_delimiter = ',')]
        defenders: Vec<u32>,
        /// The side whose bound it is (DBMM); by default the attackers'.
        #[arg(long)]
        bound_of: Option<String>,
        /// Roster ids of friends directly behind the element fighting in front (DBMM).
        #[arg(long, value_delimiter = ',')]
        behind: Vec<u32>,
        /// Roster ids of friends in front-edge contact with the enemy's flank or rear (DBMM).
        #[arg(long, value_delimiter = ',')]
        on_enemy_flank: Vec<u32>,
        /// A move's hexes entered, in order (ITACS move: the one unit of --attackers), e.g.
        /// 19.05,20.05.
        #[arg(long, value_delimiter = ',')]
        path: Vec<String>,
        /// How many of the one entry's units move (ITACS move); all of them when not given.
        #[arg(long)]
        units_moving: Option<u32>,
    },
    /// A change by hand: `{subject, change, reason?}` on stdin.
    Adjust {
        battle: i64,
    },
    /// Next turn (or the given turn and phase).
    Turn {
        battle: i64,
        #[arg(long)]
        turn: Option<u32>,
        #[arg(long)]
        phase: Option<String>,
    },
    /// Undo the last change, or with `--to N` everything after the log's entry N, in one step.
    Undo {
        battle: i64,
        #[arg(long)]
        to: Option<u64>,
    },
    Redo {
        battle: i64,
    },
    /// Edit the dice of an applied event; `--preview` only shows what would change.
    EditRoll {
        battle: i64,
        #[arg(long)]
        event: u64,
        #[arg(long, value_delimiter = ',', required = true)]
        dice: Vec<u32>,
        #[arg(long)]
        preview: bool,
    },
    /// The battle now: state, break points, log.
    State {
        battle: i64,
    },
    /// Write the battle file (to stdout without `--out`).
    Export {
        battle: i64,
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// The printable battle report, one self-contained HTML file (to stdout without `--out`);
    /// with `--text`, the battle's log as plain text.
    Report {
        battle: i64,
        #[arg(long)]
        text: bool,
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Import a battle file as a new battle.
    Import {
        file: PathBuf,
    },
    Duplicate {
        battle: i64,
    },
    /// Delete a battle: it can be restored for 30 days (`battle deleted`, `battle restore`).
    Delete {
        battle: i64,
    },
    /// The battles deleted in the last 30 days, that can be restored.
    Deleted,
    /// Bring a deleted battle back, as it was.
    Restore {
        battle: i64,
    },
    /// Run a scripted battle (docs/api.md): one JSON line per committed step. With `--battle`,
    /// the script's steps go on an existing battle (the script then begins none).
    Script {
        file: PathBuf,
        #[arg(long)]
        battle: Option<i64>,
    },
}

#[derive(Subcommand)]
pub enum RosterCommand {
    List,
    Show {
        roster: i64,
    },
    /// Save a roster: `{name, ruleset, units}` on stdin.
    Save,
    /// Save a roster from a CSV or JSON file (docs/rosters.md).
    Import {
        file: PathBuf,
        #[arg(long)]
        name: Option<String>,
        #[arg(long)]
        ruleset: Option<String>,
    },
    /// A CSV roster template for a ruleset: `label` and the unit form's fields, two example rows.
    Template {
        #[arg(long)]
        ruleset: String,
        /// Write the CSV to this file instead of printing it as a JSON string.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// The roster unit form of a ruleset: its fields, every choice and its printed values.
    Form {
        #[arg(long)]
        ruleset: String,
    },
    /// A unit's values from the tables: its `stats` on stdin.
    Preview {
        #[arg(long)]
        ruleset: String,
    },
    /// Copy a roster's units into a battle, on one side.
    Copy {
        roster: i64,
        #[arg(long)]
        battle: i64,
        #[arg(long)]
        side: String,
    },
    Delete {
        roster: i64,
    },
}

#[derive(Subcommand)]
pub enum DbCommand {
    /// Back up the database now (SQLite's backup API) into `backups/` beside it.
    Backup,
    /// The backups (`backups/` beside the database), newest first: the day's first change,
    /// before a migration or a restore, or asked for.
    Backups,
    /// Put a backup (its `id` from `db backups`) in the database's place, after backing up the
    /// database as it is now.
    Restore { backup: String },
    /// Check the whole database: SQLite's integrity check, then every battle opened (the recently
    /// deleted too) and the chain of its event hashes verified. Exits non-zero on any damage,
    /// naming the battle and the event.
    Check,
}

pub(crate) fn stdin_json<T: serde::de::DeserializeOwned>() -> Result<T, RefereeError> {
    let mut input = String::new();
    std::io::Read::read_to_string(&mut std::io::stdin(), &mut input).map_err(|e| {
        RefereeError::new(
            ErrorCode::InputUnreadable,
            format!("cannot read stdin: {e}"),
        )
    })?;
    parse(&input)
}

fn parse<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, RefereeError> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        RefereeError::new(
            ErrorCode::InputInvalidJson,
            format!("the input is not JSON: {e}"),
        )
    })?;
    referee_api::parse_request(value, "")
}

/// A file the user names, read only if it is within its documented size.
pub(crate) fn read(path: &Path, kind: Limited) -> Result<String, RefereeError> {
    kind.read(path)
}

/// Exports, reports and templates are written whole or not at all.
fn write(path: &Path, text: &str) -> Result<(), RefereeError> {
    write_atomically(path, text.as_bytes())
}

/// What a battle command prints: JSON, or a document as it is (a report).
pub enum Answer {
    Json(Value),
    Text(String),
}

pub(crate) fn value<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

pub fn battle(
    db: &Path,
    referee: &Referee,
    command: BattleCommand,
) -> Result<Answer, RefereeError> {
    let mut battles = Battles::open(db)?;
    let r = referee;
    Ok(Answer::Json(match command {
        BattleCommand::List => value(&battles.list()?),
        BattleCommand::New { preset, name } => {
            let new = match preset {
                Some(id) => NewBattle::from_preset(r.preset(&id)?, name),
                None => stdin_json::<NewBattle>()?,
            };
            value(&battles.create(r, &new)?)
        }
        BattleCommand::AddUnit { battle } => value(&battles.add_unit(r, battle, stdin_json()?)?),
        BattleCommand::EditUnit { battle, unit } => {
            value(&battles.edit_unit(r, battle, unit, stdin_json()?)?)
        }
        BattleCommand::RemoveUnit { battle, unit } => value(&battles.remove_unit(r, battle, unit)?),
        BattleCommand::Apply { battle, apply_key } => {
            let mut request = stdin_json::<ApplyRequest>()?;
            if apply_key.is_some() {
                request.apply_key = apply_key;
            }
            value(&battles.apply(r, battle, &request)?)
        }
        BattleCommand::Outlook { battle } => value(&battles.outlook(r, battle, &stdin_json()?)?),
        BattleCommand::Fight {
            battle,
            action,
            attackers,
            defenders,
            bound_of,
            behind,
            on_enemy_flank,
            path,
            units_moving,
        } => value(&battles.fight(
            r,
            battle,
            &FightRequest {
                action,
                attackers,
                defenders,
                bound_of,
                behind,
                on_enemy_flank,
                path,
                units_moving,
            },
        )?),
        BattleCommand::Adjust { battle } => {
            value(&battles.adjust(r, battle, &stdin_json::<AdjustRequest>()?)?)
        }
        BattleCommand::Turn {
            battle,
            turn,
            phase,
        } => value(&battles.advance_turn(r, battle, turn, phase)?),
        BattleCommand::Undo { battle, to: None } => value(&battles.undo(r, battle)?),
        BattleCommand::Undo {
            battle,
            to: Some(event),
        } => value(&battles.undo_to(r, battle, event)?),
        BattleCommand::Redo { battle } => value(&battles.redo(r, battle)?),
        BattleCommand::EditRoll {
            battle,
            event,
            dice,
            preview,
        } => {
            let (preview_of, view) = battles.edit_roll(r, battle, event, dice, preview)?;
            json!({"preview": preview_of, "battle": view})
        }
        BattleCommand::State { battle } => value(&battles.view(r, battle)?),
        BattleCommand::Export { battle, out } => {
            // The text itself on every path: read back into a JSON value and printed again, each
            // event's stored detail would be laid out anew and its hash no longer match.
            let file = battles.export(r, battle)?;
            let text = referee_api::battle_file_text(&file);
            match out {
                Some(path) => {
                    write(&path, &text)?;
                    json!({"exported": path, "events": file.events.len()})
                }
                None => return Ok(Answer::Text(text)),
            }
        }
        BattleCommand::Report { battle, text, out } => {
            let report = if text {
                battles.text_log(r, battle)?
            } else {
                battles.report(r, battle)?
            };
            match out {
                Some(path) => {
                    write(&path, &report)?;
                    json!({"written": path, "bytes": report.len()})
                }
                // The report itself, not a JSON string of it: `referee battle report 1 > b.html`.
                None => return Ok(Answer::Text(report)),
            }
        }
        BattleCommand::Import { file } => {
            value(&battles.import(r, &read(&file, Limited::BattleFile)?)?)
        }
        BattleCommand::Duplicate { battle } => value(&battles.duplicate(r, battle)?),
        BattleCommand::Delete { battle } => {
            battles.delete(battle)?;
            json!({"deleted": battle})
        }
        BattleCommand::Deleted => value(&battles.deleted()?),
        BattleCommand::Restore { battle } => value(&battles.restore(r, battle)?),
        BattleCommand::Script { file, battle } => {
            script(&mut battles, r, &read(&file, Limited::BattleFile)?, battle)?
        }
    }))
}

pub fn roster(db: &Path, referee: &Referee, command: RosterCommand) -> Result<Value, RefereeError> {
    // The form, its preview and the template need no database.
    let open = || Battles::open(db);
    Ok(match command {
        RosterCommand::List => value(&open()?.rosters()?),
        RosterCommand::Show { roster } => value(&open()?.roster(roster)?),
        RosterCommand::Save => {
            let roster: Roster = stdin_json()?;
            json!({"saved": open()?.save_roster(referee, &roster)?})
        }
        RosterCommand::Import {
            file,
            name,
            ruleset,
        } => {
            let text = read(&file, Limited::Roster)?;
            let roster = if file.extension().is_some_and(|x| x == "csv") {
                let ruleset = ruleset.ok_or_else(|| {
                    RefereeError::new(ErrorCode::RosterInvalid, "a CSV roster needs --ruleset")
                        .field("ruleset")
                })?;
                let name = name.unwrap_or_else(|| {
                    file.file_stem()
                        .map(|s| s.to_string_lossy().to_string())
                        .unwrap_or_default()
                });
                roster_from_csv(&name, &ruleset, &text)?
            } else {
                let mut roster: Roster = parse(&text)?;
                if let Some(n) = name {
                    roster.name = n;
                }
                roster
            };
            json!({"saved": open()?.save_roster(referee, &roster)?, "units": roster.units.len()})
        }
        RosterCommand::Template { ruleset, out } => {
            let text = referee.roster_csv_template(&ruleset)?;
            match out {
                Some(path) => {
                    write(&path, &text)?;
                    json!({"written": path})
                }
                None => Value::String(text),
            }
        }
        RosterCommand::Form { ruleset } => value(&referee.unit_form(&ruleset)?),
        RosterCommand::Preview { ruleset } => {
            let stats: Value = stdin_json()?;
            value(&referee.unit_preview(&ruleset, &stats)?)
        }
        RosterCommand::Copy {
            roster,
            battle,
            side,
        } => value(&open()?.copy_roster(referee, battle, roster, &side)?),
        RosterCommand::Delete { roster } => {
            open()?.delete_roster(roster)?;
            json!({"deleted": roster})
        }
    })
}

pub fn db(db: &Path, referee: &Referee, command: DbCommand) -> Result<Value, RefereeError> {
    // Backups are listed and restored even when the database itself cannot be opened.
    let opened = Battles::open(db);
    let mut battles = match (opened, &command) {
        (Ok(b), _) => b,
        (Err(_), DbCommand::Backups) => return Ok(value(&referee_api::backups_at(db))),
        (Err(_), DbCommand::Restore { backup }) => {
            let battles = referee_api::restore_over_damaged(db, backup)?;
            return Ok(value(&battles.backups()));
        }
        (Err(e), _) => return Err(e),
    };
    Ok(match command {
        DbCommand::Backup => json!({"backup": battles.backup()?}),
        DbCommand::Backups => value(&battles.backups()),
        DbCommand::Restore { backup } => value(&battles.restore_backup(&backup)?),
        DbCommand::Check => {
            let check = battles.check(referee)?;
            if !check.damage.is_empty() {
                return Err(RefereeError::new(
                    ErrorCode::StoreDamaged,
                    format!(
                        "the battles database is damaged: {}",
                        check.damage.join("; ")
                    ),
                )
                .location(db.display().to_string()));
            }
            json!({"integrity_check": check.integrity, "battles": check.battles, "events": check.events, "convention_events": check.tournaments})
        }
    })
}

/// A scripted battle: the battle to begin and its steps.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Script {
    #[serde(default)]
    battle: Option<NewBattle>,
    steps: Vec<Step>,
}

#[derive(Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
enum Step {
    AddUnit {
        unit: referee_api::UnitSpec,
    },
    EditUnit {
        id: u32,
        unit: referee_api::UnitSpec,
    },
    RemoveUnit {
        id: u32,
    },
    Apply(ApplyRequest),
    Adjust(AdjustRequest),
    Turn {
        #[serde(default)]
        turn: Option<u32>,
        #[serde(default)]
        phase: Option<String>,
    },
    Undo,
    Redo,
}

/// Each committed step prints `{"step": n, "event": seq}` and flushes, so a test that kills the
/// process knows what was committed before it died.
fn script(
    battles: &mut Battles,
    r: &Referee,
    text: &str,
    existing: Option<i64>,
) -> Result<Value, RefereeError> {
    let script: Script = parse(text)?;
    let view =
        match (existing, &script.battle) {
            (Some(id), None) => battles.view(r, id)?,
            (None, Some(new)) => battles.create(r, new)?,
            (Some(_), Some(_)) => {
                return Err(RefereeError::new(
                    ErrorCode::InputInvalid,
                    "the script begins a battle and --battle names one: keep only one of them",
                )
                .field("battle"))
            }
            (None, None) => return Err(RefereeError::new(
                ErrorCode::InputInvalid,
                "the script begins no battle: describe one under battle, or name one with --battle",
            )
            .field("battle")),
        };
    let id = view.id;
    let mut out = std::io::stdout().lock();
    let mut last = view.log.last().map_or(0, |l| l.seq);
    let _ = writeln!(out, "{}", json!({"battle": id, "event": last}));
    let _ = out.flush();
    for (i, step) in script.steps.into_iter().enumerate() {
        let view = match step {
            Step::AddUnit { unit } => battles.add_unit(r, id, unit),
            Step::EditUnit { id: unit_id, unit } => battles.edit_unit(r, id, unit_id, unit),
            Step::RemoveUnit { id: unit_id } => battles.remove_unit(r, id, unit_id),
            Step::Apply(a) => battles.apply(r, id, &a),
            Step::Adjust(a) => battles.adjust(r, id, &a),
            Step::Turn { turn, phase } => battles.advance_turn(r, id, turn, phase),
            Step::Undo => battles.undo(r, id),
            Step::Redo => battles.redo(r, id),
        }
        .map_err(|e| {
            let field = e.field.clone().map(|f| format!(".{f}")).unwrap_or_default();
            e.field(format!("steps[{i}]{field}"))
        })?;
        last = view.log.last().map_or(last, |l| l.seq);
        let _ = writeln!(out, "{}", json!({"step": i, "event": last}));
        let _ = out.flush();
    }
    Ok(json!({"battle": id, "events": last}))
}
