// A convention event in words: a standing's rank ("=3"), a game's line ("Table 3 · Anna (Romans) v
// Boris (Gauls)", its system at an event of several), how its result was reached, what a game
// offers next (a begin button per system), the undo button's label,
// the standings' columns for the width there is, a result entered by hand checked before it is sent.
// Pure, so it is unit-tested; the event's rules (pairing, scoring, tie-breaks) are the core's.
import type {
  EventDocument, EventRow, EventView, Game, GameResult, HandResult, NewEvent, Player, Round, Scoring, StandingRow,
} from '../generated/api';
import { andList, plural } from './format';

export type { EventDocument, EventRow, EventView, Game, GameResult, HandResult, NewEvent, Player, Round, Scoring, StandingRow };
/** A player as added: name and army. */
export type NewPlayer = Player;

/** A standing's rank: "3", or "=3" when shared with another player. */
export function rankLabel(row: Pick<StandingRow, 'rank' | 'shared'>): string {
  return row.shared ? `=${row.rank}` : `${row.rank}`;
}

/** A number of points as an umpire writes it: "12", "12.5", never "12.000001". */
export function points(n: number): string {
  return Number.isInteger(n) ? `${n}` : `${Math.round(n * 100) / 100}`;
}

/** A player's record: "2-1-0" (wins, draws, losses). */
export function record(row: Pick<StandingRow, 'wins' | 'draws' | 'losses'>): string {
  return `${row.wins}-${row.draws}-${row.losses}`;
}

/** A player with the army in brackets: "Anna (Romans)"; the name alone when no army is known. */
export function playerWithArmy(players: Player[], name: string): string {
  const army = players.find((p) => p.name === name)?.army;
  return army ? `${name} (${army})` : name;
}

/** A game's line: "Table 3 · Anna (Romans) v Boris (Gauls)", with the system it is played under
 * when one is named ("… · GTS"). */
export function gameLine(game: Game, players: Player[], system?: string): string {
  const { table, a, b } = game.pairing;
  const line = `Table ${table} · ${playerWithArmy(players, a)} v ${playerWithArmy(players, b)}`;
  return system ? `${line} · ${system}` : line;
}

/** The system a game is played under, as the app names it, when worth saying: only at an event of
 * several systems (at one of one it goes without saying), once the game's battle is begun, its file
 * imported or its result says so. */
export function gameSystem(game: Game, rulesets: string[], nameOf: (id: string) => string): string | undefined {
  if (rulesets.length < 2) return undefined;
  const id = game.ruleset ?? game.result?.ruleset;
  return id ? nameOf(id) : undefined;
}

/** A way to begin a game's battle: the system sent (none at an event of one: the API knows it) and
 * the button's words. */
export interface BeginChoice {
  ruleset?: string;
  label: string;
}

/** How a game's battle may be begun: one "Begin battle" at an event of one system; one button per
 * system at an event of several ("Begin GTS battle"), so the system is chosen in the same tap. */
export function beginChoices(rulesets: string[], nameOf: (id: string) => string): BeginChoice[] {
  if (rulesets.length < 2) return [{ label: 'Begin battle' }];
  return rulesets.map((id) => ({ ruleset: id, label: `Begin ${nameOf(id)} battle` }));
}

/** How a result was reached, in words. */
export function sourceMark(result: GameResult): string {
  switch (result.source.kind) {
    case 'battle': return 'From the battle';
    case 'file': return 'Battle file checked';
    default: return 'Entered by hand';
  }
}

/** A result in words: the API's sentence (its own mark left to ours), else who won (or a draw) with the victory points. */
export function resultWords(result: GameResult): string {
  // The mark beside it says how it was reached: the API's own "Entered by hand:" is not said twice.
  const words = result.source.kind === 'hand' ? result.words.replace(/^Entered by hand:\s*/, '') : result.words;
  if (words) return words[0].toUpperCase() + words.slice(1);
  const winner = result.players.find((p) => p.outcome === 'win');
  const vp = result.players.every((p) => p.victory_points != null)
    ? ` (${result.players.map((p) => points(p.victory_points!)).join('–')})` : '';
  return winner ? `${winner.player} won${vp}` : `Draw${vp}`;
}

export type GameAction = 'begin' | 'open' | 'from-battle' | 'import' | 'hand';

/** What a game offers: nothing once its result is in; its battle opened and read once begun; else
 * a battle begun here, a battle file imported or a result entered by hand. */
export function gameActions(game: Game): GameAction[] {
  if (game.result) return [];
  if (game.battle != null) return ['open', 'from-battle', 'hand'];
  return ['begin', 'import', 'hand'];
}

/** Whether a round has started: a battle begun or a result in. Before that its pairings may be
 * swapped by hand. */
