import { describe, expect, it } from 'vitest';
import {
  beginChoices, cell, currentRound, eventSavedSaid, gameActions, gameLine, gameSystem, handRequest, handSystemChoices, playerWithArmy, points, projectorLine, rankLabel, record, resultWords, resultsToCome,
  notPaired, notPairedSentence, pairingOffered, roundsWords, swapOffered, roundPlayers, roundStarted, scoringsFor, readsVictoryPoints, sourceMark, standingsColumns, tieBreaksSentence, toggleSystem, undoLabel, victoryPointsColumnNeeded, victoryPointsProblem,
  type EventView, type Game, type GameResult, type Scoring, type StandingRow,
} from './event';

const players = [{ name: 'Anna', army: 'Romans' }, { name: 'Boris', army: 'Gauls' }, { name: 'Cleo', army: '' }];
const game = (over: Partial<Game> = {}): Game => ({ pairing: { table: 3, a: 'Anna', b: 'Boris' }, ...over });
const row = (over: Partial<StandingRow> = {}): StandingRow => ({
  rank: 3, shared: false, player: 'Anna', army: 'Romans', played: 2, wins: 1, draws: 1, losses: 0, byes: 0, points: 4, victory_points: 37.5, strength_of_schedule: 6, ...over,
});
const scoring = (id: string, rulesets: string[]): Scoring => ({
  id, name: id, description: '', rulesets, rule: '', win: 3, draw: 1, loss: 0, victory_points_are_points: false, bye_points: 3, bye_victory_points: 0, tie_breaks: [], builtin: true,
});

