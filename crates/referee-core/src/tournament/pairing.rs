//! Pairing a round: round 1 random (in the order drawn by the caller) or seeded; later rounds
//! Swiss — players ranked by the standings, paired top-down so that each meets the next player
//! of his score group (the last of an odd group floats down), no rematch where avoidable
//! (R-EVENT-3) —, or round robin by the circle method; a bye for an odd count (to the
//! lowest-ranked player who has had none); tables numbered from the top.

use std::collections::HashSet;

use super::standings::standings;
use super::{FirstRound, Pairing, PairingMethod, Scoring, Tournament};
use crate::error::RefereeError;
use crate::ErrorCode;

/// The next round's pairings and bye.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundPlan {
    pub pairings: Vec<Pairing>,
    pub bye: Option<String>,
}

/// The two players have met already in a round paired (a pairing counts as soon as it is made).
pub fn met(t: &Tournament, a: &str, b: &str) -> bool {
    t.rounds.iter().flat_map(|r| r.games.iter()).any(|g| {
        let p = &g.pairing;
        (p.a == a && p.b == b) || (p.a == b && p.b == a)
    })
}

/// The number of rounds the event will have: the setup's for Swiss, every opponent once for a
/// round robin (none before it has two players; never fewer than the rounds already paired).
pub fn rounds_planned(t: &Tournament) -> u32 {
    match t.setup.pairing {
        PairingMethod::Swiss => t.setup.rounds,
        PairingMethod::RoundRobin => {
            let seats = circle(t);
            let turns = if seats.iter().flatten().count() < 2 {
                0
            } else {
                seats.len() as u32 - 1
            };
            turns.max(t.rounds.len() as u32)
        }
    }
}

/// A round robin's seats for the circle method (R-EVENT-7), an empty seat making an odd count
/// even. Before round 1 is paired: the players still in the event, in the order entered, the
/// empty seat last. After: round 1 as it was paired — each table's two players in seats opposite
/// each other, the bye's holder opposite the empty seat —, so a round 1 swapped by hand turns on
/// without a rematch too. A player who withdraws keeps his seat. An event stored before the rule,
/// with a player who joined after round 1, keeps the old circle over the players still in.
pub fn circle(t: &Tournament) -> Vec<Option<String>> {
    let entered = || {
        let mut seats: Vec<Option<String>> =
            t.active_players().map(|p| Some(p.name.clone())).collect();
        if seats.len() % 2 == 1 {
            seats.push(None);
        }
        seats
    };
    let Some(first) = t.rounds.first() else {
        return entered();
    };
    // Stored before R-EVENT-7: a player who joined after round 1 (still in, or paired since).
    let later = |name: &str| t.rounds[1..].iter().any(|r| r.holds(name));
    if t.players
        .iter()
        .any(|p| !first.holds(&p.name) && (!p.withdrawn || later(&p.name)))
    {
        return entered();
    }
    let mut games: Vec<&Pairing> = first.games.iter().map(|g| &g.pairing).collect();
    games.sort_by_key(|p| p.table);
    let offset = usize::from(first.bye.is_some());
    let m = 2 * (games.len() + offset);
    let mut seats: Vec<Option<String>> = vec![None; m];
    if let Some(bye) = &first.bye {
        seats[0] = Some(bye.clone());
    }
    for (j, p) in games.into_iter().enumerate() {
        let i = j + offset;
        seats[i] = Some(p.a.clone());
        seats[m - 1 - i] = Some(p.b.clone());
    }
    seats
}

/// A player may join a round robin only before its round 1 is paired: the circle is planned
/// from round 1's players (R-EVENT-7). A Swiss event takes late entries.
pub fn may_join(t: &Tournament) -> Result<(), RefereeError> {
    if t.setup.pairing == PairingMethod::RoundRobin && !t.rounds.is_empty() {
        return Err(RefereeError::new(
            ErrorCode::EventRoundStarted,
            "Round 1 is paired, so this round robin takes no more players (each meets every other in turn): to add one, undo round 1's pairing and any round after it.",
        )
        .field("name"));
    }
    Ok(())
}

