//! A convention event (in code a tournament, so it is never confused with a battle's events):
//! its players with their armies, its rounds paired (Swiss or round robin, a bye for an odd
//! count, table numbers), each game's result — a battle's own verdict (begun from the pairing,
//! or a battle file imported from another table's device) or entered by hand — and the
//! standings. Like a battle it is a fold over append-only entries, undo and redo among them.
//! Pure: the caller stores the entries, shuffles a random first round with its seeded dice, and
//! checks battle files; this module decides nothing it cannot decide from what it is given.

pub mod pairing;
pub mod scoring;
pub mod standings;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::RefereeError;
use crate::ErrorCode;

pub use scoring::Scoring;

/// How the rounds are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum PairingMethod {
    /// Players grouped by score and paired within the group, no rematch where avoidable.
    Swiss,
    /// Everyone meets everyone once (small events).
    RoundRobin,
}

/// How the first round of a Swiss event is paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum FirstRound {
    /// In an order drawn with the app's seeded dice (the seed kept with the round).
    Random,
    /// By the players' seeds (the order they were entered): the top half against the bottom half.
    Seeded,
}

/// What an event is, as it is created.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct TournamentSetup {
    pub name: String,
    /// The rule systems its battles are played under (ruleset ids: `dbmm`; `gts` and `itacs`
    /// for a participation day). Stored events of one system said it as `ruleset`.
    #[serde(alias = "ruleset", deserialize_with = "one_or_many")]
    pub rulesets: Vec<String>,
    /// The scoring settings' id (a file of rulesets/events/).
    pub scoring: String,
    pub pairing: PairingMethod,
    pub first_round: FirstRound,
    /// How many rounds are planned (a round robin has as many as it needs).
    pub rounds: u32,
}

/// Reads a list of ruleset ids, or the one id an event of one system stored (serde's
/// `deserialize_with`, for the setup and the request that creates it).
pub fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    Ok(match OneOrMany::deserialize(d)? {
        OneOrMany::One(id) => vec![id],
        OneOrMany::Many(ids) => ids,
    })
}

impl TournamentSetup {
    /// Whether its battles may be played under this ruleset.
    pub fn plays(&self, ruleset: &str) -> bool {
        self.rulesets.iter().any(|r| r == ruleset)
    }
}

/// A player and the army he brings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct Player {
    pub name: String,
    pub army: String,
    /// Withdrawn from the event: kept in the standings, no longer paired.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(optional, as = "Option<bool>")]
    pub withdrawn: bool,
}

/// One game of a round: two players at a numbered table. Players are named (names are unique
/// within an event).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct Pairing {
    pub table: u32,
    pub a: String,
    pub b: String,
}

/// A game's result for one player. Said as GameOutcome in TypeScript: the contract's resolution
/// outcome is Outcome there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "GameOutcome")]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

/// Where a result came from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ResultSource {
    /// A battle of this database, begun from the pairing.
    Battle { battle: i64 },
    /// A battle file from another table's device, its hash chain checked: the chain's head
    /// hash, so the same file is never imported twice.
    File { head: String },
    /// Entered by hand (a table without a device).
    Hand,
}

/// What one player got from a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct PlayerResult {
    pub player: String,
    pub outcome: Outcome,
    /// The battle's victory points for this player (DBMM's share of 25, ITACS's points, GTS's
    /// enemy units lost), where the system counts them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub victory_points: Option<f64>,
}

/// A game's result: each player's share, and how it was reached in the rules' words.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct GameResult {
    pub source: ResultSource,
    /// The two players' results, in the pairing's order (a, then b).
    pub players: Vec<PlayerResult>,
    /// The verdict as the battle gives it ("Anna wins 18–7 on victory points (…)"), or as the
    /// umpire entered it.
    pub words: String,
    /// The rule section the verdict rests on (empty for a result entered by hand).
    #[serde(default)]
    pub rule: String,
    /// The rule system the game was played under (none in results stored before an event could
    /// name several).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub ruleset: Option<String>,
}

