// The resolver against Tauri's IPC mocks: the figure scale from Settings, the result applied once
// (a second tap sends nothing), and a refused situation as a sentence.
import { clearMocks } from '@tauri-apps/api/mocks';
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Resolution, SystemInfo } from '../generated/api';
import { app } from '../lib/app.svelte';
import { mockCommands, view } from '../test-fixtures';
import Resolver from './Resolver.svelte';

const dbmm = {
  id: 'dbmm', name: 'DBMM', dice: 'd6 v d6', fingerprint: 'f', layers: [],
  actions: [{ id: 'distance', name: 'Distances', rule: 'p. 21' }, { id: 'melee', name: 'Melee', rule: '4.5' }],
  choices: [{ field: 'scale', options: [{ key: '15mm', label: '15 mm' }, { key: '25mm', label: '25 mm' }] }], phases: [],
} as unknown as SystemInfo;

const schema = { type: 'object', properties: { paces: { type: 'integer' }, scale: { type: 'string' } }, required: ['paces'] };

const resolution = (outcome: boolean): Resolution => ({
  system: 'dbmm', action: 'melee', dice: '2d6', totals: [], modifiers: [], total_modifier: 0, forecast: [], checks: [], notes: [],
  distribution: [{ result: 'DX', meaning: 'destroyed', rolls: '2–12', probability: '1/1', p: 1, effects: [{ target: 'defender', change: { kind: 'destroy_all' }, text: 'The defender is destroyed', rule: '4.5' }] }],
  outcome: outcome ? { dice: [3, 4], roll: 7, modified: 7, result: 'DX', meaning: 'destroyed', effects: [{ target: 'defender', change: { kind: 'destroy_all' }, text: 'The defender is destroyed', rule: '4.5' }] } : undefined,
} as unknown as Resolution);

beforeEach(() => {
  app.rules = { systems: [dbmm], house_rules: [], problems: [] };
  app.view = view({ ruleset: 'dbmm' });
  app.screen = 'battle';
  app.tab = 'resolve';
});
afterEach(() => clearMocks());

describe('the resolver', () => {
  it('starts a figure scale field at the scale chosen in Settings (15 mm)', async () => {
    const calls = mockCommands((cmd, args) => {
      if (cmd === 'situation_schema') return schema;
      if (cmd === 'resolve') return resolution(!!(args.request as { dice?: number[] }).dice);
      return [];
    });
    render(Resolver);
    await waitFor(() => expect(calls.some(([c]) => c === 'resolve')).toBe(true));
    const request = calls.find(([c]) => c === 'resolve')![1].request as { situation: { scale?: string } };
    expect(request.situation.scale).toBe('15mm');
  });

  it('applies a result once: the button turns into “Applied ✓” and a second tap sends nothing', async () => {
    app.resolverAction = 'melee';
    const calls = mockCommands((cmd, args) => {
      if (cmd === 'situation_schema') return schema;
      if (cmd === 'resolve') return resolution(!!(args.request as { dice?: number[] }).dice);
      if (cmd === 'battle_apply') return { ...view({ ruleset: 'dbmm' }), log: [{ seq: 3, at: '2026-11-21T10:02:00Z', kind: 'applied', text: 'Melee: DX (dice 3, 4; physical dice)', undone: false, edited: false, changes: ['17.04: destroyed'] }] };
      return [];
    });
    render(Resolver);
    await waitFor(() => expect(document.querySelectorAll('#dice-box input.die').length).toBe(2));
    await fireEvent.click(screen.getByRole('button', { name: 'Die 1 shows 3' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Die 2 shows 4' }));
    const apply = await screen.findByRole('button', { name: 'Apply DX' });
    await fireEvent.click(apply);
    // Nothing is ticked for the defender: the umpire is asked first.
    await fireEvent.click(await screen.findByRole('button', { name: 'Apply anyway' }));
    await waitFor(() => expect(calls.filter(([c]) => c === 'battle_apply').length).toBe(1));
    expect(await screen.findByText(/Applied: Melee: DX \(dice 3, 4; physical dice\) — 17.04: destroyed/)).toBeInTheDocument();
    const done = screen.getByRole('button', { name: 'Applied ✓' });
    expect(done).toBeDisabled();
    await fireEvent.click(done);
    expect(calls.filter(([c]) => c === 'battle_apply').length).toBe(1);
    const sent = calls.find(([c]) => c === 'battle_apply')![1].request as { dice: unknown };
    expect(sent.dice).toEqual({ kind: 'physical', faces: [3, 4] });
  });

  it('shows a refused situation as a sentence naming the field', async () => {
    mockCommands((cmd) => {
      if (cmd === 'situation_schema') return schema;
      if (cmd === 'resolve') throw { code: 'situation.invalid', message: 'the distance in paces must be `0` or more', field: 'paces' };
      return [];
    });
    render(Resolver);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Paces: The distance in paces must be 0 or more.');
    expect(document.querySelector('#f-paces')).toHaveAttribute('aria-invalid', 'true');
  });
});