describe('an event in words', () => {
  it('writes a shared rank with "=" and a lone one bare', () => {
    expect(rankLabel(row({ rank: 3, shared: true }))).toBe('=3');
    expect(rankLabel(row({ rank: 1, shared: false }))).toBe('1');
  });

  it('writes points without floating-point noise and the record as W-D-L', () => {
    expect(points(12)).toBe('12');
    expect(points(12.5)).toBe('12.5');
    expect(points(0.1 + 0.2)).toBe('0.3');
    expect(record(row({ wins: 2, draws: 0, losses: 1 }))).toBe('2-0-1');
  });

  it('writes a game as its table and both players with their armies', () => {
    expect(gameLine(game(), players)).toBe('Table 3 · Anna (Romans) v Boris (Gauls)');
    expect(playerWithArmy(players, 'Cleo')).toBe('Cleo');
    expect(playerWithArmy(players, 'Unknown')).toBe('Unknown');
  });

  it('marks how a result was reached', () => {
    const result = (kind: 'battle' | 'file' | 'hand') => (({ source: kind === 'battle' ? { kind, battle: 1 } : kind === 'file' ? { kind, head: 'h' } : { kind }, players: [], words: 'Anna won', rule: '' }) as GameResult);
    expect(sourceMark(result('battle'))).toBe('From the battle');
    expect(sourceMark(result('file'))).toBe('Battle file checked');
    expect(sourceMark(result('hand'))).toBe('Entered by hand');
  });

  it('says a result in the core’s words, else who won with the victory points', () => {
    expect(resultWords({ source: { kind: 'battle', battle: 2 }, words: 'Anna wins 15–10', rule: '', players: [] })).toBe('Anna wins 15–10');
    expect(resultWords({ source: { kind: 'hand' }, words: 'Entered by hand: Anna beat Boris, 15–10.', rule: '', players: [] })).toBe('Anna beat Boris, 15–10.');
    const players = [{ player: 'Anna', outcome: 'win' as const, victory_points: 15 }, { player: 'Boris', outcome: 'loss' as const, victory_points: 10 }];
    expect(resultWords({ source: { kind: 'hand' }, words: '', rule: '', players })).toBe('Anna won (15–10)');
    expect(resultWords({ source: { kind: 'hand' }, words: '', rule: '', players: [{ player: 'Anna', outcome: 'draw' }, { player: 'Boris', outcome: 'draw' }] })).toBe('Draw');
  });

  it('offers a battle begun, a file or a hand result; once begun, the battle and its result; nothing once the result is in', () => {
    expect(gameActions(game())).toEqual(['begin', 'import', 'hand']);
    expect(gameActions(game({ battle: 12 }))).toEqual(['open', 'from-battle', 'hand']);
    expect(gameActions(game({ battle: 12, result: { source: { kind: 'battle', battle: 12 }, players: [], words: 'x', rule: '' } }))).toEqual([]);
  });

  it('knows a round started once a battle is begun or a result is in, and who may be swapped', () => {
    const round = { number: 1, games: [game(), game({ pairing: { table: 4, a: 'Cleo', b: 'Dora' } })], bye: 'Emil' };
    expect(roundStarted(round)).toBe(false);
    expect(roundPlayers(round)).toEqual(['Anna', 'Boris', 'Cleo', 'Dora', 'Emil']);
    expect(resultsToCome(round)).toBe('2 results to come');
    expect(roundStarted({ ...round, games: [game({ battle: 1 })] })).toBe(true);
    expect(resultsToCome({ ...round, games: [game({ result: { source: { kind: 'hand' }, players: [], words: 'x', rule: '' } })] })).toBe('All results in');
  });

  it('says a round robin’s rounds from its players, and offers pairing while rounds are to come', () => {
    const setup = (pairing: 'swiss' | 'round_robin') => ({ name: 'x', rulesets: ['dbmm'], scoring: 's', pairing, first_round: 'seeded' as const, rounds: 4 });
    const at = (pairing: 'swiss' | 'round_robin', rounds_planned: number, paired: number) => ({
      rounds_planned, next_round: paired + 1, tournament: { setup: setup(pairing), players: [], rounds: Array.from({ length: paired }, (_, i) => ({ number: i + 1, games: [] })) },
    });
    expect(roundsWords(at('round_robin', 0, 0))).toBe('one round fewer than the players');
    expect(roundsWords(at('round_robin', 1, 0))).toBe('1 round');
    expect(roundsWords(at('swiss', 4, 0))).toBe('4 rounds');
    // Before round 1, even with no round planned yet (its reason said beside the button).
    expect(pairingOffered(at('round_robin', 0, 0))).toBe(true);
    expect(pairingOffered(at('round_robin', 3, 2))).toBe(true);
    expect(pairingOffered(at('round_robin', 3, 3))).toBe(false);
  });

  it('offers a swap before the round starts, in a round robin in round 1 only', () => {
    const round = (number: number, started = false) => ({ number, games: [game(started ? { battle: 3 } : {})] });
    expect(swapOffered('swiss', round(3))).toBe(true);
    expect(swapOffered('swiss', round(3, true))).toBe(false);
    expect(swapOffered('round_robin', round(1))).toBe(true);
    expect(swapOffered('round_robin', round(2))).toBe(false);
  });

  it('names the players of the event a round left without a game or a bye, the withdrawn left out', () => {
    const round = { number: 3, games: [game()] };
    const all = [...players, { name: 'Dora', army: '', withdrawn: true }, { name: 'Emil', army: '' }];
    expect(notPaired(round, all)).toEqual(['Cleo', 'Emil']);
    expect(notPaired({ ...round, bye: 'Cleo' }, all)).toEqual(['Emil']);
    expect(notPaired({ number: 1, games: [game(), game({ pairing: { table: 4, a: 'Cleo', b: 'Emil' } })] }, all)).toEqual([]);
    expect(notPairedSentence(3, ['Cleo'], 'round_robin')).toBe('Not paired in round 3: Cleo (the round robin gives no opponent still to meet: no game, no bye).');
    expect(notPairedSentence(3, ['Cleo', 'Emil'], 'round_robin')).toBe('Not paired in round 3: Cleo and Emil (the round robin gives none of them an opponent still to meet: no game, no bye).');
    expect(notPairedSentence(2, ['Cleo', 'Emil', 'Finn'], 'swiss')).toBe('Not paired in round 2: Cleo, Emil and Finn (joined after the round was paired).');
  });

  it('shows the last round paired', () => {
    const view = { tournament: { rounds: [{ number: 1, games: [] }, { number: 2, games: [] }] } } as unknown as EventView;
    expect(currentRound(view)?.number).toBe(2);
    expect(currentRound({ tournament: { rounds: [] } } as unknown as EventView)).toBeUndefined();
  });

  it('labels Undo and Redo with what they change', () => {
    expect(undoLabel('Undo', 'Round 2 paired')).toBe('Undo: Round 2 paired');
    expect(undoLabel('Undo', 'Undo: round 2 paired')).toBe('Undo: round 2 paired');
    expect(undoLabel('Redo', null)).toBe('Redo');
  });

  it('drops the army and strength-of-schedule columns on a phone, keeping the record', () => {
    expect(standingsColumns(390)).toEqual(['rank', 'player', 'points', 'victory_points', 'record']);
    expect(standingsColumns(1280)).toContain('sos');
    expect(standingsColumns(1280)).toContain('army');
    expect(standingsColumns(1280, true)).not.toContain('victory_points');
    expect(cell(row({ shared: true }), 'rank')).toBe('=3');
    expect(cell(row(), 'victory_points')).toBe('37.5');
    expect(cell(row(), 'record')).toBe('1-1-0');
  });

  it('offers the scorings of the system and those for any system', () => {
    const list = [scoring('win-draw-loss', []), scoring('dbmm-25', ['dbmm']), scoring('gts-only', ['gts'])];
    expect(scoringsFor(list, ['dbmm']).map((s) => s.id)).toEqual(['dbmm-25', 'win-draw-loss']);
    expect(scoringsFor(list, ['itacs']).map((s) => s.id)).toEqual(['win-draw-loss']);
  });

  it('offers for several systems only the scorings suiting every one of them', () => {
    const list = [scoring('win-draw-loss', []), scoring('dbmm-25', ['dbmm']), scoring('gts-only', ['gts']), scoring('day', ['gts', 'itacs'])];
    expect(scoringsFor(list, ['gts', 'itacs']).map((s) => s.id)).toEqual(['day', 'win-draw-loss']);
    expect(scoringsFor(list, ['gts', 'dbmm']).map((s) => s.id)).toEqual(['win-draw-loss']);
    expect(scoringsFor(list, ['gts']).map((s) => s.id)).toEqual(['gts-only', 'day', 'win-draw-loss']);
    // None chosen: nothing of one system's own is offered.
    expect(scoringsFor(list, []).map((s) => s.id)).toEqual(['win-draw-loss']);
  });

  it('offers an event of several systems no scoring that reads victory points (R-EVENT-6)', () => {
    const reads = { ...scoring('win-draw-loss', []), tie_breaks: ['victory_points' as const, 'strength_of_schedule' as const] };
    const asPoints = { ...scoring('vp-club', []), victory_points_are_points: true };
    const day = { ...scoring('participation-day', []), tie_breaks: ['strength_of_schedule' as const, 'head_to_head' as const] };
    const list = [reads, asPoints, day];
    expect(scoringsFor(list, ['gts', 'itacs']).map((s) => s.id)).toEqual(['participation-day']);
    expect(scoringsFor(list, ['gts']).map((s) => s.id)).toEqual(['win-draw-loss', 'vp-club', 'participation-day']);
    expect([reads, asPoints, day].map(readsVictoryPoints)).toEqual([true, true, false]);
    // The VP column: where they break ties, not where they are the points or not read.
    expect([reads, asPoints, day].map(victoryPointsColumnNeeded)).toEqual([true, false, false]);
  });

  it('asks a result by hand for its system only at an event of several, while the game names none', () => {
    expect(handSystemChoices(game(), ['gts', 'itacs'])).toEqual(['gts', 'itacs']);
    expect(handSystemChoices(game({ ruleset: 'gts' }), ['gts', 'itacs'])).toEqual([]);
    expect(handSystemChoices(game(), ['dbmm'])).toEqual([]);
  });

  it('keeps the systems chosen in the app\'s order whichever box is ticked first', () => {
    const order = ['itacs', 'gts', 'dbmm'];
    expect(toggleSystem(['dbmm'], 'itacs', true, order)).toEqual(['itacs', 'dbmm']);
    expect(toggleSystem(['itacs', 'dbmm'], 'itacs', true, order)).toEqual(['itacs', 'dbmm']);
    expect(toggleSystem(['itacs', 'dbmm'], 'itacs', false, order)).toEqual(['dbmm']);
    expect(toggleSystem(['dbmm'], 'dbmm', false, order)).toEqual([]);
  });

  it('offers one "Begin battle" at an event of one system, one button per system at an event of several', () => {
    const nameOf = (id: string) => ({ gts: 'GTS', itacs: 'ITACS' })[id] ?? id;
    expect(beginChoices(['gts'], nameOf)).toEqual([{ label: 'Begin battle' }]);
    expect(beginChoices(['gts', 'itacs'], nameOf)).toEqual([
      { ruleset: 'gts', label: 'Begin GTS battle' },
      { ruleset: 'itacs', label: 'Begin ITACS battle' },
    ]);
  });

  it('names a game\'s system on its line only at an event of several, once it is known', () => {
    const nameOf = (id: string) => ({ gts: 'GTS', itacs: 'ITACS' })[id] ?? id;
    expect(gameSystem(game({ battle: 4, ruleset: 'gts' }), ['gts', 'itacs'], nameOf)).toBe('GTS');
    expect(gameSystem(game({ battle: 4, ruleset: 'gts' }), ['gts'], nameOf)).toBeUndefined();
    expect(gameSystem(game(), ['gts', 'itacs'], nameOf)).toBeUndefined();
    const imported = game({ result: { source: { kind: 'file', head: 'h' }, players: [], words: '', rule: '', ruleset: 'itacs' } as GameResult });
    expect(gameSystem(imported, ['gts', 'itacs'], nameOf)).toBe('ITACS');
    expect(gameLine(game(), players, 'GTS')).toBe('Table 3 · Anna (Romans) v Boris (Gauls) · GTS');
    expect(projectorLine(game(), 'GTS')).toBe('Anna v Boris · GTS');
    expect(projectorLine(game())).toBe('Anna v Boris');
  });

  it('says the tie-breaks in order', () => {
    expect(tieBreaksSentence(['victory_points', 'strength_of_schedule', 'head_to_head']))
      .toBe('Ties are broken by victory points, then strength of schedule, then the game between them.');
    expect(tieBreaksSentence([])).toBe('Ties stay shared.');
  });

  it('checks the victory points typed by hand and builds the request', () => {
    expect(victoryPointsProblem('')).toBeUndefined();
    expect(victoryPointsProblem('15')).toBeUndefined();
    expect(victoryPointsProblem('-2')).toMatch(/number from 0 up/);
    expect(victoryPointsProblem('lots')).toMatch(/number from 0 up/);
    expect(handRequest({ winner: 'Anna', victoryPointsA: '15', victoryPointsB: '10,5', note: '  ' }))
      .toEqual({ winner: 'Anna', victory_points_a: 15, victory_points_b: 10.5, note: undefined });
    expect(handRequest({ winner: '', victoryPointsA: '', victoryPointsB: '', note: 'Time' })).toEqual({ winner: undefined, victory_points_a: undefined, victory_points_b: undefined, note: 'Time' });
    expect(handRequest({ winner: 'Anna', victoryPointsA: 'x', victoryPointsB: '', note: '' })).toBeUndefined();
  });

  it('says where a save went, or that nothing was saved', () => {
    expect(eventSavedSaid('report', 'Saved to Documents as open.html')).toBe('Saved to Documents as open.html');
    expect(eventSavedSaid('csv', null)).toMatch(/CSV file was not saved/);
  });
});