/// One entry of an event's log. Entries are only appended; undo and redo are entries too.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TournamentEntry {
    Created {
        setup: TournamentSetup,
    },
    PlayerAdded {
        player: Player,
    },
    /// A player leaves the event (he is no longer paired; his games stay).
    PlayerWithdrawn {
        player: String,
    },
    /// A round paired; a random first round keeps the seed its order was drawn with.
    RoundPaired {
        round: u32,
        pairings: Vec<Pairing>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        bye: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        seed: Option<u64>,
    },
    /// Two players of a round swapped by hand before the round starts (one may hold the bye).
    PlayersSwapped {
        round: u32,
        a: String,
        b: String,
    },
    /// A battle of this database begun from a pairing: the round has started.
    BattleBegun {
        round: u32,
        table: u32,
        battle: i64,
        /// The rule system it is played under, one of the event's (none in events stored before
        /// an event could name several: their one system).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        ruleset: Option<String>,
    },
    ResultRecorded {
        round: u32,
        table: u32,
        result: GameResult,
    },
    /// The last entry in force taken back.
    Undone,
    /// The last entry undone put back.
    Redone,
}

/// A round as it stands.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct Round {
    pub number: u32,
    pub games: Vec<Game>,
    #[ts(optional)]
    pub bye: Option<String>,
}

/// A game as it stands: its pairing, the battle begun from it and its system, its result.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct Game {
    pub pairing: Pairing,
    #[ts(optional)]
    pub battle: Option<i64>,
    /// The rule system its battle is played under, once begun or its file imported.
    #[ts(optional)]
    pub ruleset: Option<String>,
    #[ts(optional)]
    pub result: Option<GameResult>,
}

impl Round {
    /// A round has started once a battle is begun from it or a result is in: its pairings are
    /// then no longer edited by hand.
    pub fn started(&self) -> bool {
        self.games
            .iter()
            .any(|g| g.battle.is_some() || g.result.is_some())
    }

    /// The player is in this round: paired, or holding the bye.
    pub fn holds(&self, name: &str) -> bool {
        self.bye.as_deref() == Some(name)
            || self
                .games
                .iter()
                .any(|g| g.pairing.a == name || g.pairing.b == name)
    }

    /// The tables still waiting for a result.
    pub fn waiting(&self) -> Vec<u32> {
        self.games
            .iter()
            .filter(|g| g.result.is_none())
            .map(|g| g.pairing.table)
            .collect()
    }
}

/// An event as its entries in force make it.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct Tournament {
    pub setup: TournamentSetup,
    pub players: Vec<Player>,
    pub rounds: Vec<Round>,
}

impl Tournament {
    /// Folds an event's entries (the first must be `Created`), undo and redo included. An entry
    /// the event refuses is an error naming it: stored entries were each checked when written.
    pub fn open(entries: &[TournamentEntry]) -> Result<Tournament, RefereeError> {
        let in_force = in_force(entries);
        let mut it = in_force.into_iter();
        let Some(TournamentEntry::Created { setup }) = it.next() else {
            return Err(RefereeError::new(
                ErrorCode::EventInvalid,
                "The event's record does not begin with its creation.",
            ));
        };
        if setup.rulesets.is_empty() {
            return Err(RefereeError::new(
                ErrorCode::EventInvalid,
                "The event names no rule system: choose one or more.",
            ));
        }
        let mut t = Tournament {
            setup: setup.clone(),
            players: Vec::new(),
            rounds: Vec::new(),
        };
        // Landed in place, not through `apply`'s copy: a refused entry fails the whole fold, and
        // copying the event for each entry would make opening it quadratic.
        for e in it {
            t.land(e)?;
        }
        Ok(t)
    }

    /// Applies one entry, or refuses it in a sentence, leaving the event as it was.
    pub fn apply(&mut self, entry: &TournamentEntry) -> Result<(), RefereeError> {
        let mut next = self.clone();
        next.land(entry)?;
        *self = next;
        Ok(())
    }