/// Two players of a round robin may be swapped by hand in round 1 only: the later rounds follow
/// from it (R-EVENT-7). A Swiss round may be swapped before it starts.
pub fn may_swap(t: &Tournament, round: u32) -> Result<(), RefereeError> {
    if t.setup.pairing == PairingMethod::RoundRobin && round > 1 {
        return Err(RefereeError::new(
            ErrorCode::EventRoundStarted,
            format!("A round robin's round {round} follows from round 1 (each meets every other in turn), so it is not swapped by hand: swap players in round 1 before it starts."),
        ));
    }
    Ok(())
}

/// Pairs the next round. `drawn` is the players' order drawn with the app's seeded dice, read
/// for a random first round only (empty: the order entered).
pub fn pair_next(
    t: &Tournament,
    scoring: &Scoring,
    drawn: &[String],
) -> Result<RoundPlan, RefereeError> {
    if t.active_players().count() < 2 {
        return Err(RefereeError::new(
            ErrorCode::EventInvalid,
            "An event needs two players before a round is paired.",
        ));
    }
    let next = t.rounds.len() as u32 + 1;
    t.results_in(next)?;
    let planned = rounds_planned(t);
    if next > planned {
        let message = match t.setup.pairing {
            PairingMethod::RoundRobin => {
                format!("All {planned} rounds of the round robin are paired: it is over.")
            }
            PairingMethod::Swiss if planned == 1 => {
                "The event has 1 round; it is paired.".to_string()
            }
            PairingMethod::Swiss => format!("The event has {planned} rounds; all are paired."),
        };
        return Err(RefereeError::new(ErrorCode::EventInvalid, message));
    }
    // A withdrawn player is no longer paired.
    let names: Vec<String> = t.active_players().map(|p| p.name.clone()).collect();
    Ok(match (t.setup.pairing, t.setup.first_round) {
        (PairingMethod::RoundRobin, _) => round_robin(
            &circle(t),
            next,
            |n| t.player(n).is_some_and(|p| !p.withdrawn),
            |a, b| met(t, a, b),
        ),
        (PairingMethod::Swiss, FirstRound::Random) if next == 1 => {
            in_order(draw_order(&names, drawn)?)
        }
        (PairingMethod::Swiss, FirstRound::Seeded) if next == 1 => seeded(names),
        (PairingMethod::Swiss, _) => swiss(t, scoring),
    })
}

/// The drawn order, checked to name every player once.
fn draw_order(names: &[String], drawn: &[String]) -> Result<Vec<String>, RefereeError> {
    if drawn.is_empty() {
        return Ok(names.to_vec());
    }
    let mut sorted = drawn.to_vec();
    sorted.sort();
    let mut expected = names.to_vec();
    expected.sort();
    if sorted != expected {
        return Err(RefereeError::new(
            ErrorCode::EventInvalid,
            "The order drawn for the first round does not name every player once: draw it again.",
        ));
    }
    Ok(drawn.to_vec())
}

/// Pairs in the order given, 1 against 2, 3 against 4 …; the last holds the bye if the count is
/// odd.
fn in_order(mut names: Vec<String>) -> RoundPlan {
    let bye = (names.len() % 2 == 1).then(|| names.pop()).flatten();
    let pairs = names
        .chunks(2)
        .map(|p| (p[0].clone(), p[1].clone()))
        .collect();
    plan(pairs, bye)
}

/// By seed (the order entered): the lowest seed holds the bye if the count is odd, then the top
/// half meets the bottom half, 1 against n/2 + 1, 2 against n/2 + 2 …
fn seeded(mut names: Vec<String>) -> RoundPlan {
    let bye = (names.len() % 2 == 1).then(|| names.pop()).flatten();
    let half = names.len() / 2;
    let pairs = (0..half)
        .map(|i| (names[i].clone(), names[half + i].clone()))
        .collect();
    plan(pairs, bye)
}

