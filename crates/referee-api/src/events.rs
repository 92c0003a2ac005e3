//! Convention events (tournaments in code): created, players added, rounds paired, battles begun
//! from the pairings, results from a battle here, a battle file from another table's device or
//! entered by hand, undo and redo, the standings, the printable report and the CSV. Every write
//! folds the stored entries, checks the new one against the fold (a refusal writes nothing),
//! and appends it in the same transaction.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use referee_core::battle::SideSetup;
use referee_core::tournament::pairing::{may_join, may_swap, pair_next, rounds_planned};
use referee_core::tournament::standings::{standings, StandingRow};
use referee_core::tournament::{
    in_force, undo_redo, FirstRound, Game, GameResult, Outcome, PairingMethod, Player,
    PlayerResult, ResultSource, Scoring, Tournament, TournamentEntry, TournamentSetup,
};
use referee_core::{ErrorCode, RefereeError};
use referee_store::{event_hash, BattleFile, FileEvent, CHAIN_START};

use crate::names::{check_name, NAME_MAX_CHARS};
use crate::{read_battle_file, BattleView, Battles, NewBattle, Referee};

mod report;

pub use report::{event_file_name, EventDocument};

/// The most rounds an event plans.
pub const MAX_ROUNDS: u32 = 20;
/// The most victory points one player's result carries.
const MAX_VICTORY_POINTS: f64 = 10_000.0;

/// An event as the umpire creates it.
#[derive(Clone, Debug, Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct NewEvent {
    pub name: String,
    /// The rulesets its battles are played under: one (`["dbmm"]`), or several for a
    /// participation day (`["gts", "itacs"]`). A single id is read as a list of one.
    #[serde(
        alias = "ruleset",
        deserialize_with = "referee_core::tournament::one_or_many"
    )]
    pub rulesets: Vec<String>,
    /// The scoring settings' id (`dbmm-25`), one of `event_scorings`, suiting every ruleset.
    pub scoring: String,
    pub pairing: PairingMethod,
    pub first_round: FirstRound,
    /// Rounds planned, 1 to 20.
    pub rounds: u32,
}

/// An event in the list.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct EventRow {
    pub id: i64,
    pub name: String,
    pub rulesets: Vec<String>,
    /// The rule systems' names as the app shows them, joined ("GTS and ITACS").
    pub ruleset_name: String,
    pub players: u32,
    pub rounds_paired: u32,
    /// When it was created (RFC 3339, UTC).
    pub created_at: String,
}

/// An event as it stands, with what the screen offers next.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct EventView {
    pub id: i64,
    pub tournament: Tournament,
    pub standings: Vec<StandingRow>,
    pub scoring: Scoring,
    /// The rule systems' names as the app shows them, joined ("GTS and ITACS").
    pub ruleset_name: String,
    /// The round pairing would pair next.
    pub next_round: u32,
    /// The rounds the event will have: the setup's for Swiss, one fewer than its players for a
    /// round robin (as many as its players for an odd count).
    pub rounds_planned: u32,
    pub can_pair: bool,
    /// Why the next round cannot be paired yet, in a sentence.
    #[ts(optional)]
    pub why_not_pair: Option<String>,
    /// Why no player can be added now (a round robin once its round 1 is paired), in a sentence.
    #[ts(optional)]
    pub why_no_player_joins: Option<String>,
    /// What Undo would take back, in words ("Undo: round 2 paired").
    #[ts(optional)]
    pub undo: Option<String>,
    /// What Redo would put back, in words.
    #[ts(optional)]
    pub redo: Option<String>,
}

/// A result entered by hand, for a table without a device.
#[derive(Clone, Debug, Default, Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
pub struct HandResult {
    /// The winner's name; none for a draw.
    #[serde(default)]
    #[ts(optional)]
    pub winner: Option<String>,
    /// The first player's (the pairing's a) victory points, where the system counts them.
    #[serde(default)]
    #[ts(optional)]
    pub victory_points_a: Option<f64>,
    /// The second player's (the pairing's b) victory points.
    #[serde(default)]
    #[ts(optional)]
    pub victory_points_b: Option<f64>,
    /// Anything the umpire wants kept with the result.
    #[serde(default)]
    #[ts(optional)]
    pub note: Option<String>,
    /// The rule system the table played, at an event of several when its game names none yet.
    #[serde(default)]
    #[ts(optional)]
    pub ruleset: Option<String>,
}