    fn land(&mut self, entry: &TournamentEntry) -> Result<(), RefereeError> {
        match entry {
            TournamentEntry::Created { .. } => Err(RefereeError::new(
                ErrorCode::EventInvalid,
                "The event was created already.",
            )),
            TournamentEntry::PlayerAdded { player } => self.add_player(player),
            TournamentEntry::PlayerWithdrawn { player } => self.withdraw(player),
            TournamentEntry::RoundPaired {
                round,
                pairings,
                bye,
                ..
            } => self.pair(*round, pairings, bye.as_deref()),
            TournamentEntry::PlayersSwapped { round, a, b } => self.swap(*round, a, b),
            TournamentEntry::BattleBegun {
                round,
                table,
                battle,
                ruleset,
            } => {
                let ruleset = match ruleset {
                    Some(r) => self.played_here(r)?.to_string(),
                    None => self.setup.rulesets.first().cloned().unwrap_or_default(),
                };
                let game = self.game_mut(*round, *table)?;
                if game.result.is_some() {
                    return Err(RefereeError::new(
                        ErrorCode::EventResultIn,
                        format!("Table {table} of round {round} has its result already."),
                    ));
                }
                game.battle = Some(*battle);
                game.ruleset = Some(ruleset);
                Ok(())
            }
            TournamentEntry::ResultRecorded {
                round,
                table,
                result,
            } => self.record(*round, *table, result),
            TournamentEntry::Undone | TournamentEntry::Redone => Ok(()),
        }
    }

    pub fn player(&self, name: &str) -> Option<&Player> {
        self.players.iter().find(|p| p.name == name)
    }

    fn add_player(&mut self, player: &Player) -> Result<(), RefereeError> {
        let name = player.name.trim();
        if name.is_empty() {
            return Err(RefereeError::new(
                ErrorCode::EventInvalid,
                "The player's name is missing.",
            )
            .field("name"));
        }
        if self
            .players
            .iter()
            .any(|p| p.name.to_lowercase() == name.to_lowercase())
        {
            return Err(RefereeError::new(
                ErrorCode::EventDuplicatePlayer,
                format!("{name} is already a player of this event: give each player a name of his own (add a club or an initial)."),
            )
            .field("name"));
        }
        self.players.push(Player {
            name: name.to_string(),
            army: player.army.trim().to_string(),
            withdrawn: false,
        });
        Ok(())
    }

    fn withdraw(&mut self, name: &str) -> Result<(), RefereeError> {
        let Some(p) = self.players.iter_mut().find(|p| p.name == name) else {
            return Err(RefereeError::new(
                ErrorCode::EventUnknownPlayer,
                format!("{name} is not a player of this event."),
            ));
        };
        if p.withdrawn {
            return Err(RefereeError::new(
                ErrorCode::EventInvalid,
                format!("{name} has withdrawn already."),
            ));
        }
        p.withdrawn = true;
        Ok(())
    }

    /// The players still paired, in the order entered.
    pub fn active_players(&self) -> impl Iterator<Item = &Player> {
        self.players.iter().filter(|p| !p.withdrawn)
    }

    fn pair(
        &mut self,
        round: u32,
        pairings: &[Pairing],
        bye: Option<&str>,
    ) -> Result<(), RefereeError> {
        let expected = self.rounds.len() as u32 + 1;
        if round < expected {
            return Err(RefereeError::new(
                ErrorCode::EventRoundPaired,
                format!("Round {round} is paired already: edit its pairings, or undo the pairing to pair it again."),
            ));
        }
        if round > expected {
            return Err(RefereeError::new(
                ErrorCode::EventInvalid,
                format!("Round {expected} comes before round {round}."),
            ));
        }
        self.results_in(round)?;
        let mut seen: Vec<&str> = Vec::new();
        for name in pairings
            .iter()
            .flat_map(|p| [p.a.as_str(), p.b.as_str()])
            .chain(bye)
        {
            match self.player(name) {
                None => {
                    return Err(RefereeError::new(
                        ErrorCode::EventUnknownPlayer,
                        format!("{name} is not a player of this event."),
                    ))
                }
                Some(p) if p.withdrawn => {
                    return Err(RefereeError::new(
                        ErrorCode::EventInvalid,
                        format!("{name} has withdrawn from the event and is no longer paired."),
                    ))
                }
                Some(_) => {}
            }
            if seen.contains(&name) {
                return Err(RefereeError::new(
                    ErrorCode::EventInvalid,
                    format!("{name} is paired twice in round {round}."),
                ));
            }
            seen.push(name);
        }
        self.rounds.push(Round {
            number: round,
            games: pairings
                .iter()
                .map(|p| Game {
                    pairing: p.clone(),
                    battle: None,
                    ruleset: None,
                    result: None,
                })
                .collect(),
            bye: bye.map(str::to_string),
        });
        Ok(())
    }