export function roundStarted(round: Round): boolean {
  return round.games.some((g) => g.battle != null || g.result != null);
}

/** The players of a round who may be swapped: every paired player and the bye, in table order. */
export function roundPlayers(round: Round): string[] {
  const names = round.games.flatMap((g) => [g.pairing.a, g.pairing.b]);
  return round.bye ? [...names, round.bye] : names;
}

/** The players still in the event who have no game and no bye in a round: at a round robin,
 * whoever the circle gave a player who withdrew (R-EVENT-7); at a Swiss event, a player who joined
 * after the round was paired. In the order entered. */
export function notPaired(round: Round, players: Player[]): string[] {
  const inRound = new Set(roundPlayers(round));
  return players.filter((p) => !p.withdrawn && !inRound.has(p.name)).map((p) => p.name);
}

/** What the round says of them: "Not paired in round 3: Clara (the round robin gives no opponent
 * still to meet: no game, no bye)." */
export function notPairedSentence(round: number, names: string[], pairing: 'swiss' | 'round_robin'): string {
  const who = andList(names);
  return pairing === 'round_robin'
    ? `Not paired in round ${round}: ${who} (the round robin gives ${names.length === 1 ? 'no opponent' : 'none of them an opponent'} still to meet: no game, no bye).`
    : `Not paired in round ${round}: ${who} (joined after the round was paired).`;
}

/** How many rounds the head says: a round robin's follow from its players ("one round fewer than
 * the players" until it has two). */
export function roundsWords(view: Pick<EventView, 'rounds_planned' | 'tournament'>): string {
  if (view.rounds_planned) return plural(view.rounds_planned, 'round');
  return view.tournament.setup.pairing === 'round_robin' ? 'one round fewer than the players' : 'no rounds';
}

/** "Pair round N" is offered while the event has rounds to come, and before round 1 always (its
 * reason shown when it cannot be paired yet). */
export function pairingOffered(view: Pick<EventView, 'next_round' | 'rounds_planned' | 'tournament'>): boolean {
  return !view.tournament.rounds.length || view.next_round <= view.rounds_planned;
}

/** Two players may be swapped by hand before the round starts — in a round robin in round 1
 * only, its later rounds following from it (R-EVENT-7; the API refuses the rest). */
export function swapOffered(pairing: 'swiss' | 'round_robin', round: Round): boolean {
  return !roundStarted(round) && (pairing === 'swiss' || round.number === 1);
}

/** The round shown: the last one paired. */
export function currentRound(view: EventView): Round | undefined {
  return view.tournament.rounds[view.tournament.rounds.length - 1];
}

/** Results still to come in a round, as words ("2 results to come"), or empty when all are in. */
export function resultsToCome(round: Round): string {
  const n = round.games.filter((g) => !g.result).length;
  if (!n) return 'All results in';
  return n === 1 ? '1 result to come' : `${n} results to come`;
}

/** The label of Undo or Redo: what it takes back or puts back ("Undo: round 2 paired", as the
 * API words it), or the bare verb when there is nothing. */
export function undoLabel(verb: 'Undo' | 'Redo', what: string | null | undefined): string {
  if (!what) return verb;
  return what.startsWith(`${verb}:`) ? what : `${verb}: ${what}`;
}

export type StandingColumn = 'rank' | 'player' | 'army' | 'points' | 'victory_points' | 'sos' | 'record';

/** The standings' columns for a width in CSS pixels: on a phone the army goes under the player's
 * name and strength of schedule is left to the wider screens; the victory points get no column
 * of their own where they are the event's points (DBMM's 25 split). */
export function standingsColumns(width: number, withoutVictoryPoints = false): StandingColumn[] {
  const columns: StandingColumn[] = width < 600
    ? ['rank', 'player', 'points', 'victory_points', 'record']
    : ['rank', 'player', 'army', 'points', 'victory_points', 'sos', 'record'];
  return withoutVictoryPoints ? columns.filter((c) => c !== 'victory_points') : columns;
}

/** The VP column is left out where the victory points are the points, or not read at all (an
 * event of several systems: their sum would mean nothing). */
export function victoryPointsColumnNeeded(scoring: Scoring): boolean {
  return readsVictoryPoints(scoring) && !scoring.victory_points_are_points;
}

export const columnHeading: Record<StandingColumn, { label: string; title: string }> = {
  rank: { label: 'Rank', title: 'Rank' },
  player: { label: 'Player', title: 'Player' },
  army: { label: 'Army', title: 'Army' },
  points: { label: 'Points', title: 'Event points' },
  victory_points: { label: 'VP', title: 'Victory points' },
  sos: { label: 'SoS', title: 'Strength of schedule: the points of the players met' },
  record: { label: 'W-D-L', title: 'Wins, draws and losses' },
};