/// Round `round` of the circle method over the seats: the first stays, the others turn one seat a
/// round; the empty seat's partner has the bye, if still `playing`. Two players the circle seats
/// together who may not play — one has withdrawn, or they have `met` (a later round swapped by
/// hand) — sit the round out: no game, no bye, never a rematch (R-EVENT-7).
fn round_robin(
    seats: &[Option<String>],
    round: u32,
    playing: impl Fn(&str) -> bool,
    met: impl Fn(&str, &str) -> bool,
) -> RoundPlan {
    let m = seats.len();
    if m < 2 {
        return plan(Vec::new(), None);
    }
    let turn = (round as usize - 1) % (m - 1);
    let at = |i: usize| {
        if i == 0 {
            seats[0].as_ref()
        } else {
            seats[1 + (i - 1 + m - 1 - turn) % (m - 1)].as_ref()
        }
    };
    let mut pairs = Vec::new();
    let mut bye = None;
    for i in 0..m / 2 {
        match (at(i), at(m - 1 - i)) {
            (Some(a), Some(b)) if playing(a) && playing(b) && !met(a, b) => {
                pairs.push((a.clone(), b.clone()))
            }
            (Some(p), None) | (None, Some(p)) if playing(p) => bye = Some(p.clone()),
            _ => {}
        }
    }
    plan(pairs, bye)
}

/// A later Swiss round: players ranked by the standings; the bye (if the count is odd) to the
/// lowest-ranked player who has had none (or fewest); then the best pairing of the rest.
fn swiss(t: &Tournament, scoring: &Scoring) -> RoundPlan {
    let mut table = standings(t, scoring);
    table.retain(|r| t.player(&r.player).is_some_and(|p| !p.withdrawn));
    let mut ranked: Vec<&str> = table.iter().map(|r| r.player.as_str()).collect();
    let bye = (ranked.len() % 2 == 1).then(|| {
        let fewest = table.iter().map(|r| r.byes).min().unwrap_or(0);
        let at = table
            .iter()
            .rposition(|r| r.byes == fewest)
            .unwrap_or(ranked.len() - 1);
        ranked.remove(at).to_string()
    });
    let met: Vec<Vec<bool>> = ranked
        .iter()
        .map(|a| ranked.iter().map(|b| met(t, a, b)).collect())
        .collect();
    let pairs = fewest_rematches(&met)
        .into_iter()
        .map(|(a, b)| (ranked[a].to_string(), ranked[b].to_string()))
        .collect();
    plan(pairs, bye)
}

/// How many steps one search may take before it counts as failed: a bound on the time a
/// pathological event could take, never reached by the events tried (60 players pair at once).
const SEARCH_STEPS: u64 = 2_000_000;

/// Pairs players 0..n (in ranking order; `met[a][b]` when they have met) with the fewest
/// rematches (R-EVENT-3): first with none allowed, then one, and so on. Each search takes the
/// highest player unpaired and tries his opponents in ranking order, backtracking when stuck,
/// so that the first pairing found keeps players within their score group where it can.
pub fn fewest_rematches(met: &[Vec<bool>]) -> Vec<(usize, usize)> {
    let n = met.len();
    for allowed in 0..=n / 2 {
        let mut search = Search {
            met,
            free: vec![true; n],
            failed: HashSet::new(),
            steps: 0,
            pairs: Vec::with_capacity(n / 2),
        };
        // With every pair allowed the first try succeeds, so the loop always returns.
        if search.solve(allowed as u32) || allowed == n / 2 {
            return search.pairs;
        }
    }
    Vec::new()
}

struct Search<'a> {
    met: &'a [Vec<bool>],
    free: Vec<bool>,
    /// The sets of unpaired players (with the rematches still allowed) known to fail.
    failed: HashSet<(Vec<u64>, u32)>,
    steps: u64,
    pairs: Vec<(usize, usize)>,
}