    /// Refuses pairing round `round` while the round before still waits for results: the
    /// standings, and so the pairing, rest on them.
    pub fn results_in(&self, round: u32) -> Result<(), RefereeError> {
        if let Some(last) = self.rounds.last() {
            let waiting = last.waiting();
            if !waiting.is_empty() {
                let tables: Vec<String> = waiting.iter().map(|t| format!("table {t}")).collect();
                let tables: Vec<&str> = tables.iter().map(String::as_str).collect();
                let (results, them) = if waiting.len() == 1 {
                    ("result", "it")
                } else {
                    ("results", "them")
                };
                return Err(RefereeError::new(
                    ErrorCode::EventResultsMissing,
                    format!(
                        "Round {} still waits for the {results} from {}: enter {them} before pairing round {round}.",
                        last.number,
                        crate::error::and_list(&tables),
                    ),
                ));
            }
        }
        Ok(())
    }

    fn swap(&mut self, round: u32, a: &str, b: &str) -> Result<(), RefereeError> {
        let r = self.round_mut(round)?;
        if r.started() {
            return Err(RefereeError::new(
                ErrorCode::EventRoundStarted,
                format!("Round {round} has started: its pairings can no longer be changed."),
            ));
        }
        let swap = |n: &mut String| {
            if n == a {
                *n = b.to_string();
            } else if n == b {
                *n = a.to_string();
            }
        };
        let mut found = 0;
        for name in r
            .games
            .iter_mut()
            .flat_map(|g| [&mut g.pairing.a, &mut g.pairing.b])
            .chain(r.bye.as_mut())
        {
            if name == a || name == b {
                found += 1;
            }
            swap(name);
        }
        if found != 2 || a == b {
            return Err(RefereeError::new(
                ErrorCode::EventNotInRound,
                format!("{a} and {b} are not two players of round {round}."),
            ));
        }
        Ok(())
    }

    /// Refuses a battle of a rule system this event does not play (the API names the systems
    /// before it gets here; the fold only guards its own consistency).
    fn played_here<'a>(&self, ruleset: &'a str) -> Result<&'a str, RefereeError> {
        if self.setup.plays(ruleset) {
            Ok(ruleset)
        } else {
            Err(RefereeError::new(
                ErrorCode::EventWrongSystem,
                "This event does not play that rule system: choose one of the event's.",
            ))
        }
    }

    fn record(&mut self, round: u32, table: u32, result: &GameResult) -> Result<(), RefereeError> {
        if let Some(ruleset) = &result.ruleset {
            self.played_here(ruleset)?;
        }
        if let ResultSource::File { head } = &result.source {
            let twice = self
                .rounds
                .iter()
                .flat_map(|r| r.games.iter().map(move |g| (r.number, g)))
                .find(|(_, g)| {
                    matches!(&g.result, Some(GameResult { source: ResultSource::File { head: h }, .. }) if h == head)
                });
            if let Some((r, g)) = twice {
                return Err(RefereeError::new(
                    ErrorCode::EventImportedTwice,
                    format!(
                        "This battle file was imported already, for table {} of round {r}.",
                        g.pairing.table
                    ),
                ));
            }
        }
        let game = self.game_mut(round, table)?;
        if game.result.is_some() {
            return Err(RefereeError::new(
                ErrorCode::EventResultIn,
                format!("Table {table} of round {round} has its result already: undo it first to enter another."),
            ));
        }
        let names: Vec<&str> = result.players.iter().map(|p| p.player.as_str()).collect();
        if names != [game.pairing.a.as_str(), game.pairing.b.as_str()] {
            return Err(RefereeError::new(
                ErrorCode::EventWrongPlayers,
                format!(
                    "Table {table} of round {round} is {} against {}, not this result's players.",
                    game.pairing.a, game.pairing.b
                ),
            ));
        }
        if result.ruleset.is_some() {
            game.ruleset = result.ruleset.clone();
        }
        game.result = Some(result.clone());
        Ok(())
    }

    pub fn round(&self, round: u32) -> Option<&Round> {
        self.rounds.iter().find(|r| r.number == round)
    }

    fn round_mut(&mut self, round: u32) -> Result<&mut Round, RefereeError> {
        self.rounds
            .iter_mut()
            .find(|r| r.number == round)
            .ok_or_else(|| {
                RefereeError::new(
                    ErrorCode::EventNotInRound,
                    format!("Round {round} is not paired yet."),
                )
            })
    }

    fn game_mut(&mut self, round: u32, table: u32) -> Result<&mut Game, RefereeError> {
        let r = self.round_mut(round)?;
        r.games
            .iter_mut()
            .find(|g| g.pairing.table == table)
            .ok_or_else(|| {
                RefereeError::new(
                    ErrorCode::EventNotInRound,
                    format!("Round {round} has no table {table}."),
                )
            })
    }
}

