// The event screen against Tauri's IPC mocks: a pairing shown with its table, a result by hand
// sent as entered, a refusal said as a sentence, a double tap on "Pair round" sent once.
import { clearMocks } from '@tauri-apps/api/mocks';
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { app } from '../lib/app.svelte';
import type { EventView } from '../lib/event';
import { gts, itacs, mockCommands, view } from '../test-fixtures';
import EventScreen from './Event.svelte';

function eventView(over: Partial<EventView> = {}): EventView {
  return {
    id: 5,
    tournament: {
      setup: { name: 'Saturday open', rulesets: ['dbmm'], scoring: 'dbmm-25', pairing: 'swiss', first_round: 'random', rounds: 4 },
      players: [{ name: 'Anna', army: 'Romans' }, { name: 'Boris', army: 'Gauls' }, { name: 'Cleo', army: 'Franks' }],
      rounds: [{ number: 1, games: [{ pairing: { table: 3, a: 'Anna', b: 'Boris' }, }], bye: 'Cleo' }],
    },
    standings: [
      { rank: 1, shared: true, player: 'Anna', army: 'Romans', played: 0, wins: 0, draws: 0, losses: 0, byes: 0, points: 0, victory_points: 0, strength_of_schedule: 0 },
      { rank: 1, shared: true, player: 'Boris', army: 'Gauls', played: 0, wins: 0, draws: 0, losses: 0, byes: 0, points: 0, victory_points: 0, strength_of_schedule: 0 },
    ],
    scoring: {
      id: 'dbmm-25', name: 'DBMM: the 25 victory points', description: '', rulesets: ['dbmm'], rule: 'p. 43', win: 0, draw: 0, loss: 0,
      victory_points_are_points: true, bye_points: 15, bye_victory_points: 15, tie_breaks: ['strength_of_schedule'], builtin: true,
    },
    ruleset_name: 'DBMM', next_round: 2, rounds_planned: 4, can_pair: false, why_not_pair: 'Round 1 still waits for 1 result.', undo: 'Undo: round 1 paired',
    ...over,
  } as EventView;
}

beforeEach(() => {
  app.event = 5;
  app.screen = 'event';
  app.rules = { systems: [itacs, gts], house_rules: [], problems: [] };
});
afterEach(() => clearMocks());