/// A number as the screen says it: 18, 12.5.
pub(crate) fn number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{x:.0}")
    } else {
        format!("{x}")
    }
}

/// An entry in words, for Undo and Redo.
fn entry_words(entry: &TournamentEntry) -> String {
    match entry {
        TournamentEntry::Created { .. } => "the event created".into(),
        TournamentEntry::PlayerAdded { player } => format!("{} added", player.name),
        TournamentEntry::PlayerWithdrawn { player } => format!("{player} withdrawn"),
        TournamentEntry::RoundPaired { round, .. } => format!("round {round} paired"),
        TournamentEntry::PlayersSwapped { round, a, b } => {
            format!("{a} and {b} swapped in round {round}")
        }
        TournamentEntry::BattleBegun { round, table, .. } => {
            format!("the battle begun at table {table} of round {round}")
        }
        TournamentEntry::ResultRecorded { round, table, .. } => {
            format!("the result of table {table} in round {round}")
        }
        TournamentEntry::Undone => "an undo".into(),
        TournamentEntry::Redone => "a redo".into(),
    }
}

fn invalid(message: impl Into<String>) -> RefereeError {
    RefereeError::new(ErrorCode::EventInvalid, message)
}

fn game(t: &Tournament, round: u32, table: u32) -> Result<&Game, RefereeError> {
    let r = t.round(round).ok_or_else(|| {
        RefereeError::new(
            ErrorCode::EventNotInRound,
            format!("Round {round} is not paired yet."),
        )
        .field("round")
    })?;
    r.games
        .iter()
        .find(|g| g.pairing.table == table)
        .ok_or_else(|| {
            RefereeError::new(
                ErrorCode::EventNotInRound,
                format!("Round {round} has no table {table}."),
            )
            .field("table")
        })
}

/// Why the next round cannot be paired, in a sentence; none when it can.
fn why_not_pair(t: &Tournament, scoring: &Scoring) -> Option<String> {
    let next = u32::try_from(t.rounds.len())
        .unwrap_or(u32::MAX)
        .saturating_add(1);
    let plan = match pair_next(t, scoring, &[]) {
        Ok(plan) => plan,
        Err(e) => return Some(e.message),
    };
    let mut trial = t.clone();
    trial
        .apply(&TournamentEntry::RoundPaired {
            round: next,
            pairings: plan.pairings,
            bye: plan.bye,
            seed: None,
        })
        .err()
        .map(|e| e.message)
}

impl Battles {
    fn event_entries(&mut self, id: i64) -> Result<Vec<TournamentEntry>, RefereeError> {
        Ok(self.store.tournament_entries(id)?)
    }