/// The entries in force: each `Undone` takes back the last entry in force, each `Redone` puts
/// back the last undone; a new entry forgets what was undone before it.
pub fn in_force(entries: &[TournamentEntry]) -> Vec<&TournamentEntry> {
    undo_stacks(entries).0
}

/// What Undo would take back (never the creation) and what Redo would put back.
pub fn undo_redo(
    entries: &[TournamentEntry],
) -> (Option<&TournamentEntry>, Option<&TournamentEntry>) {
    let (kept, undone) = undo_stacks(entries);
    let undo = (kept.len() > 1).then(|| kept.last().copied()).flatten();
    (undo, undone.last().copied())
}

/// The entries in force and those undone, in order.
fn undo_stacks(entries: &[TournamentEntry]) -> (Vec<&TournamentEntry>, Vec<&TournamentEntry>) {
    let mut kept: Vec<&TournamentEntry> = Vec::new();
    let mut undone: Vec<&TournamentEntry> = Vec::new();
    for e in entries {
        match e {
            TournamentEntry::Undone => {
                // The creation is never undone.
                if kept.len() > 1 {
                    undone.extend(kept.pop());
                }
            }
            TournamentEntry::Redone => kept.extend(undone.pop()),
            _ => {
                undone.clear();
                kept.push(e);
            }
        }
    }
    (kept, undone)
}

/// Events built and played out for the tests of the tournament modules.
#[cfg(test)]
pub(crate) mod sample {
    use super::*;

    pub fn setup(pairing: PairingMethod, first_round: FirstRound, rounds: u32) -> TournamentSetup {
        TournamentSetup {
            name: "Autumn open".into(),
            rulesets: vec!["dbmm".into()],
            scoring: "win-draw-loss".into(),
            pairing,
            first_round,
            rounds,
        }
    }

    /// Players `P01`, `P02` … in seed order.
    pub fn name(seed: usize) -> String {
        format!("P{seed:02}")
    }

    pub fn event(setup: TournamentSetup, players: usize) -> Tournament {
        let mut entries = vec![TournamentEntry::Created { setup }];
        entries.extend((1..=players).map(|i| TournamentEntry::PlayerAdded {
            player: Player {
                name: name(i),
                army: format!("Army {i}"),
                withdrawn: false,
            },
        }));
        Tournament::open(&entries).unwrap()
    }

    pub fn result(a: (&str, Outcome, Option<f64>), b: (&str, Outcome, Option<f64>)) -> GameResult {
        let one = |(player, outcome, victory_points): (&str, Outcome, Option<f64>)| PlayerResult {
            player: player.into(),
            outcome,
            victory_points,
        };
        GameResult {
            source: ResultSource::Hand,
            players: vec![one(a), one(b)],
            words: "Entered by hand.".into(),
            rule: String::new(),
            ruleset: None,
        }
    }