impl Search<'_> {
    fn key(&self) -> Vec<u64> {
        let mut words = vec![0u64; self.free.len() / 64 + 1];
        for (i, _) in self.free.iter().enumerate().filter(|(_, f)| **f) {
            words[i / 64] |= 1 << (i % 64);
        }
        words
    }

    /// Players unpaired who have met every other unpaired player: each needs a rematch.
    fn stuck(&self) -> u32 {
        let free: Vec<usize> = (0..self.free.len()).filter(|&i| self.free[i]).collect();
        free.iter()
            .filter(|&&a| free.iter().all(|&b| a == b || self.met[a][b]))
            .count() as u32
    }

    fn solve(&mut self, allowed: u32) -> bool {
        let Some(top) = self.free.iter().position(|f| *f) else {
            return true;
        };
        self.steps += 1;
        if self.steps > SEARCH_STEPS || self.stuck() > 2 * allowed {
            return false;
        }
        let key = (self.key(), allowed);
        if self.failed.contains(&key) {
            return false;
        }
        self.free[top] = false;
        for other in top + 1..self.free.len() {
            let cost = u32::from(self.met[top][other]);
            if !self.free[other] || cost > allowed {
                continue;
            }
            self.free[other] = false;
            self.pairs.push((top, other));
            if self.solve(allowed - cost) {
                return true;
            }
            self.pairs.pop();
            self.free[other] = true;
        }
        self.free[top] = true;
        self.failed.insert(key);
        false
    }
}