    fn event_scoring<'r>(
        referee: &'r Referee,
        t: &Tournament,
    ) -> Result<&'r Scoring, RefereeError> {
        referee.scoring(&t.setup.scoring).map_err(|_| {
            invalid(format!(
                "The event's scoring settings (“{}”) are no longer among the app's: put the club's scoring file back among the data folder's events, then open the event again.",
                t.setup.scoring
            ))
        })
    }

    /// Runs a write holding the write lock: reads the entries, works out the new entry from the
    /// fold, checks it against the fold and appends it — or writes nothing.
    fn event_write(
        &mut self,
        referee: &Referee,
        id: i64,
        make: impl FnOnce(
            &mut Battles,
            &Tournament,
            &[TournamentEntry],
        ) -> Result<TournamentEntry, RefereeError>,
    ) -> Result<EventView, RefereeError> {
        self.store.begin_write()?;
        let written: Result<(), RefereeError> = (|| {
            let entries = self.event_entries(id)?;
            let mut t = Tournament::open(&entries)?;
            let entry = make(self, &t, &entries)?;
            t.apply(&entry)?;
            self.store.append_tournament_entry(id, &entry)?;
            Ok(())
        })();
        let ended = self.store.end_write(written.is_ok());
        if written.is_err() || ended.is_err() {
            // A battle begun in the same write may have been rolled back with it.
            self.open = None;
        }
        written?;
        ended?;
        self.event_view(referee, id)
    }

    /// Every event, the latest first.
    pub fn event_list(&mut self, referee: &Referee) -> Result<Vec<EventRow>, RefereeError> {
        let rows = self.store.tournaments()?;
        rows.into_iter()
            .map(|row| {
                let t = Tournament::open(&self.event_entries(row.id)?)?;
                Ok(EventRow {
                    id: row.id,
                    name: row.name,
                    ruleset_name: rulesets_name(referee, &t.setup.rulesets),
                    rulesets: t.setup.rulesets,
                    players: u32::try_from(t.players.len()).unwrap_or(u32::MAX),
                    rounds_paired: u32::try_from(t.rounds.len()).unwrap_or(u32::MAX),
                    created_at: row.created_at,
                })
            })
            .collect()
    }

    pub fn event_create(
        &mut self,
        referee: &Referee,
        new: &NewEvent,
    ) -> Result<EventView, RefereeError> {
        check_name("name", "event's name", &new.name)?;
        let name = new.name.trim();
        if name.is_empty() {
            return Err(invalid("Name the event.").field("name"));
        }
        let mut rulesets: Vec<String> = Vec::new();
        for id in &new.rulesets {
            referee.ruleset(id).map_err(|e| e.field("rulesets"))?;
            if !rulesets.contains(id) {
                rulesets.push(id.clone());
            }
        }
        if rulesets.is_empty() {
            return Err(
                invalid("Choose the rule system the event plays (one or more).").field("rulesets"),
            );
        }
        // Every system named must suit the scoring, and an event of several reads no victory
        // points: event points and tie-breaks mean the same at each table (R-EVENT-6).
        let scoring = referee.scoring(&new.scoring)?;
        let unsuited: Vec<String> = rulesets
            .iter()
            .filter(|r| !scoring.rulesets.is_empty() && !scoring.rulesets.contains(r))
            .cloned()
            .collect();
        if !unsuited.is_empty() {
            return Err(invalid(format!(
                "The scoring “{}” is for {} events, not {}: choose another scoring.",
                scoring.name,
                scoring
                    .rulesets
                    .iter()
                    .map(|r| system_words(referee, r))
                    .collect::<Vec<_>>()
                    .join(" or "),
                systems_words(referee, &unsuited)
            ))
            .field("scoring"));
        }
        if rulesets.len() > 1 && scoring.reads_victory_points() {
            return Err(invalid(format!(
                "The scoring “{}” reads the battles' victory points, which {} count each in their own way: choose a scoring that does not read them.",
                scoring.name,
                systems_words(referee, &rulesets)
            ))
            .field("scoring"));
        }
        if !(1..=MAX_ROUNDS).contains(&new.rounds) {
            return Err(invalid(format!(
                "An event plays 1 to {MAX_ROUNDS} rounds, not {}.",
                new.rounds
            ))
            .field("rounds"));
        }
        let created = TournamentEntry::Created {
            setup: TournamentSetup {
                name: name.to_string(),
                rulesets,
                scoring: new.scoring.clone(),
                pairing: new.pairing,
                first_round: new.first_round,
                rounds: new.rounds,
            },
        };
        Tournament::open(std::slice::from_ref(&created))?;
        let id = self.store.create_tournament(name, &created)?;
        self.event_view(referee, id)
    }

    pub fn event_view(&mut self, referee: &Referee, id: i64) -> Result<EventView, RefereeError> {
        let entries = self.event_entries(id)?;
        let tournament = Tournament::open(&entries)?;
        let scoring = Self::event_scoring(referee, &tournament)?.clone();
        let (undo, redo) = undo_redo(&entries);
        let why_not = why_not_pair(&tournament, &scoring);
        Ok(EventView {
            id,
            standings: standings(&tournament, &scoring),
            ruleset_name: rulesets_name(referee, &tournament.setup.rulesets),
            next_round: u32::try_from(tournament.rounds.len())
                .unwrap_or(u32::MAX)
                .saturating_add(1),
            rounds_planned: rounds_planned(&tournament),
            why_no_player_joins: may_join(&tournament).err().map(|e| e.message),
            can_pair: why_not.is_none(),
            why_not_pair: why_not,
            undo: undo.map(|e| format!("Undo: {}", entry_words(e))),
            redo: redo.map(|e| format!("Redo: {}", entry_words(e))),
            scoring,
            tournament,
        })
    }

    pub fn event_player_add(
        &mut self,
        referee: &Referee,
        id: i64,
        player: &Player,
    ) -> Result<EventView, RefereeError> {
        check_name("name", "player's name", &player.name)?;
        check_name("army", "army's name", &player.army)?;
        // Checked here, not in the fold: events stored before the check still open.
        self.event_write(referee, id, |_, t, _| {
            may_join(t)?;
            Ok(TournamentEntry::PlayerAdded {
                player: player.clone(),
            })
        })
    }

    /// A player leaves the event: no longer paired, his games kept in the standings.
    pub fn event_player_withdraw(
        &mut self,
        referee: &Referee,
        id: i64,
        player: &str,
    ) -> Result<EventView, RefereeError> {
        self.event_write(referee, id, |_, _, _| {
            Ok(TournamentEntry::PlayerWithdrawn {
                player: player.to_string(),
            })
        })
    }

    /// Pairs `round`, which must be the next: a second tap pairing the same round is refused.
    pub fn event_pair(
        &mut self,
        referee: &Referee,
        id: i64,
        round: u32,
    ) -> Result<EventView, RefereeError> {
        self.event_write(referee, id, |_, t, _| {
            let next = u32::try_from(t.rounds.len())
                .unwrap_or(u32::MAX)
                .saturating_add(1);
            if round < next {
                return Err(RefereeError::new(
                    ErrorCode::EventRoundPaired,
                    format!("Round {round} is paired already."),
                )
                .field("round"));
            }
            let scoring = Self::event_scoring(referee, t)?;
            let (drawn, seed) = if round == 1 && t.setup.first_round == FirstRound::Random {
                let seed: u64 = rand::random();
                let mut names: Vec<String> = t.active_players().map(|p| p.name.clone()).collect();
                names.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
                (names, Some(seed))
            } else {
                (Vec::new(), None)
            };
            let plan = pair_next(t, scoring, &drawn)?;
            Ok(TournamentEntry::RoundPaired {
                round,
                pairings: plan.pairings,
                bye: plan.bye,
                seed,
            })
        })
    }

    /// Swaps two players of a round not yet started (one may hold the bye).
    pub fn event_swap(
        &mut self,
        referee: &Referee,
        id: i64,
        round: u32,
        a: &str,
        b: &str,
    ) -> Result<EventView, RefereeError> {
        // Checked here, not in the fold: events stored before the check still open.
        self.event_write(referee, id, |_, t, _| {
            may_swap(t, round)?;
            Ok(TournamentEntry::PlayersSwapped {
                round,
                a: a.to_string(),
                b: b.to_string(),
            })
        })
    }

    /// Begins the battle of a pairing (named after the event, round and table, its sides the two
    /// players) under `ruleset`, one of the event's (needed only when it plays several), or
    /// opens the one begun already: a second tap is safe.
    pub fn event_begin_battle(
        &mut self,
        referee: &Referee,
        id: i64,
        round: u32,
        table: u32,
        ruleset: Option<&str>,
    ) -> Result<BattleView, RefereeError> {
        let t = Tournament::open(&self.event_entries(id)?)?;
        let g = game(&t, round, table)?;
        if let Some(battle) = g.battle {
            begun_under(referee, g, round, ruleset)?;
            return self.view(referee, battle);
        }
        let mut begun = None;
        let written = self.event_write(referee, id, |battles, t, _| {
            let g = game(t, round, table)?;
            if let Some(battle) = g.battle {
                begun_under(referee, g, round, ruleset)?;
                // Begun meanwhile by another window: nothing more to write.
                begun = Some(battle);
                return Err(RefereeError::new(ErrorCode::EventResultIn, "begun"));
            }
            if g.result.is_some() {
                return Err(RefereeError::new(
                    ErrorCode::EventResultIn,
                    format!("Table {table} of round {round} has its result already."),
                ));
            }
            // Asked only of a table still to be begun.
            let ruleset = table_system(referee, t, g, round, ruleset)?;
            let side = |name: &str| SideSetup {
                name: name.to_string(),
                commands: Vec::new(),
                panic_level: None,
                stacking_limit: None,
            };
            let view = battles.create(
                referee,
                &NewBattle {
                    name: battle_name(&t.setup.name, round, table),
                    ruleset: ruleset.clone(),
                    sides: vec![side(&g.pairing.a), side(&g.pairing.b)],
                    units: Vec::new(),
                    preset_sides: None,
                },
            )?;
            begun = Some(view.id);
            Ok(TournamentEntry::BattleBegun {
                round,
                table,
                battle: view.id,
                ruleset: Some(ruleset.clone()),
            })
        });
        match (written, begun) {
            (Ok(_), Some(battle)) => self.view(referee, battle),
            (Err(e), Some(battle)) if e.message == "Begun." => self.view(referee, battle),
            (Err(e), _) => Err(e),
            (Ok(_), None) => Err(invalid("The battle could not be begun.")),
        }
    }

    /// The result of the battle begun at a table, as its own verdict gives it.
    pub fn event_result_from_battle(
        &mut self,
        referee: &Referee,
        id: i64,
        round: u32,
        table: u32,
    ) -> Result<EventView, RefereeError> {
        self.event_write(referee, id, |battles, t, _| {
            let g = game(t, round, table)?;
            let Some(battle_id) = g.battle else {
                return Err(RefereeError::new(
                    ErrorCode::EventNoVerdict,
                    format!("No battle was begun at table {table} of round {round}: begin it, import its battle file, or enter its result by hand."),
                ));
            };
            let battle = battles.battle(referee, battle_id)?;
            let ruleset = referee.ruleset(&battle.state.ruleset)?;
            let verdict = referee_core::battle::verdict(ruleset, &battle.state);
            let result = result_from_verdict(
                verdict,
                &g.pairing.a,
                &g.pairing.b,
                table,
                ResultSource::Battle { battle: battle_id },
                &battle.state.ruleset,
            )?;
            Ok(TournamentEntry::ResultRecorded {
                round,
                table,
                result,
            })
        })
    }

    /// The result of a table's battle from the battle file its device exported: the file checked
    /// whole (its record's hash chain), of one of this event's systems and these two players, with a
    /// verdict. The battle is not stored here.
    pub fn event_result_import(
        &mut self,
        referee: &Referee,
        id: i64,
        round: u32,
        table: u32,
        text: &str,
    ) -> Result<EventView, RefereeError> {
        self.event_write(referee, id, |_, t, _| {
            let g = game(t, round, table)?;
            let from = format!("The battle file from table {table}");
            let retold = |e: RefereeError| -> RefereeError {
                let code = e.code;
                let message = if code == ErrorCode::ImportDamaged {
                    format!("{from} was changed after it was exported: ask table {table} for the file again.")
                } else {
                    let said = lowercase_first(&e.message);
                    match ["the battle file ", "the file "]
                        .iter()
                        .find_map(|p| said.strip_prefix(p))
                    {
                        Some(rest) => format!("{from} {rest}"),
                        None => format!("{from} cannot be used: {said}"),
                    }
                };
                RefereeError::new(code, message)
            };
            // Its system first, from the file's head: a battle of another system is named so.
            let head = BattleFile::parse(text).map_err(|e| retold(e.into()))?;
            if !t.setup.plays(&head.ruleset) {
                return Err(RefereeError::new(
                    ErrorCode::EventWrongSystem,
                    format!(
                        "{from} is {} battle; this event plays {}: ask table {table} for the file of the battle they played here.",
                        a_system(referee, &head.ruleset),
                        systems_words(referee, &t.setup.rulesets)
                    ),
                ));
            }
            let (file, battle) = read_battle_file(referee, text).map_err(retold)?;
            // The same file twice is said so before anything else about it.
            let head = file_head(&file);
            for r in &t.rounds {
                for other in &r.games {
                    if matches!(&other.result, Some(GameResult { source: ResultSource::File { head: h }, .. }) if *h == head)
                    {
                        return Err(RefereeError::new(
                            ErrorCode::EventImportedTwice,
                            format!(
                                "This battle file was imported already, for table {} of round {}.",
                                other.pairing.table, r.number
                            ),
                        ));
                    }
                }
            }
            let names: Vec<&str> = battle.state.sides.iter().map(|s| s.name.as_str()).collect();
            let mut want = [g.pairing.a.as_str(), g.pairing.b.as_str()];
            let mut got = names.clone();
            want.sort_unstable();
            got.sort_unstable();
            if got != want {
                return Err(RefereeError::new(
                    ErrorCode::EventWrongPlayers,
                    format!(
                        "{from} is a battle of {}, but table {table} of round {round} is {} against {}: ask table {table} for their own battle's file.",
                        referee_core::error::and_list(&names),
                        g.pairing.a,
                        g.pairing.b
                    ),
                ));
            }
            let ruleset = referee.ruleset(&battle.state.ruleset)?;
            let verdict = referee_core::battle::verdict(ruleset, &battle.state);
            let result = result_from_verdict(
                verdict,
                &g.pairing.a,
                &g.pairing.b,
                table,
                ResultSource::File { head },
                &battle.state.ruleset,
            )?;
            Ok(TournamentEntry::ResultRecorded {
                round,
                table,
                result,
            })
        })
    }

    /// A result entered by hand: the winner (none for a draw) and the victory points if counted.
    pub fn event_result_by_hand(
        &mut self,
        referee: &Referee,
        id: i64,
        round: u32,
        table: u32,
        hand: &HandResult,
    ) -> Result<EventView, RefereeError> {
        for (field, vp) in [
            ("victory_points_a", hand.victory_points_a),
            ("victory_points_b", hand.victory_points_b),
        ] {
            if let Some(vp) = vp {
                if !vp.is_finite() || !(0.0..=MAX_VICTORY_POINTS).contains(&vp) {
                    return Err(invalid(format!(
                        "Victory points run from 0 to {}: enter the points the battle gave.",
                        number(MAX_VICTORY_POINTS)
                    ))
                    .field(field));
                }
            }
        }
        if let Some(note) = &hand.note {
            check_name("note", "note", note)?;
        }
        self.event_write(referee, id, |_, t, _| {
            let g = game(t, round, table)?;
            let ruleset = table_system(referee, t, g, round, hand.ruleset.as_deref())?;
            let (a, b) = (g.pairing.a.as_str(), g.pairing.b.as_str());
            let outcomes = match hand.winner.as_deref().map(str::trim) {
                None | Some("") => (Outcome::Draw, Outcome::Draw),
                Some(w) if w == a => (Outcome::Win, Outcome::Loss),
                Some(w) if w == b => (Outcome::Loss, Outcome::Win),
                Some(w) => {
                    return Err(RefereeError::new(
                        ErrorCode::EventWrongPlayers,
                        format!("{w} is not playing at table {table} of round {round}: it is {a} against {b}."),
                    )
                    .field("winner"))
                }
            };
            let score = match (hand.victory_points_a, hand.victory_points_b) {
                (Some(x), Some(y)) if outcomes.1 == Outcome::Win => {
                    format!(", {}–{}", number(y), number(x))
                }
                (Some(x), Some(y)) => format!(", {}–{}", number(x), number(y)),
                _ => String::new(),
            };
            let mut words = match outcomes.0 {
                Outcome::Win => format!("Entered by hand: {a} beat {b}{score}."),
                Outcome::Loss => format!("Entered by hand: {b} beat {a}{score}."),
                Outcome::Draw => format!("Entered by hand: {a} and {b} drew{score}."),
            };
            if let Some(note) = hand.note.as_deref().map(str::trim).filter(|n| !n.is_empty()) {
                words.push_str(&format!(" Note: {note}"));
            }
            Ok(TournamentEntry::ResultRecorded {
                round,
                table,
                result: GameResult {
                    source: ResultSource::Hand,
                    players: vec![
                        PlayerResult {
                            player: a.to_string(),
                            outcome: outcomes.0,
                            victory_points: hand.victory_points_a,
                        },
                        PlayerResult {
                            player: b.to_string(),
                            outcome: outcomes.1,
                            victory_points: hand.victory_points_b,
                        },
                    ],
                    words,
                    rule: String::new(),
                    ruleset: Some(ruleset),
                },
            })
        })
    }

    /// Takes back the last entry in force (never the event's creation).
    pub fn event_undo(&mut self, referee: &Referee, id: i64) -> Result<EventView, RefereeError> {
        self.event_write(referee, id, |_, _, entries| {
            if undo_redo(entries).0.is_none() {
                return Err(invalid(
                    "There is nothing to undo: the event has only been created.",
                ));
            }
            Ok(TournamentEntry::Undone)
        })
    }

    /// Puts back the last entry undone.
    pub fn event_redo(&mut self, referee: &Referee, id: i64) -> Result<EventView, RefereeError> {
        self.event_write(referee, id, |_, _, entries| {
            if undo_redo(entries).1.is_none() {
                return Err(invalid(
                    "There is nothing to redo: nothing was undone since the last change.",
                ));
            }
            Ok(TournamentEntry::Redone)
        })
    }

    /// The scoring settings an event can be created with.
    pub fn event_scorings(&self, referee: &Referee) -> Vec<Scoring> {
        referee.scorings()
    }

    /// The event's entries in force, for the tests and the check of a database.
    pub fn event_entries_in_force(
        &mut self,
        id: i64,
    ) -> Result<Vec<TournamentEntry>, RefereeError> {
        let entries = self.event_entries(id)?;
        Ok(in_force(&entries).into_iter().cloned().collect())
    }

    /// Every entry stored for an event, undo and redo included (what a refusal must leave as it
    /// was).
    pub fn event_record(&mut self, id: i64) -> Result<Vec<TournamentEntry>, RefereeError> {
        self.event_entries(id)
    }
}