    pub fn scoring(id: &str) -> Scoring {
        scoring::builtin_scorings()
            .into_iter()
            .find(|s| s.id == id)
            .unwrap()
    }
}

#[cfg(test)]
mod withdrawal {
    use super::sample::*;
    use super::*;

    /// A player who withdraws after round 1 is not paired again: the 15 left give a bye; his
    /// game stays in the standings; withdrawing twice, or pairing him by hand, is refused.
    #[test]
    fn a_withdrawn_player_is_no_longer_paired_and_keeps_his_games() {
        let mut t = event(setup(PairingMethod::Swiss, FirstRound::Seeded, 3), 16);
        let s = scoring("win-draw-loss");
        let plan = pairing::pair_next(&t, &s, &[]).unwrap();
        t.apply(&TournamentEntry::RoundPaired {
            round: 1,
            pairings: plan.pairings.clone(),
            bye: None,
            seed: None,
        })
        .unwrap();
        for p in &plan.pairings {
            let r = sample::result(
                (&p.a, Outcome::Win, Some(15.0)),
                (&p.b, Outcome::Loss, Some(10.0)),
            );
            t.apply(&TournamentEntry::ResultRecorded {
                round: 1,
                table: p.table,
                result: r,
            })
            .unwrap();
        }
        let gone = name(16);
        t.apply(&TournamentEntry::PlayerWithdrawn {
            player: gone.clone(),
        })
        .unwrap();
        let again = t
            .apply(&TournamentEntry::PlayerWithdrawn {
                player: gone.clone(),
            })
            .unwrap_err();
        assert_eq!(again.message, format!("{gone} has withdrawn already."));
        let plan = pairing::pair_next(&t, &s, &[]).unwrap();
        let paired: Vec<&str> = plan
            .pairings
            .iter()
            .flat_map(|p| [p.a.as_str(), p.b.as_str()])
            .chain(plan.bye.as_deref())
            .collect();
        assert_eq!(paired.len(), 15);
        assert!(!paired.contains(&gone.as_str()));
        assert!(plan.bye.is_some());
        let table = standings::standings(&t, &s);
        let row = table.iter().find(|r| r.player == gone).unwrap();
        assert_eq!(row.played, 1);
        // Pairing him by hand is refused.
        let mut by_hand = plan.pairings.clone();
        by_hand[0].b = gone.clone();
        let refused = t
            .apply(&TournamentEntry::RoundPaired {
                round: 2,
                pairings: by_hand,
                bye: plan.bye.clone(),
                seed: None,
            })
            .unwrap_err();
        assert!(refused.message.contains("withdrawn"), "{}", refused.message);
    }
}

#[cfg(test)]
mod tests {
    use super::sample::{event, name, result, setup};
    use super::*;

    fn paired(players: usize) -> Tournament {
        let mut t = event(setup(PairingMethod::Swiss, FirstRound::Seeded, 3), players);
        t.apply(&round_paired(1)).unwrap();
        t
    }

    /// Round `round`: P01 v P02 at table 1, P03 v P04 at table 2.
    fn round_paired(round: u32) -> TournamentEntry {
        let p = |table, a, b| Pairing {
            table,
            a: name(a),
            b: name(b),
        };
        TournamentEntry::RoundPaired {
            round,
            pairings: vec![p(1, 1, 2), p(2, 3, 4)],
            bye: None,
            seed: None,
        }
    }

    fn win(round: u32, table: u32, a: usize, b: usize, source: ResultSource) -> TournamentEntry {
        let mut r = result(
            (&name(a), Outcome::Win, None),
            (&name(b), Outcome::Loss, None),
        );
        r.source = source;
        TournamentEntry::ResultRecorded {
            round,
            table,
            result: r,
        }
    }

    fn file(head: &str) -> ResultSource {
        ResultSource::File { head: head.into() }
    }