/// Numbers the tables from 1 in the order given (the highest-ranked pairing first).
fn plan(pairs: Vec<(String, String)>, bye: Option<String>) -> RoundPlan {
    RoundPlan {
        pairings: pairs
            .into_iter()
            .enumerate()
            .map(|(i, (a, b))| Pairing {
                table: i as u32 + 1,
                a,
                b,
            })
            .collect(),
        bye,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::tournament::sample::{event, name, result, scoring, setup};
    use crate::tournament::{Outcome, TournamentEntry};

    fn seed(player: &str) -> usize {
        player[1..].parse().unwrap()
    }

    /// The higher seed wins, but a pair whose seeds add to a multiple of 7 draws.
    fn play(t: &mut Tournament, round: u32) {
        let games: Vec<Pairing> = t.rounds[round as usize - 1]
            .games
            .iter()
            .map(|g| g.pairing.clone())
            .collect();
        for p in games {
            let (sa, sb) = (seed(&p.a), seed(&p.b));
            let (oa, ob) = if (sa + sb) % 7 == 0 {
                (Outcome::Draw, Outcome::Draw)
            } else if sa < sb {
                (Outcome::Win, Outcome::Loss)
            } else {
                (Outcome::Loss, Outcome::Win)
            };
            let entry = TournamentEntry::ResultRecorded {
                round,
                table: p.table,
                result: result((&p.a, oa, None), (&p.b, ob, None)),
            };
            t.apply(&entry).unwrap();
        }
    }

    fn enter(t: &mut Tournament, round: u32, plan: &RoundPlan) {
        t.apply(&TournamentEntry::RoundPaired {
            round,
            pairings: plan.pairings.clone(),
            bye: plan.bye.clone(),
            seed: None,
        })
        .unwrap();
    }

    /// Plays a seeded Swiss event of `players` over `rounds`, checking each round's pairing;
    /// returns the byes in round order.
    fn swiss_event(players: usize, rounds: u32) -> Vec<Option<String>> {
        let s = scoring("win-draw-loss");
        let mut t = event(
            setup(PairingMethod::Swiss, FirstRound::Seeded, rounds),
            players,
        );
        let mut byes = Vec::new();
        for round in 1..=rounds {
            let before = standings(&t, &s);
            let plan = pair_next(&t, &s, &[]).unwrap();
            // Every player once.
            let mut seen: Vec<&str> = plan
                .pairings
                .iter()
                .flat_map(|p| [p.a.as_str(), p.b.as_str()])
                .chain(plan.bye.as_deref())
                .collect();
            seen.sort();
            let all: Vec<String> = (1..=players).map(name).collect();
            assert_eq!(seen, all.iter().map(String::as_str).collect::<Vec<_>>());
            // Tables 1.. from the top.
            let tables: Vec<u32> = plan.pairings.iter().map(|p| p.table).collect();
            assert_eq!(tables, (1..=players as u32 / 2).collect::<Vec<_>>());
            let place = |n: &str| before.iter().position(|r| r.player == n).unwrap();
            let points = |n: &str| before[place(n)].points;
            for w in plan.pairings.windows(2) {
                assert!(place(&w[0].a) < place(&w[1].a), "round {round}: {w:?}");
            }
            for p in &plan.pairings {
                assert!(!met(&t, &p.a, &p.b), "round {round}: {} met {}", p.a, p.b);
                assert!(place(&p.a) < place(&p.b));
            }
            // Within the score group unless floated: at most one float down per group.
            let groups: BTreeSet<String> = before
                .iter()
                .filter(|r| Some(&r.player) != plan.bye.as_ref())
                .map(|r| r.points.to_string())
                .collect();
            let floats = plan
                .pairings
                .iter()
                .filter(|p| points(&p.a) != points(&p.b))
                .count();
            assert!(floats < groups.len(), "round {round}: {plan:?}");
            // The bye to the lowest-ranked player without one.
            if round > 1 && players % 2 == 1 {
                let expected = before.iter().rev().find(|r| r.byes == 0).map(|r| &r.player);
                assert_eq!(plan.bye.as_ref(), expected, "round {round}");
            }
            enter(&mut t, round, &plan);
            play(&mut t, round);
            byes.push(plan.bye);
        }
        let refused = pair_next(&t, &s, &[]).unwrap_err();
        assert_eq!(
            refused.message,
            format!("The event has {rounds} rounds; all are paired.")
        );
        byes
    }

    #[test]
    fn sixteen_players_over_four_swiss_rounds() {
        assert_eq!(swiss_event(16, 4), vec![None; 4]);
    }

    #[test]
    fn fifteen_players_take_each_bye_once_from_the_bottom() {
        let byes: Vec<String> = swiss_event(15, 4).into_iter().map(Option::unwrap).collect();
        assert_eq!(byes[0], name(15), "the lowest seed first");
        let distinct: BTreeSet<&String> = byes.iter().collect();
        assert_eq!(distinct.len(), 4, "{byes:?}");
    }

    #[test]
    fn sixty_players_pair_over_eight_rounds() {
        assert_eq!(swiss_event(60, 8).len(), 8);
    }

    #[test]
    fn the_first_seeded_round_sets_the_top_half_against_the_bottom_half() {
        let t = event(setup(PairingMethod::Swiss, FirstRound::Seeded, 3), 6);
        let plan = pair_next(&t, &scoring("win-draw-loss"), &[]).unwrap();
        let pairs: Vec<(String, String)> = plan.pairings.into_iter().map(|p| (p.a, p.b)).collect();
        assert_eq!(
            pairs,
            vec![(name(1), name(4)), (name(2), name(5)), (name(3), name(6))]
        );
    }

    #[test]
    fn the_first_random_round_pairs_in_the_order_drawn() {
        let t = event(setup(PairingMethod::Swiss, FirstRound::Random, 3), 5);
        let s = scoring("win-draw-loss");
        let drawn: Vec<String> = [3, 1, 5, 2, 4].into_iter().map(name).collect();
        let plan = pair_next(&t, &s, &drawn).unwrap();
        assert_eq!(plan.bye, Some(name(4)));
        let pairs: Vec<(String, String)> = plan.pairings.into_iter().map(|p| (p.a, p.b)).collect();
        assert_eq!(pairs, vec![(name(3), name(1)), (name(5), name(2))]);
        let wrong = pair_next(&t, &s, &drawn[..4]).unwrap_err();
        assert_eq!(wrong.code, ErrorCode::EventInvalid);
        assert!(wrong.message.ends_with("draw it again."));
    }

    /// A round robin of `players` in which player `gone` withdraws after round 2: the circle
    /// turns on, nobody meets anyone twice, whoever the circle gives him sits the round out (no
    /// game, no bye), the empty seat's partner still has the bye, and no one joins late.
    #[test]
    fn a_round_robin_keeps_its_circle_when_a_player_withdraws() {
        let s = scoring("win-draw-loss");
        for players in [5usize, 6] {
            let mut t = event(
                setup(PairingMethod::RoundRobin, FirstRound::Seeded, 0),
                players,
            );
            let gone = name(3);
            let rounds = (players - 1 + players % 2) as u32;
            let mut pairs = BTreeSet::new();
            let mut sat_out = 0;
            for round in 1..=rounds {
                if round == 3 {
                    t.apply(&TournamentEntry::PlayerWithdrawn {
                        player: gone.clone(),
                    })
                    .unwrap();
                }
                assert_eq!(rounds_planned(&t), rounds, "the plan stays");
                let plan = pair_next(&t, &s, &[]).unwrap();
                let mut in_round: Vec<&str> = plan.bye.iter().map(String::as_str).collect();
                for p in &plan.pairings {
                    assert!(
                        round < 3 || (p.a != gone && p.b != gone),
                        "round {round}: {p:?}"
                    );
                    let pair = (p.a.clone().min(p.b.clone()), p.a.clone().max(p.b.clone()));
                    assert!(
                        pairs.insert(pair),
                        "{players} players, round {round}: {p:?} again"
                    );
                    in_round.extend([p.a.as_str(), p.b.as_str()]);
                }
                let active = t.active_players().count();
                if round >= 3 {
                    sat_out += active - in_round.len();
                    assert!(active - in_round.len() <= 1, "round {round}: {in_round:?}");
                } else {
                    assert_eq!(in_round.len(), players, "round {round}: everyone in it");
                }
                enter(&mut t, round, &plan);
                play(&mut t, round);
                assert_eq!(may_join(&t).unwrap_err().code, ErrorCode::EventRoundStarted);
            }
            // Every pair of the players still in met once; the one who left met two (rounds 1
            // and 2 — or one and a bye); the ones the circle gave him later sat out.
            let stayed = players - 1;
            let with_gone = pairs
                .iter()
                .filter(|(a, b)| *a == gone || *b == gone)
                .count();
            assert_eq!(
                pairs.len() - with_gone,
                stayed * (stayed - 1) / 2,
                "{players}: {pairs:?}"
            );
            assert_eq!(
                with_gone + sat_out,
                players - 1,
                "{players}: one meeting or a sit-out per other player"
            );
            let over = pair_next(&t, &s, &[]).unwrap_err();
            assert!(over
                .message
                .ends_with("rounds of the round robin are paired: it is over."));
        }
    }

    /// Round 1 swapped by hand (the bye's holder too): the circle is read from round 1 as paired,
    /// so every pair still meets exactly once. A later round swapped by hand: two players the
    /// circle would then seat together again sit the round out instead of a rematch.
    #[test]
    fn a_round_robin_turns_on_round_1_as_swapped_by_hand() {
        let s = scoring("win-draw-loss");
        for players in [5usize, 6] {
            let mut t = event(
                setup(PairingMethod::RoundRobin, FirstRound::Seeded, 0),
                players,
            );
            let plan = pair_next(&t, &s, &[]).unwrap();
            enter(&mut t, 1, &plan);
            let a = plan.pairings[0].a.clone();
            let b = plan.bye.clone().unwrap_or(plan.pairings[1].b.clone());
            t.apply(&TournamentEntry::PlayersSwapped { round: 1, a, b })
                .unwrap();
            play(&mut t, 1);
            let rounds = rounds_planned(&t);
            assert_eq!(rounds as usize, players - 1 + players % 2);
            for round in 2..=rounds {
                let plan = pair_next(&t, &s, &[]).unwrap();
                assert_eq!(plan.pairings.len(), players / 2, "round {round}: {plan:?}");
                for p in &plan.pairings {
                    assert!(
                        !met(&t, &p.a, &p.b),
                        "{players}, round {round}: {p:?} again"
                    );
                }
                enter(&mut t, round, &plan);
                play(&mut t, round);
            }
            let games = t.rounds.iter().map(|r| r.games.len()).sum::<usize>();
            assert_eq!(games, players * (players - 1) / 2, "every pair met once");
        }
        // An event stored before round robins refused a later round's swap (`may_swap`, in the
        // API). Four players: the circle's rounds are P01–P04 P02–P03, P01–P03 P04–P02, P01–P02
        // P03–P04. Round 2 swapped by hand (P02 and P03) plays round 3's games: round 3 would
        // only repeat them, so both its pairs sit out — no rematch.
        let mut t = event(setup(PairingMethod::RoundRobin, FirstRound::Seeded, 0), 4);
        for round in 1..=2 {
            let plan = pair_next(&t, &s, &[]).unwrap();
            enter(&mut t, round, &plan);
            if round == 2 {
                t.apply(&TournamentEntry::PlayersSwapped {
                    round: 2,
                    a: name(2),
                    b: name(3),
                })
                .unwrap();
            }
            play(&mut t, round);
        }
        assert!(met(&t, &name(1), &name(2)) && met(&t, &name(3), &name(4)));
        let plan = pair_next(&t, &s, &[]).unwrap();
        assert_eq!(
            plan,
            RoundPlan {
                pairings: Vec::new(),
                bye: None
            }
        );
    }

    /// An event stored before R-EVENT-7 with a player who joined a round robin after round 1 keeps
    /// the old circle over the players still in (the late player paired), and its plan never
    /// falls below the rounds already paired. A round robin of fewer than two players plans none.
    #[test]
    fn a_round_robin_stored_with_a_late_entry_still_pairs_him() {
        let s = scoring("win-draw-loss");
        let mut t = event(setup(PairingMethod::RoundRobin, FirstRound::Seeded, 0), 4);
        for round in 1..=3 {
            let plan = pair_next(&t, &s, &[]).unwrap();
            enter(&mut t, round, &plan);
            play(&mut t, round);
            if round == 1 {
                t.apply(&TournamentEntry::PlayerAdded {
                    player: crate::tournament::Player {
                        name: name(9),
                        army: String::new(),
                        withdrawn: false,
                    },
                })
                .unwrap();
            }
        }
        let paired = |n: &str| t.rounds[1..].iter().any(|r| r.holds(n));
        assert!(
            paired(&name(9)),
            "the late player is paired: {:?}",
            t.rounds
        );
        // Five players still in: the old circle's six seats, five rounds.
        assert_eq!(rounds_planned(&t), 5);
        // Down to two players still in (the late one among them), the old circle has one round
        // to plan, but three are paired already.
        for gone in [1, 2, 3] {
            t.apply(&TournamentEntry::PlayerWithdrawn { player: name(gone) })
                .unwrap();
        }
        assert_eq!(circle(&t).len(), 2);
        assert_eq!(rounds_planned(&t), 3, "never fewer than the rounds paired");
        let none = event(setup(PairingMethod::RoundRobin, FirstRound::Seeded, 0), 1);
        assert_eq!(rounds_planned(&none), 0);
    }

    #[test]
    fn a_round_robin_is_swapped_in_round_1_only() {
        let mut t = event(setup(PairingMethod::RoundRobin, FirstRound::Seeded, 0), 4);
        assert!(may_swap(&t, 1).is_ok());
        let e = may_swap(&t, 2).unwrap_err();
        assert_eq!(e.code, ErrorCode::EventRoundStarted);
        assert!(
            e.message
                .ends_with("swap players in round 1 before it starts."),
            "{}",
            e.message
        );
        t.setup.pairing = PairingMethod::Swiss;
        assert!(may_swap(&t, 2).is_ok(), "a Swiss round may be swapped");
    }

    #[test]
    fn a_round_robin_meets_everyone_once_then_is_over() {
        let s = scoring("win-draw-loss");
        for players in [5usize, 6] {
            let mut t = event(
                setup(PairingMethod::RoundRobin, FirstRound::Seeded, 0),
                players,
            );
            let rounds = if players % 2 == 0 {
                players - 1
            } else {
                players
            };
            let mut pairs = BTreeSet::new();
            let mut byes = BTreeSet::new();
            for round in 1..=rounds as u32 {
                let plan = pair_next(&t, &s, &[]).unwrap();
                assert_eq!(plan.pairings.len(), players / 2);
                for p in &plan.pairings {
                    let pair = if p.a < p.b {
                        (p.a.clone(), p.b.clone())
                    } else {
                        (p.b.clone(), p.a.clone())
                    };
                    assert!(
                        pairs.insert(pair),
                        "{players} players, round {round}: {p:?} again"
                    );
                }
                byes.extend(plan.bye.clone());
                enter(&mut t, round, &plan);
                play(&mut t, round);
            }
            assert_eq!(pairs.len(), players * (players - 1) / 2);
            assert_eq!(byes.len(), players % 2 * players, "each player one bye");
            let over = pair_next(&t, &s, &[]).unwrap_err();
            assert_eq!(
                over.message,
                format!("All {rounds} rounds of the round robin are paired: it is over.")
            );
        }
    }

    #[test]
    fn pairing_is_refused_without_two_players_or_with_results_missing() {
        let s = scoring("win-draw-loss");
        let t = event(setup(PairingMethod::Swiss, FirstRound::Seeded, 3), 1);
        let e = pair_next(&t, &s, &[]).unwrap_err();
        assert_eq!(
            e.message,
            "An event needs two players before a round is paired."
        );
        let mut t = event(setup(PairingMethod::Swiss, FirstRound::Seeded, 3), 4);
        let plan = pair_next(&t, &s, &[]).unwrap();
        enter(&mut t, 1, &plan);
        let e = pair_next(&t, &s, &[]).unwrap_err();
        assert_eq!(e.code, ErrorCode::EventResultsMissing);
    }

    /// (players, pairs met, rematches the best pairing needs, the pairing expected)
    type Pairs = &'static [(usize, usize)];

    const SEARCHES: &[(usize, Pairs, usize, Pairs)] = &[
        // Nobody has met: straight down the ranking.
        (4, &[], 0, &[(0, 1), (2, 3)]),
        // 2 and 3 have met: 1 steps down so that 0 can keep 1 (backtracking).
        (4, &[(2, 3)], 0, &[(0, 2), (1, 3)]),
        (4, &[(0, 1), (2, 3)], 0, &[(0, 2), (1, 3)]),
        // 0 has met everyone: one rematch, no more.
        (4, &[(0, 1), (0, 2), (0, 3)], 1, &[(0, 1), (2, 3)]),
        // Everyone has met everyone: two rematches.
        (
            4,
            &[(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)],
            2,
            &[(0, 1), (2, 3)],
        ),
        // A pairing without rematch exists only deep in the search.
        (
            6,
            &[(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (3, 4)],
            0,
            &[(0, 5), (1, 3), (2, 4)],
        ),
    ];

    #[test]
    fn the_search_finds_the_fewest_rematches() {
        for &(n, pairs_met, rematches, expected) in SEARCHES {
            let mut m = vec![vec![false; n]; n];
            for &(a, b) in pairs_met {
                m[a][b] = true;
                m[b][a] = true;
            }
            let found = fewest_rematches(&m);
            assert_eq!(found, expected, "{pairs_met:?}");
            let again = found.iter().filter(|&&(a, b)| m[a][b]).count();
            assert_eq!(again, rematches, "{pairs_met:?}");
        }
    }
}