fn lowercase_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if !chars.clone().next().is_some_and(char::is_uppercase) => {
            c.to_lowercase().chain(chars).collect()
        }
        _ => s.to_string(),
    }
}

/// The rule system's name as the app shows it (its id when it is not loaded).
pub(crate) fn ruleset_name(referee: &Referee, id: &str) -> String {
    referee
        .ruleset(id)
        .map_or_else(|_| id.to_uppercase(), |r| r.info.name.clone())
}

/// The event's rule system's name as the app shows it; several by their short names, joined
/// ("GTS and ITACS"): the full names together are too long for a heading on a phone.
pub(crate) fn rulesets_name(referee: &Referee, ids: &[String]) -> String {
    match ids {
        [one] => ruleset_name(referee, one),
        several => systems_words(referee, several),
    }
}

/// The event's rule systems as a sentence names them ("DBMM 2.x", "GTS and ITACS").
fn systems_words(referee: &Referee, ids: &[String]) -> String {
    let words: Vec<String> = ids.iter().map(|id| system_words(referee, id)).collect();
    referee_core::error::and_list(&words.iter().map(String::as_str).collect::<Vec<_>>())
}

/// The system a table plays: the one asked for (one of the event's), else the one its game
/// already names, else the event's only one; at an event of several, which is asked.
fn table_system(
    referee: &Referee,
    t: &Tournament,
    g: &Game,
    round: u32,
    asked: Option<&str>,
) -> Result<String, RefereeError> {
    let table = g.pairing.table;
    let choose = or_list(referee, &t.setup.rulesets);
    match (asked, &g.ruleset, t.setup.rulesets.as_slice()) {
        (Some(r), _, _) => {
            referee.ruleset(r).map_err(|e| e.field("ruleset"))?;
            if !t.setup.plays(r) {
                return Err(RefereeError::new(
                    ErrorCode::EventWrongSystem,
                    format!(
                        "This event plays {}, not {}: choose {choose}.",
                        systems_words(referee, &t.setup.rulesets),
                        system_words(referee, r)
                    ),
                )
                .field("ruleset"));
            }
            Ok(r.to_string())
        }
        (None, Some(known), _) => Ok(known.clone()),
        (None, None, [only]) => Ok(only.clone()),
        (None, None, _) => Err(invalid(format!(
            "Table {table} of round {round} plays which system? Choose {choose}."
        ))
        .field("ruleset")),
    }
}