    #[test]
    fn the_fold_refuses_in_sentences_and_keeps_the_event_as_it_was() {
        let added = |n: &str| TournamentEntry::PlayerAdded {
            player: Player {
                name: n.into(),
                army: "Normans".into(),
                withdrawn: false,
            },
        };
        let begun = |table| TournamentEntry::BattleBegun {
            round: 1,
            table,
            battle: 7,
            ruleset: None,
        };
        let swap = TournamentEntry::PlayersSwapped {
            round: 1,
            a: name(1),
            b: name(3),
        };
        // (entries applied first, the entry refused, its code)
        let cases: Vec<(Vec<TournamentEntry>, TournamentEntry, ErrorCode)> = vec![
            (vec![], added(" p01 "), ErrorCode::EventDuplicatePlayer),
            (vec![], added("  "), ErrorCode::EventInvalid),
            (vec![], round_paired(1), ErrorCode::EventRoundPaired),
            (vec![], round_paired(3), ErrorCode::EventInvalid),
            (
                vec![win(1, 1, 1, 2, ResultSource::Hand)],
                round_paired(2),
                ErrorCode::EventResultsMissing,
            ),
            (vec![begun(2)], swap.clone(), ErrorCode::EventRoundStarted),
            (
                vec![win(1, 1, 1, 2, file("abc"))],
                win(1, 2, 3, 4, file("abc")),
                ErrorCode::EventImportedTwice,
            ),
            (
                vec![],
                win(1, 1, 2, 1, ResultSource::Hand),
                ErrorCode::EventWrongPlayers,
            ),
            (
                vec![win(1, 1, 1, 2, ResultSource::Hand)],
                win(1, 1, 1, 2, ResultSource::Hand),
                ErrorCode::EventResultIn,
            ),
            (
                vec![],
                win(1, 3, 1, 2, ResultSource::Hand),
                ErrorCode::EventNotInRound,
            ),
        ];
        for (before, entry, code) in cases {
            let mut t = paired(5);
            for e in &before {
                t.apply(e).unwrap();
            }
            let kept = t.clone();
            let e = t.apply(&entry).unwrap_err();
            assert_eq!(e.code, code, "{entry:?}: {}", e.message);
            assert!(
                e.message.ends_with('.') && !e.message.contains('`'),
                "{}",
                e.message
            );
            assert_eq!(t, kept, "{entry:?} changed the event");
        }
        // Before a round starts, a swap lands (with the bye too).
        let mut t = paired(5);
        t.apply(&swap).unwrap();
        assert_eq!(t.rounds[0].games[0].pairing.a, name(3));
        assert_eq!(t.rounds[0].games[1].pairing.a, name(1));
    }

    #[test]
    fn undo_and_redo_follow_the_entries_in_force() {
        let mut entries = vec![TournamentEntry::Created {
            setup: setup(PairingMethod::Swiss, FirstRound::Seeded, 3),
        }];
        for i in 1..=4 {
            entries.push(TournamentEntry::PlayerAdded {
                player: Player {
                    name: name(i),
                    army: String::new(),
                    withdrawn: false,
                },
            });
        }
        entries.push(round_paired(1));
        entries.push(win(1, 1, 1, 2, ResultSource::Hand));
        let results = |e: &[TournamentEntry]| {
            let t = Tournament::open(e).unwrap();
            t.rounds
                .iter()
                .flat_map(|r| &r.games)
                .filter(|g| g.result.is_some())
                .count()
        };
        assert_eq!(results(&entries), 1);
        entries.push(TournamentEntry::Undone);
        assert_eq!(results(&entries), 0);
        entries.push(TournamentEntry::Undone);
        assert!(Tournament::open(&entries).unwrap().rounds.is_empty());
        entries.push(TournamentEntry::Redone);
        assert_eq!(Tournament::open(&entries).unwrap().rounds.len(), 1);
        entries.push(TournamentEntry::Redone);
        assert_eq!(results(&entries), 1);
        // A new entry forgets what was undone before it.
        entries.push(TournamentEntry::Undone);
        entries.push(win(1, 2, 3, 4, ResultSource::Hand));
        entries.push(TournamentEntry::Redone);
        let t = Tournament::open(&entries).unwrap();
        assert!(t.rounds[0].games[0].result.is_none());
        assert!(t.rounds[0].games[1].result.is_some());
        // The creation is never undone.
        let only = vec![entries[0].clone(), TournamentEntry::Undone];
        assert_eq!(in_force(&only).len(), 1);
    }