describe('the event screen', () => {
  it('shows a pairing with its table and armies, the bye, why the next round waits, and Undo naming what it takes back', async () => {
    mockCommands((cmd) => (cmd === 'event_view' ? eventView() : null));
    render(EventScreen);
    expect(await screen.findByText('Table 3 · Anna (Romans) v Boris (Gauls)')).toBeInTheDocument();
    expect(document.querySelector('#round-bye')).toHaveTextContent('Bye: Cleo (Franks)');
    expect(screen.getByRole('button', { name: 'Pair round 2' })).toBeDisabled();
    expect(document.querySelector('#why-not-pair')).toHaveTextContent('Round 1 still waits for 1 result.');
    expect(screen.getByRole('button', { name: 'Undo: round 1 paired' })).toBeEnabled();
    expect(document.querySelectorAll('#standings-table tbody tr')[0]).toHaveTextContent('=1');
  });

  it('counts a round robin’s rounds from its players, pairs up to the last, and says who sits a round out', async () => {
    const robin = eventView({ next_round: 4, rounds_planned: 5, can_pair: true, why_not_pair: undefined, why_no_player_joins: 'A round robin’s players are fixed once round 1 is paired.' });
    robin.tournament.setup = { ...robin.tournament.setup, pairing: 'round_robin', rounds: 1 };
    robin.tournament.players.push({ name: 'Dora', army: 'Huns', withdrawn: true }, { name: 'Emil', army: 'Goths' }, { name: 'Finn', army: 'Saxons' });
    robin.tournament.rounds = [1, 2, 3].map((number) => ({ number, games: [{ pairing: { table: 1, a: 'Anna', b: 'Boris' } }, { pairing: { table: 2, a: 'Cleo', b: 'Finn' } }] }));
    mockCommands((cmd) => (cmd === 'event_view' ? robin : null));
    render(EventScreen);
    expect(await screen.findByRole('heading', { name: 'Round 3 of 5' })).toBeInTheDocument();
    expect(document.querySelector('#event-summary')).toHaveTextContent('Round robin · 5 rounds');
    expect(screen.getByRole('button', { name: 'Pair round 4' })).toBeEnabled();
    expect(document.querySelector('#round-not-paired')).toHaveTextContent('Not paired in round 3: Emil (the round robin gives no opponent still to meet: no game, no bye).');
    // Its players are fixed: the sentence instead of the form.
    expect(document.querySelector('#add-player')).toBeNull();
    // Round 3 follows from round 1: no swap offered.
    expect(document.querySelector('#swap-open')).toBeNull();
    expect(document.querySelector('#players-closed')).toHaveTextContent('fixed once round 1 is paired');
  });

  it('sends a result entered by hand as entered, and shows it marked', async () => {
    const done = eventView();
    done.tournament.rounds[0].games[0].result = {
      source: { kind: 'hand' }, words: 'Anna beat Boris 15–10', rule: '',
      players: [{ player: 'Anna', outcome: 'win', victory_points: 15 }, { player: 'Boris', outcome: 'loss', victory_points: 10 }],
    };
    const calls = mockCommands((cmd) => (cmd === 'event_view' ? eventView() : cmd === 'event_result_by_hand' ? done : null));
    render(EventScreen);
    await fireEvent.click(await screen.findByRole('button', { name: 'Enter by hand' }));
    await fireEvent.click(screen.getByLabelText('Anna'));
    await fireEvent.input(document.querySelector('#vp-a-3')!, { target: { value: '15' } });
    await fireEvent.input(document.querySelector('#vp-b-3')!, { target: { value: '10' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Record result' }));
    await waitFor(() => expect(document.querySelector('[data-result="3"]')).toHaveTextContent('Anna beat Boris 15–10 Entered by hand'));
    const sent = calls.filter(([c]) => c === 'event_result_by_hand');
    expect(sent).toHaveLength(1);
    expect(sent[0][1]).toEqual({ event: 5, round: 1, table: 3, request: { winner: 'Anna', victory_points_a: 15, victory_points_b: 10 } });
  });

  it('refuses victory points that are not a number beside the field, sending nothing', async () => {
    const calls = mockCommands((cmd) => (cmd === 'event_view' ? eventView() : null));
    render(EventScreen);
    await fireEvent.click(await screen.findByRole('button', { name: 'Enter by hand' }));
    await fireEvent.input(document.querySelector('#vp-a-3')!, { target: { value: 'lots' } });
    expect(document.querySelector('#vp-a-3-error')).toHaveTextContent('Type the victory points as a number from 0 up');
    expect(screen.getByRole('button', { name: 'Record result' })).toBeDisabled();
    expect(calls.some(([c]) => c === 'event_result_by_hand')).toBe(false);
  });

  it('says a duplicate player beside the name in the API’s sentence, never its code, and keeps what was typed', async () => {
    mockCommands((cmd) => {
      if (cmd === 'event_view') return eventView();
      if (cmd === 'event_player_add') throw { code: 'event.duplicate_player', message: 'Anna is already a player of this event: give another name (a surname, a club).', field: 'name' };
      return null;
    });
    render(EventScreen);
    await screen.findByText('Table 3 · Anna (Romans) v Boris (Gauls)');
    await fireEvent.input(document.querySelector('#player-name')!, { target: { value: 'anna' } });
    await fireEvent.input(document.querySelector('#player-army')!, { target: { value: 'Seleucids' } });
    await fireEvent.submit(document.querySelector('#add-player')!);
    await waitFor(() => expect(document.querySelector('#player-name-error')).toHaveTextContent('Anna is already a player of this event: give another name (a surname, a club).'));
    expect(document.body).not.toHaveTextContent('event.duplicate_player');
    expect((document.querySelector('#player-name') as HTMLInputElement).value).toBe('anna');
    expect((document.querySelector('#player-army') as HTMLInputElement).value).toBe('Seleucids');
  });

  it('pairs the next round once under a double tap', async () => {
    let answer: (v: EventView) => void = () => undefined;
    const ready = eventView({ can_pair: true, why_not_pair: undefined });
    ready.tournament.rounds[0].games[0].result = { source: { kind: 'hand' }, words: 'Draw', rule: '', players: [] };
    const calls = mockCommands((cmd) => (cmd === 'event_view' ? ready : cmd === 'event_pair' ? new Promise((r) => (answer = r)) : null));
    render(EventScreen);
    const pair = await screen.findByRole('button', { name: 'Pair round 2' });
    await fireEvent.click(pair);
    await fireEvent.click(pair);
    answer(eventView({ next_round: 3, can_pair: false }));
    await waitFor(() => expect(calls.filter(([c]) => c === 'event_pair')).toHaveLength(1));
    expect(calls.find(([c]) => c === 'event_pair')![1]).toEqual({ event: 5, round: 2 });
  });

  it('swaps two players of a round not yet started', async () => {
    const calls = mockCommands((cmd) => (cmd === 'event_view' || cmd === 'event_swap' ? eventView() : null));
    render(EventScreen);
    await fireEvent.click(await screen.findByRole('button', { name: 'Swap…' }));
    await fireEvent.change(document.querySelector('#swap-a')!, { target: { value: 'Boris' } });
    await fireEvent.change(document.querySelector('#swap-b')!, { target: { value: 'Cleo' } });
    expect(screen.getByRole('button', { name: 'Swap them' })).toBeEnabled();
    await fireEvent.click(screen.getByRole('button', { name: 'Swap them' }));
    await waitFor(() => expect(calls.find(([c]) => c === 'event_swap')?.[1]).toEqual({ event: 5, round: 1, a: 'Boris', b: 'Cleo' }));
  });

  it('opens the projector view with the round’s tables and closes it on Escape', async () => {
    mockCommands((cmd) => (cmd === 'event_view' ? eventView() : null));
    render(EventScreen);
    await fireEvent.click(await screen.findByRole('button', { name: 'Projector view' }));
    const projector = screen.getByRole('dialog', { name: 'Projector view' });
    expect(projector).toHaveTextContent('Table 3 Anna v Boris');
    await fireEvent.keyDown(projector, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Projector view' })).toBeNull();
  });
});

describe('a player withdrawn', () => {
  it('asks once more, then sends the withdrawal and shows the player as withdrawn', async () => {
    const after = eventView();
    after.tournament.players[2] = { name: 'Cleo', army: 'Franks', withdrawn: true };
    const calls = mockCommands((cmd) => (cmd === 'event_view' ? eventView() : cmd === 'event_player_withdraw' ? after : null));
    render(EventScreen);
    await fireEvent.click(await screen.findByRole('button', { name: 'Withdraw Cleo' }));
    expect(calls.some(([c]) => c === 'event_player_withdraw')).toBe(false);
    await fireEvent.click(screen.getByRole('button', { name: 'Really withdraw Cleo?' }));
    await waitFor(() => expect(document.querySelector('[data-entrant="Cleo"]')).toHaveTextContent('(withdrawn)'));
    expect(calls.find(([c]) => c === 'event_player_withdraw')![1]).toEqual({ event: 5, player: 'Cleo' });
  });
});

describe('a refusal beside a game', () => {
  it('says why the battle gives no result yet, in words, and goes once the result is entered by hand', async () => {
    const begun = eventView();
    begun.tournament.rounds[0].games[0].battle = 12;
    const done = eventView();
    done.tournament.rounds[0].games[0] = { ...begun.tournament.rounds[0].games[0], result: { source: { kind: 'hand' }, words: 'Entered by hand: Anna and Boris drew.', rule: '', players: [] } };
    mockCommands((cmd) => {
      if (cmd === 'event_view') return begun;
      if (cmd === 'event_result_from_battle') throw { code: 'event.no_verdict', message: 'The battle at table 3 has no result yet: apply a result in it first.' };
      if (cmd === 'event_result_by_hand') return done;
      return null;
    });
    render(EventScreen);
    await fireEvent.click(await screen.findByRole('button', { name: 'Result from battle' }));
    await waitFor(() => expect(document.querySelector('[data-problem="3"]')).toHaveTextContent('The battle at table 3 has no result yet: apply a result in it first.'));
    expect(document.body).not.toHaveTextContent('event.no_verdict');
    await fireEvent.click(screen.getByRole('button', { name: 'Enter by hand' }));
    await fireEvent.click(screen.getByLabelText('Draw'));
    await fireEvent.click(screen.getByRole('button', { name: 'Record result' }));
    await waitFor(() => expect(document.querySelector('[data-result="3"]')).toHaveTextContent('Anna and Boris drew. Entered by hand'));
    expect(document.querySelector('[data-problem="3"]')).toBeNull();
  });
});

describe('beginning a battle', () => {
  it('offers one "Begin battle" at an event of one system, sent once under a double tap without a system', async () => {
    let answer: (v: unknown) => void = () => undefined;
    const calls = mockCommands((cmd) => (cmd === 'event_view' ? eventView() : cmd === 'event_begin_battle' ? new Promise((r) => (answer = r)) : null));
    render(EventScreen);
    const begin = await screen.findByRole('button', { name: 'Begin battle' });
    expect(screen.queryAllByRole('button', { name: /^Begin .+ battle$/ })).toHaveLength(0);
    await fireEvent.click(begin);
    await fireEvent.click(begin);
    answer(view());
    await waitFor(() => expect(app.screen).toBe('battle'));
    const sent = calls.filter(([c]) => c === 'event_begin_battle');
    expect(sent).toHaveLength(1);
    expect(sent[0][1]).toEqual({ event: 5, round: 1, table: 3 });
  });

  it('offers a begin button per system at an event of several, and begins under the one tapped', async () => {
    const several = eventView({ ruleset_name: 'GTS and ITACS' });
    several.tournament.setup.rulesets = ['gts', 'itacs'];
    const calls = mockCommands((cmd) => (cmd === 'event_view' ? several : cmd === 'event_begin_battle' ? view({ ruleset: 'itacs' }) : null));
    render(EventScreen);
    await screen.findByRole('button', { name: 'Begin GTS battle' });
    // The head names the systems as the API joins them, short.
    expect(document.querySelector('#event-summary')!.textContent).toMatch(/^GTS and ITACS · DBMM: the 25 victory points/);
    expect(screen.queryByRole('button', { name: 'Begin battle' })).toBeNull();
    await fireEvent.click(screen.getByRole('button', { name: 'Begin ITACS battle' }));
    await waitFor(() => expect(app.screen).toBe('battle'));
    expect(calls.filter(([c]) => c === 'event_begin_battle').map(([, args]) => args)).toEqual([{ event: 5, round: 1, table: 3, ruleset: 'itacs' }]);
  });

  it('names a begun game\'s system on its line and on the projector at an event of several, not at an event of one', async () => {
    const several = eventView({ ruleset_name: 'GTS and ITACS' });
    several.tournament.setup.rulesets = ['gts', 'itacs'];
    several.tournament.rounds[0].games[0] = { ...several.tournament.rounds[0].games[0], battle: 12, ruleset: 'gts' };
    mockCommands((cmd) => (cmd === 'event_view' ? several : null));
    render(EventScreen);
    expect(await screen.findByText('Table 3 · Anna (Romans) v Boris (Gauls) · GTS')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Begin/ })).toBeNull();
    await fireEvent.click(screen.getByRole('button', { name: 'Projector view' }));
    expect(screen.getByRole('dialog', { name: 'Projector view' })).toHaveTextContent('Table 3 Anna v Boris · GTS');
  });

  it('leaves the system off the line at an event of one', async () => {
    const one = eventView();
    one.tournament.rounds[0].games[0] = { ...one.tournament.rounds[0].games[0], battle: 12, ruleset: 'dbmm' };
    mockCommands((cmd) => (cmd === 'event_view' ? one : null));
    render(EventScreen);
    expect(await screen.findByText('Table 3 · Anna (Romans) v Boris (Gauls)')).toBeInTheDocument();
  });
});