/// A table whose battle is begun already, asked to begin one under another system: refused (a
/// second tap under the same system opens the battle begun).
fn begun_under(
    referee: &Referee,
    g: &Game,
    round: u32,
    asked: Option<&str>,
) -> Result<(), RefereeError> {
    match (asked, &g.ruleset) {
        (Some(asked), Some(known)) if asked != known => {
            referee.ruleset(asked).map_err(|e| e.field("ruleset"))?;
            Err(RefereeError::new(
                ErrorCode::EventWrongSystem,
                format!(
                    "Table {} of round {round} has begun its battle under {} already, not {}: open that battle.",
                    g.pairing.table,
                    system_words(referee, known),
                    system_words(referee, asked)
                ),
            )
            .field("ruleset"))
        }
        _ => Ok(()),
    }
}

/// The rule system with its article: "a DBMM 2.x", "an ITACS".
fn a_system(referee: &Referee, id: &str) -> String {
    let name = system_words(referee, id);
    format!("{} {name}", referee_core::error::article_for(&name))
}

/// The rule systems as a choice names them ("GTS or ITACS").
fn or_list(referee: &Referee, ids: &[String]) -> String {
    referee_core::error::or_list(
        &ids.iter()
            .map(|id| system_words(referee, id))
            .collect::<Vec<_>>(),
    )
}