/** A standing's cell for a column. */
export function cell(row: StandingRow, column: StandingColumn): string {
  switch (column) {
    case 'rank': return rankLabel(row);
    case 'player': return row.player;
    case 'army': return row.army;
    case 'points': return points(row.points);
    case 'victory_points': return points(row.victory_points);
    case 'sos': return points(row.strength_of_schedule);
    default: return record(row);
  }
}

/** The scorings suiting every rule system chosen: those naming them all first (the default is the
 * system's own, DBMM's 25 points for DBMM), then those for any system. With none chosen, those for
 * any system. */
export function scoringsFor(scorings: Scoring[], rulesets: string[]): Scoring[] {
  const own = rulesets.length ? scorings.filter((s) => s.rulesets.length && rulesets.every((r) => s.rulesets.includes(r))) : [];
  const suiting = [...own, ...scorings.filter((s) => !s.rulesets.length)];
  // Each system counts its own victory points: an event of several reads none (R-EVENT-6).
  return rulesets.length > 1 ? suiting.filter((s) => !readsVictoryPoints(s)) : suiting;
}

/** Whether a scoring reads the battles' victory points, as its points or a tie-break. */
export function readsVictoryPoints(scoring: Scoring): boolean {
  return scoring.victory_points_are_points || scoring.tie_breaks.includes('victory_points');
}

/** The systems a result entered by hand asks about: at an event of several, while the game names
 * none (a battle begun or imported names its own); none otherwise. */
export function handSystemChoices(game: Game, rulesets: string[]): string[] {
  return rulesets.length > 1 && !game.ruleset ? rulesets : [];
}

/** The systems chosen for a new event after a box is ticked or cleared, kept in the order the
 * app lists the systems (so the first chosen is the same whichever box was ticked first). */
export function toggleSystem(chosen: string[], id: string, on: boolean, order: string[]): string[] {
  const next = on ? [...new Set([...chosen, id])] : chosen.filter((r) => r !== id);
  return order.filter((r) => next.includes(r));
}

/** A tie-break in words. */
export function tieBreakWords(tieBreak: string): string {
  const words: Record<string, string> = {
    victory_points: 'victory points',
    strength_of_schedule: 'strength of schedule',
    head_to_head: 'the game between them',
  };
  return words[tieBreak] ?? tieBreak.replace(/_/g, ' ');
}

/** How ties are broken, as a sentence: "Ties are broken by victory points, then strength of schedule." */
export function tieBreaksSentence(tieBreaks: string[]): string {
  if (!tieBreaks.length) return 'Ties stay shared.';
  return `Ties are broken by ${tieBreaks.map(tieBreakWords).join(', then ')}.`;
}

/** A result typed by hand: the winner's name (empty: a draw) and each player's victory points as typed. */
export interface HandForm {
  winner: string;
  victoryPointsA: string;
  victoryPointsB: string;
  note: string;
}

/** Why a victory-points field cannot be sent, or undefined when it can (blank is left out). */
export function victoryPointsProblem(typed: string): string | undefined {
  const t = typed.trim();
  if (!t) return undefined;
  const n = Number(t.replace(',', '.'));
  if (!Number.isFinite(n) || n < 0) return 'Type the victory points as a number from 0 up, like 15, or leave it empty.';
  return undefined;
}

/** The request a hand result sends, or undefined while a field is wrong. */
export function handRequest(form: HandForm): HandResult | undefined {
  if (victoryPointsProblem(form.victoryPointsA) || victoryPointsProblem(form.victoryPointsB)) return undefined;
  const vp = (t: string) => (t.trim() ? Number(t.trim().replace(',', '.')) : undefined);
  return {
    winner: form.winner || undefined,
    victory_points_a: vp(form.victoryPointsA),
    victory_points_b: vp(form.victoryPointsB),
    note: form.note.trim() || undefined,
  };
}

/** Why the name of a new player cannot be sent yet, or undefined. Duplicates are the API's to refuse. */
export function playerNameProblem(name: string): string | undefined {
  return name.trim() ? undefined : 'Type the player’s name.';
}

/** A round's pairing in the projector's words: "Anna v Boris", with its system when named ("Anna v
 * Boris · GTS"). */
export function projectorLine(game: Game, system?: string): string {
  const line = `${game.pairing.a} v ${game.pairing.b}`;
  return system ? `${line} · ${system}` : line;
}

/** What the screen says after the report or the CSV file is saved: where it went (the core's
 * words), or that nothing was saved when no place was chosen. */
export function eventSavedSaid(document: EventDocument, where: string | null): string {
  if (where) return where;
  return document === 'report' ? 'The printable standings were not saved: no place was chosen.' : 'The CSV file was not saved: no place was chosen.';
}
