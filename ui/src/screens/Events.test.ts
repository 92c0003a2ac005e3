// The events screen against Tauri's IPC mocks: the list, and a new event in two taps (name, Create).
import { clearMocks } from '@tauri-apps/api/mocks';
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SystemInfo } from '../generated/api';
import { app } from '../lib/app.svelte';
import { gts, itacs, mockCommands } from '../test-fixtures';
import Events from './Events.svelte';

const dbmm = { ...itacs, id: 'dbmm', name: 'DBMM' } as SystemInfo;
const scorings = [
  { id: 'dbmm-25', name: 'DBMM: the 25 victory points', description: 'The 25 points split.', rulesets: ['dbmm'], tie_breaks: ['strength_of_schedule'] },
  { id: 'win-draw-loss', name: 'Win 3, draw 1, loss 0', description: 'Three for a win.', rulesets: [], tie_breaks: ['victory_points'] },
  { id: 'participation-day', name: 'Participation day', description: 'Victory points are not read.', rulesets: [], tie_breaks: ['strength_of_schedule'] },
];

beforeEach(() => {
  app.rules = { systems: [itacs, gts, dbmm], house_rules: [], problems: [] };
  app.screen = 'events';
  app.event = undefined;
});
afterEach(() => clearMocks());

describe('the events screen', () => {
  it('lists the events with their system, players and round', async () => {
    mockCommands((cmd) => (cmd === 'event_list'
      ? [{ id: 2, name: 'Saturday open', rulesets: ['dbmm'], ruleset_name: 'DBMM', players: 6, rounds_paired: 2, created_at: '2026-11-27T09:00:00Z' }]
      : cmd === 'event_scorings' ? scorings : null));
    render(Events);
    expect(await screen.findByRole('button', { name: /Saturday open/ })).toHaveTextContent('DBMM · 6 players · round 2');
  });

  it('creates a DBMM event with the system’s scoring by default, then opens it', async () => {
    // The first system is the default (here DBMM), with its own scoring first.
    app.rules = { systems: [dbmm, itacs, gts], house_rules: [], problems: [] };
    const calls = mockCommands((cmd) => (cmd === 'event_list' ? [] : cmd === 'event_scorings' ? scorings : cmd === 'event_create' ? { id: 9 } : null));
    render(Events);
    await screen.findByText(/No events yet/);
    await waitFor(() => expect((document.querySelector('#event-scoring') as HTMLSelectElement).value).toBe('dbmm-25'));
    await fireEvent.input(document.querySelector('#event-name')!, { target: { value: 'Saturday open' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Create event' }));
    await waitFor(() => expect(app.screen).toBe('event'));
    expect(app.event).toBe(9);
    expect(calls.find(([c]) => c === 'event_create')![1]).toEqual({
      request: { name: 'Saturday open', rulesets: ['dbmm'], scoring: 'dbmm-25', pairing: 'swiss', first_round: 'random', rounds: 4 },
    });
  });

  it('creates an event of two systems, offering only the scorings that suit both', async () => {
    app.rules = { systems: [dbmm, gts, itacs], house_rules: [], problems: [] };
    const calls = mockCommands((cmd) => (cmd === 'event_list' ? [] : cmd === 'event_scorings' ? scorings : cmd === 'event_create' ? { id: 9 } : null));
    render(Events);
    await screen.findByText(/No events yet/);
    const scoring = document.querySelector('#event-scoring') as HTMLSelectElement;
    // DBMM, the first, is ticked by default with its own scoring chosen.
    expect(screen.getByRole('checkbox', { name: 'DBMM' })).toBeChecked();
    await waitFor(() => expect(scoring.value).toBe('dbmm-25'));
    // Ticking GTS and ITACS and clearing DBMM: DBMM's own scoring goes, and so does the one that
    // reads victory points (each system counts its own); the chosen one resets.
    await fireEvent.click(screen.getByRole('checkbox', { name: 'ITACS — Improved Tactical System' }));
    await fireEvent.click(screen.getByRole('checkbox', { name: 'GTS — Go Tell the Spartans' }));
    expect([...scoring.options].map((o) => o.value)).toEqual(['participation-day']);
    await fireEvent.click(screen.getByRole('checkbox', { name: 'DBMM' }));
    expect(scoring.value).toBe('participation-day');
    await fireEvent.input(document.querySelector('#event-name')!, { target: { value: 'Participation day' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Create event' }));
    await waitFor(() => expect(app.screen).toBe('event'));
    // Sent in the order the app lists the systems, whichever was ticked first.
    expect(calls.find(([c]) => c === 'event_create')![1]).toEqual({
      request: { name: 'Participation day', rulesets: ['gts', 'itacs'], scoring: 'participation-day', pairing: 'swiss', first_round: 'random', rounds: 4 },
    });
  });

  it('says beside the boxes that a system is needed when none is ticked, sending nothing', async () => {
    const calls = mockCommands((cmd) => (cmd === 'event_list' ? [] : cmd === 'event_scorings' ? scorings : null));
    render(Events);
    await screen.findByText(/No events yet/);
    await fireEvent.click(screen.getByRole('checkbox', { name: 'ITACS — Improved Tactical System' }));
    expect(document.querySelector('#event-rulesets-error')).toHaveTextContent('Tick at least one rule system: the event’s battles are played under the ones ticked.');
    await fireEvent.input(document.querySelector('#event-name')!, { target: { value: 'Sunday' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Create event' }));
    expect(calls.some(([c]) => c === 'event_create')).toBe(false);
    // Ticking one again clears it.
    await fireEvent.click(screen.getByRole('checkbox', { name: 'GTS — Go Tell the Spartans' }));
    expect(document.querySelector('#event-rulesets-error')).toBeNull();
  });

  it('says the API\'s refusal of the systems beside the boxes, in its sentence, and lets it go once a box changes', async () => {
    mockCommands((cmd) => {
      if (cmd === 'event_list') return [];
      if (cmd === 'event_scorings') return scorings;
      if (cmd === 'event_create') throw { code: 'event.invalid', message: 'Choose the rule system the event plays (one or more).', field: 'rulesets' };
      return null;
    });
    render(Events);
    await screen.findByText(/No events yet/);
    await fireEvent.input(document.querySelector('#event-name')!, { target: { value: 'Sunday' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Create event' }));
    await waitFor(() => expect(document.querySelector('#event-rulesets-error')).toHaveTextContent('Choose the rule system the event plays (one or more).'));
    expect(document.body).not.toHaveTextContent('event.invalid');
    await fireEvent.click(screen.getByRole('checkbox', { name: 'GTS — Go Tell the Spartans' }));
    expect(document.querySelector('#event-rulesets-error')).toBeNull();
  });

  it('asks a round robin neither its rounds nor its first round: they follow from its players', async () => {
    app.rules = { systems: [dbmm, itacs, gts], house_rules: [], problems: [] };
    const calls = mockCommands((cmd) => (cmd === 'event_list' ? [] : cmd === 'event_scorings' ? scorings : cmd === 'event_create' ? { id: 9 } : null));
    render(Events);
    await screen.findByText(/No events yet/);
    await fireEvent.input(document.querySelector('#event-rounds')!, { target: { value: '0' } });
    await fireEvent.change(document.querySelector('#event-pairing')!, { target: { value: 'round_robin' } });
    expect(document.querySelector('#event-rounds')).toBeNull();
    expect(document.querySelector('#event-first-round')).toBeNull();
    expect(document.querySelector('#event-rounds-robin')).toHaveTextContent('Each player meets every other once');
    await fireEvent.input(document.querySelector('#event-name')!, { target: { value: 'Club league' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Create event' }));
    await waitFor(() => expect(app.screen).toBe('event'));
    expect(calls.find(([c]) => c === 'event_create')![1]).toEqual({
      request: { name: 'Club league', rulesets: ['dbmm'], scoring: 'dbmm-25', pairing: 'round_robin', first_round: 'seeded', rounds: 1 },
    });
  });

  it('refuses an empty name and a bad number of rounds beside the fields, sending nothing', async () => {
    const calls = mockCommands((cmd) => (cmd === 'event_list' ? [] : cmd === 'event_scorings' ? scorings : null));
    render(Events);
    await screen.findByText(/No events yet/);
    await fireEvent.input(document.querySelector('#event-rounds')!, { target: { value: '0' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Create event' }));
    expect(document.querySelector('#event-name-error')).toHaveTextContent('Name the event: it cannot be left empty.');
    expect(document.querySelector('#event-rounds-error')).toHaveTextContent('Rounds must be a whole number from 1 to 20.');
    expect(calls.some(([c]) => c === 'event_create')).toBe(false);
  });
});