/// The rule system as a sentence names it: its name up to a dash or bracket ("DBMM 2.x", "GTS").
pub(crate) fn system_words(referee: &Referee, id: &str) -> String {
    let name = ruleset_name(referee, id);
    let short = name
        .split(" — ")
        .next()
        .and_then(|n| n.split(" (").next())
        .unwrap_or(&name)
        .trim();
    short.to_string()
}

/// "<event>, round R, table T", the event's name shortened if the whole would be too long.
fn battle_name(event: &str, round: u32, table: u32) -> String {
    let tail = format!(", round {round}, table {table}");
    let room = NAME_MAX_CHARS.saturating_sub(tail.chars().count() + 1);
    let head: String = if event.chars().count() > room {
        event.chars().take(room).chain(['…']).collect()
    } else {
        event.to_string()
    };
    format!("{head}{tail}")
}

/// The hash a file's record ends at: its head, else its last event's, else worked out.
fn file_head(file: &BattleFile) -> String {
    if let Some(head) = &file.head {
        return head.hash.clone();
    }
    if let Some(hash) = file.events.last().and_then(|e| e.hash.clone()) {
        return hash;
    }
    let mut prev = CHAIN_START.to_string();
    for e in &file.events {
        let FileEvent {
            seq,
            at,
            body,
            detail,
            ..
        } = e;
        prev = event_hash(&prev, *seq, at, body, detail.as_ref().map(|d| d.get()));
    }
    prev
}