    /// An event stored when an event had one system (`"ruleset": "dbmm"`) opens as an event
    /// of that one system, and a battle begun in it without a system is played under it.
    #[test]
    fn an_event_stored_with_one_ruleset_still_opens() {
        let created: TournamentEntry = serde_json::from_str(
            r#"{"kind":"created","setup":{"name":"Old open","ruleset":"dbmm","scoring":"dbmm-25","pairing":"swiss","first_round":"seeded","rounds":3}}"#,
        )
        .unwrap();
        let begun: TournamentEntry =
            serde_json::from_str(r#"{"kind":"battle_begun","round":1,"table":1,"battle":7}"#)
                .unwrap();
        let mut entries = vec![created];
        entries.extend((1..=2).map(|i| TournamentEntry::PlayerAdded {
            player: Player {
                name: name(i),
                army: "Normans".into(),
                withdrawn: false,
            },
        }));
        entries.push(TournamentEntry::RoundPaired {
            round: 1,
            pairings: vec![Pairing {
                table: 1,
                a: name(1),
                b: name(2),
            }],
            bye: None,
            seed: None,
        });
        entries.push(begun);
        let t = Tournament::open(&entries).unwrap();
        assert_eq!(t.setup.rulesets, ["dbmm"]);
        assert_eq!(t.rounds[0].games[0].ruleset.as_deref(), Some("dbmm"));
        // Written again, it says the list.
        let written = serde_json::to_string(&entries[0]).unwrap();
        assert!(written.contains(r#""rulesets":["dbmm"]"#), "{written}");
    }

    /// An event of two systems: each table's battle says its own, one of the event's; a battle
    /// or a result of a third system is refused in a sentence, and an event of none is refused.
    #[test]
    fn an_event_of_two_systems_keeps_each_tables_system() {
        let mut two = setup(PairingMethod::Swiss, FirstRound::Seeded, 3);
        two.rulesets = vec!["gts".into(), "itacs".into()];
        let mut t = event(two, 4);
        t.apply(&round_paired(1)).unwrap();
        let begun = |table, ruleset: &str| TournamentEntry::BattleBegun {
            round: 1,
            table,
            battle: i64::from(table),
            ruleset: Some(ruleset.into()),
        };
        t.apply(&begun(1, "itacs")).unwrap();
        let refused = t.apply(&begun(2, "dbmm")).unwrap_err();
        assert_eq!(refused.code, ErrorCode::EventWrongSystem);
        assert!(
            refused.message.ends_with("one of the event's."),
            "{}",
            refused.message
        );
        assert_eq!(t.rounds[0].games[1].ruleset, None);
        let mut gts = result(
            (&name(3), Outcome::Win, None),
            (&name(4), Outcome::Loss, None),
        );
        gts.ruleset = Some("medieval".into());
        let refused = t
            .apply(&TournamentEntry::ResultRecorded {
                round: 1,
                table: 2,
                result: gts.clone(),
            })
            .unwrap_err();
        assert_eq!(refused.code, ErrorCode::EventWrongSystem);
        gts.ruleset = Some("gts".into());
        t.apply(&TournamentEntry::ResultRecorded {
            round: 1,
            table: 2,
            result: gts,
        })
        .unwrap();
        let systems: Vec<_> = t.rounds[0]
            .games
            .iter()
            .map(|g| g.ruleset.as_deref())
            .collect();
        assert_eq!(systems, [Some("itacs"), Some("gts")]);

        let mut none = setup(PairingMethod::Swiss, FirstRound::Seeded, 3);
        none.rulesets.clear();
        let refused = Tournament::open(&[TournamentEntry::Created { setup: none }]).unwrap_err();
        assert_eq!(refused.code, ErrorCode::EventInvalid);
    }
}