/// A battle's verdict as the pairing's result: each side matched to its player by name, the
/// battle's system kept with it.
fn result_from_verdict(
    verdict: Option<referee_core::rule_system::standing::Verdict>,
    a: &str,
    b: &str,
    table: u32,
    source: ResultSource,
    ruleset: &str,
) -> Result<GameResult, RefereeError> {
    let Some(verdict) = verdict else {
        return Err(RefereeError::new(
            ErrorCode::EventNoVerdict,
            format!("The battle at table {table} has no result yet: apply a result in it first."),
        ));
    };
    let player = |name: &str| -> Result<PlayerResult, RefereeError> {
        let side = verdict.sides.iter().find(|s| s.side == name).ok_or_else(|| {
            RefereeError::new(
                ErrorCode::EventWrongPlayers,
                format!("The battle at table {table} has no side named {name}: its sides are named after the players, {a} and {b}."),
            )
        })?;
        Ok(PlayerResult {
            player: name.to_string(),
            outcome: side.outcome,
            victory_points: side.victory_points,
        })
    };
    Ok(GameResult {
        source,
        players: vec![player(a)?, player(b)?],
        words: verdict.words.clone(),
        rule: match &verdict.ruling {
            Some(ruling) if !verdict.rule.is_empty() => format!("{}, {ruling}", verdict.rule),
            Some(ruling) => ruling.clone(),
            None => verdict.rule.clone(),
        },
        ruleset: Some(ruleset.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_battle_name_keeps_the_round_and_table_however_long_the_event_name() {
        assert_eq!(
            battle_name("Cold Wars", 2, 3),
            "Cold Wars, round 2, table 3"
        );
        let long = battle_name(&"x".repeat(NAME_MAX_CHARS), 12, 40);
        assert!(long.chars().count() <= NAME_MAX_CHARS);
        assert!(long.ends_with("…, round 12, table 40"));
    }

    #[test]
    fn numbers_are_said_without_needless_decimals() {
        assert_eq!(number(18.0), "18");
        assert_eq!(number(12.5), "12.5");
    }
}
